/* test_search.c - the exact solver against the brute force of
 * tests/ref_minimax.c, and the invariances that make it exact: the same
 * values with 1 and 2 threads, with a tiny and a large table, and for a
 * position and its mirror images; the table itself; the principal line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "random_play.h"
#include "ref_minimax.h"

#define REF_BUDGET 3000000ULL

static pb_field *field(pb_rules rules, int g, int w, int l, int s, pb_dead_end de) {
    pb_field_spec sp = {rules, g, w, l, s, de};
    char err[200];
    pb_field *f = pb_field_new(&sp, err, sizeof err);
    if (!f) fail_msg("field: %s", err);
    return f;
}

static int solve_value(const pb_field *f, const pb_position *p, int threads, size_t hash, pb_solve_result *out) {
    pb_solve_opts o = {0};
    o.threads = threads;
    o.hash_bytes = hash;
    pb_solve_result r;
    assert_int_equal(pb_solve(f, p, &o, &r), 0);
    assert_true(r.complete);
    int v = r.value;
    if (out) *out = r;
    else pb_solve_result_free(&r);
    return v;
}

/* The solver's value of p with a small table equals the brute force's;
 * returns 1 if the brute force finished within its budget. */
static int check_against_ref(const pb_field *f, const pb_position *p) {
    int ref = pb_ref_minimax_value(f, p, REF_BUDGET);
    if (ref == PB_UNKNOWN) return 0;
    int v = solve_value(f, p, 1, 1 << 16, NULL);
    if (v != ref) {
        char d[128];
        fail_msg("%s: solver %s, brute force %s", pb_field_describe(f, d, sizeof d), pb_value_name(v),
                 pb_value_name(ref));
    }
    return 1;
}

static void start_vs_ref(pb_rules rules, int g, int w, int l, int s, pb_dead_end de) {
    pb_field *f = field(rules, g, w, l, s, de);
    pb_position p;
    for (int first = 0; first < 2; first++) {
        pb_position_start(f, &p, first);
        char d[128];
        if (!check_against_ref(f, &p))
            fail_msg("%s: beyond the brute force's budget", pb_field_describe(f, d, sizeof d));
    }
    pb_field_free(f);
}

static void test_book_start_tiny(void **state) {
    (void)state;
    start_vs_ref(PB_RULES_BOOK, 2, 2, 2, 0, 0);
    start_vs_ref(PB_RULES_BOOK, 2, 2, 4, 0, 0);
    start_vs_ref(PB_RULES_BOOK, 2, 4, 2, 0, 0);
}

static void test_hockey_start_tiny(void **state) {
    (void)state;
    for (int de = 0; de < 2; de++) {
        start_vs_ref(PB_RULES_HOCKEY, 2, 2, 2, 0, de);
        start_vs_ref(PB_RULES_HOCKEY, 2, 2, 4, 0, de);
        start_vs_ref(PB_RULES_HOCKEY, 2, 2, 4, 1, de);
        start_vs_ref(PB_RULES_HOCKEY, 2, 4, 4, 1, de);
    }
}

static void test_triple_start_tiny(void **state) {
    (void)state;
    start_vs_ref(PB_RULES_TRIPLE, 2, 2, 2, 0, 0);
    start_vs_ref(PB_RULES_TRIPLE, 2, 2, 4, 0, 0);
    start_vs_ref(PB_RULES_TRIPLE, 2, 4, 4, 0, 0);
}

