/* Communicator operations on intercommunicators, for each way intercomm.h builds them:
 * MPI_Comm_dup / idup / dup_with_info (attributes copied, contexts apart; idup that does
 * not block, overlapping idups), MPI_Comm_split
 * and MPI_Comm_create in their intercommunicator forms (MPI-2.2), MPI_Comm_compare,
 * attributes with copy and delete callbacks, names, info, MPI_Comm_free, and the error
 * class (MPI_ERR_COMM) of calls that need an intracommunicator: topology constructors,
 * window creation, MPI_Comm_create_group. Every new intercommunicator is checked against
 * the groups it must have, through its group queries and through traffic on it. */
#include "intercomm.h"

static int copies, deletes;

static int copy_fn(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)key;
    (void)extra;
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int failing_copy_fn(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)key;
    (void)extra;
    (void)in;
    (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

static int delete_fn(MPI_Comm c, int key, void *val, void *extra)
{
    (void)c;
    (void)key;
    (void)val;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

/* `c` must be an intercommunicator whose groups are `lw` (nl) and `rw` (nr) by world rank,
 * with this process at local rank `me`; and it must carry traffic both ways. */
static void check_inter(MPI_Comm c, const int *lw, int nl, const int *rw, int nr, int me,
                        const char *what)
{
    int flag, n, got[CT_MAXP], world;
    MPI_Group g;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    CHECK_MPI(MPI_Comm_test_inter(c, &flag));
    CHECK(flag, "%s: not an intercommunicator", what);
    CHECK_MPI(MPI_Comm_size(c, &n));
    CHECK(n == nl, "%s: size %d, expected %d", what, n, nl);
    CHECK_MPI(MPI_Comm_remote_size(c, &n));
    CHECK(n == nr, "%s: remote size %d, expected %d", what, n, nr);
    CHECK_MPI(MPI_Comm_rank(c, &n));
    CHECK(n == me, "%s: rank %d, expected %d", what, n, me);
    CHECK_MPI(MPI_Comm_group(c, &g));
    ct_group_world(g, nl, got);
    for (int i = 0; i < nl; i++)
        CHECK(got[i] == lw[i], "%s: local rank %d is world %d, expected %d", what, i, got[i],
              lw[i]);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Comm_remote_group(c, &g));
    ct_group_world(g, nr, got);
    for (int i = 0; i < nr; i++)
        CHECK(got[i] == rw[i], "%s: remote rank %d is world %d, expected %d", what, i, got[i],
              rw[i]);
    CHECK_MPI(MPI_Group_free(&g));
    /* Collective and point-to-point traffic name the remote group. */
    CHECK_MPI(MPI_Allgather(&world, 1, MPI_INT, got, 1, MPI_INT, c));
    for (int i = 0; i < nr; i++)
        CHECK(got[i] == rw[i], "%s: allgather block %d is %d, expected %d", what, i, got[i],
              rw[i]);
    MPI_Request reqs[CT_MAXP];
    for (int j = 0; j < nr; j++)
        CHECK_MPI(MPI_Isend(&world, 1, MPI_INT, j, 3, c, &reqs[j]));
    for (int j = 0; j < nr; j++) {
        int v = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, c, &st));
        CHECK(v == rw[st.MPI_SOURCE], "%s: message from remote rank %d says world %d", what,
              st.MPI_SOURCE, v);
    }
    MPI_Status sts[CT_MAXP];
    CHECK_MPI(MPI_Waitall(nr, reqs, sts));
}

/* Members of `w` (n) whose index has parity `color`, in descending index order (the
 * order MPI_Comm_split gives for key = -index). */
static int pick(const int *w, int n, int color, int *out)
{
    int k = 0;
    for (int i = n - 1; i >= 0; i--)
        if (i % 2 == color)
            out[k++] = w[i];
    return k;
}

