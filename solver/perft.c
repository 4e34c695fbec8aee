/* perft.c - counting turn sequences and distinct positions (perft.h). */
#include "perft.h"

#include <assert.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "posset.h"
#include "turnwalk.h"

static int add_u64(uint64_t *a, uint64_t b) { return __builtin_add_overflow(*a, b, a); }

/* ---- breadth-first ------------------------------------------------------ */

typedef struct expand_ctx {
    pb_posset *next;
    uint64_t mult;
    pb_perft_row *row;
} expand_ctx;

/* One distinct outcome of a turn from a stored position of multiplicity
 * mult: mult * routes sequences.  A stored count never overflows unseen:
 * it is at most the row's sequences, which are checked. */
static int expand_one(void *c, const pb_field *f, const pb_turn_outcome *o) {
    expand_ctx *x = c;
    uint64_t n;
    x->row->overflow |= o->overflow | __builtin_mul_overflow(x->mult, o->routes, &n);
    x->row->overflow |= add_u64(&x->row->sequences, n);
    if (o->end != PB_END_NONE) x->row->overflow |= add_u64(&x->row->finished, n);
    else pb_posset_add(x->next, f, o->after, n);
    return 0;
}

/* One breadth-first step: the distinct positions of cur expanded into
 * next, the turn's counts into row.  Returns -1 if a walk ran out of memory. */
static int expand_level(pb_turnwalk *tw, const pb_field *f, const pb_posset *cur, pb_posset *next, pb_perft_row *row) {
    expand_ctx x = {next, 0, row};
    for (size_t i = 0; i < cur->cap; i++) {
        pb_position q;
        if (!pb_posset_get(cur, f, i, &q, &x.mult)) continue;
        if (pb_turn_outcomes(tw, &q, expand_one, &x) < 0) return -1;
    }
    return 0;
}

int pb_perft(const pb_field *f, const pb_position *p, int maxdepth, pb_perft_row *rows) {
    pb_posset cur, next;
    pb_posset_init(&cur, f);
    pb_posset_add(&cur, f, p, 1);
    pb_turnwalk *tw = pb_turnwalk_new(f);
    int filled = 0, overflow = !tw;
    for (int d = 1; d <= maxdepth && cur.size > 0 && tw; d++) {
        pb_perft_row *row = &rows[filled++];
        memset(row, 0, sizeof *row);
        row->depth = d;
        pb_posset_init(&next, f);
        /* Out of memory in a walk: the row is marked not exact. */
        row->overflow |= expand_level(tw, f, &cur, &next, row) != 0;
        row->positions = next.size;
        overflow |= row->overflow;
        row->overflow = overflow;
        pb_posset_free(&cur);
        cur = next;
    }
    pb_turnwalk_free(tw);
    pb_posset_free(&cur);
    return filled;
}

/* ---- depth-first -------------------------------------------------------- */

/* One thread's counts: depth d in seq[d], fin[d]; ovf[d] = a count of
 * depth d overflowed (then every deeper depth is not exact either). */
/* A memo of the counts below the positions that have two turns left, per
 * thread: perft(2) splits into four numbers (sequences and finished games
 * one and two turns on), for one sequence reaching the position.  Keyed by
 * the whole position (packed key, compared word for word) and the turns
 * left; the Zobrist hash only picks the slot (direct-mapped, a new entry
 * replaces the old).  A hit gives what the walk would: the counts below a
 * position depend on it and the turns left alone. */
#define MEMO_BITS 18
typedef struct memo_entry {
    int turns_left; /* 0: empty */
    uint64_t v[4];  /* seq, fin one turn on; seq, fin two turns on */
} memo_entry;

/* The last turn's counts, shared by the threads: for a position with one
 * turn left, its routes and the routes that end the game.  Direct-mapped
 * (a new entry replaces the old), keyed by the whole position (packed,
 * compared word for word); the Zobrist hash only picks the slot.  A lock
 * per stripe of slots guards the key and the counts together, so a reader
 * sees an entry whole or not at all.  A hit gives what counting would:
 * the routes of a turn depend on the position alone.  Which positions
 * are found there depends on the threads' timing, the counts do not. */
