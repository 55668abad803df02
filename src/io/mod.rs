//! io: MPI-IO (MPI-3.1 chapter 13) over POSIX files. `file` holds an open file's state
//! and its data access calls; `view` flattens file views and maps view offsets to file
//! byte ranges; `access` moves one process's ranges (data sieving, byte-range locks in
//! atomic mode); `two_phase` is collective buffering for the `_all` calls; `shared` the
//! shared file pointer (an RMA counter); `hints` the info keys railmpi uses; `exchange`
//! the messages collective calls swap; `posix` the system calls and their errors.
//!
//! Sits between `abi` (the MPI_File_* shims, handles and error handlers) and the runtime
//! (communicators, the collective transport, RMA windows).

pub mod access;
pub mod amode;
pub mod exchange;
pub mod file;
pub mod hints;
pub mod posix;
pub mod shared;
pub mod two_phase;
pub mod view;

pub use file::{offset_arg, File, Place, Pos, Split};
pub use view::{Datarep, View};
