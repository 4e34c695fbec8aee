/* diagram_facts.h - what the two pictures of diagram.h (the text in
 * diagram_text.c, the SVG in diagram_svg.c) share, gathered once by
 * pb_diagram_facts_build (diagram.c): which cells are playable, which
 * orthogonal segments are border, and for every drawn segment who drew it,
 * whether it was a triple kick, in which turn and at which step.  The drawn
 * set itself comes from the game's position, so a picture shows exactly
 * the position the model holds; the turns only colour it.  Internal to the
 * diagram module. */
#ifndef PB_DIAGRAM_FACTS_H
#define PB_DIAGRAM_FACTS_H

#include "diagram.h"

enum { OWNER_NONE = -1 };

typedef struct pb_diagram_facts {
    const pb_field *f;
    const pb_position *p;
    int nshown;                    /* turns before the continuation */
    int8_t owner[PB_MAX_SEGMENTS]; /* mover who drew it, OWNER_NONE if not drawn */
    uint8_t kick[PB_MAX_SEGMENTS]; /* drawn by a triple free kick */
    int16_t turn[PB_MAX_SEGMENTS]; /* index of the turn that drew it, -1 */
    int16_t step[PB_MAX_SEGMENTS]; /* its step in that turn: 1 = from nodes[0] */
} pb_diagram_facts;

/* Cell (cx, cy) is playable (its NE diagonal is a legal segment). */
int pb_diagram_cell_playable(const pb_field *f, int cx, int cy);
/* The orthogonal segment from lattice point (x, y) east (PB_E) or north
 * (PB_N) is border: exactly one of the cells beside it is playable. */
int pb_diagram_border_seg(const pb_field *f, int x, int y, int dir);
void pb_diagram_facts_build(pb_diagram_facts *d, const pb_game *g, const pb_diagram_opts *o);
/* Where the ball is before the continuation (if there is one). */
int pb_diagram_shown_ball(const pb_game *g, int nshown);
/* The letter(s) of column x ("a", ..., "z", "aa", ...), in name. */
const char *pb_diagram_column_name(const pb_field *f, int x, char *name);

#endif
