//! registration: what makes memory reachable by a rail (DESIGN.md §registration).
//!
//! `Registry::register(addr, len, mode)` returns a `Registration` handle (dropped or
//! passed to `deregister` to release it); `prefetch` faults memory in ahead of a transfer;
//! `count_nonresident` counts the pages a transfer is about to fault on. Modes: pin-down
//! (shm: `mlock`) and ODP (shm: nothing pinned). Registrations are kept in a cache ("leave
//! pinned", Woodall §5.1: page-aligned interval map, LRU, byte limit) and dropped when the
//! application gives their memory back, noticed by userfaultfd events (`uffd`), by
//! libmpi's own `munmap`/`mremap`/`madvise`/`brk`/`sbrk` interposing the program's calls
//! (`hooks`, see `hooks.rs`; glibc malloc's internal calls are invisible to it, so `hooks`
//! also keeps malloc from returning memory), or prevented by keeping malloc from returning
//! memory (`no-trim`). Both event sources feed the same queue shape, applied under the
//! registry lock before every lookup. Registering is the rail's business: the registry calls
//! the rail's `fabric::MemoryDomain` (shm: `mlock` and a key in the segment's key table;
//! verbs later, behind the same calls) and keeps the key it returns with the entry.
//!
//! The point-to-point engine registers every rendezvous payload here (`RAILMPI_REG_MODE`
//! picks pin-down or ODP and when ODP prefetches); the pipeline protocols are to come.

mod hooks;
mod interval_map;
mod registry;
mod stats;
mod uffd_monitor;

#[cfg(test)]
pub(crate) mod tests;

pub use crate::fabric::memory::{
    Access, Domains, Keys, MemKey, MemoryDomain, Mode, PageRange, PinError, RemoteKeys,
};
pub use registry::{RegError, Registration, Registry, RegistryConfig};
pub use stats::{Stats, StatsSnapshot};

use std::str::FromStr;

/// `RAILMPI_REG_MODE`: the registration policy of the protocols (Li 2016 §VII).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegPolicy {
    /// Every registration pins.
    Pin,
    /// ODP, never prefetched.
    OdpNative,
    /// ODP, prefetched right after registering.
    OdpEnhanced,
    /// ODP with the prefetch overlapped with the rendezvous handshake (eager buffers pinned).
    OdpOptimal,
}

impl RegPolicy {
    /// The mode a payload registration uses under this policy.
    pub fn mode(self) -> Mode {
        match self {
            RegPolicy::Pin => Mode::Pin,
            _ => Mode::Odp,
        }
    }
}

impl FromStr for RegPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "pin" => Ok(RegPolicy::Pin),
            "odp-native" => Ok(RegPolicy::OdpNative),
            "odp-enhanced" => Ok(RegPolicy::OdpEnhanced),
            "odp-optimal" => Ok(RegPolicy::OdpOptimal),
            _ => Err(format!(
                "{s:?} is not one of pin, odp-native, odp-enhanced, odp-optimal"
            )),
        }
    }
}

/// `RAILMPI_REG_INVALIDATE`: how the cache learns that memory was given back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalidation {
    /// userfaultfd unmap/remove/remap events on cached ranges, read by a monitor thread.
    Uffd,
    /// libmpi defines `munmap`, `mremap`, `madvise`, `brk` and `sbrk`, ahead of libc in
    /// symbol lookup: the program's calls forward to the kernel and queue what went away
    /// for the registry. malloc's internal unmapping bypasses symbol lookup, so malloc is
    /// also kept from returning memory (as `NoTrim`).
    Hooks,
    /// malloc never returns memory (`M_TRIM_THRESHOLD` -1, `M_MMAP_MAX` 0), so freed
    /// buffers stay mapped; memory the application `munmap`s itself is not covered.
    NoTrim,
}

impl FromStr for Invalidation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "uffd" => Ok(Invalidation::Uffd),
            "hooks" => Ok(Invalidation::Hooks),
            "no-trim" => Ok(Invalidation::NoTrim),
            _ => Err(format!("{s:?} is not one of uffd, hooks, no-trim")),
        }
    }
}
