/* A persistent request keeps its datatype: MPI_Type_free right after MPI_Send_init /
 * MPI_Recv_init must not affect later MPI_Start rounds (MPI-3.1 §4.1.9). */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, size, round, i, buf[12];
    MPI_Datatype vec;
    MPI_Request req;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (size >= 2 && rank < 2) {
        /* Every other int of 12: a strided type. */
        CHECK_MPI(MPI_Type_vector(6, 1, 2, MPI_INT, &vec));
        CHECK_MPI(MPI_Type_commit(&vec));
        if (rank == 0)
            CHECK_MPI(MPI_Send_init(buf, 1, vec, 1, 5, MPI_COMM_WORLD, &req));
        else
            CHECK_MPI(MPI_Recv_init(buf, 1, vec, 0, 5, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Type_free(&vec));
        CHECK(vec == MPI_DATATYPE_NULL, "type handle not nulled");
        for (round = 0; round < 5; round++) {
            for (i = 0; i < 12; i++) buf[i] = rank == 0 ? round * 100 + i : -1;
            CHECK_MPI(MPI_Start(&req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            if (rank == 1)
                for (i = 0; i < 12; i++)
                    CHECK(buf[i] == (i % 2 == 0 ? round * 100 + i : -1),
                          "round %d buf[%d]=%d", round, i, buf[i]);
        }
        CHECK_MPI(MPI_Request_free(&req));
    }
    ct_ok("persistent_typefree");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
