/* build.c - building a tablebase (tablebase.h): the layers found forward and
 * kept on disk, then solved backward with two layers in memory, then
 * written into one file.
 *
 * Forward: layer d0 = { the root's class }; layer d+1 = the classes of the
 * positions after the turns from layer d that do not end the game (each
 * turn walked step by step with pb_turn_outcomes, which merges equal
 * mid-turn positions instead of listing routes, and leaves out the turns
 * that end the game).  Each thread collects the successors' classes, made
 * from the walk's keys, in its own hash set (pb_tb_keyset); the sets are
 * taken sorted and merged into the sorted layer.
 *
 * Backward: a position's value is the best, for its mover, of its turns'
 * values: a turn that ends the game is worth its end (pb_tb_end), any other
 * the successor's value seen from the mover (pb_tb_after), the successor
 * being looked up in layer d+1 by binary search; the turns that end the
 * game are weighed by their kinds of end (pb_turnwalk_ends), which is all
 * their value depends on.  This is exact by
 * induction from the deepest layer (whose turns all end the game): every
 * successor is in layer d+1 (the layering argument in tablebase.h; the
 * forward pass checks it for every successor), and a position's value
 * depends on nothing but its turns.  Threads split a layer's positions;
 * each value is a function of the position and layer d+1 alone, so the
 * result does not depend on the thread count.
 *
 * Files: "<out>.k<d>" (kind TBLK: layer d's keys) and "<out>.v<d>" (TBLV:
 * its values and counts), each written whole through the container
 * (temporary file, rename).  A rerun with the same root finds them and
 * goes on after the last one written; a memory stop is thus resumable.
 */
#include <omp.h>
#include <sys/resource.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "tablebase.h"
#include "turn.h"
#include "turnwalk.h"

#define KIND_KEYS "TBLK"
#define KIND_VALS "TBLV"
#define TAG_COUNTS 3u
#define KIND_GAMES "TBLG"

typedef struct builder {
    const pb_field *f;
    pb_tb_keyfmt k;
    const char *out;
    const pb_tb_build_opts *o;
    pb_tb_build_result *res;
    char ident[200];        /* the root, written into every layer file */
    atomic_llong mem, peak; /* bytes held by layers and buffers */
    atomic_int over;        /* the budget refused an allocation */
    int threads;
    double t0;
    /* Within a layer pass: positions done, the time limit passed (the
     * rest of the layer is skipped and the pass dropped), the next
     * progress line. */
    atomic_size_t done;
    atomic_int late;
    double next_tick;
} builder;

static void layer_path(const builder *b, char kind, int d, char *buf, size_t len) {
    snprintf(buf, len, "%s.%c%d", b->out, kind, d);
}

/* Charges n bytes (negative: releases).  Returns -1 if the budget refuses. */
static int charge(builder *b, long long n) {
    long long now = atomic_fetch_add(&b->mem, n) + n;
    if (n > 0 && b->o->memory && now > b->o->memory) {
        atomic_fetch_sub(&b->mem, n);
        atomic_store(&b->over, 1);
        return -1;
    }
    long long p = atomic_load(&b->peak);
    while (now > p && !atomic_compare_exchange_weak(&b->peak, &p, now)) {}
    return 0;
}

static long long layer_bytes(const builder *b, size_t n, int vals) {
    return (long long)n * (8LL * b->k.kw + (vals ? 1 : 0));
}

static void release(builder *b, pb_tb_layer *L) {
    charge(b, -layer_bytes(b, L->n, L->vals != NULL));
    pb_tb_layer_free(L);
}

/* ---- layer files ---- */

/* The kept files of a build: layer d's keys ('k'), values ('v') or game
 * counts ('g'), each a container whose options tie it to this build. */
static const char *container_kind(char kind) { return kind == 'k' ? KIND_KEYS : kind == 'v' ? KIND_VALS : KIND_GAMES; }

static pb_cwriter *create_layer_file(builder *b, char kind, int d) {
    char path[600];
    layer_path(b, kind, d, path, sizeof path);
    pb_container_meta m;
    pb_container_meta_init(&m, container_kind(kind), b->f);
    snprintf(m.options, sizeof m.options, "%s layer=%d", b->ident, d);
    return pb_container_create(path, &m, b->res->message, sizeof b->res->message);
}

/* The reader of layer file kind/d, or NULL: err empty when there is none,
 * else why it cannot be used. */
static pb_creader *open_layer_file(builder *b, char kind, int d, char *err, size_t errlen) {
    char path[300], want[300];
    layer_path(b, kind, d, path, sizeof path);
    err[0] = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fclose(fp);
    pb_creader *r = pb_container_open(path, container_kind(kind), &b->f->spec, 1, err, errlen);
    snprintf(want, sizeof want, "%s layer=%d", b->ident, d);
    if (r && strcmp(pb_container_meta_of(r)->options, want)) {
        snprintf(err, errlen, "%s belongs to another build (another root); remove it", path);
        pb_container_close(r);
        r = NULL;
    }
    return r;
}

static int write_layer_file(builder *b, char kind, int d, const pb_tb_layer *L, const pb_tb_layer_counts *c) {
    pb_cwriter *w = create_layer_file(b, kind, d);
    if (!w) return -1;
    if (kind == 'k') {
        pb_tb_put_layer(w, &b->k, PB_TB_TAG_ENTRIES, L->keys, NULL, L->n);
    } else {
        pb_container_put(w, PB_TB_TAG_ENTRIES, L->vals, L->n, 3);
        pb_container_put(w, TAG_COUNTS, c, sizeof *c, 0);
    }
    return pb_container_commit(w, b->res->message, sizeof b->res->message);
}

