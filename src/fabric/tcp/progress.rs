//! The tcp rail's progress thread: accepts and makes connections (authenticating each),
//! reads every socket, places tagged writes, answers reads and atomics, completes the
//! operations this process posted, and hands messages to the thread that polls the rail.
//! It sleeps in epoll when nothing happens.
//!
//! Handshakes (`auth.rs`): an accepted connection decides nothing until its connector has
//! proven the job's secret — a stranger's Hello claiming a rank must not cancel, delay or
//! replace a real connection. On the proof the acceptor keeps the connection (Welcome,
//! link up, our own dial to that rank dropped) unless it is connected to the rank already,
//! or it is dialing the rank and has the lower rank (Tsai §III-B: the lower rank's dial
//! stays); the dialer's link is up only at the Welcome, and a dial that closes before it
//! is made again. Accepted connections awaiting their proof are bounded (in all and per
//! source address, the oldest evicted first), and every refusal is a rate-limited warning.

use super::auth::{self, Challenge, Hello, Role, Transcript, NONCE, VERSION};
use super::conn::{Body, Frame, Handler, OutFrame, ReadError, Reader, Sink};
use super::wire::{Header, Kind, Refusal, FLAG_CAS, FLAG_LAST, SEGMENT};
use super::{Inbound, LinkState, Loss, OpKind, Shared};
use crate::fabric::shm::keys::{self, KeyError, RIGHT_READ, RIGHT_WRITE};
use crate::fabric::{Completion, RailError, RemoteKey};
use crate::ratelimit::{suppressed_note, RateLimit};
use parking_lot::Mutex;
use polling::{Event, Events, PollMode};
use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Poller key of the listening socket; connection `i` has key `i + 1`.
const LISTENER: usize = 0;
/// Bytes read from one connection before the others get a turn.
const READ_BUDGET: usize = 4 << 20;
/// How long a leaving process waits for its peers' goodbyes.
const GOODBYE: Duration = Duration::from_secs(5);
/// How long the progress thread first naps while the rank drives the rail, and at most
/// (the longest a message waits for it once the rank stops polling).
const NAP_MIN: Duration = Duration::from_micros(50);
const NAP_MAX: Duration = Duration::from_millis(1);
/// The rank reads up to this many connections directly, not through the poller, and
/// looks at the poller every `DIRECT_EVERY`th turn anyway.
const DIRECT_CONNS: usize = 2;
const DIRECT_EVERY: u32 = 16;
/// How long a connection attempt may take, and a handshake.
const DIAL: Duration = Duration::from_secs(10);
/// How long an unproven connection claiming a rank already connected may stay: its own
/// dial from a simultaneous connect closes (or proves) within a round trip; a stranger's
/// is refused then.
const GRACE: Duration = Duration::from_secs(1);
/// Accepted connections awaiting their proof (see `Caps`): slack over what the job's own
/// ranks need, in all and per source address.
const PENDING_SLACK: usize = 16;
const PENDING_ADDR_SLACK: usize = 8;
/// How long accepting pauses when not even the spare descriptor frees one.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);
/// Warnings a stranger can trigger: at most this many per interval (then a count).
const WARN_BURST: u32 = 8;
const WARN_INTERVAL: Duration = Duration::from_secs(10);

enum Stage {
    /// Accepted; waiting for the connector's Hello.
    AwaitHello,
    AwaitProof {
        peer: usize,
        t: Transcript,
    },
    /// Dialed; waiting for the acceptor's Challenge.
    AwaitChallenge {
        peer: usize,
        nonce: [u8; NONCE],
    },
    /// Dialed and proven; waiting for the acceptor to keep the connection (it may drop
    /// it for its own dial to us, or one already up).
    AwaitWelcome {
        peer: usize,
    },
    Up {
        peer: usize,
    },
}

impl Stage {
    /// Accepted, and its connector has not proven the secret: it decides nothing and may
    /// be evicted.
    fn unproven(&self) -> bool {
        matches!(self, Stage::AwaitHello | Stage::AwaitProof { .. })
    }
}

struct Conn {
    stream: TcpStream,
    /// The peer's address, and ours (for messages).
    addr: SocketAddr,
    local: Option<SocketAddr>,
    reader: Reader,
    stage: Stage,
    /// Why the tagged frame being read was refused: kept with the connection, as its
    /// payload may arrive in a later read than its header.
    refused: Option<Refusal>,
    /// Whether the poller watches it for writability too.
    writable: bool,
    /// When it was opened, and when its handshake must have ended (`DIAL` later, or
    /// `GRACE` once it claims a rank connected meanwhile).
    since: Instant,
    deadline: Instant,
}

/// What the progress thread knows about its peers (beside the shared links).
struct Peers {
    /// The connection we dialed to a peer, while it is not up.
    dialing: HashMap<usize, usize>,
    /// The connection that carries a peer's frames.
    up: Vec<Option<usize>>,
}

/// Things a frame handler needs done to other connections once it returns.
enum Action {
    /// Connection `conn` carries `peer`'s link now: drop our other handshakes with it.
    Up { peer: usize, conn: usize },
}

/// Bounds on accepted connections awaiting their proof (anyone may open them). A job's
/// ranks dial from the address they listen on, one connection per rail at a time (two
/// while a refused one is made again), so an address gets twice the ranks listening
/// there, plus slack; all addresses together twice the job's ranks plus slack, but never
/// more than a quarter of the descriptors the process may open (the rest stay ours).
struct Caps {
    total: usize,
    per_addr: HashMap<IpAddr, usize>,
}

impl Caps {
    fn new(addrs: &[SocketAddr]) -> Caps {
        let mut per_addr = HashMap::new();
        for a in addrs {
            *per_addr.entry(a.ip()).or_insert(PENDING_ADDR_SLACK) += 2;
        }
        let total = (2 * addrs.len() + PENDING_SLACK).min((nofile() / 4).max(PENDING_SLACK));
        Caps { total, per_addr }
    }

