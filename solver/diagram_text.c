/* diagram_text.c - the text diagram of a position, for the terminal
 * (pb_diagram_text, diagram.h).
 *
 * Layout (rows top first, one text column per character):
 *
 *      11          G===G===G        node line: node glyph every 4 columns,
 *                  #       #        a horizontal segment fills the 3 between;
 *      10  ########+   .   +####    middle line: a vertical segment under its
 *          #   \       /       #    node, a diagonal in the cell's centre
 *       9  #   .   +---+   .   #    (X when both diagonals are drawn).
 *          a   b   c   d   e
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "diagram_facts.h"
#include "strbuf.h"

/* One character cell of the text picture: a glyph (UTF-8, up to 3 bytes)
 * and the player whose colour it takes (-1: none). */
typedef struct tcell {
    char g[4];
    int8_t who;
} tcell;

typedef struct tgrid {
    int w, h;
    tcell *c;
} tgrid;

static void tput(tgrid *t, int x, int y, const char *glyph, int who) {
    assert(x >= 0 && x < t->w && y >= 0 && y < t->h);
    assert(strlen(glyph) < sizeof t->c[0].g);
    tcell *c = &t->c[y * t->w + x];
    strcpy(c->g, glyph);
    c->who = (int8_t)who;
}

/* Glyph sets: index by meaning. */
typedef struct glyphs {
    const char *empty, *occupied, *ball, *odd, *goal;
    const char *h, *v, *ne, *nw, *x; /* drawn segments */
    const char *bh, *bv, *bnode;     /* border (ASCII) */
    const char *goal_h;              /* border between goal nodes */
} glyphs;

static const glyphs ascii_glyphs = {".", "+", "*", "o", "G", "-", "|", "/", "\\", "X", "#", "#", "#", "="};
static const glyphs unicode_glyphs = {"\u00b7", "\u25e6", "\u25cf", "\u2022", "\u25aa", "\u2500", "\u2502",
                                      "\u2571", "\u2572", "\u2573", "\u2501", "\u2503", NULL,     "\u2550"};

/* Heavy box-drawing junction for a border node with border segments in the
 * directions of mask (1 E, 2 N, 4 W, 8 S). */
static const char *heavy_junction(int mask) {
    static const char *j[16] = {"\u00b7", "\u257a", "\u2579", "\u2517", "\u2578", "\u2501", "\u251b", "\u253b",
                                "\u257b", "\u250f", "\u2503", "\u2523", "\u2513", "\u2533", "\u252b", "\u254b"};
    return j[mask & 15];
}

/* Node (x, y) sits at text column 4x, text row 2 (rows-1-y). */
static int text_x(int x) { return 4 * x; }
static int text_y(const pb_field *f, int y) { return 2 * (f->rows - 1 - y); }

static void text_grid_init(tgrid *t, const pb_field *f) {
    t->w = 4 * (f->cols - 1) + 1;
    t->h = 2 * (f->rows - 1) + 1;
    t->c = calloc((size_t)(t->w * t->h), sizeof *t->c);
    assert(t->c);
    for (int k = 0; k < t->w * t->h; k++) strcpy(t->c[k].g, " "), t->c[k].who = -1;
}

/* The border; a border segment is never drawn, so the lines drawn after
 * it never take its place. */
static void text_border(tgrid *t, const pb_field *f, const glyphs *gl) {
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) {
            if (pb_diagram_border_seg(f, x, y, PB_E)) {
                int goal_line = (f->flags[pb_at(f, x, y)] & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) &&
                                (f->flags[pb_at(f, x + 1, y)] & (PB_GOAL_BOTTOM | PB_GOAL_TOP));
                for (int k = 1; k <= 3; k++) tput(t, text_x(x) + k, text_y(f, y), goal_line ? gl->goal_h : gl->bh, -1);
            }
            if (pb_diagram_border_seg(f, x, y, PB_N)) tput(t, text_x(x), text_y(f, y) - 1, gl->bv, -1);
        }
}

