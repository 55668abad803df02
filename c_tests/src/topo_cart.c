/* topo_cart: MPI_Dims_create against MPICH's known results; Cartesian topologies in 1, 2
 * and 3 dimensions with periodic and open dimensions: MPI_Cart_get/coords/rank (periodic
 * wrap-around) /shift (MPI_PROC_NULL at open edges) /sub /map, Cartdim_get, Topo_test,
 * a grid smaller than the communicator (the rest get MPI_COMM_NULL), zero-dimensional
 * grids, MPI_Comm_dup keeping the topology, and halo traffic along every shift. Expected
 * values are computed here from the row-major layout MPI prescribes. */
#include "check.h"

static int rank, size;

static void dims_case(int n, int nd, const int *given, const int *want)
{
    int d[8];
    for (int i = 0; i < nd; i++)
        d[i] = given ? given[i] : 0;
    CHECK_MPI(MPI_Dims_create(n, nd, d));
    for (int i = 0; i < nd; i++)
        CHECK(d[i] == want[i], "Dims_create(%d, %d): dims[%d] = %d, expected %d", n, nd, i, d[i],
              want[i]);
}

/* Row-major coordinates of r in dims[0..nd). */
static void coords_of(int r, int nd, const int *dims, int *c)
{
    for (int i = nd - 1; i >= 0; i--) {
        c[i] = r % dims[i];
        r /= dims[i];
    }
}

static int rank_of(int nd, const int *dims, const int *c)
{
    int r = 0;
    for (int i = 0; i < nd; i++)
        r = r * dims[i] + c[i];
    return r;
}

/* Check a Cartesian communicator of nd dims against the description, including traffic
 * along every dimension. */
