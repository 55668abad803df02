/* thread_comm_ctx: context ids of communicators made at once by several threads
 * (MPI_THREAD_MULTIPLE). Ranks 0..2 form the pair communicators {0,1}, {1,2} and {0,2} (made
 * from MPI_COMM_WORLD one at a time); then each rank runs one thread per pair it belongs to,
 * and each thread makes NC communicators from its pair's, at the same time as the rank's other
 * thread does from another pair: MPI_Comm_dup, MPI_Comm_split (members in reverse order),
 * MPI_Intercomm_create (between the two members' duplicates of MPI_COMM_SELF, over the pair's
 * communicator), MPI_Intercomm_merge of that one, MPI_Comm_create_group, and MPI_Comm_dup of
 * an intercommunicator. The agreements of the two threads of a process overlap, with different
 * partners: each picks the highest id its members propose, and two of them may pick the same
 * one on the process they share. A process holding two communicators on one id mixes their
 * traffic. So then every thread, at once, exchanges on all its communicators: a message on
 * each, received with MPI_ANY_SOURCE / MPI_ANY_TAG, must be that communicator's (pair,
 * index, sender, tag), and an MPI_Allreduce on each must sum that communicator's own values.
 * All freed, and again (ROUNDS times: ids freed come back). Extra ranks only watch. */
#include "check.h"
#include <pthread.h>

#define NC 30
#define ROUNDS 6
#define KINDS 6

static int wrank, wsize;
static MPI_Comm pair_comm[3]; /* pair k: members pair_of[k][0], pair_of[k][1] */
static MPI_Group pair_group[3];
static MPI_Comm self_dup[3]; /* a duplicate of MPI_COMM_SELF per pair (local comm of the
                                intercommunicators: one thread's collectives only) */
static const int pair_of[3][2] = {{0, 1}, {1, 2}, {0, 2}};
static MPI_Comm made[3][NC];
static int round_no;

static int member(int k)
{
    return wrank == pair_of[k][0] || wrank == pair_of[k][1];
}

static int other_of(int k)
{
    return wrank == pair_of[k][0] ? pair_of[k][1] : pair_of[k][0];
}

/* The value rank `w` gives to the allreduce on communicator i of pair k. */
static int value(int k, int i, int w)
{
    return (round_no << 16) | (k << 12) | (i << 4) | w;
}

static void *make(void *arg)
{
    int k = (int)(intptr_t)arg, prank;
    CHECK_MPI(MPI_Comm_rank(pair_comm[k], &prank));
    for (int i = 0; i < NC; i++) {
        MPI_Comm *c = &made[k][i];
        switch (i % KINDS) {
        case 0:
            CHECK_MPI(MPI_Comm_dup(pair_comm[k], c));
            break;
        case 1:
            CHECK_MPI(MPI_Comm_split(pair_comm[k], 7, -prank, c));
            break;
        case 2:
            CHECK_MPI(MPI_Intercomm_create(self_dup[k], 0, pair_comm[k], 1 - prank,
                                           100 + i, c));
            break;
        case 3:
            CHECK_MPI(MPI_Intercomm_merge(made[k][i - 1], wrank != pair_of[k][0], c));
            break;
        case 4:
            CHECK_MPI(MPI_Comm_create_group(pair_comm[k], pair_group[k], i, c));
            break;
        case 5:
            CHECK_MPI(MPI_Comm_dup(made[k][i - 3], c));
            break;
        }
        CHECK(*c != MPI_COMM_NULL, "pair %d communicator %d: MPI_COMM_NULL", k, i);
    }
    return NULL;
}

static void *exchange(void *arg)
{
    int k = (int)(intptr_t)arg;
    int other = other_of(k);
    int out[NC][3], in[3];
    MPI_Request req[NC];
    for (int i = 0; i < NC; i++) {
        int inter = 0, crank, to;
        CHECK_MPI(MPI_Comm_test_inter(made[k][i], &inter));
        CHECK_MPI(MPI_Comm_rank(made[k][i], &crank));
        to = inter ? 0 : 1 - crank;
        out[i][0] = k;
        out[i][1] = i;
        out[i][2] = wrank;
        CHECK_MPI(MPI_Isend(out[i], 3, MPI_INT, to, i % 7, made[k][i], &req[i]));
    }
    for (int i = 0; i < NC; i++) {
        MPI_Status st;
        int inter = 0, crank, count = -1;
        CHECK_MPI(MPI_Comm_test_inter(made[k][i], &inter));
        CHECK_MPI(MPI_Comm_rank(made[k][i], &crank));
        CHECK_MPI(MPI_Recv(in, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, made[k][i], &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(count == 3 && in[0] == k && in[1] == i && in[2] == other && st.MPI_TAG == i % 7 &&
                  st.MPI_SOURCE == (inter ? 0 : 1 - crank),
              "round %d pair %d communicator %d: got {pair %d, comm %d, from %d} tag %d source "
              "%d count %d: another communicator's message",
              round_no, k, i, in[0], in[1], in[2], st.MPI_TAG, st.MPI_SOURCE, count);
    }
    CHECK_MPI(MPI_Waitall(NC, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < NC; i++) {
        int inter = 0, v = value(k, i, wrank), sum = -1;
        CHECK_MPI(MPI_Comm_test_inter(made[k][i], &inter));
        CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, made[k][i]));
        /* Over an intercommunicator each side gets the other's sum. */
        int want = value(k, i, other) + (inter ? 0 : v);
        CHECK(sum == want, "round %d pair %d communicator %d: allreduce %#x, expected %#x",
              round_no, k, i, sum, want);
    }
    for (int i = 0; i < NC; i++)
        CHECK_MPI(MPI_Comm_free(&made[k][i]));
    return NULL;
}

static void run(void *(*fn)(void *))
{
    pthread_t th[3];
    int started[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        if (member(k)) {
            CHECK(pthread_create(&th[k], NULL, fn, (void *)(intptr_t)k) == 0, "pthread_create");
            started[k] = 1;
        }
    for (int k = 0; k < 3; k++)
        if (started[k])
            pthread_join(th[k], NULL);
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Group world_group;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided thread level %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
    CHECK(wsize >= 3, "needs 3 ranks");
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    for (int k = 0; k < 3; k++) {
        CHECK_MPI(MPI_Group_incl(world_group, 2, pair_of[k], &pair_group[k]));
        CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, pair_group[k], &pair_comm[k]));
        CHECK((pair_comm[k] != MPI_COMM_NULL) == member(k), "pair %d: membership", k);
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &self_dup[k]));
    }
    for (round_no = 0; round_no < ROUNDS; round_no++) {
        run(make);
        run(exchange);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    for (int k = 0; k < 3; k++) {
        if (pair_comm[k] != MPI_COMM_NULL)
            CHECK_MPI(MPI_Comm_free(&pair_comm[k]));
        CHECK_MPI(MPI_Comm_free(&self_dup[k]));
        CHECK_MPI(MPI_Group_free(&pair_group[k]));
    }
    CHECK_MPI(MPI_Group_free(&world_group));
    ct_ok("thread_comm_ctx");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
