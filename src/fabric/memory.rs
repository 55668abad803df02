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

/// Where a domain's keys sit in a registration's `Keys`: one slot per kind of memory domain,
/// the same in every process, so a key advertised for a slot means the same domain at both
/// ends (rails pair up by kind and index: shm with shm, tcp with tcp, verbs port i with
/// verbs port i).
pub mod slot {
    /// The shm rail's key table (in the job's segment).
    pub const SHM: usize = 0;
    /// The tcp rail's own key table.
    pub const TCP: usize = 1;
    /// Verbs port `i`'s protection domain: `VERBS + i`.
    pub const VERBS: usize = 2;
    /// Slots in all (verbs ports past `COUNT - VERBS` are not used).
    pub const COUNT: usize = 6;
}

/// The keys one registration has in each domain of the process (`MemKey::default()` in a
/// slot whose domain did not register it). Rails take their own slot's key: local keys
/// for the transfers they post, remote keys to advertise to the peers they reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys(pub [MemKey; slot::COUNT]);

impl Keys {
    pub fn get(&self, slot: usize) -> MemKey {
        self.0.get(slot).copied().unwrap_or_default()
    }

    pub fn remote(&self, slot: usize) -> RemoteKey {
        self.get(slot).remote
    }

    /// Every slot's remote key (what a window advertises to all its ranks at once, and a
    /// rendezvous the slots of the rails to its peer).
    pub fn remotes(&self) -> RemoteKeys {
        RemoteKeys(self.0.map(|k| k.remote))
    }
}

/// A set of domain slots (bit `i`: slot `i`): the domains of the rails that reach a peer,
/// whose keys it is given (one per subchannel kind: verbs ports 0 and 1, or tcp and verbs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotSet(u8);

impl SlotSet {
    pub fn one(slot: usize) -> SlotSet {
        debug_assert!(slot < slot::COUNT);
        SlotSet(1 << slot)
    }

    pub fn with(self, slot: usize) -> SlotSet {
        SlotSet(self.0 | SlotSet::one(slot).0)
    }

    /// From its wire byte; None when it names a slot past `slot::COUNT` (a forged packet).
    pub fn from_bits(bits: u8) -> Option<SlotSet> {
        (u32::from(bits) >> slot::COUNT == 0).then_some(SlotSet(bits))
    }

    pub fn bits(self) -> u8 {
        self.0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The slots, lowest first.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..slot::COUNT).filter(move |s| self.0 >> s & 1 != 0)
    }
}

/// A registration's remote keys, per domain slot (exchanged where every rank gets the same
/// record, e.g. a window's: each reader takes the slot of the rail that reaches the owner;
/// or, in a rendezvous, the slots of the rails to one peer: `put`/`take`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RemoteKeys(pub [RemoteKey; slot::COUNT]);

impl RemoteKeys {
    pub const NONE: RemoteKeys = RemoteKeys([RemoteKey::NONE; slot::COUNT]);
    /// Bytes on the wire.
    pub const LEN: usize = 8 * slot::COUNT;

    /// `key` in `slot`, no key in the others.
    pub fn one(slot: usize, key: RemoteKey) -> RemoteKeys {
        let mut k = RemoteKeys::NONE;
        if let Some(s) = k.0.get_mut(slot) {
            *s = key;
        }
        k
    }

    pub fn get(&self, slot: usize) -> RemoteKey {
        self.0.get(slot).copied().unwrap_or_default()
    }

    /// `key` in every slot: a key already chosen for the one rail that will use it (the
    /// RMA helper's requests name origin memory for the route they came by).
    pub fn all(key: RemoteKey) -> RemoteKeys {
        RemoteKeys([key; slot::COUNT])
    }

    /// No key in any slot: the memory is not registered.
    pub fn is_none(&self) -> bool {
        self.0.iter().all(|k| k.is_none())
    }

