/* io_atomic: atomic mode (MPI_File_set_atomicity). Every rank writes the same region over
 * and over, whole, with its own value while all read it: every read must see one writer's
 * block, never a mix. Then interleaved strided writes (data sieving reads and writes back the
 * holes, which other ranks are filling at the same time) in atomic and non-atomic mode: no
 * rank's bytes may be lost. usage: io_atomic DIR */
#include "check.h"
#include <unistd.h>

enum { N = 16384, ROUNDS = 40, K = 2000 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc > 1, "usage: io_atomic DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/atomic.dat", argv[1]);
    if (rank == 0)
        unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    MPI_Status st;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    int flag = 1;
    CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 0, "atomicity starts off");
    CHECK_MPI(MPI_File_set_atomicity(fh, 1));
    CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 1, "atomicity on");

    int *mine = malloc(sizeof(int) * N), *seen = malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++)
        mine[i] = rank + 1;
    /* A strided memory type for half the rounds: the writes go through packing. */
    MPI_Datatype halves;
    int bl[2] = {N / 2, N / 2}, disp[2] = {0, N / 2};
    MPI_Type_indexed(2, bl, disp, MPI_INT, &halves);
    MPI_Type_commit(&halves);
    for (int round = 0; round < ROUNDS; round++) {
        if (round % 2)
            CHECK_MPI(MPI_File_write_at(fh, 0, mine, 1, halves, &st));
        else
            CHECK_MPI(MPI_File_write_at(fh, 0, mine, N, MPI_INT, &st));
        int count;
        CHECK_MPI(MPI_File_read_at(fh, 0, seen, N, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == N, "atomic read count %d", count);
        for (int i = 1; i < N; i++)
            CHECK(seen[i] == seen[0], "round %d: mixed block: [0]=%d [%d]=%d", round, seen[0], i, seen[i]);
        CHECK(seen[0] >= 1 && seen[0] <= size, "block value %d", seen[0]);
    }

    /* Interleaved strided writes through a view: rank r owns ints r, r+size, ... */
    MPI_Datatype one, tile;
    MPI_Type_contiguous(1, MPI_INT, &one);
    MPI_Type_create_resized(one, 0, size * sizeof(int), &tile);
    MPI_Type_commit(&tile);
    int *v = malloc(sizeof(int) * K), *all = malloc(sizeof(int) * K * size);
    for (int atomic = 1; atomic >= 0; atomic--) {
        CHECK_MPI(MPI_File_set_atomicity(fh, atomic));
        CHECK_MPI(MPI_File_set_size(fh, 0));
        CHECK_MPI(MPI_File_set_view(fh, rank * sizeof(int), MPI_INT, tile, "native", MPI_INFO_NULL));
        for (int i = 0; i < K; i++)
            v[i] = (i * size + rank) * 3 + atomic;
        /* in pieces, so the ranks' sieving spans overlap in time */
        for (int p = 0; p < K; p += K / 8)
            CHECK_MPI(MPI_File_write(fh, v + p, K / 8, MPI_INT, &st));
        CHECK_MPI(MPI_File_sync(fh));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_File_sync(fh));
        CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
        CHECK_MPI(MPI_File_read_at(fh, 0, all, K * size, MPI_INT, &st));
        for (int i = 0; i < K * size; i++)
            CHECK(all[i] == i * 3 + atomic, "atomic=%d: int %d = %d", atomic, i, all[i]);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK_MPI(MPI_File_close(&fh));
    if (rank == 0)
        unlink(path);
    MPI_Type_free(&halves);
    MPI_Type_free(&tile);
    MPI_Type_free(&one);
    free(mine);
    free(seen);
    free(v);
    free(all);
    ct_ok("io_atomic");
    MPI_Finalize();
    return 0;
}
