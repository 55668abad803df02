//! Fortran bindings: `mpif.h` and the `mpi` module (`include/mpif.h`,
//! `include/mpi_module.f90`) call these entry points, named in gfortran's convention
//! (`mpi_send_`, and `pmpi_send_` for profiling tools), with every argument by reference,
//! `ierror` last, and gfortran's hidden `size_t` lengths of CHARACTER arguments after it.
//! Handles are INTEGERs with the C values (MPICH ABI), and a status is an INTEGER array of
//! MPI_STATUS_SIZE = 5 laid out as C's `MPI_Status`, so both pass through unchanged.
//!
//! - `generated.rs`: one binding per C `PMPI_X`, written by `tools/gen_fortran.py` from
//!   `include/mpi.h` (run it after `make header`; `--check` tells whether it is stale).
//! - `common.rs`: what the bindings over either C ABI share (this library's and
//!   `modules/fortran_abi`'s, which includes the file): CHARACTER conversion, `ierror`,
//!   keyval and generalized-request trampolines, the predefined copy/delete procedures.
//! - `support.rs`: what the bindings share: the COMMON blocks that carry `MPI_BOTTOM`,
//!   `MPI_IN_PLACE`, `MPI_STATUS_IGNORE`, ... (MPICH's names and layouts, so binaries built
//!   with MPICH's `mpif90` run on railmpi too), recognising those addresses, CHARACTER
//!   conversion, attribute values, keyval callbacks.
//!
//! - `f08_generated.rs`: the BIND(C) entry points (`MPI_X_f08ts`) of the `mpi_f08` module's
//!   procedures with choice buffers, written by `tools/gen_f08.py` with
//!   `include/mpi_f08.f90`; the module's other procedures are the `use mpi` entry points.
//! - `f08_common.rs`: handle `==`/`/=` and CFI descriptors of choice buffers (shared with
//!   `modules/fortran_abi` by path).
//! - `f08_support.rs`: the module's special variables (`MPI_BOTTOM`, ...), MPI_ERR_BUFFER
//!   for a noncontiguous section, MPI_Buffer_detach's TYPE(C_PTR) form.
//!
//! cbindgen (build.rs) must not see these modules: their functions and statics are not
//! part of the C header.

/// cbindgen:ignore
#[rustfmt::skip]
// MPI_File is a pointer to an opaque C struct (MPICH's ABI): fine across FFI.
#[allow(improper_ctypes)]
pub mod generated;
/// cbindgen:ignore
pub mod common;
/// cbindgen:ignore
pub mod support;
/// cbindgen:ignore
#[rustfmt::skip]
pub mod f08_generated;
/// cbindgen:ignore
pub mod f08_common;
/// cbindgen:ignore
pub mod f08_support;
