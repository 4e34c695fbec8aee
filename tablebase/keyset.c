/* keyset.c - a set of tablebase keys (tablebase.h): open addressing with
 * the keys held in the slots, then sorted in place.
 *
 * The forward pass collects a layer's successor classes in it: most
 * successors are found again and again (a position has many parents), and
 * a probe here costs less than keeping each repeat and sorting it away.
 * Keys are compared whole; the hash only picks the slot.  A slot is empty
 * when its first word is all ones, which no key has: the first word starts
 * with the ball's lattice index, which is below PB_MAX_LATTICE. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tablebase.h"

#define EMPTY UINT64_MAX

void pb_tb_keyset_init(pb_tb_keyset *s, int kw) {
    s->kw = kw;
    s->slot = NULL, s->n = s->nslots = 0, s->npend = s->first = 0;
}

void pb_tb_keyset_free(pb_tb_keyset *s) {
    free(s->slot);
    s->slot = NULL, s->n = s->nslots = 0, s->npend = s->first = 0;
}

static inline uint64_t keyset_hash(const uint64_t *key, int kw) {
    uint64_t h = 0;
    for (int i = 0; i < kw; i++) {
        h = (h ^ key[i]) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    return h;
}

/* The slot holding key (whose hash is h), or the empty slot where it goes. */
static inline size_t keyset_find(const pb_tb_keyset *s, uint64_t h, const uint64_t *key) {
    const size_t mask = s->nslots - 1, kw = (size_t)s->kw;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const uint64_t *k = s->slot + i * kw;
        if (k[0] == EMPTY || pb_tb_cmp(k, key, s->kw) == 0) return i;
    }
}

static void keyset_insert(pb_tb_keyset *s, uint64_t h, const uint64_t *key) {
    uint64_t *k = s->slot + keyset_find(s, h, key) * (size_t)s->kw;
    if (k[0] != EMPTY) return;
    memcpy(k, key, (size_t)s->kw * sizeof(uint64_t));
    s->n++;
}

size_t pb_tb_keyset_grown_bytes(const pb_tb_keyset *s) {
    return (s->nslots ? 2 * s->nslots : 64) * (size_t)s->kw * sizeof(uint64_t);
}

/* Room for `bytes` of slots.  A large set is asked for in huge pages where
 * the system has them: its look-ups land on random pages, and with small
 * pages nearly each one also misses the address translation cache. */
static uint64_t *slots_alloc(size_t bytes) {
    enum { HUGE = 2 << 20 };
    if (bytes < HUGE) return malloc(bytes);
    void *p;
    if (posix_memalign(&p, HUGE, bytes)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it the set works the same */
#endif
    return p;
}

int pb_tb_keyset_grow(pb_tb_keyset *s) {
    const size_t kw = (size_t)s->kw, old = s->nslots, nslots = old ? 2 * old : 64;
    uint64_t *slot = slots_alloc(nslots * kw * sizeof(uint64_t)), *from = s->slot;
    if (!slot) return -1;
    memset(slot, 0xff, nslots * kw * sizeof(uint64_t));
    s->slot = slot, s->nslots = nslots;
    for (size_t i = 0; i < old; i++) {
        const uint64_t *k = from + i * kw;
        if (k[0] != EMPTY) memcpy(s->slot + keyset_find(s, keyset_hash(k, s->kw), k) * kw, k, kw * sizeof(uint64_t));
    }
    free(from);
    return 0;
}

/* The queue is a ring of PB_TB_KEYSET_QUEUE keys; a key is put in the
 * table when the ring is full and it is the oldest, by which time its slot
 * has had the look-ups of the keys after it to arrive.  Only the order of
 * insertion changes, and a set does not depend on it. */
void pb_tb_keyset_add(pb_tb_keyset *s, const uint64_t *key) {
    const size_t kw = (size_t)s->kw;
    if (s->npend == PB_TB_KEYSET_QUEUE) {
        keyset_insert(s, s->pend_hash[s->first], s->pend + (size_t)s->first * kw);
        s->first = (s->first + 1) % PB_TB_KEYSET_QUEUE;
        s->npend--;
    }
    const uint64_t h = keyset_hash(key, s->kw);
    const int at = (s->first + s->npend) % PB_TB_KEYSET_QUEUE;
    if (s->nslots) __builtin_prefetch(s->slot + (h & (s->nslots - 1)) * kw);
    s->pend_hash[at] = h;
    memcpy(s->pend + (size_t)at * kw, key, kw * sizeof(uint64_t));
    s->npend++;
}

void pb_tb_keyset_flush(pb_tb_keyset *s) {
    for (; s->npend; s->npend--, s->first = (s->first + 1) % PB_TB_KEYSET_QUEUE)
        keyset_insert(s, s->pend_hash[s->first], s->pend + (size_t)s->first * (size_t)s->kw);
}

int pb_tb_keyset_put(pb_tb_keyset *s, const uint64_t *key) {
    if (pb_tb_keyset_full(s) && pb_tb_keyset_grow(s)) return -1;
    pb_tb_keyset_add(s, key);
    return 0;
}

uint64_t *pb_tb_keyset_take_sorted(pb_tb_keyset *s, size_t *n) {
    const size_t kw = (size_t)s->kw;
    size_t m = 0;
    pb_tb_keyset_flush(s);
    for (size_t i = 0; i < s->nslots; i++) {
        const uint64_t *k = s->slot + i * kw;
        if (k[0] == EMPTY) continue;
        if (m != i) memcpy(s->slot + m * kw, k, kw * sizeof(uint64_t));
        m++;
    }
    uint64_t *keys = s->slot;
    /* Shrinking keeps the block where it is or copies it; either way the
     * keys stay. */
    if (m) {
        uint64_t *t = realloc(keys, m * kw * sizeof(uint64_t));
        if (t) keys = t;
    }
    pb_tb_sort_unique(keys, m, s->kw);
    s->slot = NULL;
    pb_tb_keyset_free(s);
    *n = m;
    return keys;
}
