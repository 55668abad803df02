//! The verbs rail's service queue (`fabric::Service`): "a second queue pair on the same
//! port" — a second rail on the same port whose context shares the first one's protection
//! domain, so the keys of registrations made through the rail's domain serve its transfers
//! in both directions. Requests are messages to the peer's service rail; its service thread
//! (the RMA helper) polls that rail itself — while the rank computes, its completion channel
//! wakes the helper — carries them out, moving the origin's operands with RDMA reads and
//! writes on the same connection, and answers with a `served` message.
//!
//! Any thread may use the queue: the rail is behind a lock; a thread that only looks
//! (`served`, `pending`) takes it if it is free and polls.

use super::domain::{rkey_of, VerbsDomain};
use super::VerbsRail;
use crate::fabric::service::{Server, ANSWER, REQUEST};
use crate::fabric::{AtomicOp, Completion, KeyError};
use crate::fabric::{Doorbell, Rail, RailError, RailEvent, Service, Transfer};
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Message kinds (the immediate word).
const IMM_REQUEST: u32 = 1;
/// The ticket served, and the request's answer (`ANSWER` bytes) where it has one.
const IMM_SERVED: u32 = 2;
/// A 64-bit atomic for an adapter without them (siw): token, address, rkey, kind,
/// operands; applied by whichever thread of the target polls its service rail, after the
/// key check the adapter would have made.
const IMM_ATOMIC: u32 = 3;
/// Its answer: token, the word's old value, status (0 done, 1 refused).
const IMM_ATOMIC_DONE: u32 = 4;
const ATOMIC_BYTES: usize = 48;
const ATOMIC_FETCH_ADD: u64 = 1;
const ATOMIC_CMP_SWAP: u64 = 2;

pub struct VerbsService {
    rail: Mutex<VerbsRail>,
    /// Per peer: the last ticket issued, and the last it served.
    issued: Vec<AtomicU64>,
    served: Vec<AtomicU64>,
    /// Requests that arrived: (peer, ticket, bytes).
    requests: Mutex<VecDeque<(usize, u64, Vec<u8>)>>,
    waiting: AtomicUsize,
    /// Answers that came with served marks, by (peer, ticket), until their origin takes
    /// them (`answer`).
    answers: Mutex<FxHashMap<(usize, u64), [u8; ANSWER]>>,
    /// Finished transfers of `access` by token.
    done: Mutex<FxHashMap<u64, Result<u64, RailError>>>,
    next_token: AtomicU64,
    bell: Doorbell,
    /// The data rail's domain, whose regions atomics from peers name.
    domain: Arc<VerbsDomain>,
    /// Answers to our atomics, for the data rail's poll.
    atomics_done: Mutex<VecDeque<Completion>>,
    atomics_ready: AtomicUsize,
    /// Our atomics whose answers were not taken yet (`owes`).
    atomics_owed: AtomicUsize,
    /// Messages taken off the rail (`Service::activity`): requests only where the rail has
    /// solicited events.
    activity: AtomicU64,
    /// Answers to peers' atomics not sent yet (no room).
    unsent: Mutex<VecDeque<(usize, [u8; 24])>>,
}

impl VerbsService {
    /// Over `rail`, a rail of its own on the same port as the data rail whose keys it
    /// serves (its context shares that rail's protection domain); `bell` is what the
    /// service thread sleeps on.
    pub fn new(mut rail: VerbsRail, bell: Doorbell, domain: Arc<VerbsDomain>) -> VerbsService {
        // What a sleeping thread waits for: requests wake the helper, atomics' answers a
        // rank that owes them (`VerbsRail::arm`); served marks are polled for.
        rail.set_solicited(1 << IMM_REQUEST | 1 << IMM_ATOMIC | 1 << IMM_ATOMIC_DONE);
        let n = rail.peers();
        VerbsService {
            rail: Mutex::new(rail),
            issued: (0..n).map(|_| AtomicU64::new(0)).collect(),
            served: (0..n).map(|_| AtomicU64::new(0)).collect(),
            requests: Mutex::new(VecDeque::new()),
            waiting: AtomicUsize::new(0),
            answers: Mutex::new(FxHashMap::default()),
            done: Mutex::new(FxHashMap::default()),
            next_token: AtomicU64::new(1),
            bell,
            domain,
            atomics_done: Mutex::new(VecDeque::new()),
            atomics_ready: AtomicUsize::new(0),
            atomics_owed: AtomicUsize::new(0),
            activity: AtomicU64::new(0),
            unsent: Mutex::new(VecDeque::new()),
        }
    }

