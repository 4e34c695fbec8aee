/* no-draws.c - the claim no-draws (argument: no-draws.md): every finished
 * book game has a loser. */
#include "frame.h"

typedef struct draw_ctx {
    pb_claim_ctx head; /* first: the frame writes and reads why */
    uint64_t won;
} draw_ctx;

/* The end of a finished game, by a goal or a dead end: someone must lose. */
static int draw_check(draw_ctx *x, int loser, int goal) {
    if (loser != PB_BOTTOM && loser != PB_TOP) {
        pb_claim_setf(x->head.why, sizeof x->head.why, "a game ends drawn (%s)", goal ? "goal" : "dead end");
        return 1;
    }
    x->won++;
    return 0;
}

static int draw_route(void *c, const pb_field *f, const pb_position *before, pb_position *after, const pb_route *r,
                      int depth, uint64_t count) {
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

static void draw_note(const pb_claim_walk *w, const pb_proofs_opts *o, const pb_claim_field *cf,
                      pb_proofs_result *res) {
    const draw_ctx *x = w->step.ctx;
    (void)o, (void)res;
    pb_claim_setf(cf->pf->note, sizeof cf->pf->note, "%llu finishing steps/routes, each with a loser",
                  (unsigned long long)x->won);
}

pb_check_outcome pb_claim_no_draws(const pb_proofs_opts *o, pb_proofs_result *res) {
    static const draw_ctx fresh;
    draw_ctx x, xt;
    pb_claim_walk w = {.turn = {NULL, draw_route, &xt},
                       .step = {NULL, draw_step, &x},
                       .fresh = &fresh,
                       .size = sizeof fresh,
                       .field = draw_note,
                       .holds = "Every finished game has a loser: a goal loses for the goal's owner, a dead end for "
                                "the mover. "};
    return pb_claim_walk_fields(o, res, &w, NULL, NULL);
}
