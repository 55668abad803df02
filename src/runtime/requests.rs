//! Requests: what a request handle stands for (a plain engine request, or an entry of the
//! table below), and completing them — the wait, test and get-status families, MPI_Start,
//! MPI_Request_free and MPI_Cancel. The C surface only encodes handles (`Handle`), checks
//! its array arguments and writes statuses and indices.

use crate::coll::schedule::CollId;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::pt2pt::{MsgId, Owner, ReqId, Status};
use crate::runtime::grequest::{Freed, Grequest};
use crate::runtime::partitioned::PartRef;
use crate::runtime::progress::ProgressState;
use crate::runtime::slab::Slab;
use crate::runtime::world;
use parking_lot::Mutex;
use std::sync::Arc;

/// What a request handle names, as the C surface decodes it.
#[derive(Clone, Copy)]
pub enum Named {
    /// MPI_REQUEST_NULL.
    Null,
    /// A send that completed when it started (no engine state).
    SendDone,
    /// An operation on MPI_PROC_NULL, complete when started.
    ProcNullDone,
    /// A plain engine request, by its engine slot.
    Slot(u32),
    /// An entry of the request table.
    Entry(usize),
    /// Nothing a request can be.
    Invalid,
}

/// A request handle as the C surface encodes it.
pub trait Handle: Copy + std::fmt::LowerHex {
    /// MPI_REQUEST_NULL: what the handle of a freed request becomes.
    const NULL: Self;
    fn named(self) -> Named;
    /// The status of a null or inactive request (`proc_null` false: MPI_ANY_SOURCE,
    /// MPI_ANY_TAG, no data), or of an operation on MPI_PROC_NULL, in the surface's values.
    fn empty_status(proc_null: bool) -> Status;
}

/// An entry of the request table: a request that is more than one engine request.
pub enum Entry {
    /// An engine request whose slot does not fit a handle.
    Active { req: ReqId, owner: Owner },
    /// A nonblocking collective (its schedule runs in the progress engine).
    Coll { id: CollId, owner: Owner },
    /// A request-based RMA operation queued at the target's helper (MPI_Rget, MPI_Rput):
    /// done when the helper has finished request `seq` of our ring there.
    Rma {
        win: Arc<crate::rma::Window>,
        target: usize,
        seq: u64,
    },
    /// MPI_Buffer_iflush / MPI_Comm_iflush_buffer: complete once these buffered sends
    /// (engine requests nobody else waits for) are.
    Flush { sends: Vec<ReqId> },
    /// A message a matched probe took out of matching (MPICH's messages are requests
    /// too), until MPI_Mrecv / MPI_Imrecv.
    Message { msg: MsgId, owner: Owner },
    /// A generalized request (MPI_Grequest_start).
    Grequest(Box<Grequest>),
    /// MPI_Isendrecv(_replace): done when both engine requests are (`send` 0: the send
    /// completed when it started); `copy` holds the data a replace sends.
    Pair {
        recv: ReqId,
        send: ReqId,
        owner: Owner,
        copy: Option<Vec<u8>>,
    },
    /// A persistent request, point-to-point (MPI_Send_init ...) or collective
    /// (MPI_Bcast_init ...): how to start a round, and the current one.
    Persistent {
        start: Starter,
        active: Option<Round>,
        owner: Owner,
    },
    /// A partitioned request (MPI_Psend_init / MPI_Precv_init): its channel, whose state
    /// says whether a round is active.
    Partitioned { part: PartRef, owner: Owner },
}

/// One round of a persistent request.
#[derive(Clone, Copy)]
pub enum Round {
    Engine(ReqId),
    Coll(CollId),
}

/// Starts a round of a persistent request. `Ok(Err(code))`: a persistent collective that
/// could not start; its error went to its communicator's handler already, and `code` is
/// what MPI_Start returns.
pub type Starter = Arc<dyn Fn() -> Result<std::result::Result<Round, i32>> + Send + Sync>;

static TABLE: Mutex<Slab<Entry>> = Mutex::new(Slab::new(0));

/// Add an entry; its index, for the handle.
pub fn insert(e: Entry) -> usize {
    TABLE.lock().insert(e)
}

/// Remove the nonblocking collective entry `i` (a persistent collective's round, started
/// as a nonblocking collective): its schedule.
pub fn take_coll(i: usize) -> Option<CollId> {
    let mut t = TABLE.lock();
    match t.get(i) {
        Some(Entry::Coll { .. }) => match t.remove(i) {
            Some(Entry::Coll { id, .. }) => Some(id),
            _ => None,
        },
        _ => None,
    }
}

/// The message entry `i` (an MPI_Message handle's).
pub fn message(i: usize) -> Option<(MsgId, Owner)> {
    match TABLE.lock().get(i) {
        Some(Entry::Message { msg, owner }) => Some((*msg, *owner)),
        _ => None,
    }
}