    /// A 64-bit atomic on `peer`'s word at `remote` (in its region keyed `rkey`), carried
    /// out by the peer in software; its completion comes out of `take_atomics`.
    pub fn request_atomic(
        &self,
        peer: usize,
        op: AtomicOp,
        remote: u64,
        rkey: crate::fabric::RemoteKey,
        token: u64,
    ) -> Result<(), RailError> {
        let key = rkey_of(rkey).ok_or(RailError::Key(KeyError::Unknown))?;
        let (kind, a, b) = match op {
            AtomicOp::FetchAdd(v) => (ATOMIC_FETCH_ADD, v, 0),
            AtomicOp::CompareSwap { compare, swap } => (ATOMIC_CMP_SWAP, compare, swap),
        };
        let mut m = [0u8; ATOMIC_BYTES];
        for (i, w) in [token, remote, key as u64, kind, a, b]
            .into_iter()
            .enumerate()
        {
            m[i * 8..i * 8 + 8].copy_from_slice(&w.to_le_bytes());
        }
        self.atomics_owed.fetch_add(1, Ordering::AcqRel);
        self.send(peer, IMM_ATOMIC, &[&m]);
        Ok(())
    }

    /// Answers to our atomics that arrived (polling the rail first if it is free).
    pub fn take_atomics(&self, out: &mut dyn FnMut(Completion)) -> usize {
        self.pump();
        if self.atomics_ready.load(Ordering::Acquire) == 0 {
            return 0;
        }
        let done: Vec<Completion> = self.atomics_done.lock().drain(..).collect();
        self.atomics_ready.fetch_sub(done.len(), Ordering::AcqRel);
        self.atomics_owed.fetch_sub(done.len(), Ordering::AcqRel);
        let n = done.len();
        done.into_iter().for_each(out);
        n
    }

    /// Whether an atomic of ours still waits for its answer.
    pub fn owes(&self) -> bool {
        self.atomics_owed.load(Ordering::Acquire) > 0
    }

    pub fn atomics_waiting(&self) -> bool {
        self.atomics_ready.load(Ordering::Acquire) > 0
    }

    /// Apply a peer's atomic to our memory: the answer's bytes.
    fn apply_atomic(&self, m: &[u8]) -> [u8; 24] {
        let w = |i: usize| u64::from_le_bytes(m[i * 8..i * 8 + 8].try_into().unwrap());
        let (token, addr, key, kind, a, b) = (w(0), w(1), w(2), w(3), w(4), w(5));
        let mut answer = [0u8; 24];
        answer[..8].copy_from_slice(&token.to_le_bytes());
        let word = u32::try_from(key)
            .ok()
            .and_then(|k| self.domain.atomic_word(k, addr));
        let old = match (word, kind) {
            (Some(p), ATOMIC_FETCH_ADD) => {
                // SAFETY: `p` is an 8-byte aligned word inside a live region of ours whose
                // key the peer named (checked by `atomic_word`): memory this process
                // registered for remote atomics, valid while registered; every software
                // atomic on it is applied here, as an atomic.
                Some(unsafe { &*(p as *const AtomicU64) }.fetch_add(a, Ordering::AcqRel))
            }
            (Some(p), ATOMIC_CMP_SWAP) => {
                // SAFETY: as above.
                let word = unsafe { &*(p as *const AtomicU64) };
                Some(
                    match word.compare_exchange(a, b, Ordering::AcqRel, Ordering::Acquire) {
                        Ok(v) | Err(v) => v,
                    },
                )
            }
            _ => None,
        };
        match old {
            Some(v) => answer[8..16].copy_from_slice(&v.to_le_bytes()),
            None => answer[16..24].copy_from_slice(&1u64.to_le_bytes()),
        }
        answer
    }

