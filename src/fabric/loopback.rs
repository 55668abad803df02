//! A rail that reaches no one. The `self` provider: a process alone (singleton), whose
//! messages to itself never reach a rail (the protocol engine handles them). And what
//! stands in a channel's rail slot once that rail was closed while the process goes on (a
//! link to another job, after MPI_Comm_disconnect): rail indices stay put, the closed
//! rail's threads, sockets and buffers are gone, and nothing reaches its peers any more.

use super::shm::domain::ShmDomain;
use super::{
    AnyRail, AtomicOp, Doorbell, MemoryDomain, Rail, RailCaps, RailError, RailEvent, RemoteKey,
    Transfer,
};
use std::sync::Arc;

pub struct LoopbackRail {
    caps: RailCaps,
    peers: usize,
    memory: Arc<dyn MemoryDomain>,
    wait: Doorbell,
}

impl LoopbackRail {
    /// Takes `slot`'s place: returns the rail that was there, for the caller to close
    /// (outside any lock: closing waits, bounded, for the peers' goodbyes) and drop.
    pub fn replace(slot: &mut AnyRail) -> AnyRail {
        let closed = LoopbackRail {
            caps: slot.caps().clone(),
            peers: slot.peers(),
            memory: slot.memory(),
            wait: slot.wait_handle(),
        };
        std::mem::replace(slot, AnyRail::Dyn(Box::new(closed)))
    }
}

impl Default for LoopbackRail {
    fn default() -> Self {
        Self {
            caps: RailCaps {
                name: "self",
                slot: super::slot::SHM,
                max_message: 64 * 1024,
                max_inline: 64 * 1024,
                read_bounce: 0,
                max_sge: 0,
                rdma_read: false,
                rdma_write: false,
                atomics: false,
                odp: true,
                mapped: false,
                bandwidth: 0,
                latency_ns: 0,
                min_rdma_run: 0,
                min_stripe: 4096,
                local_keys: false,
                split_rendezvous: true,
                write_notify: false,
                progress_thread: false,
                eager_limit: 0,
            },
            peers: 1,
            memory: Arc::new(ShmDomain::private()),
            wait: Doorbell::local(),
        }
    }
}

impl Rail for LoopbackRail {
    fn caps(&self) -> &RailCaps {
        &self.caps
    }
    fn peers(&self) -> usize {
        self.peers
    }
    fn memory(&self) -> Arc<dyn MemoryDomain> {
        self.memory.clone()
    }
    fn wait_handle(&self) -> Doorbell {
        self.wait
    }
    /// No one to reach (the caller made sure no one is asked): a message is dropped rather
    /// than left to wait for room forever.
    fn try_send(&mut self, peer: usize, _imm: u32, _parts: &[&[u8]]) -> bool {
        tracing::debug!(peer, "a message to no one dropped");
        true
    }
    fn poll(&mut self, _sink: &mut dyn FnMut(RailEvent<'_>)) -> usize {
        0
    }
    fn has_completions(&self) -> bool {
        false
    }
    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError> {
        Err(RailError::NoSuchPeer(t.peer))
    }
    fn post_atomic(
        &mut self,
        peer: usize,
        _op: AtomicOp,
        _remote: u64,
        _rkey: RemoteKey,
        _token: u64,
    ) -> Result<(), RailError> {
        Err(RailError::NoSuchPeer(peer))
    }
}
