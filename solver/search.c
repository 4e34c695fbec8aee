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
 * Why the answers are exact, whatever the table size and thread count:
 *  1. The game graph is acyclic (every step draws a segment), and a
 *     position's value depends on the position alone (segments, ball,
 *     player to move: the same state between turns and mid-turn), never on
 *     the path to it.  So transpositions may share values: there is no
 *     graph-history interaction.
 *  2. Fail-soft alpha-beta returns a value v with: v <= alpha implies
 *     value <= v, v >= beta implies value >= v, otherwise value == v.  We
 *     store exactly these bounds (lower, upper or both), classified against
 *     the window actually searched, and merge stored bounds only by taking
 *     the larger lower and the smaller upper bound, so every stored bound
 *     is a theorem about that position.
 *  3. A table slot holds the whole position (see tt.h), so a probe answers
 *     only for a position equal to the one asked about: a hash collision
 *     can cost a slot, never a wrong value.
 *  4. Slots are read and written under their bucket's lock, so a reader
 *     never sees a torn slot; threads only ever add proven bounds, so any
 *     interleaving of stores leaves only proven bounds.  Replacement loses
 *     information, never truth, so a tiny table only costs time.
 *  5. A search that is cut short (stop flag, time limit, or a helper thread
 *     whose job another thread finished) unwinds without storing anything
 *     from the unfinished nodes, and its result is thrown away.
 * Hence the root value and every first turn's value are the same for any
 * table size, thread count and schedule; only node counts vary.  The tests
 * check this against an independent brute force (tests/ref_minimax.c).
 *
 * Parallelism: the first turns (one per mirror class) are jobs taken by the
 * threads in order, sharing the table.  With opts.lazy_helpers a thread that
 * finds no job left helps on an unfinished one ("lazy SMP" with a perturbed
 * move order near the job's root); the first thread to finish a job records
 * its exact value and the other abandons it.  Helpers are off by default:
 * measured on the benchmark positions they slowed the job they joined
 * (both threads then fight over the same table lines and best moves).
 */
#include "search.h"

#include <assert.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define POLL_MASK 4095

typedef struct job {
    int route;               /* index into the result's turns */
    atomic_int done;          /* 0 while unproven, else value + 2 (set once) */
    uint64_t nodes;
    double seconds;
} job;

/* What the threads of one solve share (read-only apart from atomics). */
typedef struct shared {
    const pb_field *f;
    pb_tt *tt;
    int8_t (*score_owner)[8]; /* per node and direction: whose goal the step scores in, or -1 */
    volatile sig_atomic_t *stop;
    double t0, deadline;      /* omp_get_wtime; deadline 0 = none */
    atomic_int halt;          /* the stop flag or the deadline was seen */
    atomic_ullong nodes;      /* flushed node counts of all threads */
    FILE *progress;
    double next_report;
    int njobs;
    job *jobs;
    const pb_solve_turn *turns;
    atomic_int current[64];   /* the job each thread works on, -1 none */
} shared;

typedef struct worker {
    shared *sh;
    int id;
    int helper;               /* perturb the move order near the job root */
    uint64_t nodes, flushed, calls;
    pb_tt_stats st;
    atomic_int *job_done;     /* abandon the search when set; may be NULL */
    int aborted;
} worker;

const char *pb_value_name(int v) {
    return v == PB_WIN ? "win" : v == PB_LOSS ? "loss" : v == PB_DRAW ? "draw" : "unknown";
}

/* The value of a game that ended (a goal or a dead end; *loser of pb_step
 * or pb_route.loser) for player me. */
static int end_value(int loser, int me) {
    return loser == PB_NOBODY ? PB_DRAW : loser == me ? PB_LOSS : PB_WIN;
}

static int8_t (*make_score_owner(const pb_field *f))[8] {
    int8_t(*so)[8] = malloc(sizeof *so * (size_t)f->nlattice);
    for (int i = 0; i < f->nlattice; i++)
        for (int d = 0; d < 8; d++) {
            so[i][d] = -1;
            if (!pb_is_node(f, i) || f->seg[i][d] < 0) continue;
            int t = pb_step_to(f, i, d), owner = pb_goal_owner(f, t);
            if (owner == PB_NOBODY) continue;
            int dy = pb_dir_dy[d];
            if (f->box || (owner == PB_BOTTOM ? dy < 0 : dy > 0)) so[i][d] = (int8_t)owner;
        }
    return so;
}

static void report(worker *w, double now) {
    shared *sh = w->sh;
    uint64_t n = atomic_load(&sh->nodes);
    double el = now - sh->t0;
    double fill = pb_tt_fill(sh->tt, (size_t)1 << 16);
    int solved = 0;
    for (int j = 0; j < sh->njobs; j++) solved += atomic_load(&sh->jobs[j].done) != 0;
    fprintf(sh->progress, "solve: %.1f s, %llu nodes, %.2fM nodes/s, table %.1f%% full, first turns %d/%d done",
            el, (unsigned long long)n, el > 0 ? n / el / 1e6 : 0.0, 100.0 * fill, solved,
            sh->njobs);
    for (int t = 0; t < 64; t++) {
        int j = atomic_load(&sh->current[t]);
        if (j < 0) continue;
        char buf[256];
        const pb_solve_turn *tu = &sh->turns[sh->jobs[j].route];
        pb_route_format(sh->f, tu->nodes, tu->len, tu->kick, buf, sizeof buf);
        fprintf(sh->progress, "; thread %d: %s", t, buf);
    }
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
    if (atomic_load(&sh->halt) || (w->job_done && atomic_load(w->job_done))) w->aborted = 1;
    if (w->id == 0 && sh->progress && now >= sh->next_report) {
        sh->next_report = now + 2.0;
        report(w, now);
    }
}

/* Looks p up in the table and narrows the window (*alpha, *beta) to the
 * proven bounds; returns 1 with *cut set when the bounds alone answer the
 * search (fail-soft: the bound that decides it), else 0.  *ttbest gets the
 * stored best direction on a hit. */
static inline int probe(worker *w, const pb_position *p, int *alpha, int *beta, int *ttbest, int *cut) {
    int lo, hi;
    if (!pb_tt_probe(w->sh->tt, p, &lo, &hi, ttbest, &w->st)) return 0;
    if (lo >= *beta) return *cut = lo, 1;
    if (hi <= *alpha) return *cut = hi, 1;
    if (lo == hi) return *cut = lo, 1;
    if (lo > *alpha) *alpha = lo;
    if (hi < *beta) *beta = hi;
    return 0;
}

/* The value of p for its player to move, searched with the window
 * (alpha, beta), -1 <= alpha < beta <= 1, fail-soft.  Book and hockey.
 * Contract: p is restored on return; if w->aborted is set on return the
 * result means nothing and nothing unproven was stored. */
static int search_steps(worker *w, pb_position *p, int alpha, int beta, int ply) {
    const pb_field *f = w->sh->f;
    const int me = p->to_move, ball = p->ball;
    const int8_t *so = w->sh->score_owner[ball];
    int dirs[8], score[8], n = 0, best = -2, bestd = 8;
    assert(-1 <= alpha && alpha < beta && beta <= 1);
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, p, ball, d)) continue;
        if (so[d] == (me ^ 1)) { /* a goal into the opponent's goal: won at once */
            w->nodes++;
            return PB_WIN;
        }
        if (so[d] == me) { /* an own goal: lost; kept only as a last resort */
            best = PB_LOSS, bestd = d;
            continue;
        }
        int t = pb_step_to(f, ball, d), fwd = me == PB_TOP ? -pb_dir_dy[d] : pb_dir_dy[d];
        /* Bounces first (the mover keeps the ball), then forward steps. */
        int sc = (pb_occupied(f, p, t) ? 8 : 0) + fwd;
        int k = n++;
        while (k > 0 && score[k - 1] < sc) dirs[k] = dirs[k - 1], score[k] = score[k - 1], k--;
        dirs[k] = d, score[k] = sc;
    }
    assert(n > 0 || best == PB_LOSS);
    if (n == 0) return best;
    if ((++w->calls & POLL_MASK) == 0) poll(w);
    if (w->aborted) return 0;
    int ttbest = 8, cut;
    if (probe(w, p, &alpha, &beta, &ttbest, &cut)) return cut;
    if (ttbest < 8) {
        for (int k = 1; k < n; k++)
            if (dirs[k] == ttbest) {
                memmove(dirs + 1, dirs, sizeof(int) * (size_t)k);
                dirs[0] = ttbest;
                break;
            }
    }
    if (w->helper && ply < 3 && n > 1) { /* a helper starts elsewhere */
        int r = (w->helper + ply) % n, tmp[8];
        for (int k = 0; k < n; k++) tmp[k] = dirs[(k + r) % n];
        memcpy(dirs, tmp, sizeof(int) * (size_t)n);
    }
    const int a0 = alpha, b0 = beta;
    const uint64_t nodes0 = w->nodes;
    for (int k = 0; k < n && alpha < beta; k++) {
        int d = dirs[k], loser, v;
        pb_undo u;
        pb_step_result r = pb_step(f, p, d, &u, &loser);
        w->nodes++;
        switch (r) {
        case PB_STEP_STOP: v = -search_steps(w, p, -beta, -alpha, ply + 1); break;
        case PB_STEP_BOUNCE: v = search_steps(w, p, alpha, beta, ply + 1); break;
        case PB_STEP_GOAL: v = loser == me ? PB_LOSS : PB_WIN; break;
        default: v = end_value(loser, me); break;
        }
        pb_unstep(f, p, &u);
        if (w->aborted) return 0;
        if (v > best) {
            best = v, bestd = d;
            if (v > alpha) alpha = v;
        }
    }
    int slo = best >= b0 ? best : best > a0 ? best : -1;
    int shi = best <= a0 ? best : best < b0 ? best : 1;
    pb_tt_store(w->sh->tt, p, slo, shi, bestd, w->nodes - nodes0, &w->st);
    return best;
}

