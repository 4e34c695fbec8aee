/* pns.c - depth-first proof-number search (API in pns.h).
 *
 * The model is the alpha-beta solver's (search.c): a node is a position,
 * between turns or in the middle of one.  In book and hockey its children
 * are the free segments at the ball: a bounce keeps the player to move, a
 * stop passes the turn, a goal or a dead end is a leaf.  Triple is searched
 * a ply at a time over pb_routes_foreach: normal moves chosen by the player
 * to move, or the opponent's kick chains, chosen by the kicker; no ply at
 * all is a finished draw.
 *
 * Questions.  One search answers "can player A reach at least t?" with t =
 * win or t = draw (A's value >= t).  A node is an OR node when A chooses
 * there (the player to move, or in triple the kicker) and an AND node
 * otherwise; the chooser follows the position, not the depth, so a bounce
 * child is of its parent's type and a stop child of the other type.  The
 * value for the player to move is "win" if A = mover can win; otherwise
 * "loss" where the rules have no draws (book; hockey with lost dead ends:
 * every leaf is a goal or a lost dead end), else "draw" or "loss" by the
 * second question "can the mover avoid losing?" (t = draw).
 *
 * Algorithm: df-pn (Nagai) with proof and disproof numbers pn, dn kept for
 * the node's children in the node's frame (read from the table once when
 * the node is expanded, then updated from what each child's search
 * returns), thresholds with the 1+e trick of Pawlewicz and Lew (the best
 * child may run until its number passes (1+e) times the second best, e =
 * 1/4 by default, not just the second best plus one, which cuts the
 * re-expansions when two children alternate), and weak proof numbers: at an OR node
 * dn = max(children's dn) + (unsolved children - 1), at an AND node pn the
 * same way.  The graph of positions is full of transpositions (different
 * bounce orders reach the same mid-turn position; different turns the same
 * position), so a sum counts routes, not positions, and grows without
 * bound on shared subgraphs; the max does not (opts.sum restores the sum,
 * for measurement).  All arithmetic saturates below PN_INF (2^62).
 *
 * Why the answer is exact, whatever the table size:
 *  1. The game graph is acyclic (every step draws a segment) and a
 *     position's value depends on the position alone, so a proof or
 *     disproof of a position holds wherever the position is reached.
 *  2. A node is proven (pn = 0) only when a child is a won leaf or a child
 *     is proven, at an OR node, or every child is, at an AND node; and
 *     disproven dually.  Leaves get their values from the rules (pb_step's
 *     loser, pb_route's end).  So every pn = 0 / dn = 0 is a theorem.
 *  3. The table stores whole positions (segment words, ball and player to
 *     move; the hash only picks the bucket), like the alpha-beta table: an
 *     entry answers only for a position equal to the one asked about.  A
 *     proof is stored as a bound on the value for the player to move
 *     (value >= t, or value <= t - 1, turned round when A is not to move),
 *     bounds are merged by taking the tighter one, and a bound is read back
 *     as proven only for a question it decides.  Where the rules have no
 *     draws (book; hockey with lost dead ends) every value is a win or a
 *     loss, so a bound "<= draw" is "= loss" and ">= draw" is "= win": it
 *     is stored so, and a proof made for one player's question answers the
 *     other's as well (the line after --first-turns, whose classes ask the
 *     second player's question, no longer proves the winning class again).
 *     Unproven pn/dn guide the
 *     search only: they carry the question they belong to, and are read
 *     for that question and, swapped, for its complement; for any other
 *     they are ignored.  The complement of (A, t), "A gets at least t",
 *     is (not A, 1 - t): values are whole numbers and what one player
 *     gains the other loses, so A gets at least t exactly when the other
 *     player does not get 1 - t.  A proof of one is a disproof of the
 *     other, and the work still needed to prove one is the work needed to
 *     disprove the other: pn and dn change places.  Where the rules have no
 *     draws, only t = win is asked, and (not A, win) is the complement of
 *     (A, win).  The classes proven after the value (the other player to
 *     move) read the value search's numbers so: book (2;6;4), the value
 *     and then its classes on one thread, 16.2M nodes before, 11.8M with
 *     them.  Numbers only guide, so no value depends on it.  Replacement loses numbers and bounds, never truth; a
 *     tiny table costs time only.
 *  4. A search cut short (time, node limit, stop flag, cancelled by
 *     another thread) unwinds without storing anything, and its answer
 *     is PB_UNKNOWN.
 *  5. Threads (pb_pns_new_sharing: searches of their own on one table).
 *     A shared table locks each bucket (a bit of the bucket's first
 *     number word, see bucket_lock) around every read of an entry (find,
 *     then meta and numbers copied out) and around every store (find or
 *     replace, key, meta and numbers written), so a reader sees each slot
 *     as one store left it: its key bits, segment words, bounds and
 *     numbers all from the same write, never a key of one position with
 *     the bounds of another.  A probe first looks for the position
 *     without the lock (table_find unlocked: atomic loads, which a store's
 *     atomic writes may interleave with): finding no way that matches,
 *     it answers "not there" at once; only a way that matches is found
 *     and read again under the lock.  A read torn by a store can thus
 *     only make a probe miss an entry that is there (or take the lock in
 *     vain), which is what a replacement does anyway (3.): the position
 *     gets its first guesses, and a proof needs none of the table's
 *     entries to be found.  No number or bound is ever taken from the
 *     lockless read.  Every store merges the bounds already there
 *     (under the same lock), and every bound a thread stores is proven by
 *     2., so any interleaving of threads leaves only proven bounds.
 *     Which child a thread searches, its thresholds and the numbers other
 *     threads stored for unfinished searches only guide: they decide the
 *     order of the work, never a pn = 0 or dn = 0.  A shared table grows
 *     only while no search is in it (growth moves entries without the
 *     locks): a team's (6.) or a crew's, whose members give up their
 *     questions and park until the last one in has grown it (pb_pns_crew,
 *     a question given up is asked again: 4.); any other is used whole
 *     from the start.  So every answer is the same for any thread count, schedule
 *     and table size; only the node counts differ.
 *  6. A team (a search and a helper, pb_pns_help).  The helper reads the
 *     path the search publishes without any lock; whatever it reads, it
 *     replays it from the root checking every step (pb_free), so it
 *     searches legal positions of the game, whose proofs are true wherever
 *     they are met (1.).  Called off, it stores nothing on its way up
 *     (4.).
 *     The table, shared (locked) while the team works, grows only while
 *     both are outside their searches, the helper having announced it
 *     (grow_gen, parked): growth moves entries without locks, so no
 *     search may be in the table then.  A doubling is shared by the two
 *     in stages whose halves touch disjoint buckets (team_grow), and
 *     leaves the table the search alone would make.
 * The tests check the values against alpha-beta and the brute force of
 * tests/ref_minimax.c, with a tiny and a large table, with 1 and 2
 * threads.
 *
 * Termination: the graph is finite and acyclic; each search of a child
 * returns with its pn or dn at least at the child's threshold, which is
 * above the child's previous number, so the node's local numbers grow
 * until the node passes its own threshold or is solved.
 */
#include "pns.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "images.h"
#include "process.h"
#include "reach.h"
#include "tactics.h"
#include "triple.h"

#define PN_INF ((uint64_t)1 << 62)
#define WAYS 4
#define POLL_MASK 1023
#define NO_SCORE_MAX (1 << 15)
/* The default slack of the 1+e trick, in 1/1024: e = 1/4 (docs/solver.md,
 * thresholds: measured against e = 1 on 57 fields' starts, 0.62 times the
 * nodes in geometric mean, fewer on every rule set). */
#define PNS_EPS_DEFAULT 256

/* The table: buckets of WAYS slots, each bucket a whole number of cache
 * lines, aligned, so that a probe reads the first line and, on a hit, the
 * slot's segment words:
 *
 *   line 0   meta[0..3]   bits  0..15  ball
 *                         bit   16     player to move
 *                         bit   17     in use
 *                         bits 18..32  15 hash bits (a quick filter only)
 *                         bits 33..34  lower bound on the value + 1
 *                         bits 35..36  upper bound on the value + 1
 *                         bits 37..39  question of pn/dn: valid | A << 1 | t << 2
 *                         bits 40..63  work (expansions below, saturating)
 *            num[0..3]    pn | dn << 32 for that question (saturating,
 *                         dn below 2^31: stored numbers only guide the
 *                         search); bit 63 of num[0]: the bucket's lock
 *                         (shared tables, see bucket_lock)
 *   then     seg[0..3]    each slot's drawn-segment bitset, nwords words
 *
 * A hit needs the meta's key bits (ball, player, hash bits) and all the
 * segment words equal: the whole position. */
#define M_KEY 0x1ffffffffULL
#define M_USED (1ULL << 17)
#define M_QUESTION (7ULL << 37)
#define NUM_MAX 0xfffffffeULL /* pn */
#define DN_MAX 0x7ffffffeULL  /* dn: bit 63 of the word is the lock */

typedef struct table {
    const pb_field *f;
    int nwords;
    int shared; /* used by more than one thread: buckets locked, never grown */
    int grows;  /* a team's or a crew's: shared only while the team or crew works
                   (pb_pns_team_join, pb_pns_crew_new), and grown then with every other
                   search parked */
    size_t nbuckets, bytes, bucket_words, mapped;
    size_t cap; /* buckets the mapping holds: nbuckets grows up to it */
    void *raw;
    uint64_t *slots;
    uint64_t used, grown, lost; /* one thread only (growth) */
    uint64_t stores, stores0;   /* one thread's stores: all, and at the last growth */
    size_t free_buckets;        /* below this count the table doubles as soon as it fills */
    uint64_t reuse;             /* ... beyond it, once rewritten this many times over */
} table;

