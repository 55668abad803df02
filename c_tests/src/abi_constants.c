/*
 * abi_constants: prints the ABI facts of whatever mpi.h it is compiled with, one per line
 * as `NAME value`: every predefined integer constant, pointer-valued constants, the size and
 * signedness of each handle and integer type, and the layout of MPI_Status.
 *
 * It calls no MPI function and needs no MPI library: c_tests/cases/10_abi.sh compiles it
 * once with MPICH's mpi.h and once with railmpi's and compares the outputs. Lines starting
 * with "#version " differ by design (railmpi declares MPI 4.1, MPICH 4.0 says 4.0) and are
 * left out of the comparison.
 *
 * The callback declarations below also check, at compile time, that the callback typedefs
 * are C function types with MPICH's signatures (build with -Werror).
 */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define P(name) printf("%s %lld\n", #name, (long long)(name))
#define PTR(name) printf("%s %lld\n", #name, (long long)(intptr_t)(name))
#define SIZE(type) printf("sizeof(%s) %zu\n", #type, sizeof(type))
#define SIGNED(type) printf("signed(%s) %d\n", #type, (type)-1 < (type)0)
#define OFFSET(field) printf("offsetof(MPI_Status,%s) %zu\n", #field, offsetof(MPI_Status, field))

/* Callbacks with the standard signatures; assigning them to pointers of the header's
   callback types fails to compile (-Werror) if a typedef does not match. The pointers are
   globals so that no compiler calls them unused. */
static void user_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in; (void)inout; (void)len; (void)dt;
}
static void comm_err(MPI_Comm *comm, int *code, ...) { (void)comm; (void)code; }
static void win_err(MPI_Win *win, int *code, ...) { (void)win; (void)code; }
static void file_err(MPI_File *file, int *code, ...) { (void)file; (void)code; }
static int comm_copy(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)x; (void)in; (void)out; (void)flag;
    return 0;
}
static int comm_del(MPI_Comm c, int k, void *v, void *x)
{
    (void)c; (void)k; (void)v; (void)x;
    return 0;
}
static int type_copy(MPI_Datatype t, int k, void *x, void *in, void *out, int *flag)
{
    (void)t; (void)k; (void)x; (void)in; (void)out; (void)flag;
    return 0;
}
static int type_del(MPI_Datatype t, int k, void *v, void *x)
{
    (void)t; (void)k; (void)v; (void)x;
    return 0;
}
static int win_copy(MPI_Win w, int k, void *x, void *in, void *out, int *flag)
{
    (void)w; (void)k; (void)x; (void)in; (void)out; (void)flag;
    return 0;
}
static int win_del(MPI_Win w, int k, void *v, void *x)
{
    (void)w; (void)k; (void)v; (void)x;
    return 0;
}
static int greq_query(void *x, MPI_Status *st) { (void)x; (void)st; return 0; }
static int greq_free(void *x) { (void)x; return 0; }
static int greq_cancel(void *x, int complete) { (void)x; (void)complete; return 0; }
static int datarep_extent(MPI_Datatype t, MPI_Aint *ext, void *x)
{
    (void)t; (void)ext; (void)x;
    return 0;
}
static int datarep_conv(void *u, MPI_Datatype t, int n, void *f, MPI_Offset pos, void *x)
{
    (void)u; (void)t; (void)n; (void)f; (void)pos; (void)x;
    return 0;
}

