/*
 * railmpi one-sided (RMA) benchmarks, written from scratch for the railmpi
 * project.  One program, one measurement per run, chosen by the first
 * argument; two processes, rank 0 the origin and rank 1 the target.  Every
 * window comes from MPI_Win_allocate (disp_unit 1), one per message size.
 *
 *   put_lat | get_lat      latency (us) of one MPI_Put / MPI_Get followed by
 *                          MPI_Win_flush, inside one MPI_Win_lock(SHARED)
 *                          epoch; the target waits in MPI_Barrier.
 *   put_fence | get_fence  latency (us) of one operation between two
 *                          MPI_Win_fence calls (both ranks fence).
 *   put_bw | get_bw        bandwidth (MB/s, 1e6 bytes): WINDOW operations of
 *                          SIZE bytes to consecutive offsets, then one flush,
 *                          inside a lock epoch.
 *   acc_lat                MPI_Accumulate (MPI_SUM, MPI_INT) + flush; sizes
 *                          from 4 bytes.
 *   fop_lat | cas_lat      MPI_Fetch_and_op (MPI_SUM) / MPI_Compare_and_swap
 *                          of one MPI_LONG + flush; one row, size 8.
 *   overlap                Tipparaju 2004 Fig. 7: MPI_Rget of SIZE bytes,
 *                          computation as long as the transfer alone takes,
 *                          MPI_Wait; prints the percentage of the transfer
 *                          hidden behind the computation,
 *                          100 * (1 - (t_total - t_compute) / t_transfer).
 *   busy                   Tipparaju Fig. 6/10: get bandwidth while the
 *                          target computes (never calling MPI) divided by the
 *                          get bandwidth while it waits in MPI_Barrier, x100.
 *
 * Output (rank 0): "# ..." comment lines, then "<size> <value>" rows.
 * Options: -m MAXSIZE (default 4M), -i SCALE (iteration counts).
 * MPI calls: MPI_Init, MPI_Comm_rank/size, MPI_Win_allocate, MPI_Win_free,
 * MPI_Win_lock/unlock, MPI_Win_flush, MPI_Win_fence, MPI_Put, MPI_Get,
 * MPI_Rget, MPI_Wait, MPI_Accumulate, MPI_Fetch_and_op,
 * MPI_Compare_and_swap, MPI_Barrier, MPI_Bcast, MPI_Wtime, MPI_Finalize.
 */
#define _POSIX_C_SOURCE 200112L

#include "bench_common.h"

#include <time.h>

#define WINDOW 64

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Burn the CPU for `seconds` without calling MPI. */
static double compute(double seconds)
{
    volatile double x = 1.0;
    double end = now() + seconds;

    while (now() < end) {
        for (int k = 0; k < 1000; k++) {
            x = x * 1.0000001 + 1e-9;
        }
    }
    return x;
}

static int iterations(long size, double scale)
{
    int base = size <= 8192 ? 5000 : size <= 262144 ? 500 : 50;

    return scaled(base, scale);
}

static MPI_Win new_window(long bytes, unsigned char **base)
{
    MPI_Win win;

    MPI_OK(MPI_Win_allocate((MPI_Aint)(bytes > 0 ? bytes : 1), 1, MPI_INFO_NULL,
                            MPI_COMM_WORLD, base, &win));
    memset(*base, my_rank == 0 ? 'o' : 't', (size_t)(bytes > 0 ? bytes : 1));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    return win;
}

/* One latency row: op (0 put, 1 get) + flush in a lock epoch, or fenced. */
static void latency(int get, int fenced, long size, double scale, unsigned char *buf)
{
    unsigned char *base;
    MPI_Win win = new_window(size, &base);
    int iters = iterations(size, scale), warm = iters / 10 + 1;
    double t0 = 0;

    if (fenced) {
        MPI_OK(MPI_Win_fence(0, win));
        for (int i = 0; i < iters + warm; i++) {
            if (i == warm) {
                t0 = MPI_Wtime();
            }
            if (my_rank == 0) {
                if (get) {
                    MPI_OK(MPI_Get(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win));
                } else {
                    MPI_OK(MPI_Put(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win));
                }
            }
            MPI_OK(MPI_Win_fence(0, win));
        }
    } else if (my_rank == 0) {
        MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
        for (int i = 0; i < iters + warm; i++) {
            if (i == warm) {
                t0 = MPI_Wtime();
            }
            if (get) {
                MPI_OK(MPI_Get(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win));
            } else {
                MPI_OK(MPI_Put(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win));
            }
            MPI_OK(MPI_Win_flush(1, win));
        }
        MPI_OK(MPI_Win_unlock(1, win));
    }
    if (my_rank == 0) {
        printf("%-10ld %18.2f\n", size, (MPI_Wtime() - t0) * 1e6 / iters);
        fflush(stdout);
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_free(&win));
}

