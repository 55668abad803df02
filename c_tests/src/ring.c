/* ring: a token goes around the ring for several rounds (any N, N=1 sends to itself), then a
 * 256 KiB payload goes around, each hop checking it byte for byte and re-stamping it. */
#include "check.h"

#define ROUNDS 20
#define BIG (256 * 1024)

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Status st;
    MPI_Request req;

    /* token = {round, running sum of ranks, hop count, magic} */
    for (int round = 0; round < ROUNDS; round++) {
        int tok[4];
        if (rank == 0) {
            int out[4] = {round, 0, 0, 0x5eed};
            CHECK_MPI(MPI_Isend(out, 4, MPI_INT, next, round, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Recv(tok, 4, MPI_INT, prev, round, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            int want_sum = size * (size - 1) / 2;
            CHECK(tok[0] == round && tok[1] == want_sum && tok[2] == size - 1 && tok[3] == 0x5eed,
                  "round %d: token {%d,%d,%d,%#x}, expected {%d,%d,%d,0x5eed}", round, tok[0],
                  tok[1], tok[2], tok[3], round, want_sum, size - 1);
        } else {
            CHECK_MPI(MPI_Recv(tok, 4, MPI_INT, prev, round, MPI_COMM_WORLD, &st));
            CHECK(tok[0] == round && tok[2] == rank - 1 && tok[3] == 0x5eed,
                  "round %d: got token {%d,%d,%d,%#x} from %d", round, tok[0], tok[1], tok[2],
                  tok[3], prev);
            tok[1] += rank;
            tok[2] += 1;
            CHECK_MPI(MPI_Send(tok, 4, MPI_INT, next, round, MPI_COMM_WORLD));
        }
        CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == round, "status source %d tag %d",
              st.MPI_SOURCE, st.MPI_TAG);
    }

    /* Big payload: rank r sends pattern seeded r; the receiver verifies seed prev. */
    unsigned char *out = malloc(BIG), *in = malloc(BIG);
    CHECK(out && in, "malloc");
    for (int round = 0; round < 4; round++) {
        ct_fill(out, BIG, (uint32_t)(rank * 100 + round));
        memset(in, 0, BIG);
        CHECK_MPI(MPI_Irecv(in, BIG, MPI_BYTE, prev, 1000 + round, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Send(out, BIG, MPI_BYTE, next, 1000 + round, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&req, &st));
        int count = -1;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        CHECK(count == BIG, "count %d", count);
        CHECK(ct_verify(in, BIG, (uint32_t)(prev * 100 + round), "big ring payload"),
              "round %d payload from %d wrong", round, prev);
    }
    free(out);
    free(in);
    ct_ok("ring");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
