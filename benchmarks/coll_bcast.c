/*
 * railmpi collective benchmark: MPI_Bcast latency, OSU style (written for
 * railmpi; the method follows osu_bcast).
 *
 * For every size from 8 bytes to the maximum (doubling), rank 0 broadcasts
 * `size` MPI_CHARs: some untimed warm-up calls, then the timed ones, each
 * timed on its own with a barrier after it (not timed).  The figure is the
 * mean latency per call, averaged over the ranks, in microseconds.  Counts
 * are 1000 (100 warm-up) up to 8 KiB and 100 (10) above, capped so that a
 * size takes about half a second (at least 20 timed calls).  Before
 * timing, one broadcast of a known pattern is checked on every rank.
 *
 * Options: -m MAXSIZE (default 1M), -i SCALE (iteration counts), -h.
 * Output (rank 0): "# Size  Avg Latency (us)" and rows "%-10d %18.2f".
 */
#define _POSIX_C_SOURCE 200112L

#include "coll_common.h"

static unsigned char *buf;

static void call(long size)
{
    MPI_OK(MPI_Bcast(buf, (int)size, MPI_CHAR, 0, MPI_COMM_WORLD));
}

static unsigned char pattern(long i, long size)
{
    return (unsigned char)((i * 131 + size * 7 + 3) & 0xff);
}

static int check(long size)
{
    long i;

    for (i = 0; i < size; i++) {
        buf[i] = my_rank == 0 ? pattern(i, size) : 0;
    }
    call(size);
    for (i = 0; i < size; i++) {
        if (buf[i] != pattern(i, size)) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    long max_size = DEFAULT_COLL_MAX;
    double scale = 1.0;
    int rc = bench_init(&argc, &argv, "coll_bcast", MIN_SIZE, &max_size, &scale);

    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    buf = bench_alloc(max_size);
    rc = sweep("MPI_Bcast (MPI_CHAR, root 0)", max_size, scale, call, check);
    free(buf);
    MPI_OK(MPI_Finalize());
    return rc ? 1 : 0;
}
