/* test_enumerate.c - the exact enumeration (enumerate/) against the game
 * model's perft, the naive reference enumeration (ref_enum.c), itself
 * under other thread counts and count representations, and its
 * checkpoints, memory budget and visitors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "enumerate.h"
#include "perft.h"
#include "ref_enum.h"

typedef struct field_case {
    pb_rules rules;
    int g, w, l, s;
    pb_dead_end dead;
    int depth;     /* -1: every game to its end */
    int ref_depth; /* depth for the naive reference (it walks every sequence) */
} field_case;

/* Small fields of book, hockey (both dead-end options, S = 0 and 1) and
 * triple; the whole-game ones end within a few turns. */
static const field_case cases[] = {
    {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW, -1, 3},   {PB_RULES_BOOK, 2, 2, 4, 0, PB_DEAD_END_DRAW, 4, 3},
    {PB_RULES_BOOK, 2, 4, 4, 0, PB_DEAD_END_DRAW, 4, 4},    {PB_RULES_HOCKEY, 2, 2, 4, 0, PB_DEAD_END_DRAW, -1, 3},
    {PB_RULES_HOCKEY, 2, 2, 4, 0, PB_DEAD_END_LOSS, -1, 3}, {PB_RULES_HOCKEY, 2, 2, 6, 1, PB_DEAD_END_DRAW, -1, 3},
    {PB_RULES_HOCKEY, 2, 4, 4, 0, PB_DEAD_END_LOSS, 3, 3},  {PB_RULES_HOCKEY, 2, 4, 6, 1, PB_DEAD_END_DRAW, 2, 2},
    {PB_RULES_TRIPLE, 2, 4, 4, 0, PB_DEAD_END_DRAW, -1, 5}, {PB_RULES_TRIPLE, 2, 4, 6, 0, PB_DEAD_END_DRAW, 4, 4},
};
#define NCASES (int)(sizeof cases / sizeof cases[0])

static pb_field *case_field(const field_case *c) {
    pb_field_spec sp = {c->rules, c->g, c->w, c->l, c->s, c->dead};
    char err[200];
    pb_field *f = pb_field_new(&sp, err, sizeof err);
    if (!f) fail_msg("field: %s", err);
    return f;
}

static pb_enum_status run(const pb_field *f, const pb_position *root, int depth, int threads, uint64_t small_max,
                          pb_enum_result *res) {
    pb_enum_options o;
    pb_enum_options_init(&o);
    o.max_depth = depth;
    o.threads = threads;
    o.small_max = small_max;
    return pb_enumerate(f, root, &o, res);
}

static void assert_rows_equal(const pb_enum_result *a, const pb_enum_result *b) {
    assert_int_equal(a->nrows, b->nrows);
    assert_int_equal(a->complete, b->complete);
    for (int d = 0; d < a->nrows; d++) {
        const pb_enum_row *x = &a->rows[d], *y = &b->rows[d];
        assert_int_equal(x->positions, y->positions);
        assert_int_equal(x->classes_lr, y->classes_lr);
        assert_int_equal(x->classes_full, y->classes_full);
        assert_int_equal(x->classes_known, y->classes_known);
        assert_int_equal(mpz_cmp(x->sequences, y->sequences), 0);
        assert_int_equal(mpz_cmp(x->finished, y->finished), 0);
        for (int k = 0; k < PB_OUT_COUNT; k++) assert_int_equal(mpz_cmp(x->outcome[k], y->outcome[k]), 0);
    }
    assert_int_equal(mpz_cmp(a->games, b->games), 0);
    assert_int_equal(mpz_cmp(a->positions, b->positions), 0);
}

static uint64_t u64(mpz_srcptr z) {
    assert_true(mpz_sizeinbase(z, 2) <= 64);
    uint64_t v = 0;
    mpz_export(&v, NULL, -1, sizeof v, 0, 0, z);
    return v;
}

/* perft(d) and positions(d) equal the game model's pb_perft, and the
 * small depths its plain depth-first pb_perft_dfs. */
