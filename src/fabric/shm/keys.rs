//! The shm rail's remote keys: each process publishes a table of its registrations in the
//! job's shared segment, and a process about to place data in a peer's memory (CMA) checks
//! the peer's table first — the key must name a live registration (not a deregistered one)
//! that holds every byte of the transfer with the rights it needs. A forged, stale or
//! out-of-range key moves nothing: the operation completes with an error.
//!
//! A key is `(slot + 1) << 32 | generation`. A slot's generation is odd while the slot is
//! live and even while it is free; each registration and each release advances it, so the
//! key of a released registration never names its slot again (until the 32-bit generation
//! wraps, after 2^31 reuses of one slot). Readers take a seqlock-style snapshot: generation,
//! then base, length and rights, then the generation again.

use crate::fabric::memory::RemoteKey;
use crate::fabric::RdmaOp;
use parking_lot::Mutex;
use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

/// Slots per process: registrations (in use or cached) one process keys at once.
pub const KEY_SLOTS: usize = 4096;

/// The peer may read the memory (RDMA read).
pub const RIGHT_READ: u32 = 1;
/// The peer may write the memory (RDMA write).
pub const RIGHT_WRITE: u32 = 2;

/// The right a transfer needs at its target.
pub fn right_for(op: RdmaOp) -> u32 {
    match op {
        RdmaOp::Read => RIGHT_READ,
        RdmaOp::Write => RIGHT_WRITE,
    }
}

#[repr(C, align(32))]
#[derive(Default)]
pub struct KeySlot {
    gen: AtomicU32,
    rights: AtomicU32,
    base: AtomicU64,
    len: AtomicU64,
}

/// Bytes one process's table occupies.
pub const TABLE_BYTES: usize = KEY_SLOTS * std::mem::size_of::<KeySlot>();

/// Why a key does not allow a transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyError {
    /// Not a key this table ever issued (slot out of range, or the none key).
    Unknown,
    /// The registration was released (or the generation does not match).
    Stale,
    /// A byte of the transfer lies outside the registered range.
    OutOfRange,
    /// The registration does not grant this access.
    Rights,
}

impl std::fmt::Display for KeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KeyError::Unknown => "unknown remote key",
            KeyError::Stale => "stale remote key (memory deregistered)",
            KeyError::OutOfRange => "transfer outside the registered memory",
            KeyError::Rights => "access not granted by the registration",
        })
    }
}

fn split(key: RemoteKey) -> Option<(usize, u32)> {
    let slot = (key.0 >> 32).checked_sub(1)? as usize;
    (slot < KEY_SLOTS).then_some((slot, key.0 as u32))
}

/// Check that `key` in `table` grants `rights` on every `(addr, len)` of `spans`.
///
/// # Safety
/// `table` must point to `KEY_SLOTS` slots that stay mapped during the call (in a shared
/// segment another process writes only through the atomics above).
pub unsafe fn check(
    table: *const KeySlot,
    key: RemoteKey,
    spans: impl Iterator<Item = (u64, u64)>,
    rights: u32,
) -> Result<(), KeyError> {
    let (slot, gen) = split(key).ok_or(KeyError::Unknown)?;
    // SAFETY: slot < KEY_SLOTS (split) and the table holds that many (caller's contract).
    let s = unsafe { &*table.add(slot) };
    if gen & 1 == 0 || s.gen.load(Ordering::Acquire) != gen {
        return Err(KeyError::Stale);
    }
    let (base, len, granted) = (
        s.base.load(Ordering::Relaxed),
        s.len.load(Ordering::Relaxed),
        s.rights.load(Ordering::Relaxed),
    );
    // The snapshot counts only if the slot was not released or reused meanwhile.
    fence(Ordering::Acquire);
    if s.gen.load(Ordering::Relaxed) != gen {
        return Err(KeyError::Stale);
    }
    if granted & rights != rights {
        return Err(KeyError::Rights);
    }
    let end = base.saturating_add(len);
    for (a, n) in spans {
        if n == 0 {
            continue;
        }
        match a.checked_add(n) {
            Some(e) if a >= base && e <= end => {}
            _ => return Err(KeyError::OutOfRange),
        }
    }
    Ok(())
}

/// The owner's side of one table: issues and revokes keys.
pub struct KeyIssuer {
    table: *const KeySlot,
    free: Mutex<Vec<u32>>,
}

// SAFETY: the table is written only through atomics, and slot allocation is under `free`'s
// lock; the memory outlives the issuer (its owner keeps the segment or allocation alive).
unsafe impl Send for KeyIssuer {}
unsafe impl Sync for KeyIssuer {}

impl KeyIssuer {
    /// # Safety
    /// `table` must point to `KEY_SLOTS` zeroed (or previously consistent) slots that stay
    /// valid for the issuer's life, written by no one else.
    pub unsafe fn new(table: *const KeySlot) -> Self {
        Self {
            table,
            free: Mutex::new((0..KEY_SLOTS as u32).rev().collect()),
        }
    }

