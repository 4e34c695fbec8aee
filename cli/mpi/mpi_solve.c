/* mpi_solve.c - `mpirun -n K paperball solve --mpi`: the first turns of a
 * position solved on K processes, compiled only with MPI.
 *
 * The first turns are the routes from the root in generation order
 * (pb_routes_foreach), grouped into left-right mirror classes exactly as
 * pb_solve groups them (when the root is its own mirror image).  The
 * classes whose route does not end the game are the jobs, dealt to the
 * processes round-robin: job j to rank j mod K, the same on every process.
 * Each process solves its jobs exactly with its own table
 * (pb_solver_value on the position after the route, for its player to
 * move: negated when the turn passed the move, kept when it did not, as
 * after a triple kick chain; a route that ends the game has its value from
 * its end).  The values are combined on every process with MPI_Allreduce,
 * each turn's value being set by one process only, and the root's value,
 * the best turn and the mirrors' values follow by the rules of pb_solve.
 *
 * Why the answers cannot depend on K: each value is the exact value of
 * one position (search.c argues why it does not depend on the table or the
 * order of the work), whichever process computed it; the combination is
 * the same function of those values as in pb_solve.  The principal
 * variation is computed by the process that proved the best turn's class,
 * with pb_solver_best_route from the position after the best turn: the
 * same rule as pb_solve's line, so a line of perfect play.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "../cluster.h"

typedef struct collect_ctx {
    pb_solve_turn *turns;
    int n, cap, me;
} collect_ctx;

/* One first turn, with the value of a route that ends the game. */
static int collect_route(void *ctx, const pb_field *f, pb_position *after, const pb_route *r) {
    collect_ctx *c = ctx;
    (void)f, (void)after;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->turns = realloc(c->turns, sizeof *c->turns * (size_t)c->cap);
        if (!c->turns) abort();
    }
    pb_solve_turn *t = &c->turns[c->n];
    memset(t, 0, sizeof *t);
    t->nodes = malloc(sizeof(int16_t) * (size_t)r->len);
    memcpy(t->nodes, r->nodes, sizeof(int16_t) * (size_t)r->len);
    t->len = r->len, t->kick = r->kick, t->end = r->end, t->mover = r->mover;
    t->klass = c->n;
    t->value = r->end == PB_END_NONE ? PB_UNKNOWN : r->loser == PB_NOBODY ? PB_DRAW : r->loser == c->me ? PB_LOSS : PB_WIN;
    c->n++;
    return 0;
}

/* A route joins the class of an earlier route that is its left-right
 * mirror image, when the root is its own mirror image (pb_solve's rule). */
static void mirror_classes(const pb_field *f, const pb_position *root, pb_solve_result *r) {
    pb_position m;
    pb_position_mirror(f, root, &m, 1, 0);
    r->mirror_lr = pb_position_equal(f, root, &m);
    if (!r->mirror_lr) return;
    for (int i = 0; i < r->nturns; i++) {
        pb_solve_turn *a = &r->turns[i];
        for (int j = 0; j < i; j++) {
            const pb_solve_turn *b = &r->turns[j];
            if (b->len != a->len || b->kick != a->kick || b->klass != j) continue;
            int k;
            for (k = 0; k < a->len; k++)
                if (f->mirror_lr[a->nodes[k]] != b->nodes[k]) break;
            if (k == a->len) {
                a->klass = j;
                break;
            }
        }
    }
}

/* The value of first turn t for the player to move at root p. */
static int turn_value(pb_solver *s, const pb_field *f, const pb_position *p, const pb_solve_turn *t) {
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    pb_route info;
    char err[256];
    if (pb_route_play(f, q, t->nodes, t->len, t->kick, &info, err, sizeof err)) abort();
    int v = pb_solver_value(s, q);
    if (v != PB_UNKNOWN && q->to_move != p->to_move) v = -v;
    free(q);
    return v;
}

/* The line from p starting with the best turn, into r->pv (pb_solve's
 * loop, on this process's table). */
