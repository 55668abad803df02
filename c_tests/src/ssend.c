/* ssend: a synchronous send completes only once the matching receive has started.
 * 1) rank 0 starts its clock, tells rank 1 to start, and calls MPI_Ssend (small, then 1 MiB);
 *    rank 1 sleeps 200 ms after the start message before receiving, so the Ssend must take
 *    >= 0.15 s (robust against scheduling delays: the sleep starts after rank 0's clock).
 * 2) MPI_Issend is tested for 100 ms while rank 1 has not posted the receive (it waits for a
 *    go-ahead message): MPI_Test must say false; after the go-ahead it completes.
 * Ranks beyond 1 only join barriers. */
#include "check.h"

#define BIG (1 << 20)

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    unsigned char *buf = malloc(BIG);
    CHECK(buf, "malloc");
    static const int lens[] = {4, BIG};

    for (int k = 0; k < 2; k++) {
        int len = lens[k];
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 0) {
            int go = 1;
            ct_fill(buf, len, 7 + k);
            double t0 = MPI_Wtime();
            CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 98, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Ssend(buf, len, MPI_BYTE, 1, k, MPI_COMM_WORLD));
            double dt = MPI_Wtime() - t0;
            CHECK(dt >= 0.15, "MPI_Ssend of %d bytes completed after %.3f s, before the receive "
                  "was posted (200 ms)", len, dt);
        } else if (rank == 1) {
            int go = 0;
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            ct_sleep_ms(200);
            memset(buf, 0, len);
            CHECK_MPI(MPI_Recv(buf, len, MPI_BYTE, 0, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(ct_verify(buf, len, 7 + k, "ssend data"), "Ssend %d bytes: wrong data", len);
        }
    }

    for (int k = 0; k < 2; k++) {
        int len = lens[k];
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 0) {
            MPI_Request req;
            int flag = 0, go = 1;
            ct_fill(buf, len, 20 + k);
            CHECK_MPI(MPI_Issend(buf, len, MPI_BYTE, 1, 10 + k, MPI_COMM_WORLD, &req));
            double t0 = MPI_Wtime();
            while (MPI_Wtime() - t0 < 0.1) {
                CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
                CHECK(!flag, "MPI_Issend of %d bytes completed before the receive was posted",
                      len);
                ct_sleep_ms(1);
            }
            CHECK(req != MPI_REQUEST_NULL, "request freed while incomplete");
            CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 99, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            CHECK(req == MPI_REQUEST_NULL, "request not MPI_REQUEST_NULL after MPI_Wait");
        } else if (rank == 1) {
            int go = 0;
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            memset(buf, 0, len);
            CHECK_MPI(MPI_Recv(buf, len, MPI_BYTE, 0, 10 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(ct_verify(buf, len, 20 + k, "issend data"), "Issend %d bytes: wrong data", len);
        }
    }
    free(buf);
    ct_ok("ssend");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
