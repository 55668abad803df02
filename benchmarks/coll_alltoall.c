/*
 * railmpi collective benchmark: MPI_Alltoall latency, OSU style (written for
 * railmpi; the method follows osu_alltoall).
 *
 * For every size from 8 bytes to the maximum (doubling), every rank sends
 * `size` MPI_CHARs to every rank (size is the per-peer message, as in OSU):
 * some untimed warm-up calls, then the timed ones, each timed on its own with
 * a barrier after it (not timed).  The figure is the mean latency per call,
 * averaged over the ranks, in microseconds.  Counts are 1000 (100 warm-up) up
 * to 8 KiB and 100 (10) above, capped so that a size takes about half a second
 * (at least 20 timed calls).  Before timing, one exchange of
 * known blocks is checked on every rank.
 *
 * Options: -m MAXSIZE (default 1M), -i SCALE (iteration counts), -h.
 * Output (rank 0): "# Size  Avg Latency (us)" and rows "%-10d %18.2f".
 */
#define _POSIX_C_SOURCE 200112L

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

static unsigned char *sbuf, *rbuf;
static int nprocs;

static void call(long size)
{
    MPI_OK(MPI_Alltoall(sbuf, (int)size, MPI_CHAR, rbuf, (int)size, MPI_CHAR, MPI_COMM_WORLD));
}

static unsigned char pattern(int from, int to, long i)
{
    return (unsigned char)((i * 131 + from * 37 + to * 11 + 5) & 0xff);
}

static int check(long size)
{
    int j;
    long i;

    for (j = 0; j < nprocs; j++) {
        for (i = 0; i < size; i++) {
            sbuf[j * size + i] = pattern(my_rank, j, i);
        }
    }
    call(size);
    for (j = 0; j < nprocs; j++) {
        for (i = 0; i < size; i++) {
            if (rbuf[j * size + i] != pattern(j, my_rank, i)) {
                return 1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_COLL_MAX;
    double scale = 1.0;
    int rc = bench_init(&argc, &argv, "coll_alltoall", MIN_SIZE, &max_size, &scale);

    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));
    sbuf = bench_alloc(max_size * nprocs);
    rbuf = bench_alloc(max_size * nprocs);
    rc = sweep("MPI_Alltoall (MPI_CHAR, size per peer)", max_size, scale, call, check);
    free(sbuf);
    free(rbuf);
    MPI_OK(MPI_Finalize());
    return rc ? 1 : 0;
}
