//! Point-to-point calls over resolved arguments (the C surface looks up the handles,
//! translates ranks and tags and writes the statuses): starting a send or a receive, on
//! the engine's contiguous fast path or over a datatype's runs; buffered sends; the
//! receive's truncation rule; send-receive, blocking or not, with replace; persistent
//! point-to-point requests; matched probe and receive.

use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::pt2pt::{MsgBuf, MsgId, Owner, ReqId, Status};
use crate::runtime::bsend::{Message, Scope};
use crate::runtime::requests::{self, Completion, Entry, Handle, Round, Starter};
use crate::runtime::{world, World};
use std::ops::Deref;
use std::sync::Arc;

/// A receive's source, or a send's destination (never `Any`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// MPI_PROC_NULL: the operation is done as soon as it starts.
    Null,
    /// MPI_ANY_SOURCE.
    Any,
    Rank(usize),
}

impl Source {
    /// The rank, None for a wildcard (or MPI_PROC_NULL).
    pub fn as_option(&self) -> Option<usize> {
        match self {
            Source::Rank(r) => Some(*r),
            _ => None,
        }
    }
}

/// Largest tag (the MPI_TAG_UB attribute's value).
pub const TAG_UB: i32 = i32::MAX;

/// A send's tag, or a receive's other than the wildcard (MPI_ERR_TAG outside 0..=TAG_UB).
#[inline]
pub fn tag(t: i32) -> Result<i32> {
    if !(0..=TAG_UB).contains(&t) {
        return mpi_err!(Tag, "invalid tag {t} (must be 0..={TAG_UB})");
    }
    Ok(t)
}

/// Bytes of `count` elements of `ty` (MPI_ERR_COUNT when they overflow).
#[inline]
pub fn bytes(count: usize, ty: &Datatype) -> Result<usize> {
    // isize::MAX: no buffer is larger (slices), and a status holds 63 bits of count.
    count
        .checked_mul(ty.size)
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| Error::new(ErrorClass::Count, "message too large"))
}

/// A NULL buffer is an error (MPI_ERR_BUFFER) when it must hold data of a type that
/// starts at offset 0 (MPI_BOTTOM with absolute-address derived types stays legal).
#[inline]
pub fn buffer(buf: *const u8, count: usize, ty: &Datatype) -> Result<()> {
    if buf.is_null() && count > 0 && ty.size > 0 && ty.true_lb == 0 {
        return mpi_err!(Buffer, "NULL buffer with count {count}");
    }
    Ok(())
}

/// The memory `count` elements of `ty` at `buf` cover, for the engine: contiguous data as
/// one range, anything else as its runs (iovecs), never packed.
#[inline(always)]
pub fn msg_buf(buf: *const u8, count: usize, ty: &Datatype) -> Result<MsgBuf> {
    let len = bytes(count, ty)?;
    if ty.is_contiguous() {
        return Ok(MsgBuf::contig(buf, len));
    }
    Ok(msg_buf_runs(buf, count, ty))
}

/// `msg_buf` for derived types, and the predefined pairs with a gap (MPI_DOUBLE_INT…): out
/// of line, so that the contiguous case inlines into every caller.
#[inline(never)]
fn msg_buf_runs(buf: *const u8, count: usize, ty: &Datatype) -> MsgBuf {
    MsgBuf::from_runs(buf, ty.runs(count))
}

/// Whether a receive into `full` bytes of `ty` that ended with `st` failed (MPICH's
/// MPI_ERR_TRUNCATE): the message was longer, or, shorter, it ends inside a basic element
/// of a noncontiguous type (it came from a send of another type signature). As MPICH,
/// contiguous types are not checked: bytes received as ints are the program's business.
#[inline]
pub fn recv_truncated(st: &Status, full: usize, ty: &Datatype) -> bool {
    st.truncated()
        || (st.count != full && !ty.is_contiguous() && ty.splits_element(st.count as u64))
}

/// A started operation.
pub enum Started {
    /// Complete already; the request needs no engine state (the status to report is that
    /// of MPI_PROC_NULL, or of a send, whose status MPI leaves undefined).
    Done {
        proc_null: bool,
    },
    Pending(ReqId),
}

impl Started {
    /// A send that went out at once (None: no request) or is pending.
    #[inline(always)]
    fn sent(req: Option<ReqId>) -> Started {
        match req {
            None => Started::Done { proc_null: false },
            Some(req) => Started::Pending(req),
        }
    }

