/* selfsend: every rank sends to itself, small and 4 MiB, with Isend+Recv, Irecv+Send,
 * Sendrecv and Sendrecv_replace; several self messages keep their order. */
#include "check.h"

#define BIG (4 << 20)

static void one(int rank, int len, int variant)
{
    unsigned char *out = malloc(len + 1), *in = malloc(len + 1);
    CHECK(out && in, "malloc");
    uint32_t sd = (uint32_t)(rank * 131 + len + variant * 7);
    ct_fill(out, len, sd);
    memset(in, 0xcd, len + 1);
    MPI_Request req;
    MPI_Status st;
    int tag = 40 + variant;
    switch (variant) {
    case 0: /* Isend then blocking Recv */
        CHECK_MPI(MPI_Isend(out, len, MPI_BYTE, rank, tag, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Recv(in, len, MPI_BYTE, rank, tag, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        break;
    case 1: /* Irecv then blocking Send */
        CHECK_MPI(MPI_Irecv(in, len, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Send(out, len, MPI_BYTE, rank, tag, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&req, &st));
        break;
    case 2: /* Sendrecv */
        CHECK_MPI(MPI_Sendrecv(out, len, MPI_BYTE, rank, tag, in, len, MPI_BYTE, rank, tag,
                               MPI_COMM_WORLD, &st));
        break;
    case 3: /* Sendrecv_replace */
        memcpy(in, out, len);
        CHECK_MPI(MPI_Sendrecv_replace(in, len, MPI_BYTE, rank, tag, rank, tag, MPI_COMM_WORLD,
                                       &st));
        break;
    }
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == tag && count == len,
          "variant %d len %d: status source %d tag %d count %d", variant, len, st.MPI_SOURCE,
          st.MPI_TAG, count);
    CHECK(ct_verify(in, len, sd, "self message"), "variant %d len %d: wrong data", variant, len);
    if (variant != 3)
        CHECK(in[len] == 0xcd, "variant %d len %d: wrote past the buffer", variant, len);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    int rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    static const int lens[] = {0, 1, 100, 65536, BIG};
    for (int v = 0; v < 4; v++)
        for (int i = 0; i < (int)(sizeof lens / sizeof lens[0]); i++)
            one(rank, lens[i], v);

    /* 10 self messages of one tag queued before any receive: received in order. */
    MPI_Request reqs[10];
    int vals[10];
    for (int i = 0; i < 10; i++) {
        vals[i] = rank * 1000 + i;
        CHECK_MPI(MPI_Isend(&vals[i], 1, MPI_INT, rank, 77, MPI_COMM_WORLD, &reqs[i]));
    }
    for (int i = 0; i < 10; i++) {
        int v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, rank, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(v == rank * 1000 + i, "self message %d: got %d", i, v);
    }
    CHECK_MPI(MPI_Waitall(10, reqs, MPI_STATUSES_IGNORE));

    ct_ok("selfsend");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
