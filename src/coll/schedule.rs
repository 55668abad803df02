//! Collective schedules: a collective written once as a list of steps, run by the progress
//! engine. A step posts sends and receives on the communicator's collective context that
//! may proceed together, and when all of them have completed, runs its local work (a
//! reduction, a copy) before the next step starts. Nonblocking collectives return at once
//! and advance whenever the process makes progress (any MPI call); blocking ones start a
//! schedule and wait for it.
//!
//! Sans-I/O like the point-to-point engine: `Schedules::progress` is driven with the
//! engine and rail the runtime owns.

use crate::comm::Communicator;
use crate::error::{Error, ErrorClass, Result};
use crate::pt2pt::Io;
use crate::pt2pt::{Pattern, Pt2pt, ReqId, SendStart};

/// Names a running schedule.
pub type CollId = u64;

/// Where a send takes its bytes from or a receive puts them.
#[derive(Clone, Copy, Debug)]
pub enum Buf {
    /// Application memory (valid until the collective completes, by MPI's rules).
    User { ptr: *mut u8, len: usize },
    /// `len` bytes at `off` in scratch buffer `idx` of the schedule.
    Scratch { idx: usize, off: usize, len: usize },
}

/// Local work after a step: it gets the schedule's scratch buffers. Results for the
/// application are written by the last step's work (it may capture user pointers).
pub type LocalWork = Box<dyn FnMut(&mut [Vec<u8>]) -> Result<()> + Send>;

/// `local`: on an intercommunicator, an operation with a member of the local group (on
/// its local intracommunicator's collective context), not with the remote group.
enum Op {
    Send { peer: usize, buf: Buf, local: bool },
    Recv { src: usize, buf: Buf, local: bool },
}

#[derive(Default)]
struct Step {
    ops: Vec<Op>,
    local: Option<LocalWork>,
}

/// A collective under construction, then running.
pub struct Schedule {
    ctx: u32,
    /// The context of operations within the local group (`ctx` but on an
    /// intercommunicator).
    local_ctx: u32,
    my_rank: i32,
    tag: i32,
    steps: Vec<Step>,
    scratch: Vec<Vec<u8>>,
    next: usize,
    /// Requests of the step in flight, with the byte count each receive must bring.
    active: Vec<(ReqId, Option<usize>)>,
    started: bool,
    /// Its sequence number was taken for it (not pinned by a persistent collective).
    took_seq: bool,
}

// SAFETY: the raw pointers in `Buf::User` are application buffers that MPI keeps valid and
// untouched until the collective completes; a schedule runs under the engine's lock.
unsafe impl Send for Schedule {}

