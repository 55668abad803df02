//! The matching engine: posted receives and unexpected messages, matched by
//! (context, source, tag) with wildcards, in MPI's non-overtaking order.
//!
//! Both queues are FIFO and searched front to back, so the first posted receive that fits
//! takes the earliest arrived message that fits, as MPI requires.

use std::collections::VecDeque;

/// What a receive (or probe) asks for; `None` is a wildcard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub ctx: u32,
    pub src: Option<i32>,
    pub tag: Option<i32>,
}

/// What an arriving message carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    pub ctx: u32,
    pub src: i32,
    pub tag: i32,
}

impl Pattern {
    #[inline]
    pub fn matches(&self, e: &Envelope) -> bool {
        self.ctx == e.ctx
            && self.src.is_none_or(|s| s == e.src)
            && self.tag.is_none_or(|t| t == e.tag)
    }
}

/// Posted receives (`R` identifies the request) and unexpected messages (`U` holds them).
pub struct MatchQueues<R, U> {
    posted: VecDeque<(Pattern, R)>,
    unexpected: VecDeque<(Envelope, U)>,
}

impl<R: PartialEq + Copy, U> Default for MatchQueues<R, U> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: PartialEq + Copy, U> MatchQueues<R, U> {
    pub fn new() -> Self {
        Self {
            posted: VecDeque::new(),
            unexpected: VecDeque::new(),
        }
    }

    /// A receive is posted: take the earliest unexpected message it matches, or queue it.
    pub fn post(&mut self, pat: Pattern, req: R) -> Option<(Envelope, U)> {
        if let Some(m) = self.take_unexpected(&pat) {
            return Some(m);
        }
        self.posted.push_back((pat, req));
        None
    }

    /// Remove and return the earliest unexpected message matching `pat` (matched probe).
    pub fn take_unexpected(&mut self, pat: &Pattern) -> Option<(Envelope, U)> {
        take_first(&mut self.unexpected, |(e, _)| pat.matches(e))
    }

    /// A message arrived: the earliest posted receive it matches, removed from the queue.
    pub fn arrive(&mut self, env: &Envelope) -> Option<R> {
        take_first(&mut self.posted, |(p, _)| p.matches(env)).map(|(_, r)| r)
    }

    /// Keep an unmatched arrival for a later receive.
    pub fn push_unexpected(&mut self, env: Envelope, msg: U) {
        self.unexpected.push_back((env, msg));
    }

    /// The earliest unexpected message matching `pat`, left in place (probe).
    pub fn peek_unexpected(&self, pat: &Pattern) -> Option<(&Envelope, &U)> {
        self.unexpected
            .iter()
            .find(|(e, _)| pat.matches(e))
            .map(|(e, u)| (e, u))
    }

    /// Mutable access to queued unexpected messages (to finish partial arrivals).
    pub fn unexpected_mut(&mut self) -> impl Iterator<Item = &mut (Envelope, U)> {
        self.unexpected.iter_mut()
    }

    /// Withdraw a posted receive (MPI_Cancel). False when it was already matched.
    pub fn cancel(&mut self, req: R) -> bool {
        match self.posted.iter().position(|(_, r)| *r == req) {
            Some(i) => {
                self.posted.remove(i);
                true
            }
            None => false,
        }
    }

    pub fn posted_len(&self) -> usize {
        self.posted.len()
    }
    pub fn unexpected_len(&self) -> usize {
        self.unexpected.len()
    }
}

/// Remove and return the first entry that satisfies `hit`. The front is by far the common
/// case (a message matches the oldest receive), so it is tried before the general search:
/// `VecDeque`'s iterator and `remove` pay for their wrap-around arithmetic even there.
#[inline]
fn take_first<T>(q: &mut VecDeque<T>, mut hit: impl FnMut(&T) -> bool) -> Option<T> {
    if hit(q.front()?) {
        return q.pop_front();
    }
    let i = q.iter().position(hit)?;
    q.remove(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(src: i32, tag: i32) -> Envelope {
        Envelope { ctx: 0, src, tag }
    }
    fn pat(src: Option<i32>, tag: Option<i32>) -> Pattern {
        Pattern { ctx: 0, src, tag }
    }

    #[test]
    fn posted_receives_match_in_order_with_wildcards() {
        let mut q: MatchQueues<u32, ()> = MatchQueues::new();
        assert!(q.post(pat(Some(1), Some(5)), 10).is_none());
        assert!(q.post(pat(None, Some(5)), 11).is_none());
        assert!(q.post(pat(None, None), 12).is_none());
        assert_eq!(q.arrive(&env(2, 5)), Some(11));
        assert_eq!(q.arrive(&env(1, 5)), Some(10));
        assert_eq!(q.arrive(&env(1, 9)), Some(12));
        assert_eq!(q.arrive(&env(1, 9)), None);
    }

    #[test]
    fn unexpected_messages_are_not_overtaken() {
        let mut q: MatchQueues<u32, &str> = MatchQueues::new();
        q.push_unexpected(env(1, 7), "first");
        q.push_unexpected(env(2, 7), "other source");
        q.push_unexpected(env(1, 7), "second");
        assert_eq!(q.post(pat(Some(1), Some(7)), 1).unwrap().1, "first");
        assert_eq!(
            q.peek_unexpected(&pat(None, Some(7))).unwrap().1,
            &"other source"
        );
        assert_eq!(q.post(pat(None, None), 2).unwrap().1, "other source");
        assert_eq!(q.post(pat(Some(1), None), 3).unwrap().1, "second");
        assert_eq!(q.unexpected_len(), 0);
    }

    #[test]
    fn contexts_never_cross() {
        let mut q: MatchQueues<u32, ()> = MatchQueues::new();
        q.post(
            Pattern {
                ctx: 2,
                src: None,
                tag: None,
            },
            1,
        );
        assert_eq!(
            q.arrive(&Envelope {
                ctx: 0,
                src: 0,
                tag: 0
            }),
            None
        );
        assert_eq!(
            q.arrive(&Envelope {
                ctx: 2,
                src: 0,
                tag: 0
            }),
            Some(1)
        );
    }

    #[test]
    fn cancel_removes_only_unmatched() {
        let mut q: MatchQueues<u32, ()> = MatchQueues::new();
        q.post(pat(None, None), 1);
        q.post(pat(None, None), 2);
        assert!(q.cancel(1));
        assert!(!q.cancel(1));
        assert_eq!(q.arrive(&env(0, 0)), Some(2));
        assert!(!q.cancel(2));
        assert_eq!(q.posted_len(), 0);
    }
}