typedef struct pns {
    const pb_field *f;
    table *tt;                   /* its own, or shared with other threads' searches */
    int A, t, weak;              /* the question; weak or summed numbers */
    int nodraw;                  /* the rules have no draws: every value is -1 or 1 */
    int eps;                     /* threshold slack in 1/1024, < 0: none */
    pb_images im;                /* orientations keyed alike (images.h) */
    pb_image_state ims;          /* of the current position (book, hockey) */
    pb_reach reach;              /* reduced keys (reach.h) */
    int drawn;                   /* drawn segments of the step search's position */
    uint64_t rseg[PB_MAX_WORDS]; /* the segment words of the last reduced key */
    uint64_t nodes, steps, iterations, calls;
    uint64_t probes, hits, stores, replaced, inserted; /* this search's table use */
    uint64_t complement_hits;                          /* hits read from the complement's numbers */
    uint64_t root_pn, root_dn;
    uint64_t node_limit;
    int tactics, full_keys, heuristic;
    /* King-move distance from each node to the goal each player scores in
     * (node * 2 + player), for the guesses of new positions; NULL: every
     * guess of the chooser is 1 (see goal_guess). */
    uint8_t *goal_dist, *dist_table;
    pb_tactics tac;
    uint64_t *no_score; /* hashes of turn starts whose quick walk found no goal */
    uint64_t no_score_mask;
    double t0, deadline, next_report;
    volatile sig_atomic_t *stop;
    atomic_int *cancel; /* set by another thread: give up this question */
    FILE *progress;
    char label[96]; /* what the question is for, in the progress lines ("" none) */
    int stopped;
    pb_proven *proven;          /* saved proofs (proven.h); NULL = none */
    pb_pns_team *team;          /* the main search of a team publishes its path there (NULL: none) */
    pb_pns_team *helps;         /* the team a helper's search works for (NULL: none) */
    pb_pns_crew *crew;          /* the crew this search is in (NULL: none) */
    uint64_t crew_ins, crew_st; /* its inserted and stores as last added to the crew's */
    int crew_stopped;           /* its question given up for the crew's growth */
} pns;

/* A team (pns.h): what its main search publishes for its helper. */
#define TEAM_PLY 128
#define TEAM_NONE 1000000
#define TEAM_MARGIN 6 /* plies the helper leaves between its node and the main search */

struct pb_pns_team {
    atomic_flag lock;  /* around root, A, t, qgen */
    pb_position root;  /* the main search's question: its root */
    int A, t;          /* ... the question */
    atomic_int qgen;   /* ... its number */
    atomic_int active; /* the main search is in a question */
    atomic_int len;    /* plies of the main search's path published */
    _Atomic unsigned char dir[TEAM_PLY];
    atomic_int target;     /* the ply of the node whose child the helper proves */
    atomic_int hdir;       /* ... that child's step */
    atomic_int cancel;     /* the helper's search gives up (stopped 5) */
    atomic_int done;       /* the helper leaves */
    atomic_int gone;       /* ... and has left */
    atomic_int grow_gen;   /* odd while the main search grows the table */
    atomic_int parked;     /* the grow_gen the helper stopped for */
    atomic_ullong hins;    /* the helper's stores into empty ways, as of its last report */
    atomic_ullong hstores; /* the helper's stores, as of its last report */
    uint64_t mins0, hins0; /* the main search's and the helper's at the last growth */
    uint64_t mst0, hst0;   /* the same for all stores */
    /* A doubling shared by both (team_grow): */
    atomic_int gphase, gack;    /* stages begun by the main search; the last the helper finished */
    atomic_size_t glo, ghi;     /* the helper's buckets in the current stage */
    atomic_ullong gused, glost; /* the helper's counts of the whole doubling */
};

/* A crew (pns.h): searches on several threads, each on questions of its
 * own, sharing a table that grows.  A member that finds the table due to
 * grow asks for it (want); every member's search then gives its question
 * up at its next poll (stopped 5, argument 4 above) and parks
 * (pb_pns_crew_wait); the last one in grows the table alone, no search
 * being in it, and wakes the others, which ask their questions again. */
struct pb_pns_crew {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    table *t;
    int members;          /* joined and not left */
    int parked;           /* ... waiting for the growth */
    unsigned gen;         /* growths done */
    atomic_int want;      /* a growth is asked for */
    atomic_ullong ins;    /* the members' stores into empty ways since the last growth */
    atomic_ullong stores; /* ... and all their stores */
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
    uint64_t s = a + b;
    return s >= PN_INF - 1 ? PN_INF - 1 : s;
}

/* ---- the table ---- */

/* Growth.  The whole budget is mapped at once (zero pages cost nothing
 * until written), but the search starts on its first TABLE_START bytes and
 * doubles the buckets in use (up to the budget) whenever 7/8 of their
 * ways are taken (beyond 64 MiB, only once the table has been rewritten
 * GROW_REUSE times over, below).  A search that stores little thus
 * touches little memory: a larger budget costs nothing until a smaller table would be full, where
 * writing every page of a large table at once made short solves slower
 * (page faults), the larger the table the slower.  Growing moves each entry
 * to the bucket of its hash under the new count; the hash is recomputed
 * from the stored key (pb_key_hash) and checked against the stored filter
 * bits: an entry that fails the check or finds its new bucket full of more
 * valuable entries is dropped.  Dropping loses work, never truth (the
 * table is a cache of proven facts, argument 3 above); so growth changes
 * node counts, never a value. */
#define TABLE_START ((size_t)4 << 20)
/* A team's table starts larger (min(cap, 64 MiB)): grown from 4 MiB its
 * early doublings, each with the helper called off and parked, cost the
 * team 1.3-2.1 times the nodes on book (2;6;4) (docs/solver-measurements.md). */
#define TEAM_TABLE_START ((size_t)64 << 20)
/* Beyond TEAM_TABLE_START (the default budget) a table that is 7/8 full
 * doubles only once its searches have stored GROW_REUSE entries per way
 * since the last growth.  A larger table costs every probe more (its
 * lines and pages miss more often): book (2;6;8) after 20 turns took 1.6
 * times as long with --memory 2G as with the default 64 MiB, its table
 * grown to 1 GiB, and searched 1.10 times the nodes.  With 4 stores per
 * way (256 MiB) it took 1.10-1.21 times as long, with 8 (128 MiB, 1.03
 * times the nodes) 1.06-1.12 times, with 16 (128 MiB near the end, the
 * default's nodes) 0.97-1.08 times (docs/solver.md,
 * results/bench_memory.md).  A search long enough to rewrite its table
 * GROW_REUSE times over still gets the whole budget, later.  Like any
 * growth, this changes node counts, never a value. */
#define GROW_REUSE 16

static int table_init(table *t, const pb_field *f, size_t bytes, int shared, int grows) {
    memset(t, 0, sizeof *t);
    t->f = f;
    t->shared = shared;
    t->grows = grows;
    t->nwords = f->nwords;
    t->bucket_words = (2 * WAYS + WAYS * (size_t)f->nwords + 7) / 8 * 8;
    size_t bucket = t->bucket_words * sizeof(uint64_t);
    t->cap = bytes / bucket;
    if (t->cap < 1) t->cap = 1;
    if (t->cap > 0xffffffffULL) t->cap = 0xffffffffULL;
    t->bytes = t->cap * bucket;
    size_t start = grows ? TEAM_TABLE_START : TABLE_START;
    t->nbuckets = !shared && start / bucket < t->cap ? start / bucket : t->cap;
    if (t->nbuckets < 1) t->nbuckets = 1;
    /* One thread's table grows freely up to 64 MiB, as with the default
     * budget; a team's starts there. */
    t->free_buckets = grows ? t->nbuckets : TEAM_TABLE_START / bucket;
    /* Zero pages, page aligned: only the lines the search writes cost
     * memory. */
    t->mapped = t->bytes;
    t->raw = pb_table_map(&t->mapped);
    if (!t->raw) return -1;
    t->slots = t->raw;
    return 0;
}

static void table_free(table *t) {
    if (t->raw) pb_table_unmap(t->raw, t->mapped);
    t->raw = NULL;
}

/* Locking (shared tables only).  The lock is bit 63 of the bucket's first
 * number word (way 0's pn | dn << 32; dn is kept below 2^31, so the bit is
 * free), in the bucket's first cache line: taking it costs no extra miss.
 * Every word of a bucket is read and written only by the lock's holder,
 * except the lock word itself, which everyone accesses atomically. */
#define LOCK_BIT (1ULL << 63)

