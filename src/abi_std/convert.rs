//! Conversions the generated entry points use: a handle railmpi made keeps its MPICH value
//! (the pointer's bits); outputs go through stand-ins of the MPICH type; arrays are copied
//! (MPICH's handles are ints, the standard's pointers); statuses are rearranged. Every
//! pointer is the application's: NULL is passed on as NULL (the MPICH entry point reports
//! it), and an array is read only when its pointer and length say it may be.

use super::types::*;
// (The handle helpers are `types`'; the generated code names them `cv::`.)
pub use super::types::{handle, user_in, user_out};
use super::values as v;
use crate::abi::consts as m;
use smallvec::SmallVec;
use std::os::raw::{c_int, c_void};

/// MPI_File: a pointer in both ABIs; only the null handles differ.
#[inline]
pub fn file_in(h: MPI_File) -> m::MPI_File {
    match h as usize {
        0x118 => m::MPI_FILE_NULL,
        a => std::ptr::without_provenance_mut(a),
    }
}

#[inline]
pub fn file_out(h: m::MPI_File) -> MPI_File {
    match h.is_null() {
        true => handle(0x118),
        false => handle(h as usize),
    }
}

/// A rank argument: the standard's wildcards (-1 MPI_ANY_SOURCE, -3 MPI_PROC_NULL, -4
/// MPI_ROOT) to MPICH's (-2, -1, -3); another negative one to one no rank is.
#[inline]
pub fn rank_in(r: c_int) -> c_int {
    match r {
        r if r >= 0 || r == m::MPI_UNDEFINED => r,
        v::MPI_ANY_SOURCE => m::MPI_ANY_SOURCE,
        v::MPI_PROC_NULL => m::MPI_PROC_NULL,
        v::MPI_ROOT => m::MPI_ROOT,
        _ => i32::MIN,
    }
}

#[inline]
pub fn rank_out(r: c_int) -> c_int {
    match r {
        m::MPI_ANY_SOURCE => v::MPI_ANY_SOURCE,
        m::MPI_PROC_NULL => v::MPI_PROC_NULL,
        m::MPI_ROOT => v::MPI_ROOT,
        r => r,
    }
}

/// A tag argument: MPI_ANY_TAG is -2 in the standard ABI, -1 in MPICH's.
#[inline]
pub fn tag_in(t: c_int) -> c_int {
    match t {
        t if t >= 0 => t,
        v::MPI_ANY_TAG => m::MPI_ANY_TAG,
        _ => i32::MIN,
    }
}

#[inline]
pub fn tag_out(t: c_int) -> c_int {
    match t {
        m::MPI_ANY_TAG => v::MPI_ANY_TAG,
        t => t,
    }
}

/// A pointer of either constness, by address.
pub trait Addr: Copy {
    fn addr(self) -> usize;
    fn with_addr(self, a: usize) -> Self;
}

impl<T> Addr for *const T {
    fn addr(self) -> usize {
        self as usize
    }
    fn with_addr(self, a: usize) -> Self {
        std::ptr::without_provenance(a)
    }
}

impl<T> Addr for *mut T {
    fn addr(self) -> usize {
        self as usize
    }
    fn with_addr(self, a: usize) -> Self {
        std::ptr::without_provenance_mut(a)
    }
}

/// A buffer argument: MPI_IN_PLACE (1) and MPI_BUFFER_AUTOMATIC (2) to MPICH's values.
#[inline]
pub fn buf<P: Addr>(p: P) -> P {
    match p.addr() {
        1 => p.with_addr(m::MPI_IN_PLACE as usize),
        2 => p.with_addr(m::MPI_BUFFER_AUTOMATIC as usize),
        _ => p,
    }
}

/// The address a buffer detach wrote (`void **` in C): MPICH's MPI_BUFFER_AUTOMATIC to the
/// standard's.
///
/// # Safety
/// `p` is NULL or points to a pointer.
pub unsafe fn detached(p: *mut c_void) {
    let p = p.cast::<*mut c_void>();
    if !p.is_null() && std::ptr::eq(*p, m::MPI_BUFFER_AUTOMATIC) {
        *p = std::ptr::without_provenance_mut(2);
    }
}

