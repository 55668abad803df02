/* coll_move: the data-movement collectives (MPI_Bcast, MPI_Gather(v), MPI_Scatter(v),
 * MPI_Allgather(v), MPI_Alltoall(v,w)) on MPI_INT, MPI_DOUBLE, MPI_CHAR and a derived
 * vector type (3 blocks of 2 ints, stride 4: gaps that must stay untouched), counts 0, 1,
 * odd and >= 1 MiB in all, roots first/middle/last, MPI_IN_PLACE variants, and send and
 * receive types that differ but match in signature (6 MPI_INTs against one vector).
 * Every element is compared with what its sender put there. */
#include "check.h"

static int rank, size;
static MPI_Datatype vec_t; /* MPI_Type_vector(3, 2, 4, MPI_INT) */

enum { K_INT, K_DOUBLE, K_CHAR, K_VEC, NKINDS };
static const char *kname[NKINDS] = {"MPI_INT", "MPI_DOUBLE", "MPI_CHAR", "vector"};
static MPI_Datatype ktype(int k)
{
    return k == K_INT ? MPI_INT : k == K_DOUBLE ? MPI_DOUBLE : k == K_CHAR ? MPI_CHAR : vec_t;
}
/* Bytes one element spans (extent) and data units (int/double/char) it holds. */
static size_t kext(int k) { return k == K_INT ? 4 : k == K_DOUBLE ? 8 : k == K_CHAR ? 1 : 40; }
static int kunits(int k) { return k == K_VEC ? 6 : 1; }
/* Byte offset of data unit j of an element. */
static size_t koff(int k, int j) { return k == K_VEC ? (size_t)((j / 2) * 4 + j % 2) * 4 : 0; }

#define GAP 0xEE

static int unit_val(int seed, long u) { return (int)((seed * 1000003L + u * 7919L) % 1000000L); }

static void put_unit(int k, unsigned char *p, int v)
{
    if (k == K_DOUBLE) {
        double d = (double)v;
        memcpy(p, &d, 8);
    } else if (k == K_CHAR) {
        *p = (unsigned char)v;
    } else {
        memcpy(p, &v, 4);
    }
}

static int unit_ok(int k, const unsigned char *p, int v)
{
    if (k == K_DOUBLE) {
        double d;
        memcpy(&d, p, 8);
        return d == (double)v;
    }
    if (k == K_CHAR)
        return *p == (unsigned char)v;
    int x;
    memcpy(&x, p, 4);
    return x == v;
}

/* Buffer for `count` elements of kind k, gaps filled with GAP. */
static unsigned char *kalloc(int k, long count)
{
    size_t n = (size_t)(count > 0 ? count : 1) * kext(k);
    unsigned char *b = malloc(n);
    CHECK(b, "malloc %zu", n);
    memset(b, GAP, n);
    return b;
}

/* Element e of a message gets the units seed/(e * units + j). */
static void kfill(int k, unsigned char *b, long count, int seed)
{
    for (long e = 0; e < count; e++)
        for (int j = 0; j < kunits(k); j++)
            put_unit(k, b + e * kext(k) + koff(k, j), unit_val(seed, e * kunits(k) + j));
}

static void kcheck(int k, const unsigned char *b, long count, int seed, const char *what)
{
    for (long e = 0; e < count; e++) {
        const unsigned char *el = b + e * kext(k);
        for (int j = 0; j < kunits(k); j++)
            CHECK(unit_ok(k, el + koff(k, j), unit_val(seed, e * kunits(k) + j)),
                  "%s (%s): element %ld unit %d wrong (seed %d)", what, kname[k], e, j, seed);
        if (k == K_VEC)
            for (size_t g = 0; g < 40; g++) {
                int data = (g < 8) || (g >= 16 && g < 24) || (g >= 32 && g < 40);
                if (!data)
                    CHECK(el[g] == GAP, "%s (%s): gap byte %zu of element %ld overwritten",
                          what, kname[k], g, e);
            }
    }
}

