/* partitioned: MPI-4 partitioned point-to-point communication (MPI-4.0 §4).
 *
 * Ranks pair up (0-1, 2-3, ...; an odd last rank talks to MPI_PROC_NULL). In each pair the
 * even rank sends 8 partitions of 16 ints (MPI_Psend_init) and the odd one receives them as
 * 4 partitions of 32 (MPI_Precv_init): the sides cut the data differently. Three rounds
 * through one pair of requests (MPI_Start / MPI_Startall), data changing per round:
 * - partitions are marked ready out of order, with MPI_Pready, MPI_Pready_range and
 *   MPI_Pready_list;
 * - partitions leave as they become ready, not at the end (railmpi's promise; MPICH 5.0.2
 *   sends them at the end, so this part is railmpi's only): the sender marks the first
 *   quarter ready, then waits for word from the receiver, which only sends it once
 *   MPI_Parrived says its partition 0 is in (bounded: 20 s, else the test fails) and
 *   partition 3 is not; then the rest;
 * - the round completes through MPI_Wait, MPI_Test loops and MPI_Waitall beside an ordinary
 *   request; the receive's status names the source and tag.
 * Threads: under MPI_THREAD_MULTIPLE, four threads each mark two partitions ready (after a
 * nap) while the main thread already waits on the request (the wait waits for them).
 * Then a strided receive type (a vector, non-contiguous), MPI_PROC_NULL peers (complete at
 * once, every partition arrived), and on railmpi the erroneous calls (MPI_Pready on a
 * receive, a partition out of range, MPI_Parrived on a send: MPI_ERR_REQUEST / MPI_ERR_ARG).
 * Checked on MPICH 5.0.2 at even rank counts (it crashes on an MPI_PROC_NULL peer). */
#include "check.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define SP 8  /* sender partitions */
#define SC 16 /* ints per sender partition */
#define RP 4
#define RC 32
#define N (SP * SC)

static int val(int round, int i)
{
    return round * 100000 + i;
}

static double now(void)
{
    return MPI_Wtime();
}

struct marker {
    MPI_Request req;
    int first;
};

