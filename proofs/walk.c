/* walk.c - breadth-first walk over distinct positions, level per turn. */
#include "walk.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double pb_walk_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int pb_walk_limits_hit(const pb_walk_limits *lim, size_t stored, double t0) {
    if (lim->max_positions && stored > lim->max_positions) return 1;
    if (lim->stop && *lim->stop) return 1;
    return lim->max_seconds > 0 && pb_walk_now() - t0 > lim->max_seconds;
}

typedef struct expand {
    pb_walk *w;
    const pb_walk_visitor *v;
    const pb_walk_limits *lim;
    const pb_position *before;
    pb_posset *next;
    int depth; /* absolute depth of `before` */
    uint64_t count;
    int over; /* a limit was hit */
    double t0;
} expand;

static int expand_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    expand *x = c;
    pb_walk *w = x->w;
    w->routes++;
    if (x->v->route && x->v->route(x->v->ctx, f, x->before, after, r, x->depth, x->count)) {
        w->stopped = 1;
        w->stop_depth = x->depth - w->depth0;
        w->stop_before = *x->before;
        w->stop_route = malloc(sizeof(int16_t) * (size_t)r->len);
        if (w->stop_route) memcpy(w->stop_route, r->nodes, sizeof(int16_t) * (size_t)r->len);
        w->stop_route_len = w->stop_route ? r->len : 0;
        return 1;
    }
    if (r->end != PB_END_NONE) {
        w->finished++;
        w->games_overflow |= __builtin_add_overflow(w->games, x->count, &w->games);
    } else {
        pb_posset_add(x->next, f, after, x->count);
    }
    return 0;
}

/* The positions of level lev, the last one the depth allows: visited, not
 * expanded. */
static void visit_last(pb_walk *w, const pb_walk_visitor *v, int lev) {
    const pb_posset *cur = &w->levels[lev];
    for (size_t i = 0; i < cur->cap && !w->stopped; i++) {
        pb_position q;
        uint64_t cnt;
        if (!pb_posset_get(cur, w->f, i, &q, &cnt)) continue;
        w->positions++;
        if (v->position && v->position(v->ctx, w->f, &q, w->depth0 + lev, cnt))
            w->stopped = 1, w->stop_depth = lev, w->stop_before = q;
    }
}

/* Expands level lev into a new level lev+1: every route from every
 * position.  Returns 1 when a limit was hit on the way (the walk stops
 * incomplete); a visitor's stop is in w->stopped. */
static int expand_level(pb_walk *w, int *cap, const pb_walk_limits *lim, const pb_walk_visitor *v, int lev,
                        size_t stored, double t0) {
    const pb_field *f = w->f;
    if (w->nlevels == *cap) {
        pb_posset *more = realloc(w->levels, sizeof(pb_posset) * (size_t)*cap * 2);
        if (!more) {
            w->out_of_memory = 1;
            return 1;
        }
        w->levels = more, *cap *= 2;
    }
    pb_posset *cur = &w->levels[lev], *next = &w->levels[lev + 1];
    pb_posset_init(next, f);
    w->nlevels++;
    expand x = {w, v, lim, NULL, next, w->depth0 + lev, 0, 0, t0};
    size_t visited = 0;
    for (size_t i = 0; i < cur->cap && !w->stopped && !x.over; i++) {
        pb_position q;
        if (!pb_posset_get(cur, f, i, &q, &x.count)) continue;
        w->positions++;
        if (v->position && v->position(v->ctx, f, &q, w->depth0 + lev, x.count)) {
            w->stopped = 1, w->stop_depth = lev, w->stop_before = q;
            break;
        }
        x.before = &q;
        pb_routes_foreach(f, &q, expand_route, &x);
        if ((++visited & 255) == 0) x.over = pb_walk_limits_hit(lim, stored + next->size, t0);
        if (next->failed) x.over = w->out_of_memory = 1;
    }
    return x.over;
}

int pb_walk_run(pb_walk *w, const pb_field *f, const pb_position *start, int d0, const pb_walk_limits *lim,
                const pb_walk_visitor *v) {
    static const pb_walk_limits nolim = {0};
    static const pb_walk_visitor novisit = {NULL, NULL, NULL};
    if (!lim) lim = &nolim;
    if (!v) v = &novisit;
    memset(w, 0, sizeof *w);
    w->f = f;
    w->depth0 = d0;
    w->depth_done = -1;
    double t0 = pb_walk_now();
    int cap = 16;
    w->levels = malloc(sizeof(pb_posset) * (size_t)cap);
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
    for (int lev = 0;; lev++) {
        if (w->levels[lev].size == 0) {
            w->complete = 1;
            break;
        }
        if (lim->max_depth > 0 && lev >= lim->max_depth) {
            visit_last(w, v, lev);
            break;
        }
        int over = expand_level(w, &cap, lim, v, lev, stored, t0);
        if (w->stopped || over) break;
        w->depth_done = lev;
        stored += w->levels[lev + 1].size;
        if (pb_walk_limits_hit(lim, stored, t0)) break;
    }
    w->seconds = pb_walk_now() - t0;
    return w->stopped;
}

void pb_walk_free(pb_walk *w) {
    for (int i = 0; i < w->nlevels; i++) pb_posset_free(&w->levels[i]);
    free(w->levels);
    free(w->stop_route);
    memset(w, 0, sizeof *w);
}

/* Finding a parent: the route from a level-k position that leads to target. */
typedef struct parent_find {
    const pb_position *target;
    int16_t *nodes;
    int len;
} parent_find;

static int parent_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    parent_find *pf = c;
    if (r->end != PB_END_NONE || !pb_position_equal(f, after, pf->target)) return 0;
    pf->nodes = malloc(sizeof(int16_t) * (size_t)r->len);
    if (!pf->nodes) return 1; /* the trace fails */
    memcpy(pf->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    pf->len = r->len;
    return 1;
}

int pb_walk_trace(const pb_walk *w, pb_game *g) {
    const pb_field *f = w->f;
    int d = w->stop_depth;
    assert(d >= 0 && d < w->nlevels);
    int16_t **routes = calloc((size_t)d + 1, sizeof *routes);
    int *lens = calloc((size_t)d + 1, sizeof *lens);
    pb_position target = w->stop_before;
    int ok = routes && lens;
    if (!ok) {
        free(routes), free(lens);
        return -1;
    }
    for (int k = d; k >= 1 && ok; k--) {
        const pb_posset *lev = &w->levels[k - 1];
        parent_find pf = {&target, NULL, 0};
        pb_position q;
        for (size_t i = 0; i < lev->cap && !pf.nodes; i++) {
            uint64_t cnt;
            if (!pb_posset_get(lev, f, i, &q, &cnt)) continue;
            pb_position work = q;
            pb_routes_foreach(f, &work, parent_route, &pf);
        }
        if (!pf.nodes) ok = 0;
        else routes[k - 1] = pf.nodes, lens[k - 1] = pf.len, target = q;
    }
    char err[200];
    for (int k = 0; k < d && ok; k++)
        if (pb_game_play(g, routes[k], lens[k], 0, err, sizeof err)) ok = 0;
    if (ok && w->stop_route && pb_game_play(g, w->stop_route, w->stop_route_len, 0, err, sizeof err)) ok = 0;
    for (int k = 0; k <= d; k++) free(routes[k]);
    free(routes);
    free(lens);
    return ok ? 0 : -1;
}
