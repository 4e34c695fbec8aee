/* jobs.c - job-level proof-number search over the top of a solve (API in
 * jobs.h).
 *
 * The graph.  A vertex is a position between turns, stored whole (packed
 * key, posset.h) in the smaller of its two left-right orientations, which
 * have one value for the player to move (the rules are left-right
 * symmetric; search.c's keys rest on the same fact).  Equal keys are one
 * vertex, found in a posset (posset.h), which compares whole keys:
 * transpositions merge, and a hash collision can only cost a probe.  An
 * expanded vertex has an edge to each distinct position after one turn
 * (pb_turn_outcomes); turns that end the game are folded into the vertex
 * as a number (the best end for the player who chooses the turn).
 *
 * Values.  Every value is kept for A, the root's player to move, as a pair
 * of bounds lo <= value <= hi in {-1, 0, 1}.  A job's answer is exact
 * (lo = hi).  An expanded vertex's bounds are the max (A chooses the turn)
 * or the min (the opponent chooses: its own move, or a triple kick chain
 * after which A moves again) of its children's bounds and its ends; a
 * triple position with no turn at all is a draw (docs/rules.md, as in
 * search.c).  Bounds only ever tighten (the new pair is intersected with
 * the old), and each is a theorem about the position: an exact value of
 * the position itself, or the max/min of theorems about all its turns.
 *
 * The question.  Proof numbers answer a yes/no question: "is the value for
 * A at least T?".  T = 1 ("can A win?") first, then T = 0 ("can A avoid
 * losing?") for what is not decided yet; with both answers every vertex
 * asked about has its exact value, and in book (no draws: every value is
 * -1 or 1) the first question alone decides.  Yes/no questions rather than
 * three-valued numbers: the numbers of one question are the classic ones
 * (min at the chooser's vertex, sum at the other), and the second question
 * reuses every bound the first proved.  A vertex whose bounds answer the
 * question has pn = 0 (yes) or dn = 0 (no); a leaf not yet asked has 1, 1.
 *
 * Jobs in flight.  Each vertex keeps two sets of numbers: k = 0 counts a
 * job in flight as a yes, k = 1 as a no.  The next job is the most-proving
 * leaf under k = 0 (what else must be shown if the jobs out prove what we
 * hope), or, when those numbers already answer every goal, under k = 1;
 * when both answer, every useful leaf is out and the worker waits.  These
 * assumptions steer the choice only: the bounds, which decide everything,
 * come from answers alone.
 *
 * Why the values are exact, whatever the workers, their order and their
 * budgets: a goal's value is read from bounds, and every bound is a theorem
 * (above); the search ends only when the goals' bounds meet.  Which jobs
 * run, fail or come back first changes the shape of the graph and the work,
 * never a bound.  The graph is acyclic (each turn draws segments), so the
 * numbers are recomputed bottom up: by depth (drawn segments), deepest
 * first, from a changed vertex through its parents, stopping where nothing
 * changes.
 */
#include "jobs.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "posset.h"
#include "search.h"
#include "turnwalk.h"

#define INF ((uint64_t)1 << 60)
#define NONE32 UINT32_MAX

enum { LEAF = 0, FLIGHT, EXPANDED };

typedef struct jnode {
    uint64_t pn[2], dn[2];   /* k = 0: jobs in flight count as yes; k = 1: as no */
    uint32_t edge0, nedge;   /* children: edges[edge0 .. edge0 + nedge) */
    uint32_t in;             /* first edge into this vertex (a list through next_in) */
    uint32_t stamp;          /* expansion that last linked it (no double edges) */
    int32_t home;            /* worker whose job was its parent; -1 none */
    int32_t worker;          /* worker of its job while in flight */
    int16_t depth;           /* drawn segments: children are deeper */
    int8_t lo, hi;           /* bounds of the value for A */
    int8_t state, chooser_a; /* chooser_a: A chooses its turn (when expanded) */
    int8_t end_set, end_val; /* the best end among its turns, for the chooser */
    int8_t logged, dirty;
} jnode;

typedef struct jedge {
    uint32_t parent, child, next_in;
} jedge;

