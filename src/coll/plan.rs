//! Building blocks every collective algorithm shares: typed application buffers, the
//! reduction operator bound to its datatype, and `Plan`, a `Schedule` under construction
//! with the conveniences the algorithms need (a fresh tag per collective call, packing of
//! non-contiguous inputs, deferred unpacking of non-contiguous outputs, local copies and
//! reductions between schedule buffers).

use super::schedule::{Buf, LocalWork, Schedule};
use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::Result;
use std::sync::Arc;

/// Application memory: `count` elements of `ty` starting at `ptr`.
#[derive(Clone, Copy)]
pub struct TypedBuf<'a> {
    pub ptr: *mut u8,
    pub count: usize,
    pub ty: &'a Datatype,
}

impl<'a> TypedBuf<'a> {
    pub fn new(ptr: *const u8, count: usize, ty: &'a Datatype) -> Self {
        Self {
            ptr: ptr as *mut u8,
            count,
            ty,
        }
    }

    /// Bytes of data (packed).
    pub fn bytes(&self) -> usize {
        self.count * self.ty.size
    }

    /// The buffer that starts `elems` elements further on (block addressing of the
    /// v-collectives: `displs[i]` counts extents of the type).
    pub fn at(&self, elems: isize, count: usize) -> TypedBuf<'a> {
        TypedBuf {
            ptr: self.ptr.wrapping_offset(elems * self.ty.extent),
            count,
            ty: self.ty,
        }
    }

    /// Data lies in one run at `ptr` (so a transfer can use it in place).
    pub fn contiguous(&self) -> bool {
        self.ty.is_contiguous()
            || (self.count <= 1
                && (self.ty.segments.is_empty()
                    || matches!(self.ty.segments.single(), Some((0, _)))))
    }

    /// The packed bytes, copied.
    pub fn pack(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.bytes());
        if self.contiguous() {
            // SAFETY: MPI: the buffer holds `count` elements; contiguous means one run.
            v.extend_from_slice(unsafe { raw(self.ptr, self.bytes()) });
        } else {
            // SAFETY: as above, through the type map.
            unsafe { self.ty.pack(self.count, self.ptr, &mut v) };
        }
        v
    }

    /// Write packed bytes into the buffer.
    ///
    /// # Safety
    /// The buffer must be writable for `count` elements (MPI's contract for receive
    /// buffers), and `bytes` must not overlap it.
    pub unsafe fn unpack_from(&self, bytes: &[u8]) {
        if self.contiguous() {
            let n = bytes.len().min(self.bytes());
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr, n);
        } else {
            self.ty.unpack(self.count, bytes, self.ptr);
        }
    }

    /// An owned description for work that runs later (an output to unpack into).
    pub fn owned(&self) -> OwnedBuf {
        OwnedBuf {
            ptr: self.ptr,
            count: self.count,
            ty: if self.contiguous() {
                None
            } else {
                Some(Arc::new(self.ty.clone()))
            },
            bytes: self.bytes(),
        }
    }
}

/// The blocks of a v-collective's buffer: block i is `counts[i]` elements of `ty` that
/// start `displs[i]` extents of `ty` from `base`.
pub struct Blocks<'a> {
    pub base: *mut u8,
    pub ty: &'a Datatype,
    pub counts: Vec<usize>,
    pub displs: Vec<isize>,
}

impl<'a> Blocks<'a> {
    /// `n` blocks of `count` elements one after the other (the non-v collectives).
    pub fn uniform(base: *const u8, ty: &'a Datatype, count: usize, n: usize) -> Self {
        Blocks {
            base: base as *mut u8,
            ty,
            counts: vec![count; n],
            displs: (0..n).map(|i| (i * count) as isize).collect(),
        }
    }

    pub fn block(&self, i: usize) -> TypedBuf<'a> {
        TypedBuf {
            ptr: self.base.wrapping_offset(self.displs[i] * self.ty.extent),
            count: self.counts[i],
            ty: self.ty,
        }
    }
}

/// A `TypedBuf` that local work can keep (it owns a copy of a non-contiguous type).
pub struct OwnedBuf {
    ptr: *mut u8,
    count: usize,
    ty: Option<Arc<Datatype>>,
    bytes: usize,
}

impl OwnedBuf {
    /// # Safety
    /// As `TypedBuf::unpack_from`.
    pub unsafe fn unpack_from(&self, bytes: &[u8]) {
        match &self.ty {
            None => {
                let n = bytes.len().min(self.bytes);
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr, n);
            }
            Some(t) => t.unpack(self.count, bytes, self.ptr),
        }
    }
}

