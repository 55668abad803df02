/* coll_basic: MPI_Barrier (nobody leaves before the last one enters), MPI_Bcast from every
 * root, MPI_Reduce (to every root for a small count; MPI_IN_PLACE at odd roots) and
 * MPI_Allreduce (also MPI_IN_PLACE) with SUM, MAX, MIN and
 * PROD on INT, LONG, FLOAT, DOUBLE, CHAR and UNSIGNED_CHAR, compared against a serial
 * computation. Values are small integers so floating-point results are exact. */
#include "check.h"

static int rank, n;
static const int counts[] = {3, 1000, 40000};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

/* Value contributed by rank r at index i for op o (0 SUM, 1 MAX, 2 MIN, 3 PROD). */
static int val(int r, int i, int o, int is_unsigned)
{
    if (o == 3) {
        int m = (r + i) % 4;
        return m == 0 ? 2 : (m == 1 && !is_unsigned ? -1 : 1);
    }
    int v = (r * 7 + i * 3) % 11;
    return is_unsigned ? v : v - 5;
}

#define DEFINE_TEST(T, NAME, MPIT, UNS)                                                         \
    static void test_##NAME(void)                                                               \
    {                                                                                           \
        static const MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_PROD};                      \
        static const char *opn[] = {"SUM", "MAX", "MIN", "PROD"};                               \
        for (int ci = 0; ci < NCOUNTS; ci++) {                                                  \
            int c = counts[ci];                                                                 \
            T *in = malloc(c * sizeof(T)), *out = malloc(c * sizeof(T)),                        \
              *want = malloc(c * sizeof(T));                                                    \
            CHECK(in && out && want, "malloc");                                                 \
            for (int o = 0; o < 4; o++) {                                                       \
                for (int i = 0; i < c; i++) {                                                   \
                    in[i] = (T)val(rank, i, o, UNS);                                            \
                    T acc = (T)val(0, i, o, UNS);                                               \
                    for (int r = 1; r < n; r++) {                                               \
                        T x = (T)val(r, i, o, UNS);                                             \
                        if (o == 0)                                                             \
                            acc = (T)(acc + x);                                                 \
                        else if (o == 1)                                                        \
                            acc = x > acc ? x : acc;                                            \
                        else if (o == 2)                                                        \
                            acc = x < acc ? x : acc;                                            \
                        else                                                                    \
                            acc = (T)(acc * x);                                                 \
                    }                                                                           \
                    want[i] = acc;                                                              \
                }                                                                               \
                /* Allreduce, then Allreduce in place. */                                       \
                for (int inplace = 0; inplace < 2; inplace++) {                                 \
                    for (int i = 0; i < c; i++)                                                 \
                        out[i] = inplace ? in[i] : (T)99;                                       \
                    CHECK_MPI(MPI_Allreduce(inplace ? MPI_IN_PLACE : (void *)in, out, c, MPIT, \
                                            ops[o], MPI_COMM_WORLD));                          \
                    for (int i = 0; i < c; i++)                                                 \
                        CHECK(out[i] == want[i],                                                \
                              "Allreduce%s %s %s count %d: element %d is %g, expected %g",      \
                              inplace ? "(IN_PLACE)" : "", #MPIT, opn[o], c, i,                 \
                              (double)out[i], (double)want[i]);                                 \
                }                                                                               \
                /* Reduce to every root for the small count, else to the first and last     \
                 * rank; in place at odd roots. */                                              \
                for (int root = 0; root < n; root++) {                                          \
                    if (ci > 0 && root != 0 && root != n - 1)                                   \
                        continue;                                                               \
                    int inplace = (root % 2 == 1) && rank == root;                              \
                    for (int i = 0; i < c; i++)                                                 \
                        out[i] = inplace ? in[i] : (T)99;                                       \
                    CHECK_MPI(MPI_Reduce(inplace ? MPI_IN_PLACE : (void *)in, out, c, MPIT,     \
                                         ops[o], root, MPI_COMM_WORLD));                        \
                    if (rank == root)                                                           \
                        for (int i = 0; i < c; i++)                                             \
                            CHECK(out[i] == want[i],                                            \
                                  "Reduce %s %s root %d count %d: element %d is %g, expected %g", \
                                  #MPIT, opn[o], root, c, i, (double)out[i], (double)want[i]);  \
                    else                                                                        \
                        for (int i = 0; i < c; i++)                                             \
                            CHECK(out[i] == (T)99, "Reduce wrote a non-root's receive buffer"); \
                }                                                                               \
            }                                                                                   \
            free(in);                                                                           \
            free(out);                                                                          \
            free(want);                                                                         \
        }                                                                                       \
    }

DEFINE_TEST(int, int, MPI_INT, 0)
DEFINE_TEST(long, long, MPI_LONG, 0)
DEFINE_TEST(float, float, MPI_FLOAT, 0)
DEFINE_TEST(double, double, MPI_DOUBLE, 0)
DEFINE_TEST(char, char, MPI_CHAR, 0)
DEFINE_TEST(unsigned char, uchar, MPI_UNSIGNED_CHAR, 1)

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));

    /* Barrier: rank 0 arrives 300 ms after everyone else started their clock (they tell it
     * so with a message); nobody may leave the barrier before that. */
    double t0 = MPI_Wtime();
    if (rank == 0) {
        for (int r = 1; r < n; r++)
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
        t0 = MPI_Wtime();
        ct_sleep_ms(300);
    } else {
        CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    double dt = MPI_Wtime() - t0;
    CHECK(dt >= 0.15, "left the barrier %.3f s after entering, rank 0 came 0.3 s late", dt);
    for (int i = 0; i < 20; i++)
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Bcast from every root, several sizes. */
    static const int blens[] = {1, 4000, 1 << 20};
    unsigned char *b = malloc(1 << 20);
    CHECK(b, "malloc");
    for (int root = 0; root < n; root++) {
        for (int k = 0; k < 3; k++) {
            int len = blens[k];
            if (rank == root)
                ct_fill(b, len, (uint32_t)(root * 10 + k));
            else
                memset(b, 0, len);
            CHECK_MPI(MPI_Bcast(b, len, MPI_BYTE, root, MPI_COMM_WORLD));
            CHECK(ct_verify(b, len, (uint32_t)(root * 10 + k), "bcast"),
                  "Bcast of %d bytes from root %d: wrong data", len, root);
        }
        int iv[3] = {root, -root, 12345};
        if (rank != root)
            iv[0] = iv[1] = iv[2] = 0;
        CHECK_MPI(MPI_Bcast(iv, 3, MPI_INT, root, MPI_COMM_WORLD));
        CHECK(iv[0] == root && iv[1] == -root && iv[2] == 12345, "Bcast of ints from %d", root);
    }
    free(b);

    test_int();
    test_long();
    test_float();
    test_double();
    test_char();
    test_uchar();

    ct_ok("coll_basic");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
