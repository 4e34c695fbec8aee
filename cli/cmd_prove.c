/* cmd_prove.c - `paperball prove`: not written yet. */
#include "cli.h"

int cmd_prove(int argc, char **argv) {
    (void)argc, (void)argv;
    return pb_fail(PB_EXIT_FAIL, "'prove' is not implemented yet");
}
