/* rma_dtypes: MPI_Put, MPI_Get and MPI_Accumulate(SUM) with noncontiguous datatypes on the
 * origin and/or the target side (MPI_Type_vector, MPI_Type_indexed, MPI_Type_create_struct of
 * one basic type, contiguous), also with count > 1 of a derived type, on MPI_Win_allocate
 * (disp unit sizeof(int)) and MPI_Win_create (disp unit 1) windows, fence synchronization,
 * ring pattern. The whole target window and the whole origin/result buffer are checked, so
 * the gaps between blocks must stay untouched. */
#include "check.h"

#define NW 160 /* ints in each window and in each origin buffer */

static int rank, n;

typedef struct {
    const char *name;
    MPI_Datatype t; /* committed type (or MPI_INT) */
    int count;      /* count passed to the RMA call */
    int nel;        /* ints in count copies */
    int off[NW];    /* int offsets of the nel elements, in type-map order */
} layout;

static void finish(layout *L, int count)
{
    MPI_Aint lb, ext;
    int per = L->nel;
    CHECK_MPI(MPI_Type_commit(&L->t));
    CHECK_MPI(MPI_Type_get_extent(L->t, &lb, &ext));
    CHECK(ext % 4 == 0, "unexpected extent %ld", (long)ext);
    for (int c = 1; c < count; c++)
        for (int k = 0; k < per; k++)
            L->off[c * per + k] = L->off[k] + c * (int)(ext / 4);
    L->count = count;
    L->nel = per * count;
}

static layout mk_contig(int cnt)
{
    layout L = {.name = "contiguous", .t = MPI_INT, .count = cnt, .nel = cnt};
    for (int k = 0; k < cnt; k++)
        L.off[k] = k;
    return L;
}

static layout mk_vector(int count, int bl, int stride, int copies)
{
    layout L = {.name = "vector", .nel = 0};
    CHECK_MPI(MPI_Type_vector(count, bl, stride, MPI_INT, &L.t));
    for (int c = 0; c < count; c++)
        for (int b = 0; b < bl; b++)
            L.off[L.nel++] = c * stride + b;
    finish(&L, copies);
    return L;
}

static layout mk_indexed(int nb, const int *bls, const int *displs, int copies)
{
    layout L = {.name = "indexed", .nel = 0};
    CHECK_MPI(MPI_Type_indexed(nb, bls, displs, MPI_INT, &L.t));
    for (int c = 0; c < nb; c++)
        for (int b = 0; b < bls[c]; b++)
            L.off[L.nel++] = displs[c] + b;
    finish(&L, copies);
    return L;
}

static layout mk_struct(int nb, const int *bls, const int *displs, int copies)
{
    layout L = {.name = "struct", .nel = 0};
    MPI_Aint bd[8];
    MPI_Datatype ts[8];
    for (int c = 0; c < nb; c++) {
        bd[c] = (MPI_Aint)displs[c] * (MPI_Aint)sizeof(int);
        ts[c] = MPI_INT;
    }
    CHECK_MPI(MPI_Type_create_struct(nb, bls, bd, ts, &L.t));
    for (int c = 0; c < nb; c++)
        for (int b = 0; b < bls[c]; b++)
            L.off[L.nel++] = displs[c] + b;
    finish(&L, copies);
    return L;
}

static void free_layout(layout *L)
{
    if (L->t != MPI_INT)
        MPI_Type_free(&L->t);
}

static int winval(int t, int i) { return t * 10000 + i; }
static int orgval(int o, int i) { return -(o * 10000 + i) - 3; }

