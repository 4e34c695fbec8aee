/* diagram.h - pictures of positions: text for the terminal, SVG for people.
 *
 * A diagram draws a game: the field (grid, border, goals, posts), the routes
 * played, each player's lines in that player's colour (kick lines dashed),
 * the ball, column letters and row numbers; on request the odd nodes in red
 * (the book's figure 4).  Turns from index highlight_from on are drawn as a
 * continuation (the solver's principal variation) in a distinct style.
 * The text diagram has no continuation style: it always shows the position
 * the whole game reaches (g->pos), so a zeroed pb_diagram_opts is safe there.
 */
#ifndef PB_DIAGRAM_H
#define PB_DIAGRAM_H

#include "game.h"

typedef struct pb_diagram_opts {
    int unicode;         /* text: box-drawing characters instead of ASCII */
    int odd;             /* mark odd nodes (red in SVG, 'o' / '•' in text) */
    int highlight_from;  /* first turn drawn as continuation; <0 or >= nturns: none
                            (SVG only; note that 0 makes every turn a continuation) */
    const char *title;   /* SVG caption, may be NULL */
    int color;           /* text: ANSI colours, Top blue, Bottom red */
} pb_diagram_opts;

/* Both return a malloc'd NUL-terminated string. */
char *pb_diagram_text(const pb_game *g, const pb_diagram_opts *o);
char *pb_diagram_svg(const pb_game *g, const pb_diagram_opts *o);

#endif
