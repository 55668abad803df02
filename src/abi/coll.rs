//! Collective shims: each MPI collective's C arguments resolved once into a core call
//! (`coll::call::Call`), which the core checks and runs. The blocking, nonblocking and
//! persistent forms of a collective differ only in their `Mode`. What is C's stays here:
//! MPI_IN_PLACE and MPI_ROOT / MPI_PROC_NULL told apart, handles looked up, arrays read
//! (where significant only: elsewhere they may be anything), request handles made.

use super::args::{self, Int};
use super::consts::*;
use super::handles::{self, KeptType};
use super::op::reducer;
use super::shim::{self, write_out};
use super::{builtin_types, datatype, info, topo};
use crate::coll::call::{self, Addr, Arg, Call, Counts, How, Many, One, RootArg};
use crate::coll::Reducer;
use crate::comm::Communicator;
use crate::error::{Error, ErrorClass, Result};
use std::os::raw::{c_int, c_void};

pub use super::op::predefined_op;

/// How a collective entry point runs its call.
#[derive(Clone, Copy)]
pub enum Mode {
    /// The blocking call.
    Block,
    /// The nonblocking call: its request written here.
    Start(*mut MPI_Request),
    /// The persistent `_init` call (MPI-4.0 §6.13): its info, and its request.
    Persistent(MPI_Info, *mut MPI_Request),
}

/// A rooted or v-collective's blocks, as C gives them: one count, or v-arrays. `I`: the
/// call's integer (int, or MPI_Count in its large-count form, whose displacements are
/// MPI_Aint: the same C type).
pub enum RecvSpec<I> {
    Uniform(I),
    V(*const I, *const I),
    /// Counts only (MPI_Reduce_scatter).
    Counts(*const I),
}

/// One side of an all-to-all or neighbourhood collective, as C gives it. `I` as for
/// `RecvSpec`.
pub enum Side<I> {
    Uniform(I, MPI_Datatype),
    V(*const I, *const I, MPI_Datatype),
    W(*const I, *const I, *const MPI_Datatype),
    /// The same buffer for every peer (MPI_Neighbor_allgather(v)'s send side).
    Same(I, MPI_Datatype),
    /// Byte displacements as MPI_Aint whatever the counts (MPI_Neighbor_alltoallw).
    WA(*const I, *const MPI_Aint, *const MPI_Datatype),
}

// ------------------------------------------------------------------ the calls

pub(crate) unsafe fn barrier(comm: MPI_Comm, mode: Mode) -> Result<()> {
    run(comm, mode, |_, _| Ok(Call::Barrier))
}

pub(crate) unsafe fn bcast<I: Int>(
    buffer: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    mode: Mode,
) -> Result<()> {
    run(comm, mode, |_, l| {
        let (buf, count, ty) = (addr(buffer), args::count(count), l.ty(datatype));
        Ok(Call::Bcast {
            buf,
            count,
            ty,
            root: root_arg(root),
        })
    })
}

/// Which reduction a `reduction` call is.
#[derive(Clone, Copy)]
pub enum Reduction {
    /// MPI_Reduce to this root.
    To(c_int),
    All,
    Scan,
    Exscan,
}

/// MPI_Reduce, MPI_Allreduce, MPI_Scan and MPI_Exscan (`which`).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn reduction<I: Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    which: Reduction,
    mode: Mode,
) -> Result<()> {
    if let (Reduction::All, Mode::Block) = (which, mode) {
        if let Some(done) = quick_allreduce(sendbuf, recvbuf, count, datatype, op, comm) {
            return done;
        }
    }
    run(comm, mode, |_, l| {
        let (ty, count) = (l.ty(datatype), args::count(count));
        let (send, recv, op) = (addr(sendbuf), addr(recvbuf), bind(op, datatype, &ty));
        Ok(match which {
            Reduction::To(root) => Call::Reduce {
                send,
                recv,
                count,
                ty,
                op,
                root: root_arg(root),
            },
            Reduction::All => Call::Allreduce {
                send,
                recv,
                count,
                ty,
                op,
            },
            Reduction::Scan | Reduction::Exscan => Call::Scan {
                send,
                recv,
                count,
                ty,
                op,
                exclusive: matches!(which, Reduction::Exscan),
            },
        })
    })
}

