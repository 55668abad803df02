/* rma_zero_acc: accumulate-family calls that move nothing (count 0) are valid whatever the
 * operation, even one not defined on the datatype (MPI_SUM on MPI_BYTE, MPI_MAXLOC on
 * MPI_INT, MPI_BAND on MPI_DOUBLE): MPI_Accumulate and MPI_Get_accumulate in a fence epoch,
 * MPI_Raccumulate and MPI_Rget_accumulate under MPI_Win_lock_all, each to every rank, with
 * NULL buffers (as mpi4py passes for an empty buffer) and with real ones. Every call must
 * return MPI_SUCCESS (the window's handler is MPI_ERRORS_RETURN), and afterwards every
 * window, origin and result byte must be as it was. */
#include "check.h"

#define WORDS 8

static unsigned char win_mem[WORDS * 8], origin[WORDS * 8], result[WORDS * 8];

static void expect_ok(const char *what, int target, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0, cls = -1;
    if (rc == MPI_SUCCESS)
        return;
    msg[0] = 0;
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    CHECK(rc == MPI_SUCCESS, "%s (count 0, target %d) returned %d, class %d (%s)", what, target,
          rc, cls, msg);
}

int main(int argc, char **argv)
{
    int rank, n;
    MPI_Win win;
    MPI_Request req;
    const struct {
        MPI_Datatype type;
        MPI_Op op;
        const char *name;
    } cases[] = {
        {MPI_BYTE, MPI_SUM, "MPI_BYTE/MPI_SUM"},
        {MPI_BYTE, MPI_PROD, "MPI_BYTE/MPI_PROD"},
        {MPI_BYTE, MPI_MAX, "MPI_BYTE/MPI_MAX"},
        {MPI_INT, MPI_MAXLOC, "MPI_INT/MPI_MAXLOC"},
        {MPI_DOUBLE, MPI_BAND, "MPI_DOUBLE/MPI_BAND"},
        {MPI_BYTE, MPI_REPLACE, "MPI_BYTE/MPI_REPLACE"},
    };
    const int ncases = (int)(sizeof(cases) / sizeof(cases[0]));
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    ct_fill(win_mem, sizeof(win_mem), 100 + rank);
    ct_fill(origin, sizeof(origin), 200 + rank);
    ct_fill(result, sizeof(result), 300 + rank);
    CHECK_MPI(MPI_Win_create(win_mem, sizeof(win_mem), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    CHECK_MPI(MPI_Win_fence(0, win));
    for (int c = 0; c < ncases; c++) {
        for (int t = 0; t < n; t++) {
            char what[96];
            snprintf(what, sizeof what, "MPI_Accumulate %s", cases[c].name);
            expect_ok(what, t, MPI_Accumulate(origin, 0, cases[c].type, t, 0, 0, cases[c].type,
                                              cases[c].op, win));
            expect_ok(what, t, MPI_Accumulate(NULL, 0, cases[c].type, t, 0, 0, cases[c].type,
                                              cases[c].op, win));
            snprintf(what, sizeof what, "MPI_Get_accumulate %s", cases[c].name);
            expect_ok(what, t, MPI_Get_accumulate(origin, 0, cases[c].type, result, 0,
                                                  cases[c].type, t, 0, 0, cases[c].type,
                                                  cases[c].op, win));
            expect_ok(what, t, MPI_Get_accumulate(NULL, 0, cases[c].type, NULL, 0,
                                                  cases[c].type, t, 0, 0, cases[c].type,
                                                  cases[c].op, win));
        }
    }
    CHECK_MPI(MPI_Win_fence(0, win));

    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int c = 0; c < ncases; c++) {
        for (int t = 0; t < n; t++) {
            char what[96];
            snprintf(what, sizeof what, "MPI_Raccumulate %s", cases[c].name);
            req = MPI_REQUEST_NULL;
            expect_ok(what, t, MPI_Raccumulate(origin, 0, cases[c].type, t, 0, 0, cases[c].type,
                                               cases[c].op, win, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            snprintf(what, sizeof what, "MPI_Rget_accumulate %s", cases[c].name);
            req = MPI_REQUEST_NULL;
            expect_ok(what, t, MPI_Rget_accumulate(NULL, 0, cases[c].type, NULL, 0,
                                                   cases[c].type, t, 0, 0, cases[c].type,
                                                   cases[c].op, win, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            /* MPI_NO_OP: the fetching calls only */
            snprintf(what, sizeof what, "MPI_Get_accumulate MPI_NO_OP %s", cases[c].name);
            expect_ok(what, t, MPI_Get_accumulate(NULL, 0, cases[c].type, result, 0,
                                                  cases[c].type, t, 0, 0, cases[c].type,
                                                  MPI_NO_OP, win));
        }
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    CHECK(ct_verify(win_mem, sizeof(win_mem), 100 + rank, "window"), "window changed");
    CHECK(ct_verify(origin, sizeof(origin), 200 + rank, "origin"), "origin changed");
    CHECK(ct_verify(result, sizeof(result), 300 + rank, "result"), "result changed");
    CHECK_MPI(MPI_Win_free(&win));
    ct_ok("rma_zero_acc");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
