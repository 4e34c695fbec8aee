/* ref_minimax.h - brute-force values for checking the solver (tests only). */
#ifndef PB_REF_MINIMAX_H
#define PB_REF_MINIMAX_H

#include <stdint.h>

#include "search.h"

/* The value (PB_WIN / PB_DRAW / PB_LOSS) of p for its player to move by
 * plain minimax, or PB_UNKNOWN if more than `budget` turn nodes would be
 * needed.  p must be a position where the game goes on. */
int pb_ref_minimax_value(const pb_field *f, const pb_position *p, uint64_t budget);

#endif
