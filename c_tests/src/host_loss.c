/* host_loss: every rank allreduces in a loop (bounded to 60 s) after printing "ready"; a
 * test kills every process of one host meanwhile, and the survivors must be taken down
 * (by the launcher, or by the library when a connection drops) instead of waiting. Ending
 * normally is a failure: nobody killed the host. */
#include "check.h"
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        printf("ready\n");
        fflush(stdout);
    }
    double t0 = MPI_Wtime();
    long rounds = 0;
    while (MPI_Wtime() - t0 < 60) {
        long x = rank, sum = 0;
        CHECK_MPI(MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == (long)n * (n - 1) / 2, "sum %ld", sum);
        rounds++;
        usleep(1000);
    }
    printf("BUG: rank %d still running after 60 s (%ld rounds)\n", rank, rounds);
    MPI_Finalize();
    return 1;
}