/// A blocking MPI_Allreduce of a predefined operation on a predefined type, straight to the
/// core's small case (`call::quick_allreduce`); None for the general path, which checks
/// and reports everything.
unsafe fn quick_allreduce<I: Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> Option<Result<()>> {
    let ty = builtin_types::lookup(datatype)?;
    let f = crate::coll::predefined_fn(predefined_op(op).ok()?, ty.basic?.0)?;
    let n = usize::try_from(count.wide()).ok()?;
    let (w, c) = (shim::world().ok()?, handles::comm(comm).ok()?);
    call::quick_allreduce(w, &c, addr(sendbuf), addr(recvbuf), n, ty, f)
}

/// MPI_Reduce_local: `inoutbuf = inbuf op inoutbuf`, no communication.
pub(crate) unsafe fn reduce_local(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    n: usize,
    datatype: MPI_Datatype,
    op: MPI_Op,
) -> Result<()> {
    let ty = handles::datatype(datatype)?;
    let r = reducer(op, datatype, &ty)?;
    call::reduce_local(addr(inbuf), addr(inoutbuf), n, &ty, &r)
}

/// MPI_Gather(v).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gatherv<I: Int>(
    sendbuf: *const c_void,
    sendcount: I,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recv: RecvSpec<I>,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    mode: Mode,
) -> Result<()> {
    run(comm, mode, |c, l| {
        let root = root_arg(root);
        let send = l.one(sendbuf, sendcount, sendtype);
        let at_root = call::reads_root_side(c, root);
        let recv = l.many(recvbuf, recv.read(call::peers(c), at_root), recvtype);
        Ok(Call::Gather { send, recv, root })
    })
}

/// MPI_Scatter(v).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scatterv<I: Int>(
    sendbuf: *const c_void,
    send: RecvSpec<I>,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: I,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    mode: Mode,
) -> Result<()> {
    run(comm, mode, |c, l| {
        let root = root_arg(root);
        let at_root = call::reads_root_side(c, root);
        let send = l.many(sendbuf, send.read(call::peers(c), at_root), sendtype);
        let recv = l.one(recvbuf, recvcount, recvtype);
        Ok(Call::Scatter { send, recv, root })
    })
}

/// MPI_Allgather(v).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn allgatherv<I: Int>(
    sendbuf: *const c_void,
    sendcount: I,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recv: RecvSpec<I>,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    mode: Mode,
) -> Result<()> {
    run(comm, mode, |c, l| {
        let send = l.one(sendbuf, sendcount, sendtype);
        let recv = l.many(recvbuf, recv.read(call::peers(c), true), recvtype);
        Ok(Call::Allgather { send, recv })
    })
}

/// MPI_Alltoall(v, w).
pub(crate) unsafe fn alltoall<I: Int>(
    sendbuf: *const c_void,
    sends: Side<I>,
    recvbuf: *mut c_void,
    recvs: Side<I>,
    comm: MPI_Comm,
    mode: Mode,
) -> Result<()> {
    run(comm, mode, |c, l| {
        let (send, recv, n) = (addr(sendbuf), addr(recvbuf), call::peers(c));
        // An intracommunicator's MPI_IN_PLACE leaves the send arrays unread (an
        // intercommunicator's checks read them before refusing it; a persistent call's
        // never did).
        let read = !send.in_place || (c.is_inter() && !l.persistent);
        let sends = l.side(sends, n, read);
        let recvs = l.side(recvs, n, true);
        Ok(Call::Alltoall {
            send,
            sends,
            recv,
            recvs,
        })
    })
}

