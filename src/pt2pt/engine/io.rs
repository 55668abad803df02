//! The engine's actions: everything it asks of the world goes through `Io` — send this
//! message, post this RDMA read or write with this key, register this range, prefetch that
//! one. The engine itself never touches a rail, a registration cache or a syscall (compare
//! quinn-proto: events in, transmits out). The runtime's progress loop carries the actions
//! out with `ChannelIo` (the channels and the registration cache); the engine tests carry
//! them between two engines themselves.
//!
//! Calls, not a queue of action values: the eager fast path hands the user's buffer to the
//! channel without a copy or an allocation, and a registration's key is needed at once (it
//! goes into the RTS being built), as `ibv_reg_mr` gives it.

use crate::channel::Channels;
use crate::fabric::{RailError, SlotSet, Span, Transfer};
use crate::registration::{Access, Mode, RegError, Registration, Registry};

/// What the engine can ask for. Generic (monomorphised), so the fast paths pay no dynamic
/// dispatch.
pub trait Io {
    /// Send one message to `peer`, gathered from `parts`; false: no room now (the engine
    /// keeps it queued and tries again at the next flush).
    fn send(&mut self, peer: usize, parts: &[&[u8]]) -> bool;

    /// Post RDMA transfer `t`; its completion comes back to `Pt2pt::on_completion` with
    /// `t.token`. An error: refused at once (nothing posted).
    ///
    /// # Safety
    /// The local spans must stay valid until the completion (readable and unchanged for a
    /// write; writable and untouched by others for a read).
    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError>;

    /// The domain slots of the rails that reach `peer`: which of a registration's keys
    /// that peer is given (one per slot, so each of its subchannels finds its own).
    fn key_slots(&self, peer: usize) -> SlotSet;

    /// The registration cache that keys memory for the peers (None: the job registers
    /// nothing). The registration actions below go to it.
    fn registry(&self) -> Option<&Registry>;

    /// Whether memory can be registered here at all (false: payloads go unkeyed, streamed).
    fn registers(&self) -> bool {
        self.registry().is_some()
    }

    /// Register `[addr, addr + len)` in `mode`, through the cache (`cached`) or for this
    /// transfer alone. The registration is released when the handle drops.
    fn register(
        &mut self,
        addr: usize,
        len: usize,
        mode: Mode,
        cached: bool,
    ) -> Result<Registration, RegError> {
        let Some(registry) = self.registry() else {
            return Err(RegError::Provider(std::io::Error::from(
                std::io::ErrorKind::Unsupported,
            )));
        };
        if cached {
            registry.register(addr, len, mode)
        } else {
            registry.register_uncached(addr, len, mode)
        }
    }

    /// Whether the cache holds a registration covering the range.
    fn is_cached(&self, addr: usize, len: usize) -> bool {
        self.registry().is_some_and(|r| r.is_cached(addr, len))
    }

    /// Fault a range in ahead of a transfer (ODP prefetch, Li 2016 §VII); best effort.
    fn prefetch(&mut self, addr: usize, len: usize, access: Access) {
        if let Some(registry) = self.registry() {
            let _ = registry.prefetch(addr, len, access);
        }
    }
}

/// The progress loop's `Io`: messages and posted operations to the channels, registrations
/// and prefetches to the registration cache (where the job registers at all).
pub struct ChannelIo<'a> {
    pub ch: &'a mut Channels,
    pub registry: Option<&'a Registry>,
    /// Count the pages each RDMA transfer's local side finds not resident (a `mincore`
    /// per transfer; RAILMPI_STATS).
    pub count_faults: bool,
}

impl ChannelIo<'_> {
    /// Note how many pages of the local side a transfer is about to fault in.
    fn count(&self, local: &[Span]) {
        if let (true, Some(registry), Some(first)) =
            (self.count_faults, self.registry, local.first())
        {
            let lo = local.iter().map(|s| s.addr).min().unwrap_or(first.addr);
            let hi = local.iter().map(|s| s.addr + s.len).max().unwrap_or(lo);
            if hi > lo {
                let _ = registry.count_nonresident(lo as usize, (hi - lo) as usize);
            }
        }
    }
}

impl Io for ChannelIo<'_> {
    // Always: the eager fast path is this call, straight into the channel (a call frame
    // here measured 14 instructions more per send).
    #[inline(always)]
    fn send(&mut self, peer: usize, parts: &[&[u8]]) -> bool {
        self.ch.try_send(peer, parts)
    }

    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError> {
        self.count(t.local);
        // SAFETY: the caller's contract.
        unsafe { self.ch.post(t) }
    }

    fn key_slots(&self, peer: usize) -> SlotSet {
        self.ch.key_slots(peer)
    }

    fn registry(&self) -> Option<&Registry> {
        self.registry
    }
}
