//! The C types of the MPI-5 standard ABI (`mpi_abi.h`) that the bindings pass.

use std::os::raw::{c_int, c_long, c_void};

macro_rules! handles {
    ($($t:ident $s:ident),* $(,)?) => {$(
        /// The incomplete struct the ABI's handle points to.
        #[repr(C)]
        pub struct $s {
            _opaque: [u8; 0],
        }
        pub type $t = *mut $s;
    )*};
}

handles! {
    MPI_Comm MPI_ABI_Comm, MPI_Datatype MPI_ABI_Datatype, MPI_Group MPI_ABI_Group,
    MPI_Info MPI_ABI_Info, MPI_Request MPI_ABI_Request, MPI_Op MPI_ABI_Op,
    MPI_Errhandler MPI_ABI_Errhandler, MPI_Win MPI_ABI_Win, MPI_Message MPI_ABI_Message,
    MPI_Session MPI_ABI_Session, MPI_File MPI_ABI_File,
}

pub type MPI_Fint = c_int;
pub type MPI_Aint = c_long;
pub type MPI_Offset = i64;
pub type MPI_Count = i64;

/// The ABI's status: a Fortran status (MPI_STATUS_SIZE INTEGERs) has this layout.
#[repr(C)]
pub struct MPI_Status {
    pub MPI_SOURCE: c_int,
    pub MPI_TAG: c_int,
    pub MPI_ERROR: c_int,
    pub MPI_internal: [c_int; 5],
}

// The callback types of the calls bound here. The error handlers' are variadic in C; the
// trampolines take the two arguments MPI passes (the System V calling convention lets a
// non-variadic callee receive a variadic call).
pub type MPI_User_function =
    Option<unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut MPI_Datatype)>;
pub type MPI_Comm_errhandler_function = Option<unsafe extern "C" fn(*mut MPI_Comm, *mut c_int)>;
pub type MPI_Win_errhandler_function = Option<unsafe extern "C" fn(*mut MPI_Win, *mut c_int)>;
pub type MPI_File_errhandler_function = Option<unsafe extern "C" fn(*mut MPI_File, *mut c_int)>;
pub type MPI_Session_errhandler_function =
    Option<unsafe extern "C" fn(*mut MPI_Session, *mut c_int)>;

macro_rules! keyval_fns {
    ($($copy:ident $delete:ident: $h:ty;)*) => {$(
        pub type $copy = Option<
            unsafe extern "C" fn($h, c_int, *mut c_void, *mut c_void, *mut c_void, *mut c_int)
                -> c_int,
        >;
        pub type $delete =
            Option<unsafe extern "C" fn($h, c_int, *mut c_void, *mut c_void) -> c_int>;
    )*};
}

keyval_fns! {
    MPI_Comm_copy_attr_function MPI_Comm_delete_attr_function: MPI_Comm;
    MPI_Type_copy_attr_function MPI_Type_delete_attr_function: MPI_Datatype;
    MPI_Win_copy_attr_function MPI_Win_delete_attr_function: MPI_Win;
    MPI_Copy_function MPI_Delete_function: MPI_Comm;
}

pub type MPI_Grequest_query_function =
    Option<unsafe extern "C" fn(*mut c_void, *mut MPI_Status) -> c_int>;
pub type MPI_Grequest_free_function = Option<unsafe extern "C" fn(*mut c_void) -> c_int>;
pub type MPI_Grequest_cancel_function = Option<unsafe extern "C" fn(*mut c_void, c_int) -> c_int>;
pub type MPI_Datarep_conversion_function = Option<
    unsafe extern "C" fn(
        *mut c_void,
        MPI_Datatype,
        c_int,
        *mut c_void,
        MPI_Offset,
        *mut c_void,
    ) -> c_int,
>;
pub type MPI_Datarep_extent_function =
    Option<unsafe extern "C" fn(MPI_Datatype, *mut MPI_Aint, *mut c_void) -> c_int>;
