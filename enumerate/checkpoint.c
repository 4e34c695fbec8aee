/* checkpoint.c - the checkpoint file of an enumeration (checkpoint.h), a
 * container of kind PB_CKPT_KIND (solver/container.h: checksummed zstd
 * blocks, written to a temporary file and renamed, header naming the rules,
 * the field and the program version).
 *
 * Every integer is little-endian; "big" is a non-negative GMP integer
 * written as  u32 n, then n bytes of magnitude, least significant first.
 *
 *   options text   "depth=<d> entries=<n>"
 *   block ROOT     u64 root[kw]                 the packed root position
 *   block ROWS     u32 d                        the frontier below is F(d)
 *                  rows 0 .. d, each:
 *                    u32 depth, u32 classes_known
 *                    u64 positions classes_lr classes_full
 *                    big sequences, big outcome[PB_OUT_COUNT]
 *   blocks FRON    entries of F(d) (or of this process's share), each
 *                  u64 key[kw], big count; about 4 MiB a block
 *
 * The whole file is checked (every block's checksum and the whole-file
 * checksum) before anything is used.
 */
#include "checkpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"

#define TAG_ROOT 0x544f4f52u /* "ROOT" */
#define TAG_ROWS 0x53574f52u /* "ROWS" */
#define TAG_FRON 0x4e4f5246u /* "FRON" */
#define FRON_BLOCK ((size_t)4 << 20)
#define BIG_MAX ((size_t)1 << 20)

static void put_big(pb_cbuf *v, mpz_srcptr z) {
    size_t n = mpz_sgn(z) ? (mpz_sizeinbase(z, 2) + 7) / 8 : 0;
    unsigned char stack[64], *b = n <= sizeof stack ? stack : malloc(n);
    if (!b) {
        v->failed = 1;
        return;
    }
    size_t got = 0;
    if (n) mpz_export(b, &got, -1, 1, 0, 0, z);
    pb_cbuf_u(v, got, 4);
    pb_cbuf_put(v, b, got);
    if (b != stack) free(b);
}

static void put_count(pb_cbuf *v, pb_fcount c) {
    if (c.big) {
        put_big(v, c.big);
        return;
    }
    int n = 0;
    while (n < 8 && (c.small >> (8 * n))) n++;
    pb_cbuf_u(v, (uint64_t)n, 4);
    pb_cbuf_u(v, c.small, n);
}

static void get_big(pb_ccursor *c, mpz_t z) {
    uint64_t n = pb_ccursor_u(c, 4);
    if (c->bad || n > BIG_MAX || (uint64_t)(c->end - c->p) < n) {
        c->bad = 1;
        mpz_set_ui(z, 0);
        return;
    }
    mpz_import(z, (size_t)n, -1, 1, 0, 0, c->p);
    c->p += n;
}

int pb_ckpt_write(const char *path, const pb_field *f, const uint64_t *root_key, int depth, const pb_enum_row *rows,
                  const pb_frontier *fr, char *err, size_t errlen) {
    int kw = f->nwords + 1;
    pb_container_meta m;
    pb_container_meta_init(&m, PB_CKPT_KIND, f);
    snprintf(m.options, sizeof m.options, "depth=%d entries=%llu", depth, (unsigned long long)pb_frontier_size(fr));
    char why[400];
    pb_cwriter *w = pb_container_create(path, &m, why, sizeof why);
    if (!w) {
        snprintf(err, errlen, "cannot write the checkpoint: %s", why);
        return -1;
    }
    pb_cbuf v = {0};
    for (int i = 0; i < kw; i++) pb_cbuf_u(&v, root_key[i], 8);
    if (v.failed) goto oom;
    pb_container_put(w, TAG_ROOT, v.b, v.n, 0);
    v.n = 0;
    pb_cbuf_u(&v, (uint64_t)depth, 4);
    for (int d = 0; d <= depth; d++) {
        const pb_enum_row *r = &rows[d];
        pb_cbuf_u(&v, (uint64_t)r->depth, 4);
        pb_cbuf_u(&v, (uint64_t)r->classes_known, 4);
        pb_cbuf_u(&v, r->positions, 8);
        pb_cbuf_u(&v, r->classes_lr, 8);
        pb_cbuf_u(&v, r->classes_full, 8);
        put_big(&v, r->sequences);
        for (int k = 0; k < PB_OUT_COUNT; k++) put_big(&v, r->outcome[k]);
    }
    if (v.failed) goto oom;
    pb_container_put(w, TAG_ROWS, v.b, v.n, 1);
    v.n = 0;
    for (int sh = 0; sh < PB_FRONTIER_SHARDS; sh++) {
        const pb_fshard *h = &fr->shard[sh];
        for (size_t i = 0; i < h->cap; i++) {
            if (!pb_frontier_used(fr, h, i)) continue;
            const uint64_t *key = pb_frontier_key(fr, h, i);
            for (int j = 0; j < kw; j++) pb_cbuf_u(&v, key[j], 8);
            put_count(&v, pb_frontier_count(fr, h, i));
            if (v.failed) goto oom;
            if (v.n >= FRON_BLOCK) {
                pb_container_put(w, TAG_FRON, v.b, v.n, 1);
                v.n = 0;
            }
        }
    }
    if (v.n) pb_container_put(w, TAG_FRON, v.b, v.n, 1);
    free(v.b);
    if (pb_container_commit(w, why, sizeof why)) {
        snprintf(err, errlen, "cannot write the checkpoint: %s", why);
        return -1;
    }
    return 0;
oom:
    pb_container_abort(w);
    free(v.b);
    snprintf(err, errlen, "out of memory while writing the checkpoint");
    return -2;
}