struct pb_jobs {
    const pb_field *f;
    int a, kw, T;
    jnode *nodes;
    uint64_t *keys; /* kw words per vertex */
    size_t n, cap;
    jedge *edges;
    size_t ne, ecap;
    pb_posset index; /* canonical position -> vertex */
    uint32_t *goals;
    int ngoals;
    uint32_t *log;
    size_t nlog, logcap;
    uint32_t **bucket; /* vertices to recompute, by depth */
    size_t *blen, *bcap;
    int ndepth;
    pb_turnwalk *tw;
    const pb_proven *known;   /* saved proofs, or NULL */
    uint64_t *kbuf;           /* 2 * kw words of scratch */
    pb_position *pbuf, *cbuf; /* scratch */
    pb_jobs_stats st;
    int error;
};

static int grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * size);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* p's orientation of smaller packed key (of p and its left-right mirror
 * image) into *out, its key into j->kbuf. */
static void canonical(pb_jobs *j, const pb_position *p, pb_position *out) {
    uint64_t *k2 = j->kbuf + j->kw;
    pb_position_pack(j->f, p, j->kbuf);
    pb_position_mirror(j->f, p, j->pbuf, 1, 0);
    pb_position_pack(j->f, j->pbuf, k2);
    int m = memcmp(k2, j->kbuf, sizeof(uint64_t) * (size_t)j->kw) < 0;
    *out = m ? *j->pbuf : *p;
    if (m) memcpy(j->kbuf, k2, sizeof(uint64_t) * (size_t)j->kw);
}

static void touch(pb_jobs *j, uint32_t v);

/* The vertex of c (canonical(), its key in j->kbuf), created as a leaf if
 * new; NONE32 if memory ran out.  Pointers into j->nodes do not survive
 * the call. */
static uint32_t vertex(pb_jobs *j, const pb_position *c, int *isnew) {
    uint64_t *slot = pb_posset_slot(&j->index, j->f, c, isnew);
    if (slot == &j->index.sink) return NONE32; /* left out: memory ran out */
    if (!*isnew) return (uint32_t)*slot;
    if (grow((void **)&j->nodes, &j->cap, j->n + 1, sizeof *j->nodes)) return NONE32;
    uint64_t *k = realloc(j->keys, sizeof(uint64_t) * j->cap * (size_t)j->kw);
    if (!k) return NONE32;
    j->keys = k;
    uint32_t v = (uint32_t)j->n++;
    *slot = v;
    memcpy(j->keys + (size_t)v * j->kw, j->kbuf, sizeof(uint64_t) * (size_t)j->kw);
    jnode *x = &j->nodes[v];
    memset(x, 0, sizeof *x);
    x->pn[0] = x->pn[1] = x->dn[0] = x->dn[1] = 1;
    x->in = NONE32;
    x->home = x->worker = -1;
    x->lo = -1, x->hi = 1;
    x->depth = (int16_t)pb_position_drawn_count(j->f, c);
    j->st.positions = j->n;
    int lo, hi;
    if (j->known && pb_proven_probe(j->known, c->seg, c->ball, c->to_move, c->hash, &lo, &hi, NULL)) {
        /* Saved bounds for the player to move there, turned into A's. */
        int a = c->to_move == j->a;
        x->lo = (int8_t)(a ? lo : -hi), x->hi = (int8_t)(a ? hi : -lo);
        touch(j, v);
    }
    return v;
}

static int mover_of(const pb_jobs *j, uint32_t v) { return (int)(j->keys[(size_t)v * j->kw + j->kw - 1] >> 16); }

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b >= INF ? INF : a + b; }