/// `inout = input ∘ inout` on packed whole elements (`input` holds the lower ranks'
/// contribution, as MPI's user functions see it).
pub type CombineFn = dyn Fn(&[u8], &mut [u8]) -> Result<()> + Send + Sync;

/// A reduction operation bound to its datatype.
#[derive(Clone)]
pub struct Reducer {
    pub combine: Arc<CombineFn>,
    /// May operands be combined in any order (predefined ops; user ops created so)?
    pub commutative: bool,
    /// Packed bytes of one element of the datatype (splits happen at multiples of it).
    pub elem: usize,
}

/// Slice of raw memory.
///
/// # Safety
/// `(p, n)` readable for the lifetime the caller picks (or n == 0).
pub(crate) unsafe fn raw<'x>(p: *const u8, n: usize) -> &'x [u8] {
    if n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, n)
    }
}

/// Mutable slice of raw memory.
///
/// # Safety
/// `(p, n)` writable and not otherwise referenced for the lifetime the caller picks.
pub(crate) unsafe fn raw_mut<'x>(p: *mut u8, n: usize) -> &'x mut [u8] {
    if n == 0 {
        &mut []
    } else {
        std::slice::from_raw_parts_mut(p, n)
    }
}

/// `len` bytes at `off` within `b`.
pub fn sub(b: Buf, off: usize, len: usize) -> Buf {
    match b {
        Buf::User { ptr, len: l } => {
            debug_assert!(off + len <= l);
            Buf::User {
                ptr: ptr.wrapping_add(off),
                len,
            }
        }
        Buf::Scratch {
            idx,
            off: o,
            len: l,
        } => {
            debug_assert!(off + len <= l);
            Buf::Scratch {
                idx,
                off: o + off,
                len,
            }
        }
    }
}

pub fn buf_len(b: Buf) -> usize {
    match b {
        Buf::User { len, .. } | Buf::Scratch { len, .. } => len,
    }
}

/// Whether two buffers are the same range.
pub fn same_buf(a: Buf, b: Buf) -> bool {
    match (a, b) {
        (Buf::User { ptr: p, len: l }, Buf::User { ptr: q, len: m }) => p == q && l == m,
        (
            Buf::Scratch { idx, off, len },
            Buf::Scratch {
                idx: i,
                off: o,
                len: l,
            },
        ) => idx == i && off == o && len == l,
        _ => false,
    }
}

/// The memory behind `b` while local work runs.
fn locate(sc: &mut [Vec<u8>], b: Buf) -> (*mut u8, usize) {
    match b {
        Buf::User { ptr, len } => (ptr, len),
        Buf::Scratch { idx, off, len } => {
            let v = &mut sc[idx];
            assert!(off + len <= v.len(), "scratch range outside its buffer");
            (v.as_mut_ptr().wrapping_add(off), len)
        }
    }
}

fn overlap(a: (*mut u8, usize), b: (*mut u8, usize)) -> bool {
    let (a0, b0) = (a.0 as usize, b.0 as usize);
    a.1 > 0 && b.1 > 0 && a0 < b0 + b.1 && b0 < a0 + a.1
}

/// Copy `src` to `dst` (same length) inside local work.
pub fn copy_buf(sc: &mut [Vec<u8>], src: Buf, dst: Buf) {
    let s = locate(sc, src);
    let d = locate(sc, dst);
    assert_eq!(s.1, d.1, "copy between buffers of different sizes");
    if s.0 == d.0 || s.1 == 0 {
        return;
    }
    // SAFETY: both ranges are live (user buffers by MPI's rules, scratch owned by the
    // schedule); `copy` allows overlap.
    unsafe { std::ptr::copy(s.0, d.0, s.1) };
}

/// `inout = input ∘ inout` inside local work.
pub fn combine_buf(sc: &mut [Vec<u8>], r: &Reducer, input: Buf, inout: Buf) -> Result<()> {
    let i = locate(sc, input);
    let o = locate(sc, inout);
    assert_eq!(i.1, o.1, "reduction of buffers of different sizes");
    assert!(!overlap(i, o), "reduction operands overlap");
    if i.1 == 0 {
        return Ok(());
    }
    // SAFETY: distinct live ranges (asserted); see copy_buf.
    unsafe { (r.combine)(raw(i.0, i.1), raw_mut(o.0, o.1)) }
}

/// Local work that may hold raw application pointers.
struct AssertSend<F>(F);
// SAFETY: the pointers local work captures are application buffers that MPI keeps valid
// until the collective completes, and shared objects (`Arc`s of datatypes and reducers)
// that are Sync; a schedule runs under the engine's lock, on one thread at a time.
unsafe impl<F> Send for AssertSend<F> {}

