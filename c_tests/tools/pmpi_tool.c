/*
 * pmpi_tool: a minimal PMPI interposition library (built as a shared object by
 * c_tests/cases/10_abi.sh and loaded with LD_PRELOAD, not built by the Makefile).
 *
 * It defines MPI_Init, MPI_Send, MPI_Recv and MPI_Finalize, counts the calls, forwards each
 * to its PMPI_ twin in the MPI library, and prints the counts at MPI_Finalize:
 *   pmpi_tool: MPI_Init calls=N
 *   pmpi_tool: MPI_Send calls=N
 *   pmpi_tool: MPI_Recv calls=N
 * If the library's MPI_X were not interposable (e.g. bound directly to PMPI_X inside the
 * library, or not exported), the counts would stay at zero.
 */
#include <mpi.h>
#include <stdio.h>

static int init_calls;
static int send_calls;
static int recv_calls;

int MPI_Init(int *argc, char ***argv)
{
    init_calls++;
    return PMPI_Init(argc, argv);
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
             MPI_Comm comm)
{
    send_calls++;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    recv_calls++;
    return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Finalize(void)
{
    printf("pmpi_tool: MPI_Init calls=%d\n", init_calls);
    printf("pmpi_tool: MPI_Send calls=%d\n", send_calls);
    printf("pmpi_tool: MPI_Recv calls=%d\n", recv_calls);
    fflush(stdout);
    return PMPI_Finalize();
}
