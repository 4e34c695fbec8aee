/* diagram.c - pictures of positions: a text diagram for the terminal and a
 * self-contained SVG picture (see diagram.h).
 *
 * Both pictures are built from the same facts, gathered once by
 * diagram_facts(): which cells are playable, which orthogonal segments are
 * border, and for every drawn segment who drew it, whether it was a triple
 * kick and in which turn.  The drawn set itself comes from the game's
 * position, so the picture shows exactly the position the model holds; the
 * turns only colour it.
 *
 * Text layout (rows top first, one text column per character):
 *
 *      11          G===G===G        node line: node glyph every 4 columns,
 *                  #       #        a horizontal segment fills the 3 between;
 *      10  ########+   .   +####    middle line: a vertical segment under its
 *          #   \       /       #    node, a diagonal in the cell's centre
 *       9  #   .   +---+   .   #    (X when both diagonals are drawn).
 *          a   b   c   d   e
 */
#include "diagram.h"
#include "strbuf.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growable string: solver/strbuf.h, by short local names ------- */

typedef pb_strbuf sbuf;
#define sb_puts pb_strbuf_puts
#define sb_printf pb_strbuf_printf
#define sb_xml pb_strbuf_xml

/* ---- facts shared by both pictures ------------------------------------ */

enum { OWNER_NONE = -1 };

typedef struct diagram_facts {
    const pb_field *f;
    const pb_position *p;
    int nshown;                          /* turns before the continuation */
    int8_t owner[PB_MAX_SEGMENTS];       /* mover who drew it, OWNER_NONE if not drawn */
    uint8_t kick[PB_MAX_SEGMENTS];       /* drawn by a triple free kick */
    int16_t turn[PB_MAX_SEGMENTS];       /* index of the turn that drew it, -1 */
} diagram_facts;

/* Cell (cx, cy) is playable iff its NE diagonal is a legal segment
 * (docs/rules.md §1: a diagonal is legal iff its cell is playable). */
static int cell_playable(const pb_field *f, int cx, int cy) {
    if (cx < 0 || cy < 0 || cx >= f->cols - 1 || cy >= f->rows - 1) return 0;
    return f->seg[pb_at(f, cx, cy)][PB_NE] >= 0;
}

/* The orthogonal segment from lattice point (x, y) east (dir PB_E) or north
 * (PB_N) is a border segment: exactly one of the cells beside it playable. */
static int border_seg(const pb_field *f, int x, int y, int dir) {
    if (dir == PB_E) {
        if (x >= f->cols - 1) return 0;
        return cell_playable(f, x, y) != cell_playable(f, x, y - 1);
    }
    if (y >= f->rows - 1) return 0;
    return cell_playable(f, x, y) != cell_playable(f, x - 1, y);
}

static int highlight_start(const pb_game *g, const pb_diagram_opts *o) {
    if (!o || o->highlight_from < 0 || o->highlight_from >= g->nturns) return g->nturns;
    return o->highlight_from;
}

static void diagram_facts_build(diagram_facts *d, const pb_game *g, const pb_diagram_opts *o) {
    const pb_field *f = g->field;
    d->f = f;
    d->p = &g->pos;
    d->nshown = highlight_start(g, o);
    memset(d->owner, OWNER_NONE, sizeof d->owner);
    memset(d->kick, 0, sizeof d->kick);
    for (int s = 0; s < PB_MAX_SEGMENTS; s++) d->turn[s] = -1;
    for (int t = 0; t < g->nturns; t++) {
        const pb_game_turn *gt = &g->turns[t];
        for (int k = 0; k + 1 < gt->len; k++) {
            int s = pb_seg_between(f, gt->nodes[k], gt->nodes[k + 1]);
            /* No step runs along a segment drawn before (docs/rules.md §2 and
             * 3), so the first turn that has it is the one that drew it. */
            if (s < 0 || d->turn[s] >= 0) continue;
            d->owner[s] = (int8_t)gt->mover;
            d->kick[s] = (uint8_t)(gt->kick != 0);
            d->turn[s] = (int16_t)t;
        }
    }
    /* Segments drawn in the position but by no listed turn (a position set
     * up by hand) are shown without an owner. */
    for (int s = 0; s < f->nsegments; s++)
        if (!pb_drawn(&g->pos, s)) d->owner[s] = OWNER_NONE, d->turn[s] = -1;
        else if (d->turn[s] < 0) d->owner[s] = 2;
}

