/* line.h - a best turn by the rule of pb_solve_pv_kind, given any exact
 * way to value positions: the alpha-beta solver and the proof-number
 * search share it, so their lines follow one rule.
 */
#ifndef PB_LINE_H
#define PB_LINE_H

#include <stdint.h>

#include "position.h"
#include "tactics.h"

/* The exact value of q for its player to move (the game goes on at q), or
 * PB_UNKNOWN (search.h) when the search was cut short; q is restored on
 * return. */
typedef int (*pb_value_fn)(void *ctx, pb_position *q);

/* A route from q worth v (q's value for its player to move) into nodes
 * (capacity cap), *kick its triple kick flag: book and hockey step by
 * step (the winner scores this turn if tac finds a goal route; otherwise
 * at each step the first step in direction order that keeps the value,
 * the winner preferring a step that ends the game, the other side one that
 * does not), triple over the turn's routes by the same preferences.
 * Returns its length, 0 if a value came back unknown.  q is restored. */
int pb_line_route(const pb_field *f, const pb_tactics *tac, pb_value_fn value, void *ctx, pb_position *q, int v,
                  int16_t *nodes, int cap, int *kick);

/* The same, where known (may be NULL) gives a value without searching, or
 * PB_UNKNOWN: book and hockey take at each step a step known to keep the
 * value before searching any (a proof leaves its winning steps known). */
int pb_line_route_known(const pb_field *f, const pb_tactics *tac, pb_value_fn value, pb_value_fn known, void *ctx,
                        pb_position *q, int v, int16_t *nodes, int cap, int *kick);

#endif
