/* tt.c - the transposition table (layout and exactness argument in tt.h). */
#include "tt.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define META_USED (1ULL << 17)

int pb_tt_init(pb_tt *t, const pb_field *f, size_t max_bytes) {
    memset(t, 0, sizeof *t);
    t->nwords = f->nwords;
    t->kw = f->nwords + 1;
    size_t bucket_bytes = (size_t)PB_TT_WAYS * (size_t)t->kw * sizeof(uint64_t) + sizeof(atomic_flag);
    size_t n = 1;
    while (2 * n * bucket_bytes <= max_bytes) n *= 2;
    t->nbuckets = n;
    /* Slots on 2 MiB-aligned anonymous memory with transparent huge pages
     * where the kernel offers them: a sparse table then costs one page
     * fault per 2 MiB rather than per 4 KiB (it dominated small solves). */
    size_t slot_bytes = n * PB_TT_WAYS * (size_t)t->kw * sizeof(uint64_t);
    t->slot_bytes = (slot_bytes + ((size_t)2 << 20) - 1) & ~(((size_t)2 << 20) - 1);
    void *mem = mmap(NULL, t->slot_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        t->slot_bytes = 0;
        return -1;
    }
#ifdef MADV_HUGEPAGE
    madvise(mem, t->slot_bytes, MADV_HUGEPAGE);
#endif
    t->slots = mem;
    /* calloc'd locks: an all-zero atomic_flag is clear with GCC and Clang;
     * checked here rather than assumed. */
    t->locks = calloc(n, sizeof(atomic_flag));
    if (!t->slots || !t->locks) {
        pb_tt_free(t);
        return -1;
    }
    if (atomic_flag_test_and_set(&t->locks[0])) {
        pb_tt_free(t);
        return -1;
    }
    atomic_flag_clear(&t->locks[0]);
    t->bytes = n * bucket_bytes;
    return 0;
}

void pb_tt_free(pb_tt *t) {
    if (t->slots) munmap(t->slots, t->slot_bytes);
    free(t->locks);
    memset(t, 0, sizeof *t);
}

void pb_tt_clear(pb_tt *t) {
    memset(t->slots, 0, t->nbuckets * PB_TT_WAYS * (size_t)t->kw * sizeof(uint64_t));
}

static inline void lock(atomic_flag *l) {
    while (atomic_flag_test_and_set_explicit(l, memory_order_acquire)) {
    }
}
static inline void unlock(atomic_flag *l) { atomic_flag_clear_explicit(l, memory_order_release); }

static inline size_t bucket_of(const pb_tt *t, uint64_t h) {
    h ^= h >> 31;
    h *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 20) & (t->nbuckets - 1);
}

static inline uint64_t key_meta(const pb_position *p) {
    return (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16 | META_USED;
}
#define KEY_MASK 0x3ffffULL

/* The slot of p in bucket b, or NULL. */
static inline uint64_t *find(pb_tt *t, size_t b, const pb_position *p, uint64_t km) {
    uint64_t *s = t->slots + b * PB_TT_WAYS * (size_t)t->kw;
    for (int w = 0; w < PB_TT_WAYS; w++, s += t->kw) {
        if ((s[t->nwords] & KEY_MASK) != km) continue;
        int k;
        for (k = 0; k < t->nwords; k++)
            if (s[k] != p->seg[k]) break;
        if (k == t->nwords) return s;
    }
    return NULL;
}

int pb_tt_probe(pb_tt *t, const pb_position *p, int *lo, int *hi, int *best, pb_tt_stats *st) {
    size_t b = bucket_of(t, p->hash);
    uint64_t km = key_meta(p);
    st->probes++;
    lock(&t->locks[b]);
    uint64_t *s = find(t, b, p, km);
    uint64_t meta = s ? s[t->nwords] : 0;
    unlock(&t->locks[b]);
    if (!s) return 0;
    st->hits++;
    *lo = (int)((meta >> 18) & 3) - 1;
    *hi = (int)((meta >> 20) & 3) - 1;
    *best = (int)((meta >> 22) & 15);
    return 1;
}

void pb_tt_store(pb_tt *t, const pb_position *p, int lo, int hi, int best, uint64_t work, pb_tt_stats *st) {
    assert(-1 <= lo && lo <= hi && hi <= 1);
    size_t b = bucket_of(t, p->hash);
    uint64_t km = key_meta(p);
    if (work > 0xffffffffULL) work = 0xffffffffULL;
    st->stores++;
    lock(&t->locks[b]);
    uint64_t *s = find(t, b, p, km);
    if (s) {
        uint64_t meta = s[t->nwords];
        int olo = (int)((meta >> 18) & 3) - 1, ohi = (int)((meta >> 20) & 3) - 1;
        uint64_t owork = meta >> 32;
        if (olo > lo) lo = olo;
        if (ohi < hi) hi = ohi;
        /* Two proven bounds can never cross; if they did the search would be
         * wrong, and an exact tool must not carry on. */
        assert(lo <= hi);
        if (best == 8) best = (int)((meta >> 22) & 15);
        if (owork > work) work = owork;
    } else {
        uint64_t *c = t->slots + b * PB_TT_WAYS * (size_t)t->kw;
        s = c;
        for (int w = 0; w < PB_TT_WAYS; w++, c += t->kw) {
            if (!(c[t->nwords] & META_USED)) {
                s = c;
                break;
            }
            if ((c[t->nwords] >> 32) < (s[t->nwords] >> 32)) s = c;
        }
        if (s[t->nwords] & META_USED) st->replaced++;
        else st->inserted++;
        memcpy(s, p->seg, sizeof(uint64_t) * (size_t)t->nwords);
    }
    s[t->nwords] = km | (uint64_t)(lo + 1) << 18 | (uint64_t)(hi + 1) << 20 | (uint64_t)best << 22 | work << 32;
    unlock(&t->locks[b]);
}

size_t pb_tt_slots(const pb_tt *t) { return t->nbuckets * PB_TT_WAYS; }

size_t pb_tt_used(const pb_tt *t) {
    size_t n = 0, total = pb_tt_slots(t);
    for (size_t i = 0; i < total; i++) n += (t->slots[i * (size_t)t->kw + (size_t)t->nwords] & META_USED) != 0;
    return n;
}

double pb_tt_fill(const pb_tt *t, size_t sample) {
    size_t total = pb_tt_slots(t), step = total > sample ? total / sample : 1, n = 0, seen = 0;
    for (size_t i = 0; i < total; i += step, seen++)
        n += (t->slots[i * (size_t)t->kw + (size_t)t->nwords] & META_USED) != 0;
    return seen ? (double)n / (double)seen : 0.0;
}
