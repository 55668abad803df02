//! The standard ABI's entry points written by hand: the ABI's own calls
//! (MPI_Abi_get_version, MPI_Abi_get_info), attribute values whose meaning differs between
//! the ABIs, MPI_Pcontrol (variadic in C), and the handle conversions to and from `int`
//! (MPI-5.0 §20.3.4) and Fortran.

#![allow(clippy::missing_safety_doc)]

use super::convert as cv;
use super::types::*;
use super::values as v;
use crate::abi::consts as m;
use std::os::raw::{c_int, c_void};
use std::sync::atomic::{AtomicI32, Ordering};

#[no_mangle]
pub unsafe extern "C" fn PMPI_Abi_get_version(
    abi_major: *mut c_int,
    abi_minor: *mut c_int,
) -> c_int {
    if abi_major.is_null() || abi_minor.is_null() {
        return v::MPI_ERR_ARG;
    }
    *abi_major = v::MPI_ABI_VERSION;
    *abi_minor = v::MPI_ABI_SUBVERSION;
    v::MPI_SUCCESS
}

/// A new info object with the sizes of the ABI's integer types.
#[no_mangle]
pub unsafe extern "C" fn PMPI_Abi_get_info(info: *mut MPI_Info) -> c_int {
    if info.is_null() {
        return v::MPI_ERR_ARG;
    }
    let h = crate::abi::handles::new_info(
        [
            ("mpi_aint_size", size_of::<MPI_Aint>()),
            ("mpi_count_size", size_of::<MPI_Count>()),
            ("mpi_offset_size", size_of::<MPI_Offset>()),
        ]
        .iter()
        .map(|(k, n)| (k.to_string(), n.to_string()))
        .collect(),
    );
    *info = v::info_out(h);
    v::MPI_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Pcontrol(level: c_int) -> c_int {
    v::code_out(crate::abi::env::PMPI_Pcontrol(level))
}

/// Predefined attributes whose values mean something else in the standard ABI: a rank
/// (MPI_HOST, MPI_IO), an error code, a window's flavor or memory model. The value is
/// handed out as a pointer to an int that lives as long as the process, as MPICH's are:
/// one cell per attribute, and per value for the window's (each window has its own).
static HOST: AtomicI32 = AtomicI32::new(0);
static IO: AtomicI32 = AtomicI32::new(0);
static LASTUSEDCODE: AtomicI32 = AtomicI32::new(0);
static FLAVORS: [AtomicI32; 4] = [
    AtomicI32::new(v::MPI_WIN_FLAVOR_CREATE),
    AtomicI32::new(v::MPI_WIN_FLAVOR_ALLOCATE),
    AtomicI32::new(v::MPI_WIN_FLAVOR_DYNAMIC),
    AtomicI32::new(v::MPI_WIN_FLAVOR_SHARED),
];
static MODELS: [AtomicI32; 2] = [
    AtomicI32::new(v::MPI_WIN_UNIFIED),
    AtomicI32::new(v::MPI_WIN_SEPARATE),
];

/// Point a predefined attribute's value at its standard-ABI form.
///
/// # Safety
/// `attribute_val` and `flag` are what the MPICH call filled in.
unsafe fn attr_value(keyval: c_int, attribute_val: *mut c_void, flag: *mut c_int) {
    if flag.is_null() || *flag == 0 || attribute_val.is_null() {
        return;
    }
    if !matches!(
        keyval,
        v::MPI_HOST | v::MPI_IO | v::MPI_LASTUSEDCODE | v::MPI_WIN_CREATE_FLAVOR | v::MPI_WIN_MODEL
    ) {
        return; // a value the same in both ABIs (or a pointer: MPI_WIN_BASE)
    }
    let at = attribute_val.cast::<*mut c_int>();
    let theirs = **at;
    let cell = match keyval {
        v::MPI_HOST => Some((&HOST, cv::rank_out(theirs))),
        v::MPI_IO => Some((&IO, cv::rank_out(theirs))),
        v::MPI_LASTUSEDCODE => Some((&LASTUSEDCODE, v::code_out(theirs))),
        v::MPI_WIN_CREATE_FLAVOR => {
            let f = v::flavor_out(theirs);
            FLAVORS
                .iter()
                .find(|c| c.load(Ordering::Relaxed) == f)
                .map(|c| (c, f))
        }
        v::MPI_WIN_MODEL => {
            let f = v::model_out(theirs);
            MODELS
                .iter()
                .find(|c| c.load(Ordering::Relaxed) == f)
                .map(|c| (c, f))
        }
        _ => None,
    };
    if let Some((cell, value)) = cell {
        cell.store(value, Ordering::Relaxed);
        *at = cell.as_ptr();
    }
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_get_attr(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let rc = crate::abi::entry_points::PMPI_Comm_get_attr(
        v::comm_in(comm),
        v::keyval_in(comm_keyval),
        attribute_val,
        flag,
    );
    if rc == m::MPI_SUCCESS {
        attr_value(comm_keyval, attribute_val, flag);
    }
    v::code_out(rc)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Attr_get(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    PMPI_Comm_get_attr(comm, keyval, attribute_val, flag)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Win_get_attr(
    win: MPI_Win,
    win_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let rc = crate::abi::entry_points::PMPI_Win_get_attr(
        v::win_in(win),
        v::keyval_in(win_keyval),
        attribute_val,
        flag,
    );
    if rc == m::MPI_SUCCESS {
        attr_value(win_keyval, attribute_val, flag);
    }
    v::code_out(rc)
}

/// MPI_Status_c2f and MPI_Status_f2c: the standard ABI's Fortran status is its C status,
/// int for int (MPI_F_STATUS_SIZE 8, MPI_F_SOURCE 0, MPI_F_TAG 1, MPI_F_ERROR 2).
#[no_mangle]
pub unsafe extern "C" fn PMPI_Status_c2f(
    c_status: *const MPI_Status,
    f_status: *mut MPI_Fint,
) -> c_int {
    if c_status.is_null() || f_status.is_null() {
        return v::MPI_ERR_ARG;
    }
    std::ptr::copy_nonoverlapping(c_status.cast::<MPI_Fint>(), f_status, 8);
    v::MPI_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Status_f2c(
    f_status: *const MPI_Fint,
    c_status: *mut MPI_Status,
) -> c_int {
    if c_status.is_null() || f_status.is_null() {
        return v::MPI_ERR_ARG;
    }
    std::ptr::copy_nonoverlapping(f_status, c_status.cast::<MPI_Fint>(), 8);
    v::MPI_SUCCESS
}

/// MPI_X_toint, _fromint, _c2f and _f2c: a handle's value is its int (the predefined
/// handles' small values, railmpi's own their MPICH values, all below 2^32), so the
/// conversions keep the bits. (MPI_File's below.)
macro_rules! int_conversions {
    ($($ty:ident $toint:ident $fromint:ident $c2f:ident $f2c:ident),* $(,)?) => {
        $(
            #[no_mangle]
            pub extern "C" fn $toint(h: $ty) -> c_int {
                h as usize as c_int
            }
            #[no_mangle]
            pub extern "C" fn $fromint(i: c_int) -> $ty {
                cv::handle(i as u32 as usize)
            }
            #[no_mangle]
            pub extern "C" fn $c2f(h: $ty) -> MPI_Fint {
                h as usize as MPI_Fint
            }
            #[no_mangle]
            pub extern "C" fn $f2c(i: MPI_Fint) -> $ty {
                cv::handle(i as u32 as usize)
            }
        )*
    };
}

int_conversions! {
    MPI_Comm PMPI_Comm_toint PMPI_Comm_fromint PMPI_Comm_c2f PMPI_Comm_f2c,
    MPI_Datatype PMPI_Type_toint PMPI_Type_fromint PMPI_Type_c2f PMPI_Type_f2c,
    MPI_Group PMPI_Group_toint PMPI_Group_fromint PMPI_Group_c2f PMPI_Group_f2c,
    MPI_Info PMPI_Info_toint PMPI_Info_fromint PMPI_Info_c2f PMPI_Info_f2c,
    MPI_Request PMPI_Request_toint PMPI_Request_fromint PMPI_Request_c2f PMPI_Request_f2c,
    MPI_Op PMPI_Op_toint PMPI_Op_fromint PMPI_Op_c2f PMPI_Op_f2c,
    MPI_Errhandler PMPI_Errhandler_toint PMPI_Errhandler_fromint PMPI_Errhandler_c2f PMPI_Errhandler_f2c,
    MPI_Win PMPI_Win_toint PMPI_Win_fromint PMPI_Win_c2f PMPI_Win_f2c,
    MPI_Message PMPI_Message_toint PMPI_Message_fromint PMPI_Message_c2f PMPI_Message_f2c,
    MPI_Session PMPI_Session_toint PMPI_Session_fromint PMPI_Session_c2f PMPI_Session_f2c,
}

/// MPI_File_toint and kin: railmpi's file handles are wider than an int (a tag above the
/// table slot), so the int is the slot past the predefined handles' range (0x400 + slot + 1;
/// MPI_FILE_NULL stays 0x118), and back.
fn file_int(h: MPI_File) -> c_int {
    match crate::abi::handles::file_slot(cv::file_in(h)) {
        Some(slot) => (0x401 + slot) as c_int,
        None => h as usize as c_int, // MPI_FILE_NULL, or not a file: as it is
    }
}

fn file_of_int(i: c_int) -> MPI_File {
    match i {
        0x401.. => cv::file_out(crate::abi::handles::file_handle(i as usize - 0x401)),
        _ => cv::handle(i as u32 as usize),
    }
}

#[no_mangle]
pub extern "C" fn PMPI_File_toint(h: MPI_File) -> c_int {
    file_int(h)
}

#[no_mangle]
pub extern "C" fn PMPI_File_fromint(i: c_int) -> MPI_File {
    file_of_int(i)
}

#[no_mangle]
pub extern "C" fn PMPI_File_c2f(h: MPI_File) -> MPI_Fint {
    file_int(h)
}

#[no_mangle]
pub extern "C" fn PMPI_File_f2c(i: MPI_Fint) -> MPI_File {
    file_of_int(i)
}
