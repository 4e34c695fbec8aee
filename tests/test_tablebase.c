/* test_tablebase.c - tablebases (tablebase/) against independent answers:
 * every value against plain minimax (ref_minimax.c) and every distance
 * against a memoised route-by-route search written here, on every position
 * of small fields and a sample of a larger one; layer sizes against the
 * enumeration; the same file with 1 and 2 threads and after a resumed
 * build; the verifier catching one changed value or distance; the
 * container refusing damaged and mismatched files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "container.h"
#include "enumerate.h"
#include "line.h"
#include "posset.h"
#include "ref_enum.h"
#include "ref_minimax.h"
#include "tablebase.h"

typedef struct tcase {
    pb_rules rules;
    int g, w, l, s;
    pb_dead_end dead;
} tcase;

/* Small fields whose every position is checked. */
static const tcase small[] = {
    {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW},   {PB_RULES_HOCKEY, 2, 2, 4, 0, PB_DEAD_END_DRAW},
    {PB_RULES_HOCKEY, 2, 2, 4, 0, PB_DEAD_END_LOSS}, {PB_RULES_HOCKEY, 2, 4, 2, 0, PB_DEAD_END_DRAW},
    {PB_RULES_HOCKEY, 2, 2, 6, 1, PB_DEAD_END_DRAW}, {PB_RULES_HOCKEY, 2, 6, 2, 0, PB_DEAD_END_DRAW},
    {PB_RULES_HOCKEY, 2, 8, 2, 0, PB_DEAD_END_LOSS},
};
#define NSMALL (int)(sizeof small / sizeof small[0])

static pb_field *field_of(const tcase *c) {
    pb_field_spec sp = {c->rules, c->g, c->w, c->l, c->s, c->dead};
    char err[200];
    pb_field *f = pb_field_new(&sp, err, sizeof err);
    if (!f) fail_msg("field: %s", err);
    return f;
}

static void tmp_path(char *buf, size_t len, const char *name) {
    snprintf(buf, len, "tb_test_%d_%s.pbt", (int)getpid(), name);
}

static pb_tb *build_open(const pb_field *f, const pb_position *root, const char *path, int threads) {
    pb_tb_build_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    pb_tb_build_result res;
    pb_tb_status st = pb_tb_build(f, root, path, &o, &res);
    if (st != PB_TB_OK) fail_msg("build: %s", res.message);
    char err[600];
    pb_tb *tb = pb_tb_open(path, 1, err, sizeof err);
    if (!tb) fail_msg("open: %s", err);
    return tb;
}

/* A field, its start (Top first) and its table, built into a fresh file. */
typedef struct fixture {
    pb_field *f;
    pb_position root;
    char path[128];
    pb_tb *tb;
} fixture;

static void fixture_build(fixture *x, const tcase *c, const char *name, int threads) {
    x->f = field_of(c);
    pb_position_start(x->f, &x->root, PB_TOP);
    tmp_path(x->path, sizeof x->path, name);
    x->tb = build_open(x->f, &x->root, x->path, threads);
}

static void fixture_free(fixture *x) {
    pb_tb_close(x->tb);
    remove(x->path);
    pb_field_free(x->f);
}

/* ---- a reference value and distance: route by route, memoised ---- */

/* (kind, distance) as a value byte; kind order loss < draw < win, a win
 * better when shorter, a loss better when longer. */
static int ref_better(uint8_t a, uint8_t b) {
    int ka = a == 0 ? 1 : (a % 2 ? 2 : 0), kb = b == 0 ? 1 : (b % 2 ? 2 : 0);
    int da = (a + 1) / 2, db = (b + 1) / 2;
    if (ka != kb) return ka > kb;
    return ka == 2 ? da < db : ka == 0 ? da > db : 0;
}

typedef struct ref_map {
    size_t cap, n;
    uint64_t *keys; /* cap * kw */
    uint8_t *used, *val;
    int kw;
} ref_map;

static size_t ref_slot(const ref_map *m, const uint64_t *key) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < m->kw; i++) h = (h ^ key[i]) * 1099511628211ULL, h ^= h >> 29;
    size_t s = h & (m->cap - 1);
    while (m->used[s] && memcmp(m->keys + s * m->kw, key, 8 * (size_t)m->kw)) s = (s + 1) & (m->cap - 1);
    return s;
}

