/* MPI_Comm_spawn, MPI_Comm_spawn_multiple, MPI_Comm_get_parent and the name service
 * (MPI-4.1 §11.3, §11.4.4).
 *
 *   dyn_spawn spawn      the job (1+ ranks) spawns 3 copies of itself (argv "child" "a b"
 *                        and a service name the parents published, which the children
 *                        look up), then 1 + 2 more through MPI_Comm_spawn_multiple (argv
 *                        "multi"; the second command in / by info wdir; MPI_APPNUM); over each intercommunicator: remote sizes, error
 *                        codes, an allreduce both ways, 1 MiB point-to-point both ways
 *                        (every byte checked), MPI_Intercomm_merge (parents first), and
 *                        MPI_Comm_disconnect, after which a child's MPI_Comm_get_parent
 *                        gives MPI_COMM_NULL. Needs a launcher that spawns (ours, Hydra).
 *   dyn_spawn threads    (MPI_THREAD_MULTIPLE) two threads spawn a child each from
 *                        MPI_COMM_SELF at once, as mpi4py.futures' executors do: each
 *                        intercommunicator must carry its own traffic (their contexts
 *                        agreed apart), 256 KiB each way, every byte checked
 *   dyn_spawn threads_dup (MPI_THREAD_MULTIPLE, 2+ ranks) two threads spawn a child each
 *                        from their own duplicates of MPI_COMM_WORLD at once, 8 times; rank
 *                        0 exchanges with the children as in `threads`, all disconnect
 *   dyn_spawn hosts ADDR across hosts (our mpiexec, 1 rank per host): 4 children go
 *                        round the job's hosts (every parent's host has children, every
 *                        child is on a parent's host) and exercise the intercommunicator;
 *                        then 2 children with info host=ADDR (the last rank's host, as
 *                        mpiexec was given it) both run where the last rank runs
 *   dyn_spawn cycle      12 rounds of spawning 2 children, exercising and disconnecting:
 *                        from round 3 on the process holds no more threads and descriptors
 *                        than after round 2 (the links to finished jobs close)
 *   dyn_spawn icreate    (2+ ranks) rank 0 alone spawns 2 children (from MPI_COMM_SELF);
 *                        MPI_Intercomm_create over that intercommunicator joins the whole
 *                        job with them, the ranks that did not spawn included (MPICH's
 *                        spawn/spaiccreate), and exercises the new intercommunicator
 *   dyn_spawn universe U MPI_UNIVERSE_SIZE is U ("unset": no value), in the job and in
 *                        the 2 children it spawns
 *   dyn_spawn missing    spawning a program that does not exist fails with MPI_ERR_SPAWN
 *   dyn_spawn refused    under a launcher that cannot spawn: MPI_Comm_spawn fails with
 *                        MPI_ERR_SPAWN through MPI_ERRORS_RETURN, and nothing hangs
 *   dyn_spawn names      MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name between
 *                        ranks of one job (2+), a port found by name and connected to;
 *                        MPI_ERR_SERVICE for a second publish and MPI_ERR_NAME for an
 *                        unknown service
 * A child's MPI_Comm_get_parent is named MPI_COMM_PARENT (MPI-4.1 §7.8).
 * Rank 0 of the first job prints "ok dyn_spawn MODE". */
#include "check.h"
#include <dirent.h>
#include <pthread.h>
#include <unistd.h>

#define BIG (1 << 20)

/* Entries of a /proc directory (threads, descriptors), "." and ".." excluded. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(d, "opendir %s", dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* opendir's own descriptor, or nothing for tasks */
}

static int err_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* Both sides of one parent/child intercommunicator; `parents` says which side we are. */
static void exercise(MPI_Comm ic, int parents)
{
    int lsize, rsize, lrank;
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_rank(ic, &lrank);
    int mine = (parents ? 1000 : 0) + lrank, sum = -1, want = 0;
    for (int i = 0; i < rsize; i++)
        want += (parents ? 0 : 1000) + i;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == want, "allreduce over the intercommunicator: %d, want %d", sum, want);
    if (lrank < rsize) {
        unsigned char *out = malloc(BIG), *in = malloc(BIG);
        ct_fill(out, BIG, (parents ? 50 : 60) + lrank);
        MPI_Request rq[2];
        CHECK_MPI(MPI_Irecv(in, BIG, MPI_BYTE, lrank, 3, ic, &rq[0]));
        CHECK_MPI(MPI_Isend(out, BIG, MPI_BYTE, lrank, 3, ic, &rq[1]));
        CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK(ct_verify(in, BIG, (parents ? 60 : 50) + lrank, "1 MiB message"), "1 MiB");
        free(out);
        free(in);
    }
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(ic, !parents, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK(msize == lsize + rsize, "merged size %d", msize);
    CHECK(mrank == (parents ? lrank : rsize + lrank), "merged rank %d", mrank);
    CHECK_MPI(MPI_Barrier(merged));
    MPI_Comm_free(&merged);
}

