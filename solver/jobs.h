/* jobs.h - job-level proof-number search: the top of a solve held as a
 * graph of positions between turns, cut into jobs for other solvers.
 *
 * The graph starts at the root.  Its leaves are handed out as jobs (solve
 * this position within a node budget); a job comes back with the exact
 * value of its position, or "out of budget", and then the graph expands
 * that position by one turn (pb_turn_outcomes).  Which leaf goes out next
 * is chosen by proof and disproof numbers over the graph; jobs in flight
 * count as answered (first as if they proved the question, then, when that
 * leaves nothing to do, as if they disproved it), so that several workers
 * get different leaves.  The module knows nothing of MPI: the cluster solve
 * (cli/mpi/mpi_solve.c) and the tests drive it.  docs/cluster.md explains
 * the scheme; jobs.c argues why the values are exact.
 */
#ifndef PB_JOBS_H
#define PB_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"
#include "proven.h"

typedef struct pb_jobs pb_jobs;

/* What happened, for measurements. */
typedef struct pb_jobs_stats {
    uint64_t positions; /* in the graph */
    uint64_t expanded;  /* positions expanded by one turn */
    uint64_t sent;      /* jobs handed out */
    uint64_t proven;    /* jobs that came back with a value */
    uint64_t failed;    /* jobs that ran out of budget */
    uint64_t home;      /* jobs handed to the worker whose job was their parent */
    uint64_t learnt;    /* positions in the proven log (for the workers' tables) */
    uint64_t updates;   /* position updates while propagating results */
    int phases;         /* questions asked ("win?", then "not lose?") */
} pb_jobs_stats;

/* A graph rooted at p (a position where the game goes on).  first_turns:
 * also prove the exact value of every position after a first turn, not
 * only the root's.  known (may be NULL): saved proofs (proven.h, published
 * entries); every position the graph meets takes its bounds from them, so
 * a resumed search rebuilds the top from what was proven before.  NULL if
 * memory ran out. */
pb_jobs *pb_jobs_new(const pb_field *f, const pb_position *p, int first_turns, const pb_proven *known);
void pb_jobs_free(pb_jobs *j);

#define PB_JOBS_NONE (-1)  /* nothing to hand out until a job comes back */
#define PB_JOBS_DONE (-2)  /* everything asked is proven */
#define PB_JOBS_ERROR (-3) /* memory or a turn too big to expand */

/* The next job for worker w (any small integer naming it): writes the
 * position into *p and returns the job's number (>= 0), or PB_JOBS_NONE /
 * PB_JOBS_DONE / PB_JOBS_ERROR. */
long pb_jobs_next(pb_jobs *j, int w, pb_position *p);

/* Job `job` came back: value = the exact value of its position for the
 * player to move there, or PB_UNKNOWN (out of budget: the position is
 * expanded).  0, or PB_JOBS_ERROR. */
int pb_jobs_result(pb_jobs *j, long job, int value);

/* Everything asked is proven. */
int pb_jobs_done(const pb_jobs *j);

/* The exact value of p for its player to move if the graph holds p (or
 * its left-right mirror image) with a proven value, else PB_UNKNOWN. */
int pb_jobs_value(pb_jobs *j, const pb_position *p);

/* The proven log: every position whose exact value the graph learnt, in
 * the order learnt (a worker that has seen entries 0 .. k-1 is sent the
 * rest).  Entry i into *p with its value for p's player to move. */
size_t pb_jobs_log_size(const pb_jobs *j);
void pb_jobs_log_get(const pb_jobs *j, size_t i, pb_position *p, int *value);

void pb_jobs_get_stats(const pb_jobs *j, pb_jobs_stats *st);

#endif
