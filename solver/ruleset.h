/* ruleset.h - what makes a rule set: the table of its functions (internal
 * to solver/).  turn.c dispatches every whole-turn call through it, so a new
 * rule set is one new file that defines a pb_ruleset, plus one line in
 * turn.c's table. */
#ifndef PB_RULESET_H
#define PB_RULESET_H

#include "turn.h"

typedef struct pb_ruleset {
    /* Every route from p, as pb_routes_foreach. */
    long (*foreach)(const pb_field *f, pb_position *p, pb_route_fn fn, void *ctx);
    /* Plays one given route, as pb_route_play. */
    int (*play)(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick, pb_route *info, char *err,
                size_t errlen);
    /* The most nodes a route can have on f. */
    int (*max_route)(const pb_field *f);
    /* A turn is a chain of single steps (pb_step): see pb_turns_are_steps. */
    int steps;
    /* What one search node is, in words ("single steps", "plies"). */
    const char *unit;
} pb_ruleset;

extern const pb_ruleset pb_bounce_rules; /* book and hockey: bounce.c */
extern const pb_ruleset pb_triple_rules; /* triple: triple.c */

#endif
