/* cmd_solve.c - `paperball solve`: the exact value of a position, a best
 * turn and a line of perfect play; on request the value of every first-turn
 * class (--first-turns) and of every route (--all-routes, streamed);
 * figures of the search. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/container.h"
#include "../solver/diagram.h"
#include "../solver/pns.h"
#include "../solver/search.h"
#include "../solver/json.h"
#include "cli.h"
#include "pictures.h"
#include "stop.h"
#include "cluster.h"

/* The most --proofs files one solve reads. */
#define MAX_PROOFS 16

/* --checkpoint FILE: the saved proofs of this run (solver/proven.h),
 * loaded with --resume, saved every --save-every seconds by a thread of
 * their own and once more at the end, however the run ends.  --proofs
 * FILE (any number up to MAX_PROOFS): the proofs of other solves of these
 * rules and field, whatever their root, read into the same store (with or
 * without a checkpoint of its own; the argument in solver/proven.h). */
typedef struct solve_ckpt {
    const char *path; /* NULL: no checkpoint */
    int have;         /* the store is open (a checkpoint, or --proofs) */
    pb_proven store;
    pb_proven_saver *saver;
    char note[64]; /* the header's words about this run */
    int quiet;
} solve_ckpt;

/* What a run's store starts with: the checkpoint on --resume, then the
 * --proofs files.  0, or -1 with the message (bad input).  say: print
 * what each gave. */
static int fill_store(pb_proven *store, const pb_opts *o, const char *const *proofs, int nproofs, int say, char *err,
                      size_t errlen) {
    if (o->checkpoint && o->resume) {
        if (pb_proven_load(store, o->checkpoint, err, errlen)) return -1;
        if (say)
            fprintf(stderr, "solve: resumed from %s: %zu proven positions\n", o->checkpoint,
                    pb_proven_published(store));
    }
    for (int i = 0; i < nproofs; i++) {
        size_t n = 0;
        if (pb_proven_import(store, proofs[i], &n, err, errlen)) return -1;
        if (say) fprintf(stderr, "solve: read %zu proven positions from %s\n", n, proofs[i]);
    }
    return 0;
}

/* Opens the checkpoint of the run and reads the --proofs files: PB_CLI_GO,
 * or the status to exit with. */
static int ckpt_open(solve_ckpt *c, const pb_opts *o, const pb_field *f, const pb_game *g, const char *algo,
                     double every, const char *const *proofs, int nproofs) {
    memset(c, 0, sizeof *c);
    char err[512];
    if (!o->checkpoint && o->resume) return pb_fail(PB_EXIT_USAGE, "--resume needs --checkpoint FILE");
    if (!o->checkpoint && !nproofs) return PB_CLI_GO;
    if (o->checkpoint) {
        FILE *probe = o->resume ? NULL : fopen(o->checkpoint, "rb");
        if (probe) {
            fclose(probe);
            return pb_fail(PB_EXIT_USAGE, "%s exists: add --resume to go on from it, or remove it", o->checkpoint);
        }
        /* A path that can never be saved is said now, not after the search. */
        if (pb_container_writable(o->checkpoint, err, sizeof err)) return pb_fail(PB_EXIT_WRITE, "%s", err);
    }
    pb_proven_init(&c->store, f, &g->pos, 0, 0);
    if (fill_store(&c->store, o, proofs, nproofs, !o->quiet, err, sizeof err)) {
        pb_proven_free(&c->store);
        return pb_fail(PB_EXIT_USAGE, "%s", err);
    }
    if (o->checkpoint) {
        snprintf(c->note, sizeof c->note, "algo=%s turns=%d", algo, g->nturns);
        c->saver = pb_proven_saver_start(&c->store, o->checkpoint, c->note, every, o->quiet ? NULL : stderr);
        if (!c->saver) {
            pb_proven_free(&c->store);
            return pb_fail(PB_EXIT_FAIL, "cannot start the thread that saves %s", o->checkpoint);
        }
        c->path = o->checkpoint;
    }
    c->quiet = o->quiet;
    c->have = 1;
    return PB_CLI_GO;
}

/* The value v (PB_UNKNOWN: not proven) of the root and the classes r
 * proved (may be NULL) go into the store, which is saved a last time.
 * Returns PB_EXIT_OK or PB_EXIT_WRITE (after the message). */