#define TBIG (256 << 10)

/* A child of `threads`: echo its parent's bytes back, checked against its seed (argv[2]),
 * ROUNDS times. */
#define ROUNDS 8

static void thread_child(char **argv, MPI_Comm parent)
{
    int seed = atoi(argv[2]);
    unsigned char *buf = malloc(TBIG);
    for (int r = 0; r < ROUNDS; r++) {
        CHECK_MPI(MPI_Recv(buf, TBIG, MPI_BYTE, 0, 7, parent, MPI_STATUS_IGNORE));
        CHECK(ct_verify(buf, TBIG, seed + 2 * r, "a spawning thread's bytes"), "thread %d", seed);
        ct_fill(buf, TBIG, seed + 2 * r + 1);
        CHECK_MPI(MPI_Send(buf, TBIG, MPI_BYTE, 0, 7, parent));
    }
    free(buf);
    CHECK_MPI(MPI_Comm_disconnect(&parent));
}

static char *self_path;

static pthread_barrier_t both;

/* Spawn a `thread` child from `from` (root 0) with `seed`; the intercommunicator. */
static MPI_Comm spawn_echo_child(MPI_Comm from, int seed)
{
    char num[16];
    snprintf(num, sizeof num, "%d", seed);
    char *args[] = {"thread", num, NULL};
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_spawn(self_path, args, 1, MPI_INFO_NULL, 0, from, &ic,
                             MPI_ERRCODES_IGNORE));
    return ic;
}

/* ROUNDS exchanges with a `thread` child in which both threads have their receive posted
 * before either child answers (two intercommunicators on one context would cross their
 * answers). */
static void echo_child(MPI_Comm ic, int seed)
{
    unsigned char *out = malloc(TBIG), *in = malloc(TBIG);
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Request rq;
        CHECK_MPI(MPI_Irecv(in, TBIG, MPI_BYTE, 0, 7, ic, &rq));
        pthread_barrier_wait(&both);
        ct_fill(out, TBIG, seed + 2 * r);
        CHECK_MPI(MPI_Send(out, TBIG, MPI_BYTE, 0, 7, ic));
        CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(ct_verify(in, TBIG, seed + 2 * r + 1, "a spawned child's echo"), "thread %d", seed);
    }
    free(out);
    free(in);
}

/* One of `threads`' two: spawn a child from MPI_COMM_SELF and echo with it. */
static void *spawn_thread(void *arg)
{
    int seed = 1000 + (int)(intptr_t)arg * 100;
    MPI_Comm ic = spawn_echo_child(MPI_COMM_SELF, seed);
    echo_child(ic, seed);
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    return NULL;
}

/* One of `threads_dup`'s two (MPICH's threads/spawn/th_taskmanager): DUP_ROUNDS times,
 * spawn a child from this thread's duplicate of MPI_COMM_WORLD, at once with the other
 * thread from the other duplicate; rank 0 echoes with it, and all disconnect. The two
 * agreements of a round run on every parent at once: were both intercommunicators given
 * one context, their traffic (the disconnects' barriers among the parents included) would
 * cross. */
#define DUP_ROUNDS 8
static MPI_Comm world_dup[2];

static void *spawn_dup_thread(void *arg)
{
    int t = (int)(intptr_t)arg, wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    for (int round = 0; round < DUP_ROUNDS; round++) {
        int seed = 3000 + t * 100 + round * 20;
        MPI_Comm ic = spawn_echo_child(world_dup[t], seed);
        if (wrank == 0)
            echo_child(ic, seed);
        CHECK_MPI(MPI_Comm_disconnect(&ic));
    }
    return NULL;
}

/* MPI_UNIVERSE_SIZE against `want`: a number, or "unset". */
static void check_universe(const char *want)
{
    int *v = NULL, flag = -1;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag));
    if (!strcmp(want, "unset"))
        CHECK(!flag, "MPI_UNIVERSE_SIZE is %d, expected none", flag ? *v : -1);
    else
        CHECK(flag && *v == atoi(want), "MPI_UNIVERSE_SIZE is %d, expected %s",
              flag ? *v : -1, want);
}

