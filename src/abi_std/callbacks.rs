//! The standard ABI's calling convention for the application's callbacks
//! (`abi::callbacks::Convention`): every handle is pointer-sized, error codes and statuses are
//! the standard's, so arguments are translated on the way in and codes on the way out.

use super::{convert as cv, types as sa, values as v};
use crate::abi::callbacks::{call_user_op, Convention, Kind};
use crate::abi::consts as m;
use std::os::raw::{c_int, c_void};

pub struct Standard;

/// The standard ABI's value of MPICH-ABI handle `h` of kind `kind` (as an address).
fn std_handle(kind: Kind, h: usize) -> usize {
    match kind {
        Kind::Comm => v::comm_out(h as c_int) as usize,
        Kind::Win => v::win_out(h as c_int) as usize,
        Kind::Session => v::session_out(h as c_int) as usize,
        Kind::Datatype => v::datatype_out(h as c_int) as usize,
        Kind::File => cv::file_out(std::ptr::without_provenance_mut(h)) as usize,
    }
}

impl Convention for Standard {
    unsafe fn errhandler(f: usize, kind: Kind, h: usize, code: c_int) -> c_int {
        let g: unsafe extern "C" fn(*mut usize, *mut c_int, ...) = std::mem::transmute(f);
        let mut s = std_handle(kind, h);
        let mut e = v::code_out(code);
        g(&mut s, &mut e);
        v::code_in(e)
    }

    unsafe fn user_op(
        f: usize,
        large: bool,
        a: *mut c_void,
        b: *mut c_void,
        len: i64,
        dt: m::MPI_Datatype,
    ) {
        let mut d = v::datatype_out(dt) as usize;
        call_user_op(f, large, a, b, len, std::ptr::addr_of_mut!(d).cast());
    }

    unsafe fn attr_copy(
        f: usize,
        kind: Kind,
        h: c_int,
        keyval: c_int,
        extra: *mut c_void,
        value: *mut c_void,
        out: *mut c_void,
        flag: *mut c_int,
    ) -> c_int {
        // MPI_COMM_DUP_FN and friends are railmpi's own, of the MPICH ABI's type.
        if f == m::MPIR_Dup_fn as *const () as usize {
            return m::MPIR_Dup_fn(h, keyval, extra, value, out, flag);
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

    unsafe fn attr_delete(
        f: usize,
        kind: Kind,
        h: c_int,
        keyval: c_int,
        value: *mut c_void,
        extra: *mut c_void,
    ) -> c_int {
        let g: unsafe extern "C" fn(usize, c_int, *mut c_void, *mut c_void) -> c_int =
            std::mem::transmute(f);
        v::code_in(g(std_handle(kind, h as usize), keyval, value, extra))
    }

    unsafe fn grequest_query(
        f: unsafe extern "C" fn(*mut c_void, *mut m::MPI_Status) -> c_int,
        extra: *mut c_void,
        st: &mut m::MPI_Status,
    ) -> c_int {
        let g: unsafe extern "C" fn(*mut c_void, *mut sa::MPI_Status) -> c_int =
            std::mem::transmute(f);
        let mut s = sa::MPI_Status::default();
        cv::status_back(&mut s, st);
        let rc = g(extra, &mut s);
        *st = cv::status_in(&s);
        v::code_in(rc)
    }

    fn grequest_code(rc: c_int) -> c_int {
        v::code_in(rc)
    }
}
