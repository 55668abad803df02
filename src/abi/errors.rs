//! Error codes: the classes' MPICH numbers (their texts are the core's, `crate::error`),
//! the codes the application adds, and raising an error through the object's error handler.

use super::callbacks::{App, Convention, Kind};
use super::consts::*;
use super::handles;
use crate::error::added::{Found, Registry};
use crate::error::Result;
use crate::error::{Error, ErrorClass};
use crate::mpi_err;
use crate::runtime::world;
use std::os::raw::{c_char, c_int};

/// A class's number in MPICH's ABI (its `MPI_ERR_*`; the standard ABI's binding
/// translates it).
pub const fn class_code(c: ErrorClass) -> c_int {
    use ErrorClass::*;
    match c {
        Buffer => MPI_ERR_BUFFER,
        Count => MPI_ERR_COUNT,
        Type => MPI_ERR_TYPE,
        Tag => MPI_ERR_TAG,
        Comm => MPI_ERR_COMM,
        Rank => MPI_ERR_RANK,
        Request => MPI_ERR_REQUEST,
        Root => MPI_ERR_ROOT,
        Group => MPI_ERR_GROUP,
        Op => MPI_ERR_OP,
        Topology => MPI_ERR_TOPOLOGY,
        Dims => MPI_ERR_DIMS,
        Arg => MPI_ERR_ARG,
        Unknown => MPI_ERR_UNKNOWN,
        Truncate => MPI_ERR_TRUNCATE,
        Other => MPI_ERR_OTHER,
        Intern => MPI_ERR_INTERN,
        InStatus => MPI_ERR_IN_STATUS,
        Pending => MPI_ERR_PENDING,
        Keyval => MPI_ERR_KEYVAL,
        NoMem => MPI_ERR_NO_MEM,
        Info => MPI_ERR_INFO,
        InfoKey => MPI_ERR_INFO_KEY,
        InfoValue => MPI_ERR_INFO_VALUE,
        InfoNoKey => MPI_ERR_INFO_NOKEY,
        Win => MPI_ERR_WIN,
        Disp => MPI_ERR_DISP,
        RmaSync => MPI_ERR_RMA_SYNC,
        RmaRange => MPI_ERR_RMA_RANGE,
        RmaConflict => MPI_ERR_RMA_CONFLICT,
        RmaFlavor => MPI_ERR_RMA_FLAVOR,
        RmaAttach => MPI_ERR_RMA_ATTACH,
        RmaShared => MPI_ERR_RMA_SHARED,
        LockType => MPI_ERR_LOCKTYPE,
        Assert => MPI_ERR_ASSERT,
        Size => MPI_ERR_SIZE,
        File => MPI_ERR_FILE,
        NotSame => MPI_ERR_NOT_SAME,
        Amode => MPI_ERR_AMODE,
        UnsupportedDatarep => MPI_ERR_UNSUPPORTED_DATAREP,
        UnsupportedOperation => MPI_ERR_UNSUPPORTED_OPERATION,
        NoSuchFile => MPI_ERR_NO_SUCH_FILE,
        FileExists => MPI_ERR_FILE_EXISTS,
        BadFile => MPI_ERR_BAD_FILE,
        Access => MPI_ERR_ACCESS,
        NoSpace => MPI_ERR_NO_SPACE,
        Quota => MPI_ERR_QUOTA,
        ReadOnly => MPI_ERR_READ_ONLY,
        FileInUse => MPI_ERR_FILE_IN_USE,
        DupDatarep => MPI_ERR_DUP_DATAREP,
        Conversion => MPI_ERR_CONVERSION,
        Io => MPI_ERR_IO,
        Port => MPI_ERR_PORT,
        Name => MPI_ERR_NAME,
        Service => MPI_ERR_SERVICE,
        Spawn => MPI_ERR_SPAWN,
        Session => MPI_ERR_SESSION,
        TNotInitialized => MPI_T_ERR_NOT_INITIALIZED,
        TInvalidIndex => MPI_T_ERR_INVALID_INDEX,
        TInvalidHandle => MPI_T_ERR_INVALID_HANDLE,
        TInvalidName => MPI_T_ERR_INVALID_NAME,
        TInvalidSession => MPI_T_ERR_INVALID_SESSION,
        TCvarSetNever => MPI_T_ERR_CVAR_SET_NEVER,
        TPvarNoStartstop => MPI_T_ERR_PVAR_NO_STARTSTOP,
        TPvarNoWrite => MPI_T_ERR_PVAR_NO_WRITE,
        TInvalid => MPI_T_ERR_INVALID,
        Abi => MPI_ERR_ABI,
    }
}

/// The class of an error code (a code the application's callbacks returned: query_fn of a
/// generalized request); MPI_ERR_OTHER for one railmpi does not raise itself.
pub fn class_of(code: c_int) -> ErrorClass {
    ErrorClass::ALL
        .iter()
        .copied()
        .find(|&c| class_code(c) == code)
        .unwrap_or(ErrorClass::Other)
}

/// MPICH's predefined classes the core never raises, with their text.
const OTHER_CLASSES: &[(c_int, &str)] = &[
    (MPI_SUCCESS, "No MPI error"),
    (MPI_ERR_BASE, "Invalid base address"),
    (MPI_T_ERR_MEMORY, "Out of memory (MPI_T)"),
    (
        MPI_T_ERR_CANNOT_INIT,
        "The MPI tool interface cannot be initialized now",
    ),
    (MPI_T_ERR_INVALID_ITEM, "Invalid MPI_T item"),
    (MPI_T_ERR_OUT_OF_HANDLES, "No more MPI_T handles"),
    (
        MPI_T_ERR_OUT_OF_SESSIONS,
        "No more MPI_T performance variable sessions",
    ),
    (
        MPI_T_ERR_CVAR_SET_NOT_NOW,
        "The control variable cannot be set now",
    ),
    (
        MPI_T_ERR_PVAR_NO_ATOMIC,
        "The performance variable cannot be read and reset atomically",
    ),
    (
        MPI_T_ERR_NOT_SUPPORTED,
        "Not supported by the MPI tool interface",
    ),
    (MPI_ERR_ERRHANDLER, "Invalid error handler"),
];

/// MPI_Error_string's text for a predefined class by number (MPI_SUCCESS included); None
/// for a number that is no class. The numbers up to MPI_ERR_VALUE_TOO_LARGE are all
/// classes (some unnamed here: "MPI error").
pub fn class_text(code: c_int) -> Option<&'static str> {
    let named = ErrorClass::ALL.iter().find(|&&c| class_code(c) == code);
    named
        .map(|c| c.text())
        .or_else(|| OTHER_CLASSES.iter().find(|o| o.0 == code).map(|o| o.1))
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // Numbers are unique.
        let mut codes: Vec<c_int> = ErrorClass::ALL.iter().map(|&c| class_code(c)).collect();
        codes.extend(OTHER_CLASSES.iter().map(|o| o.0));
        let n = codes.len();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), n);
    }
}
