//! Requests as the C surface sees them: starting sends and receives that return a handle,
//! and completing handles (the wait and test families).

use super::args::{self, Source};
use super::consts::*;
use super::grequest;
use super::handles::{self, PersistentSpec, RequestEntry, TypeRef, REQUESTS};
use super::shim;
use crate::coll::schedule::CollId;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::pt2pt::{MsgBuf, Owner, ReqId, Status};
use crate::runtime::progress::ProgressState;
use std::os::raw::{c_int, c_void};

/// The memory `count` elements of `ty` at `buf` cover, for the engine: contiguous data as
/// one range, anything else as its runs (iovecs), never packed.
#[inline(always)]
pub fn msg_buf(buf: *const c_void, count: usize, ty: &TypeRef) -> Result<MsgBuf> {
    let len = args::bytes(count, ty)?;
    if ty.is_contiguous() {
        return Ok(MsgBuf::contig(buf as *const u8, len));
    }
    Ok(msg_buf_runs(buf, count, ty))
}

/// `msg_buf` for derived types, and the predefined pairs with a gap (MPI_DOUBLE_INT…): out
/// of line, so that the contiguous case inlines into every caller.
#[inline(never)]
fn msg_buf_runs(buf: *const c_void, count: usize, ty: &TypeRef) -> MsgBuf {
    MsgBuf::from_runs(buf as *const u8, ty.runs(count))
}

/// Send modes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Standard,
    Sync,
    Ready,
}

/// A started operation.
pub enum Started {
    /// Complete already; the request needs no engine state (the status to report is that
    /// of MPI_PROC_NULL, or of a send, whose status MPI leaves undefined).
    Done {
        proc_null: bool,
    },
    Pending(ReqId),
}

/// Check every argument of a send or receive without starting it (for calls that start
/// two operations: neither may start when the other's arguments are wrong).
pub fn check(spec: &PersistentSpec, comm_h: MPI_Comm) -> Result<()> {
    shim::world()?;
    let comm = handles::comm(comm_h)?;
    let count = spec.count;
    let ty = handles::datatype(spec.datatype)?;
    args::buffer(spec.buf as *const c_void, count, &ty)?;
    args::bytes(count, &ty)?;
    if spec.send {
        args::send_tag(spec.tag)?;
        args::dest(&comm, spec.peer)?;
    } else {
        args::recv_tag(spec.tag)?;
        args::source(&comm, spec.peer)?;
    }
    Ok(())
}

/// Start a nonblocking send.
///
/// # Safety
/// MPI's: `spec.buf` holds the elements and stays valid until the request completes.
#[inline(always)]
pub unsafe fn start_send(spec: &PersistentSpec, comm_h: MPI_Comm) -> Result<Started> {
    let w = shim::world()?;
    let comm = handles::comm(comm_h)?;
    let count = spec.count;
    let ty = match &spec.held_type {
        Some(t) => TypeRef::from(t),
        None => handles::datatype(spec.datatype)?,
    };
    args::buffer(spec.buf as *const c_void, count, &ty)?;
    let tag = args::send_tag(spec.tag)?;
    let Some(dst) = args::dest(&comm, spec.peer)? else {
        return Ok(Started::Done { proc_null: true });
    };
    let owner = handles::comm_owner(comm_h);
    if ty.is_contiguous() {
        let len = args::bytes(count, &ty)?;
        let ptr = spec.buf as *const u8;
        return Ok(sent(
            w.isend_contig(&comm, dst, tag, ptr, len, spec.sync, owner),
        ));
    }
    let data = msg_buf(spec.buf as *const c_void, count, &ty)?;
    Ok(sent(w.isend(&comm, dst, tag, data, spec.sync, owner)))
}

