//! The point-to-point protocol engine: eager, rendezvous by RDMA read (RGET), RDMA write
//! (RPUT), the pipeline of Woodall 2006 (§4; with cached block registrations, §5.2) and the
//! streamed copy path for rails without RDMA.
//!
//! Sans-I/O (compare quinn-proto's `handle_event` / `poll_transmit`): events come in —
//! packets through `on_packet`, completions of posted RDMA operations through
//! `on_completion` — and only change state: replies wait in an outbound queue, RDMA work
//! (and the registrations and prefetches around it) in work queues. `flush` and
//! `run_rdma` turn them into actions on an `Io` (send this, post this read or write with
//! this key, register, prefetch), which the runtime carries out on the channels and the
//! registration cache and the tests carry between two engines. Nothing here touches a
//! rail or a syscall, blocks, or knows about MPI handles.
//!
//! Here: the settings, the engine's state and requests, and the dispatch of arriving
//! packets; each protocol in its own file — `eager.rs` (the fast path, receives),
//! `rndv.rs` (RGET / RPUT / split), `pipeline.rs` (Woodall 2006), `stream.rs` (the copy
//! path), `outbox.rs` (what waits to go out, in order), `posted.rs` (RDMA operations and
//! their completions), `io.rs` (the actions).
//!
//! Buffers are raw pointers into the application's memory. MPI's rules make that sound: a
//! buffer handed to a nonblocking call stays valid and untouched until its request
//! completes, and the ABI layer checked that `(buf, len)` describes the buffer.

use super::buffer::{self, MsgBuf, Run, TableError, MAX_RUN_TABLE, RUN_ENTRY};
use super::matching::{Envelope, MatchQueues, Pattern};
use super::request::{Bounce, Kind, Owner, RecvState, ReqId, Request, SendWait, Slab, Status};
use super::wire::{self, MatchHeader, Packet};
use crate::channel::Event;
use crate::fabric::{Completion, Keys, RailError, RdmaOp, RemoteKeys, Span, Transfer};
use crate::registration::{Access, Mode, RegPolicy, Registration};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

mod eager;
use eager::copy_out;
mod io;
pub use io::{ChannelIo, Io};
mod outbox;
mod pipeline;
mod posted;
mod rndv;
mod stream;

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
    rkey: RemoteKeys,
    entries: u64,
    table_rkey: RemoteKeys,
}

/// Where a queued matching packet's payload is.
#[derive(Clone, Copy)]
enum Payload {
    Contig(*const u8, usize),
    /// Gathered from the runs of this (pending) send request.
    Runs(ReqId),
}

impl Payload {
    /// Bytes counted against a peer's queue (a run payload's are not known here: an eager
    /// message's runs are small by definition).
    fn len(&self) -> usize {
        match self {
            Payload::Contig(_, n) => *n,
            Payload::Runs(_) => 0,
        }
    }
}

/// Header bytes a queued matching packet holds inline: EAGER, PIPE_RTS, and an RTS with
/// one key (its run-table form included).
const HEAD_INLINE: usize = 64;

