//! The `hooks` invalidation method: libmpi.so defines `munmap`, `mremap`, `madvise`, `brk`
//! and `sbrk` itself. The dynamic linker searches the program and its libraries in load
//! order, and libmpi comes before libc, so the application's calls (and other libraries')
//! land here. Each one forwards to the real operation and, once a registry has armed the
//! hooks, records what went away as the same `Event`s the userfaultfd monitor reads
//! (`Unmap`, `Remove`, `Remap`); the registry applies them under its own lock before every
//! lookup, whichever source they came from.
//!
//! What interposition cannot see: glibc's own calls (malloc trimming its heap or unmapping a
//! large chunk) go to internal, non-exported functions. So a registry built with `hooks`
//! also keeps malloc from giving memory back (`vmem::keep_allocator_memory`, as `no-trim`):
//! the hooks cover what the program does itself, no-trim what malloc does inside.
//!
//! Events are recorded *after* the forwarded call succeeded, so a failed call (say
//! `MADV_DONTNEED` on locked memory) changes nothing. A thread that maps and registers the
//! same address in the instant between another thread's `munmap` returning and its event
//! being queued races the application's own `munmap`; the registration is then found invalid
//! (`Registration::is_valid`) rather than silently stale.
//!
//! Subscribers: every armed registry has a queue of its own (unit tests build several
//! registries at once; one shared queue would let the first registry to drain it eat the
//! others' events). The queues sit in a small fixed table behind a read-write lock: a hook
//! takes the read lock and each queue's lock, pushes without allocating (capacity fixed, an
//! overflow flag past it), and never touches a registry's lock — the reasoning of
//! `uffd_monitor.rs`: a thread that holds a registry lock and unmaps must not wait for it.
//! When no registry is armed a hook costs one relaxed atomic load beyond the system call.

use super::uffd_monitor::{Queue, QUEUE_CAPACITY};
use crate::sys::userfaultfd::Event;
use crate::sys::vmem;
use libc::{c_int, c_void, intptr_t, size_t};
use parking_lot::{Mutex, RwLock};
#[cfg(test)]
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Registries that may be armed at once (one per rail in a process; a few in unit tests).
const MAX_SUBSCRIBERS: usize = 16;

/// True while at least one subscriber is in the table.
static ARMED: AtomicBool = AtomicBool::new(false);

type Slot = Option<Arc<Mutex<Queue>>>;

static SUBSCRIBERS: RwLock<[Slot; MAX_SUBSCRIBERS]> =
    RwLock::new([const { None }; MAX_SUBSCRIBERS]);

/// One registry's place in the table; its queue gets every event from `arm` to drop.
pub(crate) struct Subscription {
    queue: Arc<Mutex<Queue>>,
    slot: usize,
}

impl Subscription {
    pub fn queue(&self) -> &Mutex<Queue> {
        &self.queue
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let gone = {
            let mut subs = SUBSCRIBERS.write();
            let gone = subs[self.slot].take();
            ARMED.store(subs.iter().any(Option::is_some), Ordering::Release);
            gone
        };
        // Freed outside the lock: nothing that might reach a hook runs under it.
        drop(gone);
    }
}

/// Start recording into a new queue (capacity allocated here, once). None when the table
/// is full.
pub(crate) fn arm() -> Option<Subscription> {
    let queue = Arc::new(Mutex::new(Queue {
        events: Vec::with_capacity(QUEUE_CAPACITY),
        overflow: false,
    }));
    // (When full, the guard goes before `queue` is freed: nothing is freed under the lock.)
    let mut subs = SUBSCRIBERS.write();
    let slot = subs.iter().position(Option::is_none)?;
    subs[slot] = Some(queue.clone());
    ARMED.store(true, Ordering::Release);
    Some(Subscription { queue, slot })
}

/// Whether any registry listens (for tests).
#[cfg(test)]
pub(crate) fn armed() -> bool {
    ARMED.load(Ordering::Acquire)
}

#[inline]
fn armed_now() -> bool {
    // Relaxed suffices: a registration made after `arm` that the caller's memory
    // operation is ordered after (the only one that matters) also orders the store.
    ARMED.load(Ordering::Relaxed)
}

/// Events recorded (tests check that unarmed hooks record nothing).
#[cfg(test)]
pub(crate) static RECORDED: AtomicUsize = AtomicUsize::new(0);

/// Queue `ev` for every subscriber. Never allocates; never takes a registry's lock.
#[cold]
fn record(ev: Event) {
    #[cfg(test)]
    RECORDED.fetch_add(1, Ordering::Relaxed);
    let subs = SUBSCRIBERS.read();
    for q in subs.iter().flatten() {
        let mut q = q.lock();
        // The registry swaps in a spare of the same capacity: `push` never reallocates.
        if q.events.len() < q.events.capacity() {
            q.events.push(ev);
        } else {
            q.overflow = true;
        }
    }
}

fn page_up(x: usize) -> usize {
    let pg = vmem::page_size();
    x.checked_add(pg - 1)
        .map_or(usize::MAX & !(pg - 1), |v| v & !(pg - 1))
}

/// The pages `[addr, addr+len)` names for the kernel: `addr` is page-aligned (the call
/// succeeded), `len` rounds up.
fn pages(addr: usize, len: usize) -> (usize, usize) {
    (addr, page_up(addr.saturating_add(len)))
}