static void principal_variation(pb_solver *s, const pb_field *f, const pb_position *p, pb_solve_result *r) {
    pb_position *q = malloc(sizeof *q);
    *q = *p;
    int cap = f->nsegments + 2, pvcap = 16, kick = r->turns[r->best].kick, len = r->turns[r->best].len, v;
    int16_t *buf = malloc(sizeof(int16_t) * (size_t)cap);
    memcpy(buf, r->turns[r->best].nodes, sizeof(int16_t) * (size_t)len);
    r->pv = malloc(sizeof *r->pv * (size_t)pvcap);
    pb_route info;
    char err[256];
    pb_solver_set_limit(s, 0);
    for (;;) {
        if (pb_route_play(f, q, buf, len, kick, &info, err, sizeof err)) break;
        if (r->npv == pvcap) r->pv = realloc(r->pv, sizeof *r->pv * (size_t)(pvcap *= 2));
        pb_pv_turn *pt = &r->pv[r->npv++];
        pt->nodes = malloc(sizeof(int16_t) * (size_t)len);
        memcpy(pt->nodes, buf, sizeof(int16_t) * (size_t)len);
        pt->len = len, pt->kick = kick;
        if (info.end != PB_END_NONE) break;
        len = pb_solver_best_route(s, q, buf, cap, &kick, &v);
        if (len == 0) break;
    }
    free(buf);
    free(q);
}

/* Sends the line of process `from` to every process. */
static void share_pv(pb_solve_result *r, int from, int rank) {
    int n = 0;
    int *w = NULL;
    if (rank == from) {
        for (int i = 0; i < r->npv; i++) n += 2 + r->pv[i].len;
        w = malloc(sizeof(int) * (size_t)(n + 1));
        int k = 0;
        for (int i = 0; i < r->npv; i++) {
            w[k++] = r->pv[i].len, w[k++] = r->pv[i].kick;
            for (int j = 0; j < r->pv[i].len; j++) w[k++] = r->pv[i].nodes[j];
        }
    }
    MPI_Bcast(&n, 1, MPI_INT, from, MPI_COMM_WORLD);
    if (rank != from) w = malloc(sizeof(int) * (size_t)(n + 1));
    MPI_Bcast(w, n, MPI_INT, from, MPI_COMM_WORLD);
    if (rank != from) {
        int cnt = 0;
        for (int k = 0; k < n; k += 2 + w[k]) cnt++;
        r->pv = malloc(sizeof *r->pv * (size_t)(cnt + 1));
        r->npv = 0;
        for (int k = 0; k < n; k += 2 + w[k]) {
            pb_pv_turn *pt = &r->pv[r->npv++];
            pt->len = w[k], pt->kick = w[k + 1];
            pt->nodes = malloc(sizeof(int16_t) * (size_t)pt->len);
            for (int j = 0; j < pt->len; j++) pt->nodes[j] = (int16_t)w[k + 2 + j];
        }
    }
    free(w);
}

