//! Requests as the C surface sees them: a send's or receive's C arguments (handles, ranks,
//! tags) resolved into the core's `p2p::Op`, and what a started operation or a completion
//! becomes in C (a request handle, an error code, status array elements). Starting and
//! completing are the core's (`runtime::p2p`, `runtime::requests`).

use super::args;
use super::consts::*;
use super::errors;
use super::handles::{self, TypeRef};
use crate::comm::Communicator;
use crate::error::Result;
use crate::pt2pt::Owner;
use crate::runtime::p2p::{Mode, Op, Source, Started};
use crate::runtime::requests::{Completion, Entry};
use std::os::raw::{c_int, c_void};

/// A send or receive over communicator `c` (handle `comm`, looked up by the caller) with
/// its other C arguments checked in MPICH's order: datatype, buffer, (`all`: size,) tag,
/// destination or source. `send` None: a receive. `all` is for the calls that start two
/// operations, which check every argument of both before starting either.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn op(
    c: &Communicator,
    comm: MPI_Comm,
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    peer: c_int,
    tag: c_int,
    send: Option<Mode>,
    all: bool,
) -> Result<Op<&Communicator, TypeRef>> {
    let ty = handles::datatype_n(datatype, count)?;
    args::buffer(buf, count, &ty)?;
    if all {
        args::bytes(count, &ty)?;
    }
    // (Left to right: the tag is checked before the rank.)
    let (tag, peer) = match send {
        Some(_) => (
            Some(args::send_tag(tag)?),
            args::dest(c, peer)?.map_or(Source::Null, Source::Rank),
        ),
        None => (args::recv_tag(tag)?, args::source(c, peer)?),
    };
    let owner = handles::comm_owner(comm);
    Ok(Op::new(
        c,
        owner,
        (buf as usize, count, ty),
        (peer, tag),
        send,
    ))
}

/// The request handle for a started operation (`owner`: its communicator's tag).
pub fn handle_for(started: Started, owner: Owner) -> Result<MPI_Request> {
    Ok(match started {
        Started::Done { proc_null: true } => handles::REQUEST_PROC_NULL_DONE,
        Started::Done { proc_null: false } => handles::REQUEST_SEND_DONE,
        Started::Pending(req) => match handles::engine_handle(req) {
            Some(h) => h,
            None => handles::new_request(Entry::Active { req, owner }),
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
