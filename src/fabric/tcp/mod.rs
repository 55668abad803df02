//! The `tcp` provider: software RDMA over TCP sockets, for ranks on different hosts (or
//! every rank, with `RAILMPI_RAILS=tcp`).
//!
//! - Untagged frames carry messages (eager payloads, control) to the peer's receive path.
//! - Tagged frames carry (steering tag, address, length): the target checks the tag — the
//!   remote key of one of its registrations, in the tcp rail's own key table (peers on this
//!   host check the shm rail's) — its generation, the bounds and the rights, then `readv`s the bytes straight into
//!   place. Reads are requests the target answers with tagged data (`writev` from the
//!   registered memory); 64-bit atomics run at the target. Transfers are cut into
//!   segments (`wire::SEGMENT`) so several interleave on one connection.
//! - A per-process progress thread (`progress.rs`, epoll through `polling`) reads every
//!   socket and serves tagged writes, reads and atomics, so passive-target RMA and
//!   rendezvous reads complete while the target computes; it sleeps when idle. The
//!   thread calling MPI writes to the sockets itself (no hand-off on the send path).
//! - Connections are made on demand at the first frame for a peer (or all at start with
//!   `RAILMPI_TCP_CONNECT=eager`), and each proves the job's secret (`auth.rs`). When two
//!   ranks connect to each other at once, the connection of the lower rank stays.

pub mod auth;
mod conn;
mod progress;
mod service;
#[cfg(test)]
mod tests;
pub mod wire;

pub use auth::{random, secret_from_hex, secret_to_hex, Secret};
pub use service::TcpService;

use super::shm::domain::ShmDomain;
use super::{
    AtomicOp, Completion, Doorbell, MemoryDomain, Rail, RailCaps, RailError, RailEvent, RdmaOp,
    RemoteKey, Span, Transfer,
};
use conn::{Body, OutFrame, Outbox};
use parking_lot::Mutex;
use progress::Progress;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use wire::{Header, Kind, FLAG_CAS, FLAG_LAST, HEADER, MAX_MESSAGE, SEGMENT};

/// When connections are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connect {
    /// At the first frame for a peer.
    Lazy,
    /// To every peer at start.
    Eager,
}

#[derive(Clone, Debug)]
pub struct TcpSettings {
    pub connect: Connect,
    /// Interface names or networks (CIDR) to listen on; empty: every interface that is up,
    /// loopback only when there is no other.
    pub ifaces: Vec<String>,
    /// Rails (connections to each peer) per interface.
    pub conns_per_iface: usize,
    /// A connection whose sent data stays unacknowledged this long, or that answers no
    /// keepalive probe for as long, has failed (TCP_USER_TIMEOUT).
    pub timeout_ms: u32,
    /// The same while other rails reach the peer too (at most `timeout_ms`): traffic moves
    /// to them soon; the last link left gets `timeout_ms`.
    pub failover_timeout_ms: u32,
    /// Messages up to this many bytes go eagerly to peers on other hosts
    /// (`RAILMPI_TCP_EAGER_LIMIT`).
    pub eager_limit: usize,
}

/// The settings that name the timeouts (in messages).
pub const TIMEOUT_KNOB: &str = "RAILMPI_TCP_TIMEOUT";
pub const FAILOVER_KNOB: &str = "RAILMPI_TCP_FAILOVER_TIMEOUT";

impl Default for TcpSettings {
    fn default() -> Self {
        TcpSettings {
            connect: Connect::Lazy,
            ifaces: Vec::new(),
            conns_per_iface: 1,
            timeout_ms: 120_000,
            failover_timeout_ms: 5_000,
            eager_limit: 131072,
        }
    }
}

/// iovecs `try_send` keeps on the stack: the header and a message's parts.
const SEND_IOV: usize = 8;

/// Bytes queued for one peer before `try_send` says "no room" (the engine queues then).
const OUTBOX_LIMIT: usize = 8 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinkState {
    /// No connection and none being made.
    Idle,
    /// Being made (either way); frames wait in the outbox.
    Connecting,
    /// Authenticated: frames go to `fd`.
    Up,
    /// Closed after the peer said goodbye (or we did).
    Closed,
}

