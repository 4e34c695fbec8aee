/* test_pns_threads.c - proof-number search on several threads (one table
 * shared by the threads' searches, solver/pns.c argument 5): values with 1
 * and 2 threads (a value alone: in book and hockey a search and its
 * helper, a team; in triple one search) agree with each
 * other and with alpha-beta at the starts and
 * random positions of book, hockey (both dead-end options) and triple, with
 * a tiny and a large table; the first-turn classes dealt to 2 threads agree
 * with 1 thread (in book and hockey, classes handed over to the team among
 * them); and two threads solving hundreds of positions at once on
 * one tiny table (constant contention and replacement) answer every one as
 * one thread with a table of its own does.  No value may depend on the thread count. */
#include <pthread.h>
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
#include "test_support.h"

/* pb_solve with proof-number search: the value on `threads` threads and a
 * table of `table` bytes (first_turns: every class too, into *r). */
static int pn_solve(const pb_field *f, const pb_position *p, int threads, size_t table, int first_turns,
                    pb_solve_result *r) {
    pb_solve_opts o = {0};
    o.threads = threads;
    o.algo = PB_ALGO_PN;
    o.hash_bytes = table;
    o.first_turns = first_turns;
    o.no_pv = 1;
    assert_int_equal(pb_solve(f, p, &o, r), 0);
    assert_false(r->stopped);
    assert_true(r->value == PB_WIN || r->value == PB_DRAW || r->value == PB_LOSS);
    return r->value;
}

/* Value only: 1 and 2 threads, a 64 KiB and a 16 MiB table, all equal to
 * alpha-beta; with 2 threads a team in book and hockey, else the very
 * search of 1 thread (the same nodes); every first-turn class on 2
 * threads (tiny table) equal to 1 thread's. */
static void check_position(const pb_field *f, const pb_position *p) {
    static const size_t tables[] = {(size_t)64 << 10, (size_t)16 << 20};
    int want = ts_ab_value(f, p);
    uint64_t one[2] = {0, 0};
    for (int t = 1; t <= 2; t++)
        for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
            pb_solve_result r;
            int v = pn_solve(f, p, t, tables[i], 0, &r);
            if (t == 1) one[i] = r.nodes;
            else if (pb_turns_are_steps(f)) assert_int_equal(r.threads, 2);
            else assert_int_equal(r.nodes, one[i]), assert_int_equal(r.threads, 1);
            pb_solve_result_free(&r);
            if (v != want) {
                char d[128];
                fail_msg("%s: pn on %d threads (table %zu) says %s, alpha-beta %s", pb_field_describe(f, d, sizeof d),
                         t, tables[i], pb_value_name(v), pb_value_name(want));
            }
        }
    pb_solve_result r1, r2;
    assert_int_equal(pn_solve(f, p, 1, (size_t)16 << 20, 1, &r1), want);
    assert_int_equal(pn_solve(f, p, 2, (size_t)64 << 10, 1, &r2), want);
    assert_int_equal(r2.nturns, r1.nturns);
    if (!pb_turns_are_steps(f)) assert_int_equal(r2.handed, 0); /* no team in triple */
    assert_true(r2.handed <= 1);                                /* one thread hands over, once */
    for (int i = 0; i < r1.nturns && !r1.overflow; i++) assert_int_equal(r2.turns[i].value, r1.turns[i].value);
    pb_solve_result_free(&r1);
    pb_solve_result_free(&r2);
}

/* The start (both first players; starts: 1) and `n` random positions
 * after min .. min + turns - 1 turns of a field. */
static void field_positions(pb_rules rules, int g, int w, int l, int s, pb_dead_end de, int starts, int n, int min,
                            int turns, uint64_t seed) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_position p;
    for (int first = 0; first < 2 && starts; first++) {
        pb_position_start(f, &p, first);
        check_position(f, &p);
    }
    for (int k = 0, done = 0; k < 100 && done < n; k++) {
        random_position(f, &p, min + (int)(lcg(&seed) % (uint32_t)turns), &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
        check_position(f, &p);
        done++;
    }
    pb_field_free(f);
}