static void test_perft_matches(void **state) {
    (void)state;
    for (int c = 0; c < NCASES; c++) {
        pb_field *f = case_field(&cases[c]);
        pb_position root;
        pb_position_start(f, &root, PB_TOP);
        pb_enum_result res;
        assert_int_equal(run(f, &root, cases[c].depth, 2, 0, &res), PB_ENUM_OK);
        assert_true(res.nrows >= 2);
        if (cases[c].depth < 0) assert_true(res.complete);
        int maxd = res.nrows - 1;
        pb_perft_row *rows = calloc((size_t)maxd + 1, sizeof *rows);
        int n = pb_perft(f, &root, maxd, rows);
        assert_int_equal(mpz_cmp_ui(res.rows[0].sequences, 1), 0);
        assert_int_equal(res.rows[0].positions, 1);
        for (int d = 1; d <= maxd; d++) {
            const pb_enum_row *r = &res.rows[d];
            uint64_t seq = d <= n ? rows[d - 1].sequences : 0, pos = d <= n ? rows[d - 1].positions : 0;
            uint64_t fin = d <= n ? rows[d - 1].finished : 0;
            assert_int_equal(u64(r->sequences), seq);
            assert_int_equal(r->positions, pos);
            assert_int_equal(u64(r->finished), fin);
            if (d <= 3) {
                pb_position p = root;
                assert_int_equal(u64(r->sequences), pb_perft_dfs(f, &p, d));
            }
        }
        free(rows);
        pb_enum_result_free(&res);
        pb_field_free(f);
    }
}

static void assert_matches_ref(const pb_field *f, const pb_position *root, const pb_enum_result *res, int depth) {
    int cap = f->nsegments + 2;
    ref_enum_row *ref = calloc((size_t)cap, sizeof *ref);
    uint64_t all;
    int n = ref_enum(f, root, depth, ref, cap, &all);
    assert_true(n <= res->nrows);
    uint64_t sum = 0;
    for (int d = 0; d <= depth && d < res->nrows; d++) {
        const pb_enum_row *r = &res->rows[d];
        assert_int_equal(r->positions, ref[d].positions);
        assert_int_equal(r->classes_lr, ref[d].classes_lr);
        assert_int_equal(r->classes_full, ref[d].classes_full);
        assert_int_equal(u64(r->sequences), ref[d].sequences);
        assert_int_equal(u64(r->finished), ref[d].finished);
        for (int k = 0; k < PB_OUT_COUNT; k++) assert_int_equal(u64(r->outcome[k]), ref[d].outcome[k]);
        sum += r->positions;
    }
    /* Book and hockey: a position's depth is fixed by its drawing (one new
     * occupied node per turn), so the depths' sets are disjoint. */
    if (f->spec.rules != PB_RULES_TRIPLE) assert_int_equal(sum, all);
    else assert_true(all <= sum);
    free(ref);
}

/* Distinct positions, classes, sequences and outcomes equal the naive
 * depth-first enumeration with a plain hash set. */
static void test_ref_matches(void **state) {
    (void)state;
    for (int c = 0; c < NCASES; c++) {
        pb_field *f = case_field(&cases[c]);
        pb_position root;
        pb_position_start(f, &root, PB_TOP);
        pb_enum_result res;
        assert_int_equal(run(f, &root, cases[c].ref_depth, 2, 0, &res), PB_ENUM_OK);
        assert_matches_ref(f, &root, &res, cases[c].ref_depth);
        pb_enum_result_free(&res);
        pb_field_free(f);
    }
}

/* The first route from p that does not end the game, played on p. */
static void play_first_going_route(const pb_field *f, pb_position *p, int skip);

typedef struct pick {
    int skip;
    pb_position after;
    int found;
} pick;

static int pick_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f;
    pick *k = ctx;
    if (r->end != PB_END_NONE) return 0;
    if (k->skip-- > 0) return 0;
    k->after = *after;
    k->found = 1;
    return 1;
}

static void play_first_going_route(const pb_field *f, pb_position *p, int skip) {
    pick k;
    memset(&k, 0, sizeof k);
    k.skip = skip;
    pb_routes_foreach(f, p, pick_route, &k);
    assert_true(k.found);
    *p = k.after;
}

