//! What a window needs from the runtime (`RmaHost`: channels, progress, the collective
//! transport), and how a failed transfer through it reads as an MPI error. Its own module so
//! that the window, its control blocks and the data movers all depend on it and not on each
//! other.

use crate::channel::service::ServiceChannels;
use crate::coll::CollTransport;
use crate::comm::Communicator;
use crate::error::{Error, ErrorClass, Result};
use crate::fabric::{AtomicOp, RailError, RdmaOp, RemoteKeys, Transfer};
use crate::registration::{RegPolicy, Registry};
use std::sync::Arc;

/// What a window needs from the runtime.
pub trait RmaHost: CollTransport {
    /// A duplicate of `comm` with a fresh context (collective): the window's own traffic.
    fn dup_comm(&self, comm: &Communicator) -> Result<Arc<Communicator>>;
    /// Called while waiting on another rank (a lock, a post): make progress on everything
    /// else and let other processes run.
    fn idle(&self);
    /// Post transfer `t` (its token unused) with world rank `t.peer`'s memory under its
    /// key, on the channel to it; returns its token for `transfer_done`.
    ///
    /// # Safety
    /// The local spans stay valid — readable for a write, writable for a read — until
    /// `transfer_done` returned for the token.
    unsafe fn post_transfer(&self, t: &Transfer<'_>) -> std::result::Result<u64, RailError>;
    /// Wait for the posted transfer `token` to complete (`fresh`: it was posted just
    /// before, so the rails are polled before the first look).
    fn transfer_done(&self, token: u64, fresh: bool) -> std::result::Result<(), RailError>;
    /// Transfer `t` and wait for it.
    ///
    /// # Safety
    /// As for `post_transfer`, until this returns.
    unsafe fn transfer(&self, t: &Transfer<'_>) -> std::result::Result<(), RailError> {
        // SAFETY: the caller's contract; we wait for the completion here.
        let token = unsafe { self.post_transfer(t)? };
        self.transfer_done(token, true)
    }
    /// Whether a transfer of `len` bytes with world rank `peer` names its local memory by
    /// a registration (the rail's `local_keys`, for transfers too long to go inline): then
    /// origin buffers are registered, through the cache.
    fn local_keys(&self, peer: usize, op: RdmaOp, len: usize) -> bool;
    /// The domain slot of the first rail that reaches world rank `peer`: which of a
    /// registration's keys goes with a request to its RMA helper (which comes that way).
    fn key_slot(&self, peer: usize) -> usize;
    /// A 64-bit atomic on the word at `remote` in world rank `peer`'s memory under its keys
    /// `rkeys` (the rail that carries it takes its own), posted on the channel to it;
    /// returns the word's previous value once done.
    fn atomic(
        &self,
        op: AtomicOp,
        peer: usize,
        remote: u64,
        rkeys: &RemoteKeys,
    ) -> std::result::Result<u64, RailError>;
    /// Whether memory the library allocates in world rank `peer` can be mapped here (the
    /// rail to it reaches it by loads and stores); otherwise its window memory and control
    /// block are reached by rail operations under their keys.
    fn maps(&self, peer: usize) -> bool;
    /// This process's node (the same number on every process of a host): what
    /// `MPI_Win_allocate_shared` needs all its ranks to share.
    fn node(&self) -> u32;
    fn rma_settings(&self) -> RmaSettings;
    /// The registration layer windows register their memory with, and its policy.
    fn registration(&self) -> Option<(&Registry, RegPolicy)>;
    /// The queues that carry requests to other processes' RMA helpers (None for a process
    /// alone).
    fn services(&self) -> Option<&Arc<ServiceChannels>>;
}

/// How operations travel (`RAILMPI_RMA_ATOMICS`, `RAILMPI_RMA_TRANSFER`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RmaSettings {
    /// Accumulates and atomics by the target's helper thread even where CPU atomics on
    /// mapped memory could do them.
    pub helper_atomics: bool,
    /// Noncontiguous puts and gets by the target's helper (host-assisted: the origin
    /// sends one contiguous stream, the target scatters or gathers it).
    pub helper_transfers: bool,
    /// Request-based puts and gets of at least this many contiguous bytes go to the
    /// target's helper and proceed while the origin computes (0: never).
    pub async_min: usize,
    /// RAILMPI_STATS: count the transfers posted (`transfer_stats`); off, the latency
    /// path pays no shared counter.
    pub stats: bool,
}

/// The MPI error of a failed transfer with window rank `rank`: a key the target refused is
/// an access outside its window (MPI_ERR_RMA_RANGE).
pub(super) fn rail_err(rank: usize, e: RailError) -> Error {
    let class = match e {
        RailError::Key(_) => ErrorClass::RmaRange,
        _ => ErrorClass::Other,
    };
    Error::new(
        class,
        format!("RDMA transfer with rank {rank} of the window failed: {e}"),
    )
}
