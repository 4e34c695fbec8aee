/* last-move.c - the claims last-move-red and last-move-exact (argument:
 * last-move.md): where the last route of a finished game ends, the walks
 * over the small fields, and the targeted search for the exception (the
 * ball trapped on the centre) on the big ones. */
#include "frame.h"

#include <stdlib.h>
#include <string.h>

typedef struct last_ctx {
    pb_claim_ctx head; /* first: the frame writes and reads why */
    int exact;         /* allow the centre (dead end) */
    uint64_t goal, dead_odd, dead_centre;
    int min_centre; /* fewest segments (step walk) or turns (turn walk) to a centre trap */
} last_ctx;

/* The end of a finished game: node v, reached by a goal or a dead end. */
static int last_check(last_ctx *x, const pb_field *f, const pb_position *after, int goal, int length) {
    int v = after->ball;
    char nb[8];
    int odd = (f->flags[v] & PB_ODD) != 0, centre = v == f->centre;
    if (goal) {
        if (!odd) {
            pb_claim_setf(x->head.why, sizeof x->head.why, "a goal on the even node %s", pb_node_name(f, v, nb));
            return 1;
        }
        x->goal++;
        return 0;
    }
    if (odd) {
        x->dead_odd++;
        return 0;
    }
    if (centre && x->exact && pb_free_count(f, after, v) == 0) {
        x->dead_centre++;
        if (!x->min_centre || length < x->min_centre) x->min_centre = length;
        return 0;
    }
    pb_claim_setf(x->head.why, sizeof x->head.why, "the last route ends in a dead end on the even node %s%s",
                  pb_node_name(f, v, nb), centre ? " (the centre)" : "");
    return 1;
}

static int last_route(void *c, const pb_field *f, const pb_position *before, pb_position *after, const pb_route *r,
                      int depth, uint64_t count) {
    (void)before, (void)count, (void)depth;
    if (r->end == PB_END_NONE) return 0;
    return last_check(c, f, after, r->end == PB_END_GOAL, depth + 1);
}

static int last_step(void *c, const pb_field *f, const pb_position *before, const pb_position *after, int dir,
                     pb_step_result r, int loser, uint64_t count) {
    (void)before, (void)dir, (void)loser, (void)count;
    if (r != PB_STEP_GOAL && r != PB_STEP_DEAD_END) return 0;
    return last_check(c, f, after, r == PB_STEP_GOAL, pb_position_drawn_count(f, after));
}

/* What the last-move claims carry over the fields. */
typedef struct last_run {
    int exact;
    int failed;
    int cx_turns; /* turns of the counterexample kept: the fewest over the fields */
} last_run;

/* A violation the walks met on a field: noted, and kept as the claim's
 * counterexample if it has the fewest turns so far over the fields. */
static void last_keep_cx(last_run *run, const pb_claim_field *cf, pb_proofs_result *res) {
    pb_proofs_field *pf = cf->pf;
    pb_proofs_result *tmp = cf->cx;
    run->failed = 1;
    pf->failed = 1;
    int turns = tmp->cx_turns;
    if (tmp->cx_record)
        pb_claim_notef(pf->note, sizeof pf->note, "first violation breadth-first: %s; ", tmp->cx_record);
    if (res->has_cx && turns >= run->cx_turns) return;
    free(res->cx_record), free(res->cx_svg);
    res->has_cx = 1, res->cx_spec = tmp->cx_spec, res->cx_from_start = tmp->cx_from_start;
    res->cx_record = tmp->cx_record, res->cx_svg = tmp->cx_svg, res->cx_turns = tmp->cx_turns;
    tmp->cx_record = tmp->cx_svg = NULL;
    pb_claim_setf(res->cx_what, sizeof res->cx_what, "%s: %s, after %d turns (fewest segments: breadth-first)",
                  cf->desc, cf->why, turns);
    run->cx_turns = turns;
}

/* The targeted search for the exception on a walked field: the shortest
 * game trapped on the centre, in the note, and for the book's statement a
 * counterexample when it is shorter than the one kept. */
static void last_trap(const pb_proofs_opts *o, last_run *run, const pb_claim_field *cf, pb_proofs_result *res) {
    const pb_field *f = cf->f;
    pb_proofs_field *pf = cf->pf;
    int bound = o->trap_max_steps > 0 ? o->trap_max_steps : 24;
    pb_game g;
    uint64_t nodes = 0;
    int steps = pb_proofs_centre_trap(f, bound, 200000000ULL, &g, &nodes);
    if (steps > 0) {
        pb_claim_notef(pf->note, sizeof pf->note, "; shortest centre trap: %d steps, %d turns (%llu search nodes)",
                       steps, g.nturns, (unsigned long long)nodes);
        if (!run->exact && (!res->has_cx || g.nturns < run->cx_turns)) {
            run->failed = 1, pf->failed = 1;
            char nb[8], what[256];
            pb_claim_setf(what, sizeof what,
                          "%s: the ball is trapped on the centre %s after %d turns (%d segments, fewest possible: "
                          "iterative deepening)",
                          cf->desc, pb_node_name(f, f->centre, nb), g.nturns, steps);
            pb_claim_set_cx(res, &g, 1, "%s", what);
            run->cx_turns = g.nturns;
        }
    } else if (steps == 0) {
        pb_claim_notef(pf->note, sizeof pf->note, "; no centre trap within %d steps", bound);
    } else {
        pb_claim_notef(pf->note, sizeof pf->note, "; centre-trap search ran out of budget");
    }
    pb_game_free(&g);
}

