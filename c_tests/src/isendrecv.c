/* isendrecv: MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace around a ring, eager and
 * rendezvous sizes, contiguous and a strided vector type; one request per call, completed
 * by MPI_Wait, MPI_Test loops and MPI_Waitall; the status is the receive's (source, tag,
 * count). The replace variant's buffer is overwritten by the received data only. Both with
 * MPI_PROC_NULL at either end, and MPI_Request_free of an active one. */
#include "check.h"

#define NSIZES 4
static const int sizes[NSIZES] = {0, 16, 5000, 400000}; /* ints */

static uint32_t seed(int src, int k) { return (uint32_t)(src * 31337 + k * 7 + 1); }

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int right = (rank + 1) % n, left = (rank + n - 1) % n;
    int max = sizes[NSIZES - 1];
    int *sb = malloc(max * sizeof(int)), *rb = malloc((max + 1) * sizeof(int));
    MPI_Status st;
    int cnt;

    for (int k = 0; k < NSIZES; k++) {
        size_t bytes = (size_t)sizes[k] * sizeof(int);
        ct_fill(sb, bytes, seed(rank, k));
        memset(rb, 0, (max + 1) * sizeof(int));
        MPI_Request r;
        CHECK_MPI(MPI_Isendrecv(sb, sizes[k], MPI_INT, right, k, rb, max + 1, MPI_INT, left, k,
                                MPI_COMM_WORLD, &r));
        if (k % 2) {
            int flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Test(&r, &flag, &st));
        } else {
            CHECK_MPI(MPI_Wait(&r, &st));
        }
        CHECK(r == MPI_REQUEST_NULL, "request not freed");
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &cnt));
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == k && cnt == sizes[k], "status %d/%d/%d",
              st.MPI_SOURCE, st.MPI_TAG, cnt);
        CHECK(ct_verify(rb, bytes, seed(left, k), "Isendrecv"), "size %d", sizes[k]);
        CHECK(ct_verify(sb, bytes, seed(rank, k), "Isendrecv send buffer"), "size %d", sizes[k]);

        /* Replace: the buffer goes out and is overwritten by the left neighbour's. */
        ct_fill(rb, bytes, seed(rank, k + 100));
        CHECK_MPI(MPI_Isendrecv_replace(rb, sizes[k], MPI_INT, right, 50 + k, left, 50 + k,
                                        MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Waitall(1, &r, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &cnt));
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 50 + k && cnt == sizes[k],
              "replace status %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG, cnt);
        CHECK(ct_verify(rb, bytes, seed(left, k + 100), "Isendrecv_replace"), "size %d", sizes[k]);
    }

    /* A vector type (every other int) with replace: the gaps stay as they were. */
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(1000, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int *v = malloc(2000 * sizeof(int));
    for (int i = 0; i < 2000; i++)
        v[i] = i % 2 ? -1 : rank * 100000 + i;
    MPI_Request r2[2];
    CHECK_MPI(MPI_Isendrecv_replace(v, 1, vec, right, 9, left, 9, MPI_COMM_WORLD, &r2[0]));
    CHECK_MPI(MPI_Isendrecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, NULL, 0, MPI_INT, MPI_PROC_NULL,
                            0, MPI_COMM_WORLD, &r2[1]));
    MPI_Status sts[2];
    CHECK_MPI(MPI_Waitall(2, r2, sts));
    for (int i = 0; i < 2000; i++)
        CHECK(v[i] == (i % 2 ? -1 : left * 100000 + i), "vector int %d is %d", i, v[i]);
    CHECK(sts[1].MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL Isendrecv source %d", sts[1].MPI_SOURCE);

    /* Send to MPI_PROC_NULL, receive for real (from the left, who sends with Send). */
    MPI_Request r;
    int one = -5;
    CHECK_MPI(MPI_Isendrecv(sb, 1, MPI_INT, MPI_PROC_NULL, 3, &one, 1, MPI_INT, left, 3,
                            MPI_COMM_WORLD, &r));
    int mine = rank + 7;
    CHECK_MPI(MPI_Send(&mine, 1, MPI_INT, right, 3, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(one == left + 7 && st.MPI_SOURCE == left, "one-sided Isendrecv got %d from %d", one,
          st.MPI_SOURCE);

    /* Freed while active: the exchange still happens (the neighbour's data arrives). */
    int got = -1, sent = rank;
    CHECK_MPI(MPI_Isendrecv_replace(&sent, 1, MPI_INT, right, 4, MPI_PROC_NULL, 4,
                                    MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "Request_free did not null the handle");
    CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(got == left, "freed Isendrecv_replace delivered %d", got);

    CHECK_MPI(MPI_Type_free(&vec));
    free(v);
    free(sb);
    free(rb);
    ct_ok("isendrecv");
    MPI_Finalize();
    return 0;
}
