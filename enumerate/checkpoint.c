/* checkpoint.c - the checkpoint file of an enumeration (checkpoint.h).
 *
 * Every integer is little-endian; "big" is a non-negative GMP integer
 * written as  u32 n, then n bytes of magnitude, least significant first.
 *
 *   "PBENUMCK"                         8 bytes magic
 *   u32 version                        PB_CKPT_VERSION
 *   u32 rules goal width length setback dead_end nsegments kw
 *   u64 root[kw]                       the packed root position
 *   u32 depth                          d: the frontier below is F(d)
 *   rows 0 .. d, each:
 *     u32 depth, u32 classes_known
 *     u64 positions classes_lr classes_full
 *     big sequences, big outcome[PB_OUT_COUNT]
 *   u64 n                              entries of F(d)
 *   n x { u64 key[kw], big count }
 *   u64 checksum                       FNV-1a 64 of every byte before it
 *
 * The file is written to "<path>.tmp", flushed, synced and renamed over
 * <path>, so <path> is always either the previous or the new checkpoint.
 */
#include "checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char MAGIC[8] = {'P', 'B', 'E', 'N', 'U', 'M', 'C', 'K'};

typedef struct io {
    FILE *fp;
    uint64_t sum;   /* FNV-1a 64 */
    int bad;        /* short read or write */
} io;

static void sum_bytes(io *s, const unsigned char *b, size_t n) {
    uint64_t h = s->sum;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    s->sum = h;
}

static void put(io *s, const void *b, size_t n) {
    sum_bytes(s, b, n);
    if (fwrite(b, 1, n, s->fp) != n) s->bad = 1;
}

static void put_u(io *s, uint64_t v, int bytes) {
    unsigned char b[8];
    for (int i = 0; i < bytes; i++) b[i] = (unsigned char)(v >> (8 * i));
    put(s, b, (size_t)bytes);
}

static void put_big(io *s, mpz_srcptr z) {
    size_t n = (mpz_sizeinbase(z, 2) + 7) / 8;
    if (mpz_sgn(z) == 0) n = 0;
    unsigned char stack[64], *b = n <= sizeof stack ? stack : malloc(n);
    size_t got = 0;
    if (n) mpz_export(b, &got, -1, 1, 0, 0, z);
    put_u(s, got, 4);
    put(s, b, got);
    if (b != stack) free(b);
}

static void put_count(io *s, pb_fcount c) {
    if (c.big) {
        put_big(s, c.big);
        return;
    }
    int n = 0;
    while (n < 8 && (c.small >> (8 * n))) n++;
    put_u(s, (uint64_t)n, 4);
    put_u(s, c.small, n);
}

static void get(io *s, void *b, size_t n) {
    if (s->bad || fread(b, 1, n, s->fp) != n) {
        s->bad = 1;
        memset(b, 0, n);
        return;
    }
    sum_bytes(s, b, n);
}

static uint64_t get_u(io *s, int bytes) {
    unsigned char b[8];
    get(s, b, (size_t)bytes);
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)b[i] << (8 * i);
    return v;
}

/* Reads a big integer into z; refuses absurd lengths (a damaged file). */
static void get_big(io *s, mpz_t z) {
    uint64_t n = get_u(s, 4);
    if (s->bad || n > (1u << 20)) {
        s->bad = 1;
        mpz_set_ui(z, 0);
        return;
    }
    unsigned char stack[64], *b = n <= sizeof stack ? stack : malloc(n);
    get(s, b, n);
    mpz_import(z, n, -1, 1, 0, 0, b);
    if (b != stack) free(b);
}

static void spec_words(const pb_field *f, uint32_t w[8]) {
    const pb_field_spec *sp = &f->spec;
    uint32_t v[8] = {(uint32_t)sp->rules, (uint32_t)sp->goal,    (uint32_t)sp->width,      (uint32_t)sp->length,
                     (uint32_t)sp->setback, (uint32_t)sp->dead_end, (uint32_t)f->nsegments, (uint32_t)f->nwords + 1};
    memcpy(w, v, sizeof v);
}

