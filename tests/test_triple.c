/* test_triple.c - the triple rule set (docs/rules.md §3,
 * docs/triple.md): one test per rule clause, each built so that it fails
 * when the clause is broken, plus perft and random games cross-checked
 * against the naive reference in tests/ref_triple.c.
 *
 * Positions are built by drawing segments directly; a "ring" around the
 * ball (segments joining its eight neighbours in turn) touches every
 * neighbour without drawing any segment at the ball, so the player to move
 * is stuck while all eight kick directions stay open.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perft.h"
#include "test_support.h"
#include "triple.h"

/* tests/ref_triple.c */
int pb_ref_triple_plies(int G, int W, int L, const int (*segs)[4], int nsegs, int bx, int by, int tm, char ***out);
void pb_ref_triple_perft(int G, int W, int L, int maxdepth, uint64_t *seq, uint64_t *pos, uint64_t *fin);

/* ---- helpers --------------------------------------------------------- */

static pb_field *field(int G, int W, int L) {
    pb_field_spec sp = {PB_RULES_TRIPLE, G, W, L, 0, PB_DEAD_END_DRAW};
    char err[200];
    pb_field *f = pb_field_new(&sp, err, sizeof err);
    if (!f) fail_msg("%s", err);
    return f;
}

static int node(const pb_field *f, const char *name) {
    int used;
    int i = pb_node_parse(f, name, &used);
    if (i < 0 || name[used]) fail_msg("bad node %s", name);
    return i;
}

/* Parses "d6-d7-e8" (a leading '*' marks a kick chain) into nodes. */
static int parse_route(const pb_field *f, const char *text, int16_t *nodes, int max, int *kick) {
    int len = 0;
    *kick = text[0] == '*';
    const char *s = text + *kick;
    for (;;) {
        int used;
        int i = pb_node_parse(f, s, &used);
        if (i < 0 || len == max) fail_msg("bad route %s", text);
        nodes[len++] = (int16_t)i;
        s += used;
        if (*s != '-') break;
        s++;
    }
    if (*s) fail_msg("bad route %s", text);
    return len;
}

/* Draws the segments of a path "a1-b2-c3" (each must be free). */
static void draw(const pb_field *f, pb_position *p, const char *path) {
    int16_t nodes[64];
    int kick;
    int len = parse_route(f, path, nodes, 64, &kick);
    for (int k = 1; k < len; k++) {
        int s = pb_seg_between(f, nodes[k - 1], nodes[k]);
        if (s < 0 || pb_drawn(p, s)) fail_msg("can't draw %s", path);
        pb_draw_segment(f, p, s);
    }
}

/* The start position with the ball moved to `ball` and `to_move` to move. */
static void setup(const pb_field *f, pb_position *p, const char *ball, int to_move) {
    pb_position_start(f, p, PB_TOP);
    pb_set_ball(f, p, node(f, ball));
    pb_set_to_move(f, p, to_move);
}

/* Touches the eight neighbours of the ball by joining them in turn. */
static void ring(const pb_field *f, pb_position *p) {
    for (int d = 0; d < 8; d++) {
        int a = pb_step_to(f, p->ball, d), b = pb_step_to(f, p->ball, (d + 1) & 7);
        int s = pb_seg_between(f, a, b);
        if (s >= 0 && !pb_drawn(p, s)) pb_draw_segment(f, p, s);
    }
}

typedef struct ply {
    char text[512];
    int kick, end, loser, mover, len;
} ply;

typedef struct ply_list {
    ply v[2048];
    int n;
    const pb_position *before;
} ply_list;

/* Collects every ply and checks what every `after` must satisfy. */
static int collect(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    ply_list *l = c;
    const pb_position *b = l->before;
    assert_int_equal(after->hash, pb_position_hash_full(f, after));
    assert_int_equal(r->nodes[0], b->ball);
    assert_int_equal(after->ball, r->nodes[r->len - 1]);
    assert_int_equal(r->mover, r->kick ? b->to_move ^ 1 : b->to_move);
    assert_int_equal(after->to_move, r->kick ? b->to_move : b->to_move ^ 1);
    if (r->end == PB_END_GOAL) assert_int_equal(r->loser, pb_goal_owner(f, after->ball));
    else assert_int_equal(r->loser, PB_NOBODY);
    assert_true(l->n < 2048);
    ply *q = &l->v[l->n++];
    pb_route_format(f, r->nodes, r->len, r->kick, q->text, sizeof q->text);
    q->kick = r->kick, q->end = r->end, q->loser = r->loser, q->mover = r->mover, q->len = r->len;
    return 0;
}

/* All plies from p (checking that p comes back unchanged). */
static long plies(const pb_field *f, pb_position *p, ply_list *l) {
    pb_position copy = *p;
    l->n = 0;
    l->before = &copy;
    long n = pb_triple_foreach(f, p, collect, l);
    assert_int_equal(n, l->n);
    assert_true(pb_position_equal(f, p, &copy));
    assert_int_equal(p->hash, copy.hash);
    return n;
}

