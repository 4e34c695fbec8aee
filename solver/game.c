/* game.c - a game as a list of routes played from the start. */
#include "game.h"
#include "match.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pb_game_init(pb_game *g, const pb_field *f, int first) {
    memset(g, 0, sizeof *g);
    g->field = f;
    g->first = first;
    g->loser = PB_NOBODY;
    pb_position_start(f, &g->pos, first);
}

/* pb_turns_free reads each record's route as its first member. */
_Static_assert(offsetof(pb_game_turn, nodes) == 0, "route first");

void pb_game_free(pb_game *g) {
    pb_turns_free(g->turns, g->nturns, sizeof *g->turns);
    g->turns = NULL;
    g->nturns = g->cap = 0;
}

int pb_game_play(pb_game *g, const int16_t *nodes, int len, int kick, char *err, size_t errlen) {
    if (g->end != PB_END_NONE) {
        snprintf(err, errlen, "the game is already over");
        return -1;
    }
    pb_route info;
    if (pb_route_play(g->field, &g->pos, nodes, len, kick, &info, err, errlen)) return -1;
    int over = g->match && pb_match_restart(g->field, &g->pos, &info, NULL);
    if (g->nturns == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 16;
        g->turns = realloc(g->turns, sizeof *g->turns * (size_t)g->cap);
    }
    pb_game_turn *t = &g->turns[g->nturns++];
    memset(t, 0, sizeof *t);
    t->nodes = pb_nodes_dup(nodes, len);
    t->len = len;
    t->kick = kick;
    t->mover = info.mover;
    t->end = info.end;
    t->loser = info.loser;
    g->end = info.end;
    g->loser = info.loser;
    if (g->match) {
        if (info.end == PB_END_GOAL) g->goals[info.loser ^ 1]++;
        g->end = over ? PB_END_NO_KICK : PB_END_NONE;
        g->loser = PB_NOBODY;
    }
    return 0;
}

void pb_game_undo(pb_game *g) {
    if (g->nturns == 0) return;
    pb_game old = *g;
    if (old.match) pb_game_init_match(g, old.field, old.first);
    else pb_game_init(g, old.field, old.first);
    char err[160];
    for (int i = 0; i < old.nturns - 1; i++) {
        pb_game_turn *t = &old.turns[i];
        pb_game_play(g, t->nodes, t->len, t->kick, err, sizeof err);
        memcpy(g->turns[i].annot, t->annot, sizeof t->annot);
    }
    pb_game_free(&old);
}

const char *pb_player_name(int player) { return player == PB_BOTTOM ? "Bottom" : player == PB_TOP ? "Top" : "nobody"; }

const char *pb_game_result(const pb_game *g, char *buf, size_t len) {
    if (g->match) return pb_match_game_result(g, buf, len);
    switch (g->end) {
        case PB_END_NONE: snprintf(buf, len, "game goes on, %s to move", pb_player_name(g->pos.to_move)); break;
        case PB_END_GOAL:
        case PB_END_DEAD_END: pb_end_words(g->end, g->turns[g->nturns - 1].mover, g->loser, buf, len); break;
        case PB_END_NO_KICK: snprintf(buf, len, "no free kick possible: draw"); break;
    }
    return buf;
}

const char *pb_end_words(pb_end end, int mover, int loser, char *buf, size_t len) {
    if (end == PB_END_GOAL)
        snprintf(buf, len, "%s: %s wins", mover == loser ? "own goal" : "goal", pb_player_name(loser ^ 1));
    else if (loser == PB_NOBODY) snprintf(buf, len, "dead end: draw");
    else snprintf(buf, len, "dead end: %s loses", pb_player_name(loser));
    return buf;
}