/* Recomputes v's bounds and numbers from its children; 1 if they changed. */
static int compute(pb_jobs *j, uint32_t v) {
    jnode *x = &j->nodes[v];
    int lo = x->lo, hi = x->hi;
    if (x->state == EXPANDED && lo != hi) {
        int ca = x->chooser_a, nlo, nhi;
        if (!x->nedge && !x->end_set) nlo = nhi = PB_DRAW; /* no turn at all (triple) */
        else {
            nlo = nhi = ca ? -2 : 2;
            if (x->end_set) nlo = nhi = x->end_val;
            for (uint32_t e = x->edge0; e < x->edge0 + x->nedge; e++) {
                const jnode *c = &j->nodes[j->edges[e].child];
                if (ca) nlo = c->lo > nlo ? c->lo : nlo, nhi = c->hi > nhi ? c->hi : nhi;
                else nlo = c->lo < nlo ? c->lo : nlo, nhi = c->hi < nhi ? c->hi : nhi;
            }
        }
        if (nlo > lo) lo = nlo;
        if (nhi < hi) hi = nhi;
        assert(lo <= hi); /* two theorems about one position cannot disagree */
    }
    uint64_t pn[2], dn[2];
    for (int k = 0; k < 2; k++) {
        if (lo >= j->T) pn[k] = 0, dn[k] = INF;
        else if (hi < j->T) pn[k] = INF, dn[k] = 0;
        else if (x->state == FLIGHT) pn[k] = k ? INF : 0, dn[k] = k ? 0 : INF;
        else if (x->state == LEAF) pn[k] = dn[k] = 1;
        else {
            uint64_t mn = INF, sum = 0;
            for (uint32_t e = x->edge0; e < x->edge0 + x->nedge; e++) {
                const jnode *c = &j->nodes[j->edges[e].child];
                uint64_t m = x->chooser_a ? c->pn[k] : c->dn[k], s = x->chooser_a ? c->dn[k] : c->pn[k];
                if (m < mn) mn = m;
                sum = sat_add(sum, s);
            }
            if (x->chooser_a) pn[k] = mn, dn[k] = sum;
            else pn[k] = sum, dn[k] = mn;
            if (!pn[k]) dn[k] = INF;
            if (!dn[k]) pn[k] = INF;
        }
    }
    int changed = lo != x->lo || hi != x->hi || memcmp(pn, x->pn, sizeof pn) || memcmp(dn, x->dn, sizeof dn);
    x->lo = (int8_t)lo, x->hi = (int8_t)hi;
    memcpy(x->pn, pn, sizeof pn);
    memcpy(x->dn, dn, sizeof dn);
    if (lo == hi && !x->logged) {
        x->logged = 1;
        if (grow((void **)&j->log, &j->logcap, j->nlog + 1, sizeof *j->log)) j->error = 1;
        else j->log[j->nlog++] = v;
    }
    return changed;
}

static void touch(pb_jobs *j, uint32_t v) {
    jnode *x = &j->nodes[v];
    if (x->dirty) return;
    int d = x->depth;
    if (grow((void **)&j->bucket[d], &j->bcap[d], j->blen[d] + 1, sizeof(uint32_t))) {
        j->error = 1;
        return;
    }
    x->dirty = 1;
    j->bucket[d][j->blen[d]++] = v;
}

/* Recomputes the touched vertices and, where they changed, their
 * ancestors, deepest first (parents are shallower than children). */
static void propagate(pb_jobs *j) {
    for (int d = j->ndepth - 1; d >= 0; d--)
        while (j->blen[d]) {
            uint32_t v = j->bucket[d][--j->blen[d]];
            j->nodes[v].dirty = 0;
            j->st.updates++;
            if (!compute(j, v)) continue;
            for (uint32_t e = j->nodes[v].in; e != NONE32; e = j->edges[e].next_in) touch(j, j->edges[e].parent);
        }
}

typedef struct expand_ctx {
    pb_jobs *j;
    uint32_t v;
    int32_t home;
    int first;
} expand_ctx;

static int expand_outcome(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    expand_ctx *c = ctx;
    pb_jobs *j = c->j;
    (void)f;
    int ca = o->mover == j->a;
    if (c->first) j->nodes[c->v].chooser_a = (int8_t)ca, c->first = 0;
    /* A turn is all the mover's or all the opponent's kicks (docs/rules.md). */
    assert(j->nodes[c->v].chooser_a == ca);
    if (o->end != PB_END_NONE) {
        int val = o->loser == PB_NOBODY ? PB_DRAW : o->loser == j->a ? PB_LOSS : PB_WIN;
        jnode *x = &j->nodes[c->v];
        if (!x->end_set || (ca ? val > x->end_val : val < x->end_val)) x->end_val = (int8_t)val;
        x->end_set = 1;
        return 0;
    }
    canonical(j, o->after, j->cbuf);
    int isnew;
    uint32_t ch = vertex(j, j->cbuf, &isnew);
    if (ch == NONE32 || grow((void **)&j->edges, &j->ecap, j->ne + 1, sizeof *j->edges)) return j->error = 1;
    jnode *y = &j->nodes[ch];
    if (y->stamp == c->v + 1) return 0; /* a mirror image of a child already linked */
    y->stamp = c->v + 1;
    if (y->home < 0) y->home = c->home;
    j->edges[j->ne] = (jedge){c->v, ch, y->in};
    y->in = (uint32_t)j->ne++;
    j->nodes[c->v].nedge++;
    return 0;
}

