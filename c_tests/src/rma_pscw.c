/* rma_pscw: general active target synchronization with overlapping groups. Every rank
 * exposes its window to both ring neighbours (MPI_Win_post) and accesses both of them
 * (MPI_Win_start) in the same round, so each rank is at once origin and target of two
 * epochs. Per round: refresh my "own" region, post, start, MPI_Put my data into the left
 * neighbour's "from right" slot and the right neighbour's "from left" slot, MPI_Get both
 * neighbours' "own" regions, MPI_Accumulate into a shared counter at both, complete, then
 * MPI_Win_wait (even rounds) or an MPI_Win_test loop (odd rounds); check everything.
 * Also a round where the even ranks only expose and the odd ranks only access. */
#include "check.h"

#define NI 32
#define ROUNDS 20
/* window (ints): [0,NI) own data, [NI,2NI) from left, [2NI,3NI) from right, [3NI] counter */
#define W_OWN 0
#define W_FL NI
#define W_FR (2 * NI)
#define W_CNT (3 * NI)
/* Padded to a multiple of 16 bytes: MPICH 4.0.2 (ch4:ucx) computes wrong remote addresses
 * for MPI_Win_allocate windows of e.g. 388 or 392 bytes. */
#define WINTS (3 * NI + 4)

static int rank, n;

static int dat(int r, int round, int i) { return r * 1000000 + round * 1000 + i; }

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    int left = (rank - 1 + n) % n, right = (rank + 1) % n;
    int *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(WINTS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &mem, &win));
    memset(mem, 0, WINTS * sizeof(int));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    MPI_Group wg, nb;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int nbr[2] = {left, right};
    CHECK_MPI(MPI_Group_incl(wg, left == right ? 1 : 2, nbr, &nb));
    int nn = left == right ? 1 : 2; /* distinct neighbours */

    int mine[NI], gl[NI], gr[NI], one = 1, expect_cnt = 0;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < NI; i++) {
            mem[W_OWN + i] = dat(rank, round, i);
            mine[i] = dat(rank, round, i) + 7;
            gl[i] = gr[i] = -1;
        }
        CHECK_MPI(MPI_Win_post(nb, 0, win));
        CHECK_MPI(MPI_Win_start(nb, 0, win));
        CHECK_MPI(MPI_Put(mine, NI, MPI_INT, left, W_FR, NI, MPI_INT, win));
        CHECK_MPI(MPI_Put(mine, NI, MPI_INT, right, W_FL, NI, MPI_INT, win));
        CHECK_MPI(MPI_Get(gl, NI, MPI_INT, left, W_OWN, NI, MPI_INT, win));
        CHECK_MPI(MPI_Get(gr, NI, MPI_INT, right, W_OWN, NI, MPI_INT, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, left, W_CNT, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, right, W_CNT, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_complete(win));
        if (round % 2 == 0) {
            CHECK_MPI(MPI_Win_wait(win));
        } else {
            int flag = 0;
            long spins = 0;
            while (!flag) {
                CHECK_MPI(MPI_Win_test(win, &flag));
                spins++;
            }
            CHECK(spins >= 1, "MPI_Win_test loop");
        }
        expect_cnt += 2;
        for (int i = 0; i < NI; i++) {
            CHECK(gl[i] == dat(left, round, i), "round %d: Get from left %d [%d] = %d, expected %d",
                  round, left, i, gl[i], dat(left, round, i));
            CHECK(gr[i] == dat(right, round, i),
                  "round %d: Get from right %d [%d] = %d, expected %d", round, right, i, gr[i],
                  dat(right, round, i));
            CHECK(mem[W_FL + i] == dat(left, round, i) + 7,
                  "round %d: slot from left [%d] = %d, expected %d", round, i, mem[W_FL + i],
                  dat(left, round, i) + 7);
            CHECK(mem[W_FR + i] == dat(right, round, i) + 7,
                  "round %d: slot from right [%d] = %d, expected %d", round, i, mem[W_FR + i],
                  dat(right, round, i) + 7);
            CHECK(mem[W_OWN + i] == dat(rank, round, i), "round %d: own region changed", round);
        }
        CHECK(mem[W_CNT] == expect_cnt, "round %d: counter %d, expected %d", round, mem[W_CNT],
              expect_cnt);
    }

    /* Even ranks expose to every odd rank; odd ranks access every even rank. */
    if (n >= 2) {
        int ne = (n + 1) / 2, no = n / 2, *ev = malloc(n * sizeof(int)), *od = ev + ne;
        for (int r = 0; r < n; r++)
            *(r % 2 ? &od[r / 2] : &ev[r / 2]) = r;
        MPI_Group gev, god;
        CHECK_MPI(MPI_Group_incl(wg, ne, ev, &gev));
        CHECK_MPI(MPI_Group_incl(wg, no, od, &god));
        memset(mem, 0, WINTS * sizeof(int));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank % 2 == 0) {
            CHECK_MPI(MPI_Win_post(god, 0, win));
            CHECK_MPI(MPI_Win_wait(win));
            for (int k = 0; k < no; k++)
                CHECK(mem[k] == od[k] + 100, "one-sided round: slot %d = %d, expected %d", k,
                      mem[k], od[k] + 100);
            for (int k = no; k < WINTS; k++)
                CHECK(mem[k] == 0, "one-sided round: int %d changed to %d", k, mem[k]);
        } else {
            int v = rank + 100;
            CHECK_MPI(MPI_Win_start(gev, 0, win));
            for (int k = 0; k < ne; k++)
                CHECK_MPI(MPI_Put(&v, 1, MPI_INT, ev[k], rank / 2, 1, MPI_INT, win));
            CHECK_MPI(MPI_Win_complete(win));
        }
        MPI_Group_free(&gev);
        MPI_Group_free(&god);
        free(ev);
    }

    MPI_Group_free(&nb);
    MPI_Group_free(&wg);
    CHECK_MPI(MPI_Win_free(&win));
    char name[64];
    snprintf(name, sizeof name, "rma_pscw n=%d rounds=%d neighbours=%d", n, ROUNDS, nn);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
