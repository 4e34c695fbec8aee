/* match.c - triple match play (match.h, docs/match.md): the plies of a
 * match position over pb_routes_foreach, playing a match ply, match perft
 * and the count of finished matches by score. */
#include "match.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triple.h"

int pb_match_restart(const pb_field *f, pb_position *p, const pb_route *r, pb_match_undo *u) {
    if (u) u->ball = p->ball, u->to_move = p->to_move;
    if (r->end == PB_END_NO_KICK) return 1;
    if (r->end != PB_END_GOAL) return 0;
    /* The goal stays drawn; the ball goes back to the centre (touched by
     * definition, so it takes no segment) and the side that conceded moves. */
    pb_set_ball(f, p, f->centre);
    pb_set_to_move(f, p, r->loser);
    return pb_triple_finished(f, p);
}

void pb_match_undo_restart(const pb_field *f, pb_position *p, const pb_match_undo *u) {
    pb_set_to_move(f, p, u->to_move);
    pb_set_ball(f, p, u->ball);
}

typedef struct foreach_ctx {
    pb_match_fn fn;
    void *ctx;
} foreach_ctx;

static int foreach_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    foreach_ctx *x = c;
    pb_match_undo u;
    int over = pb_match_restart(f, after, r, &u);
    int stop = x->fn ? x->fn(x->ctx, f, after, r, over) : 0;
    pb_match_undo_restart(f, after, &u);
    return stop;
}

long pb_match_foreach(const pb_field *f, pb_position *p, pb_match_fn fn, void *ctx) {
    assert(f->spec.rules == PB_RULES_TRIPLE);
    foreach_ctx x = {fn, ctx};
    return pb_routes_foreach(f, p, foreach_route, &x);
}

int pb_match_play(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick, pb_route *info, int *over,
                  char *err, size_t errlen) {
    if (pb_route_play(f, p, nodes, len, kick, info, err, errlen)) return -1;
    *over = pb_match_restart(f, p, info, NULL);
    return 0;
}

/* ---- a match game ---- */

void pb_game_init_match(pb_game *g, const pb_field *f, int first) {
    assert(f->spec.rules == PB_RULES_TRIPLE);
    pb_game_init(g, f, first);
    g->match = 1;
    /* A start where no ply exists is a finished match. */
    if (pb_triple_finished(f, &g->pos)) g->end = PB_END_NO_KICK;
}

const char *pb_match_score(const int goals[2], char *buf, size_t len) {
    snprintf(buf, len, "Top %d : %d Bottom", goals[PB_TOP], goals[PB_BOTTOM]);
    return buf;
}

const char *pb_match_ply_text(const pb_route *r, int over, char *buf, size_t len) {
    const char *tail = over ? ", the match is over" : "";
    if (r->end == PB_END_GOAL)
        snprintf(buf, len, "%s: %s scores%s", r->loser == r->mover ? "own goal" : "goal", pb_player_name(r->loser ^ 1),
                 tail);
    else if (r->end == PB_END_NO_KICK || over) snprintf(buf, len, "no free kick: the match is over");
    else snprintf(buf, len, "stop");
    return buf;
}

const char *pb_match_caption(const pb_game *g, char *buf, size_t len) {
    char desc[128], sc[64], route[256];
    size_t n = (size_t)snprintf(buf, len, "%s match, %s", pb_field_describe(g->field, desc, sizeof desc),
                                pb_match_score(g->goals, sc, sizeof sc));
    int k = 0;
    for (int i = 0; i < g->nturns && n < len; i++) {
        const pb_game_turn *t = &g->turns[i];
        if (t->end != PB_END_GOAL) continue;
        pb_route_format(g->field, t->nodes, t->len, t->kick, route, sizeof route);
        n += (size_t)snprintf(buf + n, len - n, "%s%d. %s %s", k++ ? ", " : "; goals: ", i + 1, route,
                              pb_player_name(t->loser ^ 1));
    }
    return buf;
}

const char *pb_match_game_result(const pb_game *g, char *buf, size_t len) {
    char sc[64];
    pb_match_score(g->goals, sc, sizeof sc);
    int d = g->goals[PB_TOP] - g->goals[PB_BOTTOM];
    if (g->end == PB_END_NONE) snprintf(buf, len, "match goes on, %s, %s to move", sc, pb_player_name(g->pos.to_move));
    else if (d == 0) snprintf(buf, len, "match over, %s: a draw", sc);
    else
        snprintf(buf, len, "match over, %s: %s wins by %d", sc, pb_player_name(d > 0 ? PB_TOP : PB_BOTTOM),
                 d > 0 ? d : -d);
    return buf;
}

/* ---- perft ---- */

typedef struct perft_ctx {
    int depth, maxdepth, overflow;
    uint64_t *seq, *finished;
} perft_ctx;

static int add_count(uint64_t *a, uint64_t b) {
    if (*a > UINT64_MAX - b) return -1;
    *a += b;
    return 0;
}

static int perft_ply(void *c, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    perft_ctx *x = c;
    (void)r;
    int d = x->depth; /* this ply is ply number d + 1 */
    if (add_count(&x->seq[d], 1)) return x->overflow = 1;
    if (over) return add_count(&x->finished[d], 1) ? (x->overflow = 1) : 0;
    if (d + 1 < x->maxdepth) {
        x->depth++;
        pb_match_foreach(f, after, perft_ply, x);
        x->depth--;
    }
    return x->overflow;
}

int pb_match_perft(const pb_field *f, const pb_position *p, int maxdepth, uint64_t *seq, uint64_t *finished) {
    memset(seq, 0, sizeof *seq * (size_t)maxdepth);
    memset(finished, 0, sizeof *finished * (size_t)maxdepth);
    if (maxdepth <= 0) return 0;
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    perft_ctx x = {0, maxdepth, 0, seq, finished};
    pb_match_foreach(f, q, perft_ply, &x);
    free(q);
    return x.overflow ? -1 : 0;
}

/* ---- finished matches by score ---- */

typedef struct count_ctx {
    int maxgoals, fail;
    int goals[2]; /* scored from the start of the count, by player */
    uint64_t *counts;
} count_ctx;

static int count_ply(void *c, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    count_ctx *x = c;
    int scorer = r->end == PB_END_GOAL ? r->loser ^ 1 : -1;
    if (scorer >= 0 && ++x->goals[scorer] > x->maxgoals) x->fail = 1;
    if (!x->fail) {
        if (over) {
            if (add_count(&x->counts[x->goals[PB_BOTTOM] * (x->maxgoals + 1) + x->goals[PB_TOP]], 1)) x->fail = 1;
        } else {
            pb_match_foreach(f, after, count_ply, x);
        }
    }
    if (scorer >= 0) x->goals[scorer]--;
    return x->fail;
}

int pb_match_count_finished(const pb_field *f, const pb_position *p, int maxgoals, uint64_t *counts) {
    size_t n = (size_t)(maxgoals + 1) * (size_t)(maxgoals + 1);
    memset(counts, 0, sizeof *counts * n);
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    count_ctx x = {maxgoals, 0, {0, 0}, counts};
    /* A position with no ply is a finished match of its own: nothing more
     * is scored. */
    if (pb_match_foreach(f, q, count_ply, &x) == 0) counts[0] = 1;
    free(q);
    return x.fail ? -1 : 0;
}
