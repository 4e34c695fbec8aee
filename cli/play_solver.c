/* play_solver.c - `paperball play --vs-solver`: a person against perfect
 * play.  The person plays the side to move at the given position (type
 * "go" to let the solver take that turn instead); one route per line on
 * standard input ("d6-e7-f8", a triple kick chain with a leading '*'), or
 * "value", "hint", "go", "help", "quit".  Works with piped input. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/search.h"
#include "cli.h"

/* Seconds the solver may think about one question before the field is
 * declared beyond it. */
#define PLAY_SOLVER_LIMIT 60.0

static int parse_route(const pb_field *f, const char *s, int16_t *nodes, int cap, int *kick) {
    int len = 0, used;
    *kick = 0;
    if (*s == '*') *kick = 1, s++;
    for (;;) {
        int n = pb_node_parse(f, s, &used);
        if (n < 0 || len == cap) return -1;
        nodes[len++] = (int16_t)n;
        s += used;
        if (*s != '-') break;
        s++;
    }
    while (isspace((unsigned char)*s)) s++;
    return *s ? -1 : len;
}

static void say_route(const pb_field *f, const char *who, const int16_t *nodes, int len, int kick) {
    char buf[4096];
    printf("%s: %s\n", who, pb_route_format(f, nodes, len, kick, buf, sizeof buf));
}

/* Who chooses the next ply: the player to move, or in triple the
 * opponent when the player to move is stuck (a kick chain); PB_NOBODY if
 * there is no ply at all (a finished draw). */
static int first_mover(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f, (void)after;
    *(int *)ctx = r->mover;
    return 1;
}

static int chooser(const pb_field *f, pb_game *g) {
    int mover = PB_NOBODY;
    pb_routes_foreach(f, &g->pos, first_mover, &mover);
    return mover;
}

static int solver_turn(pb_solver *s, const pb_field *f, pb_game *g, int16_t *nodes, int cap) {
    int kick, value;
    int len = pb_solver_best_route(s, &g->pos, nodes, cap, &kick, &value);
    if (len == 0) return pb_fail(PB_EXIT_FAIL, "the solver could not finish within %.0f s", PLAY_SOLVER_LIMIT);
    char who[64], err[256];
    snprintf(who, sizeof who, "solver (%s)", pb_value_name(value));
    say_route(f, who, nodes, len, kick);
    if (pb_game_play(g, nodes, len, kick, err, sizeof err)) return pb_fail(PB_EXIT_FAIL, "solver route refused: %s", err);
    return PB_EXIT_OK;
}

int pb_cli_play_vs_solver(const pb_opts *o, const pb_field *f, pb_game *g, int side) {
    (void)side;
    size_t hash = o->memory ? (size_t)pb_parse_size(o->memory) : 0;
    pb_solver *s = pb_solver_new(f, hash);
    if (!s) return pb_fail(PB_EXIT_FAIL, "cannot allocate the transposition table");
    pb_solver_set_limit(s, PLAY_SOLVER_LIMIT);
    int cap = f->nsegments + 2, status = PB_EXIT_OK;
    int16_t *nodes = malloc(sizeof(int16_t) * (size_t)cap);
    char line[4096], err[256], res[128];
    int person = g->pos.to_move;
    if (g->end == PB_END_NONE && pb_solver_value(s, &g->pos) == PB_UNKNOWN) {
        status = pb_fail(PB_EXIT_FAIL, "this position is beyond the solver (no answer within %.0f s)",
                         PLAY_SOLVER_LIMIT);
        goto done;
    }
    printf("You play %s, the solver plays %s. Enter a route (e.g. %s), value, hint, go or quit.\n",
           pb_player_name(person), pb_player_name(person ^ 1), "d6-e7");
    for (;;) {
        if (g->end != PB_END_NONE) {
            printf("game over: %s\n", pb_game_result(g, res, sizeof res));
            break;
        }
        int who = chooser(f, g);
        if (who == PB_NOBODY) {
            puts("game over: no ply is left (no free kick): a draw");
            break;
        }
        if (who != person) {
            if ((status = solver_turn(s, f, g, nodes, cap)) != PB_EXIT_OK) break;
            continue;
        }
        printf("%s> ", pb_player_name(person));
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            putchar('\n');
            break;
        }
        char *t = line;
        while (isspace((unsigned char)*t)) t++;
        size_t n = strlen(t);
        while (n && isspace((unsigned char)t[n - 1])) t[--n] = 0;
        if (!*t) continue;
        if (!strcmp(t, "quit") || !strcmp(t, "q")) break;
        if (!strcmp(t, "help")) {
            puts("a route such as d6-e7-f8 plays your turn; value: the value of the position;\n"
                 "hint: a best turn; go: the solver plays this turn for you; quit: stop");
            continue;
        }
        if (!strcmp(t, "value")) {
            int v = pb_solver_value(s, &g->pos);
            printf("value: %s for %s (the player to move)\n", pb_value_name(v), pb_player_name(g->pos.to_move));
            continue;
        }
        if (!strcmp(t, "hint")) {
            int kick, v;
            int len = pb_solver_best_route(s, &g->pos, nodes, cap, &kick, &v);
            if (len) {
                char who[64];
                snprintf(who, sizeof who, "hint (%s)", pb_value_name(v));
                say_route(f, who, nodes, len, kick);
            } else puts("hint: none within the time limit");
            continue;
        }
        if (!strcmp(t, "go")) {
            if ((status = solver_turn(s, f, g, nodes, cap)) != PB_EXIT_OK) break;
            continue;
        }
        int kick, len = parse_route(f, t, nodes, cap, &kick);
        if (len < 0) {
            printf("not a route or command: '%s' (try help)\n", t);
            continue;
        }
        if (pb_game_play(g, nodes, len, kick, err, sizeof err)) {
            printf("illegal: %s\n", err);
            continue;
        }
    }
done:
    free(nodes);
    pb_solver_free(s);
    return status;
}
