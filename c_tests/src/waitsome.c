/* waitsome: K receives from the ring predecessor (N=1: self) per round, matched by sends in a
 * shuffled tag order, completed with MPI_Waitany, MPI_Waitsome, MPI_Testany, MPI_Testall and a
 * mix with MPI_REQUEST_NULL entries. Every request completes exactly once with the right
 * status and data; all-null arrays give MPI_UNDEFINED. */
#include "check.h"

#define K 32

static int rank, n, next, prev;
static int rbuf[K][4], sbuf[K][4];
static MPI_Request rreq[K], sreq[K];

static void post(int round)
{
    for (int i = 0; i < K; i++) {
        rbuf[i][0] = -1;
        CHECK_MPI(MPI_Irecv(rbuf[i], 4, MPI_INT, prev, round * 100 + i, MPI_COMM_WORLD, &rreq[i]));
    }
    /* Send in a shuffled order: i -> (i * 13 + round) % K is a permutation (13 odd, K 2^k). */
    for (int j = 0; j < K; j++) {
        int i = (j * 13 + round) % K;
        sbuf[i][0] = rank;
        sbuf[i][1] = round;
        sbuf[i][2] = i;
        sbuf[i][3] = 0x5a5a;
        CHECK_MPI(MPI_Isend(sbuf[i], 4, MPI_INT, next, round * 100 + i, MPI_COMM_WORLD, &sreq[i]));
    }
}

static void done(int round, int idx, const MPI_Status *st, int *seen)
{
    CHECK(idx >= 0 && idx < K, "round %d: index %d out of range", round, idx);
    CHECK(!seen[idx], "round %d: request %d completed twice", round, idx);
    seen[idx] = 1;
    CHECK(rreq[idx] == MPI_REQUEST_NULL, "round %d: completed request %d not set to NULL", round,
          idx);
    CHECK(st->MPI_SOURCE == prev && st->MPI_TAG == round * 100 + idx,
          "round %d req %d: source %d tag %d", round, idx, st->MPI_SOURCE, st->MPI_TAG);
    CHECK(rbuf[idx][0] == prev && rbuf[idx][1] == round && rbuf[idx][2] == idx &&
              rbuf[idx][3] == 0x5a5a,
          "round %d req %d: data {%d,%d,%d,%#x}", round, idx, rbuf[idx][0], rbuf[idx][1],
          rbuf[idx][2], rbuf[idx][3]);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    next = (rank + 1) % n;
    prev = (rank + n - 1) % n;
    MPI_Status st, sts[K];
    int idx, flag, outcount, indices[K];

    for (int round = 0; round < 5; round++) {
        int seen[K] = {0};
        post(round);
        if (round == 0) {
            for (int c = 0; c < K; c++) {
                CHECK_MPI(MPI_Waitany(K, rreq, &idx, &st));
                done(round, idx, &st, seen);
            }
            CHECK_MPI(MPI_Waitany(K, rreq, &idx, &st));
            CHECK(idx == MPI_UNDEFINED, "Waitany on all-null array gave index %d", idx);
        } else if (round == 1) {
            int total = 0;
            while (total < K) {
                CHECK_MPI(MPI_Waitsome(K, rreq, &outcount, indices, sts));
                CHECK(outcount >= 1 && outcount <= K - total, "Waitsome outcount %d", outcount);
                for (int c = 0; c < outcount; c++)
                    done(round, indices[c], &sts[c], seen);
                total += outcount;
            }
            CHECK_MPI(MPI_Waitsome(K, rreq, &outcount, indices, sts));
            CHECK(outcount == MPI_UNDEFINED, "Waitsome on all-null array gave %d", outcount);
        } else if (round == 2) {
            int c = 0;
            while (c < K) {
                flag = 0;
                CHECK_MPI(MPI_Testany(K, rreq, &idx, &flag, &st));
                if (flag) {
                    done(round, idx, &st, seen);
                    c++;
                } else {
                    CHECK(idx == MPI_UNDEFINED, "Testany with flag false gave index %d", idx);
                }
            }
            CHECK_MPI(MPI_Testany(K, rreq, &idx, &flag, &st));
            CHECK(flag && idx == MPI_UNDEFINED, "Testany on all-null array: flag %d index %d",
                  flag, idx);
        } else if (round == 3) {
            flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Testall(K, rreq, &flag, sts));
            for (int i = 0; i < K; i++)
                done(round, i, &sts[i], seen);
        } else {
            /* Mix: complete the even ones with Wait first, then Waitall over the whole array
             * (half of it MPI_REQUEST_NULL) and Testall again (all null: flag true). */
            for (int i = 0; i < K; i += 2) {
                CHECK_MPI(MPI_Wait(&rreq[i], &st));
                done(round, i, &st, seen);
            }
            CHECK_MPI(MPI_Waitall(K, rreq, sts));
            for (int i = 1; i < K; i += 2)
                done(round, i, &sts[i], seen);
            flag = 0;
            CHECK_MPI(MPI_Testall(K, rreq, &flag, MPI_STATUSES_IGNORE));
            CHECK(flag, "Testall on all-null array gave flag false");
        }
        for (int i = 0; i < K; i++)
            CHECK(seen[i], "round %d: request %d never completed", round, i);
        CHECK_MPI(MPI_Waitall(K, sreq, MPI_STATUSES_IGNORE));
    }
    ct_ok("waitsome");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
