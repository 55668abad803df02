//! Topology shims (MPI-3.1 ch. 7): MPI_Dims_create, Cartesian grids, MPI-1 graphs,
//! distributed graphs, MPI_Topo_test. The topology is kept in the communicator's table entry
//! (`CommEntry::topo`) and goes with it through MPI_Comm_dup. Ranks are never reordered.
//! The grids and graphs are `crate::comm::topology`'s; most calls are table expressions
//! over `create`, `map`, `with*` and `fill` here.

use super::args;
use super::consts::*;
use super::handles;
use super::shim::{self, write_out};
use crate::comm::topology::{self, DistGraph};
// The table's lines name them (`topo::Graph::map`).
pub(crate) use crate::comm::topology::{Cart, Graph, Topology};
use crate::comm::Communicator;
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::World;
use std::os::raw::c_int;
use std::sync::Arc;

/// Write the values of each `v[k]` into the C array `p[k]` (room for at least as many,
/// or NULL if none), in order.
///
/// # Safety
/// Each of `p` is valid for its values.
pub(crate) unsafe fn fill<T, V, const N: usize>(p: [*mut c_int; N], v: [V; N]) -> Result<()>
where
    T: Copy + TryInto<c_int>,
    V: AsRef<[T]>,
{
    for (p, v) in p.into_iter().zip(v) {
        for (i, &x) in v.as_ref().iter().enumerate() {
            if p.is_null() {
                return mpi_err!(Arg, "NULL output array");
            }
            // SAFETY: per the contract. (Ranks, dimensions and weights fit a C int.)
            *p.add(i) = x.try_into().unwrap_or(c_int::MAX);
        }
    }
    Ok(())
}

/// The topology of `comm` (checked to be a valid communicator), to keep.
pub(crate) fn topology(comm: MPI_Comm) -> Result<Option<Arc<Topology>>> {
    shim::world()?;
    handles::comm(comm)?;
    handles::with_comm_entry(comm, |e| e.topo.clone())
}

/// `f` of `comm`'s topology (None without one), `comm` checked to be a valid
/// communicator, and this process's rank in it.
pub(crate) fn with<R>(
    comm: MPI_Comm,
    f: impl FnOnce(Option<&Topology>, usize) -> Result<R>,
) -> Result<R> {
    let t = topology(comm)?;
    f(t.as_deref(), handles::comm(comm)?.rank)
}

/// `f` of `comm`'s Cartesian grid (MPI_ERR_TOPOLOGY for none) and this process's rank.
pub(crate) fn with_cart<R>(comm: MPI_Comm, f: impl FnOnce(&Cart, usize) -> Result<R>) -> Result<R> {
    with(comm, |t, rank| f(Topology::cart(t)?, rank))
}

/// `f` of `comm`'s MPI-1 graph (MPI_ERR_TOPOLOGY for none).
pub(crate) fn with_graph<R>(comm: MPI_Comm, f: impl FnOnce(&Graph) -> Result<R>) -> Result<R> {
    with(comm, |t, _| f(Topology::graph(t)?))
}

/// Register a new communicator with its topology (or MPI_COMM_NULL for None).
fn publish(c: Option<Arc<Communicator>>, parent: MPI_Comm, topo: Topology) -> Result<MPI_Comm> {
    let Some(c) = c else {
        return Ok(MPI_COMM_NULL);
    };
    let h = handles::derived_comm(c, parent);
    let topo = Arc::new(topo);
    handles::with_comm_entry(h, |e| e.topo = Some(topo))?;
    Ok(h)
}

/// The topology constructors (table lines): `comm_old` checked (an intracommunicator),
/// then `make` checks the arguments against it and gives the topology and how many of the
/// first ranks it holds; then `out`, then the new communicator (MPI_COMM_NULL for the
/// processes left out). With `null_first` a failed call leaves MPI_COMM_NULL behind, as
/// MPICH's MPI_Cart_create and MPI_Graph_create do (programs test for it).
///
/// # Safety
/// `out` is NULL or valid for writing.
pub(crate) unsafe fn create(
    comm_old: MPI_Comm,
    out: *mut MPI_Comm,
    null_first: bool,
    make: impl FnOnce(&World, &Communicator) -> Result<(Topology, usize)>,
) -> Result<()> {
    if null_first && !out.is_null() {
        *out = MPI_COMM_NULL;
    }
    let w = shim::world()?;
    let parent = handles::comm(comm_old)?;
    args::intra(&parent)?;
    let (topo, n) = make(w, &parent)?;
    if out.is_null() {
        return mpi_err!(Arg, "NULL output communicator");
    }
    let c = w.comm_first(&parent, n)?;
    write_out(out, publish(c, comm_old, topo)?)
}