/* Is key a plausible position of f (ball on a node, a player, no segment
 * bits past nsegments)? */
static int key_ok(const pb_field *f, const uint64_t *key) {
    int nw = f->nwords;
    uint64_t last = key[nw];
    int ball = (int)(last & 0xffff), to_move = (int)(last >> 16);
    if (ball >= f->nlattice || !pb_is_node(f, ball) || to_move > 1) return 0;
    int tail = f->nsegments - 64 * (nw - 1);
    if (tail < 64 && (key[nw - 1] >> tail)) return 0;
    return 1;
}

/* The reading steps below return NULL, or why the file is refused. */

/* The depth d and rows 0 .. d. */
static const char *read_rows(pb_ccursor *c, pb_enum_row *rows, int rowcap, uint64_t *depth) {
    *depth = pb_ccursor_u(c, 4);
    if (c->bad || *depth >= (uint64_t)rowcap) return "malformed (bad depth)";
    for (uint64_t d = 0; d <= *depth; d++) {
        pb_enum_row *r = &rows[d];
        if (pb_ccursor_u(c, 4) != d) return "malformed (rows out of order)";
        r->classes_known = (int)pb_ccursor_u(c, 4);
        r->positions = pb_ccursor_u(c, 8);
        r->classes_lr = pb_ccursor_u(c, 8);
        r->classes_full = pb_ccursor_u(c, 8);
        get_big(c, r->sequences);
        mpz_set_ui(r->finished, 0);
        for (int k = 0; k < PB_OUT_COUNT; k++) {
            get_big(c, r->outcome[k]);
            mpz_add(r->finished, r->finished, r->outcome[k]);
        }
    }
    return c->bad || c->p != c->end ? "malformed (rows)" : NULL;
}

/* The entries of one block into fr, counted in *n; *refused is set if the
 * memory budget refused one. */
static const char *read_frontier(pb_ccursor *c, const pb_field *f, int rank, int nranks, pb_frontier *fr, uint64_t *n,
                                 int *refused) {
    int kw = f->nwords + 1;
    const char *why = NULL;
    mpz_t big;
    mpz_init(big);
    uint64_t key[PB_MAX_WORDS + 1];
    while (c->p < c->end && !why && !*refused) {
        for (int j = 0; j < kw; j++) key[j] = pb_ccursor_u(c, 8);
        get_big(c, big);
        if (c->bad || !key_ok(f, key) || mpz_sgn(big) <= 0) {
            why = "malformed (bad entry)";
            break;
        }
        if (nranks > 0 && pb_enum_owner(f, key, nranks) != rank) {
            why = "a position of another process (not this number of processes?)";
            break;
        }
        pb_fcount cnt = {0, big};
        if (mpz_sizeinbase(big, 2) <= 63) {
            cnt.small = 0;
            mpz_export(&cnt.small, NULL, -1, sizeof cnt.small, 0, 0, big);
            if (cnt.small <= fr->small_max) cnt.big = NULL;
        }
        int added = pb_frontier_add(fr, key, pb_frontier_hash(key, kw), cnt);
        if (added < 0) *refused = 1;
        else if (added == 0) why = "malformed (a position twice)";
        (*n)++;
    }
    mpz_clear(big);
    return why;
}

