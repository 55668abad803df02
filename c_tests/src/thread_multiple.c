/* thread_multiple: MPI_Init_thread(MPI_THREAD_MULTIPLE); ranks pair up (0-1, 2-3, ...).
 * Phase 1: 4 threads per rank, thread t ping-pongs with thread t of the peer on MPI_COMM_WORLD
 *          using tag t (small and 64 KiB messages).
 * Phase 2: all threads use one tag. On one side every thread sends M numbered messages; on the
 *          other every thread receives M. Valid checks: every message arrives exactly once, and
 *          within one receiving thread the messages of one sending thread come in send order.
 *          Then the roles swap. */
#include "check.h"
#include <pthread.h>

#define NT 4
#define ITERS 200
#define M 100
#define BIGLEN 65536

static int rank, peer;
static int got[NT][M][2]; /* phase 2: per receiving thread, (sender thread, seq) in order */

static void *pingpong(void *arg)
{
    int t = (int)(intptr_t)arg;
    int flag = 1;
    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(!flag, "MPI_Is_thread_main true in worker thread %d", t);
    unsigned char *buf = malloc(BIGLEN);
    CHECK(buf, "malloc");
    for (int i = 0; i < ITERS; i++) {
        int len = (i % 10 == 9) ? BIGLEN : 16;
        uint32_t sd = (uint32_t)(t * 100000 + i);
        MPI_Status st;
        int count = -1;
        if ((rank < peer) == (i % 2 == 0)) {
            ct_fill(buf, len, sd);
            CHECK_MPI(MPI_Send(buf, len, MPI_BYTE, peer, t, MPI_COMM_WORLD));
        } else {
            memset(buf, 0, len);
            CHECK_MPI(MPI_Recv(buf, BIGLEN, MPI_BYTE, peer, t, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
            CHECK(st.MPI_TAG == t && st.MPI_SOURCE == peer && count == len,
                  "thread %d iter %d: tag %d source %d count %d", t, i, st.MPI_TAG, st.MPI_SOURCE,
                  count);
            CHECK(ct_verify(buf, len, sd, "ping-pong"), "thread %d iter %d: wrong data", t, i);
        }
    }
    free(buf);
    return NULL;
}

static int sending_side;

static void *sametag(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int j = 0; j < M; j++) {
        int msg[3];
        if (sending_side) {
            msg[0] = t;
            msg[1] = j;
            msg[2] = 0x7a9;
            CHECK_MPI(MPI_Send(msg, 3, MPI_INT, peer, 99, MPI_COMM_WORLD));
        } else {
            MPI_Status st;
            CHECK_MPI(MPI_Recv(msg, 3, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 99 && msg[2] == 0x7a9 && msg[0] >= 0 &&
                      msg[0] < NT && msg[1] >= 0 && msg[1] < M,
                  "thread %d: bad message {%d,%d,%#x} source %d tag %d", t, msg[0], msg[1], msg[2],
                  st.MPI_SOURCE, st.MPI_TAG);
            got[t][j][0] = msg[0];
            got[t][j][1] = msg[1];
        }
    }
    return NULL;
}

static void run_threads(void *(*fn)(void *))
{
    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        CHECK(pthread_create(&th[t], NULL, fn, (void *)(intptr_t)t) == 0, "pthread_create");
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
}

static void check_sametag(void)
{
    static int seen[NT][M];
    memset(seen, 0, sizeof seen);
    for (int t = 0; t < NT; t++) {
        int last[NT];
        for (int s = 0; s < NT; s++)
            last[s] = -1;
        for (int j = 0; j < M; j++) {
            int s = got[t][j][0], q = got[t][j][1];
            CHECK(q > last[s], "receiving thread %d got seq %d of sender thread %d after seq %d",
                  t, q, s, last[s]);
            last[s] = q;
            seen[s][q]++;
        }
    }
    for (int s = 0; s < NT; s++)
        for (int q = 0; q < M; q++)
            CHECK(seen[s][q] == 1, "message %d of sender thread %d received %d times", q, s,
                  seen[s][q]);
}

int main(int argc, char **argv)
{
    int provided = -1, n, flag = 0;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided thread level %d, need MPI_THREAD_MULTIPLE",
          provided);
    CHECK_MPI(MPI_Query_thread(&provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_Query_thread gives %d", provided);
    CHECK_MPI(MPI_Is_thread_main(&flag));
    CHECK(flag, "MPI_Is_thread_main false in the main thread");
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n % 2 == 0, "needs an even number of ranks");
    peer = rank ^ 1;

    run_threads(pingpong);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    for (int round = 0; round < 2; round++) {
        sending_side = ((rank & 1) == round);
        memset(got, -1, sizeof got);
        run_threads(sametag);
        if (!sending_side)
            check_sametag();
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    ct_ok("thread_multiple");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
