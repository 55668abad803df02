//! The registrations in force, as a page-aligned interval map: `BTreeMap` keyed by
//! (start, id), so entries may overlap (an in-use registration is never merged away), plus
//! an LRU index of the idle ones (held only by the cache). Pure bookkeeping: no syscalls.

use super::{Keys, Mode, PageRange};
use std::collections::BTreeMap;

/// Names one entry: (start address, unique id).
pub(crate) type Key = (usize, u64);

#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub range: PageRange,
    /// The mode asked for.
    pub mode: Mode,
    /// Whether its pages are pinned (false for ODP and for a pin that fell back).
    pub pinned: bool,
    /// Whether the kernel tells us when its memory goes away (userfaultfd).
    pub watched: bool,
    /// The domains' keys.
    pub key: Keys,
    /// Registration handles holding it; 0 = idle, kept only by the cache.
    pub refs: u32,
    tick: u64,
}

impl Entry {
    pub fn new(range: PageRange, mode: Mode, pinned: bool, watched: bool, key: Keys) -> Entry {
        Entry {
            range,
            mode,
            pinned,
            watched,
            key,
            refs: 1,
            tick: 0,
        }
    }
}

#[derive(Default)]
pub(crate) struct IntervalMap {
    entries: BTreeMap<Key, Entry>,
    /// Idle entries by the time they became idle: the first is the least recently used.
    lru: BTreeMap<u64, Key>,
    /// The longest entry ever: bounds how far left of a range an intersecting entry starts.
    max_len: usize,
    next_id: u64,
    next_tick: u64,
    /// Sum of the entries' lengths (overlaps counted twice).
    bytes: usize,
    idle_bytes: usize,
}

impl IntervalMap {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn idle_bytes(&self) -> usize {
        self.idle_bytes
    }

    pub fn get(&self, key: Key) -> Option<&Entry> {
        self.entries.get(&key)
    }

    pub fn insert(&mut self, e: Entry) -> Key {
        self.next_id += 1;
        let key = (e.range.start, self.next_id);
        self.max_len = self.max_len.max(e.range.len());
        self.bytes += e.range.len();
        if e.refs == 0 {
            self.idle_bytes += e.range.len();
            self.next_tick += 1;
            self.lru.insert(self.next_tick, key);
        }
        self.entries.insert(key, e);
        key
    }

    pub fn remove(&mut self, key: Key) -> Option<Entry> {
        let e = self.entries.remove(&key)?;
        self.bytes -= e.range.len();
        if e.refs == 0 {
            self.idle_bytes -= e.range.len();
            self.lru.remove(&e.tick);
        }
        Some(e)
    }

    /// Keys of the entries intersecting `r`, in address order.
    pub fn intersecting(&self, r: PageRange) -> Vec<Key> {
        let mut out: Vec<Key> = self
            .entries
            .range(..(r.end, 0))
            .rev()
            .take_while(|(k, _)| k.0 + self.max_len > r.start)
            .filter(|(_, e)| e.range.end > r.start)
            .map(|(k, _)| *k)
            .collect();
        out.reverse();
        out
    }

    /// An entry covering all of `r` that serves `mode` (a pin-down request needs a
    /// pin-down entry; an ODP request takes any). Prefers the most recently made.
    pub fn covering(&self, r: PageRange, mode: Mode) -> Option<Key> {
        self.entries
            .range(..=(r.start, u64::MAX))
            .rev()
            .take_while(|(k, _)| k.0 + self.max_len >= r.end)
            .find(|(_, e)| e.range.end >= r.end && (mode == Mode::Odp || e.mode == Mode::Pin))
            .map(|(k, _)| *k)
    }

    /// Take a reference (a cache hit); an idle entry leaves the LRU.
    pub fn acquire(&mut self, key: Key) {
        let e = self.entries.get_mut(&key).expect("acquire of a live entry");
        if e.refs == 0 {
            self.lru.remove(&e.tick);
            self.idle_bytes -= e.range.len();
        }
        e.refs += 1;
    }