static void ref_map_grow(ref_map *m) {
    ref_map n = {m->cap ? 2 * m->cap : 1024, 0, NULL, NULL, NULL, m->kw};
    n.keys = calloc(n.cap * (size_t)n.kw, 8), n.used = calloc(n.cap, 1), n.val = calloc(n.cap, 1);
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i]) {
            size_t s = ref_slot(&n, m->keys + i * m->kw);
            n.used[s] = 1, n.val[s] = m->val[i];
            memcpy(n.keys + s * n.kw, m->keys + i * m->kw, 8 * (size_t)n.kw);
            n.n++;
        }
    free(m->keys), free(m->used), free(m->val);
    *m = n;
}

typedef struct ref_ctx {
    ref_map *memo;
    int have;
    uint8_t best;
} ref_ctx;

static uint8_t ref_value(const pb_field *f, pb_position *p, ref_map *memo);

static int ref_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    ref_ctx *c = ctx;
    uint8_t v;
    if (r->end != PB_END_NONE) {
        v = r->loser == PB_NOBODY ? 0 : r->loser == r->mover ? 2 : 1;
    } else {
        uint8_t w = ref_value(f, after, c->memo);
        int d = (w + 1) / 2 + 1;
        v = w == 0 ? 0 : (w % 2 ? (uint8_t)(2 * d) : (uint8_t)(2 * d - 1));
    }
    if (!c->have || ref_better(v, c->best)) c->best = v, c->have = 1;
    return 0;
}

static uint8_t ref_value(const pb_field *f, pb_position *p, ref_map *memo) {
    uint64_t key[PB_MAX_WORDS + 1];
    pb_position_pack(f, p, key);
    size_t s = ref_slot(memo, key);
    if (memo->used[s]) return memo->val[s];
    ref_ctx c = {memo, 0, 0};
    pb_routes_foreach(f, p, ref_route, &c);
    if (2 * (memo->n + 1) > memo->cap) ref_map_grow(memo);
    s = ref_slot(memo, key);
    memo->used[s] = 1, memo->val[s] = c.best;
    memcpy(memo->keys + s * memo->kw, key, 8 * (size_t)memo->kw);
    memo->n++;
    return c.best;
}

/* ---- tests ---- */

/* Every entry of every small field: value = minimax, distance = the
 * reference; layer sizes (positions and mirror classes) = enumeration. */
static void test_small_fields_exact(void **state) {
    (void)state;
    for (int c = 0; c < NSMALL; c++) {
        fixture x;
        fixture_build(&x, &small[c], "small", 2);
        pb_field *f = x.f;
        pb_position root = x.root;
        pb_tb *tb = x.tb;

        pb_enum_options eo;
        pb_enum_options_init(&eo);
        pb_enum_result er;
        assert_int_equal(pb_enumerate(f, &root, &eo, &er), PB_ENUM_OK);
        ref_map memo = {0, 0, NULL, NULL, NULL, f->nwords + 1};
        ref_map_grow(&memo);
        for (int d = 0; d < er.nrows; d++) {
            uint64_t pos = er.rows[d].positions, cls = er.rows[d].classes_lr;
            if (d > tb->h.dmax) {
                assert_int_equal(pos, 0);
                continue;
            }
            assert_int_equal(tb->h.layer[d].positions, pos);
            assert_int_equal(tb->h.layer[d].classes, cls);
            pb_tb_layer L;
            char err[600];
            assert_int_equal(pb_tb_load(tb, d, &L, err, sizeof err), 0);
            for (size_t i = 0; i < L.n; i++) {
                pb_position p;
                pb_tb_unpack(f, &tb->k, L.keys + i * tb->k.kw, L.to_move, &p);
                int mm = pb_ref_minimax_value(f, &p, 100000000);
                assert_int_not_equal(mm, PB_UNKNOWN);
                assert_int_equal(pb_tb_value(L.vals[i]), mm);
                assert_int_equal(L.vals[i], ref_value(f, &p, &memo));
            }
            pb_tb_layer_free(&L);
        }
        free(memo.keys), free(memo.used), free(memo.val);
        pb_enum_result_free(&er);
        fixture_free(&x);
    }
}

