/* idup_orders: many MPI_Comm_idup in flight at once, started in a different order on every
 * rank and from several threads (MPI_THREAD_MULTIPLE), as MPICH's threads/comm/idup_nb
 * does: every duplicate completes, is congruent with its parent, and has a context of its
 * own (a message sent on each duplicate arrives on that one only, and a reduction over
 * each gives the right sum). Rounds repeat with the duplicates freed in between. */
#include "check.h"
#include <pthread.h>

#define THREADS 3
#define PARENTS 12 /* per thread */
#define PER 2      /* idups of each parent */
#define ROUNDS 4

static int rank, size;
static MPI_Comm all_parents[THREADS][PARENTS];

static void *run(void *arg)
{
    int t = *(int *) arg;
    MPI_Comm *parents = all_parents[t], dups[PARENTS * PER];
    MPI_Request reqs[PARENTS * PER];
    MPI_Status sts[PARENTS * PER];
    for (int round = 0; round < ROUNDS; round++) {
        /* Rank r starts at parent 5r + round (and goes round): orders differ everywhere. */
        for (int i = 0; i < PARENTS; i++) {
            int p = (i + 5 * rank + round) % PARENTS;
            for (int k = 0; k < PER; k++)
                CHECK_MPI(MPI_Comm_idup(parents[p], &dups[p * PER + k], &reqs[p * PER + k]));
        }
        CHECK_MPI(MPI_Waitall(PARENTS * PER, reqs, sts));
        int n = PARENTS * PER, right = (rank + 1) % size, left = (rank + size - 1) % size;
        int out[PARENTS * PER], in[PARENTS * PER];
        MPI_Request sreq[PARENTS * PER], rreq[PARENTS * PER];
        /* One message on each duplicate, same tag; received in the reverse order. */
        for (int j = 0; j < n; j++) {
            int res;
            CHECK_MPI(MPI_Comm_compare(dups[j], parents[j / PER], &res));
            CHECK(res == MPI_CONGRUENT, "thread %d round %d: dup %d compares %d", t, round, j,
                  res);
            out[j] = 1000 * t + j;
            CHECK_MPI(MPI_Isend(&out[j], 1, MPI_INT, right, 7, dups[j], &sreq[j]));
        }
        for (int j = n - 1; j >= 0; j--) {
            in[j] = -1;
            CHECK_MPI(MPI_Irecv(&in[j], 1, MPI_INT, left, 7, dups[j], &rreq[j]));
        }
        CHECK_MPI(MPI_Waitall(n, rreq, sts));
        CHECK_MPI(MPI_Waitall(n, sreq, sts));
        for (int j = 0; j < n; j++) {
            CHECK(in[j] == 1000 * t + j, "thread %d round %d: dup %d got message %d", t, round,
                  j, in[j]);
            int sum = -1;
            CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dups[j]));
            CHECK(sum == size * (size - 1) / 2, "thread %d: allreduce on dup %d: %d", t, j, sum);
        }
        for (int j = 0; j < n; j++)
            CHECK_MPI(MPI_Comm_free(&dups[j]));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    /* The parents are made here (collectives on MPI_COMM_WORLD from several threads at
     * once would be erroneous); each thread then works on its own. */
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < PARENTS; i++)
            CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &all_parents[t][i]));
    pthread_t th[THREADS];
    int ids[THREADS];
    for (int t = 0; t < THREADS; t++) {
        ids[t] = t;
        CHECK(pthread_create(&th[t], NULL, run, &ids[t]) == 0, "pthread_create");
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < PARENTS; i++)
            CHECK_MPI(MPI_Comm_free(&all_parents[t][i]));
    ct_ok("idup_orders");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
