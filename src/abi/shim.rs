//! The boundary every exported function runs inside (compare rustls-ffi's
//! `ffi_panic_boundary!`): a core `Result` becomes an MPI error code through the error
//! handler, and a Rust panic never unwinds into C — it becomes MPI_ERR_INTERN.

use super::consts::*;
use super::errors;
use crate::error::{Error, ErrorClass, Result};
use crate::runtime::World;
use std::cell::Cell;
use std::os::raw::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Run the body of MPI function `func`; errors go to `comm`'s error handler.
#[inline]
pub fn run(func: &'static str, comm: MPI_Comm, body: impl FnOnce() -> Result<()>) -> c_int {
    run_on(func, &Cell::new(comm), body)
}

/// Run the body of MPI function `func`; errors go to window `win`'s error handler.
#[inline]
pub fn run_win(func: &'static str, win: MPI_Win, body: impl FnOnce() -> Result<()>) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => MPI_SUCCESS,
        Ok(Err(e)) => errors::raise_win(func, win, e),
        Err(panic) => errors::raise_win(func, win, panic_error(panic)),
    }
}

/// Run the body of MPI function `func`; errors go to file `fh`'s error handler.
#[inline]
pub fn run_file(func: &'static str, fh: MPI_File, body: impl FnOnce() -> Result<()>) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => MPI_SUCCESS,
        Ok(Err(e)) => errors::raise_file(func, fh, e),
        Err(panic) => errors::raise_file(func, fh, panic_error(panic)),
    }
}

/// Run the body of MPI function `func`; errors go to session `session`'s error handler.
#[inline]
pub fn run_session(
    func: &'static str,
    session: MPI_Session,
    body: impl FnOnce() -> Result<()>,
) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => MPI_SUCCESS,
        Ok(Err(e)) => errors::raise_session(func, session, e),
        Err(panic) => errors::raise_session(func, session, panic_error(panic)),
    }
}

/// Run the body of MPI function `func`; errors go to the error handler it was given
/// (`errors::raise_errh`).
#[inline]
pub fn run_errh(
    func: &'static str,
    errhandler: MPI_Errhandler,
    null: c_int,
    body: impl FnOnce() -> Result<()>,
) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => MPI_SUCCESS,
        Ok(Err(e)) => errors::raise_errh(func, errhandler, null, e),
        Err(panic) => errors::raise_errh(func, errhandler, null, panic_error(panic)),
    }
}

/// Run the body of MPI_T function `func`: its error is the return code, no handler runs
/// (MPI-4.1 §15.3.10); logged at debug level.
pub fn run_tool(func: &'static str, body: impl FnOnce() -> Result<()>) -> c_int {
    let e = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return MPI_SUCCESS,
        Ok(Err(e)) => e,
        Err(panic) => panic_error(panic),
    };
    tracing::debug!("{func}: {}", e.msg);
    errors::class_code(e.class)
}

fn panic_error(panic: Box<dyn std::any::Any + Send>) -> Error {
    let msg = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into());
    Error::new(ErrorClass::Intern, format!("internal error: {msg}"))
}

/// As `run`, for calls whose communicator is known only inside the body (a request's):
/// the body stores it in `comm` before it returns an error.
#[inline]
pub fn run_on(
    func: &'static str,
    comm: &Cell<MPI_Comm>,
    body: impl FnOnce() -> Result<()>,
) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => MPI_SUCCESS,
        Ok(Err(e)) => errors::raise(func, comm.get(), e),
        Err(panic) => errors::raise(func, comm.get(), panic_error(panic)),
    }
}

/// The running world, or the error MPI gives before MPI_Init / after MPI_Finalize.
#[inline]
pub fn world() -> Result<&'static World> {
    crate::runtime::world::current()
}

/// The communicator behind `h` in the running world (the error MPI gives before MPI_Init
/// and after MPI_Finalize, then MPI_ERR_COMM).
#[inline]
pub fn comm(h: MPI_Comm) -> Result<super::handles::CommRef> {
    world()?;
    super::handles::comm(h)
}

/// The window behind `h` in the running world (as `comm`, then MPI_ERR_WIN).
#[inline]
pub fn win(h: MPI_Win) -> Result<std::sync::Arc<crate::rma::Window>> {
    world()?;
    super::handles::win(h)
}

/// The handle at `p` (a call's in-out handle argument), `null` if `p` is NULL.
///
/// # Safety
/// `p` is NULL or valid for reading.
#[inline]
pub unsafe fn deref_or<T: Copy>(p: *const T, null: T) -> T {
    if p.is_null() {
        null
    } else {
        *p
    }
}

/// Write through an output pointer the caller handed us, if it is not NULL.
///
/// # Safety
/// `p` is NULL or valid for writing a `T`.
#[inline]
pub unsafe fn write_out<T>(p: *mut T, v: T) -> Result<()> {
    if p.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL output argument"));
    }
    p.write(v);
    Ok(())
}

/// `write_out` each value of `v` through its pointer of `p`, in order (a call with
/// several outputs: MPI_Cart_shift, MPI_Type_get_extent ...).
///
/// # Safety
/// Each of `p` is NULL or valid for writing.
pub unsafe fn write_all<T, const N: usize>(p: [*mut T; N], v: [T; N]) -> Result<()> {
    for (p, v) in p.into_iter().zip(v) {
        write_out(p, v)?;
    }
    Ok(())
}

/// Copy `s` into a C buffer of `cap` bytes as a NUL-terminated string; its length out.
///
/// # Safety
/// `buf` is valid for `cap` bytes; `len` is NULL or valid.
pub unsafe fn write_out_str(
    s: &str,
    buf: *mut std::os::raw::c_char,
    cap: usize,
    len: *mut c_int,
) -> Result<()> {
    if buf.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL string buffer"));
    }
    let n = s.len().min(cap.saturating_sub(1));
    std::ptr::copy_nonoverlapping(s.as_ptr(), buf as *mut u8, n);
    *buf.add(n) = 0;
    if !len.is_null() {
        *len = n as c_int;
    }
    Ok(())
}
