//! The pipeline rendezvous of Woodall 2006 (§4) and the caching pipeline (§5.2): PIPE_RTS
//! with the eager part, ACK with the RDMA offset, blocks registered up to the depth and
//! READY'd, written and FIN'd; odp-optimal's backward prefetch.

use super::*;

impl Pt2pt {
    /// `Auto`'s choice for a contiguous rendezvous payload: the (caching) pipeline where
    /// registering costs about what the copy does — pin-down, whose `mlock` faults in and
    /// pins every page — and the buffer is fresh (its first RDMA block is not in the
    /// cache), so that registration overlaps the transfer (Woodall 2006, §4). A reused
    /// buffer finds its blocks cached and takes the split rendezvous, the fastest on
    /// registered memory; so does everything under ODP, where the split already has both
    /// cores fault in pages (measured in `make bench`'s registration sweeps).
    pub(super) fn auto_pipelines<I: Io>(&self, io: &I, data: &MsgBuf) -> bool {
        let (true, Some((addr, len))) = (io.registers(), data.span()) else {
            return false;
        };
        let frag = self.settings.pipeline.frag.max(1);
        if self.reg_policy.mode() != Mode::Pin || len <= frag {
            return false;
        }
        // The first block written starts past the eager part and the streamed stretch
        // (the receiver's RDMA offset under these settings); the buffer's own first window
        // may lie wholly before it and never be registered.
        let part = self
            .settings
            .eager_limit
            .min(self.max_message - wire::PIPE_RTS_HEADER);
        let first = addr + (part + self.settings.pipeline.send_length).min(len - 1);
        let window = ((first / frag + 1) * frag).min(addr + len) - first;
        !io.is_cached(first, window)
    }

    /// The receiver's side of a PIPE_RTS on match (Woodall 2006, §4): deliver the eager
    /// part, ACK with the RDMA offset, and leave the first blocks' registration to
    /// `run_rdma` — after the ACK is out, so that the sender's streaming of
    /// `[eager, rdma offset)` overlaps it (Woodall Fig. 3).
    pub(super) fn start_pipeline(
        &mut self,
        req: ReqId,
        peer: usize,
        hdr: &MatchHeader,
        eager: &[u8],
    ) {
        let r = self.reqs.get_mut(req).expect("matched request exists");
        let cap = r.data.len() as u64;
        let limit = hdr.len.min(cap);
        r.status = Status::received(hdr.src, hdr.tag, limit as usize, hdr.len as usize);
        let head = (eager.len() as u64).min(limit);
        // SAFETY: the posted receive's buffer (module contract); head <= its length.
        unsafe { r.data.scatter(0, &eager[..head as usize]) };
        // Blocks name one range of our buffer; a buffer of runs takes everything streamed.
        let base = match r.data {
            MsgBuf::Contig { ptr, .. } if self.settings.rdma => Some(ptr as u64),
            _ => None,
        };
        let rdma_offset = match base {
            Some(_) => limit.min(
                (eager.len() as u64).saturating_add(self.settings.pipeline.send_length as u64),
            ),
            None => limit,
        };
        r.kind = Kind::Recv(RecvState::Pipeline { peer });
        self.queue_control(
            peer,
            wire::pipe_ack(hdr.sender_req, req, rdma_offset, limit),
        );
        let left = limit - head;
        if left == 0 {
            return self.complete(req);
        }
        self.pipes_in.insert(
            req,
            PipeRecv {
                peer,
                sender_req: hdr.sender_req,
                cached: self.settings.rndv.caches_blocks(),
                base: base.unwrap_or(0),
                stream_from: head,
                limit,
                next: rdma_offset,
                blocks: Vec::new(),
                left,
            },
        );
        if rdma_offset < limit {
            self.pipe_due.push(req);
            if self.reg_policy == RegPolicy::OdpOptimal {
                self.backward_prefetch.push(BackwardPrefetch {
                    req,
                    base: base.unwrap_or(0),
                    floor: rdma_offset,
                    cursor: limit,
                });
            }
        }
    }

