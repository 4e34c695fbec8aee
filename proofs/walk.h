/* walk.h - the exhaustive traversal the claims are checked on.
 *
 * A breadth-first walk over the distinct positions reachable from a start,
 * one level per turn: level d holds every distinct position after exactly d
 * turns where the game goes on, with the number of turn sequences reaching
 * it.  From each position every route of the next turn is visited
 * (pb_routes_foreach); a route that ends the game is a finished game, the
 * others feed level d+1.  So every reachable position and every finished
 * game (as a final position + last route) is visited, and a walk that runs
 * until a level is empty has seen them all ("complete").
 *
 * All levels are kept, so a position found at level d can be traced back to
 * a game record from the start (pb_walk_trace): the first violation met in
 * the breadth-first order is a shortest counterexample in turns.
 *
 * (It uses solver pieces only: it does not depend on the enumeration
 * library of enumerate/.)
 */
#ifndef PB_WALK_H
#define PB_WALK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "posset.h"

/* Visitor callbacks; any may be NULL.  Returning nonzero stops the walk
 * (a violation was found).  `depth` counts turns from the start of the walk
 * plus the walk's depth0. */
typedef struct pb_walk_visitor {
    /* Every distinct position (game goes on) at its level, once. */
    int (*position)(void *ctx, const pb_field *f, const pb_position *p, int depth, uint64_t count);
    /* Every route from a position at `depth` (so the route is turn depth+1);
     * after is the position after it (with the last segment drawn when the
     * route ends the game).  Must leave *after unchanged. */
    int (*route)(void *ctx, const pb_field *f, const pb_position *before, pb_position *after, const pb_route *r,
                 int depth, uint64_t count);
    void *ctx;
} pb_walk_visitor;

typedef struct pb_walk_limits {
    int max_depth;        /* levels to expand; 0 = until every game has ended */
    size_t max_positions; /* stop (incomplete) when the levels hold more; 0 = no cap */
    double max_seconds;   /* stop (incomplete) after this much time; 0 = no cap */
    /* stop (incomplete) once *stop is nonzero (a signal's flag); NULL = never */
    const volatile sig_atomic_t *stop;
} pb_walk_limits;

typedef struct pb_walk {
    const pb_field *f;
    int depth0;  /* turns made before the walk's start */
    int nlevels; /* levels stored: 0 .. nlevels-1 */
    pb_posset *levels;
    /* figures */
    int complete;       /* every game from the start was followed to its end */
    int out_of_memory;  /* it stopped (incomplete) because memory ran out */
    int depth_done;     /* deepest level fully expanded (relative) */
    uint64_t positions; /* distinct positions visited (all levels) */
    uint64_t routes;    /* routes visited (distinct position, route) pairs */
    uint64_t finished;  /* finishing routes visited (distinct final (position, route)) */
    uint64_t games;     /* finished games as turn sequences (with multiplicity) */
    int games_overflow; /* games exceeded 64 bits */
    double seconds;
    /* where it stopped, when a visitor asked to */
    int stopped;
    int stop_depth; /* relative level of stop_before */
    pb_position stop_before;
    int16_t *stop_route; /* nodes of the route (NULL when stopped at a position) */
    int stop_route_len;
} pb_walk;

/* Walks from *start (which is d0 turns into a game).  Returns 0, or 1 when a
 * visitor stopped the walk. */
int pb_walk_run(pb_walk *w, const pb_field *f, const pb_position *start, int d0, const pb_walk_limits *lim,
                const pb_walk_visitor *v);
void pb_walk_free(pb_walk *w);

/* Traces the stop position back to the walk's start and plays it into *g:
 * g must hold the walk's start position (pb_game_init, or the game that
 * led to start); the routes found are appended, then the stopping route if
 * any.  Returns 0, or -1 if the trace fails (it cannot when the levels are
 * intact). */
int pb_walk_trace(const pb_walk *w, pb_game *g);

/* Whether a walk begun at t0 (pb_walk_now) whose levels hold `stored`
 * positions has passed one of its limits (the depth aside), or was told to
 * stop.  Shared with the
 * step walk. */
int pb_walk_limits_hit(const pb_walk_limits *lim, size_t stored, double t0);

/* Wall-clock seconds (monotonic). */
double pb_walk_now(void);

#endif
