/* enumerate.c - breadth-first enumeration by depth with exact counts
 * (enumerate.h): the passes over each depth's frontier, the symmetry
 * classes, the outcome counters and the bookkeeping of a run. */
#include "enumerate.h"

#include <assert.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/process.h"
#include "../solver/turnwalk.h"
#include "checkpoint.h"
#include "frontier.h"

static const char *const outcome_names[PB_OUT_COUNT] = {
    "goal_top",     "goal_bottom",     "own_goal_top",  "own_goal_bottom",
    "dead_end_top", "dead_end_bottom", "dead_end_draw", "kick_draw",
};

const char *pb_enum_outcome_name(pb_enum_outcome k) {
    assert(k < PB_OUT_COUNT);
    return outcome_names[k];
}

pb_enum_outcome pb_enum_classify(const pb_route *r) {
    assert(r->end != PB_END_NONE);
    if (r->end == PB_END_GOAL) {
        int own = r->loser == r->mover;
        if (r->mover == PB_TOP) return own ? PB_OUT_OWN_GOAL_TOP : PB_OUT_GOAL_TOP;
        return own ? PB_OUT_OWN_GOAL_BOTTOM : PB_OUT_GOAL_BOTTOM;
    }
    if (r->end == PB_END_DEAD_END) {
        if (r->loser == PB_NOBODY) return PB_OUT_DEAD_END_DRAW;
        return r->loser == PB_TOP ? PB_OUT_DEAD_END_TOP : PB_OUT_DEAD_END_BOTTOM;
    }
    return PB_OUT_KICK_DRAW;
}

void pb_enum_options_init(pb_enum_options *o) {
    memset(o, 0, sizeof *o);
    o->max_depth = -1;
}

void pb_enum_checkpoint_name(const pb_field *f, char *buf, size_t len) {
    const pb_field_spec *s = &f->spec;
    char extra[32] = "";
    if (s->rules == PB_RULES_HOCKEY)
        snprintf(extra, sizeof extra, "-s%d%s", s->setback, s->dead_end == PB_DEAD_END_LOSS ? "-deadloss" : "");
    snprintf(buf, len, "paperball-enum-%s-%d-%d-%d%s.ckpt", pb_rules_name(s->rules), s->goal, s->width, s->length,
             extra);
}

/* ---- one run ---------------------------------------------------------- */

/* A thread's successors with small counts waiting to be added to one shard
 * of F(d+1): n entries of kw + 2 words (key, hash, count). */
typedef struct shard_buf {
    uint64_t *w;
    uint32_t n, cap;
} shard_buf;

/* Per-thread counters, merged after each pass (sums: order-free).  Each
 * on cache lines of its own: the threads write theirs at every position. */
typedef struct thread_acc {
    _Alignas(64) mpz_t seq, out[PB_OUT_COUNT];
    mpz_t mult;          /* m(p) as a GMP number, for the visitors */
    mpz_t succ;          /* m(p) * routes, when it does not fit 64 bits */
    pb_turnwalk *tw;     /* this thread's turn walk */
    struct recount *ovf; /* outcomes whose route count overflowed, to recount */
    size_t novf, capovf;
    shard_buf buf[PB_FRONTIER_SHARDS]; /* by the shard of F(d+1) */
    uint64_t classes_lr, classes_full;
    unsigned movers; /* bit m: a successor has player m to move */
} thread_acc;

enum { STOP_NONE = 0, STOP_MEMORY, STOP_VISITOR, STOP_INTERRUPT };

typedef struct run {
    const pb_field *f;
    const pb_enum_options *o;
    const pb_enum_visitor *visit;
    int kw, threads;
    pb_fmem mem;
    pb_frontier *cur, *next;
    int depth; /* the depth of cur */
    /* Bit m set: F(d) may hold a position with player m to move (both
     * bits when not known, as after a resume or across processes). */
    unsigned movers, next_movers;
    atomic_int stop;
    atomic_ullong done;
    uint64_t expanded;        /* positions of the depth expanded last */
    uint64_t positions;       /* positions of cur, of all processes */
    const pb_enum_dist *dist; /* NULL: one process */
    uint64_t routes_max;      /* outcomes with more routes are recounted route by route */
    thread_acc *acc;
    /* F(d) is saved by one thread while the others begin the pass over it
     * (pass, build_next): save_pending until then, save_status after. */
    pb_enum_result *res;
    int save_pending;
    pb_enum_status save_status;
    double t0, tpass, tlast;
    double deadline;                     /* omp_get_wtime() past which the run stops; 0: none */
    uint64_t small_max;                  /* counts above it are kept in GMP */
    uint64_t root_key[PB_MAX_WORDS + 1]; /* the root, packed: checkpoints name it */
} run;

/* The key of the image of key under the left-right mirror (lr) and/or the
 * top-bottom mirror (tb), which also swaps the player to move. */
static void mirror_key(const pb_field *f, const uint64_t *key, uint64_t *out, int lr, int tb) {
    int nw = f->nwords;
    memset(out, 0, sizeof(uint64_t) * (size_t)nw);
    for (int w = 0; w < nw; w++) {
        uint64_t bits = key[w];
        while (bits) {
            int s = w * 64 + __builtin_ctzll(bits);
            bits &= bits - 1;
            if (lr) s = f->seg_mirror_lr[s];
            if (tb) s = f->seg_mirror_tb[s];
            out[s >> 6] |= 1ULL << (s & 63);
        }
    }
    int ball = (int)(key[nw] & 0xffff), to_move = (int)(key[nw] >> 16);
    if (lr) ball = f->mirror_lr[ball];
    if (tb) ball = f->mirror_tb[ball], to_move ^= 1;
    out[nw] = (uint64_t)(uint16_t)ball | (uint64_t)to_move << 16;
}

