//! Blocking collectives run inline by the calling thread over `CollTransport`: no
//! schedule, no step list, no boxed work, and no allocation for small data. The MPI shims
//! take this path for blocking calls on small contiguous buffers (`DIRECT_MAX`), where
//! building a schedule would cost more than moving the bytes; the runtime uses it for its
//! own collectives. Nonblocking calls, and large or non-contiguous data, go through
//! `schedule`.
//!
//! Each algorithm sends exactly the messages its schedule counterpart sends for the same
//! size (dissemination barrier, flat or binomial broadcast, binomial reduction,
//! recursive-doubling allreduce): the path is picked per rank, and a rank whose datatype
//! is non-contiguous takes the schedule while its peers come here.

use super::plan::{pof2_floor, CombineFn};
use super::tree::Binomial;
use super::{CollTransport, Outgoing};
use crate::comm::Communicator;
use crate::error::Result;

/// Up to this many ranks the fan-in barrier is flat (rank 0 hears from and releases
/// every rank itself).
const FLAT_BARRIER_MAX: usize = 8;

/// Up to this many ranks an oversubscribed commutative allreduce fans in to rank 0
/// (`allreduce_fan_in`; measured at 8 and 16 ranks on 2 cores: beyond, rank 0's serial
/// share grows while the others' waits do not shrink).
pub const FAN_IN_ALLREDUCE_MAX: usize = 32;

/// Up to this many ranks, and `EXCHANGE_BYTES` per contribution, allreduce is a full
/// exchange (`AllreduceAlgorithm::Exchange`).
pub const EXCHANGE_MAX_RANKS: usize = 4;
pub const EXCHANGE_BYTES: usize = 1024;

/// How an allreduce combines; `allreduce_algorithm` picks it alike on every rank, and
/// `allreduce::allreduce` builds the schedule that sends the same messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllreduceAlgorithm {
    /// Every rank sends its vector to every other and combines all n (one round: on 4
    /// ranks sharing 2 cores 3.0 us against fan-in's 3.7 and Open MPI 5's 3.5).
    Exchange,
    /// Flat fan-in to rank 0 and fan-out (`allreduce_fan_in`).
    FanIn,
    /// Recursive doubling (with the fold onto a power of two).
    RecursiveDoubling,
}

/// The allreduce of `len` bytes on `n` ranks that are `fan_in` (outnumber cores), for an
/// operation that is or is not commutative. `piece`: the size the schedule cuts messages
/// into (0: none), which the exchange must not reach, so both paths send one message.
pub fn allreduce_algorithm(
    n: usize,
    len: usize,
    commutative: bool,
    fan_in: bool,
    piece: usize,
) -> AllreduceAlgorithm {
    // (Two ranks: recursive doubling is the same one message each way, by a sendrecv
    // that costs less than the exchange's general bookkeeping.)
    if (3..=EXCHANGE_MAX_RANKS).contains(&n)
        && len <= EXCHANGE_BYTES
        && (piece == 0 || len <= piece)
    {
        AllreduceAlgorithm::Exchange
    } else if fan_in && commutative && n <= FAN_IN_ALLREDUCE_MAX && len <= DIRECT_MAX {
        AllreduceAlgorithm::FanIn
    } else {
        AllreduceAlgorithm::RecursiveDoubling
    }
}

/// Largest packed size (bytes) a blocking call runs on this path.
pub const DIRECT_MAX: usize = 2048;

/// Contributions up to this size get their scratch space on the stack.
const STACK_SCRATCH: usize = 256;

/// Scratch space for one contribution: on the stack when small, so the common case
/// allocates nothing (and zeroes little: the whole array is cleared each call).
#[allow(clippy::large_enum_variant)] // on the stack for one call: that is the point
enum Scratch {
    Stack([u8; STACK_SCRATCH], usize),
    Heap(Vec<u8>),
}

impl Scratch {
    fn new(len: usize) -> Self {
        if len <= STACK_SCRATCH {
            Scratch::Stack([0; STACK_SCRATCH], len)
        } else {
            Scratch::Heap(vec![0; len])
        }
    }

    fn get(&mut self) -> &mut [u8] {
        match self {
            Scratch::Stack(a, len) => &mut a[..*len],
            Scratch::Heap(v) => v,
        }
    }
}

