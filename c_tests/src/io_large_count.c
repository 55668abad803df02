/* io_large_count: the large-count (`_c`) forms of MPI-IO data access, in a directory given
 * as argv[1].
 *
 * Each rank owns block `rank` of B longs (at byte offset rank * B * 8 of a file of `size`
 * blocks, and again in a second region after them for the collective calls). Through each
 * family of `_c` calls -- explicit offsets (read_at_c, write_at_c, the _all forms and their
 * split _begin_c), individual file pointers (read_c, write_c, _all, split), the shared
 * pointer (read_shared_c, write_shared_c, read_ordered_c, write_ordered_c and split), and
 * the nonblocking forms (iread_at_c, iwrite_at_c, _all, iread_c, iwrite_c, _all,
 * iread_shared_c, iwrite_shared_c) -- each rank writes its block and reads back another
 * rank's, every element checked, MPI_Get_count_c of each status checked;
 * MPI_File_get_type_extent_c. On railmpi a negative MPI_Count is MPI_ERR_COUNT through the
 * file's handler. Checked on MPICH 5.0.2. */
#include "check.h"

#define B 256

static int rank, size;

static long v(int r, int i, int salt)
{
    return 1000000L * salt + 1000L * r + i;
}

static void fill(long *buf, int r, int salt)
{
    for (int i = 0; i < B; i++)
        buf[i] = v(r, i, salt);
}

static void verify(const long *buf, int r, int salt, const char *what)
{
    for (int i = 0; i < B; i++)
        CHECK(buf[i] == v(r, i, salt), "%s: [%d] = %ld, not %ld (block of %d)", what, i, buf[i],
              v(r, i, salt), r);
}

