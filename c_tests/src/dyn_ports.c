/* Dynamic processes without spawn (MPI-4.1 §11.4, §11.8): MPI_Open_port / MPI_Close_port,
 * MPI_Comm_accept / MPI_Comm_connect, MPI_Comm_join, MPI_Comm_disconnect.
 *
 *   dyn_ports                     one job (2+ ranks): the lower half accepts, the upper
 *                                 half connects (the port name goes by MPI_Send); then
 *                                 MPI_Comm_join between ranks 0 and 1 over a socket; and
 *                                 the error classes of bad ports and descriptors
 *   dyn_ports server FILE         two jobs: the server opens a port and writes its name to
 *   dyn_ports client FILE         FILE; the client reads it and connects
 *   dyn_ports join-server FILE    two jobs of one rank each, joined over a socket whose
 *   dyn_ports join-client FILE    address goes through FILE
 *
 * Over every intercommunicator made: sizes checked against what the other side says it
 * is, point-to-point both ways (64 B, 4 MiB — a rendezvous — and a strided vector, each
 * byte checked), an intercommunicator allreduce and bcast, MPI_Intercomm_merge (order,
 * an allgather, a barrier and an allreduce on it: jobs of 2 and 3 ranks on 2 cores choose
 * their collective algorithms apart), and disconnect. Across jobs also: a window over the
 * merged communicator is refused (MPI_ERR_UNSUPPORTED_OPERATION) on railmpi. Rank 0 of
 * each job prints "ok dyn_ports ROLE". */
#include "check.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#define BIG (4 << 20)
#define VEC_N 20000

static int wrank, wsize;

static int err_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* Point-to-point, collectives and merge over `ic`; `high` orders the merge; `job` is 0 or 1
 * (which side), `across`: the other side is another job. */
