/* io_basic: MPI-IO open/close/delete, access modes and their error classes, error
 * handlers on files (MPI_FILE_NULL's included), sizes, info hints, explicit offsets and the
 * individual file pointer with statuses and counts (short at end of file), seek,
 * nonblocking calls through Wait/Test/Waitall/Testany, delete-on-close, append, c2f/f2c.
 * usage: io_basic DIR (a directory the test may write in). */
#include "check.h"
#include <unistd.h>

static int handler_calls, handler_code;
static void file_handler(MPI_File *fh, int *code, ...)
{
    (void)fh;
    handler_calls++;
    handler_code = *code;
}

static int err_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(argc > 1, "usage: io_basic DIR");
    char path[4096], missing[4096];
    snprintf(path, sizeof path, "%s/basic.dat", argv[1]);
    snprintf(missing, sizeof missing, "%s/no/such/dir/x", argv[1]);
    MPI_File fh;
    MPI_Errhandler eh;

    /* The default file error handler is MPI_ERRORS_RETURN. */
    CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "default file error handler");

    /* Access-mode errors. */
    int bad[] = {0, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                 MPI_MODE_RDONLY | MPI_MODE_EXCL, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = MPI_File_open(MPI_COMM_WORLD, path, bad[i], MPI_INFO_NULL, &fh);
        CHECK(err_class(rc) == MPI_ERR_AMODE, "amode %#x gave class %d", bad[i], err_class(rc));
    }
    fh = (MPI_File)&fh; /* anything but MPI_FILE_NULL: a failed open must reset it */
    int rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(err_class(rc) == MPI_ERR_NO_SUCH_FILE, "missing file: class %d", err_class(rc));
    CHECK(fh == MPI_FILE_NULL, "a failed open left %p, not MPI_FILE_NULL", (void *)fh);
    rc = MPI_File_delete(missing, MPI_INFO_NULL);
    CHECK(err_class(rc) == MPI_ERR_NO_SUCH_FILE, "delete missing: class %d", err_class(rc));

    /* MPI_FILE_NULL's handler catches open errors. */
    MPI_Errhandler mine;
    CHECK_MPI(MPI_File_create_errhandler(file_handler, &mine));
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, mine));
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(handler_calls == 1 && err_class(handler_code) == MPI_ERR_NO_SUCH_FILE,
          "handler calls %d code %d", handler_calls, handler_code);
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));

    if (rank == 0)
        unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Create; then EXCL on the existing file fails everywhere. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "65536");
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "no_such_hint", "whatever");
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    MPI_Info_free(&info);
    MPI_File fh2;
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR,
                       MPI_INFO_NULL, &fh2);
    CHECK(err_class(rc) == MPI_ERR_FILE_EXISTS, "EXCL: class %d", err_class(rc));

    /* Hints in effect. */
    MPI_Info used;
    CHECK_MPI(MPI_File_get_info(fh, &used));
    char val[MPI_MAX_INFO_VAL + 1];
    int flag;
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, val, &flag);
    CHECK(flag && strcmp(val, "65536") == 0, "cb_buffer_size %s", flag ? val : "(none)");
    MPI_Info_get(used, "romio_cb_write", MPI_MAX_INFO_VAL, val, &flag);
    CHECK(flag && strcmp(val, "enable") == 0, "romio_cb_write");
    MPI_Info_get(used, "cb_nodes", MPI_MAX_INFO_VAL, val, &flag);
    CHECK(flag && atoi(val) >= 1, "cb_nodes");
    MPI_Info_get(used, "no_such_hint", MPI_MAX_INFO_VAL, val, &flag);
    CHECK(!flag, "unknown hint reported");
    MPI_Info_free(&used);

    int amode;
    CHECK_MPI(MPI_File_get_amode(fh, &amode));
    CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "amode %d", amode);
    MPI_Group g, wg;
    int cmp;
    CHECK_MPI(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT, "file group");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    MPI_Fint f = MPI_File_c2f(fh);
    CHECK(f != 0 && MPI_File_f2c(f) == fh, "c2f/f2c");
    CHECK(MPI_File_c2f(MPI_FILE_NULL) == 0 && MPI_File_f2c(0) == MPI_FILE_NULL, "null c2f");

    /* Explicit offsets: each rank writes 1000 ints at its block. */
    enum { N = 1000 };
    int buf[N], back[N];
    for (int i = 0; i < N; i++)
        buf[i] = rank * 100000 + i;
    MPI_Status st;
    int count;
    CHECK_MPI(MPI_File_write_at(fh, (MPI_Offset)rank * N * sizeof(int), buf, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == N, "write count %d", count);
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Offset sz;
    CHECK_MPI(MPI_File_get_size(fh, &sz));
    CHECK(sz == (MPI_Offset)size * N * sizeof(int), "size %lld", (long long)sz);
    MPI_Barrier(MPI_COMM_WORLD); /* everyone has seen the size before anyone grows it */
    int peer = (rank + 1) % size;
    CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)peer * N * sizeof(int), back, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == N, "read count %d", count);
    for (int i = 0; i < N; i++)
        CHECK(back[i] == peer * 100000 + i, "read_at [%d] = %d", i, back[i]);

    /* Reading past the end: a short count, not an error. */
    memset(back, 0, sizeof back);
    CHECK_MPI(MPI_File_read_at(fh, sz - 10 * sizeof(int), back, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 10, "count at EOF %d", count);
    CHECK(back[9] == (size - 1) * 100000 + N - 1 && back[10] == 0, "EOF data");
    CHECK_MPI(MPI_File_read_at(fh, sz + 100, back, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 0, "count past EOF %d", count);

    /* Negative offset: MPI_ERR_ARG through the file's handler (ERRORS_RETURN). */
    rc = MPI_File_read_at(fh, -1, back, 1, MPI_INT, &st);
    CHECK(err_class(rc) == MPI_ERR_ARG, "negative offset: %d", err_class(rc));
    rc = MPI_File_read_at(fh, 0, back, -1, MPI_INT, &st);
    CHECK(err_class(rc) == MPI_ERR_COUNT, "negative count: %d", err_class(rc));
    rc = MPI_File_seek(fh, 0, 12345);
    CHECK(err_class(rc) == MPI_ERR_ARG, "bad whence: %d", err_class(rc));
    rc = MPI_File_read_at(MPI_FILE_NULL, 0, back, 1, MPI_INT, &st);
    CHECK(err_class(rc) == MPI_ERR_FILE, "null file: %d", err_class(rc));

    /* The file's own handler. */
    handler_calls = 0;
    CHECK_MPI(MPI_File_set_errhandler(fh, mine));
    MPI_File_seek(fh, -5, MPI_SEEK_SET);
    CHECK(handler_calls == 1 && err_class(handler_code) == MPI_ERR_ARG, "file handler");
    CHECK_MPI(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_IO, "call_errhandler");
    CHECK_MPI(MPI_File_get_errhandler(fh, &eh));
    CHECK(eh == mine, "get_errhandler");
    MPI_Errhandler_free(&eh);
    CHECK_MPI(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));

    /* Individual file pointer: seek, read, position, byte offset. */
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)peer * N * sizeof(int) + 40, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read(fh, back, 5, MPI_INT, &st));
    CHECK(back[0] == peer * 100000 + 10 && back[4] == peer * 100000 + 14, "read via pointer");
    MPI_Offset pos, byte;
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)peer * N * sizeof(int) + 60, "position %lld", (long long)pos);
    CHECK_MPI(MPI_File_seek(fh, -20, MPI_SEEK_CUR));
    CHECK_MPI(MPI_File_read(fh, back, 1, MPI_INT, &st));
    CHECK(back[0] == peer * 100000 + 10, "seek cur");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_seek(fh, -4, MPI_SEEK_END));
    CHECK_MPI(MPI_File_read(fh, back, 2, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 1 && back[0] == (size - 1) * 100000 + N - 1, "seek end");
    CHECK_MPI(MPI_File_get_byte_offset(fh, 7, &byte));
    CHECK(byte == 7, "byte offset");

    /* Nonblocking, completed through the request calls (past the old end: after
     * everyone's reads of it). */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request reqs[3];
    int nb[3] = {1, 2, 3}, nbb[3] = {0};
    MPI_Offset at = sz + rank * 3 * sizeof(int);
    CHECK_MPI(MPI_File_iwrite_at(fh, at, nb, 3, MPI_INT, &reqs[0]));
    CHECK_MPI(MPI_Wait(&reqs[0], &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 3 && reqs[0] == MPI_REQUEST_NULL, "iwrite_at wait");
    MPIO_Request mreq; /* ROMIO's name, as MPICH's mpio.h has it (io/async) */
    CHECK_MPI(MPI_File_iread_at(fh, at, nbb, 3, MPI_INT, &mreq));
    CHECK_MPI(MPIO_Wait(&mreq, &st));
    CHECK(nbb[2] == 3, "MPIO_Wait");
    nbb[2] = 0;
    CHECK_MPI(MPI_File_iread_at(fh, at, nbb, 3, MPI_INT, &reqs[0]));
    int done = 0;
    CHECK_MPI(MPI_Test(&reqs[0], &done, &st));
    if (!done)
        CHECK_MPI(MPI_Wait(&reqs[0], &st));
    CHECK(reqs[0] == MPI_REQUEST_NULL && nbb[0] == 1 && nbb[2] == 3, "iread_at test");
    CHECK_MPI(MPI_File_seek(fh, at, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_iread(fh, &nbb[0], 1, MPI_INT, &reqs[0]));
    CHECK_MPI(MPI_File_iread(fh, &nbb[1], 1, MPI_INT, &reqs[1]));
    CHECK_MPI(MPI_File_iread_all(fh, &nbb[2], 1, MPI_INT, &reqs[2]));
    MPI_Status sts[3];
    CHECK_MPI(MPI_Waitall(3, reqs, sts));
    CHECK(nbb[0] == 1 && nbb[1] == 2 && nbb[2] == 3, "iread/iread_all");
    CHECK_MPI(MPI_File_iwrite_at_all(fh, at, nb, 3, MPI_INT, &reqs[0]));
    CHECK_MPI(MPI_Wait(&reqs[0], &st));
    memset(nbb, 0, sizeof nbb);
    CHECK_MPI(MPI_File_iread_at_all(fh, at, nbb, 3, MPI_INT, &reqs[1]));
    CHECK_MPI(MPI_File_iwrite_at(fh, at + 12 * size, nb, 3, MPI_INT, &reqs[0]));
    int idx;
    done = 0;
    for (int k = 0; k < 100000 && !done; k++)
        CHECK_MPI(MPI_Testany(2, reqs, &idx, &done, &sts[0]));
    CHECK(done && (idx == 0 || idx == 1), "testany");
    CHECK_MPI(MPI_Wait(&reqs[1 - idx], &sts[1]));
    MPI_Get_count(idx == 1 ? &sts[0] : &sts[1], MPI_INT, &count);
    CHECK(count == 3, "iread_at_all count %d", count);
    CHECK(nbb[0] == 1 && nbb[2] == 3, "iread_at_all data");
    MPI_Barrier(MPI_COMM_WORLD); /* all reads done before the file shrinks */

    /* Sizes. */
    CHECK_MPI(MPI_File_set_size(fh, 100));
    CHECK_MPI(MPI_File_get_size(fh, &sz));
    CHECK(sz == 100, "set_size %lld", (long long)sz);
    CHECK_MPI(MPI_File_preallocate(fh, 5000));
    CHECK_MPI(MPI_File_get_size(fh, &sz));
    CHECK(sz == 5000, "preallocate %lld", (long long)sz);
    CHECK_MPI(MPI_File_preallocate(fh, 10));
    CHECK_MPI(MPI_File_get_size(fh, &sz));
    CHECK(sz == 5000, "preallocate smaller %lld", (long long)sz);
    MPI_Aint ext;
    CHECK_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
    CHECK(ext == 8, "type extent");
    CHECK_MPI(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close sets MPI_FILE_NULL");

    /* Read-only: writing is MPI_ERR_READ_ONLY; write-only: reading is MPI_ERR_ACCESS. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    rc = MPI_File_write_at(fh, 0, buf, 1, MPI_INT, &st);
    CHECK(err_class(rc) == MPI_ERR_READ_ONLY, "write read-only: %d", err_class(rc));
    CHECK_MPI(MPI_File_close(&fh));
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh));
    rc = MPI_File_read_at(fh, 0, buf, 1, MPI_INT, &st);
    CHECK(err_class(rc) == MPI_ERR_ACCESS, "read write-only: %d", err_class(rc));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == 5000, "append starts at the end: %lld", (long long)pos);
    CHECK_MPI(MPI_File_close(&fh));

    /* Delete-on-close, and delete. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_close(&fh));
    CHECK(access(path, F_OK) != 0, "delete on close left the file");
    MPI_Barrier(MPI_COMM_WORLD);
    /* railmpi: a delete-on-close that finds the file gone reports it, and the handle is
     * closed all the same */
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int liblen;
    MPI_Get_library_version(lib, &liblen);
    if (strstr(lib, "railmpi")) {
        CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                                MPI_INFO_NULL, &fh));
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            unlink(path);
        MPI_Barrier(MPI_COMM_WORLD);
        rc = MPI_File_close(&fh);
        CHECK(err_class(rc) == MPI_ERR_NO_SUCH_FILE && fh == MPI_FILE_NULL, "close of a deleted file: %d", err_class(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK_MPI(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
        CHECK_MPI(MPI_File_close(&fh));
        CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
        CHECK(access(path, F_OK) != 0, "delete left the file");
    }
    MPI_Errhandler_free(&mine);
    ct_ok("io_basic");
    MPI_Finalize();
    return 0;
}
