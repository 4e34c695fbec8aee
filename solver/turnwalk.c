/* turnwalk.c - the distinct outcomes of a turn, layer by layer (API and
 * idea in turnwalk.h).
 *
 * Book and hockey: layer k holds the distinct mid-turn positions reached
 * by k bounces, each with the number of routes that reach it.  A position
 * of layer k has exactly k more drawn segments than the root, so no
 * position is in two layers and the layers together are the whole step
 * graph of the turn; expanding layer k only adds to layer k + 1 and to the
 * outcomes, so when layer k is expanded its counts are final.  A route is
 * a path in this graph from the root to an outcome, and the count of an
 * outcome is the sum, over its in-steps, of the counts of their sources:
 * the number of paths, i.e. of routes.
 *
 * Why merging is exact: entries are keyed by the whole position (drawn
 * segments, ball, player to move), compared word for word; the Zobrist hash
 * only picks the slot.  What follows a mid-turn position depends on the
 * position alone (position.h), so two routes that reach the same one have
 * the same continuations.
 *
 * Triple: a ply is at most three links or one kick chain, so its routes
 * are listed (pb_routes_foreach) and only merged into distinct outcomes.
 */
#include "turnwalk.h"

#include <stdlib.h>
#include <string.h>

/* A set of whole positions in insertion order, each with a route count. */
typedef struct pmap {
    int kw;                  /* key words: nwords + 1 (ball | to_move << 16) */
    size_t n, cap;           /* entries; capacity of the entry arrays */
    uint64_t *keys;          /* cap * kw */
    uint64_t *hashes;        /* per entry */
    uint64_t *counts;        /* per entry */
    uint8_t *flags;          /* per entry: bit 0 overflow, bits 1.. end, bits 4.. loser */
    uint8_t *kick;           /* per entry */
    size_t nslots;           /* index slots, a power of two */
    uint32_t *slot;          /* entry index + 1, 0 = empty */
} pmap;

struct pb_turnwalk {
    const pb_field *f;
    size_t limit, visited;
    pmap layer[2], out;
    pb_position work;        /* the root, with one entry's difference applied */
};

static void pmap_clear(pmap *m) {
    m->n = 0;
    if (m->slot) memset(m->slot, 0, sizeof(uint32_t) * m->nslots);
}

static void pmap_free(pmap *m) {
    free(m->keys), free(m->hashes), free(m->counts), free(m->flags), free(m->kick), free(m->slot);
    memset(m, 0, sizeof *m);
}

static int pmap_reserve(pmap *m) {
    if (m->n < m->cap) return 0;
    size_t cap = m->cap ? 2 * m->cap : 256;
    if (cap > UINT32_MAX - 1) return -1;
    uint64_t *k = realloc(m->keys, sizeof(uint64_t) * cap * (size_t)m->kw);
    if (!k) return -1;
    m->keys = k;
    uint64_t *h = realloc(m->hashes, sizeof(uint64_t) * cap);
    if (!h) return -1;
    m->hashes = h;
    uint64_t *c = realloc(m->counts, sizeof(uint64_t) * cap);
    if (!c) return -1;
    m->counts = c;
    uint8_t *fl = realloc(m->flags, cap);
    if (!fl) return -1;
    m->flags = fl;
    uint8_t *kk = realloc(m->kick, cap);
    if (!kk) return -1;
    m->kick = kk;
    m->cap = cap;
    return 0;
}

static size_t pmap_find(const pmap *m, uint64_t h, const uint64_t *key) {
    size_t mask = m->nslots - 1, i = (size_t)(h ^ (h >> 31)) & mask;
    for (; m->slot[i]; i = (i + 1) & mask) {
        size_t e = m->slot[i] - 1;
        if (m->hashes[e] == h && !memcmp(m->keys + e * (size_t)m->kw, key, sizeof(uint64_t) * (size_t)m->kw))
            return i;
    }
    return i;
}

static int pmap_grow_index(pmap *m) {
    size_t ns = m->nslots ? 2 * m->nslots : 1024;
    uint32_t *s = calloc(ns, sizeof(uint32_t));
    if (!s) return -1;
    free(m->slot);
    m->slot = s, m->nslots = ns;
    for (size_t e = 0; e < m->n; e++) {
        size_t i = pmap_find(m, m->hashes[e], m->keys + e * (size_t)m->kw);
        m->slot[i] = (uint32_t)(e + 1);
    }
    return 0;
}

