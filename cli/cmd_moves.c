/* cmd_moves.c - `paperball moves`: the legal turns from a position, with
 * their outcomes; one position, or one line per record with --batch.  With
 * --distinct, one route for each distinct position after the turn, with
 * the number of routes that reach it (solver/turnwalk.h: the turn's step
 * graph walked with its equal mid-turn positions merged, so the cost
 * follows the distinct positions, not the routes). */
#include <stdlib.h>
#include <string.h>

#include "../solver/json.h"
#include "../solver/turnwalk.h"
#include "cli.h"

typedef struct list_ctx {
    const pb_opts *o;
    int line; /* the batch line, 0 outside a batch */
    unsigned long long n;
    uint64_t routes;            /* --distinct: the routes of the outcomes listed */
    int overflow;               /* a count passed 2^64 - 1 */
    const pb_turn_outcome *cur; /* --distinct: the outcome being listed */
    pb_json *j;
    char *buf;
    size_t buflen;
    int o_distinct; /* --distinct */
} list_ctx;

static const char *outcome_key(const pb_route *r) {
    switch (r->end) {
        case PB_END_NONE: return "stop";
        case PB_END_GOAL: return r->loser == r->mover ? "own-goal" : "goal";
        case PB_END_DEAD_END: return "dead-end";
        default: return "no-kick";
    }
}

static int print_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)after;
    list_ctx *x = c;
    char out[64];
    pb_route_format(f, r->nodes, r->len, r->kick, x->buf, x->buflen);
    if (x->j) {
        pb_json_object(x->j, NULL);
        pb_json_str(x->j, "route", x->buf);
        pb_json_int(x->j, "steps", r->len - 1);
        pb_json_str(x->j, "outcome", outcome_key(r));
        pb_json_str(x->j, "winner",
                    r->end == PB_END_NONE   ? ""
                    : r->loser == PB_NOBODY ? "draw"
                    : r->loser == PB_TOP    ? "bottom"
                                            : "top");
        if (x->cur) {
            pb_json_uint(x->j, "routes", x->cur->routes);
            if (x->cur->overflow) pb_json_bool(x->j, "overflow", 1);
        }
        pb_json_end(x->j);
    } else if (x->line) {
        /* A batch line: "route outcome-key" pairs (with --distinct,
         * "route outcome-key routes"). */
        printf("%s%s %s", x->n ? ", " : " ", x->buf, outcome_key(r));
        if (x->cur) printf(" %llu%s", (unsigned long long)x->cur->routes, x->cur->overflow ? "+" : "");
    } else if (x->cur) {
        unsigned long long k = x->cur->routes;
        printf("%-24s %-24s %llu%s route%s\n", x->buf, pb_cli_route_outcome(r, out, sizeof out), k,
               x->cur->overflow ? "+" : "", k == 1 && !x->cur->overflow ? "" : "s");
    } else {
        printf("%-24s %s\n", x->buf, pb_cli_route_outcome(r, out, sizeof out));
    }
    x->n++;
    /* A lost output stops the listing: there may be millions of routes. */
    return ferror(stdout) != 0;
}

/* --distinct: one distinct outcome, listed as its route. */
static int print_outcome(void *c, const pb_field *f, const pb_turn_outcome *o) {
    list_ctx *x = c;
    pb_route r = {o->nodes, o->len, o->mover, o->kick, o->end, o->loser};
    x->cur = o;
    if (__builtin_add_overflow(x->routes, o->routes, &x->routes) || o->overflow) x->overflow = 1;
    int stop = print_route(x, f, NULL, &r);
    x->cur = NULL;
    return stop;
}

/* Lists the turns of p: every route, or with --distinct one per distinct
 * outcome.  0, or the exit status of a failure (the message printed). */
static int list_turns(list_ctx *x, const pb_field *f, pb_position *p) {
    if (!x->o_distinct) {
        pb_routes_foreach(f, p, print_route, x);
        return PB_EXIT_OK;
    }
    pb_turnwalk *tw = pb_turnwalk_new(f);
    if (!tw || pb_turnwalk_set_routes(tw, 1)) {
        pb_turnwalk_free(tw);
        return pb_fail(PB_EXIT_MEMORY, "out of memory listing the distinct turns");
    }
    long n = pb_turn_outcomes(tw, p, print_outcome, x);
    pb_turnwalk_free(tw);
    if (n == PB_TURNWALK_TOO_BIG) return pb_fail(PB_EXIT_MEMORY, "out of memory listing the distinct turns");
    return PB_EXIT_OK;
}

