/* session_reinit: sessions initialised again after every earlier one was finalised
 * (MPI-4.1 §11.3: only the World model cannot start again), and the calls around them.
 *
 * 1. MPI_Session_init with an info whose "thread_level" names no thread level fails
 *    (railmpi: MPI_ERR_INFO) and starts nothing.
 * 2. ROUNDS rounds, each: a session (thread levels taking turns), MPI_Initialized still 0;
 *    a group of mpi://WORLD less one rank (size - 2) and a communicator from it, the rank
 *    left out asking for one from MPI_GROUP_EMPTY first, which is a local call that gives
 *    MPI_COMM_NULL (MPI-4.1 §7.4.2: it must not wait for the others); an allreduce on it
 *    checked; a communicator from the whole world with an allreduce and a ring of
 *    point-to-point messages checked; everything freed, MPI_Session_finalize.
 * 3. MPI_Init after all that (the World model after finalised sessions): MPI_COMM_WORLD
 *    works; a session opened meanwhile stays open across MPI_Finalize, is finalised, and
 *    a new session after that still communicates (the runtime outlives its users).
 * Exit status 0 after the last MPI_Session_finalize: the launcher must see every rank end
 * properly (our mpiexec fails the job when a rank exits 0 unfinalised). Any number of
 * ranks >= 1 (the excluded rank only with 2 or more).
 *
 * With the argument "exit1": after part 2, rank 0 exits with status 1 while the others
 * open a session and wait for it in MPI_Comm_create_from_group; the job must end at once
 * with that status (an exit with an error does not wait for peers to end the runtime). */
#include "check.h"

#define ROUNDS 4

static const char *levels[] = {"MPI_THREAD_MULTIPLE", "MPI_THREAD_SINGLE",
                               "MPI_THREAD_SERIALIZED", "MPI_THREAD_FUNNELED"};

static MPI_Session open_session(const char *level)
{
    MPI_Session s;
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "thread_level", level));
    CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
    MPI_Info_free(&info);
    MPI_Info got;
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK_MPI(MPI_Session_get_info(s, &got));
    CHECK_MPI(MPI_Info_get(got, "thread_level", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag && strncmp(value, "MPI_THREAD_", 11) == 0, "thread_level %s",
          flag ? value : "(none)");
    MPI_Info_free(&got);
    return s;
}

/* A communicator from mpi://WORLD under `tag`, checked with an allreduce and a ring.
 * Returns this process's world rank. */
static int world_comm_works(MPI_Session s, const char *tag, int round)
{
    MPI_Group g;
    MPI_Comm c;
    int rank, size;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    CHECK(c != MPI_COMM_NULL, "round %d: no communicator from mpi://WORLD", round);
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    long mine = 1000L * round + rank, sum = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, c));
    long want = 1000L * round * size + (long)size * (size - 1) / 2;
    CHECK(sum == want, "round %d: allreduce %ld, not %ld", round, sum, want);
    long got = -1;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_LONG, right, round, &got, 1, MPI_LONG, left, round, c,
                           MPI_STATUS_IGNORE));
    CHECK(got == 1000L * round + left, "round %d: from %d got %ld", round, left, got);
    CHECK_MPI(MPI_Comm_free(&c));
    return rank;
}

