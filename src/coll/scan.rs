//! Inclusive and exclusive prefix reductions by recursive doubling: in step k each rank
//! exchanges its partial result (the combination of a contiguous range of ranks) with the
//! rank at distance 2^k, folding what comes from below into its result, in rank order.

use super::plan::{combine_buf, copy_buf, Plan, Reducer, TypedBuf};
use super::schedule::Schedule;

/// MPI_Scan / MPI_Exscan (and their nonblocking forms). `input` is this rank's
/// contribution (`output` itself for MPI_IN_PLACE). For the exclusive scan rank 0's
/// output is left alone.
pub fn scan(
    mut p: Plan,
    input: TypedBuf,
    output: TypedBuf,
    r: &Reducer,
    exclusive: bool,
) -> Schedule {
    let (n, rank) = (p.n, p.rank);
    let len = output.bytes();
    if len == 0 {
        return p.build();
    }
    // The combination of the ranks this rank has heard of (a range containing it).
    let partial = p.copy_of(input);
    let result = if exclusive {
        (rank > 0).then(|| p.output(output))
    } else {
        Some(p.accumulator(input, output))
    };
    let tmp = p.scratch(len);
    let mut have_result = !exclusive;
    let mut mask = 1;
    while mask < n {
        let dst = rank ^ mask;
        if dst < n {
            p.send(dst, partial);
            p.recv(dst, tmp);
            let rr = r.clone();
            if rank > dst {
                let res = result.expect("ranks above 0 have a result");
                let first = !have_result;
                have_result = true;
                p.work(move |sc| {
                    combine_buf(sc, &rr, tmp, partial)?;
                    if first {
                        copy_buf(sc, tmp, res);
                        Ok(())
                    } else {
                        combine_buf(sc, &rr, tmp, res)
                    }
                });
            } else if r.commutative {
                p.work(move |sc| combine_buf(sc, &rr, tmp, partial));
            } else {
                // partial = partial ∘ tmp
                p.work(move |sc| {
                    combine_buf(sc, &rr, partial, tmp)?;
                    copy_buf(sc, tmp, partial);
                    Ok(())
                });
            }
        }
        mask <<= 1;
    }
    p.build()
}
