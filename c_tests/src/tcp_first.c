/* tcp_first: the job c_tests/tcp_stranger.py attacks (cases/98_rail_attacks.sh). Every rank
 * prints "pid RANK PID" and waits (60 s at most) for the file argv[1] to exist: meanwhile the
 * stranger connects to a rank's tcp port. Then rank 1 sends the first message to every other
 * rank and each answers (under lazy connections the links are made now, with the stranger's
 * connections in place); rank 1 prints "first messages in S s". With argv[2], every rank
 * then waits for that file too (the stranger comes back while the links are up), and all
 * ranks exchange checked messages. With TCP_FIRST_FILL=N in the environment, rank 1 first
 * opens descriptors until it has no more, then gives N back (the stranger's connections meet
 * a process out of descriptors). */
#include "check.h"
#include <fcntl.h>
#include <unistd.h>

static void wait_for(const char *path)
{
    double t0 = MPI_Wtime();
    while (access(path, F_OK) != 0) {
        CHECK(MPI_Wtime() - t0 < 60, "no %s after 60 s", path);
        usleep(10000);
    }
}

int main(int argc, char **argv)
{
    int rank, n;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2 && argc >= 2, "usage: tcp_first GO [GO2] (2 ranks or more)");
    const char *fill = getenv("TCP_FIRST_FILL");
    if (fill && rank == 1) {
        static int fds[65536];
        int k = 0, keep = atoi(fill);
        while (k < 65536 && (fds[k] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
            k++;
        for (int j = 0; j < keep && k > 0; j++)
            close(fds[--k]);
        printf("rank 1 holds %d more descriptors\n", k);
    }
    printf("pid %d %d\n", rank, (int)getpid());
    fflush(stdout);
    wait_for(argv[1]);

    int v = 0;
    if (rank == 1) {
        double t0 = MPI_Wtime();
        for (int p = 0; p < n; p++) {
            if (p == 1)
                continue;
            v = 100 + p;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, p, 1, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, p, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(v == 200 + p, "answer %d from rank %d", v, p);
        }
        printf("first messages in %.3f s\n", MPI_Wtime() - t0);
        fflush(stdout);
    } else {
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(v == 100 + rank, "message %d from rank 1", v);
        v = 200 + rank;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));
    }

    if (argc > 2) {
        wait_for(argv[2]);
        /* Every pair, both ways, checked. */
        for (int round = 0; round < 10; round++) {
            for (int p = 0; p < n; p++) {
                int out = rank * 1000 + p + round, in = -1;
                CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, p, 3, &in, 1, MPI_INT, p, 3,
                                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK(in == p * 1000 + rank + round, "got %d from rank %d", in, p);
            }
        }
    }
    ct_ok("tcp_first");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
