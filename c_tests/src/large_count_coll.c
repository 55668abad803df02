/* large_count_coll: the large-count (`_c`) forms of the collectives that move blocks --
 * gather, scatter, allgather, alltoall and their v/w forms, reduce_scatter(_block), the
 * five neighbourhood collectives -- each blocking, nonblocking (MPI_Ixxx_c) and persistent
 * (MPI_Xxx_init_c), with every element checked at every rank.
 *
 * - The v/w forms use uneven counts, displacements out of rank order and gaps.
 * - Persistent forms: the count, displacement and type arrays are overwritten right after
 *   the _init_c call (MPI binds the arguments at the _init), then the request is started
 *   twice, the result checked after each round.
 * - Displacements past 2^31 (MPI_Aint): MPI_Gatherv_c into blocks 2 GiB and more into the
 *   root's buffer, MPI_Alltoallw_c with byte displacements past 2 GiB (the buffers are
 *   allocated, only the pages written are touched).
 * - MPI_Op_create_c: a user operation whose length is an MPI_Count, through
 *   MPI_Allreduce_c on a contiguous type and on a strided vector type.
 * - On railmpi: a negative count in a count array (MPI_Alltoallv_c) is MPI_ERR_COUNT at
 *   every rank, and the next collective still matches (MPICH does not check).
 * Neighbourhood calls run on a directed ring (MPI_Dist_graph_create_adjacent: from the
 * left neighbour, to the right one). Any number of ranks >= 2.
 * Checked on MPICH 5.0.2 (passes at 2, 3 and 5 ranks). Debian's MPICH 4.0.2 fails the
 * persistent forms: its MPI_Gather_init gathers garbage even in the int form. */
#include "check.h"

#define B 5 /* elements per uniform block */

enum { BLOCKING, NONBLOCKING, PERSISTENT, MODES };
static const char *mode_name[MODES] = {"blocking", "nonblocking", "persistent"};

static int rank, size;

/* Value i of rank r's data. */
static long v(int r, int i)
{
    return 1000L * (r + 1) + i;
}

/* Runs one collective in `mode`: `blk` is the blocking call; `nb` the nonblocking call and
 * `init` the persistent one, both writing the request `r_`; `clobber` runs right after the
 * _init (it overwrites the argument arrays), `reset` before each round, `verify` after. */
#define RUN(mode, blk, nb, init, clobber, reset, verify)                         \
    do {                                                                         \
        MPI_Request r_;                                                          \
        reset;                                                                   \
        if ((mode) == BLOCKING) {                                                \
            CHECK_MPI(blk);                                                      \
            verify;                                                              \
        } else if ((mode) == NONBLOCKING) {                                      \
            CHECK_MPI(nb);                                                       \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                         \
            verify;                                                              \
        } else {                                                                 \
            CHECK_MPI(init);                                                     \
            clobber;                                                             \
            for (int round_ = 0; round_ < 2; round_++) {                         \
                reset;                                                           \
                CHECK_MPI(MPI_Start(&r_));                                       \
                CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                     \
                verify;                                                          \
            }                                                                    \
            CHECK_MPI(MPI_Request_free(&r_));                                    \
        }                                                                        \
    } while (0)

#define FILL(buf, n, val)                 \
    do {                                  \
        for (int k_ = 0; k_ < (n); k_++) \
            (buf)[k_] = (val);            \
    } while (0)

/* Overwrites an argument array (what a caller may do after the _init). */
#define SCRAMBLE(arr, n) memset((arr), 0x5a, sizeof((arr)[0]) * (size_t)(n))

