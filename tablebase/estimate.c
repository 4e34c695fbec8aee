/* estimate.c - the size of every layer of a tablebase, estimated from a
 * sample before a build (pb_tb_estimate).
 *
 * Layers are counted exactly while they are small.  After that, each layer
 * is estimated by capture-recapture: two disjoint random halves A and B of
 * a sample of the layer are expanded; their successor sets C_A and C_B are
 * two "captures" of the next layer, and |next| ~ |C_A| |C_B| / |C_A & C_B|
 * (Lincoln-Petersen).  C_A | C_B then serves as the sample of the next
 * layer.  It is an estimate, not a bound: positions with many parents are
 * caught more often, which biases it low, and the later samples are not
 * uniform.  A layer whose captures do not meet is reported as at least
 * |C_A | C_B|.  Single-threaded and deterministic for a given seed.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "tablebase.h"
#include "turnwalk.h"

/* What ends an estimate early: a caught signal, or the time limit. */
typedef struct est_stop {
    volatile sig_atomic_t *flag; /* may be NULL */
    double deadline;             /* omp_get_wtime() seconds, 0 = none */
    int hit;
    int oom; /* memory ran out (hit too) */
} est_stop;

/* Checked once a parent: the clock only every 64th call. */
static int stopped(est_stop *st, size_t i) {
    if (st->hit || (st->flag && *st->flag)) return st->hit = 1;
    if (st->deadline > 0 && (i & 63) == 0 && omp_get_wtime() >= st->deadline) st->hit = 1;
    return st->hit;
}

typedef struct est_ctx {
    const pb_field *f;
    const pb_tb_keyfmt *k;
    uint64_t *keys;
    size_t n, cap;
} est_ctx;

/* The successor classes of the positions expanded so far. */
typedef struct est_walk {
    const pb_tb_keyfmt *k;
    pb_tb_keyset set;
    const pb_position *parent;     /* whose turns are walked */
    uint64_t mirror[PB_MAX_WORDS]; /* its segments mirrored */
    int oom;                       /* the set could not grow */
} est_walk;

static int est_one(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    est_walk *w = ctx;
    if (o->end != PB_END_NONE) return 0;
    uint64_t key[PB_TB_MAX_KW];
    pb_tb_canon_near(f, w->k, o->key, (int)(o->key[f->nwords] & 0xffff), w->parent->seg, w->mirror, key);
    if (pb_tb_keyset_put(&w->set, key) == 0) return 0;
    w->oom = 1;
    return 1;
}

/* The sorted successor classes of keys[0..n-1] (layer parity to_move). */
static void expand(const pb_field *f, const pb_tb_keyfmt *k, pb_turnwalk *tw, const uint64_t *keys, size_t n,
                   int to_move, est_stop *stop, est_ctx *out) {
    out->f = f, out->k = k;
    est_walk w;
    w.k = k;
    w.oom = 0;
    pb_tb_keyset_init(&w.set, k->kw);
    pb_position p;
    w.parent = &p;
    for (size_t i = 0; i < n && !stopped(stop, i); i++) {
        pb_tb_unpack(f, k, keys + i * (size_t)k->kw, to_move, &p);
        pb_tb_mirror_segs(f, p.seg, w.mirror);
        pb_turn_outcomes(tw, &p, est_one, &w);
        if (w.oom) stop->oom = stop->hit = 1;
    }
    out->keys = pb_tb_keyset_take_sorted(&w.set, &out->n);
    out->cap = out->n;
}

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* One sampled layer: two random halves of at most `sample` of cur's keys
 * expanded; returns the capture-recapture estimate of the next layer and
 * leaves the union of the two captures in cur. */