/* A block untouched by a collective: still GAP everywhere. */
static void kuntouched(int k, const unsigned char *b, long count, const char *what)
{
    for (size_t i = 0; i < (size_t)count * kext(k); i++)
        CHECK(b[i] == GAP, "%s (%s): byte %zu written", what, kname[k], i);
}

static int roots[3];

/* ------------------------------------------------------------------ bcast */

static void test_bcast(int k, long c)
{
    for (int ri = 0; ri < 3; ri++) {
        int root = roots[ri];
        unsigned char *b = kalloc(k, c);
        if (rank == root)
            kfill(k, b, c, 11 + root);
        CHECK_MPI(MPI_Bcast(b, (int)c, ktype(k), root, MPI_COMM_WORLD));
        char what[64];
        snprintf(what, sizeof what, "Bcast count %ld root %d", c, root);
        kcheck(k, b, c, 11 + root, what);
        free(b);
    }
}

/* ------------------------------------------------------------------ gather / scatter */

static void test_gather_scatter(int k, long c)
{
    char what[96];
    for (int ri = 0; ri < 3; ri++) {
        int root = roots[ri];
        int ip = ri == 1;
        unsigned char *mine = kalloc(k, c), *all = kalloc(k, c * size);
        /* Gather (in place at the middle root). */
        kfill(k, mine, c, 100 + rank);
        if (rank == root && ip)
            kfill(k, all + (size_t)root * c * kext(k), c, 100 + rank);
        CHECK_MPI(MPI_Gather(rank == root && ip ? MPI_IN_PLACE : mine, (int)c, ktype(k), all,
                             (int)c, ktype(k), root, MPI_COMM_WORLD));
        if (rank == root)
            for (int r = 0; r < size; r++) {
                snprintf(what, sizeof what, "Gather%s count %ld root %d block %d",
                         ip ? "(IN_PLACE)" : "", c, root, r);
                kcheck(k, all + (size_t)r * c * kext(k), c, 100 + r, what);
            }
        else
            kuntouched(k, all, c * size, "Gather at a non-root");
        /* Scatter back different data (in place at the middle root). */
        memset(mine, GAP, (size_t)(c > 0 ? c : 1) * kext(k));
        if (rank == root)
            for (int r = 0; r < size; r++)
                kfill(k, all + (size_t)r * c * kext(k), c, 200 + r);
        CHECK_MPI(MPI_Scatter(all, (int)c, ktype(k), rank == root && ip ? MPI_IN_PLACE : mine,
                              (int)c, ktype(k), root, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "Scatter%s count %ld root %d", ip ? "(IN_PLACE)" : "", c,
                 root);
        if (rank == root && ip)
            kcheck(k, all + (size_t)root * c * kext(k), c, 200 + rank, what);
        else
            kcheck(k, mine, c, 200 + rank, what);
        free(mine);
        free(all);
    }
}

/* Gatherv / Scatterv: rank r has (r % 3) * c + 1 elements (c may be 0), stored in reverse
 * rank order with a gap of 2 elements between blocks. */
static void test_gatherv_scatterv(int k, long c)
{
    char what[96];
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int));
    long total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = (int)((r % 3) * c + 1);
        displs[r] = (int)total;
        total += counts[r] + 2;
    }
    for (int ri = 0; ri < 3; ri++) {
        int root = roots[ri];
        int ip = ri == 2;
        unsigned char *mine = kalloc(k, counts[rank]), *all = kalloc(k, total);
        kfill(k, mine, counts[rank], 300 + rank);
        if (rank == root && ip)
            kfill(k, all + (size_t)displs[root] * kext(k), counts[root], 300 + root);
        CHECK_MPI(MPI_Gatherv(rank == root && ip ? MPI_IN_PLACE : mine, counts[rank], ktype(k),
                              all, counts, displs, ktype(k), root, MPI_COMM_WORLD));
        if (rank == root) {
            for (int r = 0; r < size; r++) {
                snprintf(what, sizeof what, "Gatherv%s c %ld root %d block %d",
                         ip ? "(IN_PLACE)" : "", c, root, r);
                kcheck(k, all + (size_t)displs[r] * kext(k), counts[r], 300 + r, what);
                kuntouched(k, all + (size_t)(displs[r] + counts[r]) * kext(k), 2,
                           "Gatherv gap between blocks");
            }
        }
        memset(mine, GAP, (size_t)counts[rank] * kext(k));
        if (rank == root)
            for (int r = 0; r < size; r++)
                kfill(k, all + (size_t)displs[r] * kext(k), counts[r], 400 + r);
        CHECK_MPI(MPI_Scatterv(all, counts, displs, ktype(k),
                               rank == root && ip ? MPI_IN_PLACE : mine, counts[rank], ktype(k),
                               root, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "Scatterv%s c %ld root %d", ip ? "(IN_PLACE)" : "", c, root);
        if (!(rank == root && ip))
            kcheck(k, mine, counts[rank], 400 + rank, what);
        free(mine);
        free(all);
    }
    free(counts);
    free(displs);
}