static void gather_scatter(int mode)
{
    const char *m = mode_name[mode];
    int root = size - 1;
    long send[B], *recv = malloc(sizeof(long) * B * size);
    /* Gather_c: blocks in rank order at the root. */
    RUN(mode, MPI_Gather_c(send, B, MPI_LONG, recv, B, MPI_LONG, root, MPI_COMM_WORLD),
        MPI_Igather_c(send, B, MPI_LONG, recv, B, MPI_LONG, root, MPI_COMM_WORLD, &r_),
        MPI_Gather_init_c(send, B, MPI_LONG, recv, B, MPI_LONG, root, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &r_),
        (void)0, { FILL(send, B, v(rank, k_)); FILL(recv, B * size, -1); },
        if (rank == root) for (int p = 0; p < size; p++) for (int i = 0; i < B; i++)
            CHECK(recv[p * B + i] == v(p, i), "%s Gather_c [%d][%d] = %ld", m, p, i,
                  recv[p * B + i]));
    /* Scatter_c: block p of the root's buffer to rank p. */
    RUN(mode, MPI_Scatter_c(recv, B, MPI_LONG, send, B, MPI_LONG, root, MPI_COMM_WORLD),
        MPI_Iscatter_c(recv, B, MPI_LONG, send, B, MPI_LONG, root, MPI_COMM_WORLD, &r_),
        MPI_Scatter_init_c(recv, B, MPI_LONG, send, B, MPI_LONG, root, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &r_),
        (void)0, { FILL(recv, B * size, v(k_ / B, 100 + k_ % B)); FILL(send, B, -1); },
        for (int i = 0; i < B; i++)
            CHECK(send[i] == v(rank, 100 + i), "%s Scatter_c [%d] = %ld", m, i, send[i]));
    free(recv);

    /* Gatherv_c / Scatterv_c: rank p's block has p + 1 elements, at displacement
     * (size - 1 - p) * (size + 1) (reverse order, gaps between). */
    int span = size * (size + 1);
    long *all = malloc(sizeof(long) * span), mine[64];
    MPI_Count counts[64];
    MPI_Aint displs[64];
#define VSET()                                          \
    for (int p = 0; p < size; p++) {                    \
        counts[p] = p + 1;                              \
        displs[p] = (MPI_Aint)(size - 1 - p) * (size + 1); \
    }
    VSET();
    RUN(mode,
        MPI_Gatherv_c(mine, rank + 1, MPI_LONG, all, counts, displs, MPI_LONG, 0,
                      MPI_COMM_WORLD),
        MPI_Igatherv_c(mine, rank + 1, MPI_LONG, all, counts, displs, MPI_LONG, 0,
                       MPI_COMM_WORLD, &r_),
        MPI_Gatherv_init_c(mine, rank + 1, MPI_LONG, all, counts, displs, MPI_LONG, 0,
                           MPI_COMM_WORLD, MPI_INFO_NULL, &r_),
        (SCRAMBLE(counts, size), SCRAMBLE(displs, size)),
        { FILL(mine, rank + 1, v(rank, 7 * k_)); FILL(all, span, -1); },
        if (rank == 0) for (int p = 0; p < size; p++) {
            long *blk = all + (size - 1 - p) * (size + 1);
            for (int i = 0; i < p + 1; i++)
                CHECK(blk[i] == v(p, 7 * i), "%s Gatherv_c [%d][%d] = %ld", m, p, i, blk[i]);
            for (int i = p + 1; i < size + 1; i++)
                CHECK(blk[i] == -1, "%s Gatherv_c wrote a gap [%d][%d]", m, p, i);
        });
    VSET();
    RUN(mode,
        MPI_Scatterv_c(all, counts, displs, MPI_LONG, mine, rank + 1, MPI_LONG, 0,
                       MPI_COMM_WORLD),
        MPI_Iscatterv_c(all, counts, displs, MPI_LONG, mine, rank + 1, MPI_LONG, 0,
                        MPI_COMM_WORLD, &r_),
        MPI_Scatterv_init_c(all, counts, displs, MPI_LONG, mine, rank + 1, MPI_LONG, 0,
                            MPI_COMM_WORLD, MPI_INFO_NULL, &r_),
        (SCRAMBLE(counts, size), SCRAMBLE(displs, size)),
        { FILL(all, span, 5000 + k_); FILL(mine, 64, -1); },
        for (int i = 0; i < 64; i++) {
            long want = i <= rank ? 5000 + (size - 1 - rank) * (size + 1) + i : -1;
            CHECK(mine[i] == want, "%s Scatterv_c [%d] = %ld, not %ld", m, i, mine[i], want);
        });

    /* Allgather_c, Allgatherv_c (same layout as Gatherv, at every rank). */
    long *ag = malloc(sizeof(long) * B * size);
    RUN(mode, MPI_Allgather_c(mine, B, MPI_LONG, ag, B, MPI_LONG, MPI_COMM_WORLD),
        MPI_Iallgather_c(mine, B, MPI_LONG, ag, B, MPI_LONG, MPI_COMM_WORLD, &r_),
        MPI_Allgather_init_c(mine, B, MPI_LONG, ag, B, MPI_LONG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r_),
        (void)0, { FILL(mine, B, v(rank, 3 + k_)); FILL(ag, B * size, -1); },
        for (int p = 0; p < size; p++) for (int i = 0; i < B; i++)
            CHECK(ag[p * B + i] == v(p, 3 + i), "%s Allgather_c [%d][%d]", m, p, i));
    VSET();
    RUN(mode,
        MPI_Allgatherv_c(mine, rank + 1, MPI_LONG, all, counts, displs, MPI_LONG,
                         MPI_COMM_WORLD),
        MPI_Iallgatherv_c(mine, rank + 1, MPI_LONG, all, counts, displs, MPI_LONG,
                          MPI_COMM_WORLD, &r_),
        MPI_Allgatherv_init_c(mine, rank + 1, MPI_LONG, all, counts, displs, MPI_LONG,
                              MPI_COMM_WORLD, MPI_INFO_NULL, &r_),
        (SCRAMBLE(counts, size), SCRAMBLE(displs, size)),
        { FILL(mine, rank + 1, v(rank, 9 * k_)); FILL(all, span, -1); },
        for (int p = 0; p < size; p++) {
            long *blk = all + (size - 1 - p) * (size + 1);
            for (int i = 0; i < size + 1; i++) {
                long want = i <= p ? v(p, 9 * i) : -1;
                CHECK(blk[i] == want, "%s Allgatherv_c [%d][%d] = %ld", m, p, i, blk[i]);
            }
        });
    free(ag);
    free(all);
}

