/* Every blocking and nonblocking collective on intercommunicators (MPI-3.1 §5.2.2), for
 * each way intercomm.h builds them: rooted ones with MPI_ROOT / MPI_PROC_NULL in the root's
 * group and every root of both groups, all-to-all ones between the groups, reductions with
 * a non-commutative operation (2x2 matrix products, which show the order), small and
 * large (rendezvous) messages, a non-contiguous datatype; and the error classes of the
 * collectives MPI forbids there (scan, exscan, neighbourhood) and of bad roots. Every
 * received byte is checked, and PROC_NULL processes' buffers must stay untouched. */
#include "intercomm.h"

#define SMALL 10
#define LARGE 70000 /* ints: 280 KB, past the eager limit */
#define POISON (-777)

static int nb; /* 1: the nonblocking form of each call */
static MPI_Request req;

/* Run the blocking call, or its nonblocking form and wait for it. */
#define COLL(blocking, nonblocking)                                                   \
    do {                                                                              \
        if (nb) {                                                                     \
            CHECK_MPI(nonblocking);                                                   \
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));                             \
        } else {                                                                      \
            CHECK_MPI(blocking);                                                      \
        }                                                                             \
    } while (0)

/* The value a process contributes: by group, local rank and index. */
static int val(int group, int rank, int i)
{
    return (group + 1) * 1000003 + rank * 10007 + i * 3;
}

static int *ints(size_t n, int fill)
{
    int *p = malloc((n ? n : 1) * sizeof(int));
    CHECK(p, "malloc");
    for (size_t i = 0; i < n; i++)
        p[i] = fill;
    return p;
}

/* 2x2 matrices of unsigned ints (mod 2^32): inout = in x inout, associative and not
 * commutative. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *ty)
{
    (void)ty;
    unsigned *a = in, *b = inout;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        unsigned c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

static void mat_of(int group, int rank, int k, unsigned *m)
{
    m[0] = (unsigned)val(group, rank, k);
    m[1] = (unsigned)(rank + 2 * k + 1);
    m[2] = (unsigned)(group * 7 + k);
    m[3] = 3u + (unsigned)rank;
}

/* The product, in rank order, of group g's matrices (n members), element k. */
static void mat_product(int g, int n, int k, unsigned *out)
{
    mat_of(g, 0, k, out);
    for (int r = 1; r < n; r++) {
        unsigned m[4], t[4];
        mat_of(g, r, k, m);
        memcpy(t, out, sizeof t);
        int one = 1;
        /* out = t x m: matmul computes inout = in x inout. */
        memcpy(out, m, sizeof m);
        matmul(t, out, &one, NULL);
    }
}

static void check_barrier(const ct_inter *ic)
{
    /* A process of one group enters late; no process of the other may leave before. */
    for (int slow = 0; slow < 2; slow++) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = MPI_Wtime();
        if (ic->group == slow && ic->lrank == ic->lsize - 1)
            ct_sleep_ms(200);
        COLL(MPI_Barrier(ic->inter), MPI_Ibarrier(ic->inter, &req));
        double dt = MPI_Wtime() - t0;
        if (ic->group != slow)
            CHECK(dt > 0.15, "left the barrier after %.3f s, before the late remote process",
                  dt);
    }
}

