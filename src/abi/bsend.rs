//! Buffered mode: MPI_Buffer_attach / MPI_Buffer_detach / MPI_Buffer_flush, MPI-4.1's
//! buffers of communicators (MPI_Comm_attach_buffer ...) and MPI_BUFFER_AUTOMATIC,
//! MPI_Bsend, MPI_Ibsend, MPI_Bsend_init.
//!
//! A buffered send packs its data into the attached buffer and sends from there, so the
//! application's buffer is free when the call returns. Each message takes its packed size
//! plus `MPI_BSEND_OVERHEAD` of the attached buffer (MPICH's accounting, so programs sized
//! for MPICH fit); the space comes back when the send from it completes.

use super::args;
use super::consts::*;
use super::handles;
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::{MsgBuf, ReqId};
use parking_lot::Mutex;
use std::os::raw::{c_int, c_void};

/// Where packed data starts inside its segment (the rest of the overhead covers the
/// alignment padding).
const ALIGN: usize = 8;

/// One message's part of the attached buffer: `[off, off + len)`, in use until the send
/// `req` completes.
#[derive(Debug)]
struct Segment {
    off: usize,
    len: usize,
    req: ReqId,
}

/// An attached buffer and the segments of the messages sent from it, by offset. An
/// automatic one (MPI-4.1's MPI_BUFFER_AUTOMATIC) has no memory of the application's: each
/// message is packed into a heap copy of its own, kept in `owned` until its send completes.
struct Attached {
    base: usize,
    size: usize,
    segments: Vec<Segment>,
    automatic: bool,
    owned: Vec<(ReqId, Box<[u8]>)>,
}

impl Attached {
    /// First fit: the offset of a free stretch of `len` bytes.
    fn find(&self, len: usize) -> Option<usize> {
        let mut at = 0;
        for s in &self.segments {
            if s.off - at >= len {
                return Some(at);
            }
            at = s.off + s.len;
        }
        (self.size - at >= len).then_some(at)
    }

    fn insert(&mut self, seg: Segment) {
        let i = self.segments.partition_point(|s| s.off < seg.off);
        self.segments.insert(i, seg);
    }

    /// Give back the segments (and copies) whose sends completed (`done` says which).
    fn reclaim(&mut self, mut done: impl FnMut(ReqId) -> bool) {
        self.segments.retain(|s| !done(s.req));
        self.owned.retain(|(r, _)| !done(*r));
    }

    fn pending(&self) -> Vec<ReqId> {
        let copies = self.owned.iter().map(|(r, _)| *r);
        self.segments.iter().map(|s| s.req).chain(copies).collect()
    }
}

/// Whose buffer (MPI-4.1 §3.6.1): the process's (MPI_Buffer_attach), a communicator's
/// (MPI_Comm_attach_buffer) or a session's (MPI_Session_attach_buffer).
#[derive(Clone, Copy, PartialEq)]
pub enum Scope {
    Process,
    Comm(MPI_Comm),
    Session(MPI_Session),
}

/// The attached buffers: the process's, and the communicators' and sessions' (few: a Vec).
struct Buffers {
    process: Option<Attached>,
    scoped: Vec<(Scope, Attached)>,
}

impl Buffers {
    /// The buffer a buffered send on `comm` uses: the communicator's, else its session's
    /// (one made from a session's group), else the process's.
    fn for_send(&mut self, comm: MPI_Comm) -> Option<&mut Attached> {
        if self.scoped.is_empty() {
            return self.process.as_mut();
        }
        let find = |scope| self.scoped.iter().position(|(s, _)| *s == scope);
        let i = find(Scope::Comm(comm)).or_else(|| {
            let session = handles::comm_session(comm);
            (session != MPI_SESSION_NULL)
                .then(|| find(Scope::Session(session)))
                .flatten()
        });
        match i {
            Some(i) => Some(&mut self.scoped[i].1),
            None => self.process.as_mut(),
        }
    }

