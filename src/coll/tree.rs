//! The binomial tree that broadcast, reduce and the fan-in barrier walk. Relative to the
//! root, rank v's parent is v − lowbit(v) and its children are v + 2^k for every
//! 2^k < lowbit(v) (every 2^k < n for the root) that is a rank. Subtrees are contiguous
//! ranges of relative ranks, which is what lets a reduction rooted at 0 combine in rank
//! order.

/// One rank's place in the binomial tree over `n` ranks rooted at `root`.
#[derive(Clone, Copy, Debug)]
pub struct Binomial {
    n: usize,
    root: usize,
    vr: usize,
}

impl Binomial {
    pub fn new(rank: usize, n: usize, root: usize) -> Self {
        Binomial {
            n,
            root,
            vr: (rank + n - root) % n,
        }
    }

    fn real(&self, v: usize) -> usize {
        (v + self.root) % self.n
    }

    /// The parent (None at the root).
    pub fn parent(&self) -> Option<usize> {
        (self.vr != 0).then(|| self.real(self.vr - (self.vr & self.vr.wrapping_neg())))
    }

    /// The children, nearest first (the order a reduction combines them in; `.rev()`
    /// gives the farthest first, the order a broadcast feeds them in).
    pub fn children(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        let limit = if self.vr == 0 {
            self.n.next_power_of_two()
        } else {
            self.vr & self.vr.wrapping_neg()
        };
        (0..limit.trailing_zeros())
            .map(|k| self.vr + (1usize << k))
            .filter(|&v| v < self.n)
            .map(|v| self.real(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_but_the_root_has_one_parent_that_lists_it() {
        for n in 1..=17 {
            for root in [0, n / 2, n - 1] {
                let mut seen = vec![0; n];
                for r in 0..n {
                    let t = Binomial::new(r, n, root);
                    assert_eq!(
                        t.parent().is_none(),
                        r == root,
                        "n {n} root {root} rank {r}"
                    );
                    for c in t.children() {
                        assert_eq!(Binomial::new(c, n, root).parent(), Some(r));
                        seen[c] += 1;
                    }
                }
                seen[root] += 1;
                assert!(seen.iter().all(|&s| s == 1), "n {n} root {root}: {seen:?}");
            }
        }
        let c: Vec<usize> = Binomial::new(0, 8, 0).children().collect();
        assert_eq!(c, [1, 2, 4]);
        let c: Vec<usize> = Binomial::new(4, 8, 0).children().rev().collect();
        assert_eq!(c, [6, 5]);
    }
}
