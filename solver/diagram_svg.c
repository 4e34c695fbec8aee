/* diagram_svg.c - the SVG picture of a position (pb_diagram_svg,
 * diagram.h): built in named steps (caption, layout, head, field, nodes,
 * marks, lines, kick returns, turn numbers, ball, coordinates, legend)
 * that each append to one string. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagram_facts.h"
#include "strbuf.h"

/* Colours: each player its own, a pale tint of it for the goal it defends. */
static const char *player_colour[3] = {"#d62728", "#1f5fbf", "#555555"};
static const char *goal_tint[2] = {"#f9d6d6", "#d5e3f7"};
static const char *player_key[3] = {"bottom", "top", "unknown"};

/* Free kicks are dotted (round caps make the dots).  The continuation is
 * drawn solid too, a little thinner and lighter: dashes on a long line
 * make a tangle; its numbered rings say the order. */
#define DASH_KICK "0.1 6"
#define CONT_STYLE " stroke-width=\"2.4\" stroke-opacity=\"0.8\""

/* Everything one SVG picture needs, filled step by step. */
typedef struct svg_ctx {
    pb_strbuf b;
    const pb_game *g;
    const pb_diagram_opts *o;
    const pb_field *f;
    pb_diagram_facts *d;
    int cont; /* a continuation is drawn */
    const char *caption[3];
    int ncap;
    char desc[128], status[256];
    double u, ox, oy; /* cell size; pixel position of lattice (0, rows-1) */
    double width, height, legend_y;
} svg_ctx;

static double px(const svg_ctx *c, int x) { return c->ox + c->u * x; }
static double py(const svg_ctx *c, int y) { return c->oy + c->u * (c->f->rows - 1 - y); }
static double nx(const svg_ctx *c, int i) { return px(c, pb_x(c->f, i)); }
static double ny(const svg_ctx *c, int i) { return py(c, pb_y(c->f, i)); }

/* How a game ends, said with the turn count: "Top wins in 7 turns (goal)",
 * "draw after 5 turns (dead end)"; with more = 1, "in 3 more turns".  For a
 * game that goes on: "game goes on, Top to move" ("3 more turns, ..."). */
static void end_sentence(const pb_game *g, int turns, int more, char *buf, size_t len) {
    const char *s = turns == 1 ? "" : "s", *m = more ? " more" : "";
    if (g->end == PB_END_NONE) {
        if (more) snprintf(buf, len, "%d more turn%s, %s to move", turns, s, pb_player_name(g->pos.to_move));
        else snprintf(buf, len, "game goes on, %s to move", pb_player_name(g->pos.to_move));
        return;
    }
    const char *how = g->end == PB_END_NO_KICK                    ? "no free kick possible"
                      : g->end == PB_END_DEAD_END                 ? "dead end"
                      : g->turns[g->nturns - 1].mover == g->loser ? "own goal"
                                                                  : "goal";
    if (g->loser == PB_NOBODY) snprintf(buf, len, "draw after %d%s turn%s (%s)", turns, m, s, how);
    else snprintf(buf, len, "%s wins in %d%s turn%s (%s)", pb_player_name(g->loser ^ 1), turns, m, s, how);
}

/* Caption: the title (if any), the field, then the result.  Without a
 * continuation the result is the game's; with one, the position after the
 * shown turns and then where the continuation leads. */
