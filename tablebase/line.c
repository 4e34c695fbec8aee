/* line.c - reading answers out of a tablebase: the turns from a position
 * with their values, a line of perfect play, a way from the root to a
 * position, the longest forced win (tablebase.h, line part). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "turnwalk.h"

typedef struct turns_ctx {
    const pb_tb *tb;
    const pb_tb_layer *next;
    pb_tb_turn *t;
    long n, cap;
    int missing;
} turns_ctx;

static int on_turn(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    turns_ctx *c = ctx;
    uint8_t v;
    if (r->end != PB_END_NONE) {
        v = pb_tb_end(r->loser, r->mover);
    } else {
        int w = pb_tb_lookup(c->tb, c->next, after);
        if (w < 0) {
            c->missing = 1;
            return 1;
        }
        v = pb_tb_after((uint8_t)w);
    }
    (void)f;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->t = realloc(c->t, sizeof *c->t * (size_t)c->cap);
    }
    pb_tb_turn *t = &c->t[c->n++];
    t->nodes = malloc(sizeof(int16_t) * (size_t)r->len);
    memcpy(t->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    t->len = r->len, t->end = r->end, t->loser = r->loser, t->value = v, t->order = c->n;
    return 0;
}

static int by_value(const void *a, const void *b) {
    const pb_tb_turn *x = a, *y = b;
    int rx = pb_tb_rank(x->value), ry = pb_tb_rank(y->value);
    if (rx != ry) return rx > ry ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

long pb_tb_turns(const pb_tb *tb, const pb_tb_layer *next, const pb_position *p, pb_tb_turn **out) {
    turns_ctx c = {tb, next, NULL, 0, 0, 0};
    pb_position q = *p;
    pb_routes_foreach(tb->f, &q, on_turn, &c);
    if (c.missing) {
        pb_tb_turns_free(c.t, c.n);
        *out = NULL;
        return -1;
    }
    qsort(c.t, (size_t)c.n, sizeof *c.t, by_value);
    *out = c.t;
    return c.n;
}

void pb_tb_turns_free(pb_tb_turn *t, long n) {
    for (long i = 0; i < n; i++) free(t[i].nodes);
    free(t);
}

int pb_tb_play_line(const pb_tb *tb, pb_game *g, char *err, size_t errlen) {
    while (g->end == PB_END_NONE) {
        int d = pb_tb_layer_of(tb->f, &g->pos);
        pb_tb_layer next;
        if (pb_tb_load(tb, d + 1, &next, err, errlen)) return -1;
        pb_tb_turn *t;
        long n = pb_tb_turns(tb, &next, &g->pos, &t);
        pb_tb_layer_free(&next);
        if (n <= 0) {
            snprintf(err, errlen, "a position of the line is not in the table");
            return -1;
        }
        int rc = pb_game_play(g, t[0].nodes, t[0].len, 0, err, errlen);
        pb_tb_turns_free(t, n);
        if (rc) return -1;
    }
    return 0;
}

/* Finding a parent: the classes of layer d-1 whose turns reach target's
 * class (merged walk), then the exact route from one of the class's two
 * positions to target itself. */
typedef struct parent_ctx {
    const pb_tb *tb;
    uint64_t want[PB_TB_MAX_KW];
    const pb_position *target;
    int hit;
    int16_t *nodes;
    int len;
} parent_ctx;

static int class_hit(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    parent_ctx *c = ctx;
    uint64_t key[PB_TB_MAX_KW];
    if (o->end != PB_END_NONE) return 0;
    pb_tb_canon(f, &c->tb->k, o->after, key);
    if (pb_tb_cmp(key, c->want, c->tb->k.kw)) return 0;
    c->hit = 1;
    return 1;
}

static int route_hit(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    parent_ctx *c = ctx;
    if (r->end != PB_END_NONE || !pb_position_equal(f, after, c->target)) return 0;
    c->nodes = malloc(sizeof(int16_t) * (size_t)r->len);
    memcpy(c->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    c->len = r->len;
    return 1;
}

int pb_tb_play_path(const pb_tb *tb, pb_game *g, const pb_position *target, char *err, size_t errlen) {
    const pb_field *f = tb->f;
    pb_position root;
    pb_tb_root(tb, &root);
    int d = pb_tb_layer_of(f, target), d0 = tb->h.d0;
    if (d < d0 || d > tb->h.dmax) {
        snprintf(err, errlen, "the position is not in the table");
        return -1;
    }
    int nsteps = d - d0;
    int16_t **routes = calloc((size_t)nsteps + 1, sizeof *routes);
    int *lens = calloc((size_t)nsteps + 1, sizeof *lens);
    pb_position t = *target;
    pb_turnwalk *tw = pb_turnwalk_new(f);
    int ok = 1;
    for (int k = nsteps - 1; k >= 0 && ok; k--) {
        pb_tb_layer L;
        if (pb_tb_load(tb, d0 + k, &L, err, errlen)) {
            ok = 0;
            break;
        }
        parent_ctx c;
        memset(&c, 0, sizeof c);
        c.tb = tb, c.target = &t;
        pb_tb_canon(f, &tb->k, &t, c.want);
        int found = 0;
        for (size_t i = 0; i < L.n && !found; i++) {
            pb_position q[2];
            pb_tb_unpack(f, &tb->k, L.keys + i * tb->k.kw, L.to_move, &q[0]);
            c.hit = 0;
            pb_turn_outcomes(tw, &q[0], class_hit, &c);
            if (!c.hit) continue;
            pb_position_mirror(f, &q[0], &q[1], 1, 0);
            /* In the root's layer only the root itself will do. */
            for (int m = 0; m < 2 && !found; m++) {
                if (k == 0 && !pb_position_equal(f, &q[m], &root)) continue;
                pb_routes_foreach(f, &q[m], route_hit, &c);
                if (c.nodes) {
                    routes[k] = c.nodes, lens[k] = c.len, found = 1;
                    t = q[m];
                }
            }
        }
        pb_tb_layer_free(&L);
        if (!found) {
            snprintf(err, errlen, "no way from the root to the position was found");
            ok = 0;
        }
    }
    pb_turnwalk_free(tw);
    for (int k = 0; k < nsteps && ok; k++)
        if (pb_game_play(g, routes[k], lens[k], 0, err, errlen)) ok = 0;
    for (int k = 0; k < nsteps; k++) free(routes[k]);
    free(routes), free(lens);
    return ok ? 0 : -1;
}

int pb_tb_longest_win(const pb_tb *tb, int *layer, pb_position *p, uint8_t *value, char *err, size_t errlen) {
    int best = 0;
    for (int d = tb->h.d0; d <= tb->h.dmax; d++) {
        pb_tb_layer L;
        if (pb_tb_load(tb, d, &L, err, errlen)) return -1;
        for (size_t i = 0; i < L.n; i++) {
            uint8_t v = L.vals[i];
            if (pb_tb_value(v) == 1 && pb_tb_distance(v) > best) {
                best = pb_tb_distance(v);
                *layer = d, *value = v;
                pb_tb_unpack(tb->f, &tb->k, L.keys + i * tb->k.kw, L.to_move, p);
            }
        }
        pb_tb_layer_free(&L);
    }
    return best ? 1 : 0;
}
