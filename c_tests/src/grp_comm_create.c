/* grp_comm_create: communicators from groups, with traffic on several at once.
 * - MPI_Comm_create with one group per parity (disjoint groups in one call) and with a
 *   group that leaves some processes out (they get MPI_COMM_NULL);
 * - MPI_Comm_create_group on the evens and, at the same time, on the odds (collective over
 *   each group only), then on overlapping groups one after another, and in a pattern where
 *   a non-member is busy elsewhere (it never takes part);
 * - traffic in parallel on all of them and on MPI_COMM_WORLD with the same tags (a ring
 *   exchange and an allreduce each, checked against a serial computation);
 * - MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) ordered by key, MPI_UNDEFINED; the MPI-4
 *   split types: HW_GUIDED with "mpi_hw_resource_type" = "mpi_shared_memory" (as SHARED),
 *   without the key, with MPI_INFO_NULL or an unknown resource (MPI_COMM_NULL), HW_UNGUIDED
 *   (a strict subset or MPI_COMM_NULL);
 * - MPI_Comm_idup (then MPI_Wait), MPI_Comm_test_inter, MPI_Comm_compare. */
#include "check.h"

static int rank, size;

/* Ring exchange and allreduce on `c`, whose members are the world ranks `wr` (in rank
 * order): checks sizes, ranks and the data, with tag `tag`. */
static void traffic(MPI_Comm c, const int *wr, int n, int tag, MPI_Request *reqs, int *bufs)
{
    int cs, cr;
    CHECK_MPI(MPI_Comm_size(c, &cs));
    CHECK_MPI(MPI_Comm_rank(c, &cr));
    CHECK(cs == n, "communicator size %d, expected %d", cs, n);
    CHECK(wr[cr] == rank, "communicator rank %d is world rank %d, not %d", cr, wr[cr], rank);
    bufs[0] = rank * 1000 + tag;
    CHECK_MPI(MPI_Irecv(&bufs[1], 1, MPI_INT, (cr + n - 1) % n, tag, c, &reqs[0]));
    CHECK_MPI(MPI_Isend(&bufs[0], 1, MPI_INT, (cr + 1) % n, tag, c, &reqs[1]));
}

static void traffic_check(MPI_Comm c, const int *wr, int n, int tag, int *bufs)
{
    int cr;
    CHECK_MPI(MPI_Comm_rank(c, &cr));
    int left = wr[(cr + n - 1) % n];
    CHECK(bufs[1] == left * 1000 + tag, "ring on tag %d: got %d, expected %d", tag, bufs[1],
          left * 1000 + tag);
    int sum = 0, exp = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < n; i++)
        exp += wr[i];
    CHECK(sum == exp, "allreduce over %d members: %d, expected %d", n, sum, exp);
}

