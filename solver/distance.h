/* distance.h - the distance to the end: the value of a position together
 * with the number of turns still to be played when both sides play
 * perfectly and care about time, the winner ending as fast as it can and
 * the loser holding out as long as it can (the turn that ends the game
 * counts 1; a draw has no distance), and a line that realises it.
 *
 * The measure is the tablebases' (docs/tablebase.md): within one turn the
 * mover orders outcomes faster win > slower win > draw > slower loss >
 * faster loss.  It is found here by a search of its own (distance.c), so it
 * answers for any position the search can finish, without a table built
 * beforehand; the tablebases are its independent check (tests).  In
 * triple every ply counts as a turn: a normal move, or a free-kick chain
 * (played by the kicker).
 *
 * It costs more than the value alone (pb_solve): a won position is not
 * done at the first winning turn, every faster one must be ruled out.
 */
#ifndef PB_DISTANCE_H
#define PB_DISTANCE_H

#include "search.h"

typedef struct pb_distance_opts {
    size_t table_bytes;          /* memory of the table; 0 = pb_solve_default_hash */
    double time_limit;           /* seconds; 0 = none */
    volatile sig_atomic_t *stop; /* set (e.g. by SIGINT) to stop; may be NULL */
    FILE *progress;              /* progress lines every ~2 s; NULL = none */
    int no_line;                 /* the first turn of the line only */
} pb_distance_opts;

typedef struct pb_distance_result {
    int value;    /* PB_WIN / PB_DRAW / PB_LOSS for the player to move; PB_UNKNOWN if stopped */
    int distance; /* turns to the end (>= 1) for a win or a loss; 0 for a draw or unknown */
    int stopped;  /* by the stop flag or the time limit */
    int npv;      /* the line: pv[0] is a best turn; a decided line has `distance` turns */
    pb_pv_turn *pv;
    uint64_t nodes; /* positions searched (turns expanded) */
    double seconds;
    size_t table_bytes, table_slots;
    uint64_t probes, hits, stores;
} pb_distance_result;

/* Solves p (a position where the game goes on) for value and distance,
 * then the line.  Returns 0, or -1 if the table could not be allocated.
 * r must be freed with pb_distance_result_free. */
int pb_distance_solve(const pb_field *f, const pb_position *p, const pb_distance_opts *o, pb_distance_result *r);
void pb_distance_result_free(pb_distance_result *r);

#endif
