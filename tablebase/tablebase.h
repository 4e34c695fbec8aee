/* tablebase.h - endgame tablebases for book and hockey: every position
 * between turns reachable from a root, with its value and distance for the
 * player to move; building (retrograde, layer by layer), reading, probing
 * and an independent verifier.  The file format is in docs/tablebase.md.
 *
 * Layers.  A turn that does not end the game stops on an empty node and so
 * converts exactly one empty node into an occupied one; nothing else ever
 * empties or fills a node.  So the layer of a position, the number of nodes
 * empty at the start and occupied now (pb_tb_layer_of), goes up by one with
 * every turn: every successor of a layer-d position lies in layer d + 1,
 * and the player to move is fixed by the layer's parity.  Triple has no
 * such layering (a move touches three nodes, a kick chain any number, and
 * kicks do not pass the turn), so it is refused.
 *
 * Keys.  A position of a layer is stored as its key: kbytes bytes,
 *
 *   byte 0, 1        the ball's lattice index, big-endian
 *   byte 2 + s/8     bit 7 - s%8: segment s is drawn
 *
 * held in memory as kw = ceil(kbytes / 8) 64-bit words, word i = bytes
 * 8i .. 8i+7 big-endian (zero-padded), so comparing words in order is
 * comparing the bytes.  The left-right mirror image of a position has the
 * same value and distance, so a layer stores each mirror class once, under
 * the smaller of its two keys (pb_tb_canon).  Layers are sorted by key.
 *
 * Values.  One byte for the player to move: 0 draw, 2k - 1 win in k turns,
 * 2k loss in k turns (k >= 1 turns still to be played, the last one the
 * turn that ends the game).  Within a turn the mover prefers a faster win
 * to a slower one, any win to a draw, a draw to any loss, and a slower loss
 * to a faster one (pb_tb_rank).
 */
#ifndef PB_TABLEBASE_H
#define PB_TABLEBASE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "position.h"

#define PB_TB_KIND "TBAS"  /* the tablebase file */
#define PB_TB_MAX_KW 66    /* words of the longest key (4096 segments) */
#define PB_TB_MAX_DIST 127 /* distances fit the value byte */

/* Block tags of a tablebase file: the header block, then the entry blocks
 * of each layer in order, tag = PB_TB_TAG_ENTRIES | layer << 8. */
#define PB_TB_TAG_HEADER 1u
#define PB_TB_TAG_ENTRIES 2u

/* ---- keys, layers and values (tablebase/key.c) ---- */

typedef struct pb_tb_keyfmt {
    int kbytes, kw;
} pb_tb_keyfmt;

void pb_tb_keyfmt_init(pb_tb_keyfmt *k, const pb_field *f);
/* p's own key. */
void pb_tb_pack(const pb_field *f, const pb_tb_keyfmt *k, const pb_position *p, uint64_t *key);
/* The key of p's class: the smaller of p's key and its mirror image's.
 * Returns 1 if p is its own mirror image (the class has one position), 2
 * otherwise. */
int pb_tb_canon(const pb_field *f, const pb_tb_keyfmt *k, const pb_position *p, uint64_t *key);
/* pb_tb_canon of the position with segment words seg (f->nwords of them)
 * and the ball at `ball`: a mid-turn key (pb_position_pack) needs no
 * position built. */
int pb_tb_canon_segs(const pb_field *f, const pb_tb_keyfmt *k, const uint64_t *seg, int ball, uint64_t *key);
/* The same, faster for the positions after the turns from one parent: base
 * holds the parent's segment words and base_mirror their mirror image
 * (pb_tb_mirror_segs), so only the segments the turn drew are mirrored
 * (any seg is right; one that does not hold all of base is done whole). */
int pb_tb_canon_near(const pb_field *f, const pb_tb_keyfmt *k, const uint64_t *seg, int ball, const uint64_t *base,
                     const uint64_t *base_mirror, uint64_t *key);
