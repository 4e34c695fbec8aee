/* test_proofs.c - the claim checkers hold on small fields and, fed a broken
 * rule or a constructed position, report the failure with a counterexample;
 * the two exhaustive walks agree with each other and with perft. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perft.h"
#include "proofs.h"

static pb_field_spec book(int g, int w, int l) {
    pb_field_spec s;
    memset(&s, 0, sizeof s);
    s.rules = PB_RULES_BOOK, s.goal = g, s.width = w, s.length = l;
    return s;
}

static pb_field *field(pb_field_spec s) {
    char err[200];
    pb_field *f = pb_field_new(&s, err, sizeof err);
    assert_non_null(f);
    return f;
}

static pb_verdict run(const char *name, const pb_proofs_opts *o, pb_proofs_result *res) {
    const pb_proofs_claim *c = pb_proofs_find(name);
    assert_non_null(c);
    return pb_proofs_run(c, o, res);
}

/* ---- empty-count */

static long formula_without_centre(int g, int w, int l) { return 2L * (g - 1) + (long)(w - 1) * (l - 1); }

static void test_empty_count_holds_and_breaks(void **state) {
    (void)state;
    pb_proofs_opts o;
    memset(&o, 0, sizeof o);
    o.max_dim = 10;
    pb_proofs_result res;
    assert_int_equal(run("empty-count", &o, &res), PB_VERDICT_HOLDS);
    assert_int_equal(res.has_cx, 0);
    pb_proofs_result_free(&res);
    /* The formula that forgets the centre is off by one (and odd). */
    o.empty_formula = formula_without_centre;
    assert_int_equal(run("empty-count", &o, &res), PB_VERDICT_FAILS);
    assert_int_equal(res.has_cx, 1);
    assert_non_null(strstr(res.cx_what, "formula"));
    pb_proofs_result_free(&res);
}

static void test_count_empty_from_definition(void **state) {
    (void)state;
    /* The independent count agrees with the field model on a few fields. */
    int sizes[][3] = {{2, 6, 8}, {2, 8, 10}, {4, 4, 2}, {6, 6, 6}};
    for (int i = 0; i < 4; i++) {
        pb_field_spec s = book(sizes[i][0], sizes[i][1], sizes[i][2]);
        pb_field *f = field(s);
        assert_int_equal(pb_proofs_count_empty(&s), f->nempty);
        pb_field_free(f);
    }
}

/* ---- moves-converted */

static void test_moves_converted(void **state) {
    (void)state;
    pb_field_spec s = book(2, 2, 2);
    pb_proofs_opts o;
    memset(&o, 0, sizeof o);
    o.fields = &s, o.nfields = 1;
    pb_proofs_result res;
    assert_int_equal(run("moves-converted", &o, &res), PB_VERDICT_HOLDS);
    assert_true(res.fields[0].complete);
    assert_true(res.fields[0].turnwalk && res.fields[0].stepwalk);
    pb_proofs_result_free(&res);

    /* A constructed start: a segment drawn at the empty node b2 with no
     * turn made.  Both walks must notice. */
    pb_field *f = field(s);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    int b2 = pb_node_parse(f, "b2", &(int){0});
    int seg = -1;
    for (int d = 0; d < 8 && seg < 0; d++)
        if (f->seg[b2][d] >= 0 && pb_step_to(f, b2, d) != f->centre) seg = f->seg[b2][d];
    assert_true(seg >= 0);
    pb_draw_segment(f, &p, seg);
    o.start = &p;
    o.turn_walk = 1;
    assert_int_equal(run("moves-converted", &o, &res), PB_VERDICT_FAILS);
    assert_int_equal(res.has_cx, 1);
    pb_proofs_result_free(&res);
    o.max_depth = 2; /* turn walk only */
    assert_int_equal(run("moves-converted", &o, &res), PB_VERDICT_FAILS);
    assert_non_null(strstr(res.cx_what, "converted"));
    pb_proofs_result_free(&res);
    pb_field_free(f);
}

/* ---- last-move-red / last-move-exact */

static void test_centre_trap_search(void **state) {
    (void)state;
    pb_field *f = field(book(2, 6, 8));
    pb_game g;
    uint64_t nodes;
    int steps = pb_proofs_centre_trap(f, 16, 10000000, &g, &nodes);
    assert_true(steps >= 12); /* 8 centre segments + 4 links, see centre_trap.c */
    assert_int_equal(g.end, PB_END_DEAD_END);
    assert_int_equal(g.pos.ball, f->centre);
    assert_int_equal(pb_free_count(f, &g.pos, f->centre), 0);
    assert_int_equal(pb_position_drawn_count(f, &g.pos), steps);
    /* The record replays to the same end. */
    char *rec = pb_record_format(&g);
    pb_game h;
    char err[200];
    assert_int_equal(pb_record_parse(f, rec, &h, err, sizeof err), 0);
    assert_int_equal(h.end, PB_END_DEAD_END);
    assert_int_equal(h.pos.ball, f->centre);
    assert_true(h.nturns >= 9);
    free(rec);
    pb_game_free(&h);
    pb_game_free(&g);
    pb_field_free(f);
}