/* From a position that is not symmetric, the classes need lookups (the
 * set is not closed under the mirrors): still equal to the reference. */
static void test_record_root(void **state) {
    (void)state;
    field_case c = {PB_RULES_BOOK, 2, 4, 4, 0, PB_DEAD_END_DRAW, 3, 3};
    pb_field *f = case_field(&c);
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    play_first_going_route(f, &root, 1);
    pb_enum_result res;
    assert_int_equal(run(f, &root, 3, 2, 0, &res), PB_ENUM_OK);
    assert_matches_ref(f, &root, &res, 3);
    /* Not symmetric: some class has one member only. */
    assert_true(res.rows[2].classes_lr * 2 > res.rows[2].positions);
    pb_enum_result_free(&res);
    pb_field_free(f);
}

typedef struct tally {
    mpz_t going[64], out[64][PB_OUT_COUNT];
    uint64_t npos[64];
} tally;

/* The visitors run on two threads: add under a critical section. */
static int tally_position(void *ctx, int thread, const pb_field *f, const pb_position *p, int depth, mpz_srcptr m) {
    (void)thread, (void)f, (void)p;
    tally *t = ctx;
#pragma omp critical(tally)
    {
        mpz_add(t->going[depth], t->going[depth], m);
        t->npos[depth]++;
    }
    return 0;
}

static int tally_finish(void *ctx, int thread, const pb_field *f, const pb_position *before, const pb_position *after,
                        const pb_route *r, pb_enum_outcome k, int depth, mpz_srcptr m) {
    (void)thread, (void)f, (void)before, (void)after;
    tally *t = ctx;
    if (r->end != PB_END_NONE && pb_enum_classify(r) != k) return 1;
#pragma omp critical(tally)
    mpz_add(t->out[depth][k], t->out[depth][k], m);
    return 0;
}

/* The sums that must hold: games = sum of finished; finished = sum of the
 * outcomes; sequences(d) = finished(d) + the multiplicities of F(d) (as
 * the position visitor sees them); the finish visitor's sums are the
 * outcome counters; the classes bound the positions. */
static void test_consistency(void **state) {
    (void)state;
    for (int c = 0; c < NCASES; c++) {
        pb_field *f = case_field(&cases[c]);
        pb_position root;
        pb_position_start(f, &root, PB_TOP);
        tally *t = calloc(1, sizeof *t);
        for (int d = 0; d < 64; d++) {
            mpz_init(t->going[d]);
            for (int k = 0; k < PB_OUT_COUNT; k++) mpz_init(t->out[d][k]);
        }
        pb_enum_visitor v = {tally_position, tally_finish, t};
        pb_enum_options o;
        pb_enum_options_init(&o);
        o.max_depth = cases[c].depth;
        o.threads = 2;
        o.visit = &v;
        pb_enum_result res;
        assert_int_equal(pb_enumerate(f, &root, &o, &res), PB_ENUM_OK);
        assert_true(res.nrows < 64);
        mpz_t games, sum;
        mpz_inits(games, sum, NULL);
        for (int d = 0; d < res.nrows; d++) {
            const pb_enum_row *r = &res.rows[d];
            mpz_add(games, games, r->finished);
            mpz_set_ui(sum, 0);
            for (int k = 0; k < PB_OUT_COUNT; k++) {
                mpz_add(sum, sum, r->outcome[k]);
                assert_int_equal(mpz_cmp(t->out[d][k], r->outcome[k]), 0);
            }
            assert_int_equal(mpz_cmp(sum, r->finished), 0);
            mpz_add(sum, t->going[d], r->finished);
            assert_int_equal(mpz_cmp(sum, r->sequences), 0);
            assert_int_equal(t->npos[d], r->positions);
            assert_true(r->classes_known);
            assert_true(r->classes_lr <= r->positions && r->positions <= 2 * r->classes_lr);
            assert_true(r->classes_full <= r->classes_lr && r->classes_lr <= 2 * r->classes_full);
            if (cases[c].rules != PB_RULES_TRIPLE) {
                /* Book and hockey from the start: every position of depth d
                 * has the same player to move, so tb never maps F(d) into
                 * itself. */
                assert_int_equal(r->classes_full, r->classes_lr);
                /* Bounce rules: the mover never is stuck: no free-kick draws. */
                assert_int_equal(mpz_sgn(r->outcome[PB_OUT_KICK_DRAW]), 0);
            } else {
                /* Triple has no dead ends. */
                for (int k = PB_OUT_DEAD_END_TOP; k <= PB_OUT_DEAD_END_DRAW; k++)
                    assert_int_equal(mpz_sgn(r->outcome[k]), 0);
            }
            if (cases[c].rules == PB_RULES_BOOK) assert_int_equal(mpz_sgn(r->outcome[PB_OUT_DEAD_END_DRAW]), 0);
        }
        assert_int_equal(mpz_cmp(games, res.games), 0);
        if (res.complete) assert_int_equal(res.rows[res.nrows - 1].positions, 0);
        mpz_clears(games, sum, NULL);
        for (int d = 0; d < 64; d++) {
            mpz_clear(t->going[d]);
            for (int k = 0; k < PB_OUT_COUNT; k++) mpz_clear(t->out[d][k]);
        }
        free(t);
        pb_enum_result_free(&res);
        pb_field_free(f);
    }
}