    /// The engine request to wait for: a completed one made for a started-done operation,
    /// with the status `H` reports for it.
    pub fn request<H: Handle>(self, w: &World) -> ReqId {
        match self {
            Started::Pending(req) => req,
            Started::Done { proc_null: true } => w.completed_request(H::empty_status(true)),
            Started::Done { proc_null: false } => w.completed_request(Status::default()),
        }
    }
}

/// How a send completes.
#[derive(Clone, Copy)]
pub enum Mode {
    /// MPI_Send (and MPI_Rsend: as MPI_Send is legal).
    Standard,
    /// MPI_Ssend: once the receive matched.
    Sync,
    /// MPI_Bsend_init's rounds: packed into the buffer of `scope` (the communicator's),
    /// else of `session` (the session the communicator was made from), else the process's.
    Buffered {
        scope: Scope,
        session: Option<Scope>,
    },
}

/// A send or receive, its arguments checked: the communicator `C` and datatype `T` are
/// borrowed for one call, or held by a persistent request (so that freeing their handles
/// leaves its later rounds alone, MPI-3.1 §4.1.9: see `persistent`).
pub struct Op<C, T> {
    pub comm: C,
    /// The communicator's tag for the engine's requests (where their errors go).
    pub owner: Owner,
    pub buf: usize,
    pub count: usize,
    pub ty: T,
    pub peer: Source,
    /// None: MPI_ANY_TAG (receives only).
    pub tag: Option<i32>,
    /// None: a receive.
    pub send: Option<Mode>,
}

impl<C, T> Op<C, T> {
    /// `count` elements of `ty` at `buf`, sent to (`send` Some: its mode) or received from
    /// `peer` with `tag` over `comm`, whose tag is `owner`.
    #[inline(always)]
    pub fn new(
        comm: C,
        owner: Owner,
        (buf, count, ty): (usize, usize, T),
        (peer, tag): (Source, Option<i32>),
        send: Option<Mode>,
    ) -> Self {
        Op {
            comm,
            owner,
            buf,
            count,
            ty,
            peer,
            tag,
            send,
        }
    }

    /// The same operation over other references to its communicator and datatype (held
    /// ones, for a persistent request).
    pub fn with<D, U>(self, comm: D, ty: U) -> Op<D, U> {
        let (peer, tag) = (self.peer, self.tag);
        Op::new(
            comm,
            self.owner,
            (self.buf, self.count, ty),
            (peer, tag),
            self.send,
        )
    }
}

impl<C: Deref<Target = Communicator>, T: Deref<Target = Datatype>> Op<C, T> {
    /// Start the operation.
    ///
    /// # Safety
    /// MPI's: the buffer holds (a send) or has room for (a receive) the elements, and stays
    /// valid until the operation completes.
    #[inline(always)]
    pub unsafe fn start(&self, w: &World) -> Result<Started> {
        match self.send {
            None => self.start_recv(w),
            Some(Mode::Buffered { scope, session }) => {
                self.bsend(w, scope, || session)?;
                let proc_null = self.peer == Source::Null;
                Ok(Started::Done { proc_null })
            }
            Some(mode) => self.start_send(w, matches!(mode, Mode::Sync)),
        }
    }

    #[inline(always)]
    unsafe fn start_send(&self, w: &World, sync: bool) -> Result<Started> {
        let Source::Rank(dst) = self.peer else {
            return Ok(Started::Done { proc_null: true });
        };
        let (comm, tag, ty) = (&*self.comm, self.tag.unwrap_or_default(), &*self.ty);
        if ty.is_contiguous() {
            let (ptr, len) = (self.buf as *const u8, bytes(self.count, ty)?);
            let req = w.isend_contig(comm, dst, tag, ptr, len, sync, self.owner);
            return Ok(Started::sent(req));
        }
        let data = msg_buf(self.buf as *const u8, self.count, ty)?;
        Ok(Started::sent(
            w.isend(comm, dst, tag, data, sync, self.owner),
        ))
    }

