//! A doorbell: how a waiting process sleeps until a peer (or another thread of its own)
//! has something for it, so oversubscribed runs don't burn the cores they share.
//!
//! The sleeper publishes itself in `sleepers`, re-checks for work, then futex-waits on `seq`.
//! A waker that made work visible (release store) issues a SeqCst fence, and rings only when
//! `sleepers` is non-zero; the fences on both sides make it impossible for both to miss.

use crate::sys::futex;
use std::sync::atomic::{fence, AtomicU32, Ordering};
use std::time::Duration;

#[repr(C)]
#[derive(Default)]
pub struct DoorbellWords {
    pub seq: AtomicU32,
    pub sleepers: AtomicU32,
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
    pub fn local() -> Self {
        let words: &'static DoorbellWords = Box::leak(Box::default());
        Self { words }
    }

    fn w(&self) -> &DoorbellWords {
        // SAFETY: validity is the constructor's contract.
        unsafe { &*self.words }
    }

    /// Announce that we are about to sleep. The caller must re-check for work afterwards
    /// and then call `sleep` or `cancel`.
    pub fn prepare(&self) -> SleepTicket {
        let w = self.w();
        let seq = w.seq.load(Ordering::SeqCst);
        w.sleepers.fetch_add(1, Ordering::SeqCst);
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

    /// Wake sleepers, if any; cheap when nobody sleeps (a fence and a shared load).
    #[inline]
    pub fn ring(&self) {
        fence(Ordering::SeqCst);
        let w = self.w();
        if w.sleepers.load(Ordering::Relaxed) != 0 {
            w.seq.fetch_add(1, Ordering::SeqCst);
            futex::wake_all(&w.seq);
        }
    }
}