impl<F: FnMut(&mut [Vec<u8>]) -> Result<()>> AssertSend<F> {
    fn call(&mut self, sc: &mut [Vec<u8>]) -> Result<()> {
        (self.0)(sc)
    }
}

/// Box a closure as schedule work.
pub fn local(f: impl FnMut(&mut [Vec<u8>]) -> Result<()> + 'static) -> LocalWork {
    let mut w = AssertSend(f);
    Box::new(move |sc| w.call(sc))
}

/// A collective schedule under construction.
pub struct Plan<'c> {
    pub s: Schedule,
    pub comm: &'c Communicator,
    pub n: usize,
    pub rank: usize,
    finish: Vec<LocalWork>,
    /// Messages are cut into pieces of this size (see `PIECES_UP_TO`).
    piece: usize,
    /// Ranks outnumber cores: small allreduces fan in to rank 0 (`allreduce::fan_in`).
    pub fan_in: bool,
}

impl<'c> Plan<'c> {
    /// A new collective call of `kind` (one of `coll::KIND_*`) on `comm`. This takes the
    /// call's place in the communicator's collective sequence (its tag), so the MPI shims
    /// open the plan before they check arguments: a rank that then fails its checks has
    /// still counted the call, and the members keep numbering later calls alike.
    pub fn new(comm: &'c Communicator, kind: i32) -> Self {
        Plan {
            s: Schedule::new(comm, kind),
            comm,
            n: comm.size(),
            rank: comm.rank,
            finish: Vec::new(),
            piece: PIECE,
            fan_in: false,
        }
    }

    /// Ranks outnumber cores (`fan_in`).
    pub fn with_fan_in(mut self, fan_in: bool) -> Self {
        self.fan_in = fan_in;
        self
    }

    /// Cut messages of up to `PIECES_UP_TO` bytes into pieces of at most `eager_limit`
    /// bytes (the point-to-point eager limit; 0: never cut).
    pub fn with_eager_limit(mut self, eager_limit: usize) -> Self {
        self.piece = eager_limit;
        self
    }

    /// The size messages are cut into (0: none; see `with_eager_limit`).
    pub fn piece(&self) -> usize {
        self.piece
    }

    /// Send `b` to rank `dst` in the current step.
    pub fn send(&mut self, dst: usize, b: Buf) {
        for piece in pieces(b, self.piece) {
            self.s.send(self.comm, dst, piece);
        }
    }

    /// Receive exactly `b`'s length from rank `src` in the current step.
    pub fn recv(&mut self, src: usize, b: Buf) {
        for piece in pieces(b, self.piece) {
            self.s.recv(src, piece);
        }
    }

    /// Send `b` to local-group rank `dst` of an intercommunicator in the current step.
    pub fn send_local(&mut self, dst: usize, b: Buf) {
        for piece in pieces(b, self.piece) {
            self.s.send_local(self.comm, dst, piece);
        }
    }

    /// Receive exactly `b`'s length from local-group rank `src` of an intercommunicator.
    pub fn recv_local(&mut self, src: usize, b: Buf) {
        for piece in pieces(b, self.piece) {
            self.s.recv_local(src, piece);
        }
    }

    /// End the current step: what follows waits for its transfers.
    pub fn step(&mut self) {
        self.s.barrier();
    }

    /// Local work after the current step's transfers; ends the step.
    pub fn work(&mut self, f: impl FnMut(&mut [Vec<u8>]) -> Result<()> + 'static) {
        self.s.then(local(f));
    }

    /// A zeroed scratch buffer of `len` bytes.
    pub fn scratch(&mut self, len: usize) -> Buf {
        let idx = self.s.scratch(len);
        Buf::Scratch { idx, off: 0, len }
    }

    /// A scratch buffer holding `bytes`.
    pub fn scratch_from(&mut self, bytes: Vec<u8>) -> Buf {
        let len = bytes.len();
        let idx = self.s.scratch_from(bytes);
        Buf::Scratch { idx, off: 0, len }
    }

    /// The data of an input buffer: the application's memory when contiguous (it must
    /// not change until the collective completes, by MPI's rules), else packed now.
    pub fn input(&mut self, b: TypedBuf) -> Buf {
        if b.contiguous() {
            Buf::User {
                ptr: b.ptr,
                len: b.bytes(),
            }
        } else {
            let v = b.pack();
            self.scratch_from(v)
        }
    }

    /// A private copy of an input buffer's data (to accumulate into).
    pub fn copy_of(&mut self, b: TypedBuf) -> Buf {
        let v = b.pack();
        self.scratch_from(v)
    }

