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

/// Prefix of every shared-memory file of the job named `kvsname`.
///
/// The library names its segments `/dev/shm/{shm_prefix(kvsname)}{suffix}` (suffix free-form,
/// e.g. `node0-ring`), and mpiexec removes every file in `/dev/shm` starting with this prefix
/// when the job ends. The prefix is `railmpi-<kvsname>-`: the trailing `-` keeps job
/// `..._12` from matching job `..._123`. Characters of `kvsname` other than
/// `[A-Za-z0-9_.-]` (it comes from the launcher, so it is untrusted) become `_`, so the
/// prefix is always a single, safe file name component.
pub fn shm_prefix(kvsname: &str) -> String {
    let mut s = String::with_capacity(kvsname.len() + 9);
    s.push_str("railmpi-");
    s.extend(kvsname.chars().map(|c| {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
            c
        } else {
            '_'
        }
    }));
    s.push('-');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shm_prefix_is_one_safe_component() {
        assert_eq!(shm_prefix("railmpi_42_0"), "railmpi-railmpi_42_0-");
        assert_eq!(shm_prefix("kvs_1_0_2_vm"), "railmpi-kvs_1_0_2_vm-");
        assert_eq!(shm_prefix("../x/y z"), "railmpi-.._x_y_z-");
        assert!(!shm_prefix("singleton_123").starts_with(&shm_prefix("singleton_12")));
    }
}
