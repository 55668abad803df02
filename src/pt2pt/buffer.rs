//! Message buffers as the engine sees them: one contiguous range, or a list of runs
//! (absolute address, length) that a derived datatype flattens to. Runs go to the rails as
//! iovecs, so a strided message is never packed into a temporary.

/// One run of a non-contiguous buffer. `repr(C)` because a sender's run table is read by
/// its peer (with CMA) as an array of native-endian `(u64 addr, u64 len)` pairs.
pub use crate::fabric::Span as Run;

/// Bytes of one run table entry on the wire.
pub const RUN_ENTRY: usize = std::mem::size_of::<Run>();

/// Most entries a peer's run table may have (bounds what a receiver allocates for it).
pub const MAX_RUN_TABLE: u64 = 1 << 24;

/// The runs of part of a message: one run kept inline (a contiguous buffer, the common
/// case: no allocation per transfer), or a list.
pub enum RunList {
    One([Run; 1]),
    Many(Vec<Run>),
}

impl std::ops::Deref for RunList {
    type Target = [Run];
    fn deref(&self) -> &[Run] {
        match self {
            RunList::One(r) => r,
            RunList::Many(v) => v,
        }
    }
}

/// Where a message's bytes live in the application's memory.
#[derive(Debug)]
pub enum MsgBuf {
    Contig {
        ptr: *mut u8,
        len: usize,
    },
    /// Runs in message order, none empty; `hint` remembers (run index, its message offset)
    /// of the last lookup, since streamed pieces arrive in order.
    Runs {
        runs: Box<[Run]>,
        total: usize,
        hint: (usize, usize),
    },
}

impl MsgBuf {
    pub fn contig(ptr: *const u8, len: usize) -> Self {
        MsgBuf::Contig {
            ptr: ptr as *mut u8,
            len,
        }
    }

    /// A buffer from runs at offsets relative to `base` (what `Datatype::runs` yields,
    /// adjacent runs already merged). A single run is a contiguous buffer.
    pub fn from_runs(base: *const u8, runs: impl Iterator<Item = (isize, usize)>) -> Self {
        let runs: Vec<Run> = runs
            .filter(|&(_, len)| len > 0)
            .map(|(off, len)| Run {
                addr: (base as usize).wrapping_add_signed(off) as u64,
                len: len as u64,
            })
            .collect();
        match runs.len() {
            0 => MsgBuf::contig(base, 0),
            1 => MsgBuf::contig(runs[0].addr as *const u8, runs[0].len as usize),
            _ => MsgBuf::Runs {
                total: runs.iter().map(|r| r.len as usize).sum(),
                runs: runs.into_boxed_slice(),
                hint: (0, 0),
            },
        }
    }