    fn addr(&self, ip: IpAddr) -> usize {
        let n = self.per_addr.get(&ip).copied();
        n.unwrap_or(PENDING_ADDR_SLACK).min(self.total)
    }
}

/// The descriptors this process may open (its soft limit).
fn nofile() -> usize {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit to the pointer we pass.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } != 0 {
        return 1024;
    }
    usize::try_from(r.rlim_cur).unwrap_or(usize::MAX)
}

/// Whether an error says the process (or the system) has no descriptor left.
fn out_of_descriptors(e: &std::io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}

pub struct Progress {
    s: Arc<Shared>,
    events: Events,
    /// `(key, readable, writable)` of the events being served.
    ready: Vec<(usize, bool, bool)>,
    listener: TcpListener,
    conns: Vec<Option<Conn>>,
    peers: Peers,
    caps: Caps,
    /// The budget of warnings strangers can trigger.
    warn: RateLimit,
    /// A descriptor held in reserve: when the process has none left, it is closed to
    /// accept and close a connection, so that the listener stops reporting it (and a
    /// dial gets it when nothing else frees one).
    spare: crate::sys::net::SpareFd,
    /// Accepting is paused until then: no descriptor left, not even the spare.
    accept_paused: Option<Instant>,
    /// The rank's turns so far (every `DIRECT_EVERY`th looks at the poller).
    rank_turns: u32,
}

impl Progress {
    pub fn new(s: Arc<Shared>, listener: TcpListener) -> std::io::Result<Progress> {
        listener.set_nonblocking(true)?;
        // SAFETY: the listener is deleted from the poller before it is dropped (`run`).
        unsafe {
            s.poller
                .add_with_mode(&listener, Event::readable(LISTENER), PollMode::Level)?
        };
        let n = s.links.len();
        let caps = Caps::new(&s.addrs);
        Ok(Progress {
            s,
            events: Events::new(),
            ready: Vec::new(),
            listener,
            conns: Vec::new(),
            peers: Peers {
                dialing: HashMap::new(),
                up: vec![None; n],
            },
            caps,
            warn: RateLimit::new(WARN_BURST, WARN_INTERVAL),
            spare: crate::sys::net::SpareFd::new(),
            accept_paused: None,
            rank_turns: 0,
        })
    }

    /// The progress thread: it drives the rail while the rank does not (computing, or
    /// asleep in a wait), and naps while the rank's polls drive it (`turn` in the rank's
    /// thread: a message then reaches the rank without a switch between threads, which on
    /// a core shared with the rank cost tens of microseconds per message).
    pub fn run(engine: Arc<Mutex<Progress>>, s: Arc<Shared>) {
        // The rank may be pinned to one core and spin on it while it waits for what this
        // thread receives: run elsewhere when another core is free.
        let _ = crate::sys::cpu::unbind_thread();
        let mut seen = s.rank_polls.load(Ordering::Acquire);
        let mut nap = NAP_MIN;
        let mut leave_by: Option<Instant> = None;
        loop {
            let polls = s.rank_polls.load(Ordering::Acquire);
            if polls != seen && leave_by.is_none() {
                // The rank polled since we last looked: it drives; look again later, less
                // often the longer it keeps driving.
                seen = polls;
                std::thread::sleep(nap);
                nap = (nap * 2).min(NAP_MAX);
                continue;
            }
            nap = NAP_MIN;
            let mut p = engine.lock();
            // Whatever the rank asked for by waking us is served by this turn.
            s.rank_waiting.store(false, Ordering::Release);
            let timeout = match (leave_by, p.handshaking()) {
                (Some(_), _) => Some(Duration::from_millis(20)),
                _ if p.accept_paused.is_some() => Some(ACCEPT_PAUSE),
                (None, true) => Some(Duration::from_secs(1)),
                (None, false) => None,
            };
            p.turn(timeout);
            if s.stopping.load(Ordering::Acquire) {
                let deadline = *leave_by.get_or_insert_with(|| Instant::now() + GOODBYE);
                if p.all_gone() || Instant::now() > deadline {
                    p.finish();
                    return;
                }
            }
        }
    }

    /// Connections up, and accepted ones awaiting their proof (for tests).
    #[cfg(test)]
    pub(super) fn counts(&self) -> (usize, usize) {
        let conns = self.conns.iter().flatten();
        let up = conns
            .clone()
            .filter(|c| matches!(c.stage, Stage::Up { .. }))
            .count();
        (up, conns.filter(|c| c.stage.unproven()).count())
    }

    /// The most unproven connections kept at once.
    #[cfg(test)]
    pub(super) fn pending_cap(&self) -> usize {
        self.caps.total
    }

    fn handshaking(&self) -> bool {
        self.conns
            .iter()
            .flatten()
            .any(|c| !matches!(c.stage, Stage::Up { .. }))
    }

    /// One round: wait for events up to `timeout` (None: until one comes), then serve
    /// the rail's requests and every socket that is ready.
    pub fn turn(&mut self, timeout: Option<Duration>) {
        // The handlers need `self`: the events are copied out (into a buffer kept for
        // reuse).
        let mut ready = std::mem::take(&mut self.ready);
        ready.clear();
        let polled = timeout == Some(Duration::ZERO)
            && (self.direct_ready(&mut ready) || self.poll_now(&mut ready));
        if !polled {
            self.events.clear();
            if let Err(e) = self.s.poller.wait(&mut self.events, timeout) {
                if e.kind() != std::io::ErrorKind::Interrupted {
                    crate::fabric::fatal(&format!("tcp rail: epoll failed: {e}"));
                }
            }
            ready.clear();
            ready.extend(
                self.events
                    .iter()
                    .map(|ev| (ev.key, ev.readable, ev.writable)),
            );
        }
        if self.handshaking() {
            self.expire_handshakes();
        }
        if self.accept_paused.is_some_and(|t| Instant::now() >= t) {
            self.accept_paused = None;
            let _ = self.s.poller.modify_with_mode(
                &self.listener,
                Event::readable(LISTENER),
                PollMode::Level,
            );
            self.accept();
        }
        self.serve_requests();
        for &(key, readable, writable) in &ready {
            if key == LISTENER {
                self.accept();
                continue;
            }
            let i = key - 1;
            if readable {
                self.read(i);
            }
            if writable {
                self.flush(i);
            }
        }
        self.ready = ready;
    }

