//! The type constructors (MPI_Type_contiguous … MPI_Type_create_darray).
//!
//! Each builds the flattened segment list of one element and computes the bounds the way
//! MPICH 4 does (its yaksa engine), corner cases included: a type of total size 0 is the
//! empty type (bounds 0); an hindexed/struct block of length 0 does not count towards the
//! bounds, but a vector with block length 0 does; a negative extent moves the lower bound;
//! a struct of different member types has its extent padded to its largest member
//! alignment, one of a single member type does not; MPI_LB / MPI_UB markers resize the
//! struct of the remaining members (the last marker of each kind wins). Subarray and darray
//! are built from the other constructors exactly as MPICH builds them, so they agree too.

use super::external32::Ext;
use super::{fresh_ident, push_elements, Basic, Datatype, Segments, TypeError};
use crate::error::ErrorClass;
use crate::mpi_err;

type Result<T> = std::result::Result<T, TypeError>;

/// A type's own segment list may not grow beyond this many blocks (32 bytes each), nor its
/// other run lists beyond this many runs.
const MAX_SEGMENTS: usize = 1 << 27;

/// Storage order of the arrays that subarray and darray types describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    C,
    Fortran,
}

/// Distribution of one darray dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distrib {
    Block,
    Cyclic,
    None,
}

/// A member of a struct type: a datatype, or one of the deprecated MPI_LB / MPI_UB markers.
#[derive(Clone, Copy)]
pub enum Member<'a> {
    Type(&'a Datatype),
    Lb,
    Ub,
}

/// Bounds in wide arithmetic (checked into `isize` at the end).
#[derive(Clone, Copy)]
struct Bounds {
    lb: i128,
    ub: i128,
    tlb: i128,
    tub: i128,
}

impl Bounds {
    fn of(t: &Datatype) -> Self {
        Bounds {
            lb: t.lb as i128,
            ub: t.ub() as i128,
            tlb: t.true_lb as i128,
            tub: t.true_ub() as i128,
        }
    }

    /// Blocks of `bl` copies of `t` at displacements spanning `min_disp..=max_disp`.
    fn uniform(t: &Datatype, min_disp: i128, max_disp: i128, bl: i128) -> Self {
        let o = Bounds::of(t);
        let ext = t.extent as i128;
        let lb = min_disp + o.lb + if ext < 0 { ext * (bl - 1) } else { 0 };
        let ub = max_disp + o.ub + if ext > 0 { ext * (bl - 1) } else { 0 };
        Bounds {
            lb,
            ub,
            tlb: lb - o.lb + o.tlb,
            tub: ub - o.ub + o.tub,
        }
    }

    fn union(self, b: Bounds) -> Self {
        Bounds {
            lb: self.lb.min(b.lb),
            ub: self.ub.max(b.ub),
            tlb: self.tlb.min(b.tlb),
            tub: self.tub.max(b.tub),
        }
    }
}

fn narrow(v: i128) -> Result<isize> {
    isize::try_from(v).map_err(|_| TypeError::Overflow)
}

fn nonneg(v: i64) -> Result<usize> {
    usize::try_from(v).map_err(|_| TypeError::InvalidCount)
}

/// `push_elements` for external32 runs: adjacent runs of one size and form merge.
fn push_ext(runs: &mut Vec<(usize, usize, Ext)>, size: usize, n: usize, e: Ext) {
    if n == 0 {
        return;
    }
    match runs.last_mut() {
        Some(last) if last.0 == size && last.2 == e => last.1 += n,
        _ => runs.push((size, n, e)),
    }
}

/// A new derived type from its parts.
struct Builder {
    size: u128,
    segments: Segments,
    elements: Vec<(usize, usize)>,
    /// `Datatype::ext32`: kept once a member has values of another external32 width.
    ext32: Option<Vec<(usize, usize, Ext)>>,
    /// None: no block yet; Some(None): members of different basic types.
    basic: Option<Option<(Basic, usize)>>,
}

