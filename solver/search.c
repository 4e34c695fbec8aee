/* search.c - the exact solver (API in search.h).
 *
 * Algorithm.  Book and hockey are searched one step at a time: a node is a
 * position (drawn segments, ball, player to move), whether between turns or
 * in the middle of a turn, and its children are the free segments at the
 * ball.  A bounce keeps the player to move, so the child's value is taken
 * as it is; a stop passes the turn, so the value is negated; a goal or a
 * dead end is a leaf whose value follows from pb_step's *loser.  Triple is
 * searched a whole ply at a time over pb_routes_foreach (a normal move, or
 * a kick chain chosen by the opponent, after which the stuck player is to
 * move again; no route at all is a finished draw).  Values are -1 / 0 / +1
 * for the player to move; the search is fail-soft alpha-beta in negamax
 * form on that three-valued scale (in book, where there are no draws, the
 * full window (-1, 1) is a null window).
 *
 * Value first: pb_solve searches the root itself with the window (-1, 1),
 * so the search stops at the first winning step (and in hockey and triple
 * as soon as a win is found or every step is proven no better than the
 * draw found).  The first-turn classes (--first-turns) and the routes
 * (--all-routes) are walked only when asked, never stored route by route.
 * The best turn and the line are built step by step from exact values,
 * which the table mostly already holds.
 *
 * Keys.  A position, its left-right mirror image, its top-bottom mirror
 * image with the players swapped, and both mirrors at once have the same
 * value for the player to move (the field, the goals, the setback and
 * every rule are symmetric under both mirrors, and swapping the players
 * with the ends of the field renames the players only; test_mirror_images
 * checks it against the brute force for all three rule sets).  So the
 * table holds each position once, in the orientation whose Zobrist hash is
 * the smallest of the four (ties: the first in the order identity, LR, TB,
 * both): any image of p picks an image of p, and the table compares the
 * whole key in that orientation.  Step search keeps the four orientations'
 * segment sets and hashes up to date step by step (worker.img_*); triple
 * recomputes them at each node.  A stored best step is kept in the key's
 * orientation and mapped back.
 *
 * Why the answers are exact, whatever the table size and thread count:
 *  1. The game graph is acyclic (every step draws a segment), and a
 *     position's value depends on the position alone (segments, ball,
 *     player to move: the same state between turns and mid-turn), never on
 *     the path to it.  So transpositions may share values: there is no
 *     graph-history interaction.  Mirror images share values by the
 *     symmetry above.
 *  2. Fail-soft alpha-beta returns a value v with: v <= alpha implies
 *     value <= v, v >= beta implies value >= v, otherwise value == v.  We
 *     store exactly these bounds (lower, upper or both), classified against
 *     the window actually searched, and merge stored bounds only by taking
 *     the larger lower and the smaller upper bound, so every stored bound
 *     is a theorem about that position.
 *  3. A table entry is found only by its whole key (see tt.h), so a probe
 *     answers only for a position equal to the key asked about: a hash
 *     collision can cost an entry, never a wrong value.
 *  4. With more than one thread the table's buckets are locked, so a
 *     reader never sees a torn entry; threads only ever add proven bounds,
 *     so any interleaving of stores leaves only proven bounds.  Replacement
 *     loses information, never truth, so a tiny table only costs time.
 *  5. A search that is cut short (stop flag, time limit, another thread
 *     finished the same root first) unwinds without storing anything from
 *     the unfinished nodes, and its result is thrown away.  A node that
 *     another thread is working on is put off (returns BUSY, stores
 *     nothing) and searched later in the same node's second pass, so the
 *     schedule changes the order of the work, never what is proven.
 * Hence every value is the same for any table size, thread count and
 * schedule; only node counts vary.  The tests check this against an
 * independent brute force (tests/ref_minimax.c).
 *
 * Threads: every thread searches the same root, sharing the table; a step
 * search node near the root that another thread is in is put off and
 * searched after the node's other steps (ABDADA: "busy" marks in a small
 * shared array of counters, exact whatever they say, because they only
 * reorder the steps).  The first thread to finish gives the value; the
 * others stop.
 */
#include "search.h"

#include <assert.h>
#include <omp.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "images.h"
#include "reach.h"
#include "line.h"
#include "pns.h"
#include "tactics.h"

#define POLL_MASK 4095
#define BUSY 100        /* "another thread is in this node", never a value */
#define BUSY_PLY 24     /* nodes nearer the root than this are marked busy */
#define BUSY_SLOTS 4096 /* busy counters, indexed by the key's hash */

/* What the threads of one solve share (read-only apart from atomics). */
typedef struct shared {
    const pb_field *f;
    pb_tt *tt;
    pb_tactics tac; /* goal steps, "can the mover score?" */
    pb_images im;   /* orientations tried for a key (images.h) */
    int tactics, full_keys;
    int reduce_limit;  /* reduced keys (reach.h): as pb_solve_opts */
    pb_proven *proven; /* saved proofs (proven.h); NULL = none */
    int nthreads;
    atomic_uint busy[BUSY_SLOTS];
    volatile sig_atomic_t *stop;
    double t0, deadline; /* omp_get_wtime; deadline 0 = none */
    uint64_t node_limit; /* halt when the flushed node count reaches it; 0 = none */
    atomic_int halt;     /* the stop flag or the deadline was seen */
    atomic_ullong nodes; /* flushed node counts of all threads */
    FILE *progress;
    double next_report;
    const char *phase;       /* what is being searched, for progress lines */
    const char *class_label; /* proof-number search on one class: its route and the classes done */
    atomic_int classes_done;
    int nclasses;
} shared;

typedef struct worker {
    shared *sh;
    int id;
    uint64_t nodes, flushed, calls;
    pb_tt_stats st;
    atomic_int *job_done; /* abandon the search when set; may be NULL */
    int aborted;
    pb_image_state ims; /* the orientations of the current position */
    pb_reach reach;     /* reduced keys (reach.h) */
} worker;

const char *pb_value_name(int v) {
    return v == PB_WIN ? "win" : v == PB_LOSS ? "loss" : v == PB_DRAW ? "draw" : "unknown";
}

/* The value of a game that ended (a goal or a dead end; *loser of pb_step
 * or pb_route.loser) for player me. */
static int end_value(int loser, int me) { return loser == PB_NOBODY ? PB_DRAW : loser == me ? PB_LOSS : PB_WIN; }

/* ---- keys: the four orientations of a position ---- */

static int shared_init(shared *sh, const pb_field *f, pb_tt *tt, int full_keys) {
    memset(sh, 0, sizeof *sh);
    sh->f = f;
    sh->tt = tt;
    sh->tactics = 1;
    sh->nthreads = 1;
    sh->full_keys = full_keys;
    if (pb_images_init(&sh->im, f) || pb_tactics_init(&sh->tac, f)) return -1;
    atomic_init(&sh->halt, 0);
    atomic_init(&sh->nodes, 0);
    atomic_init(&sh->classes_done, 0);
    for (int i = 0; i < BUSY_SLOTS; i++) atomic_init(&sh->busy[i], 0);
    sh->t0 = omp_get_wtime();
    sh->phase = "the value";
    return 0;
}

static void shared_free(shared *sh) {
    pb_tactics_free(&sh->tac);
    pb_images_free(&sh->im);
}

/* The table key of p: its reduced key when the worker's reduced keys are
 * on and p's reachable part is within their limit (reach.h: it decides the
 * value as the full key does; its words go to rseg, PB_MAX_WORDS words),
 * else its orientation with the smallest hash; *orient receives which. */
static inline pb_tt_key key_of(worker *w, const pb_position *p, int *orient, uint64_t *rseg) {
    pb_image_key ik = pb_images_key(&w->sh->im, &w->ims, p);
    pb_reach_key(&w->reach, &w->sh->im, p, rseg, &ik);
    *orient = ik.orient;
    pb_tt_key key = {ik.hash, ik.seg, ik.bt};
    return key;
}

/* pb_step with the orientations kept up to date. */
static inline pb_step_result step(worker *w, pb_position *p, int d, pb_undo *u, int *loser) {
    int mover = p->to_move;
    pb_step_result r = pb_step(w->sh->f, p, d, u, loser);
    pb_images_step(&w->sh->im, &w->ims, u->ball, d, u->seg, p->to_move != mover);
    return r;
}

