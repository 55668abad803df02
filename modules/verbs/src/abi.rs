//! The interface between `libmpi.so.12` and the verbs module (`librailmpi_verbs.so`), in C
//! types only: the module is loaded with `dlopen` at run time (so that libmpi never needs
//! libibverbs to load) and hands back one table of functions, `Ops`. This file is the one
//! definition both sides compile (libmpi includes it by path).
//!
//! The shape is UCT-like and descriptor-based: a context per device port (protection
//! domain, its own or another context's, one completion queue with its completion channel,
//! one shared receive queue, an rdma_cm event channel and listener), connections made and
//! accepted through rdma_cm, memory regions whose keys belong to the protection domain, one
//! `Desc` per posted work request and one `Wc` per completion. Every decision (which peer,
//! when to connect, who wins a simultaneous connect, what a message means) stays in
//! libmpi's `fabric/verbs`; the module only turns descriptors into verbs calls.
//!
//! Every function returns 0 or a positive errno (negative counts are never used: counts are
//! returned through out-parameters), and never unwinds.

#![allow(dead_code)]

use std::ffi::c_char;

/// Bumped whenever a type or the table below changes; libmpi refuses another version.
pub const ABI_VERSION: u32 = 6;

/// The symbol the module exports: `extern "C" fn() -> *const Ops`.
pub const ENTRY_SYMBOL: &[u8] = b"railmpi_verbs_ops\0";

/// Opaque per-port context (owned by the module).
#[repr(C)]
pub struct Ctx {
    _private: [u8; 0],
}

/// Transports, as `ibv_port_attr.link_layer` and the device's node type tell them apart.
pub const TRANSPORT_IB: u32 = 0;
pub const TRANSPORT_ROCE: u32 = 1;
pub const TRANSPORT_IWARP: u32 = 2;

/// ODP capability bits (`ibv_odp_caps.per_transport_caps.rc_odp_caps`, as offered).
pub const ODP_SEND: u32 = 1;
pub const ODP_RECV: u32 = 2;
pub const ODP_WRITE: u32 = 4;
pub const ODP_READ: u32 = 8;
pub const ODP_ATOMIC: u32 = 16;
/// Implicit ODP (one MR for the whole address space).
pub const ODP_IMPLICIT: u32 = 32;

/// soft-iWARP's vendor id (ASCII "bmt").
pub const VENDOR_SIW: u32 = 0x626d74;

/// One device port as `ibv_query_device(_ex)` and `ibv_query_port` describe it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PortInfo {
    /// NUL-terminated device name (`rxe0`, `mlx5_0`, `siw0`).
    pub name: [u8; 64],
    pub port: u32,
    /// `TRANSPORT_*`.
    pub transport: u32,
    /// `IBV_PORT_ACTIVE` or not.
    pub active: u32,
    /// Active MTU in bytes.
    pub mtu: u32,
    /// Link speed, megabits per second (width × lane speed).
    pub speed_mbps: u64,
    pub max_qp_wr: u32,
    pub max_sge: u32,
    pub max_sge_rd: u32,
    pub max_srq_wr: u32,
    /// Largest inline send the device accepted when a test queue pair was created.
    pub max_inline: u32,
    /// Native 64-bit remote atomics (`IBV_ATOMIC_HCA` or `_GLOB`).
    pub atomics: u32,
    /// `ODP_*` bits (0: no on-demand paging).
    pub odp: u32,
    pub max_mr_size: u64,
    pub max_qp_rd_atom: u32,
    /// `ibv_device_attr.vendor_id` (`VENDOR_SIW`: soft-iWARP).
    pub vendor_id: u32,
    /// GID index rdma_cm will use (RoCE v2 where the port has one), -1 if none.
    pub gid_index: i32,
    pub gid: [u8; 16],
    /// The IP address bound to the port (IPv4-mapped IPv6 or IPv6 bytes), from the GID
    /// table (RoCE) or the netdev (iWARP); all zero if none.
    pub ip: [u8; 16],
    /// NUL-terminated firmware version.
    pub fw_ver: [u8; 64],
}

