//! One context: a device port's protection domain, completion queue (with its channel),
//! shared receive queue, rdma_cm event channel and listener, and the connections made on
//! them.
//!
//! The protection domain is reference-counted: a context opened with `share_pd` holds the
//! owner's, so the queue pairs of both are in one domain and every region's keys work on
//! all of them. The domain is deallocated with the last context that holds it, whatever
//! the order of the closes (each context's regions, queue pairs and shared receive queue
//! are gone by then: `ibv_dealloc_pd` of a domain still in use would fail with EBUSY).
//!
//! Connections live in a table keyed by an internal tag, which is also what the rdma_cm
//! id's `context` holds, so every cm event finds its connection; a request's tag is the
//! handle `CM_REQUEST` hands out. The caller's cookie names a connection from `connect` or
//! `accept` on, and the queue pair number maps back to it for completions.
//!
//! Tearing a connection down moves its queue pair to error (every outstanding request
//! flushes) and waits for two things before destroying it: the rdma_cm DISCONNECTED event,
//! and the completion of every signaled request (destroying a queue pair earlier would let
//! some providers, mlx5 for one, drop the flush completions the caller counts on). A drain
//! marker posted after the error transition would be simpler, but siw never completes
//! requests posted to a user queue pair in error, so the send queue accounting (which
//! `post` keeps anyway, for ENOMEM) tells when the queue is drained.

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::ffi::{c_char, c_void};
use std::mem;
use std::ptr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rdma_sys::*;

use crate::abi::*;
use crate::query::{self, DevCaps};
use crate::slab::Slab;
use crate::util::*;

/// `RDMA_OPTION_ID` / `RDMA_OPTION_ID_ACK_TIMEOUT` (anonymous enums in rdma_cma.h).
const RDMA_OPTION_ID: i32 = 0;
const RDMA_OPTION_ID_ACK_TIMEOUT: i32 = 3;

/// Address and route resolution timeout.
const RESOLVE_MS: i32 = 2000;
/// Our cap on the RDMA read / atomic depths negotiated per connection (initiator depth
/// and responder resources), below the device's max_qp_rd_atom.
const MAX_RD_ATOM: u32 = 16;
/// Give up waiting for the flushes and DISCONNECTED this long after the disconnect (a
/// provider that never flushes, or a peer that never answers, must not keep the queue pair
/// forever).
const DRAIN_GRACE: Duration = Duration::from_secs(5);
/// Completions polled from the device per `ibv_poll_cq` call.
const POLL_BATCH: usize = 32;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Active: rdma_resolve_addr issued.
    Resolving,
    /// Active: rdma_resolve_route issued.
    Routing,
    /// Active: rdma_connect issued.
    Connecting,
    /// Passive: a CONNECT_REQUEST handed out as a handle, not yet accepted or rejected.
    Requested,
    /// Passive: rdma_accept issued.
    Accepting,
    Established,
    /// Going down: waiting for DISCONNECTED and the flushes; no more caller events.
    Closing,
}

/// One signaled request in flight: its sequence number, wr_id, what it was, and whether
/// its completion came (before an older one's: see `completion`).
struct Signaled {
    seq: u64,
    wr_id: u64,
    op: u32,
    done: bool,
}

struct Conn {
    id: *mut rdma_cm_id,
    cookie: Option<u64>,
    state: State,
    /// Active: the private data for rdma_connect.
    data: Vec<u8>,
    /// Passive: the request's responder resources and initiator depth, from our side's
    /// point of view (what we may grant and use).
    req_rd: (u8, u8),
    /// Send queue accounting: requests posted, requests known complete (`completed`),
    /// limit.
    posted: u64,
    retired: u64,
    sq_limit: u64,
    signaled: VecDeque<Signaled>,
    got_disc: bool,
    closing_since: Option<Instant>,
}

impl Conn {
    fn new(id: *mut rdma_cm_id, state: State) -> Conn {
        Conn {
            id,
            cookie: None,
            state,
            data: Vec::new(),
            req_rd: (0, 0),
            posted: 0,
            retired: 0,
            sq_limit: 0,
            signaled: VecDeque::new(),
            got_disc: false,
            closing_since: None,
        }
    }

    fn qp(&self) -> *mut ibv_qp {
        // SAFETY: id is a live rdma_cm id owned by this Conn.
        unsafe { (*self.id).qp }
    }

    /// `d` was posted: count it, and remember it where it will complete.
    #[inline]
    fn count_posted(&mut self, d: &Desc) {
        self.posted += 1;
        if d.flags & FLAG_SIGNALED != 0 {
            self.signaled.push_back(Signaled {
                seq: self.posted,
                wr_id: d.wr_id,
                op: wc_of_op(d.opcode),
                done: false,
            });
        }
    }

    /// The send-side completion of `wr_id`: its request is done and, once every older
    /// signaled one is too, so is everything posted before it. Returns what the request
    /// was, or None for one that was not signaled (an unsignaled request that failed also
    /// completes; it retires nothing). Completions may come out of posting order: siw
    /// completes a write or send once sent but a read when its answer comes, so later
    /// requests can complete first — taking only the oldest as the one completing left a
    /// newer one unretired for ever, and the send queue looked full from then on (the split
    /// rendezvous' stall on siw).
    fn completed(&mut self, wr_id: u64) -> Option<u32> {
        // In posting order (nearly always): the oldest retires without a search.
        let i = if self.signaled.front().is_some_and(|s| s.wr_id == wr_id) {
            0
        } else {
            self.signaled.iter().position(|s| s.wr_id == wr_id)?
        };
        self.signaled[i].done = true;
        let op = self.signaled[i].op;
        while self.signaled.front().is_some_and(|s| s.done) {
            self.retired = self.signaled.pop_front().expect("front checked").seq;
        }
        Some(op)
    }

    /// Closing and done: disconnected with every signaled request completed (or waited
    /// out its grace).
    fn finished(&self) -> bool {
        self.state == State::Closing
            && (self.qp().is_null()
                || (self.got_disc && self.signaled.is_empty())
                || self
                    .closing_since
                    .is_some_and(|t| t.elapsed() > DRAIN_GRACE))
    }
}

#[derive(Clone, Copy)]
struct Cfg {
    transport: u32,
    sq_depth: u32,
    max_inline: u32,
    max_sge: u32,
    timeout: u8,
    retry: u8,
    rnr_retry: u8,
    caps: DevCaps,
}

#[derive(Default)]
struct Tables {
    conns: Slab<Conn>,
    /// cookie → tag, for the connections the caller has named and may still use: a
    /// cookie is released by `disconnect`, or when CM_DISCONNECTED, CM_REJECTED or CM_ERROR
    /// reports its end (the module then cleans up by itself).
    by_cookie: FxHashMap<u64, u64>,
    /// qp_num → tag.
    by_qpn: FxHashMap<u32, u64>,
    mrs: FxHashSet<u64>,
    /// Tags in State::Closing (checked for the grace).
    closing: Vec<u64>,
}

pub(crate) struct Context {
    verbs: *mut ibv_context,
    ec: *mut rdma_event_channel,
    listener: *mut rdma_cm_id,
    /// Ours, or the context's we were opened with as `share_pd` (None only while opening
    /// and after teardown).
    pd: Option<Arc<Pd>>,
    comp: *mut ibv_comp_channel,
    cq: *mut ibv_cq,
    srq: *mut ibv_srq,
    listen: Addr,
    cfg: Cfg,
    t: Mutex<Tables>,
}

/// `RAILMPI_VERBS_TRACE=1`: connection life cycle on stderr (for debugging libmpi).
fn tracing() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("RAILMPI_VERBS_TRACE").is_some_and(|v| v != "0"))
}