    pub fn len(&self) -> usize {
        match self {
            MsgBuf::Contig { len, .. } => *len,
            MsgBuf::Runs { total, .. } => *total,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The address range spanning every byte of the buffer (None when empty): what a
    /// registration covers.
    pub fn span(&self) -> Option<(usize, usize)> {
        match self {
            MsgBuf::Contig { len: 0, .. } => None,
            MsgBuf::Contig { ptr, len } => Some((*ptr as usize, *len)),
            MsgBuf::Runs { runs, .. } => {
                let lo = runs.iter().map(|r| r.addr).min()?;
                let hi = runs.iter().map(|r| r.addr + r.len).max()?;
                Some((lo as usize, (hi - lo) as usize))
            }
        }
    }

    /// Mean run length in bytes (contiguous: unbounded).
    pub fn mean_run(&self) -> usize {
        match self {
            MsgBuf::Contig { .. } => usize::MAX,
            MsgBuf::Runs { runs, total, .. } => total / runs.len(),
        }
    }

    /// The message bytes, packed into a new buffer.
    ///
    /// # Safety
    /// The buffer must be readable (the send's contract).
    pub unsafe fn pack(&mut self) -> Box<[u8]> {
        let mut out = vec![0u8; self.len()].into_boxed_slice();
        let mut dst = out.as_mut_ptr();
        self.pieces(0, out.len(), |a, l| {
            // SAFETY: (a, l) lies in the send buffer (caller's contract); `dst` walks `out`,
            // and the pieces add up to the buffer's length, which `out` has.
            unsafe {
                copy_run(a as *const u8, dst, l);
                dst = dst.add(l);
            }
        });
        out
    }

    pub fn is_contiguous(&self) -> bool {
        matches!(self, MsgBuf::Contig { .. })
    }

    /// Call `f(addr, len)` for the pieces that hold message bytes `[offset, offset + n)`,
    /// clipped to the buffer's length.
    pub fn pieces(&mut self, offset: usize, n: usize, mut f: impl FnMut(usize, usize)) {
        let end = offset.saturating_add(n).min(self.len());
        if offset >= end {
            return;
        }
        match self {
            MsgBuf::Contig { ptr, .. } => f(*ptr as usize + offset, end - offset),
            MsgBuf::Runs { runs, hint, .. } => {
                let (mut i, mut start) = if offset >= hint.1 { *hint } else { (0, 0) };
                while start + runs[i].len as usize <= offset {
                    start += runs[i].len as usize;
                    i += 1;
                }
                *hint = (i, start);
                let mut at = offset;
                while at < end {
                    let r = runs[i];
                    let skip = at - start;
                    let take = (r.len as usize - skip).min(end - at);
                    f(r.addr as usize + skip, take);
                    at += take;
                    start += r.len as usize;
                    i += 1;
                }
            }
        }
    }

    /// The runs covering message bytes `[offset, offset + n)` (the local side of a
    /// vectored transfer).
    pub fn runs_at(&mut self, offset: usize, n: usize) -> RunList {
        if let MsgBuf::Contig { ptr, len } = *self {
            let end = offset.saturating_add(n).min(len);
            if offset < end {
                return RunList::One([Run {
                    addr: ptr as u64 + offset as u64,
                    len: (end - offset) as u64,
                }]);
            }
        }
        let mut v = Vec::new();
        self.pieces(offset, n, |a, l| {
            v.push(Run {
                addr: a as u64,
                len: l as u64,
            })
        });
        RunList::Many(v)
    }

    /// Copy `bytes` into message offset `offset`; bytes past the buffer are dropped.
    ///
    /// # Safety
    /// The buffer must be writable (the receive's contract).
    #[inline(always)]
    pub unsafe fn scatter(&mut self, offset: usize, bytes: &[u8]) {
        // The common case inline: one contiguous buffer the bytes fit in.
        if let MsgBuf::Contig { ptr, len } = *self {
            if offset <= len && bytes.len() <= len - offset {
                // SAFETY: [offset, offset + bytes.len()) lies in the buffer, writable
                // (caller's contract); `bytes` is ours, not the application's buffer.
                unsafe { copy_run(bytes.as_ptr(), ptr.add(offset), bytes.len()) };
                return;
            }
        }
        // SAFETY: the caller's contract.
        unsafe { self.scatter_pieces(offset, bytes) }
    }

    /// `scatter` through `pieces` (runs, or bytes past a contiguous buffer's end).
    ///
    /// # Safety
    /// As for `scatter`.
    #[inline(never)]
    unsafe fn scatter_pieces(&mut self, offset: usize, bytes: &[u8]) {
        let mut src = bytes.as_ptr();
        self.pieces(offset, bytes.len(), |a, l| {
            // SAFETY: (a, l) lies in the receive buffer (caller); `src` walks `bytes`, and
            // the pieces add up to at most bytes.len().
            unsafe {
                copy_run(src, a as *mut u8, l);
                src = src.add(l);
            }
        });
    }

    /// The slices holding message bytes `[offset, offset + n)`, appended to `out`.
    ///
    /// # Safety
    /// The buffer must stay readable while the slices are used (the send's contract).
    pub unsafe fn gather(&mut self, offset: usize, n: usize, out: &mut Vec<&[u8]>) {
        self.pieces(offset, n, |a, l| {
            // SAFETY: (a, l) lies in the send buffer (caller's contract).
            out.push(unsafe { std::slice::from_raw_parts(a as *const u8, l) })
        });
    }
}

/// Copy one run. Runs of a basic type's size are common in strided data (a column of
/// doubles), and tiny messages are common: loads and stores inline beat a call to
/// `memcpy` for them.
///
/// # Safety
/// `src` readable and `dst` writable for `len` bytes, not overlapping.
#[inline(always)]
unsafe fn copy_run(src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: the caller's contract.
    unsafe { crate::fabric::memory::copy_disjoint(src, dst, len) }
}

/// Why a peer's run table was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum TableError {
    Entries,
    Length,
    Sum,
}

/// Decode and check a run table read from a peer (untrusted): every run non-empty and
/// inside the address space, the lengths adding up to exactly `total`.
pub fn parse_run_table(raw: &[u8], total: u64) -> Result<Vec<Run>, TableError> {
    if raw.is_empty() || !raw.len().is_multiple_of(RUN_ENTRY) {
        return Err(TableError::Entries);
    }
    let mut sum = 0u64;
    let mut runs = Vec::with_capacity(raw.len() / RUN_ENTRY);
    for e in raw.chunks_exact(RUN_ENTRY) {
        let addr = u64::from_ne_bytes(e[..8].try_into().unwrap());
        let len = u64::from_ne_bytes(e[8..].try_into().unwrap());
        if len == 0 || addr.checked_add(len).is_none() || len > isize::MAX as u64 {
            return Err(TableError::Length);
        }
        sum = sum.checked_add(len).ok_or(TableError::Sum)?;
        runs.push(Run { addr, len });
    }
    if sum != total {
        return Err(TableError::Sum);
    }
    Ok(runs)
}

/// The first `n` bytes of `runs`.
pub fn clip(mut runs: Vec<Run>, n: u64) -> Vec<Run> {
    let mut at = 0u64;
    for i in 0..runs.len() {
        if at + runs[i].len >= n {
            runs[i].len = n - at;
            runs.truncate(i + (n > at) as usize);
            return runs;
        }
        at += runs[i].len;
    }
    runs
}
