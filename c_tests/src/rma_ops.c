/* rma_ops: every RMA communication call on every window flavor under every synchronization
 * mode, ring pattern (rank r targets (r+1)%n, so each window has exactly one origin).
 *
 * Flavors: MPI_Win_create on malloc'd memory, MPI_Win_create on MPI_Alloc_mem memory,
 * MPI_Win_allocate, MPI_Win_create_dynamic + MPI_Win_attach (addresses exchanged with
 * MPI_Get_address + MPI_Allgather of MPI_AINT). Disp units 1, sizeof(int), sizeof(double)
 * (dynamic windows: 1). Sync modes: fence; lock exclusive + flush; lock shared + flush;
 * lock_all + flush_all; PSCW (post/start/complete/wait).
 * Calls: MPI_Put, MPI_Get, MPI_Accumulate (SUM on int and double, REPLACE), MPI_Get_accumulate
 * (SUM, NO_OP), MPI_Fetch_and_op (SUM, long), MPI_Compare_and_swap (failing and succeeding),
 * and inside lock/lock_all MPI_Rput/MPI_Rget/MPI_Raccumulate/MPI_Rget_accumulate + MPI_Wait.
 * The whole target window (gaps included) is compared byte for byte with the expected image,
 * and every origin result buffer is checked. Also checks the window attributes
 * (MPI_WIN_BASE, SIZE, DISP_UNIT, CREATE_FLAVOR, MODEL) of each flavor. */
#include "check.h"

#define NI 64 /* ints per int region */
#define ND 32 /* doubles in the double region */
#define WBYTES 2816

/* Region byte offsets inside each window. */
enum {
    R_P = 0,      /* MPI_Put target */
    R_G = 256,    /* MPI_Get / MPI_Rget source (unchanged) */
    R_AI = 512,   /* Accumulate SUM int */
    R_AD = 768,   /* Accumulate SUM double */
    R_AR = 1024,  /* Accumulate REPLACE int */
    R_GA = 1280,  /* Get_accumulate SUM int */
    R_GN = 1536,  /* Get_accumulate NO_OP int (unchanged) */
    R_FO = 1792,  /* Fetch_and_op SUM long */
    R_CAS = 1800, /* Compare_and_swap int; 1804..2047 untouched gap */
    R_RP = 2048,  /* Rput */
    R_RA = 2304,  /* Raccumulate SUM int */
    R_RGA = 2560, /* Rget_accumulate SUM int */
};

static int rank, n;

static int iv(int t, int off, int i) { return t * 100000 + off * 7 + i; }
static int ov(int o, int off, int i) { return o * 1000 + off / 256 * 37 + i * 3 + 1; }
static double dv(int t, int i) { return t * 1000.0 + i + 0.5; }
static double odv(int o, int i) { return o * 10.0 + i * 0.25; }
static long lv(int t) { return 5000000000L + t; }

static void put_int(unsigned char *img, int off, int i, int v) { memcpy(img + off + i * 4, &v, 4); }

/* Initial image of the window owned by target t. */
static void init_image(unsigned char *img, int t)
{
    ct_fill(img, WBYTES, 0xabc0u + (uint32_t)t);
    static const int ints[] = {R_P, R_G, R_AI, R_AR, R_GA, R_GN, R_RP, R_RA, R_RGA};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++)
        for (int i = 0; i < NI; i++)
            put_int(img, ints[k], i, iv(t, ints[k], i));
    for (int i = 0; i < ND; i++) {
        double d = dv(t, i);
        memcpy(img + R_AD + i * 8, &d, 8);
    }
    long l = lv(t);
    memcpy(img + R_FO, &l, 8);
    put_int(img, R_CAS, 0, iv(t, R_CAS, 0));
}

/* Image after origin o applied every operation (req: request-based ones too). */
static void expected_image(unsigned char *img, int t, int o, int req)
{
    init_image(img, t);
    for (int i = 0; i < NI; i++) {
        put_int(img, R_P, i, ov(o, R_P, i));
        put_int(img, R_AI, i, iv(t, R_AI, i) + ov(o, R_AI, i));
        put_int(img, R_AR, i, ov(o, R_AR, i));
        put_int(img, R_GA, i, iv(t, R_GA, i) + ov(o, R_GA, i));
        if (req) {
            put_int(img, R_RP, i, ov(o, R_RP, i));
            put_int(img, R_RA, i, iv(t, R_RA, i) + ov(o, R_RA, i));
            put_int(img, R_RGA, i, iv(t, R_RGA, i) + ov(o, R_RGA, i));
        }
    }
    for (int i = 0; i < ND; i++) {
        double d = dv(t, i) + odv(o, i);
        memcpy(img + R_AD + i * 8, &d, 8);
    }
    long l = lv(t) + o + 5;
    memcpy(img + R_FO, &l, 8);
    put_int(img, R_CAS, 0, o * 3 + 77);
}