int pb_ckpt_depth(const char *path, const pb_field *f, const uint64_t *root_key) {
    char err[400];
    pb_creader *r = pb_container_open(path, PB_CKPT_KIND, &f->spec, 0, err, sizeof err);
    if (!r) return -1;
    int kw = f->nwords + 1, depth = -1;
    unsigned char b[8 * (PB_MAX_WORDS + 1)];
    uint32_t tag;
    size_t len;
    if (pb_container_meta_of(r)->nsegments == f->nsegments && pb_container_next(r, &tag, &len, err, sizeof err) == 1 &&
        tag == TAG_ROOT && len == 8 * (size_t)kw && !pb_container_read(r, b, err, sizeof err)) {
        int same = 1;
        for (int i = 0; i < kw; i++) same &= pb_le_get(b + 8 * i, 8) == root_key[i];
        const char *d = strstr(pb_container_meta_of(r)->options, "depth=");
        if (same && d) depth = atoi(d + 6);
    }
    pb_container_close(r);
    return depth > f->nsegments + 1 ? -1 : depth;
}

void pb_ckpt_rank_path(const char *base, int rank, int nranks, int slot, char *buf, size_t len) {
    snprintf(buf, len, "%s.%d-of-%d.%d", base, rank, nranks, slot);
}

int pb_ckpt_read(const char *path, const pb_field *f, const uint64_t *root_key, int rank, int nranks, pb_enum_row *rows,
                 int rowcap, pb_frontier *fr, char *err, size_t errlen) {
    char why_open[400];
    pb_creader *r = pb_container_open(path, PB_CKPT_KIND, &f->spec, 1, why_open, sizeof why_open);
    if (!r) {
        snprintf(err, errlen, "bad checkpoint %s", why_open);
        return -1;
    }
    const int kw = f->nwords + 1;
    const char *why = pb_container_meta_of(r)->nsegments != f->nsegments ? "a checkpoint of another field" : NULL;
    uint64_t depth = 0, n = 0;
    int refused = 0, seen = 0; /* blocks read: ROOT, ROWS, then FRON */
    unsigned char *buf = NULL;
    while (!why && !refused) {
        uint32_t tag;
        size_t len;
        int more = pb_container_next(r, &tag, &len, why_open, sizeof why_open);
        if (more < 0) why = "damaged (cut short or a bad block)";
        if (more <= 0) break;
        uint32_t want = seen == 0 ? TAG_ROOT : seen == 1 ? TAG_ROWS : TAG_FRON;
        free(buf);
        buf = tag == want && len <= ((size_t)1 << 32) ? malloc(len ? len : 1) : NULL;
        if (!buf) {
            why = tag == want ? "out of memory while reading" : "malformed (blocks out of order)";
            break;
        }
        if (pb_container_read(r, buf, why_open, sizeof why_open)) {
            why = "checksum mismatch (damaged)";
            break;
        }
        pb_ccursor c = {buf, buf + len, 0};
        if (seen == 0) {
            if (len != 8 * (size_t)kw) why = "malformed (root)";
            for (int i = 0; !why && i < kw; i++)
                if (pb_ccursor_u(&c, 8) != root_key[i]) why = "a checkpoint of an enumeration from another position";
        } else if (seen == 1) {
            why = read_rows(&c, rows, rowcap, &depth);
        } else {
            why = read_frontier(&c, f, rank, nranks, fr, &n, &refused);
        }
        seen = seen < 2 ? seen + 1 : 2;
    }
    free(buf);
    pb_container_close(r);
    if (refused) return -2;
    /* A share of a distributed run is checked against the whole when all
     * are read (enumerate.c). */
    if (!why && (seen < 2 || (nranks == 0 ? n != rows[depth].positions : n > rows[depth].positions)))
        why = "malformed (frontier size)";
    if (why) {
        snprintf(err, errlen, "bad checkpoint %s: %s", path, why);
        return -1;
    }
    return (int)depth;
}
