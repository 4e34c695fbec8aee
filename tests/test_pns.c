/* test_pns.c - proof-number search (solver/pns.c) against the brute force
 * of tests/ref_minimax.c and against alpha-beta (pb_solve): starts and
 * random positions of every rule set, both dead-end options, a tiny and a
 * large table, weak and summed numbers, with and without the 1+e slack;
 * and a search stopped early answers "unknown", never a wrong value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pns.h"
#include "random_play.h"
#include "ref_minimax.h"
#include "test_support.h"
#include "turnwalk.h"

#define REF_BUDGET 3000000ULL

static int pn_value_keys(const pb_field *f, const pb_position *p, size_t table, int sum, int eps, int full_keys,
                         int no_tactics) {
    pb_pns_opts o = {0};
    o.table_bytes = table;
    o.sum = sum;
    o.epsilon = eps;
    o.full_keys = full_keys;
    o.no_tactics = no_tactics;
    pb_pns_stats st;
    int v = pb_pns_value(f, p, &o, &st);
    assert_int_equal(st.stopped, 0);
    assert_true(v == PB_WIN || v == PB_DRAW || v == PB_LOSS);
    return v;
}

static int pn_value(const pb_field *f, const pb_position *p, size_t table, int sum, int eps) {
    return pn_value_keys(f, p, table, sum, eps, 0, 0);
}

/* pn (in several variants: table sizes, numbers, slack, mirror images in
 * the keys or not, the quick "can the mover score?" check or not) equals
 * want. */
static void check_pn(const pb_field *f, const pb_position *p, int want, const char *what) {
    static const struct {
        size_t table;
        int sum, eps, full_keys, no_tactics;
    } variants[] = {{1 << 10, 0, 0, 0, 0},           {(size_t)16 << 20, 0, 0, 0, 0}, {1 << 14, 1, 0, 0, 0},
                    {(size_t)16 << 20, 1, -1, 0, 0}, {1 << 12, 0, -1, 0, 0},         {(size_t)16 << 20, 0, 0, 1, 0},
                    {(size_t)16 << 20, 0, 0, 0, 1},  {1 << 12, 0, 0, 1, 1},          {(size_t)16 << 20, 0, 1024, 0, 0}};
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        int v = pn_value_keys(f, p, variants[i].table, variants[i].sum, variants[i].eps, variants[i].full_keys,
                              variants[i].no_tactics);
        if (v != want) {
            char d[128];
            fail_msg("%s: pn (table %zu, sum %d, eps %d) says %s, %s says %s", pb_field_describe(f, d, sizeof d),
                     variants[i].table, variants[i].sum, variants[i].eps, pb_value_name(v), what, pb_value_name(want));
        }
    }
}

static void starts(pb_rules rules, int g, int w, int l, int s, pb_dead_end de) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_position p;
    for (int first = 0; first < 2; first++) {
        pb_position_start(f, &p, first);
        int ref = pb_ref_minimax_value(f, &p, REF_BUDGET);
        if (ref == PB_UNKNOWN) {
            char d[128];
            fail_msg("%s: beyond the brute force's budget", pb_field_describe(f, d, sizeof d));
        }
        check_pn(f, &p, ref, "the brute force");
        assert_int_equal(ts_ab_value(f, &p), ref);
    }
    pb_field_free(f);
}

static void test_starts(void **state) {
    (void)state;
    starts(PB_RULES_BOOK, 2, 2, 2, 0, 0);
    starts(PB_RULES_BOOK, 2, 2, 4, 0, 0);
    starts(PB_RULES_BOOK, 2, 4, 2, 0, 0);
    for (int de = 0; de < 2; de++) {
        starts(PB_RULES_HOCKEY, 2, 2, 2, 0, de);
        starts(PB_RULES_HOCKEY, 2, 2, 4, 0, de);
        starts(PB_RULES_HOCKEY, 2, 2, 4, 1, de);
        starts(PB_RULES_HOCKEY, 2, 4, 4, 1, de);
    }
    starts(PB_RULES_TRIPLE, 2, 2, 2, 0, 0);
    starts(PB_RULES_TRIPLE, 2, 2, 4, 0, 0);
    starts(PB_RULES_TRIPLE, 2, 4, 4, 0, 0);
}

