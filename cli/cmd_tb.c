/* cmd_tb.c - `paperball tb`: build, probe, verify and describe tablebases
 * (tablebase/tablebase.h, docs/tablebase.md). */
#include <stdlib.h>
#include <string.h>

#include "../solver/diagram.h"
#include "../solver/search.h"
#include "../tablebase/line.h"
#include "../tablebase/tablebase.h"
#include "cli.h"

static const char usage[] =
    "usage: paperball tb build [options] --out FILE\n"
    "       paperball tb estimate [options]\n"
    "       paperball tb probe FILE [--record TEXT | --record-file F] [--json]\n"
    "       paperball tb verify FILE [--threads N] [--json]\n"
    "       paperball tb stats FILE [--svg PICTURE] [--json]\n\n"
    "Tablebases (book and hockey): every position between turns reachable from the\n"
    "start (or from --record), with its value and distance for the player to move\n"
    "(the turns still to be played with perfect play).  build finds the layers\n"
    "forward, solves them backward and writes FILE (docs/tablebase.md); --memory\n"
    "caps its memory (a stop keeps the finished layers: rerun to go on).  estimate\n"
    "guesses the size of every layer from a sample.  probe answers one position and\n"
    "every turn from it, best first; verify checks a file independently of the\n"
    "builder (exit 1 if an entry is wrong); stats counts positions per layer by\n"
    "value and finds the longest forced win.\n";

static const char *value_key(uint8_t v) {
    int x = pb_tb_value(v);
    return x > 0 ? "win" : x < 0 ? "loss" : "draw";
}

/* ---- build and estimate ---- */

static void print_estimate(const pb_field *f, const pb_position *root, FILE *out) {
    double est[PB_MAX_LATTICE + 1];
    int exact_upto;
    int dmax = pb_tb_estimate(f, root, 200000, 20000, 1, est, &exact_upto);
    int widest = pb_tb_layer_of(f, root);
    for (int d = widest; d <= dmax; d++)
        if (est[d] > est[widest]) widest = d;
    pb_tb_keyfmt k;
    pb_tb_keyfmt_init(&k, f);
    fprintf(out, "estimate: layers %d..%d, exact up to layer %d, sampled after\n", pb_tb_layer_of(f, root), dmax,
            exact_upto);
    for (int d = pb_tb_layer_of(f, root); d <= dmax; d++)
        fprintf(out, "estimate: layer %d: %s%.0f classes\n", d, d > exact_upto ? "~" : "", est[d]);
    double peak = 0;
    for (int d = pb_tb_layer_of(f, root); d < dmax; d++) {
        double b = (est[d] + est[d + 1]) * (8.0 * k.kw + 1);
        if (b > peak) peak = b;
    }
    fprintf(out, "estimate: widest layer %d with %s%.0f classes; two layers in memory need ~%.2f GiB\n", widest,
            widest > exact_upto ? "~" : "", est[widest], peak / (1 << 30));
}

