//! Topology shims (MPI-3.1 ch. 7): MPI_Dims_create, Cartesian grids, MPI-1 graphs,
//! distributed graphs, MPI_Topo_test; and `neighbors`, the neighbour lists the
//! neighbourhood collectives use. The topology is kept in the communicator's table entry
//! (`CommEntry::topo`) and goes with it through MPI_Comm_dup. Ranks are never reordered.

use super::args;
use super::consts::*;
use super::handles;
use super::shim::{self, write_out};
use crate::comm::topology::{self, Cart, DistGraph, Graph, Topology};
use crate::error::Result;
use crate::mpi_err;
use std::os::raw::c_int;
use std::sync::Arc;

/// Write `v` into the C array `p` (room for at least `v.len()` elements, or NULL if empty).
///
/// # Safety
/// `p` is valid for `v.len()` elements.
unsafe fn fill(p: *mut c_int, v: impl IntoIterator<Item = c_int>) -> Result<()> {
    for (i, x) in v.into_iter().enumerate() {
        if p.is_null() {
            return mpi_err!(Arg, "NULL output array");
        }
        // SAFETY: per the contract.
        *p.add(i) = x;
    }
    Ok(())
}

fn is_unweighted(p: *const c_int) -> bool {
    std::ptr::eq(p, MPI_UNWEIGHTED.0)
}

fn is_weights_empty(p: *const c_int) -> bool {
    std::ptr::eq(p, MPI_WEIGHTS_EMPTY.0)
}

/// The topology of `comm` (checked to be a valid communicator).
pub(crate) fn topology(comm: MPI_Comm) -> Result<Option<Arc<Topology>>> {
    shim::world()?;
    handles::comm(comm)?;
    handles::with_comm_entry(comm, |e| e.topo.clone())
}

/// `f` of `comm`'s Cartesian grid (MPI_ERR_TOPOLOGY for none) and this process's rank.
fn with_cart<R>(comm: MPI_Comm, f: impl FnOnce(&Cart, usize) -> Result<R>) -> Result<R> {
    let rank = handles::comm(comm).map(|c| c.rank);
    let t = topology(comm)?;
    f(Topology::cart(t.as_deref())?, rank?)
}

/// The in- and out-neighbours of this process in `comm`'s topology, in the order of the
/// neighbourhood collectives (MPI-3.1 §7.6): for a Cartesian grid, per dimension the
/// neighbour at -1 then at +1 (MPI_PROC_NULL past an open edge), both lists alike; for a
/// graph, the node's neighbours, both lists alike; for a distributed graph, its sources and
/// destinations as created. MPI_ERR_TOPOLOGY without a topology.
pub fn neighbors(comm: MPI_Comm) -> Result<(Vec<i32>, Vec<i32>)> {
    let Some(t) = topology(comm)? else {
        return mpi_err!(Topology, "communicator {comm:#x} has no topology");
    };
    let rank = handles::comm(comm)?.rank;
    let (src, dst) = t.neighbors(rank);
    let c = |v: Vec<Option<usize>>| {
        v.into_iter()
            .map(|r| r.map_or(MPI_PROC_NULL, |r| r as i32))
            .collect()
    };
    Ok((c(src), c(dst)))
}

/// Whether `comm` has a Cartesian topology.
pub fn is_cart(comm: MPI_Comm) -> Result<bool> {
    Ok(matches!(
        topology(comm)?.as_deref(),
        Some(Topology::Cart(_))
    ))
}

/// Register a new communicator with its topology (or MPI_COMM_NULL for None).
fn publish(
    c: Option<Arc<crate::comm::Communicator>>,
    parent: MPI_Comm,
    topo: Topology,
) -> Result<MPI_Comm> {
    let Some(c) = c else {
        return Ok(MPI_COMM_NULL);
    };
    let h = handles::derived_comm(c, parent);
    let topo = Arc::new(topo);
    handles::with_comm_entry(h, |e| e.topo = Some(topo))?;
    Ok(h)
}

// ------------------------------------------------------------------ MPI_Dims_create

pub(crate) unsafe fn dims_create(nnodes: c_int, ndims: c_int, dims: *mut c_int) -> Result<()> {
    if ndims < 0 {
        return mpi_err!(Arg, "negative ndims {ndims}");
    }
    if ndims == 0 {
        // No entry to fill; every nnodes is a multiple of the empty product.
        return if nnodes > 0 {
            Ok(())
        } else {
            mpi_err!(Arg, "nnodes must be positive, got {nnodes}")
        };
    }
    if dims.is_null() {
        return mpi_err!(Arg, "NULL dims array");
    }
    // SAFETY: dims has ndims elements (MPI's contract).
    let d = std::slice::from_raw_parts_mut(dims, ndims as usize);
    topology::dims_create(nnodes, d)
}

