//! Mapped memory (`RailCaps::mapped`): memory the library allocates — window memory, window
//! control blocks, the RMA helper's inbox — that every rank of the node maps, so that
//! one-sided operations on it are loads, stores and CPU atomics with no rail operation at
//! all (how a put into an `MPI_Win_allocate` window reaches 0.15 µs). On one node it is the
//! shm provider's: anonymous shared memory (a memfd) that peers open through
//! `/proc/<pid>/fd/<fd>`, never named in `/dev/shm`, so nothing outlives the job.
//! Memory that ranks on different nodes share does not exist: there the rails' keyed
//! reads, writes and atomics take over.

/// A region of mapped memory: made by one rank (`create`), opened by the others of its
/// node from the (pid, fd) it announces (`open`), unmapped on drop.
pub use crate::sys::memfd::SharedMemory as MappedRegion;

/// The copy between mapped ranges: non-temporal stores past the size a cache holds.
pub use crate::sys::copy::copy;
