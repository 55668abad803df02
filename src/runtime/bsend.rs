//! Buffered mode's buffers (MPI-4.1 §3.6): the process's, communicators' and sessions'
//! attached buffers, from which buffered sends go.
//!
//! A buffered send packs its data into the buffer and sends from there, so the
//! application's buffer is free when the call returns. Each message takes a segment of
//! its packed size plus `OVERHEAD` (MPICH's accounting, so programs sized for MPICH fit),
//! found first-fit; the segment comes back when the send from it completes. An automatic
//! buffer (MPI_BUFFER_AUTOMATIC) has no memory of the application's: each message is packed
//! into a heap copy of its own, kept until its send completes.

use super::progress::ProgressState;
use super::world::World;
use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::Result;
use crate::mpi_err;
use crate::pt2pt::{MsgBuf, Owner, ReqId};
use parking_lot::Mutex;

/// What each message takes of a buffer beyond its data: MPI_BSEND_OVERHEAD.
pub const OVERHEAD: usize = 96;

/// Where packed data starts inside its segment (the rest of the overhead covers the
/// alignment padding).
const ALIGN: usize = 8;

/// Whose buffer (MPI-4.1 §3.6.1): the process's (MPI_Buffer_attach), a communicator's
/// (MPI_Comm_attach_buffer) or a session's (MPI_Session_attach_buffer), the last two named
/// by the binding's handles.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    Process,
    Comm(i64),
    Session(i64),
}

/// One message's part of the attached buffer: `[off, off + len)`, in use until the send
/// `req` completes.
#[derive(Debug)]
struct Segment {
    off: usize,
    len: usize,
    req: ReqId,
}

/// An attached buffer and the segments of the messages sent from it, by offset.
struct Attached {
    base: usize,
    size: usize,
    segments: Vec<Segment>,
    automatic: bool,
    /// An automatic buffer's copies, until their sends complete.
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

/// The attached buffers: the process's, and the communicators' and sessions' (few: a Vec).
struct Buffers {
    process: Option<Attached>,
    scoped: Vec<(Scope, Attached)>,
}

impl Buffers {
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
}

/// The process's buffered-send state (`World::bsend`).
pub struct BufferedSends(Mutex<Buffers>);

impl Default for BufferedSends {
    fn default() -> Self {
        BufferedSends(Mutex::new(Buffers {
            process: None,
            scoped: Vec::new(),
        }))
    }
}

/// Whether an engine request is complete (a released one that completed is gone).
fn send_done(e: &mut ProgressState, req: ReqId) -> bool {
    e.p2p.is_done(req) != Some(false)
}

/// Wait until every one of these sends is complete.
fn wait_sent(w: &World, pending: &[ReqId]) {
    w.progress
        .wait(|e| pending.iter().all(|&r| send_done(e, r)).then_some(()));
}

/// A buffered send's message: `count` elements of `ty` at `buf`, `bytes` packed.
pub struct Message<'a> {
    pub buf: *const u8,
    pub count: usize,
    pub ty: &'a Datatype,
    pub bytes: usize,
}

impl BufferedSends {
    /// Attach `size` bytes at `base` (or an automatic buffer) to `scope`.
    pub fn attach(&self, scope: Scope, base: usize, size: usize, automatic: bool) -> Result<()> {
        if !automatic && base == 0 && size > 0 {
            return mpi_err!(Buffer, "NULL buffer of {size} bytes");
        }
        if !automatic && size < OVERHEAD {
            // As MPICH: no message could ever fit.
            return mpi_err!(
                Buffer,
                "buffer of {size} bytes is smaller than MPI_BSEND_OVERHEAD ({OVERHEAD})"
            );
        }
        let mut b = self.0.lock();
        if b.get(scope).is_some() {
            return mpi_err!(Buffer, "a buffer is attached already");
        }
        let a = Attached {
            base,
            size: if automatic { 0 } else { size },
            segments: Vec::new(),
            automatic,
            owned: Vec::new(),
        };
        match scope {
            Scope::Process => b.process = Some(a),
            _ => b.scoped.push((scope, a)),
        }
        Ok(())
    }

    /// Detach `scope`'s buffer at once (a buffered send from now on finds none), wait
    /// until every message sent from it is out of it, and give back its (address, size).
    /// None: nothing was attached.
    pub fn detach(&self, w: &World, scope: Scope) -> Option<(usize, usize)> {
        let a = self.0.lock().take(scope)?;
        wait_sent(w, &a.pending());
        Some((a.base, a.size))
    }

