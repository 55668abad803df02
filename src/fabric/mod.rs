//! fabric: the Rail interface (verbs-like, small and fixed; compare UCX's UCT) and its
//! providers. Upper layers see only `Rail` and `MemoryDomain`; nothing here knows about MPI.
//!
//! A rail offers channel semantics (`try_send` small messages, delivered in order per peer
//! by `poll`), memory semantics (`post` of a `Transfer`: an RDMA read or write between local
//! spans, with the keys of their registration, and registered peer memory named by a remote
//! key; `post_atomic` on 64-bit words), each completing later through `poll` as a
//! `Completion` with the caller's token, a memory domain that issues the rail's own keys
//! (its slot in a registration's `Keys`), a wait handle to sleep on, and `caps` saying what
//! it can do; beside it, a service queue for requests a peer's service thread carries out
//! (`service.rs`). `open` builds the rails of a job.

mod dispatch;
pub mod doorbell;
#[cfg(test)]
pub mod inproc;
pub mod loopback;
pub mod mapped;
pub mod memory;
mod open;
pub mod service;
pub mod settings;
pub mod shm;
pub mod tcp;
pub mod verbs;

pub use dispatch::AnyRail;
pub use doorbell::Doorbell;
pub use memory::{slot, Domains, Keys, MemKey, MemoryDomain, RemoteKey, RemoteKeys, SlotSet};
pub use open::{open, Bootstrap, Fabric, FabricSettings, Route};
pub use service::Service;
pub use shm::keys::KeyError;

use std::fmt;
use std::sync::Arc;

/// A range of memory: local (this process) or remote (the peer's addresses, as its
/// registration covers them). The layout of the run tables peers read (`repr(C)`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub addr: u64,
    pub len: u64,
}

/// A link's delivery so far (`Rail::link_progress`): bytes the peer acknowledged, and the
/// time the link spent with data in flight, so that the rate while busy is their ratio
/// whatever the idle gaps between messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkProgress {
    pub bytes: u64,
    pub busy_us: u64,
}

/// What a rail can do; the protocol layers pick protocols from this.
#[derive(Clone, Debug)]
pub struct RailCaps {
    pub name: &'static str,
    /// The slot of this rail's memory domain in a registration's `Keys` (`memory::slot`).
    pub slot: usize,
    /// Largest message `try_send` accepts, in bytes.
    pub max_message: usize,
    /// Bytes a send carries inside its descriptor, without a copy from a registered
    /// buffer (verbs: `max_inline_data`; shm: a ring cell, the same as `max_message`).
    pub max_inline: usize,
    /// Reads up to this many bytes need no local key either: they land in a registered
    /// buffer of the rail and are copied out at their completion (verbs: a bounce slot; a
    /// registration-cache lookup per small `MPI_Get` costs more than the copy).
    pub read_bounce: usize,
    /// Scatter/gather entries one posted operation takes on each side.
    pub max_sge: usize,
    /// One-sided reads and writes of peer memory (without the peer's CPU where the
    /// provider can: CMA, verbs).
    pub rdma_read: bool,
    pub rdma_write: bool,
    /// Remote 64-bit fetch-and-add and compare-and-swap (`post_atomic`).
    pub atomics: bool,
    /// Registration without pinning (on-demand paging).
    pub odp: bool,
    /// Peer memory the library allocated is reachable by plain loads and stores (shm).
    pub mapped: bool,
    /// Estimates for scheduling: bytes per second of one large transfer, and the one-way
    /// latency of a small message, in nanoseconds.
    pub bandwidth: u64,
    pub latency_ns: u64,
    /// Shortest run worth a scatter/gather entry: below it, packing through the channel is
    /// faster than one-sided transfers of the runs.
    pub min_rdma_run: usize,
    /// Posted transfers name their local memory by a registration's key (verbs: the lkey;
    /// without one the rail registers the memory for the transfer alone): callers that can
    /// register their buffers through the cache should.
    pub local_keys: bool,
    /// A rendezvous with the peers this rail reaches may be split (the receiver reads the
    /// head while the sender writes the tail, RAILMPI_RNDV_SPLIT); false: read whole.
    pub split_rendezvous: bool,
    /// An RDMA write can tell the peer it landed (`Transfer::notify`; verbs: a write with
    /// immediate data), so that no message need follow it.
    pub write_notify: bool,
    /// A thread of ours serves the rail (tcp's progress thread): it needs CPU time while the
    /// rank waits, so waiters spin briefly before they yield.
    pub progress_thread: bool,
    /// Messages up to this many bytes go eagerly to the peers this rail reaches, and a
    /// rendezvous with them is read whole, not split (0: the job's common eager limit and
    /// split).
    pub eager_limit: usize,
    /// Smallest stripe of a transfer split over several rails worth its fixed costs (a
    /// request and an answer per stripe).
    pub min_stripe: usize,
}

