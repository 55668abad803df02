//! Single-producer/single-consumer ring of variable-length records in shared memory, one per
//! ordered pair of processes: the shm rail's channel semantics (eager and control messages).
//!
//! A record is a 16-byte header and the payload, rounded up to a cache line, so short
//! messages sit in consecutive lines of one page rather than one large fixed cell each (64
//! one-byte messages in flight touched 64 pages and missed the TLB on both sides; records
//! touch one page, and the consumer streams through lines the hardware prefetches).
//!
//! The header's `flag` is release-stored by the producer after the payload; the consumer reads
//! a record once the flag at its position is non-zero. Stale bytes of an older lap must never
//! pass for a header, so before publishing a record the producer zeroes the flag where the
//! next record will start (free space: the space check keeps a line spare for it), and the
//! consumer's next position always holds zero or a published record. A record that would
//! cross the end of the area is preceded by a WRAP record filling the rest. The consumer
//! publishes the bytes it has consumed in `tail`, which the producer reads only when its
//! cached copy says the ring is full, so the hot path touches one line per short message.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

pub const CACHE_LINE: usize = 64;
/// `flag`, `len` and the immediate word (padded): small, so a short message and its header
/// share one cache line.
const CELL_HEADER: usize = 16;
/// `flag` values: a message, or "the rest of the area is padding; continue at its start".
const FLAG_MSG: u32 = 1;
const FLAG_WRAP: u32 = 2;

#[repr(C)]
struct RingCtl {
    tail: AtomicU64,
}

#[repr(C)]
struct CellHeader {
    flag: AtomicU32,
    len: u32,
    /// The sender's immediate word (see `Rail::try_send`).
    imm: u32,
    _pad: u32,
}

/// Geometry shared by both ends (both derive it from the segment header): the ring holds
/// `ncells` messages of the largest size (`cell_size` bytes with their header), and more
/// of smaller ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingGeometry {
    pub ncells: usize,
    pub cell_size: usize,
}

impl RingGeometry {
    /// Bytes one ring occupies in the segment.
    pub fn bytes(&self) -> usize {
        CACHE_LINE + self.area()
    }
    /// Bytes of records (after the control line).
    fn area(&self) -> usize {
        self.ncells * self.cell_size
    }
    /// Largest payload one record carries.
    pub fn max_payload(&self) -> usize {
        self.cell_size - CELL_HEADER
    }
    pub fn is_valid(&self) -> bool {
        self.ncells.is_power_of_two()
            && self.ncells >= 2
            && self.cell_size >= 256
            && self.cell_size.is_multiple_of(CACHE_LINE)
            && self.ncells.checked_mul(self.cell_size).is_some()
    }
}

/// Bytes a record of `len` payload bytes occupies.
#[inline]
fn record(len: usize) -> usize {
    (CELL_HEADER + len).next_multiple_of(CACHE_LINE)
}

/// The producer's end.
pub struct RingTx {
    base: *mut u8,
    area: usize,
    max_payload: usize,
    /// Where the next record goes (offset into the area, a multiple of CACHE_LINE).
    off: usize,
    /// Bytes produced (records and wrap padding), ever.
    head: u64,
    cached_tail: u64,
}

/// The consumer's end.
pub struct RingRx {
    base: *mut u8,
    area: usize,
    max_payload: usize,
    /// Where the next record starts.
    off: usize,
    /// Bytes consumed, ever (published in `tail`).
    consumed: u64,
    /// Size of the record `peek` returned.
    current: usize,
}

// SAFETY: each end is owned by exactly one process/thread at a time (the engine lock);
// the memory it points to is shared only through the atomics protocol above.
unsafe impl Send for RingTx {}
unsafe impl Send for RingRx {}

