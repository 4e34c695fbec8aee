/* cmd_moves.c - `paperball moves`: the legal turns from a position. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct list_ctx {
    int json, n;
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
    if (x->json) {
        printf("%s{\"route\":\"%s\",\"steps\":%d,\"outcome\":\"%s\",\"winner\":\"%s\"}", x->n ? "," : "", x->buf,
               r->len - 1, outcome_key(r),
               r->end == PB_END_NONE ? "" : r->loser == PB_NOBODY ? "draw" : r->loser == PB_TOP ? "bottom" : "top");
    } else {
        printf("%-24s %s\n", x->buf, outcome(r, out, sizeof out));
    }
    x->n++;
    return 0;
}

int cmd_moves(int argc, char **argv) {
    pb_opts o;
    pb_field *f;
    pb_game g;
    const pb_option options[] = {PB_OPTS_FIELD(o), PB_OPTS_RECORD(o), PB_OPT_BATCH(o), PB_OPT_JSON(o), PB_OPT_END};
    const pb_command cmd = {"moves", "[options] [RECORD-FILE|-]",
                            "Lists every legal turn (route) from the position reached by the game record\n"
                            "(default: the start), with its outcome: stop, goal, own goal, dead end.\n",
                            options, 1};
    int rc = pb_cli_begin(&cmd, argc, argv, &o, &f, &g);
    if (rc != PB_CLI_GO) return rc;
    char res[96];
    list_ctx x = {o.json, 0, malloc(16 * (size_t)f->nsegments + 64), 16 * (size_t)f->nsegments + 64};
    if (g.end != PB_END_NONE) {
        if (o.json) printf("{\"over\":true,\"result\":\"%s\",\"moves\":[]}\n", pb_game_result(&g, res, sizeof res));
        else printf("the game is over: %s\n", pb_game_result(&g, res, sizeof res));
    } else {
        if (o.json) printf("{\"over\":false,\"to_move\":\"%s\",\"moves\":[", g.pos.to_move ? "top" : "bottom");
        else printf("%s to move from the ball\n", pb_player_name(g.pos.to_move));
        pb_routes_foreach(f, &g.pos, print_route, &x);
        if (o.json) printf("],\"count\":%d}\n", x.n);
        else printf("%d turns\n", x.n);
    }
    free(x.buf);
    pb_game_free(&g);
    pb_field_free(f);
    return PB_EXIT_OK;
}