int pb_enum_owner(const pb_field *f, const uint64_t *key, int nranks) {
    assert(nranks >= 1);
    int kw = f->nwords + 1;
    uint64_t img[PB_MAX_WORDS + 1], least[PB_MAX_WORDS + 1];
    memcpy(least, key, sizeof(uint64_t) * (size_t)kw);
    for (int m = 1; m < 4; m++) {
        mirror_key(f, key, img, m & 1, m >> 1);
        if (memcmp(img, least, sizeof(uint64_t) * (size_t)kw) < 0) memcpy(least, img, sizeof(uint64_t) * (size_t)kw);
    }
    return (int)(pb_frontier_hash(least, kw) % (uint64_t)nranks);
}

/* The size of a frontier summed over the processes (collective). */
static uint64_t global_size(const run *R, const pb_frontier *fr) {
    uint64_t n = pb_frontier_size(fr);
    if (R->dist) R->dist->sum_u64(R->dist->ctx, &n, 1);
    return n;
}

/* Is the image img of p both smaller than p's key and in F(d)?  Then p is
 * not the least member of its class in F(d). */
static int beaten_by(const run *R, const uint64_t *key, const uint64_t *img) {
    size_t bytes = sizeof(uint64_t) * (size_t)R->kw;
    return memcmp(img, key, bytes) < 0 && pb_frontier_contains(R->cur, img, pb_frontier_hash(img, R->kw));
}

/* Counts p towards the classes: a class of F(d) is counted once, at its
 * least member (in key order) present in F(d).  Lookups make this right
 * even when F(d) is not closed under the mirrors (a root that is not
 * symmetric). */
static void count_classes(const run *R, const uint64_t *key, thread_acc *a) {
    uint64_t img[PB_MAX_WORDS + 1];
    mirror_key(R->f, key, img, 1, 0);
    int least_lr = !beaten_by(R, key, img);
    a->classes_lr += (uint64_t)least_lr;
    if (!least_lr) return;
    /* tb swaps the player to move: if no position of F(d) has the other
     * player to move (book and hockey from the start: every turn passes
     * the move), no tb image is in F(d) and the lookups would all fail. */
    int other = (int)(key[R->kw - 1] >> 16) ^ 1;
    if (R->movers & (1u << other)) {
        mirror_key(R->f, key, img, 0, 1);
        if (beaten_by(R, key, img)) return;
        mirror_key(R->f, key, img, 1, 1);
        if (beaten_by(R, key, img)) return;
    }
    a->classes_full++;
}

/* Successors are added to F(d+1) a shard at a time: a thread keeps them
 * in a buffer per shard and adds all it holds under one taking of the
 * shard's lock once BUF_TRY of them wait, if no other thread holds the
 * lock; else it goes on and tries again BUF_TRY successors later, and
 * waits for the lock only when BUF_MAX wait.  Why: a shard's lock and size
 * share a cache line that every thread writes; taken once per successor
 * it moved between the processors' caches at nearly every addition.  A
 * thread that loses its processor while holding a lock (the machine is
 * shared) or that doubles a large shard holds it for milliseconds: the
 * others buffer meanwhile instead of spinning.  The buffers grow as
 * needed, to at most BUF_MAX entries a shard (2.5 MiB a thread on (2;4;4)).
 *
 * Exactness: an addition adds an exact integer to one entry's count (or
 * creates the entry with it), under the shard's lock.  Sums do not depend
 * on the order of their terms, so F(d+1), as a set of (position, count),
 * does not depend on when, by which thread or in which batch a successor
 * is added; only the slots the entries land in do, and nothing reported
 * or saved depends on those (the checkpoint lists them in slot order, but
 * reading it back adds them to a set again). */
#define BUF_TRY 32
#define BUF_MAX 1024

/* Adds thread a's buffered successors of shard s; wait: even if another
 * thread holds its lock.  Returns 1 to stop. */
static int flush_shard(run *R, thread_acc *a, int s, int wait) {
    shard_buf *b = &a->buf[s];
    int rc = pb_frontier_add_shard(R->next, b->w, b->n, wait);
    if (rc == PB_FRONTIER_BUSY) return 0;
    b->n = 0;
    if (rc < 0) {
        atomic_store(&R->stop, STOP_MEMORY);
        return 1;
    }
    return 0;
}

/* Adds every successor thread a still holds. */
static void flush(run *R, thread_acc *a) {
    for (int s = 0; s < PB_FRONTIER_SHARDS; s++)
        if (a->buf[s].n) flush_shard(R, a, s, 1);
}

/* Adds count c to the successor with packed key `key` in F(d+1): a big
 * count at once, a small one through a's buffer of its shard.  Returns 1
 * to stop. */
