//! The `shm` rail: one node, ranks in separate processes.
//!
//! Channel semantics through per-pair rings (`ring.rs`) in one shared segment per job;
//! memory semantics through Cross Memory Attach (`process_vm_readv/writev`), proved to work
//! at start-up with a real probe against a peer.

pub mod layout;
pub mod ring;

use super::{Doorbell, Rail, RailCaps, RailError};
use crate::sys::{cma, cpu, shm_segment::SharedSegment};
use layout::{RankBlock, SegmentLayout};
use ring::{RingGeometry, RingRx, RingTx};
use std::sync::atomic::Ordering;

/// Settings the runtime passes in (from the `RAILMPI_SHM_CELLS`, `RAILMPI_SHM_CELL_SIZE`
/// and `RAILMPI_SHM_CMA` variables).
#[derive(Clone, Debug)]
pub struct ShmSettings {
    pub ncells: usize,
    pub cell_size: usize,
    /// Use CMA if the probe succeeds (`RAILMPI_SHM_CMA`).
    pub cma: bool,
}

pub struct ShmRail {
    caps: RailCaps,
    me: usize,
    pids: Vec<i32>,
    tx: Vec<Option<RingTx>>,
    rx: Vec<Option<RingRx>>,
    doorbells: Vec<Doorbell>,
    /// Next peer to poll first, so no peer starves the others.
    poll_start: usize,
    _segment: SharedSegment,
}

/// Messages taken from one peer per poll before moving on (fairness).
const POLL_BUDGET_PER_PEER: usize = 32;

impl ShmRail {
    /// Build the rail for `n` local processes, `me` among them. The process with `me == 0`
    /// creates the segment `name`; `barrier` synchronises all `n` (PMI barrier).
    pub fn establish(
        name: &str,
        me: usize,
        n: usize,
        settings: &ShmSettings,
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
        cma::allow_peers_to_attach();
        let probe: &'static u64 = Box::leak(Box::new(0x5241_494c_4d50_4900 ^ cpu::pid() as u64));

        let segment = if me == 0 {
            let lay = SegmentLayout::new(n, geo);
            let seg = SharedSegment::create(name, lay.total_bytes())
                .map_err(|e| format!("cannot create shared segment /dev/shm/{name}: {e}"))?;
            // SAFETY: fresh zeroed mapping of the layout's size, and nobody else maps it yet.
            unsafe { lay.write_header(seg.as_ptr()) };
            barrier()?;
            seg
        } else {
            barrier()?;
            SharedSegment::open(name)
                .map_err(|e| format!("cannot open shared segment /dev/shm/{name}: {e}"))?
        };
        // SAFETY: the segment holds at least a header (checked inside against its length).
        let lay = unsafe { SegmentLayout::read_header(segment.as_ptr(), segment.len()) }?;
        if lay.nranks != n || lay.geo != geo {
            return Err(format!(
                "shared segment {name} does not match this job's settings"
            ));
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
        barrier()?;
        if me == 0 {
            // Every process has mapped it: the name can go, so nothing is left behind.
            let _ = segment.unlink();
        }

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
        Ok(ShmRail {
            caps: RailCaps {
                name: "shm",
                max_message: geo.max_payload(),
                rdma: cma_ok,
            },
            me,
            pids,
            tx,
            rx,
            doorbells,
            poll_start: 0,
            _segment: segment,
        })
    }

    /// This process's doorbell (peers ring it after writing to our rings).
    pub fn doorbell(&self) -> Doorbell {
        self.doorbells[self.me]
    }
}

impl Rail for ShmRail {
    fn caps(&self) -> &RailCaps {
        &self.caps
    }

    fn peers(&self) -> usize {
        self.pids.len()
    }

    #[inline]
    fn try_send(&mut self, peer: usize, parts: &[&[u8]]) -> bool {
        let Some(Some(tx)) = self.tx.get_mut(peer) else {
            return false;
        };
        if tx.try_push(parts) {
            self.doorbells[peer].ring();
            true
        } else {
            false
        }
    }

    fn poll(&mut self, sink: &mut dyn FnMut(usize, &[u8])) -> usize {
        let n = self.rx.len();
        let mut delivered = 0;
        for k in 0..n {
            let peer = (self.poll_start + k) % n;
            let Some(rx) = self.rx[peer].as_mut() else {
                continue;
            };
            let mut budget = POLL_BUDGET_PER_PEER;
            while budget > 0 {
                let Some(msg) = rx.peek() else { break };
                sink(peer, msg);
                rx.pop();
                delivered += 1;
                budget -= 1;
            }
        }
        self.poll_start = (self.poll_start + 1) % n.max(1);
        delivered
    }

    fn read(&mut self, peer: usize, local: &mut [u8], remote_addr: u64) -> Result<(), RailError> {
        let pid = *self.pids.get(peer).ok_or(RailError::NoSuchPeer(peer))?;
        cma::read(pid, local, remote_addr).map_err(RailError::Access)
    }

    fn write(&mut self, peer: usize, local: &[u8], remote_addr: u64) -> Result<(), RailError> {
        let pid = *self.pids.get(peer).ok_or(RailError::NoSuchPeer(peer))?;
        cma::write(pid, local, remote_addr).map_err(RailError::Access)
    }

    fn read_vectored(
        &mut self,
        peer: usize,
        local: &mut [std::io::IoSliceMut<'_>],
        remote: &[super::RemoteRange],
    ) -> Result<(), RailError> {
        let pid = *self.pids.get(peer).ok_or(RailError::NoSuchPeer(peer))?;
        cma::readv(pid, local, remote).map_err(RailError::Access)
    }
}