    /// The keys of `slots`, 8 bytes each in slot order, into the front of `b` (which must
    /// hold them); returns the bytes written.
    pub fn put(&self, slots: SlotSet, b: &mut [u8]) -> usize {
        for (c, s) in b.chunks_exact_mut(8).zip(slots.iter()) {
            c.copy_from_slice(&self.0[s].0.to_le_bytes());
        }
        8 * slots.len()
    }

    /// The keys of `slots` from the front of `b` as `put` wrote them (the other slots have
    /// none); None when `b` is too short.
    pub fn take(slots: SlotSet, b: &[u8]) -> Option<RemoteKeys> {
        let b = b.get(..8 * slots.len())?;
        let mut k = RemoteKeys::NONE;
        for (c, s) in b.chunks_exact(8).zip(slots.iter()) {
            k.0[s] = RemoteKey(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        Some(k)
    }

    pub fn encode(&self) -> [u8; Self::LEN] {
        let mut b = [0u8; Self::LEN];
        for (c, k) in b.chunks_exact_mut(8).zip(self.0) {
            c.copy_from_slice(&k.0.to_le_bytes());
        }
        b
    }

    /// From `LEN` bytes (a shorter slice yields no keys).
    pub fn decode(b: &[u8]) -> RemoteKeys {
        let mut k = RemoteKeys::NONE;
        if b.len() >= Self::LEN {
            for (i, c) in b[..Self::LEN].chunks_exact(8).enumerate() {
                k.0[i] = RemoteKey(u64::from_le_bytes(c.try_into().expect("8 bytes")));
            }
        }
        k
    }
}

/// The memory domains of a process's rails, one per slot in use: a registration is made
/// in each (so each rail finds its own keys in it), released in each, prefetched once.
#[derive(Clone, Default)]
pub struct Domains {
    list: Vec<(usize, std::sync::Arc<dyn MemoryDomain>)>,
}

impl Domains {
    /// Domains by slot (the first registered pins; the others key the same pages, and
    /// pinning twice is harmless: locks do not nest).
    pub fn new(list: Vec<(usize, std::sync::Arc<dyn MemoryDomain>)>) -> Domains {
        debug_assert!(list.iter().all(|(s, _)| *s < slot::COUNT));
        Domains { list }
    }

    /// One domain in `slot` (a process alone, tests).
    pub fn one(slot: usize, d: std::sync::Arc<dyn MemoryDomain>) -> Domains {
        Domains::new(vec![(slot, d)])
    }

    /// The slots in use.
    pub fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        self.list.iter().map(|(s, _)| *s)
    }

    /// The domain in `slot`.
    pub fn get(&self, slot: usize) -> Option<&std::sync::Arc<dyn MemoryDomain>> {
        self.list.iter().find(|(s, _)| *s == slot).map(|(_, d)| d)
    }

    /// Register `range` in every domain; on a failure the ones made are released (the
    /// registry unlocks any pinned prefix, as for a single domain).
    pub fn register(&self, range: PageRange, mode: Mode) -> Result<Keys, PinError> {
        let mut keys = Keys::default();
        for (i, (s, d)) in self.list.iter().enumerate() {
            match d.register(range, mode) {
                Ok(k) => keys.0[*s] = k,
                Err(e) => {
                    for (s, d) in &self.list[..i] {
                        d.deregister(keys.0[*s], &[]);
                    }
                    return Err(e);
                }
            }
        }
        Ok(keys)
    }

    /// Release `keys` in every domain; `unpin` as for `MemoryDomain::deregister`.
    pub fn deregister(&self, keys: &Keys, unpin: &[PageRange]) {
        for (s, d) in &self.list {
            d.deregister(keys.0[*s], unpin);
        }
    }

    /// Fault `range` in (`MemoryDomain::prefetch`) in every domain: each adapter maps the
    /// pages for itself.
    pub fn prefetch(&self, range: PageRange, access: Access) -> io::Result<()> {
        for (_, d) in &self.list {
            d.prefetch(range, access)?;
        }
        Ok(())
    }
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
