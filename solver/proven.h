/* proven.h - saved proofs: an exact store of proven positions that outlives
 * the solver's table, written to and read from a checkpoint file, so that a
 * stopped solve can resume and a rerun is fast.
 *
 * What it holds.  Each entry is a whole position (its packed key, see
 * posset.h: the drawn segments, the ball, the player to move) with proven
 * bounds lo <= value <= hi on its value for the player to move (-1 loss,
 * 0 draw, 1 win; lo == hi is an exact value), the best step when one is
 * known (a direction 0..7, 8 = none), and the work the proof took (search
 * nodes below it, saturating).  The searches report every proven node
 * (pb_proven_note); only those with work >= min_work are kept, so the store
 * stays small: it holds the expensive proofs, the table the cheap ones.
 * When the store outgrows its memory cap, min_work is raised (times 4) and
 * the entries below it are dropped: that loses speed on a resume, never
 * truth.
 *
 *   info word:  bits 0..1  lo + 1      bits 4..7   best direction (8 = none)
 *               bits 2..3  hi + 1      bits 8..63  work (saturating)
 *
 * Keys.  A position and its three mirror images (left-right; top-bottom
 * with the players swapped; both) have the same value for the player to
 * move (the argument at the top of search.c).  The store keeps one entry
 * per set of images (the image of least hash, ties by the key's words), and
 * the lookup index holds all four images of each entry, so a probe is one
 * hash lookup of the position as it is, in whatever orientation a search
 * meets it.  Lookups compare whole keys: a hash collision can cost a probe,
 * never a value.
 *
 * Why a resumed answer is the same: every entry is a theorem (a bound a
 * finished search proved, or read from a file whose checksums hold and
 * whose rules and field are this run's), so narrowing a search window by
 * it cannot change any value; the searches' own argument (the top of
 * search.c and pns.c) holds with more proven bounds as with fewer.
 *
 * Proofs of another solve.  An entry is a whole position (every drawn
 * segment, the ball, the player to move), and its value depends on
 * nothing else: not on the moves that led to it, nor on the root of the
 * search that proved it (the rules have no history beyond the drawn
 * segments; the key is what the solver's own table keys by in full).  So
 * the proofs of one solve hold in any solve of the same rules and field,
 * whatever its root: pb_proven_import reads them.  The root check of
 * pb_proven_load is only against a mistake (resuming with the checkpoint
 * of another run), not a condition of truth.
 *
 * Threads.  Notes come from any number of search threads at once and take
 * a mutex (they are rare: only proofs above min_work).  Probes read only
 * the lookup index, which is rebuilt by pb_proven_publish while no search
 * runs (after a load, or between jobs), so they take no lock.  A save
 * takes a snapshot under the mutex and writes it outside.
 *
 * The file: the container format (container.h), kind "SOLV", options text
 * naming the algorithm, min_work, entry count and the root's hash; blocks
 * PB_PROVEN_TAG_ROOT (the root's packed key, little-endian words) and
 * PB_PROVEN_TAG_ENTRIES (entries of kw key words and the info word each,
 * little-endian, zstd, at most 1 << 16 entries a block).  A file is refused
 * (one line, for exit status 2) if it is damaged, of another kind, or
 * written for other rules, field, setback, dead end or root position.
 */
#ifndef PB_PROVEN_H
#define PB_PROVEN_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "posset.h"

#define PB_PROVEN_KIND "SOLV"
#define PB_PROVEN_TAG_ROOT 0x544f4f52u    /* "ROOT" */
#define PB_PROVEN_TAG_ENTRIES 0x564f5250u /* "PROV" */
/* Default min_work: proofs of this many search nodes or more are kept. */
#define PB_PROVEN_MIN_WORK ((uint64_t)1 << 14)
/* Default memory cap of the store (the index takes about as much again). */
#define PB_PROVEN_MAX_BYTES ((size_t)32 << 20)
/* The work of a value proven as a whole (the root, a first-turn class):
 * never dropped. */
#define PB_PROVEN_PINNED (((uint64_t)1 << 56) - 1)

typedef struct pb_proven {
    const pb_field *f;
    uint64_t root[PB_MAX_WORDS + 1]; /* the root position, packed */
    uint64_t root_hash;
    uint64_t min_work;         /* notes with less work are not kept */
    size_t max_bytes;          /* of `all`; beyond, min_work rises */
    pthread_mutex_t lock;      /* guards all, min_work and the counters */
    pthread_mutex_t save_lock; /* one save at a time (one temporary file) */
    pb_posset all;             /* one image per entry -> info word */
    pb_posset index;           /* every image of the published entries -> info word */
    size_t npublished;         /* entries visible to probes */
    uint64_t noted, raised;    /* notes kept; times min_work was raised */
} pb_proven;

