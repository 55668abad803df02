//! Single-producer/single-consumer ring of fixed-size cells in shared memory, one per
//! ordered pair of processes: the shm rail's channel semantics (eager and control messages).
//!
//! Cell `i` of the ring carries message number `n` (with `n % ncells == i`) once its `seq`
//! equals `(n + 1) as u32` (release-stored by the producer after the payload). The consumer publishes
//! the count of messages it has consumed in `tail`, which the producer reads only when its
//! cached copy says the ring is full, so the hot path touches one line per message.
//!
//! A cell is two parts: a 256-byte head (the header and a payload of up to `INLINE` bytes)
//! and a body of `cell_size` bytes for larger payloads. The heads lie side by side, the
//! bodies after them: a stream of small messages walks 16 KiB of heads (4 pages) rather
//! than one body-sized stride per message, which touched a new page per message — a page
//! fault on each side for every message of the first lap (osu_bw's first size ran at
//! 0.6 × Open MPI for that alone) and a TLB entry per cell after.

use crate::sys::cpu;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

pub const CACHE_LINE: usize = 64;
/// `seq`, `len` and the immediate word (padded): small, so a short message and its header
/// share one cache line.
const CELL_HEADER: usize = 16;
/// How many cells ahead each end prefetches.
const AHEAD: u64 = 4;
/// Bytes of a cell's head: its header and an inline payload.
const HEAD: usize = 256;
/// Largest payload carried in the head; larger ones go to the cell's body.
const INLINE: usize = HEAD - CELL_HEADER;

#[repr(C)]
struct RingCtl {
    tail: AtomicU64,
}

#[repr(C)]
struct CellHeader {
    /// Message number + 1, truncated to 32 bits (a cell is reused every `ncells` messages,
    /// so the truncation never makes an old value look current).
    seq: AtomicU32,
    len: u32,
    /// The sender's immediate word (see `Rail::try_send`).
    imm: u32,
    _pad: u32,
}

/// Geometry shared by both ends (both derive it from the segment header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingGeometry {
    pub ncells: usize,
    pub cell_size: usize,
}

impl RingGeometry {
    /// Bytes one ring occupies in the segment: the control line, the heads, the bodies.
    pub fn bytes(&self) -> usize {
        CACHE_LINE + self.ncells * (HEAD + self.cell_size)
    }

    /// Offset of cell `n`'s head from the ring's start.
    fn head(&self, n: u64) -> usize {
        CACHE_LINE + ((n as usize) & (self.ncells - 1)) * HEAD
    }

    /// Offset of cell `n`'s body from the ring's start.
    fn body(&self, n: u64) -> usize {
        CACHE_LINE + self.ncells * HEAD + ((n as usize) & (self.ncells - 1)) * self.cell_size
    }
    /// Largest payload one cell carries.
    pub fn max_payload(&self) -> usize {
        self.cell_size - CELL_HEADER
    }
    pub fn is_valid(&self) -> bool {
        self.ncells.is_power_of_two()
            && self.cell_size >= 256
            && self.cell_size.is_multiple_of(CACHE_LINE)
    }
}

/// The producer's end.
pub struct RingTx {
    base: *mut u8,
    geo: RingGeometry,
    head: u64,
    cached_tail: u64,
}

/// The consumer's end.
pub struct RingRx {
    base: *mut u8,
    geo: RingGeometry,
    next: u64,
}

// SAFETY: each end is owned by exactly one process/thread at a time (the engine lock);
// the memory it points to is shared only through the atomics protocol above.
unsafe impl Send for RingTx {}
unsafe impl Send for RingRx {}

impl RingTx {
    /// # Safety
    /// `base` must point to `geo.bytes()` bytes of zero-initialised (or consistently used)
    /// memory, 64-byte aligned, valid for the life of this end, with exactly one producer.
    pub unsafe fn new(base: *mut u8, geo: RingGeometry) -> Self {
        Self {
            base,
            geo,
            head: 0,
            cached_tail: 0,
        }
    }

