/* bench_enumerate.c - the enumerate part of `paperball bench`: distinct
 * positions enumerated per second on fixed fields and depths. */
#include <stdlib.h>
#include <string.h>

#include "../enumerate/enumerate.h"
#include "../solver/json.h"
#include "bench.h"

typedef struct bench_field {
    const char *name;
    pb_rules rules;
    int g, w, l, s;
    int depth; /* -1: every game to its end */
} bench_field;

/* Enumerates field b on `threads` threads: its distinct positions of all
 * depths (each stored once and expanded or classified once) into *n, its
 * sequences into seq, its seconds into *t.  PB_EXIT_OK, or PB_EXIT_FAIL
 * after the message. */
static int enumerate_field(const bench_field *b, int threads, uint64_t *n, mpz_t seq, double *t) {
    pb_field_spec sp = {b->rules, b->g, b->w, b->l, b->s, PB_DEAD_END_DRAW};
    pb_field *f;
    if (pb_bench_load(&sp, NULL, &f, NULL)) return PB_EXIT_FAIL;
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    pb_enum_options eo;
    pb_enum_options_init(&eo);
    eo.max_depth = b->depth;
    eo.threads = threads;
    pb_enum_result res;
    int rc = PB_EXIT_OK;
    if (pb_enumerate(f, &root, &eo, &res) != PB_ENUM_OK) {
        rc = pb_fail(PB_EXIT_FAIL, "bench: %s", res.message);
    } else {
        *n = mpz_get_ui(res.positions);
        for (int d = 0; d < res.nrows; d++) mpz_add(seq, seq, res.rows[d].sequences);
        *t = res.seconds;
    }
    pb_enum_result_free(&res);
    pb_field_free(f);
    return rc;
}

/* One field's row: in the JSON array j, or (j NULL) a line of the table. */
static void print_field(pb_json *j, const char *name, uint64_t n, const mpz_t seq, double t) {
    if (!j) {
        gmp_printf("%-28s %14llu %16Zd %9.3f %14.0f\n", name, (unsigned long long)n, seq, t, n / t);
        return;
    }
    char *digits = mpz_get_str(NULL, 10, seq);
    pb_json_object(j, NULL);
    pb_json_str(j, "name", name);
    pb_json_uint(j, "positions", n);
    pb_json_raw(j, "sequences", digits);
    pb_json_num(j, "seconds", "%.3f", t);
    pb_json_num(j, "positions_per_second", "%.0f", n / t);
    pb_json_end(j);
    free(digits);
}

int pb_bench_enumerate(const pb_opts *o) {
    static const bench_field set[] = {
        {"book (2;2;4) all games", PB_RULES_BOOK, 2, 2, 4, 0, -1},
        {"book (2;4;4) depth 5", PB_RULES_BOOK, 2, 4, 4, 0, 5},
        {"book (2;6;8) depth 4", PB_RULES_BOOK, 2, 6, 8, 0, 4},
        {"hockey (2;4;4) S=1 depth 2", PB_RULES_HOCKEY, 2, 4, 4, 1, 2},
    };
    uint64_t total = 0;
    double total_t = 0;
    pb_json j;
    if (!pb_bench_json_list(&j, o, "enumerate", o->threads, "fields"))
        printf("%-28s %14s %16s %9s %14s\n", "enumeration", "positions", "sequences", "seconds", "positions/s");
    for (size_t k = 0; k < sizeof set / sizeof set[0]; k++) {
        uint64_t n = 0;
        double t = 0;
        mpz_t seq;
        mpz_init(seq);
        int rc = enumerate_field(&set[k], o->threads, &n, seq, &t);
        if (rc == PB_EXIT_OK) print_field(o->json ? &j : NULL, set[k].name, n, seq, t);
        mpz_clear(seq);
        if (rc != PB_EXIT_OK) return rc;
        total += n;
        total_t += t;
    }
    if (o->json) {
        pb_json_end(&j);
        pb_json_uint(&j, "positions", total);
        pb_json_num(&j, "seconds", "%.3f", total_t);
        pb_json_num(&j, "positions_per_second", "%.0f", total / total_t);
        pb_json_end(&j);
    } else printf("%-28s %14llu %16s %9.3f %14.0f\n", "total", (unsigned long long)total, "", total_t, total / total_t);
    return PB_EXIT_OK;
}
