/* checkpoint.h - saving and loading the state of an enumeration after a
 * finished depth (internal to pbenumerate; the format, a container of
 * solver/container.h, is in docs/enumerate.md and at the top of
 * checkpoint.c). */
#ifndef PB_CHECKPOINT_H
#define PB_CHECKPOINT_H

#include "enumerate.h"
#include "frontier.h"

/* The container kind of an enumeration checkpoint (solver/container.h). */
#define PB_CKPT_KIND "ENUM"

/* Writes rows[0..depth] and the frontier F(depth) to path, through a
 * temporary file in the same directory renamed over path.  0, or -1 with
 * a message in err (-2: memory ran out; the old file stays). */
int pb_ckpt_write(const char *path, const pb_field *f, const uint64_t *root_key, int depth, const pb_enum_row *rows,
                  const pb_frontier *fr, char *err, size_t errlen);

/* Reads a checkpoint written for the same field and root into rows
 * (initialised by the caller, rowcap of them) and the empty frontier fr.
 * nranks 0: the file holds the whole frontier; nranks >= 1: it holds the
 * share of process `rank` of nranks (a distributed run, one file per
 * process), and every entry must be owned by that process
 * (pb_enum_owner).  Returns the checkpoint's depth, -1 with a one-line
 * message in err if the file is missing, malformed or for another game,
 * or -2 if the memory budget refused the frontier. */
int pb_ckpt_read(const char *path, const pb_field *f, const uint64_t *root_key, int rank, int nranks, pb_enum_row *rows,
                 int rowcap, pb_frontier *fr, char *err, size_t errlen);

/* The depth of the checkpoint at path if it is one of this field and root
 * (header only, no checksum: pb_ckpt_read checks the whole file), else -1. */
int pb_ckpt_depth(const char *path, const pb_field *f, const uint64_t *root_key);

/* The file of process `rank` of nranks for the checkpoint path `base` of
 * a distributed run, in slot 0 or 1 (even and odd depths take turns, so
 * the depth every process finished saving is always on disk):
 * "<base>.<rank>-of-<nranks>.<slot>". */
void pb_ckpt_rank_path(const char *base, int rank, int nranks, int slot, char *buf, size_t len);

#endif