// ------------------------------------------------------------------ Cartesian

/// The grid of MPI_Cart_create / MPI_Cart_map.
///
/// # Safety
/// `dims` and `periods` are valid for `ndims` elements.
unsafe fn cart_args(ndims: c_int, dims: *const c_int, periods: *const c_int) -> Result<Cart> {
    if ndims < 0 {
        return mpi_err!(Arg, "negative ndims {ndims}");
    }
    let n = ndims as usize;
    Cart::new(
        args::slice(dims, n, "dims")?,
        args::slice(periods, n, "periods")?,
    )
}

pub(crate) unsafe fn cart_create(
    comm_old: MPI_Comm,
    ndims: c_int,
    dims: *const c_int,
    periods: *const c_int,
    reorder: c_int,
    comm_cart: *mut MPI_Comm,
) -> Result<()> {
    let _ = reorder; // ranks are kept
                     // A failed call leaves MPI_COMM_NULL behind, as MPICH does (programs test for it).
    if !comm_cart.is_null() {
        *comm_cart = MPI_COMM_NULL;
    }
    let w = shim::world()?;
    let parent = handles::comm(comm_old)?;
    args::intra(&parent)?;
    let cart = cart_args(ndims, dims, periods)?;
    let n = cart.fit(parent.size())?;
    if comm_cart.is_null() {
        return mpi_err!(Arg, "NULL comm_cart");
    }
    let c = w.comm_first(&parent, n)?;
    write_out(comm_cart, publish(c, comm_old, Topology::Cart(cart))?)
}

pub(crate) unsafe fn cart_map(
    comm: MPI_Comm,
    ndims: c_int,
    dims: *const c_int,
    periods: *const c_int,
    newrank: *mut c_int,
) -> Result<()> {
    shim::world()?;
    let c = handles::comm(comm)?;
    args::intra(&c)?;
    let r = cart_args(ndims, dims, periods)?.map(c.rank, c.size())?;
    write_out(newrank, r.map_or(MPI_UNDEFINED, |r| r as c_int))
}

pub(crate) unsafe fn cartdim_get(comm: MPI_Comm, ndims: *mut c_int) -> Result<()> {
    with_cart(comm, |c, _| write_out(ndims, c.ndims() as c_int))
}

pub(crate) unsafe fn cart_get(
    comm: MPI_Comm,
    maxdims: c_int,
    dims: *mut c_int,
    periods: *mut c_int,
    coords: *mut c_int,
) -> Result<()> {
    with_cart(comm, |c, rank| {
        if maxdims < 0 {
            return mpi_err!(Arg, "negative maxdims {maxdims}");
        }
        let n = c.ndims().min(maxdims as usize);
        let pos = c.coords(rank);
        fill(dims, c.dims[..n].iter().map(|&x| x as c_int))?;
        fill(periods, c.periods[..n].iter().map(|&x| x as c_int))?;
        fill(coords, pos[..n].iter().map(|&x| x as c_int))
    })
}

pub(crate) unsafe fn cart_coords(
    comm: MPI_Comm,
    rank: c_int,
    maxdims: c_int,
    coords: *mut c_int,
) -> Result<()> {
    let co = with_cart(comm, |c, _| c.coords_of(rank, maxdims))?;
    fill(coords, co.into_iter().map(|x| x as c_int))
}

pub(crate) unsafe fn cart_rank(
    comm: MPI_Comm,
    coords: *const c_int,
    rank: *mut c_int,
) -> Result<()> {
    with_cart(comm, |c, _| {
        let co = args::ints(coords, c.ndims(), "coords")?;
        write_out(rank, c.rank_of(&co)? as c_int)
    })
}

pub(crate) unsafe fn cart_shift(
    comm: MPI_Comm,
    direction: c_int,
    disp: c_int,
    rank_source: *mut c_int,
    rank_dest: *mut c_int,
) -> Result<()> {
    let (s, d) = with_cart(comm, |c, rank| c.shift_along(rank, direction, disp as i64))?;
    let r = |x: Option<usize>| x.map_or(MPI_PROC_NULL, |x| x as c_int);
    write_out(rank_source, r(s))?;
    write_out(rank_dest, r(d))
}

pub(crate) unsafe fn cart_sub(
    comm: MPI_Comm,
    remain_dims: *const c_int,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let (color, key, sub) = with_cart(comm, |c, rank| {
        let remain: Vec<bool> = args::slice(remain_dims, c.ndims(), "remain_dims")?
            .iter()
            .map(|&x| x != 0)
            .collect();
        Ok(c.sub_split(rank, &remain))
    })?;
    if newcomm.is_null() {
        return mpi_err!(Arg, "NULL newcomm");
    }
    let parent = handles::comm(comm)?;
    let new = w.comm_split(&parent, color, key)?;
    write_out(newcomm, publish(new, comm, Topology::Cart(sub))?)
}