/// MPI_Cart_map / MPI_Graph_map (table lines): the rank `f` gives this process of
/// `comm` (an intracommunicator), MPI_UNDEFINED for none.
pub(crate) fn map(
    comm: MPI_Comm,
    f: impl FnOnce(&Communicator) -> Result<Option<usize>>,
) -> Result<c_int> {
    shim::world()?;
    let c = handles::comm(comm)?;
    args::intra(&c)?;
    Ok(f(&c)?.map_or(MPI_UNDEFINED, |r| r as c_int))
}

pub(crate) unsafe fn dims_create(nnodes: c_int, ndims: c_int, dims: *mut c_int) -> Result<()> {
    let n = args::len(ndims, "ndims")?;
    if n > 0 && dims.is_null() {
        return mpi_err!(Arg, "NULL dims array");
    }
    // SAFETY: dims has ndims elements (MPI's contract), not NULL when there are any.
    let d = if n == 0 {
        &mut []
    } else {
        std::slice::from_raw_parts_mut(dims, n)
    };
    topology::dims_create(nnodes, d)
}

// ------------------------------------------------------------------ Cartesian

/// The grid of MPI_Cart_create / MPI_Cart_map (table lines).
///
/// # Safety
/// `dims` and `periods` are valid for `ndims` elements.
pub(crate) unsafe fn cart(ndims: c_int, dims: *const c_int, periods: *const c_int) -> Result<Cart> {
    let n = args::len(ndims, "ndims")?;
    Cart::new(
        args::slice(dims, n, "dims")?,
        args::slice(periods, n, "periods")?,
    )
}

pub(crate) unsafe fn cart_sub(
    comm: MPI_Comm,
    remain_dims: *const c_int,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let (color, key, sub) = with_cart(comm, |c, rank| {
        let remain = args::slice(remain_dims, c.ndims(), "remain_dims")?;
        let remain: Vec<bool> = remain.iter().map(|&x| x != 0).collect();
        Ok(c.sub_split(rank, &remain))
    })?;
    if newcomm.is_null() {
        return mpi_err!(Arg, "NULL newcomm");
    }
    let new = w.comm_split(&*handles::comm(comm)?, color, key)?;
    write_out(newcomm, publish(new, comm, Topology::Cart(sub))?)
}

// ------------------------------------------------------------------ MPI-1 graphs

/// MPI_Graph_create's graph over a communicator of `size` processes, and its node count
/// (a table line).
///
/// # Safety
/// `index` holds `nnodes` values, `edges` as many as the last of them says.
pub(crate) unsafe fn graph(
    nnodes: c_int,
    index: *const c_int,
    edges: *const c_int,
    size: usize,
) -> Result<(Topology, usize)> {
    let nnodes = Graph::check_nnodes(nnodes, size)?;
    let index = args::slice(index, nnodes, "index")?;
    let edges = args::slice(edges, Graph::nedges(index), "edges")?;
    Ok((Topology::Graph(Graph::new(index.to_vec(), edges)?), nnodes))
}

// ------------------------------------------------------------------ distributed graphs

/// Weights of a neighbour list of `n` entries: None when unweighted.
///
/// # Safety
/// `w` is MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY, NULL or valid for `n` elements.
unsafe fn weights(w: *const c_int, n: usize, what: &str) -> Result<Option<Vec<i32>>> {
    if std::ptr::eq(w, MPI_UNWEIGHTED.0) {
        return Ok(None);
    }
    if n == 0 {
        return Ok(Some(Vec::new()));
    }
    if std::ptr::eq(w, MPI_WEIGHTS_EMPTY.0) {
        return mpi_err!(Arg, "MPI_WEIGHTS_EMPTY given for {n} {what}");
    }
    topology::weights(args::slice(w, n, what)?, what).map(Some)
}

