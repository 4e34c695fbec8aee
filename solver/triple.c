/* triple.c - the triple rule set (docs/rules.md §3, docs/triple.md):
 * normal moves of exactly three links through untouched inner nodes, and
 * free-kick chains of six-step straight kicks that reflect off the posts.
 *
 * One ply is either a normal move of the player to move or, when that
 * player has none, one whole free-kick chain of the opponent.  Plies are
 * found by depth-first search over directions E, NE, N, NW, W, SW, S, SE;
 * the position is changed only to hand `after` to the callback and is
 * restored before the search goes on.
 */
#include "triple.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "ruleset.h"

static const char *dir_names[8] = {"E", "NE", "N", "NW", "W", "SW", "S", "SE"};

/* Why a step of a normal move or a kick is refused. */
typedef enum {
    WHY_OK = 0,
    WHY_SEGMENT,     /* not a legal segment: border or outside the region */
    WHY_POST,        /* a normal move onto a post */
    WHY_BOUNDARY,    /* a normal move onto another boundary node */
    WHY_TWICE,       /* a node already on this move */
    WHY_TOUCHED,     /* a touched node */
    WHY_CROSS_DRAWN, /* crosses a drawn diagonal */
    WHY_CROSS_OWN,   /* crosses an earlier link of the same move */
    WHY_DRAWN        /* a kick step along a segment drawn before the kick */
} why_code;

/* ---- normal moves ---------------------------------------------------- */

/* Checks the step number k (1-based) of a normal move, from path[k-1] in
 * direction d, given the earlier nodes path[0..k-1] and links
 * links[0..k-2].  Returns 1 when the step scores (it reaches a goal node),
 * 0 when it is a legal step to an untouched inner node, -1 otherwise with
 * the reason in *why. */
static int move_step(const pb_field *f, const pb_position *p, const int16_t *path, const int16_t *links, int k, int d,
                     why_code *why) {
    int a = path[k - 1], s = f->seg[a][d];
    if (s < 0) return *why = WHY_SEGMENT, -1;
    int b = pb_step_to(f, a, d), cross = f->segs[s].cross;
    if (cross >= 0 && pb_drawn(p, cross)) return *why = WHY_CROSS_DRAWN, -1;
    for (int j = 0; j < k - 1; j++)
        if (cross >= 0 && links[j] == cross) return *why = WHY_CROSS_OWN, -1;
    /* A goal node lies behind a goal line: reaching it scores at once,
     * whatever kind of node it is (it is a boundary node). */
    if (f->flags[b] & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) return *why = WHY_OK, 1;
    if (f->flags[b] & PB_POST) return *why = WHY_POST, -1;
    if (f->flags[b] & PB_BOUNDARY) return *why = WHY_BOUNDARY, -1;
    for (int j = 0; j < k; j++)
        if (path[j] == b) return *why = WHY_TWICE, -1;
    if (pb_occupied(f, p, b)) return *why = WHY_TOUCHED, -1;
    return *why = WHY_OK, 0;
}

typedef struct walk {
    const pb_field *f;
    pb_position *p;
    pb_route_fn fn;
    void *ctx;
    int16_t *nodes;   /* the route being built */
    int16_t links[3]; /* segments of a normal move */
    long count;
    int stopped;
    int first_only; /* stop at the first ply found (existence test) */
} walk;

/* Hands one route to the callback (or just counts it). */
static void emit(walk *w, int len, int kick, pb_end end, int loser) {
    w->count++;
    if (w->first_only) {
        w->stopped = 1;
        return;
    }
    /* A normal move's `after` has to_move flipped already; a kick chain's
     * keeps the stuck player.  Either way the mover is the other one. */
    pb_route r = {w->nodes, len, w->p->to_move ^ 1, kick, end, loser};
    /* A ply after which the player to move is stuck and no kick exists
     * ends the game in a draw (docs/rules.md §3): the ply itself carries that
     * end, so every caller sees a finished game without asking again. */
    if (end == PB_END_NONE && pb_triple_finished(w->f, w->p)) r.end = PB_END_NO_KICK, r.loser = PB_NOBODY;
    if (w->fn && w->fn(w->ctx, w->f, w->p, &r)) w->stopped = 1;
}

