/* mprobe: matched probe. Every rank sends rank 0 messages of 0 B to 1 MiB (eager and
 * rendezvous) with distinct tags; rank 0 takes them with MPI_Mprobe / MPI_Improbe on
 * MPI_ANY_SOURCE / MPI_ANY_TAG, sizes its buffer from the status, receives with MPI_Mrecv /
 * MPI_Imrecv and checks every byte. A matched message is out of matching: MPI_Iprobe no
 * longer sees it, and with MPI_THREAD_MULTIPLE four threads doing Mprobe + Mrecv on one tag
 * each get different messages, every one exactly once, with the size their probe said.
 * MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC; MPI_Mrecv on it gives an empty status and
 * MPI_MESSAGE_NULL; a receive from MPI_MESSAGE_NULL is MPI_ERR_REQUEST; a short buffer is
 * MPI_ERR_TRUNCATE. */
#include "check.h"
#include <pthread.h>

#define NSIZES 5
static const int sizes[NSIZES] = {0, 1, 4000, 100000, 1 << 20};
#define NTHREADS 4
#define PER_THREAD 40
#define THREAD_TAG 1000

static uint32_t seed(int src, int tag) { return (uint32_t)(src * 1000003 + tag); }

/* Thread messages: 4-byte sequence number, then bytes up to a size that depends on it. */
static int thread_size(int seq) { return 4 + (seq % 7) * 9000; }

static int seen[NTHREADS * PER_THREAD * 8];
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