/// Start a send of `data`, bytes packed already, to where `spec` says (its buffer, count
/// and datatype are not looked at: MPI_Sendrecv_replace sends a packed copy).
///
/// # Safety
/// `data` stays readable until the send completes.
pub unsafe fn start_send_packed(
    spec: &PersistentSpec,
    comm_h: MPI_Comm,
    data: &[u8],
) -> Result<Started> {
    let w = shim::world()?;
    let comm = handles::comm(comm_h)?;
    let tag = args::send_tag(spec.tag)?;
    let Some(dst) = args::dest(&comm, spec.peer)? else {
        return Ok(Started::Done { proc_null: true });
    };
    let owner = handles::comm_owner(comm_h);
    let (ptr, len) = (data.as_ptr(), data.len());
    Ok(sent(
        w.isend_contig(&comm, dst, tag, ptr, len, spec.sync, owner),
    ))
}

/// A started send as a `Started` (None: it went out at once, no request).
#[inline(always)]
fn sent(req: Option<ReqId>) -> Started {
    match req {
        None => Started::Done { proc_null: false },
        Some(req) => Started::Pending(req),
    }
}

/// Start a nonblocking receive.
///
/// # Safety
/// MPI's: `spec.buf` has room for the elements and stays valid until completion.
#[inline(always)]
pub unsafe fn start_recv(spec: &PersistentSpec, comm_h: MPI_Comm) -> Result<Started> {
    let w = shim::world()?;
    let comm = handles::comm(comm_h)?;
    let count = spec.count;
    let ty = match &spec.held_type {
        Some(t) => TypeRef::from(t),
        None => handles::datatype(spec.datatype)?,
    };
    args::buffer(spec.buf as *const c_void, count, &ty)?;
    let tag = args::recv_tag(spec.tag)?;
    let src = match args::source(&comm, spec.peer)? {
        Source::Null => return Ok(Started::Done { proc_null: true }),
        s => s.as_option(),
    };
    let owner = handles::comm_owner(comm_h);
    if ty.is_contiguous() {
        let len = args::bytes(count, &ty)?;
        let ptr = spec.buf as *mut u8;
        return Ok(Started::Pending(
            w.irecv_contig(&comm, src, tag, ptr, len, owner),
        ));
    }
    let data = msg_buf(spec.buf as *const c_void, count, &ty)?;
    Ok(Started::Pending(w.irecv(&comm, src, tag, data, owner)))
}

/// The request handle for a started operation.
pub fn handle_for(started: Started, comm: MPI_Comm) -> Result<MPI_Request> {
    Ok(match started {
        Started::Done { proc_null: true } => handles::REQUEST_PROC_NULL_DONE,
        Started::Done { proc_null: false } => handles::REQUEST_SEND_DONE,
        Started::Pending(req) => match handles::engine_handle(req) {
            Some(h) => h,
            None => handles::new_request(RequestEntry::Active { req, comm }),
        },
    })
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
    /// A request-based RMA operation at a target's helper (the request table's index).
    Rma(usize),
    /// A generalized request (the request table's index).
    Grequest(usize),
    /// MPI_Isendrecv: its receive and its send (0: none).
    Pair(ReqId, ReqId),
    /// A buffer flush (the request table's index).
    Flush(usize),
    /// An active partitioned request's round (the request table's index).
    Part(usize),
}

/// Whether the partitioned round at table index `i` is complete (Some(Err): the round
/// failed; a freed or inactive request counts as done).
fn part_done(e: &mut ProgressState, i: usize) -> Option<Result<()>> {
    let p = match REQUESTS.lock().get(i) {
        Some(RequestEntry::Partitioned { part, .. }) => part.clone(),
        _ => return Some(Ok(())),
    };
    let r = p.lock().done(e);
    match r {
        Ok(true) => Some(Ok(())),
        Ok(false) => None,
        Err(err) => Some(Err(err)),
    }
}

/// The status of the partitioned round at table index `i`, its request made inactive.
fn part_finish(i: usize) -> Completion {
    let (st, comm) = match REQUESTS.lock().get(i) {
        Some(RequestEntry::Partitioned { part, comm }) => (part.lock().finish(), *comm),
        _ => (Status::default(), MPI_COMM_WORLD),
    };
    Completion::new(st, comm)
}