static void check_dup(const ct_inter *ic)
{
    int key, flag, cmp;
    void *val;
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(ic->inter, key, (void *)(intptr_t)100));
    CHECK_MPI(MPI_Comm_set_name(ic->inter, "an intercomm"));
    copies = deletes = 0;
    MPI_Comm d[3];
    MPI_Request r;
    MPI_Info info;
    CHECK_MPI(MPI_Comm_dup(ic->inter, &d[0]));
    CHECK_MPI(MPI_Comm_idup(ic->inter, &d[1], &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Comm_dup_with_info(ic->inter, info, &d[2]));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK(copies == 3, "%d attribute copies for 3 duplicates", copies);
    for (int i = 0; i < 3; i++) {
        check_inter(d[i], ic->lworld, ic->lsize, ic->rworld, ic->rsize, ic->lrank, "dup");
        CHECK_MPI(MPI_Comm_get_attr(d[i], key, &val, &flag));
        CHECK(flag && val == (void *)(intptr_t)101, "dup %d: attribute %p", i, val);
        CHECK_MPI(MPI_Comm_compare(ic->inter, d[i], &cmp));
        CHECK(cmp == MPI_CONGRUENT, "dup %d compares %d, expected MPI_CONGRUENT", i, cmp);
    }
    CHECK_MPI(MPI_Comm_compare(ic->inter, ic->inter, &cmp));
    CHECK(cmp == MPI_IDENT, "an intercommunicator compared with itself: %d", cmp);
    CHECK_MPI(MPI_Comm_compare(ic->inter, ic->local, &cmp));
    CHECK(cmp == MPI_UNEQUAL, "intercommunicator vs its local comm: %d", cmp);
    /* The duplicates' traffic stays apart: send on all three, receive in reverse. */
    int world;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    MPI_Request sr[3];
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Isend(&ic->lworld[i % ic->lsize], 1, MPI_INT, 0, i, d[i], &sr[i]));
    if (ic->lrank == 0)
        for (int j = 0; j < ic->rsize; j++)
            for (int i = 2; i >= 0; i--) {
                int v;
                MPI_Status st;
                CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, j, MPI_ANY_TAG, d[i], &st));
                CHECK(st.MPI_TAG == i && v == ic->rworld[i % ic->rsize],
                      "dup %d got tag %d value %d", i, st.MPI_TAG, v);
            }
    MPI_Status sts[3];
    CHECK_MPI(MPI_Waitall(3, sr, sts));
    /* Info on an intercommunicator. */
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "no_such_hint", "1"));
    CHECK_MPI(MPI_Comm_set_info(d[0], info));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Comm_get_info(d[0], &info));
    CHECK(info != MPI_INFO_NULL, "MPI_Comm_get_info gave MPI_INFO_NULL");
    CHECK_MPI(MPI_Info_free(&info));
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Comm_get_name(ic->inter, name, &len));
    CHECK(!strcmp(name, "an intercomm"), "name '%s'", name);
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_free(&d[i]));
    CHECK(deletes == 3, "%d attribute deletions for 3 freed duplicates", deletes);
    CHECK_MPI(MPI_Comm_delete_attr(ic->inter, key));
    CHECK(deletes == 4, "delete_attr did not call the delete callback");
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    /* A copy callback that fails: the duplicate is not made and newcomm is
     * MPI_COMM_NULL (every process fails alike, so none is left waiting). */
    CHECK_MPI(MPI_Comm_create_keyval(failing_copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(ic->inter, key, NULL));
    CHECK_MPI(MPI_Comm_set_errhandler(ic->inter, MPI_ERRORS_RETURN));
    MPI_Comm bad = ic->inter;
    CHECK(MPI_Comm_dup(ic->inter, &bad) != MPI_SUCCESS, "dup with a failing copy callback");
    CHECK(bad == MPI_COMM_NULL, "failed dup left newcomm %#x", (unsigned)bad);
    bad = ic->inter;
    CHECK(MPI_Comm_idup(ic->inter, &bad, &r) != MPI_SUCCESS, "idup with a failing copy");
    CHECK(bad == MPI_COMM_NULL, "failed idup left newcomm %#x", (unsigned)bad);
    CHECK_MPI(MPI_Comm_set_errhandler(ic->inter, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_delete_attr(ic->inter, key));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
}

/* MPI_Comm_idup must not block: local rank 0 of each group waits for synchronous sends
 * from the remote group's other members, which send them only after starting their idup.
 * Then two idups started in opposite orders by the two groups (overlapping agreements). */
static void check_idup_nonblocking(const ct_inter *ic)
{
    MPI_Comm c, pair[2], base[2];
    MPI_Request r, rs[2];
    int v = 0;
    if (ic->lrank == 0) {
        for (int j = 1; j < ic->rsize; j++)
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, j, 4, ic->inter, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_idup(ic->inter, &c, &r));
    } else {
        CHECK_MPI(MPI_Comm_idup(ic->inter, &c, &r));
        CHECK_MPI(MPI_Ssend(&v, 1, MPI_INT, 0, 4, ic->inter));
    }
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    check_inter(c, ic->lworld, ic->lsize, ic->rworld, ic->rsize, ic->lrank, "idup");
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_dup(ic->inter, &base[0]));
    CHECK_MPI(MPI_Comm_dup(ic->inter, &base[1]));
    for (int k = 0; k < 2; k++) {
        int i = ic->group ? 1 - k : k;
        CHECK_MPI(MPI_Comm_idup(base[i], &pair[i], &rs[i]));
    }
    MPI_Status sts[2];
    CHECK_MPI(MPI_Waitall(2, rs, sts));
    for (int i = 0; i < 2; i++) {
        check_inter(pair[i], ic->lworld, ic->lsize, ic->rworld, ic->rsize, ic->lrank,
                    "crossed idup");
        CHECK_MPI(MPI_Comm_free(&pair[i]));
        CHECK_MPI(MPI_Comm_free(&base[i]));
    }
}

