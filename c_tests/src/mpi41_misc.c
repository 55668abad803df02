/* mpi41_misc: MPI-4.1's smaller additions.
 * 1. MPI_Remove_error_string/_code/_class: in the order the standard asks (string, then
 *    codes, then the class); on railmpi each out of order is an error (MPI_ERRORS_RETURN)
 *    that removes nothing, predefined classes cannot be removed, and a removed code is no
 *    longer an error code (MPI_Error_class fails). Adding and removing in rounds (10000 of
 *    16 classes with 5 codes and strings each: MPICH's errhan/adderr does 10000 of 32) is
 *    quick and gives removed numbers out again: after each round MPI_LASTUSEDCODE is back
 *    where it started and the next round's numbers are the first's.
 * 2. MPI_Type_get_value_index: the MINLOC/MAXLOC pair types, MPI_DATATYPE_NULL for others;
 *    MPI_Get_hw_resource_info's resource type splits with MPI_COMM_TYPE_HW_GUIDED as
 *    MPI_COMM_TYPE_SHARED does (railmpi names "mpi_shared_memory"; MPICH 5 names none).
 * 3. Buffers of buffered sends: MPI_Buffer_flush waits until the messages sent
 *    from the buffer are out of it (a buffer with room for one batch of messages, which the
 *    receiver takes only after a nap, takes the next batch after a flush);
 *    MPI_Comm_attach_buffer gives a communicator its own buffer (a buffered send on it works
 *    without a process buffer, one on MPI_COMM_WORLD fails with MPI_ERR_BUFFER),
 *    MPI_Comm_flush_buffer, MPI_Comm_detach_buffer gives it back, a freed
 *    communicator's buffer goes with it; MPI_Buffer_iflush and MPI_Comm_iflush_buffer return
 *    before the sends are out (each rank iflushes, then receives the other's message, then
 *    waits: a flush done at once would deadlock); MPI_BUFFER_AUTOMATIC takes messages of any
 *    size.
 * Ranks 0 and 1 take part in 3; others only join the final barrier. */
#include "check.h"

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1) || defined(RAILMPI)

/* The standard calls removals out of order erroneous without requiring MPI to detect
 * them; railmpi refuses them (removing nothing), MPICH 5 does not check: those checks run
 * on railmpi only (elsewhere the erroneous calls are not made). */
#ifdef RAILMPI
#define ERRONEOUS(cond, msg) CHECK(cond, msg)
#else
#define ERRONEOUS(cond, msg) ((void)0)
#endif

#define MSG (256 * 1024) /* past the eager limit: the buffer is read by the receiver */
#define NMSG 3

static int err_class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static void errors_removal(void)
{
    int cls, code, other, c = -1;
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Add_error_code(cls, &other));
    CHECK_MPI(MPI_Add_error_string(code, "code's string"));
    CHECK_MPI(MPI_Add_error_string(cls, "class's string"));

    ERRONEOUS(MPI_Remove_error_code(code) != MPI_SUCCESS, "removed a code that has a string");
    ERRONEOUS(MPI_Remove_error_class(cls) != MPI_SUCCESS, "removed a class that has codes");
    ERRONEOUS(MPI_Remove_error_string(other) != MPI_SUCCESS, "removed a string never added");
    CHECK_MPI(MPI_Remove_error_string(code));
    ERRONEOUS(MPI_Remove_error_string(code) != MPI_SUCCESS, "removed a string twice");
    char s[MPI_MAX_ERROR_STRING];
    int len = -1;
    CHECK_MPI(MPI_Error_string(code, s, &len));
    CHECK(len == 0 || strcmp(s, "code's string") != 0, "the removed string is still there");
    CHECK_MPI(MPI_Remove_error_code(code));
    ERRONEOUS(MPI_Remove_error_code(code) != MPI_SUCCESS, "removed a code twice");
    ERRONEOUS(MPI_Error_class(code, &c) != MPI_SUCCESS, "a removed code still has a class");
    ERRONEOUS(MPI_Remove_error_class(cls) != MPI_SUCCESS, "removed a class with a code left");
    CHECK_MPI(MPI_Error_class(other, &c));
    CHECK(c == cls, "the code left lost its class: %d, expected %d", c, cls);
    CHECK_MPI(MPI_Remove_error_code(other));
    ERRONEOUS(MPI_Remove_error_class(cls) != MPI_SUCCESS, "removed a class that has a string");
    CHECK_MPI(MPI_Remove_error_string(cls));
    CHECK_MPI(MPI_Remove_error_class(cls));
    ERRONEOUS(MPI_Error_class(cls, &c) != MPI_SUCCESS, "a removed class is still a class");
    ERRONEOUS(MPI_Remove_error_class(MPI_ERR_ARG) != MPI_SUCCESS, "removed a predefined class");
    /* New classes still work after removals. */
    int cls2;
    CHECK_MPI(MPI_Add_error_class(&cls2));
    CHECK_MPI(MPI_Error_class(cls2, &c));
    CHECK(c == cls2, "new class %d has class %d", cls2, c);
}

