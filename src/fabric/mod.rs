//! fabric: the Rail interface (verbs-like, small and fixed; compare UCX's UCT) and its
//! providers. Upper layers see only `Rail`; nothing here knows about MPI.

pub mod loopback;
pub mod shm;

use std::fmt;
use std::io::IoSliceMut;

pub use crate::sys::cma::RemoteRange;

/// What a rail can do; the protocol layer picks protocols from this.
#[derive(Clone, Debug)]
pub struct RailCaps {
    pub name: &'static str,
    /// Largest message `try_send` accepts, in bytes.
    pub max_message: usize,
    /// One-sided read/write of peer memory without the peer's CPU (CMA, verbs).
    pub rdma: bool,
}

#[derive(Debug)]
pub enum RailError {
    /// The peer's memory could not be reached (bad address, or access refused).
    Access(std::io::Error),
    /// Peer index outside the rail.
    NoSuchPeer(usize),
}

impl fmt::Display for RailError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RailError::Access(e) => write!(f, "remote memory access failed: {e}"),
            RailError::NoSuchPeer(p) => write!(f, "no such peer {p}"),
        }
    }
}

/// The transport interface every provider implements.
///
/// Channel semantics: `try_send` / `poll` move small messages in order per peer pair.
/// Memory semantics: `read` / `write` move bytes between this process and a peer's address
/// space (one-sided; the peer's CPU is not involved where the provider can avoid it).
pub trait Rail: Send {
    fn caps(&self) -> &RailCaps;
    /// Number of peers this rail reaches (including this process).
    fn peers(&self) -> usize;
    /// Queue one message made of `parts` for `peer`. False when there is no room now.
    fn try_send(&mut self, peer: usize, parts: &[&[u8]]) -> bool;
    /// Hand every waiting message to `sink(peer, bytes)`; the bytes are valid only during
    /// the call. Returns the number delivered.
    fn poll(&mut self, sink: &mut dyn FnMut(usize, &[u8])) -> usize;
    /// RDMA read: fill `local` from `remote_addr` in `peer`.
    fn read(&mut self, peer: usize, local: &mut [u8], remote_addr: u64) -> Result<(), RailError>;
    /// RDMA write: copy `local` to `remote_addr` in `peer`.
    fn write(&mut self, peer: usize, local: &[u8], remote_addr: u64) -> Result<(), RailError>;
    /// Vectored RDMA read: fill the `local` slices in order from the `remote` ranges in
    /// order (scatter/gather on both sides; the two lists describe the same byte count).
    /// The default runs one `read` per piece where a local and a remote entry overlap.
    fn read_vectored(
        &mut self,
        peer: usize,
        local: &mut [IoSliceMut<'_>],
        remote: &[RemoteRange],
    ) -> Result<(), RailError> {
        let mut remote = remote.iter().filter(|r| r.len > 0);
        let mut cur: Option<RemoteRange> = None;
        for l in local.iter_mut() {
            let mut l: &mut [u8] = l;
            while !l.is_empty() {
                let r = match cur.take() {
                    Some(r) => r,
                    None => match remote.next() {
                        Some(r) => *r,
                        None => return Ok(()),
                    },
                };
                let n = r.len.min(l.len());
                let (now, rest) = l.split_at_mut(n);
                self.read(peer, now, r.addr)?;
                l = rest;
                if n < r.len {
                    cur = Some(RemoteRange {
                        addr: r.addr + n as u64,
                        len: r.len - n,
                    });
                }
            }
        }
        Ok(())
    }
}

pub mod doorbell;
pub use doorbell::Doorbell;
