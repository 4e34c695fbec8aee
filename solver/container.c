/* container.c - the container file format (container.h): header, checksummed
 * blocks (raw or zstd), trailer with a whole-file checksum; atomic writes. */
#include "container.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

static const char MAGIC[8] = {'P', 'B', 'A', 'L', 'L', 'B', 'O', 'X'};
#define TRAILER_TAG 0xFFFFFFFFu
#define BLOCK_HEAD 32
#define TRAILER_LEN 24

uint64_t pb_checksum(const void *data, size_t n) { return XXH64(data, n, 0); }

void pb_container_meta_init(pb_container_meta *m, const char *kind, const pb_field *f) {
    memset(m, 0, sizeof *m);
    snprintf(m->kind, sizeof m->kind, "%s", kind);
    m->spec = f->spec;
    m->nsegments = f->nsegments;
    snprintf(m->version, sizeof m->version, "%s", PB_PROGRAM_VERSION);
}

size_t pb_le_put(unsigned char *b, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) b[i] = (unsigned char)(v >> (8 * i));
    return (size_t)bytes;
}

uint64_t pb_le_get(const unsigned char *b, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)b[i] << (8 * i);
    return v;
}

void pb_cbuf_put(pb_cbuf *v, const void *p, size_t n) {
    if (v->failed) return;
    if (v->n + n > v->cap) {
        size_t cap = v->cap ? v->cap : 4096;
        while (cap < v->n + n) cap *= 2;
        unsigned char *nb = realloc(v->b, cap);
        if (!nb) {
            v->failed = 1;
            return;
        }
        v->b = nb, v->cap = cap;
    }
    if (n) memcpy(v->b + v->n, p, n);
    v->n += n;
}

void pb_cbuf_u(pb_cbuf *v, uint64_t x, int bytes) {
    unsigned char b[8];
    pb_le_put(b, x, bytes);
    pb_cbuf_put(v, b, (size_t)bytes);
}

uint64_t pb_ccursor_u(pb_ccursor *c, int bytes) {
    if (c->bad || c->end - c->p < bytes) {
        c->bad = 1;
        return 0;
    }
    uint64_t v = pb_le_get(c->p, bytes);
    c->p += bytes;
    return v;
}

/* The header bytes of m (without its checksum) into b; returns the length. */
static size_t header_bytes(const pb_container_meta *m, unsigned char *b) {
    size_t n = 0;
    memcpy(b, MAGIC, 8), n += 8;
    n += pb_le_put(b + n, PB_CONTAINER_VERSION, 4);
    memcpy(b + n, m->kind, 4), n += 4;
    const pb_field_spec *s = &m->spec;
    int v[7] = {(int)s->rules, s->goal, s->width, s->length, s->setback, (int)s->dead_end, m->nsegments};
    for (int i = 0; i < 7; i++) n += pb_le_put(b + n, (uint32_t)v[i], 4);
    size_t lo = strlen(m->options), lv = strlen(m->version);
    n += pb_le_put(b + n, lo, 2), memcpy(b + n, m->options, lo), n += lo;
    n += pb_le_put(b + n, lv, 2), memcpy(b + n, m->version, lv), n += lv;
    return n;
}

struct pb_cwriter {
    FILE *fp;
    char *path, *tmp;
    XXH64_state_t *sum;
    uint64_t nblocks;
    int bad;
};

static void w_put(pb_cwriter *w, const void *b, size_t n) {
    if (w->bad) return;
    XXH64_update(w->sum, b, n);
    if (n && fwrite(b, 1, n, w->fp) != n) w->bad = errno ? errno : EIO;
}

static void writer_free(pb_cwriter *w) {
    if (w->fp) fclose(w->fp);
    XXH64_freeState(w->sum);
    free(w->path), free(w->tmp), free(w);
}

int pb_container_replaceable(const char *path) {
    struct stat st;
    return lstat(path, &st) != 0 || S_ISREG(st.st_mode);
}

