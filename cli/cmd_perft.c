/* cmd_perft.c - `paperball perft`: turn sequences (and, asked, distinct
 * positions) per depth, or per first turn (--divide). */
#include <stdlib.h>
#include <string.h>

#include "../solver/perft.h"
#include "cli.h"

static const char usage[] =
    "usage: paperball perft [options] [--depth D] [--threads N] [--positions] [--divide] [RECORD-FILE]\n\n"
    "For each depth 1..D (default 3) prints perft(d), the number of sequences of\n"
    "exactly d turns from the position, and finished(d), those whose last turn ends\n"
    "the game (docs/rules.md).  The count is depth-first and stores nothing: each\n"
    "turn's distinct outcomes are found with their numbers of routes, and --threads N\n"
    "shares the subtrees (the counts do not depend on it).\n\n"
    "  --positions   also positions(d), the distinct positions after d turns where the\n"
    "                game goes on (breadth-first: every position of a depth is kept)\n"
    "  --divide      perft(D) for each first turn, then their total\n"
    "  --depth 0     the empty sequence only: perft(0) = 1\n";

typedef struct first_turn {
    char *name;
    pb_position after;
    int ends;
} first_turn;

typedef struct divide_ctx {
    first_turn *t;
    size_t n, cap;
} divide_ctx;

static int collect_turn(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    divide_ctx *x = c;
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 64;
        x->t = realloc(x->t, x->cap * sizeof *x->t);
    }
    char buf[4096];
    first_turn *t = &x->t[x->n++];
    t->name = strdup(pb_route_format(f, r->nodes, r->len, r->kick, buf, sizeof buf));
    t->after = *after;
    t->ends = r->end != PB_END_NONE;
    return 0;
}

/* perft(depth) for each first turn from the game's position. */
static int divide(const pb_opts *o, const pb_field *f, pb_game *g, int depth) {
    divide_ctx x = {NULL, 0, 0};
    if (g->end == PB_END_NONE) pb_routes_foreach(f, &g->pos, collect_turn, &x);
    pb_perft_row *rows = calloc((size_t)depth, sizeof *rows);
    uint64_t total = 0;
    int overflow = 0, oom = 0;
    if (o->json) printf("{\"depth\":%d,\"divide\":[", depth);
    for (size_t i = 0; i < x.n; i++) {
        uint64_t n = depth == 1;
        if (depth > 1 && !x.t[i].ends) {
            oom |= pb_perft_count(f, &x.t[i].after, depth - 1, o->threads, rows) != 0;
            n = rows[depth - 2].sequences;
            overflow |= rows[depth - 2].overflow;
        }
        overflow |= __builtin_add_overflow(total, n, &total);
        if (o->json) {
            printf("%s{\"turn\":", i ? "," : "");
            pb_json_string(stdout, x.t[i].name);
            printf(",\"sequences\":%llu}", (unsigned long long)n);
        } else printf("%-24s %20llu\n", x.t[i].name, (unsigned long long)n);
        free(x.t[i].name);
    }
    if (o->json) printf("],\"turns\":%zu,\"sequences\":%llu}\n", x.n, (unsigned long long)total);
    else printf("%zu turns, perft(%d) = %llu\n", x.n, depth, (unsigned long long)total);
    free(x.t);
    free(rows);
    if (oom) return pb_fail(PB_EXIT_FAIL, "out of memory");
    if (overflow) return pb_fail(PB_EXIT_FAIL, "a count overflowed 64 bits; paperball enumerate counts exactly");
    return PB_EXIT_OK;
}

int cmd_perft(int argc, char **argv) {
    pb_opts o;
    pb_field *f;
    pb_game g;
    int rc = pb_cli_begin(argc, argv, usage, &o, &f, &g);
    if (rc != PB_CLI_GO) return rc;
    int depth = o.depth >= 0 ? o.depth : 3;
    int going = g.end == PB_END_NONE;
    if (o.divide) {
        rc = depth < 1 ? pb_fail(PB_EXIT_USAGE, "--divide needs --depth 1 or more") : divide(&o, f, &g, depth);
        pb_game_free(&g);
        pb_field_free(f);
        return rc;
    }
    pb_perft_row *rows = calloc((size_t)depth + 1, sizeof *rows);
    int n = 0, oom = 0;
    if (going && depth > 0) {
        if (o.positions) n = pb_perft(f, &g.pos, depth, rows);
        else oom = pb_perft_count(f, &g.pos, depth, o.threads, rows) != 0, n = depth;
    }
    if (o.json) printf("{\"depths\":[");
    else if (o.positions) printf("%5s %20s %16s %16s\n", "depth", "sequences", "positions", "finished");
    else printf("%5s %20s %20s\n", "depth", "sequences", "finished");
    int overflow = 0;
    /* Depth 0 is shown only when asked for: the empty sequence, and the
     * position itself if the game goes on there. */
    for (int d = depth ? 1 : 0; d <= depth; d++) {
        pb_perft_row r = d == 0 ? (pb_perft_row){0, 1, (uint64_t)going, 0, 0}
                         : d <= n ? rows[d - 1] : (pb_perft_row){d, 0, 0, 0, 0};
        overflow |= r.overflow;
        if (o.json) {
            printf("%s{\"depth\":%d,\"sequences\":%llu", d > (depth ? 1 : 0) ? "," : "", d,
                   (unsigned long long)r.sequences);
            if (o.positions) printf(",\"positions\":%llu", (unsigned long long)r.positions);
            printf(",\"finished\":%llu}", (unsigned long long)r.finished);
        } else if (o.positions)
            printf("%5d %20llu %16llu %16llu%s\n", d, (unsigned long long)r.sequences,
                   (unsigned long long)r.positions, (unsigned long long)r.finished,
                   r.overflow ? "  (overflow: use enumerate)" : "");
        else
            printf("%5d %20llu %20llu%s\n", d, (unsigned long long)r.sequences, (unsigned long long)r.finished,
                   r.overflow ? "  (overflow: use enumerate)" : "");
    }
    if (o.json) printf("]}\n");
    free(rows);
    pb_game_free(&g);
    pb_field_free(f);
    if (oom) return pb_fail(PB_EXIT_FAIL, "out of memory");
    if (overflow) return pb_fail(PB_EXIT_FAIL, "a count overflowed 64 bits; paperball enumerate counts exactly");
    return PB_EXIT_OK;
}
