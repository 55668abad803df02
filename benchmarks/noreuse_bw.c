/*
 * railmpi ping-pong bandwidth benchmark without buffer reuse, written from
 * scratch for the railmpi project (the experiment of Woodall et al. 2006,
 * section 6, Fig. 5 and Fig. 6).
 *
 * Every iteration rank 0 sends SIZE bytes to rank 1 (MPI_Send / MPI_Recv)
 * and rank 1 answers with SIZE bytes; the time of the round trip is measured
 * on rank 0, and bandwidth = SIZE / (round-trip time / 2), in MB/s with
 * MB = 1e6 bytes, summed over the timed iterations.
 *
 * No buffer reuse: for every iteration each of the two ranks takes a fresh
 * send buffer and a fresh receive buffer, page-aligned slices that were never
 * used before, carved one after the other from a large address-space arena
 * (reserved PROT_NONE, so no two buffers of a run share an address, and a
 * registration cache cannot hit).  The receive buffer is never touched before
 * the receive, so first-touch page faults (and any registration of new
 * memory) are part of the measured cost.  The send buffer is filled with the
 * data pattern outside the timed section (the application produced its data;
 * the MPI library has never seen the buffer).  After the iteration the
 * slices are given back to the kernel (mapped PROT_NONE again, which unmaps
 * the pages), so memory does not grow.
 *
 * With -r N each pair of buffers is used for N consecutive iterations before
 * it is given back (Woodall Fig. 6: bandwidth against the number of reuses);
 * the number of timed iterations is then rounded up to a multiple of N.
 *
 * Every iteration is checked: the sender fills its buffer with a pattern
 * that depends on the size, the iteration and the sending rank; the receiver
 * checks every byte after the receive completed (never before).  A mismatch
 * is reported and the program exits with status 3.  Filling, checking and
 * buffer management are outside the timed section; a barrier before each
 * timed round trip keeps one rank's checking out of the other's timing.
 *
 * Sizes: 64 KiB, 128 KiB, ... up to the maximum (default 32 MiB); with -s
 * only one size.  Ranks above 1 (if any) only take part in the barriers.
 *
 * Options:
 *   -m MAXSIZE  largest message size in bytes (suffix k/K or m/M allowed,
 *               default 32M); below 64K only that one size is run
 *   -i SCALE    multiply every iteration and warm-up count by SCALE
 *   -r N        use each buffer N times (default 1: no reuse)
 *   -s SIZE     run only this one size
 *   -h          print usage
 *
 * Output (rank 0, stdout):
 *   # railmpi ping-pong bandwidth, no buffer reuse (each buffer used N times)
 *   # Size     Bandwidth (MB/s)
 *   <size>     <MB/s>               (format "%-10d %18.2f")
 *
 * MPI calls used: MPI_Init, MPI_Comm_rank, MPI_Comm_size, MPI_Send,
 * MPI_Recv, MPI_Barrier, MPI_Wtime, MPI_Finalize.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200112L

#include "bench_common.h"

#include <stdint.h>
#include <sys/mman.h>

#define MIN_SWEEP_SIZE (64L * 1024)
#define NOREUSE_MAX_SIZE (32L * 1024 * 1024)
#define MID_LIMIT (1L * 1024 * 1024)  /* sizes above this: MID counts */
#define BIG_LIMIT (8L * 1024 * 1024)  /* sizes above this: BIG counts */
#define ITERS_SMALL 20
#define WARMUP_SMALL 2
#define ITERS_MID 10
#define WARMUP_MID 1
#define ITERS_BIG 5
#define WARMUP_BIG 1
#define MAX_REUSE 100000
#define ARENA_MAX (16UL << 30) /* address space reserved for the buffers */
#define ARENA_MIN (256UL << 20)
#define TAG_PING 31
#define TAG_PONG 32

static long opt_reuse = 1;
static long opt_size = 0;

static int extra_opt(const char *opt, const char *val)
{
    if (strcmp(opt, "-r") == 0) {
        char *end = NULL;

        errno = 0;
        opt_reuse = strtol(val, &end, 10);
        if (errno != 0 || end == val || *end != '\0' || opt_reuse < 1 ||
            opt_reuse > MAX_REUSE) {
            return -1;
        }
        return 1;
    }
    if (strcmp(opt, "-s") == 0) {
        opt_size = parse_size(val, 1);
        return opt_size > 0 ? 1 : -1;
    }
    return 0;
}