static int tb_build(int argc, char **argv, int estimate_only) {
    pb_opts o;
    pb_field *f;
    pb_game g;
    int rc = pb_cli_begin(argc, argv, usage, &o, &f, &g);
    if (rc != PB_CLI_GO) return rc;
    rc = PB_EXIT_OK;
    if (f->spec.rules == PB_RULES_TRIPLE) {
        rc = pb_fail(PB_EXIT_USAGE, "tablebases are built for book and hockey only: triple turns have no layering "
                                    "in which every turn goes one layer deeper (docs/tablebase.md)");
    } else if (g.end != PB_END_NONE) {
        rc = pb_fail(PB_EXIT_USAGE, "the record's game is over: there is nothing to tabulate");
    } else if (!estimate_only && !o.out) {
        rc = pb_fail(PB_EXIT_USAGE, "tb build needs --out FILE");
    }
    if (rc != PB_EXIT_OK || estimate_only) {
        if (rc == PB_EXIT_OK) print_estimate(f, &g.pos, stdout);
        pb_game_free(&g);
        pb_field_free(f);
        return rc;
    }
    if (!o.quiet) print_estimate(f, &g.pos, stderr);
    pb_tb_build_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.threads = o.threads;
    bo.memory = o.memory ? pb_parse_size(o.memory) : 0;
    bo.progress = o.quiet ? NULL : stderr;
    pb_tb_build_result res;
    pb_tb_status st = pb_tb_build(f, &g.pos, o.out, &bo, &res);
    if (st != PB_TB_OK) {
        rc = pb_fail(st == PB_TB_BAD ? PB_EXIT_USAGE : PB_EXIT_FAIL, "%s", res.message);
    } else {
        char desc[128], vb[32];
        double bpp = res.positions ? (double)res.file_bytes / (double)res.positions : 0;
        if (o.json) {
            printf("{\"rules\":\"%s\",\"field\":", pb_rules_name(f->spec.rules));
            pb_json_string(stdout, pb_field_describe(f, desc, sizeof desc));
            printf(",\"file\":");
            pb_json_string(stdout, o.out);
            printf(",\"layers\":[%d,%d],\"classes\":%llu,\"positions\":%llu,\"widest_layer\":%d,"
                   "\"widest_classes\":%llu,\"value\":\"%s\",\"distance\":%d,\"bytes\":%lld,"
                   "\"bytes_per_position\":%.3f,\"peak_memory\":%lld,\"seconds\":%.3f,\"forward_seconds\":%.3f,"
                   "\"backward_seconds\":%.3f,\"cpu_seconds\":%.3f}\n",
                   res.d0, res.dmax, (unsigned long long)res.classes, (unsigned long long)res.positions,
                   res.widest_layer, (unsigned long long)res.widest_classes, value_key(res.root_value),
                   res.root_value ? pb_tb_distance(res.root_value) : 0, res.file_bytes, bpp, res.peak_memory,
                   res.seconds, res.forward_seconds, res.backward_seconds, res.cpu_seconds);
        } else {
            printf("field        %s\n", pb_field_describe(f, desc, sizeof desc));
            printf("file         %s, %lld bytes, %.3f bytes per position\n", o.out, res.file_bytes, bpp);
            printf("layers       %d..%d, widest %d (%llu classes)\n", res.d0, res.dmax, res.widest_layer,
                   (unsigned long long)res.widest_classes);
            printf("stored       %llu classes (left-right mirror classes) = %llu positions\n",
                   (unsigned long long)res.classes, (unsigned long long)res.positions);
            printf("root         %s for %s (the player to move)\n", pb_tb_describe(res.root_value, vb, sizeof vb),
                   pb_player_name(g.pos.to_move));
            printf("time         %.2f s (forward %.2f s, backward %.2f s), %.2f s of CPU%s\n", res.seconds,
                   res.forward_seconds, res.backward_seconds, res.cpu_seconds,
                   res.resumed_forward || res.resumed_backward ? ", resumed" : "");
            printf("peak memory  %.1f MiB in layers and buffers\n", (double)res.peak_memory / 1048576.0);
        }
    }
    pb_game_free(&g);
    pb_field_free(f);
    return rc;
}

/* ---- reading commands: FILE first, then the options ---- */

static int open_table(int argc, char **argv, pb_opts *o, pb_tb **tb) {
    if (argc > 0 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        fputs(usage, stdout);
        return PB_EXIT_OK;
    }
    if (pb_opts_parse(o, argc, argv)) return PB_EXIT_USAGE;
    if (o->nargs < 1) return pb_fail(PB_EXIT_USAGE, "name the tablebase file");
    char err[600];
    *tb = pb_tb_open(o->args[0], 1, err, sizeof err);
    if (!*tb) return pb_fail(PB_EXIT_USAGE, "%s", err);
    /* The remaining positional argument, if any, is a record file. */
    for (int i = 1; i < o->nargs; i++) o->args[i - 1] = o->args[i];
    o->nargs--;
    return PB_CLI_GO;
}

