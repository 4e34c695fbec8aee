/* proven.c - saved proofs (proven.h): the store, its lookup index of
 * mirror images, its checkpoint file, and the thread that saves it at
 * intervals. */
#include "proven.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "container.h"

#define WORK_MAX PB_PROVEN_PINNED
#define BLOCK_ENTRIES ((size_t)1 << 16)

static uint64_t info_make(int lo, int hi, int best, uint64_t work) {
    if (work > WORK_MAX) work = WORK_MAX;
    return (uint64_t)(lo + 1) | (uint64_t)(hi + 1) << 2 | (uint64_t)best << 4 | work << 8;
}
static int info_lo(uint64_t i) { return (int)(i & 3) - 1; }
static int info_hi(uint64_t i) { return (int)((i >> 2) & 3) - 1; }
static int info_best(uint64_t i) { return (int)((i >> 4) & 15); }
static uint64_t info_work(uint64_t i) { return i >> 8; }

/* Two proven records of one position: the tighter bounds, a best step of
 * the exact one (else any), the larger work.  Returns -1 if the bounds
 * contradict each other (a damaged file; never two searches). */
static int info_merge(uint64_t *into, uint64_t add, int fresh) {
    if (fresh) {
        *into = add;
        return 0;
    }
    uint64_t o = *into;
    int lo = info_lo(o) > info_lo(add) ? info_lo(o) : info_lo(add);
    int hi = info_hi(o) < info_hi(add) ? info_hi(o) : info_hi(add);
    if (lo > hi) return -1;
    int best = info_best(o);
    if (best == 8 || (info_lo(add) == info_hi(add) && info_best(add) != 8)) best = info_best(add);
    uint64_t work = info_work(o) > info_work(add) ? info_work(o) : info_work(add);
    *into = info_make(lo, hi, best, work);
    return 0;
}

/* Direction d seen in the mirror image (lr, tb): left-right turns E into
 * W, top-bottom N into S (directions E, NE, N, ... counterclockwise). */
static int dir_mirror(int d, int lr, int tb) {
    if (d >= 8) return d;
    if (lr) d = (12 - d) & 7;
    if (tb) d = (8 - d) & 7;
    return d;
}

/* The image of p the store keeps: least hash, ties by the packed key. */
static int key_less(const pb_field *f, const pb_position *a, const pb_position *b) {
    if (a->hash != b->hash) return a->hash < b->hash;
    uint64_t ka[PB_MAX_WORDS + 1], kb[PB_MAX_WORDS + 1];
    pb_position_pack(f, a, ka);
    pb_position_pack(f, b, kb);
    for (int w = 0; w <= f->nwords; w++)
        if (ka[w] != kb[w]) return ka[w] < kb[w];
    return 0;
}

static int canonical(const pb_field *f, const pb_position *p, pb_position *out) {
    pb_position m;
    int k = 0;
    *out = *p;
    for (int i = 1; i < 4; i++) {
        pb_position_mirror(f, p, &m, i & 1, i >> 1);
        if (key_less(f, &m, out)) *out = m, k = i;
    }
    return k;
}

void pb_proven_init(pb_proven *s, const pb_field *f, const pb_position *root, uint64_t min_work, size_t max_bytes) {
    memset(s, 0, sizeof *s);
    s->f = f;
    pb_position_pack(f, root, s->root);
    s->root_hash = root->hash;
    s->min_work = min_work ? min_work : PB_PROVEN_MIN_WORK;
    s->max_bytes = max_bytes ? max_bytes : PB_PROVEN_MAX_BYTES;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->save_lock, NULL);
    pb_posset_init(&s->all, f);
    pb_posset_init(&s->index, f);
}

void pb_proven_free(pb_proven *s) {
    pb_posset_free(&s->all);
    pb_posset_free(&s->index);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->save_lock);
}

/* The store grew past its cap: keep only the entries of at least 4 times
 * the work (under the lock). */
static void raise_min_work(pb_proven *s) {
    while (pb_posset_bytes(&s->all) > s->max_bytes && s->all.size > 1) {
        __atomic_store_n(&s->min_work, s->min_work * 4, __ATOMIC_RELAXED);
        s->raised++;
        pb_posset kept;
        pb_posset_init(&kept, s->f);
        pb_position p;
        uint64_t info;
        for (size_t i = 0; i < s->all.cap; i++)
            if (pb_posset_get(&s->all, s->f, i, &p, &info) && info_work(info) >= s->min_work)
                *pb_posset_slot(&kept, s->f, &p, NULL) = info;
        if (kept.failed) {
            /* No memory for the smaller copy: the store stays as it is (a
             * save never holds fewer proofs than the one before). */
            pb_posset_free(&kept);
            break;
        }
        pb_posset_free(&s->all);
        s->all = kept;
    }
}

