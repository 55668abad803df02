//! Context ids: how many communicators a process may hold, the ids this process holds of
//! the space agreed over whole parents (`Contexts`; `runtime::contexts`), and the id space of
//! the agreements that run over part of a parent's members or alongside other agreements
//! (MPI_Comm_create_group, MPI_Comm_idup; `runtime::comms`, `runtime::idup`).

use parking_lot::Mutex;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Communicators a process may hold at once (an intercommunicator counts two). Context ids
/// are 32-bit and never run out first; without a limit, a program that creates
/// communicators and never frees them would only end by exhausting memory. At the limit the
/// next creation fails on every member alike (`NO_ROOM`), as at MPICH's (its 16-bit context
/// ids allow a few thousand to 16,000; MPICH's errors/comm/too_many_comms* check that
/// creation then fails cleanly, one of them with 50,000 per process).
pub const MAX_LIVE: usize = 1 << 15;

/// What a member proposes in a context agreement when it holds `MAX_LIVE` communicators:
/// the agreed maximum is then at least this, which every member refuses.
pub const NO_ROOM: u32 = u32::MAX - 8;

static LIVE: AtomicUsize = AtomicUsize::new(0);

/// The id a context agreement settled on, or the error every member gives when one of
/// them proposed `NO_ROOM`.
pub fn agreed(c: u32) -> crate::error::Result<u32> {
    if c < NO_ROOM {
        return Ok(c);
    }
    crate::mpi_err!(
        Other,
        "too many communicators: a member holds {MAX_LIVE} (the most a process may; free some)"
    )
}

/// Whether this process may create another communicator.
pub fn room() -> bool {
    LIVE.load(Ordering::Relaxed) < MAX_LIVE
}

/// Context ids of MPI_Comm_create_group and MPI_Comm_idup come from a space of their own,
/// above the ids of `World::new_context` (which count up from 4, agreed over a whole
/// parent). An agreement here may see only some of the parent's members, so it must not
/// pick an id that a member already uses with someone outside the group; and concurrent
/// calls (other threads, other groups) must not pick the same id on a process. So each process keeps the ids of this space it
/// holds or has tentatively reserved, and the members agree in rounds: each proposes its
/// lowest free id at or above the floor, they take the maximum, each reserves it if it is
/// free here, and they keep it if it was free everywhere (else they release it and retry
/// above it). Single-threaded, the first round always succeeds. An id is free again once
/// the communicator that holds it is gone (`dropped`): a member that still holds it
/// refuses it in the next agreement, so reuse is safe.
pub(crate) const GROUP_CTX_FIRST: u32 = 0x8000_0000;

pub(crate) struct GroupContexts {
    /// Every id of this space below `low` is reserved (where searches start).
    low: u32,
    /// Ids held by a communicator or reserved by an agreement in progress.
    reserved: BTreeSet<u32>,
}

pub(crate) static GROUP_CTXS: Mutex<GroupContexts> = Mutex::new(GroupContexts {
    low: GROUP_CTX_FIRST,
    reserved: BTreeSet::new(),
});

impl GroupContexts {
    fn free(&self, c: u32, width: u32) -> bool {
        (0..width).all(|k| !self.reserved.contains(&(c + 2 * k)))
    }

    /// The lowest id at or above `floor` that is free here with the `width - 1` slots
    /// of two ids above it (an intercommunicator takes two: `ctx` and `ctx + 2`).
    pub(crate) fn lowest_free(&self, floor: u32, width: u32) -> u32 {
        let mut c = if floor <= self.low { self.low } else { floor };
        while !self.free(c, width) {
            c += 2;
        }
        c
    }

    /// Reserve `c` (and the slots of its width) if free here.
    pub(crate) fn reserve(&mut self, c: u32, width: u32) -> bool {
        if !self.free(c, width) {
            return false;
        }
        for k in 0..width {
            self.reserved.insert(c + 2 * k);
        }
        while self.reserved.contains(&self.low) {
            self.low += 2;
        }
        true
    }

    pub(crate) fn release(&mut self, c: u32, width: u32) {
        for k in 0..width {
            if self.reserved.remove(&(c + 2 * k)) && c + 2 * k < self.low {
                self.low = c + 2 * k;
            }
        }
    }
}

/// The first id of the space `World::new_context` agrees on (below: MPI_COMM_WORLD's 0 and
/// MPI_COMM_SELF's 2). Its ids are multiples of 4, each the first of a block of four: a
/// communicator's point-to-point and collective contexts, and an intercommunicator's local
/// intracommunicator's two.
pub const CTX_FIRST_FREE: u32 = 4;