int pb_dir_writable(const char *path, char *err, size_t errlen) {
    /* The directory: the part before the last '/', or "." (a path "/x" is in "/"). */
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 1;
    char *dir = malloc(n + 2);
    if (!dir) {
        snprintf(err, errlen, "cannot write %s: out of memory", path);
        return -1;
    }
    if (!slash) strcpy(dir, ".");
    else if (n == 0) strcpy(dir, "/");
    else memcpy(dir, path, n), dir[n] = 0;
    struct stat st;
    int rc = 0;
    if (stat(dir, &st) != 0) rc = errno;
    else if (!S_ISDIR(st.st_mode)) rc = ENOTDIR;
    else if (access(dir, W_OK | X_OK) != 0) rc = errno;
    if (rc) snprintf(err, errlen, "cannot write %s: %s", path, strerror(rc));
    free(dir);
    return rc ? -1 : 0;
}

int pb_container_writable(const char *path, char *err, size_t errlen) {
    if (!pb_container_replaceable(path)) {
        snprintf(err, errlen, "cannot write %s: not a regular file (it would be replaced, not written)", path);
        return -1;
    }
    return pb_dir_writable(path, err, errlen);
}

pb_cwriter *pb_container_create(const char *path, const pb_container_meta *m, char *err, size_t errlen) {
    if (!pb_container_replaceable(path)) {
        snprintf(err, errlen, "cannot write %s: not a regular file (it would be replaced, not written)", path);
        return NULL;
    }
    pb_cwriter *w = calloc(1, sizeof *w);
    size_t n = strlen(path);
    w->path = strdup(path);
    w->tmp = malloc(n + 5);
    memcpy(w->tmp, path, n), memcpy(w->tmp + n, ".tmp", 5);
    w->sum = XXH64_createState();
    XXH64_reset(w->sum, 0);
    w->fp = fopen(w->tmp, "wb");
    if (!w->fp) {
        snprintf(err, errlen, "cannot write %s: %s", w->tmp, strerror(errno));
        writer_free(w);
        return NULL;
    }
    unsigned char h[64 + 2 * 300];
    size_t hn = header_bytes(m, h);
    pb_le_put(h + hn, pb_checksum(h, hn), 8);
    w_put(w, h, hn + 8);
    return w;
}

int pb_container_put(pb_cwriter *w, uint32_t tag, const void *data, size_t n, int compress) {
    unsigned char head[BLOCK_HEAD];
    void *packed = NULL;
    size_t stored = n;
    int codec = 0;
    if (compress > 0 && n > 0) {
        size_t cap = ZSTD_compressBound(n);
        packed = malloc(cap);
        size_t got = packed ? ZSTD_compress(packed, cap, data, n, compress) : 0;
        if (packed && !ZSTD_isError(got) && got < n) {
            stored = got;
            codec = 1;
        }
    }
    pb_le_put(head, tag, 4);
    pb_le_put(head + 4, (uint64_t)codec, 4);
    pb_le_put(head + 8, n, 8);
    pb_le_put(head + 16, stored, 8);
    pb_le_put(head + 24, pb_checksum(data, n), 8);
    w_put(w, head, sizeof head);
    w_put(w, codec ? packed : data, stored);
    free(packed);
    w->nblocks++;
    return w->bad ? -1 : 0;
}

void pb_container_abort(pb_cwriter *w) {
    if (!w) return;
    fclose(w->fp);
    w->fp = NULL;
    remove(w->tmp);
    writer_free(w);
}

int pb_container_commit(pb_cwriter *w, char *err, size_t errlen) {
    unsigned char t[TRAILER_LEN];
    pb_le_put(t, TRAILER_TAG, 4);
    pb_le_put(t + 4, 0, 4);
    pb_le_put(t + 8, w->nblocks, 8);
    w_put(w, t, 16);
    uint64_t whole = XXH64_digest(w->sum);
    pb_le_put(t + 16, whole, 8);
    if (!w->bad && fwrite(t + 16, 1, 8, w->fp) != 8) w->bad = errno ? errno : EIO;
    if (!w->bad && (fflush(w->fp) || fsync(fileno(w->fp)))) w->bad = errno ? errno : EIO;
    if (fclose(w->fp) && !w->bad) w->bad = errno ? errno : EIO;
    w->fp = NULL;
    if (!w->bad && !pb_container_replaceable(w->path)) w->bad = EEXIST;
    if (!w->bad && rename(w->tmp, w->path)) w->bad = errno ? errno : EIO;
    if (w->bad) {
        snprintf(err, errlen, "cannot write %s: %s", w->path, strerror(w->bad));
        remove(w->tmp);
        writer_free(w);
        return -1;
    }
    writer_free(w);
    return 0;
}

