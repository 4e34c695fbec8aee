/* cmd_enumerate.c - `paperball enumerate`: exact counts per depth of
 * positions, symmetry classes, turn sequences and finished games by
 * outcome (enumerate/enumerate.h), as text, CSV or JSON. */
#include <errno.h>
#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../enumerate/enumerate.h"
#include "../solver/json.h"
#include "cli.h"
#include "cluster.h"
#include "stop.h"

static void progress(void *ctx, const pb_enum_progress *pr) {
    (void)ctx;
    double mib = (double)pr->memory / (1024.0 * 1024.0);
    if (pr->finished_depth)
        fprintf(stderr,
                "enumerate: depth %d done: %llu positions (%.0f of depth %d expanded per s), %.1f s, memory %.1f MiB\n",
                pr->depth, (unsigned long long)pr->positions, pr->rate, pr->depth - 1, pr->seconds, mib);
    else
        fprintf(stderr,
                "enumerate: depth %d: %llu/%llu expanded (%.0f/s), %llu positions so far, %.1f s, memory %.1f MiB\n",
                pr->depth, (unsigned long long)pr->done, (unsigned long long)pr->total, pr->rate,
                (unsigned long long)pr->positions, pr->seconds, mib);
}

/* Wins and draws summed from the outcome counters of a row. */
static void results_of(const pb_enum_row *r, mpz_t top, mpz_t bottom, mpz_t draws) {
    mpz_add(top, top, r->outcome[PB_OUT_GOAL_TOP]);
    mpz_add(top, top, r->outcome[PB_OUT_OWN_GOAL_BOTTOM]);
    mpz_add(top, top, r->outcome[PB_OUT_DEAD_END_BOTTOM]);
    mpz_add(bottom, bottom, r->outcome[PB_OUT_GOAL_BOTTOM]);
    mpz_add(bottom, bottom, r->outcome[PB_OUT_OWN_GOAL_TOP]);
    mpz_add(bottom, bottom, r->outcome[PB_OUT_DEAD_END_TOP]);
    mpz_add(draws, draws, r->outcome[PB_OUT_DEAD_END_DRAW]);
    mpz_add(draws, draws, r->outcome[PB_OUT_KICK_DRAW]);
}

#define NCOLS (6 + PB_OUT_COUNT)

/* The cells of one depth row as decimal strings (malloc'd). */
static void row_cells(const pb_enum_row *r, char **cell) {
    char buf[32];
    snprintf(buf, sizeof buf, "%d", r->depth);
    cell[0] = strdup(buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)r->positions);
    cell[1] = strdup(buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)r->classes_lr);
    cell[2] = strdup(r->classes_known ? buf : "-");
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)r->classes_full);
    cell[3] = strdup(r->classes_known ? buf : "-");
    cell[4] = mpz_get_str(NULL, 10, r->sequences);
    cell[5] = mpz_get_str(NULL, 10, r->finished);
    for (int k = 0; k < PB_OUT_COUNT; k++) cell[6 + k] = mpz_get_str(NULL, 10, r->outcome[k]);
}

static void print_text(const pb_field *f, const pb_opts *o, const pb_enum_result *res, int from_start, const char *why);
static void print_csv(const pb_field *f, const pb_enum_result *res);
static void print_json(const pb_field *f, const pb_opts *o, const pb_enum_result *res, int from_start);

/* After a stop by the memory budget, the time limit or a signal (why): the
 * depths that were finished, with their totals (the depth being built is
 * left out). */
static void print_finished(const pb_field *f, const pb_opts *o, pb_enum_result *res, int from_start, const char *why) {
    int all = res->nrows;
    res->nrows = res->last_depth + 1;
    if (res->nrows <= 0) {
        res->nrows = all;
        return;
    }
    mpz_set_ui(res->games, 0);
    mpz_set_ui(res->positions, 0);
    for (int d = 0; d < res->nrows; d++) {
        mpz_add(res->games, res->games, res->rows[d].finished);
        mpz_add_ui(res->positions, res->positions, res->rows[d].positions);
    }
    res->complete = 0;
    if (o->json) print_json(f, o, res, from_start);
    else if (o->csv) print_csv(f, res);
    else print_text(f, o, res, from_start, why);
    res->nrows = all; /* for pb_enum_result_free */
}

