/* bench_solve.c - `paperball bench --solve`: the solver on fixed positions
 * in several configurations (value first with 1 and N threads, every
 * first-turn class, keys without mirror images, reduced keys the other way
 * than the method's default, no quick tactics, an 8x larger table), and on
 * (2;8;10) endgames reached by seeded random play, many in one process,
 * with the method's keys and the other way: value, nodes, wall and CPU
 * time.  And `paperball
 * bench signature`: the total nodes of one-thread solves of the fixed
 * positions with a fixed table, a figure that changes exactly when the
 * search does (tests/bench_signature.txt holds the current one). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../solver/json.h"
#include "../solver/reach.h"
#include "../solver/search.h"
#include "bench.h"

typedef struct solve_pos {
    const char *name;
    pb_rules rules;
    int g, w, l, s;
    const char *record;
    int pn_only; /* alpha-beta takes minutes here: proof-number search only */
} solve_pos;

/* Records reached by random play (fixed once, so runs compare). */
static const solve_pos solve_set[] = {
    {"book (2;4;4) start", PB_RULES_BOOK, 2, 4, 4, 0, "", 0},
    {"hockey (2;4;6) S=1 start", PB_RULES_HOCKEY, 2, 4, 6, 1, "", 0},
    {"book (2;8;10) endgame", PB_RULES_BOOK, 2, 8, 10, 0,
     "e7-d8 d8-d7 d7-e6 e6-e7-d6 d6-d7-e7-f8 f8-e9 e9-d10 d10-e10 e10-f9 f9-f8-e8 e8-f9-e9-e8-d8-e9-d9 d9-e10-e9-f10 "
     "f10-e10-f11 f11-g12-g11 g11-f10-f11-g11-f12-f11-e11 e11-d12-c11 c11-d10-d9-e8-d7-c7 c7-d8-c8 c8-c7-c6 "
     "c6-d6-e6-f6 f6-e5 e5-e6-d5 d5-e5-f5 f5-f6-e7-e8-f7 f7-f6-g6 g6-f5-e6-f7-f8-g8 g8-f7-g6-g7 "
     "g7-g8-f9-f10-e11-f12-e12 e12-e11-d11 d11-e10-e11-d10-d11-e12-d12-d11-c12-c11-b12-a11-b10 b10-b9 "
     "b9-a10-b10-a9-b9-c8-d7-c6-d5-d6-e5-e4 e4-f5-g4 g4-g3 g3-f4 f4-e4-d3 d3-c2-b3 b3-b2-a3-b3-a4-b4 b4-c3 c3-d2-d3-c4 "
     "c4-b3-b4-c4-d5-e4-f3 f3-f2-g3-g2-f3-g4-f4-f3-g3-h4 h4-i3-h2-h3 h3-i4-h4-i5-h5 h5-g4-h3-h4-h5-g5 "
     "g5-f5-f4-g5-g4-h4-g5-g6-h5-h6 h6-i7-h7 h7-g7-f6-g5-h6-h7-i6-h6-g7-f8-g9 g9-g10 g10-h9",
     0},
    {"book (2;6;8) after 30 turns", PB_RULES_BOOK, 2, 6, 8, 0,
     "d6-d5 d5-e6 e6-f6 f6-g6-f7 f7-f6-g7-f8 f8-g8-f7-e7 e7-f8-g9-f10-f9 f9-f8-f7-e6-e7-d6-e6-f5 f5-f6-g5-f5-e4 "
     "e4-d5-c4 c4-c5 c5-d5-e5 e5-f5-g4-f3 f3-f2-g3-f3-e4-d4 d4-c5-d6-e5-e4-e3 e3-e2-d3 d3-d4-c4-b3 b3-b2-a3-b3-c3 "
     "c3-c2-d3-e3-d2 d2-e2-f3-e3-d4-c3-d2-d3-c3-c4-d3-e4-f4 f4-e5-f6-e7-d8 d8-c8 c8-d9 d9-e8 e8-d8-c9 "
     "c9-c10-d9-c9-b10-a9-b9 b9-a8-b7 b7-c8-c9-b9-b8 b8-b7-a7-b8-c7 c7-d8-e9",
     0},
    {"book (2;6;8) after 30 turns b", PB_RULES_BOOK, 2, 6, 8, 0,
     "d6-d7 d7-e6 e6-e5 e5-d6-d5 d5-e4 e4-f5 f5-e6-d5-e5-f4 f4-g4-f5-f4-f3 f3-e4-d3 d3-e2-f3-g3-f4-e4-e5-d4 d4-e3 "
     "e3-d3-d4-e4-e3-f4-g5-f5-g6-f6 f6-e5-f5-f6-e6-f7 f7-f8 f8-g8-f7-e8 e8-d7-c8 c8-c7 c7-d7-e7 "
     "e7-f8-g7-f6-f7-e7-e8-f8-g9-f9 f9-e10-d10 d10-d9 d9-c10-d10-e9 e9-f9-e8-e9-f8-f9-f10-e9-e10-d9-c8-b7 b7-c7-d6-c6 "
     "c6-b5 b5-c4 c4-d5-d4-c4-d3-c2-d2 d2-e2-e3-d2-c3 c3-c2-b3 b3-c3-b2-a3-b3-a4-b5-a6-b7-c6-b6",
     0},
    {"book (2;6;8) after 26 turns", PB_RULES_BOOK, 2, 6, 8, 0,
     "d6-c6 c6-c7 c7-d7 d7-c6-b7 b7-c7-d6-e5 e5-e6 e6-d6-d5 d5-e5-f5 f5-e6-d5-c6-b5 b5-a5-b6 "
     "b6-b5-a6-b7-a7-b6-b7-a8-b8 b8-a9-b9 b9-b8-b7-c8 c8-c7-b8-c8-b9-b10-c9 c9-b9-c10-c9-c8-d7-e6-f7 f7-g6-f5-g5-f4 "
     "f4-g3-f2-e3 e3-e2-f3 f3-f4-e3-f3-g4-f5-f6 f6-f7-g7-f6-e5-f4-f5-e4 e4-e3-d2 d2-c3 c3-c2-d2-d3 d3-c2-b3 "
     "b3-a3-b2-c3-b4 b4-b5-a4-b4-c5",
     0},
};

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One configuration of the solver, as a change from the default. */
typedef struct config {
    const char *name;
    int algo, threads2, first_turns, full_keys, no_tactics, big_hash;
    int reduce_limit; /* reduced keys: 0 the method's default, -1 none, else the limit */
    int pn_epsilon;   /* pn's 1+e slack in 1/1024: 0 the default */
} config;