static void check_bcast(const ct_inter *ic, MPI_Datatype vec)
{
    for (int n = SMALL; n <= LARGE; n += LARGE - SMALL) {
        for (int rg = 0; rg < 2; rg++) {
            int rsz = rg == ic->group ? ic->lsize : ic->rsize;
            for (int root = 0; root < rsz; root++) {
                int *buf = ints(n, POISON);
                int arg;
                if (ic->group == rg) {
                    arg = ic->lrank == root ? MPI_ROOT : MPI_PROC_NULL;
                    if (ic->lrank == root)
                        for (int i = 0; i < n; i++)
                            buf[i] = val(rg, root, i);
                } else {
                    arg = root;
                }
                COLL(MPI_Bcast(buf, n, MPI_INT, arg, ic->inter),
                     MPI_Ibcast(buf, n, MPI_INT, arg, ic->inter, &req));
                for (int i = 0; i < n; i++) {
                    int want = arg == MPI_PROC_NULL ? POISON : val(rg, root, i);
                    CHECK(buf[i] == want, "bcast n=%d root %d/%d: [%d]=%d, expected %d", n, rg,
                          root, i, buf[i], want);
                }
                free(buf);
            }
        }
    }
    /* A non-contiguous type: every other int of 2*SMALL; the gaps stay untouched. */
    int buf[2 * SMALL];
    for (int i = 0; i < 2 * SMALL; i++)
        buf[i] = (ic->group == 0 && ic->lrank == 0 && i % 2 == 0) ? val(0, 0, i) : POISON;
    int arg = ic->group == 0 ? (ic->lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    COLL(MPI_Bcast(buf, 1, vec, arg, ic->inter), MPI_Ibcast(buf, 1, vec, arg, ic->inter, &req));
    for (int i = 0; i < 2 * SMALL; i++) {
        int want = (i % 2 == 0 && arg != MPI_PROC_NULL) ? val(0, 0, i) : POISON;
        CHECK(buf[i] == want, "vector bcast [%d]=%d, expected %d", i, buf[i], want);
    }
}

static void check_reduce(const ct_inter *ic, MPI_Op mat, MPI_Datatype m4)
{
    for (int n = SMALL; n <= LARGE; n += LARGE - SMALL) {
        int *in = ints(n, 0), *out = ints(n, POISON);
        for (int i = 0; i < n; i++)
            in[i] = val(ic->group, ic->lrank, i);
        for (int rg = 0; rg < 2; rg++) {
            int rsz = rg == ic->group ? ic->lsize : ic->rsize;
            for (int root = 0; root < rsz; root += rsz > 2 ? rsz - 1 : 1) {
                int arg = ic->group == rg ? (ic->lrank == root ? MPI_ROOT : MPI_PROC_NULL) : root;
                for (int i = 0; i < n; i++)
                    out[i] = POISON;
                COLL(MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, arg, ic->inter),
                     MPI_Ireduce(in, out, n, MPI_INT, MPI_SUM, arg, ic->inter, &req));
                for (int i = 0; i < n; i++) {
                    int want = POISON;
                    if (arg == MPI_ROOT) {
                        want = 0;
                        for (int j = 0; j < ic->rsize; j++)
                            want += val(!ic->group, j, i);
                    }
                    CHECK(out[i] == want, "reduce n=%d root %d/%d: [%d]=%d, expected %d", n, rg,
                          root, i, out[i], want);
                }
            }
        }
        free(in);
        free(out);
    }
    /* Non-commutative: the remote group's matrices multiplied in rank order. */
    enum { K = 3 };
    unsigned a[4 * K], b[4 * K], want[4];
    for (int k = 0; k < K; k++)
        mat_of(ic->group, ic->lrank, k, a + 4 * k);
    int arg = ic->group == 1 ? (ic->lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    memset(b, 0, sizeof b);
    COLL(MPI_Reduce(a, b, K, m4, mat, arg, ic->inter),
         MPI_Ireduce(a, b, K, m4, mat, arg, ic->inter, &req));
    if (arg == MPI_ROOT)
        for (int k = 0; k < K; k++) {
            mat_product(0, ic->rsize, k, want);
            CHECK(!memcmp(b + 4 * k, want, sizeof want), "matrix reduce: element %d wrong", k);
        }
}

static void check_allreduce(const ct_inter *ic, MPI_Op mat, MPI_Datatype m4)
{
    for (int n = SMALL; n <= LARGE; n += LARGE - SMALL) {
        int *in = ints(n, 0), *out = ints(n, POISON);
        for (int i = 0; i < n; i++)
            in[i] = val(ic->group, ic->lrank, i);
        COLL(MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, ic->inter),
             MPI_Iallreduce(in, out, n, MPI_INT, MPI_SUM, ic->inter, &req));
        for (int i = 0; i < n; i++) {
            int want = 0;
            for (int j = 0; j < ic->rsize; j++)
                want += val(!ic->group, j, i);
            CHECK(out[i] == want, "allreduce n=%d: [%d]=%d, expected %d", n, i, out[i], want);
        }
        free(in);
        free(out);
    }
    enum { K = 2 };
    unsigned a[4 * K], b[4 * K], want[4];
    for (int k = 0; k < K; k++)
        mat_of(ic->group, ic->lrank, k, a + 4 * k);
    COLL(MPI_Allreduce(a, b, K, m4, mat, ic->inter),
         MPI_Iallreduce(a, b, K, m4, mat, ic->inter, &req));
    for (int k = 0; k < K; k++) {
        mat_product(!ic->group, ic->rsize, k, want);
        CHECK(!memcmp(b + 4 * k, want, sizeof want), "matrix allreduce: element %d wrong", k);
    }
}