static void check_split(const ct_inter *ic)
{
    /* Colour by parity of the local rank, key -rank: each side keeps its members of the
     * colour, in reverse order, facing the remote members of the same colour. */
    MPI_Comm s;
    int color = ic->lrank % 2;
    CHECK_MPI(MPI_Comm_split(ic->inter, color, -ic->lrank, &s));
    int lw[CT_MAXP], rw[CT_MAXP];
    int nl = pick(ic->lworld, ic->lsize, color, lw);
    int nr = pick(ic->rworld, ic->rsize, color, rw);
    if (nr == 0) {
        CHECK(s == MPI_COMM_NULL, "split with no remote member of colour %d gave a comm", color);
    } else {
        int me = 0;
        while (lw[me] != ic->lworld[ic->lrank])
            me++;
        check_inter(s, lw, nl, rw, nr, me, "split");
        /* Merge the split result: the low group first. */
        MPI_Comm m;
        int r, n;
        CHECK_MPI(MPI_Intercomm_merge(s, ic->group, &m));
        CHECK_MPI(MPI_Comm_size(m, &n));
        CHECK_MPI(MPI_Comm_rank(m, &r));
        CHECK(n == nl + nr && r == (ic->group ? nr + me : me), "merged split: rank %d of %d", r,
              n);
        CHECK_MPI(MPI_Comm_free(&m));
        CHECK_MPI(MPI_Comm_free(&s));
    }
    /* MPI_UNDEFINED on one side: nobody gets a communicator. */
    CHECK_MPI(MPI_Comm_split(ic->inter, ic->group ? MPI_UNDEFINED : 0, 0, &s));
    CHECK(s == MPI_COMM_NULL, "split against an all-undefined group gave a comm");
    /* One colour, keys reversed: the same members reordered, so MPI_SIMILAR (MPI_CONGRUENT
     * where both groups have one member). */
    CHECK_MPI(MPI_Comm_split(ic->inter, 5, -ic->lrank, &s));
    int cmp;
    CHECK_MPI(MPI_Comm_compare(ic->inter, s, &cmp));
    int want = (ic->lsize == 1 && ic->rsize == 1) ? MPI_CONGRUENT : MPI_SIMILAR;
    CHECK(cmp == want, "reversed split compares %d, expected %d", cmp, want);
    CHECK_MPI(MPI_Comm_free(&s));
}

