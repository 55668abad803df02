//! The `self` provider: a process alone (singleton). It has no peers to message or reach;
//! messages to itself never reach a rail (the protocol engine handles them).

use super::shm::domain::ShmDomain;
use super::{
    AtomicOp, Doorbell, MemoryDomain, Rail, RailCaps, RailError, RailEvent, RemoteKey, Transfer,
};
use std::sync::Arc;

pub struct LoopbackRail {
    caps: RailCaps,
    memory: Arc<ShmDomain>,
    wait: Doorbell,
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
        1
    }
    fn memory(&self) -> Arc<dyn MemoryDomain> {
        self.memory.clone()
    }
    fn wait_handle(&self) -> Doorbell {
        self.wait
    }
    fn try_send(&mut self, _peer: usize, _imm: u32, _parts: &[&[u8]]) -> bool {
        false
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
