/* test_keys.c - reduced keys (solver/reach.h): positions that differ only
 * in what the ball can never reach again share one key, positions that
 * differ where it can do not, and solving with reduced keys gives the
 * values of full keys and of the brute force (tests/ref_minimax.c): starts
 * and random positions of every rule set, both dead-end options,
 * proof-number search and alpha-beta, a tiny and a large table. */
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
#include "reach.h"
#include "ref_minimax.h"
#include "test_support.h"

#define REF_BUDGET 3000000ULL

/* ---- the keys of hand-made positions ---- */

/* Cuts the nodes `inside` off: every legal segment with exactly one end
 * among them is drawn, so the ball's component is those nodes (when the
 * segments among them that are left free connect them). */
static void fence_set(const pb_field *f, pb_position *p, const int *in) {
    for (int s = 0; s < f->nsegments; s++)
        if (in[f->segs[s].a] != in[f->segs[s].b] && !pb_drawn(p, s)) pb_draw_segment(f, p, s);
}

static void fence(const pb_field *f, pb_position *p, const char *const *inside, int n) {
    int in[PB_MAX_LATTICE] = {0};
    for (int i = 0; i < n; i++) in[ts_node(f, inside[i])] = 1;
    fence_set(f, p, in);
}

/* The same around the ball's block of 3 x 3 nodes (less at an edge). */
static void fence_ball(const pb_field *f, pb_position *p) {
    int in[PB_MAX_LATTICE] = {0}, bx = pb_x(f, p->ball), by = pb_y(f, p->ball);
    for (int i = 0; i < f->nlattice; i++)
        in[i] = pb_is_node(f, i) && abs(pb_x(f, i) - bx) <= 1 && abs(pb_y(f, i) - by) <= 1;
    fence_set(f, p, in);
}

/* The start with the nodes `inside` fenced in and the ball on `ball`. */
static void fenced_start(const pb_field *f, pb_position *p, const char *const *inside, int n, const char *ball) {
    pb_position_start(f, p, PB_TOP);
    fence(f, p, inside, n);
    pb_set_ball(f, p, ts_node(f, ball));
}

/* f's orientations (the identity alone until told) and reduced keys at
 * the default limit (free with free()). */
static pb_reach *keyer(const pb_field *f, pb_images *im) {
    assert_int_equal(pb_images_init(im, f), 0);
    pb_reach *r = malloc(sizeof *r);
    assert_non_null(r);
    pb_reach_init(r, f, 0);
    return r;
}

typedef struct keyed {
    int reduced;
    pb_image_key k;
    uint64_t words[PB_MAX_WORDS];
} keyed;

static keyed key_of(pb_reach *r, const pb_images *im, const pb_position *p) {
    keyed x;
    memset(&x, 0, sizeof x);
    x.reduced = pb_reach_key(r, im, p, x.words, &x.k);
    return x;
}

static int same_key(const pb_field *f, const keyed *a, const keyed *b) {
    return a->reduced && b->reduced && a->k.hash == b->k.hash && a->k.bt == b->k.bt &&
           !memcmp(a->words, b->words, sizeof(uint64_t) * (size_t)f->nwords);
}

/* Book (2;6;8): the ball fenced in the square c4 d4 c5 d5 (six free
 * segments).  Drawn parts elsewhere differ, the key is one; a segment
 * drawn inside makes another key; so does another ball; the left-right
 * image keys alike when the images are used. */