static const ply *find(const ply_list *l, const char *text) {
    for (int k = 0; k < l->n; k++)
        if (!strcmp(l->v[k].text, text)) return &l->v[k];
    return NULL;
}

/* Number of plies whose text starts with prefix. */
static int count_prefix(const ply_list *l, const char *prefix) {
    int n = 0;
    for (int k = 0; k < l->n; k++) n += !strncmp(l->v[k].text, prefix, strlen(prefix));
    return n;
}

/* Plays text on p: must succeed; returns the route info. */
static pb_route play_ok(const pb_field *f, pb_position *p, const char *text) {
    static int16_t nodes[4096];
    int kick;
    int len = parse_route(f, text, nodes, 4096, &kick);
    pb_route info;
    char err[300];
    if (pb_triple_play(f, p, nodes, len, kick, &info, err, sizeof err)) fail_msg("%s: %s", text, err);
    assert_int_equal(p->hash, pb_position_hash_full(f, p));
    return info;
}

/* Plays text on p: must fail with a message containing `why`, p unchanged. */
static void play_fails(const pb_field *f, pb_position *p, const char *text, const char *why) {
    int16_t nodes[256];
    int kick;
    int len = parse_route(f, text, nodes, 256, &kick);
    pb_route info;
    char err[300] = "";
    pb_position copy = *p;
    int r = pb_triple_play(f, p, nodes, len, kick, &info, err, sizeof err);
    if (r == 0) fail_msg("%s was accepted", text);
    if (!strstr(err, why)) fail_msg("%s: expected '%s' in '%s'", text, why, err);
    assert_null(strchr(err, '\n'));
    assert_true(pb_position_equal(f, p, &copy));
    assert_int_equal(p->hash, copy.hash);
}

/* ---- normal moves ---------------------------------------------------- */

static void test_first_turn(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    static ply_list l;
    assert_int_equal(plies(f, &p, &l), 306); /* the figure of the game's rules */
    for (int k = 0; k < l.n; k++) {
        assert_int_equal(l.v[k].len, 4);
        assert_int_equal(l.v[k].kick, 0);
        assert_int_equal(l.v[k].end, PB_END_NONE);
        pb_position q = p;
        pb_route r = play_ok(f, &q, l.v[k].text);
        assert_int_equal(r.end, PB_END_NONE);
        assert_int_equal(q.to_move, PB_BOTTOM);
        assert_int_equal(pb_position_drawn_count(f, &q), 3);
    }
    pb_field_free(f);
}

static void test_touched_node(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    pb_position_start(f, &p, PB_TOP);
    plies(f, &p, &l);
    assert_non_null(find(&l, "d6-d7-e8-e9"));
    draw(f, &p, "e8-f8"); /* touches e8 (and f8) */
    plies(f, &p, &l);
    assert_null(find(&l, "d6-d7-e8-e9"));
    assert_null(find(&l, "d6-d7-d8-e8"));
    assert_non_null(find(&l, "d6-d7-d8-d9"));
    play_fails(f, &p, "d6-d7-e8-e9", "d6-d7-e8-e9: node e8 is touched");
    play_fails(f, &p, "d6-d7-d8-e8", "node e8 is touched");
    /* The centre is touched from the start: no move comes back to it. */
    setup(f, &p, "d4", PB_TOP);
    plies(f, &p, &l);
    assert_non_null(find(&l, "d4-d5-e5-e6"));
    assert_null(find(&l, "d4-d5-d6-d7"));
    play_fails(f, &p, "d4-d5-d6-d7", "node d6 is touched");
    pb_field_free(f);
}

static void test_cross_drawn_diagonal(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    pb_position_start(f, &p, PB_TOP);
    draw(f, &p, "e7-d8"); /* the other diagonal of the cell of d7-e8 */
    plies(f, &p, &l);
    assert_null(find(&l, "d6-d7-e8-e9"));
    assert_null(find(&l, "d6-d7-e8-f8"));
    assert_non_null(find(&l, "d6-d7-c8-c9")); /* the next cell is free */
    play_fails(f, &p, "d6-d7-e8-e9", "d7-e8 crosses a drawn line");
    /* Orthogonal lines are not crossed by anything. */
    pb_position_start(f, &p, PB_TOP);
    draw(f, &p, "c9-c10");
    plies(f, &p, &l);
    assert_non_null(find(&l, "d6-d7-d8-d9"));
    pb_field_free(f);
}

static void test_cross_own_link(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    pb_position_start(f, &p, PB_TOP);
    plies(f, &p, &l);
    /* Only link 3 can cross link 1: consecutive links share a node, and the
     * other diagonal of a link's cell never starts at its ends. */
    assert_null(find(&l, "d6-e7-e6-d7")); /* e6-d7 crosses d6-e7 */
    assert_null(find(&l, "d6-c7-c6-d7")); /* c6-d7 crosses d6-c7 */
    assert_null(find(&l, "d6-e5-e6-d5")); /* e6-d5 crosses d6-e5 */
    assert_non_null(find(&l, "d6-e7-e6-f5"));
    assert_non_null(find(&l, "d6-d7-e6-e5")); /* d7-e6 would cross d6-e7, which is not there */
    play_fails(f, &p, "d6-e7-e6-d7", "e6-d7 crosses an earlier link of the move");
    play_fails(f, &p, "d6-e5-e6-d5", "e6-d5 crosses an earlier link of the move");
    pb_field_free(f);
}

