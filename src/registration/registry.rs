//! The registry: registrations in force and cached, their accounting, and invalidation.
//! One lock (`State`) guards the interval map and the pinned-bytes count; statistics are
//! atomics outside it.

use super::hooks::{self, Subscription};
use super::interval_map::{Entry, IntervalMap, Key};
use super::stats::{Stats, StatsSnapshot};
use super::uffd_monitor::{Monitor, Queue, QUEUE_CAPACITY};
use super::{Access, Domains, Invalidation, Keys, Mode, PageRange, PinError};
use crate::fabric::memory::slot;
use crate::fabric::shm::domain::ShmDomain;
use crate::fabric::RemoteKey;
use crate::sys::userfaultfd::{Event, WatchMode};
use crate::sys::vmem;
use parking_lot::Mutex;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What the registry is built with (from `RAILMPI_REG_CACHE_MAX`, `RAILMPI_REG_INVALIDATE`).
#[derive(Clone, Copy, Debug)]
pub struct RegistryConfig {
    /// Bytes of registrations kept in all (idle ones are evicted, least recently used
    /// first, to stay under it); 0: no cache, a registration ends with its last handle.
    pub cache_max: usize,
    pub invalidation: Invalidation,
}

#[derive(Debug)]
pub enum RegError {
    /// Zero length, or past the end of the address space.
    BadRange { addr: usize, len: usize },
    /// Part of the range is not mapped.
    NotMapped { addr: usize, len: usize },
    /// The domain refused for another reason.
    Provider(std::io::Error),
    /// The domain has no key left and no idle registration to take one from.
    NoKeys,
}

impl fmt::Display for RegError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegError::BadRange { addr, len } => {
                write!(
                    f,
                    "cannot register {len} bytes at {addr:#x}: empty or out of range"
                )
            }
            RegError::NotMapped { addr, len } => {
                write!(
                    f,
                    "cannot register {len} bytes at {addr:#x}: not mapped memory"
                )
            }
            RegError::Provider(e) => write!(f, "registration failed: {e}"),
            RegError::NoKeys => write!(f, "registration failed: every remote key is in use"),
        }
    }
}

impl std::error::Error for RegError {}

/// How memory under a registration went away (for what must still be undone).
#[derive(Clone, Copy)]
enum Gone {
    /// Unmapped: the kernel unlocked and unwatched it already.
    Unmapped,
    /// Still mapped (pages dropped, or about to be freed): unlock and unwatch it.
    Mapped,
    /// Moved to `to` (+ same offset): the lock and the watch moved with it.
    Moved { from: usize, to: usize },
}

struct State {
    map: IntervalMap,
    /// Bytes pinned: the union of pinned entries (what `VmLck` counts for us).
    pinned: usize,
    /// An event queue (the monitor's or the hooks') is swapped with this one, so neither
    /// side allocates.
    spare: Vec<Event>,
}

struct Inner {
    state: Mutex<State>,
    stats: Stats,
    domains: Domains,
    monitor: Option<Monitor>,
    /// `hooks`: this registry's queue of the interposed calls' events.
    hooks: Option<Subscription>,
    cfg: RegistryConfig,
    page: usize,
    warned_memlock: AtomicBool,
}

/// The registration layer of one process over a rail's memory domain.
#[derive(Clone)]
pub struct Registry {
    inner: Arc<Inner>,
}

/// A registration in force. Dropping it (or `Registry::deregister`) releases it; the cache
/// may keep the memory registered for the next registration of the same pages.
pub struct Registration {
    inner: Arc<Inner>,
    key: Key,
    range: PageRange,
    addr: usize,
    len: usize,
    mode: Mode,
    pinned: bool,
    keys: Keys,
    /// False for `register_uncached`: the entry ends with its last handle.
    cached: bool,
    /// Made by this call, not served by a cached registration.
    fresh: bool,
}