/* Depth-first over the links of a normal move: nodes[0..k-1] so far. */
static void moves_dfs(walk *w, int k) {
    const pb_field *f = w->f;
    pb_position *p = w->p;
    for (int d = 0; d < 8 && !w->stopped; d++) {
        why_code why;
        int r = move_step(f, p, w->nodes, w->links, k, d, &why);
        if (r < 0) continue;
        int a = w->nodes[k - 1];
        w->nodes[k] = (int16_t)pb_step_to(f, a, d);
        w->links[k - 1] = f->seg[a][d];
        if (r == 0 && k < 3) {
            moves_dfs(w, k + 1);
            continue;
        }
        if (w->first_only) {
            emit(w, k + 1, 0, PB_END_NONE, PB_NOBODY);
            continue;
        }
        int from = p->ball, mover = p->to_move;
        for (int j = 0; j < k; j++) pb_draw_segment(f, p, w->links[j]);
        pb_set_ball(f, p, w->nodes[k]);
        pb_set_to_move(f, p, mover ^ 1);
        if (r == 1) emit(w, k + 1, 0, PB_END_GOAL, pb_goal_owner(f, w->nodes[k]));
        else emit(w, k + 1, 0, PB_END_NONE, PB_NOBODY);
        pb_set_to_move(f, p, mover);
        pb_set_ball(f, p, from);
        for (int j = k - 1; j >= 0; j--) pb_erase_segment(f, p, w->links[j]);
    }
}

int pb_triple_has_move(const pb_field *f, const pb_position *p) {
    int16_t nodes[4] = {p->ball, 0, 0, 0};
    walk w = {f, (pb_position *)p, NULL, NULL, nodes, {0, 0, 0}, 0, 0, 1};
    moves_dfs(&w, 1); /* first_only: p is never written */
    return w.count > 0;
}

/* ---- free kicks ------------------------------------------------------ */

/* The path of one kick: nodes[0] is where it starts, nodes[n] where it
 * ends; segs[j] joins nodes[j] and nodes[j + 1]. */
typedef struct kick_path {
    int16_t nodes[7];
    int16_t segs[6];
    int n;      /* steps taken (6, fewer when it scores or is refused) */
    int goal;   /* the last step reached a goal node */
    int dir[6]; /* direction of each step (after reflections) */
} kick_path;

/* Traces the kick from node `from` in direction d on p, whose drawn
 * segments are those "drawn before this kick".  Returns 0 when the
 * direction may be chosen, -1 with the reason in *why (kp->n is then the
 * step that failed, 0-based). */
static int kick_trace(const pb_field *f, const pb_position *p, int from, int d, kick_path *kp, why_code *why) {
    int cur = from;
    kp->nodes[0] = (int16_t)from;
    kp->goal = 0;
    for (int step = 0; step < 6; step++) {
        int s = f->seg[cur][d];
        kp->n = step;
        kp->dir[step] = d;
        if (s < 0) return *why = WHY_SEGMENT, -1;
        /* Only segments drawn before this kick are closed: a kick that
         * comes back along itself after a post is allowed (docs/triple.md). */
        if (pb_drawn(p, s)) return *why = WHY_DRAWN, -1;
        cur = pb_step_to(f, cur, d);
        kp->segs[step] = (int16_t)s;
        kp->nodes[step + 1] = (int16_t)cur;
        if (f->flags[cur] & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) {
            kp->n = step + 1;
            kp->goal = 1;
            return *why = WHY_OK, 0;
        }
        if ((f->flags[cur] & PB_POST) && step < 5) d = pb_triple_reflect(d);
    }
    kp->n = 6;
    return *why = WHY_OK, 0;
}

int pb_triple_has_kick(const pb_field *f, const pb_position *p) {
    kick_path kp;
    why_code why;
    for (int d = 0; d < 8; d++)
        if (kick_trace(f, p, p->ball, d, &kp, &why) == 0) return 1;
    return 0;
}

/* Draws the kick's segments (each once: a kick may come back along
 * itself) and moves the ball.  Returns the number of segments drawn,
 * listed in drawn[]. */
