//! The point-to-point protocol engine: eager, rendezvous by RDMA read (RGET), RDMA write
//! (RPUT), the pipeline of Woodall 2006 (§4; with cached block registrations, §5.2) and the
//! streamed copy path for rails without RDMA.
//!
//! Sans-I/O in the sense that matters: packets come in through `on_packet` and completions
//! of posted RDMA operations through `on_completion`; every reply goes to an outbound queue
//! that `flush` hands to a rail; RDMA reads and writes (and the registrations and
//! prefetches around them) are queued too and posted by `run_rdma`, naming the peer's
//! memory by the remote key its RTS, PUT_REQ or READY carried. Nothing here blocks or
//! knows about MPI handles.
//!
//! Buffers are raw pointers into the application's memory. MPI's rules make that sound: a
//! buffer handed to a nonblocking call stays valid and untouched until its request
//! completes, and the ABI layer checked that `(buf, len)` describes the buffer.

use super::buffer::{self, MsgBuf, Run, TableError, MAX_RUN_TABLE, RUN_ENTRY};
use super::matching::{Envelope, MatchQueues, Pattern};
use super::request::{Bounce, Kind, RecvState, ReqId, Request, SendWait, Slab, Status};
use super::wire::{self, MatchHeader, Packet};
use crate::channel::{Channels, Event};
use crate::fabric::{Completion, RailError, RemoteKey, Span};
use crate::registration::{Access, Mode, RegPolicy, Registration, Registry};
use std::collections::{HashMap, VecDeque};

/// Protocol settings, fixed at start-up.
#[derive(Clone, Debug)]
pub struct ProtocolSettings {
    /// Largest payload sent eagerly (clamped to what one rail message holds).
    pub eager_limit: usize,
    /// Use RDMA read for rendezvous when the rail offers it.
    pub rdma: bool,
    /// From this many bytes on, an RDMA rendezvous is split: the receiver reads the first
    /// half while the sender writes the second, so both cores copy (0: never split).
    /// `Rndv::Auto` only.
    pub split_threshold: usize,
    /// How rendezvous payloads move; the receiver picks when it matches the RTS — except
    /// the pipeline, which the sender picks (it sends data before any reply).
    pub rndv: Rndv,
    /// Pipeline geometry (`Rndv::Pipeline`, `Rndv::PipelineCached`).
    pub pipeline: PipelineSettings,
}

/// The pipeline protocol's geometry (Woodall 2006, §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipelineSettings {
    /// Bytes per RDMA block: each is registered, written and deregistered on its own.
    pub frag: usize,
    /// Blocks registered (READY sent, FIN awaited) at once per message.
    pub depth: usize,
    /// Bytes after the eager part sent through the channel (RNDV_DATA) while the first
    /// blocks are registered: the RDMA offset of the ACK is eager part + this.
    pub send_length: usize,
}

impl Default for PipelineSettings {
    fn default() -> Self {
        // The defaults of RAILMPI_PIPELINE_* (see config.rs for why these values).
        PipelineSettings {
            frag: 1 << 20,
            depth: 4,
            send_length: 128 << 10,
        }
    }
}

/// Rendezvous protocols (`RAILMPI_RNDV_PROTOCOL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rndv {
    /// RGET, split with an RPUT of the tail from `split_threshold` bytes on.
    #[default]
    Auto,
    /// Copy in/out: the sender streams the payload through the channel (CTS, RNDV_DATA).
    Copy,
    /// RGET: the receiver reads the sender's buffer, then FIN.
    Get,
    /// RPUT: the receiver names its buffer (PUT_REQ), the sender writes it (PUT_DONE),
    /// then FIN.
    Put,
    /// Pipeline (Woodall 2006, §4): the eager part rides with the MATCH header
    /// (PIPE_RTS); the receiver ACKs with the RDMA offset, the sender streams up to it, and
    /// the receiver registers blocks (at most `depth` at once) and READYs each; the sender
    /// registers its block, writes it and sends FIN(block). Every block is registered
    /// bypassing the registration cache. Chosen by the sender for contiguous payloads
    /// (others send a plain RTS, which a receiver with this setting reads: RGET).
    Pipeline,
    /// The pipeline with block registrations kept in the cache, aligned to the block size
    /// so that later transfers over the same memory reuse them (Woodall 2006, §5.2).
    PipelineCached,
}

impl Rndv {
    /// Whether pipeline blocks are registered through the cache: the caching pipeline,
    /// and `Auto`, which sees reuse by finding a buffer's blocks cached.
    fn caches_blocks(self) -> bool {
        self != Rndv::Pipeline
    }
}

/// An unmatched arrival.
enum Unexpected {
    Eager {
        peer: usize,
        data: Vec<u8>,
        sync: Option<u64>,
    },
    Rts {
        peer: usize,
        hdr: MatchHeader,
        rts: RtsRef,
    },
    /// A pipeline's MATCH header and eager part (Woodall 2006, §4).
    PipeRts {
        peer: usize,
        hdr: MatchHeader,
        data: Vec<u8>,
    },
}

/// Where an RTS says the sender's payload is: at `addr` (or in the runs of the
/// `entries`-long table at `addr`, registered under `table_rkey`), in memory registered
/// under `rkey` (none: not registered, so it must be streamed).
#[derive(Clone, Copy)]
struct RtsRef {
    addr: u64,
    rkey: RemoteKey,
    entries: u64,
    table_rkey: RemoteKey,
}

/// Where a queued matching packet's payload is.
#[derive(Clone, Copy)]
enum Payload {
    Contig(*const u8, usize),
    /// Gathered from the runs of this (pending) send request.
    Runs(ReqId),
}

/// One item waiting to go out to a peer.
enum Outbound {
    /// Matching packet (EAGER/RTS): header bytes plus the payload (empty for RTS).
    Match {
        head: [u8; wire::RTS_RUNS_LEN],
        head_len: u8,
        payload: Payload,
        req: Option<ReqId>,
    },
}

/// A streamed rendezvous payload (copy path), or a streamed stretch of a pipeline, in
/// progress: bytes `[start, len)` of the send request's buffer, `[start, sent)` out.
struct Stream {
    peer: usize,
    receiver_req: u64,
    start: usize,
    len: usize,
    sent: usize,
    req: ReqId,
    /// Part of a pipeline: when done, credit the pipeline instead of completing the send.
    pipeline: bool,
}

/// The sender's side of a pipeline (Woodall 2006, §4), keyed by the send request.
struct PipeSend {
    /// Block registrations go to the cache (§5.2).
    cached: bool,
    /// Bytes sent with the MATCH header.
    eager: u64,
    /// From the receiver's ACK: its request, where the RDMA blocks begin, and where the
    /// receive buffer ends (bytes past it are skipped: truncation).
    acked: bool,
    receiver_req: u64,
    rdma_offset: u64,
    limit: u64,
    /// Bytes of `[eager, limit)` not yet delivered (written, or streamed and out).
    left: u64,
    /// Bytes READY has asked for: never more than `[rdma_offset, limit)` holds.
    asked: u64,
}

/// One registered block of a pipeline's receive buffer, READY sent, FIN awaited.
struct Block {
    offset: u64,
    len: u64,
    /// Released on FIN (Woodall 2006, §4).
    _reg: Vec<Registration>,
}

/// The receiver's side of a pipeline, keyed by the receive request.
struct PipeRecv {
    peer: usize,
    sender_req: u64,
    cached: bool,
    /// The (contiguous) receive buffer; 0 when every byte is streamed.
    base: u64,
    /// Streamed bytes land in `[stream_from, limit)` (after the eager part).
    stream_from: u64,
    /// The message bytes the buffer takes.
    limit: u64,
    /// The next block begins here (`limit`: all registered).
    next: u64,
    blocks: Vec<Block>,
    /// Bytes of `[stream_from, limit)` not arrived yet.
    left: u64,
}

/// odp-optimal on a receive buffer the peer writes (RPUT, pipeline blocks): we prefetch
/// `[floor, cursor)` from the end backwards while the writer faults pages in from the
/// front, so the two cores share the first-touch work and meet in the middle; what the
/// writer reaches after that is resident and costs it a plain copy.
struct BackwardPrefetch {
    req: ReqId,
    base: u64,
    floor: u64,
    cursor: u64,
}

/// A READY the sender will answer: write block `[offset, offset + len)` to `addr`
/// (registered under `rkey` in the receiver).
struct PipeWrite {
    peer: usize,
    req: ReqId,
    receiver_req: u64,
    offset: u64,
    len: u64,
    addr: u64,
    rkey: RemoteKey,
}

/// Our part of an RDMA rendezvous: read `len` bytes at `offset` of the sender's message
/// (at `addr`, or in the runs of the `entries`-long table at `addr`; then `offset` is 0)
/// into the same offset of the receive buffer. `total` is the message length.
struct RdmaRead {
    peer: usize,
    req: ReqId,
    rts: RtsRef,
    total: u64,
    offset: usize,
    len: usize,
}

/// The sender's part of a split rendezvous: write `(local, len)` to `addr` (under `rkey`)
/// in the receiver.
struct RdmaWrite {
    peer: usize,
    local: *const u8,
    len: usize,
    addr: u64,
    rkey: RemoteKey,
    receiver_req: u64,
}