/* The ball of the picture: where the shown position has it (before the
 * continuation, if there is one). */
static int shown_ball(const pb_game *g, int nshown) {
    if (nshown < g->nturns) return g->turns[nshown].nodes[0];
    return g->pos.ball;
}

/* ---- text ------------------------------------------------------------- */

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
    const char *h, *v, *ne, *nw, *x;       /* drawn segments */
    const char *bh, *bv, *bnode;            /* border (ASCII) */
    const char *goal_h;                     /* border between goal nodes */
} glyphs;

static const glyphs ascii_glyphs = {".", "+", "*", "o", "G", "-", "|", "/", "\\", "X",
                                    "#", "#", "#", "="};
static const glyphs unicode_glyphs = {"\u00b7", "\u25e6", "\u25cf", "\u2022", "\u25aa",
                                      "\u2500", "\u2502", "\u2571", "\u2572", "\u2573",
                                      "\u2501", "\u2503", NULL, "\u2550"};

/* Heavy box-drawing junction for a border node with border segments in the
 * directions of mask (1 E, 2 N, 4 W, 8 S). */
static const char *heavy_junction(int mask) {
    static const char *j[16] = {
        "\u00b7", "\u257a", "\u2579", "\u2517", "\u2578", "\u2501", "\u251b", "\u253b",
        "\u257b", "\u250f", "\u2503", "\u2523", "\u2513", "\u2533", "\u252b", "\u254b"};
    return j[mask & 15];
}