impl Builder {
    fn new() -> Self {
        Builder {
            size: 0,
            segments: Segments::new(),
            elements: Vec::new(),
            ext32: None,
            basic: None,
        }
    }

    /// Append `n` copies of `t` at `base`, `base + step`, ….
    fn copies(&mut self, t: &Datatype, base: isize, n: usize, step: isize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        if let Some((off, len)) = t.segments.single() {
            // One run each: a stride (one run when they abut), stored as one block.
            len.checked_mul(n).ok_or(TypeError::Overflow)?;
            self.segments.push_strided(base + off, len, n, step);
        } else {
            for i in 0..n {
                self.segments
                    .push_shifted(&t.segments, base + i as isize * step);
                if self.segments.block_count() > MAX_SEGMENTS {
                    return Err(TypeError::Overflow);
                }
            }
        }
        self.count(t, n)
    }

    /// `n` blocks of `bl` copies of `t`, the blocks `stride` bytes apart (a vector): the
    /// blocks' runs as one stride when each block is one run, without a step per block.
    fn strided(&mut self, t: &Datatype, n: usize, bl: usize, stride: isize) -> Result<()> {
        match t.segments.single() {
            Some((off, len)) if bl == 1 || len as isize == t.extent => {
                let blen = len.checked_mul(bl).ok_or(TypeError::Overflow)?;
                blen.checked_mul(n).ok_or(TypeError::Overflow)?;
                self.segments.push_strided(off, blen, n, stride);
                self.count(t, n.checked_mul(bl).ok_or(TypeError::Overflow)?)
            }
            _ => {
                for i in 0..n {
                    self.copies(t, narrow(i as i128 * stride as i128)?, bl, t.extent)?;
                }
                Ok(())
            }
        }
    }

    /// The size, basic elements and external32 runs of `n` more copies of `t` (in type-map
    /// order, wherever they lie).
    fn count(&mut self, t: &Datatype, n: usize) -> Result<()> {
        self.size += t.size as u128 * n as u128;
        if t.ext32.is_some() && self.ext32.is_none() {
            let native = self.elements.iter().map(|&(s, k)| (s, k, Ext::Native));
            self.ext32 = Some(native.collect());
        }
        if let Some(runs) = &mut self.ext32 {
            let theirs: Vec<(usize, usize, Ext)> = match &t.ext32 {
                Some(r) => r.clone(),
                None => t
                    .elements
                    .iter()
                    .map(|&(s, k)| (s, k, Ext::Native))
                    .collect(),
            };
            if let [(s, k, e)] = theirs[..] {
                push_ext(runs, s, k.checked_mul(n).ok_or(TypeError::Overflow)?, e);
            } else {
                for _ in 0..n {
                    for &(s, k, e) in &theirs {
                        push_ext(runs, s, k, e);
                    }
                    if runs.len() > MAX_SEGMENTS {
                        return Err(TypeError::Overflow);
                    }
                }
            }
        }
        if t.elements.len() == 1 {
            let (s, k) = t.elements[0];
            push_elements(
                &mut self.elements,
                s,
                k.checked_mul(n).ok_or(TypeError::Overflow)?,
            );
        } else if !t.elements.is_empty() {
            for _ in 0..n {
                for &(s, k) in &t.elements {
                    push_elements(&mut self.elements, s, k);
                }
                if self.elements.len() > MAX_SEGMENTS {
                    return Err(TypeError::Overflow);
                }
            }
        }
        if t.size > 0 {
            let b = t.basic.map(|(b, k)| (b, k * n));
            self.basic = Some(match (self.basic, b) {
                (None, b) => b,
                (Some(Some((x, m))), Some((y, k))) if x == y => Some((x, m + k)),
                _ => None,
            });
        }
        Ok(())
    }

