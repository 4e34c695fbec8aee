/* cli.h - what the subcommands of `paperball` share: options, loading the
 * field and the position, errors. */
#ifndef PB_CLI_H
#define PB_CLI_H

#include <stdio.h>

#include "../solver/game.h"

/* Exit statuses. */
enum { PB_EXIT_OK = 0, PB_EXIT_FAIL = 1, PB_EXIT_USAGE = 2 };

#define PB_MAX_ARGS 16

typedef struct pb_opts {
    pb_field_spec spec;
    int field_given, setback_given;
    const char *record, *record_file;
    int depth;            /* -1: not given */
    int threads;          /* 0: not given */
    int json, csv, quiet, all, resume, vs_solver, odd, unicode, ascii, solve, enumerate;
    int mpi;              /* --mpi: the cluster mode (cli/cluster.h) */
    const char *svg, *html, *hash, *memory, *claim, *checkpoint, *first, *out;
    long seed;
    int nargs;
    const char *args[PB_MAX_ARGS];
} pb_opts;

/* Parses the common options after the subcommand name.  On a bad option it
 * prints a one-line error and returns -1 (exit status 2). */
int pb_opts_parse(pb_opts *o, int argc, char **argv);

/* The field of the options (defaults: book and triple (2;6;8), hockey
 * (2;8;10) with setback 1), or NULL after printing the error. */
pb_field *pb_cli_field(const pb_opts *o);

/* The game given by --record, --record-file or the first positional
 * argument ("-" = standard input); the start if none.  -1 after printing
 * the error. */
int pb_cli_game(const pb_opts *o, const pb_field *f, pb_game *g);

/* The common start of a subcommand: answers --help with `usage` and the
 * common options, parses the options, builds the field and (when g is not
 * NULL) loads the game.  Returns PB_CLI_GO when the command should go on
 * (then *f is to be freed with pb_field_free, g with pb_game_free), or the
 * exit status to return at once. */
#define PB_CLI_GO (-1)
int pb_cli_begin(int argc, char **argv, const char *usage, pb_opts *o, pb_field **f, pb_game *g);
/* The second half of pb_cli_begin, for commands that parse options their
 * own way first: builds the field and (g not NULL) loads the game. */
int pb_cli_load(const pb_opts *o, pb_field **f, pb_game *g);

/* "paperball: <message>" on stderr; returns status. */
int pb_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses a size such as "64M", "2G", "1000000" (bytes). -1 if malformed. */
long long pb_parse_size(const char *s);

/* Reads a whole file ("-" = stdin) into a malloc'd string, NULL on error. */
char *pb_read_file(const char *path);

/* Prints JSON string contents escaped. */
void pb_json_string(FILE *out, const char *s);

/* Subcommands: each returns the exit status. */
int cmd_info(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_enumerate(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* `paperball play --vs-solver` (cli/play_solver.c): a person against
 * perfect play from the position of g.  Returns the exit status. */
int pb_cli_play_vs_solver(const pb_opts *o, const pb_field *f, pb_game *g);

/* Prints the options every subcommand takes. */
void pb_common_help(FILE *out);

#endif