/// The integers MPI_Type_get_contents gave for a subarray or darray: their order (the last
/// integer), a darray's distributions and distribution arguments (MPI_DISTRIBUTE_DFLT_DARG),
/// in the standard's values. Where they are depends on the form the type was made with
/// (a large-count constructor keeps the sizes among the large counts).
///
/// # Safety
/// `ints` is NULL or holds `max` ints.
pub unsafe fn contents_ints(datatype: MPI_Datatype, ints: *mut c_int, max: usize) {
    let (mut ni, mut na, mut nl, mut nd): (m::MPI_Count, m::MPI_Count, m::MPI_Count, m::MPI_Count) =
        (0, 0, 0, 0);
    let mut combiner = 0;
    let t = v::datatype_in(datatype);
    let known = crate::abi::datatype::get_envelope(
        t,
        &mut ni as *mut m::MPI_Count,
        &mut na as *mut m::MPI_Count,
        Some(&mut nl as *mut m::MPI_Count),
        &mut nd as *mut m::MPI_Count,
        &mut combiner,
    );
    let ni = len(ni).min(max);
    if known.is_err() || ints.is_null() || ni == 0 {
        return;
    }
    let at = |i: usize| ints.add(i);
    match combiner {
        m::MPI_COMBINER_SUBARRAY => *at(ni - 1) = v::order_out(*at(ni - 1)),
        m::MPI_COMBINER_DARRAY if ni >= 4 => {
            *at(ni - 1) = v::order_out(*at(ni - 1));
            let ndims = len(*at(2));
            let first = if nl > 0 { 3 } else { 3 + ndims };
            for i in first..(first + ndims).min(ni - 1) {
                *at(i) = v::distribute_out(*at(i));
            }
            for i in (first + ndims)..(first + 2 * ndims).min(ni - 1) {
                *at(i) = darg_out(*at(i));
            }
        }
        _ => {}
    }
}

/// A darray's distribution argument: a number, or MPI_DISTRIBUTE_DFLT_DARG.
#[inline]
pub fn darg_in(d: c_int) -> c_int {
    match d {
        v::MPI_DISTRIBUTE_DFLT_DARG => m::MPI_DISTRIBUTE_DFLT_DARG,
        d => d,
    }
}

#[inline]
pub fn darg_out(d: c_int) -> c_int {
    match d {
        m::MPI_DISTRIBUTE_DFLT_DARG => v::MPI_DISTRIBUTE_DFLT_DARG,
        d => d,
    }
}

/// A weights array: MPI_UNWEIGHTED (10) and MPI_WEIGHTS_EMPTY (11) to MPICH's addresses.
#[inline]
pub fn weights<P: Addr>(p: P) -> P {
    match p.addr() {
        10 => p.with_addr(m::MPI_UNWEIGHTED.0 as usize),
        11 => p.with_addr(m::MPI_WEIGHTS_EMPTY.0 as usize),
        _ => p,
    }
}

/// MPI_File_set_view's displacement: MPI_DISPLACEMENT_CURRENT is -1 here.
#[inline]
pub fn disp_in(d: MPI_Offset) -> MPI_Offset {
    match d {
        -1 => m::MPI_DISPLACEMENT_CURRENT as MPI_Offset,
        d => d,
    }
}

/// MPI_T_PVAR_ALL_HANDLES is 1 in the standard ABI, an exported address in MPICH's.
#[inline]
pub fn pvar_handle_in(h: MPI_T_pvar_handle) -> MPI_T_pvar_handle {
    match h as usize {
        1 => m::MPI_T_PVAR_ALL_HANDLES.0,
        _ => h,
    }
}

/// A callback, as the MPICH-ABI entry point's function pointer type `T`: the same address
/// (`abi::callbacks` calls it with standard-ABI arguments), the predefined
/// MPI_*_DUP_FN (1 in the standard ABI) as railmpi's own duplicating copy function.
///
/// # Safety
/// `T` is a nullable function pointer type.
pub unsafe fn func<T>(f: Callback) -> T {
    const { assert!(size_of::<T>() == size_of::<usize>()) };
    let a = match f.map_or(0, |g| g as usize) {
        1 => m::MPIR_Dup_fn as *const () as usize,
        a => a,
    };
    std::mem::transmute_copy(&a)
}

/// A length argument (negative: none; the MPICH entry point reports it).
#[inline]
pub fn len<T: TryInto<usize>>(n: T) -> usize {
    n.try_into().unwrap_or(0)
}

// ---------------------------------------------------------------- scalar outputs

