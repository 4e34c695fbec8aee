/* turn.h - whole turns: every route of a turn with its outcome (docs/rules.md
 * §2 and §3), for all three rule sets, and playing a given route.
 *
 * A route is the node sequence of one turn, starting at the ball.  In book
 * and hockey it is a chain of steps ending on an empty node (stop), a goal
 * or a dead end.  In triple it is a normal move (b0..b3, shorter when it
 * scores) or a free-kick chain (kick = 1: the nodes of every kick step,
 * reflections included, from the ball to where the chain ends).
 */
#ifndef PB_TURN_H
#define PB_TURN_H

#include "position.h"

typedef enum {
    PB_END_NONE = 0, /* the game goes on */
    PB_END_GOAL,     /* a goal: loser is the goal's owner */
    PB_END_DEAD_END, /* bounce into a node with no exit */
    PB_END_NO_KICK   /* triple: stuck, and no free kick exists: draw */
} pb_end;

typedef struct pb_route {
    const int16_t *nodes; /* nodes[0] is the ball before the turn */
    int len;              /* number of nodes (steps + 1) */
    int mover;            /* who played the turn (the kicker for a kick chain) */
    int kick;             /* triple: a free-kick chain */
    pb_end end;
    int loser; /* when end != NONE: the loser, PB_NOBODY = draw */
} pb_route;

/* Called once per route with the position after it (for a finished game:
 * with the last segment drawn).  The callback must leave `after` as it got
 * it.  Return nonzero to stop the enumeration. */
typedef int (*pb_route_fn)(void *ctx, const pb_field *f, pb_position *after, const pb_route *r);

/* Calls fn for every route from p (restored on return).  Returns the number
 * of routes visited, or -1 if fn stopped it.  Book/hockey routes are found
 * by depth-first search over steps in direction order E, NE, N, NW, W, SW,
 * S, SE. */
long pb_routes_foreach(const pb_field *f, pb_position *p, pb_route_fn fn, void *ctx);

/* Plays one route given as nodes on p.  On success returns 0, fills *info
 * (its nodes point into the caller's array) and p is the position after.
 * On failure returns -1, leaves p unchanged and writes the reason
 * ("segment d6-e7 is already drawn", "the turn does not stop at e7: ...").
 * For triple, kick selects a free-kick chain. */
int pb_route_play(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick, pb_route *info, char *err,
                  size_t errlen);

/* Writes "d6-e7-f8" (a kick chain is written with a leading '*'). */
char *pb_route_format(const pb_field *f, const int16_t *nodes, int len, int kick, char *buf, size_t buflen);

/* Frees n turn records, `size` bytes apart from turns on, each with its
 * owned route as its first member (int16_t *nodes), and the array itself:
 * the lists of turns of the solvers' results and of a game.  (A pointer to
 * a struct is a pointer to its first member, C11 6.7.2.1.) */
void pb_turns_free(void *turns, int n, size_t size);

/* A copy of a route's n nodes in a new array (free() it); NULL if out of
 * memory. */
int16_t *pb_nodes_dup(const int16_t *nodes, int n);

/* The most nodes a route can have on f (for sizing a node buffer). */
int pb_route_max(const pb_field *f);

/* Whether f's turns are chains of single steps (pb_step: the bounce rules
 * of book and hockey).  Such a turn that does not end the game stops on
 * exactly one newly occupied node, which the step-level walks and counters
 * and the tablebases' layers rely on.  0 for triple (three-link moves and
 * free-kick chains, docs/rules.md §3). */
int pb_turns_are_steps(const pb_field *f);
/* What one node of a search on f is, in words: "single steps" or "plies". */
const char *pb_search_unit(const pb_field *f);

#endif
