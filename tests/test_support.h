/* test_support.h - small helpers shared by the unit tests. */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "field.h"
#include "game.h"
#include "position.h"
#include "search.h"

static inline pb_field *ts_field(pb_rules rules, int g, int w, int l, int s, pb_dead_end de) {
    pb_field_spec sp = {rules, g, w, l, s, de};
    char err[200];
    pb_field *f = pb_field_new(&sp, err, sizeof err);
    if (!f) fail_msg("field: %s", err);
    return f;
}

/* p's value by the alpha-beta solver (a 4 MiB table): the second method
 * the proof-number tests hold their answers against. */
static inline int ts_ab_value(const pb_field *f, const pb_position *p) {
    pb_solver *s = pb_solver_new(f, (size_t)4 << 20);
    assert_non_null(s);
    int v = pb_solver_value(s, p);
    pb_solver_free(s);
    return v;
}

/* The lattice index of a node name such as "d6". */
static inline int ts_node(const pb_field *f, const char *name) {
    int used = 0, i = pb_node_parse(f, name, &used);
    if (i < 0 || name[used]) fail_msg("bad node %s", name);
    return i;
}

/* Draws the segment between two named nodes. */
static inline void ts_draw(const pb_field *f, pb_position *p, const char *a, const char *b) {
    int s = pb_seg_between(f, ts_node(f, a), ts_node(f, b));
    if (s < 0) fail_msg("no segment %s-%s", a, b);
    pb_draw_segment(f, p, s);
}

/* The drawn segments of p as coordinate pairs (x1 y1 x2 y2), the form the
 * naive references of tests/ref_*.c take; returns their number. */
static inline int ts_ref_segments(const pb_field *f, const pb_position *p, int (*segs)[4]) {
    int n = 0;
    for (int s = 0; s < f->nsegments; s++)
        if (pb_drawn(p, s)) {
            int a = f->segs[s].a, b = f->segs[s].b;
            segs[n][0] = pb_x(f, a), segs[n][1] = pb_y(f, a), segs[n][2] = pb_x(f, b), segs[n][3] = pb_y(f, b);
            n++;
        }
    return n;
}

/* Direction from node a to node b. */
static inline int ts_dir(const pb_field *f, const char *a, const char *b) {
    int i = ts_node(f, a), j = ts_node(f, b);
    for (int d = 0; d < 8; d++)
        if (pb_step_to(f, i, d) == j) return d;
    fail_msg("%s-%s is not a step", a, b);
    return -1;
}

#endif
