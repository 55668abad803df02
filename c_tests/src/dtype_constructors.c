/* Derived datatype constructors: size, lb/extent, true lb/extent, envelope and contents of
 * every constructor, against the numbers MPICH 4 gives (struct padding, MPI_LB/MPI_UB,
 * negative strides and extents, zero-length blocks, subarray in C and Fortran order, darray
 * checked element by element against an independent computation), reference counting of
 * the types get_contents hands out, names, MPI_Type_match_size. Every rank runs all checks.
 */
#include "check.h"

/* MPI_Type_struct, _hvector, _hindexed, _lb, _ub, _extent were removed in MPI-3; MPICH's
 * header still declares them and both libraries export them. */

/* size, lb, extent, true lb, true extent through every query function. */
static void shape(const char *what, MPI_Datatype t, long size, long lb, long extent, long tlb,
                  long textent)
{
    int sz;
    MPI_Count szx, lbx, exx, tlbx, texx;
    MPI_Aint l, e, tl, te, ol, ou, oe;
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK_MPI(MPI_Type_size_x(t, &szx));
    CHECK_MPI(MPI_Type_get_extent(t, &l, &e));
    CHECK_MPI(MPI_Type_get_extent_x(t, &lbx, &exx));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tl, &te));
    CHECK_MPI(MPI_Type_get_true_extent_x(t, &tlbx, &texx));
    CHECK_MPI(MPI_Type_lb(t, &ol));
    CHECK_MPI(MPI_Type_ub(t, &ou));
    CHECK_MPI(MPI_Type_extent(t, &oe));
    CHECK(sz == size && szx == size, "%s: size %d/%lld, expected %ld", what, sz, (long long)szx,
          size);
    CHECK(l == lb && lbx == lb && ol == lb, "%s: lb %ld/%lld/%ld, expected %ld", what, (long)l,
          (long long)lbx, (long)ol, lb);
    CHECK(e == extent && exx == extent && oe == extent, "%s: extent %ld/%lld/%ld, expected %ld",
          what, (long)e, (long long)exx, (long)oe, extent);
    CHECK(ou == lb + extent, "%s: ub %ld, expected %ld", what, (long)ou, lb + extent);
    CHECK(tl == tlb && tlbx == tlb, "%s: true lb %ld/%lld, expected %ld", what, (long)tl,
          (long long)tlbx, tlb);
    CHECK(te == textent && texx == textent, "%s: true extent %ld/%lld, expected %ld", what,
          (long)te, (long long)texx, textent);
}

/* The envelope, and the contents when the type is derived. Derived types among the
 * contents are checked to be equivalent (same size and extent) and freed, as MPI asks. */
static void envelope(const char *what, MPI_Datatype t, int combiner, int ni, const int *ints,
                     int na, const MPI_Aint *addrs, int nd, const MPI_Datatype *types)
{
    int gi, ga, gd, gc;
    CHECK_MPI(MPI_Type_get_envelope(t, &gi, &ga, &gd, &gc));
    CHECK(gc == combiner, "%s: combiner %d, expected %d", what, gc, combiner);
    CHECK(gi == ni && ga == na && gd == nd, "%s: envelope (%d,%d,%d), expected (%d,%d,%d)", what,
          gi, ga, gd, ni, na, nd);
    if (combiner == MPI_COMBINER_NAMED)
        return;
    int ri[64];
    MPI_Aint ra[64];
    MPI_Datatype rd[64];
    CHECK(ni <= 64 && na <= 64 && nd <= 64, "test arrays too small");
    CHECK_MPI(MPI_Type_get_contents(t, ni, na, nd, ri, ra, rd));
    for (int i = 0; i < ni; i++)
        CHECK(ri[i] == ints[i], "%s: integer %d is %d, expected %d", what, i, ri[i], ints[i]);
    for (int i = 0; i < na; i++)
        CHECK(ra[i] == addrs[i], "%s: address %d is %ld, expected %ld", what, i, (long)ra[i],
              (long)addrs[i]);
    for (int i = 0; i < nd; i++) {
        int ci, ca, cd, cc;
        CHECK_MPI(MPI_Type_get_envelope(types[i], &ci, &ca, &cd, &cc));
        if (cc == MPI_COMBINER_NAMED) {
            CHECK(rd[i] == types[i], "%s: datatype %d is %#x, expected %#x", what, i,
                  (unsigned)rd[i], (unsigned)types[i]);
        } else {
            MPI_Aint l1, e1, l2, e2;
            int s1, s2;
            CHECK_MPI(MPI_Type_get_extent(rd[i], &l1, &e1));
            CHECK_MPI(MPI_Type_get_extent(types[i], &l2, &e2));
            CHECK_MPI(MPI_Type_size(rd[i], &s1));
            CHECK_MPI(MPI_Type_size(types[i], &s2));
            CHECK(l1 == l2 && e1 == e2 && s1 == s2, "%s: datatype %d not equivalent", what, i);
            CHECK_MPI(MPI_Type_free(&rd[i]));
        }
    }
}

