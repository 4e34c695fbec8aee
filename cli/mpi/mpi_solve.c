/* mpi_solve.c - `mpirun -n K paperball solve --mpi`: a job-level search on
 * K processes, compiled only with MPI.  This file is the messaging; the
 * search itself (the top graph, the proof numbers, the choice of jobs) is
 * solver/jobs.c.
 *
 * Rank 0 holds the top of the search (pb_jobs) and hands jobs out; ranks
 * 1 .. K-1 are workers, each with its own table and --threads OpenMP
 * threads (pb_solver_value_budget).  With K = 1 rank 0 does both in turn.
 *
 *   rank 0 -> worker  JOB:    job, budget, the position (packed key),
 *                             then every proven position the worker has not
 *                             been sent yet (packed key, value), so proven
 *                             results reach every table without a message
 *                             of their own
 *   worker -> rank 0  RESULT: job, value (or unknown: out of budget),
 *                             nodes searched, seconds
 *   rank 0 -> worker  STOP:   the end; then the counts are gathered
 *
 * A worker has one job at a time.  When the search is done, the jobs
 * still out are waited for (their answers are true, only no longer
 * needed) before STOP.
 *
 * Why the answers cannot depend on K: every value the graph holds is the
 * exact value of a position or follows from such values by the rules
 * (jobs.c argues it), whichever process found it; the first-turn values
 * are read from the graph, and the root's value, the best turn and the
 * line follow by pb_solve's own code (pb_solve_root_turns,
 * pb_solve_combine, pb_solve_line with pb_solver_best_route on rank 0's
 * table after it learnt the proven positions), the same rule on exact
 * values as one process.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../solver/jobs.h"
#include "../../solver/posset.h"
#include "../cli.h"
#include "../cluster.h"

enum { TAG_JOB = 1, TAG_RESULT, TAG_STOP };

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What one process did (gathered on rank 0). */
typedef struct rank_counts {
    double idle, busy; /* seconds waiting for a message / solving jobs */
    uint64_t nodes, jobs, messages, bytes;
} rank_counts;

/* A job message into buf (words): job, budget, nlearn, the position, then
 * nlearn pairs (key, value + 2); returns its length in words. */
static size_t job_message(pb_jobs *j, const pb_field *f, long id, uint64_t budget, const pb_position *p, size_t *cursor,
                          uint64_t **buf, size_t *cap) {
    int kw = f->nwords + 1;
    size_t nlearn = pb_jobs_log_size(j) - *cursor, n = 3 + (size_t)kw + nlearn * (size_t)(kw + 1);
    if (n > *cap) {
        *cap = 2 * n;
        *buf = realloc(*buf, sizeof(uint64_t) * *cap);
        if (!*buf) abort();
    }
    uint64_t *w = *buf;
    w[0] = (uint64_t)id, w[1] = budget, w[2] = nlearn;
    pb_position_pack(f, p, w + 3);
    uint64_t *e = w + 3 + kw;
    pb_position q;
    for (; *cursor < pb_jobs_log_size(j); (*cursor)++, e += kw + 1) {
        int v;
        pb_jobs_log_get(j, *cursor, &q, &v);
        pb_position_pack(f, &q, e);
        e[kw] = (uint64_t)(v + 2);
    }
    return n;
}

