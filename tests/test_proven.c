/* test_proven.c - saved proofs (solver/proven.c): every entry the searches
 * report (alpha-beta with 1 and 2 threads, proof-number search; a store
 * small enough to drop entries) holds against the brute force of
 * tests/ref_minimax.c, in all four mirror images; a saved and loaded store
 * answers the same; a solve that consults it gives the brute force's value
 * with fewer nodes (pb_solve, pb_pns_value, pb_solver); damaged, cut, foreign and mismatched files are refused
 * with one line and add nothing; the proofs of another root's solve are
 * read by pb_proven_import and hold for any root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "container.h"
#include "pns.h"
#include "proven.h"
#include "random_play.h"
#include "ref_minimax.h"
#include "test_support.h"

#define REF_BUDGET 200000ULL
#define CHECK_MAX 60 /* entries checked per store (the brute force is slow) */

typedef struct rules_case {
    pb_rules rules;
    int g, w, l, s;
    pb_dead_end de;
} rules_case;

static const rules_case CASES[] = {
    {PB_RULES_BOOK, 2, 4, 4, 0, PB_DEAD_END_LOSS},
    {PB_RULES_HOCKEY, 2, 4, 6, 0, PB_DEAD_END_DRAW},
    {PB_RULES_HOCKEY, 2, 4, 6, 0, PB_DEAD_END_LOSS},
    {PB_RULES_TRIPLE, 2, 4, 4, 0, PB_DEAD_END_DRAW},
};

static pb_field *case_field(const rules_case *c) { return ts_field(c->rules, c->g, c->w, c->l, c->s, c->de); }

/* Every entry of the store agrees with the brute force, seen in each of
 * its mirror images through a probe.  Returns the entries checked. */
static int check_entries(pb_proven *s) {
    const pb_field *f = s->f;
    int checked = 0;
    pb_position p, m;
    uint64_t info;
    pb_proven_publish(s);
    for (size_t i = 0, seen = 0; i < s->all.cap && seen < CHECK_MAX; i++) {
        if (!pb_posset_get(&s->all, f, i, &p, &info)) continue;
        seen++;
        int want = pb_ref_minimax_value(f, &p, REF_BUDGET);
        for (int k = 0; k < 4; k++) {
            if (k) pb_position_mirror(f, &p, &m, k & 1, k >> 1);
            else m = p;
            int lo, hi;
            assert_true(pb_proven_probe(s, m.seg, m.ball, m.to_move, m.hash, &lo, &hi, NULL));
            assert_true(-1 <= lo && lo <= hi && hi <= 1);
            assert_false(lo == -1 && hi == 1);
            if (want == PB_UNKNOWN) continue;
            if (want < lo || want > hi)
                fail_msg("entry %zu (image %d): bounds [%d, %d], brute force %d", i, k, lo, hi, want);
            checked += k == 0;
        }
    }
    return checked;
}

static int ab_solve(const pb_field *f, const pb_position *p, pb_proven *s, int threads, uint64_t *nodes) {
    pb_solve_opts o = {0};
    o.threads = threads;
    o.hash_bytes = (size_t)1 << 20;
    o.first_turns = 1;
    o.proven = s;
    pb_solve_result r;
    assert_int_equal(pb_solve(f, p, &o, &r), 0);
    assert_true(r.complete);
    int v = r.value;
    if (nodes) *nodes = r.nodes;
    pb_solve_result_free(&r);
    return v;
}

static int pn_solve(const pb_field *f, const pb_position *p, pb_proven *s) {
    pb_pns_opts o = {0};
    o.table_bytes = 1 << 14;
    o.proven = s;
    pb_pns_stats st;
    int v = pb_pns_value(f, p, &o, &st);
    assert_int_equal(st.stopped, 0);
    return v;
}

/* The searches report only truths: starts and random positions, every
 * rule set, alpha-beta on 1 and 2 threads, proof-number search. */
static void test_entries_true(void **state) {
    (void)state;
    uint64_t seed = 7;
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        pb_field *f = case_field(&CASES[c]);
        for (int k = 0; k < 3; k++) {
            pb_position p;
            if (k == 0) pb_position_start(f, &p, PB_TOP);
            else random_position(f, &p, 3 + 2 * k, &seed);
            if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
            int want = pb_ref_minimax_value(f, &p, REF_BUDGET);
            for (int algo = 0; algo < 3; algo++) {
                pb_proven s;
                pb_proven_init(&s, f, &p, 1, 0);
                int v = algo == 2 ? pn_solve(f, &p, &s) : ab_solve(f, &p, &s, algo + 1, NULL);
                if (want != PB_UNKNOWN) assert_int_equal(v, want);
                int n = check_entries(&s);
                if (algo == 0 && k == 0) assert_true(n > 0);
                pb_proven_free(&s);
            }
        }
        pb_field_free(f);
    }
}

/* A store capped far below its needs drops entries (min_work rises) and
 * keeps only truths. */
