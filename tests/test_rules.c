/* test_rules.c - every rule of docs/rules.md §2, one test each; each
 * asserts both the rule's effect and that the neighbouring case differs. */
#include "test_support.h"
#include "turn.h"

typedef struct setup {
    pb_field *f;
    pb_position p;
} setup;

static setup book(void) {
    setup s;
    s.f = ts_field(PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW);
    pb_position_start(s.f, &s.p, PB_TOP);
    return s;
}

/* Steps from a to b (the ball must be on a). */
static pb_step_result step(setup *s, const char *a, const char *b, int *loser) {
    assert_int_equal(s->p.ball, ts_node(s->f, a));
    pb_undo u;
    return pb_step(s->f, &s->p, ts_dir(s->f, a, b), &u, loser);
}

static void test_stop_on_empty_node(void **state) {
    (void)state;
    setup s = book();
    int loser;
    assert_int_equal(step(&s, "d6", "e7", &loser), PB_STEP_STOP);
    assert_int_equal(s.p.to_move, PB_BOTTOM);
    assert_int_equal(loser, PB_NOBODY);
    assert_true(pb_occupied(s.f, &s.p, ts_node(s.f, "e7")));
    assert_int_equal(s.p.hash, pb_position_hash_full(s.f, &s.p));
    pb_field_free(s.f);
}

static void test_bounce_off_centre(void **state) {
    (void)state;
    setup s = book();
    int loser;
    assert_int_equal(step(&s, "d6", "e7", &loser), PB_STEP_STOP);
    /* e7 -> d6: the centre is occupied from the start. */
    assert_int_equal(step(&s, "e7", "d6", &loser), PB_STEP_BOUNCE);
    assert_int_equal(s.p.to_move, PB_BOTTOM);
    pb_field_free(s.f);
}

static void test_bounce_off_border(void **state) {
    (void)state;
    setup s = book();
    int loser;
    pb_set_ball(s.f, &s.p, ts_node(s.f, "b5"));
    assert_int_equal(step(&s, "b5", "a5", &loser), PB_STEP_BOUNCE);
    assert_int_equal(s.p.to_move, PB_TOP);
    /* From a5 the border segments a5-a4, a5-a6 are closed: only b4, b6 (and b5 drawn). */
    assert_int_equal(pb_free_count(s.f, &s.p, ts_node(s.f, "a5")), 2);
    pb_field_free(s.f);
}

static void test_bounce_off_old_line(void **state) {
    (void)state;
    setup s = book();
    int loser;
    ts_draw(s.f, &s.p, "b3", "c4");
    pb_set_ball(s.f, &s.p, ts_node(s.f, "c5"));
    assert_int_equal(step(&s, "c5", "c4", &loser), PB_STEP_BOUNCE);
    /* The drawn segment c4-b3 is closed; c4-c5 is now drawn too. */
    assert_false(pb_free(s.f, &s.p, ts_node(s.f, "c4"), ts_dir(s.f, "c4", "b3")));
    assert_false(pb_free(s.f, &s.p, ts_node(s.f, "c4"), ts_dir(s.f, "c4", "c5")));
    assert_int_equal(pb_free_count(s.f, &s.p, ts_node(s.f, "c4")), 6);
    /* An empty node next to it stops. */
    assert_int_equal(step(&s, "c4", "d4", &loser), PB_STEP_STOP);
    pb_field_free(s.f);
}

static void test_crossing_a_diagonal_is_allowed(void **state) {
    (void)state;
    setup s = book();
    int loser;
    ts_draw(s.f, &s.p, "b3", "c4");
    pb_set_ball(s.f, &s.p, ts_node(s.f, "b4"));
    /* b4-c3 crosses b3-c4 in the same cell: allowed, and c3 is empty. */
    assert_int_equal(step(&s, "b4", "c3", &loser), PB_STEP_STOP);
    pb_field_free(s.f);
}

static void test_goal(void **state) {
    (void)state;
    setup s = book();
    int loser;
    pb_set_ball(s.f, &s.p, ts_node(s.f, "d2"));
    pb_set_to_move(s.f, &s.p, PB_TOP);
    assert_int_equal(step(&s, "d2", "c1", &loser), PB_STEP_GOAL);
    assert_int_equal(loser, PB_BOTTOM);
    pb_field_free(s.f);
    s = book();
    pb_set_ball(s.f, &s.p, ts_node(s.f, "e10"));
    assert_int_equal(step(&s, "e10", "d11", &loser), PB_STEP_GOAL);
    assert_int_equal(loser, PB_TOP);
    pb_field_free(s.f);
}

static void test_own_goal(void **state) {
    (void)state;
    setup s = book();
    int loser;
    /* Top (to move) steps into its own goal from the post: Top loses. */
    pb_set_ball(s.f, &s.p, ts_node(s.f, "c10"));
    assert_int_equal(s.p.to_move, PB_TOP);
    assert_int_equal(step(&s, "c10", "d11", &loser), PB_STEP_GOAL);
    assert_int_equal(loser, PB_TOP);
    pb_field_free(s.f);
}

