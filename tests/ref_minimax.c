/* ref_minimax.c - a brute-force reference for the solver's values, written
 * apart from solver/search.c on purpose: plain minimax over whole turns, no
 * table, no symmetry, no pruning beyond "a win can't be bettered".  For book and hockey it even applies the
 * bounce rules itself (docs/rules.md §2) instead of calling pb_step, so a
 * shared mistake would need two independent slips.  For triple it walks the
 * plies of pb_routes_foreach (the only definition of the triple plies).
 */
#include "ref_minimax.h"

#include <stdlib.h>
#include <string.h>

typedef struct ref_ctx {
    const pb_field *f;
    uint64_t seg[PB_MAX_WORDS];
    int ball;
    uint64_t budget, used;
} ref_ctx;

static int ref_drawn(const ref_ctx *c, int s) { return (int)((c->seg[s / 64] >> (s % 64)) & 1); }

/* docs/rules.md §2: occupied = boundary node, the centre, a hockey goal node, or
 * any drawn segment at it. */
static int ref_occupied(const ref_ctx *c, int v) {
    const pb_field *f = c->f;
    if (f->flags[v] & (PB_BOUNDARY | PB_CENTRE)) return 1;
    if (!f->box && pb_goal_owner(f, v) != PB_NOBODY) return 1;
    for (int d = 0; d < 8; d++)
        if (f->seg[v][d] >= 0 && ref_drawn(c, f->seg[v][d])) return 1;
    return 0;
}

static int ref_has_free(const ref_ctx *c, int v) {
    for (int d = 0; d < 8; d++)
        if (c->f->seg[v][d] >= 0 && !ref_drawn(c, c->f->seg[v][d])) return 1;
    return 0;
}

static int ref_value(ref_ctx *c, int mover);

/* The best a mover can get from the ball in the middle (or at the start) of
 * a turn: every continuation of the turn is tried.  PB_UNKNOWN past the
 * budget. */
static int ref_turn(ref_ctx *c, int mover) {
    const pb_field *f = c->f;
    int best = -2;
    if (++c->used > c->budget) return PB_UNKNOWN;
    for (int d = 0; d < 8; d++) {
        int s = f->seg[c->ball][d];
        if (s < 0 || ref_drawn(c, s)) continue;
        int from = c->ball, to = from + pb_dir_dx[d] + pb_dir_dy[d] * f->cols, v;
        int occupied = ref_occupied(c, to);
        c->seg[s / 64] |= 1ULL << (s % 64);
        c->ball = to;
        int owner = pb_goal_owner(f, to);
        int scores = owner != PB_NOBODY &&
                     (f->box || (owner == PB_BOTTOM && to < from - 1) || (owner == PB_TOP && to > from + 1));
        if (scores) v = owner == mover ? -1 : 1;
        else if (occupied) {
            if (ref_has_free(c, to)) v = ref_turn(c, mover);
            else if (f->spec.rules == PB_RULES_HOCKEY && f->spec.dead_end == PB_DEAD_END_DRAW) v = 0;
            else v = -1;
        } else {
            v = ref_value(c, mover ^ 1);
            if (v != PB_UNKNOWN) v = -v;
        }
        c->ball = from;
        c->seg[s / 64] &= ~(1ULL << (s % 64));
        if (v == PB_UNKNOWN) return PB_UNKNOWN;
        if (v > best) best = v;
        if (best == 1) break; /* max() can't exceed a win */
    }
    return best;
}

static int ref_value(ref_ctx *c, int mover) { return ref_turn(c, mover); }

typedef struct triple_ctx {
    uint64_t budget, *used;
    int me, vmax, vmin, nmax, nmin, unknown;
} triple_ctx;

static int ref_triple(const pb_field *f, pb_position *p, uint64_t budget, uint64_t *used);

static int triple_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    triple_ctx *c = ctx;
    int v;
    if (r->end != PB_END_NONE) v = r->loser == PB_NOBODY ? 0 : r->loser == c->me ? -1 : 1;
    else {
        v = ref_triple(f, after, c->budget, c->used);
        if (v == PB_UNKNOWN) {
            c->unknown = 1;
            return 1;
        }
        if (after->to_move != c->me) v = -v;
    }
    if (r->mover == c->me) {
        c->nmax++;
        if (v > c->vmax) c->vmax = v;
    } else {
        c->nmin++;
        if (v < c->vmin) c->vmin = v;
    }
    return 0;
}

static int ref_triple(const pb_field *f, pb_position *p, uint64_t budget, uint64_t *used) {
    if (++*used > budget) return PB_UNKNOWN;
    triple_ctx c = {budget, used, p->to_move, -2, 2, 0, 0, 0};
    long n = pb_routes_foreach(f, p, triple_route, &c);
    if (c.unknown) return PB_UNKNOWN;
    if (n == 0) return 0;
    return c.nmax ? c.vmax : c.vmin;
}

int pb_ref_minimax_value(const pb_field *f, const pb_position *p, uint64_t budget) {
    if (f->spec.rules == PB_RULES_TRIPLE) {
        pb_position *q = malloc(sizeof *q);
        *q = *p;
        uint64_t used = 0;
        int v = ref_triple(f, q, budget, &used);
        free(q);
        return v;
    }
    ref_ctx *c = calloc(1, sizeof *c);
    c->f = f;
    memcpy(c->seg, p->seg, sizeof c->seg);
    c->ball = p->ball;
    c->budget = budget;
    int v = ref_value(c, p->to_move);
    free(c);
    return v;
}