static void exercise(MPI_Comm ic, int high, int job, int across)
{
    int inter = 0, lsize, rsize, lrank;
    CHECK_MPI(MPI_Comm_test_inter(ic, &inter));
    CHECK(inter, "not an intercommunicator");
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_rank(ic, &lrank);

    /* The other side's own count of itself, root to root, then to everyone. */
    int theirs = -1;
    if (lrank == 0)
        CHECK_MPI(MPI_Sendrecv(&lsize, 1, MPI_INT, 0, 1, &theirs, 1, MPI_INT, 0, 1, ic,
                               MPI_STATUS_IGNORE));
    CHECK(lrank != 0 || theirs == rsize, "the other side has %d, remote_size says %d", theirs,
          rsize);
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(ic, &dup)); /* (still an intercommunicator) */
    MPI_Comm_free(&dup);
    /* The intercommunicator bcast goes from one group to the other: run it both ways. */
    {
        int got = -1;
        for (int dir = 0; dir < 2; dir++) {
            if (dir == job)
                CHECK_MPI(MPI_Bcast(&lsize, 1, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL,
                                    ic));
            else
                CHECK_MPI(MPI_Bcast(&got, 1, MPI_INT, 0, ic));
        }
        CHECK(got == rsize, "bcast says the remote group has %d, remote_size %d", got, rsize);
    }

    /* Point-to-point with the remote rank of the same number (if there is one). */
    if (lrank < rsize) {
        int peer = lrank;
        unsigned char small[64], small_in[64];
        ct_fill(small, sizeof small, 100 + job * 1000 + lrank);
        unsigned char *big = malloc(BIG), *big_in = malloc(BIG);
        CHECK(big && big_in, "malloc");
        ct_fill(big, BIG, 200 + job * 1000 + lrank);
        double *vec = malloc(sizeof(double) * VEC_N * 3), *vec_in = calloc(VEC_N * 3, sizeof(double));
        for (int i = 0; i < VEC_N * 3; i++)
            vec[i] = job * 1e6 + lrank * 1e4 + i;
        MPI_Datatype strided;
        CHECK_MPI(MPI_Type_vector(VEC_N, 1, 3, MPI_DOUBLE, &strided));
        CHECK_MPI(MPI_Type_commit(&strided));
        MPI_Request rq[6];
        CHECK_MPI(MPI_Irecv(small_in, 64, MPI_BYTE, peer, 10, ic, &rq[0]));
        CHECK_MPI(MPI_Irecv(big_in, BIG, MPI_BYTE, peer, 11, ic, &rq[1]));
        CHECK_MPI(MPI_Irecv(vec_in, 1, strided, peer, 12, ic, &rq[2]));
        CHECK_MPI(MPI_Isend(small, 64, MPI_BYTE, peer, 10, ic, &rq[3]));
        CHECK_MPI(MPI_Isend(big, BIG, MPI_BYTE, peer, 11, ic, &rq[4]));
        CHECK_MPI(MPI_Isend(vec, 1, strided, peer, 12, ic, &rq[5]));
        MPI_Status st[6];
        CHECK_MPI(MPI_Waitall(6, rq, st));
        int n = -1;
        MPI_Get_count(&st[1], MPI_BYTE, &n);
        CHECK(n == BIG && st[1].MPI_SOURCE == peer && st[1].MPI_TAG == 11, "status %d %d %d", n,
              st[1].MPI_SOURCE, st[1].MPI_TAG);
        int other = 1 - job;
        CHECK(ct_verify(small_in, 64, 100 + other * 1000 + peer, "64 B message"), "64 B message");
        CHECK(ct_verify(big_in, BIG, 200 + other * 1000 + peer, "4 MiB message"), "4 MiB message");
        for (int i = 0; i < VEC_N * 3; i++) {
            double want = i % 3 == 0 ? other * 1e6 + peer * 1e4 + i : 0;
            CHECK(vec_in[i] == want, "vector element %d: %g, want %g", i, vec_in[i], want);
        }
        MPI_Type_free(&strided);
        free(big);
        free(big_in);
        free(vec);
        free(vec_in);
    }

    /* Allreduce over an intercommunicator: each group gets the other's sum. */
    int mine = job * 100 + lrank, sum = -1, want = 0;
    for (int i = 0; i < rsize; i++)
        want += (1 - job) * 100 + i;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == want, "intercommunicator allreduce %d, want %d", sum, want);

    /* Merge: the group passing high = 0 first. */
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(ic, high, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK(msize == lsize + rsize, "merged size %d", msize);
    CHECK(mrank == (high ? rsize + lrank : lrank), "merged rank %d (high %d, local %d)", mrank,
          high, lrank);
    int *all = malloc(sizeof(int) * msize);
    int tagged = job * 100 + lrank;
    CHECK_MPI(MPI_Allgather(&tagged, 1, MPI_INT, all, 1, MPI_INT, merged));
    for (int i = 0; i < msize; i++) {
        int first = high ? 1 - job : job, nfirst = high ? rsize : lsize;
        int w = i < nfirst ? first * 100 + i : (1 - first) * 100 + (i - nfirst);
        CHECK(all[i] == w, "merged allgather [%d] = %d, want %d", i, all[i], w);
    }
    free(all);
    /* Collectives on the merged communicator: jobs of different sizes judge
     * oversubscription (and so their algorithms) apart, yet must run one algorithm. */
    CHECK_MPI(MPI_Barrier(merged));
    long lsum = mrank, lwant = (long)msize * (msize - 1) / 2;
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &lsum, 1, MPI_LONG, MPI_SUM, merged));
    CHECK(lsum == lwant, "allreduce on the merged communicator: %ld, want %ld", lsum, lwant);
    if (across) {
        /* A window over processes of two jobs is refused by railmpi, alike everywhere. */
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        if (strstr(lib, "railmpi")) {
            MPI_Win win;
            int buf = 0;
            MPI_Comm_set_errhandler(merged, MPI_ERRORS_RETURN);
            int rc = MPI_Win_create(&buf, sizeof buf, 1, MPI_INFO_NULL, merged, &win);
            CHECK(err_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "window across jobs: %d", rc);
        }
    }
    CHECK_MPI(MPI_Comm_disconnect(&merged));
    CHECK(merged == MPI_COMM_NULL, "disconnect leaves MPI_COMM_NULL");
    CHECK_MPI(MPI_Comm_disconnect(&ic));
    CHECK(ic == MPI_COMM_NULL, "disconnect leaves MPI_COMM_NULL");
}

static void write_file(const char *path, const char *text)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    CHECK(f, "cannot write %s", tmp);
    fputs(text, f);
    fclose(f);
    CHECK(rename(tmp, path) == 0, "rename to %s", path);
}