/* Gather(v) and scatter(v) with every root; v-forms use counts j + 1 at displacements in
 * reverse order with a gap of one. */
static void check_gather_scatter(const ct_inter *ic)
{
    for (int rg = 0; rg < 2; rg++) {
        int rsz = rg == ic->group ? ic->lsize : ic->rsize;
        for (int root = 0; root < rsz; root++) {
            int here = ic->group == rg;
            int arg = here ? (ic->lrank == root ? MPI_ROOT : MPI_PROC_NULL) : root;
            int R = ic->rsize, me = ic->lrank;
            /* gather: SMALL ints from each remote process */
            int send[SMALL + CT_MAXP], *all = ints((size_t)R * (SMALL + CT_MAXP + 1), POISON);
            for (int i = 0; i < SMALL + CT_MAXP; i++)
                send[i] = val(ic->group, me, i);
            COLL(MPI_Gather(send, SMALL, MPI_INT, all, SMALL, MPI_INT, arg, ic->inter),
                 MPI_Igather(send, SMALL, MPI_INT, all, SMALL, MPI_INT, arg, ic->inter, &req));
            if (arg == MPI_ROOT)
                for (int j = 0; j < R; j++)
                    for (int i = 0; i < SMALL; i++)
                        CHECK(all[j * SMALL + i] == val(!rg, j, i), "gather from %d [%d]", j, i);
            else if (here)
                CHECK(all[0] == POISON, "gather wrote at a PROC_NULL process");
            /* gatherv */
            int counts[CT_MAXP], displs[CT_MAXP], off = 0;
            for (int j = R - 1; j >= 0; j--) {
                counts[j] = j + 1;
                displs[j] = off;
                off += counts[j] + 1;
            }
            for (int i = 0; i < R * (SMALL + CT_MAXP + 1); i++)
                all[i] = POISON;
            int scount = here ? 0 : me + 1;
            COLL(MPI_Gatherv(send, scount, MPI_INT, all, counts, displs, MPI_INT, arg, ic->inter),
                 MPI_Igatherv(send, scount, MPI_INT, all, counts, displs, MPI_INT, arg, ic->inter,
                              &req));
            if (arg == MPI_ROOT)
                for (int j = 0; j < R; j++) {
                    for (int i = 0; i < counts[j]; i++)
                        CHECK(all[displs[j] + i] == val(!rg, j, i), "gatherv from %d [%d]", j, i);
                    CHECK(all[displs[j] + counts[j]] == POISON, "gatherv gap after %d", j);
                }
            /* scatter: block j (SMALL ints) to remote j */
            int got[SMALL + CT_MAXP];
            for (int j = 0; j < R * SMALL; j++)
                all[j] = val(rg, root, j);
            for (int i = 0; i < SMALL + CT_MAXP; i++)
                got[i] = POISON;
            COLL(MPI_Scatter(all, SMALL, MPI_INT, got, SMALL, MPI_INT, arg, ic->inter),
                 MPI_Iscatter(all, SMALL, MPI_INT, got, SMALL, MPI_INT, arg, ic->inter, &req));
            for (int i = 0; i < SMALL; i++) {
                int want = here ? POISON : val(rg, root, me * SMALL + i);
                CHECK(got[i] == want, "scatter [%d]=%d, expected %d", i, got[i], want);
            }
            /* scatterv with the gatherv layout */
            for (int i = 0; i < R * (SMALL + CT_MAXP + 1); i++)
                all[i] = val(rg, root, i);
            for (int i = 0; i < SMALL + CT_MAXP; i++)
                got[i] = POISON;
            int rcount = here ? 0 : me + 1;
            COLL(MPI_Scatterv(all, counts, displs, MPI_INT, got, rcount, MPI_INT, arg, ic->inter),
                 MPI_Iscatterv(all, counts, displs, MPI_INT, got, rcount, MPI_INT, arg,
                               ic->inter, &req));
            if (!here) {
                /* The root's layout is for its remote group, which is ours. */
                int d = 0;
                for (int j = ic->lsize - 1; j > me; j--)
                    d += j + 2;
                for (int i = 0; i < me + 1; i++)
                    CHECK(got[i] == val(rg, root, d + i), "scatterv [%d]=%d", i, got[i]);
                CHECK(got[me + 1] == POISON, "scatterv wrote past its count");
            } else {
                CHECK(got[0] == POISON, "scatterv wrote at a root-group process");
            }
            free(all);
        }
    }
}

