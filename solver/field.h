/* field.h - the geometry of a paper-football field (docs/rules.md §1).
 *
 * A field is a grid of unit cells; the nodes are lattice points at the
 * corners of playable cells.  Every lattice point of the bounding box has an
 * index  i = x + y * cols  (cols = W + 1), whether or not it is a node, so a
 * neighbour is always  i + dx + dy * cols.
 *
 *   y = rows-1   . . t t t . .     box goals (book, triple), (2;6;8):
 *                o o o o o o o     rows 0 .. L+2, goal nodes on rows 0 and L+2
 *                o . . . . . o     (t, b); field nodes on rows 1 .. L+1.
 *                o . . c . . o
 *                o o o o o o o
 *   y = 0        . . b b b . .
 *
 * Segments join king-neighbour nodes.  Each legal segment gets a compact
 * index 0 .. nsegments-1 (numbered from its lower/left end in directions
 * E, NE, N, NW), so a set of drawn segments is a bitset of nwords words.
 * Border segments and segments outside the region have no index (-1): they
 * can never be drawn, which is how "the border counts as drawn" is modelled.
 */
#ifndef PB_FIELD_H
#define PB_FIELD_H

#include <stddef.h>
#include <stdint.h>

/* Largest field side in cells.  With W, L <= 30 a field has at most
 * 31 * 33 lattice points and fewer than 4096 legal segments. */
#define PB_MAX_DIM 30
#define PB_MAX_LATTICE ((PB_MAX_DIM + 1) * (PB_MAX_DIM + 3))
#define PB_MAX_SEGMENTS 4096
#define PB_MAX_WORDS (PB_MAX_SEGMENTS / 64)

typedef enum { PB_RULES_BOOK = 0, PB_RULES_HOCKEY = 1, PB_RULES_TRIPLE = 2 } pb_rules;
typedef enum { PB_DEAD_END_DRAW = 0, PB_DEAD_END_LOSS = 1 } pb_dead_end;

/* Players are named by the goal they defend. */
enum { PB_BOTTOM = 0, PB_TOP = 1, PB_NOBODY = 2 };

/* Directions, counter-clockwise from east; the opposite of d is d ^ 4. */
enum { PB_E, PB_NE, PB_N, PB_NW, PB_W, PB_SW, PB_S, PB_SE };
extern const int pb_dir_dx[8], pb_dir_dy[8];

/* Node flags. */
enum {
    PB_NODE = 1,        /* a corner of a playable cell */
    PB_BOUNDARY = 2,    /* not all four cells around it are playable */
    PB_GOAL_BOTTOM = 4, /* reaching it scores against Bottom */
    PB_GOAL_TOP = 8,    /* reaching it scores against Top */
    PB_POST = 16,       /* an end of a goal line */
    PB_CENTRE = 32,     /* the kick-off node */
    PB_OCCUPIED0 = 64,  /* occupied before any segment is drawn */
    PB_ODD = 128        /* odd number of legal segments at the start */
};

typedef struct pb_field_spec {
    pb_rules rules;
    int goal, width, length; /* G, W, L in cells (the book's n1, n2, n3) */
    int setback;             /* S, hockey only */
    pb_dead_end dead_end;    /* hockey only */
} pb_field_spec;

typedef struct pb_segment {
    int16_t a, b;  /* lattice indices, a is the lower/left end */
    int8_t dir;    /* direction from a to b: E, NE, N or NW */
    int16_t cross; /* the other diagonal of the same cell, or -1 */
} pb_segment;

typedef struct pb_field {
    pb_field_spec spec;
    int box;                  /* box goals (book, triple) or line goals */
    int cols, rows, nlattice; /* the bounding lattice */
    int nnodes, nsegments, nwords;
    int nempty, nodd, ninner;      /* figures of the start position */
    int centre;                    /* lattice index */
    int goal_x0, goal_x1;          /* goal columns */
    int goal_y_bottom, goal_y_top; /* rows of the goal nodes */
    int line_y_bottom, line_y_top; /* rows of the goal lines (posts) */
    uint8_t flags[PB_MAX_LATTICE];
    uint8_t degree0[PB_MAX_LATTICE]; /* legal segments at the node */
    int16_t seg[PB_MAX_LATTICE][8];  /* segment index per direction, -1 */
    pb_segment segs[PB_MAX_SEGMENTS];
    int16_t mirror_lr[PB_MAX_LATTICE], mirror_tb[PB_MAX_LATTICE];
    int16_t seg_mirror_lr[PB_MAX_SEGMENTS], seg_mirror_tb[PB_MAX_SEGMENTS];
    uint64_t zobrist_seg[PB_MAX_SEGMENTS];
    uint64_t zobrist_ball[PB_MAX_LATTICE];
    uint64_t zobrist_top; /* Top to move */
} pb_field;

/* Parses "2;6;8", "(2;6;8)" or "2,6,8" into G, W, L.  Returns 0 or -1 with a
 * message in err. */
int pb_field_spec_parse(const char *text, pb_field_spec *spec, char *err, size_t errlen);

/* Checks a spec against docs/rules.md §1 (and the triple shape rules).
 * Returns 0 or -1 with a one-line message in err. */
int pb_field_spec_check(const pb_field_spec *spec, char *err, size_t errlen);

/* Builds a field (heap allocated, free with pb_field_free).  NULL with a
 * message in err if the spec is invalid. */
pb_field *pb_field_new(const pb_field_spec *spec, char *err, size_t errlen);
void pb_field_free(pb_field *f);

static inline int pb_x(const pb_field *f, int i) { return i % f->cols; }
static inline int pb_y(const pb_field *f, int i) { return i / f->cols; }
static inline int pb_at(const pb_field *f, int x, int y) { return x + y * f->cols; }
static inline int pb_is_node(const pb_field *f, int i) { return f->flags[i] & PB_NODE; }
static inline int pb_step_to(const pb_field *f, int i, int d) { return i + pb_dir_dx[d] + pb_dir_dy[d] * f->cols; }
/* The segment from node i in direction d, or -1 if it is not legal. */
static inline int pb_seg_at(const pb_field *f, int i, int d) { return f->seg[i][d]; }
/* The player whose goal node i is, or PB_NOBODY. */
static inline int pb_goal_owner(const pb_field *f, int i) {
    return (f->flags[i] & PB_GOAL_BOTTOM) ? PB_BOTTOM : (f->flags[i] & PB_GOAL_TOP) ? PB_TOP : PB_NOBODY;
}
/* The direction of the step from lattice node a to b, or -1 when they
 * are not neighbours. */
int pb_dir_between(const pb_field *f, int a, int b);
/* The segment joining lattice nodes a and b, or -1. */
int pb_seg_between(const pb_field *f, int a, int b);

/* Node names: column letter(s) + row number, "d6".  Writes into buf (>= 8
 * bytes) and returns buf.  pb_node_parse returns the lattice index or -1;
 * *used receives the number of characters consumed. */
const char *pb_node_name(const pb_field *f, int i, char *buf);
int pb_node_parse(const pb_field *f, const char *s, int *used);

const char *pb_rules_name(pb_rules r);
int pb_rules_parse(const char *s, pb_rules *r);
/* "(2;6;8)" or "hockey W=8 L=10 G=2 S=1"-style description into buf. */
const char *pb_field_describe(const pb_field *f, char *buf, size_t len);

#endif
