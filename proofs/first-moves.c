/* first-moves.c - the claim first-moves (argument: first-moves.md): the
 * routes of the first turn and their classes under the mirrors. */
#include "frame.h"

#include <stdlib.h>
#include <string.h>

/* Every route of the first turn (as many as there are: (2;4;2) has 136,
 * some of them long), with the position after it. */
typedef struct first_ctx {
    int n, cap;
    int16_t **nodes;
    int *len;
    pb_position *after;
    int failed; /* out of memory: the listing is not whole */
} first_ctx;

static int first_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    first_ctx *x = c;
    (void)f;
    if (x->n == x->cap) {
        int cap = x->cap ? 2 * x->cap : 64;
        int16_t **nodes = realloc(x->nodes, sizeof *nodes * (size_t)cap);
        if (nodes) x->nodes = nodes;
        int *len = realloc(x->len, sizeof *len * (size_t)cap);
        if (len) x->len = len;
        pb_position *aft = realloc(x->after, sizeof *aft * (size_t)cap);
        if (aft) x->after = aft;
        if (!nodes || !len || !aft) return x->failed = 1;
        x->cap = cap;
    }
    x->nodes[x->n] = malloc(sizeof(int16_t) * (size_t)r->len);
    if (!x->nodes[x->n]) return x->failed = 1;
    memcpy(x->nodes[x->n], r->nodes, sizeof(int16_t) * (size_t)r->len);
    x->len[x->n] = r->len;
    x->after[x->n] = *after;
    x->n++;
    return 0;
}

static void first_free(first_ctx *x) {
    for (int i = 0; i < x->n; i++) free(x->nodes[i]);
    free(x->nodes);
    free(x->len);
    free(x->after);
    free(x);
}

/* Same drawn segments and ball (the player to move ignored). */
static int same_drawing(const pb_field *f, const pb_position *a, const pb_position *b) {
    return a->ball == b->ball && memcmp(a->seg, b->seg, sizeof(uint64_t) * (size_t)f->nwords) == 0;
}

/* Classes of the first routes: under the left-right mirror of routes, of
 * positions under the full group (players swapped by top-bottom), and of
 * drawings with the players' colours ignored. */
static void first_classes(const pb_field *f, first_ctx *x, int *lr, int *full, int *colourless) {
    int cls_lr = 0, cls_full = 0, cls_cl = 0;
    for (int i = 0; i < x->n; i++) {
        int seen_lr = 0, seen_full = 0, seen_cl = 0;
        pb_position img[4];
        for (int t = 0; t < 4; t++) pb_position_mirror(f, &x->after[i], &img[t], t & 1, t >> 1);
        for (int j = 0; j < i; j++) {
            /* route j is the left-right image of route i, node by node */
            if (x->len[j] == x->len[i]) {
                int same = 1;
                for (int k = 0; k < x->len[i]; k++)
                    if (x->nodes[j][k] != f->mirror_lr[x->nodes[i][k]]) same = 0;
                if (same) seen_lr = 1;
            }
            for (int t = 0; t < 4; t++) {
                if (pb_position_equal(f, &img[t], &x->after[j])) seen_full = 1;
                if (same_drawing(f, &img[t], &x->after[j])) seen_cl = 1;
            }
        }
        cls_lr += !seen_lr, cls_full += !seen_full, cls_cl += !seen_cl;
    }
    *lr = cls_lr, *full = cls_full, *colourless = cls_cl;
}

/* What the walk over the fields gathers. */
typedef struct first_tally {
    int expect;                 /* classes claimed */
    int single;                 /* one field only (given, or a start given) */
    int nf, nclaim, bad;        /* fields listed, covered by the claim, disagreeing */
    char small[PB_PROOFS_NOTE]; /* the narrow and short fields, in words */
} first_tally;

/* The first routes of one field and their classes, x filled (the caller
 * frees it); gm gets the walk's start.  PB_CHECK_HOLDS, or
 * PB_CHECK_BAD_FIELD when the listing ran out of memory. */
static pb_check_outcome first_list(const pb_proofs_opts *o, const pb_field *f, pb_game *gm, first_ctx *x, int cls[3]) {
    pb_position start;
    int d0;
    pb_claim_walk_start(o, f, gm, &start, &d0);
    pb_routes_foreach(f, &start, first_route, x);
    if (x->failed) return PB_CHECK_BAD_FIELD;
    first_classes(f, x, &cls[0], &cls[1], &cls[2]);
    return PB_CHECK_HOLDS;
}

/* What one field adds: the row of the book's field, the note on narrow
 * fields, and the first field that disagrees as the counterexample. */
