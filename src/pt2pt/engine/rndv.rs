//! Rendezvous by RDMA read (RGET), RDMA write (RPUT) and both at once (split): the RTS,
//! registering payloads, the receiver's reads (a run table first, checked, then the
//! payload) and their completion.

use super::*;

impl Pt2pt {
    /// A send that needs a request: rendezvous, synchronous, or queued behind others.
    /// Out of line, so the eager fast path above stays small.
    ///
    /// # Safety
    /// As for `send_buf`.
    #[inline(never)]
    pub(super) unsafe fn send_queued<I: Io>(
        &mut self,
        io: &mut I,
        peer: usize,
        mut hdr: MatchHeader,
        mut data: MsgBuf,
        sync: bool,
    ) -> SendStart {
        let len = data.len();
        // Flow control, the sender's half: eager messages that wait behind a full channel
        // beyond a quarter of the receiver's unexpected limit go by rendezvous (a flood of
        // nonblocking sends is out before the receiver's THROTTLE can arrive).
        let backlog = self.past_quarter_limit(self.out[peer].queued_bytes)
            || (peer != self.me && self.unpolled_past_budget());
        let eager = len <= self.eager_limit_for(peer) && !backlog;
        // Runs too small to read one by one go packed, once: the receiver then reads one
        // range (and a split rendezvous lets both cores share the copy).
        let bounce = if !eager
            && peer != self.me
            && self.rdma_with(peer)
            && data.mean_run() < self.min_rdma_run
        {
            // SAFETY: the runs are the caller's send buffer (module contract).
            let bytes = unsafe { data.pack() };
            data = MsgBuf::contig(bytes.as_ptr(), len);
            Some(Box::new(Bounce {
                bytes,
                unpack_to: None,
            }))
        } else {
            None
        };
        // The pipeline is the sender's choice: it sends data before the receiver says
        // anything (Woodall 2006, §4). A contiguous payload only (packed runs included):
        // READY names a block by its offset, and the sender writes it from one range.
        // (Not while the peer throttles us: its eager part would be unexpected data.)
        let pipeline = !eager
            && peer != self.me
            && !backlog
            && self.eager_limit_for(peer) > 0
            && self.rdma_with(peer)
            && data.is_contiguous()
            && match self.settings.rndv {
                Rndv::Pipeline | Rndv::PipelineCached => true,
                Rndv::Auto => self.auto_pipelines(io, &data),
                _ => false,
            };
        let reg = if eager || peer == self.me || pipeline || !self.rdma_with(peer) {
            // The pipeline registers block by block as READYs come.
            None
        } else {
            Self::register_payload(io, self.reg_policy, &data, Access::Read).map(Box::new)
        };
        match (pipeline, eager) {
            (true, _) => self.counts.pipeline += 1,
            (false, true) => self.counts.eager += 1,
            (false, false) => self.counts.rendezvous += 1,
        }
        let wait = if pipeline {
            SendWait::Pipeline
        } else if !eager {
            SendWait::Rendezvous
        } else if sync {
            SendWait::SyncAck
        } else {
            SendWait::Queued
        };
        // A run table lives in the request (boxed: its address stays put) until FIN, and
        // is registered for the receiver to read it.
        let (contig, table) = match &data {
            MsgBuf::Contig { ptr, len } => (Some((*ptr as *const u8, *len)), None),
            MsgBuf::Runs { runs, .. } => (None, Some((runs.as_ptr() as u64, runs.len() as u64))),
        };
        let table_reg = match (&reg, table) {
            (Some(_), Some((addr, entries))) => Self::register_payload(
                io,
                self.reg_policy,
                &MsgBuf::contig(addr as *const u8, entries as usize * RUN_ENTRY),
                Access::Read,
            )
            .map(Box::new),
            _ => None,
        };
        let slots = io.key_slots(peer);
        let rkey = reg
            .as_ref()
            .map_or(RemoteKeys::NONE, |g| g.keys().remotes());
        let table_rkey = table_reg
            .as_ref()
            .map_or(RemoteKeys::NONE, |g| g.keys().remotes());
        let req = self.reqs.insert(Request {
            kind: Kind::Send { peer, wait },
            done: false,
            freed: false,
            status: Status {
                count: len,
                ..Status::default()
            },
            data,
            owner: Owner::NONE,
            bounce,
            reg,
            table_reg,
        });
        hdr.sender_req = req;
        let mut head = [0u8; HEAD_INLINE];
        let mut long = None;
        let none = Payload::Contig(std::ptr::null(), 0);
        let (head_len, payload, complete_when_sent) =
            if let (true, Some((p, _))) = (pipeline, contig) {
                // The first part of the message rides with the MATCH header.
                let part = self
                    .settings
                    .eager_limit
                    .min(self.max_message - wire::PIPE_RTS_HEADER)
                    .min(len);
                head[..wire::PIPE_RTS_HEADER].copy_from_slice(&wire::pipe_rts_header(&hdr));
                self.pipes_out.insert(
                    req,
                    PipeSend {
                        cached: self.settings.rndv.caches_blocks(),
                        eager: part as u64,
                        acked: false,
                        receiver_req: 0,
                        rdma_offset: 0,
                        limit: 0,
                        left: 0,
                        asked: 0,
                    },
                );
                (wire::PIPE_RTS_HEADER, Payload::Contig(p, part), false)
            } else if eager {
                let (h, n) = wire::eager_header(&hdr);
                head[..n].copy_from_slice(&h[..n]);
                let payload = match contig {
                    Some((p, n)) => Payload::Contig(p, n),
                    None => Payload::Runs(req),
                };
                (n, payload, !sync)
            } else {
                let (b, n) = match table {
                    Some((addr, entries)) => {
                        wire::rts_runs(&hdr, addr, &table_rkey, entries, slots, &rkey)
                    }
                    None => wire::rts(&hdr, contig.map_or(0, |(p, _)| p as u64), slots, &rkey),
                };
                // Keys for several rails make a longer RTS than the queue holds inline.
                match head.get_mut(..n) {
                    Some(h) => h.copy_from_slice(&b[..n]),
                    None => long = Some(Box::from(&b[..n])),
                }
                (n, none, false)
            };
        self.queue(
            peer,
            Outbound::Match {
                head,
                long,
                head_len: head_len as u8,
                payload,
                req: complete_when_sent.then_some(req),
            },
        );
        self.flush_peer(io, peer);
        if !eager && !pipeline && self.reg_policy == RegPolicy::OdpOptimal {
            // The RTS is out: fault the payload in while the receiver answers.
            self.prefetch_request(io, req, Access::Read);
        }
        SendStart::Pending(req)
    }

