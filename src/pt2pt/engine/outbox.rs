//! The outbox: per-peer queues of control replies and matching packets (in the order the
//! application sent them: non-overtaking), flushed into the channels.

use super::*;

impl Pt2pt {
    pub(super) fn queue(&mut self, peer: usize, item: Outbound) {
        if self.out[peer].is_empty() {
            self.busy_peers.push(peer);
        }
        let Outbound::Match { payload, .. } = &item;
        self.out[peer].queued_bytes += payload.len();
        self.out[peer].matching.push_back(item);
    }

    pub(super) fn queue_control(&mut self, peer: usize, pkt: ([u8; wire::MAX_CONTROL], usize)) {
        if self.out[peer].is_empty() {
            self.busy_peers.push(peer);
        }
        self.out[peer].control.push_back((pkt.0, pkt.1 as u8));
    }

    /// Push queued output into the rail. Returns how many rail messages went out.
    pub fn flush<I: Io>(&mut self, io: &mut I) -> usize {
        let mut sent = 0;
        let mut i = 0;
        while i < self.busy_peers.len() {
            let peer = self.busy_peers[i];
            sent += self.flush_peer(io, peer);
            if self.out[peer].is_empty() {
                self.busy_peers.swap_remove(i);
            } else {
                i += 1;
            }
        }
        sent + self.flush_streams(io)
    }

    pub(super) fn flush_peer<I: Io>(&mut self, io: &mut I, peer: usize) -> usize {
        let mut sent = 0;
        while let Some(&(pkt, len)) = self.out[peer].control.front() {
            // A copy on the stack (`transmit` borrows the engine): no allocation per reply.
            if !self.transmit(io, peer, &[&pkt[..len as usize]]) {
                return sent;
            }
            self.out[peer].control.pop_front();
            sent += 1;
        }
        while let Some(Outbound::Match {
            head,
            long,
            head_len,
            payload,
            req,
        }) = self.out[peer].matching.front()
        {
            let (head, long, payload, req) = (*head, long.clone(), *payload, *req);
            let n = *head_len as usize;
            let head = match &long {
                Some(b) => b,
                None => &head[..n],
            };
            let ok = match payload {
                Payload::Contig(data, len) => {
                    // SAFETY: the payload belongs to a pending send request (module contract).
                    let payload = unsafe { slice(data, len) };
                    self.transmit(io, peer, &[head, payload])
                }
                Payload::Runs(of) => {
                    let mut parts = vec![head];
                    if let Some(r) = self.reqs.get_mut(of) {
                        // SAFETY: the runs of a pending send request (module contract).
                        unsafe { r.data.gather(0, usize::MAX, &mut parts) };
                    }
                    self.transmit(io, peer, &parts)
                }
            };
            if !ok {
                return sent;
            }
            self.out[peer].matching.pop_front();
            self.out[peer].queued_bytes -= payload.len();
            sent += 1;
            if let Some(req) = req {
                self.complete(req);
            }
        }
        sent
    }

    /// One rail message to `peer`; messages to ourselves are handled right here.
    pub(super) fn transmit<I: Io>(&mut self, io: &mut I, peer: usize, parts: &[&[u8]]) -> bool {
        if peer == self.me {
            let bytes: Vec<u8> = parts.concat();
            self.on_packet(peer, &bytes);
            true
        } else {
            io.send(peer, parts)
        }
    }
}
