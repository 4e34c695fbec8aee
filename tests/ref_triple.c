/* ref_triple.c - a naive reference of the triple rules (docs/rules.md §3),
 * written apart from solver/triple.c to check it.
 *
 * Everything here works on coordinates: the geometry is recomputed from the
 * cells (no field tables), the drawn lines are a plain list of coordinate
 * pairs searched linearly, normal moves are all 8^3 direction triples
 * filtered by the rules, and a kick is traced step by step on (x, y).
 * Slow on purpose; used on small fields and shallow depths only.
 *
 * Interface (declared in tests/test_triple.c):
 *   pb_ref_triple_plies   - the plies from a position, as sorted strings
 *   pb_ref_triple_perft   - sequences, live positions, finished games per depth
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_MAX_EDGES 600
#define REF_MAX_ROUTE 4096

typedef struct ref_state {
    int G, W, L;
    int n;                      /* drawn lines */
    int8_t e[REF_MAX_EDGES][4]; /* x1 y1 x2 y2 */
    int bx, by, tm;             /* ball, player to move (0 Bottom, 1 Top) */
} ref_state;

static const int rdx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int rdy[8] = {0, 1, 1, 1, 0, -1, -1, -1};

/* ---- geometry, from docs/rules.md §1 -------------------------------- */

static int cell_ok(const ref_state *s, int cx, int cy) {
    if (cx < 0 || cx >= s->W) return 0;
    if (cy >= 1 && cy <= s->L) return 1;
    int g0 = s->W / 2 - s->G / 2, g1 = s->W / 2 + s->G / 2;
    if (cy == 0 || cy == s->L + 1) return cx >= g0 && cx < g1;
    return 0;
}

static int cells_around(const ref_state *s, int x, int y) {
    return cell_ok(s, x - 1, y - 1) + cell_ok(s, x, y - 1) + cell_ok(s, x - 1, y) + cell_ok(s, x, y);
}

static int is_boundary(const ref_state *s, int x, int y) {
    int c = cells_around(s, x, y);
    return c > 0 && c < 4;
}

static int is_goal(const ref_state *s, int x, int y) {
    int g0 = s->W / 2 - s->G / 2, g1 = s->W / 2 + s->G / 2;
    return (y == 0 || y == s->L + 2) && x >= g0 && x <= g1;
}

static int goal_owner(int y) { return y == 0 ? 0 : 1; }

static int is_post(const ref_state *s, int x, int y) {
    return (x == s->W / 2 - s->G / 2 || x == s->W / 2 + s->G / 2) && (y == 1 || y == s->L + 1);
}

static int is_centre(const ref_state *s, int x, int y) { return x == s->W / 2 && y == s->L / 2 + 1; }

/* A segment from (x, y) to (x2, y2), one king step: legal per docs/rules.md §1. */
static int seg_legal(const ref_state *s, int x, int y, int x2, int y2) {
    int mx = x < x2 ? x : x2, my = y < y2 ? y : y2;
    if (x != x2 && y != y2) return cell_ok(s, mx, my);
    if (y == y2) return cell_ok(s, mx, y - 1) && cell_ok(s, mx, y);
    return cell_ok(s, x - 1, my) && cell_ok(s, x, my);
}

static int same_edge(const int8_t *e, int x1, int y1, int x2, int y2) {
    return (e[0] == x1 && e[1] == y1 && e[2] == x2 && e[3] == y2) ||
           (e[0] == x2 && e[1] == y2 && e[2] == x1 && e[3] == y1);
}

static int drawn(const ref_state *s, int x1, int y1, int x2, int y2) {
    for (int k = 0; k < s->n; k++)
        if (same_edge(s->e[k], x1, y1, x2, y2)) return 1;
    return 0;
}

static int touched(const ref_state *s, int x, int y) {
    if (is_centre(s, x, y)) return 1;
    for (int k = 0; k < s->n; k++)
        if ((s->e[k][0] == x && s->e[k][1] == y) || (s->e[k][2] == x && s->e[k][3] == y)) return 1;
    return 0;
}

static void add_edge(ref_state *s, int x1, int y1, int x2, int y2) {
    if (drawn(s, x1, y1, x2, y2)) return;
    if (s->n >= REF_MAX_EDGES) abort();
    int8_t *e = s->e[s->n++];
    e[0] = (int8_t)x1, e[1] = (int8_t)y1, e[2] = (int8_t)x2, e[3] = (int8_t)y2;
}

/* ---- plies ----------------------------------------------------------- */

