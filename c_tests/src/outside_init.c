/* Calls outside MPI_Init … MPI_Finalize must fail cleanly: a message naming the function
 * and a non-zero exit, never a crash or a hang.
 *   outside_init before : MPI_Send before MPI_Init
 *   outside_init after  : MPI_Send after MPI_Finalize
 * MPI_Initialized / MPI_Finalized are legal at any time and are checked on the way. */
#include "check.h"
#include <string.h>

int main(int argc, char **argv)
{
    int flag = -1, x = 1;
    CHECK(argc == 2, "usage: outside_init before|after");
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 0, "MPI_Initialized before MPI_Init gave %d", flag);
    if (strcmp(argv[1], "before") == 0) {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        printf("BUG: MPI_Send before MPI_Init returned\n");
        return 0;
    }
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Finalize());
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag == 1, "MPI_Finalized after MPI_Finalize gave %d", flag);
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    printf("BUG: MPI_Send after MPI_Finalize returned\n");
    return 0;
}
