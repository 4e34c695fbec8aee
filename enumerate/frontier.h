/* frontier.h - one depth's frontier for the enumeration: a set of whole
 * positions, each carrying an exact count (its multiplicity), sharded so
 * that OpenMP threads can insert concurrently.
 *
 * A position is stored whole as its packed key (solver/posset.h):
 *
 *   key, kw = nwords + 1 words:  seg[0] .. seg[nwords-1] | ball | to_move << 16
 *
 * so membership never rests on a hash.  The hash (pb_frontier_hash, a mix of
 * the key words) picks the shard from its top bits and the first slot from
 * its low bits; shards are open-addressing tables with linear probing.  A
 * slot is kw + 1 consecutive words, the count word then the key, so that a
 * lookup touches one cache line, not two:
 *
 *   slot i:  [ count word | key[0] .. key[kw-1] ]
 *
 * Counts are compact.  A used slot's count word is
 *
 *   bit 63      spill: the count is the big integer spill[value] of the shard
 *   bits 55-62  tag: 8 bits of the key's hash, so that a probe rarely has to
 *               compare a whole key that is not the one looked for
 *   bits 0-54   value: the count itself (1 .. small_max), or the spill index
 *
 * and an empty slot's word is 0 (a stored count is always >= 1).  small_max
 * is at most 2^55 - 1; tests lower it to exercise the spill path.
 *
 * Memory: every allocation of a table or a spill is charged to a shared
 * pb_fmem before it is made; an insertion that would exceed the budget is
 * refused (returns -1) and the budget is marked exceeded.
 */
#ifndef PB_FRONTIER_H
#define PB_FRONTIER_H

#include <gmp.h>
#include <limits.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdint.h>

#include "posset.h"

/* 64 shards: few enough that a thread's buffers for all of them (see
 * enumerate.c) and the shard heads stay in its cache, many enough that two
 * threads rarely want the same shard at once.  (1024 shards took 17% more
 * CPU on one thread on (2;4;4) depth 6: the per-shard buffers spanned
 * 640 KiB and each buffered successor was a cache miss of its own.) */
#define PB_FRONTIER_SHARD_BITS 6
#define PB_FRONTIER_SHARDS (1 << PB_FRONTIER_SHARD_BITS)
#define PB_FRONTIER_SPILL (1ULL << 63)
#define PB_FRONTIER_TAG_SHIFT 55
#define PB_FRONTIER_VALUE ((1ULL << PB_FRONTIER_TAG_SHIFT) - 1)

/* Memory shared by the frontiers of one enumeration. */
typedef struct pb_fmem {
    atomic_llong used;   /* bytes charged now */
    atomic_llong peak;   /* the most ever charged */
    long long budget;    /* 0: no budget */
    atomic_int exceeded; /* an allocation was refused */
} pb_fmem;

typedef struct pb_fshard {
    _Alignas(64) omp_lock_t lock;
    size_t size, cap; /* entries, slots (a power of two, or 0) */
    uint64_t *slots;  /* cap * (kw + 1) words */
    size_t mapped;    /* bytes mapped for slots (0: from malloc) */
    mpz_t *spill;     /* big counts */
    size_t nspill, capspill;
} pb_fshard;

typedef struct pb_frontier {
    int kw;
    uint64_t small_max;
    pb_fmem *mem;
    pb_fshard shard[PB_FRONTIER_SHARDS];
} pb_frontier;

/* A count as read from a slot: big == NULL means the value is small. */
typedef struct pb_fcount {
    uint64_t small;
    mpz_srcptr big;
} pb_fcount;

/* A new empty frontier for keys of kw words; NULL if out of memory. */
pb_frontier *pb_frontier_new(int kw, uint64_t small_max, pb_fmem *mem);
void pb_frontier_free(pb_frontier *fr);

uint64_t pb_frontier_hash(const uint64_t *key, int kw);

/* Adds the count c to key's entry, creating it.  Thread-safe (locks the
 * shard).  Returns 1 if the key was new, 0 if it was there, -1 if the
 * memory budget refused the growth (nothing added). */
int pb_frontier_add(pb_frontier *fr, const uint64_t *key, uint64_t h, pb_fcount c);

/* What pb_frontier_add_shard answers when it does not wait for a lock
 * another thread holds. */
#define PB_FRONTIER_BUSY 2

