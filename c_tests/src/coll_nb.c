/* coll_nb: the nonblocking collectives. Every MPI_I* collective is started once on its own
 * duplicate of MPI_COMM_WORLD, odd ranks starting them in the reverse order of even ranks
 * (legal: the order only has to agree per communicator), then completed together with
 * MPI_Waitall; then several collectives on one communicator at once (same order
 * everywhere); then long collectives overlapped with computation, driven only by MPI_Test
 * calls in the compute loop. Results are checked element by element. */
#include "check.h"

static int rank, size;

static int v(int r, int i) { return (r * 131 + i * 7) % 1000 - 500; }

/* 2x2 matrices modulo a prime: a non-commutative user operation. */
#define P 1009
static void mat_of(int r, int k, int *m)
{
    m[0] = (r * 3 + k) % 7 + 1;
    m[1] = (r * 5 + 2 * k) % 11;
    m[2] = (r * 2 + 3 * k) % 13;
    m[3] = (r + k) % 5 + 1;
}
static void mat_mul(const int *a, const int *b, int *c)
{
    int t[4];
    t[0] = (a[0] * b[0] + a[1] * b[2]) % P;
    t[1] = (a[0] * b[1] + a[1] * b[3]) % P;
    t[2] = (a[2] * b[0] + a[3] * b[2]) % P;
    t[3] = (a[2] * b[1] + a[3] * b[3]) % P;
    memcpy(c, t, sizeof t);
}
static void matop(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int k = 0; k < *len; k++)
        mat_mul((int *)in + 4 * k, (int *)inout + 4 * k, (int *)inout + 4 * k);
}
static void mat_expect(int lo, int hi, int k, int *m)
{
    int x[4];
    mat_of(lo, k, m);
    for (int r = lo + 1; r < hi; r++) {
        mat_of(r, k, x);
        mat_mul(m, x, m);
    }
}

enum {
    BCAST, REDUCE, ALLREDUCE, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV,
    ALLTOALL, ALLTOALLV, ALLTOALLW, RSCAT, RSCATB, SCAN, EXSCAN, BARRIER, MATRED, NCOLL
};

#define C 37 /* elements per block */

struct bufs {
    int *s, *r;
    int *sc, *sd, *rc, *rd;
    MPI_Datatype *st, *rt;
};

