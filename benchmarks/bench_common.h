/*
 * Helpers shared by the railmpi point-to-point benchmarks (latency.c, bw.c,
 * noreuse_bw.c): MPI error checking, option parsing (-m MAXSIZE, -i SCALE,
 * -h, plus a hook for program-specific options), the
 * "at least 2 processes" check, iteration-count scaling and the page-aligned
 * message buffer.  Header-only; every definition is static, so each program
 * gets its own copy.  Messages are prefixed with bench_name ("latency",
 * "bw"), set by bench_init().
 *
 * The including file must define _POSIX_C_SOURCE (>= 200112L, for
 * posix_memalign and sysconf) before any system header.
 */
#ifndef RAILMPI_BENCH_COMMON_H
#define RAILMPI_BENCH_COMMON_H

#include <mpi.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_MAX_SIZE (4L * 1024 * 1024)

/* bench_init() result meaning "go on with the benchmark". */
#define BENCH_CONTINUE (-1)

static const char *bench_name = "bench";
static int my_rank = 0;

/*
 * Optional program-specific options (set before bench_init): bench_extra_opt
 * is called for an option bench_init does not know that has a value after
 * it; it returns 1 when it took the option, 0 for an unknown option and -1
 * for a bad value.  bench_extra_usage is appended to the usage text.
 */
static int (*bench_extra_opt)(const char *opt, const char *val) = NULL;
static const char *bench_extra_usage = NULL;
/* The -m default as the usage text shows it. */
static const char *bench_default_max = "4M";

#define MPI_OK(call)                                                           \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != MPI_SUCCESS) {                                              \
            fprintf(stderr, "%s: rank %d: %s failed (error %d) at %s:%d\n",    \
                    bench_name, my_rank, #call, rc_, __FILE__, __LINE__);      \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [-m MAXSIZE] [-i SCALE]\n"
            "  -m MAXSIZE  largest message in bytes (k/K, m/M suffix allowed; "
            "default %s)\n"
            "  -i SCALE    scale factor for iteration counts (default 1.0)\n",
            prog, bench_default_max);
    if (bench_extra_usage != NULL) {
        fputs(bench_extra_usage, stderr);
    }
}

/*
 * Parses "4194304", "64k", "4M".  Returns -1 on a malformed value, on a
 * number below min_size (before the suffix is applied) or above 1 GiB.
 */
static long parse_size(const char *s, long min_size)
{
    char *end = NULL;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || v < 0) {
        return -1;
    }
    if (*end == 'k' || *end == 'K') {
        v *= 1024;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        v *= 1024 * 1024;
        end++;
    }
    if (*end != '\0' || v > (1L << 30) || v < min_size) { /* min after the unit: "1M" */
        return -1;
    }
    return v;
}

static int scaled(int base, double scale)
{
    double v = floor(base * scale + 0.5);

    return v < 1.0 ? 1 : (int)v;
}

/*
 * MPI_Init, rank/size, option parsing and the process-count check.
 * name prefixes all messages; min_size is the smallest accepted -m value.
 * *max_size and *scale are only written when the option is given, so the
 * caller sets the defaults.  Returns BENCH_CONTINUE to run the benchmark,
 * otherwise MPI has been finalized and main should return that exit code
 * (0 after -h, 1 for bad arguments or fewer than 2 processes).
 */
static int bench_init(int *argc, char ***argv, const char *name,
                      long min_size, long *max_size, double *scale)
{
    int nprocs = 0;
    int i;
    int rc;

    bench_name = name;
    MPI_OK(MPI_Init(argc, argv));
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &my_rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &nprocs));

    for (i = 1; i < *argc; i++) {
        char *arg = (*argv)[i];

        if (strcmp(arg, "-m") == 0 && i + 1 < *argc) {
            arg = (*argv)[++i];
            *max_size = parse_size(arg, min_size);
            if (*max_size < 0) {
                if (my_rank == 0) {
                    fprintf(stderr, "%s: bad size '%s'\n", bench_name, arg);
                }
                MPI_OK(MPI_Finalize());
                return 1;
            }
        } else if (strcmp(arg, "-i") == 0 && i + 1 < *argc) {
            char *end = NULL;

            arg = (*argv)[++i];
            *scale = strtod(arg, &end);
            if (end == arg || *end != '\0' || !(*scale > 0.0)) {
                if (my_rank == 0) {
                    fprintf(stderr, "%s: bad scale '%s'\n", bench_name, arg);
                }
                MPI_OK(MPI_Finalize());
                return 1;
            }
        } else if (bench_extra_opt != NULL && arg[0] == '-' &&
                   i + 1 < *argc &&
                   (rc = bench_extra_opt(arg, (*argv)[i + 1])) != 0) {
            if (rc < 0) {
                if (my_rank == 0) {
                    fprintf(stderr, "%s: bad value '%s' for %s\n", bench_name,
                            (*argv)[i + 1], arg);
                }
                MPI_OK(MPI_Finalize());
                return 1;
            }
            i++;
        } else {
            if (my_rank == 0) {
                usage((*argv)[0]);
            }
            MPI_OK(MPI_Finalize());
            return strcmp(arg, "-h") == 0 ? 0 : 1;
        }
    }

    if (nprocs < 2) {
        if (my_rank == 0) {
            fprintf(stderr, "%s: needs at least 2 processes\n", bench_name);
        }
        MPI_OK(MPI_Finalize());
        return 1;
    }
    return BENCH_CONTINUE;
}

/*
 * Page-aligned buffer of max_size bytes (at least 1, so that size 0 still
 * has a buffer), every page touched before any timing: filled with 'a' on
 * rank 0 and 'b' elsewhere.  Exits with status 2 if it cannot be allocated.
 * Release it with free().
 */
static inline unsigned char *bench_alloc(long max_size)
{
    unsigned char *buf = NULL;
    long page = sysconf(_SC_PAGESIZE);
    size_t len = (size_t)(max_size > 0 ? max_size : 1);

    if (page <= 0) {
        page = 4096;
    }
    if (posix_memalign((void **)&buf, (size_t)page, len) != 0) {
        fprintf(stderr, "%s: rank %d: cannot allocate %ld bytes\n", bench_name,
                my_rank, max_size);
        exit(2);
    }
    memset(buf, my_rank == 0 ? 'a' : 'b', len);
    return buf;
}

#endif /* RAILMPI_BENCH_COMMON_H */
