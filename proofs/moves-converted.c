/* moves-converted.c - the claim moves-converted (argument:
 * moves-converted.md): the turns made equal the nodes turned from empty to
 * occupied. */
#include "frame.h"

/* Nodes turned from empty to occupied: not occupied at the start, and a
 * segment drawn at them.  Counted from the definition. */
static int converted_nodes(const pb_field *f, const pb_position *p) {
    int n = 0;
    for (int i = 0; i < f->nlattice; i++)
        if ((f->flags[i] & PB_NODE) && !(f->flags[i] & PB_OCCUPIED0) && p->deg[i]) n++;
    return n;
}

typedef struct conv_ctx {
    pb_claim_ctx head; /* first: the frame writes and reads why */
    uint64_t positions_ok, finished_ok, steps_ok;
} conv_ctx;

static int conv_position(void *c, const pb_field *f, const pb_position *p, int depth, uint64_t count) {
    conv_ctx *x = c;
    (void)count;
    int n = converted_nodes(f, p);
    if (n != depth) {
        pb_claim_setf(x->head.why, sizeof x->head.why, "after %d turns %d nodes were converted", depth, n);
        return 1;
    }
    x->positions_ok++;
    return 0;
}

static int conv_route(void *c, const pb_field *f, const pb_position *before, pb_position *after, const pb_route *r,
                      int depth, uint64_t count) {
    conv_ctx *x = c;
    (void)before, (void)count;
    if (r->end == PB_END_NONE) return 0;
    int n = converted_nodes(f, after);
    /* A finished game of depth+1 turns: the last turn ends on an occupied node
     * (goal node or dead end) and bounced only through occupied ones. */
    if (n != depth) {
        pb_claim_setf(x->head.why, sizeof x->head.why, "a game finished after %d turns with %d nodes converted",
                      depth + 1, n);
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
        pb_claim_setf(x->head.why, sizeof x->head.why, "step %s-%s (%s) took the converted nodes from %d to %d",
                      pb_node_name(f, before->ball, a), pb_node_name(f, pb_step_to(f, before->ball, dir), b),
                      r == PB_STEP_STOP     ? "stop"
                      : r == PB_STEP_BOUNCE ? "bounce"
                      : r == PB_STEP_GOAL   ? "goal"
                                            : "dead end",
                      c0, c1);
        return 1;
    }
    x->steps_ok++;
    return 0;
}

static void conv_note(const pb_claim_walk *w, const pb_proofs_opts *o, const pb_claim_field *cf,
                      pb_proofs_result *res) {
    const conv_ctx *x = w->step.ctx, *xt = w->turn.ctx;
    pb_proofs_field *pf = cf->pf;
    (void)o, (void)res;
    if (pf->stepwalk)
        pb_claim_notef(pf->note, sizeof pf->note, "steps: %llu with converted +1 exactly on a stop",
                       (unsigned long long)x->steps_ok);
    if (pf->turnwalk)
        pb_claim_notef(pf->note, sizeof pf->note,
                       "%sturn walk: %llu positions with converted = turns, %llu finishing routes with converted = "
                       "turns - 1",
                       pf->stepwalk ? "; " : "", (unsigned long long)xt->positions_ok,
                       (unsigned long long)xt->finished_ok);
}

pb_check_outcome pb_claim_moves_converted(const pb_proofs_opts *o, pb_proofs_result *res) {
    static const conv_ctx fresh;
    conv_ctx x, xt;
    pb_claim_walk w = {.turn = {conv_position, conv_route, &xt},
                       .step = {NULL, conv_step, &x},
                       .fresh = &fresh,
                       .size = sizeof fresh,
                       .field = conv_note,
                       .holds = "In every reachable position (between turns) the number of turns made equals the "
                                "number of nodes turned from empty to occupied; in every finished game of t turns "
                                "exactly t - 1 nodes were converted (the last turn ends on an occupied node).  "};
    return pb_claim_walk_fields(o, res, &w, NULL, NULL);
}
