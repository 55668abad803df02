//! channel: virtual channels (Liu 2004, §4.2) — one per peer, made of subchannels over the
//! rails that reach it — between the protocol layers (`pt2pt`, `coll` through it) and
//! `fabric`. The layers above address peers by rank and never see a rail.
//!
//! What a channel adds to its rails:
//! - a sequence number on every message and, at the receiver, the expected number and an
//!   out-of-order queue (`reorder.rs`, Liu §5.2), so MPI's non-overtaking order holds
//!   whichever subchannel a message took;
//! - a completion filter (`filter.rs`, Liu §5.3): a transfer cut into parts (more
//!   scatter/gather entries than the rail takes) completes once all parts have.
//!
//! One subchannel per peer today (the rail `fabric::open` chose); the multirail scheduler
//! and striping policies will choose among several here.

pub mod filter;
pub mod reorder;
pub mod service;

use crate::fabric::{
    AtomicOp, Completion, Doorbell, MemoryDomain, Rail, RailCaps, RailError, RailEvent, RdmaOp,
    RemoteKey, Route, Span,
};
use filter::Filter;
use reorder::{Arrival, Reorder, Sequencer};
use std::sync::Arc;

/// What the channels hand up: a message from a rank (in its channel's order), or the
/// completion of a posted transfer (all its parts).
pub enum Event<'a> {
    Message { peer: usize, bytes: &'a [u8] },
    Completion(Completion),
}

/// One path to a peer: rail `rail`, where the peer is `peer`.
#[derive(Clone, Copy, Debug)]
struct Subchannel {
    rail: usize,
    peer: usize,
}

/// Everything about one peer.
struct VirtualChannel {
    sub: Subchannel,
    send: Sequencer,
    recv: Reorder,
}

pub struct Channels {
    rails: Vec<Box<dyn Rail>>,
    vcs: Vec<VirtualChannel>,
    /// `ranks[rail][rail peer]`: the rank a rail's peer index stands for.
    ranks: Vec<Vec<usize>>,
    caps: RailCaps,
    filter: Filter,
    wait: Doorbell,
    /// Messages dropped: too short for a sequence number, duplicated, or far out of order.
    pub bad_messages: u64,
}

