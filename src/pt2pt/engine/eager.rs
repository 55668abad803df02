//! Eager sends and receives: the fast path straight into the channel, posted and
//! unexpected receives, probing and cancelling.

use super::*;

impl Pt2pt {
    /// Start a send of `len` bytes at `data` to rail peer `peer`.
    /// `sync`: complete only once matched (MPI_Ssend).
    ///
    /// The message-rate path: the arguments come in registers and go straight into the
    /// ring (a `MsgBuf` passed by value is stored and read back with wider loads, a
    /// store-forwarding stall per send).
    ///
    /// # Safety
    /// `(data, len)` must stay readable and unchanged until the send completes.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub unsafe fn send<I: Io>(
        &mut self,
        io: &mut I,
        peer: usize,
        ctx: u32,
        src: i32,
        tag: i32,
        ptr: *const u8,
        len: usize,
        sync: bool,
    ) -> SendStart {
        if !sync
            && peer != self.me
            && len <= self.eager_limit_for(peer)
            && self.out[peer].is_empty()
            && !self.unpolled_past_budget()
        {
            let (head, n) = wire::eager_header(&MatchHeader {
                ctx,
                src,
                tag,
                len: len as u64,
                sender_req: 0,
                flags: 0,
            });
            // SAFETY: (ptr, len) is the caller's send buffer (module contract).
            if io.send(peer, &[&head[..n], unsafe { slice(ptr, len) }]) {
                self.eager_unpolled += len;
                return SendStart::Done;
            }
        }
        // SAFETY: the caller's contract.
        unsafe { self.send_buf(io, peer, ctx, src, tag, MsgBuf::contig(ptr, len), sync) }
    }

    /// Start a send of the bytes `data` describes (contiguous or runs).
    ///
    /// # Safety
    /// The memory `data` describes must stay readable and unchanged until the send
    /// completes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn send_buf<I: Io>(
        &mut self,
        io: &mut I,
        peer: usize,
        ctx: u32,
        src: i32,
        tag: i32,
        mut data: MsgBuf,
        sync: bool,
    ) -> SendStart {
        let len = data.len();
        let eager = len <= self.eager_limit_for(peer);
        let hdr = MatchHeader {
            ctx,
            src,
            tag,
            len: len as u64,
            sender_req: 0,
            flags: if sync { wire::FLAG_SYNC } else { 0 },
        };
        if eager
            && !sync
            && peer != self.me
            && self.out[peer].is_empty()
            && !self.unpolled_past_budget()
        {
            // Fast path: straight into the ring, no request at all; runs are gathered
            // into the ring cell.
            let (head, n) = wire::eager_header(&hdr);
            let sent = match &mut data {
                // SAFETY: (ptr, len) is the caller's send buffer (module contract).
                MsgBuf::Contig { ptr, len } => {
                    io.send(peer, &[&head[..n], unsafe { slice(*ptr, *len) }])
                }
                runs => {
                    let mut parts = vec![&head[..n]];
                    // SAFETY: the runs are the caller's send buffer (module contract).
                    unsafe { runs.gather(0, len, &mut parts) };
                    io.send(peer, &parts)
                }
            };
            if sent {
                self.eager_unpolled += len;
                self.counts.eager += 1;
                return SendStart::Done;
            }
        }
        // SAFETY: the caller's contract.
        unsafe { self.send_queued(io, peer, hdr, data, sync) }
    }

    /// Post a receive into `(buf, cap)`. Returns the request (possibly already complete).
    ///
    /// # Safety
    /// `(buf, cap)` must stay writable, and untouched by others, until the receive completes.
    pub unsafe fn recv(&mut self, pat: Pattern, buf: *mut u8, cap: usize) -> ReqId {
        // SAFETY: the caller's contract.
        unsafe { self.recv_buf(pat, MsgBuf::contig(buf, cap)) }
    }

    /// Post a receive into the memory `data` describes (contiguous or runs).
    ///
    /// # Safety
    /// That memory must stay writable, and untouched by others, until the receive completes.
    pub unsafe fn recv_buf(&mut self, pat: Pattern, data: MsgBuf) -> ReqId {
        // SAFETY: the caller's contract.
        unsafe { self.recv_owned(pat, data, Owner::NONE) }
    }

    /// `recv_owned` into contiguous memory, the request's fields stored in place.
    ///
    /// The pattern comes as its parts and is built where it is queued: built earlier, it
    /// waits on the stack and its copy reads narrow fields back with a wide load (a
    /// store-forwarding stall on every posted receive).
    ///
    /// # Safety
    /// As for `recv_buf`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub unsafe fn recv_contig(
        &mut self,
        ctx: u32,
        src: Option<i32>,
        tag: Option<i32>,
        ptr: *mut u8,
        len: usize,
        owner: Owner,
    ) -> ReqId {
        let req = self.reqs.insert_posted_recv(ptr, len, owner);
        if self.mq.has_unexpected() {
            if let Some((env, msg)) = self.mq.take_unexpected(&Pattern { ctx, src, tag }) {
                self.deliver_unexpected(req, env, msg);
                return req;
            }
        }
        self.mq.push_posted(Pattern { ctx, src, tag }, req);
        req
    }

    /// `recv_buf` for a request tagged with `owner` (see `Request::owner`).
    ///
    /// # Safety
    /// As for `recv_buf`.
    pub unsafe fn recv_owned(&mut self, pat: Pattern, data: MsgBuf, owner: Owner) -> ReqId {
        let req = self.new_recv(data, owner);
        if let Some((env, msg)) = self.mq.post(pat, req) {
            self.deliver_unexpected(req, env, msg);
        }
        req
    }

    /// A receive request in the posted state. Inlined: a `MsgBuf` passed by value and
    /// read back at once stalls store forwarding (see `runtime::p2p::msg_buf`).
    #[inline(always)]
    fn new_recv(&mut self, data: MsgBuf, owner: Owner) -> ReqId {
        self.reqs.insert(Request {
            kind: Kind::Recv(RecvState::Posted),
            done: false,
            freed: false,
            status: Status::default(),
            data,
            owner,
            bounce: None,
            reg: None,
            table_reg: None,
        })
    }

    /// Blocking-receive fast path: if a matching eager message is already here, copy it
    /// out without creating a request.
    ///
    /// # Safety
    /// The memory `data` describes must be writable.
    pub unsafe fn try_recv_now(&mut self, pat: &Pattern, data: &mut MsgBuf) -> Option<Status> {
        let (_, first) = self.mq.peek_unexpected(pat)?;
        if !matches!(first, Unexpected::Eager { .. }) {
            return None;
        }
        let (env, msg) = self.mq.take_unexpected(pat)?;
        let Unexpected::Eager {
            peer,
            data: payload,
            sync,
        } = msg
        else {
            unreachable!()
        };
        if let Some(s) = sync {
            self.queue_control(peer, wire::sync_ack(s));
        }
        self.release_unexpected(peer, payload.len());
        // SAFETY: the caller's contract.
        Some(unsafe { copy_out(&env, &payload, data) })
    }

    pub(super) fn deliver_unexpected(&mut self, req: ReqId, env: Envelope, msg: Unexpected) {
        match msg {
            Unexpected::Eager { peer, data, sync } => {
                self.release_unexpected(peer, data.len());
                if let Some(s) = sync {
                    self.queue_control(peer, wire::sync_ack(s));
                }
                let r = self.reqs.get_mut(req).expect("just inserted");
                // SAFETY: the posted receive's buffer (module contract).
                r.status = unsafe { copy_out(&env, &data, &mut r.data) };
                self.complete(req);
            }
            Unexpected::Rts { peer, hdr, rts } => self.start_rendezvous(req, peer, &hdr, rts),
            Unexpected::PipeRts { peer, hdr, data } => {
                self.release_unexpected(peer, data.len());
                self.start_pipeline(req, peer, &hdr, &data)
            }
        }
    }

    /// An unexpected arrival from `peer` holds `len` more bytes here: past the limit, the
    /// peer is told to send by rendezvous, so a flood waits in the senders' memory.
    pub(super) fn hold_unexpected(&mut self, peer: usize, len: usize) {
        let held = &mut self.unexpected_bytes[peer];
        *held += len;
        if *held > self.unexpected_limit
            && self.unexpected_limit > 0
            && !self.throttling[peer]
            && peer != self.me
        {
            self.throttling[peer] = true;
            self.queue_control(peer, wire::throttle(true));
        }
    }

    /// `len` unexpected bytes from `peer` were received: eager again once at half the limit.
    fn release_unexpected(&mut self, peer: usize, len: usize) {
        let held = &mut self.unexpected_bytes[peer];
        *held -= len;
        if self.throttling[peer] && *held <= self.unexpected_limit / 2 {
            self.throttling[peer] = false;
            self.queue_control(peer, wire::throttle(false));
        }
    }

    /// Probe: the envelope and size of the first matching unexpected message.
    pub fn iprobe(&self, pat: &Pattern) -> Option<Status> {
        let (env, msg) = self.mq.peek_unexpected(pat)?;
        Some(probe_status(env, msg))
    }

    /// Matched probe (MPI_Improbe): take the first matching unexpected message out of
    /// matching, so that no other receive or probe can have it; `mrecv` receives it.
    pub fn improbe(&mut self, pat: &Pattern) -> Option<(MsgId, Status)> {
        let (env, msg) = self.mq.take_unexpected(pat)?;
        let st = probe_status(&env, &msg);
        let id = self.next_msg;
        self.next_msg += 1;
        self.matched.insert(id, (env, msg));
        Some((id, st))
    }

    /// Receive the message a matched probe took (MPI_Mrecv, MPI_Imrecv) into the memory
    /// `data` describes; None if `msg` names no such message (received already).
    ///
    /// # Safety
    /// As for `recv_buf`.
    pub unsafe fn mrecv(&mut self, msg: MsgId, data: MsgBuf, owner: Owner) -> Option<ReqId> {
        let (env, m) = self.matched.remove(&msg)?;
        let req = self.new_recv(data, owner);
        self.deliver_unexpected(req, env, m);
        Some(req)
    }

    /// Withdraw a posted receive. True if it was cancelled (not yet matched).
    pub fn cancel_recv(&mut self, req: ReqId) -> bool {
        if self.mq.cancel(req) {
            if let Some(r) = self.reqs.get_mut(req) {
                r.status.set_cancelled();
            }
            self.complete(req);
            true
        } else {
            false
        }
    }
}

/// What a probe reports for an unexpected message.
fn probe_status(env: &Envelope, msg: &Unexpected) -> Status {
    let count = match msg {
        Unexpected::Eager { data, .. } => data.len(),
        Unexpected::Rts { hdr, .. } | Unexpected::PipeRts { hdr, .. } => hdr.len as usize,
    };
    Status {
        source: env.src,
        tag: env.tag,
        count,
        ..Status::default()
    }
}

/// Copy (scatter) an eager payload into a receive buffer; the resulting status.
///
/// # Safety
/// The memory `data` describes must be writable.
#[inline(always)] // the status goes to the request in registers (see `Slab::insert_posted_recv`)
pub(super) unsafe fn copy_out(env: &Envelope, payload: &[u8], data: &mut MsgBuf) -> Status {
    let cap = data.len();
    let n = payload.len().min(cap);
    // SAFETY: the caller's contract; scatter writes n <= cap bytes.
    unsafe { data.scatter(0, &payload[..n]) };
    Status::received(env.src, env.tag, n, payload.len())
}