static void check_allgather(const ct_inter *ic)
{
    int R = ic->rsize, me = ic->lrank;
    int send[CT_MAXP + SMALL], *all = ints((size_t)R * (SMALL + CT_MAXP + 1), POISON);
    for (int i = 0; i < CT_MAXP + SMALL; i++)
        send[i] = val(ic->group, me, i);
    COLL(MPI_Allgather(send, SMALL, MPI_INT, all, SMALL, MPI_INT, ic->inter),
         MPI_Iallgather(send, SMALL, MPI_INT, all, SMALL, MPI_INT, ic->inter, &req));
    for (int j = 0; j < R; j++)
        for (int i = 0; i < SMALL; i++)
            CHECK(all[j * SMALL + i] == val(!ic->group, j, i), "allgather from %d [%d]", j, i);
    int counts[CT_MAXP], displs[CT_MAXP], off = 0;
    for (int j = R - 1; j >= 0; j--) {
        counts[j] = j + 2;
        displs[j] = off;
        off += counts[j] + 1;
    }
    for (int i = 0; i < R * (SMALL + CT_MAXP + 1); i++)
        all[i] = POISON;
    COLL(MPI_Allgatherv(send, me + 2, MPI_INT, all, counts, displs, MPI_INT, ic->inter),
         MPI_Iallgatherv(send, me + 2, MPI_INT, all, counts, displs, MPI_INT, ic->inter, &req));
    for (int j = 0; j < R; j++) {
        for (int i = 0; i < counts[j]; i++)
            CHECK(all[displs[j] + i] == val(!ic->group, j, i), "allgatherv from %d [%d]", j, i);
        CHECK(all[displs[j] + counts[j]] == POISON, "allgatherv gap after %d", j);
    }
    free(all);
}

/* Elements process (group g, rank s) sends remote rank d in the v-forms. */
static int vcount(int g, int s, int d)
{
    return 1 + (s + 2 * d + g) % 3;
}