/* Fills every segment at node n but the one from `from`. */
static void close_node(setup *s, const char *n, const char *from) {
    int i = ts_node(s->f, n), skip = ts_node(s->f, from);
    for (int d = 0; d < 8; d++) {
        int sg = s->f->seg[i][d];
        if (sg >= 0 && pb_step_to(s->f, i, d) != skip && !pb_drawn(&s->p, sg)) pb_draw_segment(s->f, &s->p, sg);
    }
}

static void test_dead_end_book(void **state) {
    (void)state;
    setup s = book();
    int loser;
    close_node(&s, "c5", "d5");
    pb_set_ball(s.f, &s.p, ts_node(s.f, "d5"));
    pb_set_to_move(s.f, &s.p, PB_BOTTOM);
    assert_int_equal(step(&s, "d5", "c5", &loser), PB_STEP_DEAD_END);
    assert_int_equal(loser, PB_BOTTOM);
    pb_field_free(s.f);
    /* With one exit left it is a bounce. */
    s = book();
    close_node(&s, "c5", "d5");
    pb_erase_segment(s.f, &s.p, pb_seg_between(s.f, ts_node(s.f, "c5"), ts_node(s.f, "b5")));
    pb_set_ball(s.f, &s.p, ts_node(s.f, "d5"));
    assert_int_equal(step(&s, "d5", "c5", &loser), PB_STEP_BOUNCE);
    pb_field_free(s.f);
}

static void test_dead_end_on_border(void **state) {
    (void)state;
    setup s = book();
    int loser;
    /* a5 has three legal segments (b4, b5, b6); close two, arrive by the third. */
    ts_draw(s.f, &s.p, "a5", "b4");
    ts_draw(s.f, &s.p, "a5", "b6");
    pb_set_ball(s.f, &s.p, ts_node(s.f, "b5"));
    assert_int_equal(step(&s, "b5", "a5", &loser), PB_STEP_DEAD_END);
    assert_int_equal(loser, PB_TOP);
    pb_field_free(s.f);
}

static setup hockey(int setback, pb_dead_end de) {
    setup s;
    s.f = ts_field(PB_RULES_HOCKEY, 2, 8, 10, setback, de);
    pb_position_start(s.f, &s.p, PB_TOP);
    return s;
}

static void test_dead_end_hockey(void **state) {
    (void)state;
    for (int opt = 0; opt < 2; opt++) {
        setup s = hockey(1, opt ? PB_DEAD_END_LOSS : PB_DEAD_END_DRAW);
        int loser;
        close_node(&s, "c5", "d5");
        pb_set_ball(s.f, &s.p, ts_node(s.f, "d5"));
        pb_set_to_move(s.f, &s.p, PB_BOTTOM);
        assert_int_equal(step(&s, "d5", "c5", &loser), PB_STEP_DEAD_END);
        assert_int_equal(loser, opt ? PB_BOTTOM : PB_NOBODY);
        pb_field_free(s.f);
    }
}

static void test_hockey_goal_from_centre_side(void **state) {
    (void)state;
    setup s = hockey(1, PB_DEAD_END_DRAW);
    int loser;
    /* Bottom goal line is row 2 (y = 1), columns d..f. */
    assert_true(s.f->flags[ts_node(s.f, "d2")] & PB_GOAL_BOTTOM);
    assert_true(s.f->flags[ts_node(s.f, "f2")] & PB_POST);
    assert_false(s.f->flags[ts_node(s.f, "e2")] & PB_BOUNDARY);
    pb_set_ball(s.f, &s.p, ts_node(s.f, "e3"));
    assert_int_equal(step(&s, "e3", "d2", &loser), PB_STEP_GOAL);
    assert_int_equal(loser, PB_BOTTOM);
    pb_field_free(s.f);
    s = hockey(1, PB_DEAD_END_DRAW);
    /* Top's goal line is row 10 (y = L - S = 9). */
    pb_set_ball(s.f, &s.p, ts_node(s.f, "e9"));
    assert_int_equal(step(&s, "e9", "e10", &loser), PB_STEP_GOAL);
    assert_int_equal(loser, PB_TOP);
    pb_field_free(s.f);
}

static void test_hockey_goal_from_behind_bounces(void **state) {
    (void)state;
    setup s = hockey(1, PB_DEAD_END_DRAW);
    int loser;
    pb_set_ball(s.f, &s.p, ts_node(s.f, "e1"));
    /* From behind: e1 -> e2 is a bounce, as off the boards. */
    assert_int_equal(step(&s, "e1", "e2", &loser), PB_STEP_BOUNCE);
    assert_int_equal(loser, PB_NOBODY);
    assert_int_equal(s.p.to_move, PB_TOP);
    /* Along the goal line: e2 -> f2 (the post) is a bounce too. */
    assert_int_equal(step(&s, "e2", "f2", &loser), PB_STEP_BOUNCE);
    /* From the side: c2 -> d2 along the line, and c1 -> d2 diagonally from behind. */
    pb_field_free(s.f);
    s = hockey(1, PB_DEAD_END_DRAW);
    pb_set_ball(s.f, &s.p, ts_node(s.f, "c1"));
    assert_int_equal(step(&s, "c1", "d2", &loser), PB_STEP_BOUNCE);
    pb_set_ball(s.f, &s.p, ts_node(s.f, "c2"));
    assert_int_equal(step(&s, "c2", "d2", &loser), PB_STEP_BOUNCE);
    pb_field_free(s.f);
}

