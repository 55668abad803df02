/*
 * railmpi collective benchmark: MPI_Allgather latency, OSU style (written for
 * railmpi; the method follows osu_allgather).
 *
 * For every size from 8 bytes to the maximum (doubling), every rank contributes
 * `size` MPI_CHARs and receives everyone's (size is the per-rank block, as in
 * OSU): some untimed warm-up calls, then the timed ones, each timed on its own
 * with a barrier after it (not timed).  The figure is the mean latency per
 * call, averaged over the ranks, in microseconds.  Counts as in coll_common.h.
 * Before timing, one gather of known blocks is checked on every rank.
 *
 * Options: -m MAXSIZE (default 1M), -i SCALE (iteration counts), -h.
 * Output (rank 0): "# Size  Avg Latency (us)" and rows "%-10d %18.2f".
 */
#define _POSIX_C_SOURCE 200112L

#include "coll_common.h"

static unsigned char *sbuf, *rbuf;
static int nprocs;

static void call(long size)
{
    MPI_OK(MPI_Allgather(sbuf, (int)size, MPI_CHAR, rbuf, (int)size, MPI_CHAR, MPI_COMM_WORLD));
}

static unsigned char pattern(int from, long i)
{
    return (unsigned char)((i * 131 + from * 37 + 9) & 0xff);
}

static int check(long size)
{
    int j;
    long i;

    for (i = 0; i < size; i++) {
        sbuf[i] = pattern(my_rank, i);
    }
    memset(rbuf, 0, (size_t)(size * nprocs));
    call(size);
    for (j = 0; j < nprocs; j++) {
        for (i = 0; i < size; i++) {
            if (rbuf[j * size + i] != pattern(j, i)) {
                return 1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_COLL_MAX;
    double scale = 1.0;
    int rc = bench_init(&argc, &argv, "coll_allgather", MIN_SIZE, &max_size, &scale);

    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));
    sbuf = bench_alloc(max_size);
    rbuf = bench_alloc(max_size * nprocs);
    rc = sweep("MPI_Allgather (MPI_CHAR, size per rank)", max_size, scale, call, check);
    free(sbuf);
    free(rbuf);
    MPI_OK(MPI_Finalize());
    return rc ? 1 : 0;
}