/* Whole games counted backward over the layers (opts.games) against two
 * forward counts: the naive enumeration (every sequence walked on its own)
 * where the games are few, and pb_enumerate (turn walks with route counts,
 * forward) on book (2;2;4), with 1.3e9 games.  By result: Top wins, Bottom
 * wins, draws. */
static void games_of_build(const tcase *c, uint64_t want[3]) {
    pb_field *f = field_of(c);
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    char path[128];
    tmp_path(path, sizeof path, "games");
    pb_tb_build_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2, o.games = 1;
    /* Three builds: the first keeps its layer files; the second reads
     * every layer's games from them; the third, with the root layer's
     * games file gone, counts that layer again from the next one's. */
    for (int run = 0; run < 3; run++) {
        o.keep = run < 2;
        if (run == 2) {
            char g0[160];
            snprintf(g0, sizeof g0, "%s.g0", path);
            assert_int_equal(remove(g0), 0);
        }
        pb_tb_build_result res;
        if (pb_tb_build(f, &root, path, &o, &res) != PB_TB_OK) fail_msg("build: %s", res.message);
        assert_int_equal(res.games_over, 0);
        for (int i = 0; i < 3; i++) {
            assert_true(res.games[i] >> 64 == 0);
            assert_int_equal((uint64_t)res.games[i], want[i]);
        }
        int layers = res.dmax - res.d0 + 1;
        if (run == 0) assert_int_equal(res.resumed_games, 0);
        if (run == 1) assert_int_equal(res.resumed_games, layers);
        if (run == 2) assert_int_equal(res.resumed_games, layers - 1);
    }
    remove(path);
    pb_field_free(f);
}

static void test_games_count(void **state) {
    (void)state;
    for (int c = 0; c < NSMALL; c++) {
        pb_field *f = field_of(&small[c]);
        pb_position root;
        pb_position_start(f, &root, PB_TOP);
        ref_enum_row rows[64];
        uint64_t all, want[3] = {0, 0, 0};
        int n = ref_enum(f, &root, 60, rows, 64, &all);
        for (int d = 0; d < n; d++) {
            const uint64_t *o = rows[d].outcome;
            want[0] += o[PB_OUT_GOAL_TOP] + o[PB_OUT_OWN_GOAL_BOTTOM] + o[PB_OUT_DEAD_END_BOTTOM];
            want[1] += o[PB_OUT_GOAL_BOTTOM] + o[PB_OUT_OWN_GOAL_TOP] + o[PB_OUT_DEAD_END_TOP];
            want[2] += o[PB_OUT_DEAD_END_DRAW] + o[PB_OUT_KICK_DRAW];
        }
        assert_true(want[0] + want[1] + want[2] > 0);
        pb_field_free(f);
        games_of_build(&small[c], want);
    }
    tcase c = {PB_RULES_BOOK, 2, 2, 4, 0, PB_DEAD_END_DRAW};
    pb_field *f = field_of(&c);
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    pb_enum_options eo;
    pb_enum_options_init(&eo);
    eo.threads = 2;
    pb_enum_result er;
    assert_int_equal(pb_enumerate(f, &root, &eo, &er), PB_ENUM_OK);
    assert_true(er.complete);
    mpz_t w[3];
    for (int i = 0; i < 3; i++) mpz_init(w[i]);
    for (int d = 0; d < er.nrows; d++) {
        mpz_t *o = er.rows[d].outcome;
        mpz_add(w[0], w[0], o[PB_OUT_GOAL_TOP]), mpz_add(w[0], w[0], o[PB_OUT_OWN_GOAL_BOTTOM]);
        mpz_add(w[0], w[0], o[PB_OUT_DEAD_END_BOTTOM]);
        mpz_add(w[1], w[1], o[PB_OUT_GOAL_BOTTOM]), mpz_add(w[1], w[1], o[PB_OUT_OWN_GOAL_TOP]);
        mpz_add(w[1], w[1], o[PB_OUT_DEAD_END_TOP]);
        mpz_add(w[2], w[2], o[PB_OUT_DEAD_END_DRAW]), mpz_add(w[2], w[2], o[PB_OUT_KICK_DRAW]);
    }
    uint64_t want[3];
    for (int i = 0; i < 3; i++) want[i] = mpz_get_ui(w[i]), mpz_clear(w[i]);
    assert_int_equal(want[0] + want[1] + want[2], mpz_get_ui(er.games));
    pb_enum_result_free(&er);
    pb_field_free(f);
    games_of_build(&c, want);
}