macro_rules! trace {
    ($($a:tt)*) => {
        if tracing() {
            eprintln!("railmpi_verbs[{}]: {}", std::process::id(), format!($($a)*));
        }
    };
}

/// A protection domain, held by every context that uses it and deallocated with the last.
struct Pd(*mut ibv_pd);

// SAFETY: the pointer is only ever handed to libibverbs, whose verbs are thread-safe; the
// domain is deallocated once, when the last holder drops it.
unsafe impl Send for Pd {}
// SAFETY: as above: no Rust-side state, verbs calls only.
unsafe impl Sync for Pd {}

impl Drop for Pd {
    fn drop(&mut self) {
        // SAFETY: a live PD of ours; every holder has destroyed what it made in it.
        let r = verbs_ret(unsafe { ibv_dealloc_pd(self.0) });
        if r != 0 {
            trace!("ibv_dealloc_pd: {}", std::io::Error::from_raw_os_error(r));
        }
    }
}

fn set_nonblock(fd: i32) -> Result<(), i32> {
    // SAFETY: fcntl on a descriptor we own; F_GETFL/F_SETFL touch only its flags.
    let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if fl < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, fl | libc::O_NONBLOCK) } < 0 {
        return Err(errno());
    }
    Ok(())
}

fn access_bits(access: u32) -> i32 {
    let mut a = ibv_access_flags::IBV_ACCESS_LOCAL_WRITE.0;
    if access & ACCESS_REMOTE_READ != 0 {
        a |= ibv_access_flags::IBV_ACCESS_REMOTE_READ.0;
    }
    if access & ACCESS_REMOTE_WRITE != 0 {
        a |= ibv_access_flags::IBV_ACCESS_REMOTE_WRITE.0;
    }
    if access & ACCESS_REMOTE_ATOMIC != 0 {
        a |= ibv_access_flags::IBV_ACCESS_REMOTE_ATOMIC.0;
    }
    if access & ACCESS_ON_DEMAND != 0 {
        a |= ibv_access_flags::IBV_ACCESS_ON_DEMAND.0;
    }
    a as i32
}

fn wc_opcode(op: ibv_wc_opcode::Type) -> Option<u32> {
    use ibv_wc_opcode::*;
    Some(match op {
        IBV_WC_SEND => WC_SEND,
        IBV_WC_RDMA_WRITE => WC_WRITE,
        IBV_WC_RDMA_READ => WC_READ,
        IBV_WC_COMP_SWAP | IBV_WC_FETCH_ADD => WC_ATOMIC,
        IBV_WC_RECV => WC_RECV,
        IBV_WC_RECV_RDMA_WITH_IMM => WC_RECV_WRITE_IMM,
        _ => return None,
    })
}

/// The completion a posted opcode will produce.
fn wc_of_op(op: u32) -> u32 {
    match op {
        OP_SEND | OP_SEND_IMM => WC_SEND,
        OP_WRITE | OP_WRITE_IMM => WC_WRITE,
        OP_READ => WC_READ,
        _ => WC_ATOMIC,
    }
}

// `Sge` is passed to the provider as `ibv_sge` without copying: same fields, same order.
const _: () = {
    assert!(mem::size_of::<Sge>() == mem::size_of::<ibv_sge>());
    assert!(mem::align_of::<Sge>() == mem::align_of::<ibv_sge>());
    assert!(mem::offset_of!(Sge, addr) == mem::offset_of!(ibv_sge, addr));
    assert!(mem::offset_of!(Sge, len) == mem::offset_of!(ibv_sge, length));
    assert!(mem::offset_of!(Sge, lkey) == mem::offset_of!(ibv_sge, lkey));
};

/// One cm event, copied out before it is acked.
struct Ev {
    kind: rdma_cm_event_type::Type,
    status: i32,
    id: *mut rdma_cm_id,
    data: [u8; PRIVATE_DATA],
    data_len: u32,
    rd: (u8, u8),
}

impl Context {
    /// Open a context (see `Ops::open`), in the protection domain of `share` if given (the
    /// context `p.share_pd` names); the error string says which step failed.
    pub(crate) fn open(
        p: &OpenParams,
        share: Option<&Context>,
    ) -> Result<Box<Context>, (i32, String)> {
        if p.device.is_null() {
            return Err((libc::EINVAL, "no device name".into()));
        }
        // SAFETY: the caller passes a NUL-terminated device name.
        let device = unsafe { cstr(p.device) }.to_vec();
        let devname = String::from_utf8_lossy(&device).into_owned();
        let mut ip = p.listen_ip;
        if ip == [0; 16] {
            let info = query::query_port(&device, p.port).ok_or((
                libc::ENODEV,
                format!("no port {} on device {devname}", p.port),
            ))?;
            ip = info.ip;
            if ip == [0; 16] {
                return Err((
                    libc::EADDRNOTAVAIL,
                    format!("{devname} port {} has no IP address for rdma_cm", p.port),
                ));
            }
        }
        let mut c = Box::new(Context {
            verbs: ptr::null_mut(),
            ec: ptr::null_mut(),
            listener: ptr::null_mut(),
            pd: None,
            comp: ptr::null_mut(),
            cq: ptr::null_mut(),
            srq: ptr::null_mut(),
            listen: Addr::default(),
            cfg: Cfg {
                transport: TRANSPORT_IB,
                sq_depth: p.sq_depth.max(1),
                max_inline: p.max_inline,
                max_sge: p.max_sge.max(1),
                timeout: p.timeout,
                retry: p.retry_count,
                rnr_retry: p.rnr_retry,
                caps: DevCaps::default(),
            },
            t: Mutex::new(Tables::default()),
        });
        // On error `c` drops, and Drop tears down whatever was built.
        c.build(p, share, &device, &devname, ip)?;
        Ok(c)
    }

