//! Generalized requests' C side (MPI_Grequest_start, MPI_Grequest_complete): the
//! application's query, free and cancel functions (`CFunctions`) under the runtime's
//! generalized request (`runtime::grequest`), which lives in the request table; the wait
//! and test family find it there (`requests::Pending::Grequest`). Its functions run without
//! any lock held: they are the application's code and may call MPI.

use super::args;
use super::callbacks::{App, Convention};
use super::consts::*;
use super::errors::{code_of, code_result};
use super::handles::{self, RequestEntry, REQUESTS};
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::Status;
use crate::runtime::grequest::{Freed, Functions, Grequest};
use std::os::raw::{c_int, c_void};
use std::sync::Arc;

/// The application's C functions of one generalized request and their extra state.
struct CFunctions {
    query: MPI_Grequest_query_function,
    free: MPI_Grequest_free_function,
    cancel: MPI_Grequest_cancel_function,
    extra_state: usize,
}

impl Functions for CFunctions {
    fn query(&self) -> (Status, Result<()>) {
        let mut st = MPI_Status {
            count_lo: 0,
            count_hi_and_cancelled: 0,
            MPI_SOURCE: MPI_UNDEFINED,
            MPI_TAG: MPI_UNDEFINED,
            MPI_ERROR: MPI_SUCCESS,
        };
        let rc = match self.query {
            // SAFETY: the application registered query_fn with this extra_state for this
            // call.
            Some(f) => unsafe { App::grequest_query(f, self.extra_state as *mut c_void, &mut st) },
            None => MPI_SUCCESS,
        };
        let mut s = Status::received(st.MPI_SOURCE, st.MPI_TAG, 0, 0);
        // SAFETY: `st` is a valid status.
        s.count = unsafe { args::status_bytes(&st) } as usize;
        if st.count_hi_and_cancelled & 1 != 0 {
            s.set_cancelled();
        }
        (s, code_result(rc))
    }

    fn free(&self) -> Result<()> {
        code_result(match self.free {
            // SAFETY: as for query_fn.
            Some(f) => App::grequest_code(unsafe { f(self.extra_state as *mut c_void) }),
            None => MPI_SUCCESS,
        })
    }

    fn cancel(&self, complete: bool) -> Result<()> {
        code_result(match self.cancel {
            // SAFETY: as for query_fn.
            Some(f) => {
                App::grequest_code(unsafe { f(self.extra_state as *mut c_void, complete as c_int) })
            }
            None => MPI_SUCCESS,
        })
    }
}

/// The generalized request at table index `i`, if it is one (a copy: its functions run
/// without the table's lock).
fn get(i: usize) -> Option<Grequest> {
    match REQUESTS.lock().get(i) {
        Some(RequestEntry::Grequest(g)) => Some((**g).clone()),
        _ => None,
    }
}

/// A status and result as a code.
fn coded((st, r): (Status, Result<()>)) -> (Status, c_int) {
    (st, r.err().map_or(MPI_SUCCESS, |e| code_of(&e)))
}

/// Whether the generalized request at table index `i` is complete (a freed one counts).
pub fn is_complete(i: usize) -> bool {
    get(i).is_none_or(|g| g.is_complete())
}

/// Finish the complete generalized request `*h` (table index `i`): its status and code
/// (`Grequest::finish`); the handle becomes MPI_REQUEST_NULL. None: there was no request
/// left.
pub fn finish(h: &mut MPI_Request, i: usize) -> Option<(Status, c_int)> {
    *h = MPI_REQUEST_NULL;
    let g = get(i)?;
    let done = g.finish();
    REQUESTS.lock().remove(i);
    Some(coded(done))
}

/// MPI_Request_get_status: the status without freeing (None while incomplete).
pub fn peek(i: usize) -> Option<(Status, c_int)> {
    get(i)?.peek().map(coded)
}

/// MPI_Request_free on the generalized request at index `i`: free_fn now if complete,
/// else at MPI_Grequest_complete.
pub fn free(i: usize) -> Result<()> {
    let gone = {
        let mut t = REQUESTS.lock();
        match t.get_mut(i) {
            Some(RequestEntry::Grequest(g)) => match g.mark_freed() {
                Freed::Later => return Ok(()),
                Freed::Now => t.remove(i),
            },
            _ => return Ok(()),
        }
    };
    match gone {
        Some(RequestEntry::Grequest(g)) => g.free(),
        _ => Ok(()),
    }
}

/// MPI_Cancel: cancel_fn, told whether the request is complete.
pub fn cancel(i: usize) -> Result<()> {
    get(i).map_or(Ok(()), |g| g.cancel())
}

/// MPI_Grequest_start.
///
/// # Safety
/// `request` is NULL or valid.
pub(crate) unsafe fn start(
    query_fn: MPI_Grequest_query_function,
    free_fn: MPI_Grequest_free_function,
    cancel_fn: MPI_Grequest_cancel_function,
    extra_state: *mut c_void,
    request: *mut MPI_Request,
) -> Result<()> {
    shim::world()?;
    if request.is_null() {
        return mpi_err!(Arg, "NULL request pointer");
    }
    let g = Grequest::new(Arc::new(CFunctions {
        query: query_fn,
        free: free_fn,
        cancel: cancel_fn,
        extra_state: extra_state as usize,
    }));
    write_out(
        request,
        handles::new_request(RequestEntry::Grequest(Box::new(g))),
    )
}

/// MPI_Grequest_complete.
pub(crate) fn complete(request: MPI_Request) -> Result<()> {
    let w = shim::world()?;
    let bad = || mpi_err!(Request, "{request:#x} is not a generalized request");
    let Some(i) = handles::request_index(request) else {
        return bad();
    };
    let freed = {
        let mut t = REQUESTS.lock();
        match t.get_mut(i) {
            Some(RequestEntry::Grequest(g)) => match g.mark_complete()? {
                true => t.remove(i),
                false => None,
            },
            _ => return bad(),
        }
    };
    // A waiter in another thread may be asleep on this request.
    w.progress.wake();
    match freed {
        Some(RequestEntry::Grequest(g)) => g.free(),
        _ => Ok(()),
    }
}
