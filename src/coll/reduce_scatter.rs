//! Reduce-scatter (and its block form). Every rank sends block i of its vector to rank i;
//! short messages post all of it in one step and combine the n contributions in rank
//! order (so any operation works); long ones with a commutative operation go pairwise
//! (n − 1 steps, one temporary block).

use super::plan::{combine_buf, copy_buf, sub, Plan, Reducer, TypedBuf};
use super::schedule::Schedule;

/// From this many bytes per rank's block times ranks on, commutative operations go
/// pairwise.
pub const LONG_BYTES: usize = 512 * 1024;

/// MPI_Reduce_scatter(_block) / MPI_Ireduce_scatter(_block). `input` is the whole vector
/// (`counts.iter().sum()` elements; the receive buffer for MPI_IN_PLACE), `output` this
/// rank's block (`counts[rank]` elements; for MPI_IN_PLACE the start of the receive buffer).
pub fn reduce_scatter(
    mut p: Plan,
    input: TypedBuf,
    output: TypedBuf,
    in_place: bool,
    counts: &[usize],
    r: &Reducer,
) -> Schedule {
    let (n, rank) = (p.n, p.rank);
    let e = r.elem;
    let mut disps = vec![0usize; n + 1];
    for i in 0..n {
        disps[i + 1] = disps[i] + counts[i];
    }
    if disps[n] * e == 0 {
        return p.build();
    }
    let inb = p.input(input);
    let block = |i: usize| sub(inb, disps[i] * e, counts[i] * e);
    let my = counts[rank] * e;
    let own = input.at(disps[rank] as isize, counts[rank]);
    if n == 1 {
        let out = p.output(output);
        p.copy(block(0), out);
        return p.build();
    }
    // Where the result accumulates: straight in the output when nothing still to be sent
    // lives there.
    let direct_out = r.commutative && !in_place;
    let acc = if direct_out {
        p.accumulator(own, output)
    } else if r.commutative {
        p.copy_of(own)
    } else {
        p.scratch(my)
    };

    if r.commutative && my * n >= LONG_BYTES {
        let tmp = p.scratch(my);
        for k in 1..n {
            let dst = (rank + k) % n;
            let src = (rank + n - k) % n;
            p.send(dst, block(dst));
            p.recv(src, tmp);
            let rr = r.clone();
            p.work(move |sc| combine_buf(sc, &rr, tmp, acc));
        }
    } else {
        let mut parts = vec![block(rank); n];
        for k in 1..n {
            let dst = (rank + k) % n;
            let src = (rank + n - k) % n;
            p.send(dst, block(dst));
            let t = p.scratch(my);
            p.recv(src, t);
            parts[src] = t;
        }
        let rr = r.clone();
        if r.commutative {
            p.work(move |sc| {
                for (i, &t) in parts.iter().enumerate() {
                    if i != rank {
                        combine_buf(sc, &rr, t, acc)?;
                    }
                }
                Ok(())
            });
        } else {
            // x0 ∘ (x1 ∘ (… ∘ x(n−1))): fold from the highest rank down.
            p.work(move |sc| {
                copy_buf(sc, parts[n - 1], acc);
                for &t in parts[..n - 1].iter().rev() {
                    combine_buf(sc, &rr, t, acc)?;
                }
                Ok(())
            });
        }
    }
    if !direct_out {
        let out = p.output(output);
        p.copy(acc, out);
    }
    p.build()
}
