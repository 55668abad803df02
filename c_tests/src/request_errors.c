/* request_errors: the completion calls check every argument before they touch a request
 * (with MPI_ERRORS_RETURN). A pending receive survives each failed call untouched: after
 * MPI_Test(&req, NULL, st), MPI_Wait(&req, NULL), MPI_Waitall / Testany / Waitsome with a
 * bad neighbour or NULL output, MPI_Request_get_status with NULL, the same request still
 * receives its message. An invalid handle (0x6c000001, MPICH's builtin range; a made-up
 * direct handle) is MPI_ERR_REQUEST for Wait, Test, Request_free, Cancel, get_status;
 * MPI_Cancel and MPI_Request_free of MPI_REQUEST_NULL are MPI_ERR_REQUEST; a NULL status is
 * MPI_ERR_ARG (MPI_STATUS_IGNORE is not NULL) for Recv, Probe, Sendrecv, Wait... and leaves
 * the message for the next receive; MPI_Startall with one bad handle starts none. */
#include "check.h"

static void expect_class(int rc, int want, const char *what)
{
    int cls = -1;
    CHECK(rc != MPI_SUCCESS, "%s: returned MPI_SUCCESS", what);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == want, "%s: error class %d, expected %d", what, cls, want);
}
#define EXPECT(call, cls) expect_class((call), cls, #call)

int main(int argc, char **argv)
{
    int rank, n, flag, idx, outc, indices[2];
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Status st, sts[2];

    /* A receive from ourselves, pending until we send. */
    int in = -1, out = 1234;
    MPI_Request req, keep;
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &req));
    keep = req;
    EXPECT(MPI_Test(&req, NULL, &st), MPI_ERR_ARG);
    EXPECT(MPI_Test(&req, &flag, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Wait(&req, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Wait(NULL, &st), MPI_ERR_ARG);
    EXPECT(MPI_Request_get_status(req, NULL, &st), MPI_ERR_ARG);
    EXPECT(MPI_Request_get_status(req, &flag, NULL), MPI_ERR_ARG);
    CHECK(req == keep, "a failed call changed the request handle");

    MPI_Request bad_builtin = (MPI_Request)0x6c000001;
    MPI_Request bad_direct = (MPI_Request)0xac0fffff;
    MPI_Request pair[2] = {req, bad_builtin};
    EXPECT(MPI_Waitall(2, pair, sts), MPI_ERR_REQUEST);
    CHECK(pair[0] == keep, "Waitall with a bad handle touched the good one");
    EXPECT(MPI_Waitall(2, pair, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Testall(2, pair, &flag, sts), MPI_ERR_REQUEST);
    EXPECT(MPI_Testany(2, pair, &idx, &flag, &st), MPI_ERR_REQUEST);
    EXPECT(MPI_Waitany(2, pair, &idx, &st), MPI_ERR_REQUEST);
    EXPECT(MPI_Waitsome(2, pair, &outc, indices, sts), MPI_ERR_REQUEST);
    pair[1] = MPI_REQUEST_NULL;
    EXPECT(MPI_Testany(2, pair, NULL, &flag, &st), MPI_ERR_ARG);
    EXPECT(MPI_Testany(2, pair, &idx, NULL, &st), MPI_ERR_ARG);
    EXPECT(MPI_Testany(2, pair, &idx, &flag, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Waitany(2, pair, NULL, &st), MPI_ERR_ARG);
    EXPECT(MPI_Testsome(2, pair, &outc, NULL, sts), MPI_ERR_ARG);
    EXPECT(MPI_Testsome(2, pair, NULL, indices, sts), MPI_ERR_ARG);
    EXPECT(MPI_Testsome(2, pair, &outc, indices, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Testall(2, pair, NULL, sts), MPI_ERR_ARG);
    CHECK(pair[0] == keep, "a failed call changed the request");

    MPI_Request bads[2] = {bad_builtin, bad_direct};
    for (int b = 0; b < 2; b++) {
        MPI_Request h = bads[b];
        EXPECT(MPI_Wait(&h, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        EXPECT(MPI_Test(&h, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        EXPECT(MPI_Request_free(&h), MPI_ERR_REQUEST);
        EXPECT(MPI_Cancel(&h), MPI_ERR_REQUEST);
        EXPECT(MPI_Request_get_status(h, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        CHECK(h == bads[b], "a failed call changed an invalid handle");
    }
    MPI_Request null = MPI_REQUEST_NULL;
    EXPECT(MPI_Cancel(&null), MPI_ERR_REQUEST);
    EXPECT(MPI_Request_free(&null), MPI_ERR_REQUEST);
    /* Waiting on MPI_REQUEST_NULL stays fine. */
    CHECK_MPI(MPI_Wait(&null, MPI_STATUS_IGNORE));

    /* The receive is intact: it gets its message. */
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, rank, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(in == 1234 && st.MPI_SOURCE == rank && st.MPI_TAG == 1, "receive got %d", in);

    /* NULL status on blocking receives and probes: nothing received. */
    int v = 77, w = -1;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank, 2, MPI_COMM_WORLD)); /* eager: out at once */
    EXPECT(MPI_Recv(&w, 1, MPI_INT, rank, 2, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Probe(rank, 2, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Iprobe(rank, 2, MPI_COMM_WORLD, &flag, NULL), MPI_ERR_ARG);
    EXPECT(MPI_Sendrecv(&v, 1, MPI_INT, rank, 3, &w, 1, MPI_INT, rank, 2, MPI_COMM_WORLD, NULL),
           MPI_ERR_ARG);
    EXPECT(MPI_Sendrecv_replace(&w, 1, MPI_INT, rank, 3, rank, 2, MPI_COMM_WORLD, NULL),
           MPI_ERR_ARG);
    /* Sendrecv with a bad destination posts no receive either. */
    EXPECT(MPI_Sendrecv(&v, 1, MPI_INT, n + 5, 3, &w, 1, MPI_INT, rank, 2, MPI_COMM_WORLD, &st),
           MPI_ERR_RANK);
    CHECK(w == -1, "a failed call received");
    CHECK_MPI(MPI_Iprobe(rank, 3, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag, "a failed Sendrecv sent");
    CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, rank, 2, MPI_COMM_WORLD, &st));
    CHECK(w == 77, "message after failed calls: %d", w);

    /* Startall: one bad handle, none started (the persistent receive stays inactive, so
     * the message below stays unexpected). */
    int p = -1;
    MPI_Request ps[2];
    CHECK_MPI(MPI_Recv_init(&p, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &ps[0]));
    ps[1] = bad_direct;
    EXPECT(MPI_Startall(2, ps), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Iprobe(rank, 5, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag && p == -1, "Startall started a request despite a bad handle");
    CHECK_MPI(MPI_Start(&ps[0]));
    CHECK_MPI(MPI_Wait(&ps[0], &st));
    CHECK(p == 77, "persistent receive got %d", p);
    CHECK_MPI(MPI_Request_free(&ps[0]));

    ct_ok("request_errors");
    MPI_Finalize();
    return 0;
}
