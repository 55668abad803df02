//! One element's byte runs, stored compactly: a block is `n` runs of `len` bytes `stride`
//! apart, so a vector of 2³⁰ blocks is one block rather than 16 GiB of (offset, length)
//! pairs (MPICH's `datatype/large_count` builds one). The runs the blocks expand to are
//! exactly the flat list the constructors would build by appending runs in type-map order
//! and merging each with the previous one when they abut.

/// `n` runs of `len` bytes at `off`, `off + stride`, …; `n` ≥ 1, `len` > 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub off: isize,
    pub len: usize,
    pub n: usize,
    pub stride: isize,
}

impl Block {
    fn last(&self) -> isize {
        self.off + (self.n as isize - 1) * self.stride
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Segments {
    blocks: Vec<Block>,
    /// Runs the blocks expand to.
    runs: usize,
}

impl Segments {
    pub const fn new() -> Self {
        Segments {
            blocks: Vec::new(),
            runs: 0,
        }
    }

    /// The runs of a flat list, merged as `push` merges them.
    pub fn from_runs(runs: &[(isize, usize)]) -> Self {
        let mut s = Self::new();
        for &(off, len) in runs {
            s.push(off, len);
        }
        s
    }

    /// Number of runs (after merging).
    pub fn len(&self) -> usize {
        self.runs
    }

    pub fn is_empty(&self) -> bool {
        self.runs == 0
    }

    /// Number of blocks (what storing them costs).
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// The only run, when there is exactly one.
    pub fn single(&self) -> Option<(isize, usize)> {
        match self.blocks[..] {
            [b] if b.n == 1 => Some((b.off, b.len)),
            _ => None,
        }
    }

    /// The runs in order.
    pub fn iter(&self) -> impl Iterator<Item = (isize, usize)> + '_ {
        self.blocks
            .iter()
            .flat_map(|b| (0..b.n).map(move |k| (b.off + k as isize * b.stride, b.len)))
    }

    pub fn to_vec(&self) -> Vec<(isize, usize)> {
        self.iter().collect()
    }

    /// Append a run, merged with the last one when it starts where that one ends.
    pub fn push(&mut self, off: isize, len: usize) {
        if len == 0 {
            return;
        }
        if let Some(l) = self.blocks.last_mut() {
            let last = l.last();
            if last + l.len as isize == off {
                // Abuts the last run: merge (out of its block when it is in a stride).
                if l.n == 1 {
                    l.len += len;
                } else {
                    l.n -= 1;
                    let merged = l.len + len;
                    self.blocks.push(Block {
                        off: last,
                        len: merged,
                        n: 1,
                        stride: 0,
                    });
                }
                return;
            }
            if l.len == len && (l.n == 1 || off == last + l.stride) {
                // The next run of a stride (or the second, which sets it).
                if l.n == 1 {
                    l.stride = off - l.off;
                }
                l.n += 1;
                self.runs += 1;
                return;
            }
        }
        self.blocks.push(Block {
            off,
            len,
            n: 1,
            stride: 0,
        });
        self.runs += 1;
    }

    /// Append `n` runs of `len` bytes at `off`, `off + stride`, … (in that order).
    pub fn push_strided(&mut self, off: isize, len: usize, n: usize, stride: isize) {
        if n == 0 || len == 0 {
            return;
        }
        if stride == len as isize {
            // They abut: one run.
            return self.push(off, len * n);
        }
        self.push(off, len);
        if n == 1 {
            return;
        }
        // The runs after the first never abut their predecessor (stride != len).
        let l = self.blocks.last_mut().expect("pushed");
        if l.last() == off && l.len == len && (l.n == 1 || l.stride == stride) {
            l.stride = stride;
            l.n += n - 1;
        } else {
            self.blocks.push(Block {
                off: off + stride,
                len,
                n: n - 1,
                stride,
            });
        }
        self.runs += n - 1;
    }

    /// Append `other`'s runs shifted by `base`.
    pub fn push_shifted(&mut self, other: &Segments, base: isize) {
        for b in &other.blocks {
            self.push_strided(base + b.off, b.len, b.n, b.stride);
        }
    }
}

impl<const N: usize> PartialEq<[(isize, usize); N]> for Segments {
    fn eq(&self, other: &[(isize, usize); N]) -> bool {
        self.runs == N && self.iter().eq(other.iter().copied())
    }
}

impl PartialEq<Vec<(isize, usize)>> for Segments {
    fn eq(&self, other: &Vec<(isize, usize)>) -> bool {
        self.runs == other.len() && self.iter().eq(other.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flat list the constructors used to build: append, merge when abutting.
    fn flat(runs: &[(isize, usize)]) -> Vec<(isize, usize)> {
        let mut v: Vec<(isize, usize)> = Vec::new();
        for &(off, len) in runs {
            match v.last_mut() {
                _ if len == 0 => {}
                Some(l) if l.0 + l.1 as isize == off => l.1 += len,
                _ => v.push((off, len)),
            }
        }
        v
    }

    #[test]
    fn expands_to_the_flat_merged_list() {
        let cases: &[&[(isize, usize)]] = &[
            &[(0, 4), (8, 4), (16, 4), (24, 4)],
            &[(0, 4), (8, 4), (12, 4)],
            &[(0, 4), (8, 4), (16, 4), (20, 8), (40, 8), (56, 8)],
            &[(0, 8), (-16, 8), (-32, 8), (-24, 8)],
            &[(5, 3), (5, 3), (5, 3), (8, 1)],
            &[(0, 4), (0, 0), (4, 4), (100, 4), (200, 4)],
        ];
        for runs in cases {
            let s = Segments::from_runs(runs);
            assert_eq!(s.to_vec(), flat(runs), "{runs:?}");
            assert_eq!(s.len(), flat(runs).len());
        }
        // Strides are stored as one block.
        let s = Segments::from_runs(&[(0, 4), (8, 4), (16, 4), (24, 4)]);
        assert_eq!(s.block_count(), 1);
    }

    #[test]
    fn strided_pushes_match_one_by_one() {
        for (first, off, len, n, stride) in [
            (None, 0, 4, 5, 12),
            (Some((0, 4)), 4, 4, 3, 12),
            (Some((0, 4)), 12, 4, 3, 12),
            (Some((0, 8)), 12, 4, 3, 12),
            (None, 0, 4, 4, 4),
            (None, 64, 8, 4, -16),
            (None, 0, 2, 3, 0),
        ] {
            let mut s = Segments::new();
            let mut runs: Vec<(isize, usize)> = first.into_iter().collect();
            if let Some((o, l)) = first {
                s.push(o, l);
            }
            s.push_strided(off, len, n, stride);
            runs.extend((0..n).map(|k| (off + k as isize * stride, len)));
            assert_eq!(
                s.to_vec(),
                flat(&runs),
                "{first:?} {off} {len} {n} {stride}"
            );
            assert_eq!(s.len(), flat(&runs).len());
        }
        // 2^30 runs in one block, shifted copies appended block by block.
        let mut big = Segments::new();
        big.push_strided(0, 16, 1 << 30, 48);
        assert_eq!((big.len(), big.block_count()), (1 << 30, 1));
        let mut two = Segments::new();
        two.push_shifted(&big, 0);
        two.push_shifted(&big, 48 << 30);
        assert_eq!((two.len(), two.block_count()), (2 << 30, 1));
        assert_eq!(two.single(), None);
    }
}
