//! Requests as the C surface sees them: starting sends and receives from C arguments
//! (handles, tags, ranks) and naming the result with a handle. Completing handles is the
//! core's (`runtime::requests`); what the C side adds is below: the code a completion
//! reports, status arrays, persistent point-to-point rounds.

use super::args::{self, Source};
use super::consts::*;
use super::errors;
use super::handles::{self, KeptType, TypeRef};
use super::shim;
use crate::error::Result;
use crate::pt2pt::{MsgBuf, ReqId, Status};
use crate::runtime::requests::{Completion, Entry, Round, Starter};
use std::os::raw::{c_int, c_void};
use std::sync::Arc;

/// A send or receive as its C arguments give it: what a persistent request starts each
/// round, and what nonblocking calls start once.
#[derive(Clone)]
pub struct PersistentSpec {
    pub send: bool,
    pub sync: bool,
    /// MPI_Bsend_init: each start packs into the attached buffer (see `abi::bsend`).
    pub buffered: bool,
    pub buf: usize,
    pub count: usize,
    pub datatype: MPI_Datatype,
    /// The datatype itself, held by a persistent request from MPI_Send_init/Recv_init on,
    /// so MPI_Type_free of the handle does not affect later MPI_Starts (MPI-3.1 §4.1.9).
    pub held_type: Option<KeptType>,
    pub peer: c_int,
    pub tag: c_int,
}

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
            None => handles::new_request(Entry::Active {
                req,
                owner: handles::comm_owner(comm),
            }),
        },
    })
}

/// The error code a completion reports (its status's MPI_ERROR): the request's error's,
/// MPI_ERR_TRUNCATE for a truncated receive, else MPI_SUCCESS.
pub fn code(c: &Completion) -> c_int {
    match &c.error {
        Some(e) => errors::code_of(e),
        None if c.status.truncated() => MPI_ERR_TRUNCATE,
        None => MPI_SUCCESS,
    }
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

/// How a persistent point-to-point request starts a round (MPI_Start).
pub fn starter(spec: PersistentSpec, comm: MPI_Comm) -> Starter {
    Arc::new(move || {
        // SAFETY: MPI_Send_init/MPI_Recv_init's buffer stays valid while the persistent
        // request exists (the application's obligation under MPI).
        let started = unsafe {
            if spec.buffered {
                let buf = spec.buf as *const c_void;
                let ty = spec.held_type.as_ref();
                let (count, datatype) = (spec.count, spec.datatype);
                super::bsend::send(buf, count, datatype, ty, spec.peer, spec.tag, comm)?;
                Started::Done {
                    proc_null: spec.peer == MPI_PROC_NULL,
                }
            } else if spec.send {
                start_send(&spec, comm)?
            } else {
                start_recv(&spec, comm)?
            }
        };
        Ok(Ok(Round::Engine(match started {
            Started::Pending(req) => req,
            Started::Done { proc_null } => {
                let st = match proc_null {
                    true => args::empty_status(MPI_PROC_NULL),
                    false => Status::default(),
                };
                shim::world()?.completed_request(st)
            }
        })))
    })
}
