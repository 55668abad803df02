//! Process topologies (MPI-3.1 ch. 7): Cartesian grids, MPI-1 graphs and distributed graphs,
//! kept with a communicator; and MPI_Dims_create's balanced factorisation, ported from
//! MPICH so that both libraries give the same grids.
//!
//! Ranks here are communicator ranks; `None` stands for "no process" (MPI_PROC_NULL).

use crate::error::Result;
use crate::mpi_err;

/// A communicator's virtual topology.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Topology {
    Cart(Cart),
    Graph(Graph),
    DistGraph(DistGraph),
}

impl Topology {
    /// The Cartesian grid of a communicator's topology `t` (MPI_ERR_TOPOLOGY for another
    /// kind, or none).
    pub fn cart(t: Option<&Topology>) -> Result<&Cart> {
        match t {
            Some(Topology::Cart(c)) => Ok(c),
            _ => mpi_err!(Topology, "the communicator has no Cartesian topology"),
        }
    }

    /// The MPI-1 graph of topology `t` (as `cart`).
    pub fn graph(t: Option<&Topology>) -> Result<&Graph> {
        match t {
            Some(Topology::Graph(g)) => Ok(g),
            _ => mpi_err!(Topology, "the communicator has no graph topology"),
        }
    }

    /// The distributed graph of topology `t` (as `cart`).
    pub fn dist_graph(t: Option<&Topology>) -> Result<&DistGraph> {
        match t {
            Some(Topology::DistGraph(d)) => Ok(d),
            _ => mpi_err!(
                Topology,
                "the communicator has no distributed graph topology"
            ),
        }
    }

    /// `neighbors` as ranks, `none` (MPI_PROC_NULL) past an open edge of a grid.
    pub fn neighbor_ranks(&self, rank: usize, none: i32) -> (Vec<i32>, Vec<i32>) {
        let (src, dst) = self.neighbors(rank);
        let r = |v: Vec<Option<usize>>| {
            v.into_iter()
                .map(|r| r.map_or(none, |r| r as i32))
                .collect()
        };
        (r(src), r(dst))
    }

    /// In- and out-neighbours of `rank`, in the order the neighbourhood collectives use.
    pub fn neighbors(&self, rank: usize) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
        match self {
            Topology::Cart(c) => {
                let n = c.neighbors(rank);
                (n.clone(), n)
            }
            Topology::Graph(g) => {
                let n: Vec<Option<usize>> = g.neighbors(rank).iter().map(|&r| Some(r)).collect();
                (n.clone(), n)
            }
            Topology::DistGraph(d) => (
                d.sources.iter().map(|&r| Some(r)).collect(),
                d.destinations.iter().map(|&r| Some(r)).collect(),
            ),
        }
    }
}

// ------------------------------------------------------------------ Cartesian

/// A Cartesian grid: ranks are laid out in row-major order (the last dimension varies
/// fastest), as MPI requires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cart {
    pub dims: Vec<usize>,
    pub periods: Vec<bool>,
}

impl Cart {
    /// The grid of MPI_Cart_create / MPI_Cart_map: `dims` positive (else MPI_ERR_DIMS),
    /// `periods` non-zero for a periodic dimension (one per dimension).
    pub fn new(dims: &[i32], periods: &[i32]) -> Result<Cart> {
        if let Some(i) = dims.iter().position(|&x| x <= 0) {
            return mpi_err!(Dims, "dims[{i}] = {} is not positive", dims[i]);
        }
        Ok(Cart {
            dims: dims.iter().map(|&x| x as usize).collect(),
            periods: periods.iter().map(|&x| x != 0).collect(),
        })
    }

    /// The grid points, checked to fit a communicator of `size` processes (MPI_ERR_ARG).
    pub fn fit(&self, size: usize) -> Result<usize> {
        let n = self.nnodes();
        if n > size {
            return mpi_err!(
                Arg,
                "the grid has {n} points, the communicator only {size} processes"
            );
        }
        Ok(n)
    }

    /// The topology of MPI_Cart_create over a communicator of `size` processes, and how
    /// many of its first ranks the grid holds (`fit`).
    pub fn create(self, size: usize) -> Result<(Topology, usize)> {
        let n = self.fit(size)?;
        Ok((Topology::Cart(self), n))
    }

    /// MPI_Cart_get for the process at `rank`: dims, periods (0 or 1) and its coordinates,
    /// each cut to `maxdims` entries (negative: MPI_ERR_ARG).
    pub fn get(&self, rank: usize, maxdims: i32) -> Result<[Vec<i32>; 3]> {
        if maxdims < 0 {
            return mpi_err!(Arg, "negative maxdims {maxdims}");
        }
        let n = self.ndims().min(maxdims as usize);
        let cut = |v: &[usize]| v[..n].iter().map(|&x| x as i32).collect();
        let periods = self.periods[..n].iter().map(|&p| p as i32).collect();
        Ok([cut(&self.dims), periods, cut(&self.coords(rank))])
    }

    /// MPI_Cart_map: the rank of process `rank` of a communicator of `size` in the grid
    /// (ranks are kept), None (MPI_UNDEFINED) past the grid; a grid larger than the
    /// communicator is MPI_ERR_DIMS.
    pub fn map(&self, rank: usize, size: usize) -> Result<Option<usize>> {
        let n = self.nnodes();
        if n > size {
            return mpi_err!(
                Dims,
                "the grid has {n} points, the communicator only {size} processes"
            );
        }
        Ok((rank < n).then_some(rank))
    }

