/* cmd_play.c - `paperball play`: two people play in the terminal.
 *
 * One line of standard input per turn: a route in the record notation
 * (docs/notation.md, e.g. "e7-f8" or "12. e7-f8!"), or a command (undo,
 * moves, distinct, record, board, quit, help).  A line is checked by appending it to
 * the canonical record of the game so far and parsing the whole record, so
 * play accepts exactly what records accept and refuses with the same
 * reasons.  Everything goes to standard output in order, so a piped session
 * reads as a transcript (the input lines are echoed when stdin is not a
 * terminal).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../solver/diagram.h"
#include "../solver/match.h"
#include "../solver/turnwalk.h"
#include "cli.h"
#include "play.h"

typedef struct play {
    const pb_field *f;
    pb_game g;
    int base; /* turns of the starting record: undo stops there */
    pb_diagram_opts diagram;
    pb_play_solver *solver; /* --vs-solver; NULL: two people */
    int person;             /* --vs-solver: the side of the person */
} play;

static void show_board(const play *p) {
    char *text = pb_diagram_text(&p->g, &p->diagram);
    size_t n = strlen(text);
    fputs(text, stdout);
    if (n == 0 || text[n - 1] != '\n') putchar('\n');
    free(text);
}

static void show_status(const play *p) {
    char name[8];
    /* The end of the game is announced once, after the loop. */
    char score[64];
    if (p->g.end == PB_END_NONE && p->g.match) printf("%s; ", pb_match_score(p->g.goals, score, sizeof score));
    if (p->g.end == PB_END_NONE)
        printf("%s to move, ball on %s\n", pb_player_name(p->g.pos.to_move), pb_node_name(p->f, p->g.pos.ball, name));
}

static void show_record(const play *p) {
    char *rec = pb_record_format(&p->g);
    printf("record: %s\n", rec[0] ? rec : "(no moves)");
    free(rec);
}

typedef struct lister {
    char *buf;
    size_t len;
    int n;
} lister;

static int list_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)after;
    lister *l = ctx;
    char what[64];
    printf("  %-24s %s\n", pb_route_format(f, r->nodes, r->len, r->kick, l->buf, l->len),
           pb_cli_route_outcome(r, what, sizeof what));
    l->n++;
    return 0;
}

/* The distinct command: one route per distinct position after the turn. */
static int list_outcome(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    lister *l = ctx;
    char what[64];
    pb_route r = {o->nodes, o->len, o->mover, o->kick, o->end, o->loser};
    printf("  %-24s %-24s %llu%s route%s\n", pb_route_format(f, r.nodes, r.len, r.kick, l->buf, l->len),
           pb_cli_route_outcome(&r, what, sizeof what), (unsigned long long)o->routes, o->overflow ? "+" : "",
           o->routes == 1 && !o->overflow ? "" : "s");
    l->n++;
    return 0;
}

static void show_distinct(play *p) {
    if (p->g.match) {
        puts("distinct does not apply to a match (moves lists its turns)");
        return;
    }
    lister l = {NULL, 8 * (size_t)p->f->nsegments + 64, 0};
    l.buf = malloc(l.len);
    pb_turnwalk *tw = pb_turnwalk_new(p->f);
    if (!l.buf || !tw || pb_turnwalk_set_routes(tw, 1) ||
        pb_turn_outcomes(tw, &p->g.pos, list_outcome, &l) == PB_TURNWALK_TOO_BIG)
        puts("out of memory listing the distinct turns");
    else printf("%d distinct turns (positions after the turn)\n", l.n);
    pb_turnwalk_free(tw);
    free(l.buf);
}

/* A ply of a match, worded as `moves --match` words it: a goal does not
 * end a match. */
static int list_match_ply(void *ctx, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    (void)after;
    lister *l = ctx;
    char what[96];
    printf("  %-24s %s\n", pb_route_format(f, r->nodes, r->len, r->kick, l->buf, l->len),
           pb_match_ply_text(r, over, what, sizeof what));
    l->n++;
    return 0;
}

static void show_moves(play *p) {
    lister l = {NULL, 16 * (size_t)p->f->nsegments + 64, 0};
    l.buf = malloc(l.len);
    if (!l.buf) {
        puts("out of memory listing the turns");
        return;
    }
    if (p->g.match) pb_match_foreach(p->f, &p->g.pos, list_match_ply, &l);
    else pb_routes_foreach(p->f, &p->g.pos, list_route, &l);
    printf("%d legal turns\n", l.n);
    free(l.buf);
}

static void show_help(int vs_solver, int match) {
    puts("Type a route (move numbers and annotations like '12. e7-f8!' are accepted),\n"
         "or one of:\n"
         "  moves    list the legal turns with their outcomes");
    if (!match)
        puts("  distinct one route per distinct position after the turn, with its count of\n"
             "           routes (late turns can have millions of routes)");
    puts("  undo     take back the last turn (against the solver: yours and its reply)\n"
         "  record   print the game record so far\n"
         "  board    show the board again\n"
         "  quit     stop (the record is printed)\n"
         "  help     this text");
    if (vs_solver)
        puts("  value    the value of the position for the player to move\n"
             "  hint     a best turn\n"
             "  go       the solver plays this turn for you");
}

