//! The MPICH ABI, as Rust: handle types, `MPI_Status`, callback types and every predefined
//! constant a C program can name, with the values of MPICH 4.0 (`libmpi.so.12`), so binaries
//! built with MPICH's `mpicc` run on railmpi unchanged.
//!
//! The integer and handle constants are a data table, `tools/mpich_abi.txt`, which
//! `tools/gen_c.py` turns into `consts/generated.rs` (re-exported here; `make c-gen` rewrites
//! it, a `make test` case fails when it is stale): change a value there, not here. The
//! callback types come from the standard's API the same way (`consts/callback_types.rs`,
//! Rust's side of `callbacks.h`). This file has what is neither: the types, `MPI_Status`,
//! the pointer-valued constants and `MPIR_Dup_fn`.
//!
//! `build.rs` runs cbindgen over `src/abi/` and turns these definitions into `include/mpi.h`
//! (see `cbindgen.toml`). Rules, so the header stays right:
//! - Integer constants are `pub const NAME: TYPE = VALUE;`. Handle constants are written as
//!   `0x... as MPI_Handle` so the header shows `((MPI_Handle)0x...)` as MPICH's does; values
//!   above `i32::MAX` are written `0x8c00_0000_u32 as MPI_Datatype` (rustc wraps, C converts
//!   the unsigned literal the same way). The generator writes them so.
//! - What cbindgen cannot express (pointer-valued constants, C function *types*, exported
//!   data symbols) is marked `cbindgen:ignore` here and written by hand in `cbindgen.toml`
//!   (pointer constants) and `build.rs` (callback typedefs, `extern` data).
//! - Callback types are Rust *pointer* types (`Option<unsafe extern "C" fn ..>`); in C they
//!   are function types, as in MPICH. Shims take them by value (`user_fn: MPI_User_function`),
//!   which cbindgen prints as `MPI_User_function user_fn`: a parameter of function type is a
//!   function pointer in C, so the prototype is MPICH's.
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]

use std::os::raw::{c_int, c_long, c_void};

// ---------------------------------------------------------------------------------------
// Handle and scalar types.
// ---------------------------------------------------------------------------------------

/// Communicator handle.
pub type MPI_Comm = c_int;
/// Group handle.
pub type MPI_Group = c_int;
/// Datatype handle. For builtin types, bits 8..16 hold the size in bytes.
pub type MPI_Datatype = c_int;
/// Reduction operation handle.
pub type MPI_Op = c_int;
/// Error handler handle.
pub type MPI_Errhandler = c_int;
/// Request handle.
pub type MPI_Request = c_int;
/// RMA window handle.
pub type MPI_Win = c_int;
/// Info object handle.
pub type MPI_Info = c_int;
/// Matched-probe message handle.
pub type MPI_Message = c_int;
/// Session handle (MPI-4; kept because MPICH's header has it).
pub type MPI_Session = c_int;

/// The object an `MPI_File` points to in MPICH (opaque: railmpi's handles encode a table
/// slot, see `handles::file_handle`).
pub struct ADIOI_FileD {
    _opaque: [u8; 0],
}
/// File handle: a pointer in MPICH (`struct ADIOI_FileD *`), not an integer.
pub type MPI_File = *mut ADIOI_FileD;

/// The objects MPI_T handles point to in MPICH (opaque: railmpi's handles encode a table
/// slot, see `abi::tool`).
pub struct MPIR_T_enum_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_cvar_handle_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_pvar_handle_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_pvar_session_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_event_registration_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_event_instance_s {
    _opaque: [u8; 0],
}
/// MPI_T handles: pointers in MPICH, as MPI_File.
pub type MPI_T_enum = *mut MPIR_T_enum_s;
pub type MPI_T_cvar_handle = *mut MPIR_T_cvar_handle_s;
pub type MPI_T_pvar_handle = *mut MPIR_T_pvar_handle_s;
pub type MPI_T_pvar_session = *mut MPIR_T_pvar_session_s;
pub type MPI_T_event_registration = *mut MPIR_T_event_registration_s;
pub type MPI_T_event_instance = *mut MPIR_T_event_instance_s;
/// C enums in MPICH's header (an enum is an int in the ABI).
pub type MPI_T_cb_safety = c_int;
pub type MPI_T_source_order = c_int;

/// Address-sized integer (`long` in MPICH on LP64).
pub type MPI_Aint = c_long;
/// File offset (`long` in MPICH on LP64).
pub type MPI_Offset = c_long;
/// Large count (`long` in MPICH on LP64).
pub type MPI_Count = c_long;
/// Fortran INTEGER as seen from C.
pub type MPI_Fint = c_int;