static int ckpt_close(solve_ckpt *c, const pb_field *f, const pb_position *root, int v, const pb_solve_result *r) {
    if (c->have && !c->path) pb_proven_free(&c->store); /* --proofs alone: nothing to save */
    if (!c->path) return c->have = 0, PB_EXIT_OK;
    char err[512];
    if (pb_proven_saver_stop(c->saver, err, sizeof err) && !c->quiet)
        fprintf(stderr, "solve: a save at an interval failed: %s\n", err);
    if (v != PB_UNKNOWN) pb_proven_note(&c->store, root, v, v, 8, PB_PROVEN_PINNED);
    pb_position *q = malloc(sizeof *q);
    for (int i = 0; q && r && i < r->nturns; i++) {
        const pb_solve_turn *t = &r->turns[i];
        pb_route info;
        *q = *root;
        if (t->value == PB_UNKNOWN || t->end != PB_END_NONE ||
            pb_route_play(f, q, t->nodes, t->len, t->kick, &info, err, sizeof err))
            continue;
        int qv = q->to_move == root->to_move ? t->value : -t->value;
        pb_proven_note(&c->store, q, qv, qv, 8, PB_PROVEN_PINNED);
    }
    /* The line's positions, between turns and (where turns are steps)
     * after each step: every step of the line keeps the value (line.c: a
     * step is taken only once known or proven to), so each position on it
     * has the root's value, from the side of whoever moves there.  A
     * resumed run reads them back (pb_pns_known consults the saved proofs)
     * instead of proving the line's steps again. */
    if (q && r && v != PB_UNKNOWN) {
        *q = *root;
        for (int i = 0; i < r->npv; i++) {
            const pb_pv_turn *t = &r->pv[i];
            if (pb_turns_are_steps(f)) {
                pb_position w = *q;
                for (int k = 1; k < t->len; k++) {
                    int d = pb_dir_between(f, w.ball, t->nodes[k]), loser;
                    pb_undo u;
                    if (d < 0 || f->seg[w.ball][d] < 0 || pb_step(f, &w, d, &u, &loser) != PB_STEP_BOUNCE) break;
                    int wv = w.to_move == root->to_move ? v : -v;
                    pb_proven_note(&c->store, &w, wv, wv, 8, PB_PROVEN_PINNED);
                }
            }
            pb_route info;
            if (pb_route_play(f, q, t->nodes, t->len, t->kick, &info, err, sizeof err) || info.end != PB_END_NONE)
                break;
            int qv = q->to_move == root->to_move ? v : -v;
            pb_proven_note(&c->store, q, qv, qv, 8, PB_PROVEN_PINNED);
        }
    }
    free(q);
    int rc = PB_EXIT_OK;
    if (pb_proven_save(&c->store, c->path, c->note, err, sizeof err)) rc = pb_fail(PB_EXIT_WRITE, "%s", err);
    else if (!c->quiet)
        fprintf(stderr, "solve: checkpoint saved: %zu proven positions in %s\n", pb_proven_size(&c->store), c->path);
    pb_proven_free(&c->store);
    c->path = NULL, c->have = 0;
    return rc;
}

/* What solve prints, besides the value: asked for on the command line. */
typedef struct solve_show {
    int first_turns, all_routes, json, no_pv, shortest;
    pb_json j; /* --json: the object the routes and the summary go on */
    const pb_field *f;
    uint64_t nroutes; /* routes streamed so far */
} solve_show;

static void print_classes_text(const pb_field *f, const pb_solve_result *r) {
    char buf[4096];
    printf("first turns  %d classes of %llu routes (a class: the routes to one position or its left-right mirror "
           "image)%s\n",
           r->nturns, (unsigned long long)r->nroutes, r->mirror_lr ? "; the position is its own mirror image" : "");
    for (int i = 0; i < r->nturns; i++) {
        const pb_solve_turn *t = &r->turns[i];
        pb_route_format(f, t->nodes, t->len, t->kick, buf, sizeof buf);
        printf("  %-28s %-8s %llu route%s", buf, pb_value_name(t->value), (unsigned long long)t->routes,
               t->routes == 1 ? "" : "s");
        if (t->end != PB_END_NONE) printf(", ends the game");
        else if (t->value != PB_UNKNOWN)
            printf(", %llu nodes, %.3f s", (unsigned long long)t->nodes_searched, t->seconds);
        putchar('\n');
    }
    if (r->overflow) printf("  (the list stops here: more classes than its memory cap)\n");
}

/* The counts of a --mpi run (docs/cluster.md), one line each. */
static void print_cluster_text(const pb_cluster_stats *cs) {
    const pb_jobs_stats *js = &cs->jobs;
    printf("mpi          %d processes, job-level search (docs/cluster.md): %llu jobs, %llu out of budget, "
           "%llu to a warm table; %llu top positions, %llu expanded; rank 0 %.2f ms CPU per job\n",
           cs->nranks, (unsigned long long)js->sent, (unsigned long long)js->failed, (unsigned long long)js->home,
           (unsigned long long)js->positions, (unsigned long long)js->expanded,
           js->sent ? 1e3 * cs->rank0_cpu / (double)js->sent : 0.0);
    for (int k = 0; k < cs->nranks; k++) {
        const pb_cluster_rank *x = &cs->ranks[k];
        printf("  rank %-3d   %llu jobs, %llu nodes, busy %.3f s, idle %.3f s, %llu messages, %llu bytes\n", k,
               (unsigned long long)x->jobs, (unsigned long long)x->nodes, x->busy, x->idle,
               (unsigned long long)x->messages, (unsigned long long)x->bytes);
    }
}

static void print_cluster_json(pb_json *j, const pb_cluster_stats *cs) {
    const pb_jobs_stats *js = &cs->jobs;
    pb_json_int(j, "mpi_processes", cs->nranks);
    pb_json_object(j, "mpi");
    pb_json_uints(j, (const pb_json_count[]){{"jobs", js->sent},
                                             {"out_of_budget", js->failed},
                                             {"warm", js->home},
                                             {"top_positions", js->positions},
                                             {"expanded", js->expanded},
                                             {"learnt", js->learnt},
                                             {"updates", js->updates},
                                             {NULL, 0}});
    pb_json_int(j, "questions", js->phases);
    pb_json_num(j, "rank0_cpu_seconds", "%.6f", cs->rank0_cpu);
    pb_json_array(j, "ranks");
    for (int k = 0; k < cs->nranks; k++) {
        const pb_cluster_rank *x = &cs->ranks[k];
        pb_json_object(j, NULL);
        pb_json_uint(j, "jobs", x->jobs);
        pb_json_uint(j, "nodes", x->nodes);
        pb_json_num(j, "busy_seconds", "%.6f", x->busy);
        pb_json_num(j, "idle_seconds", "%.6f", x->idle);
        pb_json_uint(j, "messages", x->messages);
        pb_json_uint(j, "bytes", x->bytes);
        pb_json_end(j);
    }
    pb_json_end(j);
    pb_json_end(j);
}

