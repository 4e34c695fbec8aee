/* play_solver.c - the solver's side of `paperball play --vs-solver`: its
 * turns, and the answers to "value" and "hint".  The game loop, the board,
 * moves, undo and record are those of two-person play (cmd_play.c).
 *
 * Every question to the solver has a time limit (--time-limit, default
 * PLAY_SOLVER_LIMIT): a position it cannot solve in that time is announced
 * at once as beyond its reach, and until it comes within reach the solver
 * plays a plain turn (one that wins at once, else one that does not end the
 * game) marked "unproven"; from the first position it solves on, it plays
 * perfectly and says so. */
#include <stdlib.h>
#include <string.h>

#include "../solver/match_search.h"
#include "../solver/search.h"
#include "cli.h"
#include "play.h"

/* Seconds for one question by default: short, so that a person never
 * waits long for the news that a position is beyond reach. */
#define PLAY_SOLVER_LIMIT 5.0

struct pb_play_solver {
    const pb_field *f;
    pb_solver *s;
    pb_match_solver *m; /* --match: the match solver instead of s */
    double limit;
    int beyond; /* the last question went unanswered */
    int16_t *nodes;
    int cap;
};

pb_play_solver *pb_play_solver_new(const pb_opts *o, const pb_field *f) {
    pb_play_solver *ps = calloc(1, sizeof *ps);
    if (!ps) return NULL;
    ps->f = f;
    size_t memory = o->memory ? (size_t)pb_parse_size(o->memory) : 0;
    if (o->match) ps->m = pb_match_solver_new(f, memory);
    else ps->s = pb_solver_new(f, memory);
    ps->cap = pb_route_max(f);
    ps->nodes = malloc(sizeof(int16_t) * (size_t)ps->cap);
    if (!(ps->s || ps->m) || !ps->nodes) {
        pb_play_solver_free(ps);
        return NULL;
    }
    ps->limit = o->time_limit > 0 ? o->time_limit : PLAY_SOLVER_LIMIT;
    if (ps->m) pb_match_solver_set_limit(ps->m, ps->limit);
    else pb_solver_set_limit(ps->s, ps->limit);
    return ps;
}

void pb_play_solver_free(pb_play_solver *ps) {
    if (!ps) return;
    if (ps->s) pb_solver_free(ps->s);
    pb_match_solver_free(ps->m);
    free(ps->nodes);
    free(ps);
}

/* Who chooses the next ply: the player to move, or in triple the opponent
 * when the player to move is stuck (a kick chain); PB_NOBODY if there is
 * no ply at all. */
static int first_mover(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f, (void)after;
    *(int *)ctx = r->mover;
    return 1;
}

int pb_play_chooser(const pb_field *f, pb_game *g) {
    int mover = PB_NOBODY;
    pb_routes_foreach(f, &g->pos, first_mover, &mover);
    return mover;
}

/* The announcements when the solver's reach changes. */
static void note_reach(pb_play_solver *ps, int answered) {
    if (!answered && !ps->beyond)
        printf("note: this position is beyond the solver's reach (no proof within %g s); it plays\n"
               "      unproven turns until the position comes within reach\n",
               ps->limit);
    else if (answered && ps->beyond)
        puts("note: the position is within the solver's reach now: perfect play from here");
    ps->beyond = !answered;
}

/* A plain turn for a position beyond reach: one that wins at once, else
 * the first that does not end the game, else the first. */
typedef struct plain_pick {
    int16_t *nodes;
    int cap, len, kick, rank; /* rank: 3 wins, 2 goes on, 1 anything */
} plain_pick;

static int pick_plain(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    (void)f, (void)after;
    plain_pick *p = ctx;
    int rank = r->end == PB_END_NONE ? 2 : r->loser != PB_NOBODY && r->loser != r->mover ? 3 : 1;
    if (rank > p->rank && r->len <= p->cap) {
        memcpy(p->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
        p->len = r->len, p->kick = r->kick, p->rank = rank;
    }
    return rank == 3;
}

/* A best route into ps->nodes (0: none within the limit) and its value in
 * words ("win", or in a match "goal difference +1"). */
static int best_route(pb_play_solver *ps, pb_game *g, int *kick, char *value, size_t vlen) {
    int v = PB_UNKNOWN, len;
    if (ps->m) {
        len = pb_match_solver_best(ps->m, &g->pos, ps->nodes, ps->cap, kick, &v);
        snprintf(value, vlen, "goal difference %+d", v);
    } else {
        len = pb_solver_best_route(ps->s, &g->pos, ps->nodes, ps->cap, kick, &v);
        snprintf(value, vlen, "%s", pb_value_name(v));
    }
    if (len == 0) snprintf(value, vlen, "unproven");
    return len;
}

int pb_play_solver_turn(pb_play_solver *ps, pb_game *g) {
    int kick = 0;
    char value[48];
    int len = best_route(ps, g, &kick, value, sizeof value);
    note_reach(ps, len > 0);
    if (len == 0) {
        plain_pick p = {ps->nodes, ps->cap, 0, 0, 0};
        pb_routes_foreach(ps->f, &g->pos, pick_plain, &p);
        if (p.len == 0) return pb_fail(PB_EXIT_FAIL, "the solver found no turn");
        len = p.len, kick = p.kick;
    }
    char route[4096], err[256];
    pb_route_format(ps->f, ps->nodes, len, kick, route, sizeof route);
    int mover = pb_play_chooser(ps->f, g);
    if (pb_game_play(g, ps->nodes, len, kick, err, sizeof err))
        return pb_fail(PB_EXIT_FAIL, "the solver's route %s was refused: %s", route, err);
    printf("solver (%s) played %s (%s)\n", pb_player_name(mover), route, value);
    return PB_EXIT_OK;
}

void pb_play_solver_value(pb_play_solver *ps, pb_game *g) {
    if (ps->m) {
        int diff, stopped = pb_match_solver_value(ps->m, &g->pos, &diff);
        note_reach(ps, !stopped);
        if (stopped) printf("value: unknown (no proof within %g s)\n", ps->limit);
        else printf("value: goal difference %+d for %s (the player to move)\n", diff, pb_player_name(g->pos.to_move));
        return;
    }
    int v = pb_solver_value(ps->s, &g->pos);
    note_reach(ps, v != PB_UNKNOWN);
    if (v == PB_UNKNOWN) printf("value: unknown (no proof within %g s)\n", ps->limit);
    else printf("value: %s for %s (the player to move)\n", pb_value_name(v), pb_player_name(g->pos.to_move));
}

void pb_play_solver_hint(pb_play_solver *ps, pb_game *g) {
    int kick;
    char value[48];
    int len = best_route(ps, g, &kick, value, sizeof value);
    note_reach(ps, len > 0);
    char route[4096];
    if (len) printf("hint (%s): %s\n", value, pb_route_format(ps->f, ps->nodes, len, kick, route, sizeof route));
    else printf("hint: none (no proof within %g s)\n", ps->limit);
}