/* 1, 2 and 3 threads, and counts kept in GMP from 2 on (small_max = 1),
 * give identical rows.  (3 threads on a machine of 2 processors or fewer:
 * a thread often loses its processor holding a shard's lock, so the
 * others meet busy shards and buffer more.) */
static void test_threads_and_spill(void **state) {
    (void)state;
    for (int c = 0; c < NCASES; c++) {
        pb_field *f = case_field(&cases[c]);
        pb_position root;
        pb_position_start(f, &root, PB_TOP);
        pb_enum_result a, b, s, t;
        assert_int_equal(run(f, &root, cases[c].depth, 1, 0, &a), PB_ENUM_OK);
        assert_int_equal(run(f, &root, cases[c].depth, 2, 0, &b), PB_ENUM_OK);
        assert_int_equal(run(f, &root, cases[c].depth, 2, 1, &s), PB_ENUM_OK);
        assert_int_equal(run(f, &root, cases[c].depth, 3, 0, &t), PB_ENUM_OK);
        assert_rows_equal(&a, &b);
        assert_rows_equal(&a, &s);
        assert_rows_equal(&a, &t);
        pb_enum_result_free(&a);
        pb_enum_result_free(&b);
        pb_enum_result_free(&s);
        pb_enum_result_free(&t);
        pb_field_free(f);
    }
}

static int no_finish(void *ctx, int thread, const pb_field *f, const pb_position *before, const pb_position *after,
                     const pb_route *r, pb_enum_outcome outcome, int depth, mpz_srcptr mult) {
    (void)ctx, (void)thread, (void)f, (void)before, (void)after, (void)r, (void)outcome, (void)depth, (void)mult;
    return 0;
}

/* Three ways to expand a position give the same rows: each distinct
 * outcome once with its number of routes (the default), every route one
 * by one (what a finish visitor gets), and outcomes with 2 or more routes
 * recounted route by route (routes_max = 1: the path taken past 2^64 - 1
 * routes). */
/* The depth of a case for the checks that run it several times: 3 at most
 * (every rule set has finished games by then), to keep them short. */
static int short_depth(const field_case *c) { return c->depth < 0 || c->depth > 3 ? 3 : c->depth; }

