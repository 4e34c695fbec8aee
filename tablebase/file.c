/* file.c - the tablebase file (docs/tablebase.md): the header block, entry
 * blocks of front-coded keys and value bytes, opening and loading layers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "tablebase.h"
#include "turn.h"

/* Entries per block: large enough for zstd to find the key's regularities,
 * small enough to decode one block at a time. */
#define BLOCK_ENTRIES ((size_t)1 << 18)
#define NCOUNTS 9

static inline unsigned key_byte(const uint64_t *key, int b) {
    return (unsigned)(key[b >> 3] >> (8 * (7 - (b & 7)))) & 0xff;
}

unsigned char *pb_tb_header_bytes(const pb_tb_header *h, const pb_tb_keyfmt *k, size_t *len) {
    int nl = h->dmax - h->d0 + 1;
    unsigned char *b = malloc(16 + (size_t)k->kbytes + (size_t)nl * NCOUNTS * 8);
    size_t n = 0;
    n += pb_le_put(b + n, (uint64_t)h->d0, 4);
    n += pb_le_put(b + n, (uint64_t)h->dmax, 4);
    n += pb_le_put(b + n, (uint64_t)h->root_to_move, 4);
    n += pb_le_put(b + n, (uint64_t)k->kbytes, 4);
    for (int i = 0; i < k->kbytes; i++) b[n++] = (unsigned char)key_byte(h->root, i);
    for (int l = 0; l < nl; l++) {
        const pb_tb_layer_counts *c = &h->layer[l];
        uint64_t v[NCOUNTS] = {c->classes,         c->positions,       c->classes_by[0],
                               c->classes_by[1],   c->classes_by[2],   c->positions_by[0],
                               c->positions_by[1], c->positions_by[2], c->blocks};
        for (int i = 0; i < NCOUNTS; i++) n += pb_le_put(b + n, v[i], 8);
    }
    *len = n;
    return b;
}

int pb_tb_header_parse(const unsigned char *b, size_t len, const pb_tb_keyfmt *k, pb_tb_header *h) {
    if (len < 16 + (size_t)k->kbytes) return -1;
    h->d0 = (int)pb_le_get(b, 4);
    h->dmax = (int)pb_le_get(b + 4, 4);
    h->root_to_move = (int)pb_le_get(b + 8, 4);
    if ((int)pb_le_get(b + 12, 4) != k->kbytes || h->d0 < 0 || h->dmax < h->d0 || h->dmax > PB_MAX_LATTICE ||
        h->root_to_move > 1)
        return -1;
    int nl = h->dmax - h->d0 + 1;
    if (len != 16 + (size_t)k->kbytes + (size_t)nl * NCOUNTS * 8) return -1;
    memset(h->root, 0, sizeof h->root);
    size_t n = 16;
    for (int i = 0; i < k->kbytes; i++) h->root[i >> 3] |= (uint64_t)b[n++] << (8 * (7 - (i & 7)));
    h->layer = calloc((size_t)nl, sizeof *h->layer);
    for (int l = 0; l < nl; l++) {
        uint64_t v[NCOUNTS];
        for (int i = 0; i < NCOUNTS; i++, n += 8) v[i] = pb_le_get(b + n, 8);
        pb_tb_layer_counts *c = &h->layer[l];
        c->classes = v[0], c->positions = v[1];
        for (int i = 0; i < 3; i++) c->classes_by[i] = v[2 + i], c->positions_by[i] = v[5 + i];
        c->blocks = v[8];
    }
    return 0;
}

/* One block: u64 m, u8 has_vals, m front-coded keys (u8 bytes shared with
 * the previous key of the block, then the rest of the key's bytes), then m
 * value bytes if has_vals. */
long pb_tb_put_layer(struct pb_cwriter *w, const pb_tb_keyfmt *k, uint32_t tag, const uint64_t *keys,
                     const uint8_t *vals, size_t n) {
    long blocks = 0;
    size_t kb = (size_t)k->kbytes;
    unsigned char *buf = malloc(9 + BLOCK_ENTRIES * (kb + 2));
    for (size_t start = 0; start < n || (n == 0 && blocks == 0); start += BLOCK_ENTRIES) {
        size_t m = n - start < BLOCK_ENTRIES ? n - start : BLOCK_ENTRIES;
        size_t len = pb_le_put(buf, m, 8);
        buf[len++] = vals != NULL;
        for (size_t i = 0; i < m; i++) {
            const uint64_t *key = keys + (start + i) * (size_t)k->kw;
            size_t shared = 0;
            if (i > 0) {
                const uint64_t *prev = key - k->kw;
                while (shared < kb && key_byte(key, (int)shared) == key_byte(prev, (int)shared)) shared++;
            }
            buf[len++] = (unsigned char)shared;
            for (size_t b = shared; b < kb; b++) buf[len++] = (unsigned char)key_byte(key, (int)b);
        }
        if (vals) memcpy(buf + len, vals + start, m), len += m;
        if (pb_container_put(w, tag, buf, len, 9)) {
            free(buf);
            return -1;
        }
        blocks++;
        if (n == 0) break;
    }
    free(buf);
    return blocks;
}

