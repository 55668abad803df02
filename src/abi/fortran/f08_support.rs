//! What the `mpi_f08` module (include/mpi_f08.f90, written by tools/gen_f08.py) needs from
//! libmpi besides the `use mpi` entry points: its special variables, MPI_ERR_BUFFER for a
//! noncontiguous section, and MPI_Buffer_detach's TYPE(C_PTR) form; the handle comparisons
//! and descriptors of choice buffers are `f08_common.rs`'s. Each `PMPI_X` here gets its `MPI_X` alias from
//! build.rs.
#![allow(non_upper_case_globals)]

pub use super::f08_common::*;
use super::support::set_ierror;
use crate::abi::consts::*;
use crate::abi::errors;
use crate::error::{Error, ErrorClass};
use std::os::raw::{c_int, c_void};

// ---------------------------------------------------------------------------------------
// Special variables: the module declares them BIND(C) with these names and builds no object
// code, so these are their storage. support::addrs() looks their bound addresses up (an
// executable may hold copies) and f_buf, f_status, ... recognise them.
// ---------------------------------------------------------------------------------------

#[no_mangle]
pub static mut railmpi_f08_bottom: MPI_Fint = 0;
#[no_mangle]
pub static mut railmpi_f08_in_place: MPI_Fint = 0;
/// TYPE(MPI_Status): MPI_STATUS_SIZE integers.
#[no_mangle]
pub static mut railmpi_f08_status_ignore: [MPI_Fint; 5] = [0; 5];
#[no_mangle]
pub static mut railmpi_f08_statuses_ignore: [MPI_Fint; 5] = [0; 5];
#[no_mangle]
pub static mut railmpi_f08_errcodes_ignore: [MPI_Fint; 1] = [0; 1];
#[no_mangle]
pub static mut railmpi_f08_unweighted: [MPI_Fint; 1] = [0; 1];
#[no_mangle]
pub static mut railmpi_f08_weights_empty: [MPI_Fint; 1] = [0; 1];
#[no_mangle]
pub static mut railmpi_f08_argv_null: [u8; 1] = [0; 1];

/// Where a call's argument error is raised.
pub enum F08Err {
    Comm(MPI_Comm),
    Win(MPI_Win),
    /// A file's Fortran handle.
    File(MPI_Fint),
    World,
}

extern "C" {
    fn PMPI_Buffer_detach(buffer_addr: *mut c_void, size: *mut c_int) -> c_int;
}

/// A noncontiguous array section passed as the choice buffer of `func`, which uses it after
/// it returns (nonblocking, persistent, one-sided, attached): MPI_ERR_BUFFER through
/// the call's error handler (the fatal one says why), in `ierror` otherwise. Nothing else of
/// the call happens.
///
/// # Safety
/// `ierror` is NULL or valid for writing.
pub unsafe fn f08_noncontiguous(func: &'static str, on: F08Err, ierror: *mut MPI_Fint) {
    let err = || {
        Error::new(
            ErrorClass::Buffer,
            "a noncontiguous array section as the buffer of a call that uses it after it \
             returns (mpi_f08: MPI_SUBARRAYS_SUPPORTED is .false.; describe strided data \
             with a derived datatype)",
        )
    };
    let rc = match on {
        F08Err::Comm(c) => errors::raise(func, c, err()),
        F08Err::Win(w) => errors::raise_win(func, w, err()),
        F08Err::File(fh) => raise_on_file(func, fh, err()),
        F08Err::World => errors::raise(func, MPI_COMM_WORLD, err()),
    };
    set_ierror(ierror, rc);
}

/// An error of a call on file `fh` (a Fortran handle), through the file's error handler.
fn raise_on_file(func: &'static str, fh: MPI_Fint, err: Error) -> c_int {
    errors::raise_file(func, crate::abi::file::PMPI_File_f2c(fh), err)
}

/// `MPI_Buffer_detach(buffer_addr, size, ierror)` of mpi_f08: TYPE(C_PTR) buffer_addr.
///
/// # Safety
/// `buffer_addr` and `size` are valid for writing, `ierror` is NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn PMPI_Buffer_detach_f08(
    buffer_addr: *mut *mut c_void,
    size: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    let rc = PMPI_Buffer_detach(buffer_addr as *mut c_void, size);
    set_ierror(ierror, rc);
}

// Procedures of Fortran's own (tools/gen_f08.py: fortran_only).

/// `MPI_Sizeof(x, size, ierror)`: the size in bytes of one element of `x`, whatever its
/// type and rank (the descriptor says).
///
/// # Safety
/// `x` is the descriptor gfortran passed, `size` valid, `ierror` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn PMPI_Sizeof_f08ts(
    x: *const CfiDesc,
    size: *mut MPI_Fint,
    ierror: *mut MPI_Fint,
) {
    *size = (*x).elem_len as MPI_Fint;
    set_ierror(ierror, MPI_SUCCESS);
}

/// `MPI_F_sync_reg(buf)`: does nothing; that the compiler must assume it reads and writes
/// `buf` is its purpose (MPI-3.1 section 17.1.8).
#[no_mangle]
pub extern "C" fn PMPI_F_sync_reg_f08ts(_buf: *const CfiDesc) {}

/// Copies a status between its INTEGER(MPI_STATUS_SIZE) and TYPE(MPI_Status) forms, which
/// have one layout.
///
/// # Safety
/// `from` and `to` hold MPI_STATUS_SIZE INTEGERs; `ierror` is NULL or valid.
unsafe fn copy_status(from: *const MPI_Fint, to: *mut MPI_Fint, ierror: *mut MPI_Fint) {
    std::ptr::copy(from, to, std::mem::size_of::<MPI_Status>() / 4);
    set_ierror(ierror, MPI_SUCCESS);
}

macro_rules! f_status_conversions {
    ($($name:ident;)*) => {$(
        /// `MPI_STATUS_F2F08(F_STATUS, F08_STATUS, IERROR)` or `..._F082F`, for `use mpi`
        /// and `use mpi_f08` (gfortran's external name).
        ///
        /// # Safety
        /// Both statuses valid; `ierror` is NULL or valid.
        #[no_mangle]
        pub unsafe extern "C" fn $name(from: *const MPI_Fint, to: *mut MPI_Fint, ierror: *mut MPI_Fint) {
            copy_status(from, to, ierror)
        }
    )*};
}

f_status_conversions! {
    mpi_status_f2f08_;
    pmpi_status_f2f08_;
    mpi_status_f082f_;
    pmpi_status_f082f_;
}