static const char *col_name(int c) {
    static const char *first[6] = {"depth", "positions", "classes_lr", "classes_full", "sequences", "finished"};
    return c < 6 ? first[c] : pb_enum_outcome_name((pb_enum_outcome)(c - 6));
}

/* why: what stopped an incomplete run ("--depth", "the memory budget"). */
static void print_text(const pb_field *f, const pb_opts *o, const pb_enum_result *res, int from_start,
                       const char *why) {
    char desc[128];
    printf("enumerate %s, %s, %s first\n", pb_field_describe(f, desc, sizeof desc),
           from_start ? "from the start" : "from the record's position",
           o->first && !strcmp(o->first, "bottom") ? "Bottom" : "Top");
    char **cells = calloc((size_t)res->nrows * NCOLS, sizeof *cells);
    int width[NCOLS];
    for (int c = 0; c < NCOLS; c++) width[c] = (int)strlen(col_name(c));
    for (int d = 0; d < res->nrows; d++) {
        row_cells(&res->rows[d], cells + (size_t)d * NCOLS);
        for (int c = 0; c < NCOLS; c++) {
            int w = (int)strlen(cells[(size_t)d * NCOLS + c]);
            if (w > width[c]) width[c] = w;
        }
    }
    for (int c = 0; c < NCOLS; c++) printf("%s%*s", c ? " " : "", width[c], col_name(c));
    putchar('\n');
    for (int d = 0; d < res->nrows; d++) {
        for (int c = 0; c < NCOLS; c++) {
            printf("%s%*s", c ? " " : "", width[c], cells[(size_t)d * NCOLS + c]);
            free(cells[(size_t)d * NCOLS + c]);
        }
        putchar('\n');
    }
    free(cells);
    mpz_t top, bottom, draws;
    mpz_inits(top, bottom, draws, NULL);
    for (int d = 0; d < res->nrows; d++) results_of(&res->rows[d], top, bottom, draws);
    if (res->complete)
        gmp_printf("complete: every game ends by depth %d\n"
                   "games: %Zd (Top wins %Zd, Bottom wins %Zd, draws %Zd)\n"
                   "positions: %Zd (depths 0..%d)\n",
                   res->nrows - 1, res->games, top, bottom, draws, res->positions, res->nrows - 1);
    else {
        const pb_enum_row *last = &res->rows[res->nrows - 1];
        mpz_t going;
        mpz_init(going);
        mpz_sub(going, last->sequences, last->finished);
        gmp_printf("not complete: stopped at depth %d (%s); games going on there: %Zd\n"
                   "games finished by depth %d: %Zd (Top wins %Zd, Bottom wins %Zd, draws %Zd)\n"
                   "positions: %Zd (depths 0..%d)\n",
                   res->nrows - 1, why, going, res->nrows - 1, res->games, top, bottom, draws, res->positions,
                   res->nrows - 1);
        mpz_clear(going);
    }
    mpz_clears(top, bottom, draws, NULL);
}

/* The CSV columns start as those of results/enumeration.csv (rules, goal,
 * width, length, setback and dead_end, the last two empty outside hockey)
 * and end with the version and commit of the program. */
static void print_csv(const pb_field *f, const pb_enum_result *res) {
    const pb_field_spec *s = &f->spec;
    char hockey[32] = ",";
    if (s->rules == PB_RULES_HOCKEY)
        snprintf(hockey, sizeof hockey, "%d,%s", s->setback, s->dead_end == PB_DEAD_END_LOSS ? "loss" : "draw");
    printf("rules,goal,width,length,setback,dead_end");
    for (int c = 0; c < NCOLS; c++) printf(",%s", col_name(c));
    printf(",version,commit\n");
    for (int d = 0; d < res->nrows; d++) {
        char *cells[NCOLS];
        row_cells(&res->rows[d], cells);
        printf("%s,%d,%d,%d,%s", pb_rules_name(s->rules), s->goal, s->width, s->length, hockey);
        for (int c = 0; c < NCOLS; c++) {
            printf(",%s", strcmp(cells[c], "-") ? cells[c] : "");
            free(cells[c]);
        }
        printf(",%s,%s\n", pb_cli_version(), pb_cli_commit());
    }
}

