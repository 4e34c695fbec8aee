/* mpi_enumerate.c - the MPI hooks of a distributed enumeration
 * (`mpirun -n K paperball enumerate --mpi`), compiled only with MPI.
 *
 * Every process runs the same breadth-first loop of enumerate/enumerate.c.
 * Each distinct position of F(d) is owned by one process, pb_enum_owner():
 * a hash of the least of its four mirror images, modulo K.  A process
 * expands the positions it owns into a local set of successors (equal
 * positions merged, counts added exactly); the exchange below then sends
 * every successor, whole (packed key + exact count), to its owner, which
 * adds it to its part of F(d+1).
 *
 * Why the answers cannot depend on K: the parts of F(d+1) are disjoint
 * (one owner per position) and their union is F(d+1), because every
 * successor reaches its owner and positions are merged by comparing whole
 * keys, never hashes; a multiplicity is the exact sum of the counts sent
 * for it (addition does not care about order or grouping).  Every figure
 * of a row is a sum over positions (|F(d)|, perft, outcomes) or over
 * classes, and a class never straddles two processes (the owner is a
 * function of the class), so the per-process class counts, made with the
 * same local lookups as one process, add up to the global ones.  Sums of
 * uint64 and of exact GMP integers are the same for any split: the rows,
 * and so the output, are those of one process.
 *
 * Memory: the budget (--memory) is per process; the exchange goes in
 * rounds, and in a round a process hands at most CHUNK_WORDS words (plus
 * the one entry that crosses the mark) to the others, split by owner.  A
 * round is K - 1 steps: in step s, process r sends its words for r + s
 * and receives those of r - s (mod K), one source at a time, so the
 * receive buffer never holds more than one sender's round: CHUNK_WORDS
 * words plus one entry, 8 MiB and a few hundred bytes, whatever K is.
 * The send side holds the same bound in all (the per-owner buffers are
 * freed once sent), plus 24 bytes of buffer header per process.  These
 * buffers are not charged to the --memory budget.  Messages per process
 * and round: 2 (K - 1) point-to-point (a length, then the words) and one
 * all-reduce.
 *
 * Checkpoints (--checkpoint, --resume): every process saves its share of
 * F(d) with the rows in a file of its own after each depth; the protocol
 * that keeps a depth saved by all of them on disk whenever a process is
 * killed is in enumerate/enumerate.c (save, resume_dist).
 */
#include <assert.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../../enumerate/frontier.h"
#include "../cli.h"
#include "../cluster.h"

#define CHUNK_WORDS ((size_t)1 << 20)

int pb_cluster_start(pb_cluster *c) {
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        pb_fail(PB_EXIT_FAIL, "MPI_Init failed");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c->nranks);
    return 0;
}

void pb_cluster_end(pb_cluster *c) {
    (void)c;
    MPI_Finalize();
}

long long pb_cluster_max(const pb_cluster *c, long long v) {
    (void)c;
    long long m = v;
    MPI_Allreduce(&v, &m, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

/* Sums v[0..n-1] over the processes: each exports its values, all gather
 * all, each adds them up (exactly, in rank order). */
static void sum_mpz(void *ctx, mpz_t *v, int n) {
    pb_cluster *c = ctx;
    pb_fwords out = {0};
    for (int i = 0; i < n; i++) {
        if (mpz_sgn(v[i]) == 0) pb_fwords_push(&out, 0);
        else pb_frontier_put_count(&out, (pb_fcount){0, v[i]});
    }
    int len = (int)out.n, *lens = malloc(sizeof(int) * (size_t)c->nranks),
        *displs = malloc(sizeof(int) * (size_t)c->nranks);
    MPI_Allgather(&len, 1, MPI_INT, lens, 1, MPI_INT, MPI_COMM_WORLD);
    size_t total = 0;
    for (int r = 0; r < c->nranks; r++) displs[r] = (int)total, total += (size_t)lens[r];
    uint64_t *all = malloc(sizeof(uint64_t) * (total ? total : 1));
    MPI_Allgatherv(out.w, len, MPI_UINT64_T, all, lens, displs, MPI_UINT64_T, MPI_COMM_WORLD);
    mpz_t t;
    mpz_init(t);
    for (int i = 0; i < n; i++) mpz_set_ui(v[i], 0);
    for (int r = 0; r < c->nranks; r++) {
        const uint64_t *p = all + displs[r];
        for (int i = 0; i < n; i++) pb_fcount_add_to(v[i], pb_frontier_get_count(&p, t));
        assert(p == all + displs[r] + lens[r]);
    }
    mpz_clear(t);
    free(all);
    free(lens);
    free(displs);
    pb_fwords_free(&out);
}

static void sum_u64(void *ctx, uint64_t *v, int n) {
    (void)ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

static int owner_of(void *ctx, const uint64_t *key) {
    const pb_cluster *c = ctx;
    return pb_enum_owner(c->field, key, c->nranks);
}

/* Sends every entry of *next to its owner (pb_enum_owner) in rounds, and
 * replaces *next by this process's part.  The frontier packs and unpacks
 * the entries (its wire format); here they are only moved. */
static int exchange(void *ctx, pb_frontier **next, int stop) {
    pb_cluster *c = ctx;
    int K = c->nranks, global = 0;
    MPI_Allreduce(&stop, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (global || !*next) return global;
    pb_frontier *in = *next, *out = pb_frontier_new(in->kw, in->small_max, in->mem);
    int failed = !out;
    pb_fwords *buf = calloc((size_t)K, sizeof(pb_fwords));
    uint64_t *recv = NULL;
    size_t recvcap = 0;
    mpz_t t;
    mpz_init(t);
    pb_fcursor at = {0, 0};
    for (;;) {
        /* One round: successors owned here go straight into out. */
        for (int r = 0; r < K; r++) buf[r].n = 0;
        int more = pb_frontier_split(in, &at, c->rank, owner_of, c, out, buf, CHUNK_WORDS, &failed);
        for (int step = 1; step < K; step++) {
            int to = (c->rank + step) % K, from = (c->rank - step + K) % K;
            uint64_t nout = buf[to].n, nin = 0;
            MPI_Sendrecv(&nout, 1, MPI_UINT64_T, to, 1, &nin, 1, MPI_UINT64_T, from, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            if (nin > recvcap) {
                recvcap = nin;
                recv = realloc(recv, sizeof(uint64_t) * recvcap);
                if (!recv) abort();
            }
            MPI_Sendrecv(buf[to].w, (int)nout, MPI_UINT64_T, to, 2, recv, (int)nin, MPI_UINT64_T, from, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            pb_fwords_free(&buf[to]);
            if (!failed && pb_frontier_take(out, recv, recv + nin, t) < 0) failed = 1;
        }
        int anymore = 0;
        MPI_Allreduce(&more, &anymore, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (!anymore) break;
    }
    mpz_clear(t);
    for (int r = 0; r < K; r++) pb_fwords_free(&buf[r]);
    free(buf);
    free(recv);
    if (out) {
        pb_frontier_free(in);
        *next = out;
    }
    int anyfailed = 0;
    MPI_Allreduce(&failed, &anyfailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return anyfailed ? 1 : 0;
}

void pb_cluster_enum_dist(pb_cluster *c, const pb_field *f, pb_enum_dist *d) {
    c->field = f;
    memset(d, 0, sizeof *d);
    d->rank = c->rank;
    d->nranks = c->nranks;
    d->ctx = c;
    d->exchange = exchange;
    d->sum_u64 = sum_u64;
    d->sum_mpz = sum_mpz;
}
