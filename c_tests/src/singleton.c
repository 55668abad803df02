/* singleton: run without a launcher; MPI_Init must give a world of size 1, rank 0, where
 * self-sends, barrier, bcast and allreduce work. Also checks Initialized/Finalized. */
#include "check.h"

int main(int argc, char **argv)
{
    int rank = -1, n = -1, flag = 1;
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(!flag, "MPI_Initialized true before MPI_Init");
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag, "MPI_Initialized false after MPI_Init");
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(rank == 0 && n == 1, "singleton: rank %d size %d", rank, n);

    int out[3] = {1, 2, 3}, in[3] = {0, 0, 0};
    MPI_Request req;
    MPI_Status st;
    CHECK_MPI(MPI_Isend(out, 3, MPI_INT, 0, 9, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Recv(in, 3, MPI_INT, 0, 9, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(in[0] == 1 && in[1] == 2 && in[2] == 3 && st.MPI_SOURCE == 0 && st.MPI_TAG == 9,
          "self message wrong");

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int v = 17, sum = 0;
    CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(v == 17, "bcast changed the value to %d", v);
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == 17, "allreduce sum %d", sum);
    double d = 2.5, dmax = 0;
    CHECK_MPI(MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    CHECK(dmax == 2.5, "allreduce max %g", dmax);

    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_size(dup, &n));
    CHECK(n == 1, "dup size %d", n);
    CHECK_MPI(MPI_Comm_free(&dup));

    ct_ok("singleton");
    CHECK_MPI(MPI_Finalize());
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag, "MPI_Finalized false after MPI_Finalize");
    return 0;
}