    /// Where an output buffer's data is to be written: the application's memory when
    /// contiguous, else a scratch buffer unpacked into it when the collective finishes.
    pub fn output(&mut self, b: TypedBuf) -> Buf {
        if b.contiguous() {
            return Buf::User {
                ptr: b.ptr,
                len: b.bytes(),
            };
        }
        let buf = self.scratch(b.bytes());
        self.unpack_at_finish(buf, b);
        buf
    }

    /// An output buffer that starts out holding `input`'s data (to accumulate into): the
    /// application's memory when contiguous (`input` copied in now; nothing to copy for
    /// MPI_IN_PLACE), else a scratch copy unpacked into it when the collective finishes.
    pub fn accumulator(&mut self, input: TypedBuf, output: TypedBuf) -> Buf {
        if output.contiguous() {
            // SAFETY: MPI: input readable, output writable; the same memory for
            // MPI_IN_PLACE, where the copy does nothing.
            unsafe { copy_typed(input, output) };
            return Buf::User {
                ptr: output.ptr,
                len: output.bytes(),
            };
        }
        let buf = self.scratch_from(input.pack());
        self.unpack_at_finish(buf, output);
        buf
    }

    /// Unpack `buf` into `b` when the collective finishes.
    pub fn unpack_at_finish(&mut self, buf: Buf, b: TypedBuf) {
        let out = b.owned();
        self.at_finish(move |sc| {
            let (p, n) = locate(sc, buf);
            // SAFETY: scratch range from `locate`; the output is the application's
            // receive buffer, valid until completion (now).
            unsafe { out.unpack_from(raw(p, n)) };
            Ok(())
        });
    }

    /// Work to run when everything else is done (in the order added).
    pub fn at_finish(&mut self, f: impl FnMut(&mut [Vec<u8>]) -> Result<()> + 'static) {
        self.finish.push(local(f));
    }

    /// Local copy after the current step.
    pub fn copy(&mut self, src: Buf, dst: Buf) {
        self.work(move |sc| {
            copy_buf(sc, src, dst);
            Ok(())
        });
    }

    /// The tag of this call's messages (for a call run on `coll::direct` instead).
    pub fn tag(&self) -> i32 {
        self.s.tag()
    }

    /// The finished schedule.
    pub fn build(mut self) -> Schedule {
        if !self.finish.is_empty() {
            let mut fs = std::mem::take(&mut self.finish);
            self.s.then(Box::new(move |sc| {
                for f in fs.iter_mut() {
                    f(sc)?;
                }
                Ok(())
            }));
        }
        self.s
    }
}

/// Messages longer than the eager limit but at most this long travel as eager-sized pieces
/// (both ends cut alike: they know the exact length). Pieces go out at once, without the
/// rendezvous handshake, whose round trip costs more than the extra copy when ranks wait
/// on each other (measured on 4 ranks sharing 2 cores: 2× faster bcast and allreduce at
/// 32–64 KiB; no gain from 128 KiB on, where the single copy of a rendezvous wins).
pub const PIECES_UP_TO: usize = 64 * 1024;
/// The piece size when the caller does not give the eager limit (its default).
pub const PIECE: usize = 16 * 1024;

/// `b` cut into k pieces of ⌈len/k⌉ bytes (the last shorter) with k = ⌈len/piece⌉: equal
/// pieces, so that messages of different lengths mostly differ in some piece and a
/// mismatch is still reported as truncation (not when both lengths are whole multiples
/// of the piece size: then the shorter receive takes a prefix without complaint).
fn pieces(b: Buf, piece: usize) -> impl Iterator<Item = Buf> {
    let len = buf_len(b);
    let (size, k) = if piece > 0 && len > piece && len <= PIECES_UP_TO {
        let k = len.div_ceil(piece);
        (len.div_ceil(k), k)
    } else {
        (len.max(1), 1)
    };
    (0..k).map(move |i| {
        let off = (i * size).min(len);
        sub(b, off, size.min(len - off))
    })
}

#[cfg(test)]
pub(crate) fn pieces_for_test(b: Buf, piece: usize) -> impl Iterator<Item = Buf> {
    pieces(b, piece)
}

/// Largest power of two ≤ n (n ≥ 1).
pub fn pof2_floor(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

/// Copy between two typed buffers (same type signature) right now.
///
/// # Safety
/// MPI's contract: `src` readable, `dst` writable, not overlapping.
pub unsafe fn copy_typed(src: TypedBuf, dst: TypedBuf) {
    if src.contiguous() && dst.contiguous() {
        let n = src.bytes().min(dst.bytes());
        if n > 0 && src.ptr != dst.ptr {
            std::ptr::copy(src.ptr, dst.ptr, n);
        }
        return;
    }
    let v = src.pack();
    dst.unpack_from(&v);
}
