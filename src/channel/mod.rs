//! channel: virtual channels (Liu 2004, §4.2) — one per peer, made of subchannels over the
//! rails that reach it — between the protocol layers (`pt2pt`, `coll` through it) and
//! `fabric`. The layers above address peers by rank and never see a rail.
//!
//! What a channel adds to its rails:
//! - a sequence number on every message and, at the receiver, the expected number and an
//!   out-of-order queue (`reorder.rs`, Liu §5.2), so MPI's non-overtaking order holds
//!   whichever subchannel a message took;
//! - a completion filter (`filter.rs`, Liu §5.3): a transfer cut into parts (more
//!   scatter/gather entries than the rail takes, or stripes) completes once all parts have;
//! - the scheduler (`sched.rs`, Liu §4.4–4.5) where a peer has several subchannels (tcp
//!   rails over several interfaces or connections): a policy for messages, and stripes for
//!   large RDMA transfers, weighted by rates the adaptive policy measures per stripe and,
//!   for the traffic it does not stripe, from what each link delivered while busy;
//! - carrying on when one of a peer's subchannels fails (`failover.rs`).
//!
//! Atomics go on a peer's first live subchannel (their order is the rail's).

mod failover;
pub mod filter;
pub mod reorder;
pub mod sched;
pub mod service;

use crate::fabric::{
    AnyRail, AtomicOp, Completion, Domains, Doorbell, Keys, RailCaps, RailError, RailEvent, RdmaOp,
    RemoteKeys, Route, SlotSet, Span, Transfer,
};
use failover::MessageLog;
use filter::Filter;
use reorder::{Arrival, Reorder, Sequencer, CONTROL};
use rustc_hash::FxHashMap;
use sched::{MultirailSettings, Scheduler, Striping};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

/// What the channels hand up: a message from a rank (in its channel's order), or the
/// completion of a posted transfer (all its parts).
pub enum Event<'a> {
    Message {
        peer: usize,
        bytes: &'a [u8],
    },
    Completion(Completion),
    /// A write from rank `peer` that asked to be noticed (`Transfer::notify`) is in place.
    Notified {
        peer: usize,
        imm: u32,
    },
}

/// One path to a peer: rail `rail`, where the peer is `peer`.
#[derive(Clone, Copy, Debug)]
struct Subchannel {
    rail: usize,
    peer: usize,
}

/// Everything about one peer.
struct VirtualChannel {
    /// The first subchannel: all there is for most peers (the fast path reads it here,
    /// not through `subs`).
    sub: Subchannel,
    /// Every subchannel (`sub` first).
    subs: Vec<Subchannel>,
    send: Sequencer,
    recv: Reorder,
    sched: Scheduler,
    /// Per subchannel: messages, stripes and striped bytes sent (RAILMPI_STATS).
    counts: Vec<SubCounts>,
    /// Several subchannels: per subchannel, the last messages sent over it, to send again
    /// when it fails.
    logs: Vec<MessageLog>,
    /// What every subchannel offers (`RailCaps::meet`), and the domain slot of each: the
    /// keys the peer is given for memory it reaches by RDMA.
    caps: RailCaps,
    key_slots: SlotSet,
}

impl VirtualChannel {
    /// The channel to a peer reached over `routes` (the first carries atomics).
    fn new(routes: &[Route], rails: &[AnyRail], settings: &MultirailSettings) -> Self {
        let subs: Vec<Subchannel> = routes
            .iter()
            .map(|r| Subchannel {
                rail: r.rail,
                peer: r.peer,
            })
            .collect();
        let caps = RailCaps::meet_all(routes.iter().map(|r| rails[r.rail].caps()));
        VirtualChannel {
            caps: caps.expect("a subchannel per rank"),
            key_slots: routes
                .iter()
                .fold(SlotSet::default(), |s, r| s.with(rails[r.rail].caps().slot)),
            sub: subs[0],
            sched: Scheduler::new(subs.len(), &settings.striping),
            counts: vec![SubCounts::default(); subs.len()],
            logs: (0..subs.len()).map(|_| MessageLog::default()).collect(),
            subs,
            send: Sequencer::default(),
            recv: Reorder::default(),
        }
    }
}

