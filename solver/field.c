/* field.c - building a field: nodes, segments, goals, mirrors, Zobrist keys. */
#include "field.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int pb_dir_dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
const int pb_dir_dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};

static const char *rules_names[] = {"book", "hockey", "triple"};

const char *pb_rules_name(pb_rules r) { return rules_names[r]; }

int pb_rules_parse(const char *s, pb_rules *r) {
    for (int i = 0; i < 3; i++)
        if (strcmp(s, rules_names[i]) == 0) {
            *r = (pb_rules)i;
            return 0;
        }
    return -1;
}

int pb_field_spec_parse(const char *text, pb_field_spec *spec, char *err, size_t errlen) {
    const char *s = text;
    int v[3], n = 0;
    while (isspace((unsigned char)*s)) s++;
    int paren = (*s == '(');
    if (paren) s++;
    while (n < 3) {
        while (isspace((unsigned char)*s)) s++;
        if (!isdigit((unsigned char)*s)) break;
        long x = strtol(s, (char **)&s, 10);
        if (x > 1000) x = 1000;
        v[n++] = (int)x;
        while (isspace((unsigned char)*s)) s++;
        if (n < 3 && (*s == ';' || *s == ',')) s++;
        else break;
    }
    if (paren && *s == ')') {
        s++;
        paren = 0;
    }
    while (isspace((unsigned char)*s)) s++;
    if (n != 3 || paren || *s) {
        snprintf(err, errlen, "bad field '%s': expected G;W;L such as 2;6;8, (2;6;8) or 2,6,8", text);
        return -1;
    }
    spec->goal = v[0];
    spec->width = v[1];
    spec->length = v[2];
    return 0;
}

int pb_field_spec_check(const pb_field_spec *sp, char *err, size_t errlen) {
    int G = sp->goal, W = sp->width, L = sp->length;
    if (G % 2 || W % 2 || L % 2) {
        snprintf(err, errlen, "bad field (%d;%d;%d): goal, width and length must all be even", G, W, L);
        return -1;
    }
    if (G < 2) {
        snprintf(err, errlen, "bad field (%d;%d;%d): the goal must be at least 2 cells wide", G, W, L);
        return -1;
    }
    if (G > W) {
        snprintf(err, errlen, "bad field (%d;%d;%d): the goal (%d) is wider than the field (%d)", G, W, L, G, W);
        return -1;
    }
    if (L < 2) {
        snprintf(err, errlen, "bad field (%d;%d;%d): the length must be at least 2", G, W, L);
        return -1;
    }
    if (W > PB_MAX_DIM || L > PB_MAX_DIM) {
        snprintf(err, errlen, "bad field (%d;%d;%d): at most %d cells wide and %d long are supported", G, W, L,
                 PB_MAX_DIM, PB_MAX_DIM);
        return -1;
    }
    if (sp->rules == PB_RULES_HOCKEY) {
        if (sp->setback < 0) {
            snprintf(err, errlen, "bad setback %d: must be 0 or more", sp->setback);
            return -1;
        }
        if (L < 2 * sp->setback + 2) {
            snprintf(err, errlen, "bad field (%d;%d;%d) with setback %d: the length must be at least 2S+2 = %d", G, W,
                     L, sp->setback, 2 * sp->setback + 2);
            return -1;
        }
    } else if (sp->setback != 0) {
        snprintf(err, errlen, "a setback applies to hockey only (rules %s)", pb_rules_name(sp->rules));
        return -1;
    }
    return 0;
}

/* Is cell (cx, cy) playable? */
static int cell_playable(const pb_field *f, int cx, int cy) {
    int W = f->spec.width, L = f->spec.length;
    if (cx < 0 || cx >= W) return 0;
    if (f->box) {
        if (cy >= 1 && cy <= L) return 1;
        if (cy == 0 || cy == L + 1) return cx >= f->goal_x0 && cx < f->goal_x1;
        return 0;
    }
    return cy >= 0 && cy < L;
}

/* Is the step from (x, y) in direction d a legal segment? */
static int segment_legal(const pb_field *f, int x, int y, int d) {
    int x2 = x + pb_dir_dx[d], y2 = y + pb_dir_dy[d];
    int mx = x < x2 ? x : x2, my = y < y2 ? y : y2;
    if (x != x2 && y != y2) return cell_playable(f, mx, my);
    if (y == y2) return cell_playable(f, mx, y - 1) && cell_playable(f, mx, y);
    return cell_playable(f, x - 1, my) && cell_playable(f, x, my);
}

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int pb_dir_between(const pb_field *f, int a, int b) {
    for (int d = 0; d < 8; d++)
        if (pb_step_to(f, a, d) == b) return d;
    return -1;
}