static int tb_probe(int argc, char **argv) {
    pb_opts o;
    pb_tb *tb = NULL;
    int rc = open_table(argc, argv, &o, &tb);
    if (rc != PB_CLI_GO) return rc;
    rc = PB_EXIT_OK;
    pb_game g;
    char err[600], vb[32], rb[4096];
    if (!o.first) o.first = tb->h.root_to_move == PB_BOTTOM && tb->h.d0 == 0 ? "bottom" : "top";
    if (pb_cli_game(&o, tb->f, &g)) {
        pb_tb_close(tb);
        return PB_EXIT_USAGE;
    }
    rc = PB_EXIT_OK;
    int d = pb_tb_layer_of(tb->f, &g.pos);
    pb_tb_layer L, N;
    memset(&L, 0, sizeof L), memset(&N, 0, sizeof N);
    int v = -1;
    if (g.end != PB_END_NONE) rc = pb_fail(PB_EXIT_USAGE, "the game is over: %s", pb_game_result(&g, rb, sizeof rb));
    else if (pb_tb_load(tb, d, &L, err, sizeof err) || pb_tb_load(tb, d + 1, &N, err, sizeof err))
        rc = pb_fail(PB_EXIT_USAGE, "%s", err);
    else if (g.pos.to_move != L.to_move || (v = pb_tb_lookup(tb, &L, &g.pos)) < 0)
        rc = pb_fail(PB_EXIT_USAGE, "the position is not in this tablebase (not reachable from its root)");
    pb_tb_turn *t = NULL;
    long n = 0;
    if (rc == PB_EXIT_OK && (n = pb_tb_turns(tb, &N, &g.pos, &t)) < 0)
        rc = pb_fail(PB_EXIT_FAIL, "a successor is missing from the tablebase: the file is inconsistent");
    if (rc == PB_EXIT_OK) {
        uint8_t val = (uint8_t)v;
        if (o.json) {
            printf("{\"to_move\":\"%s\",\"layer\":%d,\"value\":\"%s\",\"distance\":%d,\"turns\":[",
                   g.pos.to_move == PB_TOP ? "top" : "bottom", d, value_key(val), val ? pb_tb_distance(val) : 0);
            for (long i = 0; i < n; i++) {
                printf("%s{\"route\":", i ? "," : "");
                pb_json_string(stdout, pb_route_format(tb->f, t[i].nodes, t[i].len, 0, rb, sizeof rb));
                printf(",\"ends\":%s,\"value\":\"%s\",\"distance\":%d}", t[i].end != PB_END_NONE ? "true" : "false",
                       value_key(t[i].value), t[i].value ? pb_tb_distance(t[i].value) : 0);
            }
            printf("]}\n");
        } else {
            printf("position     layer %d, %s to move\n", d, pb_player_name(g.pos.to_move));
            printf("value        %s for %s\n", pb_tb_describe(val, vb, sizeof vb), pb_player_name(g.pos.to_move));
            printf("turns        %ld, best first (value for %s after the turn)\n", n, pb_player_name(g.pos.to_move));
            for (long i = 0; i < n; i++)
                printf("  %-28s %-12s%s\n", pb_route_format(tb->f, t[i].nodes, t[i].len, 0, rb, sizeof rb),
                       pb_tb_describe(t[i].value, vb, sizeof vb), t[i].end != PB_END_NONE ? " ends the game" : "");
        }
    }
    if (t) pb_tb_turns_free(t, n);
    pb_tb_layer_free(&L), pb_tb_layer_free(&N);
    pb_game_free(&g);
    pb_tb_close(tb);
    return rc;
}