static void test_outcomes_equal_routes(void **state) {
    (void)state;
    for (int c = 0; c < NCASES; c++) {
        pb_field *f = case_field(&cases[c]);
        pb_position root;
        pb_position_start(f, &root, PB_TOP);
        pb_enum_result a, b, r;
        assert_int_equal(run(f, &root, short_depth(&cases[c]), 2, 0, &a), PB_ENUM_OK);
        pb_enum_visitor v = {NULL, no_finish, NULL};
        pb_enum_options o;
        pb_enum_options_init(&o);
        o.max_depth = short_depth(&cases[c]);
        o.threads = 2;
        o.visit = &v;
        assert_int_equal(pb_enumerate(f, &root, &o, &b), PB_ENUM_OK);
        o.visit = NULL;
        o.routes_max = 1;
        assert_int_equal(pb_enumerate(f, &root, &o, &r), PB_ENUM_OK);
        assert_rows_equal(&a, &b);
        assert_rows_equal(&a, &r);
        pb_enum_result_free(&a);
        pb_enum_result_free(&b);
        pb_enum_result_free(&r);
        pb_field_free(f);
    }
}

/* The top-bottom mirror swaps the players: with Bottom first every count
 * of Top's becomes Bottom's and the other way round; positions and
 * sequences stay. */
static void test_mirror_swaps_players(void **state) {
    (void)state;
    static const pb_enum_outcome swap[PB_OUT_COUNT] = {
        PB_OUT_GOAL_BOTTOM,     PB_OUT_GOAL_TOP,     PB_OUT_OWN_GOAL_BOTTOM, PB_OUT_OWN_GOAL_TOP,
        PB_OUT_DEAD_END_BOTTOM, PB_OUT_DEAD_END_TOP, PB_OUT_DEAD_END_DRAW,   PB_OUT_KICK_DRAW,
    };
    int asymmetric = 0;
    for (int c = 0; c < NCASES; c++) {
        pb_field *f = case_field(&cases[c]);
        pb_position top, bottom;
        pb_position_start(f, &top, PB_TOP);
        pb_position_start(f, &bottom, PB_BOTTOM);
        pb_enum_result a, b;
        assert_int_equal(run(f, &top, short_depth(&cases[c]), 2, 0, &a), PB_ENUM_OK);
        assert_int_equal(run(f, &bottom, short_depth(&cases[c]), 2, 0, &b), PB_ENUM_OK);
        assert_int_equal(a.nrows, b.nrows);
        for (int d = 0; d < a.nrows; d++) {
            const pb_enum_row *x = &a.rows[d], *y = &b.rows[d];
            assert_int_equal(x->positions, y->positions);
            assert_int_equal(mpz_cmp(x->sequences, y->sequences), 0);
            for (int k = 0; k < PB_OUT_COUNT; k++) {
                assert_int_equal(mpz_cmp(x->outcome[k], y->outcome[swap[k]]), 0);
                asymmetric |= mpz_cmp(x->outcome[k], x->outcome[swap[k]]) != 0;
            }
        }
        pb_enum_result_free(&a);
        pb_enum_result_free(&b);
        pb_field_free(f);
    }
    assert_true(asymmetric); /* the check compares something */
}

static void temp_path(char *buf, size_t len, const char *name) {
    snprintf(buf, len, "%s/pb-test-enum-%ld-%s.ckpt", P_tmpdir, (long)getpid(), name);
}

/* A run stopped at depth 2 (of 3) and resumed to the end gives the rows of an
 * uninterrupted run; the checkpoint is removed once every game ended. */
static void test_checkpoint_resume(void **state) {
    (void)state;
    field_case c = {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW, -1, 0};
    pb_field *f = case_field(&c);
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    char path[256];
    temp_path(path, sizeof path, "resume");
    pb_enum_options o;
    pb_enum_options_init(&o);
    o.checkpoint = path;
    o.max_depth = 2;
    o.threads = 2;
    o.small_max = 3; /* the checkpoint also holds spilled counts */
    pb_enum_result part, whole, resumed;
    assert_int_equal(pb_enumerate(f, &root, &o, &part), PB_ENUM_OK);
    assert_false(part.complete);
    assert_int_equal(part.last_depth, 2);
    assert_int_equal(access(path, F_OK), 0);
    o.max_depth = -1;
    o.resume = 1;
    assert_int_equal(pb_enumerate(f, &root, &o, &resumed), PB_ENUM_OK);
    assert_int_equal(resumed.resumed_from, 2);
    assert_true(resumed.complete);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(run(f, &root, -1, 1, 0, &whole), PB_ENUM_OK);
    assert_rows_equal(&whole, &resumed);
    pb_enum_result_free(&part);
    pb_enum_result_free(&whole);
    pb_enum_result_free(&resumed);
    pb_field_free(f);
}