/// MPI_Dist_graph_create_adjacent's graph over `parent` (a table line, under `create`).
///
/// # Safety
/// MPI's: each array holds its degree's values (the weights: or MPI_UNWEIGHTED ...).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn adjacent(
    parent: &Communicator,
    indegree: c_int,
    sources: *const c_int,
    sourceweights: *const c_int,
    outdegree: c_int,
    destinations: *const c_int,
    destweights: *const c_int,
    info: MPI_Info,
) -> Result<(Topology, usize)> {
    super::info::check(info)?;
    if indegree < 0 || outdegree < 0 {
        return mpi_err!(Arg, "negative degree (in {indegree}, out {outdegree})");
    }
    let (nin, nout, n) = (indegree as usize, outdegree as usize, parent.size());
    let src = topology::ranks(args::slice(sources, nin, "sources")?, n, "sources")?;
    let dst = args::slice(destinations, nout, "destinations")?;
    let dst = topology::ranks(dst, n, "destinations")?;
    let sw = weights(sourceweights, nin, "sourceweights")?;
    let dw = weights(destweights, nout, "destweights")?;
    if (nin > 0 || nout > 0) && sw.is_none() != dw.is_none() {
        return mpi_err!(
            Topology,
            "MPI_UNWEIGHTED must be given for both or neither weight array"
        );
    }
    Ok((
        Topology::DistGraph(DistGraph::adjacent(src, sw, dst, dw)),
        n,
    ))
}

/// MPI_Dist_graph_create's graph over `parent`: each process's edges, gathered by all
/// (a table line, under `create`; `out` checked before the exchange).
///
/// # Safety
/// MPI's: the arrays hold what `n` and `degrees` say; `out` NULL or valid.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn dist_graph(
    w: &World,
    parent: &Communicator,
    n: c_int,
    sources: *const c_int,
    degrees: *const c_int,
    destinations: *const c_int,
    weights: *const c_int,
    info: MPI_Info,
    out: *mut MPI_Comm,
) -> Result<(Topology, usize)> {
    super::info::check(info)?;
    let (n, size) = (args::len(n, "n")?, parent.size());
    let src = topology::ranks(args::slice(sources, n, "sources")?, size, "sources")?;
    let deg = args::slice(degrees, n, "degrees")?;
    let total = DistGraph::total_degree(deg)?;
    let dst = args::slice(destinations, total, "destinations")?;
    let dst = topology::ranks(dst, size, "destinations")?;
    let wts = self::weights(weights, total, "weights")?;
    let mine = DistGraph::encode_edges(&src, deg, &dst, wts.as_deref());
    args::out_ptr(out, "comm_dist_graph")?;
    let all = w.allgather_bytes(parent, &mine)?;
    let g = DistGraph::from_gathered(parent.rank, &all, wts.is_some());
    Ok((Topology::DistGraph(g), size))
}

pub(crate) unsafe fn dist_graph_neighbors(
    comm: MPI_Comm,
    maxindegree: c_int,
    sources: *mut c_int,
    sourceweights: *mut c_int,
    maxoutdegree: c_int,
    destinations: *mut c_int,
    destweights: *mut c_int,
) -> Result<()> {
    with(comm, |t, _| {
        let g = Topology::dist_graph(t)?;
        let [(s, sw), (d, dw)] = g.neighbors_upto(maxindegree, maxoutdegree);
        fill([sources, destinations], [s, d])?;
        for (p, w) in [(sourceweights, sw), (destweights, dw)] {
            if g.weighted && !std::ptr::eq(p, MPI_UNWEIGHTED.0) {
                fill([p], [w])?;
            }
        }
        Ok(())
    })
}

/// MPI_Topo_test's answer for topology `t` (a table line).
pub(crate) fn kind(t: Option<&Topology>) -> c_int {
    match t {
        Some(Topology::Cart(_)) => MPI_CART,
        Some(Topology::Graph(_)) => MPI_GRAPH,
        Some(Topology::DistGraph(_)) => MPI_DIST_GRAPH,
        None => MPI_UNDEFINED,
    }
}
