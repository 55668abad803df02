//! The matching engine: posted receives and unexpected messages, matched by
//! (context, source, tag) with wildcards, in MPI's non-overtaking order.
//!
//! Both queues are FIFO and searched front to back, so the first posted receive that fits
//! takes the earliest arrived message that fits, as MPI requires.

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
    posted: Fifo<(Pattern, R)>,
    unexpected: Fifo<(Envelope, U)>,
}

impl<R: PartialEq + Copy, U> Default for MatchQueues<R, U> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: PartialEq + Copy, U> MatchQueues<R, U> {
    pub fn new() -> Self {
        Self {
            posted: Fifo::default(),
            unexpected: Fifo::default(),
        }
    }

    /// A receive is posted: take the earliest unexpected message it matches, or queue it.
    /// Inlined: a pattern passed through memory is read back with wider loads than it was
    /// written with, a store-forwarding stall on every posted receive.
    #[inline(always)]
    pub fn post(&mut self, pat: Pattern, req: R) -> Option<(Envelope, U)> {
        if !self.unexpected.is_empty() {
            if let Some(m) = self.take_unexpected(&pat) {
                return Some(m);
            }
        }
        self.posted.push_back((pat, req));
        None
    }

    /// Whether any unexpected message waits.
    #[inline(always)]
    pub fn has_unexpected(&self) -> bool {
        !self.unexpected.is_empty()
    }

    /// Queue a posted receive that matched no unexpected message (see `post`).
    #[inline(always)]
    pub fn push_posted(&mut self, pat: Pattern, req: R) {
        self.posted.push_back((pat, req));
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

/// A FIFO queue: a vector with a moving front. Unlike `VecDeque`, whose `push_back` is
/// not inlined and so takes the entry through memory (read back with wider loads than it
/// was written with, a store-forwarding stall on every posted receive), a push here is
/// `Vec::push`, inlined. The consumed front is dropped when it outgrows the live part.
struct Fifo<T> {
    items: Vec<T>,
    head: usize,
}

impl<T> Default for Fifo<T> {
    fn default() -> Self {
        Fifo {
            items: Vec::new(),
            head: 0,
        }
    }
}

impl<T> Fifo<T> {
    #[inline(always)]
    fn push_back(&mut self, t: T) {
        self.items.push(t);
    }

    fn len(&self) -> usize {
        self.items.len() - self.head
    }

    fn is_empty(&self) -> bool {
        self.head == self.items.len()
    }

    fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items[self.head..].iter()
    }

    fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.items[self.head..].iter_mut()
    }

    /// Remove the entry at position `i` (from the front). The front, by far the common
    /// case, inline; the rest out of line.
    #[inline(always)]
    fn remove(&mut self, i: usize) -> T {
        if i > 0 {
            return self.remove_inner(i);
        }
        let at = self.head;
        // SAFETY: `at` < len (i < self.len()); the slot is read once and then counted as
        // consumed (below `head`), never read or dropped again: the prefix below `head`
        // is logically uninitialised, which `compact` and `Drop` respect.
        let t = unsafe { std::ptr::read(&self.items[at]) };
        self.head += 1;
        if self.head == self.items.len() {
            // SAFETY: every entry is consumed; none may be dropped again.
            unsafe { self.items.set_len(0) };
            self.head = 0;
        } else if self.head >= 32 && self.head * 2 >= self.items.len() {
            self.compact();
        }
        t
    }

    /// Remove the entry at position `i` > 0.
    #[inline(never)]
    fn remove_inner(&mut self, i: usize) -> T {
        self.items.remove(self.head + i)
    }

    /// Move the live entries to the start of the vector.
    #[inline(never)]
    fn compact(&mut self) {
        let live = self.len();
        // SAFETY: [head, len) are the live entries, moved (not copied) down to [0, live);
        // the consumed prefix holds nothing to drop; set_len(live) then covers exactly
        // the moved entries.
        unsafe {
            let base = self.items.as_mut_ptr();
            std::ptr::copy(base.add(self.head), base, live);
            self.items.set_len(live);
        }
        self.head = 0;
    }
}

impl<T> Drop for Fifo<T> {
    fn drop(&mut self) {
        // The consumed prefix was moved out already: drop only the live entries.
        self.compact();
    }
}

/// Remove and return the first entry that satisfies `hit`. The front is by far the common
/// case (a message matches the oldest receive), so it is tried before the general search.
#[inline]
fn take_first<T>(q: &mut Fifo<T>, mut hit: impl FnMut(&T) -> bool) -> Option<T> {
    let i = q.iter().position(&mut hit)?;
    Some(q.remove(i))
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
    fn fifo_keeps_order_and_drops_each_entry_once() {
        use std::rc::Rc;
        let token = Rc::new(());
        let mut q: Fifo<(u32, Rc<()>)> = Fifo::default();
        let mut model: std::collections::VecDeque<u32> = Default::default();
        let mut next = 0u32;
        // Pushes, front removals (through the compaction threshold) and middle removals.
        for round in 0..400u32 {
            for _ in 0..3 {
                q.push_back((next, token.clone()));
                model.push_back(next);
                next += 1;
            }
            let i = if round % 5 == 0 { model.len() / 2 } else { 0 };
            assert_eq!(q.remove(i).0, model.remove(i).unwrap());
            if round % 2 == 0 {
                assert_eq!(q.remove(0).0, model.pop_front().unwrap());
            }
            assert!(q.iter().map(|e| e.0).eq(model.iter().copied()));
            assert_eq!(Rc::strong_count(&token), 1 + model.len());
        }
        while !q.is_empty() {
            assert_eq!(q.remove(0).0, model.pop_front().unwrap());
        }
        assert_eq!(Rc::strong_count(&token), 1);
        q.push_back((1, token.clone()));
        q.push_back((2, token.clone()));
        q.remove(0);
        drop(q);
        assert_eq!(
            Rc::strong_count(&token),
            1,
            "a dropped queue drops its live entries"
        );
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
