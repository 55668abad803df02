//! The work requests a rail holds, by id: a slab.
//!
//! A request is looked up by id from its post to its completion about eight times (queue,
//! post, bookkeeping, completion, retire), on the path of every message and every small put
//! or get; a hash map made each of those a hash and a probe. Here an id names its slot (low
//! 32 bits) and that slot's use (high 32 bits: a late completion of a request long gone
//! cannot reach the request that reuses its slot), so a lookup is an index and a compare.
//! Ids carry no order: `seq` is the order requests were made in (a connection's posting
//! order), which selective signalling and requeueing need.

/// One slot: the id of its current (or last) request, and that request.
struct Slot<T> {
    id: u64,
    seq: u64,
    held: Option<T>,
}

pub(super) struct Requests<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    next_seq: u64,
}

impl<T> Default for Requests<T> {
    fn default() -> Self {
        Requests {
            slots: Vec::new(),
            free: Vec::new(),
            next_seq: 0,
        }
    }
}

impl<T> Requests<T> {
    /// Hold `t`; its id.
    pub(super) fn insert(&mut self, t: T) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        if let Some(i) = self.free.pop() {
            let s = &mut self.slots[i as usize];
            // The slot's next use: the same index, another id.
            s.id = (s.id & !0xffff_ffff).wrapping_add(1 << 32) | u64::from(i);
            s.seq = seq;
            s.held = Some(t);
            return s.id;
        }
        let i = u32::try_from(self.slots.len()).expect("fewer than 2^32 requests held");
        self.slots.push(Slot {
            id: u64::from(i),
            seq,
            held: Some(t),
        });
        u64::from(i)
    }

    /// The slot of request `id`, if it is held (the one check every lookup makes).
    #[inline]
    fn index(&self, id: u64) -> Option<usize> {
        let i = (id & 0xffff_ffff) as usize;
        self.slots
            .get(i)
            .is_some_and(|s| s.id == id && s.held.is_some())
            .then_some(i)
    }

    #[inline]
    pub(super) fn get(&self, id: u64) -> Option<&T> {
        self.slots[self.index(id)?].held.as_ref()
    }

    #[inline]
    pub(super) fn get_mut(&mut self, id: u64) -> Option<&mut T> {
        let i = self.index(id)?;
        self.slots[i].held.as_mut()
    }

    /// Request `id` and when it was made (`seq`), in one lookup.
    #[inline]
    pub(super) fn get_seq(&self, id: u64) -> Option<(&T, u64)> {
        let s = &self.slots[self.index(id)?];
        Some((s.held.as_ref()?, s.seq))
    }

    /// The request `id` is, which must be held.
    #[inline]
    pub(super) fn at(&self, id: u64) -> &T {
        self.get(id).expect("a request held")
    }

    /// When request `id` was made, relative to the others (None: not held).
    #[inline]
    pub(super) fn seq(&self, id: u64) -> Option<u64> {
        Some(self.slots[self.index(id)?].seq)
    }

    pub(super) fn remove(&mut self, id: u64) -> Option<T> {
        let i = self.index(id)?;
        self.free.push(i as u32);
        self.slots[i].held.take()
    }

    /// `f` on request `id`, which is then forgotten (dropped in place: `f` takes out what
    /// it needs, without the whole request moving).
    #[inline]
    pub(super) fn remove_with<R>(&mut self, id: u64, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        let i = self.index(id)?;
        let s = &mut self.slots[i];
        let r = f(s.held.as_mut()?);
        s.held = None;
        self.free.push(i as u32);
        Some(r)
    }

    /// The held requests with their ids and `seq`s, in no order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, u64, &T)> {
        self.slots
            .iter()
            .filter_map(|s| s.held.as_ref().map(|t| (s.id, s.seq, t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reused_slot_has_a_new_id_and_the_old_one_finds_nothing() {
        let mut r = Requests::default();
        let a = r.insert("a");
        let b = r.insert("b");
        assert_eq!((r.get(a), r.get(b)), (Some(&"a"), Some(&"b")));
        assert_eq!(r.remove(a), Some("a"));
        assert_eq!(r.get(a), None);
        assert_eq!(r.remove(a), None);
        let c = r.insert("c");
        assert_ne!(c, a, "the slot is reused under another id");
        assert_eq!(c & 0xffff_ffff, a & 0xffff_ffff);
        assert_eq!((r.get(a), r.get(c)), (None, Some(&"c")));
        assert!(r.get_mut(a).is_none() && r.seq(a).is_none());
        assert!(
            r.seq(c) > r.seq(b),
            "seq is making order, whatever the slot"
        );
        let mut held: Vec<_> = r.iter().map(|(id, _, t)| (id, *t)).collect();
        held.sort();
        let mut want = vec![(b, "b"), (c, "c")];
        want.sort();
        assert_eq!(held, want);
        assert_eq!(r.get(u64::MAX), None, "an id from nowhere finds nothing");
        assert_eq!(r.remove_with(b, |t| t.len()), Some(1));
        assert_eq!(r.get(b), None);
        assert_eq!(r.remove_with(b, |t| t.len()), None);
        let d = r.insert("d");
        assert_eq!(
            d & 0xffff_ffff,
            b & 0xffff_ffff,
            "remove_with freed the slot"
        );
        assert_eq!(r.remove_with(c, |_| ()), Some(()));
        assert_eq!(
            r.iter().map(|(id, _, t)| (id, *t)).collect::<Vec<_>>(),
            [(d, "d")]
        );
    }
}