static void test_cap(void **state) {
    (void)state;
    pb_field *f = case_field(&CASES[0]);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_proven s;
    pb_proven_init(&s, f, &p, 1, 1 << 16);
    ab_solve(f, &p, &s, 1, NULL);
    assert_true(s.raised > 0);
    assert_true(s.min_work > 1);
    assert_true(pb_posset_bytes(&s.all) <= 1 << 16);
    check_entries(&s);
    pb_proven_free(&s);
    pb_field_free(f);
}

/* Saved, loaded: the same entries; a solve that consults them gives the
 * brute force's value with fewer nodes; both algorithms read one file. */
static void test_roundtrip(void **state) {
    (void)state;
    const char *path = "test_proven.pbs";
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        pb_field *f = case_field(&CASES[c]);
        pb_position p;
        pb_position_start(f, &p, PB_BOTTOM);
        int want = pb_ref_minimax_value(f, &p, REF_BUDGET * 20);
        pb_proven a;
        pb_proven_init(&a, f, &p, 64, 0);
        uint64_t n1, n2;
        int v1 = ab_solve(f, &p, &a, 1, &n1);
        pb_proven_note(&a, &p, v1, v1, 8, PB_PROVEN_PINNED);
        char err[512];
        assert_int_equal(pb_proven_save(&a, path, "test", err, sizeof err), 0);
        pb_proven b;
        pb_proven_init(&b, f, &p, 64, 0);
        if (pb_proven_load(&b, path, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(pb_proven_published(&b), pb_proven_size(&a));
        pb_proven_publish(&a);
        for (size_t i = 0; i < a.all.cap; i++) {
            pb_position q;
            uint64_t info;
            if (!pb_posset_get(&a.all, f, i, &q, &info)) continue;
            int lo1, hi1, b1, lo2, hi2, b2;
            assert_true(pb_proven_probe(&a, q.seg, q.ball, q.to_move, q.hash, &lo1, &hi1, &b1));
            assert_true(pb_proven_probe(&b, q.seg, q.ball, q.to_move, q.hash, &lo2, &hi2, &b2));
            assert_int_equal(lo1, lo2);
            assert_int_equal(hi1, hi2);
            assert_int_equal(b1, b2);
        }
        int v2 = ab_solve(f, &p, &b, 1, &n2);
        if (want != PB_UNKNOWN) assert_int_equal(v1, want);
        assert_int_equal(v2, v1);
        assert_true(n2 < n1);
        assert_int_equal(pn_solve(f, &p, &b), v1);
        pb_solver *sv = pb_solver_new(f, (size_t)1 << 20);
        pb_solver_set_proven(sv, &b);
        assert_int_equal(pb_solver_value(sv, &p), v1);
        assert_true(pb_solver_nodes(sv) < n1);
        pb_solver_free(sv);
        check_entries(&b);
        pb_proven_free(&a);
        pb_proven_free(&b);
        pb_field_free(f);
    }
    remove(path);
}

/* A copy of the file at `from` with byte `at` changed (at < 0: cut to
 * -at bytes). */
static void damaged_copy(const char *from, const char *to, long at) {
    FILE *in = fopen(from, "rb");
    assert_non_null(in);
    fseek(in, 0, SEEK_END);
    long n = ftell(in);
    rewind(in);
    unsigned char *b = malloc((size_t)n);
    assert_int_equal(fread(b, 1, (size_t)n, in), (size_t)n);
    fclose(in);
    if (at >= 0) b[at % n] ^= 0x20;
    else n = -at < n ? -at : n;
    FILE *out = fopen(to, "wb");
    fwrite(b, 1, (size_t)n, out);
    fclose(out);
    free(b);
}

static void expect_refused(const pb_field *f, const pb_position *root, const char *path, const char *why) {
    pb_proven s;
    pb_proven_init(&s, f, root, 0, 0);
    char err[512] = "";
    if (pb_proven_load(&s, path, err, sizeof err) == 0) fail_msg("%s: accepted", why);
    assert_true(err[0] != 0);
    assert_null(strchr(err, '\n'));
    assert_int_equal(pb_proven_size(&s), 0);
    assert_int_equal(pb_proven_published(&s), 0);
    pb_proven_free(&s);
}

static void test_refused(void **state) {
    (void)state;
    const char *good = "test_proven_good.pbs", *bad = "test_proven_bad.pbs";
    pb_field *f = case_field(&CASES[0]);
    pb_position p, q;
    pb_position_start(f, &p, PB_TOP);
    pb_proven s;
    pb_proven_init(&s, f, &p, 1, 0);
    ab_solve(f, &p, &s, 1, NULL);
    char err[512];
    assert_int_equal(pb_proven_save(&s, good, NULL, err, sizeof err), 0);
    pb_proven_free(&s);
    FILE *fp = fopen(good, "rb");
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fclose(fp);
    for (long at = 0; at < n; at += n / 13 + 1) {
        damaged_copy(good, bad, at);
        expect_refused(f, &p, bad, "a changed byte");
    }
    damaged_copy(good, bad, -(n - 9));
    expect_refused(f, &p, bad, "cut short");
    damaged_copy(good, bad, -10);
    expect_refused(f, &p, bad, "cut to the header");
    expect_refused(f, &p, "no-such-file.pbs", "missing");
    /* Another root: the other player to move. */
    pb_position_start(f, &q, PB_BOTTOM);
    expect_refused(f, &q, good, "another root");
    /* Another field, other rules. */
    for (size_t c = 1; c < sizeof CASES / sizeof *CASES; c++) {
        pb_field *g = case_field(&CASES[c]);
        pb_position r;
        pb_position_start(g, &r, PB_TOP);
        expect_refused(g, &r, good, "other rules");
        pb_field_free(g);
    }
    pb_field *g = ts_field(PB_RULES_BOOK, 2, 4, 6, 0, PB_DEAD_END_LOSS);
    pb_position r;
    pb_position_start(g, &r, PB_TOP);
    expect_refused(g, &r, good, "another field");
    pb_field_free(g);
    /* Another kind of container. */
    pb_container_meta m;
    pb_container_meta_init(&m, "TBAS", f);
    pb_cwriter *w = pb_container_create(bad, &m, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(pb_container_commit(w, err, sizeof err), 0);
    expect_refused(f, &p, bad, "another kind");
    /* The right kind, but no root block. */
    pb_container_meta_init(&m, PB_PROVEN_KIND, f);
    w = pb_container_create(bad, &m, err, sizeof err);
    assert_int_equal(pb_container_commit(w, err, sizeof err), 0);
    expect_refused(f, &p, bad, "no root");
    remove(good);
    remove(bad);
    pb_field_free(f);
}

/* The proofs of another solve (pb_proven_import): a store for the start
 * reads the file of a solve of a position some turns in, which
 * pb_proven_load refuses (another root); every entry read holds against
 * the brute force, and the start solved with them has the brute force's
 * value, by both algorithms.  Damaged files and other rules are refused
 * and add nothing. */
static void test_import(void **state) {
    (void)state;
    const char *path = "test_proven_import.pbs", *bad = "test_proven_import_bad.pbs";
    uint64_t seed = 11;
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        pb_field *f = case_field(&CASES[c]);
        pb_position start, q;
        pb_position_start(f, &start, PB_TOP);
        do random_position(f, &q, 2, &seed);
        while (pb_routes_foreach(f, &q, NULL, NULL) <= 0);
        pb_proven a;
        pb_proven_init(&a, f, &q, 1, 0);
        int vq = ab_solve(f, &q, &a, 1, NULL);
        pb_proven_note(&a, &q, vq, vq, 8, PB_PROVEN_PINNED);
        char err[512];
        assert_int_equal(pb_proven_save(&a, path, NULL, err, sizeof err), 0);
        expect_refused(f, &start, path, "another root, by load");
        pb_proven b;
        pb_proven_init(&b, f, &start, 1, 0);
        size_t n = 0;
        if (pb_proven_import(&b, path, &n, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(n, pb_proven_size(&a));
        assert_int_equal(pb_proven_published(&b), n);
        int lo, hi;
        assert_true(pb_proven_probe(&b, q.seg, q.ball, q.to_move, q.hash, &lo, &hi, NULL));
        assert_int_equal(lo, vq);
        assert_int_equal(hi, vq);
        check_entries(&b);
        int want = pb_ref_minimax_value(f, &start, REF_BUDGET * 20);
        int v1 = ab_solve(f, &start, &b, 1, NULL), v2 = pn_solve(f, &start, &b);
        if (want != PB_UNKNOWN) assert_int_equal(v1, want);
        assert_int_equal(v2, v1);
        /* Read twice: the same entries. */
        size_t before = pb_proven_size(&b);
        if (pb_proven_import(&b, path, &n, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(pb_proven_size(&b), before);
        pb_proven_free(&b);
        pb_proven_free(&a);
        /* Refused: damaged, cut, other rules or field; nothing added. */
        for (int k = 0; k < 3 + (int)(c == 0); k++) {
            const char *from = path;
            pb_field *g = f;
            if (k == 0) damaged_copy(path, bad, 40), from = bad;
            if (k == 1) damaged_copy(path, bad, -30), from = bad;
            if (k == 2) from = "no-such-file.pbs";
            if (k == 3) g = case_field(&CASES[1]);
            pb_position r;
            pb_position_start(g, &r, PB_TOP);
            pb_proven s;
            pb_proven_init(&s, g, &r, 0, 0);
            err[0] = 0;
            if (pb_proven_import(&s, from, NULL, err, sizeof err) == 0) fail_msg("case %d: accepted", k);
            assert_true(err[0] != 0);
            assert_null(strchr(err, '\n'));
            assert_int_equal(pb_proven_size(&s), 0);
            pb_proven_free(&s);
            if (g != f) pb_field_free(g);
        }
        pb_field_free(f);
    }
    remove(path);
    remove(bad);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_true), cmocka_unit_test(test_cap),    cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_refused),      cmocka_unit_test(test_import),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