/// The initial value of an in-out handle's stand-in.
///
/// # Safety
/// `p` is NULL or valid.
#[inline]
pub unsafe fn read_or<A: Copy, B>(p: *mut A, null: B, f: fn(A) -> B) -> B {
    match p.is_null() {
        true => null,
        false => f(*p),
    }
}

/// The stand-in's address, or NULL when the application passed NULL.
#[inline]
pub fn ptr<A, B>(p: *mut A, t: &mut B) -> *mut B {
    match p.is_null() {
        true => std::ptr::null_mut(),
        false => t,
    }
}

/// Write a stand-in back.
///
/// # Safety
/// `p` is NULL or valid.
#[inline]
pub unsafe fn write<A, B>(p: *mut A, t: B, f: fn(B) -> A) {
    if !p.is_null() {
        *p = f(t);
    }
}

/// Convert an int output where it is.
///
/// # Safety
/// `p` is NULL or valid.
#[inline]
pub unsafe fn out_in_place(p: *mut c_int, f: fn(c_int) -> c_int) {
    if !p.is_null() {
        *p = f(*p);
    }
}

// ---------------------------------------------------------------- arrays

/// A converted array (None: NULL or empty, passed on as it is). Up to `SHORT` elements live
/// on the stack: MPI_Waitall and friends on a few requests allocate nothing.
pub type Array<B> = Option<SmallVec<[B; SHORT]>>;
const SHORT: usize = 16;

/// An input array converted.
///
/// # Safety
/// `p` is NULL or holds `n` elements.
pub unsafe fn array_in<A: Copy, B>(p: *const A, n: usize, f: fn(A) -> B) -> Array<B> {
    (!p.is_null() && n > 0).then(|| (0..n).map(|i| f(*p.add(i))).collect())
}

/// A fresh output array of `n` stand-ins.
pub fn array_new<A, B: Clone>(p: *mut A, n: usize, null: B) -> Array<B> {
    (!p.is_null() && n > 0).then(|| smallvec::smallvec![null; n])
}

/// The converted array's address, or the application's pointer (NULL or unread).
pub fn aptr<A, B>(v: &Array<B>, p: *const A) -> *const B {
    v.as_ref().map_or(p.cast(), |v| v.as_ptr())
}

pub fn aptr_mut<A, B>(v: &mut Array<B>, p: *mut A) -> *mut B {
    v.as_mut().map_or(p.cast(), |v| v.as_mut_ptr())
}

/// Write a converted array back.
///
/// # Safety
/// `p` holds as many elements as `v`.
pub unsafe fn array_back<A, B: Copy>(p: *mut A, v: &Array<B>, f: fn(B) -> A) {
    if let Some(v) = v {
        for (i, &x) in v.iter().enumerate() {
            *p.add(i) = f(x);
        }
    }
}

/// Convert an int array where it is.
///
/// # Safety
/// `p` is NULL or holds `n` ints.
pub unsafe fn array_in_place(p: *mut c_int, n: usize, f: fn(c_int) -> c_int) {
    if !p.is_null() {
        for i in 0..n {
            *p.add(i) = f(*p.add(i));
        }
    }
}

// ---------------------------------------------------------------- statuses

#[inline]
fn status_to(s: &m::MPI_Status) -> MPI_Status {
    MPI_Status {
        MPI_SOURCE: rank_out(s.MPI_SOURCE),
        MPI_TAG: tag_out(s.MPI_TAG),
        MPI_ERROR: v::code_out(s.MPI_ERROR),
        MPI_internal: [s.count_lo, s.count_hi_and_cancelled, 0, 0, 0],
    }
}

#[inline]
fn status_from(s: &MPI_Status) -> m::MPI_Status {
    m::MPI_Status {
        count_lo: s.MPI_internal[0],
        count_hi_and_cancelled: s.MPI_internal[1],
        MPI_SOURCE: rank_in(s.MPI_SOURCE),
        MPI_TAG: tag_in(s.MPI_TAG),
        MPI_ERROR: v::code_in(s.MPI_ERROR),
    }
}

/// An input status (MPI_Get_count ...), converted.
///
/// # Safety
/// `p` is NULL or valid.
pub unsafe fn status_in(p: *const MPI_Status) -> m::MPI_Status {
    match p.is_null() {
        true => m::MPI_Status::default(),
        false => status_from(&*p),
    }
}

