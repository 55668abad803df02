//! Requests of the point-to-point engine, kept in a slab. A `ReqId` carries a generation so
//! a stale id (from a peer's reply, or a freed handle) never reaches a reused slot.

use super::buffer::MsgBuf;
use crate::registration::Registration;

/// `generation << 32 | slot`. Zero is never a valid id (generations start at 1).
pub type ReqId = u64;

/// What a completed receive reports (MPI_Status without MPI's encoding).
///
/// The two conditions live in one word rather than two `bool`s: an enum around a status
/// (`Option`, `Result`, the wait results) would otherwise keep its tag in a bool's spare
/// values, and every move then copied the bytes around it with overlapping narrow loads and
/// stores, which stall store forwarding (a fifth of a receiver's time at high message rates).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    pub source: i32,
    pub tag: i32,
    /// Bytes received (or sent).
    pub count: usize,
    pub(crate) flags: u32,
    /// The message's own length when it was truncated (saturated at `u32::MAX`; it lives in
    /// what was padding, so the status stays 24 bytes): what an error message names.
    pub(crate) sent: u32,
}

// `sent` took what was padding: a status still moves in three words.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Status>() == 24);

const TRUNCATED: u32 = 1;
const CANCELLED: u32 = 2;

impl Status {
    /// A receive's status: `count` bytes of a message of `len` bytes were received (truncated
    /// when `len` is larger: the message was longer than the buffer).
    #[inline(always)]
    pub fn received(source: i32, tag: i32, count: usize, len: usize) -> Self {
        let truncated = len > count;
        Status {
            source,
            tag,
            count,
            flags: if truncated { TRUNCATED } else { 0 },
            sent: if truncated {
                u32::try_from(len).unwrap_or(u32::MAX)
            } else {
                0
            },
        }
    }

    /// The message was longer than the receive buffer (MPI_ERR_TRUNCATE).
    pub fn truncated(&self) -> bool {
        self.flags & TRUNCATED != 0
    }

    /// The length of the message that arrived, as words for an error message ("20 bytes",
    /// or "4294967295 bytes or more" past what the status keeps).
    pub fn message_len(&self) -> String {
        match (self.truncated(), self.sent) {
            (false, _) => format!("{} bytes", self.count),
            (true, u32::MAX) => format!("{} bytes or more", u32::MAX),
            (true, n) => format!("{n} bytes"),
        }
    }

    /// The request was cancelled (MPI_Test_cancelled).
    pub fn cancelled(&self) -> bool {
        self.flags & CANCELLED != 0
    }

    pub fn set_cancelled(&mut self) {
        self.flags |= CANCELLED;
    }
}

