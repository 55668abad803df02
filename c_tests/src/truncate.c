/* truncate: with MPI_ERRORS_RETURN, receiving a message larger than the receive buffer returns
 * an error of class MPI_ERR_TRUNCATE (eager and large sizes, blocking and nonblocking), with
 * status MPI_SOURCE/MPI_TAG filled (MPI_ERROR in the multiple-completion case, where the good
 * request may be left MPI_ERR_PENDING); nothing is
 * written past the buffer, the sender sees success, and normal traffic works afterwards.
 * A short message that ends inside a basic element of MPI_Recv's noncontiguous type (6 bytes
 * into a vector of ints, 3 chars into an indexed type of ints, as MPICH's
 * errors/pt2pt/truncmsg2) is MPI_ERR_TRUNCATE (MPICH's class for it); one that ends on an element boundary is fine.
 * (A contiguous type is not checked, as MPICH: 6 bytes into MPI_INT succeed.)
 * Ranks 0 and 1 take part; others only join the final barrier. */
#include "check.h"

#define BIG (1 << 20)
#define GUARD 64

static void check_trunc(int rc, const char *what)
{
    int cls = -1;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK(rc != MPI_SUCCESS, "%s: truncated receive returned MPI_SUCCESS", what);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK_MPI(MPI_Error_string(rc, msg, &len));
    CHECK(cls == MPI_ERR_TRUNCATE, "%s: error class %d (%s), expected MPI_ERR_TRUNCATE (%d)", what,
          cls, msg, MPI_ERR_TRUNCATE);
    CHECK(len > 0, "%s: empty error string", what);
}

static void check_guard(const unsigned char *buf, size_t from, const char *what)
{
    for (size_t i = from; i < from + GUARD; i++)
        CHECK(buf[i] == 0x5a, "%s: byte %zu past the %zu-byte buffer was overwritten", what,
              i - from, from);
}

/* A request of a Waitall that returned MPI_ERR_IN_STATUS but did not itself fail: either
 * completed (MPI_SUCCESS, handle freed) or left pending (then waited for here). */