struct pb_creader {
    FILE *fp;
    pb_container_meta meta;
    long long size, pos; /* file size, offset of the next unread byte */
    int have_block;      /* a block header was read and its content not */
    int codec;
    uint64_t raw, stored, sum;
    char path[256];
};

static int r_get(pb_creader *r, void *b, size_t n) {
    if (n && fread(b, 1, n, r->fp) != n) return -1;
    r->pos += (long long)n;
    return 0;
}

void pb_container_close(pb_creader *r) {
    if (!r) return;
    if (r->fp) fclose(r->fp);
    free(r);
}

static pb_creader *refuse(pb_creader *r, char *err, size_t errlen, const char *fmt, const char *what) {
    char msg[200];
    snprintf(msg, sizeof msg, fmt, what);
    snprintf(err, errlen, "%s: %s", r->path, msg);
    pb_container_close(r);
    return NULL;
}

/* Reads the whole file once: the trailer must be where it belongs and the
 * whole-file checksum must hold. */
static int check_whole(pb_creader *r) {
    if (r->size < TRAILER_LEN) return -1;
    XXH64_state_t *st = XXH64_createState();
    XXH64_reset(st, 0);
    unsigned char buf[1 << 16];
    long long left = r->size - 8;
    if (fseek(r->fp, 0, SEEK_SET)) left = -1;
    while (left > 0) {
        size_t n = left < (long long)sizeof buf ? (size_t)left : sizeof buf;
        if (fread(buf, 1, n, r->fp) != n) break;
        XXH64_update(st, buf, n);
        left -= (long long)n;
    }
    unsigned char tail[TRAILER_LEN];
    int ok = left == 0 && fseek(r->fp, r->size - TRAILER_LEN, SEEK_SET) == 0 &&
             fread(tail, 1, TRAILER_LEN, r->fp) == TRAILER_LEN && pb_le_get(tail, 4) == TRAILER_TAG &&
             pb_le_get(tail + 16, 8) == XXH64_digest(st);
    XXH64_freeState(st);
    return ok && fseek(r->fp, r->pos, SEEK_SET) == 0 ? 0 : -1;
}

