//! Counters of the registration layer: relaxed atomics, one add per event, so the hot path
//! pays no lock for them. `snapshot()` reads them all; `Display` prints a one-line summary.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[derive(Default)]
pub struct Stats {
    pinned_bytes: AtomicU64,
    pinned_peak: AtomicU64,
    registrations: AtomicU64,
    deregistrations: AtomicU64,
    cache_hits: AtomicU64,
    cache_misses: AtomicU64,
    evictions: AtomicU64,
    invalidations: AtomicU64,
    prefetch_calls: AtomicU64,
    prefetch_pages: AtomicU64,
    memlock_fallbacks: AtomicU64,
    page_faults: AtomicU64,
}

/// The counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatsSnapshot {
    /// Bytes this layer holds pinned now (shm: `mlock`ed), and the most it ever held.
    pub pinned_bytes: u64,
    pub pinned_peak: u64,
    /// `register` and `deregister` calls (hits included).
    pub registrations: u64,
    pub deregistrations: u64,
    /// Registrations served by a cached covering registration, and those that were not.
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// Cached registrations dropped for the byte limit or to make room under the memlock limit.
    pub evictions: u64,
    /// Registrations dropped because their memory was unmapped, removed or moved.
    pub invalidations: u64,
    pub prefetch_calls: u64,
    pub prefetch_pages: u64,
    /// Pin-down registrations that got no pin because of `RLIMIT_MEMLOCK`.
    pub memlock_fallbacks: u64,
    /// Pages not resident when a transfer touched them (see `count_nonresident`).
    pub page_faults: u64,
}

macro_rules! bump {
    ($($name:ident),*) => {
        $(pub(crate) fn $name(&self, n: u64) { self.$name.fetch_add(n, Relaxed); })*
    };
}

impl Stats {
    bump!(
        registrations,
        deregistrations,
        cache_hits,
        cache_misses,
        evictions,
        invalidations,
        prefetch_calls,
        prefetch_pages,
        memlock_fallbacks,
        page_faults
    );

    /// Set the pinned-bytes gauge (the registry computes it under its lock).
    pub(crate) fn set_pinned(&self, bytes: u64) {
        self.pinned_bytes.store(bytes, Relaxed);
        self.pinned_peak.fetch_max(bytes, Relaxed);
    }

    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            pinned_bytes: self.pinned_bytes.load(Relaxed),
            pinned_peak: self.pinned_peak.load(Relaxed),
            registrations: self.registrations.load(Relaxed),
            deregistrations: self.deregistrations.load(Relaxed),
            cache_hits: self.cache_hits.load(Relaxed),
            cache_misses: self.cache_misses.load(Relaxed),
            evictions: self.evictions.load(Relaxed),
            invalidations: self.invalidations.load(Relaxed),
            prefetch_calls: self.prefetch_calls.load(Relaxed),
            prefetch_pages: self.prefetch_pages.load(Relaxed),
            memlock_fallbacks: self.memlock_fallbacks.load(Relaxed),
            page_faults: self.page_faults.load(Relaxed),
        }
    }
}

impl StatsSnapshot {
    /// The counters in field order (for exchanging them between ranks).
    pub fn to_array(&self) -> [u64; 12] {
        [
            self.pinned_bytes,
            self.pinned_peak,
            self.registrations,
            self.deregistrations,
            self.cache_hits,
            self.cache_misses,
            self.evictions,
            self.invalidations,
            self.prefetch_calls,
            self.prefetch_pages,
            self.memlock_fallbacks,
            self.page_faults,
        ]
    }

    pub fn from_array(a: [u64; 12]) -> Self {
        let [pinned_bytes, pinned_peak, registrations, deregistrations, cache_hits, cache_misses, evictions, invalidations, prefetch_calls, prefetch_pages, memlock_fallbacks, page_faults] =
            a;
        StatsSnapshot {
            pinned_bytes,
            pinned_peak,
            registrations,
            deregistrations,
            cache_hits,
            cache_misses,
            evictions,
            invalidations,
            prefetch_calls,
            prefetch_pages,
            memlock_fallbacks,
            page_faults,
        }
    }

    /// Every counter summed (the job's total; peaks add up to a bound, not a peak).
    pub fn sum<'a>(all: impl IntoIterator<Item = &'a StatsSnapshot>) -> StatsSnapshot {
        let mut t = [0u64; 12];
        for s in all {
            for (acc, v) in t.iter_mut().zip(s.to_array()) {
                *acc = acc.saturating_add(v);
            }
        }
        StatsSnapshot::from_array(t)
    }
}

impl fmt::Display for StatsSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The counters in `to_array`'s order (the one list of them).
        let [pinned, peak, reg, dereg, hit, miss, evict, inval, pf_calls, pf_pages, memlock, faults] =
            self.to_array();
        write!(
            f,
            "pinned {pinned} B (peak {peak} B), reg {reg} dereg {dereg}, cache hit {hit} miss \
             {miss} evict {evict} invalidate {inval}, prefetch {pf_calls} calls {pf_pages} pages, \
             memlock fallbacks {memlock}, page faults {faults}"
        )
    }
}
