/* saved.c - the checkpoint of a run of claims (proofs.h: pb_proofs_save,
 * pb_proofs_load), a container of kind PB_PROOFS_KIND (solver/container.h:
 * checksummed blocks, written to a temporary file and renamed, the header
 * naming the rules, the field and the program version).
 *
 * Every integer is little-endian; "str" is  u32 n, n bytes  and "opt" is
 * u32 n+1, n bytes  (0 for none).
 *
 *   options text   what the run checks ("claims=... field=... depth=..."):
 *                  a run resumes only a checkpoint of its own
 *   blocks CLAM    one per finished claim, in the run's order: a result
 *   block PART     at most one, the claim under way: a result (the rows of
 *                  the fields done), then str state (the claim's carried
 *                  bytes)
 *
 *   result         str claim, u32 verdict, u32 nfields, the fields,
 *                  str summary, u32 has_cx, spec cx_spec, u32 cx_from_start,
 *                  u32 cx_turns, str cx_what, opt cx_record, opt cx_svg
 *   field          spec, u32 complete depth, u64 positions routes finished
 *                  games, u32 stepwalk, u64 states steps fsteps step_games,
 *                  u32 step_levels turnwalk xcheck games_overflow,
 *                  u64 seconds (the bits of the double), u32 failed, str note
 *   spec           u32 rules goal width length setback dead_end
 *
 * A result read back prints exactly as it did when it was saved (its
 * seconds included).  The whole file is checked before anything is used.
 */
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "proofs.h"

#define TAG_CLAM 0x4d414c43u /* "CLAM" */
#define TAG_PART 0x54524150u /* "PART" */
#define TEXT_MAX ((size_t)64 << 20)

static void put_str(pb_cbuf *v, const char *s) {
    size_t n = strlen(s);
    pb_cbuf_u(v, n, 4);
    pb_cbuf_put(v, s, n);
}

static void put_opt(pb_cbuf *v, const char *s) {
    if (!s) pb_cbuf_u(v, 0, 4);
    else {
        size_t n = strlen(s);
        pb_cbuf_u(v, n + 1, 4);
        pb_cbuf_put(v, s, n);
    }
}

static void put_spec(pb_cbuf *v, const pb_field_spec *s) {
    int x[6] = {(int)s->rules, s->goal, s->width, s->length, s->setback, (int)s->dead_end};
    for (int i = 0; i < 6; i++) pb_cbuf_u(v, (uint32_t)x[i], 4);
}

static void put_field(pb_cbuf *v, const pb_proofs_field *pf) {
    put_spec(v, &pf->spec);
    pb_cbuf_u(v, (uint32_t)pf->complete, 4), pb_cbuf_u(v, (uint32_t)pf->depth, 4);
    uint64_t big[] = {pf->positions, pf->routes, pf->finished, pf->games};
    for (int i = 0; i < 4; i++) pb_cbuf_u(v, big[i], 8);
    pb_cbuf_u(v, (uint32_t)pf->stepwalk, 4);
    uint64_t step[] = {pf->states, pf->steps, pf->fsteps, pf->step_games};
    for (int i = 0; i < 4; i++) pb_cbuf_u(v, step[i], 8);
    int small[] = {pf->step_levels, pf->turnwalk, pf->xcheck, pf->games_overflow};
    for (int i = 0; i < 4; i++) pb_cbuf_u(v, (uint32_t)small[i], 4);
    uint64_t bits;
    memcpy(&bits, &pf->seconds, sizeof bits);
    pb_cbuf_u(v, bits, 8);
    pb_cbuf_u(v, (uint32_t)pf->failed, 4);
    put_str(v, pf->note);
}

static void put_result(pb_cbuf *v, const pb_proofs_result *res) {
    put_str(v, res->claim);
    pb_cbuf_u(v, (uint32_t)res->verdict, 4);
    pb_cbuf_u(v, (uint32_t)res->nfields, 4);
    for (int k = 0; k < res->nfields; k++) put_field(v, &res->fields[k]);
    put_str(v, res->summary);
    pb_cbuf_u(v, (uint32_t)res->has_cx, 4);
    put_spec(v, &res->cx_spec);
    pb_cbuf_u(v, (uint32_t)res->cx_from_start, 4), pb_cbuf_u(v, (uint32_t)res->cx_turns, 4);
    put_str(v, res->cx_what);
    put_opt(v, res->cx_record);
    put_opt(v, res->cx_svg);
}