int pb_seg_between(const pb_field *f, int a, int b) {
    int d = pb_dir_between(f, a, b);
    return d < 0 ? -1 : f->seg[a][d];
}

/* The lattice: its size, the goals, the lines, the centre. */
static void lay_out(pb_field *f, const pb_field_spec *spec) {
    int G = spec->goal, W = spec->width, L = spec->length, S = spec->setback;
    f->spec = *spec;
    f->box = spec->rules != PB_RULES_HOCKEY;
    f->cols = W + 1;
    f->rows = f->box ? L + 3 : L + 1;
    f->nlattice = f->cols * f->rows;
    f->goal_x0 = W / 2 - G / 2;
    f->goal_x1 = W / 2 + G / 2;
    if (f->box) {
        f->goal_y_bottom = 0;
        f->goal_y_top = L + 2;
        f->line_y_bottom = 1;
        f->line_y_top = L + 1;
        f->centre = pb_at(f, W / 2, L / 2 + 1);
    } else {
        f->goal_y_bottom = f->line_y_bottom = S;
        f->goal_y_top = f->line_y_top = L - S;
        f->centre = pb_at(f, W / 2, L / 2);
    }
}

/* Each lattice point's flags: a node (next to a playable cell), on the
 * boundary, in a goal, a post, the centre, occupied at the start. */
static void flag_nodes(pb_field *f) {
    for (int i = 0; i < f->nlattice; i++) {
        int x = pb_x(f, i), y = pb_y(f, i);
        int c = cell_playable(f, x - 1, y - 1) + cell_playable(f, x, y - 1) + cell_playable(f, x - 1, y) +
                cell_playable(f, x, y);
        uint8_t fl = 0;
        if (c > 0) fl |= PB_NODE;
        if (c > 0 && c < 4) fl |= PB_BOUNDARY;
        if (c > 0 && x >= f->goal_x0 && x <= f->goal_x1) {
            if (y == f->goal_y_bottom) fl |= PB_GOAL_BOTTOM;
            if (y == f->goal_y_top) fl |= PB_GOAL_TOP;
            if ((x == f->goal_x0 || x == f->goal_x1) && (y == f->line_y_bottom || y == f->line_y_top)) fl |= PB_POST;
        }
        if (i == f->centre) fl |= PB_CENTRE;
        if (fl & (PB_BOUNDARY | PB_CENTRE)) fl |= PB_OCCUPIED0;
        if (!f->box && (fl & (PB_GOAL_BOTTOM | PB_GOAL_TOP))) fl |= PB_OCCUPIED0;
        f->flags[i] = fl;
        if (fl & PB_NODE) f->nnodes++;
    }
}

/* Segment indices, from the lower/left end, and which diagonal crosses
 * which. */
static void number_segments(pb_field *f) {
    for (int i = 0; i < f->nlattice; i++)
        for (int d = 0; d < 8; d++) f->seg[i][d] = -1;
    int ns = 0;
    for (int i = 0; i < f->nlattice; i++) {
        if (!(f->flags[i] & PB_NODE)) continue;
        int x = pb_x(f, i), y = pb_y(f, i);
        for (int d = PB_E; d <= PB_NW; d++) {
            int x2 = x + pb_dir_dx[d], y2 = y + pb_dir_dy[d];
            if (x2 < 0 || x2 >= f->cols || y2 >= f->rows) continue;
            if (!segment_legal(f, x, y, d)) continue;
            int j = pb_at(f, x2, y2);
            f->segs[ns].a = (int16_t)i;
            f->segs[ns].b = (int16_t)j;
            f->segs[ns].dir = (int8_t)d;
            f->segs[ns].cross = -1;
            f->seg[i][d] = (int16_t)ns;
            f->seg[j][d ^ 4] = (int16_t)ns;
            ns++;
        }
    }
    f->nsegments = ns;
    f->nwords = (ns + 63) / 64;
    for (int s = 0; s < ns; s++) {
        /* NE from (x,y) crosses NW from (x+1,y); NW from (x,y) crosses NE from (x-1,y). */
        int a = f->segs[s].a;
        if (f->segs[s].dir == PB_NE) f->segs[s].cross = f->seg[a + 1][PB_NW];
        if (f->segs[s].dir == PB_NW) f->segs[s].cross = f->seg[a - 1][PB_NE];
    }
}

