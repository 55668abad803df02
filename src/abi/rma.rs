//! One-sided shims: windows (MPI_Win_create …), communication (MPI_Put …) and
//! synchronization (MPI_Win_fence …) over `crate::rma`, whose `call` module holds the
//! argument rules. Here: handles (windows, datatypes, ops, groups, requests), MPI constants
//! to core values, outputs. Errors go through the window's error handler (`shim::run_win`);
//! creation errors through the communicator's. The unsafe functions' pointer arguments are
//! as MPI's C binding says: outputs NULL or valid for writing (checked where MPI requires),
//! buffers holding what their count and datatype describe.

use super::args::{self, Int};
use super::attr::{self, WinAttrs};
use super::builtin_types;
use super::consts::*;
use super::handles;
use super::shim::{self, run_win, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::op::Op;
use crate::rma::call::{self, MODE_NOCHECK, MODE_NOPRECEDE, MODE_NOPUT, MODE_NOSTORE};
pub use crate::rma::Flavor;
use crate::rma::{Attribute, Local, LockKind, Remote, Window};
use crate::runtime::requests::Entry;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::Arc;

// The application's assertion bits reach the core as they are.
const _: () = assert!(
    MPI_MODE_NOCHECK == MODE_NOCHECK
        && MPI_MODE_NOSTORE == MODE_NOSTORE
        && MPI_MODE_NOPUT == MODE_NOPUT
        && MPI_MODE_NOPRECEDE == MODE_NOPRECEDE
        && MPI_MODE_NOSUCCEED == call::MODE_NOSUCCEED
);
// So are the flavors and the memory model the core reports as window attributes.
const _: () = assert!(
    MPI_WIN_FLAVOR_CREATE == Flavor::Create.code()
        && MPI_WIN_FLAVOR_ALLOCATE == Flavor::Allocate.code()
        && MPI_WIN_FLAVOR_SHARED == Flavor::Shared.code()
        && MPI_WIN_FLAVOR_DYNAMIC == Flavor::Dynamic.code()
        && MPI_WIN_UNIFIED == crate::rma::MODEL_UNIFIED
);

/// A rank argument as the core takes it (None: MPI_PROC_NULL).
#[inline]
pub(crate) fn rank(r: c_int) -> Option<i32> {
    (r != MPI_PROC_NULL).then_some(r)
}

// ------------------------------------------------------------------ windows

/// Make a window and its handle (collective over `comm`), with MPI_Win_create's arguments:
/// MPI_Win_create (`base` the application's memory), MPI_Win_create_dynamic and
/// MPI_Win_allocate(_shared) (table lines; `base` NULL).
pub(crate) unsafe fn create(
    base: *mut c_void,
    size: MPI_Aint,
    disp_unit: impl Int,
    info: MPI_Info,
    comm: MPI_Comm,
    win: *mut MPI_Win,
    flavor: Flavor,
) -> Result<Arc<Window>> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    args::intra(&c)?;
    args::out_ptr(win, "window")?;
    let (size, unit) = call::creation(flavor, base as usize, size, disp_unit.wide())?;
    let info = super::info::pairs(info)?;
    let window = Arc::new(Window::new(
        w,
        &c,
        flavor,
        base as usize,
        size as usize,
        unit,
    )?);
    win.write(handles::new_win(window.clone(), info));
    Ok(window)
}

/// MPI_Win_shared_query(_c).
pub(crate) unsafe fn shared_query(
    win: MPI_Win,
    r: c_int,
    size: *mut MPI_Aint,
    disp_unit: *mut impl Int,
    baseptr: *mut c_void,
) -> Result<()> {
    let (sz, du, base) = handles::win(win)?.shared_query_arg(rank(r))?;
    write_out(size, sz as MPI_Aint)?;
    args::put_int(disp_unit, du as i64)?;
    write_out(baseptr as *mut *mut c_void, base as *mut c_void)
}

/// MPI_Win_free.
pub(crate) unsafe fn free(win: *mut MPI_Win) -> Result<()> {
    let w = shim::world()?;
    args::out_ptr(win, "window")?;
    let window = handles::win(*win)?;
    window.check_free()?;
    crate::comm::attributes::delete_all(WinAttrs(*win))?;
    window.free(w)?;
    handles::remove_win(*win)?;
    *win = MPI_WIN_NULL;
    Ok(())
}

// ------------------------------------------------------------------ attributes, names

/// The predefined window attributes by keyval.
const PREDEFINED: [(c_int, Attribute); 5] = [
    (MPI_WIN_BASE, Attribute::Base),
    (MPI_WIN_SIZE, Attribute::Size),
    (MPI_WIN_DISP_UNIT, Attribute::DispUnit),
    (MPI_WIN_CREATE_FLAVOR, Attribute::CreateFlavor),
    (MPI_WIN_MODEL, Attribute::Model),
];

