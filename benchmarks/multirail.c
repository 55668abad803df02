/*
 * multirail.c — bandwidth between two ranks for links slow enough that the machine is not
 * the bottleneck (the multirail benchmark shapes them with tc): every measurement runs for
 * a fixed time, not a fixed count.
 *
 *   multirail bw     [-t SECONDS] [-m MAX]   windows of 16 MPI_Isend, 64 KiB .. MAX (4 MiB)
 *   multirail bibw   [-t SECONDS] [-m MAX]   the same, both ranks sending at once
 *   multirail stream [-t SECONDS] [-s SIZE]  SIZE (1 MiB) messages for SECONDS (10),
 *                                            bandwidth printed every 0.25 s ("time MB/s")
 *
 * Rank 0 paces: before every window it tells rank 1 whether another follows. The last
 * message of every size is checked byte for byte. Output: "size MB/s" rows (MB = 1e6 B).
 */
#define _POSIX_C_SOURCE 200112L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 16
#define TAG_GO 1
#define TAG_DATA 2
#define TAG_BACK 3
#define TAG_ACK 4

static int rank;

#define OK(call)                                                                   \
    do {                                                                           \
        if ((call) != MPI_SUCCESS) {                                               \
            fprintf(stderr, "multirail: rank %d: %s failed\n", rank, #call);       \
            MPI_Abort(MPI_COMM_WORLD, 1);                                          \
        }                                                                          \
    } while (0)

static unsigned char byte_at(long i, long size) { return (unsigned char)(i * 131 + size * 7 + 5); }

/* One window of `size`-byte messages from rank 0 (and back, when `both`). */
static void window(unsigned char *out, unsigned char *in, long size, int both)
{
    MPI_Request r[2 * WINDOW];
    int n = 0, peer = 1 - rank;
    if (rank == 0 || both)
        for (int w = 0; w < WINDOW; w++)
            OK(MPI_Isend(out, (int)size, MPI_BYTE, peer, rank == 0 ? TAG_DATA : TAG_BACK,
                         MPI_COMM_WORLD, &r[n++]));
    if (rank == 1 || both)
        for (int w = 0; w < WINDOW; w++)
            OK(MPI_Irecv(in, (int)size, MPI_BYTE, peer, rank == 1 ? TAG_DATA : TAG_BACK,
                         MPI_COMM_WORLD, &r[n++]));
    OK(MPI_Waitall(n, r, MPI_STATUSES_IGNORE));
    int ack = 0;
    if (rank == 1)
        OK(MPI_Send(&ack, 1, MPI_INT, 0, TAG_ACK, MPI_COMM_WORLD));
    else
        OK(MPI_Recv(&ack, 1, MPI_INT, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* Rank 0 says whether another window follows; returns it on both ranks. */
static int go(int more)
{
    OK(MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD));
    return more;
}

static int check(unsigned char *out, unsigned char *in, long size)
{
    int bad = 0;
    if (rank == 0) {
        for (long k = 0; k < size; k++)
            out[k] = byte_at(k, size);
        OK(MPI_Send(out, (int)size, MPI_BYTE, 1, TAG_GO, MPI_COMM_WORLD));
    } else {
        OK(MPI_Recv(in, (int)size, MPI_BYTE, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (long k = 0; k < size && !bad; k++)
            if (in[k] != byte_at(k, size)) {
                fprintf(stderr, "multirail: size %ld: byte %ld wrong\n", size, k);
                bad = 1;
            }
    }
    return bad;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "bw";
    double seconds = -1;
    long max = 4L << 20, ssize = 1L << 20;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-t"))
            seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "-m"))
            max = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "-s"))
            ssize = atol(argv[i + 1]);
    }
    int stream = !strcmp(mode, "stream"), both = !strcmp(mode, "bibw");
    if (!stream && !both && strcmp(mode, "bw")) {
        fprintf(stderr, "usage: multirail bw|bibw|stream [-t S] [-m MAX] [-s SIZE]\n");
        return 2;
    }
    if (seconds <= 0)
        seconds = stream ? 10.0 : 1.0;
    OK(MPI_Init(&argc, &argv));
    int n;
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    OK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    if (n != 2) {
        if (rank == 0)
            fprintf(stderr, "multirail: needs exactly 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    long cap = stream ? ssize : max;
    unsigned char *out = malloc((size_t)cap), *in = malloc((size_t)cap);
    if (!out || !in)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(out, 1, (size_t)cap);
    memset(in, 0, (size_t)cap);
    int errors = 0;

    if (stream) {
        if (rank == 0)
            printf("# multirail stream: %ld B messages, MB/s per 0.25 s\n# time MB/s\n", ssize);
        double t0 = MPI_Wtime(), mark = t0, bytes = 0;
        while (go(rank == 0 ? MPI_Wtime() - t0 < seconds : 0)) {
            window(out, in, ssize, 0);
            bytes += (double)ssize * WINDOW;
            double now = MPI_Wtime();
            if (rank == 0 && now - mark >= 0.25) {
                printf("%.2f %.2f\n", now - t0, bytes / (now - mark) / 1e6);
                fflush(stdout);
                mark = now;
                bytes = 0;
            }
        }
        errors += check(out, in, ssize);
    } else {
        if (rank == 0)
            printf("# multirail %s: windows of %d, %.1f s per size\n# size MB/s\n",
                   both ? "bidirectional bandwidth" : "bandwidth", WINDOW, seconds);
        for (long size = 64L << 10; size <= max; size *= 2) {
            go(1);
            window(out, in, size, both); /* warm-up */
            double t0 = MPI_Wtime();
            long windows = 0;
            while (go(rank == 0 ? (windows < 2 || MPI_Wtime() - t0 < seconds) : 0)) {
                window(out, in, size, both);
                windows++;
            }
            double t = MPI_Wtime() - t0;
            if (rank == 0) {
                double b = (double)size * WINDOW * (double)windows * (both ? 2 : 1);
                printf("%-10ld %.2f\n", size, b / t / 1e6);
                fflush(stdout);
            }
            errors += check(out, in, size);
        }
    }
    OK(MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    free(out);
    free(in);
    MPI_Finalize();
    return errors ? 1 : 0;
}
