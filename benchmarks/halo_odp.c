/*
 * halo_odp — the experiment of Li et al. 2016, Table I, on railmpi: a
 * nonblocking halo exchange (ranks in a ring, each sends a halo to both
 * neighbours) with computation over a large working set between posting the
 * MPI_Isend/MPI_Irecv and MPI_Waitall.  The halo buffers come from a pool
 * that is first touched by the communication itself, so how the library
 * registers them (pin-down, ODP with or without prefetch) shows in the run
 * time, the page faults, the prefetched pages and the pinned bytes; run it
 * with RAILMPI_STATS=1 and each RAILMPI_REG_MODE (benchmarks/run-bench.sh
 * does).  Other MPI libraries run it too (the figures then are only time).
 *
 * Output (rank 0): "halo_odp ranks N halo BYTES iters I us_per_iter T".
 * Every received halo is checked (one byte per page, the bytes the sender
 * wrote); a mismatch exits with status 3.
 *
 * Options: -n ITERS (default 20), -h HALO_BYTES (default 4M), -w WORKING_SET
 * (bytes per rank, default 256M), -b POOL (halo buffers per direction,
 * default 8).
 */
#define _POSIX_C_SOURCE 200112L
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*end == 'k' || *end == 'K')
        v *= 1024;
    else if (*end == 'm' || *end == 'M')
        v *= 1024 * 1024;
    else if (*end == 'g' || *end == 'G')
        v *= 1024.0 * 1024 * 1024;
    return (long)v;
}

static unsigned char pattern(int rank, int iter, long i)
{
    return (unsigned char)(rank * 31 + iter * 7 + i * 13);
}

int main(int argc, char **argv)
{
    int rank, size, iters = 20, pool = 8;
    long halo = 4L << 20, ws = 256L << 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "-n"))
            iters = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "-h"))
            halo = parse_size(argv[a + 1]);
        else if (!strcmp(argv[a], "-w"))
            ws = parse_size(argv[a + 1]);
        else if (!strcmp(argv[a], "-b"))
            pool = atoi(argv[a + 1]);
        else {
            if (!rank)
                fprintf(stderr, "usage: %s [-n ITERS] [-h HALO] [-w WORKING_SET] [-b POOL]\n",
                        argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (iters < 1 || halo < 1 || ws < 64 || pool < 1) {
        if (!rank)
            fprintf(stderr, "halo_odp: bad option value\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    /* 4 buffers per pool slot: send left/right, receive from left/right. Not touched
     * here: the first touch is the communication's (or the library's prefetch). */
    unsigned char **buf = malloc(sizeof *buf * 4 * (size_t)pool);
    for (int k = 0; k < 4 * pool; k++) {
        if (posix_memalign((void **)&buf[k], 4096, (size_t)halo)) {
            fprintf(stderr, "halo_odp: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    volatile unsigned char *work = malloc((size_t)ws);
    if (!work) {
        fprintf(stderr, "halo_odp: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset((void *)work, 1, (size_t)ws);

    double elapsed = 0;
    uint64_t sink = 0;
    for (int it = 0; it < iters; it++) {
        int slot = it % pool;
        unsigned char *sl = buf[4 * slot], *sr = buf[4 * slot + 1];
        unsigned char *rl = buf[4 * slot + 2], *rr = buf[4 * slot + 3];
        for (long i = 0; i < halo; i += 4096) { /* the halo's edge values: one per page */
            sl[i] = pattern(rank, it, i);
            sr[i] = pattern(rank, it, i + 1);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Request req[4];
        MPI_Irecv(rl, (int)halo, MPI_BYTE, left, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(rr, (int)halo, MPI_BYTE, right, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(sl, (int)halo, MPI_BYTE, left, 0, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(sr, (int)halo, MPI_BYTE, right, 1, MPI_COMM_WORLD, &req[3]);
        /* Computation over the working set (one write per cache line), without MPI
         * calls: whatever the library overlaps, it overlaps with this. */
        for (long i = 0; i < ws; i += 64)
            work[i] = (unsigned char)(work[i] + 1);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        elapsed += MPI_Wtime() - t0;
        for (long i = 0; i < halo; i += 4096) {
            if (rl[i] != pattern(left, it, i + 1) || rr[i] != pattern(right, it, i)) {
                fprintf(stderr, "halo_odp: rank %d iteration %d: wrong halo byte at %ld\n",
                        rank, it, i);
                exit(3);
            }
        }
        sink += work[(long)it * 64 % ws];
    }
    double worst;
    MPI_Reduce(&elapsed, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (!rank)
        printf("halo_odp ranks %d halo %ld iters %d us_per_iter %.1f (check %llu)\n", size,
               halo, iters, worst * 1e6 / iters, (unsigned long long)(sink % 7));
    for (int k = 0; k < 4 * pool; k++)
        free(buf[k]);
    free((void *)work);
    MPI_Finalize();
    return 0;
}
