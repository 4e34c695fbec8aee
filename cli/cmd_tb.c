/* cmd_tb.c - `paperball tb`: build, probe, verify and describe tablebases
 * (tablebase/tablebase.h, docs/tablebase.md). */
#include <stdio.h>
#include <gmp.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/diagram.h"
#include "../solver/search.h"
#include "../tablebase/line.h"
#include "../solver/container.h"
#include "../tablebase/tablebase.h"
#include "../solver/json.h"
#include "cli.h"
#include "stop.h"

/* What `paperball tb --help` and each subcommand's --help say first. */
static const char about_tb[] = "Tablebases (book and hockey): every position between turns reachable from the\n"
                               "start (or from --record), with its value and distance for the player to move\n"
                               "(the turns still to be played with perfect play).  docs/tablebase.md.\n";

static const char *value_key(uint8_t v) {
    int x = pb_tb_value(v);
    return x > 0 ? "win" : x < 0 ? "loss" : "draw";
}

/* ---- build and estimate ---- */

/* One layer's line, printed as soon as it is estimated (the estimate of
 * a large field takes a minute or more). */
static void estimate_line(void *ctx, int d, double est, int exact) {
    FILE *out = ctx;
    fprintf(out, "estimate: layer %d: %s%.0f classes\n", d, exact ? "" : "~", est);
    fflush(out);
}

/* Prints the estimate of every layer as it comes, then the summary; 0, or
 * -1 when a caught signal (the stop flag) or the time limit (seconds, 0 =
 * none) cut it short, -2 when memory ran out. */
static int print_estimate(const pb_field *f, const pb_position *root, double time_limit, FILE *out) {
    double est[PB_MAX_LATTICE + 1];
    int exact_upto;
    estimate_line(out, pb_tb_layer_of(f, root), 1, 1);
    int dmax =
        pb_tb_estimate(f, root, 200000, 20000, 1, pb_stop_flag(), time_limit, est, &exact_upto, estimate_line, out);
    if (dmax < 0) return dmax;
    int widest = pb_tb_layer_of(f, root);
    for (int d = widest; d <= dmax; d++)
        if (est[d] > est[widest]) widest = d;
    pb_tb_keyfmt k;
    pb_tb_keyfmt_init(&k, f);
    fprintf(out, "estimate: layers %d..%d, exact up to layer %d, sampled after\n", pb_tb_layer_of(f, root), dmax,
            exact_upto);
    double peak = 0;
    for (int d = pb_tb_layer_of(f, root); d < dmax; d++) {
        double b = (est[d] + est[d + 1]) * (8.0 * k.kw + 1);
        if (b > peak) peak = b;
    }
    fprintf(out, "estimate: widest layer %d with %s%.0f classes; two layers in memory need ~%.2f GiB\n", widest,
            widest > exact_upto ? "~" : "", est[widest], peak / (1 << 30));
    return 0;
}

/* The record's position and the options fit a build (or an estimate):
 * PB_EXIT_OK, or the status after the message. */
static int check_build(const pb_field *f, const pb_game *g, const pb_opts *o, int estimate_only) {
    if (!pb_turns_are_steps(f))
        return pb_fail(PB_EXIT_USAGE, "tablebases are built for book and hockey only: triple turns have no layering "
                                      "in which every turn goes one layer deeper (docs/tablebase.md)");
    if (g->end != PB_END_NONE) return pb_fail(PB_EXIT_USAGE, "the record's game is over: there is nothing to tabulate");
    if (!estimate_only && !o->out) return pb_fail(PB_EXIT_USAGE, "tb build needs --out FILE");
    if (!estimate_only && !pb_container_replaceable(o->out))
        return pb_fail(PB_EXIT_USAGE, "--out %s: not a regular file (it would be replaced, not written)", o->out);
    /* A file that can never be written is said now, not after the layers. */
    char werr[512];
    if (!estimate_only && pb_container_writable(o->out, werr, sizeof werr)) return pb_fail(PB_EXIT_WRITE, "%s", werr);
    return PB_EXIT_OK;
}

/* The games of res as numbers: Top wins, Bottom wins, draws, all. */
static void games_mpz(const pb_tb_build_result *res, mpz_t g[4]) {
    mpz_init(g[3]);
    for (int i = 0; i < 3; i++) {
        mpz_init_set_ui(g[i], (unsigned long)(uint64_t)(res->games[i] >> 64));
        mpz_mul_2exp(g[i], g[i], 64);
        mpz_add_ui(g[i], g[i], (unsigned long)(uint64_t)res->games[i]);
        mpz_add(g[3], g[3], g[i]);
    }
}

