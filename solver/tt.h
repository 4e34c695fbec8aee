/* tt.h - the solver's transposition table: whole positions with proven
 * bounds on their value, shared by the search threads.
 *
 * Each slot stores the position itself, never a digest of it, so a probe
 * can only answer for exactly the position asked about:
 *
 *   slot = kw = nwords + 1 words
 *     words 0 .. nwords-1   the drawn-segment bitset (as pb_position.seg)
 *     word  nwords (meta)   bits  0..15  ball (lattice index)
 *                           bit   16     player to move
 *                           bit   17     slot in use
 *                           bits 18..19  lower bound + 1   (value -1, 0, 1)
 *                           bits 20..21  upper bound + 1
 *                           bits 22..25  best step direction (8 = none)
 *                           bits 32..63  work: search nodes below the entry
 *                                        when it was stored (saturating)
 *
 * The Zobrist hash only picks the bucket (PB_TT_WAYS slots); a hit needs the
 * segment words, ball and player to move to be equal.  Every bucket has its
 * own spin lock (an atomic_flag): a slot is read and written only under its
 * bucket's lock, so no thread ever sees half of another thread's write.
 * When a bucket is full the slot with the least work is replaced.  Bounds
 * stored for the same position are merged (the larger lower bound, the
 * smaller upper bound): both are proven, so the merge is proven too.
 */
#ifndef PB_TT_H
#define PB_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"

#define PB_TT_WAYS 4

typedef struct pb_tt_stats {
    uint64_t probes, hits, stores, replaced;
    uint64_t inserted;   /* stores into empty slots: the slots in use */
} pb_tt_stats;

typedef struct pb_tt {
    int nwords, kw;          /* segment words, words per slot */
    size_t nbuckets;         /* a power of two */
    size_t bytes;            /* memory held */
    uint64_t *slots;         /* nbuckets * PB_TT_WAYS * kw words (mmap'd) */
    size_t slot_bytes;       /* the mapping's length */
    atomic_flag *locks;      /* one per bucket */
} pb_tt;

/* A table of at most max_bytes (at least one bucket) for field f.
 * Returns 0, or -1 if the memory cannot be had. */
int pb_tt_init(pb_tt *t, const pb_field *f, size_t max_bytes);
void pb_tt_free(pb_tt *t);
/* Forgets every entry. */
void pb_tt_clear(pb_tt *t);

/* Looks p up.  On a hit returns 1 with the proven bounds *lo <= value <= *hi
 * and the stored best direction (*best, 8 = none); 0 on a miss. */
int pb_tt_probe(pb_tt *t, const pb_position *p, int *lo, int *hi, int *best, pb_tt_stats *st);
/* Records proven bounds lo <= value(p) <= hi (merged with what is there). */
void pb_tt_store(pb_tt *t, const pb_position *p, int lo, int hi, int best, uint64_t work, pb_tt_stats *st);
/* Slots in use (a scan; for statistics). */
size_t pb_tt_used(const pb_tt *t);  /* a scan of the whole table */
size_t pb_tt_slots(const pb_tt *t);
/* The fraction of slots in use, estimated from at most `sample` slots
 * spread over the table (cheap enough for progress lines). */
double pb_tt_fill(const pb_tt *t, size_t sample);

#endif