    /// The rank's look at few connections: each read at once (a `readv` that finds
    /// nothing costs what an `epoll_wait` does, and one that finds a message saves the
    /// `epoll_wait` before it on the message's path). False, `ready` empty, where the
    /// poller must look: more connections, a handshake, output waiting for room, paused
    /// accepts, or every `DIRECT_EVERY`th turn (new connections, the notification).
    fn direct_ready(&mut self, ready: &mut Vec<(usize, bool, bool)>) -> bool {
        self.rank_turns = self.rank_turns.wrapping_add(1);
        if self.rank_turns.is_multiple_of(DIRECT_EVERY) || self.accept_paused.is_some() {
            return false;
        }
        for (i, c) in self.conns.iter().enumerate() {
            let Some(c) = c else { continue };
            if c.writable || !matches!(c.stage, Stage::Up { .. }) || ready.len() == DIRECT_CONNS {
                ready.clear();
                return false;
            }
            ready.push((i + 1, true, false));
        }
        true
    }

    /// The rank's look at the sockets: one `epoll_wait` that does not block, where the
    /// poller's own wait costs five system calls (it arms a timer and re-arms its
    /// notification each time). False when the poller's notification or timer fired:
    /// only its wait clears and re-arms them (oneshot), so the caller makes that wait
    /// (level-triggered sockets report again there).
    fn poll_now(&mut self, ready: &mut Vec<(usize, bool, bool)>) -> bool {
        const MAX: usize = 64;
        let mut evs = [libc::epoll_event { events: 0, u64: 0 }; MAX];
        // SAFETY: the poller's epoll descriptor is open while `self.s` lives, and `evs`
        // holds MAX writable entries.
        let n = unsafe {
            libc::epoll_wait(
                self.s.poller.as_raw_fd(),
                evs.as_mut_ptr(),
                MAX as libc::c_int,
                0,
            )
        };
        if n < 0 {
            return false;
        }
        let (read, write) = (
            (libc::EPOLLIN | libc::EPOLLHUP | libc::EPOLLERR | libc::EPOLLPRI) as u32,
            (libc::EPOLLOUT | libc::EPOLLHUP | libc::EPOLLERR) as u32,
        );
        for ev in &evs[..n as usize] {
            let (flags, key) = (ev.events, ev.u64 as usize);
            // polling's key for its notification and timer.
            if key == usize::MAX {
                return false;
            }
            ready.push((key, flags & read != 0, flags & write != 0));
        }
        true
    }

    /// Every operation posted to `peer` completes with `RailError::Lost`.
    fn fail_ops(&mut self, peer: usize) {
        let failed: Vec<super::Op> = {
            let mut ops = self.s.ops.lock();
            let ids: Vec<u64> = ops
                .iter()
                .filter(|(_, o)| o.peer == peer)
                .map(|(&id, _)| id)
                .collect();
            ids.iter().filter_map(|id| ops.remove(id)).collect()
        };
        for o in failed {
            match o.waiter {
                Some(w) => w.set(Err(RailError::Lost(peer))),
                None => self.s.deliver(Inbound::Done(Completion {
                    token: o.token,
                    result: Err(RailError::Lost(peer)),
                })),
            }
        }
    }

    /// Stop watching every socket and close them (the process leaves).
    fn finish(&mut self) {
        let _ = self.s.poller.delete(&self.listener);
        for i in 0..self.conns.len() {
            self.close(i);
        }
    }

    /// Close connections whose handshake did not end in time (a client that connects and
    /// stays silent must not hold a peer's place).
    fn expire_handshakes(&mut self) {
        let now = Instant::now();
        for i in 0..self.conns.len() {
            let Some(c) = self.conns[i].as_ref() else {
                continue;
            };
            if matches!(c.stage, Stage::Up { .. }) || now < c.deadline {
                continue;
            }
            let why = match c.stage {
                Stage::AwaitProof { peer, .. } if self.peers.up[peer].is_some() => {
                    format!("rank {peer} is connected already (no proof within {GRACE:?})")
                }
                _ => "handshake timed out".into(),
            };
            self.lost(i, Why::Other(why));
        }
    }

    /// Our dial to `peer` failed: try again if frames wait for it and no other dial is
    /// under way; otherwise the link is idle again. (Connections accepted from it count
    /// for nothing until proven: anyone may claim to be `peer`.)
    fn retry(&mut self, peer: usize) {
        let other = self.peers.dialing.contains_key(&peer);
        let mut link = self.s.links[peer].lock();
        if link.state != LinkState::Connecting || other {
            return;
        }
        if link.out.is_empty() {
            link.state = LinkState::Idle;
        } else {
            drop(link);
            self.s.requests.lock().push(peer);
            let _ = self.s.poller.notify();
        }
    }

    /// Every peer we were connected to said goodbye and got ours.
    fn all_gone(&self) -> bool {
        (0..self.peers.up.len()).all(|p| {
            let link = self.s.links[p].lock();
            link.state != LinkState::Up || (self.s.bye_from(p) && link.out.is_empty())
        })
    }

    /// Peers the rail asked about: dial those waiting for a connection, watch the
    /// sockets of those with frames left over.
    fn serve_requests(&mut self) {
        let asked = std::mem::take(&mut *self.s.requests.lock());
        for peer in asked {
            let state = self.s.links[peer].lock().state;
            match state {
                LinkState::Connecting => {
                    // An unproven connection claiming `peer` is no reason to wait.
                    if !self.peers.dialing.contains_key(&peer) {
                        self.dial(peer);
                    }
                }
                LinkState::Up => {
                    if let Some(i) = self.peers.up[peer] {
                        self.flush(i);
                    }
                }
                LinkState::Idle | LinkState::Closed => {}
            }
        }
    }

