/* search.h - the exact solver: the value of a position (win / draw / loss
 * for the player to move, with perfect play by both sides), on request the
 * value of every first-turn class and of every first turn (route), a best
 * turn and a line of perfect play to the end of the game.
 *
 * The algorithm and the argument that the answers are exact are at the top
 * of search.c and in docs/solver.md.
 */
#ifndef PB_SEARCH_H
#define PB_SEARCH_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "process.h"
#include "proven.h"
#include "tt.h"
#include "turn.h"

/* Values for the player to move. */
enum { PB_LOSS = -1, PB_DRAW = 0, PB_WIN = 1, PB_UNKNOWN = -9 };

/* Called for every first turn of --all-routes, in generation order, with
 * its value for the root's player to move; return nonzero to stop. */
typedef int (*pb_solve_route_fn)(void *ctx, const pb_route *r, int value);

typedef struct pb_solve_opts {
    int threads;                  /* OpenMP threads; 0 = 1 */
    size_t hash_bytes;            /* table memory cap; 0 = by the free segments left
                                        (1 MiB for an endgame ... PB_SOLVE_DEFAULT_HASH) */
    double time_limit;            /* seconds; 0 = none */
    volatile sig_atomic_t *stop;  /* set (e.g. by SIGINT) to stop; may be NULL */
    FILE *progress;               /* progress lines every ~2 s; NULL = none */
    int no_pv;                    /* the best turn only, not the rest of the line */
    int first_turns;              /* also the value of every first-turn class */
    pb_solve_route_fn all_routes; /* also every route with its value (streamed); may be NULL */
    void *all_routes_ctx;
    size_t class_bytes; /* memory cap of the first-turn class list; 0 = PB_SOLVE_CLASS_BYTES */
    int full_keys;      /* no mirror images in the table's keys (tests, measurements) */
    int reduce_limit;   /* reduced keys (reach.h) when at most this many free segments
                           are reachable; 0 = the default (PB_REACH_LIMIT with
                           proof-number search, none with alpha-beta), < 0 = never */
    int no_tactics;     /* no "can the mover score this turn?" check (measurements) */
    int pn_epsilon;     /* proof-number search's 1+e slack in 1/1024 (pb_pns_opts.epsilon):
                           0 = the default (e = 1/4), < 0 = none (measurements) */
    int algo;           /* PB_ALGO_AB (0) or PB_ALGO_PN */
    pb_proven *proven;  /* saved proofs: consulted (published entries) and told of
                                        every proven node (solver/proven.h); may be NULL */
} pb_solve_opts;

/* How pb_solve proves values: proof-number search (pns.h; one thread) or
 * alpha-beta (this file; OpenMP threads). */
enum { PB_ALGO_AB = 0, PB_ALGO_PN = 1 };

#define PB_SOLVE_DEFAULT_HASH ((size_t)64 << 20)
#define PB_SOLVE_CLASS_BYTES ((size_t)64 << 20)

/* The default table for solving p: small for endgames (a large sparse
 * table costs page faults that would dominate a millisecond answer),
 * PB_SOLVE_DEFAULT_HASH otherwise. */
size_t pb_solve_default_hash(const pb_field *f, const pb_position *p);

/* One first-turn class: the first turns (routes) that lead to the same
 * position or to left-right mirror images of it; they have one value. */
typedef struct pb_solve_turn {
    int16_t *nodes; /* owned: the class's first route in generation order */
    int len, kick;
    pb_end end;      /* the route itself ends the game */
    int mover;       /* who plays it: the root's player, or the opponent for a kick chain */
    int value;       /* for the player to move at the root; PB_UNKNOWN if not proven */
    uint64_t routes; /* routes in the class */
    uint64_t nodes_searched;
    double seconds;
} pb_solve_turn;

typedef struct pb_pv_turn {
    int16_t *nodes; /* owned */
    int len, kick;
} pb_pv_turn;

typedef struct pb_solve_result {
    int value;    /* PB_UNKNOWN if stopped before it was proven */
    int complete; /* everything asked for is proven */
    int stopped;  /* by the stop flag or the time limit */
    int overflow; /* the class list outgrew its memory cap */
    int nturns;   /* first-turn classes listed (0 unless asked) */
    int nsolved_classes;
    int handed;              /* classes handed over to a team of two threads by the thread
                                still in them (--first-turns on 2 threads, book and hockey) */
    uint64_t nroutes;        /* first turns walked while listing the classes */
    uint64_t nroute_classes; /* of them, left-right classes of routes (a route and its
                                mirror route, when the root is its own mirror image) */
    pb_solve_turn *turns;
    int npv;
    pb_pv_turn *pv;      /* pv[0] is the best turn; then to the end of the game */
    const char *pv_kind; /* what kind of line the PV is */
    int mirror_lr;       /* the root is its own left-right mirror image */
    uint64_t nodes;      /* search nodes: single steps taken (plies in triple) */
    double seconds, rate;
    int threads;
    size_t tt_bytes, tt_slots;         /* the table's budget */
    size_t tt_in_use, tt_in_use_slots; /* the table as it was at the end (it grows up to the budget) */
    size_t tt_used;                    /* its ways filled then */
    pb_tt_stats tt;
    size_t peak_rss;           /* bytes, VmHWM of the process */
    int algo;                  /* PB_ALGO_AB or PB_ALGO_PN: what proved the values */
    uint64_t root_pn, root_dn; /* PB_ALGO_PN: the root's numbers in the last question */
} pb_solve_result;

/* Solves p (which must be a position where the game goes on): its value,
 * then what o asks for.  Returns 0, or -1 if the table could not be
 * allocated.  r must be freed with pb_solve_result_free. */