static void alltoalls(int mode)
{
    const char *m = mode_name[mode];
    long *s = malloc(sizeof(long) * 4 * B * size), *r = malloc(sizeof(long) * 4 * B * size);
    int n = 4 * B * size;
    /* Alltoall_c: block q of rank p's buffer goes to q, arriving as block p. */
    RUN(mode, MPI_Alltoall_c(s, B, MPI_LONG, r, B, MPI_LONG, MPI_COMM_WORLD),
        MPI_Ialltoall_c(s, B, MPI_LONG, r, B, MPI_LONG, MPI_COMM_WORLD, &r_),
        MPI_Alltoall_init_c(s, B, MPI_LONG, r, B, MPI_LONG, MPI_COMM_WORLD, MPI_INFO_NULL,
                            &r_),
        (void)0, { FILL(s, n, v(rank, k_)); FILL(r, n, -1); },
        for (int p = 0; p < size; p++) for (int i = 0; i < B; i++)
            CHECK(r[p * B + i] == v(p, rank * B + i), "%s Alltoall_c [%d][%d]", m, p, i));

    /* Alltoallv_c: p sends q (p + q) % 3 + 1 elements, blocks at stride 4 in reverse order. */
    MPI_Count sc[64], rc[64];
    MPI_Aint sd[64], rd[64];
    MPI_Datatype st[64], rt[64];
#define A2AV()                                        \
    for (int q = 0; q < size; q++) {                  \
        sc[q] = (rank + q) % 3 + 1;                   \
        rc[q] = (q + rank) % 3 + 1;                   \
        sd[q] = (MPI_Aint)4 * q;                      \
        rd[q] = (MPI_Aint)4 * (size - 1 - q);         \
    }
#define A2AV_CHECK(what, unit)                                                      \
    for (int p = 0; p < size; p++) {                                                \
        long *blk = r + 4 * (size - 1 - p);                                         \
        for (int i = 0; i < 4; i++) {                                               \
            long want = i < (p + rank) % 3 + 1 ? v(p, 4 * rank + i) : -1;           \
            CHECK(blk[i] == want, "%s %s [%d][%d] = %ld", m, what, p, i, blk[i]);   \
        }                                                                           \
    }
    A2AV();
    RUN(mode, MPI_Alltoallv_c(s, sc, sd, MPI_LONG, r, rc, rd, MPI_LONG, MPI_COMM_WORLD),
        MPI_Ialltoallv_c(s, sc, sd, MPI_LONG, r, rc, rd, MPI_LONG, MPI_COMM_WORLD, &r_),
        MPI_Alltoallv_init_c(s, sc, sd, MPI_LONG, r, rc, rd, MPI_LONG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r_),
        (SCRAMBLE(sc, size), SCRAMBLE(rc, size), SCRAMBLE(sd, size), SCRAMBLE(rd, size)),
        { FILL(s, n, v(rank, k_)); FILL(r, n, -1); }, A2AV_CHECK("Alltoallv_c", 1));

    /* Alltoallw_c: the same in bytes, with the types per peer. */
#define A2AW()                                        \
    A2AV();                                           \
    for (int q = 0; q < size; q++) {                  \
        sd[q] *= (MPI_Aint)sizeof(long);              \
        rd[q] *= (MPI_Aint)sizeof(long);              \
        st[q] = rt[q] = MPI_LONG;                     \
    }
    A2AW();
    RUN(mode, MPI_Alltoallw_c(s, sc, sd, st, r, rc, rd, rt, MPI_COMM_WORLD),
        MPI_Ialltoallw_c(s, sc, sd, st, r, rc, rd, rt, MPI_COMM_WORLD, &r_),
        MPI_Alltoallw_init_c(s, sc, sd, st, r, rc, rd, rt, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &r_),
        (SCRAMBLE(sc, size), SCRAMBLE(rc, size), SCRAMBLE(sd, size), SCRAMBLE(rd, size),
         SCRAMBLE(st, size), SCRAMBLE(rt, size)),
        { FILL(s, n, v(rank, k_)); FILL(r, n, -1); }, A2AV_CHECK("Alltoallw_c", 1));

    /* Reduce_scatter_c: rank p gets p + 1 sums; Reduce_scatter_block_c: B each. */
    int total = size * (size + 1) / 2;
    for (int q = 0; q < size; q++)
        rc[q] = q + 1;
    int before = rank * (rank + 1) / 2;
    RUN(mode, MPI_Reduce_scatter_c(s, r, rc, MPI_LONG, MPI_SUM, MPI_COMM_WORLD),
        MPI_Ireduce_scatter_c(s, r, rc, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r_),
        MPI_Reduce_scatter_init_c(s, r, rc, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                                  &r_),
        SCRAMBLE(rc, size), { FILL(s, total, v(rank, k_)); FILL(r, n, -1); },
        for (int i = 0; i < rank + 2 && i < n; i++) {
            long want = -1;
            if (i <= rank) {
                want = 0;
                for (int p = 0; p < size; p++)
                    want += v(p, before + i);
            }
            CHECK(r[i] == want, "%s Reduce_scatter_c [%d] = %ld", m, i, r[i]);
        });
    RUN(mode, MPI_Reduce_scatter_block_c(s, r, B, MPI_LONG, MPI_MAX, MPI_COMM_WORLD),
        MPI_Ireduce_scatter_block_c(s, r, B, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &r_),
        MPI_Reduce_scatter_block_init_c(s, r, B, MPI_LONG, MPI_MAX, MPI_COMM_WORLD,
                                        MPI_INFO_NULL, &r_),
        (void)0, { FILL(s, B * size, v(rank, k_)); FILL(r, n, -1); },
        for (int i = 0; i < B; i++)
            CHECK(r[i] == v(size - 1, rank * B + i), "%s Reduce_scatter_block_c [%d]", m, i));
    free(s);
    free(r);
}