/* `want` random positions (after 2 .. turns + 1 turns; late hockey
 * positions on tiny fields have too many routes to pick one) within the
 * brute force's reach: pn equals the
 * brute force and alpha-beta.  Returns the values seen as bits (loss 1,
 * draw 2, win 4), so that a caller can insist on a varied sample. */
static int random_positions(pb_rules rules, int g, int w, int l, int s, pb_dead_end de, int want, int turns,
                            uint64_t seed) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_position p;
    int checked = 0, seen = 0;
    for (int k = 0; k < 400 && checked < want; k++) {
        random_position(f, &p, 2 + (int)(lcg(&seed) % (uint32_t)turns), &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
        int ref = pb_ref_minimax_value(f, &p, REF_BUDGET);
        if (ref == PB_UNKNOWN) continue;
        check_pn(f, &p, ref, "the brute force");
        assert_int_equal(ts_ab_value(f, &p), ref);
        seen |= 1 << (ref + 1);
        checked++;
    }
    char d[128];
    if (checked < want)
        fail_msg("%s: only %d positions within the brute force's reach", pb_field_describe(f, d, sizeof d), checked);
    pb_field_free(f);
    return seen;
}

static void test_book_random(void **state) {
    (void)state;
    int seen = random_positions(PB_RULES_BOOK, 2, 4, 4, 0, 0, 8, 40, 101);
    seen |= random_positions(PB_RULES_BOOK, 2, 4, 6, 0, 0, 8, 40, 102);
    seen |= random_positions(PB_RULES_BOOK, 2, 6, 8, 0, 0, 8, 40, 103);
    assert_int_equal(seen, 5);
}

static void test_hockey_random(void **state) {
    (void)state;
    for (int de = 0; de < 2; de++) {
        int seen = random_positions(PB_RULES_HOCKEY, 2, 4, 4, 1, de, 8, 12, 21 + (uint64_t)de);
        seen |= random_positions(PB_RULES_HOCKEY, 2, 4, 6, 0, de, 8, 24, 23 + (uint64_t)de);
        seen |= random_positions(PB_RULES_HOCKEY, 2, 6, 8, 1, de, 8, 40, 25 + (uint64_t)de);
        if (de == PB_DEAD_END_DRAW) assert_true((seen & 2) && (seen & 5));
        else assert_int_equal(seen, 5);
    }
}

static void test_triple_random(void **state) {
    (void)state;
    int seen = random_positions(PB_RULES_TRIPLE, 2, 4, 6, 0, 0, 8, 40, 31);
    seen |= random_positions(PB_RULES_TRIPLE, 2, 6, 8, 0, 0, 8, 40, 32);
    seen |= random_positions(PB_RULES_TRIPLE, 2, 4, 4, 0, 0, 8, 40, 33);
    assert_true((seen & 1) && (seen & 4));
}

/* Beyond the brute force: pn against alpha-beta on starts and early
 * positions of the small fields. */
static void test_against_alpha_beta(void **state) {
    (void)state;
    static const pb_field_spec specs[] = {{PB_RULES_BOOK, 2, 4, 4, 0, 0},   {PB_RULES_HOCKEY, 2, 4, 6, 1, 0},
                                          {PB_RULES_HOCKEY, 2, 4, 6, 1, 1}, {PB_RULES_HOCKEY, 2, 4, 6, 0, 0},
                                          {PB_RULES_TRIPLE, 2, 4, 6, 0, 0}, {PB_RULES_BOOK, 2, 6, 8, 0, 0}};
    uint64_t seed = 131;
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        const pb_field_spec *sp = &specs[i];
        pb_field *f = ts_field(sp->rules, sp->goal, sp->width, sp->length, sp->setback, sp->dead_end);
        pb_position p;
        int late = sp->width * sp->length > 30;
        for (int k = 0; k < 4; k++) {
            if (late) random_position(f, &p, 24 + 2 * k, &seed);
            else if (k < 2) pb_position_start(f, &p, k);
            else random_position(f, &p, k - 1, &seed);
            if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
            int ab = ts_ab_value(f, &p);
            assert_int_equal(pn_value(f, &p, (size_t)16 << 20, 0, 0), ab);
            assert_int_equal(pn_value(f, &p, 1 << 12, 0, 0), ab);
        }
        pb_field_free(f);
    }
}

/* pb_solve with --algo pn: the value and every first-turn class's value
 * equal alpha-beta's, and the line is legal, ends the game and realises
 * the value. */