static void svg_caption(svg_ctx *c) {
    const pb_game *g = c->g;
    int shown = c->d->nshown;
    pb_field_describe(c->f, c->desc, sizeof c->desc);
    char tail[160];
    if (!c->cont) {
        if (g->end != PB_END_NONE) end_sentence(g, g->nturns, 0, c->status, sizeof c->status);
        else if (g->nturns == 0)
            snprintf(c->status, sizeof c->status, "the start, %s to move", pb_player_name(g->pos.to_move));
        else {
            end_sentence(g, g->nturns, 0, tail, sizeof tail);
            snprintf(c->status, sizeof c->status, "after %d turn%s: %s", g->nturns, g->nturns == 1 ? "" : "s", tail);
        }
    } else {
        const char *first = pb_player_name(g->turns[shown].mover);
        end_sentence(g, g->nturns - shown, shown > 0, tail, sizeof tail);
        if (shown == 0) snprintf(c->status, sizeof c->status, "from the start (%s to move): %s", first, tail);
        else
            snprintf(c->status, sizeof c->status, "after %d turn%s (%s to move), then %s", shown, shown == 1 ? "" : "s",
                     first, tail);
    }
    if (c->o->title) c->caption[c->ncap++] = c->o->title;
    c->caption[c->ncap++] = c->desc;
    c->caption[c->ncap++] = c->status;
}

/* Geometry: cells of 40 px; room above for the caption, left for row
 * numbers, right for the goals' labels, below for column letters and the
 * legend.  Narrow fields get a minimum width so the caption fits (about 7
 * px per character). */
static void svg_layout(svg_ctx *c) {
    const pb_field *f = c->f;
    c->u = 40.0;
    double fw = c->u * (f->cols - 1), fh = c->u * (f->rows - 1);
    double width = fw + 70 + 130;
    if (width < 400) width = 400;
    for (int k = 0; k < c->ncap; k++) {
        double need = (k == 0 ? 9.8 : 7.6) * (double)strlen(c->caption[k]) + 30;
        if (need > width) width = need;
    }
    c->width = width + 20;
    c->ox = (c->width - fw) / 2 - 30;
    c->oy = 30 + 19.0 * c->ncap;
    c->legend_y = c->oy + fh + 44;
    c->height = c->legend_y + 24;
}

