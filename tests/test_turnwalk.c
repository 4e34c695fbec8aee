/* test_turnwalk.c - the distinct outcomes of a turn (solver/turnwalk.h)
 * against two methods written apart from it: the routes listed one by one
 * (pb_routes_foreach) and merged by a plain list here, and the naive
 * reference perft (tests/ref_perft.c), which has its own coordinates. */
#include "test_support.h"
#include "posset.h"
#include "ref_perft.h"
#include "turnwalk.h"

#include <stdlib.h>
#include <string.h>

/* ---- route by route, merged by a linear scan ---- */

typedef struct ref_outcome {
    pb_position after;
    pb_end end;
    int loser, mover, kick;
    uint64_t routes;
} ref_outcome;

typedef struct ref_list {
    ref_outcome *v;
    int n, cap;
    const pb_field *f;
} ref_list;

static int ref_add(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    ref_list *l = ctx;
    for (int i = 0; i < l->n; i++)
        if (pb_position_equal(f, &l->v[i].after, after)) {
            assert_int_equal(l->v[i].end, r->end);
            assert_int_equal(l->v[i].loser, r->loser);
            l->v[i].routes++;
            return 0;
        }
    if (l->n == l->cap) l->v = realloc(l->v, sizeof *l->v * (size_t)(l->cap = l->cap ? 2 * l->cap : 64));
    ref_outcome *o = &l->v[l->n++];
    o->after = *after;
    o->end = r->end, o->loser = r->loser, o->mover = r->mover, o->kick = r->kick, o->routes = 1;
    return 0;
}

typedef struct seen_ctx {
    ref_list *ref;
    int *seen;
    long n;
} seen_ctx;

static int check_outcome(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    seen_ctx *c = ctx;
    assert_int_equal(o->after->hash, pb_position_hash_full(f, o->after));
    uint64_t key[PB_MAX_WORDS + 1];
    pb_position_pack(f, o->after, key);
    assert_memory_equal(o->key, key, sizeof(uint64_t) * (size_t)(f->nwords + 1));
    for (int i = 0; i < c->ref->n; i++) {
        const ref_outcome *r = &c->ref->v[i];
        if (!pb_position_equal(f, &r->after, o->after)) continue;
        assert_false(c->seen[i]);
        c->seen[i] = 1;
        assert_int_equal(o->routes, r->routes);
        assert_false(o->overflow);
        assert_int_equal(o->end, r->end);
        assert_int_equal(o->loser, r->loser);
        assert_int_equal(o->mover, r->mover);
        assert_int_equal(o->kick, r->kick);
        c->n++;
        return 0;
    }
    fail_msg("an outcome that no route gives");
    return 1;
}

/* The outcomes' keys in order, and their route counts. */
typedef struct key_list {
    uint64_t *w;
    long n, kw;
} key_list;

static int collect_key(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    key_list *l = ctx;
    (void)f;
    l->w = realloc(l->w, sizeof(uint64_t) * (size_t)((l->n + 1) * (l->kw + 1)));
    memcpy(l->w + l->n * (l->kw + 1), o->key, sizeof(uint64_t) * (size_t)l->kw);
    l->w[l->n * (l->kw + 1) + l->kw] = o->routes;
    l->n++;
    return 0;
}

/* A walk with keys only gives the same outcomes in the same order, with no
 * position (and the full walk's keys were checked against packed
 * positions). */
static void compare_keys_only(pb_turnwalk *tw, const pb_field *f, const pb_position *p) {
    key_list a = {NULL, 0, f->nwords + 1}, b = {NULL, 0, f->nwords + 1};
    assert_true(pb_turn_outcomes(tw, p, collect_key, &a) >= 0);
    pb_turnwalk_set_keys_only(tw, 1);
    assert_true(pb_turn_outcomes(tw, p, collect_key, &b) >= 0);
    pb_turnwalk_set_keys_only(tw, 0);
    assert_int_equal(a.n, b.n);
    if (a.n) assert_memory_equal(a.w, b.w, sizeof(uint64_t) * (size_t)(a.n * (a.kw + 1)));
    free(a.w), free(b.w);
}