static void solve_both(const pb_field *f, const pb_position *p) {
    pb_solve_result r[2];
    for (int a = 0; a < 2; a++) {
        pb_solve_opts o = {0};
        o.threads = 1;
        o.first_turns = 1;
        o.algo = a ? PB_ALGO_PN : PB_ALGO_AB;
        o.hash_bytes = a ? (size_t)1 << 14 : (size_t)4 << 20;
        assert_int_equal(pb_solve(f, p, &o, &r[a]), 0);
        if (!r[a].complete && !r[a].overflow) {
            char d[128];
            fail_msg("%s: %s not complete (value %s, %d of %d classes, stopped %d, overflow %d)",
                     pb_field_describe(f, d, sizeof d), a ? "pn" : "ab", pb_value_name(r[a].value),
                     r[a].nsolved_classes, r[a].nturns, r[a].stopped, r[a].overflow);
        }
    }
    assert_int_equal(r[1].value, r[0].value);
    assert_int_equal(r[1].nturns, r[0].nturns);
    assert_int_equal(r[1].overflow, r[0].overflow);
    /* (a list cut at its memory cap holds the same classes, proven or not) */
    for (int i = 0; i < r[0].nturns && !r[0].overflow; i++) assert_int_equal(r[1].turns[i].value, r[0].turns[i].value);
    /* The pn line: legal turns to the end, with the value's result. */
    pb_position q = *p;
    pb_route info = {0};
    char err[256];
    assert_true(r[1].npv > 0);
    for (int i = 0; i < r[1].npv; i++)
        assert_int_equal(
            pb_route_play(f, &q, r[1].pv[i].nodes, r[1].pv[i].len, r[1].pv[i].kick, &info, err, sizeof err), 0);
    assert_int_not_equal(info.end, PB_END_NONE);
    int me = p->to_move;
    int got = info.loser == PB_NOBODY ? PB_DRAW : info.loser == me ? PB_LOSS : PB_WIN;
    assert_int_equal(got, r[1].value);
    pb_solve_result_free(&r[0]);
    pb_solve_result_free(&r[1]);
}

static void test_solve_pn(void **state) {
    (void)state;
    static const pb_field_spec specs[] = {{PB_RULES_BOOK, 2, 4, 4, 0, 0},
                                          {PB_RULES_HOCKEY, 2, 4, 4, 1, 0},
                                          {PB_RULES_HOCKEY, 2, 4, 6, 0, 1},
                                          {PB_RULES_TRIPLE, 2, 4, 4, 0, 0}};
    uint64_t seed = 77;
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        const pb_field_spec *sp = &specs[i];
        pb_field *f = ts_field(sp->rules, sp->goal, sp->width, sp->length, sp->setback, sp->dead_end);
        pb_position p;
        for (int k = 0; k < 4; k++) {
            if (k == 0) pb_position_start(f, &p, PB_TOP);
            else random_position(f, &p, k, &seed);
            if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
            solve_both(f, &p);
        }
        pb_field_free(f);
    }
}

/* The positions after each first turn of a root (at most 64), and the
 * steps of all those turns. */
typedef struct after_list {
    pb_position pos[64];
    int n;
    long steps;
} after_list;

static int collect_after(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    after_list *a = ctx;
    (void)f;
    a->steps += r->len - 1;
    if (r->end == PB_END_NONE && a->n < 64) a->pos[a->n++] = *after;
    return 0;
}

/* One search asked the second player's question at every position after a
 * first turn, then the first player's at the root (as solve --first-turns
 * does, then its line): every answer is alpha-beta's, and where the rules
 * have no draws the root costs no more nodes than the first turn's steps
 * (the classes' proofs answer its question; before, it was searched again:
 * book (2;4;6) 431,749 nodes after its classes). */
