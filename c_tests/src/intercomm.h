/* Intercommunicators built from MPI_COMM_WORLD the ways MPICH's test suite builds them
 * (header only, for the intercomm_*.c programs; needs at least 2 processes):
 *
 *   CT_EVEN_ODD  even world ranks and odd ones; leaders local rank 0; peer MPI_COMM_WORLD
 *   CT_HALVES    the lower size/2 ranks and the rest (uneven for odd sizes); the leaders
 *                are each group's last local rank; peer a duplicate of MPI_COMM_WORLD
 *   CT_ONE_REST  world rank 0 alone and the others in reverse order (key -rank); the
 *                second group's leader is its local rank 1 when it has one
 *
 * ct_intercomm fills a ct_inter: the intercommunicator, the local intracommunicator it was
 * made from, which group this process is in (0 or 1; group 0 holds world rank 0), and the
 * world ranks of both groups in local-rank order, for the programs to check against.
 */
#ifndef CT_INTERCOMM_H
#define CT_INTERCOMM_H

#include "check.h"

enum { CT_EVEN_ODD, CT_HALVES, CT_ONE_REST, CT_NKINDS };

static const char *const ct_kind_name[CT_NKINDS] = {"even/odd", "halves", "one/rest"};

#define CT_MAXP 64

typedef struct {
    MPI_Comm inter, local;
    int kind, group, lsize, rsize, lrank;
    int lworld[CT_MAXP], rworld[CT_MAXP]; /* world ranks by local / remote rank */
} ct_inter;

static int ct_color(int kind, int w, int size)
{
    switch (kind) {
    case CT_EVEN_ODD:
        return w % 2;
    case CT_HALVES:
        return w >= size / 2;
    default:
        return w != 0;
    }
}

static int ct_key(int kind, int w)
{
    return kind == CT_ONE_REST ? -w : w;
}

/* World ranks of group `g`, by key then world rank (MPI_Comm_split's order). */
static int ct_members(int kind, int g, int size, int *out)
{
    int n = 0;
    for (int w = 0; w < size; w++)
        if (ct_color(kind, w, size) == g)
            out[n++] = w;
    for (int i = 1; i < n; i++) /* insertion sort by key (ranks already ascending) */
        for (int j = i; j > 0 && ct_key(kind, out[j]) < ct_key(kind, out[j - 1]); j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The local rank of each group's leader. */
static int ct_leader(int kind, int nmembers)
{
    switch (kind) {
    case CT_HALVES:
        return nmembers - 1;
    case CT_ONE_REST:
        return nmembers > 1 ? 1 : 0;
    default:
        return 0;
    }
}

static void ct_intercomm(int kind, ct_inter *ic)
{
    int rank, size;
    MPI_Comm peer = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2 && size <= CT_MAXP, "needs 2..%d processes", CT_MAXP);
    ic->kind = kind;
    ic->group = ct_color(kind, rank, size);
    ic->lsize = ct_members(kind, ic->group, size, ic->lworld);
    ic->rsize = ct_members(kind, !ic->group, size, ic->rworld);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, ic->group, ct_key(kind, rank), &ic->local));
    CHECK_MPI(MPI_Comm_rank(ic->local, &ic->lrank));
    CHECK(ic->lworld[ic->lrank] == rank, "split order: local rank %d", ic->lrank);
    if (kind == CT_HALVES)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &peer));
    int lead = ct_leader(kind, ic->lsize);
    int remote_lead = ic->rworld[ct_leader(kind, ic->rsize)];
    /* Non-leaders pass arguments that would be wrong at a leader: they are not used. */
    if (ic->lrank != lead)
        CHECK_MPI(MPI_Intercomm_create(ic->local, lead, MPI_COMM_NULL, -7, 100 + kind, &ic->inter));
    else
        CHECK_MPI(MPI_Intercomm_create(ic->local, lead, peer, remote_lead, 100 + kind,
                                       &ic->inter));
    if (peer != MPI_COMM_WORLD)
        CHECK_MPI(MPI_Comm_free(&peer));
}

static inline void ct_inter_free(ct_inter *ic)
{
    CHECK_MPI(MPI_Comm_free(&ic->inter));
    CHECK_MPI(MPI_Comm_free(&ic->local));
}

/* The world ranks of `g`'s members in group order, through MPI_Group_translate_ranks. */
static inline void ct_group_world(MPI_Group g, int n, int *out)
{
    MPI_Group world;
    int ranks[CT_MAXP];
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_translate_ranks(g, n, ranks, world, out));
    CHECK_MPI(MPI_Group_free(&world));
}

#endif
