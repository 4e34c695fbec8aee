/* tactics.c - quick exact facts about a position (tactics.h). */
#include "tactics.h"

#include <stdlib.h>

int pb_tactics_init(pb_tactics *t, const pb_field *f) {
    t->f = f;
    t->score_owner = malloc(sizeof *t->score_owner * (size_t)f->nlattice);
    if (!t->score_owner) return -1;
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
    return 0;
}

void pb_tactics_free(pb_tactics *t) {
    free(t->score_owner);
    t->score_owner = NULL;
}

/* A depth-first walk over bounce chains from the ball, stepping p itself
 * (pb_step marks the nodes it passes as occupied, so the rules of a bounce
 * are the model's own) and restoring it.  A step onto an empty node ends
 * the turn there without a goal; a dead end leaves no step. */
static int walk(const pb_tactics *t, pb_position *p, int me, int *budget, int16_t *nodes, int len, int *out_len) {
    const pb_field *f = t->f;
    const int at = p->ball;
    const int8_t *so = t->score_owner[at];
    int bounce_d[8], nb = 0;
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, p, at, d)) continue;
        if (so[d] == (me ^ 1)) {
            if (nodes) nodes[len] = (int16_t)pb_step_to(f, at, d), *out_len = len + 1;
            return 1;
        }
        if (so[d] < 0 && pb_occupied(f, p, pb_step_to(f, at, d))) bounce_d[nb++] = d;
    }
    for (int i = 0; i < nb; i++) {
        if (--*budget < 0) return 0;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, p, bounce_d[i], &u, &loser);
        int yes = 0;
        if (r == PB_STEP_BOUNCE) {
            if (nodes) nodes[len] = p->ball;
            yes = walk(t, p, me, budget, nodes, len + 1, out_len);
        }
        pb_unstep(f, p, &u);
        if (yes) return 1;
    }
    return 0;
}

int pb_can_score(const pb_tactics *t, pb_position *p, int *budget, int16_t *nodes, int len, int *out_len) {
    return walk(t, p, p->to_move, budget, nodes, len, out_len);
}