/* cs: the counts of a --mpi run, NULL without --mpi. */
static void print_text(const pb_field *f, const pb_game *g, const pb_solve_result *r, const solve_show *sh,
                       const pb_cluster_stats *cs) {
    int nranks = cs ? cs->nranks : 0;
    char buf[4096];
    pb_cli_print_head(f, g, r->value, "stopped before it was proven");
    if (sh->first_turns) print_classes_text(f, r);
    if (r->npv)
        printf("best turn    %s\n", pb_route_format(f, r->pv[0].nodes, r->pv[0].len, r->pv[0].kick, buf, sizeof buf));
    if (r->npv && !sh->no_pv) {
        printf("line         ");
        for (int i = 0; i < r->npv; i++)
            printf("%s%s", i ? " " : "",
                   pb_route_format(f, r->pv[i].nodes, r->pv[i].len, r->pv[i].kick, buf, sizeof buf));
        printf("\n             (%d turns; %s)\n", r->npv, r->pv_kind);
    }
    if (r->algo == PB_ALGO_PN)
        printf("search       proof-number search (df-pn)%s\n", r->threads > 1 ? ", threads on one shared table" : "");
    else printf("search       alpha-beta\n");
    if (r->algo == PB_ALGO_PN && r->value == PB_UNKNOWN)
        printf("root         proof number %llu, disproof number %llu\n", (unsigned long long)r->root_pn,
               (unsigned long long)r->root_dn);
    printf("nodes        %llu %s in %.3f s, %.2fM nodes/s, %d thread%s\n", (unsigned long long)r->nodes,
           pb_search_unit(f), r->seconds, r->rate / 1e6, r->threads, r->threads == 1 ? "" : "s");
    if (nranks) printf("table        one per process, %.1f MiB each\n", (double)r->tt_bytes / 1048576.0);
    else
        printf("table        %.1f MiB of a %.1f MiB budget, %zu entries, %zu used; %llu probes, %llu hits, %llu "
               "stores, %llu replaced\n",
               (double)r->tt_in_use / 1048576.0, (double)r->tt_bytes / 1048576.0, r->tt_in_use_slots, r->tt_used,
               (unsigned long long)r->tt.probes, (unsigned long long)r->tt.hits, (unsigned long long)r->tt.stores,
               (unsigned long long)r->tt.replaced);
    printf("peak memory  %.1f MiB%s\n", (double)r->peak_rss / 1048576.0, nranks ? " (the most of one process)" : "");
    if (cs) print_cluster_text(cs);
}

/* The first-turn classes, as the array "first_turns" and its figures. */
static void json_classes(pb_json *j, const pb_field *f, const pb_solve_result *r) {
    char buf[4096];
    pb_json_int(j, "classes", r->nturns);
    pb_json_int(j, "classes_solved", r->nsolved_classes);
    pb_json_bool(j, "classes_overflow", r->overflow);
    pb_json_int(j, "classes_handed_over", r->handed);
    pb_json_uint(j, "first_turn_routes", r->nroutes);
    pb_json_uint(j, "route_classes", r->nroute_classes);
    pb_json_array(j, "first_turns");
    for (int i = 0; i < r->nturns; i++) {
        const pb_solve_turn *t = &r->turns[i];
        pb_json_object(j, NULL);
        pb_json_str(j, "route", pb_route_format(f, t->nodes, t->len, t->kick, buf, sizeof buf));
        pb_json_str(j, "value", pb_value_name(t->value));
        pb_json_int(j, "class", i);
        pb_json_uint(j, "routes", t->routes);
        pb_json_bool(j, "ends_game", t->end != PB_END_NONE);
        pb_json_uint(j, "nodes", t->nodes_searched);
        pb_json_num(j, "seconds", "%.6f", t->seconds);
        pb_json_end(j);
    }
    pb_json_end(j);
}

/* The summary object; when the routes were streamed first (--all-routes)
 * it goes on the object they opened. */
static void print_json(const pb_field *f, const pb_game *g, const pb_solve_result *r, solve_show *sh,
                       const pb_cluster_stats *cs) {
    char buf[4096];
    pb_json *j = &sh->j;
    if (sh->all_routes) {
        if (!sh->nroutes) pb_json_init(j, stdout), pb_json_object(j, NULL), pb_json_array(j, "all_routes");
        pb_json_end(j);
        pb_json_uint(j, "routes", sh->nroutes);
    } else pb_json_init(j, stdout), pb_json_object(j, NULL);
    pb_cli_json_version(j);
    pb_cli_json_field(j, f);
    pb_json_int(j, "turns_played", g->nturns);
    pb_json_str(j, "to_move", pb_cli_player_key(g->pos.to_move));
    pb_json_str(j, "value", pb_value_name(r->value));
    pb_json_bool(j, "complete", r->complete);
    pb_json_bool(j, "stopped", r->stopped);
    if (sh->first_turns) json_classes(j, f, r);
    pb_json_str(j, "best",
                r->npv ? pb_route_format(f, r->pv[0].nodes, r->pv[0].len, r->pv[0].kick, buf, sizeof buf) : NULL);
    pb_json_array(j, "pv");
    for (int i = 0; i < r->npv && !sh->no_pv; i++)
        pb_json_str(j, NULL, pb_route_format(f, r->pv[i].nodes, r->pv[i].len, r->pv[i].kick, buf, sizeof buf));
    pb_json_end(j);
    pb_json_str(j, "pv_kind", r->pv_kind ? r->pv_kind : "");
    pb_json_uint(j, "nodes", r->nodes);
    pb_json_num(j, "seconds", "%.6f", r->seconds);
    pb_json_num(j, "nodes_per_second", "%.0f", r->rate);
    pb_json_int(j, "threads", r->threads);
    if (cs) print_cluster_json(j, cs);
    pb_json_str(j, "algo", r->algo == PB_ALGO_PN ? "pn" : "ab");
    if (r->algo == PB_ALGO_PN) {
        pb_json_uint(j, "root_pn", r->root_pn);
        pb_json_uint(j, "root_dn", r->root_dn);
    }
    pb_json_object(j, "table");
    pb_json_uint(j, "bytes", r->tt_bytes);
    pb_json_uint(j, "slots", r->tt_slots);
    pb_json_uint(j, "in_use_bytes", r->tt_in_use);
    pb_json_uint(j, "in_use_slots", r->tt_in_use_slots);
    pb_json_uint(j, "used", r->tt_used);
    pb_json_uint(j, "probes", r->tt.probes);
    pb_json_uint(j, "hits", r->tt.hits);
    pb_json_uint(j, "stores", r->tt.stores);
    pb_json_uint(j, "replaced", r->tt.replaced);
    pb_json_end(j);
    pb_json_uint(j, "peak_memory_bytes", r->peak_rss);
    pb_json_end(j);
}

