/*
 * railmpi collective benchmark: MPI_Allreduce latency, OSU style (written for
 * railmpi; the method follows osu_allreduce).
 *
 * For every size from 8 bytes to the maximum (doubling), all ranks run
 * MPI_Allreduce(MPI_SUM) on size/4 MPI_FLOATs: some untimed warm-up calls,
 * then the timed ones, each timed on its own with a barrier after it (not
 * timed).  The figure is the mean latency per call, averaged over the ranks,
 * in microseconds.  Counts are 1000 (100 warm-up) up to 8 KiB and 100 (10)
 * above, capped so that a size takes about half a second (at least 20 timed
 * calls).  Before timing, one call on known values is checked on
 * every rank (a wrong sum makes the program exit with status 1).
 *
 * Options: -m MAXSIZE (default 1M), -i SCALE (iteration counts), -h.
 * Output (rank 0): "# Size  Avg Latency (us)" and rows "%-10d %18.2f".
 */
#define _POSIX_C_SOURCE 200112L

#include "coll_common.h"

static float *sbuf, *rbuf;

static void call(long size)
{
    MPI_OK(MPI_Allreduce(sbuf, rbuf, (int)(size / sizeof(float)), MPI_FLOAT, MPI_SUM,
                         MPI_COMM_WORLD));
}

static int check(long size)
{
    int n = (int)(size / sizeof(float)), nprocs, i, bad = 0;

    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));
    for (i = 0; i < n; i++) {
        sbuf[i] = (float)((my_rank + i) % 7);
    }
    call(size);
    for (i = 0; i < n && !bad; i++) {
        float want = 0;
        int r;

        for (r = 0; r < nprocs; r++) {
            want += (float)((r + i) % 7);
        }
        bad = rbuf[i] != want;
    }
    return bad;
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_COLL_MAX;
    double scale = 1.0;
    int rc = bench_init(&argc, &argv, "coll_allreduce", MIN_SIZE, &max_size, &scale);

    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    sbuf = (float *)bench_alloc(max_size);
    rbuf = (float *)bench_alloc(max_size);
    rc = sweep("MPI_Allreduce (MPI_FLOAT, MPI_SUM)", max_size, scale, call, check);
    free(sbuf);
    free(rbuf);
    MPI_OK(MPI_Finalize());
    return rc ? 1 : 0;
}
