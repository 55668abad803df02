//! The shm rail's memory domain: pin-down is `mlock`, ODP pins nothing, prefetch is
//! `MADV_POPULATE_*`, and every registration is keyed in this process's key table (in the
//! job's segment, where peers check it before their CMA touches our memory).

use super::keys::{KeyIssuer, KeySlot, KEY_SLOTS, RIGHT_READ, RIGHT_WRITE};
use crate::fabric::memory::{Access, MemKey, MemoryDomain, Mode, PageRange, PinError};
use crate::sys::memfd::SharedMemory;
use crate::sys::vmem;
use std::io;
use std::sync::Arc;

/// What keeps the key table's memory alive.
#[allow(dead_code)] // held, never read
enum TableStorage {
    /// Our table in the job's segment, which peers map too.
    Segment(Arc<SharedMemory>),
    /// A table no other process sees (a process alone; tests).
    Private(Box<[KeySlot]>),
}

pub struct ShmDomain {
    keys: KeyIssuer,
    _storage: TableStorage,
}

impl ShmDomain {
    /// A domain whose keys live in `table`, inside `segment`.
    ///
    /// # Safety
    /// `table` must point to `KEY_SLOTS` slots inside `segment` that only this process
    /// writes.
    pub unsafe fn in_segment(segment: Arc<SharedMemory>, table: *const KeySlot) -> Self {
        Self {
            // SAFETY: the caller's contract; the segment is kept alive with the issuer.
            keys: unsafe { KeyIssuer::new(table) },
            _storage: TableStorage::Segment(segment),
        }
    }

    /// A domain with a key table of its own memory.
    pub fn private() -> Self {
        let table: Box<[KeySlot]> = (0..KEY_SLOTS).map(|_| KeySlot::default()).collect();
        Self {
            // SAFETY: the box holds KEY_SLOTS zeroed slots and moves into the domain with
            // the issuer (a boxed slice's heap memory does not move).
            keys: unsafe { KeyIssuer::new(table.as_ptr()) },
            _storage: TableStorage::Private(table),
        }
    }

    /// The table's first slot (for checks in this process, e.g. tests).
    pub fn table(&self) -> *const KeySlot {
        self.keys.table()
    }

    /// Keys in force (registrations this domain keyed and has not released).
    pub fn live_keys(&self) -> usize {
        self.keys.live()
    }
}

impl MemoryDomain for ShmDomain {
    fn register(&self, range: PageRange, mode: Mode) -> Result<MemKey, PinError> {
        let remote = self
            .keys
            .issue(
                range.start as u64,
                range.len() as u64,
                RIGHT_READ | RIGHT_WRITE,
            )
            .ok_or(PinError::Keys)?;
        if mode == Mode::Pin {
            if let Err(e) = vmem::mlock(range.start, range.len()) {
                self.keys.revoke(remote);
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
        Ok(MemKey { local: 0, remote })
    }

    fn deregister(&self, key: MemKey, unpin: &[PageRange]) {
        // Revoked first: no peer starts a transfer into memory we stop vouching for.
        self.keys.revoke(key.remote);
        for r in unpin {
            // Fails only for spans unmapped meanwhile, which the kernel already unlocked.
            let _ = vmem::munlock(r.start, r.len());
        }
    }

    fn prefetch(&self, range: PageRange, access: Access) -> io::Result<()> {
        vmem::populate(range.start, range.len(), access).map(|_| ())
    }
}