/// Whether a partitioned request handle's round is done (MPI_Request_get_status).
pub fn part_done_now(h: MPI_Request) -> Result<bool> {
    match pending(h)? {
        Pending::Part(i) => match shim::world()?.progress.with(|e| part_done(e, i)) {
            None => Ok(false),
            Some(r) => r.map(|()| true),
        },
        _ => Ok(true),
    }
}

/// Whether a buffer-flush request handle is done (MPI_Request_get_status: no freeing).
pub fn flush_done_now(h: MPI_Request) -> Result<bool> {
    match pending(h)? {
        Pending::Flush(i) => Ok(shim::world()?.progress.with(|e| flush_done(e, i))),
        _ => Ok(true),
    }
}

/// Whether an RMA request handle is done (MPI_Request_get_status: no freeing).
pub fn pending_done(h: MPI_Request) -> Result<bool> {
    match pending(h)? {
        Pending::Rma(i) => Ok(rma_done(i)),
        _ => Ok(true),
    }
}

/// Whether the RMA request at table index `i` is done (a freed one counts as done).
/// Whether the buffer flush at table index `i` is done: all its sends are (a freed one
/// counts as done).
fn flush_done(e: &mut ProgressState, i: usize) -> bool {
    match REQUESTS.lock().get(i) {
        Some(RequestEntry::Flush { sends }) => {
            sends.iter().all(|&r| e.p2p.is_done(r) != Some(false))
        }
        _ => true,
    }
}

fn rma_done(i: usize) -> bool {
    match REQUESTS.lock().get(i) {
        Some(RequestEntry::Rma { win, target, seq }) => win.helper_done(*target, *seq),
        _ => true,
    }
}

fn pending(h: MPI_Request) -> Result<Pending> {
    match h {
        MPI_REQUEST_NULL => return Ok(Pending::Empty),
        handles::REQUEST_SEND_DONE => return Ok(Pending::Done(Status::default())),
        handles::REQUEST_PROC_NULL_DONE => {
            return Ok(Pending::Done(args::empty_status(MPI_PROC_NULL)))
        }
        _ => {}
    }
    if let Some(slot) = handles::engine_slot(h) {
        return shim::world()?
            .slot_id(slot)
            .map(Pending::Engine)
            .ok_or_else(|| invalid(h));
    }
    let i = handles::request_index(h).ok_or_else(|| invalid(h))?;
    match REQUESTS.lock().get(i) {
        Some(RequestEntry::Active { req, .. }) => Ok(Pending::Engine(*req)),
        Some(RequestEntry::Persistent {
            active: Some(req), ..
        }) => Ok(Pending::Engine(*req)),
        Some(RequestEntry::Persistent { active: None, .. }) => Ok(Pending::Empty),
        Some(RequestEntry::Coll { id, .. })
        | Some(RequestEntry::PersistentColl {
            active: Some(id), ..
        }) => Ok(Pending::Coll(*id)),
        Some(RequestEntry::PersistentColl { active: None, .. }) => Ok(Pending::Empty),
        Some(RequestEntry::Rma { .. }) => Ok(Pending::Rma(i)),
        Some(RequestEntry::Grequest(_)) => Ok(Pending::Grequest(i)),
        Some(RequestEntry::Pair { recv, send, .. }) => Ok(Pending::Pair(*recv, *send)),
        Some(RequestEntry::Flush { .. }) => Ok(Pending::Flush(i)),
        Some(RequestEntry::Partitioned { part, .. }) => match part.lock().active() {
            true => Ok(Pending::Part(i)),
            false => Ok(Pending::Empty),
        },
        // A message handle is no request.
        Some(RequestEntry::Message { .. }) | None => Err(invalid(h)),
    }
}

/// Whether both parts of an MPI_Isendrecv are complete (a part the engine no longer
/// holds completed and was dropped).
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

pub(crate) fn invalid(h: MPI_Request) -> Error {
    Error::new(ErrorClass::Request, format!("invalid request {h:#x}"))
}

/// The completion of the generalized request `*h` at table index `i` (`grequest::finish`).
fn grequest_done(h: &mut MPI_Request, i: usize) -> Completion {
    match grequest::finish(h, i) {
        Some((status, code)) => Completion {
            status,
            code,
            comm: MPI_COMM_WORLD,
        },
        None => Completion::empty(),
    }
}