    fn add(&mut self, stream: TcpStream, addr: SocketAddr, stage: Stage) -> Option<usize> {
        let i = match self.conns.iter().position(|c| c.is_none()) {
            Some(i) => i,
            None => {
                self.conns.push(None);
                self.conns.len() - 1
            }
        };
        // SAFETY: the stream is deleted from the poller before it is dropped (`close`).
        let added = unsafe {
            self.s
                .poller
                .add_with_mode(&stream, Event::readable(i + 1), PollMode::Level)
        };
        if let Err(e) = added {
            tracing::warn!("tcp rail: cannot watch a connection from {addr}: {e}");
            return None;
        }
        let local = stream.local_addr().ok();
        self.conns[i] = Some(Conn {
            stream,
            addr,
            local,
            reader: Reader::default(),
            stage,
            refused: None,
            writable: false,
            since: Instant::now(),
            deadline: Instant::now() + DIAL,
        });
        Some(i)
    }

    fn close(&mut self, i: usize) {
        let Some(c) = self.conns.get_mut(i).and_then(|c| c.take()) else {
            return;
        };
        let _ = self.s.poller.delete(&c.stream);
        match c.stage {
            Stage::Up { peer } => {
                let mut link = self.s.links[peer].lock();
                link.state = LinkState::Closed;
                link.fd = -1;
                self.peers.up[peer] = None;
            }
            Stage::AwaitChallenge { peer, .. } | Stage::AwaitWelcome { peer } => {
                if self.peers.dialing.get(&peer) == Some(&i) {
                    self.peers.dialing.remove(&peer);
                }
                self.retry(peer);
            }
            Stage::AwaitProof { .. } | Stage::AwaitHello => {}
        }
    }

    /// A warning a stranger can trigger, within the budget.
    fn warn(&mut self, msg: std::fmt::Arguments<'_>) {
        if let Some(n) = self.warn.allow(Instant::now()) {
            tracing::warn!("tcp rail: {msg}{}", suppressed_note(n));
        }
    }

    /// Close unproven connection `i` (evicted, or refused once its claim cannot hold),
    /// with a warning naming its address.
    fn refuse(&mut self, i: usize, why: &str) {
        let Some(c) = self.conns[i].as_ref() else {
            return;
        };
        let (addr, claim) = (c.addr, claim(&c.stage));
        self.warn(format_args!(
            "refused a connection from {addr}{claim}: {why}"
        ));
        self.close(i);
    }

    /// Unproven connections: (index, source address, opened), oldest first.
    fn unproven(&self) -> Vec<(usize, IpAddr, Instant)> {
        let mut v: Vec<_> = (self.conns.iter().enumerate())
            .filter_map(|(i, c)| c.as_ref().map(|c| (i, c)))
            .filter(|(_, c)| c.stage.unproven())
            .map(|(i, c)| (i, c.addr.ip(), c.since))
            .collect();
        v.sort_by_key(|e| e.2);
        v
    }

    /// Make room for a connection accepted from `ip`: while its address, or all
    /// addresses together, hold as many unproven connections as allowed, evict the
    /// oldest one of that address, or of the address holding the most.
    fn make_room(&mut self, ip: IpAddr) {
        loop {
            let pending = self.unproven();
            let from = pending.iter().filter(|e| e.1 == ip).count();
            let victim = if from >= self.caps.addr(ip) {
                pending.iter().find(|e| e.1 == ip)
            } else if pending.len() >= self.caps.total {
                let mut counts: HashMap<IpAddr, usize> = HashMap::new();
                for e in &pending {
                    *counts.entry(e.1).or_default() += 1;
                }
                let most = counts.iter().max_by_key(|(_, &n)| n).map(|(&a, _)| a);
                pending.iter().find(|e| Some(e.1) == most)
            } else {
                return;
            };
            let Some(&(i, _, _)) = victim else { return };
            self.refuse(i, "too many handshakes pending (the oldest goes)");
        }
    }

    /// Close the oldest unproven connection to free a descriptor; false when none is.
    fn evict_oldest(&mut self, why: &str) -> bool {
        match self.unproven().first() {
            Some(&(i, _, _)) => {
                self.refuse(i, why);
                true
            }
            None => false,
        }
    }

    fn accept(&mut self) {
        if self.accept_paused.is_some() {
            return;
        }
        loop {
            match self.listener.accept() {
                Ok((stream, addr)) => {
                    if stream.set_nonblocking(true).is_err() || stream.set_nodelay(true).is_err() {
                        continue;
                    }
                    set_timeouts(&stream, self.s.timeout(None).0);
                    self.make_room(addr.ip());
                    self.add(stream, addr, Stage::AwaitHello);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                // Interrupted, or reset by its client before we took it: the next one.
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::Interrupted | std::io::ErrorKind::ConnectionAborted
                    ) =>
                {
                    continue
                }
                Err(e) if out_of_descriptors(&e) => {
                    // No descriptor for the next connection: the oldest stranger's goes.
                    if self.evict_oldest(&format!("accept failed ({e}), its descriptor goes")) {
                        continue;
                    }
                    // None to take: accept with the spare and close at once, else the
                    // level-triggered listener reports the connection for ever (a spin).
                    if let Some(Ok(a)) = self.spare.accept_and_close(&self.listener) {
                        self.warn(format_args!(
                            "refused a connection from {a}: no descriptor left ({e})"
                        ));
                        continue;
                    }
                    self.warn(format_args!(
                        "accept failed: {e}; not accepting for {} ms",
                        ACCEPT_PAUSE.as_millis()
                    ));
                    self.pause_accepting();
                    return;
                }
                Err(e) => {
                    self.warn(format_args!("accept failed: {e}"));
                    self.pause_accepting();
                    return;
                }
            }
        }
    }

    /// Stop watching the listener for a while (its error would be reported at once).
    fn pause_accepting(&mut self) {
        self.accept_paused = Some(Instant::now() + ACCEPT_PAUSE);
        let _ =
            self.s
                .poller
                .modify_with_mode(&self.listener, Event::none(LISTENER), PollMode::Level);
    }