static void check_alltoall(const ct_inter *ic)
{
    int R = ic->rsize, me = ic->lrank, g = ic->group;
    int *s = ints((size_t)R * SMALL, 0), *r = ints((size_t)R * SMALL, POISON);
    for (int d = 0; d < R; d++)
        for (int i = 0; i < SMALL; i++)
            s[d * SMALL + i] = val(g, me, d * 100 + i);
    COLL(MPI_Alltoall(s, SMALL, MPI_INT, r, SMALL, MPI_INT, ic->inter),
         MPI_Ialltoall(s, SMALL, MPI_INT, r, SMALL, MPI_INT, ic->inter, &req));
    for (int j = 0; j < R; j++)
        for (int i = 0; i < SMALL; i++)
            CHECK(r[j * SMALL + i] == val(!g, j, me * 100 + i), "alltoall from %d [%d]", j, i);
    free(s);
    free(r);
    /* v: counts by (sender, receiver); receive blocks in reverse order with gaps */
    int sc[CT_MAXP], sd[CT_MAXP], rc[CT_MAXP], rd[CT_MAXP], so = 0, ro = 0;
    for (int d = 0; d < R; d++) {
        sc[d] = vcount(g, me, d);
        sd[d] = so;
        so += sc[d];
    }
    for (int j = R - 1; j >= 0; j--) {
        rc[j] = vcount(!g, j, me);
        rd[j] = ro;
        ro += rc[j] + 1;
    }
    s = ints(so, 0);
    r = ints(ro, POISON);
    for (int d = 0; d < R; d++)
        for (int i = 0; i < sc[d]; i++)
            s[sd[d] + i] = val(g, me, d * 100 + i);
    COLL(MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, ic->inter),
         MPI_Ialltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, ic->inter, &req));
    for (int j = 0; j < R; j++) {
        for (int i = 0; i < rc[j]; i++)
            CHECK(r[rd[j] + i] == val(!g, j, me * 100 + i), "alltoallv from %d [%d]", j, i);
        CHECK(r[rd[j] + rc[j]] == POISON, "alltoallv gap after %d", j);
    }
    /* w: the same layout in bytes, one type per peer (MPI_INT, or two-int contiguous
     * blocks where the count is even) */
    MPI_Datatype pair, st[CT_MAXP], rt[CT_MAXP];
    int swc[CT_MAXP], rwc[CT_MAXP], sbd[CT_MAXP], rbd[CT_MAXP];
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    for (int d = 0; d < R; d++) {
        int even = sc[d] % 2 == 0;
        st[d] = even ? pair : MPI_INT;
        swc[d] = even ? sc[d] / 2 : sc[d];
        sbd[d] = sd[d] * (int)sizeof(int);
    }
    for (int j = 0; j < R; j++) {
        rt[j] = MPI_INT;
        rwc[j] = rc[j];
        rbd[j] = rd[j] * (int)sizeof(int);
    }
    for (int i = 0; i < ro; i++)
        r[i] = POISON;
    COLL(MPI_Alltoallw(s, swc, sbd, st, r, rwc, rbd, rt, ic->inter),
         MPI_Ialltoallw(s, swc, sbd, st, r, rwc, rbd, rt, ic->inter, &req));
    for (int j = 0; j < R; j++) {
        for (int i = 0; i < rc[j]; i++)
            CHECK(r[rd[j] + i] == val(!g, j, me * 100 + i), "alltoallw from %d [%d]", j, i);
        CHECK(r[rd[j] + rc[j]] == POISON, "alltoallw gap after %d", j);
    }
    CHECK_MPI(MPI_Type_free(&pair));
    free(s);
    free(r);
}

static void check_reduce_scatter(const ct_inter *ic)
{
    /* Both groups reduce vectors of T elements; each scatters by its own counts. */
    enum { T = 13 };
    int L = ic->lsize, me = ic->lrank, g = ic->group;
    int counts[CT_MAXP], off = 0, mine_off = 0;
    for (int i = 0; i < L; i++) {
        counts[i] = T / L + (i < T % L);
        if (i == me)
            mine_off = off;
        off += counts[i];
    }
    int in[T], out[T + 1];
    for (int i = 0; i < T; i++)
        in[i] = val(g, me, i);
    for (int i = 0; i <= T; i++)
        out[i] = POISON;
    COLL(MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, ic->inter),
         MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, ic->inter, &req));
    for (int i = 0; i < counts[me]; i++) {
        int want = 0;
        for (int j = 0; j < ic->rsize; j++)
            want += val(!g, j, mine_off + i);
        CHECK(out[i] == want, "reduce_scatter [%d]=%d, expected %d", i, out[i], want);
    }
    CHECK(out[counts[me]] == POISON, "reduce_scatter wrote past its count");
    /* block: recvcount R*k here and L*k there, so both vectors hold L*R*k elements */
    int k = 2, rcount = ic->rsize * k, total = L * rcount;
    int *vin = ints(total, 0), *vout = ints(rcount + 1, POISON);
    for (int i = 0; i < total; i++)
        vin[i] = val(g, me, i);
    COLL(MPI_Reduce_scatter_block(vin, vout, rcount, MPI_INT, MPI_SUM, ic->inter),
         MPI_Ireduce_scatter_block(vin, vout, rcount, MPI_INT, MPI_SUM, ic->inter, &req));
    for (int i = 0; i < rcount; i++) {
        int want = 0;
        for (int j = 0; j < ic->rsize; j++)
            want += val(!g, j, me * rcount + i);
        CHECK(vout[i] == want, "reduce_scatter_block [%d]=%d, expected %d", i, vout[i], want);
    }
    CHECK(vout[rcount] == POISON, "reduce_scatter_block wrote past its count");
    free(vin);
    free(vout);
}