/* The contents of `path` once it exists (60 s at most). */
static void read_file(const char *path, char *buf, int cap)
{
    for (int i = 0; i < 6000; i++) {
        FILE *f = fopen(path, "r");
        if (f) {
            size_t n = fread(buf, 1, cap - 1, f);
            fclose(f);
            buf[n] = 0;
            return;
        }
        usleep(10000);
    }
    CHECK(0, "%s did not appear within 60 s", path);
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm ic = MPI_COMM_NULL;
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Close_port(port));
    /* A port closed: refused at once. */
    int rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    CHECK(err_class(rc) == MPI_ERR_PORT, "connect to a closed port: %d", rc);
    rc = MPI_Comm_connect("not a port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    CHECK(err_class(rc) == MPI_ERR_PORT, "connect to junk: %d", rc);
    rc = MPI_Close_port(port);
    CHECK(err_class(rc) == MPI_ERR_PORT, "closing a port twice: %d", rc);
    rc = MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic);
    CHECK(err_class(rc) == MPI_ERR_PORT, "accept on a closed port: %d", rc);
    rc = MPI_Comm_join(-1, &ic);
    CHECK(rc != MPI_SUCCESS, "join on descriptor -1 succeeded");
    rc = MPI_Comm_accept(port, MPI_INFO_NULL, 5, MPI_COMM_SELF, &ic);
    CHECK(err_class(rc) == MPI_ERR_ROOT, "accept with root 5 of 1: %d", rc);
    MPI_Comm parent = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL, "a job started by mpiexec has no parent");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Ranks 0 and 1 of one job, or two single-rank jobs (`file`), joined over a socket. */
static void join(int accepting, const char *file)
{
    int fd = -1;
    if (accepting) {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        socklen_t alen = sizeof a;
        CHECK(bind(l, (struct sockaddr *)&a, sizeof a) == 0 && listen(l, 1) == 0, "listen");
        getsockname(l, (struct sockaddr *)&a, &alen);
        int port = ntohs(a.sin_port);
        if (file) {
            char text[32];
            snprintf(text, sizeof text, "%d\n", port);
            write_file(file, text);
        } else {
            CHECK_MPI(MPI_Send(&port, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
        }
        fd = accept(l, NULL, NULL);
        close(l);
    } else {
        int port = 0;
        if (file) {
            char text[32];
            read_file(file, text, sizeof text);
            port = atoi(text);
        } else {
            CHECK_MPI(MPI_Recv(&port, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET,
                                .sin_port = htons(port),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect to %d", port);
    }
    CHECK(fd >= 0, "socket");
    MPI_Comm ic;
    CHECK_MPI(MPI_Comm_join(fd, &ic));
    /* The socket stays the application's. */
    CHECK(write(fd, "x", 1) == 1, "the socket was closed by MPI_Comm_join");
    int rsize = 0;
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(rsize == 1, "join: remote size %d", rsize);
    /* Which end is which is MPI's choice: agree on it through the socket's roles. */
    exercise(ic, !accepting, accepting ? 0 : 1, file != NULL);
    close(fd);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    const char *role = argc > 1 ? argv[1] : "one-job";
    const char *file = argc > 2 ? argv[2] : NULL;
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm ic;
    if (!strcmp(role, "one-job")) {
        CHECK(wsize >= 2, "needs 2 ranks");
        errors();
        int upper = wrank >= wsize / 2;
        MPI_Comm half;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, upper, wrank, &half));
        if (!upper) {
            if (wrank == 0) {
                CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
                CHECK(strlen(port) > 0 && strlen(port) < MPI_MAX_PORT_NAME, "port name");
                CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, wsize / 2, 1,
                                   MPI_COMM_WORLD));
            }
            CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &ic));
            if (wrank == 0)
                CHECK_MPI(MPI_Close_port(port));
        } else {
            if (wrank == wsize / 2)
                CHECK_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &ic));
        }
        exercise(ic, upper, upper, 0);
        MPI_Comm_free(&half);
        if (wrank < 2)
            join(wrank == 0, NULL);
    } else if (!strcmp(role, "server") || !strcmp(role, "client")) {
        CHECK(file, "usage: dyn_ports server|client FILE");
        int server = !strcmp(role, "server");
        if (server) {
            if (wrank == 0) {
                CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
                write_file(file, port);
            }
            CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
            if (wrank == 0)
                CHECK_MPI(MPI_Close_port(port));
        } else {
            if (wrank == 0)
                read_file(file, port, sizeof port);
            CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
        }
        exercise(ic, !server, !server, 1);
    } else if (!strcmp(role, "join-server") || !strcmp(role, "join-client")) {
        CHECK(file && wsize == 1, "usage: dyn_ports join-server|join-client FILE (1 rank)");
        join(!strcmp(role, "join-server"), file);
    } else {
        CHECK(0, "unknown role %s", role);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        printf("ok dyn_ports %s [%.20s]\n", role, lib);
    }
    MPI_Finalize();
    return 0;
}