static void check_create(const ct_inter *ic)
{
    /* Group 0 keeps all but its last member (all if alone); group 1 its even local ranks. */
    MPI_Group lg, sub;
    int keep[CT_MAXP], nk = 0, rk[CT_MAXP], nrk = 0;
    for (int i = 0; i < ic->lsize; i++)
        if (ic->group == 0 ? (i < ic->lsize - 1 || ic->lsize == 1) : i % 2 == 0)
            keep[nk++] = i;
    for (int i = 0; i < ic->rsize; i++)
        if (ic->group == 1 ? (i < ic->rsize - 1 || ic->rsize == 1) : i % 2 == 0)
            rk[nrk++] = i;
    CHECK_MPI(MPI_Comm_group(ic->inter, &lg));
    CHECK_MPI(MPI_Group_incl(lg, nk, keep, &sub));
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create(ic->inter, sub, &c));
    int me = -1;
    for (int i = 0; i < nk; i++)
        if (keep[i] == ic->lrank)
            me = i;
    if (me < 0) {
        CHECK(c == MPI_COMM_NULL, "Comm_create gave a comm outside the group");
    } else {
        int lw[CT_MAXP], rw[CT_MAXP];
        for (int i = 0; i < nk; i++)
            lw[i] = ic->lworld[keep[i]];
        for (int i = 0; i < nrk; i++)
            rw[i] = ic->rworld[rk[i]];
        check_inter(c, lw, nk, rw, nrk, me, "create");
        CHECK_MPI(MPI_Comm_free(&c));
    }
    CHECK_MPI(MPI_Group_free(&sub));
    /* An empty group on one side: MPI_COMM_NULL everywhere. */
    CHECK_MPI(MPI_Comm_create(ic->inter, ic->group ? MPI_GROUP_EMPTY : lg, &c));
    CHECK(c == MPI_COMM_NULL, "Comm_create facing an empty group gave a comm");
    CHECK_MPI(MPI_Group_free(&lg));
}

static void check_errors(const ct_inter *ic)
{
    int cls, dims[1] = {ic->lsize}, periods[1] = {0}, idx[1] = {0}, edges[1] = {0};
    MPI_Comm c;
    MPI_Win win;
    MPI_Group g;
    int buf[1];
    CHECK_MPI(MPI_Comm_set_errhandler(ic->inter, MPI_ERRORS_RETURN));
    MPI_Error_class(MPI_Cart_create(ic->inter, 1, dims, periods, 0, &c), &cls);
    CHECK(cls == MPI_ERR_COMM, "Cart_create on an intercommunicator: class %d", cls);
    MPI_Error_class(MPI_Graph_create(ic->inter, 1, idx, edges, 0, &c), &cls);
    CHECK(cls == MPI_ERR_COMM, "Graph_create on an intercommunicator: class %d", cls);
    MPI_Error_class(MPI_Dist_graph_create_adjacent(ic->inter, 0, NULL, MPI_UNWEIGHTED, 0, NULL,
                                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
                    &cls);
    CHECK(cls == MPI_ERR_COMM, "Dist_graph_create_adjacent on an intercommunicator: class %d",
          cls);
    MPI_Error_class(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, ic->inter, &win), &cls);
    CHECK(cls == MPI_ERR_COMM, "Win_create on an intercommunicator: class %d", cls);
    CHECK_MPI(MPI_Comm_group(ic->inter, &g));
    MPI_Error_class(MPI_Comm_create_group(ic->inter, g, 0, &c), &cls);
    CHECK(cls == MPI_ERR_COMM, "Comm_create_group on an intercommunicator: class %d", cls);
    CHECK_MPI(MPI_Group_free(&g));
    int topo;
    CHECK_MPI(MPI_Topo_test(ic->inter, &topo));
    CHECK(topo == MPI_UNDEFINED, "an intercommunicator has topology %d", topo);
    CHECK_MPI(MPI_Comm_set_errhandler(ic->inter, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int kind = 0; kind < CT_NKINDS; kind++) {
        ct_inter ic;
        ct_intercomm(kind, &ic);
        check_dup(&ic);
        check_idup_nonblocking(&ic);
        check_split(&ic);
        check_create(&ic);
        check_errors(&ic);
        ct_inter_free(&ic);
    }
    ct_ok("intercomm_ops");
    MPI_Finalize();
    return 0;
}
