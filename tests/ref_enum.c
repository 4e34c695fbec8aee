/* ref_enum.c - the naive reference enumeration (ref_enum.h), written apart
 * from enumerate/: no routes API, no multiplicities, its own hash set and
 * its own canonical forms (through pb_position_mirror). */
#include "ref_enum.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A plain set of fixed-width keys: open addressing, linear probing. */
typedef struct ref_set {
    int kw;
    size_t n, cap;
    uint64_t *keys;
    unsigned char *used;
} ref_set;

static void set_init(ref_set *s, int kw) {
    s->kw = kw;
    s->n = 0;
    s->cap = 64;
    s->keys = calloc(s->cap * (size_t)kw, sizeof(uint64_t));
    s->used = calloc(s->cap, 1);
}

static void set_free(ref_set *s) {
    free(s->keys);
    free(s->used);
}

static size_t key_hash(const uint64_t *k, int kw) {
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *b = (const unsigned char *)k;
    for (size_t i = 0; i < sizeof(uint64_t) * (size_t)kw; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return (size_t)h;
}

static void set_put(ref_set *s, const uint64_t *k);

static void set_grow(ref_set *s) {
    ref_set old = *s;
    s->cap *= 2;
    s->n = 0;
    s->keys = calloc(s->cap * (size_t)s->kw, sizeof(uint64_t));
    s->used = calloc(s->cap, 1);
    for (size_t i = 0; i < old.cap; i++)
        if (old.used[i]) set_put(s, old.keys + i * (size_t)s->kw);
    set_free(&old);
}

static void set_put(ref_set *s, const uint64_t *k) {
    if (2 * (s->n + 1) > s->cap) set_grow(s);
    size_t i = key_hash(k, s->kw) & (s->cap - 1);
    while (s->used[i]) {
        if (!memcmp(s->keys + i * (size_t)s->kw, k, sizeof(uint64_t) * (size_t)s->kw)) return;
        i = (i + 1) & (s->cap - 1);
    }
    s->used[i] = 1;
    memcpy(s->keys + i * (size_t)s->kw, k, sizeof(uint64_t) * (size_t)s->kw);
    s->n++;
}

/* The key of a position: drawn words, then ball and player. */
static void key_of(const pb_field *f, const pb_position *p, uint64_t *k) {
    for (int w = 0; w < f->nwords; w++) k[w] = p->seg[w];
    k[f->nwords] = (uint64_t)(uint16_t)p->ball * 4 + p->to_move;
}

typedef struct walker {
    const pb_field *f;
    int max_depth, reached;
    ref_set *sets; /* per depth */
    ref_set all;
    ref_enum_row *rows;
} walker;

static void turn(walker *w, pb_position *p, int depth);
static void triple_turn(walker *w, pb_position *p, int depth);

static void arrive(walker *w, pb_position *p, int depth) {
    uint64_t k[PB_MAX_WORDS + 1];
    key_of(w->f, p, k);
    set_put(&w->sets[depth], k);
    set_put(&w->all, k);
    if (depth > w->reached) w->reached = depth;
    if (depth < w->max_depth) {
        if (w->f->spec.rules == PB_RULES_TRIPLE) triple_turn(w, p, depth);
        else turn(w, p, depth);
    }
}

/* Every continuation of the turn that began at depth (ball mid-turn). */
static void turn(walker *w, pb_position *p, int depth) {
    const pb_field *f = w->f;
    int mover = p->to_move;
    for (int d = 0; d < 8; d++) {
        int s = f->seg[p->ball][d];
        if (s < 0 || pb_drawn(p, s)) continue;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, p, d, &u, &loser);
        if (r == PB_STEP_BOUNCE) {
            turn(w, p, depth);
        } else {
            ref_enum_row *row = &w->rows[depth + 1];
            row->sequences++;
            if (depth + 1 > w->reached) w->reached = depth + 1;
            if (r == PB_STEP_STOP) {
                arrive(w, p, depth + 1);
            } else {
                int k;
                row->finished++;
                if (r == PB_STEP_GOAL) k = mover == PB_TOP ? (loser == PB_TOP ? 2 : 0) : (loser == PB_BOTTOM ? 3 : 1);
                else k = loser == PB_NOBODY ? 6 : loser == PB_TOP ? 4 : 5;
                row->outcome[k]++;
            }
        }
        pb_unstep(f, p, &u);
    }
}