/// Whether a persistent or partitioned request of the communicator tagged `owner` is still
/// there: it may start rounds on the communicator after its handle is freed (MPI-3.1
/// §4.1.9), which may match messages queued now. (Tags are handle slots, which later
/// communicators reuse: a stale one only makes this answer yes where no would do.)
pub fn rounds_to_come(owner: Owner) -> bool {
    TABLE.lock().iter().any(|e| match e {
        Entry::Persistent { owner: o, .. } | Entry::Partitioned { owner: o, .. } => *o == owner,
        _ => false,
    })
}

/// Remove entry `i`; whether there was one.
pub fn remove(i: usize) -> bool {
    TABLE.lock().remove(i).is_some()
}

/// The partitioned channel of entry `i`, if it is one.
pub fn partitioned(i: usize) -> Option<PartRef> {
    match TABLE.lock().get(i) {
        Some(Entry::Partitioned { part, .. }) => Some(part.clone()),
        _ => None,
    }
}

/// What a handle refers to right now.
#[derive(Clone, Copy)]
pub enum Pending {
    /// MPI_REQUEST_NULL or an inactive persistent request: complete with an empty status.
    Empty,
    /// Completed when started (no engine state): the status to report.
    Done(Status),
    Engine(ReqId),
    /// A nonblocking collective.
    Coll(CollId),
    /// A request-based RMA operation (the table's index).
    Rma(usize),
    /// A generalized request (the table's index).
    Grequest(usize),
    /// MPI_Isendrecv: its receive and its send (0: none).
    Pair(ReqId, ReqId),
    /// A buffer flush (the table's index).
    Flush(usize),
    /// An active partitioned request's round (the table's index).
    Part(usize),
}

fn invalid<H: Handle>(h: H) -> Error {
    Error::new(ErrorClass::Request, format!("invalid request {h:#x}"))
}

/// What `h` refers to (MPI_ERR_REQUEST when it names no request).
pub fn pending<H: Handle>(h: H) -> Result<Pending> {
    let i = match h.named() {
        Named::Null => return Ok(Pending::Empty),
        Named::SendDone => return Ok(Pending::Done(Status::default())),
        Named::ProcNullDone => return Ok(Pending::Done(H::empty_status(true))),
        Named::Slot(slot) => {
            return world::current()?
                .slot_id(slot)
                .map(Pending::Engine)
                .ok_or_else(|| invalid(h))
        }
        Named::Entry(i) => i,
        Named::Invalid => return Err(invalid(h)),
    };
    match TABLE.lock().get(i) {
        Some(Entry::Active { req, .. })
        | Some(Entry::Persistent {
            active: Some(Round::Engine(req)),
            ..
        }) => Ok(Pending::Engine(*req)),
        Some(Entry::Coll { id, .. })
        | Some(Entry::Persistent {
            active: Some(Round::Coll(id)),
            ..
        }) => Ok(Pending::Coll(*id)),
        Some(Entry::Persistent { active: None, .. }) => Ok(Pending::Empty),
        Some(Entry::Rma { .. }) => Ok(Pending::Rma(i)),
        Some(Entry::Grequest(_)) => Ok(Pending::Grequest(i)),
        Some(Entry::Pair { recv, send, .. }) => Ok(Pending::Pair(*recv, *send)),
        Some(Entry::Flush { .. }) => Ok(Pending::Flush(i)),
        Some(Entry::Partitioned { part, .. }) => match part.lock().active() {
            true => Ok(Pending::Part(i)),
            false => Ok(Pending::Empty),
        },
        // A message handle is no request.
        Some(Entry::Message { .. }) | None => Err(invalid(h)),
    }
}

/// What each of a list of handles refers to.
pub fn pending_all<H: Handle>(hs: &[H]) -> Result<Vec<Pending>> {
    hs.iter().map(|&h| pending(h)).collect()
}

/// True when no handle of the list is active (all null or inactive persistent).
pub fn none_active(ps: &[Pending]) -> bool {
    ps.iter().all(|p| matches!(p, Pending::Empty))
}

/// A completed request.
pub struct Completion {
    pub status: Status,
    /// The request failed (a generalized request's query function said so); a truncated
    /// receive shows in `status`.
    pub error: Option<Error>,
    /// The request's communicator, whose error handler an error goes to.
    pub owner: Owner,
}

impl Completion {
    pub(crate) fn new(status: Status, owner: Owner) -> Self {
        Completion {
            status,
            error: None,
            owner,
        }
    }

    /// What a null or inactive request completes with.
    fn empty<H: Handle>() -> Self {
        Completion::new(H::empty_status(false), Owner::NONE)
    }

    /// Whether the request failed (MPI_ERR_IN_STATUS for a list).
    pub fn failed(&self) -> bool {
        self.error.is_some() || self.status.truncated()
    }
}

// ------------------------------------------------------------------ what is done

