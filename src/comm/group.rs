//! Group algebra (MPI-3.1 §6.3): subsets, set operations, rank translation and comparison
//! over ordered groups of world ranks. Argument errors carry the class MPICH reports
//! (MPI_ERR_RANK for bad rank lists, MPI_ERR_ARG for bad range triplets).

use super::Group;
use crate::error::Result;
use crate::mpi_err;
use std::collections::{HashMap, HashSet};

/// Result of comparing two groups (MPI_Group_compare).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupComparison {
    /// Same members in the same order.
    Ident,
    /// Same members, another order.
    Similar,
    Unequal,
}

impl Group {
    /// The empty group (MPI_GROUP_EMPTY).
    pub fn empty() -> Self {
        Self::new(Vec::new())
    }

    /// MPI_Group_incl: the members at `ranks`, in that order. Each rank must be a valid
    /// rank of this group and appear once (else MPI_ERR_RANK).
    pub fn incl(&self, ranks: &[i32]) -> Result<Group> {
        let ranks = self.check_ranks(ranks)?;
        Ok(Group::new(ranks.iter().map(|&r| self.members[r]).collect()))
    }

    /// MPI_Group_excl: the members not at `ranks`, in group order.
    pub fn excl(&self, ranks: &[i32]) -> Result<Group> {
        let ranks = self.check_ranks(ranks)?;
        let mut drop = vec![false; self.size()];
        for r in ranks {
            drop[r] = true;
        }
        Ok(Group::new(
            self.members
                .iter()
                .zip(drop)
                .filter(|(_, d)| !d)
                .map(|(&m, _)| m)
                .collect(),
        ))
    }

    /// MPI_Group_range_incl: the ranks of the (first, last, stride) triplets, expanded in
    /// order.
    pub fn range_incl(&self, ranges: &[[i32; 3]]) -> Result<Group> {
        let ranks = self.expand_ranges(ranges)?;
        Ok(Group::new(ranks.iter().map(|&r| self.members[r]).collect()))
    }

    /// MPI_Group_range_excl: the members not named by the triplets, in group order.
    pub fn range_excl(&self, ranges: &[[i32; 3]]) -> Result<Group> {
        let ranks = self.expand_ranges(ranges)?;
        let mut drop = vec![false; self.size()];
        for r in ranks {
            drop[r] = true;
        }
        Ok(Group::new(
            self.members
                .iter()
                .zip(drop)
                .filter(|(_, d)| !d)
                .map(|(&m, _)| m)
                .collect(),
        ))
    }

    /// MPI_Group_union: all of `self` in order, then the members of `other` not in `self`,
    /// in `other`'s order.
    pub fn union(&self, other: &Group) -> Group {
        let mine: HashSet<usize> = self.members.iter().copied().collect();
        let mut v = self.members.clone();
        v.extend(other.members.iter().filter(|m| !mine.contains(m)));
        Group::new(v)
    }

    /// MPI_Group_intersection: the members of `self` that are in `other`, in `self`'s order.
    pub fn intersection(&self, other: &Group) -> Group {
        let theirs: HashSet<usize> = other.members.iter().copied().collect();
        Group::new(
            self.members
                .iter()
                .copied()
                .filter(|m| theirs.contains(m))
                .collect(),
        )
    }

    /// MPI_Group_difference: the members of `self` not in `other`, in `self`'s order.
    pub fn difference(&self, other: &Group) -> Group {
        let theirs: HashSet<usize> = other.members.iter().copied().collect();
        Group::new(
            self.members
                .iter()
                .copied()
                .filter(|m| !theirs.contains(m))
                .collect(),
        )
    }

    /// MPI_Group_translate_ranks: for each of `ranks` (None: MPI_PROC_NULL, which stays
    /// None) a rank of this group (else MPI_ERR_RANK), Some of its rank in `other` (None
    /// where the process is not in `other`: MPI_UNDEFINED).
    pub fn translate_ranks(
        &self,
        ranks: &[Option<i32>],
        other: &Group,
    ) -> Result<Vec<Option<Option<usize>>>> {
        let n = self.size();
        let mut valid = Vec::with_capacity(ranks.len());
        for (i, &r) in ranks.iter().enumerate() {
            match r {
                Some(r) if r < 0 || r as usize >= n => {
                    return mpi_err!(Rank, "ranks1[{i}] = {r} is not a rank of group1 (size {n})")
                }
                Some(r) => valid.push(r as usize),
                None => {}
            }
        }
        let mut out = self.translate(&valid, other).into_iter();
        Ok(ranks
            .iter()
            .map(|r| r.map(|_| out.next().flatten()))
            .collect())
    }