/* Adds a record of the canonical image c (under the lock). */
static int add_canonical(pb_proven *s, const pb_position *c, uint64_t info) {
    int fresh;
    uint64_t *slot = pb_posset_slot(&s->all, s->f, c, &fresh);
    return info_merge(slot, info, fresh);
}

void pb_proven_note(pb_proven *s, const pb_position *p, int lo, int hi, int best, uint64_t work) {
    if (work < __atomic_load_n(&s->min_work, __ATOMIC_RELAXED) || (lo == -1 && hi == 1)) return;
    pb_position c;
    int k = canonical(s->f, p, &c);
    uint64_t info = info_make(lo, hi, dir_mirror(best, k & 1, k >> 1), work);
    pthread_mutex_lock(&s->lock);
    if (work >= s->min_work) {
        int rc = add_canonical(s, &c, info);
        (void)rc; /* two proofs of one position never contradict */
        s->noted++;
        if (pb_posset_bytes(&s->all) > s->max_bytes) raise_min_work(s);
    }
    pthread_mutex_unlock(&s->lock);
}

size_t pb_proven_size(pb_proven *s) {
    pthread_mutex_lock(&s->lock);
    size_t n = s->all.size;
    pthread_mutex_unlock(&s->lock);
    return n;
}

void pb_proven_publish(pb_proven *s) {
    pthread_mutex_lock(&s->lock);
    pb_posset_free(&s->index);
    pb_posset_init(&s->index, s->f);
    pb_position p, m;
    uint64_t info;
    for (size_t i = 0; i < s->all.cap; i++) {
        if (!pb_posset_get(&s->all, s->f, i, &p, &info)) continue;
        for (int k = 0; k < 4; k++) {
            if (k) pb_position_mirror(s->f, &p, &m, k & 1, k >> 1);
            else m = p;
            int fresh;
            uint64_t *slot = pb_posset_slot(&s->index, s->f, &m, &fresh);
            uint64_t img =
                info_make(info_lo(info), info_hi(info), dir_mirror(info_best(info), k & 1, k >> 1), info_work(info));
            info_merge(slot, img, fresh);
        }
    }
    s->npublished = s->all.size;
    pthread_mutex_unlock(&s->lock);
}

int pb_proven_probe(const pb_proven *s, const uint64_t *seg, int ball, int to_move, uint64_t hash, int *lo, int *hi,
                    int *best) {
    const int nw = s->f->nwords;
    uint64_t key[PB_MAX_WORDS + 1];
    memcpy(key, seg, sizeof(uint64_t) * (size_t)nw);
    key[nw] = (uint64_t)(uint16_t)ball | (uint64_t)to_move << 16;
    const uint64_t *info = pb_posset_find(&s->index, key, hash);
    if (!info) return 0;
    *lo = info_lo(*info), *hi = info_hi(*info);
    if (best) *best = info_best(*info);
    return 1;
}

/* ---- the file ---- */

static void put_words(unsigned char *b, const uint64_t *w, int n) {
    for (int i = 0; i < n; i++) pb_le_put(b + 8 * (size_t)i, w[i], 8);
}

int pb_proven_save(pb_proven *s, const char *path, const char *note, char *err, size_t errlen) {
    const pb_field *f = s->f;
    const int kw = f->nwords + 1;
    const size_t ebytes = 8 * (size_t)(kw + 1);
    pthread_mutex_lock(&s->save_lock);
    /* The snapshot, taken under the lock, written outside it. */
    pthread_mutex_lock(&s->lock);
    size_t n = s->all.size;
    uint64_t min_work = s->min_work;
    unsigned char *buf = malloc(n ? n * ebytes : 1);
    if (buf) {
        size_t j = 0;
        for (size_t i = 0; i < s->all.cap; i++) {
            if (!s->all.hashes[i]) continue;
            unsigned char *e = buf + j++ * ebytes;
            put_words(e, s->all.keys + i * (size_t)kw, kw);
            pb_le_put(e + 8 * (size_t)kw, s->all.counts[i], 8);
        }
    }
    pthread_mutex_unlock(&s->lock);
    int rc = -1;
    if (!buf) {
        snprintf(err, errlen, "cannot write %s: out of memory for the snapshot", path);
        goto out;
    }
    pb_container_meta m;
    pb_container_meta_init(&m, PB_PROVEN_KIND, f);
    snprintf(m.options, sizeof m.options, "min-work=%llu entries=%zu root-hash=%016llx%s%s",
             (unsigned long long)min_work, n, (unsigned long long)s->root_hash, note ? " " : "", note ? note : "");
    pb_cwriter *w = pb_container_create(path, &m, err, errlen);
    if (!w) goto out;
    unsigned char root[8 * (PB_MAX_WORDS + 1)];
    put_words(root, s->root, kw);
    pb_container_put(w, PB_PROVEN_TAG_ROOT, root, 8 * (size_t)kw, 0);
    for (size_t i = 0; i < n; i += BLOCK_ENTRIES) {
        size_t k = n - i < BLOCK_ENTRIES ? n - i : BLOCK_ENTRIES;
        pb_container_put(w, PB_PROVEN_TAG_ENTRIES, buf + i * ebytes, k * ebytes, 3);
    }
    rc = pb_container_commit(w, err, errlen);
out:
    free(buf);
    pthread_mutex_unlock(&s->save_lock);
    return rc;
}

