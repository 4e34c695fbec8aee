/* cmd_enumerate.c - `paperball enumerate`: not written yet. */
#include "cli.h"

int cmd_enumerate(int argc, char **argv) {
    (void)argc, (void)argv;
    return pb_fail(PB_EXIT_FAIL, "'enumerate' is not implemented yet");
}
