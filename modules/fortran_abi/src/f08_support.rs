//! What the `mpi_f08` module over the standard ABI (include/abi/mpi_f08.f90) needs besides
//! the `use mpi` entry points: its special variables, MPI_ERR_BUFFER for a noncontiguous
//! section, MPI_Buffer_detach's TYPE(C_PTR) form, MPI_F_sync_reg and the status copies;
//! handle comparisons and descriptors are `f08_common.rs`'s (shared with libmpi.so.12).
#![allow(non_upper_case_globals)]

pub use crate::f08_common::*;
use crate::generated::abi::*;
use crate::generated::{PMPI_Comm_fromint, PMPI_File_fromint, PMPI_Win_fromint};
use crate::support::set_ierror;
use crate::types::*;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::OnceLock;

const STATUS_SIZE: usize = MPI_F_STATUS_SIZE as usize;

// The module declares its special variables BIND(C) with these names and has no object
// code: these are their storage, recognised by address (support.rs).
#[no_mangle]
pub static mut rmpiabi_f08_bottom: MPI_Fint = 0;
#[no_mangle]
pub static mut rmpiabi_f08_in_place: MPI_Fint = 0;
#[no_mangle]
pub static mut rmpiabi_f08_status_ignore: [MPI_Fint; STATUS_SIZE] = [0; STATUS_SIZE];
#[no_mangle]
pub static mut rmpiabi_f08_statuses_ignore: [MPI_Fint; STATUS_SIZE] = [0; STATUS_SIZE];
#[no_mangle]
pub static mut rmpiabi_f08_errcodes_ignore: [MPI_Fint; 1] = [0; 1];
#[no_mangle]
pub static mut rmpiabi_f08_unweighted: [MPI_Fint; 1] = [0; 1];
#[no_mangle]
pub static mut rmpiabi_f08_weights_empty: [MPI_Fint; 1] = [0; 1];
#[no_mangle]
pub static mut rmpiabi_f08_argv_null: [u8; 1] = [0; 1];

/// Where a call's argument error is raised (Fortran handles).
pub enum F08Err {
    Comm(MPI_Fint),
    Win(MPI_Fint),
    File(MPI_Fint),
    World,
}

extern "C" {
    fn PMPI_Add_error_code(errorclass: c_int, errorcode: *mut c_int) -> c_int;
    fn PMPI_Add_error_string(errorcode: c_int, string: *const c_char) -> c_int;
    fn PMPI_Comm_call_errhandler(comm: MPI_Comm, errorcode: c_int) -> c_int;
    fn PMPI_Win_call_errhandler(win: MPI_Win, errorcode: c_int) -> c_int;
    fn PMPI_File_call_errhandler(file: MPI_File, errorcode: c_int) -> c_int;
    fn PMPI_Buffer_detach(buffer_addr: *mut c_void, size: *mut c_int) -> c_int;
}

/// The error code of a noncontiguous section: of class MPI_ERR_BUFFER, with a string that
/// says why (added once; MPI_ERR_BUFFER itself if the library refuses).
fn noncontiguous_code() -> c_int {
    static CODE: OnceLock<c_int> = OnceLock::new();
    *CODE.get_or_init(|| {
        let mut code = MPI_ERR_BUFFER;
        // SAFETY: valid out-pointer and NUL-terminated string; MPI is initialised (a
        // choice-buffer call is under way).
        unsafe {
            if PMPI_Add_error_code(MPI_ERR_BUFFER, &mut code) != MPI_SUCCESS {
                return MPI_ERR_BUFFER;
            }
            PMPI_Add_error_string(
                code,
                c"a noncontiguous array section as the buffer of a call that uses it after it \
                  returns (mpi_f08: MPI_SUBARRAYS_SUPPORTED is .false.; describe strided data \
                  with a derived datatype)"
                    .as_ptr(),
            );
        }
        code
    })
}

/// A noncontiguous array section passed as the choice buffer of a call that uses it after
/// it returns: MPI_ERR_BUFFER through the call's error handler, in `ierror` otherwise.
/// Nothing else of the call happens. (`_func`: the call, which the C ABI gives no way to
/// name in the error.)
///
/// # Safety
/// `ierror` is NULL or valid for writing.
pub unsafe fn f08_noncontiguous(_func: &'static str, on: F08Err, ierror: *mut MPI_Fint) {
    let code = noncontiguous_code();
    match on {
        F08Err::Comm(c) => PMPI_Comm_call_errhandler(PMPI_Comm_fromint(c), code),
        F08Err::Win(w) => PMPI_Win_call_errhandler(PMPI_Win_fromint(w), code),
        F08Err::File(f) => PMPI_File_call_errhandler(PMPI_File_fromint(f), code),
        F08Err::World => PMPI_Comm_call_errhandler(PMPI_Comm_fromint(MPI_COMM_WORLD), code),
    };
    set_ierror(ierror, code);
}

macro_rules! f08_procedures {
    ($($detach:ident $sync:ident;)*) => {$(
        /// `MPI_Buffer_detach(buffer_addr, size, ierror)` of mpi_f08: TYPE(C_PTR) buffer_addr.
        ///
        /// # Safety
        /// `buffer_addr` and `size` are valid for writing, `ierror` is NULL or valid.
        #[no_mangle]
        pub unsafe extern "C" fn $detach(
            buffer_addr: *mut *mut c_void,
            size: *mut MPI_Fint,
            ierror: *mut MPI_Fint,
        ) {
            set_ierror(ierror, PMPI_Buffer_detach(buffer_addr as *mut c_void, size));
        }

        /// `MPI_F_sync_reg(buf)`: does nothing; that the compiler must assume it reads and
        /// writes `buf` is its purpose.
        #[no_mangle]
        pub extern "C" fn $sync(_buf: *const CfiDesc) {}
    )*};
}

f08_procedures! {
    MPI_Buffer_detach_f08 MPI_F_sync_reg_f08ts;
    PMPI_Buffer_detach_f08 PMPI_F_sync_reg_f08ts;
}

macro_rules! f_status_conversions {
    ($($name:ident)*) => {$(
        /// `MPI_STATUS_F2F08(F_STATUS, F08_STATUS, IERROR)` or `..._F082F`: one layout.
        ///
        /// # Safety
        /// Both statuses valid; `ierror` is NULL or valid.
        #[no_mangle]
        pub unsafe extern "C" fn $name(from: *const MPI_Fint, to: *mut MPI_Fint, ierror: *mut MPI_Fint) {
            std::ptr::copy(from, to, STATUS_SIZE);
            set_ierror(ierror, MPI_SUCCESS);
        }
    )*};
}

f_status_conversions! { mpi_status_f2f08_ pmpi_status_f2f08_ mpi_status_f082f_ pmpi_status_f082f_ }
