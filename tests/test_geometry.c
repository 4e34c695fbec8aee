/* test_geometry.c - field figures, names, mirrors, and the field checks. */
#include "test_support.h"

static void check_figures(pb_rules r, int g, int w, int l, int s, int nodes, int segs, int empty, int odd) {
    pb_field *f = ts_field(r, g, w, l, s, PB_DEAD_END_DRAW);
    assert_int_equal(f->nnodes, nodes);
    assert_int_equal(f->nsegments, segs);
    if (empty >= 0) assert_int_equal(f->nempty, empty);
    if (odd >= 0) assert_int_equal(f->nodd, odd);
    pb_field_free(f);
}

static void test_known_figures(void **state) {
    (void)state;
    check_figures(PB_RULES_BOOK, 2, 6, 8, 0, 69, 192, 36, 32);
    check_figures(PB_RULES_BOOK, 2, 8, 10, 0, 105, 316, -1, -1);
    check_figures(PB_RULES_HOCKEY, 2, 8, 10, 1, 99, 302, -1, -1);
}

/* Counts legal segments by brute force over all lattice pairs, straight
 * from the definition (cells on both sides / the diagonal's cell). */
static void test_segments_by_definition(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW);
    int n = 0;
    for (int s = 0; s < f->nsegments; s++) {
        int a = f->segs[s].a, b = f->segs[s].b;
        assert_true(pb_is_node(f, a) && pb_is_node(f, b));
        assert_int_equal(pb_seg_between(f, a, b), s);
        assert_int_equal(pb_seg_between(f, b, a), s);
        n++;
    }
    assert_int_equal(n, 192);
    /* Border segments are not legal: a1 does not exist, c1-d1 is the goal's back line. */
    assert_int_equal(pb_seg_between(f, ts_node(f, "c1"), ts_node(f, "d1")), -1);
    assert_int_equal(pb_seg_between(f, ts_node(f, "a2"), ts_node(f, "a3")), -1);
    assert_int_equal(pb_seg_between(f, ts_node(f, "b2"), ts_node(f, "c2")), -1);
    /* The goal line between the posts is inside the region. */
    assert_true(pb_seg_between(f, ts_node(f, "c2"), ts_node(f, "d2")) >= 0);
    assert_true(pb_seg_between(f, ts_node(f, "c2"), ts_node(f, "d1")) >= 0);
    assert_int_equal(pb_seg_between(f, ts_node(f, "c2"), ts_node(f, "c1")), -1);
    pb_field_free(f);
}

static void test_book_formula_grid(void **state) {
    (void)state;
    for (int g = 2; g <= 20; g += 2)
        for (int w = g; w <= 20; w += 2)
            for (int l = 2; l <= 20; l += 2) {
                pb_field *f = ts_field(PB_RULES_BOOK, g, w, l, 0, PB_DEAD_END_DRAW);
                int n = 2 * (g - 1) + (w - 1) * (l - 1) - 1;
                assert_int_equal(f->nempty, n);
                assert_int_equal(n % 2, 0);
                /* On a box field exactly the boundary nodes are odd. */
                assert_int_equal(f->nodd, f->nnodes - f->ninner);
                for (int i = 0; i < f->nlattice; i++)
                    if (pb_is_node(f, i)) assert_int_equal(!!(f->flags[i] & PB_ODD), !!(f->flags[i] & PB_BOUNDARY));
                pb_field_free(f);
            }
}

static void test_names(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW);
    char b[8];
    assert_string_equal(pb_node_name(f, f->centre, b), "d6");
    assert_true(f->flags[ts_node(f, "c1")] & PB_GOAL_BOTTOM);
    assert_true(f->flags[ts_node(f, "d1")] & PB_GOAL_BOTTOM);
    assert_true(f->flags[ts_node(f, "e1")] & PB_GOAL_BOTTOM);
    assert_true(f->flags[ts_node(f, "d11")] & PB_GOAL_TOP);
    assert_true(f->flags[ts_node(f, "c2")] & PB_POST);
    assert_true(f->flags[ts_node(f, "e10")] & PB_POST);
    assert_false(f->flags[ts_node(f, "d2")] & PB_BOUNDARY);
    int used;
    assert_int_equal(pb_node_parse(f, "a1", &used), -1); /* not a node: outside the goal */
    assert_int_equal(pb_node_parse(f, "h5", &used), -1);
    assert_int_equal(pb_node_parse(f, "d12", &used), -1);
    assert_int_equal(pb_node_parse(f, "g11", &used), -1);
    assert_int_equal(pb_node_parse(f, "g10", &used), pb_at(f, 6, 9));
    pb_field_free(f);
}