    fn ctl(&self) -> &RingCtl {
        // SAFETY: base points to the control line (constructor contract).
        unsafe { &*(self.base as *const RingCtl) }
    }

    /// Copy the concatenation of `parts` into the next cell. False if the ring is full.
    /// Panics (a caller bug) when the parts exceed one cell. Inlined: a send's parts are a
    /// short array the copies unroll over (a call took ~120 instructions per message).
    #[inline(always)]
    pub fn try_push(&mut self, imm: u32, parts: &[&[u8]]) -> bool {
        let total: usize = parts.iter().map(|p| p.len()).sum();
        assert!(
            total <= self.geo.max_payload(),
            "message larger than a ring cell"
        );
        let n = self.geo.ncells as u64;
        if self.head - self.cached_tail >= n {
            self.cached_tail = self.ctl().tail.load(Ordering::Acquire);
            if self.head - self.cached_tail >= n {
                return false;
            }
        }
        let cell = self.cell(self.head);
        // SAFETY: the consumer has released this cell (tail check above), so we own its
        // head and body until we publish `seq`; the head holds CELL_HEADER + INLINE bytes,
        // the body max_payload.
        unsafe {
            let mut dst = if total <= INLINE {
                cell.add(CELL_HEADER)
            } else {
                self.base.add(self.geo.body(self.head))
            };
            for p in parts {
                crate::sys::copy::copy_disjoint(p.as_ptr(), dst, p.len());
                dst = dst.add(p.len());
            }
            let hdr = &mut *(cell as *mut CellHeader);
            hdr.len = total as u32;
            hdr.imm = imm;
            hdr.seq.store((self.head + 1) as u32, Ordering::Release);
        }
        self.head += 1;
        // Take ownership of a cell we will fill a few messages from now. The consumer read
        // it a lap ago, so a store to it must first take the line back; done now, that
        // transfer overlaps our next messages instead of stalling a store then (the
        // consumer polls only the cell at `head`, never this one).
        cpu::prefetch_write(self.cell(self.head + AHEAD));
        true
    }

    /// Cell `n`'s head.
    fn cell(&self, n: u64) -> *mut u8 {
        // SAFETY: the offset stays inside the ring (constructor contract).
        unsafe { self.base.add(self.geo.head(n)) }
    }
}

impl RingRx {
    /// # Safety
    /// As for `RingTx::new`, with exactly one consumer.
    pub unsafe fn new(base: *mut u8, geo: RingGeometry) -> Self {
        Self { base, geo, next: 0 }
    }

    /// Cell `n`'s head.
    fn cell(&self, n: u64) -> *mut u8 {
        // SAFETY: the offset stays inside the ring (constructor contract).
        unsafe { self.base.add(self.geo.head(n)) }
    }

    /// The next message and its immediate word, if one has arrived. Call `pop` when done
    /// with it.
    #[inline]
    pub fn peek(&self) -> Option<(u32, &[u8])> {
        let cell = self.cell(self.next);
        // SAFETY: the header is inside the ring; `seq` is read atomically.
        let hdr = unsafe { &*(cell as *const CellHeader) };
        if hdr.seq.load(Ordering::Acquire) != (self.next + 1) as u32 {
            return None;
        }
        // Start loading a cell a few messages ahead: when we are behind the producer it is
        // written already, and its miss overlaps this message's work.
        cpu::prefetch_read(self.cell(self.next + AHEAD));
        // The length comes from another process: clamp it to the cell.
        let len = (hdr.len as usize).min(self.geo.max_payload());
        let payload = if len <= INLINE {
            // SAFETY: inside the head (len <= INLINE).
            unsafe { cell.add(CELL_HEADER) }
        } else {
            // SAFETY: the body lies inside the ring and holds max_payload >= len bytes.
            unsafe { self.base.add(self.geo.body(self.next)) }
        };
        // SAFETY: the acquire load above makes the producer's payload visible, and the
        // producer won't touch the cell until we advance `tail` in `pop`.
        Some((hdr.imm, unsafe { std::slice::from_raw_parts(payload, len) }))
    }