/* After the walks of a field: keeps the shortest counterexample, writes the
 * note, and runs the targeted search for the exception (a game trapped on
 * the centre). */
static void last_field(const pb_claim_walk *w, const pb_proofs_opts *o, const pb_claim_field *cf,
                       pb_proofs_result *res) {
    const last_ctx *x = w->step.ctx, *xt = w->turn.ctx;
    last_run *run = w->arg;
    const pb_field *f = cf->f;
    pb_proofs_field *pf = cf->pf;
    /* Goal nodes must be odd for the claim to mean anything per outcome. */
    int goal_even = 0;
    for (int i = 0; i < f->nlattice; i++)
        if ((f->flags[i] & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) && !(f->flags[i] & PB_ODD)) goal_even++;
    if (cf->stop) last_keep_cx(run, cf, res);
    pb_claim_notef(pf->note, sizeof pf->note,
                   "finishes: %llu goals (all goal nodes odd: %s), %llu dead ends on odd nodes, %llu dead ends "
                   "on the centre%s",
                   (unsigned long long)x->goal, goal_even ? "NO" : "yes", (unsigned long long)x->dead_odd,
                   (unsigned long long)x->dead_centre, cf->stop ? "; stopped at the first violation" : "");
    if (x->min_centre)
        pb_claim_notef(pf->note, sizeof pf->note, "; walks: first centre trap after %d segments", x->min_centre);
    if (xt->min_centre) pb_claim_notef(pf->note, sizeof pf->note, ", fewest turns to a centre trap %d", xt->min_centre);
    if (goal_even) run->failed = 1;
    if (!o->no_trap_search && !o->start && !o->start_game) last_trap(o, run, cf, res);
}

/* The book's field and the international one are far too big to walk: the
 * targeted search alone settles the exception there.  Returns
 * PB_CHECK_BAD_FIELD if a field cannot be built, else HOLDS. */
static pb_check_outcome last_big_fields(const pb_proofs_opts *o, pb_proofs_result *res, last_run *run) {
    static const int big[][3] = {{2, 6, 8}, {2, 8, 10}};
    for (int k = 0; k < 2; k++) {
        pb_field_spec s = pb_claim_book_spec(big[k][0], big[k][1], big[k][2]);
        pb_field *f = pb_claim_make_field(&s, res);
        if (!f) return PB_CHECK_BAD_FIELD;
        pb_proofs_field *pf = pb_claim_add_field(res, &s);
        char d[40];
        pb_claim_field_desc(&s, d, sizeof d);
        pb_game g;
        uint64_t nodes = 0;
        double t0 = pb_walk_now();
        int steps = pb_proofs_centre_trap(f, o->trap_max_steps > 0 ? o->trap_max_steps : 24, 200000000ULL, &g, &nodes);
        pf->seconds = pb_walk_now() - t0;
        pf->routes = nodes;
        if (steps > 0) {
            char nb[8];
            /* Every neighbour of the centre is empty here, and a trap draws
             * all eight centre segments, so each neighbour is reached and the
             * first arrival stops a turn: at least 8 turns + the last one. */
            pb_claim_setf(pf->note, sizeof pf->note,
                          "not walked (too big); targeted search: shortest centre trap %d steps, %d turns (%llu "
                          "search nodes, %.2f s; at least 9 turns are needed here): %s",
                          steps, g.nturns, (unsigned long long)nodes, pf->seconds, pb_node_name(f, f->centre, nb));
            char *rec = pb_record_format(&g);
            pb_claim_notef(pf->note, sizeof pf->note, " trapped after %s", rec);
            free(rec);
            if (!run->exact) {
                run->failed = 1, pf->failed = 1;
                if (s.width == 6 && s.length == 8) {
                    /* The book's own field is the counterexample worth drawing. */
                    char what[256];
                    pb_claim_setf(what, sizeof what,
                                  "%s, the book's field: the ball is trapped on the centre %s after %d turns (%d "
                                  "segments, fewest possible: iterative deepening)",
                                  d, pb_node_name(f, f->centre, nb), g.nturns, steps);
                    pb_claim_set_cx(res, &g, 1, "%s", what);
                }
            }
        } else {
            pb_claim_setf(pf->note, sizeof pf->note, "not walked; no centre trap found within the search bound");
        }
        pb_game_free(&g);
        pb_field_free(f);
    }
    return PB_CHECK_HOLDS;
}