/// A transfer (or part of one) posted to a peer with several subchannels, kept until it
/// completes: so that it can go again over another when its link fails, and, for a stripe,
/// to time its delivery for the scheduler.
struct PostRecord {
    op: RdmaOp,
    peer: usize,
    sub: usize,
    local: Vec<Span>,
    lkeys: Option<Keys>,
    remote: Vec<Span>,
    rkeys: RemoteKeys,
    /// A stripe: its transfer's token, and when it was posted.
    timing: Option<(u64, Instant)>,
}

#[derive(Clone, Copy, Default, Debug)]
struct SubCounts {
    messages: u64,
    stripes: u64,
    bytes: u64,
}

/// Adaptive striping's look at the links of `vc` (`Scheduler::learn`), for the traffic
/// it does not stripe: striped transfers time their stripes, messages have no completion
/// to time, but the links say what they delivered while busy.
#[cold]
fn learn_links(rails: &[AnyRail], vc: &mut VirtualChannel, alpha: f64) {
    let seen: Vec<(usize, crate::fabric::LinkProgress)> = vc
        .subs
        .iter()
        .enumerate()
        .filter(|&(i, _)| vc.sched.is_alive(i))
        .filter_map(|(i, s)| rails[s.rail].link_progress(s.peer).map(|p| (i, p)))
        .collect();
    vc.sched.learn(alpha, &seen);
}

/// A finished stripe: (subchannel, bytes, seconds from post to completion).
type StripeTime = (usize, usize, f64);

pub struct Channels {
    rails: Vec<AnyRail>,
    vcs: Vec<VirtualChannel>,
    /// `ranks[rail][rail peer]`: the rank a rail's peer index stands for.
    ranks: Vec<Vec<usize>>,
    caps: RailCaps,
    filter: Filter,
    wait: Doorbell,
    settings: MultirailSettings,
    /// Per striped transfer: its peer and its finished stripes' (subchannel, bytes,
    /// seconds).
    finished: FxHashMap<u64, (usize, Vec<StripeTime>)>,
    /// Rail token → a transfer or part posted to a peer with several subchannels.
    posts: FxHashMap<u64, PostRecord>,
    /// Resync messages not yet sent (no room): (rank, failed subchannel).
    resyncs_due: Vec<(usize, usize)>,
    /// Logged messages to send again after a failure: (rank, number, bytes).
    resends_due: VecDeque<(usize, u32, Vec<u8>)>,
    /// Messages dropped: too short for a sequence number, duplicated, or far out of order.
    pub bad_messages: u64,
}

impl Channels {
    /// Channels over `rails`, reaching rank `r` as `routes[r]` says (one subchannel each).
    pub fn new(rails: Vec<AnyRail>, routes: &[Route], wait: Doorbell) -> Self {
        let subs: Vec<Vec<Route>> = routes.iter().map(|r| vec![*r]).collect();
        Self::multirail(rails, &subs, wait, MultirailSettings::default())
    }

    /// Channels over `rails`, reaching rank `r` over the subchannels `subchannels[r]`
    /// (the first carries atomics), scheduled as `settings` says.
    pub fn multirail(
        rails: Vec<AnyRail>,
        subchannels: &[Vec<Route>],
        wait: Doorbell,
        settings: MultirailSettings,
    ) -> Self {
        let mut ranks: Vec<Vec<usize>> = rails.iter().map(|r| vec![0; r.peers()]).collect();
        for (rank, subs) in subchannels.iter().enumerate() {
            for route in subs {
                if let Some(slot) = ranks
                    .get_mut(route.rail)
                    .and_then(|v| v.get_mut(route.peer))
                {
                    *slot = rank;
                }
            }
        }
        // What the layers above may count on: what every rail offers; and with one peer,
        // what every rail that reaches it offers.
        let caps = RailCaps::meet_all(rails.iter().map(|r| r.caps())).expect("a rail");
        Channels {
            vcs: subchannels
                .iter()
                .map(|routes| VirtualChannel::new(routes, &rails, &settings))
                .collect(),
            rails,
            ranks,
            caps,
            filter: Filter::default(),
            wait,
            settings,
            finished: FxHashMap::default(),
            posts: FxHashMap::default(),
            resyncs_due: Vec::new(),
            resends_due: VecDeque::new(),
            bad_messages: 0,
        }
    }