static inline void bucket_lock(const table *t, uint64_t *b) {
    if (!t->shared) return;
    uint64_t *w = &b[WAYS];
    for (;;) {
        uint64_t v = __atomic_load_n(w, __ATOMIC_RELAXED);
        if (!(v & LOCK_BIT) && __atomic_compare_exchange_n(w, &v, v | LOCK_BIT, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
    }
}

static inline void bucket_unlock(const table *t, uint64_t *b) {
    if (!t->shared) return;
    uint64_t v = __atomic_load_n(&b[WAYS], __ATOMIC_RELAXED);
    __atomic_store_n(&b[WAYS], v & ~LOCK_BIT, __ATOMIC_RELEASE);
}

/* Way w's numbers (pn | dn << 32), without the lock bit. */
static inline uint64_t num_get(const uint64_t *b, int w) {
    return __atomic_load_n(&b[WAYS + w], __ATOMIC_RELAXED) & ~LOCK_BIT;
}

/* Sets way w's numbers, keeping the lock bit (held by the caller if set). */
static inline void num_set(uint64_t *b, int w, uint64_t v) {
    uint64_t old = __atomic_load_n(&b[WAYS + w], __ATOMIC_RELAXED);
    __atomic_store_n(&b[WAYS + w], v | (old & LOCK_BIT), __ATOMIC_RELAXED);
}

static inline uint64_t *table_bucket(const table *t, uint64_t hash) {
    /* The low 32 hash bits scaled to the bucket count (any count, not only
     * powers of two); the meta's filter bits come from the top. */
    return t->slots + (((hash & 0xffffffffULL) * t->nbuckets) >> 32) * t->bucket_words;
}

static inline void table_prefetch(const table *t, uint64_t hash) {
    const uint64_t *b = table_bucket(t, hash);
    __builtin_prefetch(b);
    __builtin_prefetch(b + 8);
}

/* bt: ball | to_move << 16 of the key's orientation. */
static inline uint64_t key_bits(uint64_t bt, uint64_t hash) { return bt | M_USED | (hash >> 49) << 18; }

static inline uint64_t *slot_seg(const table *t, uint64_t *b, int w) {
    return b + 2 * WAYS + (size_t)w * (size_t)t->nwords;
}

/* The way holding exactly this position in bucket b, or -1.  Under the
 * bucket's lock (shared tables) its answer is exact.  A shared table's
 * probe also calls it first without the lock (lookup: most probes find
 * nothing, and a lock written at every probe made the lines of buckets
 * both threads read move between their caches); hence atomic loads, as a
 * locked store's writes are atomic (store).  Read torn by a store, its
 * answer is harmless (argument 5 at the top): -1 makes the probe miss, as
 * after a replacement; a way only sends the probe to the locked find. */
static int table_find(const table *t, uint64_t *b, const uint64_t *seg, uint64_t key) {
    for (int w = 0; w < WAYS; w++) {
        if ((__atomic_load_n(&b[w], __ATOMIC_RELAXED) & M_KEY) != key) continue;
        const uint64_t *x = slot_seg(t, b, w);
        int i = 0;
        while (i < t->nwords && __atomic_load_n(&x[i], __ATOMIC_RELAXED) == seg[i]) i++;
        if (i == t->nwords) return w;
    }
    return -1;
}

/* Puts the entry of bucket copy `from`, way w, into bucket b: a free way,
 * else the way with the least work if the entry has more; else drops it.
 * used, lost: the counts it keeps up to date (the caller's own). */
static void table_place(const table *t, const uint64_t *from, int w, uint64_t *b, uint64_t *used, uint64_t *lost) {
    int e = -1;
    for (int v = 0; v < WAYS && e < 0; v++)
        if (!(b[v] & M_USED)) e = v;
    if (e < 0) {
        e = 0;
        for (int v = 1; v < WAYS; v++)
            if ((b[v] >> 40) < (b[e] >> 40)) e = v;
        if ((b[e] >> 40) >= (from[w] >> 40)) {
            ++*lost;
            return;
        }
        ++*lost, --*used;
    }
    b[e] = from[w];
    b[WAYS + e] = from[WAYS + w] & ~LOCK_BIT;
    memcpy(slot_seg(t, b, e), slot_seg(t, (uint64_t *)from, w), sizeof(uint64_t) * (size_t)t->nwords);
    ++*used;
}

/* Moves the entries of buckets [lo, hi), from the last down, to their
 * buckets under the count t->nbuckets (already the new one), counting
 * them in *used and the dropped in *lost. */
static void grow_buckets(const table *t, size_t lo, size_t hi, uint64_t *used, uint64_t *lost) {
    uint64_t copy[(2 * WAYS + WAYS * PB_MAX_WORDS + 7) / 8 * 8];
    const size_t bytes = t->bucket_words * sizeof(uint64_t);
    for (size_t i = hi; i-- > lo;) {
        uint64_t *b = t->slots + i * t->bucket_words;
        memcpy(copy, b, bytes);
        memset(b, 0, bytes);
        for (int w = 0; w < WAYS; w++) {
            if (!(copy[w] & M_USED)) continue;
            uint64_t h = pb_key_hash(t->f, slot_seg(t, copy, w), (int)(copy[w] & 0xffff), (int)((copy[w] >> 16) & 1));
            if ((copy[w] & M_KEY) != key_bits(copy[w] & 0x1ffff, h)) {
                ++*lost; /* not placed by its hash: cannot be found again */
                continue;
            }
            table_place(t, copy, w, table_bucket(t, h), used, lost);
        }
    }
}

/* Grows the buckets in use to n (nbuckets < n <= 2 nbuckets, n <= cap).
 * In place: bucket i's entries go to buckets floor(x n / 2^32) >= i (x:
 * the low 32 hash bits, floor(x nbuckets / 2^32) = i), so going from the
 * last bucket down, every target has been emptied or is new. */
static void table_grow(table *t, size_t n) {
    const size_t old = t->nbuckets;
    t->nbuckets = n;
    t->used = 0;
    grow_buckets(t, 0, old, &t->used, &t->lost);
    t->grown++;
}

/* Whether a table with `used` ways taken, `stores` stores since its last
 * growth, should grow: when 7/8 of its ways are taken, and beyond
 * free_buckets only once it has been rewritten GROW_REUSE times over. */
static inline int table_wants_growth(const table *t, uint64_t used, uint64_t stores) {
    const uint64_t ways = (uint64_t)t->nbuckets * WAYS;
    return t->nbuckets < t->cap && used * 8 > ways * 7 && (t->nbuckets < t->free_buckets || stores >= t->reuse * ways);
}

/* The bucket count of the next growth: double, within the budget, and
 * below free_buckets not past it (so that up to there a table grows as
 * with the default budget, whatever the budget). */
static inline size_t table_next(const table *t) {
    size_t n = t->nbuckets * 2 < t->cap ? t->nbuckets * 2 : t->cap;
    return t->nbuckets < t->free_buckets && n > t->free_buckets ? t->free_buckets : n;
}

/* After a store: grows as table_wants_growth says. */
static inline void table_maybe_grow(table *t) {
    if (t->shared) return;
    t->stores++;
    if (table_wants_growth(t, t->used, t->stores - t->stores0)) {
        table_grow(t, table_next(t));
        t->stores0 = t->stores;
    }
}

static inline int meta_lo(uint64_t m) { return (int)((m >> 33) & 3) - 1; }
static inline int meta_hi(uint64_t m) { return (int)((m >> 35) & 3) - 1; }

/* The meta bits of the current question (A, t) for a key in orientation
 * `orient`: a top-bottom image swaps the players, so A is named as the
 * image sees it, and numbers stored from one orientation are read back
 * for the same question from any other. */
static inline uint64_t qbits(const pns *s, int orient) {
    return (1ULL | (uint64_t)(s->A ^ (orient >> 1)) << 1 | (uint64_t)s->t << 2) << 37;
}

/* What turns the meta bits of a question into those of its complement
 * (3. above): the other player, and where there are draws the other t. */
static inline uint64_t qcomplement(const pns *s) { return (s->nodraw ? 2ULL : 6ULL) << 37; }

/* The key of a position in its own orientation (triple's plies). */
static inline pb_image_key plain_key(const pb_position *p) {
    pb_image_key k = {0, p->hash, (uint64_t)(uint16_t)p->ball | (uint64_t)p->to_move << 16, p->seg};
    return k;
}

/* The table key of p whose full key is k: reduced when p's reachable part
 * is within the limit (reach.h: the reduced key decides the value as the
 * full one does), else k itself.  A reduced key's words
 * are s->rseg, good until the next call. */
static inline pb_image_key table_key(pns *s, const pb_position *p, pb_image_key k) {
    pb_reach_key(&s->reach, &s->im, p, s->rseg, &k);
    return k;
}

/* The same for the position of the step search, whose drawn segments
 * s->drawn counts: most positions of a search from the start have too
 * many free segments left to be reduced, which the count tells at once. */
static inline pb_image_key step_key(pns *s, const pb_position *p, pb_image_key k) {
    return pb_reach_may(&s->reach, s->drawn) ? table_key(s, p, k) : k;
}

/* The numbers of a position for the current question: (0, INF) or
 * (INF, 0) when the stored bounds decide it, the stored numbers when they
 * belong to this question, else the initial guess: `near` to answer for
 * the chooser, `moves` (its number of choices) against.  k: the table key;
 * full: the position's full key, which the saved proofs are kept by. */
static int lookup(pns *s, const pb_image_key *k, const pb_image_key *full, int to_move, int moves, int near,
                  int or_node, uint64_t *pn, uint64_t *dn) {
    if (moves < 1) moves = 1;
    *pn = or_node ? (uint64_t)near : (uint64_t)moves;
    *dn = or_node ? (uint64_t)moves : (uint64_t)near;
    int pd = s->proven ? pb_proven_question(s->proven, full->seg, (int)(full->bt & 0xffff), (int)(full->bt >> 16),
                                            full->hash, s->A ^ (full->orient >> 1), s->t)
                       : 0; /* saved proofs consulted here (the question as the key's image sees it) */
    if (pd) *pn = pd > 0 ? 0 : PN_INF, *dn = pd > 0 ? PN_INF : 0;
    if (pd) return 1;
    /* The meta and numbers of one write: read under the bucket's lock. */
    table *t = s->tt;
    uint64_t *b = table_bucket(t, k->hash), m = 0, num = 0;
    s->probes++;
    if (t->shared && table_find(t, b, k->seg, key_bits(k->bt, k->hash)) < 0) return 0; /* looked for without the lock */
    bucket_lock(t, b);
    int w = table_find(t, b, k->seg, key_bits(k->bt, k->hash));
    if (w >= 0) m = b[w], num = num_get(b, w);
    bucket_unlock(t, b);
    if (w < 0) return 0;
    s->hits++;
    int lo = meta_lo(m), hi = meta_hi(m);
    int alo = s->A == to_move ? lo : -hi, ahi = s->A == to_move ? hi : -lo;
    if (alo >= s->t) *pn = 0, *dn = PN_INF;
    else if (ahi < s->t) *pn = PN_INF, *dn = 0;
    else if ((m & M_QUESTION) == qbits(s, k->orient)) *pn = num & 0xffffffffULL, *dn = num >> 32;
    else if ((m & M_QUESTION) == (qbits(s, k->orient) ^ qcomplement(s))) {
        *pn = num >> 32, *dn = num & 0xffffffffULL; /* the complement's numbers (3. above) */
        s->complement_hits++;
    }
    return 1;
}

/* Records the numbers of p (a proof or disproof as a bound, see 3. above). */
static void store(pns *s, const pb_position *p, const pb_image_key *k, int to_move, uint64_t pn, uint64_t dn,
                  uint64_t work) {
    table *t = s->tt;
    const int nw = t->nwords;
    uint64_t key = key_bits(k->bt, k->hash);
    uint64_t *b = table_bucket(t, k->hash);
    s->stores++;
    /* One critical section: the entry found or made, and all its words. */
    bucket_lock(t, b);
    int e = table_find(t, b, k->seg, key), lo = -1, hi = 1;
    if (e >= 0) {
        lo = meta_lo(b[e]), hi = meta_hi(b[e]);
    } else {
        /* An empty way, else the one with the least work below it. */
        for (int w = 0; w < WAYS; w++) {
            if (!(b[w] & M_USED)) {
                e = w;
                break;
            }
            if (e < 0 || (b[w] >> 40) < (b[e] >> 40)) e = w;
        }
        if (b[e] & M_USED) s->replaced++;
        else {
            s->inserted++;
            if (!t->shared) t->used++; /* a shared table's header is read by every probe: never written */
        }
        /* Atomic stores: lockless probes may read these words meanwhile
         * (table_find). */
        uint64_t *x = slot_seg(t, b, e);
        for (int i = 0; i < nw; i++) __atomic_store_n(&x[i], k->seg[i], __ATOMIC_RELAXED);
        __atomic_store_n(&b[e], key, __ATOMIC_RELAXED);
    }
    int mine = s->A == to_move;
    if (pn == 0) {
        if (mine) lo = lo > s->t ? lo : s->t;
        else hi = hi < -s->t ? hi : -s->t;
    } else if (dn == 0) {
        if (mine) hi = hi < s->t - 1 ? hi : s->t - 1;
        else lo = lo > 1 - s->t ? lo : 1 - s->t;
    }
    if (s->nodraw) hi = hi == 0 ? -1 : hi, lo = lo == 0 ? 1 : lo; /* no value is 0 (3. above) */
    uint64_t oldwork = b[e] >> 40;
    if (work > 0xffffffULL) work = 0xffffffULL;
    if (oldwork > work) work = oldwork;
    uint64_t m = (b[e] & M_KEY) | (uint64_t)(lo + 1) << 33 | (uint64_t)(hi + 1) << 35 | work << 40;
    if (pn != 0 && dn != 0) {
        m |= qbits(s, k->orient);
        num_set(b, e, (pn < NUM_MAX ? pn : NUM_MAX) | (dn < DN_MAX ? dn : DN_MAX) << 32);
    } else m |= b[e] & M_QUESTION;
    __atomic_store_n(&b[e], m, __ATOMIC_RELAXED);
    bucket_unlock(t, b);
    if (s->proven && (pn == 0 || dn == 0))
        pb_proven_note(s->proven, p, lo, hi, 8, work); /* proven node reported here */
    table_maybe_grow(t);
}

/* ---- polling ---- */

/* The fraction of the table's ways in use: counted with one thread, else
 * estimated from 256 buckets spread over it (progress lines only). */
static double table_fill(const table *t) {
    if (!t->shared) return (double)t->used / (double)(t->cap * WAYS);
    size_t step = t->nbuckets > 256 ? t->nbuckets / 256 : 1, n = 0, seen = 0;
    for (size_t i = 0; i < t->nbuckets; i += step, seen += WAYS)
        for (int w = 0; w < WAYS; w++)
            n += (__atomic_load_n(t->slots + i * t->bucket_words + (size_t)w, __ATOMIC_RELAXED) & M_USED) != 0;
    return seen ? (double)n / (double)seen : 0.0;
}

static void team_maybe_grow(pns *s);
static void crew_poll(pns *s);

static void poll(pns *s) {
    double now = now_s();
    if (s->helps) {
        atomic_store_explicit(&s->helps->hins, s->inserted, memory_order_relaxed);
        atomic_store_explicit(&s->helps->hstores, s->stores, memory_order_relaxed);
        if (atomic_load_explicit(&s->helps->grow_gen, memory_order_acquire) & 1) s->stopped = 5;
    }
    if (s->team) team_maybe_grow(s);
    if (s->crew) crew_poll(s);
    if (s->stop && *s->stop) s->stopped = 3;
    else if (s->cancel && atomic_load_explicit(s->cancel, memory_order_relaxed)) s->stopped = 5;
    else if (s->crew && atomic_load_explicit(&s->crew->want, memory_order_relaxed)) s->stopped = 5, s->crew_stopped = 1;
    else if (s->deadline > 0 && now > s->deadline) s->stopped = 1;
    if (s->progress && now >= s->next_report) {
        s->next_report = now + 2.0;
        double el = now - s->t0;
        fprintf(s->progress,
                "solve: %.1f s, %llu nodes, %.2fM nodes/s, table %.1f%% full, %.0f MiB, "
                "proof-number search%s%s: can %s %s? root pn %llu dn %llu\n",
                el, (unsigned long long)s->nodes, el > 0 ? (double)s->nodes / el / 1e6 : 0.0, 100.0 * table_fill(s->tt),
                (double)s->tt->nbuckets * (double)s->tt->bucket_words * 8.0 / (1024.0 * 1024.0),
                s->label[0] ? " on " : "", s->label, s->A == PB_TOP ? "Top" : "Bottom", s->t ? "win" : "avoid losing",
                (unsigned long long)s->root_pn, (unsigned long long)s->root_dn);
        fflush(s->progress);
    }
}

/* ---- a node's children ---- */

typedef struct kid {
    uint64_t pn, dn;
    int idx; /* book/hockey: the direction; triple: the child's index */
} kid;

/* The node's numbers from its children's (OR: A chooses). */
static void combine(const pns *s, const kid *k, int n, int or_node, uint64_t *pn, uint64_t *dn) {
    uint64_t best = PN_INF, acc = 0, mx = 0;
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        uint64_t a = or_node ? k[i].pn : k[i].dn, b = or_node ? k[i].dn : k[i].pn;
        if (a < best) best = a;
        if (b == 0) continue;
        cnt++;
        acc = sat_add(acc, b);
        if (b > mx) mx = b;
    }
    uint64_t other = best == 0 ? PN_INF : cnt == 0 ? 0 : s->weak ? sat_add(mx, (uint64_t)(cnt - 1)) : acc;
    if (or_node) *pn = best, *dn = other;
    else *dn = best, *pn = other;
}

/* The child to search next and its thresholds, given the node's
 * thresholds and numbers (see the top of the file). */
static int select_kid(const pns *s, const kid *k, int n, int or_node, uint64_t thpn, uint64_t thdn, uint64_t pn,
                      uint64_t dn, uint64_t *cpn, uint64_t *cdn) {
    int c = -1, cnt = 0;
    uint64_t b1 = PN_INF + 1, b2 = PN_INF;
    for (int i = 0; i < n; i++) {
        uint64_t a = or_node ? k[i].pn : k[i].dn, b = or_node ? k[i].dn : k[i].pn;
        cnt += b != 0;
        if (a < b1) b2 = b1, b1 = a, c = i;
        else if (a < b2) b2 = a;
    }
    if (b2 > PN_INF) b2 = PN_INF;
    /* The best child's own threshold: past the second best by the slack
     * (eps <= 4096, so below 2^40 the product stays below 2^52; numbers
     * that large, summed ones only, get no threshold of their own). */
    uint64_t th1 = b2 >= (uint64_t)1 << 40 ? PN_INF : b2 + 1 + (s->eps > 0 ? (b2 * (uint64_t)s->eps) >> 10 : 0);
    /* Its other number: enough to push the node's past its threshold. */
    uint64_t nth = or_node ? thdn : thpn, nown = or_node ? dn : pn, kown = or_node ? k[c].dn : k[c].pn;
    uint64_t th2 = s->weak ? nth - (uint64_t)(cnt - 1) : nth - (nown - kown);
    uint64_t th = or_node ? thpn : thdn;
    if (th1 > th) th1 = th;
    if (or_node) *cpn = th1, *cdn = th2;
    else *cdn = th1, *cpn = th2;
    return c;
}

/* A leaf's numbers: its value for A against t. */
static void leaf(const pns *s, int loser, uint64_t *pn, uint64_t *dn) {
    int v = loser == PB_NOBODY ? PB_DRAW : loser == s->A ? PB_LOSS : PB_WIN;
    if (v >= s->t) *pn = 0, *dn = PN_INF;
    else *pn = PN_INF, *dn = 0;
}

/* ---- a team: one search and a helper on its table ---- */

/* The main search publishes the path it is on (the step taken at each of
 * its first TEAM_PLY plies) and its question; a helper thread reads them
 * and proves, on the shared table, a sibling of a node on that path that a
 * proof will need whatever the main search finds first (see
 * pb_pns_help).  Everything here only chooses work: the helper's positions
 * are legal positions whose answers are stored like any thread's (5. at
 * the top), so no value depends on what it reads or when. */
static inline void team_down(pb_pns_team *tm, int ply, int d) {
    if (ply >= TEAM_PLY) return;
    atomic_store_explicit(&tm->dir[ply], (unsigned char)d, memory_order_relaxed);
    atomic_store_explicit(&tm->len, ply + 1, memory_order_release);
    if (ply == atomic_load_explicit(&tm->target, memory_order_relaxed) &&
        d == atomic_load_explicit(&tm->hdir, memory_order_relaxed))
        atomic_store_explicit(&tm->cancel, 1, memory_order_relaxed); /* the main search takes that child */
}

static inline void team_up(pb_pns_team *tm, int ply) {
    if (ply >= TEAM_PLY) return;
    atomic_store_explicit(&tm->len, ply, memory_order_release);
    if (ply < atomic_load_explicit(&tm->target, memory_order_relaxed))
        atomic_store_explicit(&tm->cancel, 1, memory_order_relaxed); /* it left the node helped */
}

static void team_question(pb_pns_team *tm, const pb_position *root, int A, int t) {
    while (atomic_flag_test_and_set_explicit(&tm->lock, memory_order_acquire)) continue;
    tm->root = *root, tm->A = A, tm->t = t;
    atomic_fetch_add(&tm->qgen, 1);
    atomic_store(&tm->len, 0);
    atomic_store(&tm->active, 1);
    atomic_flag_clear_explicit(&tm->lock, memory_order_release);
}

static void team_question_over(pb_pns_team *tm) {
    atomic_store(&tm->active, 0);
    atomic_store(&tm->cancel, 1);
}

/* Below this many buckets left, a doubling goes on with the main search
 * alone (the stages get too short to be worth a meeting). */
#define GROW_ALONE 4096

/* A doubling by both threads of a team.  Under 2n buckets the entries of
 * bucket i go to buckets 2i and 2i + 1 only (floor(2 x n / 2^32) is 2i
 * or 2i + 1 when floor(x n / 2^32) = i): distinct buckets have distinct
 * targets.  With buckets [h, n) moved already, the stage moves
 * [ceil(h / 2), h): their targets lie in [h, 2h), which are new or were
 * emptied by an earlier stage, and none of them is a bucket of this
 * stage; so the two halves of a stage touch disjoint memory, and the
 * table after the doubling is the one the main search alone makes with
 * the same entries (each target receives the same entries in the same
 * order: its one source, ways in order).  The helper takes the upper half
 * of each stage; the main search waits for it before the next stage
 * (gack), whose buckets may be the targets of the half just done. */
static void team_grow(table *t, pb_pns_team *tm) {
    const size_t old = t->nbuckets;
    uint64_t used = 0, lost = 0;
    t->nbuckets = 2 * old;
    atomic_store(&tm->gused, 0);
    atomic_store(&tm->glost, 0);
    int phase = atomic_load(&tm->gphase);
    size_t h = old;
    while (h > GROW_ALONE) {
        size_t lo = (h + 1) / 2, mid = lo + (h - lo) / 2;
        atomic_store_explicit(&tm->glo, mid, memory_order_relaxed);
        atomic_store_explicit(&tm->ghi, h, memory_order_relaxed);
        atomic_store_explicit(&tm->gphase, ++phase, memory_order_release);
        grow_buckets(t, lo, mid, &used, &lost);
        while (atomic_load_explicit(&tm->gack, memory_order_acquire) != phase) continue;
        h = lo;
    }
    grow_buckets(t, 0, h, &used, &lost);
    t->used = used + atomic_load(&tm->gused);
    t->lost += lost + atomic_load(&tm->glost);
    t->grown++;
}

/* The helper's side of team_grow while it is parked for growth g: the
 * upper half of each stage, until the growth is over. */
static void team_grow_help(table *t, pb_pns_team *tm, int g) {
    int seen = atomic_load(&tm->gack);
    while (atomic_load(&tm->grow_gen) == g) {
        int phase = atomic_load_explicit(&tm->gphase, memory_order_acquire);
        if (phase == seen) continue;
        uint64_t used = 0, lost = 0;
        grow_buckets(t, atomic_load_explicit(&tm->glo, memory_order_relaxed),
                     atomic_load_explicit(&tm->ghi, memory_order_relaxed), &used, &lost);
        atomic_fetch_add(&tm->gused, used);
        atomic_fetch_add(&tm->glost, lost);
        seen = phase;
        atomic_store_explicit(&tm->gack, phase, memory_order_release);
    }
}

/* A team's table grows as one thread's does (7/8 of the ways taken, the
 * count of both searches' stores into empty ways), by the main search
 * while the helper waits outside the table (pb_pns_help), or, when the
 * count doubles, by both (team_grow): growth moves entries without the
 * bucket locks, so no search may be in the table. */
static void team_maybe_grow(pns *s) {
    table *t = s->tt;
    pb_pns_team *tm = s->team;
    if (!t->grows || t->nbuckets >= t->cap) return;
    uint64_t used = t->used + (s->inserted - tm->mins0) + (atomic_load(&tm->hins) - tm->hins0);
    uint64_t stores = t->stores - t->stores0 + (s->stores - tm->mst0) + (atomic_load(&tm->hstores) - tm->hst0);
    if (!table_wants_growth(t, used, stores)) return;
    int g = atomic_fetch_add(&tm->grow_gen, 1) + 1;
    while (atomic_load(&tm->parked) != g && !atomic_load(&tm->gone)) continue;
    if (t->nbuckets * 2 <= t->cap && atomic_load(&tm->parked) == g) team_grow(t, tm);
    else table_grow(t, table_next(t));
    tm->mins0 = s->inserted, tm->hins0 = atomic_load(&tm->hins);
    tm->mst0 = s->stores, tm->hst0 = atomic_load(&tm->hstores), t->stores0 = t->stores;
    atomic_fetch_add(&tm->grow_gen, 1);
}

/* A crew member's report: its stores since its last report added to the
 * crew's, and a growth asked for if the table, with them, wants one. */
static void crew_add(pns *s) {
    pb_pns_crew *c = s->crew;
    atomic_fetch_add_explicit(&c->ins, s->inserted - s->crew_ins, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->stores, s->stores - s->crew_st, memory_order_relaxed);
    s->crew_ins = s->inserted, s->crew_st = s->stores;
}

static void crew_poll(pns *s) {
    pb_pns_crew *c = s->crew;
    crew_add(s);
    if (atomic_load_explicit(&c->want, memory_order_relaxed)) return;
    /* c->t's counts are written only while every member is parked. */
    uint64_t used = c->t->used + atomic_load_explicit(&c->ins, memory_order_relaxed);
    if (table_wants_growth(c->t, used, atomic_load_explicit(&c->stores, memory_order_relaxed)))
        atomic_store(&c->want, 1);
}

/* With c->mu held, every member parked or gone: the growth asked for (if
 * grow), by this thread alone (no search is in the table), and the others
 * woken. */
static void crew_grow(pb_pns_crew *c, int grow) {
    table *t = c->t;
    if (grow && atomic_load(&c->want) && t->nbuckets < t->cap) {
        table_grow(t, table_next(t));
        atomic_store(&c->ins, 0);
        atomic_store(&c->stores, 0);
    }
    atomic_store(&c->want, 0);
    c->parked = 0;
    c->gen++;
    pthread_cond_broadcast(&c->cv);
}

/* ---- book and hockey: single steps ---- */

/* pb_step and pb_unstep with the orientations kept up to date. */
static inline pb_step_result step(pns *s, pb_position *p, int d, pb_undo *u, int *loser) {
    int mover = p->to_move;
    pb_step_result r = pb_step(s->f, p, d, u, loser);
    s->steps++, s->drawn++;
    pb_images_step(&s->im, &s->ims, u->ball, d, u->seg, p->to_move != mover);
    return r;
}

static inline void unstep(pns *s, pb_position *p, int d, const pb_undo *u) {
    pb_images_step(&s->im, &s->ims, u->ball, d, u->seg, p->to_move != u->to_move);
    pb_unstep(s->f, p, u);
    s->drawn--;
}

/* The numbers of the child reached by step d from p (p is the child on
 * entry and on return).  A new turn start whose mover can score this turn
 * is a won leaf for that mover (a real goal route, tactics.h), kept in the
 * table so that it is found, not walked, next time.  fullk: the child's full
 * key (pb_images_child_key). */
static void child_numbers(pns *s, pb_position *p, pb_step_result r, const pb_image_key *fullk, uint64_t *cp,
                          uint64_t *cd) {
    const pb_field *f = s->f;
    pb_image_key full = *fullk, k = step_key(s, p, full);
    /* The chooser's guess: 1, or from the root of a large field 1 + twice
     * the ball's king-move distance from the goal the mover attacks. */
    int near = s->goal_dist ? 1 + 2 * s->goal_dist[2 * p->ball + p->to_move] : 1;
    if (lookup(s, &k, &full, p->to_move, f->degree0[p->ball] - p->deg[p->ball], near, p->to_move == s->A, cp, cd))
        return;
    if (r != PB_STEP_STOP || !s->tactics) return;
    uint64_t *seen = &s->no_score[p->hash & s->no_score_mask];
    int budget = PB_SCORE_BUDGET;
    if (*seen == p->hash) return; /* walked before, no goal found (a filter: a collision costs time, not truth) */
    if (pb_can_score(&s->tac, p, &budget, NULL, 0, NULL)) {
        leaf(s, p->to_move ^ 1, cp, cd);
        store(s, p, &k, p->to_move, *cp, *cd, 1);
    } else *seen = p->hash;
}

/* The children of p (book, hockey) with their numbers into k, in the
 * order that breaks ties; returns how many, or -1 when a child decides p
 * (a proof at an OR node, a disproof at an AND node). */
static int expand_steps(pns *s, pb_position *p, int or_node, kid *k) {
    const pb_field *f = s->f;
    const int ball = p->ball;
    /* Prefetch every child's bucket before the first probe. */
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, p, ball, d)) continue;
        int bounce = pb_occupied(f, p, pb_step_to(f, ball, d));
        table_prefetch(s->tt, pb_images_child_hash(&s->im, &s->ims, p, d, !bounce));
    }
    int score[8], n = 0;
    for (int d = 0; d < 8; d++) {
        if (!pb_free(f, p, ball, d)) continue;
        pb_undo u;
        int loser;
        uint64_t cp, cd;
        int fwd = p->to_move == PB_TOP ? -pb_dir_dy[d] : pb_dir_dy[d];
        /* The child's key in the orientations without stepping them all
         * (images.h): most children are only looked up. */
        pb_step_result r = pb_step(f, p, d, &u, &loser);
        s->steps++, s->drawn++;
        if (r == PB_STEP_GOAL || r == PB_STEP_DEAD_END) leaf(s, loser, &cp, &cd);
        else {
            pb_image_key full = pb_images_child_key(&s->im, &s->ims, p, ball, d, u.seg, r == PB_STEP_STOP);
            child_numbers(s, p, r, &full, &cp, &cd);
            pb_images_child_undo(&s->im, &s->ims, &full, u.seg);
        }
        pb_unstep(f, p, &u);
        s->drawn--;
        /* A child that decides the node decides it now. */
        if ((or_node && cp == 0) || (!or_node && cd == 0)) return -1;
        /* Bounces first (the mover keeps the ball), then forward steps:
         * the order that breaks ties between equal numbers. */
        int sc = (r == PB_STEP_BOUNCE) * 8 + fwd, j = n++;
        while (j > 0 && score[j - 1] < sc) k[j] = k[j - 1], score[j] = score[j - 1], j--;
        k[j].pn = cp, k[j].dn = cd, k[j].idx = d, score[j] = sc;
    }
    return n;
}