/* A walk with ends off gives the list's outcomes that do not end the game,
 * in the full walk's order, and the kinds of end the list has. */
static int collect_going_on(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    assert_int_equal(o->end, PB_END_NONE);
    return collect_key(ctx, f, o);
}

static int keep_going_on(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    return o->end == PB_END_NONE ? collect_key(ctx, f, o) : 0;
}

static void compare_without_ends(pb_turnwalk *tw, const pb_field *f, const pb_position *p, const ref_list *ref) {
    int want = 0;
    for (int i = 0; i < ref->n; i++) {
        const ref_outcome *r = &ref->v[i];
        if (r->end == PB_END_NONE) continue;
        want |= r->loser == PB_NOBODY    ? PB_TURNWALK_END_DRAW
                : r->loser == p->to_move ? PB_TURNWALK_END_LOSS
                                         : PB_TURNWALK_END_WIN;
    }
    key_list a = {NULL, 0, f->nwords + 1}, b = {NULL, 0, f->nwords + 1};
    assert_true(pb_turn_outcomes(tw, p, keep_going_on, &a) >= 0);
    pb_turnwalk_set_ends(tw, 0);
    long n = pb_turn_outcomes(tw, p, collect_going_on, &b);
    assert_int_equal(pb_turnwalk_ends(tw), want);
    pb_turnwalk_set_ends(tw, 1);
    assert_int_equal(n, a.n);
    assert_int_equal(a.n, b.n);
    if (a.n) assert_memory_equal(a.w, b.w, sizeof(uint64_t) * (size_t)(a.n * (a.kw + 1)));
    free(a.w), free(b.w);
}

/* With routes on, each outcome's route played by pb_route_play (the rules
 * as the game applies them, apart from the walk) from p reaches exactly
 * that outcome: the same position after, end and loser. */
typedef struct route_ctx {
    const pb_position *p;
    key_list *keys;
} route_ctx;

static int check_route(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    route_ctx *c = ctx;
    assert_non_null(o->nodes);
    assert_true(o->len >= 2 && o->len <= pb_route_max(f));
    assert_int_equal(o->nodes[0], c->p->ball);
    pb_position q = *c->p;
    pb_route info;
    char err[128];
    int rc = pb_route_play(f, &q, o->nodes, o->len, o->kick, &info, err, sizeof err);
    if (rc) fail_msg("a route that does not play: %s", err);
    assert_true(pb_position_equal(f, &q, o->after));
    assert_int_equal(info.end, o->end);
    if (o->end != PB_END_NONE) assert_int_equal(info.loser, o->loser);
    assert_int_equal(info.kick, o->kick);
    return collect_key(c->keys, f, o);
}

/* The walk with routes gives the same outcomes in the same order, each
 * with a route that reaches it. */
static void compare_routes(pb_turnwalk *tw, const pb_field *f, const pb_position *p) {
    key_list a = {NULL, 0, f->nwords + 1}, b = {NULL, 0, f->nwords + 1};
    assert_true(pb_turn_outcomes(tw, p, collect_key, &a) >= 0);
    assert_int_equal(pb_turnwalk_set_routes(tw, 1), 0);
    route_ctx c = {p, &b};
    assert_true(pb_turn_outcomes(tw, p, check_route, &c) >= 0);
    pb_turnwalk_set_routes(tw, 0);
    assert_int_equal(a.n, b.n);
    if (a.n) assert_memory_equal(a.w, b.w, sizeof(uint64_t) * (size_t)(a.n * (a.kw + 1)));
    free(a.w), free(b.w);
}