/// The ids of that space this process holds, and the next it would propose.
///
/// An agreement takes the maximum of its members' proposals, and each proposal is held
/// here as it is made, so that one process never proposes the same id twice. That alone
/// does not keep agreements running at once in different threads apart: in X = {P, Q} and
/// Y = {P, R}, Q and R may propose the same id M, above P's proposals, and P would take M
/// twice. So the agreed id must also be free at every member: each takes it here if it is
/// (`Claim::take`), and the members retry above it unless all could. Where no member runs
/// agreements concurrently (no MPI_THREAD_MULTIPLE), the agreed id is always free: it is at
/// least each member's own proposal, which is above every id the member holds, so that check
/// is skipped (`World::agree_context`).
pub(crate) struct Contexts {
    /// Where this process's next proposal starts: above every id it has held.
    next: u32,
    /// Ids of live communicators and of agreements in flight (their proposal, or the
    /// agreed id each took).
    held: BTreeSet<u32>,
}

static CONTEXTS: Mutex<Contexts> = Mutex::new(Contexts {
    next: CTX_FIRST_FREE,
    held: BTreeSet::new(),
});

fn main_space(c: u32) -> bool {
    (CTX_FIRST_FREE..GROUP_CTX_FIRST).contains(&c) && c.is_multiple_of(4)
}

impl Contexts {
    /// A proposal at or above `floor`, held; None once the space is spent. Every id held
    /// is below `next` (taking one moves `next` above it), so the proposal is free.
    fn propose(&mut self, floor: u32) -> Option<u32> {
        let c = self.next.max(floor.checked_next_multiple_of(4)?);
        if !main_space(c) {
            return None;
        }
        let free = self.held.insert(c);
        debug_assert!(free, "a proposal below `next`");
        self.next = c + 4;
        Some(c)
    }

    /// Take the agreed id `c` if free here.
    fn take(&mut self, c: u32) -> bool {
        if !main_space(c) {
            return false;
        }
        self.next = self.next.max(c + 4);
        self.held.insert(c)
    }

    fn release(&mut self, c: u32) {
        if main_space(c) {
            self.held.remove(&c);
        }
    }
}

/// An id of `World::new_context`'s space held by this process: a proposal, or the agreed id
/// of a communicator being made. Dropped, it is free here again; `keep` hands it to the
/// communicator, which frees it when it goes (`dropped`).
#[derive(Debug)]
pub struct Claim(u32);

impl Claim {
    /// This process's proposal for an agreement whose ids must be at least `floor`:
    /// `NO_ROOM` (holding nothing) when it may not create another communicator or the
    /// space is spent.
    pub fn propose(floor: u32) -> Claim {
        let c = match room() {
            true => CONTEXTS.lock().propose(floor),
            false => None,
        };
        Claim(c.unwrap_or(NO_ROOM))
    }

    /// The agreed id `c`, taken here; None if this process holds it already (for another
    /// communicator or another agreement in flight).
    pub fn take(c: u32) -> Option<Claim> {
        // No Claim made otherwise: dropped, it would free `c`, which is someone else's.
        let took = CONTEXTS.lock().take(c);
        if took {
            Some(Claim(c))
        } else {
            None
        }
    }

    pub fn ctx(&self) -> u32 {
        self.0
    }

    /// The id, now the communicator's that is made on it.
    pub fn keep(self) -> u32 {
        let c = self.0;
        std::mem::forget(self);
        c
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        CONTEXTS.lock().release(self.0);
    }
}

/// A communicator was made.
pub(super) fn made() {
    LIVE.fetch_add(1, Ordering::Relaxed);
}

