/* checkpoint.h - saving and loading the state of an enumeration after a
 * finished depth (internal to pbenumerate; the format is in
 * docs/enumerate.md and at the top of checkpoint.c). */
#ifndef PB_CHECKPOINT_H
#define PB_CHECKPOINT_H

#include "enumerate.h"
#include "frontier.h"

#define PB_CKPT_VERSION 1

/* Writes rows[0..depth] and the frontier F(depth) to path, through a
 * temporary file in the same directory renamed over path.  0, or -1 with
 * a message in err. */
int pb_ckpt_write(const char *path, const pb_field *f, const uint64_t *root_key, int depth,
                  const pb_enum_row *rows, const pb_frontier *fr, char *err, size_t errlen);

/* Reads a checkpoint written for the same field and root into rows
 * (initialised by the caller, rowcap of them) and the empty frontier fr.
 * Returns the checkpoint's depth, -1 with a one-line message in err if the
 * file is missing, malformed or for another game, or -2 if the memory
 * budget refused the frontier. */
int pb_ckpt_read(const char *path, const pb_field *f, const uint64_t *root_key, pb_enum_row *rows, int rowcap,
                 pb_frontier *fr, char *err, size_t errlen);

#endif