/// The payload read of a non-contiguous rendezvous, once the sender's run table is read
/// and checked: `len` bytes at `offset` of the receive buffer from the `remote` runs.
struct PayloadRead {
    peer: usize,
    req: ReqId,
    offset: usize,
    len: usize,
    remote: Vec<Span>,
    rkey: RemoteKey,
}

/// An RDMA operation posted to the rail, by its token, until its completion.
enum Posted {
    /// The first step of reading a non-contiguous payload: its run table, into `raw`.
    Table { rd: RdmaRead, raw: Box<[u8]> },
    /// Our read of (part of) a rendezvous payload into receive `req`.
    Read { req: ReqId },
    /// The sender's write of a split rendezvous's tail.
    Write { peer: usize, receiver_req: u64 },
    /// A pipeline block's write; its source registration is released on completion
    /// (Woodall 2006, §4).
    PipeWrite {
        w: PipeWrite,
        _reg: Vec<Registration>,
    },
}

#[derive(Default)]
struct PeerOut {
    /// Replies (FIN, CTS, SYNC_ACK): independent of matching order, sent first.
    control: VecDeque<([u8; wire::MAX_CONTROL], u8)>,
    /// EAGER and RTS in the order the application sent them (non-overtaking).
    matching: VecDeque<Outbound>,
}

impl PeerOut {
    fn is_empty(&self) -> bool {
        self.control.is_empty() && self.matching.is_empty()
    }
}

/// What a send call achieved at once.
pub enum SendStart {
    /// The payload is out of the user's buffer; nothing to wait for.
    Done,
    Pending(ReqId),
}

pub struct Pt2pt {
    me: usize,
    settings: ProtocolSettings,
    max_message: usize,
    reqs: Slab,
    mq: MatchQueues<ReqId, Unexpected>,
    out: Vec<PeerOut>,
    /// Peers with something in `out` (each listed once).
    busy_peers: Vec<usize>,
    streams: VecDeque<Stream>,
    reads: Vec<RdmaRead>,
    writes: Vec<RdmaWrite>,
    /// Pipelines in progress (Woodall 2006, §4): sends and receives by request, receives
    /// whose next blocks are due for registration, and READY'd blocks to write.
    pipes_out: HashMap<ReqId, PipeSend>,
    pipes_in: HashMap<ReqId, PipeRecv>,
    pipe_due: Vec<ReqId>,
    pipe_writes: Vec<PipeWrite>,
    /// Receive buffers the peer writes, prefetched from the end (odp-optimal).
    backward_prefetch: Vec<BackwardPrefetch>,
    /// RDMA operations posted and not completed, by token (see `track`).
    posted: Vec<(u32, Option<Posted>)>,
    free_posted: Vec<u32>,
    live_posted: usize,
    /// Payload reads due once their run table arrived.
    payload_reads: Vec<PayloadRead>,
    /// Non-contiguous rendezvous whose runs average fewer bytes than this (on either side)
    /// are streamed instead of read: CMA pins pages per iovec, which costs far more than
    /// copying a few bytes through the rings (0: always read).
    pub min_rdma_run: usize,
    /// Registration of rendezvous payloads (None: none, as in the engine tests), and the
    /// policy: pin-down or ODP, and when ODP prefetches (Li 2016 §VII).
    pub registry: Option<Registry>,
    pub reg_policy: RegPolicy,
    /// Count the pages each RDMA transfer finds not resident (costs a `mincore` per
    /// transfer; on with RAILMPI_STATS).
    pub count_faults: bool,
    /// Receives whose buffers odp-optimal prefetches once their control message is out.
    prefetch_due: Vec<ReqId>,
    /// Count of completed requests, so waiters can tell that something happened.
    pub completions: u64,
    /// Protocol violations seen from peers (dropped packets).
    pub bad_packets: u64,
}

// SAFETY: the raw pointers are application buffers owned by pending requests; the engine is
// only ever used under the runtime's lock, one thread at a time.
unsafe impl Send for Pt2pt {}

impl Pt2pt {
    pub fn new(me: usize, peers: usize, settings: ProtocolSettings, max_message: usize) -> Self {
        let mut settings = settings;
        settings.eager_limit = settings
            .eager_limit
            .min(max_message - wire::EAGER_SYNC_HEADER);
        Self {
            me,
            settings,
            max_message,
            reqs: Slab::default(),
            mq: MatchQueues::new(),
            out: (0..peers).map(|_| PeerOut::default()).collect(),
            busy_peers: Vec::new(),
            streams: VecDeque::new(),
            reads: Vec::new(),
            writes: Vec::new(),
            pipes_out: HashMap::new(),
            pipes_in: HashMap::new(),
            pipe_due: Vec::new(),
            pipe_writes: Vec::new(),
            backward_prefetch: Vec::new(),
            posted: Vec::new(),
            free_posted: Vec::new(),
            live_posted: 0,
            payload_reads: Vec::new(),
            min_rdma_run: 0,
            registry: None,
            reg_policy: RegPolicy::Pin,
            count_faults: false,
            prefetch_due: Vec::new(),
            completions: 0,
            bad_packets: 0,
        }
    }

    pub fn eager_limit(&self) -> usize {
        self.settings.eager_limit
    }

    // ---------------------------------------------------------------- sends

