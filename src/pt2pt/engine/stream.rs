//! The streamed copy path: a rendezvous payload (or a pipeline's start-up stretch) sent
//! through the channel in RNDV_DATA pieces, for rails without RDMA and failed transfers.

use super::*;

impl Pt2pt {
    pub(super) fn on_stream_data(&mut self, peer: usize, req: ReqId, offset: u64, payload: &[u8]) {
        let Some(r) = self.reqs.get_mut(req) else {
            return self.reject(peer, "data for an unknown receive");
        };
        if let Kind::Recv(RecvState::Pipeline { peer: p }) = r.kind {
            let Some(pr) = self.pipes_in.get_mut(&req) else {
                return self.reject(peer, "data for a finished pipeline");
            };
            let end = offset.checked_add(payload.len() as u64);
            if p != peer || r.done || offset < pr.stream_from || end.is_none_or(|e| e > pr.limit) {
                return self.reject(peer, "pipeline data outside the message");
            }
            // SAFETY: the receive buffer (module contract); [offset, end) <= its length.
            unsafe { r.data.scatter(offset as usize, payload) };
            pr.left = pr.left.saturating_sub(payload.len() as u64);
            return self.pipe_check_recv(req);
        }
        let Kind::Recv(RecvState::Streaming {
            peer: p,
            expected,
            received,
        }) = &mut r.kind
        else {
            return self.reject(peer, "data for a receive that is not streaming");
        };
        let end = offset.checked_add(payload.len() as u64);
        if *p != peer || r.done || end.is_none_or(|e| e > *expected) {
            return self.reject(peer, "stream data outside the message");
        }
        // Bytes past the receive buffer are dropped (truncation was recorded at match).
        if offset < r.data.len() as u64 {
            // SAFETY: the receive buffer (module contract); scatter clips to its length.
            unsafe { r.data.scatter(offset as usize, payload) };
        }
        *received += payload.len() as u64;
        if *received == *expected {
            self.complete(req);
        }
    }

    pub(super) fn flush_streams<I: Io>(&mut self, io: &mut I) -> usize {
        let chunk = self.max_message - wire::RNDV_DATA_HEADER;
        let mut sent = 0;
        let mut k = 0;
        while k < self.streams.len() {
            let s = &self.streams[k];
            let (peer, rreq, len, mut off, req) = (s.peer, s.receiver_req, s.len, s.sent, s.req);
            let (start, pipeline) = (s.start, s.pipeline);
            while off < len {
                let n = chunk.min(len - off);
                let head = wire::rndv_data_header(rreq, off as u64);
                let mut parts: Vec<&[u8]> = vec![&head];
                let Some(r) = self.reqs.get_mut(req) else {
                    off = len;
                    break;
                };
                // SAFETY: the pending send's buffer; the pieces cover [off, off + n) of it.
                unsafe { r.data.gather(off, n, &mut parts) };
                if !self.transmit(io, peer, &parts) {
                    break;
                }
                off += n;
                sent += 1;
            }
            if off == len {
                self.streams.remove(k);
                if pipeline {
                    self.pipe_credit(req, (len - start) as u64);
                } else {
                    self.complete(req);
                }
            } else {
                self.streams[k].sent = off;
                k += 1;
            }
        }
        sent
    }
}
