/* alltoall_pairs: every rank exchanges a buffer with every rank (itself included) using
 * Irecv/Isend + Waitall, 50 repetitions with changing sizes (meant for oversubscription). */
#include "check.h"

#define REPS 50

static uint32_t seed(int src, int dst, int rep) { return (uint32_t)(rep * 65536 + src * 256 + dst); }

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    const int maxlen = 64 * 1024;
    unsigned char *sb = malloc((size_t)n * maxlen), *rb = malloc((size_t)n * maxlen);
    MPI_Request *reqs = malloc(2 * n * sizeof *reqs);
    MPI_Status *sts = malloc(2 * n * sizeof *sts);
    CHECK(sb && rb && reqs && sts, "malloc");

    for (int rep = 0; rep < REPS; rep++) {
        int len = (rep % 10 == 9) ? maxlen : (rep % 3 == 0 ? 4096 : 8 + rep);
        for (int p = 0; p < n; p++) {
            memset(rb + (size_t)p * maxlen, 0, len);
            CHECK_MPI(MPI_Irecv(rb + (size_t)p * maxlen, len, MPI_BYTE, p, rep, MPI_COMM_WORLD,
                                &reqs[p]));
        }
        for (int k = 0; k < n; k++) {
            int p = (rank + k) % n;
            ct_fill(sb + (size_t)p * maxlen, len, seed(rank, p, rep));
            CHECK_MPI(MPI_Isend(sb + (size_t)p * maxlen, len, MPI_BYTE, p, rep, MPI_COMM_WORLD,
                                &reqs[n + p]));
        }
        CHECK_MPI(MPI_Waitall(2 * n, reqs, sts));
        for (int p = 0; p < n; p++) {
            int count = -1;
            CHECK_MPI(MPI_Get_count(&sts[p], MPI_BYTE, &count));
            CHECK(sts[p].MPI_SOURCE == p && sts[p].MPI_TAG == rep && count == len,
                  "rep %d from %d: source %d tag %d count %d", rep, p, sts[p].MPI_SOURCE,
                  sts[p].MPI_TAG, count);
            CHECK(ct_verify(rb + (size_t)p * maxlen, len, seed(p, rank, rep), "alltoall data"),
                  "rep %d: data from %d wrong", rep, p);
        }
    }
    free(sb);
    free(rb);
    free(reqs);
    free(sts);
    ct_ok("alltoall_pairs");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
