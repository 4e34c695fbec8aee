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
/* With --json: that object and its array `list` opened, 1; else 0, for
 * the caller to print its table's head. */
int pb_bench_json_list(struct pb_json *j, const pb_opts *o, const char *benchmark, int threads, const char *list);
/* The field of sp and, when record is not NULL, the game that record
 * reaches on it: 0, or -1 after the message (nothing left allocated). */
int pb_bench_load(const pb_field_spec *sp, const char *record, pb_field **f, pb_game *g);

#endif