static int last_used(void)
{
    int *v = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag && v, "MPI_LASTUSEDCODE not set");
    return *v;
}

#define RCLASSES 16
#define RCODES 5

static void errors_rounds(void)
{
    int cls[RCLASSES], codes[RCLASSES][RCODES], first[RCLASSES][RCODES + 1];
    int before = last_used();
    double t0 = MPI_Wtime();
    for (int round = 0; round < 10000; round++) {
        for (int i = 0; i < RCLASSES; i++) {
            CHECK_MPI(MPI_Add_error_class(&cls[i]));
            for (int j = 0; j < RCODES; j++) {
                CHECK_MPI(MPI_Add_error_code(cls[i], &codes[i][j]));
                CHECK_MPI(MPI_Add_error_string(codes[i][j], "a string of a round"));
            }
        }
        for (int i = 0; i < RCLASSES; i++)
            for (int j = 0; j <= RCODES; j++) {
                int v = j == 0 ? cls[i] : codes[i][j - 1];
                if (round == 0)
                    first[i][j] = v;
#ifdef RAILMPI
                CHECK(v == first[i][j], "round %d: number %d, the first round's was %d", round,
                      v, first[i][j]);
#endif
            }
        int c = -1;
        CHECK_MPI(MPI_Error_class(codes[RCLASSES - 1][RCODES - 1], &c));
        CHECK(c == cls[RCLASSES - 1], "round %d: class %d, expected %d", round, c,
              cls[RCLASSES - 1]);
        for (int i = 0; i < RCLASSES; i++) {
            for (int j = 0; j < RCODES; j++) {
                CHECK_MPI(MPI_Remove_error_string(codes[i][j]));
                CHECK_MPI(MPI_Remove_error_code(codes[i][j]));
            }
            CHECK_MPI(MPI_Remove_error_class(cls[i]));
        }
#ifdef RAILMPI
        CHECK(last_used() == before, "round %d: MPI_LASTUSEDCODE %d, %d before", round,
              last_used(), before);
#endif
    }
    double t = MPI_Wtime() - t0;
    CHECK(t < 20, "10000 rounds of adding and removing error codes took %.1f s", t);
}

static void value_index(void)
{
    static const struct {
        MPI_Datatype v, i, pair;
        const char *name;
    } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT, "MPI_FLOAT_INT"},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT, "MPI_DOUBLE_INT"},
        {MPI_LONG, MPI_INT, MPI_LONG_INT, "MPI_LONG_INT"},
        {MPI_INT, MPI_INT, MPI_2INT, "MPI_2INT"},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT, "MPI_SHORT_INT"},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL (char, int)"},
        {MPI_DOUBLE, MPI_LONG, MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL (double, long)"},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        MPI_Datatype t = MPI_BYTE;
        CHECK_MPI(MPI_Type_get_value_index(pairs[k].v, pairs[k].i, &t));
        CHECK(t == pairs[k].pair, "MPI_Type_get_value_index: not %s", pairs[k].name);
    }
    MPI_Datatype t;
    CHECK(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &t) != MPI_SUCCESS,
          "MPI_DATATYPE_NULL accepted as the value type");
}

/* MPI_Get_hw_resource_info names the resource MPI_COMM_TYPE_HW_GUIDED splits by; on
 * railmpi that is the node's shared memory, which gives MPI_COMM_TYPE_SHARED's groups. */