static void test_last_move_trapped_game(void **state) {
    (void)state;
    /* Eight turns of a game on the book's field; the ninth (e5-d6) traps
     * the ball on the centre. */
    pb_field_spec s = book(2, 6, 8);
    pb_field *f = field(s);
    pb_game g;
    char err[200];
    assert_int_equal(
        pb_record_parse(f, "d6-e6 e6-e7 e7-d6-d7 d7-c7 c7-d6-c6 c6-c5 c5-d6-d5 d5-e5", &g, err, sizeof err), 0);
    pb_proofs_opts o;
    memset(&o, 0, sizeof o);
    o.fields = &s, o.nfields = 1;
    o.start_game = &g;
    pb_proofs_result res;
    assert_int_equal(run("last-move-red", &o, &res), PB_VERDICT_FAILS);
    assert_int_equal(res.has_cx, 1);
    assert_int_equal(res.cx_from_start, 1);
    assert_non_null(res.cx_record);
    assert_non_null(strstr(res.cx_record, "e5-d6"));
    assert_non_null(strstr(res.cx_what, "centre"));
    {
        /* The record is the whole game from the start, trapped on d6. */
        pb_game h;
        assert_int_equal(pb_record_parse(f, res.cx_record, &h, err, sizeof err), 0);
        assert_int_equal(h.nturns, 9);
        assert_int_equal(res.cx_turns, 9);
        assert_int_equal(h.end, PB_END_DEAD_END);
        assert_int_equal(h.pos.ball, f->centre);
        pb_game_free(&h);
    }
    pb_proofs_result_free(&res);
    /* The same position under the exact statement: no failure in one turn. */
    o.max_depth = 1;
    assert_int_not_equal(run("last-move-exact", &o, &res), PB_VERDICT_FAILS);
    assert_true(res.fields[0].turnwalk);
    assert_true(res.fields[0].routes > 0);
    pb_proofs_result_free(&res);
    pb_game_free(&g);
    pb_field_free(f);
}

static void test_last_move_small_field(void **state) {
    (void)state;
    pb_field_spec s = book(2, 2, 2);
    pb_proofs_opts o;
    memset(&o, 0, sizeof o);
    o.fields = &s, o.nfields = 1;
    pb_proofs_result res;
    /* Exhaustive on (2;2;2): the exact statement holds, the book's fails,
     * and the breadth-first counterexample is no longer than the search's. */
    assert_int_equal(run("last-move-exact", &o, &res), PB_VERDICT_HOLDS);
    assert_true(res.fields[0].complete);
    pb_proofs_result_free(&res);
    assert_int_equal(run("last-move-red", &o, &res), PB_VERDICT_FAILS);
    assert_non_null(res.cx_record);
    pb_field *f = field(s);
    pb_game g;
    char err[200];
    assert_int_equal(pb_record_parse(f, res.cx_record, &g, err, sizeof err), 0);
    assert_int_equal(g.end, PB_END_DEAD_END);
    assert_int_equal(g.pos.ball, f->centre);
    pb_game t;
    uint64_t nodes;
    int steps = pb_proofs_centre_trap(f, 30, 100000000, &t, &nodes);
    assert_int_equal(pb_position_drawn_count(f, &g.pos), steps);
    pb_game_free(&t);
    pb_game_free(&g);
    pb_field_free(f);
    pb_proofs_result_free(&res);
}

/* ---- progress: saving a walking claim per field, and resuming it */

typedef struct kept {
    int n;
    pb_proofs_result res[8];
    unsigned char state[8][64];
    size_t len[8];
} kept;

static void keep(void *ctx, const pb_proofs_result *res, const void *state, size_t len) {
    kept *k = ctx;
    assert_true(k->n < 8 && len <= 64);
    pb_proofs_result_copy(&k->res[k->n], res);
    memcpy(k->state[k->n], state, len);
    k->len[k->n++] = len;
}

/* Everything a report shows, the seconds aside (a resumed field's are the
 * saved ones, bit for bit; the others are timed again). */
