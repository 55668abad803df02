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
//! Each MPI collective call is a value, `call::Call` (its arguments resolved from the
//! caller's handles), which checks its arguments as MPICH does and picks how to run.
//!
//! Blocking calls on small contiguous data skip the schedule and run `direct`'s
//! algorithms inline over `CollTransport` (what a schedule buys, overlap, is nothing to a
//! blocking call, and building one costs more than the message takes). The runtime's own
//! collectives (communicator creation, finalize) use them too, with fixed tags below the
//! per-call ones: collective calls on one communicator happen in the same order
//! everywhere and point-to-point messages don't overtake.

pub mod agree;
pub mod allgather;
pub mod allreduce;
pub mod alltoall;
pub mod bcast;
pub mod call;
pub mod direct;
pub mod gather;
pub mod inter;
pub mod neighbor;
pub mod plan;
pub mod reduce;
pub mod reduce_scatter;
mod reducer;
pub mod scan;
pub mod schedule;
pub mod tree;

pub use plan::{Blocks, Plan, Reducer, TypedBuf};
pub use reducer::{predefined_fn, UserFunction};

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
pub const KIND_IDUP: i32 = 13;

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

    /// Every other rank gets its block of `out` and sends this rank its block of `recv`
    /// (`recv` holds one equal block per rank, in rank order; this rank's is left alone),
    /// all at once. The runtime posts every receive before it starts a send, so nothing
    /// waits on a peer's turn whatever the sizes; this default sends first, which only
    /// works where sends complete on their own (the tests' transports).
    fn exchange(
        &self,
        comm: &Communicator,
        tag: i32,
        out: Outgoing,
        recv: &mut [u8],
    ) -> Result<()> {
        let (n, r) = (comm.size(), comm.rank);
        let b = recv.len() / n;
        for k in 1..n {
            let dst = (r + k) % n;
            self.send(comm, dst, tag, out.block(dst))?;
        }
        for k in 1..n {
            let src = (r + n - k) % n;
            self.recv(comm, src, tag, &mut recv[src * b..(src + 1) * b])?;
        }
        Ok(())
    }
}

/// What `CollTransport::exchange` sends each rank.
#[derive(Clone, Copy)]
pub enum Outgoing<'a> {
    /// The same bytes to everyone.
    Same(&'a [u8]),
    /// One equal block per rank, in rank order.
    Blocks(&'a [u8], usize),
}

impl<'a> Outgoing<'a> {
    /// The bytes for rank `dst`.
    pub fn block(self, dst: usize) -> &'a [u8] {
        match self {
            Outgoing::Same(b) => b,
            Outgoing::Blocks(all, b) => &all[dst * b..(dst + 1) * b],
        }
    }
}

/// Tags of the runtime's own collectives (below every per-call tag, which is ≥ 64).
pub const TAG_RUNTIME_BARRIER: i32 = 1;
pub const TAG_RUNTIME_ALLREDUCE: i32 = 3;
pub const TAG_RUNTIME_ALLGATHER: i32 = 4;
pub const TAG_RUNTIME_BCAST: i32 = 5;
/// The leaders of an intercommunicator's groups swapping what their groups agree on.
pub const TAG_RUNTIME_SWAP: i32 = 6;

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

#[cfg(test)]
mod tests;