/* A larger field: the layer sizes against the enumeration, and a random
 * sample of entries against the solver and the reference. */
static void test_larger_field_sample(void **state) {
    (void)state;
    tcase c = {PB_RULES_BOOK, 2, 2, 4, 0, PB_DEAD_END_DRAW};
    fixture x;
    fixture_build(&x, &c, "larger", 2);
    pb_field *f = x.f;
    pb_tb *tb = x.tb;
    char err[600];
    pb_enum_options eo;
    pb_enum_options_init(&eo);
    pb_enum_result er;
    assert_int_equal(pb_enumerate(f, &x.root, &eo, &er), PB_ENUM_OK);
    for (int d = 0; d <= tb->h.dmax; d++) assert_int_equal(tb->h.layer[d].positions, er.rows[d].positions);
    pb_enum_result_free(&er);
    ref_map memo = {0, 0, NULL, NULL, NULL, f->nwords + 1};
    ref_map_grow(&memo);
    uint64_t rng = 12345;
    int checked = 0;
    for (int d = tb->h.d0; d <= tb->h.dmax; d++) {
        pb_tb_layer L;
        assert_int_equal(pb_tb_load(tb, d, &L, err, sizeof err), 0);
        for (int k = 0; k < 40 && L.n; k++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            size_t i = rng % L.n;
            pb_position p;
            pb_tb_unpack(f, &tb->k, L.keys + i * tb->k.kw, L.to_move, &p);
            pb_solve_opts so;
            memset(&so, 0, sizeof so);
            so.no_pv = 1;
            pb_solve_result sr;
            assert_int_equal(pb_solve(f, &p, &so, &sr), 0);
            assert_int_equal(pb_tb_value(L.vals[i]), sr.value);
            pb_solve_result_free(&sr);
            if (d >= 3) assert_int_equal(L.vals[i], ref_value(f, &p, &memo));
            checked++;
        }
        pb_tb_layer_free(&L);
    }
    assert_true(checked > 100);
    free(memo.keys), free(memo.used), free(memo.val);
    fixture_free(&x);
}

static unsigned char *slurp(const char *path, long *n) {
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    *n = ftell(fp);
    rewind(fp);
    unsigned char *b = malloc((size_t)*n + 1);
    assert_int_equal(fread(b, 1, (size_t)*n, fp), (size_t)*n);
    fclose(fp);
    return b;
}

static void spit(const char *path, const unsigned char *b, long n) {
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
}

/* One thread or two, a build stopped by its memory budget then rerun, and
 * a build resumed from its kept layer files: the same bytes. */
static void test_deterministic_and_resumable(void **state) {
    (void)state;
    tcase c = {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW};
    pb_field *f = field_of(&c);
    pb_position root;
    pb_position_start(f, &root, PB_TOP);
    char p1[128], p2[128], p3[128], lp[160];
    tmp_path(p1, sizeof p1, "t1"), tmp_path(p2, sizeof p2, "t2"), tmp_path(p3, sizeof p3, "t3");
    pb_tb_close(build_open(f, &root, p1, 1));
    pb_tb_close(build_open(f, &root, p2, 2));
    pb_tb_build_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    o.memory = 2000; /* bytes: too few for the buffers of layer 1 */
    pb_tb_build_result res;
    assert_int_equal(pb_tb_build(f, &root, p3, &o, &res), PB_TB_MEMORY);
    o.memory = 0;
    o.keep = 1;
    assert_int_equal(pb_tb_build(f, &root, p3, &o, &res), PB_TB_OK);
    long n1, n2, n3;
    unsigned char *b1 = slurp(p1, &n1), *b2 = slurp(p2, &n2), *b3 = slurp(p3, &n3);
    assert_int_equal(n1, n2);
    assert_int_equal(n1, n3);
    assert_memory_equal(b1, b2, (size_t)n1);
    assert_memory_equal(b1, b3, (size_t)n1);
    free(b3);
    /* Rerun after losing the file and the values of the root's layer:
     * the keys of every layer and the deeper values are taken as found. */
    remove(p3);
    snprintf(lp, sizeof lp, "%s.v0", p3);
    assert_int_equal(remove(lp), 0);
    o.keep = 0;
    assert_int_equal(pb_tb_build(f, &root, p3, &o, &res), PB_TB_OK);
    assert_int_equal(res.resumed_forward, res.dmax - res.d0 + 1);
    assert_int_equal(res.resumed_backward, res.dmax - res.d0);
    b3 = slurp(p3, &n3);
    assert_int_equal(n1, n3);
    assert_memory_equal(b1, b3, (size_t)n1);
    snprintf(lp, sizeof lp, "%s.k1", p3);
    assert_null(fopen(lp, "rb")); /* removed after the build */
    free(b1), free(b2), free(b3);
    remove(p1), remove(p2), remove(p3);
    pb_field_free(f);
}