    fn slot(&self, i: usize) -> &KeySlot {
        // SAFETY: i < KEY_SLOTS (callers), the table is valid (constructor contract).
        unsafe { &*self.table.add(i) }
    }

    /// Key `[base, base+len)` with `rights`; None when every slot is in use.
    pub fn issue(&self, base: u64, len: u64, rights: u32) -> Option<RemoteKey> {
        let i = self.free.lock().pop()? as usize;
        let s = self.slot(i);
        // Free slots have an even generation: peers' checks fail until it turns odd.
        s.base.store(base, Ordering::Relaxed);
        s.len.store(len, Ordering::Relaxed);
        s.rights.store(rights, Ordering::Relaxed);
        let gen = s.gen.load(Ordering::Relaxed).wrapping_add(1) | 1;
        s.gen.store(gen, Ordering::Release);
        Some(RemoteKey(((i as u64 + 1) << 32) | gen as u64))
    }

    /// Revoke `key`: from now on every check of it fails. Unknown keys are ignored.
    pub fn revoke(&self, key: RemoteKey) {
        let Some((i, gen)) = split(key) else { return };
        let s = self.slot(i);
        if s.gen.load(Ordering::Relaxed) != gen {
            return;
        }
        s.gen.store(gen.wrapping_add(1) & !1, Ordering::Release);
        self.free.lock().push(i as u32);
    }

    /// The table's first slot.
    pub fn table(&self) -> *const KeySlot {
        self.table
    }

    /// Keys in force.
    pub fn live(&self) -> usize {
        KEY_SLOTS - self.free.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Box<[KeySlot]> {
        (0..KEY_SLOTS).map(|_| KeySlot::default()).collect()
    }

    #[test]
    fn issued_keys_check_and_revoked_keys_fail() {
        let t = table();
        let keys = unsafe { KeyIssuer::new(t.as_ptr()) };
        let k = keys
            .issue(0x1000, 0x2000, RIGHT_READ | RIGHT_WRITE)
            .unwrap();
        let chk = |k, a, n, r| unsafe { check(t.as_ptr(), k, [(a, n)].into_iter(), r) };
        assert_eq!(chk(k, 0x1000, 0x2000, RIGHT_WRITE), Ok(()));
        assert_eq!(chk(k, 0x2fff, 1, RIGHT_READ), Ok(()));
        assert_eq!(chk(k, 0xfff, 2, RIGHT_READ), Err(KeyError::OutOfRange));
        assert_eq!(chk(k, 0x2fff, 2, RIGHT_READ), Err(KeyError::OutOfRange));
        assert_eq!(chk(k, u64::MAX, 2, RIGHT_READ), Err(KeyError::OutOfRange));
        assert_eq!(
            chk(RemoteKey::NONE, 0x1000, 1, RIGHT_READ),
            Err(KeyError::Unknown)
        );
        assert_eq!(
            chk(RemoteKey(u64::MAX), 0x1000, 1, RIGHT_READ),
            Err(KeyError::Unknown)
        );
        // Forged generations of a live slot.
        assert_eq!(
            chk(RemoteKey(k.0 ^ 2), 0x1000, 1, RIGHT_READ),
            Err(KeyError::Stale)
        );
        assert_eq!(
            chk(RemoteKey(k.0 + 1), 0x1000, 1, RIGHT_READ),
            Err(KeyError::Stale)
        );
        keys.revoke(k);
        assert_eq!(chk(k, 0x1000, 1, RIGHT_READ), Err(KeyError::Stale));
        // The slot comes back with a new generation: the old key stays dead.
        let k2 = keys.issue(0x1000, 0x2000, RIGHT_READ).unwrap();
        assert_ne!(k, k2);
        assert_eq!(chk(k, 0x1000, 1, RIGHT_READ), Err(KeyError::Stale));
        assert_eq!(chk(k2, 0x1000, 1, RIGHT_READ), Ok(()));
        assert_eq!(chk(k2, 0x1000, 1, RIGHT_WRITE), Err(KeyError::Rights));
    }

    #[test]
    fn table_runs_out_and_recovers() {
        let t = table();
        let keys = unsafe { KeyIssuer::new(t.as_ptr()) };
        let all: Vec<_> = (0..KEY_SLOTS)
            .map(|i| keys.issue(i as u64 * 4096, 4096, RIGHT_READ).unwrap())
            .collect();
        assert_eq!(keys.live(), KEY_SLOTS);
        assert!(keys.issue(0, 1, RIGHT_READ).is_none());
        keys.revoke(all[17]);
        keys.revoke(all[17]); // twice: ignored
        assert_eq!(keys.live(), KEY_SLOTS - 1);
        assert!(keys.issue(0, 1, RIGHT_READ).is_some());
    }
}
