/* stepwalk.h - the exhaustive traversal at the grain of single steps.
 *
 * A turn is a chain of steps, and a position in the middle of a turn is
 * the same kind of state as one between turns (drawn segments, ball, player
 * to move): what may follow depends on nothing else.  So the games of a
 * field are exactly the paths from the start in the graph of states joined
 * by single steps, and a finished game is a path whose last step scores or
 * runs into a dead end.  Walking the distinct reachable states breadth-first
 * (level k = k segments drawn) and trying every step from each visits every
 * (state, last step) a finished game can end with, without listing the
 * routes one by one: the route count grows much faster than the states.
 *
 * Each state carries the number of step paths reaching it, which is the
 * number of turn sequences (a step path splits into turns in one way only),
 * so `games` must equal the turn-level walk's count: a cross-check.
 */
#ifndef PB_STEPWALK_H
#define PB_STEPWALK_H

#include "walk.h"

typedef struct pb_stepwalk_visitor {
    /* Every distinct reachable state, once (steps = segments drawn since the
     * walk's start). */
    int (*state)(void *ctx, const pb_field *f, const pb_position *p, int steps);
    /* Every step from every reachable state: before, the step's direction,
     * what it led to and the state after it (the game's final state when r
     * is GOAL or DEAD_END). */
    int (*step)(void *ctx, const pb_field *f, const pb_position *before, const pb_position *after, int dir,
                pb_step_result r, int loser, uint64_t count);
    void *ctx;
} pb_stepwalk_visitor;

typedef struct pb_stepwalk {
    const pb_field *f;
    int nlevels;
    pb_posset *levels;
    int complete;
    int out_of_memory; /* it stopped (incomplete) because memory ran out */
    int depth_done;    /* deepest level expanded (segments) */
    uint64_t states, steps, finishing;
    uint64_t games; /* finished games (paths), with multiplicity */
    int games_overflow;
    double seconds;
    int stopped, stop_level, stop_dir;
    pb_position stop_before;
} pb_stepwalk;

int pb_stepwalk_run(pb_stepwalk *w, const pb_field *f, const pb_position *start, const pb_walk_limits *lim,
                    const pb_stepwalk_visitor *v);
void pb_stepwalk_free(pb_stepwalk *w);
/* Plays the path to the stop (and the stopping step, if a step visitor
 * stopped) into g, which holds the walk's start; steps are grouped into
 * turns.  0, or -1. */
int pb_stepwalk_trace(const pb_stepwalk *w, pb_game *g);

#endif
