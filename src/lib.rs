//! railmpi: an MPI library with RDMA-style protocols, exporting the MPICH ABI.
//!
//! Layers (see `../shared/DESIGN.md`), each calling only downward:
//! `abi` → `tool` (MPI_T) / `io` (MPI-IO) → `runtime` → `pt2pt` / `rma` / `coll` / `datatype` / `comm` (and `op`, the
//! predefined reductions that `coll` and `rma` share) → `channel` / `registration` →
//! `fabric` → `sys`.
//! `launcher` is the `mpiexec` side (PMI server) and shares only the PMI wire codec;
//! `ratelimit` bounds the warnings strangers can trigger (tcp rail and launcher alike).

pub mod abi;
#[cfg(feature = "std-abi")]
pub mod abi_std;
pub mod channel;
pub mod coll;
pub mod comm;
pub mod datatype;
pub mod error;
pub mod fabric;
pub mod info;
pub mod io;
pub mod launcher;
pub mod op;
pub mod pt2pt;
pub mod ratelimit;
pub mod registration;
pub mod rma;
pub mod runtime;
pub mod sys;
pub mod tool;

/// The ABI of the application's callbacks (`abi::callbacks::Convention`): chosen here, at the
/// crate's root, so that `abi` does not depend on `abi_std` above it.
#[cfg(not(feature = "std-abi"))]
pub(crate) type AppCallbacks = abi::callbacks::Mpich;
#[cfg(feature = "std-abi")]
pub(crate) type AppCallbacks = abi_std::callbacks::Standard;
