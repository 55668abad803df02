/* op_table: every predefined reduction operation on every type group MPI-3.1 §5.9.2 defines
 * it for (C integer, Fortran integer, floating point, logical, complex, byte, multi-language
 * integers) must succeed under MPI_Allreduce and give the right value; a few pairs the
 * standard leaves undefined (and MPICH refuses) must return MPI_ERR_OP.
 * Ranks contribute small values so sums and products fit every width. */
#include "check.h"
#include <complex.h>
#include <stdbool.h>

static int rank, size;

/* |re| + |im|: enough for a tolerance, and no libm needed. */
static double mag(double _Complex z)
{
    double re = creal(z), im = cimag(z);
    return (re < 0 ? -re : re) + (im < 0 ? -im : im);
}

/* Expected results over ranks 0..size-1 contributing v(r) = r + 1 (arith) or bit r % 7
 * | 0x10 (bitwise) or r % 2 (logical). */
static long long exp_int(MPI_Op op)
{
    long long acc = 0;
    int r;
    for (r = 0; r < size; r++) {
        long long v = r + 1, b = (1LL << (r % 7)) | 0x10, l = r % 2;
        if (op == MPI_SUM)
            acc = r ? acc + v : v;
        else if (op == MPI_PROD)
            acc = r ? acc * v : v;
        else if (op == MPI_MAX)
            acc = r ? (v > acc ? v : acc) : v;
        else if (op == MPI_MIN)
            acc = r ? (v < acc ? v : acc) : v;
        else if (op == MPI_BAND)
            acc = r ? (acc & b) : b;
        else if (op == MPI_BOR)
            acc = r ? (acc | b) : b;
        else if (op == MPI_BXOR)
            acc = r ? (acc ^ b) : b;
        else if (op == MPI_LAND)
            acc = r ? (acc && l) : l;
        else if (op == MPI_LOR)
            acc = r ? (acc || l) : l;
        else if (op == MPI_LXOR)
            acc = r ? (!acc != !l) : l;
    }
    return acc;
}

static long long my_int(MPI_Op op)
{
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return (1LL << (rank % 7)) | 0x10;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return rank % 2;
    return rank + 1;
}

#define INT_CASE(T, DT, OP)                                                             \
    do {                                                                                \
        T in[3], out[3];                                                                \
        int i_;                                                                         \
        for (i_ = 0; i_ < 3; i_++)                                                      \
            in[i_] = (T)my_int(OP);                                                     \
        CHECK_MPI(MPI_Allreduce(in, out, 3, DT, OP, MPI_COMM_WORLD));                   \
        for (i_ = 0; i_ < 3; i_++)                                                      \
            CHECK(out[i_] == (T)exp_int(OP), "%s on %s: got %lld, want %lld", #OP, #DT, \
                  (long long)out[i_], (long long)(T)exp_int(OP));                       \
        checked++;                                                                      \
    } while (0)

#define INT_TYPE(T, DT)                                                                 \
    do {                                                                                \
        INT_CASE(T, DT, MPI_MAX);                                                       \
        INT_CASE(T, DT, MPI_MIN);                                                       \
        INT_CASE(T, DT, MPI_SUM);                                                       \
        INT_CASE(T, DT, MPI_PROD);                                                      \
        INT_CASE(T, DT, MPI_LAND);                                                      \
        INT_CASE(T, DT, MPI_LOR);                                                       \
        INT_CASE(T, DT, MPI_LXOR);                                                      \
        INT_CASE(T, DT, MPI_BAND);                                                      \
        INT_CASE(T, DT, MPI_BOR);                                                       \
        INT_CASE(T, DT, MPI_BXOR);                                                      \
    } while (0)

#define FLOAT_TYPE(T, DT)                                                               \
    do {                                                                                \
        INT_CASE(T, DT, MPI_MAX);                                                       \
        INT_CASE(T, DT, MPI_MIN);                                                       \
        INT_CASE(T, DT, MPI_SUM);                                                       \
        INT_CASE(T, DT, MPI_PROD);                                                      \
    } while (0)

#define LOGICAL_TYPE(T, DT)                                                             \
    do {                                                                                \
        INT_CASE(T, DT, MPI_LAND);                                                      \
        INT_CASE(T, DT, MPI_LOR);                                                       \
        INT_CASE(T, DT, MPI_LXOR);                                                      \
    } while (0)

#define BYTE_TYPE(T, DT)                                                                \
    do {                                                                                \
        INT_CASE(T, DT, MPI_BAND);                                                      \
        INT_CASE(T, DT, MPI_BOR);                                                       \
        INT_CASE(T, DT, MPI_BXOR);                                                      \
    } while (0)

