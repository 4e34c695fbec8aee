/* verify.c - an independent check of a tablebase file (pb_tb_verify).
 *
 * Written apart from the builder on purpose.  Every entry is checked step
 * by step: a depth-first walk over the steps of its turn with its own memo
 * of mid-turn positions (the builder uses pb_turn_outcomes, which goes
 * through the turn layer by layer); and a sample of the entries (all of
 * them on small layers) is checked again route by route with
 * pb_routes_foreach.  Successors are found in a hash map of whole
 * positions holding both mirror images (the builder binary-searches
 * canonical keys), and values are ordered by the verifier's own
 * comparison.  What it shares with the builder is the file format (reading
 * keys and value bytes) and the rules.
 *
 * Checked: every checksum (the container); the root in layer d0; the keys
 * of each layer strictly increasing and each the smaller of its mirror
 * pair, each entry in its layer; every successor of every entry present in
 * the next layer; every entry equal to the best of its turns, a turn that
 * ends the game valued by its end; the header's counts equal to the
 * entries'.  Together these prove every entry by induction from the
 * deepest layer, whose turns all end the game.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posset.h"
#include "tablebase.h"
#include "turn.h"

/* A map from whole positions (pb_position_pack keys) to value bytes. */
typedef struct vmap {
    int kw;
    size_t cap;
    uint64_t *keys; /* cap * kw */
    uint8_t *used, *val;
} vmap;

static uint64_t vmap_hash(const uint64_t *key, int kw) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < kw; i++) {
        h ^= key[i];
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    return h;
}

static void vmap_init(vmap *m, int kw, size_t n) {
    m->kw = kw;
    m->cap = 16;
    while (m->cap < 2 * n + 16) m->cap *= 2;
    m->keys = calloc(m->cap * (size_t)kw, 8);
    m->used = calloc(m->cap, 1);
    m->val = calloc(m->cap, 1);
}

static void vmap_free(vmap *m) {
    free(m->keys), free(m->used), free(m->val);
    memset(m, 0, sizeof *m);
}

static size_t vmap_slot(const vmap *m, const uint64_t *key) {
    size_t i = vmap_hash(key, m->kw) & (m->cap - 1);
    while (m->used[i] && memcmp(m->keys + i * m->kw, key, 8 * (size_t)m->kw)) i = (i + 1) & (m->cap - 1);
    return i;
}

/* Adds key; returns 0, or 1 if it was there already. */
static int vmap_put(vmap *m, const uint64_t *key, uint8_t v) {
    size_t i = vmap_slot(m, key);
    if (m->used[i]) return 1;
    m->used[i] = 1, m->val[i] = v;
    memcpy(m->keys + i * m->kw, key, 8 * (size_t)m->kw);
    return 0;
}

static int vmap_get(const vmap *m, const uint64_t *key) {
    if (!m->cap) return -1;
    size_t i = vmap_slot(m, key);
    return m->used[i] ? m->val[i] : -1;
}

/* Value bytes as (kind, distance): kind 2 win, 1 draw, 0 loss. */
static int better(uint8_t a, uint8_t b) {
    int ka = a == 0 ? 1 : (a & 1) ? 2 : 0, kb = b == 0 ? 1 : (b & 1) ? 2 : 0;
    if (ka != kb) return ka > kb;
    int da = (a + 1) / 2, db = (b + 1) / 2;
    return ka == 2 ? da < db : ka == 0 ? da > db : 0;
}

static int converted(const pb_field *f, const pb_position *p) {
    int n = 0;
    for (int i = 0; i < f->nlattice; i++) n += (f->flags[i] & PB_NODE) && !(f->flags[i] & PB_OCCUPIED0) && p->deg[i];
    return n;
}

typedef struct route_ctx {
    const vmap *next;
    int kwp;
    int have;
    uint8_t best;
    int missing;
    uint64_t routes;
} route_ctx;