int pb_tb_get_block(struct pb_creader *r, const pb_tb_keyfmt *k, size_t len, pb_tb_layer *L, int want_vals, char *err,
                    size_t errlen) {
    unsigned char *buf = malloc(len ? len : 1);
    if (!buf || pb_container_read(r, buf, err, errlen)) {
        free(buf);
        return -1;
    }
    size_t kb = (size_t)k->kbytes, kw = (size_t)k->kw;
    uint64_t m = len >= 9 ? pb_le_get(buf, 8) : 0;
    int has_vals = len >= 9 && buf[8];
    size_t pos = 9;
    int bad = len < 9 || m > len || (want_vals && !has_vals);
    if (!bad) {
        uint64_t *keys = realloc(L->keys, (L->n + m) * kw * sizeof(uint64_t) + 8);
        uint8_t *vals = want_vals ? realloc(L->vals, L->n + m + 1) : L->vals;
        if (!keys || (want_vals && !vals)) bad = 1;
        if (keys) L->keys = keys;
        if (vals) L->vals = vals;
        for (size_t i = 0; i < m && !bad; i++) {
            uint64_t *key = L->keys + (L->n + i) * kw;
            size_t shared = pos < len ? buf[pos++] : kb + 1;
            if (shared > kb || (i == 0 && shared) || pos + (kb - shared) > len) {
                bad = 1;
                break;
            }
            if (i > 0) memcpy(key, key - kw, kw * sizeof(uint64_t));
            else memset(key, 0, kw * sizeof(uint64_t));
            for (size_t b = shared; b < kb; b++) {
                uint64_t sh = 8 * (7 - (b & 7));
                key[b >> 3] = (key[b >> 3] & ~(0xffULL << sh)) | (uint64_t)buf[pos++] << sh;
            }
        }
        if (!bad && has_vals && pos + m != len) bad = 1;
        if (!bad && !has_vals && pos != len) bad = 1;
        if (!bad && want_vals) memcpy(L->vals + L->n, buf + pos, m);
        if (!bad) L->n += m;
    }
    free(buf);
    if (bad) snprintf(err, errlen, "a block of layer %d is malformed", L->depth);
    return bad ? -1 : 0;
}

pb_tb *pb_tb_open(const char *path, int whole, char *err, size_t errlen) {
    pb_creader *r = pb_container_open(path, PB_TB_KIND, NULL, whole, err, errlen);
    if (!r) return NULL;
    const pb_container_meta *m = pb_container_meta_of(r);
    pb_tb *tb = calloc(1, sizeof *tb);
    snprintf(tb->path, sizeof tb->path, "%s", path);
    snprintf(tb->options, sizeof tb->options, "%s", m->options);
    snprintf(tb->version, sizeof tb->version, "%s", m->version);
    char ferr[200];
    tb->f = pb_field_new(&m->spec, ferr, sizeof ferr);
    uint32_t tag;
    size_t len;
    int ok = tb->f && tb->f->nsegments == m->nsegments && pb_turns_are_steps(tb->f);
    if (!ok) snprintf(err, errlen, "%s: names a field or rule set that cannot have a tablebase", path);
    if (ok) {
        pb_tb_keyfmt_init(&tb->k, tb->f);
        ok = pb_container_next(r, &tag, &len, err, errlen) == 1;
        if (ok && (tag != PB_TB_TAG_HEADER || len > ((size_t)1 << 24))) {
            snprintf(err, errlen, "%s: the header block is missing", path);
            ok = 0;
        }
    }
    if (ok) {
        unsigned char *b = malloc(len ? len : 1);
        ok = pb_container_read(r, b, err, errlen) == 0;
        if (ok && pb_tb_header_parse(b, len, &tb->k, &tb->h)) {
            snprintf(err, errlen, "%s: the header block is malformed", path);
            ok = 0;
        }
        free(b);
    }
    pb_container_close(r);
    if (!ok) {
        pb_tb_close(tb);
        return NULL;
    }
    return tb;
}

void pb_tb_close(pb_tb *tb) {
    if (!tb) return;
    pb_field_free(tb->f);
    free(tb->h.layer);
    free(tb);
}

int pb_tb_load(const pb_tb *tb, int d, pb_tb_layer *L, char *err, size_t errlen) {
    memset(L, 0, sizeof *L);
    L->depth = d;
    L->to_move = pb_tb_to_move(&tb->h, d);
    if (d < tb->h.d0 || d > tb->h.dmax) return 0;
    pb_creader *r = pb_container_open(tb->path, PB_TB_KIND, &tb->f->spec, 0, err, errlen);
    if (!r) return -1;
    uint32_t tag, want = PB_TB_TAG_ENTRIES | (uint32_t)d << 8;
    size_t len;
    int got, rc = 0;
    while ((got = pb_container_next(r, &tag, &len, err, errlen)) == 1) {
        if (tag != want) continue; /* pb_container_next skips an unread block */
        if (pb_tb_get_block(r, &tb->k, len, L, 1, err, errlen)) {
            rc = -1;
            break;
        }
    }
    if (got < 0) rc = -1;
    pb_container_close(r);
    if (!rc && L->n != tb->h.layer[d - tb->h.d0].classes) {
        snprintf(err, errlen, "%s: layer %d holds %zu entries, the header says %llu", tb->path, d, L->n,
                 (unsigned long long)tb->h.layer[d - tb->h.d0].classes);
        rc = -1;
    }
    if (rc) pb_tb_layer_free(L);
    return rc;
}

int pb_tb_lookup(const pb_tb *tb, const pb_tb_layer *L, const pb_position *p) {
    uint64_t key[PB_TB_MAX_KW];
    pb_tb_canon(tb->f, &tb->k, p, key);
    long i = pb_tb_search(L->keys, L->n, tb->k.kw, key);
    return i < 0 ? -1 : L->vals[i];
}

void pb_tb_root(const pb_tb *tb, pb_position *p) { pb_tb_unpack(tb->f, &tb->k, tb->h.root, tb->h.root_to_move, p); }
