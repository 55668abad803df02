//! Matched probe: MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv.
//!
//! A matched probe takes the message out of matching (the engine keeps it by id), so no
//! other receive or probe, in this thread or another, can have it. The MPI_Message handle
//! is an entry of the request table (MPICH's messages are requests too:
//! MPI_MESSAGE_NULL is MPI_REQUEST_NULL's value).

use super::args::{self, write_single_status, Source};
use super::consts::*;
use super::errors;
use super::handles;
use super::requests::{self, msg_buf};
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::{MsgId, Status};
use crate::runtime::requests::{self as core, Entry};
use std::cell::Cell;
use std::os::raw::{c_int, c_void};

/// Probe for a message and take it: None when none matches (nonblocking only).
fn probe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    block: bool,
) -> Result<Option<(MPI_Message, Status)>> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let tag = args::recv_tag(tag)?;
    let src = match args::source(&c, source)? {
        Source::Null => {
            return Ok(Some((
                MPI_MESSAGE_NO_PROC,
                args::empty_status(MPI_PROC_NULL),
            )))
        }
        s => s.as_option(),
    };
    let found = if block {
        Some(w.mprobe(&c, src, tag))
    } else {
        w.improbe(&c, src, tag)
    };
    Ok(found.map(|(msg, st)| {
        let owner = handles::comm_owner(comm);
        let h = handles::new_request(Entry::Message { msg, owner });
        (h, st)
    }))
}

/// MPI_Mprobe.
///
/// # Safety
/// `message` and `status` are valid (or MPI_STATUS_IGNORE).
pub unsafe fn mprobe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> Result<()> {
    let (h, st) = probe(source, tag, comm, true)?.expect("a blocking probe finds one");
    write_single_status(status, &st, MPI_SUCCESS);
    write_out(message, h)
}

/// MPI_Improbe.
///
/// # Safety
/// As `mprobe`; `flag` is NULL or valid.
pub unsafe fn improbe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: *mut c_int,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
) -> Result<()> {
    args::out_ptr(flag, "flag")?;
    match probe(source, tag, comm, false)? {
        Some((h, st)) => {
            write_single_status(status, &st, MPI_SUCCESS);
            write_out(message, h)?;
            write_out(flag, 1)
        }
        None => write_out(flag, 0),
    }
}

/// What an MPI_Message handle names.
enum Message {
    NoProc,
    /// The matched message, its table index and communicator.
    Taken(MsgId, usize, MPI_Comm),
}

fn message(h: MPI_Message) -> Result<Message> {
    if h == MPI_MESSAGE_NO_PROC {
        return Ok(Message::NoProc);
    }
    let bad = || mpi_err!(Request, "invalid message {h:#x}");
    let Some(i) = handles::request_index(h) else {
        return bad();
    };
    match core::message(i) {
        Some((msg, owner)) => Ok(Message::Taken(msg, i, handles::owner_comm(owner))),
        None => bad(),
    }
}

/// Start receiving the message `*message` names into `count` elements of `datatype` at
/// `buf`; the handle becomes MPI_MESSAGE_NULL. Every argument is checked first.
unsafe fn start_mrecv(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    comm: &Cell<MPI_Comm>,
) -> Result<requests::Started> {
    if message.is_null() {
        return mpi_err!(Arg, "NULL message pointer");
    }
    let m = self::message(*message)?;
    if let Message::Taken(_, _, c) = m {
        comm.set(c);
    }
    let w = shim::world()?;
    let n = count;
    let ty = handles::datatype(datatype)?;
    args::buffer(buf, n, &ty)?;
    let data = msg_buf(buf, n, &ty)?;
    let Message::Taken(msg, i, c) = m else {
        *message = MPI_MESSAGE_NULL;
        return Ok(requests::Started::Done { proc_null: true });
    };
    // The handle goes first: of two threads receiving one message, only one finds it.
    if !core::remove(i) {
        return mpi_err!(Request, "message {:#x} was received already", *message);
    }
    *message = MPI_MESSAGE_NULL;
    match w.mrecv(msg, data, handles::comm_owner(c)) {
        Some(req) => Ok(requests::Started::Pending(req)),
        None => mpi_err!(Request, "message received already"),
    }
}

/// MPI_Mrecv; `on` learns the message's communicator.
///
/// # Safety
/// MPI's: `buf` has room for the elements; the pointers are NULL or valid.
pub unsafe fn mrecv(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
    on: &Cell<MPI_Comm>,
) -> Result<()> {
    let started = start_mrecv(buf, count, datatype, message, on)?;
    let c = core::wait(&mut requests::handle_for(started, on.get())?)?;
    let code = requests::code(&c);
    write_single_status(status, &c.status, code);
    errors::code_result(code)
}

/// MPI_Imrecv.
///
/// # Safety
/// MPI's: `buf` has room for the elements until the request completes.
pub unsafe fn imrecv(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    request: *mut MPI_Request,
    on: &Cell<MPI_Comm>,
) -> Result<()> {
    let started = start_mrecv(buf, count, datatype, message, on)?;
    write_out(request, requests::handle_for(started, on.get())?)
}
