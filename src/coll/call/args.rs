//! The arguments of a collective call once resolved from the caller's handles, and MPI's
//! checks on them: buffers (`Addr`, MPI_IN_PLACE already told apart), counts and datatypes
//! that may hold the error their resolution gave (`Arg`), the root (`RootArg`), a
//! v-collective's counts and displacements (`Counts`) and one side of an all-to-all
//! (`Side`).

use crate::coll::inter::Root;
use crate::coll::{Blocks, TypedBuf};
use crate::comm::topology::Topology;
use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use std::ops::Deref;
use std::sync::Arc;

/// An argument as the caller's handle or array resolved to: its error stays until the call
/// reads the argument, since MPI checks an argument only where it is significant (a
/// non-root's receive type may be anything).
pub type Arg<T> = Result<T>;

/// The argument, or the error its resolution gave.
pub(super) fn arg<T>(a: &Arg<T>) -> Result<&T> {
    a.as_ref().map_err(Clone::clone)
}

/// A buffer argument: its address, and whether it was MPI_IN_PLACE (the address is then
/// the one MPI_IN_PLACE has, used only where no data is at it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Addr {
    pub at: usize,
    pub in_place: bool,
}

impl Addr {
    pub fn ptr(self) -> *mut u8 {
        self.at as *mut u8
    }
}

/// The root argument of a rooted collective, its MPI constants told apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RootArg {
    /// MPI_ROOT (intercommunicators: this process is the root).
    Here,
    /// MPI_PROC_NULL (intercommunicators: in the root's group, not the root).
    Idle,
    Rank(i32),
}

/// The root of an intracommunicator's rooted collective.
pub fn intra_root(c: &Communicator, r: RootArg) -> Result<usize> {
    match r {
        RootArg::Rank(r) if r >= 0 && (r as usize) < c.size() => Ok(r as usize),
        r => mpi_err!(Root, "invalid root {r:?} (communicator size {})", c.size()),
    }
}

/// The root of an intercommunicator's rooted collective (MPI-3.1 §5.2.2).
pub fn inter_root(c: &Communicator, r: RootArg) -> Result<Root> {
    match r {
        RootArg::Here => Ok(Root::Here),
        RootArg::Idle => Ok(Root::Idle),
        RootArg::Rank(r) if r >= 0 && (r as usize) < c.peer_size() => Ok(Root::Remote(r as usize)),
        RootArg::Rank(r) => mpi_err!(
            Root,
            "invalid root {r} (MPI_ROOT, MPI_PROC_NULL or a rank of the remote group of size {})",
            c.peer_size()
        ),
    }
}

/// Whether this process reads the root's side of a rooted call (its v-arrays): the root of
/// an intracommunicator's, MPI_ROOT on an intercommunicator. The caller reads the arrays
/// of the C call only then (elsewhere they may be anything).
pub fn reads_root_side(c: &Communicator, r: RootArg) -> bool {
    match r {
        RootArg::Here => c.is_inter(),
        RootArg::Idle => false,
        RootArg::Rank(r) => !c.is_inter() && usize::try_from(r).is_ok_and(|r| r == c.rank),
    }
}

/// How many blocks a v-array describes: one per member of the remote group of an
/// intercommunicator, else of the communicator.
pub fn peers(c: &Communicator) -> usize {
    if c.is_inter() {
        c.peer_size()
    } else {
        c.size()
    }
}

/// `MPI_IN_PLACE` where MPI does not allow it (MPICH: MPI_ERR_BUFFER).
pub fn not_in_place(a: Addr, count: usize, what: &str) -> Result<()> {
    if count > 0 && a.in_place {
        return mpi_err!(Buffer, "{what} cannot be MPI_IN_PLACE here");
    }
    Ok(())
}

/// Send and receive buffers that are the same memory (MPI_IN_PLACE is the way to say so).
pub fn no_alias(send: *const u8, recv: *const u8, nonempty: bool) -> Result<()> {
    if nonempty && send == recv && !send.is_null() {
        return mpi_err!(
            Buffer,
            "send and receive buffers must not be aliased (use MPI_IN_PLACE)"
        );
    }
    Ok(())
}

/// `count` elements of `ty` at `p`, checked: a NULL buffer is an error when it must hold
/// data of a type that starts at offset 0 (MPI_BOTTOM with absolute-address derived types
/// stays legal), and the bytes must fit a slice.
pub fn typed(p: *const u8, count: usize, ty: &Datatype) -> Result<TypedBuf<'_>> {
    if p.is_null() && count > 0 && ty.size > 0 && ty.true_lb == 0 {
        return mpi_err!(Buffer, "NULL buffer with count {count}");
    }
    count
        .checked_mul(ty.size)
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| Error::new(ErrorClass::Count, "message too large"))?;
    Ok(TypedBuf::new(p, count, ty))
}

/// A local copy of `send` into `recv` must fit.
pub fn fits(send: &TypedBuf, recv: &TypedBuf) -> Result<()> {
    if send.bytes() > recv.bytes() {
        return mpi_err!(
            Truncate,
            "{} bytes sent where {} can be received",
            send.bytes(),
            recv.bytes()
        );
    }
    Ok(())
}

/// Blocks of a v-collective buffer, checked (NULL buffer with data, overflow).
pub fn blocks(
    base: Addr,
    ty: &Datatype,
    counts: Vec<usize>,
    displs: Vec<isize>,
) -> Result<Blocks<'_>> {
    let total = counts.iter().try_fold(0usize, |a, &c| a.checked_add(c));
    let Some(total) = total else {
        return mpi_err!(Count, "counts overflow");
    };
    typed(base.ptr(), total, ty)?;
    Ok(Blocks {
        base: base.ptr(),
        ty,
        counts,
        displs,
    })
}

