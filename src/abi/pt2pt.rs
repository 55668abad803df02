//! Point-to-point: the core calls behind MPI_Send … MPI_Startall and their large-count
//! forms. The entry points are generated (tools/gen_c.py from tools/c_api.txt): they check
//! counts, request and status pointers by kind and hand counts over as usize.

// The core calls take MPI's parameter lists as they are.
#![allow(clippy::too_many_arguments)]

use super::args::{self, write_status};
use super::consts::*;
use super::errors;
use super::handles;
use super::requests::{self, msg_buf, status_at, PersistentSpec};
use super::shim::{self, write_out};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::runtime::requests::{self as core, Any, Completion, Entry};
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
    let ty = handles::datatype(datatype)?;
    args::buffer(buf, count, &ty)?;
    let tag = args::send_tag(tag)?;
    let Some(dst) = args::dest(&c, dest)? else {
        return Ok(());
    };
    w.send(&c, dst, tag, msg_buf(buf, count, &ty)?, sync);
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
    let ty = handles::datatype(datatype)?;
    args::buffer(buf, count, &ty)?;
    let tag = args::recv_tag(tag)?;
    let Some(src) = args::source_or_done(&c, source, status)? else {
        return Ok(());
    };
    let data = msg_buf(buf, count, &ty)?;
    let full = data.len();
    let st = w.recv(&c, src, tag, data);
    // A short message that ends inside a basic element of a noncontiguous receive type
    // came from a send of another type signature: MPI_ERR_TRUNCATE, MPICH's class for
    // it. As MPICH, contiguous types are not checked (bytes received as ints are the
    // program's business); only here, where the type is at hand.
    let split = st.count != full && !ty.is_contiguous() && ty.splits_element(st.count as u64);
    let code = if st.truncated() || split {
        MPI_ERR_TRUNCATE
    } else {
        MPI_SUCCESS
    };
    args::write_single_status(status, &st, code);
    errors::code_result(code)
}

fn spec(
    send: bool,
    sync: bool,
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    peer: c_int,
    tag: c_int,
) -> PersistentSpec {
    PersistentSpec {
        send,
        sync,
        buffered: false,
        buf: buf as usize,
        count,
        datatype,
        held_type: None,
        peer,
        tag,
    }
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
    let started = requests::start_send(&spec(true, sync, buf, count, datatype, dest, tag), comm)?;
    write_out(request, requests::handle_for(started, comm)?)
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
    let s = spec(false, false, buf, count, datatype, source, tag);
    let started = requests::start_recv(&s, comm)?;
    write_out(request, requests::handle_for(started, comm)?)
}

/// Start a send-receive: the receive, then the send (of `copy` instead of the send
/// spec's buffer when given), after checking every argument of both.
///
/// # Safety
/// MPI's, for both buffers; `copy` outlives the send.
unsafe fn start_sendrecv(
    ss: &PersistentSpec,
    rs: &PersistentSpec,
    copy: Option<&[u8]>,
    comm: MPI_Comm,
) -> Result<(requests::Started, requests::Started)> {
    requests::check(ss, comm)?;
    requests::check(rs, comm)?;
    let recv = requests::start_recv(rs, comm)?;
    let send = match copy {
        Some(c) => requests::start_send_packed(ss, comm, c)?,
        None => requests::start_send(ss, comm)?,
    };
    Ok((recv, send))
}

/// The packed copy of `count` elements of `datatype` at `buf` that a send-receive with
/// replace sends.
///
/// # Safety
/// MPI's: `buf` holds the elements.
unsafe fn replace_copy(buf: *mut c_void, count: usize, datatype: MPI_Datatype) -> Result<Vec<u8>> {
    let ty = handles::datatype(datatype)?;
    args::buffer(buf, count, &ty)?;
    let mut copy = Vec::new();
    ty.pack(count, buf as *const u8, &mut copy);
    Ok(copy)
}

/// Wait for a started send-receive; its receive's completion.
fn wait_sendrecv(
    (recv, send): (requests::Started, requests::Started),
    comm: MPI_Comm,
) -> Result<Completion> {
    let mut rreq = requests::handle_for(recv, comm)?;
    let mut sreq = requests::handle_for(send, comm)?;
    core::wait(&mut sreq)?;
    core::wait(&mut rreq)
}

