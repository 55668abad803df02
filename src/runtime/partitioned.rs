//! Partitioned point-to-point communication (MPI-4.0 §4): a send channel whose partitions
//! each leave as its MPI_Pready marks it (one message per partition, not one at the end),
//! and a receive channel that reports each of its own partitions as soon as the bytes it
//! covers are in (MPI_Parrived), the two sides free to cut the same data into different
//! numbers of partitions.
//!
//! Channels are matched as MPI says: the k-th MPI_Psend_init to a peer with a tag meets the
//! peer's k-th MPI_Precv_init from us with that tag (`(tag, k)` names the channel). Every
//! partition travels on the communicator's collective context under one tag of its own
//! (`PART_TAG`: no collective tag is negative, no application receive looks there), with a
//! header saying which channel, round and partition it is; a receive channel drains the
//! messages from its peer, keeps those of other channels or of a later round for them
//! (`Matching`), and copies its own into a staging buffer, unpacking each of its partitions
//! into the application's buffer once complete.

use super::progress::ProgressState;
use super::world::World;
use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::{MsgBuf, Owner, Pattern, ReqId, SendStart, Status, Taken};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;

/// The tag of every partition message, on the collective context.
const PART_TAG: i32 = -0x5041;

/// round u32, tag i32, k u32, partition u32, partitions u32, pad u32, partition bytes u64.
const HEADER: usize = 32;

struct Header {
    round: u32,
    tag: i32,
    k: u32,
    part: u32,
    parts: u32,
    part_bytes: u64,
}

impl Header {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.round.to_le_bytes());
        out.extend_from_slice(&self.tag.to_le_bytes());
        out.extend_from_slice(&self.k.to_le_bytes());
        out.extend_from_slice(&self.part.to_le_bytes());
        out.extend_from_slice(&self.parts.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&self.part_bytes.to_le_bytes());
    }

    /// A message's header (None: shorter than one).
    fn read(m: &[u8]) -> Option<Header> {
        let u = |i: usize| u32::from_le_bytes(m[i..i + 4].try_into().expect("4 bytes"));
        (m.len() >= HEADER).then(|| Header {
            round: u(0),
            tag: u(4) as i32,
            k: u(8),
            part: u(12),
            parts: u(16),
            part_bytes: u64::from_le_bytes(m[24..32].try_into().expect("8 bytes")),
        })
    }
}

/// Which channels a counter counts: (context, peer's world rank, tag, sending).
type ChanKey = (u32, usize, i32, bool);

/// A message drained for another channel or a later round: its context, the peer's world
/// rank, its header and payload.
type Early = (u32, usize, Header, Vec<u8>);

/// A partition message being received, whichever channel drained it: the context, the
/// peer's world rank, the request, the message buffer.
type Receiving = (u32, usize, ReqId, Vec<u8>);

/// What the channels of a process share, kept with the progress engine's state (whose lock
/// every drain holds already).
#[derive(Default)]
pub struct Matching {
    /// The channels made so far, per key.
    counters: HashMap<ChanKey, u32>,
    /// Messages drained for other channels or later rounds.
    mailbox: Vec<Early>,
    /// Messages in flight. (Kept apart from the channels: a channel that completes must
    /// not take another's message in flight with it.)
    receiving: Vec<Receiving>,
}

impl Matching {
    fn next_k(&mut self, key: ChanKey) -> u32 {
        let k = self.counters.entry(key).or_insert(0);
        *k += 1;
        *k - 1
    }
}

/// Where a channel's data is: `count` elements of `ty` per partition, partition `p` at
/// `addr + p * count * extent`.
pub struct Layout {
    pub addr: usize,
    pub parts: usize,
    pub count: usize,
    pub ty: Datatype,
}

/// Who a channel connects: the communicator, the peer's rank in it (None: MPI_PROC_NULL),
/// the tag, and which of the channels with that peer and tag it is.
pub struct Ends {
    comm: Arc<Communicator>,
    peer: Option<usize>,
    tag: i32,
    k: u32,
}

