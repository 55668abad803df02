/* rma_dynamic: MPI_Win_create_dynamic with attach and detach during the run. Addresses are
 * exchanged with MPI_Get_address + MPI_Allgather(MPI_AINT); ring pattern.
 *  1. attach region A, Put into the first half of next's A and Get its second half (fence);
 *  2. detach A (and free it), attach a differently sized region B, exchange, same again;
 *  3. attach three regions at once (B stays attached too), Put / Get / Accumulate into each
 *     of next's regions under lock_all; then detach all.
 * Every byte of each region and of each result buffer is checked. */
#include "check.h"

static int rank, n, next, prev;

static int val(int r, int reg, int i) { return r * 1000000 + reg * 10000 + i; }
static int pv(int r, int reg, int i) { return -(r * 1000000 + reg * 10000 + i) - 1; }

/* Region `reg` of `ints` ints: first half is the Put target, second half the Get source. */
static void init_region(int *p, int ints, int reg)
{
    for (int i = 0; i < ints; i++)
        p[i] = val(rank, reg, i);
}

static void exchange(int *p, MPI_Aint *all)
{
    MPI_Aint a;
    CHECK_MPI(MPI_Get_address(p, &a));
    CHECK_MPI(MPI_Allgather(&a, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD));
}

static void put_get(MPI_Win win, int *reg, int ints, int regid, MPI_Aint *addrs, int accum)
{
    int h = ints / 2;
    int *src = malloc(h * sizeof(int)), *dst = malloc((ints - h) * sizeof(int));
    CHECK(src && dst, "malloc");
    for (int i = 0; i < h; i++)
        src[i] = pv(rank, regid, i);
    for (int i = 0; i < ints - h; i++)
        dst[i] = -5;
    MPI_Aint base = addrs[next];
    MPI_Aint get_at = base + (MPI_Aint)h * (MPI_Aint)sizeof(int);
    CHECK_MPI(MPI_Put(src, h, MPI_INT, next, base, h, MPI_INT, win));
    CHECK_MPI(MPI_Get(dst, ints - h, MPI_INT, next, get_at, ints - h, MPI_INT, win));
    if (accum) /* onto the Get half's last element; the Get above reads it first: use a flush */
        CHECK_MPI(MPI_Win_flush(next, win));
    if (accum)
        CHECK_MPI(MPI_Accumulate(src, 1, MPI_INT, next,
                                 base + (MPI_Aint)(ints - 1) * (MPI_Aint)sizeof(int),
                                 1, MPI_INT, MPI_SUM, win));
    if (accum)
        CHECK_MPI(MPI_Win_flush(next, win));
    else
        CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < ints - h; i++)
        CHECK(dst[i] == val(next, regid, h + i), "region %d (%d ints): Get [%d] = %d, expected %d",
              regid, ints, i, dst[i], val(next, regid, h + i));
    free(src);
    free(dst);
    (void)reg;
}

static void check_region(const int *p, int ints, int regid, int accum)
{
    int h = ints / 2;
    for (int i = 0; i < ints; i++) {
        int want = i < h ? pv(prev, regid, i) : val(rank, regid, i);
        if (accum && i == ints - 1)
            want += pv(prev, regid, 0);
        CHECK(p[i] == want, "region %d (%d ints): int %d is %d, expected %d", regid, ints, i, p[i],
              want);
    }
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    next = (rank + 1) % n;
    prev = (rank - 1 + n) % n;
    MPI_Aint *addrs = malloc(4 * n * sizeof(MPI_Aint));
    CHECK(addrs, "malloc");
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));

    /* 1. region A */
    int na = 100, *A = malloc(na * sizeof(int));
    CHECK(A, "malloc");
    init_region(A, na, 1);
    CHECK_MPI(MPI_Win_attach(win, A, na * sizeof(int)));
    exchange(A, addrs);
    CHECK_MPI(MPI_Win_fence(0, win));
    put_get(win, A, na, 1, addrs, 0);
    check_region(A, na, 1, 0);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. detach A, attach B */
    CHECK_MPI(MPI_Win_detach(win, A));
    free(A);
    int nb = 3000, *B = malloc(nb * sizeof(int));
    CHECK(B, "malloc");
    init_region(B, nb, 2);
    CHECK_MPI(MPI_Win_attach(win, B, nb * sizeof(int)));
    exchange(B, addrs);
    CHECK_MPI(MPI_Win_fence(0, win));
    put_get(win, B, nb, 2, addrs, 0);
    check_region(B, nb, 2, 0);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 3. three more regions attached at once, B stays attached (and untouched) */
    static const int sz[3] = {8, 257, 40000};
    int *R[3];
    MPI_Aint *ra[3];
    for (int k = 0; k < 3; k++) {
        R[k] = malloc(sz[k] * sizeof(int));
        CHECK(R[k], "malloc");
        init_region(R[k], sz[k], 10 + k);
        CHECK_MPI(MPI_Win_attach(win, R[k], sz[k] * sizeof(int)));
    }
    for (int k = 0; k < 3; k++) {
        ra[k] = addrs + (k + 1) * n;
        exchange(R[k], ra[k]);
    }
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 2; k >= 0; k--)
        put_get(win, R[k], sz[k], 10 + k, ra[k], 1);
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    CHECK_MPI(MPI_Win_sync(win));
    for (int k = 0; k < 3; k++)
        check_region(R[k], sz[k], 10 + k, 1);
    check_region(B, nb, 2, 0);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    for (int k = 0; k < 3; k++) {
        CHECK_MPI(MPI_Win_detach(win, R[k]));
        free(R[k]);
    }
    CHECK_MPI(MPI_Win_detach(win, B));
    free(B);
    CHECK_MPI(MPI_Win_free(&win));
    free(addrs);
    char name[64];
    snprintf(name, sizeof name, "rma_dynamic n=%d", n);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