/* Reads layer file kind/d into L (keys) or L->vals and *c (values).
 * 1 read, 0 missing, -1 unusable (message set). */
static int read_layer_file(builder *b, char kind, int d, pb_tb_layer *L, pb_tb_layer_counts *c) {
    char path[300], err[400];
    layer_path(b, kind, d, path, sizeof path);
    pb_creader *r = open_layer_file(b, kind, d, err, sizeof err);
    if (!r && !err[0]) return 0;
    int rc = r ? 1 : -1;
    uint32_t tag;
    size_t len;
    if (r && kind == 'k') {
        L->depth = d;
        while (rc == 1 && pb_container_next(r, &tag, &len, err, sizeof err) == 1)
            if (pb_tb_get_block(r, &b->k, len, L, 0, err, sizeof err)) rc = -1;
    } else if (r) {
        if (pb_container_next(r, &tag, &len, err, sizeof err) != 1 || len != L->n) rc = -1;
        if (rc == 1) {
            L->vals = malloc(len + 1);
            if (pb_container_read(r, L->vals, err, sizeof err)) rc = -1;
        }
        if (rc == 1 && (pb_container_next(r, &tag, &len, err, sizeof err) != 1 || len != sizeof *c ||
                        pb_container_read(r, c, err, sizeof err)))
            rc = -1;
        if (rc < 0 && !err[0]) snprintf(err, sizeof err, "%s does not match its keys file", path);
    }
    pb_container_close(r);
    if (rc < 0) snprintf(b->res->message, sizeof b->res->message, "%s", err);
    return rc;
}

/* ---- within a layer ---- */

static double cpu_now(void);

/* Why the build must stop now: "a signal" (o->stop), "the time limit", or
 * NULL to go on.  The one test of both, between layers and within passes. */
static const char *stop_reason(const builder *b) {
    const pb_tb_build_opts *o = b->o;
    if (o->stop && *o->stop) return "a signal";
    if (o->time_limit > 0 && omp_get_wtime() - b->t0 >= o->time_limit) return "the time limit";
    return NULL;
}

/* Before a layer pass. */
static void pass_start(builder *b) {
    atomic_store(&b->done, 0);
    b->next_tick = omp_get_wtime() + 30.0;
}

/* Called by the threads of a layer pass after each position (`what`: the
 * pass, e.g. "finding layer 8 from layer 7"): every 1024 positions it
 * looks at the time limit, which stops the pass at once (exit "late"),
 * and writes a progress line about every 30 s. */
static void pass_tick(builder *b, const char *what, size_t n) {
    size_t k = atomic_fetch_add(&b->done, 1) + 1;
    if (k & 1023) return;
    if (stop_reason(b)) atomic_store(&b->late, 1);
    double now = omp_get_wtime();
    if (!b->o->progress) return;
#pragma omp critical(pb_tb_tick)
    if (now >= b->next_tick) {
        b->next_tick = now + 30.0;
        fprintf(b->o->progress, "tb: %s: %zu of %zu positions (%.1f%%), %.1f s, %.1f s of CPU, %.1f MiB\n", what, k, n,
                100.0 * (double)k / (double)(n ? n : 1), now - b->t0, cpu_now(),
                (double)atomic_load(&b->mem) / 1048576.0);
        fflush(b->o->progress);
    }
}

/* The message of a pass cut short by the time limit or a signal. */
static void late_message(builder *b, const char *what, size_t n) {
    const char *why = stop_reason(b);
    snprintf(b->res->message, sizeof b->res->message,
             "stopped by %s while %s after %zu of %zu positions (%.1f s); that pass is dropped, the "
             "layer files before it are kept: rerun to go on",
             why ? why : "the time limit", what, (size_t)atomic_load(&b->done), n, omp_get_wtime() - b->t0);
}

/* ---- forward ---- */

typedef struct kbuf {
    uint64_t *keys;
    size_t n, cap; /* keys held, room */
} kbuf;

typedef struct fwd_ctx {
    builder *b;
    pb_tb_keyset *set;
    const pb_position *parent;                                  /* the position whose turns are walked */
    uint64_t empty_one[PB_MAX_WORDS], empty_both[PB_MAX_WORDS]; /* empty_ends(parent) */
    uint64_t mirror[PB_MAX_WORDS];                              /* the parent's segments mirrored */
    int failed, bad_layer;
} fwd_ctx;

/* Room for one more successor class in c->set, the growth charged. */
static int fwd_room(fwd_ctx *c) {
    pb_tb_keyset *s = c->set;
    if (!pb_tb_keyset_full(s)) return 0;
    long long old = (long long)(s->nslots * (size_t)s->kw * 8);
    if (charge(c->b, (long long)pb_tb_keyset_grown_bytes(s))) return -1;
    if (pb_tb_keyset_grow(s)) {
        atomic_store(&c->b->over, 1);
        return -1;
    }
    charge(c->b, -old);
    return 0;
}

/* The parent's segments with an empty end (either end / both ends): a
 * node is empty when neither marked at the start nor touched. */
static void empty_ends(const pb_field *f, const pb_position *parent, uint64_t *one, uint64_t *both) {
    memset(one, 0, sizeof(uint64_t) * (size_t)f->nwords);
    memset(both, 0, sizeof(uint64_t) * (size_t)f->nwords);
    for (int s = 0; s < f->nsegments; s++) {
        int ea = !pb_occupied(f, parent, f->segs[s].a), eb = !pb_occupied(f, parent, f->segs[s].b);
        if (ea || eb) one[s >> 6] |= 1ULL << (s & 63);
        if (ea && eb) both[s >> 6] |= 1ULL << (s & 63);
    }
}