typedef struct ref_ply {
    int kick, len, end, loser; /* end: 0 none, 1 goal, 3 no kick (turn.h codes) */
    int xs[REF_MAX_ROUTE], ys[REF_MAX_ROUTE];
} ref_ply;

typedef void (*ref_fn)(void *ctx, const ref_ply *r, const ref_state *after);

/* All normal moves: every triple of directions, kept when legal.  A move
 * that scores after k < 3 steps is kept once (the unused directions 0). */
static int ref_moves(const ref_state *s, ref_fn fn, void *ctx) {
    int count = 0;
    for (int code = 0; code < 512; code++) {
        int ds[3] = {code & 7, (code >> 3) & 7, code >> 6};
        int px[4] = {s->bx}, py[4] = {s->by};
        int ok = 1, steps = 0, goal = 0;
        for (int k = 0; k < 3 && ok; k++) {
            int x = px[k], y = py[k], x2 = x + rdx[ds[k]], y2 = y + rdy[ds[k]];
            if (cells_around(s, x2, y2) == 0 || !seg_legal(s, x, y, x2, y2)) {
                ok = 0;
                break;
            }
            if (x != x2 && y != y2) {
                /* The other diagonal of the cell: (x, y2)-(x2, y). */
                if (drawn(s, x, y2, x2, y)) {
                    ok = 0;
                    break;
                }
                for (int j = 0; j < k; j++)
                    if ((px[j] == x && py[j] == y2 && px[j + 1] == x2 && py[j + 1] == y) ||
                        (px[j] == x2 && py[j] == y && px[j + 1] == x && py[j + 1] == y2))
                        ok = 0;
                if (!ok) break;
            }
            px[k + 1] = x2, py[k + 1] = y2;
            steps = k + 1;
            if (is_goal(s, x2, y2)) {
                goal = 1;
                break;
            }
            if (is_boundary(s, x2, y2) || touched(s, x2, y2)) {
                ok = 0;
                break;
            }
            for (int j = 0; j <= k; j++)
                if (px[j] == x2 && py[j] == y2) ok = 0;
        }
        if (!ok) continue;
        if (goal) {
            int unused_zero = 1;
            for (int k = steps; k < 3; k++) unused_zero &= ds[k] == 0;
            if (!unused_zero) continue;
        }
        count++;
        if (!fn) continue;
        ref_ply *r = malloc(sizeof *r);
        ref_state *a = malloc(sizeof *a);
        *a = *s;
        r->kick = 0, r->len = steps + 1, r->end = goal ? 1 : 0;
        r->loser = goal ? goal_owner(py[steps]) : 2;
        for (int k = 0; k <= steps; k++) {
            r->xs[k] = px[k], r->ys[k] = py[k];
            if (k) add_edge(a, px[k - 1], py[k - 1], px[k], py[k]);
        }
        a->bx = px[steps], a->by = py[steps], a->tm = s->tm ^ 1;
        fn(ctx, r, a);
        free(r);
        free(a);
    }
    return count;
}

/* Traces a kick from the ball of s in direction d.  Returns the number of
 * steps (6, fewer on a goal) with the nodes in xs/ys[1..], or 0 when the
 * direction can't be chosen. */
static int ref_kick_trace(const ref_state *s, int d, int *xs, int *ys, int *goal) {
    int dx = rdx[d], dy = rdy[d], x = s->bx, y = s->by;
    *goal = 0;
    xs[0] = x, ys[0] = y;
    for (int k = 1; k <= 6; k++) {
        int x2 = x + dx, y2 = y + dy;
        if (cells_around(s, x2, y2) == 0 || !seg_legal(s, x, y, x2, y2)) return 0;
        if (drawn(s, x, y, x2, y2)) return 0; /* s holds the lines drawn before this kick */
        x = x2, y = y2;
        xs[k] = x, ys[k] = y;
        if (is_goal(s, x, y)) {
            *goal = 1;
            return k;
        }
        if (is_post(s, x, y) && k < 6) dy = -dy;
    }
    return 6;
}

/* Chains from s (lines so far drawn, ball at the chain's current node);
 * r holds the route so far. */
