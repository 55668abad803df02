/* large_count_rma: the large-count (`_c`) forms of one-sided communication.
 *
 * - MPI_Win_create_c (MPI_Aint displacement unit 8), MPI_Win_allocate_c and
 *   MPI_Win_allocate_shared_c with MPI_Win_shared_query_c (unit and size as MPI_Aint);
 *   MPI_WIN_DISP_UNIT reads back the unit.
 * - On each window, each rank puts into its right neighbour with MPI_Put_c, gets from it
 *   with MPI_Get_c, accumulates with MPI_Accumulate_c and MPI_Get_accumulate_c, and the
 *   request-based MPI_Rput_c, _Rget_c, _Raccumulate_c, _Rget_accumulate_c; fence and
 *   passive-target (lock_all + flush) epochs; every element checked.
 * - A target displacement past 2^31 bytes: a window of 2 GiB + 64 KiB over malloc'd
 *   memory (only the pages written are touched), MPI_Put_c and MPI_Get_c at 2^31 + 100.
 * - On railmpi: a negative MPI_Count is MPI_ERR_COUNT through the window's handler.
 * Any number of ranks >= 2. Checked on MPICH 5.0.2. */
#include "check.h"

#define N 64

static int rank, size, right, left;

static long v(int r, int i)
{
    return 100000L * (r + 1) + i;
}

/* The window `win` over `base` (N longs at unit `unit` bytes... of this rank): one round
 * of every communication call, in a fence epoch and a lock_all epoch. `base` holds 4 * N
 * longs: [0, N) put target, [N, 2N) get source, [2N, 3N) accumulate target, [3N, 4N)
 * request-based put target. */
