//! RDMA operations posted to the channels: queued reads and writes posted by `run_rdma`,
//! tracked by token until their completion continues the protocol they belong to.

use super::rndv::remote_runs;
use super::*;

impl Pt2pt {
    /// Post queued RDMA reads and writes. Returns how many were posted.
    pub fn run_rdma<I: Io>(&mut self, io: &mut I) -> usize {
        let mut n = 0;
        // The progress loop flushed our CTS / write requests before this: the prefetch
        // overlaps with the peer's side of the handshake.
        for req in std::mem::take(&mut self.prefetch_due) {
            self.prefetch_request(io, req, Access::Write);
        }
        // Matched rendezvous: register, split, PUT_REQ out, then our read.
        for d in std::mem::take(&mut self.rndv_due) {
            self.begin_rdma(io, d);
            n += 1;
        }
        // Pipelines: the receiver's next blocks (its ACK or FINs went out before this),
        // then the sender's writes of READY'd blocks.
        let mut due = std::mem::take(&mut self.pipe_due);
        due.sort_unstable();
        due.dedup();
        for req in due {
            n += self.pipe_advance(io, req);
        }
        for w in std::mem::take(&mut self.pipe_writes) {
            self.pipe_write(io, w);
            n += 1;
        }
        n += self.backward_prefetch_step(io);
        for w in std::mem::take(&mut self.writes) {
            let l = [Span {
                addr: w.local as u64,
                len: w.len as u64,
            }];
            let r = [Span {
                addr: w.addr,
                len: w.len as u64,
            }];
            let token = self.track(Posted::Write {
                peer: w.peer,
                receiver_req: w.receiver_req,
            });
            // SAFETY: (local, len) lies in a pending send's buffer (checked at PUT_REQ),
            // which completes only after FIN, after this write's completion.
            let res = unsafe { io.post(RdmaOp::Write, w.peer, &l, &r, w.rkey, token) };
            self.post_failed(token, res);
            n += 1;
        }
        for pr in std::mem::take(&mut self.payload_reads) {
            let Some(r) = self.reqs.get_mut(pr.req) else {
                continue;
            };
            let local = r.data.runs_at(pr.offset, pr.len);
            let token = self.track(Posted::Read { req: pr.req });
            // SAFETY: runs of a pending receive's buffer, ours until it completes.
            let res = unsafe { io.post(RdmaOp::Read, pr.peer, &local, &pr.remote, pr.rkey, token) };
            self.post_failed(token, res);
            n += 1;
        }
        n
    }

    /// Keep `op` until its completion; its token: `generation << 32 | slot + 1` (never 0,
    /// below 2^62 — the bits above belong to the channel and to window transfers — and a
    /// slot's reuse changes it).
    pub(super) fn track(&mut self, op: Posted) -> u64 {
        let slot = match self.free_posted.pop() {
            Some(i) => i as usize,
            None => {
                self.posted.push((0, None));
                self.posted.len() - 1
            }
        };
        let e = &mut self.posted[slot];
        e.0 = e.0.wrapping_add(1) & 0x3fff_ffff;
        e.1 = Some(op);
        self.live_posted += 1;
        ((e.0 as u64) << 32) | (slot as u64 + 1)
    }

    /// The operation `token` names, taken out of the table.
    pub(super) fn untrack(&mut self, token: u64) -> Option<Posted> {
        let slot = ((token as u32) as usize).checked_sub(1)?;
        let e = self.posted.get_mut(slot)?;
        if e.0 as u64 != token >> 32 {
            return None;
        }
        let op = e.1.take()?;
        self.free_posted.push(slot as u32);
        self.live_posted -= 1;
        Some(op)
    }

    /// A post the rail refused at once completes with that error.
    pub(super) fn post_failed(&mut self, token: u64, res: Result<(), RailError>) {
        if let Err(e) = res {
            self.on_completion(Completion {
                token,
                result: Err(e),
            });
        }
    }

    /// A posted operation finished (or failed): continue the protocol it belongs to.
    pub fn on_completion(&mut self, c: Completion) {
        let Some(op) = self.untrack(c.token) else {
            return self.reject(usize::MAX, "completion of nothing posted");
        };
        let ok = match &c.result {
            Ok(_) => true,
            Err(e) => {
                tracing::warn!("RDMA operation failed: {e}");
                false
            }
        };
        match op {
            Posted::Read { req } => {
                if let Err(RailError::Access(_)) = c.result {
                    // The peer's memory is unreachable (CMA refused mid-run): stream, now
                    // and from now on.
                    self.settings.rdma = false;
                }
                self.read_done(req, ok)
            }
            Posted::Table { rd, raw } => {
                if !ok {
                    return self.read_done(rd.req, false);
                }
                let remote = match remote_runs(&rd, Some(&raw)) {
                    Ok(r) => r,
                    Err(e) => {
                        // Nothing was read; the sender may still stream its message.
                        self.reject(rd.peer, &format!("malformed run table ({e:?})"));
                        return self.read_done(rd.req, false);
                    }
                };
                // Posted by the next `run_rdma`.
                self.payload_reads.push(PayloadRead {
                    peer: rd.peer,
                    req: rd.req,
                    offset: rd.offset,
                    len: rd.len,
                    remote,
                    rkey: rd.rts.rkey,
                });
            }
            Posted::Write { peer, receiver_req } => {
                if !ok {
                    tracing::warn!(
                        peer,
                        "RDMA write failed; the receiver will ask for a stream"
                    );
                }
                self.queue_control(peer, wire::put_done(receiver_req, ok));
            }
            Posted::PipeWrite { w, .. } => self.pipe_written(w, ok),
        }
    }
}
