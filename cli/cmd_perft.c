/* cmd_perft.c - `paperball perft`: turn sequences and distinct positions
 * per depth; one position, or one line per record with --batch. */
#include <stdlib.h>
#include <string.h>

#include "../solver/json.h"
#include "../solver/perft.h"
#include "cli.h"

/* The perft rows of g's position: a table, a batch line or one JSON
 * object. */
static int perft_position(void *ctx, const pb_field *f, pb_game *g, int line) {
    const pb_opts *o = ctx;
    int depth = o->depth >= 0 ? o->depth : 3;
    pb_perft_row *rows = calloc((size_t)depth + 1, sizeof *rows);
    int n = g->end == PB_END_NONE ? pb_perft(f, &g->pos, depth, rows) : 0;
    pb_json j;
    if (o->json) {
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        if (line) pb_json_int(&j, "line", line);
        pb_json_array(&j, "depths");
    } else if (line) {
        printf("line %d:", line);
    } else {
        printf("%5s %20s %16s %16s\n", "depth", "sequences", "positions", "finished");
    }
    for (int d = 1; d <= depth; d++) {
        pb_perft_row r = d <= n ? rows[d - 1] : (pb_perft_row){d, 0, 0, 0, 0};
        if (o->json) {
            pb_json_object(&j, NULL);
            pb_json_int(&j, "depth", d);
            pb_json_uint(&j, "sequences", r.sequences);
            pb_json_uint(&j, "positions", r.positions);
            pb_json_uint(&j, "finished", r.finished);
            pb_json_end(&j);
        } else if (line) {
            printf(" %d: %llu %llu %llu%s", d, (unsigned long long)r.sequences, (unsigned long long)r.positions,
                   (unsigned long long)r.finished, d < depth ? ";" : "");
        } else {
            printf("%5d %20llu %16llu %16llu%s\n", d, (unsigned long long)r.sequences,
                   (unsigned long long)r.positions, (unsigned long long)r.finished,
                   r.overflow ? "  (overflow: use enumerate)" : "");
        }
    }
    int overflow = n > 0 && rows[n - 1].overflow;
    if (o->json) {
        pb_json_end(&j);
        if (overflow) pb_json_bool(&j, "overflow", 1);
        pb_cli_json_version(&j);
        pb_json_end(&j);
    } else if (line) {
        printf("%s\n", overflow ? " (overflow)" : "");
    }
    free(rows);
    if (overflow && !line) return pb_fail(PB_EXIT_FAIL, "a count overflowed 64 bits; paperball enumerate counts exactly");
    return overflow ? PB_EXIT_FAIL : PB_EXIT_OK;
}

int cmd_perft(int argc, char **argv) {
    pb_opts o;
    const pb_option options[] = {PB_OPTS_FIELD(o), PB_OPTS_RECORD(o), PB_OPT_BATCH(o),
                                 PB_OPT_DEPTH(o, "count to depth D in turns (default 3)"), PB_OPT_JSON(o), PB_OPT_END};
    const pb_command cmd = {"perft", "[options] [RECORD-FILE|-]",
                            "For each depth 1..D (default 3) prints perft(d), the number of sequences of\n"
                            "exactly d turns from the position, and positions(d), the distinct positions\n"
                            "after d turns where the game goes on (docs/rules.md).  With --batch, one\n"
                            "line per record: 'line N: 1: SEQUENCES POSITIONS FINISHED; 2: ...'.\n",
                            options, 1};
    int rc = pb_cli_parse(&cmd, argc, argv, &o);
    if (rc != PB_CLI_GO) return rc;
    return pb_cli_each_position(&o, perft_position, &o);
}