static void test_no_node_twice(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    /* The ball on an untouched node (built by hand): only the no-repeat rule
     * keeps the move from coming back to it. */
    setup(f, &p, "d4", PB_TOP);
    assert_false(pb_occupied(f, &p, node(f, "d4")));
    plies(f, &p, &l);
    assert_null(find(&l, "d4-e5-e4-d4"));
    assert_null(find(&l, "d4-d3-c3-d4"));
    assert_null(find(&l, "d4-d5-e5-d5"));
    assert_non_null(find(&l, "d4-e5-e4-e3"));
    play_fails(f, &p, "d4-e5-e4-d4", "node d4 is already on the move");
    play_fails(f, &p, "d4-d5-e5-d5", "node d5 is already on the move");
    pb_field_free(f);
}

static void test_goal_after_one_two_three_steps(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    for (int mover = 0; mover < 2; mover++) {
        /* Bottom's goal nodes c1 d1 e1; for Bottom these are own goals. */
        setup(f, &p, "d2", mover);
        plies(f, &p, &l);
        const char *one[] = {"d2-c1", "d2-d1", "d2-e1"};
        for (int k = 0; k < 3; k++) {
            const ply *q = find(&l, one[k]);
            assert_non_null(q);
            assert_int_equal(q->end, PB_END_GOAL);
            assert_int_equal(q->loser, PB_BOTTOM);
            assert_int_equal(q->mover, mover);
        }
        setup(f, &p, "d3", mover);
        plies(f, &p, &l);
        const ply *two = find(&l, "d3-d2-c1");
        assert_non_null(two);
        assert_int_equal(two->end, PB_END_GOAL);
        assert_int_equal(two->loser, PB_BOTTOM);
        assert_int_equal(count_prefix(&l, "d3-d2-c1-"), 0); /* the move ends at the goal */
        setup(f, &p, "d4", mover);
        plies(f, &p, &l);
        const ply *three = find(&l, "d4-d3-d2-e1");
        assert_non_null(three);
        assert_int_equal(three->end, PB_END_GOAL);
        pb_route r = play_ok(f, &p, "d4-d3-d2-e1");
        assert_int_equal(r.end, PB_END_GOAL);
        assert_int_equal(r.loser, PB_BOTTOM);
        assert_int_equal(r.mover, mover);
        assert_int_equal(p.ball, node(f, "e1"));
    }
    /* Top's goal: c11 d11 e11. */
    setup(f, &p, "d9", PB_BOTTOM);
    plies(f, &p, &l);
    const ply *q = find(&l, "d9-d10-c11");
    assert_non_null(q);
    assert_int_equal(q->loser, PB_TOP);
    setup(f, &p, "d3", PB_TOP);
    play_fails(f, &p, "d3-d2-d1-d2", "scores at d1, yet the route goes on");
    pb_field_free(f);
}

static void test_own_goal_only_no_kick(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    /* Bottom on its own goal line, every field neighbour touched: the only
     * moves are own goals, and they must be played (no free kick). */
    setup(f, &p, "d2", PB_BOTTOM);
    draw(f, &p, "c3-d3-e3");
    assert_int_equal(plies(f, &p, &l), 3);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(l.v[k].kick, 0);
        assert_int_equal(l.v[k].end, PB_END_GOAL);
        assert_int_equal(l.v[k].loser, PB_BOTTOM);
        assert_int_equal(l.v[k].mover, PB_BOTTOM);
    }
    play_fails(f, &p, "*d2-d3-d4-d5-d6-d7-d8", "a free kick is not allowed: the player to move has a normal move");
    pb_field_free(f);
}

static void test_goal_line_touch(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    setup(f, &p, "d4", PB_TOP);
    plies(f, &p, &l);
    const ply *through = find(&l, "d4-c3-d2-e3");
    assert_non_null(through);
    assert_int_equal(through->end, PB_END_NONE);
    setup(f, &p, "d5", PB_TOP);
    plies(f, &p, &l);
    const ply *onto = find(&l, "d5-d4-d3-d2");
    assert_non_null(onto);
    assert_int_equal(onto->end, PB_END_NONE);
    pb_route r = play_ok(f, &p, "d5-d4-d3-d2");
    assert_int_equal(r.end, PB_END_NONE);
    assert_int_equal(p.to_move, PB_BOTTOM);
    pb_field_free(f);
}

