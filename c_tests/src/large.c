/* large: 64 MiB messages between ranks 0 and 1, checked byte for byte, both directions; then
 * two large messages (one unaligned, odd length) in flight at once, arriving unexpected
 * (receiver posts late) and received in reverse order. Other ranks only join barriers. */
#include "check.h"

#define SZ (64u << 20)

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    MPI_Status st;
    int count;

    if (rank < 2) {
        int peer = 1 - rank;
        unsigned char *a = malloc(SZ + 16), *b = malloc(SZ + 16);
        CHECK(a && b, "malloc of 2 x 64 MiB");

        /* Part 1: 0 -> 1, then 1 -> 0 (blocking). */
        for (int dir = 0; dir < 2; dir++) {
            if (rank == dir) {
                ct_fill(a, SZ, 1000 + dir);
                CHECK_MPI(MPI_Send(a, (int)SZ, MPI_BYTE, peer, dir, MPI_COMM_WORLD));
            } else {
                memset(b, 0, SZ + 16);
                CHECK_MPI(MPI_Recv(b, (int)SZ, MPI_BYTE, peer, dir, MPI_COMM_WORLD, &st));
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
                CHECK(count == (int)SZ, "count %d", count);
                CHECK(ct_verify(b, SZ, 1000 + dir, "64 MiB message"), "direction %d wrong", dir);
                CHECK(b[SZ] == 0, "wrote past the buffer");
            }
        }

        /* Part 2: rank 0 sends two large messages (tags 1 then 2) with Isend; rank 1 sleeps so
         * they arrive unexpected, then receives tag 2 first (odd length, odd address). */
        const size_t len2 = SZ - 3;
        if (rank == 0) {
            MPI_Request reqs[2];
            ct_fill(a, SZ, 2001);
            ct_fill(b + 1, len2, 2002);
            CHECK_MPI(MPI_Isend(a, (int)SZ, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &reqs[0]));
            CHECK_MPI(MPI_Isend(b + 1, (int)len2, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &reqs[1]));
            CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
        } else {
            ct_sleep_ms(300);
            memset(a, 0, SZ + 16);
            memset(b, 0, SZ + 16);
            CHECK_MPI(MPI_Recv(b + 3, (int)len2, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK(count == (int)len2 && st.MPI_TAG == 2, "count %d tag %d", count, st.MPI_TAG);
            CHECK(ct_verify(b + 3, len2, 2002, "second (unaligned) message"), "tag 2 wrong");
            CHECK(b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3 + len2] == 0,
                  "wrote outside the unaligned buffer");
            CHECK_MPI(MPI_Recv(a, (int)SZ, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK(count == (int)SZ && st.MPI_TAG == 1, "count %d tag %d", count, st.MPI_TAG);
            CHECK(ct_verify(a, SZ, 2001, "first message"), "tag 1 wrong");
        }

        /* Part 3: simultaneous exchange with Sendrecv (both directions at once). */
        ct_fill(a, SZ, 3000 + rank);
        memset(b, 0, SZ);
        CHECK_MPI(MPI_Sendrecv(a, (int)SZ, MPI_BYTE, peer, 3, b, (int)SZ, MPI_BYTE, peer, 3,
                               MPI_COMM_WORLD, &st));
        CHECK(ct_verify(b, SZ, 3000 + peer, "Sendrecv 64 MiB"), "exchange wrong");
        free(a);
        free(b);
    }
    ct_ok("large");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