    /// What the channels can do (of the rails under them).
    pub fn caps(&self) -> &RailCaps {
        &self.caps
    }

    /// Ranks reached (this one included).
    pub fn peers(&self) -> usize {
        self.vcs.len()
    }

    /// A rail opened after the start (MPI-2 dynamic processes: the link to processes of
    /// another job); returns its index for `add_peer`'s routes. Its memory domain stays out
    /// of `domains` (registrations made so far are not keyed there): the peers it reaches
    /// get no RDMA (`Pt2pt::add_peer`).
    pub fn add_rail(&mut self, rail: AnyRail) -> usize {
        self.ranks.push(vec![usize::MAX; rail.peers()]);
        self.rails.push(rail);
        self.rails.len() - 1
    }

    /// A rank that joined after the start, reached over `routes` (the first carries
    /// atomics); returns its number, the next after every rank known so far.
    pub fn add_peer(&mut self, routes: &[Route]) -> usize {
        let rank = self.vcs.len();
        for r in routes {
            self.ranks[r.rail][r.peer] = rank;
        }
        self.vcs
            .push(VirtualChannel::new(routes, &self.rails, &self.settings));
        rank
    }

    /// The memory domains registrations go through: each rail's, once per slot.
    pub fn domains(&self) -> Domains {
        let mut list: Vec<(usize, Arc<dyn crate::fabric::MemoryDomain>)> = Vec::new();
        for r in &self.rails {
            let slot = r.caps().slot;
            if !list.iter().any(|(s, _)| *s == slot) {
                list.push((slot, r.memory()));
            }
        }
        Domains::new(list)
    }

    /// The domain slot of the first rail that reaches rank `peer` (which of a
    /// registration's keys goes with a request to its RMA helper, which comes by that
    /// route).
    #[inline]
    pub fn key_slot(&self, peer: usize) -> usize {
        self.vcs
            .get(peer)
            .map_or(0, |vc| self.rails[vc.sub.rail].caps().slot)
    }

    /// The domain slots of every rail that reaches rank `peer`: the keys it is given for
    /// memory it reaches by RDMA (one per slot; each subchannel takes its own).
    #[inline]
    pub fn key_slots(&self, peer: usize) -> SlotSet {
        self.vcs
            .get(peer)
            .map_or(SlotSet::default(), |vc| vc.key_slots)
    }

    /// Whether writes to rank `peer` may ask to be noticed there (`Transfer::notify`): it
    /// has one subchannel (a write sent again over another after a failure could be
    /// noticed twice), whose rail can.
    pub fn notifies(&self, peer: usize) -> bool {
        self.vcs
            .get(peer)
            .is_some_and(|vc| vc.subs.len() == 1 && vc.caps.write_notify)
    }

    /// What a waiting thread sleeps on.
    pub fn wait_handle(&self) -> Doorbell {
        self.wait
    }

    /// Queue one message made of `parts` for rank `peer`. False when there is no room now.
    #[inline(always)]
    pub fn try_send(&mut self, peer: usize, parts: &[&[u8]]) -> bool {
        let vc = &mut self.vcs[peer];
        // The sequence number rides as the rail's immediate word: no byte of the payload
        // moves for it.
        if vc.subs.len() == 1 {
            let sent = self.rails[vc.sub.rail].try_send(vc.sub.peer, vc.send.next(), parts);
            if sent {
                vc.send.commit();
            }
            return sent;
        }
        // Several subchannels: the policy picks one; the sequence number keeps the order.
        // (A refusal moves round robin on: the retry takes the next one.)
        let i = vc.sched.pick(&self.settings.policy);
        let sub = vc.subs[i];
        let seq = vc.send.next();
        let sent = self.rails[sub.rail].try_send(sub.peer, seq, parts);
        if sent {
            vc.send.commit();
            vc.counts[i].messages += 1;
            vc.logs[i].push(seq, parts);
            if let Striping::Adaptive { alpha } = self.settings.striping {
                if vc.sched.sample_due(parts.iter().map(|p| p.len()).sum()) {
                    learn_links(&self.rails, vc, alpha);
                }
            }
        }
        sent
    }

