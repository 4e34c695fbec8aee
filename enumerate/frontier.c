/* frontier.c - the sharded position set with exact counts (frontier.h). */
#include "frontier.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "process.h"

/* Shards start small so that a tiny field costs little; they double at a
 * load of 1/2.  (At 3/4 a probe for a new key reads 8.5 slots on average,
 * at 1/2 it reads 2.5: most of the expansion's time went into those
 * cache misses.) */
#define SHARD_CAP0 16

/* Charges bytes (may be negative) to mem.  Returns -1 and marks the
 * budget exceeded if a positive charge would pass it. */
static int charge(pb_fmem *mem, long long bytes) {
    long long now = atomic_fetch_add(&mem->used, bytes) + bytes;
    if (bytes > 0 && mem->budget > 0 && now > mem->budget) {
        atomic_fetch_sub(&mem->used, bytes);
        atomic_store(&mem->exceeded, 1);
        return -1;
    }
    long long peak = atomic_load(&mem->peak);
    while (now > peak && !atomic_compare_exchange_weak(&mem->peak, &peak, now)) {}
    return 0;
}

static size_t table_bytes(int kw, size_t cap) { return cap * sizeof(uint64_t) * (size_t)(kw + 1); }

/* A table from 1 MiB on is pages mapped for it alone, given back to the
 * system when its shard grows (from malloc, the tables a growth frees
 * stayed in the process: (2;4;4) depth 6 peaked at 1.6 GiB instead of
 * 1.1 GiB with tables of up to 8 MiB from malloc).  From 2 MiB on they
 * are huge pages where the kernel offers them (pb_table_map_dense: a
 * table is at least a quarter full): each insertion probes a random slot,
 * and with 4 KiB pages that was a TLB miss too; (2;4;4) depth 6 took 14-16%
 * less CPU, side by side.  A smaller table comes from malloc, which reuses
 * it.  *mapped: the length mapped, 0 for malloc. */
#define TABLE_MAP_BYTES ((size_t)1 << 20)

static uint64_t *table_alloc(size_t bytes, size_t *mapped) {
    *mapped = 0;
    if (bytes < TABLE_MAP_BYTES) return calloc(bytes, 1);
    uint64_t *t = pb_table_map_dense(&bytes);
    if (t) *mapped = bytes;
    return t;
}

static void table_free(uint64_t *slots, size_t mapped) {
    if (mapped) pb_table_unmap(slots, mapped);
    else free(slots);
}

pb_frontier *pb_frontier_new(int kw, uint64_t small_max, pb_fmem *mem) {
    assert(kw >= 2 && small_max >= 1 && small_max <= PB_FRONTIER_VALUE);
    if (charge(mem, (long long)sizeof(pb_frontier))) return NULL;
    /* Shards on cache lines of their own, so that two threads locking
     * neighbouring shards do not share a line. */
    pb_frontier *fr = aligned_alloc(64, sizeof *fr);
    if (!fr) return NULL;
    memset(fr, 0, sizeof *fr);
    fr->kw = kw;
    fr->small_max = small_max;
    fr->mem = mem;
    for (int s = 0; s < PB_FRONTIER_SHARDS; s++) omp_init_lock(&fr->shard[s].lock);
    return fr;
}

static void shard_release(pb_frontier *fr, pb_fshard *sh) {
    for (size_t i = 0; i < sh->nspill; i++) {
        charge(fr->mem, -(long long)(sizeof(mpz_t) + mpz_size(sh->spill[i]) * sizeof(mp_limb_t)));
        mpz_clear(sh->spill[i]);
    }
    charge(fr->mem, -(long long)(table_bytes(fr->kw, sh->cap) + sh->capspill * sizeof(mpz_t)));
    free(sh->spill);
    table_free(sh->slots, sh->mapped);
}