int main(int argc, char **argv)
{
    int flag = 1, rank = 0, size = 1;
    MPI_Session s;
    MPI_Info bad;

    /* 1. An invalid thread_level. */
    CHECK_MPI(MPI_Info_create(&bad));
    CHECK_MPI(MPI_Info_set(bad, "thread_level", "MPI_THREAD_NONSENSE"));
    s = MPI_SESSION_NULL;
    int rc = MPI_Session_init(bad, MPI_ERRORS_RETURN, &s);
    CHECK(rc != MPI_SUCCESS, "MPI_Session_init accepted thread_level MPI_THREAD_NONSENSE");
#ifdef RAILMPI
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_INFO, "invalid thread_level: class %d, not MPI_ERR_INFO", cls);
#endif
    MPI_Info_free(&bad);

    /* 2. Rounds of sessions, one after another. */
    for (int round = 0; round < ROUNDS; round++) {
        s = open_session(levels[round % 4]);
        CHECK_MPI(MPI_Initialized(&flag));
        CHECK(!flag, "round %d: MPI_Initialized %d under sessions alone", round, flag);
        MPI_Group world, less;
        CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
        MPI_Group_size(world, &size);
        MPI_Group_rank(world, &rank);
        if (size >= 2) {
            int out = size - 2, r = MPI_UNDEFINED;
            CHECK_MPI(MPI_Group_excl(world, 1, &out, &less));
            MPI_Group_rank(less, &r);
            MPI_Comm sub = MPI_COMM_NULL;
            if (rank == out) {
                /* Local, before anyone else gets there: the others are already in the
                 * collective creation below, which must not need this process. */
                CHECK(r == MPI_UNDEFINED, "round %d: excluded rank has rank %d", round, r);
                sub = MPI_COMM_WORLD; /* must be overwritten */
                CHECK_MPI(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "org.railmpi.sub",
                                                     MPI_INFO_NULL, MPI_ERRORS_RETURN, &sub));
                CHECK(sub == MPI_COMM_NULL, "round %d: MPI_GROUP_EMPTY gave a communicator",
                      round);
            } else {
                CHECK_MPI(MPI_Comm_create_from_group(less, "org.railmpi.sub", MPI_INFO_NULL,
                                                     MPI_ERRORS_RETURN, &sub));
                CHECK(sub != MPI_COMM_NULL, "round %d: no communicator from the group", round);
                int n = 0, one = 1;
                MPI_Comm_size(sub, &n);
                CHECK(n == size - 1, "round %d: sub size %d, not %d", round, n, size - 1);
                CHECK_MPI(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, sub));
                CHECK(n == size - 1, "round %d: sub allreduce %d, not %d", round, n, size - 1);
                CHECK_MPI(MPI_Comm_free(&sub));
            }
            CHECK_MPI(MPI_Group_free(&less));
        }
        CHECK_MPI(MPI_Group_free(&world));
        world_comm_works(s, "org.railmpi.session_reinit", round);
        CHECK_MPI(MPI_Session_finalize(&s));
        CHECK(s == MPI_SESSION_NULL, "round %d: the handle was not set to null", round);
        CHECK_MPI(MPI_Finalized(&flag));
        CHECK(!flag, "round %d: MPI_Finalized %d under sessions alone", round, flag);
    }

    if (argc > 1 && strcmp(argv[1], "exit1") == 0) {
        if (rank == 0) {
            fprintf(stderr, "session_reinit: rank 0 exits with status 1\n");
            exit(1);
        }
        s = open_session("MPI_THREAD_SINGLE");
        world_comm_works(s, "org.railmpi.never", ROUNDS);
        CHECK(0, "rank %d: a communicator with rank 0 after it exited", rank);
    }

    /* 3. The World model after finalised sessions, then sessions after MPI_Finalize. */
    CHECK_MPI(MPI_Init(NULL, NULL));
    int wrank = -1, wsize = 0, one = 1, n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wrank == rank && wsize == size, "world %d/%d, sessions said %d/%d", wrank, wsize,
          rank, size);
    CHECK_MPI(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(n == wsize, "MPI_COMM_WORLD allreduce %d, not %d", n, wsize);
    s = open_session("MPI_THREAD_SINGLE");
    MPI_Finalize();
    world_comm_works(s, "org.railmpi.after_finalize", ROUNDS);
    CHECK_MPI(MPI_Session_finalize(&s));
    s = open_session("MPI_THREAD_MULTIPLE");
    world_comm_works(s, "org.railmpi.after_all", ROUNDS + 1);
    if (rank == 0) {
        char ver[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(ver, &len);
        ver[strcspn(ver, "\r\n")] = 0;
        printf("ok session_reinit [%s]\n", ver);
        fflush(stdout);
    }
    CHECK_MPI(MPI_Session_finalize(&s));
    return 0;
}