    /// Release the message returned by `peek`.
    #[inline]
    pub fn pop(&mut self) {
        self.next += 1;
        // SAFETY: the control line is at base (constructor contract).
        let ctl = unsafe { &*(self.base as *const RingCtl) };
        ctl.tail.store(self.next, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Mem(Vec<u64>);
    impl Mem {
        fn new(geo: RingGeometry) -> Self {
            Mem(vec![0u64; geo.bytes() / 8 + 8])
        }
        fn base(&mut self) -> *mut u8 {
            let p = self.0.as_mut_ptr() as usize;
            ((p + 63) & !63) as *mut u8
        }
    }

    #[test]
    fn fifo_wraps_and_reports_full() {
        let geo = RingGeometry {
            ncells: 4,
            cell_size: 256,
        };
        assert!(geo.is_valid());
        let mut mem = Mem::new(geo);
        let base = mem.base();
        let (mut tx, mut rx) = unsafe { (RingTx::new(base, geo), RingRx::new(base, geo)) };
        assert!(rx.peek().is_none());
        for round in 0..10u8 {
            for i in 0..4u8 {
                assert!(tx.try_push(i as u32 * 3, &[&[round, i], &[7; 3]]));
            }
            assert!(!tx.try_push(0, &[&[1]]), "ring of 4 must be full");
            for i in 0..4u8 {
                let (imm, msg) = rx.peek().unwrap();
                assert_eq!((imm, msg), (i as u32 * 3, &[round, i, 7, 7, 7][..]));
                rx.pop();
            }
            assert!(rx.peek().is_none());
        }
    }

    #[test]
    fn payloads_on_both_sides_of_the_inline_size_keep_their_bytes() {
        let geo = RingGeometry {
            ncells: 4,
            cell_size: 1024,
        };
        let mut mem = Mem::new(geo);
        let base = mem.base();
        let (mut tx, mut rx) = unsafe { (RingTx::new(base, geo), RingRx::new(base, geo)) };
        let sizes = [
            0,
            1,
            INLINE - 1,
            INLINE,
            INLINE + 1,
            700,
            geo.max_payload(),
            3,
        ];
        for round in 0..3usize {
            for (k, &n) in sizes.iter().enumerate() {
                let msg: Vec<u8> = (0..n).map(|i| (i * 7 + k + round) as u8).collect();
                let (a, b) = msg.split_at(n / 3);
                assert!(tx.try_push(k as u32, &[a, b]));
                let (imm, got) = rx.peek().unwrap();
                assert_eq!((imm, got), (k as u32, &msg[..]), "size {n}");
                rx.pop();
            }
        }
        assert!(rx.peek().is_none());
    }

    #[test]
    fn threads_exchange_in_order() {
        let geo = RingGeometry {
            ncells: 8,
            cell_size: 256,
        };
        let mut mem = Mem::new(geo);
        let base = mem.base() as usize;
        let producer = std::thread::spawn(move || {
            let mut tx = unsafe { RingTx::new(base as *mut u8, geo) };
            for i in 0..100_000u32 {
                while !tx.try_push(i, &[&i.to_le_bytes()]) {
                    std::hint::spin_loop();
                }
            }
        });
        let mut rx = unsafe { RingRx::new(base as *mut u8, geo) };
        let mut expect = 0u32;
        while expect < 100_000 {
            if let Some((imm, m)) = rx.peek() {
                assert_eq!(u32::from_le_bytes(m.try_into().unwrap()), expect);
                assert_eq!(imm, expect);
                rx.pop();
                expect += 1;
            }
        }
        producer.join().unwrap();
    }
}