/* Takes back the last turn; against the solver, back to the person's
 * last choice.  0 if there is nothing to take back. */
static int undo(play *p) {
    if (p->g.nturns <= p->base) return 0;
    pb_game_undo(&p->g);
    while (p->solver && p->g.nturns > p->base && pb_play_chooser(p->f, &p->g) != p->person) pb_game_undo(&p->g);
    return 1;
}

/* Plays the route(s) of one input line.  Returns 1 if a turn was played. */
static int play_line(play *p, const char *line) {
    char *rec = pb_record_format(&p->g);
    size_t n = strlen(rec) + strlen(line) + 2;
    char *text = malloc(n), err[256];
    snprintf(text, n, "%s %s", rec, line);
    free(rec);
    pb_game h;
    int rc = p->g.match ? pb_record_parse_match(p->f, text, &h, err, sizeof err)
                        : pb_record_parse(p->f, text, &h, err, sizeof err);
    free(text);
    if (rc) {
        printf("refused: %s\n", err);
        return 0;
    }
    if (h.first != p->g.first || h.nturns < p->g.nturns) {
        puts("refused: who plays first is fixed when the game starts (use --record '(\xd0\x9d;\xd0\x92)' "
             "or --first bottom)");
        pb_game_free(&h);
        return 0;
    }
    if (h.nturns > p->g.nturns + 1) {
        puts("refused: one route per line, so that each player sees the board before moving");
        pb_game_free(&h);
        return 0;
    }
    int played = h.nturns > p->g.nturns;
    pb_game_free(&p->g);
    p->g = h;
    if (!played) {
        puts("noted");
        return 0;
    }
    const pb_game_turn *t = &p->g.turns[p->g.nturns - 1];
    size_t rl = 6 * (size_t)t->len + 4;
    char *route = malloc(rl);
    printf("%s played %s%s%s\n", pb_player_name(t->mover), pb_route_format(p->f, t->nodes, t->len, t->kick, route, rl),
           t->annot[0] && t->annot[0] != '!' && t->annot[0] != '?' ? " " : "", t->annot);
    free(route);
    return 1;
}

/* The line without leading and trailing white space (in place). */
static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
    return s;
}

/* --side top|bottom: the side the person takes against the solver. */
static int parse_side(void *target, const char *name, const char *val) {
    if (!strcmp(val, "top")) *(int *)target = PB_TOP;
    else if (!strcmp(val, "bottom")) *(int *)target = PB_BOTTOM;
    else return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --%s: expected top or bottom", val, name), -1;
    return 0;
}

/* The options of play: PB_CLI_GO, or the status to exit with. */
static int parse_options(pb_opts *o, int *side, int argc, char **argv) {
    const pb_option options[] = {PB_OPTS_FIELD(*o),
                                 PB_OPTS_RECORD(*o),
                                 PB_OPT_FLAG("vs-solver", &o->vs_solver, "play against perfect play"),
                                 {.name = "side",
                                  .value = "top|bottom",
                                  .help = "--vs-solver: the side you play (default: the side to move)",
                                  .kind = PB_ARG_CUSTOM,
                                  .target = side,
                                  .parse = parse_side},
                                 PB_OPT_TIME_LIMIT(*o,
                                                   "--vs-solver: the solver's time for one answer (default 10); a\n"
                                                   "position it cannot solve in that time is declared beyond reach"),
                                 PB_OPT_MEMORY(*o, "--vs-solver: the solver's table memory, e.g. 64M"),
                                 PB_OPT_FLAG("unicode", &o->unicode, "draw the board with box-drawing characters"),
                                 PB_OPT_FLAG("ascii", &o->ascii, "draw the board with ASCII characters (the default)"),
                                 PB_OPT_FLAG("odd", &o->odd, "mark the odd nodes on the board"),
                                 PB_OPT_MATCH(*o),
                                 PB_OPT_END};
    const pb_command cmd = {"play", "[options] [RECORD-FILE]",
                            "Two people play in the terminal, from the start or from the position of the\n"
                            "record (--record TEXT, --record-file FILE or RECORD-FILE).  Each line of\n"
                            "standard input is one route (d6-e7, f8-g7-f6) or a command: moves, undo,\n"
                            "record, board, quit, help.  An illegal route is refused with the reason.\n"
                            "The board is shown after each turn; at the end the result and the record.\n"
                            "With --vs-solver one person plays against perfect play (commands value,\n"
                            "hint and go as well).\n",
                            options, 1};
    return pb_cli_parse(&cmd, argc, argv, o);
}

/* The game on field f from the record of o, the board's look, and with
 * --vs-solver the solver: PB_CLI_GO, or the status after the message. */
