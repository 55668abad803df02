/* MPI_Intercomm_create and MPI_Intercomm_merge, the intercommunicator queries, and
 * point-to-point on intercommunicators (ranks name the remote group; MPI_ANY_SOURCE
 * matches remote ranks and status.MPI_SOURCE is the sender's remote rank), for each way
 * intercomm.h builds them, plus the error classes of misuse. Needs 2+ processes. */
#include "intercomm.h"

#define BIG (256 * 1024) /* past the eager limit: the rendezvous path */

static void check_queries(const ct_inter *ic)
{
    int flag, n, got[CT_MAXP];
    MPI_Group g;
    CHECK_MPI(MPI_Comm_test_inter(ic->inter, &flag));
    CHECK(flag, "MPI_Comm_test_inter says intracommunicator");
    CHECK_MPI(MPI_Comm_test_inter(ic->local, &flag));
    CHECK(!flag, "MPI_Comm_test_inter says the local comm is an intercommunicator");
    CHECK_MPI(MPI_Comm_size(ic->inter, &n));
    CHECK(n == ic->lsize, "size %d, expected %d", n, ic->lsize);
    CHECK_MPI(MPI_Comm_remote_size(ic->inter, &n));
    CHECK(n == ic->rsize, "remote size %d, expected %d", n, ic->rsize);
    CHECK_MPI(MPI_Comm_rank(ic->inter, &n));
    CHECK(n == ic->lrank, "rank %d, expected %d", n, ic->lrank);
    CHECK_MPI(MPI_Comm_group(ic->inter, &g));
    CHECK_MPI(MPI_Group_size(g, &n));
    CHECK(n == ic->lsize, "local group size %d", n);
    ct_group_world(g, n, got);
    for (int i = 0; i < n; i++)
        CHECK(got[i] == ic->lworld[i], "local group rank %d is world %d, expected %d", i,
              got[i], ic->lworld[i]);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Comm_remote_group(ic->inter, &g));
    CHECK_MPI(MPI_Group_size(g, &n));
    CHECK(n == ic->rsize, "remote group size %d", n);
    ct_group_world(g, n, got);
    for (int i = 0; i < n; i++)
        CHECK(got[i] == ic->rworld[i], "remote group rank %d is world %d, expected %d", i,
              got[i], ic->rworld[i]);
    CHECK_MPI(MPI_Group_free(&g));
}

/* Every process sends each remote process a message naming itself; receives with
 * MPI_ANY_SOURCE must report the sender's remote rank. Then a specific-source exchange of
 * a large message (rendezvous) and a synchronous one. */
