//! The `verbs` provider: InfiniBand, RoCE and iWARP adapters through libibverbs and
//! librdmacm, in a module loaded at run time (`module.rs`), so that libmpi.so.12 never needs
//! them to load.
//!
//! - One rail per device port (`RAILMPI_VERBS_DEVICES`, default every active port): a
//!   context with its protection domain, one completion queue shared by every queue pair
//!   (its completion channel wakes a small thread that rings the process's doorbell), one
//!   shared receive queue of pre-registered buffers (Li §V-A), and an rdma_cm listener.
//! - RC queue pairs are connected on demand through rdma_cm (the same on IB, RoCE and
//!   iWARP), proving the job's secret in the request; simultaneous connects keep the lower
//!   rank's (`connect.rs`, Tsai §III-B).
//! - Messages: send with immediate, from a registered bounce buffer (or inline), into the
//!   peer's shared receive queue; an empty queue makes the sender's adapter retry
//!   (receiver-not-ready, retried without limit), which is the back-pressure. The send
//!   queue of each connection is bounded; what does not fit waits in order in a backlog.
//! - One-sided: RDMA write and read and 64-bit atomics on the peer's memory regions, named
//!   by their rkeys (`domain.rs`): the adapter checks the key, the bounds and the rights.
//!   Local memory must lie in a region of ours; memory the layers above did not register
//!   is registered for the one transfer.
//! - A failed connection: an error completion for the operation that caused it; the others
//!   go again on a new connection (flushed work requests are kept until they complete);
//!   a peer that stops answering is lost (`RailEvent::Lost`, or the end of the job when no
//!   other rail reaches it).

pub mod buffers;
pub mod connect;
pub mod domain;
pub mod module;
mod requests;
pub mod service;
mod sges;
pub mod watchdog;

use super::{
    AtomicOp, Completion, Doorbell, KeyError, MemoryDomain, Rail, RailCaps, RailError, RailEvent,
    RdmaOp, RemoteKey, Span, Transfer,
};
use buffers::Pool;
use connect::{Action, Connector};
use domain::{rkey_of, VerbsDomain};
use module::{abi, Module, Port};
use requests::Requests;
use rustc_hash::FxHashMap;
use sges::{Sges, Short};
use std::collections::VecDeque;
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use watchdog::{Holding, Verdict, Watch, TELL_AFTER};

/// Settings of the verbs rails (`RAILMPI_VERBS_*`).
#[derive(Clone, Debug)]
pub struct VerbsSettings {
    /// `device:port` pairs to use, in order; empty: every active port.
    pub devices: Vec<(String, u32)>,
    /// Work requests outstanding per connection.
    pub sq_depth: u32,
    /// Receive buffers of the shared receive queue.
    pub srq_depth: u32,
    /// Retry timeout exponent of the queue pairs (4.096 µs × 2^timeout).
    pub timeout: u8,
    /// Retries before a path that does not answer fails. Not 7: Soft-RoCE reads 7 as "retry
    /// for ever" (rxe_comp.c, as the spec does only for the RNR count), and a link that
    /// went silent under it was never reported — the job hung when no other traffic showed
    /// the loss.
    pub retry_count: u8,
}

impl Default for VerbsSettings {
    fn default() -> Self {
        VerbsSettings {
            devices: Vec::new(),
            sq_depth: 128,
            srq_depth: 512,
            timeout: 20,
            retry_count: 6,
        }
    }
}

/// Parse `RAILMPI_VERBS_DEVICES` (`rxe0:1,mlx5_0:1`; a port of 1 when left out).
pub fn parse_devices(v: &str) -> Result<Vec<(String, u32)>, String> {
    v.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| match s.split_once(':') {
            Some((d, p)) => p
                .parse()
                .map(|p| (d.to_string(), p))
                .map_err(|_| format!("RAILMPI_VERBS_DEVICES: bad port in {s:?}")),
            None => Ok((s.to_string(), 1)),
        })
        .collect()
}

/// The ports the rails would use: those `settings` names (each must exist and be active),
/// or every active port. Loads the module.
pub fn select_ports(settings: &VerbsSettings) -> Result<Vec<Port>, String> {
    let m = module::get().map_err(|e| e.to_string())?;
    let all = module::ports(m)?;
    if settings.devices.is_empty() {
        return Ok(all.into_iter().filter(|p| p.info.active != 0).collect());
    }
    settings
        .devices
        .iter()
        .map(|(d, p)| {
            let port = all
                .iter()
                .find(|x| &x.device == d && x.port == *p)
                .ok_or_else(|| format!("RAILMPI_VERBS_DEVICES: no port {d}:{p} here"))?;
            if port.info.active == 0 {
                return Err(format!("RAILMPI_VERBS_DEVICES: port {d}:{p} is not active"));
            }
            Ok(port.clone())
        })
        .collect()
}

/// At most this many requests in a row go without a completion of their own (`post_now`).
const SIGNAL_EVERY: u32 = 16;

/// Bytes of one message slot (receive buffer and send bounce buffer): the largest message,
/// as on shm (an eager payload of 16 KiB with its header).
pub const MESSAGE: usize = 16448;
/// Reads without a local key up to this many bytes go through a send slot (`RailCaps::
/// read_bounce`): UCX's `get_bcopy` does the same below its zero-copy threshold.
const READ_BOUNCE: usize = 4096;
/// Words atomics return into.
const ATOMIC_SLOTS: usize = 256;
/// One-sided transfers of at most this many bytes that may wait (`Transfer::defer`) and
/// come while others are on their way are held until the rail's next poll, and go to the
/// adapter together: one doorbell per connection for a window's worth of small puts (on
/// Soft-RoCE a doorbell is a system call; on an adapter, an MMIO write). Larger ones, and
/// the first of a burst, start at once.
const DEFER_MAX: u64 = 4096;
/// At most this many wait: then they go.
const DEFER_BATCH: usize = 32;
/// Largest byte count of one work request: small enough that a busy link completes one
/// every few seconds even when slow (the watchdog waits `TELL_AFTER`, 30 s, for one:
/// 16 MiB at 0.5 MB/s), large enough to keep an adapter at line rate.
const MAX_WR_BYTES: u64 = 16 << 20;
/// Largest byte count of one scatter/gather entry, and of a region registered for one
/// transfer alone (well below every adapter's limit).
const MAX_SGE_BYTES: u64 = 1 << 30;
/// Rail control messages (sent without an immediate word): the first byte.
const CTRL_BYE: u8 = 1;
/// A message sent for its completion alone (`watchdog`).
const CTRL_PROBE: u8 = 2;
/// Polls between two looks of the watchdog (a clock read each: a system call where the
/// clock source is not the TSC — in a TCG guest, the HPET).
const WATCH_EVERY: u32 = 4096;
/// Polls of a data rail between two polls of its service rail when no atomic of ours is
/// out (`VerbsRail::poll`).
const SERVICE_EVERY: u32 = 16;
/// On iWARP (no immediate data), a message: this byte and the word lead the payload.
const CTRL_MSG: u8 = 0;
const IMM_HEAD: usize = 5;
/// How long `close` waits for the peers' goodbyes.
const CLOSE_WAIT: Duration = Duration::from_secs(5);
/// A dial refused by a peer that still holds our old connection is tried again after
/// this, until `REFUSED_FOR`.
const REDIAL_AFTER: Duration = Duration::from_millis(20);
const REFUSED_FOR: Duration = Duration::from_secs(10);
/// Connections a one-sided request may see go down under it before it fails (`requeue`).
const MAX_DROPS: u8 = 3;

/// What one port's rail offers.
pub fn caps(port: &Port) -> RailCaps {
    let i = &port.info;
    let gbit = (i.speed_mbps / 1000).max(1);
    RailCaps {
        name: "verbs",
        slot: crate::fabric::slot::VERBS,
        // iWARP carries the immediate word in the payload.
        max_message: if i.transport == abi::TRANSPORT_IWARP {
            MESSAGE - IMM_HEAD
        } else {
            MESSAGE
        },
        max_inline: i.max_inline as usize,
        read_bounce: READ_BOUNCE,
        max_sge: i.max_sge.clamp(1, 16) as usize,
        rdma_read: true,
        rdma_write: true,
        atomics: i.atomics != 0,
        odp: i.odp & (abi::ODP_WRITE | abi::ODP_READ) == abi::ODP_WRITE | abi::ODP_READ,
        mapped: false,
        bandwidth: gbit * 125_000_000,
        latency_ns: 3_000,
        min_rdma_run: 2048,
        min_stripe: 64 * 1024,
        local_keys: true,
        split_rendezvous: true,
        // iWARP has no immediate data.
        write_notify: i.transport != abi::TRANSPORT_IWARP,
        progress_thread: false,
        eager_limit: 0,
    }
}

/// What every verbs rail of a process shares.
#[derive(Clone)]
pub struct VerbsContext {
    pub me: usize,
    pub hosts: Vec<String>,
    pub secret: super::tcp::Secret,
    /// Rung when a message or completion arrives.
    pub wait: Doorbell,
    /// Rung too (a service rail: the rank, waiting for its requests to be served, sleeps
    /// on the process's doorbell while the service thread sleeps on `wait`).
    pub also_wake: Option<Doorbell>,
    /// Other rails reach the peers too: a lost link is reported, not fatal.
    pub survive_loss: bool,
}

/// A work request the adapter holds (or that waits for room), kept until it completes so
/// that it can go again on a new connection.
struct Wr {
    peer: usize,
    /// The connection it was handed to (None while it waits): a completion from another
    /// connection is a late one of a connection given up, and is ignored.
    posted_on: Option<u64>,
    /// Connections that went down while it was posted (`requeue`).
    drops: u8,
    what: WrKind,
    opcode: u32,
    flags: u32,
    sges: Sges,
    imm: u32,
    remote_addr: u64,
    rkey: u32,
    compare_add: u64,
    swap: u64,
}

impl Wr {
    /// A work request of `sges` (an RDMA read or write: at `remote_addr` under `rkey`),
    /// without immediate data or atomic operands.
    fn rdma(
        peer: usize,
        what: WrKind,
        opcode: u32,
        flags: u32,
        sges: Sges,
        remote_addr: u64,
        rkey: u32,
    ) -> Wr {
        Wr {
            peer,
            posted_on: None,
            drops: 0,
            what,
            opcode,
            flags,
            sges,
            imm: 0,
            remote_addr,
            rkey,
            compare_add: 0,
            swap: 0,
        }
    }
}

