/* rma_errors: RMA error classes under MPI_ERRORS_RETURN (MPI_Win_set_errhandler on the
 * window; MPI_COMM_WORLD and MPI_COMM_SELF too, for the invalid-handle case). Each bad call
 * must return an error whose MPI_Error_class is the one the standard implies:
 *   Put beyond the window             MPI_ERR_RMA_RANGE
 *   Put outside any epoch             MPI_ERR_RMA_SYNC
 *   Win_unlock without a lock         MPI_ERR_RMA_SYNC
 *   Win_lock with a bad lock type     MPI_ERR_LOCKTYPE
 *   Win_fence with assert 0x7fffffff  MPI_ERR_ASSERT
 *   negative target displacement      MPI_ERR_DISP
 *   Win_free with a lock held         MPI_ERR_RMA_SYNC
 *   Rput inside a fence epoch         MPI_ERR_RMA_SYNC
 *   Accumulate with a user-defined op MPI_ERR_OP
 *   Win_fence(MPI_WIN_NULL)           MPI_ERR_WIN
 *   Win_attach overlapping a region   MPI_ERR_RMA_ATTACH
 *   Win_flush outside a passive epoch MPI_ERR_RMA_SYNC
 *   Win_complete without Win_start    MPI_ERR_RMA_SYNC
 *   Compare_and_swap on MPI_DOUBLE    MPI_ERR_TYPE
 *   Win_allocate_shared over hosts    MPI_ERR_RMA_SHARED (on one host: it must work)
 * usage: rma_errors [mpich]   With "mpich" (CT_IMPL=mpich), the deviations of MPICH 4.0.2
 * (ch4:ucx) are accepted and reported as "note:" lines: MPI_ERR_ARG instead of
 * MPI_ERR_LOCKTYPE and MPI_ERR_ASSERT; no error at all (MPI_SUCCESS) for Put/Get beyond the
 * window (the Put then writes past the target's window), for MPI_Rput in a fence epoch and for
 * an overlapping MPI_Win_attach. Without it (railmpi) only the standard's class passes.
 * "survey" prints every class and never fails. */
#include "check.h"

static int rank, n, mode; /* mode 0 strict, 1 mpich, 2 survey */
static int failures;

static const char *cls_name(int c)
{
    static char buf[MPI_MAX_ERROR_STRING];
    int len = 0;
    buf[0] = 0;
    if (c == MPI_SUCCESS)
        return "MPI_SUCCESS";
    MPI_Error_string(c, buf, &len);
    return buf;
}