impl Registration {
    /// The address and length asked for.
    pub fn addr(&self) -> usize {
        self.addr
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The pages registered (may be larger: a cached registration covering the request).
    pub fn pages(&self) -> PageRange {
        self.range
    }
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// Whether this registration was made afresh rather than served by the cache. A
    /// cached ODP registration whose memory was not given back since (the cache would
    /// have dropped it) has its pages in place already: no need to prefetch them again.
    pub fn is_fresh(&self) -> bool {
        self.fresh
    }
    /// Whether the pages are pinned (false for ODP, and for pin-down that fell back).
    pub fn is_pinned(&self) -> bool {
        self.pinned
    }
    /// The domains' keys for the pages registered.
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// What a peer reached through the domain in `slot` names this memory by.
    pub fn remote_key(&self, slot: usize) -> RemoteKey {
        self.keys.remote(slot)
    }
    /// False once the memory was given back to the OS while registered (the application
    /// freed a buffer a transfer still uses): the transfer must not touch it.
    pub fn is_valid(&self) -> bool {
        let mut st = self.inner.state.lock();
        self.inner.apply_events(&mut st);
        st.map.get(self.key).is_some()
    }
}

impl fmt::Debug for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Registration({:#x}+{} {:?} pinned={})",
            self.addr, self.len, self.mode, self.pinned
        )
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.inner.release(self.key, self.cached);
    }
}

impl Registry {
    /// A registry over a domain of its own (shm's registration with a private key table:
    /// a process alone, and tests).
    pub fn new(cfg: RegistryConfig) -> Registry {
        Registry::with_domains(cfg, Domains::one(slot::SHM, Arc::new(ShmDomain::private())))
    }

    /// A registry over the rails' memory domains.
    pub fn with_domains(cfg: RegistryConfig, domains: Domains) -> Registry {
        let caching = cfg.cache_max > 0;
        let monitor = match cfg.invalidation {
            Invalidation::Uffd if caching => match Monitor::start() {
                Ok(m) => Some(m),
                Err(e) => {
                    tracing::warn!(
                        "userfaultfd unavailable ({e}): registrations are not cached \
                         (RAILMPI_REG_INVALIDATE=no-trim or hooks would cache them)"
                    );
                    None
                }
            },
            _ => None,
        };
        // `hooks` sees only what the program unmaps itself; malloc's own trimming goes to
        // glibc-internal calls, so malloc is also told to keep its memory (as `no-trim`).
        let keep_malloc_memory = match cfg.invalidation {
            Invalidation::NoTrim => true,
            Invalidation::Hooks => caching,
            Invalidation::Uffd => false,
        };
        if keep_malloc_memory && !vmem::keep_allocator_memory() {
            tracing::warn!("mallopt refused to keep freed memory mapped");
        }
        let hooks = match cfg.invalidation {
            Invalidation::Hooks if caching => {
                let s = hooks::arm();
                if s.is_none() {
                    tracing::warn!(
                        "too many registries listening to the memory hooks: this one does \
                         not cache registrations"
                    );
                }
                s
            }
            _ => None,
        };
        Registry {
            inner: Arc::new(Inner {
                state: Mutex::new(State {
                    map: IntervalMap::default(),
                    pinned: 0,
                    spare: Vec::with_capacity(QUEUE_CAPACITY),
                }),
                stats: Stats::default(),
                domains,
                monitor,
                hooks,
                cfg,
                page: vmem::page_size(),
                warned_memlock: AtomicBool::new(false),
            }),
        }
    }

    /// Whether the kernel's userfaultfd events guard the cache (and in which watch mode).
    pub fn watch_mode(&self) -> Option<WatchMode> {
        self.inner.monitor.as_ref().map(|m| m.mode)
    }

    /// Register `[addr, addr+len)` in `mode`. A cached registration covering it is reused.
    /// Pin-down over the memlock limit evicts cached pins and retries, then registers
    /// without pinning (logged once, counted in `memlock_fallbacks`).
    pub fn register(&self, addr: usize, len: usize, mode: Mode) -> Result<Registration, RegError> {
        self.register_with(addr, len, mode, true)
    }

    /// Register `[addr, addr+len)` bypassing the cache: a fresh registration that no cached
    /// entry stands in for and that is deregistered when its handle drops, whatever
    /// `cache_max` says — the plain pipeline's register/deregister per block (Woodall 2006,
    /// §4), as opposed to the caching pipeline (§5.2).
    pub fn register_uncached(
        &self,
        addr: usize,
        len: usize,
        mode: Mode,
    ) -> Result<Registration, RegError> {
        self.register_with(addr, len, mode, false)
    }