/// MPI_Reduce_scatter (`RecvSpec::Counts`) and MPI_Reduce_scatter_block (`Uniform`).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn reduce_scatter<I: Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    counts: RecvSpec<I>,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    mode: Mode,
) -> Result<()> {
    run(comm, mode, |c, l| {
        let (send, recv, ty) = (addr(sendbuf), addr(recvbuf), l.ty(datatype));
        // One count per member of the local group (which the result is scattered over).
        let counts = counts.read(c.size(), true);
        let op = bind(op, datatype, &ty);
        Ok(Call::ReduceScatter {
            send,
            recv,
            counts,
            ty,
            op,
        })
    })
}

/// The neighbourhood collectives.
pub(crate) unsafe fn neighbor<I: Int>(
    sendbuf: *const c_void,
    sends: Side<I>,
    recvbuf: *mut c_void,
    recvs: Side<I>,
    comm: MPI_Comm,
    mode: Mode,
) -> Result<()> {
    run(comm, mode, |c, l| {
        let topo = topo::topology(comm);
        // The arrays are as long as the degrees (no arrays: nothing to ask the topology).
        let arrays = matches!(sends, Side::V(..) | Side::W(..) | Side::WA(..))
            || matches!(recvs, Side::V(..) | Side::W(..) | Side::WA(..));
        let degrees = call::neighbor_degrees(&topo, c.rank, arrays, l.persistent)?;
        let known = degrees.is_some() || !arrays;
        let (indegree, outdegree) = degrees.unwrap_or((0, 0));
        let sends = l.side(sends, outdegree, known);
        let recvs = l.side(recvs, indegree, known);
        let (send, recv) = (addr(sendbuf), addr(recvbuf));
        Ok(Call::Neighbor {
            send,
            sends,
            recv,
            recvs,
            topo,
        })
    })
}

// ------------------------------------------------------------------ running

/// Resolve a call on `comm` (`build`) and run it as `mode` says.
unsafe fn run(
    comm: MPI_Comm,
    mode: Mode,
    build: impl FnOnce(&Communicator, &mut Look) -> Result<Call<KeptType>>,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let mut look = Look {
        persistent: matches!(mode, Mode::Persistent(..)),
        held: Held(Vec::new()),
    };
    match mode {
        Mode::Block => build(&c, &mut look)?.run(w, &c, How::Block).map(drop),
        Mode::Start(r) => {
            let id = build(&c, &mut look)?.run(w, &c, How::Start)?;
            write_out(
                r,
                handles::coll_request(id.expect("a started call has a schedule"), comm),
            )
        }
        Mode::Persistent(info, request) => {
            info::check(info)?;
            let call = build(&c, &mut look)?;
            let owner = handles::comm_owner(comm);
            let e = call.persistent(&c, owner, look.held, move |call| {
                let mut id = None;
                let rc = shim::run("MPI_Start", comm, || {
                    let (w, c) = (shim::world()?, handles::comm(comm)?);
                    // SAFETY: MPI keeps a persistent request's buffers valid until it is
                    // freed.
                    id = unsafe { call.run(w, &c, How::Start)? };
                    Ok(())
                });
                match rc {
                    MPI_SUCCESS => Ok(id.expect("a started call has a schedule")),
                    rc => Err(rc),
                }
            });
            write_out(request, handles::new_request(e))
        }
    }
}

// ------------------------------------------------------------------ resolving arguments

fn addr(p: *const c_void) -> Addr {
    Addr {
        at: p as usize,
        in_place: p as isize == -1,
    }
}

fn root_arg(r: c_int) -> RootArg {
    match r {
        MPI_ROOT => RootArg::Here,
        MPI_PROC_NULL => RootArg::Idle,
        r => RootArg::Rank(r),
    }
}

/// `op` bound to the datatype (`reducer`), where the type resolved.
fn bind(op: MPI_Op, h: MPI_Datatype, ty: &Arg<KeptType>) -> Arg<Reducer> {
    ty.as_ref()
        .map_err(Clone::clone)
        .and_then(|t| reducer(op, h, t))
}

