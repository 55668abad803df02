/* wildcard: rank 0 receives from all others with MPI_ANY_SOURCE / MPI_ANY_TAG; status fields
 * and the non-overtaking order per sender (and per sender+tag) are checked.
 * Payload of each message: {sender, seq, tag, phase}. */
#include "check.h"

#define M 30     /* messages per sender per phase */
#define NTAGS 3

static void send_all(int rank, int phase, MPI_Request *reqs, int (*msgs)[4])
{
    for (int j = 0; j < M; j++) {
        int tag = j % NTAGS;
        msgs[j][0] = rank;
        msgs[j][1] = j;
        msgs[j][2] = tag;
        msgs[j][3] = phase;
        CHECK_MPI(MPI_Isend(msgs[j], 4, MPI_INT, 0, tag, MPI_COMM_WORLD, &reqs[j]));
    }
    CHECK_MPI(MPI_Waitall(M, reqs, MPI_STATUSES_IGNORE));
}

static void check_msg(const int *m, const MPI_Status *st, int phase, int n)
{
    int count = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
    CHECK(count == 4, "count %d", count);
    CHECK(m[0] >= 1 && m[0] < n && m[1] >= 0 && m[1] < M && m[2] == m[1] % NTAGS && m[3] == phase,
          "bad payload {%d,%d,%d,%d} in phase %d", m[0], m[1], m[2], m[3], phase);
    CHECK(st->MPI_SOURCE == m[0], "status source %d, payload says sender %d", st->MPI_SOURCE,
          m[0]);
    CHECK(st->MPI_TAG == m[2], "status tag %d, payload says tag %d", st->MPI_TAG, m[2]);
}

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");

    MPI_Request reqs[M];
    int msgs[M][4];
    int *next = calloc((size_t)n * NTAGS, sizeof(int));
    CHECK(next, "malloc");
    MPI_Status st;
    int m[4];

    /* Phase 0: ANY_SOURCE + ANY_TAG; per sender the seq must be exactly 0,1,2,... */
    if (rank == 0) {
        for (int i = 0; i < (n - 1) * M; i++) {
            CHECK_MPI(MPI_Recv(m, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            check_msg(m, &st, 0, n);
            CHECK(m[1] == next[m[0]], "phase 0: from %d got seq %d, expected %d (overtaken)",
                  m[0], m[1], next[m[0]]);
            next[m[0]]++;
        }
    } else {
        send_all(rank, 0, reqs, msgs);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Phase 1: ANY_SOURCE with a specific tag, tags taken in reverse order, so most messages
     * are unexpected when matched; per (sender, tag) the order must be preserved. */
    if (rank == 0) {
        memset(next, 0, (size_t)n * NTAGS * sizeof(int));
        for (int tag = NTAGS - 1; tag >= 0; tag--) {
            int per_sender = 0;
            for (int j = 0; j < M; j++)
                per_sender += (j % NTAGS == tag);
            for (int i = 0; i < (n - 1) * per_sender; i++) {
                CHECK_MPI(MPI_Recv(m, 4, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
                check_msg(m, &st, 1, n);
                CHECK(m[2] == tag, "asked tag %d got %d", tag, m[2]);
                int want = next[m[0] * NTAGS + tag] * NTAGS + tag;
                CHECK(m[1] == want, "phase 1: from %d tag %d got seq %d, expected %d", m[0], tag,
                      m[1], want);
                next[m[0] * NTAGS + tag]++;
            }
        }
    } else {
        send_all(rank, 1, reqs, msgs);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Phase 2: specific source (highest rank first) with ANY_TAG. */
    if (rank == 0) {
        for (int src = n - 1; src >= 1; src--) {
            for (int j = 0; j < M; j++) {
                CHECK_MPI(MPI_Recv(m, 4, MPI_INT, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                check_msg(m, &st, 2, n);
                CHECK(m[0] == src && m[1] == j, "phase 2: from %d expected seq %d, got {%d,%d}",
                      src, j, m[0], m[1]);
            }
        }
    } else {
        send_all(rank, 2, reqs, msgs);
    }
    free(next);
    ct_ok("wildcard");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
