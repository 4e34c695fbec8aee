/* frame.h - what the claims' checkers share (internal to proofs/): the
 * walk frame that runs a claim's visitors over its fields, the outcome of a
 * checker, and the small helpers that fill a pb_proofs_result.  Each claim
 * is one file beside its argument (empty-count.c and empty-count.md, ...);
 * claims.c lists them. */
#ifndef PB_FRAME_H
#define PB_FRAME_H

#include <stddef.h>

#include "proofs.h"

/* The length of the reason a claim's visitors give for a stop. */
#define PB_CLAIM_WHY 200

/* The head of every walk context: a context struct of a walking claim
 * starts with it, so the frame reads why a walk stopped without knowing
 * the rest of the struct. */
typedef struct pb_claim_ctx {
    char why[PB_CLAIM_WHY]; /* empty, or why a visitor stopped the walk */
} pb_claim_ctx;

/* One walked field, as a walking claim sees it before the field is freed. */
typedef struct pb_claim_field {
    const pb_field *f;
    const char *desc; /* the field as "(G;W;L)" */
    pb_proofs_field *pf;
    int stop;             /* the walks stopped at a violation (or disagreed) */
    const char *why;      /* its reason: the step walk's, else the turn walk's */
    pb_proofs_result *cx; /* the walks' counterexample: res, or a scratch result (all_fields) */
} pb_claim_field;

/* A claim checked by walking its fields: the visitors of the two walks,
 * each over a context of its own (the turn walk cross-checks the step walk,
 * so it counts apart), and what the claim adds per field.  Both contexts
 * begin with a pb_claim_ctx. */
typedef struct pb_claim_walk {
    pb_walk_visitor turn;
    pb_stepwalk_visitor step;
    const void *fresh; /* both contexts start every field as a copy of this */
    size_t size;       /* of a context (at least sizeof(pb_claim_ctx)) */
    /* The field's note, and whatever else the claim does per field. */
    void (*field)(const struct pb_claim_walk *w, const pb_proofs_opts *o, const pb_claim_field *cf,
                  pb_proofs_result *res);
    void *arg;         /* the claim's own state, for field */
    size_t arg_size;   /* bytes of arg carried from field to field (saved with the progress); 0: none */
    int all_fields;    /* go on after a violation; field judges the counterexample */
    const char *holds; /* the summary when no field fails, before "Exhaustive on ..." (or NULL) */
} pb_claim_walk;

/* Walks every field of a claim (the fields asked for, else the default
 * list; with o->progress->from, from the field after the last one saved,
 * and each field walked to its end is saved through o->progress).  PB_CHECK_BAD_FIELD on a field that cannot be built; FAILS at the
 * first violation, with the counterexample's description and the summary
 * set (unless all_fields); else, with the summary written when the claim
 * gives one, HOLDS if some field was walked exhaustively, OPEN if none (and
 * HOLDS without a summary).  *nfields and *ncomplete (when not NULL) count
 * the fields and those walked exhaustively. */
pb_check_outcome pb_claim_walk_fields(const pb_proofs_opts *o, pb_proofs_result *res, const pb_claim_walk *w,
                                      int *nfields, int *ncomplete);

/* The walk's start: the given position or game, else the field's start. */
void pb_claim_walk_start(const pb_proofs_opts *o, const pb_field *f, pb_game *g, pb_position *start, int *d0);

/* A new row of res for the field s. */
pb_proofs_field *pb_claim_add_field(pb_proofs_result *res, const pb_field_spec *s);

/* Stores a counterexample game in res (a copy of its record and its SVG). */
void pb_claim_set_cx(pb_proofs_result *res, const pb_game *g, int from_start, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The field of s, or NULL with the reason in res's summary. */
pb_field *pb_claim_make_field(const pb_field_spec *s, pb_proofs_result *res);

/* The book field (g;w;l) and its description "(G;W;L)". */
pb_field_spec pb_claim_book_spec(int g, int w, int l);
void pb_claim_field_desc(const pb_field_spec *s, char *buf, size_t len);

/* Appends to the bounded note in buf, and writes it (both may truncate:
 * notes are bounded on purpose). */
void pb_claim_notef(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pb_claim_setf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The checkers, one file each. */
pb_check_outcome pb_claim_empty_count(const pb_proofs_opts *o, pb_proofs_result *res);
pb_check_outcome pb_claim_moves_converted(const pb_proofs_opts *o, pb_proofs_result *res);
pb_check_outcome pb_claim_last_move_red(const pb_proofs_opts *o, pb_proofs_result *res);
pb_check_outcome pb_claim_last_move_exact(const pb_proofs_opts *o, pb_proofs_result *res);
pb_check_outcome pb_claim_first_moves(const pb_proofs_opts *o, pb_proofs_result *res);
pb_check_outcome pb_claim_no_draws(const pb_proofs_opts *o, pb_proofs_result *res);
pb_check_outcome pb_claim_dead_end_odd(const pb_proofs_opts *o, pb_proofs_result *res);

#endif