char *pb_diagram_text(const pb_game *g, const pb_diagram_opts *o) {
    assert(g && g->field);
    static const pb_diagram_opts none = {0, 0, -1, NULL, 0};
    if (!o) o = &none;
    const pb_field *f = g->field;
    const glyphs *gl = o->unicode ? &unicode_glyphs : &ascii_glyphs;
    diagram_facts *d = malloc(sizeof *d);
    assert(d);
    diagram_facts_build(d, g, o);

    /* Node (x, y) sits at text column 4x, text row 2 (rows-1-y). */
    tgrid t = {4 * (f->cols - 1) + 1, 2 * (f->rows - 1) + 1, NULL};
    t.c = calloc((size_t)(t.w * t.h), sizeof *t.c);
    assert(t.c);
    for (int k = 0; k < t.w * t.h; k++) strcpy(t.c[k].g, " "), t.c[k].who = -1;
#define TX(x) (4 * (x))
#define TY(y) (2 * (f->rows - 1 - (y)))

    /* Border, then drawn segments (they never share a place: a border
     * segment can't be drawn). */
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) {
            if (border_seg(f, x, y, PB_E)) {
                int goal_line = (f->flags[pb_at(f, x, y)] & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) &&
                                (f->flags[pb_at(f, x + 1, y)] & (PB_GOAL_BOTTOM | PB_GOAL_TOP));
                for (int k = 1; k <= 3; k++) tput(&t, TX(x) + k, TY(y), goal_line ? gl->goal_h : gl->bh, -1);
            }
            if (border_seg(f, x, y, PB_N)) tput(&t, TX(x), TY(y) - 1, gl->bv, -1);
        }
    for (int s = 0; s < f->nsegments; s++) {
        if (d->owner[s] == OWNER_NONE) continue;
        const pb_segment *sg = &f->segs[s];
        int x = pb_x(f, sg->a), y = pb_y(f, sg->a), who = d->owner[s];
        switch (sg->dir) {
        case PB_E:
            for (int k = 1; k <= 3; k++) tput(&t, TX(x) + k, TY(y), gl->h, who);
            break;
        case PB_N:
            tput(&t, TX(x), TY(y) - 1, gl->v, who);
            break;
        case PB_NE: {
            /* Both diagonals of a cell cross in its centre: show an X. */
            int other = sg->cross >= 0 && d->owner[sg->cross] != OWNER_NONE;
            tput(&t, TX(x) + 2, TY(y) - 1, other ? gl->x : gl->ne, who);
            break;
        }
        case PB_NW: {
            int other = sg->cross >= 0 && d->owner[sg->cross] != OWNER_NONE;
            /* a is the lower-right end of a NW diagonal: the cell is to its left. */
            tput(&t, TX(x) - 2, TY(y) - 1, other ? gl->x : gl->nw, who);
            break;
        }
        default:
            assert(0 && "segments run E, NE, N or NW from their first end");
        }
    }
    /* Nodes.  The text has no continuation style: it shows the position
     * the game has reached, whatever highlight_from says. */
    int ball = g->pos.ball;
    for (int i = 0; i < f->nlattice; i++) {
        if (!pb_is_node(f, i)) continue;
        int x = pb_x(f, i), y = pb_y(f, i), fl = f->flags[i];
        const char *glyph;
        if (i == ball) glyph = gl->ball;
        else if (o->odd && (fl & PB_ODD)) glyph = gl->odd;
        else if (fl & (PB_GOAL_BOTTOM | PB_GOAL_TOP)) glyph = gl->goal;
        else if (fl & PB_BOUNDARY) {
            if (gl->bnode) glyph = gl->bnode;
            else {
                int mask = (border_seg(f, x, y, PB_E) ? 1 : 0) | (border_seg(f, x, y, PB_N) ? 2 : 0) |
                           (x > 0 && border_seg(f, x - 1, y, PB_E) ? 4 : 0) |
                           (y > 0 && border_seg(f, x, y - 1, PB_N) ? 8 : 0);
                glyph = heavy_junction(mask);
            }
        } else if (pb_occupied(f, &g->pos, i)) glyph = gl->occupied;
        else glyph = gl->empty;
        tput(&t, TX(x), TY(y), glyph, -1);
    }

    /* Out: row numbers on the left, column letters under the bottom row;
     * trailing blanks trimmed so the text compares cleanly. */
    static const char *colour[3] = {"\033[31m", "\033[34m", "\033[90m"}; /* Bottom red, Top blue */
    sbuf b = {0};
    sb_puts(&b, "");
    for (int r = 0; r < t.h; r++) {
        if (r % 2 == 0) sb_printf(&b, "%2d  ", f->rows - r / 2);
        else sb_puts(&b, "    ");
        int last = t.w - 1;
        while (last >= 0 && !strcmp(t.c[r * t.w + last].g, " ")) last--;
        int cur = -1;
        for (int k = 0; k <= last; k++) {
            const tcell *c = &t.c[r * t.w + k];
            int want = o->color ? c->who : -1;
            if (want != cur) {
                sb_puts(&b, want < 0 ? "\033[0m" : colour[want]);
                cur = want;
            }
            sb_puts(&b, c->g);
        }
        if (cur >= 0) sb_puts(&b, "\033[0m");
        sb_puts(&b, "\n");
    }
    sb_puts(&b, "    ");
    for (int x = 0; x < f->cols; x++) {
        char name[8];
        pb_node_name(f, pb_at(f, x, 0), name);
        name[strcspn(name, "0123456789")] = 0;
        sb_printf(&b, "%-4s", name);
    }
    while (b.n > 0 && b.s[b.n - 1] == ' ') b.s[--b.n] = 0;
    sb_puts(&b, "\n");
#undef TX
#undef TY
    free(t.c);
    free(d);
    return b.s;
}

/* ---- SVG -------------------------------------------------------------- */

/* Colours: each player its own, a pale tint of it for the goal it defends. */
static const char *player_colour[3] = {"#d62728", "#1f5fbf", "#555555"};
static const char *goal_tint[2] = {"#f9d6d6", "#d5e3f7"};

