//! The Sessions model's rules (MPI-4.1 §11.3) without its handles: the process sets every
//! session has (`mpi://WORLD`, `mpi://SELF`) and their members, and communicators made
//! from groups without a parent communicator (MPI_Comm_create_from_group,
//! MPI_Intercomm_create_from_groups). Those are made over the runtime's own world
//! communicator, among the group's members only (as MPI_Comm_create_group), under a tag
//! derived from the string tag. The session handles and their error handlers are the C
//! surface's (src/abi/session.rs).

use super::intercomm::Bridge;
use super::World;
use crate::comm::{Communicator, Group};
use crate::error::Result;
use crate::mpi_err;
use std::sync::Arc;

/// The process sets every session has, in MPI_Session_get_nth_pset's order.
pub const PSETS: [&str; 2] = ["mpi://WORLD", "mpi://SELF"];

/// The name of process set `n` (MPI_Session_get_nth_pset), MPI_ERR_ARG past the last.
pub fn nth_pset(n: i32) -> Result<&'static str> {
    match usize::try_from(n).ok().and_then(|n| PSETS.get(n)) {
        Some(name) => Ok(name),
        None => mpi_err!(Arg, "no process set {n} (there are {})", PSETS.len()),
    }
}

/// The members of process set `name` (world ranks of a job of `size` where this process
/// is `rank`), MPI_ERR_ARG for a name not known.
pub fn pset_members(name: &str, rank: usize, size: usize) -> Result<Vec<usize>> {
    // Process set names compare without regard to case (MPICH's test/mpi asks for
    // "mpi://self").
    match name.to_ascii_lowercase().as_str() {
        "mpi://world" => Ok((0..size).collect()),
        "mpi://self" => Ok(vec![rank]),
        _ => mpi_err!(Arg, "no process set named {name:?} (railmpi has {PSETS:?})"),
    }
}

/// The tag a string tag gives (FNV-1a, into the valid tags 0..=i32::MAX): processes that
/// make communicators from the same group concurrently must use different string tags, and
/// then meet under different tags (a collision between two such calls is what MPI leaves
/// to the string tags' authors to avoid; 31 bits make it unlikely).
pub fn tag_of(stringtag: &str) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in stringtag.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    (h & i32::MAX as u32) as i32
}

impl World {
    /// MPI_Comm_create_from_group: collective over the group's members, who give the same
    /// string tag (MPI_ERR_GROUP for a process not in a non-empty group). The empty group
    /// makes no communicator (None: MPI_COMM_NULL) and meets no one (MPI-4.1 §7.4.2: a
    /// local call), so a process left out of its peers' group need not wait for them.
    pub fn comm_from_group(
        &self,
        group: Arc<Group>,
        stringtag: &str,
    ) -> Result<Option<Arc<Communicator>>> {
        if group.size() == 0 {
            return Ok(None);
        }
        if group.rank_of(self.rank).is_none() {
            return mpi_err!(Group, "this process is not in the group");
        }
        let c = self.comm_create_group(&self.comm_world, group, tag_of(stringtag))?;
        Ok(Some(c.expect("a member gets a communicator")))
    }

    /// MPI_Intercomm_create_from_groups: the local group's communicator (from the string
    /// tag), then the intercommunicator, its leaders meeting over the runtime's world
    /// communicator. The leaders are ranks in their groups (MPI_ERR_RANK outside them).
    pub fn intercomm_from_groups(
        &self,
        local: Arc<Group>,
        local_leader: i32,
        remote: &Group,
        remote_leader: i32,
        stringtag: &str,
    ) -> Result<Arc<Communicator>> {
        let leader = |g: &Group, r: i32, which: &str| match usize::try_from(r) {
            Ok(r) if r < g.size() => Ok(r),
            _ => mpi_err!(Rank, "invalid {which} leader {r} (group size {})", g.size()),
        };
        let local_leader = leader(&local, local_leader, "local")?;
        let remote_leader = remote.members[leader(remote, remote_leader, "remote")?];
        if local.rank_of(self.rank).is_none() {
            return mpi_err!(Group, "this process is not in the local group");
        }
        // The local communicator under a tag of its own (the remote group makes its own
        // under the same string: disjoint groups, so no message of one meets the other's).
        let tag = tag_of(&format!("{stringtag}\0local"));
        let local = self
            .comm_create_group(&self.comm_world, local, tag)?
            .expect("a member gets a communicator");
        let bridge = (local.rank == local_leader).then(|| Bridge {
            peer_comm: &self.comm_world,
            remote_leader,
            tag: tag_of(stringtag),
        });
        self.intercomm_create(&local, local_leader, bridge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorClass;

    #[test]
    fn psets_by_number_and_name() {
        assert_eq!(nth_pset(0).unwrap(), "mpi://WORLD");
        assert_eq!(nth_pset(1).unwrap(), "mpi://SELF");
        assert_eq!(nth_pset(2).unwrap_err().class, ErrorClass::Arg);
        assert_eq!(nth_pset(-1).unwrap_err().class, ErrorClass::Arg);
        assert_eq!(pset_members("mpi://WORLD", 1, 3).unwrap(), vec![0, 1, 2]);
        assert_eq!(pset_members("mpi://self", 1, 3).unwrap(), vec![1]);
        assert_eq!(
            pset_members("mpi://nodes", 0, 1).unwrap_err().class,
            ErrorClass::Arg
        );
    }

    #[test]
    fn string_tags_give_valid_distinct_tags() {
        for s in ["", "a", "b", "a\0local", "a long string tag"] {
            assert!(tag_of(s) >= 0);
        }
        assert_eq!(tag_of("x"), tag_of("x"));
        assert_ne!(tag_of("a"), tag_of("b"));
        assert_ne!(tag_of("a"), tag_of("a\0local"));
        // FNV-1a of the empty string, cut to 31 bits.
        assert_eq!(tag_of(""), (0x811c_9dc5u32 & i32::MAX as u32) as i32);
    }
}