/* Expands v by one turn (its children become leaves or link to vertices
 * already there) and recomputes what that changes. */
static int expand(pb_jobs *j, uint32_t v, int32_t home) {
    pb_position *p = malloc(sizeof *p);
    if (!p) return j->error = 1, PB_JOBS_ERROR;
    pb_position_unpack(j->f, j->keys + (size_t)v * j->kw, p);
    j->nodes[v].edge0 = (uint32_t)j->ne;
    j->nodes[v].nedge = 0;
    j->nodes[v].end_set = 0;
    expand_ctx c = {j, v, home, 1};
    long n = pb_turn_outcomes(j->tw, p, expand_outcome, &c);
    free(p);
    if (n < 0 || j->error) return j->error = 1, PB_JOBS_ERROR;
    /* A triple position with no turn at all (the stuck player's opponent
     * has no kick either) is a draw; in book and hockey there is a turn. */
    assert(n > 0 || !pb_turns_are_steps(j->f));
    j->nodes[v].state = EXPANDED;
    j->st.expanded++;
    touch(j, v);
    propagate(j);
    return j->error ? PB_JOBS_ERROR : 0;
}

pb_jobs *pb_jobs_new(const pb_field *f, const pb_position *p, int first_turns, const pb_proven *known) {
    pb_jobs *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->f = f;
    j->known = known;
    j->a = p->to_move;
    j->kw = f->nwords + 1;
    j->T = PB_WIN;
    j->st.phases = 1;
    j->ndepth = f->nsegments + 1;
    j->bucket = calloc((size_t)j->ndepth, sizeof *j->bucket);
    j->blen = calloc((size_t)j->ndepth, sizeof *j->blen);
    j->bcap = calloc((size_t)j->ndepth, sizeof *j->bcap);
    j->kbuf = malloc(sizeof(uint64_t) * 2 * (size_t)j->kw);
    j->pbuf = malloc(sizeof *j->pbuf);
    j->cbuf = malloc(sizeof *j->cbuf);
    pb_posset_init(&j->index, f);
    j->tw = pb_turnwalk_new(f);
    int isnew;
    if (!j->bucket || !j->blen || !j->bcap || !j->kbuf || !j->pbuf || !j->cbuf || !j->tw) goto fail;
    canonical(j, p, j->cbuf);
    if (vertex(j, j->cbuf, &isnew) != 0 || expand(j, 0, -1)) goto fail;
    /* The goals: the root, or every position after a first turn. */
    j->ngoals = first_turns ? (int)j->nodes[0].nedge : 1;
    j->goals = malloc(sizeof *j->goals * (size_t)(j->ngoals + 1));
    if (!j->goals) goto fail;
    for (int i = 0; i < j->ngoals; i++) j->goals[i] = first_turns ? j->edges[j->nodes[0].edge0 + i].child : 0;
    return j;
fail:
    pb_jobs_free(j);
    return NULL;
}

void pb_jobs_free(pb_jobs *j) {
    if (!j) return;
    for (int d = 0; d < j->ndepth && j->bucket; d++) free(j->bucket[d]);
    free(j->bucket), free(j->blen), free(j->bcap);
    free(j->nodes), free(j->keys), free(j->edges), free(j->goals), free(j->log);
    free(j->kbuf), free(j->pbuf), free(j->cbuf);
    pb_posset_free(&j->index);
    pb_turnwalk_free(j->tw);
    free(j);
}

/* The most-proving leaf below g under numbers k, for worker w: at A's
 * vertices the child of least pn, at the opponent's the least dn; ties go
 * to a child whose parent's job was w's (its table knows the region),
 * then to the first. */