/// The header at `off` of the area after the control line at `base`.
///
/// # Safety
/// `off + CELL_HEADER <= area` of a ring at `base` (constructor contracts below).
#[inline]
unsafe fn header<'a>(base: *mut u8, off: usize) -> &'a CellHeader {
    // SAFETY: the caller's contract; headers are 16-byte aligned (off is a line multiple).
    unsafe { &*(base.add(CACHE_LINE + off) as *const CellHeader) }
}

impl RingTx {
    /// # Safety
    /// `base` must point to `geo.bytes()` bytes of zero-initialised (or consistently used)
    /// memory, 64-byte aligned, valid for the life of this end, with exactly one producer;
    /// `geo.is_valid()`.
    pub unsafe fn new(base: *mut u8, geo: RingGeometry) -> Self {
        Self {
            base,
            area: geo.area(),
            max_payload: geo.max_payload(),
            off: 0,
            head: 0,
            cached_tail: 0,
        }
    }

    fn ctl(&self) -> &RingCtl {
        // SAFETY: base points to the control line (constructor contract).
        unsafe { &*(self.base as *const RingCtl) }
    }

    /// Whether `need` more bytes fit (rereading the consumer's tail only when the cached
    /// copy says they don't).
    #[inline]
    fn room(&mut self, need: usize) -> bool {
        let need = need as u64;
        let area = self.area as u64;
        if self.head - self.cached_tail + need > area {
            self.cached_tail = self.ctl().tail.load(Ordering::Acquire);
            if self.head - self.cached_tail + need > area {
                return false;
            }
        }
        true
    }

    /// Copy the concatenation of `parts` into the next record. False if the ring is full.
    /// Panics (a caller bug) when the parts exceed the largest record.
    #[inline]
    pub fn try_push(&mut self, imm: u32, parts: &[&[u8]]) -> bool {
        let total: usize = parts.iter().map(|p| p.len()).sum();
        assert!(total <= self.max_payload, "message larger than a ring cell");
        let rec = record(total);
        let to_end = self.area - self.off;
        let wrap = rec > to_end;
        // The record, the padding before it when it wraps, and the line of the next
        // record's flag (zeroed below) must all be free.
        if !self.room(rec + CACHE_LINE + if wrap { to_end } else { 0 }) {
            return false;
        }
        if wrap {
            // SAFETY: offset 0 and `off` are free (room above), inside the area.
            unsafe {
                header(self.base, 0).flag.store(0, Ordering::Relaxed);
                header(self.base, self.off)
                    .flag
                    .store(FLAG_WRAP, Ordering::Release);
            }
            self.head += to_end as u64;
            self.off = 0;
        }
        let next = if self.off + rec == self.area {
            0
        } else {
            self.off + rec
        };
        // SAFETY: [off, off + rec) and the line at `next` are free (room above), so we own
        // those bytes until we publish `flag`; the record fits before the end (wrap above).
        unsafe {
            header(self.base, next).flag.store(0, Ordering::Relaxed);
            let cell = self.base.add(CACHE_LINE + self.off);
            let mut dst = cell.add(CELL_HEADER);
            for p in parts {
                std::ptr::copy_nonoverlapping(p.as_ptr(), dst, p.len());
                dst = dst.add(p.len());
            }
            let hdr = &mut *(cell as *mut CellHeader);
            hdr.len = total as u32;
            hdr.imm = imm;
            hdr.flag.store(FLAG_MSG, Ordering::Release);
        }
        self.head += rec as u64;
        self.off = next;
        true
    }
}

impl RingRx {
    /// # Safety
    /// As for `RingTx::new`, with exactly one consumer.
    pub unsafe fn new(base: *mut u8, geo: RingGeometry) -> Self {
        Self {
            base,
            area: geo.area(),
            max_payload: geo.max_payload(),
            off: 0,
            consumed: 0,
            current: 0,
        }
    }