static void neighbours(MPI_Comm ring, int mode)
{
    const char *m = mode_name[mode];
    int left = (rank + size - 1) % size;
    long s[16], r[16];
    MPI_Count sc[1], rc[1];
    MPI_Aint sd[1], rd[1];
    MPI_Datatype st[1], rt[1];
    RUN(mode, MPI_Neighbor_allgather_c(s, B, MPI_LONG, r, B, MPI_LONG, ring),
        MPI_Ineighbor_allgather_c(s, B, MPI_LONG, r, B, MPI_LONG, ring, &r_),
        MPI_Neighbor_allgather_init_c(s, B, MPI_LONG, r, B, MPI_LONG, ring, MPI_INFO_NULL,
                                      &r_),
        (void)0, { FILL(s, 16, v(rank, k_)); FILL(r, 16, -1); },
        for (int i = 0; i < 16; i++)
            CHECK(r[i] == (i < B ? v(left, i) : -1), "%s Neighbor_allgather_c [%d]", m, i));
#define NV()                          \
    do {                              \
        rc[0] = 3;                    \
        rd[0] = 2;                    \
    } while (0)
    NV();
    RUN(mode, MPI_Neighbor_allgatherv_c(s, 3, MPI_LONG, r, rc, rd, MPI_LONG, ring),
        MPI_Ineighbor_allgatherv_c(s, 3, MPI_LONG, r, rc, rd, MPI_LONG, ring, &r_),
        MPI_Neighbor_allgatherv_init_c(s, 3, MPI_LONG, r, rc, rd, MPI_LONG, ring,
                                       MPI_INFO_NULL, &r_),
        (SCRAMBLE(rc, 1), SCRAMBLE(rd, 1)), { FILL(s, 16, v(rank, k_)); FILL(r, 16, -1); },
        for (int i = 0; i < 16; i++)
            CHECK(r[i] == (i >= 2 && i < 5 ? v(left, i - 2) : -1),
                  "%s Neighbor_allgatherv_c [%d] = %ld", m, i, r[i]));
    RUN(mode, MPI_Neighbor_alltoall_c(s, B, MPI_LONG, r, B, MPI_LONG, ring),
        MPI_Ineighbor_alltoall_c(s, B, MPI_LONG, r, B, MPI_LONG, ring, &r_),
        MPI_Neighbor_alltoall_init_c(s, B, MPI_LONG, r, B, MPI_LONG, ring, MPI_INFO_NULL,
                                     &r_),
        (void)0, { FILL(s, 16, v(rank, 50 + k_)); FILL(r, 16, -1); },
        for (int i = 0; i < 16; i++)
            CHECK(r[i] == (i < B ? v(left, 50 + i) : -1), "%s Neighbor_alltoall_c [%d]", m, i));
#define NAV()                         \
    do {                              \
        sc[0] = 4;                    \
        sd[0] = 3;                    \
        rc[0] = 4;                    \
        rd[0] = 7;                    \
    } while (0)
    NAV();
    RUN(mode, MPI_Neighbor_alltoallv_c(s, sc, sd, MPI_LONG, r, rc, rd, MPI_LONG, ring),
        MPI_Ineighbor_alltoallv_c(s, sc, sd, MPI_LONG, r, rc, rd, MPI_LONG, ring, &r_),
        MPI_Neighbor_alltoallv_init_c(s, sc, sd, MPI_LONG, r, rc, rd, MPI_LONG, ring,
                                      MPI_INFO_NULL, &r_),
        (SCRAMBLE(sc, 1), SCRAMBLE(sd, 1), SCRAMBLE(rc, 1), SCRAMBLE(rd, 1)),
        { FILL(s, 16, v(rank, k_)); FILL(r, 16, -1); },
        for (int i = 0; i < 16; i++)
            CHECK(r[i] == (i >= 7 && i < 11 ? v(left, i - 4) : -1),
                  "%s Neighbor_alltoallv_c [%d] = %ld", m, i, r[i]));
#define NAW()                                   \
    do {                                        \
        NAV();                                  \
        sd[0] *= (MPI_Aint)sizeof(long);        \
        rd[0] *= (MPI_Aint)sizeof(long);        \
        st[0] = rt[0] = MPI_LONG;               \
    } while (0)
    NAW();
    RUN(mode, MPI_Neighbor_alltoallw_c(s, sc, sd, st, r, rc, rd, rt, ring),
        MPI_Ineighbor_alltoallw_c(s, sc, sd, st, r, rc, rd, rt, ring, &r_),
        MPI_Neighbor_alltoallw_init_c(s, sc, sd, st, r, rc, rd, rt, ring, MPI_INFO_NULL, &r_),
        (SCRAMBLE(sc, 1), SCRAMBLE(sd, 1), SCRAMBLE(rc, 1), SCRAMBLE(rd, 1),
         SCRAMBLE(st, 1), SCRAMBLE(rt, 1)),
        { FILL(s, 16, v(rank, k_)); FILL(r, 16, -1); },
        for (int i = 0; i < 16; i++)
            CHECK(r[i] == (i >= 7 && i < 11 ? v(left, i - 4) : -1),
                  "%s Neighbor_alltoallw_c [%d] = %ld", m, i, r[i]));
}

