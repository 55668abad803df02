//! The arguments of the collective shims (`coll`, `coll_inter`): buffers and their
//! (count, datatype) pairs, v-arrays and all-to-all sides checked and resolved, MPI_IN_PLACE,
//! and where a collective runs (to completion, or behind a new request).

use super::args;
use super::consts::*;
use super::handles::{self, TypeRef};
use super::shim::{self, write_out};
use crate::coll::schedule::Schedule;
use crate::coll::{self, Blocks, Plan, TypedBuf};
use crate::comm::Communicator;
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::World;
use std::os::raw::c_void;

/// `p` is `MPI_IN_PLACE`.
pub fn in_place(p: *const c_void) -> bool {
    p as isize == -1
}

/// A new collective call on `c` (taking its place in the communicator's sequence), cutting
/// messages at the point-to-point eager limit.
pub fn plan<'c>(w: &World, c: &'c Communicator, kind: i32) -> Plan<'c> {
    Plan::new(c, kind)
        .with_eager_limit(w.config.eager_limit)
        .with_fan_in(w.fan_in_for(c))
}

/// The end of a collective call after its `plan`: a call refused by its argument checks
/// gives its place in the communicator's collective sequence back, as MPICH's calls take
/// none before their checks pass. So a root that alone refuses an aliased `MPI_Reduce`,
/// and then posts a correct one, meets the others' first (MPICH's errors/coll/noalias),
/// and a refused root-only call leaves nothing to mismatch later (noalias2, noalias3).
/// `took`: the kind whose next number the plan took (None: a persistent collective's
/// pinned one).
pub fn refusal_gives_back(c: &Communicator, took: Option<i32>, r: Result<()>) -> Result<()> {
    if let (Err(e), Some(kind)) = (&r, took) {
        if e.class.is_argument() {
            c.give_back_coll_seq(kind);
        }
    }
    r
}

/// A collective call of kind `kind` on `comm` (`request`: its nonblocking form's): its
/// plan takes the call's place in the communicator's collective order, the request
/// argument is checked, then `body` runs; a call its checks refuse gives the place back
/// (`refusal_gives_back`).
pub unsafe fn collective(
    comm: MPI_Comm,
    kind: i32,
    request: Option<*mut MPI_Request>,
    body: impl for<'c> FnOnce(&'static World, &'c Communicator, Plan<'c>) -> Result<()>,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, kind);
    let took = p.s.took_seq().then_some(p.s.kind());
    let r = request_arg(request).and_then(|()| body(w, &c, p));
    refusal_gives_back(&c, took, r)
}

/// The request argument of a nonblocking collective, checked before anything starts.
pub fn request_arg(r: Option<*mut MPI_Request>) -> Result<()> {
    match r {
        Some(p) if p.is_null() => mpi_err!(Arg, "NULL request argument"),
        _ => Ok(()),
    }
}

/// Run a schedule to completion (blocking form) or start it behind a new request.
pub unsafe fn launch(
    w: &World,
    s: Schedule,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    match request {
        None => w.run_collective(s),
        Some(r) => {
            let id = w.start_collective(s);
            write_out(r, handles::coll_request(id, comm))
        }
    }
}

/// `MPI_IN_PLACE` where MPI does not allow it (MPICH: MPI_ERR_BUFFER).
pub fn not_in_place(p: *const c_void, count: usize, what: &str) -> Result<()> {
    if count > 0 && in_place(p) {
        return mpi_err!(Buffer, "{what} cannot be MPI_IN_PLACE here");
    }
    Ok(())
}

/// Send and receive buffers that are the same memory (MPI_IN_PLACE is the way to say so).
pub fn no_alias(send: *const c_void, recv: *const c_void, nonempty: bool) -> Result<()> {
    if nonempty && send == recv && !send.is_null() {
        return mpi_err!(
            Buffer,
            "send and receive buffers must not be aliased (use MPI_IN_PLACE)"
        );
    }
    Ok(())
}

/// Whether a call may run on `coll::direct`: blocking, small, every buffer one run of
/// bytes.
pub fn direct(request: Option<*mut MPI_Request>, bufs: &[&TypedBuf]) -> bool {
    request.is_none()
        && bufs
            .iter()
            .all(|b| b.contiguous() && b.bytes() <= coll::direct::DIRECT_MAX)
}

/// A (buffer, count, datatype) triple, checked.
pub unsafe fn typed<'a>(buf: *const c_void, count: usize, ty: &'a TypeRef) -> Result<TypedBuf<'a>> {
    args::buffer(buf, count, ty)?;
    args::bytes(count, ty)?;
    Ok(TypedBuf::new(buf as *const u8, count, ty))
}

/// A local copy of `count_s` × send type into `count_r` × receive type must fit.
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

/// `n` element counts (int or MPI_Count), each checked non-negative.
pub unsafe fn count_array<I: args::Int>(p: *const I, n: usize, what: &str) -> Result<Vec<usize>> {
    args::ints(p, n, what)?
        .into_iter()
        .map(args::count_any)
        .collect()
}

/// `n` displacements (int, MPI_Aint).
pub unsafe fn displ_array<I: args::Int>(p: *const I, n: usize, what: &str) -> Result<Vec<isize>> {
    Ok(args::ints(p, n, what)?
        .into_iter()
        .map(|d| d as isize)
        .collect())
}

