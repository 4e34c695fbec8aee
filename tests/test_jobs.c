/* test_jobs.c - job-level proof-number search (solver/jobs.c) driven by
 * simulated workers (each a pb_solver of its own, answering its jobs in a
 * random order, within a node budget from none to tiny), against the brute
 * force of tests/ref_minimax.c: the root's value and, with first turns,
 * the value of every position after a first turn; starts and random
 * positions of every rule set.  Also: jobs in flight at once are different
 * positions, and the proven log holds only true values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jobs.h"
#include "random_play.h"
#include "ref_minimax.h"
#include "test_support.h"
#include "turnwalk.h"

#define REF_BUDGET 3000000ULL
#define MAXW 4

typedef struct sim {
    const pb_field *f;
    pb_solver *s[MAXW];
    size_t cursor[MAXW];
    long job[MAXW]; /* in flight, or -1 */
    pb_position pos[MAXW];
    int maxflight; /* most jobs out at once */
    uint64_t sent;
} sim;

/* Solves p with W workers and budget (0 = none), answering in an order
 * drawn from seed.  Returns the graph (to be freed). */
static pb_jobs *run(const pb_field *f, const pb_position *p, int first_turns, int W, uint64_t budget, uint64_t seed,
                    sim *sm, const pb_proven *known) {
    memset(sm, 0, sizeof *sm);
    sm->f = f;
    pb_jobs *j = pb_jobs_new(f, p, first_turns, known);
    assert_non_null(j);
    for (int w = 0; w < W; w++) {
        sm->s[w] = pb_solver_new_threads(f, 1 << 16, 1);
        assert_non_null(sm->s[w]);
        sm->job[w] = -1;
    }
    for (int guard = 0; guard < 1000000; guard++) {
        /* Every idle worker gets a job if there is one. */
        int flight = 0, done = 0;
        for (int w = 0; w < W; w++) {
            if (sm->job[w] < 0) {
                long id = pb_jobs_next(j, w, &sm->pos[w]);
                assert_true(id >= 0 || id == PB_JOBS_NONE || id == PB_JOBS_DONE);
                if (id == PB_JOBS_DONE) done = 1;
                if (id >= 0) sm->job[w] = id, sm->sent++;
            }
            if (sm->job[w] >= 0) flight++;
        }
        if (flight > sm->maxflight) sm->maxflight = flight;
        /* Jobs out at once are different positions. */
        for (int a = 0; a < W; a++)
            for (int b = a + 1; b < W; b++)
                if (sm->job[a] >= 0 && sm->job[b] >= 0) assert_true(sm->job[a] != sm->job[b]);
        if (!flight) {
            assert_true(done);
            assert_true(pb_jobs_done(j));
            break;
        }
        /* One job, drawn at random, comes back. */
        int w = (int)(lcg(&seed) % (uint32_t)W);
        while (sm->job[w] < 0) w = (w + 1) % W;
        for (; sm->cursor[w] < pb_jobs_log_size(j); sm->cursor[w]++) {
            pb_position q;
            int v;
            pb_jobs_log_get(j, sm->cursor[w], &q, &v);
            pb_solver_learn(sm->s[w], &q, v);
        }
        int v = pb_solver_value_budget(sm->s[w], &sm->pos[w], budget);
        assert_int_equal(pb_jobs_result(j, sm->job[w], v), 0);
        sm->job[w] = -1;
    }
    for (int w = 0; w < W; w++) pb_solver_free(sm->s[w]);
    return j;
}

typedef struct kids {
    pb_position pos[256];
    int ref[256];
    int n;
} kids;

static int kid(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    kids *k = ctx;
    (void)f;
    if (o->end == PB_END_NONE && k->n < 256) k->pos[k->n++] = *o->after;
    return 0;
}

/* The root's value and every first turn's against the brute force, for
 * several worker counts, budgets and orders.  Returns the root's value. */
