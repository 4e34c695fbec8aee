/* cmd_perft.c - `paperball perft`: turn sequences (and, asked, distinct
 * positions) per depth, or per first turn (--divide); one position, or one
 * line per record with --batch. */
#include <stdlib.h>
#include <string.h>

#include "../solver/json.h"
#include "../solver/perft.h"
#include "cli.h"
#include "stop.h"

typedef struct perft_opts {
    pb_opts o;
    int positions; /* --positions: breadth-first, with positions(d) */
    int divide;    /* --divide: perft(D) per first turn */
} perft_opts;

typedef struct first_turn {
    char *name;
    pb_position after;
    int ends;
} first_turn;

typedef struct divide_ctx {
    first_turn *t;
    size_t n, cap;
} divide_ctx;

/* The next free slot of x, made room for; NULL when memory runs out. */
static first_turn *next_turn(divide_ctx *x) {
    if (x->n < x->cap) return &x->t[x->n++];
    size_t cap = x->cap ? 2 * x->cap : 64;
    first_turn *t = realloc(x->t, cap * sizeof *t);
    if (!t) return NULL;
    x->t = t, x->cap = cap;
    return &x->t[x->n++];
}

static int collect_turn(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    first_turn *t = next_turn(c);
    if (!t) return 1;
    char buf[4096];
    t->name = strdup(pb_route_format(f, r->nodes, r->len, r->kick, buf, sizeof buf));
    t->after = *after;
    t->ends = r->end != PB_END_NONE;
    return 0;
}

/* perft(depth) for each first turn from g's position, then the total. */
static int divide(const perft_opts *po, const pb_field *f, pb_game *g, int depth) {
    const pb_opts *o = &po->o;
    divide_ctx x = {NULL, 0, 0};
    if (g->end == PB_END_NONE) pb_routes_foreach(f, &g->pos, collect_turn, &x);
    pb_perft_row *rows = calloc((size_t)depth, sizeof *rows);
    uint64_t total = 0;
    int overflow = 0, oom = !rows;
    pb_json j;
    if (o->json) {
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        pb_json_int(&j, "depth", depth);
        pb_json_array(&j, "divide");
    }
    volatile sig_atomic_t *stop = pb_stop_flag();
    size_t done = 0;
    for (size_t i = 0; i < x.n; i++) {
        uint64_t n = depth == 1;
        if (depth > 1 && !x.t[i].ends && !oom && !*stop) {
            int rc = pb_perft_count_until(f, &x.t[i].after, depth - 1, o->threads, stop, rows);
            oom |= rc == -1;
            n = rows[depth - 2].sequences;
            overflow |= rows[depth - 2].overflow;
        }
        if (*stop) { /* this turn's count is not whole: not printed */
            free(x.t[i].name);
            continue;
        }
        done++;
        overflow |= __builtin_add_overflow(total, n, &total);
        if (o->json) {
            pb_json_object(&j, NULL);
            pb_json_str(&j, "turn", x.t[i].name);
            pb_json_uint(&j, "sequences", n);
            pb_json_end(&j);
        } else {
            /* Each line out as it is counted: a run killed later keeps it. */
            printf("%-24s %20llu\n", x.t[i].name, (unsigned long long)n);
            fflush(stdout);
        }
        free(x.t[i].name);
    }
    if (o->json) {
        pb_json_end(&j);
        pb_json_uint(&j, "turns", x.n);
        if (*stop) pb_json_bool(&j, "stopped", 1);
        else pb_json_uint(&j, "sequences", total);
        pb_cli_json_version(&j);
        pb_json_end(&j);
    } else if (!*stop) printf("%zu turns, perft(%d) = %llu\n", x.n, depth, (unsigned long long)total);
    free(x.t);
    free(rows);
    if (*stop)
        return pb_fail(PB_EXIT_STOPPED, "stopped by %s after %zu of %zu first turns: no total", pb_stop_by("a signal"),
                       done, x.n);
    if (oom) return pb_fail(PB_EXIT_MEMORY, "out of memory");
    if (overflow) return pb_fail(PB_EXIT_FAIL, "a count overflowed 64 bits; paperball enumerate counts exactly");
    return PB_EXIT_OK;
}

