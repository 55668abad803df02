//! PMI-1 "simple" wire protocol (what MPICH's Hydra and our mpiexec speak).
//!
//! - [`wire`]: the sans-I/O codec — typed [`wire::Command`] (client → server) and
//!   [`wire::Reply`] (server → client), a checked parser and a line framer.
//! - [`client`]: [`Pmi`], the connection a process opens at `MPI_Init` (from `PMI_FD`,
//!   `PMI_RANK`, `PMI_SIZE`; a singleton of size 1 when started without a launcher).
//!
//! The server side lives in `crate::launcher` and shares only the codec.
//!
//! Semantics worth knowing (checked against Hydra from MPICH 4.0.2):
//! - a `put` becomes visible to `get` (even the putter's own) only after the next
//!   `barrier`; our mpiexec enforces the same rule so code that forgets it fails early;
//! - keys are at most [`KEY_MAX`] bytes and values at most [`VALUE_MAX`] bytes; both must be
//!   non-empty printable ASCII without spaces or backslashes (Hydra silently loses longer
//!   ones, newer MPICH unescapes backslashes, spaces end a value);
//! - every job has the key `PMI_process_mapping`, e.g. `(vector,(0,1,4))` for 4 ranks on
//!   one node.

pub mod client;
pub mod wire;
pub mod wire2;

pub use client::{Pmi, PmiError};

/// Longest key `put`/`get` accept (Hydra's `keylen_max`).
pub const KEY_MAX: usize = 64;
/// Longest value `put` accepts (Hydra's `vallen_max`).
pub const VALUE_MAX: usize = 1024;
/// Longest kvsname (Hydra's `kvsname_max`).
pub const KVSNAME_MAX: usize = 256;

/// The job's size as the launcher told it in the environment, before (or without) a PMI
/// connection: PMI_SIZE (our mpiexec, Hydra), else SLURM_NTASKS (srun).
pub fn size_from_env() -> Option<usize> {
    ["PMI_SIZE", "SLURM_NTASKS"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.parse::<usize>().ok())
}