/* A worker's loop: jobs until STOP. */
static void worker_loop(const pb_field *f, pb_solver *s, rank_counts *rc, double deadline) {
    int kw = f->nwords + 1;
    uint64_t *buf = NULL;
    size_t cap = 0;
    pb_position p, q;
    for (;;) {
        MPI_Status st;
        double t0 = MPI_Wtime();
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        int n;
        MPI_Get_count(&st, MPI_UINT64_T, &n);
        if ((size_t)n + 1 > cap) {
            cap = 2 * (size_t)n + 1;
            buf = realloc(buf, sizeof(uint64_t) * cap);
            if (!buf) abort();
        }
        MPI_Recv(buf, n, MPI_UINT64_T, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        rc->idle += MPI_Wtime() - t0;
        rc->messages++, rc->bytes += 8 * (uint64_t)n;
        if (st.MPI_TAG == TAG_STOP) break;
        double t1 = MPI_Wtime();
        uint64_t nlearn = buf[2], *e = buf + 3 + kw;
        for (uint64_t i = 0; i < nlearn; i++, e += kw + 1) {
            pb_position_unpack(f, e, &q);
            pb_solver_learn(s, &q, (int)e[kw] - 2);
        }
        pb_position_unpack(f, buf + 3, &p);
        double left = deadline > 0 ? deadline - MPI_Wtime() : 0;
        pb_solver_set_limit(s, deadline > 0 ? (left > 0.001 ? left : 0.001) : 0);
        uint64_t n0 = pb_solver_nodes(s);
        int v = pb_solver_value_budget(s, &p, buf[1]);
        double out[4] = {(double)buf[0], (double)v, (double)(pb_solver_nodes(s) - n0), MPI_Wtime() - t1};
        rc->busy += out[3];
        rc->jobs++;
        MPI_Send(out, 4, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
        rc->messages++, rc->bytes += sizeof out;
    }
    free(buf);
}

static int line_next(void *ctx, pb_position *q, int16_t *nodes, int cap, int *kick) {
    int v;
    return pb_solver_best_route(ctx, q, nodes, cap, kick, &v);
}

/* Rank 0 alone: its table learns what the top proved since *cursor, then
 * it solves the job at p itself.  The job's value (PB_UNKNOWN: out of
 * budget). */
static int solve_alone(pb_jobs *j, pb_solver *s, const pb_position *p, const pb_cluster_solve_opts *o, double deadline,
                       size_t *cursor, rank_counts *rc) {
    pb_position q;
    for (; *cursor < pb_jobs_log_size(j); (*cursor)++) {
        int lv;
        pb_jobs_log_get(j, *cursor, &q, &lv);
        pb_solver_learn(s, &q, lv);
    }
    double left = deadline > 0 ? deadline - MPI_Wtime() : 0;
    pb_solver_set_limit(s, deadline > 0 ? (left > 0.001 ? left : 0.001) : 0);
    double t1 = MPI_Wtime();
    int v = pb_solver_value_budget(s, p, o->job_nodes);
    rc->busy += MPI_Wtime() - t1;
    rc->jobs++;
    return v;
}

/* Rank 0: the next result of any worker, its job *id and value *v.
 * Returns the worker's rank. */
static int receive_result(const pb_cluster_solve_opts *o, rank_counts *rc, long *id, int *v) {
    double r[4];
    MPI_Status st;
    double t0 = MPI_Wtime();
    MPI_Recv(r, 4, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
    rc->idle += MPI_Wtime() - t0;
    rc->messages++, rc->bytes += sizeof r;
    *id = (long)r[0], *v = (int)r[1];
    if (o->progress)
        fprintf(o->progress, "solve: rank %d: job %ld %s, %.0f nodes, %.3f s\n", st.MPI_SOURCE, *id,
                *v == PB_UNKNOWN ? "out of budget" : pb_value_name(*v), r[2], r[3]);
    return st.MPI_SOURCE;
}

/* Rank 0: the search, handing out jobs (or, alone, doing them). */
static int lead_loop(const pb_cluster *c, const pb_field *f, pb_jobs *j, pb_solver *s, const pb_cluster_solve_opts *o,
                     double deadline, rank_counts *rc, double *cpu, int *stopped) {
    int K = c->nranks;
    long *busy = malloc(sizeof(long) * (size_t)K);
    size_t *cursor = calloc((size_t)K, sizeof *cursor), cap = 0, noted = 0;
    uint64_t *buf = NULL;
    pb_position p, q;
    int err = 0;
    for (int w = 0; w < K; w++) busy[w] = -1;
    for (;;) {
        int out = 0;
        if ((o->stop && *o->stop) || (deadline > 0 && MPI_Wtime() > deadline)) *stopped = 1;
        for (int w = K > 1 ? 1 : 0; w < K && !*stopped && !err; w++) {
            if (busy[w] >= 0) continue;
            double c0 = cpu_now();
            long id = pb_jobs_next(j, w, &p);
            *cpu += cpu_now() - c0;
            if (id == PB_JOBS_ERROR) err = 1;
            if (id < 0) continue;
            busy[w] = id;
            if (K == 1) continue;
            c0 = cpu_now();
            size_t n = job_message(j, f, id, o->job_nodes, &p, &cursor[w], &buf, &cap);
            *cpu += cpu_now() - c0;
            MPI_Send(buf, (int)n, MPI_UINT64_T, w, TAG_JOB, MPI_COMM_WORLD);
            rc->messages++, rc->bytes += 8 * n;
        }
        for (int w = 0; w < K; w++) out += busy[w] >= 0;
        if (!out) break; /* done, stopped, failed, or (impossible) nothing to do */
        long id;
        int v;
        if (K == 1) {
            id = busy[0]; /* its position is still in p */
            v = solve_alone(j, s, &p, o, deadline, &cursor[0], rc);
            busy[0] = -1;
        } else {
            int w = receive_result(o, rc, &id, &v);
            busy[w] = -1;
        }
        double c0 = cpu_now();
        if (pb_jobs_result(j, id, v)) err = 1;
        *cpu += cpu_now() - c0;
        /* Every position the top proved goes into the checkpoint (kept
         * whatever its work: the top is what a restart rebuilds first). */
        for (; o->proven && noted < pb_jobs_log_size(j); noted++) {
            int lv;
            pb_jobs_log_get(j, noted, &q, &lv);
            pb_proven_note(o->proven, &q, lv, lv, 8, PB_PROVEN_PINNED);
        }
    }
    for (int w = 1; w < K; w++) {
        MPI_Send(NULL, 0, MPI_UINT64_T, w, TAG_STOP, MPI_COMM_WORLD);
        rc->messages++;
    }
    free(busy);
    free(cursor);
    free(buf);
    return err ? -1 : 0;
}

/* Rank 0's answer once the jobs are done: the value (and with first_turns
 * every class's) from the jobs' log, and unless stopped the line, which
 * rank 0's table finds once it has learnt every proven position. */
static void rank0_answer(const pb_field *f, const pb_position *p, pb_jobs *j, pb_solver *s,
                         const pb_cluster_solve_opts *o, int stopped, pb_solve_result *r) {
    pb_position q;
    if (o->first_turns) {
        pb_solve_root_turns(f, p, 0, NULL, NULL, r);
        for (int i = 0; i < r->nturns; i++) {
            pb_solve_turn *t = &r->turns[i];
            if (t->end != PB_END_NONE) continue;
            q = *p;
            pb_route info;
            char e[256];
            if (pb_route_play(f, &q, t->nodes, t->len, t->kick, &info, e, sizeof e)) abort();
            int v = pb_jobs_value(j, &q);
            if (v != PB_UNKNOWN) t->value = q.to_move == p->to_move ? v : -v;
        }
        pb_solve_combine(p, r);
    } else {
        pb_position m;
        pb_position_mirror(f, p, &m, 1, 0);
        r->mirror_lr = pb_position_equal(f, p, &m);
        r->value = pb_jobs_value(j, p);
    }
    r->stopped = stopped;
    r->complete = !r->stopped && r->value != PB_UNKNOWN && (!o->first_turns || r->nsolved_classes == r->nturns);
    r->pv_kind = pb_solve_pv_kind;
    if (r->value != PB_UNKNOWN && !r->stopped) {
        for (size_t i = 0; i < pb_jobs_log_size(j); i++) {
            int v;
            pb_jobs_log_get(j, i, &q, &v);
            pb_solver_learn(s, &q, v);
        }
        pb_solver_set_limit(s, 0);
        pb_solve_line(f, p, r, line_next, s, 0);
    }
}

/* The counts of every process, gathered on rank 0 into cs and r (nodes,
 * peak memory, rate; hash: the table size of each), and the seconds since
 * t0. */
static void gather_counts(const pb_cluster *c, const rank_counts *rc, size_t hash, double t0, pb_solve_result *r,
                          pb_cluster_stats *cs) {
    int K = c->nranks;
    cs->nranks = K;
    double mine[7] = {rc->idle,
                      rc->busy,
                      (double)rc->nodes,
                      (double)rc->jobs,
                      (double)rc->messages,
                      (double)rc->bytes,
                      (double)pb_peak_rss()};
    double *all = c->rank == 0 ? malloc(sizeof(double) * 7 * (size_t)K) : NULL;
    MPI_Gather(mine, 7, MPI_DOUBLE, all, 7, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    r->seconds = MPI_Wtime() - t0;
    if (c->rank == 0) {
        cs->ranks = calloc((size_t)K, sizeof *cs->ranks);
        uint64_t nodes = 0;
        size_t rss = 0;
        for (int k = 0; k < K; k++) {
            pb_cluster_rank *x = &cs->ranks[k];
            x->idle = all[7 * k], x->busy = all[7 * k + 1];
            x->nodes = (uint64_t)all[7 * k + 2], x->jobs = (uint64_t)all[7 * k + 3];
            x->messages = (uint64_t)all[7 * k + 4], x->bytes = (uint64_t)all[7 * k + 5];
            nodes += x->nodes;
            if ((size_t)all[7 * k + 6] > rss) rss = (size_t)all[7 * k + 6];
        }
        r->nodes = nodes;
        r->peak_rss = rss;
        r->rate = r->seconds > 0 ? (double)nodes / r->seconds : 0;
        r->tt_bytes = hash; /* the table statistics stay 0 */
    }
    free(all);
}

int pb_cluster_solve(const pb_cluster *c, const pb_field *f, const pb_position *p, const pb_cluster_solve_opts *o,
                     pb_solve_result *r, pb_cluster_stats *cs) {
    memset(r, 0, sizeof *r);
    memset(cs, 0, sizeof *cs);
    r->value = PB_UNKNOWN;
    r->threads = o->threads > 0 ? o->threads : 1;
    double t0 = MPI_Wtime(), deadline = o->time_limit > 0 ? t0 + o->time_limit : 0;
    size_t hash = o->hash_bytes ? o->hash_bytes : pb_solve_default_hash(f, p);
    /* Rank 0 with workers searches only the line: one thread. */
    pb_solver *s = pb_solver_new_threads(f, hash, c->rank == 0 && c->nranks > 1 ? 1 : r->threads);
    pb_jobs *j = c->rank == 0 ? pb_jobs_new(f, p, o->first_turns, o->proven) : NULL;
    if (s) pb_solver_set_proven(s, o->proven);
    int bad = !s || (c->rank == 0 && !j), anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (anybad) {
        pb_solver_free(s);
        pb_jobs_free(j);
        return -1;
    }
    rank_counts rc = {0};
    int stopped = 0, err = 0;
    double cpu = 0;
    if (c->rank == 0) err = lead_loop(c, f, j, s, o, deadline, &rc, &cpu, &stopped);
    else worker_loop(f, s, &rc, deadline);
    rc.nodes = pb_solver_nodes(s);

    if (c->rank == 0) {
        rank0_answer(f, p, j, s, o, stopped || err, r);
        pb_jobs_get_stats(j, &cs->jobs);
        cs->rank0_cpu = cpu;
    }
    int sv[2] = {r->value, r->stopped};
    MPI_Bcast(sv, 2, MPI_INT, 0, MPI_COMM_WORLD);
    r->value = sv[0], r->stopped = sv[1];

    gather_counts(c, &rc, hash, t0, r, cs);
    pb_jobs_free(j);
    pb_solver_free(s);
    return 0;
}

void pb_cluster_stats_free(pb_cluster_stats *cs) {
    free(cs->ranks);
    cs->ranks = NULL;
}
