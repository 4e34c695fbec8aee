/* cmd_show.c - `paperball show`: not written yet. */
#include "cli.h"

int cmd_show(int argc, char **argv) {
    (void)argc, (void)argv;
    return pb_fail(PB_EXIT_FAIL, "'show' is not implemented yet");
}
