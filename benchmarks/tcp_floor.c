/*
 * tcp_floor — the kernel's floor under every MPI's latency across hosts: a ping-pong
 * over one TCP connection with no MPI at all, written for the railmpi project.
 *
 *   tcp_floor server ADDR PORT [-i SCALE]    (in one host: accepts one connection)
 *   tcp_floor client ADDR PORT [-i SCALE]    (in the other: prints the table)
 *
 * TCP_NODELAY; both sides busy-poll (epoll_wait with a zero timeout, then a
 * non-blocking recv), as the MPI implementations it is compared with do. For each
 * size of hosts-bench's latency table the pair runs warm-up round trips, then the
 * timed ones; the figure is half the mean round trip in microseconds, in the
 * format of benchmarks/latency.c ("%-10ld %18.2f"). Every message carries a byte
 * pattern that the other side checks: a broken exchange exits non-zero. Every wait
 * is bounded (10 s without progress ends the run with an error).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const long sizes[] = {8, 1024, 16384, 65536, 262144, 1048576};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define STALL 10.0 /* seconds without a byte before giving up */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    perror(what);
    exit(1);
}

/* Send all of buf (blocking socket). */
static void send_all(int fd, const char *buf, long len)
{
    while (len > 0) {
        ssize_t n = send(fd, buf, (size_t)len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            die("send");
        buf += n;
        len -= n;
    }
}

/* Receive exactly len bytes by busy polling; bounded by STALL. */
static void recv_all(int ep, int fd, char *buf, long len)
{
    double last = now();
    while (len > 0) {
        struct epoll_event ev;
        if (epoll_wait(ep, &ev, 1, 0) <= 0) {
            if (now() - last > STALL) {
                fprintf(stderr, "tcp_floor: no data for %.0f s\n", STALL);
                exit(1);
            }
            continue;
        }
        ssize_t n = recv(fd, buf, (size_t)len, MSG_DONTWAIT);
        if (n == 0) {
            fprintf(stderr, "tcp_floor: the peer closed the connection\n");
            exit(1);
        }
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR)
                continue;
            die("recv");
        }
        buf += n;
        len -= n;
        last = now();
    }
}

static void fill(char *buf, long len, int seed)
{
    for (long i = 0; i < len; i++)
        buf[i] = (char)((i * 7 + seed) & 0xff);
}

static void check(const char *buf, long len, int seed)
{
    for (long i = 0; i < len; i++)
        if (buf[i] != (char)((i * 7 + seed) & 0xff)) {
            fprintf(stderr, "tcp_floor: byte %ld of a %ld-byte message is wrong\n", i, len);
            exit(1);
        }
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
        fprintf(stderr, "usage: tcp_floor server|client ADDR PORT [-i SCALE]\n");
        return 2;
    }
    int server = !strcmp(argv[1], "server");
    double scale = 1;
    if (argc >= 6 && !strcmp(argv[4], "-i"))
        scale = atof(argv[5]);
    if (!(scale > 0))
        scale = 1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)atoi(argv[3]));
    if (inet_pton(AF_INET, argv[2], &a.sin_addr) != 1) {
        fprintf(stderr, "tcp_floor: bad address %s\n", argv[2]);
        return 2;
    }
    int fd = -1, one = 1;
    if (server) {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        if (l < 0)
            die("socket");
        setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 1))
            die("bind/listen");
        /* A client that never comes ends the run in 10 s. */
        struct pollfd p = {.fd = l, .events = POLLIN};
        if (poll(&p, 1, 10000) != 1) {
            fprintf(stderr, "tcp_floor: no client within 10 s\n");
            return 1;
        }
        fd = accept(l, NULL, NULL);
        if (fd < 0)
            die("accept");
        close(l);
    } else {
        /* The server may not listen yet: retry for up to 10 s. */
        for (int tries = 0; tries < 1000; tries++) {
            fd = socket(AF_INET, SOCK_STREAM, 0);
            if (fd < 0)
                die("socket");
            if (!connect(fd, (struct sockaddr *)&a, sizeof a))
                break;
            close(fd);
            fd = -1;
            usleep(10000);
        }
        if (fd < 0)
            die("connect");
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int ep = epoll_create1(0);
    struct epoll_event e = {.events = EPOLLIN};
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e))
        die("epoll");
    char *out = malloc(sizes[NSIZES - 1]), *in = malloc(sizes[NSIZES - 1]);
    if (!out || !in)
        die("malloc");
    if (!server) {
        printf("# tcp_floor: TCP ping-pong without MPI\n");
        printf("%-10s %18s\n", "# Size", "Latency (us)");
    }
    for (size_t k = 0; k < NSIZES; k++) {
        long len = sizes[k];
        long iters = (long)((len <= 8192 ? 10000 : 1000) * scale);
        long warm = (long)((len <= 8192 ? 1000 : 100) * scale);
        if (iters < 1)
            iters = 1;
        fill(out, len, server ? 2 : 1);
        double t0 = 0;
        for (long i = 0; i < warm + iters; i++) {
            if (i == warm)
                t0 = now();
            if (!server)
                send_all(fd, out, len);
            recv_all(ep, fd, in, len);
            if (server)
                send_all(fd, out, len);
        }
        double t = now() - t0;
        /* The last message of each direction is checked whole. */
        check(in, len, server ? 1 : 2);
        if (!server)
            printf("%-10ld %18.2f\n", len, t / iters / 2 * 1e6);
    }
    free(out);
    free(in);
    close(fd);
    return 0;
}