static void *mark(void *arg)
{
    struct marker *m = arg;
    usleep(20000);
    CHECK_MPI(MPI_Pready_range(m->first, m->first + 1, m->req));
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size, provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int sender = rank % 2 == 0;
    int peer = sender ? rank + 1 : rank - 1;
    if (peer >= size)
        peer = MPI_PROC_NULL;
    int buf[N];
    MPI_Request req;
    if (sender)
        CHECK_MPI(MPI_Psend_init(buf, SP, SC, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &req));
    else
        CHECK_MPI(MPI_Precv_init(buf, RP, RC, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &req));

    for (int round = 1; round <= 3; round++) {
        if (sender)
            for (int i = 0; i < N; i++)
                buf[i] = val(round, i);
        else
            for (int i = 0; i < N; i++)
                buf[i] = -1;
        if (round == 2)
            CHECK_MPI(MPI_Startall(1, &req));
        else
            CHECK_MPI(MPI_Start(&req));
        int word = 0;
        if (sender) {
            /* The first quarter (the receiver's partition 0), out of order. */
            CHECK_MPI(MPI_Pready(1, req));
            CHECK_MPI(MPI_Pready(0, req));
#ifdef RAILMPI
            if (peer != MPI_PROC_NULL)
                CHECK_MPI(MPI_Recv(&word, 1, MPI_INT, peer, 8, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
#endif
            int list[3] = {7, 2, 5};
            CHECK_MPI(MPI_Pready_list(3, list, req));
            CHECK_MPI(MPI_Pready_range(3, 4, req));
            CHECK_MPI(MPI_Pready(6, req));
        } else if (peer != MPI_PROC_NULL) {
#ifdef RAILMPI
            int flag = 0, later = -1;
            double t0 = now();
            while (!flag && now() - t0 < 20)
                CHECK_MPI(MPI_Parrived(req, 0, &flag));
            CHECK(flag, "round %d: partition 0 not in after 20 s: sent only at the end?", round);
            for (int i = 0; i < RC; i++)
                CHECK(buf[i] == val(round, i), "round %d: partition 0 [%d] = %d", round, i,
                      buf[i]);
            CHECK_MPI(MPI_Parrived(req, RP - 1, &later));
            CHECK(!later, "round %d: partition %d in before its data was ready", round, RP - 1);
            CHECK_MPI(MPI_Send(&word, 1, MPI_INT, peer, 8, MPI_COMM_WORLD));
#else
            (void)word;
#endif
        }
        MPI_Status st;
        if (round == 1) {
            CHECK_MPI(MPI_Wait(&req, &st));
        } else if (round == 2) {
            int done = 0;
            double t0 = now();
            while (!done && now() - t0 < 20)
                CHECK_MPI(MPI_Test(&req, &done, &st));
            CHECK(done, "round 2: MPI_Test never completed");
        } else {
            /* Beside an ordinary exchange. */
            MPI_Request both[2] = {req, MPI_REQUEST_NULL};
            int x = rank, y = -1;
            int other = peer == MPI_PROC_NULL ? MPI_PROC_NULL : peer;
            if (sender)
                CHECK_MPI(MPI_Isend(&x, 1, MPI_INT, other, 9, MPI_COMM_WORLD, &both[1]));
            else
                CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, other, 9, MPI_COMM_WORLD, &both[1]));
            MPI_Status sts[2];
            CHECK_MPI(MPI_Waitall(2, both, sts));
            CHECK(both[0] == req, "MPI_Waitall freed the partitioned request");
            st = sts[0];
            if (!sender && peer != MPI_PROC_NULL)
                CHECK(y == peer, "the ordinary message beside it: %d", y);
        }
        if (!sender) {
            if (peer != MPI_PROC_NULL) {
                for (int i = 0; i < N; i++)
                    CHECK(buf[i] == val(round, i), "round %d: [%d] = %d", round, i, buf[i]);
                CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 7, "round %d: status %d/%d",
                      round, st.MPI_SOURCE, st.MPI_TAG);
            } else {
                int flag = 0;
                CHECK_MPI(MPI_Parrived(req, 1, &flag));
                CHECK(flag, "MPI_PROC_NULL: partition 1 not arrived");
            }
        }
    }
    /* Partitions marked ready by other threads while this one waits. */
    if (provided == MPI_THREAD_MULTIPLE) {
        if (sender)
            for (int i = 0; i < N; i++)
                buf[i] = val(9, i);
        else
            for (int i = 0; i < N; i++)
                buf[i] = -1;
        CHECK_MPI(MPI_Start(&req));
        pthread_t th[SP / 2];
        struct marker mk[SP / 2];
        if (sender)
            for (int t = 0; t < SP / 2; t++) {
                mk[t].req = req;
                mk[t].first = 2 * t;
                CHECK(pthread_create(&th[t], NULL, mark, &mk[t]) == 0, "pthread_create");
            }
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (sender)
            for (int t = 0; t < SP / 2; t++)
                pthread_join(th[t], NULL);
        else if (peer != MPI_PROC_NULL)
            for (int i = 0; i < N; i++)
                CHECK(buf[i] == val(9, i), "threaded round: [%d] = %d", i, buf[i]);
    }
    CHECK_MPI(MPI_Request_free(&req));

    /* Empty partitions (count 0) still arrive only once marked ready. */
    if (peer != MPI_PROC_NULL) {
        int go = 0, flag = 1;
        if (sender) {
            CHECK_MPI(MPI_Psend_init(buf, 3, 0, MPI_INT, peer, 12, MPI_COMM_WORLD, MPI_INFO_NULL,
                                     &req));
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, peer, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Start(&req));
            CHECK_MPI(MPI_Pready_range(0, 2, req));
        } else {
            CHECK_MPI(MPI_Precv_init(buf, 3, 0, MPI_INT, peer, 12, MPI_COMM_WORLD, MPI_INFO_NULL,
                                     &req));
            CHECK_MPI(MPI_Start(&req));
            CHECK_MPI(MPI_Parrived(req, 1, &flag));
            CHECK(!flag, "an empty partition arrived before it was sent");
            CHECK_MPI(MPI_Send(&go, 1, MPI_INT, peer, 13, MPI_COMM_WORLD));
        }
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Request_free(&req));
    }

    /* A non-contiguous receive type: pairs of ints, stride 3, 2 partitions of 8. */
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec)); /* [x . x] */
    MPI_Datatype vr;
    CHECK_MPI(MPI_Type_create_resized(vec, 0, 3 * sizeof(int), &vr));
    CHECK_MPI(MPI_Type_commit(&vr));
    int out[32], in[48];
    if (sender) {
        CHECK_MPI(MPI_Psend_init(out, 4, 8, MPI_INT, peer, 11, MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &req));
        for (int i = 0; i < 32; i++)
            out[i] = 500 + i;
        CHECK_MPI(MPI_Start(&req));
        CHECK_MPI(MPI_Pready_range(0, 3, req));
    } else {
        CHECK_MPI(MPI_Precv_init(in, 2, 8, vr, peer, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        for (int i = 0; i < 48; i++)
            in[i] = -1;
        CHECK_MPI(MPI_Start(&req));
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    if (!sender && peer != MPI_PROC_NULL)
        for (int e = 0; e < 16; e++) {
            CHECK(in[3 * e] == 500 + 2 * e && in[3 * e + 2] == 501 + 2 * e && in[3 * e + 1] == -1,
                  "vector receive: element %d = %d %d %d", e, in[3 * e], in[3 * e + 1],
                  in[3 * e + 2]);
        }
#ifdef RAILMPI
    /* Erroneous calls (railmpi only: MPICH 5 does not check them all). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1, flag = 0;
    if (sender) {
        MPI_Error_class(MPI_Parrived(req, 0, &flag), &cls);
        CHECK(cls == MPI_ERR_REQUEST, "MPI_Parrived on a send: class %d", cls);
        CHECK_MPI(MPI_Start(&req));
        MPI_Error_class(MPI_Pready(4, req), &cls);
        CHECK(cls == MPI_ERR_ARG, "MPI_Pready of partition 4 of 4: class %d", cls);
        CHECK_MPI(MPI_Pready_range(0, 3, req));
        MPI_Error_class(MPI_Pready(2, req), &cls);
        CHECK(cls == MPI_ERR_ARG, "MPI_Pready twice: class %d", cls);
    } else {
        MPI_Error_class(MPI_Pready(0, req), &cls);
        CHECK(cls == MPI_ERR_REQUEST, "MPI_Pready on a receive: class %d", cls);
        CHECK_MPI(MPI_Start(&req));
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
    CHECK_MPI(MPI_Request_free(&req));
    MPI_Type_free(&vr);
    MPI_Type_free(&vec);

    /* Three channels to one peer at once: two with one tag (told apart by init order), one
     * with another; partitions readied interleaved, channels last-first; two rounds, the
     * sender free to run ahead into the second while the receiver drains the first. */
    if (peer != MPI_PROC_NULL) {
        enum { NCH = 3, NB = 24 };
        static int cb[NCH][NB];
        MPI_Request ch[NCH];
        const int tags[NCH] = {20, 20, 21}, sp[NCH] = {4, 6, 3}, rp[NCH] = {6, 2, 8};
        for (int c = 0; c < NCH; c++) {
            if (sender)
                CHECK_MPI(MPI_Psend_init(cb[c], sp[c], NB / sp[c], MPI_INT, peer, tags[c],
                                         MPI_COMM_WORLD, MPI_INFO_NULL, &ch[c]));
            else
                CHECK_MPI(MPI_Precv_init(cb[c], rp[c], NB / rp[c], MPI_INT, peer, tags[c],
                                         MPI_COMM_WORLD, MPI_INFO_NULL, &ch[c]));
        }
        for (int round = 0; round < 2; round++) {
            if (sender)
                for (int c = 0; c < NCH; c++)
                    for (int i = 0; i < NB; i++)
                        cb[c][i] = 1000 * (c + 1) + 100 * round + i;
            else
                memset(cb, 0xff, sizeof cb);
            CHECK_MPI(MPI_Startall(NCH, ch));
            if (sender)
                for (int p = 0; p < 6; p++)
                    for (int c = NCH - 1; c >= 0; c--)
                        if (p < sp[c])
                            CHECK_MPI(MPI_Pready(p, ch[c]));
            CHECK_MPI(MPI_Waitall(NCH, ch, MPI_STATUSES_IGNORE));
            if (!sender)
                for (int c = 0; c < NCH; c++)
                    for (int i = 0; i < NB; i++)
                        CHECK(cb[c][i] == 1000 * (c + 1) + 100 * round + i,
                              "channel %d round %d: [%d] = %d", c, round, i, cb[c][i]);
        }
        for (int c = 0; c < NCH; c++)
            CHECK_MPI(MPI_Request_free(&ch[c]));
    }
    ct_ok("partitioned");
    MPI_Finalize();
    return 0;
}
