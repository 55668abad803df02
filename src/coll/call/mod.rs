//! A collective call as a core value (`Call`): the arguments of one MPI collective,
//! resolved from the caller's handles and arrays, and its running: MPI's argument checks in
//! MPICH's order, the algorithm (small blocking calls inline on `coll::direct`, the others
//! as a schedule), and the intercommunicator forms (`inter`, the intracommunicator ones in
//! `intra`).
//!
//! A call is owned, so a persistent collective keeps its `Call` and runs it again at each
//! start under the sequence number its `_init` took (a schedule is built anew each time).
//! An argument whose resolution failed (`Arg`) is reported only where the call reads it,
//! as MPI checks an argument only at the processes where it is significant.

mod args;
mod inter;
mod intra;
#[cfg(test)]
mod tests;

pub use args::reads_root_side;
pub use args::{inter_root, intra_root, neighbor_degrees, no_alias, not_in_place, peers};
pub use args::{Addr, Arg, Counts, RootArg, Side};
pub use intra::quick_allreduce;

use super::plan::{raw, raw_mut};
use super::schedule::{with_pinned_seq, CollId, Schedule};
use super::{Plan, Reducer, TypedBuf};
use crate::comm::topology::Topology;
use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::Result;
use crate::pt2pt::Owner;
use crate::runtime::requests::{Entry, Round, Starter};
use crate::runtime::World;
use std::ops::Deref;
use std::sync::Arc;

/// The single buffer of a gather's sender or a scatter's receiver (and of an allgather's
/// sender).
pub struct One<T> {
    pub buf: Addr,
    pub count: Arg<usize>,
    pub ty: Arg<T>,
}

/// The blocks of a gather's root or a scatter's root (and of an allgather's receiver).
pub struct Many<T> {
    pub buf: Addr,
    pub counts: Counts,
    pub ty: Arg<T>,
}

/// One collective call: `T` is the caller's reference to a datatype.
pub enum Call<T> {
    Barrier,
    Bcast {
        buf: Addr,
        count: Arg<usize>,
        ty: Arg<T>,
        root: RootArg,
    },
    Reduce {
        send: Addr,
        recv: Addr,
        count: Arg<usize>,
        ty: Arg<T>,
        op: Arg<Reducer>,
        root: RootArg,
    },
    Allreduce {
        send: Addr,
        recv: Addr,
        count: Arg<usize>,
        ty: Arg<T>,
        op: Arg<Reducer>,
    },
    Gather {
        send: One<T>,
        recv: Many<T>,
        root: RootArg,
    },
    Scatter {
        send: Many<T>,
        recv: One<T>,
        root: RootArg,
    },
    Allgather {
        send: One<T>,
        recv: Many<T>,
    },
    Alltoall {
        send: Addr,
        sends: Side<T>,
        recv: Addr,
        recvs: Side<T>,
    },
    /// MPI_Reduce_scatter (`Counts::Only`) and MPI_Reduce_scatter_block (`Uniform`).
    ReduceScatter {
        send: Addr,
        recv: Addr,
        counts: Counts,
        ty: Arg<T>,
        op: Arg<Reducer>,
    },
    Scan {
        send: Addr,
        recv: Addr,
        count: Arg<usize>,
        ty: Arg<T>,
        op: Arg<Reducer>,
        exclusive: bool,
    },
    /// The neighbourhood collectives on the communicator's topology (None: it has none).
    Neighbor {
        send: Addr,
        sends: Side<T>,
        recv: Addr,
        recvs: Side<T>,
        topo: Arg<Option<Arc<Topology>>>,
    },
}

/// How a call runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum How {
    /// To completion (the blocking call).
    Block,
    /// Started, for the progress engine to advance (nonblocking, persistent).
    Start,
}

impl<T: Deref<Target = Datatype>> Call<T> {
    /// The kind whose sequence numbers the call's schedules take.
    pub fn kind(&self) -> i32 {
        use super::*;
        match self {
            Call::Barrier => KIND_BARRIER,
            Call::Bcast { .. } => KIND_BCAST,
            Call::Reduce { .. } => KIND_REDUCE,
            Call::Allreduce { .. } => KIND_ALLREDUCE,
            Call::Gather { .. } => KIND_GATHER,
            Call::Scatter { .. } => KIND_SCATTER,
            Call::Allgather { .. } => KIND_ALLGATHER,
            Call::Alltoall { .. } => KIND_ALLTOALL,
            Call::ReduceScatter { .. } => KIND_REDUCE_SCATTER,
            Call::Scan { .. } => KIND_SCAN,
            Call::Neighbor { .. } => KIND_NEIGHBOR,
        }
    }

    /// Check the arguments and run the call on `c`: Ok(None) when done (`How::Block`),
    /// Ok(Some) with the started schedule (`How::Start`). The call takes its place in
    /// the communicator's collective order (or the one `schedule::with_pinned_seq`
    /// pins), and gives it back when its checks refuse it (`refusal_gives_back`).
    ///
    /// # Safety
    /// The buffers are the application's, valid as MPI says for the call's arguments
    /// until the call completes.
    pub unsafe fn run(&self, w: &World, c: &Communicator, how: How) -> Result<Option<CollId>> {
        if let Call::Barrier = self {
            return barrier(w, c, how);
        }
        let p = plan(w, c, self.kind());
        let took = p.s.took_seq().then_some(p.s.kind());
        let r = if c.is_inter() {
            inter::run(self, w, c, p, how)
        } else {
            intra::run(self, w, c, p, how)
        };
        refusal_gives_back(c, took, r)
    }
}