static int tb_verify(int argc, char **argv) {
    pb_opts o;
    pb_tb *tb = NULL;
    int rc = open_table(argc, argv, &o, &tb);
    if (rc != PB_CLI_GO) return rc;
    rc = PB_EXIT_OK;
    pb_tb_verify_result res;
    char err[600];
    pb_position start, root;
    pb_position_start(tb->f, &start, tb->h.root_to_move);
    pb_tb_root(tb, &root);
    int from_start = pb_position_equal(tb->f, &start, &root);
    int v = pb_tb_verify(tb, o.threads, &res, err, sizeof err);
    if (v == 2) rc = pb_fail(PB_EXIT_USAGE, "%s", err);
    else if (o.json)
        printf("{\"ok\":%s,\"entries\":%llu,\"routes\":%llu,\"errors\":%llu,\"root_is_start\":%s,\"first_error\":",
               v ? "false" : "true", (unsigned long long)res.checked, (unsigned long long)res.routes,
               (unsigned long long)res.errors, from_start ? "true" : "false"),
            pb_json_string(stdout, res.first_error), printf("}\n");
    else {
        printf("checked      %llu entries, %llu routes; checksums and header counts\n",
               (unsigned long long)res.checked, (unsigned long long)res.routes);
        printf("root         %s\n", from_start ? "the start" : "a position after some turns");
        if (v) printf("result       WRONG: %llu errors; first: %s\n", (unsigned long long)res.errors, res.first_error);
        else printf("result       every entry holds\n");
    }
    if (v == 1) rc = PB_EXIT_FAIL;
    pb_tb_close(tb);
    return rc;
}