/* Triple: a whole ply at a time over pb_routes_foreach. */
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
    int ttbest = 8, cut;
    if (probe(w, p, &alpha, &beta, &ttbest, &cut)) return cut;
    const uint64_t nodes0 = w->nodes;
    turn_ctx c = {w, p->to_move, alpha, beta, -2, 2, 0, 0};
    long n = pb_routes_foreach(w->sh->f, p, turn_child, &c);
    if (w->aborted) return 0;
    int best;
    if (n == 0) best = PB_DRAW; /* the stuck player's opponent has no kick */
    else {
        /* Plies are all moves of the player to move or all kicks of the
         * opponent (RULES.md 3); a mixed list would be a model error. */
        assert(c.nmax == 0 || c.nmin == 0);
        best = c.nmax ? c.best_max : c.best_min;
    }
    /* Max node and min node alike (the min node's cutoffs fail low):
     * fail-soft bounds against the window searched. */
    int slo = best >= beta ? best : best > alpha ? best : -1;
    int shi = best <= alpha ? best : best < beta ? best : 1;
    if (n == 0) slo = shi = PB_DRAW;
    pb_tt_store(w->sh->tt, p, slo, shi, 8, w->nodes - nodes0, &w->st);
    return best;
}

/* The exact value of p for its player to move. */
static int value_of(worker *w, pb_position *p) {
    if (w->sh->f->spec.rules == PB_RULES_TRIPLE) return search_turns(w, p, -1, 1);
    return search_steps(w, p, -1, 1, 0);
}