    /// Hand every completion and every message that is next in its channel's order to
    /// `sink` (peers as ranks). Returns how many.
    #[inline]
    pub fn poll<F: FnMut(Event<'_>)>(&mut self, sink: &mut F) -> usize {
        let Channels {
            rails,
            vcs,
            ranks,
            filter,
            bad_messages,
            settings,
            finished,
            posts,
            ..
        } = self;
        let mut n = 0;
        let mut aside = Aside {
            filter,
            bad_messages,
            settings,
            finished,
            posts,
            lost: Vec::new(),
            retries: Vec::new(),
            controls: Vec::new(),
        };
        // A rail that served peers (their writes, reads, atomics) but has nothing to hand
        // up still says so: the waiter counts it as activity.
        let mut served = false;
        for (i, rail) in rails.iter_mut().enumerate() {
            let ranks = &ranks[i];
            served |= 0 < rail.poll(&mut |ev| {
                // The message that is next in its channel's order: the fast path, small
                // enough to inline into the rail's loop.
                let ev = match ev {
                    RailEvent::Message { peer, imm, bytes } => {
                        let rank = ranks[peer];
                        // (A rail opened later reaches some of its peers only: the others'
                        // rank is usize::MAX, and `event` drops their messages.)
                        if vcs
                            .get_mut(rank)
                            .is_some_and(|vc| vc.recv.take_in_order(imm))
                        {
                            sink(Event::Message { peer: rank, bytes });
                            n += 1;
                            return;
                        }
                        RailEvent::Message { peer, imm, bytes }
                    }
                    // A whole transfer's completion (nothing striped, split or to retry
                    // is in flight): the fast path of a put or get and its flush.
                    RailEvent::Completion(c)
                        if aside.posts.is_empty()
                            && aside.finished.is_empty()
                            && Filter::is_user_token(c.token) =>
                    {
                        sink(Event::Completion(c));
                        n += 1;
                        return;
                    }
                    ev => ev,
                };
                aside.event(ev, i, ranks, vcs, sink, &mut n);
            });
        }
        n = n.max(usize::from(served));
        let Aside {
            lost,
            retries,
            controls,
            ..
        } = aside;
        if !lost.is_empty()
            || !retries.is_empty()
            || !controls.is_empty()
            || !self.resyncs_due.is_empty()
            || !self.resends_due.is_empty()
        {
            self.recover(lost, retries, controls, sink, &mut n);
        }
        n
    }

    /// The job is over for this process: every rail says goodbye (see `Rail::close`).
    pub fn close(&mut self) {
        for r in &mut self.rails {
            r.close();
        }
    }

    /// Takes rail `r` out (a closed stand-in keeps its place and index) for the caller to
    /// close and drop: its peers are no one's any more (MPI_Comm_disconnect).
    pub fn take_rail(&mut self, r: usize) -> AnyRail {
        crate::fabric::loopback::LoopbackRail::replace(&mut self.rails[r])
    }

    /// Whether memory the library allocated in rank `peer` can be mapped here and reached
    /// by loads and stores (the rail to it says so: shm, on one host).
    pub fn maps(&self, peer: usize) -> bool {
        self.rail_caps(peer).is_some_and(|c| c.mapped)
    }

    /// What the rails that reach rank `peer` can all do (its messages and transfers may
    /// take any of them).
    pub fn rail_caps(&self, peer: usize) -> Option<&RailCaps> {
        self.vcs.get(peer).map(|vc| &vc.caps)
    }

    /// A 64-bit atomic on the word at `remote` in rank `peer` (see `Rail::post_atomic`),
    /// under its key for the rail that carries it; its completion carries the previous
    /// value.
    pub fn post_atomic(
        &mut self,
        peer: usize,
        op: AtomicOp,
        remote: u64,
        rkeys: &RemoteKeys,
        token: u64,
    ) -> Result<(), RailError> {
        debug_assert!(Filter::is_user_token(token));
        let vc = self.vcs.get(peer).ok_or(RailError::NoSuchPeer(peer))?;
        // The first live subchannel (an atomic in flight on a link that fails fails too:
        // it may or may not have been applied).
        let sub = vc.subs[vc.sched.first_alive()];
        let rail = &mut self.rails[sub.rail];
        let rkey = rkeys.get(rail.caps().slot);
        rail.post_atomic(sub.peer, op, remote, rkey, token)
    }

