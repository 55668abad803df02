//! Keyed access to peers' memory on one node: a transfer first checks the peer's key in
//! its table in the job's segment (`keys.rs`), then Cross Memory Attach moves the bytes.
//! Shared by the rail's posted operations and the service thread's accesses (`service.rs`).

use super::keys::{self, KeySlot};
use crate::fabric::{RailError, RdmaOp, RemoteKey, Span};
use crate::sys::cma::{self, Direction, RemoteRange};
use crate::sys::memfd::SharedMemory;
use std::sync::Arc;

pub struct PeerAccess {
    me: usize,
    pids: Vec<i32>,
    /// Every rank's key table, in the segment.
    key_tables: Vec<*const KeySlot>,
    _segment: Arc<SharedMemory>,
}

// SAFETY: the key-table pointers point into the segment this value keeps mapped
// (`_segment`) and are read only through atomics; the rest is owned, immutable data.
unsafe impl Send for PeerAccess {}
unsafe impl Sync for PeerAccess {}

impl PeerAccess {
    /// # Safety
    /// Every table pointer points to `KEY_SLOTS` slots inside `segment`.
    pub unsafe fn new(
        me: usize,
        pids: Vec<i32>,
        key_tables: Vec<*const KeySlot>,
        segment: Arc<SharedMemory>,
    ) -> Self {
        PeerAccess {
            me,
            pids,
            key_tables,
            _segment: segment,
        }
    }

    pub fn peers(&self) -> usize {
        self.pids.len()
    }

    /// The process id of each local rank, in local order.
    pub fn pids(&self) -> &[i32] {
        &self.pids
    }

    /// Check `rkey` at `peer` for the rights `op` needs over `remote`, then move the bytes
    /// with CMA.
    ///
    /// # Safety
    /// The local spans are valid for `op` (writable for a read, readable for a write).
    pub unsafe fn transfer(
        &self,
        op: RdmaOp,
        peer: usize,
        local: &[Span],
        remote: &[Span],
        rkey: RemoteKey,
    ) -> Result<(), RailError> {
        let pid = *self.pids.get(peer).ok_or(RailError::NoSuchPeer(peer))?;
        // SAFETY: the peer's table lies in the segment we keep mapped.
        unsafe {
            keys::check(
                self.key_tables[peer],
                rkey,
                remote.iter().map(|s| (s.addr, s.len)),
                keys::right_for(op),
            )
        }
        .map_err(RailError::Key)?;
        if peer == self.me {
            // Loopback (a helper serving its own process): the key was checked like any
            // other; both sides are our own memory.
            let total = |v: &[Span]| v.iter().map(|s| s.len).sum::<u64>();
            if total(local) != total(remote) {
                return Err(RailError::Access(std::io::Error::other(
                    "local and remote lengths differ",
                )));
            }
            // SAFETY: the remote spans are registered memory of this process (key checked
            // with the rights `op` needs); the local ones are valid by the caller's contract.
            unsafe {
                match op {
                    RdmaOp::Read => copy_spans(remote, local),
                    RdmaOp::Write => copy_spans(local, remote),
                }
            }
            return Ok(());
        }
        let res = match (local, remote) {
            // One range each side: no vectors to build.
            ([l], [r]) if l.len == r.len => {
                let len = l.len as usize;
                match op {
                    // SAFETY: the caller's contract on `local`.
                    RdmaOp::Read => cma::read(
                        pid,
                        unsafe { std::slice::from_raw_parts_mut(l.addr as *mut u8, len) },
                        r.addr,
                    ),
                    // SAFETY: as above.
                    RdmaOp::Write => cma::write(
                        pid,
                        unsafe { std::slice::from_raw_parts(l.addr as *const u8, len) },
                        r.addr,
                    ),
                }
            }
            _ => {
                let l: Vec<(usize, usize)> = local
                    .iter()
                    .map(|s| (s.addr as usize, s.len as usize))
                    .collect();
                let r: Vec<RemoteRange> = remote
                    .iter()
                    .map(|s| RemoteRange {
                        addr: s.addr,
                        len: s.len as usize,
                    })
                    .collect();
                let dir = match op {
                    RdmaOp::Read => Direction::Read,
                    RdmaOp::Write => Direction::Write,
                };
                // SAFETY: the caller's contract on `local`.
                unsafe { cma::transfer_vectored(dir, pid, &l, &r) }
            }
        };
        res.map_err(RailError::Access)
    }
}

/// Copies the bytes of the `from` spans into the `to` spans, in order (equal totals).
///
/// # Safety
/// Every span is valid memory of this process: `from` readable, `to` writable.
unsafe fn copy_spans(from: &[Span], to: &[Span]) {
    let (mut i, mut io, mut j, mut jo) = (0, 0u64, 0, 0u64);
    while i < from.len() && j < to.len() {
        let n = (from[i].len - io).min(to[j].len - jo);
        // SAFETY: the caller's contract; `n` stays inside both current spans.
        unsafe {
            std::ptr::copy(
                (from[i].addr + io) as *const u8,
                (to[j].addr + jo) as *mut u8,
                n as usize,
            )
        };
        io += n;
        jo += n;
        if io == from[i].len {
            i += 1;
            io = 0;
        }
        if jo == to[j].len {
            j += 1;
            jo = 0;
        }
    }
}
