//! datatype: type maps flattened into byte segments, and pack/unpack over them.
//!
//! A type is described by the runs of bytes one element covers (`segments`: offsets from the
//! start of the element's buffer, in type-map order, adjacent runs merged, strided runs kept
//! as one block: `segments.rs`) plus its bounds.
//! `count` elements are never materialised: element `i` is the same segment list shifted by
//! `i * extent`, walked lazily (`runs`, `pack`, `unpack`). Contiguous types go to the
//! protocols as one buffer; others as the run list (iovecs) or packed.
//!
//! Bounds (lb, extent, true lb/extent) and struct padding follow MPICH 4 (its yaksa type
//! engine) exactly, so programs see the same numbers on both libraries; the constructors are
//! in `constructors.rs`.

pub mod basic;
mod constructors;
pub mod contents;
pub mod external32;
mod make;
pub mod predefined;
mod segments;

pub use basic::Basic;
pub use constructors::{Distrib, Member, Order, DFLT_DARG};
pub use make::{Ctor, Darray};
pub use segments::Segments;

use std::sync::atomic::{AtomicU64, Ordering};

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
    pub segments: Segments,
    /// The element is `n` values of one basic type (what reductions need).
    pub basic: Option<(Basic, usize)>,
    pub committed: bool,
    pub predefined: bool,
    /// Alignment of the type (the largest of its basic types' C alignments); a struct's
    /// extent is padded to a multiple of it, as MPICH does.
    pub align: usize,
    /// The basic elements of one element in type-map order, as (size of each, how many)
    /// runs, merged (what MPI_Get_elements counts).
    pub elements: Vec<(usize, usize)>,
    /// For a type holding values whose external32 width is not their native one (MPI_LONG
    /// …): one element's (native size, how many, external form) runs in type-map order;
    /// None when every value keeps its width (`external32`).
    pub ext32: Option<Vec<(usize, usize, external32::Ext)>>,
    /// Identity of the type's representation: MPICH builds a struct whose members are all
    /// the same type as an hindexed type (no padding), and a dup, a contiguous of one or a
    /// resize to the same bounds share their old type's representation.
    pub ident: u64,
}

#[derive(Debug, PartialEq, Eq)]
pub enum TypeError {
    /// Negative count or other invalid argument.
    InvalidCount,
    /// The result would not fit the address space.
    Overflow,
}

impl From<TypeError> for crate::error::Error {
    fn from(e: TypeError) -> Self {
        let class = crate::error::ErrorClass::Count;
        match e {
            TypeError::InvalidCount => Self::new(class, "invalid count"),
            TypeError::Overflow => Self::new(class, "datatype too large"),
        }
    }
}

/// Identity of the empty type (MPICH's zero-length type).
pub(crate) const NULL_IDENT: u64 = 0;
static NEXT_IDENT: AtomicU64 = AtomicU64::new(1 << 32);

pub(crate) fn fresh_ident() -> u64 {
    NEXT_IDENT.fetch_add(1, Ordering::Relaxed)
}

impl Datatype {
    /// A predefined type: `size` bytes, contiguous.
    pub fn predefined(name: &str, size: usize, basic: Option<Basic>) -> Self {
        let (align, ident, elements) = match basic {
            Some(b) => (b.align(), b.class(), b.elements(size)),
            None => (
                1,
                NULL_IDENT,
                if size > 0 { vec![(size, 1)] } else { vec![] },
            ),
        };
        Self {
            name: name.to_string(),
            size,
            lb: 0,
            extent: size as isize,
            true_lb: 0,
            true_extent: size as isize,
            segments: Segments::from_runs(&[(0, size)]),
            basic: basic.map(|b| (b, 1)),
            committed: true,
            predefined: true,
            align,
            elements,
            ext32: None,
            ident,
        }
    }

    /// The empty type MPICH makes for zero counts (size, bounds and extent 0).
    pub fn empty() -> Self {
        Self {
            name: String::new(),
            size: 0,
            lb: 0,
            extent: 0,
            true_lb: 0,
            true_extent: 0,
            segments: Segments::new(),
            basic: None,
            committed: false,
            predefined: false,
            align: 1,
            elements: vec![],
            ext32: None,
            ident: NULL_IDENT,
        }
    }

    /// The deprecated MPI_LB / MPI_UB (`name`) as types: empty, predefined markers.
    pub fn bound_marker(name: &str) -> Self {
        Self {
            name: name.into(),
            predefined: true,
            committed: true,
            ..Self::empty()
        }
    }