/// What `open` needs.
#[repr(C)]
pub struct OpenParams {
    /// NUL-terminated device name and the port.
    pub device: *const c_char,
    pub port: u32,
    /// Completion queue depth (sends, reads, writes, atomics and receives of every
    /// connection together).
    pub cq_depth: u32,
    /// Send queue depth per connection (work requests outstanding).
    pub sq_depth: u32,
    /// Shared receive queue depth.
    pub srq_depth: u32,
    /// Inline bytes asked for on each queue pair.
    pub max_inline: u32,
    /// Scatter/gather entries asked for on each queue pair (send side).
    pub max_sge: u32,
    /// Retry timeout exponent (4.096 µs × 2^timeout) for the queue pairs; ≥ 20 between
    /// emulated hosts.
    pub timeout: u8,
    pub retry_count: u8,
    /// 7: retry forever on receiver-not-ready (the shared receive queue is empty).
    pub rnr_retry: u8,
    pub _pad: u8,
    /// Listen on this IP (16 bytes, IPv4-mapped for IPv4), port 0: any free one.
    pub listen_ip: [u8; 16],
    /// NULL: the context allocates its own protection domain. Otherwise an open context on
    /// the same device port, whose protection domain (and verbs device context) the new
    /// context uses: its queue pairs and shared receive queue are made in that domain, so
    /// the keys of every region registered through either context are valid on the queue
    /// pairs of both, as requester and as responder; `reg_mr` through either registers in
    /// the shared domain (each region is deregistered through, and with, the context that
    /// registered it). `open` fails (EXDEV) unless rdma_cm binds the new listener to the
    /// very device context of the one shared from. Close the sharing context before the
    /// one it borrows from; closing them the other way round is tolerated (the domain is
    /// reference-counted and freed with the last context that uses it), but the owner's
    /// regions go with it, and their keys stop working on the sharer's queue pairs. `open`
    /// only reads the shared context, which may meanwhile be used by another thread.
    pub share_pd: *mut Ctx,
}

/// A memory region: `handle` for `dereg_mr`, the keys for descriptors.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
pub struct Mr {
    pub handle: u64,
    pub lkey: u32,
    pub rkey: u32,
}

/// Access bits for `reg_mr` (local write always).
pub const ACCESS_REMOTE_READ: u32 = 1;
pub const ACCESS_REMOTE_WRITE: u32 = 2;
pub const ACCESS_REMOTE_ATOMIC: u32 = 4;
/// `IBV_ACCESS_ON_DEMAND`.
pub const ACCESS_ON_DEMAND: u32 = 8;

/// Prefetch directions for `advise_mr`.
pub const ADVISE_READ: u32 = 0;
pub const ADVISE_WRITE: u32 = 1;

/// A scatter/gather entry.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
pub struct Sge {
    pub addr: u64,
    pub len: u32,
    pub lkey: u32,
}

/// Work request opcodes.
pub const OP_SEND: u32 = 0;
pub const OP_SEND_IMM: u32 = 1;
pub const OP_WRITE: u32 = 2;
pub const OP_WRITE_IMM: u32 = 3;
pub const OP_READ: u32 = 4;
pub const OP_FETCH_ADD: u32 = 5;
pub const OP_CMP_SWAP: u32 = 6;

/// Descriptor flags.
pub const FLAG_SIGNALED: u32 = 1;
pub const FLAG_INLINE: u32 = 2;
/// Wait for earlier reads and atomics on this connection first (`IBV_SEND_FENCE`).
pub const FLAG_FENCE: u32 = 4;
/// A message whose receive completion raises an event on a queue armed for solicited
/// completions only (`IBV_SEND_SOLICITED`; see `arm`).
pub const FLAG_SOLICITED: u32 = 8;

