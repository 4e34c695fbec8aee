/* distance.c - the value and distance to the end of a position (distance.h)
 * by an alpha-beta search over distance-scored values, with a table of
 * proven bounds, and a line that realises the distance.
 *
 * Scores.  One integer per position for its player to move, larger is
 * better, in the tablebases' order:
 *
 *   win in k turns    DIST_WIN - k       (k >= 1)
 *   draw              0
 *   loss in k turns   -(DIST_WIN - k)
 *
 * A turn that ends the game is worth its end (win or loss in 1, or a draw).
 * A turn after which the game goes on is worth the score c of the position
 * after it, seen from the mover (-c when the opponent moves next, c when
 * the mover moves again, as after a triple kick), one turn older: age()
 * moves a win or a loss one turn further away and leaves a draw alone.
 * age() never decreases, so a window (alpha, beta) on the turn's score is
 * the window (unage(alpha), unage(beta)) on the mover's view of the child,
 * and age(unage(x)) = x for every integer x: fail-soft bounds found in the
 * child's window are bounds in the parent's (the usual alpha-beta argument
 * goes through unchanged).  Every score stored or returned as exact is a
 * real score (an end, a draw, or an aged real score), so the sentinel
 * DIST_INF never leaves the search.
 *
 * Exactness.  The table is keyed by the whole position (drawn segments,
 * ball, player to move) and compares whole keys, so a hit answers only for
 * the position asked about; it stores proven lower and upper bounds,
 * merged when the same key comes again; replacement loses bounds, never
 * truth.  A search cut short (time limit, stop flag) stores nothing and
 * reports no value.  No answer depends on the table's size: a smaller one
 * only searches more.
 *
 * The turns of a position are its distinct outcomes (pb_turn_outcomes),
 * not its routes: routes to the same position have the same score.  A
 * mover who can score at once wins in 1, the best score there is, so such
 * a position is not expanded (book and hockey; pb_turn_can_score).
 */
#include "distance.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "turnwalk.h"

#define DIST_WIN 16000
#define DIST_INF (DIST_WIN + 1)
#define DIST_POLL 1023u /* check the clock every 1024 positions */

static inline int dist_age(int s) { return s > 0 ? s - 1 : s < 0 ? s + 1 : 0; }
static inline int dist_unage(int s) { return s > 0 ? s + 1 : s < 0 ? s - 1 : 0; }
static inline int dist_end(int loser, int me) {
    return loser == PB_NOBODY ? 0 : loser == me ? -(DIST_WIN - 1) : DIST_WIN - 1;
}

/* ---- the table: two ways per bucket, whole keys beside ---- */

typedef struct dist_entry {
    uint64_t hash;
    int16_t lo, hi; /* proven bounds; lo == hi: exact */
    uint8_t used, work;
} dist_entry;

typedef struct dist_table {
    size_t nbuckets, kw; /* kw: key words, the segments and one for ball and player */
    dist_entry *e;       /* 2 per bucket: way 0 keeps the most work, way 1 the latest */
    uint64_t *keys;      /* kw words per way */
    uint64_t probes, hits, stores;
} dist_table;

static int table_init(dist_table *t, const pb_field *f, size_t bytes) {
    memset(t, 0, sizeof *t);
    t->kw = (size_t)f->nwords + 1;
    size_t per = 2 * (sizeof(dist_entry) + t->kw * sizeof(uint64_t));
    t->nbuckets = bytes / per ? bytes / per : 1;
    t->e = calloc(2 * t->nbuckets, sizeof *t->e);
    t->keys = malloc(2 * t->nbuckets * t->kw * sizeof(uint64_t));
    if (!t->e || !t->keys) {
        free(t->e), free(t->keys);
        return -1;
    }
    return 0;
}

