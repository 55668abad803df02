//! comm: groups and communicators. A communicator is a group plus a context id; traffic
//! carries the context so it never crosses communicators. Collectives use `ctx + 1`.
//!
//! An intercommunicator (MPI-3.1 §6.6) has a local group (its members' ranks, `size`) and
//! a remote group (the ranks point-to-point names, `peer_size`); it carries an
//! intracommunicator over its local group (context `ctx + 2`) for the local phases of its
//! collectives and the runtime's agreements.

pub mod attributes;
pub mod context;
pub mod group;
pub mod topology;

use crate::error::Result;
use crate::mpi_err;
pub use context::{room, MAX_LIVE, NO_ROOM};
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
    /// This process's rank in the communicator (in the local group).
    pub rank: usize,
    /// The (local) group.
    pub group: Arc<Group>,
    /// The processes point-to-point ranks name: the remote group of an intercommunicator,
    /// else `group` itself.
    pub peers: Arc<Group>,
    /// An intercommunicator's intracommunicator over its local group.
    local: Option<Arc<Communicator>>,
    /// Collectives of each kind (`coll::KIND_*`, modulo `SEQ_KINDS`) started on this
    /// communicator so far. Every rank starts them in the same order, so the count names
    /// one collective instance job-wide: schedules put it (and the kind) in their tags, and
    /// nonblocking collectives in flight together never match each other's messages. One
    /// count per kind, not one for all: collectives of different kinds then line up even
    /// where ranks interleave them differently (an MPI_Iallreduce started before a barrier
    /// on one rank and after it on another: mpi4py's ULFM fallback, which MPICH's fixed
    /// barrier tags let pass).
    coll_seq: [std::sync::atomic::AtomicU32; SEQ_KINDS],
    /// Whether the members belong to more than one job (MPI-2 dynamic processes), once
    /// asked: 0 not yet, 1 no, 2 yes (see `spans_jobs`).
    spans: std::sync::atomic::AtomicU8,
}

/// A context id no communicator uses: the stand-in's behind an MPI_Comm_idup handle until
/// the agreement completes (`Communicator::pending`).
const CTX_PENDING: u32 = u32::MAX - 7;

/// MPI_Comm_split_type's kinds (MPI-4.0 §7.4.2), as the split sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitType {
    /// MPI_UNDEFINED: this process takes part and gets no communicator.
    Undefined,
    /// MPI_COMM_TYPE_SHARED: the processes that share memory (this node's).
    Shared,
    /// MPI_COMM_TYPE_HW_UNGUIDED: the node, if it is a strict subset of the parent.
    HwUnguided,
    /// MPI_COMM_TYPE_HW_GUIDED and _RESOURCE_GUIDED: by the resource the info key
    /// "mpi_hw_resource_type" names (None: no key, or MPI_INFO_NULL).
    Guided(Option<String>),
}

impl SplitType {
    /// Whether this process joins its node's communicator. The only resource railmpi
    /// knows is the reserved "mpi_shared_memory" (MPI_COMM_TYPE_SHARED); any other, or
    /// none, gives MPI_COMM_NULL. (Every process still takes part in the one collective
    /// split, whatever it passed.)
    pub fn joins(&self) -> bool {
        match self {
            SplitType::Undefined => false,
            SplitType::Shared | SplitType::HwUnguided => true,
            SplitType::Guided(r) => r.as_deref() == Some("mpi_shared_memory"),
        }
    }

    /// Whether the node's communicator `new` (of `parent`) is kept: always, but for
    /// HW_UNGUIDED, which must split (a strict subset).
    pub fn keeps(&self, new: &Communicator, parent: &Communicator) -> bool {
        *self != SplitType::HwUnguided || new.size() < parent.size()
    }
}

/// Kinds of collective with a sequence of their own (`Communicator::coll_seq`).
const SEQ_KINDS: usize = 16;

/// Result of comparing two communicators (MPI_Comm_compare).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Ident,
    Congruent,
    Similar,
    Unequal,
}

impl Drop for Communicator {
    fn drop(&mut self) {
        context::dropped(self.ctx);
    }
}

impl Communicator {
    pub fn new(ctx: u32, rank: usize, group: Arc<Group>) -> Self {
        context::made();
        Self {
            ctx,
            rank,
            peers: group.clone(),
            group,
            local: None,
            coll_seq: Default::default(),
            spans: Default::default(),
        }
    }