/* A store for solves of root on field f.  min_work 0 = PB_PROVEN_MIN_WORK,
 * max_bytes 0 = PB_PROVEN_MAX_BYTES. */
void pb_proven_init(pb_proven *s, const pb_field *f, const pb_position *root, uint64_t min_work, size_t max_bytes);
void pb_proven_free(pb_proven *s);

/* Records the proven bounds lo <= value(p) <= hi for p's player to move,
 * best step `best` (p's own orientation; 8 = none), found with `work`
 * search nodes; kept if work >= min_work (merged with what is there: the
 * larger lower and the smaller upper bound).  Thread-safe. */
void pb_proven_note(pb_proven *s, const pb_position *p, int lo, int hi, int best, uint64_t work);

/* Makes every entry noted or loaded so far visible to probes.  Not while
 * a search probes. */
void pb_proven_publish(pb_proven *s);

/* Entries kept, entries visible to probes. */
size_t pb_proven_size(pb_proven *s);
static inline size_t pb_proven_published(const pb_proven *s) { return s->npublished; }

/* Looks up the position (segments seg, ball, player to move, Zobrist hash)
 * among the published entries: 1 with its bounds (and best step, in the
 * position's own orientation, if best is not NULL), 0 if unknown. */
int pb_proven_probe(const pb_proven *s, const uint64_t *seg, int ball, int to_move, uint64_t hash, int *lo, int *hi,
                    int *best);

/* Proven bounds lo <= value <= hi against an alpha-beta window: 1 with
 * *cut when they alone answer the search (fail-soft: the bound that
 * decides it), else 0 with the window narrowed to them.  (The table's
 * probe in search.c and the saved proofs share it.) */
static inline int pb_bounds_cut(int lo, int hi, int *alpha, int *beta, int *cut) {
    if (lo >= *beta) return *cut = lo, 1;
    if (hi <= *alpha) return *cut = hi, 1;
    if (lo == hi) return *cut = lo, 1;
    if (lo > *alpha) *alpha = lo;
    if (hi < *beta) *beta = hi;
    return 0;
}

/* For alpha-beta: pb_bounds_cut with p's published bounds, 0 if p has
 * none. */
static inline int pb_proven_cut(const pb_proven *s, const pb_position *p, int *alpha, int *beta, int *cut) {
    int lo, hi;
    if (!s->index.size || !pb_proven_probe(s, p->seg, p->ball, p->to_move, p->hash, &lo, &hi, NULL)) return 0;
    return pb_bounds_cut(lo, hi, alpha, beta, cut);
}

/* For proof-number search: is "player A reaches at least t" decided at the
 * position?  1 yes, -1 no, 0 not known. */
static inline int pb_proven_question(const pb_proven *s, const uint64_t *seg, int ball, int to_move, uint64_t hash,
                                     int A, int t) {
    int lo, hi;
    if (!s->index.size || !pb_proven_probe(s, seg, ball, to_move, hash, &lo, &hi, NULL)) return 0;
    int alo = A == to_move ? lo : -hi, ahi = A == to_move ? hi : -lo;
    return alo >= t ? 1 : ahi < t ? -1 : 0;
}

/* Writes the store to path (temporary file and rename): the header's
 * options get `note` (free text, may be NULL) after the store's own words.
 * Thread-safe.  0, or -1 with a one-line message in err. */
int pb_proven_save(pb_proven *s, const char *path, const char *note, char *err, size_t errlen);

/* Reads a file written by pb_proven_save for the same rules, field and
 * root into the store, and publishes.  0, or -1 with a one-line message in
 * err (bad input: exit status 2); nothing is added then. */
int pb_proven_load(pb_proven *s, const char *path, char *err, size_t errlen);

/* Reads the proofs of a file written by pb_proven_save for the same rules
 * and field, whatever its root (the proofs of another solve: above), into
 * the store, and publishes; *nread (may be NULL) gets the number of
 * positions read.  0, or -1 with a one-line message in err (bad input:
 * exit status 2); nothing is added then. */
int pb_proven_import(pb_proven *s, const char *path, size_t *nread, char *err, size_t errlen);

/* Saves in a thread of its own every `every` seconds until stopped.  log
 * (may be NULL) gets a line per save and per failure. */
typedef struct pb_proven_saver pb_proven_saver;
pb_proven_saver *pb_proven_saver_start(pb_proven *s, const char *path, const char *note, double every, FILE *log);
/* Stops the thread (at once, without a last save).  Returns the number of
 * saves that failed, the last message in err. */
int pb_proven_saver_stop(pb_proven_saver *v, char *err, size_t errlen);

#endif