    fn dial(&mut self, peer: usize) {
        let addr = self.s.addrs[peer];
        let mut stream = self.connect(peer);
        if stream.as_ref().is_err_and(out_of_descriptors) {
            // Strangers' connections hold our descriptors: theirs go, ours comes first.
            let mut freed = 0;
            while self.evict_oldest(&format!("a descriptor is needed to reach rank {peer}")) {
                freed += 1;
            }
            tracing::debug!("tcp rail: freed {freed} descriptor(s) to reach rank {peer}");
            // The spare too: our own dial comes first.
            let mut spare = std::mem::take(&mut self.spare);
            stream = spare.freed(|| self.connect(peer));
            self.spare = spare;
        }
        match stream {
            Ok((st, nonce)) => {
                if let Some(i) = self.add(st, addr, Stage::AwaitChallenge { peer, nonce }) {
                    self.peers.dialing.insert(peer, i);
                }
            }
            Err(e) => crate::fabric::fatal(&format!(
                "rank {}: cannot connect to rank {peer} on host {} at {addr}: {e}",
                self.s.me, self.s.hosts[peer]
            )),
        }
    }

    /// A connection to `peer` with our Hello sent.
    fn connect(&self, peer: usize) -> std::io::Result<(TcpStream, [u8; NONCE])> {
        let addr = self.s.addrs[peer];
        crate::sys::net::connect_from(self.s.local_ip, addr, DIAL).and_then(|mut st| {
            st.set_nodelay(true)?;
            set_timeouts(&st, self.s.timeout(Some(peer)).0);
            let hello = Hello {
                version: VERSION,
                rank: self.s.me as u32,
                nonce: auth::random(),
            };
            write_frame(&mut st, Kind::Hello, &hello.encode())?;
            st.set_nonblocking(true)?;
            Ok((st, hello.nonce))
        })
    }

    /// Write a peer's queued frames; watch the socket for room while some are left.
    fn flush(&mut self, i: usize) {
        let Some(Stage::Up { peer }) = self.conns[i].as_ref().map(|c| &c.stage) else {
            return;
        };
        let peer = *peer;
        let flushed = self.s.links[peer].lock().flush();
        let left = match flushed {
            Ok(left) => left,
            Err(e) => return self.lost(i, Why::Io(e)),
        };
        let c = self.conns[i].as_mut().expect("checked above");
        if left != c.writable {
            c.writable = left;
            let _ = self.s.poller.modify_with_mode(
                &c.stream,
                Event::new(i + 1, true, left),
                PollMode::Level,
            );
        }
    }

    fn read(&mut self, i: usize) {
        let Some(c) = self.conns[i].as_mut() else {
            return;
        };
        let fd = c.stream.as_raw_fd();
        let mut reader = std::mem::take(&mut c.reader);
        let mut actions = Vec::new();
        let mut h = ConnHandler {
            s: &self.s,
            peers: &mut self.peers,
            conn: i,
            fd,
            addr: c.addr,
            stage: &mut c.stage,
            deadline: &mut c.deadline,
            refused: &mut c.refused,
            actions: &mut actions,
            quiet: false,
        };
        let r = reader.read(fd, READ_BUDGET, &mut h);
        let quiet = h.quiet;
        if let Some(c) = self.conns[i].as_mut() {
            c.reader = reader;
        }
        for a in actions {
            match a {
                Action::Up { peer, conn } => self.settle(peer, conn),
            }
        }
        match r {
            Ok(true) => {
                // Frames may have been queued for the peer meanwhile (answers, or a
                // link that just came up).
                self.flush(i);
            }
            Ok(false) => {}
            Err(ReadError::Refused(why)) if quiet => {
                tracing::debug!("tcp rail: {why}");
                self.close(i);
            }
            Err(ReadError::Closed) => self.lost(i, Why::Closed),
            Err(ReadError::Io(e)) => self.lost(i, Why::Io(e)),
            Err(ReadError::Header(e)) => self.lost(i, Why::Other(format!("bad frame: {e}"))),
            Err(ReadError::Refused(why)) => self.lost(i, Why::Other(why)),
        }
    }

    /// Connection `conn` carries `peer`'s link now: every other handshake with `peer`
    /// goes — our own dial (the peer kept its own), and unproven connections claiming to
    /// be `peer` (their proof would be refused now: why keep them).
    fn settle(&mut self, peer: usize, conn: usize) {
        for j in 0..self.conns.len() {
            let Some(c) = self.conns[j].as_ref().filter(|_| j != conn) else {
                continue;
            };
            match c.stage {
                Stage::AwaitChallenge { peer: p, .. } | Stage::AwaitWelcome { peer: p }
                    if p == peer =>
                {
                    tracing::debug!("tcp rail: rank {peer} connected; our own dial goes");
                    self.close(j);
                }
                Stage::AwaitProof { peer: p, .. } if p == peer => {
                    // The peer's own dial from a simultaneous connect (closed or proven
                    // within a round trip), or a stranger's: refused after `GRACE`.
                    let c = self.conns[j].as_mut().expect("checked above");
                    c.deadline = c.deadline.min(Instant::now() + GRACE);
                }
                _ => {}
            }
        }
    }

