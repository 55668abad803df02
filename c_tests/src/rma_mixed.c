/* rma_mixed: point-to-point and RMA in the same fence epoch must not deadlock each other.
 *  1. fence; MPI_Irecv + MPI_Isend of 4 MiB around the ring; MPI_Put of 64 KiB into the
 *     next rank's window; fence (the sends are still pending); MPI_Waitall.
 *  2. fence; MPI_Isend of 4 MiB; MPI_Put of 4 MiB; fence; only now MPI_Irecv; MPI_Waitall.
 *  3. lock_all; Isend/Irecv 4 MiB; Put + flush; Waitall; unlock_all.
 * Message data and window contents are checked byte for byte. */
#include "check.h"

#define MSG (4u << 20)
#define WIN (4u << 20)

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int next = (rank + 1) % n, prev = (rank - 1 + n) % n;
    unsigned char *sbuf = malloc(MSG), *rbuf = malloc(MSG), *pbuf = malloc(WIN), *wmem;
    CHECK(sbuf && rbuf && pbuf, "malloc");
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(WIN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wmem, &win));

    for (int variant = 1; variant <= 3; variant++) {
        size_t plen = variant == 1 ? 65536 : WIN;
        uint32_t sseed = 100u * variant + rank, pseed = 1000u * variant + rank;
        ct_fill(sbuf, MSG, sseed);
        ct_fill(pbuf, plen, pseed);
        memset(rbuf, 0, MSG);
        MPI_Request rq[2];
        if (variant < 3) {
            CHECK_MPI(MPI_Win_fence(0, win));
            memset(wmem, 0xee, WIN);
            CHECK_MPI(MPI_Win_fence(0, win));
        } else {
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
            memset(wmem, 0xee, WIN);
            CHECK_MPI(MPI_Win_unlock(rank, win));
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Win_lock_all(0, win));
        }
        if (variant != 2)
            CHECK_MPI(MPI_Irecv(rbuf, MSG, MPI_BYTE, prev, variant, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Isend(sbuf, MSG, MPI_BYTE, next, variant, MPI_COMM_WORLD, &rq[1]));
        CHECK_MPI(MPI_Put(pbuf, (int)plen, MPI_BYTE, next, 0, (int)plen, MPI_BYTE, win));
        if (variant < 3) {
            CHECK_MPI(MPI_Win_fence(0, win));
        } else {
            CHECK_MPI(MPI_Win_flush(next, win));
        }
        if (variant == 2)
            CHECK_MPI(MPI_Irecv(rbuf, MSG, MPI_BYTE, prev, variant, MPI_COMM_WORLD, &rq[0]));
        MPI_Status st[2];
        CHECK_MPI(MPI_Waitall(2, rq, st));
        int cnt = -1;
        CHECK_MPI(MPI_Get_count(&st[0], MPI_BYTE, &cnt));
        CHECK(cnt == (int)MSG, "variant %d: received %d bytes", variant, cnt);
        CHECK(ct_verify(rbuf, MSG, 100u * variant + prev, "message from prev"),
              "variant %d: message data wrong", variant);
        if (variant == 3) {
            CHECK_MPI(MPI_Win_unlock_all(win));
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
            CHECK_MPI(MPI_Win_sync(win));
        }
        CHECK(ct_verify(wmem, plen, 1000u * variant + prev, "window after Put"),
              "variant %d: window data wrong", variant);
        for (size_t i = plen; i < WIN; i++)
            CHECK(wmem[i] == 0xee, "variant %d: window byte %zu beyond the Put changed", variant,
                  i);
        if (variant == 3)
            CHECK_MPI(MPI_Win_unlock(rank, win));
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Win_free(&win));
    free(sbuf);
    free(rbuf);
    free(pbuf);
    char name[64];
    snprintf(name, sizeof name, "rma_mixed n=%d", n);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