/// The path to one peer: its connection's write side and the frames waiting for it.
struct Link {
    state: LinkState,
    fd: RawFd,
    out: Outbox,
    /// Service requests sent to the peer (the last ticket).
    tickets: u64,
    /// The other rails' links to the peer failed: this one has the full timeout.
    last: bool,
}

impl Link {
    /// Write what the socket takes; true when something is left for the progress thread.
    fn flush(&mut self) -> std::io::Result<bool> {
        if self.state != LinkState::Up {
            return Ok(!self.out.is_empty());
        }
        self.out.flush(self.fd).map(|empty| !empty)
    }
}

/// What the progress thread hands to the thread that polls the rail.
enum Inbound {
    Message {
        peer: usize,
        imm: u32,
        bytes: Vec<u8>,
    },
    Done(Completion),
    Lost {
        peer: usize,
        why: String,
        unreachable: bool,
    },
}

/// How a connection to a peer in the job ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Loss {
    /// The link stopped answering (TCP_USER_TIMEOUT or keepalive expired, or the network
    /// said the host cannot be reached): the peer may well be alive.
    Unreachable {
        local: Option<SocketAddr>,
        remote: SocketAddr,
        /// The timeout that expired and the setting it came from (None: the network
        /// refused, not a timeout).
        timeout: Option<(u32, &'static str)>,
        error: String,
    },
    /// The connection closed or broke (reset, or a protocol error): the peer's end went.
    Closed { remote: SocketAddr, why: String },
}

impl Loss {
    /// What a failed socket operation on the connection `local` -> `remote` says.
    fn from_error(
        e: &std::io::Error,
        local: Option<SocketAddr>,
        remote: SocketAddr,
        timeout: (u32, &'static str),
    ) -> Loss {
        let unreachable = matches!(
            e.raw_os_error(),
            Some(libc::ETIMEDOUT | libc::EHOSTUNREACH | libc::ENETUNREACH | libc::EHOSTDOWN)
        );
        if unreachable {
            Loss::Unreachable {
                local,
                remote,
                timeout: (e.raw_os_error() == Some(libc::ETIMEDOUT)).then_some(timeout),
                error: e.to_string(),
            }
        } else {
            Loss::Closed {
                remote,
                why: e.to_string(),
            }
        }
    }
}

impl std::fmt::Display for Loss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Loss::Unreachable {
                local,
                remote,
                timeout,
                error,
            } => {
                let from = local.map_or_else(|| "?".into(), |l| l.to_string());
                write!(f, "unreachable over {from} -> {remote} (")?;
                if let Some((ms, knob)) = timeout {
                    // Whole seconds print without a fraction: "30 s", "2 s", "1.5 s".
                    let secs = *ms as f64 / 1000.0;
                    write!(f, "no answer for {secs} s: {knob}; ")?;
                }
                write!(f, "{error})")
            }
            Loss::Closed { remote, why } => write!(f, "{why} ({remote})"),
        }
    }
}

/// A posted operation waiting for its answer.
struct Op {
    token: u64,
    peer: usize,
    kind: OpKind,
    /// A refusal of one of its segments (reported when the last one is answered).
    error: Option<wire::Refusal>,
    /// Who learns of its completion: the service thread that posted it, or (None) the
    /// rail's poll.
    waiter: Option<Arc<Waiter>>,
}

/// Where a service thread waits for an operation it posted.
#[derive(Default)]
struct Waiter {
    done: Mutex<Option<Result<u64, RailError>>>,
    cv: parking_lot::Condvar,
}

impl Waiter {
    fn set(&self, r: Result<u64, RailError>) {
        *self.done.lock() = Some(r);
        self.cv.notify_all();
    }

    /// The result, once it came; fatal if `peer` is gone meanwhile.
    fn wait(&self, s: &Shared, peer: usize) -> Result<u64, RailError> {
        let mut g = self.done.lock();
        loop {
            if let Some(r) = g.take() {
                return r;
            }
            self.cv.wait_for(&mut g, std::time::Duration::from_secs(1));
            if g.is_none() && s.gone[peer].lock().is_some() {
                s.peer_gone(peer);
            }
        }
    }
}

enum OpKind {
    Write,
    /// Where the read data goes: `(address, length)` runs, `len` bytes in all.
    Read {
        sink: Vec<(usize, usize)>,
        len: usize,
    },
    Atomic,
}