static int add_key(run *R, thread_acc *a, const uint64_t *key, pb_fcount c) {
    uint64_t h = pb_frontier_hash(key, R->kw);
    a->movers |= 1u << (key[R->kw - 1] >> 16);
    if (c.big) {
        if (pb_frontier_add(R->next, key, h, c) < 0) {
            atomic_store(&R->stop, STOP_MEMORY);
            return 1;
        }
        return 0;
    }
    const size_t stride = (size_t)R->kw + 2;
    shard_buf *b = &a->buf[h >> (64 - PB_FRONTIER_SHARD_BITS)];
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? 2 * b->cap : 2 * BUF_TRY;
        uint64_t *w = realloc(b->w, sizeof(uint64_t) * stride * cap);
        if (!w) {
            atomic_store(&R->stop, STOP_MEMORY);
            return 1;
        }
        b->w = w, b->cap = cap;
    }
    uint64_t *e = b->w + (size_t)b->n++ * stride;
    memcpy(e, key, sizeof(uint64_t) * (size_t)R->kw);
    e[R->kw] = h, e[R->kw + 1] = c.small;
    if (b->n % BUF_TRY) return 0;
    return flush_shard(R, a, (int)(h >> (64 - PB_FRONTIER_SHARD_BITS)), b->n >= BUF_MAX);
}

typedef unsigned __int128 pb_u128;

/* An outcome of a turn whose number of routes passed 2^64 - 1 (or the
 * test threshold routes_max): counted again route by route. */
typedef struct recount {
    uint64_t key[PB_MAX_WORDS + 1];
    pb_route r; /* its end, loser, mover, kick (no nodes) */
    pb_u128 routes;
} recount;

typedef struct route_ctx {
    run *R;
    thread_acc *a;
    int thread;
    const pb_position *before;
    pb_fcount mult;
    mpz_srcptr multz;
    /* Routes of this position in all, and by outcome: multiplied by m(p)
     * once after the position (one GMP operation per counter, not per
     * route).  128 bits: an outcome has fewer than 2^64 routes (else it
     * is recounted apart) and a turn fewer than 2^32 outcomes. */
    pb_u128 nroutes, nout[PB_OUT_COUNT];
    int failed; /* the turn walk ran out of memory */
} route_ctx;

static int any_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)c, (void)f, (void)after, (void)r;
    return 1;
}

/* A position from which the rules yield no route at all: in triple, the
 * mover is stuck and the opponent has no kick, so the game is over (a
 * draw).  Only a root can be such a position: a ply leading to one ends
 * the game itself (PB_END_NO_KICK). */
static int stuck(const pb_field *f, pb_position *p) { return pb_routes_foreach(f, p, any_route, NULL) == 0; }

static int on_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    route_ctx *x = c;
    run *R = x->R;
    if (atomic_load_explicit(&R->stop, memory_order_relaxed)) return 1;
    x->nroutes++;
    pb_enum_outcome k;
    if (r->end != PB_END_NONE) {
        k = pb_enum_classify(r);
    } else {
        /* The game goes on.  (A triple ply that leaves the mover stuck with
         * no kick is marked PB_END_NO_KICK by the model, so every successor
         * stored here has a route.) */
        uint64_t key[PB_MAX_WORDS + 1];
        pb_position_pack(f, after, key);
        return add_key(R, x->a, key, x->mult);
    }
    x->nout[k]++;
    if (R->visit && R->visit->finish &&
        R->visit->finish(R->visit->ctx, x->thread, f, x->before, after, r, k, R->depth + 1, x->multz)) {
        atomic_store(&R->stop, STOP_VISITOR);
        return 1;
    }
    return 0;
}

/* z = v */
static void set_u128(mpz_t z, pb_u128 v) {
    uint64_t w[2] = {(uint64_t)v, (uint64_t)(v >> 64)};
    mpz_import(z, 2, -1, sizeof w[0], 0, 0, w);
}

/* Adds routes * m(p) to the successor with packed key `key`. */
static int add_successor(route_ctx *x, const uint64_t *key, pb_u128 routes) {
    run *R = x->R;
    pb_fcount c = {0, NULL};
    if (x->mult.big || routes >> 64 || __builtin_mul_overflow(x->mult.small, (uint64_t)routes, &c.small)) {
        set_u128(x->a->succ, routes);
        if (x->mult.big) mpz_mul(x->a->succ, x->a->succ, x->mult.big);
        else {
            mpz_t m;
            mpz_init(m);
            pb_fcount_add_to(m, x->mult);
            mpz_mul(x->a->succ, x->a->succ, m);
            mpz_clear(m);
        }
        c.big = x->a->succ;
    }
    return add_key(R, x->a, key, c);
}

/* `routes` routes of the turn lead to one outcome: the counters, or the
 * successor's count. */
static int add_outcome(route_ctx *x, const uint64_t *key, const pb_route *r, pb_u128 routes) {
    x->nroutes += routes;
    if (r->end == PB_END_NONE) return add_successor(x, key, routes);
    x->nout[pb_enum_classify(r)] += routes;
    return 0;
}

static int on_outcome(void *c, const pb_field *f, const pb_turn_outcome *o) {
    route_ctx *x = c;
    run *R = x->R;
    if (atomic_load_explicit(&R->stop, memory_order_relaxed)) return 1;
    pb_route r = {NULL, 0, o->mover, o->kick, o->end, o->loser};
    const uint64_t *key = o->key;
    (void)f;
    if (o->overflow || o->routes > R->routes_max) {
        thread_acc *a = x->a;
        if (a->novf == a->capovf) {
            size_t cap = a->capovf ? 2 * a->capovf : 4;
            recount *v = realloc(a->ovf, cap * sizeof *v);
            if (!v) {
                atomic_store(&R->stop, STOP_MEMORY);
                return 1;
            }
            a->ovf = v, a->capovf = cap;
        }
        recount *e = &a->ovf[a->novf++];
        memcpy(e->key, key, sizeof(uint64_t) * (size_t)R->kw);
        e->r = r;
        e->routes = 0;
        return 0;
    }
    return add_outcome(x, key, &r, o->routes);
}

