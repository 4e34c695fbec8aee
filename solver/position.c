/* position.c - positions, the bounce-rule step and its undo. */
#include "position.h"

#include <string.h>

void pb_position_start(const pb_field *f, pb_position *p, int first) {
    memset(p->seg, 0, sizeof p->seg);
    memset(p->deg, 0, sizeof p->deg);
    memset(p->dirs, 0, sizeof p->dirs);
    p->ball = (int16_t)f->centre;
    p->to_move = (uint8_t)first;
    p->hash = pb_position_hash_full(f, p);
}

int pb_free_count(const pb_field *f, const pb_position *p, int i) {
    int n = 0;
    for (int d = 0; d < 8; d++) n += pb_free(f, p, i, d);
    return n;
}

/* A segment's direction from its lower/left end a is E, NE, N or NW (0 to
 * 3), so its direction from b, the opposite, is 4 more: its bits in a's
 * and b's drawn directions are bit and bit << 4. */
static inline void draw_segment(const pb_field *f, pb_position *p, int s) {
    const pb_segment *g = &f->segs[s];
    const unsigned bit = 1u << g->dir;
    p->seg[s >> 6] |= 1ULL << (s & 63);
    p->deg[g->a]++, p->deg[g->b]++;
    p->dirs[g->a] |= (uint8_t)bit, p->dirs[g->b] |= (uint8_t)(bit << 4);
    p->hash ^= f->zobrist_seg[s];
}

static inline void erase_segment(const pb_field *f, pb_position *p, int s) {
    const pb_segment *g = &f->segs[s];
    const unsigned bit = 1u << g->dir;
    p->seg[s >> 6] &= ~(1ULL << (s & 63));
    p->deg[g->a]--, p->deg[g->b]--;
    p->dirs[g->a] &= (uint8_t)~bit, p->dirs[g->b] &= (uint8_t) ~(bit << 4);
    p->hash ^= f->zobrist_seg[s];
}

void pb_draw_segment(const pb_field *f, pb_position *p, int s) { draw_segment(f, p, s); }

void pb_erase_segment(const pb_field *f, pb_position *p, int s) { erase_segment(f, p, s); }

void pb_set_ball(const pb_field *f, pb_position *p, int node) {
    p->hash ^= f->zobrist_ball[p->ball] ^ f->zobrist_ball[node];
    p->ball = (int16_t)node;
}

void pb_set_to_move(const pb_field *f, pb_position *p, int player) {
    if (player != p->to_move) p->hash ^= f->zobrist_top;
    p->to_move = (uint8_t)player;
}

pb_step_result pb_step(const pb_field *f, pb_position *p, int d, pb_undo *u, int *loser) {
    int from = p->ball, s = f->seg[from][d];
    int to = pb_step_to(f, from, d);
    int was_occupied = pb_occupied(f, p, to);
    u->seg = (int16_t)s;
    u->ball = (int16_t)from;
    u->to_move = p->to_move;
    draw_segment(f, p, s);
    p->hash ^= f->zobrist_ball[from] ^ f->zobrist_ball[to];
    p->ball = (int16_t)to;
    *loser = PB_NOBODY;
    uint8_t fl = f->flags[to];
    if (fl & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) {
        int owner = (fl & PB_GOAL_BOTTOM) ? PB_BOTTOM : PB_TOP;
        /* Box goals: any arrival scores (a goal node can only be entered
         * from the field).  Line goals: only a step towards the goal's own
         * end of the field, that is from the centre side, scores. */
        int dy = pb_dir_dy[d];
        int scores = f->box || (owner == PB_BOTTOM ? dy < 0 : dy > 0);
        if (scores) {
            *loser = owner;
            return PB_STEP_GOAL;
        }
    }
    if (was_occupied) {
        if (p->deg[to] < f->degree0[to]) return PB_STEP_BOUNCE; /* a free segment is left there */
        if (f->spec.rules == PB_RULES_BOOK || f->spec.dead_end == PB_DEAD_END_LOSS) *loser = p->to_move;
        return PB_STEP_DEAD_END;
    }
    p->to_move ^= 1;
    p->hash ^= f->zobrist_top;
    return PB_STEP_STOP;
}

void pb_unstep(const pb_field *f, pb_position *p, const pb_undo *u) {
    erase_segment(f, p, u->seg);
    p->hash ^= f->zobrist_ball[p->ball] ^ f->zobrist_ball[u->ball];
    p->ball = u->ball;
    if (p->to_move != u->to_move) p->hash ^= f->zobrist_top;
    p->to_move = u->to_move;
}

uint64_t pb_key_hash(const pb_field *f, const uint64_t *seg, int ball, int to_move) {
    uint64_t h = f->zobrist_ball[ball];
    if (to_move == PB_TOP) h ^= f->zobrist_top;
    for (int w = 0; w < f->nwords; w++)
        for (uint64_t m = seg[w]; m; m &= m - 1) h ^= f->zobrist_seg[64 * w + __builtin_ctzll(m)];
    return h;
}

uint64_t pb_position_hash_full(const pb_field *f, const pb_position *p) {
    return pb_key_hash(f, p->seg, p->ball, p->to_move);
}

int pb_position_equal(const pb_field *f, const pb_position *a, const pb_position *b) {
    return a->ball == b->ball && a->to_move == b->to_move &&
           memcmp(a->seg, b->seg, (size_t)f->nwords * sizeof(uint64_t)) == 0;
}

void pb_position_refresh(const pb_field *f, pb_position *p) {
    memset(p->deg, 0, sizeof p->deg);
    memset(p->dirs, 0, sizeof p->dirs);
    for (int w = f->nwords; w < PB_MAX_WORDS; w++) p->seg[w] = 0;
    for (int w = 0; w < f->nwords; w++)
        for (uint64_t m = p->seg[w]; m; m &= m - 1) {
            const pb_segment *g = &f->segs[64 * w + __builtin_ctzll(m)];
            p->deg[g->a]++, p->deg[g->b]++;
            p->dirs[g->a] |= (uint8_t)(1u << g->dir), p->dirs[g->b] |= (uint8_t)(1u << (g->dir ^ 4));
        }
    p->hash = pb_position_hash_full(f, p);
}

void pb_position_mirror(const pb_field *f, const pb_position *in, pb_position *out, int lr, int tb) {
    memset(out->seg, 0, sizeof out->seg);
    for (int s = 0; s < f->nsegments; s++) {
        if (!pb_drawn(in, s)) continue;
        int t = s;
        if (lr) t = f->seg_mirror_lr[t];
        if (tb) t = f->seg_mirror_tb[t];
        out->seg[t >> 6] |= 1ULL << (t & 63);
    }
    int b = in->ball;
    if (lr) b = f->mirror_lr[b];
    if (tb) b = f->mirror_tb[b];
    out->ball = (int16_t)b;
    out->to_move = (uint8_t)(tb ? in->to_move ^ 1 : in->to_move);
    pb_position_refresh(f, out);
}

int pb_position_drawn_count(const pb_field *f, const pb_position *p) {
    int n = 0;
    for (int w = 0; w < f->nwords; w++) n += __builtin_popcountll(p->seg[w]);
    return n;
}
