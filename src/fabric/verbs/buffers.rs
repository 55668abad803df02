//! Registered buffers the rail owns: the receive buffers of the shared receive queue, the
//! send bounce buffers, and the 8-byte words atomics return into. Each pool is one
//! anonymous mapping (page-aligned, never handed back to an allocator while registered)
//! registered as one memory region, cut into equal slots.

use super::domain::VerbsDomain;
use super::module::abi;
use std::io;

pub struct Pool {
    base: *mut u8,
    bytes: usize,
    pub slot: usize,
    pub count: usize,
    pub mr: abi::Mr,
    free: Vec<u32>,
}

// SAFETY: the pool owns its mapping; the rail that owns the pool is the only user.
unsafe impl Send for Pool {}

impl Pool {
    /// `count` slots of `slot` bytes, registered with `domain`.
    pub fn new(domain: &VerbsDomain, slot: usize, count: usize) -> io::Result<Pool> {
        let bytes = (slot * count).next_multiple_of(4096).max(4096);
        // SAFETY: an anonymous private mapping; no existing memory is affected.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let base = base as *mut u8;
        let mr = match domain.register_raw(base as u64, bytes as u64) {
            Ok(mr) => mr,
            Err(e) => {
                // SAFETY: the mapping made above, unused.
                unsafe { libc::munmap(base.cast(), bytes) };
                return Err(e);
            }
        };
        Ok(Pool {
            base,
            bytes,
            slot,
            count,
            mr,
            free: (0..count as u32).rev().collect(),
        })
    }

    pub fn take(&mut self) -> Option<u32> {
        self.free.pop()
    }

    pub fn give(&mut self, i: u32) {
        debug_assert!(!self.free.contains(&i));
        self.free.push(i);
    }

    pub fn available(&self) -> usize {
        self.free.len()
    }

    pub fn addr(&self, i: u32) -> u64 {
        self.base as u64 + i as u64 * self.slot as u64
    }

    /// Slot `i`'s bytes.
    pub fn slice(&self, i: u32, len: usize) -> &[u8] {
        assert!((i as usize) < self.count && len <= self.slot);
        // SAFETY: in bounds of the mapping (checked above); the pool owns it for its life.
        unsafe { std::slice::from_raw_parts(self.base.add(i as usize * self.slot), len) }
    }

    pub fn slice_mut(&mut self, i: u32) -> &mut [u8] {
        assert!((i as usize) < self.count);
        // SAFETY: in bounds; `&mut self` makes this the only view of the slot here (the
        // adapter touches only slots posted to it, which the rail never hands out).
        unsafe { std::slice::from_raw_parts_mut(self.base.add(i as usize * self.slot), self.slot) }
    }

    pub fn sge(&self, i: u32, len: usize) -> abi::Sge {
        abi::Sge {
            addr: self.addr(i),
            len: len as u32,
            lkey: self.mr.lkey,
        }
    }

    /// Release the region and the mapping (the context must still be open).
    pub fn release(&mut self, domain: &VerbsDomain) {
        if self.base.is_null() {
            return;
        }
        domain.deregister_raw(self.mr.handle);
        // SAFETY: our mapping, deregistered above, with no slot posted any more.
        unsafe { libc::munmap(self.base.cast(), self.bytes) };
        self.base = std::ptr::null_mut();
    }
}