static void named_envelopes(void)
{
    MPI_Datatype named[] = {MPI_INT, MPI_DOUBLE, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_2INT,
                            MPI_BYTE, MPI_PACKED, MPI_LB, MPI_UB, MPI_C_DOUBLE_COMPLEX};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        envelope("named", named[i], MPI_COMBINER_NAMED, 0, NULL, 0, NULL, 0, NULL);
    shape("MPI_LB", MPI_LB, 0, 0, 0, 0, 0);
    shape("MPI_UB", MPI_UB, 0, 0, 0, 0, 0);
    shape("MPI_DOUBLE_INT", MPI_DOUBLE_INT, 12, 0, 16, 0, 12);
    shape("MPI_SHORT_INT", MPI_SHORT_INT, 6, 0, 8, 0, 8);
}

static void contiguous_vector(void)
{
    MPI_Datatype t;
    MPI_Datatype oi[] = {MPI_INT}, od[] = {MPI_DOUBLE};

    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
    shape("contiguous(3,int)", t, 12, 0, 12, 0, 12);
    envelope("contiguous", t, MPI_COMBINER_CONTIGUOUS, 1, (int[]){3}, 0, NULL, 1, oi);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free did not reset the handle");

    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    shape("contiguous(0,int)", t, 0, 0, 0, 0, 0);
    envelope("contiguous(0)", t, MPI_COMBINER_CONTIGUOUS, 1, (int[]){0}, 0, NULL, 1, oi);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_INT, &t));
    shape("vector(3,2,-4,int)", t, 24, -32, 40, -32, 40);
    envelope("vector", t, MPI_COMBINER_VECTOR, 3, (int[]){3, 2, -4}, 0, NULL, 1, oi);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_vector(3, 0, 4, MPI_INT, &t));
    shape("vector(3,0,4,int)", t, 0, 0, 32, 0, 32);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_vector(0, 2, 4, MPI_INT, &t));
    shape("vector(0,2,4,int)", t, 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_vector(4, 1, 3, MPI_DOUBLE, &t));
    shape("vector(4,1,3,double)", t, 32, 0, 80, 0, 80);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hvector(3, 1, 10, MPI_INT, &t));
    shape("hvector(3,1,10,int)", t, 12, 0, 24, 0, 24);
    envelope("hvector", t, MPI_COMBINER_HVECTOR, 2, (int[]){3, 1}, 1, (MPI_Aint[]){10}, 1, oi);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_hvector(2, 3, -40, MPI_DOUBLE, &t));
    shape("MPI_Type_hvector(2,3,-40,double)", t, 48, -40, 64, -40, 64);
    envelope("MPI_Type_hvector", t, MPI_COMBINER_HVECTOR, 2, (int[]){2, 3}, 1,
             (MPI_Aint[]){-40}, 1, od);
    CHECK_MPI(MPI_Type_free(&t));
}

