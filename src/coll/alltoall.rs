//! All-to-all (also the v and w forms): for short messages (and few ranks) every transfer
//! is posted in one step; for long ones, pairwise exchange (n − 1 steps; in step k rank r sends to r + k
//! and receives from r − k), which keeps one message per direction in flight.

use super::plan::{copy_typed, Plan, TypedBuf};
use super::schedule::{Buf, Schedule};

/// Up to this many bytes per block (on average), or on up to 8 ranks, all transfers are
/// posted at once (measured faster at every size on 4 ranks).
pub const SHORT_BLOCK_BYTES: usize = 64 * 1024;

/// MPI_Alltoall(v,w) / MPI_Ialltoall(v,w): block i of `send` goes to rank i, block i of
/// `recv` comes from rank i. `send` None: MPI_IN_PLACE (the blocks of `recv` are sent).
pub fn alltoallw(mut p: Plan, send: Option<Vec<TypedBuf>>, recv: Vec<TypedBuf>) -> Schedule {
    let (n, rank) = (p.n, p.rank);
    let none = Buf::User {
        ptr: std::ptr::null_mut(),
        len: 0,
    };
    let sbufs: Vec<Buf> = match &send {
        Some(s) => {
            // SAFETY: MPI: send block readable, receive block writable, no overlap.
            unsafe { copy_typed(s[rank], recv[rank]) };
            (0..n)
                .map(|i| if i == rank { none } else { p.input(s[i]) })
                .collect()
        }
        // In place: send private copies of the blocks, taken before anything arrives.
        None => (0..n)
            .map(|i| if i == rank { none } else { p.copy_of(recv[i]) })
            .collect(),
    };
    let rbufs: Vec<Buf> = (0..n)
        .map(|i| if i == rank { none } else { p.output(recv[i]) })
        .collect();
    if n == 1 {
        return p.build();
    }
    let total: usize = recv.iter().map(|b| b.bytes()).sum();
    let all_at_once = n <= 8 || total <= SHORT_BLOCK_BYTES * n;
    for k in 1..n {
        let dst = (rank + k) % n;
        let src = (rank + n - k) % n;
        p.send(dst, sbufs[dst]);
        p.recv(src, rbufs[src]);
        if !all_at_once {
            p.step();
        }
    }
    p.step();
    p.build()
}
