/* A rank that dies (abort(): SIGABRT) while the others block in MPI_Recv: the launcher
 * must take the whole job down promptly, non-zero, and leave no shared memory behind. */
#include "check.h"
#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1) {
        abort();
    }
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("BUG: received from a dead rank\n");
    return 1;
}