    /// Drop a reference; returns the references left. At 0 the entry stays, idle, as the
    /// most recently used.
    pub fn release(&mut self, key: Key) -> u32 {
        let e = self.entries.get_mut(&key).expect("release of a live entry");
        e.refs -= 1;
        if e.refs == 0 {
            self.next_tick += 1;
            e.tick = self.next_tick;
            self.lru.insert(e.tick, key);
            self.idle_bytes += e.range.len();
        }
        e.refs
    }

    /// The least recently used idle entry matching `pred`.
    pub fn oldest_idle(&self, pred: impl Fn(&Entry) -> bool) -> Option<Key> {
        self.lru.values().copied().find(|k| pred(&self.entries[k]))
    }

    /// The parts of `r` no entry matching `pred` covers, in address order.
    pub fn uncovered(&self, r: PageRange, pred: impl Fn(&Entry) -> bool) -> Vec<PageRange> {
        let mut covers: Vec<PageRange> = self
            .intersecting(r)
            .into_iter()
            .map(|k| &self.entries[&k])
            .filter(|e| pred(e))
            .map(|e| e.range)
            .collect();
        covers.sort_by_key(|c| c.start);
        let mut out = Vec::new();
        let mut at = r.start;
        for c in covers {
            if c.start > at {
                out.push(PageRange::new(at, c.start.min(r.end)));
            }
            at = at.max(c.end);
            if at >= r.end {
                break;
            }
        }
        if at < r.end {
            out.push(PageRange::new(at, r.end));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: usize = 4096;

    fn r(a: usize, b: usize) -> PageRange {
        PageRange::new(a * P, b * P)
    }

    #[test]
    fn covering_intersecting_uncovered() {
        let mut m = IntervalMap::default();
        let a = m.insert(Entry::new(
            r(10, 20),
            Mode::Pin,
            true,
            true,
            Keys::default(),
        ));
        let b = m.insert(Entry::new(
            r(15, 30),
            Mode::Odp,
            false,
            true,
            Keys::default(),
        ));
        assert_eq!(m.covering(r(11, 19), Mode::Pin), Some(a));
        assert_eq!(m.covering(r(16, 30), Mode::Pin), None);
        assert_eq!(m.covering(r(16, 30), Mode::Odp), Some(b));
        assert_eq!(m.covering(r(9, 12), Mode::Odp), None);
        assert_eq!(m.intersecting(r(0, 10)), vec![]);
        assert_eq!(m.intersecting(r(19, 20)), vec![a, b]);
        assert_eq!(m.intersecting(r(29, 40)), vec![b]);
        assert_eq!(m.intersecting(r(30, 40)), vec![]);
        assert_eq!(m.uncovered(r(0, 40), |_| true), vec![r(0, 10), r(30, 40)]);
        assert_eq!(m.uncovered(r(12, 25), |e| e.pinned), vec![r(20, 25)]);
        assert_eq!(m.uncovered(r(12, 18), |_| true), vec![]);
        assert_eq!(m.bytes(), 25 * P);
    }

    #[test]
    fn lru_order_and_idle_bytes() {
        let mut m = IntervalMap::default();
        let a = m.insert(Entry::new(r(0, 1), Mode::Pin, true, true, Keys::default()));
        let b = m.insert(Entry::new(r(5, 7), Mode::Pin, true, true, Keys::default()));
        assert_eq!(m.oldest_idle(|_| true), None);
        assert_eq!(m.release(b), 0);
        assert_eq!(m.release(a), 0);
        assert_eq!(m.idle_bytes(), 3 * P);
        assert_eq!(m.oldest_idle(|_| true), Some(b));
        m.acquire(b);
        assert_eq!(m.oldest_idle(|_| true), Some(a));
        assert_eq!(m.release(b), 0);
        assert_eq!(m.oldest_idle(|_| true), Some(a));
        m.remove(a);
        assert_eq!(m.oldest_idle(|_| true), Some(b));
        assert_eq!(m.idle_bytes(), 2 * P);
    }
}