    /// The sender's side of the pipeline's ACK: stream up to the RDMA offset, then wait
    /// for READYs.
    pub(super) fn on_pipe_ack(
        &mut self,
        peer: usize,
        sender_req: u64,
        receiver_req: u64,
        rdma: u64,
        limit: u64,
    ) {
        let ps = match self.pipe_send_to(peer, sender_req) {
            Some((ps, buffer))
                if !ps.acked
                    && limit <= buffer
                    && rdma <= limit
                    && (rdma >= ps.eager || rdma == limit) =>
            {
                ps
            }
            _ => return self.reject(peer, "pipeline ACK for an unknown send or outside it"),
        };
        ps.acked = true;
        ps.receiver_req = receiver_req;
        ps.rdma_offset = rdma;
        ps.limit = limit;
        ps.left = limit.saturating_sub(ps.eager);
        let eager = ps.eager;
        if rdma > eager {
            // Send/receive covers the pipeline's start-up (Woodall 2006, §4, Fig. 3).
            self.streams.push_back(Stream {
                peer,
                receiver_req,
                start: eager as usize,
                len: rdma as usize,
                sent: eager as usize,
                req: sender_req,
                pipeline: true,
            });
        }
        self.pipe_check_send(sender_req);
    }

    /// The pipelined send `sender_req` to `peer` still in progress, and its buffer's length
    /// (what an ACK or READY from that peer may name).
    pub(super) fn pipe_send_to(
        &mut self,
        peer: usize,
        sender_req: ReqId,
    ) -> Option<(&mut PipeSend, u64)> {
        match (
            self.reqs.get(sender_req),
            self.pipes_out.get_mut(&sender_req),
        ) {
            (
                Some(Request {
                    kind:
                        Kind::Send {
                            peer: p,
                            wait: SendWait::Pipeline,
                        },
                    done: false,
                    data,
                    ..
                }),
                Some(ps),
            ) if *p == peer => Some((ps, data.len() as u64)),
            _ => None,
        }
    }

    /// `n` more bytes of a pipelined send were delivered (written, or streamed).
    pub(super) fn pipe_credit(&mut self, req: ReqId, n: u64) {
        if let Some(ps) = self.pipes_out.get_mut(&req) {
            ps.left = ps.left.saturating_sub(n);
        }
        self.pipe_check_send(req);
    }

    /// A pipelined send completes on local completion of all its parts.
    pub(super) fn pipe_check_send(&mut self, req: ReqId) {
        if self
            .pipes_out
            .get(&req)
            .is_some_and(|ps| ps.acked && ps.left == 0)
        {
            self.pipes_out.remove(&req);
            self.complete(req);
        }
    }

    /// A pipelined receive completes when every byte arrived and every block is FIN'd.
    pub(super) fn pipe_check_recv(&mut self, req: ReqId) {
        if self
            .pipes_in
            .get(&req)
            .is_some_and(|pr| pr.left == 0 && pr.blocks.is_empty())
        {
            self.pipes_in.remove(&req);
            self.complete(req);
        }
    }