static double sample_step(const pb_field *f, const pb_tb_keyfmt *k, pb_turnwalk *tw, est_ctx *cur, size_t sample,
                          int to_move, est_stop *stop, uint64_t *rng) {
    const size_t kw = (size_t)k->kw;
    for (size_t i = cur->n; i > 1; i--) {
        size_t j = next_rand(rng) % i;
        for (size_t w = 0; w < kw; w++) {
            uint64_t t = cur->keys[(i - 1) * kw + w];
            cur->keys[(i - 1) * kw + w] = cur->keys[j * kw + w];
            cur->keys[j * kw + w] = t;
        }
    }
    est_ctx a = {0}, b = {0};
    size_t m = cur->n < sample ? cur->n : sample, h = m / 2;
    expand(f, k, tw, cur->keys, h, to_move, stop, &a);
    expand(f, k, tw, cur->keys + h * kw, m - h, to_move, stop, &b);
    size_t common = 0, i = 0, j = 0;
    while (i < a.n && j < b.n) {
        int c = pb_tb_cmp(a.keys + i * kw, b.keys + j * kw, k->kw);
        if (c == 0) common++, i++, j++;
        else if (c < 0) i++;
        else j++;
    }
    double e = common ? (double)a.n * (double)b.n / (double)common : (double)(a.n + b.n);
    free(cur->keys);
    cur->cap = a.n + b.n + 1;
    cur->keys = malloc(cur->cap * kw * 8);
    if (!cur->keys) {
        stop->oom = stop->hit = 1;
        cur->n = 0;
        free(a.keys), free(b.keys);
        return e;
    }
    /* A half stopped before its first key has no array (NULL): memcpy
     * may not be given one, even for no bytes. */
    if (a.n) memcpy(cur->keys, a.keys, a.n * kw * 8);
    if (b.n) memcpy(cur->keys + a.n * kw, b.keys, b.n * kw * 8);
    cur->n = pb_tb_sort_unique(cur->keys, a.n + b.n, k->kw);
    free(a.keys), free(b.keys);
    return e;
}

int pb_tb_estimate(const pb_field *f, const pb_position *root, size_t exact, size_t sample, unsigned seed,
                   volatile sig_atomic_t *flag, double time_limit, double *est, int *exact_upto,
                   void (*on_layer)(void *ctx, int d, double est, int exact), void *ctx) {
    est_stop stop_ = {flag, time_limit > 0 ? omp_get_wtime() + time_limit : 0, 0, 0}, *stop = &stop_;
    pb_tb_keyfmt k;
    pb_tb_keyfmt_init(&k, f);
    pb_turnwalk *tw = pb_turnwalk_new(f);
    est_ctx cur = {f, &k, calloc((size_t)k.kw + 1, 8), 1, 1};
    if (!tw || !cur.keys) {
        pb_turnwalk_free(tw);
        free(cur.keys);
        return -2;
    }
    pb_turnwalk_set_keys_only(tw, 1);
    pb_turnwalk_set_ends(tw, 0);
    uint64_t rng = 0x9e3779b97f4a7c15ULL ^ seed;
    int d = pb_tb_layer_of(f, root), to_move = root->to_move, is_exact = 1;
    pb_tb_canon(f, &k, root, cur.keys);
    est[d] = 1;
    *exact_upto = d;
    for (;;) {
        if (is_exact && cur.n <= exact) {
            est_ctx a = {0};
            expand(f, &k, tw, cur.keys, cur.n, to_move, stop, &a);
            free(cur.keys);
            cur = a;
            est[d + 1] = (double)cur.n;
            if (cur.n) *exact_upto = d + 1;
        } else {
            est[d + 1] = sample_step(f, &k, tw, &cur, sample, to_move, stop, &rng);
            is_exact = 0;
        }
        if (on_layer && cur.n && !stop->hit) on_layer(ctx, d + 1, est[d + 1], is_exact);
        d++, to_move ^= 1;
        if (cur.n == 0 || d >= PB_MAX_LATTICE - 1 || stopped(stop, 0)) break;
    }
    free(cur.keys);
    pb_turnwalk_free(tw);
    return stop->oom ? -2 : stop->hit ? -1 : d - 1;
}