impl RailCaps {
    /// Both one-sided directions, which the rendezvous protocols need.
    pub fn rdma(&self) -> bool {
        self.rdma_read && self.rdma_write
    }

    /// What traffic may count on when it can take either rail (a peer's subchannels, or
    /// every rail): the smaller limits, the features both have, the larger costs. Name and
    /// slot stay this rail's (the first).
    /// The meet of every caps in `all` (the first's name and slot); None when empty.
    pub fn meet_all<'a>(mut all: impl Iterator<Item = &'a RailCaps>) -> Option<RailCaps> {
        let first = all.next()?.clone();
        Some(all.fold(first, |c, o| c.meet(o)))
    }

    pub fn meet(&self, o: &RailCaps) -> RailCaps {
        RailCaps {
            max_message: self.max_message.min(o.max_message),
            max_inline: self.max_inline.min(o.max_inline),
            read_bounce: self.read_bounce.min(o.read_bounce),
            max_sge: self.max_sge.min(o.max_sge),
            rdma_read: self.rdma_read && o.rdma_read,
            rdma_write: self.rdma_write && o.rdma_write,
            atomics: self.atomics && o.atomics,
            odp: self.odp && o.odp,
            mapped: self.mapped && o.mapped,
            bandwidth: self.bandwidth.min(o.bandwidth),
            latency_ns: self.latency_ns.max(o.latency_ns),
            min_rdma_run: self.min_rdma_run.max(o.min_rdma_run),
            local_keys: self.local_keys || o.local_keys,
            split_rendezvous: self.split_rendezvous && o.split_rendezvous,
            write_notify: self.write_notify && o.write_notify,
            progress_thread: self.progress_thread || o.progress_thread,
            // A rail's own eager limit holds where every rail has one; else the job's.
            eager_limit: match (self.eager_limit, o.eager_limit) {
                (0, _) | (_, 0) => 0,
                (a, b) => a.min(b),
            },
            min_stripe: self.min_stripe.max(o.min_stripe),
            ..self.clone()
        }
    }
}

/// Why an operation failed (posting, or in its completion).
#[derive(Debug)]
pub enum RailError {
    /// The peer's memory could not be reached (bad address, or access refused).
    Access(std::io::Error),
    /// Peer index outside the rail.
    NoSuchPeer(usize),
    /// The remote key does not allow the transfer; nothing moved.
    Key(KeyError),
    /// More scatter/gather entries than `caps().max_sge`.
    TooManyEntries,
    /// The rail does not offer this operation (see `caps`).
    Unsupported(&'static str),
    /// The rail's link to the peer failed (`RailEvent::Lost`): nothing more goes that way.
    Lost(usize),
}

impl RailError {
    /// The same error again, for each of several transfers one failure ends (an iWARP
    /// write fence covers many): the `io::Error` inside does not clone, so it is remade
    /// from its kind and text.
    pub fn again(&self) -> RailError {
        match self {
            RailError::Access(e) => RailError::Access(std::io::Error::new(e.kind(), e.to_string())),
            RailError::NoSuchPeer(p) => RailError::NoSuchPeer(*p),
            RailError::Key(k) => RailError::Key(*k),
            RailError::TooManyEntries => RailError::TooManyEntries,
            RailError::Unsupported(w) => RailError::Unsupported(w),
            RailError::Lost(p) => RailError::Lost(*p),
        }
    }
}

impl fmt::Display for RailError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RailError::Access(e) => write!(f, "remote memory access failed: {e}"),
            RailError::NoSuchPeer(p) => write!(f, "no such peer {p}"),
            RailError::Key(e) => write!(f, "refused: {e}"),
            RailError::TooManyEntries => write!(f, "too many scatter/gather entries"),
            RailError::Unsupported(what) => write!(f, "{what} is not offered by this rail"),
            RailError::Lost(p) => write!(f, "the link to peer {p} failed"),
        }
    }
}

