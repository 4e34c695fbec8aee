/* cmd_play.c - `paperball play`: only --vs-solver is wired so far (the
 * two-person game is not written yet). */
#include <string.h>

#include "cli.h"

int cmd_play(int argc, char **argv) {
    if (argc > 0 && !strcmp(argv[0], "--help")) {
        puts("usage: paperball play --vs-solver [options] [--hash SIZE] [RECORD-FILE]\n\n"
             "Play against perfect play from the position of the record (default: the start).\n"
             "One route per line (d6-e7-f8), or: value, hint, go, help, quit.\n");
        pb_common_help(stdout);
        return PB_EXIT_OK;
    }
    pb_opts o;
    if (pb_opts_parse(&o, argc, argv)) return PB_EXIT_USAGE;
    if (!o.vs_solver) return pb_fail(PB_EXIT_FAIL, "'play' without --vs-solver is not implemented yet");
    pb_field *f = pb_cli_field(&o);
    if (!f) return PB_EXIT_USAGE;
    pb_game g;
    if (pb_cli_game(&o, f, &g)) {
        pb_field_free(f);
        return PB_EXIT_USAGE;
    }
    int rc = pb_cli_play_vs_solver(&o, f, &g);
    pb_game_free(&g);
    pb_field_free(f);
    return rc;
}
