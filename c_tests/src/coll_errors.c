/* coll_errors: error classes of the collectives under MPI_ERRORS_RETURN (the classes MPICH
 * reports): invalid root, negative count, MPI_DATATYPE_NULL, MPI_OP_NULL, an operation not
 * defined on the type, MPI_REPLACE in a reduction, MPI_IN_PLACE as a receive buffer,
 * aliased send and receive buffers, a NULL buffer, errors of MPI_Op_free /
 * MPI_Op_commutative / MPI_Reduce_local, and messages longer than the receiver expects
 * (MPI_ERR_TRUNCATE, on a two-rank communicator). Every case is an error on every rank of
 * the communicator (so nobody waits for a rank that returned), and collectives still work
 * afterwards. */
#include "check.h"

static int rank, size;

static void expect_class(int rc, int want, const char *what)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == want, "%s: error class %d, expected %d", what, cls, want);
}

int main(int argc, char **argv)
{
    int buf[64] = {0}, out[64], c;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    expect_class(MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "Bcast root=size");
    expect_class(MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "Bcast root=-1");
    expect_class(MPI_Ibcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD, &req), MPI_ERR_ROOT,
                 "Ibcast root=-1");
    expect_class(MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, size + 3, MPI_COMM_WORLD),
                 MPI_ERR_ROOT, "Reduce root=size+3");
    expect_class(MPI_Gather(buf, 1, MPI_INT, out, 1, MPI_INT, -2, MPI_COMM_WORLD), MPI_ERR_ROOT,
                 "Gather root=-2");
    expect_class(MPI_Scatter(buf, 1, MPI_INT, out, 1, MPI_INT, size, MPI_COMM_WORLD),
                 MPI_ERR_ROOT, "Scatter root=size");
    expect_class(MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "Bcast count -1");
    expect_class(MPI_Allgather(buf, -1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "Allgather sendcount -1");
    expect_class(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                 "Bcast MPI_DATATYPE_NULL");
    expect_class(MPI_Alltoall(buf, 1, MPI_INT, out, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD),
                 MPI_ERR_TYPE, "Alltoall recvtype MPI_DATATYPE_NULL");

    expect_class(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
                 "Allreduce MPI_OP_NULL");
    expect_class(MPI_Allreduce(buf, out, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP,
                 "Allreduce BAND on MPI_DOUBLE");
    expect_class(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD), MPI_ERR_OP,
                 "Allreduce MAXLOC on MPI_INT");
    expect_class(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD), MPI_ERR_OP,
                 "Allreduce MPI_REPLACE");
    expect_class(MPI_Reduce(buf, out, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX, 0, MPI_COMM_WORLD),
                 MPI_ERR_OP, "Reduce MAX on MPI_C_DOUBLE_COMPLEX");
    expect_class(MPI_Iallreduce(buf, out, 1, MPI_DOUBLE, MPI_BOR, MPI_COMM_WORLD, &req),
                 MPI_ERR_OP, "Iallreduce BOR on MPI_DOUBLE");
    expect_class(MPI_Scan(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
                 "Scan MPI_OP_NULL");
    expect_class(MPI_Reduce_scatter_block(buf, out, 1, MPI_DOUBLE, MPI_BXOR, MPI_COMM_WORLD),
                 MPI_ERR_OP, "Reduce_scatter_block BXOR on MPI_DOUBLE");
    expect_class(MPI_Reduce_local(buf, out, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP,
                 "Reduce_local MPI_OP_NULL");
    expect_class(MPI_Reduce_local(buf, out, 1, MPI_FLOAT, MPI_BAND), MPI_ERR_OP,
                 "Reduce_local BAND on MPI_FLOAT");
    MPI_Op op = MPI_SUM;
    expect_class(MPI_Op_free(&op), MPI_ERR_OP, "Op_free(MPI_SUM)");
    expect_class(MPI_Op_commutative(MPI_OP_NULL, &c), MPI_ERR_OP, "Op_commutative(MPI_OP_NULL)");

    expect_class(MPI_Allreduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 MPI_ERR_BUFFER, "Allreduce recvbuf MPI_IN_PLACE");
    expect_class(MPI_Allreduce(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "Allreduce aliased buffers");
    expect_class(MPI_Scan(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "Scan aliased buffers");
    expect_class(MPI_Alltoall(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "Alltoall aliased buffers");
    expect_class(MPI_Allreduce(NULL, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "Allreduce NULL sendbuf");
    {
        int cnt[1] = {-1}, dsp[1] = {0};
        expect_class(MPI_Gatherv(buf, 0, MPI_INT, out, cnt, dsp, MPI_INT, 0, MPI_COMM_SELF),
                     MPI_ERR_COUNT, "Gatherv negative recvcount");
    }

    /* Longer messages than the receiver expects, on ranks 0 and 1. */
    MPI_Comm two;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &two));
    if (two != MPI_COMM_NULL) {
        int n2;
        MPI_Comm_size(two, &n2);
        CHECK_MPI(MPI_Comm_set_errhandler(two, MPI_ERRORS_RETURN));
        if (n2 == 2) {
            int rc = MPI_Bcast(buf, rank == 0 ? 10 : 5, MPI_INT, 0, two);
            expect_class(rc, rank == 0 ? MPI_SUCCESS : MPI_ERR_TRUNCATE, "Bcast 10 ints into 5");
            rc = MPI_Gather(buf, 4, MPI_INT, out, 2, MPI_INT, 0, two);
            expect_class(rc, rank == 0 ? MPI_ERR_TRUNCATE : MPI_SUCCESS,
                         "Gather 4 ints into blocks of 2");
            for (int i = 0; i < 3; i++)
                buf[i] = rank == 0 ? 40 + i : -1;
            CHECK_MPI(MPI_Bcast(buf, 3, MPI_INT, 0, two));
            CHECK(buf[0] == 40 && buf[2] == 42, "Bcast after the errors: got %d %d", buf[0],
                  buf[2]);
        }
        CHECK_MPI(MPI_Comm_free(&two));
    }

    /* Collectives still work. */
    buf[0] = rank + 1;
    CHECK_MPI(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(out[0] == size * (size + 1) / 2, "Allreduce after the errors: %d", out[0]);
    ct_ok("coll_errors");
    MPI_Finalize();
    return 0;
}