/* --all-routes: one route with its value, printed as it comes. */
static int print_route(void *ctx, const pb_route *rt, int value) {
    solve_show *sh = ctx;
    char buf[4096];
    pb_route_format(sh->f, rt->nodes, rt->len, rt->kick, buf, sizeof buf);
    if (sh->json) {
        if (!sh->nroutes)
            pb_json_init(&sh->j, stdout), pb_json_object(&sh->j, NULL), pb_json_array(&sh->j, "all_routes");
        pb_json_object(&sh->j, NULL);
        pb_json_str(&sh->j, "route", buf);
        pb_json_str(&sh->j, "value", pb_value_name(value));
        pb_json_end(&sh->j);
        putchar('\n'); /* one route per line: the stream can be read as it comes */
    } else {
        if (!sh->nroutes) printf("every first turn, with its value for the player to move:\n");
        printf("  %-28s %s\n", buf, pb_value_name(value));
    }
    sh->nroutes++;
    return ferror(stdout) != 0;
}

/* The position with the line of perfect play, as SVG and as a replayer
 * page: the record's turns, then the line as a continuation. */
static int write_pictures(const pb_opts *o, const pb_field *f, const pb_solve_result *r) {
    pb_game g;
    if (pb_cli_game(o, f, &g)) return PB_EXIT_USAGE;
    int from = g.nturns;
    char err[256];
    for (int i = 0; i < r->npv; i++)
        if (pb_game_play(&g, r->pv[i].nodes, r->pv[i].len, r->pv[i].kick, err, sizeof err)) break;
    pb_diagram_opts d = {.highlight_from = from, .title = "A line of perfect play"};
    int perfect = r->complete && r->value != PB_UNKNOWN;
    int status = pb_cli_write_game_pictures(&g, &d, perfect, o->svg, o->html, 1);
    pb_game_free(&g);
    return status;
}

/* --batch: one solver and one table for all the records.  The table keeps
 * only proven bounds of whole positions, and a search cut short by the time
 * limit stores nothing (the argument at the top of solver/search.c), so
 * what one record leaves there is true for the next: a record's value does
 * not depend on the records before it (tests/cli/batch.sh checks the batch
 * against single solves and a tiny table). */
typedef struct batch_ctx {
    const pb_opts *o;
    pb_solver *s;
    int16_t *nodes;
    int cap;
} batch_ctx;

static int solve_line(void *ctx, const pb_field *f, pb_game *g, int line) {
    batch_ctx *b = ctx;
    char res[128], route[4096] = "";
    int over = g->end != PB_END_NONE, value = PB_UNKNOWN, kick = 0, len = 0;
    uint64_t before = pb_solver_nodes(b->s);
    if (over) pb_game_result(g, res, sizeof res);
    else if ((len = pb_solver_best_route(b->s, &g->pos, b->nodes, b->cap, &kick, &value)) > 0)
        pb_route_format(f, b->nodes, len, kick, route, sizeof route);
    unsigned long long nodes = (unsigned long long)(pb_solver_nodes(b->s) - before);
    if (b->o->json) {
        pb_json j;
        pb_json_init(&j, stdout);
        pb_json_object(&j, NULL);
        pb_json_int(&j, "line", line);
        pb_json_int(&j, "turns_played", g->nturns);
        if (over) {
            pb_json_bool(&j, "game_over", 1);
            pb_json_str(&j, "result", res);
        } else {
            pb_json_str(&j, "to_move", pb_cli_player_key(g->pos.to_move));
            pb_json_str(&j, "value", pb_value_name(value));
            pb_json_str(&j, "best", len ? route : NULL);
            pb_json_uint(&j, "nodes", nodes);
        }
        pb_cli_json_version(&j);
        pb_json_end(&j);
    } else if (over) {
        printf("line %d: the game is over: %s\n", line, res);
    } else {
        printf("line %d: %s for %s", line, pb_value_name(value), pb_player_name(g->pos.to_move));
        if (len) printf(", best %s", route);
        printf(" (%llu nodes)\n", nodes);
    }
    return over || value != PB_UNKNOWN ? PB_EXIT_OK : PB_EXIT_STOPPED;
}

