//! Error codes (the classes' numbers and strings are the core's, `crate::error`; the codes
//! the application adds), and raising an error through the object's error handler.

use super::callbacks::{App, Convention, Kind};
use super::consts::*;
use super::handles;
use crate::error::added::{Found, Registry};
use crate::error::Result;
use crate::error::{class_text, Error, ErrorClass};
use crate::mpi_err;
use crate::runtime::world;
use std::os::raw::{c_char, c_int};

/// The class of an error code (a code the application's callbacks returned: query_fn of a
/// generalized request); MPI_ERR_OTHER for one railmpi does not raise itself.
pub fn class_of(code: c_int) -> ErrorClass {
    ErrorClass::of_code(code)
}

/// The error classes and codes the application adds, numbered from `MPI_ERR_LASTCODE + 1`.
pub static ADDED: Registry = Registry::new(MPI_ERR_LASTCODE + 1);

/// MPI_Add_error_class (`class` None) and MPI_Add_error_code.
pub fn add_code(class: Option<c_int>) -> Result<c_int> {
    ADDED.add(class, |c| class_text(c).is_some())
}

/// The class of any valid error code, predefined or added.
pub fn code_class(code: c_int) -> Option<c_int> {
    match ADDED.find(code) {
        Found::Predefined => class_text(code).map(|_| code),
        Found::Unknown => None,
        Found::Added { class, .. } => Some(class),
    }
}

/// MPI_ERR_ARG: `code` is no error code (predefined or added).
pub fn invalid_code(code: c_int) -> Error {
    Error::new(ErrorClass::Arg, format!("invalid error code {code}"))
}

/// The string of any valid error code, predefined or added (empty when none was added).
pub fn code_string(code: c_int) -> Option<String> {
    match ADDED.find(code) {
        Found::Predefined => class_text(code).map(str::to_string),
        Found::Unknown => None,
        Found::Added { text, .. } => Some(text),
    }
}

/// MPI_Add_error_string: the string of an added code or class (predefined ones keep
/// theirs: MPI_ERR_ARG).
///
/// # Safety
/// `string` is NULL or a NUL-terminated string.
pub unsafe fn add_error_string(errorcode: c_int, string: *const c_char) -> Result<()> {
    if string.is_null() {
        return mpi_err!(Arg, "NULL error string");
    }
    // SAFETY: a NUL-terminated string from the caller (MPI's contract for `string`).
    let text = std::ffi::CStr::from_ptr(string).to_string_lossy();
    if text.len() >= MPI_MAX_ERROR_STRING as usize {
        let most = MPI_MAX_ERROR_STRING - 1;
        return mpi_err!(Arg, "error string of {} bytes (at most {most})", text.len());
    }
    ADDED.set_text(errorcode, Some(text.into_owned()))
}

/// The code `err` is returned as: the application's own, or its class's.
pub fn code_of(err: &Error) -> c_int {
    err.code.unwrap_or_else(|| err.class.code())
}

/// Raise `err` from function `func` on communicator `comm`: run its error handler and
/// return the code to give the caller (if the handler returns at all).
pub fn raise(func: &str, comm: MPI_Comm, err: Error) -> c_int {
    let handler = if world::world().is_some() {
        handles::comm_errhandler(comm)
    } else {
        MPI_ERRORS_ARE_FATAL
    };
    // SAFETY: a communicator's handler was registered as an MPI_Comm_errhandler_function.
    dispatch(func, handler, code_of(&err), &err.msg, |f, e| unsafe {
        App::errhandler(f, Kind::Comm, comm as usize, *e)
    })
}

/// Raise `err` from `func` on window `win`, through the window's error handler.
pub fn raise_win(func: &str, win: MPI_Win, err: Error) -> c_int {
    raise_win_code(func, win, code_of(&err), &err.msg)
}