    fn register_with(
        &self,
        addr: usize,
        len: usize,
        mode: Mode,
        cache: bool,
    ) -> Result<Registration, RegError> {
        let inner = &self.inner;
        let range =
            PageRange::covering(addr, len, inner.page).ok_or(RegError::BadRange { addr, len })?;
        inner.stats.registrations(1);
        let mut st = inner.state.lock();
        inner.apply_events(&mut st);
        if cache {
            if let Some(key) = st.map.covering(range, mode) {
                st.map.acquire(key);
                inner.stats.cache_hits(1);
                let e = st.map.get(key).expect("just found");
                return Ok(self.handle(key, e, addr, len, true, false));
            }
            inner.stats.cache_misses(1);
        }
        if !vmem::is_mapped(range.start, range.len()) {
            return Err(RegError::NotMapped { addr, len });
        }
        // Idle entries overlapping the request merge into it; in-use ones stay as they are
        // (entries may overlap; accounting counts the union). An uncached registration
        // leaves the cache alone.
        let mut range = range;
        for key in if cache {
            st.map.intersecting(range)
        } else {
            Vec::new()
        } {
            if st.map.get(key).is_some_and(|e| e.refs == 0) {
                let e = inner
                    .drop_entry(&mut st, key, Gone::Mapped)
                    .expect("listed");
                range = PageRange::new(range.start.min(e.range.start), range.end.max(e.range.end));
            }
        }
        // Room under the byte limit, least recently used first.
        while st.map.bytes() + range.len() > inner.cfg.cache_max {
            let Some(key) = st.map.oldest_idle(|_| true) else {
                break;
            };
            inner.drop_entry(&mut st, key, Gone::Mapped);
            inner.stats.evictions(1);
        }
        let (pinned, keys) = loop {
            match inner.domains.register(range, mode) {
                Ok(k) => break (mode == Mode::Pin, k),
                Err(PinError::NotMapped(e)) => {
                    return Err(match e.raw_os_error() {
                        Some(libc::ENOMEM) | Some(libc::EFAULT) => {
                            RegError::NotMapped { addr, len }
                        }
                        _ => RegError::Provider(e),
                    })
                }
                Err(PinError::Keys) => {
                    // Every key in use: give an idle registration's back and retry.
                    match st.map.oldest_idle(|_| true) {
                        Some(key) => {
                            inner.drop_entry(&mut st, key, Gone::Mapped);
                            inner.stats.evictions(1);
                            continue;
                        }
                        None => return Err(RegError::NoKeys),
                    }
                }
                Err(PinError::Limit(e)) => {
                    // Undo any partial pin, except where other registrations pin.
                    let spans = st.map.uncovered(range, |o| o.pinned);
                    inner.domains.deregister(&Keys::default(), &spans);
                    if let Some(key) = st.map.oldest_idle(|o| o.pinned) {
                        inner.drop_entry(&mut st, key, Gone::Mapped);
                        inner.stats.evictions(1);
                        continue;
                    }
                    inner.stats.memlock_fallbacks(1);
                    if !inner.warned_memlock.swap(true, Ordering::Relaxed) {
                        tracing::warn!(
                            "cannot pin {} bytes ({e}; RLIMIT_MEMLOCK?): registering without \
                             pinning from now on where the limit is reached",
                            range.len()
                        );
                    }
                    match inner.domains.register(range, Mode::Odp) {
                        Ok(k) => break (false, k),
                        Err(PinError::NotMapped(e) | PinError::Limit(e)) => {
                            return Err(RegError::Provider(e))
                        }
                        Err(PinError::Keys) => return Err(RegError::NoKeys),
                    }
                }
            }
        };
        if pinned {
            let new: usize = st
                .map
                .uncovered(range, |o| o.pinned)
                .iter()
                .map(|r| r.len())
                .sum();
            st.pinned += new;
            inner.stats.set_pinned(st.pinned as u64);
        }
        let watched = inner.watch(&st, range, pinned);
        let key = st
            .map
            .insert(Entry::new(range, mode, pinned, watched, keys));
        let e = st.map.get(key).expect("just inserted");
        Ok(self.handle(key, e, addr, len, cache, true))
    }

