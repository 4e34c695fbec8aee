/* cmd_play.c - `paperball play`: not written yet. */
#include "cli.h"

int cmd_play(int argc, char **argv) {
    (void)argc, (void)argv;
    return pb_fail(PB_EXIT_FAIL, "'play' is not implemented yet");
}
