/* sessions: the Sessions model of MPI-4 (MPI-4.0 §11.3), and the World model in the same
 * process.
 *
 * 1. Before MPI_Init: MPI_Session_init (MPI_Initialized stays 0); the process sets
 *    (mpi://WORLD and mpi://SELF among them; names read with pset_len 0 first, then cut
 *    short, then whole); their "mpi_size"; MPI_Session_get_info's thread_level; groups from
 *    both sets; communicators from them (MPI_Comm_create_from_group) -- two from the same
 *    group under different string tags, used interleaved -- with collectives and
 *    point-to-point data checked; an intercommunicator from the even and odd ranks
 *    (MPI_Intercomm_create_from_groups) with data across it.
 * 2. A session's buffer (MPI_Session_attach_buffer, MPI-4.1: compiled where the header is
 *    4.1's or railmpi's): a buffered send on a communicator made from the session's group,
 *    flushed, the buffer detached (same address and size).
 * 3. Error handlers: a session's own (MPI_Session_create_errhandler) runs for an unknown
 *    process set name (MPI_ERR_ARG) and for MPI_Session_call_errhandler; the handler given
 *    to MPI_Comm_create_from_group is the new communicator's.
 * 4. MPI_Init while the session is open: MPI_COMM_WORLD and the session's communicator side
 *    by side; a second session opened and closed; MPI_Finalize with the first session still
 *    open (MPI_Finalized 1) -- its communicator still works -- then MPI_Session_finalize.
 * Any number of ranks >= 2. Checked on MPICH 5.0.2 (Debian's MPICH 4.0.2 aborts at the
 * unknown process set although the session has a handler of its own). */
#include "check.h"

static int handler_calls, handler_code;

static void session_handler(MPI_Session *s, int *code, ...)
{
    (void)s;
    handler_calls++;
    handler_code = *code;
}

static int comm_handler_calls;
static void comm_handler(MPI_Comm *c, int *code, ...)
{
    (void)c;
    (void)code;
    comm_handler_calls++;
}

static int find_pset(MPI_Session s, const char *want)
{
    int n = 0;
    CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    for (int i = 0; i < n; i++) {
        int len = 0;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        CHECK(len > 1 && len < 1000, "pset %d: length %d", i, len);
        char name[1000], cut[4];
        int short_len = (int)sizeof cut;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &short_len, cut));
        CHECK(strlen(cut) == sizeof cut - 1, "pset %d cut to %zu characters", i, strlen(cut));
        int full = len;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &full, name));
        CHECK((int)strlen(name) == len - 1, "pset %d: %s is not %d long", i, name, len - 1);
        CHECK(strncmp(cut, name, sizeof cut - 1) == 0, "pset %d: %s is not %s...", i, name, cut);
        if (strcasecmp(name, want) == 0)
            return 1;
    }
    return 0;
}

static MPI_Comm comm_of(MPI_Session s, const char *pset, const char *tag, MPI_Errhandler eh)
{
    MPI_Group g;
    MPI_Comm c;
    CHECK_MPI(MPI_Group_from_session_pset(s, pset, &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, eh, &c));
    CHECK_MPI(MPI_Group_free(&g));
    return c;
}