/// Status of a completed receive: MPICH's layout, five `int`s. The received size in bytes is
/// `count_lo` (unsigned) plus `(count_hi_and_cancelled >> 1) << 32`, 63 bits; bit 0 of `count_hi_and_cancelled`
/// is the cancelled flag.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MPI_Status {
    pub count_lo: c_int,
    pub count_hi_and_cancelled: c_int,
    pub MPI_SOURCE: c_int,
    pub MPI_TAG: c_int,
    pub MPI_ERROR: c_int,
}

// ---------------------------------------------------------------------------------------
// The integer and handle constants: generated from tools/mpich_abi.txt.
// ---------------------------------------------------------------------------------------

mod generated;
pub use self::generated::*;

/// The predefined "duplicate" attribute copy function (MPI_DUP_FN, MPI_COMM_DUP_FN,
/// MPI_TYPE_DUP_FN and MPI_WIN_DUP_FN all name it, as in MPICH): copies the attribute
/// value and sets `flag`.
///
/// # Safety
/// `attribute_val_out` must point to a `void *` and `flag` to an `int`, as MPI passes them.
#[no_mangle]
pub unsafe extern "C" fn MPIR_Dup_fn(
    oldcomm: MPI_Comm,
    keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (oldcomm, keyval, extra_state);
    // SAFETY: per the contract above.
    unsafe {
        *(attribute_val_out as *mut *mut c_void) = attribute_val_in;
        *flag = 1;
    }
    MPI_SUCCESS
}

pub use self::c_only::*;

/// Items the header gets from hand-written C (`cbindgen.toml`'s `after_includes`, and the
/// callback block in `build.rs`): cbindgen cannot print pointer constants, C function types
/// or `extern` data the way MPICH's header has them.
///
/// cbindgen:ignore
mod c_only {
    use super::*;
    use std::os::raw::c_char;

    // Callback types (C: function types; Rust: nullable function pointers), from the
    // standard's API.
    include!("consts/callback_types.rs");

    // -----------------------------------------------------------------------------------
    // Pointer-valued constants (MPICH's values).
    // -----------------------------------------------------------------------------------

    pub const MPI_BOTTOM: *mut c_void = std::ptr::null_mut();
    pub const MPI_IN_PLACE: *mut c_void = -1isize as *mut c_void;
    /// MPI-4.1's automatic buffer for buffered sends (MPICH 5's value).
    pub const MPI_BUFFER_AUTOMATIC: *mut c_void = -2isize as *mut c_void;
    // Address 1, as in MPICH (`ptr::dangling_mut` would give the alignment, 4).
    pub const MPI_STATUS_IGNORE: *mut MPI_Status = std::ptr::without_provenance_mut(1);
    pub const MPI_STATUSES_IGNORE: *mut MPI_Status = std::ptr::without_provenance_mut(1);
    pub const MPI_ERRCODES_IGNORE: *mut c_int = std::ptr::null_mut();
    pub const MPI_ARGV_NULL: *mut *mut c_char = std::ptr::null_mut();
    pub const MPI_ARGVS_NULL: *mut *mut *mut c_char = std::ptr::null_mut();
    pub const MPI_FILE_NULL: MPI_File = std::ptr::null_mut();
    pub const MPI_T_ENUM_NULL: MPI_T_enum = std::ptr::null_mut();
    pub const MPI_T_CVAR_HANDLE_NULL: MPI_T_cvar_handle = std::ptr::null_mut();
    pub const MPI_T_PVAR_HANDLE_NULL: MPI_T_pvar_handle = std::ptr::null_mut();
    pub const MPI_T_PVAR_SESSION_NULL: MPI_T_pvar_session = std::ptr::null_mut();

    pub const MPI_NULL_COPY_FN: MPI_Copy_function = None;
    pub const MPI_NULL_DELETE_FN: MPI_Delete_function = None;
    pub const MPI_DUP_FN: MPI_Copy_function = Some(MPIR_Dup_fn);
    pub const MPI_COMM_NULL_COPY_FN: MPI_Comm_copy_attr_function = None;
    pub const MPI_COMM_NULL_DELETE_FN: MPI_Comm_delete_attr_function = None;
    pub const MPI_COMM_DUP_FN: MPI_Comm_copy_attr_function = Some(MPIR_Dup_fn);
    pub const MPI_TYPE_NULL_COPY_FN: MPI_Type_copy_attr_function = None;
    pub const MPI_TYPE_NULL_DELETE_FN: MPI_Type_delete_attr_function = None;
    /// The C header casts MPIR_Dup_fn; in Rust the handle argument is an `int` either way.
    pub const MPI_TYPE_DUP_FN: MPI_Type_copy_attr_function = Some(MPIR_Dup_fn);
    pub const MPI_WIN_NULL_COPY_FN: MPI_Win_copy_attr_function = None;
    pub const MPI_WIN_NULL_DELETE_FN: MPI_Win_delete_attr_function = None;
    pub const MPI_WIN_DUP_FN: MPI_Win_copy_attr_function = Some(MPIR_Dup_fn);
    pub const MPI_CONVERSION_FN_NULL: MPI_Datarep_conversion_function = None;
    pub const MPI_CONVERSION_FN_NULL_C: MPI_Datarep_conversion_function_c = None;

