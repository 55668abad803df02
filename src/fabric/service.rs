//! The service queue: a rail's second queue, for requests a peer's service thread carries
//! out on its own memory (host-assisted one-sided operations: Tipparaju 2004 §4; the RMA
//! helper), apart from the channel messages of point-to-point, so that neither waits
//! behind the other (Tsai, Penoff, Wagner §IV: one-sided traffic queued and progressed
//! separately). Compare a second queue pair on the same port.
//!
//! Any thread of an origin may queue a request; each process runs one service thread,
//! which sleeps on the queue's wait handle, serves what arrived, and marks each request
//! served, which is how its origin learns it is done. While serving, the service moves
//! the origin's operands and results with `access`, under keys of the origin's
//! registrations named in the request — the same key checks as a posted transfer.

use super::{Doorbell, RailError, Transfer};

/// Largest request, in bytes.
pub const REQUEST: usize = 128;

/// Bytes a served request may answer with: a fetched word (`MPI_Fetch_and_op`,
/// `MPI_Compare_and_swap`) comes back with the served mark where the service can carry it
/// (`Service::answers`), sparing the service thread a transfer into the origin's memory
/// and a wait for its completion.
pub const ANSWER: usize = 16;

/// What serves one request: (origin peer, the request's bytes) to its answer, if any.
pub type Server<'a> = dyn FnMut(usize, &[u8]) -> Option<[u8; ANSWER]> + 'a;

pub trait Service: Send + Sync {
    /// Queue `req` (at most `REQUEST` bytes) for `peer`'s service thread: its ticket, or
    /// None when the queue to `peer` is full now (wait for earlier tickets, then retry).
    fn try_request(&self, peer: usize, req: &[u8]) -> Option<u64>;
    /// Whether request `ticket` to `peer`, and every one queued before it, was served.
    fn served(&self, peer: usize, ticket: u64) -> bool;
    /// The service thread's side: hand every waiting request to `f` (origin peer, the
    /// request's `REQUEST` bytes, untrusted), marking each served after `f` returns, with
    /// `f`'s answer where it gives one (dropped where the service carries none). Returns
    /// how many. One thread serves.
    fn serve(&self, f: &mut Server<'_>) -> usize;
    /// Whether served marks carry answers back (`answer`).
    fn answers(&self) -> bool {
        false
    }
    /// Take the answer that came with the served mark of request `ticket` to `peer`
    /// (None: it came without one, or it was taken).
    fn answer(&self, _peer: usize, _ticket: u64) -> Option<[u8; ANSWER]> {
        None
    }
    /// Whether requests may be waiting (cheap; for spinning threads that should yield to
    /// the service thread).
    fn pending(&self) -> bool;
    /// What the service thread sleeps on: rung when a request arrives (once `arm`ed).
    fn wait_handle(&self) -> Doorbell;
    /// For the service thread, before it sleeps (after `Doorbell::prepare`): have what
    /// arrives from now on ring the wait handle, and take what came before. Queues that
    /// always ring need nothing.
    fn arm(&self) {}
    /// A count that moves whenever the queue takes work — requests, and where served
    /// marks and answers raise the service thread's events too, those — whoever polls it:
    /// how the service thread tells a busy queue from a quiet one without events. Queues
    /// that ring their wait handle for every request need none.
    fn activity(&self) -> u64 {
        0
    }
    /// The process is leaving (MPI_Finalize began, every window is freed): no request
    /// comes or goes from now on, so a peer's queue that goes away is no failure and
    /// nothing is dialed again. Called before the finalize barrier, so every rank has said
    /// it before any rank can exit. Queues that never redial need nothing.
    fn leaving(&self) {}
    /// For the service thread: carry out transfer `t` (its token unused) between the local
    /// spans here and `t.peer`'s remote spans under its key (checked before a byte moves);
    /// returns when done.
    ///
    /// # Safety
    /// The local spans are valid for `t.op` (writable for a read, readable for a write).
    unsafe fn access(&self, t: &Transfer<'_>) -> Result<(), RailError>;
}