static void hw_resources(void)
{
    MPI_Info hw;
    CHECK_MPI(MPI_Get_hw_resource_info(&hw));
    CHECK(hw != MPI_INFO_NULL, "MPI_Get_hw_resource_info gave MPI_INFO_NULL");
    char val[MPI_MAX_INFO_VAL + 1];
    int len = MPI_MAX_INFO_VAL, flag = 0;
    CHECK_MPI(MPI_Info_get_string(hw, "mpi_hw_resource_type", &len, val, &flag));
#ifdef RAILMPI
    CHECK(flag && strcmp(val, "mpi_shared_memory") == 0, "mpi_hw_resource_type: %s",
          flag ? val : "(none)");
#endif
    if (flag) {
        MPI_Info want;
        MPI_Comm node, guided;
        int a, b, r;
        CHECK_MPI(MPI_Info_create(&want));
        CHECK_MPI(MPI_Info_set(want, "mpi_hw_resource_type", val));
        CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                      &node));
        CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, want,
                                      &guided));
        CHECK(guided != MPI_COMM_NULL, "HW_GUIDED split by %s gave MPI_COMM_NULL", val);
        MPI_Comm_size(node, &a);
        MPI_Comm_size(guided, &b);
        MPI_Comm_compare(node, guided, &r);
        CHECK(a == b && r == MPI_CONGRUENT, "HW_GUIDED by %s: size %d, node %d", val, b, a);
        MPI_Comm_free(&node);
        MPI_Comm_free(&guided);
        MPI_Info_free(&want);
    }
    CHECK_MPI(MPI_Info_free(&hw));
}

static void fill(unsigned char *p, int n, int seed)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(seed * 7 + i * 13);
}

static void check_fill(const unsigned char *p, int n, int seed, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(p[i] == (unsigned char)(seed * 7 + i * 13), "%s: byte %d is %u", what, i, p[i]);
}

/* Receive NMSG messages of MSG bytes with tags tag..tag+NMSG-1 from rank 0, check them. */
static void recv_msgs(MPI_Comm comm, int tag, const char *what)
{
    unsigned char *in = malloc(MSG);
    for (int k = 0; k < NMSG; k++) {
        CHECK_MPI(MPI_Recv(in, MSG, MPI_BYTE, 0, tag + k, comm, MPI_STATUS_IGNORE));
        check_fill(in, MSG, tag + k, what);
    }
    free(in);
}

static void send_msgs(MPI_Comm comm, int tag)
{
    unsigned char *out = malloc(MSG);
    for (int k = 0; k < NMSG; k++) {
        fill(out, MSG, tag + k);
        CHECK_MPI(MPI_Bsend(out, MSG, MPI_BYTE, 1, tag + k, comm));
    }
    free(out);
}

/* The receiver takes its time, so that a buffer full of messages stays full unless the
 * sender's flush waits for them to leave. */