static int check(const pb_field *f, const pb_position *p, uint64_t seed) {
    int want = pb_ref_minimax_value(f, p, REF_BUDGET);
    if (want == PB_UNKNOWN) return PB_UNKNOWN;
    static const uint64_t budgets[] = {20000, 1};
    pb_turnwalk *tw = pb_turnwalk_new(f);
    kids *k = malloc(sizeof *k);
    k->n = 0;
    pb_turn_outcomes(tw, p, kid, k);
    for (int i = 0; i < k->n; i++) k->ref[i] = pb_ref_minimax_value(f, &k->pos[i], REF_BUDGET);
    for (int W = 1; W <= 3; W += 2)
        for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
            sim sm;
            pb_jobs *j = run(f, p, 0, W, budgets[b], seed + (uint64_t)b, &sm, NULL);
            assert_int_equal(pb_jobs_value(j, p), want);
            /* The log holds true values (checked on a few the brute force
             * reaches). */
            for (size_t i = 0, logged = 0; i < pb_jobs_log_size(j) && logged < 3; i++) {
                pb_position q;
                int v;
                pb_jobs_log_get(j, i, &q, &v);
                int ref = pb_ref_minimax_value(f, &q, REF_BUDGET);
                if (ref == PB_UNKNOWN) continue;
                assert_int_equal(v, ref);
                logged++;
            }
            pb_jobs_free(j);
            j = run(f, p, 1, W, budgets[b], seed + 7 + (uint64_t)b, &sm, NULL);
            for (int i = 0; i < k->n; i++) {
                int ref = k->ref[i], v = pb_jobs_value(j, &k->pos[i]);
                assert_true(v == PB_WIN || v == PB_DRAW || v == PB_LOSS);
                if (ref != PB_UNKNOWN) assert_int_equal(v, ref); /* (the brute force may not reach it) */
            }
            pb_jobs_free(j);
        }
    free(k);
    pb_turnwalk_free(tw);
    return want;
}

static void starts(pb_rules rules, int g, int w, int l, int s, pb_dead_end de) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_position p;
    for (int first = 0; first < 2; first++) {
        pb_position_start(f, &p, first);
        char d[128];
        if (check(f, &p, 11 + (uint64_t)first) == PB_UNKNOWN)
            fail_msg("%s: beyond the brute force's budget", pb_field_describe(f, d, sizeof d));
    }
    pb_field_free(f);
}

static void test_starts(void **state) {
    (void)state;
    starts(PB_RULES_BOOK, 2, 2, 4, 0, 0);
    starts(PB_RULES_BOOK, 2, 4, 2, 0, 0);
    starts(PB_RULES_HOCKEY, 2, 2, 4, 0, PB_DEAD_END_DRAW);
    starts(PB_RULES_HOCKEY, 2, 2, 4, 1, PB_DEAD_END_LOSS);
    starts(PB_RULES_TRIPLE, 2, 2, 4, 0, 0);
    starts(PB_RULES_TRIPLE, 2, 4, 4, 0, 0);
}

/* Random positions within the brute force's reach; the values seen as
 * bits (loss 1, draw 2, win 4). */
static int randoms(pb_rules rules, int g, int w, int l, int s, pb_dead_end de, int want, int turns, uint64_t seed) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_position p;
    int checked = 0, seen = 0;
    for (int k = 0; k < 400 && checked < want; k++) {
        random_position(f, &p, 2 + (int)(lcg(&seed) % (uint32_t)turns), &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
        int v = check(f, &p, seed);
        if (v == PB_UNKNOWN) continue;
        seen |= 1 << (v + 1);
        checked++;
    }
    assert_int_equal(checked, want);
    pb_field_free(f);
    return seen;
}

