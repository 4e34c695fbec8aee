/* cmd_bench.c - `paperball bench`: fixed benchmark positions, figures on stdout. */
#include <string.h>

#include "bench.h"

int cmd_bench(int argc, char **argv) {
    if (argc > 0 && !strcmp(argv[0], "--help")) {
        puts("usage: paperball bench [signature] [--solve] [--enumerate] [--all] [--threads N] [--json]\n\n"
             "Without a part named, measures move generation: single steps per second of a\n"
             "depth-first perft over fixed positions, on one core.\n"
             "  signature     the total nodes of one-thread solves of fixed positions with a\n"
             "                fixed table: the same on every machine, it changes when the\n"
             "                search does\n"
             "  --solve       solve fixed positions: nodes, time, nodes per second, speed-up\n"
             "  --enumerate   enumerate fixed fields: positions per second\n"
             "  --all         all four\n");
        return PB_EXIT_OK;
    }
    pb_opts o;
    if (pb_opts_parse(&o, argc, argv)) return PB_EXIT_USAGE;
    int enumerate = o.enumerate, signature = 0;
    for (int i = 0; i < o.nargs; i++) {
        if (!strcmp(o.args[i], "enumerate")) enumerate = 1;
        else if (!strcmp(o.args[i], "solve")) o.solve = 1;
        else if (!strcmp(o.args[i], "signature")) signature = 1;
        else
            return pb_fail(PB_EXIT_USAGE, "unknown benchmark '%s': expected signature, solve or enumerate",
                           o.args[i]);
    }
    int rc = PB_EXIT_OK;
    if (o.all || (!o.solve && !enumerate && !signature)) rc |= pb_bench_steps(&o);
    if (o.all || signature) rc |= pb_bench_signature(&o);
    if (o.all || o.solve) rc |= pb_bench_solve(&o);
    if (o.all || enumerate) rc |= pb_bench_enumerate(&o);
    return rc;
}
