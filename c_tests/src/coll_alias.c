/* coll_alias: aliased send and receive buffers are MPI_ERR_BUFFER at once, on the ranks
 * that pass them, without taking part in anything: the patterns of MPICH's
 * errors/coll/noalias, noalias2, noalias3 and reduce_local.
 *
 * - Every collective (blocking and nonblocking) with the send buffer where its own block
 *   of the receive buffer is (the whole buffer for the reductions and alltoalls) fails with
 *   MPI_ERR_BUFFER; the rooted ones are called at the root alone (the others never call).
 * - A root that alone refuses an aliased MPI_Reduce / MPI_Gather / MPI_Scatter posts a
 *   correct one, which must meet the others' first (their only) call: its data is checked.
 * - MPI_IN_PLACE at the root is not aliasing.
 * - Afterwards collectives still line up: an allreduce and a gather with data checked.
 * - MPI_Reduce_local with inbuf == inoutbuf, or MPI_IN_PLACE, fails with MPI_ERR_BUFFER.
 */
#include "check.h"

#define N 2

static int rank, size;

static void expect_buffer(int rc, const char *what)
{
    int cls = -1;
    CHECK(rc != MPI_SUCCESS, "%s: aliased buffers not detected", what);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER, "%s: error class %d, expected MPI_ERR_BUFFER (%d)", what, cls,
          MPI_ERR_BUFFER);
}