static int tb_stats(int argc, char **argv) {
    pb_opts o;
    pb_tb *tb = NULL;
    int rc = open_table(argc, argv, &o, &tb);
    if (rc != PB_CLI_GO) return rc;
    rc = PB_EXIT_OK;
    const pb_tb_header *h = &tb->h;
    char desc[128], err[600], vb[32], rb[4096];
    /* The player who moved first in the game: the root's mover if the root
     * is the start, else the one the layer parity makes first. */
    int first = pb_tb_to_move(h, 0);
    if (o.json) {
        printf("{\"rules\":\"%s\",\"field\":", pb_rules_name(tb->f->spec.rules));
        pb_json_string(stdout, pb_field_describe(tb->f, desc, sizeof desc));
        printf(",\"layers\":[");
    } else {
        printf("field  %s; %s; counts are positions (classes: left-right mirror pairs stored once)\n",
               pb_field_describe(tb->f, desc, sizeof desc), tb->version);
        printf("%5s %8s %12s %12s %12s %12s %12s %14s\n", "layer", "to move", "classes", "positions", "wins",
               "draws", "losses", "first-player");
    }
    for (int d = h->d0; d <= h->dmax; d++) {
        const pb_tb_layer_counts *c = &h->layer[d - h->d0];
        int mover = pb_tb_to_move(h, d);
        uint64_t fw = mover == first ? c->positions_by[2] : c->positions_by[0];
        double share = c->positions ? (double)fw / (double)c->positions : 0;
        if (o.json)
            printf("%s{\"layer\":%d,\"to_move\":\"%s\",\"classes\":%llu,\"positions\":%llu,\"wins\":%llu,"
                   "\"draws\":%llu,\"losses\":%llu,\"first_player_wins\":%.6f}",
                   d > h->d0 ? "," : "", d, mover == PB_TOP ? "top" : "bottom", (unsigned long long)c->classes,
                   (unsigned long long)c->positions, (unsigned long long)c->positions_by[2],
                   (unsigned long long)c->positions_by[1], (unsigned long long)c->positions_by[0], share);
        else
            printf("%5d %8s %12llu %12llu %12llu %12llu %12llu %13.2f%%\n", d, pb_player_name(mover),
                   (unsigned long long)c->classes, (unsigned long long)c->positions,
                   (unsigned long long)c->positions_by[2], (unsigned long long)c->positions_by[1],
                   (unsigned long long)c->positions_by[0], 100 * share);
    }
    int layer = 0;
    uint8_t v = 0;
    pb_position p, root;
    int found = pb_tb_longest_win(tb, &layer, &p, &v, err, sizeof err);
    if (found < 0) rc = pb_fail(PB_EXIT_USAGE, "%s", err);
    uint64_t rk[PB_TB_MAX_KW];
    pb_tb_root(tb, &root);
    pb_game g;
    pb_game_init(&g, tb->f, h->root_to_move);
    int start = pb_position_equal(tb->f, &g.pos, &root) && pb_tb_canon(tb->f, &tb->k, &root, rk) == 1;
    int prefix = -1;
    if (found > 0 && start && !pb_tb_play_path(tb, &g, &p, err, sizeof err)) {
        prefix = g.nturns;
        if (pb_tb_play_line(tb, &g, err, sizeof err)) prefix = -1;
    }
    if (o.json) {
        printf("]");
        if (found > 0) {
            printf(",\"longest_win\":{\"layer\":%d,\"distance\":%d,\"to_move\":\"%s\"", layer, pb_tb_distance(v),
                   p.to_move == PB_TOP ? "top" : "bottom");
            if (prefix >= 0) {
                printf(",\"way\":\"");
                for (int i = 0; i < g.nturns; i++) {
                    if (i == prefix) printf("\",\"line\":\"");
                    else if (i) putchar(' ');
                    printf("%s", pb_route_format(tb->f, g.turns[i].nodes, g.turns[i].len, 0, rb, sizeof rb));
                }
                printf("\"");
            }
            printf("}");
        }
        printf("}\n");
    } else if (found > 0) {
        printf("longest forced win: %s for %s, layer %d\n", pb_tb_describe(v, vb, sizeof vb), pb_player_name(p.to_move),
               layer);
        if (prefix >= 0) {
            printf("  reached by:");
            for (int i = 0; i < prefix; i++)
                printf(" %s", pb_route_format(tb->f, g.turns[i].nodes, g.turns[i].len, 0, rb, sizeof rb));
            printf("%s\n  line:", prefix ? "" : " (the root itself)");
            for (int i = prefix; i < g.nturns; i++)
                printf(" %s", pb_route_format(tb->f, g.turns[i].nodes, g.turns[i].len, 0, rb, sizeof rb));
            printf("\n  result: %s\n", pb_game_result(&g, rb, sizeof rb));
        }
    } else if (found == 0) {
        printf("no position is a forced win\n");
    }
    if (o.svg && prefix >= 0) {
        pb_diagram_opts dop;
        memset(&dop, 0, sizeof dop);
        dop.highlight_from = prefix;
        snprintf(desc, sizeof desc, "longest forced win: %s", pb_tb_describe(v, vb, sizeof vb));
        dop.title = desc;
        char *svg = pb_diagram_svg(&g, &dop);
        FILE *out = fopen(o.svg, "w");
        if (!out || fputs(svg, out) < 0) rc = pb_fail(PB_EXIT_FAIL, "cannot write %s", o.svg);
        if (out) fclose(out);
        free(svg);
    }
    pb_game_free(&g);
    pb_tb_close(tb);
    return rc;
}

int cmd_tb(int argc, char **argv) {
    if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        fputs(usage, argc < 1 ? stderr : stdout);
        return argc < 1 ? PB_EXIT_USAGE : PB_EXIT_OK;
    }
    const char *sub = argv[0];
    if (!strcmp(sub, "build")) return tb_build(argc - 1, argv + 1, 0);
    if (!strcmp(sub, "estimate")) return tb_build(argc - 1, argv + 1, 1);
    if (!strcmp(sub, "probe")) return tb_probe(argc - 1, argv + 1);
    if (!strcmp(sub, "verify")) return tb_verify(argc - 1, argv + 1);
    if (!strcmp(sub, "stats")) return tb_stats(argc - 1, argv + 1);
    return pb_fail(PB_EXIT_USAGE, "unknown tb command '%s': expected build, estimate, probe, verify or stats", sub);
}