static void svg_head(svg_ctx *c) {
    pb_strbuf *b = &c->b;
    pb_strbuf_printf(b,
                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
                     c->width, c->height, c->width, c->height);
    pb_strbuf_puts(b, "<title>");
    pb_strbuf_xml(b, c->caption[0]);
    pb_strbuf_puts(b, "</title>\n");
    pb_strbuf_printf(b, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", c->width, c->height);
    for (int k = 0; k < c->ncap; k++) {
        const char *cls = k == c->ncap - 1 ? "caption result" : "caption";
        pb_strbuf_printf(b, "<text class=\"%s\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" %s>", cls, c->width / 2,
                         22.0 + 19 * k,
                         k == 0 ? "font-size=\"16\" font-weight=\"bold\"" : "font-size=\"13\" fill=\"#333\"");
        pb_strbuf_xml(b, c->caption[k]);
        pb_strbuf_puts(b, "</text>\n");
    }
}

/* A rectangle of cells as a closed sub-path. */
static void svg_cells(pb_strbuf *b, const svg_ctx *c, int x0, int y0, int x1, int y1) {
    pb_strbuf_printf(b, "M%.1f %.1fH%.1fV%.1fH%.1fZ", px(c, x0), py(c, y0), px(c, x1), py(c, y1), px(c, x0));
}

/* The player whose goal cell (cx, cy) is part of, or PB_NOBODY for a
 * field cell: box goals are the first and last row of cells; a hockey
 * goal's net is the area behind its goal line. */
static int goal_cell_owner(const pb_field *f, int cx, int cy) {
    if (f->box) return cy == 0 ? PB_BOTTOM : cy == f->rows - 2 ? PB_TOP : PB_NOBODY;
    if (cx < f->goal_x0 || cx >= f->goal_x1) return PB_NOBODY;
    return cy < f->goal_y_bottom ? PB_BOTTOM : cy >= f->goal_y_top ? PB_TOP : PB_NOBODY;
}

/* The light grid of the whole bounding lattice, then the playable region:
 * field cells green-grey, goal cells tinted with the colour of the player
 * who defends them, and the grid of legal straight segments over it. */
static void svg_grid(svg_ctx *c) {
    const pb_field *f = c->f;
    pb_strbuf *b = &c->b;
    pb_strbuf_puts(b, "<path class=\"grid\" fill=\"none\" stroke=\"#d4dae0\" stroke-width=\"0.8\" d=\"");
    for (int x = 0; x < f->cols; x++) pb_strbuf_printf(b, "M%.1f %.1fV%.1f", px(c, x), py(c, f->rows - 1), py(c, 0));
    for (int y = 0; y < f->rows; y++) pb_strbuf_printf(b, "M%.1f %.1fH%.1f", px(c, 0), py(c, y), px(c, f->cols - 1));
    pb_strbuf_puts(b, "\"/>\n");

    pb_strbuf area[3] = {{0}, {0}, {0}}; /* indexed by owner: Bottom's goal, Top's goal, field */
    for (int k = 0; k < 3; k++) pb_strbuf_puts(&area[k], "");
    for (int cy = 0; cy < f->rows - 1; cy++)
        for (int cx = 0; cx < f->cols - 1; cx++)
            if (pb_diagram_cell_playable(f, cx, cy))
                svg_cells(&area[goal_cell_owner(f, cx, cy)], c, cx, cy, cx + 1, cy + 1);
    pb_strbuf_printf(b, "<path class=\"region\" fill=\"#eef4ea\" fill-opacity=\"0.85\" d=\"%s\"/>\n",
                     area[PB_NOBODY].s);
    for (int p = 0; p < 2; p++)
        if (area[p].n)
            pb_strbuf_printf(b, "<path class=\"goal %s\" fill=\"%s\" d=\"%s\"/>\n", player_key[p], goal_tint[p],
                             area[p].s);
    for (int k = 0; k < 3; k++) free(area[k].s);

    pb_strbuf_puts(b, "<path class=\"grid-in\" fill=\"none\" stroke=\"#c3ccc0\" stroke-width=\"0.8\" d=\"");
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) {
            int i = pb_at(f, x, y);
            if (f->seg[i][PB_E] >= 0) pb_strbuf_printf(b, "M%.1f %.1fh%.1f", px(c, x), py(c, y), c->u);
            if (f->seg[i][PB_N] >= 0) pb_strbuf_printf(b, "M%.1f %.1fv%.1f", px(c, x), py(c, y), -c->u);
        }
    pb_strbuf_puts(b, "\"/>\n");
}

/* Goal lines: a band in the defender's colour between the posts (for box
 * goals also on the back of the box, where a goal is scored). */
static void svg_goal_lines(svg_ctx *c) {
    const pb_field *f = c->f;
    for (int p = 0; p < 2; p++) {
        int y = p == PB_TOP ? f->line_y_top : f->line_y_bottom;
        int gy = p == PB_TOP ? f->goal_y_top : f->goal_y_bottom;
        pb_strbuf_printf(&c->b,
                         "<path class=\"goal-line %s\" fill=\"none\" stroke=\"%s\" stroke-opacity=\"%s\" "
                         "stroke-width=\"%s\" stroke-linecap=\"butt\" d=\"M%.1f %.1fH%.1f",
                         player_key[p], player_colour[p], f->box ? "0.45" : "0.7", f->box ? "7" : "5",
                         px(c, f->goal_x0), py(c, y), px(c, f->goal_x1));
        if (f->box) pb_strbuf_printf(&c->b, "M%.1f %.1fH%.1f", px(c, f->goal_x0), py(c, gy), px(c, f->goal_x1));
        pb_strbuf_puts(&c->b, "\"/>\n");
    }
}

/* Right of the field, level with each goal: who attacks it and which way
 * (a player scores in the goal the other defends). */
