/* cmd_solve.c - `paperball solve`: not written yet. */
#include "cli.h"

int cmd_solve(int argc, char **argv) {
    (void)argc, (void)argv;
    return pb_fail(PB_EXIT_FAIL, "'solve' is not implemented yet");
}
