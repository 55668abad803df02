//! datatype: type maps flattened into byte segments, and pack/unpack over them.
//!
//! A committed type is described by the runs of bytes one element covers (`segments`,
//! offsets from the element's start, adjacent runs merged) plus its extent. Contiguous types
//! go to the protocols as one buffer; others are packed (later: handed to rails as iovecs).

pub mod basic;

pub use basic::Basic;

#[derive(Clone, Debug)]
pub struct Datatype {
    pub name: String,
    /// Bytes of data in one element.
    pub size: usize,
    pub lb: isize,
    pub extent: isize,
    pub true_lb: isize,
    pub true_extent: isize,
    /// One element's data as (offset, length) runs, in type-map order, adjacent ones merged.
    pub segments: Vec<(isize, usize)>,
    /// The element is `n` values of one basic type (what reductions need).
    pub basic: Option<(Basic, usize)>,
    pub committed: bool,
    pub predefined: bool,
}

#[derive(Debug, PartialEq, Eq)]
pub enum TypeError {
    /// Negative count or other invalid argument.
    InvalidCount,
    /// The result would not fit the address space.
    Overflow,
}

impl Datatype {
    /// A predefined type: `size` bytes, contiguous.
    pub fn predefined(name: &str, size: usize, basic: Option<Basic>) -> Self {
        Self {
            name: name.to_string(),
            size,
            lb: 0,
            extent: size as isize,
            true_lb: 0,
            true_extent: size as isize,
            segments: if size > 0 { vec![(0, size)] } else { vec![] },
            basic: basic.map(|b| (b, 1)),
            committed: true,
            predefined: true,
        }
    }

    /// MPI_Type_contiguous.
    pub fn contiguous(count: i64, old: &Datatype) -> Result<Self, TypeError> {
        if count < 0 {
            return Err(TypeError::InvalidCount);
        }
        let count = count as usize;
        let size = old.size.checked_mul(count).ok_or(TypeError::Overflow)?;
        let extent = old
            .extent
            .checked_mul(count as isize)
            .ok_or(TypeError::Overflow)?;
        let mut segments = Vec::new();
        for i in 0..count {
            let base = i as isize * old.extent;
            for &(off, len) in &old.segments {
                push_merged(&mut segments, base + off, len);
            }
        }
        Ok(Self {
            name: String::new(),
            size,
            lb: old.lb,
            extent,
            true_lb: old.true_lb,
            true_extent: if count == 0 {
                0
            } else {
                extent - old.extent + old.true_extent
            },
            segments,
            basic: old.basic.map(|(b, n)| (b, n * count)),
            committed: false,
            predefined: false,
        })
    }

    /// One element is a single run starting at offset 0 with no gaps, and elements abut.
    pub fn is_contiguous(&self) -> bool {
        self.size == 0
            || (self.segments.len() == 1
                && self.segments[0] == (0, self.size)
                && self.extent == self.size as isize)
    }

    /// Gather `count` elements at `src` into `out` (appending).
    ///
    /// # Safety
    /// `src` must address `count` elements of this type, readable.
    pub unsafe fn pack(&self, count: usize, src: *const u8, out: &mut Vec<u8>) {
        out.reserve(self.size * count);
        for i in 0..count {
            let base = src.offset(i as isize * self.extent);
            for &(off, len) in &self.segments {
                out.extend_from_slice(std::slice::from_raw_parts(base.offset(off), len));
            }
        }
    }

    /// Scatter packed bytes into `count` elements at `dst`; stops when `src` runs out.
    ///
    /// # Safety
    /// `dst` must address `count` elements of this type, writable.
    pub unsafe fn unpack(&self, count: usize, src: &[u8], dst: *mut u8) {
        let mut pos = 0;
        for i in 0..count {
            let base = dst.offset(i as isize * self.extent);
            for &(off, len) in &self.segments {
                if pos >= src.len() {
                    return;
                }
                let n = len.min(src.len() - pos);
                std::ptr::copy_nonoverlapping(src[pos..].as_ptr(), base.offset(off), n);
                pos += n;
            }
        }
    }
}

fn push_merged(segs: &mut Vec<(isize, usize)>, off: isize, len: usize) {
    if len == 0 {
        return;
    }
    if let Some(last) = segs.last_mut() {
        if last.0 + last.1 as isize == off {
            last.1 += len;
            return;
        }
    }
    segs.push((off, len));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_of_contiguous_is_contiguous() {
        let int = Datatype::predefined("MPI_INT", 4, Some(Basic::I32));
        let t = Datatype::contiguous(5, &int).unwrap();
        assert_eq!((t.size, t.extent), (20, 20));
        assert!(t.is_contiguous());
        assert_eq!(t.basic, Some((Basic::I32, 5)));
        assert_eq!(
            Datatype::contiguous(-1, &int).unwrap_err(),
            TypeError::InvalidCount
        );
        assert_eq!(Datatype::contiguous(0, &int).unwrap().size, 0);
    }

    #[test]
    fn pack_unpack_round_trip_with_gaps() {
        // A resized-like type: 4 data bytes in an 8-byte extent.
        let mut t = Datatype::predefined("x", 4, None);
        t.extent = 8;
        assert!(!t.is_contiguous());
        let src: Vec<u8> = (0..24).collect();
        let mut packed = Vec::new();
        unsafe { t.pack(3, src.as_ptr(), &mut packed) };
        assert_eq!(packed, [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19]);
        let mut dst = vec![0xffu8; 24];
        unsafe { t.unpack(3, &packed, dst.as_mut_ptr()) };
        for (i, &b) in dst.iter().enumerate() {
            let want = if i % 8 < 4 { i as u8 } else { 0xff };
            assert_eq!(b, want);
        }
    }
}