static void json_games(pb_json *j, const pb_tb_build_result *res) {
    if (res->games_over) {
        pb_json_raw(j, "games", "null");
        return;
    }
    mpz_t g[4];
    games_mpz(res, g);
    const char *names[4] = {"games_top_wins", "games_bottom_wins", "games_draws", "games"};
    for (int i = 0; i < 4; i++) {
        char *digits = mpz_get_str(NULL, 10, g[i]);
        pb_json_raw(j, names[i], digits);
        free(digits);
        mpz_clear(g[i]);
    }
}

static void print_build_json(const pb_field *f, const pb_opts *o, const pb_tb_build_result *res, double bpp) {
    char desc[128];
    pb_json j;
    pb_json_init(&j, stdout);
    pb_json_object(&j, NULL);
    pb_cli_json_version(&j);
    pb_json_str(&j, "rules", pb_rules_name(f->spec.rules));
    pb_json_str(&j, "field", pb_field_describe(f, desc, sizeof desc));
    pb_json_str(&j, "file", o->out);
    pb_json_int(&j, "first_layer", res->d0);
    pb_json_int(&j, "last_layer", res->dmax);
    pb_json_uint(&j, "classes", res->classes);
    pb_json_uint(&j, "positions", res->positions);
    pb_json_int(&j, "widest_layer", res->widest_layer);
    pb_json_uint(&j, "widest_classes", res->widest_classes);
    pb_json_str(&j, "value", value_key(res->root_value));
    pb_json_int(&j, "distance", res->root_value ? pb_tb_distance(res->root_value) : 0);
    pb_json_int(&j, "bytes", res->file_bytes);
    pb_json_num(&j, "bytes_per_position", "%.3f", bpp);
    pb_json_int(&j, "peak_memory", res->peak_memory);
    pb_json_num(&j, "seconds", "%.3f", res->seconds);
    pb_json_num(&j, "forward_seconds", "%.3f", res->forward_seconds);
    pb_json_num(&j, "backward_seconds", "%.3f", res->backward_seconds);
    pb_json_num(&j, "cpu_seconds", "%.3f", res->cpu_seconds);
    if (o->games) json_games(&j, res);
    pb_json_end(&j);
}

static void print_build_text(const pb_field *f, const pb_game *g, const pb_opts *o, const pb_tb_build_result *res,
                             double bpp) {
    char desc[128], vb[32];
    printf("field        %s\n", pb_field_describe(f, desc, sizeof desc));
    printf("file         %s, %lld bytes, %.3f bytes per position\n", o->out, res->file_bytes, bpp);
    printf("layers       %d..%d, widest %d (%llu classes)\n", res->d0, res->dmax, res->widest_layer,
           (unsigned long long)res->widest_classes);
    printf("stored       %llu classes (left-right mirror classes) = %llu positions\n", (unsigned long long)res->classes,
           (unsigned long long)res->positions);
    printf("root         %s for %s (the player to move)\n", pb_tb_describe(res->root_value, vb, sizeof vb),
           pb_player_name(g->pos.to_move));
    printf("time         %.2f s (forward %.2f s, backward %.2f s), %.2f s of CPU%s\n", res->seconds,
           res->forward_seconds, res->backward_seconds, res->cpu_seconds,
           res->resumed_forward || res->resumed_backward || res->resumed_games ? ", resumed" : "");
    printf("peak memory  %.1f MiB in layers and buffers\n", (double)res->peak_memory / 1048576.0);
    if (o->games && res->games_over) printf("games        more than 2^128: not counted\n");
    else if (o->games) {
        mpz_t g[4];
        games_mpz(res, g);
        gmp_printf("games        %Zd complete games from the root: Top wins %Zd, Bottom wins %Zd, draws %Zd\n", g[3],
                   g[0], g[1], g[2]);
        for (int i = 0; i < 4; i++) mpz_clear(g[i]);
    }
}