static void table_key(const dist_table *t, const pb_position *p, uint64_t *key) {
    memcpy(key, p->seg, (t->kw - 1) * sizeof(uint64_t));
    key[t->kw - 1] = (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16;
}

/* The way holding p's whole key, or NULL. */
static dist_entry *table_find(dist_table *t, const pb_position *p, const uint64_t *key) {
    size_t b = (size_t)(p->hash % t->nbuckets) * 2;
    for (size_t w = b; w < b + 2; w++)
        if (t->e[w].used && t->e[w].hash == p->hash && !memcmp(t->keys + w * t->kw, key, t->kw * sizeof(uint64_t)))
            return &t->e[w];
    return NULL;
}

static void table_store(dist_table *t, const pb_position *p, const uint64_t *key, int lo, int hi, int work) {
    t->stores++;
    dist_entry *e = table_find(t, p, key);
    if (e) { /* both bounds are proven: so is their intersection */
        if (lo > e->lo) e->lo = (int16_t)lo;
        if (hi < e->hi) e->hi = (int16_t)hi;
        if (work > e->work) e->work = (uint8_t)work;
        return;
    }
    size_t b = (size_t)(p->hash % t->nbuckets) * 2;
    size_t w = !t->e[b].used || work >= t->e[b].work ? b : b + 1;
    t->e[w] = (dist_entry){p->hash, (int16_t)lo, (int16_t)hi, 1, (uint8_t)work};
    memcpy(t->keys + w * t->kw, key, t->kw * sizeof(uint64_t));
}

/* ---- the search ---- */

/* One distinct turn from a position, kept small: the position after it is
 * the position before plus the segments it drew (its segment words are in
 * the level's word array), with its ball and player to move. */
typedef struct dist_kid {
    int16_t ball;
    uint8_t to_move;
    int8_t end, loser, mover;
} dist_kid;

/* The turns of the positions on the current path, one array per depth
 * (reused: a depth's array is rewritten only after its turns are done). */
typedef struct dist_level {
    dist_kid *kids;
    uint64_t *segs; /* nwords per kid */
    int n, cap;
} dist_level;

typedef struct dist_ctx {
    const pb_field *f;
    const pb_distance_opts *o;
    dist_table t;
    pb_turnwalk *tw;
    pb_solver *value; /* the value alone, by the step-level solver */
    dist_level *lv;
    int nlv;
    uint64_t nodes;
    double start, deadline, next_report;
    int aborted; /* stopped (1) or out of memory (2): no result holds */
} dist_ctx;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void poll(dist_ctx *c) {
    double t = now();
    if ((c->o->stop && *c->o->stop) || (c->deadline > 0 && t >= c->deadline)) c->aborted = 1;
    if (c->o->progress && t >= c->next_report) {
        fprintf(c->o->progress, "shortest: %llu positions, %.1f s\n", (unsigned long long)c->nodes, t - c->start);
        c->next_report = t + 2.0;
    }
}

static int collect(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    dist_level *L = ctx;
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 16;
        dist_kid *k = realloc(L->kids, sizeof *k * (size_t)cap);
        if (!k) return 1;
        L->kids = k;
        uint64_t *w = realloc(L->segs, sizeof *w * (size_t)cap * (size_t)f->nwords);
        if (!w) return 1;
        L->segs = w, L->cap = cap;
    }
    memcpy(L->segs + (size_t)L->n * (size_t)f->nwords, o->after->seg, sizeof(uint64_t) * (size_t)f->nwords);
    L->kids[L->n++] = (dist_kid){o->after->ball, o->after->to_move, (int8_t)o->end, (int8_t)o->loser, (int8_t)o->mover};
    return 0;
}

/* The position after turn i of level L from p. */
static void kid_position(const pb_field *f, const dist_level *L, int i, const pb_position *p, pb_position *q) {
    *q = *p;
    const uint64_t *seg = L->segs + (size_t)i * (size_t)f->nwords;
    for (int w = 0; w < f->nwords; w++)
        for (uint64_t x = seg[w] ^ p->seg[w]; x; x &= x - 1) pb_draw_segment(f, q, w * 64 + __builtin_ctzll(x));
    pb_set_ball(f, q, L->kids[i].ball);
    pb_set_to_move(f, q, L->kids[i].to_move);
}

/* The distinct turns of p into the array of depth d.  Returns their
 * number, or -1 (out of memory: c->aborted = 2). */
static int list_turns(dist_ctx *c, const pb_position *p, int d) {
    if (d >= c->nlv) {
        int n = 2 * d + 8;
        dist_level *lv = realloc(c->lv, sizeof *lv * (size_t)n);
        if (!lv) return c->aborted = 2, -1;
        memset(lv + c->nlv, 0, sizeof *lv * (size_t)(n - c->nlv));
        c->lv = lv, c->nlv = n;
    }
    dist_level *L = &c->lv[d];
    L->n = 0;
    if (pb_turn_outcomes(c->tw, p, collect, L) < 0) return c->aborted = 2, -1;
    return L->n;
}

/* The turns in the order they are tried: the game-ending ones first
 * (cheap, and a win in 1 ends the search of the position), then the rest,
 * each group in the order of pb_turn_outcomes.  Returns the index of the
 * next one, or -1; *at carries the walk (start it at 0). */
static int next_turn(const dist_level *L, int *at) {
    for (int k = *at; k < 2 * L->n; k++) {
        int i = k % L->n;
        if ((L->kids[i].end != PB_END_NONE) == (k < L->n)) {
            *at = k + 1;
            return i;
        }
    }
    return -1;
}

