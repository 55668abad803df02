//! The channels' second queue: requests for a rank's service thread (the RMA helper), on
//! each rail's service queue (`fabric::service`), apart from the messages of `Channels` —
//! one-sided traffic queued and progressed on its own (Tsai, Penoff, Wagner §IV). Shared by
//! every thread of the process (origins queue from the application's threads; the service
//! thread serves), so it takes `&self` and needs no progress lock.

use crate::fabric::service::{Server, ANSWER};
use crate::fabric::{Doorbell, RailError, Route, Service, Transfer};
use std::sync::Arc;

pub struct ServiceChannels {
    services: Vec<Option<Arc<dyn Service>>>,
    /// Indexed by rank: the rail that reaches it, and the rank as that rail's peer.
    routes: Vec<Route>,
    /// `ranks[rail][rail peer]`: the rank a rail's peer index stands for.
    ranks: Vec<Vec<usize>>,
    wait: Doorbell,
}

impl ServiceChannels {
    /// Over `services` (one per rail, where it has one), reaching rank `r` as `routes[r]`.
    /// None when no rail has a service queue (a process alone).
    pub fn new(services: Vec<Option<Arc<dyn Service>>>, routes: &[Route]) -> Option<Self> {
        // One service thread sleeps on one doorbell: the first queue's. (A second rail's
        // queue will ring it too when there is one.)
        let wait = services.iter().flatten().next()?.wait_handle();
        let mut ranks: Vec<Vec<usize>> = vec![Vec::new(); services.len()];
        for (rank, r) in routes.iter().enumerate() {
            if let Some(v) = ranks.get_mut(r.rail) {
                if v.len() <= r.peer {
                    v.resize(r.peer + 1, usize::MAX);
                }
                v[r.peer] = rank;
            }
        }
        Some(ServiceChannels {
            services,
            routes: routes.to_vec(),
            ranks,
            wait,
        })
    }

    fn route(&self, rank: usize) -> Option<(&dyn Service, usize)> {
        let r = self.routes.get(rank)?;
        Some((self.services.get(r.rail)?.as_deref()?, r.peer))
    }

    /// Queue `req` for rank `rank`'s service thread: its ticket, or None when the queue is
    /// full now (or no service queue reaches the rank).
    pub fn try_request(&self, rank: usize, req: &[u8]) -> Option<u64> {
        let (s, peer) = self.route(rank)?;
        s.try_request(peer, req)
    }

    /// Whether request `ticket` to `rank` (and each before it) was served.
    pub fn served(&self, rank: usize, ticket: u64) -> bool {
        self.route(rank)
            .is_some_and(|(s, peer)| s.served(peer, ticket))
    }

    /// Whether the service queue to `rank` carries answers back (`Service::answers`).
    pub fn answers(&self, rank: usize) -> bool {
        self.route(rank).is_some_and(|(s, _)| s.answers())
    }

    /// The answer that came with request `ticket`'s served mark from `rank`, taken once.
    pub fn answer(&self, rank: usize, ticket: u64) -> Option<[u8; ANSWER]> {
        self.route(rank)
            .and_then(|(s, peer)| s.answer(peer, ticket))
    }

    /// Serve every waiting request: `f(origin rank, request bytes)`, which may answer.
    /// Returns how many.
    pub fn serve(&self, f: &mut Server<'_>) -> usize {
        let mut n = 0;
        for (rail, s) in self.services.iter().enumerate() {
            let Some(s) = s else { continue };
            let ranks = &self.ranks[rail];
            n += s.serve(&mut |peer, req| {
                let &rank = ranks.get(peer).filter(|&&r| r != usize::MAX)?;
                f(rank, req)
            });
        }
        n
    }

    /// Whether requests may be waiting.
    pub fn pending(&self) -> bool {
        self.services.iter().flatten().any(|s| s.pending())
    }

    /// What the service thread sleeps on.
    pub fn wait_handle(&self) -> Doorbell {
        self.wait
    }

    /// The queues' activity (`Service::activity`), summed.
    pub fn activity(&self) -> u64 {
        self.services
            .iter()
            .flatten()
            .fold(0u64, |a, s| a.wrapping_add(s.activity()))
    }

    /// At MPI_Finalize, before its barrier: see `Service::leaving`.
    pub fn leaving(&self) {
        self.services.iter().flatten().for_each(|s| s.leaving());
    }

    /// Before the service thread sleeps: see `Service::arm`.
    pub fn arm(&self) {
        self.services.iter().flatten().for_each(|s| s.arm());
    }

    /// For the service thread: transfer `t` with rank `t.peer` (its key checked first).
    ///
    /// # Safety
    /// As for `Service::access`.
    pub unsafe fn access(&self, t: &Transfer<'_>) -> Result<(), RailError> {
        let (s, peer) = self.route(t.peer).ok_or(RailError::NoSuchPeer(t.peer))?;
        // SAFETY: the caller's contract.
        unsafe { s.access(&Transfer { peer, ..*t }) }
    }
}
