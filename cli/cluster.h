/* cluster.h - the MPI cluster mode of `paperball` (--mpi): starting and
 * ending MPI, the hooks that spread an enumeration over the processes and
 * the distributed solve
 * (the files of cli/mpi/, docs/cluster.md).  The sources in cli/mpi/ are compiled
 * only when CMake finds MPI, which defines PB_HAVE_MPI; without it the
 * option parser refuses --mpi, so nothing here is called. */
#ifndef PB_CLUSTER_H
#define PB_CLUSTER_H

#ifdef PB_HAVE_MPI

#include "../enumerate/enumerate.h"
#include "../solver/search.h"

/* This process in MPI_COMM_WORLD. */
typedef struct pb_cluster {
    int rank, nranks;
    const pb_field *field;   /* of the enumeration (for pb_enum_owner) */
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

/* Solves p with its first-turn classes dealt to the processes
 * (cli/mpi/mpi_solve.c); every process gets the whole result r, as
 * pb_solve gives it (free it with pb_solve_result_free).  hash_bytes: the
 * table of each process (0: PB_SOLVE_DEFAULT_HASH); time_limit: seconds
 * from the start (0: none); progress: a line per solved turn, or NULL.
 * Returns 0, or -1 (on every process) if a table could not be allocated. */
int pb_cluster_solve(const pb_cluster *c, const pb_field *f, const pb_position *p, size_t hash_bytes,
                     double time_limit, int no_pv, FILE *progress, pb_solve_result *r);

#endif
#endif
