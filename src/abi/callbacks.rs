//! Calls of the application's callbacks: error handlers, user reduction functions,
//! attribute copy and delete functions, generalized requests' functions. Each was registered
//! as an address (`usize`) or a C function pointer of the MPICH ABI's types; here is the one
//! place that turns it back into a function and calls it.
//!
//! In the standard-ABI build (feature `std-abi`) every callback is the application's under
//! that ABI: it gets standard-ABI handles (pointer-sized), error codes and statuses, so the
//! arguments are translated (`crate::abi_std`) and the codes it returns translated back.

use super::consts::*;
#[cfg(feature = "std-abi")]
use crate::abi_std::{convert as cv, types as sa, values as v};
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

/// The standard ABI's value of MPICH-ABI handle `h` of kind `kind` (as an address).
#[cfg(feature = "std-abi")]
fn std_handle(kind: Kind, h: usize) -> usize {
    match kind {
        Kind::Comm => v::comm_out(h as c_int) as usize,
        Kind::Win => v::win_out(h as c_int) as usize,
        Kind::Session => v::session_out(h as c_int) as usize,
        Kind::Datatype => v::datatype_out(h as c_int) as usize,
        Kind::File => cv::file_out(std::ptr::without_provenance_mut(h)) as usize,
    }
}

/// Run error handler function `f` (an `MPI_X_errhandler_function`) for the object `h` of
/// kind `kind` (an int handle, or MPI_File's pointer, as an address) with error code `code`.
///
/// # Safety
/// `f` is the address of an error handler function the application registered.
pub unsafe fn errhandler(f: usize, kind: Kind, h: usize, code: c_int) {
    #[cfg(not(feature = "std-abi"))]
    {
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
        let _ = kind;
    }
    #[cfg(feature = "std-abi")]
    {
        // Every handle of the standard ABI is a pointer.
        let g: unsafe extern "C" fn(*mut usize, *mut c_int, ...) = std::mem::transmute(f);
        let mut s = std_handle(kind, h);
        let mut e = v::code_out(code);
        g(&mut s, &mut e);
    }
}

/// A user reduction function: `len` elements of `dt` from `a` into `b`, the length an int
/// (MPI_Op_create) or an MPI_Count (MPI_Op_create_c).
///
/// # Safety
/// `f` is the application's MPI_User_function (`large`: _c); `a` and `b` hold `len`
/// elements of `dt`.
pub unsafe fn user_op(
    f: usize,
    large: bool,
    a: *mut c_void,
    b: *mut c_void,
    len: i64,
    dt: MPI_Datatype,
) {
    // The datatype argument: MPICH's int handle, or the standard ABI's pointer.
    #[cfg(not(feature = "std-abi"))]
    let mut d: MPI_Datatype = dt;
    #[cfg(feature = "std-abi")]
    let mut d: usize = v::datatype_out(dt) as usize;
    let d = std::ptr::addr_of_mut!(d).cast::<c_void>();
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

/// An attribute copy function on object `h` (of kind `kind`): its return code, in the
/// MPICH ABI.
///
/// # Safety
/// `f` is the application's copy function (or MPIR_Dup_fn); `out` and `flag` are valid.
#[allow(clippy::too_many_arguments)]
pub unsafe fn attr_copy(
    f: usize,
    kind: Kind,
    h: c_int,
    keyval: c_int,
    extra: *mut c_void,
    value: *mut c_void,
    out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    #[cfg(not(feature = "std-abi"))]
    {
        let _ = kind;
        let g: MPI_Comm_copy_attr_function = std::mem::transmute(f);
        g.map_or(MPI_SUCCESS, |g| g(h, keyval, extra, value, out, flag))
    }
    #[cfg(feature = "std-abi")]
    {
        if f == MPIR_Dup_fn as *const () as usize {
            return MPIR_Dup_fn(h, keyval, extra, value, out, flag);
        }
        let g: unsafe extern "C" fn(
            usize,
            c_int,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_int,
        ) -> c_int = std::mem::transmute(f);
        v::code_in(g(
            std_handle(kind, h as usize),
            keyval,
            extra,
            value,
            out,
            flag,
        ))
    }
}

/// An attribute delete function on object `h` (of kind `kind`): its return code, in the
/// MPICH ABI.
///
/// # Safety
/// `f` is the application's delete function.
pub unsafe fn attr_delete(
    f: usize,
    kind: Kind,
    h: c_int,
    keyval: c_int,
    value: *mut c_void,
    extra: *mut c_void,
) -> c_int {
    #[cfg(not(feature = "std-abi"))]
    {
        let _ = kind;
        let g: unsafe extern "C" fn(c_int, c_int, *mut c_void, *mut c_void) -> c_int =
            std::mem::transmute(f);
        g(h, keyval, value, extra)
    }
    #[cfg(feature = "std-abi")]
    {
        let g: unsafe extern "C" fn(usize, c_int, *mut c_void, *mut c_void) -> c_int =
            std::mem::transmute(f);
        v::code_in(g(std_handle(kind, h as usize), keyval, value, extra))
    }
}

/// A generalized request's query function: the status it fills in (`st`, MPICH's layout)
/// and its return code.
///
/// # Safety
/// `f` is the application's query function.
pub unsafe fn grequest_query(
    f: MPI_Grequest_query_function,
    extra: *mut c_void,
    st: &mut MPI_Status,
) -> c_int {
    let Some(f) = f else { return MPI_SUCCESS };
    #[cfg(not(feature = "std-abi"))]
    {
        f(extra, st)
    }
    #[cfg(feature = "std-abi")]
    {
        let g: unsafe extern "C" fn(*mut c_void, *mut sa::MPI_Status) -> c_int =
            std::mem::transmute(f);
        let mut s = sa::MPI_Status::default();
        cv::status_back(&mut s, st);
        let rc = g(extra, &mut s);
        *st = cv::status_in(&s);
        v::code_in(rc)
    }
}

/// The code a generalized request's free or cancel function returned, in the MPICH ABI.
pub fn grequest_code(rc: c_int) -> c_int {
    #[cfg(feature = "std-abi")]
    return v::code_in(rc);
    #[cfg(not(feature = "std-abi"))]
    rc
}