/* Searches p until pn >= thpn or dn >= thdn (or solved, or stopped);
 * returns p's numbers in *pn, *dn (meaningless when stopped).  p is
 * restored on return. */
static void mid_steps(pns *s, pb_position *p, uint64_t thpn, uint64_t thdn, int ply, uint64_t *opn, uint64_t *odn) {
    const int or_node = p->to_move == s->A;
    if ((++s->calls & POLL_MASK) == 0) poll(s);
    if (s->node_limit && s->nodes >= s->node_limit) s->stopped = 2;
    if (s->stopped) return;
    const uint64_t n0 = s->nodes++;
    kid k[8];
    int n = expand_steps(s, p, or_node, k);
    uint64_t pn = or_node ? 0 : PN_INF, dn = or_node ? PN_INF : 0; /* decided by a child */
    while (n >= 0) {
        combine(s, k, n, or_node, &pn, &dn);
        if (ply == 0) s->root_pn = pn, s->root_dn = dn;
        if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn) break;
        uint64_t cth_pn, cth_dn;
        int c = select_kid(s, k, n, or_node, thpn, thdn, pn, dn, &cth_pn, &cth_dn);
        pb_undo u;
        int loser;
        if (s->team) team_down(s->team, ply, k[c].idx);
        step(s, p, k[c].idx, &u, &loser);
        if (ply == 0) s->iterations++;
        mid_steps(s, p, cth_pn, cth_dn, ply + 1, &k[c].pn, &k[c].dn);
        unstep(s, p, k[c].idx, &u);
        if (s->team) team_up(s->team, ply);
        /* Cut short, a team's helper called off too, the search stores
         * nothing on its way up: a helper notices the call only at its
         * next poll, by when the main search may have taken its child,
         * searched it and stored fresher numbers there, which the stale
         * ones would overwrite (measured, docs/solver-measurements.md). */
        if (s->stopped) return;
    }
    pb_image_key key = step_key(s, p, pb_images_key(&s->im, &s->ims, p));
    store(s, p, &key, p->to_move, pn, dn, s->nodes - n0);
    *opn = pn, *odn = dn;
}

