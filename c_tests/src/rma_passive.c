/* rma_passive: passive-target progress. Rank 0 (the target) computes for S seconds (default
 * 3) without any MPI call (time from clock_gettime), while every other rank runs ITER
 * rounds of MPI_Win_lock / Put / flush / Get / Fetch_and_op / Accumulate / MPI_Win_unlock
 * on rank 0's window and finally sets its "done" flag in that window with MPI_Put inside a
 * last lock epoch. During its computation rank 0 watches the flags with plain loads (the
 * window memory model is unified) and requires that all are set before the computation
 * ends: a library that needs the target to call MPI to serve locks or data would leave them
 * unset. Afterwards rank 0 checks every value. Done on MPI_Win_allocate and MPI_Win_create.
 * usage: rma_passive [SECONDS] */
#include "check.h"

#define ITER 100
/* Int slots in the window: per-origin slots at 4*r .. 4*r+3, then a shared counter. */
#define S_PUT 0  /* last iteration written by MPI_Put */
#define S_ACC 1  /* MPI_Accumulate(SUM, 1) each round */
#define S_DONE 2 /* done flag */
#define S_FOP_OFF(n) (4 * (n))

static int rank, n;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void run(int flavor, double secs)
{
    const char *fn = flavor == 0 ? "allocate" : "create";
    int wints = 4 * n + 4, *mem;
    MPI_Win win;
    if (flavor == 0) {
        CHECK_MPI(MPI_Win_allocate(wints * sizeof(int), sizeof(int), MPI_INFO_NULL,
                                   MPI_COMM_WORLD, &mem, &win));
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        memset(mem, 0, wints * sizeof(int));
        CHECK_MPI(MPI_Win_unlock(rank, win));
    } else {
        mem = calloc(wints, sizeof(int));
        CHECK(mem, "calloc");
        CHECK_MPI(MPI_Win_create(mem, wints * sizeof(int), sizeof(int), MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &win));
    }
    int *model, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    CHECK(flag && *model == MPI_WIN_UNIFIED, "%s: window model is not MPI_WIN_UNIFIED", fn);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    if (rank == 0) {
        double t0 = now_s(), all_done_at = -1, x = 1.0;
        volatile int *vm = mem;
        while (now_s() - t0 < secs) {
            for (int k = 0; k < 20000; k++) /* pure computation */
                x = x * 1.0000001 + 1e-9;
            if (all_done_at < 0) {
                int all = 1;
                __atomic_thread_fence(__ATOMIC_SEQ_CST);
                for (int r = 1; r < n; r++)
                    all &= vm[4 * r + S_DONE] == 1;
                if (all)
                    all_done_at = now_s() - t0;
            }
        }
        double elapsed = now_s() - t0;
        if (all_done_at < 0) {
            int missing = 0;
            for (int r = 1; r < n; r++)
                missing += vm[4 * r + S_DONE] != 1;
            CHECK(all_done_at >= 0,
                  "%s: %d of %d origins had not finished their %d lock/unlock rounds after "
                  "%.1f s of target computation without MPI calls (no passive-target progress)",
                  fn, missing, n - 1, ITER, elapsed);
        }
        printf("rank 0 (%s): all %d origins done %.3f s into %.1f s of computation (x=%g)\n",
               fn, n - 1, all_done_at, elapsed, x);
        fflush(stdout);
    } else {
        int one = 1;
        for (int it = 0; it < ITER; it++) {
            int v = it, got = -1, fo = -1;
            CHECK_MPI(MPI_Win_lock(it % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, 0, 0, win));
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 4 * rank + S_PUT, 1, MPI_INT, win));
            CHECK_MPI(MPI_Win_flush(0, win));
            CHECK_MPI(MPI_Get(&got, 1, MPI_INT, 0, 4 * rank + S_PUT, 1, MPI_INT, win));
            CHECK_MPI(MPI_Fetch_and_op(&one, &fo, MPI_INT, 0, S_FOP_OFF(n), MPI_SUM, win));
            CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, 4 * rank + S_ACC, 1, MPI_INT, MPI_SUM,
                                     win));
            CHECK_MPI(MPI_Win_unlock(0, win));
            CHECK(got == it, "%s: round %d: MPI_Get after Put+flush read %d", fn, it, got);
            CHECK(fo >= it && fo < (n - 1) * ITER, "%s: round %d: Fetch_and_op returned %d", fn,
                  it, fo);
        }
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK_MPI(MPI_Put(&one, 1, MPI_INT, 0, 4 * rank + S_DONE, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK_MPI(MPI_Win_sync(win));
        for (int r = 1; r < n; r++) {
            CHECK(mem[4 * r + S_PUT] == ITER - 1, "%s: origin %d's Put slot is %d, expected %d",
                  fn, r, mem[4 * r + S_PUT], ITER - 1);
            CHECK(mem[4 * r + S_ACC] == ITER, "%s: origin %d's Accumulate slot is %d, expected %d",
                  fn, r, mem[4 * r + S_ACC], ITER);
            CHECK(mem[4 * r + S_DONE] == 1, "%s: origin %d's done flag is %d", fn, r,
                  mem[4 * r + S_DONE]);
        }
        CHECK(mem[S_FOP_OFF(n)] == (n - 1) * ITER, "%s: Fetch_and_op counter is %d, expected %d",
              fn, mem[S_FOP_OFF(n)], (n - 1) * ITER);
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Win_free(&win));
    if (flavor == 1)
        free(mem);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    double secs = argc > 1 ? atof(argv[1]) : 3.0;
    run(0, secs);
    run(1, secs);
    char name[64];
    snprintf(name, sizeof name, "rma_passive n=%d", n);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