/// A completed request as the C surface reports it.
pub struct Completion {
    pub status: Status,
    /// MPI_SUCCESS, or MPI_ERR_TRUNCATE for a truncated receive.
    pub code: c_int,
    /// The request's communicator, whose error handler an error goes to.
    pub comm: MPI_Comm,
}

impl Completion {
    /// What a null or inactive request completes with.
    pub(crate) fn empty() -> Self {
        let st = Status {
            source: MPI_ANY_SOURCE,
            tag: MPI_ANY_TAG,
            ..Status::default()
        };
        Completion::new(st, MPI_COMM_WORLD)
    }

    pub(crate) fn new(status: Status, comm: MPI_Comm) -> Self {
        let code = status_code(&status);
        Completion { status, code, comm }
    }
}

/// The error code a completed request reports: MPI_ERR_TRUNCATE for a truncated receive.
fn status_code(st: &Status) -> c_int {
    if st.truncated() {
        MPI_ERR_TRUNCATE
    } else {
        MPI_SUCCESS
    }
}

/// Finish a completed handle: free or deactivate it. `owner` is the engine's
/// record of the communicator (used for handles without a table entry).
fn finish(h: &mut MPI_Request, st: Status, owner: Owner) -> Completion {
    let Some(i) = handles::request_index(*h) else {
        // Completed when started, or a plain engine request: nothing else to release.
        *h = MPI_REQUEST_NULL;
        return Completion::new(st, handles::owner_comm(owner));
    };
    let mut t = REQUESTS.lock();
    match t.get_mut(i) {
        Some(RequestEntry::Persistent { active, comm, .. }) => {
            *active = None;
            Completion::new(st, *comm)
        }
        Some(RequestEntry::PersistentColl { active, comm, .. }) => {
            *active = None;
            Completion::new(st, *comm)
        }
        Some(RequestEntry::Partitioned { comm, .. }) => Completion::new(st, *comm),
        Some(RequestEntry::Active { comm, .. }) => {
            let comm = *comm;
            t.remove(i);
            *h = MPI_REQUEST_NULL;
            Completion::new(st, comm)
        }
        Some(RequestEntry::Coll { comm, .. }) => {
            let comm = *comm;
            t.remove(i);
            *h = MPI_REQUEST_NULL;
            Completion::new(st, comm)
        }
        Some(RequestEntry::Pair { comm, .. }) => {
            let comm = *comm;
            t.remove(i);
            *h = MPI_REQUEST_NULL;
            Completion::new(st, comm)
        }
        Some(
            RequestEntry::Rma { .. }
            | RequestEntry::Flush { .. }
            | RequestEntry::Grequest(_)
            | RequestEntry::Message { .. },
        ) => {
            t.remove(i);
            *h = MPI_REQUEST_NULL;
            Completion::new(st, MPI_COMM_WORLD)
        }
        None => Completion::new(st, MPI_COMM_WORLD),
    }
}

/// The end of a nonblocking collective: an empty status, or its error.
fn finish_coll(h: &mut MPI_Request, res: Result<()>) -> Result<Completion> {
    let c = finish(
        h,
        Status {
            source: MPI_ANY_SOURCE,
            tag: MPI_ANY_TAG,
            ..Status::default()
        },
        Owner::NONE,
    );
    res.map(|()| c)
}