static void test_book(void **state) {
    (void)state;
    field_positions(PB_RULES_BOOK, 2, 4, 4, 0, 0, 1, 6, 1, 20, 11);
    field_positions(PB_RULES_BOOK, 2, 4, 6, 0, 0, 0, 6, 4, 30, 12);
    field_positions(PB_RULES_BOOK, 2, 6, 8, 0, 0, 0, 6, 36, 20, 13);
}

/* A class handed over: with --first-turns on 2 threads the first thread
 * out of classes has the other hand its class over to the team of both
 * (solver/search.c, pn_classes).  Book (2;4;6) leaves one large class
 * after the value, so a handing over comes in nearly every run; the
 * classes must be those of 1 thread whether it came or not, and the test
 * is skipped only if three runs in a row never saw one (an oddly
 * scheduled machine). */
static void test_handover(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 4, 6, 0, 0);
    pb_position p;
    pb_position_start(f, &p, 0);
    pb_solve_result r1;
    int want = pn_solve(f, &p, 1, (size_t)16 << 20, 1, &r1);
    int seen = 0;
    for (int k = 0; k < 3 && !seen; k++) {
        pb_solve_result r2;
        assert_int_equal(pn_solve(f, &p, 2, (size_t)64 << 20, 1, &r2), want);
        assert_int_equal(r2.nturns, r1.nturns);
        for (int i = 0; i < r1.nturns; i++) assert_int_equal(r2.turns[i].value, r1.turns[i].value);
        seen = r2.handed;
        pb_solve_result_free(&r2);
    }
    pb_solve_result_free(&r1);
    pb_field_free(f);
    if (!seen) skip();
}

static void test_hockey(void **state) {
    (void)state;
    for (int de = 0; de < 2; de++) {
        field_positions(PB_RULES_HOCKEY, 2, 4, 4, 1, de, 1, 6, 1, 12, 21 + (uint64_t)de);
        field_positions(PB_RULES_HOCKEY, 2, 4, 6, 1, de, 1, 6, 1, 24, 23 + (uint64_t)de);
    }
}

static void test_triple(void **state) {
    (void)state;
    field_positions(PB_RULES_TRIPLE, 2, 4, 4, 0, 0, 1, 6, 1, 20, 31);
    field_positions(PB_RULES_TRIPLE, 2, 4, 6, 0, 0, 0, 6, 4, 30, 32);
}

/* The value by proof-number search on one thread with a table of its own
 * (checked against alpha-beta above and in test_pns). */
static int pn_one(const pb_field *f, const pb_position *p) {
    pb_pns_opts o = {0};
    o.table_bytes = (size_t)16 << 20;
    return pb_pns_value(f, p, &o, NULL);
}

/* Two searches on one shared table, on two threads, each solving every
 * position of a list (one from the front, one from the back) while the
 * other stores into the same tiny table. */
typedef struct team_job {
    pb_pns *x;
    const pb_position *pos;
    int n, backwards;
    int *got;
} team_job;

static void *team_run(void *arg) {
    team_job *j = arg;
    for (int i = 0; i < j->n; i++) {
        int k = j->backwards ? j->n - 1 - i : i;
        j->got[k] = pb_pns_solve(j->x, &j->pos[k]);
    }
    return NULL;
}

static void shared_loop(pb_rules rules, int g, int w, int l, int s, pb_dead_end de, int n, int min, int turns,
                        uint64_t seed) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_position *pos = malloc(sizeof *pos * (size_t)n), start;
    int *want = malloc(sizeof(int) * (size_t)n), *got[2];
    got[0] = malloc(sizeof(int) * (size_t)n), got[1] = malloc(sizeof(int) * (size_t)n);
    int m = 0;
    while (m < n) {
        random_position(f, &pos[m], min + (int)(lcg(&seed) % (uint32_t)turns), &seed);
        if (pb_routes_foreach(f, &pos[m], NULL, NULL) <= 0) continue;
        want[m] = pn_one(f, &pos[m]);
        m++;
    }
    pb_position_start(f, &start, PB_TOP);
    pb_pns_opts o = {0};
    o.table_bytes = (size_t)64 << 10;
    o.threads = 2;
    pb_pns *x[2];
    x[0] = pb_pns_new(f, &start, &o);
    assert_non_null(x[0]);
    x[1] = pb_pns_new_sharing(x[0], &start, &o);
    assert_non_null(x[1]);
    pthread_t th[2];
    team_job jobs[2];
    for (int t = 0; t < 2; t++) {
        jobs[t] = (team_job){x[t], pos, n, t, got[t]};
        assert_int_equal(pthread_create(&th[t], NULL, team_run, &jobs[t]), 0);
    }
    for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
    for (int i = 0; i < n; i++)
        for (int t = 0; t < 2; t++)
            if (got[t][i] != want[i]) {
                char d[128];
                fail_msg("%s: position %d, thread %d says %s, alpha-beta %s", pb_field_describe(f, d, sizeof d), i, t,
                         pb_value_name(got[t][i]), pb_value_name(want[i]));
            }
    pb_pns_free(x[1]);
    pb_pns_free(x[0]);
    free(got[0]), free(got[1]), free(want), free(pos);
    pb_field_free(f);
}