static void indexed(void)
{
    MPI_Datatype t;
    MPI_Datatype oi[] = {MPI_INT}, od[] = {MPI_DOUBLE};

    CHECK_MPI(MPI_Type_indexed(3, (int[]){1, 3, 2}, (int[]){4, 0, 10}, MPI_INT, &t));
    shape("indexed", t, 24, 0, 48, 0, 48);
    envelope("indexed", t, MPI_COMBINER_INDEXED, 7, (int[]){3, 1, 3, 2, 4, 0, 10}, 0, NULL, 1,
             oi);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_indexed(2, (int[]){2, 0}, (int[]){5, 1}, MPI_INT, &t));
    shape("indexed with an empty block", t, 8, 20, 8, 20, 8);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_indexed(2, (int[]){0, 0}, (int[]){5, 1}, MPI_INT, &t));
    shape("indexed, all blocks empty", t, 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hindexed(2, (int[]){2, 1}, (MPI_Aint[]){-8, 16}, MPI_DOUBLE, &t));
    shape("hindexed", t, 24, -8, 32, -8, 32);
    envelope("hindexed", t, MPI_COMBINER_HINDEXED, 3, (int[]){2, 2, 1}, 2,
             (MPI_Aint[]){-8, 16}, 1, od);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_hindexed(2, (int[]){1, 1}, (MPI_Aint[]){12, 0}, MPI_INT, &t));
    shape("MPI_Type_hindexed", t, 8, 0, 16, 0, 16);
    envelope("MPI_Type_hindexed", t, MPI_COMBINER_HINDEXED, 3, (int[]){2, 1, 1}, 2,
             (MPI_Aint[]){12, 0}, 1, oi);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_indexed_block(2, 2, (int[]){3, 0}, MPI_DOUBLE, &t));
    shape("indexed_block", t, 32, 0, 40, 0, 40);
    envelope("indexed_block", t, MPI_COMBINER_INDEXED_BLOCK, 4, (int[]){2, 2, 3, 0}, 0, NULL,
             1, od);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, (MPI_Aint[]){-8, 8}, MPI_DOUBLE, &t));
    shape("hindexed_block", t, 16, -8, 24, -8, 24);
    envelope("hindexed_block", t, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){2, 1}, 2,
             (MPI_Aint[]){-8, 8}, 1, od);
    CHECK_MPI(MPI_Type_free(&t));
}

static void structs(void)
{
    MPI_Datatype t;
    struct {
        const char *what;
        MPI_Datatype a, b;
        MPI_Aint da, db;
        int ba, bb;
        long size, lb, extent, tlb, textent;
    } cases[] = {
        /* MPICH pads a struct of different types to its largest member alignment... */
        {"{int,char}", MPI_INT, MPI_CHAR, 0, 4, 1, 1, 5, 0, 8, 0, 5},
        {"{double,char}", MPI_DOUBLE, MPI_CHAR, 0, 8, 1, 1, 9, 0, 16, 0, 9},
        {"{short,char}", MPI_SHORT, MPI_CHAR, 0, 2, 1, 1, 3, 0, 4, 0, 3},
        {"{int@4,double@12}", MPI_INT, MPI_DOUBLE, 4, 12, 1, 1, 12, 4, 16, 4, 16},
        {"{long double,char}", MPI_LONG_DOUBLE, MPI_CHAR, 0, 16, 1, 1, 17, 0, 32, 0, 17},
        {"{char,double[2]}", MPI_CHAR, MPI_DOUBLE, 0, 8, 1, 2, 17, 0, 24, 0, 24},
        /* ...but not one of a single member type, */
        {"{char,char}", MPI_CHAR, MPI_CHAR, 0, 1, 1, 1, 2, 0, 2, 0, 2},
        {"{int@0,int@6}", MPI_INT, MPI_INT, 0, 6, 1, 1, 8, 0, 10, 0, 10},
        /* and an empty block does not count. */
        {"{int[0]@100,double@8}", MPI_INT, MPI_DOUBLE, 100, 8, 0, 1, 8, 8, 8, 8, 8},
        {"{int[0],double[0]}", MPI_INT, MPI_DOUBLE, 100, 8, 0, 0, 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MPI_Datatype ty[2] = {cases[i].a, cases[i].b};
        int bl[2] = {cases[i].ba, cases[i].bb};
        MPI_Aint d[2] = {cases[i].da, cases[i].db};
        CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
        shape(cases[i].what, t, cases[i].size, cases[i].lb, cases[i].extent, cases[i].tlb,
              cases[i].textent);
        envelope(cases[i].what, t, MPI_COMBINER_STRUCT, 3, (int[]){2, bl[0], bl[1]}, 2, d, 2,
                 ty);
        CHECK_MPI(MPI_Type_free(&t));
    }

    /* The deprecated bound markers: the struct of the other members, resized. */
    MPI_Datatype m1[] = {MPI_LB, MPI_INT, MPI_UB};
    MPI_Aint d1[] = {0, 8, 16};
    CHECK_MPI(MPI_Type_struct(3, (int[]){1, 1, 1}, d1, m1, &t));
    shape("{LB@0,int@8,UB@16}", t, 4, 0, 16, 8, 4);
    envelope("{LB,int,UB}", t, MPI_COMBINER_STRUCT, 4, (int[]){3, 1, 1, 1}, 3, d1, 3, m1);
    CHECK_MPI(MPI_Type_free(&t));

    MPI_Datatype m2[] = {MPI_INT, MPI_INT, MPI_UB};
    MPI_Aint d2[] = {-4, 8, 16};
    CHECK_MPI(MPI_Type_create_struct(3, (int[]){1, 1, 1}, d2, m2, &t));
    shape("{int@-4,int@8,UB@16}", t, 8, -4, 20, -4, 16);
    CHECK_MPI(MPI_Type_free(&t));

    MPI_Datatype m3[] = {MPI_LB, MPI_UB};
    CHECK_MPI(MPI_Type_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 24}, m3, &t));
    shape("{LB@0,UB@24}", t, 0, 0, 24, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_struct(0, NULL, NULL, NULL, &t));
    shape("struct of nothing", t, 0, 0, 0, 0, 0);
    envelope("struct of nothing", t, MPI_COMBINER_STRUCT, 1, (int[]){0}, 0, NULL, 0, NULL);
    CHECK_MPI(MPI_Type_free(&t));
}

