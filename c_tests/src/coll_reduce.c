/* coll_reduce: the reduction collectives (MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter,
 * MPI_Reduce_scatter_block, MPI_Scan, MPI_Exscan, MPI_Reduce_local) with every predefined
 * operation on MPI_INT, MPI_DOUBLE, MPI_CHAR and MPI_UNSIGNED_CHAR (the operations MPI
 * defines on each), MAXLOC/MINLOC on MPI_DOUBLE_INT and MPI_2INT (ties resolved to the
 * lower index), counts 0, 1, odd and >= 1 MiB, roots first/middle/last, MPI_IN_PLACE
 * variants, and user operations: an integer sum (commutative) and 2x2 matrix products
 * modulo a prime on a contiguous 4-int type and on a strided one (not commutative: the
 * result must be M0*M1*...*M(n-1) in rank order; the strided type reaches the user function
 * in its own layout, gaps untouched). MAXLOC/MINLOC also on MPI_SHORT_INT (padded); long
 * double, long double complex and MPI_LONG_DOUBLE_INT in extended precision. Every element is
 * compared with a serial computation.
 * Values are small integers, so floating-point results are exact. */
#include "check.h"

static int rank, size;

enum { SUM, PROD, MAX, MIN, LAND, LOR, LXOR, BAND, BOR, BXOR, NOPS };
static const char *opname[NOPS] = {"SUM", "PROD", "MAX", "MIN", "LAND",
                                   "LOR", "LXOR", "BAND", "BOR", "BXOR"};