static void shared_init(shared *sh, const pb_field *f, pb_tt *tt) {
    memset(sh, 0, sizeof *sh);
    sh->f = f;
    sh->tt = tt;
    sh->score_owner = make_score_owner(f);
    sh->t0 = omp_get_wtime();
    atomic_init(&sh->halt, 0);
    atomic_init(&sh->nodes, 0);
    for (int t = 0; t < 64; t++) atomic_init(&sh->current[t], -1);
}

static void worker_init(worker *w, shared *sh, int id) {
    memset(w, 0, sizeof *w);
    w->sh = sh;
    w->id = id;
}

/* ---- the best route from a position (PV, hints) ---- */

typedef struct pick_ctx {
    worker *w;
    int me, want;
    int16_t *nodes;
    int cap, len, kick, found, found_pref;
} pick_ctx;

static int route_value(worker *w, int me, pb_position *after, const pb_route *r) {
    if (r->end != PB_END_NONE) return end_value(r->loser, me);
    int v = value_of(w, after);
    return after->to_move == me ? v : -v;
}

static int pick_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    pick_ctx *c = ctx;
    (void)f;
    /* The winner takes a goal at once if one wins; the other side prefers
     * a route that keeps the game going (resisting rather than conceding
     * at once); otherwise the first route that keeps the value. */
    int ends = r->end != PB_END_NONE, prefer = c->want == PB_WIN ? ends : !ends;
    if (c->found && (!prefer || c->found_pref)) return 0;
    int v = route_value(c->w, c->me, after, r);
    if (c->w->aborted) return 1;
    if (v != c->want || r->len > c->cap) return 0;
    memcpy(c->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    c->len = r->len, c->kick = r->kick, c->found = 1;
    c->found_pref = prefer;
    return prefer;
}

