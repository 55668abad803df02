/* coll_neighbor: the neighbourhood collectives (MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w) and their MPI_Ineighbor_ forms) on a periodic ring, on a
 * non-periodic 2-D grid (MPI_PROC_NULL neighbours: their receive blocks stay untouched) and
 * on a distributed graph with two out-edges per rank (one on fewer than 3 ranks, so that no
 * pair of ranks has two edges: MPICH and MPI-3.1 do not agree on their order). Every
 * element is checked. */
#include "check.h"

static int rank, size;

#define C 5
#define UNTOUCHED (-99)

static int val(int from, int to_slot, int i) { return from * 10000 + to_slot * 100 + i; }

/* Check block k of `r` (count elements) against the sender's data, or untouched. */
static void check_block(const int *r, int k, int cnt, int src, int src_slot, const char *what)
{
    for (int i = 0; i < cnt; i++) {
        int want = src == MPI_PROC_NULL ? UNTOUCHED : val(src, src_slot, i);
        CHECK(r[k * C + i] == want, "%s: block %d element %d is %d, expected %d (from %d)", what,
              k, i, r[k * C + i], want, src);
    }
}

/* The slot of `me` in `peer`'s destination list that pairs with the k-th occurrence of
 * `peer` in my source list (messages between a pair match in list order). */
static int pair_slot(const int *peer_dests, int peer_outdeg, int me, int occurrence)
{
    for (int j = 0; j < peer_outdeg; j++)
        if (peer_dests[j] == me && occurrence-- == 0)
            return j;
    return -1;
}

/* Run all neighbourhood collectives on `comm`, whose neighbour lists are given; `dests_of`
 * gives any rank's destination list (to know which of its blocks it sent us). */