/// One work request. Atomics: one 8-byte `sge` receives the old value; `compare_add` is
/// the addend (fetch-and-add) or the compare value, `swap` the swap value.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Desc {
    pub wr_id: u64,
    pub opcode: u32,
    pub flags: u32,
    pub sge: *const Sge,
    pub num_sge: u32,
    /// Immediate word (host order; the module converts).
    pub imm: u32,
    pub remote_addr: u64,
    pub rkey: u32,
    pub _pad: u32,
    pub compare_add: u64,
    pub swap: u64,
}

/// Completion opcodes (what finished).
pub const WC_SEND: u32 = 0;
pub const WC_WRITE: u32 = 1;
pub const WC_READ: u32 = 2;
pub const WC_ATOMIC: u32 = 3;
/// A receive (from the shared receive queue): `byte_len` bytes, `imm` valid if `has_imm`.
pub const WC_RECV: u32 = 4;
/// A write with immediate arrived (consumed a receive; no bytes in the receive buffer).
pub const WC_RECV_WRITE_IMM: u32 = 5;

/// One completion. `status` 0 is success, else `ibv_wc_status` (text: `status_str`).
/// `conn` is the cookie the connection was made or accepted with (for receives: the
/// connection the message came on; for a flushed or failed request: its connection).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Wc {
    pub wr_id: u64,
    pub conn: u64,
    pub status: u32,
    pub opcode: u32,
    pub byte_len: u32,
    pub imm: u32,
    pub has_imm: u32,
    pub vendor_err: u32,
}

/// rdma_cm events (`cm_event`).
pub const CM_NONE: u32 = 0;
/// A peer asks to connect: `conn` is a new connection handle (not yet accepted), the
/// peer's private data is in `data[..data_len]`; answer with `accept` or `reject`.
pub const CM_REQUEST: u32 = 1;
/// The connection `conn` is up (both sides).
pub const CM_ESTABLISHED: u32 = 2;
/// Our connect was refused (`reject` at the peer, or no listener), `data` has the peer's
/// private data if any.
pub const CM_REJECTED: u32 = 3;
/// The connection ended (peer disconnect or error); its queue pair's requests flush.
pub const CM_DISCONNECTED: u32 = 4;
/// Address or route resolution, or the connection, failed: `status` has the cm event
/// code (`RDMA_CM_EVENT_*`) and `error` the errno-like status.
pub const CM_ERROR: u32 = 5;

/// Largest private data carried by a connect request or a reject (rdma_cm's RC limit is
/// 56 bytes for connect, 148 for reject; keep to the smaller).
pub const PRIVATE_DATA: usize = 56;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct CmEvent {
    pub kind: u32,
    pub status: i32,
    pub error: i32,
    pub data_len: u32,
    /// The connection's cookie (`connect`'s or `accept`'s), or for `CM_REQUEST` the new
    /// connection handle to pass to `accept`/`reject`.
    pub conn: u64,
    pub data: [u8; PRIVATE_DATA],
}

/// A socket address for rdma_cm: IPv4-mapped IPv6 bytes and a port (host order).
#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Addr {
    pub ip: [u8; 16],
    pub port: u16,
    pub _pad: [u8; 6],
}