/* Blocks at displacements past 2^31 (MPI_Aint): the buffers are allocated in full, only
 * the pages written are touched. */
static void far_displacements(void)
{
    const MPI_Aint far = (MPI_Aint)1 << 31, len = 100, stride = 8192;
    size_t bytes = (size_t)far + (size_t)stride * (size_t)size + 4096;
    unsigned char *big = malloc(bytes);
    CHECK(big != NULL, "malloc of %zu bytes", bytes);
    unsigned char mine[100], back[100];
    MPI_Count counts[64];
    MPI_Aint displs[64];
    MPI_Datatype types[64];
    for (int i = 0; i < len; i++)
        mine[i] = (unsigned char)(rank * 31 + i);
    for (int p = 0; p < size; p++) {
        counts[p] = len;
        displs[p] = far + (MPI_Aint)(size - 1 - p) * stride + 7;
        types[p] = MPI_BYTE;
    }
    CHECK_MPI(MPI_Gatherv_c(mine, len, MPI_BYTE, big, counts, displs, MPI_BYTE, 0,
                            MPI_COMM_WORLD));
    if (rank == 0)
        for (int p = 0; p < size; p++)
            for (int i = 0; i < len; i++)
                CHECK(big[displs[p] + i] == (unsigned char)(p * 31 + i),
                      "Gatherv_c past 2^31: block %d byte %d", p, i);
    /* Alltoallw_c: every rank sends `len` bytes from its far block for q, and receives
     * them into `back` (byte displacement 0) from rank (rank + 1) % size only. */
    for (int q = 0; q < size; q++)
        for (int i = 0; i < len; i++)
            big[displs[q] + i] = (unsigned char)(rank * 7 + q * 3 + i);
    MPI_Count sc[64], rc[64];
    MPI_Aint rd[64];
    int from = (rank + 1) % size;
    for (int q = 0; q < size; q++) {
        sc[q] = q == (rank + size - 1) % size ? len : 0;
        rc[q] = q == from ? len : 0;
        rd[q] = 0;
    }
    memset(back, 0, sizeof back);
    CHECK_MPI(MPI_Alltoallw_c(big, sc, displs, types, back, rc, rd, types, MPI_COMM_WORLD));
    for (int i = 0; i < len; i++)
        CHECK(back[i] == (unsigned char)(from * 7 + rank * 3 + i),
              "Alltoallw_c past 2^31: byte %d = %d", i, back[i]);
    free(big);
}