    /// Hand what the rail has to the queues (`rail` held).
    fn poll_locked(&self, rail: &mut VerbsRail) {
        let mut arrived = Vec::new();
        let mut finished = Vec::new();
        let mut atomics: Vec<(usize, [u8; 24])> = Vec::new();
        let mut answers = Vec::new();
        let taken = rail.poll(&mut |ev| match ev {
            RailEvent::Message { peer, imm, bytes }
                if imm == IMM_ATOMIC && bytes.len() == ATOMIC_BYTES =>
            {
                atomics.push((peer, self.apply_atomic(bytes)))
            }
            RailEvent::Message { imm, bytes, .. }
                if imm == IMM_ATOMIC_DONE && bytes.len() == 24 =>
            {
                let w = |i: usize| u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().unwrap());
                answers.push(Completion {
                    token: w(0),
                    result: if w(2) == 0 {
                        Ok(w(1))
                    } else {
                        Err(RailError::Key(KeyError::Unknown))
                    },
                });
            }
            RailEvent::Message { peer, imm, bytes } if bytes.len() >= 8 => {
                let ticket = u64::from_le_bytes(bytes[..8].try_into().unwrap());
                match imm {
                    IMM_REQUEST if bytes.len() <= 8 + REQUEST => {
                        arrived.push((peer, ticket, bytes[8..].to_vec()))
                    }
                    IMM_SERVED if bytes.len() == 8 || bytes.len() == 8 + ANSWER => {
                        if let Some(s) = self.served.get(peer) {
                            // Only for a ticket we issued and not yet marked served: a
                            // peer cannot make us hold answers nobody will take.
                            let issued = self.issued[peer].load(Ordering::Acquire);
                            if bytes.len() > 8
                                && ticket <= issued
                                && ticket > s.load(Ordering::Acquire)
                            {
                                let a: [u8; ANSWER] = bytes[8..].try_into().unwrap();
                                self.answers.lock().insert((peer, ticket), a);
                            }
                            // After the answer: whoever sees the mark finds it.
                            s.fetch_max(ticket, Ordering::AcqRel);
                        }
                    }
                    _ => tracing::warn!(peer, imm, "verbs service: a malformed message"),
                }
            }
            RailEvent::Message { peer, .. } => {
                tracing::warn!(peer, "verbs service: a short message")
            }
            RailEvent::Completion(c) => finished.push((c.token, c.result)),
            // Nothing posted to a service rail asks for a notice.
            RailEvent::Notified { peer, .. } => {
                tracing::warn!(peer, "verbs service: an unexpected write notice")
            }
            // A service rail is a peer's only service way: losing it ends the job there.
            RailEvent::Lost { why, .. } => crate::fabric::fatal(&why),
        });
        // Where served marks raise no event (solicited), they are no work for the helper
        // either: it need not nap for them, and sleeps through them (the origin's helper
        // napped 1,000 times a second through a fetch-and-op loop).
        let work = if rail.solicited_events() {
            arrived.len() + atomics.len()
        } else {
            taken
        };
        if work > 0 {
            self.activity.fetch_add(work as u64, Ordering::Relaxed);
        }
        if !finished.is_empty() {
            self.done.lock().extend(finished);
        }
        if !answers.is_empty() {
            let n = answers.len();
            self.atomics_done.lock().extend(answers);
            self.atomics_ready.fetch_add(n, Ordering::AcqRel);
            // The rank may have gone to sleep after its last look (its rail's `arm`).
            if let Some(b) = rail.also_wake {
                b.ring();
            }
        }
        // Answers go out in order; those without room wait for the next poll.
        let mut unsent = self.unsent.lock();
        unsent.extend(atomics);
        while let Some((peer, answer)) = unsent.front() {
            if !rail.try_send(*peer, IMM_ATOMIC_DONE, &[answer]) {
                break;
            }
            unsent.pop_front();
        }
        if !arrived.is_empty() {
            let n = arrived.len();
            self.requests.lock().extend(arrived);
            self.waiting.fetch_add(n, Ordering::AcqRel);
            self.bell.ring();
        }
    }

    /// Poll the rail if no other thread is at it.
    fn pump(&self) {
        if let Some(mut rail) = self.rail.try_lock() {
            self.poll_locked(&mut rail);
        }
    }

    /// Send a message, making progress until there is room (the rail ends the job if the
    /// peer is lost).
    fn send(&self, peer: usize, imm: u32, parts: &[&[u8]]) {
        loop {
            let mut rail = self.rail.lock();
            if rail.try_send(peer, imm, parts) {
                return;
            }
            self.poll_locked(&mut rail);
            drop(rail);
            std::thread::yield_now();
        }
    }
}