static inline void unstep(worker *w, pb_position *p, int d, const pb_undo *u) {
    pb_images_step(&w->sh->im, &w->ims, u->ball, d, u->seg, p->to_move != u->to_move);
    pb_unstep(w->sh->f, p, u);
}

/* ---- progress, stop ---- */

static void report(worker *w, double now) {
    shared *sh = w->sh;
    uint64_t n = atomic_load(&sh->nodes);
    double el = now - sh->t0;
    double fill = pb_tt_fill(sh->tt, (size_t)1 << 14);
    fprintf(sh->progress, "solve: %.1f s, %llu nodes, %.2fM nodes/s, table %.1f%% full, %.0f MiB, %d thread%s on %s",
            el, (unsigned long long)n, el > 0 ? n / el / 1e6 : 0.0, 100.0 * fill,
            (double)pb_tt_bytes_in_use(sh->tt) / (1024.0 * 1024.0), sh->nthreads, sh->nthreads == 1 ? "" : "s",
            sh->phase);
    if (sh->nclasses) fprintf(sh->progress, " (classes %d/%d done)", atomic_load(&sh->classes_done), sh->nclasses);
    fputc('\n', sh->progress);
    fflush(sh->progress);
}

/* Every POLL_MASK+1 calls: publish the node count, look at the stop flag,
 * the clock and the job, print progress (thread 0). */
static void poll(worker *w) {
    shared *sh = w->sh;
    atomic_fetch_add(&sh->nodes, w->nodes - w->flushed);
    w->flushed = w->nodes;
    if (sh->stop && *sh->stop) atomic_store(&sh->halt, 1);
    double now = omp_get_wtime();
    if (sh->deadline > 0 && now > sh->deadline) atomic_store(&sh->halt, 1);
    if (sh->node_limit && atomic_load(&sh->nodes) >= sh->node_limit) atomic_store(&sh->halt, 1);
    if (atomic_load(&sh->halt) || (w->job_done && atomic_load(w->job_done))) w->aborted = 1;
    if (w->id == 0 && sh->progress && now >= sh->next_report) {
        sh->next_report = now + 2.0;
        report(w, now);
    }
}

/* ---- step search (book, hockey) ---- */

/* Looks key k up and narrows the window (*alpha, *beta) to the proven
 * bounds; returns 1 with *cut set when the bounds alone answer the search
 * (fail-soft: the bound that decides it), else 0.  *ttbest gets the stored
 * best direction (in the key's orientation) on a hit. */
static inline int probe(worker *w, const pb_tt_key *k, int *alpha, int *beta, int *ttbest, int *cut) {
    int lo, hi;
    if (!pb_tt_probe(w->sh->tt, k, &lo, &hi, ttbest, &w->st)) return 0;
    return pb_bounds_cut(lo, hi, alpha, beta, cut); /* proven.h */
}

static inline atomic_uint *busy_slot(worker *w, uint64_t hash) { return &w->sh->busy[(hash >> 40) % BUSY_SLOTS]; }

/* Stores the bounds slo <= value <= shi proven for p under key, with the
 * best step (key_dir in the key's orientation, dir in p's; 8 = none) and
 * the work below: in the table, and in the saved proofs when kept. */
static inline void store_proven(worker *w, const pb_tt_key *key, const pb_position *p, int slo, int shi, int key_dir,
                                int dir, uint64_t work) {
    pb_tt_store(w->sh->tt, key, slo, shi, key_dir, work, &w->st);
    if (w->sh->proven) pb_proven_note(w->sh->proven, p, slo, shi, dir, work); /* proven node reported here */
}

/* The free steps at p's ball in search order: bounces first (the mover
 * keeps the ball), then forward steps, each child's table bucket loaded
 * while the others are looked at.  Goals are not listed: a step into the
 * opponent's goal wins the node at once (returns -1); an own goal is lost,
 * kept in *best / *bestd as a last resort.  Returns how many were listed. */
static inline int list_steps(worker *w, const pb_position *p, int dirs[8], int *best, int *bestd) {
    const shared *sh = w->sh;
    const pb_field *f = sh->f;
    const int me = p->to_move, ball = p->ball;
    const int8_t *so = sh->tac.score_owner[ball];
    /* Sorted here and copied out once: sorting through the dirs pointer
     * made gcc's loop 2% of the solve's instructions slower (callgrind). */
    int order[8], score[8], n = 0;
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, p, ball, d)) continue;
        if (so[d] == (me ^ 1)) return -1;
        if (so[d] == me) {
            *best = PB_LOSS, *bestd = d;
            continue;
        }
        int t = pb_step_to(f, ball, d), fwd = me == PB_TOP ? -pb_dir_dy[d] : pb_dir_dy[d];
        int bounce = pb_occupied(f, p, t);
        pb_tt_prefetch(sh->tt, pb_images_child_hash(&sh->im, &w->ims, p, d, !bounce));
        int sc = (bounce ? 8 : 0) + fwd;
        int k = n++;
        while (k > 0 && score[k - 1] < sc) order[k] = order[k - 1], score[k] = score[k - 1], k--;
        order[k] = d, score[k] = sc;
    }
    memcpy(dirs, order, sizeof order);
    return n;
}

/* Moves direction first (the table's best step, 8 = none) to the front of
 * dirs[0..n), the others keeping their order: the step that refuted this
 * node last time most often refutes it again. */
static inline void put_first(int *dirs, int n, int first) {
    if (first >= 8) return;
    for (int k = 1; k < n; k++)
        if (dirs[k] == first) {
            memmove(dirs + 1, dirs, sizeof(int) * (size_t)k);
            dirs[0] = first;
            return;
        }
}

/* ABDADA's mark on a node near the root while several threads search:
 * returns the node's busy counter, raised (NULL: not marked); sets *put_off
 * instead when exclusive and another thread is in the node already. */
static inline atomic_uint *busy_enter(worker *w, uint64_t hash, int ply, int exclusive, int *put_off) {
    *put_off = 0;
    if (w->sh->nthreads == 1 || ply >= BUSY_PLY) return NULL;
    atomic_uint *busy = busy_slot(w, hash);
    if (exclusive && atomic_load_explicit(busy, memory_order_relaxed)) {
        *put_off = 1;
        return NULL;
    }
    atomic_fetch_add_explicit(busy, 1, memory_order_relaxed);
    return busy;
}

static int search_steps(worker *w, pb_position *p, int alpha, int beta, int ply, int exclusive, int turn_start);

/* The value for p's mover me of step d from p, searched with the window
 * (alpha, beta); BUSY if the child was put off (excl: another thread is in
 * it).  A bounce keeps the mover, so the child's value is taken as it is; a
 * stop passes the turn, so it is negated. */
static inline int step_value(worker *w, pb_position *p, int me, int d, int alpha, int beta, int ply, int excl) {
    int loser, v;
    pb_undo u;
    pb_step_result r = step(w, p, d, &u, &loser);
    w->nodes++;
    switch (r) {
        case PB_STEP_STOP:
            v = search_steps(w, p, -beta, -alpha, ply + 1, excl, 1);
            if (v != BUSY) v = -v;
            break;
        case PB_STEP_BOUNCE: v = search_steps(w, p, alpha, beta, ply + 1, excl, 0); break;
        case PB_STEP_GOAL: v = loser == me ? PB_LOSS : PB_WIN; break;
        default: v = end_value(loser, me); break;
    }
    unstep(w, p, d, &u);
    return v;
}

/* Searches the steps dirs[0..n) of p in order until one reaches beta,
 * raising *best and *bestd.  Pass 0 takes every step, putting off (when the
 * node is marked busy) those after the first that another thread is in;
 * pass 1 searches the ones put off.  Marks only change the order, never
 * what is searched. */