/* Random positions of larger fields, late enough for the brute force. */
static int random_vs_ref(pb_rules rules, int g, int w, int l, int s, pb_dead_end de, int want, uint64_t seed) {
    pb_field *f = field(rules, g, w, l, s, de);
    pb_position p;
    int checked = 0, values[3] = {0, 0, 0};
    for (int k = 0; k < 400 && checked < want; k++) {
        random_position(f, &p, 2 + (int)(lcg(&seed) % 40), &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
        if (check_against_ref(f, &p)) {
            checked++;
            values[pb_ref_minimax_value(f, &p, REF_BUDGET) + 1]++;
        }
    }
    char d[128];
    if (checked < want) fail_msg("%s: only %d positions within the brute force's reach", pb_field_describe(f, d, sizeof d), checked);
    pb_field_free(f);
    return (values[0] > 0) | (values[1] > 0) << 1 | (values[2] > 0) << 2;
}

static void test_book_random(void **state) {
    (void)state;
    int seen = random_vs_ref(PB_RULES_BOOK, 2, 4, 4, 0, 0, 30, 11);
    seen |= random_vs_ref(PB_RULES_BOOK, 2, 4, 6, 0, 0, 30, 12);
    seen |= random_vs_ref(PB_RULES_BOOK, 2, 6, 8, 0, 0, 30, 13);
    /* The sample must hold wins and losses, or it would test little. */
    assert_int_equal(seen, 5);
}

static void test_hockey_random(void **state) {
    (void)state;
    for (int de = 0; de < 2; de++) {
        int seen = random_vs_ref(PB_RULES_HOCKEY, 2, 4, 4, 1, de, 25, 21 + (uint64_t)de);
        seen |= random_vs_ref(PB_RULES_HOCKEY, 2, 4, 6, 0, de, 25, 23 + (uint64_t)de);
        seen |= random_vs_ref(PB_RULES_HOCKEY, 2, 6, 8, 1, de, 25, 25 + (uint64_t)de);
        /* Wins and losses; with drawn dead ends draws and something else
         * (a mover can often run into a dead end, so losses are rare). */
        if (de == PB_DEAD_END_DRAW) assert_true((seen & 2) && (seen & 5));
        else assert_int_equal(seen, 5);
    }
}

static void test_triple_random(void **state) {
    (void)state;
    int seen = random_vs_ref(PB_RULES_TRIPLE, 2, 4, 6, 0, 0, 20, 31);
    seen |= random_vs_ref(PB_RULES_TRIPLE, 2, 6, 8, 0, 0, 20, 32);
    seen |= random_vs_ref(PB_RULES_TRIPLE, 2, 4, 4, 0, 0, 20, 33);
    assert_true((seen & 1) && (seen & 4));
}

/* Every first turn's value must not depend on threads or table size, nor
 * on helper threads joining (and abandoning) other threads' first turns. */
static void same_values(const pb_field *f, const pb_position *p) {
    pb_solve_result a, b, c, d;
    solve_value(f, p, 1, (size_t)64 << 20, &a);
    solve_value(f, p, 2, (size_t)64 << 20, &b);
    solve_value(f, p, 2, 1024, &c);
    pb_solve_opts o = {0};
    o.threads = 2;
    o.hash_bytes = 1 << 16;
    o.lazy_helpers = 1;
    assert_int_equal(pb_solve(f, p, &o, &d), 0);
    assert_int_equal(a.value, d.value);
    assert_int_equal(a.nturns, d.nturns);
    for (int i = 0; i < a.nturns; i++) assert_int_equal(a.turns[i].value, d.turns[i].value);
    pb_solve_result_free(&d);
    assert_int_equal(a.value, b.value);
    assert_int_equal(a.value, c.value);
    assert_int_equal(a.nturns, b.nturns);
    assert_int_equal(a.nturns, c.nturns);
    for (int i = 0; i < a.nturns; i++) {
        assert_int_equal(a.turns[i].value, b.turns[i].value);
        assert_int_equal(a.turns[i].value, c.turns[i].value);
    }
    assert_true(c.tt.replaced > 0 || c.nodes < 1000);
    pb_solve_result_free(&a);
    pb_solve_result_free(&b);
    pb_solve_result_free(&c);
}

static void test_threads_and_table_size(void **state) {
    (void)state;
    pb_field *f = field(PB_RULES_BOOK, 2, 4, 4, 0, 0);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    same_values(f, &p);
    uint64_t seed = 5;
    for (int k = 0; k < 10; k++) {
        random_position(f, &p, 1 + k % 4, &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) > 0) same_values(f, &p);
    }
    pb_field_free(f);
    f = field(PB_RULES_HOCKEY, 2, 4, 6, 1, PB_DEAD_END_DRAW);
    for (int k = 0; k < 6; k++) {
        random_position(f, &p, 4 + k, &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) > 0) same_values(f, &p);
    }
    pb_field_free(f);
    f = field(PB_RULES_TRIPLE, 2, 4, 6, 0, 0);
    for (int k = 0; k < 6; k++) {
        random_position(f, &p, 2 + k, &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) > 0) same_values(f, &p);
    }
    pb_field_free(f);
}