/* Where the rows of one position go: a JSON object, one batch line
 * (line > 0) or a table; pos: with positions(d). */
typedef struct rows_out {
    pb_json j;
    int json, line, pos, depth;
} rows_out;

static void rows_begin(rows_out *out) {
    if (out->json) {
        pb_json_init(&out->j, stdout);
        pb_json_object(&out->j, NULL);
        if (out->line) pb_json_int(&out->j, "line", out->line);
        pb_json_array(&out->j, "depths");
    } else if (out->line) {
        printf("line %d:", out->line);
    } else if (out->pos) {
        printf("%5s %20s %16s %16s\n", "depth", "sequences", "positions", "finished");
    } else {
        printf("%5s %20s %20s\n", "depth", "sequences", "finished");
    }
}

static void rows_print(rows_out *out, int d, const pb_perft_row *r) {
    unsigned long long seq = r->sequences, positions = r->positions, fin = r->finished;
    const char *more = d < out->depth ? ";" : "", *over = r->overflow ? "  (overflow: use enumerate)" : "";
    if (out->json) {
        pb_json_object(&out->j, NULL);
        pb_json_int(&out->j, "depth", d);
        pb_json_uint(&out->j, "sequences", seq);
        if (out->pos) pb_json_uint(&out->j, "positions", positions);
        pb_json_uint(&out->j, "finished", fin);
        pb_json_end(&out->j);
    } else if (out->line && out->pos) {
        printf(" %d: %llu %llu %llu%s", d, seq, positions, fin, more);
    } else if (out->line) {
        printf(" %d: %llu %llu%s", d, seq, fin, more);
    } else if (out->pos) {
        printf("%5d %20llu %16llu %16llu%s\n", d, seq, positions, fin, over);
    } else {
        printf("%5d %20llu %20llu%s\n", d, seq, fin, over);
    }
}

/* oom_depth: the depth at which memory ran out (0: it did not). */
static void rows_end(rows_out *out, int overflow, int stopped, int oom_depth) {
    if (out->json) {
        pb_json_end(&out->j);
        if (overflow) pb_json_bool(&out->j, "overflow", 1);
        if (stopped) pb_json_bool(&out->j, "stopped", 1);
        if (oom_depth) pb_json_int(&out->j, "out_of_memory_at_depth", oom_depth);
        pb_cli_json_version(&out->j);
        pb_json_end(&out->j);
    } else if (out->line) {
        printf("%s", overflow ? " (overflow)" : "");
        if (oom_depth) printf(" (out of memory at depth %d)", oom_depth);
        printf("\n");
    }
}

/* The perft rows of g's position: a table, a batch line or one JSON
 * object.  Depth 0 is shown only when asked for: the empty sequence, and
 * the position itself if the game goes on there. */
