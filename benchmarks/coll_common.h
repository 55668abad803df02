/*
 * Shared driver of the collective benchmarks (coll_allreduce.c, coll_bcast.c,
 * coll_alltoall.c): OSU-style timing of one collective per size, averaged over
 * the ranks. Each program supplies `call(size)` and `check(size)`.
 */
#ifndef COLL_COMMON_H
#define COLL_COMMON_H
#include "bench_common.h"

#define MIN_SIZE 8
#define DEFAULT_COLL_MAX (1L << 20)
#define SMALL_LIMIT 8192 /* sizes above this use the "large" counts */
#define ITERS_SMALL 1000
#define WARMUP_SMALL 100
#define ITERS_LARGE 100
#define WARMUP_LARGE 10

/*
 * Times `iters` calls of the collective after `warmup` untimed ones, each call
 * timed on its own and followed by an (untimed) barrier, as the OSU collective
 * benchmarks do; returns the mean time per call on this rank, in microseconds.
 */
static double time_calls(void (*call)(long), long size, int warmup, int iters)
{
    double total = 0.0;
    int i;

    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    for (i = 0; i < warmup + iters; i++) {
        double t0 = MPI_Wtime();

        call(size);
        if (i >= warmup) {
            total += MPI_Wtime() - t0;
        }
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    return total * 1e6 / iters;
}

/*
 * Caps the iteration counts so that one size takes about TIME_BUDGET seconds
 * at most (but at least MIN_ITERS timed calls): an implementation that is slow
 * here (MPICH busy-polls when ranks share cores) still finishes the sweep.  The
 * estimate comes from two calls, the slowest rank's time, so every rank makes
 * the same number of calls.
 */
#define TIME_BUDGET 0.5
#define MIN_ITERS 20
static void cap_counts(void (*call)(long), long size, int *warmup, int *iters)
{
    double t0, mine, worst = 0.0;
    double limit;

    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    t0 = MPI_Wtime();
    call(size);
    call(size);
    mine = (MPI_Wtime() - t0) / 2;
    MPI_OK(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    if (worst <= 0.0) {
        return;
    }
    limit = TIME_BUDGET / worst;
    if (*iters > limit) {
        *iters = limit > MIN_ITERS ? (int)limit : MIN_ITERS;
    }
    if (*warmup > limit / 5) {
        *warmup = limit / 5 > 2 ? (int)(limit / 5) : 2;
    }
}

/* The mean over all ranks of each rank's mean latency (at rank 0). */
static double mean_over_ranks(double mine)
{
    double sum = 0.0;
    int nprocs = 1;

    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));
    MPI_OK(MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
    return sum / nprocs;
}

/* Runs the size sweep 8 B .. max_size, printing one row per size at rank 0. */
static int sweep(const char *title, long max_size, double scale, void (*call)(long),
                 int (*check)(long))
{
    long size;
    int errors = 0;

    if (my_rank == 0) {
        printf("# railmpi %s\n", title);
        printf("%-10s %18s\n", "# Size", "Avg Latency (us)");
        fflush(stdout);
    }
    for (size = MIN_SIZE; size <= max_size; size *= 2) {
        int iters = scaled(size > SMALL_LIMIT ? ITERS_LARGE : ITERS_SMALL, scale);
        int warmup = scaled(size > SMALL_LIMIT ? WARMUP_LARGE : WARMUP_SMALL, scale);
        int bad = check(size), any = 0;
        double avg;

        cap_counts(call, size, &warmup, &iters);
        MPI_OK(MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        if (any) {
            if (my_rank == 0) {
                fprintf(stderr, "%s: wrong data at size %ld\n", bench_name, size);
            }
            errors++;
        }
        avg = mean_over_ranks(time_calls(call, size, warmup, iters));
        if (my_rank == 0) {
            printf("%-10ld %18.2f\n", size, avg);
            fflush(stdout);
        }
    }
    return errors;
}

#endif /* COLL_COMMON_H */