/* Builds the tablebase of g's position into o->out and reports it. */
static int build_table(const pb_field *f, const pb_game *g, const pb_opts *o) {
    /* Ctrl-C and SIGTERM stop the estimate (nothing is lost) and the build
     * as its time limit does: the pass in progress is dropped, the finished
     * layer files stay (exit 3). */
    struct sigaction old[2];
    pb_stop_catch(old);
    /* --time-limit counts from here: the estimate's seconds are taken
     * from the build's. */
    double t0 = omp_get_wtime();
    int e = o->quiet ? 0 : print_estimate(f, &g->pos, o->time_limit, stderr);
    if (e < 0) {
        pb_stop_restore(old);
        if (e == -2) return pb_fail(PB_EXIT_MEMORY, "out of memory during the estimate, before the build began");
        return pb_fail(PB_EXIT_STOPPED, "stopped by %s during the estimate, before the build began",
                       pb_stop_by("the time limit"));
    }
    pb_tb_build_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.threads = o->threads;
    bo.memory = o->memory ? pb_parse_size(o->memory) : 0;
    bo.progress = o->quiet ? NULL : stderr;
    bo.time_limit = o->time_limit;
    if (bo.time_limit > 0) {
        bo.time_limit -= omp_get_wtime() - t0;
        if (bo.time_limit < 0.001) bo.time_limit = 0.001; /* still a limit: 0 would be none */
    }
    bo.games = o->games;
    pb_tb_build_result res;
    bo.stop = pb_stop_flag();
    pb_tb_status st = pb_tb_build(f, &g->pos, o->out, &bo, &res);
    pb_stop_restore(old);
    if (st != PB_TB_OK)
        return pb_fail(st == PB_TB_BAD       ? PB_EXIT_USAGE
                       : st == PB_TB_MEMORY  ? PB_EXIT_MEMORY
                       : st == PB_TB_STOPPED ? PB_EXIT_STOPPED
                                             : PB_EXIT_WRITE,
                       "%s", res.message);
    double bpp = res.positions ? (double)res.file_bytes / (double)res.positions : 0;
    if (o->json) print_build_json(f, o, &res, bpp);
    else print_build_text(f, g, o, &res, bpp);
    return PB_EXIT_OK;
}

static int tb_build(int argc, char **argv, int estimate_only) {
    pb_opts o;
    pb_field *f;
    pb_game g;
    const pb_option build_options[] = {PB_OPTS_FIELD(o),
                                       PB_OPTS_RECORD(o),
                                       PB_OPT_TEXT("out", "FILE", &o.out, "the tablebase file to write"),
                                       PB_OPT_THREADS(o, "OpenMP threads"),
                                       PB_OPT_MEMORY(o, "budget for the layers in memory; over it the build stops\n"
                                                        "(exit status 4) keeping its finished layers: rerun to go on"),
                                       PB_OPT_TIME_LIMIT(o, "stop after SECONDS (exit 3), keeping the finished\n"
                                                            "layers: rerun to go on (Ctrl-C and SIGTERM alike)"),
                                       PB_OPT_FLAG("games", &o.games,
                                                   "also count the complete games from the root, by result\n"
                                                   "(every bounce route counted; as enumerate's games)"),
                                       PB_OPT_JSON(o),
                                       PB_OPT_QUIET(o),
                                       PB_OPT_END};
    const pb_option estimate_options[] = {PB_OPTS_FIELD(o), PB_OPTS_RECORD(o), PB_OPT_END};
    const pb_command build = {"tb build", "[options] --out FILE [RECORD-FILE|-]",
                              "Builds the tablebase of the start (or of the record's position): layers found\n"
                              "forward and kept beside FILE, solved backward, written into FILE.  First\n"
                              "estimates every layer's size from a sample (not with --quiet).\n",
                              build_options, 1};
    const pb_command estimate = {"tb estimate", "[options] [RECORD-FILE|-]",
                                 "The size of every layer of a tablebase, counted exactly while small, then\n"
                                 "estimated from samples (capture-recapture; docs/tablebase.md).\n",
                                 estimate_options, 1};
    int rc = pb_cli_begin(estimate_only ? &estimate : &build, argc, argv, &o, &f, &g);
    if (rc != PB_CLI_GO) return rc;
    rc = check_build(f, &g, &o, estimate_only);
    if (rc == PB_EXIT_OK && estimate_only) {
        struct sigaction old[2];
        pb_stop_catch(old);
        int e = print_estimate(f, &g.pos, 0, stdout);
        if (e == -2) rc = pb_fail(PB_EXIT_MEMORY, "out of memory before the estimate was finished");
        else if (e < 0)
            rc = pb_fail(PB_EXIT_STOPPED, "stopped by %s before the estimate was finished", pb_stop_by("a signal"));
        pb_stop_restore(old);
    } else if (rc == PB_EXIT_OK) rc = build_table(f, &g, &o);
    pb_game_free(&g);
    pb_field_free(f);
    return rc;
}

