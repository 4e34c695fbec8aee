/* cli.h - what the subcommands of `paperball` share: exit statuses, the
 * option tables and their parser, loading the field and the position,
 * errors. */
#ifndef PB_CLI_H
#define PB_CLI_H

#include <signal.h>
#include <stdio.h>

#include "../solver/game.h"

/* Exit statuses: one meaning each (the table of README.md and
 * `paperball --help`, printed by pb_cli_exit_help). */
enum {
    PB_EXIT_OK = 0,      /* success; prove: every checked claim holds */
    PB_EXIT_FAIL = 1,    /* another runtime failure (a system error) */
    PB_EXIT_USAGE = 2,   /* bad input: an option, a field, a record, a checkpoint */
    PB_EXIT_STOPPED = 3, /* stopped early by --time-limit, Ctrl-C or SIGTERM: the output is partial */
    PB_EXIT_MEMORY = 4,  /* out of memory, or over the --memory budget */
    PB_EXIT_WRITE = 5,   /* the output could not be written (full disk, closed stdout) */
    PB_EXIT_CLAIM = 6,   /* prove: a claim fails */
};

#define PB_MAX_ARGS 16

/* The options of a run.  Every command fills only those its table names
 * (below); the rest keep the defaults of pb_cli_parse. */
typedef struct pb_opts {
    pb_field_spec spec;
    int field_given, setback_given, dead_end_given;
    const char *record, *record_file, *first;
    const char *batch; /* --batch FILE: one record per line (cli/batch.c) */
    int depth;         /* -1: not given */
    int threads;       /* 0: not given */
    int json, csv, quiet, all, resume, vs_solver, odd, unicode, ascii, solve, enumerate, games;
    int mpi;      /* --mpi: the cluster mode (cli/cluster.h) */
    int match;    /* --match: triple match play (cli/match.c) */
    int distinct; /* moves --distinct: one route per distinct outcome */
    const char *svg, *html, *memory, *claim, *checkpoint, *out;
    double time_limit; /* seconds; 0: none */
    int nargs;
    const char *args[PB_MAX_ARGS];
} pb_opts;

/* One option of a command's table.  The table is an automatic array built
 * in the command from the macros below (their targets are its own
 * variables), ending with PB_OPT_END; getopt_long parses against it, so a
 * command accepts exactly the options it lists, and its --help lists them. */
typedef enum pb_arg {
    PB_ARG_FLAG,    /* no value: *(int *)target = 1 */
    PB_ARG_TEXT,    /* *(const char **)target = the value */
    PB_ARG_INT,     /* *(int *)target = a whole number in lo..hi */
    PB_ARG_SECONDS, /* *(double *)target = seconds > 0 */
    PB_ARG_SIZE,    /* *(const char **)target = a size such as 64M (checked) */
    PB_ARG_CUSTOM,  /* parse(target, name, value) */
} pb_arg;

typedef struct pb_option {
    const char *name;  /* the long name without "--" */
    const char *value; /* the value's name in --help ("N", "FILE") */
    const char *help;  /* NULL: a hidden alias */
    pb_arg kind;
    void *target;
    int lo, hi; /* PB_ARG_INT */
    /* PB_ARG_CUSTOM: stores the value; -1 after printing the error. */
    int (*parse)(void *target, const char *name, const char *value);
} pb_option;

/* The option tables read best as tables: kept as written. */
/* clang-format off */
#define PB_OPT_END {0}
#define PB_OPT_FLAG(nm, tgt, hl) {.name = nm, .help = hl, .kind = PB_ARG_FLAG, .target = tgt}
#define PB_OPT_TEXT(nm, val, tgt, hl) {.name = nm, .value = val, .help = hl, .kind = PB_ARG_TEXT, .target = tgt}
#define PB_OPT_INT(nm, val, tgt, l, h, hl) \
    {.name = nm, .value = val, .help = hl, .kind = PB_ARG_INT, .target = tgt, .lo = l, .hi = h}
#define PB_OPT_SECONDS(nm, tgt, hl) {.name = nm, .value = "SECONDS", .help = hl, .kind = PB_ARG_SECONDS, .target = tgt}

/* The options several commands share, one name per concept (o: the
 * command's pb_opts). */