static inline void search_children(worker *w, pb_position *p, const int *dirs, int n, int marked, int alpha, int beta,
                                   int ply, int *best, int *bestd) {
    const int me = p->to_move;
    int deferred[8], ndef = 0;
    for (int pass = 0; pass < 2; pass++) {
        int m = pass ? ndef : n;
        for (int k = 0; k < m && alpha < beta; k++) {
            int d = pass ? deferred[k] : dirs[k];
            int v = step_value(w, p, me, d, alpha, beta, ply, marked && !pass && k > 0);
            if (w->aborted) break;
            if (v == BUSY) {
                deferred[ndef++] = d;
                continue;
            }
            if (v > *best) {
                *best = v, *bestd = d;
                if (v > alpha) alpha = v;
            }
        }
        if (w->aborted || !ndef) break;
    }
}

/* Stores what a finished search of p proved, best found with the window
 * (a0, b0): fail-soft bounds (point 2 at the top), the best step dir in p's
 * orientation and key_dir in the key's (8: none), and the work below. */
static inline void store_bounds(worker *w, const pb_tt_key *key, const pb_position *p, int a0, int b0, int best,
                                int key_dir, int dir, uint64_t work) {
    int slo = best >= b0 ? best : best > a0 ? best : -1;
    int shi = best <= a0 ? best : best < b0 ? best : 1;
    store_proven(w, key, p, slo, shi, key_dir, dir, work);
}

/* The value of p for its player to move, searched with the window
 * (alpha, beta), -1 <= alpha < beta <= 1, fail-soft.  Book and hockey.
 * exclusive: answer BUSY at once if another thread is in this node.
 * Contract: p (and the worker's orientations) are restored on return; if
 * w->aborted is set on return the result means nothing and nothing
 * unproven was stored. */
static int search_steps(worker *w, pb_position *p, int alpha, int beta, int ply, int exclusive, int turn_start) {
    const shared *sh = w->sh;
    int dirs[8], best = -2, bestd = 8;
    assert(-1 <= alpha && alpha < beta && beta <= 1);
    int n = list_steps(w, p, dirs, &best, &bestd);
    if (n < 0) { /* a goal into the opponent's goal */
        w->nodes++;
        return PB_WIN;
    }
    assert(n > 0 || best == PB_LOSS);
    if (n == 0) return best;
    if ((++w->calls & POLL_MASK) == 0) poll(w);
    if (w->aborted) return 0;
    int orient, ttbest = 8, cut;
    uint64_t rseg[PB_MAX_WORDS];
    pb_tt_key key = key_of(w, p, &orient, rseg);
    if (probe(w, &key, &alpha, &beta, &ttbest, &cut)) return cut;
    if (sh->proven && pb_proven_cut(sh->proven, p, &alpha, &beta, &cut)) return cut; /* saved proofs consulted here */
    ttbest = pb_dir_img(orient, ttbest);
    if (sh->tactics && turn_start) {
        int budget = PB_SCORE_BUDGET;
        if (pb_can_score(&sh->tac, p, &budget, NULL, 0, NULL)) return PB_WIN;
    }
    int put_off;
    atomic_uint *busy = busy_enter(w, key.hash, ply, exclusive, &put_off);
    if (put_off) return BUSY;
    put_first(dirs, n, ttbest);
    const uint64_t nodes0 = w->nodes;
    search_children(w, p, dirs, n, busy != NULL, alpha, beta, ply, &best, &bestd);
    if (busy) atomic_fetch_sub_explicit(busy, 1, memory_order_relaxed);
    if (w->aborted) return 0;
    store_bounds(w, &key, p, alpha, beta, best, pb_dir_img(orient, bestd), bestd, w->nodes - nodes0);
    return best;
}

/* ---- ply search (triple) ---- */

static int search_turns(worker *w, pb_position *p, int alpha, int beta);

typedef struct turn_ctx {
    worker *w;
    int me, alpha, beta, best_max, best_min, nmax, nmin;
} turn_ctx;

static int turn_child(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    turn_ctx *c = ctx;
    worker *w = c->w;
    (void)f;
    w->nodes++;
    int mine = r->mover == c->me, v;
    if (r->end != PB_END_NONE) v = end_value(r->loser, c->me);
    else if (after->to_move == c->me) v = search_turns(w, after, c->alpha, c->beta);
    else v = -search_turns(w, after, -c->beta, -c->alpha);
    if (w->aborted) return 1;
    if (mine) {
        c->nmax++;
        if (v > c->best_max) c->best_max = v;
        if (v > c->alpha) c->alpha = v;
    } else { /* the opponent's kick: the minimum counts */
        c->nmin++;
        if (v < c->best_min) c->best_min = v;
        if (v < c->beta) c->beta = v;
    }
    return c->alpha >= c->beta;
}

static int search_turns(worker *w, pb_position *p, int alpha, int beta) {
    if ((++w->calls & POLL_MASK) == 0) poll(w);
    if (w->aborted) return 0;
    int orient, ttbest = 8, cut;
    pb_images_reset(&w->sh->im, &w->ims, p);
    uint64_t seg[PB_MAX_WORDS];
    pb_tt_key key = key_of(w, p, &orient, seg);
    /* The key may point into the worker's orientations, which the children
     * overwrite: keep a copy of the segments for the store. */
    if (orient && key.seg != seg) memcpy(seg, key.seg, sizeof(uint64_t) * (size_t)w->sh->f->nwords), key.seg = seg;
    if (probe(w, &key, &alpha, &beta, &ttbest, &cut)) return cut;
    if (w->sh->proven && pb_proven_cut(w->sh->proven, p, &alpha, &beta, &cut))
        return cut; /* saved proofs consulted here */
    const uint64_t nodes0 = w->nodes;
    turn_ctx c = {w, p->to_move, alpha, beta, -2, 2, 0, 0};
    long n = pb_routes_foreach(w->sh->f, p, turn_child, &c);
    if (w->aborted) return 0;
    int best;
    if (n == 0) best = PB_DRAW; /* the stuck player's opponent has no kick */
    else {
        /* Plies are all moves of the player to move or all kicks of the
         * opponent (docs/rules.md §3); a mixed list would be a model error. */
        assert(c.nmax == 0 || c.nmin == 0);
        best = c.nmax ? c.best_max : c.best_min;
    }
    /* Max node and min node alike (the min node's cutoffs fail low):
     * fail-soft bounds against the window searched; no ply at all is a
     * finished draw, exact. */
    if (n == 0) store_proven(w, &key, p, PB_DRAW, PB_DRAW, 8, 8, w->nodes - nodes0);
    else store_bounds(w, &key, p, alpha, beta, best, 8, 8, w->nodes - nodes0);
    return best;
}

/* The exact value of p for its player to move (p restored). */
static int value_of(worker *w, pb_position *p) {
    if (!pb_turns_are_steps(w->sh->f)) return search_turns(w, p, -1, 1); /* triple: whole plies */
    pb_images_reset(&w->sh->im, &w->ims, p);
    return search_steps(w, p, -1, 1, 0, 0, 1);
}

static void worker_init(worker *w, shared *sh, int id) {
    memset(w, 0, sizeof *w);
    w->sh = sh;
    w->id = id;
    /* Alpha-beta keys in full unless asked: it computes a key once per
     * node, and on the (2;8;10) endgames the fills cost more than the
     * merged nodes save (docs/solver.md, "Reduced keys"). */
    pb_reach_init(&w->reach, sh->f, sh->reduce_limit ? sh->reduce_limit : -1);
}

/* ---- the best route from a position (best turn, line, hints) ---- */

/* pb_value_fn over the worker's search (line.h). */
static int worker_value(void *ctx, pb_position *q) {
    worker *w = ctx;
    int v = value_of(w, q);
    return w->aborted ? PB_UNKNOWN : v;
}

static int best_route(worker *w, pb_position *q, int v, int16_t *nodes, int cap, int *kick) {
    int len = pb_line_route(w->sh->f, &w->sh->tac, worker_value, w, q, v, nodes, cap, kick);
    return w->aborted ? 0 : len;
}

/* ---- first-turn classes ---- */

/* The positions after the classes' first routes, each in its left-right
 * orientation of smaller hash, in an open-addressing set of whole keys. */
typedef struct class_set {
    int kw;
    size_t cap, n;  /* slots (a power of two), used */
    uint64_t *keys; /* cap * (kw + 1) words: hash, segments, ball | to move */
} class_set;