typedef struct svg_geom {
    const pb_field *f;
    double u, ox, oy;   /* cell size; pixel position of lattice (0, rows-1) */
} svg_geom;

static double px(const svg_geom *s, int x) { return s->ox + s->u * x; }
static double py(const svg_geom *s, int y) { return s->oy + s->u * (s->f->rows - 1 - y); }

typedef struct legend_item {
    const char *label, *stroke, *dash;
    double opacity;
    int dot;
} legend_item;

/* A rectangle of cells as a closed sub-path. */
static void svg_cells(sbuf *b, const svg_geom *s, int x0, int y0, int x1, int y1) {
    sb_printf(b, "M%.1f %.1fH%.1fV%.1fH%.1fZ", px(s, x0), py(s, y0), px(s, x1), py(s, y1), px(s, x0));
}

/* Goal lines: a band in the defender's colour between the posts (for box
 * goals also on the back of the box, where a goal is scored). */
static void svg_goal_lines(sbuf *b, const svg_geom *s) {
    const pb_field *f = s->f;
    for (int p = 0; p < 2; p++) {
        int y = p == PB_TOP ? f->line_y_top : f->line_y_bottom;
        int gy = p == PB_TOP ? f->goal_y_top : f->goal_y_bottom;
        sb_printf(b,
                  "<path class=\"goal-line %s\" fill=\"none\" stroke=\"%s\" stroke-opacity=\"%s\" "
                  "stroke-width=\"%s\" stroke-linecap=\"butt\" d=\"M%.1f %.1fH%.1f",
                  p == PB_TOP ? "top" : "bottom", player_colour[p], f->box ? "0.45" : "0.7",
                  f->box ? "7" : "5", px(s, f->goal_x0), py(s, y), px(s, f->goal_x1));
        if (f->box) sb_printf(b, "M%.1f %.1fH%.1f", px(s, f->goal_x0), py(s, gy), px(s, f->goal_x1));
        sb_puts(b, "\"/>\n");
    }
}