/* Route by route: one more route for the recounted outcome it leads to. */
static int recount_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    route_ctx *x = c;
    thread_acc *a = x->a;
    (void)r;
    uint64_t key[PB_MAX_WORDS + 1];
    pb_position_pack(f, after, key);
    for (size_t i = 0; i < a->novf; i++)
        if (!memcmp(a->ovf[i].key, key, sizeof(uint64_t) * (size_t)x->R->kw)) {
            a->ovf[i].routes++;
            break;
        }
    return 0;
}

/* Expands p: every distinct outcome of its turn once, with its number of
 * routes (solver/turnwalk.h), so the cost follows the distinct mid-turn
 * positions, not the routes.  Two routes to the same position after the
 * turn are the same outcome (the walk compares whole positions), so each
 * successor gets m(p) times its number of routes, as route-by-route
 * expansion would give it one route at a time.  An outcome with more
 * routes than 64 bits hold is recounted route by route. */
static void expand_outcomes(route_ctx *x, const pb_position *p) {
    run *R = x->R;
    thread_acc *a = x->a;
    a->novf = 0;
    long n = pb_turn_outcomes(a->tw, p, on_outcome, x);
    if (n == PB_TURNWALK_TOO_BIG) {
        atomic_store(&R->stop, STOP_MEMORY);
        return;
    }
    if (n < 0 || !a->novf) return;
    pb_position q = *p;
    pb_routes_foreach(R->f, &q, recount_route, x);
    for (size_t i = 0; i < a->novf; i++)
        if (add_outcome(x, a->ovf[i].key, &a->ovf[i].r, a->ovf[i].routes)) return;
}

static void report(run *R, int finished_depth) {
    if (!R->o->progress) return;
    double now = omp_get_wtime();
    pb_enum_progress pr;
    pr.depth = finished_depth ? R->depth : R->depth + 1;
    pr.finished_depth = finished_depth;
    /* After a finished depth cur is already F(depth); the pass that built
     * it expanded R->expanded positions.  Within a pass, a racy read of the
     * shard sizes is good enough for a progress line. */
    pr.total = finished_depth ? R->expanded : pb_frontier_size(R->cur);
    pr.done = finished_depth ? pr.total : atomic_load(&R->done);
    pr.positions = finished_depth ? R->positions : pb_frontier_size(R->next);
    pr.seconds = now - R->t0;
    pr.rate = now > R->tpass ? (double)pr.done / (now - R->tpass) : 0;
    pr.memory = atomic_load(&R->mem.used);
    R->o->progress(R->o->progress_ctx, &pr);
    R->tlast = now;
}

/* acc += m * n */
static void add_times(mpz_t acc, mpz_srcptr m, pb_u128 n) {
    if (n <= ULONG_MAX) {
        mpz_addmul_ui(acc, m, (unsigned long)n);
    } else {
        mpz_t t;
        mpz_init(t);
        set_u128(t, n);
        mpz_addmul(acc, m, t);
        mpz_clear(t);
    }
}

/* The pass hands out F(d) in pieces of a shard's slots, PIECES a shard,
 * so that a thread that is late (it saved the checkpoint, or lost its
 * processor) finds work left and the threads finish together: a whole
 * shard of (2;4;4)'s depth 5 takes about a second to expand. */
#define PIECES 64

static pb_enum_status save(run *R, pb_enum_result *res);

/* One parallel pass over F(d): the classes of depth d, the position
 * visitor, and (expand) the routes that build F(d+1) into R->next.  If
 * F(d) is still to be saved, thread 0 saves it first and then joins. */
