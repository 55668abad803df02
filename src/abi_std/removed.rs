//! The MPI-1 procedures MPI-3.0 removed, under the standard ABI: not in `mpi_abi.h` (nor in
//! MPICH 5's), but MPICH 5's libmpi_abi.so.1 exports them, and old programs built with its
//! `mpicc_abi` call them (implicitly declared; MPICH's own test suite does, e.g.
//! MPI_Errhandler_set in coll/opsum). Each is its replacement's entry point, whose
//! arguments it shares (or a part of its outputs).

#![allow(clippy::missing_safety_doc)]

use super::entry_points as e;
use super::types::*;
use std::os::raw::{c_int, c_void};

#[no_mangle]
pub unsafe extern "C" fn PMPI_Address(location: *mut c_void, address: *mut MPI_Aint) -> c_int {
    e::PMPI_Get_address(location, address)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Errhandler_create(
    function: MPI_Comm_errhandler_function,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    e::PMPI_Comm_create_errhandler(function, errhandler)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Errhandler_set(comm: MPI_Comm, errhandler: MPI_Errhandler) -> c_int {
    e::PMPI_Comm_set_errhandler(comm, errhandler)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Errhandler_get(
    comm: MPI_Comm,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    e::PMPI_Comm_get_errhandler(comm, errhandler)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_hvector(
    count: c_int,
    blocklength: c_int,
    stride: MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    e::PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_hindexed(
    count: c_int,
    array_of_blocklengths: *mut c_int,
    array_of_displacements: *mut MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    e::PMPI_Type_create_hindexed(
        count,
        array_of_blocklengths,
        array_of_displacements,
        oldtype,
        newtype,
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_struct(
    count: c_int,
    array_of_blocklengths: *mut c_int,
    array_of_displacements: *mut MPI_Aint,
    array_of_types: *mut MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> c_int {
    e::PMPI_Type_create_struct(
        count,
        array_of_blocklengths,
        array_of_displacements,
        array_of_types,
        newtype,
    )
}

/// The extent, lower and upper bound: MPI_Type_get_extent's (`which` picks).
unsafe fn bound(
    datatype: MPI_Datatype,
    out: *mut MPI_Aint,
    which: fn(MPI_Aint, MPI_Aint) -> MPI_Aint,
) -> c_int {
    if out.is_null() {
        // What the replacement says of a NULL output.
        return e::PMPI_Type_get_extent(datatype, out, out);
    }
    let (mut lb, mut extent) = (0, 0);
    let rc = e::PMPI_Type_get_extent(datatype, &mut lb, &mut extent);
    if rc == super::values::MPI_SUCCESS {
        *out = which(lb, extent);
    }
    rc
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_extent(datatype: MPI_Datatype, extent: *mut MPI_Aint) -> c_int {
    bound(datatype, extent, |_, x| x)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_lb(
    datatype: MPI_Datatype,
    displacement: *mut MPI_Aint,
) -> c_int {
    bound(datatype, displacement, |lb, _| lb)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Type_ub(
    datatype: MPI_Datatype,
    displacement: *mut MPI_Aint,
) -> c_int {
    bound(datatype, displacement, |lb, x| lb + x)
}