/* ---- reading commands: the tablebase FILE comes first ---- */

/* Takes FILE (the first word, unless it is an option) off argv, parses the
 * rest and opens FILE.  Returns PB_CLI_GO with *tb, or the exit status. */
static int open_table(const pb_command *cmd, int argc, char **argv, pb_opts *o, pb_tb **tb) {
    const char *file = NULL;
    if (argc > 0 && argv[0][0] != '-') file = argv[0], argc--, argv++;
    int rc = pb_cli_parse(cmd, argc, argv, o);
    if (rc != PB_CLI_GO) return rc;
    if (!file)
        return pb_fail(PB_EXIT_USAGE, "%s: name the tablebase file first (see paperball %s --help)", cmd->name,
                       cmd->name);
    char err[600];
    *tb = pb_tb_open(file, 1, err, sizeof err);
    if (!*tb) return pb_fail(PB_EXIT_USAGE, "%s", err);
    return PB_CLI_GO;
}

/* A probed position: its layer, its value and its turns, best first. */
typedef struct probe {
    const pb_tb *tb;
    pb_game g;
    int layer;
    uint8_t value;
    pb_tb_turn *t;
    long n;
} probe;

/* The position's entry and its turns' values, from its layer and the next
 * (L, N): PB_EXIT_OK, or the status after the message. */
static int probe_position(probe *q, pb_tb_layer *L, pb_tb_layer *N) {
    char err[600], rb[4096];
    const pb_tb *tb = q->tb;
    int v = -1;
    q->layer = pb_tb_layer_of(tb->f, &q->g.pos);
    if (q->g.end != PB_END_NONE)
        return pb_fail(PB_EXIT_USAGE, "the game is over: %s", pb_game_result(&q->g, rb, sizeof rb));
    if (pb_tb_load(tb, q->layer, L, err, sizeof err) || pb_tb_load(tb, q->layer + 1, N, err, sizeof err))
        return pb_fail(PB_EXIT_USAGE, "%s", err);
    if (q->g.pos.to_move != L->to_move || (v = pb_tb_lookup(tb, L, &q->g.pos)) < 0)
        return pb_fail(PB_EXIT_USAGE, "the position is not in this tablebase (not reachable from its root)");
    q->value = (uint8_t)v;
    if ((q->n = pb_tb_turns(tb, N, &q->g.pos, &q->t)) < 0)
        return pb_fail(PB_EXIT_USAGE, "a successor is missing from the tablebase: the file is inconsistent");
    return PB_EXIT_OK;
}

static void print_probe_json(const probe *q) {
    char rb[4096];
    const pb_tb_turn *t = q->t;
    pb_json j;
    pb_json_init(&j, stdout);
    pb_json_object(&j, NULL);
    pb_cli_json_version(&j);
    pb_json_str(&j, "to_move", q->g.pos.to_move == PB_TOP ? "top" : "bottom");
    pb_json_int(&j, "layer", q->layer);
    pb_json_str(&j, "value", value_key(q->value));
    pb_json_int(&j, "distance", q->value ? pb_tb_distance(q->value) : 0);
    pb_json_array(&j, "turns");
    for (long i = 0; i < q->n; i++) {
        pb_json_object(&j, NULL);
        pb_json_str(&j, "route", pb_route_format(q->tb->f, t[i].nodes, t[i].len, 0, rb, sizeof rb));
        pb_json_bool(&j, "ends", t[i].end != PB_END_NONE);
        pb_json_str(&j, "value", value_key(t[i].value));
        pb_json_int(&j, "distance", t[i].value ? pb_tb_distance(t[i].value) : 0);
        pb_json_end(&j);
    }
    pb_json_end(&j);
    pb_json_end(&j);
}

static void print_probe_text(const probe *q) {
    char vb[32], rb[4096];
    const pb_tb_turn *t = q->t;
    int mover = q->g.pos.to_move;
    printf("position     layer %d, %s to move\n", q->layer, pb_player_name(mover));
    printf("value        %s for %s\n", pb_tb_describe(q->value, vb, sizeof vb), pb_player_name(mover));
    printf("turns        %ld, best first (value for %s after the turn)\n", q->n, pb_player_name(mover));
    for (long i = 0; i < q->n; i++)
        printf("  %-28s %-12s%s\n", pb_route_format(q->tb->f, t[i].nodes, t[i].len, 0, rb, sizeof rb),
               pb_tb_describe(t[i].value, vb, sizeof vb), t[i].end != PB_END_NONE ? " ends the game" : "");
}

