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

#include "posset.h"

/* A set of whole positions in insertion order, each with a route count.
 *
 * The index is open addressing over slots that carry the epoch that wrote
 * them, so emptying it is one increment of the epoch, not a pass over
 * every slot.  It uses the first `active` of its nslots slots, from a few
 * at each clear (as many as the last use needed), doubled (under a new
 * epoch, the entries put in again) at a load of 1/2: a walk's probes stay
 * within a range that its own size calls for, so a small walk after a
 * large one stays in the cache.
 * A slot is
 *
 *   bits 63..32  epoch (the slot is empty unless it equals m->epoch)
 *   bits 31..0   entry index
 */
typedef struct pmap {
    int kw;                /* key words: nwords + 1 (ball | to_move << 16) */
    size_t n, cap;         /* entries; capacity of the entry arrays */
    uint64_t *keys;        /* cap * kw */
    uint64_t *hashes;      /* per entry: the Zobrist hash of the position */
    uint64_t *counts;      /* per entry */
    uint8_t *flags;        /* per entry: bit 0 overflow, bits 1.. end, bits 4.. loser */
    uint8_t *kick;         /* per entry */
    uint64_t *link;        /* per entry, with routes on: how it was first reached (below) */
    int with_links;        /* link is kept (cap entries) */
    size_t nslots, active; /* index slots allocated, in use (powers of two) */
    uint64_t *slot;        /* epoch << 32 | entry index */
    uint64_t epoch;        /* >= 1 */
} pmap;

struct pb_turnwalk {
    const pb_field *f;
    uint64_t *node_segs; /* per lattice node, nwords words: its legal segments */
    size_t limit, visited;
    int keys_only, skip_ends;
    int ends;       /* PB_TURNWALK_END_* met by the last walk (ends off) */
    int root_mover; /* the player to move at the walk's root */
    pmap layer[2], out;
    pb_position work; /* the root, with one entry's difference applied */
    /* With routes on (pb_turnwalk_set_routes), each entry's link says how
     * it was first reached.  Book and hockey: parent << 3 | direction, the
     * parent being an index into trail, which holds the links of every
     * layer entry so far, layer after layer (the root's is NO_LINK); so a
     * route is read back from an outcome by following parents to the root.
     * Triple: the offset in arena of the first route's length and nodes. */
    int routes;
    uint64_t *trail;
    size_t ntrail, trail_cap;
    int16_t *arena;
    size_t narena, arena_cap;
    int16_t *route; /* the route handed out with an outcome */
};

#define NO_LINK UINT64_MAX

enum { PMAP_ACTIVE0 = 1024 };

/* A new epoch: every slot reads as empty. */
static void pmap_new_epoch(pmap *m) {
    if (++m->epoch >> 32) {
        /* Once in 2^32 epochs: they start again. */
        if (m->slot) memset(m->slot, 0, sizeof(uint64_t) * m->nslots);
        m->epoch = 1;
    }
}

/* Empties the map; the next use starts with as many slots as the last one
 * ended with (consecutive walks tend to be alike), or fewer. */
static void pmap_clear(pmap *m) {
    size_t a = PMAP_ACTIVE0;
    while (a < 2 * m->n && a < m->nslots) a *= 2;
    m->active = a < m->nslots ? a : m->nslots;
    m->n = 0;
    pmap_new_epoch(m);
}

static void pmap_free(pmap *m) {
    free(m->keys), free(m->hashes), free(m->counts), free(m->flags), free(m->kick), free(m->link), free(m->slot);
    memset(m, 0, sizeof *m);
}

static int pmap_reserve(pmap *m) {
    if (m->n < m->cap) return 0;
    size_t cap = m->cap ? 2 * m->cap : 256;
    if (cap > UINT32_MAX) return -1;
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
    if (m->with_links) {
        uint64_t *ln = realloc(m->link, sizeof(uint64_t) * cap);
        if (!ln) return -1;
        m->link = ln;
    }
    m->cap = cap;
    return 0;
}

static inline int same_key(const uint64_t *a, const uint64_t *b, int kw) {
    for (int w = 0; w < kw; w++)
        if (a[w] != b[w]) return 0;
    return 1;
}

