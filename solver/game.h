/* game.h - a game: the field's start position and the routes played. */
#ifndef PB_GAME_H
#define PB_GAME_H

#include "turn.h"

#define PB_ANNOT_LEN 24

typedef struct pb_game_turn {
    int16_t *nodes; /* owned */
    int len, kick, mover;
    pb_end end;
    int loser;
    char annot[PB_ANNOT_LEN]; /* annotations as written ("!", "?? act"), may be empty */
} pb_game_turn;

typedef struct pb_game {
    const pb_field *field;
    int first; /* who played the first turn */
    int nturns, cap;
    pb_game_turn *turns;
    pb_position pos; /* the position now */
    pb_end end;      /* PB_END_NONE while the game goes on */
    int loser;
    int match;    /* triple match play (solver/match.h): a goal is counted and play goes on */
    int goals[2]; /* in a match: goals scored by each player */
} pb_game;

void pb_game_init(pb_game *g, const pb_field *f, int first);
/* The same for a triple match (f must be a triple field): a goal turn
 * keeps its end and loser, the game goes on from the centre, and g->end
 * becomes PB_END_NO_KICK when the match is over (solver/match.c). */
void pb_game_init_match(pb_game *g, const pb_field *f, int first);
void pb_game_free(pb_game *g);
/* Plays a route; 0, or -1 with the reason in err (the game is unchanged).
 * A turn after the end of the game is refused. */
int pb_game_play(pb_game *g, const int16_t *nodes, int len, int kick, char *err, size_t errlen);
/* Takes back the last turn (replays from the start). */
void pb_game_undo(pb_game *g);
/* Names the result: "game goes on", "goal: Top wins", "dead end: Bottom loses", ... */
const char *pb_game_result(const pb_game *g, char *buf, size_t len);
/* Names a turn that ends the game by a goal or a dead end, as the result
 * and the listings of turns word it: "goal: Top wins", "own goal: Bottom
 * wins", "dead end: draw", "dead end: Bottom loses" (mover: who played the
 * turn; loser: PB_NOBODY for a draw).  Returns buf. */
const char *pb_end_words(pb_end end, int mover, int loser, char *buf, size_t len);
const char *pb_player_name(int player);

/* Records (solver/notation.c): parse a game record as the book writes it
 * into g (which is initialised by the call, first = PB_TOP unless the
 * record says "(Н;В)").  Returns 0, or -1 with a one-line reason naming the
 * move number in err.  pb_record_format returns a malloc'd canonical record
 * that parses back to the same game. */
int pb_record_parse(const pb_field *f, const char *text, pb_game *g, char *err, size_t errlen);
char *pb_record_format(const pb_game *g);
/* The same for a match record: after a goal play goes on; the score mark
 * "[T:B]" (Top's goals, Bottom's goals) may follow a goal and is checked;
 * pb_record_format writes one after every goal of a match. */
int pb_record_parse_match(const pb_field *f, const char *text, pb_game *g, char *err, size_t errlen);

#endif