static int tb_probe(int argc, char **argv) {
    pb_opts o;
    pb_tb *tb = NULL;
    const pb_option options[] = {PB_OPTS_RECORD(o), PB_OPT_JSON(o), PB_OPT_END};
    const pb_command cmd = {"tb probe", "FILE [options] [RECORD-FILE|-]",
                            "The value and distance of the record's position (default: the start) and\n"
                            "every legal turn from it with the value for the mover after it, best first.\n",
                            options, 1};
    int rc = open_table(&cmd, argc, argv, &o, &tb);
    if (rc != PB_CLI_GO) return rc;
    probe q = {.tb = tb};
    if (!o.first) o.first = tb->h.root_to_move == PB_BOTTOM && tb->h.d0 == 0 ? "bottom" : "top";
    if (pb_cli_game(&o, tb->f, &q.g)) {
        pb_tb_close(tb);
        return PB_EXIT_USAGE;
    }
    pb_tb_layer L, N;
    memset(&L, 0, sizeof L), memset(&N, 0, sizeof N);
    rc = probe_position(&q, &L, &N);
    if (rc == PB_EXIT_OK && o.json) print_probe_json(&q);
    else if (rc == PB_EXIT_OK) print_probe_text(&q);
    if (q.t) pb_tb_turns_free(q.t, q.n);
    pb_tb_layer_free(&L), pb_tb_layer_free(&N);
    pb_game_free(&q.g);
    pb_tb_close(tb);
    return rc;
}

static int tb_verify(int argc, char **argv) {
    pb_opts o;
    pb_tb *tb = NULL;
    const pb_option options[] = {PB_OPT_THREADS(o, "OpenMP threads"), PB_OPT_JSON(o), PB_OPT_END};
    const pb_command cmd = {"tb verify", "FILE [options]",
                            "Checks a tablebase independently of the builder: checksums, header counts,\n"
                            "the root, every successor present, every entry the best of its routes.\n"
                            "Exit status 1 if an entry is wrong, 2 if the file is damaged or foreign.\n",
                            options, 0};
    int rc = open_table(&cmd, argc, argv, &o, &tb);
    if (rc != PB_CLI_GO) return rc;
    rc = PB_EXIT_OK;
    pb_tb_verify_result res;
    char err[600];
    pb_position start, root;
    pb_position_start(tb->f, &start, tb->h.root_to_move);
    pb_tb_root(tb, &root);
    int from_start = pb_position_equal(tb->f, &start, &root);
    int v = pb_tb_verify(tb, o.threads, &res, err, sizeof err);
    if (v == 2) {
        rc = pb_fail(PB_EXIT_USAGE, "%s", err);
    } else if (o.json) {
        pb_json j;
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        pb_cli_json_version(&j);
        pb_json_bool(&j, "ok", v == 0);
        pb_json_uint(&j, "entries", res.checked);
        pb_json_uint(&j, "entries_route_checked", res.route_checked);
        pb_json_uint(&j, "routes", res.routes);
        pb_json_uint(&j, "errors", res.errors);
        pb_json_bool(&j, "root_is_start", from_start);
        pb_json_str(&j, "first_error", res.first_error);
        pb_json_end(&j);
    } else {
        printf("checked      %llu entries step by step, %llu of them again route by route (%llu routes);\n"
               "             checksums and header counts\n",
               (unsigned long long)res.checked, (unsigned long long)res.route_checked, (unsigned long long)res.routes);
        printf("root         %s\n", from_start ? "the start" : "a position after some turns");
        if (v) printf("result       WRONG: %llu errors; first: %s\n", (unsigned long long)res.errors, res.first_error);
        else printf("result       every entry holds\n");
    }
    if (v == 1) rc = PB_EXIT_FAIL;
    pb_tb_close(tb);
    return rc;
}

/* The longest forced win, a way to it from the start and its line, into
 * g (the start on entry).  *prefix: the turns of the way; -1 if no way
 * was found or the root is not the start. */