typedef struct class_ctx {
    const pb_field *f;
    pb_solve_result *r;
    class_set set;
    size_t max_bytes, bytes;
    int me, full;
    uint64_t self_mirror; /* routes that are their own mirror image */
    int (*keep_going)(void *);
    void *ctx;
    pb_position m;
} class_ctx;

/* Looks the key (hash h, segments seg, word bt) up: returns 1 with *idx
 * the class's index if it was there, 0 if added with index idx_new, -1 if
 * the set may not grow. */
static int class_add(class_ctx *c, uint64_t h, const uint64_t *seg, uint64_t bt, int idx_new, int *idx) {
    class_set *s = &c->set;
    const size_t ew = (size_t)s->kw + 2; /* hash, segments, bt, index */
    if (2 * (s->n + 1) > s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 1024, grow = ncap * ew * sizeof(uint64_t);
        if (c->bytes + grow > c->max_bytes) return -1;
        uint64_t *nk = calloc(ncap * ew, sizeof(uint64_t));
        if (!nk) return -1;
        for (size_t i = 0; i < s->cap; i++) {
            const uint64_t *o = s->keys + i * ew;
            if (!o[s->kw]) continue;
            size_t j = (size_t)(o[0] * 0x9e3779b97f4a7c15ULL >> 20) & (ncap - 1);
            while (nk[j * ew + (size_t)s->kw]) j = (j + 1) & (ncap - 1);
            memcpy(nk + j * ew, o, sizeof(uint64_t) * ew);
        }
        free(s->keys);
        c->bytes += grow - s->cap * ew * sizeof(uint64_t);
        s->keys = nk, s->cap = ncap;
    }
    int nw = s->kw - 1;
    size_t j = (size_t)(h * 0x9e3779b97f4a7c15ULL >> 20) & (s->cap - 1);
    for (;; j = (j + 1) & (s->cap - 1)) {
        uint64_t *e = s->keys + j * ew;
        if (!e[s->kw]) { /* bt has a marker bit, so 0 = empty */
            e[0] = h;
            memcpy(e + 1, seg, sizeof(uint64_t) * (size_t)nw);
            e[s->kw] = bt;
            e[s->kw + 1] = (uint64_t)idx_new;
            s->n++;
            return 0;
        }
        if (e[0] == h && e[s->kw] == bt && !memcmp(e + 1, seg, sizeof(uint64_t) * (size_t)nw)) {
            *idx = (int)e[s->kw + 1];
            return 1;
        }
    }
}

static int class_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *rt) {
    class_ctx *c = ctx;
    pb_solve_result *r = c->r;
    if ((++r->nroutes & 1023) == 0 && c->keep_going && !c->keep_going(c->ctx)) {
        r->stopped = 1;
        return 1;
    }
    /* Route classes: a route and its mirror route are two routes of one
     * class, a route on the centre line its own class. */
    int self = 1;
    for (int i = 0; self && i < rt->len; i++) self = f->mirror_lr[rt->nodes[i]] == rt->nodes[i];
    c->self_mirror += self;
    /* The class key: after or its left-right image, whichever hashes
     * lower (mirror images have equal values, see the top of this file). */
    const pb_position *k = after;
    if (!c->full) {
        pb_position_mirror(f, after, &c->m, 1, 0);
        if (c->m.hash < after->hash) k = &c->m;
    }
    uint64_t bt = (uint64_t)(uint16_t)k->ball | (uint64_t)k->to_move << 16 | 1ULL << 20;
    int idx = -1, seen = class_add(c, k->hash, k->seg, bt, r->nturns, &idx);
    if (seen < 0) {
        r->overflow = 1;
        return 1;
    }
    if (seen) {
        r->turns[idx].routes++;
        return 0;
    }
    size_t need = sizeof(pb_solve_turn) + sizeof(int16_t) * (size_t)rt->len;
    if (c->bytes + need > c->max_bytes) {
        r->overflow = 1;
        return 1;
    }
    if ((r->nturns & (r->nturns - 1)) == 0) {
        pb_solve_turn *nt = realloc(r->turns, sizeof *nt * (size_t)(r->nturns ? 2 * r->nturns : 1));
        if (!nt) {
            r->overflow = 1;
            return 1;
        }
        r->turns = nt;
    }
    pb_solve_turn *t = &r->turns[r->nturns];
    memset(t, 0, sizeof *t);
    t->nodes = pb_nodes_dup(rt->nodes, rt->len);
    if (!t->nodes) {
        r->overflow = 1;
        return 1;
    }
    r->nturns++;
    c->bytes += need;
    t->len = rt->len, t->kick = rt->kick, t->end = rt->end, t->mover = rt->mover;
    t->value = rt->end == PB_END_NONE ? PB_UNKNOWN : end_value(rt->loser, c->me);
    t->routes = 1;
    return 0;
}

int pb_solve_root_turns(const pb_field *f, const pb_position *p, size_t max_bytes, int (*keep_going)(void *), void *ctx,
                        pb_solve_result *r) {
    class_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        r->overflow = 1;
        return -1;
    }
    c->f = f, c->r = r, c->me = p->to_move;
    c->max_bytes = max_bytes ? max_bytes : PB_SOLVE_CLASS_BYTES;
    c->set.kw = f->nwords + 1;
    c->keep_going = keep_going, c->ctx = ctx;
    pb_position_mirror(f, p, &c->m, 1, 0);
    r->mirror_lr = pb_position_equal(f, p, &c->m);
    pb_position root = *p;
    pb_routes_foreach(f, &root, class_route, c);
    r->nroute_classes = r->mirror_lr ? (r->nroutes + c->self_mirror) / 2 : r->nroutes;
    free(c->set.keys);
    free(c);
    return r->overflow || r->stopped ? -1 : 0;
}

void pb_solve_combine(const pb_position *p, pb_solve_result *r) {
    int me = p->to_move, unknown = 0, vmax = -2, vmin = 2, nmine = 0;
    r->nsolved_classes = 0;
    for (int i = 0; i < r->nturns; i++) {
        const pb_solve_turn *t = &r->turns[i];
        if (t->value == PB_UNKNOWN) {
            unknown++;
            continue;
        }
        r->nsolved_classes++;
        if (t->mover == me) {
            nmine++;
            if (t->value > vmax) vmax = t->value;
        } else if (t->value < vmin) vmin = t->value;
    }
    int whole = !r->overflow && !r->stopped;
    r->value = PB_UNKNOWN;
    if (whole && r->nturns == 0) r->value = PB_DRAW;
    else if (whole && unknown == 0) r->value = nmine ? vmax : vmin;
    else if (nmine && vmax == PB_WIN) r->value = PB_WIN;
    else if (!nmine && vmin == PB_LOSS && r->nturns && r->turns[0].mover != me) r->value = PB_LOSS;
}

const char pb_solve_pv_kind[] =
    "a line of perfect play, not necessarily the shortest win or longest loss: each side keeps the value; "
    "the winner scores in its turn when it can; otherwise each step is the first in direction order that "
    "keeps the value (with --algo pn the first its table already proves to, if any), the winner preferring "
    "a step that ends the game, the other side one that does not (triple: whole plies, the first in "
    "generation order)";

void pb_solve_line(const pb_field *f, const pb_position *p, pb_solve_result *r, pb_solve_next_route next, void *ctx,
                   int max_turns) {
    assert(r->npv == 0);
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    pb_route info;
    char err[256];
    int cap = f->nsegments + 2, pvcap = 16;
    int16_t *buf = malloc(sizeof(int16_t) * (size_t)cap);
    r->pv = malloc(sizeof *r->pv * (size_t)pvcap);
    for (;;) {
        int kick, len = next(ctx, q, buf, cap, &kick);
        if (len == 0) break;
        if (pb_route_play(f, q, buf, len, kick, &info, err, sizeof err)) break;
        if (r->npv == pvcap) r->pv = realloc(r->pv, sizeof *r->pv * (size_t)(pvcap *= 2));
        pb_pv_turn *pt = &r->pv[r->npv++];
        pt->nodes = pb_nodes_dup(buf, len);
        pt->len = len, pt->kick = kick;
        if (info.end != PB_END_NONE || (max_turns > 0 && r->npv >= max_turns)) break;
    }
    free(buf);
    free(q);
}