/* A GMP count as a JSON number (its decimal digits). */
static void json_big(pb_json *j, const char *name, mpz_srcptr z) {
    char *digits = mpz_get_str(NULL, 10, z);
    pb_json_raw(j, name, digits);
    free(digits);
}

static void json_row(pb_json *j, const pb_enum_row *r) {
    pb_json_object(j, NULL);
    pb_json_int(j, "depth", r->depth);
    pb_json_uint(j, "positions", r->positions);
    if (r->classes_known) {
        pb_json_uint(j, "classes_lr", r->classes_lr);
        pb_json_uint(j, "classes_full", r->classes_full);
    }
    json_big(j, "sequences", r->sequences);
    json_big(j, "finished", r->finished);
    for (int k = 0; k < PB_OUT_COUNT; k++) json_big(j, pb_enum_outcome_name((pb_enum_outcome)k), r->outcome[k]);
    pb_json_end(j);
}

static void print_json(const pb_field *f, const pb_opts *o, const pb_enum_result *res, int from_start) {
    pb_json j;
    pb_json_init(&j, stdout);
    pb_json_object(&j, NULL);
    pb_cli_json_version(&j);
    pb_cli_json_field(&j, f);
    pb_json_str(&j, "first", o->first && !strcmp(o->first, "bottom") ? "bottom" : "top");
    pb_json_str(&j, "root", from_start ? "start" : "record");
    pb_json_bool(&j, "complete", res->complete);
    pb_json_array(&j, "depths");
    for (int d = 0; d < res->nrows; d++) json_row(&j, &res->rows[d]);
    pb_json_end(&j);
    mpz_t top, bottom, draws;
    mpz_inits(top, bottom, draws, NULL);
    for (int d = 0; d < res->nrows; d++) results_of(&res->rows[d], top, bottom, draws);
    pb_json_object(&j, "totals");
    json_big(&j, "games", res->games);
    json_big(&j, "top_wins", top);
    json_big(&j, "bottom_wins", bottom);
    json_big(&j, "draws", draws);
    json_big(&j, "positions", res->positions);
    pb_json_end(&j);
    pb_json_end(&j);
    mpz_clears(top, bottom, draws, NULL);
}

/* The checkpoint file of --checkpoint DIR (default .): the directory made
 * if missing.  NULL after the error (*rc set). */
static char *checkpoint_path(const pb_opts *o, const pb_field *f, int *rc) {
    const char *dir = o->checkpoint ? o->checkpoint : ".";
    if (mkdir(dir, 0777) && errno != EEXIST) {
        *rc = pb_fail(PB_EXIT_WRITE, "cannot create the checkpoint directory %s: %s", dir, strerror(errno));
        return NULL;
    }
    char name[128];
    pb_enum_checkpoint_name(f, name, sizeof name);
    size_t plen = strlen(dir) + strlen(name) + 2;
    char *path = malloc(plen);
    snprintf(path, plen, "%s/%s", dir, name);
    return path;
}

/* pb_enumerate with SIGINT and SIGTERM turned into a clean stop (stop.h):
 * the enumeration stops at the next position and keeps the checkpoint of
 * its last finished depth. */
static pb_enum_status enumerate_guarded(const pb_field *f, const pb_position *root, pb_enum_options *eo,
                                        pb_enum_result *res) {
    struct sigaction old[2];
    eo->interrupted = pb_stop_flag();
    pb_stop_catch(old);
    pb_enum_status st = pb_enumerate(f, root, eo, res);
    pb_stop_restore(old);
    return st;
}

