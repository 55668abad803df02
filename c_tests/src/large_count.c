/* large_count: MPI-4's large-count point-to-point calls (the `_c` forms, MPI_Count counts)
 * and MPI-4.1's status and request accessors.
 *
 * 1. A message of more than 2^31 elements: rank 0 sends BIG_ELEMS (3 GiB + 24) bytes of
 *    MPI_BYTE with MPI_Send_c, rank 1 receives them with MPI_Recv_c; every byte checked;
 *    MPI_Get_count_c and MPI_Get_elements_x give the count, MPI_Get_count (an int) gives
 *    MPI_UNDEFINED. Skipped (with a line saying so) when LARGE_COUNT_BYTES=0.
 * 2. Every other `_c` call of point-to-point with small counts and data checked: Isend_c,
 *    Irecv_c, Issend_c, Ssend_c, Rsend_c, Bsend_c and Ibsend_c on a buffer from
 *    MPI_Buffer_attach_c (detached with MPI_Buffer_detach_c), Sendrecv_c,
 *    Sendrecv_replace_c, Isendrecv_c, Isendrecv_replace_c, Send_init_c/Recv_init_c/
 *    Ssend_init_c/Rsend_init_c/Bsend_init_c with MPI_Startall, Mprobe + Mrecv_c,
 *    Improbe + Imrecv_c.
 *    The datatype constructors' `_c` forms (contiguous, vector, hvector, indexed, hindexed,
 *    indexed_block, hindexed_block, struct, resized, subarray, darray) make the types the int forms
 *    make (size, extent, packed bytes), recorded as large counts (MPI_Type_get_envelope_c,
 *    MPI_Type_get_contents_c; MPI_Type_get_envelope refuses them); MPI_Pack_c, _Unpack_c,
 *    _Pack_size_c and the external32 ones agree with the int calls; rank 1 receives the big
 *    message as one element of a contiguous type of more than 2^31 bytes.
 *    Every rank: the collectives' `_c` forms (bcast, reduce, allreduce, scan, exscan and
 *    their nonblocking forms) with data checked; on railmpi a negative count refused at every
 *    rank, and the next collective still matches (MPICH does not check).
 * 3. A negative MPI_Count is MPI_ERR_COUNT (MPI_ERRORS_RETURN), and nothing is sent.
 * 4. MPI-4.1: MPI_Status_get/set_source/tag/error, MPI_Status_set_elements_c (with a count
 *    past 2^32); MPI_Request_get_status_any/all/some on
 *    pending, completed and null requests leave the requests alone (the handles stay, a
 *    later MPI_Waitall frees them).
 * Ranks 0 and 1 take part; others only join the final barrier. The MPI-4.1 part is built
 * where the header declares MPI 4.1 or is railmpi's (RAILMPI), which has those calls. */
#include "check.h"

#include <limits.h>

#define SMALL 1000
#define NPERS 5

/* A barrier of ranks 0 and 1 only. */
static void pair_sync(int peer)
{
    int t = 0, u = 0;
    CHECK_MPI(MPI_Sendrecv(&t, 1, MPI_INT, peer, 99, &u, 1, MPI_INT, peer, 99, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
}

static MPI_Count big_bytes(void)
{
    const char *e = getenv("LARGE_COUNT_BYTES");
    return e ? (MPI_Count)strtoll(e, NULL, 10) : (MPI_Count)3 * 1024 * 1024 * 1024 + 24;
}

static void fill_ints(int *v, int n, int seed)
{
    for (int i = 0; i < n; i++)
        v[i] = seed * 100003 + i;
}

static void check_ints(const int *v, int n, int seed, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK(v[i] == seed * 100003 + i, "%s: element %d is %d, expected %d", what, i, v[i],
              seed * 100003 + i);
}

static void check_count(const MPI_Status *st, MPI_Datatype t, MPI_Count want, const char *what)
{
    MPI_Count n = -1;
    CHECK_MPI(MPI_Get_count_c(st, t, &n));
    CHECK(n == want, "%s: MPI_Get_count_c %lld, expected %lld", what, (long long)n,
          (long long)want);
}

/* 1: more than 2^31 elements in one message. */
static void huge_message(int rank)
{
    MPI_Count n = big_bytes();
    if (n <= 0) {
        if (rank == 0)
            printf("large_count: the message of more than 2^31 elements skipped "
                   "(LARGE_COUNT_BYTES=0)\n");
        return;
    }
    unsigned char *buf = malloc((size_t)n);
    CHECK(buf != NULL, "cannot allocate %lld bytes", (long long)n);
    if (rank == 0) {
        for (MPI_Count i = 0; i < n; i++)
            buf[i] = (unsigned char)(i * 131 + (i >> 20));
        CHECK_MPI(MPI_Send_c(buf, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
    } else {
        /* Received as one element of a contiguous type of n > 2^31 bytes. */
        MPI_Status st;
        MPI_Datatype big;
        CHECK_MPI(MPI_Type_contiguous_c(n, MPI_BYTE, &big));
        CHECK_MPI(MPI_Type_commit(&big));
        MPI_Count bsize = -1, lb = -1, ext = -1;
        CHECK_MPI(MPI_Type_size_c(big, &bsize));
        CHECK_MPI(MPI_Type_get_extent_c(big, &lb, &ext));
        CHECK(bsize == n && lb == 0 && ext == n, "big type: size %lld lb %lld extent %lld",
              (long long)bsize, (long long)lb, (long long)ext);
        int isize = 0;
        CHECK_MPI(MPI_Type_size(big, &isize));
        CHECK(isize == MPI_UNDEFINED, "MPI_Type_size of a %lld-byte type: %d", (long long)n,
              isize);
        memset(buf, 0, (size_t)n);
        CHECK_MPI(MPI_Recv(buf, 1, big, 0, 7, MPI_COMM_WORLD, &st));
        check_count(&st, big, 1, "huge message as one big element");
        CHECK_MPI(MPI_Type_free(&big));
        for (MPI_Count i = 0; i < n; i++)
            CHECK(buf[i] == (unsigned char)(i * 131 + (i >> 20)),
                  "huge message: byte %lld is %u", (long long)i, buf[i]);
        check_count(&st, MPI_BYTE, n, "huge message");
        MPI_Count el = -1;
        CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &el));
        CHECK(el == n, "huge message: MPI_Get_elements_x %lld", (long long)el);
        int small = 0;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &small));
        CHECK(small == MPI_UNDEFINED, "huge message: MPI_Get_count %d, expected MPI_UNDEFINED",
              small);
        CHECK(n > INT_MAX, "the message is not past 2^31 elements");
    }
    free(buf);
}