    // -----------------------------------------------------------------------------------
    // Exported data symbols. MPICH's header declares these `extern`, so binaries built
    // against MPICH import them from libmpi.so.12 by name.
    // -----------------------------------------------------------------------------------

    /// A pointer that may sit in a `static` shared between threads (it is never written).
    #[repr(transparent)]
    pub struct SyncPtr<T>(pub *mut T);
    // SAFETY: the pointee is only compared by address, never accessed through these.
    unsafe impl<T> Sync for SyncPtr<T> {}

    static mut UNWEIGHTED_TARGET: c_int = 0;
    static mut PVAR_ALL_HANDLES_TARGET: u8 = 0;
    static mut WEIGHTS_EMPTY_TARGET: c_int = 0;
    static mut F_STATUS_IGNORE_TARGET: [MPI_Fint; 5] = [0; 5];
    static mut F_STATUSES_IGNORE_TARGET: [MPI_Fint; 5] = [0; 5];

    /// `struct MPIR_T_pvar_handle_s * const MPI_T_PVAR_ALL_HANDLES`: a unique address.
    #[no_mangle]
    pub static MPI_T_PVAR_ALL_HANDLES: SyncPtr<MPIR_T_pvar_handle_s> =
        SyncPtr(&raw mut PVAR_ALL_HANDLES_TARGET as *mut MPIR_T_pvar_handle_s);
    /// `int * const MPI_UNWEIGHTED`: a unique address, compared by value.
    #[no_mangle]
    pub static MPI_UNWEIGHTED: SyncPtr<c_int> = SyncPtr(&raw mut UNWEIGHTED_TARGET);
    /// `int * const MPI_WEIGHTS_EMPTY`: a unique address, compared by value.
    #[no_mangle]
    pub static MPI_WEIGHTS_EMPTY: SyncPtr<c_int> = SyncPtr(&raw mut WEIGHTS_EMPTY_TARGET);
    /// `MPI_Fint *MPI_F_STATUS_IGNORE` for MPI_Status_f2c / c2f.
    #[no_mangle]
    pub static MPI_F_STATUS_IGNORE: SyncPtr<MPI_Fint> =
        SyncPtr(&raw mut F_STATUS_IGNORE_TARGET as *mut MPI_Fint);
    /// `MPI_Fint *MPI_F_STATUSES_IGNORE`.
    #[no_mangle]
    pub static MPI_F_STATUSES_IGNORE: SyncPtr<MPI_Fint> =
        SyncPtr(&raw mut F_STATUSES_IGNORE_TARGET as *mut MPI_Fint);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn header_is_fresh() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/mpi.h"));
        let checked_in = include_str!("../../include/mpi.h");
        assert!(
            generated == checked_in,
            "include/mpi.h is stale: run `make header` (generated: {}/mpi.h)",
            env!("OUT_DIR")
        );
    }

    #[test]
    fn status_layout_is_mpich() {
        assert_eq!(size_of::<MPI_Status>(), 20);
        assert_eq!(offset_of!(MPI_Status, count_lo), 0);
        assert_eq!(offset_of!(MPI_Status, count_hi_and_cancelled), 4);
        assert_eq!(offset_of!(MPI_Status, MPI_SOURCE), 8);
        assert_eq!(offset_of!(MPI_Status, MPI_TAG), 12);
        assert_eq!(offset_of!(MPI_Status, MPI_ERROR), 16);
    }

    #[test]
    fn handles_above_i32_max_wrap_like_c() {
        assert_eq!(MPI_FLOAT_INT, -0x7400_0000);
        assert_eq!(MPI_LONG_DOUBLE_INT as u32, 0x8c00_0004);
        // Builtin datatypes carry their size in bits 8..16.
        assert_eq!((MPI_INT >> 8) & 0xff, 4);
        assert_eq!((MPI_DOUBLE_COMPLEX >> 8) & 0xff, 16);
    }

    #[test]
    fn dup_fn_copies_the_value() {
        let mut out: *mut std::os::raw::c_void = std::ptr::null_mut();
        let mut flag = 0;
        let val = 0x1234usize as *mut std::os::raw::c_void;
        let rc = unsafe {
            MPIR_Dup_fn(
                MPI_COMM_WORLD,
                0,
                std::ptr::null_mut(),
                val,
                &mut out as *mut _ as *mut _,
                &mut flag,
            )
        };
        assert_eq!((rc, out, flag), (MPI_SUCCESS, val, 1));
        assert!(MPI_COMM_DUP_FN.is_some() && MPI_COMM_NULL_COPY_FN.is_none());
        assert_eq!(MPI_STATUS_IGNORE as usize, 1);
        assert_eq!(MPI_IN_PLACE as isize, -1);
    }
}
