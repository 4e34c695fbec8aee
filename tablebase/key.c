/* key.c - tablebase keys (a position's ball and drawn segments as a byte
 * string), mirror classes, layers, sorting and search (tablebase.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tablebase.h"

void pb_tb_keyfmt_init(pb_tb_keyfmt *k, const pb_field *f) {
    k->kbytes = 2 + (f->nsegments + 7) / 8;
    k->kw = (k->kbytes + 7) / 8;
}

/* A key is the bit string [16 bits: the ball][segment 0][segment 1]...,
 * most significant bit first, cut into big-endian words: segment s is bit
 * 63 - (16 + s) % 64 of word (16 + s) / 64.  A position's segment word j
 * holds segment 64j + t at bit t, so its bit-reversal R_j holds it at bit
 * 63 - t: R_j is the stretch of the key that starts at bit 16 + 64j, and
 * key word i = R_{i-1} << 48 | R_i >> 16 (the ball in place of R_{-1}).
 * Bits past the last segment are zero in seg, hence in the key. */
static inline uint64_t bit_reverse(uint64_t x) {
    x = __builtin_bswap64(x);
    x = (x & 0x0f0f0f0f0f0f0f0fULL) << 4 | ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL);
    x = (x & 0x3333333333333333ULL) << 2 | ((x >> 2) & 0x3333333333333333ULL);
    return (x & 0x5555555555555555ULL) << 1 | ((x >> 1) & 0x5555555555555555ULL);
}

static void key_of_segs(const pb_field *f, const pb_tb_keyfmt *k, const uint64_t *seg, int ball, uint64_t *key) {
    uint64_t prev = (uint64_t)(uint16_t)ball;
    for (int i = 0; i < k->kw; i++) {
        uint64_t r = i < f->nwords ? bit_reverse(seg[i]) : 0;
        key[i] = prev << 48 | r >> 16;
        prev = r;
    }
}

/* Adds to out the left-right mirror images of the segments of the word
 * `bits` (segment word w). */
static inline void mirror_add(const pb_field *f, int w, uint64_t bits, uint64_t *out) {
    for (; bits; bits &= bits - 1) {
        int s = f->seg_mirror_lr[w * 64 + __builtin_ctzll(bits)];
        out[s >> 6] |= 1ULL << (s & 63);
    }
}

/* The left-right mirror image of the segment words seg. */
static void mirror_segs(const pb_field *f, const uint64_t *seg, uint64_t *out) {
    memset(out, 0, sizeof(uint64_t) * (size_t)f->nwords);
    for (int w = 0; w < f->nwords; w++) mirror_add(f, w, seg[w], out);
}

void pb_tb_pack(const pb_field *f, const pb_tb_keyfmt *k, const pb_position *p, uint64_t *key) {
    key_of_segs(f, k, p->seg, p->ball, key);
}

/* The ball is the key's leading field, so when the mirror image moves it
 * the smaller ball index decides, and only a ball on the middle column
 * needs both keys built and compared.  The mirror image of seg is that of
 * base (given as base_mirror) with the mirror images of the segments seg
 * adds to it, when seg holds all of base; of all of seg otherwise. */
int pb_tb_canon_near(const pb_field *f, const pb_tb_keyfmt *k, const uint64_t *seg, int ball, const uint64_t *base,
                     const uint64_t *base_mirror, uint64_t *key) {
    const int mball = f->mirror_lr[ball];
    uint64_t mseg[PB_MAX_WORDS];
    if (mball > ball) {
        key_of_segs(f, k, seg, ball, key);
        return 2;
    }
    uint64_t outside = 0;
    for (int w = 0; w < f->nwords; w++) outside |= base ? base[w] & ~seg[w] : 0;
    if (!base || outside) {
        mirror_segs(f, seg, mseg);
    } else {
        memcpy(mseg, base_mirror, sizeof(uint64_t) * (size_t)f->nwords);
        for (int w = 0; w < f->nwords; w++) mirror_add(f, w, seg[w] & ~base[w], mseg);
    }
    key_of_segs(f, k, mseg, mball, key);
    if (mball < ball) return 2;
    uint64_t own[PB_TB_MAX_KW];
    key_of_segs(f, k, seg, ball, own);
    int c = pb_tb_cmp(own, key, k->kw);
    if (c < 0) memcpy(key, own, sizeof(uint64_t) * (size_t)k->kw);
    return c == 0 ? 1 : 2;
}

int pb_tb_canon_segs(const pb_field *f, const pb_tb_keyfmt *k, const uint64_t *seg, int ball, uint64_t *key) {
    return pb_tb_canon_near(f, k, seg, ball, NULL, NULL, key);
}

void pb_tb_mirror_segs(const pb_field *f, const uint64_t *seg, uint64_t *out) { mirror_segs(f, seg, out); }

int pb_tb_canon(const pb_field *f, const pb_tb_keyfmt *k, const pb_position *p, uint64_t *key) {
    return pb_tb_canon_segs(f, k, p->seg, p->ball, key);
}

static inline unsigned key_byte(const uint64_t *key, int b) {
    return (unsigned)(key[b >> 3] >> (8 * (7 - (b & 7)))) & 0xff;
}