    /// About to sleep: every rail arms its wait handle (`Rail::arm`); poll once more after.
    pub fn arm(&mut self) {
        for r in &mut self.rails {
            r.arm();
        }
    }

    /// Whether completions wait in a rail.
    pub fn has_completions(&self) -> bool {
        self.rails.iter().any(|r| r.has_completions())
    }

    /// RDMA transfer `t` with rank `t.peer` (see `Rail::post`); its token must not have
    /// the top bit set. Cut into parts where the rail takes fewer entries; one completion.
    ///
    /// # Safety
    /// As for `Rail::post`.
    pub unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError> {
        debug_assert!(Filter::is_user_token(t.token));
        let vc = self
            .vcs
            .get_mut(t.peer)
            .ok_or(RailError::NoSuchPeer(t.peer))?;
        if vc.subs.len() == 1 {
            let s = vc.sub;
            let rail = &mut self.rails[s.rail];
            let max = rail.caps().max_sge;
            if t.local.len() <= max && t.remote.len() <= max {
                // SAFETY: the caller's contract.
                return unsafe {
                    if s.peer == t.peer {
                        // (Not copied where the rail numbers peers as the job does.)
                        rail.post(t)
                    } else {
                        rail.post(&Transfer { peer: s.peer, ..*t })
                    }
                };
            }
        }
        if t.notify.is_some() {
            // One write on one connection only: its notice must come after every byte.
            return Err(RailError::Unsupported(
                "a notifying write that must be cut or striped",
            ));
        }
        let sub = if vc.subs.len() == 1 {
            0
        } else {
            let total: u64 = t.local.iter().map(|s| s.len).sum();
            if total >= self.settings.threshold as u64 {
                // SAFETY: the caller's contract.
                return unsafe { self.post_striped(t, total) };
            }
            // Not striped: the message policy spreads whole transfers (recorded by
            // `post_parts`, to go again if their link fails).
            if let Striping::Adaptive { alpha } = self.settings.striping {
                if vc.sched.sample_due(total as usize) {
                    learn_links(&self.rails, vc, alpha);
                }
            }
            vc.sched.pick(&self.settings.policy)
        };
        let max = self.rails[vc.subs[sub].rail].caps().max_sge;
        let parts: Vec<(usize, Vec<Span>, Vec<Span>)> = filter::cut(t.local, t.remote, max)
            .into_iter()
            .map(|(l, r)| (sub, l, r))
            .collect();
        // SAFETY: the caller's contract covers every part of its spans.
        unsafe { self.post_parts(t, parts, false) }
    }

    /// Transfer `t` of `total` bytes in stripes over its peer's subchannels, by the
    /// weights of its scheduler (Liu §4.5); one completion when every stripe is done,
    /// whose times feed the adaptive policy.
    ///
    /// # Safety
    /// As for `Rail::post`.
    unsafe fn post_striped(&mut self, t: &Transfer<'_>, total: u64) -> Result<(), RailError> {
        let vc = &mut self.vcs[t.peer];
        let min = vc
            .subs
            .iter()
            .map(|s| self.rails[s.rail].caps().min_stripe)
            .max()
            .unwrap_or(1);
        let plan = vc.sched.stripes(total as usize, min, STRIPE_ALIGN);
        let mut parts = Vec::new();
        for &(sub, off, len) in &plan {
            let (l, r) = (
                filter::range(t.local, off as u64, len as u64),
                filter::range(t.remote, off as u64, len as u64),
            );
            let max = self.rails[vc.subs[sub].rail].caps().max_sge;
            for (l, r) in filter::cut(&l, &r, max) {
                parts.push((sub, l, r));
            }
            vc.counts[sub].stripes += 1;
            vc.counts[sub].bytes += len as u64;
        }
        let timed = plan.len() > 1;
        // SAFETY: the caller's contract covers every stripe of its spans.
        unsafe { self.post_parts(t, parts, timed) }
    }