/* ---- triple: whole plies ---- */

typedef struct ply_list {
    pns *s;
    int nw, n, cap, chooser, decided;
    uint64_t *keys; /* per child: nwords segment words + ball | to_move << 16 */
    uint64_t *hash;
    kid *k;
    int or_node;
} ply_list;

static int collect_ply(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    ply_list *c = ctx;
    pns *s = c->s;
    (void)f;
    s->steps++;
    if (c->chooser < 0) c->chooser = r->mover, c->or_node = r->mover == s->A;
    uint64_t cp, cd;
    if (r->end != PB_END_NONE) leaf(s, r->loser, &cp, &cd);
    else {
        pb_image_key full = plain_key(after), k = table_key(s, after, full);
        lookup(s, &k, &full, after->to_move, 1, 1, 1, &cp, &cd);
    }
    if ((c->or_node && cp == 0) || (!c->or_node && cd == 0)) {
        c->decided = 1;
        return 1;
    }
    if (r->end != PB_END_NONE) return 0; /* a leaf lost for the chooser: never chosen */
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 32;
        c->keys = realloc(c->keys, sizeof(uint64_t) * (size_t)(c->nw + 1) * (size_t)c->cap);
        c->hash = realloc(c->hash, sizeof(uint64_t) * (size_t)c->cap);
        c->k = realloc(c->k, sizeof(kid) * (size_t)c->cap);
        if (!c->keys || !c->hash || !c->k) abort();
    }
    uint64_t *key = c->keys + (size_t)(c->nw + 1) * (size_t)c->n;
    memcpy(key, after->seg, sizeof(uint64_t) * (size_t)c->nw);
    key[c->nw] = (uint64_t)after->ball | (uint64_t)after->to_move << 16;
    c->hash[c->n] = after->hash;
    c->k[c->n].pn = cp, c->k[c->n].dn = cd, c->k[c->n].idx = c->n;
    c->n++;
    return 0;
}

