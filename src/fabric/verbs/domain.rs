//! The verbs memory domain: a registration is an `ibv_reg_mr` memory region of the rail's
//! protection domain, pinned by the kernel (pin-down) or on-demand paged where the device
//! offers ODP (Li §VI), prefetched with `ibv_advise_mr`. Its keys are the region's own:
//! the lkey for our work requests, the rkey for peers — checked by the adapter, so a forged
//! or stale key moves nothing and completes with a remote access error.
//!
//! `MemKey::local` carries the lkey (the domain finds the region's handle by it);
//! `RemoteKey` carries the rkey with bit 32 set (0 is never a key, and an rkey may be 0).
//! The domain keeps its live regions by address to find the one to prefetch.

use super::module::{abi, Module};
use crate::fabric::memory::{Access, MemKey, MemoryDomain, Mode, PageRange, PinError};
use crate::fabric::RemoteKey;
use parking_lot::{Mutex, RwLock};
use std::collections::BTreeMap;
use std::io;

/// Marks a `RemoteKey` as an rkey of this domain kind.
const RKEY_TAG: u64 = 1 << 32;

pub fn remote_key(rkey: u32) -> RemoteKey {
    RemoteKey(RKEY_TAG | rkey as u64)
}

/// The rkey inside a `RemoteKey`, if it is one.
pub fn rkey_of(key: RemoteKey) -> Option<u32> {
    (key.0 >> 32 == 1).then_some(key.0 as u32)
}

/// One live region.
#[derive(Clone, Copy, Debug)]
struct Region {
    end: u64,
    handle: u64,
    lkey: u32,
    rkey: u32,
}

pub struct VerbsDomain {
    module: &'static Module,
    /// The context whose protection domain registers (owned by the rail), as an address;
    /// None once the rail closed it (every call is then refused or ignored). Calls hold the
    /// read lock, so the rail's close waits for them.
    ctx: RwLock<Option<usize>>,
    /// ODP bits the device offers (`abi::ODP_*`).
    odp: u32,
    /// Live regions by start address (several may start at one address: the last wins
    /// for lookups, which is fine since each covers what it was made for).
    regions: Mutex<BTreeMap<(u64, u64), Region>>,
    /// Said once: ODP was asked for and the device has none.
    told_no_odp: std::sync::atomic::AtomicBool,
}

// SAFETY: `ctx` is a pointer (kept as an address) to the module's context, whose
// registration calls (`reg_mr`, `dereg_mr`, `advise_mr`) are thread-safe in libibverbs.
unsafe impl Send for VerbsDomain {}
// SAFETY: as above; the region table is under its lock.
unsafe impl Sync for VerbsDomain {}

impl VerbsDomain {
    pub fn new(module: &'static Module, ctx: *mut abi::Ctx, odp: u32) -> Self {
        VerbsDomain {
            module,
            ctx: RwLock::new(Some(ctx as usize)),
            odp,
            regions: Mutex::new(BTreeMap::new()),
            told_no_odp: Default::default(),
        }
    }

    /// Run `f` on the open context (EBADF once closed).
    fn with_ctx(&self, f: impl FnOnce(*mut abi::Ctx) -> i32) -> i32 {
        match *self.ctx.read() {
            Some(c) => f(c as *mut abi::Ctx),
            None => libc::EBADF,
        }
    }

    /// The rail closes its context: no call reaches it afterwards.
    pub fn close(&self) {
        *self.ctx.write() = None;
        self.regions.lock().clear();
    }

    /// Whether registrations may be on-demand paged (write, read and atomics all).
    pub fn odp(&self) -> bool {
        let need = abi::ODP_WRITE | abi::ODP_READ | abi::ODP_SEND | abi::ODP_RECV;
        self.odp & need == need
    }

    /// A region registered for this process's own use (bounce buffers, atomic results):
    /// pinned, local and remote access.
    pub fn register_raw(&self, addr: u64, len: u64) -> io::Result<abi::Mr> {
        let mut mr = abi::Mr::default();
        let access = abi::ACCESS_REMOTE_READ | abi::ACCESS_REMOTE_WRITE | abi::ACCESS_REMOTE_ATOMIC;
        // SAFETY: the context is open (checked under the read lock); `mr` is a valid
        // out-pointer. The range is memory of ours that outlives the region (the caller
        // deregisters first).
        let rc =
            self.with_ctx(|c| unsafe { (self.module.ops.reg_mr)(c, addr, len, access, &mut mr) });
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        Ok(mr)
    }