    /// Register a pipeline block of `within` (a buffer: outside it memory may be unmapped)
    /// under the policy. Plain pipeline: one registration bypassing the cache, released
    /// with the handle. Caching pipeline: one cached registration per fragment-aligned
    /// window the block touches (clipped to the buffer), so the next transfer over the same
    /// memory finds them cached whatever its block boundaries (Woodall 2006, §5.2). Separate
    /// windows, not one widened range: windows never overlap, so a registration never
    /// merges with (and re-pins) its idle neighbours.
    pub(super) fn register_block<I: Io>(
        &self,
        io: &mut I,
        addr: usize,
        len: usize,
        cached: bool,
        access: Access,
        within: (usize, usize),
    ) -> Vec<Registration> {
        if !io.registers() {
            return Vec::new();
        }
        let mode = self.reg_policy.mode();
        let mut regs = Vec::new();
        let mut add = |res: Result<Registration, _>| match res {
            Ok(reg) => regs.push(reg),
            Err(e) => tracing::debug!("pipeline block not registered: {e}"),
        };
        if cached {
            let frag = self.settings.pipeline.frag.max(1);
            let (end, buf_end) = (addr + len, within.0 + within.1);
            let mut w = addr / frag * frag;
            while w < end {
                let (a, b) = (w.max(within.0), w.saturating_add(frag).min(buf_end));
                if a < b {
                    add(io.register(a, b - a, mode, true));
                }
                w = w.saturating_add(frag);
            }
        } else {
            add(io.register(addr, len, mode, false));
        }
        if self.reg_policy == RegPolicy::OdpEnhanced && regs.iter().any(|r| r.is_fresh()) {
            io.prefetch(addr, len, access);
        }
        regs
    }

    /// Register the next blocks of a pipelined receive, up to the depth, and READY each
    /// (Woodall 2006, §4, Fig. 2), each READY out before the next block registers (a
    /// pinning registration takes long enough for the sender to start on the first).
    /// Returns how many.
    pub(super) fn pipe_advance<I: Io>(&mut self, io: &mut I, req: ReqId) -> usize {
        let PipelineSettings { frag, depth, .. } = self.settings.pipeline;
        let (frag, depth) = (frag.max(1) as u64, depth.max(1));
        let mut n = 0;
        loop {
            let Some(pr) = self.pipes_in.get(&req) else {
                return n;
            };
            if pr.blocks.len() >= depth || pr.next >= pr.limit {
                return n;
            }
            let (off, addr) = (pr.next, pr.base + pr.next);
            let len = if pr.cached {
                // Blocks end on fragment-aligned addresses, so that they are the same
                // registrations each time this memory is used (Woodall 2006, §5.2).
                ((addr / frag + 1) * frag - addr).min(pr.limit - off)
            } else {
                frag.min(pr.limit - off)
            };
            let within = (pr.base as usize, pr.limit as usize);
            let reg = self.register_block(
                io,
                addr as usize,
                len as usize,
                pr.cached,
                Access::Write,
                within,
            );
            // The registration holding the whole block keys it; without one the sender's
            // write is refused and the block comes streamed instead.
            let rkey = reg
                .iter()
                .find(|g| {
                    let p = g.pages();
                    p.start as u64 <= addr && addr + len <= p.end as u64
                })
                .map_or(RemoteKeys::NONE, |g| g.keys().remotes());
            let pr = self.pipes_in.get_mut(&req).expect("checked above");
            pr.blocks.push(Block {
                offset: off,
                len,
                _reg: reg,
            });
            pr.next += len;
            let (peer, sender_req) = (pr.peer, pr.sender_req);
            let ask = wire::WriteAsk {
                sender_req,
                receiver_req: req,
                offset: off,
                len,
                addr,
                note: self.new_note(
                    peer,
                    Noted::Block {
                        req,
                        offset: off,
                        len,
                    },
                ),
            };
            self.queue_control(peer, wire::pipe_ready(&ask, io.key_slots(peer), &rkey));
            self.flush_peer(io, peer);
            n += 1;
        }
    }