pub fn status_cptr(p: *const MPI_Status, t: &m::MPI_Status) -> *const m::MPI_Status {
    match p.is_null() {
        true => std::ptr::null(),
        false => t,
    }
}

/// An output status's stand-in, from what the application's holds (MPI_Status_set_*
/// change one field of it).
///
/// # Safety
/// `p` is NULL (MPI_STATUS_IGNORE) or valid.
pub unsafe fn status_read(p: *mut MPI_Status) -> m::MPI_Status {
    status_in(p)
}

/// MPI_STATUS_IGNORE is NULL in the standard ABI, 1 in MPICH's.
pub fn status_ptr(p: *mut MPI_Status, t: &mut m::MPI_Status) -> *mut m::MPI_Status {
    match p.is_null() {
        true => m::MPI_STATUS_IGNORE,
        false => t,
    }
}

/// An output status's stand-in before the call: every field a value no call writes.
pub const STATUS_UNSET: m::MPI_Status = m::MPI_Status {
    count_lo: UNSET,
    count_hi_and_cancelled: UNSET,
    MPI_SOURCE: UNSET,
    MPI_TAG: UNSET,
    MPI_ERROR: UNSET,
};
const UNSET: c_int = i32::MIN + 0x5a5a;

/// Write back the fields of an output status the call wrote.
///
/// # Safety
/// `p` is NULL or valid.
pub unsafe fn status_written(p: *mut MPI_Status, t: &m::MPI_Status) {
    if p.is_null() {
        return;
    }
    let s = &mut *p;
    if t.MPI_SOURCE != UNSET {
        s.MPI_SOURCE = rank_out(t.MPI_SOURCE);
    }
    if t.MPI_TAG != UNSET {
        s.MPI_TAG = tag_out(t.MPI_TAG);
    }
    if t.MPI_ERROR != UNSET {
        s.MPI_ERROR = v::code_out(t.MPI_ERROR);
    }
    if t.count_lo != UNSET {
        s.MPI_internal[0] = t.count_lo;
    }
    if t.count_hi_and_cancelled != UNSET {
        s.MPI_internal[1] = t.count_hi_and_cancelled;
    }
}

/// # Safety
/// `p` is NULL or valid.
pub unsafe fn status_back(p: *mut MPI_Status, t: &m::MPI_Status) {
    if !p.is_null() {
        *p = status_to(t);
    }
}

/// An array of statuses' stand-ins (None: MPI_STATUSES_IGNORE).
pub fn statuses_new(p: *mut MPI_Status, n: usize) -> Array<m::MPI_Status> {
    (!p.is_null()).then(|| smallvec::smallvec![STATUS_UNSET; n.max(1)])
}

pub fn statuses_ptr(v: &mut Array<m::MPI_Status>, _p: *mut MPI_Status) -> *mut m::MPI_Status {
    v.as_mut()
        .map_or(m::MPI_STATUSES_IGNORE, |v| v.as_mut_ptr())
}

/// # Safety
/// `p` holds as many statuses as `v` (bar the one of an empty array).
pub unsafe fn statuses_back(p: *mut MPI_Status, v: &Array<m::MPI_Status>, n: usize) {
    if let Some(v) = v {
        for (i, s) in v.iter().take(n).enumerate() {
            status_written(p.add(i), s);
        }
    }
}

// ---------------------------------------------------------------- array lengths

/// The number of processes an alltoallw's type arrays cover: the remote group's size (0 for
/// an invalid communicator, which the call then reports).
pub fn remote_size(comm: MPI_Comm) -> usize {
    crate::abi::handles::comm_arc(v::comm_in(comm)).map_or(0, |c| c.peer_size())
}

/// No send types with MPI_IN_PLACE (the array is not read).
pub fn unless_in_place(sendbuf: *const c_void, n: usize) -> usize {
    match sendbuf as usize {
        1 => 0,
        _ => n,
    }
}

/// A neighbourhood collective's (in-degree, out-degree) on `comm`'s topology ((0, 0)
/// without one, which the call then reports).
pub fn degrees(comm: MPI_Comm) -> (usize, usize) {
    let topo = crate::abi::handles::with_comm_entry(v::comm_in(comm), |e| {
        e.topo.clone().map(|t| (t, e.comm.rank))
    });
    match topo {
        Ok(Some((t, rank))) => {
            let (i, o) = t.neighbors(rank);
            (i.len(), o.len())
        }
        _ => (0, 0),
    }
}