/* Rewrites a table with entry i of layer d set to v (a well-formed file
 * with fresh checksums: only the verifier's own checks can catch it). */
static void rewrite_with(const pb_tb *tb, const char *path, int d, size_t i, uint8_t v) {
    pb_container_meta m;
    pb_container_meta_init(&m, PB_TB_KIND, tb->f);
    snprintf(m.options, sizeof m.options, "%s", tb->options);
    char err[600];
    pb_cwriter *w = pb_container_create(path, &m, err, sizeof err);
    assert_non_null(w);
    size_t hl;
    unsigned char *hb = pb_tb_header_bytes(&tb->h, &tb->k, &hl);
    pb_container_put(w, PB_TB_TAG_HEADER, hb, hl, 0);
    free(hb);
    for (int e = tb->h.d0; e <= tb->h.dmax; e++) {
        pb_tb_layer L;
        assert_int_equal(pb_tb_load(tb, e, &L, err, sizeof err), 0);
        if (e == d) L.vals[i] = v;
        pb_tb_put_layer(w, &tb->k, PB_TB_TAG_ENTRIES | (uint32_t)e << 8, L.keys, L.vals, L.n);
        pb_tb_layer_free(&L);
    }
    assert_int_equal(pb_container_commit(w, err, sizeof err), 0);
}

static void test_verify_catches_one_change(void **state) {
    (void)state;
    tcase c = {PB_RULES_HOCKEY, 2, 2, 4, 0, PB_DEAD_END_DRAW};
    fixture x;
    fixture_build(&x, &c, "good", 2);
    pb_tb *tb = x.tb;
    char bad[128], err[600];
    tmp_path(bad, sizeof bad, "bad");
    pb_tb_verify_result vr;
    assert_int_equal(pb_tb_verify(tb, 2, &vr, err, sizeof err), 0);
    assert_int_equal(vr.errors, 0);
    uint64_t classes = 0;
    for (int d = tb->h.d0; d <= tb->h.dmax; d++) classes += tb->h.layer[d - tb->h.d0].classes;
    assert_int_equal(vr.checked, classes);
    /* In every layer, one entry: a win or loss one turn longer, then the
     * other kind at the same distance, then a draw turned into a win. */
    for (int d = tb->h.d0; d <= tb->h.dmax; d++) {
        pb_tb_layer L;
        assert_int_equal(pb_tb_load(tb, d, &L, err, sizeof err), 0);
        size_t i = L.n / 2;
        uint8_t v = L.vals[i];
        uint8_t changes[2];
        changes[0] = v == 0 ? pb_tb_win(1) : (uint8_t)(v + 2); /* distance + 1, same kind */
        changes[1] = v == 0 ? pb_tb_loss(1) : (v & 1) ? (uint8_t)(v + 1) : (uint8_t)(v - 1); /* kind flipped */
        for (int k = 0; k < 2; k++) {
            rewrite_with(tb, bad, d, i, changes[k]);
            pb_tb *tbad = pb_tb_open(bad, 1, err, sizeof err);
            assert_non_null(tbad);
            assert_int_equal(pb_tb_verify(tbad, 2, &vr, err, sizeof err), 1);
            assert_true(vr.errors >= 1);
            pb_tb_close(tbad);
        }
        pb_tb_layer_free(&L);
    }
    /* Unchanged, the rewrite verifies: the check above is not the rewrite's doing. */
    pb_tb_layer L;
    assert_int_equal(pb_tb_load(tb, tb->h.d0, &L, err, sizeof err), 0);
    rewrite_with(tb, bad, tb->h.d0, 0, L.vals[0]);
    pb_tb_layer_free(&L);
    pb_tb *tsame = pb_tb_open(bad, 1, err, sizeof err);
    assert_int_equal(pb_tb_verify(tsame, 2, &vr, err, sizeof err), 0);
    pb_tb_close(tsame);
    remove(bad);
    fixture_free(&x);
}

