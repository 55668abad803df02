//! `AnyRail`: a rail as the channel layer holds it. The shm rail is named by its type, so
//! its send and its poll inline into the message fast paths (the ring store into
//! `MPI_Isend`, the channel's and the engine's handling of a message into the ring loop,
//! without an indirect call per message); every other rail goes through `dyn Rail`. Every
//! other `Rail` method is reached through `Deref`, the same for all.

use super::shm::ShmRail;
use super::{Rail, RailEvent};
use std::ops::{Deref, DerefMut};

// The shm rail is held inline (a process has a few rails; no pointer to follow on every
// message), so the variants differ in size.
#[allow(clippy::large_enum_variant)]
pub enum AnyRail {
    Shm(ShmRail),
    Dyn(Box<dyn Rail>),
}

impl AnyRail {
    /// `Rail::try_send`.
    #[inline(always)]
    pub fn try_send(&mut self, peer: usize, imm: u32, parts: &[&[u8]]) -> bool {
        match self {
            AnyRail::Shm(r) => r.send_message(peer, imm, parts),
            AnyRail::Dyn(r) => r.try_send(peer, imm, parts),
        }
    }

    /// `Rail::poll`, with the sink's type known to the shm rail.
    #[inline(always)]
    pub fn poll<F: FnMut(RailEvent<'_>)>(&mut self, sink: &mut F) -> usize {
        match self {
            AnyRail::Shm(r) => r.poll_with(sink),
            AnyRail::Dyn(r) => r.poll(sink),
        }
    }
}

impl From<ShmRail> for AnyRail {
    fn from(r: ShmRail) -> Self {
        AnyRail::Shm(r)
    }
}

impl From<Box<dyn Rail>> for AnyRail {
    fn from(r: Box<dyn Rail>) -> Self {
        AnyRail::Dyn(r)
    }
}

impl Deref for AnyRail {
    type Target = dyn Rail;
    fn deref(&self) -> &(dyn Rail + 'static) {
        match self {
            AnyRail::Shm(r) => r,
            AnyRail::Dyn(r) => &**r,
        }
    }
}

impl DerefMut for AnyRail {
    fn deref_mut(&mut self) -> &mut (dyn Rail + 'static) {
        match self {
            AnyRail::Shm(r) => r,
            AnyRail::Dyn(r) => &mut **r,
        }
    }
}
