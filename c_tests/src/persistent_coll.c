/* persistent_coll: MPI-4 persistent collectives. Each request is made once and started for
 * several rounds; the buffers change between rounds, so every round must read them anew.
 * Bcast, Allreduce, Reduce, Gather(v), Scatter, Allgather, Alltoall(v), Reduce_scatter_block,
 * Scan, Exscan and Barrier, through MPI_Start/MPI_Wait and MPI_Startall/MPI_Waitall, also
 * started in a different order on different ranks (only the _init order must match); a
 * request is inactive after its wait (MPI_Test on it is complete at once), MPI_Start of an
 * active one is MPI_ERR_REQUEST, and MPI_Request_free releases it. */
#include "check.h"

#define N 5
#define ROUNDS 4

int main(int argc, char **argv)
{
    int rank, size, round, i, j;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int bc[N], ar_in[N], ar_out[N], red_out[N], g_in[N], *g_out = malloc(sizeof(int) * N * size);
    int *gv_out = malloc(sizeof(int) * N * size), *gv_counts = malloc(sizeof(int) * size);
    int *gv_displs = malloc(sizeof(int) * size), *sc_in = malloc(sizeof(int) * N * size);
    int sc_out[N], *ag_out = malloc(sizeof(int) * N * size);
    int *a2a_in = malloc(sizeof(int) * size), *a2a_out = malloc(sizeof(int) * size);
    int *v_counts = malloc(sizeof(int) * size), *v_displs = malloc(sizeof(int) * size);
    int *id_displs = malloc(sizeof(int) * size);
    MPI_Status sts[13];
    int *a2av_out = malloc(sizeof(int) * size), *rsb_in = malloc(sizeof(int) * size);
    int rsb_out, scan_out, exscan_out = -1, one;
    MPI_Request r[13];
    MPI_Info info;
    int flag;

    MPI_Info_create(&info);
    MPI_Info_set(info, "railmpi_hint", "ignored");
    for (i = 0; i < size; i++) {
        gv_counts[i] = 1 + i % N;
        gv_displs[i] = i * N;
        v_counts[i] = 1;
        v_displs[i] = size - 1 - i; /* received in reverse order */
        id_displs[i] = i;
    }
    CHECK_MPI(MPI_Bcast_init(bc, N, MPI_INT, size - 1, MPI_COMM_WORLD, info, &r[0]));
    CHECK_MPI(MPI_Allreduce_init(ar_in, ar_out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r[1]));
    CHECK_MPI(MPI_Reduce_init(ar_in, red_out, N, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &r[2]));
    CHECK_MPI(MPI_Gather_init(g_in, N, MPI_INT, g_out, N, MPI_INT, 0, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &r[3]));
    CHECK_MPI(MPI_Gatherv_init(g_in, 1 + rank % N, MPI_INT, gv_out, gv_counts, gv_displs,
                               MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[4]));
    CHECK_MPI(MPI_Scatter_init(sc_in, N, MPI_INT, sc_out, N, MPI_INT, 0, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &r[5]));
    CHECK_MPI(MPI_Allgather_init(g_in, N, MPI_INT, ag_out, N, MPI_INT, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r[6]));
    CHECK_MPI(MPI_Alltoall_init(a2a_in, 1, MPI_INT, a2a_out, 1, MPI_INT, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &r[7]));
    CHECK_MPI(MPI_Alltoallv_init(a2a_in, v_counts, id_displs, MPI_INT, a2av_out, v_counts,
                                 v_displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[8]));
    CHECK_MPI(MPI_Reduce_scatter_block_init(rsb_in, &rsb_out, 1, MPI_INT, MPI_SUM,
                                            MPI_COMM_WORLD, MPI_INFO_NULL, &r[9]));
    CHECK_MPI(MPI_Scan_init(&one, &scan_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                            MPI_INFO_NULL, &r[10]));
    CHECK_MPI(MPI_Exscan_init(&one, &exscan_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &r[11]));
    CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[12]));
    MPI_Info_free(&info);

    for (round = 0; round < ROUNDS; round++) {
        /* new inputs every round */
        for (i = 0; i < N; i++) {
            bc[i] = rank == size - 1 ? 1000 * round + i : -1;
            ar_in[i] = rank + round * i;
            g_in[i] = 100 * rank + 10 * round + i;
        }
        for (i = 0; i < N * size; i++) {
            sc_in[i] = rank == 0 ? 7 * round + i : -1;
            gv_out[i] = -1;
        }
        for (i = 0; i < size; i++) {
            a2a_in[i] = 1000 * rank + 10 * i + round;
            rsb_in[i] = rank + i + round;
        }
        one = round + 1;
        if (round % 2 == 0) {
            for (i = 0; i < 13; i++)
                CHECK_MPI(MPI_Start(&r[i]));
            if (round == 0) {
                MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
                CHECK(MPI_Start(&r[0]) == MPI_ERR_REQUEST, "start of an active request");
                MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
            }
            for (i = 0; i < 13; i++)
                CHECK_MPI(MPI_Wait(&r[i], MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Startall(13, r));
            CHECK_MPI(MPI_Waitall(13, r, sts));
        }
        for (i = 0; i < 13; i++) {
            CHECK(r[i] != MPI_REQUEST_NULL, "persistent request %d freed by its wait", i);
            CHECK_MPI(MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE));
            CHECK(flag, "inactive request %d not complete", i);
        }
        for (i = 0; i < N; i++) {
            int sum = 0;
            for (j = 0; j < size; j++)
                sum += j + round * i;
            CHECK(bc[i] == 1000 * round + i, "round %d bcast[%d] = %d", round, i, bc[i]);
            CHECK(ar_out[i] == sum, "round %d allreduce[%d] = %d", round, i, ar_out[i]);
            if (rank == 0)
                CHECK(red_out[i] == size - 1 + round * i, "round %d reduce[%d]", round, i);
            CHECK(sc_out[i] == 7 * round + rank * N + i, "round %d scatter[%d]", round, i);
        }
        for (j = 0; j < size; j++)
            for (i = 0; i < N; i++) {
                int want = 100 * j + 10 * round + i;
                CHECK(ag_out[j * N + i] == want, "round %d allgather", round);
                if (rank == 0) {
                    CHECK(g_out[j * N + i] == want, "round %d gather", round);
                    CHECK(gv_out[j * N + i] == (i < gv_counts[j] ? want : -1),
                          "round %d gatherv from %d [%d] = %d", round, j, i, gv_out[j * N + i]);
                }
            }
        for (j = 0; j < size; j++) {
            CHECK(a2a_out[j] == 1000 * j + 10 * rank + round, "round %d alltoall", round);
            CHECK(a2av_out[size - 1 - j] == 1000 * j + 10 * rank + round, "round %d alltoallv",
                  round);
        }
        {
            int want = 0;
            for (j = 0; j < size; j++)
                want += j + rank + round;
            CHECK(rsb_out == want, "round %d reduce_scatter_block %d != %d", round, rsb_out,
                  want);
        }
        CHECK(scan_out == (rank + 1) * (round + 1), "round %d scan %d", round, scan_out);
        if (rank > 0)
            CHECK(exscan_out == rank * (round + 1), "round %d exscan %d", round, exscan_out);
    }
    /* The order of the _init calls is what must match; ranks may start in any order. */
    {
        int a = -1, k;
        MPI_Request q[2];
        for (k = 0; k < 3; k++) {
            CHECK_MPI(MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]));
            CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]));
            a = rank == 0 ? 42 + k : -1;
            CHECK_MPI(MPI_Start(&q[rank % 2]));
            CHECK_MPI(MPI_Start(&q[1 - rank % 2]));
            CHECK_MPI(MPI_Waitall(2, q, sts));
            CHECK(a == 42 + k, "out-of-order starts: bcast gave %d", a);
            MPI_Request_free(&q[0]);
            MPI_Request_free(&q[1]);
        }
    }
    for (i = 0; i < 13; i++) {
        CHECK_MPI(MPI_Request_free(&r[i]));
        CHECK(r[i] == MPI_REQUEST_NULL, "request %d not MPI_REQUEST_NULL after free", i);
    }
    free(g_out);
    free(gv_out);
    free(gv_counts);
    free(gv_displs);
    free(sc_in);
    free(ag_out);
    free(a2a_in);
    free(a2a_out);
    free(v_counts);
    free(v_displs);
    free(id_displs);
    free(a2av_out);
    free(rsb_in);
    ct_ok("persistent_coll");
    MPI_Finalize();
    return 0;
}
