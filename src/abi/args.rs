//! Argument checks shared by the shims, each returning MPI's error class.

use super::consts::*;
use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::pt2pt::Status;
use std::os::raw::{c_int, c_void};

/// An element count of either width (MPI_ERR_COUNT when negative): an argument the
/// generator checks by kind, or one a collective checks itself where it is significant.
#[inline]
pub fn count(c: impl Int) -> Result<usize> {
    elems(c, "count")
}

/// A count the generator checks for a table line flagged `slices` (tools/gen_c.py): a
/// datatype constructor's count or block length, an array's length of that kind, int or
/// MPI_Count (MPI_ERR_COUNT when negative, as MPICH).
#[inline]
pub fn elems(c: impl Int, what: &str) -> Result<usize> {
    let c = c.wide();
    if c < 0 {
        return mpi_err!(Count, "negative {what} {c}");
    }
    Ok(c as usize)
}

/// An array length that must be positive (a subarray's or darray's ndims: MPI_ERR_ARG).
#[inline]
pub fn positive_len(n: c_int, what: &str) -> Result<usize> {
    if n <= 0 {
        return mpi_err!(Arg, "{what} must be positive, is {n}");
    }
    Ok(n as usize)
}

/// Any other array length (MPI_ERR_ARG when negative).
#[inline]
pub fn len(n: impl Into<i64>, what: &str) -> Result<usize> {
    let n: i64 = n.into();
    if n < 0 {
        return mpi_err!(Arg, "negative {what} {n}");
    }
    Ok(n as usize)
}

/// A size in bytes, int or MPI_Count (MPI_Buffer_attach; MPICH's MPI_ERR_ARG when
/// negative).
#[inline]
pub fn size(c: impl Into<i64>) -> Result<usize> {
    len(c, "size")
}

/// An error handler function argument (MPI_Comm_create_errhandler …), which must not be
/// NULL (MPI_ERR_ARG).
#[inline]
pub fn errhandler_fn<F>(f: Option<F>) -> Result<F> {
    f.ok_or_else(|| Error::new(ErrorClass::Arg, "NULL error handler function"))
}

/// An output pointer that must not be NULL (MPICH's MPI_ERR_ARG), checked before the
/// call does anything.
#[inline]
pub fn out_ptr<T>(p: *mut T, what: &str) -> Result<()> {
    if p.is_null() {
        return mpi_err!(Arg, "NULL {what} pointer");
    }
    Ok(())
}

/// Where a call writes a count: an `int` (MPI_UNDEFINED when the value does not fit) or
/// an `MPI_Count`, so that one core function serves a call and its large-count form.
pub trait CountOut: Copy {
    fn is_null(self) -> bool;
    /// Write `n` (None: MPI_UNDEFINED).
    ///
    /// # Safety
    /// The pointer is NULL (an error) or valid for writing.
    unsafe fn put(self, n: Option<u64>) -> Result<()>;
}

impl CountOut for *mut c_int {
    fn is_null(self) -> bool {
        self.is_null()
    }
    unsafe fn put(self, n: Option<u64>) -> Result<()> {
        let v = n.and_then(|n| c_int::try_from(n).ok());
        super::shim::write_out(self, v.unwrap_or(MPI_UNDEFINED))
    }
}

impl CountOut for *mut MPI_Count {
    fn is_null(self) -> bool {
        self.is_null()
    }
    unsafe fn put(self, n: Option<u64>) -> Result<()> {
        let v = n.and_then(|n| MPI_Count::try_from(n).ok());
        super::shim::write_out(self, v.unwrap_or(MPI_UNDEFINED as MPI_Count))
    }
}

/// An integer argument of a call that has a large-count form: `int` in the call,
/// `MPI_Count` in its `_c` form (MPI_Aint is the same C type), so that one generic core
/// function serves both and knows which it serves (a datatype records which form made it).
pub trait Int: Copy + Send + Sync + 'static {
    /// Whether this is the large-count form's integer.
    const LARGE: bool;
    fn wide(self) -> i64;
    /// `v` as this integer, None when it does not fit.
    fn narrow(v: i64) -> Option<Self>;
}

impl Int for c_int {
    const LARGE: bool = false;
    fn wide(self) -> i64 {
        self as i64
    }
    fn narrow(v: i64) -> Option<Self> {
        c_int::try_from(v).ok()
    }
}

impl Int for MPI_Count {
    const LARGE: bool = true;
    fn wide(self) -> i64 {
        self
    }
    fn narrow(v: i64) -> Option<Self> {
        Some(v)
    }
}

/// Write `v` through an int or MPI_Count output (MPI_ERR_COUNT when an int cannot hold
/// it: the call needs its large-count form).
///
/// # Safety
/// `p` is NULL (an error) or valid for writing.
pub unsafe fn put_int<I: Int>(p: *mut I, v: i64) -> Result<()> {
    match I::narrow(v) {
        Some(x) => super::shim::write_out(p, x),
        None => mpi_err!(Count, "{v} does not fit an int: use the call's _c form"),
    }
}