static void check_errors(const ct_inter *ic)
{
    int a[4] = {0}, b[4] = {0}, cls;
    MPI_Request r;
    CHECK_MPI(MPI_Comm_set_errhandler(ic->inter, MPI_ERRORS_RETURN));
    MPI_Error_class(MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, ic->inter), &cls);
    CHECK(cls == MPI_ERR_COMM, "MPI_Scan on an intercommunicator: class %d", cls);
    MPI_Error_class(MPI_Exscan(a, b, 1, MPI_INT, MPI_SUM, ic->inter), &cls);
    CHECK(cls == MPI_ERR_COMM, "MPI_Exscan on an intercommunicator: class %d", cls);
    MPI_Error_class(MPI_Iscan(a, b, 1, MPI_INT, MPI_SUM, ic->inter, &r), &cls);
    CHECK(cls == MPI_ERR_COMM, "MPI_Iscan on an intercommunicator: class %d", cls);
    MPI_Error_class(MPI_Iexscan(a, b, 1, MPI_INT, MPI_SUM, ic->inter, &r), &cls);
    CHECK(cls == MPI_ERR_COMM, "MPI_Iexscan on an intercommunicator: class %d", cls);
    MPI_Error_class(MPI_Neighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT, ic->inter), &cls);
    CHECK(cls == MPI_ERR_COMM, "MPI_Neighbor_allgather on an intercommunicator: class %d", cls);
    MPI_Error_class(MPI_Bcast(a, 1, MPI_INT, ic->rsize, ic->inter), &cls);
    CHECK(cls == MPI_ERR_ROOT, "bcast root = remote size: class %d", cls);
    MPI_Error_class(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, -5, ic->inter), &cls);
    CHECK(cls == MPI_ERR_ROOT, "reduce root -5: class %d", cls);
    MPI_Error_class(MPI_Allreduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, ic->inter), &cls);
    CHECK(cls != MPI_SUCCESS, "MPI_IN_PLACE allreduce on an intercommunicator succeeded");
    CHECK_MPI(MPI_Comm_set_errhandler(ic->inter, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Op mat;
    MPI_Datatype m4, vec;
    CHECK_MPI(MPI_Op_create(matmul, 0, &mat));
    CHECK_MPI(MPI_Type_contiguous(4, MPI_UNSIGNED, &m4));
    CHECK_MPI(MPI_Type_commit(&m4));
    CHECK_MPI(MPI_Type_vector(SMALL, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    for (int kind = 0; kind < CT_NKINDS; kind++) {
        ct_inter ic;
        ct_intercomm(kind, &ic);
        for (nb = 0; nb < 2; nb++) {
            check_barrier(&ic);
            check_bcast(&ic, vec);
            check_reduce(&ic, mat, m4);
            check_allreduce(&ic, mat, m4);
            check_gather_scatter(&ic);
            check_allgather(&ic);
            check_alltoall(&ic);
            check_reduce_scatter(&ic);
        }
        check_errors(&ic);
        /* Several nonblocking collectives in flight at once, completed in reverse. */
        int x[3] = {val(ic.group, ic.lrank, 0), val(ic.group, ic.lrank, 1), 0}, y[3];
        MPI_Request rs[3];
        CHECK_MPI(MPI_Iallreduce(&x[0], &y[0], 1, MPI_INT, MPI_MAX, ic.inter, &rs[0]));
        CHECK_MPI(MPI_Iallreduce(&x[1], &y[1], 1, MPI_INT, MPI_MIN, ic.inter, &rs[1]));
        CHECK_MPI(MPI_Ibarrier(ic.inter, &rs[2]));
        for (int i = 2; i >= 0; i--)
            CHECK_MPI(MPI_Wait(&rs[i], MPI_STATUS_IGNORE));
        CHECK(y[0] == val(!ic.group, ic.rsize - 1, 0) && y[1] == val(!ic.group, 0, 1),
              "overlapping iallreduce: %d %d", y[0], y[1]);
        ct_inter_free(&ic);
    }
    CHECK_MPI(MPI_Op_free(&mat));
    CHECK_MPI(MPI_Type_free(&m4));
    CHECK_MPI(MPI_Type_free(&vec));
    ct_ok("intercomm_coll");
    MPI_Finalize();
    return 0;
}
