/* replay_html.h - a game as one self-contained HTML page that replays it.
 *
 * The page holds the game's SVG diagram (solver/diagram.h, the same picture
 * `show --svg` draws) inline, the record as a list, and a short script: no
 * network, no external file.  Buttons and keys step through the game one
 * step or one turn at a time (Right/Left: a step; Down/Up or Shift+Right/
 * Left: a turn; Home/End), showing only the lines drawn so far, the ball
 * where it is, the current turn's record highlighted, the turn and step
 * numbers, and the value of the position where it is known.
 *
 * Elements a test (or a reader of the page source) can rely on:
 *   #status  data-turn = turns finished or under way (0 at the start),
 *            data-step = steps of that turn taken, data-stop = index of
 *            the stop (0 = start); its text says the same in words
 *   #value   the value where known (the game's end; each stop of a line
 *            of perfect play)
 *   #record li.current   the turn under way or just finished
 */
#ifndef PB_REPLAY_HTML_H
#define PB_REPLAY_HTML_H

#include "game.h"

typedef struct pb_replay_opts {
    const char *title;  /* page heading and SVG caption, may be NULL */
    int highlight_from; /* as in pb_diagram_opts: turns from here on are a
                              continuation; <0 or >= nturns: none */
    int perfect;        /* the continuation is a line of perfect play to
                              the end of the game: its stops show the value */
} pb_replay_opts;

/* A malloc'd NUL-terminated HTML page. */
char *pb_replay_html(const pb_game *g, const pb_replay_opts *o);

#endif