static void test_hockey_setback_zero(void **state) {
    (void)state;
    setup s = hockey(0, PB_DEAD_END_DRAW);
    int loser;
    assert_true(s.f->flags[ts_node(s.f, "e1")] & PB_GOAL_BOTTOM);
    assert_true(s.f->flags[ts_node(s.f, "e11")] & PB_GOAL_TOP);
    assert_true(s.f->flags[ts_node(s.f, "d1")] & PB_POST);
    pb_set_ball(s.f, &s.p, ts_node(s.f, "c2"));
    assert_int_equal(step(&s, "c2", "d1", &loser), PB_STEP_GOAL);
    assert_int_equal(loser, PB_BOTTOM);
    pb_field_free(s.f);
    /* Just outside the goal the end line is a border: bounce. */
    s = hockey(0, PB_DEAD_END_DRAW);
    pb_set_ball(s.f, &s.p, ts_node(s.f, "c2"));
    assert_int_equal(step(&s, "c2", "c1", &loser), PB_STEP_BOUNCE);
    pb_field_free(s.f);
}

/* Routes: collapse of equal successors, outcomes and the turn API. */
static int count_goals(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f, (void)after;
    int *n = ctx;
    n[r->end]++;
    return 0;
}

static void test_routes_and_play(void **state) {
    (void)state;
    setup s = book();
    int n[4] = {0};
    assert_int_equal(pb_routes_foreach(s.f, &s.p, count_goals, n), 8);
    assert_int_equal(n[PB_END_NONE], 8);
    int16_t r1[] = {(int16_t)ts_node(s.f, "d6"), (int16_t)ts_node(s.f, "e7")};
    pb_route info;
    char err[200];
    assert_int_equal(pb_route_play(s.f, &s.p, r1, 2, 0, &info, err, sizeof err), 0);
    int16_t r1b[] = {(int16_t)ts_node(s.f, "e7"), (int16_t)ts_node(s.f, "e6")};
    assert_int_equal(pb_route_play(s.f, &s.p, r1b, 2, 0, &info, err, sizeof err), 0);
    assert_int_equal(info.mover, PB_BOTTOM);
    /* Top: e6-d6 bounces off the centre, so "e6-d6" alone is not a turn. */
    int16_t r2[] = {(int16_t)ts_node(s.f, "e6"), (int16_t)ts_node(s.f, "d6")};
    uint64_t h = s.p.hash;
    assert_int_equal(pb_route_play(s.f, &s.p, r2, 2, 0, &info, err, sizeof err), -1);
    assert_non_null(strstr(err, "occupied node"));
    assert_int_equal(s.p.hash, h);
    int16_t r3[] = {(int16_t)ts_node(s.f, "e6"), (int16_t)ts_node(s.f, "d6"), (int16_t)ts_node(s.f, "e7")};
    assert_int_equal(pb_route_play(s.f, &s.p, r3, 3, 0, &info, err, sizeof err), -1);
    assert_non_null(strstr(err, "already drawn"));
    assert_int_equal(s.p.hash, h);
    int16_t r5[] = {(int16_t)ts_node(s.f, "e6"), (int16_t)ts_node(s.f, "f6"), (int16_t)ts_node(s.f, "g6")};
    assert_int_equal(pb_route_play(s.f, &s.p, r5, 3, 0, &info, err, sizeof err), -1);
    assert_non_null(strstr(err, "stops on the empty node f6"));
    int16_t r4[] = {(int16_t)ts_node(s.f, "e6"), (int16_t)ts_node(s.f, "d6"), (int16_t)ts_node(s.f, "d5")};
    assert_int_equal(pb_route_play(s.f, &s.p, r4, 3, 0, &info, err, sizeof err), 0);
    assert_int_equal(info.mover, PB_TOP);
    assert_int_equal(s.p.to_move, PB_BOTTOM);
    assert_int_equal(s.p.hash, pb_position_hash_full(s.f, &s.p));
    pb_field_free(s.f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_on_empty_node),
        cmocka_unit_test(test_bounce_off_centre),
        cmocka_unit_test(test_bounce_off_border),
        cmocka_unit_test(test_bounce_off_old_line),
        cmocka_unit_test(test_crossing_a_diagonal_is_allowed),
        cmocka_unit_test(test_goal),
        cmocka_unit_test(test_own_goal),
        cmocka_unit_test(test_dead_end_book),
        cmocka_unit_test(test_dead_end_on_border),
        cmocka_unit_test(test_dead_end_hockey),
        cmocka_unit_test(test_hockey_goal_from_centre_side),
        cmocka_unit_test(test_hockey_goal_from_behind_bounces),
        cmocka_unit_test(test_hockey_setback_zero),
        cmocka_unit_test(test_routes_and_play),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
