/* test_crosscheck.c - three independent counts of the same games must agree:
 * the exact enumeration (enumerate/, whole turns, GMP), the step-level walk
 * of the proofs (proofs/stepwalk.c, single steps), and the model's perft
 * (solver/perft.c).  Each was written separately; agreement on whole game
 * trees is evidence for all three. */
#include <gmp.h>

#include "enumerate.h"
#include "perft.h"
#include "stepwalk.h"
#include "test_support.h"

typedef struct odd_count {
    uint64_t on_odd, on_centre, total;
} odd_count;

/* Every finishing step: where did the ball end? */
static int count_end(void *ctx, const pb_field *f, const pb_position *before, const pb_position *after, int dir,
                     pb_step_result r, int loser, uint64_t count) {
    (void)before, (void)dir, (void)loser;
    odd_count *c = ctx;
    if (r != PB_STEP_GOAL && r != PB_STEP_DEAD_END) return 0;
    c->total += count;
    if (f->flags[after->ball] & PB_ODD) c->on_odd += count;
    else if (after->ball == f->centre) c->on_centre += count;
    return 0;
}

static void whole_tree(int g, int w, int l) {
    pb_field *f = ts_field(PB_RULES_BOOK, g, w, l, 0, PB_DEAD_END_DRAW);
    pb_position start;
    pb_position_start(f, &start, PB_TOP);

    pb_enum_options eo;
    pb_enum_options_init(&eo);
    eo.threads = 2;
    pb_enum_result er;
    assert_int_equal(pb_enumerate(f, &start, &eo, &er), PB_ENUM_OK);
    assert_true(er.complete);

    pb_stepwalk sw;
    pb_walk_limits lim = {0};
    odd_count oc = {0, 0, 0};
    pb_stepwalk_visitor v = {NULL, count_end, &oc};
    assert_int_equal(pb_stepwalk_run(&sw, f, &start, &lim, &v), 0);
    assert_true(sw.complete);
    assert_false(sw.games_overflow);

    /* All games: enumeration = step walk = sum of finishing steps. */
    assert_true(mpz_cmp_ui(er.games, 0) > 0);
    assert_int_equal(mpz_cmp_ui(er.games, sw.games), 0);
    assert_int_equal(oc.total, sw.games);
    /* Book games never draw, and some end each way. */
    mpz_t wins;
    mpz_init(wins);
    for (int d = 0; d < er.nrows; d++) {
        assert_int_equal(mpz_sgn(er.rows[d].outcome[PB_OUT_DEAD_END_DRAW]), 0);
        assert_int_equal(mpz_sgn(er.rows[d].outcome[PB_OUT_KICK_DRAW]), 0);
        for (int k = 0; k < PB_OUT_DEAD_END_DRAW; k++) mpz_add(wins, wins, er.rows[d].outcome[k]);
    }
    assert_int_equal(mpz_cmp(wins, er.games), 0);
    mpz_clear(wins);
    /* Per depth: the enumeration's perft and positions equal the model's. */
    pb_perft_row rows[64];
    int n = pb_perft(f, &start, er.nrows - 1 < 64 ? er.nrows - 1 : 64, rows);
    for (int d = 1; d <= n; d++) {
        assert_int_equal(mpz_cmp_ui(er.rows[d].sequences, rows[d - 1].sequences), 0);
        assert_int_equal(er.rows[d].positions, rows[d - 1].positions);
        assert_int_equal(mpz_cmp_ui(er.rows[d].finished, rows[d - 1].finished), 0);
    }
    /* Every game ends on an odd node or trapped on the centre. */
    assert_int_equal(oc.on_odd + oc.on_centre, oc.total);
    print_message("(%d;%d;%d): %llu games, %llu end on the centre\n", g, w, l, (unsigned long long)oc.total,
                  (unsigned long long)oc.on_centre);
    pb_stepwalk_free(&sw);
    pb_enum_result_free(&er);
    pb_field_free(f);
}

static void test_book_2_2_2(void **state) {
    (void)state;
    whole_tree(2, 2, 2);
}

static void test_book_2_2_4(void **state) {
    (void)state;
    whole_tree(2, 2, 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_book_2_2_2),
        cmocka_unit_test(test_book_2_2_4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