/* Different routes often reach the same position: one child each (the
 * children sorted by hash, equal keys within a run of equal hashes). */
typedef struct hash_index {
    uint64_t hash;
    int i;
} hash_index;

static int by_hash(const void *a, const void *b) {
    const hash_index *x = a, *y = b;
    return x->hash < y->hash ? -1 : x->hash > y->hash ? 1 : x->i - y->i;
}

static void drop_repeats(ply_list *c) {
    if (c->n < 2) return;
    hash_index *h = malloc(sizeof *h * (size_t)c->n);
    kid *k = malloc(sizeof *k * (size_t)c->n);
    if (!h || !k) abort();
    for (int i = 0; i < c->n; i++) h[i].hash = c->hash[i], h[i].i = i;
    qsort(h, (size_t)c->n, sizeof *h, by_hash);
    const size_t kw = (size_t)c->nw + 1;
    int m = 0;
    for (int a = 0; a < c->n; a++) {
        int seen = 0;
        for (int b = a - 1; b >= 0 && h[b].hash == h[a].hash && !seen; b--)
            seen = !memcmp(c->keys + kw * (size_t)h[a].i, c->keys + kw * (size_t)h[b].i, sizeof(uint64_t) * kw);
        if (!seen) k[m++] = c->k[h[a].i];
    }
    memcpy(c->k, k, sizeof *k * (size_t)m);
    c->n = m;
    free(k);
    free(h);
}

static void mid_turns(pns *s, pb_position *p, uint64_t thpn, uint64_t thdn, int ply, uint64_t *opn, uint64_t *odn) {
    const pb_field *f = s->f;
    if ((++s->calls & POLL_MASK) == 0) poll(s);
    if (s->node_limit && s->nodes >= s->node_limit) s->stopped = 2;
    if (s->stopped) return;
    const uint64_t n0 = s->nodes++;
    ply_list c = {s, f->nwords, 0, 0, -1, 0, NULL, NULL, NULL, 0};
    long nroutes = pb_routes_foreach(f, p, collect_ply, &c);
    uint64_t pn, dn;
    if (nroutes == 0) { /* stuck, and no kick: a finished draw */
        leaf(s, PB_NOBODY, &pn, &dn);
    } else if (c.decided) {
        pn = c.or_node ? 0 : PN_INF, dn = c.or_node ? PN_INF : 0;
    } else {
        drop_repeats(&c);
        pb_position *q = malloc(sizeof *q);
        if (!q) abort();
        for (;;) {
            combine(s, c.k, c.n, c.or_node, &pn, &dn);
            if (ply == 0) s->root_pn = pn, s->root_dn = dn;
            if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn) break;
            uint64_t cth_pn, cth_dn;
            int i = select_kid(s, c.k, c.n, c.or_node, thpn, thdn, pn, dn, &cth_pn, &cth_dn);
            const uint64_t *key = c.keys + (size_t)(c.nw + 1) * (size_t)c.k[i].idx;
            memcpy(q->seg, key, sizeof(uint64_t) * (size_t)c.nw);
            q->ball = (int16_t)(key[c.nw] & 0xffff);
            q->to_move = (uint8_t)(key[c.nw] >> 16);
            pb_position_refresh(f, q);
            if (ply == 0) s->iterations++;
            mid_turns(s, q, cth_pn, cth_dn, ply + 1, &c.k[i].pn, &c.k[i].dn);
            if (s->stopped) break;
        }
        free(q);
    }
    free(c.keys);
    free(c.hash);
    free(c.k);
    if (s->stopped) return;
    pb_image_key key = table_key(s, p, plain_key(p));
    store(s, p, &key, p->to_move, pn, dn, s->nodes - n0);
    *opn = pn, *odn = dn;
}

/* ---- the root ---- */

/* The king-move distance (steps in any of the 8 directions, drawn lines
 * ignored) from every node to the nearest goal node where each player
 * scores, node * 2 + player; NULL if memory is short. */
static uint8_t *goal_distances(const pb_field *f) {
    uint8_t *d = malloc(2 * (size_t)f->nlattice);
    if (!d) return NULL;
    for (int i = 0; i < f->nlattice; i++)
        for (int pl = 0; pl < 2; pl++) {
            int best = 255;
            for (int g = 0; g < f->nlattice; g++) {
                if (pb_goal_owner(f, g) != (pl ^ 1)) continue;
                int dx = abs(pb_x(f, g) - pb_x(f, i)), dy = abs(pb_y(f, g) - pb_y(f, i));
                int k = dx > dy ? dx : dy;
                if (k < best) best = k;
            }
            d[2 * i + pl] = (uint8_t)best;
        }
    return d;
}

/* Initial numbers of new positions (lookup's `near`).  A position whose
 * ball is far from the goal its mover attacks is guessed harder to win
 * for the mover (1 + twice the distance) than one next to it (1), the
 * number against staying the mover's number of choices.  Measured (see
 * docs/solver.md): from the start of a field it saves nodes, but in
 * endgames, where the drawn lines decide what the ball can reach, it
 * costs many times more, so it is used only below a root with more than
 * 2 * PB_REACH_LIMIT free segments reachable, and only in games without
 * draws (s->heuristic).  Guesses only order the
 * search: a proof or disproof is still made of leaves and rules alone
 * (argument 2 at the top), so no value depends on them. */
static void goal_guess(pns *s, const pb_position *root) {
    s->goal_dist = NULL;
    if (s->dist_table && pb_reach_fill(&s->reach, root, 2 * PB_REACH_LIMIT) < 0) s->goal_dist = s->dist_table;
}

/* Is "A reaches at least t" true at p?  1 yes, 0 no, -1 stopped. */
static int ask(pns *s, pb_position *p, int A, int t) {
    s->A = A, s->t = t;
    uint64_t pn = 1, dn = 1;
    int pd = s->proven ? pb_proven_question(s->proven, p->seg, p->ball, p->to_move, p->hash, A, t)
                       : 0; /* saved proofs consulted here */
    if (pd) return pd > 0;
    if (s->team) team_question(s->team, p, A, t);
    if (pb_turns_are_steps(s->f)) mid_steps(s, p, PN_INF, PN_INF, 0, &pn, &dn);
    else mid_turns(s, p, PN_INF, PN_INF, 0, &pn, &dn); /* triple: whole plies */
    if (s->team) team_question_over(s->team);
    if (s->stopped) return -1;
    s->root_pn = pn, s->root_dn = dn;
    return pn == 0 ? 1 : 0;
}

