/* diagram.c - the facts both pictures of a position are drawn from
 * (diagram_facts.h); the pictures themselves are in diagram_text.c and
 * diagram_svg.c. */
#include "diagram_facts.h"

#include <string.h>

/* Cell (cx, cy) is playable iff its NE diagonal is a legal segment
 * (docs/rules.md, geometry: a diagonal is legal iff its cell is playable). */
int pb_diagram_cell_playable(const pb_field *f, int cx, int cy) {
    if (cx < 0 || cy < 0 || cx >= f->cols - 1 || cy >= f->rows - 1) return 0;
    return f->seg[pb_at(f, cx, cy)][PB_NE] >= 0;
}

/* The orthogonal segment from lattice point (x, y) east (dir PB_E) or north
 * (PB_N) is a border segment: exactly one of the cells beside it playable. */
int pb_diagram_border_seg(const pb_field *f, int x, int y, int dir) {
    if (dir == PB_E) {
        if (x >= f->cols - 1) return 0;
        return pb_diagram_cell_playable(f, x, y) != pb_diagram_cell_playable(f, x, y - 1);
    }
    if (y >= f->rows - 1) return 0;
    return pb_diagram_cell_playable(f, x, y) != pb_diagram_cell_playable(f, x - 1, y);
}

static int highlight_start(const pb_game *g, const pb_diagram_opts *o) {
    if (!o || o->highlight_from < 0 || o->highlight_from >= g->nturns) return g->nturns;
    return o->highlight_from;
}

void pb_diagram_facts_build(pb_diagram_facts *d, const pb_game *g, const pb_diagram_opts *o) {
    const pb_field *f = g->field;
    d->f = f;
    d->p = &g->pos;
    d->nshown = highlight_start(g, o);
    memset(d->owner, OWNER_NONE, sizeof d->owner);
    memset(d->kick, 0, sizeof d->kick);
    for (int s = 0; s < PB_MAX_SEGMENTS; s++) d->turn[s] = -1, d->step[s] = 0;
    for (int t = 0; t < g->nturns; t++) {
        const pb_game_turn *gt = &g->turns[t];
        for (int k = 0; k + 1 < gt->len; k++) {
            int s = pb_seg_between(f, gt->nodes[k], gt->nodes[k + 1]);
            /* No step runs along a segment drawn before (docs/rules.md;
             * a kick's own way back is the one exception, docs/triple.md),
             * so the first step that has it is the one that drew it. */
            if (s < 0 || d->turn[s] >= 0) continue;
            d->owner[s] = (int8_t)gt->mover;
            d->kick[s] = (uint8_t)(gt->kick != 0);
            d->turn[s] = (int16_t)t;
            d->step[s] = (int16_t)(k + 1);
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
int pb_diagram_shown_ball(const pb_game *g, int nshown) {
    if (nshown < g->nturns) return g->turns[nshown].nodes[0];
    return g->pos.ball;
}

/* The letter of column x ("a", ..., "z", "aa", ...). */
const char *pb_diagram_column_name(const pb_field *f, int x, char *name) {
    pb_node_name(f, pb_at(f, x, 0), name);
    name[strcspn(name, "0123456789")] = 0;
    return name;
}