static void test_posts_not_touched(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    setup(f, &p, "c5", PB_TOP);
    plies(f, &p, &l);
    assert_non_null(find(&l, "c5-c4-c3-d2"));
    assert_null(find(&l, "c5-c4-c3-c2")); /* c2 is a post */
    assert_null(find(&l, "c5-d4-d3-e2")); /* e2 is a post */
    play_fails(f, &p, "c5-c4-c3-c2", "node c2 is a post");
    /* Other boundary nodes neither. */
    setup(f, &p, "b5", PB_TOP);
    plies(f, &p, &l);
    assert_null(find(&l, "b5-b6-b7-a8"));
    play_fails(f, &p, "b5-b6-b7-a8", "node a8 is on the boundary");
    play_fails(f, &p, "b5-b6-b7", "exactly three links");
    pb_field_free(f);
}

/* ---- free kicks ------------------------------------------------------ */

static void test_kick_reflection_diagonal(void **state) {
    (void)state;
    pb_field *f = field(2, 8, 10); /* posts d2 f2 (x = 3, 5) and d12 f12 */
    pb_position p;
    static ply_list l;
    /* SW from h4 hits the post f2 on step 2 and goes on NW. */
    setup(f, &p, "h4", PB_BOTTOM);
    draw(f, &p, "h4-i5"); /* the line that brought the ball here */
    ring(f, &p);
    assert_false(pb_triple_has_move(f, &p));
    plies(f, &p, &l);
    const ply *q = find(&l, "*h4-g3-f2-e3-d4-c5-b6");
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_NONE);
    assert_int_equal(q->mover, PB_TOP);
    for (int k = 0; k < l.n; k++) assert_int_equal(l.v[k].kick, 1);
    pb_route r = play_ok(f, &p, "*h4-g3-f2-e3-d4-c5-b6");
    assert_int_equal(r.end, PB_END_NONE);
    assert_int_equal(r.mover, PB_TOP);
    assert_int_equal(p.to_move, PB_BOTTOM); /* the stuck player moves next */
    assert_int_equal(p.ball, node(f, "b6"));
    assert_true(pb_drawn(&p, pb_seg_between(f, node(f, "f2"), node(f, "e3"))));
    /* The same at a top post: NE from c9 hits d12 on step 3 and goes SE. */
    setup(f, &p, "c9", PB_TOP);
    draw(f, &p, "c9-b9");
    ring(f, &p);
    plies(f, &p, &l);
    /* i9 is a boundary node: the chain goes on from there. */
    assert_null(find(&l, "*c9-d10-e11-f12-g11-h10-i9"));
    assert_true(count_prefix(&l, "*c9-d10-e11-f12-g11-h10-i9-") > 0);
    /* Without reflection the kick would leave the field: refused. */
    assert_int_equal(count_prefix(&l, "*c9-d10-e11-f12-g13"), 0);
    pb_field_free(f);
}

static void test_kick_reflection_straight(void **state) {
    (void)state;
    pb_field *f = field(2, 8, 10);
    pb_position p;
    static ply_list l;
    /* S from f4: f3, the post f2 (step 2), then back N along its own line
     * (docs/triple.md: only lines drawn before the kick are closed). */
    setup(f, &p, "f4", PB_TOP);
    draw(f, &p, "f4-g5");
    ring(f, &p);
    plies(f, &p, &l);
    const ply *q = find(&l, "*f4-f3-f2-f3-f4-f5-f6");
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_NONE);
    assert_int_equal(q->mover, PB_BOTTOM);
    int before = pb_position_drawn_count(f, &p);
    play_ok(f, &p, "*f4-f3-f2-f3-f4-f5-f6");
    assert_int_equal(pb_position_drawn_count(f, &p), before + 4); /* f3-f4, f2-f3 once each */
    assert_int_equal(p.to_move, PB_TOP);
    /* From f6 the kick comes back to end on f4, which it passed itself on
     * the way down but which was untouched before the kick: it is over. */
    setup(f, &p, "f6", PB_TOP);
    draw(f, &p, "f6-g7");
    ring(f, &p);
    plies(f, &p, &l);
    q = find(&l, "*f6-f5-f4-f3-f2-f3-f4");
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_NONE);
    /* From f5 it comes back onto f5, the ball's node, touched before: again. */
    setup(f, &p, "f5", PB_TOP);
    draw(f, &p, "f5-g6");
    ring(f, &p);
    plies(f, &p, &l);
    assert_null(find(&l, "*f5-f4-f3-f2-f3-f4-f5"));
    assert_true(count_prefix(&l, "*f5-f4-f3-f2-f3-f4-f5-") > 0);
    /* A kick reaching a post on its sixth step stops there: a boundary
     * node, so the kicker kicks again (not reflected back). */
    setup(f, &p, "f8", PB_TOP);
    draw(f, &p, "f8-g9");
    ring(f, &p);
    plies(f, &p, &l);
    assert_true(count_prefix(&l, "*f8-f7-f6-f5-f4-f3-f2-") > 0);
    assert_null(find(&l, "*f8-f7-f6-f5-f4-f3-f2"));
    assert_int_equal(count_prefix(&l, "*f8-f7-f6-f5-f4-f3-f2-f3"), 0); /* back along the kick: drawn */
    pb_field_free(f);
}

