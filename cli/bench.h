/* bench.h - the parts of `paperball bench`, one file each. */
#ifndef PB_BENCH_H
#define PB_BENCH_H

#include "cli.h"

int pb_bench_steps(const pb_opts *o);      /* bench_steps.c: move generation */
int pb_bench_solve(const pb_opts *o);      /* bench_solve.c: the solver (--solve) */
int pb_bench_enumerate(const pb_opts *o);  /* bench_enumerate.c: enumeration (--enumerate) */
int pb_bench_signature(const pb_opts *o);  /* bench_solve.c: nodes of fixed solves (signature) */

#endif