static void resized(void)
{
    MPI_Datatype r, n, t;
    MPI_Datatype oi[] = {MPI_INT};

    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &r));
    shape("resized(int,-4,16)", r, 4, -4, 16, 0, 4);
    envelope("resized", r, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){-4, 16}, 1, oi);
    CHECK_MPI(MPI_Type_vector(2, 1, 1, r, &t));
    shape("vector(2,1,1,resized)", t, 8, -4, 32, 0, 20);
    envelope("vector of resized", t, MPI_COMBINER_VECTOR, 3, (int[]){2, 1, 1}, 0, NULL, 1, &r);
    CHECK_MPI(MPI_Type_free(&t));

    /* Negative extent. */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 8, -16, &n));
    shape("resized(int,8,-16)", n, 4, 8, -16, 0, 4);
    CHECK_MPI(MPI_Type_contiguous(3, n, &t));
    shape("contiguous(3,negative extent)", t, 12, -24, 16, -32, 36);
    CHECK_MPI(MPI_Type_free(&t));
    MPI_Datatype ty[2] = {MPI_INT, n};
    CHECK_MPI(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, ty, &t));
    shape("{int,negative extent@8}", t, 8, 0, 4, 0, 12);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&n));
    CHECK_MPI(MPI_Type_free(&r));
}

static void subarrays(void)
{
    MPI_Datatype t;
    MPI_Datatype od[] = {MPI_DOUBLE}, oi[] = {MPI_INT};
    int sizes[3] = {4, 5, 6}, sub[3] = {2, 3, 4}, starts[3] = {1, 1, 2};

    CHECK_MPI(MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &t));
    shape("subarray C", t, 192, 0, 960, 304, 368);
    envelope("subarray C", t, MPI_COMBINER_SUBARRAY, 11,
             (int[]){3, 4, 5, 6, 2, 3, 4, 1, 1, 2, MPI_ORDER_C}, 0, NULL, 1, od);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(
        MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
    shape("subarray Fortran", t, 192, 0, 960, 360, 560);
    envelope("subarray F", t, MPI_COMBINER_SUBARRAY, 11,
             (int[]){3, 4, 5, 6, 2, 3, 4, 1, 1, 2, MPI_ORDER_FORTRAN}, 0, NULL, 1, od);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_subarray(1, (int[]){10}, (int[]){3}, (int[]){2}, MPI_ORDER_C,
                                       MPI_INT, &t));
    shape("subarray 1-D", t, 12, 0, 40, 8, 12);
    envelope("subarray 1-D", t, MPI_COMBINER_SUBARRAY, 5, (int[]){1, 10, 3, 2, MPI_ORDER_C}, 0,
             NULL, 1, oi);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_subarray(2, (int[]){4, 4}, (int[]){0, 2}, (int[]){0, 0},
                                       MPI_ORDER_C, MPI_INT, &t));
    shape("empty subarray", t, 0, 0, 64, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));
}

