//! Progress and waiting. One progress state per process (the channels, the point-to-point
//! engine, the collectives in flight) behind one lock: a call takes the lock, polls the
//! channels, runs protocol work, and releases it. Waiting threads spin briefly, then
//! yield, then sleep on the process's doorbell, so ranks that outnumber cores (or threads
//! that outnumber them) still let the process that holds the work run. When ranks
//! outnumber cores, a waiter yields only while its yields let others run (`YieldProbe`),
//! else it sleeps at once.

use crate::channel::{Channels, Event};
use crate::coll::schedule::Schedules;
use crate::fabric::{AtomicOp, Completion, Doorbell, RailError, RemoteKeys, Transfer};
use crate::pt2pt::{ChannelIo, Pt2pt};
use crate::registration::Registry;
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
    /// Where the engine's registrations go (None: a job of one, nothing to key).
    pub registry: Option<Registry>,
    /// Count the pages each RDMA transfer faults in (RAILMPI_STATS).
    pub count_faults: bool,
    pub p2p: Pt2pt,
    /// Collectives in flight (nonblocking ones, and blocking ones being waited for).
    pub colls: Schedules,
    /// One-sided transfers posted for windows (tokens with `RMA_TOKEN`), and the
    /// completions that came back for them, waiting to be collected.
    pub rma_posted: u64,
    pub rma_done: Vec<Completion>,
    /// What partitioned channels share (`partitioned::Matching`).
    pub partitioned: super::partitioned::Matching,
}

/// Completions of posts made for windows carry this bit; the engine's tokens stay below it
/// (and the channel keeps the top bit for the parts of cut transfers).
const RMA_TOKEN: u64 = 1 << 62;

/// Where a channel event goes: completions of window transfers to `rma_done`, everything
/// else to the point-to-point engine.
#[inline(always)]
fn route(p2p: &mut Pt2pt, rma_done: &mut Vec<Completion>, ev: Event<'_>) {
    match ev {
        Event::Completion(c) if c.token & RMA_TOKEN != 0 => rma_done.push(c),
        ev => p2p.on_event(ev),
    }
}

impl ProgressState {
    /// One round of progress; returns how many events happened.
    #[inline]
    pub fn progress(&mut self) -> usize {
        let ProgressState {
            channels,
            p2p,
            rma_done,
            ..
        } = self;
        let mut n = channels.poll(&mut |ev| route(p2p, rma_done, ev));
        p2p.polled();
        if self.p2p.has_output() {
            n += self.output();
        }
        if self.colls.has_work() {
            let (p2p, mut io, colls) = self.split();
            n += colls.progress(p2p, &mut io);
        }
        n
    }

    /// The engine, the `Io` that carries out its actions (on these channels and this
    /// registry), and the collectives: borrowed apart.
    #[inline]
    pub fn split(&mut self) -> (&mut Pt2pt, ChannelIo<'_>, &mut Schedules) {
        let (p2p, io, colls, _) = self.parts();
        (p2p, io, colls)
    }

    /// `split`, and the window completions the poll routes aside.
    #[inline]
    fn parts(
        &mut self,
    ) -> (
        &mut Pt2pt,
        ChannelIo<'_>,
        &mut Schedules,
        &mut Vec<Completion>,
    ) {
        let ProgressState {
            channels,
            registry,
            count_faults,
            p2p,
            colls,
            rma_done,
            ..
        } = self;
        let io = ChannelIo {
            ch: channels,
            registry: registry.as_ref(),
            count_faults: *count_faults,
        };
        (p2p, io, colls, rma_done)
    }

    /// Queued protocol output: replies, streams, RDMA posts. Out of line: the polling
    /// loop stays small (waiters spin on it).
    #[inline(never)]
    fn output(&mut self) -> usize {
        let (p2p, mut io, _, rma_done) = self.parts();
        // Flush first so requests for the peer's help (PUT_REQ) leave before our copy.
        let mut n = p2p.flush(&mut io);
        n += p2p.run_rdma(&mut io);
        // A rail that completes inside the post (shm): continue those protocols (FIN, a
        // run table's payload read, the next block) in this same round, so nothing is left
        // waiting in a rail when a waiter goes to sleep.
        let mut rounds = 0;
        while io.ch.has_completions() && rounds < 8 {
            n += io.ch.poll(&mut |ev| route(p2p, rma_done, ev));
            // The replies (FIN, PUT_DONE) leave before the next copy starts.
            n += p2p.flush(&mut io);
            n += p2p.run_rdma(&mut io);
            rounds += 1;
        }
        n + p2p.flush(&mut io)
    }