    fn build(
        &mut self,
        p: &OpenParams,
        share: Option<&Context>,
        device: &[u8],
        devname: &str,
        ip: [u8; 16],
    ) -> Result<(), (i32, String)> {
        let fail = |what: &str| {
            let e = errno();
            (
                e,
                format!("{what}: {}", std::io::Error::from_raw_os_error(e)),
            )
        };
        // SAFETY: creates a new channel (NULL on failure, checked).
        self.ec = unsafe { rdma_create_event_channel() };
        if self.ec.is_null() {
            return Err(fail("rdma_create_event_channel"));
        }
        // SAFETY: ec is live.
        set_nonblock(unsafe { (*self.ec).fd })
            .map_err(|e| (e, "cm channel O_NONBLOCK".to_string()))?;
        // SAFETY: ec is live; the listener's context stays NULL (tag 0: not a connection).
        if unsafe {
            rdma_create_id(
                self.ec,
                &mut self.listener,
                ptr::null_mut(),
                rdma_port_space::RDMA_PS_TCP,
            )
        } != 0
        {
            self.listener = ptr::null_mut();
            return Err(fail("rdma_create_id"));
        }
        let mut sa = SockAddr::new(&ip, 0);
        // SAFETY: listener is live; sa is a valid sockaddr_in/in6 for the call.
        if unsafe { rdma_bind_addr(self.listener, sa.as_mut_ptr()) } != 0 {
            return Err(fail(&format!("rdma_bind_addr({})", fmt_ip(&ip))));
        }
        // SAFETY: listener is live; binding to a device's IP set verbs and port_num.
        let (verbs, port_num) = unsafe { ((*self.listener).verbs, (*self.listener).port_num) };
        if verbs.is_null() {
            return Err((
                libc::ENODEV,
                format!("{} is not the address of an RDMA device", fmt_ip(&ip)),
            ));
        }
        // SAFETY: verbs is rdma_cm's open context for the device; its name is a C string.
        let bound = unsafe { cstr(ibv_get_device_name((*verbs).device)) }.to_vec();
        if bound != device || (port_num != 0 && p.port != 0 && port_num as u32 != p.port) {
            return Err((
                libc::ENODEV,
                format!(
                    "rdma_cm binds {} to {} port {port_num}, not {devname} port {} \
                     (another RDMA device on the same netdev?)",
                    fmt_ip(&ip),
                    String::from_utf8_lossy(&bound),
                    p.port
                ),
            ));
        }
        if let Some(owner) = share {
            // rdma_cm opens each device once per process, so a listener on the owner's device
            // has the owner's verbs context; a PD is only usable with the context it was
            // allocated on.
            if verbs != owner.verbs {
                // SAFETY: owner is open, so its verbs context and device are valid.
                let theirs = unsafe { cstr(ibv_get_device_name((*owner.verbs).device)) };
                return Err((
                    libc::EXDEV,
                    format!(
                        "share_pd: rdma_cm binds {} to {devname} through another verbs \
                         context ({verbs:p}) than the shared context's ({} at {:p}): its \
                         protection domain cannot be used here",
                        fmt_ip(&ip),
                        String::from_utf8_lossy(theirs),
                        owner.verbs
                    ),
                ));
            }
        }
        self.verbs = verbs;
        // SAFETY: listener is bound.
        if unsafe { rdma_listen(self.listener, 1024) } != 0 {
            return Err(fail("rdma_listen"));
        }
        // SAFETY: listener is bound; the port is in network order.
        let port = u16::from_be(unsafe { rdma_get_src_port(self.listener) });
        self.listen = Addr {
            ip,
            port,
            _pad: [0; 6],
        };

        let attr = query::device_attr(verbs).map_err(|e| (e, "ibv_query_device".to_string()))?;
        self.cfg.caps = query::caps_of(&attr);
        // Asking a queue pair for more than the device has only makes its creation fail.
        if self.cfg.caps.max_sge != 0 {
            self.cfg.max_sge = self.cfg.max_sge.min(self.cfg.caps.max_sge);
        }
        let pa = query::port_attr(verbs, port_num.max(1))
            .map_err(|e| (e, "ibv_query_port".to_string()))?;
        // SAFETY: verbs is open, so its device pointer is valid.
        self.cfg.transport = query::transport_of(unsafe { (*verbs).device }, pa.link_layer);
        if p.cq_depth == 0 || p.srq_depth == 0 {
            return Err((libc::EINVAL, "cq_depth and srq_depth must be > 0".into()));
        }
        // The caller cannot see max_cqe (PortInfo has no field for it): cap the depth
        // rather than fail (rxe: 32767).
        let cq_depth = match self.cfg.caps.max_cqe {
            0 => p.cq_depth,
            m => p.cq_depth.min(m),
        };
        if cq_depth != p.cq_depth {
            trace!(
                "cq_depth {} capped at the device's max_cqe {cq_depth}",
                p.cq_depth
            );
        }

        self.pd = Some(match share {
            Some(owner) => Arc::clone(owner.pd.as_ref().ok_or((
                libc::EINVAL,
                "share_pd: the shared context has no protection domain".to_string(),
            ))?),
            None => {
                // SAFETY: verbs is open.
                let pd = unsafe { ibv_alloc_pd(verbs) };
                if pd.is_null() {
                    return Err(fail("ibv_alloc_pd"));
                }
                Arc::new(Pd(pd))
            }
        });
        // SAFETY: verbs is open.
        self.comp = unsafe { ibv_create_comp_channel(verbs) };
        if self.comp.is_null() {
            return Err(fail("ibv_create_comp_channel"));
        }
        // SAFETY: comp is live.
        set_nonblock(unsafe { (*self.comp).fd })
            .map_err(|e| (e, "completion channel O_NONBLOCK".to_string()))?;
        // SAFETY: verbs and comp are live.
        self.cq = unsafe { ibv_create_cq(verbs, cq_depth as i32, ptr::null_mut(), self.comp, 0) };
        if self.cq.is_null() {
            return Err(fail(&format!("ibv_create_cq({cq_depth})")));
        }
        // SAFETY: cq is live.
        let ret = verbs_ret(unsafe { ibv_req_notify_cq(self.cq, 0) });
        if ret != 0 {
            return Err((ret, "ibv_req_notify_cq".into()));
        }
        // SAFETY: plain old data.
        let mut sattr: ibv_srq_init_attr = unsafe { mem::zeroed() };
        sattr.attr.max_wr = p.srq_depth;
        sattr.attr.max_sge = 1;
        // SAFETY: pd is live; sattr is initialised.
        self.srq = unsafe { ibv_create_srq(self.pd(), &mut sattr) };
        if self.srq.is_null() {
            return Err(fail(&format!("ibv_create_srq({})", p.srq_depth)));
        }
        Ok(())
    }

    /// The protection domain (live from `build` to `teardown`).
    fn pd(&self) -> *mut ibv_pd {
        self.pd.as_ref().map_or(ptr::null_mut(), |pd| pd.0)
    }

    pub(crate) fn listen_addr(&self) -> Addr {
        self.listen
    }

    pub(crate) fn wait_fds(&self) -> [i32; 2] {
        // SAFETY: both channels live as long as the context.
        unsafe { [(*self.comp).fd, (*self.ec).fd] }
    }

    fn tables(&self) -> MutexGuard<'_, Tables> {
        // A panic elsewhere (caught at the boundary) must not wedge the context.
        self.t.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drain the completion channel and re-arm the queue.
    pub(crate) fn ack_events(&self, rearm: bool) -> i32 {
        let mut n: u32 = 0;
        loop {
            let mut cq: *mut ibv_cq = ptr::null_mut();
            let mut cq_ctx: *mut c_void = ptr::null_mut();
            // SAFETY: comp is live and non-blocking: this returns -1/EAGAIN when empty.
            if unsafe { ibv_get_cq_event(self.comp, &mut cq, &mut cq_ctx) } != 0 {
                let e = errno();
                if e != libc::EAGAIN && e != libc::EWOULDBLOCK && e != libc::EINTR {
                    self.ack(n);
                    return e;
                }
                if e == libc::EINTR {
                    continue;
                }
                break;
            }
            n += 1;
        }
        self.ack(n);
        if rearm {
            self.arm(false)
        } else {
            0
        }
    }

    /// Ask for an event at the completion queue's next completion.
    pub(crate) fn arm(&self, solicited_only: bool) -> i32 {
        // SAFETY: cq is live.
        verbs_ret(unsafe { ibv_req_notify_cq(self.cq, i32::from(solicited_only)) })
    }

    fn ack(&self, n: u32) {
        if n > 0 {
            // SAFETY: cq is live; n events were taken from its channel above.
            unsafe { ibv_ack_cq_events(self.cq, n) };
        }
    }

    // ---- connections ------------------------------------------------------------------

    fn new_tag(t: &mut Tables) -> u64 {
        t.conns.next_tag()
    }

    /// Is `cookie` taken by a connection that is still up or coming up?
    fn cookie_busy(t: &Tables, cookie: u64) -> bool {
        t.by_cookie
            .get(&cookie)
            .and_then(|tag| t.conns.get(tag))
            .is_some_and(|c| c.state != State::Closing)
    }