int main(int argc, char **argv)
{
    MPI_Session s;
    int flag = -1;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK(s != MPI_SESSION_NULL, "MPI_Session_init gave MPI_SESSION_NULL");
    MPI_Initialized(&flag);
    CHECK(flag == 0, "MPI_Initialized %d with a session only", flag);

    CHECK(find_pset(s, "mpi://WORLD") && find_pset(s, "mpi://SELF"), "no mpi://WORLD or SELF");
    MPI_Info info;
    char val[64];
    CHECK_MPI(MPI_Session_get_info(s, &info));
    int vlen = sizeof val, found = 0;
    CHECK_MPI(MPI_Info_get_string(info, "thread_level", &vlen, val, &found));
    CHECK(found && strncmp(val, "MPI_THREAD_", 11) == 0, "thread_level %s", found ? val : "-");
    MPI_Info_free(&info);

    /* mpi://WORLD: two communicators under different string tags, used interleaved. */
    MPI_Comm a = comm_of(s, "mpi://WORLD", "org.railmpi.sessions.a", MPI_ERRORS_RETURN);
    MPI_Comm b = comm_of(s, "mpi://WORLD", "org.railmpi.sessions.b", MPI_ERRORS_RETURN);
    int rank, size, rb, sb;
    MPI_Comm_rank(a, &rank);
    MPI_Comm_size(a, &size);
    MPI_Comm_rank(b, &rb);
    MPI_Comm_size(b, &sb);
    CHECK(size >= 2 && rb == rank && sb == size, "a: %d/%d, b: %d/%d", rank, size, rb, sb);
    CHECK_MPI(MPI_Session_get_pset_info(s, "mpi://WORLD", &info));
    vlen = sizeof val;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_size", &vlen, val, &found));
    CHECK(found && atoi(val) == size, "mpi://WORLD mpi_size %s, not %d", found ? val : "-", size);
    MPI_Info_free(&info);
    long x = rank + 1, sa = 0, sb2 = 0;
    MPI_Request r[2];
    CHECK_MPI(MPI_Iallreduce(&x, &sa, 1, MPI_LONG, MPI_SUM, a, &r[0]));
    CHECK_MPI(MPI_Iallreduce(&x, &sb2, 1, MPI_LONG, MPI_MAX, b, &r[1]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(sa == (long)size * (size + 1) / 2 && sb2 == size, "allreduce over a: %ld, b: %ld", sa,
          sb2);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, right, 5, &got, 1, MPI_INT, left, 5, b,
                           MPI_STATUS_IGNORE));
    CHECK(got == left, "ring over b: %d from %d", got, left);

    /* mpi://SELF. */
    MPI_Comm self = comm_of(s, "mpi://SELF", "org.railmpi.sessions.self", MPI_ERRORS_RETURN);
    int ss = 0;
    MPI_Comm_size(self, &ss);
    CHECK(ss == 1, "mpi://SELF communicator of %d", ss);
    CHECK_MPI(MPI_Session_get_pset_info(s, "mpi://SELF", &info));
    vlen = sizeof val;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_size", &vlen, val, &found));
    CHECK(found && strcmp(val, "1") == 0, "mpi://SELF mpi_size %s", found ? val : "-");
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Comm_free(&self));

    /* Even and odd ranks, joined by an intercommunicator. */
    MPI_Group world, even, odd;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
    int ne = (size + 1) / 2, no = size / 2, ranks[256];
    for (int i = 0; i < ne; i++)
        ranks[i] = 2 * i;
    CHECK_MPI(MPI_Group_incl(world, ne, ranks, &even));
    for (int i = 0; i < no; i++)
        ranks[i] = 2 * i + 1;
    CHECK_MPI(MPI_Group_incl(world, no, ranks, &odd));
    MPI_Comm inter;
    int mine = rank % 2;
    CHECK_MPI(MPI_Intercomm_create_from_groups(mine ? odd : even, 0, mine ? even : odd, 0,
                                               "org.railmpi.sessions.inter", MPI_INFO_NULL,
                                               MPI_ERRORS_RETURN, &inter));
    int rsize = 0, is_inter = 0;
    MPI_Comm_test_inter(inter, &is_inter);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(is_inter && rsize == (mine ? ne : no), "intercomm: inter %d, remote size %d",
          is_inter, rsize);
    long lsum = 0;
    CHECK_MPI(MPI_Allreduce(&x, &lsum, 1, MPI_LONG, MPI_SUM, inter));
    long want = 0;
    for (int p = 0; p < size; p++)
        if (p % 2 != mine)
            want += p + 1;
    CHECK(lsum == want, "allreduce across the intercommunicator: %ld, not %ld", lsum, want);
    CHECK_MPI(MPI_Comm_free(&inter));
    MPI_Group_free(&even);
    MPI_Group_free(&odd);
    MPI_Group_free(&world);

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1) || defined(RAILMPI)
    /* The session's buffer, used by a buffered send on a communicator from its group. */
    int bufsize = 4096 + MPI_BSEND_OVERHEAD;
    char *buf = malloc(bufsize);
    CHECK_MPI(MPI_Session_attach_buffer(s, buf, bufsize));
    int msg[100], in[100];
    for (int i = 0; i < 100; i++)
        msg[i] = rank * 1000 + i;
    CHECK_MPI(MPI_Bsend(msg, 100, MPI_INT, right, 9, a));
    CHECK_MPI(MPI_Session_flush_buffer(s));
    CHECK_MPI(MPI_Recv(in, 100, MPI_INT, left, 9, a, MPI_STATUS_IGNORE));
    for (int i = 0; i < 100; i++)
        CHECK(in[i] == left * 1000 + i, "Bsend over the session's buffer: [%d] = %d", i, in[i]);
    /* A communicator derived from the session's belongs to the session too. */
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(a, &d));
    CHECK_MPI(MPI_Bsend(msg, 100, MPI_INT, right, 10, d));
    CHECK_MPI(MPI_Recv(in, 100, MPI_INT, left, 10, d, MPI_STATUS_IGNORE));
    CHECK(in[99] == left * 1000 + 99, "Bsend on a dup of the session's communicator: %d", in[99]);
    CHECK_MPI(MPI_Comm_free(&d));
    void *back = NULL;
    int backsize = 0;
    CHECK_MPI(MPI_Session_detach_buffer(s, &back, &backsize));
    CHECK(back == buf && backsize == bufsize, "detached %p/%d, attached %p/%d", back, backsize,
          (void *)buf, bufsize);
    free(buf);