/* A survey: the shortest centre trap on every field up to 20x20, as one
 * row of res.  Returns PB_CHECK_BAD_FIELD if a field cannot be built, else
 * HOLDS. */
static pb_check_outcome last_survey(pb_proofs_result *res) {
    int nsurvey = 0, nfound = 0, smin = 1 << 20, smax = 0, tmin = 1 << 20, tmax = 0;
    char missing[200] = "";
    double t0 = pb_walk_now();
    for (int w = 2; w <= 20; w += 2)
        for (int l = 2; l <= 20; l += 2)
            for (int g = 2; g <= w; g += 2) {
                pb_field_spec s = pb_claim_book_spec(g, w, l);
                pb_field *f = pb_claim_make_field(&s, res);
                if (!f) return PB_CHECK_BAD_FIELD;
                pb_game gm;
                uint64_t nodes;
                int steps = pb_proofs_centre_trap(f, 24, 20000000ULL, &gm, &nodes);
                nsurvey++;
                if (steps > 0) {
                    nfound++;
                    if (steps < smin) smin = steps;
                    if (steps > smax) smax = steps;
                    if (gm.nturns < tmin) tmin = gm.nturns;
                    if (gm.nturns > tmax) tmax = gm.nturns;
                } else {
                    char d[40];
                    pb_claim_field_desc(&s, d, sizeof d);
                    pb_claim_notef(missing, sizeof missing, "%s%s", missing[0] ? ", " : "", d);
                }
                pb_game_free(&gm);
                pb_field_free(f);
            }
    pb_field_spec all = pb_claim_book_spec(2, 20, 20);
    pb_proofs_field *pf = pb_claim_add_field(res, &all);
    pf->seconds = pb_walk_now() - t0;
    pb_claim_setf(pf->note, sizeof pf->note,
                  "centre-trap survey, every even G <= W <= 20, L <= 20: a trap found on %d of %d fields, shortest "
                  "%d..%d segments, %d..%d turns (%.1f s)%s%s",
                  nfound, nsurvey, smin, smax, tmin, tmax, pf->seconds, missing[0] ? "; none within 24 steps on " : "",
                  missing);
    return PB_CHECK_HOLDS;
}

/* The verdict and summary of last-move-red (exact = 0) or last-move-exact,
 * after the walks of n fields (complete of them exhaustive). */
static pb_check_outcome last_summary(pb_proofs_result *res, const last_run *run, int complete, int n) {
    if (run->failed) {
        if (run->exact) pb_claim_setf(res->summary, sizeof res->summary, "fails: %s", res->cx_what);
        else
            pb_claim_setf(res->summary, sizeof res->summary,
                          "The book's statement fails: a game played to its end can end with the ball trapped on "
                          "the centre, an even node (a dead end with all eight centre segments drawn). "
                          "Counterexample: %s. What holds is last-move-exact.",
                          res->cx_what);
        return PB_CHECK_FAILS;
    }
    if (run->exact)
        pb_claim_setf(res->summary, sizeof res->summary,
                      "Every finished game ends on an odd node (a goal node, or a boundary node in a dead end) or "
                      "with the ball trapped on the centre in a dead end.  Exhaustive on %d of %d fields; the "
                      "centre trap happens on every field searched (see the notes).",
                      complete, n);
    else
        pb_claim_setf(res->summary, sizeof res->summary,
                      "Every finished game checked ends on an odd node (exhaustive on %d of %d fields).", complete, n);
    return complete ? PB_CHECK_HOLDS : PB_CHECK_OPEN;
}

/* The walks over the fields, then (on the default fields) the targeted
 * search on the big fields and the survey, then the verdict. */
static pb_check_outcome check_last_move(const pb_proofs_opts *o, pb_proofs_result *res, int exact) {
    last_ctx fresh, x, xt;
    memset(&fresh, 0, sizeof fresh);
    fresh.exact = exact;
    last_run run = {exact, 0, 1 << 30};
    pb_claim_walk w = {.turn = {NULL, last_route, &xt},
                       .step = {NULL, last_step, &x},
                       .fresh = &fresh,
                       .size = sizeof fresh,
                       .field = last_field,
                       .arg = &run,
                       .arg_size = sizeof run,
                       .all_fields = 1};
    int n, complete;
    pb_check_outcome rc = pb_claim_walk_fields(o, res, &w, &n, &complete);
    if (rc != PB_CHECK_HOLDS) return rc;
    if (!o->fields && !o->start && !o->start_game && !o->no_trap_search) {
        if (last_big_fields(o, res, &run) != PB_CHECK_HOLDS || last_survey(res) != PB_CHECK_HOLDS)
            return PB_CHECK_BAD_FIELD;
    }
    return last_summary(res, &run, complete, n);
}

pb_check_outcome pb_claim_last_move_red(const pb_proofs_opts *o, pb_proofs_result *res) {
    return check_last_move(o, res, 0);
}

pb_check_outcome pb_claim_last_move_exact(const pb_proofs_opts *o, pb_proofs_result *res) {
    return check_last_move(o, res, 1);
}