/* The next turn of a line: a best route on worker ctx. */
static int line_next(void *ctx, pb_position *q, int16_t *nodes, int cap, int *kick) {
    worker *w = ctx;
    int v = value_of(w, q);
    if (w->aborted) return 0;
    int len = best_route(w, q, v, nodes, cap, kick);
    return w->aborted ? 0 : len;
}

/* ---- the root ---- */

/* The value of p with every thread on it (ABDADA, see the top); PB_UNKNOWN
 * if stopped. */
static int parallel_value(shared *sh, worker *ws, int nthreads, const pb_position *p) {
    atomic_int done;
    atomic_init(&done, 0);
    sh->nthreads = nthreads;
#pragma omp parallel num_threads(nthreads)
    {
        worker *w = &ws[omp_get_thread_num()];
        pb_position *q = malloc(sizeof *q);
        *q = *p;
        w->aborted = 0;
        w->job_done = nthreads > 1 ? &done : NULL;
        int v = value_of(w, q);
        if (!w->aborted) {
            int expected = 0;
            if (!atomic_compare_exchange_strong(&done, &expected, v + 2))
                assert(expected == v + 2); /* two exact searches agree */
        }
        w->job_done = NULL;
        free(q);
    }
    sh->nthreads = 1;
    int d = atomic_load(&done);
    return d ? d - 2 : PB_UNKNOWN;
}

static int keep_going(void *ctx) {
    worker *w = ctx;
    poll(w);
    return !atomic_load(&w->sh->halt);
}

typedef struct routes_ctx {
    pb_value_fn value;
    void *vctx;
    int me;
    pb_solve_route_fn fn;
    void *ctx;
    int stopped;
} routes_ctx;

static int route_out(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    routes_ctx *c = ctx;
    (void)f;
    int v = r->end != PB_END_NONE ? end_value(r->loser, c->me) : c->value(c->vctx, after);
    if (v == PB_UNKNOWN) return c->stopped = 1;
    if (r->end == PB_END_NONE && after->to_move != c->me) v = -v;
    if (c->fn(c->ctx, r, v)) return c->stopped = 1;
    return 0;
}

int pb_reachable_segments(const pb_field *f, const pb_position *p) {
    uint8_t *seen = calloc((size_t)f->nlattice, 1);
    int16_t *stack = malloc(sizeof(int16_t) * (size_t)f->nlattice);
    int n = 0, top = 0;
    stack[top++] = p->ball;
    seen[p->ball] = 1;
    while (top) {
        int i = stack[--top];
        for (int d = 0; d < 8; d++) {
            if (!pb_free(f, p, i, d)) continue;
            int j = pb_step_to(f, i, d);
            if (i < j) n++; /* both ends get expanded: count from the lower one */
            if (!seen[j]) seen[j] = 1, stack[top++] = (int16_t)j;
        }
    }
    free(seen);
    free(stack);
    return n;
}

/* (search.h) */
size_t pb_solve_default_hash(const pb_field *f, const pb_position *p) {
    int k = pb_reachable_segments(f, p);
    return k <= 48 ? (size_t)1 << 20 : k <= 96 ? (size_t)8 << 20 : PB_SOLVE_DEFAULT_HASH;
}

/* The method that proves values for pb_solve: alpha-beta on the threads,
 * or proof-number search (one thread) kept between questions. */
typedef struct prover {
    shared *sh;
    worker *ws;
    int nthreads;
    pb_pns *pn;
    pb_pns_opts po;      /* how pn was made (more are made alike for threads) */
    uint64_t gone_nodes; /* nodes of the threads' searches already freed */
    uint64_t gone_probes, gone_hits, gone_stores, gone_replaced, gone_inserted; /* their table use */
} prover;

/* pb_value_fn of a prover: exact, or PB_UNKNOWN once the solve stops. */
static int prove(void *ctx, pb_position *q) {
    prover *pv = ctx;
    if (!pv->pn) {
        int v = parallel_value(pv->sh, pv->ws, pv->nthreads, q);
        return atomic_load(&pv->sh->halt) ? PB_UNKNOWN : v;
    }
    pb_pns_set_label(pv->pn, pv->sh->class_label ? pv->sh->class_label : pv->sh->phase);
    int v = pb_pns_solve(pv->pn, q);
    if (v == PB_UNKNOWN) atomic_store(&pv->sh->halt, 1);
    return v;
}

/* Nodes searched so far by every thread and the proof-number search. */
static uint64_t prover_nodes(const prover *pv) {
    uint64_t n = 0;
    for (int k = 0; k < pv->nthreads; k++) n += pv->ws[k].nodes;
    n += pv->gone_nodes;
    if (pv->pn) {
        pb_pns_stats st;
        pb_pns_get_stats(pv->pn, &st);
        n += st.nodes;
    }
    return n;
}

/* pb_value_fn of a prover's table alone (proof-number search). */
static int prover_known(void *ctx, pb_position *q) { return pb_pns_known(((prover *)ctx)->pn, q); }

/* pb_solve_next_route of a prover: the line's next turn. */
static int prover_next(void *ctx, pb_position *q, int16_t *nodes, int cap, int *kick) {
    prover *pv = ctx;
    if (!pv->pn) return line_next(&pv->ws[0], q, nodes, cap, kick);
    int v = prove(pv, q);
    if (v == PB_UNKNOWN) return 0;
    return pb_line_route_known(pv->sh->f, pb_pns_tactics(pv->pn), prove, prover_known, pv, q, v, nodes, cap, kick);
}

/* The searches of a solve's threads, one each, all on the table of
 * pv->pn (thread 0's search); NULL where memory is short. */
static pb_pns **pn_team(prover *pv, const pb_position *p) {
    pb_pns **pns = calloc((size_t)pv->nthreads, sizeof *pns);
    if (!pns) return NULL;
    pb_pns_opts o = pv->po;
    o.progress = NULL; /* thread 0 reports */
    pns[0] = pv->pn;
    for (int id = 1; id < pv->nthreads; id++) pns[id] = pb_pns_new_sharing(pv->pn, p, &o);
    return pns;
}

/* Frees the searches of pn_team but thread 0's (pv->pn), keeping their
 * node counts. */
static void pn_team_free(prover *pv, pb_pns **pns) {
    for (int id = 0; id < pv->nthreads; id++) {
        if (!pns[id]) continue;
        pb_pns_set_cancel(pns[id], NULL);
        if (id == 0) continue;
        pb_pns_stats st;
        pb_pns_get_stats(pns[id], &st);
        pv->gone_nodes += st.nodes;
        pv->gone_probes += st.probes, pv->gone_hits += st.hits, pv->gone_stores += st.stores;
        pv->gone_replaced += st.replaced, pv->gone_inserted += st.peak_used;
        pb_pns_free(pns[id]);
    }
    free(pns);
}

/* Proves the class of turn t (q: room for the position after it) on
 * search x; returns its value for p's player to move, or PB_UNKNOWN, with
 * the nodes and seconds it took. */
static int pn_class(pb_pns *x, const pb_field *f, const pb_position *p, const pb_solve_turn *t, pb_position *q,
                    uint64_t *nodes, double *seconds) {
    *nodes = 0, *seconds = 0;
    *q = *p;
    pb_route info;
    char err[256];
    if (pb_route_play(f, q, t->nodes, t->len, t->kick, &info, err, sizeof err)) return PB_UNKNOWN;
    pb_pns_stats s0, s1;
    pb_pns_get_stats(x, &s0);
    char label[96];
    pb_pns_set_label(x, pb_route_format(f, t->nodes, t->len, t->kick, label, sizeof label));
    double t0 = omp_get_wtime();
    int v = pb_pns_solve(x, q);
    pb_pns_get_stats(x, &s1);
    *nodes = s1.nodes - s0.nodes;
    *seconds = omp_get_wtime() - t0;
    if (v == PB_UNKNOWN && s1.stopped != 5) return -2; /* stopped: time, stop flag, memory */
    return v == PB_UNKNOWN ? v : q->to_move == p->to_move ? v : -v;
}

