//! Probes: MPI_Probe, MPI_Iprobe, and the matched ones, MPI_Mprobe, MPI_Improbe, MPI_Mrecv,
//! MPI_Imrecv.
//!
//! A matched probe takes the message out of matching (the engine keeps it by id), so no
//! other receive or probe, in this thread or another, can have it. The MPI_Message handle
//! is an entry of the request table (MPICH's messages are requests too:
//! MPI_MESSAGE_NULL is MPI_REQUEST_NULL's value).

use super::args::{self, write_single_status, Source};
use super::consts::*;
use super::errors;
use super::handles;
use super::requests;
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::MsgId;
use crate::runtime::p2p::{self, Started};
use crate::runtime::requests as core;
use std::cell::Cell;
use std::os::raw::{c_int, c_void};

/// MPI_Probe, MPI_Iprobe (`flag` given: nonblocking), MPI_Mprobe and MPI_Improbe
/// (`message` given: the message is taken, named by a new handle, MPI_MESSAGE_NO_PROC for
/// MPI_PROC_NULL).
///
/// # Safety
/// `flag` is NULL or valid, `message` valid; `status` MPI_STATUS_IGNORE or valid.
pub unsafe fn probe(
    source: c_int,
    tag: c_int,
    comm: MPI_Comm,
    flag: Option<*mut c_int>,
    message: Option<*mut MPI_Message>,
    status: *mut MPI_Status,
) -> Result<()> {
    if let Some(flag) = flag {
        args::out_ptr(flag, "flag")?;
    }
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let tag = args::recv_tag(tag)?;
    let block = flag.is_none();
    let found = match (args::source(&c, source)?, message) {
        (Source::Null, m) => {
            if let Some(m) = m {
                write_out(m, MPI_MESSAGE_NO_PROC)?;
            }
            Some(args::empty_status(MPI_PROC_NULL))
        }
        (src, None) if block => Some(w.probe(&c, src.as_option(), tag)),
        (src, None) => w.iprobe(&c, src.as_option(), tag),
        (src, Some(m)) => {
            let owner = handles::comm_owner(comm);
            let found = p2p::mprobe(w, &c, src.as_option(), tag, owner, block);
            found.map(|(e, st)| {
                *m = handles::new_request(e);
                st
            })
        }
    };
    if let Some(st) = &found {
        write_single_status(status, st, MPI_SUCCESS);
    }
    flag.map_or(Ok(()), |f| write_out(f, found.is_some() as c_int))
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
) -> Result<Started> {
    if message.is_null() {
        return mpi_err!(Arg, "NULL message pointer");
    }
    let m = self::message(*message)?;
    if let Message::Taken(_, _, c) = m {
        comm.set(c);
    }
    let w = shim::world()?;
    let ty = handles::datatype(datatype)?;
    args::buffer(buf, count, &ty)?;
    let Message::Taken(msg, i, c) = m else {
        args::bytes(count, &ty)?;
        *message = MPI_MESSAGE_NULL;
        return Ok(Started::Done { proc_null: true });
    };
    let taken = || *message = MPI_MESSAGE_NULL;
    let owner = handles::comm_owner(c);
    p2p::mrecv(w, (i, msg, owner), buf as _, count, &ty, taken)
}

/// MPI_Mrecv (`request` None) and MPI_Imrecv; `on` learns the message's communicator.
///
/// # Safety
/// MPI's: `buf` has room for the elements (until the request completes); the pointers
/// are NULL or valid.
pub unsafe fn mrecv(
    buf: *mut c_void,
    count: usize,
    datatype: MPI_Datatype,
    message: *mut MPI_Message,
    status: *mut MPI_Status,
    request: Option<*mut MPI_Request>,
    on: &Cell<MPI_Comm>,
) -> Result<()> {
    let started = start_mrecv(buf, count, datatype, message, on)?;
    let h = requests::handle_for(started, handles::comm_owner(on.get()))?;
    if let Some(request) = request {
        return write_out(request, h);
    }
    let c = core::wait(&mut { h })?;
    let code = requests::code(&c);
    write_single_status(status, &c.status, code);
    errors::code_result(code)
}