    /// Register a rendezvous payload under the policy (odp-enhanced prefetches at once).
    /// ODP prefetches only fresh registrations: one the cache served covers memory that was
    /// transferred before and not given back since, so its pages are in place (prefetching
    /// them again halved the bandwidth of a reused buffer).
    /// A failure leaves the payload unregistered: on this rail the transfer does not need
    /// it, and an unmapped buffer is reported by the transfer itself.
    pub(super) fn register_payload<I: Io>(
        io: &mut I,
        policy: RegPolicy,
        data: &MsgBuf,
        access: Access,
    ) -> Option<Registration> {
        if !io.registers() {
            return None;
        }
        let (addr, len) = data.span()?;
        match io.register(addr, len, policy.mode(), true) {
            Ok(reg) => {
                if policy == RegPolicy::OdpEnhanced && reg.is_fresh() {
                    io.prefetch(addr, len, access);
                }
                Some(reg)
            }
            Err(e) => {
                tracing::debug!("payload not registered: {e}");
                None
            }
        }
    }

    /// Prefetch a pending request's payload (odp-optimal, overlapped with the handshake).
    pub(super) fn prefetch_request<I: Io>(&self, io: &mut I, req: ReqId, access: Access) {
        if let Some(r) = self.reqs.get(req) {
            match (&r.reg, r.data.span()) {
                (Some(reg), Some((addr, len))) if reg.is_fresh() => io.prefetch(addr, len, access),
                _ => {}
            }
        }
    }