    /// odp-optimal: prefetch one more chunk of a receive buffer that the peer writes, from
    /// the end backwards, down to where the writes have got to (a pipeline's READY'd
    /// blocks) or to the start. One chunk per call, so FINs are answered in between.
    pub(super) fn backward_prefetch_step<I: Io>(&mut self, io: &mut I) -> usize {
        const CHUNK: u64 = 256 << 10;
        let Some(p) = self.backward_prefetch.first_mut() else {
            return 0;
        };
        let floor = match (self.pipes_in.get(&p.req), self.reqs.get(p.req)) {
            (Some(pr), _) => Some(pr.next),
            (None, Some(r))
                if !r.done && !matches!(r.kind, Kind::Recv(RecvState::Pipeline { .. })) =>
            {
                Some(p.floor)
            }
            _ => None,
        };
        if !io.registers() || floor.is_none_or(|f| p.cursor <= f) {
            self.backward_prefetch.remove(0);
            return 0;
        }
        let from = p.cursor.saturating_sub(CHUNK).max(floor.unwrap_or(0));
        let (addr, len) = (p.base + from, p.cursor - from);
        p.cursor = from;
        io.prefetch(addr as usize, len as usize, Access::Write);
        1
    }

    /// Answer one READY: register the source block and post its RDMA write; its completion
    /// deregisters it and FINs it (Woodall 2006, §4, Fig. 4). A failed write streams the
    /// block instead.
    pub(super) fn pipe_write<I: Io>(&mut self, io: &mut I, w: PipeWrite) {
        let (ptr, total) = match self.reqs.get(w.req) {
            Some(Request {
                data: MsgBuf::Contig { ptr, len },
                done: false,
                ..
            }) => (*ptr as *const u8, *len),
            _ => return,
        };
        let Some(cached) = self.pipes_out.get(&w.req).map(|ps| ps.cached) else {
            return;
        };
        // SAFETY: offset + len <= limit <= the send buffer's length (checked at READY/ACK).
        let local = unsafe { ptr.add(w.offset as usize) };
        let reg = self.register_block(
            io,
            local as usize,
            w.len as usize,
            cached,
            Access::Read,
            (ptr as usize, total),
        );
        let l = [Span {
            addr: local as u64,
            len: w.len,
        }];
        let r = [Span {
            addr: w.addr,
            len: w.len,
        }];
        let (peer, rkey) = (w.peer, w.rkey);
        // The registration covering the block, if one does (a caching pipeline's block
        // may straddle two fragments' registrations: then none is named).
        let lkeys = reg
            .iter()
            .find(|g| {
                let p = g.pages();
                p.start <= local as usize && local as usize + w.len as usize <= p.end
            })
            .map(|g| *g.keys());
        // (Its note is cleared when the write cannot carry it: then a PIPE_FIN answers.)
        let notify = self.notice_for(peer, w.note);
        let w = PipeWrite {
            note: notify.unwrap_or(0),
            ..w
        };
        let token = self.track(Posted::PipeWrite { w, _reg: reg });
        // SAFETY: a range of a pending send's buffer, which stays put until the send
        // completes — after this write's completion.
        let res = unsafe {
            io.post(&Transfer {
                lkeys: lkeys.as_ref(),
                notify,
                ..Transfer::new(RdmaOp::Write, peer, &l, &r, &rkey, token)
            })
        };
        self.post_failed(token, res);
    }

    /// The completion of a pipeline block's write.
    pub(super) fn pipe_written(&mut self, w: PipeWrite, ok: bool) {
        // A write that carried its notice told the receiver already.
        if !(ok && w.note != 0) {
            self.queue_control(w.peer, wire::pipe_fin(w.receiver_req, w.offset, w.len, ok));
        }
        if ok {
            self.pipe_credit(w.req, w.len);
        } else {
            tracing::warn!(
                peer = w.peer,
                "pipeline RDMA write failed; streaming the block"
            );
            self.streams.push_back(Stream {
                peer: w.peer,
                receiver_req: w.receiver_req,
                start: w.offset as usize,
                len: (w.offset + w.len) as usize,
                sent: w.offset as usize,
                req: w.req,
                pipeline: true,
            });
        }
    }

    /// Pipelined sends and receives in progress.
    #[cfg(test)]
    pub(crate) fn pipelines(&self) -> usize {
        self.pipes_out.len() + self.pipes_in.len()
    }
}