/// Whether the partitioned round of entry `i` is complete (Some(Err): it failed; a freed
/// or inactive request counts as done).
fn part_done(e: &mut ProgressState, i: usize) -> Option<Result<()>> {
    let Some(p) = partitioned(i) else {
        return Some(Ok(()));
    };
    let r = p.lock().done(e);
    match r {
        Ok(true) => Some(Ok(())),
        Ok(false) => None,
        Err(err) => Some(Err(err)),
    }
}

/// The status of the partitioned round of entry `i`, its request made inactive.
fn part_finish(i: usize) -> Completion {
    match TABLE.lock().get(i) {
        Some(Entry::Partitioned { part, owner }) => Completion::new(part.lock().finish(), *owner),
        _ => Completion::new(Status::default(), Owner::NONE),
    }
}

/// Whether the buffer flush of entry `i` is done: all its sends are (a freed one counts
/// as done).
fn flush_done(e: &mut ProgressState, i: usize) -> bool {
    match TABLE.lock().get(i) {
        Some(Entry::Flush { sends }) => sends.iter().all(|&r| e.p2p.is_done(r) != Some(false)),
        _ => true,
    }
}

/// Whether the RMA operation of entry `i` is done (a freed one counts as done).
fn rma_done(i: usize) -> bool {
    match TABLE.lock().get(i) {
        Some(Entry::Rma { win, target, seq }) => win.helper_done(*target, *seq),
        _ => true,
    }
}

/// Whether both parts of an MPI_Isendrecv are complete (a part the engine no longer holds
/// completed and was dropped).
fn pair_done(e: &mut ProgressState, recv: ReqId, send: ReqId) -> bool {
    e.p2p.is_done(recv) != Some(false) && e.p2p.is_done(send) != Some(false)
}

/// Collect a complete MPI_Isendrecv from the engine: the receive's status.
fn pair_take(e: &mut ProgressState, recv: ReqId, send: ReqId) -> Option<Status> {
    if !pair_done(e, recv, send) {
        return None;
    }
    e.p2p.take_done(send);
    Some(e.p2p.take_done_owned(recv).unwrap_or_default().0)
}

/// The generalized request of entry `i`, if it is one (a copy: its functions are the
/// application's and run without the table's lock).
fn grequest(i: usize) -> Option<Grequest> {
    match TABLE.lock().get(i) {
        Some(Entry::Grequest(g)) => Some((**g).clone()),
        _ => None,
    }
}

/// Whether the generalized request of entry `i` is complete (a freed one counts).
fn grequest_complete(i: usize) -> bool {
    grequest(i).is_none_or(|g| g.is_complete())
}

/// A generalized request's status and result as a completion.
fn grequest_completion((status, r): (Status, Result<()>)) -> Completion {
    Completion {
        status,
        error: r.err(),
        owner: Owner::NONE,
    }
}

/// Finish the complete generalized request of entry `i` (query_fn, then free_fn), and
/// remove it.
fn grequest_finish<H: Handle>(h: &mut H, i: usize) -> Completion {
    *h = H::NULL;
    let Some(g) = grequest(i) else {
        return Completion::empty::<H>();
    };
    let done = g.finish();
    TABLE.lock().remove(i);
    grequest_completion(done)
}

// ------------------------------------------------------------------ completing

/// Finish a completed handle: free or deactivate it.
fn finish<H: Handle>(h: &mut H, st: Status, owner: Owner) -> Completion {
    let Named::Entry(i) = h.named() else {
        // Completed when started, or a plain engine request: nothing else to release.
        *h = H::NULL;
        return Completion::new(st, owner);
    };
    let mut t = TABLE.lock();
    let owner = match t.get_mut(i) {
        Some(Entry::Persistent { active, owner, .. }) => {
            *active = None;
            return Completion::new(st, *owner);
        }
        Some(Entry::Partitioned { owner, .. }) => return Completion::new(st, *owner),
        Some(Entry::Active { owner, .. })
        | Some(Entry::Coll { owner, .. })
        | Some(Entry::Pair { owner, .. }) => *owner,
        Some(_) => Owner::NONE,
        None => return Completion::new(st, Owner::NONE),
    };
    t.remove(i);
    *h = H::NULL;
    Completion::new(st, owner)
}

/// The end of a nonblocking collective: an empty status, or its error.
fn finish_coll<H: Handle>(h: &mut H, res: Result<()>) -> Result<Completion> {
    let c = finish(h, H::empty_status(false), Owner::NONE);
    res.map(|()| c)
}

