/* cmd_perft.c - `paperball perft`: turn sequences and distinct positions
 * per depth. */
#include <stdlib.h>
#include <string.h>

#include "../solver/perft.h"
#include "cli.h"

int cmd_perft(int argc, char **argv) {
    pb_opts o;
    pb_field *f;
    pb_game g;
    const pb_option options[] = {PB_OPTS_FIELD(o), PB_OPTS_RECORD(o), PB_OPT_BATCH(o),
                                 PB_OPT_DEPTH(o, "count to depth D in turns (default 3)"), PB_OPT_JSON(o), PB_OPT_END};
    const pb_command cmd = {"perft", "[options] [RECORD-FILE|-]",
                            "For each depth 1..D (default 3) prints perft(d), the number of sequences of\n"
                            "exactly d turns from the position, and positions(d), the distinct positions\n"
                            "after d turns where the game goes on (docs/rules.md).\n",
                            options, 1};
    int rc = pb_cli_begin(&cmd, argc, argv, &o, &f, &g);
    if (rc != PB_CLI_GO) return rc;
    int depth = o.depth >= 0 ? o.depth : 3;
    pb_perft_row *rows = calloc((size_t)depth + 1, sizeof *rows);
    int n = g.end == PB_END_NONE ? pb_perft(f, &g.pos, depth, rows) : 0;
    if (o.json) printf("{\"depths\":[");
    else printf("%5s %20s %16s %16s\n", "depth", "sequences", "positions", "finished");
    for (int d = 1; d <= depth; d++) {
        pb_perft_row r = d <= n ? rows[d - 1] : (pb_perft_row){d, 0, 0, 0, 0};
        if (o.json)
            printf("%s{\"depth\":%d,\"sequences\":%llu,\"positions\":%llu,\"finished\":%llu}", d > 1 ? "," : "", d,
                   (unsigned long long)r.sequences, (unsigned long long)r.positions,
                   (unsigned long long)r.finished);
        else
            printf("%5d %20llu %16llu %16llu%s\n", d, (unsigned long long)r.sequences,
                   (unsigned long long)r.positions, (unsigned long long)r.finished,
                   r.overflow ? "  (overflow: use enumerate)" : "");
    }
    if (o.json) printf("]}\n");
    int overflow = n > 0 && rows[n - 1].overflow;
    free(rows);
    pb_game_free(&g);
    pb_field_free(f);
    if (overflow) return pb_fail(PB_EXIT_FAIL, "a count overflowed 64 bits; paperball enumerate counts exactly");
    return PB_EXIT_OK;
}