    /// Connection `i` ended: expected for a peer that said goodbye (or while we leave),
    /// a warning for an accepted one being set up (a stranger, or a peer that failed its
    /// proof), fatal for a peer still in the job.
    fn lost(&mut self, i: usize, why: Why) {
        let Some(c) = self.conns[i].as_ref() else {
            return;
        };
        let (addr, local) = (c.addr, c.local);
        match c.stage {
            Stage::Up { peer } => {
                if !self.s.bye_from(peer) && !self.s.stopping.load(Ordering::Acquire) {
                    let loss = match why {
                        Why::Io(e) => Loss::from_error(&e, local, addr, self.s.timeout(Some(peer))),
                        Why::Closed => Loss::Closed {
                            remote: addr,
                            why: "connection closed".into(),
                        },
                        Why::Other(why) => Loss::Closed { remote: addr, why },
                    };
                    let loss = self.s.gone[peer].lock().get_or_insert(loss).clone();
                    if self.s.survive_loss {
                        // One of several rails: this link failed; the channel carries on
                        // over the others (or ends the job when none is left). What was
                        // posted here fails, so that it can go again elsewhere.
                        self.fail_ops(peer);
                        self.s.deliver(Inbound::Lost {
                            peer,
                            why: loss.to_string(),
                            unreachable: matches!(loss, Loss::Unreachable { .. }),
                        });
                        self.close(i);
                        self.s.links[peer].lock().out = Default::default();
                        return;
                    }
                    // Gone without a goodbye: it died, left without MPI_Finalize, or its
                    // link stopped answering. The job cannot complete (a receive from it,
                    // a collective with it would wait forever, and a launcher such as
                    // srun without -K lets us run on): end now, naming it.
                    self.s.peer_gone(peer);
                }
            }
            Stage::AwaitProof { peer, .. }
                if why.closed_by_peer()
                    && (self.peers.up[peer].is_some()
                        || self.peers.dialing.contains_key(&peer))
                    && addr.ip() == self.s.addrs[peer].ip() =>
            {
                // Most likely the peer's own dial, dropped as it keeps ours (a
                // simultaneous connect: no stranger to warn about).
                tracing::debug!("tcp rail: unproven connection from {addr} closed: {why}");
            }
            Stage::AwaitHello | Stage::AwaitProof { .. } => {
                self.refuse(i, &why.to_string());
                return;
            }
            Stage::AwaitChallenge { .. } | Stage::AwaitWelcome { .. } => {
                tracing::debug!("tcp rail: dialed connection to {addr} closed: {why}");
            }
        }
        self.close(i);
    }
}

/// Why a connection ended.
enum Why {
    Closed,
    Io(std::io::Error),
    Other(String),
}

impl Why {
    /// The other end closed the connection (a reset too: it closes with our challenge
    /// unread).
    fn closed_by_peer(&self) -> bool {
        match self {
            Why::Closed => true,
            Why::Io(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
            Why::Other(_) => false,
        }
    }
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Why::Closed => f.write_str("connection closed"),
            Why::Io(e) => write!(f, "{e}"),
            Why::Other(s) => f.write_str(s),
        }
    }
}

/// What an unproven connection claims, for messages.
fn claim(stage: &Stage) -> String {
    match stage {
        Stage::AwaitProof { peer, .. } => format!(" claiming to be rank {peer}"),
        _ => String::new(),
    }
}

/// Give up on a connection whose sent data stays unacknowledged for `ms` (a failed link:
/// TCP would otherwise retransmit for many minutes), and probe an idle one every second.
fn set_timeouts(stream: &TcpStream, ms: u32) {
    crate::sys::net::set_timeouts(stream, ms)
}

/// A whole small frame with a blocking write (handshake).
fn write_frame(st: &mut TcpStream, kind: Kind, payload: &[u8]) -> std::io::Result<()> {
    let mut h = Header::new(kind);
    h.len = payload.len() as u32;
    let mut buf = h.encode().to_vec();
    buf.extend_from_slice(payload);
    st.write_all(&buf)
}

fn refusal(e: KeyError) -> Refusal {
    match e {
        KeyError::Unknown => Refusal::Unknown,
        KeyError::Stale => Refusal::Stale,
        KeyError::OutOfRange => Refusal::Range,
        KeyError::Rights => Refusal::Rights,
    }
}

fn rail_error(r: Refusal) -> RailError {
    match r {
        Refusal::Unknown => RailError::Key(KeyError::Unknown),
        Refusal::Stale => RailError::Key(KeyError::Stale),
        Refusal::Range => RailError::Key(KeyError::OutOfRange),
        Refusal::Rights => RailError::Key(KeyError::Rights),
        Refusal::Fault => RailError::Access(std::io::Error::other("target memory unreachable")),
        Refusal::Bad => RailError::Access(std::io::Error::other("request refused as malformed")),
    }
}

struct ConnHandler<'a> {
    s: &'a Shared,
    peers: &'a mut Peers,
    conn: usize,
    fd: i32,
    addr: SocketAddr,
    stage: &'a mut Stage,
    deadline: &'a mut Instant,
    /// Why the tagged frame being read was refused (its payload is discarded).
    refused: &'a mut Option<Refusal>,
    actions: &'a mut Vec<Action>,
    /// The connection ends without a warning (a simultaneous connect settled).
    quiet: bool,
}

