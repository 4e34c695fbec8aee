/* line.c - a best turn by the rule of pb_solve_pv_kind (line.h). */
#include "line.h"

#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "turn.h"

/* The value for player me of a game that ended with this loser. */
static int end_value(int loser, int me) { return loser == PB_NOBODY ? PB_DRAW : loser == me ? PB_LOSS : PB_WIN; }

typedef struct pick_ctx {
    pb_value_fn value;
    void *vctx;
    int me, want, aborted;
    int16_t *nodes;
    int cap, len, kick, found, found_pref;
} pick_ctx;

/* Triple: over the turn's routes, the winner taking a goal at once if one
 * wins, the other side preferring a route that keeps the game going. */
static int pick_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    pick_ctx *c = ctx;
    (void)f;
    int ends = r->end != PB_END_NONE, prefer = c->want == PB_WIN ? ends : !ends;
    if (c->found && (!prefer || c->found_pref)) return 0;
    int v = ends ? end_value(r->loser, c->me) : c->value(c->vctx, after);
    if (v == PB_UNKNOWN) return c->aborted = 1;
    if (!ends && after->to_move != c->me) v = -v;
    if (v != c->want || r->len > c->cap) return 0;
    memcpy(c->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    c->len = r->len, c->kick = r->kick, c->found = 1;
    c->found_pref = prefer;
    return prefer;
}

/* Book and hockey: step by step, no route list. */
/* The step from q to take (by the preferences above), or -1; 0 in *unknown
 * if a search came back unknown.  With known, only the values it gives. */
static int choose_step(const pb_field *f, pb_value_fn value, void *ctx, pb_position *q, int v, int *unknown) {
    const int me = q->to_move;
    int bestd = -1, bestpref = -1;
    for (int d = 0; d < 8 && bestpref < 1; d++) {
        if (!pb_free(f, q, q->ball, d)) continue;
        pb_undo u;
        int loser, cv;
        pb_step_result r = pb_step(f, q, d, &u, &loser);
        int ends = r == PB_STEP_GOAL || r == PB_STEP_DEAD_END;
        if (ends) cv = end_value(loser, me);
        else {
            cv = value(ctx, q);
            if (r == PB_STEP_STOP && cv != PB_UNKNOWN) cv = -cv;
        }
        pb_unstep(f, q, &u);
        if (cv == PB_UNKNOWN) {
            *unknown = 1;
            continue;
        }
        if (cv != v) continue;
        int pref = v == PB_WIN ? ends : !ends;
        if (pref > bestpref) bestpref = pref, bestd = d;
    }
    return bestd;
}

static int step_route(const pb_field *f, const pb_tactics *tac, pb_value_fn value, pb_value_fn known, void *ctx,
                      pb_position *q, int v, int16_t *nodes, int cap) {
    pb_undo *undo = malloc(sizeof *undo * (size_t)(f->nsegments + 1));
    int len = 1, budget = 1 << 16, ok = 0;
    if (!undo) return 0;
    nodes[0] = q->ball;
    if (v == PB_WIN && cap > f->nsegments && pb_can_score(tac, q, &budget, nodes, 1, &len)) {
        free(undo);
        return len;
    }
    len = 1;
    for (;;) {
        int unknown = 0, bestd = -1;
        if (known) bestd = choose_step(f, known, ctx, q, v, &unknown);
        if (bestd < 0) {
            unknown = 0;
            bestd = choose_step(f, value, ctx, q, v, &unknown);
            if (unknown) goto out;
        }
        if (bestd < 0 || len >= cap) goto out;
        int loser;
        pb_step_result r = pb_step(f, q, bestd, &undo[len], &loser);
        nodes[len++] = q->ball;
        if (r != PB_STEP_BOUNCE) break;
    }
    ok = 1;
out:
    for (int k = len - 1; k >= 1; k--) pb_unstep(f, q, &undo[k]);
    free(undo);
    return ok ? len : 0;
}

int pb_line_route(const pb_field *f, const pb_tactics *tac, pb_value_fn value, void *ctx, pb_position *q, int v,
                  int16_t *nodes, int cap, int *kick) {
    return pb_line_route_known(f, tac, value, NULL, ctx, q, v, nodes, cap, kick);
}

int pb_line_route_known(const pb_field *f, const pb_tactics *tac, pb_value_fn value, pb_value_fn known, void *ctx,
                        pb_position *q, int v, int16_t *nodes, int cap, int *kick) {
    *kick = 0;
    if (pb_turns_are_steps(f)) return step_route(f, tac, value, known, ctx, q, v, nodes, cap);
    pick_ctx c = {value, ctx, q->to_move, v, 0, nodes, cap, 0, 0, 0, 0};
    pb_routes_foreach(f, q, pick_route, &c);
    *kick = c.kick;
    return c.found && !c.aborted ? c.len : 0;
}