/// An array argument this process does not read (the core reads none where it is not
/// significant).
fn unread<T>() -> Arg<T> {
    Err(Error::new(
        ErrorClass::Intern,
        "argument not significant here",
    ))
}

/// `n` element counts (int or MPI_Count), each checked non-negative.
unsafe fn counts<I: Int>(p: *const I, n: usize) -> Arg<Vec<usize>> {
    args::ints(p, n, "counts")?
        .into_iter()
        .map(args::count)
        .collect()
}

/// `n` displacements (int, MPI_Aint).
unsafe fn displs<I: Int>(p: *const I, n: usize) -> Arg<Vec<isize>> {
    Ok(args::ints(p, n, "displacements")?
        .into_iter()
        .map(|d| d as isize)
        .collect())
}

impl<I: Int> RecvSpec<I> {
    /// The core's description of `n` blocks (the arrays read where `significant`).
    unsafe fn read(&self, n: usize, significant: bool) -> Counts {
        match *self {
            RecvSpec::Uniform(k) => Counts::Uniform(args::count(k)),
            RecvSpec::V(..) | RecvSpec::Counts(_) if !significant => Counts::V(unread(), unread()),
            RecvSpec::V(c, d) => Counts::V(counts(c, n), displs(d, n)),
            RecvSpec::Counts(c) => Counts::Only(counts(c, n)),
        }
    }
}

/// The handle look-ups of one call: a persistent call holds the derived types it names
/// (`Held`).
struct Look {
    persistent: bool,
    held: Held,
}

impl Look {
    fn ty(&mut self, h: MPI_Datatype) -> Arg<KeptType> {
        if self.persistent && datatype::hold(h) {
            self.held.0.push(h);
        }
        handles::datatype(h).map(|t| t.to_kept())
    }

    /// `n` datatypes (MPI_Alltoallw's).
    unsafe fn types(&mut self, p: *const MPI_Datatype, n: usize) -> Arg<Vec<KeptType>> {
        let hs = args::slice(p, n, "datatypes array")?;
        hs.iter()
            .map(|&h| self.ty(h))
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    }

    fn one<I: Int>(&mut self, buf: *const c_void, count: I, ty: MPI_Datatype) -> One<KeptType> {
        let (buf, count) = (addr(buf), args::count(count));
        One {
            buf,
            count,
            ty: self.ty(ty),
        }
    }

    fn many(&mut self, buf: *const c_void, counts: Counts, ty: MPI_Datatype) -> Many<KeptType> {
        Many {
            buf: addr(buf),
            counts,
            ty: self.ty(ty),
        }
    }

    /// One side for `n` peers (its arrays read where `significant`).
    unsafe fn side<I: Int>(
        &mut self,
        s: Side<I>,
        n: usize,
        significant: bool,
    ) -> call::Side<KeptType> {
        use call::Side as S;
        match s {
            Side::Uniform(k, t) => S::Uniform(args::count(k), self.ty(t)),
            Side::Same(k, t) => S::Same(args::count(k), self.ty(t)),
            Side::V(_, _, t) if !significant => S::V(unread(), unread(), self.ty(t)),
            Side::V(c, d, t) => S::V(counts(c, n), displs(d, n), self.ty(t)),
            Side::W(..) | Side::WA(..) if !significant => S::W(unread(), unread(), unread()),
            Side::W(c, d, t) => S::W(counts(c, n), displs(d, n), self.types(t, n)),
            Side::WA(c, d, t) => S::W(counts(c, n), displs(d, n), self.types(t, n)),
        }
    }
}

/// The derived datatypes a persistent collective names, held (`datatype::hold`) for the
/// request's life: MPI lets the application free them right after the `_init`, and the
/// handles must stay valid for what reads them (a user operation's function gets its
/// type's handle).
struct Held(Vec<MPI_Datatype>);

impl Drop for Held {
    fn drop(&mut self) {
        for &t in &self.0 {
            datatype::release_held(t);
        }
    }
}
