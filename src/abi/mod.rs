//! abi: the C surface. `extern "C"` shims that check arguments, translate handles, run the
//! core and map its `Result` to an error code through the object's error handler.
//!
//! Every shim is written as `PMPI_X`; `build.rs` makes `MPI_X` an alias of it at link
//! time, so a tool library can interpose `MPI_X` and call `PMPI_X` (profiling interface).
// The exported functions are unsafe because C calls them with raw pointers; their safety
// contract is the MPI standard's (valid buffers, statuses and handles), not repeated on each.
#![allow(clippy::missing_safety_doc)]
// In the standard-ABI build each `PMPI_X` is exported as `MPICH_PMPI_X` (its
// `export_name` overrides `no_mangle`), for src/abi_std to call.
#![cfg_attr(feature = "std-abi", allow(unused_attributes))]

pub mod args;
pub mod attr;
pub mod bsend;
pub mod builtin_types;
pub mod callbacks;
pub mod coll;
pub mod coll_inter;
pub mod coll_persistent;
pub mod comm;
pub mod consts;
pub mod datatype;
pub mod dynamic;
pub mod entry_points;
pub mod env;
pub mod errors;
pub mod file;
// The Fortran bindings call the C entry points by their MPICH-ABI names: not in the
// standard-ABI build (whose `PMPI_X` are the standard's).
#[cfg(not(feature = "std-abi"))]
pub mod fortran;
pub mod grequest;
pub mod group;
pub mod handle_cache;
pub mod handles;
pub mod info;
pub mod mprobe;
pub mod op;
pub mod partitioned;
pub mod pt2pt;
pub mod requests;
pub mod rma;
pub mod session;
pub mod shim;
pub mod status;
pub mod tool;
pub mod topo;
pub mod type_attr;
