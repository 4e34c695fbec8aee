/* match.h - triple match play (docs/match.md, docs/rules.md): the plies of
 * a match position and what a goal does in a match.
 *
 * A match is played on one sheet by the triple rules with one change: a
 * goal does not end it.  The goal is counted, every drawn segment stays,
 * the ball goes back to the centre and the side that conceded moves next
 * (a normal move from the centre or, if it has none, the opponent's free
 * kick).  The match ends where a single game would end drawn: the player
 * to move has no normal move and the opponent no kick, or a kick chain
 * ends without a legal direction.
 *
 * A match position is an ordinary pb_position (drawn segments, ball,
 * player to move): what may still happen depends on nothing else, so the
 * score so far is kept beside it (pb_game.goals), never in it.
 */
#ifndef PB_MATCH_H
#define PB_MATCH_H

#include "game.h"

/* What pb_match_restart changed, to undo it. */
typedef struct pb_match_undo {
    int16_t ball;
    uint8_t to_move;
} pb_match_undo;

/* Turns the position after triple route r (as pb_triple_foreach hands it
 * to its callback, or pb_route_play leaves it) into the match position:
 * after a goal the ball goes to the centre and the conceding side
 * (r->loser) is to move.  Returns 1 when the match is over after r (a
 * ply ending in PB_END_NO_KICK, or a goal after which the conceding side
 * is stuck and the scorer has no kick from the centre), else 0.  u (may
 * be NULL) receives what pb_match_undo_restart needs. */
int pb_match_restart(const pb_field *f, pb_position *p, const pb_route *r, pb_match_undo *u);
void pb_match_undo_restart(const pb_field *f, pb_position *p, const pb_match_undo *u);

/* The goal difference route r makes for player me: +1 for a goal me
 * scored, -1 for a goal me conceded (own goals included), else 0. */
static inline int pb_match_gain(const pb_route *r, int me) {
    return r->end != PB_END_GOAL ? 0 : r->loser == me ? -1 : 1;
}

/* Called once per ply of a match position with the match position after
 * it (after a goal: ball on the centre, the conceding side to move) and
 * over = the match ends with this ply.  r is the triple route (r->end ==
 * PB_END_GOAL marks a goal, r->loser the side that conceded).  The
 * callback must leave `after` as it got it; nonzero stops the listing. */
typedef int (*pb_match_fn)(void *ctx, const pb_field *f, pb_position *after, const pb_route *r, int over);

/* Calls fn for every ply of the match position p (restored on return).
 * Returns the number of plies, or -1 if fn stopped it.  No ply: the match
 * is over.  f must be a triple field. */
long pb_match_foreach(const pb_field *f, pb_position *p, pb_match_fn fn, void *ctx);

/* Plays a match ply given as nodes (as pb_route_play) and restarts after a
 * goal.  0 with *info and *over filled, or -1 with the reason in err (p
 * unchanged). */
int pb_match_play(const pb_field *f, pb_position *p, const int16_t *nodes, int len, int kick, pb_route *info, int *over,
                  char *err, size_t errlen);

/* The state of a match game (pb_game_result of a match): "match goes on,
 * Top 1 : 0 Bottom, Bottom to move", "match over, Top 1 : 2 Bottom:
 * Bottom wins by 1", "match over, Top 0 : 0 Bottom: a draw". */
const char *pb_match_game_result(const pb_game *g, char *buf, size_t len);

/* What ply r does in a match (over: the match ends with it): "stop",
 * "goal: Top scores", "own goal: Bottom scores, the match is over", "no
 * free kick: the match is over". */
const char *pb_match_ply_text(const pb_route *r, int over, char *buf, size_t len);

/* A caption for the picture of a match game: the field, the score and
 * every goal's turn ("triple (2;4;4) match, Top 1 : 0 Bottom; goals: 5.
 * c4-c3-c2-c1 Top"). */
const char *pb_match_caption(const pb_game *g, char *buf, size_t len);

/* "Top 1 : 0 Bottom" into buf. */
const char *pb_match_score(const int goals[2], char *buf, size_t len);

/* Perft of a match: sequences of exactly d plies (a goal is no end),
 * counted depth-first; finished[d-1] gets the sequences whose match ends
 * at ply d.  Fills seq[0..maxdepth-1], finished[0..maxdepth-1]; returns 0,
 * or -1 if a count would overflow 64 bits. */
int pb_match_perft(const pb_field *f, const pb_position *p, int maxdepth, uint64_t *seq, uint64_t *finished);

/* Finished matches from p (every ply sequence to the end of the match)
 * counted by the goals each side scores from p on: counts[b * (maxgoals +
 * 1) + t] for b goals by Bottom and t by Top (b, t <= maxgoals).  Plain
 * depth-first over every sequence: tiny fields only.  Returns 0, or -1 if
 * a count overflows 64 bits or a side scores more than maxgoals. */
int pb_match_count_finished(const pb_field *f, const pb_position *p, int maxgoals, uint64_t *counts);

#endif