static int perft_position(void *ctx, const pb_field *f, pb_game *g, int line) {
    const perft_opts *po = ctx;
    const pb_opts *o = &po->o;
    int depth = o->depth >= 0 ? o->depth : 3, going = g->end == PB_END_NONE, pos = po->positions;
    if (po->divide) return divide(po, f, g, depth);
    pb_perft_row *rows = calloc((size_t)depth + 1, sizeof *rows);
    int n = 0, oom = !rows;
    volatile sig_atomic_t *stop = pb_stop_flag();
    int cut = 0; /* the depth-first count was cut short (a signal after it ended changes nothing) */
    if (going && depth > 0 && !oom) {
        if (pos) {
            n = pb_perft_until(f, &g->pos, depth, stop, rows);
            if (n > 0 && rows[n - 1].out_of_memory) oom = 1, n--; /* its partial row is not shown */
        } else {
            int crc = pb_perft_count_until(f, &g->pos, depth, o->threads, stop, rows);
            oom = crc == -1, cut = crc == -2, n = depth;
        }
    }
    /* Stopped: the layered count (--positions) prints the depths it
     * finished; the depth-first one finishes them all at once, so none. */
    int shown = cut ? -1 : (*stop || oom) && pos ? n : depth;
    if (shown < 0) {
        free(rows);
        if (line) return PB_EXIT_STOPPED; /* the batch says where it stopped */
        return pb_fail(PB_EXIT_STOPPED,
                       "stopped by %s before perft(%d) was counted (the depth-first count finishes "
                       "every depth at the end; --positions prints each depth as it is finished)",
                       pb_stop_by("a signal"), depth);
    }
    rows_out out = {.json = o->json, .line = line, .pos = pos, .depth = shown};
    rows_begin(&out);
    int overflow = 0;
    for (int d = depth ? 1 : 0; d <= shown; d++) {
        pb_perft_row r = d == 0           ? (pb_perft_row){0, 1, (uint64_t)going, 0, 0, 0}
                         : d <= n && rows ? rows[d - 1]
                                          : (pb_perft_row){d, 0, 0, 0, 0, 0};
        overflow |= r.overflow;
        rows_print(&out, d, &r);
    }
    rows_end(&out, overflow, shown < depth, oom && pos ? n + 1 : 0);
    free(rows);
    if (oom && pos && line) return PB_EXIT_MEMORY;
    if (oom && pos) return pb_fail(PB_EXIT_MEMORY, "out of memory counting depth %d: depths 1..%d counted", n + 1, n);
    if (shown < depth && line) return PB_EXIT_STOPPED;
    if (shown < depth)
        return pb_fail(PB_EXIT_STOPPED, "stopped by %s: depths 1..%d counted, depth %d not finished",
                       pb_stop_by("a signal"), shown, shown + 1);
    if (oom) return pb_fail(PB_EXIT_MEMORY, "out of memory");
    if (overflow && !line)
        return pb_fail(PB_EXIT_FAIL, "a count overflowed 64 bits; paperball enumerate counts exactly");
    return overflow ? PB_EXIT_FAIL : PB_EXIT_OK;
}

int cmd_perft(int argc, char **argv) {
    perft_opts po = {0};
    pb_opts *o = &po.o;
    const pb_option options[] = {
        PB_OPTS_FIELD(*o),
        PB_OPTS_RECORD(*o),
        PB_OPT_BATCH(*o),
        PB_OPT_DEPTH(*o, "count to depth D in turns (default 3; 0: the empty sequence only)"),
        PB_OPT_THREADS(*o, "OpenMP threads sharing the subtrees (the counts do not depend on it)"),
        PB_OPT_FLAG("positions", &po.positions,
                    "also positions(d), the distinct positions after d turns where the game\n"
                    "goes on (breadth-first: every position of a depth is kept)"),
        PB_OPT_FLAG("divide", &po.divide, "perft(D) for each first turn, then their total"),
        PB_OPT_JSON(*o),
        PB_OPT_MATCH(*o),
        PB_OPT_END};
    const pb_command cmd = {"perft", "[options] [RECORD-FILE|-]",
                            "For each depth 1..D (default 3) prints perft(d), the number of sequences of\n"
                            "exactly d turns from the position, and finished(d), those whose last turn ends\n"
                            "the game (docs/rules.md).  The count keeps the distinct positions of the first\n"
                            "depths while they are few, then goes depth-first from each: each turn's\n"
                            "distinct outcomes come with their numbers of routes, the last turn's routes are\n"
                            "counted without being played.  With --batch,\n"
                            "one line per record: 'line N: 1: SEQUENCES FINISHED; 2: ...' (with\n"
                            "--positions: 'SEQUENCES POSITIONS FINISHED').  Ctrl-C or SIGTERM: exit 3,\n"
                            "the depths finished printed (with --positions; depth-first, none).\n",
                            options, 1};
    int rc = pb_cli_parse(&cmd, argc, argv, o);
    if (rc != PB_CLI_GO) return rc;
    if (po.divide && o->depth == 0) return pb_fail(PB_EXIT_USAGE, "--divide needs --depth 1 or more");
    if (o->match) return pb_cli_match_run(o, pb_cli_match_perft);
    /* Ctrl-C and SIGTERM end the count early (exit 3): what is finished is
     * printed, then one line says where it stopped. */
    struct sigaction old[2];
    pb_stop_catch(old);
    rc = pb_cli_each_position(o, perft_position, &po);
    pb_stop_restore(old);
    return rc;
}
