/* persistent: MPI_Send_init/MPI_Recv_init around the ring (N=1: to itself), restarted many
 * times with MPI_Startall and MPI_Start; the send buffer is rewritten between starts and each
 * start must carry the current contents. Inactive requests stay allocated (not
 * MPI_REQUEST_NULL) until MPI_Request_free; waiting on an inactive request returns at once with
 * an empty status. */
#include "check.h"

#define ITERS 100
#define BIG (256 * 1024)

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int next = (rank + 1) % n, prev = (rank + n - 1) % n;

    int sv[4], rv[4];
    unsigned char *sb = malloc(BIG), *rb = malloc(BIG);
    CHECK(sb && rb, "malloc");
    MPI_Request reqs[4];
    MPI_Status sts[4];
    /* Order: receives first, so Startall never has a send waiting on an unposted receive. */
    CHECK_MPI(MPI_Recv_init(rv, 4, MPI_INT, prev, 1, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Recv_init(rb, BIG, MPI_BYTE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Send_init(sv, 4, MPI_INT, next, 1, MPI_COMM_WORLD, &reqs[2]));
    CHECK_MPI(MPI_Send_init(sb, BIG, MPI_BYTE, next, 2, MPI_COMM_WORLD, &reqs[3]));

    for (int it = 0; it < ITERS; it++) {
        int big = (it % 10 == 0);
        sv[0] = rank;
        sv[1] = it;
        sv[2] = rank * it;
        sv[3] = -it;
        memset(rv, 0xff, sizeof rv);
        if (big) {
            ct_fill(sb, BIG, (uint32_t)(rank * 1000 + it));
            memset(rb, 0, BIG);
            CHECK_MPI(MPI_Startall(4, reqs));
            CHECK_MPI(MPI_Waitall(4, reqs, sts));
            int count = -1;
            CHECK_MPI(MPI_Get_count(&sts[1], MPI_BYTE, &count));
            CHECK(count == BIG && sts[1].MPI_SOURCE == prev && sts[1].MPI_TAG == 2,
                  "iter %d big: count %d source %d tag %d", it, count, sts[1].MPI_SOURCE,
                  sts[1].MPI_TAG);
            CHECK(ct_verify(rb, BIG, (uint32_t)(prev * 1000 + it), "persistent big"),
                  "iter %d: big message wrong", it);
        } else if (it % 2) {
            CHECK_MPI(MPI_Startall(1, &reqs[0]));
            CHECK_MPI(MPI_Startall(1, &reqs[2]));
            CHECK_MPI(MPI_Wait(&reqs[2], &sts[2]));
            CHECK_MPI(MPI_Wait(&reqs[0], &sts[0]));
        } else {
            CHECK_MPI(MPI_Start(&reqs[0]));
            CHECK_MPI(MPI_Start(&reqs[2]));
            int flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Test(&reqs[0], &flag, &sts[0]));
            CHECK_MPI(MPI_Wait(&reqs[2], MPI_STATUS_IGNORE));
        }
        CHECK(sts[0].MPI_SOURCE == prev && sts[0].MPI_TAG == 1, "iter %d: source %d tag %d", it,
              sts[0].MPI_SOURCE, sts[0].MPI_TAG);
        CHECK(rv[0] == prev && rv[1] == it && rv[2] == prev * it && rv[3] == -it,
              "iter %d: got {%d,%d,%d,%d}", it, rv[0], rv[1], rv[2], rv[3]);
        for (int i = 0; i < 4; i++)
            CHECK(reqs[i] != MPI_REQUEST_NULL, "iter %d: persistent request %d became NULL", it, i);
    }

    /* Inactive persistent request: Wait returns at once with an empty status. */
    MPI_Status st;
    st.MPI_SOURCE = st.MPI_TAG = 12345;
    CHECK_MPI(MPI_Wait(&reqs[0], &st));
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG && count == 0,
          "wait on inactive request: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);
    CHECK(reqs[0] != MPI_REQUEST_NULL, "inactive request became NULL");

    for (int i = 0; i < 4; i++) {
        CHECK_MPI(MPI_Request_free(&reqs[i]));
        CHECK(reqs[i] == MPI_REQUEST_NULL, "MPI_Request_free did not set MPI_REQUEST_NULL");
    }
    free(sb);
    free(rb);
    ct_ok("persistent");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