    fn handle(
        &self,
        key: Key,
        e: &Entry,
        addr: usize,
        len: usize,
        cached: bool,
        fresh: bool,
    ) -> Registration {
        Registration {
            fresh,
            inner: self.inner.clone(),
            key,
            range: e.range,
            addr,
            len,
            mode: e.mode,
            pinned: e.pinned,
            keys: e.key,
            cached,
        }
    }

    /// Release a registration (the same as dropping it).
    pub fn deregister(&self, reg: Registration) {
        drop(reg)
    }

    /// Fault `[addr, addr+len)` in for `access` (ODP's prefetch; harmless on pinned
    /// memory). Returns the pages prefetched.
    pub fn prefetch(&self, addr: usize, len: usize, access: Access) -> Result<usize, RegError> {
        let range = PageRange::covering(addr, len, self.inner.page)
            .ok_or(RegError::BadRange { addr, len })?;
        self.inner
            .domains
            .prefetch(range, access)
            .map_err(|e| match e.raw_os_error() {
                Some(libc::ENOMEM) | Some(libc::EFAULT) => RegError::NotMapped { addr, len },
                _ => RegError::Provider(e),
            })?;
        let pages = range.len() / self.inner.page;
        self.inner.stats.prefetch_calls(1);
        self.inner.stats.prefetch_pages(pages as u64);
        Ok(pages)
    }

    /// Pages of `[addr, addr+len)` not resident: a transfer about to copy it calls this,
    /// and the count goes to the `page_faults` statistic (the analogue of an HCA's ODP
    /// fault counter).
    pub fn count_nonresident(&self, addr: usize, len: usize) -> Result<usize, RegError> {
        let range = PageRange::covering(addr, len, self.inner.page)
            .ok_or(RegError::BadRange { addr, len })?;
        let n = vmem::count_nonresident(range.start, range.len())
            .map_err(|_| RegError::NotMapped { addr, len })?;
        self.inner.stats.page_faults(n as u64);
        Ok(n)
    }

    /// Forget every registration intersecting `[addr, addr+len)`: memory there is about to
    /// be (or was) given back. Usable with any method (the interposed calls of `hooks`
    /// record their events into a queue instead, see `hooks.rs`).
    pub fn invalidate(&self, addr: usize, len: usize) {
        let Some(range) = PageRange::covering(addr, len, self.inner.page) else {
            return;
        };
        let mut st = self.inner.state.lock();
        self.inner.apply_events(&mut st);
        self.inner.invalidate(&mut st, range, Gone::Mapped);
    }

    /// Whether a registration (in use or cached) covers `[addr, addr+len)` now.
    pub fn is_cached(&self, addr: usize, len: usize) -> bool {
        let Some(range) = PageRange::covering(addr, len, self.inner.page) else {
            return false;
        };
        let mut st = self.inner.state.lock();
        self.inner.apply_events(&mut st);
        st.map.covering(range, Mode::Odp).is_some()
    }

    /// Bytes pinned now (after applying pending invalidations).
    pub fn pinned_bytes(&self) -> usize {
        let mut st = self.inner.state.lock();
        self.inner.apply_events(&mut st);
        st.pinned
    }

    /// Bytes of idle registrations the cache keeps.
    pub fn cached_idle_bytes(&self) -> usize {
        let mut st = self.inner.state.lock();
        self.inner.apply_events(&mut st);
        st.map.idle_bytes()
    }

    /// Registrations in force or cached.
    pub fn entries(&self) -> usize {
        let mut st = self.inner.state.lock();
        self.inner.apply_events(&mut st);
        st.map.len()
    }

    pub fn stats(&self) -> StatsSnapshot {
        let mut st = self.inner.state.lock();
        self.inner.apply_events(&mut st);
        drop(st);
        self.inner.stats.snapshot()
    }
}

