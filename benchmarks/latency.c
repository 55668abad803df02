/*
 * railmpi point-to-point latency benchmark (ping-pong), written from scratch
 * for the railmpi project.
 *
 * Ranks 0 and 1 bounce one message back and forth with blocking
 * MPI_Send/MPI_Recv.  Each side owns a single page-aligned buffer that is
 * used both to send and to receive.  For every size (0, 1, 2, 4, ... up to the
 * maximum) the pair runs some untimed warm-up round trips and then the timed
 * ones; the reported figure is the one-way latency, i.e. half the mean round
 * trip time, in microseconds.  After the timed loop one more (untimed) round
 * trip carries a known byte pattern in both directions, which both sides
 * check, so a broken transport shows up as an error rather than as a number.
 *
 * Ranks above 1 (if any) only take part in the barriers.
 *
 * Options:
 *   -m MAXSIZE  largest message size in bytes (suffix k/K or m/M allowed,
 *               default 4M = 4194304)
 *   -i SCALE    multiply every iteration and warm-up count by SCALE (a
 *               positive real, e.g. 0.1 for a quick run; default 1)
 *   -h          print usage
 *
 * Output (rank 0, stdout):
 *   # railmpi latency
 *   # Size         Latency (us)
 *   <size>     <latency>            (format "%-10d %18.2f")
 *
 * Only MPI-1 calls are used: MPI_Init, MPI_Comm_rank, MPI_Comm_size,
 * MPI_Send, MPI_Recv, MPI_Barrier, MPI_Wtime, MPI_Finalize.
 */
#define _POSIX_C_SOURCE 200112L

#include "bench_common.h"

#define SMALL_LIMIT 8192 /* sizes above this use the "large" counts */
#define ITERS_SMALL 10000
#define WARMUP_SMALL 1000
#define ITERS_LARGE 1000
#define WARMUP_LARGE 100
#define TAG_PING 11
#define TAG_CHECK 12

/* Byte pattern that depends on position, message size and direction. */
static unsigned char pattern_byte(long i, long size, int dir)
{
    return (unsigned char)((i * 131 + size * 7 + dir * 29 + 1) & 0xff);
}

static void fill_pattern(unsigned char *buf, long size, int dir)
{
    long i;

    for (i = 0; i < size; i++) {
        buf[i] = pattern_byte(i, size, dir);
    }
}

static long check_pattern(const unsigned char *buf, long size, int dir)
{
    long i;

    for (i = 0; i < size; i++) {
        if (buf[i] != pattern_byte(i, size, dir)) {
            return i;
        }
    }
    return -1;
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_MAX_SIZE;
    double scale = 1.0;
    int errors = 0;
    int rc;
    int i;
    long size;
    unsigned char *buf;
    MPI_Status status;

    rc = bench_init(&argc, &argv, "latency", 0, &max_size, &scale);
    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    buf = bench_alloc(max_size);

    if (my_rank == 0) {
        printf("# railmpi latency\n");
        printf("%-10s %18s\n", "# Size", "Latency (us)");
        fflush(stdout);
    }

    for (size = 0; size <= max_size; size = (size == 0 ? 1 : size * 2)) {
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
                MPI_OK(MPI_Send(buf, count, MPI_CHAR, 1, TAG_PING,
                                MPI_COMM_WORLD));
                MPI_OK(MPI_Recv(buf, count, MPI_CHAR, 1, TAG_PING,
                                MPI_COMM_WORLD, &status));
            }
            t_end = MPI_Wtime();
        } else if (my_rank == 1) {
            for (i = 0; i < warmup + iters; i++) {
                MPI_OK(MPI_Recv(buf, count, MPI_CHAR, 0, TAG_PING,
                                MPI_COMM_WORLD, &status));
                MPI_OK(MPI_Send(buf, count, MPI_CHAR, 0, TAG_PING,
                                MPI_COMM_WORLD));
            }
        }

        /* Untimed content check in both directions. */
        if (my_rank == 0) {
            long bad;

            fill_pattern(buf, size, 0);
            MPI_OK(MPI_Send(buf, count, MPI_CHAR, 1, TAG_CHECK, MPI_COMM_WORLD));
            MPI_OK(MPI_Recv(buf, count, MPI_CHAR, 1, TAG_CHECK, MPI_COMM_WORLD,
                            &status));
            bad = check_pattern(buf, size, 1);
            if (bad >= 0) {
                fprintf(stderr,
                        "latency: rank 0: wrong data from rank 1, size %ld, "
                        "first bad byte %ld\n",
                        size, bad);
                errors++;
            }
        } else if (my_rank == 1) {
            long bad;

            MPI_OK(MPI_Recv(buf, count, MPI_CHAR, 0, TAG_CHECK, MPI_COMM_WORLD,
                            &status));
            bad = check_pattern(buf, size, 0);
            if (bad >= 0) {
                fprintf(stderr,
                        "latency: rank 1: wrong data from rank 0, size %ld, "
                        "first bad byte %ld\n",
                        size, bad);
                errors++;
            }
            fill_pattern(buf, size, 1);
            MPI_OK(MPI_Send(buf, count, MPI_CHAR, 0, TAG_CHECK, MPI_COMM_WORLD));
        }

        if (my_rank == 0) {
            double lat = (t_end - t_start) * 1e6 / (2.0 * iters);
            printf("%-10ld %18.2f\n", size, lat);
            fflush(stdout);
        }
        if (size == max_size) {
            break; /* also ends the loop when max_size is 0 */
        }
    }

    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    free(buf);
    MPI_OK(MPI_Finalize());
    return errors ? 3 : 0;
}
