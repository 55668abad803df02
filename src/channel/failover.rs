//! When a link fails (Liu 2004 leaves it to the scheduler; a network rail reports it as
//! `RailEvent::Lost`): the subchannel is dropped from the scheduler, transfers posted on it
//! go again over a live one, and the peer learns which message we expect next (a resync
//! control message) so that it sends again what it logged from there; its copies of what we
//! already have are dropped by our sequence numbers. The job ends only when a peer's last
//! subchannel fails.

use super::reorder::CONTROL;
use super::{Channels, Event, PostRecord};
use crate::fabric::{Completion, Transfer};
use std::collections::VecDeque;

/// What the message log keeps per peer at most: more than a failed connection can have
/// had in flight (Linux grows a socket's send buffer to 4 MiB and the peer's receive
/// buffer to 6 MiB by default; the rail's outbox holds at most 8 MiB more).
const LOG_BYTES: usize = 24 << 20;
const LOG_MESSAGES: usize = 1 << 16;

/// The last messages sent over one subchannel of a peer with several: (sequence number,
/// bytes). One log per subchannel, so that what a silent link holds stays while the others
/// carry on: a shared log was trimmed by the live links' traffic during the watchdog's wait
/// and lost the silent link's messages before they could go again.
#[derive(Default)]
pub(super) struct MessageLog {
    msgs: VecDeque<(u32, Vec<u8>)>,
    bytes: usize,
    /// The number of the last message trimmed away (None: none yet).
    dropped: Option<u32>,
}

/// Whether sequence number `seq` comes before `expected` (numbers wrap).
fn behind(seq: u32, expected: u32) -> bool {
    seq.wrapping_sub(expected) >= (1 << 31)
}

impl MessageLog {
    pub fn push(&mut self, seq: u32, parts: &[&[u8]]) {
        let m = parts.concat();
        self.bytes += m.len();
        self.msgs.push_back((seq, m));
        while self.bytes > LOG_BYTES || self.msgs.len() > LOG_MESSAGES {
            match self.msgs.pop_front() {
                Some((seq, b)) => {
                    self.bytes -= b.len();
                    self.dropped = Some(seq);
                }
                None => break,
            }
        }
    }

    /// The logged messages from number `expected` on; None when one of them may have been
    /// trimmed away (the last trimmed is not before `expected`).
    pub fn since(&self, expected: u32) -> Option<impl Iterator<Item = (u32, &[u8])>> {
        if self.dropped.is_some_and(|d| !behind(d, expected)) {
            return None;
        }
        Some(
            self.msgs
                .iter()
                .filter(move |(seq, _)| !behind(*seq, expected))
                .map(|(seq, b)| (*seq, &b[..])),
        )
    }
}

/// A channel control message (imm `CONTROL`): "my subchannel `sub` to you failed; the
/// next message I expect from you is `expected`". 4 magic bytes, then both as u32 LE.
const RESYNC: &[u8; 4] = b"RSYN";

fn resync_message(sub: usize, expected: u32) -> [u8; 12] {
    let mut m = [0u8; 12];
    m[..4].copy_from_slice(RESYNC);
    m[4..8].copy_from_slice(&(sub as u32).to_le_bytes());
    m[8..].copy_from_slice(&expected.to_le_bytes());
    m
}

/// A resync message's (subchannel, expected), if `b` is one.
fn parse_resync(b: &[u8]) -> Option<(usize, u32)> {
    if b.len() != 12 || &b[..4] != RESYNC {
        return None;
    }
    let sub = u32::from_le_bytes(b[4..8].try_into().ok()?) as usize;
    let expected = u32::from_le_bytes(b[8..12].try_into().ok()?);
    Some((sub, expected))
}

