/* dead-end-odd.c - the claim dead-end-odd (argument: dead-end-odd.md): a
 * dead end happens only on an odd node or the centre, with the trail
 * parity behind it checked in every reachable state. */
#include "frame.h"

typedef struct dead_ctx {
    pb_claim_ctx head; /* first: the frame writes and reads why */
    uint64_t parity_ok, dead_odd, dead_centre;
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
            pb_claim_setf(x->head.why, sizeof x->head.why, "node %s has %d drawn segments, against the trail parity",
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
        pb_claim_setf(x->head.why, sizeof x->head.why, "a dead end on the even node %s", pb_node_name(f, v, nb));
        return 1;
    }
    return 0;
}

static int dead_route(void *c, const pb_field *f, const pb_position *before, pb_position *after, const pb_route *r,
                      int depth, uint64_t count) {
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

static void dead_note(const pb_claim_walk *w, const pb_proofs_opts *o, const pb_claim_field *cf,
                      pb_proofs_result *res) {
    const dead_ctx *x = w->step.ctx;
    (void)o, (void)res;
    pb_claim_setf(cf->pf->note, sizeof cf->pf->note,
                  "trail parity held in %llu states/positions; dead ends: %llu on odd nodes, %llu on the centre",
                  (unsigned long long)x->parity_ok, (unsigned long long)x->dead_odd,
                  (unsigned long long)x->dead_centre);
}

pb_check_outcome pb_claim_dead_end_odd(const pb_proofs_opts *o, pb_proofs_result *res) {
    static const dead_ctx fresh;
    dead_ctx x, xt;
    pb_claim_walk w = {.turn = {dead_position, dead_route, &xt},
                       .step = {dead_state, dead_step, &x},
                       .fresh = &fresh,
                       .size = sizeof fresh,
                       .field = dead_note,
                       .holds = "Every dead end met is on an odd node or on the centre, and the trail parity (odd "
                                "drawn degree exactly at the centre and the ball, unless they coincide) holds in "
                                "every reachable position. "};
    return pb_claim_walk_fields(o, res, &w, NULL, NULL);
}
