//! Dynamic processes (MPI-4.1 §11): ports, MPI_Comm_accept / MPI_Comm_connect,
//! MPI_Comm_join and MPI_Comm_disconnect — two groups of processes, of one job or of two,
//! joined by an intercommunicator.
//!
//! - Every process has a job-wide name, its `Gpid` (the job's id and its rank there); peers
//!   are numbered here in order of acquaintance: the job's ranks first (a peer's number is
//!   its world rank), then the processes of other jobs as they join (`Peers`). Member lists
//!   that cross between processes carry Gpids, never local numbers.
//! - A port (`port.rs`) is a listening socket and a token: its name carries both, and a
//!   connector proves the token (HMAC challenge–response, as the tcp rail proves the job's
//!   secret) before it is heard.
//! - Accept and connect (`connect.rs`): each group gathers its members' cards (`card.rs`:
//!   Gpid, host, and where a fresh tcp listener of theirs waits), the roots swap them over
//!   the port's connection with a secret for the link, then agree on a context id with
//!   both groups (`runtime::contexts`, the roots exchanging each round on that connection);
//!   every member then opens one tcp rail over the union of both groups (numbered
//!   acceptors first) and adds the processes it did not know as peers reached over it (as
//!   MPICH's ch3 reaches other process groups through its network module, whatever the
//!   host). Processes of the same job keep their rails.
//! - Those peers' rendezvous stream instead of moving by RDMA: the new rail's key table
//!   keys none of the registrations made so far (`Pt2pt::add_peer`), and windows spanning
//!   them are refused.
//! - The parent (a spawned job's link to its spawners) is `World::parent`; the handle the
//!   application knows it by follows `ParentHandle`'s states.

pub mod card;
mod connect;

pub use connect::SpawnCmd;
pub mod port;

use crate::comm::Communicator;
use parking_lot::{Mutex, RwLock};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Weak};

/// A process's name across jobs: its job's id and its rank in that job's MPI_COMM_WORLD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Gpid {
    pub job: u64,
    pub rank: u32,
}

/// The processes this one knows: the job's ranks (peer `r` is world rank `r`), then those
/// of other jobs, numbered as they joined.
pub struct Peers {
    job: u64,
    size: usize,
    later: RwLock<Later>,
}

#[derive(Default)]
struct Later {
    /// Peer `size + i` is `gpids[i]`.
    gpids: Vec<Gpid>,
    index: FxHashMap<Gpid, usize>,
    /// The open links to other jobs: each one's rail and the peers it introduced.
    links: Vec<(usize, Vec<usize>)>,
    /// Joins (accept, connect, spawn, join) resolving their members now (`pin`): links
    /// close only when none does.
    pins: usize,
    /// The intercommunicators joins made, while they live: their peers are in use before
    /// the application's handle names them (the caller of `unused_links` knows only those),
    /// so another thread's disconnect does not close the link a join just made or found.
    joined: Vec<Weak<Communicator>>,
}

/// A join resolving its members (`Peers::pin`).
pub(crate) struct Pin<'a>(&'a Peers);

impl Drop for Pin<'_> {
    fn drop(&mut self) {
        self.0.later.write().pins -= 1;
    }
}

impl Peers {
    pub fn new(job: u64, size: usize) -> Self {
        Peers {
            job,
            size,
            later: RwLock::new(Later::default()),
        }
    }

    pub fn job(&self) -> u64 {
        self.job
    }

    /// The name of peer `index` (one this process numbered).
    pub fn gpid(&self, index: usize) -> Gpid {
        if index < self.size {
            return Gpid {
                job: self.job,
                rank: index as u32,
            };
        }
        self.later.read().gpids[index - self.size]
    }

    /// The number of the process named `g`, if it is known here.
    pub fn index(&self, g: Gpid) -> Option<usize> {
        if g.job == self.job {
            return ((g.rank as usize) < self.size).then_some(g.rank as usize);
        }
        self.later.read().index.get(&g).copied()
    }

    /// Rail `rail` was opened for the peers `peers` (a join).
    pub(crate) fn linked(&self, rail: usize, peers: Vec<usize>) {
        self.later.write().links.push((rail, peers));
    }

    /// A join looks its members up and links to the unknown ones: no link closes until the
    /// pin drops (after `joined`).
    pub(crate) fn pin(&self) -> Pin<'_> {
        self.later.write().pins += 1;
        Pin(self)
    }

    /// A join made `comm`: its peers are in use while it lives.
    pub(crate) fn joined(&self, comm: &Arc<Communicator>) {
        let mut l = self.later.write();
        l.joined.retain(|c| c.strong_count() > 0);
        l.joined.push(Arc::downgrade(comm));
    }

    /// The links none of whose peers `in_use` or a live join's intercommunicator still
    /// names, taken off the table with their peers forgotten (a later join numbers those
    /// afresh, over a new link): the rails to close. None while a join is pinned: it may
    /// have found its peers on one of them.
    pub(crate) fn unused_links(&self, in_use: &dyn Fn(usize) -> bool) -> Vec<usize> {
        let mut l = self.later.write();
        if l.pins > 0 {
            return Vec::new();
        }
        l.joined.retain(|c| c.strong_count() > 0);
        let joined: Vec<usize> = l
            .joined
            .iter()
            .filter_map(Weak::upgrade)
            .flat_map(|c| c.peers.members.clone())
            .collect();
        let (unused, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut l.links)
            .into_iter()
            .partition(|(_, peers)| !peers.iter().any(|&p| in_use(p) || joined.contains(&p)));
        l.links = kept;
        for (_, peers) in &unused {
            for &p in peers {
                if let Some(&g) = l.gpids.get(p - self.size) {
                    l.index.remove(&g);
                }
            }
        }
        unused.into_iter().map(|(rail, _)| rail).collect()
    }

    /// Number `g`, a process of another job: `index` is the number the channels gave it
    /// (the next, which this table confirms).
    fn add(&self, g: Gpid, index: usize) {
        let mut l = self.later.write();
        assert_eq!(index, self.size + l.gpids.len(), "peers numbered in order");
        l.gpids.push(g);
        l.index.insert(g, index);
    }
}