impl Inner {
    /// Ask the kernel to report when `range` goes away. Missing mode faults on absent
    /// pages, so there only pinned (resident) ranges are watched.
    fn watch(&self, _st: &State, range: PageRange, pinned: bool) -> bool {
        let Some(m) = &self.monitor else { return false };
        if m.mode == WatchMode::Missing && !pinned {
            return false;
        }
        m.uffd.register(range.start, range.len(), m.mode).is_ok()
    }

    fn release(&self, key: Key, cached: bool) {
        self.stats.deregistrations(1);
        let mut st = self.state.lock();
        self.apply_events(&mut st);
        let Some(e) = st.map.get(key) else { return }; // invalidated while in use
        let cacheable = cached
            && self.cfg.cache_max > 0
            && match self.cfg.invalidation {
                Invalidation::Uffd => e.watched,
                Invalidation::Hooks => self.hooks.is_some(),
                Invalidation::NoTrim => true,
            };
        if st.map.release(key) > 0 {
            return;
        }
        if !cacheable {
            self.drop_entry(&mut st, key, Gone::Mapped);
            return;
        }
        while st.map.bytes() > self.cfg.cache_max {
            let Some(k) = st.map.oldest_idle(|_| true) else {
                break;
            };
            self.drop_entry(&mut st, k, Gone::Mapped);
            self.stats.evictions(1);
        }
    }

    /// Apply the events queued since the last call: the userfaultfd monitor's (`uffd`) or
    /// the interposed calls' (`hooks`), the same way.
    fn apply_events(&self, st: &mut State) {
        if let Some(m) = &self.monitor {
            self.drain(st, &m.queue, "userfaultfd");
        }
        if let Some(h) = &self.hooks {
            self.drain(st, h.queue(), "memory hook");
        }
    }

    fn drain(&self, st: &mut State, queue: &Mutex<Queue>, source: &str) {
        let overflow = {
            let mut q = queue.lock();
            if q.events.is_empty() && !q.overflow {
                return;
            }
            std::mem::swap(&mut q.events, &mut st.spare);
            std::mem::take(&mut q.overflow)
        };
        let mut events = std::mem::take(&mut st.spare);
        for ev in events.drain(..) {
            match ev {
                Event::Unmap { start, end } => {
                    self.invalidate(st, PageRange::new(start, end), Gone::Unmapped)
                }
                Event::Remove { start, end } => {
                    self.invalidate(st, PageRange::new(start, end), Gone::Mapped)
                }
                Event::Remap { from, to, len } => self.invalidate(
                    st,
                    PageRange::new(from, from + len),
                    Gone::Moved { from, to },
                ),
                Event::PageFault { addr } => {
                    let at = addr & !(self.page - 1);
                    self.invalidate(st, PageRange::new(at, at + self.page), Gone::Mapped)
                }
                Event::Other(_) => {}
            }
        }
        st.spare = events;
        if overflow {
            tracing::warn!("{source} event queue overflowed: dropping every cached registration");
            let all = PageRange::new(0, usize::MAX & !(self.page - 1));
            self.invalidate(st, all, Gone::Mapped);
        }
    }

    /// Drop every entry intersecting `range`, whose memory went away as `how` says.
    fn invalidate(&self, st: &mut State, range: PageRange, how: Gone) {
        // (Read before unlocking splits the mapping.)
        let moved_end = match how {
            Gone::Moved { to, .. } => vmem::mapping_end(to),
            _ => None,
        };
        let mut unpinned = false;
        for key in st.map.intersecting(range) {
            // Only `range` is known to have gone; the rest of the entry is still mapped.
            if let Some(e) = self.drop_entry_in(st, key, how, range) {
                self.stats.invalidations(1);
                unpinned |= e.pinned;
            }
        }
        // mremap growing locked memory locks the new tail too: unlock it, except where
        // another registration pins, so that the kernel's count stays ours.
        if let (Gone::Moved { to, .. }, true) = (how, unpinned) {
            let tail = to + range.len();
            if let Some(end) = moved_end.filter(|&e| e > tail) {
                let spans = st.map.uncovered(PageRange::new(tail, end), |o| o.pinned);
                self.domains.deregister(&Keys::default(), &spans);
            }
        }
    }