static void test_kick_continues_on_touched_node(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    setup(f, &p, "d4", PB_TOP);
    draw(f, &p, "d4-e3");
    ring(f, &p);
    assert_false(pb_triple_has_move(f, &p));
    plies(f, &p, &l);
    /* N from d4 passes the centre (touched: no matter) and ends on d10 on
     * the goal line, untouched: the chain ends there. */
    const ply *q = find(&l, "*d4-d5-d6-d7-d8-d9-d10");
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_NONE);
    draw(f, &p, "d10-c10"); /* now d10 is touched */
    plies(f, &p, &l);
    assert_null(find(&l, "*d4-d5-d6-d7-d8-d9-d10"));
    q = find(&l, "*d4-d5-d6-d7-d8-d9-d10-d11"); /* kicked again, into Top's goal */
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_GOAL);
    assert_int_equal(q->loser, PB_TOP);
    assert_int_equal(q->mover, PB_BOTTOM);
    play_fails(f, &p, "*d4-d5-d6-d7-d8-d9-d10", "the same player kicks again");
    /* Continuations found are playable as given. */
    for (int k = 0; k < l.n; k++) {
        pb_position r = p;
        play_ok(f, &r, l.v[k].text);
    }
    pb_field_free(f);
}

static void test_kick_continues_on_boundary_node(void **state) {
    (void)state;
    pb_field *f = field(2, 8, 10);
    pb_position p;
    static ply_list l;
    /* N from b6 ends on b12, on the top line: the kicker kicks again. */
    setup(f, &p, "b6", PB_BOTTOM);
    draw(f, &p, "b6-c5");
    ring(f, &p);
    plies(f, &p, &l);
    assert_null(find(&l, "*b6-b7-b8-b9-b10-b11-b12"));
    assert_true(count_prefix(&l, "*b6-b7-b8-b9-b10-b11-b12-") > 0);
    /* The next kick can't run back along the first (drawn before it)... */
    assert_int_equal(count_prefix(&l, "*b6-b7-b8-b9-b10-b11-b12-b11"), 0);
    /* ...but it may cross lines and pass through touched nodes. */
    const ply *q = find(&l, "*b6-b7-b8-b9-b10-b11-b12-c11-d10-e9-f8-g7-h6");
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_NONE);
    assert_int_equal(q->mover, PB_TOP);
    pb_route r = play_ok(f, &p, "*b6-b7-b8-b9-b10-b11-b12-c11-d10-e9-f8-g7-h6");
    assert_int_equal(r.end, PB_END_NONE);
    assert_int_equal(p.to_move, PB_BOTTOM);
    pb_field_free(f);
}

static void test_kick_refused_along_drawn_segment(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    setup(f, &p, "b3", PB_TOP);
    draw(f, &p, "b3-c2");
    ring(f, &p);
    plies(f, &p, &l);
    assert_true(count_prefix(&l, "*b3-b4-") > 0);
    draw(f, &p, "b6-b7");
    /* N was the only direction from b3 (the others leave the narrow field):
     * now there is no kick at all. */
    assert_int_equal(plies(f, &p, &l), 0);
    assert_true(pb_triple_finished(f, &p));
    play_fails(f, &p, "*b3-b4-b5-b6-b7-b8-b9", "no free kick exists from b3");
    pb_field_free(f);
    /* Crossing a drawn diagonal is allowed, running along one is not:
     * NE from c3 on (2;8;10) runs d4 e5 f6 g7 h8 i9. */
    f = field(2, 8, 10);
    setup(f, &p, "c3", PB_TOP);
    draw(f, &p, "c3-b4");
    ring(f, &p);
    draw(f, &p, "e4-d5"); /* crosses d4-e5 */
    plies(f, &p, &l);
    assert_true(count_prefix(&l, "*c3-d4-e5-f6-g7-h8-i9-") > 0);
    draw(f, &p, "f6-g7");
    plies(f, &p, &l);
    assert_int_equal(count_prefix(&l, "*c3-d4-"), 0);
    play_fails(f, &p, "*c3-d4-e5-f6-g7-h8-i9-h10", "would run along the drawn segment f6-g7");
    pb_field_free(f);
}

static void test_no_kick_direction_is_a_draw(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    setup(f, &p, "d4", PB_TOP);
    for (int d = 0; d < 8; d++) pb_draw_segment(f, &p, f->seg[p.ball][d]); /* a star */
    assert_false(pb_triple_has_move(f, &p));
    assert_false(pb_triple_has_kick(f, &p));
    assert_true(pb_triple_finished(f, &p));
    assert_int_equal(plies(f, &p, &l), 0);
    assert_int_equal(pb_perft_dfs(f, &p, 1), 0);
    play_fails(f, &p, "*d4-d5-d6-d7-d8-d9-d10", "no free kick exists from d4");
    /* One open direction is enough for a chain. */
    pb_erase_segment(f, &p, f->seg[p.ball][PB_N]);
    draw(f, &p, "d5-e5"); /* keeps d5 touched */
    assert_false(pb_triple_has_move(f, &p));
    assert_int_equal(plies(f, &p, &l), 1);
    assert_string_equal(l.v[0].text, "*d4-d5-d6-d7-d8-d9-d10");
    assert_int_equal(l.v[0].end, PB_END_NONE);
    pb_field_free(f);
}

