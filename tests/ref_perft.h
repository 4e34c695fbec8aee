/* ref_perft.h - a naive reference for the bounce rules (book, hockey),
 * written apart from solver/: its own coordinates, its own segment store,
 * plain recursion over routes.  Slow on purpose; used only by the tests. */
#ifndef REF_PERFT_H
#define REF_PERFT_H

#include <stdint.h>

typedef struct ref_counts {
    uint64_t sequences; /* perft(d) */
    uint64_t positions; /* distinct positions after d turns, game going on */
    uint64_t finished;  /* sequences ending the game at turn d */
    uint64_t goals_top_wins, goals_bottom_wins, dead_ends_draw;
} ref_counts;

/* rules: 0 book, 1 hockey.  dead_end_loses: hockey option.  Counts for
 * depths 1..depth from the start with Top to move.  out[d-1] for depth d. */
void ref_perft(int rules, int goal, int width, int length, int setback, int dead_end_loses, int depth, ref_counts *out);

#endif
