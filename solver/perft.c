/* perft.c - counting turn sequences and distinct positions (perft.h). */
#include "perft.h"

#include <assert.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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
static int expand_level(pb_turnwalk *tw, const pb_field *f, const pb_posset *cur, pb_posset *next, pb_perft_row *row,
                        volatile sig_atomic_t *stop) {
    expand_ctx x = {next, 0, row};
    for (size_t i = 0; i < cur->cap && !(stop && *stop); i++) {
        pb_position q;
        if (!pb_posset_get(cur, f, i, &q, &x.mult)) continue;
        if (pb_turn_outcomes(tw, &q, expand_one, &x) < 0) return -1;
    }
    return 0;
}

int pb_perft(const pb_field *f, const pb_position *p, int maxdepth, pb_perft_row *rows) {
    return pb_perft_until(f, p, maxdepth, NULL, rows);
}

int pb_perft_until(const pb_field *f, const pb_position *p, int maxdepth, volatile sig_atomic_t *stop,
                   pb_perft_row *rows) {
    pb_posset cur, next;
    pb_posset_init(&cur, f);
    pb_posset_add(&cur, f, p, 1);
    pb_turnwalk *tw = pb_turnwalk_new(f);
    int filled = 0, overflow = 0, oom = !tw || cur.failed;
    for (int d = 1; d <= maxdepth && (cur.size > 0 || oom); d++) {
        pb_perft_row *row = &rows[filled++];
        memset(row, 0, sizeof *row);
        row->depth = d;
        pb_posset_init(&next, f);
        oom = oom || expand_level(tw, f, &cur, &next, row, stop) != 0 || next.failed;
        if (stop && *stop) { /* the depth under way is not whole */
            filled--;
            pb_posset_free(&next);
            break;
        }
        if (oom) { /* out of memory in a walk or in the set: the last row, partial */
            row->out_of_memory = 1;
            pb_posset_free(&next);
            break;
        }
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
/* A lock on a cache line of its own: both threads take locks all the
 * time, and locks packed 16 to a line made the line move between the
 * processors at nearly every look-up. */
typedef struct last_lock {
    _Alignas(64) omp_lock_t lock;
} last_lock;
typedef struct last_memo {
    int kw;
    size_t bytes;
    uint64_t *words; /* per slot: kw key words, routes, ends; all 0: empty */
    last_lock stripe[LAST_LOCKS];
} last_memo;

static last_memo *last_memo_new(const pb_field *f) {
    last_memo *m = aligned_alloc(64, sizeof *m); /* its locks on lines of their own */
    if (!m) return NULL;
    m->kw = f->nwords + 1;
    /* Mapped, so that its pages are zero and touched only where entries
     * go; in huge pages where the system has them, as its look-ups land on
     * random pages (with small pages nearly each one would also miss the
     * address translation cache). */
    m->bytes = ((size_t)1 << LAST_BITS) * sizeof(uint64_t) * (size_t)(m->kw + 2);
    void *w = mmap(NULL, m->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    m->words = w == MAP_FAILED ? NULL : w;
#ifdef MADV_HUGEPAGE
    if (m->words) madvise(w, m->bytes, MADV_HUGEPAGE); /* a hint: the table works the same without */
#endif
    if (!m->words) {
        free(m);
        return NULL;
    }
    for (int i = 0; i < LAST_LOCKS; i++) omp_init_lock(&m->stripe[i].lock);
    return m;
}

static void last_memo_free(last_memo *m) {
    if (!m) return;
    for (int i = 0; i < LAST_LOCKS; i++) omp_destroy_lock(&m->stripe[i].lock);
    munmap(m->words, m->bytes);
    free(m);
}

/* The slot of a position with hash h and its lock. */
static uint64_t *last_slot(last_memo *m, uint64_t h, omp_lock_t **lock) {
    size_t i = (size_t)(h >> (64 - LAST_BITS));
    *lock = &m->stripe[i % LAST_LOCKS].lock;
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

/* What a step from a node in one direction meets, for bulk counting:
 * the segment (-1: none), the node reached and its kind. */
enum { STEP_NONE = 0, STEP_SCORES, STEP_OCCUPIED, STEP_INNER };
typedef struct bulk_step {
    int16_t seg, to;
    uint8_t kind; /* STEP_SCORES: a goal; STEP_OCCUPIED: occupied from the start
                     (a bounce or a dead end); STEP_INNER: occupied once a segment
                     is drawn there, else a stop */
} bulk_step;

/* The bulk_step table of a field: 8 entries per lattice node.  The kinds
 * are pb_step's (position.h) read off the field once: box goals score on
 * any arrival, line goals from the centre side only; any other node is a
 * stop when empty. */
static bulk_step *bulk_table(const pb_field *f) {
    bulk_step *t = calloc((size_t)f->nlattice * 8, sizeof *t);
    if (!t) return NULL;
    for (int i = 0; i < f->nlattice; i++)
        for (int d = 0; d < 8; d++) {
            bulk_step *e = &t[i * 8 + d];
            e->seg = f->seg[i][d];
            if (e->seg < 0) continue;
            int to = pb_step_to(f, i, d);
            const uint8_t fl = f->flags[to];
            int scores = 0;
            if (fl & (PB_GOAL_BOTTOM | PB_GOAL_TOP))
                scores = f->box || ((fl & PB_GOAL_BOTTOM) ? pb_dir_dy[d] < 0 : pb_dir_dy[d] > 0);
            e->to = (int16_t)to;
            e->kind = scores ? STEP_SCORES : (fl & PB_OCCUPIED0) ? STEP_OCCUPIED : STEP_INNER;
        }
    return t;
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
    int oom;                     /* 1: out of memory, 2: stopped (the walks end at once) */
    volatile sig_atomic_t *stop; /* looked at before each turn walked; may be NULL */
    pb_position scratch;         /* the last turn's root, played on in bulk counting */
    bulk_step *steps;            /* bulk_table(f) */
    long bulk_budget;            /* BULK_BUDGET (tests: less) */
    /* The turn before the last: its outcomes gathered first (keys only),
     * their slots in `last` fetched ahead, then counted (two_turns). */
    pb_turnwalk *keys_tw;
    size_t npend, cappend;
    uint64_t *pend_keys; /* kw words per outcome */
    uint64_t *pend_hash, *pend_mult;
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
    c->steps = bulk_table(f);
    return c->tw && c->seq && c->fin && c->ovf && c->steps ? 0 : -1;
}

static void counter_free(counter *c) {
    if (c->tw)
        for (int k = 0; k < c->maxdepth; k++) pb_turnwalk_free(c->tw[k]);
    free(c->tw), free(c->seq), free(c->fin), free(c->ovf), free(c->memo), free(c->memo_keys);
    pb_turnwalk_free(c->keys_tw);
    free(c->steps);
    free(c->pend_keys), free(c->pend_hash), free(c->pend_mult);
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
    memcpy(dst->dirs, src->dirs, (size_t)f->nlattice);
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
 * stop, a dead end) are only classified, from the table t (bulk_table).
 * A bounce goes on while a segment at the node reached is free: fewer
 * than all its legal segments are drawn.  The tests hold the counts
 * against pb_perft_dfs, which plays every step with pb_step. */
static int bulk_routes(const pb_field *f, const bulk_step *t, pb_position *p, uint64_t *routes, uint64_t *ends,
                       long *budget) {
    const int from = p->ball;
    const bulk_step *st = t + from * 8;
    for (int d = 0; d < 8; d++) {
        const int s = st[d].seg;
        if (s < 0 || pb_drawn(p, s)) continue;
        const int to = st[d].to;
        if (st[d].kind == STEP_SCORES || (st[d].kind == STEP_INNER && !p->deg[to])) {
            /* A goal ends the game; an empty node ends the turn. */
            (*routes)++, *ends += st[d].kind == STEP_SCORES;
            continue;
        }
        if (--*budget < 0) return -1;
        p->seg[s >> 6] |= 1ULL << (s & 63);
        p->deg[f->segs[s].a]++, p->deg[f->segs[s].b]++;
        int rc = 0;
        if (p->deg[to] < f->degree0[to]) {
            p->ball = (int16_t)to;
            rc = bulk_routes(f, t, p, routes, ends, budget);
            p->ball = (int16_t)from;
        } else {
            (*routes)++, (*ends)++; /* a dead end */
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
    if (c->stop && *c->stop) {
        if (!c->oom) c->oom = 2;
        return;
    }
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

/* The position after a turn from p with packed key `key` (an outcome of
 * p's turn), built in c->scratch from p: the turn's segments drawn, the
 * ball and the player to move set. */
static void scratch_after(counter *c, const pb_position *p, const uint64_t *key) {
    const pb_field *f = c->f;
    pb_position *q = &c->scratch;
    position_copy(f, q, p);
    for (int w = 0; w < f->nwords; w++)
        for (uint64_t extra = key[w] & ~p->seg[w]; extra; extra &= extra - 1)
            pb_draw_segment(f, q, w * 64 + __builtin_ctzll(extra));
    pb_set_ball(f, q, (int)(key[f->nwords] & 0xffff));
    pb_set_to_move(f, q, (int)(key[f->nwords] >> 16));
}

/* mult sequences reach a last turn of `routes` routes, `ends` of which
 * end the game. */
static void tally_last(counter *c, int k, uint64_t mult, uint64_t routes, uint64_t ends) {
    uint64_t n;
    c->ovf[k + 1] |= __builtin_mul_overflow(mult, routes, &n);
    tally(c, k + 1, n, 0);
    c->ovf[k + 1] |= __builtin_mul_overflow(mult, ends, &n);
    c->ovf[k + 1] |= add_u64(&c->fin[k + 1], n);
}

/* Book and hockey, the last turn (k = maxdepth - 1) from the position
 * with packed key `key` and hash h, reached by mult sequences: its routes
 * from the shared table, else counted in bulk on c->scratch, which
 * build(c, p, key) makes the position.  Returns 0 when counted, -1 when
 * the turn has too many bounces to list (then c->scratch holds the
 * position, unchanged). */
static int last_turn(counter *c, const pb_position *p, const uint64_t *key, uint64_t h, int k, uint64_t mult,
                     void (*build)(counter *c, const pb_position *p, const uint64_t *key)) {
    uint64_t v[2] = {0, 0};
    if (c->last && last_get(c->last, key, h, v)) {
        tally_last(c, k, mult, v[0], v[1]);
        return 0;
    }
    long budget = c->bulk_budget;
    build(c, p, key);
    if (bulk_routes(c->f, c->steps, &c->scratch, &v[0], &v[1], &budget)) return -1;
    if (c->last) last_put(c->last, key, h, v);
    tally_last(c, k, mult, v[0], v[1]);
    return 0;
}

/* last_turn's build for p itself. */
static void scratch_copy(counter *c, const pb_position *p, const uint64_t *key) {
    (void)key;
    position_copy(c->f, &c->scratch, p);
}

/* The turn from p by its distinct outcomes (solver/turnwalk.h). */
static void walk_outcomes(counter *c, const pb_position *p, int k, uint64_t mult) {
    if (!c->tw[k] && !(c->tw[k] = pb_turnwalk_new(c->f))) {
        c->oom = 1;
        return;
    }
    level_ctx x = {c, k, mult};
    if (pb_turn_outcomes(c->tw[k], p, on_outcome, &x) == PB_TURNWALK_TOO_BIG) c->oom = 1;
}

/* An outcome of the turn before the last: counted, and if the game goes
 * on kept for its last turn, its slot in the shared table fetched ahead. */
static int gather_outcome(void *ctx, const pb_field *f, const pb_turn_outcome *o) {
    level_ctx *x = ctx;
    counter *c = x->c;
    uint64_t n;
    int d = x->k + 1;
    c->ovf[d] |= o->overflow | __builtin_mul_overflow(x->mult, o->routes, &n);
    tally(c, d, n, o->end != PB_END_NONE);
    if (o->end != PB_END_NONE) return 0;
    const size_t kw = (size_t)f->nwords + 1;
    if (c->npend == c->cappend) {
        size_t cap = c->cappend ? 2 * c->cappend : 64;
        uint64_t *k = realloc(c->pend_keys, cap * kw * sizeof(uint64_t));
        if (k) c->pend_keys = k;
        uint64_t *h = realloc(c->pend_hash, cap * sizeof(uint64_t));
        if (h) c->pend_hash = h;
        uint64_t *m = realloc(c->pend_mult, cap * sizeof(uint64_t));
        if (m) c->pend_mult = m;
        if (!k || !h || !m) return c->oom = 1;
        c->cappend = cap;
    }
    memcpy(c->pend_keys + c->npend * kw, o->key, kw * sizeof(uint64_t));
    c->pend_hash[c->npend] = o->hash;
    c->pend_mult[c->npend++] = n;
    if (c->last) {
        omp_lock_t *lock;
        const uint64_t *e = last_slot(c->last, o->hash, &lock);
        __builtin_prefetch(e), __builtin_prefetch(e + kw + 1);
    }
    return 0;
}

/* Book and hockey, the last two turns from p (k = maxdepth - 2): the
 * outcomes of the first gathered, then the last turn from each.  (The
 * table look-ups miss the cache: gathered, their waits overlap.) */
static void two_turns(counter *c, const pb_position *p, int k, uint64_t mult) {
    const pb_field *f = c->f;
    if (!c->keys_tw) {
        if (!(c->keys_tw = pb_turnwalk_new(f))) {
            c->oom = 1;
            return;
        }
        pb_turnwalk_set_keys_only(c->keys_tw, 1);
    }
    c->npend = 0;
    level_ctx x = {c, k, mult};
    if (pb_turn_outcomes(c->keys_tw, p, gather_outcome, &x) == PB_TURNWALK_TOO_BIG) c->oom = 1;
    const size_t kw = (size_t)f->nwords + 1;
    for (size_t i = 0; i < c->npend && !c->oom; i++) {
        const uint64_t *key = c->pend_keys + i * kw;
        if (last_turn(c, p, key, c->pend_hash[i], k + 1, c->pend_mult[i], scratch_after))
            walk_outcomes(c, &c->scratch, k + 1, c->pend_mult[i]);
    }
}

/* count_from without the memo. */
static void walk_turn(counter *c, const pb_position *p, int k, uint64_t mult) {
    const pb_field *f = c->f;
    if (pb_turns_are_steps(f)) {
        if (k == c->maxdepth - 2) {
            two_turns(c, p, k, mult);
            return;
        }
        if (k == c->maxdepth - 1) {
            uint64_t key[PB_MAX_WORDS + 1];
            pb_position_pack(f, p, key);
            if (!last_turn(c, p, key, p->hash, k, mult, scratch_copy)) return;
        }
    }
    walk_outcomes(c, p, k, mult);
}

/* The first turns are expanded breadth-first (equal positions merged, as
 * in pb_perft) up to the positions with two turns left, while a level has
 * fewer positions than this (the next is some ten times larger): each
 * distinct position is then counted once, not once per sequence reaching
 * it, and the threads share many subtrees. */
#define BREADTH_MAX ((size_t)1 << 17)

static int count_all(const pb_field *f, const pb_position *p, int maxdepth, int threads, size_t breadth_max,
                     long bulk_budget, volatile sig_atomic_t *stop, pb_perft_row *rows);

int pb_perft_count(const pb_field *f, const pb_position *p, int maxdepth, int threads, pb_perft_row *rows) {
    return count_all(f, p, maxdepth, threads, BREADTH_MAX, BULK_BUDGET, NULL, rows);
}

int pb_perft_count_until(const pb_field *f, const pb_position *p, int maxdepth, int threads,
                         volatile sig_atomic_t *stop, pb_perft_row *rows) {
    return count_all(f, p, maxdepth, threads, BREADTH_MAX, BULK_BUDGET, stop, rows);
}

int pb_perft_count_tuned(const pb_field *f, const pb_position *p, int maxdepth, int threads, size_t breadth_max,
                         long bulk_budget, pb_perft_row *rows) {
    return count_all(f, p, maxdepth, threads, breadth_max, bulk_budget, NULL, rows);
}

/* A stop (oom 2) leaves partial sums in the memos and the rows: they are
 * freed, and the caller is told (-2) that no row is exact. */
static int count_all(const pb_field *f, const pb_position *p, int maxdepth, int threads, size_t breadth_max,
                     long bulk_budget, volatile sig_atomic_t *stop, pb_perft_row *rows) {
    if (maxdepth <= 0) return 0;
    memset(rows, 0, sizeof *rows * (size_t)maxdepth);
    int nt = threads > 0 ? threads : omp_get_max_threads();
    counter all;
    pb_turnwalk *tw = pb_turnwalk_new(f);
    int oom = counter_init(&all, f, maxdepth) || !tw;
    pb_posset cur, next;
    pb_posset_init(&cur, f);
    pb_posset_add(&cur, f, p, 1);
    oom |= cur.failed;
    /* Without it the run is still exact, only slower. */
    last_memo *last = maxdepth >= 3 && f->spec.rules != PB_RULES_TRIPLE ? last_memo_new(f) : NULL;
    int k = 0;
    while (!oom && k < maxdepth - 2 && cur.size > 0 && cur.size < breadth_max) {
        pb_perft_row row = {0};
        pb_posset_init(&next, f);
        oom = expand_level(tw, f, &cur, &next, &row, stop) || next.failed; /* a position left out */
        all.seq[k + 1] = row.sequences, all.fin[k + 1] = row.finished, all.ovf[k + 1] = row.overflow;
        pb_posset_free(&cur);
        cur = next;
        k++;
    }
    pb_turnwalk_free(tw);
    int stopped = stop && *stop;
    const int skip = oom || stopped;
#pragma omp parallel num_threads(nt) if (!skip && cur.size > 1)
    {
        counter c;
        int bad = counter_init(&c, f, maxdepth);
        c.last = last;
        c.bulk_budget = bulk_budget;
        c.stop = stop;
        /* Chunks of 16 slots: each taking of work is an atomic addition
         * on a line both threads write. */
#pragma omp for schedule(dynamic, 16)
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
            oom |= bad || c.oom == 1;
            stopped |= c.oom == 2;
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
        rows[d - 1] = (pb_perft_row){d, all.seq[d], 0, all.fin[d], ovf, 0};
    }
    counter_free(&all);
    pb_posset_free(&cur);
    last_memo_free(last);
    return stopped ? -2 : oom ? -1 : 0;
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