static int solve_batch(const pb_opts *o, const pb_field *f, int algo) {
    if (o->mpi) return pb_fail(PB_EXIT_USAGE, "--batch and --mpi do not go together");
    if (o->svg) return pb_fail(PB_EXIT_USAGE, "--batch and --svg do not go together");
    if (o->threads > 1) return pb_fail(PB_EXIT_USAGE, "--batch solves on one thread");
    batch_ctx b = {o, pb_solver_new_algo(f, o->memory ? (size_t)pb_parse_size(o->memory) : 0, algo), NULL,
                   f->nsegments + 2};
    if (!b.s) return pb_fail(PB_EXIT_MEMORY, "cannot allocate the transposition table");
    pb_solver_set_limit(b.s, o->time_limit);
    /* Ctrl-C and SIGTERM: the line under way answers unknown, the batch
     * ends after it (every line before is already written), exit 3. */
    struct sigaction old[2];
    pb_stop_catch(old);
    pb_solver_set_stop(b.s, pb_stop_flag());
    b.nodes = malloc(sizeof(int16_t) * (size_t)b.cap);
    int rc = pb_cli_batch(o, f, solve_line, &b);
    pb_stop_restore(old);
    free(b.nodes);
    pb_solver_free(b.s);
    return rc;
}

/* The command line of solve. */
typedef struct solve_args {
    pb_opts o;
    solve_show show;
    const char *algo;       /* pn or ab, once choose_algo has run */
    const char *algo_asked; /* --algo as given, NULL if not */
    const char *job_nodes;  /* --job-nodes as given */
    double save_every;
    int reduce_limit;               /* --reduced-keys parsed: 0 default, -1 off */
    int full_keys;                  /* --full-keys: no mirror images, no reduced keys */
    const char *reduced_keys;       /* --reduced-keys as given */
    const char *slack;              /* --slack as given */
    int pn_epsilon;                 /* --slack parsed, in 1/1024: 0 default, -1 none */
    const char *proofs[MAX_PROOFS]; /* --proofs FILE, in order */
    int nproofs;
} solve_args;

/* --proofs FILE, once more. */
static int parse_proofs(void *target, const char *name, const char *val) {
    solve_args *a = target;
    if (a->nproofs == MAX_PROOFS) return pb_fail(PB_EXIT_USAGE, "--%s: at most %d files", name, MAX_PROOFS), -1;
    a->proofs[a->nproofs++] = val;
    return 0;
}

static int parse_options(solve_args *a, int argc, char **argv) {
    const pb_option options[] = {
        PB_OPTS_FIELD(a->o),
        PB_OPTS_RECORD(a->o),
        PB_OPT_BATCH(a->o),
        PB_OPT_FLAG("first-turns", &a->show.first_turns,
                    "also the value of every first-turn class (the routes that lead to\n"
                    "one position or to its left-right mirror image)"),
        PB_OPT_FLAG("shortest", &a->show.shortest,
                    "also the distance to the end: the fastest win against the longest\n"
                    "defence, in turns, with a line that realises it (one thread;\n"
                    "slower than the value alone)"),
        PB_OPT_FLAG("all-routes", &a->show.all_routes,
                    "also every first turn (route) with its value, printed as found"),
        PB_OPT_THREADS(a->o, "search threads (default 1)"),
        PB_OPT_MEMORY(a->o, "table memory cap, e.g. 64M, 2G (default: 1M for an endgame of\n"
                            "<= 48 free segments, 8M up to 96, else 64M); --hash is the same"),
        PB_OPT_TIME_LIMIT(a->o, "stop after SECONDS, print what is proven (and save it with\n"
                                "--checkpoint), exit 3"),
        PB_OPT_TEXT("checkpoint", "FILE", &a->o.checkpoint,
                    "keep the expensive proofs in FILE, saved every --save-every\n"
                    "seconds and when the run ends or is stopped (docs/solver.md)"),
        PB_OPT_RESUME(a->o, "go on from the checkpoint FILE: its proofs are consulted first;\n"
                            "the answer is the same, found faster"),
        PB_OPT_SECONDS("save-every", &a->save_every, "seconds between saves of the checkpoint (default 60)"),
        {.name = "proofs",
         .value = "FILE",
         .help = "also read the proofs of another solve's checkpoint FILE, of the\n"
                 "same rules and field and any position (repeatable; a game's\n"
                 "later position helps an earlier one; the answer is the same)",
         .kind = PB_ARG_CUSTOM,
         .target = a,
         .parse = parse_proofs},
        PB_OPT_TEXT("algo", "pn|ab", &a->algo,
                    "pn: proof-number search (the default; its threads share one\n"
                    "table: with --first-turns the classes are dealt to them, a\n"
                    "value alone in book and hockey takes two, a search and its\n"
                    "helper); ab: alpha-beta (the default with --mpi); docs/solver.md"),
        PB_OPT_FLAG("full-keys", &a->full_keys,
                    "key every position in full in the table: no mirror images, no\n"
                    "reduced keys (for measurements; the values are the same)"),
        PB_OPT_TEXT("reduced-keys", "N|off", &a->reduced_keys,
                    "key a position by what its ball can still reach when at most N\n"
                    "free segments are reachable (default: 40 with --algo pn, off\n"
                    "with ab); off: never\n"
                    "(docs/solver.md; the values are the same)"),
        PB_OPT_TEXT("slack", "E", &a->slack,
                    "proof-number search lets its best child run until that child's\n"
                    "number passes (1+E) times the second best's (default 0.25;\n"
                    "0: the second best's plus one; for measurements, docs/solver.md;\n"
                    "the values are the same)"),
        PB_OPT_JSON(a->o),
        PB_OPT_SVG(a->o, "draw the position with the line of perfect play"),
        PB_OPT_HTML(a->o, "a page that replays that line step by step"),
        PB_OPT_QUIET(a->o),
        PB_OPT_MPI(a->o, "under mpirun: a job-level search, rank 0 handing positions to\n"
                         "the others, each with its own table and --threads (same values)"),
        PB_OPT_TEXT("job-nodes", "N", &a->job_nodes,
                    "with --mpi: the node budget of one job (default 4M;\n"
                    "a job out of budget is split into its turns)"),
        PB_OPT_MATCH(a->o),
        PB_OPT_END};
    const pb_command cmd = {"solve", "[options] [RECORD-FILE|-]",
                            "Solves the position reached by the game record (default: the start) exactly:\n"
                            "its value (win, draw or loss for the player to move, with perfect play), a\n"
                            "best turn and a line of perfect play to the end of the game.  The search stops\n"
                            "as soon as the value is proven.\n"
                            "Ctrl-C (SIGINT) or SIGTERM prints what is proven so far, saves the checkpoint\n"
                            "(--checkpoint) and exits with status 3.\n",
                            options, 1};
    return pb_cli_parse(&cmd, argc, argv, &a->o);
}