/// MPI_Wait on one handle.
#[inline(always)]
pub fn wait<H: Handle>(h: &mut H) -> Result<Completion> {
    // The common cases first, in one step each: an eager send that completed when it
    // started (nothing to look up), and a plain engine request (resolved and waited for
    // in one call: through `pending` it cost a tenth more per message at high rates).
    match h.named() {
        Named::SendDone => {
            *h = H::NULL;
            Ok(Completion::new(Status::default(), Owner::NONE))
        }
        Named::Slot(slot) => {
            let (st, owner) = world::current()?
                .wait_slot(slot)
                .ok_or_else(|| invalid(*h))?;
            *h = H::NULL;
            Ok(Completion::new(st, owner))
        }
        _ => wait_other(h),
    }
}

/// `wait` for the handles that are not plain engine requests.
#[inline(never)]
fn wait_other<H: Handle>(h: &mut H) -> Result<Completion> {
    match pending(*h)? {
        Pending::Empty => Ok(Completion::empty::<H>()),
        Pending::Done(st) => Ok(finish(h, st, Owner::NONE)),
        Pending::Coll(id) => {
            let res = world::current()?.wait_collective(id);
            finish_coll(h, res)
        }
        Pending::Engine(req) => {
            let (st, owner) = world::current()?.wait_owned(req);
            Ok(finish(h, st, owner))
        }
        Pending::Rma(i) => {
            world::current()?
                .progress
                .wait(|_| rma_done(i).then_some(()));
            Ok(finish(h, Status::default(), Owner::NONE))
        }
        Pending::Grequest(i) => {
            // Progress goes on meanwhile: the request may wait for MPI communication.
            world::current()?
                .progress
                .wait(|_| grequest_complete(i).then_some(()));
            Ok(grequest_finish(h, i))
        }
        Pending::Pair(r, s) => {
            let st = world::current()?.progress.wait(|e| pair_take(e, r, s));
            Ok(finish(h, st, Owner::NONE))
        }
        Pending::Flush(i) => {
            world::current()?
                .progress
                .wait(|e| flush_done(e, i).then_some(()));
            Ok(finish(h, Status::default(), Owner::NONE))
        }
        Pending::Part(i) => {
            world::current()?.progress.wait(|e| part_done(e, i))?;
            Ok(part_finish(i))
        }
    }
}

/// MPI_Test on one handle: Some when complete.
pub fn test<H: Handle>(h: &mut H) -> Result<Option<Completion>> {
    let w = world::current()?;
    let none = Owner::NONE;
    Ok(match pending(*h)? {
        Pending::Empty => Some(Completion::empty::<H>()),
        Pending::Done(st) => Some(finish(h, st, none)),
        Pending::Coll(id) => match w.test_collective(id) {
            Some(res) => Some(finish_coll(h, res)?),
            None => None,
        },
        Pending::Engine(req) => w.test_owned(req).map(|(st, owner)| finish(h, st, owner)),
        Pending::Rma(i) => rma_done(i).then(|| finish(h, Status::default(), none)),
        Pending::Grequest(i) => {
            // A round of progress, as every test makes.
            w.progress.with(|_| ());
            grequest_complete(i).then(|| grequest_finish(h, i))
        }
        Pending::Pair(r, s) => {
            let st = w.progress.with(|e| pair_take(e, r, s));
            st.map(|st| finish(h, st, none))
        }
        Pending::Flush(i) => {
            let done = w.progress.with(|e| flush_done(e, i));
            done.then(|| finish(h, Status::default(), none))
        }
        Pending::Part(i) => match w.progress.with(|e| part_done(e, i)) {
            None => None,
            Some(r) => r.map(|()| Some(part_finish(i)))?,
        },
    })
}

/// Whether `p` is complete (Empty: there is nothing to complete).
fn is_done(e: &mut ProgressState, p: Pending) -> bool {
    match p {
        Pending::Empty => false,
        Pending::Done(_) => true,
        Pending::Engine(r) => e.p2p.is_done(r) != Some(false),
        Pending::Coll(id) => e.colls.is_done(id),
        Pending::Rma(i) => rma_done(i),
        Pending::Grequest(i) => grequest_complete(i),
        Pending::Pair(r, s) => pair_done(e, r, s),
        Pending::Flush(i) => flush_done(e, i),
        Pending::Part(i) => part_done(e, i).is_some(),
    }
}

/// Complete handle `h`, known to be done (`p` is what it referred to).
fn complete_done<H: Handle>(h: &mut H, p: Pending) -> Result<Completion> {
    let (st, owner) = match p {
        Pending::Coll(id) => {
            let res = world::current()?.test_collective(id).unwrap_or(Ok(()));
            return finish_coll(h, res);
        }
        Pending::Engine(id) => world::current()?.test_owned(id).unwrap_or_default(),
        Pending::Done(st) => (st, Owner::NONE),
        Pending::Rma(_) | Pending::Flush(_) => (Status::default(), Owner::NONE),
        Pending::Grequest(g) => return Ok(grequest_finish(h, g)),
        Pending::Pair(r, s) => (
            world::current()?
                .progress
                .with(|e| pair_take(e, r, s))
                .unwrap_or_default(),
            Owner::NONE,
        ),
        Pending::Part(j) => {
            if let Some(Err(e)) = world::current()?.progress.with(|e| part_done(e, j)) {
                return Err(e);
            }
            return Ok(part_finish(j));
        }
        Pending::Empty => return Ok(Completion::empty::<H>()),
    };
    Ok(finish(h, st, owner))
}

