/* cmd_moves.c - `paperball moves`: the legal turns from a position, with
 * their outcomes; one position, or one line per record with --batch. */
#include <stdlib.h>
#include <string.h>

#include "../solver/json.h"
#include "cli.h"

typedef struct list_ctx {
    const pb_opts *o;
    int line; /* the batch line, 0 outside a batch */
    int n;
    pb_json *j;
    char *buf;
    size_t buflen;
} list_ctx;

static const char *outcome(const pb_route *r, char *buf, size_t len) {
    switch (r->end) {
        case PB_END_NONE: snprintf(buf, len, "stop"); break;
        case PB_END_GOAL:
            snprintf(buf, len, "%s: %s wins", r->loser == r->mover ? "own goal" : "goal", pb_player_name(r->loser ^ 1));
            break;
        case PB_END_DEAD_END:
            if (r->loser == PB_NOBODY) snprintf(buf, len, "dead end: draw");
            else snprintf(buf, len, "dead end: %s loses", pb_player_name(r->loser));
            break;
        case PB_END_NO_KICK: snprintf(buf, len, "no free kick: draw"); break;
    }
    return buf;
}

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
        pb_json_end(x->j);
    } else if (x->line) {
        /* A batch line: "route outcome-key" pairs. */
        printf("%s%s %s", x->n ? ", " : " ", x->buf, outcome_key(r));
    } else {
        printf("%-24s %s\n", x->buf, outcome(r, out, sizeof out));
    }
    x->n++;
    /* A lost output stops the listing: there may be millions of routes. */
    return ferror(stdout) != 0;
}

/* The turns of g's position: JSON (one object), a batch line, or a list. */
static int list_moves(void *ctx, const pb_field *f, pb_game *g, int line) {
    const pb_opts *o = ctx;
    char res[96];
    pb_json j;
    list_ctx x = {
        o, line, 0, o->json ? &j : NULL, malloc(16 * (size_t)f->nsegments + 64), 16 * (size_t)f->nsegments + 64};
    int over = g->end != PB_END_NONE;
    if (over) pb_game_result(g, res, sizeof res);
    if (o->json) {
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        if (line) pb_json_int(&j, "line", line);
        pb_json_bool(&j, "over", over);
        if (over) pb_json_str(&j, "result", res);
        else pb_json_str(&j, "to_move", g->pos.to_move == PB_TOP ? "top" : "bottom");
        pb_json_array(&j, "moves");
        if (!over) pb_routes_foreach(f, &g->pos, print_route, &x);
        pb_json_end(&j);
        pb_json_int(&j, "count", x.n);
        pb_cli_json_version(&j);
        pb_json_end(&j);
    } else if (line) {
        printf("line %d: ", line);
        if (over) printf("over: %s\n", res);
        else {
            printf("%s to move:", pb_player_name(g->pos.to_move));
            pb_routes_foreach(f, &g->pos, print_route, &x);
            putchar('\n');
        }
    } else if (over) {
        printf("the game is over: %s\n", res);
    } else {
        printf("%s to move from the ball\n", pb_player_name(g->pos.to_move));
        pb_routes_foreach(f, &g->pos, print_route, &x);
        printf("%d turns\n", x.n);
    }
    free(x.buf);
    return PB_EXIT_OK;
}

int cmd_moves(int argc, char **argv) {
    pb_opts o;
    const pb_option options[] = {PB_OPTS_FIELD(o), PB_OPTS_RECORD(o), PB_OPT_BATCH(o),
                                 PB_OPT_JSON(o),   PB_OPT_MATCH(o),   PB_OPT_END};
    const pb_command cmd = {"moves", "[options] [RECORD-FILE|-]",
                            "Lists every legal turn (route) from the position reached by the game record\n"
                            "(default: the start), with its outcome: stop, goal, own goal, dead end.\n"
                            "With --batch, one line per record: 'line N: Top to move: ROUTE OUTCOME, ...'\n"
                            "(outcomes stop, goal, own-goal, dead-end, no-kick), or one JSON object.\n",
                            options, 1};
    int rc = pb_cli_parse(&cmd, argc, argv, &o);
    if (rc != PB_CLI_GO) return rc;
    if (o.match) return pb_cli_match_run(&o, pb_cli_match_moves);
    return pb_cli_each_position(&o, list_moves, &o);
}