int pb_opt_rules(void *o, const char *name, const char *value);
int pb_opt_field(void *o, const char *name, const char *value);
int pb_opt_setback(void *o, const char *name, const char *value);
int pb_opt_dead_end(void *o, const char *name, const char *value);
int pb_opt_first(void *o, const char *name, const char *value);
#define PB_OPTS_FIELD(o)                                                                                         \
    {.name = "rules", .value = "R", .help = "rule set: book, hockey or triple (default book)",                    \
     .kind = PB_ARG_CUSTOM, .target = &(o), .parse = pb_opt_rules},                                               \
    {.name = "field", .value = "G;W;L", .help = "goal, width, length in cells: 2;6;8, (2;6;8) or 2,6,8\n"         \
                                                "(default (2;6;8); hockey (2;8;10))",                             \
     .kind = PB_ARG_CUSTOM, .target = &(o), .parse = pb_opt_field},                                               \
    {.name = "setback", .value = "S", .help = "hockey: goal lines S cells inside the ends (default 1)",           \
     .kind = PB_ARG_CUSTOM, .target = &(o), .parse = pb_opt_setback},                                             \
    {.name = "dead-end", .value = "draw|loss", .help = "hockey: what a dead end means (default draw)",            \
     .kind = PB_ARG_CUSTOM, .target = &(o), .parse = pb_opt_dead_end}
#define PB_OPTS_RECORD(o)                                                                                        \
    PB_OPT_TEXT("record", "TEXT", &(o).record, "the position reached by this game record"),                      \
    PB_OPT_TEXT("record-file", "FILE", &(o).record_file, "the same, read from FILE (- = standard input)"),        \
    {.name = "first", .value = "top|bottom", .help = "who plays first (default top, as the book's (\xd0\x92;\xd0\x9d))", \
     .kind = PB_ARG_CUSTOM, .target = &(o), .parse = pb_opt_first}
#define PB_OPT_JSON(o) PB_OPT_FLAG("json", &(o).json, "machine-readable output: JSON")
#define PB_OPT_QUIET(o) PB_OPT_FLAG("quiet", &(o).quiet, "no progress or notes on standard error")
#define PB_OPT_THREADS(o, hl) PB_OPT_INT("threads", "N", &(o).threads, 1, 1024, hl)
#define PB_OPT_DEPTH(o, hl) PB_OPT_INT("depth", "D", &(o).depth, 0, 100000, hl)
#define PB_OPT_TIME_LIMIT(o, hl) PB_OPT_SECONDS("time-limit", &(o).time_limit, hl)
#define PB_OPT_SVG(o, hl) PB_OPT_TEXT("svg", "FILE", &(o).svg, hl)
#define PB_OPT_HTML(o, hl) PB_OPT_TEXT("html", "FILE", &(o).html, hl)
#define PB_OPT_BATCH(o)                                                                                          \
    PB_OPT_TEXT("batch", "FILE", &(o).batch, "one game record per line of FILE (- = standard input):\n"           \
                                             "one result line per record, in order (docs/cli.md)")
#define PB_OPT_CHECKPOINT(o, hl) PB_OPT_TEXT("checkpoint", "DIR", &(o).checkpoint, hl)
#define PB_OPT_RESUME(o, hl) PB_OPT_FLAG("resume", &(o).resume, hl)
#define PB_OPT_MPI(o, hl) PB_OPT_FLAG("mpi", &(o).mpi, hl)
#define PB_OPT_MATCH(o)                                                                                          \
    PB_OPT_FLAG("match", &(o).match, "triple: match play, a goal is counted and play goes on from\n"             \
                                     "the centre (docs/match.md)")
/* The memory budget: --memory, with --hash kept as a hidden alias. */
#define PB_OPT_MEMORY(o, hl)                                                                                     \
    {.name = "memory", .value = "SIZE", .help = hl, .kind = PB_ARG_SIZE, .target = &(o).memory},                 \
    {.name = "hash", .value = "SIZE", .kind = PB_ARG_SIZE, .target = &(o).memory}
/* clang-format on */

/* A subcommand: its name, what follows it on the usage line, the text
 * after the usage line, its options and how many arguments it takes. */
typedef struct pb_command {
    const char *name;
    const char *synopsis;
    const char *about;
    const pb_option *options;
    int max_args;
} pb_command;

/* Parses argv (the words after the command name) against the command's
 * table: fills o (defaults first) and the table's targets.  Returns
 * PB_CLI_GO to go on, or the status to exit with at once: PB_EXIT_OK after
 * printing --help, PB_EXIT_USAGE after a one-line error. */
#define PB_CLI_GO (-1)
int pb_cli_parse(const pb_command *cmd, int argc, char **argv, pb_opts *o);

/* Prints the command's --help: usage, text, its options, exit statuses. */
void pb_cli_help(const pb_command *cmd, FILE *out);

/* The table of exit statuses. */
void pb_cli_exit_help(FILE *out);