static int search(dist_ctx *c, const pb_position *p, int d, int alpha, int beta);

/* The score for p's mover of turn i of level d, searched in the window
 * (alpha, beta) on that score. */
static int turn_score(dist_ctx *c, const pb_position *p, int d, int i, int alpha, int beta) {
    const dist_kid *k = &c->lv[d].kids[i];
    int me = p->to_move;
    if (k->end != PB_END_NONE) return dist_end(k->loser, me);
    pb_position q;
    kid_position(c->f, &c->lv[d], i, p, &q);
    if (q.to_move == me) return dist_age(search(c, &q, d + 1, dist_unage(alpha), dist_unage(beta)));
    return dist_age(-search(c, &q, d + 1, -dist_unage(beta), -dist_unage(alpha)));
}

/* Fail-soft alpha-beta: the score of p (a position where the game goes on)
 * for its player to move, exact if strictly inside (alpha, beta), else a
 * bound on the side it fell.  The turns are all the mover's (the best
 * counts) or, in triple, all free-kick chains of the opponent (the worst
 * counts); docs/rules.md §3. */
static int search(dist_ctx *c, const pb_position *p, int d, int alpha, int beta) {
    /* A game that goes on scores between a loss in 1 and a win in 1: a
     * window outside that is answered at once (this bounds the depth of a
     * "win within k turns?" question by k). */
    if (alpha >= DIST_WIN - 1) return DIST_WIN - 1;
    if (beta <= -(DIST_WIN - 1)) return -(DIST_WIN - 1);
    if ((++c->nodes & DIST_POLL) == 0) poll(c);
    if (c->aborted) return 0;
    uint64_t key[PB_MAX_WORDS + 1];
    table_key(&c->t, p, key);
    c->t.probes++;
    dist_entry *e = table_find(&c->t, p, key);
    if (e) {
        c->t.hits++;
        if (e->lo == e->hi || e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
    }
    const uint64_t nodes0 = c->nodes;
    const int a0 = alpha, b0 = beta;
    int best;
    if (pb_turns_are_steps(c->f) && pb_turn_can_score(c->tw, p) == 1) best = DIST_WIN - 1;
    else {
        int n = list_turns(c, p, d);
        if (n < 0) return 0;
        int maxing = n == 0 || c->lv[d].kids[0].mover == p->to_move;
        best = n == 0 ? 0 : maxing ? -DIST_INF : DIST_INF; /* no turn at all: a draw (triple) */
        for (int at = 0, i; (i = next_turn(&c->lv[d], &at)) >= 0;) {
            int v = turn_score(c, p, d, i, alpha, beta);
            if (c->aborted) return 0;
            if (maxing) {
                if (v > best) best = v;
                if (v > alpha) alpha = v;
                if (best >= beta || best >= DIST_WIN - 1) break;
            } else {
                if (v < best) best = v;
                if (v < beta) beta = v;
                if (best <= alpha || best <= -(DIST_WIN - 1)) break;
            }
        }
    }
    /* Fail-soft bounds against the window searched; a win or loss in 1 is
     * as far as a score goes, so it is exact whatever the window. */
    int lo = best > a0 ? best : -DIST_INF, hi = best < b0 ? best : DIST_INF;
    if (best == DIST_WIN - 1 || best == -(DIST_WIN - 1)) lo = hi = best;
    int work = 0;
    for (uint64_t m = c->nodes - nodes0; m; m >>= 1) work++;
    table_store(&c->t, p, key, lo, hi, work);
    return best;
}

/* The exact score of p.  The value comes first, from the step-level
 * solver (fast); then "a win within k turns?" (or, for a loss, "a loss in
 * no fewer than k + 1?") for k = 1, 2, ...: a null-window question whose
 * search the window itself keeps k turns deep, answered mostly from the
 * table as k grows.  The first k whose answer turns gives the distance.
 * 0 with c->aborted set if stopped. */
static int exact_score(dist_ctx *c, const pb_position *p, int d_root) {
    if (c->deadline > 0) {
        double left = c->deadline - now();
        if (left <= 0) return c->aborted = 1, 0;
        pb_solver_set_limit(c->value, left);
    }
    int v = pb_solver_value(c->value, p);
    if (v == PB_UNKNOWN) return c->aborted = 1, 0;
    if (v == PB_DRAW) return 0;
    for (int k = 1; k < DIST_WIN - 1; k++) {
        if (c->o->progress && d_root && now() - c->start >= 2.0) /* quiet for quick answers */
            fprintf(c->o->progress, "shortest: %s in %d turns or %s? (%llu positions, %.1f s)\n",
                    v == PB_WIN ? "a win" : "a loss", k, v == PB_WIN ? "fewer" : "more", (unsigned long long)c->nodes,
                    now() - c->start);
        if (v == PB_WIN && search(c, p, 0, DIST_WIN - k - 1, DIST_WIN - k) >= DIST_WIN - k) return DIST_WIN - k;
        if (v == PB_LOSS && search(c, p, 0, -(DIST_WIN - k), -(DIST_WIN - k) + 1) <= -(DIST_WIN - k))
            return -(DIST_WIN - k);
        if (c->aborted) return 0;
    }
    return c->aborted = 2, 0; /* not reached: a game has fewer turns than that */
}

/* ---- the line ---- */

typedef struct route_match {
    const pb_position *target;
    int end;
    int16_t *nodes;
    int cap, len, kick;
} route_match;

static int match_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    route_match *m = ctx;
    if ((int)r->end != m->end || r->len > m->cap || !pb_position_equal(f, after, m->target)) return 0;
    memcpy(m->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    m->len = r->len, m->kick = r->kick;
    return 1;
}

/* The next turn of the line from q: a route to the first turn (game-ending
 * ones first) whose score is q's own. */
static int line_next(void *ctx, pb_position *q, int16_t *nodes, int cap, int *kick) {
    dist_ctx *c = ctx;
    int v = exact_score(c, q, 0);
    int n = c->aborted ? -1 : list_turns(c, q, 0);
    for (int at = 0, i; n > 0 && (i = next_turn(&c->lv[0], &at)) >= 0;) {
        if (turn_score(c, q, 0, i, v - 1, v + 1) != v) {
            if (c->aborted) return 0;
            continue;
        }
        /* The position after the turn as pb_routes_foreach hands it (a
         * finished game: its last segment drawn, the ball where it ended). */
        pb_position target;
        kid_position(c->f, &c->lv[0], i, q, &target);
        route_match m = {&target, c->lv[0].kids[i].end, nodes, cap, 0, 0};
        pb_routes_foreach(c->f, q, match_route, &m);
        *kick = m.kick;
        return m.len;
    }
    return 0;
}

static void result_from(pb_distance_result *r, int s) {
    r->value = s > 0 ? PB_WIN : s < 0 ? PB_LOSS : PB_DRAW;
    r->distance = s > 0 ? DIST_WIN - s : s < 0 ? DIST_WIN + s : 0;
}

int pb_distance_solve(const pb_field *f, const pb_position *p, const pb_distance_opts *o, pb_distance_result *r) {
    memset(r, 0, sizeof *r);
    r->value = PB_UNKNOWN;
    dist_ctx c = {.f = f, .o = o};
    /* The budget: a quarter for the value solver's table, the rest here. */
    size_t bytes = o->table_bytes ? o->table_bytes : pb_solve_default_hash(f, p);
    c.tw = pb_turnwalk_new(f);
    c.value = pb_solver_new(f, bytes / 4 ? bytes / 4 : 1);
    if (!c.tw || !c.value || table_init(&c.t, f, bytes - bytes / 4)) {
        pb_turnwalk_free(c.tw);
        if (c.value) pb_solver_free(c.value);
        return -1;
    }
    pb_solver_set_stop(c.value, o->stop); /* a signal stops the value as it stops the distance */
    c.start = now();
    c.deadline = o->time_limit > 0 ? c.start + o->time_limit : 0;
    c.next_report = c.start + 2.0;
    int s = exact_score(&c, p, 1);
    if (!c.aborted) {
        result_from(r, s);
        pb_solve_result line = {0};
        pb_solve_line(f, p, &line, line_next, &c, o->no_line ? 1 : 0);
        r->npv = line.npv, r->pv = line.pv;
    }
    r->stopped = c.aborted == 1;
    r->nodes = c.nodes;
    r->seconds = now() - c.start;
    r->table_slots = 2 * c.t.nbuckets;
    r->table_bytes = r->table_slots * (sizeof(dist_entry) + c.t.kw * sizeof(uint64_t));
    r->probes = c.t.probes, r->hits = c.t.hits, r->stores = c.t.stores;
    for (int i = 0; i < c.nlv; i++) free(c.lv[i].kids), free(c.lv[i].segs);
    free(c.lv);
    free(c.t.e), free(c.t.keys);
    pb_turnwalk_free(c.tw);
    pb_solver_free(c.value);
    return c.aborted == 2 ? -1 : 0;
}

void pb_distance_result_free(pb_distance_result *r) {
    pb_turns_free(r->pv, r->npv, sizeof *r->pv);
    memset(r, 0, sizeof *r);
}
