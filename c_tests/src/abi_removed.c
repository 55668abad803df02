/* abi_removed: the MPI-1 procedures MPI-3.0 removed, called by a program built for the
 * MPI-5 standard ABI. mpi_abi.h does not declare them (MPICH 5's neither: declared here),
 * but MPICH 5's libmpi_abi.so.1 exports them and old programs built with its mpicc_abi call
 * them (MPICH's own test suite: MPI_Errhandler_set in coll/opsum), so railmpi's
 * libmpi_abi.so.1 has them too, each as its replacement: error handlers created, set, got
 * and run; MPI_Type_extent/_lb/_ub of a resized type; MPI_Type_hvector/_hindexed/_struct
 * built and checked by size, extent and packed data; MPI_Address against MPI_Get_address. */
#include "check.h"

#ifdef MPI_ABI_VERSION /* (the MPICH ABI's mpi.h declares them) */
int MPI_Address(void *location, MPI_Aint *address);
int MPI_Errhandler_create(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent);
int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype);
int MPI_Type_hindexed(int count, int *blocklengths, MPI_Aint *displacements,
                      MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_struct(int count, int *blocklengths, MPI_Aint *displacements,
                    MPI_Datatype *types, MPI_Datatype *newtype);
#endif

static int calls;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void) comm;
    (void) code;
    calls++;
}

static void check_type(MPI_Datatype t, int size, MPI_Aint extent, const char *what)
{
    int s = -1;
    MPI_Aint x = -1;
    CHECK_MPI(MPI_Type_size(t, &s));
    CHECK_MPI(MPI_Type_extent(t, &x));
    CHECK(s == size && x == extent, "%s: size %d extent %ld, expected %d %ld", what, s,
          (long) x, size, (long) extent);
}

int main(int argc, char **argv)
{
    int size, buf = 0;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Error handlers: the MPI-1 names of MPI_Comm_create/set/get_errhandler. */
    MPI_Errhandler eh, got;
    CHECK_MPI(MPI_Errhandler_create(count_errors, &eh));
    CHECK_MPI(MPI_Errhandler_set(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Errhandler_get(MPI_COMM_WORLD, &got));
    CHECK(got == eh, "MPI_Errhandler_get does not give the handler set");
    CHECK_MPI(MPI_Errhandler_free(&got));
    int rc = MPI_Send(&buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    CHECK(calls == 1, "a bad rank: the handler ran %d times", calls);
#ifdef RAILMPI /* (MPICH 5.0.2 returns MPI_SUCCESS after a user handler ran) */
    CHECK(rc != MPI_SUCCESS, "a bad rank: MPI_Send returned MPI_SUCCESS");
#endif
    (void) rc;
    CHECK_MPI(MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* Bounds of a resized int: lb -4, extent 16, ub 12. */
    MPI_Datatype r, hv, hi, st;
    MPI_Aint lb = 0, ub = 0;
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &r));
    check_type(r, 4, 16, "resized int");
    CHECK_MPI(MPI_Type_lb(r, &lb));
    CHECK_MPI(MPI_Type_ub(r, &ub));
    CHECK(lb == -4 && ub == 12, "MPI_Type_lb/ub: %ld %ld, expected -4 12", (long) lb, (long) ub);

    /* Constructors: 3 blocks of 2 ints 20 bytes apart; ints at 0 and 12..20; a char and
     * two doubles. */
    int bl[2] = {1, 2};
    MPI_Aint d[2] = {0, 12}, sd[2] = {0, 8};
    MPI_Datatype tys[2] = {MPI_CHAR, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_hvector(3, 2, 20, MPI_INT, &hv));
    CHECK_MPI(MPI_Type_hindexed(2, bl, d, MPI_INT, &hi));
    CHECK_MPI(MPI_Type_struct(2, bl, sd, tys, &st));
    check_type(hv, 24, 48, "hvector");
    check_type(hi, 12, 20, "hindexed");
    check_type(st, 17, 24, "struct");
    CHECK_MPI(MPI_Type_commit(&hv));
    int src[12], packed[6], pos = 0;
    for (int i = 0; i < 12; i++)
        src[i] = i;
    CHECK_MPI(MPI_Pack(src, 1, hv, packed, sizeof packed, &pos, MPI_COMM_WORLD));
    CHECK(pos == 24 && packed[0] == 0 && packed[1] == 1 && packed[2] == 5 && packed[3] == 6 &&
              packed[4] == 10 && packed[5] == 11,
          "hvector packed %d bytes: %d %d %d %d %d %d", pos, packed[0], packed[1], packed[2],
          packed[3], packed[4], packed[5]);

    /* MPI_Address is MPI_Get_address. */
    double x;
    MPI_Aint a1 = 0, a2 = 1;
    CHECK_MPI(MPI_Address(&x, &a1));
    CHECK_MPI(MPI_Get_address(&x, &a2));
    CHECK(a1 == a2, "MPI_Address %ld, MPI_Get_address %ld", (long) a1, (long) a2);

    MPI_Type_free(&r);
    MPI_Type_free(&hv);
    MPI_Type_free(&hi);
    MPI_Type_free(&st);
    ct_ok("abi_removed");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