static int on_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    route_ctx *c = ctx;
    uint8_t v;
    c->routes++;
    if (r->end != PB_END_NONE) {
        v = r->loser == PB_NOBODY ? 0 : r->loser == r->mover ? 2 : 1;
    } else {
        uint64_t key[PB_MAX_WORDS + 1];
        pb_position_pack(f, after, key);
        int w = vmap_get(c->next, key);
        if (w < 0) {
            c->missing = 1;
            return 1;
        }
        /* The opponent's value w seen by the mover, one turn longer. */
        int d = (w + 1) / 2 + 1;
        v = w == 0 ? 0 : (w & 1) ? (uint8_t)(2 * d) : (uint8_t)(2 * d - 1);
    }
    if (!c->have || better(v, c->best)) c->best = v, c->have = 1;
    return 0;
}

/* Route by route on the sampled entries: at most this many routes each;
 * past it only "no route beats the entry" is checked. */
#define ROUTE_CAP 20000
/* Sample: every entry of a layer this small, else one in ROUTE_STRIDE. */
#define ROUTE_ALL 2000
#define ROUTE_STRIDE 61

/* The step-level walk: the best value for the mover over the steps from a
 * mid-turn position, each bounce position memoised for this entry (the
 * memo's entries carry the entry's stamp, so it needs no clearing). */
typedef struct step_ctx {
    const pb_field *f;
    const vmap *next;
    int missing;
    uint64_t stamp;
    size_t cap, n;
    uint64_t *keys;   /* cap * kw */
    uint64_t *stamps; /* per slot: the entry it belongs to (0: empty) */
    uint8_t *val;
    int kw;
} step_ctx;

static size_t step_slot(const step_ctx *c, const uint64_t *key) {
    size_t i = vmap_hash(key, c->kw) & (c->cap - 1);
    while (c->stamps[i] == c->stamp && memcmp(c->keys + i * c->kw, key, 8 * (size_t)c->kw)) i = (i + 1) & (c->cap - 1);
    return i;
}

static void step_grow(step_ctx *c) {
    step_ctx old = *c;
    c->cap = old.cap ? 2 * old.cap : 1024;
    c->keys = calloc(c->cap * (size_t)c->kw, 8), c->stamps = calloc(c->cap, 8), c->val = calloc(c->cap, 1);
    c->n = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.stamps[i] == c->stamp) {
            size_t j = step_slot(c, old.keys + i * c->kw);
            memcpy(c->keys + j * c->kw, old.keys + i * c->kw, 8 * (size_t)c->kw);
            c->stamps[j] = c->stamp, c->val[j] = old.val[i], c->n++;
        }
    free(old.keys), free(old.stamps), free(old.val);
}

static uint8_t step_best(step_ctx *c, pb_position *p) {
    const pb_field *f = c->f;
    int mover = p->to_move, have = 0;
    uint8_t best = 0;
    for (int d = 0; d < 8 && !c->missing; d++) {
        if (!pb_free(f, p, p->ball, d)) continue;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, p, d, &u, &loser);
        uint8_t v = 0;
        uint64_t key[PB_MAX_WORDS + 1];
        if (r == PB_STEP_GOAL || r == PB_STEP_DEAD_END) {
            v = loser == PB_NOBODY ? 0 : loser == mover ? 2 : 1;
        } else if (r == PB_STEP_STOP) {
            pb_position_pack(f, p, key);
            int w = vmap_get(c->next, key);
            if (w < 0) c->missing = 1;
            int k = (w + 1) / 2 + 1;
            v = w <= 0 ? 0 : (w & 1) ? (uint8_t)(2 * k) : (uint8_t)(2 * k - 1);
        } else {
            pb_position_pack(f, p, key);
            size_t i = step_slot(c, key);
            if (c->stamps[i] == c->stamp) {
                v = c->val[i];
            } else {
                v = step_best(c, p);
                if (2 * (c->n + 1) > c->cap) step_grow(c);
                i = step_slot(c, key);
                memcpy(c->keys + i * c->kw, key, 8 * (size_t)c->kw);
                c->stamps[i] = c->stamp, c->val[i] = v, c->n++;
            }
        }
        pb_unstep(f, p, &u);
        if (!have || better(v, best)) best = v, have = 1;
        if (best == 1) break; /* a win in 1: nothing can be better */
    }
    return best;
}

typedef struct capped_ctx {
    route_ctx *rc;
    int capped;
} capped_ctx;

static int on_route_capped(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    capped_ctx *c = ctx;
    if (c->rc->routes >= ROUTE_CAP) {
        c->capped = 1;
        return 1;
    }
    return on_route(c->rc, f, after, r);
}