    /// Ask rdma_cm to use our retry timeout on the queue pair it will move to RTS
    /// (IB/RoCE; iWARP rides on TCP and refuses it, which is harmless).
    fn set_ack_timeout(&self, id: *mut rdma_cm_id) {
        if self.cfg.timeout == 0 || self.cfg.transport == TRANSPORT_IWARP {
            return;
        }
        let mut t: u8 = self.cfg.timeout;
        // SAFETY: id is live; optval points at one byte as the option expects.
        let r = unsafe {
            rdma_set_option(
                id,
                RDMA_OPTION_ID,
                RDMA_OPTION_ID_ACK_TIMEOUT,
                &mut t as *mut u8 as *mut c_void,
                1,
            )
        };
        if r != 0 {
            trace!("RDMA_OPTION_ID_ACK_TIMEOUT: {}", errno());
        }
    }

    /// Create the queue pair of `id` on our PD, CQ and SRQ; on a provider that refuses the
    /// inline size asked for, ask for less. Returns the send queue limit.
    fn create_qp(&self, id: *mut rdma_cm_id) -> Result<u64, i32> {
        let max_wr = self.cfg.sq_depth;
        let max_wr = match self.cfg.caps.max_qp_wr {
            0 => max_wr,
            m => max_wr.min(m),
        };
        let mut inline = self.cfg.max_inline;
        loop {
            // SAFETY: plain old data; zero is NULL pointers and no flags.
            let mut init: ibv_qp_init_attr = unsafe { mem::zeroed() };
            init.send_cq = self.cq;
            init.recv_cq = self.cq;
            init.srq = self.srq;
            init.qp_type = ibv_qp_type::IBV_QPT_RC;
            init.sq_sig_all = 0;
            init.cap = ibv_qp_cap {
                max_send_wr: max_wr,
                max_recv_wr: 0,
                max_send_sge: self.cfg.max_sge,
                max_recv_sge: 0,
                max_inline_data: inline,
            };
            // SAFETY: id is live and on our device (checked by the callers); pd, cq and srq
            // belong to that device.
            if unsafe { rdma_create_qp(id, self.pd(), &mut init) } == 0 {
                return Ok(max_wr as u64);
            }
            let e = errno();
            if inline == 0 {
                return Err(e);
            }
            inline /= 2;
            if inline < 16 {
                inline = 0;
            }
        }
    }

    /// Connection parameters: our read/atomic depths (capped at 16 and by `rd`, the
    /// responder resources and initiator depth the peer allows), retries, private data.
    fn conn_param(&self, data: &[u8], rd: (u8, u8)) -> rdma_conn_param {
        // SAFETY: plain old data.
        let mut cp: rdma_conn_param = unsafe { mem::zeroed() };
        cp.private_data = if data.is_empty() {
            ptr::null()
        } else {
            data.as_ptr() as *const c_void
        };
        cp.private_data_len = data.len() as u8;
        cp.responder_resources = self
            .cfg
            .caps
            .max_qp_rd_atom
            .min(MAX_RD_ATOM)
            .min(rd.0 as u32) as u8;
        cp.initiator_depth = self
            .cfg
            .caps
            .max_qp_init_rd_atom
            .min(MAX_RD_ATOM)
            .min(rd.1 as u32) as u8;
        cp.retry_count = self.cfg.retry.min(7);
        cp.rnr_retry_count = self.cfg.rnr_retry.min(7);
        cp
    }

    pub(crate) fn connect(&self, to: &Addr, data: &[u8], cookie: u64) -> i32 {
        if data.len() > PRIVATE_DATA {
            return libc::EINVAL;
        }
        let mut t = self.tables();
        if Self::cookie_busy(&t, cookie) {
            return libc::EEXIST;
        }
        let tag = Self::new_tag(&mut t);
        let mut id: *mut rdma_cm_id = ptr::null_mut();
        // SAFETY: ec is live; the tag rides in the id's context pointer.
        if unsafe {
            rdma_create_id(
                self.ec,
                &mut id,
                tag as *mut c_void,
                rdma_port_space::RDMA_PS_TCP,
            )
        } != 0
        {
            return errno();
        }
        self.set_ack_timeout(id);
        let mut src = SockAddr::new(&self.listen.ip, 0);
        let mut dst = SockAddr::new(&to.ip, to.port);
        // SAFETY: id is live; src and dst are valid socket addresses of the same family
        // when both are IPv4-mapped (rdma_cm rejects a mix with an error, not a fault).
        if unsafe { rdma_resolve_addr(id, src.as_mut_ptr(), dst.as_mut_ptr(), RESOLVE_MS) } != 0 {
            let e = errno();
            // SAFETY: id is ours, has no QP and no unacked events.
            unsafe { rdma_destroy_id(id) };
            return e;
        }
        let mut c = Conn::new(id, State::Resolving);
        c.cookie = Some(cookie);
        c.data = data.to_vec();
        t.conns.insert(tag, c);
        t.by_cookie.insert(cookie, tag);
        0
    }

    pub(crate) fn accept(&self, handle: u64, cookie: u64) -> i32 {
        let mut t = self.tables();
        match t.conns.get(&handle) {
            Some(c) if c.state == State::Requested => {}
            Some(_) => return libc::EINVAL,
            None => return libc::ENOENT,
        }
        if Self::cookie_busy(&t, cookie) {
            return libc::EEXIST;
        }
        let (id, rd) = {
            let c = &t.conns[&handle];
            (c.id, c.req_rd)
        };
        let limit = match self.create_qp(id) {
            Ok(l) => l,
            Err(e) => return e,
        };
        self.set_ack_timeout(id);
        // The request's depths bound ours (the CM already turned them round: its
        // responder_resources is the peer's initiator depth), as librdmacm would do.
        let mut cp = self.conn_param(&[], rd);
        // SAFETY: id is live with its QP; cp is initialised and outlives the call.
        if unsafe { rdma_accept(id, &mut cp) } != 0 {
            let e = errno();
            // SAFETY: the QP was created above and nothing was posted to it.
            unsafe { rdma_destroy_qp(id) };
            return e;
        }
        // SAFETY: the QP exists (created above).
        let qpn = unsafe { (*(*id).qp).qp_num };
        let c = t.conns.get_mut(&handle).expect("checked above");
        c.state = State::Accepting;
        c.cookie = Some(cookie);
        c.sq_limit = limit;
        t.by_cookie.insert(cookie, handle);
        t.by_qpn.insert(qpn, handle);
        0
    }

    pub(crate) fn reject(&self, handle: u64, data: &[u8]) -> i32 {
        if data.len() > u8::MAX as usize {
            return libc::EINVAL;
        }
        let mut t = self.tables();
        match t.conns.get(&handle) {
            Some(c) if c.state == State::Requested => {}
            Some(_) => return libc::EINVAL,
            None => return libc::ENOENT,
        }
        let c = t.conns.remove(&handle).expect("checked above");
        let p = if data.is_empty() {
            ptr::null()
        } else {
            data.as_ptr() as *const c_void
        };
        // SAFETY: c.id is the live request id (its event was acked when handed out).
        let ret = unsafe { rdma_reject(c.id, p, data.len() as u8) };
        let e = if ret != 0 { errno() } else { 0 };
        // SAFETY: the id has no QP and no unacked events; nothing refers to it any more.
        unsafe { rdma_destroy_id(c.id) };
        e
    }

    pub(crate) fn disconnect(&self, cookie: u64) -> i32 {
        let mut t = self.tables();
        let Some(tag) = t.by_cookie.remove(&cookie) else {
            return libc::ENOENT;
        };
        let Some(state) = t.conns.get(&tag).map(|c| c.state) else {
            return libc::ENOENT;
        };
        match state {
            State::Established => {
                let c = t.conns.get_mut(&tag).expect("present");
                // SAFETY: c.id is live and connected.
                unsafe { rdma_disconnect(c.id) };
                self.start_closing(&mut t, tag);
            }
            State::Closing => {}
            // Never connected: nothing was posted, nothing to flush.
            _ => self.destroy(&mut t, tag),
        }
        0
    }