static void test_shared_table_loop(void **state) {
    (void)state;
    shared_loop(PB_RULES_BOOK, 2, 6, 8, 0, 0, 200, 30, 20, 41);
    shared_loop(PB_RULES_HOCKEY, 2, 4, 6, 1, PB_DEAD_END_DRAW, 100, 1, 24, 42);
    shared_loop(PB_RULES_HOCKEY, 2, 4, 6, 1, PB_DEAD_END_LOSS, 100, 1, 24, 43);
    shared_loop(PB_RULES_TRIPLE, 2, 4, 6, 0, 0, 100, 4, 30, 44);
}

/* A team on one large table (pns.h): the main search on this thread, its
 * helper on another, solving book (2;6;4) from the start, long enough for
 * the table to grow past its start (64 MiB) with the helper parked (with
 * grow_reuse 1: by default a table beyond 64 MiB waits for 16 stores per
 * way, which this search does not make), and
 * for the helper to be called off many times; the value equals one
 * thread's (checked against alpha-beta in test_pns on smaller fields). */
typedef struct helper_job {
    pb_pns *x;
    pb_pns_team *tm;
} helper_job;

static void *helper_run(void *arg) {
    helper_job *j = arg;
    pb_pns_help(j->x, j->tm);
    return NULL;
}

/* A search sharing another's table keys positions as its owner does,
 * whatever its own root: a helper made for a first-turn position (which
 * no mirror image of it is) beside an owner made for the start, whose
 * images are all four.  Each position after a first turn of book (2;4;4),
 * solved by the helper alone, is then known to the owner, with the value
 * alpha-beta gives.  (A helper keying by its own root's images stored the
 * positions whose lowest image is not the identity where the owner never
 * looks.) */
static void test_sharing_keys_alike(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 4, 4, 0, 0);
    pb_position start;
    pb_position_start(f, &start, PB_TOP);
    pb_pns_opts o = {0};
    o.table_bytes = (size_t)4 << 20;
    o.threads = 2;
    pb_pns *x = pb_pns_new(f, &start, &o);
    assert_non_null(x);
    int tried = 0;
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, &start, start.ball, d)) continue;
        pb_position q = start;
        pb_undo u;
        int loser;
        if (pb_step(f, &q, d, &u, &loser) != PB_STEP_STOP) continue;
        pb_pns *h = pb_pns_new_sharing(x, &q, &o);
        assert_non_null(h);
        int v = pb_pns_solve(h, &q);
        assert_int_equal(v, ts_ab_value(f, &q));
        assert_int_equal(pb_pns_known(x, &q), v);
        pb_pns_free(h);
        tried++;
    }
    assert_int_equal(tried, 8);
    pb_pns_free(x);
    pb_field_free(f);
}

