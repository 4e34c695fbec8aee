/* match_search.c - the match solver (API in match_search.h).
 *
 * Algorithm.  A node is a match position (drawn segments, ball, player to
 * move); its children are the plies of pb_match_foreach.  A ply worth g to
 * the player to move (+1 a goal scored, -1 a goal conceded, 0 none) that
 * ends the match is a leaf of value g; otherwise the child is worth g plus
 * the child's value, negated when the other side moves there.  Normal
 * moves are the mover's choice (maximum); kick chains are the opponent's
 * (minimum).  A position with no ply is a finished match: 0.  The search
 * is fail-soft alpha-beta in negamax form over integers, the child's
 * window shifted by g.
 *
 * Why the answers are exact, whatever the table size and thread count:
 *  1. The match graph is acyclic: every ply draws at least one segment,
 *     and a goal keeps every segment drawn.
 *  2. The key is the position alone.  What can still happen from a
 *     position depends on its segments, ball and player to move only (the
 *     rules never look at the score), and the final difference is the
 *     difference so far plus what is still to come.  Adding a constant
 *     changes no one's best choice, so the value of "what is still to
 *     come" is a function of the position, equal on every path to it.
 *     Nothing is dropped from the key: after a goal the ball goes back to
 *     the centre, so every free segment of the sheet may matter again.
 *  3. Fail-soft alpha-beta returns v with: v <= alpha implies value <= v,
 *     v >= beta implies value >= v, otherwise value == v.  Exactly these
 *     bounds are stored, classified against the window searched, and
 *     merged only as (larger lower, smaller upper): every stored bound is a
 *     theorem about its position.
 *  4. A slot holds the whole position, so a probe answers only for the
 *     position asked about: a hash collision costs a slot, never a value.
 *     Slots are read and written under their bucket's lock; replacement
 *     loses bounds, never truth, so a tiny table only costs time.
 *  5. A search cut short (stop flag, time limit) unwinds without storing
 *     anything from the unfinished nodes, and its result is thrown away.
 * Threads take the first turns (one per mirror class) as jobs and share
 * the table; each job's value is exact by 1-5, so the root value and every
 * first turn's value are the same for any thread count and schedule.
 * tests/test_match.c checks this against the independent brute force of
 * tests/ref_match.c, with 1 and 2 threads and a tiny and a large table.
 */
#include "match_search.h"

#include <assert.h>
#include <omp.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "triple.h"

#define POLL_MASK 1023
/* Beyond any goal difference: every goal draws a segment. */
#define INF 30000

/* ---- the table: whole positions with integer bounds ----
 *
 *   slot = nwords + 1 words: the drawn-segment bitset, then meta:
 *     bits  0..15  ball          bit 16  player to move     bit 17  in use
 *     bits 18..25  work (bit length of the plies searched below, saturating)
 *     bits 32..47  lower bound + 32768
 *     bits 48..63  upper bound + 32768
 */
#define WAYS 4

typedef struct mtable {
    int nwords, kw;
    size_t nbuckets, bytes;
    uint64_t *slots;
    atomic_flag *locks;
} mtable;

static int table_init(mtable *t, const pb_field *f, size_t max_bytes) {
    t->nwords = f->nwords;
    t->kw = f->nwords + 1;
    size_t bucket = sizeof(uint64_t) * (size_t)t->kw * WAYS + sizeof(atomic_flag);
    t->nbuckets = 1;
    while (2 * t->nbuckets * bucket <= max_bytes) t->nbuckets *= 2;
    t->slots = calloc(t->nbuckets * WAYS * (size_t)t->kw, sizeof(uint64_t));
    t->locks = malloc(sizeof(atomic_flag) * t->nbuckets);
    if (!t->slots || !t->locks) {
        free(t->slots);
        free(t->locks);
        return -1;
    }
    for (size_t i = 0; i < t->nbuckets; i++) atomic_flag_clear(&t->locks[i]);
    t->bytes = t->nbuckets * bucket;
    return 0;
}