static void run(MPI_Comm comm, int indeg, const int *srcs, int outdeg, const int *dsts,
                void (*dests_of)(int, int *, int *), const char *topo)
{
    int *s = malloc((outdeg + 1) * C * sizeof(int)), *r = malloc((indeg + 1) * C * sizeof(int));
    int *sc = malloc((outdeg + 1) * sizeof(int)), *sd = malloc((outdeg + 1) * sizeof(int));
    int *rc = malloc((indeg + 1) * sizeof(int)), *rd = malloc((indeg + 1) * sizeof(int));
    MPI_Aint *sda = malloc((outdeg + 1) * sizeof(MPI_Aint)), *rda = malloc((indeg + 1) * sizeof(MPI_Aint));
    MPI_Datatype *st = malloc((outdeg + 1) * sizeof(MPI_Datatype)), *rt = malloc((indeg + 1) * sizeof(MPI_Datatype));
    int pd[16], pod;
    char what[96];
    /* Which slot of the source's list each of my receive blocks comes from. */
    int *slot = malloc((indeg + 1) * sizeof(int));
    for (int k = 0; k < indeg; k++) {
        if (srcs[k] == MPI_PROC_NULL) {
            slot[k] = -1;
            continue;
        }
        int occ = 0;
        for (int j = 0; j < k; j++)
            occ += srcs[j] == srcs[k];
        dests_of(srcs[k], pd, &pod);
        slot[k] = pair_slot(pd, pod, rank, occ);
        CHECK(slot[k] >= 0, "%s: inconsistent topology", topo);
    }

    for (int nb = 0; nb < 2; nb++) {
        MPI_Request req;
        /* allgather: the same block to everyone. */
        for (int i = 0; i < C; i++)
            s[i] = val(rank, 0, i);
        for (int i = 0; i < indeg * C; i++)
            r[i] = UNTOUCHED;
        if (nb) {
            CHECK_MPI(MPI_Ineighbor_allgather(s, C, MPI_INT, r, C, MPI_INT, comm, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Neighbor_allgather(s, C, MPI_INT, r, C, MPI_INT, comm));
        }
        snprintf(what, sizeof what, "%s %sNeighbor_allgather", topo, nb ? "I" : "");
        for (int k = 0; k < indeg; k++)
            check_block(r, k, C, srcs[k], 0, what);

        /* allgatherv: receive block k holds k % 3 + 1 ... but every sender sends the same
         * count, so counts are the senders' (rank % 3 + 1); reverse displacements. */
        int mycount = rank % 3 + 1;
        for (int k = 0; k < indeg; k++) {
            rc[k] = srcs[k] == MPI_PROC_NULL ? 0 : srcs[k] % 3 + 1;
            rd[k] = (indeg - 1 - k) * C;
        }
        for (int i = 0; i < indeg * C; i++)
            r[i] = UNTOUCHED;
        if (nb) {
            CHECK_MPI(MPI_Ineighbor_allgatherv(s, mycount, MPI_INT, r, rc, rd, MPI_INT, comm, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Neighbor_allgatherv(s, mycount, MPI_INT, r, rc, rd, MPI_INT, comm));
        }
        snprintf(what, sizeof what, "%s %sNeighbor_allgatherv", topo, nb ? "I" : "");
        for (int k = 0; k < indeg; k++)
            check_block(r, indeg - 1 - k, rc[k], srcs[k], 0, what);

        /* alltoall: block j to the j-th destination. */
        for (int j = 0; j < outdeg; j++)
            for (int i = 0; i < C; i++)
                s[j * C + i] = val(rank, j, i);
        for (int i = 0; i < indeg * C; i++)
            r[i] = UNTOUCHED;
        if (nb) {
            CHECK_MPI(MPI_Ineighbor_alltoall(s, C, MPI_INT, r, C, MPI_INT, comm, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Neighbor_alltoall(s, C, MPI_INT, r, C, MPI_INT, comm));
        }
        snprintf(what, sizeof what, "%s %sNeighbor_alltoall", topo, nb ? "I" : "");
        for (int k = 0; k < indeg; k++)
            check_block(r, k, C, srcs[k], slot[k], what);

        /* alltoallv: to destination slot j, (j + rank) % C + 1 elements... the receiver knows
         * the count from the sender's rank and slot. */
        for (int j = 0; j < outdeg; j++) {
            sc[j] = (j + rank) % C + 1;
            sd[j] = j * C;
        }
        for (int k = 0; k < indeg; k++) {
            rc[k] = srcs[k] == MPI_PROC_NULL ? 0 : (slot[k] + srcs[k]) % C + 1;
            rd[k] = k * C;
        }
        for (int i = 0; i < indeg * C; i++)
            r[i] = UNTOUCHED;
        if (nb) {
            CHECK_MPI(MPI_Ineighbor_alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, comm, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Neighbor_alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, comm));
        }
        snprintf(what, sizeof what, "%s %sNeighbor_alltoallv", topo, nb ? "I" : "");
        for (int k = 0; k < indeg; k++)
            check_block(r, k, rc[k], srcs[k], slot[k], what);

        /* alltoallw: same counts, byte displacements, MPI_INT on both sides. */
        for (int j = 0; j < outdeg; j++) {
            sda[j] = (MPI_Aint)j * C * sizeof(int);
            st[j] = MPI_INT;
        }
        for (int k = 0; k < indeg; k++) {
            rda[k] = (MPI_Aint)k * C * sizeof(int);
            rt[k] = MPI_INT;
        }
        for (int i = 0; i < indeg * C; i++)
            r[i] = UNTOUCHED;
        if (nb) {
            CHECK_MPI(MPI_Ineighbor_alltoallw(s, sc, sda, st, r, rc, rda, rt, comm, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Neighbor_alltoallw(s, sc, sda, st, r, rc, rda, rt, comm));
        }
        snprintf(what, sizeof what, "%s %sNeighbor_alltoallw", topo, nb ? "I" : "");
        for (int k = 0; k < indeg; k++)
            check_block(r, k, rc[k], srcs[k], slot[k], what);

        /* alltoallw again from MPI_BOTTOM with absolute addresses as displacements. */
        for (int j = 0; j < outdeg; j++)
            MPI_Get_address(s + j * C, &sda[j]);
        for (int k = 0; k < indeg; k++)
            MPI_Get_address(r + k * C, &rda[k]);
        for (int i = 0; i < indeg * C; i++)
            r[i] = UNTOUCHED;
        if (nb) {
            CHECK_MPI(MPI_Ineighbor_alltoallw(MPI_BOTTOM, sc, sda, st, MPI_BOTTOM, rc, rda, rt,
                                              comm, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Neighbor_alltoallw(MPI_BOTTOM, sc, sda, st, MPI_BOTTOM, rc, rda, rt,
                                             comm));
        }
        snprintf(what, sizeof what, "%s %sNeighbor_alltoallw(MPI_BOTTOM)", topo, nb ? "I" : "");
        for (int k = 0; k < indeg; k++)
            check_block(r, k, rc[k], srcs[k], slot[k], what);
    }
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sda);
    free(rda);
    free(st);
    free(rt);
    free(slot);
}

/* ---- topologies: each gives any rank's destination list */

static int ring_periodic;
static void ring_dests(int r, int *d, int *n)
{
    *n = 2;
    d[0] = r > 0 ? r - 1 : (ring_periodic ? size - 1 : MPI_PROC_NULL);
    d[1] = r < size - 1 ? r + 1 : (ring_periodic ? 0 : MPI_PROC_NULL);
}

static int dims[2];
static void grid_dests(int r, int *d, int *n)
{
    int x = r / dims[1], y = r % dims[1];
    *n = 4;
    d[0] = x > 0 ? r - dims[1] : MPI_PROC_NULL;
    d[1] = x < dims[0] - 1 ? r + dims[1] : MPI_PROC_NULL;
    d[2] = y > 0 ? r - 1 : MPI_PROC_NULL;
    d[3] = y < dims[1] - 1 ? r + 1 : MPI_PROC_NULL;
}

static void graph_dests(int r, int *d, int *n)
{
    *n = size >= 3 ? 2 : 1;
    d[0] = (r + 1) % size;
    d[1] = (r + 3) % size;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int srcs[8], dsts[8], n;
    MPI_Comm comm;

    /* Ring: periodic when there are at least 3 ranks (with fewer, left and right are the
     * same rank and MPI-3.1 leaves the matching ambiguous). */
    ring_periodic = size >= 3;
    int d1 = size, p1 = ring_periodic;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &d1, &p1, 0, &comm));
    ring_dests(rank, dsts, &n);
    memcpy(srcs, dsts, sizeof srcs); /* a Cartesian grid: sources are the destinations */
    run(comm, 2, srcs, 2, dsts, ring_dests, ring_periodic ? "periodic ring" : "open ring");
    CHECK_MPI(MPI_Comm_free(&comm));

    /* 2-D open grid. */
    int periods[2] = {0, 0};
    dims[0] = dims[1] = 0;
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &comm));
    grid_dests(rank, dsts, &n);
    memcpy(srcs, dsts, sizeof srcs);
    run(comm, 4, srcs, 4, dsts, grid_dests, "2-D grid");
    CHECK_MPI(MPI_Comm_free(&comm));

    /* Distributed graph: r -> r+1, r -> r+3 (mod size). */
    graph_dests(rank, dsts, &n);
    srcs[0] = (rank - 1 + size) % size;
    srcs[1] = ((rank - 3) % size + size) % size;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, srcs, MPI_UNWEIGHTED, n, dsts,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm));
    run(comm, n, srcs, n, dsts, graph_dests, "graph");
    CHECK_MPI(MPI_Comm_free(&comm));

    ct_ok("coll_neighbor");
    MPI_Finalize();
    return 0;
}