    /// MPI_Cart_coords: the coordinates of grid point `rank` (else MPI_ERR_RANK), for room
    /// of `maxdims` (at least the dimensions, else MPI_ERR_ARG).
    pub fn coords_of(&self, rank: i32, maxdims: i32) -> Result<Vec<usize>> {
        if rank < 0 || rank as usize >= self.nnodes() {
            return mpi_err!(Rank, "invalid rank {rank} (grid of {})", self.nnodes());
        }
        if (maxdims as i64) < self.ndims() as i64 {
            return mpi_err!(
                Arg,
                "maxdims {maxdims} is less than the {} dimensions",
                self.ndims()
            );
        }
        Ok(self.coords(rank as usize))
    }

    /// MPI_Cart_shift's `shift`, its direction checked: a zero-dimensional grid has none
    /// (MPI_ERR_TOPOLOGY), else it must be a dimension (MPI_ERR_ARG).
    pub fn shift_along(
        &self,
        rank: usize,
        direction: i32,
        disp: i64,
    ) -> Result<(Option<usize>, Option<usize>)> {
        if self.ndims() == 0 {
            return mpi_err!(Topology, "a zero-dimensional grid has no directions");
        }
        if direction < 0 || direction as usize >= self.ndims() {
            return mpi_err!(
                Arg,
                "direction {direction} is not a dimension (0..{})",
                self.ndims()
            );
        }
        Ok(self.shift(rank, direction as usize, disp))
    }

    /// MPI_Cart_shift as MPI writes it (`shift_along`): the source and destination
    /// ranks, `none` (MPI_PROC_NULL) past an open edge.
    pub fn shift_ranks(
        &self,
        rank: usize,
        direction: i32,
        disp: i64,
        none: i32,
    ) -> Result<[i32; 2]> {
        let (s, d) = self.shift_along(rank, direction, disp)?;
        Ok([s, d].map(|r| r.map_or(none, |r| r as i32)))
    }

    /// MPI_Cart_sub as a split for the process at `rank`: its colour (None:
    /// MPI_UNDEFINED) and key, and the sub-grid. With no dimension kept there is one
    /// zero-dimensional grid of one process, rank 0 (as for MPI_Cart_create with ndims 0,
    /// and as MPICH does); the others get no communicator.
    pub fn sub_split(&self, rank: usize, remain: &[bool]) -> (Option<i32>, i32, Cart) {
        let (color, key, sub) = self.sub(rank, remain);
        if !remain.iter().any(|&r| r) {
            return ((rank == 0).then_some(0), 0, sub);
        }
        (Some(color as i32), key as i32, sub)
    }

    /// Number of grid points (1 for a zero-dimensional grid).
    pub fn nnodes(&self) -> usize {
        self.dims.iter().fold(1usize, |a, &d| a.saturating_mul(d))
    }

    pub fn ndims(&self) -> usize {
        self.dims.len()
    }

    /// Coordinates of `rank` (< nnodes).
    pub fn coords(&self, mut rank: usize) -> Vec<usize> {
        let mut n = self.nnodes();
        self.dims
            .iter()
            .map(|&d| {
                n /= d;
                let c = rank / n;
                rank %= n;
                c
            })
            .collect()
    }

    /// Rank at `coords`: periodic dimensions wrap, a coordinate out of range in a
    /// non-periodic one is MPI_ERR_ARG (as in MPICH).
    pub fn rank_of(&self, coords: &[i64]) -> Result<usize> {
        let mut rank = 0usize;
        for (i, (&c, &d)) in coords.iter().zip(&self.dims).enumerate() {
            let d = d as i64;
            let c = if self.periods[i] {
                c.rem_euclid(d)
            } else if (0..d).contains(&c) {
                c
            } else {
                return mpi_err!(
                    Arg,
                    "coordinate {c} of dimension {i} is outside 0..{d} (not periodic)"
                );
            };
            rank = rank * d as usize + c as usize;
        }
        Ok(rank)
    }

    /// MPI_Cart_shift: (source, destination) of `rank` for a shift by `disp` along
    /// `direction`; None past the edge of a non-periodic dimension. `disp == 0` gives the
    /// process itself both ways.
    pub fn shift(
        &self,
        rank: usize,
        direction: usize,
        disp: i64,
    ) -> (Option<usize>, Option<usize>) {
        if disp == 0 {
            return (Some(rank), Some(rank));
        }
        let pos: Vec<i64> = self.coords(rank).iter().map(|&c| c as i64).collect();
        let at = |delta: i64| {
            let mut p = pos.clone();
            p[direction] += delta;
            self.rank_of(&p).ok()
        };
        (at(-disp), at(disp))
    }

    /// Neighbour order of the neighbourhood collectives: for each dimension, the process
    /// at -1 then the one at +1.
    pub fn neighbors(&self, rank: usize) -> Vec<Option<usize>> {
        (0..self.ndims())
            .flat_map(|d| {
                let (src, dst) = self.shift(rank, d, 1);
                [src, dst]
            })
            .collect()
    }