static void assert_same_result(const pb_proofs_result *a, const pb_proofs_result *b, int nsaved) {
    assert_int_equal(a->verdict, b->verdict);
    assert_int_equal(a->nfields, b->nfields);
    for (int k = 0; k < a->nfields; k++) {
        pb_proofs_field x = a->fields[k], y = b->fields[k];
        if (k < nsaved) assert_memory_equal(&x.seconds, &y.seconds, sizeof x.seconds);
        x.seconds = y.seconds = 0;
        assert_memory_equal(&x, &y, sizeof x);
    }
    assert_string_equal(a->summary, b->summary);
    assert_int_equal(a->has_cx, b->has_cx);
    assert_int_equal(a->cx_turns, b->cx_turns);
    assert_string_equal(a->cx_what, b->cx_what);
    assert_string_equal(a->cx_record, b->cx_record);
    assert_string_equal(a->cx_svg, b->cx_svg);
}

static void test_progress_resume(void **state) {
    (void)state;
    /* last-move-red keeps the counterexample of fewest turns over the
     * fields: 4 turns on (2;2;4), kept over the 5 of (2;4;2) only by the
     * state carried (the fewest turns so far), then 3 on (2;2;2). */
    pb_field_spec fs[3] = {book(2, 2, 4), book(2, 4, 2), book(2, 2, 2)};
    kept k;
    memset(&k, 0, sizeof k);
    pb_proofs_progress pr = {.save = keep, .ctx = &k};
    pb_proofs_opts o;
    memset(&o, 0, sizeof o);
    o.fields = fs, o.nfields = 3, o.progress = &pr;
    o.no_trap_search = 1; /* the walks' counterexamples only */
    pb_proofs_result full;
    assert_int_equal(run("last-move-red", &o, &full), PB_VERDICT_FAILS);
    assert_int_equal(k.n, 3); /* one save per field */
    assert_int_equal(full.cx_turns, 3);
    assert_int_equal(k.res[0].cx_turns, 4);
    assert_int_equal(k.res[1].cx_turns, 4);
    for (int i = 0; i < 2; i++) {
        /* Resumed after field i+1: the same result, and no more saves of
         * the fields already done. */
        kept again;
        memset(&again, 0, sizeof again);
        pb_proofs_progress rp = {keep, &again, &k.res[i], k.state[i], k.len[i]};
        o.progress = &rp;
        pb_proofs_result res;
        assert_int_equal(run("last-move-red", &o, &res), PB_VERDICT_FAILS);
        assert_same_result(&full, &res, i + 1);
        assert_int_equal(again.n, 2 - i);
        for (int j = 0; j < again.n; j++) {
            /* and every save after it is the one the whole run made */
            assert_same_result(&k.res[i + 1 + j], &again.res[j], i + 1);
            assert_int_equal(again.len[j], k.len[i + 1 + j]);
            assert_memory_equal(again.state[j], k.state[i + 1 + j], k.len[i + 1 + j]);
            pb_proofs_result_free(&again.res[j]);
        }
        pb_proofs_result_free(&res);
    }
    /* A deadline passed, or the stop flag up: the walks are cut short, the
     * result is partial and nothing is saved. */
    kept none;
    memset(&none, 0, sizeof none);
    pb_proofs_progress np = {.save = keep, .ctx = &none};
    o.progress = &np;
    volatile sig_atomic_t stop = SIGTERM;
    o.stop = &stop;
    pb_proofs_result cut;
    run("no-draws", &o, &cut);
    assert_true(cut.interrupted);
    assert_false(cut.fields[0].complete);
    assert_int_equal(none.n, 0);
    pb_proofs_result_free(&cut);
    o.stop = NULL, o.deadline = pb_walk_now() - 1;
    run("no-draws", &o, &cut);
    assert_true(cut.interrupted);
    assert_int_equal(none.n, 0);
    pb_proofs_result_free(&cut);
    for (int j = 0; j < k.n; j++) pb_proofs_result_free(&k.res[j]);
    pb_proofs_result_free(&full);
}

/* ---- first-moves */

static void test_first_moves(void **state) {
    (void)state;
    pb_proofs_opts o;
    memset(&o, 0, sizeof o);
    o.max_dim = 8;
    pb_proofs_result res;
    assert_int_equal(run("first-moves", &o, &res), PB_VERDICT_HOLDS);
    pb_proofs_result_free(&res);
    o.expect_classes = 4; /* a wrong count must be refused */
    assert_int_equal(run("first-moves", &o, &res), PB_VERDICT_FAILS);
    pb_proofs_result_free(&res);
    /* A constructed start: the segment d6-e7 already drawn breaks the
     * left-right symmetry of the first turn. */
    o.expect_classes = 0;
    pb_field_spec s = book(2, 6, 8);
    pb_field *f = field(s);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_draw_segment(f, &p, f->seg[f->centre][PB_NE]);
    o.start = &p;
    o.fields = &s, o.nfields = 1;
    assert_int_equal(run("first-moves", &o, &res), PB_VERDICT_FAILS);
    assert_int_equal(res.has_cx, 1);
    pb_proofs_result_free(&res);
    pb_field_free(f);
}