    fn drop_entry(&self, st: &mut State, key: Key, how: Gone) -> Option<Entry> {
        let whole = st.map.get(key)?.range;
        self.drop_entry_in(st, key, how, whole)
    }

    /// Remove entry `key`; `how` tells what happened to the part `gone` of its memory.
    /// Unpins and unwatches exactly the spans no remaining entry needs.
    fn drop_entry_in(&self, st: &mut State, key: Key, how: Gone, gone: PageRange) -> Option<Entry> {
        let e = st.map.remove(key)?;
        // Spans to undo, translated to where their memory now is.
        let relocate = |spans: Vec<PageRange>| -> Vec<PageRange> {
            let mut out = Vec::new();
            for s in spans {
                out.extend(s.minus(gone));
                if let Some(inside) = s.intersect(gone) {
                    match how {
                        Gone::Unmapped => {}
                        Gone::Mapped => out.push(inside),
                        Gone::Moved { from, to } => out.push(PageRange::new(
                            inside.start - from + to,
                            inside.end - from + to,
                        )),
                    }
                }
            }
            out
        };
        if e.pinned {
            let spans = st.map.uncovered(e.range, |o| o.pinned);
            st.pinned -= spans.iter().map(|r| r.len()).sum::<usize>();
            self.stats.set_pinned(st.pinned as u64);
            self.domains.deregister(&e.key, &relocate(spans));
        } else {
            self.domains.deregister(&e.key, &[]);
        }
        if e.watched {
            if let Some(m) = &self.monitor {
                for s in relocate(st.map.uncovered(e.range, |o| o.watched)) {
                    let _ = m.uffd.unregister(s.start, s.len());
                }
            }
        }
        Some(e)
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        let mut st = std::mem::replace(
            &mut *self.state.lock(),
            State {
                map: IntervalMap::default(),
                pinned: 0,
                spare: Vec::new(),
            },
        );
        self.apply_events(&mut st);
        while let Some(key) = st.map.oldest_idle(|_| true) {
            self.drop_entry(&mut st, key, Gone::Mapped);
        }
    }
}

#[cfg(test)]
mod uncached_tests {
    use super::*;

    /// ODP only: pinning here would race the VmLck checks of `registration::tests`.
    #[test]
    fn uncached_registrations_bypass_the_cache() {
        let pg = vmem::page_size();
        let mem = vec![0u8; 10 * pg];
        let p = (mem.as_ptr() as usize).next_multiple_of(pg);
        let reg = Registry::new(RegistryConfig {
            cache_max: 16 * pg,
            invalidation: Invalidation::Hooks,
        });
        // A cached entry exists: an uncached registration neither hits nor merges with it.
        drop(reg.register(p, 2 * pg, Mode::Odp).unwrap());
        let u = reg.register_uncached(p, 4 * pg, Mode::Odp).unwrap();
        assert_eq!(u.pages(), PageRange::new(p, p + 4 * pg));
        assert_eq!(reg.entries(), 2, "a fresh entry beside the cached one");
        assert_eq!(reg.stats().cache_hits, 0);
        drop(u);
        // Deregistered at once; the cached entry stays.
        assert_eq!(reg.entries(), 1);
        assert!(reg.is_cached(p, 2 * pg) && !reg.is_cached(p, 3 * pg));
        drop(reg.register_uncached(p + 4 * pg, pg, Mode::Odp).unwrap());
        assert_eq!(reg.entries(), 1);
        // A cached registration may share an in-use uncached entry; it ends cached.
        let u = reg
            .register_uncached(p + 6 * pg, 2 * pg, Mode::Odp)
            .unwrap();
        let c = reg.register(p + 6 * pg, pg, Mode::Odp).unwrap();
        assert_eq!(reg.stats().cache_hits, 1);
        drop(c);
        drop(u);
        assert_eq!(
            reg.entries(),
            1,
            "the shared entry went with its uncached owner"
        );
        let st = reg.stats();
        assert_eq!(st.registrations, st.deregistrations);
    }
}