static int longest_win(const pb_tb *tb, pb_game *g, int *layer, pb_position *p, uint8_t *v, int *prefix) {
    char err[600];
    uint64_t rk[PB_TB_MAX_KW];
    pb_position root;
    *prefix = -1;
    int found = pb_tb_longest_win(tb, layer, p, v, err, sizeof err);
    if (found < 0) return pb_fail(PB_EXIT_USAGE, "%s", err), -1;
    pb_tb_root(tb, &root);
    int start = pb_position_equal(tb->f, &g->pos, &root) && pb_tb_canon(tb->f, &tb->k, &root, rk) == 1;
    if (found > 0 && start && !pb_tb_play_path(tb, g, p, err, sizeof err)) {
        *prefix = g->nturns;
        if (pb_tb_play_line(tb, g, err, sizeof err)) *prefix = -1;
    }
    return found;
}

/* The layers' counts by value: into the JSON object j (opened here, with
 * its array "layers" closed again), or as a table with j NULL. */
static void print_layers(const pb_tb *tb, pb_json *j) {
    const pb_tb_header *h = &tb->h;
    char desc[128];
    /* The first player of the game: the one to move in layer 0. */
    int first = pb_tb_to_move(h, 0);
    if (j) {
        pb_json_object(j, NULL);
        pb_cli_json_version(j);
        pb_json_str(j, "rules", pb_rules_name(tb->f->spec.rules));
        pb_json_str(j, "field", pb_field_describe(tb->f, desc, sizeof desc));
        pb_json_array(j, "layers");
    } else {
        printf("field  %s; %s; counts are positions (classes: left-right mirror pairs stored once)\n",
               pb_field_describe(tb->f, desc, sizeof desc), tb->version);
        printf("%5s %8s %12s %12s %12s %12s %12s %14s\n", "layer", "to move", "classes", "positions", "wins", "draws",
               "losses", "first-player");
    }
    for (int d = h->d0; d <= h->dmax; d++) {
        const pb_tb_layer_counts *c = &h->layer[d - h->d0];
        int mover = pb_tb_to_move(h, d);
        uint64_t fw = mover == first ? c->positions_by[2] : c->positions_by[0];
        double share = c->positions ? (double)fw / (double)c->positions : 0;
        if (j) {
            pb_json_object(j, NULL);
            pb_json_int(j, "layer", d);
            pb_json_str(j, "to_move", mover == PB_TOP ? "top" : "bottom");
            pb_json_uints(j, (const pb_json_count[]){{"classes", c->classes},
                                                     {"positions", c->positions},
                                                     {"wins", c->positions_by[2]},
                                                     {"draws", c->positions_by[1]},
                                                     {"losses", c->positions_by[0]},
                                                     {NULL, 0}});
            pb_json_num(j, "first_player_wins", "%.6f", share);
            pb_json_end(j);
        } else {
            printf("%5d %8s %12llu %12llu %12llu %12llu %12llu %13.2f%%\n", d, pb_player_name(mover),
                   (unsigned long long)c->classes, (unsigned long long)c->positions,
                   (unsigned long long)c->positions_by[2], (unsigned long long)c->positions_by[1],
                   (unsigned long long)c->positions_by[0], 100 * share);
        }
    }
    if (j) pb_json_end(j);
}

/* The longest forced win found by longest_win: g holds the way to it
 * (prefix turns; -1: none) and its line. */
typedef struct longest {
    const pb_tb *tb;
    pb_game g;
    int found, layer, prefix;
    uint8_t v;
    pb_position p;
} longest;

/* The turns from..to-1 of the way or the line, as a JSON array. */
static void json_turns(pb_json *j, const char *key, const longest *w, int from, int to) {
    char rb[4096];
    pb_json_array(j, key);
    for (int i = from; i < to; i++)
        pb_json_str(j, NULL, pb_route_format(w->tb->f, w->g.turns[i].nodes, w->g.turns[i].len, 0, rb, sizeof rb));
    pb_json_end(j);
}

static void print_longest_json(pb_json *j, const longest *w) {
    if (w->found > 0) {
        pb_json_object(j, "longest_win");
        pb_json_int(j, "layer", w->layer);
        pb_json_int(j, "distance", pb_tb_distance(w->v));
        pb_json_str(j, "to_move", w->p.to_move == PB_TOP ? "top" : "bottom");
        if (w->prefix >= 0) {
            json_turns(j, "way", w, 0, w->prefix);
            json_turns(j, "line", w, w->prefix, w->g.nturns);
        }
        pb_json_end(j);
    }
    pb_json_end(j);
}

