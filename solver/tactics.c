/* tactics.c - quick exact facts about a position (tactics.h). */
#include "tactics.h"

#include <stdlib.h>

int pb_tactics_init(pb_tactics *t, const pb_field *f) {
    t->f = f;
    t->score_owner = malloc(sizeof *t->score_owner * (size_t)f->nlattice);
    t->nlinks = malloc((size_t)f->nlattice);
    t->links = malloc(sizeof *t->links * (size_t)f->nlattice);
    if (!t->score_owner || !t->nlinks || !t->links) {
        pb_tactics_free(t);
        return -1;
    }
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
    for (int i = 0; i < f->nlattice; i++) {
        int n = 0;
        for (int d = 0; d < 8; d++) {
            if (!pb_is_node(f, i) || f->seg[i][d] < 0) continue;
            int to = pb_step_to(f, i, d);
            pb_tactics_link l = {(int8_t)d, t->score_owner[i][d], (int8_t)((f->flags[to] & PB_OCCUPIED0) != 0),
                                 (int16_t)f->seg[i][d], (int16_t)to};
            t->links[i][n++] = l;
        }
        t->nlinks[i] = (uint8_t)n;
    }
    return 0;
}

void pb_tactics_free(pb_tactics *t) {
    free(t->score_owner);
    free(t->nlinks);
    free(t->links);
    t->score_owner = NULL, t->nlinks = NULL, t->links = NULL;
}

/* A depth-first walk over bounce chains from node `at`, drawing on p's
 * segment words and node degrees only (the ball, the player to move and
 * the hash are not needed by the walk and stay as they were) and restoring
 * them.  It follows pb_step's rules: a step into the opponent's goal
 * scores (owner = opponent); an own goal or a step onto an empty node ends
 * the turn without a goal, so it is no step of the walk; a step onto an
 * occupied node (fixed flag or a drawn segment there) that is no goal is a
 * bounce, or a dead end when no free segment is left there, where the
 * recursive call finds no step.  The budget is spent per step tried, as
 * pb_step's walk spent it. */
static int walk(const pb_tactics *t, pb_position *p, int at, int opp, int *budget, int16_t *nodes, int len,
                int *out_len) {
    const pb_tactics_link *l = t->links[at];
    const int n = t->nlinks[at];
    int bounce[8], nb = 0;
    for (int j = 0; j < n; j++) {
        int s = l[j].seg;
        if (p->seg[s >> 6] >> (s & 63) & 1) continue;
        if (l[j].owner == opp) {
            if (nodes) nodes[len] = l[j].to, *out_len = len + 1;
            return 1;
        }
        if (l[j].owner < 0 && (l[j].occupied0 || p->deg[l[j].to])) bounce[nb++] = j;
    }
    for (int i = 0; i < nb; i++) {
        if (--*budget < 0) return 0;
        const pb_tactics_link *e = &l[bounce[i]];
        const int s = e->seg, to = e->to;
        p->seg[s >> 6] ^= 1ULL << (s & 63);
        p->deg[at]++, p->deg[to]++;
        if (nodes) nodes[len] = (int16_t)to;
        int yes = walk(t, p, to, opp, budget, nodes, len + 1, out_len);
        p->seg[s >> 6] ^= 1ULL << (s & 63);
        p->deg[at]--, p->deg[to]--;
        if (yes) return 1;
    }
    return 0;
}

int pb_can_score(const pb_tactics *t, pb_position *p, int *budget, int16_t *nodes, int len, int *out_len) {
    return walk(t, p, p->ball, p->to_move ^ 1, budget, nodes, len, out_len);
}