/// MPI_Barrier. `fan_in` picks a binomial fan-in to rank 0 and fan-out back, 2(n − 1)
/// messages over 2⌈log2 n⌉ rounds, over the dissemination barrier's n⌈log2 n⌉ messages
/// in ⌈log2 n⌉ rounds: the fan-in barrier is slower on idle cores but wakes each rank
/// only twice, which wins when ranks share cores. It also lets rank 0 out first, so a
/// broadcast from rank 0 that follows finds its receivers already waiting.
pub fn barrier(t: &dyn CollTransport, comm: &Communicator, tag: i32, fan_in: bool) -> Result<()> {
    let (n, r) = (comm.size(), comm.rank);
    if !fan_in {
        let mut k = 1;
        while k < n {
            t.sendrecv(comm, (r + k) % n, &[], (r + n - k) % n, &mut [], tag)?;
            k *= 2;
        }
        return Ok(());
    }
    if n <= FLAT_BARRIER_MAX {
        if r == 0 {
            for k in 1..n {
                t.recv(comm, k, tag, &mut [])?;
            }
            for k in 1..n {
                t.send(comm, k, tag, &[])?;
            }
        } else {
            t.send(comm, 0, tag, &[])?;
            t.recv(comm, 0, tag, &mut [])?;
        }
        return Ok(());
    }
    let tree = Binomial::new(r, n, 0);
    for child in tree.children() {
        t.recv(comm, child, tag, &mut [])?;
    }
    if let Some(parent) = tree.parent() {
        t.send(comm, parent, tag, &[])?;
        t.recv(comm, parent, tag, &mut [])?;
    }
    for child in tree.children().rev() {
        t.send(comm, child, tag, &[])?;
    }
    Ok(())
}

/// Broadcast from `root` with the tree `bcast::bcast` picks for this size (flat on few
/// ranks, else binomial), so ranks that reach the call through a schedule (a
/// non-contiguous datatype on one side) still exchange the same messages.
pub fn bcast(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    buf: &mut [u8],
    root: usize,
) -> Result<()> {
    let n = comm.size();
    if n == 1 || buf.is_empty() {
        return Ok(());
    }
    if super::bcast::flat_tree(n, buf.len()) {
        if comm.rank == root {
            for k in 1..n {
                t.send(comm, (root + k) % n, tag, buf)?;
            }
            return Ok(());
        }
        return t.recv(comm, root, tag, buf);
    }
    let tree = Binomial::new(comm.rank, n, root);
    if let Some(parent) = tree.parent() {
        t.recv(comm, parent, tag, buf)?;
    }
    for child in tree.children().rev() {
        t.send(comm, child, tag, buf)?;
    }
    Ok(())
}

/// Binomial-tree reduction to `root`, the same tree `reduce::binomial` uses. `input` is
/// this rank's contribution (None at a root that passed MPI_IN_PLACE: then `output`
/// holds it); `output` is the root's result buffer (None elsewhere). Children hold higher virtual
/// ranks, so the result comes out in rank order when `root == 0` or the operation is
/// commutative; callers take this path only then.
pub fn reduce(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    input: Option<&[u8]>,
    output: Option<&mut [u8]>,
    root: usize,
    combine: &CombineFn,
) -> Result<()> {
    let tree = Binomial::new(comm.rank, comm.size(), root);
    let mine: &[u8] = match (input, output.as_deref()) {
        (Some(i), _) => i,
        (None, Some(o)) => o,
        (None, None) => &[],
    };
    let len = mine.len();
    if len == 0 {
        // Like the schedule: nothing to combine, no messages.
        return Ok(());
    }
    let (mut acc_space, mut tmp_space) = (Scratch::new(len), Scratch::new(len));
    let (acc, tmp) = (acc_space.get(), tmp_space.get());
    acc.copy_from_slice(mine);
    for child in tree.children() {
        t.recv(comm, child, tag, tmp)?;
        // acc holds the lower ranks, tmp the higher ones: acc = acc ∘ tmp.
        combine(acc, tmp)?;
        acc.copy_from_slice(tmp);
    }
    if let Some(parent) = tree.parent() {
        return t.send(comm, parent, tag, acc);
    }
    if let Some(out) = output {
        out.copy_from_slice(acc);
    }
    Ok(())
}

/// Allreduce in place on `acc` by `algo` (`allreduce_algorithm`), in rank order (so
/// non-commutative operations are right). Recursive doubling on a non-power-of-two
/// communicator first folds: the even ranks below 2·(n − 2^⌊log2 n⌉) hand their data to
/// the next odd rank, which gives the result back at the end.
pub fn allreduce(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    acc: &mut [u8],
    combine: &CombineFn,
    commutative: bool,
    algo: AllreduceAlgorithm,
) -> Result<()> {
    let (n, rank) = (comm.size(), comm.rank);
    if n == 1 || acc.is_empty() {
        return Ok(());
    }
    match algo {
        AllreduceAlgorithm::Exchange => return allreduce_exchange(t, comm, tag, acc, combine),
        AllreduceAlgorithm::FanIn => return allreduce_fan_in(t, comm, tag, acc, combine),
        AllreduceAlgorithm::RecursiveDoubling => {}
    }
    let pof2 = pof2_floor(n);
    let rem = n - pof2;
    let mut scratch = Scratch::new(acc.len());
    let tmp = scratch.get();
    let unfolded = |newrank: usize| {
        if newrank < rem {
            newrank * 2 + 1
        } else {
            newrank + rem
        }
    };
    let newrank = if rank < 2 * rem {
        if rank % 2 == 0 {
            t.send(comm, rank + 1, tag, acc)?;
            None
        } else {
            t.recv(comm, rank - 1, tag, tmp)?;
            combine(tmp, acc)?;
            Some(rank / 2)
        }
    } else {
        Some(rank - rem)
    };
    if let Some(newrank) = newrank {
        let mut mask = 1;
        while mask < pof2 {
            let peer = unfolded(newrank ^ mask);
            t.sendrecv(comm, peer, acc, peer, tmp, tag)?;
            if commutative || peer < rank {
                combine(tmp, acc)?;
            } else {
                combine(acc, tmp)?;
                acc.copy_from_slice(tmp);
            }
            mask <<= 1;
        }
    }
    if rank < 2 * rem {
        if rank % 2 == 1 {
            t.send(comm, rank - 1, tag, acc)?;
        } else {
            t.recv(comm, rank + 1, tag, acc)?;
        }
    }
    Ok(())
}

