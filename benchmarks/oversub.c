/*
 * oversub.c — collective rate when ranks outnumber cores: how many small
 * collectives per second a job completes when every rank waits for peers
 * that may not be running (the waiting strategy decides: spinning or
 * yielding burns the slice the peer needs).
 *
 * usage: oversub [-t SECONDS] [-o allreduce|alltoall|both]
 *   -t  seconds each loop runs (default 2; rank 0 decides when to stop and
 *       tells the others in the reduction itself, so no clock drift matters)
 *   -o  which loop (default both)
 *
 * Output (rank 0), one line per loop, for run-bench.sh:
 *   oversub allreduce ranks N iters_per_s X
 *   oversub alltoall ranks N iters_per_s X
 * The allreduce is MPI_SUM of one double (plus a stop flag); the alltoall
 * moves one int to every peer.  Results are checked; a mismatch exits 2.
 */
#define _POSIX_C_SOURCE 200112L
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != MPI_SUCCESS) {                                              \
            fprintf(stderr, "oversub: %s failed (%d) at line %d\n", #call,     \
                    rc_, __LINE__);                                            \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

static int rank, size;

/* Runs `op` until rank 0 has seen `secs` seconds go by; returns the rate.
 * The stop decision travels in the allreduce itself (every rank stops after
 * the same iteration); for the alltoall loop it is a separate allreduce every
 * 64 iterations, so the rate is mostly alltoall. */
static double allreduce_loop(double secs)
{
    double t0 = MPI_Wtime(), in[2], out[2];
    long n = 0;
    for (;;) {
        in[0] = rank + 1.0;
        in[1] = (rank == 0 && MPI_Wtime() - t0 >= secs) ? 1.0 : 0.0;
        CHECK(MPI_Allreduce(in, out, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        n++;
        if (out[0] != size * (size + 1) / 2.0) {
            fprintf(stderr, "oversub: rank %d: allreduce gave %g\n", rank, out[0]);
            exit(2);
        }
        if (out[1] != 0.0)
            break;
    }
    return n / (MPI_Wtime() - t0);
}

static double alltoall_loop(double secs)
{
    int *sb = malloc(sizeof(int) * size), *rb = malloc(sizeof(int) * size);
    double t0 = MPI_Wtime();
    long n = 0;
    for (;;) {
        for (int i = 0; i < size; i++)
            sb[i] = rank * 1000 + i + (int)(n & 255);
        CHECK(MPI_Alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD));
        for (int i = 0; i < size; i++)
            if (rb[i] != i * 1000 + rank + (int)(n & 255)) {
                fprintf(stderr, "oversub: rank %d: alltoall gave %d from %d\n",
                        rank, rb[i], i);
                exit(2);
            }
        n++;
        if ((n & 63) == 0) {
            int stop = rank == 0 && MPI_Wtime() - t0 >= secs, any;
            CHECK(MPI_Allreduce(&stop, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
            if (any)
                break;
        }
    }
    free(sb);
    free(rb);
    return n / (MPI_Wtime() - t0);
}

int main(int argc, char **argv)
{
    double secs = 2.0;
    const char *which = "both";
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc)
            secs = atof(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            which = argv[++i];
        else {
            if (rank == 0)
                fprintf(stderr, "usage: oversub [-t SECONDS] [-o allreduce|alltoall|both]\n");
            MPI_Finalize();
            return 2;
        }
    }
    /* A short warm-up: connections, first-touch, schedulers settle. */
    allreduce_loop(0.05);
    if (strcmp(which, "alltoall")) {
        double r = allreduce_loop(secs);
        if (rank == 0)
            printf("oversub allreduce ranks %d iters_per_s %.1f\n", size, r);
    }
    if (strcmp(which, "allreduce")) {
        double r = alltoall_loop(secs);
        if (rank == 0)
            printf("oversub alltoall ranks %d iters_per_s %.1f\n", size, r);
    }
    CHECK(MPI_Finalize());
    return 0;
}