pb_creader *pb_container_open(const char *path, const char *kind, const pb_field_spec *expect, int whole, char *err,
                              size_t errlen) {
    pb_creader *r = calloc(1, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->fp = fopen(path, "rb");
    if (!r->fp) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        free(r);
        return NULL;
    }
    if (fseek(r->fp, 0, SEEK_END) == 0) r->size = ftell(r->fp);
    rewind(r->fp);
    unsigned char h[64 + 2 * 300];
    size_t n = 0;
    if (r_get(r, h, 46)) return refuse(r, err, errlen, "%s", "too short to be a Paperball file");
    n = 46;
    if (memcmp(h, MAGIC, 8)) return refuse(r, err, errlen, "%s", "not a Paperball file (bad magic)");
    if (pb_le_get(h + 8, 4) != PB_CONTAINER_VERSION)
        return refuse(r, err, errlen, "%s", "written in another format version");
    pb_container_meta *m = &r->meta;
    memcpy(m->kind, h + 12, 4);
    m->kind[4] = 0;
    int v[7];
    for (int i = 0; i < 7; i++) v[i] = (int)(uint32_t)pb_le_get(h + 16 + 4 * i, 4);
    m->spec.rules = (pb_rules)v[0], m->spec.goal = v[1], m->spec.width = v[2], m->spec.length = v[3];
    m->spec.setback = v[4], m->spec.dead_end = (pb_dead_end)v[5], m->nsegments = v[6];
    size_t lo = (size_t)pb_le_get(h + 44, 2);
    if (lo >= sizeof m->options || r_get(r, h + n, lo + 2)) return refuse(r, err, errlen, "%s", "damaged header");
    memcpy(m->options, h + n, lo), n += lo;
    size_t lv = (size_t)pb_le_get(h + n, 2);
    n += 2;
    if (lv >= sizeof m->version || r_get(r, h + n, lv + 8)) return refuse(r, err, errlen, "%s", "damaged header");
    memcpy(m->version, h + n, lv), n += lv;
    if (pb_le_get(h + n, 8) != pb_checksum(h, n))
        return refuse(r, err, errlen, "%s", "header checksum mismatch (damaged file)");
    if (kind && strcmp(kind, m->kind))
        return refuse(r, err, errlen, "holds '%s', not the kind of file expected", m->kind);
    if (expect) {
        const pb_field_spec *s = expect;
        int same = s->rules == m->spec.rules && s->goal == m->spec.goal && s->width == m->spec.width &&
                   s->length == m->spec.length;
        if (same && s->rules == PB_RULES_HOCKEY)
            same = s->setback == m->spec.setback && s->dead_end == m->spec.dead_end;
        if (!same) return refuse(r, err, errlen, "%s", "written for another rule set or field");
    }
    if (whole && check_whole(r))
        return refuse(r, err, errlen, "%s", "checksum of the whole file fails (damaged or cut short)");
    return r;
}

const pb_container_meta *pb_container_meta_of(const pb_creader *r) { return &r->meta; }

int pb_container_next(pb_creader *r, uint32_t *tag, size_t *len, char *err, size_t errlen) {
    unsigned char head[BLOCK_HEAD];
    if (r->have_block && pb_container_skip(r, err, errlen)) return -1;
    if (r_get(r, head, 16)) {
        snprintf(err, errlen, "%s: cut short (no trailer)", r->path);
        return -1;
    }
    if (pb_le_get(head, 4) == TRAILER_TAG) return 0;
    if (r_get(r, head + 16, 16)) {
        snprintf(err, errlen, "%s: cut short in a block header", r->path);
        return -1;
    }
    r->codec = (int)pb_le_get(head + 4, 4);
    r->raw = pb_le_get(head + 8, 8);
    r->stored = pb_le_get(head + 16, 8);
    r->sum = pb_le_get(head + 24, 8);
    if (r->codec > 1 || r->stored > (uint64_t)(r->size - r->pos) || (r->codec == 0 && r->raw != r->stored) ||
        r->raw > ((uint64_t)1 << 42)) {
        snprintf(err, errlen, "%s: damaged block header", r->path);
        return -1;
    }
    *tag = (uint32_t)pb_le_get(head, 4);
    *len = (size_t)r->raw;
    r->have_block = 1;
    return 1;
}

int pb_container_read(pb_creader *r, void *buf, char *err, size_t errlen) {
    int ok;
    r->have_block = 0;
    if (r->codec == 0) {
        ok = r_get(r, buf, r->raw) == 0;
    } else {
        void *packed = malloc(r->stored ? r->stored : 1);
        ok = packed && r_get(r, packed, r->stored) == 0;
        if (ok) {
            size_t got = ZSTD_decompress(buf, r->raw, packed, r->stored);
            ok = !ZSTD_isError(got) && got == r->raw;
        }
        free(packed);
    }
    if (!ok || pb_checksum(buf, r->raw) != r->sum) {
        snprintf(err, errlen, "%s: a block is damaged (checksum mismatch)", r->path);
        return -1;
    }
    return 0;
}

int pb_container_skip(pb_creader *r, char *err, size_t errlen) {
    r->have_block = 0;
    if (fseek(r->fp, (long)r->stored, SEEK_CUR)) {
        snprintf(err, errlen, "%s: cut short", r->path);
        return -1;
    }
    r->pos += (long long)r->stored;
    return 0;
}
