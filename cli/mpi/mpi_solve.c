/* mpi_solve.c - `mpirun -n K paperball solve --mpi`: the first turns of a
 * position solved on K processes, compiled only with MPI.
 *
 * The first-turn classes (the routes to one position or its left-right
 * mirror image) are listed by pb_solve's own code (pb_solve_root_turns,
 * within its memory cap) on every process, in the same order.  The
 * classes whose route does not end the game are the jobs, dealt to the
 * processes round-robin: job j to rank j mod K, the same on every process.
 * Each process solves its jobs exactly with its own table
 * (pb_solver_value on the position after the route, for its player to
 * move: negated when the turn passed the move, kept when it did not, as
 * after a triple kick chain; a route that ends the game has its value from
 * its end).  The values are combined on every process with MPI_Allreduce,
 * each turn's value being set by one process only, and the root's value,
 * the best turn and the mirrors' values follow by pb_solve_combine, as in
 * pb_solve.
 *
 * Why the answers cannot depend on K: each value is the exact value of
 * one position (search.c argues why it does not depend on the table or the
 * order of the work), whichever process computed it; the combination is
 * the same function (pb_solve_combine) of those values as in pb_solve.
 * The best turn and the line are computed by rank 0, by pb_solve_line with
 * pb_solver_best_route for each turn, after its table has learnt every
 * class's value (pb_solver_learn): the same rule on exact values as
 * pb_solve's, so the same line.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "../cluster.h"

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

/* The next turn of the line (pb_solve_line), on this process's table. */
static int line_next(void *ctx, pb_position *q, int16_t *nodes, int cap, int *kick) {
    int v;
    return pb_solver_best_route(ctx, q, nodes, cap, kick, &v);
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
    r->threads = 1;
    double t0 = MPI_Wtime();
    pb_solver *s = pb_solver_new(f, hash_bytes);
    int bad = !s, anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (anybad) {
        pb_solver_free(s);
        return -1;
    }
    /* Every process lists the same classes (a list cut by its memory cap
     * too, r->overflow: then the value may stay unknown). */
    pb_solve_root_turns(f, p, 0, NULL, NULL, r);

    /* The jobs, dealt round-robin; owner[i] = the process of turn i's class. */
    int *val = calloc((size_t)r->nturns + 1, sizeof(int)), *owner = calloc((size_t)r->nturns + 1, sizeof(int));
    uint64_t *nodes = calloc((size_t)r->nturns + 1, sizeof(uint64_t));
    double *secs = calloc((size_t)r->nturns + 1, sizeof(double));
    int njobs = 0, stopped = 0;
    for (int i = 0; i < r->nturns; i++) {
        pb_solve_turn *t = &r->turns[i];
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
        if (t->end != PB_END_NONE) continue;
        if (val[i]) t->value = val[i] - 2;
        t->nodes_searched = nodes[i], t->seconds = secs[i];
    }
    /* From here on, pb_solve's rules, with pb_solve's code. */
    pb_solve_combine(p, r);
    r->complete = !r->stopped && r->nsolved_classes == r->nturns && r->value != PB_UNKNOWN;
    r->pv_kind = pb_solve_pv_kind;
    if (r->value != PB_UNKNOWN && !r->stopped) {
        if (c->rank == 0) {
            pb_position *q = malloc(sizeof *q);
            for (int i = 0; i < r->nturns; i++) {
                const pb_solve_turn *t = &r->turns[i];
                if (t->end != PB_END_NONE || t->value == PB_UNKNOWN) continue;
                *q = *p;
                pb_route info;
                char err[256];
                if (pb_route_play(f, q, t->nodes, t->len, t->kick, &info, err, sizeof err)) abort();
                pb_solver_learn(s, q, q->to_move == p->to_move ? t->value : -t->value);
            }
            free(q);
            pb_solver_set_limit(s, 0);
            pb_solve_line(f, p, r, line_next, s, no_pv ? 1 : 0);
        }
        share_pv(r, 0, c->rank);
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