static void text_lines(tgrid *t, const pb_diagram_facts *d, const glyphs *gl) {
    const pb_field *f = d->f;
    for (int s = 0; s < f->nsegments; s++) {
        if (d->owner[s] == OWNER_NONE) continue;
        const pb_segment *sg = &f->segs[s];
        int x = text_x(pb_x(f, sg->a)), y = text_y(f, pb_y(f, sg->a)), who = d->owner[s];
        /* Both diagonals of a cell cross in its centre: show an X. */
        int crossed = sg->cross >= 0 && d->owner[sg->cross] != OWNER_NONE;
        switch (sg->dir) {
            case PB_E:
                for (int k = 1; k <= 3; k++) tput(t, x + k, y, gl->h, who);
                break;
            case PB_N: tput(t, x, y - 1, gl->v, who); break;
            case PB_NE: tput(t, x + 2, y - 1, crossed ? gl->x : gl->ne, who); break;
            case PB_NW:
                /* a is the lower-right end of a NW diagonal: the cell is to its left. */
                tput(t, x - 2, y - 1, crossed ? gl->x : gl->nw, who);
                break;
            default: assert(0 && "segments run E, NE, N or NW from their first end");
        }
    }
}

static const char *text_node_glyph(const pb_game *g, const pb_diagram_opts *o, const glyphs *gl, int i) {
    const pb_field *f = g->field;
    int x = pb_x(f, i), y = pb_y(f, i), fl = f->flags[i];
    if (i == g->pos.ball) return gl->ball;
    if (o->odd && (fl & PB_ODD)) return gl->odd;
    if (fl & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) return gl->goal;
    if (fl & PB_BOUNDARY) {
        if (gl->bnode) return gl->bnode;
        int mask = (pb_diagram_border_seg(f, x, y, PB_E) ? 1 : 0) | (pb_diagram_border_seg(f, x, y, PB_N) ? 2 : 0) |
                   (x > 0 && pb_diagram_border_seg(f, x - 1, y, PB_E) ? 4 : 0) |
                   (y > 0 && pb_diagram_border_seg(f, x, y - 1, PB_N) ? 8 : 0);
        return heavy_junction(mask);
    }
    return pb_occupied(f, &g->pos, i) ? gl->occupied : gl->empty;
}

/* Nodes.  The text has no continuation style: it shows the position the
 * game has reached, whatever highlight_from says. */
static void text_nodes(tgrid *t, const pb_game *g, const pb_diagram_opts *o, const glyphs *gl) {
    const pb_field *f = g->field;
    for (int i = 0; i < f->nlattice; i++)
        if (pb_is_node(f, i)) tput(t, text_x(pb_x(f, i)), text_y(f, pb_y(f, i)), text_node_glyph(g, o, gl, i), -1);
}

/* Out: row numbers on the left, column letters under the bottom row;
 * trailing blanks trimmed so the text compares cleanly. */
static char *text_out(const tgrid *t, const pb_field *f, int color) {
    static const char *colour[3] = {"\033[31m", "\033[34m", "\033[90m"}; /* Bottom red, Top blue */
    pb_strbuf b = {0};
    pb_strbuf_puts(&b, "");
    for (int r = 0; r < t->h; r++) {
        if (r % 2 == 0) pb_strbuf_printf(&b, "%2d  ", f->rows - r / 2);
        else pb_strbuf_puts(&b, "    ");
        int last = t->w - 1;
        while (last >= 0 && !strcmp(t->c[r * t->w + last].g, " ")) last--;
        int cur = -1;
        for (int k = 0; k <= last; k++) {
            const tcell *c = &t->c[r * t->w + k];
            int want = color ? c->who : -1;
            if (want != cur) {
                pb_strbuf_puts(&b, want < 0 ? "\033[0m" : colour[want]);
                cur = want;
            }
            pb_strbuf_puts(&b, c->g);
        }
        if (cur >= 0) pb_strbuf_puts(&b, "\033[0m");
        pb_strbuf_puts(&b, "\n");
    }
    pb_strbuf_puts(&b, "    ");
    for (int x = 0; x < f->cols; x++) {
        char name[8];
        pb_strbuf_printf(&b, "%-4s", pb_diagram_column_name(f, x, name));
    }
    while (b.n > 0 && b.s[b.n - 1] == ' ') b.s[--b.n] = 0;
    pb_strbuf_puts(&b, "\n");
    return b.s;
}

char *pb_diagram_text(const pb_game *g, const pb_diagram_opts *o) {
    assert(g && g->field);
    static const pb_diagram_opts none = {.highlight_from = -1};
    if (!o) o = &none;
    const glyphs *gl = o->unicode ? &unicode_glyphs : &ascii_glyphs;
    pb_diagram_facts *d = malloc(sizeof *d);
    assert(d);
    pb_diagram_facts_build(d, g, o);
    tgrid t;
    text_grid_init(&t, g->field);
    text_border(&t, g->field, gl);
    text_lines(&t, d, gl);
    text_nodes(&t, g, o, gl);
    char *out = text_out(&t, g->field, o->color);
    free(t.c);
    free(d);
    return out;
}