    pub(super) fn start_rendezvous(
        &mut self,
        req: ReqId,
        peer: usize,
        hdr: &MatchHeader,
        rts: RtsRef,
    ) {
        let entries = rts.entries;
        let rdma_with = self.rdma_with(peer);
        let r = self.reqs.get_mut(req).expect("matched request exists");
        let cap = r.data.len();
        let theirs = match entries {
            0 => usize::MAX,
            n => (hdr.len / n) as usize,
        };
        if rdma_with && peer != self.me && r.data.mean_run() < self.min_rdma_run {
            // Our runs are too small to read into one by one: read into a contiguous
            // stand-in and scatter from it on completion.
            let bytes = vec![0u8; cap].into_boxed_slice();
            let runs = std::mem::replace(&mut r.data, MsgBuf::contig(bytes.as_ptr(), cap));
            r.bounce = Some(Box::new(Bounce {
                bytes,
                unpack_to: Some(runs),
            }));
        }
        // The sender's payload (and run table) must be keyed: unregistered memory streams.
        let keyed = !rts.rkey.is_none() && (entries == 0 || !rts.table_rkey.is_none());
        let rdma = rdma_with
            && self.settings.rndv != Rndv::Copy
            && keyed
            && r.data.mean_run().min(theirs) >= self.min_rdma_run;
        let take = (hdr.len as usize).min(cap);
        r.status = Status::received(hdr.src, hdr.tag, take, hdr.len as usize);
        if rdma || peer == self.me {
            self.counts.rdma_received += 1;
            // Registering our buffer is an action: `run_rdma` begins the transfer.
            self.rndv_due.push(RndvDue {
                req,
                peer,
                sender_req: hdr.sender_req,
                total: hdr.len,
                take,
                rts,
            });
        } else {
            self.counts.streamed_received += 1;
            r.kind = Kind::Recv(RecvState::Streaming {
                peer,
                expected: hdr.len,
                received: 0,
            });
            self.queue_control(peer, wire::cts(hdr.sender_req, req));
        }
    }