/// Indices of the active requests that are complete, after waiting for at least one if
/// `block`. Empty if none is active.
fn done_indices(ps: &[Pending], block: bool) -> Result<Vec<usize>> {
    if none_active(ps) {
        return Ok(vec![]);
    }
    let done = |e: &mut ProgressState| -> Vec<usize> {
        (0..ps.len()).filter(|&i| is_done(e, ps[i])).collect()
    };
    let w = world::current()?;
    if block {
        Ok(w.progress.wait(|e| Some(done(e)).filter(|d| !d.is_empty())))
    } else {
        Ok(w.progress.with(done))
    }
}

/// MPI_ERR_IN_STATUS when a request of a list failed.
/// A multiple-completion call's error `e`, after `write` (the call's other outputs, its
/// flag or count) when it is MPI_ERR_IN_STATUS: the statuses tell which request failed,
/// the outputs how many were done.
pub fn in_status_then(e: Error, write: impl FnOnce() -> Result<()>) -> Result<()> {
    if e.class == ErrorClass::InStatus {
        write()?;
    }
    Err(e)
}

fn in_status(failed: bool) -> Result<()> {
    match failed {
        true => mpi_err!(InStatus, "a request failed: see the statuses"),
        false => Ok(()),
    }
}

/// Check that every handle of a list names a request, before a call completes any of
/// them (MPI_ERR_REQUEST for the first that does not); the engine's in one round under
/// its lock (MPI_Waitall of a window of receives is on the message-rate path).
fn check_all<H: Handle>(hs: &[H]) -> Result<()> {
    let mut engine = false;
    for &h in hs {
        match h.named() {
            Named::Slot(_) => engine = true,
            _ => {
                pending(h)?;
            }
        }
    }
    if !engine {
        return Ok(());
    }
    let bad = world::current()?
        .progress
        .locked(|e| dead_engine_handle(e, hs));
    bad.map_or(Ok(()), |h| Err(invalid(h)))
}

/// The first engine handle of a list whose request is gone (freed, or never was).
fn dead_engine_handle<H: Handle>(e: &ProgressState, hs: &[H]) -> Option<H> {
    hs.iter()
        .copied()
        .find(|&h| matches!(h.named(), Named::Slot(s) if e.p2p.slot_id(s).is_none()))
}

/// MPI_Waitall: every handle completed and `out(i, completion)` told, in order;
/// MPI_ERR_IN_STATUS when one failed.
#[inline(always)]
pub fn wait_all<H: Handle>(hs: &mut [H], mut out: impl FnMut(usize, &Completion)) -> Result<()> {
    if let Some(failed) = wait_all_plain(hs, &mut out)? {
        return in_status(failed);
    }
    check_all(hs)?;
    let mut failed = false;
    for (i, h) in hs.iter_mut().enumerate() {
        let c = wait(h)?;
        failed |= c.failed();
        out(i, &c);
    }
    in_status(failed)
}

/// MPI_Waitall's common case, where every handle is an engine request, a send done when
/// it started, or null (a window of receives or sends): each request is collected as
/// soon as a round of progress finds it done, all under one hold of the progress lock per
/// round rather than a call, a look-up of the world and a lock per handle. None, with
/// nothing done, when some handle is of another kind; else whether a request failed.
#[inline(always)]
fn wait_all_plain<H: Handle>(
    hs: &mut [H],
    out: &mut impl FnMut(usize, &Completion),
) -> Result<Option<bool>> {
    let plain = |h: H| matches!(h.named(), Named::Null | Named::SendDone | Named::Slot(_));
    if !hs.iter().all(|&h| plain(h)) {
        return Ok(None);
    }
    if hs.is_empty() {
        return Ok(Some(false));
    }
    let w = world::current()?;
    let mut next = 0;
    let mut failed = false;
    let mut gone = None;
    let mut checked = false;
    w.progress.wait(|e| {
        if !checked {
            // Every handle names a request before any is completed (MPI_ERR_REQUEST).
            checked = true;
            gone = dead_engine_handle(e, hs);
            if gone.is_some() {
                return Some(());
            }
        }
        while let Some(h) = hs.get_mut(next) {
            let c = match h.named() {
                Named::Slot(slot) => match world::slot_ready(e, slot) {
                    None => return None,
                    Some(Some((st, owner))) => Completion::new(st, owner),
                    // Checked live above; gone only if another thread completed it.
                    Some(None) => {
                        gone = Some(*h);
                        return Some(());
                    }
                },
                Named::Null => Completion::empty::<H>(),
                _ => Completion::new(Status::default(), Owner::NONE),
            };
            failed |= c.failed();
            out(next, &c);
            *h = H::NULL;
            next += 1;
        }
        Some(())
    });
    match gone {
        Some(h) => Err(invalid(h)),
        None => Ok(Some(failed)),
    }
}

