/* hello: every rank prints rank/size/processor name; rank 0 prints the full library version
 * string (the swap-in cases grep it for "railmpi"). */
#include "check.h"

int main(int argc, char **argv)
{
    int rank, size, len = 0;
    char name[MPI_MAX_PROCESSOR_NAME];
    char ver[MPI_MAX_LIBRARY_VERSION_STRING];

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 1 && rank >= 0 && rank < size, "rank %d size %d", rank, size);

    name[0] = 0;
    CHECK_MPI(MPI_Get_processor_name(name, &len));
    CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME && (int)strlen(name) == len,
          "processor name len %d strlen %zu", len, strlen(name));
    printf("hello from rank %d of %d on %s\n", rank, size, name);
    fflush(stdout);

    if (rank == 0) {
        ver[0] = 0;
        len = 0;
        CHECK_MPI(MPI_Get_library_version(ver, &len));
        CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING, "library version len %d", len);
        printf("library: %s\n", ver);
        fflush(stdout);
    }
    ct_ok("hello");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
