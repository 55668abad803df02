//! The context's connections by tag: a slab.
//!
//! Every post and every send-side completion looks its connection up by tag; a hash map
//! made that a hash and a probe on the path of every small put or get. Here a tag names
//! its slot (low `INDEX_BITS` bits) and carries a serial above them that is never reused,
//! so a tag of a connection long gone (a late rdma_cm event, a stale handle) finds
//! nothing, and a lookup is an index and a compare. Tag 0 is never issued (the listener's).

const INDEX_BITS: u32 = 20;
const INDEX_MASK: u64 = (1 << INDEX_BITS) - 1;

struct Slot<T> {
    tag: u64,
    held: Option<T>,
}

pub(crate) struct Slab<T> {
    /// Slot 0 stays empty: tag 0 is the listener's.
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    serial: u64,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Slab {
            slots: vec![Slot { tag: 0, held: None }],
            free: Vec::new(),
            serial: 1,
        }
    }
}

impl<T> Slab<T> {
    /// The tag the next `insert` takes (a tag not used, e.g. after a failed rdma_cm call,
    /// is simply never inserted: the next call hands out a new one).
    pub(crate) fn next_tag(&mut self) -> u64 {
        let index = match self.free.last() {
            Some(&i) => u64::from(i),
            None => self.slots.len() as u64,
        };
        assert!(
            index <= INDEX_MASK,
            "fewer than 2^20 connections per context"
        );
        let tag = (self.serial << INDEX_BITS) | index;
        self.serial += 1;
        tag
    }

    /// Hold `t` under `tag`, from `next_tag` with no insert since.
    pub(crate) fn insert(&mut self, tag: u64, t: T) {
        let i = (tag & INDEX_MASK) as usize;
        if i == self.slots.len() {
            self.slots.push(Slot { tag, held: Some(t) });
            return;
        }
        debug_assert_eq!(self.free.last().map(|&f| f as usize), Some(i));
        self.free.pop();
        let s = &mut self.slots[i];
        s.tag = tag;
        s.held = Some(t);
    }

    #[inline]
    fn index(&self, tag: u64) -> Option<usize> {
        let i = (tag & INDEX_MASK) as usize;
        self.slots
            .get(i)
            .is_some_and(|s| s.tag == tag && s.held.is_some())
            .then_some(i)
    }

    #[inline]
    pub(crate) fn get(&self, tag: &u64) -> Option<&T> {
        self.slots[self.index(*tag)?].held.as_ref()
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, tag: &u64) -> Option<&mut T> {
        let i = self.index(*tag)?;
        self.slots[i].held.as_mut()
    }

    pub(crate) fn remove(&mut self, tag: &u64) -> Option<T> {
        let i = self.index(*tag)?;
        self.free.push(i as u32);
        self.slots[i].held.take()
    }

    /// The tags held, in no order.
    pub(crate) fn tags(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots
            .iter()
            .filter(|s| s.held.is_some())
            .map(|s| s.tag)
    }
}

impl<T> std::ops::Index<&u64> for Slab<T> {
    type Output = T;
    fn index(&self, tag: &u64) -> &T {
        self.get(tag).expect("a connection held")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reused_slot_has_a_new_tag_and_the_old_one_finds_nothing() {
        let mut s = Slab::default();
        let a = s.next_tag();
        assert_ne!(a, 0);
        s.insert(a, "a");
        let b = s.next_tag();
        s.insert(b, "b");
        assert_eq!((s.get(&a), s.get(&b)), (Some(&"a"), Some(&"b")));
        assert_eq!(s.remove(&a), Some("a"));
        // A tag handed out but never inserted finds nothing, nor takes the slot.
        let unused = s.next_tag();
        assert_eq!(s.get(&unused), None);
        let c = s.next_tag();
        s.insert(c, "c");
        assert_eq!(c & INDEX_MASK, a & INDEX_MASK);
        assert_ne!(c, a);
        assert_eq!((s.get(&a), s.get(&c)), (None, Some(&"c")));
        assert_eq!(s.get(&0), None);
        let mut tags: Vec<u64> = s.tags().collect();
        tags.sort();
        assert_eq!(tags, {
            let mut v = vec![b, c];
            v.sort();
            v
        });
    }
}