void pb_frontier_free(pb_frontier *fr) {
    if (!fr) return;
    for (int s = 0; s < PB_FRONTIER_SHARDS; s++) {
        shard_release(fr, &fr->shard[s]);
        omp_destroy_lock(&fr->shard[s].lock);
    }
    charge(fr->mem, -(long long)sizeof(pb_frontier));
    free(fr);
}

uint64_t pb_frontier_hash(const uint64_t *key, int kw) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)kw;
    for (int w = 0; w < kw; w++) {
        h ^= key[w];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 32;
    return h;
}

static inline pb_fshard *shard_of(pb_frontier *fr, uint64_t h) {
    return &fr->shard[h >> (64 - PB_FRONTIER_SHARD_BITS)];
}

static inline uint64_t tag_of(uint64_t h) { return ((h >> 32) & 0xff) << PB_FRONTIER_TAG_SHIFT; }

static inline int same_key(const uint64_t *a, const uint64_t *b, int kw) {
    for (int w = 0; w < kw; w++)
        if (a[w] != b[w]) return 0;
    return 1;
}

/* The slot of key in sh, or the empty slot where it belongs. */
static size_t find_slot(const pb_fshard *sh, int kw, const uint64_t *key, uint64_t h) {
    size_t mask = sh->cap - 1, i = (size_t)h & mask, stride = (size_t)kw + 1;
    uint64_t tag = tag_of(h), c;
    while ((c = sh->slots[i * stride])) {
        if ((c & (0xffULL << PB_FRONTIER_TAG_SHIFT)) == tag && same_key(sh->slots + i * stride + 1, key, kw)) return i;
        i = (i + 1) & mask;
    }
    return i;
}

static int grow(pb_frontier *fr, pb_fshard *sh) {
    size_t cap = sh->cap ? sh->cap * 2 : SHARD_CAP0;
    int kw = fr->kw;
    size_t stride = (size_t)kw + 1;
    if (charge(fr->mem, (long long)table_bytes(kw, cap))) return -1;
    size_t mapped;
    uint64_t *slots = table_alloc(table_bytes(kw, cap), &mapped);
    if (!slots) {
        charge(fr->mem, -(long long)table_bytes(kw, cap));
        atomic_store(&fr->mem->exceeded, 1);
        return -1;
    }
    pb_fshard old = *sh;
    sh->slots = slots, sh->cap = cap, sh->mapped = mapped;
    for (size_t i = 0; i < old.cap; i++) {
        const uint64_t *o = old.slots + i * stride;
        if (!o[0]) continue;
        size_t j = find_slot(sh, kw, o + 1, pb_frontier_hash(o + 1, kw));
        memcpy(sh->slots + j * stride, o, sizeof(uint64_t) * stride);
    }
    table_free(old.slots, old.mapped);
    charge(fr->mem, -(long long)table_bytes(kw, old.cap));
    return 0;
}

/* A new spill slot in sh holding 0, or -1 if memory refused it. */
static long new_spill(pb_frontier *fr, pb_fshard *sh) {
    if (sh->nspill == sh->capspill) {
        size_t cap = sh->capspill ? sh->capspill * 2 : 4;
        if (charge(fr->mem, (long long)((cap - sh->capspill) * sizeof(mpz_t)))) return -1;
        mpz_t *sp = realloc(sh->spill, cap * sizeof(mpz_t));
        if (!sp) {
            atomic_store(&fr->mem->exceeded, 1);
            return -1;
        }
        sh->spill = sp, sh->capspill = cap;
    }
    mpz_init(sh->spill[sh->nspill]);
    return (long)sh->nspill++;
}

static void set_u64(mpz_t z, uint64_t v) { mpz_import(z, 1, -1, sizeof v, 0, 0, &v); }

/* Adds c to the count word *w of sh (keeping its tag); spills when the sum
 * passes small_max. */
