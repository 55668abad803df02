//! Intercommunicators (MPI-3.1 §6.6): MPI_Intercomm_create, MPI_Intercomm_merge, and the
//! intercommunicator forms of MPI_Comm_split and MPI_Comm_create. The two groups agree
//! through their leaders: each group agrees within itself (on its local
//! intracommunicator), the leaders swap the result, and each broadcasts what it received.
//! Context ids are agreed over both groups that way (`runtime::contexts`), so no member of
//! either uses them yet.

use super::contexts::{Across, Line};
use super::dynamic::Gpid;
use super::World;
use crate::coll::{self, CollTransport};
use crate::comm::{split_order, Communicator, Group};
use crate::error::Result;
use crate::mpi_err;
use std::sync::Arc;

/// The far end of MPI_Intercomm_create, significant at the local leader only.
pub struct Bridge<'a> {
    pub peer_comm: &'a Communicator,
    /// The remote leader's rank in `peer_comm`.
    pub remote_leader: usize,
    pub tag: i32,
}

impl<'a> Bridge<'a> {
    /// The far end as the local leader names it: the remote leader's rank in `peer_comm`
    /// (None: MPI_PROC_NULL), which must be another process (MPI_ERR_RANK).
    pub fn new(peer_comm: &'a Communicator, remote: Option<usize>, tag: i32) -> Result<Self> {
        let Some(remote_leader) = remote else {
            return mpi_err!(Rank, "the remote leader cannot be MPI_PROC_NULL");
        };
        if !peer_comm.is_inter() && remote_leader == peer_comm.rank {
            return mpi_err!(Rank, "the remote leader is the local leader itself");
        }
        Ok(Bridge {
            peer_comm,
            remote_leader,
            tag,
        })
    }
}

/// MPI_Intercomm_create's local leader, a rank of `local_comm` (MPI_ERR_RANK).
pub fn local_leader(local_comm: &Communicator, leader: i32) -> Result<usize> {
    match usize::try_from(leader) {
        Ok(l) if l < local_comm.size() => Ok(l),
        _ => mpi_err!(
            Rank,
            "invalid local leader {leader} (communicator size {})",
            local_comm.size()
        ),
    }
}

fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn from_u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// A member list from `World::member_bytes`, as names.
fn gpids(b: &[u8]) -> Result<Vec<Gpid>> {
    if !b.len().is_multiple_of(12) {
        return mpi_err!(Intern, "a member list of the wrong size");
    }
    Ok(b.chunks_exact(12)
        .map(|c| Gpid {
            job: u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
            rank: u32::from_le_bytes(c[8..].try_into().expect("4 bytes")),
        })
        .collect())
}

impl World {
    /// A member list as it travels between processes: each member's name (`Gpid`: the
    /// numbers peers have here are this process's own).
    fn member_bytes(&self, g: &Group) -> Vec<u8> {
        let mut v = Vec::with_capacity(12 * g.size());
        for &m in &g.members {
            let id = self.peers.gpid(m);
            v.extend_from_slice(&id.job.to_le_bytes());
            v.extend_from_slice(&id.rank.to_le_bytes());
        }
        v
    }

    /// A member list from `member_bytes`, in our numbers: every member must be a process
    /// known here.
    fn members(&self, b: &[u8]) -> Result<Vec<usize>> {
        gpids(b)?
            .into_iter()
            .map(|id| match self.peers.index(id) {
                Some(i) => Ok(i),
                None => mpi_err!(
                    UnsupportedOperation,
                    "a remote member is a process of another job this process is not \
                     connected to (rank {} of job {:x})",
                    id.rank,
                    id.job
                ),
            })
            .collect()
    }

    /// Broadcast `buf` within `comm` (an intracommunicator) from `root`; its length is
    /// known everywhere.
    fn runtime_bcast(&self, comm: &Communicator, buf: &mut [u8], root: usize) -> Result<()> {
        coll::direct::bcast(self, comm, coll::TAG_RUNTIME_BCAST, buf, root)
    }

    /// A byte string of any length from `root` to every member of `comm`.
    pub(super) fn bcast_bytes(
        &self,
        comm: &Communicator,
        mine: Vec<u8>,
        root: usize,
    ) -> Result<Vec<u8>> {
        let mut len = (mine.len() as u64).to_le_bytes();
        self.runtime_bcast(comm, &mut len, root)?;
        let mut all = mine;
        all.resize(u64::from_le_bytes(len) as usize, 0);
        self.runtime_bcast(comm, &mut all, root)?;
        Ok(all)
    }

