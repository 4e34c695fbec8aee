/* enumerate.h - exact enumeration of a game tree by depth (in turns), with
 * GMP counts: distinct positions, symmetry classes, turn sequences (perft)
 * and finished games by outcome, plus visitors for every reachable position
 * and every finishing route.  docs/enumerate.md says exactly what is
 * counted; in short:
 *
 *   F(0) = { root },  F(d+1) = positions after the routes of F(d) where the
 *   game goes on.  Each distinct position of F(d) is stored whole with its
 *   multiplicity m(p) = the number of turn sequences from the root reaching
 *   it, and is expanded once, by the distinct outcomes of its turn with
 *   their route counts r (solver/turnwalk.h); each adds m(p) * r to its
 *   successor, or to the outcome counters of depth d+1 if it ends the game
 *   (the same as m(p) once per route).  So perft(d) = sum over F(d-1) of
 *   m(p) * routes(p), and the counts of whole games are exact wherever the
 *   distinct positions fit in memory.
 *
 * Threads: the positions of F(d) are expanded in parallel (OpenMP); F(d+1)
 * is a sharded set with a lock per shard.  Every reported figure is a set
 * size or a sum, so it does not depend on the number of threads or on the
 * order of the work.
 */
#ifndef PB_ENUMERATE_H
#define PB_ENUMERATE_H

#include <gmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "turn.h"

/* How a game ended: the outcome counters of a row.  A goal is named by who
 * played the turn (the mover; the kicker for a triple kick chain) and whose
 * goal it entered: "Top scores" = a Top turn ends in Bottom's goal; "own
 * goal by Top" = a Top turn ends in Top's own goal (Bottom wins). */
typedef enum {
    PB_OUT_GOAL_TOP = 0,    /* Top scores: Top wins */
    PB_OUT_GOAL_BOTTOM,     /* Bottom scores: Bottom wins */
    PB_OUT_OWN_GOAL_TOP,    /* Top into its own goal: Bottom wins */
    PB_OUT_OWN_GOAL_BOTTOM, /* Bottom into its own goal: Top wins */
    PB_OUT_DEAD_END_TOP,    /* Top's turn ends in a dead end and Top loses (book; hockey --dead-end loss) */
    PB_OUT_DEAD_END_BOTTOM, /* the same for Bottom */
    PB_OUT_DEAD_END_DRAW,   /* a dead end that is a draw (hockey, default) */
    PB_OUT_KICK_DRAW,       /* triple: a PB_END_NO_KICK ply (the player to move is then stuck
                                 and the opponent has no free kick), or a root with no ply */
    PB_OUT_COUNT
} pb_enum_outcome;

/* Short names for the outcome columns ("goal_top", ...). */
const char *pb_enum_outcome_name(pb_enum_outcome k);

/* The outcome of a finishing route r (r->end != PB_END_NONE): GOAL by the
 * mover and the loser, DEAD_END by the loser (PB_NOBODY: a draw), and
 * NO_KICK (any other end) a kick draw. */
pb_enum_outcome pb_enum_classify(const pb_route *r);

/* One depth.  Row d describes the positions after exactly d turns and the
 * games that ended with the d-th turn. */
typedef struct pb_enum_row {
    int depth;
    uint64_t positions;    /* |F(d)|: distinct positions where the game goes on */
    uint64_t classes_lr;   /* F(d) up to the left-right mirror */
    uint64_t classes_full; /* F(d) up to {id, lr, tb, lr+tb}, tb swapping the players */
    int classes_known;     /* 0 while the classes of this depth are not computed yet */
    mpz_t sequences;       /* perft(d): turn sequences of exactly d turns (d = 0: 1) */
    mpz_t finished;        /* sequences that end the game with turn d (sum of outcome[]) */
    mpz_t outcome[PB_OUT_COUNT];
} pb_enum_row;

/* Visitors.  They are called from the OpenMP worker threads at the same
 * time (thread = omp_get_thread_num(), 0 .. threads-1, so a visitor can keep
 * per-thread state without locks); the order of the calls is not fixed.
 * Returning nonzero stops the enumeration (status PB_ENUM_STOPPED).  A run
 * resumed from a checkpoint visits only the depths it computes itself.
 *
 * position: once per distinct position p of F(depth) (depth 0: the root),
 *   mult = m(p).  Called for every depth that is expanded and for the last
 *   depth of a run limited by max_depth.
 * finish: once per pair (distinct position `before` of F(depth-1), route r
 *   from it that ends the game); the game ends at `depth`, mult = m(before)
 *   games end this way.  after = the position after the route (for a goal
 *   or dead end: with the last segment drawn).  outcome is
 *   pb_enum_classify(r).  One exception: a root with no ply at all (a
 *   finished triple position) is reported once with depth 0, before ==
 *   after == root and a one-node route with end PB_END_NO_KICK.
 * Positions passed are the enumerator's own: do not keep pointers to them. */
typedef struct pb_enum_visitor {
    int (*position)(void *ctx, int thread, const pb_field *f, const pb_position *p, int depth, mpz_srcptr mult);
    int (*finish)(void *ctx, int thread, const pb_field *f, const pb_position *before, const pb_position *after,
                  const pb_route *r, pb_enum_outcome outcome, int depth, mpz_srcptr mult);
    void *ctx;
} pb_enum_visitor;

