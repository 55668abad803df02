/* probe: each rank sends messages of assorted sizes to its ring successor (N=1: to itself);
 * the receiver finds them with MPI_Probe / MPI_Iprobe, sizes the buffer with MPI_Get_count and
 * then receives exactly what was probed. */
#include "check.h"

static const int sizes[] = {0, 1, 7, 1000, 65536, 1 << 20};
#define NMSG ((int)(sizeof sizes / sizeof sizes[0]))

static uint32_t seed(int src, int i, int batch) { return (uint32_t)(src * 1000 + i * 10 + batch); }

static void recv_probed(const MPI_Status *pst, int prev, int i, int batch)
{
    int count = -1;
    MPI_Status st;
    CHECK(pst->MPI_SOURCE == prev && pst->MPI_TAG == 10 + i,
          "batch %d: probe status source %d tag %d, expected %d/%d", batch, pst->MPI_SOURCE,
          pst->MPI_TAG, prev, 10 + i);
    CHECK_MPI(MPI_Get_count(pst, MPI_BYTE, &count));
    CHECK(count == sizes[i], "batch %d msg %d: probed count %d, expected %d", batch, i, count,
          sizes[i]);
    if (sizes[i] % (int)sizeof(int) != 0) {
        int icount = 0;
        CHECK_MPI(MPI_Get_count(pst, MPI_INT, &icount));
        CHECK(icount == MPI_UNDEFINED, "Get_count(MPI_INT) of %d bytes gave %d, not MPI_UNDEFINED",
              count, icount);
    } else {
        int icount = -1;
        CHECK_MPI(MPI_Get_count(pst, MPI_INT, &icount));
        CHECK(icount == count / (int)sizeof(int), "Get_count(MPI_INT) %d for %d bytes", icount,
              count);
    }
    unsigned char *buf = malloc(count + 1);
    CHECK(buf, "malloc");
    buf[count] = 0xab;
    CHECK_MPI(MPI_Recv(buf, count, MPI_BYTE, pst->MPI_SOURCE, pst->MPI_TAG, MPI_COMM_WORLD, &st));
    int rcount = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &rcount));
    CHECK(rcount == count && st.MPI_SOURCE == prev && st.MPI_TAG == 10 + i,
          "recv status count %d source %d tag %d", rcount, st.MPI_SOURCE, st.MPI_TAG);
    CHECK(ct_verify(buf, count, seed(prev, i, batch), "probed message"),
          "batch %d msg %d (%d bytes): wrong data", batch, i, count);
    CHECK(buf[count] == 0xab, "receive wrote past the buffer");
    free(buf);
}

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int next = (rank + 1) % n, prev = (rank + n - 1) % n;
    MPI_Request reqs[NMSG];
    unsigned char *out[NMSG];
    MPI_Status pst;

    for (int batch = 0; batch < 3; batch++) {
        for (int i = 0; i < NMSG; i++) {
            out[i] = malloc(sizes[i] + 1);
            CHECK(out[i], "malloc");
            ct_fill(out[i], sizes[i], seed(rank, i, batch));
            CHECK_MPI(MPI_Isend(out[i], sizes[i], MPI_BYTE, next, 10 + i, MPI_COMM_WORLD, &reqs[i]));
        }
        if (batch == 0) {
            /* Blocking probe with wildcards: must see the messages in send order. */
            for (int i = 0; i < NMSG; i++) {
                CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pst));
                recv_probed(&pst, prev, i, batch);
            }
        } else if (batch == 1) {
            /* Iprobe for specific tags, last tag first. */
            for (int i = NMSG - 1; i >= 0; i--) {
                int flag = 0;
                while (!flag) {
                    CHECK_MPI(MPI_Iprobe(prev, 10 + i, MPI_COMM_WORLD, &flag, &pst));
                }
                recv_probed(&pst, prev, i, batch);
            }
        } else {
            /* Probe twice (probing does not consume), then Iprobe with ANY_TAG. */
            for (int i = 0; i < NMSG; i++) {
                MPI_Status pst2;
                int flag = 0;
                CHECK_MPI(MPI_Probe(prev, MPI_ANY_TAG, MPI_COMM_WORLD, &pst));
                CHECK_MPI(MPI_Probe(prev, MPI_ANY_TAG, MPI_COMM_WORLD, &pst2));
                CHECK(pst2.MPI_TAG == pst.MPI_TAG && pst2.MPI_SOURCE == pst.MPI_SOURCE,
                      "second probe saw tag %d, first %d", pst2.MPI_TAG, pst.MPI_TAG);
                CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &pst2));
                CHECK(flag && pst2.MPI_TAG == pst.MPI_TAG, "Iprobe after Probe: flag %d tag %d",
                      flag, pst2.MPI_TAG);
                recv_probed(&pst, prev, i, batch);
            }
        }
        CHECK_MPI(MPI_Waitall(NMSG, reqs, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NMSG; i++)
            free(out[i]);
        /* Nothing left over: a barrier, then Iprobe must find nothing. */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        int flag = 1;
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &pst));
        CHECK(!flag, "Iprobe found a message (tag %d from %d) after all were received",
              pst.MPI_TAG, pst.MPI_SOURCE);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    ct_ok("probe");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
