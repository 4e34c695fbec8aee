/* bench_solve.c - the solve part of `paperball bench`: not written yet. */
#include "bench.h"

int pb_bench_solve(const pb_opts *o) {
    (void)o;
    return pb_fail(PB_EXIT_FAIL, "bench: the solve benchmark is not implemented yet");
}