static void start(int which, struct bufs *b, MPI_Comm comm, MPI_Request *req, MPI_Datatype mat,
                  MPI_Op mop)
{
    int root = (which * 3) % size;
    int n = C * size;
    b->s = malloc((size_t)n * 4 * sizeof(int));
    b->r = malloc((size_t)n * 4 * sizeof(int));
    b->sc = malloc(size * sizeof(int));
    b->sd = malloc(size * sizeof(int));
    b->rc = malloc(size * sizeof(int));
    b->rd = malloc(size * sizeof(int));
    b->st = malloc(size * sizeof(MPI_Datatype));
    b->rt = malloc(size * sizeof(MPI_Datatype));
    for (int i = 0; i < n * 4; i++) {
        b->s[i] = v(rank, i);
        b->r[i] = -7777;
    }
    for (int j = 0; j < size; j++) {
        b->sc[j] = (rank + j) % 4 + 1; /* symmetric per pair */
        b->rc[j] = (j + rank) % 4 + 1;
        b->sd[j] = j * C;
        b->rd[j] = j * C;
        b->st[j] = MPI_INT;
        b->rt[j] = MPI_INT;
    }
    switch (which) {
    case BCAST:
        CHECK_MPI(MPI_Ibcast(rank == root ? b->s : b->r, n, MPI_INT, root, comm, req));
        break;
    case REDUCE:
        CHECK_MPI(MPI_Ireduce(b->s, b->r, n, MPI_INT, MPI_SUM, root, comm, req));
        break;
    case ALLREDUCE:
        CHECK_MPI(MPI_Iallreduce(b->s, b->r, n, MPI_INT, MPI_MAX, comm, req));
        break;
    case GATHER:
        CHECK_MPI(MPI_Igather(b->s, C, MPI_INT, b->r, C, MPI_INT, root, comm, req));
        break;
    case GATHERV:
        CHECK_MPI(MPI_Igatherv(b->s, b->sc[root], MPI_INT, b->r, b->rc, b->rd, MPI_INT, root, comm,
                               req));
        break;
    case SCATTER:
        CHECK_MPI(MPI_Iscatter(b->s, C, MPI_INT, b->r, C, MPI_INT, root, comm, req));
        break;
    case SCATTERV:
        CHECK_MPI(MPI_Iscatterv(b->s, b->sc, b->sd, MPI_INT, b->r, b->rc[root], MPI_INT, root, comm,
                                req));
        break;
    case ALLGATHER:
        CHECK_MPI(MPI_Iallgather(b->s, C, MPI_INT, b->r, C, MPI_INT, comm, req));
        break;
    case ALLGATHERV:
        for (int j = 0; j < size; j++)
            b->rc[j] = j % 3 + 1;
        CHECK_MPI(MPI_Iallgatherv(b->s, rank % 3 + 1, MPI_INT, b->r, b->rc, b->rd, MPI_INT, comm,
                                  req));
        break;
    case ALLTOALL:
        CHECK_MPI(MPI_Ialltoall(b->s, C, MPI_INT, b->r, C, MPI_INT, comm, req));
        break;
    case ALLTOALLV:
        CHECK_MPI(MPI_Ialltoallv(b->s, b->sc, b->sd, MPI_INT, b->r, b->rc, b->rd, MPI_INT, comm,
                                 req));
        break;
    case ALLTOALLW:
        for (int j = 0; j < size; j++) {
            b->sd[j] *= (int)sizeof(int);
            b->rd[j] *= (int)sizeof(int);
        }
        CHECK_MPI(MPI_Ialltoallw(b->s, b->sc, b->sd, b->st, b->r, b->rc, b->rd, b->rt, comm, req));
        break;
    case RSCAT:
        for (int j = 0; j < size; j++)
            b->rc[j] = j % 2 + 2;
        CHECK_MPI(MPI_Ireduce_scatter(b->s, b->r, b->rc, MPI_INT, MPI_SUM, comm, req));
        break;
    case RSCATB:
        CHECK_MPI(MPI_Ireduce_scatter_block(b->s, b->r, C, MPI_INT, MPI_MIN, comm, req));
        break;
    case SCAN:
        CHECK_MPI(MPI_Iscan(b->s, b->r, n, MPI_INT, MPI_SUM, comm, req));
        break;
    case EXSCAN:
        CHECK_MPI(MPI_Iexscan(b->s, b->r, n, MPI_INT, MPI_SUM, comm, req));
        break;
    case BARRIER:
        CHECK_MPI(MPI_Ibarrier(comm, req));
        break;
    case MATRED:
        for (int k = 0; k < C; k++)
            mat_of(rank, k, b->s + 4 * k);
        CHECK_MPI(MPI_Ireduce(b->s, b->r, C, mat, mop, root, comm, req));
        break;
    }
}

static long fold(int which, int i, int upto)
{
    long acc = v(0, i);
    for (int r = 1; r < upto; r++) {
        long x = v(r, i);
        if (which == ALLREDUCE)
            acc = x > acc ? x : acc;
        else if (which == RSCATB)
            acc = x < acc ? x : acc;
        else
            acc += x;
    }
    return acc;
}