static void test_questions_shared(void **state) {
    (void)state;
    static const pb_field_spec specs[] = {{PB_RULES_BOOK, 2, 4, 4, 0, 0},
                                          {PB_RULES_BOOK, 2, 2, 6, 0, 0},
                                          {PB_RULES_HOCKEY, 2, 4, 6, 0, PB_DEAD_END_LOSS},
                                          {PB_RULES_HOCKEY, 2, 4, 4, 1, PB_DEAD_END_DRAW},
                                          {PB_RULES_TRIPLE, 2, 4, 4, 0, 0}};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        const pb_field_spec *sp = &specs[i];
        pb_field *f = ts_field(sp->rules, sp->goal, sp->width, sp->length, sp->setback, sp->dead_end);
        pb_position root;
        pb_position_start(f, &root, PB_TOP);
        static after_list a;
        a.n = 0, a.steps = 0;
        pb_position q = root;
        pb_routes_foreach(f, &q, collect_after, &a);
        pb_pns_opts o = {0};
        o.table_bytes = (size_t)16 << 20;
        pb_pns *x = pb_pns_new(f, &root, &o);
        assert_non_null(x);
        for (int k = 0; k < a.n; k++) {
            q = a.pos[k];
            assert_int_equal(pb_pns_solve(x, &q), ts_ab_value(f, &a.pos[k]));
        }
        pb_pns_stats s0, s1;
        pb_pns_get_stats(x, &s0);
        q = root;
        assert_int_equal(pb_pns_solve(x, &q), ts_ab_value(f, &root));
        pb_pns_get_stats(x, &s1);
        int nodraw = sp->rules == PB_RULES_BOOK || (sp->rules == PB_RULES_HOCKEY && sp->dead_end == PB_DEAD_END_LOSS);
        if (nodraw) assert_true(s1.nodes - s0.nodes <= (uint64_t)a.steps + 1);
        pb_pns_free(x);
        pb_field_free(f);
    }
}

/* The other way round, as solve --first-turns on two threads does: one
 * search proves the root's value (the first player's question), then the
 * second player's question at every position after a first turn.  Those
 * read the unproven numbers the root's search left, swapped, as the
 * numbers of the complementary question (pns.c, 3.): every answer is
 * alpha-beta's, and the complement's numbers were read (in book, and in
 * hockey with draws, where the complement is also the other t). */
static void test_complement_numbers(void **state) {
    (void)state;
    static const pb_field_spec specs[] = {{PB_RULES_BOOK, 2, 4, 4, 0, 0},
                                          {PB_RULES_HOCKEY, 2, 2, 8, 1, PB_DEAD_END_DRAW},
                                          {PB_RULES_HOCKEY, 2, 4, 6, 0, PB_DEAD_END_DRAW}};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        const pb_field_spec *sp = &specs[i];
        pb_field *f = ts_field(sp->rules, sp->goal, sp->width, sp->length, sp->setback, sp->dead_end);
        pb_position root;
        pb_position_start(f, &root, PB_TOP);
        static after_list a;
        a.n = 0, a.steps = 0;
        pb_position q = root;
        pb_routes_foreach(f, &q, collect_after, &a);
        pb_pns_opts o = {0};
        o.table_bytes = (size_t)16 << 20;
        pb_pns *x = pb_pns_new(f, &root, &o);
        assert_non_null(x);
        q = root;
        assert_int_equal(pb_pns_solve(x, &q), ts_ab_value(f, &root));
        for (int k = 0; k < a.n; k++) {
            q = a.pos[k];
            assert_int_equal(pb_pns_solve(x, &q), ts_ab_value(f, &a.pos[k]));
        }
        pb_pns_stats st;
        pb_pns_get_stats(x, &st);
        assert_true(st.complement_hits > 0);
        pb_pns_free(x);
        pb_field_free(f);
    }
}

/* Cut short at any point, the search says "unknown" with the reason, or
 * the right value: never a wrong one. */
static void test_stopped(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_HOCKEY, 2, 4, 6, 0, PB_DEAD_END_DRAW);
    pb_position p;
    pb_position_start(f, &p, PB_BOTTOM);
    int want = ts_ab_value(f, &p), unknown = 0;
    for (uint64_t limit = 1; limit < ((uint64_t)1 << 22); limit *= 4) {
        pb_pns_opts o = {0};
        o.node_limit = limit;
        o.table_bytes = 1 << 16;
        pb_pns_stats st;
        int v = pb_pns_value(f, &p, &o, &st);
        if (v == PB_UNKNOWN) {
            assert_int_equal(st.stopped, 2);
            assert_true(st.nodes <= limit);
            assert_string_equal(pb_pns_stop_name(st.stopped), "node limit");
            unknown++;
        } else {
            assert_int_equal(v, want);
            assert_int_equal(st.stopped, 0);
        }
    }
    assert_true(unknown > 0 && unknown < 11);
    volatile sig_atomic_t stop = 1;
    pb_pns_opts o = {0};
    o.stop = &stop;
    pb_pns_stats st;
    /* The flag is seen at the first poll, long before the answer. */
    pb_field *g = ts_field(PB_RULES_BOOK, 2, 6, 8, 0, 0);
    pb_position_start(g, &p, PB_BOTTOM);
    assert_int_equal(pb_pns_value(g, &p, &o, &st), PB_UNKNOWN);
    assert_int_equal(st.stopped, 3);
    pb_field_free(g);
    pb_field_free(f);
}