static void child(int argc, char **argv, MPI_Comm parent)
{
    int wrank, len = 0;
    char name[MPI_MAX_OBJECT_NAME] = "";
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    CHECK_MPI(MPI_Comm_get_name(parent, name, &len));
    CHECK(!strcmp(name, "MPI_COMM_PARENT") && len == 15, "the parent is named \"%s\"", name);
    CHECK(argc >= 2, "a child gets its arguments");
    if (!strcmp(argv[1], "universe")) {
        check_universe(argv[2]);
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        return;
    }
    if (!strcmp(argv[1], "icreate")) {
        MPI_Comm all;
        CHECK_MPI(MPI_Intercomm_create(MPI_COMM_WORLD, 0, parent, 0, 123, &all));
        exercise(all, 0);
        CHECK_MPI(MPI_Comm_free(&all));
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        return;
    }
    if (!strcmp(argv[1], "thread")) {
        thread_child(argv, parent);
        return;
    }
    if (!strcmp(argv[1], "where")) {
        char host[256] = {0};
        gethostname(host, sizeof host - 1);
        CHECK_MPI(MPI_Gather(host, 256, MPI_CHAR, NULL, 0, MPI_CHAR, 0, parent));
    }
    if (!strcmp(argv[1], "child")) {
        CHECK(argc == 4 && !strcmp(argv[2], "a b"), "argv[2] of a child: %s",
              argc > 2 ? argv[2] : "(none)");
        /* The name the parents published is found here (one name service for both). */
        char sent[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME];
        CHECK_MPI(MPI_Bcast(sent, MPI_MAX_PORT_NAME, MPI_CHAR, 0, parent));
        if (wrank == 0) {
            CHECK_MPI(MPI_Lookup_name(argv[3], MPI_INFO_NULL, found));
            CHECK(!strcmp(found, sent), "looked up %s, the parents sent %s", found, sent);
        }
    }
    if (!strcmp(argv[1], "multi")) {
        /* MPI_APPNUM: which command started us (rank 0 by the first, 1 and 2 by the
         * second, which runs in /). */
        int *appnum = NULL, flag = 0;
        char cwd[4096];
        CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
        CHECK(flag && *appnum == (wrank == 0 ? 0 : 1), "MPI_APPNUM %d at rank %d",
              flag ? *appnum : -1, wrank);
        CHECK(getcwd(cwd, sizeof cwd), "getcwd");
        if (*appnum == 1)
            CHECK(!strcmp(cwd, "/"), "wdir: the second command runs in %s", cwd);
    }
    exercise(parent, 0);
    CHECK_MPI(MPI_Comm_disconnect(&parent));
    MPI_Comm again;
    CHECK_MPI(MPI_Comm_get_parent(&again));
    CHECK(again == MPI_COMM_NULL, "MPI_Comm_get_parent after disconnect");
    (void)wrank;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    self_path = argv[0];
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent != MPI_COMM_NULL) {
        MPI_Comm p2;
        CHECK_MPI(MPI_Comm_get_parent(&p2));
        CHECK(p2 == parent, "MPI_Comm_get_parent gives the same handle");
        child(argc, argv, parent);
        MPI_Finalize();
        return 0;
    }
    const char *mode = argc > 1 ? argv[1] : "spawn";
    if (!strcmp(mode, "spawn")) {
        MPI_Comm ic;
        int codes[3] = {-1, -1, -1};
        char service[64], port[MPI_MAX_PORT_NAME];
        snprintf(service, sizeof service, "ct-spawn-%d", (int)getpid() % 100000);
        CHECK_MPI(MPI_Bcast(service, sizeof service, MPI_CHAR, 0, MPI_COMM_WORLD));
        if (wrank == 0) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
        }
        char *args[] = {"child", "a b", service, NULL};
        CHECK_MPI(MPI_Comm_spawn(argv[0], args, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, codes));
        CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, wrank == 0 ? MPI_ROOT : MPI_PROC_NULL,
                            ic));
        for (int i = 0; i < 3; i++)
            CHECK(codes[i] == MPI_SUCCESS, "errcode %d: %d", i, codes[i]);
        int rs;
        MPI_Comm_remote_size(ic, &rs);
        CHECK(rs == 3, "3 children, remote size %d", rs);
        exercise(ic, 1); /* (the children looked the name up before it) */
        if (wrank == 0) {
            CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
            CHECK_MPI(MPI_Close_port(port));
        }
        CHECK_MPI(MPI_Comm_disconnect(&ic));

        char *cmds[2] = {argv[0], argv[0]};
        char *margs[] = {"multi", NULL};
        char **argvs[2] = {margs, margs};
        int maxprocs[2] = {1, 2};
        /* The second command runs in / (info key wdir). */
        MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
        CHECK_MPI(MPI_Info_create(&infos[1]));
        CHECK_MPI(MPI_Info_set(infos[1], "wdir", "/"));
        CHECK_MPI(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD,
                                          &ic, MPI_ERRCODES_IGNORE));
        MPI_Info_free(&infos[1]);
        MPI_Comm_remote_size(ic, &rs);
        CHECK(rs == 3, "1 + 2 children, remote size %d", rs);
        exercise(ic, 1);
        CHECK_MPI(MPI_Comm_disconnect(&ic));
    } else if (!strcmp(mode, "threads")) {
        CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE");
        pthread_t t[2];
        pthread_barrier_init(&both, NULL, 2);
        for (int i = 0; i < 2; i++)
            CHECK(pthread_create(&t[i], NULL, spawn_thread, (void *)(intptr_t)(wrank * 2 + i)) == 0,
                  "pthread_create");
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
    } else if (!strcmp(mode, "threads_dup")) {
        CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE");
        pthread_t t[2];
        pthread_barrier_init(&both, NULL, 2);
        for (int i = 0; i < 2; i++)
            CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &world_dup[i]));
        for (int i = 0; i < 2; i++)
            CHECK(pthread_create(&t[i], NULL, spawn_dup_thread, (void *)(intptr_t)i) == 0,
                  "pthread_create");
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        for (int i = 0; i < 2; i++)
            CHECK_MPI(MPI_Comm_free(&world_dup[i]));
    } else if (!strcmp(mode, "hosts")) {
        CHECK(argc == 3, "usage: dyn_spawn hosts ADDR");
        char mine[256] = {0}, *parents = calloc(wsize, 256), *kids = calloc(4, 256);
        gethostname(mine, sizeof mine - 1);
        CHECK_MPI(MPI_Allgather(mine, 256, MPI_CHAR, parents, 256, MPI_CHAR, MPI_COMM_WORLD));
        char *wargs[] = {"where", NULL};
        MPI_Comm ic;
        CHECK_MPI(MPI_Comm_spawn(argv[0], wargs, 4, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                                 MPI_ERRCODES_IGNORE));
        CHECK_MPI(MPI_Gather(NULL, 0, MPI_CHAR, kids, 256, MPI_CHAR,
                             wrank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic));
        if (wrank == 0) {
            for (int p = 0; p < wsize; p++) {
                int found = 0;
                for (int k = 0; k < 4; k++)
                    found |= !strcmp(kids + 256 * k, parents + 256 * p);
                CHECK(found, "no child runs on %s, the host of parent %d", parents + 256 * p, p);
            }
            for (int k = 0; k < 4; k++) {
                int found = 0;
                for (int p = 0; p < wsize; p++)
                    found |= !strcmp(kids + 256 * k, parents + 256 * p);
                CHECK(found, "child %d runs on %s, no parent's host", k, kids + 256 * k);
            }
        }
        exercise(ic, 1);
        CHECK_MPI(MPI_Comm_disconnect(&ic));
        MPI_Info info;
        CHECK_MPI(MPI_Info_create(&info));
        CHECK_MPI(MPI_Info_set(info, "host", argv[2]));
        CHECK_MPI(MPI_Comm_spawn(argv[0], wargs, 2, info, 0, MPI_COMM_WORLD, &ic,
                                 MPI_ERRCODES_IGNORE));
        MPI_Info_free(&info);
        CHECK_MPI(MPI_Gather(NULL, 0, MPI_CHAR, kids, 256, MPI_CHAR,
                             wrank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic));
        for (int k = 0; wrank == 0 && k < 2; k++)
            CHECK(!strcmp(kids + 256 * k, parents + 256 * (wsize - 1)),
                  "child %d of host=%s runs on %s, not on %s", k, argv[2], kids + 256 * k,
                  parents + 256 * (wsize - 1));
        exercise(ic, 1);
        CHECK_MPI(MPI_Comm_disconnect(&ic));
        free(parents);
        free(kids);
    } else if (!strcmp(mode, "cycle")) {
        int threads0 = 0, fds0 = 0;
        char *cargs[] = {"cycle", NULL};
        for (int round = 0; round < 12; round++) {
            MPI_Comm ic;
            CHECK_MPI(MPI_Comm_spawn(argv[0], cargs, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                                     MPI_ERRCODES_IGNORE));
            exercise(ic, 1);
            CHECK_MPI(MPI_Comm_disconnect(&ic));
            int threads = count_entries("/proc/self/task"), fds = count_entries("/proc/self/fd");
            if (round == 1) {
                threads0 = threads;
                fds0 = fds;
            } else if (round > 1) {
                CHECK(threads <= threads0 && fds <= fds0,
                      "round %d: %d threads and %d descriptors, %d and %d after round 2", round,
                      threads, fds, threads0, fds0);
            }
        }
    } else if (!strcmp(mode, "icreate")) {
        CHECK(wsize >= 2, "needs 2 ranks");
        MPI_Comm ic = MPI_COMM_NULL, all;
        char *iargs[] = {"icreate", NULL};
        if (wrank == 0)
            CHECK_MPI(MPI_Comm_spawn(argv[0], iargs, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic,
                                     MPI_ERRCODES_IGNORE));
        /* The peer communicator is significant at the leader only. */
        CHECK_MPI(MPI_Intercomm_create(MPI_COMM_WORLD, 0, ic, 0, 123, &all));
        int rs;
        MPI_Comm_remote_size(all, &rs);
        CHECK(rs == 2, "the children's group has %d processes", rs);
        exercise(all, 1);
        CHECK_MPI(MPI_Comm_free(&all));
        if (wrank == 0)
            CHECK_MPI(MPI_Comm_disconnect(&ic));
    } else if (!strcmp(mode, "universe")) {
        CHECK(argc == 3, "usage: dyn_spawn universe U");
        check_universe(argv[2]);
        char *uargs[] = {"universe", argv[2], NULL};
        MPI_Comm ic;
        CHECK_MPI(MPI_Comm_spawn(argv[0], uargs, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                                 MPI_ERRCODES_IGNORE));
        CHECK_MPI(MPI_Comm_disconnect(&ic));
    } else if (!strcmp(mode, "missing")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm ic = MPI_COMM_NULL;
        int rc = MPI_Comm_spawn("/nonexistent/ct-no-such-program", MPI_ARGV_NULL, 2,
                                MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE);
        CHECK(err_class(rc) == MPI_ERR_SPAWN, "spawn of a missing program: %d", rc);
        CHECK(ic == MPI_COMM_NULL || rc != MPI_SUCCESS, "no intercommunicator");
    } else if (!strcmp(mode, "refused")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm ic = MPI_COMM_NULL;
        int rc = MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                                MPI_ERRCODES_IGNORE);
        CHECK(err_class(rc) == MPI_ERR_SPAWN, "spawn without a launcher that spawns: %d", rc);
    } else if (!strcmp(mode, "names")) {
        CHECK(wsize >= 2, "needs 2 ranks");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        char port[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME];
        char service[64];
        snprintf(service, sizeof service, "ct-dyn-%d", (int)getpid() % 100000);
        CHECK_MPI(MPI_Bcast(service, sizeof service, MPI_CHAR, 0, MPI_COMM_WORLD));
        MPI_Comm ic;
        if (wrank == 0) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
            int rc = MPI_Publish_name(service, MPI_INFO_NULL, port);
            CHECK(err_class(rc) == MPI_ERR_SERVICE, "second publish: %d", rc);
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (wrank == 0) {
            CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
            CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
            int rc = MPI_Unpublish_name(service, MPI_INFO_NULL, port);
            CHECK(err_class(rc) == MPI_ERR_SERVICE, "second unpublish: %d", rc);
            CHECK_MPI(MPI_Close_port(port));
        } else if (wrank == 1) {
            CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
            int rc = MPI_Lookup_name("ct-no-such-service", MPI_INFO_NULL, port);
            CHECK(err_class(rc) == MPI_ERR_NAME, "lookup of an unknown service: %d", rc);
            CHECK_MPI(MPI_Comm_connect(found, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
        }
        if (wrank < 2) {
            int v = wrank, got = -1;
            CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, ic,
                                   MPI_STATUS_IGNORE));
            CHECK(got == 1 - wrank, "over the port found by name: %d", got);
            CHECK_MPI(MPI_Comm_disconnect(&ic));
        }
    } else {
        CHECK(0, "unknown mode %s", mode);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        printf("ok dyn_spawn %s [%.20s]\n", mode, lib);
    }
    MPI_Finalize();
    return 0;
}
