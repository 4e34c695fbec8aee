/* match_search.h - the match solver: the goal difference of a triple match
 * position under perfect play (docs/match.md), the value of every first
 * turn, a best turn and a line of perfect play to the end of the match
 * with the running score.
 *
 * The match value of a position is the number of goals the player to
 * move will still score minus the number it will still concede, both
 * sides playing to maximise their own difference.  The algorithm and the
 * argument that the answers are exact are at the top of match_search.c.
 */
#ifndef PB_MATCH_SEARCH_H
#define PB_MATCH_SEARCH_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "match.h"

typedef struct pb_match_opts {
    int threads;                 /* OpenMP threads; 0 = 1 */
    size_t hash_bytes;           /* table memory cap; 0 = PB_MATCH_DEFAULT_HASH */
    double time_limit;           /* seconds; 0 = none */
    volatile sig_atomic_t *stop; /* set (e.g. by SIGINT) to stop; may be NULL */
    FILE *progress;              /* progress lines every ~2 s; NULL = none */
    int no_pv;                   /* skip the line of perfect play */
} pb_match_opts;

#define PB_MATCH_DEFAULT_HASH ((size_t)64 << 20)

/* One first turn from the root. */
typedef struct pb_match_turn {
    int16_t *nodes; /* owned */
    int len, kick;
    int mover; /* the root's player, or the opponent for a kick chain */
    int gain;  /* the turn's own goal: +1 for the root's player, -1 against, 0 none */
    int over;  /* the match ends with this turn */
    int known; /* diff is proven */
    int diff;  /* goal difference for the root's player, this turn first */
    int klass; /* mirror class: index of the class's first route */
    uint64_t nodes_searched;
    double seconds;
} pb_match_turn;

/* One turn of the line of perfect play, with the score after it counted
 * from the root (goals[PB_BOTTOM], goals[PB_TOP]). */
typedef struct pb_match_line_turn {
    int16_t *nodes; /* owned */
    int len, kick, mover, goal;
    int goals[2];
} pb_match_line_turn;

typedef struct pb_match_result {
    int known; /* diff is proven */
    int diff;  /* the match value for the root's player to move */
    int complete, stopped;
    int nturns, nclasses, mirror_lr;
    pb_match_turn *turns;
    int best; /* a first turn with the root's value, -1 if unknown */
    int nline;
    pb_match_line_turn *line;
    uint64_t nodes; /* plies searched */
    double seconds;
    int threads;
    size_t tt_bytes, tt_slots;
    uint64_t probes, hits, stores;
} pb_match_result;

/* Solves the match position p (where the match goes on: some ply
 * exists).  Returns 0, or -1 if the table could not be allocated.  Free r
 * with pb_match_result_free. */
int pb_match_solve(const pb_field *f, const pb_position *p, const pb_match_opts *o, pb_match_result *r);
void pb_match_result_free(pb_match_result *r);

/* A solver kept between questions (play against the solver): one table,
 * one thread. */
typedef struct pb_match_solver pb_match_solver;
pb_match_solver *pb_match_solver_new(const pb_field *f, size_t hash_bytes);
void pb_match_solver_free(pb_match_solver *s);
/* Limits each later question to `seconds` (0 = none). */
void pb_match_solver_set_limit(pb_match_solver *s, double seconds);
/* The match value of p for its player to move into *diff (0 if the match
 * is over); 0, or -1 if the time limit cut the search short. */
int pb_match_solver_value(pb_match_solver *s, const pb_position *p, int *diff);
/* A best ply from p into nodes (capacity cap): its length, 0 if the match
 * is over at p or the time limit cut the search short.  *kick gets the
 * kick flag, *diff the value of p. */
int pb_match_solver_best(pb_match_solver *s, const pb_position *p, int16_t *nodes, int cap, int *kick, int *diff);

#endif