/* The arena: reserved address space handed out in never-reused slices. */
static unsigned char *arena;
static size_t arena_len;
static size_t arena_next;
static size_t page_size;

static void arena_init(size_t need)
{
    size_t len = ARENA_MAX;

    for (;;) {
        void *p = mmap(NULL, len, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            arena = p;
            arena_len = len;
            return;
        }
        if (len / 2 < ARENA_MIN || len / 2 < need) {
            fprintf(stderr, "%s: rank %d: cannot reserve %zu bytes: %s\n",
                    bench_name, my_rank, len, strerror(errno));
            exit(2);
        }
        len /= 2;
    }
}

/*
 * A fresh, never-touched, readable and writable slice of len bytes (rounded
 * up to pages).  Slices follow each other through the arena and start over
 * at its beginning only when it is used up (16 GiB: never, in a normal run).
 */
static unsigned char *fresh_buffer(size_t len)
{
    unsigned char *p;

    len = (len + page_size - 1) / page_size * page_size;
    if (arena_next + len > arena_len) {
        arena_next = 0;
    }
    p = arena + arena_next;
    arena_next += len;
    if (mmap(p, len, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
        fprintf(stderr, "%s: rank %d: cannot map %zu bytes: %s\n", bench_name,
                my_rank, len, strerror(errno));
        exit(2);
    }
    return p;
}

/* Gives a slice's pages back to the kernel (the range stays reserved). */
static void release_buffer(unsigned char *p, size_t len)
{
    len = (len + page_size - 1) / page_size * page_size;
    if (mmap(p, len, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
             0) == MAP_FAILED) {
        fprintf(stderr, "%s: rank %d: cannot release %zu bytes: %s\n",
                bench_name, my_rank, len, strerror(errno));
        exit(2);
    }
}

/* Pattern word k of the message of (size, iteration, sending rank). */
static uint64_t pattern_word(uint64_t k, uint64_t seed)
{
    uint64_t x = (k + 1) * 0x9e3779b97f4a7c15ULL ^ seed;

    x ^= x >> 29;
    return x * 0xbf58476d1ce4e5b9ULL + 1;
}

static uint64_t pattern_seed(long size, long iter, int sender)
{
    return ((uint64_t)size << 20) ^ ((uint64_t)iter << 2) ^ (uint64_t)sender;
}

static void fill(unsigned char *buf, long size, uint64_t seed)
{
    long nw = size / 8, k;
    uint64_t w;

    for (k = 0; k < nw; k++) {
        w = pattern_word((uint64_t)k, seed);
        memcpy(buf + 8 * k, &w, 8);
    }
    w = pattern_word((uint64_t)nw, seed);
    memcpy(buf + 8 * nw, &w, (size_t)(size - 8 * nw));
}

/* Returns the first wrong byte's offset, or -1 when all of them are right. */
static long check(const unsigned char *buf, long size, uint64_t seed)
{
    long nw = size / 8, k, b;
    uint64_t w;

    for (k = 0; k < nw; k++) {
        w = pattern_word((uint64_t)k, seed);
        if (memcmp(buf + 8 * k, &w, 8) != 0) {
            break;
        }
    }
    w = pattern_word((uint64_t)k, seed);
    for (b = 0; b < 8 && 8 * k + b < size; b++) {
        if (buf[8 * k + b] != ((unsigned char *)&w)[b]) {
            return 8 * k + b;
        }
    }
    return k < nw ? 8 * k : -1;
}

/* Runs one size; returns the bandwidth (MB/s, rank 0) and counts errors. */
static double run_size(long size, double scale, int *errors)
{
    int base, warm, iters, total, i;
    long reuse = opt_reuse;
    unsigned char *sbuf = NULL, *rbuf = NULL;
    double elapsed = 0.0;
    int peer = my_rank == 0 ? 1 : 0;
    MPI_Status status;

    if (size > BIG_LIMIT) {
        base = scaled(ITERS_BIG, scale);
        warm = scaled(WARMUP_BIG, scale);
    } else if (size > MID_LIMIT) {
        base = scaled(ITERS_MID, scale);
        warm = scaled(WARMUP_MID, scale);
    } else {
        base = scaled(ITERS_SMALL, scale);
        warm = scaled(WARMUP_SMALL, scale);
    }
    /* Whole reuse cycles only: the warm-up and the timed part each. */
    warm = (int)((warm + reuse - 1) / reuse * reuse);
    iters = (int)((base + reuse - 1) / reuse * reuse);
    total = warm + iters;

    for (i = 0; i < total; i++) {
        double t0;

        if (my_rank <= 1) {
            if (i % reuse == 0) {
                sbuf = fresh_buffer((size_t)size);
                rbuf = fresh_buffer((size_t)size);
            }
            fill(sbuf, size, pattern_seed(size, i, my_rank));
        }
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        if (my_rank == 0) {
            t0 = MPI_Wtime();
            MPI_OK(MPI_Send(sbuf, (int)size, MPI_CHAR, 1, TAG_PING,
                            MPI_COMM_WORLD));
            MPI_OK(MPI_Recv(rbuf, (int)size, MPI_CHAR, 1, TAG_PONG,
                            MPI_COMM_WORLD, &status));
            if (i >= warm) {
                elapsed += MPI_Wtime() - t0;
            }
        } else if (my_rank == 1) {
            MPI_OK(MPI_Recv(rbuf, (int)size, MPI_CHAR, 0, TAG_PING,
                            MPI_COMM_WORLD, &status));
            MPI_OK(MPI_Send(sbuf, (int)size, MPI_CHAR, 0, TAG_PONG,
                            MPI_COMM_WORLD));
        }
        if (my_rank <= 1) {
            long bad = check(rbuf, size, pattern_seed(size, i, peer));

            if (bad >= 0) {
                fprintf(stderr,
                        "%s: rank %d: wrong data from rank %d, size %ld, "
                        "iteration %d, first bad byte %ld\n",
                        bench_name, my_rank, peer, size, i, bad);
                (*errors)++;
            }
            if ((i + 1) % reuse == 0 || i + 1 == total) {
                release_buffer(sbuf, (size_t)size);
                release_buffer(rbuf, (size_t)size);
            }
        }
    }
    if (my_rank != 0 || elapsed <= 0.0) {
        return 0.0;
    }
    return (double)size * iters / (elapsed / 2.0) / 1e6;
}

int main(int argc, char **argv)
{
    long max_size = NOREUSE_MAX_SIZE;
    double scale = 1.0;
    int errors = 0;
    int rc;
    long size, first, last;
    long sys_page = sysconf(_SC_PAGESIZE);

    page_size = sys_page > 0 ? (size_t)sys_page : 4096;
    bench_default_max = "32M";
    bench_extra_opt = extra_opt;
    bench_extra_usage =
        "  -r N        use each buffer N times (default 1: no reuse)\n"
        "  -s SIZE     run only this size (k/K, m/M suffix allowed)\n";
    rc = bench_init(&argc, &argv, "noreuse_bw", 1, &max_size, &scale);
    if (rc != BENCH_CONTINUE) {
        return rc;
    }
    if (opt_size > 0) {
        first = last = opt_size;
    } else {
        first = max_size < MIN_SWEEP_SIZE ? max_size : MIN_SWEEP_SIZE;
        last = max_size;
    }
    if (my_rank <= 1) {
        /* Room for at least one send and one receive buffer per reuse cycle. */
        arena_init(2 * ((size_t)last + page_size));
    }

    if (my_rank == 0) {
        if (opt_reuse == 1) {
            printf("# railmpi ping-pong bandwidth, no buffer reuse\n");
        } else {
            printf("# railmpi ping-pong bandwidth, each buffer used %ld times\n",
                   opt_reuse);
        }
        printf("%-10s %18s\n", "# Size", "Bandwidth (MB/s)");
        fflush(stdout);
    }

    for (size = first; size <= last; size *= 2) {
        double mbps = run_size(size, scale, &errors);

        if (my_rank == 0) {
            printf("%-10ld %18.2f\n", size, mbps);
            fflush(stdout);
        }
        if (size > last / 2) {
            break; /* avoid overflowing size when last is large */
        }
    }

    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (my_rank <= 1) {
        munmap(arena, arena_len);
    }
    MPI_OK(MPI_Finalize());
    return errors ? 3 : 0;
}
