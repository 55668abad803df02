/* stripes: messages and one-sided transfers of sizes around every threshold (eager limits,
 * striping threshold, stripe minimum, page size; +-1 byte), between the first rank and the
 * last (on another host in the multirail tests), every byte checked:
 *   1. blocking send/recv both ways, each size;
 *   2. a window of every size in flight at once, received in reverse order of posting,
 *      into buffers offset by one byte (unaligned);
 *   3. a strided (vector) message of 2 MiB;
 *   4. MPI_ANY_TAG receives of small and large messages interleaved: they must match in
 *      the order they were sent (non-overtaking, whichever subchannel each took);
 *   5. MPI_Put and MPI_Get of each size into / out of an MPI_Win_create window (user
 *      memory, reached with keyed RDMA) under a passive-target lock.
 * Other ranks only join the barriers. */
#include "check.h"

static const size_t SIZES[] = {
    1,           4095,        4096,        4097,        65535,       65536,
    65537,       131071,      131072,      131073,      262143,      262144,
    262145,      (1u << 20) + 7, (3u << 20) + 4097, 8u << 20,
};
#define NS (sizeof SIZES / sizeof SIZES[0])
#define MAXSZ (8u << 20)

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    const int a = 0, b = n - 1;
    const int me = rank == a ? 0 : rank == b ? 1 : -1;
    const int peer = me == 0 ? b : a;
    unsigned char *buf = malloc(MAXSZ + 64);
    CHECK(buf, "malloc");
    MPI_Status st;
    int count;

    /* 1. Blocking, both ways. */
    for (size_t i = 0; i < NS && me >= 0; i++) {
        for (int dir = 0; dir < 2; dir++) {
            uint32_t seed = (uint32_t)(100 * i + dir);
            if (me == dir) {
                ct_fill(buf, SIZES[i], seed);
                CHECK_MPI(MPI_Send(buf, (int)SIZES[i], MPI_BYTE, peer, (int)i, MPI_COMM_WORLD));
            } else {
                memset(buf, 0, SIZES[i]);
                CHECK_MPI(MPI_Recv(buf, (int)SIZES[i], MPI_BYTE, peer, (int)i, MPI_COMM_WORLD, &st));
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
                CHECK((size_t)count == SIZES[i], "size %zu: count %d", SIZES[i], count);
                CHECK(ct_verify(buf, SIZES[i], seed, "blocking"), "size %zu", SIZES[i]);
            }
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. All sizes in flight at once, received in reverse order, unaligned. */
    if (me >= 0) {
        unsigned char *bufs[NS];
        MPI_Request reqs[NS];
        for (size_t i = 0; i < NS; i++) {
            bufs[i] = malloc(SIZES[i] + 1);
            CHECK(bufs[i], "malloc");
        }
        if (me == 0) {
            for (size_t i = 0; i < NS; i++) {
                ct_fill(bufs[i] + 1, SIZES[i], (uint32_t)(7000 + i));
                CHECK_MPI(MPI_Isend(bufs[i] + 1, (int)SIZES[i], MPI_BYTE, peer, (int)i,
                                    MPI_COMM_WORLD, &reqs[i]));
            }
        } else {
            for (size_t k = 0; k < NS; k++) {
                size_t i = NS - 1 - k;
                memset(bufs[i], 0, SIZES[i] + 1);
                CHECK_MPI(MPI_Irecv(bufs[i] + 1, (int)SIZES[i], MPI_BYTE, peer, (int)i,
                                    MPI_COMM_WORLD, &reqs[i]));
            }
        }
        CHECK_MPI(MPI_Waitall((int)NS, reqs, MPI_STATUSES_IGNORE));
        for (size_t i = 0; i < NS; i++) {
            if (me == 1)
                CHECK(ct_verify(bufs[i] + 1, SIZES[i], (uint32_t)(7000 + i), "in flight"),
                      "size %zu", SIZES[i]);
            free(bufs[i]);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 3. A strided message: 2 MiB in 4 KiB blocks every 8 KiB. */
    if (me >= 0) {
        MPI_Datatype vec;
        CHECK_MPI(MPI_Type_vector(512, 4096, 8192, MPI_BYTE, &vec));
        CHECK_MPI(MPI_Type_commit(&vec));
        if (me == 0) {
            ct_fill(buf, 4u << 20, 77);
            CHECK_MPI(MPI_Send(buf, 1, vec, peer, 3, MPI_COMM_WORLD));
        } else {
            memset(buf, 0, 2u << 20);
            CHECK_MPI(MPI_Recv(buf, 2u << 20, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &st));
            unsigned char *want = malloc(4u << 20);
            CHECK(want, "malloc");
            ct_fill(want, 4u << 20, 77);
            for (int k = 0; k < 512; k++)
                CHECK(memcmp(buf + 4096 * k, want + 8192 * k, 4096) == 0, "block %d", k);
            free(want);
        }
        CHECK_MPI(MPI_Type_free(&vec));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 4. Non-overtaking: a numbered stream of small and large messages, matched by
     * MPI_ANY_TAG receives, must arrive in the order sent. */
    if (me >= 0) {
        const int msgs = 200;
        if (me == 0) {
            for (int k = 0; k < msgs; k++) {
                size_t len = (k % 10 == 9) ? (300u << 10) + (size_t)k : 8 + (size_t)(k % 7) * 1000;
                ct_fill(buf, len, (uint32_t)(9000 + k));
                memcpy(buf, &k, sizeof k);
                CHECK_MPI(MPI_Send(buf, (int)len, MPI_BYTE, peer, k % 5, MPI_COMM_WORLD));
            }
        } else {
            for (int k = 0; k < msgs; k++) {
                size_t len = (k % 10 == 9) ? (300u << 10) + (size_t)k : 8 + (size_t)(k % 7) * 1000;
                CHECK_MPI(MPI_Recv(buf, MAXSZ, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                int got;
                memcpy(&got, buf, sizeof got);
                CHECK(got == k, "message %d arrived as number %d", got, k);
                CHECK(st.MPI_TAG == k % 5, "message %d has tag %d", k, st.MPI_TAG);
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
                CHECK((size_t)count == len, "message %d: %d bytes, want %zu", k, count, len);
                ct_fill(buf, sizeof got, (uint32_t)(9000 + k)); /* the number's bytes */
                CHECK(ct_verify(buf, len, (uint32_t)(9000 + k), "stream"), "message %d", k);
            }
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 5. One-sided: the last rank's window, the first rank puts and gets. */
    unsigned char *win_mem = malloc(MAXSZ);
    CHECK(win_mem, "malloc");
    memset(win_mem, 0, MAXSZ);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(win_mem, me == 1 ? MAXSZ : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (size_t i = 0; i < NS; i++) {
        uint32_t seed = (uint32_t)(5000 + i);
        if (me == 0) {
            ct_fill(buf, SIZES[i], seed);
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, b, 0, win));
            CHECK_MPI(MPI_Put(buf, (int)SIZES[i], MPI_BYTE, b, 0, (int)SIZES[i], MPI_BYTE, win));
            CHECK_MPI(MPI_Win_unlock(b, win));
            memset(buf, 0, SIZES[i]);
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, b, 0, win));
            CHECK_MPI(MPI_Get(buf, (int)SIZES[i], MPI_BYTE, b, 0, (int)SIZES[i], MPI_BYTE, win));
            CHECK_MPI(MPI_Win_unlock(b, win));
            CHECK(ct_verify(buf, SIZES[i], seed, "put then get"), "size %zu", SIZES[i]);
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (me == 1) {
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, b, 0, win));
            CHECK(ct_verify(win_mem, SIZES[i], seed, "window after put"), "size %zu", SIZES[i]);
            CHECK_MPI(MPI_Win_unlock(b, win));
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Win_free(&win));
    free(win_mem);
    free(buf);
    ct_ok("stripes");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
