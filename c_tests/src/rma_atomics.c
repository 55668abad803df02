/* rma_atomics: atomicity and mutual exclusion of RMA, all ranks against rank 0, each part on
 * an MPI_Win_allocate window and on an MPI_Win_create window:
 *  (a) shared counter: K MPI_Fetch_and_op(SUM, 1, MPI_LONG) + flush per rank under
 *      MPI_Win_lock_all; the final value is n*K and the fetched values, gathered at rank 0,
 *      are a permutation of 0..n*K-1;
 *  (b) a mutex built from MPI_Compare_and_swap (lock_all + flush) protecting a non-atomic
 *      MPI_Get / +1 / MPI_Put of another int: final value exact;
 *  (c) MPI_Win_lock(EXCLUSIVE, 0) never overlaps: inside, a "holders" counter (Fetch_and_op)
 *      must go 0 -> 1 -> 0 around a short sleep;
 *  (d) concurrent MPI_Accumulate(SUM) of doubles and of ints from every rank into the same
 *      elements of rank 0 under fence: exact sums.
 * usage: rma_atomics [K [PARTS [FLAVOR]]]   K default 1000 ((b) uses K/10 rounds, (c) K/20);
 * PARTS a subset of "abcd" (default all); FLAVOR allocate or create (default both). */
#include "check.h"

/* Byte offsets in the window (disp unit 1). */
#define OFF_COUNTER 0 /* long */
#define OFF_HOLDERS 8 /* long */
#define OFF_MUTEX 16  /* int */
#define OFF_DATA 20   /* int */
#define OFF_D 64      /* ND doubles */
#define OFF_I 192     /* NI ints */
#define ND 16
#define NI 16
#define WBYTES 256