    fn get(&mut self, scope: Scope) -> Option<&mut Attached> {
        match scope {
            Scope::Process => self.process.as_mut(),
            _ => self
                .scoped
                .iter_mut()
                .find(|(s, _)| *s == scope)
                .map(|(_, a)| a),
        }
    }

    fn take(&mut self, scope: Scope) -> Option<Attached> {
        match scope {
            Scope::Process => self.process.take(),
            _ => {
                let i = self.scoped.iter().position(|(s, _)| *s == scope)?;
                Some(self.scoped.swap_remove(i).1)
            }
        }
    }

    fn put(&mut self, scope: Scope, a: Attached) {
        match scope {
            Scope::Process => self.process = Some(a),
            _ => self.scoped.push((scope, a)),
        }
    }
}

static BUFFERS: Mutex<Buffers> = Mutex::new(Buffers {
    process: None,
    scoped: Vec::new(),
});

/// Whether an engine request is complete (a released one that completed is gone).
fn send_done(e: &mut crate::runtime::progress::ProgressState, req: ReqId) -> bool {
    e.p2p.is_done(req) != Some(false)
}

/// Pack `count` elements of `datatype` at `buf` into the attached buffer and send them to
/// `dest` (MPI_Bsend, MPI_Ibsend, and MPI_Start of an MPI_Bsend_init request). Every
/// argument is checked first.
///
/// # Safety
/// MPI's: `buf` holds `count` elements of `datatype`.
pub unsafe fn send(
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    held: Option<&handles::KeptType>,
    dest: c_int,
    tag: c_int,
    comm_h: MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let comm = handles::comm(comm_h)?;
    let ty = match held {
        Some(t) => handles::TypeRef::from(t),
        None => handles::datatype(datatype)?,
    };
    args::buffer(buf, count, &ty)?;
    let tag = args::send_tag(tag)?;
    let Some(dst) = args::dest(&comm, dest)? else {
        return Ok(());
    };
    let bytes = args::bytes(count, &ty)?;
    let Some(need) = bytes.checked_add(MPI_BSEND_OVERHEAD as usize) else {
        return mpi_err!(
            Count,
            "message of {bytes} bytes too large for a buffered send"
        );
    };
    let mut guard = BUFFERS.lock();
    let Some(a) = guard.for_send(comm_h) else {
        return mpi_err!(Buffer, "MPI_Bsend without an attached buffer");
    };
    let owner = handles::comm_owner(comm_h);
    if a.automatic {
        w.progress.with(|e| a.reclaim(|r| send_done(e, r)));
        let mut copy = vec![0u8; bytes].into_boxed_slice();
        ty.pack_into(count, 0, buf as *const u8, &mut copy);
        // The copy's heap block does not move when the box moves into `owned`.
        let data = MsgBuf::contig(copy.as_ptr(), bytes);
        if let Some(r) = w.isend(&comm, dst, tag, data, false, owner) {
            w.request_free(r);
            a.owned.push((r, copy));
        }
        return Ok(());
    }
    let off = match a.find(need) {
        Some(off) => off,
        None => {
            // Space held by sends that have completed since comes back first.
            w.progress.with(|e| a.reclaim(|r| send_done(e, r)));
            match a.find(need) {
                Some(off) => off,
                None => {
                    return mpi_err!(
                        Buffer,
                        "insufficient space in the attached buffer: {need} bytes needed \
                         ({bytes} of data + MPI_BSEND_OVERHEAD), {} attached",
                        a.size
                    )
                }
            }
        }
    };
    let start = (a.base + off).next_multiple_of(ALIGN);
    // SAFETY: [start, start + bytes) lies inside segment [off, off + need) of the buffer the
    // application attached (start - base - off < ALIGN <= MPI_BSEND_OVERHEAD), which it
    // must leave to MPI until MPI_Buffer_detach; no other segment overlaps it.
    let packed = std::slice::from_raw_parts_mut(start as *mut u8, bytes);
    ty.pack_into(count, 0, buf as *const u8, packed);
    let req = w.isend(
        &comm,
        dst,
        tag,
        MsgBuf::contig(packed.as_ptr(), bytes),
        false,
        owner,
    );
    if let Some(r) = req {
        // Nobody waits for it: the engine drops it when it completes, and `reclaim`
        // finds it gone.
        w.request_free(r);
        a.insert(Segment {
            off,
            len: need,
            req: r,
        });
    }
    Ok(())
}

