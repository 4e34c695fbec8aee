/* proofs.h - the book's theorems, each with an exhaustive check.
 *
 * A claim has a name, a precise statement, a method and a checker.  A checker
 * runs on a list of fields and fills a pb_proofs_result: per field what was
 * checked and how much, the verdict, and for a failure the shortest
 * counterexample found as a game (record + SVG diagram).
 *
 * Every checker takes hooks through pb_proofs_opts so that tests can feed it
 * a broken rule or a constructed position and watch it fail: a different
 * start position, a different empty-count formula, a different expected
 * count of first-move classes.  The defaults check the book's statements.
 *
 * Claims (see proofs/<name>.md for the arguments):
 *   empty-count      N = 2(n1-1)+(n2-1)(n3-1)-1 empty nodes, N even
 *   moves-converted  turns made = nodes turned from empty to occupied
 *   last-move-red    the last route of a finished game ends on an odd node
 *   last-move-exact  ... or on the centre (dead end): what really holds
 *   first-moves      five mirror classes of first moves
 *   no-draws         every finished book game has a loser
 *   dead-end-odd     a dead end happens only on an odd node or the centre
 */
#ifndef PB_PROOFS_H
#define PB_PROOFS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stepwalk.h"
#include "walk.h"

typedef enum {
    PB_VERDICT_HOLDS = 0, /* checked everywhere it was asked, no violation */
    PB_VERDICT_FAILS = 1, /* a counterexample was found */
    PB_VERDICT_OPEN = 2   /* nothing failed, but no field was checked completely */
} pb_verdict;

#define PB_PROOFS_NOTE 640

/* What one field contributed. */
typedef struct pb_proofs_field {
    pb_field_spec spec;
    int complete;       /* exhaustive on this field */
    int out_of_memory;  /* not complete because memory ran out */
    int depth;          /* turns followed (deepest level expanded) */
    uint64_t positions; /* distinct positions checked */
    uint64_t routes;    /* (position, route) pairs checked */
    uint64_t finished;  /* distinct finishing (position, route) pairs */
    uint64_t games;     /* finished games as turn sequences */
    /* The step-level walk (stepwalk.h), the primary method on full walks. */
    int stepwalk;        /* it ran */
    uint64_t states;     /* distinct states (between and within turns) */
    uint64_t steps;      /* (state, step) pairs checked */
    uint64_t fsteps;     /* finishing (state, step) pairs */
    uint64_t step_games; /* finished games counted by the step walk */
    int step_levels;     /* segment levels fully expanded */
    int turnwalk;        /* the turn-level walk ran (cross-check or --depth) */
    int xcheck;          /* both walks complete: 1 game counts agree, -1 they differ, 0 n/a */
    int games_overflow;
    double seconds;
    int failed;
    char note[PB_PROOFS_NOTE]; /* claim-specific figures */
} pb_proofs_field;

typedef struct pb_proofs_result {
    const char *claim, *statement, *method;
    pb_verdict verdict;
    int nfields, capfields;
    pb_proofs_field *fields;
    char summary[1024]; /* what holds, in one paragraph */
    /* The counterexample (verdict FAILS). */
    int has_cx;
    pb_field_spec cx_spec;
    char *cx_record;   /* malloc'd game record (routes from cx_from) */
    char *cx_svg;      /* malloc'd SVG diagram of it */
    char cx_what[256]; /* what it shows */
    int cx_from_start; /* record starts at the field's start position */
    int cx_turns;      /* turns in the record */
    /* The run's deadline or its stop flag cut a walk of this claim short:
     * the result is partial, not one to keep (a resumed run redoes the
     * fields from the one cut). */
    int interrupted;
} pb_proofs_result;

/* A claim's progress, for a run that may be stopped and resumed (prove
 * --checkpoint).  A walking claim's unit is a field: after each field
 * walked to its end (not cut by the deadline or a stop), the frame calls
 * save with res as it stands (the rows of the fields done, the
 * counterexample so far) and the claim's carried state (the bytes it keeps
 * from field to field).  Given from, the claim starts as it stood then:
 * from's rows and counterexample, the state, and the next field.  The other
 * claims are quick and keep no progress: they start over. */
typedef struct pb_proofs_progress {
    void (*save)(void *ctx, const pb_proofs_result *res, const void *state, size_t len);
    void *ctx;
    const pb_proofs_result *from; /* NULL: from the start */
    const void *state;
    size_t state_len;
} pb_proofs_progress;

