/* errors: with MPI_ERRORS_RETURN on MPI_COMM_WORLD, erroneous calls return the right error
 * class (checked with MPI_Error_class), MPI_Error_string is non-empty, and correct calls keep
 * working afterwards. */
#include "check.h"
#include <limits.h>

static void expect_class(int rc, int want, const char *wname, const char *what)
{
    int cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING];
    CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS, expected %s", what, wname);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    msg[0] = 0;
    CHECK_MPI(MPI_Error_string(rc, msg, &len));
    CHECK(len > 0 && (int)strlen(msg) == len && len < MPI_MAX_ERROR_STRING,
          "%s: MPI_Error_string len %d strlen %zu", what, len, strlen(msg));
    CHECK(cls == want, "%s: error class %d (%s), expected %s (%d)", what, cls, msg, wname, want);
}
#define EXPECT(call, cls) expect_class((call), cls, #cls, #call)

int main(int argc, char **argv)
{
    int rank, n, buf[4] = {0, 0, 0, 0};
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_Comm_get_errhandler does not give MPI_ERRORS_RETURN");
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_Comm_dup did not copy the error handler");

    int cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Error_class(MPI_SUCCESS, &cls));
    CHECK(cls == MPI_SUCCESS, "class of MPI_SUCCESS is %d", cls);
    static const int classes[] = {MPI_ERR_COMM, MPI_ERR_RANK, MPI_ERR_TAG, MPI_ERR_COUNT,
                                  MPI_ERR_TYPE, MPI_ERR_ROOT, MPI_ERR_BUFFER, MPI_ERR_REQUEST,
                                  MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_ARG};
    for (int i = 0; i < (int)(sizeof classes / sizeof classes[0]); i++) {
        msg[0] = 0;
        len = 0;
        CHECK_MPI(MPI_Error_class(classes[i], &cls));
        CHECK(cls == classes[i], "MPI_Error_class(%d) = %d", classes[i], cls);
        CHECK_MPI(MPI_Error_string(classes[i], msg, &len));
        CHECK(len > 0 && (int)strlen(msg) == len, "MPI_Error_string(%d) empty or len wrong",
              classes[i]);
    }

    /* Invalid communicator. */
    EXPECT(MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);

    /* Invalid rank (MPI_PROC_NULL is valid, so use -5 and n). */
    EXPECT(MPI_Send(buf, 1, MPI_INT, n, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Send(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    EXPECT(MPI_Recv(buf, 1, MPI_INT, n + 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK);
    MPI_Request req = MPI_REQUEST_NULL;
    EXPECT(MPI_Isend(buf, 1, MPI_INT, n, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK);

    /* Invalid tags: negative, MPI_ANY_TAG on a send, above MPI_TAG_UB. */
    int *tag_ub = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag && tag_ub, "MPI_TAG_UB attribute missing");
    EXPECT(MPI_Send(buf, 1, MPI_INT, rank, -7, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Send(buf, 1, MPI_INT, rank, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Recv(buf, 1, MPI_INT, rank, -7, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TAG);
    if (*tag_ub < INT_MAX) {
        EXPECT(MPI_Send(buf, 1, MPI_INT, rank, *tag_ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG);
        EXPECT(MPI_Irecv(buf, 1, MPI_INT, rank, *tag_ub + 1, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    }

    /* Negative count. */
    EXPECT(MPI_Send(buf, -1, MPI_INT, rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Recv(buf, -1, MPI_INT, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
    EXPECT(MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);

    /* Invalid datatypes: MPI_DATATYPE_NULL and an uncommitted derived type. */
    EXPECT(MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    /* ... but an empty message needs no type: MPI_DATATYPE_NULL with count 0 is accepted
     * by every point-to-point call (as MPICH does; programs send empty notifications so),
     * and the receive reports 0 elements of it. */
    {
        MPI_Status st0;
        MPI_Request r0[2];
        int got = -1;
        CHECK_MPI(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, rank, 5, MPI_COMM_WORLD, &r0[0]));
        CHECK_MPI(MPI_Isend(NULL, 0, MPI_DATATYPE_NULL, rank, 5, MPI_COMM_WORLD, &r0[1]));
        CHECK_MPI(MPI_Waitall(2, r0, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_DATATYPE_NULL, rank, 6, NULL, 0, MPI_DATATYPE_NULL,
                               rank, 6, MPI_COMM_WORLD, &st0));
        CHECK_MPI(MPI_Get_count(&st0, MPI_BYTE, &got));
        CHECK(got == 0 && st0.MPI_TAG == 6, "empty MPI_DATATYPE_NULL exchange: count %d tag %d",
              got, st0.MPI_TAG);
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 7, MPI_COMM_WORLD, &st0));
        CHECK(st0.MPI_SOURCE == MPI_PROC_NULL, "MPI_PROC_NULL receive: source %d",
              st0.MPI_SOURCE);
        EXPECT(MPI_Recv(buf, 1, MPI_DATATYPE_NULL, MPI_PROC_NULL, 7, MPI_COMM_WORLD, &st0),
               MPI_ERR_TYPE);
    }
    MPI_Datatype t3;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t3));
    EXPECT(MPI_Send(buf, 1, t3, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    /* Committed after the refusal, it is usable (the refused look-up is not kept); used
     * many times and freed, its handle is refused again. */
    CHECK_MPI(MPI_Type_commit(&t3));
    MPI_Datatype t3_stale = t3;
    int sent3[3] = {7, 8, 9}, got3[3] = {0, 0, 0};
    for (int i = 0; i < 50; i++) {
        CHECK_MPI(MPI_Sendrecv(sent3, 1, t3, rank, 4, got3, 1, t3, rank, 4, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
    }
    CHECK(got3[0] == 7 && got3[2] == 9, "self exchange of a committed type: %d %d", got3[0],
          got3[2]);
    CHECK_MPI(MPI_Type_free(&t3));
    EXPECT(MPI_Send(buf, 1, t3_stale, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);

    /* Root out of range in a collective (all ranks make the same erroneous call). */
    EXPECT(MPI_Bcast(buf, 1, MPI_INT, n, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(buf, 1, MPI_INT, -3, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce(buf, buf + 1, 1, MPI_INT, MPI_SUM, n, MPI_COMM_WORLD), MPI_ERR_ROOT);

    /* NULL buffer with count > 0. */
    EXPECT(MPI_Send(NULL, 1, MPI_INT, rank, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);

    /* Invalid requests: a handle that is no request (a communicator handle), a made-up one. */
    MPI_Request bad = (MPI_Request)MPI_COMM_WORLD;
    EXPECT(MPI_Wait(&bad, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    bad = (MPI_Request)0x2c00beef;
    EXPECT(MPI_Wait(&bad, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);

    /* Errors on a dup'ed communicator are returned too (handler copied by MPI_Comm_dup). */
    EXPECT(MPI_Send(buf, 1, MPI_INT, n, 0, dup), MPI_ERR_RANK);

    /* A NULL buffer with count 0 and MPI_PROC_NULL are fine. */
    CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    MPI_Status st;
    CHECK_MPI(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0,
          "receive from MPI_PROC_NULL: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);

    /* Correct calls still work: ring exchange, a collective, and on the dup. */
    int next = (rank + 1) % n, prev = (rank + n - 1) % n;
    int out[4] = {rank, 1, 2, 3}, in[4] = {-1, -1, -1, -1};
    CHECK_MPI(MPI_Sendrecv(out, 4, MPI_INT, next, 5, in, 4, MPI_INT, prev, 5, MPI_COMM_WORLD, &st));
    CHECK(in[0] == prev && in[1] == 1 && in[3] == 3, "ring exchange after errors wrong");
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK(sum == n * (n - 1) / 2, "allreduce after errors: %d", sum);
    /* Nothing from the failed sends was delivered. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag, "a message (tag %d from %d) is pending after erroneous sends", st.MPI_TAG,
          st.MPI_SOURCE);
    /* A communicator in use (looked up many times), then freed: its handle is refused,
     * and one made next, which may take the same handle, is the new one. */
    MPI_Comm stale = dup;
    int size = -1;
    for (int i = 0; i < 100; i++)
        CHECK_MPI(MPI_Comm_size(dup, &size));
    CHECK_MPI(MPI_Comm_free(&dup));
    EXPECT(MPI_Comm_size(stale, &size), MPI_ERR_COMM);
    EXPECT(MPI_Send(buf, 1, MPI_INT, rank, 0, stale), MPI_ERR_COMM);
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    int half_size = -1, want = rank % 2 ? n / 2 : (n + 1) / 2;
    CHECK_MPI(MPI_Comm_size(half, &half_size));
    CHECK(half_size == want, "split after a free: size %d, expected %d", half_size, want);
    if (half == stale) {
        CHECK_MPI(MPI_Comm_size(stale, &size));
        CHECK(size == want, "reused handle names the freed communicator (size %d, not %d)", size,
              want);
    }
    CHECK_MPI(MPI_Comm_free(&half));

    /* Messages nobody received on a communicator being freed (MPICH's errors/comm/
     * unmatched): the receiver's MPI_Comm_free reports them (MPI_ERR_OTHER, the handle
     * freed all the same) and drops them, a rendezvous one included, whose sender then
     * completes; none reaches a communicator made later. A persistent receive made on a
     * communicator may still start after its handle is freed (it holds the communicator,
     * MPI-4.1 §7.4.3): the message it will match stays. (MPICH detects unmatched messages
     * from 4.1 on, Debian's 4.0.2 not: that part runs on railmpi only.) */
    int two = rank < 2 ? 0 : MPI_UNDEFINED;
    MPI_Comm pair, kept, later;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, two, rank, &pair));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, two, rank, &kept));
    if (n >= 2 && rank < 2) {
        enum { BIG = 1 << 20 };
        char *big = malloc(BIG);
        int small = 42, got = -1;
        MPI_Request rq = MPI_REQUEST_NULL, prq = MPI_REQUEST_NULL;
        if (rank == 0) {
            memset(big, 7, BIG);
#ifdef RAILMPI
            CHECK_MPI(MPI_Isend(big, BIG, MPI_CHAR, 1, 8, pair, &rq));
            CHECK_MPI(MPI_Send(&small, 1, MPI_INT, 1, 9, pair));
#endif
            CHECK_MPI(MPI_Send(&small, 1, MPI_INT, 1, 10, kept));
        } else {
            CHECK_MPI(MPI_Recv_init(&got, 1, MPI_INT, 0, 10, kept, &prq));
        }
        CHECK_MPI(MPI_Barrier(pair));
        int rc = MPI_Comm_free(&pair);
        if (rank == 1) {
#ifdef RAILMPI
            expect_class(rc, MPI_ERR_OTHER, "MPI_ERR_OTHER", "MPI_Comm_free with 2 unmatched");
#else
            CHECK_MPI(rc);
#endif
            CHECK(pair == MPI_COMM_NULL, "the handle is freed all the same");
        } else {
            CHECK_MPI(rc);
            /* The rendezvous send completes once its message is dropped. */
            CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        }
        CHECK_MPI(MPI_Comm_free(&kept));
        if (rank == 1) {
            CHECK_MPI(MPI_Start(&prq));
            CHECK_MPI(MPI_Wait(&prq, MPI_STATUS_IGNORE));
            CHECK(got == 42, "the persistent receive of a freed communicator got %d", got);
            CHECK_MPI(MPI_Request_free(&prq));
        }
        free(big);
    } else if (pair != MPI_COMM_NULL) { /* one rank alone */
        CHECK_MPI(MPI_Comm_free(&pair));
        CHECK_MPI(MPI_Comm_free(&kept));
    }
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, two, rank, &later));
    if (later != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Barrier(later));
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, later, &flag, &st));
        CHECK(!flag, "a dropped message (tag %d) reached a later communicator", st.MPI_TAG);
        CHECK_MPI(MPI_Comm_free(&later));
    }

    ct_ok("errors");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