int pb_cluster_solve(const pb_cluster *c, const pb_field *f, const pb_position *p, size_t hash_bytes,
                     double time_limit, int no_pv, FILE *progress, pb_solve_result *r) {
    memset(r, 0, sizeof *r);
    r->value = PB_UNKNOWN;
    r->best = -1;
    r->threads = 1;
    double t0 = MPI_Wtime();
    pb_solver *s = pb_solver_new(f, hash_bytes);
    int bad = !s, anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (anybad) {
        pb_solver_free(s);
        return -1;
    }
    pb_position root = *p;
    collect_ctx cc = {NULL, 0, 0, p->to_move};
    pb_routes_foreach(f, &root, collect_route, &cc);
    r->turns = cc.turns, r->nturns = cc.n;
    mirror_classes(f, p, r);

    /* The jobs, dealt round-robin; owner[i] = the process of turn i's class. */
    int *val = calloc((size_t)r->nturns + 1, sizeof(int)), *owner = calloc((size_t)r->nturns + 1, sizeof(int));
    uint64_t *nodes = calloc((size_t)r->nturns + 1, sizeof(uint64_t));
    double *secs = calloc((size_t)r->nturns + 1, sizeof(double));
    int njobs = 0, stopped = 0;
    for (int i = 0; i < r->nturns; i++) {
        pb_solve_turn *t = &r->turns[i];
        if (t->klass != i) continue;
        r->nclasses++;
        if (t->end != PB_END_NONE) continue;
        owner[i] = njobs++ % c->nranks;
        if (owner[i] != c->rank) continue;
        double left = time_limit > 0 ? time_limit - (MPI_Wtime() - t0) : 0;
        if (time_limit > 0 && left <= 0) {
            stopped = 1;
            continue;
        }
        pb_solver_set_limit(s, left);
        uint64_t n0 = pb_solver_nodes(s);
        double ts = MPI_Wtime();
        int v = turn_value(s, f, p, t);
        if (v == PB_UNKNOWN) stopped = 1;
        else val[i] = v + 2;
        nodes[i] = pb_solver_nodes(s) - n0;
        secs[i] = MPI_Wtime() - ts;
        if (progress) {
            char buf[4096];
            fprintf(progress, "solve: rank %d: %s %s, %.3f s\n", c->rank,
                    pb_route_format(f, t->nodes, t->len, t->kick, buf, sizeof buf), pb_value_name(v), secs[i]);
        }
    }
    /* Each turn's value is set by its owner alone (0 elsewhere). */
    MPI_Allreduce(MPI_IN_PLACE, val, r->nturns, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, nodes, r->nturns, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, secs, r->nturns, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &stopped, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    r->stopped = stopped;
    for (int i = 0; i < r->nturns; i++) {
        pb_solve_turn *t = &r->turns[i];
        if (t->klass != i || t->end != PB_END_NONE) continue;
        if (val[i]) t->value = val[i] - 2;
        t->nodes_searched = nodes[i], t->seconds = secs[i];
    }
    /* From here on, pb_solve's rules: mirrors share their class's value;
     * the root takes the best of its player's routes, or the opponent's
     * best kick chain; the best turn prefers, for a winner, a route that
     * ends the game and, for the other side, one that does not. */
    for (int i = 0; i < r->nturns; i++) {
        pb_solve_turn *t = &r->turns[i];
        if (t->klass != i) t->value = r->turns[t->klass].value;
        else if (t->value != PB_UNKNOWN) r->nsolved_classes++;
    }
    int me = p->to_move, unknown = 0, vmax = -2, vmin = 2, nmine = 0;
    for (int i = 0; i < r->nturns; i++) {
        const pb_solve_turn *t = &r->turns[i];
        if (t->value == PB_UNKNOWN) {
            unknown++;
            continue;
        }
        if (t->mover == me) {
            nmine++;
            if (t->value > vmax) vmax = t->value;
        } else if (t->value < vmin) vmin = t->value;
    }
    r->complete = unknown == 0;
    if (r->nturns == 0) r->value = PB_DRAW;
    else if (r->complete) r->value = nmine ? vmax : vmin;
    else if (nmine && vmax == PB_WIN) r->value = PB_WIN;
    else if (!nmine && vmin == PB_LOSS && r->turns[0].mover != me) r->value = PB_LOSS;
    if (r->value != PB_UNKNOWN) {
        for (int i = 0; i < r->nturns; i++) {
            const pb_solve_turn *t = &r->turns[i];
            if (t->value != r->value) continue;
            int ends = t->end != PB_END_NONE, best_ends = r->best >= 0 && r->turns[r->best].end != PB_END_NONE;
            int prefer = r->value == PB_WIN ? ends && !best_ends : !ends && best_ends;
            if (r->best < 0 || prefer) r->best = i;
        }
    }
    r->pv_kind = "a line of perfect play, not necessarily the shortest win or longest loss: each side keeps "
                 "the value; the winner scores as soon as a goal wins, the other side avoids routes that end the "
                 "game when it can; otherwise the first value-keeping route in generation order";
    if (r->best >= 0 && !no_pv && !r->stopped) {
        /* The process that proved the best turn's class has its subtree in
         * its table. */
        const pb_solve_turn *bt = &r->turns[r->best];
        int from = bt->end != PB_END_NONE ? 0 : owner[bt->klass];
        if (c->rank == from) principal_variation(s, f, p, r);
        share_pv(r, from, c->rank);
    }
    uint64_t n = pb_solver_nodes(s);
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    r->nodes = n;
    r->seconds = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &r->seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    r->rate = r->seconds > 0 ? (double)n / r->seconds : 0;
    unsigned long long rss = pb_peak_rss();
    MPI_Allreduce(MPI_IN_PLACE, &rss, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    r->peak_rss = (size_t)rss;
    r->tt_bytes = hash_bytes ? hash_bytes : PB_SOLVE_DEFAULT_HASH;   /* the table statistics stay 0 */
    free(val);
    free(owner);
    free(nodes);
    free(secs);
    pb_solver_free(s);
    return 0;
}