/// How a call on a list of requests completes them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum How {
    /// MPI_Waitany, MPI_Waitsome: at least one.
    Wait,
    /// MPI_Testall, MPI_Testany, MPI_Testsome: those that are done.
    Test,
    /// MPI_Request_get_status_all/any/some (MPI-4.1): as the test, but nothing is freed.
    Peek,
}

/// MPI_Testall (`how` Test; Wait is MPI_Waitall's `wait_all`): false (nothing completed)
/// unless every active request is complete; then all are completed and told as
/// `wait_all` does. MPI_Request_get_status_all (`Peek`): the same, nothing freed.
pub fn all<H: Handle>(
    hs: &mut [H],
    how: How,
    mut out: impl FnMut(usize, &Completion),
) -> Result<bool> {
    if how == How::Peek {
        return get_status_all(hs, out);
    }
    let ps = pending_all(hs)?;
    let done = done_indices(&ps, false)?;
    let active = ps.iter().filter(|p| !matches!(p, Pending::Empty)).count();
    if done.len() < active {
        return Ok(false);
    }
    let mut failed = false;
    for (i, h) in hs.iter_mut().enumerate() {
        let c = wait(h)?;
        failed |= c.failed();
        out(i, &c);
    }
    in_status(failed).map(|()| true)
}

/// What MPI_Waitany, MPI_Testany and MPI_Request_get_status_any find.
pub enum Any {
    /// No request of the list is active (index MPI_UNDEFINED, an empty status, flag true).
    NoneActive,
    /// None is complete yet (the test and get-status forms).
    NotYet,
    /// Request `.0` is complete.
    Done(usize, Completion),
}

impl Any {
    /// What a call reports for what it found: its flag, its index (None: MPI_UNDEFINED)
    /// and the completion to report, if any (a null request's when none was active: an
    /// empty status, MPI-4.1 §3.7.3).
    pub fn outputs<H: Handle>(self) -> (bool, Option<usize>, Option<Completion>) {
        match self {
            Any::NoneActive => (true, None, Some(Completion::empty::<H>())),
            Any::NotYet => (false, None, None),
            Any::Done(i, c) => (true, Some(i), Some(c)),
        }
    }
}

/// MPI_Waitany and MPI_Testany (`how`): one complete request, completed;
/// MPI_Request_get_status_any (`Peek`): found, not freed.
pub fn any<H: Handle>(hs: &mut [H], how: How) -> Result<Any> {
    if how == How::Peek {
        return get_status_any(hs);
    }
    let block = how == How::Wait;
    let ps = pending_all(hs)?;
    if none_active(&ps) {
        return Ok(Any::NoneActive);
    }
    match done_indices(&ps, block)?.first() {
        None => Ok(Any::NotYet),
        Some(&i) => Ok(Any::Done(i, complete_done(&mut hs[i], ps[i])?)),
    }
}

/// MPI_Waitsome and MPI_Testsome (`how`): the complete requests completed and told as
/// `out(k, index, completion)`; their number (None: no request is active, MPI_UNDEFINED).
/// MPI_Request_get_status_some (`Peek`): the same, nothing freed.
pub fn some<H: Handle>(
    hs: &mut [H],
    how: How,
    mut out: impl FnMut(usize, usize, &Completion),
) -> Result<Option<usize>> {
    if how == How::Peek {
        return get_status_some(hs, out);
    }
    let block = how == How::Wait;
    let ps = pending_all(hs)?;
    if none_active(&ps) {
        return Ok(None);
    }
    let done = done_indices(&ps, block)?;
    let mut failed = false;
    for (k, &i) in done.iter().enumerate() {
        let c = complete_done(&mut hs[i], ps[i])?;
        failed |= c.failed();
        out(k, i, &c);
    }
    in_status(failed).map(|()| Some(done.len()))
}

// ------------------------------------------------------------------ looking without freeing