/// One item waiting to go out to a peer.
enum Outbound {
    /// Matching packet (EAGER/RTS): header bytes plus the payload (empty for RTS).
    Match {
        head: [u8; HEAD_INLINE],
        /// The whole header instead, where it is longer (an RTS with keys for several
        /// rails): the queue's entries stay small, as every queued send is copied at flush.
        long: Option<Box<[u8]>>,
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
    rkey: RemoteKeys,
    /// The notice the receiver asked the write to carry (0: none; see `WriteAsk`).
    note: u32,
}

/// A matched rendezvous waiting for `run_rdma` to begin it (`begin_rdma`).
struct RndvDue {
    peer: usize,
    req: ReqId,
    sender_req: u64,
    total: u64,
    /// The bytes our buffer takes.
    take: usize,
    rts: RtsRef,
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
    rkey: RemoteKeys,
    receiver_req: u64,
    /// The send buffer's registration's keys (None: unregistered).
    lkeys: Option<Keys>,
    /// As for `PipeWrite`.
    note: u32,
}

/// The payload read of a non-contiguous rendezvous, once the sender's run table is read
/// and checked: `len` bytes at `offset` of the receive buffer from the `remote` runs.
struct PayloadRead {
    peer: usize,
    req: ReqId,
    offset: usize,
    len: usize,
    remote: buffer::RunList,
    rkey: RemoteKeys,
}

/// An RDMA operation posted to the rail, by its token, until its completion.
enum Posted {
    /// The first step of reading a non-contiguous payload: its run table, into `raw`.
    Table { rd: RdmaRead, raw: Box<[u8]> },
    /// Our read of (part of) a rendezvous payload into receive `req`.
    Read { req: ReqId },
    /// The sender's write of a split rendezvous's tail (`noted`: it carries the
    /// receiver's notice, which stands for PUT_DONE).
    Write {
        peer: usize,
        receiver_req: u64,
        noted: bool,
    },
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
    /// Payload bytes in `matching` (flow control: see `send_queued`).
    queued_bytes: usize,
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

/// A message a matched probe took out of matching (MPI_Message), for `mrecv`.
pub type MsgId = u64;

/// A request as a waiter finds it (see `Pt2pt::take_done`).
pub enum Taken {
    /// No such request (a stale id, or one freed already).
    Gone,
    Pending,
    /// Complete, and now removed: its status and owner.
    Done(Status, Owner),
}

/// How messages to one peer go (the settings', unless the rail to it calls for others).
#[derive(Clone, Copy, Debug)]
struct PeerProtocol {
    /// Largest payload sent eagerly (0 while the peer throttles us).
    eager_limit: usize,
    /// The eager limit when the peer does not throttle us.
    normal_eager_limit: usize,
    /// From this many bytes on a rendezvous is split (0: never).
    split_threshold: usize,
    /// Writes between us may carry a notice (`set_peer_notify`): the receiver asks for
    /// one in PUT_REQ and PIPE_READY, the sender writes with it instead of answering.
    notify: bool,
    /// Rendezvous payloads may move by RDMA (false for a peer that joined later, whose
    /// rail's domain keys none of our registrations: `add_peer`); else they stream.
    rdma: bool,
}

/// What a write notice we asked for stands for (`Pt2pt::notes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Noted {
    /// The sender's write of a split rendezvous's tail into receive `req` (PUT_DONE).
    Put { req: ReqId },
    /// A pipeline block of receive `req` (PIPE_FIN).
    Block { req: ReqId, offset: u64, len: u64 },
}

pub struct Pt2pt {
    me: usize,
    settings: ProtocolSettings,
    max_message: usize,
    /// Per peer: how messages to it go (`set_peer_network` for peers over a network).
    peer_protocol: Vec<PeerProtocol>,
    reqs: Slab,
    mq: MatchQueues<ReqId, Unexpected>,
    /// Messages taken out of matching by a matched probe (MPI_Mprobe), by `MsgId`, until
    /// their MPI_Mrecv.
    matched: FxHashMap<MsgId, (Envelope, Unexpected)>,
    next_msg: MsgId,
    out: Vec<PeerOut>,
    /// Peers with something in `out` (each listed once).
    busy_peers: Vec<usize>,
    streams: VecDeque<Stream>,
    /// Matched rendezvous whose transfer `run_rdma` begins (registering is an action).
    rndv_due: Vec<RndvDue>,
    /// Our reads of the rendezvous `run_rdma` begins, posted once every write request of
    /// that round is out (a buffer kept between rounds).
    reads_due: Vec<RdmaRead>,
    writes: Vec<RdmaWrite>,
    /// Pipelines in progress (Woodall 2006, §4): sends and receives by request, receives
    /// whose next blocks are due for registration, and READY'd blocks to write.
    pipes_out: FxHashMap<ReqId, PipeSend>,
    pipes_in: FxHashMap<ReqId, PipeRecv>,
    pipe_due: Vec<ReqId>,
    pipe_writes: Vec<PipeWrite>,
    /// Write notices asked for and not yet come, by their word: from which peer, for what.
    notes: FxHashMap<u32, (usize, Noted)>,
    next_note: u32,
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
    /// How rendezvous payloads are registered (through `Io`): pin-down or ODP, and when
    /// ODP prefetches (Li 2016 §VII).
    pub reg_policy: RegPolicy,
    /// Receives whose buffers odp-optimal prefetches once their control message is out.
    prefetch_due: Vec<ReqId>,
    /// Flow control: unexpected eager bytes held per peer, and whether we told the peer to
    /// throttle (send by rendezvous) because they passed `unexpected_limit`; it may send
    /// eagerly again once they are down to half (0: no limit).
    unexpected_bytes: Vec<usize>,
    throttling: Vec<bool>,
    pub unexpected_limit: usize,
    /// Bytes sent eagerly since the last progress round (`polled`): the receiver's
    /// THROTTLE is read only when we poll, so a run of nonblocking sends with no poll
    /// between goes by rendezvous past a quarter of the unexpected limit — else a flood
    /// whose receiver keeps pace with the ring (nothing backs up here) went out eager whole
    /// (flood.n2: 98 MiB held at times against the 32 MiB limit).
    eager_unpolled: usize,
    /// Count of completed requests, so waiters can tell that something happened.
    pub completions: u64,
    /// Protocol violations seen from peers (dropped packets).
    pub bad_packets: u64,
    /// Write notices that stood for a PUT_DONE or PIPE_FIN (RAILMPI_STATS).
    pub notices: u64,
    /// Rendezvous split between our read and the sender's write (RAILMPI_STATS).
    pub splits: u64,
    /// Messages by protocol (the MPI_T performance variables).
    pub counts: ProtocolCounts,
}

/// Messages by protocol: sent eagerly, by rendezvous, by the pipeline; rendezvous received
/// by RDMA (read, or read and written when split) or streamed through the channel.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProtocolCounts {
    pub eager: u64,
    pub rendezvous: u64,
    pub pipeline: u64,
    pub rdma_received: u64,
    pub streamed_received: u64,
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
            peer_protocol: vec![
                PeerProtocol {
                    eager_limit: settings.eager_limit,
                    normal_eager_limit: settings.eager_limit,
                    split_threshold: settings.split_threshold,
                    notify: false,
                    rdma: true,
                };
                peers
            ],
            settings,
            max_message,
            reqs: Slab::default(),
            mq: MatchQueues::new(),
            matched: FxHashMap::default(),
            next_msg: 1,
            out: (0..peers).map(|_| PeerOut::default()).collect(),
            busy_peers: Vec::new(),
            streams: VecDeque::new(),
            rndv_due: Vec::new(),
            reads_due: Vec::new(),
            writes: Vec::new(),
            pipes_out: FxHashMap::default(),
            pipes_in: FxHashMap::default(),
            pipe_due: Vec::new(),
            pipe_writes: Vec::new(),
            notes: FxHashMap::default(),
            next_note: 0,
            backward_prefetch: Vec::new(),
            posted: Vec::new(),
            free_posted: Vec::new(),
            live_posted: 0,
            payload_reads: Vec::new(),
            min_rdma_run: 0,
            reg_policy: RegPolicy::Pin,
            prefetch_due: Vec::new(),
            unexpected_bytes: vec![0; peers],
            throttling: vec![false; peers],
            unexpected_limit: 0,
            eager_unpolled: 0,
            completions: 0,
            bad_packets: 0,
            notices: 0,
            splits: 0,
            counts: ProtocolCounts::default(),
        }
    }

    pub fn eager_limit(&self) -> usize {
        self.settings.eager_limit
    }

    /// `peer` is reached over a network rail that takes messages of `rail_max_message`
    /// bytes: messages up to `limit` bytes go eagerly (a rendezvous costs round trips that
    /// a copy of a few tens of KiB does not; never below the common limit).
    pub fn set_peer_network(&mut self, peer: usize, limit: usize, rail_max_message: usize) {
        if let Some(p) = self.peer_protocol.get_mut(peer) {
            let cap = rail_max_message.saturating_sub(wire::EAGER_SYNC_HEADER);
            p.normal_eager_limit = limit.min(cap).max(self.settings.eager_limit);
            p.eager_limit = p.normal_eager_limit;
        }
    }

    /// Rendezvous with `peer` are read whole, never split (its rail says so: over tcp,
    /// with one wire between the two, the split's write costs a round trip and moves
    /// nothing in parallel).
    pub fn set_peer_no_split(&mut self, peer: usize) {
        if let Some(p) = self.peer_protocol.get_mut(peer) {
            p.split_threshold = 0;
        }
    }

    /// Writes to and from `peer` may carry a notice (its rail can: `Channels::notifies`).
    pub fn set_peer_notify(&mut self, peer: usize) {
        if let Some(p) = self.peer_protocol.get_mut(peer) {
            p.notify = true;
        }
    }

    /// The word to ask `peer` to write with for `what`, or 0 (no notice: it answers with a
    /// message) where writes to us from it cannot carry one.
    fn new_note(&mut self, peer: usize, what: Noted) -> u32 {
        if !self.peer_protocol.get(peer).is_some_and(|p| p.notify) {
            return 0;
        }
        loop {
            self.next_note = self.next_note.wrapping_add(1);
            let n = self.next_note;
            if n != 0 && !self.notes.contains_key(&n) {
                self.notes.insert(n, (peer, what));
                return n;
            }
        }
    }

    /// Whether a write to `peer` asked to carry notice `note` may (0: none asked).
    fn notice_for(&self, peer: usize, note: u32) -> Option<u32> {
        (note != 0 && self.peer_protocol.get(peer).is_some_and(|p| p.notify)).then_some(note)
    }

    /// A write notice from `peer`: the write it stands for is in place.
    pub fn on_notice(&mut self, peer: usize, note: u32) {
        match self.notes.get(&note) {
            Some(&(p, what)) if p == peer => {
                self.notes.remove(&note);
                self.notices += 1;
                match what {
                    Noted::Put { req } => self.on_put_done(peer, req, true),
                    Noted::Block { req, offset, len } => {
                        self.on_pipe_fin(peer, req, offset, len, true)
                    }
                }
            }
            _ => self.reject(peer, "a write notice that was not asked for"),
        }
    }

    /// Write notices asked for and not yet come or forgotten.
    #[cfg(test)]
    pub(crate) fn notices_due(&self) -> usize {
        self.notes.len()
    }

    /// The sender answered with a message where we asked for a notice (its write failed,
    /// or it cannot write with one): the notice will not come.
    fn forget_note(&mut self, what: Noted) {
        if !self.notes.is_empty() {
            self.notes.retain(|_, (_, w)| *w != what);
        }
    }

    /// A progress round polled the channels: control messages (THROTTLE) were read.
    #[inline]
    pub fn polled(&mut self) {
        self.eager_unpolled = 0;
    }

    /// Whether eager sends must wait for a poll (`eager_unpolled`).
    #[inline]
    fn unpolled_past_budget(&self) -> bool {
        self.past_quarter_limit(self.eager_unpolled)
    }

    /// Whether `bytes` reach a quarter of the receiver's unexpected limit: where the
    /// sender's half of flow control turns eager messages to rendezvous.
    #[inline]
    fn past_quarter_limit(&self, bytes: usize) -> bool {
        self.unexpected_limit > 0 && bytes >= self.unexpected_limit / 4
    }

    /// The eager limit towards `peer`.
    #[inline]
    /// A peer that joined after the start (MPI-2 dynamic processes), reached over a rail
    /// whose largest message is `rail_max_message` and whose eager limit is `limit`: its
    /// rendezvous stream (see `PeerProtocol::rdma`). Returns its number (the next).
    pub fn add_peer(&mut self, limit: usize, rail_max_message: usize) -> usize {
        let peer = self.peer_protocol.len();
        self.peer_protocol.push(PeerProtocol {
            eager_limit: self.settings.eager_limit,
            normal_eager_limit: self.settings.eager_limit,
            split_threshold: 0,
            notify: false,
            rdma: false,
        });
        self.out.push(PeerOut::default());
        self.unexpected_bytes.push(0);
        self.throttling.push(false);
        self.set_peer_network(peer, limit, rail_max_message);
        peer
    }

    /// Whether rendezvous payloads with `peer` may move by RDMA.
    #[inline]
    pub(super) fn rdma_with(&self, peer: usize) -> bool {
        self.settings.rdma && self.peer_protocol.get(peer).is_some_and(|p| p.rdma)
    }

    pub(super) fn eager_limit_for(&self, peer: usize) -> usize {
        self.peer_protocol
            .get(peer)
            .map_or(self.settings.eager_limit, |p| p.eager_limit)
    }

    /// From how many bytes on a rendezvous with `peer` is split (0: never).
    pub(super) fn split_threshold_for(&self, peer: usize) -> usize {
        self.peer_protocol
            .get(peer)
            .map_or(self.settings.split_threshold, |p| p.split_threshold)
    }

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
            owner: Owner::NONE,
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
    pub fn set_owner(&mut self, req: ReqId, owner: Owner) {
        if let Some(r) = self.reqs.get_mut(req) {
            r.owner = owner;
        }
    }

    /// The request now in slot `slot` (how the ABI turns a handle back into an id).
    pub fn slot_id(&self, slot: u32) -> Option<ReqId> {
        self.reqs.id_at(slot)
    }

    /// A request, removed if it is complete (what every wait and test comes down to).
    /// Inlined so that the status reaches the waiter in registers.
    #[inline(always)]
    pub fn take_done(&mut self, req: ReqId) -> Taken {
        match self.reqs.get(req) {
            None => Taken::Gone,
            Some(r) if !r.done => Taken::Pending,
            Some(_) => match self.reqs.remove(req) {
                Some((status, owner)) => Taken::Done(status, owner),
                None => Taken::Gone,
            },
        }
    }

    /// Remove a completed request; its status and owner.
    pub fn take_done_owned(&mut self, req: ReqId) -> Option<(Status, Owner)> {
        match self.take_done(req) {
            Taken::Done(st, owner) => Some((st, owner)),
            _ => None,
        }
    }

    /// Remove a completed request and return its status.
    pub fn take_if_done(&mut self, req: ReqId) -> Option<Status> {
        self.take_done_owned(req).map(|(st, _)| st)
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

    /// Unexpected eager bytes held from `peer` (flow control).
    pub fn unexpected_held(&self, peer: usize) -> usize {
        self.unexpected_bytes.get(peer).copied().unwrap_or(0)
    }

    pub fn live_requests(&self) -> usize {
        self.reqs.live()
    }

    fn complete(&mut self, req: ReqId) {
        self.completions += 1;
        if let Some(r) = self.reqs.get_mut(req) {
            r.done = true;
            if r.completes_in_place() {
                return;
            }
            // Released now, not when the application collects the request: pins are
            // scarce (a cache may keep the pages registered for the next transfer).
            if r.reg.is_some() {
                r.reg = None;
                r.table_reg = None;
            }
            if let Some(Bounce {
                bytes,
                unpack_to: Some(runs),
            }) = r.bounce.as_deref_mut()
            {
                if !r.status.cancelled() {
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

    /// Handle one rail event: a message, or the completion of a posted operation.
    #[inline]
    pub fn on_event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Message { peer, bytes } => self.on_packet(peer, bytes),
            Event::Completion(c) => self.on_completion(c),
            Event::Notified { peer, imm } => self.on_notice(peer, imm),
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
                        if r.completes_in_place() {
                            // The common eager receive: no second look-up of the request.
                            r.done = true;
                            self.completions += 1;
                        } else {
                            self.complete(req);
                        }
                    }
                    None => {
                        self.hold_unexpected(peer, payload.len());
                        self.mq.push_unexpected(
                            env,
                            Unexpected::Eager {
                                peer,
                                data: payload.to_vec(),
                                sync,
                            },
                        )
                    }
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
                    rkey,
                    entries,
                    table_rkey,
                };
                match self.mq.arrive(&env) {
                    Some(req) => self.start_rendezvous(req, peer, &hdr, rts),
                    None => self
                        .mq
                        .push_unexpected(env, Unexpected::Rts { peer, hdr, rts }),
                }
            }
            Packet::Throttle { on } => {
                if let Some(p) = self.peer_protocol.get_mut(peer) {
                    p.eager_limit = if on { 0 } else { p.normal_eager_limit };
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
                note,
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
                        reg,
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
                            rkey,
                            receiver_req,
                            lkeys: reg.as_ref().map(|g| *g.keys()),
                            note,
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
                    None => {
                        self.hold_unexpected(peer, payload.len());
                        self.mq.push_unexpected(
                            env,
                            Unexpected::PipeRts {
                                peer,
                                hdr,
                                data: payload.to_vec(),
                            },
                        )
                    }
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
                note,
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
                    rkey,
                    note,
                });
            }
            Packet::PipeFin {
                receiver_req,
                offset,
                len,
                ok,
            } => {
                self.forget_note(Noted::Block {
                    req: receiver_req,
                    offset,
                    len,
                });
                self.on_pipe_fin(peer, receiver_req, offset, len, ok)
            }
            Packet::PutDone { receiver_req, ok } => {
                self.forget_note(Noted::Put { req: receiver_req });
                self.on_put_done(peer, receiver_req, ok)
            }
        }
    }

    /// Block `[offset, offset + len)` of pipelined receive `receiver_req` was written
    /// (`ok`), or comes streamed instead: PIPE_FIN, or the write's notice.
    fn on_pipe_fin(&mut self, peer: usize, receiver_req: u64, offset: u64, len: u64, ok: bool) {
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
                        // Deregistered on FIN (Woodall 2006, §4). A block that could not be
                        // written comes as RNDV_DATA instead.
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
        // The FIN advances the pipeline: the next block is registered and READY'd in
        // `run_rdma`.
        self.pipe_due.push(receiver_req);
        self.pipe_check_recv(receiver_req);
    }

    /// The sender's write of a split rendezvous's tail into `receiver_req` is done (`ok`)
    /// or failed: PUT_DONE, or the write's notice.
    fn on_put_done(&mut self, peer: usize, receiver_req: u64, ok: bool) {
        match self.reqs.get_mut(receiver_req) {
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
        }
    }

    fn reject(&mut self, peer: usize, why: &str) {
        self.bad_packets += 1;
        tracing::error!(peer, "dropped a malformed packet: {why}");
    }

    /// Anything left to push out or read?
    pub fn has_output(&self) -> bool {
        !self.busy_peers.is_empty()
            || !self.streams.is_empty()
            || !self.rndv_due.is_empty()
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