/* The table grows as it fills (pns.c, table_growth): a search cut at a
 * node limit on a large budget grew it, doubling each time, and dropped
 * nothing (every key gave its hash back, pb_key_hash); the value found
 * with room to grow equals the one found on a table too small to grow. */
static void test_growth(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 4, 0, 0);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_pns_opts o = {0};
    o.node_limit = 400000;
    o.table_bytes = (size_t)1 << 30;
    pb_pns_stats st;
    pb_pns_value(f, &p, &o, &st);
    assert_true(st.grown >= 1);
    assert_int_equal(st.lost, 0);
    pb_field_free(f);
    f = ts_field(PB_RULES_HOCKEY, 2, 4, 6, 1, PB_DEAD_END_DRAW);
    pb_position_start(f, &p, PB_TOP);
    o.node_limit = 0;
    int big = pb_pns_value(f, &p, &o, &st);
    o.table_bytes = 1 << 12;
    assert_int_equal(pb_pns_value(f, &p, &o, &st), big);
    pb_field_free(f);
}

/* Beyond 64 MiB (pns.c, GROW_REUSE) a full table waits until it has been
 * rewritten 16 times over: book (2;6;4) cut at 2.6M nodes on a 1 GiB
 * budget fills 64 MiB (4 MiB doubled 4 times) and stores more entries than
 * it holds, but not 8 times as many, so it stays there. */
static void test_growth_waits(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 4, 0, 0);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_pns_opts o = {0};
    o.node_limit = 2600000;
    o.table_bytes = (size_t)1 << 30;
    pb_pns_stats st;
    pb_pns_value(f, &p, &o, &st);
    const uint64_t ways64 = st.table_slots / 16; /* the ways of 64 MiB of the 1 GiB */
    assert_true(st.peak_used * 8 > ways64 * 7);
    assert_true(st.stores > ways64 && st.stores < 8 * ways64);
    assert_int_equal(st.grown, 4);
    pb_field_free(f);
}

/* A hand-checked position: Bottom to move next to Top's open goal
 * scores at once, so pn proves a win with a single expansion. */
static void test_goal_at_once(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 4, 4, 0, 0);
    pb_position p;
    pb_position_start(f, &p, PB_BOTTOM);
    pb_set_ball(f, &p, ts_node(f, "c6"));
    pb_pns_opts o = {0};
    pb_pns_stats st;
    assert_int_equal(pb_pns_value(f, &p, &o, &st), PB_WIN);
    assert_int_equal(st.nodes, 1);
    assert_int_equal(st.questions, 1);
    pb_field_free(f);
}

/* The quick "can the mover score this turn?" walk (tactics.h) against the
 * turn walk's exact answer (turnwalk.h, its own walk of the turn's step
 * graph): with an unbounded budget the same answer; with the search's
 * budget a yes is a real goal route (replayed with pb_step: bounces, then
 * a goal against the opponent) and the position is restored.  Random
 * positions of book and hockey, both dead-end options, both line and box
 * goals. */
