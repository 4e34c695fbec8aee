/* ref_perft.c - naive reference enumeration of the bounce rules.
 *
 * Written from docs/rules.md §1–2 without looking at solver/: a node is
 * an (x, y) pair, a segment is a pair of nodes kept in a plain list, and a
 * turn is explored by recursion.  Distinct positions are compared as sorted
 * text keys. */
#include "ref_perft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref {
    int rules, G, W, L, S, dead_end_loses;
    int ymax;           /* nodes have 0 <= y <= ymax */
    int cx, cy;         /* centre */
    int seg[64][64][8]; /* seg[x][y][k]: drawn flag for the step in direction k */
    int bx, by, mover;  /* ball and player to move: 0 bottom, 1 top */
} ref;

static const int DX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int DY[8] = {0, 1, 1, 1, 0, -1, -1, -1};

static int cell_ok(const ref *r, int x, int y) {
    if (x < 0 || x >= r->W) return 0;
    if (r->rules == 0) {
        int g0 = r->W / 2 - r->G / 2, g1 = r->W / 2 + r->G / 2;
        if (y >= 1 && y <= r->L) return 1;
        return (y == 0 || y == r->L + 1) && x >= g0 && x < g1;
    }
    return y >= 0 && y < r->L;
}

static int cells_around(const ref *r, int x, int y) {
    return cell_ok(r, x - 1, y - 1) + cell_ok(r, x, y - 1) + cell_ok(r, x - 1, y) + cell_ok(r, x, y);
}

static int is_node(const ref *r, int x, int y) { return cells_around(r, x, y) > 0; }
static int is_boundary(const ref *r, int x, int y) { return is_node(r, x, y) && cells_around(r, x, y) < 4; }

/* Which goal (0 bottom, 1 top) node (x,y) belongs to, or -1. */
static int goal_of(const ref *r, int x, int y) {
    if (!is_node(r, x, y)) return -1;
    int g0 = r->W / 2 - r->G / 2, g1 = r->W / 2 + r->G / 2;
    if (x < g0 || x > g1) return -1;
    if (r->rules == 0) return y == 0 ? 0 : y == r->L + 2 ? 1 : -1;
    return y == r->S ? 0 : y == r->L - r->S ? 1 : -1;
}

static int legal(const ref *r, int x, int y, int k) {
    int x2 = x + DX[k], y2 = y + DY[k];
    if (!is_node(r, x, y) || !is_node(r, x2, y2)) return 0;
    int lx = x < x2 ? x : x2, ly = y < y2 ? y : y2;
    if (DX[k] && DY[k]) return cell_ok(r, lx, ly);
    if (DY[k] == 0) return cell_ok(r, lx, y) && cell_ok(r, lx, y - 1);
    return cell_ok(r, x, ly) && cell_ok(r, x - 1, ly);
}

static int drawn_any(const ref *r, int x, int y) {
    for (int k = 0; k < 8; k++)
        if (r->seg[x][y][k]) return 1;
    return 0;
}

static int occupied(const ref *r, int x, int y) {
    if (is_boundary(r, x, y)) return 1;
    if (x == r->cx && y == r->cy) return 1;
    if (r->rules == 1 && goal_of(r, x, y) >= 0) return 1;
    return drawn_any(r, x, y);
}

static void set_seg(ref *r, int x, int y, int k, int v) {
    r->seg[x][y][k] = v;
    r->seg[x + DX[k]][y + DY[k]][(k + 4) % 8] = v;
}

/* A text key of the position: every drawn segment once, ball, mover. */
static char *key_of(const ref *r) {
    size_t cap = 64, n = 0;
    char *s = malloc(cap);
    for (int x = 0; x <= r->W; x++)
        for (int y = 0; y <= r->ymax; y++)
            for (int k = 0; k < 4; k++)
                if (r->seg[x][y][k]) {
                    if (n + 16 > cap) s = realloc(s, cap *= 2);
                    n += (size_t)sprintf(s + n, "%d.%d.%d;", x, y, k);
                }
    if (n + 32 > cap) s = realloc(s, cap += 32);
    sprintf(s + n, "b%d.%d.%d", r->bx, r->by, r->mover);
    return s;
}