/// MPI_Win_get_attr's value of `keyval` on `win` (a table line): a predefined attribute's
/// is the window's (`Window::attributes`), Some(value) for a user attribute that is set.
pub(crate) fn attr(win: MPI_Win, keyval: c_int) -> Result<Option<usize>> {
    let w = handles::win(win)?;
    match PREDEFINED.iter().find(|p| p.0 == keyval) {
        Some(&(_, a)) => Ok(Some(w.attributes.value(a))),
        None => attr::user_attr_of(WinAttrs(win), keyval),
    }
}

/// MPI_Win_set_name (cut to MPI_MAX_OBJECT_NAME - 1 characters).
pub(crate) unsafe fn set_name(win: MPI_Win, win_name: *const c_char) -> Result<()> {
    if win_name.is_null() {
        return mpi_err!(Arg, "NULL name");
    }
    let name = std::ffi::CStr::from_ptr(win_name).to_string_lossy();
    let name: String = name
        .chars()
        .take(MPI_MAX_OBJECT_NAME as usize - 1)
        .collect();
    handles::with_win_entry(win, |e| e.name = name)
}

// ------------------------------------------------------------------ error handlers

pub(crate) fn set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) -> Result<()> {
    if !handles::valid_errhandler(errhandler) {
        return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
    }
    handles::with_win_entry(win, |e| e.errhandler = errhandler)?;
    handles::retain_errhandler(errhandler);
    Ok(())
}

/// MPI_Win_get_errhandler.
pub(crate) unsafe fn get_errhandler(win: MPI_Win, errhandler: *mut MPI_Errhandler) -> Result<()> {
    let h = handles::reported_errhandler(handles::with_win_entry(win, |e| e.errhandler)?);
    write_out(errhandler, h)?;
    handles::retain_errhandler(h);
    Ok(())
}

/// MPI_Win_call_errhandler (`bare`: the handler runs with the application's code).
pub(crate) fn call_errhandler(win: MPI_Win, errorcode: c_int) -> c_int {
    handles::win(win).map_or(MPI_ERR_WIN, |_| {
        let msg = format!("error code {errorcode} raised by the application");
        super::errors::raise_win_code("MPI_Win_call_errhandler", win, errorcode, &msg);
        MPI_SUCCESS
    })
}

// ------------------------------------------------------------------ communication

/// A buffer argument as C passes it: address, count (int or MPI_Count), datatype handle.
#[derive(Clone, Copy)]
pub(crate) struct Buf<I>(pub *const c_void, pub I, pub MPI_Datatype);

/// The target arguments as C passes them: rank, displacement, count, datatype handle.
#[derive(Clone, Copy)]
pub(crate) struct Tgt<I>(pub c_int, pub MPI_Aint, pub I, pub MPI_Datatype);

/// The latency path of MPI_Put / MPI_Get (see `Window::try_copy`): predefined datatypes
/// on both sides describing the same bytes, a buffer, a valid window and target memory in
/// an open passive epoch, copied where mapped here, else posted. Some(the call's return
/// code) when done (a rail's refusal goes to the window's error handler, as `func`'s);
/// None leaves everything — including reporting any error — to the general path.
#[inline]
unsafe fn fast_copy<I: Int>(
    func: &'static str,
    get: bool,
    Buf(addr, ocount, otype): Buf<I>,
    Tgt(rank, disp, tcount, ttype): Tgt<I>,
    win: MPI_Win,
) -> Option<c_int> {
    let (o, t) = (builtin_types::lookup(otype)?, builtin_types::lookup(ttype)?);
    let n = o.size.checked_mul(ocount.wide().max(0) as usize)?;
    let tn = t.size.checked_mul(tcount.wide().max(0) as usize);
    if addr.is_null() || rank < 0 || disp < 0 || Some(n) != tn {
        return None;
    }
    let host = crate::runtime::world()?;
    let mut handled = true;
    let rc = run_win(func, win, || {
        // SAFETY: the caller's contract (MPI's, for the origin buffer).
        let done = handles::with_win(win, |w| {
            Ok(unsafe { w.try_copy(host, get, addr as usize, n, rank as usize, disp as u64) })
        })?;
        done.unwrap_or_else(|| {
            handled = false;
            Ok(())
        })
    });
    handled.then_some(rc)
}

