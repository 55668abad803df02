/* MPI_Request_free on active point-to-point requests: the operations still complete.
 * Rank 0 Isends (eager and large) and frees the requests at once; rank 1 receives them
 * into buffers it then frees its Irecv requests for, and checks the data after a
 * confirming message from rank 0 has arrived (ordering per sender and tag). */
#include "check.h"
#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)

int main(int argc, char **argv)
{
    int rank, size, i;
    MPI_Request r;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size >= 2 && rank < 2) {
        int small[16];
        char *big = malloc(BIG);
        CHECK(big != NULL, "malloc");
        if (rank == 0) {
            for (i = 0; i < 16; i++) small[i] = 1000 + i;
            for (i = 0; i < BIG; i++) big[i] = (char)(i * 7);
            CHECK_MPI(MPI_Isend(small, 16, MPI_INT, 1, 1, MPI_COMM_WORLD, &r));
            CHECK_MPI(MPI_Request_free(&r));
            CHECK(r == MPI_REQUEST_NULL, "request not nulled");
            CHECK_MPI(MPI_Isend(big, BIG, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &r));
            CHECK_MPI(MPI_Request_free(&r));
            /* The large send completes only once rank 1 has it: its ack says so. */
            CHECK_MPI(MPI_Recv(&i, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            memset(small, 0, sizeof small);
            CHECK_MPI(MPI_Irecv(small, 16, MPI_INT, 0, 1, MPI_COMM_WORLD, &r));
            CHECK_MPI(MPI_Request_free(&r));
            CHECK_MPI(MPI_Recv(big, BIG, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            /* Tag 2 came after tag 1 from the same sender; wait until the freed receive is
             * surely done by probing nothing further: a barrier suffices for delivery of
             * earlier eager traffic only with progress, so poll with MPI_Iprobe. */
            for (i = 0; i < 1000 && small[15] != 1015; i++) {
                int flag;
                CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
            }
            for (i = 0; i < 16; i++) CHECK(small[i] == 1000 + i, "small[%d]=%d", i, small[i]);
            for (i = 0; i < BIG; i++) CHECK(big[i] == (char)(i * 7), "big[%d]", i);
            CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, 3, MPI_COMM_WORLD));
        }
        free(big);
    }
    ct_ok("reqfree");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