    /// MPI_Group_translate_ranks as MPI writes it: `translate_ranks` of `ranks` where
    /// `proc_null` (MPI_PROC_NULL) stays itself, `undefined` (MPI_UNDEFINED) for a process
    /// not in `other`.
    pub fn translate_ranks_as(
        &self,
        ranks: &[i32],
        other: &Group,
        proc_null: i32,
        undefined: i32,
    ) -> Result<Vec<i32>> {
        let given: Vec<Option<i32>> = ranks
            .iter()
            .map(|&r| (r != proc_null).then_some(r))
            .collect();
        Ok(self
            .translate_ranks(&given, other)?
            .into_iter()
            .map(|t| t.map_or(proc_null, |r| r.map_or(undefined, |r| r as i32)))
            .collect())
    }

    /// MPI_Group_translate_ranks for ranks already checked to be valid in `self`: the rank
    /// in `other` of each, None where the process is not in `other`.
    pub fn translate(&self, ranks: &[usize], other: &Group) -> Vec<Option<usize>> {
        let pos: HashMap<usize, usize> = other
            .members
            .iter()
            .enumerate()
            .map(|(i, &m)| (m, i))
            .collect();
        ranks
            .iter()
            .map(|&r| pos.get(&self.members[r]).copied())
            .collect()
    }

    /// MPI_Group_compare.
    pub fn compare(&self, other: &Group) -> GroupComparison {
        if self.members == other.members {
            return GroupComparison::Ident;
        }
        if self.size() != other.size() {
            return GroupComparison::Unequal;
        }
        let mut a = self.members.clone();
        let mut b = other.members.clone();
        a.sort_unstable();
        b.sort_unstable();
        if a == b {
            GroupComparison::Similar
        } else {
            GroupComparison::Unequal
        }
    }

    /// Every member of `self` is a member of `other`.
    pub fn is_subset_of(&self, other: &Group) -> bool {
        let theirs: HashSet<usize> = other.members.iter().copied().collect();
        self.members.iter().all(|m| theirs.contains(m))
    }

    /// A new communicator's group must be a subset of its parent's (MPI_Comm_create,
    /// MPI_Comm_create_group: MPI_ERR_GROUP).
    pub fn check_subset_of(&self, parent: &Group) -> Result<()> {
        if !self.is_subset_of(parent) {
            return mpi_err!(Group, "the group is not a subset of the communicator's");
        }
        Ok(())
    }

    /// At most as many ranks (`n`) as the group has (MPI_ERR_RANK: MPI_Group_incl/excl check
    /// it before they read the ranks).
    pub fn check_count(&self, n: i64) -> Result<()> {
        if n > 0 && n as usize > self.size() {
            return mpi_err!(Rank, "{n} ranks given for a group of size {}", self.size());
        }
        Ok(())
    }

    /// Valid, distinct ranks of this group (MPI_ERR_RANK otherwise).
    fn check_ranks(&self, ranks: &[i32]) -> Result<Vec<usize>> {
        let n = self.size();
        self.check_count(ranks.len() as i64)?;
        let mut seen = vec![false; n];
        let mut out = Vec::with_capacity(ranks.len());
        for (i, &r) in ranks.iter().enumerate() {
            if r < 0 || r as usize >= n {
                return mpi_err!(
                    Rank,
                    "ranks[{i}] = {r} is not a rank of the group (size {n})"
                );
            }
            if std::mem::replace(&mut seen[r as usize], true) {
                return mpi_err!(Rank, "ranks[{i}] = {r} appears twice");
            }
            out.push(r as usize);
        }
        Ok(out)
    }