impl ConnHandler<'_> {
    /// The table our registrations' keys live in, checked before a byte moves.
    fn check(&self, h: &Header, len: u64, rights: u32) -> Result<(), Refusal> {
        // SAFETY: the domain's table holds KEY_SLOTS slots for the domain's life, and the
        // domain outlives this thread (held by `Shared`).
        unsafe {
            keys::check(
                self.s.domain.table(),
                RemoteKey(h.key),
                std::iter::once((h.addr, len)),
                rights,
            )
        }
        .map_err(refusal)?;
        // The registration's range is ours, but keep addresses inside what a pointer
        // holds before making one.
        usize::try_from(h.addr.checked_add(len).ok_or(Refusal::Range)?)
            .map(|_| ())
            .map_err(|_| Refusal::Range)
    }

    fn answer(&self, peer: usize, h: Header, body: Body) {
        // A write error shows up as the connection failing in `read`/`flush`.
        let _ = self.s.send(peer, [OutFrame::new(&h, body)]);
    }

    fn nak(&self, peer: usize, req: &Header, why: Refusal) {
        let mut h = Header::new(Kind::Nak);
        h.op = req.op;
        h.arg = why as u64;
        h.flags = req.flags & FLAG_LAST;
        self.answer(peer, h, Body::Empty);
    }

    /// The answer to the last segment of operation `op` arrived.
    fn finish(&self, peer: usize, op: u64, result: Result<u64, Refusal>) {
        // Only the peer the operation went to may answer it.
        let o = {
            let mut ops = self.s.ops.lock();
            match ops.get(&op) {
                Some(o) if o.peer == peer => ops.remove(&op),
                _ => None,
            }
        };
        let Some(o) = o else {
            return;
        };
        let result = match (o.error, result) {
            (Some(r), _) | (None, Err(r)) => Err(rail_error(r)),
            (None, Ok(v)) => Ok(v),
        };
        match o.waiter {
            Some(w) => w.set(result),
            None => self.s.deliver(Inbound::Done(Completion {
                token: o.token,
                result,
            })),
        }
    }

    fn link_up(&mut self, peer: usize) {
        *self.stage = Stage::Up { peer };
        self.peers.up[peer] = Some(self.conn);
        self.peers.dialing.remove(&peer);
        let mut link = self.s.links[peer].lock();
        link.state = LinkState::Up;
        link.fd = self.fd;
        if link.last && self.s.survive_loss {
            // Made after the other rails failed: it has the last link's timeout (the
            // socket got the failover one before its peer was known).
            // SAFETY: the connection that owns `self.fd` is being read by the caller.
            let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(self.fd) };
            crate::sys::net::set_timeouts(fd, self.s.timeout_ms);
        }
        tracing::debug!("tcp rail: connected to rank {peer} ({})", self.addr);
        self.actions.push(Action::Up {
            peer,
            conn: self.conn,
        });
    }

    /// A Hello: challenge the connector to prove the secret. Nothing else changes until
    /// it has (anyone can send a Hello).
    fn hello(&mut self, payload: &[u8]) -> Result<(), String> {
        let hello = Hello::decode(payload).ok_or("malformed hello")?;
        let n = self.s.links.len();
        let peer = hello.rank as usize;
        if hello.version != VERSION {
            return Err(format!(
                "protocol version {} (ours {VERSION})",
                hello.version
            ));
        }
        if peer >= n || peer == self.s.me {
            return Err(format!("claims to be rank {peer}"));
        }
        if self.peers.up[peer].is_some() {
            // The rank's own dial from a simultaneous connect that just settled, a replay
            // or a stranger: challenged like any, but refused soon (`expire_handshakes`).
            *self.deadline = (*self.deadline).min(Instant::now() + GRACE);
        }
        let t = Transcript {
            connector: peer as u32,
            acceptor: self.s.me as u32,
            connector_nonce: hello.nonce,
            acceptor_nonce: auth::random(),
        };
        let ch = Challenge {
            rank: self.s.me as u32,
            nonce: t.acceptor_nonce,
            mac: t.prove(&self.s.secret, Role::Acceptor),
        };
        self.send_raw(Kind::Challenge, &ch.encode())?;
        *self.stage = Stage::AwaitProof { peer, t };
        Ok(())
    }

    /// `peer` proved the secret on this accepted connection: keep it (Welcome, link up)
    /// unless a connection is up already, or our own dial to it is under way and we have
    /// the lower rank — then ours stays and the peer takes it (Tsai §III-B).
    fn proven(&mut self, peer: usize) -> Result<(), String> {
        if self.peers.up[peer].is_some() {
            // Its dial crossed ours, which the peer kept: no stranger (it proved the
            // secret), no warning.
            self.quiet = true;
            return Err(format!(
                "rank {peer} proved the secret, but is connected already ({})",
                self.addr
            ));
        }
        if self.peers.dialing.contains_key(&peer) && self.s.me < peer {
            self.quiet = true;
            return Err(format!(
                "rank {peer} and we dialed at once; ours stays ({})",
                self.addr
            ));
        }
        self.send_raw(Kind::Welcome, &[])?;
        // Our own dial, if any, goes (`settle`): the peer keeps this one.
        self.link_up(peer);
        Ok(())
    }

    /// A handshake frame on a fresh socket (a few dozen bytes: it fits the empty send
    /// buffer; anything less is a failure).
    fn send_raw(&self, kind: Kind, payload: &[u8]) -> Result<(), String> {
        let mut h = Header::new(kind);
        h.len = payload.len() as u32;
        let head = h.encode();
        let iov = [
            libc::iovec {
                iov_base: head.as_ptr() as *mut libc::c_void,
                iov_len: head.len(),
            },
            libc::iovec {
                iov_base: payload.as_ptr() as *mut libc::c_void,
                iov_len: payload.len(),
            },
        ];
        match super::conn::writev(self.fd, &iov) {
            Ok(n) if n == head.len() + payload.len() => Ok(()),
            Ok(_) => Err("handshake write incomplete".into()),
            Err(e) => Err(e.to_string()),
        }
    }
}