/* Compares the walk with the route list at p; returns the number of routes. */
static uint64_t compare_at(pb_turnwalk *tw, const pb_field *f, pb_position *p) {
    ref_list ref = {NULL, 0, 0, f};
    pb_position before = *p;
    pb_routes_foreach(f, p, ref_add, &ref);
    int *seen = calloc((size_t)ref.n + 1, sizeof(int));
    seen_ctx c = {&ref, seen, 0};
    long n = pb_turn_outcomes(tw, p, check_outcome, &c);
    assert_int_equal(n, ref.n);
    assert_int_equal(c.n, ref.n);
    assert_true(pb_position_equal(f, p, &before));
    assert_int_equal(p->hash, before.hash);
    /* Can the mover score at once?  From the list. */
    int scores = 0;
    uint64_t routes = 0;
    for (int i = 0; i < ref.n; i++) {
        const ref_outcome *r = &ref.v[i];
        routes += r->routes;
        if (r->end == PB_END_GOAL && r->mover == p->to_move && r->loser != p->to_move) scores = 1;
    }
    assert_int_equal(pb_turn_can_score(tw, p), scores);
    compare_keys_only(tw, f, p);
    compare_without_ends(tw, f, p, &ref);
    compare_routes(tw, f, p);
    free(seen);
    free(ref.v);
    return routes;
}

typedef struct pick_ctx {
    long k;
    pb_position chosen;
    int ends;
} pick_ctx;

static int pick(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    pick_ctx *c = ctx;
    (void)f;
    if (c->k-- == 0) {
        c->chosen = *after;
        c->ends = r->end != PB_END_NONE;
        return 1;
    }
    return 0;
}

/* Random games on f; every position met is compared.  Returns the largest
 * route count seen in one turn. */
static uint64_t random_games(const pb_field *f, int games, unsigned seed) {
    pb_turnwalk *tw = pb_turnwalk_new(f);
    uint64_t most = 0;
    srand(seed);
    for (int g = 0; g < games; g++) {
        pb_position p;
        pb_position_start(f, &p, PB_TOP);
        for (int turn = 0; turn < 200; turn++) {
            uint64_t routes = compare_at(tw, f, &p);
            if (routes > most) most = routes;
            if (routes == 0) break;
            pick_ctx c = {rand() % (long)routes, p, 0};
            pb_routes_foreach(f, &p, pick, &c);
            if (c.ends) break;
            p = c.chosen;
        }
    }
    pb_turnwalk_free(tw);
    return most;
}

static void test_against_route_lists(void **state) {
    (void)state;
    struct {
        pb_rules rules;
        int g, w, l, s;
        pb_dead_end de;
        int games;
    } cases[] = {
        {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW, 30},   {PB_RULES_BOOK, 2, 4, 4, 0, PB_DEAD_END_DRAW, 30},
        {PB_RULES_BOOK, 2, 6, 8, 0, PB_DEAD_END_DRAW, 20},   {PB_RULES_HOCKEY, 2, 4, 6, 1, PB_DEAD_END_DRAW, 20},
        {PB_RULES_HOCKEY, 2, 4, 4, 0, PB_DEAD_END_LOSS, 20}, {PB_RULES_TRIPLE, 2, 4, 6, 0, PB_DEAD_END_DRAW, 20},
        {PB_RULES_TRIPLE, 2, 6, 8, 0, PB_DEAD_END_DRAW, 5},
    };
    uint64_t most = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_field *f = ts_field(cases[i].rules, cases[i].g, cases[i].w, cases[i].l, cases[i].s, cases[i].de);
        uint64_t m = random_games(f, cases[i].games, 1000u + (unsigned)i);
        if (m > most) most = m;
        pb_field_free(f);
    }
    /* Some turn had several routes into one outcome (bounces in another
     * order), so the merging was exercised. */
    assert_true(most > 8);
}

/* ---- perft through the walk against the naive reference ---- */

typedef struct layer_ctx {
    pb_posset *next;
    uint64_t mult, sequences, finished;
} layer_ctx;

static int add_outcome(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    layer_ctx *c = ctx;
    c->sequences += c->mult * o->routes;
    if (o->end != PB_END_NONE) c->finished += c->mult * o->routes;
    else pb_posset_add(c->next, f, o->after, c->mult * o->routes);
    return 0;
}