/// Whether the request `p` stands for is complete, and how, leaving it as it is
/// (MPI_Request_get_status and its MPI-4.1 family).
fn peek<H: Handle>(p: Pending) -> Result<Option<Completion>> {
    let empty = || Some(Completion::empty::<H>());
    let w = world::current()?;
    Ok(match p {
        Pending::Empty => empty(),
        Pending::Done(st) => Some(Completion::new(st, Owner::NONE)),
        // Completion is the helper's to report.
        Pending::Rma(i) => rma_done(i).then(empty).flatten(),
        Pending::Coll(id) => w
            .progress
            .with(|e| e.colls.is_done(id))
            .then(empty)
            .flatten(),
        Pending::Engine(id) => w.progress.with(|e| {
            let st = e.p2p.is_done(id).and_then(|d| d.then(|| e.p2p.status(id)));
            st.flatten().map(|st| Completion::new(st, Owner::NONE))
        }),
        Pending::Pair(r, s) => w.progress.with(|e| {
            pair_done(e, r, s)
                .then(|| Completion::new(e.p2p.status(r).unwrap_or_default(), Owner::NONE))
        }),
        Pending::Grequest(i) => grequest(i).and_then(|g| g.peek()).map(grequest_completion),
        Pending::Flush(i) => w.progress.with(|e| flush_done(e, i)).then(empty).flatten(),
        Pending::Part(i) => match w.progress.with(|e| part_done(e, i)) {
            None => None,
            Some(r) => r.map(|()| empty())?,
        },
    })
}

/// MPI_Request_get_status: Some when complete; nothing is freed.
pub fn get_status<H: Handle>(h: H) -> Result<Option<Completion>> {
    peek::<H>(pending(h)?)
}

/// MPI_Request_get_status_any (MPI-4.1): as MPI_Testany, but nothing is freed.
fn get_status_any<H: Handle>(hs: &[H]) -> Result<Any> {
    let ps = pending_all(hs)?;
    for (i, &p) in ps.iter().enumerate() {
        if matches!(p, Pending::Empty) {
            continue;
        }
        if let Some(c) = peek::<H>(p)? {
            return Ok(Any::Done(i, c));
        }
    }
    Ok(match none_active(&ps) {
        true => Any::NoneActive,
        false => Any::NotYet,
    })
}

/// MPI_Request_get_status_all (MPI-4.1): as MPI_Testall, but nothing is freed.
fn get_status_all<H: Handle>(hs: &[H], mut out: impl FnMut(usize, &Completion)) -> Result<bool> {
    let ps = pending_all(hs)?;
    let mut done = Vec::with_capacity(hs.len());
    for &p in &ps {
        match peek::<H>(p)? {
            Some(c) => done.push(c),
            None => return Ok(false),
        }
    }
    let mut failed = false;
    for (i, c) in done.iter().enumerate() {
        failed |= c.failed();
        out(i, c);
    }
    in_status(failed).map(|()| true)
}

/// MPI_Request_get_status_some (MPI-4.1): as MPI_Testsome, but nothing is freed.
fn get_status_some<H: Handle>(
    hs: &[H],
    mut out: impl FnMut(usize, usize, &Completion),
) -> Result<Option<usize>> {
    let ps = pending_all(hs)?;
    if none_active(&ps) {
        return Ok(None);
    }
    let (mut n, mut failed) = (0usize, false);
    for (i, &p) in ps.iter().enumerate() {
        if matches!(p, Pending::Empty) {
            continue;
        }
        if let Some(c) = peek::<H>(p)? {
            failed |= c.failed();
            out(n, i, &c);
            n += 1;
        }
    }
    in_status(failed).map(|()| Some(n))
}

// ------------------------------------------------------------------ persistent requests

/// An inactive persistent request, found by one look-up in the table.
enum Startable {
    Persistent(usize, Starter),
    Partitioned(PartRef),
}

/// The inactive persistent request `h` (else the error MPI_Start gives).
fn startable<H: Handle>(h: H) -> Result<Startable> {
    let Named::Entry(i) = h.named() else {
        return Err(invalid(h));
    };
    match TABLE.lock().get(i) {
        Some(Entry::Persistent {
            start,
            active: None,
            ..
        }) => Ok(Startable::Persistent(i, start.clone())),
        Some(Entry::Persistent { .. }) => mpi_err!(Request, "persistent request is already active"),
        Some(Entry::Partitioned { part, .. }) => match part.lock().active() {
            true => mpi_err!(Request, "partitioned request is already active"),
            false => Ok(Startable::Partitioned(part.clone())),
        },
        _ => Err(invalid(h)),
    }
}

/// Start an inactive persistent request. `Ok(Some(code))`: a persistent collective could
/// not start (its error went to its communicator's handler already; `code` is what
/// MPI_Start returns).
pub fn start<H: Handle>(h: H) -> Result<Option<i32>> {
    let (i, start) = match startable(h)? {
        Startable::Persistent(i, start) => (i, start),
        Startable::Partitioned(p) => {
            // The engine's lock before the channel's, as in every wait.
            world::current()?
                .progress
                .with(|e| p.lock().start(&mut e.partitioned));
            return Ok(None);
        }
    };
    // Called without the table's lock: a collective adds its own entry.
    let round = match start()? {
        Ok(round) => round,
        Err(code) => return Ok(Some(code)),
    };
    if let Some(Entry::Persistent { active, .. }) = TABLE.lock().get_mut(i) {
        *active = Some(round);
    }
    Ok(None)
}

