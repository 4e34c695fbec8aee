/* claims.c - the checkers of the book's claims and their common frame:
 * walking a field, recording what was checked, turning a violation into a
 * game record and a diagram. */
#include "proofs.h"

#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "diagram.h"

/* ---------------------------------------------------------------- frame */

const char *pb_verdict_name(pb_verdict v) {
    return v == PB_VERDICT_HOLDS ? "holds" : v == PB_VERDICT_FAILS ? "FAILS" : "open";
}

static pb_proofs_field *add_field(pb_proofs_result *res, const pb_field_spec *s) {
    if (res->nfields == res->capfields) {
        res->capfields = res->capfields ? 2 * res->capfields : 16;
        res->fields = realloc(res->fields, sizeof *res->fields * (size_t)res->capfields);
    }
    pb_proofs_field *pf = &res->fields[res->nfields++];
    memset(pf, 0, sizeof *pf);
    pf->spec = *s;
    return pf;
}

static void notef(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void notef(char *buf, size_t len, const char *fmt, ...) {
    size_t n = strlen(buf);
    if (n >= len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

/* snprintf that may truncate on purpose (notes are bounded). */
static void setf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void setf(char *buf, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

static pb_field_spec book_spec(int g, int w, int l) {
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
        out[n++] = book_spec(list[i][0], list[i][1], list[i][2]);
    return n;
}

/* Stores a counterexample game (a copy of its record and its SVG). */
static void set_cx(pb_proofs_result *res, const pb_game *g, int from_start, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void set_cx(pb_proofs_result *res, const pb_game *g, int from_start, const char *fmt, ...) {
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
    setf(title, sizeof title, "%s: counterexample", res->claim);
    pb_diagram_opts dop = {.odd = 1, .highlight_from = -1, .title = title};
    res->cx_svg = pb_diagram_svg(g, &dop);
}

/* The walk's start: the given position or game, else the field's start. */
static void walk_start(const pb_proofs_opts *o, const pb_field *f, pb_game *g, pb_position *start, int *d0) {
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
    pb_walk_limits lim = {o->max_depth, o->max_positions ? o->max_positions : 16000000,
                          o->max_seconds > 0 ? o->max_seconds : 120.0};
    pb_game g;
    pb_position start;
    int d0, stopped = 0, step_complete = 0, turn_complete = 0;
    double t0 = pb_walk_now();
    if (sv && o->max_depth <= 0) {
        pb_stepwalk w;
        walk_start(o, f, &g, &start, &d0);
        pb_walk_limits slim = lim;
        slim.max_depth = 0;
        stopped = pb_stepwalk_run(&w, f, &start, &slim, sv);
        pf->stepwalk = 1;
        step_complete = w.complete && !stopped;
        pf->states = w.states, pf->steps = w.steps, pf->fsteps = w.finishing;
        pf->step_games = w.games, pf->games_overflow |= w.games_overflow;
        pf->step_levels = w.depth_done + 1;
        if (stopped) {
            if (pb_stepwalk_trace(&w, &g) == 0)
                set_cx(res, &g, !o->start || o->start_game, "%s (turn %d, %d segments: fewest segments)",
                       what[0] ? what : "violation", g.nturns, pb_position_drawn_count(f, &g.pos));
            else
                setf(res->cx_what, sizeof res->cx_what, "%s (trace failed)", what), res->has_cx = 1;
        }
        pb_stepwalk_free(&w);
        pb_game_free(&g);
    }
    int want_turns = tv && !stopped && o->turn_walk >= 0 &&
                     (o->max_depth > 0 || !sv || o->turn_walk > 0 || turn_walk_small(f));
    if (want_turns) {
        pb_walk w;
        walk_start(o, f, &g, &start, &d0);
        int st = pb_walk_run(&w, f, &start, d0, &lim, tv);
        pf->turnwalk = 1;
        turn_complete = w.complete && !st;
        pf->depth = d0 + w.depth_done + 1;
        pf->positions = w.positions;
        pf->routes = w.routes;
        pf->finished = w.finished;
        pf->games = w.games;
        pf->games_overflow |= w.games_overflow;
        if (st) {
            stopped = 1;
            if (pb_walk_trace(&w, &g) == 0)
                set_cx(res, &g, !o->start || o->start_game, "%s (turn %d: fewest turns)",
                       what_turn[0] ? what_turn : "violation", g.nturns);
            else
                setf(res->cx_what, sizeof res->cx_what, "%s (trace failed)", what_turn), res->has_cx = 1;
        }
        pb_walk_free(&w);
        pb_game_free(&g);
    }
    pf->complete = !stopped && (pf->stepwalk ? step_complete : turn_complete);
    if (step_complete && turn_complete) {
        pf->xcheck = pf->games == pf->step_games && !pf->games_overflow ? 1 : -1;
        if (pf->xcheck < 0) {
            stopped = 1, res->has_cx = 1, res->cx_spec = f->spec;
            setf(res->cx_what, sizeof res->cx_what, "the step walk counts %llu finished games, the turn walk %llu",
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

static pb_field *make_field(const pb_field_spec *s, pb_proofs_result *res) {
    char err[200];
    pb_field *f = pb_field_new(s, err, sizeof err);
    if (!f) setf(res->summary, sizeof res->summary, "bad field: %s", err);
    return f;
}

/* Nodes turned from empty to occupied: not occupied at the start, and a
 * segment drawn at them.  Counted from the definition. */
static int converted_nodes(const pb_field *f, const pb_position *p) {
    int n = 0;
    for (int i = 0; i < f->nlattice; i++)
        if ((f->flags[i] & PB_NODE) && !(f->flags[i] & PB_OCCUPIED0) && p->deg[i]) n++;
    return n;
}

static void field_desc(const pb_field_spec *s, char *buf, size_t len) {
    setf(buf, len, "(%d;%d;%d)", s->goal, s->width, s->length);
    if (s->rules != PB_RULES_BOOK) {
        size_t n = strlen(buf);
        setf(buf + n, len - n, " %s", pb_rules_name(s->rules));
    }
}

/* The length of the reason a claim's visitors give for a stop. */
#define CLAIM_WHY 200

/* One walked field, as a walking claim sees it before the field is freed. */
typedef struct claim_field {
    const pb_field *f;
    const char *desc;           /* the field as "(G;W;L)" */
    pb_proofs_field *pf;
    int stop;                   /* the walks stopped at a violation (or disagreed) */
    const char *why;            /* its reason: the step walk's, else the turn walk's */
    pb_proofs_result *cx;       /* the walks' counterexample: res, or a scratch result (all_fields) */
} claim_field;

/* A claim checked by walking its fields (claim_fields): the visitors of the
 * two walks, each over a context of its own (the turn walk cross-checks the
 * step walk, so it counts apart), and what the claim adds per field. */
typedef struct claim_walk {
    pb_walk_visitor turn;
    pb_stepwalk_visitor step;
    const void *fresh;          /* both contexts start every field as a copy of this */
    size_t size;                /* of a context */
    size_t why;                 /* offsetof a context's char why[CLAIM_WHY] */
    /* The field's note, and whatever else the claim does per field. */
    void (*field)(const struct claim_walk *w, const pb_proofs_opts *o, const claim_field *cf,
                  pb_proofs_result *res);
    void *arg;                  /* the claim's own state, for field */
    int all_fields;             /* go on after a violation; field judges the counterexample */
    const char *holds;          /* the summary when no field fails, before "Exhaustive on ..." (or NULL) */
} claim_walk;

/* Walks every field of a claim.  Returns 2 on a field that cannot be built;
 * 1 at the first violation, with the counterexample's description and the
 * summary set (unless all_fields); else, with the summary written when the
 * claim gives one, 0 if some field was walked exhaustively, 3 if none (and 0
 * without a summary).  *nfields and *ncomplete (when not NULL) count the
 * fields and those walked exhaustively. */
static int walk_claim(const pb_proofs_opts *o, pb_proofs_result *res, const claim_walk *w, int *nfields,
                      int *ncomplete) {
    assert(w->size >= w->why + CLAIM_WHY);
    pb_field_spec specs[32];
    int n = claim_fields(o, specs, 32), complete = 0;
    for (int k = 0; k < n; k++) {
        pb_field *f = make_field(&specs[k], res);
        if (!f) return 2;
        memcpy(w->step.ctx, w->fresh, w->size);
        memcpy(w->turn.ctx, w->fresh, w->size);
        char *why = (char *)w->step.ctx + w->why, *why_turn = (char *)w->turn.ctx + w->why;
        pb_proofs_field *pf = add_field(res, &specs[k]);
        char d[40];
        field_desc(&specs[k], d, sizeof d);
        pb_proofs_result scratch;
        memset(&scratch, 0, sizeof scratch);
        scratch.claim = res->claim;
        pb_proofs_result *cx = w->all_fields ? &scratch : res;
        int stop = walk_field(o, f, &w->turn, &w->step, pf, cx, why, why_turn);
        if (!why[0]) memcpy(why, why_turn, CLAIM_WHY);
        complete += pf->complete;
        claim_field cf = {f, d, pf, stop, why, cx};
        w->field(w, o, &cf, res);
        pb_proofs_result_free(&scratch);
        pb_field_free(f);
        if (stop && !w->all_fields) {
            setf(res->cx_what, sizeof res->cx_what, "%s: %s", d, why);
            setf(res->summary, sizeof res->summary, "fails: %s", res->cx_what);
            return 1;
        }
    }
    if (nfields) *nfields = n;
    if (ncomplete) *ncomplete = complete;
    if (!w->holds) return 0;
    setf(res->summary, sizeof res->summary, "%sExhaustive on %d of %d fields.", w->holds, complete, n);
    return complete ? 0 : 3;
}

/* ------------------------------------------------------- 1 empty-count */

static long book_formula(int g, int w, int l) { return 2L * (g - 1) + (long)(w - 1) * (l - 1) - 1; }

long pb_proofs_count_empty(const pb_field_spec *s) {
    /* Straight from RULES.md: box field cells cx in [0,W), cy in [1,L]; goal
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

static int check_empty_count(const pb_proofs_opts *o, pb_proofs_result *res) {
    long (*formula)(int, int, int) = o->empty_formula ? o->empty_formula : book_formula;
    int maxd = o->max_dim > 0 ? o->max_dim : PB_MAX_DIM;
    int nf = 0, bad = 0, n20 = 0;
    pb_field_spec first_bad;
    char why[200] = "";
    /* The fields: those asked for, else every even G <= W <= maxd, L <= maxd. */
    int nspec = 0, capspec = o->fields ? o->nfields : (maxd / 2) * (maxd / 2) * (maxd / 2);
    pb_field_spec *specs = malloc(sizeof *specs * (size_t)(capspec > 0 ? capspec : 1));
    if (o->fields) memcpy(specs, o->fields, sizeof *specs * (size_t)o->nfields), nspec = o->nfields;
    else
        for (int w = 2; w <= maxd; w += 2)
            for (int l = 2; l <= maxd; l += 2)
                for (int g = 2; g <= w; g += 2) specs[nspec++] = book_spec(g, w, l);
    for (int k = 0; k < nspec; k++) {
        pb_field_spec s = specs[k];
        int g = s.goal, w = s.width, l = s.length;
        char err[200];
        pb_field *f = pb_field_new(&s, err, sizeof err);
        if (!f) {
            bad++;
            if (bad == 1) first_bad = s, setf(why, sizeof why, "the field cannot be built: %s", err);
            continue;
        }
        long model = f->nempty, def = pb_proofs_count_empty(&s), formula_n = formula(g, w, l);
        /* The model's figure must also match its own flags. */
        long flags_n = 0;
        for (int i = 0; i < f->nlattice; i++)
            if ((f->flags[i] & PB_NODE) && !(f->flags[i] & PB_OCCUPIED0)) flags_n++;
        nf++;
        n20 += w <= 20 && l <= 20;
        if (model != def || def != formula_n || flags_n != def || formula_n % 2 != 0) {
            bad++;
            if (bad == 1) {
                first_bad = s;
                setf(why, sizeof why,
                         "field model %ld, flags %ld, definition %ld, formula %ld%s", model, flags_n, def,
                         formula_n, formula_n % 2 ? " (odd)" : "");
            }
        }
        pb_field_free(f);
    }
    free(specs);
    pb_field_spec all = o->fields ? o->fields[0] : book_spec(2, maxd, maxd);
    pb_proofs_field *pf = add_field(res, &all);
    pf->complete = 1;
    pf->positions = (uint64_t)nf;
    if (o->fields)
        setf(pf->note, sizeof pf->note, "%d field(s) given; %d disagree", nf, bad);
    else
        setf(pf->note, sizeof pf->note,
             "%d fields: every even G <= W <= %d, even L <= %d (%d within 20x20); %d disagree", nf, maxd, maxd,
             n20, bad);
    if (bad) {
        pf->failed = 1;
        char d[40];
        field_desc(&first_bad, d, sizeof d);
        char err[200];
        pb_field *f = pb_field_new(&first_bad, err, sizeof err);
        if (f) {
            pb_game g;
            pb_game_init(&g, f, PB_TOP);
            set_cx(res, &g, 1, "%s: %s", d, why);
            pb_game_free(&g);
            pb_field_free(f);
        } else {
            res->has_cx = 1, res->cx_spec = first_bad;
            setf(res->cx_what, sizeof res->cx_what, "%s: %s", d, why);
        }
        setf(res->summary, sizeof res->summary, "fails on %d of %d fields; first %s: %s", bad, nf, d, why);
        return 1;
    }
    setf(res->summary, sizeof res->summary,
             "On all %d box fields with even G <= W <= %d and even L <= %d the field model, the flags, a count "
             "from the definition and the formula agree, and N is even.",
             nf, maxd, maxd);
    return 0;
}

/* --------------------------------------------------- 2 moves-converted */

typedef struct conv_ctx {
    uint64_t positions_ok, finished_ok, steps_ok;
    char why[CLAIM_WHY];
} conv_ctx;

static int conv_position(void *c, const pb_field *f, const pb_position *p, int depth, uint64_t count) {
    conv_ctx *x = c;
    (void)count;
    int n = converted_nodes(f, p);
    if (n != depth) {
        setf(x->why, sizeof x->why, "after %d turns %d nodes were converted", depth, n);
        return 1;
    }
    x->positions_ok++;
    return 0;
}

static int conv_route(void *c, const pb_field *f, const pb_position *before, pb_position *after,
                      const pb_route *r, int depth, uint64_t count) {
    conv_ctx *x = c;
    (void)before, (void)count;
    if (r->end == PB_END_NONE) return 0;
    int n = converted_nodes(f, after);
    /* A finished game of depth+1 turns: the last turn ends on an occupied node
     * (goal node or dead end) and bounced only through occupied ones. */
    if (n != depth) {
        setf(x->why, sizeof x->why, "a game finished after %d turns with %d nodes converted", depth + 1, n);
        return 1;
    }
    x->finished_ok++;
    return 0;
}

static int conv_step(void *c, const pb_field *f, const pb_position *before, const pb_position *after, int dir,
                     pb_step_result r, int loser, uint64_t count) {
    conv_ctx *x = c;
    (void)loser, (void)count;
    int c0 = converted_nodes(f, before), c1 = converted_nodes(f, after);
    /* Converted nodes rise by one exactly when a turn ends (stop): so along
     * every path the count equals the turns completed. */
    if (c1 != c0 + (r == PB_STEP_STOP)) {
        char a[8], b[8];
        setf(x->why, sizeof x->why, "step %s-%s (%s) took the converted nodes from %d to %d",
             pb_node_name(f, before->ball, a), pb_node_name(f, pb_step_to(f, before->ball, dir), b),
             r == PB_STEP_STOP ? "stop" : r == PB_STEP_BOUNCE ? "bounce" : r == PB_STEP_GOAL ? "goal" : "dead end", c0,
             c1);
        return 1;
    }
    x->steps_ok++;
    return 0;
}

static void conv_note(const claim_walk *w, const pb_proofs_opts *o, const claim_field *cf, pb_proofs_result *res) {
    const conv_ctx *x = w->step.ctx, *xt = w->turn.ctx;
    pb_proofs_field *pf = cf->pf;
    (void)o, (void)res;
    if (pf->stepwalk)
        notef(pf->note, sizeof pf->note, "steps: %llu with converted +1 exactly on a stop",
              (unsigned long long)x->steps_ok);
    if (pf->turnwalk)
        notef(pf->note, sizeof pf->note,
              "%sturn walk: %llu positions with converted = turns, %llu finishing routes with converted = "
              "turns - 1",
              pf->stepwalk ? "; " : "", (unsigned long long)xt->positions_ok, (unsigned long long)xt->finished_ok);
}

static int check_moves_converted(const pb_proofs_opts *o, pb_proofs_result *res) {
    static const conv_ctx fresh;
    conv_ctx x, xt;
    claim_walk w = {.turn = {conv_position, conv_route, &xt}, .step = {NULL, conv_step, &x}, .fresh = &fresh,
                    .size = sizeof fresh, .why = offsetof(conv_ctx, why), .field = conv_note,
                    .holds = "In every reachable position (between turns) the number of turns made equals the "
                             "number of nodes turned from empty to occupied; in every finished game of t turns "
                             "exactly t - 1 nodes were converted (the last turn ends on an occupied node).  "};
    return walk_claim(o, res, &w, NULL, NULL);
}

/* --------------------------------------- 3 last-move-red / last-move-exact */

typedef struct last_ctx {
    int exact;                     /* allow the centre (dead end) */
    uint64_t goal, dead_odd, dead_centre;
    int min_centre;                /* fewest segments (step walk) or turns (turn walk) to a centre trap */
    char why[CLAIM_WHY];
} last_ctx;

/* The end of a finished game: node v, reached by a goal or a dead end. */
static int last_check(last_ctx *x, const pb_field *f, const pb_position *after, int goal, int length) {
    int v = after->ball;
    char nb[8];
    int odd = (f->flags[v] & PB_ODD) != 0, centre = v == f->centre;
    if (goal) {
        if (!odd) {
            setf(x->why, sizeof x->why, "a goal on the even node %s", pb_node_name(f, v, nb));
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
    setf(x->why, sizeof x->why, "the last route ends in a dead end on the even node %s%s", pb_node_name(f, v, nb),
         centre ? " (the centre)" : "");
    return 1;
}

static int last_route(void *c, const pb_field *f, const pb_position *before, pb_position *after,
                      const pb_route *r, int depth, uint64_t count) {
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
    int cx_turns;               /* turns of the counterexample kept: the fewest over the fields */
} last_run;

/* After the walks of a field: keeps the shortest counterexample, writes the
 * note, and runs the targeted search for the exception (a game trapped on
 * the centre). */
static void last_field(const claim_walk *w, const pb_proofs_opts *o, const claim_field *cf, pb_proofs_result *res) {
    const last_ctx *x = w->step.ctx, *xt = w->turn.ctx;
    last_run *run = w->arg;
    const pb_field *f = cf->f;
    pb_proofs_field *pf = cf->pf;
    pb_proofs_result *tmp = cf->cx;
    /* Goal nodes must be odd for the claim to mean anything per outcome. */
    int goal_even = 0;
    for (int i = 0; i < f->nlattice; i++)
        if ((f->flags[i] & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) && !(f->flags[i] & PB_ODD)) goal_even++;
    if (cf->stop) {
        run->failed = 1;
        pf->failed = 1;
        /* Keep the shortest counterexample (fewest turns) over the fields. */
        int turns = tmp->cx_turns;
        if (tmp->cx_record) notef(pf->note, sizeof pf->note, "first violation breadth-first: %s; ", tmp->cx_record);
        if (!res->has_cx || turns < run->cx_turns) {
            free(res->cx_record), free(res->cx_svg);
            res->has_cx = 1, res->cx_spec = tmp->cx_spec, res->cx_from_start = tmp->cx_from_start;
            res->cx_record = tmp->cx_record, res->cx_svg = tmp->cx_svg, res->cx_turns = tmp->cx_turns;
            tmp->cx_record = tmp->cx_svg = NULL;
            setf(res->cx_what, sizeof res->cx_what, "%s: %s, after %d turns (fewest segments: breadth-first)",
                 cf->desc, cf->why, turns);
            run->cx_turns = turns;
        }
    }
    notef(pf->note, sizeof pf->note,
          "finishes: %llu goals (all goal nodes odd: %s), %llu dead ends on odd nodes, %llu dead ends "
          "on the centre%s",
          (unsigned long long)x->goal, goal_even ? "NO" : "yes", (unsigned long long)x->dead_odd,
          (unsigned long long)x->dead_centre, cf->stop ? "; stopped at the first violation" : "");
    if (x->min_centre) notef(pf->note, sizeof pf->note, "; walks: first centre trap after %d segments", x->min_centre);
    if (xt->min_centre) notef(pf->note, sizeof pf->note, ", fewest turns to a centre trap %d", xt->min_centre);
    if (goal_even) run->failed = 1;
    /* The targeted search for the exception: a game trapped on the centre. */
    if (!o->no_trap_search && !o->start && !o->start_game) {
        pb_game g;
        uint64_t nodes = 0;
        int steps =
            pb_proofs_centre_trap(f, o->trap_max_steps > 0 ? o->trap_max_steps : 24, 200000000ULL, &g, &nodes);
        if (steps > 0) {
            notef(pf->note, sizeof pf->note, "; shortest centre trap: %d steps, %d turns (%llu search nodes)", steps,
                  g.nturns, (unsigned long long)nodes);
            if (!run->exact && (!res->has_cx || g.nturns < run->cx_turns)) {
                run->failed = 1, pf->failed = 1;
                char nb[8], what[256];
                setf(what, sizeof what,
                     "%s: the ball is trapped on the centre %s after %d turns (%d segments, fewest possible: "
                     "iterative deepening)",
                     cf->desc, pb_node_name(f, f->centre, nb), g.nturns, steps);
                set_cx(res, &g, 1, "%s", what);
                run->cx_turns = g.nturns;
            }
        } else if (steps == 0) {
            notef(pf->note, sizeof pf->note, "; no centre trap within %d steps",
                  o->trap_max_steps > 0 ? o->trap_max_steps : 24);
        } else {
            notef(pf->note, sizeof pf->note, "; centre-trap search ran out of budget");
        }
        pb_game_free(&g);
    }
}

static int check_last_move(const pb_proofs_opts *o, pb_proofs_result *res, int exact) {
    last_ctx fresh, x, xt;
    memset(&fresh, 0, sizeof fresh);
    fresh.exact = exact;
    last_run run = {exact, 0, 1 << 30};
    claim_walk w = {.turn = {NULL, last_route, &xt}, .step = {NULL, last_step, &x}, .fresh = &fresh,
                    .size = sizeof fresh, .why = offsetof(last_ctx, why), .field = last_field, .arg = &run,
                    .all_fields = 1};
    int n, complete, rc = walk_claim(o, res, &w, &n, &complete);
    if (rc) return rc;
    int failed = run.failed;
    /* The book's field and the international one are far too big to walk:
     * the targeted search alone settles the exception there. */
    static const int big[][3] = {{2, 6, 8}, {2, 8, 10}};
    for (int k = 0; k < 2 && !o->fields && !o->start && !o->start_game && !o->no_trap_search; k++) {
        pb_field_spec s = book_spec(big[k][0], big[k][1], big[k][2]);
        pb_field *f = make_field(&s, res);
        if (!f) return 2;
        pb_proofs_field *pf = add_field(res, &s);
        char d[40];
        field_desc(&s, d, sizeof d);
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
            setf(pf->note, sizeof pf->note,
                 "not walked (too big); targeted search: shortest centre trap %d steps, %d turns (%llu search "
                 "nodes, %.2f s; at least 9 turns are needed here): %s",
                 steps, g.nturns, (unsigned long long)nodes, pf->seconds, pb_node_name(f, f->centre, nb));
            char *rec = pb_record_format(&g);
            notef(pf->note, sizeof pf->note, " trapped after %s", rec);
            free(rec);
            if (!exact) {
                failed = 1, pf->failed = 1;
                if (s.width == 6 && s.length == 8) {
                    /* The book's own field is the counterexample worth drawing. */
                    char what[256];
                    setf(what, sizeof what,
                         "%s, the book's field: the ball is trapped on the centre %s after %d turns (%d segments, "
                         "fewest possible: iterative deepening)",
                         d, pb_node_name(f, f->centre, nb), g.nturns, steps);
                    set_cx(res, &g, 1, "%s", what);
                }
            }
        } else {
            setf(pf->note, sizeof pf->note, "not walked; no centre trap found within the search bound");
        }
        pb_game_free(&g);
        pb_field_free(f);
    }
    /* A survey: the shortest centre trap on every field up to 20x20. */
    if (!o->fields && !o->start && !o->start_game && !o->no_trap_search) {
        int nsurvey = 0, nfound = 0, smin = 1 << 20, smax = 0, tmin = 1 << 20, tmax = 0;
        char missing[200] = "";
        double t0 = pb_walk_now();
        for (int w = 2; w <= 20; w += 2)
            for (int l = 2; l <= 20; l += 2)
                for (int g = 2; g <= w; g += 2) {
                    pb_field_spec s = book_spec(g, w, l);
                    pb_field *f = make_field(&s, res);
                    if (!f) return 2;
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
                        field_desc(&s, d, sizeof d);
                        notef(missing, sizeof missing, "%s%s", missing[0] ? ", " : "", d);
                    }
                    pb_game_free(&gm);
                    pb_field_free(f);
                }
        pb_field_spec all = book_spec(2, 20, 20);
        pb_proofs_field *pf = add_field(res, &all);
        pf->seconds = pb_walk_now() - t0;
        setf(pf->note, sizeof pf->note,
             "centre-trap survey, every even G <= W <= 20, L <= 20: a trap found on %d of %d fields, shortest "
             "%d..%d segments, %d..%d turns (%.1f s)%s%s",
             nfound, nsurvey, smin, smax, tmin, tmax, pf->seconds, missing[0] ? "; none within 24 steps on " : "",
             missing);
    }
    if (failed) {
        setf(res->summary, sizeof res->summary,
                 "The book's statement fails: a game played to its end can end with the ball trapped on the "
                 "centre, an even node (a dead end with all eight centre segments drawn). Counterexample: %s. "
                 "What holds is last-move-exact.",
                 res->cx_what);
        if (exact)
            setf(res->summary, sizeof res->summary, "fails: %s", res->cx_what);
        return 1;
    }
    if (exact)
        setf(res->summary, sizeof res->summary,
                 "Every finished game ends on an odd node (a goal node, or a boundary node in a dead end) or "
                 "with the ball trapped on the centre in a dead end.  Exhaustive on %d of %d fields; the centre "
                 "trap happens on every field searched (see the notes).",
                 complete, n);
    else
        setf(res->summary, sizeof res->summary,
                 "Every finished game checked ends on an odd node (exhaustive on %d of %d fields).", complete, n);
    return complete ? 0 : 3;
}

static int check_last_red(const pb_proofs_opts *o, pb_proofs_result *res) { return check_last_move(o, res, 0); }
static int check_last_exact(const pb_proofs_opts *o, pb_proofs_result *res) { return check_last_move(o, res, 1); }

/* ------------------------------------------------------- 5 no-draws */

typedef struct draw_ctx {
    uint64_t won;
    char why[CLAIM_WHY];
} draw_ctx;

/* The end of a finished game, by a goal or a dead end: someone must lose. */
static int draw_check(draw_ctx *x, int loser, int goal) {
    if (loser != PB_BOTTOM && loser != PB_TOP) {
        setf(x->why, sizeof x->why, "a game ends drawn (%s)", goal ? "goal" : "dead end");
        return 1;
    }
    x->won++;
    return 0;
}

static int draw_route(void *c, const pb_field *f, const pb_position *before, pb_position *after,
                      const pb_route *r, int depth, uint64_t count) {
    (void)f, (void)before, (void)after, (void)depth, (void)count;
    if (r->end == PB_END_NONE) return 0;
    return draw_check(c, r->loser, r->end == PB_END_GOAL);
}

static int draw_step(void *c, const pb_field *f, const pb_position *before, const pb_position *after, int dir,
                     pb_step_result r, int loser, uint64_t count) {
    (void)f, (void)before, (void)after, (void)dir, (void)count;
    if (r != PB_STEP_GOAL && r != PB_STEP_DEAD_END) return 0;
    return draw_check(c, loser, r == PB_STEP_GOAL);
}

static void draw_note(const claim_walk *w, const pb_proofs_opts *o, const claim_field *cf, pb_proofs_result *res) {
    const draw_ctx *x = w->step.ctx;
    (void)o, (void)res;
    setf(cf->pf->note, sizeof cf->pf->note, "%llu finishing steps/routes, each with a loser",
         (unsigned long long)x->won);
}

static int check_no_draws(const pb_proofs_opts *o, pb_proofs_result *res) {
    static const draw_ctx fresh;
    draw_ctx x, xt;
    claim_walk w = {.turn = {NULL, draw_route, &xt}, .step = {NULL, draw_step, &x}, .fresh = &fresh,
                    .size = sizeof fresh, .why = offsetof(draw_ctx, why), .field = draw_note,
                    .holds = "Every finished game has a loser: a goal loses for the goal's owner, a dead end for "
                             "the mover. "};
    return walk_claim(o, res, &w, NULL, NULL);
}

/* ---------------------------------------------------- 6 dead-end-odd */

typedef struct dead_ctx {
    uint64_t parity_ok, dead_odd, dead_centre;
    char why[CLAIM_WHY];
} dead_ctx;

/* The handshake invariant behind the claim: the drawn segments form one
 * trail from the centre to the ball, so every node has an even number of
 * drawn segments except the two ends of the trail (none when they meet). */
static int dead_position(void *c, const pb_field *f, const pb_position *p, int depth, uint64_t count) {
    dead_ctx *x = c;
    (void)depth, (void)count;
    for (int i = 0; i < f->nlattice; i++) {
        if (!(f->flags[i] & PB_NODE)) continue;
        int expect = (i == p->ball) ^ (i == f->centre);
        if ((p->deg[i] & 1) != expect) {
            char nb[8];
            setf(x->why, sizeof x->why, "node %s has %d drawn segments, against the trail parity",
                     pb_node_name(f, i, nb), p->deg[i]);
            return 1;
        }
    }
    x->parity_ok++;
    return 0;
}

/* A dead end on node v: only an odd node or the centre may be one. */
static int dead_check(dead_ctx *x, const pb_field *f, int v) {
    if (f->flags[v] & PB_ODD) x->dead_odd++;
    else if (v == f->centre) x->dead_centre++;
    else {
        char nb[8];
        setf(x->why, sizeof x->why, "a dead end on the even node %s", pb_node_name(f, v, nb));
        return 1;
    }
    return 0;
}

static int dead_route(void *c, const pb_field *f, const pb_position *before, pb_position *after,
                      const pb_route *r, int depth, uint64_t count) {
    (void)before, (void)depth, (void)count;
    if (r->end != PB_END_DEAD_END) return 0;
    return dead_check(c, f, after->ball);
}

static int dead_state(void *c, const pb_field *f, const pb_position *p, int steps) {
    return dead_position(c, f, p, steps, 1);
}

static int dead_step(void *c, const pb_field *f, const pb_position *before, const pb_position *after, int dir,
                     pb_step_result r, int loser, uint64_t count) {
    (void)before, (void)dir, (void)loser, (void)count;
    if (r != PB_STEP_DEAD_END) return 0;
    return dead_check(c, f, after->ball);
}

static void dead_note(const claim_walk *w, const pb_proofs_opts *o, const claim_field *cf, pb_proofs_result *res) {
    const dead_ctx *x = w->step.ctx;
    (void)o, (void)res;
    setf(cf->pf->note, sizeof cf->pf->note,
             "trail parity held in %llu states/positions; dead ends: %llu on odd nodes, %llu on the centre",
             (unsigned long long)x->parity_ok, (unsigned long long)x->dead_odd, (unsigned long long)x->dead_centre);
}

static int check_dead_end_odd(const pb_proofs_opts *o, pb_proofs_result *res) {
    static const dead_ctx fresh;
    dead_ctx x, xt;
    claim_walk w = {.turn = {dead_position, dead_route, &xt}, .step = {dead_state, dead_step, &x}, .fresh = &fresh,
                    .size = sizeof fresh, .why = offsetof(dead_ctx, why), .field = dead_note,
                    .holds = "Every dead end met is on an odd node or on the centre, and the trail parity (odd "
                             "drawn degree exactly at the centre and the ball, unless they coincide) holds in "
                             "every reachable position. "};
    return walk_claim(o, res, &w, NULL, NULL);
}

/* ------------------------------------------------------ 4 first-moves */

typedef struct first_ctx {
    int n;
    int16_t nodes[64][64];
    int len[64];
    pb_position after[64];
} first_ctx;

static int first_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    first_ctx *x = c;
    (void)f;
    if (x->n == 64 || r->len > 64) return 1;
    memcpy(x->nodes[x->n], r->nodes, sizeof(int16_t) * (size_t)r->len);
    x->len[x->n] = r->len;
    x->after[x->n] = *after;
    x->n++;
    return 0;
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

static int check_first_moves(const pb_proofs_opts *o, pb_proofs_result *res) {
    int expect = o->expect_classes > 0 ? o->expect_classes : 5;
    int maxd = o->max_dim > 0 ? o->max_dim : 20;
    int nf = 0, nclaim = 0, bad = 0;
    char small[PB_PROOFS_NOTE] = "";
    pb_field_spec one;
    int single = o->start || o->start_game || o->fields;
    if (single) one = o->fields ? o->fields[0] : book_spec(2, 6, 8);
    for (int w = 2; w <= maxd; w += 2)
        for (int l = 2; l <= maxd; l += 2)
            for (int g = 2; g <= w; g += 2) {
                pb_field_spec s = single ? one : book_spec(g, w, l);
                pb_field *f = make_field(&s, res);
                if (!f) return 2;
                pb_game gm;
                pb_position start;
                int d0;
                walk_start(o, f, &gm, &start, &d0);
                first_ctx *x = calloc(1, sizeof *x);
                pb_routes_foreach(f, &start, first_route, x);
                int lr, full, cl;
                first_classes(f, x, &lr, &full, &cl);
                nf++;
                char d[40];
                field_desc(&s, d, sizeof d);
                /* The claim covers fields whose centre has 8 empty neighbours. */
                int covered = s.width >= 4 && s.length >= 4;
                if (covered) nclaim++;
                if (s.goal == 2 && s.width == 6 && s.length == 8 && !single) {
                    pb_proofs_field *pf = add_field(res, &s);
                    pf->complete = 1, pf->routes = (uint64_t)x->n;
                    setf(pf->note, sizeof pf->note,
                             "the book's field: %d routes; %d classes under the left-right mirror; %d under the full "
                             "group (top-bottom swaps the players); %d if the players' colours are ignored",
                             x->n, lr, full, cl);
                }
                if (!covered && g == 2 && strlen(small) < sizeof small - 60)
                    notef(small, sizeof small, "%s%s %d routes/%d classes", small[0] ? ", " : "", d, x->n, lr);
                if ((covered || single) && (x->n != 8 || lr != expect)) {
                    if (!bad) {
                        set_cx(res, &gm, !o->start || o->start_game,
                               "%s: %d first routes in %d left-right classes, not 8 in %d", d, x->n, lr, expect);
                    }
                    bad++;
                }
                free(x);
                pb_game_free(&gm);
                pb_field_free(f);
                if (single) goto done;
            }
done:;
    pb_field_spec all = book_spec(2, maxd, maxd);
    pb_proofs_field *pf = add_field(res, &all);
    pf->complete = 1;
    pf->positions = (uint64_t)nf;
    setf(pf->note, sizeof pf->note, "%d fields (W, L <= %d), %d with W, L >= 4 covered by the claim; %d disagree",
             nf, maxd, nclaim, bad);
    if (small[0]) {
        pb_proofs_field *ps = add_field(res, &all);
        ps->complete = 1;
        setf(ps->note, sizeof ps->note, "narrow or short fields (outside the claim, G = 2): %s", small);
    }
    if (bad) {
        setf(res->summary, sizeof res->summary, "fails: %s", res->cx_what);
        return 1;
    }
    setf(res->summary, sizeof res->summary,
             "On every box field with W, L >= 4 (all %d of them up to %dx%d) the first turn has exactly 8 routes, "
             "one step each to the empty neighbours of the centre, in %d classes under the left-right mirror "
             "(E=W, NE=NW, SE=SW, N, S).  The top-bottom mirror swaps the players, so it joins no two first "
             "moves of the same player: the full group also gives %d; only with the colours ignored do N=S and "
             "NE=SE fold, leaving 3.",
             nclaim, maxd, maxd, expect, expect);
    return 0;
}

/* ---------------------------------------------------------- registry */

const pb_proofs_claim pb_proofs_claims[] = {
    {"empty-count",
     "A (n1;n2;n3) box field has N = 2(n1-1) + (n2-1)(n3-1) - 1 empty nodes at the start, and N is even, for "
     "every even n1 <= n2 and n3.",
     "Build every field up to the size limit; compare the field model's count, its node flags, an independent "
     "count from the definition (nodes with four playable cells, minus the centre) and the formula.",
     check_empty_count},
    {"moves-converted",
     "After t turns of a game that goes on, exactly t nodes have turned from empty to occupied; a finished game "
     "of t turns has converted exactly t - 1 (its last turn ends in a goal or a dead end on an occupied node).",
     "Step walk: every reachable state and every step (a stop adds exactly one converted node, other steps "
     "none); turn walk on the smallest fields: every distinct position per turn count, every finishing route.",
     check_moves_converted},
    {"last-move-red",
     "(The book) the route of the last turn of a game played to its end always ends on a red (odd) node.",
     "Every finishing step from every reachable state (breadth-first by segments drawn, so the first violation "
     "is a shortest one), routes cross-checked turn by turn on the smallest fields; then an iterative-deepening "
     "search for the shortest game ending trapped on the centre, also on (2;6;8) and (2;8;10).",
     check_last_red},
    {"last-move-exact",
     "The last route of a finished game ends on an odd node (a goal node, or a boundary node in a dead end) or "
     "in a dead end on the centre with all eight centre segments drawn; nothing else.",
     "Every finishing step from every reachable state (turn-level cross-check on the smallest fields); goal "
     "nodes checked odd; centre-trap search.",
     check_last_exact},
    {"first-moves",
     "There are five essentially different first moves: the eight routes from the centre fall into five classes "
     "under the left-right mirror.",
     "All routes of the first turn on every field up to the size limit; classes of routes under the left-right "
     "mirror, and of positions under the full symmetry group.",
     check_first_moves},
    {"no-draws", "Book games never end drawn: every finished game has a loser.",
     "Every finishing step from every reachable state (turn-level cross-check on the smallest fields): its "
     "loser is Top or Bottom.",
     check_no_draws},
    {"dead-end-odd",
     "A turn can end in a dead end only on an odd node or on the centre.",
     "Every dead-end step from every reachable state; the trail-parity invariant at every reachable state "
     "(within turns too); turn-level cross-check on the smallest fields.",
     check_dead_end_odd},
    {NULL, NULL, NULL, NULL},
};

const pb_proofs_claim *pb_proofs_find(const char *name) {
    for (const pb_proofs_claim *c = pb_proofs_claims; c->name; c++)
        if (!strcmp(c->name, name)) return c;
    return NULL;
}

pb_verdict pb_proofs_run(const pb_proofs_claim *c, const pb_proofs_opts *o, pb_proofs_result *res) {
    static const pb_proofs_opts defaults;
    if (!o) o = &defaults;
    memset(res, 0, sizeof *res);
    res->claim = c->name, res->statement = c->statement, res->method = c->method;
    int rc = c->check(o, res);
    res->verdict = rc == 0 ? PB_VERDICT_HOLDS : rc == 1 || rc == 2 ? PB_VERDICT_FAILS : PB_VERDICT_OPEN;
    return res->verdict;
}

void pb_proofs_result_free(pb_proofs_result *res) {
    free(res->fields);
    free(res->cx_record);
    free(res->cx_svg);
    res->fields = NULL, res->cx_record = res->cx_svg = NULL;
    res->nfields = res->capfields = 0;
}
