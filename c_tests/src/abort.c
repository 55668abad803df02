/* abort: rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3) while all other ranks block in a receive
 * that is never matched; the whole job must end with exit status 3. */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, n, v = 0;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1) {
        ct_sleep_ms(200); /* let the others block first */
        printf("rank 1: calling MPI_Abort(MPI_COMM_WORLD, 3)\n");
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 3);
        printf("BUG: MPI_Abort returned\n");
        fflush(stdout);
        return 0;
    }
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("BUG: rank %d: receive completed\n", rank);
    MPI_Finalize();
    return 0;
}
