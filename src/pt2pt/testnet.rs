//! Engines driven against each other in one process, with no rail between them: each
//! engine's `Io` (an `End`) records the actions it asks for — messages, posted reads and
//! writes — and `Net::carry` carries them out: a message goes to the destination engine's
//! `on_packet`, a posted operation is checked against the target's key table (a real
//! registration cache and key table per end) and copied (both "processes" share this
//! address space), and its completion goes back to `on_completion`.

use super::engine::{Io, Pt2pt};
use crate::fabric::inproc::checked_copy;
use crate::fabric::shm::domain::ShmDomain;
use crate::fabric::{
    slot, Completion, Domains, RailError, RdmaOp, RemoteKeys, SlotSet, Span, Transfer,
};
use crate::registration::{Invalidation, Registry};
use crate::registration::{RegPolicy, RegistryConfig};
use std::collections::VecDeque;
use std::sync::Arc;

/// One posted operation, waiting to be carried out.
struct Post {
    op: RdmaOp,
    peer: usize,
    local: Vec<Span>,
    remote: Vec<Span>,
    rkeys: RemoteKeys,
    token: u64,
    notify: Option<u32>,
}

/// One engine's outlet.
pub struct End {
    domain: Arc<ShmDomain>,
    /// Its registrations (keyed in `domain`'s table).
    pub registry: Registry,
    /// Messages in flight, by destination.
    out: Vec<VecDeque<Vec<u8>>>,
    posts: Vec<Post>,
    /// Messages one destination's queue holds (to exercise back-pressure).
    pub depth: usize,
    /// Every posted operation fails as an unreachable peer's would.
    pub fail_rdma: bool,
    /// Bytes this end moved by RDMA read and write (which protocol ran).
    pub read: usize,
    pub written: usize,
    /// Writes may carry a notice (`Transfer::notify`), delivered to the target engine's
    /// `on_notice` once the bytes are copied; without, such a write is refused.
    pub notify: bool,
    /// Notices this end's writes carried, and messages it sent by packet kind.
    pub notices: usize,
    pub kinds: [usize; 16],
}

impl End {
    /// Replace the registration cache (a test that watches its statistics).
    pub fn set_cache(&mut self, cache_max: usize) -> Registry {
        self.registry = registry(&self.domain, cache_max);
        self.registry.clone()
    }
}

fn registry(domain: &Arc<ShmDomain>, cache_max: usize) -> Registry {
    Registry::with_domains(
        RegistryConfig {
            cache_max,
            invalidation: Invalidation::Hooks,
        },
        Domains::one(slot::SHM, domain.clone()),
    )
}

impl Io for End {
    fn send(&mut self, peer: usize, parts: &[&[u8]]) -> bool {
        let q = &mut self.out[peer];
        if q.len() >= self.depth {
            return false;
        }
        let m = parts.concat();
        if let Some(k) = m.first().and_then(|&k| self.kinds.get_mut(k as usize)) {
            *k += 1;
        }
        q.push_back(m);
        true
    }

    unsafe fn post(&mut self, t: &Transfer<'_>) -> Result<(), RailError> {
        if t.peer >= self.out.len() {
            return Err(RailError::NoSuchPeer(t.peer));
        }
        if t.notify.is_some() && (!self.notify || t.op != RdmaOp::Write) {
            return Err(RailError::Unsupported("a notice where none can go"));
        }
        self.posts.push(Post {
            op: t.op,
            peer: t.peer,
            local: t.local.to_vec(),
            remote: t.remote.to_vec(),
            rkeys: *t.rkeys,
            token: t.token,
            notify: t.notify,
        });
        Ok(())
    }

    fn key_slots(&self, _peer: usize) -> SlotSet {
        SlotSet::one(slot::SHM)
    }

    fn registry(&self) -> Option<&Registry> {
        Some(&self.registry)
    }
}

/// `n` ends, one per engine.
pub struct Net {
    pub ends: Vec<End>,
}

impl Net {
    /// `n` ends whose caches keep at most `cache_max` idle bytes.
    pub fn new(n: usize, cache_max: usize) -> Net {
        Net {
            ends: (0..n)
                .map(|_| {
                    let domain = Arc::new(ShmDomain::private());
                    End {
                        registry: registry(&domain, cache_max),
                        domain,
                        out: (0..n).map(|_| VecDeque::new()).collect(),
                        posts: Vec::new(),
                        depth: usize::MAX,
                        fail_rdma: false,
                        read: 0,
                        written: 0,
                        notify: false,
                        notices: 0,
                        kinds: [0; 16],
                    }
                })
                .collect(),
        }
    }

    /// `n` engines with `settings`, registering under ODP (nothing pinned, so the
    /// registration tests' VmLck checks stay exact), messages of at most `max_message`.
    pub fn engines(n: usize, settings: &super::ProtocolSettings, max_message: usize) -> Vec<Pt2pt> {
        (0..n)
            .map(|r| {
                let mut e = Pt2pt::new(r, n, settings.clone(), max_message);
                e.reg_policy = RegPolicy::OdpNative;
                e
            })
            .collect()
    }

    /// Carry out the posted operations (their completions back to the posting engine),
    /// then deliver the messages in flight, in order per pair. Returns how many actions.
    pub fn carry(&mut self, engines: &mut [Pt2pt]) -> usize {
        let mut n = 0;
        let mut notices = Vec::new();
        for (i, eng) in engines.iter_mut().enumerate() {
            for p in std::mem::take(&mut self.ends[i].posts) {
                let res = if self.ends[i].fail_rdma {
                    Err(RailError::Access(std::io::Error::from(
                        std::io::ErrorKind::PermissionDenied,
                    )))
                } else {
                    // SAFETY: the engines' buffers live in this process; the local spans
                    // belong to the posting engine's pending request (its contract).
                    unsafe {
                        checked_copy(
                            p.op,
                            &self.ends[p.peer].domain,
                            &p.local,
                            &p.remote,
                            p.rkeys.get(slot::SHM),
                        )
                    }
                };
                if let Ok(m) = res {
                    let end = &mut self.ends[i];
                    *match p.op {
                        RdmaOp::Write => &mut end.written,
                        RdmaOp::Read => &mut end.read,
                    } += m;
                    if let Some(imm) = p.notify {
                        end.notices += 1;
                        notices.push((p.peer, i, imm));
                    }
                }
                eng.on_completion(Completion {
                    token: p.token,
                    result: res.map(|_| 0),
                });
                n += 1;
            }
        }
        // The notices after the completions: the receiver may learn of a write later than
        // its sender does.
        for (to, from, imm) in notices {
            engines[to].on_notice(from, imm);
            n += 1;
        }
        for i in 0..self.ends.len() {
            for (j, eng) in engines.iter_mut().enumerate() {
                while let Some(m) = self.ends[i].out[j].pop_front() {
                    eng.on_packet(i, &m);
                    n += 1;
                }
            }
        }
        n
    }

    /// One round: every engine's queued output turned into actions, then carried.
    pub fn round(&mut self, engines: &mut [Pt2pt]) -> usize {
        let mut n = 0;
        for (e, io) in engines.iter_mut().zip(&mut self.ends) {
            n += e.flush(io);
            n += e.run_rdma(io);
            n += e.flush(io);
        }
        n + self.carry(engines)
    }

    /// Rounds until nothing moves.
    pub fn settle(&mut self, engines: &mut [Pt2pt]) {
        for _ in 0..10_000 {
            if self.round(engines) == 0 {
                return;
            }
        }
        panic!("no quiescence");
    }
}
