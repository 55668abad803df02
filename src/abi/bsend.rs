//! Buffered mode: MPI_Buffer_attach / MPI_Buffer_detach, MPI_Bsend, MPI_Ibsend,
//! MPI_Bsend_init.
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

/// The attached buffer and the segments of the messages sent from it, by offset.
struct Attached {
    base: usize,
    size: usize,
    segments: Vec<Segment>,
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

    /// Give back the segments whose sends completed (`done` says which).
    fn reclaim(&mut self, mut done: impl FnMut(ReqId) -> bool) {
        self.segments.retain(|s| !done(s.req));
    }

    fn pending(&self) -> Vec<ReqId> {
        self.segments.iter().map(|s| s.req).collect()
    }
}

static ATTACHED: Mutex<Option<Attached>> = Mutex::new(None);

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
    let need = bytes + MPI_BSEND_OVERHEAD as usize;
    let mut guard = ATTACHED.lock();
    let Some(a) = guard.as_mut() else {
        return mpi_err!(Buffer, "MPI_Bsend without an attached buffer");
    };
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
        handles::comm_owner(comm_h),
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

/// At MPI_Finalize: wait until the messages sent from the attached buffer are out of it
/// (they must still be delivered, and the application may free the buffer after).
pub fn drain(w: &crate::runtime::World) {
    let pending = ATTACHED.lock().as_ref().map(Attached::pending);
    if let Some(pending) = pending {
        wait_sent(w, &pending);
    }
}

/// Wait until every one of these sends is complete.
fn wait_sent(w: &crate::runtime::World, pending: &[ReqId]) {
    w.progress
        .wait(|e| pending.iter().all(|&r| send_done(e, r)).then_some(()));
}

/// MPI_Buffer_attach(_c).
///
/// # Safety
/// MPI's: `buffer` is `size` bytes the application leaves to MPI until it detaches it.
pub unsafe fn attach(buffer: *mut c_void, size: usize) -> Result<()> {
    shim::world()?;
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
    let mut a = ATTACHED.lock();
    if a.is_some() {
        return mpi_err!(Buffer, "a buffer is attached already");
    }
    *a = Some(Attached {
        base: buffer as usize,
        size,
        segments: Vec::new(),
    });
    Ok(())
}

/// MPI_Buffer_detach(_c): waits until every message sent from the buffer is out of it,
/// then returns its address (through `buffer_addr`, a `void **` in C) and size.
///
/// # Safety
/// The outputs are NULL or valid.
pub unsafe fn detach(buffer_addr: *mut c_void, size: impl args::CountOut) -> Result<()> {
    let w = shim::world()?;
    if buffer_addr.is_null() {
        return mpi_err!(Arg, "NULL output argument");
    }
    // Detached at once, so that a buffered send from now on finds no buffer.
    let Some(a) = ATTACHED.lock().take() else {
        // Nothing attached: MPICH returns a NULL buffer and size 0.
        write_out(buffer_addr as *mut *mut c_void, std::ptr::null_mut())?;
        return size.put(Some(0));
    };
    wait_sent(w, &a.pending());
    write_out(buffer_addr as *mut *mut c_void, a.base as *mut c_void)?;
    size.put(Some(a.size as u64))
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