static void bandwidth(int get, long size, double scale, unsigned char *buf)
{
    long span = size * WINDOW;
    unsigned char *base;
    MPI_Win win = new_window(span, &base);
    int iters = scaled(size <= 65536 ? 100 : size <= 1048576 ? 20 : 5, scale);
    double t0 = 0;

    if (my_rank == 0) {
        MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
        for (int i = 0; i < iters + 1; i++) {
            if (i == 1) {
                t0 = MPI_Wtime();
            }
            for (int w = 0; w < WINDOW; w++) {
                if (get) {
                    MPI_OK(MPI_Get(buf + w * size, (int)size, MPI_BYTE, 1, w * size,
                                   (int)size, MPI_BYTE, win));
                } else {
                    MPI_OK(MPI_Put(buf + w * size, (int)size, MPI_BYTE, 1, w * size,
                                   (int)size, MPI_BYTE, win));
                }
            }
            MPI_OK(MPI_Win_flush(1, win));
        }
        MPI_OK(MPI_Win_unlock(1, win));
        printf("%-10ld %18.2f\n", size,
               (double)size * WINDOW * iters / (MPI_Wtime() - t0) / 1e6);
        fflush(stdout);
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_free(&win));
}

/* kind: 0 accumulate (size bytes of int), 1 fetch-and-op, 2 compare-and-swap */
static void atomic_latency(int kind, long size, double scale)
{
    long bytes = kind == 0 ? size : (long)sizeof(long);
    unsigned char *base;
    MPI_Win win = new_window(bytes, &base);
    int iters = iterations(bytes, scale), warm = iters / 10 + 1;
    int *ints = calloc((size_t)bytes / sizeof(int) + 1, sizeof(int));
    long one = 1, cmp = 0, res = 0;
    double t0 = 0;

    if (my_rank == 0) {
        MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
        for (int i = 0; i < iters + warm; i++) {
            if (i == warm) {
                t0 = MPI_Wtime();
            }
            if (kind == 0) {
                MPI_OK(MPI_Accumulate(ints, (int)(bytes / sizeof(int)), MPI_INT, 1, 0,
                                      (int)(bytes / sizeof(int)), MPI_INT, MPI_SUM, win));
            } else if (kind == 1) {
                MPI_OK(MPI_Fetch_and_op(&one, &res, MPI_LONG, 1, 0, MPI_SUM, win));
            } else {
                MPI_OK(MPI_Compare_and_swap(&one, &cmp, &res, MPI_LONG, 1, 0, win));
            }
            MPI_OK(MPI_Win_flush(1, win));
        }
        MPI_OK(MPI_Win_unlock(1, win));
        printf("%-10ld %18.2f\n", bytes, (MPI_Wtime() - t0) * 1e6 / iters);
        fflush(stdout);
    }
    free(ints);
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_free(&win));
}

/* Tipparaju Fig. 7: how much of an MPI_Rget hides behind computation. */
static void overlap(long size, double scale, unsigned char *buf)
{
    unsigned char *base;
    MPI_Win win = new_window(size, &base);
    int iters = scaled(20, scale);
    MPI_Request req;

    if (my_rank == 0) {
        double t_xfer = 1e30, t_total = 1e30, t_comp = 0;

        MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
        for (int i = 0; i < iters; i++) {
            double t = MPI_Wtime();

            MPI_OK(MPI_Rget(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win, &req));
            MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            t = MPI_Wtime() - t;
            t_xfer = t < t_xfer ? t : t_xfer;
        }
        for (int i = 0; i < iters; i++) {
            double t = MPI_Wtime(), c;

            MPI_OK(MPI_Rget(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win, &req));
            c = MPI_Wtime();
            compute(t_xfer);
            t_comp = MPI_Wtime() - c;
            MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            t = MPI_Wtime() - t;
            t_total = t < t_total ? t : t_total;
        }
        MPI_OK(MPI_Win_unlock(1, win));
        {
            double hidden = 1.0 - (t_total - t_comp) / t_xfer;

            hidden = hidden < 0 ? 0 : hidden > 1 ? 1 : hidden;
            printf("%-10ld %18.2f\n", size, 100.0 * hidden);
            fflush(stdout);
        }
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_free(&win));
}