/// What a send is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendWait {
    /// Still in the outbound queue.
    Queued,
    /// RTS out; waiting for FIN (receiver read it) or CTS (receiver wants it streamed).
    Rendezvous,
    /// Streaming the payload after CTS.
    Streaming,
    /// Eager synchronous send: waiting for the match acknowledgement.
    SyncAck,
    /// Pipeline (Woodall 2006, §4): PIPE_RTS with the eager part out; the rest moves as the
    /// engine's pipeline state says (ACK, streamed fragments, READY'd blocks).
    Pipeline,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecvState {
    Posted,
    /// Matched an RTS; payload arriving as RNDV_DATA from `peer` (copy path).
    Streaming {
        peer: usize,
        expected: u64,
        received: u64,
    },
    /// Matched an RTS; the payload moves by RDMA: our read, and in a split rendezvous also
    /// the sender's write of the tail. FIN goes to the sender when `pending` parts reach 0.
    Rdma {
        peer: usize,
        sender_req: u64,
        total: u64,
        pending: u8,
        failed: bool,
    },
    /// Matched a PIPE_RTS from `peer`: the rest arrives as streamed fragments and RDMA
    /// blocks (the engine's pipeline state holds the blocks).
    Pipeline {
        peer: usize,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Send { peer: usize, wait: SendWait },
    Recv(RecvState),
}

/// A value the engine keeps with a request for its caller and never interprets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Owner(pub u32);

impl Owner {
    pub const NONE: Owner = Owner(0);
}

#[derive(Debug)]
pub struct Request {
    pub kind: Kind,
    pub done: bool,
    /// MPI_Request_free was called: drop the request when it completes.
    pub freed: bool,
    pub status: Status,
    /// Send: the payload; receive: the destination (its length is the capacity).
    pub data: MsgBuf,
    /// Whoever started the request, in the caller's own terms (the C surface maps it to the
    /// request's communicator, whose error handler an error at completion goes to).
    pub owner: Owner,
    /// The contiguous stand-in `data` points into when the application's runs are too
    /// small to move one by one (see `Pt2pt::min_rdma_run`). Boxed: rare, and a request
    /// of at most 128 bytes moves without a call to memcpy.
    pub bounce: Option<Box<Bounce>>,
    /// The registration of a rendezvous payload (released at completion). Boxed, like the
    /// next: eager requests, the many, stay small.
    pub reg: Option<Box<Registration>>,
    /// A non-contiguous send's run table, registered for the receiver to read.
    pub table_reg: Option<Box<Registration>>,
}

/// A bounce buffer: a send's tiny runs packed once, or a receive's filled from it on
/// completion.
#[derive(Debug)]
pub struct Bounce {
    pub bytes: Box<[u8]>,
    /// Receive: the application's buffer, to scatter into when the message is complete.
    pub unpack_to: Option<MsgBuf>,
}

/// A slot keeps its `Request` when the request is removed (`live` says whether it holds
/// one): a receive is then posted by storing its fields in place, where building a
/// `Request` and moving it in read back freshly written narrow fields with wide loads,
/// a store-forwarding stall on every posted receive.
struct Slot {
    gen: u32,
    live: bool,
    req: Request,
}

impl Request {
    /// Whether completing it is only marking it done: nothing registered to release, no
    /// bounce buffer to unpack, not freed by the application (see `Pt2pt::complete`).
    #[inline(always)]
    pub fn completes_in_place(&self) -> bool {
        self.reg.is_none() && self.bounce.is_none() && !self.freed
    }

    /// What a slot holds when no request is live in it: no buffers, nothing registered.
    fn vacant() -> Self {
        Request {
            kind: Kind::Recv(RecvState::Posted),
            done: false,
            freed: false,
            status: Status::default(),
            data: MsgBuf::contig(std::ptr::null(), 0),
            owner: Owner::NONE,
            bounce: None,
            reg: None,
            table_reg: None,
        }
    }
}

#[derive(Default)]
pub struct Slab {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

impl Slab {
    /// A free slot, its generation advanced and marked live.
    #[inline(always)]
    fn claim(&mut self) -> (ReqId, &mut Request) {
        let idx = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(Slot {
                    gen: 0,
                    live: false,
                    req: Request::vacant(),
                });
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[idx as usize];
        slot.gen = slot.gen.wrapping_add(1).max(1);
        slot.live = true;
        (((slot.gen as u64) << 32) | idx as u64, &mut slot.req)
    }

    pub fn insert(&mut self, req: Request) -> ReqId {
        let (id, slot) = self.claim();
        *slot = req;
        id
    }

    /// Insert a posted receive into contiguous memory `[ptr, ptr + len)`, field by field.
    #[inline(always)]
    pub fn insert_posted_recv(&mut self, ptr: *mut u8, len: usize, owner: Owner) -> ReqId {
        let (id, r) = self.claim();
        // A vacant request holds nothing to drop (see `remove`), so these are plain stores.
        debug_assert!(r.bounce.is_none() && r.reg.is_none() && r.table_reg.is_none());
        r.kind = Kind::Recv(RecvState::Posted);
        r.done = false;
        r.freed = false;
        r.status = Status::default();
        if let MsgBuf::Contig { ptr: p, len: l } = &mut r.data {
            *p = ptr;
            *l = len;
        } else {
            r.data = MsgBuf::Contig { ptr, len };
        }
        r.owner = owner;
        id
    }

    /// The id of the request now in `slot`, if any.
    pub fn id_at(&self, slot: u32) -> Option<ReqId> {
        let s = self.slots.get(slot as usize)?;
        s.live.then_some(((s.gen as u64) << 32) | slot as u64)
    }

    pub fn get(&self, id: ReqId) -> Option<&Request> {
        let slot = self.slots.get((id & 0xffff_ffff) as usize)?;
        if slot.gen as u64 != id >> 32 || !slot.live {
            return None;
        }
        Some(&slot.req)
    }

    pub fn get_mut(&mut self, id: ReqId) -> Option<&mut Request> {
        let slot = self.slots.get_mut((id & 0xffff_ffff) as usize)?;
        if slot.gen as u64 != id >> 32 || !slot.live {
            return None;
        }
        Some(&mut slot.req)
    }

    /// Remove a request: its status and owner. What it holds (a run table, a bounce
    /// buffer, registrations) is released now. Inlined: its answer goes back in registers.
    #[inline(always)]
    pub fn remove(&mut self, id: ReqId) -> Option<(Status, Owner)> {
        let idx = (id & 0xffff_ffff) as usize;
        let slot = self.slots.get_mut(idx)?;
        if slot.gen as u64 != id >> 32 || !slot.live {
            return None;
        }
        slot.live = false;
        self.free.push(idx as u32);
        let r = &mut slot.req;
        // Tested first: eager requests hold none of these, and a plain store of None
        // calls each field's drop glue out of line.
        if r.bounce.is_some() {
            r.bounce = None;
        }
        if r.reg.is_some() {
            r.reg = None;
        }
        if r.table_reg.is_some() {
            r.table_reg = None;
        }
        if matches!(r.data, MsgBuf::Runs { .. }) {
            r.data = MsgBuf::contig(std::ptr::null(), 0);
        }
        Some((r.status, r.owner))
    }

    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> Request {
        Request::vacant()
    }

    #[test]
    fn posted_receive_reuses_a_vacant_slot_in_place() {
        let mut s = Slab::default();
        let mut buf = [0u8; 8];
        let a = s.insert(Request {
            data: MsgBuf::from_runs(buf.as_ptr(), [(0isize, 2usize), (4, 2)].into_iter()),
            status: Status::received(3, 4, 5, 6),
            owner: Owner(9),
            done: true,
            ..req()
        });
        assert!(matches!(s.get(a).unwrap().data, MsgBuf::Runs { .. }));
        let (st, owner) = s.remove(a).unwrap();
        assert_eq!(
            (st.source, st.tag, st.count, st.truncated(), owner),
            (3, 4, 5, true, Owner(9))
        );
        let b = s.insert_posted_recv(buf.as_mut_ptr(), 8, Owner(7));
        assert_eq!(a & 0xffff_ffff, b & 0xffff_ffff, "slot reused");
        assert!(s.get(a).is_none());
        let r = s.get(b).unwrap();
        assert!(!r.done && !r.freed && r.owner == Owner(7) && r.status == Status::default());
        assert!(matches!(r.kind, Kind::Recv(RecvState::Posted)));
        assert!(matches!(r.data, MsgBuf::Contig { ptr, len: 8 } if ptr == buf.as_mut_ptr()));
        assert_eq!(s.remove(b).map(|(_, o)| o), Some(Owner(7)));
        assert!(s.remove(b).is_none() && s.id_at((b & 0xffff_ffff) as u32).is_none());
    }

    #[test]
    fn stale_ids_never_resolve() {
        let mut s = Slab::default();
        let a = s.insert(req());
        assert!(a != 0 && s.get(a).is_some());
        assert!(s.remove(a).is_some());
        let b = s.insert(req());
        assert_eq!(a & 0xffff_ffff, b & 0xffff_ffff, "slot reused");
        assert!(s.get(a).is_none() && s.remove(a).is_none());
        assert!(s.get(b).is_some());
        assert!(s.get(0).is_none() && s.get(u64::MAX).is_none());
        assert_eq!(s.id_at((b & 0xffff_ffff) as u32), Some(b));
        assert_eq!(s.id_at(99), None);
        assert_eq!(s.live(), 1);
    }
}