static void can_score_fields(pb_rules rules, int g, int w, int l, int s, pb_dead_end de, int *yes) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_tactics tac;
    assert_int_equal(pb_tactics_init(&tac, f), 0);
    pb_turnwalk *tw = pb_turnwalk_new(f);
    assert_non_null(tw);
    uint64_t seed = 99;
    for (int i = 0; i < 300; i++) {
        pb_position p, q;
        random_position(f, &p, (int)(lcg(&seed) % 50), &seed);
        q = p;
        int exact = pb_turn_can_score(tw, &p);
        if (exact == PB_TURNWALK_TOO_BIG) continue;
        int budget = 1 << 24;
        int all = pb_can_score(&tac, &p, &budget, NULL, 0, NULL);
        assert_true(pb_position_equal(f, &p, &q) && p.hash == q.hash);
        if (budget > 0) assert_int_equal(all, exact);
        int16_t nodes[600];
        int len = 0;
        budget = PB_SCORE_BUDGET;
        if (!pb_can_score(&tac, &p, &budget, nodes, 0, &len)) continue;
        assert_true(pb_position_equal(f, &p, &q) && p.hash == q.hash);
        assert_int_equal(exact, 1);
        (*yes)++;
        for (int k = 0; k < len; k++) {
            int d = 0;
            while (d < 8 && !(pb_free(f, &q, q.ball, d) && pb_step_to(f, q.ball, d) == nodes[k])) d++;
            assert_true(d < 8);
            pb_undo u;
            int loser, mover = q.to_move;
            pb_step_result r = pb_step(f, &q, d, &u, &loser);
            assert_int_equal(r, k + 1 < len ? PB_STEP_BOUNCE : PB_STEP_GOAL);
            if (r == PB_STEP_GOAL) assert_int_equal(loser, mover ^ 1);
        }
    }
    pb_turnwalk_free(tw);
    pb_tactics_free(&tac);
    pb_field_free(f);
}

static void test_can_score(void **state) {
    (void)state;
    int yes = 0;
    can_score_fields(PB_RULES_BOOK, 2, 6, 8, 0, 0, &yes);
    can_score_fields(PB_RULES_BOOK, 2, 4, 6, 0, 0, &yes);
    can_score_fields(PB_RULES_HOCKEY, 2, 6, 8, 1, PB_DEAD_END_DRAW, &yes);
    can_score_fields(PB_RULES_HOCKEY, 2, 4, 6, 0, PB_DEAD_END_LOSS, &yes);
    assert_true(yes > 50); /* the routes were checked on many positions */
}

/* The initial numbers from the ball's distance to the goal (pns.c,
 * goal_guess; used from roots reaching more than 80 free segments, in
 * games without draws) only order the search: the values with them equal
 * those without them, and alpha-beta's where it is quick, at random
 * positions of fields large enough for them (book (2;4;8), hockey (2;4;8)
 * with lost dead ends); and they are in use there (the node counts
 * differ). */
static void test_heuristic(void **state) {
    (void)state;
    static const pb_field_spec specs[] = {{PB_RULES_BOOK, 2, 4, 8, 0, 0},
                                          {PB_RULES_HOCKEY, 2, 4, 8, 1, PB_DEAD_END_LOSS}};
    uint64_t seed = 515;
    int differ = 0, checked = 0;
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        const pb_field_spec *sp = &specs[i];
        pb_field *f = ts_field(sp->rules, sp->goal, sp->width, sp->length, sp->setback, sp->dead_end);
        pb_position p;
        for (int k = 0; k < 8; k++) {
            random_position(f, &p, 8 + (int)(lcg(&seed) % 8), &seed);
            if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
            pb_pns_opts o = {0};
            pb_pns_stats with, without;
            o.node_limit = 300000;
            int v = pb_pns_value(f, &p, &o, &with);
            o.no_heuristic = 1;
            int w = pb_pns_value(f, &p, &o, &without);
            if (v == PB_UNKNOWN || w == PB_UNKNOWN) continue; /* beyond the test's budget */
            assert_int_equal(v, w);
            if (without.nodes < 20000) assert_int_equal(ts_ab_value(f, &p), v); /* alpha-beta where it is quick */
            differ += with.nodes != without.nodes;
            checked++;
        }
        pb_field_free(f);
    }
    print_message("heuristic: %d positions checked, %d with other node counts\n", checked, differ);
    assert_true(checked >= 8);
    assert_true(differ >= 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_goal_at_once),     cmocka_unit_test(test_starts),
        cmocka_unit_test(test_book_random),      cmocka_unit_test(test_hockey_random),
        cmocka_unit_test(test_triple_random),    cmocka_unit_test(test_against_alpha_beta),
        cmocka_unit_test(test_stopped),          cmocka_unit_test(test_growth),
        cmocka_unit_test(test_growth_waits),     cmocka_unit_test(test_solve_pn),
        cmocka_unit_test(test_can_score),        cmocka_unit_test(test_heuristic),
        cmocka_unit_test(test_questions_shared), cmocka_unit_test(test_complement_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