/// State shared by the rail (the thread calling MPI) and the progress thread.
struct Shared {
    me: usize,
    secret: Secret,
    /// The tcp rail's own key table, which tagged frames are checked against.
    domain: Arc<ShmDomain>,
    wait: Doorbell,
    poller: polling::Poller,
    /// The address we listen on: connections we make leave from it too (its interface).
    local_ip: IpAddr,
    /// Other rails reach our peers too: a failed link is reported (`RailEvent::Lost`),
    /// not the end of the job.
    survive_loss: bool,
    timeout_ms: u32,
    /// With other rails to fall back on (`survive_loss`): a link's timeout until it is
    /// the peer's last.
    failover_timeout_ms: u32,
    /// Where each peer listens, and its host (for messages).
    addrs: Vec<SocketAddr>,
    hosts: Vec<String>,
    links: Vec<Mutex<Link>>,
    inbox: Mutex<VecDeque<Inbound>>,
    inbox_len: AtomicUsize,
    ops: Mutex<FxHashMap<u64, Op>>,
    next_op: AtomicU64,
    /// Peers to connect to, or whose outbox needs the progress thread.
    requests: Mutex<Vec<usize>>,
    stopping: AtomicBool,
    /// Peers that said goodbye (their connection's end is no failure).
    bye: Vec<AtomicBool>,
    /// Peers whose connection ended without a goodbye, and how.
    gone: Vec<Mutex<Option<Loss>>>,
    /// The service thread's doorbell, and the requests waiting for it (origin, ticket,
    /// bytes); per peer, the last of our tickets it served.
    service_bell: Doorbell,
    requests_in: Mutex<VecDeque<(usize, u64, Vec<u8>)>>,
    requests_waiting: AtomicUsize,
    served: Vec<AtomicU64>,
    /// Polls of the rail by the rank (the progress thread naps while this moves), and
    /// whether the rank, finding the thread in a turn, asked it to hand over.
    rank_polls: AtomicU64,
    /// Peers' writes, reads and atomics served here so far: a rank that waits while peers
    /// reach its memory counts them as activity and keeps driving the rail, rather than
    /// going to sleep and leaving each to the progress thread's wake-up.
    remote_ops: AtomicU64,
    rank_waiting: AtomicBool,
}

impl Shared {
    /// The timeout a link to `peer` has (`None`: not known yet — an accepted connection
    /// before its proof), and the setting it comes from.
    fn timeout(&self, peer: Option<usize>) -> (u32, &'static str) {
        let last = peer.is_some_and(|p| self.links[p].lock().last);
        if self.survive_loss && !last {
            (self.failover_timeout_ms, FAILOVER_KNOB)
        } else {
            (self.timeout_ms, TIMEOUT_KNOB)
        }
    }

    fn bye_from(&self, peer: usize) -> bool {
        self.bye[peer].load(Ordering::Acquire)
    }

    fn deliver(&self, ev: Inbound) {
        self.inbox.lock().push_back(ev);
        self.inbox_len.fetch_add(1, Ordering::Release);
        self.wait.ring();
    }

    /// Ask the progress thread to look at `peer` (connect, or watch for writability).
    fn request(&self, peer: usize) {
        self.requests.lock().push(peer);
        let _ = self.poller.notify();
    }

    /// `peer`'s connection ended without a goodbye and we need it: the job cannot go on.
    fn peer_gone(&self, peer: usize) -> ! {
        let loss = self.gone[peer].lock().clone();
        let (me, host) = (self.me, &self.hosts[peer]);
        match loss {
            Some(l @ Loss::Unreachable { .. }) => {
                super::fatal(&format!("rank {me}: rank {peer} on host {host} is {l}"))
            }
            l => super::fatal_after_death(&format!(
                "rank {me}: rank {peer} on host {host} is gone (its connection ended without \
                 a goodbye: {}); it died or left without MPI_Finalize",
                l.map(|l| l.to_string()).unwrap_or_default()
            )),
        }
    }