static const char *region_name(int off)
{
    static const struct { int off; const char *name; } r[] = {
        {R_P, "Put"}, {R_G, "Get source"}, {R_AI, "Accumulate SUM int"},
        {R_AD, "Accumulate SUM double"}, {R_AR, "Accumulate REPLACE"},
        {R_GA, "Get_accumulate SUM"}, {R_GN, "Get_accumulate NO_OP"},
        {R_FO, "Fetch_and_op"}, {R_CAS, "Compare_and_swap"}, {1804, "gap after CAS"},
        {R_RP, "Rput"}, {R_RA, "Raccumulate"}, {R_RGA, "Rget_accumulate"}};
    const char *name = "?";
    for (size_t k = 0; k < sizeof r / sizeof r[0]; k++)
        if (off >= r[k].off)
            name = r[k].name;
    return name;
}

static const char *flavor_name[] = {"create(malloc)", "create(Alloc_mem)", "allocate", "dynamic"};
static const char *mode_name[] = {"fence", "lock-exclusive", "lock-shared", "lock_all", "pscw"};

/* Origin-side buffers. */
static int o_put[NI], o_acc[NI], o_rep[NI], o_ga[NI], o_rput[NI], o_racc[NI], o_rga[NI];
static double o_accd[ND];
static int r_get[NI], r_ga[NI], r_gn[NI], r_rget[NI], r_rga[NI];
static long o_fo, r_fo;
static int cas_bad_cmp, cas_cmp, cas_swap, r_cas1, r_cas2;

static void check_attrs(MPI_Win win, int flavor, void *base, MPI_Aint size, int du)
{
    void *pbase;
    MPI_Aint *psize;
    int *pdu, *pflavor, *pmodel, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &pbase, &flag));
    CHECK(flag, "MPI_WIN_BASE not set");
    CHECK(pbase == base, "%s: MPI_WIN_BASE %p, expected %p", flavor_name[flavor], pbase, base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &psize, &flag));
    CHECK(flag && *psize == size, "%s: MPI_WIN_SIZE %ld, expected %ld", flavor_name[flavor],
          flag ? (long)*psize : -1L, (long)size);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &pdu, &flag));
    CHECK(flag && *pdu == du, "%s: MPI_WIN_DISP_UNIT %d, expected %d", flavor_name[flavor],
          flag ? *pdu : -1, du);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &pflavor, &flag));
    int want = flavor == 3 ? MPI_WIN_FLAVOR_DYNAMIC
               : flavor == 2 ? MPI_WIN_FLAVOR_ALLOCATE
                             : MPI_WIN_FLAVOR_CREATE;
    CHECK(flag && *pflavor == want, "%s: MPI_WIN_CREATE_FLAVOR %d, expected %d",
          flavor_name[flavor], flag ? *pflavor : -1, want);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &pmodel, &flag));
    CHECK(flag && (*pmodel == MPI_WIN_UNIFIED || *pmodel == MPI_WIN_SEPARATE),
          "%s: MPI_WIN_MODEL %d is neither UNIFIED nor SEPARATE", flavor_name[flavor],
          flag ? *pmodel : -1);
}