/* Proof-number search (the default) and its parts, then alpha-beta. */
static const config configs[] = {
    {"pn value", PB_ALGO_PN, 0, 0, 0, 0, 0, 0, 0},
    {"pn first turns", PB_ALGO_PN, 0, 1, 0, 0, 0, 0, 0},
    {"pn full keys", PB_ALGO_PN, 0, 0, 1, 0, 0, 0, 0},
    {"pn no reduced keys", PB_ALGO_PN, 0, 0, 0, 0, 0, -1, 0},
    {"pn no tactics", PB_ALGO_PN, 0, 0, 0, 1, 0, 0, 0},
    {"pn 8x table", PB_ALGO_PN, 0, 0, 0, 0, 1, 0, 0},
    {"pn slack 1", PB_ALGO_PN, 0, 0, 0, 0, 0, 0, 1024},
    {"ab value", PB_ALGO_AB, 0, 0, 0, 0, 0, 0, 0},
    {"ab value, N threads", PB_ALGO_AB, 1, 0, 0, 0, 0, 0, 0},
    {"ab first turns", PB_ALGO_AB, 0, 1, 0, 0, 0, 0, 0},
    {"ab full keys", PB_ALGO_AB, 0, 0, 1, 0, 0, 0, 0},
    {"ab reduced keys", PB_ALGO_AB, 0, 0, 0, 0, 0, PB_REACH_LIMIT, 0},
    {"ab no tactics", PB_ALGO_AB, 0, 0, 0, 1, 0, 0, 0},
    {"ab 8x table", PB_ALGO_AB, 0, 0, 0, 0, 1, 0, 0},
};

