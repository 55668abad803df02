//! Sequence numbers and the out-of-order queue of one virtual channel (Liu 2004, §5.2):
//! every channel message carries the sender's next number for that peer (as the rail's
//! immediate word, beside the payload); the receiver
//! delivers a message only when its number is the one expected, and keeps those that ran
//! ahead (over another subchannel) until the gap is filled. MPI's non-overtaking rule then
//! rests on this, not on any rail being FIFO.

use std::collections::BTreeMap;

/// The immediate word of a channel's own control messages (never a sequence number: the
/// numbers skip it).
pub const CONTROL: u32 = u32::MAX;

/// The number after `x` (skipping `CONTROL`).
#[inline(always)]
pub fn after(x: u32) -> u32 {
    let n = x.wrapping_add(1);
    if n == CONTROL {
        0
    } else {
        n
    }
}

/// Most messages held back per peer: a sender never runs this far ahead of a gap (a window
/// of messages in flight on several subchannels is far smaller), so more is a forgery.
pub const MAX_HELD: usize = 1 << 16;

/// The receiving side of one virtual channel.
#[derive(Default)]
pub struct Reorder {
    expected: u32,
    held: BTreeMap<u32, Vec<u8>>,
}

/// What to do with an arrival.
#[derive(Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The expected message: deliver it, then `next_held` until it yields nothing.
    InOrder,
    /// Ahead of a gap: kept (copied) until the gap fills.
    Held,
    /// A number already delivered, or absurdly far ahead: dropped.
    Rejected,
}

impl Reorder {
    /// The common case, checked inline: `seq` is the expected number and nothing is held
    /// back (then it is taken, and nothing held can follow it).
    #[inline(always)]
    pub fn take_in_order(&mut self, seq: u32) -> bool {
        if seq == self.expected && self.held.is_empty() {
            self.expected = after(self.expected);
            true
        } else {
            false
        }
    }

    /// Classify a message numbered `seq` (and keep it if it ran ahead).
    #[cold]
    pub fn arrive(&mut self, seq: u32, bytes: &[u8]) -> Arrival {
        if seq == self.expected {
            self.expected = after(self.expected);
            return Arrival::InOrder;
        }
        let ahead = seq.wrapping_sub(self.expected);
        if ahead < (1 << 31) && (ahead as usize) < MAX_HELD && self.held.len() < MAX_HELD {
            if self.held.insert(seq, bytes.to_vec()).is_some() {
                return Arrival::Rejected;
            }
            return Arrival::Held;
        }
        Arrival::Rejected
    }

    /// The held message that is now expected, if any.
    #[inline]
    pub fn next_held(&mut self) -> Option<Vec<u8>> {
        if self.held.is_empty() {
            return None;
        }
        let m = self.held.remove(&self.expected)?;
        self.expected = after(self.expected);
        Some(m)
    }

    /// Messages held back now.
    pub fn held(&self) -> usize {
        self.held.len()
    }

    /// The number expected next.
    pub fn expected(&self) -> u32 {
        self.expected
    }
}

/// The sending side: the next number for one peer.
#[derive(Default)]
pub struct Sequencer {
    next: u32,
}

impl Sequencer {
    /// The number for the message about to go (advanced only once it went: `commit`).
    #[inline]
    pub fn next(&self) -> u32 {
        self.next
    }

    #[inline]
    pub fn commit(&mut self) {
        self.next = after(self.next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deliver `order` (a permutation of 0..n) and return what comes out, in order.
    fn run(order: &[u32], start: u32) -> Vec<u32> {
        let mut r = Reorder {
            expected: start,
            ..Default::default()
        };
        let mut out = Vec::new();
        for &s in order {
            let seq = (0..s).fold(start, |x, _| after(x));
            match r.arrive(seq, &s.to_le_bytes()) {
                Arrival::InOrder => {
                    out.push(s);
                    while let Some(m) = r.next_held() {
                        out.push(u32::from_le_bytes(m.try_into().unwrap()));
                    }
                }
                Arrival::Held => {}
                Arrival::Rejected => panic!("{s} rejected"),
            }
        }
        assert_eq!(r.held(), 0);
        out
    }

    #[test]
    fn any_order_comes_out_in_order() {
        let n = 200u32;
        let identity: Vec<u32> = (0..n).collect();
        // Reversed, interleaved halves, and a pseudo-random permutation; also across the
        // 32-bit wrap.
        let reversed: Vec<u32> = (0..n).rev().collect();
        let halves: Vec<u32> = (0..n / 2).flat_map(|i| [i + n / 2, i]).collect();
        let mut shuffled = identity.clone();
        let mut x = 12345u64;
        for i in (1..shuffled.len()).rev() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            shuffled.swap(i, (x >> 33) as usize % (i + 1));
        }
        for order in [&identity, &reversed, &halves, &shuffled] {
            assert_eq!(run(order, 0), identity);
            assert_eq!(run(order, u32::MAX - 50), identity);
        }
    }

    #[test]
    fn duplicates_and_stale_numbers_are_rejected() {
        let mut r = Reorder::default();
        assert_eq!(r.arrive(0, b"a"), Arrival::InOrder);
        assert_eq!(r.arrive(0, b"a"), Arrival::Rejected, "already delivered");
        assert_eq!(r.arrive(5, b"f"), Arrival::Held);
        assert_eq!(r.arrive(5, b"f"), Arrival::Rejected, "already held");
        assert_eq!(r.arrive(u32::MAX, b"x"), Arrival::Rejected, "behind");
        assert_eq!(r.arrive(1 << 20, b"x"), Arrival::Rejected, "too far ahead");
        assert_eq!(r.next_held(), None);
        assert_eq!(r.arrive(1, b"b"), Arrival::InOrder);
        assert_eq!(r.held(), 1);
    }
}