/// MPI_Wait on one handle.
pub fn wait(h: &mut MPI_Request) -> Result<Completion> {
    // The common cases first, in one step each: an eager send that completed when it
    // started (nothing to look up), and a plain engine request (resolved and waited for
    // in one call: through `pending` it cost a tenth more per message at high rates).
    if *h == handles::REQUEST_SEND_DONE {
        *h = MPI_REQUEST_NULL;
        return Ok(Completion::new(Status::default(), MPI_COMM_WORLD));
    }
    if let Some(slot) = handles::engine_slot(*h) {
        let (st, owner) = shim::world()?.wait_slot(slot).ok_or_else(|| invalid(*h))?;
        *h = MPI_REQUEST_NULL;
        return Ok(Completion::new(st, handles::owner_comm(owner)));
    }
    match pending(*h)? {
        Pending::Empty => Ok(Completion::empty()),
        Pending::Done(st) => Ok(finish(h, st, Owner::NONE)),
        Pending::Coll(id) => {
            let res = shim::world()?.wait_collective(id);
            finish_coll(h, res)
        }
        Pending::Engine(req) => {
            let (st, owner) = shim::world()?.wait_owned(req);
            Ok(finish(h, st, owner))
        }
        Pending::Rma(i) => {
            shim::world()?.progress.wait(|_| rma_done(i).then_some(()));
            Ok(finish(h, Status::default(), Owner::NONE))
        }
        Pending::Grequest(i) => {
            // Progress goes on meanwhile: the request may wait for MPI communication.
            shim::world()?
                .progress
                .wait(|_| grequest::is_complete(i).then_some(()));
            Ok(grequest_done(h, i))
        }
        Pending::Pair(r, s) => {
            let st = shim::world()?.progress.wait(|e| pair_take(e, r, s));
            Ok(finish(h, st, Owner::NONE))
        }
        Pending::Flush(i) => {
            shim::world()?
                .progress
                .wait(|e| flush_done(e, i).then_some(()));
            Ok(finish(h, Status::default(), Owner::NONE))
        }
        Pending::Part(i) => {
            shim::world()?.progress.wait(|e| part_done(e, i))?;
            Ok(part_finish(i))
        }
    }
}

/// MPI_Test on one handle: Some when complete.
pub fn test(h: &mut MPI_Request) -> Result<Option<Completion>> {
    match pending(*h)? {
        Pending::Empty => Ok(Some(Completion::empty())),
        Pending::Done(st) => Ok(Some(finish(h, st, Owner::NONE))),
        Pending::Coll(id) => match shim::world()?.test_collective(id) {
            Some(res) => finish_coll(h, res).map(Some),
            None => Ok(None),
        },
        Pending::Engine(req) => Ok(shim::world()?
            .test_owned(req)
            .map(|(st, owner)| finish(h, st, owner))),
        Pending::Rma(i) => Ok(rma_done(i).then(|| finish(h, Status::default(), Owner::NONE))),
        Pending::Grequest(i) => {
            // A round of progress, as every test makes.
            shim::world()?.progress.with(|_| ());
            Ok(grequest::is_complete(i).then(|| grequest_done(h, i)))
        }
        Pending::Pair(r, s) => Ok(shim::world()?
            .progress
            .with(|e| pair_take(e, r, s))
            .map(|st| finish(h, st, Owner::NONE))),
        Pending::Flush(i) => Ok(shim::world()?
            .progress
            .with(|e| flush_done(e, i))
            .then(|| finish(h, Status::default(), Owner::NONE))),
        Pending::Part(i) => match shim::world()?.progress.with(|e| part_done(e, i)) {
            None => Ok(None),
            Some(r) => r.map(|()| Some(part_finish(i))),
        },
    }
}

/// Check that every handle of a list names a request, before a call completes any of
/// them (MPI_ERR_REQUEST for the first that does not); the engine's in one round under
/// its lock (MPI_Waitall of a window of receives is on the message-rate path).
pub fn check_all(hs: &[MPI_Request]) -> Result<()> {
    let mut engine = false;
    for &h in hs {
        if handles::engine_slot(h).is_some() {
            engine = true;
        } else {
            pending(h)?;
        }
    }
    if !engine {
        return Ok(());
    }
    let bad = shim::world()?
        .progress
        .locked(|e| dead_engine_handle(e, hs));
    bad.map_or(Ok(()), |h| Err(invalid(h)))
}

/// The first engine handle of a list whose request is gone (freed, or never was).
fn dead_engine_handle(e: &ProgressState, hs: &[MPI_Request]) -> Option<MPI_Request> {
    hs.iter()
        .copied()
        .find(|&h| handles::engine_slot(h).is_some_and(|slot| e.p2p.slot_id(slot).is_none()))
}

