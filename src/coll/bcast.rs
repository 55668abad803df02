//! Broadcast: flat tree for short messages on few ranks, binomial tree for short ones
//! otherwise, scatter + ring allgather (van de Geijn) for long ones on enough ranks.

use super::plan::{sub, Plan, TypedBuf};
use super::schedule::{Buf, Schedule};
use super::tree::Binomial;

/// From this many bytes on (with at least `LONG_MIN_PROCS` ranks) the broadcast scatters
/// the message and gathers it back with a ring, so every rank moves about 2× the message
/// instead of the root sending it ⌈log2 n⌉ times. (MPICH: 12 KiB and 8 ranks; measured
/// here with 8 ranks on 2 cores the ring's n − 1 dependent steps made it 2× slower than
/// the binomial tree at every size, so it starts later.)
pub const LONG_BYTES: usize = 512 * 1024;
pub const LONG_MIN_PROCS: usize = 16;
/// Up to this many bytes on up to 8 ranks (`FLAT_BYTES_FEW` on up to 4) the root sends
/// to every rank itself: one step, where each tree level costs a wake-up of the next rank
/// (receivers copy rendezvous data themselves, so the root is no bottleneck there).
pub const FLAT_BYTES: usize = 16 * 1024;
pub const FLAT_BYTES_FEW: usize = 512 * 1024;

/// MPI_Bcast / MPI_Ibcast of `buf` from `root`.
pub fn bcast(mut p: Plan, buf: TypedBuf, root: usize) -> Schedule {
    let len = buf.bytes();
    if p.n == 1 || len == 0 {
        return p.build();
    }
    let data = if p.rank == root {
        p.input(buf)
    } else {
        p.output(buf)
    };
    if flat_tree(p.n, len) {
        flat(&mut p, data, root);
    } else if len >= LONG_BYTES && p.n >= LONG_MIN_PROCS {
        scatter_ring_allgather(&mut p, data, len, root);
    } else {
        binomial(&mut p, data, root);
    }
    p.build()
}

/// Whether a broadcast of `len` bytes on `n` ranks uses the flat tree.
pub fn flat_tree(n: usize, len: usize) -> bool {
    (n <= 8 && len <= FLAT_BYTES) || (n <= 4 && len <= FLAT_BYTES_FEW)
}

/// Flat tree: the root sends to every rank.
pub fn flat(p: &mut Plan, data: Buf, root: usize) {
    if p.rank == root {
        for k in 1..p.n {
            p.send((root + k) % p.n, data);
        }
    } else {
        p.recv(root, data);
    }
    p.step();
}

/// Binomial tree: receive from the parent, then send to every child at once.
pub fn binomial(p: &mut Plan, data: Buf, root: usize) {
    let t = Binomial::new(p.rank, p.n, root);
    if let Some(parent) = t.parent() {
        p.recv(parent, data);
        p.step();
    }
    for child in t.children().rev() {
        p.send(child, data);
    }
    p.step();
}

/// Binomial scatter of `len` bytes in blocks of ⌈len/n⌉ (relative rank v gets block v),
/// then a ring allgather of the blocks.
pub fn scatter_ring_allgather(p: &mut Plan, data: Buf, len: usize, root: usize) {
    let n = p.n;
    let vr = (p.rank + n - root) % n;
    let real = |v: usize| (v + root) % n;
    let ss = len.div_ceil(n);
    // Bytes of the blocks of relative ranks [v, v + m).
    let range = |v: usize, m: usize| ((v * ss).min(len), ((v + m) * ss).min(len));

    let mut mask = 1;
    while mask < n {
        if vr & mask != 0 {
            let (lo, hi) = range(vr, mask);
            if hi > lo {
                p.recv(real(vr - mask), sub(data, lo, hi - lo));
            }
            p.step();
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    while mask > 0 {
        if vr + mask < n {
            let (lo, hi) = range(vr + mask, mask);
            if hi > lo {
                p.send(real(vr + mask), sub(data, lo, hi - lo));
            }
        }
        mask >>= 1;
    }
    p.step();

    let (left, right) = (real(vr + n - 1), real(vr + 1));
    let mut j = vr;
    let mut jnext = (vr + n - 1) % n;
    for _ in 1..n {
        let (slo, shi) = range(j, 1);
        if shi > slo {
            p.send(right, sub(data, slo, shi - slo));
        }
        let (rlo, rhi) = range(jnext, 1);
        if rhi > rlo {
            p.recv(left, sub(data, rlo, rhi - rlo));
        }
        p.step();
        j = jnext;
        jnext = (jnext + n - 1) % n;
    }
}
