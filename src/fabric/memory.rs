//! Memory a rail can reach: page ranges, registration modes, the keys a registration yields,
//! and the memory domain a rail registers through (compare UCX's `uct_md_mem_reg`, verbs'
//! `ibv_reg_mr`). The registration layer above (cache, accounting, invalidation) calls a
//! rail's domain; the domain only pins, keys and prefetches.

/// The copy the rails move small payloads with, for the layers above that copy messages.
pub use crate::sys::copy::copy_disjoint;
pub use crate::sys::vmem::Access;
use std::io;

/// How one registration makes its memory reachable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Pages pinned for the registration's life: a transfer never faults.
    Pin,
    /// On-demand paging: nothing pinned; pages fault in when touched (or when prefetched).
    Odp,
}

/// A page-aligned address range `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PageRange {
    pub start: usize,
    pub end: usize,
}

impl PageRange {
    pub fn new(start: usize, end: usize) -> PageRange {
        debug_assert!(start <= end);
        PageRange { start, end }
    }

    /// The pages `[addr, addr+len)` touches; None if empty or past the address space.
    pub fn covering(addr: usize, len: usize, page: usize) -> Option<PageRange> {
        let end = addr.checked_add(len)?.checked_add(page - 1)? & !(page - 1);
        (len > 0).then(|| PageRange::new(addr & !(page - 1), end))
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    pub fn intersect(&self, o: PageRange) -> Option<PageRange> {
        let (s, e) = (self.start.max(o.start), self.end.min(o.end));
        (s < e).then(|| PageRange::new(s, e))
    }

    /// The parts of `self` outside `o` (zero, one or two ranges).
    pub fn minus(&self, o: PageRange) -> impl Iterator<Item = PageRange> {
        let left = PageRange::new(self.start, o.start.clamp(self.start, self.end));
        let right = PageRange::new(o.end.clamp(self.start, self.end), self.end);
        [left, right].into_iter().filter(|r| !r.is_empty())
    }
}

/// What a peer names registered memory by (verbs: the rkey; shm: slot and generation in
/// the owner's key table). Opaque to everything above fabric; 0 is never a valid key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RemoteKey(pub u64);

impl RemoteKey {
    /// No key: the memory is not registered (a peer must not place data there).
    pub const NONE: RemoteKey = RemoteKey(0);

    pub fn is_none(self) -> bool {
        self == RemoteKey::NONE
    }
}

/// The keys of one registration: `local` for the domain itself (verbs: the lkey), `remote`
/// to hand to peers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemKey {
    pub local: u64,
    pub remote: RemoteKey,
}

/// Why a domain could not register.
#[derive(Debug)]
pub enum PinError {
    /// A resource limit (shm: `RLIMIT_MEMLOCK`): the registry evicts and retries, then
    /// registers without pinning.
    Limit(io::Error),
    /// The domain has no key left (every slot of its key table in use): the registry evicts
    /// an idle registration and retries.
    Keys,
    /// The range is not mapped (or not accessible).
    NotMapped(io::Error),
}

/// A rail's memory domain: what it does to make memory reachable. Shared by the rail and
/// the registration layer (and by threads such as the RMA helper), hence `Sync`.
pub trait MemoryDomain: Send + Sync {
    /// Register `range` in `mode` (pin it for `Mode::Pin`) and key it for remote access
    /// (read and write). Overlapping calls may happen; the registry tracks which spans it
    /// still needs pinned.
    fn register(&self, range: PageRange, mode: Mode) -> Result<MemKey, PinError>;
    /// Release the registration `key` (its remote key stops working at once); `unpin`
    /// lists the spans no other registration still pins. `key` may be `MemKey::default()`
    /// when only a partial pin is undone.
    fn deregister(&self, key: MemKey, unpin: &[PageRange]);
    /// Fault `range` in for `access` ahead of a transfer (ODP's prefetch).
    fn prefetch(&self, range: PageRange, access: Access) -> io::Result<()>;
}