/// MPI_Waitall's common case, where every handle is an engine request, a send done when
/// it started, or null (a window of receives or sends): each request is collected as
/// soon as a round of progress finds it done, all under one hold of the progress lock per
/// round rather than a call, a look-up of the world and a lock per handle. Statuses are
/// written (`MPI_ERROR` too) and the handles set to null. None, with nothing done, when
/// some handle is of another kind; else whether a request failed (MPI_ERR_IN_STATUS).
///
/// # Safety
/// `statuses` is MPI_STATUSES_IGNORE or has room for `hs.len()` statuses.
pub unsafe fn wait_all_plain(
    hs: &mut [MPI_Request],
    statuses: *mut MPI_Status,
) -> Result<Option<bool>> {
    let plain = |h: MPI_Request| {
        h == MPI_REQUEST_NULL
            || h == handles::REQUEST_SEND_DONE
            || handles::engine_slot(h).is_some()
    };
    if !hs.iter().all(|&h| plain(h)) {
        return Ok(None);
    }
    if hs.is_empty() {
        return Ok(Some(false));
    }
    let w = shim::world()?;
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
            let (st, code) = match handles::engine_slot(*h) {
                Some(slot) => match crate::runtime::world::slot_ready(e, slot) {
                    None => return None,
                    Some(Some((st, _))) => (st, status_code(&st)),
                    // Checked live above; gone only if another thread completed it.
                    Some(None) => {
                        gone = Some(*h);
                        return Some(());
                    }
                },
                None if *h == MPI_REQUEST_NULL => {
                    let c = Completion::empty();
                    (c.status, c.code)
                }
                None => (Status::default(), MPI_SUCCESS),
            };
            failed |= code != MPI_SUCCESS;
            // SAFETY: the caller's contract on `statuses`.
            unsafe { args::write_status(status_at(statuses, next), &st, code) };
            *h = MPI_REQUEST_NULL;
            next += 1;
        }
        Some(())
    });
    match gone {
        Some(h) => Err(invalid(h)),
        None => Ok(Some(failed)),
    }
}

/// What each of a list of handles refers to.
pub fn pending_all(hs: &[MPI_Request]) -> Result<Vec<Pending>> {
    hs.iter().map(|&h| pending(h)).collect()
}

/// True when no handle in the list is active (all null or inactive persistent).
pub fn none_active(ps: &[Pending]) -> bool {
    ps.iter().all(|p| matches!(p, Pending::Empty))
}

/// Indices of the active requests that are complete, after waiting for at least one if
/// `block`. Empty if none is active.
pub fn wait_some(ps: &[Pending], block: bool) -> Result<Vec<usize>> {
    if none_active(ps) {
        return Ok(vec![]);
    }
    let w = shim::world()?;
    let done_now = |e: &mut ProgressState| -> Vec<usize> {
        ps.iter()
            .enumerate()
            .filter(|(_, p)| match p {
                Pending::Empty => false,
                Pending::Done(_) => true,
                Pending::Engine(r) => e.p2p.is_done(*r) != Some(false),
                Pending::Coll(id) => e.colls.is_done(*id),
                Pending::Rma(i) => rma_done(*i),
                Pending::Grequest(i) => grequest::is_complete(*i),
                Pending::Pair(r, s) => pair_done(e, *r, *s),
                Pending::Flush(i) => flush_done(e, *i),
                Pending::Part(i) => part_done(e, *i).is_some(),
            })
            .map(|(i, _)| i)
            .collect()
    };
    if block {
        Ok(w.progress.wait(|e| {
            let d = done_now(e);
            (!d.is_empty()).then_some(d)
        }))
    } else {
        Ok(w.progress.with(done_now))
    }
}