impl Channels {
    /// Channels over `rails`, reaching rank `r` as `routes[r]` says.
    pub fn new(rails: Vec<Box<dyn Rail>>, routes: &[Route], wait: Doorbell) -> Self {
        let mut ranks: Vec<Vec<usize>> = rails.iter().map(|r| vec![0; r.peers()]).collect();
        for (rank, route) in routes.iter().enumerate() {
            if let Some(slot) = ranks
                .get_mut(route.rail)
                .and_then(|v| v.get_mut(route.peer))
            {
                *slot = rank;
            }
        }
        // What the layers above may count on: what every rail offers.
        let caps = rails[1..].iter().fold(rails[0].caps().clone(), |mut c, r| {
            let o = r.caps();
            c.max_message = c.max_message.min(o.max_message);
            c.max_inline = c.max_inline.min(o.max_inline);
            c.max_sge = c.max_sge.min(o.max_sge);
            c.rdma_read &= o.rdma_read;
            c.rdma_write &= o.rdma_write;
            c.atomics &= o.atomics;
            c.odp &= o.odp;
            c.mapped &= o.mapped;
            c.bandwidth = c.bandwidth.min(o.bandwidth);
            c.latency_ns = c.latency_ns.max(o.latency_ns);
            c.min_rdma_run = c.min_rdma_run.max(o.min_rdma_run);
            c
        });
        Channels {
            vcs: routes
                .iter()
                .map(|r| VirtualChannel {
                    sub: Subchannel {
                        rail: r.rail,
                        peer: r.peer,
                    },
                    send: Sequencer::default(),
                    recv: Reorder::default(),
                })
                .collect(),
            rails,
            ranks,
            caps,
            filter: Filter::default(),
            wait,
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

    /// The memory domain registrations go through (the rails share one: see
    /// `fabric::open`).
    pub fn memory(&self) -> Arc<dyn MemoryDomain> {
        self.rails[0].memory()
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
        let sent = self.rails[vc.sub.rail].try_send(vc.sub.peer, vc.send.next(), parts);
        if sent {
            vc.send.commit();
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
            ..
        } = self;
        let mut n = 0;
        for (i, rail) in rails.iter_mut().enumerate() {
            let ranks = &ranks[i];
            rail.poll(&mut |ev| match ev {
                RailEvent::Message { peer, imm, bytes } => {
                    let rank = ranks[peer];
                    let vc = &mut vcs[rank];
                    if vc.recv.take_in_order(imm) {
                        sink(Event::Message { peer: rank, bytes });
                        n += 1;
                        return;
                    }
                    match vc.recv.arrive(imm, bytes) {
                        Arrival::InOrder => {
                            sink(Event::Message { peer: rank, bytes });
                            n += 1;
                            while let Some(m) = vc.recv.next_held() {
                                sink(Event::Message {
                                    peer: rank,
                                    bytes: &m,
                                });
                                n += 1;
                            }
                        }
                        Arrival::Held => {}
                        Arrival::Rejected => *bad_messages += 1,
                    }
                }
                RailEvent::Completion(c) => {
                    if let Some(c) = filter.complete(c) {
                        sink(Event::Completion(c));
                        n += 1;
                    }
                }
            });
        }
        n
    }

    /// The job is over for this process: every rail says goodbye (see `Rail::close`).
    pub fn close(&mut self) {
        for r in &mut self.rails {
            r.close();
        }
    }

    /// Whether memory the library allocated in rank `peer` can be mapped here and reached
    /// by loads and stores (the rail to it says so: shm, on one host).
    pub fn maps(&self, peer: usize) -> bool {
        self.vcs
            .get(peer)
            .is_some_and(|vc| self.rails[vc.sub.rail].caps().mapped)
    }

    /// What the rail that reaches rank `peer` can do.
    pub fn rail_caps(&self, peer: usize) -> Option<&RailCaps> {
        self.vcs.get(peer).map(|vc| self.rails[vc.sub.rail].caps())
    }

    /// A 64-bit atomic on the word at `remote` in rank `peer` (see `Rail::post_atomic`);
    /// its completion carries the previous value.
    pub fn post_atomic(
        &mut self,
        peer: usize,
        op: AtomicOp,
        remote: u64,
        rkey: RemoteKey,
        token: u64,
    ) -> Result<(), RailError> {
        debug_assert!(Filter::is_user_token(token));
        let sub = self.vcs.get(peer).ok_or(RailError::NoSuchPeer(peer))?.sub;
        self.rails[sub.rail].post_atomic(sub.peer, op, remote, rkey, token)
    }

    /// Whether completions wait in a rail.
    pub fn has_completions(&self) -> bool {
        self.rails.iter().any(|r| r.has_completions())
    }

    /// An RDMA read or write with rank `peer` (see `Rail::post`); `token` must not have
    /// the top bit set. Cut into parts where the rail takes fewer entries; one completion.
    ///
    /// # Safety
    /// As for `Rail::post`.
    pub unsafe fn post(
        &mut self,
        op: RdmaOp,
        peer: usize,
        local: &[Span],
        remote: &[Span],
        rkey: RemoteKey,
        token: u64,
    ) -> Result<(), RailError> {
        debug_assert!(Filter::is_user_token(token));
        let sub = self.vcs.get(peer).ok_or(RailError::NoSuchPeer(peer))?.sub;
        let rail = &mut self.rails[sub.rail];
        let max = rail.caps().max_sge;
        if local.len() <= max && remote.len() <= max {
            // SAFETY: the caller's contract.
            return unsafe { rail.post(op, sub.peer, local, remote, rkey, token) };
        }
        let parts = filter::cut(local, remote, max);
        let tokens = self.filter.split(token, parts.len());
        let rail = &mut self.rails[sub.rail];
        for ((l, r), t) in parts.iter().zip(tokens) {
            // SAFETY: the caller's contract covers every part of its spans.
            if let Err(e) = unsafe { rail.post(op, sub.peer, l, r, rkey, t) } {
                // Refused at once: it completes (with this error) like a posted part.
                if let Some(c) = self.filter.complete(Completion {
                    token: t,
                    result: Err(e),
                }) {
                    return Err(c.result.expect_err("an error"));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::inproc;
    use crate::fabric::memory::{Mode, PageRange};

    fn pair() -> Vec<Channels> {
        let rails = inproc::network(2, 4096);
        let routes: Vec<Route> = (0..2).map(|r| Route { rail: 0, peer: r }).collect();
        rails
            .into_iter()
            .map(|r| {
                let wait = r.wait_handle();
                Channels::new(vec![Box::new(r)], &routes, wait)
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
                Channels::new(vec![Box::new(r)], &routes, wait)
            })
            .collect();
        let page = crate::sys::vmem::page_size();
        let mut target = vec![0u8; 3 * page];
        let base = (target.as_mut_ptr() as usize).div_ceil(page) * page;
        let key = ch[1]
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
                .post(RdmaOp::Write, 1, &local, &remote, key.remote, 42)
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
        let forged = RemoteKey(key.remote.0 ^ 4);
        unsafe {
            ch[0]
                .post(RdmaOp::Write, 1, &local, &remote, forged, 43)
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
