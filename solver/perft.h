/* perft.h - perft(d) (turn sequences) and positions(d) (distinct positions
 * where the game goes on) per depth, RULES.md section 4, by breadth-first
 * expansion of distinct positions with multiplicities. */
#ifndef PB_PERFT_H
#define PB_PERFT_H

#include "turn.h"

typedef struct pb_perft_row {
    int depth;
    uint64_t sequences;   /* perft(depth) */
    uint64_t positions;   /* positions(depth) */
    uint64_t finished;    /* sequences that end the game exactly at this depth */
    int overflow;         /* a 64-bit count overflowed: the row is not exact */
} pb_perft_row;

/* Fills rows[0..maxdepth-1] for depths 1..maxdepth from p.  Returns the
 * number of rows filled (fewer when every game has ended). */
int pb_perft(const pb_field *f, const pb_position *p, int maxdepth, pb_perft_row *rows);

/* Plain depth-first perft (no table): the number of turn sequences of
 * exactly d turns. */
uint64_t pb_perft_dfs(const pb_field *f, pb_position *p, int d);

/* The single steps (pb_step calls) that pb_perft_dfs(d) takes under the
 * bounce rules (book, hockey): the measure of the move-generation
 * benchmark. */
uint64_t pb_perft_steps(const pb_field *f, pb_position *p, int d);

#endif