typedef struct keys {
    char **v;
    size_t n, cap;
} keys;

static void keys_add(keys *k, char *s) {
    if (k->n == k->cap) k->v = realloc(k->v, sizeof(char *) * (k->cap = k->cap ? 2 * k->cap : 256));
    k->v[k->n++] = s;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static uint64_t keys_distinct(keys *k) {
    if (!k->n) return 0;
    qsort(k->v, k->n, sizeof(char *), cmp_str);
    uint64_t d = 1;
    for (size_t i = 1; i < k->n; i++) d += strcmp(k->v[i], k->v[i - 1]) != 0;
    return d;
}

static void keys_free(keys *k) {
    for (size_t i = 0; i < k->n; i++) free(k->v[i]);
    free(k->v);
    memset(k, 0, sizeof *k);
}

static void turns(ref *r, int depth, int target, ref_counts *out, keys *pos);

/* The player to move stepping on from the ball within one turn. */
static void steps(ref *r, int depth, int target, ref_counts *out, keys *pos) {
    int x = r->bx, y = r->by, me = r->mover;
    for (int k = 0; k < 8; k++) {
        if (!legal(r, x, y, k) || r->seg[x][y][k]) continue;
        int x2 = x + DX[k], y2 = y + DY[k];
        int was_occ = occupied(r, x2, y2);
        set_seg(r, x, y, k, 1);
        r->bx = x2, r->by = y2;
        int g = goal_of(r, x2, y2);
        int scores = 0;
        if (g >= 0) {
            if (r->rules == 0) scores = 1;
            else scores = g == 0 ? y2 < y : y2 > y;
        }
        ref_counts *c = &out[depth - 1];
        if (scores) {
            c->sequences++, c->finished++;
            if (g == 0) c->goals_top_wins++;
            else c->goals_bottom_wins++;
        } else if (was_occ || (r->rules == 1 && g >= 0)) {
            int exits = 0;
            for (int e = 0; e < 8; e++) exits += legal(r, x2, y2, e) && !r->seg[x2][y2][e];
            if (exits) steps(r, depth, target, out, pos);
            else {
                c->sequences++, c->finished++;
                if (r->rules == 1 && !r->dead_end_loses) c->dead_ends_draw++;
            }
        } else {
            c->sequences++;
            r->mover = 1 - me;
            keys_add(&pos[depth - 1], key_of(r));
            if (depth < target) turns(r, depth + 1, target, out, pos);
            r->mover = me;
        }
        r->bx = x, r->by = y;
        set_seg(r, x, y, k, 0);
    }
}

static void turns(ref *r, int depth, int target, ref_counts *out, keys *pos) { steps(r, depth, target, out, pos); }

void ref_perft(int rules, int goal, int width, int length, int setback, int dead_end_loses, int depth,
               ref_counts *out) {
    ref *r = calloc(1, sizeof *r);
    r->rules = rules, r->G = goal, r->W = width, r->L = length, r->S = setback;
    r->dead_end_loses = dead_end_loses;
    r->ymax = rules == 0 ? length + 2 : length;
    r->cx = width / 2;
    r->cy = rules == 0 ? length / 2 + 1 : length / 2;
    r->bx = r->cx, r->by = r->cy, r->mover = 1;
    memset(out, 0, sizeof *out * (size_t)depth);
    keys *pos = calloc((size_t)depth, sizeof *pos);
    turns(r, 1, depth, out, pos);
    for (int d = 0; d < depth; d++) {
        out[d].positions = keys_distinct(&pos[d]);
        keys_free(&pos[d]);
    }
    free(pos);
    free(r);
}
