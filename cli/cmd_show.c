/* cmd_show.c - `paperball show`: the diagram of a position in the terminal
 * (ASCII or Unicode) and, with --svg FILE, as an SVG picture; with --html
 * FILE, a page that replays the game. */
#include <stdlib.h>
#include <string.h>

#include "../solver/diagram.h"
#include "cli.h"
#include "pictures.h"

static void show_help(void) {
    puts("usage: paperball show [options] [RECORD-FILE|-]\n\n"
         "Draws the position reached by a game record (argument, --record TEXT,\n"
         "--record-file FILE, or '-' for standard input; default: the start) and\n"
         "prints the result or whose move it is.\n\n"
         "  --unicode              box-drawing characters instead of ASCII\n"
         "  --odd                  mark the odd nodes ('o', Unicode '\u2022'), the book's figure 4\n"
         "  --color                colour the lines: Top blue, Bottom red (ANSI)\n"
         "  --svg FILE             also write the picture as SVG to FILE\n"
         "  --html FILE            also write a page that replays the game step by step\n"
         "  --title TEXT           SVG caption (default: the field and the rules)\n"
         "  --continuation N       SVG: draw turns N+1.. (N turns shown) as a dashed continuation\n"
         "  --quiet                no text diagram (only the SVG and the result line)\n\n"
         "Text glyphs (ASCII / Unicode): '.' '\u00b7' empty node, '+' '\u25e6' occupied node,\n"
         "'*' '\u25cf' the ball, 'G' '\u25aa' goal node, '#' (heavy lines) the border,\n"
         "'-' '|' '/' '\\' ('\u2500' '\u2502' '\u2571' '\u2572') drawn segments, 'X' '\u2573' both\n"
         "diagonals of a cell.  See docs/diagrams.md.\n");
    pb_common_help(stdout);
}

int cmd_show(int argc, char **argv) {
    if (argc > 0 && !strcmp(argv[0], "--help")) {
        show_help();
        return PB_EXIT_OK;
    }
    /* Options of this command only, taken out before the common parser. */
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    int nrest = 0, color = 0, cont = -1;
    const char *title = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            free(rest);
            show_help();
            return PB_EXIT_OK;
        } else if (!strcmp(argv[i], "--color") || !strcmp(argv[i], "--colour")) {
            color = 1;
        } else if (!strcmp(argv[i], "--title") || !strncmp(argv[i], "--title=", 8)) {
            if (argv[i][7] == '=') title = argv[i] + 8;
            else if (i + 1 < argc) title = argv[++i];
            else return free(rest), pb_fail(PB_EXIT_USAGE, "option --title needs a value");
        } else if (!strcmp(argv[i], "--continuation") || !strncmp(argv[i], "--continuation=", 15)) {
            const char *v = argv[i][14] == '=' ? argv[i] + 15 : i + 1 < argc ? argv[++i] : NULL;
            char *end;
            long n = v ? strtol(v, &end, 10) : -1;
            if (!v || !*v || *end || n < 0 || n > 1000000)
                return free(rest), pb_fail(PB_EXIT_USAGE, "bad value for --continuation: expected a number of turns");
            cont = (int)n;
        } else {
            rest[nrest++] = argv[i];
        }
    }
    pb_opts o;
    int rc = pb_opts_parse(&o, nrest, rest);
    free(rest);
    if (rc) return PB_EXIT_USAGE;
    if (o.nargs > 1) return pb_fail(PB_EXIT_USAGE, "show takes at most one record file, got %d arguments", o.nargs);
    if (o.nargs == 1 && (o.record || o.record_file))
        return pb_fail(PB_EXIT_USAGE, "give the record once: a file argument or --record/--record-file");
    pb_field *f;
    pb_game g;
    if (pb_cli_load(&o, &f, &g) != PB_CLI_GO) return PB_EXIT_USAGE;
    if (cont > g.nturns) {
        int n = g.nturns;
        pb_game_free(&g);
        pb_field_free(f);
        return pb_fail(PB_EXIT_USAGE, "--continuation %d: the record has only %d turns", cont, n);
    }
    pb_diagram_opts d = {0};
    d.unicode = o.unicode && !o.ascii;
    d.odd = o.odd;
    d.color = color;
    d.title = title;
    d.highlight_from = cont;

    int status = pb_cli_write_game_pictures(&g, &d, 0, o.svg, o.html);
    if (status == PB_EXIT_OK) {
        if (!o.quiet) {
            char *text = pb_diagram_text(&g, &d);
            fputs(text, stdout);
            free(text);
        }
        char desc[128], result[128];
        printf("%s; %d turn%s; %s\n", pb_field_describe(f, desc, sizeof desc), g.nturns, g.nturns == 1 ? "" : "s",
               pb_game_result(&g, result, sizeof result));
    }
    pb_game_free(&g);
    pb_field_free(f);
    return status;
}