int pb_solve(const pb_field *f, const pb_position *p, const pb_solve_opts *o, pb_solve_result *r);
void pb_solve_result_free(pb_solve_result *r);

/* The root logic in pieces, so that another way of proving the classes
 * (the cluster solve, cli/mpi/mpi_solve.c) answers by the same rules with
 * the same code:
 *   pb_solve_root_turns -> prove the classes' values -> pb_solve_combine
 *   -> r->pv_kind = pb_solve_pv_kind, pb_solve_line. */

/* Lists the first-turn classes of p into r->turns / r->nturns in order of
 * their first route (pb_routes_foreach), without keeping any route but
 * each class's first.  A class is the set of routes whose positions after
 * the turn are equal or left-right mirror images (equal values).  A class
 * of routes that end the game gets its value from its end, the others
 * PB_UNKNOWN.  At most max_bytes are held (0 = PB_SOLVE_CLASS_BYTES):
 * beyond, r->overflow is set and the list stops.  keep_going (may be NULL)
 * is asked now and then; when it answers 0 the list stops and r->stopped
 * is set.  Sets r->mirror_lr.  Returns 0 if the list is whole, else -1. */
int pb_solve_root_turns(const pb_field *f, const pb_position *p, size_t max_bytes, int (*keep_going)(void *), void *ctx,
                        pb_solve_result *r);

/* Given the classes' values (PB_UNKNOWN where not proven), sets
 * r->nsolved_classes and, for p's player to move, r->value: the best of
 * its own routes, or the opponent's best kick chain when the first turns
 * are kicks; proven early when a won route (or, for kicks, a lost one) is;
 * PB_UNKNOWN otherwise (also when the list is not whole). */
void pb_solve_combine(const pb_position *p, pb_solve_result *r);

/* What kind of line pb_solve_line gives (for r->pv_kind). */
extern const char pb_solve_pv_kind[];

/* The next turn of a line from q (where the game goes on): a best route
 * for q's player to move into nodes (capacity cap), *kick its kick flag;
 * returns its length, or 0 to end the line (no route, or the search was
 * cut short).  q must be as it was on return. */
typedef int (*pb_solve_next_route)(void *ctx, pb_position *q, int16_t *nodes, int cap, int *kick);

/* The line into r->pv / r->npv (r->npv == 0 on entry): next's route from
 * p, then from each position reached, until the game ends, next gives
 * none or (max_turns > 0) max_turns turns are in. */
void pb_solve_line(const pb_field *f, const pb_position *p, pb_solve_result *r, pb_solve_next_route next, void *ctx,
                   int max_turns);

/* A solver kept between questions (play against the solver, the cluster
 * solve): one table, one thread. */
typedef struct pb_solver pb_solver;
pb_solver *pb_solver_new(const pb_field *f, size_t hash_bytes);
/* The same with `threads` OpenMP threads for pb_solver_value_budget (the
 * other calls use one); the table is then locked per bucket. */
pb_solver *pb_solver_new_threads(const pb_field *f, size_t hash_bytes, int threads);
/* The same searching by `algo` (PB_ALGO_AB or PB_ALGO_PN): with proof-number
 * search, pb_solver_value and pb_solver_best_route use one kept search
 * (pns.h, pb_pns_rearm) and its table of hash_bytes (0: the default);
 * the other calls are alpha-beta's alone. */
pb_solver *pb_solver_new_algo(const pb_field *f, size_t hash_bytes, int algo);
void pb_solver_free(pb_solver *s);
/* The exact value of p for its player to move (p: the game goes on). */
int pb_solver_value(pb_solver *s, const pb_position *p);
/* Tells the table that p's value for its player to move is v (a value
 * proven elsewhere, e.g. by another process). */
void pb_solver_learn(pb_solver *s, const pb_position *p, int v);
/* A best route from p into nodes (capacity cap) by the rule of
 * pb_solve_pv_kind; returns its length, 0 if the game is over at p.
 * *kick receives the triple kick flag, *value the value of p. */
int pb_solver_best_route(pb_solver *s, const pb_position *p, int16_t *nodes, int cap, int *kick, int *value);
uint64_t pb_solver_nodes(const pb_solver *s);
/* Limits each later question to `seconds` (0 = none); a question cut
 * short answers PB_UNKNOWN (value) or 0 (route). */
void pb_solver_set_limit(pb_solver *s, double seconds);
/* The stop flag (e.g. of SIGINT and SIGTERM) for the later questions
 * (NULL = none): once set, a question answers as if out of time. */
void pb_solver_set_stop(pb_solver *s, volatile sig_atomic_t *stop);
/* Reduced keys (reach.h) from now on: as pb_solve_opts.reduce_limit. */
void pb_solver_set_reduce(pb_solver *s, int limit);
/* Saved proofs for the later questions, as pb_solve_opts.proven (NULL =
 * none). */
void pb_solver_set_proven(pb_solver *s, pb_proven *store);
/* The exact value of p (as pb_solver_value) on the solver's threads, or
 * PB_UNKNOWN when max_nodes nodes (about: counted every few thousand) or
 * the time limit ran out first; max_nodes 0 = no budget.  The table keeps
 * what was proven before the cut. */
int pb_solver_value_budget(pb_solver *s, const pb_position *p, uint64_t max_nodes);

/* Free segments reachable from the ball along free segments: a bound on
 * the steps left in the game (what sizes the default table). */
int pb_reachable_segments(const pb_field *f, const pb_position *p);

const char *pb_value_name(int v); /* "win", "draw", "loss", "unknown" */

#endif