    /// The type; `fallback` is the basic type to report when no block holds data.
    fn finish(
        self,
        b: Bounds,
        align: usize,
        ident: u64,
        fallback: Option<(Basic, usize)>,
    ) -> Result<Datatype> {
        let lb = narrow(b.lb)?;
        let ub = narrow(b.ub)?;
        let tlb = narrow(b.tlb)?;
        let tub = narrow(b.tub)?;
        Ok(Datatype {
            name: String::new(),
            size: usize::try_from(self.size).map_err(|_| TypeError::Overflow)?,
            lb,
            extent: narrow(ub as i128 - lb as i128)?,
            true_lb: tlb,
            true_extent: narrow(tub as i128 - tlb as i128)?,
            segments: self.segments,
            basic: match self.basic {
                Some(b) => b,
                None => fallback.map(|(b, _)| (b, 0)),
            },
            committed: false,
            predefined: false,
            align,
            elements: self.elements,
            ext32: self.ext32,
            ident,
        })
    }
}

/// The empty type a constructor yields when its data has size 0 (keeps the basic type of
/// `old` for reductions on zero elements).
fn empty_of(old: Option<&Datatype>) -> Datatype {
    let mut d = Datatype::empty();
    d.basic = old.and_then(|o| o.basic.map(|(b, _)| (b, 0)));
    d
}

impl Datatype {
    /// MPI_Type_contiguous.
    pub fn contiguous(count: i64, old: &Datatype) -> Result<Self> {
        let n = nonneg(count)?;
        if n == 0 || old.size == 0 {
            return Ok(empty_of(Some(old)));
        }
        let mut b = Builder::new();
        b.copies(old, 0, n, old.extent)?;
        let ident = if n == 1 { old.ident } else { fresh_ident() };
        b.finish(
            Bounds::uniform(old, 0, 0, n as i128),
            old.align,
            ident,
            old.basic,
        )
    }

    /// MPI_Type_vector: `stride` in multiples of the old type's extent.
    pub fn vector(count: i64, blocklength: i64, stride: i64, old: &Datatype) -> Result<Self> {
        let stride = (stride as i128)
            .checked_mul(old.extent as i128)
            .ok_or(TypeError::Overflow)?;
        Self::hvector(count, blocklength, narrow(stride)?, old)
    }

    /// MPI_Type_create_hvector: `stride` in bytes.
    pub fn hvector(count: i64, blocklength: i64, stride: isize, old: &Datatype) -> Result<Self> {
        let n = nonneg(count)?;
        let bl = nonneg(blocklength)?;
        if n == 0 || old.size == 0 {
            return Ok(empty_of(Some(old)));
        }
        let mut b = Builder::new();
        if stride as i128 == old.extent as i128 * bl as i128 {
            // Blocks abut: the same as count * blocklength contiguous copies.
            b.copies(
                old,
                0,
                n.checked_mul(bl).ok_or(TypeError::Overflow)?,
                old.extent,
            )?;
        } else {
            b.strided(old, n, bl, stride)?;
        }
        let span = stride as i128 * (n as i128 - 1);
        let bounds = Bounds::uniform(old, span.min(0), span.max(0), bl as i128);
        let ident = if n == 1 && bl == 1 {
            old.ident
        } else {
            fresh_ident()
        };
        b.finish(bounds, old.align, ident, old.basic)
    }

    /// MPI_Type_indexed: displacements in multiples of the old type's extent.
    pub fn indexed(blocklengths: &[i64], displacements: &[i64], old: &Datatype) -> Result<Self> {
        let d = scale(displacements, old.extent)?;
        Self::hindexed(blocklengths, &d, old)
    }