impl Ends {
    /// The next channel to (`send`) or from `peer` with `tag`.
    pub fn new(
        e: &mut ProgressState,
        comm: Arc<Communicator>,
        peer: Option<usize>,
        tag: i32,
        send: bool,
    ) -> Ends {
        let k = match peer {
            Some(p) => e
                .partitioned
                .next_k((comm.ctx, comm.world_rank(p), tag, send)),
            None => 0,
        };
        Ends { comm, peer, tag, k }
    }
}

impl Layout {
    fn part_bytes(&self) -> usize {
        self.count * self.ty.size
    }

    fn buf(&self, p: usize) -> crate::coll::TypedBuf<'_> {
        let step = (p * self.count) as isize * self.ty.extent;
        let ptr = (self.addr as *const u8).wrapping_offset(step);
        crate::coll::TypedBuf::new(ptr, self.count, &self.ty)
    }
}

/// The sending side of a partitioned channel (MPI_Psend_init).
pub struct SendChan {
    ends: Ends,
    layout: Layout,
    round: u32,
    active: bool,
    ready: Vec<bool>,
    /// Sends in flight and the messages they send.
    sends: Vec<(ReqId, Vec<u8>)>,
    /// Other threads may still mark partitions ready (MPI_THREAD_MULTIPLE): a wait waits
    /// for them. Otherwise a wait before every MPI_Pready could never end: an error.
    threads: bool,
}

impl SendChan {
    /// # Safety
    /// `addr` holds `parts * count` elements of `ty` whenever the channel is active (MPI's
    /// contract for the buffer of a partitioned send).
    pub unsafe fn new(ends: Ends, layout: Layout, threads: bool) -> SendChan {
        let parts = layout.parts;
        SendChan {
            ends,
            layout,
            round: 0,
            active: false,
            ready: vec![false; parts],
            sends: Vec::new(),
            threads,
        }
    }

    pub fn active(&self) -> bool {
        self.active
    }

    /// MPI_Start: a new round, no partition ready.
    pub fn start(&mut self) {
        self.active = true;
        self.round += 1;
        self.ready.iter_mut().for_each(|r| *r = false);
    }

    /// MPI_Pready's first half: partition `p` marked ready and packed into its message
    /// (None: nothing to send, the peer is MPI_PROC_NULL). `send_partition` sends it, with
    /// the channel's lock released (a wait on the request holds the engine's lock and then
    /// takes the channel's: the other order would deadlock threads that share a request).
    pub fn pready(&mut self, p: usize) -> Result<Option<Outgoing>> {
        if !self.active {
            return mpi_err!(Request, "MPI_Pready on an inactive partitioned request");
        }
        let Some(r) = self.ready.get_mut(p) else {
            return mpi_err!(Arg, "no partition {p} (there are {})", self.layout.parts);
        };
        if *r {
            return mpi_err!(Arg, "partition {p} is marked ready already");
        }
        *r = true;
        let Some(dest) = self.ends.peer else {
            return Ok(None);
        };
        let mut msg = Vec::with_capacity(HEADER + self.layout.part_bytes());
        Header {
            round: self.round,
            tag: self.ends.tag,
            k: self.ends.k,
            part: p as u32,
            parts: self.layout.parts as u32,
            part_bytes: self.layout.part_bytes() as u64,
        }
        .write(&mut msg);
        msg.extend_from_slice(&self.layout.buf(p).pack());
        Ok(Some(Outgoing {
            comm: self.ends.comm.clone(),
            dest,
            msg,
        }))
    }

    /// A partition's send in flight (`send_partition`'s).
    pub fn sending(&mut self, s: (ReqId, Vec<u8>)) {
        self.sends.push(s);
    }

    /// Whether the round is over: every partition ready and sent (MPI_ERR_REQUEST from a
    /// single-threaded wait that would never end: some partition not marked ready).
    pub fn done(&mut self, e: &mut ProgressState) -> Result<bool> {
        if !self.active {
            return Ok(true);
        }
        self.sends
            .retain(|(r, _)| !matches!(e.p2p.take_done(*r), Taken::Done(..) | Taken::Gone));
        if !self.sends.is_empty() {
            return Ok(false);
        }
        if self.ready.iter().any(|r| !r) {
            if self.threads {
                return Ok(false);
            }
            return mpi_err!(
                Request,
                "a partitioned send completes only once every partition is ready"
            );
        }
        Ok(true)
    }

