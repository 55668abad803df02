/* coll_mixed_types: MPI_Allreduce, MPI_Reduce and MPI_Bcast where odd ranks pass a
 * strided type (MPI_Type_vector(count, 1, 2, MPI_INT): every other int) and even ranks
 * `count` contiguous MPI_INTs — the same signature, so a correct program. A library may run
 * the contiguous ranks on a short path and the strided ones on its general schedule; both
 * must send the same messages whatever the eager limit (run also with a small
 * RAILMPI_EAGER_LIMIT: the schedule then cuts messages into pieces, which a short path that
 * sends them whole would not match). Counts from 1 to 600 ints (2400 bytes); results and the
 * gaps of the strided buffers are checked element by element. */
#include "check.h"

static int rank, n;

/* Element i of rank r's contribution. */
static int val(int r, int i) { return r * 7 + i * 3 + 1; }

#define GAPV (-424242)

static int elem(const int *b, int strided, int i) { return b[strided ? 2 * i : i]; }

/* After the call: element i holds want(i); a strided buffer's gaps hold GAPV. */
static void verify(const int *b, int strided, int count, int check_data, int (*want)(int),
                   const char *what)
{
    for (int i = 0; i < count; i++) {
        if (check_data)
            CHECK(elem(b, strided, i) == want(i), "%s count %d: element %d is %d, expected %d",
                  what, count, i, elem(b, strided, i), want(i));
        if (strided)
            CHECK(b[2 * i + 1] == GAPV, "%s count %d: gap after element %d overwritten (%d)",
                  what, count, i, b[2 * i + 1]);
    }
}

static int sum_of(int i)
{
    int s = 0;
    for (int r = 0; r < n; r++)
        s += val(r, i);
    return s;
}

static int root_val;
static int from_root(int i) { return val(root_val, i); }

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    static const int counts[] = {1, 3, 16, 100, 128, 255, 256, 300, 511, 512, 600};
    int strided = rank % 2, ncalls = 0;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int count = counts[c];
        int *in = malloc(2 * count * sizeof(int)), *out = malloc(2 * count * sizeof(int));
        CHECK(in && out, "malloc");
        MPI_Datatype vec, t;
        CHECK_MPI(MPI_Type_vector(count, 1, 2, MPI_INT, &vec));
        CHECK_MPI(MPI_Type_commit(&vec));
        t = strided ? vec : MPI_INT;
        int tc = strided ? 1 : count;
        for (int root = 0; root < n && root < 3; root++) {
            for (int i = 0; i < 2 * count; i++)
                in[i] = out[i] = GAPV;
            for (int i = 0; i < count; i++)
                in[strided ? 2 * i : i] = val(rank, i);
            CHECK_MPI(MPI_Allreduce(in, out, tc, t, MPI_SUM, MPI_COMM_WORLD));
            verify(out, strided, count, 1, sum_of, "allreduce");

            for (int i = 0; i < 2 * count; i++)
                out[i] = GAPV;
            CHECK_MPI(MPI_Reduce(in, out, tc, t, MPI_SUM, root, MPI_COMM_WORLD));
            verify(out, strided, count, rank == root, sum_of, "reduce");

            root_val = root;
            for (int i = 0; i < 2 * count; i++)
                out[i] = GAPV;
            if (rank == root)
                for (int i = 0; i < count; i++)
                    out[strided ? 2 * i : i] = val(rank, i);
            CHECK_MPI(MPI_Bcast(out, tc, t, root, MPI_COMM_WORLD));
            verify(out, strided, count, 1, from_root, "bcast");
            ncalls += 3;
        }
        CHECK_MPI(MPI_Type_free(&vec));
        free(in);
        free(out);
    }
    char name[64];
    snprintf(name, sizeof name, "coll_mixed_types n=%d calls=%d", n, ncalls);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