/// Complete handle `hs[i]`, known to be done.
pub fn complete_done(hs: &mut [MPI_Request], i: usize, p: Pending) -> Result<Completion> {
    let (st, owner) = match p {
        Pending::Coll(id) => {
            let res = shim::world()?.test_collective(id).unwrap_or(Ok(()));
            return finish_coll(&mut hs[i], res);
        }
        Pending::Engine(id) => shim::world()?.test_owned(id).unwrap_or_default(),
        Pending::Done(st) => (st, Owner::NONE),
        Pending::Rma(_) => (Status::default(), Owner::NONE),
        Pending::Grequest(g) => return Ok(grequest_done(&mut hs[i], g)),
        Pending::Pair(r, s) => (
            shim::world()?
                .progress
                .with(|e| pair_take(e, r, s))
                .unwrap_or_default(),
            Owner::NONE,
        ),
        Pending::Flush(_) => (Status::default(), Owner::NONE),
        Pending::Part(j) => {
            if let Some(Err(e)) = shim::world()?.progress.with(|e| part_done(e, j)) {
                return Err(e);
            }
            return Ok(part_finish(j));
        }
        Pending::Empty => return Ok(Completion::empty()),
    };
    Ok(finish(&mut hs[i], st, owner))
}

/// Status array element `i` (MPI_STATUSES_IGNORE is pointer value 1).
///
/// # Safety
/// `sts` is MPI_STATUSES_IGNORE or valid for `i + 1` statuses.
pub unsafe fn status_at(sts: *mut MPI_Status, i: usize) -> *mut MPI_Status {
    if sts.is_null() || sts as usize == 1 {
        sts
    } else {
        sts.add(i)
    }
}

/// An inactive persistent request, found by one look-up in the table.
pub enum Startable {
    PointToPoint(usize, PersistentSpec, MPI_Comm),
    Collective(usize, handles::StartColl),
    Partitioned(crate::runtime::partitioned::PartRef),
}

/// The inactive persistent request `h`, point-to-point or collective (else the error
/// MPI_Start gives).
pub fn startable(h: MPI_Request) -> Result<Startable> {
    let i = handles::request_index(h).ok_or_else(|| invalid(h))?;
    match REQUESTS.lock().get(i) {
        Some(RequestEntry::Persistent {
            spec,
            active: None,
            comm,
        }) => Ok(Startable::PointToPoint(i, spec.clone(), *comm)),
        Some(RequestEntry::PersistentColl {
            start,
            active: None,
            ..
        }) => Ok(Startable::Collective(i, start.clone())),
        Some(RequestEntry::Partitioned { part, .. }) => match part.lock().active() {
            true => mpi_err!(Request, "partitioned request is already active"),
            false => Ok(Startable::Partitioned(part.clone())),
        },
        Some(RequestEntry::Persistent { .. } | RequestEntry::PersistentColl { .. }) => {
            mpi_err!(Request, "persistent request is already active")
        }
        _ => Err(invalid(h)),
    }
}

/// One round of persistent collective `i`: the nonblocking collective's return code (its
/// errors went to its communicator's handler already).
fn start_collective(i: usize, start: handles::StartColl) -> c_int {
    // Called without the table's lock: the collective adds its own entry.
    let mut round = MPI_REQUEST_NULL;
    let rc = start(&mut round);
    if rc != MPI_SUCCESS {
        return rc;
    }
    let id = handles::request_index(round).and_then(|j| match REQUESTS.lock().remove(j) {
        Some(RequestEntry::Coll { id, .. }) => Some(id),
        _ => None,
    });
    if let Some(RequestEntry::PersistentColl { active, .. }) = REQUESTS.lock().get_mut(i) {
        *active = id;
    }
    MPI_SUCCESS
}

