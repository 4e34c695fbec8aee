/* ref_match.c - a brute-force reference of triple match play, written
 * apart from solver/match.c and solver/match_search.c to check them.
 *
 * The plies come from the naive triple reference (tests/ref_triple.c: its
 * own move generation on coordinates); the match rules are applied here:
 * after a goal the ball is put on the centre (W/2, L/2 + 1) and the side
 * that conceded moves; the match is over after a chain without a
 * continuation kick or when the position reached has no ply.  Values by
 * plain minimax over every sequence, no table.  Tiny fields only.
 *
 * Interface (declared in tests/test_match.c):
 *   pb_ref_match_value   - the goal difference for the player to move
 *   pb_ref_match_count   - finished matches by final score, and perft
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t pb_ref_triple_state_size(void);
void pb_ref_triple_start(void *s, int G, int W, int L, const int (*segs)[4], int nsegs, int bx, int by, int tm);
int pb_ref_triple_each(const void *s, void (*fn)(void *ctx, int kick, int end, int loser, const void *after),
                       void *ctx);
void pb_ref_triple_set_ball(void *s, int x, int y, int tm);
int pb_ref_triple_to_move(const void *s);

typedef struct walk {
    int cx, cy; /* the centre */
    int me;     /* value_at: the player whose difference is asked */
    int best_max, best_min, nmax, nmin;
    /* counting */
    int goals[2], maxgoals, depth, maxdepth;
    uint64_t *counts, *seq;
} walk;

/* After a ply: a copy of `after` restarted after a goal; *over set when
 * the match ends with the ply. */
static void *next_state(const walk *w, int end, int loser, const void *after, int *over) {
    size_t sz = pb_ref_triple_state_size();
    void *n = malloc(sz);
    memcpy(n, after, sz);
    *over = end == 3;
    if (end == 1) pb_ref_triple_set_ball(n, w->cx, w->cy, loser);
    if (!*over) *over = pb_ref_triple_each(n, NULL, NULL) == 0;
    return n;
}

static int value_at(const walk *proto, const void *s);

static void value_ply(void *c, int kick, int end, int loser, const void *after) {
    walk *w = c;
    int over, me = w->me;
    void *n = next_state(w, end, loser, after, &over);
    int v = end == 1 ? (loser == me ? -1 : 1) : 0;
    if (!over) {
        int cont = value_at(w, n);
        v += pb_ref_triple_to_move(n) == me ? cont : -cont;
    }
    free(n);
    /* A normal move is the mover's choice; a kick chain is the kicker's,
     * the opponent of the player to move. */
    if (!kick) {
        w->nmax++;
        if (v > w->best_max) w->best_max = v;
    } else {
        w->nmin++;
        if (v < w->best_min) w->best_min = v;
    }
}

static int value_at(const walk *proto, const void *s) {
    walk w = *proto;
    w.me = pb_ref_triple_to_move(s);
    w.best_max = -1000000, w.best_min = 1000000, w.nmax = w.nmin = 0;
    pb_ref_triple_each(s, value_ply, &w);
    if (w.nmax + w.nmin == 0) return 0;
    return w.nmax ? w.best_max : w.best_min;
}

/* The match value of the position of (G;W;L) with the drawn lines segs
 * (coordinate pairs), the ball on (bx, by) and tm to move. */
int pb_ref_match_value(int G, int W, int L, const int (*segs)[4], int nsegs, int bx, int by, int tm) {
    void *s = malloc(pb_ref_triple_state_size());
    pb_ref_triple_start(s, G, W, L, segs, nsegs, bx, by, tm);
    walk w;
    memset(&w, 0, sizeof w);
    w.cx = W / 2, w.cy = L / 2 + 1;
    int v = value_at(&w, s);
    free(s);
    return v;
}

static void count_ply(void *c, int kick, int end, int loser, const void *after) {
    walk *w = c;
    (void)kick;
    int over;
    void *n = next_state(w, end, loser, after, &over);
    if (w->depth < w->maxdepth) w->seq[w->depth]++;
    if (end == 1) w->goals[loser ^ 1]++;
    if (over) {
        if (w->goals[0] <= w->maxgoals && w->goals[1] <= w->maxgoals)
            w->counts[w->goals[0] * (w->maxgoals + 1) + w->goals[1]]++;
    } else {
        w->depth++;
        pb_ref_triple_each(n, count_ply, w);
        w->depth--;
    }
    if (end == 1) w->goals[loser ^ 1]--;
    free(n);
}

/* Every match from the start of (G;W;L), Top first, played to its end:
 * counts[b * (maxgoals + 1) + t] finished matches with b goals by Bottom
 * and t by Top; seq[d - 1] the ply sequences of length d (d <= maxdepth). */
void pb_ref_match_count(int G, int W, int L, int maxgoals, uint64_t *counts, int maxdepth, uint64_t *seq) {
    void *s = malloc(pb_ref_triple_state_size());
    pb_ref_triple_start(s, G, W, L, NULL, 0, W / 2, L / 2 + 1, 1);
    walk w;
    memset(&w, 0, sizeof w);
    w.cx = W / 2, w.cy = L / 2 + 1;
    w.maxgoals = maxgoals, w.counts = counts, w.maxdepth = maxdepth, w.seq = seq;
    memset(counts, 0, sizeof *counts * (size_t)(maxgoals + 1) * (size_t)(maxgoals + 1));
    memset(seq, 0, sizeof *seq * (size_t)maxdepth);
    pb_ref_triple_each(s, count_ply, &w);
    free(s);
}