    /// (lb, extent), or with `true_` (true lb, true extent): MPI_Type_get_(true_)extent.
    pub fn bounds(&self, true_: bool) -> [isize; 2] {
        if true_ {
            [self.true_lb, self.true_extent]
        } else {
            [self.lb, self.extent]
        }
    }

    /// Upper bound (lb + extent).
    pub fn ub(&self) -> isize {
        self.lb + self.extent
    }

    /// True upper bound (true_lb + true_extent).
    pub fn true_ub(&self) -> isize {
        self.true_lb + self.true_extent
    }

    /// One element is a single run starting at offset 0 with no gaps, and elements abut.
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        self.size == 0
            || (self.segments.single() == Some((0, self.size)) && self.extent == self.size as isize)
    }

    /// The byte runs of `count` elements, offsets relative to the buffer, in type-map
    /// order, runs that abut across element boundaries merged (iovecs for a rail).
    pub fn runs(&self, count: usize) -> Runs<'_> {
        if self.is_contiguous() && self.size > 0 && count > 0 {
            // Elements abut: one run, without walking them.
            return Runs {
                t: self,
                count: 0,
                elem: 0,
                blk: 0,
                k: 0,
                pending: Some((0, self.size * count)),
            };
        }
        Runs {
            t: self,
            count,
            elem: 0,
            blk: 0,
            k: 0,
            pending: None,
        }
    }

    /// Number of runs `runs(count)` yields at most (for sizing iovec arrays).
    pub fn max_runs(&self, count: usize) -> usize {
        if self.is_contiguous() {
            usize::from(self.size > 0 && count > 0)
        } else {
            self.segments.len().saturating_mul(count)
        }
    }

    /// Gather `count` elements at `src` into `out` (appending).
    ///
    /// # Safety
    /// `src` must address `count` elements of this type, readable.
    pub unsafe fn pack(&self, count: usize, src: *const u8, out: &mut Vec<u8>) {
        let total = self.size * count;
        out.reserve(total);
        let start = out.len();
        // SAFETY: `reserve` made room for `total` more bytes; pack_raw writes exactly that
        // many (the elements hold `total` bytes) before the length covers them.
        let n = self.pack_raw(count, 0, src, out.as_mut_ptr().add(start), total);
        debug_assert_eq!(n, total);
        out.set_len(start + n);
    }

    /// Copy the packed bytes `skip..skip + out.len()` of `count` elements at `src` into
    /// `out` (a window of the packed stream); returns the bytes written (less than
    /// `out.len()` only when the elements end first).
    ///
    /// # Safety
    /// `src` must address `count` elements of this type, readable, not overlapping `out`.
    pub unsafe fn pack_into(
        &self,
        count: usize,
        skip: usize,
        src: *const u8,
        out: &mut [u8],
    ) -> usize {
        self.pack_raw(count, skip, src, out.as_mut_ptr(), out.len())
    }

    /// `pack_into` on a raw destination of `cap` writable bytes.
    unsafe fn pack_raw(
        &self,
        count: usize,
        mut skip: usize,
        src: *const u8,
        out: *mut u8,
        cap: usize,
    ) -> usize {
        if self.is_contiguous() {
            let n = (self.size * count).saturating_sub(skip).min(cap);
            std::ptr::copy_nonoverlapping(src.add(skip), out, n);
            return n;
        }
        let mut pos = 0usize;
        for (off, len) in self.runs(count) {
            if pos == cap {
                break;
            }
            if skip >= len {
                skip -= len;
                continue;
            }
            let n = (len - skip).min(cap - pos);
            std::ptr::copy_nonoverlapping(src.offset(off + skip as isize), out.add(pos), n);
            pos += n;
            skip = 0;
        }
        pos
    }

    /// Scatter packed bytes into `count` elements at `dst`; stops when `src` runs out.
    ///
    /// # Safety
    /// `dst` must address `count` elements of this type, writable.
    pub unsafe fn unpack(&self, count: usize, src: &[u8], dst: *mut u8) {
        self.unpack_from(count, 0, src, dst);
    }

    /// Scatter `src` into the packed bytes `skip..skip + src.len()` of `count` elements at
    /// `dst`; returns the bytes consumed (less than `src.len()` when the elements end).
    ///
    /// # Safety
    /// `dst` must address `count` elements of this type, writable, not overlapping `src`.
    pub unsafe fn unpack_from(
        &self,
        count: usize,
        mut skip: usize,
        src: &[u8],
        dst: *mut u8,
    ) -> usize {
        if self.is_contiguous() {
            let n = (self.size * count).saturating_sub(skip).min(src.len());
            std::ptr::copy_nonoverlapping(src.as_ptr(), dst.add(skip), n);
            return n;
        }
        let mut pos = 0usize;
        for (off, len) in self.runs(count) {
            if pos >= src.len() {
                break;
            }
            if skip >= len {
                skip -= len;
                continue;
            }
            let n = (len - skip).min(src.len() - pos);
            std::ptr::copy_nonoverlapping(
                src.as_ptr().add(pos),
                dst.offset(off + skip as isize),
                n,
            );
            pos += n;
            skip = 0;
        }
        pos
    }

    /// Bytes of `count` elements packed (MPI_Pack_size), within an int's range unless
    /// `large` (the `_c` forms'): MPI_ERR_COUNT beyond.
    pub fn packed_size(&self, count: usize, large: bool) -> crate::error::Result<usize> {
        let max = if large { i64::MAX } else { i32::MAX as i64 };
        count
            .checked_mul(self.size)
            .filter(|&n| n as u64 <= max as u64)
            .ok_or_else(|| {
                crate::error::Error::new(
                    crate::error::ErrorClass::Count,
                    "packed size exceeds the int range",
                )
            })
    }

    /// Where `count` elements packed (MPI_Pack, MPI_Unpack) lie in a `size`-byte packed
    /// buffer from position `pos`: their bytes `pos..pos + len` as (pos, len), checked
    /// (a negative position is MPI_ERR_ARG, bytes past the buffer MPI_ERR_TRUNCATE).
    pub fn packed_span(
        &self,
        count: usize,
        pos: i64,
        size: usize,
        large: bool,
    ) -> crate::error::Result<(usize, usize)> {
        if pos < 0 {
            return crate::mpi_err!(Arg, "negative position {pos}");
        }
        let pos = pos as usize;
        let len = self.packed_size(count, large)?;
        if len > 0 && pos.checked_add(len).is_none_or(|end| end > size) {
            return crate::mpi_err!(
                Truncate,
                "{len} packed bytes at position {pos} do not fit a {size}-byte buffer"
            );
        }
        Ok((pos, len))
    }

    /// MPI_Pack (`packing`) or MPI_Unpack of `count` elements between the typed buffer
    /// `typed` and the `size`-byte packed buffer `packed`, at position `pos`
    /// (`packed_span`'s checks): the position after them, None when no byte moves (the
    /// position stays). A NULL typed buffer that must hold data (its type starts at offset
    /// 0: MPI_BOTTOM with absolute addresses stays legal), or a NULL packed one, is
    /// MPI_ERR_ARG.
    ///
    /// # Safety
    /// `typed` addresses `count` elements of this type, `packed` `size` bytes (MPI's
    /// contract; NULL is checked).
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn pack_at(
        &self,
        count: usize,
        typed: *mut u8,
        packed: *mut u8,
        size: usize,
        pos: i64,
        large: bool,
        packing: bool,
    ) -> crate::error::Result<Option<usize>> {
        let (typed_name, packed_name) = if packing {
            ("inbuf", "outbuf")
        } else {
            ("outbuf", "inbuf")
        };
        if typed.is_null() && count > 0 && self.size > 0 && self.true_lb == 0 {
            return crate::mpi_err!(Arg, "NULL {typed_name} with count {count}");
        }
        let (pos, len) = self.packed_span(count, pos, size, large)?;
        if len == 0 {
            return Ok(None);
        }
        if packed.is_null() {
            return crate::mpi_err!(Arg, "NULL {packed_name}");
        }
        // SAFETY: `packed` holds `size` bytes, of which pos..pos + len fit (checked by
        // packed_span); `typed` holds `count` elements (the contract).
        let bytes = std::slice::from_raw_parts_mut(packed.add(pos), len);
        if packing {
            self.pack_into(count, 0, typed, bytes);
        } else {
            self.unpack_from(count, 0, bytes, typed);
        }
        Ok(Some(pos + len))
    }

    /// Whether the first `bytes` bytes of a stream of elements of this type end inside a
    /// basic element: a receive that got them matched a send whose type signature differs
    /// (MPICH answers MPI_ERR_TRUNCATE; its errors/pt2pt/truncmsg2).
    pub fn splits_element(&self, bytes: u64) -> bool {
        if self.size == 0 {
            return false;
        }
        let mut rem = bytes % self.size as u64;
        for &(esize, k) in &self.elements {
            if rem == 0 {
                return false;
            }
            let (esize, run) = (esize as u64, (esize * k) as u64);
            if rem < run {
                return esize != 0 && !rem.is_multiple_of(esize);
            }
            rem -= run;
        }
        rem != 0
    }

    /// Basic elements in the first `bytes` bytes of a stream of elements of this type
    /// (MPI_Get_elements); None is MPI_UNDEFINED. For a predefined type the bytes must be
    /// whole elements; for a derived type, whole basic elements (a trailing partial one means
    /// the status came from another type: undefined, as MPICH 5 says); a type of size 0
    /// holds 0 elements in 0 bytes and is undefined otherwise.
    pub fn elements_in(&self, bytes: u64) -> Option<u64> {
        if self.size == 0 {
            return (bytes == 0).then_some(0);
        }
        let size = self.size as u64;
        let per: u64 = self.elements.iter().map(|&(_, n)| n as u64).sum();
        if self.predefined {
            return bytes.is_multiple_of(size).then(|| bytes / size * per);
        }
        let mut n = (bytes / size).checked_mul(per)?;
        let mut rem = bytes % size;
        for &(esize, k) in &self.elements {
            if rem == 0 || esize == 0 {
                break;
            }
            let whole = (rem / esize as u64).min(k as u64);
            n += whole;
            rem -= whole * esize as u64;
            if whole < k as u64 {
                break;
            }
        }
        (rem == 0).then_some(n)
    }

    /// The bytes the first `n` basic elements of a stream of elements of this type take.
    fn element_bytes(&self, n: u64) -> Option<u64> {
        let per: u64 = self.elements.iter().map(|&(_, k)| k as u64).sum();
        if per == 0 {
            return Some(0);
        }
        let mut bytes = (n / per).checked_mul(self.size as u64)?;
        let mut rem = n % per;
        for &(esize, k) in &self.elements {
            let take = rem.min(k as u64);
            bytes = bytes.checked_add(take * esize as u64)?;
            rem -= take;
        }
        Some(bytes)
    }

    /// Whole elements of this type in `bytes` bytes (MPI_Get_count); None is MPI_UNDEFINED
    /// (not a whole number of them; a type of size 0 holds 0 elements in 0 bytes only).
    pub fn count_in(&self, bytes: u64) -> Option<u64> {
        match self.size as u64 {
            0 => (bytes == 0).then_some(0),
            size => bytes.is_multiple_of(size).then_some(bytes / size),
        }
    }

    /// The bytes of `count` basic elements of this type as a status records them
    /// (MPI_Status_set_elements, so that MPI_Get_elements gives `count` back): whole
    /// elements of a predefined type (as MPICH), else the type map walked; MPI_ERR_COUNT
    /// when negative or above the 63 bits a status holds.
    pub fn status_bytes(&self, count: i64) -> crate::error::Result<u64> {
        if count < 0 {
            return crate::mpi_err!(Count, "negative count {count}");
        }
        let bytes = match self.predefined {
            true => (count as u64).checked_mul(self.size as u64),
            false => self.element_bytes(count as u64),
        };
        match bytes {
            Some(bytes) if bytes >> 63 == 0 => Ok(bytes),
            _ => crate::mpi_err!(Count, "count {count} too large"),
        }
    }
}