/// Start an inactive persistent request. Ok holds a persistent collective's own return
/// code (MPI_SUCCESS for point-to-point).
pub fn start(h: MPI_Request) -> Result<c_int> {
    let (i, spec, comm) = match startable(h)? {
        Startable::PointToPoint(i, spec, comm) => (i, spec, comm),
        Startable::Collective(i, f) => return Ok(start_collective(i, f)),
        Startable::Partitioned(p) => {
            // The engine's lock before the channel's, as in every wait.
            shim::world()?
                .progress
                .with(|e| p.lock().start(&mut e.partitioned));
            return Ok(MPI_SUCCESS);
        }
    };
    // SAFETY: MPI_Send_init/MPI_Recv_init's buffer stays valid while the persistent
    // request exists (the application's obligation under MPI).
    let started = unsafe {
        if spec.buffered {
            let buf = spec.buf as *const c_void;
            let ty = spec.held_type.as_ref();
            super::bsend::send(
                buf,
                spec.count,
                spec.datatype,
                ty,
                spec.peer,
                spec.tag,
                comm,
            )?;
            Started::Done {
                proc_null: spec.peer == MPI_PROC_NULL,
            }
        } else if spec.send {
            start_send(&spec, comm)?
        } else {
            start_recv(&spec, comm)?
        }
    };
    let w = shim::world()?;
    let round = match started {
        Started::Pending(req) => req,
        Started::Done { proc_null } => {
            let st = if proc_null {
                args::empty_status(MPI_PROC_NULL)
            } else {
                Status::default()
            };
            w.completed_request(st)
        }
    };
    if let Some(RequestEntry::Persistent { active, .. }) = REQUESTS.lock().get_mut(i) {
        *active = Some(round);
    }
    Ok(MPI_SUCCESS)
}

/// Send data of freed MPI_Isendrecv_replace requests whose send was still in flight: kept
/// until the engine is done with it.
static ORPHANS: parking_lot::Mutex<Vec<(ReqId, Vec<u8>)>> = parking_lot::Mutex::new(Vec::new());

/// MPI_Request_free (MPI_REQUEST_NULL is an error, as in MPICH).
pub fn free(h: &mut MPI_Request) -> Result<()> {
    if *h == MPI_REQUEST_NULL {
        return mpi_err!(Request, "MPI_REQUEST_NULL cannot be freed");
    }
    if matches!(
        *h,
        handles::REQUEST_SEND_DONE | handles::REQUEST_PROC_NULL_DONE
    ) {
        *h = MPI_REQUEST_NULL;
        return Ok(());
    }
    if handles::engine_slot(*h).is_some() {
        if let Pending::Engine(id) = pending(*h)? {
            shim::world()?.request_free(id);
        }
        *h = MPI_REQUEST_NULL;
        return Ok(());
    }
    let w = shim::world()?;
    if let Pending::Grequest(i) = pending(*h)? {
        *h = MPI_REQUEST_NULL;
        return grequest::free(i);
    }
    let i = handles::request_index(*h).ok_or_else(|| invalid(*h))?;
    let entry = REQUESTS.lock().remove(i).ok_or_else(|| invalid(*h))?;
    match entry {
        RequestEntry::Coll { id, .. } => {
            // Freeing an active collective is allowed; it still completes in the background
            // (its buffers stay the application's responsibility, as MPI says).
            w.detach_collective(id);
        }
        RequestEntry::Active { req, .. }
        | RequestEntry::Persistent {
            active: Some(req), ..
        } => w.request_free(req),
        RequestEntry::PersistentColl {
            active: Some(id), ..
        } => w.detach_collective(id),
        RequestEntry::Persistent { active: None, .. }
        | RequestEntry::PersistentColl { active: None, .. } => {}
        // It completes anyway; the window's flush, unlock or fence waits for it.
        RequestEntry::Rma { .. } => {}
        // The sends complete anyway, and detach or finalize waits for them.
        RequestEntry::Flush { .. } => {}
        // An active round's messages are the engine's; its buffers stay the application's.
        RequestEntry::Partitioned { .. } => {}
        RequestEntry::Pair {
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
        RequestEntry::Grequest(_) | RequestEntry::Message { .. } => unreachable!("not freed here"),
    }
    *h = MPI_REQUEST_NULL;
    Ok(())
}

/// MPI_Cancel: receives and generalized requests (sends complete on their own).
pub fn cancel(h: MPI_Request) -> Result<()> {
    if h == MPI_REQUEST_NULL {
        return mpi_err!(Request, "MPI_REQUEST_NULL cannot be cancelled");
    }
    match pending(h)? {
        Pending::Engine(req) => {
            shim::world()?.cancel_recv(req);
        }
        Pending::Grequest(i) => return grequest::cancel(i),
        _ => {}
    }
    Ok(())
}