static void pass(run *R, int expand) {
    const pb_field *f = R->f;
    double every = R->o->progress_every > 0 ? R->o->progress_every : 2.0;
    atomic_store(&R->done, 0);
    R->tpass = R->tlast = omp_get_wtime();
#pragma omp parallel num_threads(R->threads)
    {
        int t = omp_get_thread_num();
        thread_acc *a = &R->acc[t];
        pb_position p;
        if (t == 0 && R->save_pending) {
            /* F(d) is only read during the pass, and the rows 0 .. d are
             * complete but for row d's classes, which the checkpoint does
             * not hold. */
            R->save_status = save(R, R->res);
            R->save_pending = 0;
        }
#pragma omp for schedule(dynamic, 1)
        for (int c = 0; c < PB_FRONTIER_SHARDS * PIECES; c++) {
            const pb_fshard *sh = &R->cur->shard[c / PIECES];
            size_t lo = sh->cap * (size_t)(c % PIECES) / PIECES, hi = sh->cap * (size_t)(c % PIECES + 1) / PIECES;
            uint64_t used = 0;
            for (size_t i = lo; i < hi; i++) {
                if (!pb_frontier_used(R->cur, sh, i)) continue;
                used++;
                if (atomic_load_explicit(&R->stop, memory_order_relaxed)) break;
                if ((R->o->interrupted && *R->o->interrupted) || (R->deadline > 0 && omp_get_wtime() > R->deadline)) {
                    atomic_store(&R->stop, STOP_INTERRUPT);
                    break;
                }
                const uint64_t *key = pb_frontier_key(R->cur, sh, i);
                pb_fcount m = pb_frontier_count(R->cur, sh, i);
                count_classes(R, key, a);
                if (!R->visit && !expand) continue;
                pb_position_unpack(f, key, &p);
                mpz_srcptr mz = NULL;
                if (R->visit) {
                    if (m.big) mz = m.big;
                    else {
                        mpz_set_ui(a->mult, 0);
                        pb_fcount_add_to(a->mult, m);
                        mz = a->mult;
                    }
                    if (R->visit->position && R->visit->position(R->visit->ctx, t, f, &p, R->depth, mz)) {
                        atomic_store(&R->stop, STOP_VISITOR);
                        break;
                    }
                }
                if (!expand) continue;
                route_ctx x = {R, a, t, &p, m, mz, 0, {0}, 0};
                /* A finish visitor is shown every finishing route: those
                 * are listed one by one. */
                if (R->visit && R->visit->finish) pb_routes_foreach(f, &p, on_route, &x);
                else expand_outcomes(&x, &p);
                if (!mz) {
                    mpz_set_ui(a->mult, 0);
                    pb_fcount_add_to(a->mult, m);
                    mz = a->mult;
                }
                add_times(a->seq, mz, x.nroutes);
                for (int k = 0; k < PB_OUT_COUNT; k++)
                    if (x.nout[k]) add_times(a->out[k], mz, x.nout[k]);
            }
            atomic_fetch_add(&R->done, used);
            if (t == 0 && expand && omp_get_wtime() - R->tlast >= every) report(R, 0);
        }
        /* (After the loop's barrier: F(d) is done, the threads add what they hold.) */
        flush(R, a);
    }
}

static void row_init(pb_enum_row *r, int depth) {
    memset(r, 0, sizeof *r);
    r->depth = depth;
    mpz_init(r->sequences);
    mpz_init(r->finished);
    for (int k = 0; k < PB_OUT_COUNT; k++) mpz_init(r->outcome[k]);
}

static void row_clear(pb_enum_row *r) {
    mpz_clear(r->sequences);
    mpz_clear(r->finished);
    for (int k = 0; k < PB_OUT_COUNT; k++) mpz_clear(r->outcome[k]);
}

void pb_enum_result_free(pb_enum_result *res) {
    if (res->rows) {
        for (int d = 0; d < res->rowcap; d++) row_clear(&res->rows[d]);
        free(res->rows);
    }
    mpz_clear(res->games);
    mpz_clear(res->positions);
    memset(res, 0, sizeof *res);
}

/* Adds the per-thread counters of a pass to row d (classes) and, after an
 * expansion, to row d+1 (sequences and outcomes), and clears them. */
static void merge(run *R, pb_enum_row *rd, pb_enum_row *rn) {
    rd->classes_lr = rd->classes_full = 0;
    R->next_movers = 0;
    for (int t = 0; t < R->threads; t++) {
        thread_acc *a = &R->acc[t];
        R->next_movers |= a->movers;
        a->movers = 0;
        rd->classes_lr += a->classes_lr;
        rd->classes_full += a->classes_full;
        a->classes_lr = a->classes_full = 0;
        if (rn) {
            mpz_add(rn->sequences, rn->sequences, a->seq);
            for (int k = 0; k < PB_OUT_COUNT; k++) mpz_add(rn->outcome[k], rn->outcome[k], a->out[k]);
        }
        mpz_set_ui(a->seq, 0);
        for (int k = 0; k < PB_OUT_COUNT; k++) mpz_set_ui(a->out[k], 0);
    }
    rd->classes_known = 1;
    if (R->dist) {
        /* Each class lies on one process (pb_enum_owner), so the sums are
         * the classes of all of F(d). */
        uint64_t c[2] = {rd->classes_lr, rd->classes_full};
        R->dist->sum_u64(R->dist->ctx, c, 2);
        rd->classes_lr = c[0], rd->classes_full = c[1];
        if (rn) {
            R->dist->sum_mpz(R->dist->ctx, &rn->sequences, 1);
            R->dist->sum_mpz(R->dist->ctx, rn->outcome, PB_OUT_COUNT);
        }
    }
    if (rn) {
        mpz_set_ui(rn->finished, 0);
        for (int k = 0; k < PB_OUT_COUNT; k++) mpz_add(rn->finished, rn->finished, rn->outcome[k]);
    }
}

static pb_enum_status fail(pb_enum_result *res, pb_enum_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static pb_enum_status fail(pb_enum_result *res, pb_enum_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->message, sizeof res->message, fmt, ap);
    va_end(ap);
    return st;
}

/* What ran out: the --memory budget when one was given, else the
 * machine's memory (an allocation failed). */
static const char *over_memory(long long budget, char *buf, size_t len) {
    if (budget > 0) snprintf(buf, len, "the memory budget of %lld bytes is exceeded", budget);
    else snprintf(buf, len, "memory ran out");
    return buf;
}

/* ---- pb_enumerate: set up, start or resume, the depth loop, teardown -- */

/* Sets up res (rows 0 .. nsegments + 1, all zero) and R (threads, their
 * counters, the memory budget, the packed root). */