    /// Expand (first, last, stride) triplets as MPICH checks them: first and last valid
    /// ranks, stride non-zero and pointing from first towards last, no rank twice
    /// (MPI_ERR_ARG otherwise).
    fn expand_ranges(&self, ranges: &[[i32; 3]]) -> Result<Vec<usize>> {
        let n = self.size() as i64;
        let mut seen = vec![false; self.size()];
        let mut out = Vec::new();
        for (i, &[first, last, stride]) in ranges.iter().enumerate() {
            let (first, last, stride) = (first as i64, last as i64, stride as i64);
            if first < 0 || first >= n {
                return mpi_err!(
                    Arg,
                    "ranges[{i}]: first rank {first} not in the group (size {n})"
                );
            }
            if stride == 0 {
                return mpi_err!(Arg, "ranges[{i}]: stride 0");
            }
            let act_last = first + stride * ((last - first) / stride);
            if last < 0 || act_last >= n {
                return mpi_err!(
                    Arg,
                    "ranges[{i}]: last rank {last} not in the group (size {n})"
                );
            }
            if (stride > 0 && first > last) || (stride < 0 && first < last) {
                return mpi_err!(
                    Arg,
                    "ranges[{i}]: stride {stride} does not lead from {first} to {last}"
                );
            }
            let mut r = first;
            while (stride > 0 && r <= last) || (stride < 0 && r >= last) {
                if std::mem::replace(&mut seen[r as usize], true) {
                    return mpi_err!(Arg, "ranges[{i}]: rank {r} named twice");
                }
                out.push(r as usize);
                r += stride;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorClass;

    fn g(m: &[usize]) -> Group {
        Group::new(m.to_vec())
    }

    #[test]
    fn translate_as_mpi_writes_it() {
        let (a, b) = (g(&[10, 11, 12]), g(&[12, 10]));
        let t = a
            .translate_ranks_as(&[2, -2, 1, 0], &b, -2, -32766)
            .unwrap();
        assert_eq!(t, vec![0, -2, -32766, 1]);
        let e = a.translate_ranks_as(&[3], &b, -2, -32766).unwrap_err();
        assert_eq!(e.class, ErrorClass::Rank);
    }

    #[test]
    fn incl_excl() {
        let a = g(&[10, 11, 12, 13, 14]);
        assert_eq!(a.incl(&[4, 0, 2]).unwrap(), g(&[14, 10, 12]));
        assert_eq!(a.incl(&[]).unwrap(), g(&[]));
        assert_eq!(a.excl(&[4, 0, 2]).unwrap(), g(&[11, 13]));
        assert_eq!(a.excl(&[]).unwrap(), a);
        assert_eq!(a.incl(&[5]).unwrap_err().class, ErrorClass::Rank);
        assert_eq!(a.incl(&[-1]).unwrap_err().class, ErrorClass::Rank);
        assert_eq!(a.incl(&[1, 1]).unwrap_err().class, ErrorClass::Rank);
        assert_eq!(a.excl(&[3, 3]).unwrap_err().class, ErrorClass::Rank);
    }

    #[test]
    fn ranges() {
        let a = g(&(100..110).collect::<Vec<_>>());
        assert_eq!(
            a.range_incl(&[[0, 9, 3]]).unwrap(),
            g(&[100, 103, 106, 109])
        );
        assert_eq!(
            a.range_incl(&[[8, 1, -3], [0, 0, 1]]).unwrap(),
            g(&[108, 105, 102, 100])
        );
        // last need not be hit exactly
        assert_eq!(a.range_incl(&[[1, 8, 4]]).unwrap(), g(&[101, 105]));
        assert_eq!(
            a.range_excl(&[[0, 9, 2]]).unwrap(),
            g(&[101, 103, 105, 107, 109])
        );
        assert_eq!(a.range_incl(&[]).unwrap(), g(&[]));
        for bad in [[0, 10, 1], [-1, 3, 1], [0, 3, 0], [5, 2, 1], [2, 5, -1]] {
            assert_eq!(
                a.range_incl(&[bad]).unwrap_err().class,
                ErrorClass::Arg,
                "{bad:?}"
            );
        }
        assert_eq!(
            a.range_incl(&[[0, 4, 1], [4, 6, 1]]).unwrap_err().class,
            ErrorClass::Arg
        );
    }

    #[test]
    fn set_operations_keep_mpi_order() {
        let a = g(&[5, 1, 3, 7]);
        let b = g(&[2, 3, 5, 9]);
        assert_eq!(a.union(&b), g(&[5, 1, 3, 7, 2, 9]));
        assert_eq!(b.union(&a), g(&[2, 3, 5, 9, 1, 7]));
        assert_eq!(a.intersection(&b), g(&[5, 3]));
        assert_eq!(b.intersection(&a), g(&[3, 5]));
        assert_eq!(a.difference(&b), g(&[1, 7]));
        assert_eq!(b.difference(&a), g(&[2, 9]));
        assert_eq!(a.difference(&a), g(&[]));
        assert!(g(&[3, 5]).is_subset_of(&a));
        assert!(!g(&[3, 4]).is_subset_of(&a));
        assert!(g(&[3, 5]).check_subset_of(&a).is_ok());
        let e = g(&[3, 4]).check_subset_of(&a).err().unwrap();
        assert_eq!(e.class, crate::error::ErrorClass::Group);
    }

    #[test]
    fn translate_and_compare() {
        let a = g(&[5, 1, 3, 7]);
        let b = g(&[7, 5]);
        assert_eq!(
            a.translate(&[0, 1, 2, 3], &b),
            vec![Some(1), None, None, Some(0)]
        );
        assert_eq!(
            a.translate_ranks(&[Some(3), None, Some(1)], &b).unwrap(),
            vec![Some(Some(0)), None, Some(None)]
        );
        let bad = a.translate_ranks(&[None, Some(4)], &b).unwrap_err();
        assert_eq!(bad.class, ErrorClass::Rank);
        assert_eq!(
            a.translate_ranks(&[Some(-2)], &b).unwrap_err().class,
            ErrorClass::Rank
        );
        assert_eq!(a.check_count(5).unwrap_err().class, ErrorClass::Rank);
        assert!(a.check_count(4).is_ok() && a.check_count(-1).is_ok());
        assert_eq!(a.compare(&a.clone()), GroupComparison::Ident);
        assert_eq!(a.compare(&g(&[1, 3, 5, 7])), GroupComparison::Similar);
        assert_eq!(a.compare(&b), GroupComparison::Unequal);
        assert_eq!(a.compare(&g(&[5, 1, 3, 8])), GroupComparison::Unequal);
        assert_eq!(g(&[]).compare(&g(&[])), GroupComparison::Ident);
    }
}