/* Does the turn from c->parent to the position with segment words seg and
 * the ball at `ball` make exactly one node occupied, i.e. lead one layer
 * deeper?  The parent's layer is d (the root's is computed, each later
 * layer checked so), and a node becomes occupied only as an end of a newly
 * drawn segment: so the successor is in layer d + 1 exactly when the new
 * segments' ends that were empty are one node.  That holds when the ball's
 * node was empty, no new segment has two empty ends, and the new segments
 * with an empty end exist and all touch the ball's node (their one empty
 * end is then it); and conversely.  What pb_tb_layer_of would find, from
 * the few new segments instead of every node. */
static int fills_one_node(const pb_field *f, const fwd_ctx *c, const uint64_t *seg, int ball) {
    if (pb_occupied(f, c->parent, ball)) return 0;
    int touched = 0;
    for (int w = 0; w < f->nwords; w++) {
        const uint64_t fresh = seg[w] & ~c->parent->seg[w];
        if (fresh & c->empty_both[w]) return 0;
        for (uint64_t e = fresh & c->empty_one[w]; e; e &= e - 1, touched = 1) {
            const pb_segment *sg = &f->segs[w * 64 + __builtin_ctzll(e)];
            if (sg->a != ball && sg->b != ball) return 0;
        }
    }
    return touched;
}

static int fwd_one(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    fwd_ctx *c = ctx;
    if (o->end != PB_END_NONE) return 0;
    const int ball = (int)(o->key[f->nwords] & 0xffff);
    if (!fills_one_node(f, c, o->key, ball)) {
        c->bad_layer = 1;
        return 1;
    }
    uint64_t key[PB_TB_MAX_KW];
    pb_tb_canon_near(f, &c->b->k, o->key, ball, c->parent->seg, c->mirror, key);
    if (fwd_room(c)) {
        c->failed = 1;
        return 1;
    }
    pb_tb_keyset_add(c->set, key);
    return 0;
}

/* Merges the sorted, repeat-free buffers into one sorted layer. */
static int merge_buffers(builder *b, kbuf *bufs, int nb, pb_tb_layer *next) {
    int kw = b->k.kw;
    size_t total = 0;
    for (int t = 0; t < nb; t++) total += bufs[t].n;
    if (charge(b, layer_bytes(b, total, 0))) return -1;
    next->keys = malloc(total * (size_t)kw * 8 + 8);
    if (!next->keys) {
        charge(b, -layer_bytes(b, total, 0));
        return -1;
    }
    size_t pos[nb], n = 0;
    memset(pos, 0, sizeof pos);
    for (;;) {
        int best = -1;
        for (int t = 0; t < nb; t++)
            if (pos[t] < bufs[t].n &&
                (best < 0 || pb_tb_cmp(bufs[t].keys + pos[t] * kw, bufs[best].keys + pos[best] * kw, kw) < 0))
                best = t;
        if (best < 0) break;
        const uint64_t *key = bufs[best].keys + pos[best]++ * kw;
        if (n && pb_tb_cmp(next->keys + (n - 1) * kw, key, kw) == 0) continue;
        memcpy(next->keys + n * kw, key, (size_t)kw * 8);
        n++;
    }
    charge(b, layer_bytes(b, n, 0) - layer_bytes(b, total, 0));
    next->n = n;
    return 0;
}

/* Walks the turns of cur's positions (threads split them), each thread
 * gathering the successor classes in its own set, then sorted into bufs[t]. */
static void expand_layer(builder *b, const pb_tb_layer *cur, kbuf *bufs, atomic_int *failed, atomic_int *bad_layer) {
    const int kw = b->k.kw;
    char what[64];
    snprintf(what, sizeof what, "finding layer %d from layer %d", cur->depth + 1, cur->depth);
    pass_start(b);
#pragma omp parallel num_threads(b->threads)
    {
        int t = omp_get_thread_num();
        pb_turnwalk *tw = pb_turnwalk_new(b->f);
        pb_turnwalk_set_keys_only(tw, 1);
        pb_turnwalk_set_ends(tw, 0);
        pb_tb_keyset set;
        pb_tb_keyset_init(&set, kw);
        pb_position p;
        fwd_ctx c;
        memset(&c, 0, sizeof c);
        c.b = b, c.set = &set, c.parent = &p;
#pragma omp for schedule(dynamic, 64)
        for (size_t i = 0; i < cur->n; i++) {
            /* With no empty node left every turn ends the game: nothing
             * to walk for (the deepest possible layer). */
            if (atomic_load(failed) || atomic_load(&b->late) || cur->depth >= b->f->nempty) continue;
            pb_tb_unpack(b->f, &b->k, cur->keys + i * (size_t)kw, cur->to_move, &p);
            empty_ends(b->f, &p, c.empty_one, c.empty_both);
            pb_tb_mirror_segs(b->f, p.seg, c.mirror);
            long r = pb_turn_outcomes(tw, &p, fwd_one, &c);
            if (r < 0 || c.failed) atomic_store(failed, 1);
            if (c.bad_layer) atomic_store(bad_layer, 1);
            pass_tick(b, what, cur->n);
        }
        long long slots = (long long)(set.nslots * (size_t)kw * 8);
        bufs[t].keys = pb_tb_keyset_take_sorted(&set, &bufs[t].n);
        bufs[t].cap = bufs[t].n;
        charge(b, (long long)bufs[t].n * 8 * kw - slots);
        pb_turnwalk_free(tw);
    }
}