/* Tipparaju Fig. 6/10: get bandwidth with the target computing vs idling. */
static void busy(long size, double scale, unsigned char *buf)
{
    unsigned char *base;
    MPI_Win win = new_window(size, &base);
    double min_time = 0.2 * scale;
    double bw[2] = {0, 0}, budget = 0;

    for (int phase = 0; phase < 2; phase++) {
        /* The origin tells the target how long its phase-1 computation must be. */
        MPI_OK(MPI_Bcast(&budget, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        if (my_rank == 0) {
            double t;

            long iters = 0;

            MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
            t = MPI_Wtime();
            /* At least min_time of gets (the target's computation outlasts it). */
            while (MPI_Wtime() - t < min_time) {
                MPI_OK(MPI_Get(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, win));
                MPI_OK(MPI_Win_flush(1, win));
                iters++;
            }
            t = MPI_Wtime() - t;
            MPI_OK(MPI_Win_unlock(1, win));
            bw[phase] = (double)size * (double)iters / t / 1e6;
            budget = 2 * t + 0.1;
        } else if (phase == 1) {
            compute(budget);
        }
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    if (my_rank == 0) {
        printf("%-10ld %18.2f\n", size, 100.0 * bw[1] / bw[0]);
        fflush(stdout);
    }
    MPI_OK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_MAX_SIZE;
    double scale = 1.0;
    const char *mode = argc > 1 ? argv[1] : "";
    unsigned char *buf;
    int rc;

    /* The mode comes first; bench_init parses the options after it. */
    if (argc > 1) {
        argv[1] = argv[0];
        argc--;
        argv++;
    }
    rc = bench_init(&argc, &argv, "rma", 1, &max_size, &scale);
    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    buf = bench_alloc(max_size * WINDOW);
    if (my_rank == 0) {
        printf("# railmpi RMA benchmark: %s (2 ranks, MPI_Win_allocate windows)\n", mode);
        printf("# Size     Value\n");
    }
    for (long size = 1; size <= max_size; size *= 2) {
        if (!strcmp(mode, "put_lat") || !strcmp(mode, "get_lat")) {
            latency(mode[0] == 'g', 0, size, scale, buf);
        } else if (!strcmp(mode, "put_fence") || !strcmp(mode, "get_fence")) {
            latency(mode[0] == 'g', 1, size, scale, buf);
        } else if (!strcmp(mode, "put_bw") || !strcmp(mode, "get_bw")) {
            bandwidth(mode[0] == 'g', size, scale, buf);
        } else if (!strcmp(mode, "acc_lat")) {
            if (size >= 4) {
                atomic_latency(0, size, scale);
            }
        } else if (!strcmp(mode, "fop_lat") || !strcmp(mode, "cas_lat")) {
            atomic_latency(mode[0] == 'f' ? 1 : 2, 8, scale);
            break;
        } else if (!strcmp(mode, "overlap") || !strcmp(mode, "busy")) {
            if (size >= 65536) {
                if (mode[0] == 'o') {
                    overlap(size, scale, buf);
                } else {
                    busy(size, scale, buf);
                }
            }
        } else {
            if (my_rank == 0) {
                fprintf(stderr, "rma: unknown mode '%s' (put_lat get_lat put_fence "
                                "get_fence put_bw get_bw acc_lat fop_lat cas_lat "
                                "overlap busy)\n", mode);
            }
            MPI_OK(MPI_Finalize());
            return 1;
        }
    }
    free(buf);
    MPI_OK(MPI_Finalize());
    return 0;
}
