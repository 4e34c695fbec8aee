/* test_tactics.c - the quick goal walk (tactics.h) against a walk made of
 * pb_step calls, and the drawn directions a position keeps (position.h).
 *
 * The reference plays the walk's rules with the game's own step: at each
 * node it first tries every free step for a goal against the opponent,
 * then, in direction order, every step that bounces or ends in a dead end,
 * spending one unit of budget per such step before it is played, and it
 * stops when the budget is spent (it is then -1).  The fast
 * walk must give the same answer, the same route and the same budget left,
 * and leave the position as it found it, on random positions of book and
 * hockey (both dead-end options, line goals set back or not), between
 * turns, in the middle of a turn, and with the ball moved onto a node
 * nothing has occupied yet. */
#include "test_support.h"
#include "tactics.h"
#include "turn.h"
#include "random_play.h"

#include <stdlib.h>

static int ref_walk(const pb_field *f, pb_position *p, int opp, int *budget, int16_t *nodes, int len, int *out_len) {
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, p, p->ball, d)) continue;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, p, d, &u, &loser);
        int to = p->ball;
        pb_unstep(f, p, &u);
        if (r == PB_STEP_GOAL && loser == opp) {
            nodes[len] = (int16_t)to, *out_len = len + 1;
            return 1;
        }
    }
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, p, p->ball, d)) continue;
        pb_undo u;
        int loser, yes = 0;
        pb_step_result r = pb_step(f, p, d, &u, &loser);
        if (r == PB_STEP_BOUNCE || r == PB_STEP_DEAD_END) {
            if (--*budget < 0) {
                pb_unstep(f, p, &u);
                return 0;
            }
            nodes[len] = p->ball;
            if (r == PB_STEP_BOUNCE) yes = ref_walk(f, p, opp, budget, nodes, len + 1, out_len);
        }
        pb_unstep(f, p, &u);
        if (yes) return 1;
        if (*budget < 0) return 0; /* spent: the walk stops */
    }
    return 0;
}

/* Everything a position holds, compared word by word. */
static void assert_same_position(const pb_field *f, const pb_position *a, const pb_position *b) {
    assert_memory_equal(a->seg, b->seg, sizeof(uint64_t) * (size_t)f->nwords);
    assert_memory_equal(a->deg, b->deg, (size_t)f->nlattice);
    assert_memory_equal(a->dirs, b->dirs, (size_t)f->nlattice);
    assert_int_equal(a->ball, b->ball);
    assert_int_equal(a->to_move, b->to_move);
    assert_true(a->hash == b->hash);
}

/* The drawn directions of every node, found again from the segment words. */
static void assert_dirs(const pb_field *f, const pb_position *p) {
    for (int i = 0; i < f->nlattice; i++) {
        unsigned want = 0;
        for (int d = 0; d < 8; d++)
            if (pb_is_node(f, i) && f->seg[i][d] >= 0 && pb_drawn(p, f->seg[i][d])) want |= 1u << d;
        assert_int_equal(p->dirs[i], want);
        assert_int_equal(p->deg[i], __builtin_popcount(want));
    }
}

static void compare_walks(const pb_field *f, const pb_tactics *tac, pb_position *p, int *yes, int *exhausted) {
    static const int budgets[] = {0, 1, 3, 7, PB_SCORE_BUDGET, 200, 5000};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        pb_position before = *p;
        int16_t got[PB_MAX_SEGMENTS + 1], want[PB_MAX_SEGMENTS + 1];
        int bg = budgets[i], bw = budgets[i], lg = -1, lw = -1, start = (int)(i % 3);
        int g = pb_can_score(tac, p, &bg, got, start, &lg);
        assert_same_position(f, p, &before);
        int w = ref_walk(f, p, p->to_move ^ 1, &bw, want, start, &lw);
        assert_int_equal(g, w);
        assert_int_equal(bg, bw);
        if (w) {
            assert_int_equal(lg, lw);
            assert_memory_equal(got + start, want + start, sizeof(int16_t) * (size_t)(lw - start));
        }
        int bn = budgets[i];
        assert_int_equal(pb_can_score(tac, p, &bn, NULL, 0, NULL), w); /* without a route */
        assert_int_equal(bn, bw);
        *yes += w, *exhausted += bw < 0;
    }
}

/* Random bounce steps from p: a position in the middle of a turn. */
static void bounce_a_little(const pb_field *f, pb_position *p, uint64_t *seed) {
    for (int n = (int)(lcg(seed) % 4); n > 0; n--) {
        int d = (int)(lcg(seed) % 8), k = 0;
        while (k < 8 && !pb_free(f, p, p->ball, (d + k) % 8)) k++;
        if (k == 8) return;
        pb_undo u;
        int loser;
        if (pb_step(f, p, (d + k) % 8, &u, &loser) != PB_STEP_BOUNCE) pb_unstep(f, p, &u);
    }
}