/* ------------------------------------------------------------------ allgather */

static void test_allgather(int k, long c)
{
    char what[96];
    for (int ip = 0; ip < 2; ip++) {
        unsigned char *mine = kalloc(k, c), *all = kalloc(k, c * size);
        kfill(k, mine, c, 500 + rank);
        if (ip)
            kfill(k, all + (size_t)rank * c * kext(k), c, 500 + rank);
        CHECK_MPI(MPI_Allgather(ip ? MPI_IN_PLACE : mine, (int)c, ktype(k), all, (int)c,
                                ktype(k), MPI_COMM_WORLD));
        for (int r = 0; r < size; r++) {
            snprintf(what, sizeof what, "Allgather%s count %ld block %d", ip ? "(IN_PLACE)" : "",
                     c, r);
            kcheck(k, all + (size_t)r * c * kext(k), c, 500 + r, what);
        }
        free(mine);
        free(all);
    }
    /* Allgatherv, blocks in reverse order with gaps, sizes vary (some 0 when c is 0). */
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int));
    long total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = (int)(((r + 1) % 3) * c);
        displs[r] = (int)total;
        total += counts[r] + 1;
    }
    for (int ip = 0; ip < 2; ip++) {
        unsigned char *mine = kalloc(k, counts[rank]), *all = kalloc(k, total);
        kfill(k, mine, counts[rank], 600 + rank);
        if (ip)
            kfill(k, all + (size_t)displs[rank] * kext(k), counts[rank], 600 + rank);
        CHECK_MPI(MPI_Allgatherv(ip ? MPI_IN_PLACE : mine, counts[rank], ktype(k), all, counts,
                                 displs, ktype(k), MPI_COMM_WORLD));
        for (int r = 0; r < size; r++) {
            snprintf(what, sizeof what, "Allgatherv%s c %ld block %d", ip ? "(IN_PLACE)" : "", c,
                     r);
            kcheck(k, all + (size_t)displs[r] * kext(k), counts[r], 600 + r, what);
            kuntouched(k, all + (size_t)(displs[r] + counts[r]) * kext(k), 1, "Allgatherv gap");
        }
        free(mine);
        free(all);
    }
    free(counts);
    free(displs);
}

/* ------------------------------------------------------------------ alltoall */

/* Seed of the block rank `from` sends to rank `to`. */
static int a2a_seed(int from, int to) { return 1000 + from * 64 + to; }