static void test_random(void **state) {
    (void)state;
    assert_int_equal(randoms(PB_RULES_BOOK, 2, 4, 4, 0, 0, 4, 30, 5) | randoms(PB_RULES_BOOK, 2, 4, 6, 0, 0, 4, 40, 6),
                     5);
    int seen = randoms(PB_RULES_HOCKEY, 2, 4, 4, 1, PB_DEAD_END_DRAW, 4, 12, 7);
    seen |= randoms(PB_RULES_HOCKEY, 2, 4, 6, 0, PB_DEAD_END_DRAW, 4, 24, 8);
    assert_true(seen & 2);
    seen = randoms(PB_RULES_TRIPLE, 2, 4, 6, 0, 0, 4, 40, 9);
    assert_true(seen & 5);
}

/* A position too big for one job: three workers get different jobs at
 * once, the graph grows, and the answer is alpha-beta's. */
static void test_spread(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 4, 6, 0, 0);
    pb_position p;
    pb_position_start(f, &p, PB_BOTTOM);
    pb_solver *s = pb_solver_new(f, (size_t)8 << 20);
    int want = pb_solver_value(s, &p);
    pb_solver_free(s);
    sim sm;
    pb_jobs *j = run(f, &p, 1, 3, 20000, 99, &sm, NULL);
    assert_int_equal(pb_jobs_value(j, &p), want);
    assert_int_equal(sm.maxflight, 3);
    pb_jobs_stats st;
    pb_jobs_get_stats(j, &st);
    assert_true(st.failed > 0 && st.expanded == st.failed + 1 && st.sent == st.proven + st.failed);
    assert_true(st.home > 0);
    pb_jobs_free(j);
    pb_field_free(f);
}

/* Rebuilt from saved proofs: with the values after the first turns saved
 * (as a checkpoint holds them), the root's value and the first turns' come
 * back without a job; with only part of the graph's proofs saved, the
 * answers are the same. */
static void test_rebuild(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_HOCKEY, 2, 4, 4, 1, PB_DEAD_END_DRAW);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    sim sm;
    pb_jobs *j = run(f, &p, 1, 2, 3000, 5, &sm, NULL);
    int want = pb_jobs_value(j, &p);
    assert_int_equal(want, pb_ref_minimax_value(f, &p, REF_BUDGET));
    kids *k = malloc(sizeof *k);
    k->n = 0;
    pb_turnwalk *tw = pb_turnwalk_new(f);
    pb_turn_outcomes(tw, &p, kid, k);
    pb_proven store;
    pb_proven_init(&store, f, &p, 0, 0);
    for (int i = 0; i < k->n; i++) {
        int v = pb_jobs_value(j, &k->pos[i]);
        pb_proven_note(&store, &k->pos[i], v, v, 8, PB_PROVEN_PINNED);
    }
    pb_proven_publish(&store);
    pb_jobs *r = run(f, &p, 1, 2, 3000, 6, &sm, &store);
    pb_jobs_stats st;
    pb_jobs_get_stats(r, &st);
    assert_int_equal(st.sent, 0);
    assert_int_equal(pb_jobs_value(r, &p), want);
    for (int i = 0; i < k->n; i++) assert_int_equal(pb_jobs_value(r, &k->pos[i]), pb_jobs_value(j, &k->pos[i]));
    pb_jobs_free(r);
    pb_proven_free(&store);
    /* Half the proven log saved: the same answers. */
    pb_proven_init(&store, f, &p, 0, 0);
    for (size_t i = 0; i < pb_jobs_log_size(j) / 2; i++) {
        pb_position q;
        int v;
        pb_jobs_log_get(j, i, &q, &v);
        pb_proven_note(&store, &q, v, v, 8, PB_PROVEN_PINNED);
    }
    pb_proven_publish(&store);
    r = run(f, &p, 1, 2, 3000, 7, &sm, &store);
    for (int i = 0; i < k->n; i++) assert_int_equal(pb_jobs_value(r, &k->pos[i]), pb_jobs_value(j, &k->pos[i]));
    pb_jobs_free(r);
    pb_proven_free(&store);
    pb_jobs_free(j);
    pb_turnwalk_free(tw);
    free(k);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_starts),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_spread),
        cmocka_unit_test(test_rebuild),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