    /// Start a send of `len` bytes at `data` to rail peer `peer`.
    /// `sync`: complete only once matched (MPI_Ssend).
    ///
    /// # Safety
    /// `(data, len)` must stay readable and unchanged until the send completes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn send(
        &mut self,
        ch: &mut Channels,
        peer: usize,
        ctx: u32,
        src: i32,
        tag: i32,
        data: *const u8,
        len: usize,
        sync: bool,
    ) -> SendStart {
        // SAFETY: the caller's contract.
        unsafe { self.send_buf(ch, peer, ctx, src, tag, MsgBuf::contig(data, len), sync) }
    }

    /// Start a send of the bytes `data` describes (contiguous or runs).
    ///
    /// # Safety
    /// The memory `data` describes must stay readable and unchanged until the send
    /// completes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn send_buf(
        &mut self,
        ch: &mut Channels,
        peer: usize,
        ctx: u32,
        src: i32,
        tag: i32,
        mut data: MsgBuf,
        sync: bool,
    ) -> SendStart {
        let len = data.len();
        let eager = len <= self.settings.eager_limit;
        let hdr = MatchHeader {
            ctx,
            src,
            tag,
            len: len as u64,
            sender_req: 0,
            flags: if sync { wire::FLAG_SYNC } else { 0 },
        };
        if eager && !sync && peer != self.me && self.out[peer].is_empty() {
            // Fast path: straight into the ring, no request at all; runs are gathered
            // into the ring cell.
            let (head, n) = wire::eager_header(&hdr);
            let sent = match &mut data {
                // SAFETY: (ptr, len) is the caller's send buffer (module contract).
                MsgBuf::Contig { ptr, len } => {
                    ch.try_send(peer, &[&head[..n], unsafe { slice(*ptr, *len) }])
                }
                runs => {
                    let mut parts = vec![&head[..n]];
                    // SAFETY: the runs are the caller's send buffer (module contract).
                    unsafe { runs.gather(0, len, &mut parts) };
                    ch.try_send(peer, &parts)
                }
            };
            if sent {
                return SendStart::Done;
            }
        }
        // SAFETY: the caller's contract.
        unsafe { self.send_queued(ch, peer, hdr, data, sync) }
    }

    /// A send that needs a request: rendezvous, synchronous, or queued behind others.
    /// Out of line, so the eager fast path above stays small.
    ///
    /// # Safety
    /// As for `send_buf`.
    #[inline(never)]
    unsafe fn send_queued(
        &mut self,
        ch: &mut Channels,
        peer: usize,
        mut hdr: MatchHeader,
        mut data: MsgBuf,
        sync: bool,
    ) -> SendStart {
        let len = data.len();
        let eager = len <= self.settings.eager_limit;
        // Runs too small to read one by one go packed, once: the receiver then reads one
        // range (and a split rendezvous lets both cores share the copy).
        let bounce = if !eager
            && peer != self.me
            && self.settings.rdma
            && data.mean_run() < self.min_rdma_run
        {
            // SAFETY: the runs are the caller's send buffer (module contract).
            let bytes = unsafe { data.pack() };
            data = MsgBuf::contig(bytes.as_ptr(), len);
            Some(Bounce {
                bytes,
                unpack_to: None,
            })
        } else {
            None
        };
        // The pipeline is the sender's choice: it sends data before the receiver says
        // anything (Woodall 2006, §4). A contiguous payload only (packed runs included):
        // READY names a block by its offset, and the sender writes it from one range.
        let pipeline = !eager
            && peer != self.me
            && self.settings.rdma
            && data.is_contiguous()
            && match self.settings.rndv {
                Rndv::Pipeline | Rndv::PipelineCached => true,
                Rndv::Auto => self.auto_pipelines(&data),
                _ => false,
            };
        let reg = if eager || peer == self.me || pipeline {
            // The pipeline registers block by block as READYs come.
            None
        } else {
            Self::register_payload(&self.registry, self.reg_policy, &data, Access::Read)
                .map(Box::new)
        };
        let wait = if pipeline {
            SendWait::Pipeline
        } else if !eager {
            SendWait::Rendezvous
        } else if sync {
            SendWait::SyncAck
        } else {
            SendWait::Queued
        };
        // A run table lives in the request (boxed: its address stays put) until FIN, and
        // is registered for the receiver to read it.
        let (contig, table) = match &data {
            MsgBuf::Contig { ptr, len } => (Some((*ptr as *const u8, *len)), None),
            MsgBuf::Runs { runs, .. } => (None, Some((runs.as_ptr() as u64, runs.len() as u64))),
        };
        let table_reg = match (&reg, table) {
            (Some(_), Some((addr, entries))) => Self::register_payload(
                &self.registry,
                self.reg_policy,
                &MsgBuf::contig(addr as *const u8, entries as usize * RUN_ENTRY),
                Access::Read,
            )
            .map(Box::new),
            _ => None,
        };
        let rkey = reg.as_ref().map_or(RemoteKey::NONE, |g| g.remote_key());
        let table_rkey = table_reg
            .as_ref()
            .map_or(RemoteKey::NONE, |g| g.remote_key());
        let req = self.reqs.insert(Request {
            kind: Kind::Send { peer, wait },
            done: false,
            freed: false,
            status: Status {
                count: len,
                ..Status::default()
            },
            data,
            owner: 0,
            bounce,
            reg,
            table_reg,
        });
        hdr.sender_req = req;
        let mut head = [0u8; wire::RTS_RUNS_LEN];
        let none = Payload::Contig(std::ptr::null(), 0);
        let (head_len, payload, complete_when_sent) =
            if let (true, Some((p, _))) = (pipeline, contig) {
                // The first part of the message rides with the MATCH header.
                let part = self
                    .settings
                    .eager_limit
                    .min(self.max_message - wire::PIPE_RTS_HEADER)
                    .min(len);
                head[..wire::PIPE_RTS_HEADER].copy_from_slice(&wire::pipe_rts_header(&hdr));
                self.pipes_out.insert(
                    req,
                    PipeSend {
                        cached: self.settings.rndv.caches_blocks(),
                        eager: part as u64,
                        acked: false,
                        receiver_req: 0,
                        rdma_offset: 0,
                        limit: 0,
                        left: 0,
                        asked: 0,
                    },
                );
                (wire::PIPE_RTS_HEADER, Payload::Contig(p, part), false)
            } else if eager {
                let (h, n) = wire::eager_header(&hdr);
                head[..n].copy_from_slice(&h[..n]);
                let payload = match contig {
                    Some((p, n)) => Payload::Contig(p, n),
                    None => Payload::Runs(req),
                };
                (n, payload, !sync)
            } else if let Some((addr, entries)) = table {
                head.copy_from_slice(&wire::rts_runs(&hdr, addr, table_rkey.0, entries, rkey.0));
                (wire::RTS_RUNS_LEN, none, false)
            } else {
                let addr = contig.map_or(0, |(p, _)| p as u64);
                head[..wire::RTS_LEN].copy_from_slice(&wire::rts(&hdr, addr, rkey.0));
                (wire::RTS_LEN, none, false)
            };
        self.queue(
            peer,
            Outbound::Match {
                head,
                head_len: head_len as u8,
                payload,
                req: complete_when_sent.then_some(req),
            },
        );
        self.flush_peer(ch, peer);
        if !eager && !pipeline && self.reg_policy == RegPolicy::OdpOptimal {
            // The RTS is out: fault the payload in while the receiver answers.
            self.prefetch_request(req, Access::Read);
        }
        SendStart::Pending(req)
    }

    /// `Auto`'s choice for a contiguous rendezvous payload: the (caching) pipeline where
    /// registering costs about what the copy does — pin-down, whose `mlock` faults in and
    /// pins every page — and the buffer is fresh (its first block is not in the cache), so
    /// that registration overlaps the transfer (Woodall 2006, §4). A reused buffer finds
    /// its blocks cached and takes the split rendezvous, the fastest on registered memory;
    /// so does everything under ODP, where the split already has both cores fault in
    /// pages (measured in `make bench`'s registration sweeps).
    fn auto_pipelines(&self, data: &MsgBuf) -> bool {
        let (Some(registry), Some((addr, len))) = (&self.registry, data.span()) else {
            return false;
        };
        let frag = self.settings.pipeline.frag.max(1);
        self.reg_policy.mode() == Mode::Pin
            && len > frag
            && !registry.is_cached(addr, (addr / frag + 1) * frag - addr)
    }

    fn queue(&mut self, peer: usize, item: Outbound) {
        if self.out[peer].is_empty() {
            self.busy_peers.push(peer);
        }
        self.out[peer].matching.push_back(item);
    }

    fn queue_control(&mut self, peer: usize, pkt: ([u8; wire::MAX_CONTROL], usize)) {
        if self.out[peer].is_empty() {
            self.busy_peers.push(peer);
        }
        self.out[peer].control.push_back((pkt.0, pkt.1 as u8));
    }

    // ---------------------------------------------------------------- receives

    /// Post a receive into `(buf, cap)`. Returns the request (possibly already complete).
    ///
    /// # Safety
    /// `(buf, cap)` must stay writable, and untouched by others, until the receive completes.
    pub unsafe fn recv(&mut self, pat: Pattern, buf: *mut u8, cap: usize) -> ReqId {
        // SAFETY: the caller's contract.
        unsafe { self.recv_buf(pat, MsgBuf::contig(buf, cap)) }
    }

    /// Post a receive into the memory `data` describes (contiguous or runs).
    ///
    /// # Safety
    /// That memory must stay writable, and untouched by others, until the receive completes.
    pub unsafe fn recv_buf(&mut self, pat: Pattern, data: MsgBuf) -> ReqId {
        let req = self.reqs.insert(Request {
            kind: Kind::Recv(RecvState::Posted),
            done: false,
            freed: false,
            status: Status::default(),
            data,
            owner: 0,
            bounce: None,
            reg: None,
            table_reg: None,
        });
        if let Some((env, msg)) = self.mq.post(pat, req) {
            self.deliver_unexpected(req, env, msg);
        }
        req
    }

    /// Blocking-receive fast path: if a matching eager message is already here, copy it
    /// out without creating a request.
    ///
    /// # Safety
    /// The memory `data` describes must be writable.
    pub unsafe fn try_recv_now(&mut self, pat: &Pattern, data: &mut MsgBuf) -> Option<Status> {
        let (_, first) = self.mq.peek_unexpected(pat)?;
        if !matches!(first, Unexpected::Eager { .. }) {
            return None;
        }
        let (env, msg) = self.mq.take_unexpected(pat)?;
        let Unexpected::Eager {
            peer,
            data: payload,
            sync,
        } = msg
        else {
            unreachable!()
        };
        if let Some(s) = sync {
            self.queue_control(peer, wire::sync_ack(s));
        }
        // SAFETY: the caller's contract.
        Some(unsafe { copy_out(&env, &payload, data) })
    }

    fn deliver_unexpected(&mut self, req: ReqId, env: Envelope, msg: Unexpected) {
        match msg {
            Unexpected::Eager { peer, data, sync } => {
                if let Some(s) = sync {
                    self.queue_control(peer, wire::sync_ack(s));
                }
                let r = self.reqs.get_mut(req).expect("just inserted");
                // SAFETY: the posted receive's buffer (module contract).
                r.status = unsafe { copy_out(&env, &data, &mut r.data) };
                self.complete(req);
            }
            Unexpected::Rts { peer, hdr, rts } => self.start_rendezvous(req, peer, &hdr, rts),
            Unexpected::PipeRts { peer, hdr, data } => self.start_pipeline(req, peer, &hdr, &data),
        }
    }

    /// Probe: the envelope and size of the first matching unexpected message.
    pub fn iprobe(&self, pat: &Pattern) -> Option<Status> {
        let (env, msg) = self.mq.peek_unexpected(pat)?;
        let count = match msg {
            Unexpected::Eager { data, .. } => data.len(),
            Unexpected::Rts { hdr, .. } | Unexpected::PipeRts { hdr, .. } => hdr.len as usize,
        };
        Some(Status {
            source: env.src,
            tag: env.tag,
            count,
            ..Status::default()
        })
    }

    /// Withdraw a posted receive. True if it was cancelled (not yet matched).
    pub fn cancel_recv(&mut self, req: ReqId) -> bool {
        if self.mq.cancel(req) {
            if let Some(r) = self.reqs.get_mut(req) {
                r.status.cancelled = true;
            }
            self.complete(req);
            true
        } else {
            false
        }
    }

    // ---------------------------------------------------------------- requests

    /// A request that is already complete (a send that went out at once, MPI_PROC_NULL).
    pub fn completed_request(&mut self, status: Status) -> ReqId {
        self.reqs.insert(Request {
            kind: Kind::Send {
                peer: self.me,
                wait: SendWait::Queued,
            },
            done: true,
            freed: false,
            status,
            data: MsgBuf::contig(std::ptr::null(), 0),
            owner: 0,
            bounce: None,
            reg: None,
            table_reg: None,
        })
    }

    pub fn is_done(&self, req: ReqId) -> Option<bool> {
        self.reqs.get(req).map(|r| r.done)
    }

    pub fn status(&self, req: ReqId) -> Option<Status> {
        self.reqs.get(req).map(|r| r.status)
    }

    /// Tag a request with an opaque owner value (see `Request::owner`).
    pub fn set_owner(&mut self, req: ReqId, owner: i32) {
        if let Some(r) = self.reqs.get_mut(req) {
            r.owner = owner;
        }
    }

    /// The request now in slot `slot` (how the ABI turns a handle back into an id).
    pub fn slot_id(&self, slot: u32) -> Option<ReqId> {
        self.reqs.id_at(slot)
    }

    /// Remove a completed request; its status and owner.
    pub fn take_done_owned(&mut self, req: ReqId) -> Option<(Status, i32)> {
        match self.reqs.get(req) {
            Some(r) if r.done => self.reqs.remove(req).map(|r| (r.status, r.owner)),
            _ => None,
        }
    }

    /// Remove a completed request and return its status.
    pub fn take_if_done(&mut self, req: ReqId) -> Option<Status> {
        match self.reqs.get(req) {
            Some(r) if r.done => self.reqs.remove(req).map(|r| r.status),
            _ => None,
        }
    }

    /// MPI_Request_free: drop now if complete, else when it completes.
    pub fn release(&mut self, req: ReqId) {
        match self.reqs.get_mut(req) {
            Some(r) if r.done => {
                self.reqs.remove(req);
            }
            Some(r) => r.freed = true,
            None => {}
        }
    }

    pub fn live_requests(&self) -> usize {
        self.reqs.live()
    }

    /// Register a rendezvous payload under the policy (odp-enhanced prefetches at once).
    /// ODP prefetches only fresh registrations: one the cache served covers memory that was
    /// transferred before and not given back since, so its pages are in place (prefetching
    /// them again halved the bandwidth of a reused buffer).
    /// A failure leaves the payload unregistered: on this rail the transfer does not need
    /// it, and an unmapped buffer is reported by the transfer itself.
    fn register_payload(
        registry: &Option<Registry>,
        policy: RegPolicy,
        data: &MsgBuf,
        access: Access,
    ) -> Option<Registration> {
        let registry = registry.as_ref()?;
        let (addr, len) = data.span()?;
        match registry.register(addr, len, policy.mode()) {
            Ok(reg) => {
                if policy == RegPolicy::OdpEnhanced && reg.is_fresh() {
                    let _ = registry.prefetch(addr, len, access);
                }
                Some(reg)
            }
            Err(e) => {
                tracing::debug!("payload not registered: {e}");
                None
            }
        }
    }

    /// Prefetch a pending request's payload (odp-optimal, overlapped with the handshake).
    fn prefetch_request(&self, req: ReqId, access: Access) {
        if let (Some(registry), Some(r)) = (&self.registry, self.reqs.get(req)) {
            match (&r.reg, r.data.span()) {
                (Some(reg), Some((addr, len))) if reg.is_fresh() => {
                    let _ = registry.prefetch(addr, len, access);
                }
                _ => {}
            }
        }
    }

    /// Note how many pages of a local range an RDMA transfer is about to fault in.
    fn count_faults(&self, addr: usize, len: usize) {
        if let (true, Some(registry)) = (self.count_faults, &self.registry) {
            if len > 0 {
                let _ = registry.count_nonresident(addr, len);
            }
        }
    }

    fn complete(&mut self, req: ReqId) {
        self.completions += 1;
        if let Some(r) = self.reqs.get_mut(req) {
            r.done = true;
            // Released now, not when the application collects the request: pins are
            // scarce (a cache may keep the pages registered for the next transfer).
            if r.reg.is_some() {
                r.reg = None;
                r.table_reg = None;
            }
            if let Some(Bounce {
                bytes,
                unpack_to: Some(runs),
            }) = &mut r.bounce
            {
                if !r.status.cancelled {
                    let n = r.status.count.min(bytes.len());
                    // SAFETY: `runs` is the receive buffer, writable until completion
                    // (module contract), which is now.
                    unsafe { runs.scatter(0, &bytes[..n]) };
                }
            }
            if r.freed {
                self.reqs.remove(req);
            }
        }
    }

    // ---------------------------------------------------------------- arrivals

    /// Handle one rail event: a message, or the completion of a posted operation.
    #[inline]
    pub fn on_event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Message { peer, bytes } => self.on_packet(peer, bytes),
            Event::Completion(c) => self.on_completion(c),
        }
    }

    /// Handle one rail message from `peer`.
    pub fn on_packet(&mut self, peer: usize, bytes: &[u8]) {
        let pkt = match wire::decode(bytes) {
            Ok(p) => p,
            Err(e) => return self.reject(peer, &format!("{e}")),
        };
        match pkt {
            Packet::Eager { hdr, payload } => {
                let env = Envelope {
                    ctx: hdr.ctx,
                    src: hdr.src,
                    tag: hdr.tag,
                };
                let sync = (hdr.flags & wire::FLAG_SYNC != 0).then_some(hdr.sender_req);
                match self.mq.arrive(&env) {
                    Some(req) => {
                        if let Some(s) = sync {
                            self.queue_control(peer, wire::sync_ack(s));
                        }
                        let r = self.reqs.get_mut(req).expect("posted request exists");
                        // SAFETY: the posted receive's buffer (module contract).
                        r.status = unsafe { copy_out(&env, payload, &mut r.data) };
                        self.complete(req);
                    }
                    None => self.mq.push_unexpected(
                        env,
                        Unexpected::Eager {
                            peer,
                            data: payload.to_vec(),
                            sync,
                        },
                    ),
                }
            }
            Packet::Rts {
                hdr,
                addr,
                rkey,
                entries,
                table_rkey,
            } => {
                let env = Envelope {
                    ctx: hdr.ctx,
                    src: hdr.src,
                    tag: hdr.tag,
                };
                let rts = RtsRef {
                    addr,
                    rkey: RemoteKey(rkey),
                    entries,
                    table_rkey: RemoteKey(table_rkey),
                };
                match self.mq.arrive(&env) {
                    Some(req) => self.start_rendezvous(req, peer, &hdr, rts),
                    None => self
                        .mq
                        .push_unexpected(env, Unexpected::Rts { peer, hdr, rts }),
                }
            }
            Packet::Fin { sender_req } | Packet::SyncAck { sender_req } => {
                let expect = if matches!(pkt, Packet::Fin { .. }) {
                    SendWait::Rendezvous
                } else {
                    SendWait::SyncAck
                };
                match self.reqs.get(sender_req) {
                    Some(Request {
                        kind: Kind::Send { peer: p, wait },
                        done: false,
                        ..
                    }) if *p == peer && *wait == expect => self.complete(sender_req),
                    _ => self.reject(peer, "reply for an unknown or finished send"),
                }
            }
            Packet::Cts {
                sender_req,
                receiver_req,
            } => match self.reqs.get_mut(sender_req) {
                Some(Request {
                    kind: Kind::Send { peer: p, wait },
                    done: false,
                    data,
                    ..
                }) if *p == peer && *wait == SendWait::Rendezvous => {
                    *wait = SendWait::Streaming;
                    let len = data.len();
                    self.streams.push_back(Stream {
                        peer,
                        receiver_req,
                        start: 0,
                        len,
                        sent: 0,
                        req: sender_req,
                        pipeline: false,
                    });
                }
                _ => self.reject(peer, "CTS for an unknown or finished send"),
            },
            Packet::RndvData {
                receiver_req,
                offset,
                payload,
            } => self.on_stream_data(peer, receiver_req, offset, payload),
            Packet::PutReq {
                sender_req,
                receiver_req,
                offset,
                len,
                addr,
                rkey,
            } => {
                match self.reqs.get(sender_req) {
                    Some(Request {
                        kind:
                            Kind::Send {
                                peer: p,
                                wait: SendWait::Rendezvous,
                            },
                        done: false,
                        data: MsgBuf::Contig { ptr, len: total },
                        ..
                    }) if *p == peer
                        && offset.checked_add(len).is_some_and(|e| e <= *total as u64) =>
                    {
                        // SAFETY: offset + len <= the send buffer's length (checked).
                        let local = unsafe { ptr.add(offset as usize) };
                        self.writes.push(RdmaWrite {
                            peer,
                            local,
                            len: len as usize,
                            addr,
                            rkey: RemoteKey(rkey),
                            receiver_req,
                        });
                    }
                    _ => self.reject(peer, "write request for an unknown send or outside it"),
                }
            }
            Packet::PipeRts { hdr, payload } => {
                if payload.len() as u64 > hdr.len {
                    return self.reject(peer, "pipeline eager part longer than the message");
                }
                let env = Envelope {
                    ctx: hdr.ctx,
                    src: hdr.src,
                    tag: hdr.tag,
                };
                match self.mq.arrive(&env) {
                    Some(req) => self.start_pipeline(req, peer, &hdr, payload),
                    None => self.mq.push_unexpected(
                        env,
                        Unexpected::PipeRts {
                            peer,
                            hdr,
                            data: payload.to_vec(),
                        },
                    ),
                }
            }
            Packet::PipeAck {
                sender_req,
                receiver_req,
                rdma_offset,
                limit,
            } => self.on_pipe_ack(peer, sender_req, receiver_req, rdma_offset, limit),
            Packet::PipeReady {
                sender_req,
                receiver_req,
                offset,
                len,
                addr,
                rkey,
            } => {
                let ok = match self.pipe_send_to(peer, sender_req) {
                    Some((ps, _))
                        if ps.acked
                            && ps.receiver_req == receiver_req
                            && len > 0
                            && offset >= ps.rdma_offset
                            && offset.checked_add(len).is_some_and(|e| e <= ps.limit)
                            && ps.asked + len <= ps.limit - ps.rdma_offset =>
                    {
                        ps.asked += len;
                        true
                    }
                    _ => false,
                };
                if !ok {
                    return self.reject(peer, "READY for an unknown pipeline or outside it");
                }
                self.pipe_writes.push(PipeWrite {
                    peer,
                    req: sender_req,
                    receiver_req,
                    offset,
                    len,
                    addr,
                    rkey: RemoteKey(rkey),
                });
            }
            Packet::PipeFin {
                receiver_req,
                offset,
                len,
                ok,
            } => {
                let known = match (
                    self.reqs.get(receiver_req),
                    self.pipes_in.get_mut(&receiver_req),
                ) {
                    (
                        Some(Request {
                            kind: Kind::Recv(RecvState::Pipeline { peer: p }),
                            done: false,
                            ..
                        }),
                        Some(pr),
                    ) if *p == peer => {
                        match pr
                            .blocks
                            .iter()
                            .position(|b| b.offset == offset && b.len == len)
                        {
                            Some(i) => {
                                // Deregistered on FIN (Woodall 2006, §4). A block that could
                                // not be written comes as RNDV_DATA instead.
                                pr.blocks.swap_remove(i);
                                if ok {
                                    pr.left = pr.left.saturating_sub(len);
                                }
                                true
                            }
                            None => false,
                        }
                    }
                    _ => false,
                };
                if !known {
                    return self.reject(peer, "FIN for an unknown pipeline block");
                }
                // The FIN advances the pipeline: the next block is registered and READY'd
                // in `run_rdma`.
                self.pipe_due.push(receiver_req);
                self.pipe_check_recv(receiver_req);
            }
            Packet::PutDone { receiver_req, ok } => match self.reqs.get_mut(receiver_req) {
                Some(Request {
                    kind:
                        Kind::Recv(RecvState::Rdma {
                            peer: p,
                            pending,
                            failed,
                            ..
                        }),
                    done: false,
                    ..
                }) if *p == peer && *pending > 0 => {
                    *failed |= !ok;
                    self.part_done(receiver_req);
                }
                _ => self.reject(peer, "write completion for an unknown receive"),
            },
        }
    }

    fn on_stream_data(&mut self, peer: usize, req: ReqId, offset: u64, payload: &[u8]) {
        let Some(r) = self.reqs.get_mut(req) else {
            return self.reject(peer, "data for an unknown receive");
        };
        if let Kind::Recv(RecvState::Pipeline { peer: p }) = r.kind {
            let Some(pr) = self.pipes_in.get_mut(&req) else {
                return self.reject(peer, "data for a finished pipeline");
            };
            let end = offset.checked_add(payload.len() as u64);
            if p != peer || r.done || offset < pr.stream_from || end.is_none_or(|e| e > pr.limit) {
                return self.reject(peer, "pipeline data outside the message");
            }
            // SAFETY: the receive buffer (module contract); [offset, end) <= its length.
            unsafe { r.data.scatter(offset as usize, payload) };
            pr.left = pr.left.saturating_sub(payload.len() as u64);
            return self.pipe_check_recv(req);
        }
        let Kind::Recv(RecvState::Streaming {
            peer: p,
            expected,
            received,
        }) = &mut r.kind
        else {
            return self.reject(peer, "data for a receive that is not streaming");
        };
        let end = offset.checked_add(payload.len() as u64);
        if *p != peer || r.done || end.is_none_or(|e| e > *expected) {
            return self.reject(peer, "stream data outside the message");
        }
        // Bytes past the receive buffer are dropped (truncation was recorded at match).
        if offset < r.data.len() as u64 {
            // SAFETY: the receive buffer (module contract); scatter clips to its length.
            unsafe { r.data.scatter(offset as usize, payload) };
        }
        *received += payload.len() as u64;
        if *received == *expected {
            self.complete(req);
        }
    }

    fn start_rendezvous(&mut self, req: ReqId, peer: usize, hdr: &MatchHeader, rts: RtsRef) {
        let entries = rts.entries;
        let r = self.reqs.get_mut(req).expect("matched request exists");
        let cap = r.data.len();
        let theirs = match entries {
            0 => usize::MAX,
            n => (hdr.len / n) as usize,
        };
        if self.settings.rdma && peer != self.me && r.data.mean_run() < self.min_rdma_run {
            // Our runs are too small to read into one by one: read into a contiguous
            // stand-in and scatter from it on completion.
            let bytes = vec![0u8; cap].into_boxed_slice();
            let runs = std::mem::replace(&mut r.data, MsgBuf::contig(bytes.as_ptr(), cap));
            r.bounce = Some(Bounce {
                bytes,
                unpack_to: Some(runs),
            });
        }
        // The sender's payload (and run table) must be keyed: unregistered memory streams.
        let keyed = !rts.rkey.is_none() && (entries == 0 || !rts.table_rkey.is_none());
        let rdma = self.settings.rdma
            && self.settings.rndv != Rndv::Copy
            && keyed
            && r.data.mean_run().min(theirs) >= self.min_rdma_run;
        if rdma && peer != self.me {
            r.reg = Self::register_payload(&self.registry, self.reg_policy, &r.data, Access::Write)
                .map(Box::new);
        }
        // odp-optimal prefetches a fresh registration once our reply is out.
        let prefetch = rdma
            && peer != self.me
            && self.reg_policy == RegPolicy::OdpOptimal
            && r.reg.as_ref().is_some_and(|g| g.is_fresh());
        let take = (hdr.len as usize).min(cap);
        r.status = Status {
            source: hdr.src,
            tag: hdr.tag,
            count: take,
            truncated: hdr.len as usize > cap,
            cancelled: false,
        };
        if rdma || peer == self.me {
            let threshold = self.settings.split_threshold;
            // Only a contiguous message into a contiguous buffer is split: the write request
            // names one range on each side.
            let base = match r.data {
                MsgBuf::Contig { ptr, .. } if entries == 0 => Some(ptr as u64),
                _ => None,
            };
            // The sender writes [head, take) and we read [0, head). Auto splits at a page
            // boundary near the middle (a message too short for a page-aligned half is read
            // whole); Put has the sender write everything; Get reads everything. The
            // sender writes only into a buffer we could key.
            let rkey = r.reg.as_ref().map_or(RemoteKey::NONE, |g| g.remote_key());
            let writable = peer != self.me && base.is_some() && !rkey.is_none();
            let head = match self.settings.rndv {
                Rndv::Put if writable && take > 0 => 0,
                Rndv::Auto if writable && threshold > 0 && take >= threshold => {
                    match (take / 2) & !4095 {
                        0 => take,
                        h => h,
                    }
                }
                _ => take,
            };
            let split = head < take;
            match base {
                // The peer writes all of it: prefetch from the end, towards its writes.
                Some(base) if prefetch && head == 0 => {
                    self.backward_prefetch.push(BackwardPrefetch {
                        req,
                        base,
                        floor: 0,
                        cursor: take as u64,
                    })
                }
                _ if prefetch => self.prefetch_due.push(req),
                _ => {}
            }
            let r = self.reqs.get_mut(req).expect("matched request exists");
            r.kind = Kind::Recv(RecvState::Rdma {
                peer,
                sender_req: hdr.sender_req,
                total: hdr.len,
                pending: u8::from(head > 0 || take == 0) + u8::from(split),
                failed: false,
            });
            if let (true, Some(base)) = (split, base) {
                let tail_addr = base + head as u64;
                self.queue_control(
                    peer,
                    wire::put_req(
                        hdr.sender_req,
                        req,
                        head as u64,
                        (take - head) as u64,
                        tail_addr,
                        rkey.0,
                    ),
                );
            }
            if head > 0 || take == 0 {
                self.reads.push(RdmaRead {
                    peer,
                    req,
                    rts,
                    total: hdr.len,
                    offset: 0,
                    len: head,
                });
            }
        } else {
            r.kind = Kind::Recv(RecvState::Streaming {
                peer,
                expected: hdr.len,
                received: 0,
            });
            self.queue_control(peer, wire::cts(hdr.sender_req, req));
        }
    }

    /// The receiver's side of a PIPE_RTS on match (Woodall 2006, §4): deliver the eager
    /// part, ACK with the RDMA offset, and leave the first blocks' registration to
    /// `run_rdma` — after the ACK is out, so that the sender's streaming of
    /// `[eager, rdma offset)` overlaps it (Woodall Fig. 3).
    fn start_pipeline(&mut self, req: ReqId, peer: usize, hdr: &MatchHeader, eager: &[u8]) {
        let r = self.reqs.get_mut(req).expect("matched request exists");
        let cap = r.data.len() as u64;
        let limit = hdr.len.min(cap);
        r.status = Status {
            source: hdr.src,
            tag: hdr.tag,
            count: limit as usize,
            truncated: hdr.len > cap,
            cancelled: false,
        };
        let head = (eager.len() as u64).min(limit);
        // SAFETY: the posted receive's buffer (module contract); head <= its length.
        unsafe { r.data.scatter(0, &eager[..head as usize]) };
        // Blocks name one range of our buffer; a buffer of runs takes everything streamed.
        let base = match r.data {
            MsgBuf::Contig { ptr, .. } if self.settings.rdma => Some(ptr as u64),
            _ => None,
        };
        let rdma_offset = match base {
            Some(_) => limit.min(
                (eager.len() as u64).saturating_add(self.settings.pipeline.send_length as u64),
            ),
            None => limit,
        };
        r.kind = Kind::Recv(RecvState::Pipeline { peer });
        self.queue_control(
            peer,
            wire::pipe_ack(hdr.sender_req, req, rdma_offset, limit),
        );
        let left = limit - head;
        if left == 0 {
            return self.complete(req);
        }
        self.pipes_in.insert(
            req,
            PipeRecv {
                peer,
                sender_req: hdr.sender_req,
                cached: self.settings.rndv.caches_blocks(),
                base: base.unwrap_or(0),
                stream_from: head,
                limit,
                next: rdma_offset,
                blocks: Vec::new(),
                left,
            },
        );
        if rdma_offset < limit {
            self.pipe_due.push(req);
            if self.reg_policy == RegPolicy::OdpOptimal && self.registry.is_some() {
                self.backward_prefetch.push(BackwardPrefetch {
                    req,
                    base: base.unwrap_or(0),
                    floor: rdma_offset,
                    cursor: limit,
                });
            }
        }
    }

    /// The sender's side of the pipeline's ACK: stream up to the RDMA offset, then wait
    /// for READYs.
    fn on_pipe_ack(
        &mut self,
        peer: usize,
        sender_req: u64,
        receiver_req: u64,
        rdma: u64,
        limit: u64,
    ) {
        let ps = match self.pipe_send_to(peer, sender_req) {
            Some((ps, buffer))
                if !ps.acked
                    && limit <= buffer
                    && rdma <= limit
                    && (rdma >= ps.eager || rdma == limit) =>
            {
                ps
            }
            _ => return self.reject(peer, "pipeline ACK for an unknown send or outside it"),
        };
        ps.acked = true;
        ps.receiver_req = receiver_req;
        ps.rdma_offset = rdma;
        ps.limit = limit;
        ps.left = limit.saturating_sub(ps.eager);
        let eager = ps.eager;
        if rdma > eager {
            // Send/receive covers the pipeline's start-up (Woodall 2006, §4, Fig. 3).
            self.streams.push_back(Stream {
                peer,
                receiver_req,
                start: eager as usize,
                len: rdma as usize,
                sent: eager as usize,
                req: sender_req,
                pipeline: true,
            });
        }
        self.pipe_check_send(sender_req);
    }

    /// The pipelined send `sender_req` to `peer` still in progress, and its buffer's length
    /// (what an ACK or READY from that peer may name).
    fn pipe_send_to(&mut self, peer: usize, sender_req: ReqId) -> Option<(&mut PipeSend, u64)> {
        match (
            self.reqs.get(sender_req),
            self.pipes_out.get_mut(&sender_req),
        ) {
            (
                Some(Request {
                    kind:
                        Kind::Send {
                            peer: p,
                            wait: SendWait::Pipeline,
                        },
                    done: false,
                    data,
                    ..
                }),
                Some(ps),
            ) if *p == peer => Some((ps, data.len() as u64)),
            _ => None,
        }
    }

    /// `n` more bytes of a pipelined send were delivered (written, or streamed).
    fn pipe_credit(&mut self, req: ReqId, n: u64) {
        if let Some(ps) = self.pipes_out.get_mut(&req) {
            ps.left = ps.left.saturating_sub(n);
        }
        self.pipe_check_send(req);
    }

    /// A pipelined send completes on local completion of all its parts.
    fn pipe_check_send(&mut self, req: ReqId) {
        if self
            .pipes_out
            .get(&req)
            .is_some_and(|ps| ps.acked && ps.left == 0)
        {
            self.pipes_out.remove(&req);
            self.complete(req);
        }
    }

    /// A pipelined receive completes when every byte arrived and every block is FIN'd.
    fn pipe_check_recv(&mut self, req: ReqId) {
        if self
            .pipes_in
            .get(&req)
            .is_some_and(|pr| pr.left == 0 && pr.blocks.is_empty())
        {
            self.pipes_in.remove(&req);
            self.complete(req);
        }
    }

    /// Register a pipeline block of `within` (a buffer: outside it memory may be unmapped)
    /// under the policy. Plain pipeline: one registration bypassing the cache, released
    /// with the handle. Caching pipeline: one cached registration per fragment-aligned
    /// window the block touches (clipped to the buffer), so the next transfer over the same
    /// memory finds them cached whatever its block boundaries (Woodall 2006, §5.2). Separate
    /// windows, not one widened range: windows never overlap, so a registration never
    /// merges with (and re-pins) its idle neighbours.
    fn register_block(
        &self,
        addr: usize,
        len: usize,
        cached: bool,
        access: Access,
        within: (usize, usize),
    ) -> Vec<Registration> {
        let Some(registry) = self.registry.as_ref() else {
            return Vec::new();
        };
        let mode = self.reg_policy.mode();
        let mut regs = Vec::new();
        let mut add = |res: Result<Registration, _>| match res {
            Ok(reg) => regs.push(reg),
            Err(e) => tracing::debug!("pipeline block not registered: {e}"),
        };
        if cached {
            let frag = self.settings.pipeline.frag.max(1);
            let (end, buf_end) = (addr + len, within.0 + within.1);
            let mut w = addr / frag * frag;
            while w < end {
                let (a, b) = (w.max(within.0), w.saturating_add(frag).min(buf_end));
                if a < b {
                    add(registry.register(a, b - a, mode));
                }
                w = w.saturating_add(frag);
            }
        } else {
            add(registry.register_uncached(addr, len, mode));
        }
        if self.reg_policy == RegPolicy::OdpEnhanced && regs.iter().any(|r| r.is_fresh()) {
            let _ = registry.prefetch(addr, len, access);
        }
        regs
    }

    /// Register the next blocks of a pipelined receive, up to the depth, and READY each
    /// (Woodall 2006, §4, Fig. 2), each READY out before the next block registers (a
    /// pinning registration takes long enough for the sender to start on the first).
    /// Returns how many.
    fn pipe_advance(&mut self, ch: &mut Channels, req: ReqId) -> usize {
        let PipelineSettings { frag, depth, .. } = self.settings.pipeline;
        let (frag, depth) = (frag.max(1) as u64, depth.max(1));
        let mut n = 0;
        loop {
            let Some(pr) = self.pipes_in.get(&req) else {
                return n;
            };
            if pr.blocks.len() >= depth || pr.next >= pr.limit {
                return n;
            }
            let (off, addr) = (pr.next, pr.base + pr.next);
            let len = if pr.cached {
                // Blocks end on fragment-aligned addresses, so that they are the same
                // registrations each time this memory is used (Woodall 2006, §5.2).
                ((addr / frag + 1) * frag - addr).min(pr.limit - off)
            } else {
                frag.min(pr.limit - off)
            };
            let within = (pr.base as usize, pr.limit as usize);
            let reg = self.register_block(
                addr as usize,
                len as usize,
                pr.cached,
                Access::Write,
                within,
            );
            // The registration holding the whole block keys it; without one the sender's
            // write is refused and the block comes streamed instead.
            let rkey = reg
                .iter()
                .find(|g| {
                    let p = g.pages();
                    p.start as u64 <= addr && addr + len <= p.end as u64
                })
                .map_or(RemoteKey::NONE, |g| g.remote_key());
            let pr = self.pipes_in.get_mut(&req).expect("checked above");
            pr.blocks.push(Block {
                offset: off,
                len,
                _reg: reg,
            });
            pr.next += len;
            let (peer, sender_req) = (pr.peer, pr.sender_req);
            self.queue_control(
                peer,
                wire::pipe_ready(sender_req, req, off, len, addr, rkey.0),
            );
            self.flush_peer(ch, peer);
            n += 1;
        }
    }

    /// odp-optimal: prefetch one more chunk of a receive buffer that the peer writes, from
    /// the end backwards, down to where the writes have got to (a pipeline's READY'd
    /// blocks) or to the start. One chunk per call, so FINs are answered in between.
    fn backward_prefetch_step(&mut self) -> usize {
        const CHUNK: u64 = 256 << 10;
        let Some(p) = self.backward_prefetch.first_mut() else {
            return 0;
        };
        let floor = match (self.pipes_in.get(&p.req), self.reqs.get(p.req)) {
            (Some(pr), _) => Some(pr.next),
            (None, Some(r))
                if !r.done && !matches!(r.kind, Kind::Recv(RecvState::Pipeline { .. })) =>
            {
                Some(p.floor)
            }
            _ => None,
        };
        let Some(registry) = self
            .registry
            .as_ref()
            .filter(|_| floor.is_some_and(|f| p.cursor > f))
        else {
            self.backward_prefetch.remove(0);
            return 0;
        };
        let from = p.cursor.saturating_sub(CHUNK).max(floor.unwrap_or(0));
        let (addr, len) = (p.base + from, p.cursor - from);
        p.cursor = from;
        let _ = registry.prefetch(addr as usize, len as usize, Access::Write);
        1
    }

    /// Answer one READY: register the source block and post its RDMA write; its completion
    /// deregisters it and FINs it (Woodall 2006, §4, Fig. 4). A failed write streams the
    /// block instead.
    fn pipe_write(&mut self, ch: &mut Channels, w: PipeWrite) {
        let (ptr, total) = match self.reqs.get(w.req) {
            Some(Request {
                data: MsgBuf::Contig { ptr, len },
                done: false,
                ..
            }) => (*ptr as *const u8, *len),
            _ => return,
        };
        let Some(cached) = self.pipes_out.get(&w.req).map(|ps| ps.cached) else {
            return;
        };
        // SAFETY: offset + len <= limit <= the send buffer's length (checked at READY/ACK).
        let local = unsafe { ptr.add(w.offset as usize) };
        let reg = self.register_block(
            local as usize,
            w.len as usize,
            cached,
            Access::Read,
            (ptr as usize, total),
        );
        self.count_faults(local as usize, w.len as usize);
        let l = [Span {
            addr: local as u64,
            len: w.len,
        }];
        let r = [Span {
            addr: w.addr,
            len: w.len,
        }];
        let (peer, rkey) = (w.peer, w.rkey);
        let token = self.track(Posted::PipeWrite { w, _reg: reg });
        // SAFETY: a range of a pending send's buffer, which stays put until the send
        // completes — after this write's completion.
        let res = unsafe { ch.post_write(peer, &l, &r, rkey, token) };
        self.post_failed(token, res);
    }

    /// The completion of a pipeline block's write.
    fn pipe_written(&mut self, w: PipeWrite, ok: bool) {
        self.queue_control(w.peer, wire::pipe_fin(w.receiver_req, w.offset, w.len, ok));
        if ok {
            self.pipe_credit(w.req, w.len);
        } else {
            tracing::warn!(
                peer = w.peer,
                "pipeline RDMA write failed; streaming the block"
            );
            self.streams.push_back(Stream {
                peer: w.peer,
                receiver_req: w.receiver_req,
                start: w.offset as usize,
                len: (w.offset + w.len) as usize,
                sent: w.offset as usize,
                req: w.req,
                pipeline: true,
            });
        }
    }

    fn reject(&mut self, peer: usize, why: &str) {
        self.bad_packets += 1;
        tracing::error!(peer, "dropped a malformed packet: {why}");
    }

    // ---------------------------------------------------------------- output

    /// Post queued RDMA reads and writes. Returns how many were posted.
    pub fn run_rdma(&mut self, ch: &mut Channels) -> usize {
        let mut n = 0;
        // The progress loop flushed our CTS / write requests before this: the prefetch
        // overlaps with the peer's side of the handshake.
        for req in std::mem::take(&mut self.prefetch_due) {
            self.prefetch_request(req, Access::Write);
        }
        // Pipelines: the receiver's next blocks (its ACK or FINs went out before this),
        // then the sender's writes of READY'd blocks.
        let mut due = std::mem::take(&mut self.pipe_due);
        due.sort_unstable();
        due.dedup();
        for req in due {
            n += self.pipe_advance(ch, req);
        }
        for w in std::mem::take(&mut self.pipe_writes) {
            self.pipe_write(ch, w);
            n += 1;
        }
        n += self.backward_prefetch_step();
        for w in std::mem::take(&mut self.writes) {
            self.count_faults(w.local as usize, w.len);
            let l = [Span {
                addr: w.local as u64,
                len: w.len as u64,
            }];
            let r = [Span {
                addr: w.addr,
                len: w.len as u64,
            }];
            let token = self.track(Posted::Write {
                peer: w.peer,
                receiver_req: w.receiver_req,
            });
            // SAFETY: (local, len) lies in a pending send's buffer (checked at PUT_REQ),
            // which completes only after FIN, after this write's completion.
            let res = unsafe { ch.post_write(w.peer, &l, &r, w.rkey, token) };
            self.post_failed(token, res);
            n += 1;
        }
        for rd in std::mem::take(&mut self.reads) {
            self.post_rget(ch, rd);
            n += 1;
        }
        for pr in std::mem::take(&mut self.payload_reads) {
            let Some(r) = self.reqs.get_mut(pr.req) else {
                continue;
            };
            let local = r.data.runs_at(pr.offset, pr.len);
            let token = self.track(Posted::Read { req: pr.req });
            // SAFETY: runs of a pending receive's buffer, ours until it completes.
            let res = unsafe { ch.post_read(pr.peer, &local, &pr.remote, pr.rkey, token) };
            self.post_failed(token, res);
            n += 1;
        }
        n
    }

    /// Keep `op` until its completion; its token: `generation << 32 | slot + 1` (never 0,
    /// top bit clear, and a slot's reuse changes it).
    fn track(&mut self, op: Posted) -> u64 {
        let slot = match self.free_posted.pop() {
            Some(i) => i as usize,
            None => {
                self.posted.push((0, None));
                self.posted.len() - 1
            }
        };
        let e = &mut self.posted[slot];
        e.0 = e.0.wrapping_add(1) & 0x7fff_ffff;
        e.1 = Some(op);
        self.live_posted += 1;
        ((e.0 as u64) << 32) | (slot as u64 + 1)
    }

    /// The operation `token` names, taken out of the table.
    fn untrack(&mut self, token: u64) -> Option<Posted> {
        let slot = ((token as u32) as usize).checked_sub(1)?;
        let e = self.posted.get_mut(slot)?;
        if e.0 as u64 != token >> 32 {
            return None;
        }
        let op = e.1.take()?;
        self.free_posted.push(slot as u32);
        self.live_posted -= 1;
        Some(op)
    }

    /// A post the rail refused at once completes with that error.
    fn post_failed(&mut self, token: u64, res: Result<(), RailError>) {
        if let Err(e) = res {
            self.on_completion(Completion {
                token,
                result: Err(e),
            });
        }
    }

    /// Post our part `rd` of a rendezvous read: the payload, or first the sender's run
    /// table (checked before any payload byte moves). Reads from ourselves are copies.
    fn post_rget(&mut self, ch: &mut Channels, rd: RdmaRead) {
        let Some(r) = self.reqs.get_mut(rd.req) else {
            return;
        };
        // offset + len <= the receive buffer's capacity (set at match).
        let local = r.data.runs_at(rd.offset, rd.len);
        if let Some(first) = local.first() {
            let end = local
                .iter()
                .map(|l| l.addr + l.len)
                .max()
                .unwrap_or(first.addr);
            self.count_faults(first.addr as usize, (end - first.addr) as usize);
        }
        if rd.peer == self.me {
            let own_table = (rd.rts.entries > 0 && rd.rts.entries <= MAX_RUN_TABLE.min(rd.total))
                .then(|| {
                    // SAFETY: our own send's run table (self-send), boxed in its request until
                    // FIN; its length was bounded just above.
                    unsafe {
                        std::slice::from_raw_parts(
                            rd.rts.addr as *const u8,
                            rd.rts.entries as usize * RUN_ENTRY,
                        )
                    }
                });
            let ok = match remote_runs(&rd, own_table) {
                Ok(remote) => {
                    // SAFETY: our own send buffer and this receive's buffer (self-send);
                    // the sender's request keeps its memory valid until FIN.
                    unsafe { copy_runs(&local, &remote) };
                    true
                }
                Err(e) => {
                    self.reject(rd.peer, &format!("malformed run table ({e:?})"));
                    false
                }
            };
            return self.read_done(rd.req, ok);
        }
        if rd.rts.entries == 0 {
            let remote = remote_runs(&rd, None).expect("contiguous");
            let token = self.track(Posted::Read { req: rd.req });
            // SAFETY: runs of a pending receive's buffer, ours until it completes.
            let res = unsafe { ch.post_read(rd.peer, &local, &remote, rd.rts.rkey, token) };
            return self.post_failed(token, res);
        }
        // Every run holds at least one byte, so a table longer than the message is bogus.
        if rd.rts.entries > MAX_RUN_TABLE || rd.rts.entries > rd.total {
            self.reject(rd.peer, "malformed run table (too many entries)");
            return self.read_done(rd.req, false);
        }
        let raw = vec![0u8; rd.rts.entries as usize * RUN_ENTRY].into_boxed_slice();
        let l = [Span {
            addr: raw.as_ptr() as u64,
            len: raw.len() as u64,
        }];
        let r = [Span {
            addr: rd.rts.addr,
            len: raw.len() as u64,
        }];
        let (peer, rkey) = (rd.peer, rd.rts.table_rkey);
        // The boxed table moves into `posted` without its heap memory moving.
        let token = self.track(Posted::Table { rd, raw });
        // SAFETY: `raw` lives in `posted` until this read's completion.
        let res = unsafe { ch.post_read(peer, &l, &r, rkey, token) };
        self.post_failed(token, res);
    }

    /// A posted operation finished (or failed): continue the protocol it belongs to.
    pub fn on_completion(&mut self, c: Completion) {
        let Some(op) = self.untrack(c.token) else {
            return self.reject(usize::MAX, "completion of nothing posted");
        };
        let ok = match &c.result {
            Ok(_) => true,
            Err(e) => {
                tracing::warn!("RDMA operation failed: {e}");
                false
            }
        };
        match op {
            Posted::Read { req } => {
                if let Err(RailError::Access(_)) = c.result {
                    // The peer's memory is unreachable (CMA refused mid-run): stream, now
                    // and from now on.
                    self.settings.rdma = false;
                }
                self.read_done(req, ok)
            }
            Posted::Table { rd, raw } => {
                if !ok {
                    return self.read_done(rd.req, false);
                }
                let remote = match remote_runs(&rd, Some(&raw)) {
                    Ok(r) => r,
                    Err(e) => {
                        // Nothing was read; the sender may still stream its message.
                        self.reject(rd.peer, &format!("malformed run table ({e:?})"));
                        return self.read_done(rd.req, false);
                    }
                };
                // Posted by the next `run_rdma`.
                self.payload_reads.push(PayloadRead {
                    peer: rd.peer,
                    req: rd.req,
                    offset: rd.offset,
                    len: rd.len,
                    remote,
                    rkey: rd.rts.rkey,
                });
            }
            Posted::Write { peer, receiver_req } => {
                if !ok {
                    tracing::warn!(
                        peer,
                        "RDMA write failed; the receiver will ask for a stream"
                    );
                }
                self.queue_control(peer, wire::put_done(receiver_req, ok));
            }
            Posted::PipeWrite { w, .. } => self.pipe_written(w, ok),
        }
    }

    /// Our read into receive `req` finished (`ok`) or failed.
    fn read_done(&mut self, req: ReqId, ok: bool) {
        if !ok {
            if let Some(Request {
                kind: Kind::Recv(RecvState::Rdma { failed, .. }),
                ..
            }) = self.reqs.get_mut(req)
            {
                *failed = true;
            }
        }
        self.part_done(req);
    }

    /// One part of an RDMA rendezvous finished. When none is left, the receive completes and
    /// FIN releases the sender — or, if a part failed, the whole message is asked for as a
    /// stream instead.
    fn part_done(&mut self, req: ReqId) {
        let Some(r) = self.reqs.get_mut(req) else {
            return;
        };
        let Kind::Recv(RecvState::Rdma {
            peer,
            sender_req,
            total,
            pending,
            failed,
        }) = &mut r.kind
        else {
            return;
        };
        *pending -= 1;
        if *pending > 0 {
            return;
        }
        let (peer, sender_req, total, failed) = (*peer, *sender_req, *total, *failed);
        if failed {
            // The sender streams the whole message; our buffer takes what fits.
            r.kind = Kind::Recv(RecvState::Streaming {
                peer,
                expected: total,
                received: 0,
            });
            self.queue_control(peer, wire::cts(sender_req, req));
        } else {
            self.complete(req);
            self.queue_control(peer, wire::fin(sender_req));
        }
    }

    /// Push queued output into the rail. Returns how many rail messages went out.
    pub fn flush(&mut self, ch: &mut Channels) -> usize {
        let mut sent = 0;
        let mut i = 0;
        while i < self.busy_peers.len() {
            let peer = self.busy_peers[i];
            sent += self.flush_peer(ch, peer);
            if self.out[peer].is_empty() {
                self.busy_peers.swap_remove(i);
            } else {
                i += 1;
            }
        }
        sent + self.flush_streams(ch)
    }

    fn flush_peer(&mut self, ch: &mut Channels, peer: usize) -> usize {
        let mut sent = 0;
        while let Some((pkt, len)) = self.out[peer].control.front() {
            let bytes = pkt[..*len as usize].to_vec();
            if !self.transmit(ch, peer, &[&bytes]) {
                return sent;
            }
            self.out[peer].control.pop_front();
            sent += 1;
        }
        while let Some(Outbound::Match {
            head,
            head_len,
            payload,
            req,
        }) = self.out[peer].matching.front()
        {
            let (head, head_len, payload, req) = (*head, *head_len as usize, *payload, *req);
            let ok = match payload {
                Payload::Contig(data, len) => {
                    // SAFETY: the payload belongs to a pending send request (module contract).
                    let payload = unsafe { slice(data, len) };
                    self.transmit(ch, peer, &[&head[..head_len], payload])
                }
                Payload::Runs(of) => {
                    let mut parts = vec![&head[..head_len]];
                    if let Some(r) = self.reqs.get_mut(of) {
                        // SAFETY: the runs of a pending send request (module contract).
                        unsafe { r.data.gather(0, usize::MAX, &mut parts) };
                    }
                    self.transmit(ch, peer, &parts)
                }
            };
            if !ok {
                return sent;
            }
            self.out[peer].matching.pop_front();
            sent += 1;
            if let Some(req) = req {
                self.complete(req);
            }
        }
        sent
    }

    fn flush_streams(&mut self, ch: &mut Channels) -> usize {
        let chunk = self.max_message - wire::RNDV_DATA_HEADER;
        let mut sent = 0;
        let mut k = 0;
        while k < self.streams.len() {
            let s = &self.streams[k];
            let (peer, rreq, len, mut off, req) = (s.peer, s.receiver_req, s.len, s.sent, s.req);
            let (start, pipeline) = (s.start, s.pipeline);
            while off < len {
                let n = chunk.min(len - off);
                let head = wire::rndv_data_header(rreq, off as u64);
                let mut parts: Vec<&[u8]> = vec![&head];
                let Some(r) = self.reqs.get_mut(req) else {
                    off = len;
                    break;
                };
                // SAFETY: the pending send's buffer; the pieces cover [off, off + n) of it.
                unsafe { r.data.gather(off, n, &mut parts) };
                if !self.transmit(ch, peer, &parts) {
                    break;
                }
                off += n;
                sent += 1;
            }
            if off == len {
                self.streams.remove(k);
                if pipeline {
                    self.pipe_credit(req, (len - start) as u64);
                } else {
                    self.complete(req);
                }
            } else {
                self.streams[k].sent = off;
                k += 1;
            }
        }
        sent
    }

    /// One rail message to `peer`; messages to ourselves are handled right here.
    fn transmit(&mut self, ch: &mut Channels, peer: usize, parts: &[&[u8]]) -> bool {
        if peer == self.me {
            let bytes: Vec<u8> = parts.concat();
            self.on_packet(peer, &bytes);
            true
        } else {
            ch.try_send(peer, parts)
        }
    }

    /// Pipelined sends and receives in progress.
    #[cfg(test)]
    pub(crate) fn pipelines(&self) -> usize {
        self.pipes_out.len() + self.pipes_in.len()
    }

    /// Anything left to push out or read?
    pub fn has_output(&self) -> bool {
        !self.busy_peers.is_empty()
            || !self.streams.is_empty()
            || !self.reads.is_empty()
            || !self.writes.is_empty()
            || !self.pipe_due.is_empty()
            || !self.pipe_writes.is_empty()
            || !self.backward_prefetch.is_empty()
            || !self.payload_reads.is_empty()
            || self.live_posted > 0
    }
}