enum WrKind {
    /// A message from a bounce buffer (None: inline, copied at post).
    Send {
        slot: Option<u32>,
    },
    /// One piece of transfer `token` (`whole`: its only one, which completes it without
    /// an entry in `pending`); regions registered for it alone.
    Transfer {
        token: u64,
        temp: Vec<u64>,
        whole: bool,
    },
    Atomic {
        token: u64,
        slot: u32,
    },
    /// A write fence (`write_fence`): a one-byte read behind every write transfer in
    /// `tokens` on its connection, the last piece of each.
    Fence {
        tokens: Vec<u64>,
    },
    /// A small read into send slot `slot`, copied to the caller's `into` at its
    /// completion; it completes transfer `token`.
    BounceRead {
        token: u64,
        slot: u32,
        into: Short<Span>,
    },
}

/// One peer's link.
#[derive(Default)]
struct Link {
    cookie: Option<u64>,
    /// Work requests posted on the connection and not completed.
    outstanding: u32,
    /// Of those, the ones posted without a completion of their own (inline messages), in
    /// order: the next signalled completion on the connection retires every one before it.
    unsignaled: VecDeque<u64>,
    /// Work requests waiting for the connection or for room, in order.
    backlog: VecDeque<u64>,
    /// Refused dials: when the first was, and when to try again.
    refused_since: Option<Instant>,
    redial_at: Option<Instant>,
    bye: bool,
    lost: bool,
    watch: Watch,
    /// The other rails' links to this peer failed (`last_link`): the watchdog only warns.
    last: bool,
    /// Write transfers posted since the last fence on iWARP (`write_fence`), waiting for
    /// the next; and where it reads (the last byte of the latest, under its key).
    unfenced: Vec<u64>,
    fence_at: (u64, u32),
}

/// A transfer's pieces still out, and its first error.
struct Pending {
    left: u32,
    error: Option<RailError>,
}

pub struct VerbsRail {
    caps: RailCaps,
    /// `device:port`, for messages.
    port: String,
    m: &'static Module,
    ctx: *mut abi::Ctx,
    domain: Arc<VerbsDomain>,
    addrs: Vec<abi::Addr>,
    hosts: Vec<String>,
    sq_depth: u32,
    survive_loss: bool,
    /// The transport has no immediate data (iWARP): it travels in the payload.
    imm_in_payload: bool,
    /// The adapter answers a refused access by dropping the connection (iWARP: the target
    /// terminates it), so the request's own completion may be a success, a flush or a
    /// local QP operation error — the last is then no sign of a broken path.
    refusal_drops: bool,
    /// Scatter/gather entries an RDMA read takes.
    max_sge_rd: usize,
    /// soft-iWARP sends a payload of up to 32 bytes (`MAX_HDR_INLINE`) that crosses a page
    /// wrongly when it sends it from a thread of its own — always for a read's response,
    /// sometimes for a write — (`siw_try_1seg` copies the second page's byte count from
    /// the first page, then the rest from the wrong address: Linux 6.1–6.12 at least), so
    /// such work requests are cut at the page (`page_safe`).
    small_page_quirk: bool,
    /// A write completes at its origin once sent, not once placed (iWARP), so each write
    /// transfer ends with a one-byte read of its last byte into this atomics slot and
    /// completes with it: the target answers a read only after placing the writes before
    /// it on the connection. Without it a put's flush or unlock could return before the
    /// target's memory had the bytes, and a rendezvous FIN sent over another port could
    /// overtake a striped write.
    write_fence: Option<u32>,
    /// The peers whose links have `unfenced` writes, in no order (`post_fences`).
    fence_peers: Vec<usize>,
    /// Bit `i`: a message with immediate word `i` goes with `FLAG_SOLICITED`
    /// (`set_solicited`; 0 on data rails, so their messages test one word, call nothing).
    solicited_imms: u32,
    /// Solicited messages and arming for them work: not on siw (6.1), whose receive
    /// completions never raise a solicited event (a sleeping helper missed every request),
    /// and where a solicited send did not reach a helper armed for every completion either
    /// (rma_passive: 3 of 3 runs without passive-target progress).
    solicited_events: bool,
    /// `close` began: nothing is dialed, and a link that fails now is no error.
    closing: bool,
    /// Atomics go to the peer's service queue, which applies them in software
    /// (`set_atomic_proxy`).
    atomic_proxy: Option<Arc<service::VerbsService>>,
    conns: Connector,
    links: Vec<Link>,
    recv: Pool,
    send: Pool,
    atomics: Pool,
    wrs: Requests<Wr>,
    pending: FxHashMap<u64, Pending>,
    /// Events made outside `poll` (a failed post's completion, a lost link).
    made: VecDeque<Made>,
    /// Requests held for the next poll (`DEFER_MAX`), in posting order.
    deferred: Vec<u64>,
    wcs: Vec<abi::Wc>,
    /// Polls since the watchdog last looked (it reads the clock every `WATCH_EVERY`).
    polls: u32,
    /// How long a link may hold requests without a completion before it is given up
    /// (`watchdog`).
    give_up_after: Duration,
    /// Links whose `redial_at` is set.
    redials: usize,
    wait: Doorbell,
    also_wake: Option<Doorbell>,
    waker: Option<Waker>,
    /// The completion queue raises an event at its next completion. A data rail arms it
    /// only when its process is about to sleep (`arm`): a rank that polls takes no event
    /// (each would wake the waker thread and cost a re-arm system call per message); a
    /// service rail's waker re-arms at once (the RMA helper sleeps between requests).
    armed: Arc<AtomicBool>,
    /// The last arming was for every completion, not only solicited ones.
    armed_all: bool,
    lazy_arm: bool,
}

enum Made {
    Done(Completion),
    Lost { peer: usize, why: String },
}

// SAFETY: the context pointer is used by the thread that holds the rail (and the waker
// thread only through `ack_events`, which libibverbs allows concurrently with polling).
unsafe impl Send for VerbsRail {}

/// The thread that sleeps on the completion and connection channels and rings the
/// process's doorbell.
struct Waker {
    thread: JoinHandle<()>,
    stop: std::os::fd::OwnedFd,
    /// Set by the thread when rdma_cm events wait; cleared by the rail once drained.
    cm_ready: Arc<AtomicBool>,
}

fn errno_text(rc: i32) -> String {
    std::io::Error::from_raw_os_error(rc).to_string()
}

/// A socket address as the module takes it.
pub fn to_addr(a: std::net::SocketAddr) -> abi::Addr {
    let ip = match a.ip() {
        std::net::IpAddr::V4(v4) => v4.to_ipv6_mapped().octets(),
        std::net::IpAddr::V6(v6) => v6.octets(),
    };
    abi::Addr {
        ip,
        port: a.port(),
        _pad: [0; 6],
    }
}

pub fn from_addr(a: &abi::Addr) -> std::net::SocketAddr {
    let v6 = std::net::Ipv6Addr::from(a.ip);
    let ip = match v6.to_ipv4_mapped() {
        Some(v4) => std::net::IpAddr::V4(v4),
        None => std::net::IpAddr::V6(v6),
    };
    std::net::SocketAddr::new(ip, a.port)
}

impl VerbsRail {
    /// Open a rail on `port` (rail number `index` of the job) for `peers` ranks; it
    /// listens at once (`listen_addr`) and connects when `set_peers` has told it where the
    /// peers listen.
    pub fn open(
        port: &Port,
        index: u32,
        peers: usize,
        ctx: &VerbsContext,
        settings: &VerbsSettings,
    ) -> Result<VerbsRail, String> {
        Self::open_sharing(port, index, peers, ctx, settings, None)
    }

    /// `open`, the new rail's context sharing `share`'s protection domain (so `share`'s
    /// keys serve its transfers): the service queue's rail. It must close first.
    pub fn open_sharing(
        port: &Port,
        index: u32,
        peers: usize,
        ctx: &VerbsContext,
        settings: &VerbsSettings,
        share: Option<&VerbsRail>,
    ) -> Result<VerbsRail, String> {
        let m = module::get().map_err(|e| e.to_string())?;
        let device = CString::new(port.device.clone()).map_err(|_| "bad device name")?;
        let listen_ip = port.ip().ok_or_else(|| {
            format!(
                "verbs: port {}:{} has no IP address",
                port.device, port.port
            )
        })?;
        let sq_depth = settings.sq_depth.min(port.info.max_qp_wr.max(16));
        let srq_depth = settings.srq_depth.min(port.info.max_srq_wr.max(16));
        let cq_depth = (srq_depth as usize + sq_depth as usize * peers.max(1)).min(65536) as u32;
        let params = abi::OpenParams {
            device: device.as_ptr(),
            port: port.port,
            cq_depth,
            sq_depth,
            srq_depth,
            max_inline: port.info.max_inline,
            max_sge: caps(port).max_sge as u32,
            timeout: settings.timeout,
            retry_count: settings.retry_count,
            rnr_retry: 7,
            _pad: 0,
            listen_ip: to_addr(std::net::SocketAddr::new(listen_ip, 0)).ip,
            share_pd: share.map_or(std::ptr::null_mut(), |r| r.ctx),
        };
        let mut raw: *mut abi::Ctx = std::ptr::null_mut();
        let mut err = [0u8; 256];
        // SAFETY: `params` and `device` live through the call; `raw` and `err` are valid
        // out-buffers of the sizes given.
        let rc = unsafe { (m.ops.open)(&params, &mut raw, err.as_mut_ptr().cast(), err.len()) };
        if rc != 0 || raw.is_null() {
            return Err(format!(
                "verbs: cannot open {}:{}: {} ({})",
                port.device,
                port.port,
                module::c_text(&err),
                errno_text(rc)
            ));
        }
        let domain = Arc::new(VerbsDomain::new(m, raw, port.info.odp));
        let pools = (|| {
            Ok::<_, std::io::Error>((
                Pool::new(&domain, MESSAGE, srq_depth as usize)?,
                Pool::new(&domain, MESSAGE, (sq_depth as usize * 2).max(64))?,
                Pool::new(&domain, 8, ATOMIC_SLOTS)?,
            ))
        })();
        let (recv, send, atomics) = match pools {
            Ok(p) => p,
            Err(e) => {
                domain.close();
                // SAFETY: the context opened above, with nothing else using it.
                unsafe { (m.ops.close)(raw) };
                return Err(format!("verbs: registering the rail's buffers: {e}"));
            }
        };
        let nonce_source = || super::tcp::random::<{ connect::NONCE }>();
        let mut rail = VerbsRail {
            caps: RailCaps {
                // Port `i`'s rail and its service rail share one protection domain.
                slot: crate::fabric::slot::VERBS + index as usize % 1000,
                ..caps(port)
            },
            port: format!("{}:{}", port.device, port.port),
            m,
            ctx: raw,
            domain,
            addrs: Vec::new(),
            hosts: ctx.hosts.clone(),
            sq_depth,
            survive_loss: ctx.survive_loss,
            imm_in_payload: port.info.transport == abi::TRANSPORT_IWARP,
            refusal_drops: port.info.transport == abi::TRANSPORT_IWARP,
            max_sge_rd: (port.info.max_sge_rd as usize).clamp(1, 16),
            small_page_quirk: port.info.vendor_id == abi::VENDOR_SIW,
            write_fence: None,
            fence_peers: Vec::new(),
            solicited_imms: 0,
            solicited_events: port.info.transport != abi::TRANSPORT_IWARP,
            atomic_proxy: None,
            closing: false,
            conns: Connector::new(ctx.me, peers, index, &ctx.secret, Box::new(nonce_source)),
            links: (0..peers).map(|_| Link::default()).collect(),
            recv,
            send,
            atomics,
            wrs: Requests::default(),
            pending: FxHashMap::default(),
            made: VecDeque::new(),
            deferred: Vec::new(),
            wcs: vec![abi::Wc::default(); 32],
            polls: 0,
            give_up_after: give_up_after(settings),
            redials: 0,
            wait: ctx.wait,
            also_wake: ctx.also_wake,
            // Armed when the context was made.
            armed: Arc::new(AtomicBool::new(true)),
            armed_all: true,
            // Every rail, the service rail too (its helper arms it before it sleeps): an
            // event per completion would wake the waker thread, and it the helper, for
            // each request, even while a thread of ours polls (a context switch or two per
            // MPI_Fetch_and_op).
            lazy_arm: true,
            waker: None,
        };
        for i in 0..rail.recv.count as u32 {
            rail.post_recv(i)?;
        }
        if port.info.transport == abi::TRANSPORT_IWARP {
            rail.write_fence = rail.atomics.take();
        }
        rail.waker = Some(rail.start_waker()?);
        Ok(rail)
    }