    /// Post a window's transfer `t` (its token unused) on the channel to rank `t.peer`;
    /// its token, for `take_rma`.
    ///
    /// # Safety
    /// As for `Channels::post`.
    pub unsafe fn post_rma(&mut self, t: &Transfer<'_>) -> Result<u64, RailError> {
        self.rma_posted += 1;
        let token = RMA_TOKEN | (self.rma_posted & (RMA_TOKEN - 1));
        // SAFETY: the caller's contract.
        unsafe { self.channels.post(&Transfer { token, ..*t }) }.map(|()| token)
    }

    /// Post a window's 64-bit atomic on the word at `remote` in rank `peer`; its token, for
    /// `take_rma` (the completion carries the previous value).
    pub fn post_rma_atomic(
        &mut self,
        peer: usize,
        op: AtomicOp,
        remote: u64,
        rkeys: &RemoteKeys,
    ) -> Result<u64, RailError> {
        self.rma_posted += 1;
        let token = RMA_TOKEN | (self.rma_posted & (RMA_TOKEN - 1));
        self.channels
            .post_atomic(peer, op, remote, rkeys, token)
            .map(|()| token)
    }

    /// The completion of window transfer `token`, if it came.
    pub fn take_rma(&mut self, token: u64) -> Option<Completion> {
        let i = self.rma_done.iter().position(|c| c.token == token)?;
        Some(self.rma_done.swap_remove(i))
    }
}

/// How long a waiter spins and yields before it sleeps.
#[derive(Clone, Copy, Debug)]
pub struct WaitPolicy {
    pub spins: u32,
    pub yields: u32,
    /// Stop yielding (and sleep) as soon as yields stop letting anything else run; set
    /// when ranks outnumber cores, where a yield that comes straight back is worse than
    /// useless (see `YieldProbe`).
    pub yield_check: bool,
}

/// Yields between two checks that yielding still switches to someone.
const YIELD_PROBE: u32 = 2;

/// Whether this thread's yields let other tasks run. `sched_yield` only offers the CPU to
/// tasks of the caller's own scheduling group. Our mpiexec keeps a job's ranks in one
/// session, so with kernel autogroups (sched_autogroup_enabled) they share one group and a
/// yield hands the core to the peer a rank waits for. Hydra starts each rank in a session
/// of its own (and cgroup setups may give each its own group): then a rank is
/// alone in its group, a yield often returns at once, and a waiter burns the slice the
/// peer needs — measured at 16 ranks on 2 cores under Hydra while other sessions kept the
/// cores busy: 99% of yields switched nothing, 40x fewer allreduces per second than in one
/// session (on an idle machine they mostly switch). A yield that switched counts as an
/// involuntary context switch, so the count before and after a few yields tells; checking
/// every 2nd yield did better under load than every 8th or 32nd.
struct YieldProbe {
    switches: Option<i64>,
}

impl YieldProbe {
    /// Called before yield number `k` of a run of yields (from 0): false once the last
    /// `YIELD_PROBE` yields switched to nobody.
    #[inline(never)]
    fn worth_yielding(&mut self, k: u32) -> bool {
        if !k.is_multiple_of(YIELD_PROBE) {
            return true;
        }
        let now = crate::sys::cpu::involuntary_switches();
        let before = std::mem::replace(&mut self.switches, now);
        // A kernel that does not say keeps the plain policy (yield, then sleep).
        k == 0 || now.is_none() || now != before
    }
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

/// Exclusive access to the progress state (see `Progress::lock`); wakes sleeping threads
/// when dropped if requests completed meanwhile.
pub struct Locked<'a> {
    guard: StateGuard<'a>,
    before: u64,
    progress: &'a Progress,
}