/* ---- the helper of a team ---- */

/* The node on the main search's path the helper works under, and the
 * child it proves.  A node whose numbers lean to the side where every
 * child counts (an AND node that looks proven, dn > pn; an OR node that
 * looks disproven, pn > dn) will need each of its children settled that way unless it turns, not
 * just the one the main search is in: the helper takes the shallowest such
 * node at least TEAM_MARGIN plies above the main search's own, and of its
 * unsettled children other than the main search's the one the main search
 * would come to last (its number to choose by the largest; of equals the
 * last in the order of ties), so that the two meet as late as possible.
 * p: the root on entry, the node on return (its step state current);
 * path: the steps read.  Returns the node's ply, or -1 (none, or the path
 * changed while it was read). */
static int help_pick(pns *s, pb_pns_team *tm, pb_position *p, int *child, unsigned char *path) {
    const pb_field *f = s->f;
    int len = atomic_load_explicit(&tm->len, memory_order_acquire);
    if (len > TEAM_PLY) len = TEAM_PLY;
    for (int i = 0; i < len - TEAM_MARGIN; i++) {
        int d = atomic_load_explicit(&tm->dir[i], memory_order_relaxed);
        if (d > 7 || !pb_free(f, p, p->ball, d)) return -1;
        path[i] = (unsigned char)d;
        const int or_node = p->to_move == s->A;
        kid k[8];
        int n = expand_steps(s, p, or_node, k);
        if (n < 0) return -1; /* decided: the main search is about to leave it */
        uint64_t pn, dn;
        combine(s, k, n, or_node, &pn, &dn);
        int c = -1;
        for (int j = 0; j < n && (or_node ? pn > dn : dn > pn); j++) {
            if (k[j].idx == d || k[j].pn == 0 || k[j].dn == 0) continue;
            if (c < 0 || (or_node ? k[j].pn >= k[c].pn : k[j].dn >= k[c].dn)) c = j;
        }
        if (c >= 0) {
            *child = k[c].idx;
            return i;
        }
        pb_undo u;
        int loser;
        pb_step_result r = step(s, p, d, &u, &loser);
        if (r == PB_STEP_GOAL || r == PB_STEP_DEAD_END) return -1;
    }
    return -1;
}

/* Copies the main search's question; 0 when it is between questions. */
static int help_question(pb_pns_team *tm, pb_position *p, int *A, int *t, int *qgen) {
    if (!atomic_load(&tm->active)) return 0;
    while (atomic_flag_test_and_set_explicit(&tm->lock, memory_order_acquire)) continue;
    *p = tm->root, *A = tm->A, *t = tm->t, *qgen = atomic_load(&tm->qgen);
    atomic_flag_clear_explicit(&tm->lock, memory_order_release);
    return atomic_load(&tm->active);
}

static void help_pause(void) {
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
}

const char *pb_pns_stop_name(int stopped) {
    return stopped == 1   ? "time limit"
           : stopped == 2 ? "node limit"
           : stopped == 3 ? "stop flag"
           : stopped == 4 ? "memory"
           : stopped == 5 ? "cancelled"
                          : "";
}

/* The table's header is read by every probe of every thread sharing it,
 * and the search writes its own state and position at every step: a cache
 * line of padding each side keeps the header on lines nobody writes (on
 * one line with the position, a helper's probes missed at every step of
 * the main search). */
struct pb_pns {
    pns s;
    char pad0[64];
    table own; /* the table, unless the search shares another's */
    char pad1[64];
    pb_position q;
    int questions;
};

static void pns_release(pb_pns *x) {
    table_free(&x->own);
    free(x->s.no_score);
    free(x->s.dist_table);
    pb_tactics_free(&x->s.tac);
    pb_images_free(&x->s.im);
    pb_reach_free(&x->s.reach);
    free(x);
}

/* Everything of a search but its table: its own state, whether or not it
 * shares a table with other threads' searches.  Returns 0 or -1. */
static int pns_setup(pb_pns *x, const pb_field *f, const pb_position *root, const pb_pns_opts *o, size_t bytes) {
    pns *s = &x->s;
    s->f = f;
    s->weak = !o->sum;
    s->nodraw = !(f->spec.rules == PB_RULES_TRIPLE ||
                  (f->spec.rules == PB_RULES_HOCKEY && f->spec.dead_end == PB_DEAD_END_DRAW));
    s->eps = o->epsilon == 0 ? PNS_EPS_DEFAULT : o->epsilon > 4096 ? 4096 : o->epsilon;
    s->node_limit = o->node_limit;
    s->stop = o->stop;
    s->cancel = o->cancel;
    s->progress = o->progress;
    s->tactics = !o->no_tactics && pb_turns_are_steps(f); /* the goal walk follows single steps */
    /* Measured: a help where every game ends in a goal or a lost dead end
     * (book, hockey with lost dead ends), a loss where dead ends draw. */
    s->heuristic = !o->no_heuristic && pb_turns_are_steps(f) &&
                   (f->spec.rules == PB_RULES_BOOK || f->spec.dead_end == PB_DEAD_END_LOSS);
    s->full_keys = o->full_keys;
    pb_reach_init(&s->reach, f, o->reduce_limit);
    pb_reach_memo(&s->reach, 2048); /* df-pn asks about the same positions again at each re-expansion */
    s->proven = o->proven;          /* saved proofs (proven.h) */
    s->t0 = now_s();
    s->deadline = o->time_limit > 0 ? s->t0 + o->time_limit : 0;
    s->next_report = s->t0 + 2.0;
    /* The no-goal filter: one slot per 256 table bytes, at most 2^15 (a
     * small solve, e.g. an endgame, should not clear more than it uses). */
    size_t slots = 64;
    while (slots < NO_SCORE_MAX && slots * 256 < bytes) slots *= 2;
    s->no_score = calloc(slots, sizeof(uint64_t));
    s->no_score_mask = slots - 1;
    s->dist_table = s->heuristic ? goal_distances(f) : NULL;
    if (!s->no_score || pb_tactics_init(&s->tac, f) || pb_images_init(&s->im, f) || (s->heuristic && !s->dist_table))
        return -1;
    /* The orientations the root is symmetric under, kept for every later
     * question: positions met from this root (images.h). */
    if (f->spec.rules != PB_RULES_TRIPLE) pb_images_choose(&s->im, root, o->full_keys);
    pb_reach_root(&s->reach, root);
    goal_guess(s, root);
    return 0;
}

pb_pns *pb_pns_new(const pb_field *f, const pb_position *root, const pb_pns_opts *o) {
    pb_pns *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    size_t bytes = o->table_bytes ? o->table_bytes : pb_solve_default_hash(f, root);
    x->s.tt = &x->own;
    if (table_init(&x->own, f, bytes, o->threads > 1 && !o->team, o->threads > 1 && o->team) ||
        pns_setup(x, f, root, o, bytes)) {
        pns_release(x);
        return NULL;
    }
    x->own.reuse = o->grow_reuse > 0 ? (uint64_t)o->grow_reuse : GROW_REUSE;
    return x;
}

pb_pns *pb_pns_new_sharing(pb_pns *owner, const pb_position *root, const pb_pns_opts *o) {
    pb_pns *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->s.tt = owner->s.tt;
    if (pns_setup(x, owner->s.f, root, o, x->s.tt->bytes)) {
        pns_release(x);
        return NULL;
    }
    /* Its owner's time: a search made later (the classes after the value)
     * stops when the owner does, not a whole limit after its making. */
    x->s.deadline = owner->s.deadline;
    /* Its owner's orientations, whatever its own root: searches on one
     * table must key a position alike, or each misses what the other
     * stored.  A team's helper made for a first-turn class's position
     * chose none (no mirror image is that position) where the owner, made
     * for the start, keys every position by the lowest of its images. */
    x->s.im.nimg = owner->s.im.nimg;
    memcpy(x->s.im.img, owner->s.im.img, sizeof x->s.im.img);
    return x;
}

void pb_pns_free(pb_pns *x) {
    if (x) pns_release(x);
}

int pb_pns_solve(pb_pns *x, const pb_position *p) {
    pns *s = &x->s;
    const pb_field *f = s->f;
    if (s->stopped == 5) s->stopped = 0; /* a cancelled question leaves the search usable */
    if (s->stopped) return PB_UNKNOWN;
    x->q = *p;
    s->drawn = pb_position_drawn_count(f, p);
    pb_images_reset(&s->im, &s->ims, p);
    /* Draws exist in triple and in hockey with drawn dead ends; elsewhere
     * every leaf is a win or a loss, so "cannot win" means "loses". */
    int draws = !s->nodraw;
    int me = p->to_move, yes = ask(s, &x->q, me, PB_WIN), value = PB_UNKNOWN;
    x->questions = 1;
    if (yes == 1) value = PB_WIN;
    else if (yes == 0 && !draws) value = PB_LOSS;
    else if (yes == 0) {
        x->questions = 2;
        yes = ask(s, &x->q, me, PB_DRAW);
        if (yes >= 0) value = yes ? PB_DRAW : PB_LOSS;
    }
    return value;
}

void pb_pns_get_stats(const pb_pns *x, pb_pns_stats *st) {
    const pns *s = &x->s;
    memset(st, 0, sizeof *st);
    st->questions = x->questions;
    st->nodes = s->nodes;
    st->steps = s->steps;
    st->iterations = s->iterations;
    st->root_pn = s->root_pn, st->root_dn = s->root_dn;
    st->table_bytes = s->tt->bytes;
    st->table_slots = s->tt->cap * WAYS;
    st->in_use_bytes = s->tt->nbuckets * s->tt->bucket_words * sizeof(uint64_t);
    st->in_use_slots = s->tt->nbuckets * WAYS;
    st->table_shared = s->tt->shared;
    st->peak_used = s->tt->shared ? s->inserted : s->tt->used;
    st->grown = s->tt->grown, st->lost = s->tt->lost;
    st->probes = s->probes, st->hits = s->hits;
    st->complement_hits = s->complement_hits;
    st->stores = s->stores, st->replaced = s->replaced;
    st->reduced_keys = s->reach.reduced;
    st->seconds = now_s() - s->t0;
    st->stopped = s->stopped;
}