/* The exit status of a process that does not speak (an MPI rank > 0). */
static int silent_status(pb_enum_status st) {
    return st == PB_ENUM_OK               ? PB_EXIT_OK
           : st == PB_ENUM_BAD_CHECKPOINT ? PB_EXIT_USAGE
           : st == PB_ENUM_MEMORY         ? PB_EXIT_MEMORY
           : st == PB_ENUM_INTERRUPTED    ? PB_EXIT_STOPPED
                                          : PB_EXIT_FAIL;
}

/* The output of a run that ended with st, and its exit status. */
static int report(const pb_field *f, const pb_opts *o, const pb_enum_options *eo, pb_enum_result *res,
                  pb_enum_status st, int from_start, long long peak) {
    const char *path = eo->checkpoint;
    if (st == PB_ENUM_OK) {
        if (o->json) print_json(f, o, res, from_start);
        else if (o->csv) print_csv(f, res);
        else print_text(f, o, res, from_start, "--depth");
        if (!o->quiet && eo->dist)
            fprintf(stderr, "enumerate: %.2f s on %d MPI processes, peak memory %.1f MiB (the most of one process)\n",
                    res->seconds, eo->dist->nranks, (double)peak / (1024.0 * 1024.0));
        else if (!o->quiet)
            fprintf(stderr, "enumerate: %.2f s, peak memory %.1f MiB%s\n", res->seconds,
                    (double)peak / (1024.0 * 1024.0), res->complete ? "" : ", checkpoint kept");
        return PB_EXIT_OK;
    }
    if (st == PB_ENUM_BAD_CHECKPOINT) return pb_fail(PB_EXIT_USAGE, "%s", res->message);
    if (st == PB_ENUM_MEMORY && eo->dist)
        return pb_fail(PB_EXIT_MEMORY, "%s on one of the MPI processes (the budget is per process)", res->message);
    if (st == PB_ENUM_MEMORY) {
        print_finished(f, o, res, from_start, "the memory budget");
        return pb_fail(PB_EXIT_MEMORY, "%s (checkpoint %s: raise --memory and add --resume)", res->message, path);
    }
    if (st == PB_ENUM_INTERRUPTED) {
        print_finished(f, o, res, from_start, "stopped early");
        return pb_fail(PB_EXIT_STOPPED, "%s%s%s%s", res->message, path ? "; checkpoint kept: " : "", path ? path : "",
                       path && eo->dist ? ".*-of-*.* (one file per process)" : "");
    }
    return pb_fail(st == PB_ENUM_IO ? PB_EXIT_WRITE : PB_EXIT_FAIL, "%s", res->message);
}

/* The options, the field and the record's game: PB_CLI_GO, or the status. */
static int parse_options(pb_opts *o, pb_field **f, pb_game *g, int argc, char **argv) {
    const pb_option options[] = {
        PB_OPTS_FIELD(*o),
        PB_OPTS_RECORD(*o),
        PB_OPT_DEPTH(*o, "stop after depth D (default: until every game has ended)"),
        PB_OPT_THREADS(*o, "OpenMP threads (the counts do not depend on it)"),
        PB_OPT_MEMORY(*o, "budget for the position sets, e.g. 512M; when it is exceeded\n"
                          "the run stops (exit 4) naming the last finished depth"),
        PB_OPT_CHECKPOINT(*o, "directory of the checkpoint file (default .), written after\n"
                              "each finished depth as paperball-enum-<rules>-<G>-<W>-<L>.ckpt\n"
                              "(with --mpi one file per process: ...ckpt.<rank>-of-<K>.<0|1>)\n"
                              "and removed when every game has ended"),
        PB_OPT_RESUME(*o, "continue from that checkpoint's depth"),
        PB_OPT_TIME_LIMIT(*o, "stop after SECONDS of wall clock; like Ctrl-C or SIGTERM it prints\n"
                              "the finished depths, keeps the checkpoint of the last one for\n"
                              "--resume and exits with status 3"),
        PB_OPT_FLAG("csv", &o->csv, "machine-readable output: CSV (exact integers)"),
        PB_OPT_JSON(*o),
        PB_OPT_QUIET(*o),
        PB_OPT_MPI(*o, "under mpirun: spread the positions over the processes (the\n"
                       "same output; --memory per process; --resume with the same number\n"
                       "of processes)"),
        PB_OPT_MATCH(*o),
        PB_OPT_END};
    const pb_command cmd = {"enumerate", "[options] [RECORD-FILE|-]",
                            "Enumerates every game from the start (or from a record's position) breadth-first by\n"
                            "depth in turns, counting exactly (GMP).  Per depth: distinct positions where the game\n"
                            "goes on, the same up to the left-right mirror (classes_lr) and up to both mirrors with\n"
                            "the players swapped by the top-bottom one (classes_full), turn sequences (perft), and\n"
                            "the games that end with that turn by outcome: goal_top (Top scores), goal_bottom,\n"
                            "own_goal_top (Top into its own goal), own_goal_bottom, dead_end_top (Top's dead end,\n"
                            "Top loses), dead_end_bottom, dead_end_draw (hockey), kick_draw (triple: no free kick).\n"
                            "Totals: all games and all positions (see docs/enumerate.md).\n",
                            options, 1};
    return pb_cli_begin(&cmd, argc, argv, o, f, g);
}

