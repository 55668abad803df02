//! libmpifort_abi: `mpif.h`, `use mpi` and `use mpi_f08` over the MPI-5 standard ABI (MPI-5.0 §21.4).
//!
//! The standard ABI fixes C only. This library is a Fortran binding layered on it: every
//! entry point (`mpi_send_`, `pmpi_send_`, gfortran's naming) calls the ABI's C function
//! (`PMPI_Send`) of whatever `libmpi_abi.so.1` the program runs with (railmpi's or MPICH
//! 5's), turning Fortran INTEGER handles into C handles with MPI_X_fromint and back with
//! MPI_X_toint. Nothing here links railmpi's core.
//!
//! - `generated.rs`: the entry points, written by `tools/gen_fortran_abi.py` from the MPI
//!   Forum's API and `include/mpi_abi.h` (with `include/abi/mpif.h`).
//! - `f08_generated.rs`, `f08_support.rs`: the `mpi_f08` module's choice-buffer entry points
//!   (`MPI_Send_f08ts`, by `tools/gen_fortran_abi.py` through `tools/gen_f08.py`, with
//!   `include/abi/mpi_f08.f90`), its special variables and hand-written procedures;
//!   `f08_common.rs` (shared with libmpi.so.12 by path): descriptors, handle comparisons.
//! - `types.rs`: the ABI's C types (handles as pointers to incomplete structs).
//! - `support.rs`: special addresses (MPI_BOTTOM, ...), handle arrays, attributes, and the
//!   trampolines that let the C library call Fortran procedures.
//! - `common.rs` (`src/abi/fortran/common.rs`, shared with libmpi.so.12's Fortran
//!   bindings): CHARACTER conversion, keyval and generalized-request trampolines.

// The ABI's C names (MPI_Comm, MPI_SOURCE ...).
#![allow(non_camel_case_types, non_snake_case, clippy::missing_safety_doc)]

#[path = "../../../src/abi/fortran/common.rs"]
mod common;
#[path = "../../../src/abi/fortran/f08_common.rs"]
mod f08_common;
#[rustfmt::skip]
#[allow(clippy::all, dead_code)]
mod f08_generated;
mod f08_support;
#[rustfmt::skip]
#[allow(clippy::all)]
mod generated;
mod support;
mod types;
