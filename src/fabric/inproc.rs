//! An in-process rail for engine tests: every "process" is an engine in this one process,
//! messages wait in per-destination queues, and RDMA is a plain copy — after the same key
//! check the shm rail makes against the target's key table (each endpoint registers
//! through its own `ShmDomain`), so forged or stale keys fail here as they do between
//! processes.

use super::shm::domain::ShmDomain;
use super::shm::keys::{self, RIGHT_READ, RIGHT_WRITE};
use super::{
    AtomicOp, Completion, Doorbell, MemoryDomain, Rail, RailCaps, RailError, RailEvent, RemoteKey,
    Span,
};
use std::cell::{Cell, RefCell};
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
    /// Messages one queue may hold (to exercise back-pressure).
    pub depth: usize,
    /// Every RDMA operation fails as an unreachable peer's would.
    pub fail_rdma: bool,
    stats: Rc<InprocStats>,
}

/// Bytes an endpoint moved by RDMA read and write (which protocol ran); shared, so a test
/// still reads them once the rail went into a channel.
#[derive(Default)]
pub struct InprocStats {
    pub read: Cell<usize>,
    pub written: Cell<usize>,
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
                max_message,
                max_inline: max_message,
                max_sge: usize::MAX,
                rdma_read: true,
                rdma_write: true,
                atomics: false,
                odp: true,
                mapped: false,
                bandwidth: 0,
                latency_ns: 0,
                min_rdma_run: 0,
            },
            me,
            net: net.clone(),
            domains: domains.clone(),
            done: VecDeque::new(),
            wait: Doorbell::local(),
            depth: usize::MAX,
            fail_rdma: false,
            stats: Rc::default(),
        })
        .collect()
}

impl InprocRail {
    pub fn stats(&self) -> Rc<InprocStats> {
        self.stats.clone()
    }

    /// Take at most `n` scatter/gather entries per operation (longer lists are refused).
    pub fn set_max_sge(&mut self, n: usize) {
        self.caps.max_sge = n;
    }

    /// Check the key, then copy; the bytes moved.
    fn transfer(
        &self,
        peer: usize,
        local: &[Span],
        remote: &[Span],
        rkey: RemoteKey,
        write: bool,
    ) -> Result<usize, RailError> {
        let domain = self.domains.get(peer).ok_or(RailError::NoSuchPeer(peer))?;
        if local.len() > self.caps.max_sge || remote.len() > self.caps.max_sge {
            return Err(RailError::TooManyEntries);
        }
        if self.fail_rdma {
            return Err(RailError::Access(std::io::Error::from(
                std::io::ErrorKind::PermissionDenied,
            )));
        }
        let rights = if write { RIGHT_WRITE } else { RIGHT_READ };
        // SAFETY: the peer's table is owned by its domain, alive in `domains`.
        unsafe {
            keys::check(
                domain.table(),
                rkey,
                remote.iter().map(|s| (s.addr, s.len)),
                rights,
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
                let (src, dst) = if write { (pos, at.0) } else { (at.0, pos) };
                // SAFETY: both ranges are live buffers of engines in this process (the
                // remote one vouched for by its key); `copy` allows overlap (self-sends).
                unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, n as usize) };
                (pos, left, moved) = (pos + n, left - n, moved + n as usize);
                at = (at.0 + n, at.1 - n);
            }
        }
        Ok(moved)
    }

    fn post(
        &mut self,
        peer: usize,
        local: &[Span],
        remote: &[Span],
        rkey: RemoteKey,
        token: u64,
        write: bool,
    ) -> Result<(), RailError> {
        let res = self.transfer(peer, local, remote, rkey, write);
        if let Ok(n) = res {
            let c = if write {
                &self.stats.written
            } else {
                &self.stats.read
            };
            c.set(c.get() + n);
        }
        self.done.push_back(Completion {
            token,
            result: res.map(|_| 0),
        });
        Ok(())
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
        let mut net = self.net.borrow_mut();
        let q = &mut net.queues[peer];
        if q.len() >= self.depth {
            return false;
        }
        q.push_back((self.me, imm, parts.concat()));
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
    unsafe fn post_write(
        &mut self,
        peer: usize,
        local: &[Span],
        remote: &[Span],
        rkey: RemoteKey,
        token: u64,
    ) -> Result<(), RailError> {
        self.post(peer, local, remote, rkey, token, true)
    }
    unsafe fn post_read(
        &mut self,
        peer: usize,
        local: &[Span],
        remote: &[Span],
        rkey: RemoteKey,
        token: u64,
    ) -> Result<(), RailError> {
        self.post(peer, local, remote, rkey, token, false)
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