impl Handler for ConnHandler<'_> {
    fn sink(&mut self, h: &Header) -> Sink {
        *self.refused = None;
        let Stage::Up { .. } = self.stage else {
            // Before authentication only handshake payloads are read (into a buffer the
            // header's checked length sized); `frame` refuses anything else.
            return Sink::Buffer(Vec::new());
        };
        match h.kind {
            Kind::Write => match self.check(h, h.len as u64, RIGHT_WRITE) {
                Ok(()) => Sink::Place(vec![(h.addr as usize, h.len as usize)]),
                Err(r) => {
                    *self.refused = Some(r);
                    Sink::Discard
                }
            },
            Kind::ReadData => {
                let ops = self.s.ops.lock();
                let peer = match &*self.stage {
                    Stage::Up { peer } => *peer,
                    _ => usize::MAX,
                };
                match ops.get(&h.op).filter(|o| o.peer == peer).map(|o| &o.kind) {
                    Some(OpKind::Read { sink, len }) => {
                        match (h.off as usize).checked_add(h.len as usize) {
                            Some(end) if end <= *len => {
                                Sink::Place(super::sub_runs(sink, h.off as usize, h.len as usize))
                            }
                            _ => {
                                *self.refused = Some(Refusal::Bad);
                                Sink::Discard
                            }
                        }
                    }
                    _ => {
                        *self.refused = Some(Refusal::Bad);
                        Sink::Discard
                    }
                }
            }
            _ => Sink::Buffer(Vec::new()),
        }
    }

    fn frame(&mut self, f: Frame) -> Result<(), String> {
        let h = f.header;
        let peer = match &*self.stage {
            Stage::Up { peer } => *peer,
            Stage::AwaitHello => {
                return match h.kind {
                    Kind::Hello => self.hello(&f.payload),
                    k => Err(format!("{k:?} before hello")),
                }
            }
            Stage::AwaitProof { peer, t } => {
                let peer = *peer;
                if h.kind != Kind::Proof {
                    return Err(format!("{:?} before proof", h.kind));
                }
                if !t.verify(&self.s.secret, Role::Connector, &f.payload) {
                    return Err(format!("rank {peer} did not prove the job's secret"));
                }
                return self.proven(peer);
            }
            Stage::AwaitWelcome { peer } => {
                let peer = *peer;
                if h.kind != Kind::Welcome {
                    return Err(format!("{:?} before welcome", h.kind));
                }
                self.link_up(peer);
                return Ok(());
            }
            Stage::AwaitChallenge { peer, nonce } => {
                let (peer, nonce) = (*peer, *nonce);
                if h.kind != Kind::Challenge {
                    return Err(format!("{:?} before challenge", h.kind));
                }
                let ch = Challenge::decode(&f.payload).ok_or("malformed challenge")?;
                if ch.rank as usize != peer {
                    return Err(format!("rank {} answered for rank {peer}", ch.rank));
                }
                let t = Transcript {
                    connector: self.s.me as u32,
                    acceptor: peer as u32,
                    connector_nonce: nonce,
                    acceptor_nonce: ch.nonce,
                };
                if !t.verify(&self.s.secret, Role::Acceptor, &ch.mac) {
                    return Err(format!("rank {peer} did not prove the job's secret"));
                }
                self.send_raw(Kind::Proof, &t.prove(&self.s.secret, Role::Connector))?;
                // Up only once the acceptor keeps this connection (it may keep its own).
                *self.stage = Stage::AwaitWelcome { peer };
                return Ok(());
            }
        };
        match h.kind {
            Kind::Msg => {
                self.s.deliver(Inbound::Message {
                    peer,
                    imm: h.arg as u32,
                    bytes: f.payload,
                });
            }
            Kind::Write => {
                if let Some(r) = self.refused.take() {
                    tracing::warn!(
                        "tcp rail: refused a tagged write from rank {peer} ({}): {r:?}",
                        self.addr
                    );
                    self.nak(peer, &h, r);
                } else if h.last() {
                    self.s.remote_ops.fetch_add(1, Ordering::Relaxed);
                    let mut a = Header::new(Kind::Ack);
                    a.op = h.op;
                    self.answer(peer, a, Body::Empty);
                }
            }
            Kind::ReadReq => {
                let ok = if h.arg == 0 || h.arg > SEGMENT as u64 {
                    Err(Refusal::Bad)
                } else {
                    self.check(&h, h.arg, RIGHT_READ)
                };
                match ok {
                    Ok(()) => {
                        self.s.remote_ops.fetch_add(1, Ordering::Relaxed);
                        let mut d = Header::new(Kind::ReadData);
                        d.op = h.op;
                        d.off = h.off;
                        d.len = h.arg as u32;
                        d.flags = h.flags & FLAG_LAST;
                        // Straight from the registered memory the key vouched for.
                        self.answer(
                            peer,
                            d,
                            Body::Spans(vec![(h.addr as usize, h.arg as usize)]),
                        );
                    }
                    Err(r) => {
                        tracing::warn!(
                            "tcp rail: refused a read from rank {peer} ({}): {r:?}",
                            self.addr
                        );
                        self.nak(peer, &h, r);
                    }
                }
            }
            Kind::ReadData => {
                if let Some(r) = self.refused.take() {
                    return Err(format!("read data that fits no read of ours ({r:?})"));
                }
                if h.last() {
                    self.finish(peer, h.op, Ok(0));
                }
            }
            Kind::Atomic => {
                let ok = if !h.addr.is_multiple_of(8) {
                    Err(Refusal::Bad)
                } else {
                    self.check(&h, 8, RIGHT_READ | RIGHT_WRITE)
                };
                match ok {
                    Ok(()) => {
                        // SAFETY: the key vouches for 8 aligned bytes of registered memory
                        // of this process that peers update only atomically.
                        let word = unsafe { AtomicU64::from_ptr(h.addr as usize as *mut u64) };
                        let old = if h.flags & FLAG_CAS != 0 {
                            match word.compare_exchange(
                                h.arg,
                                h.off,
                                Ordering::AcqRel,
                                Ordering::Acquire,
                            ) {
                                Ok(v) | Err(v) => v,
                            }
                        } else {
                            word.fetch_add(h.arg, Ordering::AcqRel)
                        };
                        self.s.remote_ops.fetch_add(1, Ordering::Relaxed);
                        let mut a = Header::new(Kind::AtomicResp);
                        a.op = h.op;
                        a.arg = old;
                        self.answer(peer, a, Body::Empty);
                    }
                    Err(r) => {
                        tracing::warn!(
                            "tcp rail: refused an atomic from rank {peer} ({}): {r:?}",
                            self.addr
                        );
                        self.nak(peer, &h, r);
                    }
                }
            }
            Kind::AtomicResp => self.finish(peer, h.op, Ok(h.arg)),
            Kind::Ack => self.finish(peer, h.op, Ok(0)),
            Kind::Nak => {
                let r = Refusal::from_u64(h.arg);
                if h.last() {
                    self.finish(peer, h.op, Err(r));
                } else if let Some(o) = self.s.ops.lock().get_mut(&h.op) {
                    if o.peer == peer {
                        o.error.get_or_insert(r);
                    }
                }
            }
            Kind::Bye => self.s.bye[peer].store(true, Ordering::Release),
            Kind::Request => self.s.request_arrived(peer, h.op, f.payload),
            Kind::Served => self.s.requests_served(peer, h.op),
            Kind::Hello | Kind::Challenge | Kind::Proof | Kind::Welcome => {
                return Err(format!("{:?} on an established connection", h.kind))
            }
        }
        Ok(())
    }
}
