//! Context ids agreed over a communicator's members (MPI_Comm_dup, _split, _create,
//! intercommunicators, spawn/accept/connect): the members propose, take the maximum, and
//! where agreements may run at once on a process (MPI_THREAD_MULTIPLE) make sure the id is
//! free at every member before they keep it (the rules are `comm::context::Contexts`').
//!
//! An agreement over an intercommunicator, or between two groups that are joining, runs in
//! each group at once, their roots exchanging each round's result over a `Line`: both groups
//! see the same values, so they take the same rounds and end with the same id.

use super::World;
use crate::coll::{self, CollTransport};
use crate::comm::context::{agreed, Claim, CTX_FIRST_FREE};
use crate::comm::Communicator;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;

/// Rounds before an agreement gives up. One suffices unless agreements of other threads
/// take the same id at once; each retry proposes strictly higher ids, so it ends.
const ROUNDS: u32 = 32;

/// A root's exchange with the other group's root: sends this group's 8 bytes, returns the
/// other's.
pub(super) type Line<'a> = dyn FnMut([u8; 8]) -> Result<[u8; 8]> + 'a;

/// The other group of an agreement: behind `root` of the local group, which reaches it by
/// `line` (Some at the root only).
pub(super) struct Across<'l, 'a> {
    pub root: usize,
    pub line: Option<&'l mut Line<'a>>,
}

fn pack(v: [u32; 2]) -> [u8; 8] {
    let mut b = [0u8; 8];
    b[..4].copy_from_slice(&v[0].to_le_bytes());
    b[4..].copy_from_slice(&v[1].to_le_bytes());
    b
}

fn unpack(b: &[u8]) -> [u32; 2] {
    let u = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
    [u(0), u(4)]
}

fn max2(a: [u32; 2], b: [u32; 2]) -> [u32; 2] {
    [a[0].max(b[0]), a[1].max(b[1])]
}

impl World {
    /// Agree on a fresh context id among the members of `parent` (collective; over both
    /// groups of an intercommunicator). The id and the three above it are the new
    /// communicator's (an intercommunicator uses `ctx + 2` for its local
    /// intracommunicator); the claim frees them here if no communicator is made on them.
    pub fn new_context(&self, parent: &Communicator) -> Result<Claim> {
        if !parent.is_inter() {
            return self.agree_context(parent, None, false);
        }
        let mut line = |mine: [u8; 8]| -> Result<[u8; 8]> {
            let mut theirs = [0u8; 8];
            let tag = coll::TAG_RUNTIME_SWAP;
            CollTransport::sendrecv(self, parent, 0, &mine, 0, &mut theirs, tag)?;
            Ok(theirs)
        };
        let across = Across {
            root: 0,
            line: (parent.rank == 0).then_some(&mut line as &mut Line),
        };
        self.agree_context(parent.local_comm(), Some(across), false)
    }

    /// The agreement (collective over `local`, an intracommunicator, and the group
    /// `across`, if any). Each round: every member proposes an id it holds (above all it
    /// held), they take the maximum, each takes it (`Claim::take`) unless it is its own
    /// proposal. Where some member runs MPI_THREAD_MULTIPLE (or `always_check`), another
    /// agreement of that process may have taken the same id at once: a second exchange
    /// then tells whether every member could take it, and if one could not all let it go
    /// and try again above it. Otherwise the id is free everywhere by construction, and one
    /// exchange (an allreduce of two numbers) is all it costs.
    pub(super) fn agree_context(
        &self,
        local: &Communicator,
        mut across: Option<Across>,
        always_check: bool,
    ) -> Result<Claim> {
        let check = always_check || self.thread_level_multiple;
        let fan_in = self.fan_in_for(local);
        // After a collision, agreements of different parents retry at different heights,
        // so that two that met once seldom meet again.
        let skip = 4 * (1 + (local.ctx.wrapping_mul(0x9e37_79b9) >> 28));
        let mut floor = CTX_FIRST_FREE;
        for _ in 0..ROUNDS {
            let proposal = Claim::propose(floor);
            let mut v = self.runtime_max(local, [proposal.ctx(), check as u32], fan_in)?;
            if let Some(a) = across.as_mut() {
                v = max2(v, self.across(local, a, v)?);
            }
            // NO_ROOM from any member: every member fails alike (the proposal is let go).
            let ctx = agreed(v[0])?;
            let taken = match ctx == proposal.ctx() {
                true => Some(proposal),
                false => {
                    drop(proposal);
                    Claim::take(ctx)
                }
            };
            if v[1] == 0 {
                // Every member makes its agreements one at a time: `ctx` is at least each
                // one's proposal, above every id it holds.
                return taken.ok_or_else(|| {
                    Error::new(
                        ErrorClass::Intern,
                        format!("the agreed context id {ctx} is in use here"),
                    )
                });
            }
            let mut lost = self.runtime_max(local, [taken.is_none() as u32, 0], fan_in)?;
            if let Some(a) = across.as_mut() {
                lost = max2(lost, self.across(local, a, lost)?);
            }
            if lost[0] == 0 {
                return Ok(taken.expect("taken where no member lost it"));
            }
            tracing::debug!(ctx, "context id taken by another agreement: retrying above");
            drop(taken);
            floor = ctx.saturating_add(skip);
        }
        mpi_err!(
            Intern,
            "no context id agreed in {ROUNDS} rounds (other agreements took every one)"
        )
    }

    /// The other group's `mine` (collective over `local`): its root swaps with theirs and
    /// tells the rest, also when the swap failed (then every member fails).
    fn across(&self, local: &Communicator, a: &mut Across, mine: [u32; 2]) -> Result<[u32; 2]> {
        let mut b = [0u8; 9];
        let mut failed = None;
        if local.rank == a.root {
            let got = match a.line.as_deref_mut() {
                Some(line) => line(pack(mine)),
                None => mpi_err!(Intern, "the root of a context agreement has no line"),
            };
            match got {
                Ok(theirs) => {
                    b[0] = 1;
                    b[1..].copy_from_slice(&theirs);
                }
                Err(e) => failed = Some(e),
            }
        }
        coll::direct::bcast(self, local, coll::TAG_RUNTIME_BCAST, &mut b, a.root)?;
        if let Some(e) = failed {
            return Err(e);
        }
        if b[0] == 0 {
            return mpi_err!(
                Other,
                "the group's root could not reach the other group to agree on a context id"
            );
        }
        Ok(unpack(&b[1..]))
    }
}
