//! Point-to-point: the core calls behind MPI_Send … MPI_Startall and their large-count
//! forms, as far as they are C: handles looked up, MPI_PROC_NULL/MPI_ANY_SOURCE/MPI_ANY_TAG
//! translated, statuses, flags and request handles written. What the calls do is the
//! core's (`runtime::p2p`: starting, send-receive, persistent requests; `runtime::requests`:
//! completion). The entry points are generated (tools/gen_c.py from tools/c_api.txt): they
//! check counts, request and status pointers by kind and hand counts over as usize.

// The core calls take MPI's parameter lists as they are.
#![allow(clippy::too_many_arguments)]

use super::args::{self, write_status};
use super::consts::*;
use super::errors;
use super::handles;
use super::requests::{self, status_at};
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::p2p;
pub use crate::runtime::p2p::Mode;
pub use crate::runtime::requests::How;
use crate::runtime::requests::{self as core, Any, Completion};
use std::cell::Cell;
use std::os::raw::{c_int, c_void};

/// The send modes as the table passes them (MPI_Rsend behaves as MPI_Send: legal).
pub(crate) const STANDARD: bool = false;
pub(crate) const SYNC: bool = true;

/// MPI_Send, MPI_Ssend, MPI_Rsend.
///
/// # Safety
/// MPI's: `buf` holds `count` elements of `datatype`.
pub unsafe fn send(
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    sync: bool,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let ty = handles::datatype_n(datatype, count)?;
    args::buffer(buf, count, &ty)?;
    let tag = args::send_tag(tag)?;
    let Some(dst) = args::dest(&c, dest)? else {
        return Ok(());
    };
    w.send(&c, dst, tag, p2p::msg_buf(buf as _, count, &ty)?, sync);
    Ok(())
}

/// MPI_Recv.
///
/// # Safety
/// MPI's: `buf` has room for `count` elements of `datatype`.
pub unsafe fn recv(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let ty = handles::datatype_n(datatype, count)?;
    args::buffer(buf, count, &ty)?;
    let tag = args::recv_tag(tag)?;
    let Some(src) = args::source_or_done(&c, source, status)? else {
        return Ok(());
    };
    let data = p2p::msg_buf(buf as _, count, &ty)?;
    let full = data.len();
    let st = w.recv(&c, src, tag, data);
    let code = match p2p::recv_truncated(&st, full, &ty) {
        true => MPI_ERR_TRUNCATE,
        false => MPI_SUCCESS,
    };
    args::write_single_status(status, &st, code);
    errors::code_result(code)
}

/// MPI_Isend, MPI_Issend, MPI_Irsend.
///
/// # Safety
/// MPI's: `buf` holds the elements until the request completes.
#[inline(always)]
pub unsafe fn isend(
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
    sync: bool,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let mode = Some(if sync { Mode::Sync } else { Mode::Standard });
    let op = requests::op(&c, comm, buf, count, datatype, dest, tag, mode, false)?;
    write_out(request, requests::handle_for(op.start(w)?, op.owner)?)
}

/// MPI_Irecv.
///
/// # Safety
/// MPI's: `buf` has room for the elements until the request completes.
#[inline(always)]
pub unsafe fn irecv(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let op = requests::op(&c, comm, buf, count, datatype, source, tag, None, false)?;
    write_out(request, requests::handle_for(op.start(w)?, op.owner)?)
}