/* Blocks the next checkpoint: its temporary file's name taken by a
 * directory, made while depth 0 is visited. */
static int block_checkpoint(void *ctx, int thread, const pb_field *f, const pb_position *p, int depth,
                            mpz_srcptr mult) {
    (void)thread, (void)f, (void)p, (void)mult;
    if (depth == 0) assert_int_equal(mkdir(ctx, 0700), 0);
    return 0;
}

/* The checkpoint of depth 1 cannot be written (it is written while the
 * pass over depth 1 runs): the run stops with PB_ENUM_IO, the last
 * finished depth 0, and depth 0's checkpoint still in place. */
static void test_checkpoint_write_fails(void **state) {
    (void)state;
    field_case c = {PB_RULES_BOOK, 2, 4, 4, 0, PB_DEAD_END_DRAW, -1, 0};
    pb_field *f = case_field(&c);
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    char path[256], tmp[300];
    temp_path(path, sizeof path, "blocked");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    pb_enum_visitor v = {block_checkpoint, NULL, tmp};
    pb_enum_options o;
    pb_enum_options_init(&o);
    o.checkpoint = path;
    o.max_depth = 3;
    o.threads = 2;
    o.visit = &v;
    pb_enum_result res;
    assert_int_equal(pb_enumerate(f, &root, &o, &res), PB_ENUM_IO);
    assert_int_equal(res.last_depth, 0);
    assert_non_null(strstr(res.message, "cannot write the checkpoint"));
    assert_int_equal(rmdir(tmp), 0);
    o.visit = NULL;
    o.resume = 1;
    pb_enum_result resumed, whole;
    assert_int_equal(pb_enumerate(f, &root, &o, &resumed), PB_ENUM_OK);
    assert_int_equal(resumed.resumed_from, 0);
    assert_int_equal(run(f, &root, 3, 1, 0, &whole), PB_ENUM_OK);
    assert_rows_equal(&whole, &resumed);
    remove(path);
    pb_enum_result_free(&res);
    pb_enum_result_free(&resumed);
    pb_enum_result_free(&whole);
    pb_field_free(f);
}

static pb_enum_status resume_from(const pb_field *f, const pb_position *root, const char *path) {
    pb_enum_options o;
    pb_enum_options_init(&o);
    o.checkpoint = path;
    o.resume = 1;
    pb_enum_result res;
    pb_enum_status st = pb_enumerate(f, root, &o, &res);
    if (st != PB_ENUM_OK) assert_true(strlen(res.message) > 0);
    pb_enum_result_free(&res);
    return st;
}

/* A missing, damaged, truncated or foreign checkpoint is refused. */
static void test_bad_checkpoint(void **state) {
    (void)state;
    field_case c = {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW, -1, 0};
    field_case other = {PB_RULES_HOCKEY, 2, 2, 4, 0, PB_DEAD_END_DRAW, -1, 0};
    pb_field *f = case_field(&c), *g = case_field(&other);
    pb_position root, groot;
    pb_position_start(f, &root, PB_TOP);
    pb_position_start(g, &groot, PB_TOP);
    char path[256], bad[256];
    temp_path(path, sizeof path, "good");
    temp_path(bad, sizeof bad, "bad");
    assert_int_equal(resume_from(f, &root, path), PB_ENUM_BAD_CHECKPOINT);
    pb_enum_options o;
    pb_enum_options_init(&o);
    o.checkpoint = path;
    o.max_depth = 2;
    pb_enum_result res;
    assert_int_equal(pb_enumerate(f, &root, &o, &res), PB_ENUM_OK);
    pb_enum_result_free(&res);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    assert_true(n > 100 && n < sizeof buf);
    /* Another field, and another root. */
    assert_int_equal(resume_from(g, &groot, path), PB_ENUM_BAD_CHECKPOINT);
    pb_position moved = root;
    play_first_going_route(f, &moved, 0);
    assert_int_equal(resume_from(f, &moved, path), PB_ENUM_BAD_CHECKPOINT);
    /* One byte flipped in the frontier, then the file cut short, then a
     * byte appended. */
    for (int kind = 0; kind < 3; kind++) {
        FILE *out = fopen(bad, "wb");
        buf[n / 2] ^= (unsigned char)(kind == 0 ? 0x10 : 0);
        fwrite(buf, 1, kind == 1 ? n - 5 : n, out);
        if (kind == 2) fputc(0, out);
        buf[n / 2] ^= (unsigned char)(kind == 0 ? 0x10 : 0);
        fclose(out);
        assert_int_equal(resume_from(f, &root, bad), PB_ENUM_BAD_CHECKPOINT);
    }
    /* The intact file still resumes. */
    assert_int_equal(resume_from(f, &root, path), PB_ENUM_OK);
    remove(bad);
    remove(path);
    pb_field_free(f);
    pb_field_free(g);
}