static void exercise(MPI_Win win, long *base, MPI_Aint unit, const char *what)
{
    long src[N], got[N], old[N];
    MPI_Aint per = (MPI_Aint)sizeof(long) / unit; /* displacement units per long */
    for (int passive = 0; passive < 2; passive++) {
        for (int i = 0; i < N; i++) {
            base[i] = -1;
            base[N + i] = v(rank, i);
            base[2 * N + i] = i;
            base[3 * N + i] = -1;
            src[i] = v(rank, 50 + i);
            got[i] = old[i] = -1;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (passive)
            CHECK_MPI(MPI_Win_lock_all(0, win));
        else
            CHECK_MPI(MPI_Win_fence(0, win));
        CHECK_MPI(MPI_Put_c(src, N, MPI_LONG, right, 0, N, MPI_LONG, win));
        CHECK_MPI(MPI_Get_c(got, N, MPI_LONG, right, N * per, N, MPI_LONG, win));
        CHECK_MPI(MPI_Accumulate_c(src, N, MPI_LONG, right, 2 * N * per, N, MPI_LONG, MPI_SUM,
                                   win));
        if (passive)
            CHECK_MPI(MPI_Win_flush(right, win));
        else
            CHECK_MPI(MPI_Win_fence(0, win));
        for (int i = 0; i < N; i++)
            CHECK(got[i] == v(right, i), "%s %s Get_c [%d] = %ld", what,
                  passive ? "passive" : "fence", i, got[i]);
        /* Request-based: Rput_c, Rget_c, Raccumulate_c, Rget_accumulate_c (passive target
         * only, as MPI allows them; the fence epoch makes the same calls without requests). */
        MPI_Request r[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                            MPI_REQUEST_NULL};
        long got2[N];
        if (passive) {
            CHECK_MPI(MPI_Rput_c(src, N, MPI_LONG, right, 3 * N * per, N, MPI_LONG, win, &r[0]));
            CHECK_MPI(MPI_Rget_c(got2, N, MPI_LONG, right, N * per, N, MPI_LONG, win, &r[1]));
            CHECK_MPI(MPI_Raccumulate_c(src, N, MPI_LONG, right, 2 * N * per, N, MPI_LONG,
                                        MPI_SUM, win, &r[2]));
        } else {
            CHECK_MPI(MPI_Put_c(src, N, MPI_LONG, right, 3 * N * per, N, MPI_LONG, win));
            CHECK_MPI(MPI_Get_c(got2, N, MPI_LONG, right, N * per, N, MPI_LONG, win));
            CHECK_MPI(MPI_Accumulate_c(src, N, MPI_LONG, right, 2 * N * per, N, MPI_LONG, MPI_SUM,
                                       win));
        }
        CHECK_MPI(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
        if (passive)
            CHECK_MPI(MPI_Win_flush(right, win));
        else
            CHECK_MPI(MPI_Win_fence(0, win));
        if (passive)
            CHECK_MPI(MPI_Rget_accumulate_c(src, N, MPI_LONG, old, N, MPI_LONG, right,
                                            2 * N * per, N, MPI_LONG, MPI_SUM, win, &r[3]));
        else
            CHECK_MPI(MPI_Get_accumulate_c(src, N, MPI_LONG, old, N, MPI_LONG, right, 2 * N * per,
                                           N, MPI_LONG, MPI_SUM, win));
        CHECK_MPI(MPI_Wait(&r[3], MPI_STATUS_IGNORE));
        long old2[N];
        if (passive)
            CHECK_MPI(MPI_Win_flush(right, win));
        else
            CHECK_MPI(MPI_Win_fence(0, win));
        CHECK_MPI(MPI_Get_accumulate_c(NULL, 0, MPI_LONG, old2, N, MPI_LONG, right, 2 * N * per,
                                       N, MPI_LONG, MPI_NO_OP, win));
        if (passive)
            CHECK_MPI(MPI_Win_unlock_all(win));
        else
            CHECK_MPI(MPI_Win_fence(0, win));
        for (int i = 0; i < N; i++) {
            CHECK(got2[i] == v(right, i), "%s Rget_c [%d] = %ld", what, i, got2[i]);
            /* The accumulate target held i + 2 * src after Accumulate_c and Raccumulate_c. */
            CHECK(old[i] == i + 2 * v(rank, 50 + i), "%s Rget_accumulate_c [%d] = %ld", what,
                  i, old[i]);
            CHECK(old2[i] == i + 3 * v(rank, 50 + i), "%s Get_accumulate_c [%d] = %ld", what, i,
                  old2[i]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        /* What the left neighbour did to this rank's part. */
        for (int i = 0; i < N; i++) {
            CHECK(base[i] == v(left, 50 + i), "%s Put_c [%d] = %ld", what, i, base[i]);
            CHECK(base[3 * N + i] == v(left, 50 + i), "%s Rput_c [%d] = %ld", what, i,
                  base[3 * N + i]);
            CHECK(base[2 * N + i] == i + 3 * v(left, 50 + i), "%s Accumulate_c [%d] = %ld", what,
                  i, base[2 * N + i]);
        }
    }
}

static void unit_attr(MPI_Win win, MPI_Aint want, const char *what)
{
    int *unit = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
    CHECK(flag && *unit == want, "%s MPI_WIN_DISP_UNIT %d, not %ld", what, flag ? *unit : -1,
          (long)want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 ranks");
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    MPI_Win win;

    long *mem = malloc(sizeof(long) * 4 * N);
    CHECK_MPI(MPI_Win_create_c(mem, (MPI_Aint)sizeof(long) * 4 * N, 8, MPI_INFO_NULL,
                               MPI_COMM_WORLD, &win));
    unit_attr(win, 8, "Win_create_c");
    exercise(win, mem, 8, "Win_create_c");
    CHECK_MPI(MPI_Win_free(&win));
    free(mem);

    long *base = NULL;
    CHECK_MPI(MPI_Win_allocate_c((MPI_Aint)sizeof(long) * 4 * N, 4, MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &base, &win));
    unit_attr(win, 4, "Win_allocate_c");
    exercise(win, base, 4, "Win_allocate_c");
    CHECK_MPI(MPI_Win_free(&win));

    /* Shared: every rank's part found through MPI_Win_shared_query_c. */
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    CHECK_MPI(MPI_Win_allocate_shared_c((MPI_Aint)sizeof(long) * (nrank + 1), 2, MPI_INFO_NULL,
                                        node, &base, &win));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i <= nrank; i++)
        base[i] = v(nrank, i);
    CHECK_MPI(MPI_Win_sync(win));
    MPI_Barrier(node);
    CHECK_MPI(MPI_Win_sync(win));
    for (int p = 0; p < nsize; p++) {
        MPI_Aint sz = -1, du = -1;
        long *theirs = NULL;
        CHECK_MPI(MPI_Win_shared_query_c(win, p, &sz, &du, &theirs));
        CHECK(sz == (MPI_Aint)sizeof(long) * (p + 1) && du == 2,
              "Win_shared_query_c of %d: size %ld unit %ld", p, (long)sz, (long)du);
        for (int i = 0; i <= p; i++)
            CHECK(theirs[i] == v(p, i), "shared part of %d [%d] = %ld", p, i, theirs[i]);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&node);

    /* A target displacement past 2^31 (disp_unit 1): only the pages written are touched. */
    const MPI_Aint far = ((MPI_Aint)1 << 31) + 100;
    size_t bytes = (size_t)far + 65536;
    unsigned char *big = malloc(bytes);
    CHECK(big != NULL, "malloc of %zu bytes", bytes);
    CHECK_MPI(MPI_Win_create_c(big, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    unsigned char out[1000], in[1000];
    for (int i = 0; i < 1000; i++)
        out[i] = (unsigned char)(rank * 13 + i);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put_c(out, 1000, MPI_BYTE, right, far, 1000, MPI_BYTE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < 1000; i++)
        CHECK(big[far + i] == (unsigned char)(left * 13 + i), "Put_c past 2^31: byte %d", i);
    CHECK_MPI(MPI_Get_c(in, 1000, MPI_BYTE, left, far, 1000, MPI_BYTE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    int ll = (left + size - 1) % size;
    for (int i = 0; i < 1000; i++)
        CHECK(in[i] == (unsigned char)(ll * 13 + i), "Get_c past 2^31: byte %d", i);
#ifdef RAILMPI
    /* MPICH 4 and 5 do not check: railmpi only. */
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    int rc = MPI_Put_c(out, -5, MPI_BYTE, right, 0, -5, MPI_BYTE, win), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "Put_c count -5: class %d", cls);
    CHECK_MPI(MPI_Win_unlock(right, win));
#endif
    CHECK_MPI(MPI_Win_free(&win));
    free(big);
    ct_ok("large_count_rma");
    MPI_Finalize();
    return 0;
}
