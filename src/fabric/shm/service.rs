//! The shm rail's service queues (`fabric::Service`): one single-producer ring of request
//! slots per ordered pair of ranks in the job's segment, apart from the message rings.
//!
//! A queue holds `posted` (written by its origin, on a cache line of its own), `done`
//! (written by the target's service thread) and `SLOTS` request slots. The origin copies a
//! request into slot `posted % SLOTS`, publishes `posted + 1` with a release store, counts
//! it in the target's block (`requests`) and rings the target's service doorbell. The
//! service copies each request out before handing it up, so what the origin writes
//! afterwards cannot change a request under the parser, and never trusts `posted` for
//! more than `SLOTS` requests at once.

use super::access::PeerAccess;
use super::layout::{RankBlock, SegmentLayout};
use crate::fabric::service::{Server, Service, REQUEST};
use crate::fabric::{Doorbell, RailError, Transfer};
use crate::sys::memfd::SharedMemory;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Requests one origin may have queued at one target at once.
pub const SLOTS: usize = 32;
/// `posted` and `done` on lines of their own, then the slots.
const HEADER: usize = 128;
pub const QUEUE_BYTES: usize = HEADER + SLOTS * REQUEST;

/// One queue, mapped.
#[derive(Clone, Copy)]
struct Queue {
    base: *mut u8,
}

impl Queue {
    fn posted(&self) -> &AtomicU64 {
        // SAFETY: the queue holds QUEUE_BYTES inside the mapped segment (layout), its
        // header is 64-aligned, and processes touch these words only atomically.
        unsafe { AtomicU64::from_ptr(self.base as *mut u64) }
    }

    fn done(&self) -> &AtomicU64 {
        // SAFETY: as for `posted`, 64 bytes further.
        unsafe { AtomicU64::from_ptr(self.base.add(64) as *mut u64) }
    }

    fn slot(&self, seq: u64) -> *mut u8 {
        // SAFETY: slot `seq % SLOTS` lies inside the queue.
        unsafe { self.base.add(HEADER + (seq as usize % SLOTS) * REQUEST) }
    }
}

pub struct ShmService {
    me: usize,
    n: usize,
    lay: SegmentLayout,
    base: *mut u8,
    access: Arc<PeerAccess>,
    /// Our side of our queue to each target: requests queued so far.
    posted: Mutex<Vec<u64>>,
    /// The service thread's side of each origin's queue to us: requests served so far.
    served: Mutex<Vec<u64>>,
    /// Requests served in all (compared with our block's `requests` by `pending`).
    served_total: AtomicU64,
    _segment: Arc<SharedMemory>,
}

// SAFETY: `base` points into the segment this value keeps mapped; the shared words are
// touched only atomically, a slot only by its queue's one writer before it publishes
// `posted` (under `posted`'s lock here) and by the one service thread after.
unsafe impl Send for ShmService {}
unsafe impl Sync for ShmService {}

impl ShmService {
    /// # Safety
    /// `lay` was validated against `segment`'s mapping.
    pub unsafe fn new(
        segment: Arc<SharedMemory>,
        lay: SegmentLayout,
        me: usize,
        access: Arc<PeerAccess>,
    ) -> Self {
        let n = lay.nranks;
        ShmService {
            me,
            n,
            lay,
            base: segment.as_ptr(),
            access,
            posted: Mutex::new(vec![0; n]),
            served: Mutex::new(vec![0; n]),
            served_total: AtomicU64::new(0),
            _segment: segment,
        }
    }

    fn queue(&self, from: usize, to: usize) -> Queue {
        assert!(from < self.n && to < self.n);
        // SAFETY: both ranks are in the layout, validated against the mapping we keep.
        Queue {
            base: unsafe { self.lay.service_queue(self.base, from, to) },
        }
    }

    fn block(&self, r: usize) -> &RankBlock {
        assert!(r < self.n);
        // SAFETY: as for `queue`.
        unsafe { &*self.lay.rank_block(self.base, r) }
    }

    fn bell(&self, r: usize) -> Doorbell {
        // SAFETY: the words live in the segment, which we keep mapped as long as any copy
        // of the handle is used by our service thread or our origins.
        unsafe { Doorbell::new(&self.block(r).service_bell) }
    }
}

impl Service for ShmService {
    fn try_request(&self, peer: usize, req: &[u8]) -> Option<u64> {
        assert!(req.len() <= REQUEST, "a request of {} bytes", req.len());
        if peer >= self.n {
            return None;
        }
        let q = self.queue(self.me, peer);
        let ticket = {
            let mut posted = self.posted.lock();
            let seq = posted[peer];
            if seq - q.done().load(Ordering::Acquire) >= SLOTS as u64 {
                return None;
            }
            let mut raw = [0u8; REQUEST];
            raw[..req.len()].copy_from_slice(req);
            // SAFETY: the slot is ours to write: its last request was served (checked
            // above), and the service reads it only after `posted` passes `seq`.
            unsafe { std::ptr::copy_nonoverlapping(raw.as_ptr(), q.slot(seq), REQUEST) };
            q.posted().store(seq + 1, Ordering::Release);
            posted[peer] = seq + 1;
            seq + 1
        };
        self.block(peer).requests.fetch_add(1, Ordering::Release);
        self.bell(peer).ring();
        Some(ticket)
    }

    fn served(&self, peer: usize, ticket: u64) -> bool {
        peer < self.n && self.queue(self.me, peer).done().load(Ordering::Acquire) >= ticket
    }

    fn serve(&self, f: &mut Server<'_>) -> usize {
        let mut served = self.served.lock();
        let mut n = 0;
        for origin in 0..self.n {
            let q = self.queue(origin, self.me);
            let posted = q.posted().load(Ordering::Acquire);
            // The origin's word is untrusted: never more than a full queue at once.
            let upto = served[origin] + posted.saturating_sub(served[origin]).min(SLOTS as u64);
            while served[origin] < upto {
                let seq = served[origin];
                let mut raw = [0u8; REQUEST];
                // SAFETY: a posted slot: its writer finished it before publishing `posted`
                // and does not reuse it until `done` passes it.
                unsafe { std::ptr::copy_nonoverlapping(q.slot(seq), raw.as_mut_ptr(), REQUEST) };
                // No answers here: results travel by `access` (one copy on one node).
                let _ = f(origin, &raw);
                served[origin] = seq + 1;
                q.done().store(seq + 1, Ordering::Release);
                n += 1;
            }
        }
        self.served_total.fetch_add(n as u64, Ordering::Relaxed);
        n
    }

    fn pending(&self) -> bool {
        self.block(self.me).requests.load(Ordering::Relaxed)
            != self.served_total.load(Ordering::Relaxed)
    }

    fn wait_handle(&self) -> Doorbell {
        self.bell(self.me)
    }

    unsafe fn access(&self, t: &Transfer<'_>) -> Result<(), RailError> {
        // SAFETY: the caller's contract on `local`.
        unsafe {
            self.access.transfer(
                t.op,
                t.peer,
                t.local,
                t.remote,
                t.rkey(crate::fabric::slot::SHM),
            )
        }
    }
}