/// MPI_Sendrecv.
///
/// # Safety
/// MPI's, for both buffers.
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
) -> Result<()> {
    let rs = spec(false, false, recvbuf, recvcount, recvtype, source, recvtag);
    let ss = spec(true, false, sendbuf, sendcount, sendtype, dest, sendtag);
    let c = wait_sendrecv(start_sendrecv(&ss, &rs, None, comm)?, comm)?;
    report(status, &c)
}

/// MPI_Sendrecv_replace.
///
/// # Safety
/// MPI's: `buf` holds and has room for the elements.
pub unsafe fn sendrecv_replace(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    let rs = spec(false, false, buf, count, datatype, source, recvtag);
    let ss = spec(true, false, buf, count, datatype, dest, sendtag);
    requests::check(&ss, comm)?;
    // Send from a packed copy, receive into the buffer itself.
    let copy = replace_copy(buf, count, datatype)?;
    let c = wait_sendrecv(start_sendrecv(&ss, &rs, Some(&copy), comm)?, comm)?;
    report(status, &c)
}

/// The request of a started MPI_Isendrecv(_replace): one handle for both parts.
fn sendrecv_request(
    (recv, send): (requests::Started, requests::Started),
    copy: Option<Vec<u8>>,
    comm: MPI_Comm,
) -> Result<MPI_Request> {
    let w = shim::world()?;
    let recv = match recv {
        requests::Started::Pending(r) => r,
        requests::Started::Done { .. } => w.completed_request(args::empty_status(MPI_PROC_NULL)),
    };
    let send = match send {
        requests::Started::Pending(r) => r,
        requests::Started::Done { .. } => 0,
    };
    Ok(handles::new_request(Entry::Pair {
        recv,
        send,
        owner: handles::comm_owner(comm),
        copy,
    }))
}

/// MPI_Isendrecv.
///
/// # Safety
/// MPI's, for both buffers, until the request completes.
pub unsafe fn isendrecv(
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
    request: *mut MPI_Request,
) -> Result<()> {
    let rs = spec(false, false, recvbuf, recvcount, recvtype, source, recvtag);
    let ss = spec(true, false, sendbuf, sendcount, sendtype, dest, sendtag);
    let started = start_sendrecv(&ss, &rs, None, comm)?;
    write_out(request, sendrecv_request(started, None, comm)?)
}

/// MPI_Isendrecv_replace.
///
/// # Safety
/// MPI's: `buf` holds and has room for the elements until the request completes.
pub unsafe fn isendrecv_replace(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    let rs = spec(false, false, buf, count, datatype, source, recvtag);
    let ss = spec(true, false, buf, count, datatype, dest, sendtag);
    requests::check(&ss, comm)?;
    let copy = replace_copy(buf, count, datatype)?;
    // The copy moves into the request (a Vec's heap buffer does not move with it).
    let started = start_sendrecv(&ss, &rs, Some(&copy), comm)?;
    write_out(request, sendrecv_request(started, Some(copy), comm)?)
}

// ------------------------------------------------------------------ completion
//
// Every argument is checked before a request is touched: a call that fails leaves every
// request as it was (MPI_Test with a NULL flag must not complete and free the request).

/// The request pointer of a single-request call (NULL: MPICH's MPI_ERR_ARG).
unsafe fn request_arg<'a>(request: *mut MPI_Request) -> Result<&'a mut MPI_Request> {
    if request.is_null() {
        return mpi_err!(Arg, "NULL request pointer");
    }
    Ok(&mut *request)
}