static void test_no_kick_continuation_is_a_draw(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    setup(f, &p, "b3", PB_TOP);
    draw(f, &p, "b3-c2");
    ring(f, &p);
    /* Every segment at b9 but the one the kick N arrives on. */
    for (int d = 0; d < 8; d++) {
        int s = f->seg[node(f, "b9")][d];
        if (d != PB_S && s >= 0) pb_draw_segment(f, &p, s);
    }
    plies(f, &p, &l);
    const ply *q = find(&l, "*b3-b4-b5-b6-b7-b8-b9");
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_NO_KICK);
    assert_int_equal(q->loser, PB_NOBODY);
    pb_route r = play_ok(f, &p, "*b3-b4-b5-b6-b7-b8-b9");
    assert_int_equal(r.end, PB_END_NO_KICK);
    assert_int_equal(r.loser, PB_NOBODY);
    assert_int_equal(p.ball, node(f, "b9"));
    /* On the boundary: S from b8 ends on b2, where every direction leaves
     * the field, runs along the border or back along the kick. */
    setup(f, &p, "b8", PB_BOTTOM);
    draw(f, &p, "b8-c9");
    ring(f, &p);
    plies(f, &p, &l);
    q = find(&l, "*b8-b7-b6-b5-b4-b3-b2");
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_NO_KICK);
    assert_int_equal(count_prefix(&l, "*b8-b7-b6-b5-b4-b3-b2-"), 0);
    pb_field_free(f);
}

static void test_kick_scores(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    /* N from d6: d7 d8 d9 d10 (goal line) d11: a goal on step 5. */
    setup(f, &p, "d6", PB_BOTTOM);
    draw(f, &p, "d6-c5");
    ring(f, &p);
    plies(f, &p, &l);
    const ply *q = find(&l, "*d6-d7-d8-d9-d10-d11");
    assert_non_null(q);
    assert_int_equal(q->end, PB_END_GOAL);
    assert_int_equal(q->loser, PB_TOP);
    assert_int_equal(q->mover, PB_TOP); /* the kicker scored into its own goal */
    play_fails(f, &p, "*d6-d7-d8", "in the middle of the kick");
    play_fails(f, &p, "*d6-d7-d8-d9-d10-d11-d10", "scores at d11");
    pb_field_free(f);
}

static void test_play_reasons(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    play_fails(f, &p, "e6-e7-e8-e9", "the route starts at e6 but the ball is on d6");
    play_fails(f, &p, "d6-d8-d9-d10", "is not a step to a neighbouring node");
    play_fails(f, &p, "d6-d7-d8-d9-d10", "at most three links");
    play_fails(f, &p, "*d6-d7-d8-d9-d10-d11", "a free kick is not allowed");
    setup(f, &p, "b3", PB_TOP);
    draw(f, &p, "b3-c2");
    ring(f, &p);
    play_fails(f, &p, "*b3-b4-b5-b6-c7", "reaches b7 at step 4, not c7");
    play_fails(f, &p, "*b3-a3", "leave the field");
    play_fails(f, &p, "b3-c3-d4-e5", "node c3 is touched");
    pb_field_free(f);
}

/* The worked example of docs/triple.md: after three moves Bottom is stuck
 * on d7 and Top has two kicks, both goals: N into Top's own goal, S into
 * Bottom's goal on the sixth step. */
static void test_worked_example(void **state) {
    (void)state;
    pb_field *f = field(2, 6, 8);
    pb_position p;
    static ply_list l;
    pb_position_start(f, &p, PB_TOP);
    play_ok(f, &p, "d6-e6-e7-e8");
    play_ok(f, &p, "e8-d9-c8-b7");
    play_ok(f, &p, "b7-c7-c6-d7");
    assert_int_equal(p.to_move, PB_BOTTOM);
    assert_false(pb_triple_has_move(f, &p));
    play_fails(f, &p, "d7-d8-e9-e10", "d8-e9 crosses a drawn line");
    assert_int_equal(plies(f, &p, &l), 2);
    const ply *n = find(&l, "*d7-d8-d9-d10-d11"), *s = find(&l, "*d7-d6-d5-d4-d3-d2-d1");
    assert_non_null(n);
    assert_non_null(s);
    assert_int_equal(n->end, PB_END_GOAL);
    assert_int_equal(n->loser, PB_TOP);
    assert_int_equal(s->end, PB_END_GOAL);
    assert_int_equal(s->loser, PB_BOTTOM);
    assert_int_equal(n->mover, PB_TOP);
    pb_field_free(f);
}

/* ---- cross-checks against tests/ref_triple.c ------------------------- */

