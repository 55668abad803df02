/*
 * pmpi_app: two ranks play ping-pong for 10 rounds with MPI_Send / MPI_Recv, checking every
 * payload. Each rank calls MPI_Send 10 times and MPI_Recv 10 times; c_tests/cases/10_abi.sh
 * runs it under the PMPI tool (c_tests/tools/pmpi_tool.c) and checks those counts.
 * Exits non-zero on a wrong payload or status.
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 10
#define LEN 64

int main(int argc, char **argv)
{
    int rank, size, round, i, errors = 0;
    int buf[LEN];
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "pmpi_app: needs exactly 2 ranks, got %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (round = 0; round < ROUNDS; round++) {
        if (rank == 0) {
            for (i = 0; i < LEN; i++)
                buf[i] = round * 1000 + i;
            MPI_Send(buf, LEN, MPI_INT, 1, round, MPI_COMM_WORLD);
            MPI_Recv(buf, LEN, MPI_INT, 1, round, MPI_COMM_WORLD, &status);
            for (i = 0; i < LEN; i++)
                if (buf[i] != -(round * 1000 + i))
                    errors++;
        } else {
            MPI_Recv(buf, LEN, MPI_INT, 0, round, MPI_COMM_WORLD, &status);
            for (i = 0; i < LEN; i++) {
                if (buf[i] != round * 1000 + i)
                    errors++;
                buf[i] = -buf[i];
            }
            MPI_Send(buf, LEN, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
        if (status.MPI_SOURCE != 1 - rank || status.MPI_TAG != round)
            errors++;
    }

    if (errors)
        fprintf(stderr, "pmpi_app: rank %d: %d errors\n", rank, errors);
    MPI_Finalize();
    return errors ? 1 : 0;
}