    /// Begin a matched RDMA rendezvous (or a send to ourselves): register our buffer, and
    /// split the payload between our read and the sender's write. Our PUT_REQ leaves
    /// before our read is posted, so that the sender's write overlaps it.
    pub(super) fn begin_rdma<I: Io>(&mut self, io: &mut I, d: RndvDue) -> Option<RdmaRead> {
        let RndvDue {
            req,
            peer,
            sender_req,
            total,
            take,
            rts,
        } = d;
        let threshold = self.split_threshold_for(peer);
        let r = self.reqs.get_mut(req)?;
        if peer != self.me {
            r.reg =
                Self::register_payload(io, self.reg_policy, &r.data, Access::Write).map(Box::new);
        }
        // odp-optimal prefetches a fresh registration once our reply is out.
        let prefetch = peer != self.me
            && self.reg_policy == RegPolicy::OdpOptimal
            && r.reg.as_ref().is_some_and(|g| g.is_fresh());
        // Only a contiguous message into a contiguous buffer is split: the write request
        // names one range on each side.
        let base = match r.data {
            MsgBuf::Contig { ptr, .. } if rts.entries == 0 => Some(ptr as u64),
            _ => None,
        };
        // The sender writes [head, take) and we read [0, head). Auto splits at a page
        // boundary near the middle (a message too short for a page-aligned half is read
        // whole); Put has the sender write everything; Get reads everything. The sender
        // writes only into a buffer we could key.
        let rkey = r
            .reg
            .as_ref()
            .map_or(RemoteKeys::NONE, |g| g.keys().remotes());
        let writable = peer != self.me && base.is_some() && !rkey.is_none();
        let head = match self.settings.rndv {
            Rndv::Put if writable && take > 0 => 0,
            Rndv::Auto if writable && threshold > 0 && take >= threshold => {
                match (take / 2) & !4095 {
                    0 => take,
                    h => h,
                }
            }
            _ => take,
        };
        let split = head < take;
        r.kind = Kind::Recv(RecvState::Rdma {
            peer,
            sender_req,
            total,
            pending: u8::from(head > 0 || take == 0) + u8::from(split),
            failed: false,
        });
        match base {
            // The peer writes all of it: prefetch from the end, towards its writes.
            Some(base) if prefetch && head == 0 => self.backward_prefetch.push(BackwardPrefetch {
                req,
                base,
                floor: 0,
                cursor: take as u64,
            }),
            _ if prefetch => self.prefetch_due.push(req),
            _ => {}
        }
        if let (true, Some(base)) = (split, base) {
            self.splits += 1;
            let ask = wire::WriteAsk {
                sender_req,
                receiver_req: req,
                offset: head as u64,
                len: (take - head) as u64,
                addr: base + head as u64,
                note: self.new_note(peer, Noted::Put { req }),
            };
            self.queue_control(peer, wire::put_req(&ask, io.key_slots(peer), &rkey));
        }
        (head > 0 || take == 0).then_some(RdmaRead {
            peer,
            req,
            rts,
            total,
            offset: 0,
            len: head,
        })
    }

    /// Post our part `rd` of a rendezvous read: the payload, or first the sender's run
    /// table (checked before any payload byte moves). Reads from ourselves are copies.
    pub(super) fn post_rget<I: Io>(&mut self, io: &mut I, rd: RdmaRead) {
        let Some(r) = self.reqs.get_mut(rd.req) else {
            return;
        };
        // offset + len <= the receive buffer's capacity (set at match).
        let local = r.data.runs_at(rd.offset, rd.len);
        let lkeys = r.reg.as_ref().map(|g| *g.keys());
        if rd.peer == self.me {
            let own_table = (rd.rts.entries > 0 && rd.rts.entries <= MAX_RUN_TABLE.min(rd.total))
                .then(|| {
                    // SAFETY: our own send's run table (self-send), boxed in its request until
                    // FIN; its length was bounded just above.
                    unsafe {
                        std::slice::from_raw_parts(
                            rd.rts.addr as *const u8,
                            rd.rts.entries as usize * RUN_ENTRY,
                        )
                    }
                });
            let ok = match remote_runs(&rd, own_table) {
                Ok(remote) => {
                    // SAFETY: our own send buffer and this receive's buffer (self-send);
                    // the sender's request keeps its memory valid until FIN.
                    unsafe { copy_runs(&local, &remote) };
                    true
                }
                Err(e) => {
                    self.reject(rd.peer, &format!("malformed run table ({e:?})"));
                    false
                }
            };
            return self.read_done(rd.req, ok);
        }
        if rd.rts.entries == 0 {
            let remote = remote_runs(&rd, None).expect("contiguous");
            let token = self.track(Posted::Read { req: rd.req });
            // SAFETY: runs of a pending receive's buffer, ours until it completes.
            let res = unsafe {
                io.post(&Transfer {
                    lkeys: lkeys.as_ref(),
                    ..Transfer::new(RdmaOp::Read, rd.peer, &local, &remote, &rd.rts.rkey, token)
                })
            };
            return self.post_failed(token, res);
        }
        // Every run holds at least one byte, so a table longer than the message is bogus.
        if rd.rts.entries > MAX_RUN_TABLE || rd.rts.entries > rd.total {
            self.reject(rd.peer, "malformed run table (too many entries)");
            return self.read_done(rd.req, false);
        }
        let raw = vec![0u8; rd.rts.entries as usize * RUN_ENTRY].into_boxed_slice();
        let l = [Span {
            addr: raw.as_ptr() as u64,
            len: raw.len() as u64,
        }];
        let r = [Span {
            addr: rd.rts.addr,
            len: raw.len() as u64,
        }];
        let (peer, rkey) = (rd.peer, rd.rts.table_rkey);
        // The boxed table moves into `posted` without its heap memory moving.
        let token = self.track(Posted::Table { rd, raw });
        // SAFETY: `raw` lives in `posted` until this read's completion.
        let res = unsafe { io.post(&Transfer::new(RdmaOp::Read, peer, &l, &r, &rkey, token)) };
        self.post_failed(token, res);
    }