static pb_tb_status forward_step(builder *b, const pb_tb_layer *cur, pb_tb_layer *next) {
    int nt = b->threads;
    kbuf *bufs = calloc((size_t)nt, sizeof *bufs);
    atomic_int failed = 0, bad_layer = 0;
    int to_move = cur->to_move;
    expand_layer(b, cur, bufs, &failed, &bad_layer);
    pb_tb_status st = PB_TB_OK;
    memset(next, 0, sizeof *next);
    next->depth = cur->depth + 1;
    next->to_move = to_move ^ 1;
    if (bad_layer) {
        snprintf(b->res->message, sizeof b->res->message,
                 "a turn from layer %d did not lead to layer %d (the layering does not hold)", cur->depth,
                 cur->depth + 1);
        st = PB_TB_BAD;
    } else if (atomic_load(&b->late)) {
        char what[64];
        snprintf(what, sizeof what, "finding layer %d from layer %d", cur->depth + 1, cur->depth);
        late_message(b, what, cur->n);
        st = PB_TB_STOPPED;
    } else if (failed || merge_buffers(b, bufs, nt, next)) {
        st = PB_TB_MEMORY;
        if (b->o->memory > 0)
            snprintf(b->res->message, sizeof b->res->message,
                     "stopped: the memory budget (%.2f GiB) is too small for layer %d; the layers found so far "
                     "are kept, rerun with a larger --memory to go on",
                     (double)b->o->memory / (1 << 30), cur->depth + 1);
        else
            snprintf(b->res->message, sizeof b->res->message,
                     "stopped: memory ran out finding layer %d; the layers found so far are kept, rerun with more "
                     "memory to go on",
                     cur->depth + 1);
    }
    for (int t = 0; t < nt; t++) {
        charge(b, -(long long)bufs[t].cap * 8 * b->k.kw);
        free(bufs[t].keys);
    }
    free(bufs);
    return st;
}

/* ---- backward ---- */

typedef struct bwd_ctx {
    const builder *b;
    const pb_tb_layer *next;
    int best; /* the best rank so far, or INT_MIN-ish */
    uint8_t value;
    int missing;
} bwd_ctx;

static void bwd_consider(bwd_ctx *c, uint8_t v) {
    int r = pb_tb_rank(v);
    if (r > c->best) c->best = r, c->value = v;
}

/* A turn that goes on (the walk reports no others: ends off). */
static int bwd_one(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    bwd_ctx *c = ctx;
    uint64_t key[PB_TB_MAX_KW];
    pb_tb_canon_segs(f, &c->b->k, o->key, (int)(o->key[f->nwords] & 0xffff), key);
    long j = pb_tb_search(c->next->keys, c->next->n, c->b->k.kw, key);
    if (j < 0) {
        c->missing = 1;
        return 1;
    }
    bwd_consider(c, pb_tb_after(c->next->vals[j]));
    return 0;
}

/* The turns that end the game, by the kinds of end the walk met
 * (pb_turnwalk_ends): each is worth its end alone (pb_tb_end). */
static void bwd_ends(bwd_ctx *c, int ends) {
    if (ends & PB_TURNWALK_END_WIN) bwd_consider(c, pb_tb_win(1));
    if (ends & PB_TURNWALK_END_DRAW) bwd_consider(c, PB_TB_DRAW);
    if (ends & PB_TURNWALK_END_LOSS) bwd_consider(c, pb_tb_loss(1));
}

static pb_tb_status backward_step(builder *b, pb_tb_layer *cur, const pb_tb_layer *next, pb_tb_layer_counts *cnt) {
    if (charge(b, (long long)cur->n)) {
        snprintf(b->res->message, sizeof b->res->message,
                 "stopped: the memory budget is too small to solve layer %d; rerun with a larger --memory", cur->depth);
        return PB_TB_MEMORY;
    }
    cur->vals = malloc(cur->n + 1);
    if (!cur->vals) {
        charge(b, -(long long)cur->n);
        snprintf(b->res->message, sizeof b->res->message,
                 "stopped: memory ran out solving layer %d; the layers found so far are kept, rerun with more "
                 "memory to go on",
                 cur->depth);
        return PB_TB_MEMORY;
    }
    atomic_int missing = 0, toolong = 0;
    memset(cnt, 0, sizeof *cnt);
    uint64_t cl[3] = {0, 0, 0}, po[3] = {0, 0, 0};
    /* With no empty node left every turn ends the game; if no draw exists
     * either (book, or hockey where a dead end loses), a mover who cannot
     * score can only end it against himself: loss in 1. */
    const int last_no_draw =
        cur->depth >= b->f->nempty && (b->f->spec.rules == PB_RULES_BOOK || b->f->spec.dead_end == PB_DEAD_END_LOSS);
    char what[64];
    snprintf(what, sizeof what, "solving layer %d", cur->depth);
    pass_start(b);
#pragma omp parallel num_threads(b->threads) reduction(+ : cl[:3], po[:3])
    {
        pb_turnwalk *tw = pb_turnwalk_new(b->f);
        pb_turnwalk_set_keys_only(tw, 1);
        pb_turnwalk_set_ends(tw, 0);
        pb_position p;
        uint64_t key[PB_TB_MAX_KW];
#pragma omp for schedule(dynamic, 64)
        for (size_t i = 0; i < cur->n; i++) {
            if (atomic_load(&b->late)) continue;
            pb_tb_unpack(b->f, &b->k, cur->keys + i * b->k.kw, cur->to_move, &p);
            bwd_ctx c = {b, next, -100000, 0, 0};
            long r = 1;
            /* A win in 1 is the best a turn can do: when a step into the
             * opponent's goal exists (found without walking the whole
             * turn), nothing else needs looking at.  Otherwise every
             * distinct outcome is weighed. */
            if (pb_turn_can_score(tw, &p) == 1) c.best = pb_tb_rank(c.value = pb_tb_win(1));
            else if (last_no_draw) c.best = pb_tb_rank(c.value = pb_tb_loss(1));
            else if ((r = pb_turn_outcomes(tw, &p, bwd_one, &c)) >= 0) bwd_ends(&c, pb_turnwalk_ends(tw));
            if (c.missing || r < 0 || c.best == -100000) atomic_store(&missing, 1);
            if (c.best > -100000 && pb_tb_distance(c.value) > PB_TB_MAX_DIST - 1) atomic_store(&toolong, 1);
            cur->vals[i] = c.value;
            int mult = pb_tb_canon(b->f, &b->k, &p, key);
            int v = pb_tb_value(c.value) + 1;
            cl[v] += 1;
            po[v] += (uint64_t)mult;
            pass_tick(b, what, cur->n);
        }
        pb_turnwalk_free(tw);
    }
    if (atomic_load(&b->late)) {
        late_message(b, what, cur->n);
        return PB_TB_STOPPED;
    }
    for (int v = 0; v < 3; v++) {
        cnt->classes_by[v] = cl[v], cnt->positions_by[v] = po[v];
        cnt->classes += cl[v], cnt->positions += po[v];
    }
    if (missing || toolong) {
        snprintf(b->res->message, sizeof b->res->message,
                 toolong ? "a distance does not fit the value byte"
                         : "a successor of layer %d is missing from layer %d (the layer files are inconsistent)",
                 cur->depth, cur->depth + 1);
        return PB_TB_BAD;
    }
    return PB_TB_OK;
}