/* mpich_alt: the class MPICH 4.0.2 gives instead (-1: none; MPI_SUCCESS: no error). */
static void expect(const char *what, int rc, int want, int mpich_alt)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        CHECK_MPI(MPI_Error_class(rc, &cls));
    if (mode == 2) {
        if (rank == 0)
            printf("survey: %-36s rc %d class %d (want %d) %s\n", what, rc, cls, want,
                   cls_name(cls));
        return;
    }
    if (cls == want)
        return;
    if (mode == 1 && cls == mpich_alt) {
        if (rank == 0)
            printf("note: MPICH deviation: %s gives class %d (%s), the standard implies %d\n",
                   what, cls, cls_name(cls), want);
        return;
    }
    fprintf(stderr, "rank %d: %s: error class %d (%s), expected %d\n", rank, what, cls,
            cls_name(cls), want);
    failures++;
}

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    if (argc > 1 && strcmp(argv[1], "mpich") == 0)
        mode = 1;
    if (argc > 1 && strcmp(argv[1], "survey") == 0)
        mode = 2;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int next = (rank + 1) % n, buf[16] = {0}, res[16];
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &mem, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_Win_get_errhandler does not return MPI_ERRORS_RETURN");
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* outside any epoch */
    expect("MPI_Put outside any epoch", MPI_Put(buf, 1, MPI_INT, next, 0, 1, MPI_INT, win),
           MPI_ERR_RMA_SYNC, -1);
    expect("MPI_Win_unlock without a lock", MPI_Win_unlock(next, win), MPI_ERR_RMA_SYNC, -1);
    expect("MPI_Win_flush without a lock", MPI_Win_flush(next, win), MPI_ERR_RMA_SYNC, -1);
    expect("MPI_Win_complete without Win_start", MPI_Win_complete(win), MPI_ERR_RMA_SYNC, -1);
    expect("MPI_Win_lock bad lock type", MPI_Win_lock(12345, next, 0, win), MPI_ERR_LOCKTYPE,
           MPI_ERR_ARG);
    expect("MPI_Win_fence assert 0x7fffffff", MPI_Win_fence(0x7fffffff, win), MPI_ERR_ASSERT,
           MPI_ERR_ARG);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* inside a fence epoch */
    CHECK_MPI(MPI_Win_fence(0, win));
    expect("MPI_Put beyond the window", MPI_Put(buf, 4, MPI_INT, next, 62, 4, MPI_INT, win),
           MPI_ERR_RMA_RANGE, MPI_SUCCESS);
    expect("MPI_Get beyond the window", MPI_Get(res, 1, MPI_INT, next, 64, 1, MPI_INT, win),
           MPI_ERR_RMA_RANGE, MPI_SUCCESS);
    expect("MPI_Put negative displacement", MPI_Put(buf, 1, MPI_INT, next, -1, 1, MPI_INT, win),
           MPI_ERR_DISP, -1);
    MPI_Request rq = MPI_REQUEST_NULL;
    expect("MPI_Rput inside a fence epoch",
           MPI_Rput(buf, 1, MPI_INT, next, 0, 1, MPI_INT, win, &rq), MPI_ERR_RMA_SYNC,
           MPI_SUCCESS);
    if (rq != MPI_REQUEST_NULL)
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Op uop;
    CHECK_MPI(MPI_Op_create(user_fn, 1, &uop));
    expect("MPI_Accumulate with a user-defined op",
           MPI_Accumulate(buf, 1, MPI_INT, next, 0, 1, MPI_INT, uop, win), MPI_ERR_OP, -1);
    CHECK_MPI(MPI_Op_free(&uop));
    double d = 1.0, dc = 1.0, dr;
    expect("MPI_Compare_and_swap on MPI_DOUBLE",
           MPI_Compare_and_swap(&d, &dc, &dr, MPI_DOUBLE, next, 0, win), MPI_ERR_TYPE, -1);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* free with a lock held */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
    expect("MPI_Win_free with a lock held", MPI_Win_free(&win), MPI_ERR_RMA_SYNC, -1);
    CHECK(win != MPI_WIN_NULL, "MPI_Win_free failed but set the handle to MPI_WIN_NULL");
    CHECK_MPI(MPI_Win_unlock(next, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_free(&win));

    /* dynamic: overlapping attach */
    MPI_Win dw;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dw));
    CHECK_MPI(MPI_Win_set_errhandler(dw, MPI_ERRORS_RETURN));
    char *region = malloc(4096);
    CHECK(region, "malloc");
    CHECK_MPI(MPI_Win_attach(dw, region, 2048));
    int rc = MPI_Win_attach(dw, region + 1024, 2048);
    expect("MPI_Win_attach overlapping a region", rc, MPI_ERR_RMA_ATTACH, MPI_SUCCESS);
    if (rc == MPI_SUCCESS)
        CHECK_MPI(MPI_Win_detach(dw, region + 1024));
    CHECK_MPI(MPI_Win_detach(dw, region));
    CHECK_MPI(MPI_Win_free(&dw));
    free(region);

    /* a shared window over ranks of several hosts cannot be: MPI_ERR_RMA_SHARED */
    char names[n][MPI_MAX_PROCESSOR_NAME];
    int len, one_host = 1;
    memset(names, 0, sizeof names);
    CHECK_MPI(MPI_Get_processor_name(names[rank], &len));
    CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, names, MPI_MAX_PROCESSOR_NAME,
                            MPI_CHAR, MPI_COMM_WORLD));
    for (int r = 1; r < n; r++)
        one_host &= strcmp(names[r], names[0]) == 0;
    int *sh = NULL;
    MPI_Win sw = MPI_WIN_NULL;
    rc = MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &sh, &sw);
    if (one_host) {
        CHECK(rc == MPI_SUCCESS, "MPI_Win_allocate_shared on one host failed (rc %d)", rc);
        sh[0] = rank;
        CHECK_MPI(MPI_Win_free(&sw));
    } else {
        expect("MPI_Win_allocate_shared over several hosts", rc, MPI_ERR_RMA_SHARED, -1);
        CHECK(sw == MPI_WIN_NULL, "a failed MPI_Win_allocate_shared returned a window");
        if (rank == 0)
            printf("ranks on several hosts: MPI_Win_allocate_shared refused\n");
    }

    /* invalid handle (last: a library that wrongly treats it as fatal ends the run here) */
    expect("MPI_Win_fence(MPI_WIN_NULL)", MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN, -1);

    CHECK(failures == 0, "%d error class check(s) failed (see above)", failures);
    ct_ok(mode == 1 ? "rma_errors (MPICH deviations accepted)" : "rma_errors");
    MPI_Finalize();
    return 0;
}
