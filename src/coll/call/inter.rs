//! The collective calls on an intercommunicator (MPI-3.1 §5.2.2): argument checks as for
//! intracommunicators, except that rooted calls take MPI_ROOT / MPI_PROC_NULL / a remote
//! rank, per-peer arrays are indexed by remote rank, and MPI_IN_PLACE is never allowed.
//! Only the arguments significant at a process are checked there (an MPI_PROC_NULL
//! process checks none). Scans and neighbourhood collectives have no intercommunicator
//! form.

use super::args::{arg, blocks, inter_root, not_in_place, typed};
use super::{launch, Call, How, Many, One};
use crate::coll::inter::{self, Root};
use crate::coll::schedule::CollId;
use crate::coll::{Blocks, Plan, TypedBuf};
use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::World;
use std::ops::Deref;

/// `call` (not a barrier) on intercommunicator `c`, its plan opened.
///
/// # Safety
/// As `Call::run`.
pub(super) unsafe fn run<T: Deref<Target = Datatype>>(
    call: &Call<T>,
    w: &World,
    c: &Communicator,
    p: Plan,
    how: How,
) -> Result<Option<CollId>> {
    let s = match call {
        Call::Barrier => unreachable!("barriers run before their plan"),
        Call::Scan { .. } | Call::Neighbor { .. } => {
            return mpi_err!(Comm, "this call needs an intracommunicator");
        }
        Call::Bcast {
            buf,
            count,
            ty,
            root,
        } => {
            let root = inter_root(c, *root)?;
            let b = if root == Root::Idle {
                None
            } else {
                let n = *arg(count)?;
                let ty = arg(ty)?;
                not_in_place(*buf, n, "the buffer")?;
                Some(typed(buf.ptr(), n, ty)?)
            };
            inter::bcast(p, b, root)
        }
        Call::Reduce {
            send,
            recv,
            count,
            ty,
            op,
            root,
        } => {
            let root = inter_root(c, *root)?;
            if root == Root::Idle {
                return launch(w, inter::reduce(p, None, None, None, root), how);
            }
            let n = *arg(count)?;
            let ty = arg(ty)?;
            let r = arg(op)?;
            let (input, output) = if root == Root::Here {
                not_in_place(*recv, n, "recvbuf")?;
                (None, Some(typed(recv.ptr(), n, ty)?))
            } else {
                not_in_place(*send, n, "sendbuf")?;
                (Some(typed(send.ptr(), n, ty)?), None)
            };
            inter::reduce(p, input, output, Some(r), root)
        }
        Call::Allreduce {
            send,
            recv,
            count,
            ty,
            op,
        } => {
            let n = *arg(count)?;
            let ty = arg(ty)?;
            let r = arg(op)?;
            not_in_place(*send, n, "sendbuf")?;
            not_in_place(*recv, n, "recvbuf")?;
            let input = typed(send.ptr(), n, ty)?;
            let out = typed(recv.ptr(), n, ty)?;
            inter::allreduce(p, input, out, r)
        }
        Call::Gather { send, recv, root } => {
            let root = inter_root(c, *root)?;
            let (one, many) = rooted(c, root, send, "sendbuf", recv, "recvbuf")?;
            inter::gatherv(p, one, many, root)
        }
        Call::Scatter { send, recv, root } => {
            let root = inter_root(c, *root)?;
            let (one, many) = rooted(c, root, recv, "recvbuf", send, "sendbuf")?;
            inter::scatterv(p, many, one, root)
        }
        Call::Allgather { send, recv } => {
            let sty = arg(&send.ty)?;
            let one = one(send, sty, "sendbuf")?;
            let rty = arg(&recv.ty)?;
            let many = many(c, recv, rty, "recvbuf")?;
            inter::allgatherv(p, one, many)
        }
        Call::Alltoall {
            send,
            sends,
            recv,
            recvs,
        } => {
            let n = c.peer_size();
            let ss = sends.resolve(n)?;
            let rs = recvs.resolve(n)?;
            not_in_place(*send, ss.counts.iter().sum(), "sendbuf")?;
            not_in_place(*recv, rs.counts.iter().sum(), "recvbuf")?;
            let sbufs = ss.bufs(*send)?;
            let rbufs = rs.bufs(*recv)?;
            inter::alltoallw(p, sbufs, rbufs)
        }
        Call::ReduceScatter {
            send,
            recv,
            counts,
            ty,
            op,
        } => {
            // One count per member of the local group (which the result is scattered over).
            let (counts, _) = counts.arrays(c.size())?;
            let ty = arg(ty)?;
            let r = arg(op)?;
            let total: usize = counts.iter().sum();
            let mine = counts[c.rank];
            not_in_place(*send, total, "sendbuf")?;
            not_in_place(*recv, mine, "recvbuf")?;
            let input = typed(send.ptr(), total, ty)?;
            let output = typed(recv.ptr(), mine, ty)?;
            inter::reduce_scatter(p, input, output, &counts, r)
        }
    };
    launch(w, s, how)
}

/// The buffers of a gather or scatter at this process: the blocks, one per remote rank,
/// at the root; the single buffer in the other group; nothing at an idle process.
#[allow(clippy::type_complexity)]
fn rooted<'a, T: Deref<Target = Datatype>>(
    c: &Communicator,
    root: Root,
    one_arg: &'a One<T>,
    one_name: &str,
    many_arg: &'a Many<T>,
    many_name: &str,
) -> Result<(Option<TypedBuf<'a>>, Option<Blocks<'a>>)> {
    Ok(match root {
        Root::Idle => (None, None),
        Root::Here => {
            let ty = arg(&many_arg.ty)?;
            (None, Some(many(c, many_arg, ty, many_name)?))
        }
        Root::Remote(_) => {
            let ty = arg(&one_arg.ty)?;
            (Some(one(one_arg, ty, one_name)?), None)
        }
    })
}

/// The blocks, checked.
fn many<'a, T>(c: &Communicator, m: &Many<T>, ty: &'a Datatype, what: &str) -> Result<Blocks<'a>> {
    let (counts, displs) = m.counts.arrays(c.peer_size())?;
    not_in_place(m.buf, counts.iter().sum(), what)?;
    blocks(m.buf, ty, counts, displs)
}

/// The single buffer, checked.
fn one<'a, T>(o: &One<T>, ty: &'a Datatype, what: &str) -> Result<TypedBuf<'a>> {
    let n = *arg(&o.count)?;
    not_in_place(o.buf, n, what)?;
    typed(o.buf.ptr(), n, ty)
}
