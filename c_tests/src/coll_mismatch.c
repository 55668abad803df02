/* coll_mismatch: ranks that disagree on a collective's count, under the default error handler
 * (MPI_ERRORS_ARE_FATAL): argv[1] "bcast" — rank 0 broadcasts 10 ints, the others expect 5;
 * "gather" — every rank sends 4 ints, the root takes blocks of 2. The job must die non-zero and
 * the library's message must name the size that arrived (40 or 16 bytes), not the buffer's (it
 * once said "20 bytes, expected 20"). If the call returns, "BUG:" is printed. */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, size, buf[16] = {0}, out[64];
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(argc > 1, "usage: coll_mismatch bcast|gather");
    if (strcmp(argv[1], "bcast") == 0)
        MPI_Bcast(buf, rank == 0 ? 10 : 5, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Gather(buf, 4, MPI_INT, out, 2, MPI_INT, 0, MPI_COMM_WORLD);
    printf("BUG: rank %d: a mismatched %s returned under MPI_ERRORS_ARE_FATAL\n", rank, argv[1]);
    MPI_Finalize();
    return 0;
}