static void test_mirrors(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_HOCKEY, 2, 8, 10, 1, PB_DEAD_END_DRAW);
    for (int i = 0; i < f->nlattice; i++) {
        assert_int_equal(f->mirror_lr[f->mirror_lr[i]], i);
        assert_int_equal(f->mirror_tb[f->mirror_tb[i]], i);
        if (!pb_is_node(f, i)) continue;
        assert_int_equal(f->flags[i] & PB_NODE, f->flags[f->mirror_lr[i]] & PB_NODE);
        assert_int_equal(!!(f->flags[i] & PB_GOAL_BOTTOM), !!(f->flags[f->mirror_tb[i]] & PB_GOAL_TOP));
    }
    for (int s = 0; s < f->nsegments; s++) {
        assert_true(f->seg_mirror_lr[s] >= 0);
        assert_true(f->seg_mirror_tb[s] >= 0);
        assert_int_equal(f->seg_mirror_lr[f->seg_mirror_lr[s]], s);
    }
    assert_int_equal(f->mirror_lr[f->centre], f->centre);
    assert_int_equal(f->mirror_tb[f->centre], f->centre);
    pb_field_free(f);
}

static void expect_bad(pb_rules r, const char *spec, int setback, const char *needle) {
    pb_field_spec sp = {r, 0, 0, 0, setback, PB_DEAD_END_DRAW};
    char err[256] = "";
    if (pb_field_spec_parse(spec, &sp, err, sizeof err) == 0) {
        sp.rules = r, sp.setback = setback;
        assert_null(pb_field_new(&sp, err, sizeof err));
    }
    if (!strstr(err, needle)) fail_msg("'%s': message '%s' lacks '%s'", spec, err, needle);
}

static void test_bad_fields(void **state) {
    (void)state;
    expect_bad(PB_RULES_BOOK, "2;5;8", 0, "must all be even");
    expect_bad(PB_RULES_BOOK, "8;6;8", 0, "wider than the field");
    expect_bad(PB_RULES_BOOK, "0;6;8", 0, "at least 2 cells");
    expect_bad(PB_RULES_BOOK, "2;6;0", 0, "at least 2");
    expect_bad(PB_RULES_BOOK, "2;6", 0, "expected G;W;L");
    expect_bad(PB_RULES_BOOK, "2;6;8;4", 0, "expected G;W;L");
    expect_bad(PB_RULES_BOOK, "a;b;c", 0, "expected G;W;L");
    expect_bad(PB_RULES_BOOK, "2;32;8", 0, "at most 30");
    expect_bad(PB_RULES_HOCKEY, "2;8;4", 2, "at least 2S+2");
    expect_bad(PB_RULES_TRIPLE, "8;6;8", 0, "wider than the field");
    pb_field_spec sp;
    char err[100];
    /* Wider than long: allowed for every rule set (docs/rules.md §1). */
    sp = (pb_field_spec){PB_RULES_TRIPLE, 2, 8, 6, 0, PB_DEAD_END_DRAW};
    assert_int_equal(pb_field_spec_check(&sp, err, sizeof err), 0);
    assert_int_equal(pb_field_spec_parse("(2;6;8)", &sp, err, sizeof err), 0);
    assert_int_equal(sp.width, 6);
    assert_int_equal(pb_field_spec_parse("2,8,10", &sp, err, sizeof err), 0);
    assert_int_equal(sp.length, 10);
    /* The largest field: 30 x 30 fits the segment bitset. */
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 30, 30, 0, PB_DEAD_END_DRAW);
    assert_true(f->nsegments <= PB_MAX_SEGMENTS);
    pb_field_free(f);
    f = ts_field(PB_RULES_BOOK, 2, 16, 20, 0, PB_DEAD_END_DRAW);
    assert_true(f->nsegments > 64);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_figures),     cmocka_unit_test(test_segments_by_definition),
        cmocka_unit_test(test_book_formula_grid), cmocka_unit_test(test_names),
        cmocka_unit_test(test_mirrors),           cmocka_unit_test(test_bad_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
