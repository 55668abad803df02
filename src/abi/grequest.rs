//! Generalized requests' C side (MPI_Grequest_start, MPI_Grequest_complete): the
//! application's query, free and cancel functions (`CFunctions`) under the runtime's
//! generalized request (`runtime::grequest`), which lives in the request table
//! (`runtime::requests`, where the wait and test families complete it). Its functions run
//! without any lock held: they are the application's code and may call MPI.

use super::args;
use super::callbacks::{App, Convention};
use super::consts::*;
use super::errors::code_result;
use super::handles;
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::Status;
use crate::runtime::grequest::{Functions, Grequest};
use crate::runtime::requests::{self, Entry};
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
    write_out(request, handles::new_request(Entry::Grequest(Box::new(g))))
}

/// MPI_Grequest_complete.
pub(crate) fn complete(request: MPI_Request) -> Result<()> {
    requests::grequest_mark_complete(request)
}