static void test_alltoall(int k, long c)
{
    char what[96];
    for (int ip = 0; ip < 2; ip++) {
        unsigned char *s = kalloc(k, c * size), *r = kalloc(k, c * size);
        unsigned char *src = ip ? r : s;
        for (int to = 0; to < size; to++)
            kfill(k, src + (size_t)to * c * kext(k), c, a2a_seed(rank, to));
        CHECK_MPI(MPI_Alltoall(ip ? MPI_IN_PLACE : s, (int)c, ktype(k), r, (int)c, ktype(k),
                               MPI_COMM_WORLD));
        for (int from = 0; from < size; from++) {
            snprintf(what, sizeof what, "Alltoall%s count %ld from %d", ip ? "(IN_PLACE)" : "",
                     c, from);
            kcheck(k, r + (size_t)from * c * kext(k), c, a2a_seed(from, rank), what);
        }
        free(s);
        free(r);
    }
    /* Alltoallv: ranks i and j exchange ((i + j) % 3) * c + (i + j) % 2 elements (symmetric,
     * as MPI_IN_PLACE needs). */
#define A2AV_COUNT(i, j) ((int)((((i) + (j)) % 3) * c + ((i) + (j)) % 2))
    int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int));
    int *rc = malloc(size * sizeof(int)), *rd = malloc(size * sizeof(int));
    long st = 0, rt = 0;
    for (int j = 0; j < size; j++) {
        sc[j] = A2AV_COUNT(rank, j);
        rc[j] = A2AV_COUNT(j, rank);
    }
    for (int j = size - 1; j >= 0; j--) { /* reverse order, one element apart */
        sd[j] = (int)st;
        st += sc[j] + 1;
        rd[j] = (int)rt;
        rt += rc[j] + 1;
    }
    for (int ip = 0; ip < 2; ip++) {
        unsigned char *s = kalloc(k, st), *r = kalloc(k, rt);
        if (ip) {
            for (int j = 0; j < size; j++)
                kfill(k, r + (size_t)rd[j] * kext(k), rc[j], a2a_seed(rank, j) + 7);
        } else {
            for (int j = 0; j < size; j++)
                kfill(k, s + (size_t)sd[j] * kext(k), sc[j], a2a_seed(rank, j) + 7);
        }
        CHECK_MPI(MPI_Alltoallv(ip ? MPI_IN_PLACE : s, sc, sd, ktype(k), r, rc, rd, ktype(k),
                                MPI_COMM_WORLD));
        for (int j = 0; j < size; j++) {
            snprintf(what, sizeof what, "Alltoallv%s c %ld from %d", ip ? "(IN_PLACE)" : "", c,
                     j);
            kcheck(k, r + (size_t)rd[j] * kext(k), rc[j], a2a_seed(j, rank) + 7, what);
            kuntouched(k, r + (size_t)(rd[j] + rc[j]) * kext(k), 1, "Alltoallv gap");
        }
        free(s);
        free(r);
    }
    free(sc);
    free(sd);
    free(rc);
    free(rd);
}

/* Alltoallw: to even ranks blocks of 6c MPI_INTs, to odd ranks c vectors (same signature on
 * both sides: each receiver gets 6c ints as MPI_INTs or as vectors, its choice by the
 * sender's parity flipped). */