/* ---- whole games (opts.games) ----
 *
 * The games from a position p, by result (Top wins, Bottom wins, drawn),
 * are the sum over its turn's distinct outcomes o of routes(o) times: the
 * unit count of o's result when o ends the game, else the games from the
 * position after o, which is in layer d + 1 (its class: left-right mirror
 * images have the same games, as they have the same turns mirrored).  The
 * turn walk gives each outcome's number of routes (pb_turn_outcomes, ends
 * on), so no route is listed.  From the deepest layer back this gives the
 * games from every position, and at the root the number `enumerate` gives
 * (all complete turn sequences; tested equal).  128-bit sums: an overflow
 * is reported (games_over), never wrapped. */

typedef struct games3 {
    unsigned __int128 g[3]; /* Top wins, Bottom wins, drawn */
} games3;

typedef struct cnt_ctx {
    const builder *b;
    const pb_tb_layer *next;
    const games3 *gnext;
    games3 acc;
    int missing, over;
} cnt_ctx;

static int add_times(unsigned __int128 *acc, uint64_t routes, unsigned __int128 x) {
    unsigned __int128 m;
    return __builtin_mul_overflow((unsigned __int128)routes, x, &m) || __builtin_add_overflow(*acc, m, acc);
}

static int cnt_one(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    cnt_ctx *c = ctx;
    if (o->overflow) c->over = 1;
    else if (o->end != PB_END_NONE) {
        int r = o->loser == PB_NOBODY ? 2 : o->loser == PB_BOTTOM ? 0 : 1;
        c->over |= add_times(&c->acc.g[r], o->routes, 1);
    } else {
        uint64_t key[PB_TB_MAX_KW];
        pb_tb_canon_segs(f, &c->b->k, o->key, (int)(o->key[f->nwords] & 0xffff), key);
        long j = pb_tb_search(c->next->keys, c->next->n, c->b->k.kw, key);
        if (j < 0) c->missing = 1;
        for (int r = 0; j >= 0 && r < 3; r++) c->over |= add_times(&c->acc.g[r], o->routes, c->gnext[j].g[r]);
    }
    return c->missing || c->over;
}

/* The games from every position of cur (keys), given those of next;
 * NULL on failure (message set, status in *st). */
static games3 *games_step(builder *b, const pb_tb_layer *cur, const pb_tb_layer *next, const games3 *gnext,
                          pb_tb_status *st) {
    games3 *g = NULL;
    int charged = !charge(b, (long long)(cur->n * sizeof *g));
    if (charged) g = calloc(cur->n + 1, sizeof *g);
    if (!g) {
        if (charged) charge(b, -(long long)(cur->n * sizeof *g));
        snprintf(b->res->message, sizeof b->res->message,
                 charged ? "stopped: memory ran out counting the games of layer %d"
                         : "stopped: the memory budget is too small to count the games of layer %d",
                 cur->depth);
        *st = PB_TB_MEMORY;
        return NULL;
    }
    atomic_int missing = 0, over = 0;
    char what[64];
    snprintf(what, sizeof what, "counting the games of layer %d", cur->depth);
    pass_start(b);
#pragma omp parallel num_threads(b->threads)
    {
        pb_turnwalk *tw = pb_turnwalk_new(b->f);
        pb_turnwalk_set_keys_only(tw, 1);
        pb_position p;
#pragma omp for schedule(dynamic, 64)
        for (size_t i = 0; i < cur->n; i++) {
            if (atomic_load(&b->late) || atomic_load(&missing) || atomic_load(&over)) continue;
            pb_tb_unpack(b->f, &b->k, cur->keys + i * b->k.kw, cur->to_move, &p);
            cnt_ctx c = {b, next, gnext, {{0, 0, 0}}, 0, 0};
            if (pb_turn_outcomes(tw, &p, cnt_one, &c) < 0 && !c.over) c.missing = 1;
            if (c.missing) atomic_store(&missing, 1);
            if (c.over) atomic_store(&over, 1);
            g[i] = c.acc;
            pass_tick(b, what, cur->n);
        }
        pb_turnwalk_free(tw);
    }
    *st = PB_TB_OK;
    if (atomic_load(&b->late)) late_message(b, what, cur->n), *st = PB_TB_STOPPED;
    else if (missing)
        snprintf(b->res->message, sizeof b->res->message, "counting games: a successor of layer %d is missing",
                 cur->depth),
            *st = PB_TB_BAD;
    b->res->games_over |= atomic_load(&over);
    if (*st == PB_TB_OK) return g;
    free(g);
    charge(b, -(long long)(cur->n * sizeof *g));
    return NULL;
}

