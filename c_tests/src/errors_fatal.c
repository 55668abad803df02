/* errors_fatal: under the default error handler (MPI_ERRORS_ARE_FATAL) a send to an invalid
 * rank must end the whole job with a non-zero exit; the case also checks that the library's
 * message names the failing function (this program never prints that name itself).
 * If the bad call returns, rank 0 says so, releases the others and exits 0 (= case fails). */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, n, v = 42;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "default error handler is not MPI_ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        printf("rank 0: sending to invalid rank %d; the job should die now\n", n + 5);
        fflush(stdout);
        int rc = MPI_Send(&v, 1, MPI_INT, n + 5, 0, MPI_COMM_WORLD);
        printf("BUG: send to an invalid rank returned %d under MPI_ERRORS_ARE_FATAL\n", rc);
        fflush(stdout);
        for (int r = 1; r < n; r++)
            MPI_Send(&v, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
