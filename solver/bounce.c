/* bounce.c - the bounce rule sets, book and hockey (docs/rules.md §2): a
 * turn is a chain of single steps that goes on while the ball lands on an
 * occupied node.  Its pb_ruleset is pb_bounce_rules. */
#include "ruleset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk {
    const pb_field *f;
    pb_position *p;
    pb_route_fn fn;
    void *ctx;
    int16_t *nodes;
    long count;
    int stopped;
} walk;

/* Depth-first over the steps of one turn.  nodes[0..len-1] is the route so
 * far, ending at the ball. */
static void walk_steps(walk *w, int len) {
    const pb_field *f = w->f;
    pb_position *p = w->p;
    int mover = p->to_move;
    for (int d = 0; d < 8 && !w->stopped; d++) {
        if (!pb_free(f, p, p->ball, d)) continue;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, p, d, &u, &loser);
        w->nodes[len] = p->ball;
        if (r == PB_STEP_BOUNCE) {
            walk_steps(w, len + 1);
        } else {
            pb_route route = {w->nodes, len + 1, mover, 0, PB_END_NONE, PB_NOBODY};
            if (r == PB_STEP_GOAL) route.end = PB_END_GOAL;
            if (r == PB_STEP_DEAD_END) route.end = PB_END_DEAD_END;
            route.loser = loser;
            w->count++;
            if (w->fn && w->fn(w->ctx, f, p, &route)) w->stopped = 1;
        }
        pb_unstep(f, p, &u);
    }
}

static long bounce_foreach(const pb_field *f, pb_position *p, pb_route_fn fn, void *ctx) {
    int16_t stack_nodes[512];
    int16_t *nodes = f->nsegments < 511 ? stack_nodes : malloc(sizeof(int16_t) * (size_t)(f->nsegments + 1));
    walk w = {f, p, fn, ctx, nodes, 0, 0};
    nodes[0] = p->ball;
    walk_steps(&w, 1);
    if (nodes != stack_nodes) free(nodes);
    return w.stopped ? -1 : w.count;
}

static const char *step_desc(const pb_field *f, int a, int b, char *buf, size_t len) {
    char na[8], nb[8];
    snprintf(buf, len, "%s-%s", pb_node_name(f, a, na), pb_node_name(f, b, nb));
    return buf;
}

/* The direction of the step a-b if it draws a new segment of the field,
 * else -1 with the message. */
static int free_step(const pb_field *f, const pb_position *p, int a, int b, char *err, size_t errlen) {
    char sb[24];
    int d;
    for (d = 0; d < 8; d++)
        if (pb_step_to(f, a, d) == b) break;
    if (d == 8 || !(f->flags[b] & PB_NODE) || abs(pb_x(f, a) - pb_x(f, b)) > 1) {
        snprintf(err, errlen, "%s is not a step to a neighbouring node", step_desc(f, a, b, sb, sizeof sb));
        return -1;
    }
    if (f->seg[a][d] < 0) {
        snprintf(err, errlen, "%s runs along the border or leaves the field", step_desc(f, a, b, sb, sizeof sb));
        return -1;
    }
    if (pb_drawn(p, f->seg[a][d])) {
        snprintf(err, errlen, "segment %s is already drawn", step_desc(f, a, b, sb, sizeof sb));
        return -1;
    }
    return d;
}

static int bounce_play(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick, pb_route *info,
                       char *err, size_t errlen) {
    char sb[24], nb[8];
    if (kick) {
        snprintf(err, errlen, "free kicks exist only in the triple rules");
        return -1;
    }
    if (len < 2) {
        snprintf(err, errlen, "a route needs at least two nodes");
        return -1;
    }
    if (nodes[0] != p->ball) {
        snprintf(err, errlen, "the route starts at %s but the ball is on %s", pb_node_name(f, nodes[0], sb),
                 pb_node_name(f, p->ball, nb));
        return -1;
    }
    pb_undo undo[len];
    int mover = p->to_move, k;
    pb_step_result r = PB_STEP_BOUNCE;
    int loser = PB_NOBODY;
    for (k = 1; k < len; k++) {
        int b = nodes[k], d = free_step(f, p, nodes[k - 1], b, err, errlen);
        if (d < 0) break;
        r = pb_step(f, p, d, &undo[k], &loser);
        if (r != PB_STEP_BOUNCE && k < len - 1) {
            const char *why = r == PB_STEP_STOP   ? "the turn stops on the empty node"
                              : r == PB_STEP_GOAL ? "the game ends with a goal at"
                                                  : "the turn ends in a dead end at";
            snprintf(err, errlen, "%s %s, yet the route goes on", why, pb_node_name(f, b, nb));
            k++;
            break;
        }
        if (r == PB_STEP_BOUNCE && k == len - 1) {
            snprintf(err, errlen, "the route ends on %s, an occupied node: the same player must go on",
                     pb_node_name(f, b, nb));
            k++;
            break;
        }
    }
    if (k < len || (r == PB_STEP_BOUNCE)) {
        for (int j = k - 1; j >= 1; j--) pb_unstep(f, p, &undo[j]);
        return -1;
    }
    info->nodes = nodes;
    info->len = len;
    info->mover = mover;
    info->kick = 0;
    info->end = r == PB_STEP_GOAL ? PB_END_GOAL : r == PB_STEP_DEAD_END ? PB_END_DEAD_END : PB_END_NONE;
    info->loser = loser;
    return 0;
}

/* Every step draws a new segment. */
static int bounce_max_route(const pb_field *f) { return f->nsegments + 1; }

const pb_ruleset pb_bounce_rules = {bounce_foreach, bounce_play, bounce_max_route, 1, "single steps"};
