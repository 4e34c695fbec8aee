/* reach.c - reduced keys (reach.h): the ball's reachable part by a flood
 * fill, the drawn segments there, their mirror images and a hash of them. */
#include "reach.h"

#include <string.h>

void pb_reach_init(pb_reach *r, const pb_field *f, int limit) {
    memset(r, 0, sizeof *r);
    r->f = f;
    r->limit = limit == 0 ? PB_REACH_LIMIT : limit < 0 ? 0 : limit;
    r->diagonals = f->spec.rules == PB_RULES_TRIPLE;
}

int pb_reach_fill(pb_reach *r, const pb_position *p, int max) {
    const pb_field *f = r->f;
    memset(r->mark, 0, sizeof(uint64_t) * (size_t)(f->nlattice / 64 + 1));
    memset(r->mask, 0, sizeof(uint64_t) * (size_t)f->nwords);
    int head = 0, tail = 0, half = 0;
    r->queue[tail++] = p->ball;
    r->mark[p->ball >> 6] |= 1ULL << (p->ball & 63);
    while (head < tail) {
        int u = r->queue[head++];
        for (int d = 0; d < 8; d++) {
            int s = f->seg[u][d];
            if (s < 0) continue;
            r->mask[s >> 6] |= 1ULL << (s & 63);
            /* The other diagonal of this diagonal's cell: a diagonal link
             * from u may not cross it (triple, docs/rules.md §3). */
            int c = f->segs[s].cross;
            if (r->diagonals && c >= 0) r->mask[c >> 6] |= 1ULL << (c & 63);
            if (pb_drawn(p, s)) continue;
            /* Each free segment of R is met from both of its ends. */
            if (++half > 2 * max) return -1;
            int v = pb_step_to(f, u, d);
            if (r->mark[v >> 6] >> (v & 63) & 1) continue;
            r->mark[v >> 6] |= 1ULL << (v & 63);
            r->queue[tail++] = (int16_t)v;
        }
    }
    return half / 2;
}

/* A hash of a key's words (any function of the whole key would do: the
 * table compares whole keys; this one places them evenly). */
static uint64_t words_hash(const uint64_t *w, int n, uint64_t bt) {
    uint64_t h = bt * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
    for (int i = 0; i < n; i++) {
        h ^= w[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    return h;
}

int pb_reach_key(pb_reach *r, const pb_images *im, const pb_position *p, uint64_t *out, pb_image_key *k) {
    const pb_field *f = r->f;
    const int nw = f->nwords;
    if (r->limit <= 0) return 0;
    r->tried++;
    if (pb_reach_fill(r, p, r->limit) < 0) return 0;
    uint64_t *m = r->img[0], cut = 0;
    for (int i = 0; i < nw; i++) m[i] = p->seg[i] & r->mask[i], cut |= p->seg[i] ^ m[i];
    if (!cut) return 0; /* nothing left out: the full key says the same */
    r->reduced++;
    int best = 0;
    uint64_t bt0 = (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16, h = words_hash(m, nw, bt0);
    for (int i = 1; i < im->nimg; i++) {
        int o = im->img[i];
        uint64_t *w = r->img[o];
        memset(w, 0, sizeof(uint64_t) * (size_t)nw);
        for (int j = 0; j < nw; j++)
            for (uint64_t b = m[j]; b; b &= b - 1) {
                int s = im->seg_img[o][j * 64 + __builtin_ctzll(b)];
                w[s >> 6] |= 1ULL << (s & 63);
            }
        uint64_t bt = (uint64_t)(uint16_t)im->node_img[o][p->ball] | (uint64_t)(p->to_move ^ (o >> 1)) << 16;
        uint64_t ho = words_hash(w, nw, bt);
        if (ho < h) h = ho, best = o;
    }
    memcpy(out, r->img[best], sizeof(uint64_t) * (size_t)nw);
    k->orient = best;
    k->hash = h;
    k->seg = out;
    k->bt = (uint64_t)(uint16_t)im->node_img[best][p->ball] | (uint64_t)(p->to_move ^ (best >> 1)) << 16;
    return 1;
}
