/* grp_errors: error classes of groups, communicator creation, attributes, info objects and
 * topologies, under MPI_ERRORS_RETURN (set on MPI_COMM_WORLD and MPI_COMM_SELF, since
 * calls without a communicator report there). Each bad call must fail with MPI's class
 * (MPICH's where MPI leaves it open) and leave its output alone; the library must keep
 * working afterwards. */
#include "check.h"

static int rank, size;

#define EXPECT(cls, call)                                                                   \
    do {                                                                                    \
        int rc_ = (call), c_ = -1;                                                          \
        CHECK(rc_ != MPI_SUCCESS, "%s succeeded, expected class %d", #call, cls);           \
        MPI_Error_class(rc_, &c_);                                                          \
        CHECK(c_ == (cls), "%s: error class %d, expected %d (%s)", #call, c_, cls, #cls);   \
    } while (0)

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

    /* Groups: bad ranks (MPI_ERR_RANK), bad handles (MPI_ERR_GROUP), bad ranges (MPI_ERR_ARG). */
    MPI_Group world, ng = MPI_GROUP_NULL;
    int out[4] = {-9, -9, -9, -9}, n;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int r_big[1] = {size}, r_neg[1] = {-1}, r_many[1] = {0};
    EXPECT(MPI_ERR_RANK, MPI_Group_incl(world, 1, r_big, &ng));
    EXPECT(MPI_ERR_RANK, MPI_Group_excl(world, 1, r_neg, &ng));
    EXPECT(MPI_ERR_ARG, MPI_Group_incl(world, -1, r_many, &ng));
    CHECK(ng == MPI_GROUP_NULL, "a failed group constructor wrote its output");
    EXPECT(MPI_ERR_RANK, MPI_Group_translate_ranks(world, 1, r_big, world, out));
    int r_neg2[1] = {-2}; /* -1 is MPI_PROC_NULL, which translates */
    EXPECT(MPI_ERR_RANK, MPI_Group_translate_ranks(world, 1, r_neg2, world, out));
    EXPECT(MPI_ERR_GROUP, MPI_Group_size(MPI_GROUP_NULL, &n));
    EXPECT(MPI_ERR_GROUP, MPI_Group_rank(MPI_GROUP_NULL, &n));
    EXPECT(MPI_ERR_GROUP, MPI_Group_union(world, MPI_GROUP_NULL, &ng));
    EXPECT(MPI_ERR_GROUP, MPI_Group_compare(MPI_GROUP_NULL, world, &n));
    MPI_Group gnull = MPI_GROUP_NULL;
    EXPECT(MPI_ERR_GROUP, MPI_Group_free(&gnull));
    int stride0[1][3] = {{0, 0, 0}}, past[1][3] = {{0, size, 1}}, backwards[1][3] = {{size - 1, 0, 1}},
        twice[2][3] = {{0, 0, 1}, {0, 0, 1}};
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl(world, 1, stride0, &ng));
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl(world, 1, past, &ng));
    if (size > 1)
        EXPECT(MPI_ERR_ARG, MPI_Group_range_excl(world, 1, backwards, &ng));
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl(world, 2, twice, &ng));

    /* Communicator creation: a group that is not a subset (MPI_ERR_GROUP), a bad tag
     * (MPI_ERR_TAG), a bad split type (MPI_ERR_ARG), the remote calls on an
     * intracommunicator (MPI_ERR_COMM where they fail; MPICH lets them pass). */
    MPI_Comm half, nc = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0, 0, &half));
    CHECK_MPI(MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN));
    if (size > 1)
        EXPECT(MPI_ERR_GROUP, MPI_Comm_create(half, world, &nc));
    EXPECT(MPI_ERR_GROUP, MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &nc));
    EXPECT(MPI_ERR_TAG, MPI_Comm_create_group(MPI_COMM_WORLD, world, -1, &nc));
    EXPECT(MPI_ERR_ARG, MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &nc));
    CHECK(nc == MPI_COMM_NULL, "a failed constructor wrote its output");
    EXPECT(MPI_ERR_COMM, MPI_Comm_group(MPI_COMM_NULL, &ng));
    {
        int rs = -1, rc = MPI_Comm_remote_size(MPI_COMM_WORLD, &rs), cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        CHECK(rc == MPI_SUCCESS || cls == MPI_ERR_COMM, "Comm_remote_size: class %d", cls);
    }
    CHECK_MPI(MPI_Comm_free(&half));

    /* Attributes: invalid and predefined keyvals (MPI_ERR_KEYVAL). */
    int kv, v = 3, *vp = NULL, flag = -1;
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v));
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &vp, &flag));
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID));
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v));
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB));
    int tag_ub_kv = MPI_TAG_UB;
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_free_keyval(&tag_ub_kv));
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WIN_BASE, &vp, &flag));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    CHECK_MPI(MPI_Comm_free_keyval(&kv));
    CHECK(kv == MPI_KEYVAL_INVALID, "free_keyval did not reset the handle");
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_free_keyval(&kv));
    EXPECT(MPI_ERR_COMM, MPI_Comm_set_attr(MPI_COMM_NULL, MPI_TAG_UB, &v));

    /* Info: key and value limits, missing keys, bad indices, MPI_INFO_NULL (MPI_ERR_ARG). */
    MPI_Info info;
    char longkey[MPI_MAX_INFO_KEY + 2], *longval = malloc(MPI_MAX_INFO_VAL + 2), key[MPI_MAX_INFO_KEY + 1];
    CHECK(longval != NULL, "malloc");
    memset(longkey, 'k', MPI_MAX_INFO_KEY + 1);
    longkey[MPI_MAX_INFO_KEY + 1] = 0;
    memset(longval, 'v', MPI_MAX_INFO_VAL + 1);
    longval[MPI_MAX_INFO_VAL + 1] = 0;
    CHECK_MPI(MPI_Info_create(&info));
    EXPECT(MPI_ERR_INFO_KEY, MPI_Info_set(info, longkey, "x"));
    EXPECT(MPI_ERR_INFO_KEY, MPI_Info_set(info, "", "x"));
    EXPECT(MPI_ERR_INFO_VALUE, MPI_Info_set(info, "a", longval));
    EXPECT(MPI_ERR_INFO_NOKEY, MPI_Info_delete(info, "missing"));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_nthkey(info, 0, key));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_nthkey(info, -1, key));
    EXPECT(MPI_ERR_INFO_KEY, MPI_Info_get(info, longkey, 5, key, &flag));
    EXPECT(MPI_ERR_ARG, MPI_Info_get(info, "a", -1, key, &flag));
    EXPECT(MPI_ERR_ARG, MPI_Info_set(MPI_INFO_NULL, "a", "b"));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_nkeys(MPI_INFO_NULL, &n));
    MPI_Info inull = MPI_INFO_NULL;
    EXPECT(MPI_ERR_ARG, MPI_Info_free(&inull));
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 0, "failed Info_set calls left %d keys", n);
    CHECK_MPI(MPI_Info_free(&info));
    free(longval);

    /* Topologies: calls on a communicator without that topology (MPI_ERR_TOPOLOGY). */
    int coords[4] = {0, 0, 0, 0}, src, dst, nd, in, outd, w;
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Cart_coords(MPI_COMM_WORLD, 0, 2, coords));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Cartdim_get(MPI_COMM_WORLD, &nd));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Cart_rank(MPI_COMM_WORLD, coords, &src));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Cart_sub(MPI_COMM_WORLD, coords, &nc));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Graphdims_get(MPI_COMM_WORLD, &src, &dst));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &src));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in, &outd, &w));

    /* Dims_create: impossible partitions and negative entries (MPI_ERR_DIMS), bad counts
     * (MPI_ERR_ARG). */
    int d1[2] = {2, 0}, d2[2] = {-1, 0}, d3[2] = {0, 0};
    EXPECT(MPI_ERR_DIMS, MPI_Dims_create(7, 2, d1));
    EXPECT(MPI_ERR_DIMS, MPI_Dims_create(4, 2, d2));
    EXPECT(MPI_ERR_ARG, MPI_Dims_create(-1, 2, d3));
    EXPECT(MPI_ERR_ARG, MPI_Dims_create(4, -1, d3));

    /* Cartesian arguments. */
    MPI_Comm cart;
    int big = size + 1, per0 = 0, cdims[2] = {size, 1}, cper[2] = {0, 1};
    nc = MPI_COMM_WORLD;
    EXPECT(MPI_ERR_ARG, MPI_Cart_create(MPI_COMM_WORLD, 1, &big, &per0, 0, &nc));
    CHECK(nc == MPI_COMM_NULL, "a failed MPI_Cart_create leaves MPI_COMM_NULL (MPICH cartsmall)");
    EXPECT(MPI_ERR_ARG, MPI_Cart_create(MPI_COMM_WORLD, -1, &big, &per0, 0, &nc));
    EXPECT(MPI_ERR_DIMS, MPI_Cart_map(MPI_COMM_WORLD, 1, &big, &per0, &src));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, cdims, cper, 0, &cart));
    CHECK_MPI(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
    int past_open[2] = {size, 0}, before_open[2] = {-1, 0}, wrap[2] = {0, 7};
    EXPECT(MPI_ERR_ARG, MPI_Cart_rank(cart, past_open, &src));
    EXPECT(MPI_ERR_ARG, MPI_Cart_rank(cart, before_open, &src));
    CHECK_MPI(MPI_Cart_rank(cart, wrap, &src)); /* periodic: fine */
    CHECK(src == 0, "Cart_rank wrapped to %d", src);
    EXPECT(MPI_ERR_RANK, MPI_Cart_coords(cart, size, 2, coords));
    EXPECT(MPI_ERR_RANK, MPI_Cart_coords(cart, -1, 2, coords));
    EXPECT(MPI_ERR_ARG, MPI_Cart_coords(cart, 0, 1, coords));
    EXPECT(MPI_ERR_ARG, MPI_Cart_shift(cart, 2, 1, &src, &dst));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Dist_graph_neighbors_count(cart, &in, &outd, &w));
    EXPECT(MPI_ERR_TOPOLOGY, MPI_Graphdims_get(cart, &src, &dst));
    CHECK_MPI(MPI_Comm_free(&cart));

    /* Graph arguments. */
    int idx[72] = {1, 2}, edges[72] = {1, 0}, bad_edges[72] = {1, 5};
    EXPECT(MPI_ERR_ARG, MPI_Graph_create(MPI_COMM_WORLD, size + 1, idx, edges, 0, &nc));
    if (size >= 2) {
        MPI_Comm gc;
        EXPECT(MPI_ERR_ARG, MPI_Graph_create(MPI_COMM_WORLD, 2, idx, bad_edges, 0, &nc));
        CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 2, idx, edges, 0, &gc));
        if (gc != MPI_COMM_NULL) {
            CHECK_MPI(MPI_Comm_set_errhandler(gc, MPI_ERRORS_RETURN));
            EXPECT(MPI_ERR_RANK, MPI_Graph_neighbors_count(gc, 2, &src));
            EXPECT(MPI_ERR_ARG, MPI_Graph_get(gc, 1, 1, idx, edges));
            EXPECT(MPI_ERR_TOPOLOGY, MPI_Cartdim_get(gc, &nd));
            CHECK_MPI(MPI_Comm_free(&gc));
        }
    }
    int one = 0;
    EXPECT(MPI_ERR_ARG, MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, &one, MPI_UNWEIGHTED,
                                                       0, &one, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                                       &nc));
    CHECK(nc == MPI_COMM_NULL, "a failed constructor wrote its output");

    /* Still working. */
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size * (size - 1) / 2, "allreduce after the errors: %d", sum);
    CHECK_MPI(MPI_Group_free(&world));
    ct_ok("grp_errors");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
