/* bench_enumerate.c - the enumerate part of `paperball bench`: not written yet. */
#include "bench.h"

int pb_bench_enumerate(const pb_opts *o) {
    (void)o;
    return pb_fail(PB_EXIT_FAIL, "bench: the enumerate benchmark is not implemented yet");
}