// ------------------------------------------------------------------ MPI-1 graphs

pub(crate) unsafe fn graph_create(
    comm_old: MPI_Comm,
    nnodes: c_int,
    indx: *const c_int,
    edges: *const c_int,
    reorder: c_int,
    comm_graph: *mut MPI_Comm,
) -> Result<()> {
    let _ = reorder; // ranks are kept
    if !comm_graph.is_null() {
        *comm_graph = MPI_COMM_NULL;
    }
    let w = shim::world()?;
    let parent = handles::comm(comm_old)?;
    args::intra(&parent)?;
    let nnodes = Graph::check_nnodes(nnodes, parent.size())?;
    let index = args::slice(indx, nnodes, "index")?;
    let g = Graph::new(
        index.to_vec(),
        args::slice(edges, Graph::nedges(index), "edges")?,
    )?;
    if comm_graph.is_null() {
        return mpi_err!(Arg, "NULL comm_graph");
    }
    let c = w.comm_first(&parent, nnodes)?;
    write_out(comm_graph, publish(c, comm_old, Topology::Graph(g))?)
}

pub(crate) unsafe fn graph_map(
    comm: MPI_Comm,
    nnodes: c_int,
    indx: *const c_int,
    edges: *const c_int,
    newrank: *mut c_int,
) -> Result<()> {
    let _ = (indx, edges);
    shim::world()?;
    let c = handles::comm(comm)?;
    args::intra(&c)?;
    let nnodes = Graph::check_nnodes(nnodes, c.size())?;
    write_out(
        newrank,
        if c.rank < nnodes {
            c.rank as c_int
        } else {
            MPI_UNDEFINED
        },
    )
}

pub(crate) unsafe fn graphdims_get(
    comm: MPI_Comm,
    nnodes: *mut c_int,
    nedges: *mut c_int,
) -> Result<()> {
    let t = topology(comm)?;
    let g = Topology::graph(t.as_deref())?;
    write_out(nnodes, g.nnodes() as c_int)?;
    write_out(nedges, g.edges.len() as c_int)
}

pub(crate) unsafe fn graph_get(
    comm: MPI_Comm,
    maxindex: c_int,
    maxedges: c_int,
    indx: *mut c_int,
    edges: *mut c_int,
) -> Result<()> {
    let t = topology(comm)?;
    let g = Topology::graph(t.as_deref())?;
    g.check_room(maxindex, maxedges)?;
    fill(indx, g.index.iter().map(|&x| x as c_int))?;
    fill(edges, g.edges.iter().map(|&x| x as c_int))
}

pub(crate) unsafe fn graph_neighbors_count(
    comm: MPI_Comm,
    rank: c_int,
    nneighbors: *mut c_int,
) -> Result<()> {
    let t = topology(comm)?;
    let g = Topology::graph(t.as_deref())?;
    write_out(nneighbors, g.neighbors_of(rank)?.len() as c_int)
}

pub(crate) unsafe fn graph_neighbors(
    comm: MPI_Comm,
    rank: c_int,
    maxneighbors: c_int,
    neighbors: *mut c_int,
) -> Result<()> {
    let t = topology(comm)?;
    let g = Topology::graph(t.as_deref())?;
    let n = g.neighbors_of(rank)?;
    let k = n.len().min(maxneighbors.max(0) as usize);
    fill(neighbors, n[..k].iter().map(|&x| x as c_int))
}

// ------------------------------------------------------------------ distributed graphs

