/* abi_fortran_info: the standard ABI's Fortran registration (MPI-5.0 §21.4.1), what a
 * Fortran binding over libmpi_abi.so.1 calls to tell the C library its compiler's types.
 * Standard ABI only (the MPICH ABI has no such calls: built for it, it checks nothing).
 * 1. Before any registration, MPI_Abi_get_fortran_info gives MPI_INFO_NULL and
 *    MPI_Abi_get_fortran_booleans says nothing is set.
 * 2. A registration that contradicts the library's Fortran types (INTEGER of 8 bytes;
 *    LOGICAL true as -1) is refused with MPI_ERR_ABI and sets nothing.
 * 3. One that agrees (gfortran's: INTEGER, REAL, LOGICAL 4 bytes, DOUBLE PRECISION 8,
 *    true 1, false 0) succeeds; the info reads back (after the application freed its own),
 *    the booleans read back for LOGICAL(4) and not for LOGICAL(8).
 * 4. A second registration of either kind is MPI_ERR_ABI, and changes nothing.
 * Errors are returned (MPI_ERRORS_RETURN on MPI_COMM_WORLD). */
#include "check.h"

#ifdef MPI_ABI_VERSION
static MPI_Info fortran_info(const char *integer_size)
{
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_integer_size", integer_size));
    CHECK_MPI(MPI_Info_set(info, "mpi_real_size", "4"));
    CHECK_MPI(MPI_Info_set(info, "mpi_double_precision_size", "8"));
    CHECK_MPI(MPI_Info_set(info, "mpi_logical_size", "4"));
    CHECK_MPI(MPI_Info_set(info, "mpi_integer16_supported", "true"));
    return info;
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static void check_registration(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* 1. */
    MPI_Info got = MPI_INFO_ENV;
    int t4 = -7, f4 = -7, is_set = -1;
    CHECK_MPI(MPI_Abi_get_fortran_info(&got));
    CHECK(got == MPI_INFO_NULL, "Fortran info before any registration");
    CHECK_MPI(MPI_Abi_get_fortran_booleans(4, &t4, &f4, &is_set));
    CHECK(is_set == 0, "booleans set before any registration");

    /* 2. */
    MPI_Info wrong = fortran_info("8");
    int rc = MPI_Abi_set_fortran_info(wrong);
    CHECK(error_class(rc) == MPI_ERR_ABI, "an 8-byte INTEGER was not refused: %d", rc);
    CHECK_MPI(MPI_Info_free(&wrong));
    CHECK_MPI(MPI_Abi_get_fortran_info(&got));
    CHECK(got == MPI_INFO_NULL, "a refused registration set something");
    int minus1 = -1, zero = 0, one = 1;
    rc = MPI_Abi_set_fortran_booleans(4, &minus1, &zero);
    CHECK(error_class(rc) == MPI_ERR_ABI, "true as -1 was not refused: %d", rc);
    rc = MPI_Abi_set_fortran_booleans(3, &one, &zero);
    CHECK(error_class(rc) == MPI_ERR_ARG, "a 3-byte LOGICAL was not refused: %d", rc);

    /* 3. */
    MPI_Info right = fortran_info("4");
    CHECK_MPI(MPI_Abi_set_fortran_info(right));
    CHECK_MPI(MPI_Info_free(&right));
    CHECK_MPI(MPI_Abi_get_fortran_info(&got));
    CHECK(got != MPI_INFO_NULL, "the registered info was not kept");
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0, nkeys = 0;
    CHECK_MPI(MPI_Info_get_nkeys(got, &nkeys));
    CHECK(nkeys == 5, "%d keys read back, 5 registered", nkeys);
    int len = (int)sizeof value;
    CHECK_MPI(MPI_Info_get_string(got, "mpi_double_precision_size", &len, value, &flag));
    CHECK(flag && strcmp(value, "8") == 0, "mpi_double_precision_size reads back as %s", value);
    len = (int)sizeof value;
    CHECK_MPI(MPI_Info_get_string(got, "mpi_integer16_supported", &len, value, &flag));
    CHECK(flag && strcmp(value, "true") == 0, "mpi_integer16_supported reads back as %s", value);
    CHECK_MPI(MPI_Info_free(&got));
    CHECK_MPI(MPI_Abi_set_fortran_booleans(4, &one, &zero));
    CHECK_MPI(MPI_Abi_get_fortran_booleans(4, &t4, &f4, &is_set));
    CHECK(is_set == 1 && t4 == 1 && f4 == 0, "LOGICAL(4) booleans read back as %d: %d %d",
          is_set, t4, f4);
    long long t8 = -7, f8 = -7;
    CHECK_MPI(MPI_Abi_get_fortran_booleans(8, &t8, &f8, &is_set));
    CHECK(is_set == 0 && t8 == -7, "LOGICAL(8) booleans answered from LOGICAL(4)'s");

    /* 4. */
    MPI_Info again = fortran_info("4");
    rc = MPI_Abi_set_fortran_info(again);
    CHECK(error_class(rc) == MPI_ERR_ABI, "a second MPI_Abi_set_fortran_info gave %d", rc);
    CHECK_MPI(MPI_Info_free(&again));
    rc = MPI_Abi_set_fortran_booleans(4, &one, &zero);
    CHECK(error_class(rc) == MPI_ERR_ABI, "a second MPI_Abi_set_fortran_booleans gave %d", rc);
    CHECK_MPI(MPI_Abi_get_fortran_info(&got));
    CHECK_MPI(MPI_Info_get_nkeys(got, &nkeys));
    CHECK(nkeys == 5, "the second registration changed the info (%d keys)", nkeys);
    CHECK_MPI(MPI_Info_free(&got));
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#ifdef MPI_ABI_VERSION
    check_registration();
#endif
    ct_ok("abi_fortran_info");
    MPI_Finalize();
    return 0;
}
