//! The `shm` rail: one node, ranks in separate processes.
//!
//! Channel semantics through per-pair rings (`ring.rs`) in one shared segment per job;
//! memory semantics through Cross Memory Attach (`process_vm_readv/writev`), proved to work
//! at start-up with a real probe against a peer. Every registration is keyed in the
//! owner's table in the segment (`keys.rs`), and a posted read or write checks the target's
//! key before CMA moves a byte. CMA completes inside the call, so a posted operation's
//! completion is queued here and handed up by the next `poll`.

pub mod access;
pub mod domain;
pub mod keys;
pub mod layout;
pub mod ring;
pub mod service;

use super::{
    AtomicOp, Completion, Doorbell, MemoryDomain, Rail, RailCaps, RailError, RailEvent, RdmaOp,
    RemoteKey, Transfer,
};
use crate::sys::cma;
use crate::sys::{cpu, memfd::SharedMemory};
use access::PeerAccess;
use domain::ShmDomain;
use keys::KeySlot;
use layout::{RankBlock, SegmentLayout};
use ring::{RingGeometry, RingRx, RingTx};
use service::ShmService;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Settings the runtime passes in (from the `RAILMPI_SHM_CELLS`, `RAILMPI_SHM_CELL_SIZE`
/// and `RAILMPI_SHM_CMA` variables).
#[derive(Clone, Debug)]
pub struct ShmSettings {
    pub ncells: usize,
    pub cell_size: usize,
    /// Use CMA if the probe succeeds (`RAILMPI_SHM_CMA`).
    pub cma: bool,
    /// The launcher process the ranks descend from (the PMI connection's other end), which
    /// Yama's ptrace_scope 1 can be told to let attach.
    pub launcher: Option<i32>,
    /// This rank sleeps often (ranks outnumber cores): peers fence when they ring its
    /// doorbell, and it sleeps without `membarrier` (`Doorbell::set_fenced`).
    pub fenced_wakeups: bool,
}

pub struct ShmRail {
    caps: RailCaps,
    me: usize,
    tx: Vec<Option<RingTx>>,
    rx: Vec<Option<RingRx>>,
    doorbells: Vec<Doorbell>,
    /// Keyed CMA to peers (shared with the service queue).
    access: Arc<PeerAccess>,
    memory: Arc<ShmDomain>,
    service: Arc<ShmService>,
    /// Completions of posted operations, handed up by the next `poll`.
    done: VecDeque<Completion>,
    /// Next peer to poll first, so no peer starves the others.
    poll_start: usize,
}

// SAFETY: the rings and doorbells point into the segment that `access`, `memory` and
// `service` keep mapped; the rail is used by one thread at a time.
unsafe impl Send for ShmRail {}

/// Messages taken from one peer per poll before moving on (fairness).
const POLL_BUDGET_PER_PEER: usize = 32;

impl ShmRail {
    /// Build the rail for `n` local processes, `me` among them. The process with `me == 0`
    /// creates the segment, anonymous memory (a memfd) that never has a name in /dev/shm:
    /// nothing is left behind however the job ends, and there is no name for another user
    /// to take first. `share` is collective over the `n`: the creator passes the segment's
    /// address (`pid:fd:len`, opened by the others through `/proc`), every caller gets it
    /// back; `barrier` synchronises all `n` (PMI barrier).
    pub fn establish(
        me: usize,
        n: usize,
        settings: &ShmSettings,
        share: &mut dyn FnMut(Option<String>) -> Result<String, String>,
        barrier: &mut dyn FnMut() -> Result<(), String>,
    ) -> Result<ShmRail, String> {
        let geo = RingGeometry {
            ncells: settings.ncells,
            cell_size: settings.cell_size,
        };
        if !geo.is_valid() {
            return Err(format!(
                "invalid ring geometry: {} cells of {} bytes (cells must be a power of two, \
                 cell size a multiple of 64 and at least 256)",
                geo.ncells, geo.cell_size
            ));
        }
        let probe: &'static u64 = Box::leak(Box::new(0x5241_494c_4d50_4900 ^ cpu::pid() as u64));

        let segment = if me == 0 {
            let lay = SegmentLayout::new(n, geo);
            let seg = SharedMemory::create("railmpi-shm", lay.total_bytes())
                .map_err(|e| format!("cannot create the shared segment: {e}"))?;
            // SAFETY: fresh zeroed mapping of the layout's size, and nobody else maps it yet.
            unsafe { lay.write_header(seg.as_ptr()) };
            let fd = seg.fd().expect("our own memory has a descriptor");
            share(Some(format!("{}:{fd}:{}", cpu::pid(), seg.len())))?;
            seg
        } else {
            let at = share(None)?;
            let bad = || format!("the shared segment's address {at:?} does not parse");
            let mut it = at.split(':').map(|v| v.parse::<usize>().map_err(|_| bad()));
            let (pid, fd, len) = match (it.next(), it.next(), it.next(), it.next()) {
                (Some(p), Some(f), Some(l), None) => (p?, f?, l?),
                _ => return Err(bad()),
            };
            SharedMemory::open(pid as i32, fd as i32, len).map_err(|e| {
                format!("cannot map the shared segment of process {pid} (descriptor {fd}): {e}")
            })?
        };
        // SAFETY: the segment holds at least a header (checked inside against its length).
        let lay = unsafe { SegmentLayout::read_header(segment.as_ptr(), segment.len()) }?;
        if lay.nranks != n || lay.geo != geo {
            return Err("the shared segment does not match this job's settings".to_string());
        }
        let block = |r: usize| -> &RankBlock {
            // SAFETY: r < n and the layout was validated against the mapping's length.
            unsafe { &*lay.rank_block(segment.as_ptr(), r) }
        };
        block(me).pid.store(cpu::pid(), Ordering::Release);
        block(me)
            .probe_addr
            .store(probe as *const u64 as u64, Ordering::Release);
        block(me).probe_value.store(*probe, Ordering::Release);
        if settings.fenced_wakeups {
            // Before the barrier: no peer rings us before it sees the mark.
            // SAFETY: the doorbell words live in the segment, mapped for this call.
            unsafe { Doorbell::new(&block(me).doorbell) }.set_fenced();
        }
        // Peers probe CMA after the barrier: allowed by then, as narrowly as Yama permits.
        let ptracer = cma::Ptracer::choose(
            (n > 1).then(cma::yama_scope).flatten(),
            settings.cma,
            settings.launcher,
        );
        cma::declare_ptracer(ptracer);
        barrier()?;

        let pids: Vec<i32> = (0..n)
            .map(|r| block(r).pid.load(Ordering::Acquire))
            .collect();
        let cma_ok = settings.cma
            && (n == 1 || {
                let peer = (me + 1) % n;
                let mut got = [0u8; 8];
                cma::read(
                    pids[peer],
                    &mut got,
                    block(peer).probe_addr.load(Ordering::Acquire),
                )
                .map(|_| u64::from_ne_bytes(got) == block(peer).probe_value.load(Ordering::Acquire))
                .unwrap_or(false)
            });
        if settings.cma && !cma_ok && ptracer != cma::Ptracer::Unchanged {
            cma::revoke_ptracer();
        }
        if settings.cma && !cma_ok {
            tracing::warn!(
                "Cross Memory Attach is not permitted here; large messages take the two-copy \
                 path through shared memory"
            );
        }

        let mut tx = Vec::with_capacity(n);
        let mut rx = Vec::with_capacity(n);
        for peer in 0..n {
            if peer == me {
                tx.push(None);
                rx.push(None);
                continue;
            }
            // SAFETY: each ring lies inside the validated mapping; we are the only producer
            // of ring (me→peer) and the only consumer of ring (peer→me).
            unsafe {
                tx.push(Some(RingTx::new(lay.ring(segment.as_ptr(), me, peer), geo)));
                rx.push(Some(RingRx::new(lay.ring(segment.as_ptr(), peer, me), geo)));
            }
        }
        let doorbells = (0..n)
            // SAFETY: the doorbell words live in the segment, which the rail keeps mapped.
            .map(|r| unsafe { Doorbell::new(&block(r).doorbell) })
            .collect();
        let segment = Arc::new(segment);
        let key_tables: Vec<*const KeySlot> = (0..n)
            // SAFETY: r < n, and the layout was validated against the mapping's length.
            .map(|r| unsafe { lay.key_table(segment.as_ptr(), r) })
            .collect();
        // SAFETY: our own table, inside the segment the domain keeps alive; peers only
        // read it.
        let memory = Arc::new(unsafe { ShmDomain::in_segment(segment.clone(), key_tables[me]) });
        // SAFETY: the tables lie in `segment`, which the access keeps mapped.
        let access = Arc::new(unsafe { PeerAccess::new(me, pids, key_tables, segment.clone()) });
        // SAFETY: the layout was validated against the mapping, which the service keeps.
        let service = Arc::new(unsafe { ShmService::new(segment, lay, me, access.clone()) });
        Ok(ShmRail {
            caps: RailCaps {
                name: "shm",
                slot: crate::fabric::slot::SHM,
                max_message: geo.max_payload(),
                max_inline: geo.max_payload(),
                read_bounce: 0,
                // CMA takes any list: the kernel call is repeated per IOV_MAX entries.
                max_sge: usize::MAX,
                rdma_read: cma_ok,
                rdma_write: cma_ok,
                // CPU atomics need memory mapped on both sides (windows the library
                // allocates); CMA has none.
                atomics: false,
                odp: true,
                mapped: true,
                // Measured here: CMA copies ~8 GB/s, a ring message ~0.2 us one way.
                bandwidth: 8_000_000_000,
                latency_ns: 200,
                // Vectored CMA of 8-byte runs moves ~13 MB/s, of 4 KiB runs ~1 GB/s.
                min_rdma_run: 1024,
                min_stripe: 256 * 1024,
                local_keys: false,
                split_rendezvous: true,
                write_notify: false,
                progress_thread: false,
                eager_limit: 0,
            },
            me,
            tx,
            rx,
            doorbells,
            access,
            memory,
            service,
            done: VecDeque::new(),
            poll_start: 0,
        })
    }

    /// The domain keying this process's registrations (its key table in the segment).
    pub fn domain(&self) -> Arc<ShmDomain> {
        self.memory.clone()
    }

    /// The process id of each local rank, in local order.
    pub fn peer_pids(&self) -> &[i32] {
        self.access.pids()
    }

    /// This process's end of the job's service queues (`service.rs`).
    pub fn service(&self) -> Arc<ShmService> {
        self.service.clone()
    }

    /// `Rail::try_send`, inlined where the channel layer calls it directly (`AnyRail`).
    #[inline(always)]
    pub fn send_message(&mut self, peer: usize, imm: u32, parts: &[&[u8]]) -> bool {
        let Some(Some(tx)) = self.tx.get_mut(peer) else {
            return false;
        };
        if tx.try_push(imm, parts) {
            self.doorbells[peer].ring();
            true
        } else {
            false
        }
    }

    /// `Rail::poll` for any sink: through `AnyRail` the channel's sink is inlined into the
    /// ring loop (no indirect call per message).
    #[inline(always)]
    pub fn poll_with<F: FnMut(RailEvent<'_>) + ?Sized>(&mut self, sink: &mut F) -> usize {
        let mut delivered = 0;
        if !self.done.is_empty() {
            delivered += self.drain_completions(sink);
        }
        let n = self.rx.len();
        // Round robin from `poll_start`, wrapping without a division (a `div` per peer and
        // poll was a visible part of an idle polling loop).
        let mut peer = self.poll_start;
        for _ in 0..n {
            if let Some(rx) = self.rx[peer].as_mut() {
                let mut budget = POLL_BUDGET_PER_PEER;
                while budget > 0 {
                    let Some((imm, bytes)) = rx.peek() else {
                        break;
                    };
                    sink(RailEvent::Message { peer, imm, bytes });
                    rx.pop();
                    delivered += 1;
                    budget -= 1;
                }
            }
            peer = if peer + 1 == n { 0 } else { peer + 1 };
        }
        self.poll_start += 1;
        if self.poll_start >= n {
            self.poll_start = 0;
        }
        delivered
    }

    /// Hand up the queued completions (out of line: the polling loop stays small).
    #[inline(never)]
    fn drain_completions<F: FnMut(RailEvent<'_>) + ?Sized>(&mut self, sink: &mut F) -> usize {
        let n = self.done.len();
        while let Some(c) = self.done.pop_front() {
            sink(RailEvent::Completion(c));
        }
        n
    }

    /// Queue a completion. No doorbell: it was made by this process's own thread inside a
    /// post, and the progress loop polls again after posting (`has_completions`), so no
    /// waiter sleeps on it.
    fn complete(&mut self, token: u64, result: Result<(), RailError>) {
        self.done.push_back(Completion {
            token,
            result: result.map(|()| 0),
        });
    }
}

impl Rail for ShmRail {
    fn caps(&self) -> &RailCaps {
        &self.caps
    }

    fn peers(&self) -> usize {
        self.access.peers()
    }

    fn memory(&self) -> Arc<dyn MemoryDomain> {
        self.memory.clone()
    }

    fn wait_handle(&self) -> Doorbell {
        self.doorbells[self.me]
    }

    fn try_send(&mut self, peer: usize, imm: u32, parts: &[&[u8]]) -> bool {
        self.send_message(peer, imm, parts)
    }

    fn poll(&mut self, sink: &mut dyn FnMut(RailEvent<'_>)) -> usize {
        self.poll_with(sink)
    }

    fn has_completions(&self) -> bool {
        !self.done.is_empty()
    }

    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError> {
        let op = t.op;
        let able = match op {
            RdmaOp::Read => self.caps.rdma_read,
            RdmaOp::Write => self.caps.rdma_write,
        };
        if !able {
            return Err(RailError::Unsupported(match op {
                RdmaOp::Read => "RDMA read",
                RdmaOp::Write => "RDMA write",
            }));
        }
        // SAFETY: the caller's contract on `local`.
        let res = unsafe {
            self.access
                .transfer(op, t.peer, t.local, t.remote, t.rkey(super::slot::SHM))
        };
        self.complete(t.token, res);
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
        Err(RailError::Unsupported(
            "remote atomics on memory not mapped by both sides",
        ))
    }
}

/// Two ends of a real shm rail (one segment, CMA), both in this process (for tests).
#[cfg(test)]
pub fn test_pair() -> (ShmRail, ShmRail) {
    let settings = ShmSettings {
        ncells: 8,
        cell_size: 256,
        cma: true,
        launcher: None,
        fenced_wakeups: false,
    };
    let barrier = Arc::new(std::sync::Barrier::new(2));
    let at = Arc::new(std::sync::Mutex::new(String::new()));
    let ends: Vec<_> = (0..2)
        .map(|me| {
            let (settings, barrier, at) = (settings.clone(), barrier.clone(), at.clone());
            std::thread::spawn(move || {
                let mut wait = || {
                    barrier.wait();
                    Ok(())
                };
                let mut share = |v: Option<String>| {
                    if let Some(v) = v {
                        *at.lock().unwrap() = v;
                    }
                    barrier.wait();
                    Ok(at.lock().unwrap().clone())
                };
                ShmRail::establish(me, 2, &settings, &mut share, &mut wait).unwrap()
            })
        })
        .collect();
    let mut ends = ends.into_iter().map(|t| t.join().unwrap());
    (ends.next().unwrap(), ends.next().unwrap())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::memory::{Mode, PageRange};
    use crate::fabric::{KeyError, RemoteKeys, Span};

    fn completions(rail: &mut ShmRail) -> Vec<Completion> {
        let mut out = Vec::new();
        rail.poll(&mut |ev| {
            if let RailEvent::Completion(c) = ev {
                out.push(c)
            }
        });
        out
    }

    #[test]
    fn posted_writes_and_reads_check_the_targets_key() {
        let (mut a, b) = test_pair();
        assert!(a.caps().rdma(), "CMA to ourselves works");
        let page = crate::sys::vmem::page_size();
        // The target's buffer: three pages, the middle one registered.
        let mut target = vec![0xeeu8; 3 * page + page];
        let base = (target.as_mut_ptr() as usize).div_ceil(page) * page;
        let region = PageRange::new(base + page, base + 2 * page);
        let key = b.memory().register(region, Mode::Odp).unwrap();
        let src = vec![0x42u8; page];
        let local = |n: usize| {
            [Span {
                addr: src.as_ptr() as u64,
                len: n as u64,
            }]
        };
        let at = |off: usize, n: usize| {
            [Span {
                addr: (base + off) as u64,
                len: n as u64,
            }]
        };
        let post = |a: &mut ShmRail, off, n, k, token| unsafe {
            a.post(&Transfer::new(
                RdmaOp::Write,
                1,
                &local(n),
                &at(off, n),
                &RemoteKeys::all(k),
                token,
            ))
            .unwrap()
        };
        let snapshot =
            || unsafe { std::slice::from_raw_parts(base as *const u8, 3 * page) }.to_vec();
        let before = snapshot();

        // Forged keys, a range past the registration, a range before it: refused, and
        // nothing written anywhere.
        post(&mut a, page, 64, RemoteKey(key.remote.0 ^ 2), 1);
        post(&mut a, page, 64, RemoteKey(0xdead_0000_0001), 2);
        post(&mut a, page, 64, RemoteKey::NONE, 3);
        post(&mut a, 2 * page - 8, 64, key.remote, 4);
        post(&mut a, page - 8, 64, key.remote, 5);
        let done = completions(&mut a);
        let errs: Vec<_> = done
            .iter()
            .map(|c| match &c.result {
                Err(RailError::Key(e)) => (c.token, *e),
                other => panic!("token {} not refused: {other:?}", c.token),
            })
            .collect();
        assert_eq!(
            errs,
            vec![
                (1, KeyError::Stale),
                (2, KeyError::Unknown),
                (3, KeyError::Unknown),
                (4, KeyError::OutOfRange),
                (5, KeyError::OutOfRange),
            ]
        );
        assert!(snapshot() == before, "refused writes moved no byte");

        // The genuine key: exactly the range written, then read back.
        post(&mut a, page + 100, 64, key.remote, 6);
        let done = completions(&mut a);
        assert!(matches!(
            done[..],
            [Completion {
                token: 6,
                result: Ok(0)
            }]
        ));
        let after = snapshot();
        assert!(after[page + 100..page + 164].iter().all(|&x| x == 0x42));
        assert!(after[..page + 100] == before[..page + 100]);
        assert!(after[page + 164..] == before[page + 164..]);
        let mut back = vec![0u8; 64];
        let l = [Span {
            addr: back.as_mut_ptr() as u64,
            len: 64,
        }];
        unsafe {
            a.post(&Transfer::new(
                RdmaOp::Read,
                1,
                &l,
                &at(page + 100, 64),
                &RemoteKeys::all(key.remote),
                7,
            ))
            .unwrap()
        };
        assert!(matches!(
            completions(&mut a)[..],
            [Completion {
                token: 7,
                result: Ok(_)
            }]
        ));
        assert!(back.iter().all(|&x| x == 0x42));

        // Deregistered: the same key is stale and writes nothing more.
        b.memory().deregister(key, &[]);
        post(&mut a, page, 64, key.remote, 8);
        let done = completions(&mut a);
        assert!(matches!(
            done[..],
            [Completion {
                token: 8,
                result: Err(RailError::Key(KeyError::Stale))
            }]
        ));
        assert!(snapshot() == after);
    }
}
