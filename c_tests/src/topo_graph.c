/* topo_graph: graph topologies and their neighbour lists.
 * - MPI_Dist_graph_create_adjacent, weighted and MPI_UNWEIGHTED: neighbour counts, the
 *   lists in the order given, weights, the weighted flag, MPI_Topo_test;
 * - MPI_Dist_graph_create (general): each process names edges that start or end at other
 *   processes; every process must then see exactly its in- and out-edges (as multisets,
 *   each neighbour with its edge's weight), and messages along the edges arrive;
 * - MPI-1 MPI_Graph_create over all but the last process: Graphdims_get, Graph_get,
 *   Graph_neighbors_count/neighbors, Graph_map, MPI_COMM_NULL for the process left out. */
#include "check.h"

static int rank, size;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sort (rank, weight) pairs encoded as rank * 100000 + weight. */
static void sort_pairs(int *v, int n)
{
    qsort(v, (size_t)n, sizeof(int), cmp_int);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= 64, "at most 64 ranks");

    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int indeg, outdeg, weighted, t;
    int srcs[256], dsts[256], sw[256], dw[256];
    MPI_Comm g;

    /* Adjacent, weighted, and consistent across processes: out-edges to right (weight 3),
     * left (4) and right again (5), so in-edges from left (3), right (4), left (5). */
    {
        int in[3] = {left, right, left}, inw[3] = {3, 4, 5};
        int out[3] = {right, left, right}, outw[3] = {3, 4, 5};
        CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, in, inw, 3, out, outw,
                                                 MPI_INFO_NULL, 0, &g));
        CHECK_MPI(MPI_Topo_test(g, &t));
        CHECK(t == MPI_DIST_GRAPH, "Topo_test = %d", t);
        CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
        CHECK(indeg == 3 && outdeg == 3 && weighted, "counts %d %d weighted %d", indeg, outdeg,
              weighted);
        CHECK_MPI(MPI_Dist_graph_neighbors(g, 3, srcs, sw, 3, dsts, dw));
        for (int i = 0; i < 3; i++)
            CHECK(srcs[i] == in[i] && sw[i] == inw[i], "source %d: %d (w %d)", i, srcs[i], sw[i]);
        for (int i = 0; i < 3; i++)
            CHECK(dsts[i] == out[i] && dw[i] == outw[i], "destination %d: %d (w %d)", i, dsts[i],
                  dw[i]);
        /* The ranks are those of MPI_COMM_WORLD (no reordering asked). */
        int gr;
        CHECK_MPI(MPI_Comm_rank(g, &gr));
        CHECK(gr == rank, "dist graph rank %d", gr);
        /* One message along each edge, tagged with the edge's place in the lists. */
        MPI_Request r[6];
        int got[3] = {-1, -1, -1}, sent[3];
        for (int i = 0; i < 3; i++)
            CHECK_MPI(MPI_Irecv(&got[i], 1, MPI_INT, in[i], i, g, &r[i]));
        for (int i = 0; i < 3; i++) {
            sent[i] = rank * 10 + i;
            CHECK_MPI(MPI_Isend(&sent[i], 1, MPI_INT, out[i], i, g, &r[3 + i]));
        }
        CHECK_MPI(MPI_Waitall(6, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 3; i++)
            CHECK(got[i] == in[i] * 10 + i, "message along in-edge %d: %d", i, got[i]);
        CHECK_MPI(MPI_Comm_free(&g));
    }

    /* Adjacent, unweighted; and an empty neighbourhood with MPI_WEIGHTS_EMPTY. */
    {
        int in[1] = {left}, out[1] = {right};
        CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, in, MPI_UNWEIGHTED, 1, out,
                                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
        CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
        CHECK(indeg == 1 && outdeg == 1 && !weighted, "unweighted counts %d %d %d", indeg, outdeg,
              weighted);
        CHECK_MPI(MPI_Dist_graph_neighbors(g, 1, srcs, MPI_UNWEIGHTED, 1, dsts, MPI_UNWEIGHTED));
        CHECK(srcs[0] == left && dsts[0] == right, "unweighted lists %d %d", srcs[0], dsts[0]);
        CHECK_MPI(MPI_Comm_free(&g));

        CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, in, MPI_WEIGHTS_EMPTY, 0, out,
                                                 MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g));
        CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
        CHECK(indeg == 0 && outdeg == 0, "empty neighbourhood counts %d %d", indeg, outdeg);
        CHECK_MPI(MPI_Comm_free(&g));
    }

    /* General: process r names the edges  r -> r+1,  (r+2) -> r  and  (r+3) -> (r+5)
     * (mod size), with weight 1000 * src + dst. */
    {
        int n = 3, s[3], deg[3] = {1, 1, 1}, d[3], w[3];
        s[0] = rank;
        d[0] = (rank + 1) % size;
        s[1] = (rank + 2) % size;
        d[1] = rank;
        s[2] = (rank + 3) % size;
        d[2] = (rank + 5) % size;
        for (int i = 0; i < 3; i++)
            w[i] = 1000 * s[i] + d[i];
        CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, s, deg, d, w, MPI_INFO_NULL, 0, &g));
        CHECK_MPI(MPI_Topo_test(g, &t));
        CHECK(t == MPI_DIST_GRAPH, "general: Topo_test = %d", t);
        /* Expected in/out edges of this process over all contributions. */
        int ein[256], eout[256], nin = 0, nout = 0;
        for (int p = 0; p < size; p++) {
            int es[3] = {p, (p + 2) % size, (p + 3) % size};
            int ed[3] = {(p + 1) % size, p, (p + 5) % size};
            for (int i = 0; i < 3; i++) {
                if (ed[i] == rank)
                    ein[nin++] = es[i] * 100000 + 1000 * es[i] + ed[i];
                if (es[i] == rank)
                    eout[nout++] = ed[i] * 100000 + 1000 * es[i] + ed[i];
            }
        }
        CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
        CHECK(indeg == nin && outdeg == nout && weighted, "general counts %d %d %d (expected %d %d)",
              indeg, outdeg, weighted, nin, nout);
        CHECK_MPI(MPI_Dist_graph_neighbors(g, indeg, srcs, sw, outdeg, dsts, dw));
        int gin[256], gout[256];
        for (int i = 0; i < indeg; i++) {
            CHECK(sw[i] == 1000 * srcs[i] + rank, "in-edge from %d has weight %d", srcs[i], sw[i]);
            gin[i] = srcs[i] * 100000 + sw[i];
        }
        for (int i = 0; i < outdeg; i++) {
            CHECK(dw[i] == 1000 * rank + dsts[i], "out-edge to %d has weight %d", dsts[i], dw[i]);
            gout[i] = dsts[i] * 100000 + dw[i];
        }
        sort_pairs(gin, indeg);
        sort_pairs(ein, nin);
        sort_pairs(gout, outdeg);
        sort_pairs(eout, nout);
        for (int i = 0; i < nin; i++)
            CHECK(gin[i] == ein[i], "in-edge %d: %d, expected %d", i, gin[i], ein[i]);
        for (int i = 0; i < nout; i++)
            CHECK(gout[i] == eout[i], "out-edge %d: %d, expected %d", i, gout[i], eout[i]);
        /* One message along every edge, in the order of the lists; each source sends as
         * many as it has edges to me, all with tag 0, so count per source. */
        MPI_Request r[512];
        int vals[256], one = rank, nr = 0;
        for (int i = 0; i < indeg; i++)
            CHECK_MPI(MPI_Irecv(&vals[i], 1, MPI_INT, srcs[i], 0, g, &r[nr++]));
        for (int i = 0; i < outdeg; i++)
            CHECK_MPI(MPI_Isend(&one, 1, MPI_INT, dsts[i], 0, g, &r[nr++]));
        CHECK_MPI(MPI_Waitall(nr, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < indeg; i++)
            CHECK(vals[i] == srcs[i], "message from in-neighbour %d: %d", srcs[i], vals[i]);
        CHECK_MPI(MPI_Comm_free(&g));
    }

    /* General, unweighted, with everything named by rank 0: a star into rank 0. */
    {
        int s[64], deg[64], d[64], n = 0;
        if (rank == 0)
            for (int p = 1; p < size; p++) {
                s[n] = p;
                deg[n] = 1;
                d[n++] = 0;
            }
        CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, s, deg, d, MPI_UNWEIGHTED,
                                        MPI_INFO_NULL, 0, &g));
        CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
        CHECK(indeg == (rank == 0 ? size - 1 : 0) && outdeg == (rank == 0 ? 0 : 1) && !weighted,
              "star counts %d %d %d", indeg, outdeg, weighted);
        if (rank == 0) {
            CHECK_MPI(MPI_Dist_graph_neighbors(g, indeg, srcs, MPI_UNWEIGHTED, 0, dsts,
                                               MPI_UNWEIGHTED));
            qsort(srcs, (size_t)indeg, sizeof(int), cmp_int);
            for (int i = 0; i < indeg; i++)
                CHECK(srcs[i] == i + 1, "star source %d: %d", i, srcs[i]);
        } else {
            CHECK_MPI(MPI_Dist_graph_neighbors(g, 0, srcs, MPI_UNWEIGHTED, 1, dsts,
                                               MPI_UNWEIGHTED));
            CHECK(dsts[0] == 0, "star destination %d", dsts[0]);
        }
        CHECK_MPI(MPI_Comm_free(&g));
    }

    /* MPI-1 graph over nn = size-1 processes (at least 1): node i is linked to i-1 and
     * i+1 (a path), node 0 also to the last node. */
    {
        int nn = size > 1 ? size - 1 : 1, index[64], edges[256], ne = 0, newrank;
        for (int i = 0; i < nn; i++) {
            if (i > 0)
                edges[ne++] = i - 1;
            if (i + 1 < nn)
                edges[ne++] = i + 1;
            if (i == 0 && nn > 2)
                edges[ne++] = nn - 1;
            index[i] = ne;
        }
        CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, nn, index, edges, &newrank));
        CHECK(newrank == (rank < nn ? rank : MPI_UNDEFINED), "Graph_map: %d", newrank);
        CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, nn, index, edges, 0, &g));
        CHECK((rank < nn) == (g != MPI_COMM_NULL), "Graph_create membership on rank %d", rank);
        if (g != MPI_COMM_NULL) {
            int gn, ge, gi[64], gedges[256], cnt, nb[64];
            CHECK_MPI(MPI_Topo_test(g, &t));
            CHECK(t == MPI_GRAPH, "graph Topo_test = %d", t);
            CHECK_MPI(MPI_Graphdims_get(g, &gn, &ge));
            CHECK(gn == nn && ge == ne, "Graphdims_get %d %d, expected %d %d", gn, ge, nn, ne);
            CHECK_MPI(MPI_Graph_get(g, 64, 256, gi, gedges));
            for (int i = 0; i < nn; i++)
                CHECK(gi[i] == index[i], "index[%d] = %d", i, gi[i]);
            for (int i = 0; i < ne; i++)
                CHECK(gedges[i] == edges[i], "edges[%d] = %d", i, gedges[i]);
            for (int node = 0; node < nn; node++) {
                int start = node ? index[node - 1] : 0;
                CHECK_MPI(MPI_Graph_neighbors_count(g, node, &cnt));
                CHECK(cnt == index[node] - start, "node %d: %d neighbours", node, cnt);
                CHECK_MPI(MPI_Graph_neighbors(g, node, 64, nb));
                for (int k = 0; k < cnt; k++)
                    CHECK(nb[k] == edges[start + k], "node %d neighbour %d: %d", node, k, nb[k]);
            }
            /* The topology goes with MPI_Comm_dup. */
            MPI_Comm gd;
            CHECK_MPI(MPI_Comm_dup(g, &gd));
            CHECK_MPI(MPI_Graphdims_get(gd, &gn, &ge));
            CHECK(gn == nn && ge == ne, "dup: Graphdims_get %d %d", gn, ge);
            CHECK_MPI(MPI_Comm_free(&gd));
            CHECK_MPI(MPI_Comm_free(&g));
        }
    }
    ct_ok("topo_graph");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