static MPI_Op opof(int o)
{
    static const MPI_Op ops[NOPS] = {MPI_SUM, MPI_PROD, MPI_MAX,  MPI_MIN, MPI_LAND,
                                     MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    return ops[o];
}

/* Value of rank r at index i for operation o (small, so no type overflows but PROD's,
 * which wraps the same way in the serial computation). */
static int val(int r, int i, int o, int is_unsigned)
{
    switch (o) {
    case SUM:
        return is_unsigned ? (r * 7 + i * 3) % 11 : (r * 7 + i * 3) % 11 - 5;
    case PROD: {
        int m = (r + i) % 5;
        return m == 0 ? 2 : (m == 1 && !is_unsigned ? -1 : 1);
    }
    case MAX:
    case MIN:
        return is_unsigned ? (r * 37 + i * 11) % 101 : (r * 37 + i * 11) % 101 - 50;
    case LAND:
    case LOR:
    case LXOR:
        return (r + i) % 3 == 0 ? 0 : r + 1;
    default:
        return (r * 29 + i * 13) & 0x7f;
    }
}

/* Serial fold over ranks [0, upto) at index i, in type T; done as macros per type. */
#define DEFINE_TYPE(T, NAME, MPIT, UNS, NOPS_OK)                                                   \
    static T fold_##NAME(int o, int i, int upto)                                                 \
    {                                                                                            \
        T acc = (T)val(0, i, o, UNS);                                                            \
        for (int r = 1; r < upto; r++) {                                                         \
            T x = (T)val(r, i, o, UNS);                                                          \
            switch (o) {                                                                         \
            case SUM: acc = (T)(acc + x); break;                                                 \
            case PROD: acc = (T)(acc * x); break;                                                \
            case MAX: acc = x > acc ? x : acc; break;                                            \
            case MIN: acc = x < acc ? x : acc; break;                                            \
            case LAND: acc = (T)(acc && x); break;                                               \
            case LOR: acc = (T)(acc || x); break;                                                \
            case LXOR: acc = (T)(!acc != !x); break;                                             \
            case BAND: acc = (T)((long)acc & (long)x); break;                                    \
            case BOR: acc = (T)((long)acc | (long)x); break;                                     \
            default: acc = (T)((long)acc ^ (long)x); break;                                      \
            }                                                                                    \
        }                                                                                        \
        return acc;                                                                              \
    }                                                                                            \
    static void fill_##NAME(T *b, int o, int n, int r)                                           \
    {                                                                                            \
        for (int i = 0; i < n; i++)                                                              \
            b[i] = (T)val(r, i, o, UNS);                                                         \
    }                                                                                            \
    /* out[k] must be fold(index0 + k, upto) for k < n. */                                     \
    static void expect_##NAME(const T *out, int o, int index0, int n, int upto, const char *what, \
                              int c, int root)                                                   \
    {                                                                                            \
        for (int k = 0; k < n; k++) {                                                            \
            T w = fold_##NAME(o, index0 + k, upto);                                              \
            CHECK(out[k] == w, "%s %s %s count %d root %d: element %d is %g, expected %g", what, \
                  #MPIT, opname[o], c, root, k, (double)out[k], (double)w);                      \
        }                                                                                        \
    }                                                                                            \
    static void test_##NAME(int o, int c, int large)                                             \
    {                                                                                            \
        if (o >= (NOPS_OK))                                                                      \
            return;                                                                              \
        MPI_Op op = opof(o);                                                                     \
        size_t cap = (size_t)(c > 0 ? c : 1) * size + 8;                                         \
        T *in = malloc(cap * sizeof(T)), *out = malloc(cap * sizeof(T));                         \
        CHECK(in && out, "malloc");                                                              \
        /* Allreduce, then in place. */                                                         \
        for (int ip = 0; ip < 2; ip++) {                                                         \
            fill_##NAME(in, o, c, rank);                                                         \
            if (ip)                                                                              \
                fill_##NAME(out, o, c, rank);                                                    \
            else                                                                                 \
                memset(out, 0x5a, (size_t)c * sizeof(T));                                        \
            CHECK_MPI(MPI_Allreduce(ip ? MPI_IN_PLACE : (void *)in, out, c, MPIT, op,           \
                                    MPI_COMM_WORLD));                                            \
            expect_##NAME(out, o, 0, c, size, ip ? "Allreduce(IN_PLACE)" : "Allreduce", c, -1);  \
        }                                                                                        \
        /* Reduce to the first, middle and last rank; in place at odd test numbers. */         \
        int roots[3] = {0, size / 2, size - 1};                                                  \
        for (int k = 0; k < 3; k++) {                                                            \
            int root = roots[k];                                                                 \
            if (large && k == 1)                                                                 \
                continue;                                                                        \
            int ip = (k + o) % 2 == 1 && rank == root;                                           \
            fill_##NAME(in, o, c, rank);                                                         \
            if (ip)                                                                              \
                fill_##NAME(out, o, c, rank);                                                    \
            else                                                                                 \
                memset(out, 0x5a, (size_t)c * sizeof(T));                                        \
            CHECK_MPI(MPI_Reduce(ip ? MPI_IN_PLACE : (void *)in, out, c, MPIT, op, root,        \
                                 MPI_COMM_WORLD));                                               \
            if (rank == root)                                                                    \
                expect_##NAME(out, o, 0, c, size, "Reduce", c, root);                            \
            else                                                                                 \
                for (int i = 0; i < c; i++)                                                      \
                    CHECK(((unsigned char *)out)[i * sizeof(T)] == 0x5a,                         \
                          "Reduce wrote a non-root's receive buffer");                          \
        }                                                                                        \
        /* Scan and Exscan (in place for odd operations). */                                    \
        {                                                                                        \
            int ip = o % 2;                                                                      \
            fill_##NAME(in, o, c, rank);                                                         \
            if (ip)                                                                              \
                fill_##NAME(out, o, c, rank);                                                    \
            CHECK_MPI(MPI_Scan(ip ? MPI_IN_PLACE : (void *)in, out, c, MPIT, op,                \
                               MPI_COMM_WORLD));                                                 \
            expect_##NAME(out, o, 0, c, rank + 1, "Scan", c, -1);                                \
            if (!large) {                                                                        \
                if (ip)                                                                          \
                    fill_##NAME(out, o, c, rank);                                                \
                else                                                                             \
                    memset(out, 0x5a, (size_t)c * sizeof(T));                                    \
                CHECK_MPI(MPI_Exscan(ip ? MPI_IN_PLACE : (void *)in, out, c, MPIT, op,          \
                                     MPI_COMM_WORLD));                                           \
                if (rank > 0)                                                                    \
                    expect_##NAME(out, o, 0, c, rank, "Exscan", c, -1);                          \
            }                                                                                    \
        }                                                                                        \
        /* Reduce_scatter_block: blocks of c; in place for even operations. */                  \
        {                                                                                        \
            int bc = large ? c / size : c;                                                       \
            int ip = o % 2 == 0;                                                                 \
            fill_##NAME(in, o, bc * size, rank);                                                 \
            if (ip)                                                                              \
                fill_##NAME(out, o, bc * size, rank);                                            \
            CHECK_MPI(MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : (void *)in, out, bc, MPIT,   \
                                               op, MPI_COMM_WORLD));                             \
            expect_##NAME(out, o, rank * bc, bc, size, "Reduce_scatter_block", bc, -1);          \
        }                                                                                        \
        /* Reduce_scatter with uneven counts (some zero). */                                    \
        if (!large) {                                                                            \
            int *rc = malloc(size * sizeof(int)), tot = 0, before = 0;                           \
            for (int i = 0; i < size; i++) {                                                     \
                rc[i] = (i % 3 == 1) ? 0 : c / 2 + i;                                            \
                if (i < rank)                                                                    \
                    before += rc[i];                                                             \
                tot += rc[i];                                                                    \
            }                                                                                    \
            T *in2 = malloc((tot + 1) * sizeof(T)), *out2 = malloc((tot + 1) * sizeof(T));      \
            int ip = o % 2 == 1;                                                                 \
            fill_##NAME(in2, o, tot, rank);                                                      \
            if (ip)                                                                              \
                fill_##NAME(out2, o, tot, rank);                                                 \
            CHECK_MPI(MPI_Reduce_scatter(ip ? MPI_IN_PLACE : (void *)in2, out2, rc, MPIT, op,   \
                                         MPI_COMM_WORLD));                                       \
            expect_##NAME(out2, o, before, rc[rank], size, "Reduce_scatter", rc[rank], -1);      \
            free(rc);                                                                            \
            free(in2);                                                                           \
            free(out2);                                                                          \
        }                                                                                        \
        /* Reduce_local: out = in(rank 1's values) op out(rank 0's values). */                  \
        if (!large && size >= 2) {                                                               \
            fill_##NAME(in, o, c, 1);                                                            \
            fill_##NAME(out, o, c, 0);                                                           \
            CHECK_MPI(MPI_Reduce_local(in, out, c, MPIT, op));                                   \
            expect_##NAME(out, o, 0, c, 2, "Reduce_local", c, -1);                               \
        }                                                                                        \
        free(in);                                                                                \
        free(out);                                                                               \
    }