/* The ball put on a random node that is neither occupied nor a goal node
 * (the walk must count the node occupied once it has left it). */
static int ball_on_empty(const pb_field *f, pb_position *p, uint64_t *seed) {
    for (int tries = 0; tries < 50; tries++) {
        int i = (int)(lcg(seed) % (uint32_t)f->nlattice);
        if (pb_is_node(f, i) && !pb_occupied(f, p, i) && pb_goal_owner(f, i) == PB_NOBODY) {
            pb_set_ball(f, p, i);
            return 1;
        }
    }
    return 0;
}

static void walks_on(pb_rules rules, int g, int w, int l, int s, pb_dead_end de, int n) {
    pb_field *f = ts_field(rules, g, w, l, s, de);
    pb_tactics tac;
    assert_int_equal(pb_tactics_init(&tac, f), 0);
    uint64_t seed = 12345 + (uint64_t)(w * 100 + l * 10 + s + de);
    int yes = 0, exhausted = 0, total = 0;
    for (int i = 0; i < n; i++) {
        pb_position p;
        random_position(f, &p, (int)(lcg(&seed) % 40), &seed);
        if (i % 3 == 1) bounce_a_little(f, &p, &seed);
        if (i % 7 == 3 && !ball_on_empty(f, &p, &seed)) continue;
        assert_dirs(f, &p);
        compare_walks(f, &tac, &p, &yes, &exhausted);
        total += 7;
    }
    /* Both answers and walks cut short by the budget were met. */
    assert_true(yes > total / 20 && yes < total - total / 20);
    assert_true(exhausted > total / 50);
    pb_tactics_free(&tac);
    pb_field_free(f);
}

static void test_walk_against_steps(void **state) {
    (void)state;
    walks_on(PB_RULES_BOOK, 2, 4, 6, 0, 0, 1500);
    walks_on(PB_RULES_BOOK, 2, 6, 8, 0, 0, 800);
    walks_on(PB_RULES_HOCKEY, 2, 4, 6, 1, PB_DEAD_END_DRAW, 1000);
    walks_on(PB_RULES_HOCKEY, 2, 6, 8, 1, PB_DEAD_END_LOSS, 800);
    walks_on(PB_RULES_HOCKEY, 2, 4, 6, 0, PB_DEAD_END_LOSS, 1000);
}

/* deg[] and dirs[] through steps, undos, kicks' draws and erases, refresh
 * and mirror images, against the segment words (book, hockey, triple). */
static void dirs_on(pb_rules rules, int g, int w, int l, int s) {
    pb_field *f = ts_field(rules, g, w, l, s, 0);
    uint64_t seed = 777;
    for (int i = 0; i < 200; i++) {
        pb_position p, q;
        random_position(f, &p, (int)(lcg(&seed) % 30), &seed);
        assert_dirs(f, &p);
        q = p;
        pb_position_refresh(f, &q);
        assert_same_position(f, &p, &q);
        pb_position_mirror(f, &p, &q, (int)(lcg(&seed) & 1), (int)(lcg(&seed) & 1));
        assert_dirs(f, &q);
        int sg = (int)(lcg(&seed) % (uint32_t)f->nsegments);
        if (pb_drawn(&p, sg)) pb_erase_segment(f, &p, sg);
        else pb_draw_segment(f, &p, sg);
        assert_dirs(f, &p);
        /* A kick reflected at a post runs a segment twice and draws it
         * twice: it stays drawn, and undoing both draws frees it again. */
        q = p;
        int e = 0;
        while (e < f->nsegments && pb_drawn(&p, e)) e++;
        if (e < f->nsegments) {
            const pb_segment *g = &f->segs[e];
            pb_draw_segment(f, &p, e);
            pb_draw_segment(f, &p, e);
            assert_true(pb_drawn(&p, e));
            assert_true((p.dirs[g->a] >> g->dir & 1) && (p.dirs[g->b] >> (g->dir ^ 4) & 1));
            pb_erase_segment(f, &p, e);
            pb_erase_segment(f, &p, e);
            assert_same_position(f, &p, &q);
        }
        if (rules == PB_RULES_TRIPLE) continue;
        for (int d = 0; d < 8; d++) {
            if (!pb_free(f, &p, p.ball, d)) continue;
            pb_undo u;
            int loser;
            pb_step(f, &p, d, &u, &loser);
            assert_dirs(f, &p);
            pb_unstep(f, &p, &u);
            assert_same_position(f, &p, &q);
        }
    }
    pb_field_free(f);
}

static void test_drawn_directions(void **state) {
    (void)state;
    dirs_on(PB_RULES_BOOK, 2, 6, 8, 0);
    dirs_on(PB_RULES_HOCKEY, 2, 8, 10, 1);
    dirs_on(PB_RULES_TRIPLE, 2, 6, 8, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_against_steps),
        cmocka_unit_test(test_drawn_directions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