char *pb_diagram_svg(const pb_game *g, const pb_diagram_opts *o) {
    assert(g && g->field);
    static const pb_diagram_opts none = {0, 0, -1, NULL, 0};
    if (!o) o = &none;
    const pb_field *f = g->field;
    diagram_facts *d = malloc(sizeof *d);
    assert(d);
    diagram_facts_build(d, g, o);

    int kicks = 0, cont = d->nshown < g->nturns;
    for (int t = 0; t < g->nturns; t++) kicks |= g->turns[t].kick != 0;

    /* Caption lines: the title (if any), the field, then the result of the
     * shown position (not of the continuation's end) and the turn count. */
    char desc[128], result[128], status[192];
    pb_field_describe(f, desc, sizeof desc);
    {
        pb_game shown = *g;
        shown.nturns = d->nshown;
        if (d->nshown < g->nturns) {
            shown.end = PB_END_NONE;
            shown.pos.to_move = (uint8_t)g->turns[d->nshown].mover;
        }
        pb_game_result(&shown, result, sizeof result);
    }
    int slen = snprintf(status, sizeof status, "%s, %d turn%s", result, d->nshown, d->nshown == 1 ? "" : "s");
    if (cont && slen > 0 && (size_t)slen < sizeof status)
        snprintf(status + slen, sizeof status - (size_t)slen, " + %d continued", g->nturns - d->nshown);
    const char *caption[3];
    int ncap = 0;
    if (o->title) caption[ncap++] = o->title;
    caption[ncap++] = desc;
    caption[ncap++] = status;

    /* Geometry: cells of 40 px; room above for the caption, left for row
     * numbers, below for column letters and the legend.  Narrow fields get
     * a minimum width so the caption fits (about 7 px per character). */
    svg_geom s = {f, 40.0, 0, 0};
    double fw = s.u * (f->cols - 1), fh = s.u * (f->rows - 1);
    double width = fw + 80;
    if (width < 400) width = 400;
    for (int k = 0; k < ncap; k++) {
        double need = (k == 0 ? 9.8 : 7.6) * (double)strlen(caption[k]) + 30;
        if (need > width) width = need;
    }
    width += 20;
    s.ox = (width - fw) / 2 + 8;
    s.oy = 30 + 19.0 * ncap;
    double legend_y = s.oy + fh + 44;
    double height = legend_y + 24;

    sbuf b = {0};
    sb_printf(&b,
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
              "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
              width, height, width, height);
    sb_puts(&b, "<title>");
    sb_xml(&b, caption[0]);
    sb_puts(&b, "</title>\n");
    sb_printf(&b, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", width, height);
    double cx = width / 2;
    for (int k = 0; k < ncap; k++) {
        sb_printf(&b, "<text class=\"caption\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" %s>", cx, 22.0 + 19 * k,
                  k == 0 ? "font-size=\"16\" font-weight=\"bold\"" : "font-size=\"13\" fill=\"#333\"");
        sb_xml(&b, caption[k]);
        sb_puts(&b, "</text>\n");
    }

    /* Grid of the whole bounding lattice, light. */
    sb_puts(&b, "<path class=\"grid\" fill=\"none\" stroke=\"#d4dae0\" stroke-width=\"0.8\" d=\"");
    for (int x = 0; x < f->cols; x++) sb_printf(&b, "M%.1f %.1fV%.1f", px(&s, x), py(&s, f->rows - 1), py(&s, 0));
    for (int y = 0; y < f->rows; y++) sb_printf(&b, "M%.1f %.1fH%.1f", px(&s, 0), py(&s, y), px(&s, f->cols - 1));
    sb_puts(&b, "\"/>\n");

    /* Playable region: field cells green-grey, goal cells tinted with the
     * colour of the player who defends them. */
    sbuf fieldp = {0}, goalp[2] = {{0}, {0}};
    sb_puts(&fieldp, "");
    sb_puts(&goalp[0], "");
    sb_puts(&goalp[1], "");
    for (int cy = 0; cy < f->rows - 1; cy++)
        for (int cx2 = 0; cx2 < f->cols - 1; cx2++) {
            if (!cell_playable(f, cx2, cy)) continue;
            sbuf *dst = &fieldp;
            if (f->box && cy == 0) dst = &goalp[PB_BOTTOM];
            else if (f->box && cy == f->rows - 2) dst = &goalp[PB_TOP];
            else if (!f->box && cx2 >= f->goal_x0 && cx2 < f->goal_x1) {
                /* Hockey: the area behind a goal line is the goal's net. */
                if (cy < f->goal_y_bottom) dst = &goalp[PB_BOTTOM];
                else if (cy >= f->goal_y_top) dst = &goalp[PB_TOP];
            }
            svg_cells(dst, &s, cx2, cy, cx2 + 1, cy + 1);
        }
    sb_printf(&b, "<path class=\"region\" fill=\"#eef4ea\" fill-opacity=\"0.85\" d=\"%s\"/>\n", fieldp.s);
    for (int p = 0; p < 2; p++)
        if (goalp[p].n)
            sb_printf(&b, "<path class=\"goal %s\" fill=\"%s\" d=\"%s\"/>\n", p == PB_TOP ? "top" : "bottom",
                      goal_tint[p], goalp[p].s);
    free(fieldp.s);
    free(goalp[0].s);
    free(goalp[1].s);
    sb_printf(&b, "<path class=\"grid-in\" fill=\"none\" stroke=\"#c3ccc0\" stroke-width=\"0.8\" d=\"");
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) {
            int i = pb_at(f, x, y);
            if (f->seg[i][PB_E] >= 0) sb_printf(&b, "M%.1f %.1fh%.1f", px(&s, x), py(&s, y), s.u);
            if (f->seg[i][PB_N] >= 0) sb_printf(&b, "M%.1f %.1fv%.1f", px(&s, x), py(&s, y), -s.u);
        }
    sb_puts(&b, "\"/>\n");

    /* Box goals: the bands lie under the border, which runs along the back
     * of the box; line goals: over it, as a goal line with setback 0 is
     * part of the border. */
    if (f->box) svg_goal_lines(&b, &s);

    /* Border, heavy. */
    sb_puts(&b, "<path class=\"border\" fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"3.5\" "
                "stroke-linecap=\"round\" stroke-linejoin=\"round\" d=\"");
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) {
            if (border_seg(f, x, y, PB_E)) sb_printf(&b, "M%.1f %.1fh%.1f", px(&s, x), py(&s, y), s.u);
            if (border_seg(f, x, y, PB_N)) sb_printf(&b, "M%.1f %.1fv%.1f", px(&s, x), py(&s, y), -s.u);
        }
    sb_puts(&b, "\"/>\n");

    if (!f->box) svg_goal_lines(&b, &s);

    /* Nodes as small points. */
    sb_puts(&b, "<g class=\"nodes\" fill=\"#8a939b\">\n");
    for (int i = 0; i < f->nlattice; i++)
        if (pb_is_node(f, i))
            sb_printf(&b, "<circle class=\"node\" cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\"/>\n", px(&s, pb_x(f, i)),
                      py(&s, pb_y(f, i)));
    sb_puts(&b, "</g>\n");

    /* Drawn segments: the shown turns solid, the continuation dashed and
     * translucent; triple kicks dashed. */
    sb_puts(&b, "<g class=\"lines\" stroke-width=\"3\" stroke-linecap=\"round\">\n");
    for (int s2 = 0; s2 < f->nsegments; s2++) {
        if (d->owner[s2] == OWNER_NONE) continue;
        const pb_segment *sg = &f->segs[s2];
        int who = d->owner[s2], is_cont = d->turn[s2] >= d->nshown;
        const char *dash = d->kick[s2] ? (is_cont ? " stroke-dasharray=\"3 5\"" : " stroke-dasharray=\"8 5\"")
                                       : (is_cont ? " stroke-dasharray=\"6 4\"" : "");
        sb_printf(&b,
                  "<line class=\"seg %s%s%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s%s/>\n",
                  who == PB_TOP ? "top" : who == PB_BOTTOM ? "bottom" : "unknown", d->kick[s2] ? " kick" : "",
                  is_cont ? " cont" : "", px(&s, pb_x(f, sg->a)), py(&s, pb_y(f, sg->a)), px(&s, pb_x(f, sg->b)),
                  py(&s, pb_y(f, sg->b)), player_colour[who], dash, is_cont ? " stroke-opacity=\"0.6\"" : "");
    }
    sb_puts(&b, "</g>\n");

    /* Centre dot, posts, odd nodes. */
    sb_printf(&b, "<circle class=\"centre\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#333\"/>\n",
              px(&s, pb_x(f, f->centre)), py(&s, pb_y(f, f->centre)));
    for (int i = 0; i < f->nlattice; i++)
        if (pb_is_node(f, i) && (f->flags[i] & PB_POST))
            sb_printf(&b, "<rect class=\"post\" x=\"%.1f\" y=\"%.1f\" width=\"11\" height=\"11\" fill=\"#1a1a1a\"/>\n",
                      px(&s, pb_x(f, i)) - 5.5, py(&s, pb_y(f, i)) - 5.5);
    if (o->odd) {
        sb_puts(&b, "<g class=\"odd-nodes\" fill=\"#e3001b\">\n");
        for (int i = 0; i < f->nlattice; i++)
            if (pb_is_node(f, i) && (f->flags[i] & PB_ODD))
                sb_printf(&b, "<circle class=\"odd\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"/>\n", px(&s, pb_x(f, i)),
                          py(&s, pb_y(f, i)));
        sb_puts(&b, "</g>\n");
    }

    /* Step numbers of the continuation, at the node where each turn ends. */
    if (cont) {
        sb_puts(&b, "<g class=\"steps\" font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\">\n");
        for (int t = d->nshown; t < g->nturns; t++) {
            const pb_game_turn *gt = &g->turns[t];
            int e = gt->nodes[gt->len - 1];
            double x = px(&s, pb_x(f, e)) + 9, y = py(&s, pb_y(f, e)) - 9;
            sb_printf(&b,
                      "<circle class=\"step\" cx=\"%.1f\" cy=\"%.1f\" r=\"7.5\" fill=\"#fff\" stroke=\"%s\" "
                      "stroke-width=\"1.5\"/><text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%d</text>\n",
                      x, y, player_colour[gt->mover], x, y + 4, player_colour[gt->mover], t - d->nshown + 1);
        }
        sb_puts(&b, "</g>\n");
    }

    /* The ball: filled where the shown position has it; a ring where the
     * continuation leaves it. */
    int ball = shown_ball(g, d->nshown);
    if (cont)
        sb_printf(&b,
                  "<circle class=\"ball-end\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"#111\" "
                  "stroke-width=\"2\" stroke-dasharray=\"3 2\"/>\n",
                  px(&s, pb_x(f, g->pos.ball)), py(&s, pb_y(f, g->pos.ball)));
    sb_printf(&b,
              "<circle class=\"ball\" cx=\"%.1f\" cy=\"%.1f\" r=\"7.5\" fill=\"#111\" stroke=\"#fff\" "
              "stroke-width=\"2\"/>\n",
              px(&s, pb_x(f, ball)), py(&s, pb_y(f, ball)));

    /* Coordinates: letters under the field, numbers left of it. */
    sb_puts(&b, "<g class=\"coords\" font-size=\"12\" fill=\"#444\" text-anchor=\"middle\">\n");
    for (int x = 0; x < f->cols; x++) {
        char name[8];
        pb_node_name(f, pb_at(f, x, 0), name);
        name[strcspn(name, "0123456789")] = 0;
        sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", px(&s, x), py(&s, 0) + 22, name);
    }
    for (int y = 0; y < f->rows; y++)
        sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", px(&s, 0) - 14,
                  py(&s, y) + 4, y + 1);
    sb_puts(&b, "</g>\n");

    /* Legend, one row, centred. */
    legend_item items[6];
    int n = 0;
    items[n++] = (legend_item){"Top", player_colour[PB_TOP], NULL, 1, 0};
    items[n++] = (legend_item){"Bottom", player_colour[PB_BOTTOM], NULL, 1, 0};
    if (kicks) items[n++] = (legend_item){"free kick", "#444", "8 5", 1, 0};
    if (cont) items[n++] = (legend_item){"continuation", "#444", "6 4", 0.6, 0};
    if (o->odd) items[n++] = (legend_item){"odd node", "#e3001b", NULL, 1, 1};
    double wsum = 0, iw[6];
    for (int k = 0; k < n; k++) wsum += iw[k] = 40 + 7.2 * (double)strlen(items[k].label);
    double lx = cx - wsum / 2;
    sb_puts(&b, "<g class=\"legend\" font-size=\"12\" fill=\"#222\">\n");
    for (int k = 0; k < n; k++) {
        if (items[k].dot)
            sb_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"/>", lx + 12, legend_y - 4,
                      items[k].stroke);
        else
            sb_printf(&b,
                      "<path d=\"M%.1f %.1fh24\" stroke=\"%s\" stroke-width=\"3\" stroke-linecap=\"round\"%s%s%s "
                      "stroke-opacity=\"%.1f\"/>",
                      lx, legend_y - 4, items[k].stroke, items[k].dash ? " stroke-dasharray=\"" : "",
                      items[k].dash ? items[k].dash : "", items[k].dash ? "\"" : "", items[k].opacity);
        sb_printf(&b, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", lx + 30, legend_y, items[k].label);
        lx += iw[k];
    }
    sb_puts(&b, "</g>\n</svg>\n");
    free(d);
    return b.s;
}