/* A best route from q (value v for q's player to move) into nodes;
 * returns its length (0: none, the game is over at q, or aborted). */
static int best_route(worker *w, pb_position *q, int v, int16_t *nodes, int cap, int *kick) {
    pick_ctx c = {w, q->to_move, v, nodes, cap, 0, 0, 0, 0};
    pb_routes_foreach(w->sh->f, q, pick_route, &c);
    *kick = c.kick;
    return c.found ? c.len : 0;
}

/* ---- the root ---- */

typedef struct collect_ctx {
    pb_solve_turn *turns;
    int n, cap, me;
} collect_ctx;

static int collect_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    collect_ctx *c = ctx;
    (void)f, (void)after;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->turns = realloc(c->turns, sizeof *c->turns * (size_t)c->cap);
        if (!c->turns) abort();
    }
    pb_solve_turn *t = &c->turns[c->n];
    memset(t, 0, sizeof *t);
    t->nodes = malloc(sizeof(int16_t) * (size_t)r->len);
    memcpy(t->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    t->len = r->len, t->kick = r->kick, t->end = r->end, t->mover = r->mover;
    t->klass = c->n;
    t->value = r->end == PB_END_NONE ? PB_UNKNOWN : end_value(r->loser, c->me);
    c->n++;
    return 0;
}

void pb_solve_root_turns(const pb_field *f, const pb_position *p, pb_solve_result *r) {
    pb_position root = *p;
    collect_ctx cc = {NULL, 0, 0, p->to_move};
    pb_routes_foreach(f, &root, collect_route, &cc);
    r->turns = cc.turns, r->nturns = cc.n;
    pb_position m;
    pb_position_mirror(f, p, &m, 1, 0);
    r->mirror_lr = pb_position_equal(f, p, &m);
    for (int i = 0; r->mirror_lr && i < r->nturns; i++) {
        pb_solve_turn *a = &r->turns[i];
        for (int j = 0; j < i; j++) {
            const pb_solve_turn *b = &r->turns[j];
            if (b->len != a->len || b->kick != a->kick || b->klass != j) continue;
            int k;
            for (k = 0; k < a->len; k++)
                if (f->mirror_lr[a->nodes[k]] != b->nodes[k]) break;
            if (k == a->len) {
                a->klass = j;
                break;
            }
        }
    }
    r->nclasses = 0;
    for (int i = 0; i < r->nturns; i++) r->nclasses += r->turns[i].klass == i;
}

