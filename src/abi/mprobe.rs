//! Probes: MPI_Probe, MPI_Iprobe, and the matched ones, MPI_Mprobe, MPI_Improbe, MPI_Mrecv,
//! MPI_Imrecv.
//!
//! A matched probe takes the message out of matching (the engine keeps it by id), so no
//! other receive or probe, in this thread or another, can have it. The MPI_Message handle
//! is an entry of the request table (MPICH's messages are requests too:
//! MPI_MESSAGE_NULL is MPI_REQUEST_NULL's value).

use super::args::{self, write_single_status, Source};
use super::consts::*;
use super::handles;
use super::requests;
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::{MsgId, Owner};
use crate::runtime::p2p;
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

/// The message an MPI_Message handle names: None for MPI_MESSAGE_NO_PROC, else its table
/// index, the matched message and its communicator's tag.
fn message(h: MPI_Message) -> Result<Option<(usize, MsgId, Owner)>> {
    if h == MPI_MESSAGE_NO_PROC {
        return Ok(None);
    }
    match handles::request_index(h).and_then(|i| Some((i, core::message(i)?))) {
        Some((i, (msg, owner))) => Ok(Some((i, msg, owner))),
        None => mpi_err!(Request, "invalid message {h:#x}"),
    }
}

/// MPI_Mrecv (`request` None) and MPI_Imrecv: receive the message `*message` names into
/// `count` elements of `datatype` at `buf` (every argument checked first; the handle
/// becomes MPI_MESSAGE_NULL); `on` learns the message's communicator.
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
    if message.is_null() {
        return mpi_err!(Arg, "NULL message pointer");
    }
    let m = self::message(*message)?;
    if let Some((_, _, owner)) = m {
        on.set(handles::owner_comm(owner));
    }
    let w = shim::world()?;
    let ty = handles::datatype_n(datatype, count)?;
    args::buffer(buf, count, &ty)?;
    let taken = || *message = MPI_MESSAGE_NULL;
    let started = p2p::mrecv(w, m, buf as _, count, &ty, taken)?;
    let h = requests::handle_for(started, handles::comm_owner(on.get()))?;
    match request {
        Some(request) => write_out(request, h),
        None => super::pt2pt::report(status, &core::wait(&mut { h })?),
    }
}
