/* allpairs: every rank exchanges patterned buffers with every other rank, for sizes 0, 1, 100,
 * 8 KiB, 100 KiB and 1 MiB: once with Irecv/Isend + Waitall, once with pairwise Sendrecv. */
#include "check.h"

static uint32_t seed(int src, int dst, int size_idx, int phase)
{
    return (uint32_t)(src * 7919 + dst * 104729 + size_idx * 31 + phase * 1000003);
}

int main(int argc, char **argv)
{
    static const int sizes[] = {0, 1, 100, 8192, 100 * 1024, 1024 * 1024};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));

    unsigned char **sbuf = calloc(n, sizeof *sbuf), **rbuf = calloc(n, sizeof *rbuf);
    MPI_Request *reqs = malloc(2 * n * sizeof *reqs);
    MPI_Status *sts = malloc(2 * n * sizeof *sts);
    CHECK(sbuf && rbuf && reqs && sts, "malloc");

    for (int si = 0; si < nsizes; si++) {
        int len = sizes[si];
        for (int p = 0; p < n; p++) {
            sbuf[p] = malloc(len + 1);
            rbuf[p] = malloc(len + 1);
            CHECK(sbuf[p] && rbuf[p], "malloc");
        }

        /* Phase 0: nonblocking, all at once. */
        int nr = 0;
        for (int p = 0; p < n; p++) {
            if (p == rank)
                continue;
            memset(rbuf[p], 0xee, len + 1);
            CHECK_MPI(MPI_Irecv(rbuf[p], len, MPI_BYTE, p, si, MPI_COMM_WORLD, &reqs[nr++]));
        }
        int nrecv = nr;
        for (int p = 0; p < n; p++) {
            if (p == rank)
                continue;
            ct_fill(sbuf[p], len, seed(rank, p, si, 0));
            CHECK_MPI(MPI_Isend(sbuf[p], len, MPI_BYTE, p, si, MPI_COMM_WORLD, &reqs[nr++]));
        }
        CHECK_MPI(MPI_Waitall(nr, reqs, sts));
        for (int i = 0, p = 0; p < n; p++) {
            if (p == rank)
                continue;
            int count = -1;
            CHECK_MPI(MPI_Get_count(&sts[i], MPI_BYTE, &count));
            CHECK(sts[i].MPI_SOURCE == p && sts[i].MPI_TAG == si && count == len,
                  "Irecv from %d size %d: status source %d tag %d count %d", p, len,
                  sts[i].MPI_SOURCE, sts[i].MPI_TAG, count);
            CHECK(ct_verify(rbuf[p], len, seed(p, rank, si, 0), "Irecv data"),
                  "Irecv from %d size %d: wrong data", p, len);
            CHECK(rbuf[p][len] == 0xee, "Irecv from %d size %d wrote past the buffer", p, len);
            CHECK(reqs[i] == MPI_REQUEST_NULL, "request %d not set to MPI_REQUEST_NULL", i);
            i++;
        }
        CHECK(nrecv == n - 1, "posted %d receives", nrecv);

        /* Phase 1: pairwise Sendrecv with shifting partners. */
        for (int k = 1; k < n; k++) {
            int dst = (rank + k) % n, src = (rank + n - k) % n;
            MPI_Status st;
            memset(rbuf[src], 0xee, len + 1);
            ct_fill(sbuf[dst], len, seed(rank, dst, si, 1));
            CHECK_MPI(MPI_Sendrecv(sbuf[dst], len, MPI_BYTE, dst, 100 + si, rbuf[src], len,
                                   MPI_BYTE, src, 100 + si, MPI_COMM_WORLD, &st));
            int count = -1;
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK(st.MPI_SOURCE == src && st.MPI_TAG == 100 + si && count == len,
                  "Sendrecv from %d size %d: status source %d tag %d count %d", src, len,
                  st.MPI_SOURCE, st.MPI_TAG, count);
            CHECK(ct_verify(rbuf[src], len, seed(src, rank, si, 1), "Sendrecv data"),
                  "Sendrecv from %d size %d: wrong data", src, len);
            CHECK(rbuf[src][len] == 0xee, "Sendrecv from %d size %d wrote past the buffer", src,
                  len);
        }
        for (int p = 0; p < n; p++) {
            free(sbuf[p]);
            free(rbuf[p]);
        }
    }
    free(sbuf);
    free(rbuf);
    free(reqs);
    free(sts);
    ct_ok("allpairs");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