MPI_User_function *user_fn_p = user_fn;
MPI_Comm_errhandler_function *comm_err_p = comm_err;
MPI_Handler_function *handler_p = comm_err;
MPI_Win_errhandler_function *win_err_p = win_err;
MPI_File_errhandler_function *file_err_p = file_err;
MPI_Comm_copy_attr_function *comm_copy_p = comm_copy;
MPI_Comm_delete_attr_function *comm_del_p = comm_del;
MPI_Copy_function *copy_p = comm_copy;
MPI_Delete_function *del_p = comm_del;
MPI_Type_copy_attr_function *type_copy_p = type_copy;
MPI_Type_delete_attr_function *type_del_p = type_del;
MPI_Win_copy_attr_function *win_copy_p = win_copy;
MPI_Win_delete_attr_function *win_del_p = win_del;
MPI_Grequest_query_function *greq_query_p = greq_query;
MPI_Grequest_free_function *greq_free_p = greq_free;
MPI_Grequest_cancel_function *greq_cancel_p = greq_cancel;
MPI_Datarep_extent_function *datarep_extent_p = datarep_extent;
MPI_Datarep_conversion_function *datarep_conv_p = datarep_conv;

int main(void)
{
    /* Declared versions differ by design: not compared. */
    printf("#version MPI_VERSION %d\n", MPI_VERSION);
    printf("#version MPI_SUBVERSION %d\n", MPI_SUBVERSION);

    /* Integer constants. */
    P(MPI_COMM_NULL); P(MPI_OP_NULL); P(MPI_GROUP_NULL);
    P(MPI_DATATYPE_NULL); P(MPI_REQUEST_NULL); P(MPI_ERRHANDLER_NULL);
    P(MPI_MESSAGE_NULL); P(MPI_MESSAGE_NO_PROC); P(MPI_WIN_NULL);
    P(MPI_INFO_NULL); P(MPI_SESSION_NULL); P(MPI_COMM_WORLD);
    P(MPI_COMM_SELF); P(MPI_GROUP_EMPTY); P(MPI_INFO_ENV);
    P(MPI_CHAR); P(MPI_SIGNED_CHAR); P(MPI_UNSIGNED_CHAR);
    P(MPI_BYTE); P(MPI_WCHAR); P(MPI_SHORT);
    P(MPI_UNSIGNED_SHORT); P(MPI_INT); P(MPI_UNSIGNED);
    P(MPI_LONG); P(MPI_UNSIGNED_LONG); P(MPI_FLOAT);
    P(MPI_DOUBLE); P(MPI_LONG_DOUBLE); P(MPI_LONG_LONG_INT);
    P(MPI_UNSIGNED_LONG_LONG); P(MPI_LONG_LONG); P(MPI_PACKED);
    P(MPI_LB); P(MPI_UB); P(MPI_FLOAT_INT);
    P(MPI_DOUBLE_INT); P(MPI_LONG_INT); P(MPI_SHORT_INT);
    P(MPI_2INT); P(MPI_LONG_DOUBLE_INT); P(MPI_COMPLEX);
    P(MPI_DOUBLE_COMPLEX); P(MPI_LOGICAL); P(MPI_REAL);
    P(MPI_DOUBLE_PRECISION); P(MPI_INTEGER); P(MPI_2INTEGER);
    P(MPI_2REAL); P(MPI_2DOUBLE_PRECISION); P(MPI_CHARACTER);
    P(MPI_REAL4); P(MPI_REAL8); P(MPI_REAL16);
    P(MPI_COMPLEX8); P(MPI_COMPLEX16); P(MPI_COMPLEX32);
    P(MPI_INTEGER1); P(MPI_INTEGER2); P(MPI_INTEGER4);
    P(MPI_INTEGER8); P(MPI_INTEGER16); P(MPI_INT8_T);
    P(MPI_INT16_T); P(MPI_INT32_T); P(MPI_INT64_T);
    P(MPI_UINT8_T); P(MPI_UINT16_T); P(MPI_UINT32_T);
    P(MPI_UINT64_T); P(MPI_C_BOOL); P(MPI_C_FLOAT_COMPLEX);
    P(MPI_C_COMPLEX); P(MPI_C_DOUBLE_COMPLEX); P(MPI_C_LONG_DOUBLE_COMPLEX);
    P(MPI_AINT); P(MPI_OFFSET); P(MPI_COUNT);
    P(MPI_CXX_BOOL); P(MPI_CXX_FLOAT_COMPLEX); P(MPI_CXX_DOUBLE_COMPLEX);
    P(MPI_CXX_LONG_DOUBLE_COMPLEX); P(MPI_TYPECLASS_REAL); P(MPI_TYPECLASS_INTEGER);
    P(MPI_TYPECLASS_COMPLEX); P(MPI_MAX); P(MPI_MIN);
    P(MPI_SUM); P(MPI_PROD); P(MPI_LAND);
    P(MPI_BAND); P(MPI_LOR); P(MPI_BOR);
    P(MPI_LXOR); P(MPI_BXOR); P(MPI_MINLOC);
    P(MPI_MAXLOC); P(MPI_REPLACE); P(MPI_NO_OP);
    P(MPI_ERRORS_ARE_FATAL); P(MPI_ERRORS_RETURN); P(MPI_ERRORS_ABORT);
    P(MPI_IDENT); P(MPI_CONGRUENT); P(MPI_SIMILAR);
    P(MPI_UNEQUAL); P(MPI_TAG_UB); P(MPI_HOST);
    P(MPI_IO); P(MPI_WTIME_IS_GLOBAL); P(MPI_UNIVERSE_SIZE);
    P(MPI_LASTUSEDCODE); P(MPI_APPNUM); P(MPI_WIN_BASE);
    P(MPI_WIN_SIZE); P(MPI_WIN_DISP_UNIT); P(MPI_WIN_CREATE_FLAVOR);
    P(MPI_WIN_MODEL); P(MPI_KEYVAL_INVALID); P(MPI_MAX_PROCESSOR_NAME);
    P(MPI_MAX_LIBRARY_VERSION_STRING); P(MPI_MAX_ERROR_STRING); P(MPI_MAX_PORT_NAME);
    P(MPI_MAX_OBJECT_NAME); P(MPI_MAX_STRINGTAG_LEN); P(MPI_MAX_PSET_NAME_LEN);
    P(MPI_MAX_INFO_KEY); P(MPI_MAX_INFO_VAL); P(MPI_MAX_DATAREP_STRING);
    P(MPI_BSEND_OVERHEAD); P(MPI_UNDEFINED); P(MPI_PROC_NULL);
    P(MPI_ANY_SOURCE); P(MPI_ROOT); P(MPI_ANY_TAG);
    P(MPI_LOCK_EXCLUSIVE); P(MPI_LOCK_SHARED); P(MPI_WIN_FLAVOR_CREATE);
    P(MPI_WIN_FLAVOR_ALLOCATE); P(MPI_WIN_FLAVOR_DYNAMIC); P(MPI_WIN_FLAVOR_SHARED);
    P(MPI_WIN_SEPARATE); P(MPI_WIN_UNIFIED); P(MPI_MODE_NOCHECK);
    P(MPI_MODE_NOSTORE); P(MPI_MODE_NOPUT); P(MPI_MODE_NOPRECEDE);
    P(MPI_MODE_NOSUCCEED); P(MPI_GRAPH); P(MPI_CART);
    P(MPI_DIST_GRAPH); P(MPI_COMM_TYPE_SHARED); P(MPI_COMM_TYPE_HW_GUIDED);
    P(MPI_COMM_TYPE_HW_UNGUIDED); P(MPI_THREAD_SINGLE); P(MPI_THREAD_FUNNELED);
    P(MPI_THREAD_SERIALIZED); P(MPI_THREAD_MULTIPLE); P(MPI_COMBINER_NAMED);
    P(MPI_COMBINER_DUP); P(MPI_COMBINER_CONTIGUOUS); P(MPI_COMBINER_VECTOR);
    P(MPI_COMBINER_HVECTOR_INTEGER); P(MPI_COMBINER_HVECTOR); P(MPI_COMBINER_INDEXED);
    P(MPI_COMBINER_HINDEXED_INTEGER); P(MPI_COMBINER_HINDEXED); P(MPI_COMBINER_INDEXED_BLOCK);
    P(MPI_COMBINER_STRUCT_INTEGER); P(MPI_COMBINER_STRUCT); P(MPI_COMBINER_SUBARRAY);
    P(MPI_COMBINER_DARRAY); P(MPI_COMBINER_F90_REAL); P(MPI_COMBINER_F90_COMPLEX);
    P(MPI_COMBINER_F90_INTEGER); P(MPI_COMBINER_RESIZED); P(MPI_COMBINER_HINDEXED_BLOCK);
    P(MPI_ORDER_C); P(MPI_ORDER_FORTRAN); P(MPI_DISTRIBUTE_BLOCK);
    P(MPI_DISTRIBUTE_CYCLIC); P(MPI_DISTRIBUTE_NONE); P(MPI_DISTRIBUTE_DFLT_DARG);
    P(MPI_MODE_CREATE); P(MPI_MODE_RDONLY); P(MPI_MODE_WRONLY);
    P(MPI_MODE_RDWR); P(MPI_MODE_DELETE_ON_CLOSE); P(MPI_MODE_UNIQUE_OPEN);
    P(MPI_MODE_EXCL); P(MPI_MODE_APPEND); P(MPI_MODE_SEQUENTIAL);
    P(MPI_DISPLACEMENT_CURRENT); P(MPI_SEEK_SET); P(MPI_SEEK_CUR);
    P(MPI_SEEK_END); P(MPI_F_STATUS_SIZE); P(MPI_F_SOURCE);
    P(MPI_F_TAG); P(MPI_F_ERROR); P(MPI_SUCCESS);
    P(MPI_ERR_BUFFER); P(MPI_ERR_COUNT); P(MPI_ERR_TYPE);
    P(MPI_ERR_TAG); P(MPI_ERR_COMM); P(MPI_ERR_RANK);
    P(MPI_ERR_ROOT); P(MPI_ERR_GROUP); P(MPI_ERR_OP);
    P(MPI_ERR_TOPOLOGY); P(MPI_ERR_DIMS); P(MPI_ERR_ARG);
    P(MPI_ERR_UNKNOWN); P(MPI_ERR_TRUNCATE); P(MPI_ERR_OTHER);
    P(MPI_ERR_INTERN); P(MPI_ERR_IN_STATUS); P(MPI_ERR_PENDING);
    P(MPI_ERR_REQUEST); P(MPI_ERR_ACCESS); P(MPI_ERR_AMODE);
    P(MPI_ERR_BAD_FILE); P(MPI_ERR_CONVERSION); P(MPI_ERR_DUP_DATAREP);
    P(MPI_ERR_FILE_EXISTS); P(MPI_ERR_FILE_IN_USE); P(MPI_ERR_FILE);
    P(MPI_ERR_INFO); P(MPI_ERR_INFO_KEY); P(MPI_ERR_INFO_VALUE);
    P(MPI_ERR_INFO_NOKEY); P(MPI_ERR_IO); P(MPI_ERR_NAME);
    P(MPI_ERR_NO_MEM); P(MPI_ERR_NOT_SAME); P(MPI_ERR_NO_SPACE);
    P(MPI_ERR_NO_SUCH_FILE); P(MPI_ERR_PORT); P(MPI_ERR_QUOTA);
    P(MPI_ERR_READ_ONLY); P(MPI_ERR_SERVICE); P(MPI_ERR_SPAWN);
    P(MPI_ERR_UNSUPPORTED_DATAREP); P(MPI_ERR_UNSUPPORTED_OPERATION); P(MPI_ERR_WIN);
    P(MPI_ERR_BASE); P(MPI_ERR_LOCKTYPE); P(MPI_ERR_KEYVAL);
    P(MPI_ERR_RMA_CONFLICT); P(MPI_ERR_RMA_SYNC); P(MPI_ERR_SIZE);
    P(MPI_ERR_DISP); P(MPI_ERR_ASSERT); P(MPI_ERR_RMA_RANGE);
    P(MPI_ERR_RMA_ATTACH); P(MPI_ERR_RMA_SHARED); P(MPI_ERR_RMA_FLAVOR);
    P(MPI_T_ERR_MEMORY); P(MPI_T_ERR_NOT_INITIALIZED); P(MPI_T_ERR_CANNOT_INIT);
    P(MPI_T_ERR_INVALID_INDEX); P(MPI_T_ERR_INVALID_ITEM); P(MPI_T_ERR_INVALID_HANDLE);
    P(MPI_T_ERR_OUT_OF_HANDLES); P(MPI_T_ERR_OUT_OF_SESSIONS); P(MPI_T_ERR_INVALID_SESSION);
    P(MPI_T_ERR_CVAR_SET_NOT_NOW); P(MPI_T_ERR_CVAR_SET_NEVER); P(MPI_T_ERR_PVAR_NO_STARTSTOP);
    P(MPI_T_ERR_PVAR_NO_WRITE); P(MPI_T_ERR_PVAR_NO_ATOMIC); P(MPI_T_ERR_INVALID_NAME);
    P(MPI_T_ERR_INVALID); P(MPI_ERR_SESSION); P(MPI_ERR_PROC_ABORTED);
    P(MPI_ERR_VALUE_TOO_LARGE); P(MPI_T_ERR_NOT_SUPPORTED); P(MPI_ERR_LASTCODE);

    /* Pointer-valued constants (MPI_DUP_FN and friends name a library function, and
       MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY / MPI_F_STATUS(ES)_IGNORE are library data: those
       need the library, so only their types are used here). */
    PTR(MPI_BOTTOM); PTR(MPI_IN_PLACE); PTR(MPI_STATUS_IGNORE); PTR(MPI_STATUSES_IGNORE);
    PTR(MPI_ERRCODES_IGNORE); PTR(MPI_ARGV_NULL); PTR(MPI_ARGVS_NULL); PTR(MPI_FILE_NULL);
    PTR(MPI_NULL_COPY_FN); PTR(MPI_NULL_DELETE_FN);
    PTR(MPI_COMM_NULL_COPY_FN); PTR(MPI_COMM_NULL_DELETE_FN);
    PTR(MPI_TYPE_NULL_COPY_FN); PTR(MPI_TYPE_NULL_DELETE_FN);
    PTR(MPI_WIN_NULL_COPY_FN); PTR(MPI_WIN_NULL_DELETE_FN);
    PTR(MPI_CONVERSION_FN_NULL);
    printf("sizeof(MPI_UNWEIGHTED) %zu\n", sizeof(MPI_UNWEIGHTED));
    printf("sizeof(*MPI_F_STATUS_IGNORE) %zu\n", sizeof(*MPI_F_STATUS_IGNORE));

    /* Handle conversion macros. */
    P(MPI_Comm_c2f(MPI_COMM_WORLD)); P(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)));
    P(MPI_Op_c2f(MPI_SUM)); P(MPI_Request_c2f(MPI_REQUEST_NULL)); P(MPI_Info_c2f(MPI_INFO_ENV));

    /* Types. */
    SIZE(MPI_Comm); SIZE(MPI_Group); SIZE(MPI_Datatype); SIZE(MPI_Op); SIZE(MPI_Errhandler);
    SIZE(MPI_Request); SIZE(MPI_Win); SIZE(MPI_Info); SIZE(MPI_Message); SIZE(MPI_Session);
    SIZE(MPI_File); SIZE(MPI_Aint); SIZE(MPI_Offset); SIZE(MPI_Count); SIZE(MPI_Fint);
    SIGNED(MPI_Comm); SIGNED(MPI_Datatype); SIGNED(MPI_Aint); SIGNED(MPI_Offset);
    SIGNED(MPI_Count); SIGNED(MPI_Fint);
    SIZE(MPI_Status);
    OFFSET(count_lo); OFFSET(count_hi_and_cancelled); OFFSET(MPI_SOURCE); OFFSET(MPI_TAG);
    OFFSET(MPI_ERROR);

    return 0;
}