    /// Post `(subchannel, local, remote)` parts of transfer `t` (whose rank is `t.peer`),
    /// completing once (the filter); `timed`: record each part's delivery time for the
    /// scheduler.
    ///
    /// # Safety
    /// As for `Rail::post`, for every part.
    unsafe fn post_parts(
        &mut self,
        t: &Transfer<'_>,
        parts: Vec<(usize, Vec<Span>, Vec<Span>)>,
        timed: bool,
    ) -> Result<(), RailError> {
        let (peer, token) = (t.peer, t.token);
        let tokens = self.filter.split(token, parts.len());
        if timed {
            self.finished.insert(token, (peer, Vec::new()));
        }
        let timing = timed.then(|| (token, Instant::now()));
        let multi = self.vcs[peer].subs.len() > 1;
        for ((sub, l, r), part) in parts.into_iter().zip(tokens) {
            let s = self.vcs[peer].subs[sub];
            let posted = {
                let p = Transfer {
                    peer: s.peer,
                    ..t.part(&l, &r, part)
                };
                // SAFETY: the caller's contract covers every part of its spans.
                unsafe { self.rails[s.rail].post(&p) }
            };
            if posted.is_ok() && multi {
                self.posts.insert(
                    part,
                    PostRecord {
                        op: t.op,
                        peer,
                        sub,
                        local: l,
                        lkeys: t.lkeys.copied(),
                        remote: r,
                        rkeys: *t.rkeys,
                        timing,
                    },
                );
            }
            if let Err(e) = posted {
                // Refused at once: it completes (with this error) like a posted part.
                if let Some(c) = self.filter.complete(Completion {
                    token: part,
                    result: Err(e),
                }) {
                    self.finished.remove(&token);
                    return Err(c.result.expect_err("an error"));
                }
            }
        }
        Ok(())
    }

    /// The rails' names, in rail order.
    pub fn rail_names(&self) -> Vec<&'static str> {
        self.rails.iter().map(|r| r.caps().name).collect()
    }

    /// Per rail: what its subchannels to peers reached by several carried.
    pub fn rail_totals(&self) -> Vec<RailTotals> {
        let mut out = vec![RailTotals::default(); self.rails.len()];
        let mut peers = vec![0u32; self.rails.len()];
        for vc in self.vcs.iter().filter(|v| v.subs.len() > 1) {
            for ((s, c), w) in vc.subs.iter().zip(&vc.counts).zip(&vc.sched.weights) {
                let t = &mut out[s.rail];
                t.messages += c.messages;
                t.stripes += c.stripes;
                t.bytes += c.bytes;
                t.weight += w;
                peers[s.rail] += 1;
            }
        }
        for (t, n) in out.iter_mut().zip(peers) {
            if n > 0 {
                t.weight /= n as f64;
            }
        }
        out
    }

    /// Per peer with several subchannels that carried anything: messages, stripes and
    /// striped bytes per subchannel (named by rail), and the striping weights
    /// (RAILMPI_STATS).
    pub fn stats(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (rank, vc) in self.vcs.iter().enumerate().filter(|(_, v)| {
            v.subs.len() > 1 && v.counts.iter().any(|c| c.messages + c.stripes > 0)
        }) {
            let subs: Vec<String> = vc
                .subs
                .iter()
                .zip(&vc.counts)
                .zip(&vc.sched.weights)
                .map(|((s, c), w)| {
                    format!(
                        "rail {} ({}): {} messages, {} stripes, {} bytes, weight {:.3}",
                        s.rail,
                        self.rails[s.rail].caps().name,
                        c.messages,
                        c.stripes,
                        c.bytes,
                        w
                    )
                })
                .collect();
            out.push(format!("to rank {rank}: {}", subs.join("; ")));
        }
        out
    }
}

/// What one rail carried for every peer it reaches through several subchannels
/// (`Channels::rail_totals`: the MPI_T performance variables).
#[derive(Clone, Copy, Debug, Default)]
pub struct RailTotals {
    pub messages: u64,
    pub stripes: u64,
    pub bytes: u64,
    /// The striping weight of the rail's subchannels, averaged over those peers.
    pub weight: f64,
}

/// Stripes end at multiples of this (pages: a rail may register or fault by page).
const STRIPE_ALIGN: usize = 4096;