/* Damaged and mismatched files are refused at open with one line. */
static void test_container_refuses(void **state) {
    (void)state;
    tcase c = {PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW};
    fixture x;
    fixture_build(&x, &c, "ok", 1);
    const pb_field *f = x.f;
    const char *path = x.path;
    char bad[128], err[600];
    tmp_path(bad, sizeof bad, "damaged");
    long n;
    unsigned char *b = slurp(path, &n);
    /* A flipped bit anywhere: header, a block, the trailer. */
    long where[] = {3, 20, n / 2, n - 30, n - 1};
    for (int k = 0; k < 5; k++) {
        b[where[k]] ^= 0x10;
        spit(bad, b, n);
        b[where[k]] ^= 0x10;
        err[0] = 0;
        assert_null(pb_tb_open(bad, 1, err, sizeof err));
        assert_true(strlen(err) > 0 && !strchr(err, '\n'));
    }
    /* Cut short. */
    spit(bad, b, n - 10);
    assert_null(pb_tb_open(bad, 1, err, sizeof err));
    /* Another kind, another field. */
    pb_creader *r = pb_container_open(path, "TBLK", NULL, 1, err, sizeof err);
    assert_null(r);
    pb_field_spec other = f->spec;
    other.width = 6;
    r = pb_container_open(path, PB_TB_KIND, &other, 1, err, sizeof err);
    assert_null(r);
    assert_non_null(strstr(err, "another rule set or field"));
    r = pb_container_open(path, PB_TB_KIND, &f->spec, 1, err, sizeof err);
    assert_non_null(r);
    pb_container_close(r);
    free(b);
    remove(bad);
    fixture_free(&x);
}

/* The probe's turn list and the line of perfect play agree with the
 * table: the best turn's value is the position's, and the line ends the
 * game after exactly `distance` turns with the right winner. */
/* The key sort against a plain one written here: keys of 1, 2 and 3 words
 * with many repeats, sorted runs and equal keys, each sorted, repeats
 * removed, and compared with insertion-sorted distinct keys. */
static int ref_less(const uint64_t *a, const uint64_t *b, int kw) {
    for (int i = 0; i < kw; i++)
        if (a[i] != b[i]) return a[i] < b[i];
    return 0;
}

static void test_key_sort(void **state) {
    (void)state;
    srand(99);
    for (int kw = 1; kw <= 3; kw++)
        for (int shape = 0; shape < 4; shape++) {
            size_t n = 3000;
            uint64_t *v = malloc(sizeof(uint64_t) * n * (size_t)kw), *ref = malloc(sizeof(uint64_t) * n * (size_t)kw);
            for (size_t i = 0; i < n; i++)
                for (int w = 0; w < kw; w++) {
                    uint64_t x = shape == 0   ? (uint64_t)(rand() % 50) << 60 | (uint64_t)rand()
                                 : shape == 1 ? (uint64_t)(rand() % 7)
                                 : shape == 2 ? (uint64_t)i << 40
                                              : (uint64_t)(n - i) * 0x9e3779b97f4a7c15ULL;
                    v[i * (size_t)kw + (size_t)w] = x;
                }
            /* The reference: distinct keys kept sorted by insertion. */
            size_t m = 0;
            for (size_t i = 0; i < n; i++) {
                const uint64_t *k = v + i * (size_t)kw;
                size_t at = 0;
                while (at < m && ref_less(ref + at * (size_t)kw, k, kw)) at++;
                if (at < m && !ref_less(k, ref + at * (size_t)kw, kw)) continue;
                memmove(ref + (at + 1) * (size_t)kw, ref + at * (size_t)kw, sizeof(uint64_t) * (m - at) * (size_t)kw);
                memcpy(ref + at * (size_t)kw, k, sizeof(uint64_t) * (size_t)kw);
                m++;
            }
            size_t got = pb_tb_sort_unique(v, n, kw);
            assert_int_equal(got, m);
            assert_memory_equal(v, ref, sizeof(uint64_t) * m * (size_t)kw);
            free(v), free(ref);
        }
}