static int start_game(play *p, const pb_opts *o, int side, const pb_field *f) {
    /* The game is loaded here, not by pb_cli_begin: standard input carries
     * the moves, so it cannot also carry the starting record. */
    if ((o->record_file && !strcmp(o->record_file, "-")) ||
        (!o->record && !o->record_file && o->nargs > 0 && !strcmp(o->args[0], "-")))
        return pb_fail(PB_EXIT_USAGE, "play reads the moves from standard input: give the start position with "
                                      "--record or a file, not '-'");
    memset(p, 0, sizeof *p);
    p->f = f;
    if (pb_cli_game(o, f, &p->g)) return PB_EXIT_USAGE;
    p->base = p->g.nturns;
    p->diagram.unicode = o->unicode && !o->ascii;
    p->diagram.odd = o->odd;
    p->diagram.highlight_from = -1;
    if (o->vs_solver) {
        p->solver = pb_play_solver_new(o, f);
        if (!p->solver) {
            pb_game_free(&p->g);
            return pb_fail(PB_EXIT_MEMORY, "cannot allocate the solver's table");
        }
        p->person = side >= 0 ? side : pb_play_chooser(f, &p->g);
        if (p->person == PB_NOBODY) p->person = p->g.pos.to_move;
    }
    return PB_CLI_GO;
}

/* The board and whose turn it is. */
static void show_position(const play *p) {
    show_board(p);
    show_status(p);
}

static void greet(const play *p) {
    char desc[128], from[8], to[8];
    const pb_field *f = p->f;
    /* An example route that fits this field: from the centre to the NE. */
    printf("paperball play: %s; type a route such as %s-%s, or help\n", pb_field_describe(f, desc, sizeof desc),
           pb_node_name(f, f->centre, from), pb_node_name(f, pb_step_to(f, f->centre, PB_NE), to));
    if (p->solver)
        printf("You play %s, the solver plays %s.\n", pb_player_name(p->person), pb_player_name(p->person ^ 1));
    show_position(p);
}

/* One line of the person: a command or a route.  1 when play stops (quit,
 * or the solver failed: *status says how). */
static int obey(play *p, const char *cmd, int *status) {
    if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit")) return 1;
    if (!strcmp(cmd, "help")) show_help(p->solver != NULL, p->g.match);
    else if (!strcmp(cmd, "moves")) show_moves(p);
    else if (!strcmp(cmd, "distinct")) show_distinct(p);
    else if (!strcmp(cmd, "record")) show_record(p);
    else if (!strcmp(cmd, "board")) show_position(p);
    else if (!strcmp(cmd, "undo")) {
        if (undo(p)) show_position(p);
        else puts("nothing to undo");
    } else if (p->solver && !strcmp(cmd, "value")) pb_play_solver_value(p->solver, &p->g);
    else if (p->solver && !strcmp(cmd, "hint")) pb_play_solver_hint(p->solver, &p->g);
    else if (p->solver && !strcmp(cmd, "go")) {
        if ((*status = pb_play_solver_turn(p->solver, &p->g)) != PB_EXIT_OK) return 1;
        show_position(p);
    } else if (play_line(p, cmd)) show_position(p);
    return 0;
}

/* Turns until the game ends, the person quits or the input ends: the
 * solver's turns played, the person's read from standard input.  The
 * status to exit with. */
static int play_turns(play *p) {
    int interactive = isatty(STDIN_FILENO), status = PB_EXIT_OK;
    char *line = NULL;
    size_t cap = 0;
    while (p->g.end == PB_END_NONE) {
        if (p->solver) {
            int who = pb_play_chooser(p->f, &p->g);
            if (who == PB_NOBODY) break;
            if (who != p->person) {
                if ((status = pb_play_solver_turn(p->solver, &p->g)) != PB_EXIT_OK) break;
                show_position(p);
                continue;
            }
        }
        printf("%d. %s> ", p->g.nturns + 1, pb_player_name(p->g.pos.to_move));
        fflush(stdout);
        if (getline(&line, &cap, stdin) < 0) {
            if (interactive) putchar('\n');
            puts("end of input: the game goes on");
            break;
        }
        char *cmd = trim(line);
        if (!interactive) printf("%s\n", cmd);
        if (*cmd && obey(p, cmd, &status)) break;
    }
    free(line);
    return status;
}

/* The result, if the game is over, and the record. */
static void finish(play *p) {
    char res[96];
    if (p->g.end != PB_END_NONE) printf("game over: %s\n", pb_game_result(&p->g, res, sizeof res));
    else if (p->solver && pb_play_chooser(p->f, &p->g) == PB_NOBODY)
        puts("game over: no ply is left (no free kick): a draw");
    show_record(p);
}

int cmd_play(int argc, char **argv) {
    pb_opts o;
    int side = -1;
    int rc = parse_options(&o, &side, argc, argv);
    if (rc != PB_CLI_GO) return rc;
    if (!o.vs_solver && (side >= 0 || o.time_limit > 0 || o.memory))
        return pb_fail(PB_EXIT_USAGE, "--side, --time-limit and --memory go with --vs-solver");
    pb_field *f = pb_cli_field(&o);
    if (!f) return PB_EXIT_USAGE;
    play p;
    rc = start_game(&p, &o, side, f);
    if (rc == PB_CLI_GO) {
        greet(&p);
        rc = play_turns(&p);
        finish(&p);
        pb_play_solver_free(p.solver);
        pb_game_free(&p.g);
    }
    pb_field_free(f);
    return rc;
}