impl Channels {
    /// Links that failed, transfers that failed with them, and peers' resync messages:
    /// carry on over the live subchannels, or end the job when a peer has none left. Then
    /// whatever control and logged messages still wait for room.
    #[cold]
    pub(super) fn recover<F: FnMut(Event<'_>)>(
        &mut self,
        lost: Vec<(usize, usize, String, bool)>,
        retries: Vec<(u64, PostRecord)>,
        controls: Vec<(usize, usize, Vec<u8>)>,
        sink: &mut F,
        n: &mut usize,
    ) {
        for (rail, rank, why, unreachable) in lost {
            if let Some(sub) = self.vcs[rank].subs.iter().position(|s| s.rail == rail) {
                self.subchannel_failed(rank, sub, &why, unreachable);
            }
        }
        for (rank, rail, bytes) in controls {
            let Some((sub, expected)) = parse_resync(&bytes) else {
                self.bad_messages += 1;
                continue;
            };
            if sub >= self.vcs[rank].subs.len() {
                self.bad_messages += 1;
                continue;
            }
            tracing::debug!("rank {rank} resyncs over rail {rail}: subchannel {sub} failed");
            if self.vcs[rank].sched.is_alive(sub) {
                self.subchannel_failed(rank, sub, "the peer saw it fail", false);
            }
            self.resend(rank, expected);
        }
        for (token, mut rec) in retries {
            let vc = &mut self.vcs[rec.peer];
            if vc.sched.live() == 0 {
                continue;
            }
            rec.sub = vc.sched.pick(&self.settings.policy);
            // A stripe sent again tells nothing about its new subchannel's rate.
            rec.timing = None;
            let s = vc.subs[rec.sub];
            // SAFETY: the transfer's memory stays valid until its completion goes up, which
            // has not happened (the failed attempt's completion was held back).
            let r = unsafe {
                self.rails[s.rail].post(&Transfer {
                    op: rec.op,
                    peer: s.peer,
                    local: &rec.local,
                    lkeys: rec.lkeys.as_ref(),
                    remote: &rec.remote,
                    rkeys: &rec.rkeys,
                    token,
                    notify: None,
                    defer: false,
                })
            };
            match r {
                Ok(()) => {
                    self.posts.insert(token, rec);
                }
                Err(e) => {
                    if let Some(c) = self.filter.complete(Completion {
                        token,
                        result: Err(e),
                    }) {
                        self.finished.remove(&c.token);
                        sink(Event::Completion(c));
                        *n += 1;
                    }
                }
            }
        }
        self.send_resyncs();
        self.send_resends();
    }

    /// Subchannel `sub` to `rank` failed: schedule nothing more on it, tell the peer (and
    /// what we expect next from it), or end the job if it was the last.
    /// `unreachable`: the link stopped answering (else its connection closed).
    fn subchannel_failed(&mut self, rank: usize, sub: usize, why: &str, unreachable: bool) {
        let vc = &mut self.vcs[rank];
        if !vc.sched.is_alive(sub) {
            return;
        }
        let rail = vc.subs[sub].rail;
        let left = vc.sched.kill(sub);
        if left == 0 {
            // Honest about which: a silent link (the peer may live) or a closed connection.
            let name = self.rails[rail].caps().name;
            if unreachable {
                crate::fabric::fatal(&format!(
                    "rank {rank} is unreachable: the last rail to it ({rail}, {name}) failed: {why}"
                ));
            }
            crate::fabric::fatal_after_death(&format!(
                "rank {rank} is gone (it died or left without MPI_Finalize): the last rail to \
                 it ({rail}, {name}) failed: {why}"
            ));
        }
        tracing::warn!(
            "rail {rail} ({}) to rank {rank} failed ({why}); carrying on over {left} other(s)",
            self.rails[rail].caps().name
        );
        if left == 1 {
            // No failover is left: the survivor rides out outages as a single link does.
            let s = vc.subs[vc.sched.first_alive()];
            self.rails[s.rail].last_link(s.peer);
        }
        self.resyncs_due.push((rank, sub));
        self.send_resyncs();
    }