/// At MPI_Finalize: wait until the messages sent from attached buffers are out of them
/// (they must still be delivered, and the application may free the buffers after).
pub fn drain(w: &crate::runtime::World) {
    let pending: Vec<ReqId> = {
        let b = BUFFERS.lock();
        let comms = b.scoped.iter().map(|(_, a)| a);
        b.process
            .iter()
            .chain(comms)
            .flat_map(Attached::pending)
            .collect()
    };
    wait_sent(w, &pending);
}

/// A communicator is being freed: its buffer, if any, is detached once its messages are
/// out (as MPI_Comm_detach_buffer would), so that a later communicator with the same
/// handle finds none.
pub fn comm_freed(comm: MPI_Comm) {
    scope_closed(Scope::Comm(comm));
}

/// A session is being finalized: as `comm_freed`.
pub fn session_closed(session: MPI_Session) {
    scope_closed(Scope::Session(session));
}

fn scope_closed(scope: Scope) {
    let gone = BUFFERS.lock().take(scope);
    if let (Some(a), Some(w)) = (gone, crate::runtime::world()) {
        wait_sent(w, &a.pending());
    }
}

/// Wait until every one of these sends is complete.
fn wait_sent(w: &crate::runtime::World, pending: &[ReqId]) {
    w.progress
        .wait(|e| pending.iter().all(|&r| send_done(e, r)).then_some(()));
}

/// The scope of a communicator's buffer call, the communicator checked.
pub fn comm_scope(comm: MPI_Comm) -> Result<Scope> {
    handles::comm(comm)?;
    Ok(Scope::Comm(comm))
}

/// The scope of a session's buffer call, the session checked.
pub fn session_scope(session: MPI_Session) -> Result<Scope> {
    handles::check_session(session)?;
    Ok(Scope::Session(session))
}

/// MPI_Buffer_attach(_c), MPI_Comm_attach_buffer(_c): `buffer` may be
/// MPI_BUFFER_AUTOMATIC (the library then allocates what each message needs).
///
/// # Safety
/// MPI's: `buffer` is `size` bytes the application leaves to MPI until it detaches it.
pub unsafe fn attach(scope: Scope, buffer: *mut c_void, size: usize) -> Result<()> {
    shim::world()?;
    let automatic = buffer == MPI_BUFFER_AUTOMATIC;
    if !automatic {
        if buffer.is_null() && size > 0 {
            return mpi_err!(Buffer, "NULL buffer of {size} bytes");
        }
        if size < MPI_BSEND_OVERHEAD as usize {
            // As MPICH: no message could ever fit.
            return mpi_err!(
                Buffer,
                "buffer of {size} bytes is smaller than MPI_BSEND_OVERHEAD ({MPI_BSEND_OVERHEAD})"
            );
        }
    }
    let mut b = BUFFERS.lock();
    if b.get(scope).is_some() {
        return mpi_err!(Buffer, "a buffer is attached already");
    }
    b.put(
        scope,
        Attached {
            base: buffer as usize,
            size: if automatic { 0 } else { size },
            segments: Vec::new(),
            automatic,
            owned: Vec::new(),
        },
    );
    Ok(())
}