    /// Collective over both groups of `inter`: each group's leader sends `mine` (what its
    /// group agreed on) and every member gets the remote leader's.
    pub(super) fn swap_bytes(&self, inter: &Communicator, mine: &[u8]) -> Result<Vec<u8>> {
        let local = inter.local_comm();
        let mut theirs = Vec::new();
        if inter.rank == 0 {
            let tag = coll::TAG_RUNTIME_SWAP;
            let mut len = [0u8; 8];
            self.sendrecv(
                inter,
                0,
                &(mine.len() as u64).to_le_bytes(),
                0,
                &mut len,
                tag,
            )?;
            theirs = vec![0u8; u64::from_le_bytes(len) as usize];
            self.sendrecv(inter, 0, mine, 0, &mut theirs, tag)?;
        }
        self.bcast_bytes(local, theirs, 0)
    }

    /// `swap_bytes` of one number.
    pub(super) fn swap_u32(&self, inter: &Communicator, mine: u32) -> Result<u32> {
        let b = self.swap_bytes(inter, &mine.to_le_bytes())?;
        match from_u32s(&b)[..] {
            [x] => Ok(x),
            _ => mpi_err!(Intern, "intercommunicator agreement of the wrong size"),
        }
    }

    /// MPI_Intercomm_create (collective over both groups): `local_comm`'s group and the
    /// remote group the leaders learn from each other over `peer_comm` (`bridge`, given at
    /// the local leader only). Groups of more than one job join as accept and connect
    /// join them (`intercomm_join`): a member may not know every remote process yet.
    pub fn intercomm_create(
        &self,
        local_comm: &Communicator,
        local_leader: usize,
        bridge: Option<Bridge>,
    ) -> Result<Arc<Communicator>> {
        // The leader's verdict: [overlapping groups, join, acceptor side] and then the
        // remote members.
        let mut verdict = Vec::new();
        if local_comm.rank == local_leader {
            let Some(b) = &bridge else {
                return mpi_err!(Intern, "the local leader needs its peer communicator");
            };
            let mine = self.member_bytes(&local_comm.group);
            let (_, theirs) = self.leaders_swap(b, &[], &mine)?;
            let (ours, remote) = (gpids(&mine)?, gpids(&theirs)?);
            let overlap = remote.iter().any(|g| ours.contains(g));
            let mut jobs = ours.iter().chain(&remote).map(|g| g.job);
            let first = jobs.next();
            let join = jobs.any(|j| Some(j) != first);
            // Both leaders see both lists: the one of the lesser list accepts.
            let acceptor = ours < remote;
            verdict = u32s(&[overlap as u32, join as u32, acceptor as u32]);
            verdict.extend_from_slice(&theirs);
        }
        let verdict = self.bcast_bytes(local_comm, verdict, local_leader)?;
        if verdict.len() < 12 {
            return mpi_err!(Intern, "intercommunicator agreement of the wrong size");
        }
        let head = from_u32s(&verdict[..12]);
        if head[0] != 0 {
            return mpi_err!(
                Comm,
                "the local and remote groups of MPI_Intercomm_create overlap"
            );
        }
        if head[1] != 0 {
            return self.intercomm_join(local_comm, local_leader, head[2] != 0, |mine| {
                let b = bridge.as_ref().expect("the leader's (checked above)");
                Ok(self.leaders_swap(b, &[], mine)?.1)
            });
        }
        // The context, agreed by both groups, the leaders exchanging each round's result.
        let mut line = |mine: [u8; 8]| -> Result<[u8; 8]> {
            let b = bridge.as_ref().expect("the leader's (checked above)");
            let (peer, peer_comm) = (b.remote_leader, b.peer_comm);
            let mut theirs = [0u8; 8];
            self.sendrecv_on(
                peer_comm.ctx,
                peer_comm,
                peer,
                &mine,
                peer,
                &mut theirs,
                b.tag,
            )?;
            Ok(theirs)
        };
        let across = Across {
            root: local_leader,
            line: (local_comm.rank == local_leader).then_some(&mut line as &mut Line),
        };
        let ctx = self.agree_context(local_comm, Some(across), false)?;
        let remote = Arc::new(Group::new(self.members(&verdict[12..])?));
        Ok(Arc::new(Communicator::new_inter(
            ctx.keep(),
            local_comm.rank,
            local_comm.group.clone(),
            remote,
        )))
    }

    /// The leaders' exchange over the peer communicator, on the application's tag: a
    /// fixed header, then a member list of any length. Returns the remote's pair.
    fn leaders_swap(&self, b: &Bridge, head: &[u8], list: &[u8]) -> Result<(Vec<u8>, Vec<u8>)> {
        let (peer, ctx, tag) = (b.remote_leader, b.peer_comm.ctx, b.tag);
        let mut first = head.to_vec();
        first.extend_from_slice(&(list.len() as u64).to_le_bytes());
        let mut got = vec![0u8; first.len()];
        self.sendrecv_on(ctx, b.peer_comm, peer, &first, peer, &mut got, tag)?;
        let len = u64::from_le_bytes(got[head.len()..].try_into().expect("8 bytes"));
        let mut theirs = vec![0u8; len as usize];
        self.sendrecv_on(ctx, b.peer_comm, peer, list, peer, &mut theirs, tag)?;
        got.truncate(head.len());
        Ok((got, theirs))
    }

