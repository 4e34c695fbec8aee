/* tt.c - the transposition table (layout and exactness argument in tt.h). */
#include "tt.h"

#include <assert.h>
#include <string.h>

#include "process.h"

#define META_USED (1ULL << 32)
#define TAG_MASK 0xffffffffULL
#define PB_TT_START ((size_t)4 << 20)

int pb_tt_init(pb_tt *t, const pb_field *f, size_t max_bytes, int shared) {
    memset(t, 0, sizeof *t);
    t->nwords = f->nwords;
    t->kw = f->nwords + 1;
    t->shared = shared;
    size_t per_bucket = sizeof(pb_tt_bucket) + (size_t)PB_TT_WAYS * (size_t)t->kw * sizeof(uint64_t);
    t->f = f;
    t->cap = max_bytes / per_bucket;
    if (t->cap < 1) t->cap = 1;
    t->nbuckets = shared || PB_TT_START / per_bucket >= t->cap ? t->cap : PB_TT_START / per_bucket;
    if (t->nbuckets < 1) t->nbuckets = 1;
    t->free_buckets = PB_TT_FREE / per_bucket > t->nbuckets ? PB_TT_FREE / per_bucket : t->nbuckets;
    t->reuse = PB_TT_REUSE;
    t->bucket_map = t->cap * sizeof(pb_tt_bucket);
    t->key_map = t->cap * PB_TT_WAYS * (size_t)t->kw * sizeof(uint64_t);
    t->buckets = pb_table_map(&t->bucket_map);
    t->keys = pb_table_map(&t->key_map);
    if (!t->buckets || !t->keys) {
        pb_tt_free(t);
        return -1;
    }
    /* Zero pages: every way unused, every lock open (checked, not assumed). */
    if (atomic_load(&t->buckets[0].lock) != 0) {
        pb_tt_free(t);
        return -1;
    }
    t->bytes = t->cap * per_bucket;
    return 0;
}

void pb_tt_free(pb_tt *t) {
    pb_table_unmap(t->buckets, t->bucket_map);
    pb_table_unmap(t->keys, t->key_map);
    memset(t, 0, sizeof *t);
}

void pb_tt_clear(pb_tt *t) {
    memset(t->buckets, 0, t->nbuckets * sizeof(pb_tt_bucket));
    t->used = 0;
    t->stores0 = t->stores;
}

static inline void lock(pb_tt *t, pb_tt_bucket *b) {
    if (!t->shared) return;
    while (atomic_exchange_explicit(&b->lock, 1, memory_order_acquire)) {
        while (atomic_load_explicit(&b->lock, memory_order_relaxed)) {}
    }
}
static inline void unlock(pb_tt *t, pb_tt_bucket *b) {
    if (t->shared) atomic_store_explicit(&b->lock, 0, memory_order_release);
}

static inline uint64_t *key_at(const pb_tt *t, size_t b, int w) {
    return t->keys + (b * PB_TT_WAYS + (size_t)w) * (size_t)t->kw;
}

/* The way of k in bucket b (tag and whole key equal), or -1. */
static inline int find(const pb_tt *t, const pb_tt_bucket *bk, size_t b, const pb_tt_key *k) {
    uint64_t want = (k->hash & TAG_MASK) | META_USED;
    for (int w = 0; w < PB_TT_WAYS; w++) {
        if ((bk->meta[w] & (TAG_MASK | META_USED)) != want) continue;
        const uint64_t *s = key_at(t, b, w);
        if (s[t->nwords] == k->bt && !memcmp(s, k->seg, sizeof(uint64_t) * (size_t)t->nwords)) return w;
    }
    return -1;
}

int pb_tt_probe(pb_tt *t, const pb_tt_key *k, int *lo, int *hi, int *best, pb_tt_stats *st) {
    size_t b = pb_tt_bucket_of(t, k->hash);
    pb_tt_bucket *bk = &t->buckets[b];
    st->probes++;
    lock(t, bk);
    int w = find(t, bk, b, k);
    uint64_t meta = w >= 0 ? bk->meta[w] : 0;
    unlock(t, bk);
    if (w < 0) return 0;
    st->hits++;
    *lo = (int)((meta >> 33) & 3) - 1;
    *hi = (int)((meta >> 35) & 3) - 1;
    *best = (int)((meta >> 37) & 15);
    return 1;
}

static inline uint64_t work_class(uint64_t work) { return work ? 64 - (uint64_t)__builtin_clzll(work) : 0; }

/* Puts way w of the bucket copy (metas bm, keys bk) into bucket b: a free
 * way, else the least valuable one if the entry is worth more; else the
 * entry is dropped. */
static void tt_place(pb_tt *t, const uint64_t *bm, const uint64_t *bk, int w, size_t b) {
    pb_tt_bucket *to = &t->buckets[b];
    int e = -1;
    for (int v = 0; v < PB_TT_WAYS && e < 0; v++)
        if (!(to->meta[v] & META_USED)) e = v;
    if (e < 0) {
        e = 0;
        for (int v = 1; v < PB_TT_WAYS; v++)
            if (((to->meta[v] >> 41) & 0xff) < ((to->meta[e] >> 41) & 0xff)) e = v;
        if (((to->meta[e] >> 41) & 0xff) >= ((bm[w] >> 41) & 0xff)) return;
        t->used--;
    }
    to->meta[e] = bm[w];
    memcpy(key_at(t, b, e), bk + (size_t)w * (size_t)t->kw, sizeof(uint64_t) * (size_t)t->kw);
    t->used++;
}