    /// Move a connection to Closing: queue pair to error, so its requests flush.
    fn start_closing(&self, t: &mut Tables, tag: u64) {
        let Some(c) = t.conns.get_mut(&tag) else {
            return;
        };
        c.state = State::Closing;
        c.closing_since = Some(Instant::now());
        let qp = c.qp();
        t.closing.push(tag);
        if qp.is_null() {
            return;
        }
        // rdma_disconnect moves IB/RoCE queue pairs to error but iWARP ones only to SQD;
        // error is what makes every outstanding request flush.
        // SAFETY: plain old data.
        let mut attr: ibv_qp_attr = unsafe { mem::zeroed() };
        attr.qp_state = ibv_qp_state::IBV_QPS_ERR;
        // SAFETY: qp is live; only the state is modified.
        unsafe { ibv_modify_qp(qp, &mut attr, ibv_qp_attr_mask::IBV_QP_STATE.0 as i32) };
    }

    /// Destroy a connection's queue pair and id. Every event of the id has been acked (we
    /// ack each before acting on it), so rdma_destroy_id cannot block on one.
    fn destroy(&self, t: &mut Tables, tag: u64) {
        let Some(c) = t.conns.remove(&tag) else {
            return;
        };
        trace!(
            "destroy tag {tag} cookie {:?} state {:?} disconnected {} unflushed {}",
            c.cookie,
            c.state,
            c.got_disc,
            c.signaled.len()
        );
        // The caller heard of its end (DISCONNECTED, REJECTED, ERROR) or disconnected it
        // itself: the cookie names nothing any more (unless reused for a newer one).
        if let Some(cookie) = c.cookie {
            if t.by_cookie.get(&cookie) == Some(&tag) {
                t.by_cookie.remove(&cookie);
            }
        }
        let qp = c.qp();
        if !qp.is_null() {
            // SAFETY: qp is live until rdma_destroy_qp below.
            let qpn = unsafe { (*qp).qp_num };
            if t.by_qpn.get(&qpn) == Some(&tag) {
                t.by_qpn.remove(&qpn);
            }
            // SAFETY: the QP belongs to this id and no other request will be posted to it.
            unsafe { rdma_destroy_qp(c.id) };
        }
        // SAFETY: the id is ours; nothing refers to it after this.
        unsafe { rdma_destroy_id(c.id) };
        t.closing.retain(|&x| x != tag);
    }

    /// Destroy the closing connections that are done (or waited out their grace).
    #[inline]
    fn reap(&self, t: &mut Tables) {
        if !t.closing.is_empty() {
            self.reap_closing(t);
        }
    }

    #[inline(never)]
    fn reap_closing(&self, t: &mut Tables) {
        let done: Vec<u64> = t
            .closing
            .iter()
            .copied()
            .filter(|tag| t.conns.get(tag).is_none_or(|c| c.finished()))
            .collect();
        for tag in done {
            self.destroy(t, tag);
        }
    }

    /// A connection that was never established failed: tell the caller (if it named it)
    /// and destroy it.
    fn fail(
        &self,
        t: &mut Tables,
        tag: u64,
        kind: u32,
        status: i32,
        error: i32,
        ev: Option<&Ev>,
    ) -> Option<CmEvent> {
        let c = t.conns.get(&tag)?;
        let out = c.cookie.map(|cookie| {
            let mut o = CmEvent {
                kind,
                status,
                error,
                data_len: 0,
                conn: cookie,
                data: [0; PRIVATE_DATA],
            };
            if let Some(ev) = ev {
                o.data = ev.data;
                o.data_len = ev.data_len;
            }
            o
        });
        self.destroy(t, tag);
        out
    }

    /// The next event for the caller, driving address/route resolution on the way.
    pub(crate) fn cm_event(&self) -> Result<CmEvent, i32> {
        let mut t = self.tables();
        self.reap(&mut t);
        loop {
            let ev = match self.next_event()? {
                Some(ev) => ev,
                None => {
                    return Ok(CmEvent {
                        kind: CM_NONE,
                        status: 0,
                        error: 0,
                        data_len: 0,
                        conn: 0,
                        data: [0; PRIVATE_DATA],
                    })
                }
            };
            if let Some(out) = self.handle(&mut t, &ev) {
                return Ok(out);
            }
        }
    }

    /// Take one event off the channel, copy out what we need and ack it.
    fn next_event(&self) -> Result<Option<Ev>, i32> {
        let mut e: *mut rdma_cm_event = ptr::null_mut();
        loop {
            // SAFETY: ec is live and non-blocking.
            if unsafe { rdma_get_cm_event(self.ec, &mut e) } == 0 {
                break;
            }
            match errno() {
                libc::EINTR => continue,
                x if x == libc::EAGAIN || x == libc::EWOULDBLOCK => return Ok(None),
                x => return Err(x),
            }
        }
        // SAFETY: e is the event rdma_get_cm_event returned; it stays valid until acked
        // below, and its private data (when non-NULL) has private_data_len bytes.
        let ev = unsafe {
            let ev = &*e;
            let conn = ev.param.conn;
            let mut data = [0u8; PRIVATE_DATA];
            let n = (conn.private_data_len as usize).min(PRIVATE_DATA);
            if !conn.private_data.is_null() && n > 0 {
                ptr::copy_nonoverlapping(conn.private_data as *const u8, data.as_mut_ptr(), n);
            }
            let has_data = !conn.private_data.is_null();
            Ev {
                kind: ev.event,
                status: ev.status,
                id: ev.id,
                data,
                data_len: if has_data { n as u32 } else { 0 },
                rd: (conn.responder_resources, conn.initiator_depth),
            }
        };
        // SAFETY: e came from rdma_get_cm_event and is acked once.
        unsafe { rdma_ack_cm_event(e) };
        Ok(Some(ev))
    }

