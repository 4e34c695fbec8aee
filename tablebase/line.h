/* line.h - answers read out of a tablebase: every turn from a position with
 * its value, a line of perfect play, a way from the root to a position, the
 * longest forced win. */
#ifndef PB_TB_LINE_H
#define PB_TB_LINE_H

#include "game.h"
#include "tablebase.h"

/* One turn from a position, with its value for the player who plays it. */
typedef struct pb_tb_turn {
    int16_t *nodes; /* owned */
    int len;
    pb_end end;
    int loser;
    uint8_t value;
    long order; /* generation order (pb_routes_foreach) */
} pb_tb_turn;

/* Every route from p (a position of layer d; next = layer d+1, loaded),
 * best first for p's mover (pb_tb_rank), ties in generation order.
 * Returns the count and *out (free with pb_tb_turns_free), or -1 if a
 * successor is not in next. */
long pb_tb_turns(const pb_tb *tb, const pb_tb_layer *next, const pb_position *p, pb_tb_turn **out);
void pb_tb_turns_free(pb_tb_turn *t, long n);

/* Plays onto g, whose position is in the table, a line of perfect play to
 * the end of the game: at every turn the first best route.  0, or -1 with
 * a message in err. */
int pb_tb_play_line(const pb_tb *tb, pb_game *g, char *err, size_t errlen);

/* Plays onto g, whose position is the root, turns that reach target (a
 * position of the table).  The search goes back layer by layer through
 * both positions of each class, which are all reachable when the root is
 * its own mirror image (the start is); otherwise it may find no way.  0,
 * or -1 with err. */
int pb_tb_play_path(const pb_tb *tb, pb_game *g, const pb_position *target, char *err, size_t errlen);

/* The position with the longest forced win (the first found, layers in
 * order, keys in order): 1 and *layer, *p, *value; 0 if no position is a
 * win; -1 with err. */
int pb_tb_longest_win(const pb_tb *tb, int *layer, pb_position *p, uint8_t *value, char *err, size_t errlen);

#endif