const pb_tactics *pb_pns_tactics(const pb_pns *x) { return &x->s.tac; }

void pb_pns_set_cancel(pb_pns *x, atomic_int *cancel) { x->s.cancel = cancel; }
void pb_pns_set_stop(pb_pns *x, volatile sig_atomic_t *stop) { x->s.stop = stop; }
void pb_pns_set_label(pb_pns *x, const char *label) {
    snprintf(x->s.label, sizeof x->s.label, "%s", label ? label : "");
}

/* The table may hold keys of both kinds: each decides its value (reach.h). */
void pb_pns_set_reduce(pb_pns *x, int limit) {
    pb_reach_free(&x->s.reach);
    pb_reach_init(&x->s.reach, x->s.f, limit);
    pb_reach_memo(&x->s.reach, 2048);
}

/* Why a kept table serves any later root: every entry is keyed by the
 * whole image it was stored under (segment words, ball, player), and an
 * image has the same value for its player to move as the position it came
 * from (images.h), so the proofs it holds are true whatever orientations a
 * later root chooses; unproven numbers carry their question and only guide
 * the search; the no-goal filter is keyed by the position's own hash and
 * only saves a walk. */
void pb_pns_rearm(pb_pns *x, const pb_position *root, double seconds) {
    pns *s = &x->s;
    if (s->stopped == 1 || s->stopped == 5) s->stopped = 0;
    s->deadline = seconds > 0 ? now_s() + seconds : 0;
    if (s->f->spec.rules != PB_RULES_TRIPLE) pb_images_choose(&s->im, root, s->full_keys);
    pb_reach_root(&s->reach, root);
    goal_guess(s, root);
}

int pb_pns_known(pb_pns *x, const pb_position *p) {
    pns *s = &x->s;
    pb_image_state *st = malloc(sizeof *st);
    if (!st) return PB_UNKNOWN;
    pb_images_reset(&s->im, st, p);
    /* The key's segment words are st's (or s->rseg, reduced): st is freed
     * only after the table has been searched with them. */
    pb_image_key k = table_key(s, p, pb_images_key(&s->im, st, p));
    table *t = s->tt;
    uint64_t *b = table_bucket(t, k.hash), m = 0;
    bucket_lock(t, b);
    int w = table_find(t, b, k.seg, key_bits(k.bt, k.hash));
    if (w >= 0) m = b[w];
    bucket_unlock(t, b);
    free(st);
    int lo = PB_LOSS, hi = PB_WIN;
    if (w >= 0) lo = meta_lo(m), hi = meta_hi(m);
    /* The saved proofs too (proven bounds, as the table's): a resumed run
     * finds there the line a finished run saved. */
    int plo, phi;
    if (lo != hi && s->proven && pb_proven_probe(s->proven, p->seg, p->ball, p->to_move, p->hash, &plo, &phi, NULL)) {
        if (plo > lo) lo = plo;
        if (phi < hi) hi = phi;
    }
    return lo == hi ? lo : lo == PB_WIN ? PB_WIN : hi == PB_LOSS ? PB_LOSS : PB_UNKNOWN;
}

int pb_pns_value(const pb_field *f, const pb_position *p, const pb_pns_opts *o, pb_pns_stats *st) {
    pb_pns *x = pb_pns_new(f, p, o);
    pb_pns_stats local;
    if (!st) st = &local;
    if (!x) {
        memset(st, 0, sizeof *st);
        st->stopped = 4;
        return PB_UNKNOWN;
    }
    int v = pb_pns_solve(x, p);
    pb_pns_get_stats(x, st);
    pb_pns_free(x);
    return v;
}

/* The helper's loop: wait while the main search is between questions,
 * help while it grows the table (team_grow_help); else pick a node and child (help_pick), claim them,
 * check that the main search is still on that path, and search the child
 * with no thresholds until it is settled or the helper is called off (the
 * main search left the node or took the child, a growth, the question
 * over).  Its answers go to the table like any search's; a helper called
 * off stores nothing from its unfinished nodes (mid_steps). */
void pb_pns_help(pb_pns *x, pb_pns_team *tm) {
    pns *s = &x->s;
    const pb_field *f = s->f;
    pb_position *root = malloc(sizeof *root), *p = malloc(sizeof *p);
    s->cancel = &tm->cancel;
    s->helps = tm;
    while (root && p && !atomic_load(&tm->done) && pb_turns_are_steps(f)) {
        int g = atomic_load(&tm->grow_gen);
        if (g & 1) { /* the main search grows the table: help, outside the search */
            atomic_store(&tm->hins, s->inserted);
            atomic_store(&tm->hstores, s->stores);
            atomic_store(&tm->parked, g);
            team_grow_help(s->tt, tm, g);
            continue;
        }
        int A, t, qgen;
        if (!help_question(tm, root, &A, &t, &qgen)) {
            help_pause();
            continue;
        }
        s->A = A, s->t = t;
        *p = *root;
        s->drawn = pb_position_drawn_count(f, p);
        pb_images_reset(&s->im, &s->ims, p);
        unsigned char path[TEAM_PLY];
        int child = -1, ply = help_pick(s, tm, p, &child, path);
        if (ply < 0) {
            help_pause();
            continue;
        }
        /* Claim the node, then check that the main search is still on it
         * (from now on it calls the helper off when it leaves the node or
         * takes the child). */
        atomic_store(&tm->cancel, 0);
        atomic_store(&tm->hdir, child);
        atomic_store(&tm->target, ply);
        int still = atomic_load(&tm->active) && atomic_load(&tm->len) > ply && atomic_load(&tm->qgen) == qgen &&
                    !(atomic_load(&tm->grow_gen) & 1);
        for (int i = 0; still && i < ply; i++) still = atomic_load(&tm->dir[i]) == path[i];
        if (still) {
            pb_undo u;
            int loser;
            pb_step_result r = step(s, p, child, &u, &loser);
            if (r != PB_STEP_GOAL && r != PB_STEP_DEAD_END) {
                uint64_t pn, dn;
                mid_steps(s, p, PN_INF, PN_INF, ply + 1, &pn, &dn);
            }
        }
        atomic_store(&tm->target, TEAM_NONE);
        if (s->stopped == 5) s->stopped = 0;
        if (s->stopped) break; /* time, stop flag: the main search stops as well */
    }
    free(root);
    free(p);
    s->helps = NULL;
    atomic_store(&tm->gone, 1);
}

pb_pns_team *pb_pns_team_new(void) {
    pb_pns_team *tm = calloc(1, sizeof *tm);
    if (!tm) return NULL;
    atomic_flag_clear(&tm->lock);
    atomic_init(&tm->target, TEAM_NONE);
    return tm;
}

void pb_pns_team_free(pb_pns_team *tm) { free(tm); }

/* A team's table is shared (locked) while the team works; before and
 * after, its search is alone on it and it grows as any. */
void pb_pns_team_join(pb_pns *x, pb_pns_team *tm) {
    pns *s = &x->s;
    table *t = s->tt;
    if (!t->grows) { /* shared from the start */
        s->team = tm;
        return;
    }
    if (tm && !s->team) {
        tm->mins0 = s->inserted, tm->hins0 = 0;
        tm->mst0 = s->stores, tm->hst0 = 0;
        t->shared = 1;
    } else if (!tm && s->team) {
        t->used += (s->inserted - s->team->mins0) + (atomic_load(&s->team->hins) - s->team->hins0);
        t->stores += (s->stores - s->team->mst0) + (atomic_load(&s->team->hstores) - s->team->hst0);
        t->shared = 0;
    }
    s->team = tm;
}

void pb_pns_team_over(pb_pns_team *tm) {
    atomic_store(&tm->done, 1);
    atomic_store(&tm->cancel, 1);
}

pb_pns_crew *pb_pns_crew_new(pb_pns *owner) {
    table *t = owner->s.tt;
    if (!t->grows) return NULL;
    pb_pns_crew *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (pthread_mutex_init(&c->mu, NULL)) {
        free(c);
        return NULL;
    }
    if (pthread_cond_init(&c->cv, NULL)) {
        pthread_mutex_destroy(&c->mu);
        free(c);
        return NULL;
    }
    c->t = t;
    t->shared = 1;
    return c;
}

/* Once every member has left: the table is its owner's alone again, its
 * counts brought up to date. */
void pb_pns_crew_free(pb_pns_crew *c) {
    if (!c) return;
    table *t = c->t;
    t->used += atomic_load(&c->ins);
    t->stores0 = t->stores - (atomic_load(&c->stores) < t->stores ? atomic_load(&c->stores) : t->stores);
    t->shared = 0;
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

void pb_pns_crew_join(pb_pns *x, pb_pns_crew *c) {
    pns *s = &x->s;
    pthread_mutex_lock(&c->mu);
    c->members++;
    pthread_mutex_unlock(&c->mu);
    s->crew = c;
    s->crew_ins = s->inserted, s->crew_st = s->stores;
}

void pb_pns_crew_leave(pb_pns *x) {
    pns *s = &x->s;
    pb_pns_crew *c = s->crew;
    if (!c) return;
    crew_add(s);
    s->crew = NULL;
    pthread_mutex_lock(&c->mu);
    c->members--;
    /* A member leaving because the solve stops (time, stop flag, node
     * limit) wakes the others without growing the table: they stop as
     * well, or ask for the growth again and, alone, make it. */
    if (c->members > 0 && c->parked == c->members) crew_grow(c, s->stopped == 0 || s->stopped == 5);
    pthread_mutex_unlock(&c->mu);
}

int pb_pns_crew_wait(pb_pns *x) {
    pns *s = &x->s;
    pb_pns_crew *c = s->crew;
    if (!c || !s->crew_stopped) return 0;
    s->crew_stopped = 0;
    crew_add(s);
    /* want stays set until this member parks (a growth waits for every
     * member), so the growth is still to come. */
    pthread_mutex_lock(&c->mu);
    unsigned g = c->gen;
    if (++c->parked == c->members) crew_grow(c, 1);
    else
        while (c->gen == g) pthread_cond_wait(&c->cv, &c->mu);
    pthread_mutex_unlock(&c->mu);
    return 1;
}
