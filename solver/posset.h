/* posset.h - a set of positions with a 64-bit count attached to each.
 *
 * Positions are stored whole (the nwords words of drawn segments, the ball
 * and the player to move), so membership never rests on a hash alone.
 *
 *   key layout, (nwords + 1) words:  seg[0] .. seg[nwords-1] | ball | to_move << 16
 */
#ifndef PB_POSSET_H
#define PB_POSSET_H

#include "position.h"

typedef struct pb_posset {
    int kw;           /* words per key: nwords + 1 */
    size_t size, cap; /* entries used, slots (a power of two) */
    uint64_t *keys;   /* cap * kw words */
    uint64_t *hashes; /* 0 = empty slot (stored hashes are forced nonzero) */
    uint64_t *counts;
    int failed;    /* memory ran out: a position was left out (see below) */
    uint64_t sink; /* the count word given for a position left out */
} pb_posset;

/* When memory runs out (at init or growth), failed is set and stays set:
 * the set keeps what it holds, a new position is left out (pb_posset_add
 * returns 0, pb_posset_slot gives a scratch word), so whatever is built
 * from the set is incomplete and its user must check failed. */
void pb_posset_init(pb_posset *s, const pb_field *f);
void pb_posset_free(pb_posset *s);
/* Adds count to p's entry (creating it).  Returns 1 if p was new. */
int pb_posset_add(pb_posset *s, const pb_field *f, const pb_position *p, uint64_t count);
/* The count word of p's entry, created with count 0 if p is new (*isnew
 * set then; isnew may be NULL).  The pointer holds until the next
 * insertion. */
uint64_t *pb_posset_slot(pb_posset *s, const pb_field *f, const pb_position *p, int *isnew);
/* The count word of the entry with packed key `key` (pb_position_pack) and
 * position hash `hash`, or NULL if there is none.  Only reads: threads may
 * look up at once while nobody inserts. */
const uint64_t *pb_posset_find(const pb_posset *s, const uint64_t *key, uint64_t hash);
/* The i-th slot's position (if used): returns 0 for an empty slot. */
int pb_posset_get(const pb_posset *s, const pb_field *f, size_t slot, pb_position *p, uint64_t *count);
size_t pb_posset_bytes(const pb_posset *s);

void pb_position_pack(const pb_field *f, const pb_position *p, uint64_t *key);
void pb_position_unpack(const pb_field *f, const uint64_t *key, pb_position *p);

#endif
