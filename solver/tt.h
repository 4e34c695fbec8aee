/* tt.h - the solver's transposition table: proven bounds on the values of
 * positions, keyed by the whole position, shared by the search threads.
 *
 * Layout.  The table is an array of 64-byte buckets (one cache line each)
 * and, beside it, an array of whole keys, one per way:
 *
 *   bucket b (64 B, aligned)          keys[(b * PB_TT_WAYS + w) * kw ...]
 *   +--------+--------+-----+-------+   +---------------------+----------+
 *   | lock   | meta 0 | ... | meta6 |   | drawn segments      | ball,    |
 *   +--------+--------+-----+-------+   | (nwords words)      | to move  |
 *                                       +---------------------+----------+
 *   meta w: bits  0..31  tag: the low 32 bits of the key's hash
 *           bit   32     way in use
 *           bits 33..34  lower bound + 1   (value -1, 0, 1)
 *           bits 35..36  upper bound + 1
 *           bits 37..40  best step direction (8 = none)
 *           bits 41..48  work: bit length of the search nodes below the
 *                        entry when it was stored (0 .. 64)
 *
 * A probe reads one cache line (the bucket); only a tag match reads the
 * way's whole key, and a hit needs the whole key equal: drawn segments,
 * ball and player to move.  So a probe answers only for exactly the key
 * asked about; a hash or tag collision costs a cache line, never a value.
 *
 * Threads: when the table is shared (pb_tt_init with shared = 1) a bucket
 * and its ways' keys are read and written only under the bucket's spin lock
 * (the bucket's first word, in the same cache line as the metas), so no
 * thread sees half of another's write.  With one thread there is no
 * locking at all.
 *
 * Replacement: an empty way if there is one; else the way with the least
 * work among ways 0..PB_TT_WAYS-2, if the new entry has at least as much
 * work; else the last way, which always takes what does not displace a
 * more valuable entry.  Bounds stored for the same key are merged (the
 * larger lower bound, the smaller upper bound): both are proven, so the
 * merge is proven too.  Replacement loses information, never truth.
 *
 * Growth (one thread): the whole budget is mapped at once (zero pages cost
 * nothing until written), but the search starts on the first
 * PB_TT_START bytes and doubles the buckets in use, up to the budget,
 * when 7/8 of their ways are taken, so a search that stores little
 * touches little memory and a larger budget costs nothing until a smaller
 * table would be full.  Each entry moves to the bucket of its hash under
 * the new count, the hash recomputed from the stored key (pb_key_hash) and
 * checked against the tag; an entry that fails the check, or finds its
 * new bucket full of more valuable entries, is dropped: lost work, never
 * truth.  Beyond PB_TT_FREE bytes (64 MiB, the default budget) a full
 * table doubles only once the search has stored PB_TT_REUSE entries per
 * way since the last growth: a larger table costs every probe more (its
 * lines and pages miss more often), so a search short enough not to
 * rewrite it many times over is faster on the smaller one (book (2;4;6)
 * by alpha-beta took 1.5 times as long with a 2 GiB budget as with 64 MiB,
 * the same nodes; docs/solver.md).  Like any growth this changes node
 * counts, never a value.  A shared table is used whole from the start
 * (growing would stop every thread).
 *
 * Keys: the table does not know what a key means; the search chooses one
 * orientation of a position among its mirror images (search.c), and the
 * table compares whole keys in that orientation.
 */
#ifndef PB_TT_H
#define PB_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"

#define PB_TT_WAYS 7
#define PB_TT_FREE ((size_t)64 << 20)
#define PB_TT_REUSE 16

typedef struct pb_tt_stats {
    uint64_t probes, hits, stores, replaced;
    uint64_t inserted; /* stores into empty ways: the ways in use */
} pb_tt_stats;

/* A key: the segment words (nwords of them), a word with the ball and the
 * player to move, and the hash that places it. */
typedef struct pb_tt_key {
    uint64_t hash;
    const uint64_t *seg;
    uint64_t bt; /* ball | to_move << 16 */
} pb_tt_key;

typedef struct pb_tt_bucket {
    _Alignas(64) atomic_uint_fast64_t lock;
    uint64_t meta[PB_TT_WAYS];
} pb_tt_bucket;

typedef struct pb_tt {
    int nwords, kw;             /* segment words, words per key */
    int shared;                 /* lock the buckets (more than one thread) */
    size_t nbuckets;            /* in use: any number >= 1 (placed by a multiply-shift) */
    size_t cap;                 /* buckets mapped: nbuckets grows up to it (one thread) */
    size_t used;                /* ways in use (counted with one thread only) */
    size_t grown, lost;         /* growths; entries whose key did not give their tag */
    size_t free_buckets;        /* below this count a full table doubles at once */
    uint64_t reuse;             /* beyond it, once stored into this many times per way */
    uint64_t stores, stores0;   /* stores (one thread only): in all, at the last growth */
    const pb_field *f;          /* to place entries again when growing */
    size_t bytes;               /* memory held */
    pb_tt_bucket *buckets;      /* mmap'd */
    uint64_t *keys;             /* nbuckets * PB_TT_WAYS * kw words (mmap'd) */
    size_t bucket_map, key_map; /* the mappings' lengths */
} pb_tt;

/* A table of at most max_bytes (at least one bucket) for field f; shared:
 * the table is used by more than one thread at once.  Returns 0, or -1 if
 * the memory cannot be had. */
int pb_tt_init(pb_tt *t, const pb_field *f, size_t max_bytes, int shared);
void pb_tt_free(pb_tt *t);
/* Forgets every entry. */
void pb_tt_clear(pb_tt *t);

/* The identity key of p (no mirror image taken). */
static inline pb_tt_key pb_tt_key_of(const pb_position *p) {
    pb_tt_key k = {p->hash, p->seg, (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16};
    return k;
}

static inline size_t pb_tt_bucket_of(const pb_tt *t, uint64_t hash) {
    uint64_t h = (hash ^ (hash >> 29)) * 0x9e3779b97f4a7c15ULL;
    return (size_t)(((unsigned __int128)h * t->nbuckets) >> 64);
}
/* Starts loading the bucket of a key with this hash (a hint, no effect on
 * any answer). */
static inline void pb_tt_prefetch(const pb_tt *t, uint64_t hash) {
    __builtin_prefetch(&t->buckets[pb_tt_bucket_of(t, hash)]);
}

/* Looks k up.  On a hit returns 1 with the proven bounds *lo <= value <= *hi
 * and the stored best direction (*best, 8 = none); 0 on a miss. */
int pb_tt_probe(pb_tt *t, const pb_tt_key *k, int *lo, int *hi, int *best, pb_tt_stats *st);
/* Records proven bounds lo <= value(k) <= hi (merged with what is there). */
void pb_tt_store(pb_tt *t, const pb_tt_key *k, int lo, int hi, int best, uint64_t work, pb_tt_stats *st);
size_t pb_tt_used(const pb_tt *t);         /* ways in use: a scan of the whole table */
size_t pb_tt_slots(const pb_tt *t);        /* ways in all */
size_t pb_tt_bytes_in_use(const pb_tt *t); /* the memory of the buckets in use (nbuckets) */
/* The fraction of ways in use, estimated from at most `sample` buckets
 * spread over the table (cheap enough for progress lines). */
double pb_tt_fill(const pb_tt *t, size_t sample);

#endif