/* A local splitmix64 (no global state). */
typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Compares the plies of p with the reference's, as sorted strings. */
static void compare_with_ref(const pb_field *f, pb_position *p, ply_list *l) {
    static int segs[PB_MAX_SEGMENTS][4];
    int n = ts_ref_segments(f, p, segs);
    char **ref;
    int nref = pb_ref_triple_plies(f->spec.goal, f->spec.width, f->spec.length, (const int(*)[4])segs, n,
                                   pb_x(f, p->ball), pb_y(f, p->ball), p->to_move, &ref);
    plies(f, p, l);
    /* The same strings from the fast code, via the after positions. */
    char **mine = malloc(sizeof(char *) * (size_t)(l->n + 1));
    for (int k = 0; k < l->n; k++) {
        pb_position q = *p;
        pb_route r = play_ok(f, &q, l->v[k].text);
        assert_int_equal(r.end, l->v[k].end);
        assert_int_equal(r.loser, l->v[k].loser);
        assert_int_equal(r.mover, l->v[k].mover);
        mine[k] = malloc(600);
        snprintf(mine[k], 600, "%s end=%d loser=%d tm=%d n=%d", l->v[k].text, l->v[k].end, l->v[k].loser, q.to_move,
                 pb_position_drawn_count(f, &q));
    }
    qsort(mine, (size_t)l->n, sizeof(char *), cmp_str);
    if (nref != l->n) {
        char buf[600];
        fail_msg("ref has %d plies, triple.c %d (ball %s)", nref, l->n, pb_node_name(f, p->ball, buf));
    }
    for (int k = 0; k < nref; k++) {
        if (strcmp(ref[k], mine[k])) fail_msg("ref '%s' vs triple.c '%s'", ref[k], mine[k]);
        free(ref[k]);
        free(mine[k]);
    }
    free(ref);
    free(mine);
}

/* A ply's shape, mirrored: kick, end, length and the loser with the
 * players swapped when the field is turned upside down. */
static long shape(const ply *q, int tb) {
    int loser = q->loser == PB_NOBODY ? PB_NOBODY : q->loser ^ tb;
    return ((long)q->len * 8 + q->kick * 4 + q->end) * 4 + loser;
}

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The mirror images of p (docs/rules.md §4: left-right keeps the rules,
 * top-bottom swaps the players) have the mirrored plies. */
static void check_mirror(const pb_field *f, const pb_position *p, const ply_list *l, int lr, int tb) {
    static ply_list lm;
    static long a[2048], b[2048];
    pb_position m;
    pb_position_mirror(f, p, &m, lr, tb);
    assert_int_equal(plies(f, &m, &lm), l->n);
    for (int k = 0; k < l->n; k++) a[k] = shape(&l->v[k], tb), b[k] = shape(&lm.v[k], 0);
    qsort(a, (size_t)l->n, sizeof(long), cmp_long);
    qsort(b, (size_t)l->n, sizeof(long), cmp_long);
    for (int k = 0; k < l->n; k++) assert_int_equal(a[k], b[k]);
}

/* Random games: at every position the plies equal the reference's, and
 * mirrored positions have mirrored ply counts.  Counts the kick chains and
 * reflections met so the test proves it has seen them. */
static void random_games(int G, int W, int L, int games, uint64_t seed, int *kicks, int *reflections, int *nokick,
                         int *finished) {
    pb_field *f = field(G, W, L);
    static ply_list l;
    rng r = {seed};
    for (int g = 0; g < games; g++) {
        pb_position p;
        pb_position_start(f, &p, (int)(rng_next(&r) & 1));
        for (;;) {
            compare_with_ref(f, &p, &l);
            for (int mir = 1; mir < 4; mir++) check_mirror(f, &p, &l, mir & 1, mir >> 1);
            if (l.n == 0) {
                assert_true(pb_triple_finished(f, &p));
                (*finished)++;
                break;
            }
            for (int k = 0; k < l.n; k++) {
                if (!l.v[k].kick) continue;
                (*kicks)++;
                if (l.v[k].end == PB_END_NO_KICK) (*nokick)++;
                int16_t nodes[4096];
                int kick;
                int len = parse_route(f, l.v[k].text, nodes, 4096, &kick);
                for (int j = 1; j < len - 1; j++)
                    if (f->flags[nodes[j]] & PB_POST) {
                        int a = nodes[j - 1], c = nodes[j + 1];
                        if (pb_y(f, a) == pb_y(f, c) && a != c) (*reflections)++;
                        if (a == c) (*reflections)++;
                    }
            }
            const ply *q = &l.v[rng_next(&r) % (uint64_t)l.n];
            pb_route info = play_ok(f, &p, q->text);
            if (info.end != PB_END_NONE) break;
        }
    }
    pb_field_free(f);
}