static int rank, n, K;

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static MPI_Win make_win(int flavor, unsigned char **mem)
{
    MPI_Win win;
    if (flavor == 0) {
        CHECK_MPI(MPI_Win_allocate(WBYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, mem, &win));
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        memset(*mem, 0, WBYTES);
        CHECK_MPI(MPI_Win_unlock(rank, win));
    } else {
        *mem = malloc(WBYTES);
        CHECK(*mem, "malloc");
        memset(*mem, 0, WBYTES);
        CHECK_MPI(MPI_Win_create(*mem, WBYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    return win;
}

static void free_win(int flavor, MPI_Win *win, unsigned char *mem)
{
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_free(win));
    if (flavor == 1)
        free(mem);
}

/* Rank 0 reads its own window after everybody is done. */
static void read_own(MPI_Win win, const unsigned char *mem, int off, void *out, size_t len)
{
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Win_sync(win));
    memcpy(out, mem + off, len);
    CHECK_MPI(MPI_Win_unlock(0, win));
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static void part_a(int flavor, const char *fn)
{
    unsigned char *mem;
    MPI_Win win = make_win(flavor, &mem);
    long one = 1, *got = malloc(K * sizeof(long)), *all = NULL;
    CHECK(got, "malloc");
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < K; k++) {
        got[k] = -1;
        CHECK_MPI(MPI_Fetch_and_op(&one, &got[k], MPI_LONG, 0, OFF_COUNTER, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK(got[k] >= 0 && got[k] < (long)n * K, "%s (a): Fetch_and_op returned %ld", fn,
              got[k]);
        CHECK(k == 0 || got[k] > got[k - 1],
              "%s (a): my fetched values are not increasing: %ld after %ld", fn, got[k],
              got[k - 1]);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    if (rank == 0) {
        all = malloc((size_t)n * K * sizeof(long));
        CHECK(all, "malloc");
    }
    CHECK_MPI(MPI_Gather(got, K, MPI_LONG, all, K, MPI_LONG, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        long final;
        read_own(win, mem, OFF_COUNTER, &final, sizeof final);
        CHECK(final == (long)n * K, "%s (a): counter is %ld, expected %ld", fn, final,
              (long)n * K);
        qsort(all, (size_t)n * K, sizeof(long), cmp_long);
        for (long i = 0; i < (long)n * K; i++)
            CHECK(all[i] == i, "%s (a): fetched values are not a permutation of 0..%ld: sorted "
                  "position %ld holds %ld (duplicate or missing value)", fn, (long)n * K - 1, i,
                  all[i]);
        free(all);
    }
    free(got);
    free_win(flavor, &win, mem);
}

static void part_b(int flavor, const char *fn)
{
    unsigned char *mem;
    MPI_Win win = make_win(flavor, &mem);
    int rounds = K / 10 > 0 ? K / 10 : 1, zero = 0, me = rank + 1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int r = 0; r < rounds; r++) {
        int old, spins = 0;
        for (;;) {
            old = -1;
            CHECK_MPI(MPI_Compare_and_swap(&me, &zero, &old, MPI_INT, 0, OFF_MUTEX, win));
            CHECK_MPI(MPI_Win_flush(0, win));
            CHECK(old >= 0 && old <= n, "%s (b): mutex holds %d", fn, old);
            CHECK(old != me, "%s (b): I already hold the mutex", fn);
            if (old == 0)
                break;
            if (++spins % 64 == 0)
                nap_us(50);
        }
        int v = -1;
        CHECK_MPI(MPI_Get(&v, 1, MPI_INT, 0, OFF_DATA, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        v++;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, OFF_DATA, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        old = -1;
        CHECK_MPI(MPI_Compare_and_swap(&zero, &me, &old, MPI_INT, 0, OFF_MUTEX, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK(old == me, "%s (b): releasing the mutex found %d in it, expected my %d", fn, old,
              me);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        int v[2];
        read_own(win, mem, OFF_MUTEX, v, sizeof v);
        CHECK(v[0] == 0, "%s (b): mutex left at %d", fn, v[0]);
        CHECK(v[1] == n * rounds, "%s (b): protected counter is %d, expected %d (lost updates)",
              fn, v[1], n * rounds);
    }
    free_win(flavor, &win, mem);
}

static void part_c(int flavor, const char *fn)
{
    unsigned char *mem;
    MPI_Win win = make_win(flavor, &mem);
    int rounds = K / 20 > 0 ? K / 20 : 1;
    long one = 1, minus = -1, got;
    for (int r = 0; r < rounds; r++) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        got = -99;
        CHECK_MPI(MPI_Fetch_and_op(&one, &got, MPI_LONG, 0, OFF_HOLDERS, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK(got == 0, "%s (c): entering an exclusive lock found %ld other holder(s)", fn, got);
        nap_us(100);
        got = -99;
        CHECK_MPI(MPI_Fetch_and_op(&minus, &got, MPI_LONG, 0, OFF_HOLDERS, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK(got == 1, "%s (c): leaving an exclusive lock found %ld holder(s), expected 1", fn,
              got);
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        long h;
        read_own(win, mem, OFF_HOLDERS, &h, sizeof h);
        CHECK(h == 0, "%s (c): holders counter ends at %ld", fn, h);
    }
    free_win(flavor, &win, mem);
}

static void part_d(int flavor, const char *fn)
{
    unsigned char *mem;
    MPI_Win win = make_win(flavor, &mem);
    double d[ND];
    int iv[NI];
    const int reps = 5;
    for (int i = 0; i < ND; i++)
        d[i] = (rank + 1) * 0.25 + i;
    for (int i = 0; i < NI; i++)
        iv[i] = (rank + 1) * 1000 + i - 7;
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int r = 0; r < reps; r++) {
        CHECK_MPI(MPI_Accumulate(d, ND, MPI_DOUBLE, 0, OFF_D, ND, MPI_DOUBLE, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(iv, NI, MPI_INT, 0, OFF_I, NI, MPI_INT, MPI_SUM, win));
        /* element-wise too, in reverse order, so that messages interleave */
        for (int i = ND - 1; i >= 0; i -= 5)
            CHECK_MPI(MPI_Accumulate(&d[i], 1, MPI_DOUBLE, 0, OFF_D + 8 * i, 1, MPI_DOUBLE,
                                     MPI_SUM, win));
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0) {
        const double *wd = (const double *)(mem + OFF_D);
        const int *wi = (const int *)(mem + OFF_I);
        for (int i = 0; i < ND; i++) {
            int extra = (ND - 1 - i) % 5 == 0;
            double want = 0;
            for (int r = 0; r < n; r++)
                want += ((r + 1) * 0.25 + i) * reps * (1 + extra);
            CHECK(wd[i] == want, "%s (d): double %d is %.17g, expected %.17g", fn, i, wd[i], want);
        }
        for (int i = 0; i < NI; i++) {
            long want = 0;
            for (int r = 0; r < n; r++)
                want += (long)((r + 1) * 1000 + i - 7) * reps;
            CHECK(wi[i] == want, "%s (d): int %d is %d, expected %ld", fn, i, wi[i], want);
        }
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    free_win(flavor, &win, mem);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    K = argc > 1 ? atoi(argv[1]) : 1000;
    CHECK(K > 0, "bad K");
    static const char *fname[] = {"allocate", "create"};
    const char *parts = argc > 2 ? argv[2] : "abcd";
    for (int flavor = 0; flavor < 2; flavor++) {
        if (argc > 3 && strcmp(argv[3], fname[flavor]) != 0)
            continue;
        if (strchr(parts, 'a'))
            part_a(flavor, fname[flavor]);
        if (strchr(parts, 'b'))
            part_b(flavor, fname[flavor]);
        if (strchr(parts, 'c'))
            part_c(flavor, fname[flavor]);
        if (strchr(parts, 'd'))
            part_d(flavor, fname[flavor]);
    }
    char name[64];
    snprintf(name, sizeof name, "rma_atomics n=%d K=%d", n, K);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