static void run_open(run *R, const pb_field *f, const pb_position *root, const pb_enum_options *o,
                     pb_enum_result *res) {
    memset(res, 0, sizeof *res);
    mpz_init(res->games);
    mpz_init(res->positions);
    res->resumed_from = -1;
    /* Every turn draws at least one segment, so no game is longer than
     * nsegments turns: rows 0 .. nsegments suffice. */
    res->rowcap = f->nsegments + 2;
    res->rows = malloc(sizeof(pb_enum_row) * (size_t)res->rowcap);
    for (int d = 0; d < res->rowcap; d++) row_init(&res->rows[d], d);

    memset(R, 0, sizeof *R);
    R->f = f;
    R->o = o;
    R->visit = o->visit;
    R->dist = o->dist;
    /* Distributed, every process holds the same rows (summed by merge and
     * global_size before a depth is saved) and its own share of F(d): it
     * saves both in a file of its own (save, resume_dist). */
    R->kw = f->nwords + 1;
    R->threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    R->mem.budget = o->memory;
    R->movers = 3;
    R->t0 = omp_get_wtime();
    R->deadline = o->time_limit > 0 ? R->t0 + o->time_limit : 0;
    R->res = res;
    R->acc = aligned_alloc(_Alignof(thread_acc), sizeof(thread_acc) * (size_t)R->threads);
    if (!R->acc) {
        R->threads = 0; /* no pass will run */
        atomic_store(&R->stop, STOP_MEMORY);
    } else memset(R->acc, 0, sizeof(thread_acc) * (size_t)R->threads);
    R->routes_max = o->routes_max ? o->routes_max : UINT64_MAX;
    for (int t = 0; t < R->threads; t++) {
        mpz_init(R->acc[t].seq);
        mpz_init(R->acc[t].mult);
        mpz_init(R->acc[t].succ);
        for (int k = 0; k < PB_OUT_COUNT; k++) mpz_init(R->acc[t].out[k]);
        if (!(R->acc[t].tw = pb_turnwalk_new(f))) atomic_store(&R->stop, STOP_MEMORY);
        else pb_turnwalk_set_keys_only(R->acc[t].tw, 1); /* on_outcome reads keys only */
    }
    R->small_max = o->small_max && o->small_max < PB_FRONTIER_VALUE ? o->small_max : PB_FRONTIER_VALUE;
    pb_position_pack(f, root, R->root_key);
}

/* The path of this process's checkpoint file in slot `slot` (a
 * distributed run) into buf, or the checkpoint path itself. */
static const char *ckpt_path(const run *R, int slot, char *buf, size_t len) {
    if (!R->dist) return R->o->checkpoint;
    pb_ckpt_rank_path(R->o->checkpoint, R->dist->rank, R->dist->nranks, slot, buf, len);
    return buf;
}

/* Saves F(depth) (R->cur) and rows 0 .. depth.  Distributed: this
 * process's share, in the slot of the depth's parity, and every process
 * learns whether all saves succeeded.  Why a kill at any moment leaves a
 * depth every process has saved: slot d & 1 is overwritten (by a temporary
 * file renamed over it) only after every process has saved depth d - 1 in
 * the other slot, for the sum below is collective. */
static pb_enum_status save(run *R, pb_enum_result *res) {
    if (!R->o->checkpoint) return PB_ENUM_OK;
    char err[400] = "", buf[4200];
    const char *path = ckpt_path(R, R->depth & 1, buf, sizeof buf);
    int rc = pb_ckpt_write(path, R->f, R->root_key, R->depth, res->rows, R->cur, err, sizeof err);
    uint64_t bad = rc != 0;
    if (rc == -2 && !R->dist) return fail(res, PB_ENUM_MEMORY, "%s", err);
    if (R->dist) {
        uint64_t any = bad;
        R->dist->sum_u64(R->dist->ctx, &any, 1);
        if (any && !bad)
            snprintf(err, sizeof err, "another process could not write its checkpoint of depth %d", R->depth);
        bad = any;
    }
    return bad ? fail(res, PB_ENUM_IO, "%s", err) : PB_ENUM_OK;
}

/* A distributed resume: the deepest depth that every process has saved
 * (each holds at most two, see save), read by each process from its own
 * file; the shares must add up to the positions of that depth's row. */
