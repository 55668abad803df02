//! Reduce to a root: a binomial tree. Commutative operations use the tree rooted at the
//! root (children's contributions combined in any order); non-commutative ones use the
//! tree rooted at rank 0, where every subtree is a contiguous range of ranks combined in
//! rank order, and rank 0 sends the result on to the root.

use super::plan::{combine_buf, copy_typed, Plan, Reducer, TypedBuf};
use super::schedule::{Buf, Schedule};
use super::tree::Binomial;

/// MPI_Reduce / MPI_Ireduce. `input` is this rank's contribution (the receive buffer at a
/// root that passed MPI_IN_PLACE); `output` is the root's receive buffer (None elsewhere).
pub fn reduce(
    mut p: Plan,
    input: TypedBuf,
    output: Option<TypedBuf>,
    r: &Reducer,
    root: usize,
) -> Schedule {
    if input.bytes() == 0 {
        return p.build();
    }
    if p.n == 1 {
        if let Some(out) = output {
            // SAFETY: MPI: input readable, output writable (the same for MPI_IN_PLACE).
            unsafe { copy_typed(input, out) };
        }
        return p.build();
    }
    let out = if p.rank == root { output } else { None };
    binomial(&mut p, input, out, r, root);
    p.build()
}

/// Combine the received `parts` (in rank order, all above this rank's `acc`) into one
/// buffer after the current step; returns the buffer that then holds the result.
pub fn combine_children(p: &mut Plan, r: &Reducer, acc: Buf, parts: Vec<Buf>) -> Buf {
    if parts.is_empty() {
        return acc;
    }
    let last = *parts.last().expect("non-empty");
    let rr = r.clone();
    if r.commutative {
        p.work(move |sc| {
            for &t in &parts {
                combine_buf(sc, &rr, t, acc)?;
            }
            Ok(())
        });
        acc
    } else {
        p.work(move |sc| {
            let mut cur = acc;
            for &t in &parts {
                // t = cur ∘ t: the lower ranks' partial result comes first.
                combine_buf(sc, &rr, cur, t)?;
                cur = t;
            }
            Ok(())
        });
        last
    }
}

/// Binomial-tree reduce; `out` is Some at the root only.
pub fn binomial(p: &mut Plan, input: TypedBuf, out: Option<TypedBuf>, r: &Reducer, root: usize) {
    let (n, rank) = (p.n, p.rank);
    let len = input.bytes();
    let tree_root = if r.commutative { root } else { 0 };
    let tree = Binomial::new(rank, n, tree_root);
    let children: Vec<usize> = tree.children().collect();
    let parent = tree.parent();

    let acc = match out {
        _ if children.is_empty() => p.input(input),
        Some(o) if r.commutative => p.accumulator(input, o),
        _ => p.copy_of(input),
    };
    let parts: Vec<Buf> = children
        .iter()
        .map(|&c| {
            let t = p.scratch(len);
            p.recv(c, t);
            t
        })
        .collect();
    let result = combine_children(p, r, acc, parts);
    if let Some(par) = parent {
        p.send(par, result);
        p.step();
    }
    if r.commutative {
        // The root is the tree's root and accumulated straight into its output.
        return;
    }
    if tree_root == root {
        if let Some(o) = out {
            let dst = p.output(o);
            p.copy(result, dst);
        }
    } else if rank == tree_root {
        p.send(root, result);
        p.step();
    } else if let Some(o) = out {
        let dst = p.output(o);
        p.recv(tree_root, dst);
        p.step();
    }
}
