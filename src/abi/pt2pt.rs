//! Point-to-point: the core calls behind MPI_Send … MPI_Startall and their large-count
//! forms. The entry points are generated (tools/gen_c.py from tools/c_api.txt): they check
//! counts, request and status pointers by kind and hand counts over as usize.

// The core calls take MPI's parameter lists as they are.
#![allow(clippy::too_many_arguments)]

use super::args::{self, write_status};
use super::consts::*;
use super::errors;
use super::handles::{self, PersistentSpec, RequestEntry};
use super::requests::{self, msg_buf, status_at};
use super::shim::{self, write_out};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::pt2pt::Status;
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
) -> Result<requests::Completion> {
    let mut rreq = requests::handle_for(recv, comm)?;
    let mut sreq = requests::handle_for(send, comm)?;
    requests::wait(&mut sreq)?;
    requests::wait(&mut rreq)
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
    args::write_single_status(status, &c.status, c.code);
    errors::code_result(c.code)
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
    args::write_single_status(status, &c.status, c.code);
    errors::code_result(c.code)
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
    Ok(handles::new_request(RequestEntry::Pair {
        recv,
        send,
        comm,
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

/// MPI_Wait; `on` learns the request's communicator, whose handler takes the call's error.
///
/// # Safety
/// MPI's: `request` and `status` are NULL or valid.
pub unsafe fn wait(
    request: *mut MPI_Request,
    status: *mut MPI_Status,
    on: &Cell<MPI_Comm>,
) -> Result<()> {
    let request = request_arg(request)?;
    let c = requests::wait(request)?;
    on.set(c.comm);
    args::write_single_status(status, &c.status, c.code);
    errors::code_result(c.code)
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
    match requests::test(request)? {
        Some(c) => {
            on.set(c.comm);
            write_out(flag, 1)?;
            args::write_single_status(status, &c.status, c.code);
            errors::code_result(c.code)
        }
        None => write_out(flag, 0),
    }
}

/// The request array of a multiple-completion call, with its status array checked
/// against NULL (the handles are the caller's to check).
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

/// `request_array`, and what each handle refers to (MPI_ERR_REQUEST for one that names
/// no request).
unsafe fn requests_arg<'a>(
    p: *mut MPI_Request,
    n: usize,
    statuses: *mut MPI_Status,
) -> Result<(&'a mut [MPI_Request], Vec<requests::Pending>)> {
    let hs = request_array(p, n, statuses)?;
    let ids = requests::pending_all(hs)?;
    Ok((hs, ids))
}

/// Complete every listed handle, writing statuses; MPI_ERR_IN_STATUS if any failed.
unsafe fn complete_all(hs: &mut [MPI_Request], statuses: *mut MPI_Status) -> Result<()> {
    let mut failed = false;
    for (i, h) in hs.iter_mut().enumerate() {
        let c = requests::wait(h)?;
        failed |= c.code != MPI_SUCCESS;
        write_status(status_at(statuses, i), &c.status, c.code);
    }
    in_status(failed)
}

/// MPI_ERR_IN_STATUS when a request of a list failed.
fn in_status(failed: bool) -> Result<()> {
    if failed {
        return Err(Error::new(
            ErrorClass::InStatus,
            "a request failed: see the statuses",
        ));
    }
    Ok(())
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
    if let Some(failed) = requests::wait_all_plain(hs, statuses)? {
        return in_status(failed);
    }
    requests::check_all(hs)?;
    complete_all(hs, statuses)
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
    let (hs, ids) = requests_arg(requests, count, statuses)?;
    let done = requests::wait_some(&ids, false)?;
    let active = ids
        .iter()
        .filter(|p| !matches!(p, requests::Pending::Empty))
        .count();
    if done.len() < active {
        return write_out(flag, 0);
    }
    write_out(flag, 1)?;
    complete_all(hs, statuses)
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
    let (hs, ids) = requests_arg(requests, count, MPI_STATUSES_IGNORE)?;
    match requests::wait_some(&ids, true)?.first() {
        None => {
            write_out(index, MPI_UNDEFINED)?;
            args::write_single_status(status, &args::empty_status(MPI_ANY_SOURCE), MPI_SUCCESS);
            Ok(())
        }
        Some(&i) => {
            let c = requests::complete_done(hs, i, ids[i])?;
            write_out(index, i as c_int)?;
            args::write_single_status(status, &c.status, c.code);
            errors::code_result(c.code)
        }
    }
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
    let (hs, ids) = requests_arg(requests, count, MPI_STATUSES_IGNORE)?;
    if requests::none_active(&ids) {
        write_out(flag, 1)?;
        write_out(index, MPI_UNDEFINED)?;
        args::write_single_status(status, &args::empty_status(MPI_ANY_SOURCE), MPI_SUCCESS);
        return Ok(());
    }
    match requests::wait_some(&ids, false)?.first() {
        None => {
            write_out(flag, 0)?;
            write_out(index, MPI_UNDEFINED)
        }
        Some(&i) => {
            let c = requests::complete_done(hs, i, ids[i])?;
            write_out(flag, 1)?;
            write_out(index, i as c_int)?;
            args::write_single_status(status, &c.status, c.code);
            errors::code_result(c.code)
        }
    }
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
    let (hs, ids) = requests_arg(requests, incount, statuses)?;
    if !hs.is_empty() {
        args::out_ptr(indices, "indices")?;
    }
    if requests::none_active(&ids) {
        return write_out(outcount, MPI_UNDEFINED);
    }
    let done = requests::wait_some(&ids, block)?;
    let mut failed = false;
    for (k, &i) in done.iter().enumerate() {
        let c = requests::complete_done(hs, i, ids[i])?;
        failed |= c.code != MPI_SUCCESS;
        *indices.add(k) = i as c_int;
        write_status(status_at(statuses, k), &c.status, c.code);
    }
    write_out(outcount, done.len() as c_int)?;
    in_status(failed)
}

/// A completed request's status for MPI_Request_get_status, which leaves it alone.
fn peek_done(st: Status) -> (Status, c_int) {
    let code = if st.truncated() {
        MPI_ERR_TRUNCATE
    } else {
        MPI_SUCCESS
    };
    (st, code)
}

/// Whether the operation `p` stands for (of handle `h`) is complete, and its status and
/// code if so; nothing is freed or changed (MPI_Request_get_status and its MPI-4.1 family).
fn peek(h: MPI_Request, p: requests::Pending) -> Result<Option<(Status, c_int)>> {
    let empty = || Some(peek_done(args::empty_status(MPI_ANY_SOURCE)));
    Ok(match p {
        requests::Pending::Empty => empty(),
        requests::Pending::Done(st) => Some(peek_done(st)),
        // Completion is the helper's to report; test without freeing.
        requests::Pending::Rma(_) => requests::pending_done(h)?.then(empty).flatten(),
        requests::Pending::Coll(id) => shim::world()?
            .progress
            .with(|e| e.colls.is_done(id))
            .then(empty)
            .flatten(),
        requests::Pending::Engine(id) => shim::world()?.progress.with(|e| {
            e.p2p
                .is_done(id)
                .and_then(|d| d.then(|| e.p2p.status(id)).flatten())
                .map(peek_done)
        }),
        requests::Pending::Pair(r, s) => shim::world()?.progress.with(|e| {
            (e.p2p.is_done(r) != Some(false) && e.p2p.is_done(s) != Some(false))
                .then(|| peek_done(e.p2p.status(r).unwrap_or_default()))
        }),
        requests::Pending::Grequest(i) => super::grequest::peek(i),
        requests::Pending::Flush(_) => requests::flush_done_now(h)?.then(empty).flatten(),
        requests::Pending::Part(_) => requests::part_done_now(h)?.then(empty).flatten(),
    })
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
    match peek(request, requests::pending_all(&[request])?[0])? {
        Some((st, code)) => {
            write_out(flag, 1)?;
            args::write_single_status(status, &st, code);
            errors::code_result(code)
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
    let ps = requests::pending_all(hs)?;
    for (i, (&h, &p)) in hs.iter().zip(&ps).enumerate() {
        if matches!(p, requests::Pending::Empty) {
            continue;
        }
        if let Some((st, code)) = peek(h, p)? {
            write_out(flag, 1)?;
            write_out(index, i as c_int)?;
            args::write_single_status(status, &st, code);
            return errors::code_result(code);
        }
    }
    // None active: flag true with MPI_UNDEFINED and an empty status, as MPI_Testany.
    let none = requests::none_active(&ps);
    write_out(flag, none as c_int)?;
    write_out(index, MPI_UNDEFINED)?;
    if none {
        // An empty status, its error field MPI_SUCCESS too (MPI-4.1 §3.7.3; mpi4py checks).
        args::write_single_status(status, &args::empty_status(MPI_ANY_SOURCE), MPI_SUCCESS);
        if !status.is_null() && status as usize != 1 {
            (*status).MPI_ERROR = MPI_SUCCESS;
        }
    }
    Ok(())
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
    let ps = requests::pending_all(hs)?;
    let mut done = Vec::with_capacity(hs.len());
    for (&h, &p) in hs.iter().zip(&ps) {
        match peek(h, p)? {
            Some(d) => done.push(d),
            None => return write_out(flag, 0),
        }
    }
    write_out(flag, 1)?;
    let mut failed = false;
    for (i, (st, code)) in done.iter().enumerate() {
        failed |= *code != MPI_SUCCESS;
        write_status(status_at(statuses, i), st, *code);
    }
    in_status(failed)
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
    let ps = requests::pending_all(hs)?;
    if requests::none_active(&ps) {
        return write_out(outcount, MPI_UNDEFINED);
    }
    let (mut n, mut failed) = (0usize, false);
    for (i, (&h, &p)) in hs.iter().zip(&ps).enumerate() {
        if matches!(p, requests::Pending::Empty) {
            continue;
        }
        if let Some((st, code)) = peek(h, p)? {
            failed |= code != MPI_SUCCESS;
            *indices.add(n) = i as c_int;
            write_status(status_at(statuses, n), &st, code);
            n += 1;
        }
    }
    write_out(outcount, n as c_int)?;
    in_status(failed)
}

/// MPI_Request_free.
///
/// # Safety
/// `request` is NULL or valid.
pub unsafe fn request_free(request: *mut MPI_Request) -> Result<()> {
    requests::free(request_arg(request)?)
}

/// MPI_Cancel.
///
/// # Safety
/// `request` is NULL or valid.
pub unsafe fn cancel(request: *mut MPI_Request) -> Result<()> {
    requests::cancel(*request_arg(request)?)
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
    write_out(
        request,
        handles::new_request(RequestEntry::Persistent {
            spec: s,
            active: None,
            comm,
        }),
    )
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
    requests::start(*request_arg(request)?)
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
    let hs = std::slice::from_raw_parts(requests, count);
    // None starts unless all can.
    for &h in hs {
        requests::startable(h)?;
    }
    for &h in hs {
        let rc = requests::start(h)?;
        if rc != MPI_SUCCESS {
            // The collective's own error went to its communicator's handler already.
            return Err(Error::new(
                ErrorClass::Other,
                format!("a collective could not start (error {rc})"),
            ));
        }
    }
    Ok(())
}