/* The class a thread takes next: the next one not yet dealt; -1 once
 * every class is dealt.  A thread out of work then searches no class of
 * its own, nor another thread's from its root (slower on an idle machine,
 * docs/solver.md); with two threads where turns are steps it has the
 * other hand its class over to the team of both (pn_classes). */
static int pn_next_class(atomic_int *next, int n) {
    int i = atomic_fetch_add(next, 1);
    return i < n ? i : -1;
}

/* Proof-number search on several threads: the first-turn classes of p
 * dealt to the threads, each with its own search on the one shared table,
 * a crew (pns.h): the table grows as one thread's does, each class whose
 * question was given up for a growth asked again after it.  A class's
 * value does not depend on which thread proves it, nor on what the table
 * holds, so neither does any answer.  pv->pn, thread 0's search, stays
 * the solve's search: the table it shares holds every proof, which the
 * line reuses.
 *
 * With two threads where turns are steps (book, hockey), the first thread
 * out of classes asks the other to hand its class over (handoff, the
 * other's cancel flag): that one gives its question up at its next poll
 * (its proofs and numbers stay in the table) and the class is returned,
 * to be proven by the team, the two threads together (prove_team), where
 * the one thread would otherwise finish it alone.  Returns that class, or
 * -1.  Handing over changes who searches, never what is proven. */
static int pn_classes(prover *pv, const pb_field *f, const pb_position *p, pb_solve_result *r) {
    pb_pns **pns = pn_team(pv, p);
    pb_pns_crew *crew = pns ? pb_pns_crew_new(pv->pn) : NULL;
    atomic_int next, handoff, left;
    atomic_init(&next, 0);
    atomic_init(&handoff, 0);
    atomic_init(&left, -1);
    const int hand = pv->nthreads == 2 && pb_turns_are_steps(f);
    if (!crew) {
        if (pns) pn_team_free(pv, pns);
        return -1;
    }
    if (hand)
        for (int id = 0; id < pv->nthreads; id++)
            if (pns[id]) pb_pns_set_cancel(pns[id], &handoff);
#pragma omp parallel num_threads(pv->nthreads)
    {
        pb_pns *x = pns[omp_get_thread_num()];
        pb_position *q = malloc(sizeof *q);
        if (x && q) pb_pns_crew_join(x, crew);
        for (int i; x && q && !atomic_load(&pv->sh->halt) && (i = pn_next_class(&next, r->nturns)) >= 0;) {
            pb_solve_turn *t = &r->turns[i];
            if (t->end != PB_END_NONE) continue; /* a turn that ends the game is no question */
            uint64_t nodes = 0, n;
            double seconds = 0, sec;
            int v;
            do {
                v = pn_class(x, f, p, t, q, &n, &sec);
                nodes += n, seconds += sec;
            } while (v == PB_UNKNOWN && !atomic_load(&handoff) && pb_pns_crew_wait(x));
            if (v == -2) atomic_store(&pv->sh->halt, 1);
            if (v == -2) continue;
            t->nodes_searched = nodes, t->seconds = seconds;
            if (v == PB_UNKNOWN) {
                if (atomic_load(&handoff)) atomic_store(&left, i); /* handed over: no class is left to deal */
                continue;
            }
            t->value = v;
        }
        if (hand && x && q) atomic_store(&handoff, 1); /* out of classes: the other hands its own over */
        if (x && q) pb_pns_crew_leave(x);
        free(q);
    }
    pb_pns_crew_free(crew);
    pn_team_free(pv, pns);
    return atomic_load(&left);
}

/* The proof-number search options of a solve (its threads share the
 * table, the whole budget). */
static pb_pns_opts solve_pn_opts(const pb_field *f, const pb_position *p, const pb_solve_opts *o, int nthreads) {
    pb_pns_opts po = {0};
    size_t bytes = o->hash_bytes ? o->hash_bytes : pb_solve_default_hash(f, p);
    po.table_bytes = bytes;
    po.threads = nthreads; /* one table shared by the threads */
    po.time_limit = o->time_limit;
    po.stop = o->stop;
    po.progress = o->progress;
    po.full_keys = o->full_keys;
    po.reduce_limit = o->reduce_limit;
    po.no_tactics = o->no_tactics;
    po.epsilon = o->pn_epsilon;
    po.proven = o->proven;
    return po;
}

/* The value of q by pv->pn with a helper on a second thread. */
static int prove_team(prover *pv, pb_position *q) {
    pb_pns_team *tm = pb_pns_team_new();
    pb_pns **pns = tm ? pn_team(pv, q) : NULL;
    if (!pns || !pns[1]) {
        if (pns) pn_team_free(pv, pns);
        pb_pns_team_free(tm);
        return prove(pv, q);
    }
    int v = PB_UNKNOWN;
    pb_pns_team_join(pv->pn, tm);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            if (omp_get_num_threads() < 2) pb_pns_team_join(pv->pn, NULL); /* no helper came */
            v = prove(pv, q);
            pb_pns_team_over(tm);
        } else pb_pns_help(pns[1], tm);
    }
    pb_pns_team_join(pv->pn, NULL);
    pn_team_free(pv, pns);
    pb_pns_team_free(tm);
    return v;
}

/* Frees what solve_start made. */
static void solve_end(prover *pv, pb_tt *tt) {
    pb_pns_free(pv->pn);
    free(pv->ws);
    shared_free(pv->sh);
    free(pv->sh);
    pb_tt_free(tt);
}

/* Makes what a solve of p runs on: the alpha-beta table *tt, the threads'
 * shared state and workers, and (--algo pn) the proof-number search, all
 * in *pv.  With proof-number search the alpha-beta table is left unused:
 * one small page, so that the memory goes to the search that runs.
 * Returns 0, or -1 with nothing left allocated. */
static int solve_start(const pb_field *f, const pb_position *p, const pb_solve_opts *o, int nthreads, pb_tt *tt,
                       prover *pv) {
    size_t ab_bytes = o->algo == PB_ALGO_PN ? 4096 : o->hash_bytes ? o->hash_bytes : pb_solve_default_hash(f, p);
    if (pb_tt_init(tt, f, ab_bytes, nthreads > 1)) return -1;
    memset(pv, 0, sizeof *pv);
    pv->nthreads = nthreads;
    pv->sh = malloc(sizeof *pv->sh);
    pv->ws = malloc(sizeof *pv->ws * (size_t)nthreads);
    if (!pv->sh || !pv->ws || shared_init(pv->sh, f, tt, o->full_keys)) {
        if (pv->sh) shared_free(pv->sh);
        free(pv->sh), free(pv->ws);
        pb_tt_free(tt);
        return -1;
    }
    shared *sh = pv->sh;
    sh->tactics = !o->no_tactics;
    sh->reduce_limit = o->reduce_limit;
    sh->proven = o->proven; /* saved proofs (proven.h) */
    pb_images_choose(&sh->im, p, sh->full_keys);
    sh->stop = o->stop;
    sh->deadline = o->time_limit > 0 ? sh->t0 + o->time_limit : 0;
    sh->progress = o->progress;
    sh->next_report = sh->t0 + 3.0;
    for (int i = 0; i < nthreads; i++) worker_init(&pv->ws[i], sh, i), pb_reach_root(&pv->ws[i].reach, p);
    if (o->algo != PB_ALGO_PN) return 0;
    /* Proof-number search uses the threads for the first-turn classes
     * (pn_classes, a crew on a table that grows); a value alone with two threads or more, in book and
     * hockey (the helper follows single steps), is a team on a table that
     * grows (prove_team; a third thread and more are not used), else one
     * search (docs/solver.md, threads). */
    if (!o->first_turns) pv->nthreads = pv->nthreads > 1 && pb_turns_are_steps(f) ? 2 : 1;
    pv->po = solve_pn_opts(f, p, o, pv->nthreads);
    pv->po.team = pv->nthreads > 1; /* a table that grows: a team's, or a crew's (pn_classes) */
    pv->pn = pb_pns_new(f, p, &pv->po);
    if (pv->pn) return 0;
    solve_end(pv, tt);
    return -1;
}