    /// Where this rail listens (to publish).
    pub fn listen_addr(&self) -> Result<std::net::SocketAddr, String> {
        let mut a = abi::Addr::default();
        // SAFETY: an open context; `a` is a valid out-pointer.
        let rc = unsafe { (self.m.ops.listen_addr)(self.ctx, &mut a) };
        if rc != 0 {
            return Err(format!("verbs: listener address: {}", errno_text(rc)));
        }
        Ok(from_addr(&a))
    }

    /// Where each rank's rail listens (by rank).
    pub fn set_peers(&mut self, addrs: Vec<std::net::SocketAddr>) {
        self.addrs = addrs.into_iter().map(to_addr).collect();
    }

    /// The job's secret (known once every rail listens) and whether other rails reach the
    /// peers too.
    pub fn set_secret(&mut self, secret: &super::tcp::Secret, survive_loss: bool) {
        self.conns.set_secret(secret);
        self.survive_loss = survive_loss;
    }

    /// Messages with these immediate words go solicited (`FLAG_SOLICITED`): on a service
    /// rail, the requests and the answers a sleeping rank waits for, so that its thread
    /// (`arm_quiet`) is not woken by the rest — the served marks of our own requests, which
    /// the requesting thread polls for, came back to wake the helper, twice a context switch
    /// per `MPI_Fetch_and_op` at the origin.
    /// Bit `i` of `imms` stands for immediate word `i`. Nothing where solicited events
    /// do not work (`solicited_events`).
    pub fn set_solicited(&mut self, imms: u32) {
        if self.solicited_events {
            self.solicited_imms = imms;
        }
    }

    /// Arm the completion queue for the next event, once per sleep (`armed`, cleared by the
    /// waker at an event); `solicited_only`: only a solicited message (or a failed request)
    /// raises it. An arming for every completion is never narrowed while it stands (on siw
    /// the last arming wins).
    fn arm_events(&mut self, solicited_only: bool) {
        if !self.lazy_arm {
            return;
        }
        // Marked first: an event that comes at once (a completion already waiting) clears
        // the mark after we set it, so the next sleep arms again.
        let was = self.armed.swap(true, Ordering::AcqRel);
        if was && (solicited_only || self.armed_all) {
            return;
        }
        // SAFETY: an open context; arming is allowed beside the waker's acks.
        let rc = unsafe { (self.m.ops.arm)(self.ctx, i32::from(solicited_only)) };
        if rc != 0 {
            // Without the event a sleeping rank wakes only at its timeout: keep the mark
            // off so the next sleep tries again.
            self.armed.store(false, Ordering::Release);
        } else {
            self.armed_all = !solicited_only;
        }
    }

    /// Whether solicited messages raise events here (`solicited_events`).
    pub fn solicited_events(&self) -> bool {
        self.solicited_events
    }

    /// Before a service thread sleeps: only solicited messages wake it, unless requests
    /// wait in the rail for room or a connection (a send completion lets them go).
    pub fn arm_quiet(&mut self, all: bool) {
        self.flush_held();
        let waiting = self.links.iter().any(|l| !l.backlog.is_empty());
        self.arm_events(self.solicited_events && !(all || waiting));
    }

    /// Where atomics go: the peer's service queue, which applies them with CPU atomics.
    /// Even an adapter that has atomics is not used for them: its atomics are atomic only
    /// among themselves (`IBV_ATOMIC_HCA`; rxe applies them under a lock of its own), while
    /// the window's owner updates the same lock words with CPU atomics — two exclusive
    /// lock holders at once were seen on rxe with 3 ranks.
    pub fn set_atomic_proxy(&mut self, proxy: Arc<service::VerbsService>) {
        self.atomic_proxy = Some(proxy);
        self.caps.atomics = true;
    }

    pub fn domain(&self) -> Arc<VerbsDomain> {
        self.domain.clone()
    }

    fn post_recv(&mut self, slot: u32) -> Result<(), String> {
        let sge = self.recv.sge(slot, MESSAGE);
        // SAFETY: an open context; the slot is ours and not posted (the rail reposts a
        // slot only after its completion was handled).
        let rc = unsafe { (self.m.ops.post_recv)(self.ctx, slot as u64, &sge) };
        if rc != 0 {
            return Err(format!("verbs: posting a receive: {}", errno_text(rc)));
        }
        Ok(())
    }

    fn start_waker(&self) -> Result<Waker, String> {
        let mut fds = [-1i32; 2];
        // SAFETY: an open context; `fds` has room for the two descriptors.
        let rc = unsafe { (self.m.ops.wait_fds)(self.ctx, fds.as_mut_ptr()) };
        if rc != 0 {
            return Err(format!("verbs: wait descriptors: {}", errno_text(rc)));
        }
        // SAFETY: eventfd creates a new descriptor, owned below.
        let stop = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        if stop < 0 {
            return Err(format!(
                "verbs: eventfd: {}",
                std::io::Error::last_os_error()
            ));
        }
        // SAFETY: a fresh descriptor nothing else owns.
        let stop = unsafe { <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(stop) };
        let stop_raw = std::os::fd::AsRawFd::as_raw_fd(&stop);
        let cm_ready = Arc::new(AtomicBool::new(false));
        let (ready, wait, also, m) = (cm_ready.clone(), self.wait, self.also_wake, self.m);
        let (armed, rearm) = (self.armed.clone(), i32::from(!self.lazy_arm));
        let ctx = self.ctx as usize;
        let ring = move || {
            wait.ring();
            if let Some(b) = also {
                b.ring();
            }
        };
        let thread = std::thread::Builder::new()
            .name("railmpi-verbs".into())
            .spawn(move || {
                let ctx = ctx as *mut abi::Ctx;
                loop {
                    let watch_cm = !ready.load(Ordering::Acquire);
                    let mut p = [
                        libc::pollfd {
                            fd: stop_raw,
                            events: libc::POLLIN,
                            revents: 0,
                        },
                        libc::pollfd {
                            fd: fds[0],
                            events: libc::POLLIN,
                            revents: 0,
                        },
                        libc::pollfd {
                            fd: fds[1],
                            events: libc::POLLIN,
                            revents: 0,
                        },
                    ];
                    let n = if watch_cm { 3 } else { 2 };
                    // Without the connection channel in the set (events wait for the rail
                    // to take them), look again soon.
                    let timeout = if watch_cm { -1 } else { 10 };
                    // SAFETY: `p` holds `n` initialised pollfds.
                    let rc = unsafe { libc::poll(p.as_mut_ptr(), n as libc::nfds_t, timeout) };
                    if rc < 0 {
                        continue;
                    }
                    if p[0].revents != 0 {
                        return;
                    }
                    if p[1].revents != 0 {
                        // SAFETY: the context stays open until this thread has stopped
                        // (`close` stops it first).
                        unsafe { (m.ops.ack_events)(ctx, rearm) };
                        if rearm == 0 {
                            // The event disarmed the queue; `arm` arms it again.
                            armed.store(false, Ordering::Release);
                        }
                        ring();
                    }
                    if n == 3 && p[2].revents != 0 {
                        ready.store(true, Ordering::Release);
                        ring();
                    }
                }
            })
            .map_err(|e| format!("verbs: starting the waker thread: {e}"))?;
        Ok(Waker {
            thread,
            stop,
            cm_ready,
        })
    }

    fn stop_waker(&mut self) {
        if let Some(w) = self.waker.take() {
            let one = 1u64;
            // SAFETY: writing 8 bytes to our eventfd.
            unsafe {
                libc::write(
                    std::os::fd::AsRawFd::as_raw_fd(&w.stop),
                    (&one as *const u64).cast(),
                    8,
                )
            };
            let _ = w.thread.join();
        }
    }

    fn host(&self, peer: usize) -> &str {
        self.hosts.get(peer).map_or("?", String::as_str)
    }

    // ----- connections -------------------------------------------------------------

    fn carry_out(&mut self, action: Action) {
        match action {
            Action::Dial { peer, cookie, data } => {
                let Some(to) = self.addrs.get(peer).copied() else {
                    return;
                };
                // SAFETY: an open context; `to` and `data` live through the call.
                let rc = unsafe {
                    (self.m.ops.connect)(self.ctx, &to, data.as_ptr(), data.len(), cookie)
                };
                if rc != 0 {
                    self.conns.on_closed(cookie);
                    self.link_failed(
                        peer,
                        format!("cannot connect to {}: {}", from_addr(&to), errno_text(rc)),
                    );
                }
            }
            Action::Accept { handle, cookie } => {
                // SAFETY: `handle` came with a CM_REQUEST event of this context.
                let rc = unsafe { (self.m.ops.accept)(self.ctx, handle, cookie) };
                if rc != 0 {
                    tracing::warn!("verbs: accepting a connection failed: {}", errno_text(rc));
                    self.conns.on_closed(cookie);
                }
            }
            Action::Reject { handle, why } => {
                if let Some(why) = why {
                    warn_refusal(&why);
                }
                // SAFETY: as for accept.
                unsafe { (self.m.ops.reject)(self.ctx, handle, std::ptr::null(), 0) };
            }
            Action::Up { peer, cookie } => {
                let link = &mut self.links[peer];
                link.cookie = Some(cookie);
                link.refused_since = None;
                if link.redial_at.take().is_some() {
                    self.redials -= 1;
                }
                tracing::debug!(peer, "verbs: connected");
                self.flush_backlog(peer);
            }
        }
    }

