/* io: MPI-IO bandwidth of two collective patterns (meant for 4 ranks):
 *   block2d  a 2-D array of doubles distributed in blocks over a process grid
 *            (MPI_Dims_create), written with MPI_File_write_all through a subarray
 *            filetype and read back with MPI_File_read_all;
 *   strided  each rank owns every nprocs-th block of -b doubles (a resized contiguous
 *            filetype, small blocks interleaved across ranks), written and read the same way.
 * Reports MB/s (file bytes / time from a barrier before the call to a barrier after it,
 * best of -r repetitions; 1 MB = 1e6 bytes) and checks every value read back.
 *
 * usage: io [-s SIZE] [-b DOUBLES] [-r REPS] [-d DIR] [-c CB_NODES]
 *   -s  file size in bytes (K/M/G suffixes; default RAILMPI_IO_BENCH_SIZE or 64M)
 *   -b  doubles per block of the strided pattern (default 16: 128 bytes)
 *   -r  repetitions (default 3)
 *   -d  directory for the file (default $TMPDIR or /tmp); removed at the end
 *   -c  hint cb_nodes (aggregators; default: the library's)
 * Output: "pattern op MB/s" lines. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long long parse_size(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    switch (*end) {
    case 'k': case 'K': v <<= 10; break;
    case 'm': case 'M': v <<= 20; break;
    case 'g': case 'G': v <<= 30; break;
    }
    return v;
}

static MPI_Info g_info = MPI_INFO_NULL;

static void die(const char *what)
{
    fprintf(stderr, "io: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Best-of-reps bandwidth of writing then reading `n` doubles of `buf` through `ftype`;
 * value(i) is what buf[i] holds. */
static void run(const char *name, const char *path, MPI_Datatype ftype, MPI_Offset disp,
                double *buf, long long n, long long file_bytes, int reps, double (*value)(long long))
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double best_w = 0, best_r = 0;
    for (int rep = 0; rep < reps; rep++) {
        MPI_File fh;
        if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, g_info, &fh))
            die("open failed");
        MPI_File_set_view(fh, disp, MPI_DOUBLE, ftype, "native", MPI_INFO_NULL);
        for (long long i = 0; i < n; i++)
            buf[i] = value(i);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (MPI_File_write_all(fh, buf, (int)n, MPI_DOUBLE, MPI_STATUS_IGNORE))
            die("write_all failed");
        MPI_Barrier(MPI_COMM_WORLD);
        double tw = MPI_Wtime() - t0;
        memset(buf, 0, n * sizeof(double));
        MPI_File_seek(fh, 0, MPI_SEEK_SET);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        if (MPI_File_read_all(fh, buf, (int)n, MPI_DOUBLE, MPI_STATUS_IGNORE))
            die("read_all failed");
        MPI_Barrier(MPI_COMM_WORLD);
        double tr = MPI_Wtime() - t0;
        for (long long i = 0; i < n; i++)
            if (buf[i] != value(i)) {
                fprintf(stderr, "io: %s: rank %d: value %lld is %g, not %g\n", name, rank, i, buf[i], value(i));
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        MPI_File_close(&fh);
        double w = file_bytes / tw / 1e6, r = file_bytes / tr / 1e6;
        best_w = w > best_w ? w : best_w;
        best_r = r > best_r ? r : best_r;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            unlink(path);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0) {
        printf("%s write %.1f\n", name, best_w);
        printf("%s read %.1f\n", name, best_r);
        fflush(stdout);
    }
}

static int g_rank, g_size, g_block;
static long long g_rows, g_cols, g_r0, g_c0, g_nr, g_nc;

/* block2d: local (i) -> global element index as the value */
static double v_block(long long i)
{
    long long r = g_r0 + i / g_nc, c = g_c0 + i % g_nc;
    return (double)(r * g_cols + c);
}

/* strided: local (i) -> global element index */
static double v_strided(long long i)
{
    long long blk = i / g_block, off = i % g_block;
    return (double)((blk * g_size + g_rank) * g_block + off);
}

static void split(long long n, int p, int i, long long *start, long long *len)
{
    long long b = n / p, extra = n % p;
    *start = i * b + (i < extra ? i : extra);
    *len = b + (i < extra);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    const char *env = getenv("RAILMPI_IO_BENCH_SIZE");
    long long size = env ? parse_size(env) : 64LL << 20;
    int reps = 3;
    g_block = 16;
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    int opt;
    while ((opt = getopt(argc, argv, "s:b:r:d:c:")) != -1) {
        switch (opt) {
        case 's': size = parse_size(optarg); break;
        case 'b': g_block = atoi(optarg); break;
        case 'r': reps = atoi(optarg); break;
        case 'd': dir = optarg; break;
        case 'c':
            MPI_Info_create(&g_info);
            MPI_Info_set(g_info, "cb_nodes", optarg);
            break;
        default: die("usage: io [-s SIZE] [-b DOUBLES] [-r REPS] [-d DIR] [-c CB_NODES]");
        }
    }
    char path[4096];
    int pid = getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/io_bench_%d.dat", dir, pid);

    /* block2d: a square-ish array of `size` bytes of doubles */
    int dims[2] = {0, 0};
    MPI_Dims_create(g_size, 2, dims);
    long long elems = size / 8;
    g_cols = 1;
    while (g_cols * g_cols < elems)
        g_cols++;
    g_rows = elems / g_cols;
    int pr = g_rank / dims[1], pc = g_rank % dims[1];
    split(g_rows, dims[0], pr, &g_r0, &g_nr);
    split(g_cols, dims[1], pc, &g_c0, &g_nc);
    int gs[2] = {(int)g_rows, (int)g_cols}, ls[2] = {(int)g_nr, (int)g_nc}, st[2] = {(int)g_r0, (int)g_c0};
    MPI_Datatype sub;
    MPI_Type_create_subarray(2, gs, ls, st, MPI_ORDER_C, MPI_DOUBLE, &sub);
    MPI_Type_commit(&sub);
    long long n = g_nr * g_nc;
    long long per = elems / g_size / g_block * g_block; /* strided: per rank */
    double *buf = malloc(sizeof(double) * (n > per ? n : per) + 8);
    if (!buf)
        die("out of memory");
    if (g_rank == 0) {
        printf("# io: %d ranks, file %lld bytes in %s; block2d %lldx%lld doubles on a %dx%d grid; "
               "strided blocks of %d doubles; best of %d\n",
               g_size, size, dir, g_rows, g_cols, dims[0], dims[1], g_block, reps);
        fflush(stdout);
    }
    run("block2d", path, sub, 0, buf, n, g_rows * g_cols * 8, reps, v_block);

    MPI_Datatype contig, tile;
    MPI_Type_contiguous(g_block, MPI_DOUBLE, &contig);
    MPI_Type_create_resized(contig, 0, (MPI_Aint)g_size * g_block * 8, &tile);
    MPI_Type_commit(&tile);
    run("strided", path, tile, (MPI_Offset)g_rank * g_block * 8, buf, per, per * g_size * 8, reps, v_strided);

    MPI_Type_free(&sub);
    MPI_Type_free(&contig);
    MPI_Type_free(&tile);
    free(buf);
    if (g_info != MPI_INFO_NULL)
        MPI_Info_free(&g_info);
    MPI_Finalize();
    return 0;
}
