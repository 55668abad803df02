//! A doorbell: how a waiting process sleeps until a peer (or another thread of its own)
//! has something for it, so oversubscribed runs don't burn the cores they share.
//!
//! The sleeper publishes itself in `sleepers`, re-checks for work, then futex-waits on `seq`.
//! A waker that made work visible (release store) rings only when `sleepers` is non-zero.
//! Store-then-load on both sides needs a full barrier between them on each side, or one of
//! them could miss the other. A SeqCst fence on every send would serialise the sender on
//! its cache misses (it dominated the message rate), so where the kernel offers it the
//! sleeper pays instead: `membarrier` runs that barrier on every registered process's CPU
//! (see `sys::membarrier`), and wakers then only need to keep the compiler from reordering.
//! A doorbell whose owner sleeps often (ranks outnumber cores) is marked `fenced`: its
//! wakers fence and its sleepers skip the far dearer membarrier.

use crate::sys::{futex, membarrier};
use std::sync::atomic::{compiler_fence, fence, AtomicBool, AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// Whether this process registered for membarrier (then its wakers skip the fence).
static ASYMMETRIC: OnceLock<bool> = OnceLock::new();
/// Whether sleepers issue membarrier (any process of the node may skip its fence).
static SLEEPER_BARRIER: AtomicBool = AtomicBool::new(false);

/// Choose the barrier scheme; call once before any doorbell is used.
pub fn init_barriers() {
    SLEEPER_BARRIER.store(membarrier::supported(), Ordering::Relaxed);
    ASYMMETRIC.get_or_init(membarrier::register);
}

#[repr(C)]
#[derive(Default)]
pub struct DoorbellWords {
    pub seq: AtomicU32,
    pub sleepers: AtomicU32,
    /// Non-zero: this doorbell's sleepers skip `membarrier` and whoever rings it fences
    /// (set by its owner before peers see it; see `Doorbell::set_fenced`).
    pub fenced: AtomicU32,
}

/// A handle to doorbell words, in shared memory or in this process.
#[derive(Clone, Copy)]
pub struct Doorbell {
    words: *const DoorbellWords,
}

// SAFETY: the words are atomics that live as long as the rail (shared segment) or the
// process (leaked local words); access is only through atomic operations.
unsafe impl Send for Doorbell {}
unsafe impl Sync for Doorbell {}

pub struct SleepTicket {
    seq: u32,
}

impl Doorbell {
    /// # Safety
    /// `words` must stay valid for every use of the returned handle.
    pub unsafe fn new(words: *const DoorbellWords) -> Self {
        Self { words }
    }

    /// A doorbell for a process with no shared rail (singleton); lives for the process.
    /// Only our own threads ring it, so it is fenced (`set_fenced`): a fence per ring
    /// instead of a `membarrier` per sleep.
    pub fn local() -> Self {
        let words: &'static DoorbellWords = Box::leak(Box::default());
        let bell = Self { words };
        bell.set_fenced();
        bell
    }

    fn w(&self) -> &DoorbellWords {
        // SAFETY: validity is the constructor's contract.
        unsafe { &*self.words }
    }

    /// Make whoever rings this doorbell fence, so that its sleepers can skip `membarrier`:
    /// for a process that sleeps often (ranks that outnumber cores sleep in most waits), a
    /// barrier IPI to every CPU per sleep costs more than a fence per message (in a VM the
    /// IPIs were a fifth of such a job's CPU time). Call before peers can ring it (a ring
    /// that still missed it only delays a wake-up to the sleep's timeout).
    pub fn set_fenced(&self) {
        self.w().fenced.store(1, Ordering::SeqCst);
    }

    /// Announce that we are about to sleep. The caller must re-check for work afterwards
    /// and then call `sleep` or `cancel`.
    pub fn prepare(&self) -> SleepTicket {
        let w = self.w();
        let seq = w.seq.load(Ordering::SeqCst);
        w.sleepers.fetch_add(1, Ordering::SeqCst);
        if w.fenced.load(Ordering::Relaxed) != 0 {
            // Our half of the Dekker pattern; the wakers fence theirs.
            fence(Ordering::SeqCst);
        } else if SLEEPER_BARRIER.load(Ordering::Relaxed) {
            // Stands in for the fence registered wakers skip. (It cannot fail once
            // supported; if it did, the sleep's timeout would still end the wait.)
            membarrier::global_expedited();
        }
        SleepTicket { seq }
    }

    pub fn sleep(&self, ticket: SleepTicket, timeout: Duration) {
        let w = self.w();
        if w.seq.load(Ordering::SeqCst) == ticket.seq {
            futex::wait(&w.seq, ticket.seq, timeout);
        }
        w.sleepers.fetch_sub(1, Ordering::SeqCst);
    }

    pub fn cancel(&self, _ticket: SleepTicket) {
        self.w().sleepers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Wake sleepers, if any; cheap when nobody sleeps (a shared load, plus a fence where
    /// membarrier is unavailable).
    #[inline]
    pub fn ring(&self) {
        let w = self.w();
        if ASYMMETRIC.get().copied().unwrap_or(false) && w.fenced.load(Ordering::Relaxed) == 0 {
            compiler_fence(Ordering::SeqCst);
        } else {
            fence(Ordering::SeqCst);
        }
        if w.sleepers.load(Ordering::Relaxed) != 0 {
            w.seq.fetch_add(1, Ordering::SeqCst);
            futex::wake_all(&w.seq);
        }
    }
}