impl<T: Deref<Target = Datatype> + Send + Sync + 'static> Call<T> {
    /// This call as a persistent collective's request table entry (MPI-4.0 §6.13): its
    /// place in `c`'s collective order is taken now (the order of the `_init` calls is what
    /// must match across ranks, not that of the starts), and every MPI_Start runs it under
    /// that number through `round`: the binding's error boundary around `Call::run`, Ok the
    /// started schedule, Err the code MPI_Start returns (the error went to the
    /// communicator's handler, as the nonblocking call's would). `keep`, what the call's
    /// handles need held, lives as long as the request.
    pub fn persistent<K: Send + Sync + 'static>(
        self,
        c: &Communicator,
        owner: Owner,
        keep: K,
        round: impl Fn(&Self) -> std::result::Result<CollId, i32> + Send + Sync + 'static,
    ) -> Entry {
        let (kind, seq) = (self.kind(), c.next_coll_seq(self.kind()));
        let start: Starter = Arc::new(move || {
            let _kept = &keep;
            Ok(with_pinned_seq(kind, seq, || round(&self)).map(Round::Coll))
        });
        Entry::Persistent {
            start,
            active: None,
            owner,
        }
    }
}

/// MPI_Barrier: no arguments to check.
fn barrier(w: &World, c: &Communicator, how: How) -> Result<Option<CollId>> {
    if c.is_inter() {
        let p = plan(w, c, super::KIND_BARRIER);
        return launch(w, super::inter::barrier(p), how);
    }
    match how {
        How::Block => {
            let tag = Plan::new(c, super::KIND_BARRIER).tag();
            super::direct::barrier(w, c, tag, w.fan_in_for(c)).map(|()| None)
        }
        How::Start => launch(w, super::barrier_schedule(c), how),
    }
}

/// A new collective call on `c` (taking its place in the communicator's sequence), cutting
/// messages at the point-to-point eager limit.
fn plan<'c>(w: &World, c: &'c Communicator, kind: i32) -> Plan<'c> {
    Plan::new(c, kind)
        .with_eager_limit(w.config.eager_limit)
        .with_fan_in(w.fan_in_for(c))
}

/// The end of a collective call after its `plan`: a call refused by its argument checks
/// gives its place in the communicator's collective sequence back, as MPICH's calls take
/// none before their checks pass. So a root that alone refuses an aliased `MPI_Reduce`,
/// and then posts a correct one, meets the others' first (MPICH's errors/coll/noalias),
/// and a refused root-only call leaves nothing to mismatch later (noalias2, noalias3).
/// `took`: the kind whose next number the plan took (None: a persistent collective's
/// pinned one).
pub fn refusal_gives_back<R>(c: &Communicator, took: Option<i32>, r: Result<R>) -> Result<R> {
    if let (Err(e), Some(kind)) = (&r, took) {
        if e.class.is_argument() {
            c.give_back_coll_seq(kind);
        }
    }
    r
}

/// Run a schedule to completion or start it.
fn launch(w: &World, s: Schedule, how: How) -> Result<Option<CollId>> {
    match how {
        How::Block => w.run_collective(s).map(|()| None),
        How::Start => Ok(Some(w.start_collective(s))),
    }
}

/// Whether a call may run on `coll::direct`: blocking, small, every buffer one run of
/// bytes.
fn direct(w: &World, how: How, bufs: &[&TypedBuf]) -> bool {
    how == How::Block
        && bufs
            .iter()
            .all(|b| b.contiguous() && b.bytes() <= direct_max(w))
}

/// The largest message `coll::direct` may carry: it sends each whole, so no longer than
/// the schedule sends it uncut (the eager limit, `Plan::with_eager_limit`) — a rank whose
/// datatype is not contiguous runs the schedule, and both must send the same messages.
fn direct_max(w: &World) -> usize {
    super::direct::DIRECT_MAX.min(w.config.eager_limit)
}

/// MPI_Reduce_local: `inout = input op inout`, no communication.
///
/// # Safety
/// `input` readable and `inout` writable for `n` elements of `ty` (MPI's contract).
pub unsafe fn reduce_local(
    input: Addr,
    inout: Addr,
    n: usize,
    ty: &Datatype,
    r: &Reducer,
) -> Result<()> {
    not_in_place(input, n, "inbuf")?;
    not_in_place(inout, n, "inoutbuf")?;
    no_alias(input.ptr(), inout.ptr(), n > 0)?;
    let a = args::typed(input.ptr(), n, ty)?;
    let b = args::typed(inout.ptr(), n, ty)?;
    let len = b.bytes();
    if len == 0 {
        return Ok(());
    }
    if b.contiguous() && a.contiguous() {
        // SAFETY: MPI: inbuf readable and inoutbuf writable for `n` elements each,
        // contiguous, and not the same memory (checked above; MPI forbids partial
        // overlap).
        return (r.combine)(raw(a.ptr, len), raw_mut(b.ptr, len));
    }
    let x = a.pack();
    let mut y = b.pack();
    (r.combine)(&x, &mut y)?;
    b.unpack_from(&y);
    Ok(())
}
