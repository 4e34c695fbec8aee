/* bench.h - the parts of `paperball bench`, one file each. */
#ifndef PB_BENCH_H
#define PB_BENCH_H

#include "cli.h"

int pb_bench_steps(const pb_opts *o);     /* bench_steps.c: move generation */
int pb_bench_solve(const pb_opts *o);     /* bench_solve.c: the solver (--solve) */
int pb_bench_enumerate(const pb_opts *o); /* bench_enumerate.c: enumeration (--enumerate) */
int pb_bench_signature(const pb_opts *o); /* bench_solve.c: nodes of fixed solves (signature) */

/* The JSON object of a benchmark, opened with its version, name and
 * threads (cmd_bench.c); the caller adds its figures and closes it. */
struct pb_json;
void pb_bench_json_begin(struct pb_json *j, const char *benchmark, int threads);

#endif