    /// MPI_Cart_sub for the process at `rank`: the split colour (the position along the
    /// dropped dimensions), the key (the position along the kept ones: row-major, so the
    /// new ranks keep the grid order) and the sub-grid.
    pub fn sub(&self, rank: usize, remain: &[bool]) -> (usize, usize, Cart) {
        let pos = self.coords(rank);
        let (mut color, mut key) = (0usize, 0usize);
        let mut sub = Cart {
            dims: Vec::new(),
            periods: Vec::new(),
        };
        for i in 0..self.ndims() {
            if remain[i] {
                key = key * self.dims[i] + pos[i];
                sub.dims.push(self.dims[i]);
                sub.periods.push(self.periods[i]);
            } else {
                color = color * self.dims[i] + pos[i];
            }
        }
        (color, key, sub)
    }
}

// ------------------------------------------------------------------ graphs

/// An MPI-1 graph (MPI_Graph_create): `index[i]` is the total degree of nodes 0..=i,
/// `edges` the concatenated neighbour lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    pub index: Vec<usize>,
    pub edges: Vec<usize>,
}

impl Graph {
    /// Check MPI_Graph_create's arrays for `nnodes` nodes (MPI_ERR_ARG when malformed).
    pub fn new(index: Vec<i32>, edges: &[i32]) -> Result<Graph> {
        let nnodes = index.len();
        let mut prev = 0i32;
        for (i, &x) in index.iter().enumerate() {
            if x < prev {
                return mpi_err!(Arg, "index[{i}] = {x} is less than index[{}]", i.max(1) - 1);
            }
            prev = x;
        }
        let nedges = prev as usize;
        if edges.len() < nedges {
            return mpi_err!(Arg, "{} edges given, index says {nedges}", edges.len());
        }
        let mut e = Vec::with_capacity(nedges);
        for (i, &x) in edges[..nedges].iter().enumerate() {
            if x < 0 || x as usize >= nnodes {
                return mpi_err!(Arg, "edges[{i}] = {x} is not a node (0..{nnodes})");
            }
            e.push(x as usize);
        }
        Ok(Graph {
            index: index.into_iter().map(|x| x as usize).collect(),
            edges: e,
        })
    }

    pub fn nnodes(&self) -> usize {
        self.index.len()
    }

    /// The edges `index` says there are (its last entry).
    pub fn nedges(index: &[i32]) -> usize {
        index.last().copied().unwrap_or(0).max(0) as usize
    }

    /// MPI_Graph_create's / MPI_Graph_map's node count, checked against a communicator of
    /// `size` processes (MPI_ERR_ARG).
    pub fn check_nnodes(nnodes: i32, size: usize) -> Result<usize> {
        if nnodes < 0 || nnodes as usize > size {
            return mpi_err!(
                Arg,
                "nnodes {nnodes} is not in 0..={size} (the communicator's size)"
            );
        }
        Ok(nnodes as usize)
    }

    /// MPI_Graph_map: the rank of process `rank` of a communicator of `size` in a graph of
    /// `nnodes` nodes (`check_nnodes`; ranks are kept), None (MPI_UNDEFINED) past it.
    pub fn map(nnodes: i32, rank: usize, size: usize) -> Result<Option<usize>> {
        Ok((rank < Self::check_nnodes(nnodes, size)?).then_some(rank))
    }

    /// MPI_Graph_get: the index and the edges, given room for them (`check_room`).
    pub fn get(&self, maxindex: i32, maxedges: i32) -> Result<[&[usize]; 2]> {
        self.check_room(maxindex, maxedges)?;
        Ok([&self.index, &self.edges])
    }

    /// MPI_Graph_get's room: `maxindex` and `maxedges` at least the graph's (MPI_ERR_ARG).
    pub fn check_room(&self, maxindex: i32, maxedges: i32) -> Result<()> {
        if (maxindex as i64) < self.nnodes() as i64 {
            return mpi_err!(Arg, "maxindex {maxindex} < {} nodes", self.nnodes());
        }
        if (maxedges as i64) < self.edges.len() as i64 {
            return mpi_err!(Arg, "maxedges {maxedges} < {} edges", self.edges.len());
        }
        Ok(())
    }

    /// Neighbours of node `rank`, a node of the graph (else MPI_ERR_RANK).
    pub fn neighbors_of(&self, rank: i32) -> Result<&[usize]> {
        if rank < 0 || rank as usize >= self.nnodes() {
            return mpi_err!(
                Rank,
                "invalid rank {rank} (graph of {} nodes)",
                self.nnodes()
            );
        }
        Ok(self.neighbors(rank as usize))
    }

    /// MPI_Graph_neighbors: the first `max` (at most) neighbours of node `rank`
    /// (`neighbors_of`).
    pub fn neighbors_upto(&self, rank: i32, max: i32) -> Result<&[usize]> {
        let n = self.neighbors_of(rank)?;
        Ok(&n[..n.len().min(max.max(0) as usize)])
    }

    /// Neighbours of node `rank` (< nnodes), in the order given at creation.
    pub fn neighbors(&self, rank: usize) -> &[usize] {
        let start = if rank == 0 { 0 } else { self.index[rank - 1] };
        &self.edges[start..self.index[rank]]
    }
}

/// A distributed graph as one process sees it: its in- and out-neighbours, with weights
/// (all 1 when unweighted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistGraph {
    pub sources: Vec<usize>,
    pub source_weights: Vec<i32>,
    pub destinations: Vec<usize>,
    pub dest_weights: Vec<i32>,
    pub weighted: bool,
}

/// One edge of MPI_Dist_graph_create: (source, destination, weight).
pub type Edge = (usize, usize, i32);