/* 2: the other _c calls, small. */
static void small_calls(int rank)
{
    int peer = 1 - rank;
    int *a = malloc(SMALL * sizeof(int)), *b = malloc(SMALL * sizeof(int));
    MPI_Request r[2 * NPERS];
    MPI_Status st;

    /* Isend_c / Irecv_c both ways, Waitall. */
    fill_ints(a, SMALL, 10 + rank);
    CHECK_MPI(MPI_Irecv_c(b, SMALL, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend_c(a, SMALL, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    check_ints(b, SMALL, 10 + peer, "Isend_c/Irecv_c");

    /* Ssend_c, Rsend_c (receive posted first, then a barrier), Issend_c. */
    if (rank == 0) {
        fill_ints(a, SMALL, 20);
        CHECK_MPI(MPI_Ssend_c(a, SMALL, MPI_INT, 1, 2, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv_c(b, SMALL, MPI_INT, 1, 3, MPI_COMM_WORLD, &st));
        check_count(&st, MPI_INT, SMALL, "Recv_c");
        check_ints(b, SMALL, 21, "Rsend_c");
        fill_ints(a, SMALL, 22);
        CHECK_MPI(MPI_Issend_c(a, SMALL, MPI_INT, 1, 4, MPI_COMM_WORLD, &r[0]));
        CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Irecv_c(b, SMALL, MPI_INT, 0, 2, MPI_COMM_WORLD, &r[0]));
        CHECK_MPI(MPI_Wait(&r[0], &st));
        check_ints(b, SMALL, 20, "Ssend_c");
        fill_ints(a, SMALL, 21);
        CHECK_MPI(MPI_Rsend_c(a, SMALL, MPI_INT, 0, 3, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(b, SMALL, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        check_ints(b, SMALL, 22, "Issend_c");
    }

    /* Bsend_c and Ibsend_c from a buffer attached with MPI_Buffer_attach_c. */
    MPI_Count bsize = 4 * (SMALL * sizeof(int) + MPI_BSEND_OVERHEAD);
    void *battach = malloc((size_t)bsize);
    CHECK_MPI(MPI_Buffer_attach_c(battach, bsize));
    fill_ints(a, SMALL, 30 + rank);
    CHECK_MPI(MPI_Bsend_c(a, SMALL, MPI_INT, peer, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ibsend_c(a, SMALL, MPI_INT, peer, 6, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv_c(b, SMALL, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_ints(b, SMALL, 30 + peer, "Bsend_c");
    CHECK_MPI(MPI_Recv_c(b, SMALL, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    check_ints(b, SMALL, 30 + peer, "Ibsend_c");
    void *bdetach = NULL;
    MPI_Count dsize = 0;
    CHECK_MPI(MPI_Buffer_detach_c(&bdetach, &dsize));
    CHECK(bdetach == battach && dsize == bsize,
          "MPI_Buffer_detach_c gave %p and %lld, attached %p and %lld", bdetach,
          (long long)dsize, battach, (long long)bsize);
    free(battach);

    /* Sendrecv_c, Sendrecv_replace_c, Isendrecv_c, Isendrecv_replace_c. */
    fill_ints(a, SMALL, 40 + rank);
    CHECK_MPI(MPI_Sendrecv_c(a, SMALL, MPI_INT, peer, 8, b, SMALL, MPI_INT, peer, 8,
                             MPI_COMM_WORLD, &st));
    check_ints(b, SMALL, 40 + peer, "Sendrecv_c");
    check_count(&st, MPI_INT, SMALL, "Sendrecv_c");
    fill_ints(a, SMALL, 50 + rank);
    CHECK_MPI(MPI_Sendrecv_replace_c(a, SMALL, MPI_INT, peer, 9, peer, 9, MPI_COMM_WORLD, &st));
    check_ints(a, SMALL, 50 + peer, "Sendrecv_replace_c");
    fill_ints(a, SMALL, 60 + rank);
    CHECK_MPI(MPI_Isendrecv_c(a, SMALL, MPI_INT, peer, 10, b, SMALL, MPI_INT, peer, 10,
                              MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Wait(&r[0], &st));
    check_ints(b, SMALL, 60 + peer, "Isendrecv_c");
    fill_ints(a, SMALL, 70 + rank);
    CHECK_MPI(MPI_Isendrecv_replace_c(a, SMALL, MPI_INT, peer, 11, peer, 11, MPI_COMM_WORLD,
                                      &r[0]));
    CHECK_MPI(MPI_Wait(&r[0], &st));
    check_ints(a, SMALL, 70 + peer, "Isendrecv_replace_c");

    /* Persistent: each rank sends with every _init_c mode to the other, which receives with
     * Recv_init_c; one Startall for all. Rsend needs the receive posted: a barrier after
     * the receives start. */
    void *pattach = malloc(SMALL * sizeof(int) + MPI_BSEND_OVERHEAD);
    CHECK_MPI(MPI_Buffer_attach(pattach, SMALL * sizeof(int) + MPI_BSEND_OVERHEAD));
    int *pin = malloc(NPERS * SMALL * sizeof(int)), *pout = malloc(NPERS * SMALL * sizeof(int));
    for (int k = 0; k < NPERS; k++) {
        fill_ints(pout + k * SMALL, SMALL, 80 + 10 * rank + k);
        CHECK_MPI(MPI_Recv_init_c(pin + k * SMALL, SMALL, MPI_INT, peer, 20 + k, MPI_COMM_WORLD,
                                  &r[k]));
    }
    CHECK_MPI(MPI_Startall(NPERS, r));
    pair_sync(peer);
    CHECK_MPI(MPI_Send_init_c(pout, SMALL, MPI_INT, peer, 20, MPI_COMM_WORLD, &r[NPERS]));
    CHECK_MPI(MPI_Ssend_init_c(pout + SMALL, SMALL, MPI_INT, peer, 21, MPI_COMM_WORLD,
                               &r[NPERS + 1]));
    CHECK_MPI(MPI_Rsend_init_c(pout + 2 * SMALL, SMALL, MPI_INT, peer, 22, MPI_COMM_WORLD,
                               &r[NPERS + 2]));
    CHECK_MPI(MPI_Bsend_init_c(pout + 3 * SMALL, SMALL, MPI_INT, peer, 23, MPI_COMM_WORLD,
                               &r[NPERS + 3]));
    CHECK_MPI(MPI_Send_init_c(pout + 4 * SMALL, SMALL, MPI_INT, peer, 24, MPI_COMM_WORLD,
                              &r[NPERS + 4]));
    CHECK_MPI(MPI_Startall(NPERS, r + NPERS));
    CHECK_MPI(MPI_Waitall(2 * NPERS, r, MPI_STATUSES_IGNORE));
    for (int k = 0; k < NPERS; k++)
        check_ints(pin + k * SMALL, SMALL, 80 + 10 * peer + k, "persistent _init_c");
    for (int k = 0; k < 2 * NPERS; k++)
        CHECK_MPI(MPI_Request_free(&r[k]));
    int dummy_size;
    void *dummy;
    CHECK_MPI(MPI_Buffer_detach(&dummy, &dummy_size));
    free(pattach);
    free(pin);
    free(pout);

    /* Matched probe: Mprobe + Mrecv_c, Improbe + Imrecv_c. */
    fill_ints(a, SMALL, 90 + rank);
    CHECK_MPI(MPI_Isend_c(a, SMALL, MPI_INT, peer, 30, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend_c(a, SMALL / 2, MPI_INT, peer, 31, MPI_COMM_WORLD, &r[1]));
    MPI_Message m;
    CHECK_MPI(MPI_Mprobe(peer, 30, MPI_COMM_WORLD, &m, &st));
    check_count(&st, MPI_INT, SMALL, "Mprobe");
    CHECK_MPI(MPI_Mrecv_c(b, SMALL, MPI_INT, &m, &st));
    CHECK(m == MPI_MESSAGE_NULL, "MPI_Mrecv_c left the message handle");
    check_ints(b, SMALL, 90 + peer, "Mrecv_c");
    int flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Improbe(peer, 31, MPI_COMM_WORLD, &flag, &m, &st));
    MPI_Request ir;
    CHECK_MPI(MPI_Imrecv_c(b, SMALL, MPI_INT, &m, &ir));
    CHECK_MPI(MPI_Wait(&ir, &st));
    check_count(&st, MPI_INT, SMALL / 2, "Imrecv_c");
    check_ints(b, SMALL / 2, 90 + peer, "Imrecv_c");
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));

    free(a);
    free(b);
}

/* Pack `count` of `t` from `src` into a fresh buffer; its size out. */
static unsigned char *packed(const void *src, int count, MPI_Datatype t, int *len)
{
    int size = 0, pos = 0;
    CHECK_MPI(MPI_Pack_size(count, t, MPI_COMM_WORLD, &size));
    unsigned char *out = malloc(size ? size : 1);
    CHECK_MPI(MPI_Pack(src, count, t, out, size, &pos, MPI_COMM_WORLD));
    *len = pos;
    return out;
}

/* The type an int constructor and its _c form made: same layout (size, extent, packed
 * bytes of two elements over `src`), and the _c one's envelope has only large counts. */
static void same_type(MPI_Datatype a, MPI_Datatype c, const int *src, int combiner,
                      MPI_Count ncounts, const char *what)
{
    CHECK_MPI(MPI_Type_commit(&a));
    CHECK_MPI(MPI_Type_commit(&c));
    MPI_Count sa, sc, la, lc, ea, ec;
    CHECK_MPI(MPI_Type_size_c(a, &sa));
    CHECK_MPI(MPI_Type_size_c(c, &sc));
    CHECK_MPI(MPI_Type_get_extent_c(a, &la, &ea));
    CHECK_MPI(MPI_Type_get_extent_c(c, &lc, &ec));
    CHECK(sa == sc && la == lc && ea == ec, "%s: size %lld/%lld lb %lld/%lld extent %lld/%lld",
          what, (long long)sa, (long long)sc, (long long)la, (long long)lc, (long long)ea,
          (long long)ec);
    int na, nc;
    unsigned char *pa = packed(src, 2, a, &na), *pc = packed(src, 2, c, &nc);
    CHECK(na == nc && memcmp(pa, pc, na) == 0, "%s: packed bytes differ", what);
    free(pa);
    free(pc);
    MPI_Count ni, nad, nl, nd;
    int comb;
    CHECK_MPI(MPI_Type_get_envelope_c(c, &ni, &nad, &nl, &nd, &comb));
    CHECK(comb == combiner && ni == 0 && nad == 0 && nl == ncounts,
          "%s: envelope_c combiner %d, %lld integers, %lld addresses, %lld large counts "
          "(expected %lld)", what, comb, (long long)ni, (long long)nad, (long long)nl,
          (long long)ncounts);
    int ini, ina, ind, icomb;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Type_get_envelope(c, &ini, &ina, &ind, &icomb);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK(rc != MPI_SUCCESS, "%s: MPI_Type_get_envelope accepted a large-count type", what);
    CHECK_MPI(MPI_Type_get_envelope_c(a, &ni, &nad, &nl, &nd, &comb));
    CHECK(nl == 0 && comb == combiner, "%s: the int form's type has %lld large counts", what,
          (long long)nl);
    MPI_Type_free(&a);
    MPI_Type_free(&c);
}

/* 2b: the datatype constructors' _c forms against the int ones. */
static void datatypes(void)
{
    int src[64];
    for (int i = 0; i < 64; i++)
        src[i] = i * 3 + 1;
    MPI_Datatype a, c;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &a));
    CHECK_MPI(MPI_Type_contiguous_c(3, MPI_INT, &c));
    same_type(a, c, src, MPI_COMBINER_CONTIGUOUS, 1, "contiguous");
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &a));
    CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_INT, &c));
    same_type(a, c, src, MPI_COMBINER_VECTOR, 3, "vector");
    CHECK_MPI(MPI_Type_create_hvector(2, 3, 20, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_hvector_c(2, 3, 20, MPI_INT, &c));
    same_type(a, c, src, MPI_COMBINER_HVECTOR, 3, "hvector");
    int bl[3] = {2, 1, 3}, di[3] = {0, 5, 9};
    MPI_Count blc[3] = {2, 1, 3}, dic[3] = {0, 5, 9}, dbc[3] = {0, 20, 36};
    MPI_Aint dba[3] = {0, 20, 36};
    CHECK_MPI(MPI_Type_indexed(3, bl, di, MPI_INT, &a));
    CHECK_MPI(MPI_Type_indexed_c(3, blc, dic, MPI_INT, &c));
    same_type(a, c, src, MPI_COMBINER_INDEXED, 7, "indexed");
    CHECK_MPI(MPI_Type_create_hindexed(3, bl, dba, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_hindexed_c(3, blc, dbc, MPI_INT, &c));
    same_type(a, c, src, MPI_COMBINER_HINDEXED, 7, "hindexed");
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, di, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, dic, MPI_INT, &c));
    same_type(a, c, src, MPI_COMBINER_INDEXED_BLOCK, 5, "indexed_block");
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, dba, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_hindexed_block_c(3, 2, dbc, MPI_INT, &c));
    same_type(a, c, src, MPI_COMBINER_HINDEXED_BLOCK, 5, "hindexed_block");
    MPI_Datatype tys[3] = {MPI_INT, MPI_SHORT, MPI_INT};
    CHECK_MPI(MPI_Type_create_struct(3, bl, dba, tys, &a));
    CHECK_MPI(MPI_Type_create_struct_c(3, blc, dbc, tys, &c));
    same_type(a, c, src, MPI_COMBINER_STRUCT, 7, "struct");
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &a));
    CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 12, &c));
    same_type(a, c, src, MPI_COMBINER_RESIZED, 2, "resized");
    int sz[2] = {4, 6}, sub[2] = {2, 3}, st[2] = {1, 2};
    MPI_Count szc[2] = {4, 6}, subc[2] = {2, 3}, stc[2] = {1, 2};
    CHECK_MPI(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_subarray_c(2, szc, subc, stc, MPI_ORDER_C, MPI_INT, &c));
    /* Subarray's _c form keeps ndims and order as integers (MPI-4.0 Table 5.1). */
    CHECK_MPI(MPI_Type_commit(&c));
    MPI_Count ni, nad, nl, nd;
    int comb, ints[2];
    MPI_Aint addrs[1];
    MPI_Count counts[6];
    MPI_Datatype old[1];
    CHECK_MPI(MPI_Type_get_envelope_c(c, &ni, &nad, &nl, &nd, &comb));
    CHECK(ni == 2 && nl == 6 && nd == 1, "subarray_c envelope: %lld ints %lld counts",
          (long long)ni, (long long)nl);
    CHECK_MPI(MPI_Type_get_contents_c(c, 2, 0, 6, 1, ints, addrs, counts, old));
    CHECK(ints[0] == 2 && ints[1] == MPI_ORDER_C && counts[0] == 4 && counts[3] == 3 &&
              counts[5] == 2 && old[0] == MPI_INT,
          "subarray_c contents: %d %d, %lld %lld %lld", ints[0], ints[1], (long long)counts[0],
          (long long)counts[3], (long long)counts[5]);
    MPI_Type_free(&c);
    CHECK_MPI(MPI_Type_create_subarray_c(2, szc, subc, stc, MPI_ORDER_C, MPI_INT, &c));
    CHECK_MPI(MPI_Type_commit(&a));
    CHECK_MPI(MPI_Type_commit(&c));
    int na, nc;
    unsigned char *pa = packed(src, 1, a, &na), *pc = packed(src, 1, c, &nc);
    CHECK(na == nc && memcmp(pa, pc, na) == 0, "subarray: packed bytes differ");
    free(pa);
    free(pc);
    MPI_Type_free(&a);
    MPI_Type_free(&c);
    /* Darray: the _c form's global sizes are large counts, the rest integers. */
    int gs[2] = {8, 6}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
        dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 1};
    MPI_Count gsc[2] = {8, 6};
    CHECK_MPI(MPI_Type_create_darray(2, 1, 2, gs, dist, dargs, ps, MPI_ORDER_C, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_darray_c(2, 1, 2, gsc, dist, dargs, ps, MPI_ORDER_C, MPI_INT, &c));
    {
        MPI_Count dni, dna, dnl, dnd;
        int dcomb, dints[16];
        MPI_Aint daddrs[1];
        MPI_Count dcounts[2];
        MPI_Datatype dold[1];
        CHECK_MPI(MPI_Type_get_envelope_c(c, &dni, &dna, &dnl, &dnd, &dcomb));
        CHECK(dcomb == MPI_COMBINER_DARRAY && dni == 10 && dnl == 2,
              "darray_c envelope: %lld ints, %lld large counts", (long long)dni, (long long)dnl);
        CHECK_MPI(MPI_Type_get_contents_c(c, 16, 0, 2, 1, dints, daddrs, dcounts, dold));
        CHECK(dcounts[0] == 8 && dcounts[1] == 6 && dints[0] == 2 && dints[1] == 1 &&
                  dints[9] == MPI_ORDER_C,
              "darray_c contents");
        CHECK_MPI(MPI_Type_commit(&a));
        CHECK_MPI(MPI_Type_commit(&c));
        int dna2, dnc2;
        unsigned char *da = packed(src, 1, a, &dna2), *dc = packed(src, 1, c, &dnc2);
        CHECK(dna2 == dnc2 && memcmp(da, dc, dna2) == 0, "darray: packed bytes differ");
        free(da);
        free(dc);
        MPI_Type_free(&a);
        MPI_Type_free(&c);
    }

    /* Pack_c / Unpack_c / Pack_size_c and the external32 ones against the int calls. */
    CHECK_MPI(MPI_Type_vector(4, 3, 5, MPI_INT, &a));
    CHECK_MPI(MPI_Type_commit(&a));
    int isz, ipos = 0;
    MPI_Count csz, cpos = 0;
    CHECK_MPI(MPI_Pack_size(2, a, MPI_COMM_WORLD, &isz));
    CHECK_MPI(MPI_Pack_size_c(2, a, MPI_COMM_WORLD, &csz));
    CHECK(isz == csz && isz >= 2 * 12 * 4, "MPI_Pack_size %d, MPI_Pack_size_c %lld", isz,
          (long long)csz);
    unsigned char *pi = calloc(isz, 1), *pk = calloc(csz, 1);
    CHECK_MPI(MPI_Pack(src, 2, a, pi, isz, &ipos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack_c(src, 2, a, pk, csz, &cpos, MPI_COMM_WORLD));
    CHECK(ipos == cpos && memcmp(pi, pk, ipos) == 0, "MPI_Pack_c: position %lld (int %d), "
          "bytes %s", (long long)cpos, ipos, memcmp(pi, pk, ipos) ? "differ" : "equal");
    int back[64];
    memset(back, 0, sizeof back);
    cpos = 0;
    CHECK_MPI(MPI_Unpack_c(pk, csz, &cpos, back, 2, a, MPI_COMM_WORLD));
    CHECK(cpos == ipos, "MPI_Unpack_c position %lld", (long long)cpos);
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < 4; b++)
            for (int e = 0; e < 3; e++) {
                int at = k * 18 + b * 5 + e; /* extent of the vector: 18 ints */
                CHECK(back[at] == src[at], "MPI_Unpack_c: int %d is %d", at, back[at]);
            }
    MPI_Aint xsz, xpos = 0;
    MPI_Count xcsz;
    CHECK_MPI(MPI_Pack_external_size("external32", 2, a, &xsz));
    CHECK_MPI(MPI_Pack_external_size_c("external32", 2, a, &xcsz));
    CHECK(xsz == xcsz && xsz == 2 * 12 * 4, "MPI_Pack_external_size(_c): %ld %lld", (long)xsz,
          (long long)xcsz);
    MPI_Count xcpos = 0;
    CHECK_MPI(MPI_Pack_external("external32", src, 2, a, pi, isz, &xpos));
    CHECK_MPI(MPI_Pack_external_c("external32", src, 2, a, pk, csz, &xcpos));
    CHECK(xpos == xcpos && memcmp(pi, pk, xpos) == 0, "MPI_Pack_external_c differs");
    memset(back, 0, sizeof back);
    xcpos = 0;
    CHECK_MPI(MPI_Unpack_external_c("external32", pk, csz, &xcpos, back, 2, a));
    CHECK(xcpos == xpos && back[5] == src[5] && back[18 + 15 + 2] == src[18 + 15 + 2],
          "MPI_Unpack_external_c");
    free(pi);
    free(pk);
    MPI_Type_free(&a);

    /* A vector's contents through MPI_Type_get_contents_c. */
    CHECK_MPI(MPI_Type_vector_c(5, 2, -3, MPI_DOUBLE, &c));
    CHECK_MPI(MPI_Type_get_contents_c(c, 0, 0, 3, 1, ints, addrs, counts, old));
    CHECK(counts[0] == 5 && counts[1] == 2 && counts[2] == -3 && old[0] == MPI_DOUBLE,
          "vector_c contents: %lld %lld %lld", (long long)counts[0], (long long)counts[1],
          (long long)counts[2]);
    MPI_Type_free(&c);

    /* A vector of 2^30 - 1 blocks of four ints (a type of more than 2^31 elements that is
     * not contiguous): built at once and small, its size, true extent, and element counts
     * set in and read back from a status (basic elements: MPI_Get_count gives 1). */
    MPI_Datatype four, huge;
    MPI_Count hsz, tlb, text, got;
    const MPI_Count blocks = INT_MAX / 2;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &four));
    CHECK_MPI(MPI_Type_vector(blocks, 1, 3, four, &huge));
    CHECK_MPI(MPI_Type_commit(&huge));
    CHECK_MPI(MPI_Type_size_c(huge, &hsz));
    CHECK_MPI(MPI_Type_get_true_extent_c(huge, &tlb, &text));
    CHECK(hsz == 16 * blocks && tlb == 0 && text == 48 * (blocks - 1) + 16,
          "vector of 2^30 blocks: size %lld, true extent %lld", (long long)hsz, (long long)text);
    MPI_Status hst;
    int n = 0;
    CHECK_MPI(MPI_Status_set_elements_x(&hst, huge, 4 * blocks));
    CHECK_MPI(MPI_Get_elements_x(&hst, huge, &got));
    CHECK_MPI(MPI_Get_count(&hst, huge, &n));
    CHECK(got == 4 * blocks && n == 1, "vector of 2^30 blocks: %lld elements, count %d",
          (long long)got, n);
    CHECK_MPI(MPI_Status_set_elements_x(&hst, huge, 4 * blocks - 3));
    CHECK_MPI(MPI_Get_elements_x(&hst, huge, &got));
    CHECK_MPI(MPI_Get_count(&hst, huge, &n));
    CHECK(got == 4 * blocks - 3 && n == MPI_UNDEFINED,
          "vector of 2^30 blocks, one short: %lld elements, count %d", (long long)got, n);
    MPI_Type_free(&huge);
    MPI_Type_free(&four);
}

