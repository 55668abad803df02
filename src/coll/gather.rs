//! Gather and scatter (and their v-forms): linear. The root posts every transfer in one
//! step; blocks move straight between the ranks' buffers when they are contiguous.

use super::plan::{copy_typed, Blocks, Plan, TypedBuf};
use super::schedule::Schedule;

/// MPI_Gather(v) / MPI_Igather(v). `send` is None at a root that passed MPI_IN_PLACE;
/// `recv` (the root's receive blocks) is None elsewhere.
pub fn gatherv(mut p: Plan, send: Option<TypedBuf>, recv: Option<Blocks>, root: usize) -> Schedule {
    if p.rank == root {
        let recv = recv.expect("the root's receive blocks");
        for i in 0..p.n {
            if i == root {
                if let Some(s) = send {
                    // SAFETY: MPI: the send buffer is readable and the root's block
                    // writable, and they do not overlap (not MPI_IN_PLACE).
                    unsafe { copy_typed(s, recv.block(i)) };
                }
            } else {
                let b = p.output(recv.block(i));
                p.recv(i, b);
            }
        }
    } else if let Some(s) = send {
        let b = p.input(s);
        p.send(root, b);
    }
    p.step();
    p.build()
}

/// MPI_Scatter(v) / MPI_Iscatter(v). `send` (the root's send blocks) is None elsewhere;
/// `recv` is None at a root that passed MPI_IN_PLACE.
pub fn scatterv(
    mut p: Plan,
    send: Option<Blocks>,
    recv: Option<TypedBuf>,
    root: usize,
) -> Schedule {
    if p.rank == root {
        let send = send.expect("the root's send blocks");
        for i in 0..p.n {
            if i == root {
                if let Some(r) = recv {
                    // SAFETY: as in gatherv.
                    unsafe { copy_typed(send.block(i), r) };
                }
            } else {
                let b = p.input(send.block(i));
                p.send(i, b);
            }
        }
    } else if let Some(r) = recv {
        let b = p.output(r);
        p.recv(root, b);
    }
    p.step();
    p.build()
}
