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
        self.drain_due(
            |e| &mut e.prefetch_due,
            |e, req| e.prefetch_request(io, req, Access::Write),
        );
        // Matched rendezvous: register and split each, every PUT_REQ out, then our reads
        // (the senders copy their halves of all of them while we copy ours).
        if !self.rndv_due.is_empty() {
            let mut reads = std::mem::take(&mut self.reads_due);
            self.drain_due(
                |e| &mut e.rndv_due,
                |e, d| {
                    reads.extend(e.begin_rdma(io, d));
                    n += 1;
                },
            );
            n += self.flush(io);
            for rd in reads.drain(..) {
                self.post_rget(io, rd);
            }
            give_back(&mut self.reads_due, reads);
        }
        // Pipelines: the receiver's next blocks (its ACK or FINs went out before this),
        // then the sender's writes of READY'd blocks.
        self.pipe_due.sort_unstable();
        self.pipe_due.dedup();
        self.drain_due(|e| &mut e.pipe_due, |e, req| n += e.pipe_advance(io, req));
        self.drain_due(
            |e| &mut e.pipe_writes,
            |e, w| {
                e.pipe_write(io, w);
                n += 1;
            },
        );
        n += self.backward_prefetch_step(io);
        self.drain_due(
            |e| &mut e.writes,
            |e, w| {
                let l = [Span {
                    addr: w.local as u64,
                    len: w.len as u64,
                }];
                let r = [Span {
                    addr: w.addr,
                    len: w.len as u64,
                }];
                let notify = e.notice_for(w.peer, w.note);
                let token = e.track(Posted::Write {
                    peer: w.peer,
                    receiver_req: w.receiver_req,
                    noted: notify.is_some(),
                });
                // SAFETY: (local, len) lies in a pending send's buffer (checked at
                // PUT_REQ), which completes only after FIN, after this write's completion.
                let res = unsafe {
                    io.post(&Transfer {
                        lkeys: w.lkeys.as_ref(),
                        notify,
                        ..Transfer::new(RdmaOp::Write, w.peer, &l, &r, &w.rkey, token)
                    })
                };
                e.post_failed(token, res);
                n += 1;
            },
        );
        self.drain_due(
            |e| &mut e.payload_reads,
            |e, pr| {
                let Some(r) = e.reqs.get_mut(pr.req) else {
                    return;
                };
                let local = r.data.runs_at(pr.offset, pr.len);
                let lkeys = r.reg.as_ref().map(|g| *g.keys());
                let token = e.track(Posted::Read { req: pr.req });
                // SAFETY: runs of a pending receive's buffer, ours until it completes.
                let res = unsafe {
                    io.post(&Transfer {
                        lkeys: lkeys.as_ref(),
                        ..Transfer::new(RdmaOp::Read, pr.peer, &local, &pr.remote, &pr.rkey, token)
                    })
                };
                e.post_failed(token, res);
                n += 1;
            },
        );
        n
    }

    /// Hand each item of the queue of due work `queue` picks to `each`, in order; the
    /// queue keeps its buffer (taking it whole would free it, and the next message's push
    /// allocate again) unless `each` queued more meanwhile.
    fn drain_due<T>(
        &mut self,
        queue: fn(&mut Self) -> &mut Vec<T>,
        mut each: impl FnMut(&mut Self, T),
    ) {
        if queue(self).is_empty() {
            return;
        }
        let mut due = std::mem::take(queue(self));
        for item in due.drain(..) {
            each(self, item);
        }
        give_back(queue(self), due);
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
            Posted::Write {
                peer,
                receiver_req,
                noted,
            } => {
                if !ok {
                    tracing::warn!(
                        peer,
                        "RDMA write failed; the receiver will ask for a stream"
                    );
                }
                // A write that carried its notice told the receiver already.
                if !(ok && noted) {
                    self.queue_control(peer, wire::put_done(receiver_req, ok));
                }
            }
            Posted::PipeWrite { w, .. } => self.pipe_written(w, ok),
        }
    }
}

/// Give a drained queue of due work its buffer back, unless work was queued meanwhile:
/// taking a queue whole frees its buffer, and the next message's push allocates again.
fn give_back<T>(queue: &mut Vec<T>, drained: Vec<T>) {
    debug_assert!(drained.is_empty());
    if queue.capacity() == 0 {
        *queue = drained;
    }
}