/* ---- no-draws */

static void test_no_draws(void **state) {
    (void)state;
    pb_field_spec s = book(2, 2, 2);
    pb_proofs_opts o;
    memset(&o, 0, sizeof o);
    o.fields = &s, o.nfields = 1;
    pb_proofs_result res;
    assert_int_equal(run("no-draws", &o, &res), PB_VERDICT_HOLDS);
    pb_proofs_result_free(&res);
    /* A broken rule: hockey, where a dead end is a draw. */
    pb_field_spec h;
    memset(&h, 0, sizeof h);
    h.rules = PB_RULES_HOCKEY, h.goal = 2, h.width = 4, h.length = 4, h.setback = 1;
    h.dead_end = PB_DEAD_END_DRAW;
    o.fields = &h;
    assert_int_equal(run("no-draws", &o, &res), PB_VERDICT_FAILS);
    assert_int_equal(res.has_cx, 1);
    assert_non_null(strstr(res.cx_what, "drawn"));
    pb_proofs_result_free(&res);
    /* With "a dead end loses" the hockey game has no draws either. */
    h.dead_end = PB_DEAD_END_LOSS;
    o.max_depth = 1;
    assert_int_not_equal(run("no-draws", &o, &res), PB_VERDICT_FAILS);
    assert_true(res.fields[0].finished > 0);
    pb_proofs_result_free(&res);
}

/* ---- dead-end-odd */

static void test_dead_end_odd(void **state) {
    (void)state;
    pb_field_spec s = book(2, 2, 4);
    pb_proofs_opts o;
    memset(&o, 0, sizeof o);
    o.fields = &s, o.nfields = 1;
    o.turn_walk = -1;
    pb_proofs_result res;
    assert_int_equal(run("dead-end-odd", &o, &res), PB_VERDICT_HOLDS);
    pb_proofs_result_free(&res);
    /* A constructed position on (2;6;8): seven of the eight segments at the
     * even node e7 drawn, the eighth (d6-e7) free, ball on d6: stepping
     * there is a dead end on an even node. */
    pb_field_spec b = book(2, 6, 8);
    pb_field *f = field(b);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    int e7 = pb_node_parse(f, "e7", &(int){0});
    for (int d = 0; d < 8; d++)
        if (pb_step_to(f, e7, d) != f->centre) pb_draw_segment(f, &p, f->seg[e7][d]);
    o.fields = &b;
    o.start = &p;
    o.max_depth = 1; /* turn walk: the dead-end route check itself */
    o.turn_walk = 0;
    assert_int_equal(run("dead-end-odd", &o, &res), PB_VERDICT_FAILS);
    assert_int_equal(res.has_cx, 1);
    pb_proofs_result_free(&res);
    o.max_depth = 0; /* step walk: the trail parity notices first */
    assert_int_equal(run("dead-end-odd", &o, &res), PB_VERDICT_FAILS);
    assert_non_null(strstr(res.cx_what, "parity"));
    pb_proofs_result_free(&res);
    pb_field_free(f);
}

/* ---- the walks themselves */

static void test_walks_agree_with_perft(void **state) {
    (void)state;
    pb_field *f = field(book(2, 2, 2));
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_walk tw;
    pb_stepwalk sw;
    pb_walk_run(&tw, f, &p, 0, NULL, NULL);
    pb_stepwalk_run(&sw, f, &p, NULL, NULL);
    assert_true(tw.complete && sw.complete);
    assert_int_equal(tw.games, sw.games);
    pb_perft_row rows[64];
    int n = pb_perft(f, &p, 64, rows);
    uint64_t finished = 0, positions = 1;
    for (int i = 0; i < n; i++) finished += rows[i].finished, positions += rows[i].positions;
    assert_int_equal(finished, tw.games);
    assert_int_equal(positions, tw.positions);
    pb_walk_free(&tw);
    pb_stepwalk_free(&sw);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_count_holds_and_breaks),
        cmocka_unit_test(test_count_empty_from_definition),
        cmocka_unit_test(test_moves_converted),
        cmocka_unit_test(test_centre_trap_search),
        cmocka_unit_test(test_last_move_trapped_game),
        cmocka_unit_test(test_last_move_small_field),
        cmocka_unit_test(test_progress_resume),
        cmocka_unit_test(test_first_moves),
        cmocka_unit_test(test_no_draws),
        cmocka_unit_test(test_dead_end_odd),
        cmocka_unit_test(test_walks_agree_with_perft),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