/// Write completion `c` to `status` (one status: MPI_STATUS_IGNORE or valid); the call's
/// result is its code.
unsafe fn report(status: *mut MPI_Status, c: &Completion) -> Result<()> {
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
/// against NULL (the handles are the core's to check).
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

/// MPI_Testall.
///
/// # Safety
/// As `waitall`; `flag` is NULL or valid.
pub unsafe fn testall(
    count: usize,
    requests: *mut MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(flag, "flag")?;
    let hs = request_array(requests, count, statuses)?;
    match core::test_all(hs, |i, c| report_at(statuses, i, c)) {
        Ok(done) => write_out(flag, done as c_int),
        Err(e) => in_status(e, || write_out(flag, 1)),
    }
}

/// Return error `e`; when it is MPI_ERR_IN_STATUS (the statuses are written), after
/// writing the other outputs with `write`.
fn in_status(e: Error, write: impl FnOnce() -> Result<()>) -> Result<()> {
    if e.class == ErrorClass::InStatus {
        write()?;
    }
    Err(e)
}

/// Write what MPI_Waitany, MPI_Testany or MPI_Request_get_status_any found.
unsafe fn report_any(
    found: Any,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> Result<()> {
    match found {
        Any::NoneActive => {
            write_out(flag, 1)?;
            write_out(index, MPI_UNDEFINED)?;
            // An empty status, its error field MPI_SUCCESS too (MPI-4.1 §3.7.3).
            let st = args::empty_status(MPI_ANY_SOURCE);
            args::write_single_status(status, &st, MPI_SUCCESS);
            if !status.is_null() && status as usize != 1 {
                (*status).MPI_ERROR = MPI_SUCCESS;
            }
            Ok(())
        }
        Any::NotYet => {
            write_out(flag, 0)?;
            write_out(index, MPI_UNDEFINED)
        }
        Any::Done(i, c) => {
            write_out(flag, 1)?;
            write_out(index, i as c_int)?;
            report(status, &c)
        }
    }
}

/// MPI_Waitany.
///
/// # Safety
/// As `waitall`, with one status.
pub unsafe fn waitany(
    count: usize,
    requests: *mut MPI_Request,
    index: *mut c_int,
    status: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(index, "index")?;
    let hs = request_array(requests, count, MPI_STATUSES_IGNORE)?;
    let mut flag = 0;
    report_any(core::any(hs, true)?, index, &mut flag, status)
}

/// MPI_Testany.
///
/// # Safety
/// As `waitany`.
pub unsafe fn testany(
    count: usize,
    requests: *mut MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(index, "index")?;
    args::out_ptr(flag, "flag")?;
    let hs = request_array(requests, count, MPI_STATUSES_IGNORE)?;
    report_any(core::any(hs, false)?, index, flag, status)
}

/// Write a "some" call's count (None: no request was active, MPI_UNDEFINED).
unsafe fn write_count(outcount: *mut c_int, n: Option<usize>) -> Result<()> {
    write_out(outcount, n.map_or(MPI_UNDEFINED, |n| n as c_int))
}

/// MPI_Waitsome (`block`) and MPI_Testsome.
///
/// # Safety
/// As `waitall`; `indices` has room for `incount` indices.
pub unsafe fn some(
    incount: usize,
    requests: *mut MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
    block: bool,
) -> Result<()> {
    args::out_ptr(outcount, "outcount")?;
    let hs = request_array(requests, incount, statuses)?;
    if !hs.is_empty() {
        args::out_ptr(indices, "indices")?;
    }
    let mut n = 0;
    let r = core::some(hs, block, |k, i, c| {
        *indices.add(k) = i as c_int;
        report_at(statuses, k, c);
        n = k + 1;
    });
    match r {
        Ok(n) => write_count(outcount, n),
        Err(e) => in_status(e, || write_count(outcount, Some(n))),
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

/// The request array of an MPI_Request_get_status_* call (read only).
unsafe fn peek_array<'a>(p: *const MPI_Request, n: usize) -> Result<&'a [MPI_Request]> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return mpi_err!(Arg, "NULL request array");
    }
    Ok(std::slice::from_raw_parts(p, n))
}

/// MPI_Request_get_status_any (MPI-4.1): as MPI_Testany, but nothing is freed.
///
/// # Safety
/// MPI's: `requests` holds `count` handles; the outputs are NULL or valid.
pub unsafe fn request_get_status_any(
    count: usize,
    requests: *const MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(index, "index")?;
    args::out_ptr(flag, "flag")?;
    let hs = peek_array(requests, count)?;
    report_any(core::get_status_any(hs)?, index, flag, status)
}

/// MPI_Request_get_status_all (MPI-4.1): as MPI_Testall, but nothing is freed.
///
/// # Safety
/// As `request_get_status_any`; `statuses` has room for `count` or is
/// MPI_STATUSES_IGNORE.
pub unsafe fn request_get_status_all(
    count: usize,
    requests: *const MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(flag, "flag")?;
    if count > 0 && statuses.is_null() {
        return mpi_err!(Arg, "NULL status array (MPI_STATUSES_IGNORE is not NULL)");
    }
    let hs = peek_array(requests, count)?;
    match core::get_status_all(hs, |i, c| report_at(statuses, i, c)) {
        Ok(done) => write_out(flag, done as c_int),
        Err(e) => in_status(e, || write_out(flag, 1)),
    }
}

/// MPI_Request_get_status_some (MPI-4.1): as MPI_Testsome, but nothing is freed.
///
/// # Safety
/// As `request_get_status_all`; `indices` has room for `incount` indices.
pub unsafe fn request_get_status_some(
    incount: usize,
    requests: *const MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(outcount, "outcount")?;
    if incount > 0 {
        args::out_ptr(indices, "indices")?;
        if statuses.is_null() {
            return mpi_err!(Arg, "NULL status array (MPI_STATUSES_IGNORE is not NULL)");
        }
    }
    let hs = peek_array(requests, incount)?;
    let mut n = 0;
    let r = core::get_status_some(hs, |k, i, c| {
        *indices.add(k) = i as c_int;
        report_at(statuses, k, c);
        n = k + 1;
    });
    match r {
        Ok(n) => write_count(outcount, n),
        Err(e) => in_status(e, || write_count(outcount, Some(n))),
    }
}

/// MPI_Request_free.
///
/// # Safety
/// `request` is NULL or valid.
pub unsafe fn request_free(request: *mut MPI_Request) -> Result<()> {
    core::free(request_arg(request)?)
}

/// MPI_Cancel.
///
/// # Safety
/// `request` is NULL or valid.
pub unsafe fn cancel(request: *mut MPI_Request) -> Result<()> {
    core::cancel(*request_arg(request)?)
}

// ------------------------------------------------------------------ probe

/// MPI_Probe.
///
/// # Safety
/// `status` is MPI_STATUS_IGNORE or valid.
pub unsafe fn probe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let tag = args::recv_tag(tag)?;
    let Some(src) = args::source_or_done(&c, source, status)? else {
        return Ok(());
    };
    let st = w.probe(&c, src, tag);
    args::write_single_status(status, &st, MPI_SUCCESS);
    Ok(())
}

/// MPI_Iprobe.
///
/// # Safety
/// `flag` is NULL or valid; `status` MPI_STATUS_IGNORE or valid.
pub unsafe fn iprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(flag, "flag")?;
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let tag = args::recv_tag(tag)?;
    let Some(src) = args::source_or_done(&c, source, status)? else {
        return write_out(flag, 1);
    };
    match w.iprobe(&c, src, tag) {
        Some(st) => {
            args::write_single_status(status, &st, MPI_SUCCESS);
            write_out(flag, 1)
        }
        None => write_out(flag, 0),
    }
}

