//! comm: groups and communicators. A communicator is a group plus a context id; traffic
//! carries the context so it never crosses communicators. Collectives use `ctx + 1`.

pub mod group;
pub mod topology;

use std::sync::Arc;

/// An ordered set of processes, by world rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub members: Vec<usize>,
}

impl Group {
    pub fn new(members: Vec<usize>) -> Self {
        Self { members }
    }
    pub fn size(&self) -> usize {
        self.members.len()
    }
    /// Rank in this group of the process with world rank `world`.
    pub fn rank_of(&self, world: usize) -> Option<usize> {
        self.members.iter().position(|&m| m == world)
    }
}

#[derive(Debug)]
pub struct Communicator {
    /// Point-to-point context id (even); collectives use `ctx + 1`.
    pub ctx: u32,
    /// This process's rank in the communicator.
    pub rank: usize,
    pub group: Arc<Group>,
    /// Collectives started on this communicator so far. Every rank starts them in the same
    /// order, so the count names one collective instance job-wide: schedules put it in their
    /// tags, and nonblocking collectives in flight together never match each other's
    /// messages.
    coll_seq: std::sync::atomic::AtomicU32,
}

/// Result of comparing two communicators (MPI_Comm_compare).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Ident,
    Congruent,
    Similar,
    Unequal,
}

impl Communicator {
    pub fn new(ctx: u32, rank: usize, group: Arc<Group>) -> Self {
        Self {
            ctx,
            rank,
            group,
            coll_seq: Default::default(),
        }
    }

    /// The sequence number of the next collective on this communicator.
    ///
    /// A load and a store, not a locked read-modify-write: MPI requires the threads of a
    /// process to order their collective calls on one communicator, so no two calls race
    /// here; and a locked instruction would wait for the previous call's stores to the
    /// peers' cache lines to drain.
    pub fn next_coll_seq(&self) -> u32 {
        use std::sync::atomic::Ordering;
        let seq = self.coll_seq.load(Ordering::Relaxed);
        self.coll_seq.store(seq.wrapping_add(1), Ordering::Relaxed);
        seq
    }
    pub fn size(&self) -> usize {
        self.group.size()
    }
    pub fn coll_ctx(&self) -> u32 {
        self.ctx + 1
    }
    /// World rank of communicator rank `r` (the caller has checked `r < size`).
    pub fn world_rank(&self, r: usize) -> usize {
        self.group.members[r]
    }

    pub fn compare(a: &Communicator, b: &Communicator) -> Comparison {
        if a.ctx == b.ctx && a.group == b.group {
            Comparison::Ident
        } else if a.group == b.group {
            Comparison::Congruent
        } else {
            let mut x = a.group.members.clone();
            let mut y = b.group.members.clone();
            x.sort_unstable();
            y.sort_unstable();
            if x == y {
                Comparison::Similar
            } else {
                Comparison::Unequal
            }
        }
    }
}

/// Order the (color, key, parent rank) triples of one color as MPI_Comm_split does:
/// by key, ties by parent rank. Returns the parent ranks in new-rank order.
pub fn split_order(entries: &[(i32, i32)], color: i32) -> Vec<usize> {
    let mut v: Vec<(i32, usize)> = entries
        .iter()
        .enumerate()
        .filter(|(_, (c, _))| *c == color)
        .map(|(r, (_, k))| (*k, r))
        .collect();
    v.sort();
    v.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_orders_by_key_then_rank() {
        let e = [(0, 5), (1, 0), (0, 1), (0, 5), (1, -3)];
        assert_eq!(split_order(&e, 0), vec![2, 0, 3]);
        assert_eq!(split_order(&e, 1), vec![4, 1]);
        assert!(split_order(&e, 7).is_empty());
    }

    #[test]
    fn compare_classifies() {
        let g = |m: Vec<usize>| Arc::new(Group::new(m));
        let a = Communicator::new(0, 0, g(vec![0, 1, 2]));
        let b = Communicator::new(4, 0, g(vec![0, 1, 2]));
        let c = Communicator::new(6, 0, g(vec![2, 1, 0]));
        let d = Communicator::new(8, 0, g(vec![0, 1]));
        assert_eq!(Communicator::compare(&a, &a), Comparison::Ident);
        assert_eq!(Communicator::compare(&a, &b), Comparison::Congruent);
        assert_eq!(Communicator::compare(&a, &c), Comparison::Similar);
        assert_eq!(Communicator::compare(&a, &d), Comparison::Unequal);
    }
}