/// Ranks of a neighbour list, each a rank of a communicator of `size` (MPI_ERR_RANK).
pub fn ranks(v: &[i32], size: usize, what: &str) -> Result<Vec<usize>> {
    v.iter()
        .enumerate()
        .map(|(i, &r)| {
            if r < 0 || r as usize >= size {
                mpi_err!(Rank, "{what}[{i}] = {r} is not a rank (size {size})")
            } else {
                Ok(r as usize)
            }
        })
        .collect()
}

/// Edge weights, each non-negative (MPI_ERR_ARG).
pub fn weights(v: &[i32], what: &str) -> Result<Vec<i32>> {
    if let Some(i) = v.iter().position(|&x| x < 0) {
        return mpi_err!(Arg, "{what}[{i}] = {} is negative", v[i]);
    }
    Ok(v.to_vec())
}

impl DistGraph {
    /// MPI_Dist_graph_create_adjacent's graph: the neighbours given, with their weights
    /// (None: unweighted, all 1).
    pub fn adjacent(
        sources: Vec<usize>,
        source_weights: Option<Vec<i32>>,
        destinations: Vec<usize>,
        dest_weights: Option<Vec<i32>>,
    ) -> DistGraph {
        let weighted = source_weights.is_some() || dest_weights.is_some();
        DistGraph {
            source_weights: source_weights.unwrap_or_else(|| vec![1; sources.len()]),
            dest_weights: dest_weights.unwrap_or_else(|| vec![1; destinations.len()]),
            sources,
            destinations,
            weighted,
        }
    }

    /// MPI_Dist_graph_neighbors_count: in-degree, out-degree, whether weighted (0 or 1).
    pub fn counts(&self) -> [i32; 3] {
        [
            self.sources.len() as i32,
            self.destinations.len() as i32,
            self.weighted as i32,
        ]
    }

    /// MPI_Dist_graph_neighbors: the first `maxin` (at most) sources and their weights,
    /// the first `maxout` destinations and theirs (a negative room is none).
    pub fn neighbors_upto(&self, maxin: i32, maxout: i32) -> [(&[usize], &[i32]); 2] {
        let nin = self.sources.len().min(maxin.max(0) as usize);
        let nout = self.destinations.len().min(maxout.max(0) as usize);
        [
            (&self.sources[..nin], &self.source_weights[..nin]),
            (&self.destinations[..nout], &self.dest_weights[..nout]),
        ]
    }

    /// This process's part of MPI_Dist_graph_create, for every process to gather: the
    /// edges from each of `sources` to its `degrees[i]` next `destinations` (with their
    /// `weights`, else 1), as (source, destination, weight) triples of little-endian i32.
    pub fn encode_edges(
        sources: &[usize],
        degrees: &[i32],
        destinations: &[usize],
        weights: Option<&[i32]>,
    ) -> Vec<u8> {
        let mut mine = Vec::with_capacity(destinations.len() * 12);
        let mut k = 0;
        for (i, &s) in sources.iter().enumerate() {
            for _ in 0..degrees[i] {
                let wt = weights.map_or(1, |v| v[k]);
                for x in [s as i32, destinations[k] as i32, wt] {
                    mine.extend_from_slice(&x.to_le_bytes());
                }
                k += 1;
            }
        }
        mine
    }

    /// The degrees of MPI_Dist_graph_create, each non-negative (MPI_ERR_ARG): their sum.
    pub fn total_degree(degrees: &[i32]) -> Result<usize> {
        if let Some(i) = degrees.iter().position(|&d| d < 0) {
            return mpi_err!(Arg, "degrees[{i}] = {} is negative", degrees[i]);
        }
        Ok(degrees.iter().map(|&d| d as usize).sum())
    }

    /// The view of process `me` of the edges every process gave (`encode_edges`, in rank
    /// order).
    pub fn from_gathered(me: usize, all: &[Vec<u8>], weighted: bool) -> DistGraph {
        let edges: Vec<Edge> = all
            .iter()
            .flat_map(|b| b.chunks_exact(12))
            .map(|e| {
                let x = |i: usize| i32::from_le_bytes(e[4 * i..4 * i + 4].try_into().unwrap());
                (x(0) as usize, x(1) as usize, x(2))
            })
            .collect();
        Self::from_edges(me, &edges, weighted)
    }

    /// The view of process `me` of a graph given as edges (every process's contribution,
    /// in rank order): in-neighbours in the order their edges appear, likewise
    /// out-neighbours.
    pub fn from_edges(me: usize, edges: &[Edge], weighted: bool) -> DistGraph {
        let mut g = DistGraph {
            sources: Vec::new(),
            source_weights: Vec::new(),
            destinations: Vec::new(),
            dest_weights: Vec::new(),
            weighted,
        };
        for &(s, d, w) in edges {
            if d == me {
                g.sources.push(s);
                g.source_weights.push(w);
            }
            if s == me {
                g.destinations.push(d);
                g.dest_weights.push(w);
            }
        }
        g
    }
}

// ------------------------------------------------------------------ MPI_Dims_create

/// Most dimensions MPICH's MPI_Dims_create fills.
const MAX_DIMS: usize = 20;