    /// MPI_Type_create_hindexed: displacements in bytes.
    pub fn hindexed(blocklengths: &[i64], displacements: &[isize], old: &Datatype) -> Result<Self> {
        let bls = blocklengths
            .iter()
            .map(|&b| nonneg(b))
            .collect::<Result<Vec<_>>>()?;
        let total: u128 = bls.iter().map(|&b| b as u128).sum();
        if total * old.size as u128 == 0 {
            return Ok(empty_of(Some(old)));
        }
        if bls.iter().all(|&b| b == bls[0]) {
            return Self::block_displaced(bls[0], displacements, old);
        }
        let mut b = Builder::new();
        let mut bounds: Option<Bounds> = None;
        for (&bl, &d) in bls.iter().zip(displacements) {
            if bl == 0 {
                continue;
            }
            b.copies(old, d, bl, old.extent)?;
            let bb = Bounds::uniform(old, d as i128, d as i128, bl as i128);
            bounds = Some(bounds.map_or(bb, |a| a.union(bb)));
        }
        let bounds = bounds.expect("a block of nonzero length");
        b.finish(bounds, old.align, fresh_ident(), old.basic)
    }

    /// MPI_Type_create_indexed_block: displacements in multiples of the old extent.
    pub fn indexed_block(blocklength: i64, displacements: &[i64], old: &Datatype) -> Result<Self> {
        let d = scale(displacements, old.extent)?;
        Self::hindexed_block(blocklength, &d, old)
    }

    /// MPI_Type_create_hindexed_block: displacements in bytes.
    pub fn hindexed_block(
        blocklength: i64,
        displacements: &[isize],
        old: &Datatype,
    ) -> Result<Self> {
        let bl = nonneg(blocklength)?;
        if displacements.is_empty() || old.size == 0 {
            return Ok(empty_of(Some(old)));
        }
        Self::block_displaced(bl, displacements, old)
    }

    /// Blocks of one length at byte displacements (count > 0, old.size > 0).
    fn block_displaced(bl: usize, displacements: &[isize], old: &Datatype) -> Result<Self> {
        let mut b = Builder::new();
        for &d in displacements {
            b.copies(old, d, bl, old.extent)?;
        }
        let min = *displacements.iter().min().expect("count > 0") as i128;
        let max = *displacements.iter().max().expect("count > 0") as i128;
        let ident = if displacements.len() == 1 && displacements[0] == 0 && bl == 1 {
            old.ident
        } else {
            fresh_ident()
        };
        b.finish(
            Bounds::uniform(old, min, max, bl as i128),
            old.align,
            ident,
            old.basic,
        )
    }