    /// Act on one event; Some when the caller must hear of it.
    fn handle(&self, t: &mut Tables, ev: &Ev) -> Option<CmEvent> {
        use rdma_cm_event_type::*;
        // SAFETY: ev.id is live (events are never delivered for destroyed ids); its
        // context is our tag (0 for the listener and for a new request's id).
        let tag = unsafe { (*ev.id).context } as u64;
        trace!(
            "cm event {} status {} on tag {tag} ({:?})",
            ev.kind,
            ev.status,
            t.conns.get(&tag).map(|c| c.state)
        );
        if ev.kind == RDMA_CM_EVENT_CONNECT_REQUEST {
            // A new id: give it a tag, which is the handle the caller accepts or rejects.
            let tag = Self::new_tag(t);
            // SAFETY: ev.id is the request's new id, ours from now on.
            unsafe { (*ev.id).context = tag as *mut c_void };
            // SAFETY: as above; a request id is bound to the listener's device.
            if unsafe { (*ev.id).verbs } != self.verbs {
                // SAFETY: the id's only event is acked; refuse and drop it.
                unsafe {
                    rdma_reject(ev.id, ptr::null(), 0);
                    rdma_destroy_id(ev.id);
                }
                return None;
            }
            let mut c = Conn::new(ev.id, State::Requested);
            c.req_rd = ev.rd;
            t.conns.insert(tag, c);
            return Some(CmEvent {
                kind: CM_REQUEST,
                status: 0,
                error: 0,
                data_len: ev.data_len,
                conn: tag,
                data: ev.data,
            });
        }
        let c = t.conns.get(&tag)?; // the listener (tag 0) or a stale id: nothing to do
        let state = c.state;
        match ev.kind {
            RDMA_CM_EVENT_ADDR_RESOLVED if state == State::Resolving => {
                // SAFETY: the id is live and resolved, so verbs is set.
                if unsafe { (*ev.id).verbs } != self.verbs {
                    return self.fail(t, tag, CM_ERROR, ev.kind as i32, -libc::EXDEV, None);
                }
                // SAFETY: the id is live and its address resolved.
                if unsafe { rdma_resolve_route(ev.id, RESOLVE_MS) } != 0 {
                    let e = errno();
                    return self.fail(t, tag, CM_ERROR, RDMA_CM_EVENT_ROUTE_ERROR as i32, -e, None);
                }
                t.conns.get_mut(&tag)?.state = State::Routing;
                None
            }
            RDMA_CM_EVENT_ROUTE_RESOLVED if state == State::Routing => {
                let limit = match self.create_qp(ev.id) {
                    Ok(l) => l,
                    Err(e) => {
                        return self.fail(
                            t,
                            tag,
                            CM_ERROR,
                            RDMA_CM_EVENT_CONNECT_ERROR as i32,
                            -e,
                            None,
                        )
                    }
                };
                let data = t.conns[&tag].data.clone();
                let mut cp = self.conn_param(&data, (u8::MAX, u8::MAX));
                // SAFETY: the id is live with its QP; cp and data outlive the call.
                if unsafe { rdma_connect(ev.id, &mut cp) } != 0 {
                    let e = errno();
                    return self.fail(
                        t,
                        tag,
                        CM_ERROR,
                        RDMA_CM_EVENT_CONNECT_ERROR as i32,
                        -e,
                        None,
                    );
                }
                // SAFETY: the QP was created above.
                let qpn = unsafe { (*(*ev.id).qp).qp_num };
                let c = t.conns.get_mut(&tag)?;
                c.state = State::Connecting;
                c.sq_limit = limit;
                c.data = Vec::new();
                t.by_qpn.insert(qpn, tag);
                None
            }
            RDMA_CM_EVENT_ESTABLISHED if matches!(state, State::Connecting | State::Accepting) => {
                self.fix_timeout(c.qp());
                let c = t.conns.get_mut(&tag)?;
                c.state = State::Established;
                Some(CmEvent {
                    kind: CM_ESTABLISHED,
                    status: 0,
                    error: 0,
                    data_len: 0,
                    conn: c.cookie.unwrap_or(0),
                    data: [0; PRIVATE_DATA],
                })
            }
            RDMA_CM_EVENT_DISCONNECTED
            | RDMA_CM_EVENT_DEVICE_REMOVAL
            | RDMA_CM_EVENT_TIMEWAIT_EXIT
            | RDMA_CM_EVENT_CONNECT_ERROR
            | RDMA_CM_EVENT_UNREACHABLE
            | RDMA_CM_EVENT_REJECTED
                if state == State::Closing =>
            {
                let c = t.conns.get_mut(&tag)?;
                c.got_disc = true;
                if c.finished() {
                    self.destroy(t, tag);
                }
                None
            }
            RDMA_CM_EVENT_DISCONNECTED
            | RDMA_CM_EVENT_DEVICE_REMOVAL
            | RDMA_CM_EVENT_CONNECT_ERROR
            | RDMA_CM_EVENT_UNREACHABLE
            | RDMA_CM_EVENT_REJECTED
                if state == State::Established =>
            {
                // The peer (or the fabric) ended it: complete our side of the disconnect,
                // flush, and let the caller know.
                let cookie = c.cookie.unwrap_or(0);
                // SAFETY: the id is live.
                unsafe { rdma_disconnect(ev.id) };
                self.start_closing(t, tag);
                // The cookie is the caller's again (its flushes still name it).
                if t.by_cookie.get(&cookie) == Some(&tag) {
                    t.by_cookie.remove(&cookie);
                }
                let c = t.conns.get_mut(&tag)?;
                c.got_disc = true;
                if c.finished() {
                    self.destroy(t, tag);
                }
                Some(CmEvent {
                    kind: CM_DISCONNECTED,
                    status: ev.kind as i32,
                    error: ev.status,
                    data_len: 0,
                    conn: cookie,
                    data: [0; PRIVATE_DATA],
                })
            }
            RDMA_CM_EVENT_REJECTED if state == State::Connecting => {
                self.fail(t, tag, CM_REJECTED, ev.kind as i32, ev.status, Some(ev))
            }
            RDMA_CM_EVENT_ADDR_ERROR
            | RDMA_CM_EVENT_ROUTE_ERROR
            | RDMA_CM_EVENT_CONNECT_ERROR
            | RDMA_CM_EVENT_UNREACHABLE
            | RDMA_CM_EVENT_REJECTED
            | RDMA_CM_EVENT_DISCONNECTED
            | RDMA_CM_EVENT_DEVICE_REMOVAL
                if state != State::Closing =>
            {
                // Failed before it was up (a pending request that failed has no cookie
                // and vanishes: `accept` then says ENOENT).
                self.fail(t, tag, CM_ERROR, ev.kind as i32, ev.status, Some(ev))
            }
            _ => None, // CONNECT_RESPONSE, ADDR_CHANGE, late TIMEWAIT_EXIT, ...
        }
    }

    /// rdma_cm sets the retry timeout from the route (RoCE: 19 on rxe) unless the
    /// ACK_TIMEOUT option took (kernel 4.17 on); if the queue pair ended up with a shorter
    /// one, try to raise it. Best effort only: the kernel's transition table has no
    /// timeout in RTS→RTS, so this fails with EINVAL where it would matter.
    fn fix_timeout(&self, qp: *mut ibv_qp) {
        if qp.is_null() || self.cfg.timeout == 0 || self.cfg.transport == TRANSPORT_IWARP {
            return;
        }
        // SAFETY: plain old data.
        let mut attr: ibv_qp_attr = unsafe { mem::zeroed() };
        // SAFETY: plain old data.
        let mut init: ibv_qp_init_attr = unsafe { mem::zeroed() };
        let mask = ibv_qp_attr_mask::IBV_QP_TIMEOUT.0 as i32;
        // SAFETY: qp is live; attr and init are writable.
        let r = unsafe { ibv_query_qp(qp, &mut attr, mask, &mut init) };
        if r != 0 {
            trace!("ibv_query_qp: {}", verbs_ret(r));
            return;
        }
        // SAFETY: qp is live.
        let qpn = unsafe { (*qp).qp_num };
        trace!(
            "qp {qpn:#x}: timeout {} (asked {})",
            attr.timeout,
            self.cfg.timeout
        );
        if attr.timeout >= self.cfg.timeout {
            return;
        }
        attr.timeout = self.cfg.timeout;
        // SAFETY: qp is live; only the timeout is modified.
        let r = unsafe { ibv_modify_qp(qp, &mut attr, mask) };
        trace!("raising the timeout in RTS: {}", verbs_ret(r));
    }

    // ---- memory -----------------------------------------------------------------------

