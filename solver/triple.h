/* triple.h - the triple rule set's extras beyond turn.h (docs/rules.md §3).
 *
 * Callers go through turn.h (pb_routes_foreach, pb_route_play), which
 * reaches this rule set by its pb_ruleset, pb_triple_rules.  This header
 * names the two functions behind it for the tests, and adds the small
 * queries the counting code needs to tell a finished triple position from
 * a live one without listing every ply, and the kick reflection.
 */
#ifndef PB_TRIPLE_H
#define PB_TRIPLE_H

#include "turn.h"

/* The plies from p, and playing one: pb_routes_foreach and pb_route_play
 * for the triple rules. */
long pb_triple_foreach(const pb_field *f, pb_position *p, pb_route_fn fn, void *ctx);
int pb_triple_play(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick, pb_route *info,
                   char *err, size_t errlen);

/* Longest route a kick chain can produce on field f: every kick draws at
 * least one new segment and takes at most six steps. */
static inline int pb_triple_max_route(const pb_field *f) { return 6 * f->nsegments + 8; }

/* Does the player to move have a normal move (own goals included)? */
int pb_triple_has_move(const pb_field *f, const pb_position *p);

/* Does a free kick from the ball exist (some direction is legal)? */
int pb_triple_has_kick(const pb_field *f, const pb_position *p);

/* A position where the player to move is stuck and the opponent has no
 * legal kick: the game is over, drawn, and pb_triple_foreach lists no ply. */
static inline int pb_triple_finished(const pb_field *f, const pb_position *p) {
    return !pb_triple_has_move(f, p) && !pb_triple_has_kick(f, p);
}

/* The direction of a kick after it hits a post: the vertical component
 * flips (NE <-> SE, N <-> S, NW <-> SW; E and W stay). */
static inline int pb_triple_reflect(int d) { return (8 - d) & 7; }

#endif