static pb_enum_status resume_dist(run *R, pb_enum_result *res, int *depth) {
    const pb_enum_dist *D = R->dist;
    const int K = D->nranks;
    char err[400] = "", buf[4200];
    uint64_t *have = calloc(2 * (size_t)K, sizeof *have);
    if (!have) return fail(res, PB_ENUM_MEMORY, "out of memory while resuming");
    for (int slot = 0; slot < 2; slot++)
        have[2 * D->rank + slot] =
            (uint64_t)(pb_ckpt_depth(ckpt_path(R, slot, buf, sizeof buf), R->f, R->root_key) + 1);
    D->sum_u64(D->ctx, have, 2 * K);
    int best = -1;
    for (int slot = 0; slot < 2; slot++) {
        int c = (int)have[slot] - 1, all = c >= 0;
        for (int r = 1; r < K && all; r++) all = have[2 * r] == (uint64_t)c + 1 || have[2 * r + 1] == (uint64_t)c + 1;
        if (all && c > best) best = c;
    }
    free(have);
    if (best < 0)
        return fail(res, PB_ENUM_BAD_CHECKPOINT,
                    "no depth is saved by all %d processes in %s.*-of-%d.*: resume with the number of processes "
                    "of the run that wrote the checkpoint",
                    K, R->o->checkpoint, K);
    int d = pb_ckpt_read(ckpt_path(R, best & 1, buf, sizeof buf), R->f, R->root_key, D->rank, K, res->rows, res->rowcap,
                         R->cur, err, sizeof err);
    /* Who could not read its file: refused[r] = 1 (bad file) or 2 (memory). */
    uint64_t *refused = calloc((size_t)K, sizeof *refused);
    if (!refused) return fail(res, PB_ENUM_MEMORY, "out of memory while resuming");
    refused[D->rank] = d == -2 ? 2 : d == -1 || (d >= 0 && d != best) ? 1 : 0;
    D->sum_u64(D->ctx, refused, K);
    int who = -1, memory = 0;
    for (int r = 0; r < K; r++) {
        if (refused[r] && who < 0) who = r;
        memory |= refused[r] == 2;
    }
    free(refused);
    if (memory)
        return fail(res, PB_ENUM_MEMORY, "%s while loading the checkpoint",
                    over_memory(R->o->memory, (char[80]){0}, 80));
    if (who >= 0) {
        /* Every process names the first refused file (rank 0 speaks). */
        if (who == D->rank && err[0]) return fail(res, PB_ENUM_BAD_CHECKPOINT, "%s", err);
        pb_ckpt_rank_path(R->o->checkpoint, who, K, best & 1, buf, sizeof buf);
        return fail(res, PB_ENUM_BAD_CHECKPOINT, "bad checkpoint %s: process %d could not read it", buf, who);
    }
    if (global_size(R, R->cur) != res->rows[best].positions)
        return fail(res, PB_ENUM_BAD_CHECKPOINT, "the processes' checkpoints of depth %d do not add up (%s.*-of-%d.*)",
                    best, R->o->checkpoint, K);
    *depth = best;
    return PB_ENUM_OK;
}

/* A fresh start: F(0) = {root} (or no position at all if the root is
 * already over), row 0, and the checkpoint of depth 0. */
static pb_enum_status start(run *R, const pb_position *root, pb_enum_result *res) {
    const pb_field *f = R->f;
    const pb_enum_options *o = R->o;
    pb_enum_row *r0 = &res->rows[0];
    mpz_set_ui(r0->sequences, 1);
    pb_position p = *root;
    if (stuck(f, &p)) {
        /* The game is over before any turn: a finished game of depth 0. */
        mpz_set_ui(r0->outcome[PB_OUT_KICK_DRAW], 1);
        mpz_set_ui(r0->finished, 1);
        if (R->visit && R->visit->finish) {
            mpz_t one;
            mpz_init_set_ui(one, 1);
            pb_route none = {&root->ball, 1, root->to_move ^ 1, 1, PB_END_NO_KICK, PB_NOBODY};
            R->visit->finish(R->visit->ctx, 0, f, root, root, &none, PB_OUT_KICK_DRAW, 0, one);
            mpz_clear(one);
        }
    } else {
        uint64_t refused =
            (!R->dist || pb_enum_owner(f, R->root_key, R->dist->nranks) == R->dist->rank) &&
            pb_frontier_add(R->cur, R->root_key, pb_frontier_hash(R->root_key, R->kw), (pb_fcount){1, NULL}) < 0;
        if (R->dist) R->dist->sum_u64(R->dist->ctx, &refused, 1); /* all stop, or none */
        if (refused) return fail(res, PB_ENUM_MEMORY, "%s at the start", over_memory(o->memory, (char[80]){0}, 80));
    }
    r0->positions = global_size(R, R->cur);
    return save(R, res);
}

/* A resumed start: F(d) and rows 0 .. d from the checkpoint. */
static pb_enum_status resume(run *R, pb_enum_result *res) {
    const pb_enum_options *o = R->o;
    char err[400];
    int d = -1;
    if (R->dist) {
        pb_enum_status st =
            o->checkpoint ? resume_dist(R, res, &d) : fail(res, PB_ENUM_BAD_CHECKPOINT, "resume: no checkpoint named");
        if (st != PB_ENUM_OK) return st;
    } else
        d = pb_ckpt_read(o->checkpoint ? o->checkpoint : "", R->f, R->root_key, 0, 0, res->rows, res->rowcap, R->cur,
                         err, sizeof err);
    if (d == -2)
        return fail(res, PB_ENUM_MEMORY, "%s while loading the checkpoint %s",
                    over_memory(o->memory, (char[80]){0}, 80), o->checkpoint);
    if (d < 0) return fail(res, PB_ENUM_BAD_CHECKPOINT, "%s", err);
    if (o->max_depth >= 0 && d > o->max_depth)
        return fail(res, PB_ENUM_BAD_CHECKPOINT, "the checkpoint %s is at depth %d, beyond the depth asked for",
                    o->checkpoint, d);
    R->depth = d;
    res->resumed_from = d;
    return PB_ENUM_OK;
}

/* The pass over F(d) that (if expand) builds F(d+1) into R->next.  Returns
 * the stop reason agreed by all processes, STOP_NONE if the pass finished. */
static int build_next(run *R, int expand) {
    if (expand) {
        R->next = pb_frontier_new(R->kw, R->small_max, &R->mem);
        if (!R->next) atomic_store(&R->stop, STOP_MEMORY);
    }
    if (!atomic_load(&R->stop)) pass(R, expand);
    if (R->save_pending) { /* no pass ran */
        R->save_status = save(R, R->res);
        R->save_pending = 0;
    }
    int stop = atomic_load(&R->stop);
    if (R->dist) stop = R->dist->exchange(R->dist->ctx, &R->next, stop);
    return stop;
}

/* A pass that stopped: F(d+1) and the rows beyond d are dropped, so res
 * holds the depths finished before. */
