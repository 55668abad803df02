/* bsend: buffered mode. Every rank sends every other rank eager and rendezvous-sized
 * messages (contiguous and a strided vector type) with MPI_Bsend, MPI_Ibsend and a
 * persistent MPI_Bsend_init request, overwriting its own buffer as soon as each call returns
 * (the data must have been copied into the attached buffer); the receivers post their
 * receives only after a barrier, so the messages wait as unexpected ones (rendezvous ones in
 * the attached buffer). MPI_Buffer_detach must wait for those sends: the detached buffer is
 * wiped before the receivers look, so a detach that returned early corrupts their data.
 * Errors: MPI_Bsend with no buffer, a buffer too small, a second attach: MPI_ERR_BUFFER;
 * a message of exactly the attached size less MPI_BSEND_OVERHEAD fits. */
#include "check.h"

#define NSIZES 4
static const int sizes[NSIZES] = {0, 8, 3000, 300000}; /* bytes of MPI_INT data */
#define VEC_COUNT 1000                                /* vector: 1000 ints, stride 2 */

static uint32_t seed(int src, int dst, int k) { return (uint32_t)(src * 7919 + dst * 131 + k); }

static void expect_class(int rc, int want, const char *what)
{
    int cls = -1;
    CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS", what);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == want, "%s: error class %d, expected %d", what, cls, want);
}

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_BSEND_OVERHEAD == 96, "MPI_BSEND_OVERHEAD is %d, MPICH's is 96", MPI_BSEND_OVERHEAD);

    /* Errors first. */
    int x[4] = {1, 2, 3, 4};
    expect_class(MPI_Bsend(x, 1, MPI_INT, rank, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "MPI_Bsend without a buffer");
    /* Room for exactly one message of 4 ints (MPI_BSEND_OVERHEAD counted). */
    int smallsize = MPI_BSEND_OVERHEAD + (int)sizeof x;
    void *small = malloc(smallsize);
    int big[256];
    CHECK_MPI(MPI_Buffer_attach(small, smallsize));
    expect_class(MPI_Buffer_attach(small, 8), MPI_ERR_BUFFER, "a second MPI_Buffer_attach");
    void *addr = NULL;
    int size = -1;
    CHECK_MPI(MPI_Buffer_detach(&addr, &size));
    expect_class(MPI_Buffer_attach(small, MPI_BSEND_OVERHEAD - 1), MPI_ERR_BUFFER,
                 "MPI_Buffer_attach of less than MPI_BSEND_OVERHEAD");
    CHECK_MPI(MPI_Buffer_attach(small, smallsize));
    expect_class(MPI_Bsend(big, 256, MPI_INT, rank, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "MPI_Bsend too large for the buffer");
    /* Four ints fit; to self, received right away. */
    CHECK_MPI(MPI_Bsend(x, 4, MPI_INT, rank, 2, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Bsend(big, 256, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD));
    int y[4] = {0, 0, 0, 0};
    CHECK_MPI(MPI_Recv(y, 4, MPI_INT, rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(y[0] == 1 && y[3] == 4, "self Bsend delivered %d..%d", y[0], y[3]);
    CHECK_MPI(MPI_Buffer_detach(&addr, &size));
    CHECK(addr == small && size == smallsize, "detach gave %p/%d, attached %p/%d", addr, size,
          small, smallsize);
    free(small);
    CHECK_MPI(MPI_Buffer_detach(&addr, &size));
    CHECK(addr == NULL && size == 0, "detach with nothing attached gave %p/%d", addr, size);

    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(VEC_COUNT, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));

    /* Per peer: NSIZES contiguous Bsends, one vector Bsend, one Ibsend, two Bsend_init
     * starts (the largest size each). */
    int total = 0, pk;
    for (int k = 0; k < NSIZES; k++) {
        CHECK_MPI(MPI_Pack_size(sizes[k] / 4, MPI_INT, MPI_COMM_WORLD, &pk));
        total += pk + MPI_BSEND_OVERHEAD;
    }
    CHECK_MPI(MPI_Pack_size(1, vec, MPI_COMM_WORLD, &pk));
    total += pk + MPI_BSEND_OVERHEAD;
    CHECK_MPI(MPI_Pack_size(sizes[NSIZES - 1] / 4, MPI_INT, MPI_COMM_WORLD, &pk));
    total += 3 * (pk + MPI_BSEND_OVERHEAD);
    total = total * (n - 1) + MPI_BSEND_OVERHEAD; /* MPICH refuses less than the overhead */
    char *bbuf = malloc(total);
    CHECK_MPI(MPI_Buffer_attach(bbuf, total));

    int maxb = sizes[NSIZES - 1];
    unsigned char *sbuf = malloc(maxb);
    int *vbuf = malloc(2 * VEC_COUNT * sizeof(int));
    MPI_Request preq;
    CHECK_MPI(MPI_Bsend_init(sbuf, maxb / 4, MPI_INT, (rank + 1) % n, 20, MPI_COMM_WORLD, &preq));
    for (int d = 0; d < n; d++) {
        if (d == rank)
            continue;
        for (int k = 0; k < NSIZES; k++) {
            ct_fill(sbuf, sizes[k], seed(rank, d, k));
            CHECK_MPI(MPI_Bsend(sbuf, sizes[k] / 4, MPI_INT, d, k, MPI_COMM_WORLD));
            memset(sbuf, 0xee, maxb); /* ours again at return */
        }
        ct_fill(vbuf, 2 * VEC_COUNT * sizeof(int), seed(rank, d, 10));
        CHECK_MPI(MPI_Bsend(vbuf, 1, vec, d, 10, MPI_COMM_WORLD));
        memset(vbuf, 0xee, 2 * VEC_COUNT * sizeof(int));
        MPI_Request r;
        ct_fill(sbuf, maxb, seed(rank, d, 11));
        CHECK_MPI(MPI_Ibsend(sbuf, maxb / 4, MPI_INT, d, 11, MPI_COMM_WORLD, &r));
        memset(sbuf, 0xee, maxb);
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(r == MPI_REQUEST_NULL, "Ibsend request not freed by Wait");
    }
    /* The persistent request goes to the right neighbour only, twice. */
    if (n > 1) {
        for (int it = 0; it < 2; it++) {
            ct_fill(sbuf, maxb, seed(rank, (rank + 1) % n, 20 + it));
            CHECK_MPI(MPI_Start(&preq));
            memset(sbuf, 0xee, maxb);
            CHECK_MPI(MPI_Wait(&preq, MPI_STATUS_IGNORE));
            CHECK(preq != MPI_REQUEST_NULL, "persistent Bsend request freed by Wait");
        }
    }
    CHECK_MPI(MPI_Request_free(&preq));

    /* Nothing has been received yet. Rank 0 starts receiving late, so the others'
     * rendezvous sends to it are still reading from the attached buffer when they detach:
     * MPI_Buffer_detach must wait for them (the buffer is wiped right after it). */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        ct_sleep_ms(300);
    unsigned char *rbuf = malloc(maxb);
    int *rvec = malloc(2 * VEC_COUNT * sizeof(int));
    MPI_Request rq[NSIZES + 4];
    int nrq = 0;
    unsigned char *rb[NSIZES + 4];
    for (int s = 0; s < n; s++) {
        if (s == rank)
            continue;
        nrq = 0;
        for (int k = 0; k < NSIZES; k++) {
            rb[nrq] = malloc(sizes[k] + 1);
            CHECK_MPI(MPI_Irecv(rb[nrq], sizes[k] / 4, MPI_INT, s, k, MPI_COMM_WORLD, &rq[nrq]));
            nrq++;
        }
        memset(rvec, 0, 2 * VEC_COUNT * sizeof(int));
        CHECK_MPI(MPI_Irecv(rvec, 1, vec, s, 10, MPI_COMM_WORLD, &rq[nrq++]));
        CHECK_MPI(MPI_Irecv(rbuf, maxb / 4, MPI_INT, s, 11, MPI_COMM_WORLD, &rq[nrq++]));
        int persistent_from_s = (s + 1) % n == rank;
        unsigned char *p0 = malloc(maxb), *p1 = malloc(maxb);
        if (persistent_from_s) {
            CHECK_MPI(MPI_Irecv(p0, maxb / 4, MPI_INT, s, 20, MPI_COMM_WORLD, &rq[nrq++]));
            CHECK_MPI(MPI_Irecv(p1, maxb / 4, MPI_INT, s, 20, MPI_COMM_WORLD, &rq[nrq++]));
        }
        CHECK_MPI(MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE));
        for (int k = 0; k < NSIZES; k++) {
            CHECK(ct_verify(rb[k], sizes[k], seed(s, rank, k), "Bsend data"), "from %d size %d",
                  s, sizes[k]);
            free(rb[k]);
        }
        for (int i = 0; i < 2 * VEC_COUNT; i++) {
            int want;
            unsigned char *w = (unsigned char *)&want;
            for (int b = 0; b < 4; b++)
                w[b] = ct_byte(seed(s, rank, 10), (size_t)i * 4 + b);
            CHECK(rvec[i] == (i % 2 == 0 ? want : 0), "vector int %d from %d wrong", i, s);
        }
        CHECK(ct_verify(rbuf, maxb, seed(s, rank, 11), "Ibsend data"), "from %d", s);
        if (persistent_from_s) {
            CHECK(ct_verify(p0, maxb, seed(s, rank, 20), "Bsend_init data, 1st"), "from %d", s);
            CHECK(ct_verify(p1, maxb, seed(s, rank, 21), "Bsend_init data, 2nd"), "from %d", s);
        }
        free(p0);
        free(p1);
    }
    CHECK_MPI(MPI_Buffer_detach(&addr, &size));
    CHECK(addr == bbuf && size == total, "detach gave %p/%d, attached %p/%d", addr, size,
          (void *)bbuf, total);
    memset(bbuf, 0x55, total);
    free(bbuf);

    /* Detach waits: rank 1 sends rank 0 a rendezvous-sized message from a fresh buffer and
     * detaches at once, then wipes the buffer; rank 0 posts its receive only 300 ms later.
     * A detach that returned before the message left the buffer hands rank 0 the wipe. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (n >= 2 && rank == 1) {
        int bytes = maxb + MPI_BSEND_OVERHEAD;
        char *b2 = malloc(bytes);
        CHECK_MPI(MPI_Buffer_attach(b2, bytes));
        ct_fill(sbuf, maxb, seed(1, 0, 30));
        CHECK_MPI(MPI_Bsend(sbuf, maxb, MPI_BYTE, 0, 30, MPI_COMM_WORLD));
        double t0 = MPI_Wtime();
        CHECK_MPI(MPI_Buffer_detach(&addr, &size));
        double waited = MPI_Wtime() - t0;
        memset(b2, 0x55, bytes);
        free(b2);
        CHECK(waited > 0.1, "MPI_Buffer_detach returned after %.3f s, before the receive", waited);
    } else if (n >= 2 && rank == 0) {
        ct_sleep_ms(300);
        memset(rbuf, 0, maxb);
        CHECK_MPI(MPI_Recv(rbuf, maxb, MPI_BYTE, 1, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(ct_verify(rbuf, maxb, seed(1, 0, 30), "Bsend before detach"), "from 1");
    }
    free(sbuf);
    free(vbuf);
    free(rbuf);
    free(rvec);
    CHECK_MPI(MPI_Type_free(&vec));
    ct_ok("bsend");
    MPI_Finalize();
    return 0;
}
