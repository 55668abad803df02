//! Communicator creation beyond dup/split: MPI_Comm_create, MPI_Comm_create_group (whose
//! agreement runs over the group's members only), MPI_Comm_split_type, the leading subset
//! a topology constructor keeps, and the variable-size allgather those constructors use.

use super::World;
use crate::coll::{self, CollTransport};
use crate::comm::context::{GROUP_CTXS, GROUP_CTX_FIRST};
use crate::comm::{Communicator, Group, SplitType};
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::{MsgBuf, Owner};
use std::collections::HashMap;
use std::sync::Arc;

/// The tag of create_group's agreement messages for `round` (0: proposals, 1: verdicts),
/// which travel on the parent's collective context: negative, so they never meet the
/// collectives' own (non-negative) tags, and carrying the user's tag, which keeps
/// concurrent calls of different threads apart. Messages name their sender by parent rank,
/// so calls on different (even overlapping) groups never take each other's messages.
fn agreement_tag(tag: i32, round: i32) -> i32 {
    i32::MIN | (round << 30) | (tag & 0x3fff_ffff)
}

impl World {
    /// MPI_Comm_free of `comm`'s handle (its requests tagged `owner`), unless a persistent
    /// request may still start rounds on it: messages sent on it that no receive took would wait in the unexpected
    /// queue for ever (and could match a communicator that later gets its context id:
    /// MPI_Comm_create_group's ids come back). They are received and dropped, as MPICH
    /// does, and the call fails with MPI_ERR_OTHER saying how many (a message nobody
    /// receives is the program's error, found where it can still be named; the
    /// communicator is freed all the same).
    pub fn drop_unmatched(&self, comm: &Communicator, owner: Owner) -> Result<()> {
        if super::requests::rounds_to_come(owner) {
            return Ok(());
        }
        let mut n = 0usize;
        while let Some((msg, _)) = self.improbe(comm, None, None) {
            // SAFETY: an empty buffer: nothing is written (a longer message is truncated,
            // which completes it all the same).
            let req = unsafe { self.mrecv(msg, MsgBuf::contig(std::ptr::null(), 0), Owner::NONE) };
            if let Some(req) = req {
                self.wait(req);
            }
            n += 1;
        }
        match n {
            0 => Ok(()),
            n => mpi_err!(
                Other,
                "the communicator being freed has {n} unmatched message(s): received and dropped"
            ),
        }
    }

    /// MPI_Comm_create (collective over `parent`): the members of `group` (a subset of the
    /// parent's; groups may differ between processes as long as they are disjoint) get a
    /// communicator over it, the others None.
    pub fn comm_create(
        &self,
        parent: &Communicator,
        group: Arc<Group>,
    ) -> Result<Option<Arc<Communicator>>> {
        if parent.is_inter() {
            return self.intercomm_create_sub(parent, group);
        }
        let ctx = self.new_context(parent)?;
        Ok(group
            .rank_of(self.rank)
            .map(|r| Arc::new(Communicator::new(ctx.keep(), r, group))))
    }

    /// MPI_Comm_create_group: collective over the members of `group` only (a subset of
    /// `parent`'s); a caller outside the group gets None.
    pub fn comm_create_group(
        &self,
        parent: &Communicator,
        group: Arc<Group>,
        tag: i32,
    ) -> Result<Option<Arc<Communicator>>> {
        let Some(me) = group.rank_of(self.rank) else {
            return Ok(None);
        };
        let pos: HashMap<usize, usize> = parent
            .group
            .members
            .iter()
            .enumerate()
            .map(|(i, &w)| (w, i))
            .collect();
        let peers = group
            .members
            .iter()
            .map(|w| pos.get(w).copied())
            .collect::<Option<Vec<usize>>>();
        let Some(peers) = peers else {
            return mpi_err!(Group, "the group is not a subset of the communicator's");
        };
        let mut floor = GROUP_CTX_FIRST;
        let ctx = loop {
            let proposal = match crate::comm::room() {
                true => GROUP_CTXS.lock().lowest_free(floor, 1),
                false => crate::comm::NO_ROOM,
            };
            let c = self.reduce_over(
                parent,
                &peers,
                me,
                agreement_tag(tag, 0),
                proposal,
                u32::max,
            )?;
            let c = crate::comm::context::agreed(c)?;
            let free_here = GROUP_CTXS.lock().reserve(c, 1);
            let everywhere = self.reduce_over(
                parent,
                &peers,
                me,
                agreement_tag(tag, 1),
                free_here as u32,
                u32::min,
            )?;
            if everywhere == 1 {
                break c;
            }
            if free_here {
                GROUP_CTXS.lock().release(c, 1);
            }
            floor = c + 2;
        };
        Ok(Some(Arc::new(Communicator::new(ctx, me, group))))
    }