void pb_solve_combine(const pb_position *p, pb_solve_result *r) {
    /* Mirror images share their class's value. */
    r->nsolved_classes = 0;
    for (int i = 0; i < r->nturns; i++) {
        pb_solve_turn *t = &r->turns[i];
        if (t->klass != i) t->value = r->turns[t->klass].value;
        else if (t->value != PB_UNKNOWN) r->nsolved_classes++;
    }
    /* The root: the best of its player's routes, or the opponent's best
     * kick chain; proven early if a won (or, for kicks, lost) turn is. */
    int me = p->to_move, unknown = 0, vmax = -2, vmin = 2, nmine = 0;
    for (int i = 0; i < r->nturns; i++) {
        const pb_solve_turn *t = &r->turns[i];
        if (t->value == PB_UNKNOWN) {
            unknown++;
            continue;
        }
        if (t->mover == me) {
            nmine++;
            if (t->value > vmax) vmax = t->value;
        } else if (t->value < vmin) vmin = t->value;
    }
    r->complete = unknown == 0;
    r->value = PB_UNKNOWN;
    r->best = -1;
    if (r->nturns == 0) r->value = PB_DRAW;
    else if (r->complete) r->value = nmine ? vmax : vmin;
    else if (nmine && vmax == PB_WIN) r->value = PB_WIN;
    else if (!nmine && vmin == PB_LOSS && r->turns[0].mover != me) r->value = PB_LOSS;
    if (r->value == PB_UNKNOWN) return;
    for (int i = 0; i < r->nturns; i++) {
        const pb_solve_turn *t = &r->turns[i];
        if (t->value != r->value) continue;
        /* As in pick_route: a winner ends the game at once if it can,
         * the other side keeps it going if it can. */
        int ends = t->end != PB_END_NONE, best_ends = r->best >= 0 && r->turns[r->best].end != PB_END_NONE;
        int prefer = r->value == PB_WIN ? ends && !best_ends : !ends && best_ends;
        if (r->best < 0 || prefer) r->best = i;
    }
}

const char pb_solve_pv_kind[] =
    "a line of perfect play, not necessarily the shortest win or longest loss: each side keeps "
    "the value; the winner scores as soon as a goal wins, the other side avoids routes that end the "
    "game when it can; otherwise the first value-keeping route in generation order";

void pb_solve_line(const pb_field *f, const pb_position *p, pb_solve_result *r, pb_solve_next_route next, void *ctx) {
    assert(r->best >= 0 && r->best < r->nturns && r->npv == 0);
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    pb_route info;
    char err[256];
    int cap = f->nsegments + 2, pvcap = 16;
    int16_t *buf = malloc(sizeof(int16_t) * (size_t)cap);
    r->pv = malloc(sizeof *r->pv * (size_t)pvcap);
    const pb_solve_turn *bt = &r->turns[r->best];
    int len = bt->len, kick = bt->kick;
    memcpy(buf, bt->nodes, sizeof(int16_t) * (size_t)len);
    for (;;) {
        if (pb_route_play(f, q, buf, len, kick, &info, err, sizeof err)) break;
        if (r->npv == pvcap) r->pv = realloc(r->pv, sizeof *r->pv * (size_t)(pvcap *= 2));
        pb_pv_turn *pt = &r->pv[r->npv++];
        pt->nodes = malloc(sizeof(int16_t) * (size_t)len);
        memcpy(pt->nodes, buf, sizeof(int16_t) * (size_t)len);
        pt->len = len, pt->kick = kick;
        if (info.end != PB_END_NONE) break;
        len = next(ctx, q, buf, cap, &kick);
        if (len == 0) break;
    }
    free(buf);
    free(q);
}

/* pb_solve's next turn of the line: a best route on worker ctx. */
static int line_next(void *ctx, pb_position *q, int16_t *nodes, int cap, int *kick) {
    worker *w = ctx;
    int v = value_of(w, q);
    if (w->aborted) return 0;
    int len = best_route(w, q, v, nodes, cap, kick);
    return w->aborted ? 0 : len;
}

