/* diagram.h - pictures of positions: text for the terminal, SVG for people.
 *
 * A diagram draws a game: the field (grid, border, goals, posts, which goal
 * each player attacks), the routes played, each player's lines in that
 * player's colour (free kicks dotted, a kick's way back along itself beside
 * it), every turn's number where it ends, the ball, column letters and row
 * numbers, a caption with the result ("Top wins in 7 turns (goal)"); on
 * request the odd nodes in red (the book's figure 4) and the node names.
 * Turns from index highlight_from on are drawn as a continuation (the
 * solver's line of perfect play) in a distinct style.
 * The text diagram has no continuation style: it always shows the position
 * the whole game reaches (g->pos), so a zeroed pb_diagram_opts is safe there.
 */
#ifndef PB_DIAGRAM_H
#define PB_DIAGRAM_H

#include "game.h"

typedef struct pb_diagram_opts {
    int unicode;        /* text: box-drawing characters instead of ASCII */
    int odd;            /* mark odd nodes (red in SVG, 'o' / '•' in text) */
    int highlight_from; /* first turn drawn as continuation; <0 or >= nturns: none
                            (SVG only; note that 0 makes every turn a continuation) */
    const char *title;  /* SVG caption, may be NULL */
    int color;          /* text: ANSI colours, Top blue, Bottom red */
    int names;          /* SVG: every node's name beside it */
    int replay;         /* SVG: ids and data-turn / data-step attributes for
                            the replayer's script (solver/replay_html.h) */
} pb_diagram_opts;

/* Both return a malloc'd NUL-terminated string. */
char *pb_diagram_text(const pb_game *g, const pb_diagram_opts *o);
char *pb_diagram_svg(const pb_game *g, const pb_diagram_opts *o);

#endif