/// Which way a posted transfer moves bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RdmaOp {
    /// Fill the local spans from the peer's remote spans.
    Read,
    /// The local spans to the peer's remote spans.
    Write,
}

/// One RDMA transfer as posted (compare UCT's `uct_iov_t` lists with their memory handles):
/// which way, with which peer, the local spans and the keys of the registration covering
/// them, the peer's spans and its key, and the token the completion carries. Span lists
/// are read during the post; the local memory must stay valid (and untouched) until the
/// completion is polled.
#[derive(Clone, Copy, Debug)]
pub struct Transfer<'a> {
    pub op: RdmaOp,
    pub peer: usize,
    pub local: &'a [Span],
    /// The keys of a registration covering every local span (each rail takes its slot's
    /// local key), or None: unregistered memory, which a rail that needs a local key
    /// registers for this transfer alone.
    pub lkeys: Option<&'a Keys>,
    pub remote: &'a [Span],
    /// The peer's keys for the remote spans, one per domain slot of the rails that reach
    /// it (each rail takes its own: `rkey`; a stripe or a failover to another port finds
    /// that port's).
    pub rkeys: &'a RemoteKeys,
    pub token: u64,
    /// A write only, on a rail with `write_notify`: once every byte is in place, the peer's
    /// rail reports `RailEvent::Notified` with this word (its completion here is as usual).
    pub notify: Option<u32>,
    /// The caller polls the rail before it needs the transfer done (one-sided operations,
    /// which complete at synchronization): a rail may hold a small one until its next poll
    /// to hand several to the adapter at once.
    pub defer: bool,
}

impl<'a> Transfer<'a> {
    /// A transfer of unregistered local memory (`lkeys` None; set it with struct update).
    pub fn new(
        op: RdmaOp,
        peer: usize,
        local: &'a [Span],
        remote: &'a [Span],
        rkeys: &'a RemoteKeys,
        token: u64,
    ) -> Self {
        Transfer {
            op,
            peer,
            local,
            lkeys: None,
            remote,
            rkeys,
            token,
            notify: None,
            defer: false,
        }
    }

    /// This transfer with other spans and token (a part of it).
    pub fn part<'b>(&self, local: &'b [Span], remote: &'b [Span], token: u64) -> Transfer<'b>
    where
        'a: 'b,
    {
        Transfer {
            local,
            remote,
            token,
            ..*self
        }
    }

    /// The local key for a rail of domain `slot` (0 when none was given).
    pub fn lkey(&self, slot: usize) -> Option<u64> {
        self.lkeys.map(|k| k.get(slot).local)
    }

    /// The peer's key for a rail of domain `slot`.
    pub fn rkey(&self, slot: usize) -> RemoteKey {
        self.rkeys.get(slot)
    }
}

/// Remote 64-bit atomic operations (executed at the target, atomically with respect to
/// every other atomic on the same word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    FetchAdd(u64),
    CompareSwap { compare: u64, swap: u64 },
}

/// A posted operation finished: `Ok(value)` (the fetched word for atomics, 0 otherwise).
#[derive(Debug)]
pub struct Completion {
    pub token: u64,
    pub result: Result<u64, RailError>,
}

/// What `poll` hands up.
pub enum RailEvent<'a> {
    /// A message from `peer` with the immediate word its sender gave it; the bytes are
    /// valid only during the call.
    Message {
        peer: usize,
        imm: u32,
        bytes: &'a [u8],
    },
    Completion(Completion),
    /// A write from `peer` that asked for it (`Transfer::notify`) is in place.
    Notified {
        peer: usize,
        imm: u32,
    },
    /// The link to `peer` failed (its connection ended without a goodbye); operations
    /// posted to it complete with `RailError::Lost`. Only a rail told that other rails
    /// reach its peers reports this; a rail that is a peer's only way ends the job instead.
    Lost {
        peer: usize,
        why: String,
        /// The link stopped answering (the peer may be alive), rather than its
        /// connection closing (the peer's end went).
        unreachable: bool,
    },
}