// ------------------------------------------------------------------ persistent requests

unsafe fn init(mut s: PersistentSpec, comm: MPI_Comm, request: *mut MPI_Request) -> Result<()> {
    requests::check(&s, comm)?;
    s.held_type = Some(handles::datatype(s.datatype)?.to_kept());
    let entry = Entry::Persistent {
        start: requests::starter(s, comm),
        active: None,
        owner: handles::comm_owner(comm),
    };
    write_out(request, handles::new_request(entry))
}

/// MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init.
///
/// # Safety
/// MPI's: `buf` holds the elements while the request exists.
pub unsafe fn send_init(
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
    sync: bool,
) -> Result<()> {
    init(
        spec(true, sync, buf, count, datatype, dest, tag),
        comm,
        request,
    )
}

/// MPI_Bsend_init.
///
/// # Safety
/// As `send_init`.
pub unsafe fn bsend_init(
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    let s = PersistentSpec {
        buffered: true,
        ..spec(true, false, buf, count, datatype, dest, tag)
    };
    init(s, comm, request)
}

/// MPI_Recv_init.
///
/// # Safety
/// MPI's: `buf` has room for the elements while the request exists.
pub unsafe fn recv_init(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    init(
        spec(false, false, buf, count, datatype, source, tag),
        comm,
        request,
    )
}

/// MPI_Start: Ok is the call's return code (a persistent collective's own error went to
/// its communicator's handler already).
///
/// # Safety
/// `request` is NULL or valid.
pub unsafe fn start(request: *mut MPI_Request) -> Result<c_int> {
    Ok(core::start(*request_arg(request)?)?.unwrap_or(MPI_SUCCESS))
}

/// MPI_Startall.
///
/// # Safety
/// MPI's: `requests` holds `count` handles.
pub unsafe fn startall(count: usize, requests: *mut MPI_Request) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    if requests.is_null() {
        return mpi_err!(Arg, "NULL request array");
    }
    core::start_all(std::slice::from_raw_parts(requests, count))
}