/// Iterator over the byte runs of `count` elements (see `Datatype::runs`).
pub struct Runs<'a> {
    t: &'a Datatype,
    count: usize,
    elem: usize,
    /// The next run: run `k` of block `blk` of element `elem`.
    blk: usize,
    k: usize,
    pending: Option<(isize, usize)>,
}

impl Iterator for Runs<'_> {
    type Item = (isize, usize);

    fn next(&mut self) -> Option<(isize, usize)> {
        let blocks = self.t.segments.blocks();
        loop {
            if self.blk == blocks.len() {
                self.blk = 0;
                self.elem += 1;
            }
            if self.elem >= self.count || blocks.is_empty() {
                return self.pending.take();
            }
            let b = &blocks[self.blk];
            let (off, len) = (b.off + self.k as isize * b.stride, b.len);
            let off = off + self.elem as isize * self.t.extent;
            self.k += 1;
            if self.k == b.n {
                self.k = 0;
                self.blk += 1;
            }
            match self.pending {
                Some((p, l)) if p + l as isize == off => self.pending = Some((p, l + len)),
                Some(prev) => {
                    self.pending = Some((off, len));
                    return Some(prev);
                }
                None => self.pending = Some((off, len)),
            }
        }
    }
}

pub(crate) fn push_elements(runs: &mut Vec<(usize, usize)>, size: usize, n: usize) {
    if n == 0 {
        return;
    }
    if let Some(last) = runs.last_mut() {
        if last.0 == size {
            last.1 += n;
            return;
        }
    }
    runs.push((size, n));
}

#[cfg(test)]
mod tests;