/* Owner coordinate of global index i in one darray dimension. */
static int owner(int i, int dist, int darg, int p, int g)
{
    if (dist == MPI_DISTRIBUTE_NONE)
        return 0;
    if (dist == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return i / b;
    }
    int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (i / b) % p;
}

/* Every rank of a `size`-process darray: the packed elements are exactly the owned ones of
 * the global array in storage order; the bounds are MPICH's (true bounds tight). */
static void darray_case(const char *what, int size, int nd, const int *g, const int *dist,
                        const int *darg, const int *ps, int order)
{
    int n = 1;
    for (int i = 0; i < nd; i++)
        n *= g[i];
    int *a = malloc(n * sizeof(int)), *p = malloc(n * sizeof(int) + 4);
    for (int i = 0; i < n; i++)
        a[i] = i;
    for (int r = 0; r < size; r++) {
        MPI_Datatype t;
        CHECK_MPI(MPI_Type_create_darray(size, r, nd, g, dist, darg, ps, order, MPI_INT, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        int coords[8], procs = size, rr = r;
        for (int i = 0; i < nd; i++) {
            procs /= ps[i];
            coords[i] = rr / procs;
            rr %= procs;
        }
        int k = 0, first = -1, last = -1;
        int *want = malloc(n * sizeof(int));
        for (int lin = 0; lin < n; lin++) {
            int idx[8], rem = lin, mine = 1;
            if (order == MPI_ORDER_C)
                for (int i = nd - 1; i >= 0; i--) {
                    idx[i] = rem % g[i];
                    rem /= g[i];
                }
            else
                for (int i = 0; i < nd; i++) {
                    idx[i] = rem % g[i];
                    rem /= g[i];
                }
            for (int i = 0; i < nd; i++)
                if (owner(idx[i], dist[i], darg[i], ps[i], g[i]) != coords[i])
                    mine = 0;
            if (mine) {
                want[k++] = lin;
                if (first < 0)
                    first = lin;
                last = lin;
            }
        }
        char name[128];
        snprintf(name, sizeof name, "darray %s rank %d", what, r);
        if (k == 0)
            shape(name, t, 0, 0, (long)n * 4, 0, 0);
        else
            shape(name, t, k * 4L, 0, (long)n * 4, first * 4L, (last - first + 1) * 4L);
        int pos = 0;
        CHECK_MPI(MPI_Pack(a, 1, t, p, n * (int)sizeof(int), &pos, MPI_COMM_SELF));
        CHECK(pos == k * 4, "%s: packed %d bytes, expected %d", name, pos, k * 4);
        for (int i = 0; i < k; i++)
            CHECK(p[i] == want[i], "%s: element %d is %d, expected %d", name, i, p[i], want[i]);
        int ints[4 * 8 + 4];
        ints[0] = size;
        ints[1] = r;
        ints[2] = nd;
        for (int i = 0; i < nd; i++) {
            ints[3 + i] = g[i];
            ints[3 + nd + i] = dist[i];
            ints[3 + 2 * nd + i] = darg[i];
            ints[3 + 3 * nd + i] = ps[i];
        }
        ints[3 + 4 * nd] = order;
        MPI_Datatype oi[] = {MPI_INT};
        envelope(name, t, MPI_COMBINER_DARRAY, 4 * nd + 4, ints, 0, NULL, 1, oi);
        CHECK_MPI(MPI_Type_free(&t));
        free(want);
    }
    free(a);
    free(p);
}

static void darrays(void)
{
    const int D = MPI_DISTRIBUTE_DFLT_DARG, B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC,
              N = MPI_DISTRIBUTE_NONE;
    for (int o = 0; o < 2; o++) {
        int order = o ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        darray_case("4x6 block,cyclic(2)", 4, 2, (int[]){4, 6}, (int[]){B, C}, (int[]){D, 2},
                    (int[]){2, 2}, order);
        darray_case("10x7 cyclic(3),block", 6, 2, (int[]){10, 7}, (int[]){C, B}, (int[]){3, D},
                    (int[]){3, 2}, order);
        darray_case("8 cyclic", 3, 1, (int[]){8}, (int[]){C}, (int[]){D}, (int[]){3}, order);
        darray_case("3x4x5 none,block(3),cyclic(2)", 4, 3, (int[]){3, 4, 5},
                    (int[]){N, B, C}, (int[]){D, 3, 2}, (int[]){1, 2, 2}, order);
        darray_case("5x5 block over 4x1", 4, 2, (int[]){5, 5}, (int[]){B, B}, (int[]){D, D},
                    (int[]){4, 1}, order);
    }
}

static void dup_and_references(void)
{
    MPI_Datatype d, v, v2, r, got[1];
    MPI_Datatype oi[] = {MPI_INT};
    int sz;

    /* dup of a predefined type: committed, contents name the predefined handle. */
    CHECK_MPI(MPI_Type_dup(MPI_INT, &d));
    shape("dup(int)", d, 4, 0, 4, 0, 4);
    envelope("dup(int)", d, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, oi);
    CHECK_MPI(MPI_Pack_size(2, d, MPI_COMM_WORLD, &sz)); /* committed: usable at once */
    CHECK(sz == 8, "Pack_size of 2 dup(int) is %d", sz);
    CHECK_MPI(MPI_Type_free(&d));

    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &v));
    CHECK_MPI(MPI_Type_dup(v, &d));
    shape("dup(vector)", d, 16, 0, 32, 0, 32);
    envelope("dup(vector)", d, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &v);

    /* A type outlives the handles it was built from, and get_contents hands out handles
     * that stay valid after the user frees the original. */
    CHECK_MPI(MPI_Type_create_resized(v, 0, 40, &r));
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Type_free(&d));
    shape("resized after its old type was freed", r, 16, 0, 40, 0, 32);
    CHECK_MPI(MPI_Type_get_contents(r, 0, 2, 1, NULL, (MPI_Aint[2]){0}, got));
    shape("the old type got back", got[0], 16, 0, 32, 0, 32);
    CHECK_MPI(MPI_Type_contiguous(2, got[0], &v2));
    CHECK_MPI(MPI_Type_free(&got[0]));
    CHECK_MPI(MPI_Type_commit(&v2));
    shape("contiguous of the type got back", v2, 32, 0, 64, 0, 64);
    CHECK_MPI(MPI_Type_free(&v2));
    CHECK_MPI(MPI_Type_free(&r));
}