    /// An intercommunicator on contexts `ctx` (point-to-point), `ctx + 1` (collectives)
    /// and `ctx + 2` (its local intracommunicator): the caller has agreed on all of them
    /// with both groups.
    pub fn new_inter(ctx: u32, rank: usize, local: Arc<Group>, remote: Arc<Group>) -> Self {
        let intra = Arc::new(Communicator::new(ctx + 2, rank, local.clone()));
        context::made();
        Self {
            ctx,
            rank,
            group: local,
            peers: remote,
            local: Some(intra),
            coll_seq: Default::default(),
            spans: Default::default(),
        }
    }

    /// The stand-in behind an MPI_Comm_idup handle until its context is agreed: `parent`'s
    /// groups on a context no communicator uses (MPI forbids using the handle before).
    pub fn pending(parent: &Communicator) -> Self {
        let (rank, group) = (parent.rank, parent.group.clone());
        match parent.remote_group() {
            Some(r) => Communicator::new_inter(CTX_PENDING, rank, group, r.clone()),
            None => Communicator::new(CTX_PENDING, rank, group),
        }
    }

    /// Whether some member (of either group) is a process of another job than ours, whose
    /// ranks are numbered from `job_size` on (`runtime::dynamic`): every member answers
    /// alike (it is a property of the member set), so a choice made from it is common.
    pub fn spans_jobs(&self, job_size: usize) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        match self.spans.load(Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let spans = self
                    .group
                    .members
                    .iter()
                    .chain(&self.peers.members)
                    .any(|&m| m >= job_size);
                self.spans.store(if spans { 2 } else { 1 }, Relaxed);
                spans
            }
        }
    }

    pub fn is_inter(&self) -> bool {
        self.local.is_some()
    }

    /// The intracommunicator over the local group: the communicator itself unless it is
    /// an intercommunicator.
    pub fn local_comm(&self) -> &Communicator {
        self.local.as_deref().unwrap_or(self)
    }

    /// The remote group of an intercommunicator.
    pub fn remote_group(&self) -> Option<&Arc<Group>> {
        self.is_inter().then_some(&self.peers)
    }

    /// How many ranks point-to-point may name (the remote group's size on an
    /// intercommunicator).
    pub fn peer_size(&self) -> usize {
        self.peers.size()
    }

    /// Rank `r` as point-to-point names a peer (of the remote group on an
    /// intercommunicator): MPI_ERR_RANK unless it is one.
    #[inline]
    pub fn peer_rank(&self, r: i32) -> Result<usize> {
        let n = self.peer_size();
        if r < 0 || r as usize >= n {
            return mpi_err!(Rank, "invalid rank {r} (communicator size {n})");
        }
        Ok(r as usize)
    }

    /// The sequence number of the next collective of kind `kind` on this communicator.
    ///
    /// A load and a store, not a locked read-modify-write: MPI requires the threads of a
    /// process to order their collective calls on one communicator, so no two calls race
    /// here; and a locked instruction would wait for the previous call's stores to the
    /// peers' cache lines to drain.
    pub fn next_coll_seq(&self, kind: i32) -> u32 {
        use std::sync::atomic::Ordering;
        let count = &self.coll_seq[kind as usize % SEQ_KINDS];
        let seq = count.load(Ordering::Relaxed);
        count.store(seq.wrapping_add(1), Ordering::Relaxed);
        seq
    }

    /// Undo the last `next_coll_seq`: a collective call refused by its argument checks,
    /// before it sent or posted anything, takes no place in the order (as in MPICH, whose
    /// calls take none before their checks pass). Only for the call that took the last
    /// number (MPI orders a process's collective calls on a communicator).
    pub fn give_back_coll_seq(&self, kind: i32) {
        use std::sync::atomic::Ordering;
        let count = &self.coll_seq[kind as usize % SEQ_KINDS];
        let seq = count.load(Ordering::Relaxed);
        count.store(seq.wrapping_sub(1), Ordering::Relaxed);
    }

    pub fn size(&self) -> usize {
        self.group.size()
    }
    pub fn coll_ctx(&self) -> u32 {
        self.ctx + 1
    }
    /// World rank of the process point-to-point rank `r` names (the caller has checked
    /// `r < peer_size`): in the remote group of an intercommunicator.
    pub fn world_rank(&self, r: usize) -> usize {
        self.peers.members[r]
    }

    /// World rank of local-group rank `r` (the same as `world_rank` on an
    /// intracommunicator).
    pub fn local_world_rank(&self, r: usize) -> usize {
        self.group.members[r]
    }

    /// MPI_Comm_compare: intercommunicators compare both groups (MPI-3.1 §6.4.1); an
    /// intercommunicator and an intracommunicator are unequal.
    pub fn compare(a: &Communicator, b: &Communicator) -> Comparison {
        if a.is_inter() != b.is_inter() {
            return Comparison::Unequal;
        }
        let same = a.group == b.group && a.peers == b.peers;
        if a.ctx == b.ctx && same {
            Comparison::Ident
        } else if same {
            Comparison::Congruent
        } else if similar(&a.group, &b.group) && similar(&a.peers, &b.peers) {
            Comparison::Similar
        } else {
            Comparison::Unequal
        }
    }
}

