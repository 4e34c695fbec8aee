/* test_perft.c - perft and positions per depth, cross-checked against the
 * naive reference (tests/ref_perft.c), and mirror invariance. */
#include "perft.h"
#include "ref_perft.h"
#include "test_support.h"

typedef struct perft_case {
    pb_rules rules;
    int g, w, l, s;
    pb_dead_end de;
    int depth;
} perft_case;

static void cross_check(const perft_case *c) {
    pb_field *f = ts_field(c->rules, c->g, c->w, c->l, c->s, c->de);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_perft_row rows[16];
    ref_counts ref[16];
    int n = pb_perft(f, &p, c->depth, rows);
    /* The depth-first count, on 1 and 2 threads, gives the same sequences
     * and finished games. */
    pb_perft_row dfs1[16], dfs2[16];
    assert_int_equal(pb_perft_count(f, &p, c->depth, 1, dfs1), 0);
    assert_int_equal(pb_perft_count(f, &p, c->depth, 2, dfs2), 0);
    /* Depth-first from the root (nothing breadth-first), every last turn
     * with a bounce walked by its outcomes: the other paths of the count. */
    pb_perft_row tuned[16];
    assert_int_equal(pb_perft_count_tuned(f, &p, c->depth, 2, 1, 1, tuned), 0);
    /* A stop flag never set changes nothing; one set before the start
     * stops both counts at once (no row, or -2: no row exact). */
    volatile sig_atomic_t go = 0, halt = 1;
    pb_perft_row until[16], none[16];
    assert_int_equal(pb_perft_until(f, &p, c->depth, &go, until), n);
    assert_int_equal(pb_perft_until(f, &p, c->depth, &halt, none), 0);
    assert_int_equal(pb_perft_count_until(f, &p, c->depth, 2, &halt, none), -2);
    for (int d = 1; d <= n; d++) assert_int_equal(until[d - 1].positions, rows[d - 1].positions);
    ref_perft(c->rules == PB_RULES_HOCKEY, c->g, c->w, c->l, c->s, c->de == PB_DEAD_END_LOSS, c->depth, ref);
    for (int d = 1; d <= c->depth; d++) {
        uint64_t seq = d <= n ? rows[d - 1].sequences : 0, pos = d <= n ? rows[d - 1].positions : 0;
        uint64_t fin = d <= n ? rows[d - 1].finished : 0;
        if (seq != ref[d - 1].sequences || pos != ref[d - 1].positions || fin != ref[d - 1].finished)
            fail_msg("%s (%d;%d;%d) S=%d depth %d: fast %llu/%llu/%llu, naive %llu/%llu/%llu", pb_rules_name(c->rules),
                     c->g, c->w, c->l, c->s, d, (unsigned long long)seq, (unsigned long long)pos,
                     (unsigned long long)fin, (unsigned long long)ref[d - 1].sequences,
                     (unsigned long long)ref[d - 1].positions, (unsigned long long)ref[d - 1].finished);
        assert_int_equal(pb_perft_dfs(f, &p, d), ref[d - 1].sequences);
        assert_int_equal(dfs1[d - 1].sequences, ref[d - 1].sequences);
        assert_int_equal(dfs1[d - 1].finished, ref[d - 1].finished);
        assert_int_equal(dfs2[d - 1].sequences, ref[d - 1].sequences);
        assert_int_equal(dfs2[d - 1].finished, ref[d - 1].finished);
        assert_int_equal(tuned[d - 1].sequences, ref[d - 1].sequences);
        assert_int_equal(tuned[d - 1].finished, ref[d - 1].finished);
        assert_false(dfs1[d - 1].overflow);
        assert_int_equal(p.hash, pb_position_hash_full(f, &p));
    }
    pb_field_free(f);
}

static void test_first_turns(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    assert_int_equal(pb_perft_dfs(f, &p, 1), 8);
    pb_field_free(f);
    f = ts_field(PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW);
    pb_position_start(f, &p, PB_TOP);
    assert_int_equal(pb_perft_dfs(f, &p, 1), 14);
    pb_field_free(f);
}

