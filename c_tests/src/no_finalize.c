/* A program that leaves without MPI_Finalize, as OSU's osu_latency_mt does.
 *   no_finalize sleep : rank 0 exits at once; the others sleep 1 s and exit (job: exit 0).
 *   no_finalize hang  : rank 0 exits at once; the others wait for a message that never
 *                       comes (the launcher must end the job, non-zero, instead of hanging).
 */
#include "check.h"
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(argc == 2, "usage: no_finalize sleep|hang");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        printf("rank 0 leaving without MPI_Finalize\n");
        return 0;
    }
    if (strcmp(argv[1], "sleep") == 0) {
        sleep(1);
        return 0;
    }
    MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("BUG: received a message nobody sent\n");
    return 1;
}
