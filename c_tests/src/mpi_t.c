/* The tool information interface (MPI_T, MPI-4.1 §15.3), as a tool uses it: initialised
 * before MPI_Init, every control variable, performance variable and category enumerated
 * through the standard's string protocol, error codes returned (no handler runs).
 *
 * railmpi only (#ifdef RAILMPI): the RAILMPI_* settings as control variables with the values
 * in force (this program sets RAILMPI_EAGER_LIMIT before MPI_Init), read-only; the protocol
 * counters following the traffic this program makes (eager messages, rendezvous of 1 MiB);
 * the per-rail variables with one element per rail. Runs with any number of ranks: rank r
 * sends to r ^ 1. */
#include "check.h"

#define EXPECT_RC(call, want)                                                             \
    do {                                                                                  \
        int rc_ = (call);                                                                 \
        CHECK(rc_ == (want), "%s returned %d, not %s (%d)", #call, rc_, #want, (want));   \
    } while (0)

/* Whether `b` is one of the bindings MPI-4.1 names (MPI_T_BIND_MPI_SESSION, MPI-4.0's,
 * among them; a switch over them compiles only when their values are distinct): with
 * railmpi's headers (both ABIs) and MPICH 5's, not Debian's MPICH 4.0.2, which lacks it. */
#if defined(RAILMPI) || defined(MPI_ABI_VERSION) || MPI_VERSION >= 5
#define CT_HAVE_BIND_SESSION 1
static int known_bind(int b)
{
    switch (b) {
    case MPI_T_BIND_NO_OBJECT:
    case MPI_T_BIND_MPI_COMM:
    case MPI_T_BIND_MPI_DATATYPE:
    case MPI_T_BIND_MPI_ERRHANDLER:
    case MPI_T_BIND_MPI_FILE:
    case MPI_T_BIND_MPI_GROUP:
    case MPI_T_BIND_MPI_OP:
    case MPI_T_BIND_MPI_REQUEST:
    case MPI_T_BIND_MPI_WIN:
    case MPI_T_BIND_MPI_MESSAGE:
    case MPI_T_BIND_MPI_INFO:
    case MPI_T_BIND_MPI_SESSION:
        return 1;
    }
    return 0;
}
#endif

#ifdef RAILMPI
/* A performance variable's value through a fresh handle (its element 0). */
static unsigned long long pvar(MPI_T_pvar_session s, const char *name)
{
    int i, count;
    MPI_T_pvar_handle h;
    CHECK_MPI(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &i));
    CHECK_MPI(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count));
    CHECK(count == 1, "%s: count %d", name, count);
    unsigned long long v = 0;
    CHECK_MPI(MPI_T_pvar_read(s, h, &v));
    CHECK_MPI(MPI_T_pvar_handle_free(s, &h));
    CHECK(h == MPI_T_PVAR_HANDLE_NULL, "handle not NULL after free");
    return v;
}
#endif