    /// Post a tagged write or read (see `Rail::post`); it completes to `waiter` if given,
    /// else to the rail's poll with `token`.
    ///
    /// # Safety
    /// As for `Rail::post`.
    unsafe fn post(&self, t: &Transfer<'_>, waiter: Option<Arc<Waiter>>) -> Result<(), RailError> {
        // (The local keys are not needed: the progress thread reads and writes our memory.)
        let (op, peer, rkey, token) = (t.op, t.peer, t.rkey(super::slot::TCP), t.token);
        let (local, remote) = (t.local, t.remote);
        if peer >= self.links.len() {
            return Err(RailError::NoSuchPeer(peer));
        }
        let local = runs(local)?;
        let remote = runs(remote)?;
        let total: usize = local.iter().map(|r| r.1).sum();
        if total != remote.iter().map(|r| r.1).sum::<usize>() {
            return Err(RailError::Unsupported("spans of different lengths"));
        }
        if total == 0 {
            match waiter {
                Some(w) => w.set(Ok(0)),
                None => self.deliver(Inbound::Done(Completion {
                    token,
                    result: Ok(0),
                })),
            }
            return Ok(());
        }
        let kind = match op {
            RdmaOp::Write => OpKind::Write,
            RdmaOp::Read => OpKind::Read {
                sink: local.clone(),
                len: total,
            },
        };
        let id = self.op(token, peer, kind, waiter);
        // One frame per remote run piece of at most a segment.
        let mut frames = Vec::new();
        let mut off = 0usize;
        for &(raddr, rlen) in &remote {
            let mut done = 0;
            while done < rlen {
                let n = (rlen - done).min(SEGMENT);
                let mut h = Header::new(match op {
                    RdmaOp::Write => Kind::Write,
                    RdmaOp::Read => Kind::ReadReq,
                });
                h.op = id;
                h.key = rkey.0;
                h.addr = (raddr + done) as u64;
                h.off = off as u64;
                if off + n == total {
                    h.flags |= FLAG_LAST;
                }
                frames.push(match op {
                    RdmaOp::Write => {
                        h.len = n as u32;
                        OutFrame::new(&h, Body::Spans(sub_runs(&local, off, n)))
                    }
                    RdmaOp::Read => {
                        h.arg = n as u64;
                        OutFrame::new(&h, Body::Empty)
                    }
                });
                done += n;
                off += n;
            }
        }
        self.send(peer, frames)
    }

    fn op(&self, token: u64, peer: usize, kind: OpKind, waiter: Option<Arc<Waiter>>) -> u64 {
        let id = self.next_op.fetch_add(1, Ordering::Relaxed);
        self.ops.lock().insert(
            id,
            Op {
                token,
                peer,
                kind,
                error: None,
                waiter,
            },
        );
        id
    }

    /// Queue `frames` for `peer` and write what the socket takes now.
    fn send(
        &self,
        peer: usize,
        frames: impl IntoIterator<Item = OutFrame>,
    ) -> Result<(), RailError> {
        let mut link = self.links[peer].lock();
        if link.state == LinkState::Closed && self.gone[peer].lock().is_some() {
            drop(link);
            if self.survive_loss {
                return Err(RailError::Lost(peer));
            }
            self.peer_gone(peer);
        }
        for f in frames {
            link.out.push(f);
        }
        let idle = link.state == LinkState::Idle;
        if idle {
            link.state = LinkState::Connecting;
        }
        let pending = link.flush().map_err(RailError::Access)?;
        drop(link);
        if idle || pending {
            self.request(peer);
        }
        Ok(())
    }
}

/// What the tcp rail offers (the same for every job; bandwidth and latency are estimates of
/// a 10 Gbit/s Ethernet link, which the multirail scheduler refines by measuring).
pub fn caps() -> RailCaps {
    RailCaps {
        name: "tcp",
        slot: crate::fabric::slot::TCP,
        max_message: MAX_MESSAGE,
        max_inline: MAX_MESSAGE,
        read_bounce: 0,
        max_sge: 1024,
        rdma_read: true,
        rdma_write: true,
        atomics: true,
        odp: true,
        mapped: false,
        bandwidth: 1_000_000_000,
        latency_ns: 20_000,
        min_rdma_run: 1024,
        min_stripe: 64 * 1024,
        local_keys: false,
        split_rendezvous: false,
        write_notify: false,
        progress_thread: true,
        eager_limit: 0,
    }
}

