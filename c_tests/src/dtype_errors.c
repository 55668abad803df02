/* Datatype errors under MPI_ERRORS_RETURN: the error class of each bad call.
 *
 * Where MPI says a call is erroneous but MPICH 4.0.2 does not check (it accepts a subarray
 * larger than its array, packs into a buffer that is too small, or crashes on a malformed
 * darray), railmpi reports the error and the check says so: on MPICH such a call must either
 * succeed or fail with the named class; the malformed darrays are tried on railmpi only.
 */
#include "check.h"

static int railmpi;

static const char *class_name(int c)
{
    switch (c) {
    case MPI_ERR_COUNT:
        return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE:
        return "MPI_ERR_TYPE";
    case MPI_ERR_ARG:
        return "MPI_ERR_ARG";
    case MPI_ERR_TRUNCATE:
        return "MPI_ERR_TRUNCATE";
    case MPI_ERR_RANK:
        return "MPI_ERR_RANK";
    case MPI_ERR_COMM:
        return "MPI_ERR_COMM";
    case MPI_ERR_OTHER:
        return "MPI_ERR_OTHER";
    default:
        return "?";
    }
}

static int class_of(int rc)
{
    int c = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

/* The call failed with class `want`. */
#define EXPECT(call, want)                                                                  \
    do {                                                                                    \
        int c_ = class_of(call);                                                            \
        CHECK(c_ == (want), "%s: class %d, expected %d (%s)", #call, c_, (want),            \
              class_name(want));                                                            \
    } while (0)

/* railmpi: failed with `want`. MPICH (which does not check this): success, or `want`, or
 * `alt`. A type the call made anyway is freed (`made`, when not NULL). */
static void strict(const char *what, int rc, int want, int alt, MPI_Datatype *made)
{
    int c = class_of(rc);
    if (railmpi)
        CHECK(c == want, "%s: class %d, expected %d (%s)", what, c, want, class_name(want));
    else
        CHECK(c == MPI_SUCCESS || c == want || c == alt, "%s: class %d", what, c);
    if (c == MPI_SUCCESS && made)
        MPI_Type_free(made);
}
#define EXPECT_STRICT(call, want, alt, made) strict(#call, (call), want, alt, made)

static void counts(void)
{
    MPI_Datatype t;
    int bl[2] = {1, -1}, d[2] = {0, 4};
    MPI_Aint ad[2] = {0, 8};
    MPI_Datatype tys[2] = {MPI_INT, MPI_DOUBLE};
    EXPECT(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_vector(-1, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_vector(1, -1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_hvector(-2, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_hvector(2, -1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_indexed(-1, bl, d, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_indexed(2, bl, d, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_hindexed(2, bl, ad, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_indexed_block(1, -1, d, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_indexed_block(-1, 1, d, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_hindexed_block(1, -1, ad, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_hindexed_block(-1, 1, ad, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_struct(2, bl, ad, tys, &t), MPI_ERR_COUNT);
    EXPECT(MPI_Type_create_struct(-1, bl, ad, tys, &t), MPI_ERR_COUNT);
    int ps;
    EXPECT(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &ps), MPI_ERR_COUNT);
    char buf[64];
    int in[4] = {1, 2, 3, 4}, pos = 0;
    EXPECT(MPI_Pack(in, -1, MPI_INT, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Unpack(buf, 64, &pos, in, -1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    /* A NULL array with a positive count. */
    EXPECT(MPI_Type_indexed(1, NULL, d, MPI_INT, &t), MPI_ERR_ARG);
}

static void null_types(void)
{
    MPI_Datatype t, N = MPI_DATATYPE_NULL;
    int one[1] = {1}, zero[1] = {0};
    MPI_Aint azero[1] = {0};
    MPI_Datatype tys[2] = {MPI_INT, MPI_DATATYPE_NULL};
    EXPECT(MPI_Type_contiguous(2, N, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_vector(2, 1, 2, N, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_hvector(2, 1, 16, N, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_indexed(1, one, zero, N, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_hindexed(1, one, azero, N, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_indexed_block(1, 1, zero, N, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_hindexed_block(1, 1, azero, N, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, tys, &t),
           MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_resized(N, 0, 8, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_dup(N, &t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_subarray(1, (int[]){4}, (int[]){2}, (int[]){0}, MPI_ORDER_C, N, &t),
           MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_darray(1, 0, 1, (int[]){4}, (int[]){MPI_DISTRIBUTE_BLOCK},
                                  (int[]){MPI_DISTRIBUTE_DFLT_DARG}, (int[]){1}, MPI_ORDER_C,
                                  N, &t),
           MPI_ERR_TYPE);
    /* Queries on the null handle. */
    int n;
    MPI_Aint lb, ext;
    EXPECT(MPI_Type_size(N, &n), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_extent(N, &lb, &ext), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_true_extent(N, &lb, &ext), MPI_ERR_TYPE);
    int a, b, c, d;
    EXPECT(MPI_Type_get_envelope(N, &a, &b, &c, &d), MPI_ERR_TYPE);
    EXPECT(MPI_Type_commit(&N), MPI_ERR_TYPE);
}

static void subarrays(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int sizes[2] = {4, 4}, sub[2] = {2, 2}, st[2] = {0, 0};
    EXPECT(MPI_Type_create_subarray(2, sizes, sub, st, 12345, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_subarray(-1, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_STRICT(MPI_Type_create_subarray(0, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t),
                  MPI_ERR_ARG, MPI_ERR_ARG, &t);
    sizes[0] = 0;
    EXPECT_STRICT(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t),
                  MPI_ERR_ARG, MPI_ERR_ARG, &t);
    sizes[0] = 4;
    sub[1] = 5;
    EXPECT_STRICT(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t),
                  MPI_ERR_ARG, MPI_ERR_ARG, &t);
    sub[1] = 2;
    sub[0] = -1;
    EXPECT_STRICT(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t),
                  MPI_ERR_ARG, MPI_ERR_COUNT, &t);
    sub[0] = 2;
    st[0] = -1;
    EXPECT_STRICT(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_FORTRAN, MPI_INT, &t),
                  MPI_ERR_ARG, MPI_ERR_COUNT, &t);
    st[0] = 3; /* 3 + 2 > 4 */
    EXPECT_STRICT(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t),
                  MPI_ERR_ARG, MPI_ERR_ARG, &t);
    st[0] = 2; /* fits exactly */
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t));
    CHECK_MPI(MPI_Type_free(&t));
}

static void darrays(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    const int D = MPI_DISTRIBUTE_DFLT_DARG, B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC,
              N = MPI_DISTRIBUTE_NONE;
    int g[2] = {4, 6}, d[2] = {B, C}, a[2] = {D, 2}, p[2] = {2, 2};
    EXPECT(MPI_Type_create_darray(4, 4, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_RANK);
    EXPECT(MPI_Type_create_darray(4, -1, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_RANK);
    EXPECT(MPI_Type_create_darray(4, 0, 2, g, d, a, p, 77, MPI_INT, &t), MPI_ERR_ARG);
    if (!railmpi)
        return; /* MPICH 4.0.2 crashes on the following */
    EXPECT(MPI_Type_create_darray(4, 0, 0, g, d, a, p, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_create_darray(4, 0, 2, g, d, a, (int[]){2, 3}, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG);
    EXPECT(MPI_Type_create_darray(4, 0, 2, (int[]){0, 6}, d, a, p, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG);
    EXPECT(MPI_Type_create_darray(4, 0, 2, g, (int[]){B, 99}, a, p, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG);
    EXPECT(MPI_Type_create_darray(4, 0, 2, g, d, (int[]){1, 2}, p, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG);
    EXPECT(MPI_Type_create_darray(4, 0, 2, g, d, (int[]){D, 0}, p, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG);
    EXPECT(MPI_Type_create_darray(4, 0, 2, g, (int[]){N, C}, a, p, MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG);
}

static void pack_errors(void)
{
    /* The buffer is larger than the sizes passed, so a library that does not check the
     * size cannot write out of bounds. */
    char buf[64];
    int in[4] = {1, 2, 3, 4}, out[4], pos = 0;
    EXPECT_STRICT(MPI_Pack(in, 4, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                  MPI_ERR_TRUNCATE, NULL);
    if (railmpi)
        CHECK(pos == 0, "a failed MPI_Pack moved the position to %d", pos);
    pos = 6;
    EXPECT_STRICT(MPI_Pack(in, 1, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                  MPI_ERR_TRUNCATE, NULL);
    pos = 0;
    CHECK_MPI(MPI_Pack(in, 2, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD));
    CHECK(pos == 8, "position %d", pos);
    pos = 0;
    EXPECT_STRICT(MPI_Unpack(buf, 4, &pos, out, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                  MPI_ERR_TRUNCATE, NULL);
    pos = 0;
    EXPECT(MPI_Pack(in, 1, MPI_INT, buf, -1, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    EXPECT(MPI_Pack(NULL, 1, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    EXPECT(MPI_Pack(in, 1, MPI_INT, buf, 8, &pos, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Pack(in, 1, MPI_DATATYPE_NULL, buf, 8, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    int ps;
    EXPECT(MPI_Pack_size(1, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &ps), MPI_ERR_TYPE);
}

static void uncommitted(void)
{
    MPI_Datatype v;
    int b[8] = {0}, ps, pos = 0, rank;
    char buf[64];
    MPI_Request rq;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    EXPECT(MPI_Send(b, 1, v, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Isend(b, 1, v, rank, 0, MPI_COMM_WORLD, &rq), MPI_ERR_TYPE);
    EXPECT(MPI_Recv(b, 1, v, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TYPE);
    EXPECT(MPI_Irecv(b, 1, v, rank, 0, MPI_COMM_WORLD, &rq), MPI_ERR_TYPE);
    EXPECT(MPI_Bcast(b, 1, v, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Pack(b, 1, v, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Pack_size(1, v, MPI_COMM_WORLD, &ps), MPI_ERR_TYPE);
    /* Queries work on uncommitted types. */
    int n;
    CHECK_MPI(MPI_Type_size(v, &n));
    CHECK(n == 8, "size %d", n);
    CHECK_MPI(MPI_Type_commit(&v));
    CHECK_MPI(MPI_Pack_size(1, v, MPI_COMM_WORLD, &ps));
    CHECK(ps == 8, "Pack_size %d", ps);
    CHECK_MPI(MPI_Type_free(&v));
}

static void predefined(void)
{
    MPI_Datatype t;
    int ints[4];
    MPI_Aint addrs[4];
    MPI_Datatype types[4];
    t = MPI_INT;
    EXPECT(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK(t == MPI_INT, "a failed free changed the handle");
    t = MPI_FLOAT_INT;
    EXPECT(MPI_Type_free(&t), MPI_ERR_TYPE);
    t = MPI_LB;
    EXPECT(MPI_Type_free(&t), MPI_ERR_TYPE);
    t = MPI_DATATYPE_NULL;
    EXPECT(MPI_Type_free(&t), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_contents(MPI_INT, 4, 4, 4, ints, addrs, types), MPI_ERR_TYPE);
    EXPECT(MPI_Type_get_contents(MPI_DOUBLE_INT, 4, 4, 4, ints, addrs, types), MPI_ERR_TYPE);
    /* Arrays too small for the contents. */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
    EXPECT(MPI_Type_get_contents(t, 1, 0, 1, ints, addrs, types), MPI_ERR_OTHER);
    CHECK_MPI(MPI_Type_free(&t));
    /* Committing a predefined type is allowed. */
    t = MPI_DOUBLE;
    CHECK_MPI(MPI_Type_commit(&t));
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG);
    EXPECT(MPI_Type_match_size(99, 4, &t), MPI_ERR_ARG);
}

static void elements(void)
{
    MPI_Status st;
    int x = 5, y, n;
    CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, 0, 1, &y, 1, MPI_INT, 0, 1, MPI_COMM_SELF, &st));
    EXPECT(MPI_Get_elements(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    EXPECT(MPI_Get_count(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
}

int main(int argc, char **argv)
{
    char ver[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Init(&argc, &argv);
    MPI_Get_library_version(ver, &len);
    railmpi = strncmp(ver, "railmpi", 7) == 0;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    counts();
    null_types();
    subarrays();
    darrays();
    pack_errors();
    uncommitted();
    predefined();
    elements();
    ct_ok("dtype_errors");
    MPI_Finalize();
    return 0;
}
