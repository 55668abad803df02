/* rma_fatal: under the default error handler (MPI_ERRORS_ARE_FATAL, inherited by a new
 * window) an erroneous MPI_Put must end the whole job with a non-zero exit; the case also
 * checks that the library's message names MPI_Put (this program never prints that name).
 * usage: rma_fatal range|disp
 *   range  Put beyond the end of the target's window (MPI_ERR_RMA_RANGE)
 *   disp   Put at a negative target displacement (MPI_ERR_DISP; MPICH does not check ranges)
 * If the bad call returns, rank 0 says "BUG:", everybody leaves the epoch and exits 0
 * (= the case fails). */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, n, v = 42, *mem;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(argc > 1 && (strcmp(argv[1], "range") == 0 || strcmp(argv[1], "disp") == 0),
          "usage: rma_fatal range|disp");
    int range = strcmp(argv[1], "range") == 0;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                               &win));
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "a new window's error handler is not MPI_ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0) {
        int target = (rank + 1) % n;
        MPI_Aint disp = range ? 16 : -3;
        printf("rank 0: put at displacement %ld of rank %d's 16-int window; the job should die "
               "now\n", (long)disp, target);
        fflush(stdout);
        int rc = MPI_Put(&v, 1, MPI_INT, target, disp, 1, MPI_INT, win);
        printf("BUG: put %s returned %d under MPI_ERRORS_ARE_FATAL\n",
               range ? "beyond the window" : "at a negative displacement", rc);
        fflush(stdout);
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