    #[inline(always)]
    unsafe fn start_recv(&self, w: &World) -> Result<Started> {
        let src = match self.peer {
            Source::Null => return Ok(Started::Done { proc_null: true }),
            s => s.as_option(),
        };
        let (comm, ty) = (&*self.comm, &*self.ty);
        if ty.is_contiguous() {
            let (ptr, len) = (self.buf as *mut u8, bytes(self.count, ty)?);
            let req = w.irecv_contig(comm, src, self.tag, ptr, len, self.owner);
            return Ok(Started::Pending(req));
        }
        let data = msg_buf(self.buf as *const u8, self.count, ty)?;
        Ok(Started::Pending(
            w.irecv(comm, src, self.tag, data, self.owner),
        ))
    }

    /// Start this send of `data`, bytes packed already, instead of its buffer
    /// (MPI_Sendrecv_replace sends a packed copy).
    ///
    /// # Safety
    /// `data` stays readable until the send completes.
    pub unsafe fn start_packed(&self, w: &World, data: &[u8]) -> Started {
        let Source::Rank(dst) = self.peer else {
            return Started::Done { proc_null: true };
        };
        let sync = matches!(self.send, Some(Mode::Sync));
        let (tag, ptr, len) = (self.tag.unwrap_or_default(), data.as_ptr(), data.len());
        Started::sent(w.isend_contig(&self.comm, dst, tag, ptr, len, sync, self.owner))
    }

    /// Pack this send into the attached buffer of `scope`, else of `session()`, else the
    /// process's, and send it (MPI_Bsend; the session is looked up only where scoped
    /// buffers exist).
    ///
    /// # Safety
    /// MPI's: the buffer holds the elements.
    pub unsafe fn bsend(
        &self,
        w: &World,
        scope: Scope,
        session: impl FnOnce() -> Option<Scope>,
    ) -> Result<()> {
        let Source::Rank(dst) = self.peer else {
            return Ok(());
        };
        let ty = &*self.ty;
        let m = Message {
            buf: self.buf as *const u8,
            count: self.count,
            ty,
            bytes: bytes(self.count, ty)?,
        };
        let tag = self.tag.unwrap_or_default();
        w.bsend
            .send(w, scope, session, &self.comm, dst, tag, m, self.owner)
    }

    /// The packed copy of this operation's elements that a send-receive with replace sends.
    ///
    /// # Safety
    /// MPI's: the buffer holds the elements.
    pub unsafe fn packed(&self) -> Vec<u8> {
        let mut copy = Vec::new();
        self.ty.pack(self.count, self.buf as *const u8, &mut copy);
        copy
    }
}

// ------------------------------------------------------------------ send-receive

/// Start a send-receive, both operations checked already: the receive, then the send (of
/// `copy` instead of the send's buffer when given).
///
/// # Safety
/// MPI's, for both buffers; `copy` outlives the send.
pub unsafe fn start_pair<C, T, D, U>(
    w: &World,
    send: &Op<C, T>,
    recv: &Op<D, U>,
    copy: Option<&[u8]>,
) -> Result<(Started, Started)>
where
    C: Deref<Target = Communicator>,
    T: Deref<Target = Datatype>,
    D: Deref<Target = Communicator>,
    U: Deref<Target = Datatype>,
{
    let recv = recv.start(w)?;
    let send = match copy {
        Some(c) => send.start_packed(w, c),
        None => send.start(w)?,
    };
    Ok((recv, send))
}

/// Wait for a started send-receive (MPI_Sendrecv, MPI_Sendrecv_replace): its receive's
/// completion, as `H` reports a receive from MPI_PROC_NULL.
pub fn wait_pair<H: Handle>(w: &World, (recv, send): (Started, Started)) -> Completion {
    if let Started::Pending(s) = send {
        w.wait_owned(s);
    }
    match recv {
        Started::Pending(r) => {
            let (st, owner) = w.wait_owned(r);
            Completion::new(st, owner)
        }
        Started::Done { .. } => Completion::new(H::empty_status(true), Owner::NONE),
    }
}

/// The request table entry of a started MPI_Isendrecv(_replace): one request for both
/// parts; `copy` is the data a replace sends, kept until the send is done.
pub fn pair_entry<H: Handle>(
    w: &World,
    (recv, send): (Started, Started),
    owner: Owner,
    copy: Option<Vec<u8>>,
) -> Entry {
    let send = match send {
        Started::Pending(r) => r,
        Started::Done { .. } => 0,
    };
    let recv = recv.request::<H>(w);
    Entry::Pair {
        recv,
        send,
        owner,
        copy,
    }
}

// ------------------------------------------------------------------ persistent requests

