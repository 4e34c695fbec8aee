/* frame.c - the walk frame of the claims (frame.h): walking a field with
 * both walks, recording what was checked, turning a violation into a game
 * record and a diagram. */
#include "frame.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diagram.h"

pb_proofs_field *pb_claim_add_field(pb_proofs_result *res, const pb_field_spec *s) {
    if (res->nfields == res->capfields) {
        res->capfields = res->capfields ? 2 * res->capfields : 16;
        res->fields = realloc(res->fields, sizeof *res->fields * (size_t)res->capfields);
    }
    pb_proofs_field *pf = &res->fields[res->nfields++];
    memset(pf, 0, sizeof *pf);
    pf->spec = *s;
    return pf;
}

void pb_claim_notef(char *buf, size_t len, const char *fmt, ...) {
    size_t n = strlen(buf);
    if (n >= len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

void pb_claim_setf(char *buf, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

pb_field_spec pb_claim_book_spec(int g, int w, int l) {
    pb_field_spec s;
    memset(&s, 0, sizeof s);
    s.rules = PB_RULES_BOOK;
    s.goal = g, s.width = w, s.length = l;
    return s;
}

/* Fields where the book enumeration completes within a few seconds to a
 * minute here (measured; see results/theorems.md), smallest first. */
int pb_proofs_default_fields(pb_field_spec *out, int max) {
    static const int list[][3] = {{2, 2, 2}, {2, 2, 4}, {2, 4, 2}, {4, 4, 2}};
    int n = 0;
    for (size_t i = 0; i < sizeof list / sizeof list[0] && n < max; i++)
        out[n++] = pb_claim_book_spec(list[i][0], list[i][1], list[i][2]);
    return n;
}

void pb_claim_set_cx(pb_proofs_result *res, const pb_game *g, int from_start, const char *fmt, ...) {
    free(res->cx_record);
    free(res->cx_svg);
    res->has_cx = 1;
    res->cx_spec = g->field->spec;
    res->cx_from_start = from_start;
    res->cx_record = pb_record_format(g);
    res->cx_turns = g->nturns;
    char title[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->cx_what, sizeof res->cx_what, fmt, ap);
    va_end(ap);
    pb_claim_setf(title, sizeof title, "%s: counterexample", res->claim);
    pb_diagram_opts dop = {.odd = 1, .highlight_from = -1, .title = title};
    res->cx_svg = pb_diagram_svg(g, &dop);
}

void pb_claim_walk_start(const pb_proofs_opts *o, const pb_field *f, pb_game *g, pb_position *start, int *d0) {
    if (o->start_game) {
        /* A private copy of the turns, so traces can append. */
        pb_game_init(g, f, o->start_game->first);
        char err[160];
        for (int i = 0; i < o->start_game->nturns; i++) {
            const pb_game_turn *t = &o->start_game->turns[i];
            if (pb_game_play(g, t->nodes, t->len, t->kick, err, sizeof err)) break;
        }
        *start = g->pos;
        *d0 = g->nturns;
    } else if (o->start) {
        pb_game_init(g, f, o->start->to_move);
        g->pos = *o->start;
        *start = *o->start;
        *d0 = o->start_turns;
    } else {
        pb_game_init(g, f, PB_TOP);
        *start = g->pos;
        *d0 = 0;
    }
}

/* Fields small enough to walk turn by turn as a cross-check of the step walk
 * (every route listed: the route count grows fast). */
static int turn_walk_small(const pb_field *f) { return f->nempty <= 4 && f->spec.width == 2; }

/* The step-level walk of a field (every reachable state, every step),
 * its figures into pf; a violation traced into res as the counterexample
 * of fewest segments.  Returns 1 when a visitor stopped it; *complete: it
 * walked every state. */
static int step_walk(const pb_proofs_opts *o, const pb_field *f, const pb_walk_limits *lim,
                     const pb_stepwalk_visitor *sv, pb_proofs_field *pf, pb_proofs_result *res, const char *what,
                     int *complete) {
    pb_stepwalk w;
    pb_game g;
    pb_position start;
    int d0;
    pb_claim_walk_start(o, f, &g, &start, &d0);
    pb_walk_limits slim = *lim;
    slim.max_depth = 0;
    int stopped = pb_stepwalk_run(&w, f, &start, &slim, sv);
    pf->stepwalk = 1;
    *complete = w.complete && !stopped;
    pf->out_of_memory |= w.out_of_memory;
    pf->states = w.states, pf->steps = w.steps, pf->fsteps = w.finishing;
    pf->step_games = w.games, pf->games_overflow |= w.games_overflow;
    pf->step_levels = w.depth_done + 1;
    if (stopped) {
        if (pb_stepwalk_trace(&w, &g) == 0)
            pb_claim_set_cx(res, &g, !o->start || o->start_game, "%s (turn %d, %d segments: fewest segments)",
                            what[0] ? what : "violation", g.nturns, pb_position_drawn_count(f, &g.pos));
        else pb_claim_setf(res->cx_what, sizeof res->cx_what, "%s (trace failed)", what), res->has_cx = 1;
    }
    pb_stepwalk_free(&w);
    pb_game_free(&g);
    return stopped;
}

/* The turn-level walk of a field (every distinct position per turn, every
 * route), its figures into pf; a violation traced into res as the
 * counterexample of fewest turns.  Returns 1 when a visitor stopped it;
 * *complete: it followed every game to its end. */
static int turn_walk(const pb_proofs_opts *o, const pb_field *f, const pb_walk_limits *lim, const pb_walk_visitor *tv,
                     pb_proofs_field *pf, pb_proofs_result *res, const char *what_turn, int *complete) {
    pb_walk w;
    pb_game g;
    pb_position start;
    int d0;
    pb_claim_walk_start(o, f, &g, &start, &d0);
    int st = pb_walk_run(&w, f, &start, d0, lim, tv);
    pf->turnwalk = 1;
    *complete = w.complete && !st;
    pf->out_of_memory |= w.out_of_memory;
    pf->depth = d0 + w.depth_done + 1;
    pf->positions = w.positions;
    pf->routes = w.routes;
    pf->finished = w.finished;
    pf->games = w.games;
    pf->games_overflow |= w.games_overflow;
    if (st) {
        if (pb_walk_trace(&w, &g) == 0)
            pb_claim_set_cx(res, &g, !o->start || o->start_game, "%s (turn %d: fewest turns)",
                            what_turn[0] ? what_turn : "violation", g.nturns);
        else pb_claim_setf(res->cx_what, sizeof res->cx_what, "%s (trace failed)", what_turn), res->has_cx = 1;
    }
    pb_walk_free(&w);
    pb_game_free(&g);
    return st;
}

/* Walks one field: the step-level walk (every reachable state, every step:
 * the primary exhaustive method), and the turn-level walk (every distinct
 * position per turn, every route) on small fields as a cross-check, or alone
 * when a depth in turns is given.  On a violation, traces the shortest
 * counterexample (in segments for the step walk, in turns for the turn walk)
 * into res.  Returns 1 when a visitor reported a violation or the walks
 * disagree. */
static int walk_field(const pb_proofs_opts *o, const pb_field *f, const pb_walk_visitor *tv,
                      const pb_stepwalk_visitor *sv, pb_proofs_field *pf, pb_proofs_result *res, const char *what,
                      const char *what_turn) {
    double t0 = pb_walk_now(), cap = o->max_seconds > 0 ? o->max_seconds : 120.0;
    /* The run's deadline cuts the field's cap: a walk past it is not
     * complete, and its field says so (no verdict rests on it). */
    if (o->deadline > 0 && o->deadline - t0 < cap) cap = o->deadline - t0 > 1e-6 ? o->deadline - t0 : 1e-6;
    pb_walk_limits lim = {.max_depth = o->max_depth,
                          .max_positions = o->max_positions ? o->max_positions : 16000000,
                          .max_seconds = cap,
                          .stop = o->stop};
    int stopped = 0, step_complete = 0, turn_complete = 0;
    if (sv && o->max_depth <= 0) stopped = step_walk(o, f, &lim, sv, pf, res, what, &step_complete);
    int want_turns =
        tv && !stopped && o->turn_walk >= 0 && (o->max_depth > 0 || !sv || o->turn_walk > 0 || turn_walk_small(f));
    if (want_turns) stopped = turn_walk(o, f, &lim, tv, pf, res, what_turn, &turn_complete);
    pf->complete = !stopped && (pf->stepwalk ? step_complete : turn_complete);
    if (step_complete && turn_complete) {
        pf->xcheck = pf->games == pf->step_games && !pf->games_overflow ? 1 : -1;
        if (pf->xcheck < 0) {
            stopped = 1, res->has_cx = 1, res->cx_spec = f->spec;
            pb_claim_setf(res->cx_what, sizeof res->cx_what,
                          "the step walk counts %llu finished games, the turn walk %llu",
                          (unsigned long long)pf->step_games, (unsigned long long)pf->games);
        }
    }
    pf->seconds = pb_walk_now() - t0;
    pf->failed = stopped;
    return stopped;
}

/* The fields a walking claim runs on. */
static int claim_fields(const pb_proofs_opts *o, pb_field_spec *buf, int max) {
    if (o->fields) {
        int n = o->nfields < max ? o->nfields : max;
        memcpy(buf, o->fields, sizeof *buf * (size_t)n);
        return n;
    }
    return pb_proofs_default_fields(buf, max);
}

pb_field *pb_claim_make_field(const pb_field_spec *s, pb_proofs_result *res) {
    char err[200];
    pb_field *f = pb_field_new(s, err, sizeof err);
    if (!f) pb_claim_setf(res->summary, sizeof res->summary, "bad field: %s", err);
    return f;
}

void pb_claim_field_desc(const pb_field_spec *s, char *buf, size_t len) {
    pb_claim_setf(buf, len, "(%d;%d;%d)", s->goal, s->width, s->length);
    if (s->rules != PB_RULES_BOOK) {
        size_t n = strlen(buf);
        pb_claim_setf(buf + n, len - n, " %s", pb_rules_name(s->rules));
    }
}

/* Whether the run's deadline has passed or its stop flag is up: a walk
 * begun or going on now is cut short. */
static int cut_short(const pb_proofs_opts *o) {
    return (o->stop && *o->stop) || (o->deadline > 0 && pb_walk_now() >= o->deadline);
}

/* A resumed claim starts as it stood when saved: the rows of the fields
 * done (each field's walks depend on that field alone, so they are not
 * redone), the counterexample and summary so far, and the claim's carried
 * state.  Returns the fields done, or -1 if the saved progress does not fit
 * this claim's list of fields or state. */
static int resume_fields(const pb_proofs_opts *o, pb_proofs_result *res, const pb_claim_walk *w, int n) {
    const pb_proofs_progress *p = o->progress;
    if (!p || !p->from) return 0;
    if (p->from->nfields > n || p->state_len != w->arg_size) {
        pb_claim_setf(res->summary, sizeof res->summary, "the saved progress does not fit this claim");
        return -1;
    }
    pb_proofs_result self = *res; /* the claim's own names */
    pb_proofs_result_copy(res, p->from);
    res->claim = self.claim, res->statement = self.statement, res->method = self.method;
    if (w->arg_size) memcpy(w->arg, p->state, w->arg_size);
    return res->nfields;
}

/* After a field: a walk cut short makes the claim's result partial (and
 * saves nothing more of it); else the progress is saved. */
static void field_done(const pb_proofs_opts *o, pb_proofs_result *res, const pb_claim_walk *w, int cut) {
    if (cut) res->interrupted = 1;
    if (!res->interrupted && o->progress && o->progress->save)
        o->progress->save(o->progress->ctx, res, w->arg, w->arg_size);
}

pb_check_outcome pb_claim_walk_fields(const pb_proofs_opts *o, pb_proofs_result *res, const pb_claim_walk *w,
                                      int *nfields, int *ncomplete) {
    assert(w->size >= sizeof(pb_claim_ctx));
    pb_field_spec specs[32];
    int n = claim_fields(o, specs, 32), complete = 0, k0 = resume_fields(o, res, w, n);
    if (k0 < 0) return PB_CHECK_BAD_FIELD;
    for (int k = 0; k < k0; k++) complete += res->fields[k].complete;
    for (int k = k0; k < n; k++) {
        pb_field *f = pb_claim_make_field(&specs[k], res);
        if (!f) return PB_CHECK_BAD_FIELD;
        memcpy(w->step.ctx, w->fresh, w->size);
        memcpy(w->turn.ctx, w->fresh, w->size);
        char *why = ((pb_claim_ctx *)w->step.ctx)->why, *why_turn = ((pb_claim_ctx *)w->turn.ctx)->why;
        pb_proofs_field *pf = pb_claim_add_field(res, &specs[k]);
        char d[40];
        pb_claim_field_desc(&specs[k], d, sizeof d);
        pb_proofs_result scratch;
        memset(&scratch, 0, sizeof scratch);
        scratch.claim = res->claim;
        pb_proofs_result *cx = w->all_fields ? &scratch : res;
        int stop = walk_field(o, f, &w->turn, &w->step, pf, cx, why, why_turn), cut = cut_short(o);
        if (!why[0]) memcpy(why, why_turn, PB_CLAIM_WHY);
        complete += pf->complete;
        pb_claim_field cf = {f, d, pf, stop, why, cx};
        w->field(w, o, &cf, res);
        pb_proofs_result_free(&scratch);
        pb_field_free(f);
        field_done(o, res, w, cut);
        if (stop && !w->all_fields) {
            pb_claim_setf(res->cx_what, sizeof res->cx_what, "%s: %s", d, why);
            pb_claim_setf(res->summary, sizeof res->summary, "fails: %s", res->cx_what);
            return PB_CHECK_FAILS;
        }
    }
    if (nfields) *nfields = n;
    if (ncomplete) *ncomplete = complete;
    if (!w->holds) return PB_CHECK_HOLDS;
    pb_claim_setf(res->summary, sizeof res->summary, "%sExhaustive on %d of %d fields.", w->holds, complete, n);
    return complete ? PB_CHECK_HOLDS : PB_CHECK_OPEN;
}