/// The C array `p[0..n]` (MPI_ERR_ARG if NULL while n > 0).
///
/// # Safety
/// `p` is NULL or valid for reading `n` values.
pub unsafe fn slice<'a, T>(p: *const T, n: usize, what: &str) -> Result<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return mpi_err!(Arg, "NULL {what}");
    }
    // SAFETY: the caller's contract: `p` points to `n` values.
    Ok(std::slice::from_raw_parts(p, n))
}

/// The C array `p[0..n]` of either integer width, widened (`slice`).
///
/// # Safety
/// As `slice`.
pub unsafe fn ints<T: Int>(p: *const T, n: usize, what: &str) -> Result<Vec<i64>> {
    Ok(slice(p, n, what)?.iter().map(|v| v.wide()).collect())
}

/// A destination: a rank of the communicator (of its remote group on an
/// intercommunicator) or MPI_PROC_NULL.
#[inline]
pub fn dest(comm: &Communicator, r: c_int) -> Result<Option<usize>> {
    if r == MPI_PROC_NULL {
        return Ok(None);
    }
    comm.peer_rank(r).map(Some)
}

/// A receive source (the core's, translated from MPI_PROC_NULL, MPI_ANY_SOURCE or a rank).
pub use crate::runtime::p2p::Source;

#[inline]
pub fn source(comm: &Communicator, r: c_int) -> Result<Source> {
    match r {
        MPI_PROC_NULL => Ok(Source::Null),
        MPI_ANY_SOURCE => Ok(Source::Any),
        r => comm.peer_rank(r).map(Source::Rank),
    }
}

/// The source of a blocking receive or probe: None for MPI_PROC_NULL, whose status it
/// reports in `st` (the call is then done), else the rank (None: MPI_ANY_SOURCE).
///
/// # Safety
/// As for `write_status`.
#[inline]
pub unsafe fn source_or_done(
    comm: &Communicator,
    r: c_int,
    st: *mut MPI_Status,
) -> Result<Option<Option<usize>>> {
    match source(comm, r)? {
        Source::Null => {
            write_single_status(st, &empty_status(MPI_PROC_NULL), MPI_SUCCESS);
            Ok(None)
        }
        s => Ok(Some(s.as_option())),
    }
}

/// A send's tag (the core's rule: 0..=TAG_UB).
pub use crate::runtime::p2p::{tag as send_tag, TAG_UB};

#[inline]
pub fn recv_tag(t: c_int) -> Result<Option<i32>> {
    if t == MPI_ANY_TAG {
        return Ok(None);
    }
    send_tag(t).map(Some)
}

/// The communicator must be an intracommunicator (MPI_ERR_COMM otherwise).
pub fn intra(comm: &Communicator) -> Result<()> {
    if comm.is_inter() {
        return mpi_err!(Comm, "this call needs an intracommunicator");
    }
    Ok(())
}

/// A NULL buffer is an error when it must hold data (`p2p::buffer`).
#[inline]
pub fn buffer(buf: *const c_void, count: usize, ty: &Datatype) -> Result<()> {
    crate::runtime::p2p::buffer(buf as *const u8, count, ty)
}

/// Bytes of `count` elements, guarding against overflow.
pub use crate::runtime::p2p::bytes;

/// A status output argument: MPI_STATUS_IGNORE or a status, never NULL (MPICH's
/// MPI_ERR_ARG; checked before the call does anything).
#[inline]
pub fn status_arg(st: *const MPI_Status) -> Result<()> {
    if st.is_null() {
        return mpi_err!(Arg, "NULL status pointer (MPI_STATUS_IGNORE is not NULL)");
    }
    Ok(())
}

/// Fill an MPI_Status (unless it is MPI_STATUS_IGNORE).
///
/// # Safety
/// `st` is MPI_STATUS_IGNORE (1), NULL, or valid for writing.
pub unsafe fn write_status(st: *mut MPI_Status, s: &Status, error: c_int) {
    if st.is_null() || st as usize == 1 {
        return;
    }
    let count = s.count as u64;
    (*st).count_lo = count as u32 as c_int;
    (*st).count_hi_and_cancelled = (((count >> 32) as c_int) << 1) | s.cancelled() as c_int;
    (*st).MPI_SOURCE = s.source;
    (*st).MPI_TAG = s.tag;
    (*st).MPI_ERROR = error;
}

/// Fill a status for a call that completes one operation (MPI-3.1 §3.2.5: only the calls
/// that can return MPI_ERR_IN_STATUS set MPI_ERROR; the others leave it as it was, as
/// MPICH does, unless there is an error to record).
///
/// # Safety
/// As for `write_status`.
pub unsafe fn write_single_status(st: *mut MPI_Status, s: &Status, error: c_int) {
    if st.is_null() || st as usize == 1 {
        return;
    }
    let kept = (*st).MPI_ERROR;
    write_status(st, s, error);
    if error == MPI_SUCCESS {
        (*st).MPI_ERROR = kept;
    }
}

/// The status of a receive from MPI_PROC_NULL (and of a null request).
pub fn empty_status(source: c_int) -> Status {
    Status::received(source, MPI_ANY_TAG, 0, 0)
}

/// Bytes recorded in a status.
///
/// # Safety
/// `st` is valid for reading.
pub unsafe fn status_bytes(st: *const MPI_Status) -> u64 {
    ((*st).count_lo as u32 as u64) | ((((*st).count_hi_and_cancelled as u32) >> 1) as u64) << 32
}
