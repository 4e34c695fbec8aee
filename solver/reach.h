/* reach.h - reduced keys: a position keyed by the part of the field its
 * ball can still reach, so that positions differing only in what the ball
 * can never reach again share one table entry.
 *
 * R is the ball's connected component in the graph of free (legal,
 * undrawn) segments, found by a flood fill from the ball.  The reduced key
 * is the ball, the player to move and the drawn segments with an end in R
 * (in triple also every drawn diagonal of a cell with a corner in R); all
 * other drawn segments are cleared from the key's segment words.
 *
 * Why a reduced key decides the value (docs/solver.md, "Reduced keys",
 * states it rule by rule):
 *  1. The ball only ever moves along free segments: a step of a turn
 *     (book, hockey, docs/rules.md §2), a link of a normal move (to an
 *     untouched node, so along an undrawn segment; a link onto a goal node
 *     ends the game, and its segment has an end in R) and a step of a kick,
 *     reflected at a post or not (triple, §3), each runs along a segment
 *     that may be drawn and is not drawn yet.  A kick jumps drawn lines and
 *     touched nodes, never a drawn segment, so R is what the ball can reach
 *     under the rules.  Drawing only removes free segments, so every later
 *     ball node is in R.
 *  2. Everything a rule looks at, for a step from a node u of R to v, is
 *     fixed by the field (legal segment, goal node, post, boundary, centre,
 *     the goal's direction in hockey) or is the drawn state of a segment
 *     with an end in R: the step's own segment, v's occupancy or touch
 *     (v is in R, and a node is occupied or touched by its fixed flag or a
 *     drawn segment ending there), the free segments at v (dead end,
 *     a kick's next direction), and in triple the other diagonal of a
 *     diagonal link's cell (a cell with a corner in R).  So the game from
 *     the position, and its value, depends on nothing else.
 *  3. The key decides R: a flood fill from the ball over the segments not
 *     drawn in the key's words reaches exactly R, because every segment at
 *     a node of R is in the key's mask, so it is free in the key exactly
 *     when it is free in the position.  Two positions with one reduced key
 *     thus have one R, equal drawn segments wherever a rule looks, and one
 *     value.  The key read as a position (its own words as the drawn set)
 *     is such a position too, so a reduced key equal to another position's
 *     full key also shares its value: reduced and full keys may live in one
 *     table.
 *  4. Mirror images: a mirror maps R to the image's R and the mask to the
 *     image's mask, so the reduced key of an image is the image of the
 *     reduced key; the orientation is chosen among the reduced images, by
 *     their own Zobrist hash, recomputed over the kept segments (the
 *     incremental hash cannot follow a mask; images.h's rule: any fixed
 *     choice among whole images).  A key with nothing left out is then the
 *     full key exactly.
 * The stored best step is a free segment at the ball, the same in every
 * position of the key.  Match play (the ball back on the centre after a
 * goal) is not a single game and never uses these keys.
 */
#ifndef PB_REACH_H
#define PB_REACH_H

#include <stdint.h>

#include "images.h"

/* By measurement (docs/solver.md): reduce only when at most this many free
 * segments are reachable; beyond it the flood fill is cut short. */
#define PB_REACH_LIMIT 40
/* By measurement too: with the default limit, a search whose root reaches
 * at most this many free segments is too small for fills to pay. */
#define PB_REACH_LEAST 32

/* A legal segment at a node: its index and the node at its other end. */
typedef struct pb_reach_link {
    int16_t seg, to;
} pb_reach_link;

typedef struct pb_reach {
    const pb_field *f;
    int limit;      /* reduce when at most this many free segments are reachable; 0 = never */
    int diagonals;  /* triple: keep the drawn diagonals of R's cells (no-crossing rule) */
    int small_root; /* the root's reachable part is within twice the limit (pb_reach_root) */
    int least;      /* no reduced keys below a root reaching at most this many free segments */
    int idle;       /* the current root is one of those */
    uint8_t nlinks[PB_MAX_LATTICE];
    pb_reach_link links[PB_MAX_LATTICE][8]; /* the legal segments at each node */
    uint64_t mark[PB_MAX_LATTICE / 64 + 1]; /* R, a lattice bitset */
    int16_t queue[PB_MAX_LATTICE];
    uint64_t img[4][PB_MAX_WORDS]; /* img[0]: the kept drawn segments; then their images */
    uint64_t tried, reduced;       /* calls, reduced keys given */
    /* A memo of recent answers (pb_reach_memo), or NULL: per entry the
     * position's hash, ball | to_move << 16 | answer << 32, its drawn
     * words and the kept words.  An answer is used only for a position
     * equal to the one it was found for (all words compared). */
    uint64_t *memo;
    size_t memo_mask;
    uint64_t memo_hits;
} pb_reach;

/* For field f; limit as opts give it: 0 = PB_REACH_LIMIT (and
 * PB_REACH_LEAST), < 0 = never. */
void pb_reach_init(pb_reach *r, const pb_field *f, int limit);

/* Keeps the last answers for about `entries` positions (a power of two
 * is taken), for a search that asks about the same positions again and
 * again (proof-number search re-expands its nodes).  0, or -1 if memory is
 * short (the search then goes on without). */
int pb_reach_memo(pb_reach *r, size_t entries);
void pb_reach_free(pb_reach *r);

/* Which positions of a search from root are worth a flood fill (chosen
 * by measurement, docs/solver.md): when the root's reachable part has at
 * most 2 * r->limit free segments (an endgame: R only shrinks, so most
 * positions below are within the limit), every position is tried;
 * otherwise (a search from the start) only positions with at most
 * r->limit free segments left on the whole field, whose fill never runs
 * over.  With the default limit, a root reaching at most PB_REACH_LEAST
 * free segments gets no reduced keys at all.  Which positions get reduced
 * keys changes what is shared, never a value (3. above).  Until called:
 * every position is tried. */
void pb_reach_root(pb_reach *r, const pb_position *root);

/* Whether pb_reach_key may reduce a position with `drawn` drawn segments
 * (0: it surely answers 0), for a searcher that counts its drawn
 * segments as it steps and so spares the call and its count. */
static inline int pb_reach_may(const pb_reach *r, int drawn) {
    return r->limit > 0 && !r->idle && (r->small_root || r->f->nsegments - drawn <= r->limit);
}

/* The reduced key of p over the orientations im uses, if p's reachable
 * part has at most r->limit free segments: returns 1 with *k set, its segment words written to out
 * (f->nwords words; k->seg = out).  Otherwise returns 0 and leaves *k and
 * out alone (the caller keys p in full). */
int pb_reach_key(pb_reach *r, const pb_images *im, const pb_position *p, uint64_t *out, pb_image_key *k);

/* The ball's component R: r->mark (a lattice bitset, f->nlattice bits)
 * and in r->img[0] the drawn segments the reduced key keeps.  Returns the
 * number of free segments in R, or -1 when there are more than max (the
 * fill stops). */
int pb_reach_fill(pb_reach *r, const pb_position *p, int max);

#endif