#define LAST_BITS 22
#define LAST_LOCKS 4096
typedef struct last_memo {
    int kw;
    uint64_t *words; /* per slot: kw key words, routes, ends; all 0: empty */
    omp_lock_t lock[LAST_LOCKS];
} last_memo;

static last_memo *last_memo_new(const pb_field *f) {
    last_memo *m = malloc(sizeof *m);
    if (!m) return NULL;
    m->kw = f->nwords + 1;
    /* calloc: pages are touched only where entries go. */
    m->words = calloc((size_t)1 << LAST_BITS, sizeof(uint64_t) * (size_t)(m->kw + 2));
    if (!m->words) {
        free(m);
        return NULL;
    }
    for (int i = 0; i < LAST_LOCKS; i++) omp_init_lock(&m->lock[i]);
    return m;
}

static void last_memo_free(last_memo *m) {
    if (!m) return;
    for (int i = 0; i < LAST_LOCKS; i++) omp_destroy_lock(&m->lock[i]);
    free(m->words);
    free(m);
}

/* The slot of a position with hash h and its lock. */
static uint64_t *last_slot(last_memo *m, uint64_t h, omp_lock_t **lock) {
    size_t i = (size_t)(h >> (64 - LAST_BITS));
    *lock = &m->lock[i % LAST_LOCKS];
    return m->words + i * (size_t)(m->kw + 2);
}

/* 1 and v[0..1] = the routes and ends of p's turn if stored, else 0.  (An
 * empty slot is all zeros and never matches: a real key has the ball on
 * the centre, whose index is not 0, or some segment drawn.) */
static int last_get(last_memo *m, const uint64_t *key, uint64_t h, uint64_t *v) {
    omp_lock_t *lock;
    uint64_t *e = last_slot(m, h, &lock);
    omp_set_lock(lock);
    int hit = !memcmp(e, key, sizeof(uint64_t) * (size_t)m->kw);
    if (hit) v[0] = e[m->kw], v[1] = e[m->kw + 1];
    omp_unset_lock(lock);
    return hit;
}

static void last_put(last_memo *m, const uint64_t *key, uint64_t h, const uint64_t *v) {
    omp_lock_t *lock;
    uint64_t *e = last_slot(m, h, &lock);
    omp_set_lock(lock);
    memcpy(e, key, sizeof(uint64_t) * (size_t)m->kw);
    e[m->kw] = v[0], e[m->kw + 1] = v[1];
    omp_unset_lock(lock);
}

typedef struct counter {
    const pb_field *f;
    int maxdepth;
    last_memo *last;     /* shared; NULL: none */
    memo_entry *memo;    /* 1 << MEMO_BITS entries, NULL: none */
    uint64_t *memo_keys; /* kw words per entry */
    pb_turnwalk **tw;    /* tw[k] walks the turns from positions after k turns, so
                                that the outcomes of level k stay valid below them */
    uint64_t *seq, *fin;
    int *ovf;
    int oom;
    pb_position scratch; /* the last turn's root, played on in bulk counting */
} counter;

static int counter_init(counter *c, const pb_field *f, int maxdepth) {
    memset(c, 0, sizeof *c);
    c->f = f;
    c->maxdepth = maxdepth;
    c->tw = calloc((size_t)maxdepth, sizeof *c->tw);
    c->seq = calloc((size_t)maxdepth + 1, sizeof *c->seq);
    c->fin = calloc((size_t)maxdepth + 1, sizeof *c->fin);
    c->ovf = calloc((size_t)maxdepth + 1, sizeof *c->ovf);
    if (maxdepth >= 3) {
        /* Without it the run is still exact, only slower. */
        c->memo = calloc((size_t)1 << MEMO_BITS, sizeof *c->memo);
        c->memo_keys = malloc(sizeof(uint64_t) * ((size_t)1 << MEMO_BITS) * (size_t)(f->nwords + 1));
        if (!c->memo || !c->memo_keys) free(c->memo), free(c->memo_keys), c->memo = NULL, c->memo_keys = NULL;
    }
    return c->tw && c->seq && c->fin && c->ovf ? 0 : -1;
}