static int add_count(pb_frontier *fr, pb_fshard *sh, uint64_t *w, pb_fcount c) {
    uint64_t sum, tag = *w & ~(PB_FRONTIER_SPILL | PB_FRONTIER_VALUE), v = *w & PB_FRONTIER_VALUE;
    if (!(*w & PB_FRONTIER_SPILL) && !c.big && !__builtin_add_overflow(v, c.small, &sum) && sum <= fr->small_max) {
        *w = tag | sum;
        return 0;
    }
    mpz_ptr z;
    size_t before = 0;
    if (*w & PB_FRONTIER_SPILL) {
        z = sh->spill[v];
        before = mpz_size(z);
    } else {
        long i = new_spill(fr, sh);
        if (i < 0) return -1;
        z = sh->spill[i];
        set_u64(z, v);
        *w = tag | PB_FRONTIER_SPILL | (uint64_t)i;
    }
    pb_fcount_add_to(z, c);
    charge(fr->mem, (long long)((mpz_size(z) - before) * sizeof(mp_limb_t)) + (before ? 0 : (long long)sizeof(mpz_t)));
    return 0;
}

/* pb_frontier_add with sh locked. */
static int add_locked(pb_frontier *fr, pb_fshard *sh, const uint64_t *key, uint64_t h, pb_fcount c) {
    size_t stride = (size_t)fr->kw + 1;
    int rc = 0;
    if (2 * (sh->size + 1) > sh->cap && grow(fr, sh)) {
        rc = -1;
        goto out;
    }
    uint64_t *slot = sh->slots + find_slot(sh, fr->kw, key, h) * stride;
    if (slot[0]) {
        rc = add_count(fr, sh, &slot[0], c) ? -1 : 0;
        goto out;
    }
    uint64_t w = tag_of(h);
    if (add_count(fr, sh, &w, c)) {
        rc = -1;
        goto out;
    }
    memcpy(slot + 1, key, sizeof(uint64_t) * (size_t)fr->kw);
    slot[0] = w;
    sh->size++;
    rc = 1;
out:
    return rc;
}

int pb_frontier_add(pb_frontier *fr, const uint64_t *key, uint64_t h, pb_fcount c) {
    assert(c.big || c.small >= 1);
    pb_fshard *sh = shard_of(fr, h);
    omp_set_lock(&sh->lock);
    int rc = add_locked(fr, sh, key, h, c);
    omp_unset_lock(&sh->lock);
    return rc;
}

int pb_frontier_add_shard(pb_frontier *fr, const uint64_t *entries, size_t n, int wait) {
    if (!n) return 0;
    const int kw = fr->kw;
    const size_t stride = (size_t)kw + 2;
    pb_fshard *sh = shard_of(fr, entries[kw]);
    if (wait) omp_set_lock(&sh->lock);
    else if (!omp_test_lock(&sh->lock)) return PB_FRONTIER_BUSY;
    /* Each entry's first slot is a cache miss in a large table: the slot
     * of entry i + AHEAD is prefetched as entry i is added, so that about
     * AHEAD misses are under way at once (a grow in between only wastes
     * the prefetches made before it). */
    enum { AHEAD = 16 };
    for (size_t i = 0; i < n && i < AHEAD && sh->cap; i++)
        __builtin_prefetch(sh->slots + ((size_t)entries[i * stride + kw] & (sh->cap - 1)) * (size_t)(kw + 1), 1);
    int rc = 0;
    for (size_t i = 0; i < n && rc >= 0; i++) {
        const uint64_t *e = entries + i * stride;
        if (i + AHEAD < n && sh->cap)
            __builtin_prefetch(sh->slots + ((size_t)e[AHEAD * stride + kw] & (sh->cap - 1)) * (size_t)(kw + 1), 1);
        assert(shard_of(fr, e[kw]) == sh && e[kw + 1] >= 1);
        rc = add_locked(fr, sh, e, e[kw], (pb_fcount){e[kw + 1], NULL});
    }
    omp_unset_lock(&sh->lock);
    return rc < 0 ? -1 : 0;
}