/// The same members in any order.
fn similar(a: &Group, b: &Group) -> bool {
    let mut x = a.members.clone();
    let mut y = b.members.clone();
    x.sort_unstable();
    y.sort_unstable();
    x == y
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
    fn split_types_join_the_node() {
        let g = |m: Vec<usize>| Arc::new(Group::new(m));
        let parent = Communicator::new(0, 0, g(vec![0, 1, 2]));
        let (whole, part) = (
            Communicator::new(4, 0, g(vec![0, 1, 2])),
            Communicator::new(6, 0, g(vec![0, 1])),
        );
        let guided = |r: &str| SplitType::Guided(Some(r.into()));
        assert!(SplitType::Shared.joins() && SplitType::HwUnguided.joins());
        assert!(guided("mpi_shared_memory").joins());
        assert!(!guided("socket").joins() && !SplitType::Guided(None).joins());
        assert!(!SplitType::Undefined.joins());
        assert!(SplitType::Shared.keeps(&whole, &parent));
        assert!(!SplitType::HwUnguided.keeps(&whole, &parent));
        assert!(SplitType::HwUnguided.keeps(&part, &parent));
    }

    #[test]
    fn pending_keeps_the_parents_groups() {
        let g = |m: Vec<usize>| Arc::new(Group::new(m));
        let x = Communicator::new_inter(8, 1, g(vec![0, 2]), g(vec![5, 3, 1]));
        let p = Communicator::pending(&x);
        assert!(p.is_inter() && p.ctx == CTX_PENDING);
        assert_eq!(Communicator::compare(&x, &p), Comparison::Congruent);
        let intra = Communicator::new(8, 1, g(vec![0, 2]));
        assert!(!Communicator::pending(&intra).is_inter());
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

    #[test]
    fn intercommunicators_name_the_remote_group() {
        let g = |m: Vec<usize>| Arc::new(Group::new(m));
        let x = Communicator::new_inter(8, 1, g(vec![0, 2]), g(vec![5, 3, 1]));
        assert!(x.is_inter());
        assert_eq!((x.size(), x.peer_size()), (2, 3));
        // Point-to-point ranks name the remote group.
        assert_eq!(x.peer_rank(2), Ok(2));
        assert_eq!(
            x.peer_rank(3).unwrap_err().class,
            crate::error::ErrorClass::Rank
        );
        assert_eq!(
            x.peer_rank(-1).unwrap_err().class,
            crate::error::ErrorClass::Rank
        );
        assert_eq!((x.world_rank(2), x.local_world_rank(1)), (1, 2));
        assert_eq!(x.local_comm().ctx, 10);
        assert!(!x.local_comm().is_inter());
        let same = Communicator::new_inter(12, 1, g(vec![0, 2]), g(vec![5, 3, 1]));
        let shuffled = Communicator::new_inter(12, 1, g(vec![2, 0]), g(vec![1, 3, 5]));
        let other = Communicator::new_inter(12, 1, g(vec![0, 2]), g(vec![5, 3]));
        assert_eq!(Communicator::compare(&x, &x), Comparison::Ident);
        assert_eq!(Communicator::compare(&x, &same), Comparison::Congruent);
        assert_eq!(Communicator::compare(&x, &shuffled), Comparison::Similar);
        assert_eq!(Communicator::compare(&x, &other), Comparison::Unequal);
        let intra = Communicator::new(8, 1, g(vec![0, 2]));
        assert_eq!(Communicator::compare(&x, &intra), Comparison::Unequal);
    }
}