/* A key read from a file names a position of this field: segments that
 * exist, a ball on a node, a player, nothing else. */
static int key_valid(const pb_field *f, const uint64_t *key) {
    for (int w = 0; w < f->nwords; w++) {
        int bits = f->nsegments - 64 * w;
        if (bits <= 0 ? key[w] != 0 : bits < 64 && key[w] >> bits) return 0;
    }
    uint64_t bt = key[f->nwords];
    int ball = (int)(bt & 0xffff), to_move = (int)((bt >> 16) & 0xffff);
    return (bt >> 32) == 0 && ball < f->nlattice && pb_is_node(f, ball) && to_move <= 1;
}

static int info_valid(uint64_t i) {
    return (i & 3) <= 2 && ((i >> 2) & 3) <= 2 && info_lo(i) <= info_hi(i) && info_best(i) <= 8;
}

/* A root block of kw words: it must name this store's root position. */
static int check_root(const pb_proven *s, const unsigned char *buf, int kw, const char *path, char *err,
                      size_t errlen) {
    for (int w = 0; w < kw; w++)
        if (pb_le_get(buf + 8 * (size_t)w, 8) != s->root[w]) {
            snprintf(err, errlen, "%s: written for another position (the game record differs)", path);
            return -1;
        }
    return 0;
}

/* The entries of one block (len bytes of ebytes each: the key's kw words
 * and the info) into got, merged per canonical position: 0, or -1 with
 * the message. */
static int read_entries(const pb_field *f, pb_posset *got, const unsigned char *buf, size_t len, const char *path,
                        char *err, size_t errlen) {
    const int kw = f->nwords + 1;
    const size_t ebytes = 8 * (size_t)(kw + 1);
    for (size_t e = 0; e < len / ebytes; e++) {
        uint64_t key[PB_MAX_WORDS + 1];
        for (int w = 0; w < kw; w++) key[w] = pb_le_get(buf + e * ebytes + 8 * (size_t)w, 8);
        uint64_t info = pb_le_get(buf + e * ebytes + 8 * (size_t)kw, 8);
        if (!key_valid(f, key) || !info_valid(info)) {
            snprintf(err, errlen, "%s: damaged (an entry names no position of this field)", path);
            return -1;
        }
        pb_position p, c;
        pb_position_unpack(f, key, &p);
        canonical(f, &p, &c);
        int fresh;
        uint64_t *slot = pb_posset_slot(got, f, &c, &fresh);
        if (info_merge(slot, info, fresh)) {
            snprintf(err, errlen, "%s: damaged (two entries of one position contradict each other)", path);
            return -1;
        }
    }
    return 0;
}

/* Every block of the file: the root first, then the entries, into got:
 * 0, or -1 with the message. */
static int read_blocks(const pb_proven *s, pb_creader *r, pb_posset *got, int any_root, const char *path, char *err,
                       size_t errlen) {
    const int kw = s->f->nwords + 1;
    const size_t ebytes = 8 * (size_t)(kw + 1);
    unsigned char *buf = NULL;
    int rc = 0, nroot = 0, more;
    uint32_t tag;
    size_t len;
    while (rc == 0 && (more = pb_container_next(r, &tag, &len, err, errlen)) != 0) {
        if (more < 0) {
            rc = -1;
            break;
        }
        int is_root = tag == PB_PROVEN_TAG_ROOT;
        if ((!is_root && tag != PB_PROVEN_TAG_ENTRIES) || (is_root && (nroot || len != 8 * (size_t)kw)) ||
            (!is_root && (!nroot || len % ebytes)) || len > BLOCK_ENTRIES * ebytes) {
            snprintf(err, errlen, "%s: damaged (unexpected block)", path);
            rc = -1;
            break;
        }
        free(buf);
        buf = malloc(len ? len : 1);
        if (!buf) {
            snprintf(err, errlen, "%s: out of memory while reading", path);
            rc = -1;
        } else if (pb_container_read(r, buf, err, errlen)) rc = -1;
        else if (is_root) rc = any_root ? 0 : check_root(s, buf, kw, path, err, errlen), nroot = 1;
        else rc = read_entries(s->f, got, buf, len, path, err, errlen);
    }
    free(buf);
    if (rc == 0 && !nroot) {
        snprintf(err, errlen, "%s: damaged (no root position)", path);
        rc = -1;
    }
    return rc;
}