    /// The next message and its immediate word, if one has arrived. Call `pop` when done
    /// with it.
    #[inline]
    pub fn peek(&mut self) -> Option<(u32, &[u8])> {
        // SAFETY: `off` is a line multiple below the area's end (it wraps to 0 there).
        let mut hdr = unsafe { header(self.base, self.off) };
        let mut flag = hdr.flag.load(Ordering::Acquire);
        if flag == FLAG_WRAP {
            self.consumed += (self.area - self.off) as u64;
            self.off = 0;
            self.publish();
            // SAFETY: offset 0 is inside the area.
            hdr = unsafe { header(self.base, 0) };
            flag = hdr.flag.load(Ordering::Acquire);
        }
        if flag != FLAG_MSG {
            return None;
        }
        // The length comes from another process: clamp it to the record and the area.
        let len = (hdr.len as usize)
            .min(self.max_payload)
            .min(self.area - self.off - CELL_HEADER);
        self.current = record(len);
        // SAFETY: the acquire load above makes the producer's payload visible, and the
        // producer won't touch the record until we advance `tail` in `pop`; the slice stays
        // inside the area (clamped above).
        Some((hdr.imm, unsafe {
            std::slice::from_raw_parts(self.base.add(CACHE_LINE + self.off + CELL_HEADER), len)
        }))
    }

    /// Release the message returned by `peek`.
    #[inline]
    pub fn pop(&mut self) {
        self.consumed += self.current as u64;
        self.off += self.current;
        if self.off >= self.area {
            self.off = 0;
        }
        self.current = 0;
        self.publish();
    }

    #[inline]
    fn publish(&self) {
        // SAFETY: the control line is at base (constructor contract).
        let ctl = unsafe { &*(self.base as *const RingCtl) };
        ctl.tail.store(self.consumed, Ordering::Release);
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
        let big = geo.max_payload();
        for round in 0..10u8 {
            // Three of the largest fit: a fourth would leave no line for the next flag.
            for i in 0..3u8 {
                let body = vec![round ^ i; big - 2];
                assert!(tx.try_push(i as u32 * 3, &[&[round, i], &body]));
            }
            assert!(!tx.try_push(0, &[&vec![1u8; big]]), "ring must be full");
            for i in 0..3u8 {
                let (imm, msg) = rx.peek().unwrap();
                assert_eq!(imm, i as u32 * 3);
                assert_eq!(msg.len(), big);
                assert_eq!(&msg[..2], &[round, i]);
                assert!(msg[2..].iter().all(|&b| b == round ^ i));
                rx.pop();
            }
            assert!(rx.peek().is_none());
        }
    }

    /// Short records land where older laps left long payloads: bytes that look like a
    /// published header (flag 1 everywhere) must never be read as one.
    #[test]
    fn stale_payload_never_passes_for_a_header() {
        let geo = RingGeometry {
            ncells: 4,
            cell_size: 256,
        };
        let mut mem = Mem::new(geo);
        let base = mem.base();
        let (mut tx, mut rx) = unsafe { (RingTx::new(base, geo), RingRx::new(base, geo)) };
        let lookalike: Vec<u8> = 1u32.to_le_bytes().repeat(geo.max_payload() / 4);
        let mut sent = 0u32;
        let mut got = 0u32;
        for step in 0..2000u32 {
            // Sizes that move record boundaries around the area (and across its end).
            let len = [1usize, 200, 60, 240, 7, 130][step as usize % 6];
            if tx.try_push(sent, &[&lookalike[..len]]) {
                sent += 1;
            }
            if step % 3 != 0 {
                while let Some((imm, msg)) = rx.peek() {
                    assert_eq!(imm, got, "records in order, none invented");
                    assert_eq!(msg, &lookalike[..msg.len()]);
                    rx.pop();
                    got += 1;
                }
            }
        }
        while let Some((imm, _)) = rx.peek() {
            assert_eq!(imm, got);
            rx.pop();
            got += 1;
        }
        assert_eq!(got, sent);
        assert!(sent > 1000);
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