/// Stripes cut into parts (more entries than a rail takes) count once per subchannel: their
/// bytes summed, the last part's time.
fn per_subchannel(parts: &[StripeTime]) -> Vec<StripeTime> {
    let mut out: Vec<StripeTime> = Vec::new();
    for &(sub, bytes, t) in parts {
        match out.iter_mut().find(|o| o.0 == sub) {
            Some(o) => {
                o.1 += bytes;
                o.2 = o.2.max(t);
            }
            None => out.push((sub, bytes, t)),
        }
    }
    out
}

/// What `Channels::poll` needs for every event but an in-order message, and what it
/// sets aside (failures, retries, control messages) for after the rails are polled.
struct Aside<'a> {
    filter: &'a mut Filter,
    bad_messages: &'a mut u64,
    settings: &'a MultirailSettings,
    finished: &'a mut FxHashMap<u64, (usize, Vec<StripeTime>)>,
    posts: &'a mut FxHashMap<u64, PostRecord>,
    lost: Vec<(usize, usize, String, bool)>,
    retries: Vec<(u64, PostRecord)>,
    controls: Vec<(usize, usize, Vec<u8>)>,
}

impl Aside<'_> {
    /// A message out of order or a control message, a lost link, or a completion from
    /// rail `rail` (out of line: see `Channels::poll`).
    #[inline(never)]
    fn event<F: FnMut(Event<'_>)>(
        &mut self,
        ev: RailEvent<'_>,
        rail: usize,
        ranks: &[usize],
        vcs: &mut [VirtualChannel],
        sink: &mut F,
        n: &mut usize,
    ) {
        match ev {
            RailEvent::Message { peer, imm, bytes } => {
                let rank = ranks[peer];
                let Some(vc) = vcs.get_mut(rank) else {
                    // A peer of a later rail that we reach another way: it has no business
                    // sending here.
                    *self.bad_messages += 1;
                    return;
                };
                // (Never the expected number: sequence numbers skip CONTROL.)
                if imm == CONTROL {
                    self.controls.push((rank, rail, bytes.to_vec()));
                    return;
                }
                match vc.recv.arrive(imm, bytes) {
                    Arrival::InOrder => {
                        sink(Event::Message { peer: rank, bytes });
                        *n += 1;
                        while let Some(m) = vc.recv.next_held() {
                            sink(Event::Message {
                                peer: rank,
                                bytes: &m,
                            });
                            *n += 1;
                        }
                    }
                    Arrival::Held => {}
                    Arrival::Rejected => *self.bad_messages += 1,
                }
            }
            RailEvent::Notified { peer, imm } if ranks[peer] != usize::MAX => {
                sink(Event::Notified {
                    peer: ranks[peer],
                    imm,
                });
                *n += 1;
            }
            RailEvent::Lost {
                peer,
                why,
                unreachable,
            } if ranks[peer] != usize::MAX => self.lost.push((rail, ranks[peer], why, unreachable)),
            RailEvent::Notified { .. } | RailEvent::Lost { .. } => *self.bad_messages += 1,
            RailEvent::Completion(c) => {
                if let Some(rec) = (!self.posts.is_empty())
                    .then(|| self.posts.remove(&c.token))
                    .flatten()
                {
                    if matches!(c.result, Err(RailError::Lost(_))) {
                        // Its link failed: it goes again over another.
                        self.retries.push((c.token, rec));
                        return;
                    }
                    if let Some((transfer, start)) = rec.timing {
                        if let Some(f) = self.finished.get_mut(&transfer) {
                            let bytes = rec.local.iter().map(|x| x.len as usize).sum();
                            f.1.push((rec.sub, bytes, start.elapsed().as_secs_f64()));
                        }
                    }
                }
                if let Some(c) = self.filter.complete(c) {
                    if let Some((peer, done)) = self.finished.remove(&c.token) {
                        if let Striping::Adaptive { alpha } = self.settings.striping {
                            vcs[peer].sched.adapt(alpha, &per_subchannel(&done));
                        }
                    }
                    sink(Event::Completion(c));
                    *n += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::inproc;
    use crate::fabric::memory::{Mode, PageRange};
    use crate::fabric::{Rail, RemoteKey};

    fn pair() -> Vec<Channels> {
        let rails = inproc::network(2, 4096);
        let routes: Vec<Route> = (0..2).map(|r| Route { rail: 0, peer: r }).collect();
        rails
            .into_iter()
            .map(|r| {
                let wait = r.wait_handle();
                Channels::new(vec![AnyRail::Dyn(Box::new(r))], &routes, wait)
            })
            .collect()
    }

    fn messages(ch: &mut Channels) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        ch.poll(&mut |ev| {
            if let Event::Message { peer, bytes } = ev {
                assert_eq!(peer, 0);
                out.push(bytes.to_vec());
            }
        });
        out
    }

    #[test]
    fn messages_keep_their_order_and_lose_their_header() {
        let mut ch = pair();
        for i in 0..10u8 {
            assert!(ch[0].try_send(1, &[&[i], &[i, i]]));
        }
        assert!(ch[0].try_send(1, &[&[1], &[2], &[3]]));
        let got = messages(&mut ch[1]);
        assert_eq!(got.len(), 11);
        for (i, m) in got.iter().take(10).enumerate() {
            assert_eq!(m, &[i as u8, i as u8, i as u8]);
        }
        assert_eq!(got[10], vec![1, 2, 3]);
        assert_eq!(ch[1].bad_messages, 0);
    }

    #[test]
    fn transfers_over_the_sge_limit_complete_once() {
        // The origin's rail takes 2 entries per operation; 5 runs are written through the
        // channel, which cuts the list into 3 parts and reports one completion.
        let mut rails = inproc::network(2, 4096);
        rails[0].set_max_sge(2);
        let routes: Vec<Route> = (0..2).map(|r| Route { rail: 0, peer: r }).collect();
        let mut ch: Vec<Channels> = rails
            .into_iter()
            .map(|r| {
                let wait = r.wait_handle();
                Channels::new(vec![AnyRail::Dyn(Box::new(r))], &routes, wait)
            })
            .collect();
        let page = crate::sys::vmem::page_size();
        let mut target = vec![0u8; 3 * page];
        let base = (target.as_mut_ptr() as usize).div_ceil(page) * page;
        let key = ch[1].rails[0]
            .memory()
            .register(PageRange::new(base, base + page), Mode::Odp)
            .unwrap();
        let src: Vec<u8> = (0..100u8).collect();
        let local: Vec<Span> = (0..5)
            .map(|i| Span {
                addr: src.as_ptr() as u64 + 20 * i,
                len: 20,
            })
            .collect();
        let remote = [Span {
            addr: base as u64,
            len: 100,
        }];
        unsafe {
            ch[0]
                .post(&Transfer::new(
                    RdmaOp::Write,
                    1,
                    &local,
                    &remote,
                    &RemoteKeys::all(key.remote),
                    42,
                ))
                .unwrap()
        };
        assert_eq!(ch[0].filter.pending(), 1);
        let mut done = Vec::new();
        ch[0].poll(&mut |ev| {
            if let Event::Completion(c) = ev {
                done.push(c)
            }
        });
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].token, 42);
        assert!(done[0].result.is_ok());
        assert_eq!(ch[0].filter.pending(), 0);
        let got = unsafe { std::slice::from_raw_parts(base as *const u8, 100) };
        assert_eq!(got, &src[..]);
        // A forged key: every part refused, one failed completion, nothing written.
        let fresh = [7u8; 100];
        let local = [Span {
            addr: fresh.as_ptr() as u64,
            len: 100,
        }];
        let remote: Vec<Span> = (0..5)
            .map(|i| Span {
                addr: base as u64 + 20 * i,
                len: 20,
            })
            .collect();
        let forged = RemoteKeys::all(RemoteKey(key.remote.0 ^ 4));
        unsafe {
            ch[0]
                .post(&Transfer::new(
                    RdmaOp::Write,
                    1,
                    &local,
                    &remote,
                    &forged,
                    43,
                ))
                .unwrap()
        };
        let mut done = Vec::new();
        ch[0].poll(&mut |ev| {
            if let Event::Completion(c) = ev {
                done.push(c)
            }
        });
        assert!(matches!(
            done[..],
            [Completion {
                token: 43,
                result: Err(RailError::Key(_))
            }]
        ));
        assert_eq!(got, &src[..], "nothing written");
    }
}