    fn drain_cm(&mut self) {
        // Looked at in place: a clone of the flag on every poll was two atomic
        // read-modify-writes for a flag that is nearly always clear.
        let Some(ready) = self
            .waker
            .as_ref()
            .filter(|w| w.cm_ready.load(Ordering::Acquire))
            .map(|w| w.cm_ready.clone())
        else {
            return;
        };
        loop {
            let mut ev = abi::CmEvent {
                kind: abi::CM_NONE,
                status: 0,
                error: 0,
                data_len: 0,
                conn: 0,
                data: [0; abi::PRIVATE_DATA],
            };
            // SAFETY: an open context; `ev` is a valid out-pointer.
            let rc = unsafe { (self.m.ops.cm_event)(self.ctx, &mut ev) };
            if rc != 0 || ev.kind == abi::CM_NONE {
                break;
            }
            self.on_cm(&ev);
        }
        // Let the waker watch the channel again (after draining: an event arriving now
        // makes the channel readable, which the waker then sees).
        ready.store(false, Ordering::Release);
    }

    fn on_cm(&mut self, ev: &abi::CmEvent) {
        let peer = connect::peer_of(ev.conn);
        match ev.kind {
            abi::CM_REQUEST => {
                let len = (ev.data_len as usize).min(abi::PRIVATE_DATA);
                let action = self.conns.on_request(ev.conn, &ev.data[..len]);
                self.carry_out(action);
            }
            abi::CM_ESTABLISHED => {
                if let Some(a) = self.conns.on_established(ev.conn) {
                    self.carry_out(a);
                } else {
                    // A connection we no longer want (its dial lost a tie-break).
                    // SAFETY: a cookie of this context.
                    unsafe { (self.m.ops.disconnect)(self.ctx, ev.conn) };
                }
            }
            abi::CM_REJECTED if self.conns.on_rejected(ev.conn) => {
                let link = &mut self.links[peer];
                let since = *link.refused_since.get_or_insert_with(Instant::now);
                if since.elapsed() > REFUSED_FOR {
                    self.link_failed(peer, "it refuses every connection".into());
                } else if link
                    .redial_at
                    .replace(Instant::now() + REDIAL_AFTER)
                    .is_none()
                {
                    self.redials += 1;
                }
            }
            abi::CM_DISCONNECTED | abi::CM_ERROR => {
                if peer < self.links.len() {
                    self.requeue(ev.conn);
                }
                let current = self.links.get(peer).and_then(|l| l.cookie) == Some(ev.conn);
                let was_current = self.conns.on_closed(ev.conn);
                if current {
                    self.links[peer].cookie = None;
                }
                if was_current || current {
                    if self.links[peer].bye {
                        return; // its goodbye came first: the end of the job
                    }
                    if ev.kind == abi::CM_ERROR && !current {
                        // Our dial failed (no route, no listener): the peer is unreachable.
                        let to = self.addrs.get(peer).map(from_addr);
                        self.link_failed(
                            peer,
                            format!(
                                "connecting to {to:?} failed (rdma_cm event {}, status {})",
                                ev.status, ev.error
                            ),
                        );
                    } else if !self.links[peer].backlog.is_empty() {
                        // The connection went down: what waits goes on a new one (the
                        // flushed requests dial again as they come back). Nothing waiting:
                        // stay idle — a peer that left must not be dialed.
                        self.want(peer);
                    }
                }
            }
            _ => {}
        }
    }

    fn want(&mut self, peer: usize) {
        if self.links[peer].lost || self.closing {
            return;
        }
        if let Some(t) = self.links[peer].redial_at {
            if Instant::now() < t {
                return;
            }
            self.links[peer].redial_at = None;
            self.redials -= 1;
        }
        if let Some(a) = self.conns.want(peer) {
            self.carry_out(a);
        }
    }

    /// The link to `peer` cannot be made or kept: report it (other rails carry on) or end
    /// the job.
    fn link_failed(&mut self, peer: usize, why: String) {
        let msg = format!(
            "rank {peer} on host {} is unreachable over verbs: {why}",
            self.host(peer)
        );
        if !self.survive_loss && !self.closing {
            super::fatal(&msg);
        }
        if self.links[peer].lost {
            return;
        }
        self.links[peer].lost = true;
        // It is never dialed again (and the clock need not be read for it).
        if self.links[peer].redial_at.take().is_some() {
            self.redials -= 1;
        }
        // Everything queued for it fails now.
        let queued: Vec<u64> = self.links[peer].backlog.drain(..).collect();
        for id in queued {
            if let Some(wr) = self.wrs.remove(id) {
                self.finish(wr.what, Err(RailError::Lost(peer)));
            }
        }
        self.made.push_back(Made::Lost { peer, why: msg });
    }

    // ----- posting ---------------------------------------------------------------------

    #[inline]
    fn new_wr(&mut self, wr: Wr) -> u64 {
        self.wrs.insert(wr)
    }

    /// Post `id` now if its connection is up and has room and nothing waits before it,
    /// else queue it (and dial).
    #[inline]
    fn submit(&mut self, id: u64) {
        // What waits goes first: one connection's requests go in posting order.
        self.flush_deferred();
        let peer = self.wrs.at(id).peer;
        let link = &self.links[peer];
        if link.cookie.is_some()
            && link.backlog.is_empty()
            && link.outstanding < self.sq_depth
            && self.post_now(id)
        {
            return;
        }
        self.links[peer].backlog.push_back(id);
        if self.links[peer].cookie.is_none() {
            self.want(peer);
        }
    }

    /// Hand `id` to the adapter. False when it must wait (no room, no connection); true
    /// when posted, or refused for good (then finished with an error).
    #[inline]
    fn post_now(&mut self, id: u64) -> bool {
        let peer = self.wrs.at(id).peer;
        let Some(cookie) = self.links[peer].cookie else {
            return false;
        };
        let wr = self.wrs.at(id);
        // Selective signalling (as UCX does): an inline message holds nothing to give back
        // at its completion, so most go without one — the kernel writes no completion and
        // the rail handles none — and every SIGNAL_EVERY-th (and all while closing)
        // retires those before it. Posting order is id order on a connection (`submit`).
        let quiet = matches!(wr.what, WrKind::Send { slot: None })
            && !self.closing
            && self.sq_depth >= 2 * SIGNAL_EVERY
            && (self.links[peer].unsignaled.len() as u32) < SIGNAL_EVERY - 1;
        let desc = desc_of(id, wr, quiet);
        let mut posted = 0;
        // SAFETY: an open context; the descriptor's entries point into `wr.sges`, which
        // lives in `self.wrs` until the completion; the memory they describe is ours
        // (bounce slots) or the caller's, valid until the completion by `post`'s contract.
        let rc = unsafe { (self.m.ops.post)(self.ctx, cookie, &desc, 1, &mut posted) };
        match rc {
            0 => {
                self.posted(id, peer, cookie, quiet);
                true
            }
            libc::ENOMEM => false,
            libc::EINVAL => {
                // The adapter refuses the request itself (more entries or inline bytes than
                // it takes): waiting would not help.
                let wr = self.wrs.remove(id).expect("posted above");
                let why = format!("the adapter refused a work request: {}", errno_text(rc));
                if matches!(wr.what, WrKind::Send { .. }) {
                    super::fatal(&format!("verbs: {why}"));
                }
                self.finish(wr.what, Err(RailError::Access(std::io::Error::other(why))));
                true
            }
            _ => {
                // The connection is going (ENOTCONN, or the queue pair is in error): keep
                // the request for the next connection.
                false
            }
        }
    }

    /// Bookkeeping for `id`, posted on `peer`'s connection `cookie`.
    #[inline]
    fn posted(&mut self, id: u64, peer: usize, cookie: u64, quiet: bool) {
        let link = &mut self.links[peer];
        link.outstanding += 1;
        if quiet {
            link.unsignaled.push_back(id);
        }
        self.wrs.get_mut(id).expect("a request posted").posted_on = Some(cookie);
    }

    /// Queue `id`: held for the next poll where `defer` (`DEFER_MAX`) and others are on
    /// their way before it (a burst), else `submit`ted — the first of a burst, or one alone
    /// (a latency loop's), goes at once.
    #[inline]
    fn enqueue(&mut self, id: u64, defer: bool) {
        let peer = self.wrs.at(id).peer;
        if !defer || (self.deferred.is_empty() && self.links[peer].outstanding == 0) {
            return self.submit(id);
        }
        self.deferred.push(id);
        if self.deferred.len() >= DEFER_BATCH {
            self.flush_deferred();
        }
    }

    /// Hand the held requests to the adapter: each connection's run of them with one
    /// doorbell where they can all go now, else one by one as `submit` does.
    #[inline]
    fn flush_deferred(&mut self) {
        if !self.deferred.is_empty() {
            self.post_deferred();
        }
    }

    /// Before a poll or a sleep: the held requests go, then the fences their connections
    /// owe (not at each post: a burst of writes shares one fence).
    #[inline]
    fn flush_held(&mut self) {
        self.flush_deferred();
        if !self.fence_peers.is_empty() {
            self.post_fences();
        }
    }

    fn post_deferred(&mut self) {
        let mut ids = std::mem::take(&mut self.deferred);
        // (Every held request is still there: only a completion or a lost link's backlog
        // takes one out, and neither reaches a request never posted nor queued.)
        debug_assert!(ids.iter().all(|&id| self.wrs.get(id).is_some()));
        let mut i = 0;
        while i < ids.len() {
            let peer = self.wrs.at(ids[i]).peer;
            let run = ids[i..]
                .iter()
                .take_while(|&&id| self.wrs.at(id).peer == peer)
                .count();
            let mut went = 0;
            let link = &self.links[peer];
            if link.lost {
                for &id in &ids[i..i + run] {
                    let wr = self.wrs.remove(id).expect("a held request");
                    self.finish(wr.what, Err(RailError::Lost(peer)));
                }
                i += run;
                continue;
            }
            if let Some(cookie) = link.cookie.filter(|_| run > 1 && link.backlog.is_empty()) {
                let room = self.sq_depth.saturating_sub(link.outstanding) as usize;
                let n = run.min(room);
                if n > 1 {
                    // On the stack: at most DEFER_BATCH are held.
                    let n = n.min(DEFER_BATCH);
                    let mut descs = [desc_of(ids[i], self.wrs.at(ids[i]), false); DEFER_BATCH];
                    for (d, &id) in descs.iter_mut().zip(&ids[i..i + n]).skip(1) {
                        *d = desc_of(id, self.wrs.at(id), false);
                    }
                    // SAFETY: as in `post_now`, for each descriptor.
                    unsafe {
                        (self.m.ops.post)(self.ctx, cookie, descs.as_ptr(), n, &mut went);
                    }
                    for &id in &ids[i..i + went] {
                        self.posted(id, peer, cookie, false);
                    }
                }
            }
            // The rest (no connection or room yet, or refused): as `submit` would.
            for &id in &ids[i + went..i + run] {
                self.submit(id);
            }
            i += run;
        }
        ids.clear();
        if self.deferred.is_empty() {
            self.deferred = ids;
        }
    }