void pb_tb_unpack(const pb_field *f, const pb_tb_keyfmt *k, const uint64_t *key, int to_move, pb_position *p) {
    (void)k;
    memset(p->seg, 0, sizeof p->seg);
    for (int s = 0; s < f->nsegments; s++)
        if (key_byte(key, 2 + (s >> 3)) & (0x80u >> (s & 7))) p->seg[s >> 6] |= 1ULL << (s & 63);
    p->ball = (int16_t)(key_byte(key, 0) << 8 | key_byte(key, 1));
    p->to_move = (uint8_t)to_move;
    pb_position_refresh(f, p);
}

int pb_tb_layer_of(const pb_field *f, const pb_position *p) {
    int n = 0;
    for (int i = 0; i < f->nlattice; i++)
        if ((f->flags[i] & PB_NODE) && !(f->flags[i] & PB_OCCUPIED0) && p->deg[i]) n++;
    return n;
}

long pb_tb_search(const uint64_t *keys, size_t n, int kw, const uint64_t *key) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = pb_tb_cmp(keys + mid * (size_t)kw, key, kw);
        if (c == 0) return (long)mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* Sorting keys of kw words in place: an introsort (quicksort with the
 * median of three, heapsort below a depth of 2 log2 n, insertion sort for
 * short ranges) with the comparison and the swaps inline.  The C library's
 * qsort called a comparison function per step and moved keys through a
 * buffer: a third of a forward layer's time went there. */
static inline void key_swap(uint64_t *a, uint64_t *b, int kw) {
    for (int i = 0; i < kw; i++) {
        uint64_t t = a[i];
        a[i] = b[i], b[i] = t;
    }
}

#define KEY(i) (keys + (size_t)(i) * (size_t)kw)

static void insertion_sort(uint64_t *keys, size_t n, int kw) {
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && pb_tb_cmp(KEY(j), KEY(j - 1), kw) < 0; j--) key_swap(KEY(j), KEY(j - 1), kw);
}

static void sift_down(uint64_t *keys, size_t root, size_t n, int kw) {
    for (;;) {
        size_t c = 2 * root + 1;
        if (c >= n) return;
        if (c + 1 < n && pb_tb_cmp(KEY(c), KEY(c + 1), kw) < 0) c++;
        if (pb_tb_cmp(KEY(root), KEY(c), kw) >= 0) return;
        key_swap(KEY(root), KEY(c), kw);
        root = c;
    }
}

static void heap_sort(uint64_t *keys, size_t n, int kw) {
    for (size_t i = n / 2; i-- > 0;) sift_down(keys, i, n, kw);
    for (size_t end = n; end-- > 1;) {
        key_swap(KEY(0), KEY(end), kw);
        sift_down(keys, 0, end, kw);
    }
}

static void intro_sort(uint64_t *keys, size_t n, int kw, int depth) {
    while (n > 16) {
        if (depth-- == 0) {
            heap_sort(keys, n, kw);
            return;
        }
        /* Median of three into position 0, then Hoare's partition. */
        size_t mid = n / 2;
        if (pb_tb_cmp(KEY(mid), KEY(0), kw) < 0) key_swap(KEY(mid), KEY(0), kw);
        if (pb_tb_cmp(KEY(n - 1), KEY(0), kw) < 0) key_swap(KEY(n - 1), KEY(0), kw);
        if (pb_tb_cmp(KEY(n - 1), KEY(mid), kw) < 0) key_swap(KEY(n - 1), KEY(mid), kw);
        key_swap(KEY(0), KEY(mid), kw);
        size_t i = 0, j = n;
        for (;;) {
            do i++;
            while (i < n && pb_tb_cmp(KEY(i), KEY(0), kw) < 0);
            do j--;
            while (pb_tb_cmp(KEY(j), KEY(0), kw) > 0);
            if (i >= j) break;
            key_swap(KEY(i), KEY(j), kw);
        }
        key_swap(KEY(0), KEY(j), kw);
        /* [0, j) <= pivot = KEY(j) <= [j + 1, n): recurse into the smaller. */
        if (j < n - j - 1) {
            intro_sort(keys, j, kw, depth);
            keys = KEY(j + 1), n = n - j - 1;
        } else {
            intro_sort(KEY(j + 1), n - j - 1, kw, depth);
            n = j;
        }
    }
    insertion_sort(keys, n, kw);
}

#undef KEY

size_t pb_tb_sort_unique(uint64_t *keys, size_t n, int kw) {
    if (n < 2) return n;
    size_t sz = sizeof(uint64_t) * (size_t)kw;
    int depth = 0;
    for (size_t m = n; m > 1; m >>= 1) depth += 2;
    intro_sort(keys, n, kw, depth);
    size_t m = 1;
    for (size_t i = 1; i < n; i++) {
        if (pb_tb_cmp(keys + (i - 1) * (size_t)kw, keys + i * (size_t)kw, kw) == 0) continue;
        if (m != i) memcpy(keys + m * (size_t)kw, keys + i * (size_t)kw, sz);
        m++;
    }
    return m;
}

const char *pb_tb_describe(uint8_t v, char *buf, size_t len) {
    if (v == PB_TB_DRAW) snprintf(buf, len, "draw");
    else snprintf(buf, len, "%s in %d", (v & 1) ? "win" : "loss", pb_tb_distance(v));
    return buf;
}

void pb_tb_layer_free(pb_tb_layer *L) {
    free(L->keys);
    free(L->vals);
    L->keys = NULL, L->vals = NULL, L->n = 0;
}