    /// Our read into receive `req` finished (`ok`) or failed.
    pub(super) fn read_done(&mut self, req: ReqId, ok: bool) {
        if !ok {
            if let Some(Request {
                kind: Kind::Recv(RecvState::Rdma { failed, .. }),
                ..
            }) = self.reqs.get_mut(req)
            {
                *failed = true;
            }
        }
        self.part_done(req);
    }

    /// One part of an RDMA rendezvous finished. When none is left, the receive completes and
    /// FIN releases the sender — or, if a part failed, the whole message is asked for as a
    /// stream instead.
    pub(super) fn part_done(&mut self, req: ReqId) {
        let Some(r) = self.reqs.get_mut(req) else {
            return;
        };
        let Kind::Recv(RecvState::Rdma {
            peer,
            sender_req,
            total,
            pending,
            failed,
        }) = &mut r.kind
        else {
            return;
        };
        *pending -= 1;
        if *pending > 0 {
            return;
        }
        let (peer, sender_req, total, failed) = (*peer, *sender_req, *total, *failed);
        if failed {
            // The sender streams the whole message; our buffer takes what fits.
            r.kind = Kind::Recv(RecvState::Streaming {
                peer,
                expected: total,
                received: 0,
            });
            self.queue_control(peer, wire::cts(sender_req, req));
        } else {
            self.complete(req);
            self.queue_control(peer, wire::fin(sender_req));
        }
    }
}

/// The sender's runs our part `rd` of a rendezvous reads: one range of a contiguous
/// payload, or the runs of its `table` (checked, and clipped to our part).
pub(super) fn remote_runs(
    rd: &RdmaRead,
    table: Option<&[u8]>,
) -> Result<buffer::RunList, TableError> {
    if rd.rts.entries == 0 {
        return Ok(buffer::RunList::One([Span {
            addr: rd.rts.addr.wrapping_add(rd.offset as u64),
            len: rd.len as u64,
        }]));
    }
    let raw = table.ok_or(TableError::Entries)?;
    let runs = buffer::parse_run_table(raw, rd.total)?;
    Ok(buffer::RunList::Many(buffer::clip(runs, rd.len as u64)))
}

/// Copy the `remote` runs (of this process: a send to ourselves) into the `local` runs.
///
/// # Safety
/// Both lists must describe live memory of this process, `local` writable.
pub(super) unsafe fn copy_runs(local: &[Run], remote: &[Run]) {
    let mut src = remote.iter().map(|r| (r.addr, r.len));
    let mut cur = (0u64, 0u64);
    for l in local {
        let (mut at, mut left) = (l.addr, l.len);
        while left > 0 {
            if cur.1 == 0 {
                let Some(next) = src.next() else {
                    return;
                };
                cur = next;
            }
            let n = left.min(cur.1);
            // SAFETY: the caller's contract; a send-to-self may share memory with its
            // receive, hence `copy`.
            unsafe { std::ptr::copy(cur.0 as *const u8, at as *mut u8, n as usize) };
            (at, left) = (at + n, left - n);
            cur = (cur.0 + n, cur.1 - n);
        }
    }
}