static void verify(int which, struct bufs *b)
{
    int root = (which * 3) % size;
    int n = C * size;
    switch (which) {
    case BCAST:
        if (rank != root)
            for (int i = 0; i < n; i++)
                CHECK(b->r[i] == v(root, i), "Ibcast: element %d", i);
        break;
    case REDUCE:
        if (rank == root)
            for (int i = 0; i < n; i++)
                CHECK(b->r[i] == fold(REDUCE, i, size), "Ireduce: element %d", i);
        break;
    case ALLREDUCE:
        for (int i = 0; i < n; i++)
            CHECK(b->r[i] == fold(ALLREDUCE, i, size), "Iallreduce: element %d", i);
        break;
    case GATHER:
        if (rank == root)
            for (int j = 0; j < size; j++)
                for (int i = 0; i < C; i++)
                    CHECK(b->r[j * C + i] == v(j, i), "Igather: block %d element %d", j, i);
        break;
    case GATHERV:
        if (rank == root)
            for (int j = 0; j < size; j++)
                for (int i = 0; i < b->rc[j]; i++)
                    CHECK(b->r[j * C + i] == v(j, i), "Igatherv: block %d element %d", j, i);
        break;
    case SCATTER:
        for (int i = 0; i < C; i++)
            CHECK(b->r[i] == v(root, rank * C + i), "Iscatter: element %d", i);
        break;
    case SCATTERV:
        for (int i = 0; i < b->rc[root]; i++)
            CHECK(b->r[i] == v(root, rank * C + i), "Iscatterv: element %d", i);
        break;
    case ALLGATHER:
        for (int j = 0; j < size; j++)
            for (int i = 0; i < C; i++)
                CHECK(b->r[j * C + i] == v(j, i), "Iallgather: block %d element %d", j, i);
        break;
    case ALLGATHERV:
        for (int j = 0; j < size; j++)
            for (int i = 0; i < b->rc[j]; i++)
                CHECK(b->r[j * C + i] == v(j, i), "Iallgatherv: block %d element %d", j, i);
        break;
    case ALLTOALL:
    case ALLTOALLV:
    case ALLTOALLW: {
        int step = which == ALLTOALLW ? (int)sizeof(int) : 1;
        for (int j = 0; j < size; j++) {
            int cnt = which == ALLTOALL ? C : b->rc[j];
            for (int i = 0; i < cnt; i++)
                CHECK(b->r[b->rd[j] / step + i] == v(j, rank * C + i),
                      "Ialltoall%s: block %d element %d", which == ALLTOALL ? "" : "v/w", j, i);
        }
        break;
    }
    case RSCAT: {
        int before = 0;
        for (int j = 0; j < rank; j++)
            before += b->rc[j];
        for (int i = 0; i < b->rc[rank]; i++)
            CHECK(b->r[i] == fold(RSCAT, before + i, size), "Ireduce_scatter: element %d", i);
        break;
    }
    case RSCATB:
        for (int i = 0; i < C; i++)
            CHECK(b->r[i] == fold(RSCATB, rank * C + i, size),
                  "Ireduce_scatter_block: element %d", i);
        break;
    case SCAN:
        for (int i = 0; i < n; i++)
            CHECK(b->r[i] == fold(SCAN, i, rank + 1), "Iscan: element %d", i);
        break;
    case EXSCAN:
        if (rank > 0)
            for (int i = 0; i < n; i++)
                CHECK(b->r[i] == fold(EXSCAN, i, rank), "Iexscan: element %d", i);
        break;
    case MATRED:
        if (rank == root)
            for (int k = 0; k < C; k++) {
                int w[4];
                mat_expect(0, size, k, w);
                CHECK(memcmp(b->r + 4 * k, w, sizeof w) == 0, "Ireduce (matrices): matrix %d",
                      k);
            }
        break;
    }
    free(b->s);
    free(b->r);
    free(b->sc);
    free(b->sd);
    free(b->rc);
    free(b->rd);
    free(b->st);
    free(b->rt);
}