/* The slot of the entry with this key, or the empty slot where it goes. */
static inline size_t pmap_find(const pmap *m, uint64_t h, const uint64_t *key) {
    const size_t mask = m->active - 1;
    const uint64_t ep = m->epoch << 32;
    size_t i = (size_t)(h ^ (h >> 29)) & mask;
    for (;; i = (i + 1) & mask) {
        uint64_t v = m->slot[i];
        if ((v & ~(uint64_t)UINT32_MAX) != ep) return i;
        size_t e = (size_t)(uint32_t)v;
        if (m->hashes[e] == h && same_key(m->keys + e * (size_t)m->kw, key, m->kw)) return i;
    }
}

/* Doubles the slots in use (allocating more if needed) and puts the
 * entries in again under a new epoch. */
static int pmap_grow_index(pmap *m) {
    size_t want = m->active ? 2 * m->active : PMAP_ACTIVE0;
    if (want > m->nslots) {
        uint64_t *s = calloc(want, sizeof(uint64_t));
        if (!s) return -1;
        free(m->slot);
        m->slot = s, m->nslots = want;
    }
    m->active = want;
    pmap_new_epoch(m);
    for (size_t e = 0; e < m->n; e++) {
        size_t i = pmap_find(m, m->hashes[e], m->keys + e * (size_t)m->kw);
        m->slot[i] = m->epoch << 32 | e;
    }
    return 0;
}

/* Adds `count` routes (overflowed if `ovf`) to the entry of the position
 * with packed key `key` and Zobrist hash h, creating it with flags/kick
 * and `link` (kept from its creation only: the first way it was reached).
 * Returns 0, or -1 when memory runs out. */
static int pmap_add(pmap *m, const uint64_t *key, uint64_t h, uint64_t count, int ovf, uint8_t flags, uint8_t kick,
                    uint64_t link) {
    if (2 * (m->n + 1) > m->active && pmap_grow_index(m)) return -1;
    size_t i = pmap_find(m, h, key);
    if ((m->slot[i] >> 32) == m->epoch) {
        size_t e = (size_t)(uint32_t)m->slot[i];
        if (__builtin_add_overflow(m->counts[e], count, &m->counts[e]) || ovf) {
            m->counts[e] = UINT64_MAX;
            m->flags[e] |= 1;
        }
        return 0;
    }
    if (pmap_reserve(m)) return -1;
    size_t e = m->n++;
    memcpy(m->keys + e * (size_t)m->kw, key, sizeof(uint64_t) * (size_t)m->kw);
    m->hashes[e] = h;
    m->counts[e] = ovf ? UINT64_MAX : count;
    m->flags[e] = (uint8_t)(flags | (ovf ? 1 : 0));
    m->kick[e] = kick;
    if (m->with_links) m->link[e] = link;
    m->slot[i] = m->epoch << 32 | e;
    return 0;
}

/* pmap_add for a whole position. */
static int pmap_add_position(pmap *m, const pb_field *f, const pb_position *p, uint64_t count, int ovf, uint8_t flags,
                             uint8_t kick, uint64_t link) {
    uint64_t key[PB_MAX_WORDS + 1];
    pb_position_pack(f, p, key);
    return pmap_add(m, key, p->hash, count, ovf, flags, kick, link);
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
    tw->node_segs = calloc((size_t)f->nlattice * (size_t)f->nwords, sizeof(uint64_t));
    if (!tw->node_segs) {
        free(tw);
        return NULL;
    }
    for (int i = 0; i < f->nlattice; i++)
        for (int d = 0; d < 8; d++) {
            int s = f->seg[i][d];
            if (s >= 0) tw->node_segs[(size_t)i * (size_t)f->nwords + (size_t)(s >> 6)] |= 1ULL << (s & 63);
        }
    tw->layer[0].kw = tw->layer[1].kw = tw->out.kw = f->nwords + 1;
    tw->layer[0].epoch = tw->layer[1].epoch = tw->out.epoch = 1;
    return tw;
}

void pb_turnwalk_free(pb_turnwalk *tw) {
    if (!tw) return;
    free(tw->trail), free(tw->arena), free(tw->route);
    pmap_free(&tw->layer[0]);
    pmap_free(&tw->layer[1]);
    pmap_free(&tw->out);
    free(tw->node_segs);
    free(tw);
}

void pb_turnwalk_set_limit(pb_turnwalk *tw, size_t max_positions) { tw->limit = max_positions; }

void pb_turnwalk_set_keys_only(pb_turnwalk *tw, int on) { tw->keys_only = on; }