static void test_alltoallw(long c)
{
    int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int));
    int *rc = malloc(size * sizeof(int)), *rd = malloc(size * sizeof(int));
    MPI_Datatype *stp = malloc(size * sizeof(MPI_Datatype)), *rtp = malloc(size * sizeof(MPI_Datatype));
    long soff = 0, roff = 0;
    for (int j = 0; j < size; j++) {
        int svec = j % 2, rvec = !(j % 2);
        stp[j] = svec ? vec_t : MPI_INT;
        sc[j] = (int)(svec ? c : 6 * c);
        sd[j] = (int)soff;
        soff += (svec ? 40 : 24) * c + 8;
        rtp[j] = rvec ? vec_t : MPI_INT;
        rc[j] = (int)(rvec ? c : 6 * c);
        rd[j] = (int)roff;
        roff += (rvec ? 40 : 24) * c + 8;
    }
    unsigned char *s = malloc(soff + 1), *r = malloc(roff + 1);
    memset(s, GAP, soff + 1);
    memset(r, GAP, roff + 1);
    for (int j = 0; j < size; j++) {
        if (j % 2)
            kfill(K_VEC, s + sd[j], c, a2a_seed(rank, j) + 9);
        else
            kfill(K_INT, s + sd[j], 6 * c, a2a_seed(rank, j) + 9);
    }
    CHECK_MPI(MPI_Alltoallw(s, sc, sd, stp, r, rc, rd, rtp, MPI_COMM_WORLD));
    for (int j = 0; j < size; j++) {
        char what[64];
        snprintf(what, sizeof what, "Alltoallw c %ld from %d", c, j);
        if (!(j % 2))
            kcheck(K_VEC, r + rd[j], c, a2a_seed(j, rank) + 9, what);
        else
            kcheck(K_INT, r + rd[j], 6 * c, a2a_seed(j, rank) + 9, what);
    }
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(stp);
    free(rtp);
}

/* Sum of ints laid out as MPI_INTs or as vec_t elements. */
static void mix_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int vec = *dt == vec_t;
    for (long e = 0; e < *len; e++)
        for (int j = 0; j < (vec ? 6 : 1); j++) {
            size_t off = vec ? e * kext(K_VEC) + koff(K_VEC, j) : 4 * (size_t)e;
            int a, b;
            memcpy(&a, (char *)in + off, 4);
            memcpy(&b, (char *)inout + off, 4);
            b += a;
            memcpy((char *)inout + off, &b, 4);
        }
}

/* Send and receive types that differ but match in signature: 6 MPI_INTs against one
 * vector, in a gather and a broadcast. */
