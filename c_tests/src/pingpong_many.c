/* pingpong_many: ranks pair up (0-1, 2-3, ...; an odd last rank idles) and do 1000 ping-pong
 * round trips each, every 100th with 64 KiB, checking the payload each time. */
#include "check.h"

#define ITERS 1000
#define BIG 65536

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int peer = rank ^ 1;
    unsigned char *buf = malloc(BIG);
    CHECK(buf, "malloc");
    MPI_Status st;
    int count;

    if (peer < n) {
        for (int it = 0; it < ITERS; it++) {
            int len = (it % 100 == 99) ? BIG : 8;
            uint32_t sd = (uint32_t)(it * 16 + (rank & ~1));
            if (rank % 2 == 0) {
                ct_fill(buf, len, sd);
                CHECK_MPI(MPI_Send(buf, len, MPI_BYTE, peer, it % 7, MPI_COMM_WORLD));
                memset(buf, 0, len);
                CHECK_MPI(MPI_Recv(buf, BIG, MPI_BYTE, peer, it % 7, MPI_COMM_WORLD, &st));
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
                CHECK(count == len, "iter %d: pong count %d", it, count);
                CHECK(ct_verify(buf, len, sd + 1, "pong"), "iter %d: pong data wrong", it);
            } else {
                CHECK_MPI(MPI_Recv(buf, BIG, MPI_BYTE, peer, it % 7, MPI_COMM_WORLD, &st));
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
                CHECK(count == len, "iter %d: ping count %d", it, count);
                CHECK(ct_verify(buf, len, sd, "ping"), "iter %d: ping data wrong", it);
                ct_fill(buf, len, sd + 1);
                CHECK_MPI(MPI_Send(buf, len, MPI_BYTE, peer, it % 7, MPI_COMM_WORLD));
            }
        }
    }
    free(buf);
    ct_ok("pingpong_many");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