static void nap(void)
{
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

static void buffers(int rank, MPI_Comm dup)
{
    /* Room for exactly NMSG messages: the next batch fits only once the last one left. */
    int size = NMSG * (MSG + MPI_BSEND_OVERHEAD);
    unsigned char *b = malloc(size);

    /* The process's buffer: a full buffer, flushed, takes a second batch and a third. */
    if (rank == 0) {
        CHECK_MPI(MPI_Buffer_attach(b, size));
        send_msgs(MPI_COMM_WORLD, 100);
        CHECK_MPI(MPI_Buffer_flush());
        send_msgs(MPI_COMM_WORLD, 200);
        CHECK_MPI(MPI_Buffer_flush());
        send_msgs(MPI_COMM_WORLD, 300);
        void *addr;
        int got;
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK(addr == b && got == size, "MPI_Buffer_detach: %p %d", addr, got);
    } else {
        for (int t = 100; t <= 300; t += 100) {
            nap();
            recv_msgs(MPI_COMM_WORLD, t, "process buffer");
        }
    }

    /* A communicator's own buffer. */
    if (rank == 0) {
        CHECK_MPI(MPI_Comm_attach_buffer(dup, b, size));
        int x = 5;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Bsend(&x, 1, MPI_INT, 1, 399, MPI_COMM_WORLD);
        CHECK(err_class_of(rc) == MPI_ERR_BUFFER,
              "MPI_Bsend on MPI_COMM_WORLD without a process buffer: class %d", err_class_of(rc));
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        send_msgs(dup, 400);
        CHECK_MPI(MPI_Comm_flush_buffer(dup));
        send_msgs(dup, 500);
        CHECK_MPI(MPI_Comm_flush_buffer(dup));
        send_msgs(dup, 600);
        void *addr;
        int got;
        CHECK_MPI(MPI_Comm_detach_buffer(dup, &addr, &got));
        CHECK(addr == b && got == size, "MPI_Comm_detach_buffer: %p %d", addr, got);
        /* Attached to a communicator that is then freed: a new one does not inherit it. */
        MPI_Comm tmp, tmp2;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &tmp));
        CHECK_MPI(MPI_Comm_attach_buffer(tmp, b, size));
        CHECK_MPI(MPI_Comm_free(&tmp));
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &tmp2));
        MPI_Comm_set_errhandler(tmp2, MPI_ERRORS_RETURN);
        rc = MPI_Bsend(&x, 1, MPI_INT, 0, 301, tmp2);
        CHECK(err_class_of(rc) == MPI_ERR_BUFFER,
              "MPI_Bsend on a new communicator found a freed one's buffer (class %d)",
              err_class_of(rc));
        CHECK_MPI(MPI_Comm_free(&tmp2));
    } else {
        for (int t = 400; t <= 600; t += 100) {
            nap();
            recv_msgs(dup, t, "communicator buffer");
        }
    }

    /* MPI_Buffer_iflush / MPI_Comm_iflush_buffer return at once: on both ranks a buffered
     * send of a rendezvous-sized message, the iflush, then the receive of the other's, then
     * the wait (a blocking flush there would wait for a receive not yet posted). */
    {
        int peer = 1 - rank;
        unsigned char *out = malloc(MSG), *in = malloc(MSG);
        MPI_Request r;
        fill(out, MSG, 40 + rank);
        CHECK_MPI(MPI_Buffer_attach(b, size));
        CHECK_MPI(MPI_Bsend(out, MSG, MPI_BYTE, peer, 950, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Buffer_iflush(&r));
        CHECK_MPI(MPI_Recv(in, MSG, MPI_BYTE, peer, 950, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        check_fill(in, MSG, 40 + peer, "around MPI_Buffer_iflush");
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left the iflush request");
        void *addr;
        int got;
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK_MPI(MPI_Comm_attach_buffer(dup, b, size));
        fill(out, MSG, 50 + rank);
        CHECK_MPI(MPI_Bsend(out, MSG, MPI_BYTE, peer, 951, dup));
        CHECK_MPI(MPI_Comm_iflush_buffer(dup, &r));
        int flag = 1;
        CHECK_MPI(MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(in, MSG, MPI_BYTE, peer, 951, dup, MPI_STATUS_IGNORE));
        check_fill(in, MSG, 50 + peer, "around MPI_Comm_iflush_buffer");
        while (!flag)
            CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        if (r != MPI_REQUEST_NULL)
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_detach_buffer(dup, &addr, &got));
        free(out);
        free(in);
    }

    /* MPI_BUFFER_AUTOMATIC: messages of any size, no space to size. */
    if (rank == 0) {
        CHECK_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
        send_msgs(dup, 700);
        send_msgs(MPI_COMM_WORLD, 800);
        send_msgs(MPI_COMM_WORLD, 900);
        void *addr;
        int got;
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK(addr == MPI_BUFFER_AUTOMATIC, "MPI_Buffer_detach of the automatic buffer: %p", addr);
    } else {
        nap();
        recv_msgs(dup, 700, "MPI_BUFFER_AUTOMATIC");
        recv_msgs(MPI_COMM_WORLD, 800, "MPI_BUFFER_AUTOMATIC");
        recv_msgs(MPI_COMM_WORLD, 900, "MPI_BUFFER_AUTOMATIC");
    }
    free(b);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    errors_removal();
    errors_rounds();
    value_index();
    hw_resources();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK(size >= 2, "needs 2 ranks");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    if (rank < 2)
        buffers(rank, dup);
    CHECK_MPI(MPI_Comm_free(&dup));
    ct_ok("mpi41_misc");
    MPI_Finalize();
    return 0;
}
#else
/* An MPI before 4.1 (Debian's MPICH 4.0.2, which builds every test program too). */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    printf("mpi41_misc: MPI %d.%d has none of these calls\n", MPI_VERSION, MPI_SUBVERSION);
    ct_ok("mpi41_misc");
    MPI_Finalize();
    return 0;
}
#endif