    /// Post what waits for `peer`'s connection, as far as it has room (dial it if it
    /// has none).
    #[inline]
    fn flush_backlog(&mut self, peer: usize) {
        if !self.links[peer].backlog.is_empty() {
            self.flush_waiting(peer);
        }
    }

    fn flush_waiting(&mut self, peer: usize) {
        if self.links[peer].cookie.is_none() {
            // Its connection was dropped (a failed request, a flush): requests waiting for
            // one dial it now — its end of the connection may never raise an event.
            if !self.links[peer].backlog.is_empty() {
                self.want(peer);
            }
            return;
        }
        while self.links[peer].cookie.is_some() && self.links[peer].outstanding < self.sq_depth {
            let Some(&id) = self.links[peer].backlog.front() else {
                break;
            };
            if !self.post_now(id) {
                break;
            }
            self.links[peer].backlog.pop_front();
        }
    }

    // ----- completions -----------------------------------------------------------------

    /// Forget request `id`, keeping what it was for (only that moves: a request is large).
    #[inline]
    fn take(&mut self, id: u64) -> Option<WrKind> {
        self.wrs.remove_with(id, |w| {
            std::mem::replace(&mut w.what, WrKind::Send { slot: None })
        })
    }

    /// A request is over: its completion goes out at the next poll (`made`).
    fn finish(&mut self, what: WrKind, result: Result<u64, RailError>) {
        if let Some(c) = self.complete(what, result) {
            self.made.push_back(Made::Done(c));
        }
    }

    /// A request is over: give back what it held, and return the completion it ends, if
    /// it ends one (a transfer's last piece, a bounce read; the completions of a fence's
    /// transfers go to `made`).
    fn complete(&mut self, what: WrKind, result: Result<u64, RailError>) -> Option<Completion> {
        match what {
            WrKind::Send { slot } => {
                if let Some(s) = slot {
                    self.send.give(s);
                }
                None
            }
            WrKind::Transfer { token, temp, whole } => {
                for h in temp {
                    self.domain.deregister_raw(h);
                }
                if whole {
                    let result = result.map(|_| 0);
                    Some(Completion { token, result })
                } else {
                    self.piece_done(token, result.map(|_| 0))
                }
            }
            WrKind::Fence { tokens } => {
                for token in tokens {
                    let each = match &result {
                        Ok(_) => Ok(0),
                        Err(e) => Err(e.again()),
                    };
                    if let Some(c) = self.piece_done(token, each) {
                        self.made.push_back(Made::Done(c));
                    }
                }
                None
            }
            WrKind::BounceRead { token, slot, into } => {
                if result.is_ok() {
                    let mut from = self.send.slice(slot, MESSAGE);
                    for s in into.as_slice() {
                        let (now, rest) = from.split_at(s.len as usize);
                        // SAFETY: `into` is the local memory of a read posted by `post`,
                        // writable and untouched by us until its completion (`post`'s
                        // contract); the spans total at most READ_BOUNCE <= MESSAGE bytes
                        // (checked there), so `now` is in the slot.
                        unsafe {
                            std::ptr::copy_nonoverlapping(
                                now.as_ptr(),
                                s.addr as *mut u8,
                                now.len(),
                            )
                        };
                        from = rest;
                    }
                }
                self.send.give(slot);
                let result = result.map(|_| 0);
                Some(Completion { token, result })
            }
            WrKind::Atomic { token, slot } => {
                let value = u64::from_ne_bytes(self.atomics.slice(slot, 8).try_into().unwrap());
                self.atomics.give(slot);
                self.piece_done(token, result.map(|_| value))
            }
        }
    }

    /// A piece of transfer `token` is done; the transfer's completion once it was the last.
    fn piece_done(&mut self, token: u64, result: Result<u64, RailError>) -> Option<Completion> {
        let p = self.pending.get_mut(&token)?;
        p.left -= 1;
        let value = match result {
            Ok(v) => v,
            Err(e) => {
                p.error.get_or_insert(e);
                0
            }
        };
        if p.left == 0 {
            let p = self.pending.remove(&token).unwrap();
            let result = match p.error {
                Some(e) => Err(e),
                None => Ok(value),
            };
            return Some(Completion { token, result });
        }
        None
    }