static void svg_goal_labels(svg_ctx *c) {
    const pb_field *f = c->f;
    double x = px(c, f->cols - 1) + 14;
    pb_strbuf_puts(&c->b, "<g class=\"attacks\" font-size=\"12\" font-weight=\"bold\">\n");
    for (int p = 0; p < 2; p++) {
        int attacker = p ^ 1;
        double y = (py(c, p == PB_TOP ? f->line_y_top : f->line_y_bottom) +
                    py(c, p == PB_TOP ? f->goal_y_top : f->goal_y_bottom)) /
                       2 +
                   4;
        pb_strbuf_printf(&c->b, "<text class=\"attack %s\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s attacks %s</text>\n",
                         player_key[attacker], x, y, player_colour[attacker], pb_player_name(attacker),
                         p == PB_TOP ? "\u2191" : "\u2193");
    }
    pb_strbuf_puts(&c->b, "</g>\n");
}

static void svg_border(svg_ctx *c) {
    const pb_field *f = c->f;
    pb_strbuf_puts(&c->b, "<path class=\"border\" fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"3.5\" "
                          "stroke-linecap=\"round\" stroke-linejoin=\"round\" d=\"");
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) {
            if (pb_diagram_border_seg(f, x, y, PB_E))
                pb_strbuf_printf(&c->b, "M%.1f %.1fh%.1f", px(c, x), py(c, y), c->u);
            if (pb_diagram_border_seg(f, x, y, PB_N))
                pb_strbuf_printf(&c->b, "M%.1f %.1fv%.1f", px(c, x), py(c, y), -c->u);
        }
    pb_strbuf_puts(&c->b, "\"/>\n");
}

/* Box goals: the bands lie under the border, which runs along the back of
 * the box; line goals: over it, as a goal line with setback 0 is part of
 * the border. */
static void svg_field(svg_ctx *c) {
    svg_grid(c);
    if (c->f->box) svg_goal_lines(c);
    svg_border(c);
    if (!c->f->box) svg_goal_lines(c);
    svg_goal_labels(c);
}

/* Nodes as small points (named in the replayer, so that its script can
 * find them), with their names on request. */
static void svg_nodes(svg_ctx *c) {
    const pb_field *f = c->f;
    char name[8];
    pb_strbuf_puts(&c->b, "<g class=\"nodes\" fill=\"#8a939b\">\n");
    for (int i = 0; i < f->nlattice; i++) {
        if (!pb_is_node(f, i)) continue;
        pb_strbuf_printf(&c->b, "<circle class=\"node\"");
        if (c->o->replay) pb_strbuf_printf(&c->b, " id=\"node-%s\"", pb_node_name(f, i, name));
        pb_strbuf_printf(&c->b, " cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\"/>\n", nx(c, i), ny(c, i));
    }
    pb_strbuf_puts(&c->b, "</g>\n");
    if (!c->o->names) return;
    pb_strbuf_puts(&c->b, "<g class=\"names\" font-size=\"9\" fill=\"#6b7580\">\n");
    for (int i = 0; i < f->nlattice; i++)
        if (pb_is_node(f, i))
            pb_strbuf_printf(&c->b, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", nx(c, i) + 4, ny(c, i) - 4,
                             pb_node_name(f, i, name));
    pb_strbuf_puts(&c->b, "</g>\n");
}

