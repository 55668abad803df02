//! The control block of one rank's window: words that origins update with atomics, so that
//! synchronization needs nothing from the target's CPU (passive target, Tipparaju 2004 §4;
//! DESIGN.md §rma). Ranks whose rail maps the owner's memory (one host) map the block and
//! use CPU atomics; the others reach it under its key with the rail's 64-bit atomics and
//! reads, which the owner's rail applies to the same words (`TargetControl`).
//!
//! Layout (all little-endian, offsets in bytes; every word a rail touches is a 64-bit
//! word of its own, as rail atomics are 64-bit):
//! - `0`  lock word: `EXCLUSIVE` bit | number of shared holders (MPI_Win_lock);
//! - `8`  accumulate lock (32 bits): serialises accumulates that CPU atomics cannot do
//!   element-wise; only processes that map the block take it (the others' accumulates are
//!   applied by the owner's helper);
//! - `16` dynamic-window region table version (a seqlock: odd while being changed);
//! - `24` number of attached regions; `32` the regions, (address, length, a remote key
//!   per domain slot);
//! - then `posts[n]` (bumped by target `t` in origin `o`'s block when `t` posts to `o`) and
//!   `completes[n]` (bumped by origin `o` in target `t`'s block at MPI_Win_complete), 64
//!   bits each.
//!
//! (Requests for the target's helper thread travel on the channels' service queue, not
//! here: `helper.rs`.)

use super::host::RmaHost;
use crate::fabric::mapped::MappedRegion;
use crate::fabric::{AtomicOp, RailError, RdmaOp, RemoteKey, RemoteKeys, Span, Transfer};
use parking_lot::Mutex;
use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

/// A region attached to a dynamic window, and the key that reaches it over the rails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub addr: u64,
    pub len: u64,
    /// One key per domain slot: an origin takes the slot of the rail that reaches the
    /// owner.
    pub rkeys: RemoteKeys,
}

impl Region {
    /// Whether `[lo, hi)` lies inside.
    pub fn holds(&self, lo: i128, hi: i128) -> bool {
        lo >= self.addr as i128 && hi <= self.addr as i128 + self.len as i128
    }
}

/// Whether `[lo, hi)` lies inside the union of `regions` (an access may run from one
/// attached region into the next one adjacent to it, as MPICH allows).
pub fn covered(regions: &[Region], lo: i128, hi: i128) -> bool {
    let mut pos = lo;
    while pos < hi {
        match regions
            .iter()
            .find(|g| g.holds(pos, pos + 1))
            .map(|g| g.addr as i128 + g.len as i128)
        {
            Some(end) => pos = end,
            None => return false,
        }
    }
    true
}

/// Regions a dynamic window may have attached at once on one rank.
/// (1024 x 24 bytes in every window's control block: MPICH's rma/window_attach attaches
/// 1000; a table sized per flavor would save the 24 KiB on windows that never attach.)
pub const MAX_REGIONS: usize = 1024;

const LOCK: usize = 0;
const ACC_LOCK: usize = 8;
const REGIONS_SEQ: usize = 16;
const NREGIONS: usize = 24;
const REGIONS: usize = 32;
const REGION: usize = 16 + RemoteKeys::LEN;
const COUNTERS: usize = REGIONS + MAX_REGIONS * REGION;

/// The lock word's exclusive bit; the low bits count shared holders.
pub const EXCLUSIVE: u64 = 1 << 63;