    pub(crate) fn reg_mr(&self, addr: u64, len: u64, access: u32) -> Result<Mr, i32> {
        let flags = access_bits(access);
        let implicit = addr == 0 && len == u64::MAX && access & ACCESS_ON_DEMAND != 0;
        if implicit && self.cfg.caps.odp & ODP_IMPLICIT == 0 {
            return Err(libc::EOPNOTSUPP);
        }
        if access & ACCESS_ON_DEMAND != 0 && self.cfg.caps.odp == 0 {
            return Err(libc::EOPNOTSUPP);
        }
        let len = if implicit {
            usize::MAX
        } else {
            usize::try_from(len).map_err(|_| libc::EINVAL)?
        };
        // SAFETY: pd is live; the caller vouches for [addr, addr+len) (or asks for the whole
        // address space with implicit ODP).
        let mr = unsafe { ibv_reg_mr(self.pd(), addr as *mut c_void, len, flags) };
        if mr.is_null() {
            return Err(errno());
        }
        self.tables().mrs.insert(mr as u64);
        // SAFETY: mr was just returned by ibv_reg_mr.
        let (lkey, rkey) = unsafe { ((*mr).lkey, (*mr).rkey) };
        Ok(Mr {
            handle: mr as u64,
            lkey,
            rkey,
        })
    }

    pub(crate) fn dereg_mr(&self, handle: u64) -> i32 {
        if !self.tables().mrs.remove(&handle) {
            return libc::EINVAL;
        }
        // SAFETY: handle is an ibv_mr of ours, registered and not yet deregistered.
        verbs_ret(unsafe { ibv_dereg_mr(handle as *mut ibv_mr) })
    }

    pub(crate) fn advise_mr(&self, handle: u64, addr: u64, len: u32, advice: u32) -> i32 {
        if !self.tables().mrs.contains(&handle) {
            return libc::EINVAL;
        }
        let advice = match advice {
            ADVISE_READ => ib_uverbs_advise_mr_advice::IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
            ADVISE_WRITE => ib_uverbs_advise_mr_advice::IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
            _ => return libc::EINVAL,
        };
        // SAFETY: handle is a live ibv_mr of ours.
        let lkey = unsafe { (*(handle as *mut ibv_mr)).lkey };
        let mut sge = ibv_sge {
            addr,
            length: len,
            lkey,
        };
        // SAFETY: pd is live; one sge on the stack.
        verbs_ret(unsafe { ibv_advise_mr(self.pd(), advice, 0, &mut sge, 1) })
    }

    // ---- data path --------------------------------------------------------------------

    /// Post `ds` in order on connection `cookie` with one doorbell; `*posted` says how
    /// many went (the rest: the returned error's, ENOMEM when the queue was full).
    pub(crate) fn post(&self, cookie: u64, ds: &[Desc], posted: &mut usize) -> i32 {
        *posted = 0;
        let mut t = self.tables();
        let Some(&tag) = t.by_cookie.get(&cookie) else {
            return libc::ENOTCONN;
        };
        let Some(c) = t.conns.get_mut(&tag) else {
            return libc::ENOTCONN;
        };
        if c.state != State::Established {
            return libc::ENOTCONN;
        }
        let room = c.sq_limit.saturating_sub(c.posted - c.retired) as usize;
        // One request (most posts): built on the stack, no list.
        if let ([d], true) = (ds, room > 0) {
            let mut wr = match self.send_wr(d) {
                Ok(wr) => wr,
                Err(e) => return e,
            };
            let mut bad: *mut ibv_send_wr = ptr::null_mut();
            // SAFETY: the QP is live (Established); wr is complete and its sge list
            // (checked by `send_wr`) is the caller's, read during the call only.
            let ret = verbs_ret(unsafe { ibv_post_send(c.qp(), &mut wr, &mut bad) });
            if ret != 0 {
                return ret;
            }
            c.count_posted(d);
            *posted = 1;
            return 0;
        }
        let mut wrs: Vec<ibv_send_wr> = Vec::with_capacity(ds.len().min(room));
        let mut refused = 0;
        for d in &ds[..ds.len().min(room)] {
            match self.send_wr(d) {
                Ok(wr) => wrs.push(wr),
                Err(e) => {
                    refused = e;
                    break;
                }
            }
        }
        if wrs.is_empty() {
            return if refused != 0 { refused } else { libc::ENOMEM };
        }
        // Chained in place (the vector does not move from here on).
        let n = wrs.len();
        for i in 0..n - 1 {
            let next: *mut ibv_send_wr = &mut wrs[i + 1];
            wrs[i].next = next;
        }
        let mut bad: *mut ibv_send_wr = ptr::null_mut();
        // SAFETY: the QP is live (Established); each wr is complete, chained to the next
        // in `wrs`, and their sge lists (checked by `send_wr`) are the caller's, read
        // during the call only.
        let ret = verbs_ret(unsafe { ibv_post_send(c.qp(), wrs.as_mut_ptr(), &mut bad) });
        // Those before the one the provider gave back were posted.
        let went = if ret == 0 {
            n
        } else {
            wrs.iter().position(|w| ptr::eq(w, bad)).unwrap_or(0)
        };
        for d in &ds[..went] {
            c.count_posted(d);
        }
        *posted = went;
        if ret != 0 {
            ret
        } else if went < ds.len() {
            if refused != 0 {
                refused
            } else {
                libc::ENOMEM
            }
        } else {
            0
        }
    }

    /// One work request from its descriptor (EINVAL: not one we can post).
    fn send_wr(&self, d: &Desc) -> Result<ibv_send_wr, i32> {
        if d.num_sge > self.cfg.max_sge || (d.num_sge > 0 && d.sge.is_null()) {
            return Err(libc::EINVAL);
        }
        // SAFETY: plain old data; zero is NULL pointers.
        let mut wr: ibv_send_wr = unsafe { mem::zeroed() };
        wr.wr_id = d.wr_id;
        // The provider only reads the list; Sge and ibv_sge have one layout (asserted).
        wr.sg_list = d.sge as *mut ibv_sge;
        wr.num_sge = d.num_sge as i32;
        let mut flags = 0;
        if d.flags & FLAG_SIGNALED != 0 {
            flags |= ibv_send_flags::IBV_SEND_SIGNALED.0;
        }
        if d.flags & FLAG_INLINE != 0 {
            flags |= ibv_send_flags::IBV_SEND_INLINE.0;
        }
        if d.flags & FLAG_FENCE != 0 {
            flags |= ibv_send_flags::IBV_SEND_FENCE.0;
        }
        if d.flags & FLAG_SOLICITED != 0 {
            flags |= ibv_send_flags::IBV_SEND_SOLICITED.0;
        }
        wr.send_flags = flags;
        use ibv_wr_opcode::*;
        wr.opcode = match d.opcode {
            OP_SEND => IBV_WR_SEND,
            OP_SEND_IMM => IBV_WR_SEND_WITH_IMM,
            OP_WRITE => IBV_WR_RDMA_WRITE,
            OP_WRITE_IMM => IBV_WR_RDMA_WRITE_WITH_IMM,
            OP_READ => IBV_WR_RDMA_READ,
            OP_FETCH_ADD => IBV_WR_ATOMIC_FETCH_AND_ADD,
            OP_CMP_SWAP => IBV_WR_ATOMIC_CMP_AND_SWP,
            _ => return Err(libc::EINVAL),
        };
        if matches!(d.opcode, OP_SEND_IMM | OP_WRITE_IMM) {
            wr.imm_data_invalidated_rkey_union.imm_data = d.imm.to_be();
        }
        match d.opcode {
            OP_WRITE | OP_WRITE_IMM | OP_READ => {
                wr.wr.rdma = rdma_t {
                    remote_addr: d.remote_addr,
                    rkey: d.rkey,
                };
            }
            OP_FETCH_ADD | OP_CMP_SWAP => {
                wr.wr.atomic = atomic_t {
                    remote_addr: d.remote_addr,
                    compare_add: d.compare_add,
                    swap: d.swap,
                    rkey: d.rkey,
                };
            }
            _ => {}
        }
        Ok(wr)
    }