/* The turns of g's position: JSON (one object), a batch line, or a list. */
static int list_moves(void *ctx, const pb_field *f, pb_game *g, int line) {
    const pb_opts *o = ctx;
    char res[96];
    pb_json j;
    list_ctx x = {.o = o,
                  .line = line,
                  .j = o->json ? &j : NULL,
                  .buf = malloc(16 * (size_t)f->nsegments + 64),
                  .buflen = 16 * (size_t)f->nsegments + 64,
                  .o_distinct = o->distinct};
    if (!x.buf) return pb_fail(PB_EXIT_MEMORY, "out of memory");
    int over = g->end != PB_END_NONE, rc = PB_EXIT_OK;
    if (over) pb_game_result(g, res, sizeof res);
    if (o->json) {
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        if (line) pb_json_int(&j, "line", line);
        pb_json_bool(&j, "over", over);
        if (over) pb_json_str(&j, "result", res);
        else pb_json_str(&j, "to_move", g->pos.to_move == PB_TOP ? "top" : "bottom");
        if (o->distinct) pb_json_bool(&j, "distinct", 1);
        pb_json_array(&j, "moves");
        if (!over) rc = list_turns(&x, f, &g->pos);
        pb_json_end(&j);
        pb_json_uint(&j, "count", x.n);
        if (o->distinct) {
            pb_json_uint(&j, "routes", x.routes);
            if (x.overflow) pb_json_bool(&j, "overflow", 1);
        }
        pb_cli_json_version(&j);
        pb_json_end(&j);
    } else if (line) {
        printf("line %d: ", line);
        if (over) printf("over: %s\n", res);
        else {
            printf("%s to move:", pb_player_name(g->pos.to_move));
            rc = list_turns(&x, f, &g->pos);
            putchar('\n');
        }
    } else if (over) {
        printf("the game is over: %s\n", res);
    } else {
        printf("%s to move from the ball\n", pb_player_name(g->pos.to_move));
        rc = list_turns(&x, f, &g->pos);
        if (rc == PB_EXIT_OK && o->distinct)
            printf("%llu distinct turns (positions after the turn) of %llu%s routes\n", x.n,
                   (unsigned long long)x.routes, x.overflow ? "+" : "");
        else if (rc == PB_EXIT_OK) printf("%llu turns\n", x.n);
    }
    free(x.buf);
    return rc;
}

int cmd_moves(int argc, char **argv) {
    pb_opts o;
    const pb_option options[] = {PB_OPTS_FIELD(o),
                                 PB_OPTS_RECORD(o),
                                 PB_OPT_BATCH(o),
                                 PB_OPT_FLAG("distinct", &o.distinct,
                                             "one route for each distinct position after the turn, with the number of\n"
                                             "routes that reach it (late turns can have millions of routes)"),
                                 PB_OPT_JSON(o),
                                 PB_OPT_MATCH(o),
                                 PB_OPT_END};
    const pb_command cmd = {"moves", "[options] [RECORD-FILE|-]",
                            "Lists every legal turn (route) from the position reached by the game record\n"
                            "(default: the start), with its outcome: stop, goal, own goal, dead end.\n"
                            "With --batch, one line per record: 'line N: Top to move: ROUTE OUTCOME, ...'\n"
                            "(outcomes stop, goal, own-goal, dead-end, no-kick), or one JSON object.\n"
                            "With --distinct, each outcome's count of routes follows it.\n",
                            options, 1};
    int rc = pb_cli_parse(&cmd, argc, argv, &o);
    if (rc != PB_CLI_GO) return rc;
    if (o.match && o.distinct) return pb_fail(PB_EXIT_USAGE, "--distinct does not apply to --match");
    if (o.match) return pb_cli_match_run(&o, pb_cli_match_moves);
    return pb_cli_each_position(&o, list_moves, &o);
}