/* Links kept in m from now on (m->cap of them; pmap_reserve keeps them
 * sized), or not.  -1 when memory runs out. */
static int pmap_links(pmap *m, int on) {
    if (on && !m->with_links) {
        uint64_t *ln = realloc(m->link, sizeof(uint64_t) * (m->cap ? m->cap : 1));
        if (!ln) return -1;
        m->link = ln;
    }
    m->with_links = on;
    return 0;
}

int pb_turnwalk_set_routes(pb_turnwalk *tw, int on) {
    if (on && !tw->route) {
        tw->route = malloc(sizeof(int16_t) * (size_t)(pb_route_max(tw->f) + 1));
        if (!tw->route) return -1;
    }
    if (pmap_links(&tw->layer[0], on) || pmap_links(&tw->layer[1], on) || pmap_links(&tw->out, on)) return -1;
    tw->routes = on;
    return 0;
}

/* Appends n links to the trail; -1 when memory runs out. */
static int trail_append(pb_turnwalk *tw, const uint64_t *links, size_t n) {
    if (tw->ntrail + n > tw->trail_cap) {
        size_t cap = tw->trail_cap ? tw->trail_cap : 1024;
        while (cap < tw->ntrail + n) cap *= 2;
        uint64_t *t = realloc(tw->trail, sizeof(uint64_t) * cap);
        if (!t) return -1;
        tw->trail = t, tw->trail_cap = cap;
    }
    memcpy(tw->trail + tw->ntrail, links, sizeof(uint64_t) * n);
    tw->ntrail += n;
    return 0;
}

/* Triple: a ply's route into the arena; its offset, or NO_LINK when
 * memory runs out. */
static uint64_t arena_add(pb_turnwalk *tw, const pb_route *r) {
    size_t need = tw->narena + 1 + (size_t)r->len;
    if (need > tw->arena_cap) {
        size_t cap = tw->arena_cap ? tw->arena_cap : 4096;
        while (cap < need) cap *= 2;
        int16_t *a = realloc(tw->arena, sizeof(int16_t) * cap);
        if (!a) return NO_LINK;
        tw->arena = a, tw->arena_cap = cap;
    }
    uint64_t off = tw->narena;
    tw->arena[tw->narena++] = (int16_t)r->len;
    memcpy(tw->arena + tw->narena, r->nodes, sizeof(int16_t) * (size_t)r->len);
    tw->narena += (size_t)r->len;
    return off;
}

/* The route of an outcome with this link from root p, into tw->route;
 * its number of nodes. */
static int route_of(pb_turnwalk *tw, const pb_position *p, uint64_t link) {
    if (!pb_turns_are_steps(tw->f)) {
        int len = tw->arena[link];
        memcpy(tw->route, tw->arena + link + 1, sizeof(int16_t) * (size_t)len);
        return len;
    }
    /* The directions, last first, then the nodes from the ball. */
    int n = 0;
    for (uint64_t l = link; l != NO_LINK; l = tw->trail[l >> 3]) tw->route[++n] = (int16_t)(l & 7);
    int node = p->ball;
    tw->route[0] = (int16_t)node;
    for (int i = 1, j = n; i < j; i++, j--) {
        int16_t t = tw->route[i];
        tw->route[i] = tw->route[j], tw->route[j] = t;
    }
    for (int i = 1; i <= n; i++) tw->route[i] = (int16_t)(node = pb_step_to(tw->f, node, tw->route[i]));
    return n + 1;
}

void pb_turnwalk_set_ends(pb_turnwalk *tw, int on) { tw->skip_ends = !on; }

int pb_turnwalk_ends(const pb_turnwalk *tw) { return tw->ends; }

/* The PB_TURNWALK_END_* bit of an end with this loser, for `me`. */
static int end_bit(int loser, int me) {
    return loser == PB_NOBODY ? PB_TURNWALK_END_DRAW : loser == me ? PB_TURNWALK_END_LOSS : PB_TURNWALK_END_WIN;
}

size_t pb_turnwalk_visited(const pb_turnwalk *tw) { return tw->visited; }

enum { FLAG_END_SHIFT = 1, FLAG_LOSER_SHIFT = 4 };

static uint8_t outcome_flags(pb_end end, int loser) {
    return (uint8_t)((unsigned)end << FLAG_END_SHIFT | (unsigned)loser << FLAG_LOSER_SHIFT);
}