/* The key set against the plain sort: keys of 1 to 3 words with many
 * repeats and near-equal keys go in one by one from an empty set (which
 * grows from its smallest size many times, its queue flushed at each
 * count asked), and come out as the distinct keys in order. */
static void test_keyset(void **state) {
    (void)state;
    uint64_t rng = 4242;
    for (int kw = 1; kw <= 3; kw++) {
        size_t n = 20000;
        uint64_t *v = malloc(sizeof(uint64_t) * n * (size_t)kw);
        pb_tb_keyset s;
        pb_tb_keyset_init(&s, kw);
        for (size_t i = 0; i < n; i++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            for (int w = 0; w < kw; w++) /* a ball-like first word; few values: many repeats */
                v[i * (size_t)kw + (size_t)w] = w == 0 ? (rng % 37) << 48 | (rng >> 40) % 5 : (rng >> (8 * w)) % 11;
            assert_int_equal(pb_tb_keyset_put(&s, v + i * (size_t)kw), 0);
            assert_true(2 * s.n <= s.nslots);
            if (i % 997 == 0) {
                pb_tb_keyset_flush(&s);
                /* Distinct so far, by the plain sort of a copy. */
                uint64_t *c = malloc(sizeof(uint64_t) * (i + 1) * (size_t)kw);
                memcpy(c, v, sizeof(uint64_t) * (i + 1) * (size_t)kw);
                assert_int_equal(s.n, pb_tb_sort_unique(c, i + 1, kw));
                free(c);
            }
        }
        size_t got;
        uint64_t *keys = pb_tb_keyset_take_sorted(&s, &got);
        size_t m = pb_tb_sort_unique(v, n, kw);
        assert_true(m > 100 && m < n);
        assert_int_equal(got, m);
        assert_memory_equal(keys, v, sizeof(uint64_t) * m * (size_t)kw);
        assert_int_equal(s.n, 0);
        free(keys), free(v);
    }
}

/* Keys against a byte-by-byte packing written here (docs/tablebase.md's
 * table: ball in bytes 0-1, segment s in byte 2 + s/8, bit 7 - s%8), and
 * classes against the smaller of the keys of a position and its mirror
 * image (pb_position_mirror), on random segment sets of fields whose keys
 * take one word to several, with the ball on every node (middle column
 * included). */
static void ref_pack(const pb_field *f, const pb_position *p, int kw, uint64_t *key) {
    memset(key, 0, sizeof(uint64_t) * (size_t)kw);
    unsigned char bytes[8 * PB_TB_MAX_KW];
    memset(bytes, 0, sizeof bytes);
    bytes[0] = (unsigned char)(p->ball >> 8), bytes[1] = (unsigned char)(p->ball & 0xff);
    for (int s = 0; s < f->nsegments; s++)
        if (p->seg[s >> 6] >> (s & 63) & 1) bytes[2 + s / 8] |= (unsigned char)(0x80u >> (s % 8));
    for (int b = 0; b < 8 * kw; b++) key[b / 8] = key[b / 8] << 8 | bytes[b];
}

