/* dtype_integer16: MPI_INTEGER16, the 16-byte integer (Fortran INTEGER*16, C __int128),
 * which MPICH lacks (its header, and railmpi's MPICH-ABI one, make it MPI_DATATYPE_NULL) and
 * the MPI-5 standard ABI names. railmpi has it under a handle of its own, which the standard
 * ABI's MPI_INTEGER16 maps to and MPI_Type_match_size / MPI_Type_create_f90_integer return:
 * 1. size, extent, name; MPI_Type_match_size(INTEGER, 16) and the f90 integer of range 30
 *    give it; under the standard ABI it is MPI_INTEGER16 itself;
 * 2. sends and receives keep every byte of values past 2^64;
 * 3. MPI_Allreduce with MPI_SUM (carries across the 64-bit halves), MPI_MAX, MPI_BAND;
 * 4. MPI_Accumulate with MPI_SUM into rank 0's window from every rank (passive target);
 * 5. MPI_Pack_external("external32") writes it big-endian, and unpacks it back.
 * Elsewhere than on railmpi (no RAILMPI in the MPICH-ABI header, MPI_INTEGER16 null), it
 * says so and checks nothing. */
#include "check.h"

typedef __int128 i128;

/* A value past 2^64 that differs per rank in both halves. */
static i128 value_of(int rank)
{
    return ((i128)(0x1000 + rank) << 64) | (i128)(uint64_t)(0xfffffffffffffff0ull + rank);
}

static int same(i128 a, i128 b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifndef RAILMPI
    if (MPI_INTEGER16 == MPI_DATATYPE_NULL) {
        if (rank == 0)
            printf("ok dtype_integer16 (no MPI_INTEGER16 in this header: nothing checked)\n");
        MPI_Finalize();
        return 0;
    }
#else
    CHECK(MPI_INTEGER16 == MPI_DATATYPE_NULL, "MPICH's header has no MPI_INTEGER16");
#endif

    /* 1. */
    MPI_Datatype t = MPI_DATATYPE_NULL, f90 = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 16, &t));
#ifndef RAILMPI
    CHECK(t == MPI_INTEGER16, "MPI_Type_match_size(INTEGER, 16) is not MPI_INTEGER16");
#endif
    int sz = 0;
    MPI_Aint lb = -1, extent = 0;
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK(sz == 16 && lb == 0 && extent == 16, "size %d lb %ld extent %ld", sz, (long)lb,
          (long)extent);
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "MPI_INTEGER16") == 0, "name %s", name);
    CHECK_MPI(MPI_Type_create_f90_integer(30, &f90));
    CHECK_MPI(MPI_Type_size(f90, &sz));
    CHECK(sz == 16, "the f90 integer of range 30 has %d bytes", sz);

    /* 2. */
    i128 v[4], got[4];
    for (int i = 0; i < 4; i++)
        v[i] = value_of(i) * (i + 1);
    if (size > 1 && rank == 0)
        CHECK_MPI(MPI_Send(v, 4, t, 1, 7, MPI_COMM_WORLD));
    if (size > 1 && rank == 1) {
        memset(got, 0, sizeof got);
        MPI_Status st;
        int count = -1;
        CHECK_MPI(MPI_Recv(got, 4, t, 0, 7, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, t, &count));
        CHECK(count == 4 && memcmp(got, v, sizeof v) == 0, "received %d values, wrong", count);
    }

    /* 3. */
    i128 mine = value_of(rank), sum = 0, max = 0, band = 0, want = 0, wand = ~(i128)0;
    for (int r = 0; r < size; r++) {
        want += value_of(r);
        wand &= value_of(r);
    }
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, t, MPI_SUM, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&mine, &max, 1, t, MPI_MAX, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&mine, &band, 1, t, MPI_BAND, MPI_COMM_WORLD));
    CHECK(same(sum, want), "MPI_SUM of 16-byte integers is wrong");
    CHECK(same(max, value_of(size - 1)), "MPI_MAX of 16-byte integers is wrong");
    CHECK(same(band, wand), "MPI_BAND of 16-byte integers is wrong");

    /* 4. */
    i128 *base = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(i128), sizeof(i128), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &base, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    *base = 0;
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Accumulate(&mine, 1, t, 0, 0, 1, t, MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK(same(*base, want), "MPI_Accumulate's MPI_SUM of 16-byte integers is wrong");
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Win_free(&win));

    /* 5. */
    unsigned char ext[16], native[16];
    i128 x = 0, back = 0;
    for (int i = 0; i < 16; i++)
        ((unsigned char *)&x)[i] = (unsigned char)(i + 1); /* least significant byte first */
    MPI_Aint pos = 0, ext_size = 0;
    CHECK_MPI(MPI_Pack_external_size("external32", 1, t, &ext_size));
    CHECK(ext_size == 16, "external32 size %ld", (long)ext_size);
    CHECK_MPI(MPI_Pack_external("external32", &x, 1, t, ext, sizeof ext, &pos));
    CHECK(pos == 16, "packed %ld bytes", (long)pos);
    for (int i = 0; i < 16; i++)
        native[i] = (unsigned char)(16 - i);
    CHECK(memcmp(ext, native, 16) == 0, "external32 is not big-endian");
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", ext, sizeof ext, &pos, &back, 1, t));
    CHECK(same(back, x), "external32 round trip is wrong");

    ct_ok("dtype_integer16");
    MPI_Finalize();
    return 0;
}
