//! Datatype shims (this issue: predefined types, contiguous types, queries).

use super::consts::*;
use super::handles;
use super::shim::{put, put_str, run};
use crate::datatype::{Datatype, TypeError};
use crate::error::{Error, ErrorClass};
use crate::mpi_err;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_size(datatype: MPI_Datatype, size: *mut c_int) -> c_int {
    run("MPI_Type_size", MPI_COMM_WORLD, || {
        let t = handles::any_datatype(datatype)?;
        put(size, i32::try_from(t.size).unwrap_or(MPI_UNDEFINED))
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_size_x(datatype: MPI_Datatype, size: *mut MPI_Count) -> c_int {
    run("MPI_Type_size_x", MPI_COMM_WORLD, || {
        put(size, handles::any_datatype(datatype)?.size as MPI_Count)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_get_extent(
    datatype: MPI_Datatype,
    lb: *mut MPI_Aint,
    extent: *mut MPI_Aint,
) -> c_int {
    run("MPI_Type_get_extent", MPI_COMM_WORLD, || {
        let t = handles::any_datatype(datatype)?;
        put(lb, t.lb as MPI_Aint)?;
        put(extent, t.extent as MPI_Aint)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_get_true_extent(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Aint,
    true_extent: *mut MPI_Aint,
) -> c_int {
    run("MPI_Type_get_true_extent", MPI_COMM_WORLD, || {
        let t = handles::any_datatype(datatype)?;
        put(true_lb, t.true_lb as MPI_Aint)?;
        put(true_extent, t.true_extent as MPI_Aint)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_get_name(
    datatype: MPI_Datatype,
    type_name: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    run("MPI_Type_get_name", MPI_COMM_WORLD, || {
        let t = handles::any_datatype(datatype)?;
        put_str(&t.name, type_name, MPI_MAX_OBJECT_NAME as usize, resultlen)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_set_name(
    datatype: MPI_Datatype,
    type_name: *const c_char,
) -> c_int {
    run("MPI_Type_set_name", MPI_COMM_WORLD, || {
        if type_name.is_null() {
            return mpi_err!(Arg, "NULL name");
        }
        let name = CStr::from_ptr(type_name).to_string_lossy().into_owned();
        handles::update_datatype(datatype, |d| d.name = name)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Get_address(
    location: *const c_void,
    address: *mut MPI_Aint,
) -> c_int {
    run("MPI_Get_address", MPI_COMM_WORLD, || {
        put(address, location as MPI_Aint)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_contiguous(
    count: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    run("MPI_Type_contiguous", MPI_COMM_WORLD, || {
        let old = handles::any_datatype(oldtype)?;
        let t = Datatype::contiguous(count as i64, &old).map_err(|e| match e {
            TypeError::InvalidCount => {
                Error::new(ErrorClass::Count, format!("negative count {count}"))
            }
            TypeError::Overflow => Error::new(ErrorClass::Count, "type too large"),
        })?;
        put(newtype, handles::new_datatype(t))
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_commit(datatype: *mut MPI_Datatype) -> c_int {
    run("MPI_Type_commit", MPI_COMM_WORLD, || {
        if datatype.is_null() {
            return mpi_err!(Arg, "NULL datatype pointer");
        }
        handles::update_datatype(*datatype, |d| d.committed = true)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_free(datatype: *mut MPI_Datatype) -> c_int {
    run("MPI_Type_free", MPI_COMM_WORLD, || {
        if datatype.is_null() {
            return mpi_err!(Arg, "NULL datatype pointer");
        }
        handles::free_datatype(*datatype)?;
        *datatype = MPI_DATATYPE_NULL;
        Ok(())
    })
}
