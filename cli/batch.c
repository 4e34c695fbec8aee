/* batch.c - `--batch FILE`: one game record per line, one result line per
 * record in the same order (solve, moves, perft).  A line that is not a
 * legal record gets an error line naming its number, and the batch goes
 * on.  Blank lines and lines starting with '#' are skipped. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/json.h"
#include "cli.h"
#include "stop.h"

/* The error line of a bad record. */
static void bad_line(const pb_opts *o, int line, const char *why) {
    if (o->json) {
        pb_json j;
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        pb_json_int(&j, "line", line);
        pb_json_str(&j, "error", why);
        pb_cli_json_version(&j);
        pb_json_end(&j);
    } else {
        printf("line %d: error: %s\n", line, why);
    }
}

int pb_cli_each_position(const pb_opts *o, pb_batch_fn fn, void *ctx) {
    pb_field *f;
    pb_game g;
    if (pb_cli_load(o, &f, o->batch ? NULL : &g) != PB_CLI_GO) return PB_EXIT_USAGE;
    int rc;
    if (o->batch) {
        rc = pb_cli_batch(o, f, fn, ctx);
    } else {
        rc = fn(ctx, f, &g, 0);
        pb_game_free(&g);
    }
    pb_field_free(f);
    return rc;
}

int pb_cli_batch(const pb_opts *o, const pb_field *f, pb_batch_fn fn, void *ctx) {
    int is_stdin = !strcmp(o->batch, "-");
    FILE *in = is_stdin ? stdin : fopen(o->batch, "r");
    if (!in) return pb_fail(PB_EXIT_USAGE, "cannot read batch file '%s': %s", o->batch, strerror(errno));
    char *text = NULL, err[256];
    size_t cap = 0;
    ssize_t n;
    int line = 0, status = PB_EXIT_OK;
    while ((n = getline(&text, &cap, in)) >= 0) {
        line++;
        while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r')) text[--n] = 0;
        char *s = text + strspn(text, " \t");
        if (!*s || *s == '#') continue;
        int rc;
        pb_game g;
        if (strlen(text) != (size_t)n) {
            bad_line(o, line, "not text (a NUL byte)");
            rc = PB_EXIT_USAGE;
        } else if (pb_record_parse(f, s, &g, err, sizeof err)) {
            bad_line(o, line, err);
            rc = PB_EXIT_USAGE;
        } else {
            rc = fn(ctx, f, &g, line);
            pb_game_free(&g);
        }
        /* The batch's status is the gravest of its lines' (the highest). */
        if (rc > status) status = rc;
        /* Each line as it is done, so that a reader of a pipe keeps pace. */
        if (fflush(stdout) || ferror(stdout)) break;
        /* A caught Ctrl-C or SIGTERM (a command that catches them) ends the batch. */
        if (*pb_stop_flag()) break;
    }
    int read_error = ferror(in);
    free(text);
    if (!is_stdin) fclose(in);
    /* (A signal that ends a wait for input also makes the read fail.) */
    if (*pb_stop_flag())
        return pb_fail(PB_EXIT_STOPPED, "stopped by %s in line %d: the lines after it not done", pb_stop_by("a signal"),
                       line);
    if (read_error) return pb_fail(PB_EXIT_USAGE, "cannot read batch file '%s' to the end", o->batch);
    return status;
}
