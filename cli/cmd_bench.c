/* cmd_bench.c - `paperball bench`: fixed benchmark positions, figures on stdout. */
#include <string.h>

#include "../solver/json.h"
#include "bench.h"

void pb_bench_json_begin(pb_json *j, const char *benchmark, int threads) {
    pb_json_init(j, stdout);
    pb_json_object(j, NULL);
    pb_cli_json_version(j);
    pb_json_str(j, "benchmark", benchmark);
    pb_json_int(j, "threads", threads);
}

int pb_bench_json_list(pb_json *j, const pb_opts *o, const char *benchmark, int threads, const char *list) {
    if (!o->json) return 0;
    pb_bench_json_begin(j, benchmark, threads);
    pb_json_array(j, list);
    return 1;
}

int pb_bench_load(const pb_field_spec *sp, const char *record, pb_field **f, pb_game *g) {
    char err[256];
    *f = pb_field_new(sp, err, sizeof err);
    if (!*f || (record && pb_record_parse(*f, record, g, err, sizeof err))) {
        pb_fail(PB_EXIT_FAIL, "bench: %s", err);
        pb_field_free(*f);
        return -1;
    }
    return 0;
}

int cmd_bench(int argc, char **argv) {
    pb_opts o;
    const pb_option options[] = {
        PB_OPT_FLAG("solve", &o.solve, "solve fixed positions: nodes, time, nodes per second, speed-up"),
        PB_OPT_FLAG("enumerate", &o.enumerate, "enumerate fixed fields: positions per second"),
        PB_OPT_FLAG("all", &o.all, "all four parts"),
        PB_OPT_THREADS(o, "threads of the solve and enumerate parts (move generation\n"
                          "runs on one core)"),
        PB_OPT_MEMORY(o, "the solve part's table memory (default 64M)"),
        PB_OPT_JSON(o),
        PB_OPT_END};
    const pb_command cmd = {"bench", "[options] [signature] [solve] [enumerate]",
                            "Without a part named, measures move generation: single steps per second of a\n"
                            "depth-first perft over fixed positions, on one core.  `bench signature` prints\n"
                            "the total nodes of one-thread solves of fixed positions with a fixed table:\n"
                            "the same on every machine, it changes when the search does.\n",
                            options, 2};
    int rc = pb_cli_parse(&cmd, argc, argv, &o);
    if (rc != PB_CLI_GO) return rc;
    int signature = 0;
    for (int i = 0; i < o.nargs; i++) {
        if (!strcmp(o.args[i], "enumerate")) o.enumerate = 1;
        else if (!strcmp(o.args[i], "solve")) o.solve = 1;
        else if (!strcmp(o.args[i], "signature")) signature = 1;
        else return pb_fail(PB_EXIT_USAGE, "unknown benchmark '%s': expected signature, solve or enumerate", o.args[i]);
    }
    if (o.threads && !o.all && !o.solve && !o.enumerate)
        return pb_fail(PB_EXIT_USAGE, "--threads applies to bench --solve and --enumerate (move generation is "
                                      "measured on one core)");
    if (o.memory && !o.all && !o.solve) return pb_fail(PB_EXIT_USAGE, "--memory applies to bench --solve");
    rc = PB_EXIT_OK;
    if (o.all || (!o.solve && !o.enumerate && !signature)) rc = pb_bench_steps(&o);
    if (rc == PB_EXIT_OK && (o.all || signature)) rc = pb_bench_signature(&o);
    if (rc == PB_EXIT_OK && (o.all || o.solve)) rc = pb_bench_solve(&o);
    if (rc == PB_EXIT_OK && (o.all || o.enumerate)) rc = pb_bench_enumerate(&o);
    return rc;
}
