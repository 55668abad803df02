//! An in-process rail for the channel layer's tests: every endpoint lives in this one
//! process, messages wait in per-destination queues, and RDMA is a plain copy — after the
//! same key check the shm rail makes against the target's key table (each endpoint
//! registers through its own `ShmDomain`), so forged or stale keys fail here as they do
//! between processes. (`checked_copy` also serves the engine tests' action carrier.)

use super::shm::domain::ShmDomain;
use super::shm::keys;
use super::{
    AtomicOp, Completion, Doorbell, MemoryDomain, Rail, RailCaps, RailError, RailEvent, RdmaOp,
    RemoteKey, Span, Transfer,
};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

struct Net {
    /// Messages for endpoint `i`, with their source.
    queues: Vec<VecDeque<(usize, u32, Vec<u8>)>>,
}

/// One endpoint of an in-process network of `n`.
pub struct InprocRail {
    caps: RailCaps,
    me: usize,
    net: Rc<RefCell<Net>>,
    domains: Vec<Arc<ShmDomain>>,
    done: VecDeque<Completion>,
    wait: Doorbell,
}

// SAFETY: tests drive every endpoint from one thread.
unsafe impl Send for InprocRail {}

/// `n` connected endpoints whose messages hold at most `max_message` bytes.
pub fn network(n: usize, max_message: usize) -> Vec<InprocRail> {
    let net = Rc::new(RefCell::new(Net {
        queues: (0..n).map(|_| VecDeque::new()).collect(),
    }));
    let domains: Vec<Arc<ShmDomain>> = (0..n).map(|_| Arc::new(ShmDomain::private())).collect();
    (0..n)
        .map(|me| InprocRail {
            caps: RailCaps {
                name: "inproc",
                slot: super::slot::SHM,
                max_message,
                max_inline: max_message,
                read_bounce: 0,
                max_sge: usize::MAX,
                rdma_read: true,
                rdma_write: true,
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
            me,
            net: net.clone(),
            domains: domains.clone(),
            done: VecDeque::new(),
            wait: Doorbell::local(),
        })
        .collect()
}

impl InprocRail {
    /// Take at most `n` scatter/gather entries per operation (longer lists are refused).
    pub fn set_max_sge(&mut self, n: usize) {
        self.caps.max_sge = n;
    }

    /// Check the key, then copy; the bytes moved.
    fn transfer(
        &self,
        op: RdmaOp,
        peer: usize,
        local: &[Span],
        remote: &[Span],
        rkey: RemoteKey,
    ) -> Result<usize, RailError> {
        let domain = self.domains.get(peer).ok_or(RailError::NoSuchPeer(peer))?;
        if local.len() > self.caps.max_sge || remote.len() > self.caps.max_sge {
            return Err(RailError::TooManyEntries);
        }
        // SAFETY: every endpoint's memory lives in this process (the module's premise).
        unsafe { checked_copy(op, domain, local, remote, rkey) }
    }
}

impl Rail for InprocRail {
    fn caps(&self) -> &RailCaps {
        &self.caps
    }
    fn peers(&self) -> usize {
        self.domains.len()
    }
    fn memory(&self) -> Arc<dyn MemoryDomain> {
        self.domains[self.me].clone()
    }
    fn wait_handle(&self) -> Doorbell {
        self.wait
    }
    fn try_send(&mut self, peer: usize, imm: u32, parts: &[&[u8]]) -> bool {
        assert_ne!(peer, self.me, "engines handle messages to themselves");
        self.net.borrow_mut().queues[peer].push_back((self.me, imm, parts.concat()));
        true
    }
    fn poll(&mut self, sink: &mut dyn FnMut(RailEvent<'_>)) -> usize {
        let mut n = 0;
        while let Some(c) = self.done.pop_front() {
            sink(RailEvent::Completion(c));
            n += 1;
        }
        let msgs: Vec<_> = self.net.borrow_mut().queues[self.me].drain(..).collect();
        for (peer, imm, bytes) in &msgs {
            sink(RailEvent::Message {
                peer: *peer,
                imm: *imm,
                bytes,
            });
        }
        n + msgs.len()
    }
    fn has_completions(&self) -> bool {
        !self.done.is_empty()
    }
    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError> {
        let res = self.transfer(t.op, t.peer, t.local, t.remote, t.rkey(super::slot::SHM));
        self.done.push_back(Completion {
            token: t.token,
            result: res.map(|_| 0),
        });
        Ok(())
    }
    fn post_atomic(
        &mut self,
        _peer: usize,
        _op: AtomicOp,
        _remote: u64,
        _rkey: RemoteKey,
        _token: u64,
    ) -> Result<(), RailError> {
        Err(RailError::Unsupported("remote atomics"))
    }
}

/// An RDMA transfer between two "processes" of this one: check `rkey` against the target's
/// key table (as the shm rail does between processes), then copy between the `local` and
/// the `remote` spans; the bytes moved.
///
/// # Safety
/// The local spans must be live memory of this process (writable for a read); the remote
/// ones are vouched for by the key.
pub unsafe fn checked_copy(
    op: RdmaOp,
    target: &ShmDomain,
    local: &[Span],
    remote: &[Span],
    rkey: RemoteKey,
) -> Result<usize, RailError> {
    // SAFETY: the target's table is owned by its domain, alive for this borrow.
    unsafe {
        keys::check(
            target.table(),
            rkey,
            remote.iter().map(|s| (s.addr, s.len)),
            keys::right_for(op),
        )
    }
    .map_err(RailError::Key)?;
    let (mut r, mut at, mut moved) = (remote.iter(), (0u64, 0u64), 0usize);
    for l in local {
        let (mut pos, mut left) = (l.addr, l.len);
        while left > 0 {
            if at.1 == 0 {
                let Some(next) = r.next() else {
                    return Ok(moved);
                };
                at = (next.addr, next.len);
            }
            let n = left.min(at.1);
            let (src, dst) = match op {
                RdmaOp::Write => (pos, at.0),
                RdmaOp::Read => (at.0, pos),
            };
            // SAFETY: the local range is the caller's, the remote one vouched for by its
            // key; `copy` allows overlap (self-sends).
            unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, n as usize) };
            (pos, left, moved) = (pos + n, left - n, moved + n as usize);
            at = (at.0 + n, at.1 - n);
        }
    }
    Ok(moved)
}
