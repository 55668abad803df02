//! Calls of the application's callbacks: error handlers, user reduction functions,
//! attribute copy and delete functions, generalized requests' functions. Each was registered
//! as an address (`usize`) or a C function pointer of the MPICH ABI's types; here is the one
//! place that turns it back into a function and calls it.
//!
//! How a callback is called depends on the ABI the application was compiled for: this module
//! defines that `Convention` and implements MPICH's (`Mpich`); the standard ABI's lives in
//! `abi_std::callbacks` (handles there are pointers, codes and statuses translated). The
//! crate root picks one (`crate::AppCallbacks`), so `abi` never names `abi_std`.

use super::consts::*;
use std::os::raw::{c_int, c_void};

/// The object kinds of error handlers and attributes, to translate their handles.
#[derive(Clone, Copy)]
pub enum Kind {
    Comm,
    Win,
    File,
    Session,
    Datatype,
}

/// The calling convention of one ABI's callbacks. Every function's arguments are MPICH-ABI
/// values; an implementation translates them into its ABI and the codes back.
///
/// # Safety
/// Each function's `f` is a callback of the matching type that the application registered.
pub trait Convention {
    /// Run error handler `f` (an `MPI_X_errhandler_function`) for object `h` of kind `kind`
    /// (an int handle, or MPI_File's pointer, as an address) with error code `code`: the
    /// code the handler leaves.
    unsafe fn errhandler(f: usize, kind: Kind, h: usize, code: c_int) -> c_int;
    /// A user reduction function: `len` elements of `dt` from `a` into `b`, the length an
    /// int (MPI_Op_create) or an MPI_Count (`large`: MPI_Op_create_c).
    unsafe fn user_op(
        f: usize,
        large: bool,
        a: *mut c_void,
        b: *mut c_void,
        len: i64,
        dt: MPI_Datatype,
    );
    /// An attribute copy function on object `h` of kind `kind`: its return code.
    #[allow(clippy::too_many_arguments)]
    unsafe fn attr_copy(
        f: usize,
        kind: Kind,
        h: c_int,
        keyval: c_int,
        extra: *mut c_void,
        value: *mut c_void,
        out: *mut c_void,
        flag: *mut c_int,
    ) -> c_int;
    /// An attribute delete function on object `h` of kind `kind`: its return code.
    unsafe fn attr_delete(
        f: usize,
        kind: Kind,
        h: c_int,
        keyval: c_int,
        value: *mut c_void,
        extra: *mut c_void,
    ) -> c_int;
    /// A generalized request's query function (not NULL): the status it fills in (`st`) and
    /// its return code.
    unsafe fn grequest_query(
        f: unsafe extern "C" fn(*mut c_void, *mut MPI_Status) -> c_int,
        extra: *mut c_void,
        st: &mut MPI_Status,
    ) -> c_int;
    /// The code a generalized request's free or cancel function returned.
    fn grequest_code(rc: c_int) -> c_int;
}

/// MPICH's ABI: the callbacks' types are the MPICH ABI's, nothing to translate.
pub struct Mpich;

impl Convention for Mpich {
    unsafe fn errhandler(f: usize, kind: Kind, h: usize, code: c_int) -> c_int {
        let mut e = code;
        match kind {
            Kind::File => {
                // MPI_File is a pointer in MPICH's ABI.
                let g: unsafe extern "C" fn(*mut MPI_File, *mut c_int, ...) =
                    std::mem::transmute(f);
                let mut fh: MPI_File = std::ptr::without_provenance_mut(h);
                g(&mut fh, &mut e);
            }
            _ => {
                let g: unsafe extern "C" fn(*mut c_int, *mut c_int, ...) = std::mem::transmute(f);
                let mut i = h as c_int;
                g(&mut i, &mut e);
            }
        }
        e
    }

    unsafe fn user_op(
        f: usize,
        large: bool,
        a: *mut c_void,
        b: *mut c_void,
        len: i64,
        dt: MPI_Datatype,
    ) {
        let mut d = dt;
        call_user_op(f, large, a, b, len, std::ptr::addr_of_mut!(d).cast());
    }

    unsafe fn attr_copy(
        f: usize,
        _kind: Kind,
        h: c_int,
        keyval: c_int,
        extra: *mut c_void,
        value: *mut c_void,
        out: *mut c_void,
        flag: *mut c_int,
    ) -> c_int {
        let g: MPI_Comm_copy_attr_function = std::mem::transmute(f);
        g.map_or(MPI_SUCCESS, |g| g(h, keyval, extra, value, out, flag))
    }

    unsafe fn attr_delete(
        f: usize,
        _kind: Kind,
        h: c_int,
        keyval: c_int,
        value: *mut c_void,
        extra: *mut c_void,
    ) -> c_int {
        let g: unsafe extern "C" fn(c_int, c_int, *mut c_void, *mut c_void) -> c_int =
            std::mem::transmute(f);
        g(h, keyval, value, extra)
    }

    unsafe fn grequest_query(
        f: unsafe extern "C" fn(*mut c_void, *mut MPI_Status) -> c_int,
        extra: *mut c_void,
        st: &mut MPI_Status,
    ) -> c_int {
        f(extra, st)
    }

    fn grequest_code(rc: c_int) -> c_int {
        rc
    }
}

/// Call user function `f` with the datatype argument `d` (a pointer to the ABI's handle).
///
/// # Safety
/// As `Convention::user_op`; `d` points to a handle of the ABI `f` was compiled for.
pub unsafe fn call_user_op(
    f: usize,
    large: bool,
    a: *mut c_void,
    b: *mut c_void,
    len: i64,
    d: *mut c_void,
) {
    if large {
        let g: unsafe extern "C" fn(*mut c_void, *mut c_void, *mut MPI_Count, *mut c_void) =
            std::mem::transmute(f);
        let mut n = len as MPI_Count;
        g(a, b, &mut n, d);
    } else {
        let g: unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut c_void) =
            std::mem::transmute(f);
        let mut n = len as c_int;
        g(a, b, &mut n, d);
    }
}

/// The convention of this build's application (`crate::AppCallbacks`): callers write
/// `App::errhandler(...)`, with `Convention` in scope.
pub type App = crate::AppCallbacks;