static void check_done_or_pending(MPI_Request *req, MPI_Status *st, const char *what)
{
    if (st->MPI_ERROR == MPI_ERR_PENDING) {
        CHECK(*req != MPI_REQUEST_NULL, "%s: pending request was freed", what);
        CHECK_MPI(MPI_Wait(req, st));
    } else {
        CHECK(st->MPI_ERROR == MPI_SUCCESS, "%s: status MPI_ERROR %d", what, st->MPI_ERROR);
        CHECK(*req == MPI_REQUEST_NULL, "%s: completed request's handle not freed", what);
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    unsigned char *big = malloc(BIG), *small = malloc(1024 + GUARD);
    CHECK(big && small, "malloc");
    MPI_Status st, sts[2];
    MPI_Request reqs[2];

    if (rank == 0) {
        ct_fill(big, BIG, 1);
        CHECK_MPI(MPI_Send(big, 400, MPI_BYTE, 1, 5, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(big, BIG, MPI_BYTE, 1, 6, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(big, 400, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(big, BIG, MPI_BYTE, 1, 8, MPI_COMM_WORLD));
        int ok4[4] = {1, 2, 3, 4};
        CHECK_MPI(MPI_Send(ok4, 4, MPI_INT, 1, 9, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(big, 400, MPI_BYTE, 1, 10, MPI_COMM_WORLD));
        int back[4] = {0, 0, 0, 0};
        CHECK_MPI(MPI_Recv(back, 4, MPI_INT, 1, 11, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Send(big, 6, MPI_BYTE, 1, 12, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(big, 3, MPI_CHAR, 1, 13, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(big, 12, MPI_BYTE, 1, 14, MPI_COMM_WORLD));
        CHECK(back[0] == 5 && back[1] == 6 && back[2] == 7 && back[3] == 8,
              "message sent beside a truncated receive arrived wrong");
    } else if (rank == 1) {
        /* 1: eager-sized, blocking receive of 40 bytes. */
        memset(small, 0x5a, 1024 + GUARD);
        st.MPI_SOURCE = st.MPI_TAG = -99;
        check_trunc(MPI_Recv(small, 10, MPI_INT, 0, 5, MPI_COMM_WORLD, &st), "Recv 400B into 40B");
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 5, "status source %d tag %d", st.MPI_SOURCE,
              st.MPI_TAG);
        check_guard(small, 40, "Recv 400B into 40B");

        /* 2: 1 MiB into 1 KiB, receive posted with wildcards. */
        memset(small, 0x5a, 1024 + GUARD);
        st.MPI_SOURCE = st.MPI_TAG = -99;
        check_trunc(MPI_Recv(small, 1024, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st),
                    "Recv 1MiB into 1KiB");
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 6, "status source %d tag %d", st.MPI_SOURCE,
              st.MPI_TAG);
        check_guard(small, 1024, "Recv 1MiB into 1KiB");

        /* 3: Irecv + Wait. */
        memset(small, 0x5a, 1024 + GUARD);
        st.MPI_SOURCE = st.MPI_TAG = -99;
        CHECK_MPI(MPI_Irecv(small, 10, MPI_INT, 0, 7, MPI_COMM_WORLD, &reqs[0]));
        check_trunc(MPI_Wait(&reqs[0], &st), "Irecv+Wait 400B into 40B");
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 7, "status source %d tag %d", st.MPI_SOURCE,
              st.MPI_TAG);
        check_guard(small, 40, "Irecv+Wait 400B into 40B");

        /* 4: Waitall over a truncated large receive and a good one: MPI_ERR_IN_STATUS. */
        int got4[4] = {0, 0, 0, 0};
        memset(small, 0x5a, 1024 + GUARD);
        CHECK_MPI(MPI_Irecv(small, 1024, MPI_BYTE, 0, 8, MPI_COMM_WORLD, &reqs[0]));
        CHECK_MPI(MPI_Irecv(got4, 4, MPI_INT, 0, 9, MPI_COMM_WORLD, &reqs[1]));
        sts[0].MPI_ERROR = sts[1].MPI_ERROR = -99;
        int rc = MPI_Waitall(2, reqs, sts);
        int cls = -1;
        CHECK_MPI(MPI_Error_class(rc, &cls));
        CHECK(cls == MPI_ERR_IN_STATUS, "Waitall returned class %d, expected MPI_ERR_IN_STATUS", cls);
        CHECK_MPI(MPI_Error_class(sts[0].MPI_ERROR, &cls));
        CHECK(cls == MPI_ERR_TRUNCATE, "Waitall status[0].MPI_ERROR class %d, expected TRUNCATE",
              cls);
        CHECK(sts[0].MPI_SOURCE == 0 && sts[0].MPI_TAG == 8, "status[0] source %d tag %d",
              sts[0].MPI_SOURCE, sts[0].MPI_TAG);
        check_done_or_pending(&reqs[1], &sts[1], "Waitall's good receive");
        CHECK(sts[1].MPI_SOURCE == 0 && sts[1].MPI_TAG == 9, "status[1] source %d tag %d",
              sts[1].MPI_SOURCE, sts[1].MPI_TAG);
        CHECK(got4[0] == 1 && got4[1] == 2 && got4[2] == 3 && got4[3] == 4, "good message wrong");
        check_guard(small, 1024, "Waitall 1MiB into 1KiB");

        /* 5: Waitall over an eager truncated receive, MPI_REQUEST_NULL and an eager send
         * (the kind of list completed in one round on the message-rate path):
         * MPI_ERR_IN_STATUS; the receive's status TRUNCATE with its source and tag, the null
         * handle's status empty, the send MPI_SUCCESS (or left pending); handles nulled. */
        MPI_Request r3[3];
        MPI_Status s3[3];
        int back[4] = {5, 6, 7, 8};
        memset(small, 0x5a, 1024 + GUARD);
        CHECK_MPI(MPI_Irecv(small, 10, MPI_INT, 0, 10, MPI_COMM_WORLD, &r3[0]));
        r3[1] = MPI_REQUEST_NULL;
        CHECK_MPI(MPI_Isend(back, 4, MPI_INT, 0, 11, MPI_COMM_WORLD, &r3[2]));
        for (int i = 0; i < 3; i++)
            s3[i].MPI_ERROR = s3[i].MPI_SOURCE = s3[i].MPI_TAG = -99;
        rc = MPI_Waitall(3, r3, s3);
        CHECK_MPI(MPI_Error_class(rc, &cls));
        CHECK(cls == MPI_ERR_IN_STATUS, "Waitall (eager) returned class %d, expected IN_STATUS",
              cls);
        CHECK_MPI(MPI_Error_class(s3[0].MPI_ERROR, &cls));
        CHECK(cls == MPI_ERR_TRUNCATE, "Waitall (eager) status[0] class %d, expected TRUNCATE",
              cls);
        CHECK(s3[0].MPI_SOURCE == 0 && s3[0].MPI_TAG == 10, "status[0] source %d tag %d",
              s3[0].MPI_SOURCE, s3[0].MPI_TAG);
        CHECK(r3[0] == MPI_REQUEST_NULL, "truncated receive's handle not freed");
        CHECK(s3[1].MPI_ERROR == MPI_SUCCESS && s3[1].MPI_SOURCE == MPI_ANY_SOURCE &&
                  s3[1].MPI_TAG == MPI_ANY_TAG,
              "null handle's status: error %d source %d tag %d", s3[1].MPI_ERROR,
              s3[1].MPI_SOURCE, s3[1].MPI_TAG);
        check_done_or_pending(&r3[2], &s3[2], "Waitall's eager send");
        check_guard(small, 40, "Waitall 400B into 40B");

        /* 6: partial basic elements. */
        int blens[3] = {1, 2, 1}, displs[3] = {4, 8, 16}, cnt = -1;
        MPI_Datatype idx, vec;
        CHECK_MPI(MPI_Type_indexed(3, blens, displs, MPI_INT, &idx));
        CHECK_MPI(MPI_Type_commit(&idx));
        CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &vec));
        CHECK_MPI(MPI_Type_commit(&vec));
        int ints[32];
        const char *whats[2] = {"6 bytes into a vector of ints", "3 chars into an indexed type of ints"};
        for (int k = 0; k < 2; k++) {
            st.MPI_SOURCE = -99;
            rc = k == 0 ? MPI_Recv(ints, 1, vec, 0, 12, MPI_COMM_WORLD, &st)
                        : MPI_Recv(ints, 1, idx, 0, 13, MPI_COMM_WORLD, &st);
            CHECK(rc != MPI_SUCCESS, "%s: MPI_Recv returned MPI_SUCCESS", whats[k]);
            CHECK_MPI(MPI_Error_class(rc, &cls));
            CHECK(cls == MPI_ERR_TRUNCATE, "%s: class %d, expected MPI_ERR_TRUNCATE", whats[k],
                  cls);
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 12 + k, "%s: status source %d tag %d",
                  whats[k], st.MPI_SOURCE, st.MPI_TAG);
        }
        CHECK_MPI(MPI_Recv(ints, 2, idx, 0, 14, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &cnt));
        CHECK(cnt == 3, "12 bytes into an indexed type: %d ints", cnt);
        CHECK_MPI(MPI_Type_free(&idx));
        CHECK_MPI(MPI_Type_free(&vec));
    }

    /* Normal traffic still works: 1 MiB each way between 0 and 1. */
    if (rank < 2) {
        unsigned char *in = malloc(BIG);
        CHECK(in, "malloc");
        ct_fill(big, BIG, 100 + rank);
        CHECK_MPI(MPI_Sendrecv(big, BIG, MPI_BYTE, 1 - rank, 20, in, BIG, MPI_BYTE, 1 - rank, 20,
                               MPI_COMM_WORLD, &st));
        CHECK(ct_verify(in, BIG, 100 + (1 - rank), "exchange after truncation"), "wrong data");
        free(in);
    }
    free(big);
    free(small);
    ct_ok("truncate");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