/* The mirror images of nodes and segments, the degrees, odd nodes and the
 * counts of inner and empty nodes. */
static void mirror_and_count(pb_field *f) {
    for (int i = 0; i < f->nlattice; i++) {
        int x = pb_x(f, i), y = pb_y(f, i);
        f->mirror_lr[i] = (int16_t)pb_at(f, f->spec.width - x, y);
        f->mirror_tb[i] = (int16_t)pb_at(f, x, f->rows - 1 - y);
        if (!(f->flags[i] & PB_NODE)) continue;
        int deg = 0;
        for (int d = 0; d < 8; d++) deg += f->seg[i][d] >= 0;
        f->degree0[i] = (uint8_t)deg;
        if (deg & 1) f->flags[i] |= PB_ODD, f->nodd++;
        if (!(f->flags[i] & PB_BOUNDARY)) f->ninner++;
        if (!(f->flags[i] & PB_OCCUPIED0)) f->nempty++;
    }
    for (int s = 0; s < f->nsegments; s++) {
        int a = f->segs[s].a, b = f->segs[s].b;
        f->seg_mirror_lr[s] = (int16_t)pb_seg_between(f, f->mirror_lr[a], f->mirror_lr[b]);
        f->seg_mirror_tb[s] = (int16_t)pb_seg_between(f, f->mirror_tb[a], f->mirror_tb[b]);
    }
}

pb_field *pb_field_new(const pb_field_spec *spec, char *err, size_t errlen) {
    if (pb_field_spec_check(spec, err, errlen)) return NULL;
    pb_field *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    lay_out(f, spec);
    flag_nodes(f);
    number_segments(f);
    mirror_and_count(f);
    /* Keys depend only on the index, so one field always hashes alike. */
    uint64_t seed = 0x50617065726261ULL;
    for (int s = 0; s < PB_MAX_SEGMENTS; s++) f->zobrist_seg[s] = splitmix64(&seed);
    for (int i = 0; i < PB_MAX_LATTICE; i++) f->zobrist_ball[i] = splitmix64(&seed);
    f->zobrist_top = splitmix64(&seed);
    return f;
}

void pb_field_free(pb_field *f) { free(f); }

const char *pb_node_name(const pb_field *f, int i, char *buf) {
    /* x < 31 and y < 33 (PB_MAX_DIM), so a name has at most 4 characters. */
    unsigned x = (unsigned)pb_x(f, i) % 100u, y = (unsigned)pb_y(f, i) % 100u;
    if (x < 26) snprintf(buf, 8, "%c%u", 'a' + x, y + 1);
    else snprintf(buf, 8, "%c%c%u", 'a' + x / 26 - 1, 'a' + x % 26, y + 1);
    return buf;
}

int pb_node_parse(const pb_field *f, const char *s, int *used) {
    int k = 0, x;
    if (!islower((unsigned char)s[0])) return -1;
    if (islower((unsigned char)s[1])) {
        x = (s[0] - 'a' + 1) * 26 + (s[1] - 'a');
        k = 2;
    } else {
        x = s[0] - 'a';
        k = 1;
    }
    if (!isdigit((unsigned char)s[k]) || s[k] == '0') return -1;
    int y = 0;
    while (isdigit((unsigned char)s[k]) && y < 10000) y = y * 10 + (s[k++] - '0');
    y -= 1;
    if (used) *used = k;
    if (x < 0 || x >= f->cols || y < 0 || y >= f->rows) return -1;
    int i = pb_at(f, x, y);
    return (f->flags[i] & PB_NODE) ? i : -1;
}

const char *pb_field_describe(const pb_field *f, char *buf, size_t len) {
    const pb_field_spec *s = &f->spec;
    if (s->rules == PB_RULES_HOCKEY)
        snprintf(buf, len, "hockey (%d;%d;%d) setback %d, dead end %s", s->goal, s->width, s->length, s->setback,
                 s->dead_end == PB_DEAD_END_LOSS ? "loses" : "draws");
    else snprintf(buf, len, "%s (%d;%d;%d)", pb_rules_name(s->rules), s->goal, s->width, s->length);
    return buf;
}