static int ref_chains(const ref_state *s, ref_ply *r, ref_fn fn, void *ctx) {
    int count = 0, legal = 0;
    for (int d = 0; d < 8; d++) {
        int xs[7], ys[7], goal;
        int n = ref_kick_trace(s, d, xs, ys, &goal);
        if (!n) continue;
        legal++;
        ref_state *a = malloc(sizeof *a);
        *a = *s;
        int ex = xs[n], ey = ys[n];
        int again = touched(s, ex, ey) || is_boundary(s, ex, ey);
        for (int k = 1; k <= n; k++) add_edge(a, xs[k - 1], ys[k - 1], xs[k], ys[k]);
        a->bx = ex, a->by = ey;
        int len0 = r->len;
        for (int k = 1; k <= n; k++) r->xs[r->len] = xs[k], r->ys[r->len] = ys[k], r->len++;
        if (goal) {
            r->end = 1, r->loser = goal_owner(ey);
            count++;
            if (fn) fn(ctx, r, a);
        } else if (again) {
            count += ref_chains(a, r, fn, ctx);
        } else {
            r->end = 0, r->loser = 2;
            count++;
            if (fn) fn(ctx, r, a);
        }
        r->len = len0;
        free(a);
    }
    if (legal == 0 && r->len > 1) {
        r->end = 3, r->loser = 2;
        count++;
        if (fn) fn(ctx, r, s);
    }
    return count;
}

static int ref_plies(const ref_state *s, ref_fn fn, void *ctx) {
    int n = ref_moves(s, fn, ctx);
    if (n) return n;
    ref_ply *r = malloc(sizeof *r);
    r->kick = 1, r->len = 1, r->xs[0] = s->bx, r->ys[0] = s->by;
    n = ref_chains(s, r, fn, ctx);
    free(r);
    return n;
}

/* ---- strings --------------------------------------------------------- */

static void node_text(char *buf, size_t len, int x, int y) { snprintf(buf, len, "%c%d", 'a' + x, (y + 1) % 100); }

/* "route end=E loser=L tm=T n=N" where tm and n describe the position after. */
static char *ply_text(const ref_ply *r, const ref_state *after) {
    size_t cap = (size_t)r->len * 5 + 64, n = 0;
    char *t = malloc(cap), nb[16];
    if (r->kick) t[n++] = '*';
    for (int k = 0; k < r->len; k++) {
        node_text(nb, sizeof nb, r->xs[k], r->ys[k]);
        n += (size_t)snprintf(t + n, cap - n, "%s%s", k ? "-" : "", nb);
    }
    /* A ply that leaves the next player stuck with no kick ends the game,
     * drawn: the same end code (3) as a continuation kick with no direction. */
    int end = r->end == 0 && ref_plies(after, NULL, NULL) == 0 ? 3 : r->end;
    snprintf(t + n, cap - n, " end=%d loser=%d tm=%d n=%d", end, r->loser, after->tm, after->n);
    return t;
}

typedef struct text_list {
    char **v;
    int n, cap;
} text_list;

static void text_push(text_list *l, char *t) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, sizeof(char *) * (size_t)l->cap);
    }
    l->v[l->n++] = t;
}

static int cmp_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void collect_ply(void *ctx, const ref_ply *r, const ref_state *after) { text_push(ctx, ply_text(r, after)); }

static void state_init(ref_state *s, int G, int W, int L, const int (*segs)[4], int nsegs, int bx, int by, int tm) {
    memset(s, 0, sizeof *s);
    s->G = G, s->W = W, s->L = L;
    for (int k = 0; k < nsegs; k++) add_edge(s, segs[k][0], segs[k][1], segs[k][2], segs[k][3]);
    s->bx = bx, s->by = by, s->tm = tm;
}

/* The plies from the position given by its drawn lines (coordinate
 * pairs), ball and player to move, as sorted malloc'd strings
 * "[*]a1-b2-... end=E loser=L tm=T n=N" (T, N: player to move and number
 * of drawn lines after the ply).  Returns the count; *out is malloc'd. */
int pb_ref_triple_plies(int G, int W, int L, const int (*segs)[4], int nsegs, int bx, int by, int tm, char ***out) {
    ref_state *s = malloc(sizeof *s);
    state_init(s, G, W, L, segs, nsegs, bx, by, tm);
    text_list l = {0};
    ref_plies(s, collect_ply, &l);
    if (l.n) qsort(l.v, (size_t)l.n, sizeof(char *), cmp_text);
    free(s);
    *out = l.v;
    return l.n;
}

/* ---- perft ----------------------------------------------------------- */

typedef struct perft_ctx {
    int depth, maxdepth;
    uint64_t *seq, *fin;
    text_list *live; /* per depth: serialised live positions */
} perft_ctx;