    fn on_wc(&mut self, wc: &abi::Wc, sink: &mut dyn FnMut(RailEvent<'_>)) -> usize {
        if wc.opcode == abi::WC_RECV || wc.opcode == abi::WC_RECV_WRITE_IMM {
            let slot = wc.wr_id as u32;
            let mut n = 0;
            if wc.status == 0 {
                let peer = connect::peer_of(wc.conn);
                let len = (wc.byte_len as usize).min(MESSAGE);
                if peer < self.links.len() && wc.conn != 0 {
                    let bytes = self.recv.slice(slot, len);
                    if wc.opcode == abi::WC_RECV_WRITE_IMM {
                        // A write's notice (its bytes went to memory, not to this slot).
                        sink(RailEvent::Notified { peer, imm: wc.imm });
                        n = 1;
                    } else if wc.has_imm != 0 {
                        sink(RailEvent::Message {
                            peer,
                            imm: wc.imm,
                            bytes,
                        });
                        n = 1;
                    } else if bytes.first() == Some(&CTRL_BYE) {
                        self.links[peer].bye = true;
                    } else if bytes.first() == Some(&CTRL_PROBE) {
                        // Sent only for its completion at the other end (`watchdog`).
                    } else if self.imm_in_payload
                        && bytes.first() == Some(&CTRL_MSG)
                        && len >= IMM_HEAD
                    {
                        sink(RailEvent::Message {
                            peer,
                            imm: u32::from_le_bytes(bytes[1..IMM_HEAD].try_into().unwrap()),
                            bytes: &bytes[IMM_HEAD..],
                        });
                        n = 1;
                    } else {
                        tracing::warn!(peer, len, "verbs: a message of no known kind dropped");
                    }
                } else {
                    tracing::warn!(
                        conn = wc.conn,
                        len,
                        "verbs: a message from no known connection dropped"
                    );
                }
            } else {
                tracing::debug!(
                    status = wc.status,
                    "verbs: a receive completed with an error"
                );
            }
            // A flushed receive (the context closing) is not posted again.
            if wc.status == 0 {
                if let Err(e) = self.post_recv(slot) {
                    super::fatal(&e);
                }
            }
            return n;
        }
        let Some((peer, seq)) = self
            .wrs
            .get_seq(wc.wr_id)
            .filter(|(w, _)| w.posted_on == Some(wc.conn))
            .map(|(w, seq)| (w.peer, seq))
        else {
            // Gone, or taken back from a connection given up.
            tracing::debug!(
                wr = wc.wr_id,
                conn = wc.conn,
                status = wc.status,
                posted_on = ?self.wrs.get(wc.wr_id).map(|w| w.posted_on),
                "verbs: a late completion ignored"
            );
            return 0;
        };
        if wc.status == 5 || (self.refusal_drops && wc.status == 2) {
            // Flushed, or (iWARP) cut off as the peer dropped the connection: everything it
            // held goes again on the next one, in order (a dial that fails tells a lost
            // peer; a request the peer refuses each time fails at its MAX_DROPS-th).
            self.requeue(wc.conn);
            if self.links[peer].cookie == Some(wc.conn) {
                self.drop_connection(peer);
            }
            self.flush_backlog(peer);
            return 0;
        }
        // The unsignalled messages posted before this request are done too: sends and writes
        // complete in posting order (only a read may complete after later requests, on siw).
        if !self.links[peer].unsignaled.is_empty() {
            self.retire_unsignaled(peer, wc.wr_id, seq);
        }
        let what = self.take(wc.wr_id).expect("looked up above");
        let link = &mut self.links[peer];
        link.outstanding = link.outstanding.saturating_sub(1);
        link.watch.completed();
        let mut n = 0;
        match wc.status {
            // Handed up at once (not through `made`): the latency path.
            0 => {
                if let Some(c) = self.complete(what, Ok(0)) {
                    sink(RailEvent::Completion(c));
                    n = 1;
                }
            }
            // The path failed, not the request: retries exceeded (the peer does not
            // answer), or the adapter could not send at all (Soft-RoCE completes with a
            // local QP operation error once its network device is down), or any other
            // transport error. Another rail to the peer may carry on.
            status if !request_fault(status) => {
                let why = format!("no answer ({})", module::status_text(self.m, status));
                self.finish(what, Err(RailError::Lost(peer)));
                self.drop_connection(peer);
                self.link_failed(peer, why);
            }
            status => {
                // The adapter refused this request (a bad key, bounds, rights): it fails,
                // and the connection, now in error, is replaced.
                let text = module::status_text(self.m, status);
                let err = if status == 10 || status == 9 {
                    RailError::Key(KeyError::Unknown)
                } else {
                    RailError::Access(std::io::Error::other(format!(
                        "verbs: {text} (vendor error {:#x})",
                        wc.vendor_err
                    )))
                };
                tracing::warn!(peer, "verbs: a request failed: {text}");
                self.finish(what, Err(err));
                self.drop_connection(peer);
            }
        }
        self.flush_backlog(peer);
        n
    }

    /// The unsignalled requests to `peer` posted before request `upto` (made `last`: its
    /// `seq`) completed (and `upto` itself, if it was one: it completes on its own now,
    /// with an error).
    fn retire_unsignaled(&mut self, peer: usize, upto: u64, last: u64) {
        while let Some(&id) = self.links[peer].unsignaled.front() {
            if self.wrs.seq(id).is_some_and(|s| s > last) {
                break;
            }
            self.links[peer].unsignaled.pop_front();
            if id == upto {
                break;
            }
            if let Some(what) = self.take(id) {
                let link = &mut self.links[peer];
                link.outstanding = link.outstanding.saturating_sub(1);
                self.finish(what, Ok(0));
            }
        }
    }

    /// Forget the connection to `peer` (its queue pair failed); requests it still holds
    /// come back flushed and go again on a new one.
    fn drop_connection(&mut self, peer: usize) {
        if let Some(c) = self.links[peer].cookie.take() {
            self.conns.on_closed(c);
            // SAFETY: a cookie of this context.
            unsafe { (self.m.ops.disconnect)(self.ctx, c) };
            self.requeue(c);
        }
    }

    /// Take back every request handed to connection `cookie` (given up): they wait, in
    /// their order and ahead of what waited already, for the next connection. Not every
    /// adapter flushes what a failed queue pair held (siw completes nothing posted to it),
    /// so the rail does not wait for flushes; late completions from it are ignored.
    /// Read `t` (its local spans, `r` its one remote span of the same length) into a send
    /// slot, copied out at its completion (`WrKind::BounceRead`); false, having done
    /// nothing, when it is too long for one (`RailCaps::read_bounce`) or would take more
    /// than half the slots (messages need the rest): then a region is made for it.
    fn bounce_read(&mut self, t: &Transfer<'_>, r: Span, rkey: u32) -> bool {
        if r.len > self.caps.read_bounce as u64 || self.send.available() <= self.send.count / 2 {
            return false;
        }
        let Some(slot) = self.send.take() else {
            return false;
        };
        let into = t.local.iter().filter(|s| s.len > 0).copied().collect();
        let what = WrKind::BounceRead {
            token: t.token,
            slot,
            into,
        };
        let sges = Sges::one(self.send.sge(slot, r.len as usize));
        let wr = Wr::rdma(t.peer, what, abi::OP_READ, 0, sges, r.addr, rkey);
        let id = self.new_wr(wr);
        self.enqueue(id, t.defer);
        true
    }

    /// Write transfer `token` ends with the next fence on `peer`'s connection (its last
    /// byte `at`, under `rkey`): one fence for every write posted before it (`post_fences`,
    /// when the rail next polls or sleeps), not one each — a fence costs a round trip.
    fn fence_later(&mut self, peer: usize, token: u64, at: u64, rkey: u32) {
        let link = &mut self.links[peer];
        if link.unfenced.is_empty() {
            self.fence_peers.push(peer);
        }
        link.unfenced.push(token);
        link.fence_at = (at, rkey);
    }

    /// Queue one fence behind each link's unfenced writes: a one-byte read into the
    /// reserved atomics slot, which the target answers only after placing every write
    /// before it on the connection (held writes went first: `flush_deferred`).
    fn post_fences(&mut self) {
        let slot = self.write_fence.expect("a rail that fences its writes");
        for peer in std::mem::take(&mut self.fence_peers) {
            let tokens = std::mem::take(&mut self.links[peer].unfenced);
            if self.links[peer].lost {
                for token in tokens {
                    if let Some(c) = self.piece_done(token, Err(RailError::Lost(peer))) {
                        self.made.push_back(Made::Done(c));
                    }
                }
                continue;
            }
            let (at, rkey) = self.links[peer].fence_at;
            let sges = Sges::one(self.atomics.sge(slot, 1));
            let what = WrKind::Fence { tokens };
            let wr = Wr::rdma(peer, what, abi::OP_READ, 0, sges, at, rkey);
            let id = self.new_wr(wr);
            self.submit(id);
        }
    }

    fn requeue(&mut self, cookie: u64) {
        let peer = connect::peer_of(cookie);
        // In the order they were made (their posting order on the connection).
        let mut taken: Vec<(u64, u64)> = self
            .wrs
            .iter()
            .filter(|(_, _, w)| w.posted_on == Some(cookie))
            .map(|(id, seq, _)| (seq, id))
            .collect();
        if taken.is_empty() {
            return;
        }
        taken.sort_unstable();
        let link = &mut self.links[peer];
        link.outstanding = link.outstanding.saturating_sub(taken.len() as u32);
        // A one-sided request the peer kept dropping connections over (iWARP's answer to a
        // bad key or range) fails instead of going round for ever; messages name no remote
        // memory and cannot be refused so.
        let (refused, taken): (Vec<u64>, Vec<u64>) =
            taken.into_iter().map(|(_, id)| id).partition(|&id| {
                let wr = self.wrs.get_mut(id).expect("listed above");
                wr.posted_on = None;
                wr.drops = wr.drops.saturating_add(1);
                wr.drops >= MAX_DROPS && !matches!(wr.what, WrKind::Send { .. })
            });
        // The taken ones (refused or not) are posted nowhere now: none is unsignalled on
        // the connection.
        let wrs = &self.wrs;
        self.links[peer]
            .unsignaled
            .retain(|&id| wrs.get(id).is_some_and(|w| w.posted_on.is_some()));
        for id in refused {
            let wr = self.wrs.remove(id).expect("listed above");
            let why = format!(
                "verbs: rank {peer} dropped the connection each of the {MAX_DROPS} times a \
                 request was posted (how iWARP refuses a remote access)"
            );
            tracing::warn!("{why}");
            self.finish(wr.what, Err(RailError::Access(std::io::Error::other(why))));
        }
        let link = &mut self.links[peer];
        let rest: Vec<u64> = link.backlog.drain(..).collect();
        link.backlog.extend(taken);
        link.backlog.extend(rest);
    }

    fn local_sges(
        &self,
        local: &[Span],
        lkey: Option<u64>,
    ) -> Result<(Vec<abi::Sge>, Vec<u64>), RailError> {
        let mut sges = Vec::with_capacity(local.len());
        let mut temp = Vec::new();
        // The registration the transfer names (its local key is 0 when our domain did not
        // make it, e.g. a registry of another rail's domain alone).
        let given = lkey.filter(|&k| k != 0).map(|k| k as u32);
        for s in local.iter().filter(|s| s.len > 0) {
            let mut at = s.addr;
            let end = s.addr + s.len;
            while at < end {
                let n = (end - at).min(MAX_SGE_BYTES);
                // Without a key, a region for this transfer alone. Looking up a region of
                // the layers above by address is not safe: the registry learns of unmapped
                // memory only when it next drains its invalidation events, so a region
                // found by address may still hold the pages the address had before (seen
                // as wrong data under userfaultfd invalidation); the key the transfer
                // carries is the registration its owner holds for it.
                let lkey = if let Some(k) = given {
                    k
                } else {
                    let page = crate::sys::vmem::page_size() as u64;
                    let start = at & !(page - 1);
                    let stop = (at + n).next_multiple_of(page);
                    let mr = self
                        .domain
                        .register_raw(start, stop - start)
                        .map_err(RailError::Access)?;
                    temp.push(mr.handle);
                    mr.lkey
                };
                sges.push(abi::Sge {
                    addr: at,
                    len: n as u32,
                    lkey,
                });
                at += n;
            }
        }
        Ok((sges, temp))
    }
}

/// Work requests up to this size are checked for soft-iWARP's page fault
/// (`VerbsRail::small_page_quirk`; its limit is 32 bytes).
const QUIRK_BYTES: u64 = 64;

/// Whether `len` bytes at `addr` cross a 4 KiB boundary (every page size is a multiple).
fn crosses_page(addr: u64, len: u64) -> bool {
    len > 0 && addr / 4096 != (addr + len - 1) / 4096
}

/// `pieces` (remote address, local entries) with each piece soft-iWARP would send wrongly
/// — up to `QUIRK_BYTES`, its sent side (a read's remote range; a write's one local entry)
/// across a page — cut in two at that page.
fn page_safe(op: RdmaOp, pieces: Vec<(u64, Vec<abi::Sge>)>) -> Vec<(u64, Vec<abi::Sge>)> {
    let mut out = Vec::with_capacity(pieces.len());
    for (raddr, list) in pieces {
        let bytes: u64 = list.iter().map(|s| u64::from(s.len)).sum();
        let sent_from = match (op, list.as_slice()) {
            (RdmaOp::Read, _) => Some(raddr),
            (RdmaOp::Write, [one]) => Some(one.addr),
            _ => None,
        };
        let Some(at) = sent_from.filter(|&a| bytes <= QUIRK_BYTES && crosses_page(a, bytes)) else {
            out.push((raddr, list));
            continue;
        };
        let cut = 4096 - at % 4096;
        let (mut first, mut second, mut seen) = (Vec::new(), Vec::new(), 0u64);
        for s in list {
            let len = u64::from(s.len);
            if seen + len <= cut {
                first.push(s);
            } else if seen >= cut {
                second.push(s);
            } else {
                let head = (cut - seen) as u32;
                first.push(abi::Sge { len: head, ..s });
                second.push(abi::Sge {
                    addr: s.addr + u64::from(head),
                    len: s.len - head,
                    ..s
                });
            }
            seen += len;
        }
        out.push((raddr, first));
        out.push((raddr + cut, second));
    }
    out
}

/// Refused connection requests are logged, at most a few lines per interval.
fn warn_refusal(why: &str) {
    use crate::ratelimit::{suppressed_note, RateLimit};
    static LIMIT: parking_lot::Mutex<RateLimit> =
        parking_lot::Mutex::new(RateLimit::new(8, Duration::from_secs(10)));
    if let Some(n) = LIMIT.lock().allow(Instant::now()) {
        tracing::warn!("verbs: refused {why}{}", suppressed_note(n));
    }
}

impl Rail for VerbsRail {
    fn caps(&self) -> &RailCaps {
        &self.caps
    }

    fn peers(&self) -> usize {
        self.links.len()
    }

    fn memory(&self) -> Arc<dyn MemoryDomain> {
        self.domain.clone()
    }

    fn wait_handle(&self) -> Doorbell {
        self.wait
    }