    /// MPI_Intercomm_merge (collective over both groups): the union of the groups as an
    /// intracommunicator, the group that passed `high` false first; when both passed the
    /// same value, the group whose leader has the lower name (job, then world rank).
    pub fn intercomm_merge(&self, inter: &Communicator, high: bool) -> Result<Arc<Communicator>> {
        let remote = inter.remote_group().expect("an intercommunicator").clone();
        let remote_high = self.swap_u32(inter, high as u32)? != 0;
        let ctx = self.new_context(inter)?;
        let local_first = if high != remote_high {
            !high
        } else {
            // By name: the two groups number each other's processes differently.
            self.peers.gpid(inter.group.members[0]) < self.peers.gpid(remote.members[0])
        };
        let (first, second) = match local_first {
            true => (&inter.group, &remote),
            false => (&remote, &inter.group),
        };
        let mut all = first.members.clone();
        all.extend_from_slice(&second.members);
        let rank = match local_first {
            true => inter.rank,
            false => remote.size() + inter.rank,
        };
        Ok(Arc::new(Communicator::new(
            ctx.keep(),
            rank,
            Arc::new(Group::new(all)),
        )))
    }

    /// MPI_Comm_split on an intercommunicator (collective over both groups): the local
    /// members of `color` (by key, then rank) and the remote members of the same color;
    /// None for MPI_UNDEFINED or when no remote member chose `color`.
    pub(super) fn intercomm_split(
        &self,
        inter: &Communicator,
        color: Option<i32>,
        key: i32,
    ) -> Result<Option<Arc<Communicator>>> {
        let local = inter.local_comm();
        let n = local.size();
        let mut all = vec![0u8; 8 * n];
        let c = color.unwrap_or(-1);
        all[8 * local.rank..8 * local.rank + 8].copy_from_slice(&u32s(&[c as u32, key as u32]));
        coll::direct::allgather(self, local, coll::TAG_RUNTIME_ALLGATHER, &mut all)?;
        let theirs = self.swap_bytes(inter, &all)?;
        let ctx = self.new_context(inter)?;
        let Some(color) = color else { return Ok(None) };
        let entries = |b: &[u8]| -> Vec<(i32, i32)> {
            from_u32s(b)
                .chunks_exact(2)
                .map(|p| (p[0] as i32, p[1] as i32))
                .collect()
        };
        let mine = split_order(&entries(&all), color);
        let remote = split_order(&entries(&theirs), color);
        if remote.is_empty() {
            return Ok(None);
        }
        let rank = mine
            .iter()
            .position(|&r| r == inter.rank)
            .expect("own color");
        let pick = |order: Vec<usize>, g: &Group| {
            Arc::new(Group::new(order.iter().map(|&r| g.members[r]).collect()))
        };
        let remote_group = inter.remote_group().expect("an intercommunicator");
        Ok(Some(Arc::new(Communicator::new_inter(
            ctx.keep(),
            rank,
            pick(mine, &inter.group),
            pick(remote, remote_group),
        ))))
    }

    /// MPI_Comm_create on an intercommunicator (collective over both groups): `group` (a
    /// subset of the local group, the same at every local member) and the subset the
    /// remote group passed; None outside `group` or when the remote subset is empty.
    pub(super) fn intercomm_create_sub(
        &self,
        inter: &Communicator,
        group: Arc<Group>,
    ) -> Result<Option<Arc<Communicator>>> {
        let theirs = self.swap_bytes(inter, &self.member_bytes(&group))?;
        let ctx = self.new_context(inter)?;
        let remote = self.members(&theirs)?;
        match group.rank_of(self.rank) {
            Some(rank) if !remote.is_empty() => Ok(Some(Arc::new(Communicator::new_inter(
                ctx.keep(),
                rank,
                group,
                Arc::new(Group::new(remote)),
            )))),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorClass;

    #[test]
    fn leaders_are_checked() {
        let g = |m: Vec<usize>| Arc::new(Group::new(m));
        let c = Communicator::new(0, 1, g(vec![0, 1, 2]));
        assert_eq!(local_leader(&c, 2).unwrap(), 2);
        for bad in [-1, 3] {
            assert_eq!(local_leader(&c, bad).err().unwrap().class, ErrorClass::Rank);
        }
        assert_eq!(Bridge::new(&c, Some(2), 7).unwrap().remote_leader, 2);
        for bad in [None, Some(1)] {
            assert_eq!(
                Bridge::new(&c, bad, 7).err().unwrap().class,
                ErrorClass::Rank
            );
        }
        // Over an intercommunicator the remote leader's rank names the other group.
        let x = Communicator::new_inter(8, 1, g(vec![0, 1]), g(vec![2, 3]));
        assert!(Bridge::new(&x, Some(1), 7).is_ok());
    }
}