int pb_frontier_contains(const pb_frontier *fr, const uint64_t *key, uint64_t h) {
    const pb_fshard *sh = &fr->shard[h >> (64 - PB_FRONTIER_SHARD_BITS)];
    if (!sh->cap) return 0;
    return sh->slots[find_slot(sh, fr->kw, key, h) * ((size_t)fr->kw + 1)] != 0;
}

uint64_t pb_frontier_size(const pb_frontier *fr) {
    uint64_t n = 0;
    for (int s = 0; s < PB_FRONTIER_SHARDS; s++) n += fr->shard[s].size;
    return n;
}

/* ---- the wire format --------------------------------------------------- */

void pb_fwords_push(pb_fwords *v, uint64_t x) {
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 1024;
        v->w = realloc(v->w, v->cap * sizeof *v->w);
        if (!v->w) abort();
    }
    v->w[v->n++] = x;
}

void pb_fwords_free(pb_fwords *v) {
    free(v->w);
    memset(v, 0, sizeof *v);
}

void pb_frontier_put_count(pb_fwords *v, pb_fcount c) {
    if (!c.big) {
        assert(c.small < PB_FRONTIER_SPILL);
        pb_fwords_push(v, c.small);
        return;
    }
    assert(mpz_sgn(c.big) > 0);
    size_t n = (mpz_sizeinbase(c.big, 2) + 63) / 64;
    pb_fwords_push(v, PB_FRONTIER_SPILL | n);
    size_t at = v->n;
    for (size_t i = 0; i < n; i++) pb_fwords_push(v, 0);
    size_t got = 0;
    mpz_export(v->w + at, &got, -1, sizeof(uint64_t), 0, 0, c.big);
    assert(got == n);
}

pb_fcount pb_frontier_get_count(const uint64_t **p, mpz_t t) {
    uint64_t w = *(*p)++;
    pb_fcount c = {w, NULL};
    if (w & PB_FRONTIER_SPILL) {
        size_t k = (size_t)(w & ~PB_FRONTIER_SPILL);
        mpz_import(t, k, -1, sizeof(uint64_t), 0, 0, *p);
        *p += k;
        c.small = 0, c.big = t;
    }
    return c;
}

int pb_frontier_split(const pb_frontier *in, pb_fcursor *at, int self, pb_frontier_owner owner, void *ctx,
                      pb_frontier *out, pb_fwords *parts, size_t max_words, int *failed) {
    int kw = in->kw;
    size_t total = 0;
    while (at->shard < PB_FRONTIER_SHARDS && total < max_words) {
        const pb_fshard *sh = &in->shard[at->shard];
        if (at->slot >= sh->cap) {
            at->shard++, at->slot = 0;
            continue;
        }
        if (pb_frontier_used(in, sh, at->slot)) {
            const uint64_t *key = pb_frontier_key(in, sh, at->slot);
            pb_fcount cnt = pb_frontier_count(in, sh, at->slot);
            int o = owner(ctx, key);
            if (o == self) {
                if (!*failed && pb_frontier_add(out, key, pb_frontier_hash(key, kw), cnt) < 0) *failed = 1;
            } else {
                size_t before = parts[o].n;
                for (int w = 0; w < kw; w++) pb_fwords_push(&parts[o], key[w]);
                pb_frontier_put_count(&parts[o], cnt);
                total += parts[o].n - before;
            }
        }
        at->slot++;
    }
    return at->shard < PB_FRONTIER_SHARDS;
}

int pb_frontier_take(pb_frontier *fr, const uint64_t *p, const uint64_t *end, mpz_t t) {
    int kw = fr->kw, rc = 0;
    while (p < end) {
        const uint64_t *key = p;
        p += kw;
        pb_fcount c = pb_frontier_get_count(&p, t);
        if (!rc && pb_frontier_add(fr, key, pb_frontier_hash(key, kw), c) < 0) rc = -1;
    }
    return rc;
}