/* A budget too small for depth 3 stops cleanly after depth 2 (or earlier)
 * with a message naming the last finished depth. */
static void test_memory_budget(void **state) {
    (void)state;
    field_case c = {PB_RULES_BOOK, 2, 4, 4, 0, PB_DEAD_END_DRAW, 5, 0};
    pb_field *f = case_field(&c);
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    pb_enum_result full;
    assert_int_equal(run(f, &root, 5, 2, 0, &full), PB_ENUM_OK);
    pb_enum_options o;
    pb_enum_options_init(&o);
    o.max_depth = 5;
    o.threads = 2;
    o.memory = full.peak_memory / 2;
    pb_enum_result res;
    assert_int_equal(pb_enumerate(f, &root, &o, &res), PB_ENUM_MEMORY);
    assert_true(res.last_depth < 5);
    assert_int_equal(res.nrows, res.last_depth + 1);
    assert_true(res.peak_memory <= o.memory);
    char want[64];
    snprintf(want, sizeof want, "last finished depth is %d", res.last_depth);
    assert_non_null(strstr(res.message, want));
    for (int d = 0; d < res.last_depth; d++) {
        assert_int_equal(res.rows[d].positions, full.rows[d].positions);
        assert_int_equal(mpz_cmp(res.rows[d].sequences, full.rows[d].sequences), 0);
    }
    pb_enum_result_free(&res);
    pb_enum_result_free(&full);
    pb_field_free(f);
}

static int stop_at_depth_2(void *ctx, int thread, const pb_field *f, const pb_position *p, int depth, mpz_srcptr m) {
    (void)ctx, (void)thread, (void)f, (void)p, (void)m;
    return depth == 2;
}

static void test_visitor_stop(void **state) {
    (void)state;
    field_case c = {PB_RULES_BOOK, 2, 2, 4, 0, PB_DEAD_END_DRAW, -1, 0};
    pb_field *f = case_field(&c);
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    pb_enum_visitor v = {stop_at_depth_2, NULL, NULL};
    pb_enum_options o;
    pb_enum_options_init(&o);
    o.visit = &v;
    pb_enum_result res;
    assert_int_equal(pb_enumerate(f, &root, &o, &res), PB_ENUM_STOPPED);
    assert_int_equal(res.last_depth, 2);
    pb_enum_result_free(&res);
    pb_field_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_matches),
        cmocka_unit_test(test_ref_matches),
        cmocka_unit_test(test_record_root),
        cmocka_unit_test(test_consistency),
        cmocka_unit_test(test_threads_and_spill),
        cmocka_unit_test(test_checkpoint_resume),
        cmocka_unit_test(test_checkpoint_write_fails),
        cmocka_unit_test(test_bad_checkpoint),
        cmocka_unit_test(test_memory_budget),
        cmocka_unit_test(test_visitor_stop),
        cmocka_unit_test(test_outcomes_equal_routes),
        cmocka_unit_test(test_mirror_swaps_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