static pb_enum_status abandon(run *R, pb_enum_result *res, int stop) {
    pb_frontier_free(R->next);
    R->next = NULL;
    for (int d = R->depth + 1; d < res->rowcap; d++) {
        row_clear(&res->rows[d]);
        row_init(&res->rows[d], d);
    }
    char why[80];
    if (stop == STOP_MEMORY)
        return fail(res, PB_ENUM_MEMORY, "%s while building depth %d; the last finished depth is %d",
                    over_memory(R->o->memory, why, sizeof why), R->depth + 1, R->depth);
    if (stop == STOP_INTERRUPT) {
        /* The flag holds the signal's number when a handler set it. */
        int sig = R->o->interrupted ? (int)*R->o->interrupted : 0;
        return fail(res, PB_ENUM_INTERRUPTED, "%s%s while building depth %d; the last finished depth is %d",
                    sig ? "stopped by " : "", pb_signal_name(sig, "time limit reached"), R->depth + 1, R->depth);
    }
    return fail(res, PB_ENUM_STOPPED, "a visitor stopped the enumeration at depth %d", R->depth);
}

/* F(d+1) becomes the current frontier: its row, its checkpoint, a
 * progress line. */
static pb_enum_status advance(run *R, pb_enum_result *res) {
    R->expanded = res->rows[R->depth].positions;
    pb_frontier_free(R->cur);
    R->cur = R->next;
    R->next = NULL;
    R->depth++;
    R->movers = R->dist ? 3 : R->next_movers; /* a process holds only its share */
    res->rows[R->depth].positions = R->positions = global_size(R, R->cur);
    /* Distributed, the save is collective (all processes learn whether all
     * saved): on the calling thread, before the pass.  Otherwise it runs
     * beside the pass over F(d) (pass), which reads the same tables. */
    if (R->dist) {
        pb_enum_status st = save(R, res);
        if (st != PB_ENUM_OK) return st;
    } else R->save_pending = 1;
    res->last_depth = R->depth;
    report(R, 1);
    return PB_ENUM_OK;
}

/* One depth after another, until the frontier is empty, max_depth is
 * reached, or a pass stops. */
static pb_enum_status depth_loop(run *R, pb_enum_result *res) {
    const pb_enum_options *o = R->o;
    for (;;) {
        pb_enum_row *rd = &res->rows[R->depth];
        rd->positions = global_size(R, R->cur);
        int expand = rd->positions > 0 && (o->max_depth < 0 || R->depth < o->max_depth);
        assert(!expand || R->depth + 1 < res->rowcap);
        int stop = build_next(R, expand);
        if (R->save_status != PB_ENUM_OK) { /* F(d) could not be saved: stop as if before the pass */
            pb_frontier_free(R->next);
            R->next = NULL;
            res->last_depth = R->depth - 1;
            return R->save_status;
        }
        if (stop) return abandon(R, res, stop);
        merge(R, rd, expand ? &res->rows[R->depth + 1] : NULL);
        if (!expand) {
            res->complete = rd->positions == 0;
            return PB_ENUM_OK;
        }
        pb_enum_status st = advance(R, res);
        if (st != PB_ENUM_OK) return st;
    }
}

/* The totals over the finished rows (none if the run never started), the
 * time and memory used; frees the frontiers and the counters. */
static void run_close(run *R, pb_enum_result *res, int started) {
    res->nrows = started ? R->depth + 1 : 0;
    for (int d = 0; d < res->nrows; d++) {
        mpz_add(res->games, res->games, res->rows[d].finished);
        mpz_add_ui(res->positions, res->positions, res->rows[d].positions);
    }
    res->peak_memory = atomic_load(&R->mem.peak);
    res->seconds = omp_get_wtime() - R->t0;
    pb_frontier_free(R->cur);
    pb_frontier_free(R->next);
    for (int t = 0; t < R->threads; t++) {
        mpz_clear(R->acc[t].seq);
        mpz_clear(R->acc[t].mult);
        mpz_clear(R->acc[t].succ);
        for (int k = 0; k < PB_OUT_COUNT; k++) mpz_clear(R->acc[t].out[k]);
        pb_turnwalk_free(R->acc[t].tw);
        free(R->acc[t].ovf);
        for (int s = 0; s < PB_FRONTIER_SHARDS; s++) free(R->acc[t].buf[s].w);
    }
    free(R->acc);
}

pb_enum_status pb_enumerate(const pb_field *f, const pb_position *root, const pb_enum_options *o, pb_enum_result *res) {
    run R;
    run_open(&R, f, root, o, res);
    pb_enum_status st;
    R.cur = pb_frontier_new(R.kw, R.small_max, &R.mem);
    if (!R.cur) st = fail(res, PB_ENUM_MEMORY, "%s at the start", over_memory(o->memory, (char[80]){0}, 80));
    else st = o->resume ? resume(&R, res) : start(&R, root, res);
    int started = st == PB_ENUM_OK;
    if (started) {
        res->last_depth = R.depth;
        st = depth_loop(&R, res);
    }
    if (st == PB_ENUM_OK && res->complete && o->checkpoint && !o->keep_checkpoint) {
        char buf[4200];
        if (R.dist) remove(ckpt_path(&R, 0, buf, sizeof buf));
        remove(ckpt_path(&R, R.dist ? 1 : 0, buf, sizeof buf));
    }
    run_close(&R, res, started);
    return st;
}