    pub(crate) fn post_recv(&self, wr_id: u64, sge: *const Sge) -> i32 {
        let mut wr = ibv_recv_wr {
            wr_id,
            next: ptr::null_mut(),
            // Sge and ibv_sge have one layout (asserted); the provider only reads it.
            sg_list: sge as *mut ibv_sge,
            num_sge: if sge.is_null() { 0 } else { 1 },
        };
        let mut bad: *mut ibv_recv_wr = ptr::null_mut();
        // SAFETY: srq is live; wr and its one sge are valid for the call.
        verbs_ret(unsafe { ibv_post_srq_recv(self.srq, &mut wr, &mut bad) })
    }

    pub(crate) fn poll(&self, out: &mut [Wc]) -> Result<usize, i32> {
        let mut t = self.tables();
        let mut got = 0;
        // Not zeroed: this runs on every poll of a busy rank, and the device writes the
        // entries it returns (only those are read).
        let mut buf = [const { mem::MaybeUninit::<ibv_wc>::uninit() }; POLL_BATCH];
        while got < out.len() {
            let ask = (out.len() - got).min(POLL_BATCH);
            // SAFETY: cq is live; buf has room for `ask` entries.
            let n = unsafe { ibv_poll_cq(self.cq, ask as i32, buf.as_mut_ptr().cast()) };
            if n < 0 {
                return Err(libc::EIO);
            }
            // SAFETY: ibv_poll_cq wrote the first n entries (0 <= n <= ask <= POLL_BATCH).
            let polled =
                unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<ibv_wc>(), n as usize) };
            for wc in polled {
                out[got] = self.completion(&mut t, wc);
                got += 1;
            }
            if (n as usize) < ask {
                break;
            }
        }
        self.reap(&mut t);
        Ok(got)
    }

    /// One device completion as the caller's `Wc`.
    fn completion(&self, t: &mut Tables, wc: &ibv_wc) -> Wc {
        let ok = wc.status == ibv_wc_status::IBV_WC_SUCCESS;
        let tag = t.by_qpn.get(&wc.qp_num).copied();
        let conn = tag.and_then(|tag| t.conns.get_mut(&tag));
        let mut opcode = wc_opcode(wc.opcode);
        let mut cookie = 0;
        if let Some(c) = conn {
            cookie = c.cookie.unwrap_or(0);
            // An error completion's opcode is not valid: it may be either side's.
            let send_side = !ok || wc.opcode & ibv_wc_opcode::IBV_WC_RECV == 0;
            if let Some(op) = send_side.then(|| c.completed(wc.wr_id)).flatten() {
                if !ok {
                    opcode = Some(op); // error completions may carry no valid opcode
                }
                if c.finished() {
                    // The last flush of a closing connection (later completions of its
                    // queue pair, from unsignaled requests, then read conn 0).
                    self.destroy(t, tag.expect("conn found by tag"));
                }
            }
        }
        let opcode = opcode.unwrap_or(if wc.opcode & ibv_wc_opcode::IBV_WC_RECV != 0 {
            WC_RECV
        } else {
            WC_SEND
        });
        // Only receives carry an immediate (rxe also flags the sender's completion).
        let has_imm = ok
            && matches!(opcode, WC_RECV | WC_RECV_WRITE_IMM)
            && wc.wc_flags & ibv_wc_flags::IBV_WC_WITH_IMM.0 != 0;
        Wc {
            wr_id: wc.wr_id,
            conn: cookie,
            status: wc.status,
            opcode,
            byte_len: wc.byte_len,
            imm: if has_imm {
                // SAFETY: both union variants are a u32; imm_data is the one set WITH_IMM.
                u32::from_be(unsafe { wc.imm_data_invalidated_rkey_union.imm_data })
            } else {
                0
            },
            has_imm: has_imm as u32,
            vendor_err: wc.vendor_err,
        }
    }

    /// Called by Drop: disconnect and destroy everything, children before parents.
    fn teardown(&mut self) {
        let mut t = mem::take(&mut *self.tables());
        let tags: Vec<u64> = t.conns.tags().collect();
        for tag in tags {
            if let Some(c) = t.conns.get(&tag) {
                if c.state == State::Established {
                    // SAFETY: the id is live and connected: tell the peer.
                    unsafe { rdma_disconnect(c.id) };
                }
            }
            self.destroy(&mut t, tag);
        }
        for mr in t.mrs.drain() {
            // SAFETY: a live ibv_mr of ours.
            unsafe { ibv_dereg_mr(mr as *mut ibv_mr) };
        }
        // SAFETY: each object is ours, non-NULL when destroyed, destroyed once, after
        // everything that uses it (QPs before SRQ/CQ, CQ before its channel, all of them
        // before our hold on the PD goes, every id before the event channel).
        unsafe {
            if !self.listener.is_null() {
                rdma_destroy_id(self.listener);
                self.listener = ptr::null_mut();
            }
            if !self.srq.is_null() {
                ibv_destroy_srq(self.srq);
                self.srq = ptr::null_mut();
            }
            if !self.cq.is_null() {
                ibv_destroy_cq(self.cq);
                self.cq = ptr::null_mut();
            }
            if !self.comp.is_null() {
                ibv_destroy_comp_channel(self.comp);
                self.comp = ptr::null_mut();
            }
        }
        // Deallocated here unless another context holds it too (see the module's doc).
        if let Some(pd) = self.pd.take() {
            let others = Arc::strong_count(&pd) - 1;
            if others > 0 {
                trace!("close: the PD stays, {others} other context(s) use it");
            }
            drop(pd);
        }
        // SAFETY: every id (the listener's and the connections') is destroyed above.
        unsafe {
            if !self.ec.is_null() {
                rdma_destroy_event_channel(self.ec);
                self.ec = ptr::null_mut();
            }
        }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        self.teardown();
    }
}

fn fmt_ip(ip: &[u8; 16]) -> String {
    if is_v4_mapped(ip) {
        std::net::Ipv4Addr::new(ip[12], ip[13], ip[14], ip[15]).to_string()
    } else {
        std::net::Ipv6Addr::from(*ip).to_string()
    }
}

/// The `open` error reason into the caller's buffer.
pub(crate) fn report(err: *mut c_char, err_len: usize, msg: &str) {
    set_err(err, err_len, msg);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signaled(wr_id: u64, opcode: u32) -> Desc {
        // SAFETY: plain old data; zero is NULL pointers.
        let mut d: Desc = unsafe { mem::zeroed() };
        d.wr_id = wr_id;
        d.opcode = opcode;
        d.flags = FLAG_SIGNALED;
        d
    }

    /// siw completes a write posted after a read before the read: the queue retires up to
    /// the oldest request not complete, and all of it once the read completes.
    #[test]
    fn completions_out_of_posting_order_retire_the_queue() {
        let mut c = Conn::new(ptr::null_mut(), State::Established);
        c.count_posted(&signaled(1, OP_READ));
        let mut quiet = signaled(2, OP_SEND);
        quiet.flags = 0;
        c.count_posted(&quiet);
        c.count_posted(&signaled(3, OP_WRITE));
        c.count_posted(&signaled(4, OP_WRITE));
        assert_eq!(c.completed(3), Some(WC_WRITE));
        assert_eq!(c.retired, 0, "the read before it is not complete");
        assert_eq!(
            c.completed(2),
            None,
            "an unsignaled request retires nothing"
        );
        assert_eq!(c.completed(1), Some(WC_READ));
        assert_eq!(
            c.retired, 3,
            "read, send and the write that completed first"
        );
        assert_eq!(c.completed(4), Some(WC_WRITE));
        assert_eq!((c.retired, c.signaled.len()), (4, 0));
        assert_eq!(c.completed(4), None, "a completion is taken once");
    }
}
