/* turnwalk.h - the distinct outcomes of one turn, each with the number of
 * routes that lead to it, found without listing routes.
 *
 * Late in a game one turn can have millions of bounce routes but few
 * distinct mid-turn positions: every step draws one segment, so the
 * positions reached after k steps of a turn form layer k of a small graph.
 * The walk goes through that graph layer by layer, merging equal mid-turn
 * positions and adding up their route counts (dynamic programming over the
 * step graph), so its cost grows with the distinct positions, not the
 * routes.  The solver's tactics, the counting commands and the tablebase
 * use it.
 */
#ifndef PB_TURNWALK_H
#define PB_TURNWALK_H

#include <stdint.h>

#include "turn.h"

/* One distinct outcome of a turn. */
typedef struct pb_turn_outcome {
    const pb_position *after; /* the position after the turn, as pb_routes_foreach
                                 hands it (a finished game: its last segment drawn);
                                 NULL when the walk gives keys only */
    const uint64_t *key;      /* after, packed (pb_position_pack, posset.h) */
    pb_end end;               /* PB_END_NONE: the game goes on */
    int loser;                /* when end != PB_END_NONE; PB_NOBODY = draw */
    int mover;                /* who played the turn (the kicker for a kick chain) */
    int kick;                 /* triple: reached by free-kick chains */
    uint64_t routes;          /* routes from the position that end here */
    int overflow;             /* routes exceeded 2^64 - 1 (then routes = UINT64_MAX) */
    uint64_t hash;            /* the Zobrist hash of the position after (position.h) */
    const int16_t *nodes;     /* with routes on (pb_turnwalk_set_routes): one route that
                                 ends here, the first the walk found; else NULL */
    int len;                  /* its number of nodes (steps + 1); kick says if it is a
                                 kick chain */
} pb_turn_outcome;

/* Scratch memory of the walk (its merge tables), reused between calls.
 * One per thread. */
typedef struct pb_turnwalk pb_turnwalk;

pb_turnwalk *pb_turnwalk_new(const pb_field *f);
void pb_turnwalk_free(pb_turnwalk *tw);
/* At most max_positions distinct mid-turn positions per call (0 = no
 * limit); a walk that needs more answers PB_TURNWALK_TOO_BIG. */
void pb_turnwalk_set_limit(pb_turnwalk *tw, size_t max_positions);
/* on = 1: outcomes come with their key only (after = NULL), which spares
 * building each position after the turn; 0 (the default): both. */
void pb_turnwalk_set_keys_only(pb_turnwalk *tw, int on);
/* on = 1: every outcome comes with one route that leads to it (nodes,
 * len), read back from a link kept per distinct mid-turn position (8
 * bytes each, kept for the whole walk); 0 (the default): none.  -1 when
 * memory runs out. */
int pb_turnwalk_set_routes(pb_turnwalk *tw, int on);

/* on = 0: outcomes that end the game are neither merged nor reported
 * (most outcomes of a late turn end it, and a tablebase needs only the
 * kinds of end a turn can reach: pb_turnwalk_ends); 1 (the default): every
 * outcome is reported. */
void pb_turnwalk_set_ends(pb_turnwalk *tw, int on);
/* The kinds of game end the last pb_turn_outcomes with ends off met, as
 * bits, from the side of the player to move at its p: some turn loses (an own goal or own
 * dead-end loss), draws (a drawn dead end), wins. */
enum { PB_TURNWALK_END_LOSS = 1, PB_TURNWALK_END_DRAW = 2, PB_TURNWALK_END_WIN = 4 };
int pb_turnwalk_ends(const pb_turnwalk *tw);

/* Return value of the fn callback: nonzero stops the walk. */
typedef int (*pb_outcome_fn)(void *ctx, const pb_field *f, const pb_turn_outcome *o);

#define PB_TURNWALK_STOPPED (-1) /* fn asked to stop */
#define PB_TURNWALK_TOO_BIG (-2) /* the position limit or memory ran out */

/* Calls fn once for every distinct outcome of a turn from p (a position
 * where the game goes on; p is not changed).  Outcomes come in a fixed
 * order for a given p (that of their first discovery), the same on every
 * run and thread count.  Returns the number of outcomes, or
 * PB_TURNWALK_STOPPED / PB_TURNWALK_TOO_BIG (fn may then have been called
 * for some of them); with ends off (pb_turnwalk_set_ends), of those that
 * do not end the game.  Two routes give the same outcome exactly when they
 * give the same position after the turn. */
long pb_turn_outcomes(pb_turnwalk *tw, const pb_position *p, pb_outcome_fn fn, void *ctx);

/* Can the player to move at p score a goal against the opponent within
 * this turn (some route ends in the opponent's goal)?  1 yes, 0 no,
 * PB_TURNWALK_TOO_BIG.  Stops at the first such route. */
int pb_turn_can_score(pb_turnwalk *tw, const pb_position *p);

/* Distinct mid-turn positions the last call went through. */
size_t pb_turnwalk_visited(const pb_turnwalk *tw);

#endif