static void check_p2p(const ct_inter *ic)
{
    int world;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    MPI_Request reqs[CT_MAXP];
    int out[CT_MAXP][3];
    for (int j = 0; j < ic->rsize; j++) {
        out[j][0] = ic->lrank;
        out[j][1] = world;
        out[j][2] = j;
        CHECK_MPI(MPI_Isend(out[j], 3, MPI_INT, j, 7, ic->inter, &reqs[j]));
    }
    int seen[CT_MAXP] = {0};
    for (int j = 0; j < ic->rsize; j++) {
        int in[3];
        MPI_Status st;
        CHECK_MPI(MPI_Recv(in, 3, MPI_INT, MPI_ANY_SOURCE, 7, ic->inter, &st));
        CHECK(st.MPI_TAG == 7, "tag %d", st.MPI_TAG);
        CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < ic->rsize, "source %d", st.MPI_SOURCE);
        CHECK(in[0] == st.MPI_SOURCE, "MPI_SOURCE %d but the sender is remote rank %d",
              st.MPI_SOURCE, in[0]);
        CHECK(in[1] == ic->rworld[in[0]], "sender world %d, remote rank %d is world %d", in[1],
              in[0], ic->rworld[in[0]]);
        CHECK(in[2] == ic->lrank, "message for local rank %d arrived at %d", in[2], ic->lrank);
        CHECK(!seen[in[0]], "two messages from remote rank %d", in[0]);
        seen[in[0]] = 1;
    }
    MPI_Status sts[CT_MAXP]; /* not MPI_STATUSES_IGNORE: MPICH's header annotates a size */
    CHECK_MPI(MPI_Waitall(ic->rsize, reqs, sts));

    /* Pairs: local rank i with remote rank i % rsize; the extra ones of the larger group
     * talk to remote rank i % rsize too, so each process receives from each remote
     * process that picked it. */
    unsigned char *sbuf = malloc(BIG), *rbuf = malloc(BIG);
    CHECK(sbuf && rbuf, "malloc");
    int partner = ic->lrank % ic->rsize;
    ct_fill(sbuf, BIG, 1000 + ic->group * 100 + ic->lrank);
    MPI_Request sr;
    CHECK_MPI(MPI_Isend(sbuf, BIG, MPI_BYTE, partner, 8, ic->inter, &sr));
    for (int j = 0; j < ic->rsize; j++) {
        if (ic->lsize > 0 && j % ic->lsize != ic->lrank)
            continue;
        MPI_Status st;
        int count;
        memset(rbuf, 0, BIG);
        CHECK_MPI(MPI_Recv(rbuf, BIG, MPI_BYTE, j, 8, ic->inter, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        CHECK(count == BIG && st.MPI_SOURCE == j, "count %d source %d", count, st.MPI_SOURCE);
        CHECK(ct_verify(rbuf, BIG, 1000 + (!ic->group) * 100 + j, "large intercomm message"),
              "large message from remote rank %d", j);
    }
    CHECK_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));

    /* Sendrecv with the partner when the pairing is symmetric (equal group sizes). */
    if (ic->lsize == ic->rsize) {
        int a = 5000 + world, b = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Sendrecv(&a, 1, MPI_INT, ic->lrank, 9, &b, 1, MPI_INT, ic->lrank, 9,
                               ic->inter, &st));
        CHECK(b == 5000 + ic->rworld[ic->lrank] && st.MPI_SOURCE == ic->lrank,
              "sendrecv got %d from %d", b, st.MPI_SOURCE);
        /* Synchronous: group 0 sends first, group 1 receives first. */
        for (int turn = 0; turn < 2; turn++) {
            if (turn == ic->group)
                CHECK_MPI(MPI_Ssend(&a, 1, MPI_INT, ic->lrank, 10, ic->inter));
            else
                CHECK_MPI(MPI_Recv(&b, 1, MPI_INT, ic->lrank, 10, ic->inter, MPI_STATUS_IGNORE));
        }
        CHECK(b == 5000 + ic->rworld[ic->lrank], "ssend got %d", b);
    }
    /* MPI_PROC_NULL is still a no-op. */
    MPI_Status st;
    CHECK_MPI(MPI_Recv(rbuf, 1, MPI_BYTE, MPI_PROC_NULL, 0, ic->inter, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL source %d", st.MPI_SOURCE);
    free(sbuf);
    free(rbuf);
}

/* Merge both ways: `high` by group, then everyone low. The merged communicator must
 * work. */
static void check_merge(const ct_inter *ic)
{
    int world, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    for (int round = 0; round < 3; round++) {
        MPI_Comm m;
        int high = round == 0 ? ic->group : round == 1 ? !ic->group : 0;
        CHECK_MPI(MPI_Intercomm_merge(ic->inter, high, &m));
        int flag, n, r;
        CHECK_MPI(MPI_Comm_test_inter(m, &flag));
        CHECK(!flag, "merged communicator is an intercommunicator");
        CHECK_MPI(MPI_Comm_size(m, &n));
        CHECK(n == wsize, "merged size %d", n);
        CHECK_MPI(MPI_Comm_rank(m, &r));
        /* With the same `high` on both sides the order is the implementation's choice,
         * but each group stays whole and in order: the rank tells which came first. */
        int local_first = round < 2 ? !high : r == ic->lrank;
        int expect = local_first ? ic->lrank : ic->rsize + ic->lrank;
        CHECK(r == expect, "round %d: merged rank %d, expected %d", round, r, expect);
        int all[CT_MAXP];
        CHECK_MPI(MPI_Allgather(&world, 1, MPI_INT, all, 1, MPI_INT, m));
        const int *first = local_first ? ic->lworld : ic->rworld;
        const int *second = local_first ? ic->rworld : ic->lworld;
        int nf = local_first ? ic->lsize : ic->rsize;
        for (int i = 0; i < n; i++) {
            int want = i < nf ? first[i] : second[i - nf];
            CHECK(all[i] == want, "round %d: merged rank %d is world %d, expected %d", round, i,
                  all[i], want);
        }
        CHECK_MPI(MPI_Comm_free(&m));
    }
}

static void check_errors(const ct_inter *ic)
{
    int rc, cls, n;
    char buf[4];
    MPI_Comm bad;
    CHECK_MPI(MPI_Comm_set_errhandler(ic->inter, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(ic->local, MPI_ERRORS_RETURN));
    rc = MPI_Send(buf, 1, MPI_BYTE, ic->rsize, 0, ic->inter);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "send to remote rank %d: class %d", ic->rsize, cls);
    rc = MPI_Recv(buf, 1, MPI_BYTE, ic->rsize, 0, ic->inter, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "recv from remote rank %d: class %d", ic->rsize, cls);
    rc = MPI_Intercomm_create(ic->inter, 0, MPI_COMM_WORLD, 0, 1, &bad);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "Intercomm_create on an intercommunicator: class %d", cls);
    rc = MPI_Intercomm_create(ic->local, ic->lsize, MPI_COMM_WORLD, 0, 1, &bad);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "Intercomm_create with local leader out of range: class %d",
          cls);
    rc = MPI_Intercomm_merge(ic->local, 0, &bad);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "Intercomm_merge on an intracommunicator: class %d", cls);
    rc = MPI_Comm_remote_size(ic->local, &n);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "Comm_remote_size on an intracommunicator: class %d", cls);
    MPI_Group g;
    rc = MPI_Comm_remote_group(ic->local, &g);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "Comm_remote_group on an intracommunicator: class %d", cls);
    if (ic->kind == CT_EVEN_ODD) {
        /* The local leader naming itself as the remote leader. */
        int world;
        MPI_Comm_rank(MPI_COMM_WORLD, &world);
        if (ic->lrank == 0) {
            CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
            rc = MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, world, 1, &bad);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_RANK, "remote leader = local leader: class %d", cls);
            rc = MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, world ^ 1, -5, &bad);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_TAG, "negative tag: class %d", cls);
            CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int kind = 0; kind < CT_NKINDS; kind++) {
        ct_inter ic;
        ct_intercomm(kind, &ic);
        check_queries(&ic);
        check_p2p(&ic);
        check_merge(&ic);
        check_errors(&ic);
        /* Two intercommunicators over the same groups never see each other's messages. */
        ct_inter ic2;
        ct_intercomm(kind, &ic2);
        int a = 1, b = 2, x = 0, y = 0;
        MPI_Request r[2];
        CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, 0, 0, ic.inter, &r[0]));
        CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, 0, 0, ic2.inter, &r[1]));
        if (ic.lrank == 0)
            for (int j = 0; j < ic.rsize; j++) {
                CHECK_MPI(MPI_Send(&b, 1, MPI_INT, j, 0, ic2.inter));
                CHECK_MPI(MPI_Send(&a, 1, MPI_INT, j, 0, ic.inter));
            }
        MPI_Status sts[2];
        CHECK_MPI(MPI_Waitall(2, r, sts));
        CHECK(x == 1 && y == 2, "crossed intercommunicators: %d %d", x, y);
        ct_inter_free(&ic2);
        ct_inter_free(&ic);
        CHECK(ic.inter == MPI_COMM_NULL, "freed handle not MPI_COMM_NULL");
    }
    ct_ok("intercomm_create");
    MPI_Finalize();
    return 0;
}
