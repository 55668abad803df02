/* MPI_Pack / MPI_Unpack / MPI_Pack_size with derived types, byte for byte: vectors with
 * positive and negative strides, indexed, a struct with gaps (and an array of them through
 * a resized struct type), resized types with lb != 0, several packs appended into one
 * buffer, zero counts; bytes outside the type map must be left alone on unpack.
 * MPI_Get_elements / MPI_Get_elements_x / MPI_Get_count on partial derived elements (bytes
 * that end inside a basic element give MPI_UNDEFINED, as MPICH 5).
 * Every rank runs all checks.
 */
#include "check.h"

#define POISON 0xa5

struct rec {
    int a;
    double b;
    char c[3];
};

/* The bytes of `t` (count elements at buf) in type-map order, computed from a list of
 * (offset, length) runs of one element. */
static size_t expect_pack(const unsigned char *buf, int count, MPI_Aint extent,
                          const long runs[][2], int nruns, unsigned char *out)
{
    size_t k = 0;
    for (int e = 0; e < count; e++)
        for (int r = 0; r < nruns; r++)
            for (long j = 0; j < runs[r][1]; j++)
                out[k++] = buf[e * extent + runs[r][0] + j];
    return k;
}

/* Pack `count` elements of t from src (whose element 0 starts at src + base), compare with
 * the runs, unpack into a poisoned copy and check data bytes restored, others untouched. */
static void round_trip(const char *what, MPI_Datatype t, int count, const long runs[][2],
                       int nruns, long span, long base)
{
    int size, psize;
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK_MPI(MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize));
    CHECK(psize == size * count, "%s: Pack_size %d, expected %d", what, psize, size * count);

    unsigned char *src = malloc(span), *dst = malloc(span), *packed = malloc(psize + 16);
    unsigned char *want = malloc(psize + 16);
    ct_fill(src, span, 7);
    memset(packed, POISON, psize + 16);
    int pos = 0;
    CHECK_MPI(MPI_Pack(src + base, count, t, packed, psize + 16, &pos, MPI_COMM_WORLD));
    CHECK(pos == psize, "%s: position %d after packing, expected %d", what, pos, psize);
    size_t n = expect_pack(src + base, count, extent, runs, nruns, want);
    CHECK(n == (size_t)psize, "%s: test runs give %zu bytes, type %d", what, n, psize);
    CHECK(memcmp(packed, want, n) == 0, "%s: packed bytes differ", what);
    for (int i = psize; i < psize + 16; i++)
        CHECK(packed[i] == POISON, "%s: Pack wrote past the packed data", what);

    memset(dst, POISON, span);
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, psize, &pos, dst + base, count, t, MPI_COMM_WORLD));
    CHECK(pos == psize, "%s: position %d after unpacking, expected %d", what, pos, psize);
    /* Mark which bytes are data, then compare. */
    unsigned char *mark = calloc(span, 1);
    for (int e = 0; e < count; e++)
        for (int r = 0; r < nruns; r++)
            for (long j = 0; j < runs[r][1]; j++)
                mark[base + e * extent + runs[r][0] + j] = 1;
    for (long i = 0; i < span; i++) {
        if (mark[i])
            CHECK(dst[i] == src[i], "%s: data byte %ld not restored", what, i - base);
        else
            CHECK(dst[i] == POISON, "%s: gap byte %ld overwritten", what, i - base);
    }
    free(mark);
    free(src);
    free(dst);
    free(packed);
    free(want);
}