/* A position, its left-right image and its top-bottom image (players
 * swapped) have the same value for the player to move. */
static void test_mirror_images(void **state) {
    (void)state;
    pb_rules rules[3] = {PB_RULES_BOOK, PB_RULES_HOCKEY, PB_RULES_TRIPLE};
    uint64_t seed = 77;
    for (int ri = 0; ri < 3; ri++) {
        pb_field *f = field(rules[ri], 2, 4, ri ? 6 : 4, ri == 1, PB_DEAD_END_LOSS);
        pb_position p, m;
        for (int k = 0; k < 12; k++) {
            random_position(f, &p, (ri ? 6 : 1) + k % 6, &seed);
            if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
            int v = solve_value(f, &p, 1, 1 << 20, NULL);
            for (int img = 1; img < 4; img++) {
                pb_position_mirror(f, &p, &m, img & 1, img >> 1);
                assert_int_equal(solve_value(f, &m, 1, 1 << 20, NULL), v);
            }
        }
        pb_field_free(f);
    }
}

/* The line of perfect play is legal, ends the game, and ends it as the
 * value says; every first turn in a mirror class has the class's value. */
static void test_principal_line(void **state) {
    (void)state;
    pb_field *f = field(PB_RULES_BOOK, 2, 4, 4, 0, 0);
    uint64_t seed = 3;
    for (int k = 0; k < 12; k++) {
        pb_position p, q;
        random_position(f, &p, k % 5, &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
        pb_solve_result r;
        solve_value(f, &p, 1, 1 << 20, &r);
        assert_true(r.best >= 0 && r.npv > 0);
        assert_int_equal(r.turns[r.best].value, r.value);
        q = p;
        pb_route info = {0};
        char err[200];
        for (int i = 0; i < r.npv; i++)
            assert_int_equal(pb_route_play(f, &q, r.pv[i].nodes, r.pv[i].len, r.pv[i].kick, &info, err, sizeof err), 0);
        assert_int_not_equal(info.end, PB_END_NONE);
        int result = info.loser == PB_NOBODY ? PB_DRAW : info.loser == p.to_move ? PB_LOSS : PB_WIN;
        assert_int_equal(result, r.value);
        for (int i = 0; i < r.nturns; i++) assert_int_equal(r.turns[i].value, r.turns[r.turns[i].klass].value);
        pb_solve_result_free(&r);
    }
    pb_field_free(f);
}

/* The kept solver (play against the solver) agrees with pb_solve, and its
 * hint keeps the value. */
static void test_kept_solver(void **state) {
    (void)state;
    pb_field *f = field(PB_RULES_HOCKEY, 2, 4, 4, 1, PB_DEAD_END_DRAW);
    pb_solver *s = pb_solver_new(f, 1 << 20);
    uint64_t seed = 9;
    for (int k = 0; k < 10; k++) {
        pb_position p;
        random_position(f, &p, k % 4, &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
        int v = pb_solver_value(s, &p);
        assert_int_equal(v, solve_value(f, &p, 1, 1 << 20, NULL));
        int16_t nodes[512];
        int kick, v2;
        int len = pb_solver_best_route(s, &p, nodes, 512, &kick, &v2);
        assert_int_equal(v2, v);
        assert_true(len >= 2);
        pb_route info;
        char err[200];
        assert_int_equal(pb_route_play(f, &p, nodes, len, kick, &info, err, sizeof err), 0);
        int after = info.end != PB_END_NONE
                        ? (info.loser == PB_NOBODY ? PB_DRAW : info.loser == info.mover ? PB_LOSS : PB_WIN)
                        : -pb_solver_value(s, &p);
        assert_int_equal(after, v);
    }
    pb_solver_free(s);
    pb_field_free(f);
}

/* The table answers only for the very position stored, merges bounds, and
 * survives a one-bucket table (every store replaces). */
static void test_table(void **state) {
    (void)state;
    pb_field *f = field(PB_RULES_BOOK, 2, 6, 8, 0, 0);
    pb_tt t;
    assert_int_equal(pb_tt_init(&t, f, 1), 0);
    assert_int_equal(pb_tt_slots(&t), PB_TT_WAYS);
    pb_tt_stats st = {0, 0, 0, 0, 0};
    pb_position p[8];
    uint64_t seed = 1;
    for (int i = 0; i < 8; i++) random_position(f, &p[i], 1 + i, &seed);
    int lo, hi, best;
    for (int i = 0; i < 8; i++) {
        pb_tt_store(&t, &p[i], -1, 0, 3, 100 + (uint64_t)i, &st);
        assert_int_equal(pb_tt_probe(&t, &p[i], &lo, &hi, &best, &st), 1);
        assert_int_equal(lo, -1);
        assert_int_equal(hi, 0);
        assert_int_equal(best, 3);
    }
    assert_int_equal(st.replaced, 4);
    assert_int_equal(st.inserted, 4);
    assert_int_equal(pb_tt_used(&t), 4);
    /* A position with p[7]'s hash but another ball must miss. */
    pb_position q = p[7];
    q.ball = (int16_t)(q.ball == f->centre ? q.ball + 1 : f->centre);
    assert_int_equal(pb_tt_probe(&t, &q, &lo, &hi, &best, &st), 0);
    q = p[7];
    q.to_move ^= 1;
    assert_int_equal(pb_tt_probe(&t, &q, &lo, &hi, &best, &st), 0);
    pb_tt_store(&t, &p[7], 0, 1, 8, 1, &st);
    assert_int_equal(pb_tt_probe(&t, &p[7], &lo, &hi, &best, &st), 1);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 0);
    pb_tt_free(&t);
    pb_field_free(f);
}

/* A deep endgame of the international field is answered at once. */
static void test_large_endgame(void **state) {
    (void)state;
    pb_field *f = field(PB_RULES_BOOK, 2, 8, 10, 0, 0);
    uint64_t seed = 2024;
    int done = 0;
    for (int k = 0; k < 40 && done < 5; k++) {
        pb_position p;
        random_position(f, &p, 60, &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
        pb_solve_result r;
        solve_value(f, &p, 1, 1 << 20, &r);
        int ref = pb_ref_minimax_value(f, &p, REF_BUDGET);
        if (ref != PB_UNKNOWN) assert_int_equal(ref, r.value), done++;
        pb_solve_result_free(&r);
    }
    assert_true(done > 0);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_book_start_tiny),
        cmocka_unit_test(test_hockey_start_tiny),
        cmocka_unit_test(test_book_random),
        cmocka_unit_test(test_hockey_random),
        cmocka_unit_test(test_triple_start_tiny),
        cmocka_unit_test(test_triple_random),
        cmocka_unit_test(test_threads_and_table_size),
        cmocka_unit_test(test_mirror_images),
        cmocka_unit_test(test_principal_line),
        cmocka_unit_test(test_kept_solver),
        cmocka_unit_test(test_large_endgame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