static void counter_free(counter *c) {
    if (c->tw)
        for (int k = 0; k < c->maxdepth; k++) pb_turnwalk_free(c->tw[k]);
    free(c->tw), free(c->seq), free(c->fin), free(c->ovf), free(c->memo), free(c->memo_keys);
}

/* n sequences of d turns, of which the game ends with the last if `ends`. */
static void tally(counter *c, int d, uint64_t n, int ends) {
    c->ovf[d] |= add_u64(&c->seq[d], n);
    if (ends) c->ovf[d] |= add_u64(&c->fin[d], n);
}

/* dst = src, copying only the words and nodes the field uses. */
static void position_copy(const pb_field *f, pb_position *dst, const pb_position *src) {
    memcpy(dst->seg, src->seg, sizeof(uint64_t) * (size_t)f->nwords);
    memcpy(dst->deg, src->deg, (size_t)f->nlattice);
    dst->ball = src->ball;
    dst->to_move = src->to_move;
    dst->hash = src->hash;
}

/* Book and hockey: the routes of one turn from p counted step by step; a
 * step that ends the route on an empty node is counted without being
 * played (the bulk of the routes).  Gives up (-1, p restored) after
 * *budget played steps, for a turn whose routes are too many to list.
 *
 * The step is pb_step's (position.h) cut down to what counting needs:
 * the bounces are played on seg[] and deg[] alone (no hash, no player to
 * move, no undo record), and the steps that end the route (a goal, a
 * stop, a dead end) are only classified.  The tests hold the counts
 * against pb_perft_dfs, which plays every step with pb_step. */
static int bulk_routes(const pb_field *f, pb_position *p, uint64_t *routes, uint64_t *ends, long *budget) {
    const int from = p->ball;
    for (int d = 0; d < 8; d++) {
        const int s = f->seg[from][d];
        if (s < 0 || pb_drawn(p, s)) continue;
        const int to = pb_step_to(f, from, d);
        const uint8_t fl = f->flags[to];
        if (fl & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) {
            /* Box goals score on any arrival, line goals from the centre
             * side only (as in pb_step). */
            int dy = pb_dir_dy[d];
            if (f->box || ((fl & PB_GOAL_BOTTOM) ? dy < 0 : dy > 0)) {
                (*routes)++, (*ends)++;
                continue;
            }
        }
        if (!pb_occupied(f, p, to)) {
            (*routes)++; /* a stop */
            continue;
        }
        if (--*budget < 0) return -1;
        /* Draw s: a bounce if a segment at `to` is still free, else a dead end. */
        p->seg[s >> 6] |= 1ULL << (s & 63);
        p->deg[f->segs[s].a]++, p->deg[f->segs[s].b]++;
        int rc = 0, bounce = 0;
        for (int e = 0; e < 8 && !bounce; e++) bounce = pb_free(f, p, to, e);
        if (bounce) {
            p->ball = (int16_t)to;
            rc = bulk_routes(f, p, routes, ends, budget);
            p->ball = (int16_t)from;
        } else {
            (*routes)++, (*ends)++;
        }
        p->seg[s >> 6] &= ~(1ULL << (s & 63));
        p->deg[f->segs[s].a]--, p->deg[f->segs[s].b]--;
        if (rc) return -1;
    }
    return 0;
}

/* Steps played in bulk counting before the last turn is handed to the
 * turn walk (a turn with that many bounces has far fewer distinct
 * mid-turn positions than routes). */
#define BULK_BUDGET 4096

typedef struct level_ctx {
    counter *c;
    int k;         /* turns played before this one */
    uint64_t mult; /* sequences reaching the position walked */
} level_ctx;

static void count_from(counter *c, const pb_position *p, int k, uint64_t mult);

static int on_outcome(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    level_ctx *x = ctx;
    counter *c = x->c;
    (void)f;
    uint64_t n;
    int d = x->k + 1;
    c->ovf[d] |= o->overflow | __builtin_mul_overflow(x->mult, o->routes, &n);
    tally(c, d, n, o->end != PB_END_NONE);
    if (o->end == PB_END_NONE && d < c->maxdepth) count_from(c, o->after, d, n);
    return c->oom;
}

static void walk_turn(counter *c, const pb_position *p, int k, uint64_t mult);