/// The communicator on context `ctx` is gone: one fewer, and its id is free here again.
pub(super) fn dropped(ctx: u32) {
    LIVE.fetch_sub(1, Ordering::Relaxed);
    if (GROUP_CTX_FIRST..NO_ROOM).contains(&ctx) {
        GROUP_CTXS.lock().release(ctx, 1);
    } else if main_space(ctx) {
        CONTEXTS.lock().release(ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comm::{Communicator, Group};
    use std::sync::Arc;

    #[test]
    fn group_contexts_reserve_and_release() {
        let mut g = GroupContexts {
            low: 10,
            reserved: BTreeSet::new(),
        };
        assert_eq!(g.lowest_free(0, 1), 10);
        assert!(g.reserve(14, 1));
        assert_eq!(g.lowest_free(14, 1), 16);
        assert!(!g.reserve(14, 1));
        assert!(g.reserve(10, 1));
        assert_eq!(g.low, 12);
        assert_eq!(g.lowest_free(0, 1), 12);
        g.release(14, 1);
        assert_eq!(g.lowest_free(14, 1), 14);
        assert!(g.reserve(12, 1));
        assert_eq!((g.low, g.lowest_free(0, 1)), (14, 14));
        // Two slots: 14 and 16 both free.
        assert!(g.reserve(18, 1));
        assert_eq!(g.lowest_free(0, 2), 14);
        assert!(g.reserve(16, 1));
        assert_eq!(g.lowest_free(0, 2), 20);
        assert!(!g.reserve(14, 2));
        assert!(g.reserve(20, 2));
        assert_eq!(g.lowest_free(20, 1), 24);
        g.release(20, 2);
        assert_eq!(g.lowest_free(20, 2), 20);
    }

    #[test]
    fn proposals_are_held_and_agreed_ids_taken_once() {
        let mut c = Contexts {
            next: CTX_FIRST_FREE,
            held: BTreeSet::new(),
        };
        // Two agreements at once on this process propose different ids.
        let (x, y) = (c.propose(0).unwrap(), c.propose(0).unwrap());
        assert_eq!((x, y), (4, 8));
        // Both agree on 20 (the proposals of other members): only one may take it.
        c.release(x);
        assert!(c.take(20));
        c.release(y);
        assert!(!c.take(20));
        // The loser retries above it: never at or below an id it has held.
        assert_eq!(c.propose(24).unwrap(), 24);
        assert_eq!(c.propose(0).unwrap(), 28);
        // A floor between multiples of 4 rounds up; an id taken moves proposals above it.
        assert_eq!(c.propose(33).unwrap(), 36);
        assert!(c.take(60));
        assert_eq!(c.propose(0).unwrap(), 64);
        assert!(!c.take(36) && c.take(40));
        // Freed, an id may be taken again (when an agreement settles on it).
        c.release(20);
        assert!(c.take(20));
        // Ids outside the space are never taken, and the space's end is refused.
        assert!(!c.take(2) && !c.take(GROUP_CTX_FIRST) && !c.take(21));
        assert_eq!(c.propose(GROUP_CTX_FIRST - 4), Some(GROUP_CTX_FIRST - 4));
        assert_eq!(c.propose(0), None);
    }

    #[test]
    fn claims_free_their_ids_unless_kept() {
        // Far above what other tests' agreements take.
        let c = 1 << 29;
        let claim = Claim::take(c).expect("free");
        assert!(Claim::take(c).is_none());
        drop(claim);
        let kept = Claim::take(c).expect("free again").keep();
        assert!(Claim::take(c).is_none());
        let comm = Communicator::new(kept, 0, Arc::new(Group::new(vec![0])));
        drop(comm);
        assert!(Claim::take(c).is_some());
    }

    #[test]
    fn ids_are_free_again_when_their_communicator_is_gone() {
        let mut ids = GroupContexts {
            low: GROUP_CTX_FIRST,
            reserved: BTreeSet::new(),
        };
        let a = ids.lowest_free(GROUP_CTX_FIRST, 1);
        assert!(ids.reserve(a, 1));
        let b = ids.lowest_free(GROUP_CTX_FIRST, 2);
        assert!(ids.reserve(b, 2));
        assert_eq!((a, b, ids.low), (GROUP_CTX_FIRST, a + 2, a + 6));
        ids.release(a, 1);
        assert_eq!(ids.lowest_free(GROUP_CTX_FIRST, 1), a);
        assert_eq!(ids.lowest_free(GROUP_CTX_FIRST, 2), a + 6);
        assert!(!ids.reserve(b + 2, 1));
    }

    #[test]
    fn dropping_a_communicator_releases_its_id() {
        // An id far above what other tests' agreements take.
        let c = GROUP_CTX_FIRST + (1 << 28);
        assert!(GROUP_CTXS.lock().reserve(c, 2));
        let comm = Communicator::new_inter(
            c,
            0,
            Arc::new(Group::new(vec![0])),
            Arc::new(Group::new(vec![1])),
        );
        assert!(!GROUP_CTXS.lock().free(c, 1));
        drop(comm);
        assert!(GROUP_CTXS.lock().free(c, 2));
    }
}