/* Triple: every ply merged into the outcome map. */
static int add_ply(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    pb_turnwalk *tw = ctx;
    tw->visited++;
    if (r->end != PB_END_NONE) {
        tw->ends |= end_bit(r->loser, tw->root_mover);
        if (tw->skip_ends) return 0;
    }
    uint64_t link = NO_LINK;
    const size_t n0 = tw->out.n, a0 = tw->narena;
    if (tw->routes && (link = arena_add(tw, r)) == NO_LINK) return 1;
    if (pmap_add_position(&tw->out, f, after, 1, 0, outcome_flags(r->end, r->loser), (uint8_t)r->kick, link) < 0)
        return 1;
    if (tw->out.n == n0) tw->narena = a0; /* merged: the first route stays */
    return 0;
}

static inline int key_drawn(const uint64_t *key, int s) { return (int)((key[s >> 6] >> (s & 63)) & 1); }

/* Is lattice node i occupied in the position with packed key `key`: marked
 * at the start, or an end of a drawn segment?  (What pb_occupied reads
 * from deg[], read from the segment bits: a drawn segment at i is a bit of
 * both the key and i's mask.) */
static inline int key_occupied(const pb_field *f, const uint64_t *node_segs, const uint64_t *key, int i) {
    if (f->flags[i] & PB_OCCUPIED0) return 1;
    const uint64_t *m = node_segs + (size_t)i * (size_t)f->nwords;
    for (int w = 0; w < f->nwords; w++)
        if (key[w] & m[w]) return 1;
    return 0;
}

/* Has node i a legal segment not drawn in `key`? */
static inline int key_has_free(const pb_field *f, const uint64_t *node_segs, const uint64_t *key, int i) {
    const uint64_t *m = node_segs + (size_t)i * (size_t)f->nwords;
    for (int w = 0; w < f->nwords; w++)
        if (m[w] & ~key[w]) return 1;
    return 0;
}

/* pb_step on a packed key: the step from `ball` in direction d along the
 * free segment s, with the player `mover` to move.  Writes the key after
 * the step into out (the segment drawn, the ball moved, the player to move
 * flipped on a stop) and its Zobrist hash into *hout (from h, the key's);
 * returns what pb_step returns, with the same *loser.  The walk expands
 * mid-turn positions from their keys with it, so that no position has to
 * be rebuilt (deg[]) for each of them; the tests hold the outcomes it gives
 * against routes listed with pb_step. */
static pb_step_result key_step(const pb_field *f, const uint64_t *node_segs, const uint64_t *key, uint64_t h, int ball,
                               int mover, int d, int s, uint64_t *out, uint64_t *hout, int *loser) {
    const int nw = f->nwords, to = pb_step_to(f, ball, d);
    const int was_occupied = key_occupied(f, node_segs, key, to);
    memcpy(out, key, sizeof(uint64_t) * (size_t)nw);
    out[s >> 6] |= 1ULL << (s & 63);
    h ^= f->zobrist_seg[s] ^ f->zobrist_ball[ball] ^ f->zobrist_ball[to];
    *loser = PB_NOBODY;
    pb_step_result r = PB_STEP_STOP;
    const uint8_t fl = f->flags[to];
    int scores = 0;
    if (fl & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) {
        /* As in pb_step: box goals score on any arrival, line goals only
         * from the centre side. */
        int owner = (fl & PB_GOAL_BOTTOM) ? PB_BOTTOM : PB_TOP, dy = pb_dir_dy[d];
        scores = f->box || (owner == PB_BOTTOM ? dy < 0 : dy > 0);
        if (scores) *loser = owner, r = PB_STEP_GOAL;
    }
    if (!scores && was_occupied) {
        r = key_has_free(f, node_segs, out, to) ? PB_STEP_BOUNCE : PB_STEP_DEAD_END;
        if (r == PB_STEP_DEAD_END && (f->spec.rules == PB_RULES_BOOK || f->spec.dead_end == PB_DEAD_END_LOSS))
            *loser = mover;
    }
    int to_move = mover;
    if (r == PB_STEP_STOP) to_move ^= 1, h ^= f->zobrist_top;
    out[nw] = (uint64_t)(uint16_t)to | (uint64_t)to_move << 16;
    *hout = h;
    return r;
}

