/* rail_loss: the first and the last rank exchange checked messages of many sizes for
 * SECONDS (argv[1], default 8), so that a link taken down meanwhile (by the test) fails
 * with messages and striped transfers in flight on it: every message must still arrive,
 * whole, in order. Other ranks only join the barriers. With "oneway" (argv[2]) only the
 * first rank sends, and only eager sizes: the last rank posts nothing after the start, so
 * a link that goes silent can only be found by the sender's side. */
#include "check.h"

static const size_t SIZES[] = {8, 4000, 70000, 300000, 2u << 20};
#define NS (sizeof SIZES / sizeof SIZES[0])

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    double seconds = argc > 1 ? atof(argv[1]) : 8.0;
    const int oneway = argc > 2 && strcmp(argv[2], "oneway") == 0;
    const size_t nsizes = oneway ? 2 : NS;
    const int a = 0, b = n - 1;
    unsigned char *buf = malloc(2u << 20);
    CHECK(buf, "malloc");
    long iter = 0;
    if (rank == a || rank == b) {
        const int peer = rank == a ? b : a;
        double t0 = MPI_Wtime();
        for (;; iter++) {
            int more = 1;
            if (rank == a)
                more = MPI_Wtime() - t0 < seconds;
            /* The first rank paces; both directions carry data. */
            if (rank == a)
                CHECK_MPI(MPI_Send(&more, 1, MPI_INT, peer, 1, MPI_COMM_WORLD));
            else
                CHECK_MPI(MPI_Recv(&more, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (!more)
                break;
            size_t len = SIZES[iter % nsizes];
            uint32_t seed = (uint32_t)iter;
            if (oneway) {
                if (rank == a) {
                    ct_fill(buf, len, seed);
                    CHECK_MPI(MPI_Send(buf, (int)len, MPI_BYTE, peer, 2, MPI_COMM_WORLD));
                } else {
                    CHECK_MPI(MPI_Recv(buf, (int)len, MPI_BYTE, peer, 2, MPI_COMM_WORLD,
                                       MPI_STATUS_IGNORE));
                    CHECK(ct_verify(buf, len, seed, "one way"), "iteration %ld", iter);
                }
                continue;
            }
            MPI_Request r[2];
            unsigned char *in = malloc(len);
            CHECK(in, "malloc");
            ct_fill(buf, len, seed + (uint32_t)rank);
            CHECK_MPI(MPI_Irecv(in, (int)len, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r[0]));
            CHECK_MPI(MPI_Isend(buf, (int)len, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r[1]));
            CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
            CHECK(ct_verify(in, len, seed + (uint32_t)peer, "exchange"), "iteration %ld", iter);
            free(in);
        }
        if (rank == a)
            printf("rail_loss: %ld exchanges in %.1f s\n", iter, MPI_Wtime() - t0);
    }
    free(buf);
    ct_ok("rail_loss");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
