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
}

const TRUNCATED: u32 = 1;
const CANCELLED: u32 = 2;

impl Status {
    /// A receive's status; `truncated`: the message was longer than the buffer.
    pub fn received(source: i32, tag: i32, count: usize, truncated: bool) -> Self {
        Status {
            source,
            tag,
            count,
            flags: if truncated { TRUNCATED } else { 0 },
        }
    }

    /// The message was longer than the receive buffer (MPI_ERR_TRUNCATE).
    pub fn truncated(&self) -> bool {
        self.flags & TRUNCATED != 0
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

struct Slot {
    gen: u32,
    req: Option<Request>,
}

#[derive(Default)]
pub struct Slab {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

impl Slab {
    pub fn insert(&mut self, req: Request) -> ReqId {
        let idx = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(Slot { gen: 0, req: None });
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[idx as usize];
        slot.gen = slot.gen.wrapping_add(1).max(1);
        slot.req = Some(req);
        ((slot.gen as u64) << 32) | idx as u64
    }

    /// The id of the request now in `slot`, if any.
    pub fn id_at(&self, slot: u32) -> Option<ReqId> {
        let s = self.slots.get(slot as usize)?;
        s.req.as_ref().map(|_| ((s.gen as u64) << 32) | slot as u64)
    }

    pub fn get(&self, id: ReqId) -> Option<&Request> {
        let slot = self.slots.get((id & 0xffff_ffff) as usize)?;
        if slot.gen as u64 != id >> 32 {
            return None;
        }
        slot.req.as_ref()
    }

    pub fn get_mut(&mut self, id: ReqId) -> Option<&mut Request> {
        let slot = self.slots.get_mut((id & 0xffff_ffff) as usize)?;
        if slot.gen as u64 != id >> 32 {
            return None;
        }
        slot.req.as_mut()
    }

    pub fn remove(&mut self, id: ReqId) -> Option<Request> {
        let idx = (id & 0xffff_ffff) as usize;
        let slot = self.slots.get_mut(idx)?;
        if slot.gen as u64 != id >> 32 || slot.req.is_none() {
            return None;
        }
        self.free.push(idx as u32);
        slot.req.take()
    }

    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> Request {
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
