/* search.h - the exact solver: the value of a position (win / draw / loss
 * for the player to move, with perfect play by both sides), the value of
 * every first turn grouped into mirror classes, a best turn and a line of
 * perfect play to the end of the game.
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
#include "tt.h"
#include "turn.h"

/* Values for the player to move. */
enum { PB_LOSS = -1, PB_DRAW = 0, PB_WIN = 1, PB_UNKNOWN = -9 };

typedef struct pb_solve_opts {
    int threads;                     /* OpenMP threads; 0 = 1 */
    size_t hash_bytes;               /* table memory cap; 0 = by the free segments left
                                        (1 MiB for an endgame ... PB_SOLVE_DEFAULT_HASH) */
    double time_limit;               /* seconds; 0 = none */
    volatile sig_atomic_t *stop;     /* set (e.g. by SIGINT) to stop; may be NULL */
    FILE *progress;                  /* progress lines every ~2 s; NULL = none */
    int no_pv;                       /* skip the principal variation */
    int lazy_helpers;                /* idle threads help on unfinished first turns
                                        (off by default: measured slower) */
} pb_solve_opts;

#define PB_SOLVE_DEFAULT_HASH ((size_t)64 << 20)

/* One first turn (a route from the root position). */
typedef struct pb_solve_turn {
    int16_t *nodes;       /* owned */
    int len, kick;
    pb_end end;           /* the route itself ends the game */
    int mover;            /* who plays it: the root's player, or the opponent for a kick chain */
    int value;            /* for the player to move at the root; PB_UNKNOWN if not proven */
    int klass;            /* mirror class: index of the class's first route */
    uint64_t nodes_searched;
    double seconds;
} pb_solve_turn;

typedef struct pb_pv_turn {
    int16_t *nodes;       /* owned */
    int len, kick;
} pb_pv_turn;

typedef struct pb_solve_result {
    int value;            /* PB_UNKNOWN if stopped before the end */
    int complete;         /* every first turn proven */
    int stopped;          /* by the stop flag or the time limit */
    int nturns, nclasses, nsolved_classes;
    pb_solve_turn *turns;
    int best;             /* index into turns, -1 if none */
    int npv;
    pb_pv_turn *pv;       /* from the root to the end of the game */
    const char *pv_kind;  /* what kind of line the PV is */
    int mirror_lr;        /* the root is its own left-right mirror image */
    uint64_t nodes;       /* search nodes: single steps taken */
    double seconds, rate;
    int threads;
    size_t tt_bytes, tt_slots, tt_used;
    pb_tt_stats tt;
    size_t peak_rss;      /* bytes, VmHWM of the process */
} pb_solve_result;

/* Solves p (which must be a position where the game goes on).  Returns 0,
 * or -1 if the table could not be allocated.  r must be freed with
 * pb_solve_result_free. */
int pb_solve(const pb_field *f, const pb_position *p, const pb_solve_opts *o, pb_solve_result *r);
void pb_solve_result_free(pb_solve_result *r);

/* The root logic of pb_solve, in pieces, so that another way of proving the
 * first turns (the cluster solve, cli/mpi/mpi_solve.c) answers by the same
 * rules with the same code:
 *   pb_solve_root_turns -> prove the class representatives' values ->
 *   pb_solve_combine -> r->pv_kind = pb_solve_pv_kind, pb_solve_line. */

/* Lists the first turns of p (a position where the game goes on) into
 * r->turns / r->nturns in generation order (pb_routes_foreach).  A route
 * that ends the game gets its value from its end, the others PB_UNKNOWN.
 * When p is its own left-right mirror image (r->mirror_lr), mirrored
 * routes have equal values, so a route joins the class of the earlier
 * route that is its mirror image (klass = that route's index); otherwise
 * each route is its own class.  Sets r->nclasses; the rest of r is left
 * as it is. */
void pb_solve_root_turns(const pb_field *f, const pb_position *p, pb_solve_result *r);

/* Given the values of the classes' representatives (turns[i].klass == i;
 * PB_UNKNOWN where not proven), gives each mirror its class's value and
 * sets r->nsolved_classes, r->complete and, for p's player to move,
 * r->value: the best of its own routes, or the opponent's best kick chain
 * when the first turns are kicks; proven early when a won route (or, for
 * kicks, a lost one) is; PB_UNKNOWN otherwise.  r->best: a first turn
 * with the root's value, the first in order, except that a winner prefers
 * a route that ends the game and the other side one that does not (the
 * rule of the line); -1 when the value is unknown. */
void pb_solve_combine(const pb_position *p, pb_solve_result *r);

/* What kind of line pb_solve_line gives (for r->pv_kind). */
extern const char pb_solve_pv_kind[];

/* The next turn of a line from q (where the game goes on): a best route
 * for q's player to move into nodes (capacity cap), *kick its kick flag;
 * returns its length, or 0 to end the line (no route, or the search was
 * cut short).  q must be as it was on return. */
typedef int (*pb_solve_next_route)(void *ctx, pb_position *q, int16_t *nodes, int cap, int *kick);

/* The principal variation into r->pv / r->npv (r->npv == 0 on entry):
 * r->best's turn from p, then next's route from each position reached,
 * until the game ends or next gives none. */
void pb_solve_line(const pb_field *f, const pb_position *p, pb_solve_result *r, pb_solve_next_route next, void *ctx);

/* A solver kept between questions (play against the solver): one table,
 * one thread. */
typedef struct pb_solver pb_solver;
pb_solver *pb_solver_new(const pb_field *f, size_t hash_bytes);
void pb_solver_free(pb_solver *s);
/* The exact value of p for its player to move (p: the game goes on). */
int pb_solver_value(pb_solver *s, const pb_position *p);
/* A best route from p into nodes (capacity cap); returns its length, 0 if
 * the game is over at p.  *kick receives the triple kick flag, *value the
 * value of p. */
int pb_solver_best_route(pb_solver *s, const pb_position *p, int16_t *nodes, int cap, int *kick, int *value);
uint64_t pb_solver_nodes(const pb_solver *s);
/* Limits each later question to `seconds` (0 = none); a question cut
 * short answers PB_UNKNOWN (value) or 0 (route). */
void pb_solver_set_limit(pb_solver *s, double seconds);

const char *pb_value_name(int v);   /* "win", "draw", "loss", "unknown" */

#endif
