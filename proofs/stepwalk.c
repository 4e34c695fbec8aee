/* stepwalk.c - breadth-first walk over distinct states, level per step. */
#include "stepwalk.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Every step from the state q (count paths reach it, at level lev): the
 * finishing ones counted, the others into next.  Returns 1 when a visitor
 * stopped the walk (where: in w). */
static int expand_state(pb_stepwalk *w, const pb_stepwalk_visitor *v, pb_position *q, uint64_t cnt, int lev,
                        pb_posset *next) {
    const pb_field *f = w->f;
    pb_position before = *q;
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, q, q->ball, d)) continue;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, q, d, &u, &loser);
        w->steps++;
        if (v && v->step && v->step(v->ctx, f, &before, q, d, r, loser, cnt)) {
            w->stopped = 1, w->stop_level = lev, w->stop_before = before, w->stop_dir = d;
            return 1;
        }
        if (r == PB_STEP_GOAL || r == PB_STEP_DEAD_END) {
            w->finishing++;
            w->games_overflow |= __builtin_add_overflow(w->games, cnt, &w->games);
        } else {
            pb_posset_add(next, f, q, cnt);
        }
        pb_unstep(f, q, &u);
    }
    return 0;
}

/* Expands level lev into level lev+1.  Returns 1 when a limit was hit on
 * the way (the walk stops incomplete); a visitor's stop is in w->stopped. */
static int expand_level(pb_stepwalk *w, const pb_walk_limits *lim, const pb_stepwalk_visitor *v, int lev, size_t stored,
                        double t0) {
    const pb_field *f = w->f;
    pb_posset *cur = &w->levels[lev], *next = &w->levels[lev + 1];
    pb_posset_init(next, f);
    w->nlevels++;
    size_t visited = 0;
    for (size_t i = 0; i < cur->cap && !w->stopped; i++) {
        pb_position q;
        uint64_t cnt;
        if (!pb_posset_get(cur, f, i, &q, &cnt)) continue;
        w->states++;
        if (v && v->state && v->state(v->ctx, f, &q, lev)) {
            w->stopped = 1, w->stop_level = lev, w->stop_before = q, w->stop_dir = -1;
            break;
        }
        if (expand_state(w, v, &q, cnt, lev, next)) break;
        if (next->failed) return w->out_of_memory = 1;
        if ((++visited & 1023) == 0 && pb_walk_limits_hit(lim, stored + next->size, t0)) return 1;
    }
    return 0;
}

int pb_stepwalk_run(pb_stepwalk *w, const pb_field *f, const pb_position *start, const pb_walk_limits *lim,
                    const pb_stepwalk_visitor *v) {
    static const pb_walk_limits nolim = {0};
    if (!lim) lim = &nolim;
    memset(w, 0, sizeof *w);
    w->f = f;
    w->depth_done = -1;
    double t0 = pb_walk_now();
    int cap = f->nsegments + 2;
    w->levels = calloc((size_t)cap, sizeof(pb_posset));
    if (!w->levels) {
        w->out_of_memory = 1;
        return 0;
    }
    pb_posset_init(&w->levels[0], f);
    pb_posset_add(&w->levels[0], f, start, 1);
    w->nlevels = 1;
    if (w->levels[0].failed) {
        w->out_of_memory = 1;
        return 0;
    }
    size_t stored = 1;
    for (int lev = 0; !w->stopped; lev++) {
        if (w->levels[lev].size == 0) {
            w->complete = 1;
            break;
        }
        if (lim->max_depth > 0 && lev >= lim->max_depth) break;
        assert(lev + 1 < cap);
        if (expand_level(w, lim, v, lev, stored, t0) || w->stopped) break;
        w->depth_done = lev;
        stored += w->levels[lev + 1].size;
        if (pb_walk_limits_hit(lim, stored, t0)) break;
    }
    w->seconds = pb_walk_now() - t0;
    return w->stopped;
}

void pb_stepwalk_free(pb_stepwalk *w) {
    for (int i = 0; i < w->nlevels; i++) pb_posset_free(&w->levels[i]);
    free(w->levels);
    memset(w, 0, sizeof *w);
}

int pb_stepwalk_trace(const pb_stepwalk *w, pb_game *g) {
    const pb_field *f = w->f;
    int n = w->stop_level;
    int *dirs = malloc(sizeof(int) * (size_t)(n + 1));
    if (!dirs) return -1;
    pb_position target = w->stop_before;
    for (int k = n; k >= 1; k--) {
        const pb_posset *lev = &w->levels[k - 1];
        int found = 0;
        pb_position q;
        for (size_t i = 0; i < lev->cap && !found; i++) {
            uint64_t cnt;
            if (!pb_posset_get(lev, f, i, &q, &cnt)) continue;
            for (int d = 0; d < 8 && !found; d++) {
                if (!pb_free(f, &q, q.ball, d)) continue;
                pb_undo u;
                int loser;
                pb_step_result r = pb_step(f, &q, d, &u, &loser);
                if ((r == PB_STEP_STOP || r == PB_STEP_BOUNCE) && pb_position_equal(f, &q, &target))
                    found = 1, dirs[k - 1] = d;
                pb_unstep(f, &q, &u);
            }
        }
        if (!found) {
            free(dirs);
            return -1;
        }
        target = q;
    }
    int total = n;
    if (w->stop_dir >= 0) dirs[total++] = w->stop_dir;
    /* Replay the steps on a copy, cutting turns at each stop. */
    pb_position p = g->pos;
    int16_t *nodes = malloc(sizeof(int16_t) * (size_t)(total + 1));
    if (!nodes) {
        free(dirs);
        return -1;
    }
    int len = 0, rc = 0;
    nodes[len++] = p.ball;
    char err[200];
    for (int k = 0; k < total && rc == 0; k++) {
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, &p, dirs[k], &u, &loser);
        nodes[len++] = p.ball;
        if (r != PB_STEP_BOUNCE || k == total - 1) {
            if (r == PB_STEP_BOUNCE) break; /* a walk stopped mid-turn: the record ends before it */
            if (pb_game_play(g, nodes, len, 0, err, sizeof err)) rc = -1;
            len = 0;
            nodes[len++] = p.ball;
        }
    }
    free(nodes);
    free(dirs);
    return rc;
}
