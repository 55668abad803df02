/*
 * railmpi message-rate benchmark, OSU style (written for railmpi; the method
 * follows osu_mbw_mr): with 2P ranks, rank i < P sends to rank i + P.  Per
 * window every sender posts 64 MPI_Isend of one buffer and waits for them; its
 * receiver posts 64 MPI_Irecv, waits, and answers with a 4-byte
 * acknowledgement.  All pairs start each size together (barrier) and each
 * sender times its windows; the figure is the sum over the pairs of each pair's
 * rate, in millions of messages per second (MB/s is that times the size).
 * After the timed windows one message with a known pattern is checked on every
 * receiver.  With an odd number of ranks the last one only joins the barriers.
 *
 * Options: -m MAXSIZE (default 64K), -i SCALE (iteration counts), -h.
 * Output (rank 0): "# Size  Rate (Mmsg/s)" and rows "%-10d %18.3f".
 */
#define _POSIX_C_SOURCE 200112L

#include "bench_common.h"

#define WINDOW 64
#define ITERS_SMALL 200
#define WARMUP_SMALL 20
#define ITERS_LARGE 40
#define WARMUP_LARGE 4
#define SMALL_LIMIT 8192
#define TAG_DATA 31
#define TAG_ACK 32
#define TAG_CHECK 33

static unsigned char pattern_byte(long i, long size, int pair)
{
    return (unsigned char)((i * 151 + size * 11 + pair * 29 + 3) & 0xff);
}

int main(int argc, char **argv)
{
    long max_size = 64 * 1024, size, i;
    double scale = 1.0;
    int nprocs = 0, pairs, errors = 0, rc, it, w, ack = 0;
    unsigned char *buf;
    MPI_Request reqs[WINDOW];

    bench_default_max = "64K";
    rc = bench_init(&argc, &argv, "msgrate", 1, &max_size, &scale);
    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));
    pairs = nprocs / 2;
    buf = bench_alloc(max_size);
    if (my_rank == 0) {
        printf("# railmpi message rate, %d pair%s, window %d\n", pairs, pairs == 1 ? "" : "s",
               WINDOW);
        printf("%-10s %18s\n", "# Size", "Rate (Mmsg/s)");
        fflush(stdout);
    }
    for (size = 1; size <= max_size; size *= 2) {
        int iters = scaled(size > SMALL_LIMIT ? ITERS_LARGE : ITERS_SMALL, scale);
        int warmup = scaled(size > SMALL_LIMIT ? WARMUP_LARGE : WARMUP_SMALL, scale);
        double t0 = 0.0, rate = 0.0, sum = 0.0;
        int bad = 0, anybad = 0;

        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        if (my_rank < pairs) {
            int peer = my_rank + pairs;

            for (it = 0; it < warmup + iters; it++) {
                if (it == warmup) {
                    t0 = MPI_Wtime();
                }
                for (w = 0; w < WINDOW; w++) {
                    MPI_OK(MPI_Isend(buf, (int)size, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD,
                                     &reqs[w]));
                }
                MPI_OK(MPI_Waitall(WINDOW, reqs, MPI_STATUSES_IGNORE));
                MPI_OK(MPI_Recv(&ack, 1, MPI_INT, peer, TAG_ACK, MPI_COMM_WORLD,
                                MPI_STATUS_IGNORE));
            }
            rate = (double)iters * WINDOW / (MPI_Wtime() - t0) / 1e6;
            for (i = 0; i < size; i++) {
                buf[i] = pattern_byte(i, size, my_rank);
            }
            MPI_OK(MPI_Send(buf, (int)size, MPI_CHAR, peer, TAG_CHECK, MPI_COMM_WORLD));
        } else if (my_rank < 2 * pairs) {
            int peer = my_rank - pairs;

            for (it = 0; it < warmup + iters; it++) {
                for (w = 0; w < WINDOW; w++) {
                    MPI_OK(MPI_Irecv(buf, (int)size, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD,
                                     &reqs[w]));
                }
                MPI_OK(MPI_Waitall(WINDOW, reqs, MPI_STATUSES_IGNORE));
                MPI_OK(MPI_Send(&ack, 1, MPI_INT, peer, TAG_ACK, MPI_COMM_WORLD));
            }
            MPI_OK(MPI_Recv(buf, (int)size, MPI_CHAR, peer, TAG_CHECK, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
            for (i = 0; i < size; i++) {
                if (buf[i] != pattern_byte(i, size, peer)) {
                    bad = 1;
                    break;
                }
            }
        }
        MPI_OK(MPI_Reduce(&rate, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
        MPI_OK(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        if (anybad) {
            if (my_rank == 0) {
                fprintf(stderr, "msgrate: wrong data at size %ld\n", size);
            }
            errors++;
        }
        if (my_rank == 0) {
            printf("%-10ld %18.3f\n", size, sum);
            fflush(stdout);
        }
    }
    free(buf);
    MPI_OK(MPI_Finalize());
    return errors ? 1 : 0;
}