    /// The round completed (a wait or test returned it): inactive until the next start.
    pub fn finish(&mut self) {
        self.active = false;
    }
}

/// A partition's message, ready to go.
pub struct Outgoing {
    comm: Arc<Communicator>,
    dest: usize,
    msg: Vec<u8>,
}

/// Send a partition: Some(the request and its message, to keep until it completes).
pub fn send_partition(w: &World, o: Outgoing) -> Option<(ReqId, Vec<u8>)> {
    let ctx = o.comm.ctx + 1;
    let data = MsgBuf::contig(o.msg.as_ptr(), o.msg.len());
    // SAFETY: the message is returned with the request and kept until the send completes
    // (a Vec's heap buffer does not move with it).
    let started = unsafe { w.start_send(ctx, &o.comm, o.dest, PART_TAG, data, false, Owner::NONE) };
    match started {
        SendStart::Pending(req) => Some((req, o.msg)),
        SendStart::Done => None,
    }
}

/// The receiving side of a partitioned channel (MPI_Precv_init).
pub struct RecvChan {
    ends: Ends,
    layout: Layout,
    round: u32,
    active: bool,
    /// The round's bytes as they arrive, packed.
    staging: Vec<u8>,
    /// Per sender partition (known from the first message of the round): arrived.
    got: Vec<bool>,
    sender_part_bytes: usize,
    /// Per partition of ours: unpacked into the application's buffer.
    arrived: Vec<bool>,
    error: Option<crate::error::Error>,
}

impl RecvChan {
    /// # Safety
    /// `addr` has room for `parts * count` elements of `ty` whenever the channel is active.
    pub unsafe fn new(ends: Ends, layout: Layout) -> RecvChan {
        let parts = layout.parts;
        RecvChan {
            ends,
            layout,
            round: 0,
            active: false,
            staging: Vec::new(),
            got: Vec::new(),
            sender_part_bytes: 0,
            arrived: vec![false; parts],
            error: None,
        }
    }

    pub fn active(&self) -> bool {
        self.active
    }

    /// MPI_Start: a new round; what came early for it is taken from the mailbox.
    pub fn start(&mut self, m: &mut Matching) {
        self.active = true;
        self.round += 1;
        let total = self.layout.parts * self.layout.part_bytes();
        self.staging = vec![0; total];
        self.got.clear();
        self.sender_part_bytes = 0;
        self.error = None;
        let none = self.ends.peer.is_none();
        self.arrived.iter_mut().for_each(|a| *a = none);
        self.take_mailbox(m);
    }

    /// Take this round's messages that another channel's drain (or an earlier round's)
    /// put in the mailbox.
    fn take_mailbox(&mut self, m: &mut Matching) {
        let Some(src) = self.ends.peer else { return };
        let peer = self.ends.comm.world_rank(src);
        let mut i = 0;
        while i < m.mailbox.len() {
            let (ctx, p, h, _) = &m.mailbox[i];
            if *ctx == self.ends.comm.ctx + 1 && *p == peer && self.mine(h) {
                let (_, _, h, payload) = m.mailbox.remove(i);
                self.take(h, &payload);
            } else {
                i += 1;
            }
        }
    }

    fn mine(&self, h: &Header) -> bool {
        h.tag == self.ends.tag && h.k == self.ends.k && h.round == self.round
    }

