/* persistent_coll_arrays: the count, displacement and type arrays of persistent collectives
 * belong to the call, not to the request: callers may free them as soon as the _init
 * returns (mpi4py does: its arrays are temporaries). Every array here is overwritten with
 * garbage and freed right after the _init; the requests are then started for ROUNDS rounds
 * with new data each round, and every element is checked (gaps between blocks included).
 * Gatherv, Scatterv, Allgatherv, Alltoallv, Alltoallw, Reduce_scatter (each also with
 * MPI_IN_PLACE, the insignificant send arrays passed as NULL), and Neighbor_allgatherv /
 * _alltoallv / _alltoallw on a non-periodic line; counts of 0 included. The derived type
 * of an Allgather_init and of an Alltoallw_init's type arrays is freed right after the
 * _init too (MPI lets it go then; the requests keep it). */
#include "check.h"

#define ROUNDS 5
#define GAP -1

static int rank, size, round_;

/* Element k of what rank s sends to rank d. */
static int val(int s, int d, int k)
{
    return 100000 * round_ + 1000 * s + 10 * d + k;
}

static int cnt(int i)
{
    return i % 3;
}

/* Copies of `n` ints of `src` in a fresh array the caller passes to an _init, then spoils
 * and frees (`spoil`). */
static int *arr(const int *src, int n)
{
    int *a = malloc(sizeof(int) * (n ? n : 1));
    CHECK(a, "malloc");
    memcpy(a, src, sizeof(int) * n);
    return a;
}

