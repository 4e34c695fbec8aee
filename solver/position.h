/* position.h - a position (drawn segments, ball, player to move) and the
 * single step of the bounce rules (docs/rules.md §2), applied and undone
 * in O(1) with an incremental Zobrist hash.
 *
 * Layout:   seg[]    bit s of word s/64 = segment s is drawn
 *           deg[]    drawn segments at each lattice node (0 .. 8)
 *           dirs[]   the same as direction bits: bit d = the segment from
 *                    the node in direction d is drawn
 *           ball     lattice index of the ball
 *           to_move  PB_BOTTOM or PB_TOP
 *           hash     XOR of zobrist_seg of drawn segments, zobrist_ball of
 *                    the ball, and zobrist_top when Top is to move
 *
 * A position between turns and a position in the middle of a turn (after a
 * bounce) are the same kind of thing: in both the player to move steps from
 * the ball, and what follows depends on nothing else.
 */
#ifndef PB_POSITION_H
#define PB_POSITION_H

#include "field.h"

typedef struct pb_position {
    uint64_t seg[PB_MAX_WORDS];
    uint8_t deg[PB_MAX_LATTICE];
    uint8_t dirs[PB_MAX_LATTICE];
    int16_t ball;
    uint8_t to_move;
    uint64_t hash;
} pb_position;

/* What a step led to. */
typedef enum {
    PB_STEP_STOP = 0, /* reached an empty node: the turn passes */
    PB_STEP_BOUNCE,   /* reached an occupied node: the same player goes on */
    PB_STEP_GOAL,     /* reached a goal node: the game is over */
    PB_STEP_DEAD_END  /* bounced onto a node with no free segment */
} pb_step_result;

typedef struct pb_undo {
    int16_t seg, ball;
    uint8_t to_move;
} pb_undo;

/* The start: nothing drawn, ball on the centre, `first` to move. */
void pb_position_start(const pb_field *f, pb_position *p, int first);

static inline int pb_drawn(const pb_position *p, int s) { return (int)((p->seg[s >> 6] >> (s & 63)) & 1); }
/* Occupied (book/hockey) or touched (triple): marked at the start or some
 * drawn segment ends there. */
static inline int pb_occupied(const pb_field *f, const pb_position *p, int i) {
    return (f->flags[i] & PB_OCCUPIED0) || p->deg[i];
}
/* Free (legal, undrawn) segment from node i in direction d? */
static inline int pb_free(const pb_field *f, const pb_position *p, int i, int d) {
    int s = f->seg[i][d];
    return s >= 0 && !pb_drawn(p, s);
}
/* Number of free segments at node i. */
int pb_free_count(const pb_field *f, const pb_position *p, int i);

/* Draws segment s (which must be free) without moving the ball; used by
 * triple kicks and by loaders.  pb_erase_segment undoes it. */
void pb_draw_segment(const pb_field *f, pb_position *p, int s);
void pb_erase_segment(const pb_field *f, pb_position *p, int s);
void pb_set_ball(const pb_field *f, pb_position *p, int node);
void pb_set_to_move(const pb_field *f, pb_position *p, int player);

/* Applies one bounce-rule step from the ball in direction d (the segment
 * must be free).  Stop flips the player to move; bounce, goal and dead end
 * keep it.  *loser receives the losing player for a goal (the goal's owner),
 * for a book dead end (the mover) and for a hockey dead end with the loss
 * option; PB_NOBODY for a drawn dead end and for stop/bounce. */
pb_step_result pb_step(const pb_field *f, pb_position *p, int d, pb_undo *u, int *loser);
void pb_unstep(const pb_field *f, pb_position *p, const pb_undo *u);

/* The hash recomputed from scratch (to check the incremental one). */
uint64_t pb_position_hash_full(const pb_field *f, const pb_position *p);
/* The same hash of a key: drawn-segment words, ball and player to move
 * (what a table stores; a table that grows places its entries again by
 * it, so every key's hash must be this function of the key). */
uint64_t pb_key_hash(const pb_field *f, const uint64_t *seg, int ball, int to_move);
/* Equal drawn sets, ball and player to move. */
int pb_position_equal(const pb_field *f, const pb_position *a, const pb_position *b);
/* Rebuilds deg[], dirs[] and hash from seg[], ball and to_move (after
 * writing seg[] directly). */
void pb_position_refresh(const pb_field *f, pb_position *p);
/* The mirror image: lr mirrors left-right; tb mirrors top-bottom and swaps
 * the players.  out may not alias in. */
void pb_position_mirror(const pb_field *f, const pb_position *in, pb_position *out, int lr, int tb);
/* Number of drawn segments. */
int pb_position_drawn_count(const pb_field *f, const pb_position *p);

#endif