/// Set by `fatal`: this process is ending on an error (its exit handlers must not wait
/// for peers).
static FAILING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this process is ending through `fatal` or `fatal_after_death`.
pub fn failing() -> bool {
    FAILING.load(std::sync::atomic::Ordering::SeqCst)
}

/// The job cannot go on (a peer is unreachable): say why and end this process; the launcher
/// ends the others.
pub fn fatal(msg: &str) -> ! {
    use std::io::Write;
    FAILING.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = std::io::stderr().write_all(format!("railmpi: fatal: {msg}\n").as_bytes());
    std::process::exit(1)
}

/// How long a rank that learned of a peer's death waits before it ends itself.
const CONSEQUENCE_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// `fatal` for a peer that died: the death is the job's failure and our end only its
/// consequence, so give the launcher a moment to hear of the death first (it then ends us
/// itself) — else the job's status is our 1, not the dead rank's signal, whichever report
/// reaches the launcher first.
pub fn fatal_after_death(msg: &str) -> ! {
    use std::io::Write;
    FAILING.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = std::io::stderr().write_all(format!("railmpi: fatal: {msg}\n").as_bytes());
    std::thread::sleep(CONSEQUENCE_GRACE);
    std::process::exit(1)
}

/// The transport interface every provider implements.
///
/// Posted operations name peer memory by its addresses and the remote key of the peer's
/// registration covering them; the rail checks the key before a byte moves wherever it
/// places the data itself. Span lists are read during the call; the local memory they
/// describe must stay valid (and untouched) until the operation's completion is polled.
pub trait Rail: Send {
    fn caps(&self) -> &RailCaps;
    /// Number of peers this rail reaches (including this process).
    fn peers(&self) -> usize;
    /// The domain that registers memory for this rail.
    fn memory(&self) -> Arc<dyn MemoryDomain>;
    /// What this process sleeps on: rung when a message or a completion arrives (except a
    /// completion made inside this process's own post, which `has_completions` shows).
    fn wait_handle(&self) -> Doorbell;
    /// Queue one message made of `parts` for `peer`, with a 32-bit immediate word that
    /// travels beside the payload (verbs: send with immediate). False when there is no
    /// room now.
    fn try_send(&mut self, peer: usize, imm: u32, parts: &[&[u8]]) -> bool;
    /// The process is about to sleep on the wait handle: make sure the next arrival rings
    /// it (verbs: arm the completion queue, which a polling process leaves quiet). The
    /// caller polls once more afterwards, for what arrived before.
    fn arm(&mut self) {}
    /// Hand every waiting completion and message to `sink`. Returns the number delivered,
    /// or at least 1 when the rail did work for peers since the last poll (its waiting
    /// rank then keeps polling rather than sleep).
    fn poll(&mut self, sink: &mut dyn FnMut(RailEvent<'_>)) -> usize;
    /// Whether completions wait to be polled.
    fn has_completions(&self) -> bool;
    /// Post an RDMA read or write between `t.local`, in order, and `t.remote` of `t.peer`,
    /// in order (both lists describe the same byte count).
    ///
    /// # Safety
    /// The local spans must stay valid until the completion: readable and unchanged for a
    /// write, writable and untouched by others for a read.
    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError>;
    /// A 64-bit atomic on the 8-byte aligned word at `remote` in `peer`; the completion
    /// carries the word's previous value.
    fn post_atomic(
        &mut self,
        peer: usize,
        op: AtomicOp,
        remote: u64,
        rkey: RemoteKey,
        token: u64,
    ) -> Result<(), RailError>;
    /// What the link to `peer` has delivered since it opened (None where the rail cannot
    /// tell): the channel's adaptive striping learns each subchannel's rate from it, for
    /// the messages it does not stripe.
    fn link_progress(&self, _peer: usize) -> Option<LinkProgress> {
        None
    }
    /// The other rails' links to `peer` failed: this one carries the last. Hold on to it as
    /// a job's only link would (tcp: the full `RAILMPI_TCP_TIMEOUT` instead of the shorter
    /// failover timeout that lets traffic move to the other rails quickly).
    fn last_link(&mut self, _peer: usize) {}
    /// The job is over for this process (after its last collective): a rail with
    /// connections says goodbye on each and waits, bounded, for the peers' goodbyes, so
    /// that no peer takes the closing for a death. Nothing is sent afterwards.
    fn close(&mut self) {}
}
