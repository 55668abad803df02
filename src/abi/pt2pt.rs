//! Point-to-point shims: MPI_Send … MPI_Startall.

use super::args::{self, write_status, Source};
use super::consts::*;
use super::handles::{self, PersistentSpec, RequestEntry};
use super::requests::{self, msg_buf, status_at};
use super::shim::{self, run, run_on, write_out};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::pt2pt::Status;
use std::cell::Cell;
use std::os::raw::{c_int, c_void};

/// Blocking send in one of the modes (Rsend behaves as Send: a legal implementation).
///
/// # Safety
/// MPI's: `buf` holds `count` elements of `datatype`.
unsafe fn send(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    sync: bool,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let count = args::count(count)?;
    let ty = handles::datatype(datatype)?;
    args::buffer(buf, count, &ty)?;
    let tag = args::send_tag(tag)?;
    let Some(dst) = args::dest(&c, dest)? else {
        return Ok(());
    };
    w.send(&c, dst, tag, msg_buf(buf, count, &ty)?, sync);
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Send(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Send", comm, || {
        send(buf, count, datatype, dest, tag, comm, false)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ssend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Ssend", comm, || {
        send(buf, count, datatype, dest, tag, comm, true)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Rsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Rsend", comm, || {
        send(buf, count, datatype, dest, tag, comm, false)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Recv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    run("MPI_Recv", comm, || {
        args::status_arg(status)?;
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        let count = args::count(count)?;
        let ty = handles::datatype(datatype)?;
        args::buffer(buf, count, &ty)?;
        let tag = args::recv_tag(tag)?;
        let src = match args::source(&c, source)? {
            Source::Null => {
                args::write_single_status(status, &args::empty_status(MPI_PROC_NULL), MPI_SUCCESS);
                return Ok(());
            }
            s => s.as_option(),
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
        if split {
            return mpi_err!(
                Truncate,
                "received {} bytes, which end inside a basic element of the receive datatype: \
                 the send's type signature does not match the receive's",
                st.count
            );
        }
        requests::code_result(code)
    })
}

fn spec(
    send: bool,
    sync: bool,
    buf: *const c_void,
    count: c_int,
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

unsafe fn isend(
    name: &'static str,
    s: PersistentSpec,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run(name, comm, || {
        if request.is_null() {
            return mpi_err!(Arg, "NULL request pointer");
        }
        let started = requests::start_send(&s, comm)?;
        write_out(request, requests::handle_for(started, comm)?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Isend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    isend(
        "MPI_Isend",
        spec(true, false, buf, count, datatype, dest, tag),
        comm,
        request,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Issend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    isend(
        "MPI_Issend",
        spec(true, true, buf, count, datatype, dest, tag),
        comm,
        request,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Irsend(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    isend(
        "MPI_Irsend",
        spec(true, false, buf, count, datatype, dest, tag),
        comm,
        request,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Irecv(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Irecv", comm, || {
        if request.is_null() {
            return mpi_err!(Arg, "NULL request pointer");
        }
        let started =
            requests::start_recv(&spec(false, false, buf, count, datatype, source, tag), comm)?;
        write_out(request, requests::handle_for(started, comm)?)
    })
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
unsafe fn replace_copy(buf: *mut c_void, count: c_int, datatype: MPI_Datatype) -> Result<Vec<u8>> {
    let n = args::count(count)?;
    let ty = handles::datatype(datatype)?;
    args::buffer(buf, n, &ty)?;
    let mut copy = Vec::new();
    ty.pack(n, buf as *const u8, &mut copy);
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

#[no_mangle]
pub unsafe extern "C" fn PMPI_Sendrecv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    run("MPI_Sendrecv", comm, || {
        args::status_arg(status)?;
        let rs = spec(false, false, recvbuf, recvcount, recvtype, source, recvtag);
        let ss = spec(true, false, sendbuf, sendcount, sendtype, dest, sendtag);
        let c = wait_sendrecv(start_sendrecv(&ss, &rs, None, comm)?, comm)?;
        args::write_single_status(status, &c.status, c.code);
        requests::code_result(c.code)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Sendrecv_replace(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    run("MPI_Sendrecv_replace", comm, || {
        args::status_arg(status)?;
        let rs = spec(false, false, buf, count, datatype, source, recvtag);
        let ss = spec(true, false, buf, count, datatype, dest, sendtag);
        requests::check(&ss, comm)?;
        // Send from a packed copy, receive into the buffer itself.
        let copy = replace_copy(buf, count, datatype)?;
        let c = wait_sendrecv(start_sendrecv(&ss, &rs, Some(&copy), comm)?, comm)?;
        args::write_single_status(status, &c.status, c.code);
        requests::code_result(c.code)
    })
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

#[no_mangle]
pub unsafe extern "C" fn PMPI_Isendrecv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Isendrecv", comm, || {
        if request.is_null() {
            return mpi_err!(Arg, "NULL request pointer");
        }
        let rs = spec(false, false, recvbuf, recvcount, recvtype, source, recvtag);
        let ss = spec(true, false, sendbuf, sendcount, sendtype, dest, sendtag);
        let started = start_sendrecv(&ss, &rs, None, comm)?;
        write_out(request, sendrecv_request(started, None, comm)?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Isendrecv_replace(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    sendtag: c_int,
    source: c_int,
    recvtag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Isendrecv_replace", comm, || {
        if request.is_null() {
            return mpi_err!(Arg, "NULL request pointer");
        }
        let rs = spec(false, false, buf, count, datatype, source, recvtag);
        let ss = spec(true, false, buf, count, datatype, dest, sendtag);
        requests::check(&ss, comm)?;
        let copy = replace_copy(buf, count, datatype)?;
        // The copy moves into the request (a Vec's heap buffer does not move with it).
        let started = start_sendrecv(&ss, &rs, Some(&copy), comm)?;
        write_out(request, sendrecv_request(started, Some(copy), comm)?)
    })
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

/// An output argument that must not be NULL.
fn out_arg<T>(p: *mut T, what: &str) -> Result<()> {
    if p.is_null() {
        return mpi_err!(Arg, "NULL {what} pointer");
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Wait(request: *mut MPI_Request, status: *mut MPI_Status) -> c_int {
    let comm = Cell::new(MPI_COMM_WORLD);
    run_on("MPI_Wait", &comm, || {
        let request = request_arg(request)?;
        args::status_arg(status)?;
        let c = requests::wait(request)?;
        comm.set(c.comm);
        args::write_single_status(status, &c.status, c.code);
        requests::code_result(c.code)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Test(
    request: *mut MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    let comm = Cell::new(MPI_COMM_WORLD);
    run_on("MPI_Test", &comm, || {
        let request = request_arg(request)?;
        out_arg(flag, "flag")?;
        args::status_arg(status)?;
        match requests::test(request)? {
            Some(c) => {
                comm.set(c.comm);
                write_out(flag, 1)?;
                args::write_single_status(status, &c.status, c.code);
                requests::code_result(c.code)
            }
            None => write_out(flag, 0),
        }
    })
}

/// The request array of a multiple-completion call, with its status array checked
/// against NULL (the handles are the caller's to check).
unsafe fn request_array<'a>(
    p: *mut MPI_Request,
    n: c_int,
    statuses: *mut MPI_Status,
) -> Result<&'a mut [MPI_Request]> {
    let n = args::count(n)?;
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
    n: c_int,
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

#[no_mangle]
pub unsafe extern "C" fn PMPI_Waitall(
    count: c_int,
    requests: *mut MPI_Request,
    statuses: *mut MPI_Status,
) -> c_int {
    run("MPI_Waitall", MPI_COMM_WORLD, || {
        let hs = request_array(requests, count, statuses)?;
        if let Some(failed) = requests::wait_all_plain(hs, statuses)? {
            return in_status(failed);
        }
        requests::check_all(hs)?;
        complete_all(hs, statuses)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Testall(
    count: c_int,
    requests: *mut MPI_Request,
    flag: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    run("MPI_Testall", MPI_COMM_WORLD, || {
        out_arg(flag, "flag")?;
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
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Waitany(
    count: c_int,
    requests: *mut MPI_Request,
    index: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    run("MPI_Waitany", MPI_COMM_WORLD, || {
        out_arg(index, "index")?;
        args::status_arg(status)?;
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
                requests::code_result(c.code)
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Testany(
    count: c_int,
    requests: *mut MPI_Request,
    index: *mut c_int,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    run("MPI_Testany", MPI_COMM_WORLD, || {
        out_arg(index, "index")?;
        out_arg(flag, "flag")?;
        args::status_arg(status)?;
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
                requests::code_result(c.code)
            }
        }
    })
}

unsafe fn some(
    name: &'static str,
    block: bool,
    incount: c_int,
    requests: *mut MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    run(name, MPI_COMM_WORLD, || {
        out_arg(outcount, "outcount")?;
        let (hs, ids) = requests_arg(requests, incount, statuses)?;
        if !hs.is_empty() {
            out_arg(indices, "indices")?;
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
        if failed {
            return mpi_err!(InStatus, "a request failed: see the statuses");
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Waitsome(
    incount: c_int,
    requests: *mut MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    some(
        "MPI_Waitsome",
        true,
        incount,
        requests,
        outcount,
        indices,
        statuses,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Testsome(
    incount: c_int,
    requests: *mut MPI_Request,
    outcount: *mut c_int,
    indices: *mut c_int,
    statuses: *mut MPI_Status,
) -> c_int {
    some(
        "MPI_Testsome",
        false,
        incount,
        requests,
        outcount,
        indices,
        statuses,
    )
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

#[no_mangle]
pub unsafe extern "C" fn PMPI_Request_get_status(
    request: MPI_Request,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    run("MPI_Request_get_status", MPI_COMM_WORLD, || {
        out_arg(flag, "flag")?;
        args::status_arg(status)?;
        let empty = || Some(peek_done(args::empty_status(MPI_ANY_SOURCE)));
        let done = match requests::pending_all(&[request])?[0] {
            requests::Pending::Empty => empty(),
            requests::Pending::Done(st) => Some(peek_done(st)),
            // Completion is the helper's to report; test without freeing.
            requests::Pending::Rma(_) => requests::pending_done(request)?.then(empty).flatten(),
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
        };
        match done {
            Some((st, code)) => {
                write_out(flag, 1)?;
                args::write_single_status(status, &st, code);
                requests::code_result(code)
            }
            None => write_out(flag, 0),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Request_free(request: *mut MPI_Request) -> c_int {
    run("MPI_Request_free", MPI_COMM_WORLD, || {
        requests::free(request_arg(request)?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Cancel(request: *mut MPI_Request) -> c_int {
    run("MPI_Cancel", MPI_COMM_WORLD, || {
        requests::cancel(*request_arg(request)?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Test_cancelled(status: *const MPI_Status, flag: *mut c_int) -> c_int {
    run("MPI_Test_cancelled", MPI_COMM_WORLD, || {
        if status.is_null() {
            return mpi_err!(Arg, "NULL status");
        }
        write_out(flag, (*status).count_hi_and_cancelled & 1)
    })
}

// ------------------------------------------------------------------ probe and counts

#[no_mangle]
pub unsafe extern "C" fn PMPI_Probe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    status: *mut MPI_Status,
) -> c_int {
    run("MPI_Probe", comm, || {
        args::status_arg(status)?;
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        let tag = args::recv_tag(tag)?;
        let src = match args::source(&c, source)? {
            Source::Null => {
                args::write_single_status(status, &args::empty_status(MPI_PROC_NULL), MPI_SUCCESS);
                return Ok(());
            }
            s => s.as_option(),
        };
        let st = w.probe(&c, src, tag);
        args::write_single_status(status, &st, MPI_SUCCESS);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Iprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: *mut c_int,
    status: *mut MPI_Status,
) -> c_int {
    run("MPI_Iprobe", comm, || {
        args::status_arg(status)?;
        if flag.is_null() {
            return mpi_err!(Arg, "NULL flag pointer");
        }
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        let tag = args::recv_tag(tag)?;
        let src = match args::source(&c, source)? {
            Source::Null => {
                args::write_single_status(status, &args::empty_status(MPI_PROC_NULL), MPI_SUCCESS);
                return write_out(flag, 1);
            }
            s => s.as_option(),
        };
        match w.iprobe(&c, src, tag) {
            Some(st) => {
                args::write_single_status(status, &st, MPI_SUCCESS);
                write_out(flag, 1)
            }
            None => write_out(flag, 0),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Get_count(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut c_int,
) -> c_int {
    run("MPI_Get_count", MPI_COMM_WORLD, || {
        if status.is_null() {
            return mpi_err!(Arg, "NULL status");
        }
        let ty = handles::any_datatype(datatype)?;
        let bytes = args::status_bytes(status);
        let n = if ty.size == 0 {
            if bytes == 0 {
                0
            } else {
                MPI_UNDEFINED
            }
        } else if !bytes.is_multiple_of(ty.size as u64) || bytes / ty.size as u64 > i32::MAX as u64
        {
            MPI_UNDEFINED
        } else {
            (bytes / ty.size as u64) as c_int
        };
        write_out(count, n)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Get_elements(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: *mut c_int,
) -> c_int {
    run("MPI_Get_elements", MPI_COMM_WORLD, || {
        let n = super::datatype::status_elements(status, datatype)?;
        write_out(
            count,
            n.and_then(|n| c_int::try_from(n).ok())
                .unwrap_or(MPI_UNDEFINED),
        )
    })
}

// ------------------------------------------------------------------ persistent requests

unsafe fn init(
    name: &'static str,
    mut s: PersistentSpec,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run(name, comm, || {
        requests::check(&s, comm)?;
        if request.is_null() {
            return mpi_err!(Arg, "NULL request pointer");
        }
        s.held_type = Some(handles::datatype(s.datatype)?.to_kept());
        write_out(
            request,
            handles::new_request(RequestEntry::Persistent {
                spec: s,
                active: None,
                comm,
            }),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Send_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    init(
        "MPI_Send_init",
        spec(true, false, buf, count, datatype, dest, tag),
        comm,
        request,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ssend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    init(
        "MPI_Ssend_init",
        spec(true, true, buf, count, datatype, dest, tag),
        comm,
        request,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Rsend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    init(
        "MPI_Rsend_init",
        spec(true, false, buf, count, datatype, dest, tag),
        comm,
        request,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Bsend_init(
    buf: *const c_void,
    count: c_int,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    let s = PersistentSpec {
        buffered: true,
        ..spec(true, false, buf, count, datatype, dest, tag)
    };
    init("MPI_Bsend_init", s, comm, request)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Recv_init(
    buf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    init(
        "MPI_Recv_init",
        spec(false, false, buf, count, datatype, source, tag),
        comm,
        request,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Start(request: *mut MPI_Request) -> c_int {
    let mut started = MPI_SUCCESS;
    let rc = run("MPI_Start", MPI_COMM_WORLD, || {
        started = requests::start(*request_arg(request)?)?;
        Ok(())
    });
    // A persistent collective's own error went to its communicator's handler already.
    if rc == MPI_SUCCESS {
        started
    } else {
        rc
    }
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Startall(count: c_int, requests: *mut MPI_Request) -> c_int {
    run("MPI_Startall", MPI_COMM_WORLD, || {
        let n = args::count(count)?;
        if n == 0 {
            return Ok(());
        }
        if requests.is_null() {
            return mpi_err!(Arg, "NULL request array");
        }
        let hs = std::slice::from_raw_parts(requests, n);
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
    })
}