/// MPI_Sendrecv, MPI_Sendrecv_replace (`replace`: the table passes its buffer, count and
/// datatype for both parts), blocking (`request` None) or not (MPI_Isendrecv(_replace)):
/// every argument of both parts checked, the send's first; the receive started, then the
/// send (from a packed copy for a replace, which the request keeps).
///
/// # Safety
/// MPI's, for both buffers, until the operation completes.
pub unsafe fn sendrecv(
    sendbuf: *const c_void,
    sendcount: usize,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: usize,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
    request: Option<*mut MPI_Request>,
    replace: bool,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let send = Some(Mode::Standard);
    let ss = requests::op(
        &c, comm, sendbuf, sendcount, sendtype, dest, sendtag, send, true,
    )?;
    let rs = requests::op(
        &c, comm, recvbuf, recvcount, recvtype, source, recvtag, None, true,
    )?;
    let copy = replace.then(|| ss.packed());
    let started = p2p::start_pair(w, &ss, &rs, copy.as_deref())?;
    match request {
        // The copy moves into the request (a Vec's heap buffer does not move with it).
        Some(request) => {
            let e = p2p::pair_entry::<MPI_Request>(w, started, ss.owner, copy);
            write_out(request, handles::new_request(e))
        }
        None => report(status, &p2p::wait_pair::<MPI_Request>(w, started)),
    }
}

// ------------------------------------------------------------------ completion
//
// Every argument is checked before a request is touched: a call that fails leaves every
// request as it was (MPI_Test with a NULL flag must not complete and free the request).

/// The request pointer of a single-request call (NULL: MPICH's MPI_ERR_ARG).
pub(crate) unsafe fn request_arg<'a>(request: *mut MPI_Request) -> Result<&'a mut MPI_Request> {
    if request.is_null() {
        return mpi_err!(Arg, "NULL request pointer");
    }
    Ok(&mut *request)
}

/// Write completion `c` to `status` (one status: MPI_STATUS_IGNORE or valid); the call's
/// result is its code.
pub(crate) unsafe fn report(status: *mut MPI_Status, c: &Completion) -> Result<()> {
    let code = requests::code(c);
    args::write_single_status(status, &c.status, code);
    errors::code_result(code)
}

/// Write completion `c` to element `i` of the status array `sts`.
unsafe fn report_at(sts: *mut MPI_Status, i: usize, c: &Completion) {
    write_status(status_at(sts, i), &c.status, requests::code(c));
}

/// MPI_Wait; `on` learns the request's communicator, whose handler takes the call's error.
///
/// # Safety
/// MPI's: `request` and `status` are NULL or valid.
pub unsafe fn wait(
    request: *mut MPI_Request,
    status: *mut MPI_Status,
    on: &Cell<MPI_Comm>,
) -> Result<()> {
    let c = core::wait(request_arg(request)?)?;
    on.set(handles::owner_comm(c.owner));
    report(status, &c)
}

/// MPI_Test.
///
/// # Safety
/// As `wait`; `flag` is NULL or valid.
pub unsafe fn test(
    request: *mut MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
    on: &Cell<MPI_Comm>,
) -> Result<()> {
    let request = request_arg(request)?;
    args::out_ptr(flag, "flag")?;
    match core::test(request)? {
        Some(c) => {
            on.set(handles::owner_comm(c.owner));
            write_out(flag, 1)?;
            report(status, &c)
        }
        None => write_out(flag, 0),
    }
}

/// The request array of a multiple-completion call, with its status array checked
/// against NULL (the handles are the core's to check); MPI_ERR_ARG for either.
///
/// # Safety
/// `p` holds `n` handles. Only the wait and test forms write them (a completed request's
/// becomes MPI_REQUEST_NULL): the array of MPI_Request_get_status_*, const in C, is only
/// read (`How::Peek`).
unsafe fn request_array<'a>(
    p: *mut MPI_Request,
    n: usize,
    statuses: *mut MPI_Status,
) -> Result<&'a mut [MPI_Request]> {
    if n == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return mpi_err!(Arg, "NULL request array");
    }
    if statuses.is_null() {
        return mpi_err!(Arg, "NULL status array (MPI_STATUSES_IGNORE is not NULL)");
    }
    Ok(std::slice::from_raw_parts_mut(p, n))
}

/// MPI_Waitall.
///
/// # Safety
/// MPI's: `requests` holds `count` handles; `statuses` room for `count` statuses or
/// MPI_STATUSES_IGNORE.
pub unsafe fn waitall(
    count: usize,
    requests: *mut MPI_Request,
    statuses: *mut MPI_Status,
) -> Result<()> {
    let hs = request_array(requests, count, statuses)?;
    core::wait_all(hs, |i, c| report_at(statuses, i, c))
}

