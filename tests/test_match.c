/* test_match.c - triple match play (solver/match.c, solver/match_search.c)
 * against the brute force of tests/ref_match.c (its own plies, its own
 * goal handling, plain minimax without a table): match values with 1 and 2
 * threads and a tiny and a large table, the value of every first turn,
 * perft and finished matches by score, and a record with two goals
 * through the notation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "match_search.h"
#include "test_support.h"

/* tests/ref_match.c */
int pb_ref_match_value(int G, int W, int L, const int (*segs)[4], int nsegs, int bx, int by, int tm);
void pb_ref_match_count(int G, int W, int L, int maxgoals, uint64_t *counts, int maxdepth, uint64_t *seq);

static pb_field *triple(int g, int w, int l) { return ts_field(PB_RULES_TRIPLE, g, w, l, 0, PB_DEAD_END_DRAW); }

/* The reference's value of the match position p. */
static int ref_value(const pb_field *f, const pb_position *p) {
    static int segs[PB_MAX_SEGMENTS][4];
    int n = ts_ref_segments(f, p, segs);
    return pb_ref_match_value(f->spec.goal, f->spec.width, f->spec.length, (const int(*)[4])segs, n, pb_x(f, p->ball),
                              pb_y(f, p->ball), p->to_move);
}

static pb_match_result solve(const pb_field *f, const pb_position *p, int threads, size_t hash) {
    pb_match_opts o = {0};
    o.threads = threads;
    o.hash_bytes = hash;
    pb_match_result r;
    assert_int_equal(pb_match_solve(f, p, &o, &r), 0);
    assert_true(r.known && r.complete && !r.stopped);
    return r;
}

/* The solver's value of p, the same with 1 and 2 threads and a tiny (one
 * bucket) and a large table; every first turn's value checked too when
 * turns_too (against the reference, after that turn). */
static void check_position(const pb_field *f, const pb_position *p, int turns_too) {
    int want = ref_value(f, p);
    pb_match_result a = solve(f, p, 1, 1), b = solve(f, p, 2, (size_t)64 << 20);
    assert_int_equal(a.diff, want);
    assert_int_equal(b.diff, want);
    assert_int_equal(a.nturns, b.nturns);
    for (int i = 0; i < a.nturns; i++) {
        assert_int_equal(a.turns[i].diff, b.turns[i].diff);
        if (!turns_too) continue;
        pb_position q = *p;
        pb_route info;
        int over;
        char err[256];
        assert_int_equal(
            pb_match_play(f, &q, a.turns[i].nodes, a.turns[i].len, a.turns[i].kick, &info, &over, err, sizeof err), 0);
        int g = info.end == PB_END_GOAL ? (info.loser == p->to_move ? -1 : 1) : 0;
        int rest = over ? 0 : ref_value(f, &q);
        assert_int_equal(a.turns[i].diff, g + (q.to_move == p->to_move ? rest : -rest));
    }
    /* The line of perfect play keeps the value: its goals, counted from
     * the root, give the root's difference. */
    assert_true(a.nline > 0);
    const pb_match_line_turn *last = &a.line[a.nline - 1];
    int me = p->to_move;
    assert_int_equal(last->goals[me] - last->goals[me ^ 1], want);
    pb_match_result_free(&a);
    pb_match_result_free(&b);
}

static void test_start_values(void **state) {
    (void)state;
    const int fields[][3] = {{2, 2, 2}, {2, 2, 4}, {2, 4, 4}};
    for (int i = 0; i < 3; i++) {
        pb_field *f = triple(fields[i][0], fields[i][1], fields[i][2]);
        pb_position p;
        pb_position_start(f, &p, PB_TOP);
        check_position(f, &p, i < 2);
        pb_field_free(f);
    }
}

/* A local splitmix64 (no global state). */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

typedef struct pick {
    int want, n;
    pb_position after;
    int over, goal;
} pick;

static int pick_ply(void *ctx, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    pick *c = ctx;
    (void)f;
    if (c->n++ != c->want) return 0;
    c->after = *after, c->over = over, c->goal = r->end == PB_END_GOAL;
    return 1;
}

static int goal_ply(void *ctx, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    pick *c = ctx;
    (void)f, (void)after, (void)over;
    if (r->end == PB_END_GOAL) return c->want = c->n, 1;
    c->n++;
    return 0;
}

/* Positions reached by a few random plies on (2;4;6) (a goal taken
 * whenever one is there, so that the walks pass through restarts from
 * the centre), each checked with the value of every first turn. */