/// # Safety
/// `(data, len)` must be readable for the returned lifetime; `len == 0` allows any pointer.
unsafe fn slice<'a>(data: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(data, len)
    }
}

/// Copy (scatter) an eager payload into a receive buffer; the resulting status.
///
/// # Safety
/// The memory `data` describes must be writable.
unsafe fn copy_out(env: &Envelope, payload: &[u8], data: &mut MsgBuf) -> Status {
    let cap = data.len();
    let n = payload.len().min(cap);
    // SAFETY: the caller's contract; scatter writes n <= cap bytes.
    unsafe { data.scatter(0, &payload[..n]) };
    Status {
        source: env.src,
        tag: env.tag,
        count: n,
        truncated: payload.len() > cap,
        cancelled: false,
    }
}

/// The sender's runs our part `rd` of a rendezvous reads: one range of a contiguous
/// payload, or the runs of its `table` (checked, and clipped to our part).
fn remote_runs(rd: &RdmaRead, table: Option<&[u8]>) -> Result<Vec<Span>, TableError> {
    if rd.rts.entries == 0 {
        return Ok(vec![Span {
            addr: rd.rts.addr.wrapping_add(rd.offset as u64),
            len: rd.len as u64,
        }]);
    }
    let raw = table.ok_or(TableError::Entries)?;
    let runs = buffer::parse_run_table(raw, rd.total)?;
    Ok(buffer::clip(runs, rd.len as u64))
}

/// Copy the `remote` runs (of this process: a send to ourselves) into the `local` runs.
///
/// # Safety
/// Both lists must describe live memory of this process, `local` writable.
unsafe fn copy_runs(local: &[Run], remote: &[Run]) {
    let mut src = remote.iter().map(|r| (r.addr, r.len));
    let mut cur = (0u64, 0u64);
    for l in local {
        let (mut at, mut left) = (l.addr, l.len);
        while left > 0 {
            if cur.1 == 0 {
                let Some(next) = src.next() else {
                    return;
                };
                cur = next;
            }
            let n = left.min(cur.1);
            // SAFETY: the caller's contract; a send-to-self may share memory with its
            // receive, hence `copy`.
            unsafe { std::ptr::copy(cur.0 as *const u8, at as *mut u8, n as usize) };
            (at, left) = (at + n, left - n);
            cur = (cur.0 + n, cur.1 - n);
        }
    }
}