/// `raise_win` with an error code (MPI_Win_call_errhandler's).
pub fn raise_win_code(func: &str, win: MPI_Win, code: c_int, msg: &str) -> c_int {
    let handler = handles::win_errhandler(win);
    // SAFETY: a window's handler was registered as an MPI_Win_errhandler_function.
    dispatch(func, handler, code, msg, |f, e| unsafe {
        App::errhandler(f, Kind::Win, win as usize, *e)
    })
}

/// Runs error handler `handler` for `code`: returns, aborts, or calls the application's
/// function through `call` (its address, the code).
fn dispatch(
    func: &str,
    handler: MPI_Errhandler,
    code: c_int,
    msg: &str,
    call: impl FnOnce(usize, &mut c_int),
) -> c_int {
    match handler {
        MPI_ERRORS_RETURN => code,
        MPI_ERRORS_ARE_FATAL | MPI_ERRORS_ABORT => fatal(func, code, msg),
        h => {
            if let Some(f) = handles::errhandler_fn(h) {
                let mut e = code;
                call(f, &mut e);
            }
            code
        }
    }
}

/// Raise `err` from `func` on session `session`, through its error handler (MPI_COMM_SELF's
/// where `session` is not one: an invalid handle has none).
pub fn raise_session(func: &str, session: MPI_Session, err: Error) -> c_int {
    raise_session_code(func, session, code_of(&err), &err.msg)
}

/// `raise_session` with an error code (MPI_Session_call_errhandler's).
pub fn raise_session_code(func: &str, session: MPI_Session, code: c_int, msg: &str) -> c_int {
    let Some(handler) = handles::session_errhandler(session) else {
        let err = Error::new(class_of(code), msg.to_string()).with_code(code);
        return raise(func, MPI_COMM_SELF, err);
    };
    // SAFETY: a session's handler was registered as an MPI_Session_errhandler_function.
    dispatch(func, handler, code, msg, |f, e| unsafe {
        App::errhandler(f, Kind::Session, session as usize, *e)
    })
}

/// Raise `err` from `func` through error handler `handler` (a call that makes an object
/// and is given its handler: MPI_Session_init, MPI_Comm_create_from_group); a function
/// handler gets a pointer to `null`, the call's object not made.
pub fn raise_errh(func: &str, handler: MPI_Errhandler, null: c_int, err: Error) -> c_int {
    let handler = if handles::valid_errhandler(handler) {
        handler
    } else {
        MPI_ERRORS_ARE_FATAL
    };
    // SAFETY: the handler was registered as the MPI_*_errhandler_function of the object
    // the call makes (a session or a communicator).
    let kind = if null == MPI_SESSION_NULL {
        Kind::Session
    } else {
        Kind::Comm
    };
    dispatch(func, handler, code_of(&err), &err.msg, |f, e| unsafe {
        App::errhandler(f, kind, null as usize, *e)
    })
}

/// Raise `err` from `func` on file `fh` (MPI_FILE_NULL: open and delete), through the
/// file's error handler.
pub fn raise_file(func: &str, fh: MPI_File, err: Error) -> c_int {
    raise_file_code(func, fh, code_of(&err), &err.msg)
}

/// `raise_file` with an error code (MPI_File_call_errhandler's).
pub fn raise_file_code(func: &str, fh: MPI_File, code: c_int, msg: &str) -> c_int {
    let handler = handles::file_errhandler(fh);
    // SAFETY: a file's handler was registered as an MPI_File_errhandler_function.
    dispatch(func, handler, code, msg, |f, e| unsafe {
        App::errhandler(f, Kind::File, fh as usize, *e)
    })
}

/// MPI_ERRORS_ARE_FATAL: say what went wrong (the code's string) and take the job down.
pub fn fatal(func: &str, code: c_int, msg: &str) -> ! {
    let what = code_string(code).unwrap_or_else(|| "MPI error".into());
    crate::runtime::errhandler::fatal(func, &what, msg)
}

/// Turn a per-request code into the call's result, for single completions.
pub use crate::error::code_result;
