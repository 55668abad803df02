//! Generalized requests (MPI_Grequest_start, MPI_Grequest_complete) and the status calls
//! they need (MPI_Status_set_elements(_x), MPI_Status_set_cancelled), with MPI_Status_c2f
//! and MPI_Status_f2c.
//!
//! The request lives in the request table; the wait and test family find it there
//! (`requests::Pending::Grequest`). Its callbacks run without any lock held: they are the
//! application's code and may call MPI.

use super::args;
use super::callbacks::{App, Convention};
use super::consts::*;
use super::handles::{self, Grequest, RequestEntry, REQUESTS};
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::Status;
use std::os::raw::{c_int, c_void};

/// The generalized request at table index `i`, if it is one (a copy: callbacks run
/// without the table's lock).
fn callbacks(i: usize) -> Option<Grequest> {
    match REQUESTS.lock().get(i) {
        Some(RequestEntry::Grequest(g)) => Some(**g),
        _ => None,
    }
}

/// Whether the generalized request at table index `i` is complete (a freed one counts).
pub fn is_complete(i: usize) -> bool {
    callbacks(i).is_none_or(|g| g.complete)
}

/// Call query_fn: the status it fills in, and its return code.
fn query(g: &Grequest) -> (Status, c_int) {
    let mut st = MPI_Status {
        count_lo: 0,
        count_hi_and_cancelled: 0,
        MPI_SOURCE: MPI_UNDEFINED,
        MPI_TAG: MPI_UNDEFINED,
        MPI_ERROR: MPI_SUCCESS,
    };
    let rc = match g.query {
        // SAFETY: the application registered query_fn with this extra_state for this call.
        Some(f) => unsafe { App::grequest_query(f, g.extra_state as *mut c_void, &mut st) },
        None => MPI_SUCCESS,
    };
    let mut s = Status::received(st.MPI_SOURCE, st.MPI_TAG, 0, 0);
    // SAFETY: `st` is a valid status.
    s.count = unsafe { args::status_bytes(&st) } as usize;
    if st.count_hi_and_cancelled & 1 != 0 {
        s.set_cancelled();
    }
    (s, rc)
}

fn call_free(g: &Grequest) -> c_int {
    match g.free {
        // SAFETY: as for query_fn.
        Some(f) => App::grequest_code(unsafe { f(g.extra_state as *mut c_void) }),
        None => MPI_SUCCESS,
    }
}

/// Finish the complete generalized request `*h` (table index `i`): query_fn for its
/// status, then free_fn; the handle becomes MPI_REQUEST_NULL. The code is query_fn's,
/// or free_fn's if query_fn succeeded (MPI-3.1 §12.2). None: there was no request left.
pub fn finish(h: &mut MPI_Request, i: usize) -> Option<(Status, c_int)> {
    *h = MPI_REQUEST_NULL;
    let g = callbacks(i)?;
    let (st, rc) = query(&g);
    let frc = call_free(&g);
    REQUESTS.lock().remove(i);
    Some((st, if rc != MPI_SUCCESS { rc } else { frc }))
}

/// MPI_Request_get_status: the status without freeing (None while incomplete).
pub fn peek(i: usize) -> Option<(Status, c_int)> {
    let g = callbacks(i)?;
    g.complete.then(|| query(&g))
}

/// MPI_Request_free on the generalized request at index `i`: free_fn now if complete,
/// else at MPI_Grequest_complete.
pub fn free(i: usize) -> Result<()> {
    let g = {
        let mut t = REQUESTS.lock();
        match t.get_mut(i) {
            Some(RequestEntry::Grequest(g)) if !g.complete => {
                g.freed = true;
                return Ok(());
            }
            Some(RequestEntry::Grequest(_)) => match t.remove(i) {
                Some(RequestEntry::Grequest(g)) => g,
                _ => unreachable!("checked above"),
            },
            _ => return Ok(()),
        }
    };
    super::errors::code_result(call_free(&g))
}

/// MPI_Cancel: cancel_fn, told whether the request is complete.
pub fn cancel(i: usize) -> Result<()> {
    let Some(g) = callbacks(i) else {
        return Ok(());
    };
    let rc = match g.cancel {
        // SAFETY: as for query_fn.
        Some(f) => {
            App::grequest_code(unsafe { f(g.extra_state as *mut c_void, g.complete as c_int) })
        }
        None => MPI_SUCCESS,
    };
    super::errors::code_result(rc)
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
    let g = Grequest {
        query: query_fn,
        free: free_fn,
        cancel: cancel_fn,
        extra_state: extra_state as usize,
        complete: false,
        freed: false,
    };
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
            Some(RequestEntry::Grequest(g)) if !g.complete => {
                g.complete = true;
                if g.freed {
                    t.remove(i)
                } else {
                    None
                }
            }
            Some(RequestEntry::Grequest(_)) => {
                return mpi_err!(Request, "generalized request completed twice")
            }
            _ => return bad(),
        }
    };
    // A waiter in another thread may be asleep on this request.
    w.progress.wake();
    match freed {
        Some(RequestEntry::Grequest(g)) => super::errors::code_result(call_free(&g)),
        _ => Ok(()),
    }
}
