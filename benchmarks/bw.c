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

#include <mpi.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_MAX_SIZE (4L * 1024 * 1024)
#define WINDOW 64
#define SMALL_LIMIT 8192 /* sizes above this use the "large" counts */
#define ITERS_SMALL 100
#define WARMUP_SMALL 10
#define ITERS_LARGE 20
#define WARMUP_LARGE 2
#define TAG_DATA 21
#define TAG_ACK 22
#define TAG_CHECK 23

static int my_rank = 0;

#define MPI_OK(call)                                                           \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != MPI_SUCCESS) {                                              \
            fprintf(stderr, "bw: rank %d: %s failed (error %d) at %s:%d\n",    \
                    my_rank, #call, rc_, __FILE__, __LINE__);                  \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [-m MAXSIZE] [-i SCALE]\n"
            "  -m MAXSIZE  largest message in bytes (k/K, m/M suffix allowed; "
            "default 4M)\n"
            "  -i SCALE    scale factor for iteration counts (default 1.0)\n",
            prog);
}

/* Parses "4194304", "64k", "4M". Returns -1 on a malformed value. */
static long parse_size(const char *s)
{
    char *end = NULL;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || v < 1) {
        return -1;
    }
    if (*end == 'k' || *end == 'K') {
        v *= 1024;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        v *= 1024 * 1024;
        end++;
    }
    if (*end != '\0' || v > (1L << 30)) {
        return -1;
    }
    return v;
}

static int scaled(int base, double scale)
{
    double v = floor(base * scale + 0.5);

    return v < 1.0 ? 1 : (int)v;
}

static unsigned char pattern_byte(long i, long size)
{
    return (unsigned char)((i * 151 + size * 11 + 3) & 0xff);
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_MAX_SIZE;
    double scale = 1.0;
    int nprocs = 0;
    int errors = 0;
    int i, w;
    long size;
    unsigned char *buf = NULL;
    long page = sysconf(_SC_PAGESIZE);
    MPI_Request reqs[WINDOW];
    MPI_Status stats[WINDOW];
    MPI_Status status;
    int ack = 0;

    MPI_OK(MPI_Init(&argc, &argv));
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &my_rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
            max_size = parse_size(argv[++i]);
            if (max_size < 0) {
                if (my_rank == 0) {
                    fprintf(stderr, "bw: bad size '%s'\n", argv[i]);
                }
                MPI_OK(MPI_Finalize());
                return 1;
            }
        } else if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) {
            char *end = NULL;
            scale = strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(scale > 0.0)) {
                if (my_rank == 0) {
                    fprintf(stderr, "bw: bad scale '%s'\n", argv[i]);
                }
                MPI_OK(MPI_Finalize());
                return 1;
            }
        } else {
            if (my_rank == 0) {
                usage(argv[0]);
            }
            MPI_OK(MPI_Finalize());
            return strcmp(argv[i], "-h") == 0 ? 0 : 1;
        }
    }

    if (nprocs < 2) {
        if (my_rank == 0) {
            fprintf(stderr, "bw: needs at least 2 processes\n");
        }
        MPI_OK(MPI_Finalize());
        return 1;
    }

    if (page <= 0) {
        page = 4096;
    }
    if (posix_memalign((void **)&buf, (size_t)page, (size_t)max_size) != 0) {
        fprintf(stderr, "bw: rank %d: cannot allocate %ld bytes\n", my_rank,
                max_size);
        exit(2);
    }
    /* Touch every page before any timing. */
    memset(buf, my_rank == 0 ? 'a' : 'b', (size_t)max_size);

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