static void *taker(void *arg)
{
    (void)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        MPI_Message msg;
        MPI_Status st;
        int bytes;
        CHECK_MPI(MPI_Mprobe(1, THREAD_TAG, MPI_COMM_WORLD, &msg, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &bytes));
        unsigned char *buf = malloc(bytes);
        CHECK_MPI(MPI_Mrecv(buf, bytes, MPI_BYTE, &msg, &st));
        CHECK(msg == MPI_MESSAGE_NULL, "Mrecv left the message handle set");
        int got;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
        int seq;
        memcpy(&seq, buf, 4);
        CHECK(seq >= 0 && seq < NTHREADS * PER_THREAD, "sequence number %d", seq);
        CHECK(got == bytes && bytes == thread_size(seq), "message %d: probed %d, got %d", seq,
              bytes, got);
        CHECK(ct_verify(buf + 4, bytes - 4, seed(1, seq), "threaded Mrecv"), "message %d", seq);
        pthread_mutex_lock(&seen_lock);
        seen[seq]++;
        pthread_mutex_unlock(&seen_lock);
        free(buf);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, n, provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE not provided");
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* MPI_PROC_NULL and MPI_MESSAGE_NULL. */
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    int flag = 0, cnt = -1, dummy = 0;
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NO_PROC, "Mprobe(MPI_PROC_NULL) gave message %#x", (unsigned)msg);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "PROC_NULL status %d/%d",
          st.MPI_SOURCE, st.MPI_TAG);
    CHECK_MPI(MPI_Mrecv(&dummy, 1, MPI_INT, &msg, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &cnt));
    CHECK(msg == MPI_MESSAGE_NULL && cnt == 0 && st.MPI_SOURCE == MPI_PROC_NULL,
          "Mrecv(MPI_MESSAGE_NO_PROC): message %#x count %d source %d", (unsigned)msg, cnt,
          st.MPI_SOURCE);
    CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, &st));
    CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "Improbe(MPI_PROC_NULL)");
    MPI_Request r;
    CHECK_MPI(MPI_Imrecv(&dummy, 1, MPI_INT, &msg, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Imrecv(MPI_MESSAGE_NO_PROC) source %d", st.MPI_SOURCE);
    int rc = MPI_Mrecv(&dummy, 1, MPI_INT, &msg, &st);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_REQUEST, "Mrecv(MPI_MESSAGE_NULL) gave class %d", cls);

    /* Everyone (rank 0 too) sends rank 0 one message per size; tag = k. */
    unsigned char *sp[NSIZES];
    MPI_Request sreq[NSIZES];
    for (int k = 0; k < NSIZES; k++) {
        sp[k] = malloc(sizes[k] + 1);
        ct_fill(sp[k], sizes[k], seed(rank, k));
        CHECK_MPI(MPI_Isend(sp[k], sizes[k], MPI_BYTE, 0, k, MPI_COMM_WORLD, &sreq[k]));
    }
    if (rank == 0) {
        int got = 0;
        while (got < n * NSIZES) {
            MPI_Message m;
            int bytes, use_i = got % 2;
            if (use_i) {
                flag = 0;
                while (!flag)
                    CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st));
            } else {
                CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &m, &st));
            }
            int src = st.MPI_SOURCE, tag = st.MPI_TAG;
            CHECK(tag >= 0 && tag < NSIZES, "tag %d", tag);
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &bytes));
            CHECK(bytes == sizes[tag], "probe of %d/%d says %d bytes", src, tag, bytes);
            /* It has left matching: a probe for exactly it finds nothing now. */
            CHECK_MPI(MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
            CHECK(!flag, "Iprobe still sees the matched message %d/%d", src, tag);
            unsigned char *buf = malloc(bytes + 1);
            if (tag == 2) {
                /* Too short by one byte: MPI_ERR_TRUNCATE (what lands in the buffer is not
                 * defined: MPICH leaves it alone). */
                rc = MPI_Mrecv(buf, bytes - 1, MPI_BYTE, &m, &st);
                MPI_Error_class(rc, &cls);
                CHECK(cls == MPI_ERR_TRUNCATE, "short Mrecv gave class %d", cls);
            } else if (use_i) {
                CHECK_MPI(MPI_Imrecv(buf, bytes, MPI_BYTE, &m, &r));
                CHECK(m == MPI_MESSAGE_NULL, "Imrecv left the message handle set");
                CHECK_MPI(MPI_Wait(&r, &st));
            } else {
                CHECK_MPI(MPI_Mrecv(buf, bytes, MPI_BYTE, &m, &st));
            }
            if (tag != 2) {
                CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &cnt));
                CHECK(cnt == bytes && st.MPI_SOURCE == src && st.MPI_TAG == tag,
                      "Mrecv status %d/%d/%d, probed %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG, cnt,
                      src, tag, bytes);
                CHECK(ct_verify(buf, bytes, seed(src, tag), "Mrecv"), "from %d tag %d", src, tag);
            }
            free(buf);
            got++;
        }
    }
    CHECK_MPI(MPI_Waitall(NSIZES, sreq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < NSIZES; k++)
        free(sp[k]);
    /* Rank 0's wildcard loop must be over before rank 1 sends on THREAD_TAG: rank 1's
     * sends complete once rank 0 has taken them, which may be before it took everyone
     * else's, and its wildcard probe would then match a THREAD_TAG message (seen once
     * at 4 ranks: "tag 1000"). */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Threads: rank 1 sends NTHREADS * PER_THREAD messages on one tag, rank 0's threads
     * take them concurrently. */
    if (n >= 2 && rank == 1) {
        int max = thread_size(6);
        unsigned char *b = malloc(max);
        for (int seq = 0; seq < NTHREADS * PER_THREAD; seq++) {
            memcpy(b, &seq, 4);
            ct_fill(b + 4, thread_size(seq) - 4, seed(1, seq));
            CHECK_MPI(MPI_Send(b, thread_size(seq), MPI_BYTE, 0, THREAD_TAG, MPI_COMM_WORLD));
        }
        free(b);
    }
    if (n >= 2 && rank == 0) {
        pthread_t th[NTHREADS];
        for (int t = 0; t < NTHREADS; t++)
            CHECK(pthread_create(&th[t], NULL, taker, NULL) == 0, "pthread_create");
        for (int t = 0; t < NTHREADS; t++)
            pthread_join(th[t], NULL);
        for (int seq = 0; seq < NTHREADS * PER_THREAD; seq++)
            CHECK(seen[seq] == 1, "message %d received %d times", seq, seen[seq]);
    }
    ct_ok("mprobe");
    MPI_Finalize();
    return 0;
}