/* Proof-number search proves far faster (results/bench_solve.md), in
 * batches too (one search and table kept for all records); the cluster
 * solve runs alpha-beta.  PB_CLI_GO, or the status. */
static int choose_algo(solve_args *a) {
    a->algo_asked = a->algo; /* --shortest has a search of its own: no --algo pn */
    if (!a->algo) a->algo = a->o.mpi ? "ab" : "pn";
    if (strcmp(a->algo, "ab") && strcmp(a->algo, "pn"))
        return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --algo: expected pn or ab", a->algo);
    if (a->o.mpi && !strcmp(a->algo, "pn")) return pb_fail(PB_EXIT_USAGE, "--mpi solves with --algo ab");
    return PB_CLI_GO;
}

/* --reduced-keys N|off into a->reduce_limit.  PB_CLI_GO, or the status. */
static int parse_keys(solve_args *a) {
    const char *t = a->reduced_keys;
    if (!t) return PB_CLI_GO;
    if (!strcmp(t, "off")) return a->reduce_limit = -1, PB_CLI_GO;
    char *end;
    long n = strtol(t, &end, 10);
    if (end == t || *end || n < 1 || n > PB_MAX_SEGMENTS)
        return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --reduced-keys: expected a count of free segments or off", t);
    a->reduce_limit = (int)n;
    return PB_CLI_GO;
}

/* --slack E into a->pn_epsilon (1/1024 units; E = 0: -1, none).
 * PB_CLI_GO, or the status. */
static int parse_slack(solve_args *a) {
    const char *t = a->slack;
    if (!t) return PB_CLI_GO;
    char *end;
    double e = strtod(t, &end);
    if (end == t || *end || !(e >= 0 && e <= 4))
        return pb_fail(PB_EXIT_USAGE, "bad value '%s' for --slack: expected a number from 0 to 4, such as 0.25", t);
    long u = lround(e * 1024);
    if (e > 0 && u == 0) u = 1;
    a->pn_epsilon = u == 0 ? -1 : (int)u;
    return PB_CLI_GO;
}

/* The options that do not go together (checked once the field and the
 * record are loaded: their errors come first).  PB_CLI_GO, or the status. */
static int check_options(const solve_args *a) {
    const pb_opts *o = &a->o;
    const solve_show *sh = &a->show;
    if (a->job_nodes && (!o->mpi || pb_parse_size(a->job_nodes) <= 0))
        return o->mpi ? pb_fail(PB_EXIT_USAGE, "bad value '%s' for --job-nodes: expected a node count such as 4M",
                                a->job_nodes)
                      : pb_fail(PB_EXIT_USAGE, "--job-nodes goes with --mpi");
    if (sh->all_routes && o->mpi) return pb_fail(PB_EXIT_USAGE, "--all-routes is not available with --mpi");
    if (sh->shortest && (o->batch || o->match || o->mpi || o->checkpoint || sh->all_routes || sh->first_turns ||
                         (a->algo_asked && !strcmp(a->algo_asked, "pn"))))
        return pb_fail(PB_EXIT_USAGE, "--shortest goes with none of --batch, --match, --mpi, --checkpoint, "
                                      "--first-turns, --all-routes, --algo pn");
    if (o->batch && (sh->all_routes || sh->first_turns))
        return pb_fail(PB_EXIT_USAGE, "--batch gives values and best turns only (no --first-turns, --all-routes)");
    if ((o->batch || o->match || o->mpi) && (a->full_keys || a->reduced_keys || a->slack))
        return pb_fail(PB_EXIT_USAGE,
                       "--full-keys, --reduced-keys and --slack are for one solve (no --batch, --match, --mpi)");
    if (a->slack && (strcmp(a->algo, "pn") || sh->shortest))
        return pb_fail(PB_EXIT_USAGE, "--slack is an option of proof-number search (--algo pn, no --shortest)");
    if ((o->batch || o->match) && (o->checkpoint || o->resume || a->nproofs))
        return pb_fail(PB_EXIT_USAGE, "--checkpoint, --resume and --proofs are for one solve (no --batch, no --match)");
    if (sh->shortest && a->nproofs) return pb_fail(PB_EXIT_USAGE, "--shortest does not read --proofs");
    /* Pictures are written after the search: a path that could never be
     * written is said now, not after hours of work. */
    const char *pics[] = {o->svg, o->html};
    char err[512];
    for (int i = 0; i < 2; i++)
        if (pics[i] && pb_dir_writable(pics[i], err, sizeof err)) return pb_fail(PB_EXIT_WRITE, "%s", err);
    return PB_CLI_GO;
}