/* Centre dot, posts, odd nodes. */
static void svg_marks(svg_ctx *c) {
    const pb_field *f = c->f;
    pb_strbuf_printf(&c->b, "<circle class=\"centre\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#333\"/>\n",
                     nx(c, f->centre), ny(c, f->centre));
    for (int i = 0; i < f->nlattice; i++)
        if (pb_is_node(f, i) && (f->flags[i] & PB_POST))
            pb_strbuf_printf(
                &c->b, "<rect class=\"post\" x=\"%.1f\" y=\"%.1f\" width=\"11\" height=\"11\" fill=\"#1a1a1a\"/>\n",
                nx(c, i) - 5.5, ny(c, i) - 5.5);
    if (!c->o->odd) return;
    pb_strbuf_puts(&c->b, "<g class=\"odd-nodes\" fill=\"#e3001b\">\n");
    for (int i = 0; i < f->nlattice; i++)
        if (pb_is_node(f, i) && (f->flags[i] & PB_ODD))
            pb_strbuf_printf(&c->b, "<circle class=\"odd\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"/>\n", nx(c, i), ny(c, i));
    pb_strbuf_puts(&c->b, "</g>\n");
}

/* Drawn segments in the drawer's colour: the shown turns solid, the
 * continuation thinner and lighter, free kicks dotted.  The replayer needs each
 * segment's turn and step. */
static void svg_lines(svg_ctx *c) {
    const pb_field *f = c->f;
    const pb_diagram_facts *d = c->d;
    pb_strbuf_puts(&c->b, "<g class=\"lines\" stroke-width=\"3\" stroke-linecap=\"round\">\n");
    for (int s = 0; s < f->nsegments; s++) {
        if (d->owner[s] == OWNER_NONE) continue;
        const pb_segment *sg = &f->segs[s];
        int who = d->owner[s], cont = d->turn[s] >= d->nshown;
        pb_strbuf_printf(&c->b, "<line class=\"seg %s%s%s\"", player_key[who], d->kick[s] ? " kick" : "",
                         cont ? " cont" : "");
        if (c->o->replay) pb_strbuf_printf(&c->b, " data-turn=\"%d\" data-step=\"%d\"", d->turn[s], d->step[s]);
        pb_strbuf_printf(&c->b, " x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"", nx(c, sg->a),
                         ny(c, sg->a), nx(c, sg->b), ny(c, sg->b), player_colour[who]);
        if (d->kick[s]) pb_strbuf_puts(&c->b, " stroke-dasharray=\"" DASH_KICK "\"");
        if (cont) pb_strbuf_puts(&c->b, CONT_STYLE);
        pb_strbuf_puts(&c->b, "/>\n");
    }
    pb_strbuf_puts(&c->b, "</g>\n");
}

/* Does step k of a turn (nodes[k-1] to nodes[k]) run along a segment an
 * earlier step of the same turn ran along? */
static int step_goes_back(const pb_field *f, const pb_game_turn *gt, int k) {
    int s = pb_seg_between(f, gt->nodes[k - 1], gt->nodes[k]);
    for (int j = 1; j < k; j++)
        if (pb_seg_between(f, gt->nodes[j - 1], gt->nodes[j]) == s) return 1;
    return 0;
}

/* A free kick that reflects straight back runs along its own segments,
 * which are drawn once (docs/triple.md): its way back is drawn again
 * beside them, offset by a few pixels, with a ring where it turned. */
static void svg_kick_returns(svg_ctx *c) {
    const pb_game *g = c->g;
    int any = 0;
    for (int t = 0; t < g->nturns; t++) {
        const pb_game_turn *gt = &g->turns[t];
        if (!gt->kick) continue;
        for (int k = 2; k < gt->len; k++) {
            if (!step_goes_back(c->f, gt, k)) continue;
            int a = gt->nodes[k - 1], e = gt->nodes[k];
            double dx = nx(c, e) - nx(c, a), dy = ny(c, e) - ny(c, a), n = sqrt(dx * dx + dy * dy);
            double ox = -dy / n * 5, oy = dx / n * 5;
            const char *col = player_colour[gt->mover];
            if (!any)
                pb_strbuf_puts(
                    &c->b, "<g class=\"kick-returns\" fill=\"none\" stroke-width=\"2\" stroke-linecap=\"round\">\n");
            any = 1;
            if (!step_goes_back(c->f, gt, k - 1)) {
                pb_strbuf_printf(&c->b, "<circle class=\"reflection\"");
                if (c->o->replay) pb_strbuf_printf(&c->b, " data-turn=\"%d\" data-step=\"%d\"", t, k);
                pb_strbuf_printf(&c->b, " cx=\"%.1f\" cy=\"%.1f\" r=\"6\" stroke=\"%s\"/>\n", nx(c, a), ny(c, a), col);
            }
            pb_strbuf_printf(&c->b, "<path class=\"kick-return %s\"", player_key[gt->mover]);
            if (c->o->replay) pb_strbuf_printf(&c->b, " data-turn=\"%d\" data-step=\"%d\"", t, k);
            pb_strbuf_printf(&c->b, " stroke=\"%s\" stroke-dasharray=\"" DASH_KICK "\" d=\"M%.1f %.1fL%.1f %.1f\"/>\n",
                             col, nx(c, a) + ox, ny(c, a) + oy, nx(c, e) + ox, ny(c, e) + oy);
        }
    }
    if (any) pb_strbuf_puts(&c->b, "</g>\n");
}

/* The number of every turn beside the node where it ends (a turn that
 * does not end the game ends on a node no line touched before, so only a
 * game's last turn can share a node with another number): a disc in the
 * mover's colour for the shown turns, a ring for the continuation. */
static void svg_turn_numbers(svg_ctx *c) {
    const pb_game *g = c->g;
    if (g->nturns == 0) return;
    pb_strbuf_puts(&c->b, "<g class=\"turn-numbers\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\">\n");
    for (int t = 0; t < g->nturns; t++) {
        const pb_game_turn *gt = &g->turns[t];
        int e = gt->nodes[gt->len - 1], cont = t >= c->d->nshown;
        const char *col = player_colour[gt->mover];
        double x = nx(c, e) + 10, y = ny(c, e) - 10;
        pb_strbuf_printf(&c->b, "<g class=\"turn-no%s\" data-turn=\"%d\">", cont ? " cont" : "", t);
        pb_strbuf_printf(&c->b,
                         "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7.5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>",
                         x, y, cont ? "#fff" : col, col);
        pb_strbuf_printf(&c->b, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%d</text></g>\n", x, y + 3.5,
                         cont ? col : "#fff", t + 1);
    }
    pb_strbuf_puts(&c->b, "</g>\n");
}

/* The ball: filled where the shown position has it; a dashed ring where
 * the continuation leaves it. */
static void svg_ball(svg_ctx *c) {
    int ball = pb_diagram_shown_ball(c->g, c->d->nshown), end = c->g->pos.ball;
    if (c->cont)
        pb_strbuf_printf(&c->b,
                         "<circle class=\"ball-end\" cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"#111\" "
                         "stroke-width=\"2\" stroke-dasharray=\"3 2\"/>\n",
                         nx(c, end), ny(c, end));
    pb_strbuf_printf(&c->b,
                     "<circle class=\"ball\" cx=\"%.1f\" cy=\"%.1f\" r=\"7.5\" fill=\"#111\" stroke=\"#fff\" "
                     "stroke-width=\"2\"/>\n",
                     nx(c, ball), ny(c, ball));
}

/* Coordinates: letters under the field, numbers left of it. */
static void svg_coords(svg_ctx *c) {
    const pb_field *f = c->f;
    pb_strbuf_puts(&c->b, "<g class=\"coords\" font-size=\"12\" fill=\"#444\" text-anchor=\"middle\">\n");
    for (int x = 0; x < f->cols; x++) {
        char name[8];
        pb_strbuf_printf(&c->b, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", px(c, x), py(c, 0) + 22,
                         pb_diagram_column_name(f, x, name));
    }
    for (int y = 0; y < f->rows; y++)
        pb_strbuf_printf(&c->b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", px(c, 0) - 14,
                         py(c, y) + 4, y + 1);
    pb_strbuf_puts(&c->b, "</g>\n");
}

/* One legend entry: a line sample (split between the colours of the
 * players who drew such lines, so the sample looks like the lines) or a
 * dot, then the label. */
typedef struct legend_item {
    const char *label, *cls, *style; /* style: extra stroke attributes */
    int players;                     /* bit p: player p's colour; 0 for a dot */
    const char *dot;
} legend_item;

static double legend_width(const legend_item *it) { return 40 + 7.2 * (double)strlen(it->label); }

static void legend_draw(svg_ctx *c, const legend_item *it, double x, double y) {
    pb_strbuf_printf(&c->b, "<g class=\"%s\">", it->cls);
    if (!it->players) {
        pb_strbuf_printf(&c->b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"/>", x + 12, y - 4, it->dot);
    } else {
        int n = (it->players & 1) + (it->players >> 1 & 1), k = 0;
        for (int p = 0; p < 2; p++) {
            if (!(it->players >> p & 1)) continue;
            double w = 24.0 / n;
            pb_strbuf_printf(&c->b,
                             "<path d=\"M%.1f %.1fh%.1f\" stroke=\"%s\" stroke-width=\"3\" stroke-linecap=\"round\"",
                             x + k * w, y - 4, w, player_colour[p]);
            if (it->style) pb_strbuf_puts(&c->b, it->style);
            pb_strbuf_puts(&c->b, "/>");
            k++;
        }
    }
    pb_strbuf_printf(&c->b, "<text x=\"%.1f\" y=\"%.1f\">%s</text></g>\n", x + 30, y, it->label);
}

/* Legend, one row, centred: the players, then only the styles the
 * picture uses. */
static void svg_legend(svg_ctx *c) {
    const pb_game *g = c->g;
    int kickers = 0, continuers = 0;
    for (int t = 0; t < g->nturns; t++) {
        if (g->turns[t].kick) kickers |= 1 << g->turns[t].mover;
        if (t >= c->d->nshown) continuers |= 1 << g->turns[t].mover;
    }
    legend_item items[6];
    int n = 0;
    items[n++] = (legend_item){"Top", "key top", NULL, 1 << PB_TOP, NULL};
    items[n++] = (legend_item){"Bottom", "key bottom", NULL, 1 << PB_BOTTOM, NULL};
    if (kickers)
        items[n++] = (legend_item){"free kick", "key kick", " stroke-dasharray=\"" DASH_KICK "\"", kickers, NULL};
    if (continuers)
        items[n++] =
            (legend_item){"continuation (numbers in rings)", "key cont", " stroke-opacity=\"0.8\"", continuers, NULL};
    if (c->o->odd) items[n++] = (legend_item){"odd node", "key odd", NULL, 0, "#e3001b"};
    double wsum = 0;
    for (int k = 0; k < n; k++) wsum += legend_width(&items[k]);
    double x = c->width / 2 - wsum / 2;
    pb_strbuf_puts(&c->b, "<g class=\"legend\" font-size=\"12\" fill=\"#222\">\n");
    for (int k = 0; k < n; k++) {
        legend_draw(c, &items[k], x, c->legend_y);
        x += legend_width(&items[k]);
    }
    pb_strbuf_puts(&c->b, "</g>\n");
}

char *pb_diagram_svg(const pb_game *g, const pb_diagram_opts *o) {
    assert(g && g->field);
    static const pb_diagram_opts none = {.highlight_from = -1};
    svg_ctx c = {.g = g, .o = o ? o : &none, .f = g->field};
    c.d = malloc(sizeof *c.d);
    assert(c.d);
    pb_diagram_facts_build(c.d, g, c.o);
    c.cont = c.d->nshown < g->nturns;
    svg_caption(&c);
    svg_layout(&c);
    svg_head(&c);
    svg_field(&c);
    svg_nodes(&c);
    svg_marks(&c);
    svg_lines(&c);
    svg_kick_returns(&c);
    svg_turn_numbers(&c);
    svg_ball(&c);
    svg_coords(&c);
    svg_legend(&c);
    pb_strbuf_puts(&c.b, "</svg>\n");
    free(c.d);
    return c.b.s;
}
