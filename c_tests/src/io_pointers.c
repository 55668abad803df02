/* io_pointers: the shared file pointer (read/write_shared, iread/iwrite_shared, seek_shared,
 * get_position_shared), ordered access (read/write_ordered and their split forms), split
 * collectives with their errors (a second begin, an end without a begin), sequential mode,
 * individual pointers under a view. usage: io_pointers DIR */
#include "check.h"
#include <unistd.h>

static int err_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* ROMIO (MPICH) does not check split collective ends; railmpi does. */
static int is_railmpi(void)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    return strstr(lib, "railmpi") != NULL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc > 1, "usage: io_pointers DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/pointers.dat", argv[1]);
    if (rank == 0)
        unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    MPI_Status st;
    int count;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));

    /* Shared pointer: each rank appends R records of (rank, i, i) ints; every record
     * lands whole, somewhere, exactly once. */
    enum { R = 20 };
    for (int i = 0; i < R; i++) {
        int rec[3] = {rank, i, i};
        if (i % 2)
            CHECK_MPI(MPI_File_write_shared(fh, rec, 3, MPI_INT, &st));
        else {
            MPI_Request q;
            CHECK_MPI(MPI_File_iwrite_shared(fh, rec, 3, MPI_INT, &q));
            CHECK_MPI(MPI_Wait(&q, &st));
        }
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 3, "write_shared count %d", count);
    }
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Offset sp;
    CHECK_MPI(MPI_File_get_position_shared(fh, &sp));
    CHECK(sp == 3 * R * size, "shared position %lld", (long long)sp);
    int *all = malloc(sizeof(int) * 3 * R * size), *seen = calloc(R * size, sizeof(int));
    CHECK_MPI(MPI_File_read_at(fh, 0, all, 3 * R * size, MPI_INT, &st));
    for (int k = 0; k < R * size; k++) {
        int r = all[3 * k], i = all[3 * k + 1];
        CHECK(r >= 0 && r < size && i >= 0 && i < R && all[3 * k + 2] == i, "record %d torn", k);
        CHECK(!seen[r * R + i]++, "record (%d,%d) twice", r, i);
    }
    /* Reading through the shared pointer: everyone together reads every record once. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int got = 0, total = 0;
    for (;;) {
        int rec[3];
        MPI_Request q;
        CHECK_MPI(MPI_File_iread_shared(fh, rec, 3, MPI_INT, &q));
        CHECK_MPI(MPI_Wait(&q, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        if (count == 0)
            break;
        CHECK(count == 3 && rec[1] == rec[2], "read_shared record");
        got++;
    }
    MPI_Allreduce(&got, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == R * size, "read_shared read %d records", total);
    CHECK_MPI(MPI_File_seek_shared(fh, -3, MPI_SEEK_END));
    int last[3];
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_MPI(MPI_File_read_shared(fh, last, 3, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 3 && memcmp(last, &all[3 * (R * size - 1)], sizeof last) == 0, "seek_shared end");
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Ordered: rank r writes r+1 ints of value r, in rank order, after what is there. */
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int *mine = malloc(sizeof(int) * (size + 1));
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    CHECK_MPI(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == rank + 1, "write_ordered count");
    CHECK_MPI(MPI_File_get_position_shared(fh, &sp));
    int tri = size * (size + 1) / 2;
    CHECK(sp == tri, "shared after ordered %lld", (long long)sp);
    MPI_Barrier(MPI_COMM_WORLD); /* all have looked before the pointer moves on */
    /* split ordered: a second set after it */
    for (int i = 0; i <= rank; i++)
        mine[i] = 100 + rank;
    CHECK_MPI(MPI_File_write_ordered_begin(fh, mine, rank + 1, MPI_INT));
    int rc = MPI_File_write_all_begin(fh, mine, 1, MPI_INT);
    CHECK(err_class(rc) != MPI_SUCCESS, "second split begin accepted");
    CHECK_MPI(MPI_File_write_ordered_end(fh, mine, &st));
    if (is_railmpi()) {
        rc = MPI_File_write_ordered_end(fh, mine, &st);
        CHECK(err_class(rc) == MPI_ERR_REQUEST, "end without begin: %d", err_class(rc));
    }
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_sync(fh));
    int *ord = malloc(sizeof(int) * 2 * tri);
    CHECK_MPI(MPI_File_read_at_all(fh, 0, ord, 2 * tri, MPI_INT, &st));
    for (int r = 0, k = 0; r < size; r++)
        for (int i = 0; i <= r; i++, k++) {
            CHECK(ord[k] == r, "ordered [%d] = %d", k, ord[k]);
            CHECK(ord[tri + k] == 100 + r, "split ordered [%d] = %d", tri + k, ord[tri + k]);
        }
    /* read_ordered (and its split form) read the same pieces back. */
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int *rb = malloc(sizeof(int) * (size + 1));
    CHECK_MPI(MPI_File_read_ordered(fh, rb, rank + 1, MPI_INT, &st));
    for (int i = 0; i <= rank; i++)
        CHECK(rb[i] == rank, "read_ordered");
    CHECK_MPI(MPI_File_read_ordered_begin(fh, rb, rank + 1, MPI_INT));
    CHECK_MPI(MPI_File_read_ordered_end(fh, rb, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == rank + 1, "read_ordered_end count");
    for (int i = 0; i <= rank; i++)
        CHECK(rb[i] == 100 + rank, "split read_ordered");

    /* Split collectives at explicit offsets and through the individual pointer. */
    int v[4] = {rank, rank + 1, rank + 2, rank + 3}, w[4] = {0};
    MPI_Offset base = 2 * tri + 4 * rank;
    CHECK_MPI(MPI_File_write_at_all_begin(fh, base, v, 4, MPI_INT));
    CHECK_MPI(MPI_File_write_at_all_end(fh, v, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 4, "write_at_all_end count");
    CHECK_MPI(MPI_File_read_at_all_begin(fh, base, w, 4, MPI_INT));
    if (is_railmpi()) {
        rc = MPI_File_read_all_end(fh, w, &st); /* the wrong kind of end */
        CHECK(err_class(rc) == MPI_ERR_REQUEST, "mismatched end: %d", err_class(rc));
    }
    CHECK_MPI(MPI_File_read_at_all_end(fh, w, &st));
    CHECK(memcmp(v, w, sizeof v) == 0, "read_at_all split");
    CHECK_MPI(MPI_File_seek(fh, base, MPI_SEEK_SET));
    memset(w, 0, sizeof w);
    CHECK_MPI(MPI_File_read_all_begin(fh, w, 4, MPI_INT));
    CHECK_MPI(MPI_File_read_all_end(fh, w, &st));
    CHECK(memcmp(v, w, sizeof v) == 0, "read_all split");
    CHECK_MPI(MPI_File_seek(fh, base, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_write_all_begin(fh, w, 4, MPI_INT));
    CHECK_MPI(MPI_File_write_all_end(fh, w, &st));
    MPI_Offset pos;
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == base + 4, "position after split write_all");

    /* Individual pointer under a strided view: 1 int of every `size`, from rank. */
    MPI_Datatype one, tile;
    MPI_Type_contiguous(1, MPI_INT, &one);
    MPI_Type_create_resized(one, 0, size * sizeof(int), &tile);
    MPI_Type_commit(&tile);
    CHECK_MPI(MPI_File_set_view(fh, rank * sizeof(int), MPI_INT, tile, "native", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == 0, "set_view resets the pointer");
    CHECK_MPI(MPI_File_seek(fh, 2, MPI_SEEK_SET));
    MPI_Offset byte;
    CHECK_MPI(MPI_File_get_byte_offset(fh, 2, &byte));
    CHECK(byte == (MPI_Offset)(rank + 2 * size) * sizeof(int), "byte offset %lld", (long long)byte);
    int x = 7000 + rank;
    CHECK_MPI(MPI_File_write(fh, &x, 1, MPI_INT, &st));
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_sync(fh));
    int chk;
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_read_at(fh, byte, &chk, 1, MPI_INT, &st));
    CHECK(chk == x, "write through a strided view: %d", chk);
    MPI_Type_free(&tile);
    MPI_Type_free(&one);
    CHECK_MPI(MPI_File_close(&fh));

    /* Sequential mode: shared pointer only. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
    rc = MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st);
    CHECK(err_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "write_at in sequential mode: %d", err_class(rc));
    CHECK_MPI(MPI_File_write_ordered(fh, &x, 1, MPI_INT, &st));
    CHECK_MPI(MPI_File_close(&fh));

    /* MPI_DISPLACEMENT_CURRENT (sequential mode; MPICH's io/setviewcur): after rank 0
     * read a header through the shared pointer, the new view starts behind it, whatever
     * order the ranks reach set_view in. */
    if (rank == 0) {
        MPI_File f0;
        CHECK_MPI(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &f0));
        CHECK_MPI(MPI_File_set_size(f0, 0));
        int hdr[65];
        for (int i = 0; i < 65; i++)
            hdr[i] = i - 1; /* header -1, then 0, 1, ... */
        CHECK_MPI(MPI_File_write_at(f0, 0, hdr, 65, MPI_INT, &st));
        CHECK_MPI(MPI_File_close(&f0));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
    if (rank == 0) {
        int hdr;
        CHECK_MPI(MPI_File_read_shared(fh, &hdr, 1, MPI_INT, &st));
        CHECK(hdr == -1, "header %d", hdr);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1)
        usleep(20000); /* the last rank comes late: rank 0 must not reset the pointer first */
    CHECK_MPI(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    MPI_Offset d;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK_MPI(MPI_File_get_view(fh, &d, &et, &ft, rep));
    CHECK(d == 4, "DISPLACEMENT_CURRENT gave %lld", (long long)d);
    CHECK_MPI(MPI_File_read_ordered(fh, &x, 1, MPI_INT, &st));
    CHECK(x == rank, "read_ordered after DISPLACEMENT_CURRENT: %d", x);
    CHECK_MPI(MPI_File_close(&fh));

    if (rank == 0)
        unlink(path);
    free(all);
    free(seen);
    free(mine);
    free(ord);
    free(rb);
    ct_ok("io_pointers");
    MPI_Finalize();
    return 0;
}
