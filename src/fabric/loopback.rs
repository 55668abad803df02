//! The `self` provider: a process alone (singleton, or the only rank on its node). It has no
//! peers to message; reads and writes are local copies.

use super::{Rail, RailCaps, RailError};

pub struct LoopbackRail {
    caps: RailCaps,
}

impl Default for LoopbackRail {
    fn default() -> Self {
        Self {
            caps: RailCaps {
                name: "self",
                max_message: 64 * 1024,
                rdma: true,
            },
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
    fn try_send(&mut self, _peer: usize, _parts: &[&[u8]]) -> bool {
        false
    }
    fn poll(&mut self, _sink: &mut dyn FnMut(usize, &[u8])) -> usize {
        0
    }
    fn read(&mut self, peer: usize, _local: &mut [u8], _remote: u64) -> Result<(), RailError> {
        Err(RailError::NoSuchPeer(peer))
    }
    fn write(&mut self, peer: usize, _local: &[u8], _remote: u64) -> Result<(), RailError> {
        Err(RailError::NoSuchPeer(peer))
    }
}
