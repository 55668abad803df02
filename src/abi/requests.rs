//! Requests as the C surface sees them: starting sends and receives that return a handle,
//! and completing handles (the wait and test families).

use super::args::{self, Source};
use super::consts::*;
use super::handles::{self, PersistentSpec, RequestEntry, TypeRef, REQUESTS};
use super::shim;
use crate::coll::schedule::CollId;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::pt2pt::{MsgBuf, Owner, ReqId, Status};
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

/// Start a nonblocking send.
///
/// # Safety
/// MPI's: `spec.buf` holds the elements and stays valid until the request completes.
pub unsafe fn start_send(spec: &PersistentSpec, comm_h: MPI_Comm) -> Result<Started> {
    let w = shim::world()?;
    let comm = handles::comm(comm_h)?;
    let count = args::count(spec.count)?;
    let ty = match &spec.held_type {
        Some(t) => t.clone(),
        None => handles::datatype(spec.datatype)?,
    };
    args::buffer(spec.buf as *const c_void, count, &ty)?;
    let tag = args::send_tag(spec.tag)?;
    let Some(dst) = args::dest(&comm, spec.peer)? else {
        return Ok(Started::Done { proc_null: true });
    };
    let data = msg_buf(spec.buf as *const c_void, count, &ty)?;
    Ok(
        match w.isend(
            &comm,
            dst,
            tag,
            data,
            spec.sync,
            handles::comm_owner(comm_h),
        ) {
            None => Started::Done { proc_null: false },
            Some(req) => Started::Pending(req),
        },
    )
}

/// Start a nonblocking receive.
///
/// # Safety
/// MPI's: `spec.buf` has room for the elements and stays valid until completion.
pub unsafe fn start_recv(spec: &PersistentSpec, comm_h: MPI_Comm) -> Result<Started> {
    let w = shim::world()?;
    let comm = handles::comm(comm_h)?;
    let count = args::count(spec.count)?;
    let ty = match &spec.held_type {
        Some(t) => t.clone(),
        None => handles::datatype(spec.datatype)?,
    };
    args::buffer(spec.buf as *const c_void, count, &ty)?;
    let tag = args::recv_tag(spec.tag)?;
    let src = match args::source(&comm, spec.peer)? {
        Source::Null => return Ok(Started::Done { proc_null: true }),
        s => s.as_option(),
    };
    let data = msg_buf(spec.buf as *const c_void, count, &ty)?;
    Ok(Started::Pending(w.irecv(
        &comm,
        src,
        tag,
        data,
        handles::comm_owner(comm_h),
    )))
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
}

/// Whether an RMA request handle is done (MPI_Request_get_status: no freeing).
pub fn pending_done(h: MPI_Request) -> Result<bool> {
    match pending(h)? {
        Pending::Rma(i) => Ok(rma_done(i)),
        _ => Ok(true),
    }
}

/// Whether the RMA request at table index `i` is done (a freed one counts as done).
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
        None => Err(invalid(h)),
    }
}

fn invalid(h: MPI_Request) -> Error {
    Error::new(ErrorClass::Request, format!("invalid request {h:#x}"))
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
    fn new(status: Status, comm: MPI_Comm) -> Self {
        let code = if status.truncated() {
            MPI_ERR_TRUNCATE
        } else {
            MPI_SUCCESS
        };
        Completion { status, code, comm }
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
        Some(RequestEntry::Rma { .. }) => {
            t.remove(i);
            *h = MPI_REQUEST_NULL;
            Completion::new(st, MPI_COMM_WORLD)
        }
        None => Completion::new(st, MPI_COMM_WORLD),
    }
}

fn empty() -> Completion {
    let st = Status {
        source: MPI_ANY_SOURCE,
        tag: MPI_ANY_TAG,
        ..Status::default()
    };
    Completion::new(st, MPI_COMM_WORLD)
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
        Pending::Empty => Ok(empty()),
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
    }
}