int pb_ckpt_write(const char *path, const pb_field *f, const uint64_t *root_key, int depth,
                  const pb_enum_row *rows, const pb_frontier *fr, char *err, size_t errlen) {
    int kw = f->nwords + 1;
    size_t plen = strlen(path) + 8;
    char *tmp = malloc(plen);
    snprintf(tmp, plen, "%s.tmp", path);
    io s = {fopen(tmp, "wb"), 0xcbf29ce484222325ULL, 0};
    if (!s.fp) {
        snprintf(err, errlen, "cannot write the checkpoint %s: %s", tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    setvbuf(s.fp, NULL, _IOFBF, 1 << 20);
    put(&s, MAGIC, sizeof MAGIC);
    put_u(&s, PB_CKPT_VERSION, 4);
    uint32_t w[8];
    spec_words(f, w);
    for (int i = 0; i < 8; i++) put_u(&s, w[i], 4);
    for (int i = 0; i < kw; i++) put_u(&s, root_key[i], 8);
    put_u(&s, (uint64_t)depth, 4);
    for (int d = 0; d <= depth; d++) {
        const pb_enum_row *r = &rows[d];
        put_u(&s, (uint64_t)r->depth, 4);
        put_u(&s, (uint64_t)r->classes_known, 4);
        put_u(&s, r->positions, 8);
        put_u(&s, r->classes_lr, 8);
        put_u(&s, r->classes_full, 8);
        put_big(&s, r->sequences);
        for (int k = 0; k < PB_OUT_COUNT; k++) put_big(&s, r->outcome[k]);
    }
    put_u(&s, pb_frontier_size(fr), 8);
    for (int sh = 0; sh < PB_FRONTIER_SHARDS; sh++) {
        const pb_fshard *h = &fr->shard[sh];
        for (size_t i = 0; i < h->cap; i++) {
            if (!pb_frontier_used(fr, h, i)) continue;
            const uint64_t *key = pb_frontier_key(fr, h, i);
            for (int j = 0; j < kw; j++) put_u(&s, key[j], 8);
            put_count(&s, pb_frontier_count(fr, h, i));
        }
    }
    uint64_t sum = s.sum;
    put_u(&s, sum, 8);
    int bad = s.bad || fflush(s.fp) || fsync(fileno(s.fp));
    bad |= fclose(s.fp) != 0;
    if (bad || rename(tmp, path)) {
        snprintf(err, errlen, "cannot write the checkpoint %s: %s", path, strerror(errno ? errno : EIO));
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
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

/* Magic, version, field and root: is this a checkpoint of this game? */
static const char *read_header(io *s, const pb_field *f, const uint64_t *root_key) {
    char magic[8];
    get(s, magic, sizeof magic);
    if (s->bad || memcmp(magic, MAGIC, sizeof magic)) return "not a paperball enumeration checkpoint";
    if (get_u(s, 4) != PB_CKPT_VERSION) return "a checkpoint of another format version";
    uint32_t w[8];
    spec_words(f, w);
    for (int i = 0; i < 8; i++)
        if (get_u(s, 4) != w[i]) return s->bad ? "truncated" : "a checkpoint of another rule set or field";
    for (int i = 0; i < f->nwords + 1; i++)
        if (get_u(s, 8) != root_key[i])
            return s->bad ? "truncated" : "a checkpoint of an enumeration from another position";
    return NULL;
}

/* The depth d and rows 0 .. d. */
static const char *read_rows(io *s, pb_enum_row *rows, int rowcap, uint64_t *depth) {
    *depth = get_u(s, 4);
    if (s->bad || *depth >= (uint64_t)rowcap) return "malformed (bad depth)";
    for (uint64_t d = 0; d <= *depth; d++) {
        pb_enum_row *r = &rows[d];
        if (get_u(s, 4) != d) return "malformed (rows out of order)";
        r->classes_known = (int)get_u(s, 4);
        r->positions = get_u(s, 8);
        r->classes_lr = get_u(s, 8);
        r->classes_full = get_u(s, 8);
        get_big(s, r->sequences);
        mpz_set_ui(r->finished, 0);
        for (int k = 0; k < PB_OUT_COUNT; k++) {
            get_big(s, r->outcome[k]);
            mpz_add(r->finished, r->finished, r->outcome[k]);
        }
    }
    return NULL;
}

/* The n entries of the frontier into fr; *refused is set if the memory
 * budget refused one. */
static const char *read_frontier(io *s, const pb_field *f, uint64_t n, int rank, int nranks, pb_frontier *fr,
                                 int *refused) {
    int kw = f->nwords + 1;
    const char *why = NULL;
    mpz_t big;
    mpz_init(big);
    uint64_t key[PB_MAX_WORDS + 1];
    for (uint64_t e = 0; e < n && !s->bad && !why && !*refused; e++) {
        for (int j = 0; j < kw; j++) key[j] = get_u(s, 8);
        get_big(s, big);
        if (s->bad) break;
        if (!key_ok(f, key) || mpz_sgn(big) <= 0) {
            why = "malformed (bad entry)";
            break;
        }
        if (nranks > 0 && pb_enum_owner(f, key, nranks) != rank) {
            why = "a position of another process (not this number of processes?)";
            break;
        }
        pb_fcount c = {0, big};
        if (mpz_sizeinbase(big, 2) <= 63) {
            c.small = 0;
            mpz_export(&c.small, NULL, -1, sizeof c.small, 0, 0, big);
            if (c.small <= fr->small_max) c.big = NULL;
        }
        int added = pb_frontier_add(fr, key, pb_frontier_hash(key, kw), c);
        if (added < 0) *refused = 1;
        else if (added == 0) why = "malformed (a position twice)";
    }
    mpz_clear(big);
    return why;
}

/* The checksum of every byte before it, and nothing after it. */
static const char *read_trailer(io *s) {
    uint64_t sum = s->sum;
    uint64_t stored = get_u(s, 8);
    if (s->bad) return "truncated";
    if (stored != sum) return "checksum mismatch (damaged)";
    if (fgetc(s->fp) != EOF) return "malformed (bytes after the checksum)";
    return NULL;
}

int pb_ckpt_depth(const char *path, const pb_field *f, const uint64_t *root_key) {
    io s = {fopen(path, "rb"), 0xcbf29ce484222325ULL, 0};
    if (!s.fp) return -1;
    const char *why = read_header(&s, f, root_key);
    uint64_t depth = why ? 0 : get_u(&s, 4);
    fclose(s.fp);
    return why || s.bad || depth > (uint64_t)f->nsegments + 1 ? -1 : (int)depth;
}

void pb_ckpt_rank_path(const char *base, int rank, int nranks, int slot, char *buf, size_t len) {
    snprintf(buf, len, "%s.%d-of-%d.%d", base, rank, nranks, slot);
}

int pb_ckpt_read(const char *path, const pb_field *f, const uint64_t *root_key, int rank, int nranks,
                 pb_enum_row *rows, int rowcap, pb_frontier *fr, char *err, size_t errlen) {
    io s = {fopen(path, "rb"), 0xcbf29ce484222325ULL, 0};
    if (!s.fp) {
        snprintf(err, errlen, "cannot read the checkpoint %s: %s", path, strerror(errno));
        return -1;
    }
    setvbuf(s.fp, NULL, _IOFBF, 1 << 20);
    uint64_t depth = 0;
    int refused = 0;
    const char *why = read_header(&s, f, root_key);
    if (!why) why = read_rows(&s, rows, rowcap, &depth);
    if (!why) {
        uint64_t n = get_u(&s, 8);
        /* A share of a distributed run is checked against the whole
         * when all are read (enumerate.c). */
        if (s.bad || (nranks == 0 ? n != rows[depth].positions : n > rows[depth].positions))
            why = "malformed (frontier size)";
        else why = read_frontier(&s, f, n, rank, nranks, fr, &refused);
    }
    if (!why && !refused) why = read_trailer(&s);
    fclose(s.fp);
    if (refused) return -2;
    if (why) {
        snprintf(err, errlen, "bad checkpoint %s: %s", path, why);
        return -1;
    }
    return (int)depth;
}