static void fail(pb_tb_verify_result *res, const char *fmt, int a, int b) {
#pragma omp critical(pb_tb_verify_fail)
    {
        if (!res->errors) snprintf(res->first_error, sizeof res->first_error, fmt, a, b);
        res->errors++;
    }
}

/* The map of layer L: both mirror images of every entry. */
static void fill_map(const pb_tb *tb, const pb_tb_layer *L, vmap *m) {
    const pb_field *f = tb->f;
    int kwp = f->nwords + 1;
    vmap_init(m, kwp, 2 * L->n);
    for (size_t i = 0; i < L->n; i++) {
        pb_position p, q;
        uint64_t key[PB_MAX_WORDS + 1];
        pb_tb_unpack(f, &tb->k, L->keys + i * tb->k.kw, L->to_move, &p);
        pb_position_pack(f, &p, key);
        vmap_put(m, key, L->vals[i]);
        pb_position_mirror(f, &p, &q, 1, 0);
        pb_position_pack(f, &q, key);
        vmap_put(m, key, L->vals[i]);
    }
}

/* Counts of a layer's entries by value (index: loss, draw, win). */
typedef struct layer_tally {
    uint64_t cl[3], po[3], routes, sampled;
} layer_tally;

/* Entry i of layer L (key, position p): in order, the smaller of its
 * mirror pair, in its layer.  Returns whether p is its own mirror image. */
static int check_key(const pb_tb *tb, const pb_tb_layer *L, size_t i, const pb_position *p, pb_tb_verify_result *res) {
    const pb_field *f = tb->f;
    const int kw = tb->k.kw, d = L->depth;
    const uint64_t *key = L->keys + i * (size_t)kw;
    pb_position q;
    uint64_t mk[PB_TB_MAX_KW];
    pb_position_mirror(f, p, &q, 1, 0);
    pb_tb_pack(f, &tb->k, &q, mk);
    int c = pb_tb_cmp(key, mk, kw);
    if (i > 0 && pb_tb_cmp(key - kw, key, kw) >= 0) fail(res, "layer %d: entry %d is out of order", d, (int)i);
    if (c > 0) fail(res, "layer %d: entry %d is not the smaller key of its mirror pair", d, (int)i);
    if (converted(f, p) != d || !pb_is_node(f, p->ball))
        fail(res, "layer %d: entry %d does not belong to the layer", d, (int)i);
    return c == 0;
}

/* Entry i of L against its routes (a sample: every entry of a small layer,
 * one in ROUTE_STRIDE of the others). */
static void check_routes(const pb_field *f, const vmap *nmap, const pb_tb_layer *L, size_t i, pb_position *p,
                         layer_tally *t, pb_tb_verify_result *res) {
    if (L->n > ROUTE_ALL && i % ROUTE_STRIDE != 0) return;
    const int d = L->depth;
    route_ctx rc = {nmap, f->nwords + 1, 0, 0, 0, 0};
    capped_ctx cc = {&rc, 0};
    pb_routes_foreach(f, p, on_route_capped, &cc);
    t->routes += rc.routes;
    t->sampled++;
    if (rc.missing) fail(res, "layer %d: a successor of entry %d is missing (route check)", d, (int)i);
    else if (!rc.have) fail(res, "layer %d: entry %d has no turn", d, (int)i);
    else if (cc.capped ? better(rc.best, L->vals[i]) : rc.best != L->vals[i])
        fail(res, "layer %d: entry %d is not the best of its routes", d, (int)i);
}

/* Every entry of L (layer d, whose next layer's map is nmap): its key, its
 * turns step by step, a sample route by route; tallied into *t. */
