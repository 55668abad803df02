//! What a rail does to make memory reachable. The registry (cache, accounting,
//! invalidation) calls a `MemoryProvider`; the shm rail's is `ShmProvider` (`mlock` for
//! pin-down, nothing for ODP, `MADV_POPULATE_*` for prefetch). A verbs rail will provide
//! the same three operations with its own registration calls and return its keys.

use super::{Access, Mode, PageRange};
use crate::sys::vmem;
use std::io;

/// Why a provider could not pin.
#[derive(Debug)]
pub enum PinError {
    /// A resource limit (shm: `RLIMIT_MEMLOCK`): the registry evicts and retries, then
    /// registers without pinning.
    Limit(io::Error),
    /// The range is not mapped (or not accessible).
    NotMapped(io::Error),
}

pub trait MemoryProvider: Send + Sync {
    /// Register `range` in `mode`: pin it for `Mode::Pin`. Returns the provider's key for
    /// the registration (what a remote peer names it by; shm: 0). Overlapping calls may
    /// happen; the registry tracks which spans it still needs.
    fn register(&self, range: PageRange, mode: Mode) -> Result<u64, PinError>;
    /// Release the registration `key`; `unpin` lists the spans of it no other registration
    /// still pins (shm: those to `munlock`).
    fn release(&self, key: u64, unpin: &[PageRange]);
    /// Fault `range` in for `access` ahead of a transfer.
    fn prefetch(&self, range: PageRange, access: Access) -> io::Result<()>;
}

/// The shm rail's provider: pin-down is `mlock`, ODP registers nothing.
pub struct ShmProvider;

impl MemoryProvider for ShmProvider {
    fn register(&self, range: PageRange, mode: Mode) -> Result<u64, PinError> {
        if mode == Mode::Pin {
            if let Err(e) = vmem::mlock(range.start, range.len()) {
                // mlock fails with ENOMEM both for the limit and for unmapped pages; the
                // registry checked the mapping before, so ENOMEM/EPERM here is the limit.
                // (If it locked a prefix before failing, the registry unlocks the spans no
                // other registration pins.)
                return Err(match e.raw_os_error() {
                    Some(libc::ENOMEM) | Some(libc::EPERM) | Some(libc::EAGAIN) => {
                        PinError::Limit(e)
                    }
                    _ => PinError::NotMapped(e),
                });
            }
        }
        Ok(0)
    }

    fn release(&self, _key: u64, unpin: &[PageRange]) {
        for r in unpin {
            // Fails only for spans unmapped meanwhile, which the kernel already unlocked.
            let _ = vmem::munlock(r.start, r.len());
        }
    }

    fn prefetch(&self, range: PageRange, access: Access) -> io::Result<()> {
        vmem::populate(range.start, range.len(), access).map(|_| ())
    }
}
