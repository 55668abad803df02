/* rma_create_race: the origins' first passive-target operations follow MPI_Win_create at
 * once, while the target (rank 0, the only rank with memory) may still be setting the
 * window up (MPICH's rma/fetchandadd pattern). Repeated for many windows; every
 * accumulate must land: the target checks the sums after each MPI_Win_free. Before the fix
 * a request could reach the target's RMA helper before the window was known there ("no
 * window exposed here"), which failed the job. */
#include "check.h"

#define WINDOWS 40
#define ROUNDS 5

int main(int argc, char **argv)
{
    int rank, size, w, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (w = 0; w < WINDOWS; w++) {
        MPI_Win win;
        int *mem = NULL;
        if (rank == 0) {
            mem = calloc(size, sizeof(int));
            CHECK_MPI(MPI_Win_create(mem, size * sizeof(int), sizeof(int), MPI_INFO_NULL,
                                     MPI_COMM_WORLD, &win));
        } else {
            CHECK_MPI(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
            for (i = 0; i < ROUNDS; i++) {
                int one = 1, old = -1;
                CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
                CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, rank, MPI_SUM, win));
                CHECK_MPI(MPI_Win_unlock(0, win));
                CHECK(old == i, "window %d round %d: fetched %d", w, i, old);
            }
        }
        CHECK_MPI(MPI_Win_free(&win));
        if (rank == 0) {
            for (i = 1; i < size; i++)
                CHECK(mem[i] == ROUNDS, "window %d: rank %d's counter is %d", w, i, mem[i]);
            free(mem);
        }
    }
    ct_ok("rma_create_race");
    MPI_Finalize();
    return 0;
}
