/* rma_remote_done: a put is done at its target once the origin's MPI_Win_unlock (or
 * MPI_Win_flush) returns — whoever tells the target next, by whatever path. Rank 0 puts a
 * block into rank 1's window (exclusive lock, then flush and unlock), then tells rank 2,
 * which tells rank 1 (so the news reaches the target over other connections than the
 * put's); rank 1 then checks every byte, under a lock of its own window, and lets rank 0
 * go on. Blocks of 8 B to 1 MiB, each round a new pattern. (On iWARP a write completes at
 * its origin once sent, not once placed: see the README's verbs section.)
 * usage: rma_remote_done [ROUNDS] (default 20); 3 ranks or more (the others idle). */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK(n >= 3, "needs 3 ranks, has %d", n);
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    CHECK(rounds > 0 && rounds <= 10000, "bad ROUNDS %d", rounds);
    const size_t max = 1 << 20;
    unsigned char *mem = calloc(max, 1), *src = malloc(max);
    CHECK(mem && src, "malloc");
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, rank == 1 ? (MPI_Aint)max : 0, 1, MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    for (int r = 0; r < rounds; r++) {
        size_t len = (size_t)8 << (r % 18); /* 8 B .. 1 MiB */
        unsigned char seed = (unsigned char)(r * 37 + 11);
        int token = r;
        if (rank == 0) {
            for (size_t i = 0; i < len; i++)
                src[i] = (unsigned char)(seed + i * 7);
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win));
            CHECK_MPI(MPI_Put(src, (int)len, MPI_BYTE, 1, 0, (int)len, MPI_BYTE, win));
            if (r % 2)
                CHECK_MPI(MPI_Win_flush(1, win));
            CHECK_MPI(MPI_Win_unlock(1, win));
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 2, r, MPI_COMM_WORLD));
            /* The next round's put waits until the target has looked. */
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else if (rank == 2) {
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 1, r, MPI_COMM_WORLD));
        } else if (rank == 1) {
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 2, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(token == r, "round %d: token %d", r, token);
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win));
            for (size_t i = 0; i < len; i++)
                CHECK(mem[i] == (unsigned char)(seed + i * 7),
                      "round %d (%zu B): byte %zu is %u, not %u", r, len, i, mem[i],
                      (unsigned char)(seed + i * 7));
            CHECK_MPI(MPI_Win_unlock(1, win));
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, r, MPI_COMM_WORLD));
        }
    }
    CHECK_MPI(MPI_Win_free(&win));
    if (rank == 0)
        printf("ok rma_remote_done n=%d rounds=%d\n", n, rounds);
    free(mem);
    free(src);
    MPI_Finalize();
    return 0;
}