#define COMPLEX_CASE(T, DT, OP)                                                         \
    do {                                                                                \
        T in = (T)my_int(OP) + (T)(2 * I), out;                                         \
        long long re = exp_int(OP);                                                     \
        CHECK_MPI(MPI_Allreduce(&in, &out, 1, DT, OP, MPI_COMM_WORLD));                 \
        if (OP == MPI_SUM) {                                                            \
            CHECK(creal(out) == re && cimag(out) == 2.0 * size, "SUM on %s", #DT);      \
        } else {                                                                        \
            T want = 1;                                                                 \
            int r_;                                                                     \
            for (r_ = 0; r_ < size; r_++)                                               \
                want *= (T)(r_ + 1) + (T)(2 * I);                                       \
            CHECK(mag(out - want) <= 1e-3 * mag(want), "PROD on %s", #DT);              \
        }                                                                               \
        checked++;                                                                      \
    } while (0)

static void expect_op_error(void *buf, MPI_Datatype dt, MPI_Op op, const char *what)
{
    char out[64];
    int rc = MPI_Allreduce(buf, out, 1, dt, op, MPI_COMM_WORLD), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "%s: want MPI_ERR_OP, got class %d", what, cls);
}

int main(int argc, char **argv)
{
    int checked = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* C integer */
    INT_TYPE(int, MPI_INT);
    INT_TYPE(long, MPI_LONG);
    INT_TYPE(short, MPI_SHORT);
    INT_TYPE(unsigned short, MPI_UNSIGNED_SHORT);
    INT_TYPE(unsigned, MPI_UNSIGNED);
    INT_TYPE(unsigned long, MPI_UNSIGNED_LONG);
    INT_TYPE(long long, MPI_LONG_LONG_INT);
    INT_TYPE(long long, MPI_LONG_LONG);
    INT_TYPE(unsigned long long, MPI_UNSIGNED_LONG_LONG);
    INT_TYPE(signed char, MPI_SIGNED_CHAR);
    INT_TYPE(unsigned char, MPI_UNSIGNED_CHAR);
    INT_TYPE(int8_t, MPI_INT8_T);
    INT_TYPE(int16_t, MPI_INT16_T);
    INT_TYPE(int32_t, MPI_INT32_T);
    INT_TYPE(int64_t, MPI_INT64_T);
    INT_TYPE(uint8_t, MPI_UINT8_T);
    INT_TYPE(uint16_t, MPI_UINT16_T);
    INT_TYPE(uint32_t, MPI_UINT32_T);
    INT_TYPE(uint64_t, MPI_UINT64_T);
    /* Fortran integer (INTEGER is a C int here) */
    INT_TYPE(int, MPI_INTEGER);
    INT_TYPE(int8_t, MPI_INTEGER1);
    INT_TYPE(int16_t, MPI_INTEGER2);
    INT_TYPE(int32_t, MPI_INTEGER4);
    INT_TYPE(int64_t, MPI_INTEGER8);
    /* multi-language integers */
    INT_TYPE(MPI_Aint, MPI_AINT);
    INT_TYPE(MPI_Offset, MPI_OFFSET);
    INT_TYPE(MPI_Count, MPI_COUNT);
    /* floating point */
    FLOAT_TYPE(float, MPI_FLOAT);
    FLOAT_TYPE(double, MPI_DOUBLE);
    FLOAT_TYPE(long double, MPI_LONG_DOUBLE);
    FLOAT_TYPE(float, MPI_REAL);
    FLOAT_TYPE(double, MPI_DOUBLE_PRECISION);
    FLOAT_TYPE(float, MPI_REAL4);
    FLOAT_TYPE(double, MPI_REAL8);
    /* logical */
    LOGICAL_TYPE(bool, MPI_C_BOOL);
    LOGICAL_TYPE(int, MPI_LOGICAL);
    /* byte: the bitwise operations only (item of issue 11: BAND/BOR/BXOR refused) */
    BYTE_TYPE(unsigned char, MPI_BYTE);
    /* complex: SUM and PROD */
    COMPLEX_CASE(float _Complex, MPI_C_FLOAT_COMPLEX, MPI_SUM);
    COMPLEX_CASE(float _Complex, MPI_C_FLOAT_COMPLEX, MPI_PROD);
    COMPLEX_CASE(double _Complex, MPI_C_DOUBLE_COMPLEX, MPI_SUM);
    COMPLEX_CASE(double _Complex, MPI_C_DOUBLE_COMPLEX, MPI_PROD);
    COMPLEX_CASE(float _Complex, MPI_COMPLEX, MPI_SUM);
    COMPLEX_CASE(double _Complex, MPI_DOUBLE_COMPLEX, MPI_PROD);

    /* undefined pairs */
    {
        double d[4] = {0};
        expect_op_error(d, MPI_BYTE, MPI_SUM, "SUM on MPI_BYTE");
        expect_op_error(d, MPI_BYTE, MPI_MAX, "MAX on MPI_BYTE");
        expect_op_error(d, MPI_DOUBLE, MPI_BAND, "BAND on MPI_DOUBLE");
        expect_op_error(d, MPI_C_DOUBLE_COMPLEX, MPI_MAX, "MAX on MPI_C_DOUBLE_COMPLEX");
        expect_op_error(d, MPI_INT, MPI_MAXLOC, "MAXLOC on MPI_INT");
    }
    CHECK(checked > 300, "only %d cases ran", checked);
    ct_ok("op_table");
    MPI_Finalize();
    return 0;
}