int main(int argc, char **argv)
{
    int provided = -1, n = -1;
#ifdef RAILMPI
    setenv("RAILMPI_EAGER_LIMIT", "12000", 1);
    /* MPICH's numbers in its ABI (MPI_T_BIND_MPI_SESSION follows MPI_T_BIND_MPI_INFO). */
    CHECK(MPI_T_BIND_NO_OBJECT == 9700 && MPI_T_BIND_MPI_INFO == 9710 &&
              MPI_T_BIND_MPI_SESSION == 9711,
          "MPI_T_BIND_* %d %d %d", MPI_T_BIND_NO_OBJECT, MPI_T_BIND_MPI_INFO,
          MPI_T_BIND_MPI_SESSION);
#endif
    /* Not initialised: the calls say so. */
    EXPECT_RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT_RC(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    /* Before MPI_Init, and twice (each init is matched by a finalize). */
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided %d",
          provided);
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK_MPI(MPI_T_finalize());
    CHECK_MPI(MPI_T_cvar_get_num(&n));
    CHECK(n > 0, "%d control variables", n);
    int ncvar = n;

    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Every control variable: the name's length first, then the name. */
    char name[256], desc[1024];
    for (int i = 0; i < ncvar; i++) {
        int name_len = 0, desc_len = sizeof desc, verbosity, bind, scope;
        MPI_Datatype dt;
        MPI_T_enum et;
        CHECK_MPI(MPI_T_cvar_get_info(i, NULL, &name_len, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL));
        CHECK(name_len > 1 && name_len <= (int)sizeof name, "cvar %d: name length %d", i,
              name_len);
        int want = name_len;
        CHECK_MPI(MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &dt, &et, desc, &desc_len,
                                      &bind, &scope));
        CHECK(name_len == want && (int)strlen(name) == want - 1,
              "cvar %d: length %d, then %d for %s", i, want, name_len, name);
        int idx = -1;
        CHECK_MPI(MPI_T_cvar_get_index(name, &idx));
        CHECK(idx == i, "cvar %s: index %d, not %d", name, idx, i);
#ifdef CT_HAVE_BIND_SESSION
        CHECK(known_bind(bind), "cvar %s: bind %d", name, bind);
#endif
#ifdef RAILMPI
        CHECK(strncmp(name, "RAILMPI_", 8) == 0, "cvar %d is %s", i, name);
        CHECK(dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_CHAR, "%s: datatype", name);
        CHECK(bind == MPI_T_BIND_NO_OBJECT && scope == MPI_T_SCOPE_CONSTANT && desc_len > 1,
              "%s: bind %d scope %d desc_len %d", name, bind, scope, desc_len);
#endif
    }
    /* A short buffer: the name cut, NUL-terminated, its stored length returned. */
    int short_len = 5;
    CHECK_MPI(MPI_T_cvar_get_info(0, name, &short_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    CHECK(short_len == 5 && strlen(name) == 4, "cut name: %d, \"%s\"", short_len, name);
    EXPECT_RC(MPI_T_cvar_get_info(ncvar, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
              MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
              MPI_T_ERR_INVALID_INDEX);
    int idx;
    EXPECT_RC(MPI_T_cvar_get_index("no such variable", &idx), MPI_T_ERR_INVALID_NAME);

#ifdef RAILMPI
    {
        /* A number: the value in force. */
        MPI_T_cvar_handle h;
        int count = 0;
        unsigned long long v = 0;
        CHECK_MPI(MPI_T_cvar_get_index("RAILMPI_EAGER_LIMIT", &idx));
        CHECK_MPI(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
        CHECK(count == 1, "RAILMPI_EAGER_LIMIT: count %d", count);
        CHECK_MPI(MPI_T_cvar_read(h, &v));
        CHECK(v == 12000, "RAILMPI_EAGER_LIMIT reads %llu", v);
        EXPECT_RC(MPI_T_cvar_write(h, &v), MPI_T_ERR_CVAR_SET_NEVER);
        CHECK_MPI(MPI_T_cvar_handle_free(&h));
        CHECK(h == MPI_T_CVAR_HANDLE_NULL, "cvar handle not NULL after free");
        EXPECT_RC(MPI_T_cvar_read(h, &v), MPI_T_ERR_INVALID_HANDLE);
        /* A string: the environment's or the default. */
        char rails[4096];
        CHECK_MPI(MPI_T_cvar_get_index("RAILMPI_RAILS", &idx));
        CHECK_MPI(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
        CHECK(count >= 2 && count <= (int)sizeof rails, "RAILMPI_RAILS: count %d", count);
        CHECK_MPI(MPI_T_cvar_read(h, rails));
        const char *env = getenv("RAILMPI_RAILS");
        CHECK(strcmp(rails, env ? env : "shm,tcp") == 0, "RAILMPI_RAILS reads \"%s\"", rails);
        CHECK_MPI(MPI_T_cvar_handle_free(&h));
    }
#endif

    /* Categories: each lists valid variables; every control variable in one of them. */
    int ncat = 0, npvar = 0;
    CHECK_MPI(MPI_T_category_get_num(&ncat));
    CHECK_MPI(MPI_T_pvar_get_num(&npvar));
    int *seen = calloc(ncvar + 1, sizeof(int));
    for (int c = 0; c < ncat; c++) {
        int name_len = sizeof name, nc = -1, np = -1, nsub = -1;
        CHECK_MPI(MPI_T_category_get_info(c, name, &name_len, NULL, NULL, &nc, &np, &nsub));
        int back = -1;
        CHECK_MPI(MPI_T_category_get_index(name, &back));
        CHECK(back == c, "category %s: index %d, not %d", name, back, c);
        int *ids = malloc(sizeof(int) * (nc + np + nsub + 1));
        CHECK_MPI(MPI_T_category_get_cvars(c, nc, ids));
        for (int k = 0; k < nc; k++) {
            CHECK(ids[k] >= 0 && ids[k] < ncvar, "category %s: cvar %d", name, ids[k]);
            seen[ids[k]]++;
        }
        CHECK_MPI(MPI_T_category_get_pvars(c, np, ids));
        for (int k = 0; k < np; k++)
            CHECK(ids[k] >= 0 && ids[k] < npvar, "category %s: pvar %d", name, ids[k]);
        CHECK_MPI(MPI_T_category_get_categories(c, nsub, ids));
        for (int k = 0; k < nsub; k++)
            CHECK(ids[k] >= 0 && ids[k] < ncat, "category %s: category %d", name, ids[k]);
        free(ids);
    }
#ifdef RAILMPI
    for (int i = 0; i < ncvar; i++)
        CHECK(seen[i] == 1, "cvar %d is in %d categories", i, seen[i]);
#endif
    free(seen);
    EXPECT_RC(MPI_T_category_get_info(ncat, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
              MPI_T_ERR_INVALID_INDEX);
    int stamp = -1;
    CHECK_MPI(MPI_T_category_changed(&stamp));

    /* Performance variables: names round-trip with their class. */
    for (int i = 0; i < npvar; i++) {
        int name_len = sizeof name, verbosity, var_class, bind, readonly, continuous, atomic;
        MPI_Datatype dt;
        MPI_T_enum et;
        CHECK_MPI(MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &dt, &et, NULL,
                                      NULL, &bind, &readonly, &continuous, &atomic));
        int back = -1;
        CHECK_MPI(MPI_T_pvar_get_index(name, var_class, &back));
        CHECK(back == i, "pvar %s: index %d, not %d", name, back, i);
#ifdef CT_HAVE_BIND_SESSION
        CHECK(known_bind(bind), "pvar %s: bind %d", name, bind);
#endif
#ifdef RAILMPI
        CHECK(readonly && continuous, "pvar %s: readonly %d continuous %d", name, readonly,
              continuous);
        CHECK(dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_DOUBLE, "pvar %s: datatype", name);
#endif
    }

    MPI_T_pvar_session s;
    CHECK_MPI(MPI_T_pvar_session_create(&s));
#ifdef RAILMPI
    /* The protocol counters follow this program's traffic. */
    int peer = rank ^ 1;
    int active = peer < size;
    const unsigned long long eager0 = pvar(s, "railmpi_eager_sends");
    const unsigned long long rndv0 = pvar(s, "railmpi_rndv_sends") + pvar(s, "railmpi_pipeline_sends");
    const unsigned long long got0 =
        pvar(s, "railmpi_rndv_rdma_recvs") + pvar(s, "railmpi_rndv_streamed_recvs");
    enum { SMALL = 10, LARGE = 3, BIG = 1 << 20 };
    char *big = malloc(BIG);
    int x = 0;
    if (active) {
        for (int i = 0; i < SMALL; i++) {
            if (rank % 2 == 0)
                CHECK_MPI(MPI_Send(&i, 1, MPI_INT, peer, 1, MPI_COMM_WORLD));
            else
                CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        for (int i = 0; i < LARGE; i++) {
            if (rank % 2 == 0)
                CHECK_MPI(MPI_Send(big, BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD));
            else
                CHECK_MPI(MPI_Recv(big, BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        if (rank % 2 == 0) {
            unsigned long long e = pvar(s, "railmpi_eager_sends") - eager0;
            unsigned long long r =
                pvar(s, "railmpi_rndv_sends") + pvar(s, "railmpi_pipeline_sends") - rndv0;
            CHECK(e >= SMALL && r == LARGE, "sent %d small, %d of 1 MiB: eager %llu, rendezvous %llu",
                  SMALL, LARGE, e, r);
        } else {
            unsigned long long g = pvar(s, "railmpi_rndv_rdma_recvs") +
                                   pvar(s, "railmpi_rndv_streamed_recvs") - got0;
            CHECK(g >= LARGE, "received %d rendezvous: counted %llu", LARGE, g);
        }
    }
    free(big);

    /* Per rail: one element per rail; the weights are doubles. */
    {
        int i, count = 0;
        MPI_T_pvar_handle h;
        CHECK_MPI(MPI_T_pvar_get_index("railmpi_rail_bytes", MPI_T_PVAR_CLASS_COUNTER, &i));
        CHECK_MPI(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count));
        CHECK(count >= 1 && count <= 16, "railmpi_rail_bytes: count %d", count);
        unsigned long long bytes[16];
        CHECK_MPI(MPI_T_pvar_read(s, h, bytes));
        /* Continuous and read-only. */
        EXPECT_RC(MPI_T_pvar_start(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
        EXPECT_RC(MPI_T_pvar_stop(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
        EXPECT_RC(MPI_T_pvar_reset(s, h), MPI_T_ERR_PVAR_NO_WRITE);
        EXPECT_RC(MPI_T_pvar_write(s, h, bytes), MPI_T_ERR_PVAR_NO_WRITE);
        EXPECT_RC(MPI_T_pvar_readreset(s, h, bytes), MPI_T_ERR_PVAR_NO_WRITE);
        CHECK_MPI(MPI_T_pvar_get_index("railmpi_rail_weight", MPI_T_PVAR_CLASS_LEVEL, &i));
        EXPECT_RC(MPI_T_pvar_get_index("railmpi_rail_weight", MPI_T_PVAR_CLASS_COUNTER, &i),
                  MPI_T_ERR_INVALID_NAME);
        /* A handle of another session is not this one's. */
        MPI_T_pvar_session other;
        CHECK_MPI(MPI_T_pvar_session_create(&other));
        EXPECT_RC(MPI_T_pvar_read(other, h, bytes), MPI_T_ERR_INVALID_HANDLE);
        CHECK_MPI(MPI_T_pvar_session_free(&other));
        CHECK(other == MPI_T_PVAR_SESSION_NULL, "session not NULL after free");
        EXPECT_RC(MPI_T_pvar_read(other, h, bytes), MPI_T_ERR_INVALID_SESSION);
        CHECK_MPI(MPI_T_pvar_handle_free(s, &h));
    }
#endif
    /* For all handles at once: nothing to refuse. MPI_T_pvar_read takes one handle. */
    CHECK_MPI(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_MPI(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_MPI(MPI_T_pvar_session_free(&s));

    /* Events and sources. */
    int nev = -1, nsrc = -1;
    CHECK_MPI(MPI_T_event_get_num(&nev));
    CHECK(nev >= 0, "%d event types", nev);
    CHECK_MPI(MPI_T_source_get_num(&nsrc));
    for (int i = 0; i < nsrc; i++) {
        MPI_Count t1 = 0, t2 = 0, tps = 0, max = 0;
        MPI_T_source_order order;
        MPI_Info info = MPI_INFO_NULL;
        int name_len = sizeof name;
        CHECK_MPI(MPI_T_source_get_info(i, name, &name_len, NULL, NULL, &order, &tps, &max,
                                        &info));
        CHECK(tps > 0, "source %s: %lld ticks per second", name, (long long)tps);
        if (info != MPI_INFO_NULL)
            MPI_Info_free(&info);
        if (MPI_T_source_get_timestamp(i, &t1) == MPI_SUCCESS) {
            CHECK_MPI(MPI_T_source_get_timestamp(i, &t2));
            if (order == MPI_T_SOURCE_ORDERED)
                CHECK(t2 >= t1, "source %s went back: %lld, %lld", name, (long long)t1,
                      (long long)t2);
        }
    }
#ifdef RAILMPI
    CHECK(nev == 0 && nsrc == 1, "%d events, %d sources", nev, nsrc);
    EXPECT_RC(MPI_T_event_get_index("no such event", &idx), MPI_T_ERR_INVALID_NAME);
    EXPECT_RC(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, name, &idx), MPI_T_ERR_INVALID_HANDLE);
#endif

    CHECK_MPI(MPI_T_finalize());
#ifdef RAILMPI
    /* Every init matched (MPICH 5 keeps the interface up while MPI is). */
    EXPECT_RC(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
#endif
    ct_ok("mpi_t");
    MPI_Finalize();
    return 0;
}
