/* The standard ABI's handle conversions (MPI-5.0 §20.3.4: MPI_X_toint / MPI_X_fromint):
 * each round trip gives the handle back, for predefined handles,
 * handles the program made (a communicator, a datatype, a file: railmpi's file handles are
 * wider than an int), and the null handles; a handle from an int still works in a call.
 * Built for the standard ABI (mpicc_abi defines MPI_ABI); elsewhere it only says ok. */
#include "check.h"
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#ifdef MPI_ABI
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm comms[] = {MPI_COMM_WORLD, MPI_COMM_SELF, MPI_COMM_NULL, dup};
    for (int i = 0; i < 4; i++) {
        CHECK(MPI_Comm_fromint(MPI_Comm_toint(comms[i])) == comms[i], "comm %d: toint round trip", i);
    }
    int size = 0;
    CHECK_MPI(MPI_Comm_size(MPI_Comm_fromint(MPI_Comm_toint(dup)), &size));
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(size == wsize, "size through a converted handle: %d", size);
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &vec));
    MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE, MPI_DATATYPE_NULL, vec};
    for (int i = 0; i < 4; i++)
        CHECK(MPI_Type_fromint(MPI_Type_toint(types[i])) == types[i], "type %d: toint round trip", i);
    MPI_File fh;
    char path[256];
    snprintf(path, sizeof path, "/tmp/abi_handles.%d.%d", (int)getpid(), 0);
    CHECK_MPI(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    MPI_File back = MPI_File_fromint(MPI_File_toint(fh));
    CHECK(back == fh, "file: toint round trip");
    MPI_Offset sz = -1;
    CHECK_MPI(MPI_File_get_size(back, &sz));
    CHECK(sz == 0, "file size through a converted handle: %lld", (long long)sz);
    CHECK(MPI_File_fromint(MPI_File_toint(MPI_FILE_NULL)) == MPI_FILE_NULL, "MPI_FILE_NULL round trip");
    CHECK_MPI(MPI_File_close(&back));
    int major = -1, minor = -1;
    CHECK_MPI(MPI_Abi_get_version(&major, &minor));
    CHECK(major == MPI_ABI_VERSION && minor == MPI_ABI_SUBVERSION, "ABI version %d.%d", major, minor);
    MPI_Type_free(&vec);
    MPI_Comm_free(&dup);
#endif
    ct_ok("abi_handles");
    MPI_Finalize();
    return 0;
}
