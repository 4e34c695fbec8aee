/* tactics.c - quick exact facts about a position (tactics.h). */
#include "tactics.h"

#include <stdlib.h>

/* Node i's direction masks (tactics.h). */
static void init_masks(pb_tactics *t, const pb_field *f, int i) {
    t->legal[i] = t->scores[i][0] = t->scores[i][1] = t->plain_occupied[i] = t->plain_other[i] = 0;
    for (int d = 0; d < 8; d++) {
        if (!pb_is_node(f, i) || f->seg[i][d] < 0) continue;
        int owner = t->score_owner[i][d];
        uint8_t bit = (uint8_t)(1u << d);
        t->legal[i] |= bit;
        if (owner >= 0) t->scores[i][owner] |= bit;
        else if (f->flags[pb_step_to(f, i, d)] & PB_OCCUPIED0) t->plain_occupied[i] |= bit;
        else t->plain_other[i] |= bit;
    }
}

int pb_tactics_init(pb_tactics *t, const pb_field *f) {
    const size_t n = (size_t)f->nlattice;
    t->f = f;
    t->score_owner = malloc(sizeof *t->score_owner * n);
    t->legal = malloc(n);
    t->scores = malloc(sizeof *t->scores * n);
    t->plain_occupied = malloc(n);
    t->plain_other = malloc(n);
    if (!t->score_owner || !t->legal || !t->scores || !t->plain_occupied || !t->plain_other) {
        pb_tactics_free(t);
        return -1;
    }
    for (int d = 0; d < 8; d++) t->off[d] = pb_step_to(f, 0, d);
    for (int i = 0; i < f->nlattice; i++)
        for (int d = 0; d < 8; d++) {
            t->score_owner[i][d] = -1;
            if (!pb_is_node(f, i) || f->seg[i][d] < 0) continue;
            int to = pb_step_to(f, i, d), owner = pb_goal_owner(f, to), dy = pb_dir_dy[d];
            /* Box goals: any arrival scores; line goals: only a step from
             * the centre side (docs/rules.md §2). */
            if (owner != PB_NOBODY && (f->box || (owner == PB_BOTTOM ? dy < 0 : dy > 0)))
                t->score_owner[i][d] = (int8_t)owner;
        }
    for (int i = 0; i < f->nlattice; i++) init_masks(t, f, i);
    return 0;
}

void pb_tactics_free(pb_tactics *t) {
    free(t->score_owner);
    free(t->legal);
    free(t->scores);
    free(t->plain_occupied);
    free(t->plain_other);
    t->score_owner = NULL, t->scores = NULL;
    t->legal = t->plain_occupied = t->plain_other = NULL;
}

/* One level of the walk: its node, the bounce directions not tried yet,
 * and the direction of the step taken from it. */
typedef struct level {
    int16_t at;
    uint8_t rest, d;
} level;

/* The bounce directions at node u: free, scoring for nobody, onto an
 * occupied node.  A walk steps only between occupied nodes (a step onto an
 * empty node ends the turn), so the segments it draws end on nodes that
 * were occupied already: which nodes are occupied never changes during the
 * walk, but for the ball's own node, which its first step occupies (the
 * walk comes back to it only after that step, and pb_can_score counts it
 * occupied from the start). */
static inline unsigned bounces(const pb_tactics *t, const pb_position *p, int u, unsigned fr) {
    unsigned bo = fr & t->plain_occupied[u];
    for (unsigned m = fr & t->plain_other[u]; m; m &= m - 1) {
        int d = __builtin_ctz(m);
        if (p->deg[u + t->off[d]]) bo |= 1u << d;
    }
    return bo;
}

/* Draws (or, called again, erases) the walk's step from level k in p's
 * drawn directions alone. */
static inline void toggle(pb_position *p, const level *lv, int k) {
    const int d = lv[k].d;
    p->dirs[lv[k].at] ^= (uint8_t)(1u << d), p->dirs[lv[k + 1].at] ^= (uint8_t)(1u << (d ^ 4));
}

/* A depth-first walk over bounce chains from the ball.  It follows
 * pb_step's rules: a step into the opponent's goal scores; an own goal or a
 * step onto an empty node ends the turn without a goal, so it is no step
 * of the walk; a step onto an occupied node that is no goal is a bounce,
 * or a dead end when no free segment is left there, a level with nothing
 * to try.  A goal from a node is looked for before any bounce from it,
 * and bounces are tried in direction order; the budget is spent per
 * bounce tried.  The walk draws its steps in p->dirs (a free direction at
 * u: legal and not in p->dirs[u]) and erases them before it returns.
 * Levels live in lv (the walk draws a segment per level, so there are at
 * most f->nsegments + 1). */
static int walk(const pb_tactics *t, pb_position *p, level *lv, int *budget, int16_t *nodes, int len, int *out_len) {
    const int opp = p->to_move ^ 1;
    int k = 0, at = p->ball, yes = 0;
    lv[0].at = (int16_t)at;
    for (;;) {
        const unsigned fr = t->legal[at] & ~(unsigned)p->dirs[at], goal = fr & t->scores[at][opp];
        if (goal) {
            if (nodes) nodes[len + k] = (int16_t)(at + t->off[__builtin_ctz(goal)]), *out_len = len + k + 1;
            yes = 1;
            break;
        }
        lv[k].rest = (uint8_t)bounces(t, p, at, fr);
        while (!lv[k].rest && k > 0) toggle(p, lv, --k); /* back to a level with a bounce left */
        if (!lv[k].rest || --*budget < 0) break;
        const unsigned b = lv[k].rest, d = (unsigned)__builtin_ctz(b);
        at = lv[k].at + t->off[d];
        lv[k].rest = (uint8_t)(b & (b - 1)), lv[k].d = (uint8_t)d;
        lv[k + 1].at = (int16_t)at;
        toggle(p, lv, k++);
        if (nodes) nodes[len + k - 1] = (int16_t)at;
    }
    while (k > 0) toggle(p, lv, --k);
    return yes;
}

int pb_can_score(const pb_tactics *t, pb_position *p, int *budget, int16_t *nodes, int len, int *out_len) {
    level lv[PB_MAX_SEGMENTS + 1];
    const int ball = p->ball, empty = !p->deg[ball];
    if (empty) p->deg[ball] = 1; /* occupied once the walk has left it (see bounces) */
    int yes = walk(t, p, lv, budget, nodes, len, out_len);
    if (empty) p->deg[ball] = 0;
    return yes;
}
