/* svg.c - the proofs' own small pictures: a field's odd (red) and even
 * (black) nodes, as in the book's figure 4, with a game's routes drawn over
 * them.  Used for the odd/even map, and for counterexamples while the
 * project's diagram module (solver/diagram.h) is still a placeholder. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/strbuf.h"
#include "diagram.h"
#include "proofs.h"

/* The growable string of solver/strbuf.h, by short local names. */
typedef pb_strbuf sbuf;
#define put pb_strbuf_printf

/* Cell (cx, cy) is playable iff its diagonal segment is legal. */
static int cell_ok(const pb_field *f, int cx, int cy) {
    if (cx < 0 || cy < 0 || cx >= f->cols - 1 || cy >= f->rows - 1) return 0;
    return f->seg[pb_at(f, cx, cy)][PB_NE] >= 0;
}

char *pb_proofs_svg(const pb_field *f, const pb_game *g, const char *title) {
    sbuf b = {0};
    const int s = 40, m = 40, top = 24;
    int wpx = (f->cols - 1) * s + 2 * m, hpx = (f->rows - 1) * s + 2 * m + top;
#define PX(i) (m + pb_x(f, (i)) * s)
#define PY(i) (top + m + (f->rows - 1 - pb_y(f, (i))) * s)
    put(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", wpx, hpx,
        wpx, hpx);
    put(&b, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    if (title) {
        put(&b, "<text x=\"%d\" y=\"17\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\">", wpx / 2);
        for (const char *c = title; *c; c++) {
            if (*c == '<') put(&b, "&lt;");
            else if (*c == '>') put(&b, "&gt;");
            else if (*c == '&') put(&b, "&amp;");
            else put(&b, "%c", *c);
        }
        put(&b, "</text>\n");
    }
    /* Legal segments faint; the border (never drawable) as a solid outline. */
    for (int k = 0; k < f->nsegments; k++) {
        const pb_segment *sg = &f->segs[k];
        put(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#e4e4e4\" stroke-width=\"1\"/>\n", PX(sg->a),
            PY(sg->a), PX(sg->b), PY(sg->b));
    }
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) {
            int i = pb_at(f, x, y);
            /* E segment: cells above (x,y) and below (x,y-1); N segment:
             * cells left (x-1,y) and right (x,y).  A border has exactly one. */
            if (x + 1 < f->cols && (cell_ok(f, x, y) != cell_ok(f, x, y - 1)))
                put(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" stroke-width=\"2\"/>\n", PX(i),
                    PY(i), PX(i + 1), PY(i + 1));
            if (y + 1 < f->rows && (cell_ok(f, x - 1, y) != cell_ok(f, x, y)))
                put(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" stroke-width=\"2\"/>\n", PX(i),
                    PY(i), PX(i + f->cols), PY(i + f->cols));
        }
    /* The game's routes: Top's turns blue, Bottom's green, numbered. */
    if (g) {
        for (int t = 0; t < g->nturns; t++) {
            const pb_game_turn *tn = &g->turns[t];
            const char *col = tn->mover == PB_TOP ? "#1f5fbf" : "#1a8a2a";
            for (int k = 1; k < tn->len; k++)
                put(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>\n",
                    PX(tn->nodes[k - 1]), PY(tn->nodes[k - 1]), PX(tn->nodes[k]), PY(tn->nodes[k]), col);
            int e = tn->nodes[tn->len - 1];
            put(&b,
                "<text x=\"%d\" y=\"%d\" font-family=\"sans-serif\" font-size=\"11\" font-weight=\"bold\" "
                "fill=\"%s\">%d</text>\n",
                PX(e) - 14, PY(e) + 14, col, t + 1);
        }
    }
    for (int i = 0; i < f->nlattice; i++) {
        if (!(f->flags[i] & PB_NODE)) continue;
        int odd = f->flags[i] & PB_ODD;
        char nb[8];
        put(&b, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\"%s/>\n", PX(i), PY(i), i == f->centre ? 7 : 4,
            odd ? "#d00" : "#000", i == f->centre ? " stroke=\"#000\" stroke-width=\"2\"" : "");
        put(&b, "<text x=\"%d\" y=\"%d\" font-family=\"sans-serif\" font-size=\"9\" fill=\"%s\">%s</text>\n", PX(i) + 5,
            PY(i) - 5, odd ? "#d00" : "#000", pb_node_name(f, i, nb));
    }
    if (g && g->nturns) {
        int e = g->pos.ball;
        put(&b, "<circle cx=\"%d\" cy=\"%d\" r=\"10\" fill=\"none\" stroke=\"#f80\" stroke-width=\"3\"/>\n", PX(e),
            PY(e));
    }
#undef PX
#undef PY
    put(&b, "</svg>\n");
    return b.s;
}

char *pb_proofs_game_svg(const pb_game *g, const char *title) {
    pb_diagram_opts dop;
    memset(&dop, 0, sizeof dop);
    dop.odd = 1, dop.highlight_from = -1, dop.title = title;
    char *svg = pb_diagram_svg(g, &dop);
    /* The placeholder renderer returns an empty <svg/>: fall back to our own. */
    if (!svg || strlen(svg) < 200) {
        free(svg);
        svg = pb_proofs_svg(g->field, g, title);
    }
    return svg;
}
