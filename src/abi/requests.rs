//! Requests as the C surface sees them: starting sends and receives that return a handle,
//! and completing handles (the wait and test families).

use super::args::{self, Source};
use super::consts::*;
use super::errors::class_code;
use super::handles::{self, PersistentSpec, PostProcess, RequestEntry, TypeRef, REQUESTS};
use super::shim;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::pt2pt::{ReqId, Status};
use std::os::raw::{c_int, c_void};

/// A send buffer resolved from (buf, count, datatype): contiguous data is used in place,
/// anything else is packed (the copy lives as long as the request).
pub struct SendData {
    pub ptr: *const u8,
    pub len: usize,
    pub packed: Option<Vec<u8>>,
}

pub fn send_data(buf: *const c_void, count: usize, ty: &TypeRef) -> Result<SendData> {
    let len = args::bytes(count, ty)?;
    if ty.is_contiguous() {
        return Ok(SendData { ptr: buf as *const u8, len, packed: None });
    }
    let mut v = Vec::with_capacity(len);
    // SAFETY: MPI: buf holds `count` elements of the type.
    unsafe { ty.pack(count, buf as *const u8, &mut v) };
    Ok(SendData { ptr: v.as_ptr(), len, packed: Some(v) })
}

/// A receive destination: the user's buffer, or a temporary to unpack from on completion.
pub struct RecvTarget {
    pub ptr: *mut u8,
    pub cap: usize,
    pub post: PostProcess,
}

pub fn recv_target(buf: *mut c_void, count: usize, ty: &TypeRef) -> Result<RecvTarget> {
    let cap = args::bytes(count, ty)?;
    match ty {
        TypeRef::Derived(d) if !d.is_contiguous() => {
            let mut tmp = vec![0u8; cap];
            Ok(RecvTarget {
                ptr: tmp.as_mut_ptr(),
                cap,
                post: PostProcess::Unpack { tmp, dst: buf as usize, count, dtype: d.clone() },
            })
        }
        _ => Ok(RecvTarget { ptr: buf as *mut u8, cap, post: PostProcess::None }),
    }
}

pub fn finish_post(post: PostProcess, st: &Status) {
    if let PostProcess::Unpack { tmp, dst, count, dtype } = post {
        // SAFETY: MPI: the receive buffer stays valid until the request completes, which
        // is now; it holds `count` elements of `dtype`.
        unsafe { dtype.unpack(count, &tmp[..st.count.min(tmp.len())], dst as *mut u8) };
    }
}

/// Send modes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Standard,
    Sync,
    Ready,
}

/// Start a nonblocking send; returns the engine request and its post-processing.
pub fn start_send(spec: &PersistentSpec, comm_h: MPI_Comm) -> Result<Option<(ReqId, PostProcess)>> {
    let w = shim::world()?;
    let comm = handles::comm(comm_h)?;
    let count = args::count(spec.count)?;
    let ty = handles::datatype(spec.datatype)?;
    args::buffer(spec.buf as *const c_void, count, &ty)?;
    let tag = args::send_tag(spec.tag)?;
    let Some(dst) = args::dest(&comm, spec.peer)? else {
        return Ok(None);
    };
    let data = send_data(spec.buf as *const c_void, count, &ty)?;
    let req = w.isend(&comm, dst, tag, data.ptr, data.len, spec.sync);
    let post = data.packed.map(PostProcess::KeepSendBuffer).unwrap_or(PostProcess::None);
    Ok(Some((req, post)))
}

pub fn start_recv(spec: &PersistentSpec, comm_h: MPI_Comm) -> Result<Option<(ReqId, PostProcess)>> {
    let w = shim::world()?;
    let comm = handles::comm(comm_h)?;
    let count = args::count(spec.count)?;
    let ty = handles::datatype(spec.datatype)?;
    args::buffer(spec.buf as *const c_void, count, &ty)?;
    let tag = args::recv_tag(spec.tag)?;
    let src = match args::source(&comm, spec.peer)? {
        Source::Null => return Ok(None),
        s => s.as_option(),
    };
    let t = recv_target(spec.buf as *mut c_void, count, &ty)?;
    let req = w.irecv(&comm, src, tag, t.ptr, t.cap);
    Ok(Some((req, t.post)))
}

/// A request handle for a started operation (`None`: MPI_PROC_NULL, complete at once).
pub fn handle_for(started: Option<(ReqId, PostProcess)>, comm: MPI_Comm) -> Result<MPI_Request> {
    let (req, post) = match started {
        Some(s) => s,
        None => {
            let w = shim::world()?;
            (w.completed_request(args::empty_status(MPI_PROC_NULL)), PostProcess::None)
        }
    };
    Ok(handles::new_request(RequestEntry::Active { req, comm, post }))
}

/// What a handle refers to right now.
enum Pending {
    /// MPI_REQUEST_NULL or an inactive persistent request: complete with an empty status.
    Empty,
    Engine(ReqId),
}

fn pending(h: MPI_Request) -> Result<Pending> {
    if h == MPI_REQUEST_NULL {
        return Ok(Pending::Empty);
    }
    let i = handles::request_index(h).ok_or_else(|| invalid(h))?;
    match REQUESTS.lock().get(i) {
        Some(RequestEntry::Active { req, .. }) => Ok(Pending::Engine(*req)),
        Some(RequestEntry::Persistent { active: Some((req, _)), .. }) => Ok(Pending::Engine(*req)),
        Some(RequestEntry::Persistent { active: None, .. }) => Ok(Pending::Empty),
        None => Err(invalid(h)),
    }
}

