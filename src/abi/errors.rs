//! Error codes: the classes' MPICH numbers (`class_code`, generated from the table; their
//! texts are the core's, `crate::error`),
//! the codes the application adds, and raising an error through the object's error handler.

use super::callbacks::{App, Convention, Kind};
use super::consts::*;
use super::handles;
use crate::error::added::Registry;
use crate::error::Result;
use crate::error::{Error, ErrorClass};
use crate::mpi_err;
use crate::runtime::world;
use std::os::raw::{c_char, c_int};

/// A class's number in MPICH's ABI (its `MPI_ERR_*`, from the table tools/mpich_abi.txt;
/// the standard ABI's binding translates it).
pub use super::consts::class_code;

/// The class of an error code (a code the application's callbacks returned: query_fn of a
/// generalized request); MPI_ERR_OTHER for one railmpi does not raise itself.
pub fn class_of(code: c_int) -> ErrorClass {
    error_class(code).unwrap_or(ErrorClass::Other)
}

/// MPI_Error_string's text for a predefined class by number (MPI_SUCCESS included); None
/// for a number that is no class. The numbers up to MPI_ERR_VALUE_TOO_LARGE are all
/// classes (some unnamed here: "MPI error").
pub fn class_text(code: c_int) -> Option<&'static str> {
    error_class(code)
        .map(|c| c.text())
        .or_else(|| unraised_class(code).map(|c| c.text()))
        .or_else(|| {
            (1..=MPI_ERR_VALUE_TOO_LARGE)
                .contains(&code)
                .then_some("MPI error")
        })
}

/// A completed request's error code as the result of the call that completed it alone:
/// the code itself goes back to the caller (an added one too), not just its class.
pub fn code_result(code: c_int) -> Result<()> {
    match code {
        MPI_SUCCESS => Ok(()),
        MPI_ERR_TRUNCATE => mpi_err!(
            Truncate,
            "message truncated: the receive buffer is too small"
        ),
        c => {
            Err(Error::new(class_of(c), format!("the request failed with error {c}")).with_code(c))
        }
    }
}

/// The error classes and codes the application adds, numbered from `MPI_ERR_LASTCODE + 1`.
pub static ADDED: Registry = Registry::new(MPI_ERR_LASTCODE + 1);

/// MPI_Add_error_class (`class` None) and MPI_Add_error_code (table lines).
pub fn add_code(class: Option<c_int>) -> Result<c_int> {
    ADDED.add(class, |c| class_text(c).is_some())
}

/// The class of any valid error code, predefined or added (MPI_Error_class, a table line).
pub fn code_class(code: c_int) -> Result<c_int> {
    ADDED.class_of(code, |c| class_text(c).is_some())
}

/// The string of any valid error code, predefined or added (empty when none was added).
pub fn code_string(code: c_int) -> Result<String> {
    ADDED.text_of(code, class_text)
}

/// MPI_Add_error_string (a table line; `Registry::add_text`).
///
/// # Safety
/// `string` is NULL or a NUL-terminated string.
pub unsafe fn add_error_string(errorcode: c_int, string: *const c_char) -> Result<()> {
    if string.is_null() {
        return mpi_err!(Arg, "NULL error string");
    }
    // SAFETY: a NUL-terminated string from the caller (MPI's contract for `string`).
    let text = std::ffi::CStr::from_ptr(string)
        .to_string_lossy()
        .into_owned();
    ADDED.add_text(errorcode, text, MPI_MAX_ERROR_STRING as usize)
}

/// The code `err` is returned as: the application's own, or its class's.
pub fn code_of(err: &Error) -> c_int {
    err.code.unwrap_or_else(|| class_code(err.class))
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
        App::errhandler(f, Kind::Comm, comm as usize, e)
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
        App::errhandler(f, Kind::Win, win as usize, e)
    })
}

/// Runs error handler `handler` for `code`: returns, aborts, or calls the application's
/// function through `call` (its address, the code; the code it leaves).
fn dispatch(
    func: &str,
    handler: MPI_Errhandler,
    code: c_int,
    msg: &str,
    call: impl FnOnce(usize, c_int) -> c_int,
) -> c_int {
    match handler {
        MPI_ERRORS_RETURN => code,
        MPI_ERRORS_ARE_FATAL | MPI_ERRORS_ABORT => fatal(func, code, msg),
        // The call returns the code the handler leaves: it is passed as "the error code to
        // be returned by the MPI routine" (MPI 4.1 §9.3), by pointer, and MPICH returns
        // what the handler made of it (a handler that sets MPI_SUCCESS has dealt with it).
        h => match handles::errhandler_fn(h) {
            Some(f) => call(f, code),
            None => code,
        },
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
        App::errhandler(f, Kind::Session, session as usize, e)
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
        App::errhandler(f, kind, null as usize, e)
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
        App::errhandler(f, Kind::File, fh as usize, e)
    })
}

/// MPI_ERRORS_ARE_FATAL: say what went wrong (the code's string) and take the job down.
pub fn fatal(func: &str, code: c_int, msg: &str) -> ! {
    let what = code_string(code).unwrap_or_else(|_| "MPI error".into());
    crate::runtime::errhandler::fatal(func, &what, msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Unraised;

    #[test]
    fn class_numbers_and_texts() {
        assert_eq!(class_code(ErrorClass::Buffer), MPI_ERR_BUFFER);
        assert_eq!(class_of(MPI_ERR_WIN), ErrorClass::Win);
        // A class the core never raises, and a code that is none: MPI_ERR_OTHER.
        assert_eq!(class_of(MPI_ERR_BASE), ErrorClass::Other);
        assert_eq!(class_of(1 << 20), ErrorClass::Other);
        assert_eq!(class_text(MPI_SUCCESS), Some("No MPI error"));
        assert_eq!(class_text(MPI_ERR_BASE), Some("Invalid base address"));
        assert_eq!(class_text(54), Some("MPI error"));
        assert_eq!(class_text(79), None);
        assert_eq!(class_text(-1), None);
        assert_eq!(code_result(MPI_SUCCESS), Ok(()));
        assert_eq!(code_result(MPI_ERR_TRUNCATE).unwrap_err().code, None);
        let e = code_result(1 << 20).unwrap_err();
        assert_eq!((e.class, e.code), (ErrorClass::Other, Some(1 << 20)));
        // Each class has a number of its own (MPICH's are below 100).
        let raised = (0..100).filter(|&n| error_class(n).is_some()).count();
        let unraised = (0..100).filter(|&n| unraised_class(n).is_some()).count();
        assert_eq!(
            (raised, unraised),
            (ErrorClass::ALL.len(), Unraised::ALL.len())
        );
        assert!((0..100).all(|n| error_class(n).is_none() || unraised_class(n).is_none()));
    }
}