/// MPI_Dims_create: fill the zero entries of `dims` so that the product of all entries is
/// `nnodes`, as balanced as possible, with exactly MPICH's choices (its algorithm after
/// Träff and Lübbe, EuroMPI'15; integer arithmetic wraps as MPICH's C does).
pub fn dims_create(nnodes: i32, dims: &mut [i32]) -> Result<()> {
    if nnodes <= 0 {
        return mpi_err!(Arg, "nnodes must be positive, got {nnodes}");
    }
    let mut needed = 0usize;
    let mut product: i64 = 1;
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 {
            return mpi_err!(Dims, "dims[{i}] = {d} is negative");
        }
        if d == 0 {
            needed += 1;
        } else {
            product = product.saturating_mul(d as i64);
        }
    }
    if nnodes as i64 % product != 0 {
        return mpi_err!(
            Dims,
            "{nnodes} processes cannot be divided among the given dimensions (product {product})"
        );
    }
    if needed == 0 {
        return Ok(());
    }
    if needed > MAX_DIMS {
        return mpi_err!(Dims, "{needed} dimensions to fill (at most {MAX_DIMS})");
    }
    let n = (nnodes as i64 / product) as i32;
    let chosen = if needed == 1 {
        vec![n]
    } else {
        balanced_factors(n, needed)
    };
    let mut it = chosen.into_iter();
    for d in dims.iter_mut().filter(|d| **d == 0) {
        *d = it.next().unwrap_or(1);
    }
    Ok(())
}

/// Prime factors of `n` (> 0) with multiplicities, ascending, and their total count.
fn factor(mut n: i32) -> (Vec<(i32, i32)>, i32) {
    let mut f = Vec::new();
    let mut nall = 0;
    if n & 1 == 0 {
        let mut cnt = 0;
        while n & 1 == 0 {
            cnt += 1;
            n >>= 1;
        }
        f.push((2, cnt));
        nall = cnt;
    }
    let mut p = 3i32;
    while n > 1 {
        if p.wrapping_mul(p) > n {
            break;
        }
        if n % p == 0 {
            let mut cnt = 0;
            while n % p == 0 {
                cnt += 1;
                n /= p;
            }
            f.push((p, cnt));
            nall += cnt;
        }
        p = next_prime(p);
    }
    if n != 1 {
        f.push((n, 1));
        nall += 1;
    }
    (f, nall)
}

fn next_prime(p: i32) -> i32 {
    let mut q = p + 2;
    while (3..)
        .step_by(2)
        .take_while(|d: &i32| d * d <= q)
        .any(|d| q % d == 0)
    {
        q += 2;
    }
    q
}

/// MPICH's MPIR_Dims_create_impl after the trivial cases: `needed` (2..=20) factors of
/// `nnodes`, in the order they go into the zero entries.
fn balanced_factors(mut nnodes: i32, needed: usize) -> Vec<i32> {
    let (mut f, mut nprimes) = factor(nnodes);
    let mut chosen = vec![0i32; needed.max(MAX_DIMS)];

    // Primes above sqrt(n) must each go in a dimension of their own.
    let mut nextidx = 0usize;
    let mut j = f.len();
    while j > 1 && nextidx < needed - 1 {
        j -= 1;
        let (val, cnt) = f[j];
        if cnt == 1 && val.wrapping_mul(val) > nnodes {
            chosen[nextidx] = val;
            nextidx += 1;
            f.pop();
            nnodes /= val;
            nprimes -= 1;
        } else {
            break;
        }
    }
    let nf = f.len();

    let mut found = false;
    if nprimes as usize + nextidx <= needed {
        // Fewer prime factors than dimensions: one each, largest first, then ones.
        let mut i = nextidx + nprimes as usize;
        for &(val, cnt) in &f {
            for _ in 0..cnt {
                i -= 1;
                chosen[i] = val;
            }
        }
        for c in chosen[nextidx + nprimes as usize..needed].iter_mut() {
            *c = 1;
        }
        found = true;
    } else if needed - nextidx == 1 {
        chosen[nextidx] = nnodes;
        found = true;
    } else if nf == 1 {
        // A power of one prime: deal its factors round robin.
        let (val, mut cnt) = f[0];
        for c in chosen[nextidx..needed].iter_mut() {
            *c = 1;
        }
        let mut k = nextidx;
        while cnt > 0 {
            cnt -= 1;
            if k >= needed {
                k = nextidx;
            }
            chosen[k] = chosen[k].wrapping_mul(val);
            k += 1;
        }
        found = true;
    }
    if !found {
        // Every multiplicity divisible by the dimensions left: equal dimensions.
        let ndleft = (needed - nextidx) as i32;
        if f.iter().all(|&(_, cnt)| cnt % ndleft == 0) {
            let mut val = 1i32;
            for &(fval, cnt) in &f {
                for _ in 0..cnt / ndleft {
                    val = val.wrapping_mul(fval);
                }
            }
            for c in chosen[nextidx..needed].iter_mut() {
                *c = val;
            }
            found = true;
        }
    }
    if found {
        chosen.truncate(needed);
        return chosen;
    }

    // No trivial answer: search the divisors for the best balance.
    let mut divs = divisors(&f);
    divs.sort_unstable();
    let nd = needed - nextidx;
    factor_to_dims_by_rr(&f, &mut chosen[nextidx..needed]);
    let mut curbal = chosen[0].wrapping_sub(chosen[needed - 1]);
    let mut trydims = vec![0i32; nd];
    trydims[nd - 1] = divs[0];
    optbalance(
        nnodes,
        nd - 1,
        nd,
        &divs,
        &mut trydims,
        &mut curbal,
        &mut chosen[nextidx..needed],
    );
    chosen.truncate(needed);
    chosen
}