/// Check the target side and the epoch, then run `f` on the window (borrowed from the
/// handle table, not counted: this is the latency path) and the target; MPI_PROC_NULL
/// does nothing (`T::default()`).
fn with_call<T: Default, I: Int>(
    win: MPI_Win,
    Tgt(target_rank, disp, tcount, tdatatype): Tgt<I>,
    request_based: bool,
    f: impl FnOnce(&Window, Remote) -> Result<T>,
) -> Result<T> {
    let count = args::count(tcount)?;
    let dtype = handles::datatype(tdatatype)?;
    let disp = call::target_disp(disp)?;
    handles::with_win(win, |w| {
        match w.access_target(rank(target_rank), request_based)? {
            Some(rank) => f(w, Remote::new(rank, disp, count, &dtype)),
            None => Ok(T::default()),
        }
    })
}

/// An origin-side buffer argument.
fn local<'a>(Buf(buf, count, _): Buf<impl Int>, ty: &'a handles::TypeRef) -> Result<Local<'a>> {
    Local::new(buf as usize, args::count(count)?, ty)
}

/// MPI_Put(_c) (`get` false) and MPI_Get(_c), with their own error boundary: the latency
/// path (`fast_copy`) comes before it.
#[inline]
pub(crate) unsafe fn put_get<I: Int>(
    func: &'static str,
    get: bool,
    origin: Buf<I>,
    tgt: Tgt<I>,
    win: MPI_Win,
) -> c_int {
    if let Some(rc) = fast_copy(func, get, origin, tgt, win) {
        return rc;
    }
    run_win(func, win, || {
        let w = shim::world()?;
        let oty = handles::datatype(origin.2)?;
        let o = local(origin, &oty)?;
        with_call(win, tgt, false, |win, t| win.transfer(w, get, o, t, false))
    })
}