/// The parent intercommunicator's handle (`H`: the C surface's): made at the first
/// MPI_Comm_get_parent, gone once the application frees or disconnects it (then none, as
/// MPI says: MPI_COMM_NULL), never made again.
pub struct ParentHandle<H>(Mutex<ParentState<H>>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ParentState<H> {
    Unmade,
    Made(H),
    Gone,
}

impl<H: Copy + PartialEq> ParentHandle<H> {
    pub const fn new() -> Self {
        ParentHandle(Mutex::new(ParentState::Unmade))
    }

    /// MPI_Comm_get_parent: the handle made before, else (the first time, in a job that has
    /// a `parent`) the one `make` makes of it; None without a parent or once it is gone.
    pub fn get(
        &self,
        parent: Option<&Arc<Communicator>>,
        make: impl FnOnce(&Arc<Communicator>) -> H,
    ) -> Option<H> {
        let mut p = self.0.lock();
        match (*p, parent) {
            (ParentState::Made(h), _) => Some(h),
            (ParentState::Unmade, Some(c)) => {
                let h = make(c);
                *p = ParentState::Made(h);
                Some(h)
            }
            _ => None,
        }
    }

    /// Handle `h` is being freed (MPI_Comm_free, MPI_Comm_disconnect): if it is the
    /// parent's, the parent is gone.
    pub fn forget(&self, h: H) {
        let mut p = self.0.lock();
        if *p == ParentState::Made(h) {
            *p = ParentState::Gone;
        }
    }

    /// No handle was made yet: the parent may still be asked for, so its link is needed.
    pub fn unmade(&self) -> bool {
        *self.0.lock() == ParentState::Unmade
    }
}

impl<H: Copy + PartialEq> Default for ParentHandle<H> {
    fn default() -> Self {
        Self::new()
    }
}

/// The job's id, the same at every rank: drawn from what the launcher gave all of them
/// alike (the kvsname names the job on its launcher's host, the secret is drawn afresh per
/// job); a singleton draws its own.
pub fn job_id(kvsname: &str, secret: Option<&[u8]>, singleton: bool) -> u64 {
    use std::hash::{Hash, Hasher};
    if singleton {
        return u64::from_le_bytes(crate::fabric::tcp::random());
    }
    // SipHash with fixed keys: every rank runs this library, so every rank gets the same.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    kvsname.hash(&mut h);
    secret.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_number_the_job_then_later_processes() {
        let p = Peers::new(7, 3);
        assert_eq!(p.gpid(2), Gpid { job: 7, rank: 2 });
        assert_eq!(p.index(Gpid { job: 7, rank: 1 }), Some(1));
        assert_eq!(p.index(Gpid { job: 7, rank: 3 }), None);
        let other = Gpid { job: 9, rank: 0 };
        assert_eq!(p.index(other), None);
        p.add(other, 3);
        assert_eq!(p.index(other), Some(3));
        assert_eq!(p.gpid(3), other);
    }

    #[test]
    fn links_close_only_when_no_join_needs_them() {
        let p = Peers::new(7, 2);
        let other = Gpid { job: 9, rank: 0 };
        p.add(other, 2);
        p.linked(5, vec![2]);
        let nobody = |_: usize| false;
        // A join resolving its members (it may have found peer 2 on rail 5): nothing closes.
        let pin = p.pin();
        assert!(p.unused_links(&nobody).is_empty());
        // Its intercommunicator, not yet named by the application's handles, keeps rail 5.
        let g = |m: Vec<usize>| Arc::new(crate::comm::Group::new(m));
        let inter = Arc::new(Communicator::new_inter(
            (1 << 29) + 64,
            0,
            g(vec![0]),
            g(vec![2]),
        ));
        p.joined(&inter);
        drop(pin);
        assert!(p.unused_links(&nobody).is_empty());
        assert!(p.unused_links(&|q| q == 2).is_empty());
        // Gone, and named by no handle: the link closes, its peer forgotten.
        drop(inter);
        assert_eq!(p.unused_links(&nobody), vec![5]);
        assert_eq!(p.index(other), None);
    }

    #[test]
    fn the_parent_handle_is_made_once_and_forgotten_for_good() {
        let parent = Arc::new(Communicator::new(
            1,
            0,
            Arc::new(crate::comm::Group::new(vec![0])),
        ));
        let p = ParentHandle::<i32>::new();
        assert_eq!(p.get(None, |_| 5), None);
        assert!(p.unmade());
        assert_eq!(p.get(Some(&parent), |_| 5), Some(5));
        assert_eq!(p.get(Some(&parent), |_| 6), Some(5));
        assert!(!p.unmade());
        p.forget(4);
        assert_eq!(p.get(Some(&parent), |_| 6), Some(5));
        p.forget(5);
        assert_eq!(p.get(Some(&parent), |_| 6), None);
        assert!(!p.unmade());
    }

    #[test]
    fn job_ids_agree_within_a_job_and_differ_between() {
        assert_eq!(
            job_id("kvs_1", Some(b"s"), false),
            job_id("kvs_1", Some(b"s"), false)
        );
        assert_ne!(
            job_id("kvs_1", Some(b"s"), false),
            job_id("kvs_1", Some(b"t"), false)
        );
        assert_ne!(job_id("kvs_1", None, false), job_id("kvs_2", None, false));
    }
}