static void table_free(mtable *t) {
    free(t->slots);
    free(t->locks);
}

static uint64_t meta_key(const pb_position *p) {
    return (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16 | ((uint64_t)1 << 17);
}
#define META_KEY_MASK (((uint64_t)1 << 18) - 1)
#define USED ((uint64_t)1 << 17)
static uint64_t work_of(uint64_t meta) { return (meta >> 18) & 0xff; }

static uint64_t *bucket_of(const mtable *t, const pb_position *p, size_t *b) {
    *b = (size_t)(p->hash ^ p->hash >> 29) & (t->nbuckets - 1);
    return t->slots + *b * WAYS * (size_t)t->kw;
}

static void lock(mtable *t, size_t b) {
    while (atomic_flag_test_and_set_explicit(&t->locks[b], memory_order_acquire)) {}
}
static void unlock(mtable *t, size_t b) { atomic_flag_clear_explicit(&t->locks[b], memory_order_release); }

static int same(const mtable *t, const uint64_t *slot, const pb_position *p, uint64_t mk) {
    return (slot[t->nwords] & META_KEY_MASK) == mk && !memcmp(slot, p->seg, sizeof(uint64_t) * (size_t)t->nwords);
}

static int table_probe(mtable *t, const pb_position *p, int *lo, int *hi) {
    size_t b;
    uint64_t *s = bucket_of(t, p, &b), mk = meta_key(p);
    int hit = 0;
    lock(t, b);
    for (int k = 0; k < WAYS && !hit; k++, s += t->kw)
        if (same(t, s, p, mk)) {
            *lo = (int)((s[t->nwords] >> 32) & 0xffff) - 32768;
            *hi = (int)(s[t->nwords] >> 48) - 32768;
            hit = 1;
        }
    unlock(t, b);
    return hit;
}

static int bit_length(uint64_t x) {
    int n = 0;
    while (x) n++, x >>= 1;
    return n;
}

static void table_store(mtable *t, const pb_position *p, int lo, int hi, uint64_t work) {
    size_t b;
    uint64_t *s = bucket_of(t, p, &b), mk = meta_key(p), *victim = NULL;
    uint64_t w = (uint64_t)bit_length(work);
    lock(t, b);
    for (int k = 0; k < WAYS; k++, s += t->kw) {
        uint64_t m = s[t->nwords];
        if (same(t, s, p, mk)) {
            int olo = (int)((m >> 32) & 0xffff) - 32768, ohi = (int)(m >> 48) - 32768;
            if (olo > lo) lo = olo;
            if (ohi < hi) hi = ohi;
            if (work_of(m) > w) w = work_of(m);
            victim = s;
            break;
        }
        /* Otherwise: an empty slot, else the one with the least work. */
        if (!(m & USED)) {
            if (!victim || (victim[t->nwords] & USED)) victim = s;
        } else if (!victim || ((victim[t->nwords] & USED) && work_of(m) < work_of(victim[t->nwords]))) {
            victim = s;
        }
    }
    memcpy(victim, p->seg, sizeof(uint64_t) * (size_t)t->nwords);
    victim[t->nwords] = mk | w << 18 | (uint64_t)(uint16_t)(lo + 32768) << 32 | (uint64_t)(uint16_t)(hi + 32768) << 48;
    unlock(t, b);
}

/* ---- the search ---- */

typedef struct shared {
    const pb_field *f;
    mtable *tt;
    volatile sig_atomic_t *stop;
    double t0, deadline, next_report;
    atomic_int halt;
    atomic_ullong nodes;
    FILE *progress;
    int njobs;
    atomic_int jobs_done;
} shared;

typedef struct worker {
    shared *sh;
    int id, aborted;
    uint64_t nodes, flushed, calls, probes, hits, stores;
} worker;

static void poll(worker *w) {
    shared *sh = w->sh;
    atomic_fetch_add(&sh->nodes, w->nodes - w->flushed);
    w->flushed = w->nodes;
    if (sh->stop && *sh->stop) atomic_store(&sh->halt, 1);
    double now = omp_get_wtime();
    if (sh->deadline > 0 && now > sh->deadline) atomic_store(&sh->halt, 1);
    if (atomic_load(&sh->halt)) w->aborted = 1;
    if (w->id == 0 && sh->progress && now >= sh->next_report) {
        sh->next_report = now + 2.0;
        double el = now - sh->t0;
        unsigned long long n = atomic_load(&sh->nodes);
        fprintf(sh->progress, "solve --match: %.1f s, %llu plies, %.2fM plies/s, first turns %d/%d done\n", el, n,
                el > 0 ? n / el / 1e6 : 0.0, atomic_load(&sh->jobs_done), sh->njobs);
        fflush(sh->progress);
    }
}

static int msearch(worker *w, pb_position *p, int alpha, int beta);

typedef struct node_ctx {
    worker *w;
    int me, alpha, beta, best_max, best_min, nmax, nmin;
} node_ctx;

/* The value for c->me of ply r, searched with c's window. */
static int ply_value(worker *w, int me, pb_position *after, const pb_route *r, int over, int alpha, int beta) {
    int g = pb_match_gain(r, me);
    if (over) return g;
    if (after->to_move == me) return g + msearch(w, after, alpha - g, beta - g);
    return g - msearch(w, after, g - beta, g - alpha);
}

static int node_child(void *ctx, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    node_ctx *c = ctx;
    (void)f;
    c->w->nodes++;
    int v = ply_value(c->w, c->me, after, r, over, c->alpha, c->beta);
    if (c->w->aborted) return 1;
    if (r->mover == c->me) {
        c->nmax++;
        if (v > c->best_max) c->best_max = v;
        if (v > c->alpha) c->alpha = v;
    } else { /* the opponent's kick chain: the minimum counts */
        c->nmin++;
        if (v < c->best_min) c->best_min = v;
        if (v < c->beta) c->beta = v;
    }
    return c->alpha >= c->beta;
}

/* The match value of p for its player to move, window (alpha, beta),
 * fail-soft.  p is restored on return; if w->aborted is set the result
 * means nothing and nothing unproven was stored. */
static int msearch(worker *w, pb_position *p, int alpha, int beta) {
    assert(alpha < beta);
    if ((++w->calls & POLL_MASK) == 0) poll(w);
    if (w->aborted) return 0;
    int lo, hi;
    w->probes++;
    if (table_probe(w->sh->tt, p, &lo, &hi)) {
        w->hits++;
        if (lo >= beta || lo == hi) return lo;
        if (hi <= alpha) return hi;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    const uint64_t nodes0 = w->nodes;
    node_ctx c = {w, p->to_move, alpha, beta, -INF, INF, 0, 0};
    long n = pb_match_foreach(w->sh->f, p, node_child, &c);
    if (w->aborted) return 0;
    /* Plies are all the mover's normal moves or all the opponent's kick
     * chains (the triple rules); none: the match is over. */
    assert(c.nmax == 0 || c.nmin == 0);
    int best = n == 0 ? 0 : c.nmax ? c.best_max : c.best_min;
    int slo = best >= beta ? best : best > alpha ? best : -INF;
    int shi = best <= alpha ? best : best < beta ? best : INF;
    if (n == 0) slo = shi = 0;
    w->stores++;
    table_store(w->sh->tt, p, slo, shi, w->nodes - nodes0);
    return best;
}

/* The exact value of p by null-window searches (MTD(f) from 0): each
 * search answers "value >= beta?" and returns a bound; the bounds close in
 * on the value, and the table keeps what each search proved for the next.
 * (Measured on (2;4;6): a fifth fewer plies than one full-window search.) */
static int value_of(worker *w, pb_position *p) {
    int lo = -INF, hi = INF, g = 0;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        g = msearch(w, p, beta - 1, beta);
        if (w->aborted) return 0;
        if (g < beta) hi = g;
        else lo = g;
    }
    return g;
}

/* ---- a best ply ---- */

typedef struct pick_ctx {
    worker *w;
    int me, want, found, len, kick, cap;
    int16_t *nodes;
} pick_ctx;

static int pick_ply(void *ctx, const pb_field *f, pb_position *after, const pb_route *r, int over) {
    pick_ctx *c = ctx;
    (void)f;
    /* No ply of the chooser beats the node's value, so one null-window
     * search tells whether this one reaches it. */
    int mine = r->mover == c->me;
    int v = ply_value(c->w, c->me, after, r, over, mine ? c->want - 1 : c->want, mine ? c->want : c->want + 1);
    if (c->w->aborted) return 1;
    if ((mine ? v < c->want : v > c->want) || r->len > c->cap) return 0;
    memcpy(c->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    c->len = r->len, c->kick = r->kick, c->found = 1;
    return 1;
}

/* The first ply in generation order that keeps q's value v (for q's
 * player to move); its length, 0 if none or aborted. */
static int best_ply(worker *w, pb_position *q, int v, int16_t *nodes, int cap, int *kick) {
    pick_ctx c = {w, q->to_move, v, 0, 0, 0, cap, nodes};
    pb_match_foreach(w->sh->f, q, pick_ply, &c);
    *kick = c.kick;
    return c.found && !w->aborted ? c.len : 0;
}

/* ---- the root ---- */

static void shared_init(shared *sh, const pb_field *f, mtable *tt) {
    memset(sh, 0, sizeof *sh);
    sh->f = f;
    sh->tt = tt;
    sh->t0 = omp_get_wtime();
    sh->next_report = sh->t0 + 3.0;
    atomic_init(&sh->halt, 0);
    atomic_init(&sh->nodes, 0);
    atomic_init(&sh->jobs_done, 0);
}

/* The root's turns, listed with their own goals and ends (a ply is at most
 * three links or one kick chain, so the list stays small). */
typedef struct root_list {
    pb_match_result *r;
    int cap, me;
} root_list;

static int collect_turn(void *ctx, const pb_field *f, pb_position *after, const pb_route *route) {
    root_list *c = ctx;
    pb_match_result *r = c->r;
    (void)f;
    if (r->nturns == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        pb_match_turn *t = realloc(r->turns, sizeof *t * (size_t)(c->cap + 1));
        if (!t) abort();
        r->turns = t;
    }
    pb_match_turn *t = &r->turns[r->nturns];
    memset(t, 0, sizeof *t);
    t->nodes = pb_nodes_dup(route->nodes, route->len);
    if (!t->nodes) abort();
    t->len = route->len, t->kick = route->kick, t->mover = route->mover;
    t->klass = r->nturns;
    t->gain = pb_match_gain(route, c->me);
    t->over = route->end == PB_END_NO_KICK;
    (void)after;
    r->nturns++;
    return 0;
}

/* Grouped into mirror classes when the root is its own left-right mirror
 * image: a route joins the class of the earlier route that is its mirror
 * image (mirrored routes have equal values). */
static void root_turns(const pb_field *f, const pb_position *p, pb_match_result *r) {
    root_list c = {r, 0, p->to_move};
    pb_position root = *p, m;
    r->nturns = 0, r->turns = NULL;
    pb_routes_foreach(f, &root, collect_turn, &c);
    if (!r->turns) r->turns = calloc(1, sizeof *r->turns);
    pb_position_mirror(f, p, &m, 1, 0);
    r->mirror_lr = pb_position_equal(f, p, &m);
    for (int i = 0; r->mirror_lr && i < r->nturns; i++) {
        pb_match_turn *a = &r->turns[i];
        for (int j = 0; j < i; j++) {
            const pb_match_turn *b = &r->turns[j];
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

static void run_job(worker *w, pb_match_turn *t, const pb_position *root) {
    pb_position *q = malloc(sizeof *q);
    *q = *root;
    pb_route info;
    char err[256];
    int over, rc = pb_match_play(w->sh->f, q, t->nodes, t->len, t->kick, &info, &over, err, sizeof err);
    assert(rc == 0 && info.end == (t->gain ? PB_END_GOAL : info.end));
    (void)rc;
    double t0 = omp_get_wtime();
    uint64_t n0 = w->nodes;
    int v = over ? 0 : value_of(w, q);
    if (!w->aborted) {
        t->diff = t->gain + (over ? 0 : q->to_move == root->to_move ? v : -v);
        t->over = over;
        t->nodes_searched = w->nodes - n0;
        t->seconds = omp_get_wtime() - t0;
        t->known = 1;
        atomic_fetch_add(&w->sh->jobs_done, 1);
    }
    free(q);
}

/* Mirrors take their class's value; the root's value and best turn. */
static void combine(const pb_position *p, pb_match_result *r) {
    int me = p->to_move, unknown = 0, vmax = -INF, vmin = INF, nmine = 0;
    for (int i = 0; i < r->nturns; i++) {
        pb_match_turn *t = &r->turns[i];
        if (t->klass != i)
            t->known = r->turns[t->klass].known, t->diff = r->turns[t->klass].diff, t->over = r->turns[t->klass].over;
        if (!t->known) {
            unknown++;
            continue;
        }
        if (t->mover == me) nmine++, vmax = t->diff > vmax ? t->diff : vmax;
        else vmin = t->diff < vmin ? t->diff : vmin;
    }
    r->complete = unknown == 0;
    r->known = r->complete;
    r->best = -1;
    if (!r->known) return;
    r->diff = r->nturns == 0 ? 0 : nmine ? vmax : vmin;
    for (int i = 0; i < r->nturns && r->best < 0; i++)
        if (r->turns[i].diff == r->diff) r->best = i;
}

/* The line of perfect play from the best turn to the end of the match. */
static void line(worker *w, const pb_position *p, pb_match_result *r) {
    const pb_field *f = w->sh->f;
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    int cap = pb_triple_max_route(f), pvcap = 16, goals[2] = {0, 0};
    int16_t *buf = malloc(sizeof(int16_t) * (size_t)cap);
    r->line = malloc(sizeof *r->line * (size_t)pvcap);
    const pb_match_turn *bt = &r->turns[r->best];
    int len = bt->len, kick = bt->kick;
    memcpy(buf, bt->nodes, sizeof(int16_t) * (size_t)len);
    for (;;) {
        pb_route info;
        char err[256];
        int over;
        if (pb_match_play(f, q, buf, len, kick, &info, &over, err, sizeof err)) break;
        if (info.end == PB_END_GOAL) goals[info.loser ^ 1]++;
        if (r->nline == pvcap) r->line = realloc(r->line, sizeof *r->line * (size_t)(pvcap *= 2));
        pb_match_line_turn *lt = &r->line[r->nline++];
        lt->nodes = pb_nodes_dup(buf, len);
        lt->len = len, lt->kick = kick, lt->mover = info.mover, lt->goal = info.end == PB_END_GOAL;
        lt->goals[0] = goals[0], lt->goals[1] = goals[1];
        if (over) break;
        int v = value_of(w, q);
        if (w->aborted) break;
        len = best_ply(w, q, v, buf, cap, &kick);
        if (len == 0) break;
    }
    free(buf);
    free(q);
}

int pb_match_solve(const pb_field *f, const pb_position *p, const pb_match_opts *o, pb_match_result *r) {
    memset(r, 0, sizeof *r);
    r->best = -1;
    mtable tt;
    if (table_init(&tt, f, o->hash_bytes ? o->hash_bytes : PB_MATCH_DEFAULT_HASH)) return -1;
    shared sh;
    shared_init(&sh, f, &tt);
    sh.stop = o->stop;
    sh.deadline = o->time_limit > 0 ? sh.t0 + o->time_limit : 0;
    sh.progress = o->progress;
    int nthreads = o->threads > 0 ? o->threads : 1;
    r->threads = nthreads;
    root_turns(f, p, r);
    int *jobs = malloc(sizeof(int) * ((size_t)r->nturns + 1));
    for (int i = 0; i < r->nturns; i++) {
        pb_match_turn *t = &r->turns[i];
        if (t->klass != i) continue;
        if (t->over) t->diff = t->gain, t->known = 1;
        else jobs[sh.njobs++] = i;
    }
    atomic_int next;
    atomic_init(&next, 0);
    worker *w0 = calloc(1, sizeof *w0);
    w0->sh = &sh;
    uint64_t nodes = 0, probes = 0, hits = 0, stores = 0;
#pragma omp parallel num_threads(nthreads)
    {
        int id = omp_get_thread_num();
        worker local, *w = id == 0 ? w0 : &local;
        if (id) memset(w, 0, sizeof *w), w->sh = &sh, w->id = id;
        for (;;) {
            int j = atomic_fetch_add(&next, 1);
            if (j >= sh.njobs || atomic_load(&sh.halt)) break;
            run_job(w, &r->turns[jobs[j]], p);
        }
        if (id) {
#pragma omp critical(pb_match_stats)
            nodes += w->nodes, probes += w->probes, hits += w->hits, stores += w->stores;
        }
    }
    r->stopped = atomic_load(&sh.halt);
    combine(p, r);
    if (r->best >= 0 && !o->no_pv && !r->stopped) {
        w0->aborted = 0;
        line(w0, p, r);
        r->stopped = w0->aborted;
    }
    r->nodes = nodes + w0->nodes;
    r->probes = probes + w0->probes, r->hits = hits + w0->hits, r->stores = stores + w0->stores;
    r->seconds = omp_get_wtime() - sh.t0;
    r->tt_bytes = tt.bytes;
    r->tt_slots = tt.nbuckets * WAYS;
    free(w0);
    free(jobs);
    table_free(&tt);
    return 0;
}

/* pb_turns_free reads each record's route as its first member. */
_Static_assert(offsetof(pb_match_turn, nodes) == 0 && offsetof(pb_match_line_turn, nodes) == 0, "route first");

void pb_match_result_free(pb_match_result *r) {
    pb_turns_free(r->turns, r->nturns, sizeof *r->turns);
    pb_turns_free(r->line, r->nline, sizeof *r->line);
    memset(r, 0, sizeof *r);
}

/* ---- a solver kept between questions ---- */

struct pb_match_solver {
    mtable tt;
    shared sh;
    worker w;
    double limit;
};

void pb_match_solver_set_limit(pb_match_solver *s, double seconds) { s->limit = seconds; }

/* Arms the time limit for one question. */
static void solver_begin(pb_match_solver *s) {
    s->sh.deadline = s->limit > 0 ? omp_get_wtime() + s->limit : 0;
    atomic_store(&s->sh.halt, 0);
    s->w.aborted = 0;
}

pb_match_solver *pb_match_solver_new(const pb_field *f, size_t hash_bytes) {
    pb_match_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (table_init(&s->tt, f, hash_bytes ? hash_bytes : PB_MATCH_DEFAULT_HASH)) {
        free(s);
        return NULL;
    }
    shared_init(&s->sh, f, &s->tt);
    s->w.sh = &s->sh;
    s->w.id = 1;
    return s;
}

void pb_match_solver_free(pb_match_solver *s) {
    if (!s) return;
    table_free(&s->tt);
    free(s);
}

int pb_match_solver_value(pb_match_solver *s, const pb_position *p, int *diff) {
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    solver_begin(s);
    *diff = value_of(&s->w, q);
    free(q);
    return s->w.aborted ? -1 : 0;
}

int pb_match_solver_best(pb_match_solver *s, const pb_position *p, int16_t *nodes, int cap, int *kick, int *diff) {
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    solver_begin(s);
    *diff = value_of(&s->w, q);
    int len = s->w.aborted ? 0 : best_ply(&s->w, q, *diff, nodes, cap, kick);
    free(q);
    return s->w.aborted ? 0 : len;
}
