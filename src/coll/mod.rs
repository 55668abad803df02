//! coll: collective algorithms on top of point-to-point, on the communicator's collective
//! context (so they never match application messages).
//!
//! Every MPI collective is written once as a `schedule::Schedule` (built with
//! `plan::Plan`), which the blocking call runs to completion and the nonblocking one
//! leaves to the progress engine. One file per family; each picks its algorithm by message
//! size and rank count. Each call's tag carries the communicator's collective sequence
//! number (`schedule::Schedule::new`), so calls in flight together on one communicator
//! never take each other's messages.
//!
//! The blocking `CollTransport` helpers at the end serve the runtime (communicator
//! creation, finalize); they use fixed tags below the per-call ones: collective calls on
//! one communicator happen in the same order everywhere and point-to-point messages
//! don't overtake.

pub mod allgather;
pub mod allreduce;
pub mod alltoall;
pub mod bcast;
pub mod gather;
pub mod neighbor;
pub mod ops;
pub mod plan;
pub mod reduce;
pub mod reduce_scatter;
pub mod scan;
pub mod schedule;

pub use plan::{Blocks, Plan, Reducer, TypedBuf};

/// Kinds of collective calls (the low bits of their schedules' tags; see
/// `schedule::Schedule::new`).
pub const KIND_BARRIER: i32 = 1;
pub const KIND_BCAST: i32 = 2;
pub const KIND_REDUCE: i32 = 3;
pub const KIND_ALLREDUCE: i32 = 5;
pub const KIND_GATHER: i32 = 6;
pub const KIND_SCATTER: i32 = 7;
pub const KIND_ALLGATHER: i32 = 8;
pub const KIND_ALLTOALL: i32 = 9;
pub const KIND_REDUCE_SCATTER: i32 = 10;
pub const KIND_SCAN: i32 = 11;
pub const KIND_NEIGHBOR: i32 = 12;

use crate::comm::Communicator;
use crate::error::Result;

/// What collectives need from point-to-point (implemented by the runtime).
pub trait CollTransport {
    fn send(&self, comm: &Communicator, dst: usize, tag: i32, data: &[u8]) -> Result<()>;
    /// Receive exactly `buf.len()` bytes (a shorter or longer message is an error).
    fn recv(&self, comm: &Communicator, src: usize, tag: i32, buf: &mut [u8]) -> Result<()>;
    /// Send and receive at once (no deadlock whatever the sizes).
    #[allow(clippy::too_many_arguments)]
    fn sendrecv(
        &self,
        comm: &Communicator,
        dst: usize,
        data: &[u8],
        src: usize,
        buf: &mut [u8],
        tag: i32,
    ) -> Result<()>;
}

/// `inout = input ∘ inout`, elementwise (an MPI reduction op bound to its datatype).
pub type Combine<'a> = &'a dyn Fn(&[u8], &mut [u8]) -> Result<()>;

const TAG_BARRIER: i32 = 1;
const TAG_BCAST: i32 = 2;
const TAG_REDUCE: i32 = 3;
const TAG_ALLGATHER: i32 = 4;

/// Dissemination barrier as a schedule (blocking and nonblocking MPI_Barrier): ⌈log2 n⌉
/// rounds; in round k every rank signals rank + 2^k and waits for rank − 2^k.
pub fn barrier_schedule(comm: &Communicator) -> schedule::Schedule {
    barrier_plan(plan::Plan::new(comm, KIND_BARRIER))
}

/// The dissemination barrier on an opened plan.
pub fn barrier_plan(mut p: plan::Plan) -> schedule::Schedule {
    let (n, r) = (p.n, p.rank);
    let none = schedule::Buf::User {
        ptr: std::ptr::null_mut(),
        len: 0,
    };
    let mut k = 1;
    while k < n {
        p.send((r + k) % n, none);
        p.recv((r + n - k) % n, none);
        p.step();
        k *= 2;
    }
    p.build()
}

/// Dissemination barrier: ⌈log2 n⌉ rounds of zero-byte exchanges.
pub fn barrier(t: &dyn CollTransport, comm: &Communicator) -> Result<()> {
    let (n, r) = (comm.size(), comm.rank);
    let mut k = 1;
    while k < n {
        t.sendrecv(
            comm,
            (r + k) % n,
            &[],
            (r + n - k) % n,
            &mut [],
            TAG_BARRIER,
        )?;
        k *= 2;
    }
    Ok(())
}

/// Binomial-tree broadcast from `root`.
pub fn bcast(
    t: &dyn CollTransport,
    comm: &Communicator,
    buf: &mut [u8],
    root: usize,
) -> Result<()> {
    let n = comm.size();
    let vr = (comm.rank + n - root) % n;
    let mut mask = 1;
    while mask < n {
        if vr & mask != 0 {
            let parent = (vr - mask + root) % n;
            t.recv(comm, parent, TAG_BCAST, buf)?;
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    while mask > 0 {
        if vr + mask < n {
            t.send(comm, (vr + mask + root) % n, TAG_BCAST, buf)?;
        }
        mask >>= 1;
    }
    Ok(())
}

/// Binomial-tree reduction to `root`. `acc` holds this rank's contribution on entry and,
/// at the root, the result on return. With `root == 0` the combination order is rank
/// order, so non-commutative operations are reduced correctly.
pub fn reduce(
    t: &dyn CollTransport,
    comm: &Communicator,
    acc: &mut Vec<u8>,
    root: usize,
    combine: Combine,
) -> Result<()> {
    let n = comm.size();
    let vr = (comm.rank + n - root) % n;
    let mut tmp = vec![0u8; acc.len()];
    let mut mask = 1;
    while mask < n {
        if vr & mask != 0 {
            t.send(comm, (vr - mask + root) % n, TAG_REDUCE, acc)?;
            break;
        }
        if vr + mask < n {
            t.recv(comm, (vr + mask + root) % n, TAG_REDUCE, &mut tmp)?;
            // acc holds lower ranks, tmp higher ones: result = acc ∘ tmp.
            combine(acc, &mut tmp)?;
            std::mem::swap(acc, &mut tmp);
        }
        mask <<= 1;
    }
    Ok(())
}

/// Reduce to rank 0, then broadcast.
pub fn allreduce(
    t: &dyn CollTransport,
    comm: &Communicator,
    acc: &mut Vec<u8>,
    combine: Combine,
) -> Result<()> {
    reduce(t, comm, acc, 0, combine)?;
    bcast(t, comm, acc, 0)
}

/// Ring allgather of equal blocks: `all` has `size` blocks; this rank's block is filled.
pub fn allgather(t: &dyn CollTransport, comm: &Communicator, all: &mut [u8]) -> Result<()> {
    let (n, r) = (comm.size(), comm.rank);
    if n == 1 {
        return Ok(());
    }
    let b = all.len() / n;
    let (right, left) = ((r + 1) % n, (r + n - 1) % n);
    for s in 0..n - 1 {
        let send_blk = (r + n - s) % n;
        let recv_blk = (r + n - s - 1) % n;
        let out = all[send_blk * b..(send_blk + 1) * b].to_vec();
        t.sendrecv(
            comm,
            right,
            &out,
            left,
            &mut all[recv_blk * b..(recv_blk + 1) * b],
            TAG_ALLGATHER,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