/// The counts (and displacements, in extents of the type) of a v-collective's blocks.
pub enum Counts {
    /// One count for every block, the blocks one after the other.
    Uniform(Arg<usize>),
    V(Arg<Vec<usize>>, Arg<Vec<isize>>),
    /// Counts only (MPI_Reduce_scatter).
    Only(Arg<Vec<usize>>),
}

impl Counts {
    /// The counts and displacements of `n` blocks.
    pub fn arrays(&self, n: usize) -> Result<(Vec<usize>, Vec<isize>)> {
        match self {
            Counts::Uniform(k) => {
                let k = *arg(k)?;
                // (An overflowing total is refused by `blocks`.)
                let displs = (0..n).map(|i| i.wrapping_mul(k) as isize).collect();
                Ok((vec![k; n], displs))
            }
            Counts::V(counts, displs) => Ok((arg(counts)?.clone(), arg(displs)?.clone())),
            Counts::Only(counts) => Ok((arg(counts)?.clone(), Vec::new())),
        }
    }
}

/// One side of an all-to-all or neighbourhood collective: per-peer counts and
/// displacements (in extents of one type, or in bytes with per-peer types).
pub enum Side<T> {
    Uniform(Arg<usize>, Arg<T>),
    V(Arg<Vec<usize>>, Arg<Vec<isize>>, Arg<T>),
    /// Per-peer types, byte displacements.
    W(Arg<Vec<usize>>, Arg<Vec<isize>>, Arg<Vec<T>>),
    /// The same buffer for every peer (MPI_Neighbor_allgather(v)'s send side).
    Same(Arg<usize>, Arg<T>),
}

/// A side resolved for `n` peers.
pub struct SideBlocks<'a, T> {
    /// One type for all, or one per peer.
    types: &'a [T],
    pub counts: Vec<usize>,
    /// Byte displacements.
    displs: Vec<isize>,
}

impl<T: Deref<Target = Datatype>> Side<T> {
    /// The side's blocks for `n` peers; its arguments checked in MPICH's order (the type
    /// before the counts, the counts before the displacements).
    pub fn resolve(&self, n: usize) -> Result<SideBlocks<'_, T>> {
        Ok(match self {
            Side::Uniform(k, t) => {
                let k = *arg(k)?;
                let ty = arg(t)?;
                let ext = ty.extent;
                SideBlocks {
                    types: std::slice::from_ref(ty),
                    counts: vec![k; n],
                    // (Wrapping: `bufs` refuses a block past the address space.)
                    displs: (0..n)
                        .map(|i| (i.wrapping_mul(k) as isize).wrapping_mul(ext))
                        .collect(),
                }
            }
            Side::V(counts, displs, t) => {
                let ty = arg(t)?;
                let ext = ty.extent;
                SideBlocks {
                    types: std::slice::from_ref(ty),
                    counts: arg(counts)?.clone(),
                    displs: arg(displs)?.iter().map(|d| d.wrapping_mul(ext)).collect(),
                }
            }
            Side::W(counts, displs, types) => SideBlocks {
                types: arg(types)?,
                counts: arg(counts)?.clone(),
                displs: arg(displs)?.clone(),
            },
            Side::Same(k, t) => {
                let ty = arg(t)?;
                SideBlocks {
                    types: std::slice::from_ref(ty),
                    counts: vec![*arg(k)?; n],
                    displs: vec![0; n],
                }
            }
        })
    }

    /// Whether the side has per-peer arrays (which the caller must read).
    pub fn has_arrays(&self) -> bool {
        matches!(self, Side::V(..) | Side::W(..))
    }
}

impl<'a, T: Deref<Target = Datatype>> SideBlocks<'a, T> {
    fn ty(&self, i: usize) -> &'a Datatype {
        let types = self.types;
        if types.len() == 1 {
            &types[0]
        } else {
            &types[i]
        }
    }

    /// The per-peer buffers at `base`, checked.
    pub fn bufs(&self, base: Addr) -> Result<Vec<TypedBuf<'a>>> {
        (0..self.counts.len())
            .map(|i| {
                // The address the data is at: MPI_BOTTOM plus absolute displacements is
                // a valid buffer (what a NULL check on the base would refuse).
                let p = base.ptr().wrapping_offset(self.displs[i]);
                typed(p, self.counts[i], self.ty(i))
            })
            .collect()
    }
}

/// The degrees (in, out) a neighbourhood collective's arrays are as long as (`arrays`: it
/// has some), from the communicator's topology `topo` at `rank`; None when not known, and
/// the arrays then not read (no topology: the call's checks report it, after the others).
/// A persistent call asks at its `_init`, where no topology is its error.
pub fn neighbor_degrees(
    topo: &Arg<Option<Arc<Topology>>>,
    rank: usize,
    arrays: bool,
    persistent: bool,
) -> Result<Option<(usize, usize)>> {
    match topo {
        Ok(Some(t)) if arrays => {
            let (sources, dests) = t.neighbors(rank);
            Ok(Some((sources.len(), dests.len())))
        }
        _ if arrays && persistent => {
            topo.clone()?;
            mpi_err!(Topology, "the communicator has no topology")
        }
        _ => Ok(None),
    }
}