pub unsafe fn type_array(p: *const MPI_Datatype, n: usize, what: &str) -> Result<Vec<TypeRef>> {
    if p.is_null() && n > 0 {
        return mpi_err!(Arg, "NULL {what} array");
    }
    (0..n).map(|i| handles::datatype(*p.add(i))).collect()
}

/// Blocks of a v-collective buffer, checked (NULL buffer with data, overflow).
pub unsafe fn blocks<'a>(
    base: *const c_void,
    ty: &'a TypeRef,
    counts: Vec<usize>,
    displs: Vec<isize>,
) -> Result<Blocks<'a>> {
    let total = counts.iter().try_fold(0usize, |a, &c| a.checked_add(c));
    let Some(total) = total else {
        return mpi_err!(Count, "counts overflow");
    };
    args::buffer(base, total, ty)?;
    args::bytes(total, ty)?;
    Ok(Blocks {
        base: base as *mut u8,
        ty,
        counts,
        displs,
    })
}

/// The receive (or send) side description of a collective: one count, or v-arrays.
/// `I`: the call's integer (int, or MPI_Count in its large-count form, whose displacements
/// are MPI_Aint: the same C type).
pub enum RecvSpec<I> {
    Uniform(I),
    V(*const I, *const I),
    /// Counts only (MPI_Reduce_scatter).
    Counts(*const I),
}

impl<I: args::Int> RecvSpec<I> {
    /// The counts and displacements of `n` blocks.
    pub unsafe fn arrays(&self, n: usize) -> Result<(Vec<usize>, Vec<isize>)> {
        match *self {
            RecvSpec::Uniform(k) => {
                let k = args::count_any(k)?;
                // (An overflowing total is refused by `blocks`.)
                let displs = (0..n).map(|i| i.wrapping_mul(k) as isize).collect();
                Ok((vec![k; n], displs))
            }
            RecvSpec::V(counts, displs) => Ok((
                count_array(counts, n, "counts")?,
                displ_array(displs, n, "displacements")?,
            )),
            RecvSpec::Counts(counts) => Ok((count_array(counts, n, "counts")?, Vec::new())),
        }
    }
}

/// One side of an all-to-all: per-peer counts, displacements (in extents of one type, or
/// in bytes with per-peer types).
/// `I` as for `RecvSpec`.
pub enum Side<I> {
    Uniform(I, MPI_Datatype),
    V(*const I, *const I, MPI_Datatype),
    W(*const I, *const I, *const MPI_Datatype),
    /// The same buffer for every peer (MPI_Neighbor_allgather(v)'s send side).
    Same(I, MPI_Datatype),
    /// Byte displacements as MPI_Aint whatever the counts (MPI_Neighbor_alltoallw).
    WA(*const I, *const MPI_Aint, *const MPI_Datatype),
}

/// The datatypes one side uses, resolved (one, or one per peer).
pub struct SideTypes {
    pub types: Vec<TypeRef>,
    pub counts: Vec<usize>,
    /// Byte displacements.
    pub displs: Vec<isize>,
}

impl<I: args::Int> Side<I> {
    pub unsafe fn resolve(&self, n: usize) -> Result<SideTypes> {
        match *self {
            Side::Uniform(k, t) => {
                let k = args::count_any(k)?;
                let ty = handles::datatype(t)?;
                let ext = ty.extent;
                Ok(SideTypes {
                    types: vec![ty],
                    counts: vec![k; n],
                    // (Wrapping: `bufs` refuses a block past the address space.)
                    displs: (0..n)
                        .map(|i| (i.wrapping_mul(k) as isize).wrapping_mul(ext))
                        .collect(),
                })
            }
            Side::V(counts, displs, t) => {
                let ty = handles::datatype(t)?;
                let ext = ty.extent;
                Ok(SideTypes {
                    types: vec![ty],
                    counts: count_array(counts, n, "counts")?,
                    displs: displ_array(displs, n, "displacements")?
                        .into_iter()
                        .map(|d| d.wrapping_mul(ext))
                        .collect(),
                })
            }
            Side::W(counts, displs, types) => Ok(SideTypes {
                types: type_array(types, n, "datatypes")?,
                counts: count_array(counts, n, "counts")?,
                displs: displ_array(displs, n, "displacements")?,
            }),
            Side::Same(k, t) => Ok(SideTypes {
                types: vec![handles::datatype(t)?],
                counts: vec![args::count_any(k)?; n],
                displs: vec![0; n],
            }),
            Side::WA(counts, displs, types) => Ok(SideTypes {
                types: type_array(types, n, "datatypes")?,
                counts: count_array(counts, n, "counts")?,
                displs: displ_array(displs, n, "displacements")?,
            }),
        }
    }
}

impl SideTypes {
    pub fn ty(&self, i: usize) -> &TypeRef {
        if self.types.len() == 1 {
            &self.types[0]
        } else {
            &self.types[i]
        }
    }

    /// The per-peer buffers at `base`, checked.
    pub unsafe fn bufs(&self, base: *const c_void) -> Result<Vec<TypedBuf<'_>>> {
        (0..self.counts.len())
            .map(|i| {
                let ty = self.ty(i);
                let p = (base as *const u8).wrapping_offset(self.displs[i]);
                // The address the data is at: MPI_BOTTOM plus absolute displacements is
                // a valid buffer (what a NULL check on the base would refuse).
                args::buffer(p as *const c_void, self.counts[i], ty)?;
                args::bytes(self.counts[i], ty)?;
                Ok(TypedBuf::new(p, self.counts[i], ty))
            })
            .collect()
    }
}
