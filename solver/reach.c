/* reach.c - reduced keys (reach.h): the ball's reachable part by a flood
 * fill, the drawn segments there, their mirror images and a hash of them. */
#include "reach.h"

#include <stdlib.h>
#include <string.h>

void pb_reach_init(pb_reach *r, const pb_field *f, int limit) {
    r->memo = NULL, r->memo_mask = 0, r->memo_hits = 0;
    r->f = f;
    r->limit = limit == 0 ? PB_REACH_LIMIT : limit < 0 ? 0 : limit;
    r->diagonals = f->spec.rules == PB_RULES_TRIPLE;
    r->tried = r->reduced = 0;
    r->small_root = 1;
    r->least = limit == 0 ? PB_REACH_LEAST : 0;
    r->idle = 0;
    for (int i = 0; i < f->nlattice; i++) {
        int n = 0;
        for (int d = 0; d < 8 && pb_is_node(f, i); d++)
            if (f->seg[i][d] >= 0)
                r->links[i][n].seg = f->seg[i][d], r->links[i][n++].to = (int16_t)pb_step_to(f, i, d);
        r->nlinks[i] = (uint8_t)n;
    }
}

int pb_reach_fill(pb_reach *r, const pb_position *p, int max) {
    const pb_field *f = r->f;
    const uint64_t *drawn = p->seg;
    uint64_t *kept = r->img[0], *mark = r->mark;
    memset(mark, 0, sizeof(uint64_t) * (size_t)(f->nlattice / 64 + 1));
    memset(kept, 0, sizeof(uint64_t) * (size_t)f->nwords);
    int head = 0, tail = 0, half = 0;
    r->queue[tail++] = p->ball;
    mark[p->ball >> 6] |= 1ULL << (p->ball & 63);
    while (head < tail) {
        int u = r->queue[head++], n = r->nlinks[u];
        const pb_reach_link *l = r->links[u];
        for (int j = 0; j < n; j++) {
            int s = l[j].seg, v = l[j].to;
            uint64_t bit = 1ULL << (s & 63);
            if (drawn[s >> 6] & bit) {
                kept[s >> 6] |= bit;
                continue;
            }
            /* Each free segment of R is met from both of its ends. */
            if (++half > 2 * max) return -1;
            uint64_t vb = 1ULL << (v & 63);
            if (mark[v >> 6] & vb) continue;
            mark[v >> 6] |= vb;
            r->queue[tail++] = (int16_t)v;
        }
    }
    /* Triple: the other diagonal of each diagonal's cell at R's nodes,
     * which a diagonal link may not cross (docs/rules.md §3). */
    if (r->diagonals)
        for (int q = 0; q < tail; q++)
            for (int j = 0, u = r->queue[q]; j < r->nlinks[u]; j++) {
                int c = f->segs[r->links[u][j].seg].cross;
                if (c >= 0 && (drawn[c >> 6] >> (c & 63) & 1)) kept[c >> 6] |= 1ULL << (c & 63);
            }
    return half / 2;
}

void pb_reach_root(pb_reach *r, const pb_position *root) {
    int n = r->limit > 0 ? pb_reach_fill(r, root, 2 * r->limit) : -1;
    r->small_root = n >= 0;
    r->idle = n >= 0 && n <= r->least;
}

int pb_reach_memo(pb_reach *r, size_t entries) {
    size_t n = 1;
    while (n < entries) n *= 2;
    free(r->memo);
    r->memo = calloc(n * (size_t)(2 + 2 * r->f->nwords), sizeof(uint64_t));
    r->memo_mask = r->memo ? n - 1 : 0;
    return r->memo ? 0 : -1;
}

void pb_reach_free(pb_reach *r) {
    free(r->memo);
    r->memo = NULL, r->memo_mask = 0;
}

/* Fills r->img[0] with the kept words of p; 1 if at most r->limit free
 * segments are reachable, else 0.  With
 * a memo, an answer found before for the same position is copied. */