static void first_judge(const pb_proofs_opts *o, const pb_field_spec *s, const pb_game *gm, const first_ctx *x,
                        const int cls[3], first_tally *t, pb_proofs_result *res) {
    t->nf++;
    char d[40];
    pb_claim_field_desc(s, d, sizeof d);
    /* The claim covers fields whose centre has 8 empty neighbours. */
    int covered = s->width >= 4 && s->length >= 4;
    t->nclaim += covered;
    if (s->goal == 2 && s->width == 6 && s->length == 8 && !t->single) {
        pb_proofs_field *pf = pb_claim_add_field(res, s);
        pf->complete = 1, pf->routes = (uint64_t)x->n;
        pb_claim_setf(pf->note, sizeof pf->note,
                      "the book's field: %d routes; %d classes under the left-right mirror; %d under the full "
                      "group (top-bottom swaps the players); %d if the players' colours are ignored",
                      x->n, cls[0], cls[1], cls[2]);
    }
    if (!covered && (s->goal == 2 || t->single) && strlen(t->small) < sizeof t->small - 60)
        pb_claim_notef(t->small, sizeof t->small, "%s%s %d routes/%d classes", t->small[0] ? ", " : "", d, x->n,
                       cls[0]);
    if ((covered || t->single) && (x->n != 8 || cls[0] != t->expect)) {
        if (!t->bad)
            pb_claim_set_cx(res, gm, !o->start || o->start_game,
                            "%s: %d first routes in %d left-right classes, not 8 in %d", d, x->n, cls[0], t->expect);
        t->bad++;
    }
}

/* One field: its first routes listed, classed and judged. */
static pb_check_outcome first_field(const pb_proofs_opts *o, const pb_field_spec *s, first_tally *t,
                                    pb_proofs_result *res) {
    pb_field *f = pb_claim_make_field(s, res);
    if (!f) return PB_CHECK_BAD_FIELD;
    first_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        pb_field_free(f);
        return PB_CHECK_BAD_FIELD;
    }
    pb_game gm;
    int cls[3];
    pb_check_outcome rc = first_list(o, f, &gm, x, cls);
    if (rc == PB_CHECK_HOLDS) first_judge(o, s, &gm, x, cls, t, res);
    first_free(x);
    pb_game_free(&gm);
    pb_field_free(f);
    return rc;
}

/* The rows of the summary over the fields, the verdict and the summary. */
static pb_check_outcome first_summary(const first_tally *t, int maxd, pb_proofs_result *res) {
    pb_field_spec all = pb_claim_book_spec(2, maxd, maxd);
    pb_proofs_field *pf = pb_claim_add_field(res, &all);
    pf->complete = 1;
    pf->positions = (uint64_t)t->nf;
    pb_claim_setf(pf->note, sizeof pf->note,
                  "%d fields (W, L <= %d), %d with W, L >= 4 covered by the claim; %d disagree", t->nf, maxd, t->nclaim,
                  t->bad);
    if (t->small[0]) {
        pb_proofs_field *ps = pb_claim_add_field(res, &all);
        ps->complete = 1;
        pb_claim_setf(ps->note, sizeof ps->note, "narrow or short fields (outside the claim, G = 2): %s", t->small);
    }
    if (t->bad) {
        pb_claim_setf(res->summary, sizeof res->summary, "fails: %s", res->cx_what);
        return PB_CHECK_FAILS;
    }
    pb_claim_setf(res->summary, sizeof res->summary,
                  "On every box field with W, L >= 4 (all %d of them up to %dx%d) the first turn has exactly 8 routes, "
                  "one step each to the empty neighbours of the centre, in %d classes under the left-right mirror "
                  "(E=W, NE=NW, SE=SW, N, S).  The top-bottom mirror swaps the players, so it joins no two first "
                  "moves of the same player: the full group also gives %d; only with the colours ignored do N=S and "
                  "NE=SE fold, leaving 3.",
                  t->nclaim, maxd, maxd, t->expect, t->expect);
    return PB_CHECK_HOLDS;
}

pb_check_outcome pb_claim_first_moves(const pb_proofs_opts *o, pb_proofs_result *res) {
    first_tally t;
    memset(&t, 0, sizeof t);
    t.expect = o->expect_classes > 0 ? o->expect_classes : 5;
    t.single = o->start || o->start_game || o->fields;
    int maxd = o->max_dim > 0 ? o->max_dim : 20;
    if (t.single) {
        /* The field given, or the book's for a start given. */
        pb_field_spec one = o->fields ? o->fields[0] : pb_claim_book_spec(2, 6, 8);
        if (first_field(o, &one, &t, res) != PB_CHECK_HOLDS) return PB_CHECK_BAD_FIELD;
    } else {
        for (int w = 2; w <= maxd; w += 2)
            for (int l = 2; l <= maxd; l += 2)
                for (int g = 2; g <= w; g += 2) {
                    pb_field_spec s = pb_claim_book_spec(g, w, l);
                    if (first_field(o, &s, &t, res) != PB_CHECK_HOLDS) return PB_CHECK_BAD_FIELD;
                }
    }
    return first_summary(&t, maxd, res);
}