/* A way of solving that takes the stop flag (--match, --shortest), run
 * with Ctrl-C and SIGTERM caught. */
typedef int (*solve_mode)(const pb_opts *o, const pb_field *f, const pb_game *g, volatile sig_atomic_t *stop);

static int run_caught(solve_mode mode, const pb_opts *o, const pb_field *f, const pb_game *g) {
    struct sigaction old[2];
    pb_stop_catch(old);
    int st = mode(o, f, g, pb_stop_flag());
    pb_stop_restore(old);
    return st;
}

/* A record that ends the game: its result. */
static int print_game_over(const pb_opts *o, const pb_game *g) {
    char buf[128];
    pb_game_result(g, buf, sizeof buf);
    if (!o->json) {
        printf("the game is over: %s\n", buf);
        return PB_EXIT_OK;
    }
    pb_json j;
    pb_json_init(&j, stdout);
    pb_json_object(&j, NULL);
    pb_cli_json_version(&j);
    pb_json_bool(&j, "game_over", 1);
    pb_json_str(&j, "result", buf);
    pb_json_end(&j);
    return PB_EXIT_OK;
}

/* One solve of one position, on this process (rank 0 of nranks without
 * --mpi): its checkpoint, or under --mpi on the other ranks the saved
 * proofs they read (wstore, when wload). */
typedef struct solve_run {
    solve_args *a;
    const pb_field *f;
    const pb_game *g;
    int rank, nranks;
#ifdef PB_HAVE_MPI
    pb_cluster cl;
#endif
    solve_ckpt ck;
    pb_proven wstore;
    int wload;
} solve_run;

/* Under --mpi rank 0 keeps the checkpoint; the other processes only read
 * it on --resume (a file system all of them see), as saved proofs for
 * their own searches, and keep nothing (min_work: never).  PB_CLI_GO, or
 * the status (every rank stops if one cannot go on). */
static int open_store(solve_run *s) {
    const pb_opts *o = &s->a->o;
    int rc = PB_CLI_GO;
    s->wload = o->mpi && s->rank != 0 && ((o->checkpoint && o->resume) || s->a->nproofs);
    if (o->mpi && s->rank != 0) {
        memset(&s->ck, 0, sizeof s->ck);
        if (s->wload) {
            char err[512];
            pb_proven_init(&s->wstore, s->f, &s->g->pos, PB_PROVEN_PINNED, 0);
            if (fill_store(&s->wstore, o, s->a->proofs, s->a->nproofs, 0, err, sizeof err))
                rc = PB_EXIT_USAGE; /* rank 0 says why */
        }
    } else
        rc = ckpt_open(&s->ck, o, s->f, s->g, o->mpi ? "mpi" : s->a->algo, s->a->save_every, s->a->proofs,
                       s->a->nproofs);
#ifdef PB_HAVE_MPI
    /* Every rank stops with the largest status any rank stopped with (rank
     * 0's refusal of an unwritable checkpoint, 5, over a reader's 2). */
    long long worst = o->mpi ? pb_cluster_max(&s->cl, rc != PB_CLI_GO ? rc : 0) : 0;
    if (worst) {
        if (rc == PB_CLI_GO && s->rank == 0) ckpt_close(&s->ck, s->f, &s->g->pos, PB_UNKNOWN, NULL);
        if (s->wload) pb_proven_free(&s->wstore);
        if (rc == PB_CLI_GO) rc = (int)worst;
    }
#endif
    return rc;
}

/* The search, by this process alone or (--mpi) by all of them, with Ctrl-C
 * and SIGTERM caught: 0, or nonzero when the table cannot be allocated. */
static int search(solve_run *s, pb_solve_result *r, pb_cluster_stats *cs) {
    const pb_opts *o = &s->a->o;
    pb_solve_opts so = {0};
    so.proven = s->ck.have ? &s->ck.store : NULL;
    so.threads = o->threads > 0 ? o->threads : 1;
    so.hash_bytes = o->memory ? (size_t)pb_parse_size(o->memory) : 0;
    so.time_limit = o->time_limit;
    so.stop = pb_stop_flag();
    so.progress = o->quiet ? NULL : stderr;
    so.first_turns = s->a->show.first_turns;
    so.algo = !strcmp(s->a->algo, "pn") ? PB_ALGO_PN : PB_ALGO_AB;
    so.reduce_limit = s->a->reduce_limit;
    so.pn_epsilon = s->a->pn_epsilon;
    if (s->a->full_keys) so.full_keys = 1, so.reduce_limit = -1;
    if (s->a->show.all_routes) so.all_routes = print_route, so.all_routes_ctx = &s->a->show;
    struct sigaction old[2];
    pb_stop_catch(old);
    int rc;
#ifdef PB_HAVE_MPI
    if (o->mpi) {
        pb_cluster_solve_opts co = {0};
        co.hash_bytes = so.hash_bytes;
        co.threads = so.threads;
        co.first_turns = so.first_turns;
        co.job_nodes = s->a->job_nodes ? (uint64_t)pb_parse_size(s->a->job_nodes) : PB_CLUSTER_JOB_NODES;
        co.time_limit = so.time_limit;
        co.stop = pb_stop_flag();
        co.progress = o->quiet || s->rank ? NULL : stderr;
        co.proven = s->rank == 0 ? so.proven : s->wload ? &s->wstore : NULL;
        rc = pb_cluster_solve(&s->cl, s->f, &s->g->pos, &co, r, cs);
        if (s->wload) pb_proven_free(&s->wstore);
    } else
#endif
        rc = pb_solve(s->f, &s->g->pos, &so, r);
    pb_stop_restore(old);
    return rc;
}