    pub fn deregister_raw(&self, handle: u64) {
        // SAFETY: `handle` came from `reg_mr` on this open context and is released once.
        let _ = self.with_ctx(|c| unsafe { (self.module.ops.dereg_mr)(c, handle) });
    }
}

impl VerbsDomain {
    /// The 8-byte word at `addr` if a live region of ours keyed `rkey` holds it: what a
    /// peer may update with an atomic our adapter cannot do (checked here, in software,
    /// as the adapter checks its own).
    pub fn atomic_word(&self, rkey: u32, addr: u64) -> Option<usize> {
        let end = addr.checked_add(8)?;
        if !addr.is_multiple_of(8) {
            return None;
        }
        let regions = self.regions.lock();
        regions
            .iter()
            .find(|(&(start, _), r)| r.rkey == rkey && start <= addr && r.end >= end)
            .map(|_| addr as usize)
    }
}

impl MemoryDomain for VerbsDomain {
    fn register(&self, range: PageRange, mode: Mode) -> Result<MemKey, PinError> {
        let mut access =
            abi::ACCESS_REMOTE_READ | abi::ACCESS_REMOTE_WRITE | abi::ACCESS_REMOTE_ATOMIC;
        if mode == Mode::Odp {
            if self.odp() {
                access |= abi::ACCESS_ON_DEMAND;
            } else if !self
                .told_no_odp
                .swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                tracing::info!("verbs: the device offers no on-demand paging; registering pinned");
            }
        }
        let mut mr = abi::Mr::default();
        let (addr, len) = (range.start as u64, range.len() as u64);
        // SAFETY: the context is open (under the read lock); `mr` is a valid out-pointer;
        // the registry keeps the range mapped while registered (it deregisters before the
        // memory goes).
        let rc =
            self.with_ctx(|c| unsafe { (self.module.ops.reg_mr)(c, addr, len, access, &mut mr) });
        if rc != 0 {
            let e = io::Error::from_raw_os_error(rc);
            return Err(match rc {
                libc::ENOMEM | libc::EAGAIN | libc::EPERM => PinError::Limit(e),
                _ => PinError::NotMapped(e),
            });
        }
        self.regions.lock().insert(
            (addr, mr.handle),
            Region {
                end: addr + len,
                handle: mr.handle,
                lkey: mr.lkey,
                rkey: mr.rkey,
            },
        );
        Ok(MemKey {
            // The lkey names the region (unique among live ones); its handle stays here.
            local: mr.lkey as u64,
            remote: remote_key(mr.rkey),
        })
    }

    fn deregister(&self, key: MemKey, _unpin: &[PageRange]) {
        if key == MemKey::default() {
            return; // only a partial mlock undone: regions pin for themselves
        }
        let lkey = key.local as u32;
        let handle = {
            let mut regions = self.regions.lock();
            let Some(at) = regions
                .iter()
                .find(|(_, r)| r.lkey == lkey && r.rkey as u64 == key.remote.0 as u32 as u64)
                .map(|(k, _)| *k)
            else {
                return;
            };
            regions.remove(&at).expect("found above").handle
        };
        self.deregister_raw(handle);
    }

    fn prefetch(&self, range: PageRange, access: Access) -> io::Result<()> {
        let (addr, len) = (range.start as u64, range.len() as u64);
        let handle = {
            let regions = self.regions.lock();
            regions
                .range(..=(addr, u64::MAX))
                .rev()
                .find(|(&(start, _), r)| start <= addr && r.end >= addr + len)
                .map(|(_, r)| r.handle)
        };
        match handle {
            // ODP regions: the adapter's page tables (ibv_advise_mr); on a pinned region
            // the call is harmless (EOPNOTSUPP/EINVAL), then fault the pages in.
            Some(h) if self.odp() && len <= u32::MAX as u64 => {
                let advice = match access {
                    Access::Write => abi::ADVISE_WRITE,
                    _ => abi::ADVISE_READ,
                };
                // SAFETY: `h` is a live region of this open context covering the range.
                let rc = self.with_ctx(|c| unsafe {
                    (self.module.ops.advise_mr)(c, h, addr, len as u32, advice)
                });
                if rc == 0 {
                    return Ok(());
                }
                crate::sys::vmem::populate(range.start, range.len(), access).map(|_| ())
            }
            _ => crate::sys::vmem::populate(range.start, range.len(), access).map(|_| ()),
        }
    }
}