/* inoutvec = invec op inoutvec with x op y = x: associative, not commutative (the result
 * of a reduction in rank order is rank 0's data). */
static MPI_Count user_calls, user_elems;
static void twice_plus(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    user_calls++;
    user_elems += *len;
    for (MPI_Count i = 0; i < *len; i++)
        ((long *)inout)[i] = ((long *)in)[i];
}

/* The same over a vector type of 3 longs with stride 2 (the function indexes its layout). */
static void twice_plus_vec(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    for (MPI_Count e = 0; e < *len; e++)
        for (int j = 0; j < 3; j++) {
            long *a = (long *)in + e * 5 + 2 * j, *b = (long *)inout + e * 5 + 2 * j;
            *b = *a;
        }
}

static void user_op(void)
{
    MPI_Op op;
    enum { K = 40 };
    long a[5 * K], b[5 * K];
    CHECK_MPI(MPI_Op_create_c(twice_plus, 0, &op));
    for (int i = 0; i < K; i++)
        a[i] = rank + i;
    CHECK_MPI(MPI_Allreduce_c(a, b, K, MPI_LONG, op, MPI_COMM_WORLD));
    for (int i = 0; i < K; i++)
        CHECK(b[i] == i, "Op_create_c Allreduce_c [%d] = %ld, not %d", i, b[i], i);
    long calls = 0, mine = user_calls > 0 && user_elems > 0;
    CHECK_MPI(MPI_Allreduce(&mine, &calls, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK(calls > 0, "the user function was called nowhere");
    CHECK_MPI(MPI_Op_free(&op));
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_LONG, &vec));
    MPI_Datatype vr;
    CHECK_MPI(MPI_Type_create_resized(vec, 0, 5 * sizeof(long), &vr));
    CHECK_MPI(MPI_Type_commit(&vr));
    CHECK_MPI(MPI_Op_create_c(twice_plus_vec, 0, &op));
    for (int i = 0; i < 5 * K; i++) {
        a[i] = rank * 3 + i;
        b[i] = -7;
    }
    CHECK_MPI(MPI_Allreduce_c(a, b, K, vr, op, MPI_COMM_WORLD));
    for (int i = 0; i < 5 * K; i++) {
        long want = i % 5 % 2 == 0 ? i : -7;
        CHECK(b[i] == want, "Op_create_c on a vector type [%d] = %ld, not %ld", i, b[i], want);
    }
    CHECK_MPI(MPI_Op_free(&op));
    MPI_Type_free(&vr);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2 && size <= 64, "needs 2 to 64 ranks");
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Comm ring;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1,
                                             &right, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &ring));
    for (int mode = 0; mode < MODES; mode++) {
        gather_scatter(mode);
        alltoalls(mode);
        neighbours(ring, mode);
    }
    far_displacements();
    user_op();
#ifdef RAILMPI
    /* A negative count anywhere in a count array: MPI_ERR_COUNT at every rank, nothing
     * started (MPICH 4 and 5 do not check: railmpi only). */
    {
        long s[64], r[64];
        MPI_Count c[64];
        MPI_Aint d[64];
        for (int q = 0; q < size; q++) {
            c[q] = q == size - 1 ? -2 : 1;
            d[q] = q;
        }
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Alltoallv_c(s, c, d, MPI_LONG, r, c, d, MPI_LONG, MPI_COMM_WORLD);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_COUNT, "Alltoallv_c with a count of -2: class %d", cls);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        long one = rank, sum = -1;
        CHECK_MPI(MPI_Allreduce_c(&one, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == (long)size * (size - 1) / 2, "Allreduce_c after a refusal: %ld", sum);
    }
#endif
    MPI_Comm_free(&ring);
    ct_ok("large_count_coll");
    MPI_Finalize();
    return 0;
}