static void names_and_match_size(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Datatype t, m;

    CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE, name, &len));
    CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "name of MPI_DOUBLE: %s", name);
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(len == 0 && name[0] == 0, "a new type has a name: %s", name);
    CHECK_MPI(MPI_Type_set_name(t, "strided ints"));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "strided ints") == 0 && len == 12, "name: %s", name);
    CHECK_MPI(MPI_Type_free(&t));

    struct {
        int cls, size;
        MPI_Datatype want;
    } m_cases[] = {
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},        {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, 16, MPI_REAL16},      {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},
        {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},  {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},
        {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},  {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16}, {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
    };
    for (size_t i = 0; i < sizeof m_cases / sizeof m_cases[0]; i++) {
        CHECK_MPI(MPI_Type_match_size(m_cases[i].cls, m_cases[i].size, &m));
        CHECK(m == m_cases[i].want, "match_size(%d, %d) = %#x, expected %#x", m_cases[i].cls,
              m_cases[i].size, (unsigned)m, (unsigned)m_cases[i].want);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    named_envelopes();
    contiguous_vector();
    indexed();
    structs();
    resized();
    subarrays();
    darrays();
    dup_and_references();
    names_and_match_size();
    ct_ok("dtype_constructors");
    MPI_Finalize();
    return 0;
}