static int kept_words(pb_reach *r, const pb_position *p, uint64_t bt) {
    const int nw = r->f->nwords;
    uint64_t *e = NULL;
    if (r->memo) {
        e = r->memo + (p->hash & r->memo_mask) * (size_t)(2 + 2 * nw);
        if (e[0] == p->hash && (e[1] & 0xffffffffULL) == bt && (e[1] >> 33) &&
            !memcmp(e + 2, p->seg, sizeof(uint64_t) * (size_t)nw)) {
            r->memo_hits++;
            if (!(e[1] >> 32 & 1)) return 0;
            memcpy(r->img[0], e + 2 + nw, sizeof(uint64_t) * (size_t)nw);
            return 1;
        }
    }
    /* Within the limit the key is reduced even when nothing is left out
     * (it is then the full key, found alike). */
    int reduce = pb_reach_fill(r, p, r->limit) >= 0;
    if (e) {
        e[0] = p->hash, e[1] = bt | (uint64_t)reduce << 32 | 1ULL << 33;
        memcpy(e + 2, p->seg, sizeof(uint64_t) * (size_t)nw);
        if (reduce) memcpy(e + 2 + nw, r->img[0], sizeof(uint64_t) * (size_t)nw);
    }
    return reduce;
}

/* The Zobrist hash of a key (the kept words w, ball and player to move as
 * an orientation sees them): the hash pb_key_hash gives the stored key,
 * so that a table that grows places reduced keys again as it places full
 * ones, and a key with nothing left out is the full key, hash and all. */
static uint64_t key_hash(const pb_field *f, int ball, int to_move) {
    return f->zobrist_ball[ball] ^ (to_move == PB_TOP ? f->zobrist_top : 0);
}

/* The set bits of x, in a few instructions (a build for any x86-64 has
 * no popcount instruction: __builtin_popcountll would call a library
 * routine). */
static inline int bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

int pb_reach_key(pb_reach *r, const pb_images *im, const pb_position *p, uint64_t *out, pb_image_key *k) {
    const pb_field *f = r->f;
    const int nw = f->nwords;
    if (r->limit <= 0 || r->idle) return 0;
    if (!r->small_root) {
        int drawn = 0;
        for (int i = 0; i < nw; i++) drawn += bit_count(p->seg[i]);
        if (f->nsegments - drawn > r->limit) return 0;
    }
    r->tried++;
    uint64_t bt0 = (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16;
    if (!kept_words(r, p, bt0)) return 0;
    const uint64_t *m = r->img[0];
    r->reduced++;
    int best = 0;
    uint64_t h = key_hash(f, p->ball, p->to_move);
    for (int j = 0; j < nw; j++)
        for (uint64_t b = m[j]; b; b &= b - 1) h ^= f->zobrist_seg[j * 64 + __builtin_ctzll(b)];
    for (int i = 1; i < im->nimg; i++) {
        int o = im->img[i];
        uint64_t *w = r->img[o], ho = key_hash(f, im->node_img[o][p->ball], p->to_move ^ (o >> 1));
        memset(w, 0, sizeof(uint64_t) * (size_t)nw);
        for (int j = 0; j < nw; j++)
            for (uint64_t b = m[j]; b; b &= b - 1) {
                int s = im->seg_img[o][j * 64 + __builtin_ctzll(b)];
                w[s >> 6] |= 1ULL << (s & 63);
                ho ^= f->zobrist_seg[s];
            }
        if (ho < h) h = ho, best = o;
    }
    memcpy(out, r->img[best], sizeof(uint64_t) * (size_t)nw);
    k->orient = best;
    k->hash = h;
    k->seg = out;
    k->bt = (uint64_t)(uint16_t)im->node_img[best][p->ball] | (uint64_t)(p->to_move ^ (best >> 1)) << 16;
    return 1;
}