/* The number of distinct least keys over the images under the mirrors
 * listed (lr, tb pairs), for the positions of one set. */
static uint64_t classes(const pb_field *f, const ref_set *s, int full) {
    ref_set canon;
    set_init(&canon, s->kw);
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->used[i]) continue;
        const uint64_t *k = s->keys + i * (size_t)s->kw;
        pb_position p;
        memset(&p, 0, sizeof p);
        for (int w = 0; w < f->nwords; w++) p.seg[w] = k[w];
        p.ball = (int16_t)(k[f->nwords] / 4);
        p.to_move = (uint8_t)(k[f->nwords] % 4);
        pb_position_refresh(f, &p);
        uint64_t best[PB_MAX_WORDS + 1], img[PB_MAX_WORDS + 1];
        memcpy(best, k, sizeof(uint64_t) * (size_t)s->kw);
        for (int g = 1; g < (full ? 4 : 2); g++) {
            pb_position q;
            pb_position_mirror(f, &p, &q, g & 1, g >> 1);
            key_of(f, &q, img);
            if (memcmp(img, best, sizeof(uint64_t) * (size_t)s->kw) < 0)
                memcpy(best, img, sizeof(uint64_t) * (size_t)s->kw);
        }
        set_put(&canon, best);
    }
    uint64_t n = canon.n;
    set_free(&canon);
    return n;
}

/* Triple: the plies come from the game model's pb_routes_foreach (its
 * own search); the bookkeeping is this file's. */
typedef struct ply_ctx {
    walker *w;
    int depth;
} ply_ctx;

static int ref_ply(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f;
    ply_ctx *x = c;
    walker *w = x->w;
    ref_enum_row *row = &w->rows[x->depth + 1];
    row->sequences++;
    if (x->depth + 1 > w->reached) w->reached = x->depth + 1;
    if (r->end == PB_END_NONE) {
        arrive(w, after, x->depth + 1);
        return 0;
    }
    int k;
    row->finished++;
    if (r->end == PB_END_GOAL) k = r->mover == PB_TOP ? (r->loser == PB_TOP ? 2 : 0) : (r->loser == PB_BOTTOM ? 3 : 1);
    else if (r->end == PB_END_DEAD_END) k = r->loser == PB_NOBODY ? 6 : r->loser == PB_TOP ? 4 : 5;
    else k = 7;
    row->outcome[k]++;
    return 0;
}

static void triple_turn(walker *w, pb_position *p, int depth) {
    ply_ctx x = {w, depth};
    pb_routes_foreach(w->f, p, ref_ply, &x);
}

int ref_enum(const pb_field *f, const pb_position *root, int max_depth, ref_enum_row *rows, int rowcap,
             uint64_t *distinct_all) {
    assert(max_depth >= 0 && max_depth < rowcap);
    walker w = {f, max_depth, 0, calloc((size_t)rowcap, sizeof(ref_set)), {0}, rows};
    memset(rows, 0, sizeof(ref_enum_row) * (size_t)rowcap);
    for (int d = 0; d < rowcap; d++) set_init(&w.sets[d], f->nwords + 1);
    set_init(&w.all, f->nwords + 1);
    rows[0].sequences = 1;
    pb_position p = *root;
    arrive(&w, &p, 0);
    for (int d = 0; d <= w.reached; d++) {
        rows[d].positions = w.sets[d].n;
        rows[d].classes_lr = classes(f, &w.sets[d], 0);
        rows[d].classes_full = classes(f, &w.sets[d], 1);
    }
    *distinct_all = w.all.n;
    for (int d = 0; d < rowcap; d++) set_free(&w.sets[d]);
    set_free(&w.all);
    free(w.sets);
    return w.reached + 1;
}