static int kick_apply(const pb_field *f, pb_position *p, const kick_path *kp, int16_t *drawn) {
    int m = 0;
    for (int j = 0; j < kp->n; j++)
        if (!pb_drawn(p, kp->segs[j])) {
            pb_draw_segment(f, p, kp->segs[j]);
            drawn[m++] = kp->segs[j];
        }
    assert(m >= 1); /* the first step is never drawn before: chains end */
    pb_set_ball(f, p, kp->nodes[kp->n]);
    return m;
}

static void kick_undo(const pb_field *f, pb_position *p, const int16_t *drawn, int m, int ball) {
    for (int j = m - 1; j >= 0; j--) pb_erase_segment(f, p, drawn[j]);
    pb_set_ball(f, p, ball);
}

/* Depth-first over the kicks of a chain: nodes[0..len-1] so far, the ball
 * on nodes[len-1]. */
static void kicks_dfs(walk *w, int len) {
    const pb_field *f = w->f;
    pb_position *p = w->p;
    int legal = 0;
    for (int d = 0; d < 8 && !w->stopped; d++) {
        kick_path kp;
        why_code why;
        if (kick_trace(f, p, p->ball, d, &kp, &why)) continue;
        legal++;
        int from = p->ball, end = kp.nodes[kp.n];
        /* Touched before this kick (boundary nodes count: pb_occupied). */
        int touched = pb_occupied(f, p, end);
        int16_t drawn[6];
        int m = kick_apply(f, p, &kp, drawn);
        for (int j = 1; j <= kp.n; j++) w->nodes[len - 1 + j] = kp.nodes[j];
        int nlen = len + kp.n;
        if (kp.goal) emit(w, nlen, 1, PB_END_GOAL, pb_goal_owner(f, end));
        else if (touched) kicks_dfs(w, nlen);
        else emit(w, nlen, 1, PB_END_NONE, PB_NOBODY);
        kick_undo(f, p, drawn, m, from);
    }
    /* A continuation kick without a legal direction ends the game drawn;
     * at the start of a chain there is no ply at all. */
    if (legal == 0 && len > 1) emit(w, len, 1, PB_END_NO_KICK, PB_NOBODY);
}

long pb_triple_foreach(const pb_field *f, pb_position *p, pb_route_fn fn, void *ctx) {
    assert(f->box && pb_is_node(f, p->ball) && p->to_move <= PB_TOP);
    int16_t small[4];
    walk w = {f, p, fn, ctx, small, {0, 0, 0}, 0, 0, 0};
    small[0] = p->ball;
    moves_dfs(&w, 1);
    if (w.count == 0 && !w.stopped) {
        /* Stuck: the opponent's free-kick chains are the plies. */
        w.nodes = malloc(sizeof(int16_t) * (size_t)pb_triple_max_route(f));
        if (!w.nodes) return -1;
        w.nodes[0] = p->ball;
        kicks_dfs(&w, 1);
        free(w.nodes);
    }
    return w.stopped ? -1 : w.count;
}

/* ---- playing a given route ------------------------------------------- */

/* The direction from a to b, or -1 if b is not a king-neighbour of a. */
static int dir_between(const pb_field *f, int a, int b) {
    for (int d = 0; d < 8; d++) {
        int x = pb_x(f, a) + pb_dir_dx[d], y = pb_y(f, a) + pb_dir_dy[d];
        if (x >= 0 && x < f->cols && y >= 0 && y < f->rows && pb_at(f, x, y) == b) return d;
    }
    return -1;
}

static const char *name(const pb_field *f, int i, char *buf) { return pb_node_name(f, i, buf); }

/* The message for a link a-b of a move that move_step refused (why):
 * -1 with it in err, or 0 if the link is fine. */
static int link_refused(const pb_field *f, int a, int b, why_code why, const char *rt, char *err, size_t errlen) {
    char na[8], nb[8];
    const char *msg = NULL;
    switch (why) {
        case WHY_SEGMENT: msg = "runs along the border or leaves the field"; break;
        case WHY_CROSS_DRAWN: msg = "crosses a drawn line"; break;
        case WHY_CROSS_OWN: msg = "crosses an earlier link of the move"; break;
        default: break;
    }
    if (msg) {
        snprintf(err, errlen, "%s: %s-%s %s", rt, name(f, a, na), name(f, b, nb), msg);
        return -1;
    }
    switch (why) {
        case WHY_POST: msg = "is a post"; break;
        case WHY_BOUNDARY: msg = "is on the boundary"; break;
        case WHY_TWICE: msg = "is already on the move"; break;
        case WHY_TOUCHED: msg = "is touched"; break;
        default: break;
    }
    if (msg) {
        snprintf(err, errlen, "%s: node %s %s", rt, name(f, b, nb), msg);
        return -1;
    }
    return 0;
}