/// The function table. Every pointer is valid for the life of the process; `Ctx` pointers
/// are used by one thread at a time except `wait_fds`, `ack_events` and `poll`'s callers,
/// which libmpi serialises itself.
#[repr(C)]
pub struct Ops {
    pub version: u32,
    pub size: u32,
    /// The ports of every device, up to `max`; `*count` is set to how many exist.
    pub query: unsafe extern "C" fn(out: *mut PortInfo, max: usize, count: *mut usize) -> i32,
    /// Open a context on one port; on failure `err` holds a NUL-terminated reason.
    pub open: unsafe extern "C" fn(
        params: *const OpenParams,
        out: *mut *mut Ctx,
        err: *mut c_char,
        err_len: usize,
    ) -> i32,
    /// Destroy every connection, region and queue of the context (its protection domain
    /// too, unless another open context shares it: see `OpenParams::share_pd`).
    pub close: unsafe extern "C" fn(ctx: *mut Ctx),
    /// The listener's address (after `open`).
    pub listen_addr: unsafe extern "C" fn(ctx: *mut Ctx, out: *mut Addr) -> i32,
    /// File descriptors to sleep on: [0] the completion channel (readable once the queue
    /// was armed and a completion came: call `ack_events`, then `poll`), [1] the rdma_cm
    /// channel (readable: call `cm_event`). Both non-blocking.
    pub wait_fds: unsafe extern "C" fn(ctx: *mut Ctx, out: *mut i32) -> i32,
    /// Consume completion-channel events; with `rearm` non-zero, arm the completion queue
    /// for the next (else it stays quiet until `arm`).
    pub ack_events: unsafe extern "C" fn(ctx: *mut Ctx, rearm: i32) -> i32,
    /// Arm the completion queue: its next completion makes the channel readable (what a
    /// process does before it sleeps; then it polls once more, as a completion that came
    /// before the arming raises no event). With `solicited_only` non-zero, only a message
    /// sent with `FLAG_SOLICITED` (or a failed request) does.
    pub arm: unsafe extern "C" fn(ctx: *mut Ctx, solicited_only: i32) -> i32,
    /// Start connecting to `to` with `data[..len]` as private data; the connection is
    /// named `cookie` in every later event and completion.
    pub connect: unsafe extern "C" fn(
        ctx: *mut Ctx,
        to: *const Addr,
        data: *const u8,
        len: usize,
        cookie: u64,
    ) -> i32,
    /// Accept request `handle` (from `CM_REQUEST`); later events name it `cookie`.
    pub accept: unsafe extern "C" fn(ctx: *mut Ctx, handle: u64, cookie: u64) -> i32,
    /// Refuse request `handle` with `data[..len]` as the reject's private data.
    pub reject: unsafe extern "C" fn(ctx: *mut Ctx, handle: u64, data: *const u8, len: usize)
        -> i32,
    /// Disconnect and destroy the connection `cookie` (its requests flush).
    pub disconnect: unsafe extern "C" fn(ctx: *mut Ctx, cookie: u64) -> i32,
    /// The next rdma_cm event, or `kind == CM_NONE` when none waits (never blocks). The
    /// module handles address and route resolution itself.
    pub cm_event: unsafe extern "C" fn(ctx: *mut Ctx, out: *mut CmEvent) -> i32,
    /// Register `[addr, addr+len)` with `ACCESS_*` bits.
    pub reg_mr:
        unsafe extern "C" fn(ctx: *mut Ctx, addr: u64, len: u64, access: u32, out: *mut Mr) -> i32,
    pub dereg_mr: unsafe extern "C" fn(ctx: *mut Ctx, handle: u64) -> i32,
    /// Prefetch an ODP region's pages (`ibv_advise_mr`, `ADVISE_*`).
    pub advise_mr: unsafe extern "C" fn(
        ctx: *mut Ctx,
        handle: u64,
        addr: u64,
        len: u32,
        advice: u32,
    ) -> i32,
    /// Post `n` work requests, in order, on the connection `cookie` with one doorbell;
    /// `*posted` says how many went: all (0 returned), or those before the first that could
    /// not (ENOMEM: the send queue is full; EINVAL: the adapter refuses that one).
    pub post: unsafe extern "C" fn(
        ctx: *mut Ctx,
        cookie: u64,
        descs: *const Desc,
        n: usize,
        posted: *mut usize,
    ) -> i32,
    /// Post one receive buffer to the shared receive queue.
    pub post_recv: unsafe extern "C" fn(ctx: *mut Ctx, wr_id: u64, sge: *const Sge) -> i32,
    /// Up to `max` completions into `out`; `*count` how many.
    pub poll: unsafe extern "C" fn(ctx: *mut Ctx, out: *mut Wc, max: usize, count: *mut usize)
        -> i32,
    /// `ibv_wc_status_str`.
    pub status_str: unsafe extern "C" fn(status: u32) -> *const c_char,
}