/* The options of the run, with the checkpoint at path. */
static void enum_options(pb_enum_options *eo, const pb_opts *o, char *path, int rank) {
    eo->checkpoint = path;
    eo->resume = o->resume;
    eo->max_depth = o->depth;
    /* Tests only (tests/cli/mpi.sh): keep counts above this in GMP, so that
     * the big-count paths run on small fields.  The output is the same. */
    const char *small_max = getenv("PAPERBALL_TEST_SMALL_MAX");
    if (small_max) eo->small_max = strtoull(small_max, NULL, 10);
    eo->threads = o->threads;
    eo->memory = o->memory ? pb_parse_size(o->memory) : 0;
    eo->time_limit = o->time_limit;
    if (!o->quiet && rank == 0) eo->progress = progress;
}

/* The enumeration of g's position, under --mpi by every process of the
 * run, and (rank 0) its report. */
static int run_enumeration(const pb_field *f, const pb_opts *o, const pb_game *g) {
    pb_enum_options eo;
    pb_enum_options_init(&eo);
    int rank = 0, rc = PB_EXIT_OK;
#ifdef PB_HAVE_MPI
    pb_cluster cl;
    pb_enum_dist dist;
    if (o->mpi) {
        if (pb_cluster_start(&cl)) return PB_EXIT_FAIL;
        pb_cluster_enum_dist(&cl, f, &dist);
        eo.dist = &dist;
        rank = cl.rank;
    }
#endif
    char *path = checkpoint_path(o, f, &rc);
    if (!path) return rc;
    enum_options(&eo, o, path, rank);
    pb_enum_result res;
    pb_enum_status st = enumerate_guarded(f, &g->pos, &eo, &res);
    long long peak = res.peak_memory;
#ifdef PB_HAVE_MPI
    if (o->mpi) peak = pb_cluster_max(&cl, peak);
#endif
    /* Every process holds the same rows and status; rank 0 speaks. */
    rc = rank != 0 ? silent_status(st) : report(f, o, &eo, &res, st, g->nturns == 0, peak);
    pb_enum_result_free(&res);
#ifdef PB_HAVE_MPI
    if (o->mpi) pb_cluster_end(&cl);
#endif
    free(path);
    return rc;
}

int cmd_enumerate(int argc, char **argv) {
    pb_opts o;
    pb_field *f;
    pb_game g;
    int rc = parse_options(&o, &f, &g, argc, argv);
    if (rc != PB_CLI_GO) return rc;
    if (o.csv && o.json) rc = pb_fail(PB_EXIT_USAGE, "--csv and --json exclude each other");
    else if (o.match) rc = pb_cli_match_enumerate(&o, f, &g);
    else if (g.end != PB_END_NONE)
        rc = pb_fail(PB_EXIT_USAGE, "the record's game is over: there is nothing to enumerate");
    else rc = run_enumeration(f, &o, &g);
    pb_game_free(&g);
    pb_field_free(f);
    return rc;
}