static void test_team_grows(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 4, 0, 0);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_pns_opts o = {0};
    o.table_bytes = (size_t)1 << 30;
    pb_pns_stats s1;
    int want = pb_pns_value(f, &p, &o, &s1);
    assert_int_equal(want, PB_WIN); /* results/solved.md: Top wins book (2;6;4) */
    /* A doubling drops nothing: each new bucket receives the entries of
     * one old bucket, four at most, each placed by its own hash. */
    assert_true(s1.grown >= 1);
    assert_int_equal(s1.lost, 0);
    o.threads = 2, o.team = 1, o.grow_reuse = 1;
    pb_pns *x = pb_pns_new(f, &p, &o);
    assert_non_null(x);
    pb_pns *h = pb_pns_new_sharing(x, &p, &o);
    assert_non_null(h);
    pb_pns_team *tm = pb_pns_team_new();
    assert_non_null(tm);
    pb_pns_team_join(x, tm);
    helper_job j = {h, tm};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, helper_run, &j), 0);
    int got = pb_pns_solve(x, &p);
    pb_pns_team_over(tm);
    pthread_join(th, NULL);
    pb_pns_team_join(x, NULL);
    pb_pns_stats st, sh;
    pb_pns_get_stats(x, &st);
    pb_pns_get_stats(h, &sh);
    assert_int_equal(got, want);
    assert_true(st.grown >= 1);
    assert_int_equal(st.lost, 0); /* so too when the helper moves half of each stage */
    assert_true(sh.nodes > 0);    /* the helper searched */
    pb_pns_team_free(tm);
    pb_pns_free(h);
    pb_pns_free(x);
    pb_field_free(f);
}

/* A crew (pns.h) on one table that grows: this thread solves book (2;6;4)
 * from the start, another thread positions after its first turns, each
 * question given up for a growth asked again (grow_reuse 1, as above), so
 * that the table grows past 64 MiB with both at work; every value equals
 * one thread's on a table of its own. */
typedef struct crew_job {
    pb_pns *x;
    const pb_position *pos;
    int n, *got, waits;
} crew_job;

static void *crew_run(void *arg) {
    crew_job *j = arg;
    for (int i = 0; i < j->n; i++) {
        int v;
        while ((v = pb_pns_solve(j->x, &j->pos[i])) == PB_UNKNOWN && pb_pns_crew_wait(j->x)) j->waits++;
        j->got[i] = v;
    }
    pb_pns_crew_leave(j->x);
    return NULL;
}

static void test_crew_grows(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 4, 0, 0);
    enum { N = 6 };
    pb_position pos[N + 1];
    pb_position_start(f, &pos[0], PB_TOP);
    uint64_t seed = 5;
    for (int i = 1; i <= N; i++) random_position(f, &pos[i], 1 + i % 3, &seed);
    pb_pns_opts o = {0};
    o.table_bytes = (size_t)1 << 30;
    o.threads = 2, o.team = 1, o.grow_reuse = 1;
    pb_pns *x = pb_pns_new(f, &pos[0], &o);
    assert_non_null(x);
    pb_pns *h = pb_pns_new_sharing(x, &pos[0], &o);
    assert_non_null(h);
    pb_pns_crew *c = pb_pns_crew_new(x);
    assert_non_null(c);
    int got[N + 1];
    crew_job jx = {x, pos, 1, got, 0}, jh = {h, pos + 1, N, got + 1, 0};
    pb_pns_crew_join(x, c);
    pb_pns_crew_join(h, c);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, crew_run, &jh), 0);
    crew_run(&jx);
    pthread_join(th, NULL);
    pb_pns_crew_free(c);
    pb_pns_stats st, sh;
    pb_pns_get_stats(x, &st);
    pb_pns_get_stats(h, &sh);
    assert_true(st.grown >= 1);
    assert_int_equal(st.lost, 0);
    assert_true(sh.nodes > 0);
    print_message("crew: grown %d, questions asked again %d + %d\n", (int)st.grown, jx.waits, jh.waits);
    assert_true(jx.waits + jh.waits >= (int)st.grown); /* each growth: a question given up, asked again */
    for (int i = 0; i <= N; i++) {
        pb_pns_opts one = {0};
        one.table_bytes = (size_t)64 << 20;
        assert_int_equal(got[i], pb_pns_value(f, &pos[i], &one, NULL));
    }
    assert_int_equal(got[0], PB_WIN); /* results/solved.md: Top wins book (2;6;4) */
    pb_pns_free(h);
    pb_pns_free(x);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_book),       cmocka_unit_test(test_handover),           cmocka_unit_test(test_hockey),
        cmocka_unit_test(test_triple),     cmocka_unit_test(test_shared_table_loop),  cmocka_unit_test(test_team_grows),
        cmocka_unit_test(test_crew_grows), cmocka_unit_test(test_sharing_keys_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