    fn try_send(&mut self, peer: usize, imm: u32, parts: &[&[u8]]) -> bool {
        let flags = if self.solicited_imms != 0 && imm < 32 && self.solicited_imms & (1 << imm) != 0
        {
            abi::FLAG_SOLICITED
        } else {
            0
        };
        if self.imm_in_payload {
            // iWARP has no immediate data: the word leads the payload, after a kind byte.
            let head = [
                CTRL_MSG,
                imm as u8,
                (imm >> 8) as u8,
                (imm >> 16) as u8,
                (imm >> 24) as u8,
            ];
            let mut all: Vec<&[u8]> = Vec::with_capacity(parts.len() + 1);
            all.push(&head);
            all.extend_from_slice(parts);
            return self.send_message(peer, abi::OP_SEND, 0, &all, flags);
        }
        self.send_message(peer, abi::OP_SEND_IMM, imm, parts, flags)
    }
    fn poll(&mut self, sink: &mut dyn FnMut(RailEvent<'_>)) -> usize {
        self.flush_held();
        self.drain_cm();
        let mut n = 0;
        loop {
            let mut count = 0usize;
            let mut wcs = std::mem::take(&mut self.wcs);
            // SAFETY: an open context; `wcs` has room for its length.
            let rc =
                unsafe { (self.m.ops.poll)(self.ctx, wcs.as_mut_ptr(), wcs.len(), &mut count) };
            if rc != 0 {
                self.wcs = wcs;
                break;
            }
            for wc in &wcs[..count.min(wcs.len())] {
                n += self.on_wc(wc, sink);
            }
            let full = count == wcs.len();
            self.wcs = wcs;
            if !full {
                break;
            }
        }
        self.polls = self.polls.wrapping_add(1);
        if self.polls.is_multiple_of(WATCH_EVERY) {
            self.watchdog();
        }
        // Peers whose dial waits for a retry (rarely any: reading the clock on every poll
        // is a system call where the clock source is not the TSC, e.g. in a TCG guest).
        if self.redials > 0 {
            let now = Instant::now();
            for peer in 0..self.links.len() {
                let l = &self.links[peer];
                if l.redial_at.is_some_and(|t| now >= t) && !l.backlog.is_empty() {
                    self.want(peer);
                }
            }
        }
        // The service rail is polled from here while an atomic of ours waits for its
        // answer, and otherwise only every `SERVICE_EVERY` polls (to apply peers' atomics
        // before the helper, whom the service rail's completion channel wakes, gets to
        // them): polling it on every poll was 7 % of a put and its flush, in instructions.
        if let Some(proxy) = &self.atomic_proxy {
            if proxy.owes() || self.polls.is_multiple_of(SERVICE_EVERY) {
                n += proxy.take_atomics(&mut |c| sink(RailEvent::Completion(c)));
            }
        }
        while let Some(m) = self.made.pop_front() {
            n += 1;
            match m {
                Made::Done(c) => sink(RailEvent::Completion(c)),
                Made::Lost { peer, why } => sink(RailEvent::Lost {
                    peer,
                    why,
                    unreachable: true,
                }),
            }
        }
        n
    }

    fn arm(&mut self) {
        // Nothing may wait in the rail while its rank sleeps.
        self.flush_held();
        // A rank that sleeps while one of its atomics waits for its answer wants the
        // service rail's events too.
        if let Some(proxy) = &self.atomic_proxy {
            if proxy.owes() {
                crate::fabric::Service::arm(&**proxy);
            }
        }
        self.arm_events(false);
    }

    fn has_completions(&self) -> bool {
        !self.made.is_empty()
            || self
                .atomic_proxy
                .as_ref()
                .is_some_and(|p| p.atomics_waiting())
    }

    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError> {
        let Transfer {
            op,
            peer,
            local,
            remote,
            token,
            ..
        } = *t;
        if peer >= self.links.len() {
            return Err(RailError::NoSuchPeer(peer));
        }
        if self.links[peer].lost {
            return Err(RailError::Lost(peer));
        }
        let rkey = rkey_of(t.rkey(self.caps.slot)).ok_or(RailError::Key(KeyError::Unknown))?;
        // A small write to one remote span goes inline: the adapter copies the bytes into
        // the descriptor, so no local key is needed (nor a region made for one).
        let total: u64 = local.iter().map(|s| s.len).sum();
        // The one remote span with bytes, if there is exactly one; `whole` when it is as
        // long as the local side (one work request may then cover the transfer).
        let one_span = {
            let mut spans = remote.iter().filter(|r| r.len > 0);
            match (spans.next(), spans.next()) {
                (Some(r), None) => Some(*r),
                _ => None,
            }
        };
        // A transfer soft-iWARP would send wrongly goes the cutting way (`page_safe`).
        let whole = one_span.filter(|r| {
            r.len == total
                && !(self.small_page_quirk
                    && op == RdmaOp::Read
                    && r.len <= QUIRK_BYTES
                    && crosses_page(r.addr, r.len))
        });
        let inline = op == RdmaOp::Write
            && total > 0
            && total <= self.caps.max_inline as u64
            && local.len() <= self.caps.max_sge
            && one_span.is_some();
        // A small read without a local key lands in a send slot: no region is made for it.
        if let Some(r) = whole.filter(|_| op == RdmaOp::Read && t.notify.is_none()) {
            if t.lkey(self.caps.slot).is_none_or(|k| k == 0) && self.bounce_read(t, r, rkey) {
                return Ok(());
            }
        }
        let (mut sges, temp) = if inline {
            let sges = local
                .iter()
                .filter(|s| s.len > 0)
                .map(|s| abi::Sge {
                    addr: s.addr,
                    len: s.len as u32,
                    lkey: 0,
                })
                .collect();
            (sges, Vec::new())
        } else {
            let (sges, temp) = self.local_sges(local, t.lkey(self.caps.slot))?;
            (Sges::from(sges), temp)
        };
        // Reads take fewer entries on some adapters (siw: one).
        let max_sge = match op {
            RdmaOp::Read => self.max_sge_rd,
            RdmaOp::Write => self.caps.max_sge,
        }
        .max(1);
        let opcode = match op {
            RdmaOp::Read => abi::OP_READ,
            RdmaOp::Write => abi::OP_WRITE,
        };
        if t.notify.is_some() && (op != RdmaOp::Write || !self.caps.write_notify) {
            return Err(RailError::Unsupported("a notice on a read, or on iWARP"));
        }
        // The notice rides on the last work request as its immediate word: the peer's
        // receive completion for it comes after every byte of the transfer (one
        // connection's requests are placed in order).
        let with_notice = |mut wr: Wr| {
            if let Some(imm) = t.notify {
                wr.opcode = abi::OP_WRITE_IMM;
                wr.imm = imm;
            }
            wr
        };
        let flags = if inline { abi::FLAG_INLINE } else { 0 };
        // Where a write's fence reads (`write_fence`): its last byte.
        let fence_at = match (op, self.write_fence) {
            (RdmaOp::Write, Some(_)) => remote
                .iter()
                .rev()
                .find(|r| r.len > 0)
                .map(|r| r.addr + (r.len - 1)),
            _ => None,
        };
        // The common case, one remote span that one work request covers: the local entries
        // go as they are (no cutting, no per-transfer bookkeeping but a fence's).
        let one_sge_crosses = || {
            self.small_page_quirk
                && !inline
                && sges.len() == 1
                && total <= QUIRK_BYTES
                && crosses_page(sges.as_slice()[0].addr, total)
        };
        if let Some(r) = whole.filter(|_| !one_sge_crosses()) {
            if total <= MAX_WR_BYTES && !sges.is_empty() && sges.len() <= max_sge {
                let whole = WrKind::Transfer {
                    token,
                    temp,
                    whole: fence_at.is_none(),
                };
                let wr = Wr::rdma(peer, whole, opcode, flags, sges, r.addr, rkey);
                let id = self.new_wr(with_notice(wr));
                let defer = t.defer && total <= DEFER_MAX;
                if fence_at.is_some() {
                    let fenced = Pending {
                        left: 2,
                        error: None,
                    };
                    self.pending.insert(token, fenced);
                }
                self.enqueue(id, defer);
                if let Some(at) = fence_at {
                    self.fence_later(peer, token, at, rkey);
                }
                return Ok(());
            }
        }
        // Else one work request per remote span (and per `max_sge` local entries): cut the
        // local entries along the remote spans.
        let mut pieces: Vec<(u64, Vec<abi::Sge>)> = Vec::new();
        let mut li = 0usize;
        for r in remote.iter().filter(|r| r.len > 0) {
            let (mut raddr, mut left) = (r.addr, r.len);
            while left > 0 {
                let mut list = Vec::new();
                let mut bytes = 0u64;
                while left > bytes && list.len() < max_sge && bytes < MAX_WR_BYTES {
                    let Some(s) = sges.as_mut_slice().get_mut(li) else {
                        return Err(RailError::Unsupported("local and remote lengths differ"));
                    };
                    let take = (s.len as u64).min(left - bytes).min(MAX_WR_BYTES - bytes);
                    list.push(abi::Sge {
                        addr: s.addr,
                        len: take as u32,
                        lkey: s.lkey,
                    });
                    bytes += take;
                    s.addr += take;
                    s.len -= take as u32;
                    if s.len == 0 {
                        li += 1;
                    }
                }
                pieces.push((raddr, list));
                raddr += bytes;
                left -= bytes;
            }
        }
        if self.small_page_quirk && !inline {
            pieces = page_safe(op, pieces);
        }
        if pieces.is_empty() && t.notify.is_some() {
            // Nothing to write, but the notice must go: a write of no bytes carries it.
            pieces.push((remote.first().map_or(0, |r| r.addr), Vec::new()));
        }
        if pieces.is_empty() {
            for h in temp {
                self.domain.deregister_raw(h);
            }
            self.made.push_back(Made::Done(Completion {
                token,
                result: Ok(0),
            }));
            return Ok(());
        }
        self.pending.insert(
            token,
            Pending {
                left: pieces.len() as u32 + u32::from(fence_at.is_some()),
                error: None,
            },
        );
        let last = pieces.len() - 1;
        let mut temp = Some(temp);
        for (i, (raddr, list)) in pieces.into_iter().enumerate() {
            // The temporary regions go with the last piece (completions come in order).
            let piece = WrKind::Transfer {
                token,
                temp: if i == last {
                    temp.take().unwrap()
                } else {
                    Vec::new()
                },
                whole: false,
            };
            let wr = Wr::rdma(peer, piece, opcode, flags, list.into(), raddr, rkey);
            let id = self.new_wr(if i == last { with_notice(wr) } else { wr });
            self.submit(id);
        }
        if let Some(at) = fence_at {
            self.fence_later(peer, token, at, rkey);
        }
        Ok(())
    }

    fn last_link(&mut self, peer: usize) {
        if let Some(l) = self.links.get_mut(peer) {
            l.last = true;
        }
    }

    fn post_atomic(
        &mut self,
        peer: usize,
        op: AtomicOp,
        remote: u64,
        rkey: RemoteKey,
        token: u64,
    ) -> Result<(), RailError> {
        if peer >= self.links.len() {
            return Err(RailError::NoSuchPeer(peer));
        }
        if !remote.is_multiple_of(8) {
            return Err(RailError::Unsupported("an atomic on an unaligned word"));
        }
        // Jobs install the software proxy (`fabric::open`): the adapter's atomics are not
        // coherent with the owner's CPU atomics on the same words. The adapter's own are
        // for a rail used alone (the module's tests), and for adapters that will report
        // IBV_ATOMIC_GLOB.
        if let Some(proxy) = &self.atomic_proxy {
            return proxy.request_atomic(peer, op, remote, rkey, token);
        }
        if !self.caps.atomics {
            return Err(RailError::Unsupported("remote atomics"));
        }
        if self.links[peer].lost {
            return Err(RailError::Lost(peer));
        }
        let rkey = rkey_of(rkey).ok_or(RailError::Key(KeyError::Unknown))?;
        let Some(slot) = self.atomics.take() else {
            return Err(RailError::Unsupported("more atomics in flight"));
        };
        let (opcode, compare_add, swap) = match op {
            AtomicOp::FetchAdd(v) => (abi::OP_FETCH_ADD, v, 0),
            AtomicOp::CompareSwap { compare, swap } => (abi::OP_CMP_SWAP, compare, swap),
        };
        self.pending.insert(
            token,
            Pending {
                left: 1,
                error: None,
            },
        );
        let id = self.new_wr(Wr {
            peer,
            posted_on: None,
            drops: 0,
            what: WrKind::Atomic { token, slot },
            opcode,
            flags: 0,
            sges: Sges::one(self.atomics.sge(slot, 8)),
            imm: 0,
            remote_addr: remote,
            rkey,
            compare_add,
            swap,
        });
        self.submit(id);
        Ok(())
    }

    fn close(&mut self) {
        self.flush_held();
        if self.waker.is_none() {
            return;
        }
        // Goodbye on every connection, then wait (bounded) for every peer's, so that no
        // peer takes our leaving for a failure.
        self.leaving();
        for peer in 0..self.links.len() {
            if self.links[peer].cookie.is_some() {
                let _ = self.send_control(peer, CTRL_BYE);
            }
        }
        let deadline = Instant::now() + CLOSE_WAIT;
        while Instant::now() < deadline {
            // Only connections count: nothing is dialed while closing.
            let waiting = self.links.iter().any(|l| {
                l.cookie.is_some() && (!l.bye || l.outstanding > 0 || !l.backlog.is_empty())
            });
            if !waiting {
                break;
            }
            self.poll(&mut |_| {});
            std::thread::sleep(Duration::from_micros(200));
        }
        self.stop_waker();
        for pool in [&mut self.recv, &mut self.send, &mut self.atomics] {
            pool.release(&self.domain);
        }
        // Registrations the layers above still hold are dropped with the context; the
        // domain refuses every later call.
        self.domain.close();
        // SAFETY: the waker thread has stopped and the domain refuses further calls; the
        // context is closed once.
        unsafe { (self.m.ops.close)(self.ctx) };
    }
}

impl VerbsRail {
    /// From now on nothing is dialed and a lost link is no error (`close`, or a service
    /// rail whose process is leaving: `Service::leaving`).
    pub fn leaving(&mut self) {
        self.closing = true;
    }