/// MPI_Testall and MPI_Request_get_status_all (`how`).
///
/// # Safety
/// As `waitall`; `flag` is NULL or valid.
pub unsafe fn all(
    count: usize,
    requests: *const MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
    how: How,
) -> Result<()> {
    args::out_ptr(flag, "flag")?;
    let hs = request_array(requests as *mut _, count, statuses)?;
    match core::all(hs, how, |i, c| report_at(statuses, i, c)) {
        Ok(done) => write_out(flag, done as c_int),
        Err(e) => core::in_status_then(e, || write_out(flag, 1)),
    }
}

/// MPI_Waitany (the table passes a flag of its own), MPI_Testany and
/// MPI_Request_get_status_any (`how`).
///
/// # Safety
/// As `waitall`, with one status.
pub unsafe fn any(
    count: usize,
    requests: *const MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
    how: How,
) -> Result<()> {
    args::out_ptr(index, "index")?;
    args::out_ptr(flag, "flag")?;
    let hs = request_array(requests as *mut _, count, MPI_STATUSES_IGNORE)?;
    let found = core::any(hs, how)?;
    let none_active = matches!(found, Any::NoneActive);
    let (done, i, c) = found.outputs::<MPI_Request>();
    write_out(flag, done as c_int)?;
    write_out(index, i.map_or(MPI_UNDEFINED, |i| i as c_int))?;
    match c {
        // An empty status, its error field MPI_SUCCESS too (MPI-4.1 §3.7.3).
        Some(c) if none_active => {
            write_status(status, &c.status, MPI_SUCCESS);
            Ok(())
        }
        Some(c) => report(status, &c),
        None => Ok(()),
    }
}

/// MPI_Waitsome, MPI_Testsome and MPI_Request_get_status_some (`how`).
///
/// # Safety
/// As `waitall`; `indices` has room for `incount` indices.
pub unsafe fn some(
    incount: usize,
    requests: *const MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
    how: How,
) -> Result<()> {
    args::out_ptr(outcount, "outcount")?;
    let hs = request_array(requests as *mut _, incount, statuses)?;
    if !hs.is_empty() {
        args::out_ptr(indices, "indices")?;
    }
    let mut n = 0;
    let out = |k, i, c: &Completion| {
        *indices.add(k) = i as c_int;
        report_at(statuses, k, c);
        n = k + 1;
    };
    match core::some(hs, how, out) {
        // (None: no request was active.)
        Ok(n) => write_out(outcount, n.map_or(MPI_UNDEFINED, |n| n as c_int)),
        Err(e) => core::in_status_then(e, || write_out(outcount, n as c_int)),
    }
}

/// MPI_Request_get_status.
///
/// # Safety
/// `flag` and `status` are NULL or valid.
pub unsafe fn request_get_status(
    request: MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(flag, "flag")?;
    match core::get_status(request)? {
        Some(c) => {
            write_out(flag, 1)?;
            report(status, &c)
        }
        None => write_out(flag, 0),
    }
}

// ------------------------------------------------------------------ persistent requests

/// MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Bsend_init (`send` their mode) and
/// MPI_Recv_init (`send` None): the request holds the communicator and the datatype, so
/// that freeing their handles leaves later MPI_Starts alone (MPI-3.1 §4.1.9).
///
/// # Safety
/// MPI's: `buf` holds (has room for) the elements while the request exists.
pub unsafe fn init(
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    peer: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
    send: Option<Mode>,
) -> Result<()> {
    shim::world()?;
    let c = handles::comm(comm)?;
    let op = requests::op(&c, comm, buf, count, datatype, peer, tag, send, true)?;
    let ty = op.ty.to_kept();
    let op = op.with(handles::comm_arc(comm)?, ty);
    write_out(
        request,
        handles::new_request(p2p::persistent::<MPI_Request, _, _>(op)),
    )
}
