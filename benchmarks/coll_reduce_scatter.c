/*
 * railmpi collective benchmark: MPI_Reduce_scatter latency, OSU style (written
 * for railmpi; the method follows osu_reduce_scatter).
 *
 * For every size from 8 bytes to the maximum (doubling), the ranks sum `size`
 * bytes of MPI_FLOATs (size is the whole vector, as in OSU: each rank gets about
 * size / nprocs bytes of the result, the remainder going to the first ranks):
 * some untimed warm-up calls, then the timed ones, each timed on its own with a
 * barrier after it (not timed).  The figure is the mean latency per call,
 * averaged over the ranks, in microseconds.  Counts as in coll_common.h.
 * Before timing, one reduction of known values is checked on every rank.
 *
 * Options: -m MAXSIZE (default 1M), -i SCALE (iteration counts), -h.
 * Output (rank 0): "# Size  Avg Latency (us)" and rows "%-10d %18.2f".
 */
#define _POSIX_C_SOURCE 200112L

#include "coll_common.h"

static float *sbuf, *rbuf;
static int *counts;
static int nprocs;

/* Splits `size` bytes of floats over the ranks; returns this rank's offset. */
static int split(long size)
{
    int total = (int)(size / (long)sizeof(float)), j, mine = 0;

    for (j = 0; j < nprocs; j++) {
        counts[j] = total / nprocs + (j < total % nprocs ? 1 : 0);
        if (j < my_rank) {
            mine += counts[j];
        }
    }
    return mine;
}

static void call(long size)
{
    split(size);
    MPI_OK(MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
}

static int check(long size)
{
    int total = (int)(size / (long)sizeof(float)), off = split(size), i;

    for (i = 0; i < total; i++) {
        /* Small integers: the float sum is exact in any order. */
        sbuf[i] = (float)((i * 7 + my_rank * 3) % 64);
    }
    call(size);
    for (i = 0; i < counts[my_rank]; i++) {
        float want = 0.0f;
        int r;

        for (r = 0; r < nprocs; r++) {
            want += (float)(((off + i) * 7 + r * 3) % 64);
        }
        if (rbuf[i] != want) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_COLL_MAX;
    double scale = 1.0;
    int rc = bench_init(&argc, &argv, "coll_reduce_scatter", MIN_SIZE, &max_size, &scale);

    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));
    counts = malloc(sizeof(int) * (size_t)nprocs);
    sbuf = (float *)bench_alloc(max_size);
    rbuf = (float *)bench_alloc(max_size);
    if (counts == NULL) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    rc = sweep("MPI_Reduce_scatter (MPI_FLOAT, MPI_SUM, size = whole vector)", max_size, scale,
               call, check);
    free(counts);
    free(sbuf);
    free(rbuf);
    MPI_OK(MPI_Finalize());
    return rc ? 1 : 0;
}
