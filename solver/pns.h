/* pns.h - the value of a position by depth-first proof-number search
 * (df-pn), a second exact method beside the alpha-beta of search.h.
 *
 * The search answers yes/no questions "can player A reach at least t?"
 * (t = win, or t = draw: "can A avoid losing?").  The value of a position
 * for its player to move takes one question where the rules have no draws
 * (book, hockey with lost dead ends) and at most two where they have them.
 * The algorithm, the table and the argument that the answers are exact are
 * at the top of pns.c and in docs/solver.md.
 */
#ifndef PB_PNS_H
#define PB_PNS_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "search.h"
#include "tactics.h"

typedef struct pb_pns_opts {
    size_t table_bytes;          /* table memory cap; 0 = as alpha-beta's
                                        (pb_solve_default_hash) */
    double time_limit;           /* seconds; 0 = none */
    uint64_t node_limit;         /* expanded nodes; 0 = none */
    volatile sig_atomic_t *stop; /* set (e.g. by SIGINT) to stop; may be NULL */
    atomic_int *cancel;          /* set by another thread to give up the current
                                        question (it answers PB_UNKNOWN, stopped 5;
                                        the next question runs); may be NULL */
    FILE *progress;              /* progress lines every ~2 s; NULL = none */
    int sum;                     /* sum children's numbers (classic df-pn)
                                        instead of the weak max + count - 1 */
    int epsilon;                 /* threshold slack in 1/1024 (the 1+e trick);
                                        0 = 256 (e = 1/4), negative = none,
                                        at most 4096 (e = 4) */
    int full_keys;               /* no mirror images in the table's keys
                                        (tests, measurements) */
    int reduce_limit;            /* reduced keys (reach.h) when at most this many
                                        free segments are reachable; 0 =
                                        PB_REACH_LIMIT, < 0 = never */
    int no_tactics;              /* no "can the new mover score?" check at
                                        turn starts (measurements) */
    int no_heuristic;            /* initial numbers without the ball's distance
                                        to the goal (tests, measurements) */
    pb_proven *proven;           /* saved proofs: consulted (published entries) and told of
                                        every solved node (solver/proven.h); may be NULL */
    int threads;                 /* searches that will share the table (pb_pns_new_sharing);
                                        more than 1: its buckets are locked and it is
                                        used whole from the start; 0 = 1 */
    int team;                    /* with threads > 1: the table is for a team (pb_pns_team_join)
                                        or a crew (pb_pns_crew_new): it starts at
                                        min(table_bytes, 64 MiB) and grows, every other
                                        search parked */
    int grow_reuse;              /* beyond 64 MiB a full table grows once rewritten this many
                                        times over (pns.c, GROW_REUSE); 0 = 16 */
} pb_pns_opts;

typedef struct pb_pns_stats {
    uint64_t nodes;                    /* expansions: calls of the recursive search */
    uint64_t steps;                    /* single steps (book, hockey) or plies (triple) made */
    uint64_t iterations;               /* children searched from the root's loop */
    int questions;                     /* yes/no questions asked (1 or 2) */
    uint64_t root_pn, root_dn;         /* of the last question when it stopped */
    size_t table_bytes, table_slots;   /* the budget: the most the table may grow to */
    size_t in_use_bytes, in_use_slots; /* the table as it is now (its buckets in use) */
    int table_shared;                  /* still shared: peak_used counts this search's inserts only */
    size_t peak_used;                  /* ways filled: now, or (table_shared) this search's stores into empty ways */
    uint64_t grown;                    /* the table grew this often (pns.c, table_grow) */
    uint64_t lost;                     /* entries dropped as it grew (no room, or a key that did not give its hash) */
    uint64_t probes, hits, stores, replaced;
    uint64_t complement_hits; /* hits whose numbers were stored for the complement of the question */
    uint64_t reduced_keys;    /* keys reduced to the reachable part (reach.h) */
    double seconds;
    int stopped; /* 1 time, 2 node limit, 3 stop flag, 4 memory, 5 cancelled */
} pb_pns_stats;

/* The value of p (a position where the game goes on) for its player to
 * move: PB_WIN, PB_DRAW or PB_LOSS, or PB_UNKNOWN when stopped (st->stopped
 * says why).  st may be NULL. */
int pb_pns_value(const pb_field *f, const pb_position *p, const pb_pns_opts *o, pb_pns_stats *st);

/* A search kept between questions about positions met from one root (its
 * table, its orientations, its limits: time and node limits count from
 * pb_pns_new, and once stopped every later question answers PB_UNKNOWN).
 * NULL if memory is short. */