#endif

    /* Error handlers. */
    MPI_Errhandler eh, got_eh;
    CHECK_MPI(MPI_Session_create_errhandler(session_handler, &eh));
    CHECK_MPI(MPI_Session_set_errhandler(s, eh));
    CHECK_MPI(MPI_Session_get_errhandler(s, &got_eh));
    CHECK(got_eh == eh, "MPI_Session_get_errhandler gave another handler");
    MPI_Errhandler_free(&got_eh);
    MPI_Group g;
    int rc = MPI_Group_from_session_pset(s, "mpi://no-such-set", &g), cls = -1;
    MPI_Error_class(handler_code, &cls);
    CHECK(handler_calls == 1 && cls == MPI_ERR_ARG, "unknown pset: handler ran %d times, class %d",
          handler_calls, cls);
#ifdef RAILMPI
    /* The call returns the code its handler got (MPICH 5.0.2 returns MPI_SUCCESS). */
    CHECK(rc == handler_code, "unknown pset: returned %d, the handler got %d", rc, handler_code);
#else
    (void)rc;
#endif
    CHECK_MPI(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_OTHER, "call_errhandler: %d calls, code %d",
          handler_calls, handler_code);
    CHECK_MPI(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&eh);
    MPI_Errhandler ceh;
    CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &ceh));
    MPI_Comm c = comm_of(s, "mpi://WORLD", "org.railmpi.sessions.eh", ceh);
    MPI_Comm_call_errhandler(c, MPI_ERR_OTHER);
    CHECK(comm_handler_calls == 1, "the communicator's handler ran %d times", comm_handler_calls);
    CHECK_MPI(MPI_Comm_free(&c));
    MPI_Errhandler_free(&ceh);

    /* The World model joins: MPI_COMM_WORLD beside the session's communicator. */
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Initialized(&flag);
    CHECK(flag == 1, "MPI_Initialized %d after MPI_Init", flag);
    int wr = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    CHECK(wr == rank, "world rank %d, session rank %d", wr, rank);
    MPI_Session s2;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    CHECK(s2 != s, "two sessions, one handle");
    MPI_Comm c2 = comm_of(s2, "mpi://WORLD", "org.railmpi.sessions.second", MPI_ERRORS_RETURN);
    long wsum = 0, s2sum = 0;
    CHECK_MPI(MPI_Allreduce(&x, &wsum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&x, &s2sum, 1, MPI_LONG, MPI_SUM, c2));
    CHECK(wsum == sa && s2sum == sa, "world %ld, second session %ld, not %ld", wsum, s2sum, sa);
    CHECK_MPI(MPI_Comm_free(&c2));
    CHECK_MPI(MPI_Session_finalize(&s2));
    CHECK(s2 == MPI_SESSION_NULL, "MPI_Session_finalize left the handle");
    CHECK_MPI(MPI_Finalize());
    MPI_Finalized(&flag);
    CHECK(flag == 1, "MPI_Finalized %d after MPI_Finalize", flag);

    /* The session outlives the World model. */
    long after = 0;
    CHECK_MPI(MPI_Allreduce(&x, &after, 1, MPI_LONG, MPI_SUM, a));
    CHECK(after == sa, "allreduce over the session after MPI_Finalize: %ld", after);
    CHECK_MPI(MPI_Barrier(a));
    if (rank == 0) {
        char ver[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(ver, &len);
        ver[strcspn(ver, "\r\n")] = 0;
        printf("ok sessions [%s]\n", ver);
        fflush(stdout);
    }
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK_MPI(MPI_Comm_free(&b));
    CHECK_MPI(MPI_Session_finalize(&s));
    return 0;
}