/* A position as text: sorted lines, ball, player to move. */
static char *state_text(const ref_state *s) {
    int idx[REF_MAX_EDGES];
    int keys[REF_MAX_EDGES];
    for (int k = 0; k < s->n; k++) {
        const int8_t *e = s->e[k];
        int a = e[0] * 64 + e[1], b = e[2] * 64 + e[3];
        keys[k] = a < b ? a * 4096 + b : b * 4096 + a;
        idx[k] = k;
    }
    for (int i = 1; i < s->n; i++) /* insertion sort: naive is fine here */
        for (int j = i; j > 0 && keys[idx[j - 1]] > keys[idx[j]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    size_t cap = (size_t)s->n * 9 + 32, n = 0;
    char *t = malloc(cap);
    for (int k = 0; k < s->n; k++) n += (size_t)snprintf(t + n, cap - n, "%x,", keys[idx[k]]);
    snprintf(t + n, cap - n, "b%d,%d,%d", s->bx, s->by, s->tm);
    return t;
}

static void perft_ply(void *c, const ref_ply *r, const ref_state *after);

static void perft_from(perft_ctx *x, const ref_state *s) {
    if (x->depth == x->maxdepth) return;
    x->depth++;
    ref_plies(s, perft_ply, x);
    x->depth--;
}

static void perft_ply(void *c, const ref_ply *r, const ref_state *after) {
    perft_ctx *x = c;
    int d = x->depth;
    x->seq[d - 1]++;
    /* Over: a goal, no continuation kick, or the next player stuck with no
     * kick (the after position has no ply). */
    if (r->end != 0 || ref_plies(after, NULL, NULL) == 0) {
        x->fin[d - 1]++;
        return;
    }
    text_push(&x->live[d - 1], state_text(after));
    perft_from(x, after);
}

/* perft from the start of (G;W;L), Top first: seq[d-1], pos[d-1] (distinct
 * live positions) and fin[d-1] for d = 1..maxdepth. */
void pb_ref_triple_perft(int G, int W, int L, int maxdepth, uint64_t *seq, uint64_t *pos, uint64_t *fin) {
    ref_state *s = malloc(sizeof *s);
    state_init(s, G, W, L, NULL, 0, W / 2, L / 2 + 1, 1);
    text_list *live = calloc((size_t)maxdepth, sizeof *live);
    perft_ctx x = {0, maxdepth, seq, fin, live};
    for (int d = 0; d < maxdepth; d++) seq[d] = fin[d] = pos[d] = 0;
    perft_from(&x, s);
    for (int d = 0; d < maxdepth; d++) {
        text_list *l = &live[d];
        if (l->n) qsort(l->v, (size_t)l->n, sizeof(char *), cmp_text);
        for (int k = 0; k < l->n; k++) {
            if (k == 0 || strcmp(l->v[k], l->v[k - 1])) pos[d]++;
            if (k) free(l->v[k - 1]);
        }
        if (l->n) free(l->v[l->n - 1]);
        free(l->v);
    }
    free(live);
    free(s);
}

/* ---- plies as opaque states, for tests/ref_match.c ----------------------- */

size_t pb_ref_triple_state_size(void) { return sizeof(ref_state); }

/* The position of (G;W;L) with the drawn lines segs, the ball on (bx, by)
 * and tm to move (0 Bottom, 1 Top) into s. */
void pb_ref_triple_start(void *s, int G, int W, int L, const int (*segs)[4], int nsegs, int bx, int by, int tm) {
    state_init(s, G, W, L, segs, nsegs, bx, by, tm);
}

typedef struct each_ctx {
    void (*fn)(void *ctx, int kick, int end, int loser, const void *after);
    void *ctx;
} each_ctx;

static void each_ply(void *c, const ref_ply *r, const ref_state *after) {
    each_ctx *x = c;
    x->fn(x->ctx, r->kick, r->end, r->loser, after);
}

/* Calls fn for every ply of s (end: 0 none, 1 goal against loser, 3 a
 * chain without a continuation); returns the number of plies. */
int pb_ref_triple_each(const void *s, void (*fn)(void *ctx, int kick, int end, int loser, const void *after),
                       void *ctx) {
    each_ctx x = {fn, ctx};
    return ref_plies(s, fn ? each_ply : NULL, fn ? &x : NULL);
}

/* Puts the ball of s on (x, y) with tm to move. */
void pb_ref_triple_set_ball(void *s, int x, int y, int tm) {
    ref_state *r = s;
    r->bx = x, r->by = y, r->tm = tm;
}

int pb_ref_triple_to_move(const void *s) { return ((const ref_state *)s)->tm; }
