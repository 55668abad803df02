/* comm: MPI_Comm_dup/split/compare/free. Traffic on different communicators never crosses:
 * the same (source, tag) on MPI_COMM_WORLD, a dup and a split each match only their own
 * communicator's receives, even with wildcard receives posted in the "wrong" order.
 * Collectives work on dup'ed and split communicators; dup/free in a loop (context reuse). */
#include "check.h"

static void ring_on(MPI_Comm c, int marker)
{
    int r, s;
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &s));
    int out[2] = {marker, r}, in[2] = {-1, -1};
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, 2, MPI_INT, (r + 1) % s, 5, in, 2, MPI_INT, (r + s - 1) % s, 5, c,
                           &st));
    CHECK(in[0] == marker && in[1] == (r + s - 1) % s && st.MPI_SOURCE == (r + s - 1) % s,
          "ring on comm marker %d: got {%d,%d} from %d", marker, in[0], in[1], st.MPI_SOURCE);
}

int main(int argc, char **argv)
{
    int rank, n, res, r2, s2;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int next = (rank + 1) % n, prev = (rank + n - 1) % n;

    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_IDENT, "compare(world, world) = %d", res);
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(dup != MPI_COMM_WORLD && dup != MPI_COMM_NULL, "dup handle");
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &res));
    CHECK(res == MPI_CONGRUENT, "compare(world, dup) = %d", res);
    CHECK_MPI(MPI_Comm_rank(dup, &r2));
    CHECK_MPI(MPI_Comm_size(dup, &s2));
    CHECK(r2 == rank && s2 == n, "dup rank %d size %d", r2, s2);

    /* Same source, same tag on WORLD and dup; receives posted dup-first with wildcards,
     * sends issued WORLD-first. Each comm's receive must get its own message. */
    for (int k = 0; k < 10; k++) {
        int wout[2] = {111, k}, dout[2] = {222, k}, win[2] = {0, 0}, din[2] = {0, 0};
        MPI_Request reqs[4];
        MPI_Status sts[4];
        CHECK_MPI(MPI_Irecv(din, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &reqs[0]));
        CHECK_MPI(MPI_Irecv(win, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[1]));
        CHECK_MPI(MPI_Isend(wout, 2, MPI_INT, next, 3, MPI_COMM_WORLD, &reqs[2]));
        CHECK_MPI(MPI_Isend(dout, 2, MPI_INT, next, 3, dup, &reqs[3]));
        CHECK_MPI(MPI_Waitall(4, reqs, sts));
        CHECK(din[0] == 222 && din[1] == k && sts[0].MPI_SOURCE == prev && sts[0].MPI_TAG == 3,
              "dup receive got {%d,%d} from %d tag %d", din[0], din[1], sts[0].MPI_SOURCE,
              sts[0].MPI_TAG);
        CHECK(win[0] == 111 && win[1] == k && sts[1].MPI_SOURCE == prev && sts[1].MPI_TAG == 3,
              "world receive got {%d,%d} from %d tag %d", win[0], win[1], sts[1].MPI_SOURCE,
              sts[1].MPI_TAG);
    }
    /* Unexpected messages: both sent before any receive; dup received first. */
    {
        int wout = 1000 + rank, dout = 2000 + rank, v = 0;
        MPI_Request reqs[2];
        CHECK_MPI(MPI_Isend(&wout, 1, MPI_INT, next, 4, MPI_COMM_WORLD, &reqs[0]));
        CHECK_MPI(MPI_Isend(&dout, 1, MPI_INT, next, 4, dup, &reqs[1]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 4, dup, MPI_STATUS_IGNORE));
        CHECK(v == 2000 + prev, "dup got %d", v);
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(v == 1000 + prev, "world got %d", v);
        CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    }

    /* Split: color = rank % 2, key = -rank (reversed order within each color). */
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    CHECK_MPI(MPI_Comm_rank(half, &r2));
    CHECK_MPI(MPI_Comm_size(half, &s2));
    int want_size = (n + 1 - rank % 2) / 2;
    int want_rank = 0;
    for (int q = rank + 1; q < n; q++)
        want_rank += (q % 2 == rank % 2);
    CHECK(s2 == want_size && r2 == want_rank, "split: rank %d size %d, expected %d/%d", r2, s2,
          want_rank, want_size);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, half, &res));
    CHECK(res == (n == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "compare(world, half) = %d", res);
    int sum = -1, want_sum = 0;
    for (int q = rank % 2; q < n; q += 2)
        want_sum += q;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half));
    CHECK(sum == want_sum, "allreduce on split: %d, expected %d", sum, want_sum);
    int root_world = -1;
    if (r2 == 0)
        root_world = rank;
    CHECK_MPI(MPI_Bcast(&root_world, 1, MPI_INT, 0, half));
    int want_root = rank % 2;
    while (want_root + 2 < n)
        want_root += 2; /* rank 0 of the split has the highest world rank of its color */
    CHECK(root_world == want_root, "bcast on split: %d, expected %d", root_world, want_root);

    /* Reversed whole world: similar (same group, different order) when n > 1. */
    MPI_Comm rev;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, n - rank, &rev));
    CHECK_MPI(MPI_Comm_rank(rev, &r2));
    CHECK(r2 == n - 1 - rank, "reversed split rank %d", r2);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, rev, &res));
    CHECK(res == (n == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "compare(world, rev) = %d", res);

    /* MPI_UNDEFINED color gives MPI_COMM_NULL. */
    MPI_Comm maybe;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &maybe));
    CHECK((rank == 0) == (maybe != MPI_COMM_NULL), "split with MPI_UNDEFINED: comm %s",
          maybe == MPI_COMM_NULL ? "NULL" : "not NULL");
    if (maybe != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Comm_size(maybe, &s2));
        CHECK(s2 == 1, "singleton split size %d", s2);
        CHECK_MPI(MPI_Comm_free(&maybe));
    }

    /* Same tag, same peer, four communicators at once. */
    ring_on(half, 3);
    ring_on(rev, 2);
    ring_on(dup, 1);
    ring_on(MPI_COMM_WORLD, 0);

    /* Dup of a dup, and many dup/free cycles. */
    MPI_Comm dd;
    CHECK_MPI(MPI_Comm_dup(dup, &dd));
    CHECK_MPI(MPI_Comm_compare(dup, dd, &res));
    CHECK(res == MPI_CONGRUENT, "compare(dup, dupdup) = %d", res);
    ring_on(dd, 9);
    CHECK_MPI(MPI_Comm_free(&dd));
    CHECK(dd == MPI_COMM_NULL, "Comm_free did not set MPI_COMM_NULL");
    for (int i = 0; i < 100; i++) {
        MPI_Comm t;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &t));
        if (i % 25 == 0) {
            ring_on(t, 100 + i);
            CHECK_MPI(MPI_Barrier(t));
        }
        CHECK_MPI(MPI_Comm_free(&t));
    }

    CHECK_MPI(MPI_Barrier(dup));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL && half == MPI_COMM_NULL, "Comm_free did not set MPI_COMM_NULL");
    ct_ok("comm");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
