/* empty-count.c - the claim empty-count (argument: empty-count.md): the
 * field model's count of empty nodes, its flags, a count from the
 * definition and the book's formula agree on every box field, and N is
 * even. */
#include "frame.h"

#include <stdlib.h>
#include <string.h>

static long book_formula(int g, int w, int l) { return 2L * (g - 1) + (long)(w - 1) * (l - 1) - 1; }

long pb_proofs_count_empty(const pb_field_spec *s) {
    /* Straight from docs/rules.md §1: box field cells cx in [0,W), cy in [1,L]; goal
     * cells cx in the goal columns, cy = 0 and L+1.  A node is empty at the
     * start iff all four cells around it are playable and it is not the
     * centre (W/2, L/2+1). */
    int W = s->width, L = s->length, G = s->goal;
    int gx0 = W / 2 - G / 2, gx1 = W / 2 + G / 2;
    long n = 0;
    for (int y = 0; y <= L + 2; y++)
        for (int x = 0; x <= W; x++) {
            int all = 1;
            for (int dx = -1; dx <= 0; dx++)
                for (int dy = -1; dy <= 0; dy++) {
                    int cx = x + dx, cy = y + dy;
                    int field = cx >= 0 && cx < W && cy >= 1 && cy <= L;
                    int goal = cx >= gx0 && cx < gx1 && (cy == 0 || cy == L + 1);
                    if (!field && !goal) all = 0;
                }
            if (all && !(x == W / 2 && y == L / 2 + 1)) n++;
        }
    return n;
}

/* What the fields came to. */
typedef struct empty_tally {
    long (*formula)(int, int, int);
    int nf, bad, n20; /* fields built, disagreeing (or not built), within 20x20 */
    pb_field_spec first_bad;
    char why[200]; /* what the first disagreeing field shows */
} empty_tally;

/* The fields: those asked for, else every even G <= W <= maxd, L <= maxd
 * (malloc'd, *n of them). */
static pb_field_spec *empty_fields(const pb_proofs_opts *o, int maxd, int *n) {
    int nspec = 0, cap = o->fields ? o->nfields : (maxd / 2) * (maxd / 2) * (maxd / 2);
    pb_field_spec *specs = malloc(sizeof *specs * (size_t)(cap > 0 ? cap : 1));
    if (o->fields) memcpy(specs, o->fields, sizeof *specs * (size_t)o->nfields), nspec = o->nfields;
    else
        for (int w = 2; w <= maxd; w += 2)
            for (int l = 2; l <= maxd; l += 2)
                for (int g = 2; g <= w; g += 2) specs[nspec++] = pb_claim_book_spec(g, w, l);
    *n = nspec;
    return specs;
}

/* One field: the model's count, its flags, the definition and the formula
 * compared, N even. */
static void empty_field(const pb_field_spec *s, empty_tally *t) {
    char err[200];
    pb_field *f = pb_field_new(s, err, sizeof err);
    if (!f) {
        if (++t->bad == 1)
            t->first_bad = *s, pb_claim_setf(t->why, sizeof t->why, "the field cannot be built: %s", err);
        return;
    }
    long model = f->nempty, def = pb_proofs_count_empty(s), formula_n = t->formula(s->goal, s->width, s->length);
    /* The model's figure must also match its own flags. */
    long flags_n = 0;
    for (int i = 0; i < f->nlattice; i++)
        if ((f->flags[i] & PB_NODE) && !(f->flags[i] & PB_OCCUPIED0)) flags_n++;
    t->nf++;
    t->n20 += s->width <= 20 && s->length <= 20;
    if ((model != def || def != formula_n || flags_n != def || formula_n % 2 != 0) && ++t->bad == 1) {
        t->first_bad = *s;
        pb_claim_setf(t->why, sizeof t->why, "field model %ld, flags %ld, definition %ld, formula %ld%s", model,
                      flags_n, def, formula_n, formula_n % 2 ? " (odd)" : "");
    }
    pb_field_free(f);
}

/* The first field that disagrees, as the counterexample (its start
 * position, when the field can be built). */
static void empty_cx(const empty_tally *t, pb_proofs_result *res) {
    char d[40];
    pb_claim_field_desc(&t->first_bad, d, sizeof d);
    char err[200];
    pb_field *f = pb_field_new(&t->first_bad, err, sizeof err);
    if (f) {
        pb_game g;
        pb_game_init(&g, f, PB_TOP);
        pb_claim_set_cx(res, &g, 1, "%s: %s", d, t->why);
        pb_game_free(&g);
        pb_field_free(f);
    } else {
        res->has_cx = 1, res->cx_spec = t->first_bad;
        pb_claim_setf(res->cx_what, sizeof res->cx_what, "%s: %s", d, t->why);
    }
    pb_claim_setf(res->summary, sizeof res->summary, "fails on %d of %d fields; first %s: %s", t->bad, t->nf, d,
                  t->why);
}

pb_check_outcome pb_claim_empty_count(const pb_proofs_opts *o, pb_proofs_result *res) {
    empty_tally t;
    memset(&t, 0, sizeof t);
    t.formula = o->empty_formula ? o->empty_formula : book_formula;
    int maxd = o->max_dim > 0 ? o->max_dim : PB_MAX_DIM, nspec;
    pb_field_spec *specs = empty_fields(o, maxd, &nspec);
    for (int k = 0; k < nspec; k++) empty_field(&specs[k], &t);
    free(specs);
    pb_field_spec all = o->fields ? o->fields[0] : pb_claim_book_spec(2, maxd, maxd);
    pb_proofs_field *pf = pb_claim_add_field(res, &all);
    pf->complete = 1;
    pf->positions = (uint64_t)t.nf;
    if (o->fields) pb_claim_setf(pf->note, sizeof pf->note, "%d field(s) given; %d disagree", t.nf, t.bad);
    else
        pb_claim_setf(pf->note, sizeof pf->note,
                      "%d fields: every even G <= W <= %d, even L <= %d (%d within 20x20); %d disagree", t.nf, maxd,
                      maxd, t.n20, t.bad);
    if (t.bad) {
        pf->failed = 1;
        empty_cx(&t, res);
        return PB_CHECK_FAILS;
    }
    pb_claim_setf(res->summary, sizeof res->summary,
                  "On all %d box fields with even G <= W <= %d and even L <= %d the field model, the flags, a count "
                  "from the definition and the formula agree, and N is even.",
                  t.nf, maxd, maxd);
    return PB_CHECK_HOLDS;
}
