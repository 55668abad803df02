/* lifetime MODE [TOKEN]: how a job ends when part of it goes (c_tests/cases/55_lifetime.sh,
 * driven by c_tests/lifetime.sh; TOKEN only marks the processes for pgrep).
 *   block     : every rank blocks in a receive nobody matches; rank 0 prints "ready" first
 *   leave     : rank 0 returns without MPI_Finalize, the others wait for it in MPI_Recv
 *   peer_dies : rank 1 _exit(0)s without MPI_Finalize (its wrapper keeps the launcher from
 *               seeing it), rank 0 waits for it in MPI_Recv
 *   plain     : (any other MODE) MPI_Init, MPI_Finalize, rank 0 prints "ok lifetime MODE"
 *   abort_out : rank 1 writes a line without flushing it, then MPI_Abort(MPI_COMM_WORLD, 5)
 *   abort_win : every rank creates and frees dynamic windows in a loop; the last calls
 *               MPI_Abort(MPI_COMM_WORLD, 0) after one of its creations returned: the
 *               job's status must be 0
 * Under mpiexec -disable-auto-cleanup (the others go on after a rank fails):
 *   subcomm_abort  : rank 1 calls MPI_Abort(8) on the odd ranks' communicator while the odd
 *                    ranks wait in it; the even ranks pass a token around theirs, finalize,
 *                    and print "rank R survived"
 *   intercomm_abort: rank 0 aborts (9) an intercommunicator between itself and the odd
 *                    ranks: its remote group, the odd ranks, ends; MPI_Abort returns and
 *                    rank 0 survives with the other even ranks as above
 *   exit_early     : rank 1 exits with status 3 without MPI_Finalize; the others finalize
 */
#include "check.h"
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    CHECK(argc >= 2, "usage: lifetime MODE [TOKEN]");
    const char *mode = argv[1];
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (strcmp(mode, "block") == 0) {
        if (rank == 0) {
            printf("ready\n");
            fflush(stdout);
        }
        MPI_Recv(&x, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("BUG: rank %d received a message nobody sent\n", rank);
        return 1;
    }
    if (strcmp(mode, "leave") == 0) {
        if (rank == 0)
            return 0;
        MPI_Recv(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("BUG: rank %d received a message nobody sent\n", rank);
        return 1;
    }
    if (strcmp(mode, "peer_dies") == 0) {
        if (rank == 1)
            _exit(0);
        if (rank == 0) {
            MPI_Recv(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("BUG: received from a rank that is gone\n");
            return 1;
        }
        sleep(30);
        return 0;
    }
    if (strcmp(mode, "abort_out") == 0) {
        if (rank == 1) {
            printf("rank 1 wrote this line before MPI_Abort\n"); /* no fflush: the library's */
            MPI_Abort(MPI_COMM_WORLD, 5);
            return 1;
        }
        MPI_Recv(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("BUG: rank %d received a message nobody sent\n", rank);
        return 1;
    }
    if (strcmp(mode, "abort_win") == 0) {
        for (int i = 0; i < 400; i++) {
            MPI_Win win;
            CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
            /* Right after its own creation returned: the others may still be mapping
             * what it shared. */
            if (rank == size - 1 && i == 50)
                MPI_Abort(MPI_COMM_WORLD, 0);
            CHECK_MPI(MPI_Win_free(&win));
        }
        printf("BUG: rank %d finished every window after rank 0 aborted\n", rank);
        return 1;
    }
    if (strcmp(mode, "subcomm_abort") == 0 || strcmp(mode, "intercomm_abort") == 0) {
        MPI_Comm half, inter;
        int hrank, hsize;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        CHECK_MPI(MPI_Comm_rank(half, &hrank));
        CHECK_MPI(MPI_Comm_size(half, &hsize));
        if (mode[0] == 'i') {
            if (rank == 0)
                CHECK_MPI(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 1, 5, &inter));
            else if (rank % 2)
                CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 0, 5, &inter));
            if (rank == 0)
                MPI_Abort(inter, 9);
        } else if (rank == 1) {
            MPI_Abort(half, 8);
        }
        if (rank % 2) {
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7, half, MPI_STATUS_IGNORE);
            printf("BUG: rank %d outlived the abort of its communicator\n", rank);
            return 1;
        }
        /* The survivors: a token around the even ranks. */
        if (hsize > 1) {
            int next = (hrank + 1) % hsize, prev = (hrank + hsize - 1) % hsize;
            if (hrank == 0) {
                x = 1;
                CHECK_MPI(MPI_Send(&x, 1, MPI_INT, next, 7, half));
                CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, prev, 7, half, MPI_STATUS_IGNORE));
                CHECK(x == hsize, "token counted %d of %d", x, hsize);
            } else {
                CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, prev, 7, half, MPI_STATUS_IGNORE));
                x++;
                CHECK_MPI(MPI_Send(&x, 1, MPI_INT, next, 7, half));
            }
        }
        CHECK_MPI(MPI_Comm_free(&half));
        CHECK_MPI(MPI_Finalize());
        printf("rank %d survived\n", rank);
        return 0;
    }
    if (strcmp(mode, "exit_early") == 0 && rank == 1)
        exit(3);
    CHECK_MPI(MPI_Finalize());
    if (rank == 0)
        printf("ok lifetime %s\n", mode);
    return 0;
}
