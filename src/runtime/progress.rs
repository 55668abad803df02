//! Progress and waiting. One progress state per process (the channels, the point-to-point
//! engine, the collectives in flight) behind one lock: a call takes the lock, polls the
//! channels, runs protocol work, and releases it. Waiting threads spin briefly, then
//! yield, then sleep on the process's doorbell, so ranks that outnumber cores (or threads
//! that outnumber them) still let the process that holds the work run.

use crate::channel::Channels;
use crate::coll::schedule::Schedules;
use crate::fabric::Doorbell;
use crate::pt2pt::Pt2pt;
use parking_lot::lock_api::RawMutex as _;
use parking_lot::RawMutex;
use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::time::Duration;

/// What progress moves: the channels to every peer, the point-to-point protocol engine
/// over them, and the collective schedules over that.
pub struct ProgressState {
    /// The virtual channels to every peer (over the rails `fabric::open` chose).
    pub channels: Channels,
    pub p2p: Pt2pt,
    /// Collectives in flight (nonblocking ones, and blocking ones being waited for).
    pub colls: Schedules,
}

impl ProgressState {
    /// One round of progress; returns how many events happened.
    #[inline]
    pub fn progress(&mut self) -> usize {
        let mut n = self.channels.poll(&mut |ev| self.p2p.on_event(ev));
        if self.p2p.has_output() {
            n += self.output();
        }
        if self.colls.has_work() {
            n += self.colls.progress(&mut self.p2p, &mut self.channels);
        }
        n
    }

    /// Queued protocol output: replies, streams, RDMA posts. Out of line: the polling
    /// loop stays small (waiters spin on it).
    #[inline(never)]
    fn output(&mut self) -> usize {
        let ProgressState {
            channels: ch, p2p, ..
        } = self;
        // Flush first so requests for the peer's help (PUT_REQ) leave before our copy.
        let mut n = p2p.flush(ch);
        n += p2p.run_rdma(ch);
        // A rail that completes inside the post (shm): continue those protocols (FIN, a
        // run table's payload read, the next block) in this same round, so nothing is left
        // waiting in a rail when a waiter goes to sleep.
        let mut rounds = 0;
        while ch.has_completions() && rounds < 8 {
            n += ch.poll(&mut |ev| p2p.on_event(ev));
            // The replies (FIN, PUT_DONE) leave before the next copy starts.
            n += p2p.flush(ch);
            n += p2p.run_rdma(ch);
            rounds += 1;
        }
        n + p2p.flush(ch)
    }
}

/// How long a waiter spins and yields before it sleeps.
#[derive(Clone, Copy, Debug)]
pub struct WaitPolicy {
    pub spins: u32,
    pub yields: u32,
}

/// Longest sleep between checks: a safety net, wakeups come from the doorbell.
const MAX_SLEEP: Duration = Duration::from_millis(20);

/// The progress state behind a lock that is taken only when the program asked for
/// MPI_THREAD_MULTIPLE. At the lower levels MPI promises that no two threads are in MPI at
/// once, and a locked instruction right after a send would make the sender wait for its
/// cache-line transfers to finish instead of overlapping them with the next message
/// (MPICH makes the same choice).
struct StateCell {
    raw: RawMutex,
    threaded: bool,
    state: UnsafeCell<ProgressState>,
}

// SAFETY: access to `state` goes through `lock`, which excludes other threads when
// `threaded`; otherwise MPI's thread level forbids concurrent calls into the library.
unsafe impl Sync for StateCell {}
unsafe impl Send for StateCell {}

struct StateGuard<'a>(&'a StateCell);

impl StateCell {
    #[inline]
    fn lock(&self) -> StateGuard<'_> {
        if self.threaded {
            self.raw.lock();
        }
        StateGuard(self)
    }
}

impl Drop for StateGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        if self.0.threaded {
            // SAFETY: this guard took the lock in `StateCell::lock`.
            unsafe { self.0.raw.unlock() };
        }
    }
}

impl Deref for StateGuard<'_> {
    type Target = ProgressState;
    fn deref(&self) -> &ProgressState {
        // SAFETY: the guard stands for exclusive access (see StateCell).
        unsafe { &*self.0.state.get() }
    }
}

impl DerefMut for StateGuard<'_> {
    fn deref_mut(&mut self) -> &mut ProgressState {
        // SAFETY: as for deref.
        unsafe { &mut *self.0.state.get() }
    }
}

pub struct Progress {
    state: StateCell,
    doorbell: Doorbell,
    policy: WaitPolicy,
    /// Times a waiter went to sleep (reported at finalize in the debug log).
    pub sleeps: std::sync::atomic::AtomicU64,
}

impl Progress {
    /// `threaded`: the program asked for MPI_THREAD_MULTIPLE.
    pub fn new(
        state: ProgressState,
        doorbell: Doorbell,
        policy: WaitPolicy,
        threaded: bool,
    ) -> Self {
        Self {
            state: StateCell {
                raw: RawMutex::INIT,
                threaded,
                state: UnsafeCell::new(state),
            },
            doorbell,
            policy,
            sleeps: Default::default(),
        }
    }

    /// Run `f` on the progress state after one round of progress.
    #[inline]
    pub fn with<T>(&self, f: impl FnOnce(&mut ProgressState) -> T) -> T {
        let mut e = self.state.lock();
        self.step(&mut e);
        f(&mut e)
    }

    /// Run `f` on the progress state without polling first.
    #[inline]
    pub fn locked<T>(&self, f: impl FnOnce(&mut ProgressState) -> T) -> T {
        let mut e = self.state.lock();
        let before = e.p2p.completions;
        let t = f(&mut e);
        if self.state.threaded && e.p2p.completions != before {
            self.doorbell.ring();
        }
        t
    }

    #[inline]
    fn step(&self, e: &mut ProgressState) -> usize {
        let before = e.p2p.completions;
        let n = e.progress();
        if self.state.threaded && e.p2p.completions != before {
            // Another thread of ours may be asleep waiting for what just completed.
            self.doorbell.ring();
        }
        n
    }

    /// Make progress until `ready` returns a value.
    pub fn wait<T>(&self, mut ready: impl FnMut(&mut ProgressState) -> Option<T>) -> T {
        // Often it is ready already (a request that completed earlier): no poll needed.
        if let Some(t) = ready(&mut self.state.lock()) {
            return t;
        }
        let mut idle = 0u32;
        loop {
            {
                let mut e = self.state.lock();
                let events = self.step(&mut e);
                if let Some(t) = ready(&mut e) {
                    return t;
                }
                if events > 0 {
                    idle = 0;
                }
            }
            idle = idle.saturating_add(1);
            if idle < self.policy.spins && !crate::rma::helper_has_work() {
                std::hint::spin_loop();
            } else if idle < self.policy.spins.saturating_add(self.policy.yields) {
                crate::sys::cpu::yield_now();
            } else {
                let ticket = self.doorbell.prepare();
                let mut e = self.state.lock();
                self.step(&mut e);
                if let Some(t) = ready(&mut e) {
                    self.doorbell.cancel(ticket);
                    return t;
                }
                drop(e);
                self.sleeps
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                self.doorbell.sleep(ticket, MAX_SLEEP);
                idle = self.policy.spins;
            }
        }
    }
}
