//! A work request's scatter/gather list (and a bounce read's destination spans), kept in
//! place when short.
//!
//! Nearly every request the rail makes has one to three entries — an inline message (a
//! header and its payload, behind an iWARP immediate word), an inline put, a bounce read,
//! an atomic, a fence — and a heap list for each was an allocation and a free on every
//! message and every small put or get (a tenth of a put and its flush, in instructions).
//! The adapter reads the list only during the post (the provider copies it into its
//! queue), so it may live inside the request and move with it.

use super::module::abi;

/// Entries held in place.
const FEW: usize = 3;

/// Up to `FEW` entries in place, more on the heap.
pub(super) enum Short<T: Copy + Default> {
    Few { at: [T; FEW], len: u8 },
    Many(Vec<T>),
}

pub(super) type Sges = Short<abi::Sge>;

impl<T: Copy + Default> Short<T> {
    pub(super) fn one(s: T) -> Short<T> {
        let mut at = [T::default(); FEW];
        at[0] = s;
        Short::Few { at, len: 1 }
    }

    pub(super) fn as_slice(&self) -> &[T] {
        match self {
            Short::Few { at, len } => &at[..*len as usize],
            Short::Many(v) => v,
        }
    }

    pub(super) fn as_mut_slice(&mut self) -> &mut [T] {
        match self {
            Short::Few { at, len } => &mut at[..*len as usize],
            Short::Many(v) => v,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.as_slice().len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: Copy + Default> From<Vec<T>> for Short<T> {
    fn from(v: Vec<T>) -> Short<T> {
        Short::Many(v)
    }
}

impl<T: Copy + Default> FromIterator<T> for Short<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Short<T> {
        let mut at = [T::default(); FEW];
        let mut len = 0;
        let mut iter = iter.into_iter();
        for s in iter.by_ref() {
            if len == FEW {
                // Longer than fits in place: the rest goes to the heap with them.
                let mut v = at.to_vec();
                v.push(s);
                v.extend(iter);
                return Short::Many(v);
            }
            at[len] = s;
            len += 1;
        }
        Short::Few { at, len: len as u8 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sge(i: u64) -> abi::Sge {
        abi::Sge {
            addr: i,
            len: i as u32,
            lkey: 0,
        }
    }

    #[test]
    fn short_lists_stay_in_place_and_long_ones_keep_every_entry() {
        for n in 0..8u64 {
            let s: Sges = (0..n).map(sge).collect();
            assert_eq!(matches!(s, Short::Few { .. }), n as usize <= FEW);
            let addrs: Vec<u64> = s.as_slice().iter().map(|e| e.addr).collect();
            assert_eq!(addrs, (0..n).collect::<Vec<_>>());
            assert_eq!(s.len(), n as usize);
        }
        let mut one = Sges::one(sge(7));
        one.as_mut_slice()[0].len = 3;
        assert_eq!((one.as_slice()[0].addr, one.as_slice()[0].len), (7, 3));
    }
}
