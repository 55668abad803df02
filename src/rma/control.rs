//! The control block of one rank's window: words in shared memory that origins update with
//! CPU atomics, so that synchronization needs nothing from the target's CPU (passive
//! target, Tipparaju 2004 §4; DESIGN.md §rma). Every rank of the window maps every other
//! rank's block.
//!
//! Layout (all little-endian atomics, offsets in bytes):
//! - `0`  lock word: `EXCLUSIVE` bit | number of shared holders (MPI_Win_lock);
//! - `8`  accumulate lock: serialises accumulates that CPU atomics cannot do element-wise;
//! - `12` dynamic-window region table version (a seqlock: odd while being changed);
//! - `16` number of attached regions; `24` the regions, (address, length, remote key);
//! - then `posts[n]` (bumped by target `t` in origin `o`'s block when `t` posts to `o`) and
//!   `completes[n]` (bumped by origin `o` in target `t`'s block at MPI_Win_complete).
//!
//! (Requests for the target's helper thread travel on the channels' service queue, not
//! here: `helper.rs`.)

use crate::fabric::mapped::MappedRegion;
use crate::fabric::RemoteKey;
use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

/// A region attached to a dynamic window, and the key that reaches it over the rails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub addr: u64,
    pub len: u64,
    pub rkey: RemoteKey,
}

impl Region {
    /// Whether `[lo, hi)` lies inside.
    pub fn holds(&self, lo: i128, hi: i128) -> bool {
        lo >= self.addr as i128 && hi <= self.addr as i128 + self.len as i128
    }
}

/// Regions a dynamic window may have attached at once on one rank.
pub const MAX_REGIONS: usize = 256;

const LOCK: usize = 0;
const ACC_LOCK: usize = 8;
const REGIONS_SEQ: usize = 12;
const NREGIONS: usize = 16;
const REGIONS: usize = 24;
const REGION: usize = 24;
const COUNTERS: usize = REGIONS + MAX_REGIONS * REGION;

/// The lock word's exclusive bit; the low bits count shared holders.
pub const EXCLUSIVE: u64 = 1 << 63;

/// Bytes of the control block of a window over `n` ranks.
pub fn size(n: usize) -> usize {
    (COUNTERS + 8 * n).next_multiple_of(64)
}

/// One rank's control block, mapped (ours or a peer's).
#[derive(Clone)]
pub struct Control {
    mem: Arc<MappedRegion>,
    n: usize,
}

impl Control {
    /// `mem` must hold at least `size(n)` bytes (checked).
    pub fn new(mem: Arc<MappedRegion>, n: usize) -> Option<Control> {
        (mem.len() >= size(n)).then_some(Control { mem, n })
    }

    pub fn memory(&self) -> &Arc<MappedRegion> {
        &self.mem
    }

    fn u64_at(&self, off: usize) -> &AtomicU64 {
        debug_assert!(off + 8 <= size(self.n) && off.is_multiple_of(8));
        // SAFETY: `off` is inside the block (checked at `new`: the mapping holds size(n)
        // bytes), 8-aligned (the mapping is page-aligned), and the mapping lives as long as
        // `self.mem`; other processes touch these words only atomically.
        unsafe { AtomicU64::from_ptr(self.mem.as_ptr().add(off) as *mut u64) }
    }

    fn u32_at(&self, off: usize) -> &AtomicU32 {
        debug_assert!(off + 4 <= size(self.n) && off.is_multiple_of(4));
        // SAFETY: as for `u64_at`, 4-aligned.
        unsafe { AtomicU32::from_ptr(self.mem.as_ptr().add(off) as *mut u32) }
    }

    pub fn lock_word(&self) -> &AtomicU64 {
        self.u64_at(LOCK)
    }