pub struct TcpRail {
    caps: RailCaps,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    /// The sockets' state; whoever holds it drives the rail (see `Progress::run`).
    engine: Arc<Mutex<Progress>>,
    polls: u64,
    /// `Shared::remote_ops` when `poll` last looked.
    remote_ops_seen: u64,
    /// Messages taken from the inbox, handed out by `poll`.
    batch: VecDeque<Inbound>,
}

/// What a rank publishes for its peers: where its rail `index` listens.
pub fn address_key(index: usize, rank: usize) -> String {
    format!("tcp-addr-{index}-{rank}")
}

/// What every tcp rail of a process shares.
#[derive(Clone)]
pub struct TcpContext {
    /// This rank, and every rank's host name (for messages).
    pub me: usize,
    pub hosts: Vec<String>,
    pub secret: Secret,
    /// The tcp rail's own key table, which tagged frames are checked against.
    pub domain: Arc<ShmDomain>,
    /// Rung when a message or completion arrives; the RMA service thread's doorbell.
    pub wait: Doorbell,
    pub service_bell: Doorbell,
    pub connect: Connect,
    pub timeout_ms: u32,
    pub failover_timeout_ms: u32,
    /// `TcpSettings::eager_limit`, which the rail's caps carry.
    pub eager_limit: usize,
    /// Other rails reach the peers too: a failed link is reported, not fatal.
    pub survive_loss: bool,
}

/// A listening socket on `ip` (port chosen by the kernel), for a rail to `start` on.
pub fn listen(ip: IpAddr) -> Result<TcpListener, String> {
    TcpListener::bind(SocketAddr::new(ip, 0))
        .map_err(|e| format!("tcp rail: cannot listen on {ip}: {e}"))
}

/// Where rank `r`'s rail `index` listens (published under `address_key`).
pub fn peer_addr(
    boot: &dyn super::Bootstrap,
    index: usize,
    r: usize,
) -> Result<SocketAddr, String> {
    let v = boot.get(&address_key(index, r))?;
    v.parse()
        .map_err(|_| format!("rank {r} published a bad tcp address {v:?}"))
}

/// The address each of this process's tcp rails listens on (the first address of each
/// interface or network `settings.ifaces` names, in its order: one rail per entry; by
/// default one rail, on the first interface that is up, not loopback when there is
/// another). An entry that matches no interface is an error naming it.
pub fn rail_addrs(settings: &TcpSettings) -> Result<Vec<IpAddr>, String> {
    let all = crate::sys::net::interfaces().map_err(|e| format!("listing interfaces: {e}"))?;
    if settings.ifaces.is_empty() {
        let up: Vec<_> = all.iter().filter(|i| i.up && i.addr.is_ipv4()).collect();
        return up
            .iter()
            .find(|i| !i.loopback)
            .or(up.first())
            .map(|i| vec![i.addr])
            .ok_or_else(|| "no network interface is up".to_string());
    }
    let mut chosen = Vec::new();
    for want in &settings.ifaces {
        let found = match want.split_once('/') {
            Some((net, bits)) => {
                let net: IpAddr = net
                    .parse()
                    .map_err(|_| format!("RAILMPI_TCP_IFACES: bad network {want}"))?;
                let bits: u32 = bits
                    .parse()
                    .map_err(|_| format!("RAILMPI_TCP_IFACES: bad prefix in {want}"))?;
                all.iter()
                    .find(|i| crate::sys::net::in_network(i.addr, net, bits))
                    .map(|i| i.addr)
            }
            None => all
                .iter()
                .find(|i| &i.name == want && i.addr.is_ipv4())
                .map(|i| i.addr),
        };
        match found {
            Some(a) if !chosen.contains(&a) => chosen.push(a),
            Some(_) => {}
            None => {
                return Err(format!(
                "RAILMPI_TCP_IFACES: no interface here is or has {want} (RAILMPI_TCP_IFACES={})",
                settings.ifaces.join(",")
            ))
            }
        }
    }
    Ok(chosen)
}