static void test_mixed_types(void)
{
    int root = size - 1;
    unsigned char *mine = kalloc(K_INT, 12 * size), *all = kalloc(K_VEC, 2 * size);
    kfill(K_INT, mine, 12, 700 + rank);
    CHECK_MPI(MPI_Gather(mine, 12, MPI_INT, all, 2, vec_t, root, MPI_COMM_WORLD));
    if (rank == root)
        for (int r = 0; r < size; r++)
            kcheck(K_VEC, all + (size_t)r * 2 * 40, 2, 700 + r, "Gather ints into vectors");
    if (rank == root) {
        kfill(K_VEC, all, 2 * size, 800);
        CHECK_MPI(MPI_Bcast(all, 2 * size, vec_t, root, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Bcast(mine, 12 * size, MPI_INT, root, MPI_COMM_WORLD));
        kcheck(K_INT, mine, 12 * size, 800, "Bcast vectors into ints");
    }
    /* Reductions where odd ranks describe their 12 ints as two vectors (a schedule) and
     * even ranks as plain MPI_INTs (the blocking fast path): the same messages either way.
     * (A user operation: MPI defines the predefined ones on predefined types only.) */
    {
        MPI_Op mixsum;
        CHECK_MPI(MPI_Op_create(mix_sum, 1, &mixsum));
        unsigned char *in = kalloc(K_VEC, 2), *out = kalloc(K_VEC, 2);
        int odd = rank % 2, sum[12];
        MPI_Datatype t = odd ? vec_t : MPI_INT;
        int cnt = odd ? 2 : 12;
        kfill(odd ? K_VEC : K_INT, in, cnt, 900 + rank);
        kfill(odd ? K_VEC : K_INT, out, cnt, 0);
        for (int i = 0; i < 12; i++) {
            sum[i] = 0;
            for (int r = 0; r < size; r++) {
                int v[12];
                kfill(K_INT, (unsigned char *)v, 12, 900 + r);
                sum[i] += v[i];
            }
        }
        CHECK_MPI(MPI_Allreduce(in, out, cnt, t, mixsum, MPI_COMM_WORLD));
        for (int i = 0; i < 12; i++) {
            int v;
            memcpy(&v, out + (odd ? (i / 6) * kext(K_VEC) + koff(K_VEC, i % 6) : 4 * (size_t)i), 4);
            CHECK(v == sum[i], "Allreduce mixed types: int %d is %d, expected %d", i, v, sum[i]);
        }
        CHECK_MPI(MPI_Reduce(in, out, cnt, t, mixsum, root, MPI_COMM_WORLD));
        if (rank == root)
            for (int i = 0; i < 12; i++) {
                int v;
                memcpy(&v, out + (odd ? (i / 6) * kext(K_VEC) + koff(K_VEC, i % 6) : 4 * (size_t)i), 4);
                CHECK(v == sum[i], "Reduce mixed types: int %d is %d, expected %d", i, v, sum[i]);
            }
        /* Zero elements, odd ranks with a type whose data starts after a gap: no rank may
         * wait for a message another does not send. */
        MPI_Datatype gapped;
        int one = 1;
        MPI_Aint at = 8;
        CHECK_MPI(MPI_Type_create_hindexed(1, &one, &at, MPI_INT, &gapped));
        CHECK_MPI(MPI_Type_commit(&gapped));
        MPI_Datatype zt = odd ? gapped : MPI_INT;
        CHECK_MPI(MPI_Allreduce(in, out, 0, zt, mixsum, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Reduce(in, out, 0, zt, mixsum, root, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Bcast(in, 0, zt, root, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Alltoall(in, 0, zt, out, 0, zt, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Allgather(in, 0, zt, out, 0, zt, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Type_free(&gapped));
        CHECK_MPI(MPI_Op_free(&mixsum));
        free(in);
        free(out);
    }
    /* Allgather where odd ranks receive into vectors (a schedule) and even ranks into
     * plain ints (the blocking fast path): the same messages either way. */
    {
        int odd = rank % 2, k = odd ? K_VEC : K_INT, cnt = odd ? 1 : 6;
        unsigned char *g = kalloc(k, (long)cnt * size);
        kfill(K_INT, mine, 6, 1000 + rank);
        CHECK_MPI(MPI_Allgather(mine, 6, MPI_INT, g, cnt, odd ? vec_t : MPI_INT, MPI_COMM_WORLD));
        for (int r = 0; r < size; r++)
            kcheck(k, g + (size_t)r * cnt * kext(k), cnt, 1000 + r, "Allgather mixed types");
        free(g);
    }
    free(mine);
    free(all);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    roots[0] = 0;
    roots[1] = size / 2;
    roots[2] = size - 1;
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec_t));
    CHECK_MPI(MPI_Type_commit(&vec_t));

    static const long counts[] = {0, 1, 7, 1001};
    for (int ci = 0; ci < 4; ci++)
        for (int k = 0; k < NKINDS; k++) {
            long c = counts[ci];
            test_bcast(k, c);
            test_gather_scatter(k, c);
            test_gatherv_scatterv(k, c);
            test_allgather(k, c);
            test_alltoall(k, c);
        }
    for (int ci = 0; ci < 3; ci++)
        test_alltoallw(counts[ci]);
    test_mixed_types();

    /* >= 1 MiB in all. */
    test_bcast(K_INT, 262147);
    test_bcast(K_CHAR, 1048577);
    test_bcast(K_VEC, 43691);
    long per = (1048576 / 4 + size - 1) / size + 1; /* ints per rank: >= 1 MiB gathered */
    test_gather_scatter(K_INT, per);
    test_allgather(K_INT, per);
    test_alltoall(K_INT, per);
    test_allgather(K_VEC, per / 6 + 1);
    test_alltoall(K_VEC, per / 6 + 1);

    CHECK_MPI(MPI_Type_free(&vec_t));
    ct_ok("coll_move");
    MPI_Finalize();
    return 0;
}
