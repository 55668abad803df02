/* rma_inflight: many puts and gets in one passive-target epoch, completed by one flush.
 * Every rank locks its right neighbour's window (MPI_Win_create: memory the library did not
 * allocate, so the rails carry the transfers), then issues N puts of distinct values from
 * N distinct origin buffers to distinct offsets, flushes, issues N gets of those offsets
 * into N buffers, flushes, and checks every value; then the same with MPI_Win_lock_all and
 * MPI_Win_flush_all, and with a fence epoch. Under RAILMPI_STATS the library reports how
 * many transfers were in flight at once: the test cases require all N of an epoch (each
 * operation returns once posted; the synchronization completes them).
 * usage: rma_inflight [N] (default 32) */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int N = argc > 1 ? atoi(argv[1]) : 32;
    CHECK(N > 0 && N <= 4096, "bad N %d", N);
    const int stride = 16; /* ints between offsets: no two operations share a cache line */
    int *mem = calloc((size_t)N * stride, sizeof(int));
    int *src = malloc((size_t)N * stride * sizeof(int));
    int *dst = malloc((size_t)N * stride * sizeof(int));
    CHECK(mem && src && dst, "malloc");
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)N * stride * sizeof(int), sizeof(int),
                             MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int right = (rank + 1) % n, left = (rank + n - 1) % n;

    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++) {
            src[i * stride] = (rank + 1) * 1000000 + round * 10000 + i;
            dst[i * stride] = -1;
        }
        if (round == 0)
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
        else if (round == 1)
            CHECK_MPI(MPI_Win_lock_all(0, win));
        else
            CHECK_MPI(MPI_Win_fence(0, win));
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Put(&src[i * stride], 1, MPI_INT, right, (MPI_Aint)i * stride, 1,
                              MPI_INT, win));
        if (round == 0)
            CHECK_MPI(MPI_Win_flush(right, win));
        else if (round == 1)
            CHECK_MPI(MPI_Win_flush_all(win));
        else
            CHECK_MPI(MPI_Win_fence(0, win));
        for (int i = 0; i < N; i++)
            CHECK_MPI(MPI_Get(&dst[i * stride], 1, MPI_INT, right, (MPI_Aint)i * stride, 1,
                              MPI_INT, win));
        if (round == 0)
            CHECK_MPI(MPI_Win_unlock(right, win));
        else if (round == 1)
            CHECK_MPI(MPI_Win_unlock_all(win));
        else
            CHECK_MPI(MPI_Win_fence(0, win));
        for (int i = 0; i < N; i++)
            CHECK(dst[i * stride] == src[i * stride], "round %d: get %d read %d, put %d", round,
                  i, dst[i * stride], src[i * stride]);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        /* What the left neighbour put is in our window. */
        for (int i = 0; i < N; i++)
            CHECK(mem[i * stride] == (left + 1) * 1000000 + round * 10000 + i,
                  "round %d: window slot %d holds %d", round, i, mem[i * stride]);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Win_free(&win));
    free(mem);
    free(src);
    free(dst);
    ct_ok("rma_inflight");
    MPI_Finalize();
    return 0;
}
