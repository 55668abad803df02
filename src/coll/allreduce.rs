//! Allreduce: recursive doubling for short messages (and every non-commutative operation),
//! Rabenseifner's reduce-scatter + allgather for long ones. Both fold a non-power-of-two
//! communicator onto the nearest lower power of two first: the even ranks below
//! 2·(n − 2^⌊log2 n⌋) hand their data to the next odd rank and get the result back at
//! the end. On a few ranks a short allreduce is a full exchange (`exchange`); when ranks
//! outnumber cores, a small commutative one fans in to rank 0 and out again (`fan_in`).

use super::direct::{allreduce_algorithm, AllreduceAlgorithm};
use super::plan::{
    buf_len, combine_buf, copy_buf, pof2_floor, same_buf, sub, Plan, Reducer, TypedBuf,
};
use super::schedule::{Buf, Schedule};

/// From this many bytes on, commutative operations use Rabenseifner's algorithm (on up to
/// 4 ranks from `LONG_BYTES_FEW` on: recursive doubling's log2 n full-vector exchanges are
/// few there; measured on 2 cores, MPICH takes 2 KiB everywhere).
pub const LONG_BYTES: usize = 16 * 1024;
pub const LONG_BYTES_FEW: usize = 64 * 1024;

/// MPI_Allreduce / MPI_Iallreduce. `input` is this rank's contribution (`output` itself for
/// MPI_IN_PLACE).
pub fn allreduce(mut p: Plan, input: TypedBuf, output: TypedBuf, r: &Reducer) -> Schedule {
    let len = output.bytes();
    if len == 0 {
        return p.build();
    }
    let acc = p.accumulator(input, output);
    if p.n > 1 {
        let long = if p.n <= 4 { LONG_BYTES_FEW } else { LONG_BYTES };
        if r.commutative && len >= long && output.count >= pof2_floor(p.n) {
            rabenseifner(&mut p, acc, output.count, r);
        } else {
            // The messages `direct::allreduce` sends for this size (a rank whose datatype
            // is not contiguous comes here while its peers go there).
            let algo = allreduce_algorithm(p.n, len, r.commutative, p.fan_in, p.piece());
            match algo {
                AllreduceAlgorithm::Exchange => exchange(&mut p, acc, r),
                AllreduceAlgorithm::FanIn => fan_in(&mut p, acc, r),
                AllreduceAlgorithm::RecursiveDoubling => recursive_doubling(&mut p, acc, r),
            }
        }
    }
    p.build()
}

/// The fold onto a power of two: this rank's place in it (None: it sits out), after the
/// steps that fold its data in.
fn fold(p: &mut Plan, acc: Buf, tmp: Buf, r: &Reducer) -> Option<usize> {
    let (n, rank) = (p.n, p.rank);
    let rem = n - pof2_floor(n);
    if rank < 2 * rem {
        if rank % 2 == 0 {
            p.send(rank + 1, acc);
            p.step();
            None
        } else {
            p.recv(rank - 1, tmp);
            let rr = r.clone();
            p.work(move |sc| combine_buf(sc, &rr, tmp, acc));
            Some(rank / 2)
        }
    } else {
        Some(rank - rem)
    }
}

/// The real rank of position `newrank` of the folded power of two.
fn unfolded(newrank: usize, rem: usize) -> usize {
    if newrank < rem {
        newrank * 2 + 1
    } else {
        newrank + rem
    }
}

/// The even ranks that sat out get the result from their odd neighbour.
fn unfold(p: &mut Plan, acc: Buf) {
    let (n, rank) = (p.n, p.rank);
    let rem = n - pof2_floor(n);
    if rank < 2 * rem {
        if rank % 2 == 1 {
            p.send(rank - 1, acc);
        } else {
            p.recv(rank + 1, acc);
        }
        p.step();
    }
}

/// Recursive doubling: log2 steps of exchanging the whole vector with the partner at
/// distance 2^k and combining (in rank order).
pub fn recursive_doubling(p: &mut Plan, acc: Buf, r: &Reducer) {
    let len = buf_len(acc);
    let tmp = p.scratch(len);
    let pof2 = pof2_floor(p.n);
    let rem = p.n - pof2;
    let rank = p.rank;
    if let Some(newrank) = fold(p, acc, tmp, r) {
        let (mut cur, mut other) = (acc, tmp);
        let mut mask = 1;
        while mask < pof2 {
            let dst = unfolded(newrank ^ mask, rem);
            p.send(dst, cur);
            p.recv(dst, other);
            let rr = r.clone();
            if r.commutative || dst < rank {
                // cur = other ∘ cur
                p.work(move |sc| combine_buf(sc, &rr, other, cur));
            } else {
                // other = cur ∘ other; the result now lives in `other`.
                p.work(move |sc| combine_buf(sc, &rr, cur, other));
                std::mem::swap(&mut cur, &mut other);
            }
            mask <<= 1;
        }
        if !same_buf(cur, acc) {
            p.copy(cur, acc);
        }
    }
    unfold(p, acc);
}