/* The field of the options (defaults: book and triple (2;6;8), hockey
 * (2;8;10) with setback 1), or NULL after printing the error. */
pb_field *pb_cli_field(const pb_opts *o);

/* The game given by --record, --record-file or the first positional
 * argument ("-" = standard input); the start if none.  -1 after printing
 * the error. */
int pb_cli_game(const pb_opts *o, const pb_field *f, pb_game *g);

/* The common start of a subcommand: pb_cli_parse, then pb_cli_load.
 * Returns PB_CLI_GO when the command should go on (then *f is to be freed
 * with pb_field_free, g with pb_game_free), or the exit status to return at
 * once. */
int pb_cli_begin(const pb_command *cmd, int argc, char **argv, pb_opts *o, pb_field **f, pb_game *g);
/* The second half of pb_cli_begin: builds the field and (g not NULL)
 * loads the game. */
int pb_cli_load(const pb_opts *o, pb_field **f, pb_game *g);

/* "paperball: <message>" on stderr; returns status. */
int pb_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses a size such as "64M", "2G", "1000000" (bytes). -1 if malformed. */
long long pb_parse_size(const char *s);

/* Reads a whole text file ("-" = stdin) into a malloc'd string.  NULL
 * after printing "cannot read <what> '<path>': <why>" (exit status 2): the
 * file cannot be read, is a directory, or holds a NUL byte (not text). */
char *pb_read_file(const char *what, const char *path);

/* Writes text to the file path (replacing it); PB_EXIT_OK, or
 * PB_EXIT_WRITE after printing the error. */
int pb_write_file(const char *path, const char *text);

/* --batch (cli/batch.c): calls fn for each record of o->batch, in order,
 * after printing an error line for each bad one; fn prints one result line
 * and returns its status.  Returns the gravest status (the highest). */
typedef int (*pb_batch_fn)(void *ctx, const pb_field *f, pb_game *g, int line);
int pb_cli_batch(const pb_opts *o, const pb_field *f, pb_batch_fn fn, void *ctx);

/* Builds the field, then calls fn for each record of --batch, or once
 * (line 0) for the position of --record, --record-file or the argument.
 * Returns fn's status (pb_cli_batch's for a batch). */
int pb_cli_each_position(const pb_opts *o, pb_batch_fn fn, void *ctx);

/* The JSON keys several commands share (cli/report.c). */
struct pb_json;
/* "version" and "commit" of the program. */
void pb_cli_json_version(struct pb_json *j);
/* A turn's outcome in words ("stop", "goal: Top wins", "own goal: ...",
 * "dead end: draw", "dead end: Bottom loses", "no free kick: draw"), into
 * buf; returns buf.  The listings of moves and play share it. */
const char *pb_cli_route_outcome(const pb_route *r, char *buf, size_t len);
/* The field: "rules", "field", "goal", "width", "length" and, for hockey,
 * "setback" and "dead_end". */
void pb_cli_json_field(struct pb_json *j, const pb_field *f);
/* A player as a JSON word: "top" or "bottom". */
const char *pb_cli_player_key(int player);
/* The head of a solve report: the field, the position and its value
 * (PB_UNKNOWN: "unknown (<unknown>)"). */
void pb_cli_print_head(const pb_field *f, const pb_game *g, int value, const char *unknown);

/* The program's version and the commit it was built from ("unknown"
 * outside a git checkout). */
const char *pb_cli_version(void);
const char *pb_cli_commit(void);

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
int cmd_tb(int argc, char **argv);

/* --match (cli/match.c): the match versions of solve, moves, perft and
 * enumerate, given the loaded match game g.  Each returns the exit status. */
int pb_cli_match_solve(const pb_opts *o, const pb_field *f, const pb_game *g, volatile sig_atomic_t *stop);
/* solve --shortest (cli/solve_shortest.c): value, distance and its line of
 * g's position (the game goes on there).  Returns the exit status. */
int pb_cli_solve_shortest(const pb_opts *o, const pb_field *f, const pb_game *g, volatile sig_atomic_t *stop);
int pb_cli_match_moves(const pb_opts *o, const pb_field *f, pb_game *g);
int pb_cli_match_perft(const pb_opts *o, const pb_field *f, pb_game *g);
int pb_cli_match_enumerate(const pb_opts *o, const pb_field *f, pb_game *g);
/* Loads o's field and match game, runs fn on them, frees them. */
int pb_cli_match_run(const pb_opts *o, int (*fn)(const pb_opts *o, const pb_field *f, pb_game *g));

#endif
