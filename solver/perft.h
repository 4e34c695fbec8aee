/* perft.h - perft(d) (turn sequences of exactly d turns), positions(d)
 * (distinct positions after d turns where the game goes on) and the games
 * that end with turn d, per depth (docs/rules.md, counting).  Three
 * methods, which the tests hold against each other:
 *
 *   pb_perft        breadth-first: every distinct position of a depth is
 *                   stored with its multiplicity (the only one that gives
 *                   positions(d); memory grows with them);
 *   pb_perft_count  breadth-first while a depth is small (up to the
 *                   positions with two turns left), then depth-first from
 *                   each distinct position, nothing stored but the turn
 *                   walks' scratch and two caches of counts: each turn's
 *                   distinct outcomes with their route counts
 *                   (solver/turnwalk.h), the last turn counted in bulk and
 *                   remembered per position in a table the threads share;
 *                   OpenMP over the distinct positions;
 *   pb_perft_dfs    plain route by route (the reference and the benchmark's
 *                   inner loop).
 */
#ifndef PB_PERFT_H
#define PB_PERFT_H

#include <signal.h>

#include "turn.h"

typedef struct pb_perft_row {
    int depth;
    uint64_t sequences; /* perft(depth) */
    uint64_t positions; /* positions(depth) (pb_perft only; 0 from pb_perft_count) */
    uint64_t finished;  /* sequences that end the game exactly at this depth */
    int overflow;       /* a 64-bit count overflowed: the row is not exact */
    int out_of_memory;  /* pb_perft: memory ran out at this depth, its counts are partial */
} pb_perft_row;

/* Fills rows[0..maxdepth-1] for depths 1..maxdepth from p.  Returns the
 * number of rows filled (fewer when every game has ended). */
int pb_perft(const pb_field *f, const pb_position *p, int maxdepth, pb_perft_row *rows);
/* pb_perft that ends early once *stop (e.g. a caught SIGTERM; may be NULL)
 * is set: the rows returned are then the depths finished before it.  When
 * memory runs out at a depth, its row is the last one returned, marked
 * out_of_memory. */
int pb_perft_until(const pb_field *f, const pb_position *p, int maxdepth, volatile sig_atomic_t *stop,
                   pb_perft_row *rows);

/* Depth-first: fills rows[0..maxdepth-1] (sequences and finished; a depth
 * no game reaches has zeros) for depths 1..maxdepth from p, a position
 * where the game goes on.  threads: OpenMP threads (0: the default); the
 * counts do not depend on it (sums of exact integers).  Returns 0, or -1
 * when a turn walk ran out of memory (the rows are then incomplete). */
int pb_perft_count(const pb_field *f, const pb_position *p, int maxdepth, int threads, pb_perft_row *rows);
/* pb_perft_count that ends early once *stop (may be NULL) is set: it then
 * returns -2 and no row is exact (every depth is counted in one walk). */
int pb_perft_count_until(const pb_field *f, const pb_position *p, int maxdepth, int threads,
                         volatile sig_atomic_t *stop, pb_perft_row *rows);

/* pb_perft_count with its two tunings set (tests only): the first turns
 * are expanded breadth-first while a depth has fewer than breadth_max
 * positions (pb_perft_count: 2^17), and a last turn with more than
 * bulk_budget bounces is walked by its outcomes instead of counted route
 * by route (4096).  The counts do not depend on them. */
int pb_perft_count_tuned(const pb_field *f, const pb_position *p, int maxdepth, int threads, size_t breadth_max,
                         long bulk_budget, pb_perft_row *rows);

/* Plain depth-first perft (no table): the number of turn sequences of
 * exactly d turns. */
uint64_t pb_perft_dfs(const pb_field *f, pb_position *p, int d);

/* The single steps (pb_step calls) that pb_perft_dfs(d) takes under the
 * bounce rules (book, hockey): the measure of the move-generation
 * benchmark. */
uint64_t pb_perft_steps(const pb_field *f, pb_position *p, int d);

#endif