static void spoil(void *a, size_t bytes)
{
    memset(a, 0x7f, bytes);
    free(a);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm comm = MPI_COMM_WORLD;
    const int P = size, me = rank, root = P - 1;

    /* Block layout of the v-calls: cnt(i) elements of rank i at displs[i] (one gap after
     * each block). */
    int *counts = malloc(sizeof(int) * P), *displs = malloc(sizeof(int) * P), total = 0;
    for (int i = 0; i < P; i++) {
        counts[i] = cnt(i);
        displs[i] = total;
        total += cnt(i) + 1;
    }
    /* Alltoall layout: (i + j) % 3 elements between i and j, from me's point of view. */
    int *a_counts = malloc(sizeof(int) * P), *a_displs = malloc(sizeof(int) * P);
    int *a_bytes = malloc(sizeof(int) * P), a_total = 0;
    MPI_Datatype *a_types = malloc(sizeof(MPI_Datatype) * P);
    for (int j = 0; j < P; j++) {
        a_counts[j] = (me + j) % 3;
        a_displs[j] = a_total;
        a_bytes[j] = a_total * (int)sizeof(int);
        a_types[j] = MPI_INT;
        a_total += a_counts[j] + 1;
    }

    int *gv_s = malloc(sizeof(int) * 3), *gv_r = malloc(sizeof(int) * (total + 1));
    int *gvi_r = malloc(sizeof(int) * (total + 1));
    int *sv_s = malloc(sizeof(int) * (total + 1)), sv_r[3];
    int *agv_r = malloc(sizeof(int) * (total + 1)), *agvi_r = malloc(sizeof(int) * (total + 1));
    int *a2_s = malloc(sizeof(int) * (a_total + 1)), *a2_r = malloc(sizeof(int) * (a_total + 1));
    int *a2i_r = malloc(sizeof(int) * (a_total + 1));
    int *aw_r = malloc(sizeof(int) * (a_total + 1)), *awi_r = malloc(sizeof(int) * (a_total + 1));
    int ntot = 0;
    for (int i = 0; i < P; i++)
        ntot += cnt(i);
    int *rs_s = malloc(sizeof(int) * (ntot + 1)), rs_r[3], *rsi = malloc(sizeof(int) * (ntot + 1));

    enum { GV, GVI, SV, AGV, AGVI, A2V, A2VI, A2W, A2WI, RS, RSI, NAGV, NA2V, NA2W, AGP, AWP, NREQ };
    MPI_Request req[NREQ];
    MPI_Status sts[NREQ];
    int *c, *d, *c2, *d2;
    MPI_Datatype *t, *t2;

    c = arr(counts, P), d = arr(displs, P);
    CHECK_MPI(MPI_Gatherv_init(gv_s, cnt(me), MPI_INT, gv_r, c, d, MPI_INT, root, comm,
                               MPI_INFO_NULL, &req[GV]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P);
    c = arr(counts, P), d = arr(displs, P);
    CHECK_MPI(MPI_Gatherv_init(me == root ? MPI_IN_PLACE : gv_s, cnt(me), MPI_INT, gvi_r, c, d,
                               MPI_INT, root, comm, MPI_INFO_NULL, &req[GVI]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P);
    c = arr(counts, P), d = arr(displs, P);
    CHECK_MPI(MPI_Scatterv_init(sv_s, c, d, MPI_INT, sv_r, cnt(me), MPI_INT, 0, comm,
                                MPI_INFO_NULL, &req[SV]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P);
    c = arr(counts, P), d = arr(displs, P);
    CHECK_MPI(MPI_Allgatherv_init(gv_s, cnt(me), MPI_INT, agv_r, c, d, MPI_INT, comm,
                                  MPI_INFO_NULL, &req[AGV]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P);
    c = arr(counts, P), d = arr(displs, P);
    CHECK_MPI(MPI_Allgatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, agvi_r, c, d, MPI_INT,
                                  comm, MPI_INFO_NULL, &req[AGVI]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P);
    c = arr(a_counts, P), d = arr(a_displs, P), c2 = arr(a_counts, P), d2 = arr(a_displs, P);
    CHECK_MPI(MPI_Alltoallv_init(a2_s, c, d, MPI_INT, a2_r, c2, d2, MPI_INT, comm,
                                 MPI_INFO_NULL, &req[A2V]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P);
    spoil(c2, sizeof(int) * P), spoil(d2, sizeof(int) * P);
    c = arr(a_counts, P), d = arr(a_displs, P);
    CHECK_MPI(MPI_Alltoallv_init(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, a2i_r, c, d,
                                 MPI_INT, comm, MPI_INFO_NULL, &req[A2VI]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P);
    c = arr(a_counts, P), d = arr(a_bytes, P), c2 = arr(a_counts, P), d2 = arr(a_bytes, P);
    t = malloc(sizeof(MPI_Datatype) * P), t2 = malloc(sizeof(MPI_Datatype) * P);
    memcpy(t, a_types, sizeof(MPI_Datatype) * P);
    memcpy(t2, a_types, sizeof(MPI_Datatype) * P);
    CHECK_MPI(MPI_Alltoallw_init(a2_s, c, d, t, aw_r, c2, d2, t2, comm, MPI_INFO_NULL,
                                 &req[A2W]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P), spoil(t, sizeof(MPI_Datatype) * P);
    spoil(c2, sizeof(int) * P), spoil(d2, sizeof(int) * P), spoil(t2, sizeof(MPI_Datatype) * P);
    c = arr(a_counts, P), d = arr(a_bytes, P), t = malloc(sizeof(MPI_Datatype) * P);
    memcpy(t, a_types, sizeof(MPI_Datatype) * P);
    CHECK_MPI(MPI_Alltoallw_init(MPI_IN_PLACE, NULL, NULL, NULL, awi_r, c, d, t, comm,
                                 MPI_INFO_NULL, &req[A2WI]));
    spoil(c, sizeof(int) * P), spoil(d, sizeof(int) * P), spoil(t, sizeof(MPI_Datatype) * P);
    c = arr(counts, P);
    CHECK_MPI(MPI_Reduce_scatter_init(rs_s, rs_r, c, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL,
                                      &req[RS]));
    spoil(c, sizeof(int) * P);
    c = arr(counts, P);
    CHECK_MPI(MPI_Reduce_scatter_init(MPI_IN_PLACE, rsi, c, MPI_INT, MPI_SUM, comm,
                                      MPI_INFO_NULL, &req[RSI]));
    spoil(c, sizeof(int) * P);

    /* A line 0 - 1 - ... - P-1 (not periodic: the ends have MPI_PROC_NULL neighbours).
     * Neighbour 0 is the left one, 1 the right one. */
    MPI_Comm line;
    int dims[1] = {P}, periods[1] = {0}, left, right;
    CHECK_MPI(MPI_Cart_create(comm, 1, dims, periods, 0, &line));
    CHECK_MPI(MPI_Cart_shift(line, 0, 1, &left, &right));
    int nb[2] = {left, right};
    /* allgatherv: 2 elements from each neighbour, at 0 and 3 (a gap between). */
    int ng_s[2], ng_r[6], ng_counts[2] = {2, 2}, ng_displs[2] = {0, 3};
    c = arr(ng_counts, 2), d = arr(ng_displs, 2);
    CHECK_MPI(MPI_Neighbor_allgatherv_init(ng_s, 2, MPI_INT, ng_r, c, d, MPI_INT, line,
                                           MPI_INFO_NULL, &req[NAGV]));
    spoil(c, sizeof(int) * 2), spoil(d, sizeof(int) * 2);
    /* alltoallv: 1 element to the left neighbour, 2 to the right; so 2 come from the left
     * (its block for its right) and 1 from the right. */
    int na_s[3], na_r[5], na_sc[2] = {1, 2}, na_sd[2] = {0, 1}, na_rc[2] = {2, 1},
                          na_rd[2] = {0, 3};
    c = arr(na_sc, 2), d = arr(na_sd, 2), c2 = arr(na_rc, 2), d2 = arr(na_rd, 2);
    CHECK_MPI(MPI_Neighbor_alltoallv_init(na_s, c, d, MPI_INT, na_r, c2, d2, MPI_INT, line,
                                          MPI_INFO_NULL, &req[NA2V]));
    spoil(c, sizeof(int) * 2), spoil(d, sizeof(int) * 2);
    spoil(c2, sizeof(int) * 2), spoil(d2, sizeof(int) * 2);
    int nw_r[5];
    MPI_Aint nw_sd[2] = {0, sizeof(int)}, nw_rd[2] = {0, 3 * sizeof(int)};
    MPI_Aint *ad = malloc(sizeof(nw_sd)), *ad2 = malloc(sizeof(nw_rd));
    memcpy(ad, nw_sd, sizeof(nw_sd));
    memcpy(ad2, nw_rd, sizeof(nw_rd));
    MPI_Datatype two_ints[2] = {MPI_INT, MPI_INT};
    c = arr(na_sc, 2), c2 = arr(na_rc, 2), t = malloc(sizeof(two_ints)), t2 = malloc(sizeof(two_ints));
    memcpy(t, two_ints, sizeof(two_ints));
    memcpy(t2, two_ints, sizeof(two_ints));
    CHECK_MPI(MPI_Neighbor_alltoallw_init(na_s, c, ad, t, nw_r, c2, ad2, t2, line,
                                          MPI_INFO_NULL, &req[NA2W]));
    spoil(c, sizeof(int) * 2), spoil(c2, sizeof(int) * 2), spoil(ad, sizeof(nw_sd));
    spoil(ad2, sizeof(nw_rd)), spoil(t, sizeof(two_ints)), spoil(t2, sizeof(two_ints));

    /* A derived type (two ints) freed right after the _init that names it. */
    MPI_Datatype pair;
    int *pg_s = malloc(sizeof(int) * 2), *pg_r = malloc(sizeof(int) * 2 * P);
    int *pw_s = malloc(sizeof(int) * 2 * P), *pw_r = malloc(sizeof(int) * 2 * P);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    CHECK_MPI(MPI_Allgather_init(pg_s, 1, pair, pg_r, 1, pair, comm, MPI_INFO_NULL, &req[AGP]));
    int *ones = malloc(sizeof(int) * P), *pdispl = malloc(sizeof(int) * P);
    MPI_Datatype *pairs = malloc(sizeof(MPI_Datatype) * P);
    for (int j = 0; j < P; j++)
        ones[j] = 1, pdispl[j] = (int)(2 * j * sizeof(int)), pairs[j] = pair;
    CHECK_MPI(MPI_Alltoallw_init(pw_s, ones, pdispl, pairs, pw_r, ones, pdispl, pairs, comm,
                                 MPI_INFO_NULL, &req[AWP]));
    spoil(pairs, sizeof(MPI_Datatype) * P);
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK(pair == MPI_DATATYPE_NULL, "type handle not nulled");

    for (round_ = 0; round_ < ROUNDS; round_++) {
        for (int k = 0; k < 3; k++)
            gv_s[k] = val(me, root, k);
        for (int i = 0; i <= total; i++)
            gv_r[i] = gvi_r[i] = agv_r[i] = agvi_r[i] = GAP;
        for (int i = 0; i < P; i++)
            for (int k = 0; k < cnt(i); k++) {
                sv_s[displs[i] + k] = val(0, i, k);
                if (i == me) {
                    agvi_r[displs[i] + k] = val(me, root, k);
                    if (me == root)
                        gvi_r[displs[i] + k] = val(me, root, k);
                }
            }
        for (int k = 0; k < 3; k++)
            sv_r[k] = GAP;
        for (int i = 0; i <= a_total; i++)
            a2_r[i] = a2i_r[i] = aw_r[i] = awi_r[i] = GAP;
        for (int j = 0; j < P; j++)
            for (int k = 0; k < a_counts[j]; k++)
                a2_s[a_displs[j] + k] = a2i_r[a_displs[j] + k] = awi_r[a_displs[j] + k] =
                    val(me, j, k);
        for (int p = 0; p < ntot; p++)
            rs_s[p] = rsi[p] = me + p + round_;
        rs_r[0] = rs_r[1] = rs_r[2] = GAP;
        ng_s[0] = val(me, 0, 0), ng_s[1] = val(me, 0, 1);
        na_s[0] = val(me, 0, 0), na_s[1] = val(me, 1, 0), na_s[2] = val(me, 1, 1);
        for (int i = 0; i < 6; i++)
            ng_r[i] = GAP;
        for (int i = 0; i < 5; i++)
            na_r[i] = nw_r[i] = GAP;

        pg_s[0] = val(me, 0, 0), pg_s[1] = val(me, 0, 1);
        for (int j = 0; j < P; j++) {
            pw_s[2 * j] = val(me, j, 0), pw_s[2 * j + 1] = val(me, j, 1);
            pg_r[2 * j] = pg_r[2 * j + 1] = pw_r[2 * j] = pw_r[2 * j + 1] = GAP;
        }

        if (round_ % 2) {
            CHECK_MPI(MPI_Startall(NREQ, req));
        } else {
            /* One by one, in another order on odd ranks (only the _init order matters). */
            for (int q = 0; q < NREQ; q++)
                CHECK_MPI(MPI_Start(&req[me % 2 ? NREQ - 1 - q : q]));
        }
        CHECK_MPI(MPI_Waitall(NREQ, req, sts));

        if (me == root)
            for (int i = 0; i < P; i++)
                for (int k = 0; k <= cnt(i); k++) {
                    int want = k < cnt(i) ? val(i, root, k) : GAP;
                    CHECK(gv_r[displs[i] + k] == want, "round %d Gatherv [%d+%d] %d, want %d",
                          round_, displs[i], k, gv_r[displs[i] + k], want);
                    CHECK(gvi_r[displs[i] + k] == want, "round %d Gatherv in place [%d+%d] %d",
                          round_, displs[i], k, gvi_r[displs[i] + k]);
                }
        for (int k = 0; k < 3; k++)
            CHECK(sv_r[k] == (k < cnt(me) ? val(0, me, k) : GAP), "round %d Scatterv [%d] %d",
                  round_, k, sv_r[k]);
        for (int i = 0; i < P; i++)
            for (int k = 0; k <= cnt(i); k++) {
                int want = k < cnt(i) ? val(i, root, k) : GAP;
                CHECK(agv_r[displs[i] + k] == want, "round %d Allgatherv [%d+%d] %d, want %d",
                      round_, displs[i], k, agv_r[displs[i] + k], want);
                CHECK(agvi_r[displs[i] + k] == want, "round %d Allgatherv in place [%d+%d] %d",
                      round_, displs[i], k, agvi_r[displs[i] + k]);
            }
        for (int j = 0; j < P; j++)
            for (int k = 0; k <= a_counts[j]; k++) {
                int want = k < a_counts[j] ? val(j, me, k) : GAP, at = a_displs[j] + k;
                CHECK(a2_r[at] == want, "round %d Alltoallv from %d [%d] %d, want %d", round_, j,
                      k, a2_r[at], want);
                CHECK(a2i_r[at] == want, "round %d Alltoallv in place from %d [%d] %d", round_,
                      j, k, a2i_r[at]);
                CHECK(aw_r[at] == want, "round %d Alltoallw from %d [%d] %d", round_, j, k,
                      aw_r[at]);
                CHECK(awi_r[at] == want, "round %d Alltoallw in place from %d [%d] %d", round_,
                      j, k, awi_r[at]);
            }
        int first = 0;
        for (int i = 0; i < me; i++)
            first += cnt(i);
        for (int k = 0; k < 3; k++) {
            int sum = 0;
            for (int s = 0; s < P; s++)
                sum += s + first + k + round_;
            CHECK(rs_r[k] == (k < cnt(me) ? sum : GAP), "round %d Reduce_scatter [%d] %d",
                  round_, k, rs_r[k]);
            if (k < cnt(me))
                CHECK(rsi[k] == sum, "round %d Reduce_scatter in place [%d] %d, want %d",
                      round_, k, rsi[k], sum);
        }
        for (int j = 0; j < 2; j++) {
            int from = nb[j];
            for (int k = 0; k < 3; k++) {
                int want = (from == MPI_PROC_NULL || k == 2) ? GAP : val(from, 0, k);
                CHECK(ng_r[3 * j + k] == want, "round %d Neighbor_allgatherv from %d [%d] %d",
                      round_, from, k, ng_r[3 * j + k]);
            }
        }
        /* From the left: its block for its right (2 elements); from the right: its block
         * for its left (1 element). */
        for (int j = 0; j < P; j++)
            for (int k = 0; k < 2; k++) {
                CHECK(pg_r[2 * j + k] == val(j, 0, k), "round %d Allgather (freed type) from "
                      "%d [%d] %d", round_, j, k, pg_r[2 * j + k]);
                CHECK(pw_r[2 * j + k] == val(j, me, k), "round %d Alltoallw (freed types) from "
                      "%d [%d] %d", round_, j, k, pw_r[2 * j + k]);
            }
        for (int w = 0; w < 2; w++) {
            const int *r = w ? nw_r : na_r;
            const char *name = w ? "Neighbor_alltoallw" : "Neighbor_alltoallv";
            for (int k = 0; k < 3; k++) {
                int want = (left == MPI_PROC_NULL || k == 2) ? GAP : val(left, 1, k);
                CHECK(r[k] == want, "round %d %s from the left [%d] %d, want %d", round_, name,
                      k, r[k], want);
            }
            int want = right == MPI_PROC_NULL ? GAP : val(right, 0, 0);
            CHECK(r[3] == want && r[4] == GAP, "round %d %s from the right: %d %d, want %d",
                  round_, name, r[3], r[4], want);
        }
    }
    for (int q = 0; q < NREQ; q++)
        CHECK_MPI(MPI_Request_free(&req[q]));
    free(ones), free(pdispl), free(pg_s), free(pg_r), free(pw_s), free(pw_r);
    CHECK_MPI(MPI_Comm_free(&line));
    ct_ok("persistent_coll_arrays");
    MPI_Finalize();
    return 0;
}
