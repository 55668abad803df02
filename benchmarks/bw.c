/*
 * railmpi point-to-point streaming bandwidth benchmark, written from scratch
 * for the railmpi project.
 *
 * Rank 0 posts a window of 64 MPI_Isend of one page-aligned buffer to rank 1
 * and waits for all of them (MPI_Waitall); rank 1 posts 64 matching MPI_Irecv
 * into its own single buffer, waits for them, and answers with a 4-byte
 * acknowledgement (one MPI_INT) that rank 0 receives before starting the next
 * window.  After untimed warm-up windows rank 0 times a number of windows;
 * bandwidth = bytes moved / time, reported in MB/s with MB = 1e6 bytes.
 * After the timed windows, one untimed message with a known byte pattern is
 * sent and checked by rank 1, so a broken transport shows up as an error.
 *
 * Sizes: 1, 2, 4, ... up to the maximum.  Ranks above 1 (if any) only take
 * part in the barriers.
 *
 * Options:
 *   -m MAXSIZE  largest message size in bytes (suffix k/K or m/M allowed,
 *               default 4M = 4194304)
 *   -i SCALE    multiply every iteration and warm-up count by SCALE (a
 *               positive real, e.g. 0.1 for a quick run; default 1)
 *   -h          print usage
 *
 * Output (rank 0, stdout):
 *   # railmpi bandwidth
 *   # Size     Bandwidth (MB/s)
 *   <size>     <MB/s>               (format "%-10d %18.2f")
 *
 * Only MPI-1 calls are used: MPI_Init, MPI_Comm_rank, MPI_Comm_size,
 * MPI_Isend, MPI_Irecv, MPI_Waitall, MPI_Send, MPI_Recv, MPI_Barrier,
 * MPI_Wtime, MPI_Finalize.
 */
#define _POSIX_C_SOURCE 200112L

#include "bench_common.h"

#define WINDOW 64
#define SMALL_LIMIT 8192 /* sizes above this use the "large" counts */
#define ITERS_SMALL 100
#define WARMUP_SMALL 10
#define ITERS_LARGE 20
#define WARMUP_LARGE 2
#define TAG_DATA 21
#define TAG_ACK 22
#define TAG_CHECK 23

static unsigned char pattern_byte(long i, long size)
{
    return (unsigned char)((i * 151 + size * 11 + 3) & 0xff);
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_MAX_SIZE;
    double scale = 1.0;
    int errors = 0;
    int rc;
    int i, w;
    long size;
    unsigned char *buf;
    MPI_Request reqs[WINDOW];
    MPI_Status stats[WINDOW];
    MPI_Status status;
    int ack = 0;

    rc = bench_init(&argc, &argv, "bw", 1, &max_size, &scale);
    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    buf = bench_alloc(max_size);

    if (my_rank == 0) {
        printf("# railmpi bandwidth\n");
        printf("%-10s %18s\n", "# Size", "Bandwidth (MB/s)");
        fflush(stdout);
    }

    for (size = 1; size <= max_size; size *= 2) {
        int iters = scaled(size > SMALL_LIMIT ? ITERS_LARGE : ITERS_SMALL, scale);
        int warmup =
            scaled(size > SMALL_LIMIT ? WARMUP_LARGE : WARMUP_SMALL, scale);
        int count = (int)size;
        double t_start = 0.0, t_end = 0.0;

        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));

        if (my_rank == 0) {
            for (i = 0; i < warmup + iters; i++) {
                if (i == warmup) {
                    t_start = MPI_Wtime();
                }
                for (w = 0; w < WINDOW; w++) {
                    MPI_OK(MPI_Isend(buf, count, MPI_CHAR, 1, TAG_DATA,
                                     MPI_COMM_WORLD, &reqs[w]));
                }
                MPI_OK(MPI_Waitall(WINDOW, reqs, stats));
                MPI_OK(MPI_Recv(&ack, 1, MPI_INT, 1, TAG_ACK, MPI_COMM_WORLD,
                                &status));
            }
            t_end = MPI_Wtime();
        } else if (my_rank == 1) {
            for (i = 0; i < warmup + iters; i++) {
                for (w = 0; w < WINDOW; w++) {
                    MPI_OK(MPI_Irecv(buf, count, MPI_CHAR, 0, TAG_DATA,
                                     MPI_COMM_WORLD, &reqs[w]));
                }
                MPI_OK(MPI_Waitall(WINDOW, reqs, stats));
                ack = i;
                MPI_OK(MPI_Send(&ack, 1, MPI_INT, 0, TAG_ACK, MPI_COMM_WORLD));
            }
        }

        /* Untimed content check, rank 0 -> rank 1. */
        if (my_rank == 0) {
            long k;

            for (k = 0; k < size; k++) {
                buf[k] = pattern_byte(k, size);
            }
            MPI_OK(MPI_Send(buf, count, MPI_CHAR, 1, TAG_CHECK, MPI_COMM_WORLD));
        } else if (my_rank == 1) {
            long k;

            MPI_OK(MPI_Recv(buf, count, MPI_CHAR, 0, TAG_CHECK, MPI_COMM_WORLD,
                            &status));
            for (k = 0; k < size; k++) {
                if (buf[k] != pattern_byte(k, size)) {
                    fprintf(stderr,
                            "bw: rank 1: wrong data from rank 0, size %ld, "
                            "first bad byte %ld\n",
                            size, k);
                    errors++;
                    break;
                }
            }
        }

        if (my_rank == 0) {
            double bytes = (double)size * WINDOW * iters;
            double mbps = bytes / (t_end - t_start) / 1e6;
            printf("%-10ld %18.2f\n", size, mbps);
            fflush(stdout);
        }
        if (size > max_size / 2) {
            break; /* avoid overflowing size when max_size is large */
        }
    }

    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    free(buf);
    MPI_OK(MPI_Finalize());
    return errors ? 3 : 0;
}
