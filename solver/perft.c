/* perft.c - counting turn sequences and distinct positions. */
#include "perft.h"

#include <assert.h>
#include <string.h>

#include "posset.h"

typedef struct expand_ctx {
    pb_posset *next;
    uint64_t mult;
    pb_perft_row *row;
} expand_ctx;

static int add_u64(uint64_t *a, uint64_t b) {
    return __builtin_add_overflow(*a, b, a);
}

static int expand_one(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    expand_ctx *x = c;
    x->row->overflow |= add_u64(&x->row->sequences, x->mult);
    if (r->end != PB_END_NONE)
        x->row->overflow |= add_u64(&x->row->finished, x->mult);
    else pb_posset_add(x->next, f, after, x->mult);
    return 0;
}

int pb_perft(const pb_field *f, const pb_position *p, int maxdepth, pb_perft_row *rows) {
    pb_posset cur, next;
    pb_posset_init(&cur, f);
    pb_posset_add(&cur, f, p, 1);
    int filled = 0, overflow = 0;
    for (int d = 1; d <= maxdepth && cur.size > 0; d++) {
        pb_perft_row *row = &rows[filled++];
        memset(row, 0, sizeof *row);
        row->depth = d;
        pb_posset_init(&next, f);
        expand_ctx x = {&next, 0, row};
        for (size_t i = 0; i < cur.cap; i++) {
            pb_position q;
            if (!pb_posset_get(&cur, f, i, &q, &x.mult)) continue;
            pb_routes_foreach(f, &q, expand_one, &x);
        }
        row->positions = next.size;
        overflow |= row->overflow;
        row->overflow = overflow;
        pb_posset_free(&cur);
        cur = next;
    }
    pb_posset_free(&cur);
    return filled;
}

/* What a depth-first perft over single steps counts: the turn sequences
 * of d turns (perft(d)) and the steps it takes on the way. */
typedef struct step_counts {
    uint64_t sequences, steps;
} step_counts;

/* Depth-first over single steps: a bounce recurses with the same depth. */
static void dfs_steps(const pb_field *f, pb_position *p, int d, step_counts *c) {
    int from = p->ball;
    for (int dir = 0; dir < 8; dir++) {
        if (!pb_free(f, p, from, dir)) continue;
        pb_undo u;
        int loser;
        pb_step_result r = pb_step(f, p, dir, &u, &loser);
        c->steps++;
        if (r == PB_STEP_BOUNCE) dfs_steps(f, p, d, c);
        else if (d == 1) c->sequences++;
        else if (r == PB_STEP_STOP) dfs_steps(f, p, d - 1, c);
        pb_unstep(f, p, &u);
    }
}

uint64_t pb_perft_steps(const pb_field *f, pb_position *p, int d) {
    assert(f->spec.rules != PB_RULES_TRIPLE);
    step_counts c = {0, 0};
    if (d > 0) dfs_steps(f, p, d, &c);
    return c.steps;
}

typedef struct dfs_ctx {
    int d;
    uint64_t n;
} dfs_ctx;

static int dfs_route(void *c, const pb_field *f, pb_position *after, const pb_route *r) {
    dfs_ctx *x = c;
    if (x->d == 1) x->n++;
    else if (r->end == PB_END_NONE) x->n += pb_perft_dfs(f, after, x->d - 1);
    return 0;
}

uint64_t pb_perft_dfs(const pb_field *f, pb_position *p, int d) {
    if (d == 0) return 1;
    if (f->spec.rules != PB_RULES_TRIPLE) {
        step_counts c = {0, 0};
        dfs_steps(f, p, d, &c);
        return c.sequences;
    }
    dfs_ctx x = {d, 0};
    pb_routes_foreach(f, p, dfs_route, &x);
    return x.n;
}
