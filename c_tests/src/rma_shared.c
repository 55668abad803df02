/* rma_shared: MPI_Win_allocate_shared on the communicator from
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). Segment sizes differ per rank (one rank in four
 * allocates 0 bytes). Every rank writes its segment with plain stores inside
 * MPI_Win_lock_all(MPI_MODE_NOCHECK), then MPI_Win_sync + MPI_Barrier + MPI_Win_sync, and
 * reads every other rank's segment through the pointer from MPI_Win_shared_query (whose size
 * and disp unit are checked too). Checks the default contiguity (MPI-3.1 11.2.3: segment i
 * starts right after the last byte of segment i-1), MPI_Win_shared_query(MPI_PROC_NULL), an
 * MPI_Put into the neighbour's segment seen through a load, and the window attributes:
 * MPI_WIN_CREATE_FLAVOR == MPI_WIN_FLAVOR_SHARED, MPI_WIN_MODEL == MPI_WIN_UNIFIED,
 * MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT. */
#include "check.h"

static int seg_ints(int r) { return r % 4 == 3 ? 0 : (r % 3 + 1) * 37; }
static int val(int r, int i) { return r * 100000 + i; }

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm shm;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
    CHECK_MPI(MPI_Comm_rank(shm, &rank));
    CHECK_MPI(MPI_Comm_size(shm, &n));

    int mine = seg_ints(rank), *base = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared((MPI_Aint)mine * (MPI_Aint)sizeof(int), sizeof(int),
                                      MPI_INFO_NULL, shm, &base, &win));

    /* attributes */
    void *pbase;
    MPI_Aint *psize;
    int *pdu, *pflavor, *pmodel, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &pbase, &flag));
    CHECK(flag && (mine == 0 || pbase == base), "MPI_WIN_BASE %p, expected %p", pbase,
          (void *)base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &psize, &flag));
    CHECK(flag && *psize == (MPI_Aint)mine * (MPI_Aint)sizeof(int), "MPI_WIN_SIZE %ld, expected %ld",
          flag ? (long)*psize : -1L, (long)(mine * sizeof(int)));
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &pdu, &flag));
    CHECK(flag && *pdu == (int)sizeof(int), "MPI_WIN_DISP_UNIT %d", flag ? *pdu : -1);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &pflavor, &flag));
    CHECK(flag && *pflavor == MPI_WIN_FLAVOR_SHARED, "MPI_WIN_CREATE_FLAVOR %d, expected %d",
          flag ? *pflavor : -1, MPI_WIN_FLAVOR_SHARED);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &pmodel, &flag));
    CHECK(flag && *pmodel == MPI_WIN_UNIFIED, "MPI_WIN_MODEL %d, expected MPI_WIN_UNIFIED %d",
          flag ? *pmodel : -1, MPI_WIN_UNIFIED);

    /* shared_query for every rank */
    int **ptr = malloc(n * sizeof(int *));
    CHECK(ptr, "malloc");
    for (int r = 0; r < n; r++) {
        MPI_Aint sz = -1;
        int du = -1;
        ptr[r] = NULL;
        CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &ptr[r]));
        CHECK(sz == (MPI_Aint)seg_ints(r) * (MPI_Aint)sizeof(int),
              "shared_query(%d): size %ld, expected %ld", r, (long)sz,
              (long)(seg_ints(r) * sizeof(int)));
        CHECK(du == (int)sizeof(int), "shared_query(%d): disp unit %d", r, du);
        CHECK(seg_ints(r) == 0 || ptr[r] != NULL, "shared_query(%d): NULL pointer", r);
        /* a part of no bytes has no address (MPICH: NULL) */
        CHECK(seg_ints(r) > 0 || ptr[r] == NULL, "shared_query(%d) of 0 bytes: %p", r,
              (void *)ptr[r]);
        if (r == rank && mine > 0)
            CHECK(ptr[r] == base, "shared_query(self) %p differs from the allocated base %p",
                  (void *)ptr[r], (void *)base);
    }
    /* default: contiguous across ranks */
    char *expect = (char *)ptr[0];
    for (int r = 0; r < n; r++) {
        if (seg_ints(r) > 0)
            CHECK((char *)ptr[r] == expect,
                  "segments not contiguous: rank %d's segment at %p, expected %p (rank 0 base "
                  "+ sizes of ranks 0..%d)",
                  r, (void *)ptr[r], (void *)expect, r - 1);
        expect += seg_ints(r) * sizeof(int);
    }
    {
        MPI_Aint sz = -1;
        int du = -1, *p = NULL;
        CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &p));
        CHECK(p == ptr[0] && sz == (MPI_Aint)seg_ints(0) * (MPI_Aint)sizeof(int),
              "shared_query(MPI_PROC_NULL): %p size %ld, expected rank 0's %p", (void *)p,
              (long)sz, (void *)ptr[0]);
    }

    CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (int i = 0; i < mine; i++)
        base[i] = val(rank, i);
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(shm));
    CHECK_MPI(MPI_Win_sync(win));
    for (int r = 0; r < n; r++)
        for (int i = 0; i < seg_ints(r); i++)
            CHECK(ptr[r][i] == val(r, i), "rank %d's segment [%d] read %d through the shared "
                  "pointer, expected %d", r, i, ptr[r][i], val(r, i));
    CHECK_MPI(MPI_Barrier(shm));

    /* MPI_Put into the next rank with a segment, seen by that rank with plain loads. */
    int next = (rank + 1) % n;
    while (seg_ints(next) == 0)
        next = (next + 1) % n;
    int v = -rank - 1;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, next, seg_ints(next) - 1 - (rank % 2), 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(next, win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(shm));
    CHECK_MPI(MPI_Win_sync(win));
    int got = ptr[next][seg_ints(next) - 1 - (rank % 2)];
    /* At most two origins target a rank (r-1, and r-2 when r-1 has no segment); they have
     * different parities, so each origin's int is its own. */
    CHECK(got == v, "my MPI_Put to rank %d is not visible through the shared pointer: %d, "
          "expected %d", next, got, v);
    if (mine > 0) {
        /* whoever targets me last wrote one of my last two ints: each must hold either its
         * original value or a negative rank id */
        for (int k = 1; k <= 2 && k <= mine; k++) {
            int x = base[mine - k];
            CHECK(x == val(rank, mine - k) || (x < 0 && x >= -n),
                  "my int %d is %d after the Puts", mine - k, x);
        }
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    free(ptr);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Comm_free(&shm));
    char name[64];
    snprintf(name, sizeof name, "rma_shared n=%d", n);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