    /// MPI_Type_create_struct (and MPI_Type_struct, with MPI_LB / MPI_UB markers).
    pub fn structure(
        blocklengths: &[i64],
        displacements: &[isize],
        members: &[Member<'_>],
    ) -> Result<Self> {
        let bls = blocklengths
            .iter()
            .map(|&b| nonneg(b))
            .collect::<Result<Vec<_>>>()?;
        let n = bls.len().min(displacements.len()).min(members.len());
        let mut real_bl = Vec::with_capacity(n);
        let mut real_disp = Vec::with_capacity(n);
        let mut real_types = Vec::with_capacity(n);
        let (mut lb_mark, mut ub_mark) = (None, None);
        for i in 0..n {
            match members[i] {
                Member::Type(t) => {
                    real_bl.push(bls[i]);
                    real_disp.push(displacements[i]);
                    real_types.push(t);
                }
                Member::Lb => lb_mark = Some(displacements[i]),
                Member::Ub => ub_mark = Some(displacements[i]),
            }
        }
        let has_markers = real_types.len() < n;
        let t = Self::plain_struct(&real_bl, &real_disp, &real_types)?;
        if !has_markers {
            return Ok(t);
        }
        let lb = lb_mark.unwrap_or(t.lb);
        let ub = ub_mark.unwrap_or(t.ub());
        Self::resized(&t, lb, narrow(ub as i128 - lb as i128)?)
    }

    fn plain_struct(bls: &[usize], displs: &[isize], types: &[&Datatype]) -> Result<Self> {
        let total: u128 = bls
            .iter()
            .zip(types)
            .map(|(&b, t)| b as u128 * t.size as u128)
            .sum();
        if total == 0 {
            return Ok(Datatype::empty());
        }
        if types.iter().all(|t| t.ident == types[0].ident) {
            // One representation: laid out as hindexed (no padding), as MPICH does.
            let bl: Vec<i64> = bls.iter().map(|&b| b as i64).collect();
            let mut d = Self::hindexed(&bl, displs, types[0])?;
            d.basic = struct_basic(types, bls);
            return Ok(d);
        }
        let mut b = Builder::new();
        let mut bounds: Option<Bounds> = None;
        let mut align = 0;
        for ((&bl, &d), &t) in bls.iter().zip(displs).zip(types) {
            if bl == 0 {
                continue;
            }
            b.copies(t, d, bl, t.extent)?;
            let bb = Bounds::uniform(t, d as i128, d as i128, bl as i128);
            bounds = Some(bounds.map_or(bb, |a| a.union(bb)));
            align = align.max(t.align);
        }
        let mut bounds = bounds.expect("a block of nonzero size");
        let align = align.max(1);
        let rem = (bounds.ub - bounds.lb) % align as i128;
        if rem != 0 {
            bounds.ub += align as i128 - rem;
        }
        let mut d = b.finish(bounds, align, fresh_ident(), None)?;
        d.basic = struct_basic(types, bls);
        Ok(d)
    }

    /// MPI_Type_create_resized.
    pub fn resized(old: &Datatype, lb: isize, extent: isize) -> Result<Self> {
        let mut d = old.clone();
        d.name = String::new();
        d.committed = false;
        d.predefined = false;
        if lb != old.lb || extent != old.extent {
            d.ident = fresh_ident();
        }
        d.lb = lb;
        d.extent = extent;
        narrow(lb as i128 + extent as i128)?;
        Ok(d)
    }

    /// MPI_Type_dup (a committed copy).
    pub fn dup(old: &Datatype) -> Self {
        let mut d = old.clone();
        d.name = String::new();
        d.predefined = false;
        d.committed = true;
        d
    }

    /// MPI_Type_create_subarray (arguments already checked: sizes > 0, 0 <= subsizes,
    /// 0 <= starts, starts + subsizes <= sizes, at least one dimension).
    pub fn subarray(
        sizes: &[i64],
        subsizes: &[i64],
        starts: &[i64],
        order: Order,
        old: &Datatype,
    ) -> Result<Self> {
        let nd = sizes.len();
        if nd == 0 || subsizes.len() != nd || starts.len() != nd {
            return Err(TypeError::InvalidCount);
        }
        let extent = old.extent as i128;
        let mul = |a: i128, b: i64| a.checked_mul(b as i128).ok_or(TypeError::Overflow);
        let mut disp: i128;
        let mut tmp;
        match order {
            Order::Fortran => {
                if nd == 1 {
                    tmp = Self::contiguous(subsizes[0], old)?;
                } else {
                    tmp = Self::vector(subsizes[1], subsizes[0], sizes[0], old)?;
                    let mut size = mul(extent, sizes[0])?;
                    for i in 2..nd {
                        size = mul(size, sizes[i - 1])?;
                        tmp = Self::hvector(subsizes[i], 1, narrow(size)?, &tmp)?;
                    }
                }
                disp = starts[0] as i128;
                let mut size = 1i128;
                for i in 1..nd {
                    size = mul(size, sizes[i - 1])?;
                    disp += mul(size, starts[i])?;
                }
            }
            Order::C => {
                if nd == 1 {
                    tmp = Self::contiguous(subsizes[0], old)?;
                } else {
                    tmp = Self::vector(subsizes[nd - 2], subsizes[nd - 1], sizes[nd - 1], old)?;
                    let mut size = mul(extent, sizes[nd - 1])?;
                    for i in (0..nd.saturating_sub(2)).rev() {
                        size = mul(size, sizes[i + 1])?;
                        tmp = Self::hvector(subsizes[i], 1, narrow(size)?, &tmp)?;
                    }
                }
                disp = starts[nd - 1] as i128;
                let mut size = 1i128;
                for i in (0..nd - 1).rev() {
                    size = mul(size, sizes[i + 1])?;
                    disp += mul(size, starts[i])?;
                }
            }
        }
        let disp = narrow(disp.checked_mul(extent).ok_or(TypeError::Overflow)?)?;
        let mut full = extent;
        for &s in sizes {
            full = mul(full, s)?;
        }
        let placed = Self::hindexed_block(1, &[disp], &tmp)?;
        Self::resized(&placed, 0, narrow(full)?)
    }

    /// MPI_Type_create_subarray's argument checks (MPI_ERR_ARG): each size positive, each
    /// subsize in 0..=size, each start in 0..=size - subsize.
    pub fn check_subarray(
        sizes: &[i64],
        subsizes: &[i64],
        starts: &[i64],
    ) -> crate::error::Result<()> {
        for (i, ((&s, &ss), &st)) in sizes.iter().zip(subsizes).zip(starts).enumerate() {
            if s <= 0 {
                return mpi_err!(Arg, "array_of_sizes[{i}] = {s} must be positive");
            }
            if ss < 0 || ss > s {
                return mpi_err!(Arg, "array_of_subsizes[{i}] = {ss} is not in 0..={s}");
            }
            if st < 0 || st > s - ss {
                return mpi_err!(
                    Arg,
                    "array_of_starts[{i}] = {st} is not in 0..={} (size {s}, subsize {ss})",
                    s - ss
                );
            }
        }
        Ok(())
    }

    /// MPI_Type_create_darray's argument checks (MPI_ERR_ARG): each global size and
    /// process count positive, one process along an undistributed dimension, each
    /// distribution argument but MPI_DISTRIBUTE_DFLT_DARG positive and covering its block
    /// dimension, a process grid of `size` processes.
    pub fn check_darray(
        size: i64,
        gsizes: &[i64],
        distribs: &[Distrib],
        dargs: &[i64],
        psizes: &[i64],
    ) -> crate::error::Result<()> {
        let mut procs: i64 = 1;
        for (i, &g) in gsizes.iter().enumerate() {
            let (d, a, p) = (distribs[i], dargs[i], psizes[i]);
            if g <= 0 {
                return mpi_err!(Arg, "array_of_gsizes[{i}] = {g} must be positive");
            }
            if p <= 0 {
                return mpi_err!(Arg, "array_of_psizes[{i}] = {p} must be positive");
            }
            procs = procs.saturating_mul(p);
            if d == Distrib::None && p != 1 {
                return mpi_err!(Arg, "MPI_DISTRIBUTE_NONE needs array_of_psizes[{i}] = 1");
            }
            if a != DFLT_DARG {
                if a <= 0 && d != Distrib::None {
                    return mpi_err!(Arg, "array_of_dargs[{i}] = {a} must be positive");
                }
                if d == Distrib::Block && a.saturating_mul(p) < g {
                    return mpi_err!(
                        Arg,
                        "block size {a} times {p} processes does not cover {g} elements"
                    );
                }
            }
        }
        if procs != size {
            return mpi_err!(Arg, "the process grid holds {procs} processes, not {size}");
        }
        Ok(())
    }

    /// MPI_Type_create_darray (arguments checked by `check_darray`, and ndims > 0);
    /// arguments it cannot place are MPI_ERR_ARG.
    #[allow(clippy::too_many_arguments)]
    pub fn darray(
        size: i64,
        rank: i64,
        gsizes: &[i64],
        distribs: &[Distrib],
        dargs: &[i64],
        psizes: &[i64],
        order: Order,
        old: &Datatype,
    ) -> crate::error::Result<Self> {
        Self::darray_of(size, rank, gsizes, distribs, dargs, psizes, order, old).map_err(
            |e| match e {
                TypeError::InvalidCount => {
                    crate::error::Error::new(ErrorClass::Arg, "invalid darray arguments")
                }
                e => e.into(),
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn darray_of(
        size: i64,
        rank: i64,
        gsizes: &[i64],
        distribs: &[Distrib],
        dargs: &[i64],
        psizes: &[i64],
        order: Order,
        old: &Datatype,
    ) -> Result<Self> {
        let nd = gsizes.len();
        if nd == 0 || distribs.len() != nd || dargs.len() != nd || psizes.len() != nd {
            return Err(TypeError::InvalidCount);
        }
        // Position in the process grid, row-major as MPI_Cart_create numbers it.
        let mut coords = vec![0i64; nd];
        let (mut procs, mut r) = (size, rank);
        for i in 0..nd {
            if psizes[i] <= 0 {
                return Err(TypeError::InvalidCount);
            }
            procs /= psizes[i];
            if procs <= 0 {
                return Err(TypeError::InvalidCount);
            }
            coords[i] = r / procs;
            r %= procs;
        }
        let orig_extent = old.extent as i128;
        let dims: Vec<usize> = match order {
            Order::Fortran => (0..nd).collect(),
            Order::C => (0..nd).rev().collect(),
        };
        let mut st_offsets = vec![0i128; nd];
        let mut t = old.clone();
        for &i in &dims {
            let (np, coord, darg) = match (distribs[i], order) {
                (Distrib::None, Order::Fortran) => (1, 0, DFLT_DARG),
                (Distrib::None, Order::C) => (psizes[i], coords[i], DFLT_DARG),
                _ => (psizes[i], coords[i], dargs[i]),
            };
            let d = DarrayDim {
                gsizes,
                dim: i,
                nprocs: np,
                rank: coord,
                darg,
                order,
                orig_extent,
            };
            let (nt, off) = match distribs[i] {
                Distrib::Cyclic => d.cyclic(&t)?,
                _ => d.block(&t)?,
            };
            t = nt;
            st_offsets[i] = off;
        }
        let mut disp: i128;
        let mut tmp_size = 1i128;
        match order {
            Order::Fortran => {
                disp = st_offsets[0];
                for i in 1..nd {
                    tmp_size *= gsizes[i - 1] as i128;
                    disp += tmp_size * st_offsets[i];
                }
            }
            Order::C => {
                disp = st_offsets[nd - 1];
                for i in (0..nd - 1).rev() {
                    tmp_size *= gsizes[i + 1] as i128;
                    disp += tmp_size * st_offsets[i];
                }
            }
        }
        let disp = narrow(disp * orig_extent)?;
        let mut full = orig_extent;
        for &g in gsizes {
            full = full.checked_mul(g as i128).ok_or(TypeError::Overflow)?;
        }
        let placed = Self::hindexed_block(1, &[disp], &t)?;
        Self::resized(&placed, 0, narrow(full)?)
    }
}

/// MPI_DISTRIBUTE_DFLT_DARG.
pub const DFLT_DARG: i64 = -49767;

/// One dimension of a darray (MPICH's MPIR_Type_block / MPIR_Type_cyclic).
struct DarrayDim<'a> {
    gsizes: &'a [i64],
    dim: usize,
    nprocs: i64,
    rank: i64,
    darg: i64,
    order: Order,
    orig_extent: i128,
}

impl DarrayDim<'_> {
    /// Whether this is the dimension that varies fastest.
    fn fastest(&self) -> bool {
        match self.order {
            Order::Fortran => self.dim == 0,
            Order::C => self.dim == self.gsizes.len() - 1,
        }
    }

    /// Bytes between consecutive indices of this dimension.
    fn stride(&self) -> Result<i128> {
        let mut s = self.orig_extent;
        let range: Vec<usize> = match self.order {
            Order::Fortran => (0..self.dim).collect(),
            Order::C => (self.dim + 1..self.gsizes.len()).collect(),
        };
        for i in range {
            s = s
                .checked_mul(self.gsizes[i] as i128)
                .ok_or(TypeError::Overflow)?;
        }
        Ok(s)
    }

    fn resize_to_dim(&self, t: &Datatype, old: &Datatype) -> Result<Datatype> {
        let ex = old.extent as i128 * self.gsizes[self.dim] as i128;
        Datatype::resized(t, 0, narrow(ex)?)
    }

    fn block(&self, old: &Datatype) -> Result<(Datatype, i128)> {
        let global = self.gsizes[self.dim];
        let blksize = if self.darg == DFLT_DARG {
            (global + self.nprocs - 1) / self.nprocs
        } else {
            self.darg
        };
        if blksize <= 0 || blksize.saturating_mul(self.nprocs) < global {
            return Err(TypeError::InvalidCount);
        }
        let mysize = blksize.min(global - blksize * self.rank).max(0);
        let t = if self.fastest() {
            Datatype::contiguous(mysize, old)?
        } else {
            Datatype::hvector(mysize, 1, narrow(self.stride()?)?, old)?
        };
        let off = if mysize == 0 {
            0
        } else {
            blksize as i128 * self.rank as i128
        };
        Ok((self.resize_to_dim(&t, old)?, off))
    }

    fn cyclic(&self, old: &Datatype) -> Result<(Datatype, i128)> {
        let blksize = if self.darg == DFLT_DARG { 1 } else { self.darg };
        if blksize <= 0 {
            return Err(TypeError::InvalidCount);
        }
        let st_index = self.rank * blksize;
        let end_index = self.gsizes[self.dim] - 1;
        let local_size = if end_index < st_index {
            0
        } else {
            let span = end_index - st_index + 1;
            let per = self.nprocs * blksize;
            (span / per) * blksize + (span % per).min(blksize)
        };
        let count = local_size / blksize;
        let rem = local_size % blksize;
        let stride = self.nprocs as i128 * blksize as i128 * self.stride()?;
        let mut t = Datatype::hvector(count, blksize, narrow(stride)?, old)?;
        if rem != 0 {
            // The last, shorter block as a struct member of its own.
            t = Datatype::structure(
                &[1, rem],
                &[0, narrow(count as i128 * stride)?],
                &[Member::Type(&t), Member::Type(old)],
            )?;
        }
        let mut off = self.rank as i128 * blksize as i128;
        if self.fastest() {
            let disp = narrow(self.rank as i128 * blksize as i128 * self.orig_extent)?;
            let placed = Datatype::hindexed_block(1, &[disp], &t)?;
            let ex = self.orig_extent * self.gsizes[self.dim] as i128;
            t = Datatype::resized(&placed, 0, narrow(ex)?)?;
            off = 0;
        }
        if local_size == 0 {
            off = 0;
        }
        Ok((self.resize_to_dim(&t, old)?, off))
    }
}

/// Element displacements to byte displacements.
fn scale(displacements: &[i64], extent: isize) -> Result<Vec<isize>> {
    displacements
        .iter()
        .map(|&d| narrow(d as i128 * extent as i128))
        .collect()
}

/// A struct is `n` values of one basic type when every member that holds data is.
fn struct_basic(types: &[&Datatype], bls: &[usize]) -> Option<(Basic, usize)> {
    let mut acc: Option<(Basic, usize)> = None;
    for (t, &bl) in types.iter().zip(bls) {
        if bl == 0 || t.size == 0 {
            continue;
        }
        let (b, k) = t.basic?;
        acc = match acc {
            None => Some((b, k * bl)),
            Some((a, m)) if a == b => Some((a, m + k * bl)),
            Some(_) => return None,
        };
    }
    acc
}
