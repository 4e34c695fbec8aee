/* turnwalk_shim.c - a stand-in for solver/turnwalk.c until it lands: the
 * same API over pb_routes_foreach (one outcome per route, so outcomes may
 * repeat; the tablebase does not mind repeats). */
#include <stdlib.h>

#include "turnwalk.h"

struct pb_turnwalk {
    const pb_field *f;
};

pb_turnwalk *pb_turnwalk_new(const pb_field *f) {
    pb_turnwalk *tw = calloc(1, sizeof *tw);
    tw->f = f;
    return tw;
}
void pb_turnwalk_free(pb_turnwalk *tw) { free(tw); }
void pb_turnwalk_set_limit(pb_turnwalk *tw, size_t max_positions) { (void)tw, (void)max_positions; }
size_t pb_turnwalk_visited(const pb_turnwalk *tw) { (void)tw; return 0; }

typedef struct shim {
    pb_outcome_fn fn;
    void *ctx;
} shim;

static int one(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    shim *s = ctx;
    pb_turn_outcome o = {after, r->end, r->loser, r->mover, r->kick, 1, 0};
    return s->fn(s->ctx, f, &o);
}

long pb_turn_outcomes(pb_turnwalk *tw, const pb_position *p, pb_outcome_fn fn, void *ctx) {
    pb_position q = *p;
    shim s = {fn, ctx};
    return pb_routes_foreach(tw->f, &q, one, &s);
}

int pb_turn_can_score(pb_turnwalk *tw, const pb_position *p) { (void)tw, (void)p; return 0; }