/* op 0 put, 1 get, 2 accumulate SUM. */
static void run(MPI_Win win, int *wmem, int du, layout *O, layout *T, int tdisp, int op,
                const char *wname)
{
    static const char *opn[] = {"Put", "Get", "Accumulate"};
    int next = (rank + 1) % n, prev = (rank - 1 + n) % n;
    int obuf[NW], want[NW];
    CHECK(O->nel == T->nel, "bad test: %d vs %d elements", O->nel, T->nel);
    CHECK(tdisp + T->off[T->nel - 1] < NW, "bad test: target beyond window");

    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < NW; i++) {
        wmem[i] = winval(rank, i);
        obuf[i] = orgval(rank, i);
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    MPI_Aint disp = (MPI_Aint)tdisp * (MPI_Aint)sizeof(int) / du;
    if (op == 0)
        CHECK_MPI(MPI_Put(obuf, O->count, O->t, next, disp, T->count, T->t, win));
    else if (op == 1)
        CHECK_MPI(MPI_Get(obuf, O->count, O->t, next, disp, T->count, T->t, win));
    else
        CHECK_MPI(MPI_Accumulate(obuf, O->count, O->t, next, disp, T->count, T->t, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));

    /* My window, as written by prev. */
    for (int i = 0; i < NW; i++)
        want[i] = winval(rank, i);
    if (op != 1)
        for (int k = 0; k < T->nel; k++) {
            int v = orgval(prev, O->off[k]);
            want[tdisp + T->off[k]] = op == 0 ? v : want[tdisp + T->off[k]] + v;
        }
    for (int i = 0; i < NW; i++)
        CHECK(wmem[i] == want[i],
              "%s window, %s origin %s x%d -> target %s x%d at %d: window int %d is %d, "
              "expected %d",
              wname, opn[op], O->name, O->count, T->name, T->count, tdisp, i, wmem[i], want[i]);
    /* My origin buffer: only Get changes it. */
    for (int i = 0; i < NW; i++)
        want[i] = orgval(rank, i);
    if (op == 1)
        for (int k = 0; k < T->nel; k++)
            want[O->off[k]] = winval(next, tdisp + T->off[k]);
    for (int i = 0; i < NW; i++)
        CHECK(obuf[i] == want[i],
              "%s window, %s origin %s x%d <- target %s x%d at %d: origin int %d is %d, "
              "expected %d",
              wname, opn[op], O->name, O->count, T->name, T->count, tdisp, i, obuf[i], want[i]);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");

    /* Every layout holds 24 ints. */
    static const int ibl[] = {3, 5, 1, 7, 8}, idi[] = {0, 4, 11, 13, 25};
    static const int sbl[] = {4, 4, 6, 10}, sdi[] = {1, 7, 15, 30};
    static const int ibl2[] = {1, 3, 2}, idi2[] = {0, 2, 7}; /* 6 ints, extent 9 */
    layout L[8];
    L[0] = mk_contig(24);
    L[1] = mk_vector(12, 2, 3, 1);
    L[2] = mk_vector(6, 1, 4, 4); /* count 4 of a 6-int vector, extent 21 */
    L[3] = mk_indexed(5, ibl, idi, 1);
    L[4] = mk_struct(4, sbl, sdi, 1);
    L[5] = mk_indexed(3, ibl2, idi2, 4);
    L[6] = mk_vector(3, 8, 11, 1);
    L[7] = mk_struct(4, sbl, sdi, 1);
    static const int pairs[][2] = {{1, 6}, {3, 1}, {4, 3}, {0, 1}, {1, 0}, {4, 7}, {3, 0},
                                   {0, 4}, {2, 5}, {5, 2}, {0, 2}, {6, 6}};
    int npairs = (int)(sizeof pairs / sizeof pairs[0]), nrun = 0;

    for (int w = 0; w < 2; w++) {
        MPI_Win win;
        int *wmem;
        int du = w == 0 ? (int)sizeof(int) : 1;
        if (w == 0) {
            CHECK_MPI(MPI_Win_allocate(NW * sizeof(int), du, MPI_INFO_NULL, MPI_COMM_WORLD, &wmem,
                                       &win));
        } else {
            wmem = malloc(NW * sizeof(int));
            CHECK(wmem, "malloc");
            CHECK_MPI(MPI_Win_create(wmem, NW * sizeof(int), du, MPI_INFO_NULL, MPI_COMM_WORLD,
                                     &win));
        }
        for (int p = 0; p < npairs; p++)
            for (int op = 0; op < 3; op++)
                for (int tdisp = 0; tdisp <= 9; tdisp += 9) {
                    run(win, wmem, du, &L[pairs[p][0]], &L[pairs[p][1]], tdisp, op,
                        w == 0 ? "allocate" : "create");
                    nrun++;
                }
        CHECK_MPI(MPI_Win_free(&win));
        if (w == 1)
            free(wmem);
    }
    for (int i = 0; i < 8; i++)
        free_layout(&L[i]);
    char name[64];
    snprintf(name, sizeof name, "rma_dtypes n=%d transfers=%d", n, nrun);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