/// Full exchange (`allreduce::exchange` sends the same messages): every rank sends its
/// vector to every other and combines all n in rank order — the same association on
/// every rank, so all get the same bits, whatever the operation.
fn allreduce_exchange(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    acc: &mut [u8],
    combine: &CombineFn,
) -> Result<()> {
    let (n, r, len) = (comm.size(), comm.rank, acc.len());
    let mut scratch = Scratch::new(len * n);
    let all = scratch.get();
    t.exchange(comm, tag, Outgoing::Same(acc), all)?;
    all[r * len..(r + 1) * len].copy_from_slice(acc);
    // acc = v0 ∘ (v1 ∘ (… ∘ v(n−1))).
    acc.copy_from_slice(&all[(n - 1) * len..]);
    for k in (0..n - 1).rev() {
        combine(&all[k * len..(k + 1) * len], acc)?;
    }
    Ok(())
}

/// Flat fan-in to rank 0 and fan-out of the result (`allreduce::fan_in` sends the same
/// messages): every rank but 0 sends once and waits once, so each needs the core once per
/// call, where recursive doubling needs every rank in each of its ⌈log2 n⌉ rounds. Slower
/// on idle cores (rank 0 handles 2(n − 1) messages in turn), faster when ranks share
/// them: on 2 cores under our mpiexec 1.7× the allreduces per second at 8 ranks and 2× at
/// 16 (context switches per call 16 → 10 and 44 → 20); under Hydra, where waiters sleep,
/// about even. A binomial reduce + broadcast did worse than recursive doubling there
/// (inner ranks wake twice).
fn allreduce_fan_in(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    acc: &mut [u8],
    combine: &CombineFn,
) -> Result<()> {
    if comm.rank != 0 {
        t.send(comm, 0, tag, acc)?;
        return t.recv(comm, 0, tag, acc);
    }
    let mut scratch = Scratch::new(acc.len());
    let tmp = scratch.get();
    for k in 1..comm.size() {
        t.recv(comm, k, tag, tmp)?;
        combine(tmp, acc)?;
    }
    for k in 1..comm.size() {
        t.send(comm, k, tag, acc)?;
    }
    Ok(())
}

/// All-to-all of equal blocks, all at once (`CollTransport::exchange`): the messages of
/// `alltoall::alltoallw`'s one-step form, as long as the blocks are within the eager
/// limit, which the caller checks (the schedule cuts longer ones into pieces).
pub fn alltoall(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    send: &[u8],
    recv: &mut [u8],
) -> Result<()> {
    let (n, r) = (comm.size(), comm.rank);
    let b = recv.len() / n;
    recv[r * b..(r + 1) * b].copy_from_slice(&send[r * b..(r + 1) * b]);
    t.exchange(comm, tag, Outgoing::Blocks(send, b), recv)
}

/// Allgather of equal blocks: `all` has `size` blocks; this rank's block is filled. Short
/// ones (below `allgather::SHORT_BYTES` in all) go at once, as `allgather::allgatherv`'s
/// short form (the caller keeps blocks within the eager limit); longer ones by a ring.
pub fn allgather(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    all: &mut [u8],
) -> Result<()> {
    let (n, r) = (comm.size(), comm.rank);
    if n == 1 {
        return Ok(());
    }
    let b = all.len() / n;
    if all.len() < super::allgather::SHORT_BYTES {
        let mut scratch = Scratch::new(b);
        let own = scratch.get();
        own.copy_from_slice(&all[r * b..(r + 1) * b]);
        return t.exchange(comm, tag, Outgoing::Same(own), all);
    }
    let (right, left) = ((r + 1) % n, (r + n - 1) % n);
    let mut out = vec![0u8; b];
    for s in 0..n - 1 {
        let send_blk = (r + n - s) % n;
        let recv_blk = (r + n - s - 1) % n;
        out.copy_from_slice(&all[send_blk * b..(send_blk + 1) * b]);
        t.sendrecv(
            comm,
            right,
            &out,
            left,
            &mut all[recv_blk * b..(recv_blk + 1) * b],
            tag,
        )?;
    }
    Ok(())
}
