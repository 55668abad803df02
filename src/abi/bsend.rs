//! Buffered mode's C side: MPI_Buffer_attach / MPI_Buffer_detach / MPI_Buffer_flush,
//! MPI-4.1's buffers of communicators and sessions (MPI_Comm_attach_buffer ...) and
//! MPI_BUFFER_AUTOMATIC, MPI_Bsend and MPI_Ibsend, MPI_Bsend_init's mode. The buffers themselves,
//! and how messages are packed into them, are the runtime's (`runtime::bsend`, `runtime::p2p`).

use super::args;
use super::consts::*;
use super::handles;
use super::requests;
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::bsend::OVERHEAD;
use crate::runtime::p2p::{Mode, Source, Started};
// (The table, tools/c_api.txt, names the process's scope `bsend::Scope::Process`.)
pub use crate::runtime::bsend::Scope;
use std::os::raw::{c_int, c_void};

const _: () = assert!(MPI_BSEND_OVERHEAD as usize == OVERHEAD);

/// Pack `count` elements of `datatype` at `buf` into the attached buffer and send them to
/// `dest` (MPI_Bsend, MPI_Ibsend). Every argument is checked first. The value is
/// MPI_Ibsend's request, complete already: the data is in the buffer.
///
/// # Safety
/// MPI's: `buf` holds `count` elements of `datatype`.
pub unsafe fn send(
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    dest: c_int,
    tag: c_int,
    comm: MPI_Comm,
) -> Result<MPI_Request> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let mode = Some(Mode::Standard);
    let op = requests::op(&c, comm, buf, count, datatype, dest, tag, mode, false)?;
    op.bsend(w, comm_scope_of(comm), || session_of(comm))?;
    let proc_null = op.peer == Source::Null;
    requests::handle_for(Started::Done { proc_null }, op.owner)
}

/// The mode of MPI_Bsend_init's requests on `comm`: its buffer, else its session's.
pub fn buffered(comm: MPI_Comm) -> Mode {
    let (scope, session) = (comm_scope_of(comm), session_of(comm));
    Mode::Buffered { scope, session }
}

/// The scope of the buffer of the session communicator `comm` was made from, if any.
fn session_of(comm: MPI_Comm) -> Option<Scope> {
    match handles::comm_session(comm) {
        MPI_SESSION_NULL => None,
        s => Some(Scope::Session(s as i64)),
    }
}

fn comm_scope_of(comm: MPI_Comm) -> Scope {
    Scope::Comm(comm as i64)
}

/// A communicator is being freed: its buffer, if any, is detached once its messages are
/// out (as MPI_Comm_detach_buffer would), so that a later communicator with the same
/// handle finds none.
pub fn comm_freed(comm: MPI_Comm) {
    if let Some(w) = crate::runtime::world() {
        w.bsend.close(w, comm_scope_of(comm));
    }
}

/// A session is being finalized: as `comm_freed`.
pub fn session_closed(session: MPI_Session) {
    if let Some(w) = crate::runtime::world() {
        w.bsend.close(w, Scope::Session(session as i64));
    }
}

/// The scope of a communicator's buffer call, the communicator checked.
pub fn comm_scope(comm: MPI_Comm) -> Result<Scope> {
    handles::comm(comm)?;
    Ok(comm_scope_of(comm))
}

/// The scope of a session's buffer call, the session checked.
pub fn session_scope(session: MPI_Session) -> Result<Scope> {
    handles::check_session(session)?;
    Ok(Scope::Session(session as i64))
}

/// MPI_Buffer_attach(_c), MPI_Comm_attach_buffer(_c): `buffer` may be
/// MPI_BUFFER_AUTOMATIC (the library then allocates what each message needs).
///
/// # Safety
/// MPI's: `buffer` is `size` bytes the application leaves to MPI until it detaches it.
pub unsafe fn attach(scope: Scope, buffer: *mut c_void, size: usize) -> Result<()> {
    let automatic = buffer == MPI_BUFFER_AUTOMATIC;
    shim::world()?
        .bsend
        .attach(scope, buffer as usize, size, automatic)
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
    // Nothing attached: MPICH returns a NULL buffer and size 0.
    let (base, n) = w.bsend.detach(w, scope).unwrap_or((0, 0));
    write_out(buffer_addr as *mut *mut c_void, base as *mut c_void)?;
    size.put(Some(n as u64))
}

/// MPI_Buffer_flush, MPI_Comm_flush_buffer (MPI-4.1): wait until every message sent from
/// the buffer so far is out of it; the buffer stays attached. Without one, nothing to do.
pub fn flush(scope: Scope) -> Result<()> {
    let w = shim::world()?;
    w.bsend.flush(w, scope);
    Ok(())
}

/// MPI_Buffer_iflush, MPI_Comm_iflush_buffer (MPI-4.1): a request that completes once
/// every message sent from the buffer so far is out of it (nothing waits here: the sends
/// may need the receivers to act). A completed request when nothing is pending.
///
/// # Safety
/// `request` is NULL or valid.
pub unsafe fn iflush(scope: Scope, request: *mut MPI_Request) -> Result<()> {
    let w = shim::world()?;
    let sends = w.bsend.pending(scope);
    let h = if sends.is_empty() {
        handles::REQUEST_SEND_DONE
    } else {
        handles::new_request(crate::runtime::requests::Entry::Flush { sends })
    };
    write_out(request, h)
}
