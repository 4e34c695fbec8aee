/* solve_shortest.c - `paperball solve --shortest`: the value with the
 * distance to the end (the fastest win against the longest defence, in
 * turns; the ending turn counts 1) and a line that realises it, by the
 * distance search of solver/distance.h. */
#include <signal.h>
#include <string.h>

#include "../solver/distance.h"
#include "../solver/json.h"
#include "cli.h"
#include "stop.h"

static const char line_kind[] = "the winner ends as fast as it can, the loser holds out as long as it can";

static void print_json(const pb_field *f, const pb_game *g, const pb_distance_result *r) {
    char buf[4096];
    pb_json j;
    pb_json_init(&j, stdout);
    pb_json_object(&j, NULL);
    pb_cli_json_version(&j);
    pb_cli_json_field(&j, f);
    pb_json_int(&j, "turns_played", g->nturns);
    pb_json_str(&j, "to_move", pb_cli_player_key(g->pos.to_move));
    pb_json_str(&j, "value", pb_value_name(r->value));
    if (r->distance) pb_json_int(&j, "distance", r->distance);
    else pb_json_str(&j, "distance", NULL);
    pb_json_bool(&j, "stopped", r->stopped);
    pb_json_str(&j, "best",
                r->npv ? pb_route_format(f, r->pv[0].nodes, r->pv[0].len, r->pv[0].kick, buf, sizeof buf) : NULL);
    pb_json_array(&j, "pv");
    for (int i = 0; i < r->npv; i++)
        pb_json_str(&j, NULL, pb_route_format(f, r->pv[i].nodes, r->pv[i].len, r->pv[i].kick, buf, sizeof buf));
    pb_json_end(&j);
    pb_json_str(&j, "pv_kind", line_kind);
    pb_json_str(&j, "algo", "distance");
    pb_json_uint(&j, "nodes", r->nodes);
    pb_json_num(&j, "seconds", "%.6f", r->seconds);
    pb_json_object(&j, "table");
    pb_json_uint(&j, "bytes", r->table_bytes);
    pb_json_uint(&j, "slots", r->table_slots);
    pb_json_uint(&j, "probes", r->probes);
    pb_json_uint(&j, "hits", r->hits);
    pb_json_uint(&j, "stores", r->stores);
    pb_json_end(&j);
    pb_json_uint(&j, "peak_memory_bytes", pb_peak_rss());
    pb_json_end(&j);
}

static void print_text(const pb_field *f, const pb_game *g, const pb_distance_result *r) {
    char buf[4096];
    pb_cli_print_head(f, g, r->value, "stopped before it was proven");
    if (r->value == PB_WIN || r->value == PB_LOSS)
        printf("distance     %d turn%s to the end (%s; the ending turn counts 1)\n", r->distance,
               r->distance == 1 ? "" : "s", r->value == PB_WIN ? "the fastest win" : "the longest defence");
    else if (r->value == PB_DRAW) printf("distance     none (a draw)\n");
    if (r->npv) {
        printf("best turn    %s\n", pb_route_format(f, r->pv[0].nodes, r->pv[0].len, r->pv[0].kick, buf, sizeof buf));
        printf("line         ");
        for (int i = 0; i < r->npv; i++)
            printf("%s%s", i ? " " : "",
                   pb_route_format(f, r->pv[i].nodes, r->pv[i].len, r->pv[i].kick, buf, sizeof buf));
        printf("\n             (%d turns; %s)\n", r->npv, line_kind);
    }
    printf("nodes        %llu positions in %.3f s, 1 thread (the distance search: slower than the value alone)\n",
           (unsigned long long)r->nodes, r->seconds);
    printf("table        %.1f MiB, %zu entries; %llu probes, %llu hits, %llu stores\n",
           (double)r->table_bytes / 1048576.0, r->table_slots, (unsigned long long)r->probes,
           (unsigned long long)r->hits, (unsigned long long)r->stores);
    printf("peak memory  %.1f MiB\n", (double)pb_peak_rss() / 1048576.0);
}

int pb_cli_solve_shortest(const pb_opts *o, const pb_field *f, const pb_game *g, volatile sig_atomic_t *stop) {
    if (o->mpi || o->svg || o->html || o->threads > 1)
        return pb_fail(PB_EXIT_USAGE, "--shortest searches on one thread and prints its line: no --mpi, --threads, "
                                      "--svg, --html");
    pb_distance_opts d = {0};
    d.table_bytes = o->memory ? (size_t)pb_parse_size(o->memory) : 0;
    d.time_limit = o->time_limit;
    d.stop = stop;
    d.progress = o->quiet ? NULL : stderr;
    pb_distance_result r;
    if (pb_distance_solve(f, &g->pos, &d, &r))
        return pb_fail(PB_EXIT_MEMORY, "cannot allocate the distance search's table (--memory %s)",
                       o->memory ? o->memory : "default");
    if (o->json) print_json(f, g, &r);
    else print_text(f, g, &r);
    int stopped = r.stopped;
    int known = r.value != PB_UNKNOWN;
    pb_distance_result_free(&r);
    if (!stopped) return PB_EXIT_OK;
    fflush(stdout);
    return pb_fail(PB_EXIT_STOPPED, "stopped by %s %s", pb_stop_by("the time limit"),
                   known ? "while writing the line: the line is not whole" : "before the distance was proven");
}