/* Adds `count` routes (overflowed if `ovf`) to p's entry, creating it with
 * flags/kick.  Returns the entry index, or -1 when memory runs out. */
static long pmap_add(pmap *m, const pb_field *f, const pb_position *p, uint64_t count, int ovf, uint8_t flags,
                     uint8_t kick) {
    uint64_t key[PB_MAX_WORDS + 1];
    memcpy(key, p->seg, sizeof(uint64_t) * (size_t)f->nwords);
    key[f->nwords] = (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16;
    if (2 * (m->n + 1) > m->nslots && pmap_grow_index(m)) return -1;
    size_t i = pmap_find(m, p->hash, key);
    if (m->slot[i]) {
        size_t e = m->slot[i] - 1;
        if (__builtin_add_overflow(m->counts[e], count, &m->counts[e]) || ovf) {
            m->counts[e] = UINT64_MAX;
            m->flags[e] |= 1;
        }
        return (long)e;
    }
    if (pmap_reserve(m)) return -1;
    size_t e = m->n++;
    memcpy(m->keys + e * (size_t)m->kw, key, sizeof(uint64_t) * (size_t)m->kw);
    m->hashes[e] = p->hash;
    m->counts[e] = ovf ? UINT64_MAX : count;
    m->flags[e] = (uint8_t)(flags | (ovf ? 1 : 0));
    m->kick[e] = kick;
    m->slot[i] = (uint32_t)(e + 1);
    return (long)e;
}

/* Turns tw->work (the root) into entry e of m: the entry's extra segments
 * drawn, its ball and player to move.  unapply() undoes it. */
static void apply(pb_turnwalk *tw, const pmap *m, size_t e, const pb_position *root) {
    const pb_field *f = tw->f;
    const uint64_t *key = m->keys + e * (size_t)m->kw;
    pb_position *w = &tw->work;
    for (int k = 0; k < f->nwords; k++)
        for (uint64_t extra = key[k] & ~root->seg[k]; extra; extra &= extra - 1)
            pb_draw_segment(f, w, k * 64 + __builtin_ctzll(extra));
    pb_set_ball(f, w, (int)(key[f->nwords] & 0xffff));
    pb_set_to_move(f, w, (int)(key[f->nwords] >> 16));
}

static void unapply(pb_turnwalk *tw, const pmap *m, size_t e, const pb_position *root) {
    const pb_field *f = tw->f;
    const uint64_t *key = m->keys + e * (size_t)m->kw;
    pb_position *w = &tw->work;
    for (int k = 0; k < f->nwords; k++)
        for (uint64_t extra = key[k] & ~root->seg[k]; extra; extra &= extra - 1)
            pb_erase_segment(f, w, k * 64 + __builtin_ctzll(extra));
    pb_set_ball(f, w, root->ball);
    pb_set_to_move(f, w, root->to_move);
}

pb_turnwalk *pb_turnwalk_new(const pb_field *f) {
    pb_turnwalk *tw = calloc(1, sizeof *tw);
    if (!tw) return NULL;
    tw->f = f;
    tw->layer[0].kw = tw->layer[1].kw = tw->out.kw = f->nwords + 1;
    return tw;
}

void pb_turnwalk_free(pb_turnwalk *tw) {
    if (!tw) return;
    pmap_free(&tw->layer[0]);
    pmap_free(&tw->layer[1]);
    pmap_free(&tw->out);
    free(tw);
}

void pb_turnwalk_set_limit(pb_turnwalk *tw, size_t max_positions) { tw->limit = max_positions; }

size_t pb_turnwalk_visited(const pb_turnwalk *tw) { return tw->visited; }

enum { FLAG_END_SHIFT = 1, FLAG_LOSER_SHIFT = 4 };

static uint8_t outcome_flags(pb_end end, int loser) {
    return (uint8_t)((unsigned)end << FLAG_END_SHIFT | (unsigned)loser << FLAG_LOSER_SHIFT);
}

/* Triple: every ply merged into the outcome map. */
static int add_ply(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    pb_turnwalk *tw = ctx;
    if (pmap_add(&tw->out, f, after, 1, 0, outcome_flags(r->end, r->loser), (uint8_t)r->kick) < 0) return 1;
    tw->visited++;
    return 0;
}

/* Book and hockey: the layers, into tw->out.  `score_only`: stop (return
 * 1) at the first step into the opponent's goal.  Returns 0 when done,
 * 1 for a goal found, PB_TURNWALK_TOO_BIG. */
static int walk_layers(pb_turnwalk *tw, const pb_position *root, int score_only) {
    const pb_field *f = tw->f;
    const int mover = root->to_move;
    pmap *cur = &tw->layer[0], *next = &tw->layer[1];
    pmap_clear(cur);
    if (pmap_add(cur, f, root, 1, 0, 0, 0) < 0) return PB_TURNWALK_TOO_BIG;
    while (cur->n) {
        pmap_clear(next);
        for (size_t e = 0; e < cur->n; e++) {
            apply(tw, cur, e, root);
            pb_position *w = &tw->work;
            const uint64_t c = cur->counts[e];
            const int ovf = cur->flags[e] & 1, ball = w->ball;
            int fail = 0;
            for (int d = 0; d < 8 && !fail; d++) {
                if (!pb_free(f, w, ball, d)) continue;
                pb_undo u;
                int loser;
                pb_step_result r = pb_step(f, w, d, &u, &loser);
                if (r == PB_STEP_GOAL && score_only && loser != mover) {
                    pb_unstep(f, w, &u);
                    unapply(tw, cur, e, root);
                    return 1;
                }
                if (r == PB_STEP_BOUNCE) fail = pmap_add(next, f, w, c, ovf, 0, 0) < 0;
                else if (!score_only) {
                    pb_end end = r == PB_STEP_GOAL ? PB_END_GOAL : r == PB_STEP_DEAD_END ? PB_END_DEAD_END : PB_END_NONE;
                    fail = pmap_add(&tw->out, f, w, c, ovf, outcome_flags(end, loser), 0) < 0;
                }
                pb_unstep(f, w, &u);
            }
            unapply(tw, cur, e, root);
            if (fail) return PB_TURNWALK_TOO_BIG;
        }
        tw->visited += next->n;
        if (tw->limit && tw->visited > tw->limit) return PB_TURNWALK_TOO_BIG;
        pmap *t = cur;
        cur = next, next = t;
    }
    return 0;
}

/* Readies the walk for root p: empty maps, tw->work = p. */
static void begin(pb_turnwalk *tw, const pb_position *p) {
    pmap_clear(&tw->out);
    tw->visited = 1;
    tw->work = *p;
}

long pb_turn_outcomes(pb_turnwalk *tw, const pb_position *p, pb_outcome_fn fn, void *ctx) {
    const pb_field *f = tw->f;
    begin(tw, p);
    if (!pb_turns_are_steps(f)) {
        if (pb_routes_foreach(f, &tw->work, add_ply, tw) < 0) return PB_TURNWALK_TOO_BIG;
    } else if (walk_layers(tw, p, 0)) {
        return PB_TURNWALK_TOO_BIG;
    }
    const pmap *out = &tw->out;
    for (size_t e = 0; e < out->n; e++) {
        apply(tw, out, e, p);
        pb_turn_outcome o;
        o.after = &tw->work;
        o.end = (pb_end)((out->flags[e] >> FLAG_END_SHIFT) & 7);
        o.loser = out->flags[e] >> FLAG_LOSER_SHIFT;
        o.kick = out->kick[e];
        /* A normal move hands the turn over (or ends the game); a kick
         * chain is the opponent's. */
        o.mover = o.kick ? p->to_move ^ 1 : p->to_move;
        o.routes = out->counts[e];
        o.overflow = out->flags[e] & 1;
        int stop = fn(ctx, f, &o);
        unapply(tw, out, e, p);
        if (stop) return PB_TURNWALK_STOPPED;
    }
    return (long)out->n;
}

typedef struct score_ctx {
    int me, found;
} score_ctx;

static int ply_scores(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    score_ctx *c = ctx;
    (void)f, (void)after;
    if (r->end == PB_END_GOAL && r->mover == c->me && r->loser != c->me) c->found = 1;
    return c->found;
}

int pb_turn_can_score(pb_turnwalk *tw, const pb_position *p) {
    const pb_field *f = tw->f;
    begin(tw, p);
    if (!pb_turns_are_steps(f)) {
        score_ctx c = {p->to_move, 0};
        pb_routes_foreach(f, &tw->work, ply_scores, &c);
        return c.found;
    }
    return walk_layers(tw, p, 1);
}