typedef struct pb_pns pb_pns;
pb_pns *pb_pns_new(const pb_field *f, const pb_position *root, const pb_pns_opts *o);
void pb_pns_free(pb_pns *s);
/* A search with a state of its own (orientations, limits, counts) on the
 * table of `owner` (made with opts.threads > 1, to be shared safely), for
 * another thread; o as for pb_pns_new (its table_bytes unused; its time
 * limit replaced by the owner's deadline, so that a search made later
 * stops with the owner).  owner must outlive it.  NULL if memory is short. */
pb_pns *pb_pns_new_sharing(pb_pns *owner, const pb_position *root, const pb_pns_opts *o);
/* The value of p as pb_pns_value gives it. */
int pb_pns_solve(pb_pns *s, const pb_position *p);
/* The counts of every question so far (questions: of the last one). */
void pb_pns_get_stats(const pb_pns *s, pb_pns_stats *st);
/* Replaces the cancel flag of pb_pns_opts (NULL: none). */
void pb_pns_set_cancel(pb_pns *s, atomic_int *cancel);
/* Replaces the stop flag of pb_pns_opts (NULL: none). */
void pb_pns_set_stop(pb_pns *s, volatile sig_atomic_t *stop);
/* What the questions from now on are for, named in the progress lines
 * ("the value", a first turn's route, "the line"; NULL or "": nothing
 * named).  Copied; only the report changes. */
void pb_pns_set_label(pb_pns *s, const char *label);
/* Reduced keys (reach.h) from now on: as pb_pns_opts.reduce_limit. */
void pb_pns_set_reduce(pb_pns *s, int limit);
/* Starts a new root for a search kept across unrelated positions (a
 * batch): the orientations chosen for root (as pb_pns_new), the time limit
 * counted afresh from now (seconds, 0 = none), and a search stopped by its
 * time limit usable again (a node limit, stop flag or memory stop stays).  What the table
 * holds stays: its proofs are of whole positions, true from any root. */
void pb_pns_rearm(pb_pns *s, const pb_position *root, double seconds);
/* A team: a search (pb_pns_team_join) and a helper thread running
 * pb_pns_help on a search sharing its table.  The joined search publishes
 * the path it is on; the helper proves children that a proof of a node on
 * that path will need (pns.c, help_pick), until pb_pns_team_over.  The
 * answers are the same as without the helper; only the work is shared.
 * Book and hockey only (elsewhere the helper returns at once). */
typedef struct pb_pns_team pb_pns_team;
pb_pns_team *pb_pns_team_new(void);
void pb_pns_team_free(pb_pns_team *tm);
void pb_pns_team_join(pb_pns *s, pb_pns_team *tm); /* NULL: leave */
void pb_pns_help(pb_pns *helper, pb_pns_team *tm);
void pb_pns_team_over(pb_pns_team *tm);
/* A crew: searches on several threads, each asking questions of its own
 * (the first-turn classes dealt to the threads), on the table of `owner`
 * (made with opts.threads > 1 and opts.team), which grows while they work
 * as one thread's does.  When it is due to grow, every member's question
 * is given up (PB_UNKNOWN, stopped 5 "cancelled"); the member then calls
 * pb_pns_crew_wait, which returns once the table has grown (the last
 * member to park grows it), and asks its question again.  A member that
 * is done calls pb_pns_crew_leave.  pb_pns_crew_new returns NULL if
 * memory is short or the table does not grow; pb_pns_crew_free, once
 * every member has left, gives the table back to its owner alone. */
typedef struct pb_pns_crew pb_pns_crew;
pb_pns_crew *pb_pns_crew_new(pb_pns *owner);
void pb_pns_crew_free(pb_pns_crew *c);
void pb_pns_crew_join(pb_pns *x, pb_pns_crew *c);
void pb_pns_crew_leave(pb_pns *x);
/* After a question answered PB_UNKNOWN: 1 if it was given up for the
 * crew's growth (the table has grown when this returns: ask again), else 0. */
int pb_pns_crew_wait(pb_pns *x);
/* p's value if the table alone decides it (no search), else PB_UNKNOWN. */
int pb_pns_known(pb_pns *s, const pb_position *p);
/* Its "can the mover score?" walker (for pb_line_route). */
const pb_tactics *pb_pns_tactics(const pb_pns *s);

/* "time limit", "node limit", "stop flag", "memory" or "" for st->stopped. */
const char *pb_pns_stop_name(int stopped);

#endif