    /// A partition message of this round: its bytes staged, our partitions it completes
    /// unpacked.
    fn take(&mut self, h: Header, payload: &[u8]) {
        let total = self.staging.len();
        let (parts, pb) = (h.parts as usize, h.part_bytes as usize);
        if self.got.is_empty() {
            if parts.checked_mul(pb) != Some(total) || payload.len() != pb {
                self.error = Some(crate::error::Error::new(
                    crate::error::ErrorClass::Truncate,
                    format!("partitioned send of {parts} x {pb} bytes into a receive of {total}"),
                ));
                return;
            }
            self.got = vec![false; parts];
            self.sender_part_bytes = pb;
        }
        let q = h.part as usize;
        if q >= self.got.len() || payload.len() != self.sender_part_bytes || self.got[q] {
            return;
        }
        self.got[q] = true;
        self.staging[q * pb..(q + 1) * pb].copy_from_slice(payload);
        let (rpb, r) = (self.layout.part_bytes(), self.layout.parts);
        // Our partitions the sender's partition q overlaps (with no bytes at all, any).
        let touched = match rpb {
            0 => 0..r,
            _ => q * pb / rpb..((q + 1) * pb).div_ceil(rpb).min(r),
        };
        for p in touched {
            if self.arrived[p] {
                continue;
            }
            // Our partition p: the sender partitions over its bytes (with no bytes at all,
            // those over its share of the partitions: an empty partition still arrives
            // only once the sender marks it ready).
            let (lo, hi) = (p * rpb, (p + 1) * rpb);
            let covering = match lo.checked_div(pb) {
                Some(first) => first..hi.div_ceil(pb),
                None => p * parts / r..((p + 1) * parts).div_ceil(r),
            };
            let complete = covering.into_iter().all(|s| self.got[s]);
            if complete {
                // SAFETY: the application's buffer has room for the partition (`new`).
                unsafe { self.layout.buf(p).unpack_from(&self.staging[lo..hi]) };
                self.arrived[p] = true;
            }
        }
    }

    /// Take in what has arrived from the peer (others' messages to the mailbox).
    pub fn drain(&mut self, e: &mut ProgressState) {
        let Some(src) = self.ends.peer else { return };
        if !self.active {
            return;
        }
        let peer = self.ends.comm.world_rank(src);
        let ctx = self.ends.comm.ctx + 1;
        let pat = Pattern {
            ctx,
            src: Some(src as i32),
            tag: Some(PART_TAG),
        };
        let ProgressState {
            p2p, partitioned, ..
        } = e;
        let receiving = &mut partitioned.receiving;
        while let Some((msg, st)) = p2p.improbe(&pat) {
            let mut buf = vec![0u8; st.count];
            // SAFETY: `buf` lives in `receiving` until the receive completes.
            let req = unsafe {
                let into = MsgBuf::contig(buf.as_mut_ptr(), buf.len());
                p2p.mrecv(msg, into, Owner::NONE)
            };
            if let Some(r) = req {
                receiving.push((ctx, peer, r, buf));
            }
        }
        let mut i = 0;
        while i < receiving.len() {
            let (c, p, r, _) = &receiving[i];
            if (*c, *p) != (ctx, peer) || matches!(p2p.take_done(*r), Taken::Pending) {
                i += 1;
                continue;
            }
            let (_, _, _, m) = receiving.remove(i);
            let Some(h) = Header::read(&m) else { continue };
            if self.mine(&h) {
                self.take(h, &m[HEADER..]);
            } else {
                partitioned
                    .mailbox
                    .push((ctx, peer, h, m[HEADER..].to_vec()));
            }
        }
        // What other channels from this peer drained for this one.
        self.take_mailbox(partitioned);
    }

    /// MPI_Parrived: whether partition `p` is in the application's buffer.
    pub fn parrived(&mut self, e: &mut ProgressState, p: usize) -> Result<bool> {
        if p >= self.layout.parts {
            return mpi_err!(Arg, "no partition {p} (there are {})", self.layout.parts);
        }
        if !self.active {
            return Ok(true);
        }
        self.drain(e);
        Ok(self.arrived[p])
    }

    /// Whether the round is over (its error, if the sides did not agree on the size).
    pub fn done(&mut self, e: &mut ProgressState) -> Result<bool> {
        if !self.active {
            return Ok(true);
        }
        self.drain(e);
        if let Some(err) = &self.error {
            return Err(err.clone());
        }
        Ok(self.arrived.iter().all(|&a| a))
    }

    /// The round completed (a wait or test returned it): inactive until the next start.
    pub fn finish(&mut self) {
        self.active = false;
    }

    /// The round's status: the source and tag, the bytes received.
    pub fn received(&self) -> (i32, i32, usize) {
        match self.ends.peer {
            Some(s) => (s as i32, self.ends.tag, self.staging.len()),
            None => (-1, -1, 0),
        }
    }
}

