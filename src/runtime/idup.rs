//! MPI_Comm_idup's context agreement, nonblocking: a collective schedule on the parent
//! that the progress engine advances, so a process may go on (and call other collectives,
//! other idups) while its peers catch up.
//!
//! The id comes from the space MPI_Comm_create_group uses (`comm::context::GROUP_CTXS`), whose
//! reservations keep agreements that run at the same time on a process apart. In each
//! round every member reserves its lowest free id as its proposal; they take the maximum;
//! each keeps it if it is its own proposal or free here (reserving it), and they keep it
//! if that held everywhere. Each agreement starts at a floor of its own, spread over 2^24
//! ids by a hash of the parent's context and the call's tag (the same at every member), so
//! that agreements running at once (other threads' idups, idups of a comm not yet complete
//! elsewhere) seldom propose the same ids and agree in one round whatever order processes
//! started them in. (From one common floor, a dozen idups started in different orders on
//! four processes collided for all 8 rounds: MPICH's threads/comm/idup_nb, about 1 run in
//! 20.) After a collision they release and retry above the id, each agreement skipping a
//! distance of its own.

use super::World;
use crate::coll::agree::{allreduce_u32, read, write};
use crate::coll::schedule::Schedule;
use crate::coll::{self, Plan};
use crate::comm::context::{GROUP_CTXS, GROUP_CTX_FIRST};
use crate::comm::Communicator;
use crate::mpi_err;
use parking_lot::Mutex;
use std::sync::Arc;

/// Rounds before the agreement gives up (one suffices unless agreements overlap).
const ROUNDS: usize = 8;

#[derive(Default)]
struct Round {
    floor: u32,
    proposal: u32,
    candidate: u32,
    reserved_here: bool,
    agreed: Option<u32>,
}

/// What the caller gets when the duplicate is ready.
pub type OnDone = Box<dyn FnMut(Arc<Communicator>) + Send>;

impl World {
    /// The schedule of MPI_Comm_idup on `parent` (collective): when it completes,
    /// `done` receives the duplicate (the same groups, a context agreed by all).
    pub fn idup_schedule(&self, parent: &Communicator, mut done: OnDone) -> Schedule {
        let width = if parent.is_inter() { 2 } else { 1 };
        let (rank, group, remote) = (
            parent.rank,
            parent.group.clone(),
            parent.remote_group().cloned(),
        );
        let mut p = Plan::new(parent, coll::KIND_IDUP);
        // The first floor and retry distance of this agreement: the same at every member.
        let mix = (parent.ctx ^ (p.tag() as u32).rotate_left(16)).wrapping_mul(0x9e37_79b9);
        let skip = 2 * (1 + (mix >> 16) % 64);
        let st = Arc::new(Mutex::new(Round {
            floor: GROUP_CTX_FIRST + 2 * (mix >> 8),
            ..Default::default()
        }));
        let val = p.scratch(4);
        for _ in 0..ROUNDS {
            let s = st.clone();
            p.work(move |sc| {
                let mut r = s.lock();
                if r.agreed.is_some() {
                    write(sc, val, 0);
                    return Ok(());
                }
                if !crate::comm::room() {
                    r.proposal = 0; // nothing reserved here
                    write(sc, val, crate::comm::NO_ROOM);
                    return Ok(());
                }
                let mut ids = GROUP_CTXS.lock();
                r.proposal = ids.lowest_free(r.floor, width);
                ids.reserve(r.proposal, width);
                write(sc, val, r.proposal);
                Ok(())
            });
            allreduce_u32(&mut p, val, u32::max);
            let s = st.clone();
            p.work(move |sc| {
                let mut r = s.lock();
                if r.agreed.is_some() {
                    write(sc, val, 1);
                    return Ok(());
                }
                let c = match crate::comm::context::agreed(read(sc, val)) {
                    Ok(c) => c,
                    Err(e) => {
                        // Every member fails here; each releases what it proposed.
                        if r.proposal != 0 {
                            GROUP_CTXS.lock().release(r.proposal, width);
                        }
                        return Err(e);
                    }
                };
                r.candidate = c;
                r.reserved_here = c == r.proposal || {
                    let mut ids = GROUP_CTXS.lock();
                    ids.release(r.proposal, width);
                    ids.reserve(c, width)
                };
                write(sc, val, r.reserved_here as u32);
                Ok(())
            });
            allreduce_u32(&mut p, val, u32::min);
            let s = st.clone();
            p.work(move |sc| {
                let mut r = s.lock();
                if r.agreed.is_none() {
                    if read(sc, val) == 1 {
                        r.agreed = Some(r.candidate);
                    } else {
                        if r.reserved_here {
                            GROUP_CTXS.lock().release(r.candidate, width);
                        }
                        r.floor = r.candidate + skip;
                    }
                }
                Ok(())
            });
        }
        p.work(move |_| {
            let Some(ctx) = st.lock().agreed else {
                return mpi_err!(Intern, "MPI_Comm_idup: no context id agreed");
            };
            let c = match &remote {
                Some(r) => Communicator::new_inter(ctx, rank, group.clone(), r.clone()),
                None => Communicator::new(ctx, rank, group.clone()),
            };
            done(Arc::new(c));
            Ok(())
        });
        p.build()
    }
}