/* Counts the turns k+1 .. maxdepth from p, reached by mult sequences of k
 * turns. */
static void count_from(counter *c, const pb_position *p, int k, uint64_t mult) {
    const pb_field *f = c->f;
    if (c->memo && k == c->maxdepth - 2) {
        int kw = f->nwords + 1;
        uint64_t key[PB_MAX_WORDS + 1];
        pb_position_pack(f, p, key);
        size_t i = (size_t)(p->hash >> (64 - MEMO_BITS));
        memo_entry *e = &c->memo[i];
        uint64_t *ekey = c->memo_keys + i * (size_t)kw;
        if (!(e->turns_left == 2 && !memcmp(ekey, key, sizeof(uint64_t) * (size_t)kw))) {
            /* Count the two turns for one sequence, apart from the sums. */
            uint64_t save[4] = {c->seq[k + 1], c->fin[k + 1], c->seq[k + 2], c->fin[k + 2]};
            c->seq[k + 1] = c->fin[k + 1] = c->seq[k + 2] = c->fin[k + 2] = 0;
            walk_turn(c, p, k, 1);
            e->turns_left = 2;
            e->v[0] = c->seq[k + 1], e->v[1] = c->fin[k + 1], e->v[2] = c->seq[k + 2], e->v[3] = c->fin[k + 2];
            memcpy(ekey, key, sizeof(uint64_t) * (size_t)kw);
            c->seq[k + 1] = save[0], c->fin[k + 1] = save[1], c->seq[k + 2] = save[2], c->fin[k + 2] = save[3];
        }
        /* (An overflow while counting the entry is already flagged.) */
        for (int j = 0; j < 2; j++) {
            uint64_t n;
            c->ovf[k + 1 + j] |= __builtin_mul_overflow(mult, e->v[2 * j], &n);
            c->ovf[k + 1 + j] |= add_u64(&c->seq[k + 1 + j], n);
            c->ovf[k + 1 + j] |= __builtin_mul_overflow(mult, e->v[2 * j + 1], &n);
            c->ovf[k + 1 + j] |= add_u64(&c->fin[k + 1 + j], n);
        }
        return;
    }
    walk_turn(c, p, k, mult);
}

/* count_from without the memo. */
static void walk_turn(counter *c, const pb_position *p, int k, uint64_t mult) {
    const pb_field *f = c->f;
    if (k == c->maxdepth - 1 && pb_turns_are_steps(f)) {
        uint64_t routes = 0, ends = 0, n, v[2];
        long budget = BULK_BUDGET;
        uint64_t key[PB_MAX_WORDS + 1];
        if (c->last) pb_position_pack(f, p, key);
        int hit = c->last && last_get(c->last, key, p->hash, v);
        if (hit) routes = v[0], ends = v[1];
        else position_copy(f, &c->scratch, p);
        if (hit || !bulk_routes(f, &c->scratch, &routes, &ends, &budget)) {
            if (c->last && !hit) last_put(c->last, key, p->hash, (uint64_t[2]){routes, ends});
            c->ovf[k + 1] |= __builtin_mul_overflow(mult, routes, &n);
            tally(c, k + 1, n, 0);
            c->ovf[k + 1] |= __builtin_mul_overflow(mult, ends, &n);
            c->ovf[k + 1] |= add_u64(&c->fin[k + 1], n);
            return;
        }
    }
    if (!c->tw[k] && !(c->tw[k] = pb_turnwalk_new(f))) {
        c->oom = 1;
        return;
    }
    level_ctx x = {c, k, mult};
    if (pb_turn_outcomes(c->tw[k], p, on_outcome, &x) == PB_TURNWALK_TOO_BIG) c->oom = 1;
}

/* The first turns are expanded breadth-first (equal positions merged, as
 * in pb_perft) until there are this many subtrees per thread to share. */
#define SUBTREES_PER_THREAD 64

