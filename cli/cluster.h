/* cluster.h - the MPI cluster mode of `paperball` (--mpi): starting and
 * ending MPI, the hooks that spread an enumeration over the processes and
 * the distributed solve
 * (the files of cli/mpi/, docs/cluster.md).  The sources in cli/mpi/ are compiled
 * only when CMake finds MPI, which defines PB_HAVE_MPI; without it the
 * option parser refuses --mpi, so nothing here is called. */
#ifndef PB_CLUSTER_H
#define PB_CLUSTER_H

#include "../solver/jobs.h"

/* The counts of a cluster solve, plain data (printed without MPI):
 * what one process did, */
typedef struct pb_cluster_rank {
    double idle, busy; /* seconds waiting for a message, solving jobs */
    uint64_t nodes, jobs, messages, bytes;
} pb_cluster_rank;

/* and what the whole solve did (on rank 0). */
typedef struct pb_cluster_stats {
    int nranks;
    pb_jobs_stats jobs;     /* the top graph (solver/jobs.h) */
    double rank0_cpu;       /* CPU seconds of rank 0 in the top search */
    pb_cluster_rank *ranks; /* nranks entries; owned */
} pb_cluster_stats;

#ifdef PB_HAVE_MPI

#include "../enumerate/enumerate.h"
#include "../solver/search.h"

/* This process in MPI_COMM_WORLD. */
typedef struct pb_cluster {
    int rank, nranks;
    const pb_field *field; /* of the enumeration (for pb_enum_owner) */
} pb_cluster;

/* MPI_Init (threads funneled: OpenMP threads never call MPI) and the
 * rank; 0, or -1 after printing an error.  Called only when --mpi is
 * given, so the normal program never needs mpirun. */
int pb_cluster_start(pb_cluster *c);
void pb_cluster_end(pb_cluster *c);

/* The largest of v over the processes (collective). */
long long pb_cluster_max(const pb_cluster *c, long long v);

/* Fills d with the MPI hooks of a distributed enumeration of field f. */
void pb_cluster_enum_dist(pb_cluster *c, const pb_field *f, pb_enum_dist *d);

/* The options of a cluster solve. */
typedef struct pb_cluster_solve_opts {
    size_t hash_bytes;           /* the table of each process; 0 = pb_solve_default_hash */
    int threads;                 /* OpenMP threads of each worker */
    int first_turns;             /* also every first-turn class's value */
    uint64_t job_nodes;          /* node budget of one job */
    double time_limit;           /* seconds from the start (0: none) */
    volatile sig_atomic_t *stop; /* seen by rank 0 between jobs; may be NULL */
    FILE *progress;              /* a line per job on rank 0, or NULL */
    pb_proven *proven;           /* saved proofs (solver/proven.h), or NULL: rank 0's
                                        checkpoint (read, and told every proven top
                                        position), a worker's copy (read only) */
} pb_cluster_solve_opts;

#define PB_CLUSTER_JOB_NODES ((uint64_t)4 << 20)

/* Solves p by a job-level search (cli/mpi/mpi_solve.c, solver/jobs.h):
 * rank 0 holds the top, the others solve jobs.  Rank 0 gets the whole
 * result r, as pb_solve gives it, and cs; the other processes r->value and
 * r->stopped.  Free r with pb_solve_result_free, cs with
 * pb_cluster_stats_free.  Returns 0, or -1 (on every process) if a table
 * could not be allocated. */
int pb_cluster_solve(const pb_cluster *c, const pb_field *f, const pb_position *p, const pb_cluster_solve_opts *o,
                     pb_solve_result *r, pb_cluster_stats *cs);
void pb_cluster_stats_free(pb_cluster_stats *cs);

#endif
#endif