int pb_proofs_save(const char *path, const pb_field *f, const char *run, const pb_proofs_saved *s, char *err,
                   size_t errlen) {
    pb_container_meta m;
    pb_container_meta_init(&m, PB_PROOFS_KIND, f);
    snprintf(m.options, sizeof m.options, "%s", run);
    pb_cwriter *w = pb_container_create(path, &m, err, errlen);
    if (!w) return -1;
    pb_cbuf v = {0};
    for (int i = 0; i < s->ndone; i++) {
        v.n = 0;
        put_result(&v, &s->done[i]);
        pb_container_put(w, TAG_CLAM, v.b, v.n, 3);
    }
    if (s->has_part) {
        v.n = 0;
        put_result(&v, &s->part);
        pb_cbuf_u(&v, s->state_len, 4);
        pb_cbuf_put(&v, s->state, s->state_len);
        pb_container_put(w, TAG_PART, v.b, v.n, 3);
    }
    free(v.b);
    if (v.failed) {
        pb_container_abort(w);
        snprintf(err, errlen, "out of memory while writing the checkpoint");
        return -1;
    }
    return pb_container_commit(w, err, errlen);
}

/* A text of at most max-1 bytes into buf (NUL-terminated). */
static void get_str(pb_ccursor *c, char *buf, size_t max) {
    uint64_t n = pb_ccursor_u(c, 4);
    if (c->bad || n >= max || (uint64_t)(c->end - c->p) < n) {
        c->bad = 1, buf[0] = 0;
        return;
    }
    memcpy(buf, c->p, (size_t)n);
    buf[n] = 0;
    c->p += n;
}

/* A malloc'd text, or NULL when none was saved. */
static char *get_opt(pb_ccursor *c) {
    uint64_t n = pb_ccursor_u(c, 4);
    if (c->bad || n == 0) return NULL;
    if (n - 1 > TEXT_MAX || (uint64_t)(c->end - c->p) < n - 1) {
        c->bad = 1;
        return NULL;
    }
    char *s = malloc((size_t)n);
    if (!s) {
        c->bad = 1;
        return NULL;
    }
    memcpy(s, c->p, (size_t)n - 1);
    s[n - 1] = 0;
    c->p += n - 1;
    return s;
}

static int get_int(pb_ccursor *c) { return (int)(uint32_t)pb_ccursor_u(c, 4); }

static void get_spec(pb_ccursor *c, pb_field_spec *s) {
    s->rules = (pb_rules)get_int(c), s->goal = get_int(c), s->width = get_int(c), s->length = get_int(c);
    s->setback = get_int(c), s->dead_end = (pb_dead_end)get_int(c);
}

static void get_field(pb_ccursor *c, pb_proofs_field *pf) {
    memset(pf, 0, sizeof *pf);
    get_spec(c, &pf->spec);
    pf->complete = get_int(c), pf->depth = get_int(c);
    pf->positions = pb_ccursor_u(c, 8), pf->routes = pb_ccursor_u(c, 8);
    pf->finished = pb_ccursor_u(c, 8), pf->games = pb_ccursor_u(c, 8);
    pf->stepwalk = get_int(c);
    pf->states = pb_ccursor_u(c, 8), pf->steps = pb_ccursor_u(c, 8);
    pf->fsteps = pb_ccursor_u(c, 8), pf->step_games = pb_ccursor_u(c, 8);
    pf->step_levels = get_int(c), pf->turnwalk = get_int(c), pf->xcheck = get_int(c);
    pf->games_overflow = get_int(c);
    uint64_t bits = pb_ccursor_u(c, 8);
    memcpy(&pf->seconds, &bits, sizeof bits);
    pf->failed = get_int(c);
    get_str(c, pf->note, sizeof pf->note);
}

/* A result read from c into res (its names from the list of claims).
 * NULL, or what is wrong. */