/// Bytes of the control block of a window over `n` ranks.
pub fn size(n: usize) -> usize {
    (COUNTERS + 16 * n).next_multiple_of(64)
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
        // Subtracted, not stored: a remote origin's shared attempt may hold a passing
        // count in the word (see `TargetControl::try_lock`), which it takes back itself.
        self.lock_word()
            .fetch_sub(if exclusive { EXCLUSIVE } else { 1 }, Ordering::Release);
    }

    pub fn try_acc_lock(&self) -> bool {
        self.u32_at(ACC_LOCK)
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    pub fn acc_unlock(&self) {
        self.u32_at(ACC_LOCK).store(0, Ordering::Release);
    }

    pub fn posts(&self, from: usize) -> &AtomicU64 {
        self.u64_at(posts_at(self.n, from))
    }

    pub fn completes(&self, from: usize) -> &AtomicU64 {
        self.u64_at(completes_at(self.n, from))
    }

    /// The attached regions of a dynamic window, read consistently (seqlock).
    pub fn regions(&self) -> Vec<Region> {
        let seq = self.u64_at(REGIONS_SEQ);
        loop {
            let before = seq.load(Ordering::Acquire);
            if before & 1 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let n = (self.u64_at(NREGIONS).load(Ordering::Relaxed) as usize).min(MAX_REGIONS);
            let out: Vec<Region> = (0..n)
                .map(|i| {
                    let at = |k: usize| self.u64_at(REGIONS + REGION * i + k);
                    let mut rkeys = RemoteKeys::NONE;
                    for (k, key) in rkeys.0.iter_mut().enumerate() {
                        *key = RemoteKey(at(16 + 8 * k).load(Ordering::Relaxed));
                    }
                    Region {
                        addr: at(0).load(Ordering::Relaxed),
                        len: at(8).load(Ordering::Relaxed),
                        rkeys,
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
        let seq = self.u64_at(REGIONS_SEQ);
        seq.fetch_add(1, Ordering::AcqRel);
        fence(Ordering::Release);
        for (i, r) in regions.iter().enumerate() {
            let at = |k: usize| self.u64_at(REGIONS + REGION * i + k);
            at(0).store(r.addr, Ordering::Relaxed);
            at(8).store(r.len, Ordering::Relaxed);
            for (k, key) in r.rkeys.0.iter().enumerate() {
                at(16 + 8 * k).store(key.0, Ordering::Relaxed);
            }
        }
        self.u64_at(NREGIONS)
            .store(regions.len() as u64, Ordering::Relaxed);
        seq.fetch_add(1, Ordering::Release);
    }
}

fn posts_at(n: usize, from: usize) -> usize {
    assert!(from < n);
    COUNTERS + 8 * from
}

fn completes_at(n: usize, from: usize) -> usize {
    assert!(from < n);
    COUNTERS + 8 * n + 8 * from
}

/// A target's control block as an origin reaches it: mapped here, or in another process
/// under its key.
pub enum TargetControl {
    Mapped(Control),
    Remote(RemoteControl),
}

/// A control block reached by rail operations: world rank `peer`'s block at `base`, under
/// `rkey` (a key per domain slot).
pub struct RemoteControl {
    pub peer: usize,
    pub base: u64,
    pub rkey: RemoteKeys,
    pub n: usize,
    /// The region table last read, with the version it was read at: a dynamic window's
    /// operations cost one atomic (the version) while the table stays as it is.
    regions: Mutex<Option<(u64, Vec<Region>)>>,
}

type RailResult<T> = std::result::Result<T, RailError>;

impl RemoteControl {
    pub fn new(peer: usize, base: u64, rkey: RemoteKeys, n: usize) -> RemoteControl {
        RemoteControl {
            peer,
            base,
            rkey,
            n,
            regions: Mutex::new(None),
        }
    }

    fn atomic(&self, host: &dyn RmaHost, off: usize, op: AtomicOp) -> RailResult<u64> {
        host.atomic(op, self.peer, self.base + off as u64, &self.rkey)
    }

    fn read(&self, host: &dyn RmaHost, off: usize, into: &mut [u8]) -> RailResult<()> {
        let local = [Span {
            addr: into.as_mut_ptr() as u64,
            len: into.len() as u64,
        }];
        let remote = [Span {
            addr: self.base + off as u64,
            len: into.len() as u64,
        }];
        // SAFETY: `into` is ours, writable, and borrowed until `transfer` returns, which is
        // after the read completed.
        unsafe {
            host.transfer(&Transfer::new(
                RdmaOp::Read,
                self.peer,
                &local,
                &remote,
                &self.rkey,
                0,
            ))
        }
    }

    /// The region table, read as the seqlock demands: version, table, version again (the
    /// version by an atomic, so it is never torn).
    fn regions(&self, host: &dyn RmaHost) -> RailResult<Vec<Region>> {
        let version = || self.atomic(host, REGIONS_SEQ, AtomicOp::FetchAdd(0));
        let mut cached = self.regions.lock();
        for _ in 0..1000 {
            let before = version()?;
            if before & 1 == 1 {
                std::thread::yield_now();
                continue;
            }
            if let Some((v, table)) = cached.as_ref() {
                if *v == before {
                    return Ok(table.clone());
                }
            }
            let mut word = [0u8; 8];
            self.read(host, NREGIONS, &mut word)?;
            // Another process's word: bounded before it sizes anything.
            let n = (u64::from_le_bytes(word) as usize).min(MAX_REGIONS);
            let mut raw = vec![0u8; n * REGION];
            if n > 0 {
                self.read(host, REGIONS, &mut raw)?;
            }
            if version()? != before {
                continue;
            }
            let u = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
            let table: Vec<Region> = raw
                .chunks_exact(REGION)
                .map(|e| Region {
                    addr: u(&e[0..8]),
                    len: u(&e[8..16]),
                    rkeys: RemoteKeys::decode(&e[16..]),
                })
                .collect();
            *cached = Some((before, table.clone()));
            return Ok(table);
        }
        // The owner changes its table faster than we can read it: it attaches and
        // detaches in a loop while we access it, which MPI leaves undefined anyway.
        Err(RailError::Access(std::io::Error::other(
            "the region table kept changing",
        )))
    }
}

impl TargetControl {
    /// The block mapped here (a target on this host: accumulates under its lock).
    pub fn mapped(&self) -> Option<&Control> {
        match self {
            TargetControl::Mapped(c) => Some(c),
            TargetControl::Remote(_) => None,
        }
    }

    /// Take a shared or exclusive hold of the target's lock word if it is free for it now.
    /// Remotely a shared attempt adds one and takes it back if the exclusive bit was set
    /// (one atomic when it succeeds, as MPICH's and ARMCI's passive-target locks do).
    pub fn try_lock(&self, host: &dyn RmaHost, exclusive: bool) -> RailResult<bool> {
        let r = match self {
            TargetControl::Mapped(c) => return Ok(c.try_lock(exclusive)),
            TargetControl::Remote(r) => r,
        };
        if exclusive {
            let old = r.atomic(
                host,
                LOCK,
                AtomicOp::CompareSwap {
                    compare: 0,
                    swap: EXCLUSIVE,
                },
            )?;
            return Ok(old == 0);
        }
        let old = r.atomic(host, LOCK, AtomicOp::FetchAdd(1))?;
        if old & EXCLUSIVE != 0 {
            r.atomic(host, LOCK, AtomicOp::FetchAdd(u64::MAX))?;
            return Ok(false);
        }
        Ok(true)
    }

    pub fn unlock(&self, host: &dyn RmaHost, exclusive: bool) -> RailResult<()> {
        match self {
            TargetControl::Mapped(c) => c.unlock(exclusive),
            TargetControl::Remote(r) => {
                // Adding 2^63 clears the exclusive bit (the carry leaves the word);
                // adding 2^64 - 1 takes one shared holder away.
                let delta = if exclusive { EXCLUSIVE } else { u64::MAX };
                r.atomic(host, LOCK, AtomicOp::FetchAdd(delta))?;
            }
        }
        Ok(())
    }

    /// MPI_Win_post's signal to origin `self` from target `from`.
    pub fn signal_post(&self, host: &dyn RmaHost, from: usize) -> RailResult<()> {
        match self {
            TargetControl::Mapped(c) => {
                c.posts(from).fetch_add(1, Ordering::Release);
            }
            TargetControl::Remote(r) => {
                r.atomic(host, posts_at(r.n, from), AtomicOp::FetchAdd(1))?;
            }
        }
        Ok(())
    }

    /// MPI_Win_complete's signal to target `self` from origin `from`.
    pub fn signal_complete(&self, host: &dyn RmaHost, from: usize) -> RailResult<()> {
        match self {
            TargetControl::Mapped(c) => {
                c.completes(from).fetch_add(1, Ordering::Release);
            }
            TargetControl::Remote(r) => {
                r.atomic(host, completes_at(r.n, from), AtomicOp::FetchAdd(1))?;
            }
        }
        Ok(())
    }

    /// A dynamic window's attached regions.
    pub fn regions(&self, host: &dyn RmaHost) -> RailResult<Vec<Region>> {
        match self {
            TargetControl::Mapped(c) => Ok(c.regions()),
            TargetControl::Remote(r) => r.regions(host),
        }
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
        // A remote shared attempt's passing count survives the exclusive unlock.
        c.lock_word().fetch_add(1, Ordering::Relaxed);
        c.unlock(true);
        assert_eq!(c.lock_word().load(Ordering::Relaxed), 1);
        c.lock_word().fetch_sub(1, Ordering::Relaxed);
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
                rkeys: RemoteKeys([
                    RemoteKey(7),
                    RemoteKey(0),
                    RemoteKey(9),
                    RemoteKey(0),
                    RemoteKey(0),
                    RemoteKey(1),
                ]),
            },
            Region {
                addr: 1 << 40,
                len: 3,
                rkeys: RemoteKeys([RemoteKey(u64::MAX); 6]),
            },
        ];
        c.set_regions(&regions);
        assert_eq!(c.regions(), regions);
        c.set_regions(&[]);
        assert!(c.regions().is_empty());
    }
}
