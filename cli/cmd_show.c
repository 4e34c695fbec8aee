/* cmd_show.c - `paperball show`: the diagram of a position in the terminal
 * (ASCII or Unicode) and, with --svg FILE, as an SVG picture; with --html
 * FILE, a page that replays the game. */
#include <stdlib.h>
#include <string.h>

#include "../solver/diagram.h"
#include "../solver/match.h"
#include "cli.h"
#include "pictures.h"

/* The command line of show. */
typedef struct show_args {
    pb_opts o;
    int color, cont, no_diagram;
    const char *title;
} show_args;

static int parse_options(show_args *a, int argc, char **argv) {
    const pb_option options[] = {
        PB_OPTS_FIELD(a->o),
        PB_OPTS_RECORD(a->o),
        PB_OPT_FLAG("unicode", &a->o.unicode, "box-drawing characters instead of ASCII"),
        PB_OPT_FLAG("ascii", &a->o.ascii, "ASCII characters (the default)"),
        PB_OPT_FLAG("odd", &a->o.odd, "mark the odd nodes ('o', Unicode '\u2022'), the book's figure 4"),
        PB_OPT_FLAG("color", &a->color, "colour the lines: Top blue, Bottom red (ANSI)"),
        {.name = "colour", .kind = PB_ARG_FLAG, .target = &a->color},
        PB_OPT_SVG(a->o, "also write the picture as SVG to FILE"),
        PB_OPT_HTML(a->o, "also write a page that replays the game step by step (docs/diagrams.md)"),
        PB_OPT_TEXT("title", "TEXT", &a->title, "SVG caption (default: the field and the rules)"),
        PB_OPT_INT("continuation", "N", &a->cont, 0, 1000000,
                   "SVG: draw turns N+1.. (N turns shown) as a dashed continuation"),
        PB_OPT_FLAG("no-diagram", &a->no_diagram, "no text diagram (only the SVG and the result line)"),
        PB_OPT_QUIET(a->o),
        PB_OPT_MATCH(a->o),
        PB_OPT_END};
    const pb_command cmd = {"show", "[options] [RECORD-FILE|-]",
                            "Draws the position reached by a game record (argument, --record TEXT,\n"
                            "--record-file FILE, or '-' for standard input; default: the start) and\n"
                            "prints the result or whose move it is.\n\n"
                            "Text glyphs (ASCII / Unicode): '.' '\u00b7' empty node, '+' '\u25e6' occupied node,\n"
                            "'*' '\u25cf' the ball, 'G' '\u25aa' goal node, '#' (heavy lines) the border,\n"
                            "'-' '|' '/' '\\' ('\u2500' '\u2502' '\u2571' '\u2572') drawn segments, 'X' '\u2573' both\n"
                            "diagonals of a cell.  See docs/diagrams.md.\n",
                            options, 1};
    return pb_cli_parse(&cmd, argc, argv, &a->o);
}

/* The pictures (--svg, --html), the text diagram and the result line. */
static int show_game(const show_args *a, const pb_field *f, const pb_game *g) {
    pb_diagram_opts d = {0};
    d.unicode = a->o.unicode && !a->o.ascii;
    d.odd = a->o.odd;
    d.color = a->color;
    char caption[1024];
    d.title = g->match && !a->title ? pb_match_caption(g, caption, sizeof caption) : a->title;
    d.highlight_from = a->cont;
    int status = pb_cli_write_game_pictures(g, &d, 0, a->o.svg, a->o.html, a->o.quiet);
    if (status != PB_EXIT_OK) return status;
    if (!a->no_diagram) {
        char *text = pb_diagram_text(g, &d);
        fputs(text, stdout);
        free(text);
    }
    char desc[128], result[128];
    printf("%s; %d turn%s; %s\n", pb_field_describe(f, desc, sizeof desc), g->nturns, g->nturns == 1 ? "" : "s",
           pb_game_result(g, result, sizeof result));
    return PB_EXIT_OK;
}

int cmd_show(int argc, char **argv) {
    show_args a = {.cont = -1};
    int rc = parse_options(&a, argc, argv);
    if (rc != PB_CLI_GO) return rc;
    pb_field *f;
    pb_game g;
    if (pb_cli_load(&a.o, &f, &g) != PB_CLI_GO) return PB_EXIT_USAGE;
    if (a.cont > g.nturns)
        rc = pb_fail(PB_EXIT_USAGE, "--continuation %d: the record has only %d turns", a.cont, g.nturns);
    else rc = show_game(&a, f, &g);
    pb_game_free(&g);
    pb_field_free(f);
    return rc;
}