static void test_against_naive(void **state) {
    (void)state;
    static const perft_case cases[] = {
        {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW, 4},    {PB_RULES_BOOK, 2, 4, 4, 0, PB_DEAD_END_DRAW, 4},
        {PB_RULES_BOOK, 2, 2, 6, 0, PB_DEAD_END_DRAW, 3},    {PB_RULES_BOOK, 4, 4, 2, 0, PB_DEAD_END_DRAW, 3},
        {PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW, 4},    {PB_RULES_HOCKEY, 2, 4, 4, 1, PB_DEAD_END_DRAW, 1},
        {PB_RULES_HOCKEY, 2, 6, 8, 1, PB_DEAD_END_DRAW, 3},  {PB_RULES_HOCKEY, 2, 6, 8, 1, PB_DEAD_END_LOSS, 3},
        {PB_RULES_HOCKEY, 2, 4, 4, 0, PB_DEAD_END_DRAW, 4},  {PB_RULES_HOCKEY, 2, 6, 6, 2, PB_DEAD_END_DRAW, 3},
        {PB_RULES_HOCKEY, 2, 8, 10, 1, PB_DEAD_END_DRAW, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) cross_check(&cases[i]);
}

/* A position reached by some turns, and its three mirror images, have the
 * same perft at every depth (tb swaps the players, which the rules allow). */
static void test_mirror_invariance(void **state) {
    (void)state;
    const char *records[] = {"d6-e7 e7-e8 e8-d8 d8-c7", "d6-c5 c5-b4 b4-a3-b2-c3", "d6-d7"};
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW);
    for (size_t k = 0; k < sizeof records / sizeof records[0]; k++) {
        pb_game g;
        char err[200];
        if (pb_record_parse(f, records[k], &g, err, sizeof err)) fail_msg("%s: %s", records[k], err);
        uint64_t base[4];
        pb_perft_row rows[3];
        assert_int_equal(pb_perft_count(f, &g.pos, 3, 2, rows), 0);
        for (int d = 1; d <= 3; d++) {
            base[d] = pb_perft_dfs(f, &g.pos, d);
            assert_int_equal(rows[d - 1].sequences, base[d]);
        }
        assert_true(base[3] > base[1]);
        for (int m = 1; m < 4; m++) {
            pb_position q;
            pb_position_mirror(f, &g.pos, &q, m & 1, m >> 1);
            assert_int_equal(q.hash, pb_position_hash_full(f, &q));
            if (m == 1 && k < 2) assert_int_not_equal(q.hash, g.pos.hash); /* "d6-d7" is its own lr image */
            for (int d = 1; d <= 3; d++) assert_int_equal(pb_perft_dfs(f, &q, d), base[d]);
        }
        pb_game_free(&g);
    }
    pb_field_free(f);
}

/* Triple: the depth-first count against route-by-route perft (itself
 * checked against the triple reference in test_triple) and the
 * breadth-first finished counts, from the start and from a record. */
static void test_triple_count(void **state) {
    (void)state;
    static const int fields[][4] = {{2, 4, 4, 4}, {2, 4, 6, 3}, {2, 6, 8, 2}}; /* G, W, L, depth */
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        pb_field *f = ts_field(PB_RULES_TRIPLE, fields[k][0], fields[k][1], fields[k][2], 0, PB_DEAD_END_DRAW);
        pb_position p;
        pb_position_start(f, &p, PB_TOP);
        int depth = fields[k][3];
        pb_perft_row bfs[4], dfs[4];
        int n = pb_perft(f, &p, depth, bfs);
        assert_int_equal(pb_perft_count(f, &p, depth, 2, dfs), 0);
        for (int d = 1; d <= depth; d++) {
            assert_int_equal(dfs[d - 1].sequences, pb_perft_dfs(f, &p, d));
            assert_int_equal(dfs[d - 1].finished, d <= n ? bfs[d - 1].finished : 0);
        }
        assert_true(dfs[0].sequences > 0);
        pb_field_free(f);
    }
}

/* The steps of a depth-first perft counted another way, from the routes:
 * the routes of one turn, listed in depth-first order (turn.h), are the
 * leaves of a tree of prefixes with one step per edge, and each route adds
 * the steps beyond its common prefix with the route before it. */
typedef struct prefix_ctx {
    int d;
    uint64_t steps;
    int16_t prev[256];
    int prevlen;
} prefix_ctx;

static uint64_t steps_by_routes(const pb_field *f, pb_position *p, int d);

static int prefix_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    prefix_ctx *x = c;
    assert_true(r->len <= 256);
    int k = 0;
    while (k < r->len && k < x->prevlen && r->nodes[k] == x->prev[k]) k++;
    assert_true(k >= 1); /* every route starts at the ball */
    x->steps += (uint64_t)(r->len - k);
    memcpy(x->prev, r->nodes, sizeof(int16_t) * (size_t)r->len);
    x->prevlen = r->len;
    if (x->d > 1 && r->end == PB_END_NONE) x->steps += steps_by_routes(f, after, x->d - 1);
    return 0;
}

static uint64_t steps_by_routes(const pb_field *f, pb_position *p, int d) {
    prefix_ctx x;
    x.d = d, x.steps = 0, x.prev[0] = p->ball, x.prevlen = 1;
    pb_routes_foreach(f, p, prefix_route, &x);
    return x.steps;
}

static void test_steps(void **state) {
    (void)state;
    /* By hand: the first turn on (2;6;8) is one step to each of the eight
     * empty neighbours of the centre. */
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    assert_int_equal(pb_perft_steps(f, &p, 1), 8);
    pb_field_free(f);
    static const perft_case cases[] = {
        {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW, 4},
        {PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW, 3},
        {PB_RULES_HOCKEY, 2, 4, 4, 0, PB_DEAD_END_DRAW, 3},
        {PB_RULES_HOCKEY, 2, 4, 4, 1, PB_DEAD_END_DRAW, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const perft_case *c = &cases[k];
        f = ts_field(c->rules, c->g, c->w, c->l, c->s, c->de);
        pb_position_start(f, &p, PB_TOP);
        for (int d = 1; d <= c->depth; d++) {
            uint64_t steps = pb_perft_steps(f, &p, d), ref = steps_by_routes(f, &p, d);
            if (steps != ref)
                fail_msg("%s (%d;%d;%d) depth %d: %llu steps, %llu by routes", pb_rules_name(c->rules), c->g, c->w,
                         c->l, d, (unsigned long long)steps, (unsigned long long)ref);
            assert_true(steps >= pb_perft_dfs(f, &p, d));
        }
        pb_field_free(f);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_turns),
        cmocka_unit_test(test_against_naive),
        cmocka_unit_test(test_mirror_invariance),
        cmocka_unit_test(test_triple_count),
        cmocka_unit_test(test_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