/* Progress, reported from one thread at a time. */
typedef struct pb_enum_progress {
    int depth;            /* the depth being built (F(depth) from F(depth-1)) */
    int finished_depth;   /* 1 when F(depth) is complete (and checkpointed) */
    uint64_t done, total; /* positions of F(depth-1) expanded so far, of all */
    uint64_t positions;   /* positions of F(depth) so far */
    double seconds;       /* since the run started */
    double rate;          /* positions of F(depth-1) expanded per second, this depth */
    long long memory;     /* bytes held by the frontiers */
} pb_enum_progress;

/* Distribution over several processes (the MPI cluster mode,
 * cli/mpi/mpi_enumerate.c); NULL in options: one process.  Every process
 * runs pb_enumerate with the same arguments; each keeps the positions of
 * F(d) it owns, pb_enum_owner() of the key.  The owner is the same for the
 * four mirror images of a position, so the symmetry classes are counted
 * with local lookups only.  The hooks are collective: every process calls
 * them, in the same order, from the thread that called pb_enumerate.
 * After them every process holds the same rows, so all of them stop at the
 * same depth with the same status. */
struct pb_frontier;
typedef struct pb_enum_dist {
    int rank, nranks;
    void *ctx;
    /* After each pass, with this process's stop reason (0: none, else
     * positive).  After an expansion (*next != NULL, no stop anywhere) it
     * sends every entry of *next (the successors this process generated)
     * to its owner and replaces *next by the set of the entries this
     * process owns, the counts of equal positions added; it allocates
     * with the memory counter of *next, so the budget is per process.
     * Returns the largest stop reason of all processes (its own
     * exchange failing for memory counts as 1, the memory reason). */
    int (*exchange)(void *ctx, struct pb_frontier **next, int stop);
    /* v[i] = the sum of v[i] over the processes. */
    void (*sum_u64)(void *ctx, uint64_t *v, int n);
    void (*sum_mpz)(void *ctx, mpz_t *v, int n);
} pb_enum_dist;

/* The process that owns the position with the packed key `key` among
 * nranks: a hash of the least key of its four mirror images, modulo
 * nranks.  The hash only picks the owner; positions are compared whole. */
int pb_enum_owner(const pb_field *f, const uint64_t *key, int nranks);

typedef struct pb_enum_options {
    int max_depth;                /* stop after F(max_depth); -1: until every game has ended */
    int threads;                  /* 0: the OpenMP default */
    long long memory;             /* budget in bytes for the frontiers; 0: none */
    const char *checkpoint;       /* checkpoint file, rewritten after each finished depth; NULL: none */
    int resume;                   /* continue from the checkpoint file */
    int keep_checkpoint;          /* keep the file when every game has ended (default: remove it) */
    const pb_enum_visitor *visit; /* NULL: none */
    void (*progress)(void *ctx, const pb_enum_progress *pr);
    void *progress_ctx;
    double progress_every;    /* seconds between progress reports within a depth (0: 2 s) */
    uint64_t small_max;       /* tests only: counts above it are kept in GMP (0: 2^55 - 1) */
    uint64_t routes_max;      /* tests only: a turn's outcomes with more routes are recounted
                                route by route, as those past 2^64 - 1 are (0: 2^64 - 1) */
    const pb_enum_dist *dist; /* several processes (no checkpoint then); NULL: one */
    double time_limit;        /* seconds of wall clock from the start; 0: none */
    /* When *interrupted becomes nonzero (a signal handler sets it), the run
     * stops as at the time limit; NULL: none. */
    const volatile sig_atomic_t *interrupted;
} pb_enum_options;

/* Default options: every depth, default threads, no budget, no checkpoint. */
void pb_enum_options_init(pb_enum_options *o);

typedef enum {
    PB_ENUM_OK = 0,         /* finished: every game ended, or max_depth reached */
    PB_ENUM_MEMORY,         /* the memory budget was exceeded */
    PB_ENUM_STOPPED,        /* a visitor stopped it */
    PB_ENUM_IO,             /* a checkpoint could not be written */
    PB_ENUM_BAD_CHECKPOINT, /* --resume: the checkpoint is missing, malformed or for another game */
    PB_ENUM_INTERRUPTED     /* the time limit passed or *interrupted was set: res holds the
                                finished depths, the checkpoint the last of them */
} pb_enum_status;

typedef struct pb_enum_result {
    int nrows; /* rows[0 .. nrows-1] = depths 0 .. nrows-1 */
    pb_enum_row *rows;
    int rowcap;            /* rows allocated (all initialised) */
    int complete;          /* every game has ended: F(nrows-1) is empty */
    int last_depth;        /* the last finished depth (F built and checkpointed) */
    mpz_t games;           /* sum of finished over the rows: all games when complete */
    mpz_t positions;       /* sum of positions over the rows (see docs/enumerate.md) */
    long long peak_memory; /* bytes */
    double seconds;
    int resumed_from;  /* depth of the checkpoint resumed from, or -1 */
    char message[512]; /* why it stopped, for a status other than OK */
} pb_enum_result;

/* Enumerates from root (a position where the game goes on: between turns).
 * Fills res (free it with pb_enum_result_free, whatever the status).  For
 * a status other than OK, res holds the rows of the depths finished before
 * the stop and message says what happened. */
pb_enum_status pb_enumerate(const pb_field *f, const pb_position *root, const pb_enum_options *o, pb_enum_result *res);
void pb_enum_result_free(pb_enum_result *res);

/* The default checkpoint file name for a field:
 * "paperball-enum-<rules>-<G>-<W>-<L>[-s<S>][-deadloss].ckpt". */
void pb_enum_checkpoint_name(const pb_field *f, char *buf, size_t len);

#endif