static void run_one(int flavor, int mode, int du)
{
    int next = (rank + 1) % n, prev = (rank - 1 + n) % n;
    int req = mode >= 1 && mode <= 3;
    unsigned char *mem = NULL, *want = malloc(WBYTES);
    MPI_Win win;
    MPI_Aint *bases = NULL;
    CHECK(want, "malloc");

    if (flavor == 0) {
        mem = malloc(WBYTES);
        CHECK(mem, "malloc");
        init_image(mem, rank);
        CHECK_MPI(MPI_Win_create(mem, WBYTES, du, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else if (flavor == 1) {
        CHECK_MPI(MPI_Alloc_mem(WBYTES, MPI_INFO_NULL, &mem));
        init_image(mem, rank);
        CHECK_MPI(MPI_Win_create(mem, WBYTES, du, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else if (flavor == 2) {
        CHECK_MPI(MPI_Win_allocate(WBYTES, du, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
        /* Nobody accesses the window before the Allgather below (a collective), so plain
         * stores before it are fine; the lock on self makes them visible in any model. */
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
        init_image(mem, rank);
        CHECK_MPI(MPI_Win_unlock(rank, win));
    } else {
        du = 1;
        mem = malloc(WBYTES);
        CHECK(mem, "malloc");
        init_image(mem, rank);
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        CHECK_MPI(MPI_Win_attach(win, mem, WBYTES));
    }
    bases = malloc(n * sizeof *bases);
    CHECK(bases, "malloc");
    MPI_Aint mine = 0;
    if (flavor == 3)
        CHECK_MPI(MPI_Get_address(mem, &mine));
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, bases, 1, MPI_AINT, MPI_COMM_WORLD));
    if (flavor == 3)
        check_attrs(win, flavor, MPI_BOTTOM, 0, 1);
    else
        check_attrs(win, flavor, mem, WBYTES, du);

#define D(off) (flavor == 3 ? bases[next] + (MPI_Aint)(off) : (MPI_Aint)((off) / du))

    /* Origin buffers and sentinels. */
    for (int i = 0; i < NI; i++) {
        o_put[i] = ov(rank, R_P, i);
        o_acc[i] = ov(rank, R_AI, i);
        o_rep[i] = ov(rank, R_AR, i);
        o_ga[i] = ov(rank, R_GA, i);
        o_rput[i] = ov(rank, R_RP, i);
        o_racc[i] = ov(rank, R_RA, i);
        o_rga[i] = ov(rank, R_RGA, i);
        r_get[i] = r_ga[i] = r_gn[i] = r_rget[i] = r_rga[i] = -7;
    }
    for (int i = 0; i < ND; i++)
        o_accd[i] = odv(rank, i);
    o_fo = rank + 5;
    r_fo = -7;
    cas_bad_cmp = iv(next, R_CAS, 0) + 1;
    cas_cmp = iv(next, R_CAS, 0);
    cas_swap = rank * 3 + 77;
    r_cas1 = r_cas2 = -7;

    MPI_Group wg = MPI_GROUP_NULL, gnext = MPI_GROUP_NULL, gprev = MPI_GROUP_NULL;
    switch (mode) {
    case 0:
        CHECK_MPI(MPI_Win_fence(0, win));
        break;
    case 1:
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win));
        break;
    case 2:
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
        break;
    case 3:
        CHECK_MPI(MPI_Win_lock_all(0, win));
        break;
    case 4:
        CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
        CHECK_MPI(MPI_Group_incl(wg, 1, &next, &gnext));
        CHECK_MPI(MPI_Group_incl(wg, 1, &prev, &gprev));
        CHECK_MPI(MPI_Win_post(gprev, 0, win));
        CHECK_MPI(MPI_Win_start(gnext, 0, win));
        break;
    }

    CHECK_MPI(MPI_Put(o_put, NI, MPI_INT, next, D(R_P), NI, MPI_INT, win));
    CHECK_MPI(MPI_Get(r_get, NI, MPI_INT, next, D(R_G), NI, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(o_acc, NI, MPI_INT, next, D(R_AI), NI, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Accumulate(o_accd, ND, MPI_DOUBLE, next, D(R_AD), ND, MPI_DOUBLE, MPI_SUM, win));
    CHECK_MPI(MPI_Accumulate(o_rep, NI, MPI_INT, next, D(R_AR), NI, MPI_INT, MPI_REPLACE, win));
    CHECK_MPI(MPI_Get_accumulate(o_ga, NI, MPI_INT, r_ga, NI, MPI_INT, next, D(R_GA), NI, MPI_INT,
                                 MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, r_gn, NI, MPI_INT, next, D(R_GN), NI, MPI_INT,
                                 MPI_NO_OP, win));
    CHECK_MPI(MPI_Fetch_and_op(&o_fo, &r_fo, MPI_LONG, next, D(R_FO), MPI_SUM, win));
    /* Same origin, same location, same type: accumulate ordering keeps these in order. */
    CHECK_MPI(MPI_Compare_and_swap(&cas_swap, &cas_bad_cmp, &r_cas1, MPI_INT, next, D(R_CAS), win));
    CHECK_MPI(MPI_Compare_and_swap(&cas_swap, &cas_cmp, &r_cas2, MPI_INT, next, D(R_CAS), win));
    if (req) {
        MPI_Request rq[4];
        CHECK_MPI(MPI_Rput(o_rput, NI, MPI_INT, next, D(R_RP), NI, MPI_INT, win, &rq[0]));
        CHECK_MPI(MPI_Rget(r_rget, NI, MPI_INT, next, D(R_G), NI, MPI_INT, win, &rq[1]));
        CHECK_MPI(MPI_Raccumulate(o_racc, NI, MPI_INT, next, D(R_RA), NI, MPI_INT, MPI_SUM, win,
                                  &rq[2]));
        CHECK_MPI(MPI_Rget_accumulate(o_rga, NI, MPI_INT, r_rga, NI, MPI_INT, next, D(R_RGA), NI,
                                      MPI_INT, MPI_SUM, win, &rq[3]));
        for (int k = 0; k < 4; k++) {
            CHECK_MPI(MPI_Wait(&rq[k], MPI_STATUS_IGNORE));
            CHECK(rq[k] == MPI_REQUEST_NULL, "MPI_Wait did not free RMA request %d", k);
        }
        /* Rget / Rget_accumulate results are complete after MPI_Wait. */
        for (int i = 0; i < NI; i++) {
            CHECK(r_rget[i] == iv(next, R_G, i), "%s %s du %d: Rget[%d] = %d, expected %d",
                  flavor_name[flavor], mode_name[mode], du, i, r_rget[i], iv(next, R_G, i));
            CHECK(r_rga[i] == iv(next, R_RGA, i),
                  "%s %s du %d: Rget_accumulate result[%d] = %d, expected %d", flavor_name[flavor],
                  mode_name[mode], du, i, r_rga[i], iv(next, R_RGA, i));
        }
    }

    switch (mode) {
    case 0:
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        break;
    case 1:
    case 2:
        CHECK_MPI(MPI_Win_flush(next, win));
        break;
    case 3:
        CHECK_MPI(MPI_Win_flush_all(win));
        break;
    case 4:
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_MPI(MPI_Win_wait(win));
        break;
    }

    /* Origin results (complete after flush / fence / complete). */
    for (int i = 0; i < NI; i++) {
        CHECK(r_get[i] == iv(next, R_G, i), "%s %s du %d: Get[%d] = %d, expected %d",
              flavor_name[flavor], mode_name[mode], du, i, r_get[i], iv(next, R_G, i));
        CHECK(r_ga[i] == iv(next, R_GA, i),
              "%s %s du %d: Get_accumulate(SUM) result[%d] = %d, expected %d", flavor_name[flavor],
              mode_name[mode], du, i, r_ga[i], iv(next, R_GA, i));
        CHECK(r_gn[i] == iv(next, R_GN, i),
              "%s %s du %d: Get_accumulate(NO_OP) result[%d] = %d, expected %d",
              flavor_name[flavor], mode_name[mode], du, i, r_gn[i], iv(next, R_GN, i));
    }
    CHECK(r_fo == lv(next), "%s %s du %d: Fetch_and_op result %ld, expected %ld",
          flavor_name[flavor], mode_name[mode], du, r_fo, lv(next));
    CHECK(r_cas1 == iv(next, R_CAS, 0) && r_cas2 == iv(next, R_CAS, 0),
          "%s %s du %d: Compare_and_swap results %d, %d, expected %d twice", flavor_name[flavor],
          mode_name[mode], du, r_cas1, r_cas2, iv(next, R_CAS, 0));

    if (mode == 1 || mode == 2)
        CHECK_MPI(MPI_Win_unlock(next, win));
    else if (mode == 3)
        CHECK_MPI(MPI_Win_unlock_all(win));

    /* Target side: my window was written by prev. */
    if (req) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        CHECK_MPI(MPI_Win_sync(win));
    }
    expected_image(want, rank, prev, req);
    if (memcmp(want, mem, WBYTES) != 0) {
        for (int b = 0; b < WBYTES; b++)
            CHECK(want[b] == mem[b],
                  "%s %s du %d: target window byte %d (%s) is 0x%02x, expected 0x%02x",
                  flavor_name[flavor], mode_name[mode], du, b, region_name(b), mem[b], want[b]);
    }
    if (req)
        CHECK_MPI(MPI_Win_unlock(rank, win));

    if (mode == 4) {
        MPI_Group_free(&gnext);
        MPI_Group_free(&gprev);
        MPI_Group_free(&wg);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (flavor == 3)
        CHECK_MPI(MPI_Win_detach(win, mem));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free did not set MPI_WIN_NULL");
    if (flavor == 0 || flavor == 3)
        free(mem);
    else if (flavor == 1)
        CHECK_MPI(MPI_Free_mem(mem));
    free(want);
    free(bases);
#undef D
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &n));
    CHECK(n >= 2, "needs at least 2 ranks");
    static const int dus[] = {1, (int)sizeof(int), (int)sizeof(double)};
    int runs = 0;
    for (int flavor = 0; flavor < 4; flavor++)
        for (int di = 0; di < 3; di++) {
            if (flavor == 3 && di > 0)
                continue;
            for (int mode = 0; mode < 5; mode++) {
                run_one(flavor, mode, dus[di]);
                runs++;
            }
        }
    char name[64];
    snprintf(name, sizeof name, "rma_ops n=%d windows=%d", n, runs);
    ct_ok(name);
    MPI_Finalize();
    return 0;
}