/* The positions read into the store (kept whatever their work: they are
 * what the file was saved for): 0, or -1 with the message when one
 * contradicts what the store holds. */
static int merge_loaded(pb_proven *s, const pb_posset *got, const char *path, char *err, size_t errlen) {
    int rc = 0;
    pthread_mutex_lock(&s->lock);
    pb_position p;
    uint64_t info;
    for (size_t i = 0; i < got->cap && rc == 0; i++)
        if (pb_posset_get(got, s->f, i, &p, &info) && add_canonical(s, &p, info)) rc = -1;
    pthread_mutex_unlock(&s->lock);
    if (rc) snprintf(err, errlen, "%s: contradicts the proofs this run already holds", path);
    else pb_proven_publish(s);
    return rc;
}

/* pb_proven_load and pb_proven_import: the root checked or not. */
static int load(pb_proven *s, const char *path, int any_root, size_t *nread, char *err, size_t errlen) {
    const pb_field *f = s->f;
    pb_creader *r = pb_container_open(path, PB_PROVEN_KIND, &f->spec, 1, err, errlen);
    if (!r) return -1;
    if (pb_container_meta_of(r)->nsegments != f->nsegments) {
        snprintf(err, errlen, "%s: written for another field", path);
        pb_container_close(r);
        return -1;
    }
    pb_posset got;
    pb_posset_init(&got, f);
    int rc = read_blocks(s, r, &got, any_root, path, err, errlen);
    if (nread) *nread = got.size;
    if (rc == 0) rc = merge_loaded(s, &got, path, err, errlen);
    pb_posset_free(&got);
    pb_container_close(r);
    return rc;
}

int pb_proven_load(pb_proven *s, const char *path, char *err, size_t errlen) {
    return load(s, path, 0, NULL, err, errlen);
}

int pb_proven_import(pb_proven *s, const char *path, size_t *nread, char *err, size_t errlen) {
    return load(s, path, 1, nread, err, errlen);
}

/* ---- saving at intervals ---- */

struct pb_proven_saver {
    pb_proven *s;
    char *path, *note;
    double every;
    FILE *log;
    pthread_t thread;
    pthread_mutex_t m;
    pthread_cond_t wake;
    int stop, failures;
    char err[512];
};

static void *saver_main(void *arg) {
    pb_proven_saver *v = arg;
    pthread_mutex_lock(&v->m);
    while (!v->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        double t = (double)until.tv_sec + until.tv_nsec / 1e9 + v->every;
        until.tv_sec = (time_t)t;
        until.tv_nsec = (long)((t - (double)until.tv_sec) * 1e9);
        int rc = 0;
        while (!v->stop && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&v->wake, &v->m, &until);
        if (v->stop) break;
        pthread_mutex_unlock(&v->m);
        char err[512];
        int bad = pb_proven_save(v->s, v->path, v->note, err, sizeof err);
        size_t n = pb_proven_size(v->s);
        pthread_mutex_lock(&v->m);
        if (bad) {
            v->failures++;
            snprintf(v->err, sizeof v->err, "%s", err);
            if (v->log) fprintf(v->log, "checkpoint not saved: %s\n", err);
        } else if (v->log) {
            fprintf(v->log, "checkpoint saved: %zu proven positions in %s\n", n, v->path);
        }
        if (v->log) fflush(v->log);
    }
    pthread_mutex_unlock(&v->m);
    return NULL;
}

pb_proven_saver *pb_proven_saver_start(pb_proven *s, const char *path, const char *note, double every, FILE *log) {
    pb_proven_saver *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->s = s;
    v->path = strdup(path);
    v->note = note ? strdup(note) : NULL;
    v->every = every > 0 ? every : 60;
    v->log = log;
    pthread_mutex_init(&v->m, NULL);
    pthread_cond_init(&v->wake, NULL);
    if (!v->path || pthread_create(&v->thread, NULL, saver_main, v)) {
        pthread_mutex_destroy(&v->m);
        pthread_cond_destroy(&v->wake);
        free(v->path), free(v->note), free(v);
        return NULL;
    }
    return v;
}

int pb_proven_saver_stop(pb_proven_saver *v, char *err, size_t errlen) {
    if (!v) return 0;
    pthread_mutex_lock(&v->m);
    v->stop = 1;
    pthread_cond_signal(&v->wake);
    pthread_mutex_unlock(&v->m);
    pthread_join(v->thread, NULL);
    int n = v->failures;
    if (n && err) snprintf(err, errlen, "%s", v->err);
    pthread_mutex_destroy(&v->m);
    pthread_cond_destroy(&v->wake);
    free(v->path), free(v->note), free(v);
    return n;
}
