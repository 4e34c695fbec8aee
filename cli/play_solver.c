/* play_solver.c - `paperball play --vs-solver`: not written yet. */
#include "cli.h"

int pb_cli_play_vs_solver(const pb_opts *o, const pb_field *f, pb_game *g) {
    (void)o, (void)f, (void)g;
    return pb_fail(PB_EXIT_FAIL, "play --vs-solver is not implemented yet");
}