static void perft_case(int rules, int g, int w, int l, int s, int de, int depth) {
    ref_counts ref[8];
    ref_perft(rules, g, w, l, s, de, depth, ref);
    pb_field *f =
        ts_field(rules ? PB_RULES_HOCKEY : PB_RULES_BOOK, g, w, l, s, de ? PB_DEAD_END_LOSS : PB_DEAD_END_DRAW);
    pb_turnwalk *tw = pb_turnwalk_new(f);
    pb_posset cur, next;
    pb_posset_init(&cur, f);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    pb_posset_add(&cur, f, &p, 1);
    for (int d = 1; d <= depth; d++) {
        pb_posset_init(&next, f);
        layer_ctx c = {&next, 0, 0, 0};
        for (size_t i = 0; i < cur.cap; i++) {
            pb_position q;
            if (!pb_posset_get(&cur, f, i, &q, &c.mult)) continue;
            assert_true(pb_turn_outcomes(tw, &q, add_outcome, &c) >= 0);
        }
        assert_int_equal(c.sequences, ref[d - 1].sequences);
        assert_int_equal(c.finished, ref[d - 1].finished);
        assert_int_equal(next.size, ref[d - 1].positions);
        pb_posset_free(&cur);
        cur = next;
    }
    pb_posset_free(&cur);
    pb_turnwalk_free(tw);
    pb_field_free(f);
}

static void test_perft_against_naive(void **state) {
    (void)state;
    perft_case(0, 2, 2, 2, 0, 0, 4);
    perft_case(0, 2, 4, 4, 0, 0, 4);
    perft_case(0, 2, 6, 8, 0, 0, 4);
    perft_case(1, 2, 6, 8, 1, 1, 3);
    perft_case(1, 2, 4, 4, 0, 0, 4);
}

/* ---- the position limit ---- */

static int count_outcome(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    (void)f, (void)o;
    ++*(long *)ctx;
    return 0;
}

static int stop_at_once(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    (void)ctx, (void)f, (void)o;
    return 1;
}

static void test_limit(void **state) {
    (void)state;
    pb_field *f = ts_field(PB_RULES_BOOK, 2, 4, 6, 0, PB_DEAD_END_DRAW);
    pb_turnwalk *tw = pb_turnwalk_new(f);
    /* A random game until a turn goes through several mid-turn positions. */
    srand(7);
    pb_position p;
    pb_position_start(f, &p, PB_TOP);
    size_t visited = 0;
    for (int turn = 0; turn < 100; turn++) {
        long n = 0;
        assert_true(pb_turn_outcomes(tw, &p, count_outcome, &n) >= 0);
        visited = pb_turnwalk_visited(tw);
        if (visited > 3) break;
        pick_ctx c = {rand() % n, p, 0};
        long routes = pb_routes_foreach(f, &p, NULL, NULL);
        c.k = rand() % routes;
        pb_routes_foreach(f, &p, pick, &c);
        if (c.ends) {
            pb_position_start(f, &p, PB_TOP);
            continue;
        }
        p = c.chosen;
    }
    assert_true(visited > 3);
    long n = 0;
    pb_turnwalk_set_limit(tw, visited - 1);
    assert_int_equal(pb_turn_outcomes(tw, &p, count_outcome, &n), PB_TURNWALK_TOO_BIG);
    pb_turnwalk_set_limit(tw, visited);
    n = 0;
    long m = pb_turn_outcomes(tw, &p, count_outcome, &n);
    assert_true(m > 0);
    assert_int_equal(m, n);
    /* The callback can stop the walk. */
    pb_turnwalk_set_limit(tw, 0);
    assert_int_equal(pb_turn_outcomes(tw, &p, stop_at_once, NULL), PB_TURNWALK_STOPPED);
    pb_turnwalk_free(tw);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_route_lists),
        cmocka_unit_test(test_perft_against_naive),
        cmocka_unit_test(test_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
