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
use super::CollTransport;
use crate::comm::Communicator;
use crate::error::Result;

/// Up to this many ranks the fan-in barrier is flat (rank 0 hears from and releases
/// every rank itself).
const FLAT_BARRIER_MAX: usize = 8;

/// Up to this many ranks an oversubscribed commutative allreduce fans in to rank 0
/// (`allreduce_fan_in`; measured at 8 and 16 ranks on 2 cores: beyond, rank 0's serial
/// share grows while the others' waits do not shrink).
pub const FAN_IN_ALLREDUCE_MAX: usize = 32;

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

/// Recursive-doubling allreduce in place on `acc`, in rank order (so non-commutative
/// operations are right). A non-power-of-two communicator first folds: the even ranks
/// below 2·(n − 2^⌊log2 n⌉) hand their data to the next odd rank, which gives the result
/// back at the end. With `fan_in` (ranks outnumber cores) a commutative operation on up
/// to `FAN_IN_ALLREDUCE_MAX` ranks takes `allreduce_fan_in` instead.
pub fn allreduce(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    acc: &mut [u8],
    combine: &CombineFn,
    commutative: bool,
    fan_in: bool,
) -> Result<()> {
    let (n, rank) = (comm.size(), comm.rank);
    if n == 1 || acc.is_empty() {
        return Ok(());
    }
    if fan_in && commutative && n <= FAN_IN_ALLREDUCE_MAX {
        return allreduce_fan_in(t, comm, tag, acc, combine);
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

/// All-to-all of equal blocks small enough to go eagerly (the caller checks against the
/// eager limit: a send must complete without its receiver, or two ranks sending to each
/// other would wait forever): every block is sent, then every block received — the
/// messages of `alltoall::alltoallw`'s one-step form.
pub fn alltoall(
    t: &dyn CollTransport,
    comm: &Communicator,
    tag: i32,
    send: &[u8],
    recv: &mut [u8],
) -> Result<()> {
    let (n, r) = (comm.size(), comm.rank);
    let b = recv.len() / n;
    let block = |i: usize| i * b..(i + 1) * b;
    recv[block(r)].copy_from_slice(&send[block(r)]);
    for k in 1..n {
        let dst = (r + k) % n;
        t.send(comm, dst, tag, &send[block(dst)])?;
    }
    for k in 1..n {
        let src = (r + n - k) % n;
        t.recv(comm, src, tag, &mut recv[block(src)])?;
    }
    Ok(())
}

/// Ring allgather of equal blocks: `all` has `size` blocks; this rank's block is filled.
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