// ------------------------------------------------------------------ the calls

/// MPI_Psend_init (`send`) and MPI_Precv_init: a channel for `partitions` x `count`
/// elements of `ty` at `buf`, to or from `peer` (None: MPI_PROC_NULL) with `tag`. The
/// binding translated those two, their errors deferred to here, where MPICH reports them:
/// after the partitions' number and the buffer's.
///
/// # Safety
/// MPI's: the buffer stays valid while the request exists.
#[allow(clippy::too_many_arguments)]
pub unsafe fn init(
    w: &World,
    comm: Arc<Communicator>,
    buf: *const u8,
    partitions: i32,
    count: usize,
    ty: &Datatype,
    peer: Result<Option<usize>>,
    tag: Result<i32>,
    send: bool,
) -> Result<PartRef> {
    if partitions < 1 {
        return mpi_err!(Arg, "{partitions} partitions: at least one is needed");
    }
    let parts = partitions as usize;
    let Some(total) = parts.checked_mul(count) else {
        return mpi_err!(Count, "{parts} x {count} elements overflow");
    };
    super::p2p::buffer(buf, total, ty)?;
    super::p2p::bytes(total, ty)?;
    let (tag, peer) = (tag?, peer?);
    let ends = w.progress.with(|e| Ends::new(e, comm, peer, tag, send));
    let addr = buf as usize;
    let ty = ty.clone();
    let layout = Layout {
        addr,
        parts,
        count,
        ty,
    };
    let p = match send {
        true => Part::Send(SendChan::new(ends, layout, w.thread_level_multiple)),
        false => Part::Recv(RecvChan::new(ends, layout)),
    };
    Ok(Arc::new(Mutex::new(p)))
}

/// MPI_Pready_range (MPI_Pready: `low` = `high`) on channel `p`.
pub fn pready_range(w: &World, p: &PartRef, low: i32, high: i32) -> Result<()> {
    if low < 0 || high < low {
        return mpi_err!(Arg, "invalid partition range {low}..={high}");
    }
    for i in low..=high {
        // Packed under the channel's lock, sent without it (see `SendChan::pready`).
        let out = match &mut *p.lock() {
            Part::Send(s) => s.pready(i as usize)?,
            Part::Recv(_) => return mpi_err!(Request, "MPI_Pready on a partitioned receive"),
        };
        if let Some(sent) = out.and_then(|o| send_partition(w, o)) {
            if let Part::Send(s) = &mut *p.lock() {
                s.sending(sent);
            }
        }
    }
    Ok(())
}

/// MPI_Parrived on channel `p`: whether `partition` has arrived.
pub fn parrived(w: &World, p: &PartRef, partition: i32) -> Result<bool> {
    let Ok(q) = usize::try_from(partition) else {
        return mpi_err!(Arg, "invalid partition {partition}");
    };
    w.progress.with(|e| match &mut *p.lock() {
        Part::Recv(r) => r.parrived(e, q),
        Part::Send(_) => mpi_err!(Request, "MPI_Parrived on a partitioned send"),
    })
}

/// A partitioned request's channel (the binding keeps it behind its request handle).
pub enum Part {
    Send(SendChan),
    Recv(RecvChan),
}

pub type PartRef = Arc<Mutex<Part>>;

impl Part {
    pub fn active(&self) -> bool {
        match self {
            Part::Send(s) => s.active(),
            Part::Recv(r) => r.active(),
        }
    }

    pub fn start(&mut self, m: &mut Matching) {
        match self {
            Part::Send(s) => s.start(),
            Part::Recv(r) => r.start(m),
        }
    }

    /// Whether the round is complete (with the progress engine's state locked).
    pub fn done(&mut self, e: &mut ProgressState) -> Result<bool> {
        match self {
            Part::Send(s) => s.done(e),
            Part::Recv(r) => r.done(e),
        }
    }

    /// The round's status, the request made inactive.
    pub fn finish(&mut self) -> Status {
        match self {
            Part::Send(s) => {
                s.finish();
                Status::default()
            }
            Part::Recv(r) => {
                r.finish();
                let (src, tag, n) = r.received();
                Status::received(src, tag, n, n)
            }
        }
    }
}