    /// Wait until every message sent from `scope`'s buffer so far is out of it; the buffer
    /// stays attached.
    pub fn flush(&self, w: &World, scope: Scope) {
        let pending = self.pending(scope);
        if !pending.is_empty() {
            wait_sent(w, &pending);
            if let Some(a) = self.0.lock().get(scope) {
                w.progress.with(|e| a.reclaim(|r| send_done(e, r)));
            }
        }
    }

    /// The sends from `scope`'s buffer not known to be complete.
    pub fn pending(&self, scope: Scope) -> Vec<ReqId> {
        self.0
            .lock()
            .get(scope)
            .map(|a| a.pending())
            .unwrap_or_default()
    }

    /// At finalize: wait until the messages sent from every buffer are out of them (they
    /// must still be delivered, and the application may free the buffers after).
    pub fn drain(&self, w: &World) {
        let pending: Vec<ReqId> = {
            let b = self.0.lock();
            let scoped = b.scoped.iter().map(|(_, a)| a);
            b.process
                .iter()
                .chain(scoped)
                .flat_map(Attached::pending)
                .collect()
        };
        wait_sent(w, &pending);
    }

    /// `scope`'s communicator or session is going: its buffer, if any, is detached once
    /// its messages are out, so that a later one with the same handle finds none.
    pub fn close(&self, w: &World, scope: Scope) {
        if let Some(a) = self.0.lock().take(scope) {
            wait_sent(w, &a.pending());
        }
    }

    /// Pack `m` into the buffer a send on `comm` uses and send it to `dst`: `scope`'s
    /// (the communicator's), else that of `session()` (the session it was made from), else
    /// the process's.
    ///
    /// # Safety
    /// `m.buf` holds `m.count` elements of `m.ty`, packing to `m.bytes` bytes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn send(
        &self,
        w: &World,
        scope: Scope,
        session: impl FnOnce() -> Option<Scope>,
        comm: &Communicator,
        dst: usize,
        tag: i32,
        m: Message,
        owner: Owner,
    ) -> Result<()> {
        let Some(need) = m.bytes.checked_add(OVERHEAD) else {
            return mpi_err!(
                Count,
                "message of {} bytes too large for a buffered send",
                m.bytes
            );
        };
        let mut guard = self.0.lock();
        let b = &mut *guard;
        // Few programs attach scoped buffers: the session is looked up only if some exist.
        let i = match b.scoped.is_empty() {
            true => None,
            false => {
                let find = |s| b.scoped.iter().position(|(t, _)| *t == s);
                find(scope).or_else(|| session().and_then(find))
            }
        };
        let a = match i {
            Some(i) => &mut b.scoped[i].1,
            None => match b.process.as_mut() {
                Some(a) => a,
                None => return mpi_err!(Buffer, "MPI_Bsend without an attached buffer"),
            },
        };
        if a.automatic {
            w.progress.with(|e| a.reclaim(|r| send_done(e, r)));
            let mut copy = vec![0u8; m.bytes].into_boxed_slice();
            m.ty.pack_into(m.count, 0, m.buf, &mut copy);
            // The copy's heap block does not move when the box moves into `owned`.
            let data = MsgBuf::contig(copy.as_ptr(), m.bytes);
            if let Some(r) = w.isend(comm, dst, tag, data, false, owner) {
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
                             ({} of data + MPI_BSEND_OVERHEAD), {} attached",
                            m.bytes,
                            a.size
                        )
                    }
                }
            }
        };
        let start = (a.base + off).next_multiple_of(ALIGN);
        // SAFETY: [start, start + bytes) lies inside segment [off, off + need) of the buffer
        // the application attached (start - base - off < ALIGN <= OVERHEAD), which it must
        // leave to MPI until it detaches it; no other segment overlaps it.
        let packed = std::slice::from_raw_parts_mut(start as *mut u8, m.bytes);
        m.ty.pack_into(m.count, 0, m.buf, packed);
        let data = MsgBuf::contig(packed.as_ptr(), m.bytes);
        if let Some(r) = w.isend(comm, dst, tag, data, false, owner) {
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

    #[test]
    fn attach_checks_in_mpich_order() {
        let b = BufferedSends::default();
        let class = |r: Result<()>| r.unwrap_err().class;
        // A NULL buffer before a small one; an automatic one has neither.
        let e = b.attach(Scope::Process, 0, 10, false);
        assert_eq!(class(e), crate::error::ErrorClass::Buffer);
        assert!(b.attach(Scope::Comm(5), 0, 0, true).is_ok());
        assert!(b.attach(Scope::Process, 4096, 10, false).is_err());
        assert!(b.attach(Scope::Process, 4096, 4096, false).is_ok());
        assert!(b.attach(Scope::Process, 8192, 4096, false).is_err());
    }
}