/// Full exchange: every rank sends its vector to every other, then combines all n in rank
/// order into `acc` (`direct::allreduce_exchange` sends the same messages).
pub fn exchange(p: &mut Plan, acc: Buf, r: &Reducer) {
    let (n, rank, len) = (p.n, p.rank, buf_len(acc));
    let parts: Vec<Buf> = (0..n)
        .map(|i| if i == rank { acc } else { p.scratch(len) })
        .collect();
    for k in 1..n {
        p.send((rank + k) % n, acc);
        let src = (rank + n - k) % n;
        p.recv(src, parts[src]);
    }
    p.step();
    let res = p.scratch(len);
    let rr = r.clone();
    p.work(move |sc| {
        // res = v0 ∘ (v1 ∘ (… ∘ v(n−1))), as every rank computes it.
        copy_buf(sc, parts[n - 1], res);
        for &v in parts[..n - 1].iter().rev() {
            combine_buf(sc, &rr, v, res)?;
        }
        copy_buf(sc, res, acc);
        Ok(())
    });
}

/// Flat fan-in to rank 0 and fan-out of the result, for ranks that share cores (see
/// `direct::allreduce_fan_in`, which sends the same messages).
pub fn fan_in(p: &mut Plan, acc: Buf, r: &Reducer) {
    if p.rank != 0 {
        p.send(0, acc);
        p.step();
        p.recv(0, acc);
        p.step();
        return;
    }
    let len = buf_len(acc);
    let parts: Vec<Buf> = (1..p.n).map(|_| p.scratch(len)).collect();
    for (k, &b) in parts.iter().enumerate() {
        p.recv(k + 1, b);
    }
    let rr = r.clone();
    p.work(move |sc| {
        for &b in &parts {
            combine_buf(sc, &rr, b, acc)?;
        }
        Ok(())
    });
    for k in 1..p.n {
        p.send(k, acc);
    }
    p.step();
}

/// Rabenseifner: reduce-scatter by recursive halving, then allgather by recursive
/// doubling, on blocks of whole elements (commutative operations only).
pub fn rabenseifner(p: &mut Plan, acc: Buf, count: usize, r: &Reducer) {
    let len = buf_len(acc);
    let tmp = p.scratch(len);
    let pof2 = pof2_floor(p.n);
    let rem = p.n - pof2;
    let e = r.elem;
    if let Some(newrank) = fold(p, acc, tmp, r) {
        let mut cnts = vec![count / pof2; pof2];
        for c in cnts.iter_mut().take(count % pof2) {
            *c += 1;
        }
        let mut disps = vec![0usize; pof2 + 1];
        for i in 0..pof2 {
            disps[i + 1] = disps[i] + cnts[i];
        }
        // Bytes of blocks [a, b).
        let span = |a: usize, b: usize| (disps[a] * e, (disps[b] - disps[a]) * e);

        let (mut send_idx, mut recv_idx, mut last_idx) = (0usize, 0usize, pof2);
        let mut mask = 1;
        while mask < pof2 {
            let newdst = newrank ^ mask;
            let dst = unfolded(newdst, rem);
            let (s, rv);
            if newrank < newdst {
                send_idx = recv_idx + pof2 / (mask * 2);
                s = span(send_idx, last_idx);
                rv = span(recv_idx, send_idx);
            } else {
                recv_idx = send_idx + pof2 / (mask * 2);
                s = span(send_idx, recv_idx);
                rv = span(recv_idx, last_idx);
            }
            p.send(dst, sub(acc, s.0, s.1));
            let t = sub(tmp, rv.0, rv.1);
            let a = sub(acc, rv.0, rv.1);
            p.recv(dst, t);
            let rr = r.clone();
            p.work(move |sc| combine_buf(sc, &rr, t, a));
            send_idx = recv_idx;
            mask <<= 1;
            if mask < pof2 {
                last_idx = recv_idx + pof2 / mask;
            }
        }

        mask >>= 1;
        while mask > 0 {
            let newdst = newrank ^ mask;
            let dst = unfolded(newdst, rem);
            let (s, rv);
            if newrank < newdst {
                if mask != pof2 / 2 {
                    last_idx += pof2 / (mask * 2);
                }
                recv_idx = send_idx + pof2 / (mask * 2);
                s = span(send_idx, recv_idx);
                rv = span(recv_idx, last_idx);
            } else {
                recv_idx = send_idx - pof2 / (mask * 2);
                s = span(send_idx, last_idx);
                rv = span(recv_idx, send_idx);
            }
            p.send(dst, sub(acc, s.0, s.1));
            p.recv(dst, sub(acc, rv.0, rv.1));
            p.step();
            if newrank > newdst {
                send_idx = recv_idx;
            }
            mask >>= 1;
        }
    }
    unfold(p, acc);
}
