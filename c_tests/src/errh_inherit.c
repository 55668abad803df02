/* errh_inherit: which error handler an object without one of its own uses, as MPICH does
 * (its errors/comm tests named *_nullarg and errors/attr/keyvalmis count on it): a
 * communicator made before MPI_COMM_WORLD's handler was set (a dup, MPI_COMM_SELF) or a
 * window, whose handler was never set, follows MPI_COMM_WORLD's handler of the moment; one
 * whose parent had a handler set keeps that one whatever MPI_COMM_WORLD's becomes.
 * MPI_Comm_get_errhandler and MPI_Win_get_errhandler still report MPI_ERRORS_ARE_FATAL for
 * an object whose handler was never set (what the standard says it inherited; MPICH).
 * A call whose error a handler took returns the code the handler left (the code is passed
 * as the one "to be returned by the MPI routine"; MPICH): unchanged, or MPI_SUCCESS from a
 * handler that dealt with it (communicator, and file through MPI_FILE_NULL's handler). */
#include "check.h"

static int calls;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void) comm;
    (void) code;
    calls++;
}

static int mended;

static void mend_comm(MPI_Comm *comm, int *code, ...)
{
    (void) comm;
    mended++;
    *code = MPI_SUCCESS;
}

static void mend_file(MPI_File *fh, int *code, ...)
{
    (void) fh;
    mended++;
    *code = MPI_SUCCESS;
}

static void expect_class(int rc, int want, const char *what)
{
    int cls = -1;
    CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == want, "%s: class %d, expected %d", what, cls, want);
}

static void expect_handler(MPI_Errhandler got, MPI_Errhandler want, const char *what)
{
    CHECK(got == want, "%s: handler %#x, expected %#x", what, (unsigned) got, (unsigned) want);
    CHECK_MPI(MPI_Errhandler_free(&got));
}

int main(int argc, char **argv)
{
    int rank, size, buf = 0, key;
    MPI_Comm early, split, mine, mine_dup;
    MPI_Win win;
    MPI_Errhandler eh, counting;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Made while MPI_COMM_WORLD has the default handler (never set). */
    MPI_Comm_dup(MPI_COMM_WORLD, &early);
    MPI_Win_create(&buf, sizeof buf, sizeof buf, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_get_errhandler(early, &eh);
    expect_handler(eh, MPI_ERRORS_ARE_FATAL, "the dup's handler before any was set");

    /* A communicator with a handler of its own, and one made from it. */
    MPI_Comm_create_errhandler(count_errors, &counting);
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);
    MPI_Comm_set_errhandler(mine, counting);
    MPI_Comm_dup(mine, &mine_dup);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* The dup, its children, MPI_COMM_SELF and the window now return errors. */
    expect_class(MPI_Comm_split(early, rank % 2, rank, NULL), MPI_ERR_ARG,
                 "MPI_Comm_split with a NULL newcomm on the early dup");
    CHECK_MPI(MPI_Comm_split(early, rank % 2, rank, &split));
    expect_class(MPI_Send(&buf, 1, MPI_INT, size, 0, split), MPI_ERR_RANK,
                 "MPI_Send to a bad rank on a split of the early dup");
    expect_class(MPI_Send(&buf, 1, MPI_INT, 1, 0, MPI_COMM_SELF), MPI_ERR_RANK,
                 "MPI_Send to rank 1 of MPI_COMM_SELF");
    expect_class(MPI_Win_set_attr(win, key, &buf), MPI_ERR_KEYVAL,
                 "MPI_Win_set_attr with a communicator keyval");
    MPI_Comm_get_errhandler(early, &eh);
    expect_handler(eh, MPI_ERRORS_ARE_FATAL, "the early dup's handler (reported)");
    MPI_Win_get_errhandler(win, &eh);
    expect_handler(eh, MPI_ERRORS_ARE_FATAL, "the window's handler (reported)");
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    expect_handler(eh, MPI_ERRORS_RETURN, "MPI_COMM_WORLD's handler");

    /* Handlers set on a communicator stay with it and its children. */
    MPI_Send(&buf, 1, MPI_INT, size, 0, mine);
    MPI_Send(&buf, 1, MPI_INT, size, 0, mine_dup);
    CHECK(calls == 2, "the communicator's own handler ran %d times, expected 2", calls);
    MPI_Comm_get_errhandler(mine_dup, &eh);
    expect_handler(eh, counting, "the handler a dup took from its parent");

    /* A handler set on the early dup itself now wins over MPI_COMM_WORLD's; the call
     * returns the code it left unchanged. */
    MPI_Comm_set_errhandler(early, counting);
    expect_class(MPI_Send(&buf, 1, MPI_INT, size, 0, early), MPI_ERR_RANK,
                 "MPI_Send to a bad rank through a handler that leaves the code");
    CHECK(calls == 3, "the handler set on the early dup ran %d times in all", calls);

    /* Handlers that deal with the error: the calls return MPI_SUCCESS. */
    MPI_Errhandler mend, fmend;
    CHECK_MPI(MPI_Comm_create_errhandler(mend_comm, &mend));
    CHECK_MPI(MPI_Comm_set_errhandler(early, mend));
    CHECK(MPI_Send(&buf, 1, MPI_INT, size, 0, early) == MPI_SUCCESS && mended == 1,
          "a handler that set MPI_SUCCESS: the call did not return it (handler ran %d)",
          mended);
    CHECK_MPI(MPI_Errhandler_free(&mend));
    CHECK_MPI(MPI_File_create_errhandler(mend_file, &fmend));
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, fmend));
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, "/nonexistent-railmpi-dir/f", MPI_MODE_RDWR,
                           MPI_INFO_NULL, &fh);
    CHECK(rc == MPI_SUCCESS && mended == 2 && fh == MPI_FILE_NULL,
          "MPI_File_open of a missing file with a mending handler: rc %d, handler ran %d", rc,
          mended);
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&fmend));

    MPI_Comm_free(&split);
    MPI_Comm_free(&mine_dup);
    MPI_Comm_free(&mine);
    MPI_Comm_free(&early);
    MPI_Errhandler_free(&counting);
    MPI_Comm_free_keyval(&key);
    MPI_Win_free(&win);
    ct_ok("errh_inherit");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