    /// Send the resync messages that wait (over a live subchannel each).
    fn send_resyncs(&mut self) {
        let due = std::mem::take(&mut self.resyncs_due);
        for (rank, sub) in due {
            let vc = &self.vcs[rank];
            let live = vc.subs[vc.sched.first_alive()];
            let m = resync_message(sub, vc.recv.expected());
            if !self.rails[live.rail].try_send(live.peer, CONTROL, &[&m]) {
                self.resyncs_due.push((rank, sub));
            }
        }
    }

    /// The peer expects message `expected` next: send again every message from it on that
    /// went over a failed subchannel (live ones deliver theirs; the peer drops copies of
    /// what it has).
    fn resend(&mut self, rank: usize, expected: u32) {
        let vc = &self.vcs[rank];
        let mut again = Vec::new();
        for (i, log) in vc.logs.iter().enumerate() {
            if vc.sched.is_alive(i) {
                continue;
            }
            let Some(msgs) = log.since(expected) else {
                crate::fabric::fatal(&format!(
                    "rank {rank} lost messages with a failed link that this rank no longer \
                     holds (it expects number {expected})"
                ));
            };
            again.extend(msgs.map(|(seq, bytes)| (rank, seq, bytes.to_vec())));
        }
        // In their order, whichever link each went over.
        again.sort_by_key(|&(_, seq, _)| seq.wrapping_sub(expected));
        self.resends_due.extend(again);
        self.send_resends();
    }

    /// Send the logged messages that wait to go again (over live subchannels).
    fn send_resends(&mut self) {
        while let Some((rank, seq, bytes)) = self.resends_due.pop_front() {
            let vc = &mut self.vcs[rank];
            let s = vc.subs[vc.sched.pick(&self.settings.policy)];
            if !self.rails[s.rail].try_send(s.peer, seq, &[&bytes]) {
                // No room now: the next poll tries again.
                self.resends_due.push_front((rank, seq, bytes));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_gives_back_what_the_peer_misses_or_nothing() {
        let mut log = MessageLog::default();
        for seq in 0..10u32 {
            log.push(seq, &[&[seq as u8], &[0xee]]);
        }
        let again: Vec<u32> = log.since(7).unwrap().map(|m| m.0).collect();
        assert_eq!(again, [7, 8, 9]);
        assert_eq!(log.since(3).unwrap().next().unwrap().1, &[3, 0xee]);
        assert_eq!(log.since(10).unwrap().count(), 0);
        // Trimmed: the oldest go first; asking for one of them is refused.
        for seq in 10..10 + LOG_MESSAGES as u32 {
            log.push(seq, &[&[1]]);
        }
        assert!(log.since(5).is_none());
        assert!(log.since(9).is_none());
        assert_eq!(log.since(LOG_MESSAGES as u32).unwrap().count(), 10);
    }

    #[test]
    fn a_subchannel_log_with_gaps_gives_back_its_own_messages() {
        // Every third message went over this subchannel; the peer expects 4 (sent over
        // another): what this one holds from 4 on goes again, numbers wrapping included.
        let mut log = MessageLog::default();
        let base = u32::MAX - 5;
        for k in 0..6u32 {
            log.push(base.wrapping_add(3 * k), &[&[k as u8]]);
        }
        let again: Vec<u32> = log
            .since(base.wrapping_add(4))
            .unwrap()
            .map(|m| m.0)
            .collect();
        assert_eq!(again, [0, 3, 6, 9]);
        // One this subchannel trimmed away is refused.
        for k in 6..6 + LOG_MESSAGES as u32 {
            log.push(base.wrapping_add(3 * k), &[&[1]]);
        }
        assert!(log.since(base.wrapping_add(4)).is_none());
    }

    #[test]
    fn resync_messages_round_trip_and_others_are_refused() {
        assert_eq!(parse_resync(&resync_message(3, 77)), Some((3, 77)));
        assert_eq!(parse_resync(b"RSYN\0\0\0"), None);
        assert_eq!(parse_resync(&[0u8; 12]), None);
    }
}