/* MPI-4.0 §7.4.2 (all processes on one node, as for MPI_COMM_TYPE_SHARED above). */
static void split_hw(void)
{
    MPI_Info info;
    MPI_Comm c;
    int n, r;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory"));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, -rank, info, &c));
    CHECK(c != MPI_COMM_NULL, "HW_GUIDED mpi_shared_memory gave MPI_COMM_NULL");
    CHECK_MPI(MPI_Comm_size(c, &n));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK(n == size && r == size - 1 - rank, "HW_GUIDED mpi_shared_memory: rank %d of %d", r, n);
    CHECK_MPI(MPI_Barrier(c));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "__no_such_resource__"));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED with an unknown resource type");
    CHECK_MPI(MPI_Info_delete(info, "mpi_hw_resource_type"));
    CHECK_MPI(MPI_Info_set(info, "shmem_topo", "machine"));
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED without mpi_hw_resource_type");
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "HW_GUIDED with MPI_INFO_NULL");
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, info, &c));
    if (c != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Comm_size(c, &n));
        CHECK(n < size, "HW_UNGUIDED: size %d, not a strict subset of %d", n, size);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    CHECK_MPI(MPI_Info_free(&info));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= 64, "at most 64 ranks");

    MPI_Group world, par_g, other_g, low_g;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));

    /* Members by parity, and the lower half (at least one). */
    int mine[64], other[64], low[64], nmine = 0, nother = 0, nlow = (size + 1) / 2;
    for (int i = 0; i < size; i++) {
        if (i % 2 == rank % 2)
            mine[nmine++] = i;
        else
            other[nother++] = i;
    }
    for (int i = 0; i < nlow; i++)
        low[i] = i;
    CHECK_MPI(MPI_Group_incl(world, nmine, mine, &par_g));
    CHECK_MPI(MPI_Group_incl(world, nother, other, &other_g));
    CHECK_MPI(MPI_Group_incl(world, nlow, low, &low_g));

    /* MPI_Comm_create: each process names its parity's group (disjoint groups). */
    MPI_Comm par_c, low_c, par_cg, low_cg, shared, und, dupc, world2;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, par_g, &par_c));
    CHECK(par_c != MPI_COMM_NULL, "Comm_create: no communicator for my own parity");
    /* A group that leaves the upper half out. */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, low_g, &low_c));
    CHECK((rank < nlow) == (low_c != MPI_COMM_NULL), "Comm_create(lower half): %s",
          low_c == MPI_COMM_NULL ? "MPI_COMM_NULL for a member" : "a communicator for a non-member");

    /* MPI_Comm_create_group: evens and odds at once, each over its own members. */
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, par_g, 7, &par_cg));
    CHECK(par_cg != MPI_COMM_NULL, "Comm_create_group gave MPI_COMM_NULL to a member");
    /* The lower half only; the others do not call. */
    low_cg = MPI_COMM_NULL;
    if (rank < nlow)
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, low_g, 8, &low_cg));

    /* Traffic on all of them at once, with the same tag 5 everywhere (and on the world). */
    MPI_Request reqs[10];
    int bufs[5][2], nreq = 0;
    int wr_world[64];
    for (int i = 0; i < size; i++)
        wr_world[i] = i;
    traffic(par_c, mine, nmine, 5, &reqs[nreq], bufs[0]);
    nreq += 2;
    traffic(par_cg, mine, nmine, 5, &reqs[nreq], bufs[1]);
    nreq += 2;
    traffic(MPI_COMM_WORLD, wr_world, size, 5, &reqs[nreq], bufs[2]);
    nreq += 2;
    if (low_c != MPI_COMM_NULL) {
        traffic(low_c, low, nlow, 5, &reqs[nreq], bufs[3]);
        nreq += 2;
        traffic(low_cg, low, nlow, 5, &reqs[nreq], bufs[4]);
        nreq += 2;
    }
    CHECK_MPI(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
    traffic_check(par_c, mine, nmine, 5, bufs[0]);
    traffic_check(par_cg, mine, nmine, 5, bufs[1]);
    traffic_check(MPI_COMM_WORLD, wr_world, size, 5, bufs[2]);
    if (low_c != MPI_COMM_NULL) {
        traffic_check(low_c, low, nlow, 5, bufs[3]);
        traffic_check(low_cg, low, nlow, 5, bufs[4]);
    }

    int res;
    CHECK_MPI(MPI_Comm_compare(par_c, par_cg, &res));
    CHECK(res == MPI_CONGRUENT, "compare(create, create_group) = %d", res);

    /* Overlapping groups one after another: {0..k} for every k, called by members only;
     * each new communicator is used at once. */
    for (int k = 0; k < size; k++) {
        if (rank > k)
            continue;
        int pre[64];
        MPI_Group pg;
        MPI_Comm pc;
        for (int i = 0; i <= k; i++)
            pre[i] = i;
        CHECK_MPI(MPI_Group_incl(world, k + 1, pre, &pg));
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, pg, 100 + k, &pc));
        MPI_Request rr[2];
        int b[2];
        traffic(pc, pre, k + 1, k, rr, b);
        CHECK_MPI(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE));
        traffic_check(pc, pre, k + 1, k, b);
        CHECK_MPI(MPI_Comm_free(&pc));
        CHECK_MPI(MPI_Group_free(&pg));
    }

    /* Pairs {2i, 2i+1} then the shifted pairs {2i+1, 2i+2}, same tag: a process that is in
     * one pair of each round must not take the other round's messages. */
    for (int round = 0; round < 2; round++) {
        int a = round == 0 ? rank - rank % 2 : (rank % 2 ? rank : rank - 1);
        int pair[2] = {a, a + 1};
        if (a < 0 || a + 1 >= size)
            continue;
        MPI_Group pg;
        MPI_Comm pc;
        CHECK_MPI(MPI_Group_incl(world, 2, pair, &pg));
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, pg, 3, &pc));
        MPI_Request rr[2];
        int b[2];
        traffic(pc, pair, 2, 9, rr, b);
        CHECK_MPI(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE));
        traffic_check(pc, pair, 2, 9, b);
        CHECK_MPI(MPI_Comm_free(&pc));
        CHECK_MPI(MPI_Group_free(&pg));
    }

    /* split_type shared: everyone (one node), ordered by key = -rank: reversed. */
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL,
                                  &shared));
    int rev[64];
    for (int i = 0; i < size; i++)
        rev[i] = size - 1 - i;
    MPI_Request rr[2];
    int b[2];
    traffic(shared, rev, size, 11, rr, b);
    CHECK_MPI(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE));
    traffic_check(shared, rev, size, 11, b);
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED,
                                  0, MPI_INFO_NULL, &und));
    CHECK((rank == 0) == (und == MPI_COMM_NULL), "split_type with MPI_UNDEFINED");
    if (und != MPI_COMM_NULL) {
        int us;
        CHECK_MPI(MPI_Comm_size(und, &us));
        CHECK(us == size - 1, "split_type without rank 0: size %d", us);
        CHECK_MPI(MPI_Comm_free(&und));
    }

    split_hw();

    /* idup: complete after MPI_Wait, congruent with the parent, usable. */
    MPI_Request req;
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dupc, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL, "MPI_Wait did not free the idup request");
    CHECK_MPI(MPI_Comm_compare(dupc, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_CONGRUENT, "compare(idup, world) = %d", res);
    traffic(dupc, wr_world, size, 12, rr, b);
    CHECK_MPI(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE));
    traffic_check(dupc, wr_world, size, 12, b);
    int flag = 0;
    CHECK_MPI(MPI_Comm_idup(dupc, &world2, &req));
    while (!flag)
        CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_compare(world2, dupc, &res));
    CHECK(res == MPI_CONGRUENT, "compare(idup of idup) = %d", res);
    CHECK_MPI(MPI_Comm_test_inter(world2, &flag));
    CHECK(!flag, "MPI_Comm_test_inter says intercommunicator");

    CHECK_MPI(MPI_Comm_free(&world2));
    CHECK_MPI(MPI_Comm_free(&dupc));
    CHECK_MPI(MPI_Comm_free(&shared));
    if (low_c != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Comm_free(&low_c));
        CHECK_MPI(MPI_Comm_free(&low_cg));
    }
    CHECK_MPI(MPI_Comm_free(&par_c));
    CHECK_MPI(MPI_Comm_free(&par_cg));
    CHECK_MPI(MPI_Group_free(&par_g));
    CHECK_MPI(MPI_Group_free(&other_g));
    CHECK_MPI(MPI_Group_free(&low_g));
    CHECK_MPI(MPI_Group_free(&world));
    ct_ok("grp_comm_create");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