static void test_keys_and_classes(void **state) {
    (void)state;
    const tcase fields[] = {{PB_RULES_BOOK, 2, 2, 2, 0, PB_DEAD_END_DRAW},
                            {PB_RULES_BOOK, 2, 4, 4, 0, PB_DEAD_END_DRAW},
                            {PB_RULES_HOCKEY, 2, 6, 8, 1, PB_DEAD_END_DRAW},
                            {PB_RULES_BOOK, 4, 8, 10, 0, PB_DEAD_END_DRAW}};
    uint64_t rng = 777;
    int self = 0;
    for (int fi = 0; fi < 4; fi++) {
        pb_field *f = field_of(&fields[fi]);
        pb_tb_keyfmt k;
        pb_tb_keyfmt_init(&k, f);
        for (int ball = 0; ball < f->nlattice; ball++) {
            if (!pb_is_node(f, ball)) continue;
            for (int t = 0; t < 30; t++) {
                pb_position p, m;
                memset(&p, 0, sizeof p);
                for (int s = 0; s < f->nsegments; s++) {
                    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                    /* Sparse, dense and empty segment sets; some symmetric. */
                    if (t % 3 && rng % (unsigned)(t % 3 == 1 ? 9 : 2) == 0) p.seg[s >> 6] |= 1ULL << (s & 63);
                }
                if (t % 10 == 9) {
                    pb_position_mirror(f, &p, &m, 1, 0);
                    for (int w = 0; w < f->nwords; w++) p.seg[w] |= m.seg[w];
                }
                p.ball = (int16_t)ball;
                pb_position_refresh(f, &p);
                pb_position_mirror(f, &p, &m, 1, 0);
                uint64_t want[PB_TB_MAX_KW], wm[PB_TB_MAX_KW], got[PB_TB_MAX_KW];
                ref_pack(f, &p, k.kw, want);
                pb_tb_pack(f, &k, &p, got);
                assert_memory_equal(got, want, sizeof(uint64_t) * (size_t)k.kw);
                ref_pack(f, &m, k.kw, wm);
                int c = pb_tb_cmp(wm, want, k.kw);
                if (c < 0) memcpy(want, wm, sizeof want);
                assert_int_equal(pb_tb_canon(f, &k, &p, got), c == 0 ? 1 : 2);
                assert_memory_equal(got, want, sizeof(uint64_t) * (size_t)k.kw);
                assert_int_equal(pb_tb_canon_segs(f, &k, m.seg, m.ball, got), c == 0 ? 1 : 2);
                assert_memory_equal(got, want, sizeof(uint64_t) * (size_t)k.kw);
                /* From a base: a random part of p's segments (the usual
                 * case), and the same with one segment p lacks. */
                uint64_t base[PB_MAX_WORDS], bm[PB_MAX_WORDS];
                for (int w = 0; w < f->nwords; w++) {
                    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                    base[w] = p.seg[w] & rng;
                }
                for (int round = 0; round < 2; round++) {
                    pb_tb_mirror_segs(f, base, bm);
                    assert_int_equal(pb_tb_canon_near(f, &k, p.seg, p.ball, base, bm, got), c == 0 ? 1 : 2);
                    assert_memory_equal(got, want, sizeof(uint64_t) * (size_t)k.kw);
                    for (int s = 0; s < f->nsegments; s++)
                        if (!(p.seg[s >> 6] >> (s & 63) & 1)) {
                            base[s >> 6] |= 1ULL << (s & 63);
                            break;
                        }
                }
                self += c == 0;
            }
        }
        pb_field_free(f);
    }
    assert_true(self > 20);
}

static void test_line_and_turns(void **state) {
    (void)state;
    tcase c = {PB_RULES_BOOK, 2, 2, 4, 0, PB_DEAD_END_DRAW};
    fixture x;
    fixture_build(&x, &c, "line", 1);
    pb_tb *tb = x.tb;
    char err[600];
    pb_tb_layer L0, L1;
    assert_int_equal(pb_tb_load(tb, 0, &L0, err, sizeof err), 0);
    assert_int_equal(pb_tb_load(tb, 1, &L1, err, sizeof err), 0);
    pb_tb_turn *t;
    long n = pb_tb_turns(tb, &L1, &x.root, &t);
    assert_true(n > 0);
    uint8_t v = L0.vals[0];
    assert_int_equal(t[0].value, v);
    for (long i = 1; i < n; i++) assert_true(pb_tb_rank(t[i].value) <= pb_tb_rank(t[i - 1].value));
    pb_tb_turns_free(t, n);
    pb_game g;
    pb_game_init(&g, x.f, PB_TOP);
    assert_int_equal(pb_tb_play_line(tb, &g, err, sizeof err), 0);
    assert_int_equal(g.nturns, pb_tb_distance(v));
    if (pb_tb_value(v) == 1) assert_int_equal(g.loser, PB_BOTTOM);
    if (pb_tb_value(v) == -1) assert_int_equal(g.loser, PB_TOP);
    pb_game_free(&g);
    pb_tb_layer_free(&L0), pb_tb_layer_free(&L1);
    fixture_free(&x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_fields_exact),
        cmocka_unit_test(test_larger_field_sample),
        cmocka_unit_test(test_games_count),
        cmocka_unit_test(test_deterministic_and_resumable),
        cmocka_unit_test(test_verify_catches_one_change),
        cmocka_unit_test(test_container_refuses),
        cmocka_unit_test(test_line_and_turns),
        cmocka_unit_test(test_key_sort),
        cmocka_unit_test(test_keys_and_classes),
        cmocka_unit_test(test_keyset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