/// The divisors of the product of `f`, except 1 and the product itself.
fn divisors(f: &[(i32, i32)]) -> Vec<i32> {
    let mut divs = vec![1i32];
    for &(val, cnt) in f {
        let len = divs.len();
        let mut pow = 1i32;
        for _ in 0..cnt {
            pow = pow.wrapping_mul(val);
            for i in 0..len {
                divs.push(divs[i].wrapping_mul(pow));
            }
        }
    }
    divs.sort_unstable();
    if divs.len() >= 2 {
        divs.pop();
        divs.remove(0);
    } else {
        divs.clear();
    }
    divs
}

/// MPICH's first guess: the prime factors, largest first, one per dimension, then each
/// further factor onto the last dimension it keeps no larger than its predecessor.
fn factor_to_dims_by_rr(f: &[(i32, i32)], dims: &mut [i32]) {
    let nd = dims.len();
    dims.fill(1);
    let mut k = 0;
    for &(val, cnt) in f.iter().rev() {
        for _ in 0..cnt {
            if k < nd {
                dims[k] = val;
                k += 1;
            } else {
                let mut kk = nd - 1;
                while kk > 0 {
                    if dims[kk].wrapping_mul(val) <= dims[kk - 1] {
                        break;
                    }
                    kk -= 1;
                }
                dims[kk] = dims[kk].wrapping_mul(val);
            }
        }
    }
}

