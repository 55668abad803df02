/* cancel: a posted receive that nothing matches can be cancelled (MPI_Test_cancelled true,
 * buffer untouched) and a later message with the same tag goes to the next receive; a receive
 * that has already matched cannot be cancelled (MPI_Test_cancelled false, data delivered).
 * N=1 uses self-messages; with N>=2 rank 0 sends to rank 1 (others only join barriers). */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int sender = 0, receiver = (n >= 2) ? 1 : 0;
    MPI_Request req;
    MPI_Status st;
    int flag = -1;

    /* 1: cancel unmatched receives (specific source and wildcard, small and large buffers). */
    if (rank == receiver) {
        for (int k = 0; k < 4; k++) {
            int len = (k % 2) ? (1 << 20) : 16;
            unsigned char *buf = malloc(len);
            CHECK(buf, "malloc");
            memset(buf, 0x3c, len);
            int src = (k < 2) ? sender : MPI_ANY_SOURCE;
            CHECK_MPI(MPI_Irecv(buf, len, MPI_BYTE, src, 7, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Cancel(&req));
            CHECK(req != MPI_REQUEST_NULL, "MPI_Cancel freed the request");
            CHECK_MPI(MPI_Wait(&req, &st));
            CHECK(req == MPI_REQUEST_NULL, "request not MPI_REQUEST_NULL after Wait");
            CHECK_MPI(MPI_Test_cancelled(&st, &flag));
            CHECK(flag, "k=%d: MPI_Test_cancelled false for an unmatched receive", k);
            for (int i = 0; i < len; i++)
                CHECK(buf[i] == 0x3c, "k=%d: cancelled receive wrote byte %d", k, i);
            free(buf);
        }
        /* Cancel then Test (instead of Wait) also completes it. */
        int dummy = -1;
        CHECK_MPI(MPI_Irecv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Cancel(&req));
        flag = 0;
        while (!flag)
            CHECK_MPI(MPI_Test(&req, &flag, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(flag && dummy == -1, "cancel+Test: cancelled %d, buffer %d", flag, dummy);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2: the next tag-7 message goes to a fresh receive, not to a cancelled one. */
    int v = -1, val = 4242;
    MPI_Request sreq = MPI_REQUEST_NULL;
    if (rank == sender)
        CHECK_MPI(MPI_Isend(&val, 1, MPI_INT, receiver, 7, MPI_COMM_WORLD, &sreq));
    if (rank == receiver) {
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, sender, 7, MPI_COMM_WORLD, &st));
        CHECK(v == 4242 && st.MPI_SOURCE == sender && st.MPI_TAG == 7,
              "message after cancel: value %d source %d tag %d", v, st.MPI_SOURCE, st.MPI_TAG);
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(!flag, "normal receive reports cancelled");
    }
    if (rank == sender)
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 3: a receive that has matched cannot be cancelled. The Issend completing proves the
     * match (with N=1 the receive is posted before the Issend). */
    v = -1;
    val = 777;
    if (n == 1) {
        CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Issend(&val, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &sreq));
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    } else if (rank == receiver) {
        CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, sender, 8, MPI_COMM_WORLD, &req));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (n > 1 && rank == sender)
        CHECK_MPI(MPI_Ssend(&val, 1, MPI_INT, receiver, 8, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* after this, the Ssend has matched our Irecv */
    if (rank == receiver) {
        CHECK_MPI(MPI_Cancel(&req));
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK_MPI(MPI_Test_cancelled(&st, &flag));
        CHECK(!flag, "a receive that already matched was reported cancelled");
        CHECK(v == 777 && st.MPI_SOURCE == sender && st.MPI_TAG == 8,
              "matched receive: value %d source %d tag %d", v, st.MPI_SOURCE, st.MPI_TAG);
    }
    ct_ok("cancel");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