/* Proves first-turn class t of p with all threads (q: room for the
 * position after its route), noting its work and time; progress lines
 * name the route meanwhile. */
static void prove_class(prover *pv, const pb_field *f, const pb_position *p, pb_solve_turn *t, pb_position *q,
                        int team) {
    shared *sh = pv->sh;
    *q = *p;
    pb_route info;
    char err[256];
    int rc = pb_route_play(f, q, t->nodes, t->len, t->kick, &info, err, sizeof err);
    assert(rc == 0);
    (void)rc;
    char phase[4096], label[128];
    pb_route_format(f, t->nodes, t->len, t->kick, phase, sizeof phase);
    sh->phase = phase;
    snprintf(label, sizeof label, "%.80s (classes %d/%d done)", phase, atomic_load(&sh->classes_done), sh->nclasses);
    sh->class_label = label;
    uint64_t n0 = prover_nodes(pv);
    double t0 = omp_get_wtime();
    int v = team ? prove_team(pv, q) : prove(pv, q);
    sh->class_label = NULL;
    sh->phase = "the first-turn classes";
    if (v != PB_UNKNOWN) t->value = q->to_move == p->to_move ? v : -v;
    t->nodes_searched += prover_nodes(pv) - n0;
    t->seconds += omp_get_wtime() - t0;
}

/* --first-turns: every class listed (within the memory cap), then each
 * proven (by all threads, or dealt to the threads of proof-number search,
 * in book and hockey after the value); the value follows from the classes,
 * or is searched when they do not give it.  Returns whether every class
 * was proven. */
static int solve_classes(prover *pv, const pb_field *f, const pb_position *p, const pb_solve_opts *o,
                         pb_solve_result *r, pb_position *q) {
    shared *sh = pv->sh;
    const int dealt = pv->pn && pv->nthreads > 1;
    sh->phase = "listing the first-turn classes";
    pb_solve_root_turns(f, p, o->class_bytes, keep_going, &pv->ws[0], r);
    sh->nclasses = r->nturns;
    int value = PB_UNKNOWN;
    if (dealt && pb_turns_are_steps(f)) {
        /* The value first, by the team (prove_team), then the classes it
         * left open dealt to the threads.  A lost root is proven only by
         * proving every class, so its classes are then read from the
         * table; a won one leaves the other classes, as dealt before
         * (docs/solver.md, threads).  A run stopped among the classes
         * still has the value. */
        sh->phase = "the value";
        *q = *p;
        value = prove_team(pv, q);
        sh->phase = "the first-turn classes";
    }
    if (dealt && !atomic_load(&sh->halt)) {
        int i = pn_classes(pv, f, p, r);
        if (i >= 0 && !atomic_load(&sh->halt)) { /* handed over */
            prove_class(pv, f, p, &r->turns[i], q, 1);
            r->handed++;
        }
    }
    for (int i = 0; i < r->nturns && !atomic_load(&sh->halt) && !dealt; i++) {
        pb_solve_turn *t = &r->turns[i];
        if (t->end == PB_END_NONE) prove_class(pv, f, p, t, q, 0);
        atomic_fetch_add(&sh->classes_done, 1);
    }
    pb_solve_combine(p, r);
    /* Two proofs of one value: the root's and its classes'. */
    assert(value == PB_UNKNOWN || r->value == PB_UNKNOWN || value == r->value);
    if (r->value == PB_UNKNOWN) r->value = value;
    int complete = r->nsolved_classes == r->nturns && !r->overflow && !r->stopped;
    if (r->value == PB_UNKNOWN && !atomic_load(&sh->halt)) {
        /* Too many classes to list: the value all the same. */
        sh->phase = "the value";
        *q = *p;
        r->value = prove(pv, q);
    }
    return complete;
}

/* Once the value is proven: the line of perfect play, and (--all-routes)
 * every first turn with its value.  Returns 0 if either was cut short. */
static int solve_line_and_routes(prover *pv, const pb_field *f, const pb_position *p, const pb_solve_opts *o,
                                 pb_solve_result *r, pb_position *q) {
    shared *sh = pv->sh;
    worker *w0 = &pv->ws[0];
    int complete = 1;
    if (r->value != PB_UNKNOWN && !atomic_load(&sh->halt)) {
        sh->phase = "the line";
        w0->aborted = 0;
        pb_solve_line(f, p, r, prover_next, pv, o->no_pv ? 1 : 0);
        if (w0->aborted) complete = 0;
    }
    if (o->all_routes && r->value != PB_UNKNOWN && !atomic_load(&sh->halt)) {
        sh->phase = "every first turn";
        routes_ctx rc = {prove, pv, p->to_move, o->all_routes, o->all_routes_ctx, 0};
        w0->aborted = 0;
        *q = *p;
        pb_routes_foreach(f, q, route_out, &rc);
        if (w0->aborted || rc.stopped) complete = 0;
    }
    return complete;
}

/* The counts of the solve into r: nodes and table figures of the threads,
 * or of the proof-number search. */
static void solve_counts(const prover *pv, const pb_tt *tt, pb_solve_result *r) {
    uint64_t nodes = 0;
    pb_tt_stats st = {0, 0, 0, 0, 0};
    for (int i = 0; i < pv->nthreads; i++) {
        const worker *w = &pv->ws[i];
        nodes += w->nodes;
        st.probes += w->st.probes, st.hits += w->st.hits;
        st.stores += w->st.stores, st.replaced += w->st.replaced, st.inserted += w->st.inserted;
    }
    r->nodes = nodes;
    r->tt = st;
    r->tt_bytes = tt->bytes;
    r->tt_slots = pb_tt_slots(tt);
    r->tt_in_use = pb_tt_bytes_in_use(tt);
    r->tt_in_use_slots = tt->nbuckets * PB_TT_WAYS;
    /* One thread counts its table's ways in use; threads sharing one count
     * their stores into empty ways. */
    r->tt_used = tt->shared ? st.inserted : tt->used;
    if (pv->pn) {
        pb_pns_stats ps;
        pb_pns_get_stats(pv->pn, &ps);
        r->nodes = ps.nodes + pv->gone_nodes;
        r->tt.probes = ps.probes + pv->gone_probes, r->tt.hits = ps.hits + pv->gone_hits;
        r->tt.stores = ps.stores + pv->gone_stores, r->tt.replaced = ps.replaced + pv->gone_replaced;
        r->tt.inserted = ps.peak_used + pv->gone_inserted;
        r->tt_bytes = ps.table_bytes, r->tt_slots = ps.table_slots;
        r->tt_in_use = ps.in_use_bytes, r->tt_in_use_slots = ps.in_use_slots;
        /* A table no longer shared has every thread's inserts in its count
         * (pb_pns_team_join, pb_pns_crew_free); one still shared, the sum. */
        r->tt_used = ps.table_shared ? r->tt.inserted : ps.peak_used;
        r->root_pn = ps.root_pn, r->root_dn = ps.root_dn;
    }
    if (r->tt_used > r->tt_in_use_slots) r->tt_used = r->tt_in_use_slots;
}

/* Start, the value (by the classes when they are asked for or dealt to
 * threads), the line and routes, the counts, the end. */
int pb_solve(const pb_field *f, const pb_position *p, const pb_solve_opts *o, pb_solve_result *r) {
    memset(r, 0, sizeof *r);
    r->value = PB_UNKNOWN;
    int nthreads = o->threads > 0 ? o->threads : 1;
    if (nthreads > 64) nthreads = 64;
    r->threads = nthreads;
    pb_tt tt;
    prover pv;
    if (solve_start(f, p, o, nthreads, &tt, &pv)) return -1;
    r->threads = pv.nthreads; /* the threads that searched (one for a value alone by pn) */
    pb_position *q = malloc(sizeof *q);
    int complete = 1;
    if (o->first_turns) complete = solve_classes(&pv, f, p, o, r, q);
    else {
        pb_position m;
        pb_position_mirror(f, p, &m, 1, 0);
        r->mirror_lr = pb_position_equal(f, p, &m);
        *q = *p;
        r->value = pv.pn && pv.nthreads > 1 ? prove_team(&pv, q) : prove(&pv, q);
    }
    complete = complete && r->value != PB_UNKNOWN;
    complete = solve_line_and_routes(&pv, f, p, o, r, q) && complete;
    r->stopped = r->stopped || atomic_load(&pv.sh->halt);
    r->complete = complete && !r->stopped;
    r->pv_kind = pb_solve_pv_kind;
    r->algo = o->algo;
    solve_counts(&pv, &tt, r);
    r->seconds = omp_get_wtime() - pv.sh->t0;
    r->rate = r->seconds > 0 ? (double)r->nodes / r->seconds : 0;
    r->peak_rss = pb_peak_rss();
    free(q);
    solve_end(&pv, &tt);
    return 0;
}

