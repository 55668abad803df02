//! The tcp rail's service queue (`fabric::Service`): requests travel as their own frame
//! kind on the peer's connection, the peer's progress thread queues them for its service
//! thread (the RMA helper) and rings its doorbell, and the service thread's answer is a
//! `Served` frame with the ticket. The service moves an origin's operands with tagged
//! reads and writes that complete to it alone (not to the rail's poll).

use super::conn::{Body, OutFrame};
use super::wire::{Header, Kind};
use super::{Shared, Waiter};
use crate::fabric::service::{Server, REQUEST};
use crate::fabric::{Doorbell, RailError, Service, Transfer};
use std::sync::atomic::Ordering;
use std::sync::Arc;

pub struct TcpService {
    pub(super) shared: Arc<Shared>,
}

impl Service for TcpService {
    fn try_request(&self, peer: usize, req: &[u8]) -> Option<u64> {
        if peer >= self.shared.links.len() || req.len() > REQUEST {
            return None;
        }
        let mut link = self.shared.links[peer].lock();
        // Tickets are taken under the link's lock, so they go out in order.
        link.tickets += 1;
        let ticket = link.tickets;
        let mut h = Header::new(Kind::Request);
        h.op = ticket;
        h.len = req.len() as u32;
        link.out.push(OutFrame::new(&h, Body::Owned(req.to_vec())));
        drop(link);
        self.shared.send(peer, []).ok()?;
        Some(ticket)
    }

    fn served(&self, peer: usize, ticket: u64) -> bool {
        self.shared
            .served
            .get(peer)
            .is_some_and(|s| s.load(Ordering::Acquire) >= ticket)
    }

    fn serve(&self, f: &mut Server<'_>) -> usize {
        let mut n = 0;
        loop {
            let Some((peer, ticket, mut req)) = self.shared.requests_in.lock().pop_front() else {
                return n;
            };
            self.shared.requests_waiting.fetch_sub(1, Ordering::AcqRel);
            req.resize(REQUEST, 0);
            // No answers on tcp (yet): results travel by `access`.
            let _ = f(peer, &req);
            let mut h = Header::new(Kind::Served);
            h.op = ticket;
            let _ = self.shared.send(peer, [OutFrame::new(&h, Body::Empty)]);
            n += 1;
        }
    }

    fn pending(&self) -> bool {
        self.shared.requests_waiting.load(Ordering::Acquire) > 0
    }

    fn wait_handle(&self) -> Doorbell {
        self.shared.service_bell
    }

    unsafe fn access(&self, t: &Transfer<'_>) -> Result<(), RailError> {
        let waiter = Arc::new(Waiter::default());
        // SAFETY: the caller's contract; we wait for the completion before returning, so
        // the local spans stay valid throughout.
        unsafe { self.shared.post(t, Some(waiter.clone()))? };
        waiter.wait(&self.shared, t.peer).map(|_| ())
    }
}

impl Shared {
    /// A service request arrived from `peer` (its progress thread calls this).
    pub(super) fn request_arrived(&self, peer: usize, ticket: u64, req: Vec<u8>) {
        self.requests_in.lock().push_back((peer, ticket, req));
        self.requests_waiting.fetch_add(1, Ordering::AcqRel);
        self.service_bell.ring();
    }

    /// `peer` served our requests up to `ticket`.
    pub(super) fn requests_served(&self, peer: usize, ticket: u64) {
        self.served[peer].fetch_max(ticket, Ordering::AcqRel);
    }
}