impl TcpRail {
    /// One rail on `settings`' first interface: listen, publish our address, learn every
    /// peer's (collective through `boot`). `fabric::open` opens several with one exchange.
    pub fn establish(
        settings: &TcpSettings,
        boot: &dyn super::Bootstrap,
        ctx: &TcpContext,
    ) -> Result<TcpRail, String> {
        let listener = listen(rail_addrs(settings)?[0])?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        boot.put(&address_key(0, ctx.me), &local.to_string())?;
        boot.barrier()?;
        let addrs = (0..boot.size())
            .map(|r| peer_addr(boot, 0, r))
            .collect::<Result<Vec<_>, String>>()?;
        Self::start(ctx, listener, addrs)
    }

    /// A rail listening on `listener`, whose peers' rails listen on `addrs` (by rank):
    /// starts its progress thread, and connects to every peer now under `Connect::Eager`.
    pub fn start(
        ctx: &TcpContext,
        listener: TcpListener,
        addrs: Vec<SocketAddr>,
    ) -> Result<TcpRail, String> {
        let (me, n) = (ctx.me, addrs.len());
        let local_ip = listener.local_addr().map_err(|e| e.to_string())?.ip();
        let poller = polling::Poller::new().map_err(|e| format!("tcp rail: epoll: {e}"))?;
        let shared = Arc::new(Shared {
            me,
            secret: ctx.secret,
            domain: ctx.domain.clone(),
            wait: ctx.wait,
            poller,
            local_ip,
            survive_loss: ctx.survive_loss,
            timeout_ms: ctx.timeout_ms,
            failover_timeout_ms: ctx.failover_timeout_ms.min(ctx.timeout_ms),
            addrs,
            hosts: ctx.hosts.clone(),
            links: (0..n)
                .map(|_| {
                    Mutex::new(Link {
                        state: LinkState::Idle,
                        fd: -1,
                        out: Outbox::default(),
                        tickets: 0,
                        last: false,
                    })
                })
                .collect(),
            inbox: Mutex::new(VecDeque::new()),
            inbox_len: AtomicUsize::new(0),
            ops: Mutex::new(FxHashMap::default()),
            next_op: AtomicU64::new(1),
            requests: Mutex::new(Vec::new()),
            stopping: AtomicBool::new(false),
            bye: (0..n).map(|_| AtomicBool::new(false)).collect(),
            gone: (0..n).map(|_| Mutex::new(None)).collect(),
            service_bell: ctx.service_bell,
            requests_in: Mutex::new(VecDeque::new()),
            requests_waiting: AtomicUsize::new(0),
            served: (0..n).map(|_| AtomicU64::new(0)).collect(),
            rank_polls: AtomicU64::new(0),
            remote_ops: AtomicU64::new(0),
            rank_waiting: AtomicBool::new(false),
        });
        let engine = Arc::new(Mutex::new(
            Progress::new(shared.clone(), listener)
                .map_err(|e| format!("tcp rail: progress thread: {e}"))?,
        ));
        let (e, s) = (engine.clone(), shared.clone());
        let thread = std::thread::Builder::new()
            .name("railmpi-tcp".into())
            .spawn(move || Progress::run(e, s))
            .map_err(|e| format!("tcp rail: cannot start its progress thread: {e}"))?;
        let rail = TcpRail {
            caps: RailCaps {
                eager_limit: ctx.eager_limit,
                ..caps()
            },
            shared,
            thread: Some(thread),
            engine,
            polls: 0,
            remote_ops_seen: 0,
            batch: VecDeque::new(),
        };
        if ctx.connect == Connect::Eager {
            rail.connect_all()?;
        }
        Ok(rail)
    }