static void check_entries(const pb_tb *tb, const pb_tb_layer *L, const vmap *nmap, int nt, layer_tally *t,
                          pb_tb_verify_result *res) {
    const pb_field *f = tb->f;
    const int kw = tb->k.kw, d = L->depth;
    uint64_t cl[3] = {0, 0, 0}, po[3] = {0, 0, 0}, routes = 0, sampled = 0;
#pragma omp parallel num_threads(nt) reduction(+ : cl[:3], po[:3], routes, sampled)
    {
        step_ctx sc;
        memset(&sc, 0, sizeof sc);
        sc.f = f, sc.next = nmap, sc.kw = f->nwords + 1;
        step_grow(&sc);
        layer_tally mine = {{0, 0, 0}, {0, 0, 0}, 0, 0};
#pragma omp for schedule(dynamic, 64)
        for (size_t i = 0; i < L->n; i++) {
            pb_position p;
            pb_tb_unpack(f, &tb->k, L->keys + i * (size_t)kw, L->to_move, &p);
            int self = check_key(tb, L, i, &p, res);
            sc.stamp = (uint64_t)i + 1 + ((uint64_t)d << 40);
            sc.missing = 0, sc.n = 0;
            uint8_t best = step_best(&sc, &p);
            if (sc.missing) fail(res, "layer %d: a successor of entry %d is missing from the next layer", d, (int)i);
            else if (best != L->vals[i]) fail(res, "layer %d: entry %d is not the best of its turns", d, (int)i);
            check_routes(f, nmap, L, i, &p, &mine, res);
            int k = L->vals[i] == 0 ? 1 : (L->vals[i] & 1) ? 2 : 0;
            cl[k] += 1;
            po[k] += self ? 1 : 2;
        }
        routes += mine.routes, sampled += mine.sampled;
        free(sc.keys), free(sc.stamps), free(sc.val);
    }
    memcpy(t->cl, cl, sizeof cl), memcpy(t->po, po, sizeof po);
    t->routes = routes, t->sampled = sampled;
}

/* The header's counts of layer d against the tally. */
static void check_counts(const pb_tb_header *h, int d, const layer_tally *t, pb_tb_verify_result *res) {
    const pb_tb_layer_counts *hc = &h->layer[d - h->d0];
    uint64_t tc = 0, tp = 0;
    for (int k = 0; k < 3; k++) {
        tc += t->cl[k], tp += t->po[k];
        if (t->cl[k] != hc->classes_by[k] || t->po[k] != hc->positions_by[k])
            fail(res, "layer %d: the header's counts by value (value %d) do not match the entries", d, k - 1);
    }
    if (tc != hc->classes || tp != hc->positions)
        fail(res, "layer %d: the header's counts do not match the entries", d, 0);
}

/* The root is in layer d0 (L, loaded). */
static void check_root(const pb_tb *tb, const pb_tb_layer *L, pb_tb_verify_result *res) {
    const pb_field *f = tb->f;
    const int d0 = tb->h.d0;
    pb_position root;
    pb_tb_root(tb, &root);
    if (converted(f, &root) != d0) fail(res, "the root is not in layer %d", d0, 0);
    uint64_t rk[PB_MAX_WORDS + 1];
    vmap rm;
    fill_map(tb, L, &rm);
    pb_position_pack(f, &root, rk);
    if (vmap_get(&rm, rk) < 0) fail(res, "the root is missing from layer %d", d0, 0);
    vmap_free(&rm);
}

/* From the deepest layer up: layer d checked against the map of layer
 * d + 1 (empty past the deepest), then kept as the next one. */
int pb_tb_verify(pb_tb *tb, int threads, pb_tb_verify_result *res, char *err, size_t errlen) {
    memset(res, 0, sizeof *res);
    const pb_tb_header *h = &tb->h;
    int nt = threads > 0 ? threads : omp_get_max_threads();
    pb_tb_layer cur, next;
    vmap nmap;
    memset(&nmap, 0, sizeof nmap);
    if (pb_tb_load(tb, h->dmax, &next, err, errlen)) return 2;
    for (int d = h->dmax; d >= h->d0; d--) {
        vmap_free(&nmap);
        if (d < h->dmax) fill_map(tb, &next, &nmap);
        if (d == h->dmax) cur = next, memset(&next, 0, sizeof next);
        else if (pb_tb_load(tb, d, &cur, err, errlen)) {
            pb_tb_layer_free(&next);
            vmap_free(&nmap);
            return 2;
        }
        pb_tb_layer_free(&next);
        layer_tally t;
        check_entries(tb, &cur, &nmap, nt, &t, res);
        res->route_checked += t.sampled;
        res->routes += t.routes;
        res->checked += cur.n;
        check_counts(h, d, &t, res);
        if (d == h->d0) check_root(tb, &cur, res);
        next = cur;
    }
    pb_tb_layer_free(&next);
    vmap_free(&nmap);
    return res->errors ? 1 : 0;
}
