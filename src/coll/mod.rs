//! coll: collective algorithms on top of point-to-point, on the communicator's collective
//! context (so they never match application messages).
//!
//! Collective calls on one communicator happen in the same order everywhere and
//! point-to-point messages don't overtake, so each algorithm can use one fixed tag.

pub mod ops;
pub mod schedule;

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

/// Dissemination barrier as a schedule (blocking and nonblocking MPI_Barrier).
pub fn barrier_schedule(comm: &Communicator) -> schedule::Schedule {
    use schedule::Buf;
    let mut s = schedule::Schedule::new(comm, TAG_BARRIER);
    let (n, r) = (comm.size(), comm.rank);
    let none = Buf::User {
        ptr: std::ptr::null_mut(),
        len: 0,
    };
    let mut k = 1;
    while k < n {
        s.send(comm, (r + k) % n, none);
        s.recv((r + n - k) % n, none);
        s.barrier();
        k *= 2;
    }
    s
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
