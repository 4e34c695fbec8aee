/* ref_enum.h - a naive enumeration for the tests (tests/ref_enum.c). */
#ifndef PB_REF_ENUM_H
#define PB_REF_ENUM_H

#include <stdint.h>

#include "turn.h"

typedef struct ref_enum_row {
    uint64_t positions;    /* distinct positions after d turns, game going on */
    uint64_t classes_lr;   /* distinct canonical forms under {id, lr} */
    uint64_t classes_full; /* under {id, lr, tb, lr+tb}, tb swapping the player to move */
    uint64_t sequences;    /* turn sequences of exactly d turns */
    uint64_t finished;     /* of which the game ends with turn d */
    uint64_t outcome[8];   /* indexed like pb_enum_outcome */
} ref_enum_row;

/* Depth-first from root, every sequence walked separately (no sharing),
 * positions put in one plain hash set per depth.  Book and hockey turns
 * are walked step by step (pb_step); triple plies come from the game
 * model's pb_routes_foreach.  (A root with no ply is not handled.)  Fills rows[0 .. max_depth] (rowcap of
 * them must exist) and returns the number of rows, i.e. the last depth
 * reached + 1.  *distinct_all receives the number of distinct positions
 * over all depths together. */
int ref_enum(const pb_field *f, const pb_position *root, int max_depth, ref_enum_row *rows, int rowcap,
             uint64_t *distinct_all);

#endif