/// MPI_Startall: none starts unless all can.
pub fn start_all<H: Handle>(hs: &[H]) -> Result<()> {
    for &h in hs {
        startable(h)?;
    }
    for &h in hs {
        if let Some(code) = start(h)? {
            // The collective's own error went to its communicator's handler already.
            return mpi_err!(Other, "a collective could not start (error {code})");
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ free and cancel

/// Send data of freed MPI_Isendrecv_replace requests whose send was still in flight: kept
/// until the engine is done with it.
static ORPHANS: Mutex<Vec<(ReqId, Vec<u8>)>> = Mutex::new(Vec::new());

/// MPI_Request_free (MPI_REQUEST_NULL is an error, as in MPICH).
pub fn free<H: Handle>(h: &mut H) -> Result<()> {
    let i = match h.named() {
        Named::Null => return mpi_err!(Request, "MPI_REQUEST_NULL cannot be freed"),
        Named::SendDone | Named::ProcNullDone => {
            *h = H::NULL;
            return Ok(());
        }
        Named::Slot(_) => {
            if let Pending::Engine(id) = pending(*h)? {
                world::current()?.request_free(id);
            }
            *h = H::NULL;
            return Ok(());
        }
        Named::Entry(i) => i,
        Named::Invalid => return Err(invalid(*h)),
    };
    let w = world::current()?;
    if let Pending::Grequest(i) = pending(*h)? {
        *h = H::NULL;
        return grequest_free(i);
    }
    let entry = TABLE.lock().remove(i).ok_or_else(|| invalid(*h))?;
    match entry {
        Entry::Coll { id, .. }
        | Entry::Persistent {
            active: Some(Round::Coll(id)),
            ..
        } => {
            // Freeing an active collective is allowed; it still completes in the background
            // (its buffers stay the application's responsibility, as MPI says).
            w.detach_collective(id);
        }
        Entry::Active { req, .. }
        | Entry::Persistent {
            active: Some(Round::Engine(req)),
            ..
        } => w.request_free(req),
        Entry::Persistent { active: None, .. } => {}
        // It completes anyway; the window's flush, unlock or fence waits for it.
        Entry::Rma { .. } => {}
        // The sends complete anyway, and detach or finalize waits for them.
        Entry::Flush { .. } => {}
        // An active round's messages are the engine's; its buffers stay the application's.
        Entry::Partitioned { .. } => {}
        Entry::Pair {
            recv, send, copy, ..
        } => {
            w.request_free(recv);
            w.request_free(send);
            let mut orphans = ORPHANS.lock();
            w.progress.with(|e| {
                orphans.retain(|(r, _)| e.p2p.is_done(*r) == Some(false));
                if let Some(c) = copy.filter(|_| e.p2p.is_done(send) == Some(false)) {
                    orphans.push((send, c));
                }
            });
        }
        Entry::Grequest(_) | Entry::Message { .. } => unreachable!("not freed here"),
    }
    *h = H::NULL;
    Ok(())
}

/// MPI_Cancel: receives and generalized requests (sends complete on their own).
pub fn cancel<H: Handle>(h: H) -> Result<()> {
    if matches!(h.named(), Named::Null) {
        return mpi_err!(Request, "MPI_REQUEST_NULL cannot be cancelled");
    }
    match pending(h)? {
        Pending::Engine(req) => {
            world::current()?.cancel_recv(req);
        }
        Pending::Grequest(i) => return grequest(i).map_or(Ok(()), |g| g.cancel()),
        _ => {}
    }
    Ok(())
}

// ------------------------------------------------------------------ generalized requests

/// MPI_Request_free on the generalized request of entry `i`: free_fn now if complete,
/// else at MPI_Grequest_complete.
fn grequest_free(i: usize) -> Result<()> {
    let gone = {
        let mut t = TABLE.lock();
        match t.get_mut(i) {
            Some(Entry::Grequest(g)) => match g.mark_freed() {
                Freed::Later => return Ok(()),
                Freed::Now => t.remove(i),
            },
            _ => return Ok(()),
        }
    };
    match gone {
        Some(Entry::Grequest(g)) => g.free(),
        _ => Ok(()),
    }
}

/// MPI_Grequest_complete on handle `h`.
pub fn grequest_mark_complete<H: Handle>(h: H) -> Result<()> {
    let w = world::current()?;
    let bad = || mpi_err!(Request, "{h:#x} is not a generalized request");
    let Named::Entry(i) = h.named() else {
        return bad();
    };
    let freed = {
        let mut t = TABLE.lock();
        match t.get_mut(i) {
            Some(Entry::Grequest(g)) => match g.mark_complete()? {
                true => t.remove(i),
                false => None,
            },
            _ => return bad(),
        }
    };
    // A waiter in another thread may be asleep on this request.
    w.progress.wake();
    match freed {
        Some(Entry::Grequest(g)) => g.free(),
        _ => Ok(()),
    }
}