/* Long collectives overlapped with computation; only MPI_Test drives them. */
static void overlap(void)
{
    const int n = 1 << 18; /* 1 MiB of ints */
    int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
    int *c = malloc(n * sizeof(int)), *d = malloc((size_t)n * sizeof(int));
    double *work = malloc(4096 * sizeof(double));
    CHECK(a && b && c && d && work, "malloc");
    for (int i = 0; i < n; i++) {
        a[i] = v(rank, i);
        c[i] = rank == 0 ? v(99, i) : 0;
    }
    for (int i = 0; i < 4096; i++)
        work[i] = i;
    MPI_Comm c1, c2;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c1));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c2));
    MPI_Request rq[3];
    CHECK_MPI(MPI_Iallreduce(a, b, n, MPI_INT, MPI_SUM, c1, &rq[0]));
    CHECK_MPI(MPI_Ibcast(c, n, MPI_INT, 0, c2, &rq[1]));
    CHECK_MPI(MPI_Ialltoall(a, n / size, MPI_INT, d, n / size, MPI_INT, c1, &rq[2]));
    int done[3] = {0, 0, 0}, left = 3;
    long iters = 0;
    double sum = 0;
    while (left > 0) {
        for (int i = 0; i < 4096; i++) /* computation between tests */
            sum += work[i] * 0.5;
        iters++;
        for (int k = 0; k < 3; k++)
            if (!done[k]) {
                CHECK_MPI(MPI_Test(&rq[k], &done[k], MPI_STATUS_IGNORE));
                if (done[k]) {
                    left--;
                    CHECK(rq[k] == MPI_REQUEST_NULL, "a completed request was not freed");
                }
            }
    }
    CHECK(sum == iters * (4095.0 * 4096 / 2) * 0.5, "the computation went wrong");
    for (int i = 0; i < n; i++) {
        CHECK(b[i] == fold(SCAN, i, size), "overlapped Iallreduce: element %d", i);
        CHECK(c[i] == v(99, i), "overlapped Ibcast: element %d", i);
    }
    int per = n / size;
    for (int j = 0; j < size; j++)
        for (int i = 0; i < per; i += 97)
            CHECK(d[j * per + i] == v(j, rank * per + i), "overlapped Ialltoall: block %d", j);
    CHECK_MPI(MPI_Comm_free(&c1));
    CHECK_MPI(MPI_Comm_free(&c2));
    free(a);
    free(b);
    free(c);
    free(d);
    free(work);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype mat;
    MPI_Op mop;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &mat));
    CHECK_MPI(MPI_Type_commit(&mat));
    CHECK_MPI(MPI_Op_create(matop, 0, &mop));

    /* 1. Every nonblocking collective, each on its own communicator, started in opposite
     * orders on even and odd ranks. */
    MPI_Comm comms[NCOLL];
    MPI_Request reqs[NCOLL];
    MPI_Status sts[NCOLL];
    struct bufs b[NCOLL];
    for (int k = 0; k < NCOLL; k++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[k]));
    for (int round = 0; round < 3; round++) {
        for (int t = 0; t < NCOLL; t++) {
            int k = rank % 2 ? NCOLL - 1 - t : t;
            start(k, &b[k], comms[k], &reqs[k], mat, mop);
        }
        CHECK_MPI(MPI_Waitall(NCOLL, reqs, sts));
        for (int k = 0; k < NCOLL; k++)
            verify(k, &b[k]);
    }

    /* 2. All of them in flight at once on one communicator (same order everywhere). */
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < NCOLL; k++)
            start(k, &b[k], comms[0], &reqs[k], mat, mop);
        if (round == 0) {
            CHECK_MPI(MPI_Waitall(NCOLL, reqs, sts));
        } else { /* completed in reverse order, one MPI_Wait each */
            for (int k = NCOLL - 1; k >= 0; k--)
                CHECK_MPI(MPI_Wait(&reqs[k], MPI_STATUS_IGNORE));
        }
        for (int k = 0; k < NCOLL; k++)
            verify(k, &b[k]);
    }
    for (int k = 0; k < NCOLL; k++)
        CHECK_MPI(MPI_Comm_free(&comms[k]));

    /* 3. Overlap with computation. */
    overlap();

    CHECK_MPI(MPI_Op_free(&mop));
    CHECK_MPI(MPI_Type_free(&mat));
    ct_ok("coll_nb");
    MPI_Finalize();
    return 0;
}