impl Service for VerbsService {
    fn try_request(&self, peer: usize, req: &[u8]) -> Option<u64> {
        if peer >= self.issued.len() || req.len() > REQUEST {
            return None;
        }
        let mut rail = self.rail.lock();
        // Tickets are taken under the rail's lock, so they go out in order.
        let ticket = self.issued[peer].load(Ordering::Relaxed) + 1;
        if !rail.try_send(peer, IMM_REQUEST, &[&ticket.to_le_bytes(), req]) {
            self.poll_locked(&mut rail);
            return None;
        }
        self.issued[peer].store(ticket, Ordering::Relaxed);
        Some(ticket)
    }

    fn served(&self, peer: usize, ticket: u64) -> bool {
        let Some(s) = self.served.get(peer) else {
            return false;
        };
        if s.load(Ordering::Acquire) >= ticket {
            return true;
        }
        self.pump();
        s.load(Ordering::Acquire) >= ticket
    }

    fn serve(&self, f: &mut Server<'_>) -> usize {
        self.pump();
        let mut n = 0;
        loop {
            let Some((peer, ticket, mut req)) = self.requests.lock().pop_front() else {
                return n;
            };
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            req.resize(REQUEST, 0);
            match f(peer, &req) {
                Some(a) => self.send(peer, IMM_SERVED, &[&ticket.to_le_bytes(), &a]),
                None => self.send(peer, IMM_SERVED, &[&ticket.to_le_bytes()]),
            }
            n += 1;
        }
    }

    fn pending(&self) -> bool {
        if self.waiting.load(Ordering::Acquire) > 0 {
            return true;
        }
        self.pump();
        self.waiting.load(Ordering::Acquire) > 0
    }

    fn wait_handle(&self) -> Doorbell {
        self.bell
    }

    fn answers(&self) -> bool {
        true
    }

    fn activity(&self) -> u64 {
        self.activity.load(Ordering::Relaxed)
    }

    fn arm(&self) {
        let mut rail = self.rail.lock();
        // Answers that wait for room go when a send completes: then every completion.
        rail.arm_quiet(!self.unsent.lock().is_empty());
        // What came before the arming raises no event: taken now.
        self.poll_locked(&mut rail);
    }

    fn leaving(&self) {
        // The helper is never stopped (nor this rail closed: the process's exit closes
        // it), so a peer that exits first disconnects a connection that may still hold
        // delivered but unretired messages: taken back, they would dial the peer, find
        // its listener gone and end the job at its finalize (siw, rma_ops at 3 ranks: 2
        // of 30 runs; 0 of 40 since).
        self.rail.lock().leaving();
    }

    fn answer(&self, peer: usize, ticket: u64) -> Option<[u8; ANSWER]> {
        self.answers.lock().remove(&(peer, ticket))
    }

    unsafe fn access(&self, t: &Transfer<'_>) -> Result<(), RailError> {
        let token = self.next_token.fetch_add(1, Ordering::Relaxed);
        {
            let mut rail = self.rail.lock();
            // SAFETY: the caller's contract; we wait for the completion below, so the
            // local spans stay valid throughout.
            unsafe { rail.post(&Transfer { token, ..*t })? };
        }
        let start = Instant::now();
        loop {
            if let Some(r) = self.done.lock().remove(&token) {
                return r.map(|_| ());
            }
            {
                let mut rail = self.rail.lock();
                self.poll_locked(&mut rail);
            }
            // A transfer takes microseconds to milliseconds: yield first, then nap.
            if start.elapsed() < Duration::from_millis(2) {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(50));
            }
        }
    }
}