static void print_longest_text(longest *w) {
    char vb[32], rb[4096];
    const pb_game *g = &w->g;
    if (w->found == 0) printf("no position is a forced win\n");
    if (w->found <= 0) return;
    printf("longest forced win: %s for %s, layer %d\n", pb_tb_describe(w->v, vb, sizeof vb),
           pb_player_name(w->p.to_move), w->layer);
    if (w->prefix < 0) return;
    printf("  reached by:");
    for (int i = 0; i < w->prefix; i++)
        printf(" %s", pb_route_format(w->tb->f, g->turns[i].nodes, g->turns[i].len, 0, rb, sizeof rb));
    printf("%s\n  line:", w->prefix ? "" : " (the root itself)");
    for (int i = w->prefix; i < g->nturns; i++)
        printf(" %s", pb_route_format(w->tb->f, g->turns[i].nodes, g->turns[i].len, 0, rb, sizeof rb));
    printf("\n  result: %s\n", pb_game_result(g, rb, sizeof rb));
}

/* --svg: the way and the line of the longest forced win. */
static int draw_longest(const longest *w, const char *path) {
    char title[128], vb[32];
    pb_diagram_opts dop;
    memset(&dop, 0, sizeof dop);
    dop.highlight_from = w->prefix;
    snprintf(title, sizeof title, "longest forced win: %s", pb_tb_describe(w->v, vb, sizeof vb));
    dop.title = title;
    char *svg = pb_diagram_svg(&w->g, &dop);
    int rc = pb_write_file(path, svg);
    free(svg);
    return rc;
}

static int tb_stats(int argc, char **argv) {
    pb_opts o;
    pb_tb *tb = NULL;
    const pb_option options[] = {PB_OPT_SVG(o, "draw the longest forced win into FILE"), PB_OPT_JSON(o), PB_OPT_END};
    const pb_command cmd = {"tb stats", "FILE [options]",
                            "Positions per layer by value, the share the first player wins, and the\n"
                            "longest forced win with a way to it and its line of perfect play.\n",
                            options, 0};
    int rc = open_table(&cmd, argc, argv, &o, &tb);
    if (rc != PB_CLI_GO) return rc;
    rc = PB_EXIT_OK;
    pb_json j;
    pb_json_init(&j, stdout);
    print_layers(tb, o.json ? &j : NULL);
    longest w = {.tb = tb};
    pb_game_init(&w.g, tb->f, tb->h.root_to_move);
    w.found = longest_win(tb, &w.g, &w.layer, &w.p, &w.v, &w.prefix);
    if (w.found < 0) rc = PB_EXIT_USAGE;
    if (o.json) print_longest_json(&j, &w);
    else print_longest_text(&w);
    if (o.svg && w.prefix >= 0) {
        int st = draw_longest(&w, o.svg);
        if (st != PB_EXIT_OK) rc = st;
    }
    pb_game_free(&w.g);
    pb_tb_close(tb);
    return rc;
}

int cmd_tb(int argc, char **argv) {
    static const char *subs = "build, estimate, probe, verify or stats";
    if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        FILE *out = argc < 1 ? stderr : stdout;
        fprintf(out,
                "usage: paperball tb build|estimate|probe|verify|stats ...\n\n%s\n"
                "  build      build a tablebase file (--out FILE)\n"
                "  estimate   the size of every layer, from a sample\n"
                "  probe      value, distance and every turn of a position\n"
                "  verify     check a file independently of the builder\n"
                "  stats      positions per layer by value, the longest forced win\n\n"
                "'paperball tb <command> --help' lists the options of one.\n",
                about_tb);
        return argc < 1 ? PB_EXIT_USAGE : PB_EXIT_OK;
    }
    const char *sub = argv[0];
    if (!strcmp(sub, "build")) return tb_build(argc - 1, argv + 1, 0);
    if (!strcmp(sub, "estimate")) return tb_build(argc - 1, argv + 1, 1);
    if (!strcmp(sub, "probe")) return tb_probe(argc - 1, argv + 1);
    if (!strcmp(sub, "verify")) return tb_verify(argc - 1, argv + 1);
    if (!strcmp(sub, "stats")) return tb_stats(argc - 1, argv + 1);
    return pb_fail(PB_EXIT_USAGE, "unknown tb command '%s': expected %s", sub, subs);
}
