/* play.h - the solver's side of `paperball play --vs-solver`
 * (cli/play_solver.c), for the game loop of cli/cmd_play.c. */
#ifndef PB_PLAY_H
#define PB_PLAY_H

#include "cli.h"

typedef struct pb_play_solver pb_play_solver;

/* A solver for the field, with o's --memory and --time-limit; NULL when
 * its table cannot be allocated. */
pb_play_solver *pb_play_solver_new(const pb_opts *o, const pb_field *f);
void pb_play_solver_free(pb_play_solver *ps);

/* Who chooses the next ply of g (PB_NOBODY: there is none). */
int pb_play_chooser(const pb_field *f, pb_game *g);

/* Plays the solver's turn in g and prints it ("solver (Top) played d6-e7
 * (win)"); perfect when the position is within reach.  PB_EXIT_OK, or a
 * status after printing the error. */
int pb_play_solver_turn(pb_play_solver *ps, pb_game *g);

/* Print the value of g's position, and a best turn. */
void pb_play_solver_value(pb_play_solver *ps, pb_game *g);
void pb_play_solver_hint(pb_play_solver *ps, pb_game *g);

#endif