static void vectors(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    long v[][2] = {{0, 8}, {20, 8}, {40, 8}};
    round_trip("vector(3,2,5,int) x1", t, 1, v, 3, 64, 0);
    round_trip("vector(3,2,5,int) x4", t, 4, v, 3, 4 * 48 + 16, 0);
    CHECK_MPI(MPI_Type_free(&t));

    /* Negative stride: blocks come in type-map order, the highest address first. */
    CHECK_MPI(MPI_Type_vector(3, 1, -2, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    long nv[][2] = {{0, 8}, {-16, 8}, {-32, 8}};
    round_trip("vector(3,1,-2,double)", t, 1, nv, 3, 64, 32);
    CHECK_MPI(MPI_Type_free(&t));
}

static void indexed_types(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_indexed(3, (int[]){1, 3, 2}, (int[]){4, 0, 10}, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    long r[][2] = {{16, 4}, {0, 12}, {40, 8}};
    round_trip("indexed x1", t, 1, r, 3, 64, 0);
    round_trip("indexed x3", t, 3, r, 3, 3 * 48 + 16, 0);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hindexed_block(3, 3, (MPI_Aint[]){30, 0, 13}, MPI_CHAR, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    long h[][2] = {{30, 3}, {0, 3}, {13, 3}};
    round_trip("hindexed_block of chars", t, 2, h, 3, 80, 0);
    CHECK_MPI(MPI_Type_free(&t));
}

static MPI_Datatype rec_type(int resize)
{
    struct rec s = {0, 0.0, {0, 0, 0}};
    MPI_Aint base, d[3];
    MPI_Get_address(&s, &base);
    MPI_Get_address(&s.a, &d[0]);
    MPI_Get_address(&s.b, &d[1]);
    MPI_Get_address(&s.c, &d[2]);
    for (int i = 0; i < 3; i++)
        d[i] -= base;
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t, r;
    CHECK_MPI(MPI_Type_create_struct(3, (int[]){1, 1, 3}, d, ty, &t));
    if (!resize)
        return t;
    CHECK_MPI(MPI_Type_create_resized(t, 0, sizeof(struct rec), &r));
    CHECK_MPI(MPI_Type_free(&t));
    return r;
}

static void structs_with_gaps(void)
{
    MPI_Datatype t = rec_type(0), r = rec_type(1);
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
    /* {int, double, char[3]}: MPICH pads the extent to the double's alignment, as C does. */
    CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct rec), "struct extent %ld, sizeof %zu",
          (long)ext, sizeof(struct rec));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Type_commit(&r));
    long runs[][2] = {{offsetof(struct rec, a), 4},
                      {offsetof(struct rec, b), 8},
                      {offsetof(struct rec, c), 3}};
    round_trip("struct rec x1", t, 1, runs, 3, sizeof(struct rec), 0);
    round_trip("struct rec x5", t, 5, runs, 3, 5 * sizeof(struct rec), 0);
    round_trip("resized struct rec x7", r, 7, runs, 3, 7 * sizeof(struct rec), 0);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&r));

    /* A resized type with a lower bound below the data: element i starts at i*extent and
     * its data sits 4 bytes after the start of the element's bounds. */
    MPI_Datatype x, y;
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &x));
    CHECK_MPI(MPI_Type_contiguous(2, x, &y));
    CHECK_MPI(MPI_Type_commit(&y));
    long yr[][2] = {{0, 4}, {12, 4}};
    round_trip("contiguous(2, resized(int,-4,12)) x3", y, 3, yr, 2, 3 * 24 + 8, 4);
    CHECK_MPI(MPI_Type_free(&x));
    CHECK_MPI(MPI_Type_free(&y));
}