    /// `value` combined by `op` over the processes `peers` (parent ranks; this process is
    /// `peers[me]`): a binomial reduction to `peers[0]` and a binomial broadcast back, on
    /// the parent's collective context with tag `tag`.
    fn reduce_over(
        &self,
        parent: &Communicator,
        peers: &[usize],
        me: usize,
        tag: i32,
        value: u32,
        op: fn(u32, u32) -> u32,
    ) -> Result<u32> {
        let n = peers.len();
        let mut acc = value;
        let mut buf = [0u8; 4];
        let mut mask = 1;
        while mask < n {
            if me & mask != 0 {
                CollTransport::send(self, parent, peers[me - mask], tag, &acc.to_le_bytes())?;
                break;
            }
            if me + mask < n {
                CollTransport::recv(self, parent, peers[me + mask], tag, &mut buf)?;
                acc = op(acc, u32::from_le_bytes(buf));
            }
            mask <<= 1;
        }
        // Broadcast from peers[0]: receive from the parent in the tree, pass on below.
        let mut mask = 1;
        while mask < n {
            if me & mask != 0 {
                CollTransport::recv(self, parent, peers[me - mask], tag, &mut buf)?;
                acc = u32::from_le_bytes(buf);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while mask > 0 {
            if me + mask < n {
                CollTransport::send(self, parent, peers[me + mask], tag, &acc.to_le_bytes())?;
            }
            mask >>= 1;
        }
        Ok(acc)
    }

    /// MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) (collective): the processes of this node,
    /// ordered by key, then parent rank; None for `undefined` (MPI_UNDEFINED).
    pub fn comm_split_shared(
        &self,
        parent: &Communicator,
        undefined: bool,
        key: i32,
    ) -> Result<Option<Arc<Communicator>>> {
        let color = (!undefined).then(|| node_color(&self.processor_name));
        self.comm_split(parent, color, key)
    }

    /// MPI_Comm_split_type (collective): this node's processes split off by `kind`'s rules.
    pub fn comm_split_type(
        &self,
        parent: &Communicator,
        kind: SplitType,
        key: i32,
    ) -> Result<Option<Arc<Communicator>>> {
        let c = self.comm_split_shared(parent, !kind.joins(), key)?;
        Ok(c.filter(|c| kind.keeps(c, parent)))
    }

    /// The first `n` processes of `parent`, in order, as a new communicator (collective;
    /// the others get None): what the topology constructors keep without reordering.
    pub fn comm_first(&self, parent: &Communicator, n: usize) -> Result<Option<Arc<Communicator>>> {
        let ctx = self.new_context(parent)?;
        if parent.rank >= n {
            return Ok(None);
        }
        let group = if n == parent.size() {
            parent.group.clone()
        } else {
            Arc::new(Group::new(parent.group.members[..n].to_vec()))
        };
        Ok(Some(Arc::new(Communicator::new(
            ctx.keep(),
            parent.rank,
            group,
        ))))
    }

    /// Allgather of byte strings of any length (collective over `comm`): everyone's, in
    /// rank order.
    pub fn allgather_bytes(&self, comm: &Communicator, mine: &[u8]) -> Result<Vec<Vec<u8>>> {
        let (n, r) = (comm.size(), comm.rank);
        let mut lens = vec![0u8; 8 * n];
        lens[8 * r..8 * r + 8].copy_from_slice(&(mine.len() as u64).to_le_bytes());
        coll::direct::allgather(self, comm, coll::TAG_RUNTIME_ALLGATHER, &mut lens)?;
        let lens: Vec<usize> = lens
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()) as usize)
            .collect();
        let max = lens.iter().copied().max().unwrap_or(0);
        if max == 0 {
            return Ok(vec![Vec::new(); n]);
        }
        let mut all = vec![0u8; max * n];
        all[r * max..r * max + mine.len()].copy_from_slice(mine);
        coll::direct::allgather(self, comm, coll::TAG_RUNTIME_ALLGATHER, &mut all)?;
        Ok((0..n)
            .map(|i| all[i * max..i * max + lens[i]].to_vec())
            .collect())
    }
}

/// The split colour of this node: a hash of its host name (non-negative, as colours are).
pub(super) fn node_color(host: &str) -> i32 {
    // FNV-1a: the same on every process, whatever the build.
    let h = host.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    });
    (h & 0x7fff_ffff) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_tags_are_negative_and_distinct() {
        assert!(agreement_tag(0, 0) < 0 && agreement_tag(i32::MAX, 1) < 0);
        assert_ne!(agreement_tag(0, 0), agreement_tag(1, 0));
        assert_ne!(agreement_tag(5, 0), agreement_tag(5, 1));
        assert!(node_color("a") >= 0 && node_color("a") != node_color("b"));
    }
}