fn invalid(h: MPI_Request) -> Error {
    Error::new(ErrorClass::Request, format!("invalid request {h:#x}"))
}

/// The communicator a request belongs to (for its error handler).
pub fn request_comm(h: MPI_Request) -> MPI_Comm {
    let Some(i) = handles::request_index(h) else { return MPI_COMM_WORLD };
    match REQUESTS.lock().get(i) {
        Some(RequestEntry::Active { comm, .. }) | Some(RequestEntry::Persistent { comm, .. }) => *comm,
        None => MPI_COMM_WORLD,
    }
}

/// Finish a completed handle: post-process, free or deactivate it, and return the status
/// with its error code (MPI_ERR_TRUNCATE for a truncated receive).
fn finish(h: &mut MPI_Request, st: Status) -> (Status, c_int) {
    let code = if st.truncated { MPI_ERR_TRUNCATE } else { MPI_SUCCESS };
    let Some(i) = handles::request_index(*h) else { return (st, code) };
    let mut t = REQUESTS.lock();
    match t.get_mut(i) {
        Some(RequestEntry::Persistent { active, .. }) => {
            if let Some((_, post)) = active.take() {
                drop(t);
                finish_post(post, &st);
            }
        }
        Some(RequestEntry::Active { .. }) => {
            if let Some(RequestEntry::Active { post, .. }) = t.remove(i) {
                drop(t);
                finish_post(post, &st);
            }
            *h = MPI_REQUEST_NULL;
        }
        None => {}
    }
    (st, code)
}

fn empty() -> (Status, c_int) {
    (Status { source: MPI_ANY_SOURCE, tag: MPI_ANY_TAG, ..Status::default() }, MPI_SUCCESS)
}

/// MPI_Wait on one handle.
pub fn wait(h: &mut MPI_Request) -> Result<(Status, c_int)> {
    match pending(*h)? {
        Pending::Empty => Ok(empty()),
        Pending::Engine(req) => {
            let st = shim::world()?.wait(req);
            Ok(finish(h, st))
        }
    }
}

/// MPI_Test on one handle: Some when complete.
pub fn test(h: &mut MPI_Request) -> Result<Option<(Status, c_int)>> {
    match pending(*h)? {
        Pending::Empty => Ok(Some(empty())),
        Pending::Engine(req) => Ok(shim::world()?.test(req).map(|st| finish(h, st))),
    }
}

/// Engine requests behind a list of handles (None for null/inactive ones).
pub fn pending_all(hs: &[MPI_Request]) -> Result<Vec<Option<ReqId>>> {
    hs.iter()
        .map(|&h| {
            Ok(match pending(h)? {
                Pending::Empty => None,
                Pending::Engine(r) => Some(r),
            })
        })
        .collect()
}

/// Indices (into `ids`) of the requests that are complete, after waiting for at least one
/// if `block`. Empty if every entry is None.
pub fn wait_some(ids: &[Option<ReqId>], block: bool) -> Result<Vec<usize>> {
    let w = shim::world()?;
    if ids.iter().all(|r| r.is_none()) {
        return Ok(vec![]);
    }
    let done_now = |e: &mut crate::runtime::progress::Engine| -> Vec<usize> {
        ids.iter()
            .enumerate()
            .filter(|(_, r)| r.is_some_and(|r| e.p2p.is_done(r) != Some(false)))
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

/// Complete handle `hs[i]` whose engine request is known to be done.
pub fn complete_done(hs: &mut [MPI_Request], i: usize, id: ReqId) -> Result<(Status, c_int)> {
    let st = shim::world()?.test(id).unwrap_or_default();
    Ok(finish(&mut hs[i], st))
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

/// Start an inactive persistent request.
pub fn start(h: MPI_Request) -> Result<()> {
    let i = handles::request_index(h).ok_or_else(|| invalid(h))?;
    let (spec, comm) = match REQUESTS.lock().get(i) {
        Some(RequestEntry::Persistent { spec, active: None, comm }) => (spec.clone(), *comm),
        Some(RequestEntry::Persistent { .. }) => return mpi_err!(Request, "persistent request is already active"),
        _ => return Err(invalid(h)),
    };
    let started = if spec.send { start_send(&spec, comm)? } else { start_recv(&spec, comm)? };
    let round = match started {
        Some(s) => s,
        None => (shim::world()?.completed_request(args::empty_status(MPI_PROC_NULL)), PostProcess::None),
    };
    if let Some(RequestEntry::Persistent { active, .. }) = REQUESTS.lock().get_mut(i) {
        *active = Some(round);
    }
    Ok(())
}

/// MPI_Request_free.
pub fn free(h: &mut MPI_Request) -> Result<()> {
    let i = handles::request_index(*h).ok_or_else(|| invalid(*h))?;
    let entry = REQUESTS.lock().remove(i).ok_or_else(|| invalid(*h))?;
    let w = shim::world()?;
    match entry {
        RequestEntry::Active { req, post: PostProcess::None, .. } => w.request_free(req),
        RequestEntry::Active { req, post, .. } => {
            // The engine may still use a packed buffer: wait for it before dropping.
            let st = w.wait(req);
            finish_post(post, &st);
        }
        RequestEntry::Persistent { active: Some((req, post)), .. } => {
            let st = w.wait(req);
            finish_post(post, &st);
        }
        RequestEntry::Persistent { active: None, .. } => {}
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
        Err(Error::new(ErrorClass::Truncate, "message truncated: the receive buffer is too small"))
    }
}

pub fn class_of_truncate() -> c_int {
    class_code(ErrorClass::Truncate)
}