/* The operations each type is tested with: all on integers, the arithmetic ones on
 * MPI_DOUBLE and MPI_CHAR. */
DEFINE_TYPE(int, int, MPI_INT, 0, NOPS)
DEFINE_TYPE(double, double, MPI_DOUBLE, 0, LAND)
DEFINE_TYPE(char, char, MPI_CHAR, 0, LAND)
DEFINE_TYPE(unsigned char, uchar, MPI_UNSIGNED_CHAR, 1, NOPS)

/* ---------------------------------------------------------------- MAXLOC / MINLOC */

struct dint {
    double v;
    int i;
};
struct iint {
    int v;
    int i;
};
struct sint {
    short v;
    int i;
};

static double locv(int r, int i) { return (double)((r * 7 + i * 3) % 5); }
static int loci(int r, int i) { return (r * 5 + i) % (size + 3); }

static void test_loc(int c)
{
    struct dint *a = malloc((c + 1) * sizeof *a), *b = malloc((c + 1) * sizeof *b);
    struct iint *x = malloc((c + 1) * sizeof *x), *y = malloc((c + 1) * sizeof *y);
    struct sint *p = malloc((c + 1) * sizeof *p), *q = malloc((c + 1) * sizeof *q);
    CHECK(a && b && x && y && p && q, "malloc");
    for (int maxloc = 0; maxloc < 2; maxloc++) {
        MPI_Op op = maxloc ? MPI_MAXLOC : MPI_MINLOC;
        for (int coll = 0; coll < 3; coll++) { /* Allreduce, Reduce (middle root), Scan */
            int root = size / 2;
            for (int i = 0; i < c; i++) {
                a[i].v = locv(rank, i);
                a[i].i = loci(rank, i);
                x[i].v = (int)locv(rank, i) - 2;
                x[i].i = loci(rank, i);
                p[i].v = (short)(locv(rank, i) * 100);
                p[i].i = loci(rank, i);
            }
            if (coll == 0) {
                CHECK_MPI(MPI_Allreduce(a, b, c, MPI_DOUBLE_INT, op, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Allreduce(x, y, c, MPI_2INT, op, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Allreduce(p, q, c, MPI_SHORT_INT, op, MPI_COMM_WORLD));
            } else if (coll == 1) {
                CHECK_MPI(MPI_Reduce(a, b, c, MPI_DOUBLE_INT, op, root, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Reduce(x, y, c, MPI_2INT, op, root, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Reduce(p, q, c, MPI_SHORT_INT, op, root, MPI_COMM_WORLD));
                if (rank != root)
                    continue;
            } else {
                CHECK_MPI(MPI_Scan(a, b, c, MPI_DOUBLE_INT, op, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Scan(x, y, c, MPI_2INT, op, MPI_COMM_WORLD));
                CHECK_MPI(MPI_Scan(p, q, c, MPI_SHORT_INT, op, MPI_COMM_WORLD));
            }
            int upto = coll == 2 ? rank + 1 : size;
            for (int i = 0; i < c; i++) {
                double bv = locv(0, i);
                int bi = loci(0, i);
                for (int r = 1; r < upto; r++) {
                    double v = locv(r, i);
                    int ix = loci(r, i);
                    int better = maxloc ? v > bv : v < bv;
                    if (better || (v == bv && ix < bi)) {
                        bv = v;
                        bi = ix;
                    }
                }
                CHECK(b[i].v == bv && b[i].i == bi,
                      "%s DOUBLE_INT coll %d count %d: element %d is (%g,%d), expected (%g,%d)",
                      maxloc ? "MAXLOC" : "MINLOC", coll, c, i, b[i].v, b[i].i, bv, bi);
                CHECK(y[i].v == (int)bv - 2 && y[i].i == bi,
                      "%s 2INT coll %d count %d: element %d is (%d,%d), expected (%d,%d)",
                      maxloc ? "MAXLOC" : "MINLOC", coll, c, i, y[i].v, y[i].i, (int)bv - 2, bi);
                CHECK(q[i].v == (short)(bv * 100) && q[i].i == bi,
                      "%s SHORT_INT coll %d count %d: element %d is (%d,%d), expected (%d,%d)",
                      maxloc ? "MAXLOC" : "MINLOC", coll, c, i, q[i].v, q[i].i, (int)(bv * 100),
                      bi);
            }
        }
    }
    free(a);
    free(b);
    free(x);
    free(y);
    free(p);
    free(q);
}

/* ---------------------------------------------------------------- user operations */

#define P 1009
static MPI_Datatype mat_t;

/* Matrix k of rank r: entries depend on both, so products do not commute. */
static void mat_of(int r, int k, int *m)
{
    m[0] = (r * 3 + k) % 7 + 1;
    m[1] = (r * 5 + 2 * k) % 11;
    m[2] = (r * 2 + 3 * k) % 13;
    m[3] = (r + k) % 5 + 1;
}

static void mat_mul(const int *a, const int *b, int *c) /* c = a*b mod P */
{
    int t[4];
    t[0] = (a[0] * b[0] + a[1] * b[2]) % P;
    t[1] = (a[0] * b[1] + a[1] * b[3]) % P;
    t[2] = (a[2] * b[0] + a[3] * b[2]) % P;
    t[3] = (a[2] * b[1] + a[3] * b[3]) % P;
    memcpy(c, t, sizeof t);
}

static int matop_calls_bad;
static void matop(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    if (*dt != mat_t)
        matop_calls_bad++;
    int *a = in, *b = inout;
    for (int k = 0; k < *len; k++)
        mat_mul(a + 4 * k, b + 4 * k, b + 4 * k); /* inout = in * inout */
}

static void isum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int k = 0; k < *len; k++)
        b[k] += a[k];
}

/* Expected product of the matrices of ranks [lo, hi) at index k. */
static void mat_expect(int lo, int hi, int k, int *m)
{
    int x[4];
    mat_of(lo, k, m);
    for (int r = lo + 1; r < hi; r++) {
        mat_of(r, k, x);
        mat_mul(m, x, m);
    }
}

static void check_mats(const int *got, int index0, int n, int lo, int hi, const char *what)
{
    int w[4];
    for (int k = 0; k < n; k++) {
        mat_expect(lo, hi, index0 + k, w);
        CHECK(memcmp(got + 4 * k, w, sizeof w) == 0,
              "%s: matrix %d is [%d %d %d %d], expected [%d %d %d %d] (ranks %d..%d)", what, k,
              got[4 * k], got[4 * k + 1], got[4 * k + 2], got[4 * k + 3], w[0], w[1], w[2], w[3],
              lo, hi - 1);
    }
}

static void test_user_ops(void)
{
    MPI_Op mop, sop;
    int commute = -1;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &mat_t));
    CHECK_MPI(MPI_Type_commit(&mat_t));
    CHECK_MPI(MPI_Op_create(matop, 0, &mop));
    CHECK_MPI(MPI_Op_create(isum, 1, &sop));
    CHECK_MPI(MPI_Op_commutative(mop, &commute));
    CHECK(commute == 0, "MPI_Op_commutative(matrix op) = %d", commute);
    CHECK_MPI(MPI_Op_commutative(sop, &commute));
    CHECK(commute == 1, "MPI_Op_commutative(sum op) = %d", commute);
    CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1, "MPI_Op_commutative(MPI_SUM) = %d", commute);

    static const int counts[] = {1, 3, 100, 20000};
    for (int ci = 0; ci < 4; ci++) {
        int c = counts[ci];
        int *in = malloc((size_t)c * size * 4 * sizeof(int));
        int *out = malloc((size_t)c * size * 4 * sizeof(int));
        CHECK(in && out, "malloc");
        for (int k = 0; k < c * size; k++)
            mat_of(rank, k, in + 4 * k);
        char what[64];
        /* Reduce to first, middle, last (in place at the middle). */
        int roots[3] = {0, size / 2, size - 1};
        for (int j = 0; j < 3; j++) {
            int ip = j == 1 && rank == roots[j];
            if (ip)
                memcpy(out, in, (size_t)c * 4 * sizeof(int));
            CHECK_MPI(MPI_Reduce(ip ? MPI_IN_PLACE : in, out, c, mat_t, mop, roots[j],
                                 MPI_COMM_WORLD));
            snprintf(what, sizeof what, "matrix Reduce root %d count %d", roots[j], c);
            if (rank == roots[j])
                check_mats(out, 0, c, 0, size, what);
        }
        CHECK_MPI(MPI_Allreduce(in, out, c, mat_t, mop, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "matrix Allreduce count %d", c);
        check_mats(out, 0, c, 0, size, what);
        memcpy(out, in, (size_t)c * 4 * sizeof(int));
        CHECK_MPI(MPI_Scan(MPI_IN_PLACE, out, c, mat_t, mop, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "matrix Scan count %d", c);
        check_mats(out, 0, c, 0, rank + 1, what);
        CHECK_MPI(MPI_Exscan(in, out, c, mat_t, mop, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "matrix Exscan count %d", c);
        if (rank > 0)
            check_mats(out, 0, c, 0, rank, what);
        if (c <= 100) {
            CHECK_MPI(MPI_Reduce_scatter_block(in, out, c, mat_t, mop, MPI_COMM_WORLD));
            snprintf(what, sizeof what, "matrix Reduce_scatter_block count %d", c);
            check_mats(out, rank * c, c, 0, size, what);
            int *rc = malloc(size * sizeof(int)), before = 0;
            for (int i = 0; i < size; i++) {
                rc[i] = (c + i) % (c + 1);
                if (i < rank)
                    before += rc[i];
            }
            CHECK_MPI(MPI_Reduce_scatter(in, out, rc, mat_t, mop, MPI_COMM_WORLD));
            snprintf(what, sizeof what, "matrix Reduce_scatter count %d", c);
            check_mats(out, before, rc[rank], 0, size, what);
            free(rc);
            /* Reduce_local: out = in(rank 1's) * out(rank 0's), with rank 0's first. */
            for (int k = 0; k < c; k++) {
                mat_of(0, k, out + 4 * k);
                mat_of(1, k, in + 4 * k);
            }
            CHECK_MPI(MPI_Reduce_local(out, in, c, mat_t, mop));
            check_mats(in, 0, c, 0, 2, "matrix Reduce_local");
            for (int k = 0; k < c * size; k++)
                mat_of(rank, k, in + 4 * k);
        }

        /* Commutative user sum on ints against MPI_SUM, including a long vector. */
        int ic = c * 4 * (ci == 3 ? 4 : 1);
        int *a = malloc((size_t)ic * sizeof(int)), *b = malloc((size_t)ic * sizeof(int));
        int *s = malloc((size_t)ic * sizeof(int));
        for (int i = 0; i < ic; i++)
            a[i] = (rank * 7 + i) % 13 - 6;
        CHECK_MPI(MPI_Allreduce(a, b, ic, MPI_INT, sop, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Allreduce(a, s, ic, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        for (int i = 0; i < ic; i++)
            CHECK(b[i] == s[i], "user sum Allreduce count %d: element %d is %d, expected %d", ic,
                  i, b[i], s[i]);
        CHECK_MPI(MPI_Reduce(a, b, ic, MPI_INT, sop, size - 1, MPI_COMM_WORLD));
        if (rank == size - 1)
            for (int i = 0; i < ic; i++)
                CHECK(b[i] == s[i], "user sum Reduce count %d: element %d is %d, expected %d",
                      ic, i, b[i], s[i]);
        free(a);
        free(b);
        free(s);
        free(in);
        free(out);
    }
    CHECK(matop_calls_bad == 0, "the user function got a datatype other than its own %d times",
          matop_calls_bad);
    CHECK_MPI(MPI_Op_free(&mop));
    CHECK_MPI(MPI_Op_free(&sop));
    CHECK(mop == MPI_OP_NULL && sop == MPI_OP_NULL, "MPI_Op_free did not reset the handles");
    CHECK_MPI(MPI_Type_free(&mat_t));
}

/* Matrices stored in every other int: MPI_Type_vector(4, 1, 2, MPI_INT) resized to 8 ints.
 * The user function sees the data in that layout. */
static MPI_Datatype smat_t;

static void smatop(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    if (*dt != smat_t)
        matop_calls_bad++;
    for (int k = 0; k < *len; k++) {
        int *a = (int *)in + 8 * k, *b = (int *)inout + 8 * k, x[4], y[4];
        for (int j = 0; j < 4; j++) {
            x[j] = a[2 * j];
            y[j] = b[2 * j];
        }
        mat_mul(x, y, y);
        for (int j = 0; j < 4; j++)
            b[2 * j] = y[j];
    }
}

static void fill_smat(int *b, int n, int r, int gap)
{
    for (int k = 0; k < n; k++) {
        int m[4];
        mat_of(r, k, m);
        for (int j = 0; j < 4; j++) {
            b[8 * k + 2 * j] = m[j];
            b[8 * k + 2 * j + 1] = gap;
        }
    }
}

static void check_smats(const int *b, int index0, int n, int lo, int hi, const char *what)
{
    for (int k = 0; k < n; k++) {
        int m[4], w[4];
        for (int j = 0; j < 4; j++) {
            m[j] = b[8 * k + 2 * j];
            CHECK(b[8 * k + 2 * j + 1] == -2, "%s: gap of matrix %d overwritten", what, k);
        }
        mat_expect(lo, hi, index0 + k, w);
        CHECK(memcmp(m, w, sizeof w) == 0, "%s: matrix %d is [%d %d %d %d], expected [%d %d %d %d]",
              what, k, m[0], m[1], m[2], m[3], w[0], w[1], w[2], w[3]);
    }
}

/* A non-commutative user operation on a non-contiguous type. */
static void test_noncontig_ops(void)
{
    MPI_Datatype v;
    MPI_Op op;
    CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_resized(v, 0, 8 * sizeof(int), &smat_t));
    CHECK_MPI(MPI_Type_commit(&smat_t));
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Op_create(smatop, 0, &op));
    static const int counts[] = {1, 5, 300};
    char what[64];
    for (int ci = 0; ci < 3; ci++) {
        int c = counts[ci];
        int *in = malloc((size_t)c * size * 8 * sizeof(int));
        int *out = malloc((size_t)c * size * 8 * sizeof(int));
        fill_smat(in, c * size, rank, -1);
        fill_smat(out, c * size, 0, -2);
        CHECK_MPI(MPI_Allreduce(in, out, c, smat_t, op, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "strided-matrix Allreduce count %d", c);
        check_smats(out, 0, c, 0, size, what);
        fill_smat(out, c * size, 0, -2);
        CHECK_MPI(MPI_Reduce(in, out, c, smat_t, op, size / 2, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "strided-matrix Reduce count %d", c);
        if (rank == size / 2)
            check_smats(out, 0, c, 0, size, what);
        fill_smat(out, c * size, 0, -2);
        CHECK_MPI(MPI_Scan(in, out, c, smat_t, op, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "strided-matrix Scan count %d", c);
        check_smats(out, 0, c, 0, rank + 1, what);
        /* (Not MPI_Reduce_scatter_block: MPICH 4.0.2 gets it wrong for this type on
         * power-of-two sizes.) */
        free(in);
        free(out);
    }
    CHECK(matop_calls_bad == 0, "the user function got a datatype other than its own");
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Type_free(&smat_t));
}

/* ---------------------------------------------------------------- long double */

/* MPI_LONG_DOUBLE (x87 80-bit: 64 mantissa bits), MPI_LONG_DOUBLE_INT and
 * MPI_C_LONG_DOUBLE_COMPLEX. Values 2^58 + small need the extended mantissa: a reduction
 * done in double would round them. */
static void test_long_double(int count)
{
    long double *a = malloc((count + 1) * sizeof *a), *b = malloc((count + 1) * sizeof *b);
    CHECK(a && b, "malloc");
    const long double big = 288230376151711744.0L; /* 2^58: sums of 16 stay exact */
    for (int i = 0; i < count; i++)
        a[i] = big + (long double)((rank * 7 + i) % 13);
    CHECK_MPI(MPI_Allreduce(a, b, count, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++) {
        long double want = 0;
        for (int r = 0; r < size; r++)
            want += big + (long double)((r * 7 + i) % 13);
        CHECK(b[i] == want, "long double SUM count %d element %d: %Lf, expected %Lf", count, i,
              b[i], want);
    }
    for (int m = 0; m < 2; m++) {
        CHECK_MPI(MPI_Allreduce(a, b, count, MPI_LONG_DOUBLE, m ? MPI_MIN : MPI_MAX,
                                MPI_COMM_WORLD));
        for (int i = 0; i < count; i++) {
            long double want = big + (long double)(i % 13);
            for (int r = 0; r < size; r++) {
                long double v = big + (long double)((r * 7 + i) % 13);
                want = m ? (v < want ? v : want) : (v > want ? v : want);
            }
            CHECK(b[i] == want, "long double %s element %d", m ? "MIN" : "MAX", i);
        }
    }
    for (int i = 0; i < count; i++)
        a[i] = (rank + i) % 3 == 0 ? 2.0L : 1.0L;
    CHECK_MPI(MPI_Allreduce(a, b, count, MPI_LONG_DOUBLE, MPI_PROD, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++) {
        long double want = 1;
        for (int r = 0; r < size; r++)
            want *= (r + i) % 3 == 0 ? 2.0L : 1.0L;
        CHECK(b[i] == want, "long double PROD element %d", i);
    }

    struct { long double v; int i; } *p = malloc((count + 1) * sizeof *p), *q = malloc((count + 1) * sizeof *q);
    CHECK(p && q, "malloc");
    for (int i = 0; i < count; i++) {
        p[i].v = big + (long double)((rank * 5 + i) % (size + 1));
        p[i].i = rank;
    }
    CHECK_MPI(MPI_Allreduce(p, q, count, MPI_LONG_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++) {
        long double bv = -1;
        int bi = -1;
        for (int r = 0; r < size; r++) {
            long double v = big + (long double)((r * 5 + i) % (size + 1));
            if (bi < 0 || v > bv)
                bv = v, bi = r;
        }
        CHECK(q[i].v == bv && q[i].i == bi, "LONG_DOUBLE_INT MAXLOC element %d: (%Lf, %d)", i,
              q[i].v, q[i].i);
    }

    long double _Complex *c = malloc((count + 1) * sizeof *c), *d = malloc((count + 1) * sizeof *d);
    CHECK(c && d, "malloc");
    for (int i = 0; i < count; i++)
        c[i] = (long double)(1 + i % 2) + (long double)(rank % 2) * 1.0iL;
    CHECK_MPI(MPI_Allreduce(c, d, count, MPI_C_LONG_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++) {
        long double _Complex want = 1;
        for (int r = 0; r < size; r++)
            want *= (long double)(1 + i % 2) + (long double)(r % 2) * 1.0iL;
        CHECK(d[i] == want, "long double complex PROD element %d", i);
    }
    CHECK_MPI(MPI_Allreduce(c, d, count, MPI_C_LONG_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++) {
        long double _Complex want = 0;
        for (int r = 0; r < size; r++)
            want += (long double)(1 + i % 2) + (long double)(r % 2) * 1.0iL;
        CHECK(d[i] == want, "long double complex SUM element %d", i);
    }
    free(a), free(b), free(p), free(q), free(c), free(d);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    static const int counts[] = {0, 1, 7, 1001};
    for (int ci = 0; ci < 4; ci++) {
        for (int o = 0; o < NOPS; o++) {
            test_int(o, counts[ci], 0);
            test_double(o, counts[ci], 0);
            test_char(o, counts[ci], 0);
            test_uchar(o, counts[ci], 0);
        }
        test_loc(counts[ci]);
    }
    /* >= 1 MiB: long-message algorithms. */
    test_int(SUM, 262147, 1);
    test_double(MAX, 131075, 1);
    test_double(SUM, 131075, 1);
    test_long_double(7);
    test_long_double(70001); /* > 1 MiB */
    test_user_ops();
    test_noncontig_ops();
    ct_ok("coll_reduce");
    MPI_Finalize();
    return 0;
}