static int play_move(const pb_field *f, pb_position *p, const int16_t *nodes, int len, pb_route *info, const char *rt,
                     char *err, size_t errlen) {
    char na[8], nb[8];
    int16_t links[3];
    int goal = 0;
    if (len > 4) {
        snprintf(err, errlen, "%s: a move has at most three links", rt);
        return -1;
    }
    for (int k = 1; k < len; k++) {
        int a = nodes[k - 1], b = nodes[k];
        int d = dir_between(f, a, b);
        if (d < 0) {
            snprintf(err, errlen, "%s: %s-%s is not a step to a neighbouring node", rt, name(f, a, na), name(f, b, nb));
            return -1;
        }
        why_code why;
        int r = move_step(f, p, nodes, links, k, d, &why);
        if (link_refused(f, a, b, why, rt, err, errlen)) return -1;
        links[k - 1] = f->seg[a][d];
        if (r == 1) {
            if (k < len - 1) {
                snprintf(err, errlen, "%s: the move scores at %s, yet the route goes on", rt, name(f, b, nb));
                return -1;
            }
            goal = 1;
        }
    }
    if (!goal && len != 4) {
        snprintf(err, errlen, "%s: a move has exactly three links unless it scores", rt);
        return -1;
    }
    int mover = p->to_move;
    for (int k = 0; k < len - 1; k++) pb_draw_segment(f, p, links[k]);
    pb_set_ball(f, p, nodes[len - 1]);
    pb_set_to_move(f, p, mover ^ 1);
    *info = (pb_route){
        nodes, len, mover, 0, goal ? PB_END_GOAL : PB_END_NONE, goal ? pb_goal_owner(f, nodes[len - 1]) : PB_NOBODY};
    return 0;
}

/* The kick from nodes[0] towards nodes[1] (into *kp), which the route's
 * next nodes (n >= 2 of them, nodes[0] included) must follow to its end:
 * 0, or -1 with the message. */
static int trace_kick(const pb_field *f, const pb_position *p, const int16_t *nodes, int n, kick_path *kp,
                      const char *rt, char *err, size_t errlen) {
    char na[8], nb[8], nc[8];
    int cur = nodes[0], d = dir_between(f, cur, nodes[1]);
    if (d < 0) {
        snprintf(err, errlen, "%s: %s-%s is not a step to a neighbouring node", rt, name(f, cur, na),
                 name(f, nodes[1], nb));
        return -1;
    }
    why_code why;
    if (kick_trace(f, p, cur, d, kp, &why)) {
        int at = kp->nodes[kp->n], to = pb_step_to(f, at, kp->dir[kp->n]);
        if (why == WHY_DRAWN)
            snprintf(err, errlen, "%s: the kick from %s to the %s would run along the drawn segment %s-%s", rt,
                     name(f, cur, na), dir_names[d], name(f, at, nb), name(f, to, nc));
        else
            snprintf(err, errlen, "%s: the kick from %s to the %s would leave the field or run along the border at %s",
                     rt, name(f, cur, na), dir_names[d], name(f, at, nb));
        return -1;
    }
    int j;
    for (j = 1; j <= kp->n && j < n; j++)
        if (nodes[j] != kp->nodes[j]) break;
    if (j <= kp->n && j < n) {
        snprintf(err, errlen, "%s: the kick from %s to the %s reaches %s at step %d, not %s", rt, name(f, cur, na),
                 dir_names[d], name(f, kp->nodes[j], nb), j, name(f, nodes[j], nc));
        return -1;
    }
    if (j <= kp->n) {
        snprintf(err, errlen, "%s: the route stops in the middle of the kick from %s (a kick has six steps)", rt,
                 name(f, cur, na));
        return -1;
    }
    return 0;
}

/* Free kicks are played only when no normal move exists and a kick
 * does: -1 with the message, or 0. */