/* The sum over ranks of (r + 1) * k for element k. */
static void check_sum(const int *v, int n, const char *what)
{
    for (int k = 0; k < n; k++)
        CHECK(v[k] == size * (size + 1) / 2 * (k + 1), "%s: element %d is %d", what, k, v[k]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Comm comm = MPI_COMM_WORLD;

    int *sbuf = malloc(sizeof(int) * N * size);
    int *rbuf = malloc(sizeof(int) * N * size);
    int *counts = malloc(sizeof(int) * size);
    int *displs = malloc(sizeof(int) * size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * size);
    int *bdispls = malloc(sizeof(int) * size);
    CHECK(sbuf && rbuf && counts && displs && types && bdispls, "malloc");
    for (int i = 0; i < size; i++) {
        sbuf[N * i] = sbuf[N * i + 1] = i;
        counts[i] = N;
        displs[i] = N * i;
        bdispls[i] = (int)(N * i * sizeof(int));
        types[i] = MPI_INT;
    }
    MPI_Request req;

    /* noalias: the root alone refuses, then posts a correct call that the others' only
     * call meets. */
    int mine[N] = {rank + 1, 2 * (rank + 1)}, out[N] = {-1, -1};
    int rc = MPI_Reduce(mine, rank == 0 ? mine : NULL, N, MPI_INT, MPI_SUM, 0, comm);
    if (rank == 0) {
        expect_buffer(rc, "Reduce at the root");
        CHECK_MPI(MPI_Reduce(mine, out, N, MPI_INT, MPI_SUM, 0, comm));
        check_sum(out, N, "make-up Reduce");
    } else {
        CHECK(rc == MPI_SUCCESS, "Reduce off the root returned %d", rc);
    }
    /* MPI_IN_PLACE at the root is no aliasing. */
    int inplace[N] = {rank + 1, 2 * (rank + 1)};
    CHECK_MPI(MPI_Reduce(rank == 0 ? MPI_IN_PLACE : inplace, inplace, N, MPI_INT, MPI_SUM, 0,
                         comm));
    if (rank == 0)
        check_sum(inplace, N, "Reduce MPI_IN_PLACE");

    int *gathered = malloc(sizeof(int) * size);
    int one = 100 + rank;
    /* (At the root the send buffer is its own block of the receive buffer.) */
    rc = MPI_Gather(rank == 0 ? (void *)gathered : (void *)&one, 1, MPI_INT, gathered, 1,
                    MPI_INT, 0, comm);
    if (rank == 0) {
        expect_buffer(rc, "Gather at the root");
        CHECK_MPI(MPI_Gather(&one, 1, MPI_INT, gathered, 1, MPI_INT, 0, comm));
        for (int i = 0; i < size; i++)
            CHECK(gathered[i] == 100 + i, "make-up Gather: element %d is %d", i, gathered[i]);
    } else {
        CHECK(rc == MPI_SUCCESS, "Gather off the root returned %d", rc);
    }
    int got = -1;
    for (int i = 0; i < size; i++)
        gathered[i] = 200 + i;
    rc = MPI_Scatter(gathered, 1, MPI_INT, rank == 0 ? (void *)gathered : (void *)&got, 1,
                     MPI_INT, 0, comm);
    if (rank == 0) {
        expect_buffer(rc, "Scatter at the root");
        CHECK_MPI(MPI_Scatter(gathered, 1, MPI_INT, &got, 1, MPI_INT, 0, comm));
    } else {
        CHECK(rc == MPI_SUCCESS, "Scatter off the root returned %d", rc);
    }
    CHECK(got == 200 + rank, "make-up Scatter: got %d", got);

    /* noalias2 / noalias3: rooted calls at the root alone, the rest everywhere; each one is
     * refused (blocking and nonblocking). */
    if (rank == 0) {
        expect_buffer(MPI_Gather(sbuf, N, MPI_INT, sbuf, N, MPI_INT, 0, comm), "Gather");
        expect_buffer(MPI_Gatherv(sbuf, N, MPI_INT, sbuf, counts, displs, MPI_INT, 0, comm),
                      "Gatherv");
        expect_buffer(MPI_Scatter(sbuf, N, MPI_INT, sbuf, N, MPI_INT, 0, comm), "Scatter");
        expect_buffer(MPI_Scatterv(sbuf, counts, displs, MPI_INT, sbuf, N, MPI_INT, 0, comm),
                      "Scatterv");
        expect_buffer(MPI_Reduce(sbuf, sbuf, N, MPI_INT, MPI_SUM, 0, comm), "Reduce");
        expect_buffer(MPI_Igather(sbuf, N, MPI_INT, sbuf, N, MPI_INT, 0, comm, &req),
                      "Igather");
        expect_buffer(
            MPI_Igatherv(sbuf, N, MPI_INT, sbuf, counts, displs, MPI_INT, 0, comm, &req),
            "Igatherv");
        expect_buffer(MPI_Iscatter(sbuf, N, MPI_INT, sbuf, N, MPI_INT, 0, comm, &req),
                      "Iscatter");
        expect_buffer(
            MPI_Iscatterv(sbuf, counts, displs, MPI_INT, sbuf, N, MPI_INT, 0, comm, &req),
            "Iscatterv");
        expect_buffer(MPI_Ireduce(sbuf, sbuf, N, MPI_INT, MPI_SUM, 0, comm, &req), "Ireduce");
    }
    expect_buffer(MPI_Allgather(&sbuf[rank], 1, MPI_INT, sbuf, 1, MPI_INT, comm), "Allgather");
    expect_buffer(MPI_Allgatherv(&sbuf[rank * N], N, MPI_INT, sbuf, counts, displs, MPI_INT,
                                 comm),
                  "Allgatherv");
    expect_buffer(MPI_Alltoall(sbuf, N, MPI_INT, sbuf, N, MPI_INT, comm), "Alltoall");
    expect_buffer(MPI_Alltoallv(sbuf, counts, displs, MPI_INT, sbuf, counts, displs, MPI_INT,
                                comm),
                  "Alltoallv");
    expect_buffer(MPI_Alltoallw(sbuf, counts, bdispls, types, sbuf, counts, bdispls, types,
                                comm),
                  "Alltoallw");
    expect_buffer(MPI_Allreduce(sbuf, sbuf, N, MPI_INT, MPI_SUM, comm), "Allreduce");
    expect_buffer(MPI_Reduce_scatter(sbuf, sbuf, counts, MPI_INT, MPI_SUM, comm),
                  "Reduce_scatter");
    expect_buffer(MPI_Reduce_scatter_block(sbuf, sbuf, N, MPI_INT, MPI_SUM, comm),
                  "Reduce_scatter_block");
    expect_buffer(MPI_Scan(sbuf, sbuf, N, MPI_INT, MPI_SUM, comm), "Scan");
    expect_buffer(MPI_Exscan(sbuf, sbuf, N, MPI_INT, MPI_SUM, comm), "Exscan");
    expect_buffer(MPI_Iallgather(&sbuf[rank], 1, MPI_INT, sbuf, 1, MPI_INT, comm, &req),
                  "Iallgather");
    expect_buffer(MPI_Iallgatherv(&sbuf[rank * N], N, MPI_INT, sbuf, counts, displs, MPI_INT,
                                  comm, &req),
                  "Iallgatherv");
    expect_buffer(MPI_Ialltoall(sbuf, N, MPI_INT, sbuf, N, MPI_INT, comm, &req), "Ialltoall");
    expect_buffer(MPI_Ialltoallv(sbuf, counts, displs, MPI_INT, sbuf, counts, displs, MPI_INT,
                                 comm, &req),
                  "Ialltoallv");
    expect_buffer(MPI_Ialltoallw(sbuf, counts, bdispls, types, sbuf, counts, bdispls, types,
                                 comm, &req),
                  "Ialltoallw");
    expect_buffer(MPI_Iallreduce(sbuf, sbuf, N, MPI_INT, MPI_SUM, comm, &req), "Iallreduce");
    expect_buffer(MPI_Ireduce_scatter(sbuf, sbuf, counts, MPI_INT, MPI_SUM, comm, &req),
                  "Ireduce_scatter");
    expect_buffer(MPI_Ireduce_scatter_block(sbuf, sbuf, N, MPI_INT, MPI_SUM, comm, &req),
                  "Ireduce_scatter_block");
    expect_buffer(MPI_Iscan(sbuf, sbuf, N, MPI_INT, MPI_SUM, comm, &req), "Iscan");
    expect_buffer(MPI_Iexscan(sbuf, sbuf, N, MPI_INT, MPI_SUM, comm, &req), "Iexscan");

    /* The refusals took no place in the collective order: these line up. */
    int total[N];
    CHECK_MPI(MPI_Allreduce(mine, total, N, MPI_INT, MPI_SUM, comm));
    check_sum(total, N, "Allreduce afterwards");
    CHECK_MPI(MPI_Gather(&one, 1, MPI_INT, gathered, 1, MPI_INT, size - 1, comm));
    if (rank == size - 1)
        for (int i = 0; i < size; i++)
            CHECK(gathered[i] == 100 + i, "Gather afterwards: element %d is %d", i,
                  gathered[i]);

    /* reduce_local */
    int a[N] = {1, 2}, b[N] = {10, 20};
    CHECK_MPI(MPI_Reduce_local(a, b, N, MPI_INT, MPI_SUM));
    CHECK(b[0] == 11 && b[1] == 22, "Reduce_local: %d %d", b[0], b[1]);
    expect_buffer(MPI_Reduce_local(b, b, N, MPI_INT, MPI_SUM), "Reduce_local aliased");
    expect_buffer(MPI_Reduce_local(MPI_IN_PLACE, b, N, MPI_INT, MPI_SUM),
                  "Reduce_local inbuf MPI_IN_PLACE");
    expect_buffer(MPI_Reduce_local(a, MPI_IN_PLACE, N, MPI_INT, MPI_SUM),
                  "Reduce_local inoutbuf MPI_IN_PLACE");
    CHECK(b[0] == 11 && b[1] == 22, "Reduce_local refused but changed: %d %d", b[0], b[1]);

    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
    free(types);
    free(bdispls);
    free(gathered);
    ct_ok("coll_alias");
    MPI_Finalize();
    return 0;
}
