//! Layout of the job's shared segment: header, one block per rank, the rings (ring from `i`
//! to `j` at index `i * n + j`), one key table per rank, then the service queues (queue
//! from `i` to `j` at index `i * n + j`, `service.rs`).

use super::keys::{KeySlot, TABLE_BYTES};
use super::ring::{RingGeometry, CACHE_LINE};
use super::service::QUEUE_BYTES;
use crate::fabric::doorbell::DoorbellWords;
use std::sync::atomic::{AtomicI32, AtomicU64};

const MAGIC: u64 = 0x7261_696c_6d70_6903; // "railmpi" v3 (service queues)
const PAGE: usize = 4096;

#[repr(C)]
struct SegHeader {
    magic: u64,
    nranks: u64,
    ncells: u64,
    cell_size: u64,
}

/// Per-rank facts peers need: pid for CMA, the CMA probe, the doorbell, and (on a line of
/// their own, so that RMA requests do not disturb the message path) the service thread's
/// doorbell and the count of requests queued for it.
#[repr(C, align(64))]
pub struct RankBlock {
    pub pid: AtomicI32,
    pub probe_addr: AtomicU64,
    pub probe_value: AtomicU64,
    _pad: [u8; 40],
    pub doorbell: DoorbellWords,
    _pad2: [u8; 64 - std::mem::size_of::<DoorbellWords>()],
    pub service_bell: DoorbellWords,
    pub requests: AtomicU64,
}

#[derive(Clone, Copy, Debug)]
pub struct SegmentLayout {
    pub nranks: usize,
    pub geo: RingGeometry,
}

impl SegmentLayout {
    pub fn new(nranks: usize, geo: RingGeometry) -> Self {
        Self { nranks, geo }
    }

    fn blocks_offset(&self) -> usize {
        PAGE
    }

    fn rings_offset(&self) -> usize {
        let end = PAGE + self.nranks * std::mem::size_of::<RankBlock>();
        end.div_ceil(PAGE) * PAGE
    }

    /// The key tables follow the rings (page-aligned), leaving the rings where they were
    /// before keys existed (their placement measurably affects message latency).
    fn keys_offset(&self) -> usize {
        let end = self.rings_offset() + self.nranks * self.nranks * self.geo.bytes();
        end.div_ceil(PAGE) * PAGE
    }

    fn services_offset(&self) -> usize {
        self.keys_offset() + self.nranks * TABLE_BYTES.div_ceil(PAGE) * PAGE
    }

    pub fn total_bytes(&self) -> usize {
        self.services_offset() + self.nranks * self.nranks * QUEUE_BYTES
    }

    /// # Safety
    /// `base` must map at least `total_bytes()` writable bytes.
    pub unsafe fn write_header(&self, base: *mut u8) {
        let h = base as *mut SegHeader;
        (*h).nranks = self.nranks as u64;
        (*h).ncells = self.geo.ncells as u64;
        (*h).cell_size = self.geo.cell_size as u64;
        (*h).magic = MAGIC;
    }

    /// Read and validate the header of a mapping of `len` bytes.
    ///
    /// # Safety
    /// `base` must map `len` readable bytes.
    pub unsafe fn read_header(base: *const u8, len: usize) -> Result<Self, String> {
        if len < PAGE {
            return Err("shared segment too small".into());
        }
        let h = &*(base as *const SegHeader);
        if h.magic != MAGIC {
            return Err("shared segment has a foreign header".into());
        }
        let lay = SegmentLayout {
            nranks: h.nranks as usize,
            geo: RingGeometry {
                ncells: h.ncells as usize,
                cell_size: h.cell_size as usize,
            },
        };
        if lay.nranks == 0 || lay.nranks > 1 << 16 || !lay.geo.is_valid() {
            return Err("shared segment header is inconsistent".into());
        }
        if lay.total_bytes() > len {
            return Err("shared segment is shorter than its header says".into());
        }
        Ok(lay)
    }

    /// # Safety
    /// `base` maps `total_bytes()` bytes and `r < nranks`.
    pub unsafe fn rank_block(&self, base: *mut u8, r: usize) -> *const RankBlock {
        debug_assert!(r < self.nranks);
        base.add(self.blocks_offset() + r * std::mem::size_of::<RankBlock>()) as *const RankBlock
    }

    /// Rank `r`'s key table (`KEY_SLOTS` slots).
    ///
    /// # Safety
    /// `base` maps `total_bytes()` bytes and `r < nranks`.
    pub unsafe fn key_table(&self, base: *mut u8, r: usize) -> *const KeySlot {
        debug_assert!(r < self.nranks);
        base.add(self.keys_offset() + r * TABLE_BYTES.div_ceil(PAGE) * PAGE) as *const KeySlot
    }

    /// # Safety
    /// `base` maps `total_bytes()` bytes and `from, to < nranks`.
    pub unsafe fn ring(&self, base: *mut u8, from: usize, to: usize) -> *mut u8 {
        debug_assert!(from < self.nranks && to < self.nranks);
        let off = self.rings_offset() + (from * self.nranks + to) * self.geo.bytes();
        debug_assert_eq!(off % CACHE_LINE, 0);
        base.add(off)
    }

    /// The service queue from `from` to `to` (`QUEUE_BYTES`, cache-line aligned).
    ///
    /// # Safety
    /// `base` maps `total_bytes()` bytes and `from, to < nranks`.
    pub unsafe fn service_queue(&self, base: *mut u8, from: usize, to: usize) -> *mut u8 {
        debug_assert!(from < self.nranks && to < self.nranks);
        base.add(self.services_offset() + (from * self.nranks + to) * QUEUE_BYTES)
    }
}