/* Book and hockey: the layers, into tw->out.  `score_only`: stop (return
 * 1) at the first step into the opponent's goal.  Returns 0 when done,
 * 1 for a goal found, PB_TURNWALK_TOO_BIG.
 *
 * Entries are expanded from their keys (key_step), their hashes carried
 * along incrementally: the hash of a successor is its parent's with the
 * segment, the ball and (on a stop) the player to move XORed in, the same
 * sum pb_step keeps; the tests check every outcome's hash against one
 * computed from scratch.  The hash only picks slots: entries are merged by
 * whole keys. */
static int walk_layers(pb_turnwalk *tw, const pb_position *root, int score_only) {
    const pb_field *f = tw->f;
    const int mover = root->to_move, nw = f->nwords, kw = nw + 1;
    pmap *cur = &tw->layer[0], *next = &tw->layer[1];
    pmap_clear(cur);
    if (pmap_add_position(cur, f, root, 1, 0, 0, 0, NO_LINK) < 0) return PB_TURNWALK_TOO_BIG;
    const uint64_t no_link = NO_LINK;
    if (tw->routes && trail_append(tw, &no_link, 1)) return PB_TURNWALK_TOO_BIG;
    size_t base = 0; /* the trail index of cur's entry 0 */
    uint64_t succ[PB_MAX_WORDS + 1];
    while (cur->n) {
        pmap_clear(next);
        for (size_t e = 0; e < cur->n; e++) {
            const uint64_t from = (uint64_t)(base + e) << 3;
            const uint64_t *key = cur->keys + e * (size_t)kw;
            const uint64_t c = cur->counts[e], h = cur->hashes[e];
            const int ovf = cur->flags[e] & 1, ball = (int)(key[nw] & 0xffff);
            for (int d = 0; d < 8; d++) {
                int s = f->seg[ball][d];
                if (s < 0 || key_drawn(key, s)) continue;
                int loser;
                uint64_t hs;
                pb_step_result r = key_step(f, tw->node_segs, key, h, ball, mover, d, s, succ, &hs, &loser);
                if (r == PB_STEP_GOAL && score_only && loser != mover) return 1;
                int fail = 0;
                if (r == PB_STEP_BOUNCE) fail = pmap_add(next, succ, hs, c, ovf, 0, 0, from | (uint64_t)d);
                else if (r != PB_STEP_STOP && tw->skip_ends) tw->ends |= end_bit(loser, mover);
                else if (!score_only) {
                    pb_end end = r == PB_STEP_GOAL       ? PB_END_GOAL
                                 : r == PB_STEP_DEAD_END ? PB_END_DEAD_END
                                                         : PB_END_NONE;
                    fail = pmap_add(&tw->out, succ, hs, c, ovf, outcome_flags(end, loser), 0, from | (uint64_t)d);
                }
                if (fail) return PB_TURNWALK_TOO_BIG;
            }
        }
        tw->visited += next->n;
        if (tw->limit && tw->visited > tw->limit) return PB_TURNWALK_TOO_BIG;
        if (tw->routes) {
            base = tw->ntrail;
            if (trail_append(tw, next->link, next->n)) return PB_TURNWALK_TOO_BIG;
        }
        pmap *t = cur;
        cur = next, next = t;
    }
    return 0;
}

/* Readies the walk for root p: empty maps, tw->work = p. */
static void begin(pb_turnwalk *tw, const pb_position *p) {
    pmap_clear(&tw->out);
    tw->visited = 1;
    tw->ends = 0;
    tw->root_mover = p->to_move;
    tw->work = *p;
    tw->ntrail = tw->narena = 0;
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
        if (!tw->keys_only) apply(tw, out, e, p);
        pb_turn_outcome o;
        o.after = tw->keys_only ? NULL : &tw->work;
        o.key = out->keys + e * (size_t)out->kw;
        o.end = (pb_end)((out->flags[e] >> FLAG_END_SHIFT) & 7);
        o.loser = out->flags[e] >> FLAG_LOSER_SHIFT;
        o.kick = out->kick[e];
        /* A normal move hands the turn over (or ends the game); a kick
         * chain is the opponent's. */
        o.mover = o.kick ? p->to_move ^ 1 : p->to_move;
        o.routes = out->counts[e];
        o.overflow = out->flags[e] & 1;
        o.hash = out->hashes[e];
        o.nodes = NULL, o.len = 0;
        if (tw->routes) o.nodes = tw->route, o.len = route_of(tw, p, out->link[e]);
        int stop = fn(ctx, f, &o);
        if (!tw->keys_only) unapply(tw, out, e, p);
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
