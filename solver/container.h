/* container.h - the one file format for everything Paperball saves: a
 * self-describing, checksummed sequence of blocks (tablebases, and the
 * checkpoints of the enumeration and of the solver).
 *
 *   header   "PBALLBOX"             8 bytes magic
 *            u32 format version     PB_CONTAINER_VERSION
 *            4 bytes kind           what the file holds ("TBAS", "TBLK", ...)
 *            u32 rules goal width length setback dead_end nsegments
 *            u16 n + n bytes        options (free text, "key=value ...")
 *            u16 n + n bytes        program version (PB_PROGRAM_VERSION)
 *            u64 header checksum    XXH64 (seed 0) of the header bytes before it
 *   blocks   u32 tag                what the block holds (kind-specific)
 *            u32 codec              0 raw, 1 zstd
 *            u64 raw length         bytes of the block's content
 *            u64 stored length      bytes that follow
 *            u64 checksum           XXH64 of the raw content
 *            stored bytes
 *   trailer  u32 tag 0xFFFFFFFF, u32 0, u64 number of blocks,
 *            u64 whole-file checksum: XXH64 of every byte before it
 *
 * Every integer is little-endian.  A writer writes "<path>.tmp", flushes,
 * syncs and renames it over <path>, so <path> is always a whole file (the
 * old one or the new one).  A reader refuses a file whose magic, version,
 * kind, rules or field differ from what it expects, whose header or any
 * block checksum fails, or whose trailer is missing: the message is one
 * line, for the caller to print with exit status 2.
 */
#ifndef PB_CONTAINER_H
#define PB_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

#include "field.h"

#define PB_CONTAINER_VERSION 1
/* The program version written into every file. */
#define PB_PROGRAM_VERSION "paperball 0.1"

typedef struct pb_container_meta {
    char kind[5];       /* four characters and a NUL */
    pb_field_spec spec; /* rules and field */
    int nsegments;      /* of the field, as a check */
    char options[256];  /* free text */
    char version[64];   /* program version of the writer */
} pb_container_meta;

/* The meta of a field: kind, spec and segment count filled in, version set
 * to PB_PROGRAM_VERSION, options empty. */
void pb_container_meta_init(pb_container_meta *m, const char *kind, const pb_field *f);

typedef struct pb_cwriter pb_cwriter;
typedef struct pb_creader pb_creader;

/* Opens "<path>.tmp" and writes the header.  NULL with a message in err. */
/* A path a writer may rename over: missing, or a regular file.  A rename
 * over anything else (a device such as /dev/full, a pipe, a directory)
 * would replace it, not write into it: pb_container_create refuses it. */
int pb_container_replaceable(const char *path);
/* Can a writer create path (by "<path>.tmp" and a rename) at all: it is
 * replaceable and its directory exists and may be written.  Checked before
 * a long run, so that a checkpoint that could never be saved is said at
 * the start, not after hours of work.  0, or -1 with a message in err. */
int pb_container_writable(const char *path, char *err, size_t errlen);
/* The directory part of that check alone, for a file written in place
 * (a picture; it may be a device such as /dev/stdout): its directory
 * exists and may be written.  0, or -1 with a message in err. */
int pb_dir_writable(const char *path, char *err, size_t errlen);

pb_cwriter *pb_container_create(const char *path, const pb_container_meta *m, char *err, size_t errlen);
/* Appends a block (compress: zstd at level `compress`, 0 = raw).  0, or -1
 * (the writer remembers the failure; commit reports it). */
int pb_container_put(pb_cwriter *w, uint32_t tag, const void *data, size_t n, int compress);
/* Writes the trailer, syncs and renames over the path; frees w.  0, or -1
 * with a message in err (the temporary file is removed). */
int pb_container_commit(pb_cwriter *w, char *err, size_t errlen);
/* Gives up: removes the temporary file, frees w. */
void pb_container_abort(pb_cwriter *w);

/* Opens a container.  Checks the magic, the format version, the header
 * checksum, and (when not NULL) the kind and the field: rules, G, W, L,
 * setback and dead end of *expect.  With whole = 1 it also reads the whole
 * file once to check the trailer and the whole-file checksum.  NULL with a
 * one-line message in err. */
pb_creader *pb_container_open(const char *path, const char *kind, const pb_field_spec *expect, int whole, char *err,
                              size_t errlen);
const pb_container_meta *pb_container_meta_of(const pb_creader *r);
/* The next block: its tag and raw length, content not read yet.  Returns 1,
 * 0 at the trailer, -1 on a damaged file (message in err). */
int pb_container_next(pb_creader *r, uint32_t *tag, size_t *len, char *err, size_t errlen);
/* Reads the content of the block just announced into buf (len bytes),
 * decompressing and checking its checksum.  0, or -1 with err. */
int pb_container_read(pb_creader *r, void *buf, char *err, size_t errlen);
/* Skips the block just announced without reading it. */
int pb_container_skip(pb_creader *r, char *err, size_t errlen);
void pb_container_close(pb_creader *r);

/* Little-endian integers of `bytes` bytes in a byte buffer, as every
 * container field is written; pb_le_put returns the bytes written. */
size_t pb_le_put(unsigned char *b, uint64_t v, int bytes);
uint64_t pb_le_get(const unsigned char *b, int bytes);

/* A block's content built piece by piece, integers little-endian as
 * everywhere in the container.  When memory runs out, failed is set and
 * nothing more is added: the writer checks it before the block goes out
 * (a checkpoint that cannot be built is not written). */
typedef struct pb_cbuf {
    unsigned char *b;
    size_t n, cap;
    int failed;
} pb_cbuf;
void pb_cbuf_put(pb_cbuf *v, const void *p, size_t n);
void pb_cbuf_u(pb_cbuf *v, uint64_t x, int bytes);

/* Reading a block's content back: a cursor that refuses to run past the
 * end (bad is set and 0 read from then on). */
typedef struct pb_ccursor {
    const unsigned char *p, *end;
    int bad;
} pb_ccursor;
uint64_t pb_ccursor_u(pb_ccursor *c, int bytes);

/* XXH64 of n bytes (seed 0): the checksum the container uses. */
uint64_t pb_checksum(const void *data, size_t n);

#endif