/// MPI_Rput(_c) and MPI_Rget(_c): large contiguous ones proceed at the target's helper
/// while the origin goes on (the request completes when the helper is done); others
/// complete here, and their request is complete when returned.
pub(crate) unsafe fn rput_rget<I: Int>(
    get: bool,
    origin: Buf<I>,
    target: Tgt<I>,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> Result<()> {
    let w = shim::world()?;
    let oty = handles::datatype(origin.2)?;
    let o = local(origin, &oty)?;
    let queued = with_call(win, target, true, |win, t| {
        let rank = t.rank;
        match win.start_async(w, get, o, t)? {
            Some(seq) => Ok(Some((rank, seq))),
            None => win.transfer(w, get, o, t, true).map(|_| None),
        }
    })?;
    let h = match queued {
        Some((target, seq)) => handles::new_request(Entry::Rma {
            win: handles::win(win)?,
            target,
            seq,
        }),
        None => handles::REQUEST_SEND_DONE,
    };
    write_out(request, h)
}

/// The accumulate family: MPI_Accumulate (`result` None), MPI_Get_accumulate, and their
/// request-based forms (`request`: complete when returned, as operations complete when
/// issued).
pub(crate) unsafe fn accumulate<I: Int>(
    origin: Buf<I>,
    result: Option<Buf<I>>,
    target: Tgt<I>,
    op: MPI_Op,
    win: MPI_Win,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    if request.is_none() {
        if let Some(done) = fast_accumulate(origin, result, target, op, win) {
            return done;
        }
    }
    let w = shim::world()?;
    let op = call::op(super::op::predefined_op(op)?, result.is_some())?;
    // MPI_NO_OP reads no origin buffer: its arguments are ignored.
    let oty = (op != Op::NoOp)
        .then(|| handles::datatype(origin.2))
        .transpose()?;
    let rty = result.map(|r| handles::datatype(r.2)).transpose()?;
    let o = oty.as_ref().map(|ty| local(origin, ty)).transpose()?;
    let r = match (result, &rty) {
        (Some(b), Some(ty)) => Some(local(b, ty)?),
        _ => None,
    };
    with_call(win, target, request.is_some(), |win, t| {
        win.accumulate(w, op, o, r, t)
    })?;
    request.map_or(Ok(()), |r| write_out(r, handles::REQUEST_SEND_DONE))
}

/// The accumulate family's latency path (`Window::try_accumulate`; MPI_Accumulate,
/// MPI_Get_accumulate, MPI_Fetch_and_op): one predefined type on every side, the same
/// count, a predefined operation. None leaves everything, errors included, to the general
/// path.
#[inline]
unsafe fn fast_accumulate<I: Int>(
    Buf(addr, ocount, otype): Buf<I>,
    result: Option<Buf<I>>,
    Tgt(rank, disp, tcount, ttype): Tgt<I>,
    op: MPI_Op,
    win: MPI_Win,
) -> Option<Result<()>> {
    if otype != ttype || ocount.wide() != tcount.wide() || addr.is_null() || rank < 0 || disp < 0 {
        return None;
    }
    let fetch = match result {
        Some(Buf(r, rcount, rtype)) if rtype == otype && rcount.wide() == ocount.wide() => {
            Some(r as usize).filter(|&r| r != 0)
        }
        Some(_) => return None,
        None => None,
    };
    if result.is_some() && fetch.is_none() {
        return None;
    }
    let ty = builtin_types::lookup(otype)?;
    let op = call::op(super::op::predefined_op(op).ok()?, result.is_some()).ok()?;
    let n = ty.size.checked_mul(usize::try_from(ocount.wide()).ok()?)?;
    let (basic, host) = (ty.basic?.0, crate::runtime::world()?);
    let (local, target) = (addr as usize, rank as usize);
    handles::with_win(win, |w| {
        // SAFETY: the caller's contract (MPI's, for the origin buffer).
        Ok(unsafe { w.try_accumulate(host, op, basic, local, fetch, n, target, disp as u64) })
    })
    .ok()
    .flatten()
}

/// MPI_Compare_and_swap's latency path: a predefined type, a target whose window memory
/// is mapped here in an open passive epoch (`Window::try_swap`). None: another case, for
/// the general path, which checks and reports everything.
///
/// # Safety
/// As `compare_and_swap`.
#[inline]
unsafe fn fast_swap(
    addrs: [*const c_void; 3],
    datatype: MPI_Datatype,
    rank: c_int,
    disp: MPI_Aint,
    win: MPI_Win,
) -> Option<Result<()>> {
    let ty = builtin_types::lookup(datatype)?;
    if addrs.iter().any(|a| a.is_null()) || rank < 0 || disp < 0 {
        return None;
    }
    call::swap_type(ty).ok()?;
    let host = crate::runtime::world()?;
    let [origin, compare, result] = addrs.map(|a| a as usize);
    handles::with_win(win, |w| {
        // SAFETY: the caller's contract (MPI's: each buffer holds one element).
        Ok(unsafe {
            w.try_swap(
                host,
                ty.size,
                origin,
                compare,
                result,
                rank as usize,
                disp as u64,
            )
        })
    })
    .ok()
    .flatten()
}

/// MPI_Compare_and_swap.
pub(crate) unsafe fn compare_and_swap(
    origin_addr: *const c_void,
    compare_addr: *const c_void,
    result_addr: *mut c_void,
    datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    win: MPI_Win,
) -> Result<()> {
    if let Some(done) = fast_swap(
        [origin_addr, compare_addr, result_addr as *const c_void],
        datatype,
        target_rank,
        target_disp,
        win,
    ) {
        return done;
    }
    let w = shim::world()?;
    let ty = handles::datatype(datatype)?;
    let basic = call::swap_type(&ty)?;
    let n = ty.size;
    let addrs = [origin_addr, compare_addr, result_addr as *const c_void];
    call::swap_buffers(addrs.map(|a| a as usize))?;
    let target = Tgt(target_rank, target_disp, 1 as c_int, datatype);
    with_call(win, target, false, |win, t| {
        // SAFETY: MPI's contract: each buffer holds one element (n bytes, at most 32); the
        // result is written after the origin and compare values are read (it may alias).
        let (origin, compare) = unsafe {
            let o = std::slice::from_raw_parts(origin_addr as *const u8, n);
            (o, std::slice::from_raw_parts(compare_addr as *const u8, n))
        };
        let mut old = [0u8; 32];
        win.compare_and_swap(w, basic, origin, compare, &mut old[..n], t)?;
        // SAFETY: as above.
        unsafe { std::ptr::copy_nonoverlapping(old.as_ptr(), result_addr as *mut u8, n) };
        Ok(())
    })
}

// ------------------------------------------------------------------ synchronization

/// MPI_Win_post (`post`) and MPI_Win_start: the group's ranks in the window.
pub(crate) fn pscw(group: MPI_Group, assert: c_int, win: MPI_Win, post: bool) -> Result<()> {
    let world = shim::world()?;
    let nocheck = match post {
        true => call::post_assert(assert).map(|_| false)?,
        false => call::nocheck(assert)?,
    };
    let w = handles::win(win)?;
    let ranks = w.group_ranks(&handles::group(group)?.members)?;
    match post {
        true => w.post(world, ranks),
        false => w.start(world, ranks, nocheck),
    }
}

pub(crate) fn lock(lock_type: c_int, r: c_int, assert: c_int, win: MPI_Win) -> Result<()> {
    let world = shim::world()?;
    let kind = match lock_type {
        MPI_LOCK_EXCLUSIVE => LockKind::Exclusive,
        MPI_LOCK_SHARED => LockKind::Shared,
        _ => return mpi_err!(LockType, "invalid lock type {lock_type}"),
    };
    let nocheck = call::nocheck(assert)?;
    handles::win(win)?.lock_arg(world, kind, rank(r), nocheck)
}