    /// A message (`opcode`: send, with or without the immediate word).
    /// A message of `parts` (`flags`: `FLAG_SOLICITED` or 0).
    fn send_message(
        &mut self,
        peer: usize,
        opcode: u32,
        imm: u32,
        parts: &[&[u8]],
        flags: u32,
    ) -> bool {
        let total: usize = parts.iter().map(|p| p.len()).sum();
        assert!(
            total <= MESSAGE,
            "message larger than the rail's max_message"
        );
        if peer >= self.links.len() || self.links[peer].lost {
            return false;
        }
        if self.links[peer].backlog.len() >= self.sq_depth as usize * 4 {
            // Back-pressure: the connection is not up yet or its queue is full.
            if self.links[peer].cookie.is_none() {
                self.want(peer);
            }
            return false;
        }
        let inline = total <= self.caps.max_inline
            && parts.len() <= self.caps.max_sge
            && self.links[peer].cookie.is_some()
            && self.links[peer].backlog.is_empty()
            && self.links[peer].outstanding < self.sq_depth;
        if !inline {
            return self.send_copied(peer, opcode, imm, parts, total, flags);
        }
        // Copied into the descriptor by the post below (the parts are only borrowed).
        let sges = parts
            .iter()
            .filter(|p| !p.is_empty())
            .map(|p| abi::Sge {
                addr: p.as_ptr() as u64,
                len: p.len() as u32,
                lkey: 0,
            })
            .collect();
        let inline = abi::FLAG_INLINE | flags;
        let id = self.new_wr(send_wr(peer, None, opcode, inline, sges, imm));
        if self.post_now(id) {
            return true;
        }
        // No room after all: the parts must be copied to wait.
        self.wrs.remove(id);
        self.send_copied(peer, opcode, imm, parts, total, flags)
    }

    /// A message copied into a registered bounce buffer, so that it may wait in the
    /// backlog; false when no buffer is free.
    fn send_copied(
        &mut self,
        peer: usize,
        opcode: u32,
        imm: u32,
        parts: &[&[u8]],
        total: usize,
        flags: u32,
    ) -> bool {
        let Some(slot) = self.send.take() else {
            return false;
        };
        let buf = self.send.slice_mut(slot);
        let mut at = 0;
        for p in parts {
            buf[at..at + p.len()].copy_from_slice(p);
            at += p.len();
        }
        let sge = self.send.sge(slot, total);
        let id = self.new_wr(send_wr(
            peer,
            Some(slot),
            opcode,
            flags,
            Sges::one(sge),
            imm,
        ));
        self.submit(id);
        true
    }

    /// A rail control message (no immediate word: never handed up).
    fn send_control(&mut self, peer: usize, kind: u8) -> bool {
        self.send_copied(peer, abi::OP_SEND, 0, &[&[kind]], 1, 0)
    }
}

/// Whether a completion status (`ibv_wc_status`) blames the request — its keys, bounds or
/// rights at either end (local length, protection and access errors; the remote's invalid
/// request and access errors) — rather than the path to the peer.
fn request_fault(status: u32) -> bool {
    matches!(status, 1 | 4 | 8 | 9 | 10 | 15)
}

/// The work request of a message: from bounce buffer `slot` (None: inline) with `sges`.
fn send_wr(peer: usize, slot: Option<u32>, opcode: u32, flags: u32, sges: Sges, imm: u32) -> Wr {
    Wr {
        imm,
        ..Wr::rdma(peer, WrKind::Send { slot }, opcode, flags, sges, 0, 0)
    }
}

impl VerbsRail {
    /// Every `WATCH_EVERY` polls: find links that hold requests and completed none for a
    /// while, or whose requests wait for a connection that is not made (`watchdog.rs`).
    fn watchdog(&mut self) {
        let now = Instant::now();
        for peer in 0..self.links.len() {
            let l = &mut self.links[peer];
            let connected = l.cookie.is_some();
            let held = if connected {
                l.outstanding > 0
            } else {
                !l.backlog.is_empty()
            };
            let holding = Holding {
                requests: held && !l.lost,
                connected,
                only_unsignaled: l.outstanding as usize == l.unsignaled.len(),
                give_up_after: (self.survive_loss && !l.last).then_some(self.give_up_after),
            };
            let (quiet, tell, give_up) = match l.watch.look(now, holding) {
                Verdict::Fine => continue,
                Verdict::Probe => {
                    // Unsignalled messages complete with a later signalled request.
                    let _ = self.send_control(peer, CTRL_PROBE);
                    continue;
                }
                Verdict::Stalled {
                    quiet,
                    tell,
                    give_up,
                } => (quiet.as_secs(), tell, give_up),
            };
            if tell && connected {
                tracing::warn!(
                    "verbs {}: rank {peer}: no completion for {quiet} s with {} requests \
                     outstanding ({} waiting)",
                    self.port,
                    l.outstanding,
                    l.backlog.len(),
                );
            } else if tell {
                tracing::warn!(
                    "verbs {}: rank {peer}: no connection for {quiet} s with {} requests waiting",
                    self.port,
                    l.backlog.len(),
                );
            }
            if give_up {
                let why = if connected {
                    format!("no completion for {quiet} s")
                } else {
                    format!("no connection after {quiet} s")
                };
                self.drop_connection(peer);
                self.link_failed(peer, why);
            }
        }
    }
}

/// The descriptor that posts `wr` as request `id` (signalled unless `quiet`).
fn desc_of(id: u64, wr: &Wr, quiet: bool) -> abi::Desc {
    abi::Desc {
        wr_id: id,
        opcode: wr.opcode,
        flags: wr.flags | if quiet { 0 } else { abi::FLAG_SIGNALED },
        sge: wr.sges.as_slice().as_ptr(),
        num_sge: wr.sges.len() as u32,
        imm: wr.imm,
        remote_addr: wr.remote_addr,
        rkey: wr.rkey,
        _pad: 0,
        compare_add: wr.compare_add,
        swap: wr.swap,
    }
}

/// How long a quiet link waits before the watchdog gives it up: twice the adapter's own
/// budget (every try timed out), and never less than `TELL_AFTER`.
fn give_up_after(s: &VerbsSettings) -> Duration {
    let per_try = Duration::from_nanos(4096u64 << s.timeout.min(31));
    (per_try * (u32::from(s.retry_count) + 1) * 2).max(TELL_AFTER)
}

impl Drop for VerbsRail {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sge(addr: u64, len: u32) -> abi::Sge {
        abi::Sge { addr, len, lkey: 7 }
    }

    #[test]
    fn small_requests_across_a_page_are_cut_there_and_others_kept() {
        // A 12-byte read whose remote range crosses at 4 bytes, into two local entries.
        let cut = page_safe(RdmaOp::Read, vec![(4092, vec![sge(100, 8), sge(200, 4)])]);
        assert_eq!(cut.len(), 2);
        assert_eq!(cut[0].0, 4092);
        assert_eq!(
            cut[0].1.iter().map(|s| (s.addr, s.len)).collect::<Vec<_>>(),
            [(100, 4)]
        );
        assert_eq!(cut[1].0, 4096);
        assert_eq!(
            cut[1].1.iter().map(|s| (s.addr, s.len)).collect::<Vec<_>>(),
            [(104, 4), (200, 4)]
        );
        assert!(cut.iter().flat_map(|p| &p.1).all(|s| s.lkey == 7));
        // A write is cut where its one local entry crosses (the remote side follows).
        let cut = page_safe(RdmaOp::Write, vec![(5000, vec![sge(8190, 16)])]);
        let got: Vec<_> = cut
            .iter()
            .map(|(r, l)| (*r, l.iter().map(|s| (s.addr, s.len)).collect::<Vec<_>>()))
            .collect();
        assert_eq!(got, [(5000, vec![(8190, 2)]), (5002, vec![(8192, 14)])]);
        // Kept: within a page; larger than the fault's reach; a write of two entries.
        for (op, piece) in [
            (RdmaOp::Read, (4000, vec![sge(0, 96)])),
            (RdmaOp::Read, (4090, vec![sge(0, 65)])),
            (RdmaOp::Write, (0, vec![sge(4090, 4), sge(4094, 4)])),
        ] {
            assert_eq!(page_safe(op, vec![piece.clone()]).len(), 1);
        }
        assert!(!crosses_page(4095, 1) && crosses_page(4095, 2) && !crosses_page(0, 0));
    }
}