/// MPICH's `optbalance`: recursively choose divisors for trydims[idx], idx-1, … 0 and keep
/// in `optdims` the decomposition with the smallest spread (ties go to the later one).
#[allow(clippy::too_many_arguments)]
fn optbalance(
    n: i32,
    idx: usize,
    nd: usize,
    divs: &[i32],
    trydims: &mut [i32],
    curbal_p: &mut i32,
    optdims: &mut [i32],
) {
    let min = trydims[nd - 1];
    let curbal = *curbal_p;
    let ndivs = divs.len();
    if idx > 1 {
        for k in 0..ndivs {
            let f = divs[k];
            if idx < nd - 1 && f.wrapping_sub(min) > curbal {
                break;
            }
            let q = n / f;
            let mut newdivs = Vec::new();
            let sf;
            if q % f == 0 {
                newdivs.push(f);
                sf = f;
            } else if k + 1 < ndivs {
                sf = divs[k + 1];
            } else {
                break;
            }
            if idx < nd - 1 && sf.wrapping_sub(min) > curbal {
                break;
            }
            let mut ff = sf.wrapping_mul(sf);
            let mut ii = idx - 1;
            while ii > 0 && ff <= q {
                ff = ff.wrapping_mul(sf);
                ii -= 1;
            }
            if ii > 0 {
                break;
            }
            trydims[idx] = f;
            for &f2 in &divs[k + 1..] {
                if f2.wrapping_mul(f2) > q {
                    break;
                }
                if q % f2 == 0 {
                    newdivs.push(f2);
                }
            }
            if !newdivs.is_empty() {
                optbalance(q, idx - 1, nd, &newdivs, trydims, curbal_p, optdims);
            }
        }
    } else if idx == 1 {
        let mut qprev = -1;
        let mut k = 1;
        while k < ndivs {
            let f = divs[k];
            let q = n / f;
            if q < f {
                break;
            }
            qprev = q;
            k += 1;
        }
        let f = divs[k - 1];
        let q = if qprev > 0 { qprev } else { n / f };
        if q < f {
            return;
        }
        let testbal = if nd == 2 {
            q.wrapping_sub(f)
        } else {
            q.wrapping_sub(min)
        };
        if testbal <= *curbal_p {
            optdims[2..nd].copy_from_slice(&trydims[2..nd]);
            optdims[0] = q;
            optdims[1] = f;
            *curbal_p = q.wrapping_sub(min);
        }
    } else if n.wrapping_sub(min) <= *curbal_p {
        optdims[1..nd].copy_from_slice(&trydims[1..nd]);
        optdims[0] = n;
        *curbal_p = n.wrapping_sub(min);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorClass;

    fn dc(n: i32, nd: usize) -> Vec<i32> {
        let mut d = vec![0; nd];
        dims_create(n, &mut d).unwrap();
        d
    }

    #[test]
    fn topology_kinds_are_checked() {
        let cart = Topology::Cart(Cart::new(&[2], &[0]).unwrap());
        assert_eq!(Topology::cart(Some(&cart)).unwrap().ndims(), 1);
        for e in [
            Topology::graph(Some(&cart)).unwrap_err(),
            Topology::dist_graph(None).unwrap_err(),
        ] {
            assert_eq!(e.class, ErrorClass::Topology);
        }
    }

    #[test]
    fn dims_create_matches_mpich() {
        // Values produced by MPICH 4.0.2's MPI_Dims_create (the port was compared with it
        // on every n <= 3000 in 1..=7 dimensions and on a sweep up to 2e6 in 2..=10).
        assert_eq!(dc(1, 2), [1, 1]);
        assert_eq!(dc(6, 2), [3, 2]);
        assert_eq!(dc(7, 2), [7, 1]);
        assert_eq!(dc(8, 3), [2, 2, 2]);
        assert_eq!(dc(12, 2), [4, 3]);
        assert_eq!(dc(12, 3), [3, 2, 2]);
        assert_eq!(dc(16, 2), [4, 4]);
        assert_eq!(dc(24, 3), [4, 3, 2]);
        assert_eq!(dc(30, 2), [6, 5]);
        assert_eq!(dc(36, 3), [4, 3, 3]);
        assert_eq!(dc(100, 3), [5, 5, 4]);
        assert_eq!(dc(60, 4), [5, 3, 2, 2]);
        assert_eq!(dc(2 * 3 * 5 * 7 * 11, 3), [15, 14, 11]);
        let mut d = [0, 3, 0];
        dims_create(30, &mut d).unwrap();
        assert_eq!(d, [5, 3, 2]);
        for (n, given, want) in [
            (360, [0, 3, 0, 0], [6, 3, 5, 4]),
            (360, [4, 0, 0, 1], [4, 10, 9, 1]),
            (720, [0, 0, 5, 0], [6, 6, 5, 4]),
            (1000, [2, 0, 0, 0], [2, 10, 10, 5]),
        ] {
            let mut d = given;
            dims_create(n, &mut d).unwrap();
            assert_eq!(d, want, "{n} {given:?}");
        }
    }

    #[test]
    fn dims_create_products_and_errors() {
        for n in 1..400 {
            for nd in 1..6 {
                let d = dc(n, nd);
                assert_eq!(d.iter().product::<i32>(), n, "{n} in {nd}: {d:?}");
                assert!(d.iter().all(|&x| x >= 1));
            }
        }
        let mut d = [0, 4];
        assert_eq!(dims_create(6, &mut d).unwrap_err().class, ErrorClass::Dims);
        let mut d = [0, -1];
        assert_eq!(dims_create(6, &mut d).unwrap_err().class, ErrorClass::Dims);
        let mut d = [2, 3];
        dims_create(6, &mut d).unwrap();
        assert_eq!(d, [2, 3]);
    }

    fn cart(dims: &[usize], periods: &[bool]) -> Cart {
        Cart {
            dims: dims.to_vec(),
            periods: periods.to_vec(),
        }
    }

    #[test]
    fn cart_coords_rank_shift() {
        let c = cart(&[3, 4], &[true, false]);
        assert_eq!(c.nnodes(), 12);
        for r in 0..12 {
            let co: Vec<i64> = c.coords(r).iter().map(|&x| x as i64).collect();
            assert_eq!(co, [(r / 4) as i64, (r % 4) as i64]);
            assert_eq!(c.rank_of(&co).unwrap(), r);
        }
        assert_eq!(c.rank_of(&[-1, 2]).unwrap(), 10);
        assert_eq!(c.rank_of(&[7, 2]).unwrap(), 6);
        assert_eq!(c.rank_of(&[0, 4]).unwrap_err().class, ErrorClass::Arg);
        assert_eq!(c.rank_of(&[0, -1]).unwrap_err().class, ErrorClass::Arg);
        // rank 5 = (1, 1)
        assert_eq!(c.shift(5, 0, 1), (Some(1), Some(9)));
        assert_eq!(c.shift(5, 0, 2), (Some(9), Some(1)));
        assert_eq!(c.shift(5, 1, 1), (Some(4), Some(6)));
        assert_eq!(c.shift(5, 1, 2), (None, Some(7)));
        assert_eq!(c.shift(5, 1, -1), (Some(6), Some(4)));
        assert_eq!(c.shift(5, 1, 0), (Some(5), Some(5)));
        assert_eq!(c.neighbors(4), [Some(0), Some(8), None, Some(5)]);
    }

    #[test]
    fn cart_sub_grids() {
        let c = cart(&[2, 3, 4], &[false, true, false]);
        // rank 17 = (1, 1, 1)
        let (color, key, s) = c.sub(17, &[false, true, true]);
        assert_eq!((color, key), (1, 5));
        assert_eq!(s, cart(&[3, 4], &[true, false]));
        let (color, key, s) = c.sub(17, &[true, false, false]);
        assert_eq!((color, key), (5, 1));
        assert_eq!(s, cart(&[2], &[false]));
        let (_, key, s) = c.sub(17, &[false, false, false]);
        assert_eq!((key, s.nnodes(), s.ndims()), (0, 1, 0));
    }

    #[test]
    fn graphs() {
        let g = Graph::new(vec![2, 3, 4, 6], &[1, 3, 0, 3, 0, 2]).unwrap();
        assert_eq!(g.neighbors(0), [1, 3]);
        assert_eq!(g.neighbors(3), [0, 2]);
        assert_eq!(
            Graph::new(vec![2, 1], &[0, 1]).unwrap_err().class,
            ErrorClass::Arg
        );
        assert_eq!(
            Graph::new(vec![1, 2], &[0, 2]).unwrap_err().class,
            ErrorClass::Arg
        );
        let t = Topology::Graph(g.clone());
        assert_eq!(t.neighbors(1).0, [Some(0)]);

        assert_eq!(g.neighbors_of(3).unwrap(), [0, 2]);
        assert_eq!(g.neighbors_of(4).unwrap_err().class, ErrorClass::Rank);
        assert_eq!(Graph::nedges(&[2, 3, 4, 6]), 6);
        assert_eq!(Graph::check_nnodes(4, 4).unwrap(), 4);
        assert_eq!(
            Graph::check_nnodes(5, 4).unwrap_err().class,
            ErrorClass::Arg
        );
        assert!(g.check_room(4, 6).is_ok());
        assert_eq!(g.check_room(4, 5).unwrap_err().class, ErrorClass::Arg);

        let edges = [(0, 1, 5), (2, 1, 6), (1, 0, 7), (1, 2, 8), (1, 1, 9)];
        let d = DistGraph::from_edges(1, &edges, true);
        assert_eq!(d.sources, [0, 2, 1]);
        assert_eq!(d.source_weights, [5, 6, 9]);
        assert_eq!(d.destinations, [0, 2, 1]);
        assert_eq!(d.dest_weights, [7, 8, 9]);

        // MPI_Dist_graph_create's exchange: process 0 gives 0->1 (5), 2->1 (6); process 1
        // gives 1->0, 1->2, 1->1 (7, 8, 9).
        let p0 = DistGraph::encode_edges(&[0, 2], &[1, 1], &[1, 1], Some(&[5, 6]));
        let p1 = DistGraph::encode_edges(&[1], &[3], &[0, 2, 1], Some(&[7, 8, 9]));
        assert_eq!(DistGraph::from_gathered(1, &[p0, p1], true), d);
        assert_eq!(DistGraph::total_degree(&[1, 3]).unwrap(), 4);
        assert_eq!(
            DistGraph::total_degree(&[1, -3]).unwrap_err().class,
            ErrorClass::Arg
        );
        assert_eq!(ranks(&[0, 3], 3, "s").unwrap_err().class, ErrorClass::Rank);
        assert_eq!(weights(&[0, -1], "w").unwrap_err().class, ErrorClass::Arg);
        let a = DistGraph::adjacent(vec![1], None, vec![2, 0], None);
        assert_eq!(
            (a.source_weights, a.dest_weights, a.weighted),
            (vec![1], vec![1, 1], false)
        );
    }

    #[test]
    fn cart_checks() {
        let c = Cart::new(&[3, 4], &[1, 0]).unwrap();
        assert_eq!(c, cart(&[3, 4], &[true, false]));
        assert_eq!(
            Cart::new(&[3, 0], &[0, 0]).unwrap_err().class,
            ErrorClass::Dims
        );
        assert_eq!(c.fit(12).unwrap(), 12);
        assert_eq!(c.fit(11).unwrap_err().class, ErrorClass::Arg);
        assert_eq!(
            (c.map(3, 16).unwrap(), c.map(13, 16).unwrap()),
            (Some(3), None)
        );
        assert_eq!(c.map(0, 11).unwrap_err().class, ErrorClass::Dims);
        assert_eq!(c.coords_of(5, 2).unwrap(), [1, 1]);
        assert_eq!(c.coords_of(12, 2).unwrap_err().class, ErrorClass::Rank);
        assert_eq!(c.coords_of(5, 1).unwrap_err().class, ErrorClass::Arg);
        assert_eq!(c.shift_along(5, 1, 2).unwrap(), (None, Some(7)));
        assert_eq!(c.shift_along(5, 2, 1).unwrap_err().class, ErrorClass::Arg);
        let zero = cart(&[], &[]);
        assert_eq!(
            zero.shift_along(0, 0, 1).unwrap_err().class,
            ErrorClass::Topology
        );
        assert_eq!(c.sub_split(5, &[false, true]).0, Some(1));
        assert_eq!(c.sub_split(5, &[false, false]).0, None);
        assert_eq!(c.sub_split(0, &[false, false]).0, Some(0));
    }

    fn line_cart() -> Cart {
        cart(&[2], &[false])
    }

    #[test]
    fn query_outputs() {
        let c = cart(&[2, 3], &[true, false]);
        assert_eq!(c.get(4, 5).unwrap(), [vec![2, 3], vec![1, 0], vec![1, 1]]);
        assert_eq!(c.get(4, 1).unwrap(), [vec![2], vec![1], vec![1]]);
        assert_eq!(c.get(0, -1).unwrap_err().class, ErrorClass::Arg);
        let (t, n) = c.clone().create(7).unwrap();
        assert_eq!((t, n), (Topology::Cart(c.clone()), 6));
        assert_eq!(c.create(5).unwrap_err().class, ErrorClass::Arg);
        // A 1-D open line of 2: rank 0 has no source.
        let line = Topology::Cart(cart(&[2], &[false]));
        assert_eq!(line.neighbor_ranks(0, -1), (vec![-1, 1], vec![-1, 1]));

        let g = Graph::new(vec![2, 3, 4], &[1, 2, 0, 0]).unwrap();
        assert_eq!(g.neighbors_upto(0, 1).unwrap(), &[1]);
        assert_eq!(g.neighbors_upto(0, -3).unwrap(), &[] as &[usize]);
        assert_eq!(g.neighbors_upto(3, 9).unwrap_err().class, ErrorClass::Rank);
        assert_eq!(Graph::map(2, 1, 4).unwrap(), Some(1));
        assert_eq!(Graph::map(2, 3, 4).unwrap(), None);
        assert_eq!(Graph::map(5, 0, 4).unwrap_err().class, ErrorClass::Arg);

        assert_eq!(g.get(3, 4).unwrap(), [&[2, 3, 4][..], &[1, 2, 0, 0][..]]);
        assert_eq!(g.get(3, 3).unwrap_err().class, ErrorClass::Arg);
        assert_eq!(line_cart().shift_ranks(0, 0, 1, -1).unwrap(), [-1, 1]);
        assert_eq!(
            line_cart().shift_ranks(0, 1, 1, -1).unwrap_err().class,
            ErrorClass::Arg
        );

        let d = DistGraph::adjacent(vec![1, 2], Some(vec![5, 6]), vec![3], None);
        assert_eq!(d.counts(), [2, 1, 1]);
        let [(s, sw), (t, tw)] = d.neighbors_upto(1, -1);
        assert_eq!((s, sw, t, tw), (&[1][..], &[5][..], &[][..], &[][..]));
    }
}
