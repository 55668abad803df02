/* comm_limit: a program that creates communicators without freeing them gets an error, on
 * every rank at the same call, instead of running until memory is gone (MPICH's
 * errors/comm/too_many_comms*): MPI_Comm_create over varying subsets (rank 0 in all, the
 * others in fewer, as too_many_comms2), then MPI_Comm_dup, MPI_Comm_split and
 * MPI_Comm_idup all fail at the limit with the same class on every rank; once the
 * communicators are freed, creation works again. Bounded: gives up after 200,000. */
#include "check.h"

#define MAX_NCOMM 200000

/* 1 if every rank has the same `v`. */
static int same_everywhere(int v)
{
    int lo, hi;
    CHECK_MPI(MPI_Allreduce(&v, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&v, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    return lo == hi;
}

static void check_refused(int rc, const char *what)
{
    int cls = -1;
    CHECK(rc != MPI_SUCCESS, "%s at the limit succeeded", what);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_OTHER, "%s at the limit: class %d, expected MPI_ERR_OTHER", what, cls);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Group world;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int *ranks = malloc(sizeof(int) * size);
    MPI_Comm *comms = malloc(sizeof(MPI_Comm) * MAX_NCOMM);
    CHECK(ranks && comms, "malloc");
    for (int i = 0; i < size; i++)
        ranks[i] = i;

    for (int pass = 0; pass < 2; pass++) {
        int n = 0, failed_at = -1, rc = MPI_SUCCESS;
        for (int i = 0; i < MAX_NCOMM; i++) {
            MPI_Group g;
            CHECK_MPI(MPI_Group_incl(world, 1 + i % size, ranks, &g));
            rc = MPI_Comm_create(MPI_COMM_WORLD, g, &comms[n]);
            CHECK_MPI(MPI_Group_free(&g));
            if (rc != MPI_SUCCESS) {
                failed_at = i;
                break;
            }
            if (comms[n] != MPI_COMM_NULL)
                n++;
        }
        CHECK(failed_at > 0, "pass %d: %d communicators created without an error", pass,
              MAX_NCOMM);
        check_refused(rc, "MPI_Comm_create");
        CHECK(same_everywhere(failed_at), "pass %d: ranks failed at different calls", pass);
        MPI_Comm c = MPI_COMM_NULL;
        check_refused(MPI_Comm_dup(MPI_COMM_WORLD, &c), "MPI_Comm_dup");
        CHECK(c == MPI_COMM_NULL, "MPI_Comm_dup at the limit left a communicator");
        check_refused(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c), "MPI_Comm_split");
        MPI_Request req;
        rc = MPI_Comm_idup(MPI_COMM_WORLD, &c, &req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        check_refused(rc, "MPI_Comm_idup");
        if (pass == 0 && rank == 0)
            printf("limit reached after %d MPI_Comm_create calls (rank 0 holds %d)\n",
                   failed_at, n);
        for (int i = 0; i < n; i++)
            CHECK_MPI(MPI_Comm_free(&comms[i]));
        /* Room again. */
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        int sum = -1;
        CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
        CHECK(sum == size * (size - 1) / 2, "allreduce on a new communicator: %d", sum);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    CHECK_MPI(MPI_Group_free(&world));
    free(comms);
    free(ranks);
    ct_ok("comm_limit");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