static void check_cart(MPI_Comm cart, int nd, const int *dims, const int *periods)
{
    int cs, cr, t, ndims, gd[8], gp[8], gc[8], my[8];
    CHECK_MPI(MPI_Comm_size(cart, &cs));
    CHECK_MPI(MPI_Comm_rank(cart, &cr));
    CHECK_MPI(MPI_Topo_test(cart, &t));
    CHECK(t == MPI_CART, "Topo_test = %d", t);
    CHECK_MPI(MPI_Cartdim_get(cart, &ndims));
    CHECK(ndims == nd, "Cartdim_get = %d, expected %d", ndims, nd);
    int n = 1;
    for (int i = 0; i < nd; i++)
        n *= dims[i];
    CHECK(cs == n, "grid communicator size %d, expected %d", cs, n);
    CHECK_MPI(MPI_Cart_get(cart, nd, gd, gp, gc));
    coords_of(cr, nd, dims, my);
    for (int i = 0; i < nd; i++) {
        CHECK(gd[i] == dims[i] && !!gp[i] == !!periods[i] && gc[i] == my[i],
              "Cart_get dim %d: %d/%d/%d, expected %d/%d/%d", i, gd[i], gp[i], gc[i], dims[i],
              periods[i], my[i]);
    }
    /* coords and rank for every process, and wrap-around in periodic dimensions. */
    for (int r = 0; r < n; r++) {
        int c[8], e[8], back;
        CHECK_MPI(MPI_Cart_coords(cart, r, nd, c));
        coords_of(r, nd, dims, e);
        for (int i = 0; i < nd; i++)
            CHECK(c[i] == e[i], "Cart_coords(%d)[%d] = %d, expected %d", r, i, c[i], e[i]);
        CHECK_MPI(MPI_Cart_rank(cart, c, &back));
        CHECK(back == r, "Cart_rank(coords(%d)) = %d", r, back);
        for (int i = 0; i < nd; i++) {
            if (!periods[i])
                continue;
            int w[8];
            memcpy(w, c, sizeof(int) * nd);
            w[i] = c[i] - 3 * dims[i];
            CHECK_MPI(MPI_Cart_rank(cart, w, &back));
            CHECK(back == r, "Cart_rank with coordinate %d - 3*%d in periodic dim %d: %d", c[i],
                  dims[i], i, back);
            w[i] = c[i] + dims[i];
            CHECK_MPI(MPI_Cart_rank(cart, w, &back));
            CHECK(back == r, "Cart_rank with coordinate +%d in periodic dim %d: %d", dims[i], i,
                  back);
        }
    }
    /* Shifts by -2..2 in every dimension, and a halo exchange along each shift by 1. */
    for (int i = 0; i < nd; i++) {
        for (int disp = -2; disp <= 2; disp++) {
            int src, dst, es, ed, c[8];
            CHECK_MPI(MPI_Cart_shift(cart, i, disp, &src, &dst));
            memcpy(c, my, sizeof(int) * nd);
            int up = my[i] + disp, down = my[i] - disp;
            if (periods[i]) {
                c[i] = ((up % dims[i]) + dims[i]) % dims[i];
                ed = rank_of(nd, dims, c);
                c[i] = ((down % dims[i]) + dims[i]) % dims[i];
                es = rank_of(nd, dims, c);
            } else {
                c[i] = up;
                ed = (up >= 0 && up < dims[i]) ? rank_of(nd, dims, c) : MPI_PROC_NULL;
                c[i] = down;
                es = (down >= 0 && down < dims[i]) ? rank_of(nd, dims, c) : MPI_PROC_NULL;
            }
            if (disp == 0)
                es = ed = cr;
            CHECK(src == es && dst == ed, "Cart_shift(dim %d, disp %d) = (%d, %d), expected (%d, %d)",
                  i, disp, src, dst, es, ed);
            if (disp == 1) {
                int out = cr * 10 + i, in = -5;
                CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, dst, i, &in, 1, MPI_INT, src, i, cart,
                                       MPI_STATUS_IGNORE));
                int want = src == MPI_PROC_NULL ? -5 : src * 10 + i;
                CHECK(in == want, "halo along dim %d: got %d, expected %d", i, in, want);
            }
        }
    }
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

    /* MPI_Dims_create: MPICH 4.0.2's results. */
    {
        int w1[] = {1, 1}, w2[] = {3, 2}, w3[] = {7, 1}, w4[] = {2, 2, 2}, w5[] = {4, 3},
            w6[] = {3, 2, 2}, w7[] = {4, 4}, w8[] = {4, 3, 2}, w9[] = {6, 5}, w10[] = {4, 3, 3},
            w11[] = {5, 5, 4}, w12[] = {5, 3, 2, 2}, w13[] = {15, 14, 11}, w14[] = {12},
            w15[] = {1, 1, 1};
        dims_case(1, 2, NULL, w1);
        dims_case(6, 2, NULL, w2);
        dims_case(7, 2, NULL, w3);
        dims_case(8, 3, NULL, w4);
        dims_case(12, 2, NULL, w5);
        dims_case(12, 3, NULL, w6);
        dims_case(16, 2, NULL, w7);
        dims_case(24, 3, NULL, w8);
        dims_case(30, 2, NULL, w9);
        dims_case(36, 3, NULL, w10);
        dims_case(100, 3, NULL, w11);
        dims_case(60, 4, NULL, w12);
        dims_case(2310, 3, NULL, w13);
        dims_case(12, 1, NULL, w14);
        dims_case(1, 3, NULL, w15);
        int g1[] = {0, 3, 0, 0}, x1[] = {6, 3, 5, 4};
        int g2[] = {4, 0, 0, 1}, x2[] = {4, 10, 9, 1};
        int g3[] = {0, 0, 5, 0}, x3[] = {6, 6, 5, 4};
        int g4[] = {2, 0, 0, 0}, x4[] = {2, 10, 10, 5};
        int g5[] = {2, 3}, x5[] = {2, 3};
        dims_case(360, 4, g1, x1);
        dims_case(360, 4, g2, x2);
        dims_case(720, 4, g3, x3);
        dims_case(1000, 4, g4, x4);
        dims_case(6, 2, g5, x5);
    }

    /* 2-D grid over everyone, periodic in dimension 0 only. */
    int dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1};
    MPI_Comm cart, dup, sub, cart3, line, zero;
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    CHECK(cart != MPI_COMM_NULL, "Cart_create over everyone gave MPI_COMM_NULL");
    check_cart(cart, 2, dims, periods);

    /* The topology goes with MPI_Comm_dup. */
    CHECK_MPI(MPI_Comm_dup(cart, &dup));
    check_cart(dup, 2, dims, periods);
    CHECK_MPI(MPI_Comm_free(&dup));

    /* Sub-grids: the rows (keep dim 1) and the columns (keep dim 0). */
    int my[2], cr;
    CHECK_MPI(MPI_Comm_rank(cart, &cr));
    coords_of(cr, 2, dims, my);
    for (int keep = 0; keep < 2; keep++) {
        int remain[2] = {keep == 0, keep == 1};
        CHECK_MPI(MPI_Cart_sub(cart, remain, &sub));
        int sd[1] = {dims[keep]}, sp[1] = {periods[keep]};
        check_cart(sub, 1, sd, sp);
        int sr;
        CHECK_MPI(MPI_Comm_rank(sub, &sr));
        CHECK(sr == my[keep], "Cart_sub(keep %d): rank %d, expected %d", keep, sr, my[keep]);
        /* Its members: the world ranks along the kept dimension through my position. */
        int sum = 0, exp = 0;
        CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, sub));
        for (int k = 0; k < dims[keep]; k++) {
            int c[2] = {my[0], my[1]};
            c[keep] = k;
            exp += rank_of(2, dims, c);
        }
        CHECK(sum == exp, "Cart_sub(keep %d): members sum to %d, expected %d", keep, sum, exp);
        CHECK_MPI(MPI_Comm_free(&sub));
    }
    /* Keeping nothing gives a zero-dimensional grid (MPICH gives it to rank 0 only). */
    {
        int remain[2] = {0, 0};
        CHECK_MPI(MPI_Cart_sub(cart, remain, &sub));
        CHECK(cr != 0 || sub != MPI_COMM_NULL, "Cart_sub(nothing) gave rank 0 no communicator");
        CHECK(cr == 0 || sub == MPI_COMM_NULL, "Cart_sub(nothing) gave rank %d a communicator",
              cr);
        if (sub != MPI_COMM_NULL) {
            int nd = -1, ss = -1;
            CHECK_MPI(MPI_Cartdim_get(sub, &nd));
            CHECK_MPI(MPI_Comm_size(sub, &ss));
            CHECK(nd == 0 && ss == 1, "Cart_sub(nothing): %d dims, size %d", nd, ss);
            CHECK_MPI(MPI_Comm_free(&sub));
        }
    }
    CHECK_MPI(MPI_Comm_free(&cart));

    /* 3-D grid, periodic in dims 0 and 2. */
    dims[0] = dims[1] = dims[2] = 0;
    CHECK_MPI(MPI_Dims_create(size, 3, dims));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &cart3));
    check_cart(cart3, 3, dims, periods);
    {
        int remain[3] = {1, 0, 1};
        CHECK_MPI(MPI_Cart_sub(cart3, remain, &sub));
        int sd[2] = {dims[0], dims[2]}, sp[2] = {periods[0], periods[2]};
        check_cart(sub, 2, sd, sp);
        CHECK_MPI(MPI_Comm_free(&sub));
    }
    CHECK_MPI(MPI_Comm_free(&cart3));

    /* A 1-D open line over all but the last process: the last gets MPI_COMM_NULL. */
    int ln = size > 1 ? size - 1 : 1, lp = 0, newrank;
    CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, &ln, &lp, &newrank));
    CHECK(newrank == (rank < ln ? rank : MPI_UNDEFINED), "Cart_map: %d", newrank);
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &ln, &lp, 0, &line));
    CHECK((rank < ln) == (line != MPI_COMM_NULL), "line of %d: communicator %s", ln,
          line == MPI_COMM_NULL ? "missing" : "for a process outside");
    if (line != MPI_COMM_NULL) {
        check_cart(line, 1, &ln, &lp);
        CHECK_MPI(MPI_Comm_free(&line));
    }

    /* Zero dimensions: rank 0 alone. */
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero));
    CHECK((rank == 0) == (zero != MPI_COMM_NULL), "0-D grid communicator on rank %d", rank);
    if (zero != MPI_COMM_NULL) {
        int nd = -1, zs = -1, t;
        CHECK_MPI(MPI_Cartdim_get(zero, &nd));
        CHECK_MPI(MPI_Comm_size(zero, &zs));
        CHECK_MPI(MPI_Topo_test(zero, &t));
        CHECK(nd == 0 && zs == 1 && t == MPI_CART, "0-D grid: %d dims, size %d, topo %d", nd,
              zs, t);
        CHECK_MPI(MPI_Comm_free(&zero));
    }

    int t;
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &t));
    CHECK(t == MPI_UNDEFINED, "Topo_test(MPI_COMM_WORLD) = %d", t);
    ct_ok("topo_cart");
    CHECK_MPI(MPI_Finalize());
    return 0;
}