    /// Connect to every peer now (eager mode): higher ranks are dialed, lower ranks dial
    /// us; returns once every link is up.
    fn connect_all(&self) -> Result<(), String> {
        let s = &self.shared;
        for peer in s.me + 1..s.links.len() {
            let mut link = s.links[peer].lock();
            if link.state == LinkState::Idle {
                link.state = LinkState::Connecting;
                drop(link);
                s.request(peer);
            }
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        for peer in (0..s.links.len()).filter(|&p| p != s.me) {
            while s.links[peer].lock().state != LinkState::Up {
                if std::time::Instant::now() > deadline {
                    return Err(format!(
                        "tcp rail: no connection to rank {peer} ({}) after 60 s",
                        s.addrs[peer]
                    ));
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        Ok(())
    }

    /// This rail's service queue (requests for peers' service threads).
    pub fn service(&self) -> Arc<TcpService> {
        Arc::new(TcpService {
            shared: self.shared.clone(),
        })
    }
}

/// `(address, length)` runs of `spans` between byte offsets `[from, from + n)`.
fn sub_runs(spans: &[(usize, usize)], mut from: usize, mut n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for &(a, len) in spans {
        if n == 0 {
            break;
        }
        if from >= len {
            from -= len;
            continue;
        }
        let take = (len - from).min(n);
        out.push((a + from, take));
        n -= take;
        from = 0;
    }
    out
}

fn runs(spans: &[Span]) -> Result<Vec<(usize, usize)>, RailError> {
    spans
        .iter()
        .filter(|s| s.len > 0)
        .map(|s| {
            let a = usize::try_from(s.addr).map_err(|_| RailError::Unsupported("address"))?;
            let n = usize::try_from(s.len).map_err(|_| RailError::Unsupported("length"))?;
            Ok((a, n))
        })
        .collect()
}

impl Rail for TcpRail {
    fn caps(&self) -> &RailCaps {
        &self.caps
    }

    fn peers(&self) -> usize {
        self.shared.links.len()
    }

    fn memory(&self) -> Arc<dyn MemoryDomain> {
        self.shared.domain.clone()
    }

    fn wait_handle(&self) -> Doorbell {
        self.shared.wait
    }

    fn try_send(&mut self, peer: usize, imm: u32, parts: &[&[u8]]) -> bool {
        let total: usize = parts.iter().map(|p| p.len()).sum();
        assert!(
            total <= MAX_MESSAGE,
            "message larger than the rail's max_message"
        );
        let Some(link) = self.shared.links.get(peer) else {
            return false;
        };
        let link = link.lock();
        if link.out.bytes > OUTBOX_LIMIT {
            return false;
        }
        if link.state == LinkState::Closed
            && self.shared.survive_loss
            && self.shared.gone[peer].lock().is_some()
        {
            // The link failed (reported as `RailEvent::Lost`): the channel goes elsewhere.
            return false;
        }
        let mut h = Header::new(Kind::Msg);
        h.len = total as u32;
        h.arg = imm as u64;
        let head = h.encode();
        let mut written = 0;
        if link.state == LinkState::Up && link.out.is_empty() {
            // The common case: straight to the socket, no copy (and, for the few parts
            // a message has, no allocation).
            let iovec = |b: &[u8]| libc::iovec {
                iov_base: b.as_ptr() as *mut libc::c_void,
                iov_len: b.len(),
            };
            let mut few = [iovec(&head); SEND_IOV];
            let mut many = Vec::new();
            let iov: &[libc::iovec] = if parts.len() < SEND_IOV {
                let mut k = 1;
                for p in parts.iter().filter(|p| !p.is_empty()) {
                    few[k] = iovec(p);
                    k += 1;
                }
                &few[..k]
            } else {
                many.push(iovec(&head));
                many.extend(parts.iter().filter(|p| !p.is_empty()).map(|p| iovec(p)));
                &many
            };
            // A failed write leaves the frame queued; the progress thread sees the
            // connection fail and reports it.
            written = conn::writev(link.fd, iov).unwrap_or(0);
            if written == HEADER + total {
                return true;
            }
        }
        // Keep the unsent rest (the parts are only borrowed for this call).
        let mut body = Vec::with_capacity(total);
        for p in parts {
            body.extend_from_slice(p);
        }
        let mut frame = OutFrame::new(&h, Body::Owned(body));
        frame.skip(written);
        drop(link);
        // Errors surface through the progress thread (the connection is reported).
        let _ = self.shared.send(peer, [frame]);
        true
    }

    fn poll(&mut self, sink: &mut dyn FnMut(RailEvent<'_>)) -> usize {
        if self.batch.is_empty() {
            if self.shared.inbox_len.load(Ordering::Acquire) == 0 {
                self.drive();
            }
            if self.shared.inbox_len.load(Ordering::Acquire) == 0 {
                // Nothing to hand up, but serving peers counts as activity.
                let ops = self.shared.remote_ops.load(Ordering::Relaxed);
                return usize::from(std::mem::replace(&mut self.remote_ops_seen, ops) != ops);
            }
            let mut inbox = self.shared.inbox.lock();
            std::mem::swap(&mut *inbox, &mut self.batch);
            self.shared
                .inbox_len
                .fetch_sub(self.batch.len(), Ordering::AcqRel);
        }
        let mut n = 0;
        while let Some(ev) = self.batch.pop_front() {
            match ev {
                Inbound::Message { peer, imm, bytes } => sink(RailEvent::Message {
                    peer,
                    imm,
                    bytes: &bytes,
                }),
                Inbound::Done(c) => sink(RailEvent::Completion(c)),
                Inbound::Lost {
                    peer,
                    why,
                    unreachable,
                } => sink(RailEvent::Lost {
                    peer,
                    why,
                    unreachable,
                }),
            }
            n += 1;
        }
        n
    }

    fn has_completions(&self) -> bool {
        !self.batch.is_empty() || self.shared.inbox_len.load(Ordering::Acquire) > 0
    }

    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError> {
        // SAFETY: the caller's contract.
        unsafe { self.shared.post(t, None) }
    }

    fn post_atomic(
        &mut self,
        peer: usize,
        op: AtomicOp,
        remote: u64,
        rkey: RemoteKey,
        token: u64,
    ) -> Result<(), RailError> {
        if peer >= self.shared.links.len() {
            return Err(RailError::NoSuchPeer(peer));
        }
        let id = self.shared.op(token, peer, OpKind::Atomic, None);
        let mut h = Header::new(Kind::Atomic);
        h.flags = FLAG_LAST;
        h.op = id;
        h.key = rkey.0;
        h.addr = remote;
        match op {
            AtomicOp::FetchAdd(v) => h.arg = v,
            AtomicOp::CompareSwap { compare, swap } => {
                h.flags |= FLAG_CAS;
                h.arg = compare;
                h.off = swap;
            }
        }
        self.shared.send(peer, [OutFrame::new(&h, Body::Empty)])
    }

    fn link_progress(&self, peer: usize) -> Option<crate::fabric::LinkProgress> {
        let link = self.shared.links.get(peer)?.lock();
        if link.state != LinkState::Up || link.fd < 0 {
            return None;
        }
        // SAFETY: an Up link's descriptor stays open while its lock is held (see
        // `last_link`).
        let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(link.fd) };
        let (bytes, busy_us) = crate::sys::net::tcp_progress(fd)?;
        Some(crate::fabric::LinkProgress { bytes, busy_us })
    }

    fn last_link(&mut self, peer: usize) {
        let Some(link) = self.shared.links.get(peer) else {
            return;
        };
        let mut link = link.lock();
        link.last = true;
        if link.state == LinkState::Up && link.fd >= 0 {
            // SAFETY: an Up link's descriptor stays open while its lock is held: the
            // progress thread marks the link Closed (fd -1) under this lock before it
            // drops the connection that owns the descriptor.
            let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(link.fd) };
            crate::sys::net::set_timeouts(fd, self.shared.timeout_ms);
        }
    }

    fn close(&mut self) {
        self.shut_down();
    }
}

impl Drop for TcpRail {
    fn drop(&mut self) {
        self.close();
    }
}

impl TcpRail {
    /// Serve the sockets from the polling thread: one turn that does not block, or, while
    /// the progress thread is in a turn, a request that it hand over.
    fn drive(&mut self) {
        self.polls += 1;
        self.shared.rank_polls.store(self.polls, Ordering::Release);
        match self.engine.try_lock() {
            Some(mut p) => p.turn(Some(std::time::Duration::ZERO)),
            None => {
                if !self.shared.rank_waiting.swap(true, Ordering::AcqRel) {
                    let _ = self.shared.poller.notify();
                }
            }
        }
    }

    fn shut_down(&mut self) {
        if self.thread.is_none() {
            return;
        }
        // Say goodbye on every connection, then let the progress thread drain what the
        // peers still send until they have said goodbye too (bounded), and stop.
        self.shared.stopping.store(true, Ordering::Release);
        for peer in 0..self.shared.links.len() {
            let up = self.shared.links[peer].lock().state == LinkState::Up;
            if up {
                let _ = self
                    .shared
                    .send(peer, [OutFrame::new(&Header::new(Kind::Bye), Body::Empty)]);
            }
        }
        let _ = self.shared.poller.notify();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