static uint32_t descend(const pb_jobs *j, uint32_t g, int k, int w) {
    uint32_t v = g;
    while (j->nodes[v].state == EXPANDED) {
        const jnode *x = &j->nodes[v];
        uint32_t best = NONE32;
        uint64_t bm = 0;
        int bhome = 0;
        for (uint32_t e = x->edge0; e < x->edge0 + x->nedge; e++) {
            uint32_t c = j->edges[e].child;
            uint64_t m = x->chooser_a ? j->nodes[c].pn[k] : j->nodes[c].dn[k];
            int home = j->nodes[c].home == w;
            if (best == NONE32 || m < bm || (m == bm && home && !bhome)) best = c, bm = m, bhome = home;
        }
        assert(best != NONE32 && bm > 0 && bm < INF);
        v = best;
    }
    assert(j->nodes[v].state == LEAF);
    return v;
}

static int pending(const pb_jobs *j, uint32_t g) { return j->nodes[g].lo < j->T && j->T <= j->nodes[g].hi; }

long pb_jobs_next(pb_jobs *j, int w, pb_position *p) {
    for (;;) {
        if (j->error) return PB_JOBS_ERROR;
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < j->ngoals; i++) {
                const jnode *g = &j->nodes[j->goals[i]];
                if (!pending(j, j->goals[i]) || !g->pn[k] || !g->dn[k]) continue;
                uint32_t v = descend(j, j->goals[i], k, w);
                jnode *x = &j->nodes[v];
                x->state = FLIGHT;
                x->worker = w;
                j->st.sent++;
                if (x->home == w) j->st.home++;
                pb_position_unpack(j->f, j->keys + (size_t)v * j->kw, p);
                touch(j, v);
                propagate(j);
                return j->error ? PB_JOBS_ERROR : (long)v;
            }
        for (int i = 0; i < j->ngoals; i++)
            if (pending(j, j->goals[i])) return PB_JOBS_NONE;
        if (j->T == PB_DRAW) return PB_JOBS_DONE;
        /* The second question: every vertex's numbers change. */
        j->T = PB_DRAW;
        j->st.phases++;
        for (uint32_t v = 0; v < j->n; v++) touch(j, v);
        propagate(j);
    }
}

int pb_jobs_result(pb_jobs *j, long job, int value) {
    if (job < 0 || (size_t)job >= j->n || j->nodes[job].state != FLIGHT) return PB_JOBS_ERROR;
    uint32_t v = (uint32_t)job;
    jnode *x = &j->nodes[v];
    int32_t w = x->worker;
    x->worker = -1;
    x->state = LEAF;
    if (value != PB_UNKNOWN) {
        int va = mover_of(j, v) == j->a ? value : -value;
        assert(x->lo <= va && va <= x->hi); /* an exact value agrees with every bound */
        x->lo = x->hi = (int8_t)va;
        j->st.proven++;
        touch(j, v);
        propagate(j);
        return j->error ? PB_JOBS_ERROR : 0;
    }
    j->st.failed++;
    return expand(j, v, w);
}

int pb_jobs_done(const pb_jobs *j) {
    for (int i = 0; i < j->ngoals; i++)
        if (j->nodes[j->goals[i]].lo != j->nodes[j->goals[i]].hi) return 0;
    return 1;
}

int pb_jobs_value(pb_jobs *j, const pb_position *p) {
    canonical(j, p, j->cbuf);
    const uint64_t *slot = pb_posset_find(&j->index, j->kbuf, j->cbuf->hash);
    uint32_t v = slot ? (uint32_t)*slot : NONE32;
    if (v == NONE32 || j->nodes[v].lo != j->nodes[v].hi) return PB_UNKNOWN;
    return p->to_move == j->a ? j->nodes[v].lo : -j->nodes[v].lo;
}

size_t pb_jobs_log_size(const pb_jobs *j) { return j->nlog; }

void pb_jobs_log_get(const pb_jobs *j, size_t i, pb_position *p, int *value) {
    uint32_t v = j->log[i];
    pb_position_unpack(j->f, j->keys + (size_t)v * j->kw, p);
    *value = p->to_move == j->a ? j->nodes[v].lo : -j->nodes[v].lo;
}

void pb_jobs_get_stats(const pb_jobs *j, pb_jobs_stats *st) {
    *st = j->st;
    st->learnt = j->nlog;
}