thread_local! {
    /// A sequence number taken earlier, for the next schedule made on this thread: (kind,
    /// number).
    static PINNED_SEQ: std::cell::Cell<Option<(i32, u32)>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with the next schedule made on this thread numbered `seq` (a number taken
/// from `Communicator::next_coll_seq(kind)` before; the schedule must be of that kind): a persistent collective takes its place
/// in the collective order when it is initialized, and every start runs under it, so the
/// members may start several in different orders (MPI-4.0 §6.13).
pub fn with_pinned_seq<T>(kind: i32, seq: u32, f: impl FnOnce() -> T) -> T {
    PINNED_SEQ.set(Some((kind, seq)));
    let r = f();
    PINNED_SEQ.set(None);
    r
}

impl Schedule {
    /// A schedule on `comm`'s collective context for collective kind `kind` (0..64). Its
    /// tag combines the kind with the communicator's collective sequence number, so
    /// collectives in flight together (and the runtime's own fixed-tag collectives, which
    /// use tags below 64) never exchange messages by mistake.
    pub fn new(comm: &Communicator, kind: i32) -> Self {
        let pinned = PINNED_SEQ.take().map(|(k, seq)| {
            // A number from another kind's sequence could repeat a tag of this kind's.
            assert_eq!(k, kind, "a persistent collective pinned to another kind");
            seq
        });
        let took_seq = pinned.is_none();
        let seq = pinned.unwrap_or_else(|| comm.next_coll_seq(kind));
        let seq = (seq % (1 << 24)) as i32;
        Schedule {
            ctx: comm.coll_ctx(),
            local_ctx: comm.local_comm().coll_ctx(),
            my_rank: comm.rank as i32,
            tag: ((seq + 1) << 6) | (kind & 63),
            // No step until the first operation: a call that ends up on `coll::direct`
            // opens a schedule for its tag only, and should not pay an allocation for it.
            steps: Vec::new(),
            scratch: Vec::new(),
            next: 0,
            active: Vec::new(),
            started: false,
            took_seq,
        }
    }

    /// Whether making it took the communicator's next sequence number (see
    /// `Communicator::give_back_coll_seq`).
    pub fn took_seq(&self) -> bool {
        self.took_seq
    }

    /// Its kind (`coll::KIND_*`).
    pub fn kind(&self) -> i32 {
        self.tag & 63
    }

    /// The tag of this call's messages.
    pub fn tag(&self) -> i32 {
        self.tag
    }

    /// A zeroed scratch buffer of `len` bytes; returns its index.
    pub fn scratch(&mut self, len: usize) -> usize {
        self.scratch.push(vec![0u8; len]);
        self.scratch.len() - 1
    }

    /// A scratch buffer holding a copy of `bytes`.
    pub fn scratch_from(&mut self, bytes: Vec<u8>) -> usize {
        self.scratch.push(bytes);
        self.scratch.len() - 1
    }

    /// The step under construction.
    fn current(&mut self) -> &mut Step {
        if self.steps.is_empty() {
            self.steps.push(Step::default());
        }
        self.steps.last_mut().expect("just ensured")
    }

    /// Send `buf` to communicator rank `dst` (`peer`: its world rank) in the current step.
    pub fn send(&mut self, comm: &Communicator, dst: usize, buf: Buf) {
        let peer = comm.world_rank(dst);
        let local = false;
        self.current().ops.push(Op::Send { peer, buf, local });
    }

    /// Receive exactly `buf`'s length from communicator rank `src` in the current step.
    pub fn recv(&mut self, src: usize, buf: Buf) {
        let local = false;
        self.current().ops.push(Op::Recv { src, buf, local });
    }

    /// Send `buf` to local-group rank `dst` of an intercommunicator.
    pub fn send_local(&mut self, comm: &Communicator, dst: usize, buf: Buf) {
        let peer = comm.local_world_rank(dst);
        let local = true;
        self.current().ops.push(Op::Send { peer, buf, local });
    }

    /// Receive exactly `buf`'s length from local-group rank `src` of an intercommunicator.
    pub fn recv_local(&mut self, src: usize, buf: Buf) {
        let local = true;
        self.current().ops.push(Op::Recv { src, buf, local });
    }

    /// Local work once the current step's transfers are done; ends the step.
    pub fn then(&mut self, work: LocalWork) {
        self.current().local = Some(work);
        self.steps.push(Step::default());
    }

    /// End the current step without local work (the next operations wait for it).
    pub fn barrier(&mut self) {
        if self.steps.last().is_some_and(|st| !st.ops.is_empty()) {
            self.steps.push(Step::default());
        }
    }

    fn resolve(&mut self, b: Buf) -> (*mut u8, usize) {
        match b {
            Buf::User { ptr, len } => (ptr, len),
            Buf::Scratch { idx, off, len } => {
                let v = &mut self.scratch[idx];
                assert!(off + len <= v.len(), "scratch range outside its buffer");
                // SAFETY: off + len <= v.len() (asserted); scratch vectors are never
                // resized while the schedule runs, so the pointer stays valid.
                (unsafe { v.as_mut_ptr().add(off) }, len)
            }
        }
    }

    /// Advance as far as possible. Ok(true) when finished.
    fn advance(&mut self, p2p: &mut Pt2pt, io: &mut impl Io) -> Result<bool> {
        loop {
            if self.started {
                // Wait for the step in flight.
                for &(req, _) in &self.active {
                    if p2p.is_done(req) == Some(false) {
                        return Ok(false);
                    }
                }
                for (req, want) in std::mem::take(&mut self.active) {
                    let st = p2p.take_if_done(req).unwrap_or_default();
                    if let Some(want) = want {
                        if st.truncated() || st.count != want {
                            return Err(Error::new(
                                ErrorClass::Truncate,
                                format!(
                                    "collective message of {} bytes where {want} were expected: \
                                     do all ranks call the same collective with matching counts?",
                                    st.count
                                ),
                            ));
                        }
                    }
                }
                if let Some(mut work) = self.steps[self.next].local.take() {
                    work(&mut self.scratch)?;
                }
                self.next += 1;
            }
            self.started = true;
            if self.next >= self.steps.len() {
                return Ok(true);
            }
            let ops = std::mem::take(&mut self.steps[self.next].ops);
            for op in ops {
                match op {
                    Op::Send { peer, buf, local } => {
                        let (ptr, len) = self.resolve(buf);
                        let ctx = if local { self.local_ctx } else { self.ctx };
                        // SAFETY: `resolve` gives a live buffer that stays valid until the
                        // step completes (user buffers by MPI's rules, scratch owned here).
                        let s = unsafe {
                            p2p.send(io, peer, ctx, self.my_rank, self.tag, ptr, len, false)
                        };
                        if let SendStart::Pending(req) = s {
                            self.active.push((req, None));
                        }
                    }
                    Op::Recv { src, buf, local } => {
                        let (ptr, len) = self.resolve(buf);
                        let pat = Pattern {
                            ctx: if local { self.local_ctx } else { self.ctx },
                            src: Some(src as i32),
                            tag: Some(self.tag),
                        };
                        // SAFETY: as for sends.
                        let req = unsafe { p2p.recv(pat, ptr, len) };
                        self.active.push((req, Some(len)));
                    }
                }
            }
        }
    }
}

/// The running schedules of a process. Few run at once, so plain vectors searched
/// linearly beat a hash map here (a small barrier is a handful of polls, and hashing
/// showed up in its profile).
#[derive(Default)]
pub struct Schedules {
    running: Vec<(CollId, Schedule)>,
    finished: Vec<(CollId, Result<()>)>,
    /// Running schedules whose result nobody will take (freed requests).
    detached: Vec<CollId>,
    next_id: CollId,
}

impl Schedules {
    pub fn start(&mut self, s: Schedule, p2p: &mut Pt2pt, io: &mut impl Io) -> CollId {
        self.next_id += 1;
        let id = self.next_id;
        self.running.push((id, s));
        self.advance_at(self.running.len() - 1, p2p, io);
        id
    }

    /// Advance the schedule at `idx` of `running`; true when it finished (and moved out).
    fn advance_at(&mut self, idx: usize, p2p: &mut Pt2pt, io: &mut impl Io) -> bool {
        let outcome = match self.running[idx].1.advance(p2p, io) {
            Ok(false) => return false,
            Ok(true) => Ok(()),
            Err(e) => Err(e),
        };
        // Keep start order: a later schedule must not overtake an earlier one in polling.
        let (id, _) = self.running.remove(idx);
        match self.detached.iter().position(|&d| d == id) {
            Some(pos) => {
                self.detached.swap_remove(pos);
                if let Err(e) = outcome {
                    tracing::warn!("a freed nonblocking collective failed: {e}");
                }
            }
            None => self.finished.push((id, outcome)),
        }
        true
    }

    /// Forget `id`'s result: now if it has finished, else when it does.
    pub fn detach(&mut self, id: CollId) {
        if self.is_running(id) {
            self.detached.push(id);
        } else if let Some(pos) = self.finished.iter().position(|(f, _)| *f == id) {
            if let (_, Err(e)) = self.finished.swap_remove(pos) {
                tracing::warn!("a freed nonblocking collective failed: {e}");
            }
        }
    }

    /// Advance every running schedule; returns how many finished.
    pub fn progress(&mut self, p2p: &mut Pt2pt, io: &mut impl Io) -> usize {
        let mut done = 0;
        let mut i = 0;
        while i < self.running.len() {
            if self.advance_at(i, p2p, io) {
                done += 1;
            } else {
                i += 1;
            }
        }
        done
    }

    pub fn has_work(&self) -> bool {
        !self.running.is_empty()
    }

    fn is_running(&self, id: CollId) -> bool {
        self.running.iter().any(|(r, _)| *r == id)
    }

    pub fn is_done(&self, id: CollId) -> bool {
        !self.is_running(id)
    }

    /// The result of a finished schedule (removing it), None while it runs.
    pub fn take_if_done(&mut self, id: CollId) -> Option<Result<()>> {
        if self.is_running(id) {
            return None;
        }
        match self.finished.iter().position(|(f, _)| *f == id) {
            Some(pos) => Some(self.finished.swap_remove(pos).1),
            // Already taken (a request freed and waited on twice reads as done).
            None => Some(Ok(())),
        }
    }
}