static void test_random_positions(void **state) {
    (void)state;
    pb_field *f = triple(2, 4, 6);
    uint64_t rng = 16;
    int checked = 0, after_goal = 0;
    for (int walk = 0; walk < 40 && checked < 6; walk++) {
        pb_position p;
        pb_position_start(f, &p, walk & 1 ? PB_TOP : PB_BOTTOM);
        int plies = 0, goal = 0, over = 0;
        while (plies < 3 && !over) {
            long n = pb_match_foreach(f, &p, NULL, NULL);
            if (n == 0) break;
            pick c = {-1, 0, p, 0, 0};
            pb_match_foreach(f, &p, goal_ply, &c);
            if (c.want < 0) c.want = (int)(rng_next(&rng) % (uint64_t)n);
            c.n = 0;
            pb_match_foreach(f, &p, pick_ply, &c);
            over = c.over;
            p = c.after;
            goal |= c.goal;
            plies++;
        }
        if (over || pb_match_foreach(f, &p, NULL, NULL) == 0) continue;
        check_position(f, &p, 1);
        checked++;
        after_goal += goal;
    }
    assert_int_equal(checked, 6);
    assert_true(after_goal >= 1);
    pb_field_free(f);
}

/* Finished matches by final score and match perft against the reference. */
static void test_counts(void **state) {
    (void)state;
    enum { MAXG = 8, DEPTH = 6 };
    const int fields[][3] = {{2, 2, 4}, {2, 4, 4}};
    for (int i = 0; i < 2; i++) {
        pb_field *f = triple(fields[i][0], fields[i][1], fields[i][2]);
        pb_position p;
        pb_position_start(f, &p, PB_TOP);
        uint64_t want[(MAXG + 1) * (MAXG + 1)], got[(MAXG + 1) * (MAXG + 1)], wseq[DEPTH], seq[DEPTH], fin[DEPTH];
        pb_ref_match_count(fields[i][0], fields[i][1], fields[i][2], MAXG, want, DEPTH, wseq);
        assert_int_equal(pb_match_count_finished(f, &p, MAXG, got), 0);
        uint64_t total = 0;
        for (int k = 0; k < (MAXG + 1) * (MAXG + 1); k++) assert_int_equal(got[k], want[k]), total += got[k];
        assert_true(total > 0);
        assert_int_equal(pb_match_perft(f, &p, DEPTH, seq, fin), 0);
        for (int d = 0; d < DEPTH; d++) assert_int_equal(seq[d], wseq[d]);
        pb_field_free(f);
    }
}

/* Plies of (2;4;6) chosen depth-first until two goals are scored. */
static int find_two_goals(const pb_field *f, pb_position *p, pb_game *g, int goals, int depth);

typedef struct find_ctx {
    pb_game *g;
    int goals, depth, found;
} find_ctx;

static int find_ply(void *ctx, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    find_ctx *c = ctx;
    int goals = c->goals + (r->end == PB_END_GOAL);
    char err[256];
    if (over && goals < 2) return 0;
    assert_int_equal(pb_game_play(c->g, r->nodes, r->len, r->kick, err, sizeof err), 0);
    if (goals >= 2 && r->end == PB_END_GOAL) return c->found = 1;
    if (!over && c->depth < 12 && find_two_goals(f, after, c->g, goals, c->depth + 1)) return c->found = 1;
    pb_game_undo(c->g);
    return 0;
}

static int find_two_goals(const pb_field *f, pb_position *p, pb_game *g, int goals, int depth) {
    find_ctx c = {g, goals, depth, 0};
    pb_match_foreach(f, p, find_ply, &c);
    return c.found;
}

static void test_record_two_goals(void **state) {
    (void)state;
    pb_field *f = triple(2, 4, 6);
    pb_game g;
    pb_game_init_match(&g, f, PB_TOP);
    pb_position p = g.pos;
    assert_true(find_two_goals(f, &p, &g, 0, 0));
    int goal_turns = 0;
    for (int i = 0; i < g.nturns; i++) goal_turns += g.turns[i].end == PB_END_GOAL;
    assert_int_equal(goal_turns, 2);
    assert_int_equal(g.goals[PB_TOP] + g.goals[PB_BOTTOM], 2);
    assert_int_equal(g.end, PB_END_NONE);
    /* After the second goal the ball is on the centre, the conceding side
     * to move. */
    assert_int_equal(g.pos.ball, f->centre);
    assert_int_equal(g.pos.to_move, g.turns[g.nturns - 1].loser);
    char *text = pb_record_format(&g);
    pb_game h;
    char err[256];
    assert_int_equal(pb_record_parse_match(f, text, &h, err, sizeof err), 0);
    assert_int_equal(h.nturns, g.nturns);
    assert_int_equal(h.goals[PB_TOP], g.goals[PB_TOP]);
    assert_int_equal(h.goals[PB_BOTTOM], g.goals[PB_BOTTOM]);
    assert_true(pb_position_equal(f, &h.pos, &g.pos));
    char *again = pb_record_format(&h);
    assert_string_equal(again, text);
    /* As a single game the record stops at the first goal. */
    pb_game s;
    assert_int_equal(pb_record_parse(f, text, &s, err, sizeof err), -1);
    /* A wrong score mark is refused. */
    char *bad = malloc(strlen(text) + 8);
    strcpy(bad, text);
    char *mark = strrchr(bad, '[');
    mark[1] = mark[1] == '0' ? '3' : '0';
    assert_int_equal(pb_record_parse_match(f, bad, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "but the score is"));
    free(bad);
    free(text);
    free(again);
    pb_game_free(&s);
    pb_game_free(&h);
    pb_game_free(&g);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_values),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_record_two_goals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
