//! The collective shims' intercommunicator forms (MPI-3.1 §5.2.2), called by the `*_impl`
//! functions of `coll.rs` once they have opened the call's plan: argument checks as for
//! intracommunicators, except that rooted calls take MPI_ROOT / MPI_PROC_NULL / a remote
//! rank, per-peer arrays are indexed by remote rank, and MPI_IN_PLACE is never allowed.
//! Only the arguments significant at a process are checked there (an MPI_PROC_NULL
//! process checks none).

use super::args;
use super::coll_args::{blocks, launch, not_in_place, typed, RecvSpec, Side};
use super::consts::*;
use super::handles::{self, TypeRef};
use super::op::reducer;
use crate::coll::inter::{self, Root};
use crate::coll::{Blocks, Plan, TypedBuf};
use crate::comm::Communicator;
use crate::error::Result;
use crate::runtime::World;
use std::os::raw::{c_int, c_void};

#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn bcast(
    w: &World,
    p: Plan,
    c: &Communicator,
    buffer: *mut c_void,
    count: impl args::Int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let root = args::inter_root(c, root)?;
    let ty;
    let b = if root == Root::Idle {
        None
    } else {
        let n = args::count_any(count)?;
        ty = handles::datatype(datatype)?;
        not_in_place(buffer, n, "the buffer")?;
        Some(typed(buffer, n, &ty)?)
    };
    launch(w, inter::bcast(p, b, root), comm, request)
}

#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn reduce(
    w: &World,
    p: Plan,
    c: &Communicator,
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: impl args::Int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let root = args::inter_root(c, root)?;
    if root == Root::Idle {
        return launch(w, inter::reduce(p, None, None, None, root), comm, request);
    }
    let n = args::count_any(count)?;
    let ty = handles::datatype(datatype)?;
    let r = reducer(op, datatype, &ty)?;
    let (input, output) = if root == Root::Here {
        not_in_place(recvbuf, n, "recvbuf")?;
        (None, Some(typed(recvbuf, n, &ty)?))
    } else {
        not_in_place(sendbuf, n, "sendbuf")?;
        (Some(typed(sendbuf, n, &ty)?), None)
    };
    launch(
        w,
        inter::reduce(p, input, output, Some(&r), root),
        comm,
        request,
    )
}

#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn allreduce(
    w: &World,
    p: Plan,
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: impl args::Int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let n = args::count_any(count)?;
    let ty = handles::datatype(datatype)?;
    let r = reducer(op, datatype, &ty)?;
    not_in_place(sendbuf, n, "sendbuf")?;
    not_in_place(recvbuf, n, "recvbuf")?;
    let input = typed(sendbuf, n, &ty)?;
    let out = typed(recvbuf, n, &ty)?;
    launch(w, inter::allreduce(p, input, out, &r), comm, request)
}

/// The buffers of a gather, scatter or allgather: the single buffer each process of the
/// sending (gather) or receiving (scatter) side has, and the blocks, one per remote rank,
/// of the other side.
pub(super) struct Rooted<I> {
    one_buf: *mut c_void,
    one_count: I,
    one_type: MPI_Datatype,
    many_buf: *mut c_void,
    many: RecvSpec<I>,
    many_type: MPI_Datatype,
}

impl<I: args::Int> Rooted<I> {
    pub(super) fn new(
        one: (*const c_void, I, MPI_Datatype),
        many: (*const c_void, RecvSpec<I>, MPI_Datatype),
    ) -> Self {
        Rooted {
            one_buf: one.0 as *mut c_void,
            one_count: one.1,
            one_type: one.2,
            many_buf: many.0 as *mut c_void,
            many: many.1,
            many_type: many.2,
        }
    }

    /// The blocks, checked.
    unsafe fn blocks<'t>(
        &self,
        c: &Communicator,
        ty: &'t TypeRef,
        what: &str,
    ) -> Result<Blocks<'t>> {
        let (counts, displs) = self.many.arrays(c.peer_size())?;
        not_in_place(self.many_buf, counts.iter().sum(), what)?;
        blocks(self.many_buf, ty, counts, displs)
    }

    /// The single buffer, checked.
    unsafe fn one<'t>(&self, ty: &'t TypeRef, what: &str) -> Result<TypedBuf<'t>> {
        let n = args::count_any(self.one_count)?;
        not_in_place(self.one_buf, n, what)?;
        typed(self.one_buf, n, ty)
    }
}

/// MPI_Gather(v) (`scatter` false: the one buffer is sent, the blocks received) and
/// MPI_Scatter(v) (`scatter` true: the blocks are sent, the one buffer received).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn rooted<I: args::Int>(
    w: &World,
    p: Plan,
    c: &Communicator,
    a: Rooted<I>,
    scatter: bool,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let root = args::inter_root(c, root)?;
    let (many_name, one_name) = if scatter {
        ("sendbuf", "recvbuf")
    } else {
        ("recvbuf", "sendbuf")
    };
    let ty;
    let (mut one, mut many) = (None, None);
    match root {
        Root::Idle => {}
        Root::Here => {
            ty = handles::datatype(a.many_type)?;
            many = Some(a.blocks(c, &ty, many_name)?);
        }
        Root::Remote(_) => {
            ty = handles::datatype(a.one_type)?;
            one = Some(a.one(&ty, one_name)?);
        }
    }
    let s = match scatter {
        true => inter::scatterv(p, many, one, root),
        false => inter::gatherv(p, one, many, root),
    };
    launch(w, s, comm, request)
}

pub(super) unsafe fn allgatherv<I: args::Int>(
    w: &World,
    p: Plan,
    c: &Communicator,
    a: Rooted<I>,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let sty = handles::datatype(a.one_type)?;
    let send = a.one(&sty, "sendbuf")?;
    let rty = handles::datatype(a.many_type)?;
    let recv = a.blocks(c, &rty, "recvbuf")?;
    launch(w, inter::allgatherv(p, send, recv), comm, request)
}

#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn alltoall<I: args::Int>(
    w: &World,
    p: Plan,
    c: &Communicator,
    sendbuf: *const c_void,
    send: Side<I>,
    recvbuf: *mut c_void,
    recv: Side<I>,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let n = c.peer_size();
    let ss = send.resolve(n)?;
    let rs = recv.resolve(n)?;
    not_in_place(sendbuf, ss.counts.iter().sum(), "sendbuf")?;
    not_in_place(recvbuf, rs.counts.iter().sum(), "recvbuf")?;
    let sends = ss.bufs(sendbuf)?;
    let recvs = rs.bufs(recvbuf)?;
    launch(w, inter::alltoallw(p, sends, recvs), comm, request)
}

#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn reduce_scatter<I: args::Int>(
    w: &World,
    p: Plan,
    c: &Communicator,
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    counts: RecvSpec<I>,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let (counts, _) = counts.arrays(c.size())?;
    let ty = handles::datatype(datatype)?;
    let r = reducer(op, datatype, &ty)?;
    let total: usize = counts.iter().sum();
    let mine = counts[c.rank];
    not_in_place(sendbuf, total, "sendbuf")?;
    not_in_place(recvbuf, mine, "recvbuf")?;
    let input = typed(sendbuf, total, &ty)?;
    let output = typed(recvbuf, mine, &ty)?;
    launch(
        w,
        inter::reduce_scatter(p, input, output, &counts, &r),
        comm,
        request,
    )
}