static void run_job(worker *w, job *jb, const pb_solve_turn *tu, const pb_position *root) {
    const pb_field *f = w->sh->f;
    pb_position *q = malloc(sizeof *q);
    *q = *root;
    pb_route info;
    char err[256];
    int rc = pb_route_play(f, q, tu->nodes, tu->len, tu->kick, &info, err, sizeof err);
    assert(rc == 0);
    (void)rc;
    double t0 = omp_get_wtime();
    uint64_t n0 = w->nodes;
    w->aborted = 0;
    w->job_done = &jb->done;
    int v = value_of(w, q);
    if (!w->aborted) {
        int expected = 0;
        v = q->to_move == root->to_move ? v : -v;
        if (atomic_compare_exchange_strong(&jb->done, &expected, v + 2)) {
            jb->nodes = w->nodes - n0;
            jb->seconds = omp_get_wtime() - t0;
        } else {
            /* Both searches are exact, so they must agree. */
            assert(expected == v + 2);
        }
    }
    w->job_done = NULL;
    free(q);
}

/* Free segments reachable from the ball along free segments: a bound on
 * the steps left in the game. */
static int reachable_segments(const pb_field *f, const pb_position *p) {
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

/* The default table: small for endgames (a large sparse table costs page
 * faults that would dominate a millisecond answer), PB_SOLVE_DEFAULT_HASH
 * otherwise. */
static size_t default_hash(const pb_field *f, const pb_position *p) {
    int k = reachable_segments(f, p);
    return k <= 48 ? (size_t)1 << 20 : k <= 96 ? (size_t)8 << 20 : PB_SOLVE_DEFAULT_HASH;
}

int pb_solve(const pb_field *f, const pb_position *p, const pb_solve_opts *o, pb_solve_result *r) {
    memset(r, 0, sizeof *r);
    r->value = PB_UNKNOWN;
    r->best = -1;
    pb_tt tt;
    if (pb_tt_init(&tt, f, o->hash_bytes ? o->hash_bytes : default_hash(f, p))) return -1;
    shared sh;
    shared_init(&sh, f, &tt);
    sh.stop = o->stop;
    sh.deadline = o->time_limit > 0 ? sh.t0 + o->time_limit : 0;
    sh.progress = o->progress;
    sh.next_report = sh.t0 + 3.0;
    int nthreads = o->threads > 0 ? o->threads : 1;
    if (nthreads > 64) nthreads = 64;
    r->threads = nthreads;

    pb_solve_root_turns(f, p, r);
    sh.jobs = calloc((size_t)r->nturns + 1, sizeof(job));
    sh.turns = r->turns;
    for (int i = 0; i < r->nturns; i++) {
        if (r->turns[i].klass != i || r->turns[i].end != PB_END_NONE) continue;
        job *jb = &sh.jobs[sh.njobs++];
        jb->route = i;
        atomic_init(&jb->done, 0);
    }
    atomic_int next_job;
    atomic_init(&next_job, 0);
    uint64_t nodes = 0;
    pb_tt_stats st = {0, 0, 0, 0, 0};
    worker *w0 = malloc(sizeof *w0);
    worker_init(w0, &sh, 0);
#pragma omp parallel num_threads(nthreads)
    {
        int id = omp_get_thread_num();
        worker local, *w = id == 0 ? w0 : &local;
        if (id) worker_init(w, &sh, id);
        for (;;) {
            int j = atomic_fetch_add(&next_job, 1), helping = 0;
            if (atomic_load(&sh.halt)) break;
            if (j >= sh.njobs) {
                /* No job left to start: help the first unfinished one. */
                j = -1;
                for (int k = 0; k < sh.njobs; k++)
                    if (!atomic_load(&sh.jobs[k].done)) {
                        j = k;
                        break;
                    }
                if (j < 0 || !o->lazy_helpers) break;
                helping = 1;
            }
            w->helper = helping ? id + 1 : 0;
            atomic_store(&sh.current[id < 64 ? id : 63], j);
            run_job(w, &sh.jobs[j], &r->turns[sh.jobs[j].route], p);
            atomic_store(&sh.current[id < 64 ? id : 63], -1);
        }
        if (id) {
#pragma omp critical(pb_search_stats)
            {
                nodes += w->nodes;
                st.probes += w->st.probes, st.hits += w->st.hits;
                st.stores += w->st.stores, st.replaced += w->st.replaced, st.inserted += w->st.inserted;
            }
        }
    }
    r->stopped = atomic_load(&sh.halt);
    for (int j = 0; j < sh.njobs; j++) {
        job *jb = &sh.jobs[j];
        int done = atomic_load(&jb->done);
        if (!done) continue;
        r->turns[jb->route].value = done - 2;
        r->turns[jb->route].nodes_searched = jb->nodes;
        r->turns[jb->route].seconds = jb->seconds;
    }
    pb_solve_combine(p, r);
    r->pv_kind = pb_solve_pv_kind;
    /* The principal variation: the best turn, then best routes to the end. */
    if (r->best >= 0 && !o->no_pv && !r->stopped) {
        w0->job_done = NULL;
        w0->aborted = 0;
        pb_solve_line(f, p, r, line_next, w0);
    }
    nodes += w0->nodes;
    st.probes += w0->st.probes, st.hits += w0->st.hits;
    st.stores += w0->st.stores, st.replaced += w0->st.replaced, st.inserted += w0->st.inserted;
    r->nodes = nodes;
    r->tt = st;
    r->seconds = omp_get_wtime() - sh.t0;
    r->rate = r->seconds > 0 ? (double)nodes / r->seconds : 0;
    r->tt_bytes = tt.bytes;
    r->tt_slots = pb_tt_slots(&tt);
    r->tt_used = st.inserted;
    r->peak_rss = pb_peak_rss();
    free(w0);
    free(sh.jobs);
    free(sh.score_owner);
    pb_tt_free(&tt);
    return 0;
}

void pb_solve_result_free(pb_solve_result *r) {
    for (int i = 0; i < r->nturns; i++) free(r->turns[i].nodes);
    for (int i = 0; i < r->npv; i++) free(r->pv[i].nodes);
    free(r->turns);
    free(r->pv);
    memset(r, 0, sizeof *r);
}

/* ---- a solver kept between questions ---- */

struct pb_solver {
    const pb_field *f;
    pb_tt tt;
    shared sh;
    worker w;
    double limit;
};

void pb_solver_set_limit(pb_solver *s, double seconds) { s->limit = seconds; }

/* Arms the time limit for one question. */
static void solver_begin(pb_solver *s) {
    s->sh.deadline = s->limit > 0 ? omp_get_wtime() + s->limit : 0;
    atomic_store(&s->sh.halt, 0);
    s->w.aborted = 0;
}

pb_solver *pb_solver_new(const pb_field *f, size_t hash_bytes) {
    pb_solver *s = malloc(sizeof *s);
    if (!s) return NULL;
    s->f = f;
    s->limit = 0;
    if (pb_tt_init(&s->tt, f, hash_bytes ? hash_bytes : PB_SOLVE_DEFAULT_HASH)) {
        free(s);
        return NULL;
    }
    shared_init(&s->sh, f, &s->tt);
    worker_init(&s->w, &s->sh, 1);
    return s;
}

void pb_solver_free(pb_solver *s) {
    if (!s) return;
    free(s->sh.score_owner);
    pb_tt_free(&s->tt);
    free(s);
}

int pb_solver_value(pb_solver *s, const pb_position *p) {
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    solver_begin(s);
    int v = value_of(&s->w, q);
    free(q);
    return s->w.aborted ? PB_UNKNOWN : v;
}

int pb_solver_best_route(pb_solver *s, const pb_position *p, int16_t *nodes, int cap, int *kick, int *value) {
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    solver_begin(s);
    int v = value_of(&s->w, q);
    int len = s->w.aborted ? 0 : best_route(&s->w, q, v, nodes, cap, kick);
    *value = s->w.aborted ? PB_UNKNOWN : v;
    free(q);
    return s->w.aborted ? 0 : len;
}

uint64_t pb_solver_nodes(const pb_solver *s) { return s->w.nodes; }