/* Adds n entries of kw + 2 words each (key, hash, count >= 1, small),
 * all of one shard (the same top bits of the hash), under one taking of
 * its lock, each slot prefetched some entries ahead of its addition.  wait = 0: PB_FRONTIER_BUSY if
 * another thread holds the lock (nothing done).  Returns 0, or -1 if the
 * memory budget refused a growth (the entries before it are added). */
int pb_frontier_add_shard(pb_frontier *fr, const uint64_t *entries, size_t n, int wait);

/* Is key in the set?  Not to be called while others insert. */
int pb_frontier_contains(const pb_frontier *fr, const uint64_t *key, uint64_t h);

/* The number of entries (sums the shards: call between passes). */
uint64_t pb_frontier_size(const pb_frontier *fr);

/* Slot access for iteration: slot i of a shard is used iff its count
 * word is not 0. */
static inline const uint64_t *pb_frontier_slot(const pb_frontier *fr, const pb_fshard *sh, size_t i) {
    return sh->slots + i * (size_t)(fr->kw + 1);
}
static inline int pb_frontier_used(const pb_frontier *fr, const pb_fshard *sh, size_t i) {
    return pb_frontier_slot(fr, sh, i)[0] != 0;
}
static inline const uint64_t *pb_frontier_key(const pb_frontier *fr, const pb_fshard *sh, size_t i) {
    return pb_frontier_slot(fr, sh, i) + 1;
}
static inline pb_fcount pb_frontier_count(const pb_frontier *fr, const pb_fshard *sh, size_t i) {
    uint64_t c = pb_frontier_slot(fr, sh, i)[0];
    pb_fcount r = {c & PB_FRONTIER_VALUE, NULL};
    if (c & PB_FRONTIER_SPILL) r.big = sh->spill[c & PB_FRONTIER_VALUE], r.small = 0;
    return r;
}

/* acc += c */
static inline void pb_fcount_add_to(mpz_t acc, pb_fcount c) {
    if (c.big) mpz_add(acc, acc, c.big);
    else if (c.small <= ULONG_MAX) mpz_add_ui(acc, acc, (unsigned long)c.small);
    else {
        mpz_t t;
        mpz_init(t);
        mpz_import(t, 1, -1, sizeof c.small, 0, 0, &c.small);
        mpz_add(acc, acc, t);
        mpz_clear(t);
    }
}

/* ---- the wire format: entries as 64-bit words, for another process ----
 *
 * An entry is its key (kw words) followed by its count.  A count is one
 * word below 2^63 when small; a big one is the word 2^63 | n followed by
 * its n 64-bit limbs, least significant first:
 *
 *   entry:  key[0] .. key[kw-1] | count          count:  v            (v < 2^63)
 *                                                        2^63|n l0 .. l(n-1)
 *
 * The same count encoding carries any non-negative GMP integer (0 is the
 * word 0). */

/* A growable vector of words (aborts when memory runs out: the wire
 * buffers are bounded by the caller, not by the frontier budget). */
typedef struct pb_fwords {
    uint64_t *w;
    size_t n, cap;
} pb_fwords;

void pb_fwords_push(pb_fwords *v, uint64_t x);
void pb_fwords_free(pb_fwords *v);

/* Appends the count c; reads one count at *p (advancing it), a big one
 * into t (the result's big then points to t). */
void pb_frontier_put_count(pb_fwords *v, pb_fcount c);
pb_fcount pb_frontier_get_count(const uint64_t **p, mpz_t t);

/* Which part an entry goes to. */
typedef int (*pb_frontier_owner)(void *ctx, const uint64_t *key);

/* Where pb_frontier_split goes on from: start at {0, 0}. */
typedef struct pb_fcursor {
    int shard;
    size_t slot;
} pb_fcursor;

/* One round of splitting in among parts: from *at on, every entry owned by
 * self is added to out (on a refusal by the budget *failed is set and no
 * more are added), every other one is appended to parts[owner] in the wire
 * format, until about max_words words were appended.  Returns 1 if entries
 * remain for another round. */
int pb_frontier_split(const pb_frontier *in, pb_fcursor *at, int self, pb_frontier_owner owner, void *ctx,
                      pb_frontier *out, pb_fwords *parts, size_t max_words, int *failed);

/* Adds the entries of a block in the wire format, p .. end, to fr (t is
 * scratch).  Returns -1 if the memory budget refused one (the rest are
 * still read, none added). */
int pb_frontier_take(pb_frontier *fr, const uint64_t *p, const uint64_t *end, mpz_t t);

#endif