static void appended_packs(void)
{
    /* Pack an int, a strided column and a struct after each other into one buffer,
     * then unpack them in the same order. */
    double m[4][5];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            m[i][j] = i * 10 + j;
    int n = 4, sz1, sz2, sz3;
    MPI_Datatype col, rt = rec_type(1);
    CHECK_MPI(MPI_Type_vector(4, 1, 5, MPI_DOUBLE, &col));
    CHECK_MPI(MPI_Type_commit(&col));
    CHECK_MPI(MPI_Type_commit(&rt));
    struct rec recs[2] = {{7, 2.5, {'x', 'y', 'z'}}, {-9, -1.25, {'p', 'q', 'r'}}};
    CHECK_MPI(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &sz1));
    CHECK_MPI(MPI_Pack_size(1, col, MPI_COMM_WORLD, &sz2));
    CHECK_MPI(MPI_Pack_size(2, rt, MPI_COMM_WORLD, &sz3));
    CHECK(sz1 == 4 && sz2 == 32 && sz3 == 30, "Pack_size %d %d %d", sz1, sz2, sz3);
    char buf[128];
    int pos = 0;
    CHECK_MPI(MPI_Pack(&n, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(&m[0][3], 1, col, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(recs, 0, rt, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 36, "position after a zero-count pack %d", pos);
    CHECK_MPI(MPI_Pack(recs, 2, rt, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 66, "position %d after three packs", pos);

    int n2 = 0;
    double c[4];
    struct rec out[2];
    memset(out, 0, sizeof out);
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, 66, &pos, &n2, 1, MPI_INT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(buf, 66, &pos, c, 4, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(buf, 66, &pos, out, 2, rt, MPI_COMM_WORLD));
    CHECK(pos == 66, "position %d after unpacking", pos);
    CHECK(n2 == 4, "int %d", n2);
    for (int i = 0; i < 4; i++)
        CHECK(c[i] == i * 10 + 3, "column element %d is %g", i, c[i]);
    for (int i = 0; i < 2; i++)
        CHECK(out[i].a == recs[i].a && out[i].b == recs[i].b &&
                  memcmp(out[i].c, recs[i].c, 3) == 0,
              "struct %d differs", i);
    CHECK_MPI(MPI_Type_free(&col));
    CHECK_MPI(MPI_Type_free(&rt));
}

/* Get_elements on `bytes` received as MPI_BYTE, looked at through `t`. */
static void elements(const char *what, MPI_Datatype t, int bytes, int want_elems,
                     int want_count)
{
    static char sbuf[256], rbuf[256];
    MPI_Status st;
    int e, c;
    MPI_Count ex;
    CHECK_MPI(MPI_Sendrecv(sbuf, bytes, MPI_BYTE, 0, 3, rbuf, sizeof rbuf, MPI_BYTE, 0, 3,
                           MPI_COMM_SELF, &st));
    CHECK_MPI(MPI_Get_elements(&st, t, &e));
    CHECK_MPI(MPI_Get_elements_x(&st, t, &ex));
    CHECK_MPI(MPI_Get_count(&st, t, &c));
    CHECK(e == want_elems && ex == want_elems, "%s, %d bytes: %d/%lld elements, expected %d",
          what, bytes, e, (long long)ex, want_elems);
    CHECK(c == want_count, "%s, %d bytes: count %d, expected %d", what, bytes, c, want_count);
}

static void get_elements(void)
{
    const int U = MPI_UNDEFINED;
    elements("int", MPI_INT, 8, 2, 2);
    elements("int", MPI_INT, 6, U, U);
    elements("int", MPI_INT, 0, 0, 0);
    elements("2int", MPI_2INT, 8, 2, 1);
    elements("2int", MPI_2INT, 12, U, U);

    MPI_Datatype c3, s, s2, v;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &c3));
    CHECK_MPI(MPI_Type_commit(&c3));
    elements("contiguous(3,int)", c3, 12, 3, 1);
    elements("contiguous(3,int)", c3, 8, 2, U);
    elements("contiguous(3,int)", c3, 6, U, U); /* ends inside an int: not from c3 */
    elements("contiguous(3,int)", c3, 24, 6, 2);

    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    CHECK_MPI(MPI_Type_create_struct(3, (int[]){1, 1, 2}, (MPI_Aint[]){0, 8, 16}, ty, &s));
    CHECK_MPI(MPI_Type_commit(&s));
    int sb[][2] = {{0, 0},  {4, 1},  {6, U},  {12, 2}, {13, 3},
                   {14, 4}, {18, 5}, {28, 8}, {30, U}};
    for (size_t i = 0; i < sizeof sb / sizeof sb[0]; i++)
        elements("struct{int,double,char[2]}", s, sb[i][0], sb[i][1],
                 sb[i][0] % 14 ? U : sb[i][0] / 14);
    CHECK_MPI(MPI_Type_contiguous(2, s, &s2));
    CHECK_MPI(MPI_Type_commit(&s2));
    elements("contiguous(2,struct)", s2, 18, 5, U);
    elements("contiguous(2,struct)", s2, 28, 8, 1);
    elements("contiguous(2,struct)", s2, 32, 9, U);

    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_2INT, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    elements("vector of 2int", v, 16, 4, 1);
    elements("vector of 2int", v, 12, 3, U);
    elements("vector of 2int", v, 6, U, U);
    CHECK_MPI(MPI_Type_free(&c3));
    CHECK_MPI(MPI_Type_free(&s));
    CHECK_MPI(MPI_Type_free(&s2));
    CHECK_MPI(MPI_Type_free(&v));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    vectors();
    indexed_types();
    structs_with_gaps();
    appended_packs();
    get_elements();
    ct_ok("dtype_pack");
    MPI_Finalize();
    return 0;
}