/* A small deterministic generator (no global state). */
static uint32_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*s >> 33);
}

typedef struct pick {
    int16_t nodes[1024];
    int len, kick, n, target, end;
} pick;

static int pick_nth(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    pick *c = ctx;
    (void)f, (void)after;
    if (c->n++ != c->target || r->len > 1024) return 0;
    memcpy(c->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    c->len = r->len, c->kick = r->kick, c->end = r->end;
    return 1;
}

/* Random play (turns that keep the game going; routes counted up to a cap,
 * so that a turn with millions of routes stays cheap) until at most `most`
 * free segments are reachable; 0 if the game got stuck first. */
static int random_endgame(const pb_field *f, pb_position *p, int least, int most, uint64_t *seed) {
    pb_position_start(f, p, PB_TOP);
    for (int t = 0; t < 400; t++) {
        int k = pb_reachable_segments(f, p);
        if (k <= most) return k >= least && pb_routes_foreach(f, p, NULL, NULL) > 0;
        long n = pb_routes_foreach(f, p, NULL, NULL);
        if (n <= 0) return 0;
        int played = 0;
        for (int tries = 0; tries < 8 && !played; tries++) {
            pick c = {.target = (int)(lcg(seed) % (uint32_t)(n < 1000000 ? n : 1000000))};
            pb_routes_foreach(f, p, pick_nth, &c);
            if (c.end != PB_END_NONE || c.len == 0) continue;
            pb_route info;
            char err[256];
            played = !pb_route_play(f, p, c.nodes, c.len, c.kick, &info, err, sizeof err);
        }
        if (!played) return 0;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Endgames of (2;8;10) with least..most reachable free segments, solved
 * value first in one process by one kept solver, as `solve --batch` does
 * (its table, default size, and its search are reused from position to
 * position: no table is mapped per position): median, mean and largest
 * time. */
static int bench_endgames(int least, int most, int count, int algo, int reduce_limit, pb_json *j) {
    pb_field_spec sp = {PB_RULES_BOOK, 2, 8, 10, 0, PB_DEAD_END_DRAW};
    char err[256], name[64];
    pb_field *f = pb_field_new(&sp, err, sizeof err);
    if (!f) return pb_fail(PB_EXIT_FAIL, "bench: %s", err);
    pb_solver *sv = pb_solver_new_algo(f, 0, algo);
    if (sv && reduce_limit) pb_solver_set_reduce(sv, reduce_limit);
    double *ms = malloc(sizeof(double) * (size_t)count);
    pb_position *p = malloc(sizeof *p);
    if (!sv || !ms || !p) {
        if (sv) pb_solver_free(sv);
        free(ms), free(p), pb_field_free(f);
        return pb_fail(PB_EXIT_MEMORY, "bench: cannot allocate the table");
    }
    uint64_t seed = 2026 + (uint64_t)most, nodes = 0;
    int n = 0, tries = 0, values[3] = {0, 0, 0};
    double c0 = cpu_seconds();
    while (n < count && tries++ < 50 * count) {
        if (!random_endgame(f, p, least, most, &seed)) continue;
        uint64_t n0 = pb_solver_nodes(sv);
        double t0 = omp_get_wtime();
        int v = pb_solver_value(sv, p);
        ms[n++] = (omp_get_wtime() - t0) * 1e3;
        nodes += pb_solver_nodes(sv) - n0;
        if (v != PB_UNKNOWN) values[v + 1]++;
    }
    pb_solver_free(sv);
    double cpu = cpu_seconds() - c0, sum = 0;
    qsort(ms, (size_t)n, sizeof(double), cmp_double);
    for (int i = 0; i < n; i++) sum += ms[i];
    snprintf(name, sizeof name, "(2;8;10) endgames %d-%d %s%s", least, most, algo == PB_ALGO_PN ? "pn" : "ab",
             reduce_limit < 0   ? " no reduced keys"
             : reduce_limit > 0 ? " reduced keys"
                                : "");
    if (j) {
        pb_json_object(j, NULL);
        pb_json_str(j, "name", name);
        pb_json_int(j, "positions", n);
        pb_json_int(j, "wins", values[2]);
        pb_json_int(j, "losses", values[0]);
        pb_json_uint(j, "nodes", nodes);
        pb_json_num(j, "median_ms", "%.4f", n ? ms[n / 2] : 0.0);
        pb_json_num(j, "mean_ms", "%.4f", n ? sum / n : 0.0);
        pb_json_num(j, "max_ms", "%.4f", n ? ms[n - 1] : 0.0);
        pb_json_num(j, "cpu_seconds_with_generation", "%.3f", cpu);
        pb_json_end(j);
    } else
        printf("%-30s %4d positions (%d won, %d lost), %llu nodes; ms per position: median %.3f, mean %.3f, "
               "max %.3f\n",
               name, n, values[2], values[0], (unsigned long long)nodes, n ? ms[n / 2] : 0.0, n ? sum / n : 0.0,
               n ? ms[n - 1] : 0.0);
    fflush(stdout);
    free(ms);
    free(p);
    pb_field_free(f);
    return PB_EXIT_OK;
}

/* The table of the signature's solves: fixed, since its size changes the
 * node counts. */
#define SIGNATURE_TABLE ((size_t)64 << 20)
/* The signature solves the first positions of solve_set only: the quick
 * ones, so that a test can run it. */
#define SIGNATURE_POSITIONS 6

/* The field and game of position b; 0, or -1 after a message. */
static int load(const solve_pos *b, pb_field **f, pb_game *g) {
    pb_field_spec sp = {b->rules, b->g, b->w, b->l, b->s, PB_DEAD_END_DRAW};
    return pb_bench_load(&sp, b->record, f, g);
}

int pb_bench_signature(const pb_opts *o) {
    uint64_t total = 0;
    pb_json j;
    if (o->json) {
        pb_bench_json_begin(&j, "signature", 1);
        pb_json_uint(&j, "table_bytes", SIGNATURE_TABLE);
        pb_json_array(&j, "positions");
    } else printf("%-30s %6s %12s\n", "position", "value", "nodes");
    for (size_t k = 0; k < SIGNATURE_POSITIONS; k++) {
        const solve_pos *b = &solve_set[k];
        pb_field *f;
        pb_game g;
        if (load(b, &f, &g)) return PB_EXIT_FAIL;
        pb_solve_opts so = {0};
        so.threads = 1;
        so.hash_bytes = SIGNATURE_TABLE;
        so.no_pv = 1;
        pb_solve_result r;
        int failed = pb_solve(f, &g.pos, &so, &r);
        pb_game_free(&g);
        pb_field_free(f);
        if (failed) return pb_fail(PB_EXIT_FAIL, "bench: cannot allocate the table");
        total += r.nodes;
        if (o->json) {
            pb_json_object(&j, NULL);
            pb_json_str(&j, "name", b->name);
            pb_json_str(&j, "value", pb_value_name(r.value));
            pb_json_uint(&j, "nodes", r.nodes);
            pb_json_end(&j);
        } else printf("%-30s %6s %12llu\n", b->name, pb_value_name(r.value), (unsigned long long)r.nodes);
        pb_solve_result_free(&r);
    }
    if (o->json) {
        pb_json_end(&j);
        pb_json_uint(&j, "signature", total);
        pb_json_end(&j);
    } else printf("signature %llu\n", (unsigned long long)total);
    return PB_EXIT_OK;
}

/* One solve's row: in the JSON array j, or (j NULL) a line of the table. */
static void print_solve(pb_json *j, const char *name, const char *cname, int threads, const pb_solve_result *r,
                        double wall, double cpu) {
    if (!j) {
        printf("%-30s %-18s %6s %12llu %9.3f %9.3f %10.2f\n", name, cname, pb_value_name(r->value),
               (unsigned long long)r->nodes, wall, cpu, wall > 0 ? r->nodes / wall / 1e6 : 0.0);
        return;
    }
    pb_json_object(j, NULL);
    pb_json_str(j, "name", name);
    pb_json_str(j, "configuration", cname);
    pb_json_int(j, "threads", threads);
    pb_json_str(j, "value", pb_value_name(r->value));
    pb_json_uint(j, "nodes", r->nodes);
    pb_json_num(j, "wall_seconds", "%.4f", wall);
    pb_json_num(j, "cpu_seconds", "%.4f", cpu);
    pb_json_uint(j, "peak_memory_bytes", r->peak_rss);
    pb_json_end(j);
}

/* Position b solved in every configuration that applies to it, each
 * printed (into j, or as text with j NULL).  Values that differ between
 * configurations are reported, *rc set to PB_EXIT_FAIL, and the benchmark
 * goes on: PB_EXIT_OK; a failure that stops it returns its status after
 * the message. */
static int solve_position(const solve_pos *b, int nthreads, size_t hash, pb_json *j, int *rc) {
    pb_field *f;
    pb_game g;
    if (load(b, &f, &g)) return PB_EXIT_FAIL;
    int value1 = PB_UNKNOWN, status = PB_EXIT_OK;
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        const config *cf = &configs[c];
        if (b->pn_only && cf->algo == PB_ALGO_AB) continue;
        pb_solve_opts so = {0};
        so.algo = cf->algo;
        so.threads = cf->threads2 ? nthreads : 1;
        so.hash_bytes = cf->big_hash ? 8 * hash : hash;
        so.no_pv = 1;
        so.first_turns = cf->first_turns;
        so.full_keys = cf->full_keys;
        so.reduce_limit = cf->full_keys ? -1 : cf->reduce_limit;
        so.no_tactics = cf->no_tactics;
        so.pn_epsilon = cf->pn_epsilon;
        pb_solve_result r;
        double c0 = cpu_seconds(), t0 = omp_get_wtime();
        if (pb_solve(f, &g.pos, &so, &r)) {
            status = pb_fail(PB_EXIT_MEMORY, "bench: cannot allocate the table");
            break;
        }
        double wall = omp_get_wtime() - t0, cpu = cpu_seconds() - c0;
        if (c == 0) value1 = r.value;
        else if (r.value != value1)
            *rc = pb_fail(PB_EXIT_FAIL, "bench: %s: values differ between configurations", b->name);
        char cname[64];
        snprintf(cname, sizeof cname, "%s", cf->name);
        if (cf->threads2) snprintf(cname, sizeof cname, "ab value, %d threads", nthreads);
        print_solve(j, b->name, cname, so.threads, &r, wall, cpu);
        fflush(stdout);
        pb_solve_result_free(&r);
    }
    pb_game_free(&g);
    pb_field_free(f);
    return status;
}

int pb_bench_solve(const pb_opts *o) {
    int nthreads = o->threads > 1 ? o->threads : 2;
    size_t hash = o->memory ? (size_t)pb_parse_size(o->memory) : (size_t)64 << 20;
    pb_json j;
    if (!pb_bench_json_list(&j, o, "solve", nthreads, "positions"))
        printf("%-30s %-18s %6s %12s %9s %9s %10s\n", "position", "configuration", "value", "nodes", "wall s", "cpu s",
               "Mnodes/s");
    int rc = PB_EXIT_OK;
    for (size_t k = 0; k < sizeof solve_set / sizeof solve_set[0]; k++) {
        int st = solve_position(&solve_set[k], nthreads, hash, o->json ? &j : NULL, &rc);
        if (st != PB_EXIT_OK) return st;
    }
    if (o->json) pb_json_end(&j), pb_json_array(&j, "endgames");
    /* Each set as the method keys by default, then the other way (alpha-
     * beta with reduced keys, proof-number search without), side by side. */
    for (int algo = PB_ALGO_AB; algo <= PB_ALGO_PN; algo++)
        for (int other = 0; other <= 1; other++) {
            int limit = !other ? 0 : algo == PB_ALGO_AB ? PB_REACH_LIMIT : -1;
            rc |= bench_endgames(1, 32, 150, algo, limit, o->json ? &j : NULL);
            rc |= bench_endgames(40, 80, 40, algo, limit, o->json ? &j : NULL);
        }
    if (o->json) pb_json_end(&j), pb_json_end(&j);
    return rc;
}