    /// Take a shared (`exclusive` false) or exclusive hold of the lock word if it is free
    /// for it now.
    pub fn try_lock(&self, exclusive: bool) -> bool {
        let w = self.lock_word();
        if exclusive {
            w.compare_exchange(0, EXCLUSIVE, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        } else {
            let mut cur = w.load(Ordering::Relaxed);
            loop {
                if cur & EXCLUSIVE != 0 {
                    return false;
                }
                match w.compare_exchange_weak(cur, cur + 1, Ordering::Acquire, Ordering::Relaxed) {
                    Ok(_) => return true,
                    Err(now) => cur = now,
                }
            }
        }
    }

    pub fn unlock(&self, exclusive: bool) {
        let w = self.lock_word();
        if exclusive {
            w.store(0, Ordering::Release);
        } else {
            w.fetch_sub(1, Ordering::Release);
        }
    }

    pub fn try_acc_lock(&self) -> bool {
        self.u32_at(ACC_LOCK)
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    pub fn acc_unlock(&self) {
        self.u32_at(ACC_LOCK).store(0, Ordering::Release);
    }

    pub fn posts(&self, from: usize) -> &AtomicU32 {
        assert!(from < self.n);
        self.u32_at(COUNTERS + 4 * from)
    }

    pub fn completes(&self, from: usize) -> &AtomicU32 {
        assert!(from < self.n);
        self.u32_at(COUNTERS + 4 * self.n + 4 * from)
    }

    /// The attached regions of a dynamic window, read consistently (seqlock).
    pub fn regions(&self) -> Vec<Region> {
        let seq = self.u32_at(REGIONS_SEQ);
        loop {
            let before = seq.load(Ordering::Acquire);
            if before & 1 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let n = (self.u32_at(NREGIONS).load(Ordering::Relaxed) as usize).min(MAX_REGIONS);
            let out: Vec<Region> = (0..n)
                .map(|i| {
                    let at = |k: usize| self.u64_at(REGIONS + REGION * i + k);
                    Region {
                        addr: at(0).load(Ordering::Relaxed),
                        len: at(8).load(Ordering::Relaxed),
                        rkey: RemoteKey(at(16).load(Ordering::Relaxed)),
                    }
                })
                .collect();
            fence(Ordering::Acquire);
            if seq.load(Ordering::Relaxed) == before {
                return out;
            }
        }
    }

    /// Replace the region table (only its owner writes it).
    pub fn set_regions(&self, regions: &[Region]) {
        assert!(regions.len() <= MAX_REGIONS);
        let seq = self.u32_at(REGIONS_SEQ);
        seq.fetch_add(1, Ordering::AcqRel);
        fence(Ordering::Release);
        for (i, r) in regions.iter().enumerate() {
            let at = |k: usize| self.u64_at(REGIONS + REGION * i + k);
            at(0).store(r.addr, Ordering::Relaxed);
            at(8).store(r.len, Ordering::Relaxed);
            at(16).store(r.rkey.0, Ordering::Relaxed);
        }
        self.u32_at(NREGIONS)
            .store(regions.len() as u32, Ordering::Relaxed);
        seq.fetch_add(1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_counters_and_regions() {
        let n = 5;
        let mem = Arc::new(MappedRegion::create("ctl", size(n)).unwrap());
        let c = Control::new(mem.clone(), n).unwrap();
        assert!(
            Control::new(mem, 1 << 20).is_none(),
            "too small for 1M ranks"
        );
        assert!(c.try_lock(false) && c.try_lock(false));
        assert!(!c.try_lock(true), "shared holders keep exclusive out");
        c.unlock(false);
        c.unlock(false);
        assert!(c.try_lock(true));
        assert!(!c.try_lock(false) && !c.try_lock(true));
        c.unlock(true);
        assert!(c.try_acc_lock() && !c.try_acc_lock());
        c.acc_unlock();
        c.posts(4).fetch_add(2, Ordering::Relaxed);
        c.completes(0).fetch_add(1, Ordering::Relaxed);
        assert_eq!(c.posts(4).load(Ordering::Relaxed), 2);
        assert_eq!(c.completes(4).load(Ordering::Relaxed), 0);
        let regions = [
            Region {
                addr: 4096,
                len: 10,
                rkey: RemoteKey(7),
            },
            Region {
                addr: 1 << 40,
                len: 3,
                rkey: RemoteKey(u64::MAX),
            },
        ];
        c.set_regions(&regions);
        assert_eq!(c.regions(), regions);
        c.set_regions(&[]);
        assert!(c.regions().is_empty());
    }
}