/// MPI_Buffer_detach(_c), MPI_Comm_detach_buffer(_c): waits until every message sent
/// from the buffer is out of it, then returns its address (through `buffer_addr`, a
/// `void **` in C; MPI_BUFFER_AUTOMATIC for an automatic one) and size.
///
/// # Safety
/// The outputs are NULL or valid.
pub unsafe fn detach(
    scope: Scope,
    buffer_addr: *mut c_void,
    size: impl args::CountOut,
) -> Result<()> {
    let w = shim::world()?;
    if buffer_addr.is_null() || size.is_null() {
        return mpi_err!(Arg, "NULL output argument");
    }
    // Detached at once, so that a buffered send from now on finds no buffer.
    let Some(a) = BUFFERS.lock().take(scope) else {
        // Nothing attached: MPICH returns a NULL buffer and size 0.
        write_out(buffer_addr as *mut *mut c_void, std::ptr::null_mut())?;
        return size.put(Some(0));
    };
    wait_sent(w, &a.pending());
    write_out(buffer_addr as *mut *mut c_void, a.base as *mut c_void)?;
    size.put(Some(a.size as u64))
}

/// MPI_Buffer_flush, MPI_Comm_flush_buffer (MPI-4.1): wait until every message sent from
/// the buffer so far is out of it; the buffer stays attached. Without one, nothing to do.
pub fn flush(scope: Scope) -> Result<()> {
    let w = shim::world()?;
    let pending = BUFFERS.lock().get(scope).map(|a| a.pending());
    if let Some(pending) = pending {
        wait_sent(w, &pending);
        if let Some(a) = BUFFERS.lock().get(scope) {
            w.progress.with(|e| a.reclaim(|r| send_done(e, r)));
        }
    }
    Ok(())
}

/// MPI_Buffer_iflush, MPI_Comm_iflush_buffer (MPI-4.1): a request that completes once
/// every message sent from the buffer so far is out of it (nothing waits here: the sends
/// may need the receivers to act). A completed request when nothing is pending.
///
/// # Safety
/// `request` is NULL or valid.
pub unsafe fn iflush(scope: Scope, request: *mut MPI_Request) -> Result<()> {
    shim::world()?;
    let sends = BUFFERS
        .lock()
        .get(scope)
        .map(|a| a.pending())
        .unwrap_or_default();
    let h = if sends.is_empty() {
        handles::REQUEST_SEND_DONE
    } else {
        handles::new_request(handles::RequestEntry::Flush { sends })
    };
    write_out(request, h)
}

/// MPI_Ibsend: complete as soon as the data is in the attached buffer, i.e. on return.
///
/// # Safety
/// MPI's: `buf` holds `count` elements of `datatype`.
pub unsafe fn isend(
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    send(buf, count, datatype, None, dest, tag, comm)?;
    let h = if dest == MPI_PROC_NULL {
        handles::REQUEST_PROC_NULL_DONE
    } else {
        handles::REQUEST_SEND_DONE
    };
    write_out(request, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(off: usize, len: usize, req: u64) -> Segment {
        Segment { off, len, req }
    }

    #[test]
    fn first_fit_between_and_after_segments() {
        let mut a = Attached {
            base: 0,
            size: 1000,
            segments: Vec::new(),
            automatic: false,
            owned: Vec::new(),
        };
        assert_eq!(a.find(1000), Some(0));
        assert_eq!(a.find(1001), None);
        a.insert(seg(0, 300, 1));
        a.insert(seg(500, 200, 2));
        assert_eq!(a.find(200), Some(300));
        assert_eq!(a.find(201), Some(700));
        assert_eq!(a.find(301), None);
        a.insert(seg(300, 200, 3));
        assert_eq!(a.pending(), vec![1, 3, 2]);
        a.reclaim(|r| r == 3);
        assert_eq!(a.pending(), vec![1, 2]);
        assert_eq!(a.find(200), Some(300));
        a.reclaim(|_| true);
        assert_eq!(a.find(1000), Some(0));
    }
}
