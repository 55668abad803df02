/* session_only: a program of the Sessions model alone (no MPI_Init): a session, a
 * communicator from mpi://world (the name in lower case), an allreduce checked, the last
 * MPI_Session_finalize, and the library ending at the process's exit (the launcher must see
 * every rank finalize: our mpiexec ends the job with an error when one exits without). */
#include "check.h"

int main(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    MPI_Info info;
    /* MPI_Info calls work before any initialization (MPI-4.0 §11.4.1). */
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "thread_level", "MPI_THREAD_SINGLE"));
    CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://world", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, "org.railmpi.session_only", MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, &c));
    MPI_Group_free(&g);
    int rank, size;
    long one = 1, n = 0;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    CHECK_MPI(MPI_Allreduce(&one, &n, 1, MPI_LONG, MPI_SUM, c));
    CHECK(n == size, "allreduce over the session's communicator: %ld, not %d", n, size);
    CHECK_MPI(MPI_Barrier(c));
    if (rank == 0) {
        char ver[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(ver, &len);
        ver[strcspn(ver, "\r\n")] = 0;
        printf("ok session_only [%s]\n", ver);
        fflush(stdout);
    }
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Session_finalize(&s));
    return 0;
}