/// MPI_Test on one handle: Some when complete.
pub fn test(h: &mut MPI_Request) -> Result<Option<Completion>> {
    match pending(*h)? {
        Pending::Empty => Ok(Some(empty())),
        Pending::Done(st) => Ok(Some(finish(h, st, Owner::NONE))),
        Pending::Coll(id) => match shim::world()?.test_collective(id) {
            Some(res) => finish_coll(h, res).map(Some),
            None => Ok(None),
        },
        Pending::Engine(req) => Ok(shim::world()?
            .test_owned(req)
            .map(|(st, owner)| finish(h, st, owner))),
        Pending::Rma(i) => Ok(rma_done(i).then(|| finish(h, Status::default(), Owner::NONE))),
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
    let done_now = |e: &mut crate::runtime::progress::ProgressState| -> Vec<usize> {
        ps.iter()
            .enumerate()
            .filter(|(_, p)| match p {
                Pending::Empty => false,
                Pending::Done(_) => true,
                Pending::Engine(r) => e.p2p.is_done(*r) != Some(false),
                Pending::Coll(id) => e.colls.is_done(*id),
                Pending::Rma(i) => rma_done(*i),
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
        Pending::Empty => return Ok(empty()),
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

/// MPI_Start of a persistent collective: None if `h` is not one; else the call's return
/// code (the nonblocking collective's, whose errors went to the communicator's handler).
pub fn start_collective(h: MPI_Request) -> Option<c_int> {
    let i = handles::request_index(h)?;
    let start = match REQUESTS.lock().get(i) {
        Some(RequestEntry::PersistentColl {
            start,
            active: None,
            ..
        }) => start.clone(),
        Some(RequestEntry::PersistentColl { comm, .. }) => {
            let err = Error::new(ErrorClass::Request, "persistent request is already active");
            return Some(super::errors::raise("MPI_Start", *comm, err));
        }
        _ => return None,
    };
    // Called without the table's lock: the collective adds its own entry.
    let mut round = MPI_REQUEST_NULL;
    let rc = start(&mut round);
    if rc != MPI_SUCCESS {
        return Some(rc);
    }
    let id = handles::request_index(round).and_then(|j| match REQUESTS.lock().remove(j) {
        Some(RequestEntry::Coll { id, .. }) => Some(id),
        _ => None,
    });
    if let Some(RequestEntry::PersistentColl { active, .. }) = REQUESTS.lock().get_mut(i) {
        *active = id;
    }
    Some(MPI_SUCCESS)
}

/// Start an inactive persistent request.
pub fn start(h: MPI_Request) -> Result<()> {
    let i = handles::request_index(h).ok_or_else(|| invalid(h))?;
    let (spec, comm) = match REQUESTS.lock().get(i) {
        Some(RequestEntry::Persistent {
            spec,
            active: None,
            comm,
        }) => (spec.clone(), *comm),
        Some(RequestEntry::Persistent { .. }) => {
            return mpi_err!(Request, "persistent request is already active")
        }
        _ => return Err(invalid(h)),
    };
    // SAFETY: MPI_Send_init/MPI_Recv_init's buffer stays valid while the persistent
    // request exists (the application's obligation under MPI).
    let started = unsafe {
        if spec.send {
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
    Ok(())
}

/// MPI_Request_free.
pub fn free(h: &mut MPI_Request) -> Result<()> {
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
    let i = handles::request_index(*h).ok_or_else(|| invalid(*h))?;
    let entry = REQUESTS.lock().remove(i).ok_or_else(|| invalid(*h))?;
    let w = shim::world()?;
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
    }
    *h = MPI_REQUEST_NULL;
    Ok(())
}

/// MPI_Cancel: receives only (sends complete on their own).
pub fn cancel(h: MPI_Request) -> Result<()> {
    if let Pending::Engine(req) = pending(h)? {
        shim::world()?.cancel_recv(req);
    }
    Ok(())
}

/// Turn a per-request code into the call's result, for single completions.
pub fn code_result(code: c_int) -> Result<()> {
    if code == MPI_SUCCESS {
        Ok(())
    } else {
        Err(Error::new(
            ErrorClass::Truncate,
            "message truncated: the receive buffer is too small",
        ))
    }
}