/* 3: negative MPI_Count. */
static void negative_counts(int rank)
{
    int peer = 1 - rank, x = 0, cls = -1;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Send_c(&x, -1, MPI_INT, peer, 40, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "MPI_Send_c count -1: class %d, expected MPI_ERR_COUNT", cls);
    rc = MPI_Irecv_c(&x, -5, MPI_INT, peer, 40, MPI_COMM_WORLD, &r);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "MPI_Irecv_c count -5: class %d, expected MPI_ERR_COUNT", cls);
    CHECK(r == MPI_REQUEST_NULL, "a refused MPI_Irecv_c set its request");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* Nothing was sent: the next message on the tag is this one. */
    int y = -1;
    x = 1000 + rank;
    CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, peer, 40, &y, 1, MPI_INT, peer, 40, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(y == 1000 + peer, "after the refused calls: received %d", y);
}

/* 2c: the collectives' _c forms (every rank): bcast, reduce, allreduce, scan, exscan,
 * blocking and nonblocking; a negative count is MPI_ERR_COUNT at every rank and the next
 * collective still matches. */
static void collectives(int rank, int size)
{
    enum { N = 1000 };
    long a[N], b[N];
    MPI_Request r;
    for (int i = 0; i < N; i++)
        a[i] = rank == 1 % size ? 7 * i + 3 : -1;
    CHECK_MPI(MPI_Bcast_c(a, N, MPI_LONG, 1 % size, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        CHECK(a[i] == 7 * i + 3, "MPI_Bcast_c: [%d] = %ld", i, a[i]);
    for (int i = 0; i < N; i++)
        a[i] = rank == 0 ? 11 * i : -1;
    CHECK_MPI(MPI_Ibcast_c(a, N, MPI_LONG, 0, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK(a[i] == 11 * i, "MPI_Ibcast_c: [%d] = %ld", i, a[i]);
    long sum_ranks = (long)size * (size - 1) / 2;
    for (int i = 0; i < N; i++)
        a[i] = rank + i;
    CHECK_MPI(MPI_Allreduce_c(a, b, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        CHECK(b[i] == sum_ranks + (long)size * i, "MPI_Allreduce_c: [%d] = %ld", i, b[i]);
    CHECK_MPI(MPI_Iallreduce_c(a, b, N, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK(b[i] == size - 1 + i, "MPI_Iallreduce_c: [%d] = %ld", i, b[i]);
    memset(b, 0, sizeof b);
    CHECK_MPI(MPI_Reduce_c(a, b, N, MPI_LONG, MPI_SUM, size - 1, MPI_COMM_WORLD));
    if (rank == size - 1)
        for (int i = 0; i < N; i++)
            CHECK(b[i] == sum_ranks + (long)size * i, "MPI_Reduce_c: [%d] = %ld", i, b[i]);
    CHECK_MPI(MPI_Ireduce_c(a, b, N, MPI_LONG, MPI_MIN, 0, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (rank == 0)
        for (int i = 0; i < N; i++)
            CHECK(b[i] == i, "MPI_Ireduce_c: [%d] = %ld", i, b[i]);
    CHECK_MPI(MPI_Scan_c(a, b, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        CHECK(b[i] == (long)rank * (rank + 1) / 2 + (long)(rank + 1) * i, "MPI_Scan_c");
    CHECK_MPI(MPI_Iscan_c(a, b, N, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK(b[i] == rank + i, "MPI_Iscan_c");
    CHECK_MPI(MPI_Exscan_c(a, b, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    if (rank > 0)
        for (int i = 0; i < N; i++)
            CHECK(b[i] == (long)rank * (rank - 1) / 2 + (long)rank * i, "MPI_Exscan_c");
    CHECK_MPI(MPI_Iexscan_c(a, b, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (rank > 0)
        for (int i = 0; i < N; i++)
            CHECK(b[i] == (long)rank * (rank - 1) / 2 + (long)rank * i, "MPI_Iexscan_c");
#ifdef RAILMPI
    /* MPICH 4 and 5 do not check (they crash): railmpi only. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Allreduce_c(a, b, -3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "MPI_Allreduce_c count -3: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
    CHECK_MPI(MPI_Allreduce_c(a, b, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK(b[0] == sum_ranks, "MPI_Allreduce_c after a refused one: %ld", b[0]);
}

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1) || defined(RAILMPI)
/* 4: MPI-4.1's status accessors and MPI_Request_get_status_any/all/some. */
static void mpi41(int rank)
{
    int peer = 1 - rank, v = -1;
    MPI_Status st;
    memset(&st, 0, sizeof st);
    CHECK_MPI(MPI_Status_set_source(&st, 3));
    CHECK_MPI(MPI_Status_set_tag(&st, 44));
    CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TAG));
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 44 && st.MPI_ERROR == MPI_ERR_TAG,
          "MPI_Status_set_*: %d %d %d", st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR);
    CHECK_MPI(MPI_Status_get_source(&st, &v));
    CHECK(v == 3, "MPI_Status_get_source %d", v);
    CHECK_MPI(MPI_Status_get_tag(&st, &v));
    CHECK(v == 44, "MPI_Status_get_tag %d", v);
    CHECK_MPI(MPI_Status_get_error(&st, &v));
    CHECK(v == MPI_ERR_TAG, "MPI_Status_get_error %d", v);
    /* MPI_Status_set_elements_c (MPI 4.0, but not in MPICH 4.0.2). */
    MPI_Count many = (MPI_Count)5 << 31;
    CHECK_MPI(MPI_Status_set_elements_c(&st, MPI_INT, many));
    check_count(&st, MPI_INT, many, "Status_set_elements_c");

    /* r[0] a receive the peer satisfies only after the first round of checks, r[1] a
     * receive satisfied at once, r[2] MPI_REQUEST_NULL. */
    int in0 = -1, in1 = -1, out0 = 500 + rank, out1 = 600 + rank, flag = -1, idx = -1, n = -1;
    int idxs[3];
    MPI_Status sts[3];
    MPI_Request r[3];
    CHECK_MPI(MPI_Irecv(&in0, 1, MPI_INT, peer, 50, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Irecv(&in1, 1, MPI_INT, peer, 51, MPI_COMM_WORLD, &r[1]));
    r[2] = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Send(&out1, 1, MPI_INT, peer, 51, MPI_COMM_WORLD));
    /* Until r[1] completes: any and some report nothing or r[1]; all reports false. */
    do {
        CHECK_MPI(MPI_Request_get_status_any(3, r, &idx, &flag, &st));
    } while (!flag);
    CHECK(idx == 1, "MPI_Request_get_status_any: index %d, expected 1", idx);
    CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 51, "get_status_any: source %d tag %d",
          st.MPI_SOURCE, st.MPI_TAG);
    CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL,
          "MPI_Request_get_status_any freed a request");
    CHECK_MPI(MPI_Request_get_status_all(3, r, &flag, sts));
    CHECK(flag == 0, "MPI_Request_get_status_all: true while r[0] is pending");
    CHECK_MPI(MPI_Request_get_status_some(3, r, &n, idxs, sts));
    CHECK(n == 1 && idxs[0] == 1, "MPI_Request_get_status_some: %d, first %d", n, idxs[0]);
    CHECK(sts[0].MPI_TAG == 51, "get_status_some: tag %d", sts[0].MPI_TAG);
    pair_sync(peer); /* both ranks checked r[0] pending */
    CHECK_MPI(MPI_Send(&out0, 1, MPI_INT, peer, 50, MPI_COMM_WORLD));
    do {
        CHECK_MPI(MPI_Request_get_status_all(3, r, &flag, sts));
    } while (!flag);
    CHECK(sts[0].MPI_TAG == 50 && sts[1].MPI_TAG == 51 && sts[0].MPI_SOURCE == peer,
          "get_status_all: tags %d %d", sts[0].MPI_TAG, sts[1].MPI_TAG);
    CHECK(sts[2].MPI_SOURCE == MPI_ANY_SOURCE && sts[2].MPI_TAG == MPI_ANY_TAG,
          "get_status_all: the null request's status is not empty");
    CHECK_MPI(MPI_Request_get_status_some(3, r, &n, idxs, sts));
    CHECK(n == 2 && idxs[0] == 0 && idxs[1] == 1, "get_status_some: %d (%d %d)", n, idxs[0],
          idxs[1]);
    CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL,
          "MPI_Request_get_status_all/some freed a request");
    CHECK_MPI(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    CHECK(in0 == 500 + peer && in1 == 600 + peer, "received %d %d", in0, in1);
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "Waitall left a request");
    /* Only null requests: any gives flag true and MPI_UNDEFINED, some MPI_UNDEFINED. */
    st.MPI_ERROR = 15;
    CHECK_MPI(MPI_Request_get_status_any(3, r, &idx, &flag, &st));
    CHECK(flag && idx == MPI_UNDEFINED, "get_status_any of null requests: %d %d", flag, idx);
    /* An empty status: any source, any tag, error MPI_SUCCESS (MPI-4.1 §3.7.3). */
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG &&
              st.MPI_ERROR == MPI_SUCCESS,
          "get_status_any of null requests: status %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG,
          st.MPI_ERROR);
    CHECK_MPI(MPI_Request_get_status_some(3, r, &n, idxs, sts));
    CHECK(n == MPI_UNDEFINED, "get_status_some of null requests: %d", n);
}
#endif

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "needs 2 ranks");
    if (rank < 2) {
        huge_message(rank);
        small_calls(rank);
        datatypes();
        negative_counts(rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    collectives(rank, size);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1) || defined(RAILMPI)
    if (rank < 2)
        mpi41(rank);
#else
    if (rank == 0)
        printf("large_count: MPI-4.1 accessors not in this MPI (%d.%d)\n", MPI_VERSION,
               MPI_SUBVERSION);
#endif
    ct_ok("large_count");
    MPI_Finalize();
    return 0;
}