/* Layer d's game counts, kept in "<out>.g<d>" as its values are, so that a
 * build stopped in the backward pass does not count them again.  Blocks of
 * at most GAMES_CHUNK positions, each count as three 16-byte little-endian
 * integers (Top wins, Bottom wins, drawn).  Returns 0, or -1 (message set). */
#define GAMES_CHUNK ((size_t)1 << 20)

static int write_games_file(builder *b, int d, const games3 *g, size_t n) {
    pb_cwriter *w = create_layer_file(b, 'g', d);
    if (!w) return -1;
    unsigned char *buf = malloc((n < GAMES_CHUNK ? n : GAMES_CHUNK) * 48 + 1);
    if (!buf) {
        pb_container_abort(w);
        snprintf(b->res->message, sizeof b->res->message, "out of memory keeping the games of layer %d", d);
        return -1;
    }
    for (size_t i = 0; i < n; i += GAMES_CHUNK) {
        size_t m_ = n - i < GAMES_CHUNK ? n - i : GAMES_CHUNK, at = 0;
        for (size_t j = 0; j < m_; j++)
            for (int r = 0; r < 3; r++) {
                at += pb_le_put(buf + at, (uint64_t)g[i + j].g[r], 8);
                at += pb_le_put(buf + at, (uint64_t)(g[i + j].g[r] >> 64), 8);
            }
        pb_container_put(w, PB_TB_TAG_ENTRIES, buf, at, 1);
    }
    free(buf);
    return pb_container_commit(w, b->res->message, sizeof b->res->message);
}

/* Layer d's game counts from its file: the array (n entries, charged), or
 * NULL when there is no such file or it does not fit (then counted again;
 * a damaged file only costs the time). */
static games3 *read_games_file(builder *b, int d, size_t n) {
    char err[400];
    pb_creader *r = open_layer_file(b, 'g', d, err, sizeof err);
    if (!r) return NULL;
    games3 *g = NULL;
    unsigned char *buf = NULL;
    int ok = !charge(b, (long long)(n * sizeof *g));
    if (ok) {
        g = calloc(n + 1, sizeof *g);
        buf = malloc((n < GAMES_CHUNK ? n : GAMES_CHUNK) * 48 + 1);
        ok = g && buf;
        if (!ok) charge(b, -(long long)(n * sizeof *g));
    }
    size_t got = 0, len;
    uint32_t tag;
    while (ok && got < n) {
        ok = pb_container_next(r, &tag, &len, err, sizeof err) == 1 && len % 48 == 0 && len / 48 <= n - got &&
             len / 48 <= GAMES_CHUNK && !pb_container_read(r, buf, err, sizeof err);
        for (size_t j = 0; ok && j < len / 48; j++, got++)
            for (int q = 0; q < 3; q++)
                g[got].g[q] = (unsigned __int128)pb_le_get(buf + 48 * j + 16 * q, 8) |
                              (unsigned __int128)pb_le_get(buf + 48 * j + 16 * q + 8, 8) << 64;
    }
    ok = ok && pb_container_next(r, &tag, &len, err, sizeof err) == 0; /* no more than n */
    pb_container_close(r);
    free(buf);
    if (ok) return g;
    if (g) charge(b, -(long long)(n * sizeof *g));
    free(g);
    return NULL;
}

/* ---- the whole build ---- */