/// The request table entry of a persistent point-to-point request (MPI_Send_init ...):
/// each MPI_Start starts `op` again, its communicator and datatype held by the request.
pub fn persistent<H: Handle, C, T>(op: Op<C, T>) -> Entry
where
    C: Deref<Target = Communicator> + Send + Sync + 'static,
    T: Deref<Target = Datatype> + Send + Sync + 'static,
{
    let owner = op.owner;
    let start: Starter = Arc::new(move || {
        let w = world::current()?;
        // SAFETY: MPI_Send_init/MPI_Recv_init's buffer stays valid while the persistent
        // request exists (the application's obligation under MPI).
        let started = unsafe { op.start(w)? };
        Ok(Ok(Round::Engine(started.request::<H>(w))))
    });
    Entry::Persistent {
        start,
        active: None,
        owner,
    }
}

// ------------------------------------------------------------------ matched probe

/// Probe for a message from `src` (None: any) with `tag` (None: any) on `comm` and take it
/// out of matching (no other receive or probe, in this thread or another, can have it):
/// the request table entry that keeps it until MPI_Mrecv, and its status. None when none
/// matches (`block` false).
pub fn mprobe(
    w: &World,
    comm: &Communicator,
    src: Option<usize>,
    tag: Option<i32>,
    owner: Owner,
    block: bool,
) -> Option<(Entry, Status)> {
    let found = match block {
        true => Some(w.mprobe(comm, src, tag)),
        false => w.improbe(comm, src, tag),
    };
    found.map(|(msg, st)| (Entry::Message { msg, owner }, st))
}

/// Receive the message of request table entry `i`, which a matched probe took, into
/// `count` elements of `ty` at `buf`; `taken` runs once the entry is gone (only one of two
/// threads receiving one message finds it: MPI_ERR_REQUEST for the other). None: the
/// message of MPI_PROC_NULL (MPI_MESSAGE_NO_PROC), received at once.
///
/// # Safety
/// MPI's: `buf` has room for the elements until the receive completes.
pub unsafe fn mrecv(
    w: &World,
    m: Option<(usize, MsgId, Owner)>,
    buf: *mut u8,
    count: usize,
    ty: &Datatype,
    taken: impl FnOnce(),
) -> Result<Started> {
    let Some((i, msg, owner)) = m else {
        bytes(count, ty)?;
        taken();
        return Ok(Started::Done { proc_null: true });
    };
    let data = msg_buf(buf, count, ty)?;
    if !requests::remove(i) {
        return mpi_err!(Request, "message {i} was received already");
    }
    taken();
    match w.mrecv(msg, data, owner) {
        Some(req) => Ok(Started::Pending(req)),
        None => mpi_err!(Request, "message received already"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::Basic;

    fn int() -> Datatype {
        Datatype::predefined("MPI_INT", 4, Some(Basic::I32))
    }

    #[test]
    fn tags_are_zero_to_tag_ub() {
        assert_eq!((tag(0), tag(TAG_UB)), (Ok(0), Ok(TAG_UB)));
        assert_eq!(tag(-1).unwrap_err().class, ErrorClass::Tag);
    }

    #[test]
    fn bytes_overflow_is_a_count_error() {
        assert_eq!(bytes(3, &int()).unwrap(), 12);
        let e = bytes(usize::MAX / 2, &int()).unwrap_err();
        assert_eq!(e.class, ErrorClass::Count);
    }

    #[test]
    fn truncation_rule() {
        let int = int();
        let vec = Datatype::vector(2, 1, 2, &int).unwrap();
        // Longer than the buffer: truncated whatever the type.
        let long = Status::received(0, 0, 8, 12);
        assert!(recv_truncated(&long, 8, &int));
        // Short, on a contiguous type: the program's business.
        let short = Status::received(0, 0, 6, 6);
        assert!(!recv_truncated(&short, 8, &int));
        // Short, ending inside an int of a noncontiguous type: another signature.
        assert!(recv_truncated(&short, 16, &vec));
        // Short, on an element boundary: fine.
        let whole = Status::received(0, 0, 8, 8);
        assert!(!recv_truncated(&whole, 16, &vec));
    }

    #[test]
    fn msg_buf_of_contiguous_data_is_one_range() {
        let data = [0u8; 16];
        let m = msg_buf(data.as_ptr(), 4, &int()).unwrap();
        assert_eq!(m.len(), 16);
        assert!(msg_buf(data.as_ptr(), usize::MAX, &int()).is_err());
    }
}
