/* centre_trap.c - the shortest game that ends with the ball trapped on the
 * centre: the one exception the handshake argument leaves to the book's
 * "the last move ends on a red node".
 *
 * Iterative deepening (IDA*) over single steps from the start, depth =
 * segments drawn.  The bound is admissible, so the first game found has the
 * fewest segments:
 *   - a trap needs all eight centre segments drawn, the last one by the
 *     step that arrives there;
 *   - leaving the centre by segment c-n and coming back needs a different
 *     segment m-c (a segment is never drawn twice), so at least one step
 *     n..m in between: each return trip costs >= 3 steps for 2 centre
 *     segments.
 *   With r centre segments free: on the centre, >= r + r/2 steps remain;
 *   elsewhere, at king distance k, >= k + (r-1) + (r-1)/2 (r = 0 there
 *   means the centre can never be reached again).
 * Goals and dead ends elsewhere end the game, so those branches are cut.
 * The game is legal by construction: every step is a pb_step of the rules.
 */
#include <stdlib.h>
#include <string.h>

#include "proofs.h"

#define TRAP_MAX_PATH 512

typedef struct trap {
    const pb_field *f;
    pb_position p;
    int limit;
    uint64_t nodes, budget;
    int found, out;
    int16_t path[TRAP_MAX_PATH]; /* path[k]: the ball after k steps */
    uint8_t stop[TRAP_MAX_PATH]; /* step k ended a turn */
} trap;

static int trap_bound(const trap *t) {
    const pb_field *f = t->f;
    int c = f->centre, r = pb_free_count(f, &t->p, c);
    if (t->p.ball == c) return r + r / 2;
    if (r == 0) return 1 << 20;
    int dx = abs(pb_x(f, t->p.ball) - pb_x(f, c)), dy = abs(pb_y(f, t->p.ball) - pb_y(f, c));
    int k = dx > dy ? dx : dy;
    return k + (r - 1) + (r - 1) / 2;
}

static void trap_dfs(trap *t, int g) {
    const pb_field *f = t->f;
    if (++t->nodes > t->budget) {
        t->out = 1;
        return;
    }
    for (int d = 0; d < 8 && !t->found && !t->out; d++) {
        if (!pb_free(f, &t->p, t->p.ball, d)) continue;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, &t->p, d, &u, &loser);
        t->path[g + 1] = t->p.ball;
        t->stop[g + 1] = r != PB_STEP_BOUNCE;
        if (r == PB_STEP_DEAD_END && t->p.ball == f->centre) {
            t->found = g + 1;
            return; /* keep the position: the caller reads the path only */
        }
        if ((r == PB_STEP_STOP || r == PB_STEP_BOUNCE) && g + 1 < TRAP_MAX_PATH - 1 &&
            g + 1 + trap_bound(t) <= t->limit)
            trap_dfs(t, g + 1);
        if (t->found) return;
        pb_unstep(f, &t->p, &u);
    }
}

int pb_proofs_centre_trap(const pb_field *f, int max_steps, uint64_t budget, pb_game *g, uint64_t *nodes) {
    trap *t = calloc(1, sizeof *t);
    t->f = f;
    t->budget = budget;
    pb_game_init(g, f, PB_TOP);
    int result = 0;
    for (int limit = 1; limit <= max_steps && limit < TRAP_MAX_PATH - 1; limit++) {
        pb_position_start(f, &t->p, PB_TOP);
        t->limit = limit;
        t->path[0] = (int16_t)f->centre;
        if (trap_bound(t) > limit) continue;
        trap_dfs(t, 0);
        if (t->found || t->out) break;
    }
    *nodes = t->nodes;
    if (t->found) {
        /* Split the steps into turns at each stop; the last turn ends in the
         * dead end. */
        char err[200];
        int from = 0;
        for (int k = 1; k <= t->found; k++) {
            if (!t->stop[k]) continue;
            if (pb_game_play(g, &t->path[from], k - from + 1, 0, err, sizeof err)) {
                result = -1;
                break;
            }
            from = k;
        }
        if (result == 0) result = g->end == PB_END_DEAD_END && g->pos.ball == f->centre ? t->found : -1;
    } else if (t->out) {
        result = -1;
    }
    free(t);
    return result;
}
