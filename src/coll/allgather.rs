//! Allgather(v): every block straight to every rank in one step for short messages,
//! recursive doubling on a power of two for medium ones, a ring for long ones (and for
//! medium ones on other sizes).

use super::plan::{copy_typed, pof2_floor, sub, Blocks, Plan, TypedBuf};
use super::schedule::{Buf, Schedule};

/// Below this many bytes in all, every rank sends its block to every other at once.
pub const SHORT_BYTES: usize = 4096;
/// Below this many bytes in all, powers of two use recursive doubling.
pub const MEDIUM_BYTES: usize = 80 * 1024;

/// MPI_Allgather(v) / MPI_Iallgather(v). `send` is None for MPI_IN_PLACE (this rank's
/// block of `recv` holds its data).
pub fn allgatherv(mut p: Plan, send: Option<TypedBuf>, recv: Blocks) -> Schedule {
    let (n, rank) = (p.n, p.rank);
    if let Some(s) = send {
        // SAFETY: MPI: send buffer readable, receive block writable, no overlap.
        unsafe { copy_typed(s, recv.block(rank)) };
    }
    let lens: Vec<usize> = recv.counts.iter().map(|&c| c * recv.ty.size).collect();
    let total: usize = lens.iter().sum();
    if n == 1 || total == 0 {
        return p.build();
    }
    let bufs = block_bufs(&mut p, &recv, &lens, |i| i != rank);
    if total < SHORT_BYTES {
        direct(&mut p, &bufs);
    } else if total < MEDIUM_BYTES && n.is_power_of_two() {
        recursive_doubling(&mut p, &bufs);
    } else {
        ring(&mut p, &bufs);
    }
    p.build()
}

/// Schedule buffers for the blocks of `b`: the blocks themselves when contiguous, else
/// one packed scratch (holding the current data) unpacked into the blocks for which
/// `unpack(i)` holds when the collective finishes.
pub fn block_bufs(
    p: &mut Plan,
    b: &Blocks,
    lens: &[usize],
    unpack: impl Fn(usize) -> bool,
) -> Vec<Buf> {
    let n = lens.len();
    if (0..n).all(|i| b.block(i).contiguous()) {
        return (0..n)
            .map(|i| Buf::User {
                ptr: b.block(i).ptr,
                len: lens[i],
            })
            .collect();
    }
    let mut offs = Vec::with_capacity(n);
    let mut v = Vec::with_capacity(lens.iter().sum());
    for (i, &len) in lens.iter().enumerate() {
        offs.push(v.len());
        if unpack(i) {
            v.resize(v.len() + len, 0);
        } else {
            v.extend_from_slice(&b.block(i).pack());
        }
    }
    let all = p.scratch_from(v);
    let bufs: Vec<Buf> = (0..n).map(|i| sub(all, offs[i], lens[i])).collect();
    for (i, &buf) in bufs.iter().enumerate() {
        if unpack(i) {
            p.unpack_at_finish(buf, b.block(i));
        }
    }
    bufs
}

/// One step: this rank's block to everyone, everyone's block from them.
pub fn direct(p: &mut Plan, bufs: &[Buf]) {
    let (n, rank) = (p.n, p.rank);
    for k in 1..n {
        let i = (rank + k) % n;
        p.send(i, bufs[rank]);
        p.recv((rank + n - k) % n, bufs[(rank + n - k) % n]);
    }
    p.step();
}

/// Recursive doubling (n a power of two): at distance 2^k exchange the 2^k blocks gathered
/// so far.
pub fn recursive_doubling(p: &mut Plan, bufs: &[Buf]) {
    let (n, rank) = (p.n, p.rank);
    debug_assert_eq!(pof2_floor(n), n);
    let mut mask = 1;
    while mask < n {
        let dst = rank ^ mask;
        let mine = rank & !(mask - 1);
        let theirs = dst & !(mask - 1);
        for &b in &bufs[mine..mine + mask] {
            p.send(dst, b);
        }
        for &b in &bufs[theirs..theirs + mask] {
            p.recv(dst, b);
        }
        p.step();
        mask <<= 1;
    }
}

/// Ring: n − 1 steps, each passing on the block received in the step before.
pub fn ring(p: &mut Plan, bufs: &[Buf]) {
    let (n, rank) = (p.n, p.rank);
    let (left, right) = ((rank + n - 1) % n, (rank + 1) % n);
    for j in 0..n - 1 {
        p.send(right, bufs[(rank + n - j) % n]);
        p.recv(left, bufs[(rank + n - j - 1) % n]);
        p.step();
    }
}