static void test_fenced_square(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 8, 0, 0);
    static const char *const square[] = {"c4", "d4", "c5", "d5"};
    pb_position a, b, c, m;
    fenced_start(f, &a, square, 4, "c4");
    b = a;
    ts_draw(f, &a, "f9", "f10");
    ts_draw(f, &a, "b9", "c10");
    ts_draw(f, &b, "e2", "e3");
    c = a;
    ts_draw(f, &c, "c5", "d5");
    pb_images im;
    pb_reach *r = keyer(f, &im);
    assert_int_equal(pb_reach_fill(r, &a, 40), 6);
    keyed ka = key_of(r, &im, &a), kb = key_of(r, &im, &b), kc = key_of(r, &im, &c);
    assert_true(ka.reduced && kb.reduced && kc.reduced);
    assert_true(same_key(f, &ka, &kb));
    assert_false(memcmp(a.seg, b.seg, sizeof(uint64_t) * (size_t)f->nwords) == 0);
    assert_false(same_key(f, &ka, &kc));
    /* Values as the key says: the brute force finds a and b alike. */
    assert_int_equal(pb_ref_minimax_value(f, &a, REF_BUDGET), pb_ref_minimax_value(f, &b, REF_BUDGET));
    /* Another ball inside, or the other player to move: another key. */
    pb_position d = a;
    pb_set_ball(f, &d, ts_node(f, "d5"));
    keyed kd = key_of(r, &im, &d);
    assert_false(same_key(f, &ka, &kd));
    pb_set_to_move(f, &d, PB_BOTTOM);
    pb_set_ball(f, &d, ts_node(f, "c4"));
    kd = key_of(r, &im, &d);
    assert_false(same_key(f, &ka, &kd));
    /* The left-right image of a, keyed over all orientations, as a. */
    pb_images_all(&im);
    pb_position_mirror(f, &a, &m, 1, 0);
    ka = key_of(r, &im, &a);
    keyed km = key_of(r, &im, &m);
    assert_true(same_key(f, &ka, &km));
    /* Off, and over the limit: no reduced key. */
    pb_reach_init(r, f, 5);
    assert_false(key_of(r, &im, &a).reduced);
    pb_reach_init(r, f, -1);
    assert_false(key_of(r, &im, &a).reduced);
    /* The start: everything reachable, nothing drawn; within a large
     * limit its key is reduced all the same, with no segment in it. */
    pb_reach_init(r, f, 4096);
    pb_position_start(f, &d, PB_TOP);
    kd = key_of(r, &im, &d);
    assert_true(kd.reduced);
    for (int i = 0; i < f->nwords; i++) assert_true(kd.words[i] == 0);
    free(r);
    pb_images_free(&im);
    pb_field_free(f);
}

/* The ball fenced on the diagonal c4-d5 (one free segment).  The other
 * diagonal of its cell, d4-c5, has no end in R: book leaves it out of the
 * key, triple keeps it (a link may not cross a drawn diagonal). */
static void diagonal_case(pb_rules rules, int kept) {
    pb_field *f = ts_field(rules, 2, 6, 8, 0, 0);
    static const char *const pair[] = {"c4", "d5"};
    pb_position a, b;
    fenced_start(f, &a, pair, 2, "c4");
    b = a;
    ts_draw(f, &b, "d4", "c5");
    pb_images im;
    pb_reach *r = keyer(f, &im);
    assert_int_equal(pb_reach_fill(r, &a, 40), 1);
    keyed ka = key_of(r, &im, &a), kb = key_of(r, &im, &b);
    assert_int_equal(same_key(f, &ka, &kb), !kept);
    free(r);
    pb_images_free(&im);
    pb_field_free(f);
}

static void test_crossing_diagonal(void **state) {
    (void)state;
    diagonal_case(PB_RULES_BOOK, 0);
    diagonal_case(PB_RULES_TRIPLE, 1);
}

/* ---- values: reduced keys, full keys, the brute force ---- */

static int pn_value(const pb_field *f, const pb_position *p, size_t table, int limit, uint64_t *reduced) {
    pb_pns_opts o = {0};
    o.table_bytes = table;
    o.reduce_limit = limit;
    pb_pns_stats st;
    int v = pb_pns_value(f, p, &o, &st);
    assert_int_equal(st.stopped, 0);
    *reduced += st.reduced_keys;
    return v;
}