static const char *get_result(pb_ccursor *c, pb_proofs_result *res) {
    memset(res, 0, sizeof *res);
    char name[64];
    get_str(c, name, sizeof name);
    const pb_proofs_claim *claim = c->bad ? NULL : pb_proofs_find(name);
    if (!claim) return "damaged (a result of no known claim)";
    res->claim = claim->name, res->statement = claim->statement, res->method = claim->method;
    res->verdict = (pb_verdict)get_int(c);
    int n = get_int(c);
    if (c->bad || res->verdict > PB_VERDICT_OPEN || n < 0 || (size_t)n > (size_t)(c->end - c->p))
        return "damaged (a result's head)";
    res->capfields = n;
    res->fields = n ? calloc((size_t)n, sizeof *res->fields) : NULL;
    if (n && !res->fields) return "out of memory while reading";
    for (int k = 0; k < n && !c->bad; k++) get_field(c, &res->fields[res->nfields++]);
    get_str(c, res->summary, sizeof res->summary);
    res->has_cx = get_int(c);
    get_spec(c, &res->cx_spec);
    res->cx_from_start = get_int(c), res->cx_turns = get_int(c);
    get_str(c, res->cx_what, sizeof res->cx_what);
    res->cx_record = get_opt(c);
    res->cx_svg = get_opt(c);
    return c->bad ? "damaged (a result cut short)" : NULL;
}

/* The state after the result of a PART block. */
static const char *get_state(pb_ccursor *c, pb_proofs_saved *s) {
    uint64_t n = pb_ccursor_u(c, 4);
    if (c->bad || n > (uint64_t)(c->end - c->p)) return "damaged (the state of the claim under way)";
    s->state = malloc(n ? (size_t)n : 1);
    if (!s->state) return "out of memory while reading";
    memcpy(s->state, c->p, (size_t)n);
    s->state_len = (size_t)n;
    c->p += n;
    return NULL;
}

/* One block of the file into s.  NULL, or what is wrong. */
static const char *read_block(pb_creader *r, uint32_t tag, size_t len, pb_proofs_saved *s, char *err, size_t errlen) {
    if ((tag != TAG_CLAM && tag != TAG_PART) || s->has_part) return "damaged (unexpected block)";
    unsigned char *buf = len <= TEXT_MAX ? malloc(len ? len : 1) : NULL;
    if (!buf) return "damaged (a block too large)";
    const char *why = pb_container_read(r, buf, err, errlen) ? "damaged (checksum mismatch)" : NULL;
    pb_ccursor c = {buf, buf + len, 0};
    if (!why && tag == TAG_CLAM) {
        pb_proofs_result *done = realloc(s->done, sizeof *done * (size_t)(s->ndone + 1));
        if (!done) why = "out of memory while reading";
        else s->done = done, why = get_result(&c, &s->done[s->ndone++]);
    } else if (!why) {
        s->has_part = 1;
        why = get_result(&c, &s->part);
        if (!why) why = get_state(&c, s);
    }
    if (!why && c.p != c.end) why = "damaged (bytes after a result)";
    free(buf);
    return why;
}

int pb_proofs_load(const char *path, const pb_field *f, const char *run, pb_proofs_saved *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    pb_creader *r = pb_container_open(path, PB_PROOFS_KIND, &f->spec, 1, err, errlen);
    if (!r) return -1;
    const char *was = pb_container_meta_of(r)->options, *why = NULL;
    if (strcmp(was, run)) {
        snprintf(err, errlen, "%s: a checkpoint of another run (%s), not of this one (%s)", path, was, run);
        pb_container_close(r);
        return -1;
    }
    char detail[256] = "";
    for (;;) {
        uint32_t tag;
        size_t len;
        int more = pb_container_next(r, &tag, &len, detail, sizeof detail);
        if (more < 0) why = detail;
        if (more <= 0) break;
        if ((why = read_block(r, tag, len, s, detail, sizeof detail))) break;
    }
    pb_container_close(r);
    if (!why) return 0;
    if (why == detail) snprintf(err, errlen, "%s", detail);
    else snprintf(err, errlen, "%s: %s", path, why);
    pb_proofs_saved_free(s);
    return -1;
}

void pb_proofs_saved_free(pb_proofs_saved *s) {
    for (int i = 0; i < s->ndone; i++) pb_proofs_result_free(&s->done[i]);
    free(s->done);
    if (s->has_part) pb_proofs_result_free(&s->part);
    free(s->state);
    memset(s, 0, sizeof *s);
}