/* pb_turns_free reads each record's route as its first member. */
_Static_assert(offsetof(pb_solve_turn, nodes) == 0 && offsetof(pb_pv_turn, nodes) == 0, "route first");

void pb_solve_result_free(pb_solve_result *r) {
    pb_turns_free(r->turns, r->nturns, sizeof *r->turns);
    pb_turns_free(r->pv, r->npv, sizeof *r->pv);
    memset(r, 0, sizeof *r);
}

/* ---- a solver kept between questions ---- */

struct pb_solver {
    const pb_field *f;
    pb_tt tt;
    shared sh;
    worker w;
    double limit;
    int nthreads; /* threads of pb_solver_value_budget; ws: that many workers */
    worker *ws;
    pb_pns *pn; /* proof-number search, kept alike (pb_solver_new_algo); NULL = alpha-beta */
};

void pb_solver_set_limit(pb_solver *s, double seconds) { s->limit = seconds; }
void pb_solver_set_stop(pb_solver *s, volatile sig_atomic_t *stop) {
    s->sh.stop = stop;
    if (s->pn) pb_pns_set_stop(s->pn, stop);
}
void pb_solver_set_proven(pb_solver *s, pb_proven *store) { s->sh.proven = store; }

void pb_solver_set_reduce(pb_solver *s, int limit) {
    s->sh.reduce_limit = limit;
    pb_reach_init(&s->w.reach, s->f, limit ? limit : -1); /* as worker_init */
    for (int i = 0; i < s->nthreads; i++) pb_reach_init(&s->ws[i].reach, s->f, limit ? limit : -1);
    if (s->pn) pb_pns_set_reduce(s->pn, limit);
}

/* Arms the time limit and chooses the keys for one question about p. */
static void solver_begin(pb_solver *s, const pb_position *p) {
    pb_images_choose(&s->sh.im, p, s->sh.full_keys);
    pb_reach_root(&s->w.reach, p);
    s->sh.deadline = s->limit > 0 ? omp_get_wtime() + s->limit : 0;
    atomic_store(&s->sh.halt, 0);
    s->w.aborted = 0;
}

pb_solver *pb_solver_new(const pb_field *f, size_t hash_bytes) { return pb_solver_new_threads(f, hash_bytes, 1); }

pb_solver *pb_solver_new_algo(const pb_field *f, size_t hash_bytes, int algo) {
    if (algo != PB_ALGO_PN) return pb_solver_new(f, hash_bytes);
    pb_solver *s = pb_solver_new(f, 4096); /* alpha-beta's table unused */
    if (!s) return NULL;
    pb_pns_opts po = {0};
    po.table_bytes = hash_bytes ? hash_bytes : PB_SOLVE_DEFAULT_HASH;
    pb_position *root = malloc(sizeof *root);
    if (root) pb_position_start(f, root, PB_TOP);
    s->pn = root ? pb_pns_new(f, root, &po) : NULL;
    free(root);
    if (!s->pn) {
        pb_solver_free(s);
        return NULL;
    }
    return s;
}

pb_solver *pb_solver_new_threads(const pb_field *f, size_t hash_bytes, int threads) {
    pb_solver *s = malloc(sizeof *s);
    if (!s) return NULL;
    s->f = f;
    s->limit = 0;
    s->nthreads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
    s->pn = NULL;
    s->ws = calloc((size_t)s->nthreads, sizeof *s->ws);
    if (!s->ws || pb_tt_init(&s->tt, f, hash_bytes ? hash_bytes : PB_SOLVE_DEFAULT_HASH, s->nthreads > 1)) {
        free(s->ws);
        free(s);
        return NULL;
    }
    if (shared_init(&s->sh, f, &s->tt, 0)) {
        shared_free(&s->sh);
        pb_tt_free(&s->tt);
        free(s);
        return NULL;
    }
    worker_init(&s->w, &s->sh, 1);
    for (int i = 0; i < s->nthreads; i++) worker_init(&s->ws[i], &s->sh, i + 1);
    return s;
}

void pb_solver_free(pb_solver *s) {
    if (!s) return;
    pb_pns_free(s->pn);
    shared_free(&s->sh);
    pb_tt_free(&s->tt);
    free(s->ws);
    free(s);
}

/* pb_value_fn of a solver's proof-number search, and of its table alone. */
static int solver_pn_value(void *ctx, pb_position *q) { return pb_pns_solve(((pb_solver *)ctx)->pn, q); }
static int solver_pn_known(void *ctx, pb_position *q) { return pb_pns_known(((pb_solver *)ctx)->pn, q); }

int pb_solver_value(pb_solver *s, const pb_position *p) {
    if (s->pn) {
        pb_pns_rearm(s->pn, p, s->limit);
        return pb_pns_solve(s->pn, p);
    }
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    solver_begin(s, p);
    int v = value_of(&s->w, q);
    free(q);
    return s->w.aborted ? PB_UNKNOWN : v;
}

void pb_solver_learn(pb_solver *s, const pb_position *p, int v) {
    /* Stored in every orientation, so that a later question finds it
     * whichever orientations its root lets the search try. */
    shared *sh = &s->sh;
    pb_images_all(&sh->im);
    pb_images_reset(&sh->im, &s->w.ims, p);
    for (int k = 0; k < 4; k++) {
        pb_tt_key key = {k ? s->w.ims.hash[k] : p->hash, k ? s->w.ims.seg[k] : p->seg,
                         (uint64_t)(uint16_t)sh->im.node_img[k][p->ball] | (uint64_t)(p->to_move ^ (k >> 1)) << 16};
        pb_tt_store(&s->tt, &key, v, v, 8, (uint64_t)1 << 40, &s->w.st);
    }
    pb_images_choose(&sh->im, p, 1);
}

int pb_solver_best_route(pb_solver *s, const pb_position *p, int16_t *nodes, int cap, int *kick, int *value) {
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    if (s->pn) {
        int v = pb_solver_value(s, p), len = 0;
        if (v != PB_UNKNOWN)
            len = pb_line_route_known(s->f, pb_pns_tactics(s->pn), solver_pn_value, solver_pn_known, s, q, v, nodes,
                                      cap, kick);
        *value = len ? v : PB_UNKNOWN;
        free(q);
        return len;
    }
    solver_begin(s, p);
    int v = value_of(&s->w, q);
    int len = s->w.aborted ? 0 : best_route(&s->w, q, v, nodes, cap, kick);
    *value = s->w.aborted ? PB_UNKNOWN : v;
    free(q);
    return s->w.aborted ? 0 : len;
}

uint64_t pb_solver_nodes(const pb_solver *s) {
    uint64_t n = s->w.nodes;
    if (s->pn) {
        pb_pns_stats st;
        pb_pns_get_stats(s->pn, &st);
        n += st.nodes;
    }
    for (int i = 0; i < s->nthreads; i++) n += s->ws[i].nodes;
    return n;
}

/* A budget cut is a halt like the time limit's (point 5 at the top): the
 * answer is exact or PB_UNKNOWN, and the table keeps only proven bounds. */
int pb_solver_value_budget(pb_solver *s, const pb_position *p, uint64_t max_nodes) {
    solver_begin(s, p);
    s->sh.node_limit = max_nodes ? atomic_load(&s->sh.nodes) + max_nodes : 0;
    int v = parallel_value(&s->sh, s->ws, s->nthreads, p);
    s->sh.node_limit = 0;
    return v;
}