static int ab_value(const pb_field *f, const pb_position *p, size_t table, int limit) {
    pb_solve_opts o = {0};
    o.algo = PB_ALGO_AB;
    o.hash_bytes = table;
    o.reduce_limit = limit;
    o.no_pv = 1;
    pb_solve_result r;
    assert_int_equal(pb_solve(f, p, &o, &r), 0);
    int v = r.value;
    pb_solve_result_free(&r);
    return v;
}

/* p's value with full keys (pn, large table) equals the brute force's when
 * that is within its budget, and every method, table and limit of reduced
 * keys gives it. */
static void check_values(const pb_field *f, const pb_position *p, uint64_t *reduced) {
    static const int limits[] = {0, 4096, 8};
    static const size_t tables[] = {1 << 10, (size_t)16 << 20};
    int want = pn_value(f, p, tables[1], -1, reduced);
    int ref = pb_ref_minimax_value(f, p, REF_BUDGET);
    if (ref != PB_UNKNOWN) assert_int_equal(want, ref);
    assert_int_equal(ab_value(f, p, tables[1], -1), want);
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        for (size_t t = 0; t < 2; t++) {
            int v = pn_value(f, p, tables[t], limits[i], reduced), w = ab_value(f, p, tables[t], limits[i]);
            if (v != want || w != want) {
                char d[128];
                fail_msg("%s: reduced keys (limit %d, table %zu) give pn %s, ab %s; full keys %s",
                         pb_field_describe(f, d, sizeof d), limits[i], tables[t], pb_value_name(v), pb_value_name(w),
                         pb_value_name(want));
            }
        }
}

/* The start (start: 1) and `want` random positions after least ..
 * least + turns - 1 turns. */
static void positions(pb_rules rules, int g, int w, int l, int s, pb_dead_end de, int start, int want, int least,
                      int turns, uint64_t seed) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_position p;
    uint64_t reduced = 0;
    pb_position_start(f, &p, PB_TOP);
    if (start) check_values(f, &p, &reduced);
    for (int k = 0, checked = 0; k < 200 && checked < want; k++) {
        random_position(f, &p, least + (int)(lcg(&seed) % (uint32_t)turns), &seed);
        if (pb_routes_foreach(f, &p, NULL, NULL) <= 0) continue;
        check_values(f, &p, &reduced);
        /* And the ball fenced in near where it is: what random play drew
         * elsewhere is left out of the reduced keys. */
        pb_position q = p;
        fence_ball(f, &q);
        if (pb_routes_foreach(f, &q, NULL, NULL) > 0) check_values(f, &q, &reduced);
        checked++;
    }
    /* The check means something only if keys were reduced. */
    assert_true(reduced > 0);
    pb_field_free(f);
}

static void test_values_book(void **state) {
    (void)state;
    positions(PB_RULES_BOOK, 2, 4, 4, 0, 0, 1, 8, 2, 6, 11);
    positions(PB_RULES_BOOK, 2, 4, 6, 0, 0, 0, 4, 8, 6, 12);
}

static void test_values_hockey(void **state) {
    (void)state;
    for (int de = 0; de < 2; de++) {
        positions(PB_RULES_HOCKEY, 2, 4, 4, 1, de, 1, 6, 2, 6, 21 + (uint64_t)de);
        positions(PB_RULES_HOCKEY, 2, 4, 6, 1, de, 0, 3, 8, 6, 23 + (uint64_t)de);
    }
}

static void test_values_triple(void **state) {
    (void)state;
    positions(PB_RULES_TRIPLE, 2, 4, 4, 0, 0, 1, 8, 2, 4, 31);
    positions(PB_RULES_TRIPLE, 2, 4, 6, 0, 0, 0, 4, 4, 6, 32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fenced_square), cmocka_unit_test(test_crossing_diagonal),
        cmocka_unit_test(test_values_book),   cmocka_unit_test(test_values_hockey),
        cmocka_unit_test(test_values_triple),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