/* The closing line of a run that did not finish: stopped (by the time
 * limit or a signal), or with more first-turn classes than their cap.
 * The status to exit with, PB_EXIT_OK if it finished. */
static int report_unfinished(const solve_run *s, const pb_solve_result *r, int saved_ok) {
    const pb_opts *o = &s->a->o;
    if (r->stopped) {
        fflush(stdout);
        const char *by = pb_stop_by("the time limit");
        char saved[600] = "";
        if (o->checkpoint && saved_ok)
            snprintf(saved, sizeof saved, "; what is proven is saved in %s (go on with --resume)", o->checkpoint);
        if (s->a->show.first_turns)
            return pb_fail(PB_EXIT_STOPPED,
                           "stopped by %s before the end: value %s, %d of %d first-turn classes proven%s%s", by,
                           pb_value_name(r->value), r->nsolved_classes, r->nturns,
                           r->overflow ? " (the list is not whole)" : "", saved);
        return pb_fail(PB_EXIT_STOPPED, "stopped by %s before the end: value %s%s", by, pb_value_name(r->value), saved);
    }
    if (r->overflow) {
        fflush(stdout);
        return pb_fail(PB_EXIT_MEMORY,
                       "the first-turn classes are more than their memory cap allows: the list is not whole");
    }
    return PB_EXIT_OK;
}

/* Rank 0's answer: the value and figures, the pictures, the closing line.
 * wrc: the status of the checkpoint's last save. */
static int report(solve_run *s, const pb_solve_result *r, pb_cluster_stats *cs, int wrc) {
    const pb_opts *o = &s->a->o;
    if (o->json) print_json(s->f, s->g, r, &s->a->show, s->nranks ? cs : NULL);
    else print_text(s->f, s->g, r, &s->a->show, s->nranks ? cs : NULL);
    free(cs->ranks);
    int status = PB_EXIT_OK;
    if (o->svg || o->html) status = write_pictures(o, s->f, r);
    if (status == PB_EXIT_OK) status = wrc;
    int unfinished = report_unfinished(s, r, !wrc);
    return status == PB_EXIT_OK ? unfinished : status;
}

/* Opens the store, searches, saves, and (rank 0) reports. */
static int search_position(solve_run *s) {
    int rc = open_store(s);
    if (rc != PB_CLI_GO) return rc;
    pb_solve_result r;
    pb_cluster_stats cs = {0};
    rc = search(s, &r, &cs);
    int wrc = ckpt_close(&s->ck, s->f, &s->g->pos, rc ? PB_UNKNOWN : r.value, rc ? NULL : &r);
    if (rc)
        return s->rank ? PB_EXIT_MEMORY
                       : pb_fail(PB_EXIT_MEMORY, "cannot allocate the transposition table (--memory %s)",
                                 s->a->o.memory ? s->a->o.memory : "default");
    /* The other processes know the value and whether it stopped; rank 0 speaks. */
    int status = s->rank != 0 ? (r.stopped ? PB_EXIT_STOPPED : PB_EXIT_OK) : report(s, &r, &cs, wrc);
    pb_solve_result_free(&r);
    return status;
}

/* One position: a game already over, --shortest, or the search; under
 * --mpi with every process of the run. */
static int solve_position(solve_args *a, const pb_field *f, const pb_game *g) {
    solve_run run = {.a = a, .f = f, .g = g}, *s = &run;
#ifdef PB_HAVE_MPI
    if (a->o.mpi) {
        if (pb_cluster_start(&s->cl)) return PB_EXIT_FAIL;
        s->rank = s->cl.rank, s->nranks = s->cl.nranks;
    }
#endif
    int rc = g->end != PB_END_NONE ? (s->rank != 0 ? PB_EXIT_OK : print_game_over(&a->o, g))
             : a->show.shortest    ? run_caught(pb_cli_solve_shortest, &a->o, f, g)
                                   : search_position(s);
#ifdef PB_HAVE_MPI
    if (a->o.mpi) pb_cluster_end(&s->cl);
#endif
    return rc;
}

int cmd_solve(int argc, char **argv) {
    solve_args a = {.save_every = 60};
    int rc = parse_options(&a, argc, argv);
    if (rc == PB_CLI_GO) rc = choose_algo(&a);
    if (rc == PB_CLI_GO) rc = parse_keys(&a);
    if (rc == PB_CLI_GO) rc = parse_slack(&a);
    if (rc != PB_CLI_GO) return rc;
    pb_field *f;
    pb_game g;
    if (pb_cli_load(&a.o, &f, a.o.batch ? NULL : &g) != PB_CLI_GO) return PB_EXIT_USAGE;
    a.show.json = a.o.json, a.show.f = f;
    rc = check_options(&a);
    if (rc == PB_CLI_GO)
        rc = a.o.batch   ? solve_batch(&a.o, f, !strcmp(a.algo, "pn") ? PB_ALGO_PN : PB_ALGO_AB)
             : a.o.match ? run_caught(pb_cli_match_solve, &a.o, f, &g)
                         : solve_position(&a, f, &g);
    if (!a.o.batch) pb_game_free(&g);
    pb_field_free(f);
    return rc;
}