/* The left-right mirror image of the segment words seg (f->nwords). */
void pb_tb_mirror_segs(const pb_field *f, const uint64_t *seg, uint64_t *out);
/* The position of a key with `to_move` to move. */
void pb_tb_unpack(const pb_field *f, const pb_tb_keyfmt *k, const uint64_t *key, int to_move, pb_position *p);
/* The layer of a position: nodes empty at the start that are occupied now. */
int pb_tb_layer_of(const pb_field *f, const pb_position *p);
/* Compare keys of kw words. */
static inline int pb_tb_cmp(const uint64_t *a, const uint64_t *b, int kw) {
    for (int i = 0; i < kw; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}
/* Index of key in the sorted keys[0..n-1], or -1. */
long pb_tb_search(const uint64_t *keys, size_t n, int kw, const uint64_t *key);
/* Sorts n keys and removes repeats; returns the new n. */
size_t pb_tb_sort_unique(uint64_t *keys, size_t n, int kw);

/* A set of keys (tablebase/keyset.c), kept at most half full.  The
 * forward pass and the estimate gather a layer's successor classes in it
 * and then take them sorted.  A key added waits in a short queue while its
 * slot is fetched into the cache (the set is far larger than the cache and
 * its slots are random), so that a few look-ups overlap. */
#define PB_TB_KEYSET_QUEUE 8
typedef struct pb_tb_keyset {
    int kw;
    size_t n, nslots; /* keys held; slots (a power of two, or 0) */
    uint64_t *slot;   /* nslots * kw words */
    int npend, first; /* keys queued, the oldest's place in the ring */
    uint64_t pend_hash[PB_TB_KEYSET_QUEUE];
    uint64_t pend[PB_TB_KEYSET_QUEUE * PB_TB_MAX_KW];
} pb_tb_keyset;

void pb_tb_keyset_init(pb_tb_keyset *s, int kw);
void pb_tb_keyset_free(pb_tb_keyset *s);
/* Must it grow before one more key goes in (the queued ones counted)? */
static inline int pb_tb_keyset_full(const pb_tb_keyset *s) { return 2 * (s->n + (size_t)s->npend + 1) > s->nslots; }
/* Bytes of the slots after the next growth (the old ones are freed after
 * the keys have moved). */
size_t pb_tb_keyset_grown_bytes(const pb_tb_keyset *s);
/* Doubles the slots.  0, or -1 when memory runs out (the set unchanged). */
int pb_tb_keyset_grow(pb_tb_keyset *s);
/* Adds key to a set that is not full (it may wait in the queue). */
void pb_tb_keyset_add(pb_tb_keyset *s, const uint64_t *key);
/* Grows when full, then adds: 0, or -1 when memory runs out. */
int pb_tb_keyset_put(pb_tb_keyset *s, const uint64_t *key);
/* Puts the queued keys in: s->n is then the number of distinct keys. */
void pb_tb_keyset_flush(pb_tb_keyset *s);
/* The keys, sorted, as one malloc'd array of *n keys (the caller frees
 * it); the set is left empty. */
uint64_t *pb_tb_keyset_take_sorted(pb_tb_keyset *s, size_t *n);

/* Value bytes. */
enum { PB_TB_DRAW = 0 };
static inline uint8_t pb_tb_win(int k) { return (uint8_t)(2 * k - 1); }
static inline uint8_t pb_tb_loss(int k) { return (uint8_t)(2 * k); }
/* PB_WIN 1, PB_DRAW 0, PB_LOSS -1 (solver/search.h's values). */
static inline int pb_tb_value(uint8_t v) { return v == 0 ? 0 : (v & 1) ? 1 : -1; }
static inline int pb_tb_distance(uint8_t v) { return (v + 1) / 2; }
/* The mover's value of a turn after which the opponent has `next`. */
static inline uint8_t pb_tb_after(uint8_t next) {
    if (next == PB_TB_DRAW) return PB_TB_DRAW;
    int k = pb_tb_distance(next) + 1;
    return (next & 1) ? pb_tb_loss(k) : pb_tb_win(k);
}
/* The mover's value of a turn that ends the game with `loser` losing
 * (PB_NOBODY: a draw). */
static inline uint8_t pb_tb_end(int loser, int mover) {
    return loser == PB_NOBODY ? PB_TB_DRAW : loser == mover ? pb_tb_loss(1) : pb_tb_win(1);
}
/* Larger is better for the mover. */
static inline int pb_tb_rank(uint8_t v) {
    return v == 0 ? 0 : (v & 1) ? 1000 - pb_tb_distance(v) : -1000 + pb_tb_distance(v);
}
/* "win in 3", "draw", "loss in 2" into buf. */
const char *pb_tb_describe(uint8_t v, char *buf, size_t len);

/* ---- the file (tablebase/file.c) ---- */

/* Counts of one layer.  Classes are stored entries (a position and its
 * mirror image count once); positions count both. */
typedef struct pb_tb_layer_counts {
    uint64_t classes, positions;
    uint64_t classes_by[3], positions_by[3]; /* index pb_tb_value(v) + 1: loss, draw, win */
    uint64_t blocks;
} pb_tb_layer_counts;

typedef struct pb_tb_header {
    int d0, dmax; /* the root's layer, the deepest layer (empty layers not stored) */
    int root_to_move;
    uint64_t root[PB_TB_MAX_KW]; /* the root's own key (not canonical) */
    pb_tb_layer_counts *layer;   /* layer[d - d0], d0 .. dmax */
} pb_tb_header;

/* One layer in memory. */
typedef struct pb_tb_layer {
    int depth, to_move;
    size_t n;
    uint64_t *keys; /* n * kw words, sorted */
    uint8_t *vals;  /* n values, or NULL */
} pb_tb_layer;

void pb_tb_layer_free(pb_tb_layer *L);

/* A tablebase file opened for reading. */
typedef struct pb_tb {
    char path[512];
    pb_field *f;
    pb_tb_keyfmt k;
    pb_tb_header h;
    char options[256], version[64];
} pb_tb;

/* Opens a tablebase: the container checks (magic, version, kind, every
 * checksum when whole = 1), then the header block.  NULL with a one-line
 * message in err (a damaged or foreign file: exit status 2). */
pb_tb *pb_tb_open(const char *path, int whole, char *err, size_t errlen);
void pb_tb_close(pb_tb *tb);
/* Loads layer d (d0 <= d <= dmax) with its values.  0, or -1 with err. */
int pb_tb_load(const pb_tb *tb, int d, pb_tb_layer *L, char *err, size_t errlen);
/* The value of p (a position of layer d, whose layer L is loaded), or -1
 * if p is not in it. */
int pb_tb_lookup(const pb_tb *tb, const pb_tb_layer *L, const pb_position *p);
/* The root position. */
void pb_tb_root(const pb_tb *tb, pb_position *p);
/* The player to move in layer d. */
static inline int pb_tb_to_move(const pb_tb_header *h, int d) { return h->root_to_move ^ ((d - h->d0) & 1); }

/* Writing (the builder): entry blocks of a layer (keys front-coded, then
 * the values), so that a layer of n entries takes ceil(n / block) blocks.
 * Returns the number of blocks, or -1. */
struct pb_cwriter;
long pb_tb_put_layer(struct pb_cwriter *w, const pb_tb_keyfmt *k, uint32_t tag, const uint64_t *keys,
                     const uint8_t *vals, size_t n);
/* Reads one entry block (already announced by pb_container_next) and
 * appends its entries to L (vals too when L->vals is wanted: want_vals). */
struct pb_creader;
int pb_tb_get_block(struct pb_creader *r, const pb_tb_keyfmt *k, size_t len, pb_tb_layer *L, int want_vals, char *err,
                    size_t errlen);
/* The header block's bytes (malloc'd) and their parsing. */
unsigned char *pb_tb_header_bytes(const pb_tb_header *h, const pb_tb_keyfmt *k, size_t *len);
int pb_tb_header_parse(const unsigned char *b, size_t len, const pb_tb_keyfmt *k, pb_tb_header *h);

/* ---- building (tablebase/build.c) ---- */

typedef struct pb_tb_build_opts {
    int threads;                 /* 0: OpenMP default */
    long long memory;            /* bytes; 0: no budget */
    int keep;                    /* keep the layer files after the build */
    int level;                   /* zstd level of the final file (0: 9) */
    FILE *progress;              /* progress lines, or NULL */
    int games;                   /* also count the whole games from every position (backward,
                                route by route, in 128 bits): res->games */
    double time_limit;           /* seconds; 0: none.  Looked at between layers and every
                                1024 positions within a layer pass: a pass cut short
                                is dropped, the layer files before it are kept, so a
                                rerun goes on from them */
    volatile sig_atomic_t *stop; /* or NULL; nonzero (a caught SIGINT or SIGTERM):
                                stop as at the time limit, looked at as often */
} pb_tb_build_opts;

typedef struct pb_tb_build_result {
    int d0, dmax;
    uint64_t classes, positions, widest_classes;
    int widest_layer;
    long long peak_memory; /* bytes of the layers and buffers at the worst moment */
    long long file_bytes;
    double seconds, forward_seconds, backward_seconds;
    double cpu_seconds;                    /* user + system time of the process during the build */
    int resumed_forward, resumed_backward; /* layers taken from an earlier run */
    int resumed_games;                     /* layers whose game counts an earlier run kept */
    uint8_t root_value;
    /* With opts.games: the complete games from the root (turn sequences to
     * the end, every bounce route counted), won by Top, won by Bottom,
     * drawn; games_over: they passed 2^128 (not counted). */
    unsigned __int128 games[3];
    int games_over;
    char message[512];
} pb_tb_build_result;

typedef enum {
    PB_TB_OK = 0,
    PB_TB_MEMORY, /* the budget would be exceeded: stopped cleanly, resumable */
    PB_TB_IO,     /* a file could not be written or read */
    PB_TB_BAD,    /* the root is a finished game, the rules have no layering, ... */
    PB_TB_STOPPED /* the time limit: stopped cleanly, resumable from the layers kept */
} pb_tb_status;

/* Builds the tablebase of root (a position where the game goes on) into
 * out.  Layer files "<out>.k<d>" (keys) and "<out>.v<d>" (values) are kept
 * until the end; a rerun with the same arguments continues from them. */
pb_tb_status pb_tb_build(const pb_field *f, const pb_position *root, const char *out, const pb_tb_build_opts *o,
                         pb_tb_build_result *res);

/* The widest layer estimated from a sample (before a big build): exact
 * layers while they have at most `exact` classes, then for each deeper
 * layer a capture-recapture estimate from two samples of `sample` parents
 * each.  est[d] receives the estimate for layer d (0 .. PB_MAX_LATTICE); the
 * return value is the deepest layer reached, -1 when *stop (may be NULL)
 * was set, or time_limit seconds (0 = none) passed, before the end, or -2
 * when memory ran out.
 * exact_upto receives the last layer counted exactly.  on_layer (may be
 * NULL) is told of each layer below the root as soon as it is estimated
 * (exact: counted, not sampled), for progress. */
int pb_tb_estimate(const pb_field *f, const pb_position *root, size_t exact, size_t sample, unsigned seed,
                   volatile sig_atomic_t *stop, double time_limit, double *est, int *exact_upto,
                   void (*on_layer)(void *ctx, int d, double est, int exact), void *ctx);

/* ---- verifying (tablebase/verify.c, written apart from the builder) ---- */

typedef struct pb_tb_verify_result {
    uint64_t checked;       /* entries checked step by step (all) */
    uint64_t route_checked; /* entries checked again route by route (a sample) */
    uint64_t routes, errors;
    char first_error[512];
} pb_tb_verify_result;

/* Checks a tablebase: the root present, every successor of every entry
 * present, every entry equal to the best of its routes (game-ending routes
 * valued by their end), keys in order and canonical, header counts equal
 * to the entries.  Every entry is checked by a step-level walk of its own;
 * every entry of a small layer (2000 or fewer) and one in 61 of the others
 * again route by route (pb_routes_foreach, at most 20000 routes each).
 * Returns 0 if all holds, 1 if not (res says how many and the first), 2 if
 * the file cannot be read (err). */
int pb_tb_verify(pb_tb *tb, int threads, pb_tb_verify_result *res, char *err, size_t errlen);

#endif