static int kicks_refused(const pb_field *f, const pb_position *p, const char *rt, char *err, size_t errlen) {
    char na[8];
    if (pb_triple_has_move(f, p)) {
        snprintf(err, errlen, "%s: a free kick is not allowed: the player to move has a normal move", rt);
        return -1;
    }
    if (!pb_triple_has_kick(f, p)) {
        snprintf(err, errlen, "%s: no free kick exists from %s: the game is over, a draw", rt, name(f, p->ball, na));
        return -1;
    }
    return 0;
}

static int play_kicks(const pb_field *f, pb_position *p, const int16_t *nodes, int len, pb_route *info, const char *rt,
                      char *err, size_t errlen) {
    char na[8];
    if (kicks_refused(f, p, rt, err, errlen)) return -1;
    int ball0 = p->ball, ndrawn = 0, pos = 0, fail = 0;
    pb_end end = PB_END_NONE;
    int loser = PB_NOBODY;
    int16_t *drawn = malloc(sizeof(int16_t) * (size_t)(f->nsegments + 1));
    if (!drawn) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (;;) {
        int cur = nodes[pos];
        if (pos == len - 1) {
            /* The route stops where a continuation kick is due. */
            if (pb_triple_has_kick(f, p)) {
                snprintf(err, errlen,
                         "%s: the kick ends on %s, a touched or boundary node: the same player kicks again", rt,
                         name(f, cur, na));
                fail = 1;
            } else {
                end = PB_END_NO_KICK;
            }
            break;
        }
        kick_path kp;
        if (trace_kick(f, p, nodes + pos, len - pos, &kp, rt, err, errlen)) {
            fail = 1;
            break;
        }
        int touched = pb_occupied(f, p, kp.nodes[kp.n]);
        ndrawn += kick_apply(f, p, &kp, drawn + ndrawn);
        pos += kp.n;
        if (kp.goal) {
            if (pos != len - 1) {
                snprintf(err, errlen, "%s: the kick scores at %s, yet the route goes on", rt, name(f, nodes[pos], na));
                fail = 1;
            } else {
                end = PB_END_GOAL;
                loser = pb_goal_owner(f, nodes[pos]);
            }
            break;
        }
        if (!touched) {
            if (pos != len - 1) {
                snprintf(err, errlen,
                         "%s: the kick ends on %s, an untouched node, so the chain is over, yet the route goes on", rt,
                         name(f, nodes[pos], na));
                fail = 1;
            }
            break;
        }
    }
    if (fail) kick_undo(f, p, drawn, ndrawn, ball0);
    free(drawn);
    if (fail) return -1;
    *info = (pb_route){nodes, len, p->to_move ^ 1, 1, end, loser};
    return 0;
}

int pb_triple_play(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick, pb_route *info,
                   char *err, size_t errlen) {
    assert(f->box && pb_is_node(f, p->ball) && p->to_move <= PB_TOP);
    char rt[160], na[8], nb[8];
    if (len < 2) {
        snprintf(err, errlen, "a %s needs at least two nodes", kick ? "kick chain" : "move");
        return -1;
    }
    for (int k = 0; k < len; k++)
        if (nodes[k] < 0 || nodes[k] >= f->nlattice || !pb_is_node(f, nodes[k])) {
            snprintf(err, errlen, "node number %d of the route is not a node of the field", k + 1);
            return -1;
        }
    pb_route_format(f, nodes, len, kick, rt, sizeof rt);
    if (nodes[0] != p->ball) {
        snprintf(err, errlen, "%s: the route starts at %s but the ball is on %s", rt, name(f, nodes[0], na),
                 name(f, p->ball, nb));
        return -1;
    }
    int rc =
        kick ? play_kicks(f, p, nodes, len, info, rt, err, errlen) : play_move(f, p, nodes, len, info, rt, err, errlen);
    if (rc == 0 && info->end == PB_END_NONE && pb_triple_finished(f, p)) {
        info->end = PB_END_NO_KICK;
        info->loser = PB_NOBODY;
    }
    return rc;
}

static int triple_max_route(const pb_field *f) { return pb_triple_max_route(f); }

const pb_ruleset pb_triple_rules = {pb_triple_foreach, pb_triple_play, triple_max_route, 0, "plies"};