int pb_perft_count(const pb_field *f, const pb_position *p, int maxdepth, int threads, pb_perft_row *rows) {
    if (maxdepth <= 0) return 0;
    memset(rows, 0, sizeof *rows * (size_t)maxdepth);
    int nt = threads > 0 ? threads : omp_get_max_threads();
    counter all;
    pb_turnwalk *tw = pb_turnwalk_new(f);
    int oom = counter_init(&all, f, maxdepth) || !tw;
    pb_posset cur, next;
    pb_posset_init(&cur, f);
    pb_posset_add(&cur, f, p, 1);
    /* Without it the run is still exact, only slower. */
    last_memo *last = maxdepth >= 3 && f->spec.rules != PB_RULES_TRIPLE ? last_memo_new(f) : NULL;
    int k = 0;
    while (!oom && k < maxdepth - 1 && cur.size > 0 && cur.size < (size_t)SUBTREES_PER_THREAD * (size_t)nt) {
        pb_perft_row row = {0};
        pb_posset_init(&next, f);
        oom = expand_level(tw, f, &cur, &next, &row);
        all.seq[k + 1] = row.sequences, all.fin[k + 1] = row.finished, all.ovf[k + 1] = row.overflow;
        pb_posset_free(&cur);
        cur = next;
        k++;
    }
    pb_turnwalk_free(tw);
    const int skip = oom;
#pragma omp parallel num_threads(nt) if (!skip && cur.size > 1)
    {
        counter c;
        int bad = counter_init(&c, f, maxdepth);
        c.last = last;
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < cur.cap; i++) {
            pb_position q;
            uint64_t mult;
            if (skip || bad || c.oom || !pb_posset_get(&cur, f, i, &q, &mult)) continue;
            count_from(&c, &q, k, mult);
        }
        /* Sums: the same whatever thread counted what.  An overflow of the
         * total is caught whatever the order of the additions. */
#pragma omp critical(pb_perft_merge)
        {
            oom |= bad || c.oom;
            for (int d = 1; !bad && d <= maxdepth; d++) {
                all.ovf[d] |= c.ovf[d] | add_u64(&all.seq[d], c.seq[d]);
                all.ovf[d] |= add_u64(&all.fin[d], c.fin[d]);
            }
        }
        counter_free(&c);
    }
    int ovf = 0;
    for (int d = 1; d <= maxdepth; d++) {
        ovf |= all.ovf[d];
        rows[d - 1] = (pb_perft_row){d, all.seq[d], 0, all.fin[d], ovf};
    }
    counter_free(&all);
    pb_posset_free(&cur);
    last_memo_free(last);
    return oom ? -1 : 0;
}

/* ---- route by route ----------------------------------------------------- */
/* What a depth-first perft over single steps counts: the turn sequences
 * of d turns (perft(d)) and the steps it takes on the way. */
typedef struct step_counts {
    uint64_t sequences, steps;
} step_counts;

/* Depth-first over single steps: a bounce recurses with the same depth. */
static void dfs_steps(const pb_field *f, pb_position *p, int d, step_counts *c) {
    int from = p->ball;
    for (int dir = 0; dir < 8; dir++) {
        if (!pb_free(f, p, from, dir)) continue;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, p, dir, &u, &loser);
        c->steps++;
        if (r == PB_STEP_BOUNCE) dfs_steps(f, p, d, c);
        else if (d == 1) c->sequences++;
        else if (r == PB_STEP_STOP) dfs_steps(f, p, d - 1, c);
        pb_unstep(f, p, &u);
    }
}

uint64_t pb_perft_steps(const pb_field *f, pb_position *p, int d) {
    assert(pb_turns_are_steps(f));
    step_counts c = {0, 0};
    if (d > 0) dfs_steps(f, p, d, &c);
    return c.steps;
}

typedef struct dfs_ctx {
    int d;
    uint64_t n;
} dfs_ctx;

static int dfs_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    dfs_ctx *x = c;
    if (x->d == 1) x->n++;
    else if (r->end == PB_END_NONE) x->n += pb_perft_dfs(f, after, x->d - 1);
    return 0;
}

uint64_t pb_perft_dfs(const pb_field *f, pb_position *p, int d) {
    if (d == 0) return 1;
    if (pb_turns_are_steps(f)) {
        step_counts c = {0, 0};
        dfs_steps(f, p, d, &c);
        return c.sequences;
    }
    dfs_ctx x = {d, 0};
    pb_routes_foreach(f, p, dfs_route, &x);
    return x.n;
}