impl Deref for Locked<'_> {
    type Target = ProgressState;
    #[inline(always)]
    fn deref(&self) -> &ProgressState {
        &self.guard
    }
}

impl DerefMut for Locked<'_> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut ProgressState {
        &mut self.guard
    }
}

impl Drop for Locked<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        if self.progress.state.threaded && self.guard.p2p.completions != self.before {
            self.progress.doorbell.ring();
        }
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
        f(&mut self.lock())
    }

    /// The progress state, without polling first, as a guard (what `locked` does, for a
    /// hot path whose arguments should reach the engine in registers: a closure stores
    /// what it captures and reads it back, with wider loads that stall store forwarding).
    #[inline(always)]
    pub fn lock(&self) -> Locked<'_> {
        let guard = self.state.lock();
        let before = guard.p2p.completions;
        Locked {
            guard,
            before,
            progress: self,
        }
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

    /// Wake the threads asleep in `wait` (something they may wait for happened outside
    /// the engine: MPI_Grequest_complete).
    pub fn wake(&self) {
        self.doorbell.ring();
    }

    /// Make progress until `ready` returns a value.
    pub fn wait<T>(&self, mut ready: impl FnMut(&mut ProgressState) -> Option<T>) -> T {
        // Often it is ready already (a request that completed earlier): no poll needed.
        if let Some(t) = ready(&mut self.state.lock()) {
            return t;
        }
        self.poll_until(ready)
    }

    /// `wait`, polling before the first look (for what is rarely ready before a poll:
    /// a transfer posted just before, at its flush).
    pub fn poll_until<T>(&self, mut ready: impl FnMut(&mut ProgressState) -> Option<T>) -> T {
        let mut idle = 0u32;
        let mut probe = YieldProbe { switches: None };
        // While we poll here, we serve our helper's requests (dropped while we sleep).
        let mut polling = None;
        loop {
            // Counted from the second look, or once it served the helper's requests (a
            // shared counter's two atomic updates are a cost the many waits that end at
            // their first poll need not pay).
            if idle > 0 {
                polling.get_or_insert_with(crate::rma::helper_polling);
            }
            {
                let mut e = self.state.lock();
                let events = self.step(&mut e);
                if let Some(t) = ready(&mut e) {
                    return t;
                }
                if events > 0 {
                    // Work is arriving: look again at once. (With no spins, as when ranks
                    // outnumber cores, a yield here handed the core to a peer with nothing
                    // to do in the middle of a burst: 2 pairs on 2 cores, a 64-message
                    // window, 4.5 switches per window instead of 2.)
                    idle = 0;
                    continue;
                }
            }
            idle = idle.saturating_add(1);
            // Peers' requests to our RMA helper: served here, by a thread that has nothing
            // better to do, without waking the helper.
            // (Looked at once: on verbs the look polls the service rail.)
            let helper_work = crate::rma::helper_has_work();
            if helper_work && crate::rma::helper_serve_here() > 0 {
                polling.get_or_insert_with(crate::rma::helper_polling);
                idle = 0;
                continue;
            }
            // Work another thread is serving: give it the core rather than spin.
            if idle < self.policy.spins && !helper_work {
                std::hint::spin_loop();
            } else if idle < self.policy.spins.saturating_add(self.policy.yields)
                && (!self.policy.yield_check
                    || probe.worth_yielding(idle.saturating_sub(self.policy.spins)))
            {
                crate::sys::cpu::yield_now();
            } else {
                let ticket = self.doorbell.prepare();
                let mut e = self.state.lock();
                // Armed before the last look: what arrives after it rings the doorbell.
                e.channels.arm();
                self.step(&mut e);
                if let Some(t) = ready(&mut e) {
                    self.doorbell.cancel(ticket);
                    return t;
                }
                drop(e);
                polling = None;
                super::lifetime::check_peers();
                self.sleeps
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                self.doorbell.sleep(ticket, MAX_SLEEP);
                idle = self.policy.spins;
            }
        }
    }
}