/// Weights of a neighbour list of `n` entries: None when unweighted.
///
/// # Safety
/// `w` is MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY, NULL or valid for `n` elements.
unsafe fn weights(w: *const c_int, n: usize, what: &str) -> Result<Option<Vec<i32>>> {
    if is_unweighted(w) {
        return Ok(None);
    }
    if n == 0 {
        return Ok(Some(Vec::new()));
    }
    if is_weights_empty(w) {
        return mpi_err!(Arg, "MPI_WEIGHTS_EMPTY given for {n} {what}");
    }
    topology::weights(args::slice(w, n, what)?, what).map(Some)
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn dist_graph_create_adjacent(
    comm_old: MPI_Comm,
    indegree: c_int,
    sources: *const c_int,
    sourceweights: *const c_int,
    outdegree: c_int,
    destinations: *const c_int,
    destweights: *const c_int,
    info: MPI_Info,
    reorder: c_int,
    comm_dist_graph: *mut MPI_Comm,
) -> Result<()> {
    let _ = reorder; // ranks are kept
    let w = shim::world()?;
    let parent = handles::comm(comm_old)?;
    args::intra(&parent)?;
    super::info::check(info)?;
    if indegree < 0 || outdegree < 0 {
        return mpi_err!(Arg, "negative degree (in {indegree}, out {outdegree})");
    }
    let (nin, nout) = (indegree as usize, outdegree as usize);
    let n = parent.size();
    let src = topology::ranks(args::slice(sources, nin, "sources")?, n, "sources")?;
    let dst = topology::ranks(
        args::slice(destinations, nout, "destinations")?,
        n,
        "destinations",
    )?;
    let sw = weights(sourceweights, nin, "sourceweights")?;
    let dw = weights(destweights, nout, "destweights")?;
    if (nin > 0 || nout > 0) && is_unweighted(sourceweights) != is_unweighted(destweights) {
        return mpi_err!(
            Topology,
            "MPI_UNWEIGHTED must be given for both or neither weight array"
        );
    }
    let g = DistGraph::adjacent(src, sw, dst, dw);
    if comm_dist_graph.is_null() {
        return mpi_err!(Arg, "NULL comm_dist_graph");
    }
    let c = w.comm_first(&parent, n)?;
    write_out(
        comm_dist_graph,
        publish(c, comm_old, Topology::DistGraph(g))?,
    )
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn dist_graph_create(
    comm_old: MPI_Comm,
    n: c_int,
    sources: *const c_int,
    degrees: *const c_int,
    destinations: *const c_int,
    weights: *const c_int,
    info: MPI_Info,
    reorder: c_int,
    comm_dist_graph: *mut MPI_Comm,
) -> Result<()> {
    let _ = reorder; // ranks are kept
    let w = shim::world()?;
    let parent = handles::comm(comm_old)?;
    args::intra(&parent)?;
    super::info::check(info)?;
    if n < 0 {
        return mpi_err!(Arg, "negative n {n}");
    }
    let size = parent.size();
    let src = topology::ranks(
        args::slice(sources, n as usize, "sources")?,
        size,
        "sources",
    )?;
    let deg = args::slice(degrees, n as usize, "degrees")?;
    let total = DistGraph::total_degree(deg)?;
    let dst = args::slice(destinations, total, "destinations")?;
    let dst = topology::ranks(dst, size, "destinations")?;
    let wts = self::weights(weights, total, "weights")?;
    let mine = DistGraph::encode_edges(&src, deg, &dst, wts.as_deref());
    if comm_dist_graph.is_null() {
        return mpi_err!(Arg, "NULL comm_dist_graph");
    }
    let all = w.allgather_bytes(&parent, &mine)?;
    let g = DistGraph::from_gathered(parent.rank, &all, wts.is_some());
    let c = w.comm_first(&parent, size)?;
    write_out(
        comm_dist_graph,
        publish(c, comm_old, Topology::DistGraph(g))?,
    )
}

pub(crate) unsafe fn dist_graph_neighbors_count(
    comm: MPI_Comm,
    indegree: *mut c_int,
    outdegree: *mut c_int,
    weighted: *mut c_int,
) -> Result<()> {
    let t = topology(comm)?;
    let g = Topology::dist_graph(t.as_deref())?;
    write_out(indegree, g.sources.len() as c_int)?;
    write_out(outdegree, g.destinations.len() as c_int)?;
    write_out(weighted, g.weighted as c_int)
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
    let t = topology(comm)?;
    let g = Topology::dist_graph(t.as_deref())?;
    let nin = g.sources.len().min(maxindegree.max(0) as usize);
    let nout = g.destinations.len().min(maxoutdegree.max(0) as usize);
    fill(sources, g.sources[..nin].iter().map(|&x| x as c_int))?;
    fill(
        destinations,
        g.destinations[..nout].iter().map(|&x| x as c_int),
    )?;
    if g.weighted {
        if !is_unweighted(sourceweights) {
            fill(sourceweights, g.source_weights[..nin].iter().copied())?;
        }
        if !is_unweighted(destweights) {
            fill(destweights, g.dest_weights[..nout].iter().copied())?;
        }
    }
    Ok(())
}

pub(crate) unsafe fn topo_test(comm: MPI_Comm, status: *mut c_int) -> Result<()> {
    let kind = match topology(comm)?.as_deref() {
        Some(Topology::Cart(_)) => MPI_CART,
        Some(Topology::Graph(_)) => MPI_GRAPH,
        Some(Topology::DistGraph(_)) => MPI_DIST_GRAPH,
        None => MPI_UNDEFINED,
    };
    write_out(status, kind)
}