static double cpu_now(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

/* Whether the build must stop (stop_reason) after layer d of the pass
 * `how` was kept on disk; if so, says where in res. */
static int out_of_time(const builder *b, pb_tb_build_result *res, int d, const char *how) {
    const char *why = stop_reason(b);
    if (!why) return 0;
    snprintf(res->message, sizeof res->message,
             "stopped by %s after layer %d (%s); its layer files are kept: rerun to go on", why, d, how);
    return 1;
}

static void progress(builder *b, int d, const pb_tb_layer *L, const char *how) {
    if (!b->o->progress) return;
    fprintf(b->o->progress, "tb: layer %d: %llu classes (%s), %.1f s, %.1f s of CPU, %.1f MiB\n", d,
            (unsigned long long)L->n, how, omp_get_wtime() - b->t0, cpu_now(),
            (double)atomic_load(&b->mem) / 1048576.0);
    fflush(b->o->progress);
}

static pb_tb_status write_final(builder *b, int d0, int dmax, const uint64_t *root_key, int root_to_move,
                                pb_tb_layer_counts *counts) {
    pb_tb_header h;
    memset(&h, 0, sizeof h);
    h.d0 = d0, h.dmax = dmax, h.root_to_move = root_to_move;
    memcpy(h.root, root_key, sizeof(uint64_t) * (size_t)b->k.kw);
    h.layer = counts;
    /* The block counts go into the header first, so compute them before. */
    for (int d = d0; d <= dmax; d++) {
        uint64_t n = counts[d - d0].classes;
        counts[d - d0].blocks = n ? (n + ((uint64_t)1 << 18) - 1) >> 18 : 1;
    }
    pb_container_meta m;
    pb_container_meta_init(&m, PB_TB_KIND, b->f);
    snprintf(m.options, sizeof m.options, "%s", b->ident);
    pb_cwriter *w = pb_container_create(b->out, &m, b->res->message, sizeof b->res->message);
    if (!w) return PB_TB_IO;
    size_t hl;
    unsigned char *hb = pb_tb_header_bytes(&h, &b->k, &hl);
    pb_container_put(w, PB_TB_TAG_HEADER, hb, hl, 0);
    free(hb);
    for (int d = d0; d <= dmax; d++) {
        pb_tb_layer L;
        pb_tb_layer_counts c;
        memset(&L, 0, sizeof L);
        if (read_layer_file(b, 'k', d, &L, NULL) != 1 || read_layer_file(b, 'v', d, &L, &c) != 1) {
            pb_tb_layer_free(&L);
            pb_container_abort(w);
            return PB_TB_IO;
        }
        pb_tb_put_layer(w, &b->k, PB_TB_TAG_ENTRIES | (uint32_t)d << 8, L.keys, L.vals, L.n);
        pb_tb_layer_free(&L);
    }
    return pb_container_commit(w, b->res->message, sizeof b->res->message) ? PB_TB_IO : PB_TB_OK;
}

/* The next layer forward from cur (layer d): read from its file if an
 * earlier run wrote it, else found and written.  On failure both layers
 * are released. */
static pb_tb_status forward_layer(builder *b, pb_tb_layer *cur, pb_tb_layer *next) {
    const int d = cur->depth;
    pb_tb_build_result *res = b->res;
    memset(next, 0, sizeof *next);
    next->depth = d + 1, next->to_move = cur->to_move ^ 1;
    int got = read_layer_file(b, 'k', d + 1, next, NULL);
    pb_tb_status st = got < 0 ? PB_TB_BAD : PB_TB_OK;
    if (got > 0 && charge(b, layer_bytes(b, next->n, 0))) {
        snprintf(res->message, sizeof res->message,
                 "stopped: the memory budget is too small to hold layer %d; rerun with a larger --memory", d + 1);
        pb_tb_layer_free(next);
        st = PB_TB_MEMORY;
    } else if (got > 0) {
        res->resumed_forward++;
        progress(b, d + 1, next, "forward, found before");
    } else if (got == 0) {
        st = forward_step(b, cur, next);
        if (st != PB_TB_OK) res->peak_memory = atomic_load(&b->peak);
        else if (write_layer_file(b, 'k', d + 1, next, NULL)) st = PB_TB_IO;
        else progress(b, d + 1, next, "forward");
        if (st != PB_TB_OK) release(b, next);
    }
    if (st != PB_TB_OK) release(b, cur);
    return st;
}

/* Forward: every layer from the root's (d0) to the last non-empty one,
 * into layer files; *dmax receives the deepest. */
static pb_tb_status forward_pass(builder *b, const pb_position *root, int d0, int *dmax) {
    pb_tb_build_result *res = b->res;
    pb_tb_layer cur;
    memset(&cur, 0, sizeof cur);
    cur.depth = d0, cur.to_move = root->to_move;
    int got = read_layer_file(b, 'k', d0, &cur, NULL);
    if (got < 0) return PB_TB_BAD;
    if (!got) {
        cur.keys = calloc((size_t)b->k.kw + 1, 8);
        pb_tb_canon(b->f, &b->k, root, cur.keys);
        cur.n = 1;
        if (write_layer_file(b, 'k', d0, &cur, NULL)) return PB_TB_IO;
    }
    charge(b, layer_bytes(b, cur.n, 0));
    for (;;) {
        const int d = cur.depth;
        pb_tb_layer next;
        pb_tb_status st = forward_layer(b, &cur, &next);
        if (st != PB_TB_OK) return st;
        if (next.n && out_of_time(b, res, d + 1, "forward")) {
            release(b, &cur), release(b, &next);
            return PB_TB_STOPPED;
        }
        if (cur.n > res->widest_classes) res->widest_classes = cur.n, res->widest_layer = d;
        res->classes += cur.n;
        release(b, &cur);
        cur = next;
        if (next.n == 0) break;
    }
    *dmax = cur.depth - 1;
    release(b, &cur);
    return PB_TB_OK;
}

/* Layer d's values (L holds its keys, next layer d + 1 with values): read
 * from its file if an earlier run wrote it, else solved and written. */
static pb_tb_status backward_layer(builder *b, pb_tb_layer *L, const pb_tb_layer *next, pb_tb_layer_counts *cnt) {
    const int d = L->depth;
    if (charge(b, layer_bytes(b, L->n, 0))) {
        snprintf(b->res->message, sizeof b->res->message,
                 "stopped: the memory budget is too small to hold layer %d; rerun with a larger --memory", d);
        pb_tb_layer_free(L);
        return PB_TB_MEMORY;
    }
    int got = read_layer_file(b, 'v', d, L, cnt);
    if (got < 0) return PB_TB_BAD;
    if (got) {
        charge(b, (long long)L->n);
        b->res->resumed_backward++;
        progress(b, d, L, "backward, found before");
        return PB_TB_OK;
    }
    pb_tb_status st = backward_step(b, L, next, cnt);
    if (st == PB_TB_OK && write_layer_file(b, 'v', d, L, cnt)) st = PB_TB_IO;
    if (st == PB_TB_OK) progress(b, d, L, "backward");
    return st;
}

/* Backward: `next` is layer d+1 with its values, from the empty layer past
 * the deepest one up to the root's; counts[d - d0] receive layer d's. */
static pb_tb_status backward_pass(builder *b, const pb_position *root, int d0, int dmax, pb_tb_layer_counts *counts) {
    pb_tb_build_result *res = b->res;
    pb_tb_layer next;
    memset(&next, 0, sizeof next);
    next.vals = malloc(1);
    pb_tb_status st = PB_TB_OK;
    games3 *gnext = NULL, *gcur = NULL; /* with opts.games: of next, of L */
    for (int d = dmax; d >= d0 && st == PB_TB_OK; d--) {
        pb_tb_layer L;
        memset(&L, 0, sizeof L);
        L.depth = d, L.to_move = root->to_move ^ ((d - d0) & 1);
        if (read_layer_file(b, 'k', d, &L, NULL) != 1) {
            st = PB_TB_BAD;
            break;
        }
        st = backward_layer(b, &L, &next, &counts[d - d0]);
        if (st == PB_TB_MEMORY) break;
        /* The games of layer d: read when an earlier run kept them, else
         * counted and kept. */
        if (st == PB_TB_OK && b->o->games) {
            gcur = read_games_file(b, d, L.n);
            if (gcur) progress(b, d, &L, "games found before"), res->resumed_games++;
            else {
                gcur = games_step(b, &L, &next, gnext, &st);
                if (gcur && write_games_file(b, d, gcur, L.n)) st = PB_TB_IO;
            }
        }
        if (st == PB_TB_OK && d > d0 && out_of_time(b, res, d, "backward")) st = PB_TB_STOPPED;
        if (gnext) charge(b, -(long long)(next.n * sizeof *gnext));
        free(gnext);
        gnext = gcur, gcur = NULL;
        release(b, &next);
        next = L;
        if (atomic_load(&b->peak) > res->peak_memory) res->peak_memory = atomic_load(&b->peak);
    }
    if (st == PB_TB_OK && next.n == 1) res->root_value = next.vals[0];
    if (st == PB_TB_OK && next.n == 1 && gnext) memcpy(res->games, gnext[0].g, sizeof res->games);
    if (gnext) charge(b, -(long long)(next.n * sizeof *gnext));
    free(gnext);
    release(b, &next);
    return st;
}

/* Why no tablebase can be built for f, or NULL. */
static const char *refused(const pb_field *f) {
    if (!pb_turns_are_steps(f))
        return "tablebases are built for book and hockey only: triple turns have no layering in which every "
               "turn goes one layer deeper (docs/tablebase.md)";
    if (f->nempty + 1 > PB_TB_MAX_DIST) return "the field is too large for the value byte";
    return NULL;
}

/* After a whole build: the file's size, the layer files removed unless kept. */
static void finish(builder *b, int d0, int dmax) {
    FILE *fp = fopen(b->out, "rb");
    if (fp) {
        fseek(fp, 0, SEEK_END);
        b->res->file_bytes = ftell(fp);
        fclose(fp);
    }
    if (b->o->keep) return;
    char path[600];
    for (int d = d0; d <= dmax + 1; d++) {
        layer_path(b, 'k', d, path, sizeof path);
        remove(path);
        layer_path(b, 'v', d, path, sizeof path);
        remove(path);
        layer_path(b, 'g', d, path, sizeof path);
        remove(path);
    }
}

pb_tb_status pb_tb_build(const pb_field *f, const pb_position *root, const char *out, const pb_tb_build_opts *o,
                         pb_tb_build_result *res) {
    memset(res, 0, sizeof *res);
    const char *why = refused(f);
    if (why) {
        snprintf(res->message, sizeof res->message, "%s", why);
        return PB_TB_BAD;
    }
    builder b;
    memset(&b, 0, sizeof b);
    b.f = f, b.out = out, b.o = o, b.res = res;
    b.threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    b.t0 = omp_get_wtime();
    double cpu0 = cpu_now();
    pb_tb_keyfmt_init(&b.k, f);
    uint64_t root_key[PB_TB_MAX_KW];
    pb_tb_pack(f, &b.k, root, root_key);
    int n = snprintf(b.ident, sizeof b.ident, "to_move=%s root=", root->to_move == PB_TOP ? "top" : "bottom");
    for (int i = 0; i < b.k.kw && n < (int)sizeof b.ident - 17; i++)
        n += snprintf(b.ident + n, sizeof b.ident - (size_t)n, "%016llx", (unsigned long long)root_key[i]);
    int d0 = pb_tb_layer_of(f, root), dmax = d0;
    res->d0 = d0;
    pb_tb_status st = forward_pass(&b, root, d0, &dmax);
    if (st != PB_TB_OK) return st;
    res->dmax = dmax;
    res->forward_seconds = omp_get_wtime() - b.t0;
    pb_tb_layer_counts *counts = calloc((size_t)(dmax - d0 + 1), sizeof *counts);
    st = backward_pass(&b, root, d0, dmax, counts);
    res->backward_seconds = omp_get_wtime() - b.t0 - res->forward_seconds;
    for (int d = d0; d <= dmax; d++) res->positions += counts[d - d0].positions;
    if (st == PB_TB_OK) st = write_final(&b, d0, dmax, root_key, root->to_move, counts);
    free(counts);
    res->peak_memory = atomic_load(&b.peak);
    res->seconds = omp_get_wtime() - b.t0;
    res->cpu_seconds = cpu_now() - cpu0;
    if (st == PB_TB_OK) finish(&b, d0, dmax);
    return st;
}
