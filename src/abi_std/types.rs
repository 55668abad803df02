//! The standard ABI's types (MPI-5.0 §20.3): handles are pointers to incomplete structs,
//! MPI_Status has its source, tag and error first. The integer types are those of the
//! MPICH ABI on LP64 (`intptr_t`, `int64_t`: `long` both).

#![allow(non_camel_case_types, non_snake_case)]

use std::os::raw::c_int;

pub use crate::abi::consts::{
    MPI_Aint, MPI_Count, MPI_Fint, MPI_Offset, MPI_T_cb_safety, MPI_T_cvar_handle, MPI_T_enum,
    MPI_T_event_instance, MPI_T_event_registration, MPI_T_pvar_handle, MPI_T_pvar_session,
    MPI_T_source_order,
};

macro_rules! handles {
    ($($ty:ident $s:ident),* $(,)?) => {
        $(
            /// The incomplete struct a handle points to (never dereferenced).
            pub struct $s {
                _opaque: [u8; 0],
            }
            pub type $ty = *mut $s;
        )*
    };
}

handles! {
    MPI_Comm MPI_ABI_Comm,
    MPI_Datatype MPI_ABI_Datatype,
    MPI_Group MPI_ABI_Group,
    MPI_Op MPI_ABI_Op,
    MPI_Info MPI_ABI_Info,
    MPI_Errhandler MPI_ABI_Errhandler,
    MPI_Request MPI_ABI_Request,
    MPI_Win MPI_ABI_Win,
    MPI_File MPI_ABI_File,
    MPI_Session MPI_ABI_Session,
    MPI_Message MPI_ABI_Message,
}

/// The standard's MPI_Status: `MPI_internal` holds the MPICH status's count words.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MPI_Status {
    pub MPI_SOURCE: c_int,
    pub MPI_TAG: c_int,
    pub MPI_ERROR: c_int,
    pub MPI_internal: [c_int; 5],
}

/// The application's callbacks: C function pointers whose signatures are the standard
/// ABI's; railmpi keeps their addresses and calls them through `abi::callbacks`, which
/// passes standard-ABI arguments.
pub type Callback = Option<unsafe extern "C" fn()>;
pub type MPI_User_function = Callback;
pub type MPI_User_function_c = Callback;
pub type MPI_Comm_errhandler_function = Callback;
pub type MPI_Win_errhandler_function = Callback;
pub type MPI_File_errhandler_function = Callback;
pub type MPI_Session_errhandler_function = Callback;
pub type MPI_Comm_copy_attr_function = Callback;
pub type MPI_Comm_delete_attr_function = Callback;
pub type MPI_Type_copy_attr_function = Callback;
pub type MPI_Type_delete_attr_function = Callback;
pub type MPI_Win_copy_attr_function = Callback;
pub type MPI_Win_delete_attr_function = Callback;
pub type MPI_Copy_function = Callback;
pub type MPI_Delete_function = Callback;
pub type MPI_Grequest_query_function = Callback;
pub type MPI_Grequest_free_function = Callback;
pub type MPI_Grequest_cancel_function = Callback;
pub type MPI_Datarep_conversion_function = Callback;
pub type MPI_Datarep_conversion_function_c = Callback;
pub type MPI_Datarep_extent_function = Callback;
pub type MPI_T_event_cb_function = Callback;
pub type MPI_T_event_free_cb_function = Callback;
pub type MPI_T_event_dropped_cb_function = Callback;

/// A handle of the standard ABI with value `v` (predefined handles are small integers).
pub const fn handle<T>(v: usize) -> *mut T {
    std::ptr::without_provenance_mut(v)
}

/// A handle railmpi made, as the standard ABI carries it: its MPICH value's bits (never
/// below 0x400, where the predefined handles are).
#[inline]
pub fn user_out(h: c_int) -> usize {
    h as u32 as usize
}

/// The MPICH handle a standard-ABI value names (0, which no MPICH handle is, for one that
/// cannot be: the call then reports the invalid handle).
#[inline]
pub fn user_in(v: usize) -> c_int {
    u32::try_from(v).map_or(0, |x| x as c_int)
}