static void test_random_games_vs_ref(void **state) {
    (void)state;
    int kicks = 0, refl = 0, nokick = 0, fin = 0;
    random_games(2, 4, 4, 300, 1, &kicks, &refl, &nokick, &fin);
    random_games(2, 4, 6, 200, 2, &kicks, &refl, &nokick, &fin);
    random_games(2, 6, 6, 100, 5, &kicks, &refl, &nokick, &fin);
    random_games(2, 6, 8, 60, 3, &kicks, &refl, &nokick, &fin);
    random_games(4, 6, 6, 100, 4, &kicks, &refl, &nokick, &fin);
    /* Fields wider than long: the rules allow them (docs/rules.md §1). */
    random_games(2, 6, 4, 150, 6, &kicks, &refl, &nokick, &fin);
    random_games(2, 8, 6, 80, 7, &kicks, &refl, &nokick, &fin);
    random_games(4, 8, 2, 100, 8, &kicks, &refl, &nokick, &fin);
    print_message("kick chains seen %d, with a post reflection %d, no-kick ends %d, drawn stuck positions %d\n", kicks,
                  refl, nokick, fin);
    assert_true(kicks > 0);
    assert_true(refl > 0);
}

/* ---- perft ----------------------------------------------------------- */

static void check_perft(int G, int W, int L, int maxdepth) {
    pb_field *f = field(G, W, L);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_perft_row rows[16];
    uint64_t seq[16], pos[16], fin[16];
    int n = pb_perft(f, &p, maxdepth, rows);
    pb_ref_triple_perft(G, W, L, maxdepth, seq, pos, fin);
    for (int d = 1; d <= maxdepth; d++) {
        uint64_t s = d <= n ? rows[d - 1].sequences : 0, ps = d <= n ? rows[d - 1].positions : 0,
                 fi = d <= n ? rows[d - 1].finished : 0;
        print_message("(%d;%d;%d) depth %d: sequences %llu positions %llu finished %llu\n", G, W, L, d,
                      (unsigned long long)s, (unsigned long long)ps, (unsigned long long)fi);
        assert_int_equal(s, seq[d - 1]);
        assert_int_equal(ps, pos[d - 1]);
        assert_int_equal(fi, fin[d - 1]);
        assert_int_equal(pb_perft_dfs(f, &p, d), seq[d - 1]);
    }
    pb_field_free(f);
}

typedef struct tree_count {
    long plies, kicks, reflected, nokick;
} tree_count;

/* Walks the whole game tree, counting kick chains (so the perft checks
 * below are known to include them). */
static int count_tree(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    tree_count *t = c;
    t->plies++;
    if (r->kick) {
        t->kicks++;
        t->nokick += r->end == PB_END_NO_KICK;
        for (int j = 1; j < r->len - 1; j++)
            if ((f->flags[r->nodes[j]] & PB_POST) && pb_y(f, r->nodes[j - 1]) == pb_y(f, r->nodes[j + 1])) {
                t->reflected++;
                break;
            }
    }
    if (r->end == PB_END_NONE) pb_triple_foreach(f, after, count_tree, t);
    return 0;
}

static void test_perft_small_fields(void **state) {
    (void)state;
    check_perft(2, 2, 4, 3);
    check_perft(2, 4, 4, 6); /* the whole game tree: it ends at depth 5 */
    check_perft(2, 4, 6, 3);
    check_perft(2, 6, 4, 3); /* wider than long */
    check_perft(2, 4, 2, 4);
    pb_field *f = field(2, 4, 4);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    tree_count t = {0, 0, 0, 0};
    pb_triple_foreach(f, &p, count_tree, &t);
    print_message("(2;4;4) game tree: %ld plies, %ld kick chains, %ld through a post, %ld no-kick ends\n", t.plies,
                  t.kicks, t.reflected, t.nokick);
    assert_true(t.kicks > 0);
    pb_field_free(f);
}

static void test_perft_book_field(void **state) {
    (void)state;
    check_perft(2, 6, 8, 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_turn),
        cmocka_unit_test(test_touched_node),
        cmocka_unit_test(test_cross_drawn_diagonal),
        cmocka_unit_test(test_cross_own_link),
        cmocka_unit_test(test_no_node_twice),
        cmocka_unit_test(test_goal_after_one_two_three_steps),
        cmocka_unit_test(test_own_goal_only_no_kick),
        cmocka_unit_test(test_goal_line_touch),
        cmocka_unit_test(test_posts_not_touched),
        cmocka_unit_test(test_kick_reflection_diagonal),
        cmocka_unit_test(test_kick_reflection_straight),
        cmocka_unit_test(test_kick_continues_on_touched_node),
        cmocka_unit_test(test_kick_continues_on_boundary_node),
        cmocka_unit_test(test_kick_refused_along_drawn_segment),
        cmocka_unit_test(test_no_kick_direction_is_a_draw),
        cmocka_unit_test(test_no_kick_continuation_is_a_draw),
        cmocka_unit_test(test_kick_scores),
        cmocka_unit_test(test_play_reasons),
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_random_games_vs_ref),
        cmocka_unit_test(test_perft_small_fields),
        cmocka_unit_test(test_perft_book_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