/* Doubles the buckets in use (at most to cap), in place: bucket i's
 * entries go to buckets >= i (the placement is monotone in the bucket
 * count), so from the last bucket down every target is new or emptied. */
static void tt_grow(pb_tt *t) {
    uint64_t bm[PB_TT_WAYS], bk[PB_TT_WAYS * (PB_MAX_WORDS + 1)];
    size_t old = t->nbuckets, keys = (size_t)PB_TT_WAYS * (size_t)t->kw * sizeof(uint64_t);
    t->nbuckets = old * 2 < t->cap ? old * 2 : t->cap;
    /* Up to free_buckets, not past it in one doubling. */
    if (old < t->free_buckets && t->nbuckets > t->free_buckets) t->nbuckets = t->free_buckets;
    t->used = 0;
    t->stores0 = t->stores;
    for (size_t i = old; i-- > 0;) {
        memcpy(bm, t->buckets[i].meta, sizeof bm);
        memcpy(bk, key_at(t, i, 0), keys);
        memset(t->buckets[i].meta, 0, sizeof bm);
        for (int w = 0; w < PB_TT_WAYS; w++) {
            if (!(bm[w] & META_USED)) continue;
            const uint64_t *k = bk + (size_t)w * (size_t)t->kw;
            uint64_t h = pb_key_hash(t->f, k, (int)(k[t->nwords] & 0xffff), (int)((k[t->nwords] >> 16) & 1));
            if ((h & TAG_MASK) == (bm[w] & TAG_MASK)) tt_place(t, bm, bk, w, pb_tt_bucket_of(t, h));
            else t->lost++;
        }
    }
    t->grown++;
}

void pb_tt_store(pb_tt *t, const pb_tt_key *k, int lo, int hi, int best, uint64_t work, pb_tt_stats *st) {
    assert(-1 <= lo && lo <= hi && hi <= 1);
    size_t b = pb_tt_bucket_of(t, k->hash);
    pb_tt_bucket *bk = &t->buckets[b];
    uint64_t wc = work_class(work);
    st->stores++;
    lock(t, bk);
    int w = find(t, bk, b, k);
    if (w >= 0) {
        uint64_t meta = bk->meta[w];
        int olo = (int)((meta >> 33) & 3) - 1, ohi = (int)((meta >> 35) & 3) - 1;
        uint64_t owc = (meta >> 41) & 0xff;
        if (olo > lo) lo = olo;
        if (ohi < hi) hi = ohi;
        /* Two proven bounds can never cross; if they did the search would be
         * wrong, and an exact tool must not carry on. */
        assert(lo <= hi);
        if (best == 8) best = (int)((meta >> 37) & 15);
        if (owc > wc) wc = owc;
    } else {
        int least = 0;
        for (w = 0; w < PB_TT_WAYS; w++) {
            if (!(bk->meta[w] & META_USED)) break;
            if (w < PB_TT_WAYS - 1 && ((bk->meta[w] >> 41) & 0xff) < ((bk->meta[least] >> 41) & 0xff)) least = w;
        }
        if (w == PB_TT_WAYS) {
            /* Full: the least valuable preferred way if the new entry is
             * worth as much, else the always-replace way. */
            w = ((bk->meta[least] >> 41) & 0xff) <= wc ? least : PB_TT_WAYS - 1;
            st->replaced++;
        } else st->inserted++, t->used++;
        uint64_t *s = key_at(t, b, w);
        memcpy(s, k->seg, sizeof(uint64_t) * (size_t)t->nwords);
        s[t->nwords] = k->bt;
    }
    bk->meta[w] = (k->hash & TAG_MASK) | META_USED | (uint64_t)(lo + 1) << 33 | (uint64_t)(hi + 1) << 35 |
                  (uint64_t)best << 37 | wc << 41;
    unlock(t, bk);
    if (t->shared) return;
    t->stores++;
    /* 7/8 of the ways taken; beyond free_buckets, rewritten reuse times. */
    if (t->nbuckets < t->cap && t->used * 8 > t->nbuckets * PB_TT_WAYS * 7 &&
        (t->nbuckets < t->free_buckets || t->stores - t->stores0 >= t->reuse * t->nbuckets * PB_TT_WAYS))
        tt_grow(t);
}

size_t pb_tt_slots(const pb_tt *t) { return t->cap * PB_TT_WAYS; }

size_t pb_tt_bytes_in_use(const pb_tt *t) { return t->bytes / t->cap * t->nbuckets; }

size_t pb_tt_used(const pb_tt *t) {
    size_t n = 0;
    for (size_t b = 0; b < t->nbuckets; b++)
        for (int w = 0; w < PB_TT_WAYS; w++) n += (t->buckets[b].meta[w] & META_USED) != 0;
    return n;
}

double pb_tt_fill(const pb_tt *t, size_t sample) {
    size_t step = t->nbuckets > sample ? t->nbuckets / sample : 1, n = 0, seen = 0;
    for (size_t b = 0; b < t->nbuckets; b += step, seen += PB_TT_WAYS)
        for (int w = 0; w < PB_TT_WAYS; w++) n += (t->buckets[b].meta[w] & META_USED) != 0;
    /* Of the whole budget: the buckets not yet in use are empty. */
    return seen ? (double)n / (double)seen * (double)t->nbuckets / (double)t->cap : 0.0;
}