/* Hooks for tests (all optional: zero means the book's default). */
typedef struct pb_proofs_opts {
    const pb_field_spec *fields; /* fields to check; NULL = the claim's default list */
    int nfields;
    int max_depth;                              /* turns; 0 = until every game ends */
    size_t max_positions;                       /* per field; 0 = default cap */
    double max_seconds;                         /* per field; 0 = default cap */
    double deadline;                            /* pb_walk_now() time after which no walk goes on; 0 = none */
    const pb_position *start;                   /* walk from this position (with one field) */
    int start_turns;                            /* turns made before *start */
    const pb_game *start_game;                  /* or from the end of this game (gives full records) */
    long (*empty_formula)(int g, int w, int l); /* empty-count: formula checked */
    int max_dim;                                /* empty-count: largest W and L (default 20) */
    int expect_classes;                         /* first-moves: classes claimed (default 5) */
    int trap_max_steps;                         /* last-move: centre-trap search bound (default 24) */
    int no_trap_search;                         /* last-move: skip the targeted search */
    int turn_walk;                              /* 1: also run the turn-level walk on every field; -1: never */
    const volatile sig_atomic_t *stop;          /* nonzero: the walks stop as at the deadline (a signal) */
    const pb_proofs_progress *progress;         /* saving and resuming a walking claim, or NULL */
} pb_proofs_opts;

/* What a checker found; pb_proofs_run turns it into the verdict. */
typedef enum {
    PB_CHECK_HOLDS = 0, /* no violation, and some field was checked exhaustively */
    PB_CHECK_FAILS,     /* a violation: res holds the counterexample */
    PB_CHECK_BAD_FIELD, /* a field could not be built: res->summary says why */
    PB_CHECK_OPEN       /* no violation, but no field was checked exhaustively */
} pb_check_outcome;

typedef pb_check_outcome (*pb_proofs_checker)(const pb_proofs_opts *o, pb_proofs_result *res);

typedef struct pb_proofs_claim {
    const char *name;
    const char *statement;
    const char *method;
    pb_proofs_checker check;
} pb_proofs_claim;

/* The claims in order; NULL-terminated by name. */
extern const pb_proofs_claim pb_proofs_claims[];
const pb_proofs_claim *pb_proofs_find(const char *name);

/* Runs one claim: initialises res, returns its verdict. */
pb_verdict pb_proofs_run(const pb_proofs_claim *c, const pb_proofs_opts *o, pb_proofs_result *res);
void pb_proofs_result_free(pb_proofs_result *res);
/* A deep copy of src into dst (dst's own content is not freed). */
void pb_proofs_result_copy(pb_proofs_result *dst, const pb_proofs_result *src);
const char *pb_verdict_name(pb_verdict v);

/* The default field lists: where book enumeration completes here, and the
 * book's own field. */
int pb_proofs_default_fields(pb_field_spec *out, int max);

/* Shortest game that ends with the ball trapped on the centre (a dead end
 * there, all eight centre segments drawn), by iterative deepening on the
 * number of segments drawn with an admissible bound.  Fills *g (initialised
 * here from f's start) and returns the number of steps, 0 if none exists
 * within max_steps, -1 if the node budget ran out first.  *nodes receives
 * the search nodes visited. */
int pb_proofs_centre_trap(const pb_field *f, int max_steps, uint64_t budget, pb_game *g, uint64_t *nodes);

/* Counts the empty nodes of the start straight from docs/rules.md §1: lattice
 * points whose four surrounding cells are all playable, minus the centre.
 * Independent of pb_field (it only reads the spec). */
long pb_proofs_count_empty(const pb_field_spec *s);

/* The checkpoint of a run of claims (saved.c; the format is at its top):
 * the claims finished, in the run's order, with their whole results, and
 * the claim under way with the rows of its fields done and its carried
 * state (pb_proofs_progress). */
#define PB_PROOFS_KIND "PROV"
typedef struct pb_proofs_saved {
    int ndone;
    pb_proofs_result *done;
    int has_part;
    pb_proofs_result part;
    void *state; /* malloc'd */
    size_t state_len;
} pb_proofs_saved;

/* Writes s to path through a temporary file renamed over it; the header
 * names f (the run's field) and `run` (what the run checks, as text).  0,
 * or -1 with a one-line message in err. */
int pb_proofs_save(const char *path, const pb_field *f, const char *run, const pb_proofs_saved *s, char *err,
                   size_t errlen);
/* Reads a checkpoint of the same kind, field and run text into s (zeroed
 * first).  0, or -1 with a one-line message in err: a damaged file, or a
 * checkpoint of another run. */
int pb_proofs_load(const char *path, const pb_field *f, const char *run, pb_proofs_saved *s, char *err, size_t errlen);
void pb_proofs_saved_free(pb_proofs_saved *s);

/* Writes res as text or JSON. */
void pb_proofs_print(FILE *out, const pb_proofs_result *res);
/* The JSON object of res, as one item of the array j is in. */
struct pb_json;
void pb_proofs_json(struct pb_json *j, const pb_proofs_result *res);

#endif