static void count_is(MPI_Status *st, MPI_Count want, const char *what)
{
    MPI_Count n = -1;
    CHECK_MPI(MPI_Get_count_c(st, MPI_LONG, &n));
    CHECK(n == want, "%s: MPI_Get_count_c %ld, not %ld", what, (long)n, (long)want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc > 1, "usage: io_large_count DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/large_count.dat", argv[1]);
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh));
    MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL);
    MPI_Count ext = -1;
    CHECK_MPI(MPI_File_get_type_extent_c(fh, MPI_LONG, &ext));
    CHECK(ext == 8, "MPI_File_get_type_extent_c(MPI_LONG) = %ld", (long)ext);

    long out[B], in[B];
    MPI_Status st;
    MPI_Request rq;
    const MPI_Offset blk = (MPI_Offset)B * 8, region = blk * size;
    int other = (rank + 1) % size;

    /* Explicit offsets: independent, collective, split, nonblocking. */
    fill(out, rank, 1);
    CHECK_MPI(MPI_File_write_at_c(fh, rank * blk, out, B, MPI_LONG, &st));
    count_is(&st, B, "write_at_c");
    fill(out, rank, 2);
    CHECK_MPI(MPI_File_write_at_all_c(fh, region + rank * blk, out, B, MPI_LONG, &st));
    count_is(&st, B, "write_at_all_c");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_File_read_at_c(fh, other * blk, in, B, MPI_LONG, &st));
    count_is(&st, B, "read_at_c");
    verify(in, other, 1, "read_at_c");
    CHECK_MPI(MPI_File_read_at_all_c(fh, region + other * blk, in, B, MPI_LONG, &st));
    verify(in, other, 2, "read_at_all_c");
    fill(out, rank, 3);
    CHECK_MPI(MPI_File_write_at_all_begin_c(fh, 2 * region + rank * blk, out, B, MPI_LONG));
    CHECK_MPI(MPI_File_write_at_all_end(fh, out, &st));
    CHECK_MPI(MPI_File_iwrite_at_c(fh, 3 * region + rank * blk, out, B, MPI_LONG, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    count_is(&st, B, "iwrite_at_c");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_File_read_at_all_begin_c(fh, 2 * region + other * blk, in, B, MPI_LONG));
    CHECK_MPI(MPI_File_read_at_all_end(fh, in, &st));
    verify(in, other, 3, "read_at_all_begin_c");
    memset(in, 0, sizeof in);
    CHECK_MPI(MPI_File_iread_at_c(fh, 3 * region + other * blk, in, B, MPI_LONG, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    count_is(&st, B, "iread_at_c");
    verify(in, other, 3, "iread_at_c");
    CHECK_MPI(MPI_File_iwrite_at_all_c(fh, 4 * region + rank * blk, out, B, MPI_LONG, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    memset(in, 0, sizeof in);
    CHECK_MPI(MPI_File_iread_at_all_c(fh, 4 * region + other * blk, in, B, MPI_LONG, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    verify(in, other, 3, "iread_at_all_c");

    /* Individual file pointers. */
    fill(out, rank, 4);
    CHECK_MPI(MPI_File_seek(fh, 5 * region + rank * blk, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_write_c(fh, out, B, MPI_LONG, &st));
    count_is(&st, B, "write_c");
    CHECK_MPI(MPI_File_seek(fh, 6 * region + rank * blk, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_write_all_c(fh, out, B, MPI_LONG, &st));
    CHECK_MPI(MPI_File_seek(fh, 7 * region + rank * blk, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_iwrite_c(fh, out, B, MPI_LONG, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK_MPI(MPI_File_seek(fh, 8 * region + rank * blk, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_iwrite_all_c(fh, out, B, MPI_LONG, &rq));
    CHECK_MPI(MPI_Wait(&rq, &st));
    CHECK_MPI(MPI_File_seek(fh, 9 * region + rank * blk, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_write_all_begin_c(fh, out, B, MPI_LONG));
    CHECK_MPI(MPI_File_write_all_end(fh, out, &st));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int k = 5; k <= 9; k++) {
        memset(in, 0, sizeof in);
        CHECK_MPI(MPI_File_seek(fh, k * region + other * blk, MPI_SEEK_SET));
        switch (k) {
        case 5:
            CHECK_MPI(MPI_File_read_c(fh, in, B, MPI_LONG, &st));
            count_is(&st, B, "read_c");
            break;
        case 6:
            CHECK_MPI(MPI_File_read_all_c(fh, in, B, MPI_LONG, &st));
            break;
        case 7:
            CHECK_MPI(MPI_File_iread_c(fh, in, B, MPI_LONG, &rq));
            CHECK_MPI(MPI_Wait(&rq, &st));
            break;
        case 8:
            CHECK_MPI(MPI_File_iread_all_c(fh, in, B, MPI_LONG, &rq));
            CHECK_MPI(MPI_Wait(&rq, &st));
            break;
        default:
            CHECK_MPI(MPI_File_read_all_begin_c(fh, in, B, MPI_LONG));
            CHECK_MPI(MPI_File_read_all_end(fh, in, &st));
        }
        verify(in, other, 4, "individual pointer");
    }

    /* The shared file pointer: ordered (rank order), then independent ones (each block
     * found by its first element), then split ordered. */
    MPI_Offset base = 10 * region;
    CHECK_MPI(MPI_File_seek_shared(fh, base, MPI_SEEK_SET));
    fill(out, rank, 5);
    CHECK_MPI(MPI_File_write_ordered_c(fh, out, B, MPI_LONG, &st));
    count_is(&st, B, "write_ordered_c");
    CHECK_MPI(MPI_File_seek_shared(fh, base, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_ordered_c(fh, in, B, MPI_LONG, &st));
    verify(in, rank, 5, "read_ordered_c");
    base += region;
    CHECK_MPI(MPI_File_seek_shared(fh, base, MPI_SEEK_SET));
    fill(out, rank, 6);
    if (rank % 2)
        CHECK_MPI(MPI_File_write_shared_c(fh, out, B, MPI_LONG, &st));
    else {
        CHECK_MPI(MPI_File_iwrite_shared_c(fh, out, B, MPI_LONG, &rq));
        CHECK_MPI(MPI_Wait(&rq, &st));
    }
    count_is(&st, B, "write_shared_c");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_File_seek_shared(fh, base, MPI_SEEK_SET));
    int seen = 0;
    for (int b = 0; b < size; b++) {
        memset(in, 0, sizeof in);
        CHECK_MPI(MPI_File_read_at_c(fh, base + b * blk, in, B, MPI_LONG, &st));
        int owner = (int)((in[0] - 6000000L) / 1000);
        CHECK(owner >= 0 && owner < size, "shared block %d: first element %ld", b, in[0]);
        verify(in, owner, 6, "write_shared_c");
        seen |= 1 << (owner % 30);
    }
    CHECK(size > 30 || seen == (1 << size) - 1, "write_shared_c: blocks of ranks %#x", seen);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* Each rank reads one block through the shared pointer (which block is a race). */
    memset(in, 0, sizeof in);
    if (rank % 2)
        CHECK_MPI(MPI_File_read_shared_c(fh, in, B, MPI_LONG, &st));
    else {
        CHECK_MPI(MPI_File_iread_shared_c(fh, in, B, MPI_LONG, &rq));
        CHECK_MPI(MPI_Wait(&rq, &st));
    }
    count_is(&st, B, "read_shared_c");
    verify(in, (int)((in[0] - 6000000L) / 1000), 6, "read_shared_c");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    base += region;
    CHECK_MPI(MPI_File_seek_shared(fh, base, MPI_SEEK_SET));
    fill(out, rank, 7);
    CHECK_MPI(MPI_File_write_ordered_begin_c(fh, out, B, MPI_LONG));
    CHECK_MPI(MPI_File_write_ordered_end(fh, out, &st));
    CHECK_MPI(MPI_File_seek_shared(fh, base, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_ordered_begin_c(fh, in, B, MPI_LONG));
    CHECK_MPI(MPI_File_read_ordered_end(fh, in, &st));
    verify(in, rank, 7, "read_ordered_begin_c");
#ifdef RAILMPI
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    int rc = MPI_File_write_at_c(fh, 0, out, -1, MPI_LONG, &st), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "write_at_c count -1: class %d", cls);
#endif
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    ct_ok("io_large_count");
    MPI_Finalize();
    return 0;
}