/// `munmap(2)`, recording `Unmap`.
///
/// # Safety
/// As `munmap(2)`: the caller gives back a mapping nothing will touch again.
#[no_mangle]
pub unsafe extern "C" fn munmap(addr: *mut c_void, len: size_t) -> c_int {
    // SAFETY: the caller's munmap, passed on unchanged; syscall sets errno on failure.
    let rc = unsafe { libc::syscall(libc::SYS_munmap, addr, len) } as c_int;
    if rc == 0 && armed_now() && len > 0 {
        let (start, end) = pages(addr as usize, len);
        record(Event::Unmap { start, end });
    }
    rc
}

/// `mremap(2)`, recording `Remap` when the mapping moved (or grew) and `Unmap` of the tail
/// cut off.
///
/// C declares it variadic (`new_address` is passed only with `MREMAP_FIXED`). On x86-64 and
/// aarch64 Linux a variadic call passes these integer arguments exactly as a call to this
/// five-parameter function does, so the definition is ABI-compatible for callers; the
/// fifth parameter is read only when `flags` has `MREMAP_FIXED` (otherwise it is garbage).
///
/// # Safety
/// As `mremap(2)`.
#[no_mangle]
pub unsafe extern "C" fn mremap(
    old: *mut c_void,
    old_size: size_t,
    new_size: size_t,
    flags: c_int,
    new_address: *mut c_void,
) -> *mut c_void {
    let target = if flags & libc::MREMAP_FIXED != 0 {
        new_address
    } else {
        std::ptr::null_mut()
    };
    // SAFETY: the caller's mremap, passed on unchanged (a null fifth argument is ignored
    // by the kernel without MREMAP_FIXED); syscall sets errno and returns -1 on failure.
    let r = unsafe { libc::syscall(libc::SYS_mremap, old, old_size, new_size, flags, target) };
    if r == -1 {
        return libc::MAP_FAILED;
    }
    let to = r as usize;
    if armed_now() {
        let from = old as usize;
        let (old_len, new_len) = (page_up(old_size), page_up(new_size));
        if new_len < old_len {
            // Shrinking cuts the tail off first (then what is left may move).
            record(Event::Unmap {
                start: from + new_len,
                end: from + old_len,
            });
        }
        // Moved: the kept pages are elsewhere now. Grown in place: nothing moved, but the
        // kernel locks a locked mapping's new tail, which no registration accounts for;
        // reporting a remap onto itself has the registry drop the entry and unlock that
        // tail (as it does for a move that grows).
        let kept = old_len.min(new_len);
        if (to != from || new_len > old_len) && kept > 0 {
            record(Event::Remap {
                from,
                to,
                len: kept,
            });
        }
    }
    to as *mut c_void
}

/// `madvise(2)`, recording `Remove` for the advice that drops pages.
///
/// # Safety
/// As `madvise(2)`: dropping pages loses their contents.
#[no_mangle]
pub unsafe extern "C" fn madvise(addr: *mut c_void, len: size_t, advice: c_int) -> c_int {
    // SAFETY: the caller's madvise, passed on unchanged; syscall sets errno on failure.
    let rc = unsafe { libc::syscall(libc::SYS_madvise, addr, len, advice) } as c_int;
    if rc == 0 && armed_now() && len > 0 && drops_pages(advice) {
        let (start, end) = pages(addr as usize, len);
        record(Event::Remove { start, end });
    }
    rc
}

fn drops_pages(advice: c_int) -> bool {
    matches!(
        advice,
        libc::MADV_DONTNEED | libc::MADV_FREE | libc::MADV_REMOVE | libc::MADV_DONTNEED_LOCKED
    )
}

extern "C" {
    /// glibc's `sbrk` proper (exported, GLIBC_2.2.5): it keeps glibc's cached break
    /// (`__curbrk`) right, which a raw `brk` system call would not.
    fn __sbrk(increment: intptr_t) -> *mut c_void;
}

/// Pages `[new, old)` of the heap went away: the whole pages above the new break.
fn heap_lowered(old: usize, new: usize) {
    let (start, end) = (page_up(new), page_up(old));
    if start < end && armed_now() {
        record(Event::Unmap { start, end });
    }
}

/// `sbrk(2)`, recording `Unmap` of the whole pages a negative increment gives back.
///
/// # Safety
/// As `sbrk(2)`: nothing may use the memory given back.
#[no_mangle]
pub unsafe extern "C" fn sbrk(increment: intptr_t) -> *mut c_void {
    // SAFETY: glibc's sbrk with the caller's argument.
    let old = unsafe { __sbrk(increment) };
    if old as isize != -1 && increment < 0 {
        let old = old as usize;
        heap_lowered(old, old.wrapping_add_signed(increment));
    }
    old
}

/// `brk(2)`, through `__sbrk` (glibc's `__brk` is not exported), recording like `sbrk`.
///
/// # Safety
/// As `brk(2)`.
#[no_mangle]
pub unsafe extern "C" fn brk(addr: *mut c_void) -> c_int {
    // SAFETY: sbrk(0) only reads the break.
    let cur = unsafe { __sbrk(0) };
    if cur as isize == -1 {
        return -1;
    }
    let increment = (addr as isize).wrapping_sub(cur as isize);
    // SAFETY: glibc's sbrk moving the break to `addr`, as the caller asked.
    let old = unsafe { __sbrk(increment) };
    if old as isize == -1 {
        return -1;
    }
    if increment < 0 {
        heap_lowered(old as usize, addr as usize);
    }
    0
}
