//! One-sided shims: windows (MPI_Win_create …), communication (MPI_Put …) and
//! synchronization (MPI_Win_fence …). Errors go through the window's error handler
//! (`shim::run_win`); creation errors through the communicator's.

use super::args::{self, Int};
use super::attr::{self, WinAttrs};
use super::builtin_types;
use super::consts::*;
use super::handles::{self, TypeRef, WinAttrValues, WinEntry};
use super::op;
use super::shim::{self, run_win, write_out, write_out_str};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::op::Op;
pub use crate::rma::Flavor;
use crate::rma::{Local, LockKind, Remote, Window};
use crate::runtime::requests::Entry;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::Arc;

// ------------------------------------------------------------------ creation

fn flavor_code(f: Flavor) -> c_int {
    match f {
        Flavor::Create => MPI_WIN_FLAVOR_CREATE,
        Flavor::Allocate => MPI_WIN_FLAVOR_ALLOCATE,
        Flavor::Shared => MPI_WIN_FLAVOR_SHARED,
        Flavor::Dynamic => MPI_WIN_FLAVOR_DYNAMIC,
    }
}

/// Make a window and its handle (collective over `comm`), with MPI_Win_create's arguments:
/// MPI_Win_create (`base` the application's memory), MPI_Win_create_dynamic and, through
/// `allocate`, the others (`base` NULL).
///
/// # Safety
/// `win` is NULL or valid for writing.
pub(crate) unsafe fn create(
    base: *mut c_void,
    size: MPI_Aint,
    disp_unit: impl Int,
    info: MPI_Info,
    comm: MPI_Comm,
    win: *mut MPI_Win,
    flavor: Flavor,
) -> Result<Arc<Window>> {
    let base = base as usize;
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    args::intra(&c)?;
    if win.is_null() {
        return mpi_err!(Arg, "NULL window pointer");
    }
    let size = win_size(size)?;
    // (The unit is an int to MPI_WIN_DISP_UNIT: a larger one of MPI_Win_create_c is
    // refused rather than misreported.)
    let disp_unit = disp_unit.wide();
    if disp_unit <= 0 || disp_unit > c_int::MAX as i64 {
        return mpi_err!(Arg, "displacement unit {disp_unit} is not a positive int");
    }
    if flavor == Flavor::Create && base == 0 && size > 0 {
        return mpi_err!(Arg, "NULL base for a window of {size} bytes");
    }
    let infos = super::info::pairs(info)?;
    let window = Arc::new(Window::new(
        w,
        &c,
        flavor,
        base,
        size as usize,
        disp_unit as usize,
    )?);
    let values = Box::new(WinAttrValues {
        size: window.size as MPI_Aint,
        disp_unit: window.disp_unit as c_int,
        flavor: flavor_code(flavor),
        model: MPI_WIN_UNIFIED,
    });
    let h = handles::new_win(WinEntry {
        win: window.clone(),
        errhandler: handles::UNSET_ERRHANDLER,
        name: String::new(),
        attrs: Vec::new(),
        base: if flavor == Flavor::Create {
            base
        } else {
            window.base
        },
        info: infos,
        values,
    });
    write_out(win, h)?;
    Ok(window)
}

/// MPI_Win_allocate (`shared` false) / MPI_Win_allocate_shared: the window's memory comes
/// from us.
///
/// # Safety
/// `baseptr` (really a `void **`) and `win` are NULL or valid for writing.
pub(crate) unsafe fn allocate(
    size: MPI_Aint,
    disp_unit: impl Int,
    info: MPI_Info,
    comm: MPI_Comm,
    baseptr: *mut c_void,
    win: *mut MPI_Win,
    shared: bool,
) -> Result<()> {
    if baseptr.is_null() {
        return mpi_err!(Arg, "NULL baseptr");
    }
    let flavor = if shared {
        Flavor::Shared
    } else {
        Flavor::Allocate
    };
    let w = create(
        std::ptr::null_mut(),
        size,
        disp_unit,
        info,
        comm,
        win,
        flavor,
    )?;
    write_out(baseptr as *mut *mut c_void, w.base as *mut c_void)
}

pub(crate) unsafe fn shared_query(
    win: MPI_Win,
    rank: c_int,
    size: *mut MPI_Aint,
    disp_unit: *mut impl Int,
    baseptr: *mut c_void,
) -> Result<()> {
    let w = handles::win(win)?;
    let (sz, du, base) = w.shared_query(win_rank(&w, rank)?)?;
    // A part of no bytes has no address (MPICH answers NULL; its
    // rma/win_shared_noncontig_put asserts it).
    let base = if sz == 0 { 0 } else { base };
    write_out(size, sz as MPI_Aint)?;
    args::put_int(disp_unit, du as i64)?;
    write_out(baseptr as *mut *mut c_void, base as *mut c_void)
}

/// The size of a window or of memory attached to one (MPI_ERR_SIZE if negative).
pub fn win_size(size: MPI_Aint) -> Result<u64> {
    u64::try_from(size).map_err(|_| Error::new(ErrorClass::Size, format!("negative size {size}")))
}

pub(crate) unsafe fn free(win: *mut MPI_Win) -> Result<()> {
    let h = if win.is_null() { MPI_WIN_NULL } else { *win };
    let w = shim::world()?;
    if win.is_null() {
        return mpi_err!(Arg, "NULL window pointer");
    }
    let window = handles::win(h)?;
    window.check_free()?;
    attr::delete_all_of(WinAttrs(h))?;
    window.free(w)?;
    handles::remove_win(h)?;
    *win = MPI_WIN_NULL;
    Ok(())
}

// ------------------------------------------------------------------ attributes, names

pub(crate) unsafe fn get_attr(
    win: MPI_Win,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    handles::win(win)?;
    let out = attribute_val as *mut *mut c_void;
    let predefined = handles::with_win_entry(win, |e| {
        let v = &*e.values;
        Some(match keyval {
            MPI_WIN_BASE => e.base as *mut c_void,
            MPI_WIN_SIZE => &v.size as *const MPI_Aint as *mut c_void,
            MPI_WIN_DISP_UNIT => &v.disp_unit as *const c_int as *mut c_void,
            MPI_WIN_CREATE_FLAVOR => &v.flavor as *const c_int as *mut c_void,
            MPI_WIN_MODEL => &v.model as *const c_int as *mut c_void,
            _ => return None,
        })
    })?;
    if let Some(p) = predefined {
        write_out(out, p)?;
        return write_out(flag, 1);
    }
    match attr::user_attr_of(WinAttrs(win), keyval)? {
        Some(v) => {
            write_out(out, v as *mut c_void)?;
            write_out(flag, 1)
        }
        None => write_out(flag, 0),
    }
}

pub(crate) unsafe fn set_name(win: MPI_Win, win_name: *const c_char) -> Result<()> {
    if win_name.is_null() {
        return mpi_err!(Arg, "NULL name");
    }
    let name = std::ffi::CStr::from_ptr(win_name).to_string_lossy();
    let max = MPI_MAX_OBJECT_NAME as usize - 1;
    let name: String = name.chars().take(max).collect();
    handles::with_win_entry(win, |e| e.name = name)
}

pub(crate) unsafe fn get_name(
    win: MPI_Win,
    win_name: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    // The null handle's name is its own (MPI-4.1 §12.2.6, as MPICH 5's).
    let name = match win {
        MPI_WIN_NULL => "MPI_WIN_NULL".to_string(),
        _ => handles::with_win_entry(win, |e| e.name.clone())?,
    };
    write_out_str(&name, win_name, MPI_MAX_OBJECT_NAME as usize, resultlen)
}

/// The window hints of MPI-3.1 §11.2.1 and their defaults.
const WIN_HINTS: [(&str, &str); 6] = [
    ("no_locks", "false"),
    ("accumulate_ordering", "rar,raw,war,waw"),
    ("accumulate_ops", "same_op_no_op"),
    ("same_size", "false"),
    ("same_disp_unit", "false"),
    ("alloc_shared_noncontig", "false"),
];

pub(crate) unsafe fn get_info(win: MPI_Win, info_used: *mut MPI_Info) -> Result<()> {
    let set = handles::with_win_entry(win, |e| e.info.clone())?;
    // The hints MPI-3.1 §11.2.1 defines, with their defaults unless given; other keys
    // are not hints railmpi knows, so they are not reported as used.
    let infos = WIN_HINTS
        .iter()
        .map(|&(k, default)| {
            let v = set.iter().find(|(sk, _)| sk == k).map(|(_, v)| v.clone());
            (k.to_string(), v.unwrap_or_else(|| default.to_string()))
        })
        .collect();
    write_out(info_used, handles::new_info(infos))
}

pub(crate) unsafe fn set_info(win: MPI_Win, info: MPI_Info) -> Result<()> {
    handles::win(win)?;
    let infos = handles::with_info(info, |e| e.clone())?;
    // No hint changes behaviour; they are kept for MPI_Win_get_info.
    handles::with_win_entry(win, |e| {
        for (k, v) in infos {
            match e.info.iter_mut().find(|(ek, _)| *ek == k) {
                Some(slot) => slot.1 = v,
                None => e.info.push((k, v)),
            }
        }
    })
}

// ------------------------------------------------------------------ error handlers

pub(crate) unsafe fn set_errhandler(win: MPI_Win, errhandler: MPI_Errhandler) -> Result<()> {
    if !handles::valid_errhandler(errhandler) {
        return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
    }
    handles::with_win_entry(win, |e| e.errhandler = errhandler)?;
    handles::retain_errhandler(errhandler);
    Ok(())
}

pub(crate) unsafe fn get_errhandler(win: MPI_Win, errhandler: *mut MPI_Errhandler) -> Result<()> {
    let h = handles::reported_errhandler(handles::with_win_entry(win, |e| e.errhandler)?);
    write_out(errhandler, h)?;
    handles::retain_errhandler(h);
    Ok(())
}

/// MPI_Win_call_errhandler (`bare`: the handler runs with the application's code).
pub(crate) unsafe fn call_errhandler(win: MPI_Win, errorcode: c_int) -> c_int {
    handles::win(win).map_or(MPI_ERR_WIN, |_| {
        super::errors::raise_win_code(
            "MPI_Win_call_errhandler",
            win,
            errorcode,
            &format!("error code {errorcode} raised by the application"),
        );
        MPI_SUCCESS
    })
}

// ------------------------------------------------------------------ communication

/// A target rank of the window, None for MPI_PROC_NULL.
fn win_rank(w: &Window, r: c_int) -> Result<Option<usize>> {
    args::dest(&w.comm, r)
}

fn target_disp(d: MPI_Aint) -> Result<u64> {
    if d < 0 {
        return mpi_err!(Disp, "negative target displacement {d}");
    }
    Ok(d as u64)
}

/// The latency path of MPI_Put / MPI_Get (see `Window::try_copy`): predefined datatypes
/// on both sides describing the same bytes, a buffer, a valid window and target memory in
/// an open passive epoch, copied where mapped here, else posted. Some(the call's return
/// code) when done (a rail's refusal goes to the window's error handler, as `func`'s);
/// None leaves everything — including reporting any error — to the general path.
///
/// # Safety
/// MPI's: `origin` holds `ocount` elements of `otype`.
#[inline]
unsafe fn fast_copy<I: Int>(
    func: &'static str,
    get: bool,
    origin: Buf<I>,
    target: Tgt<I>,
    win: MPI_Win,
) -> Option<c_int> {
    let (Buf(addr, ocount, otype), Tgt(rank, disp, tcount, ttype)) = (origin, target);
    let (o, t) = (builtin_types::lookup(otype)?, builtin_types::lookup(ttype)?);
    let (ocount, tcount) = (ocount.wide(), tcount.wide());
    let n = o.size.checked_mul(ocount.max(0) as usize)?;
    if addr.is_null()
        || rank < 0
        || disp < 0
        || Some(n) != t.size.checked_mul(tcount.max(0) as usize)
    {
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

/// A buffer argument as C passes it: address, count (int or MPI_Count), datatype handle.
#[derive(Clone, Copy)]
struct Buf<I>(*const c_void, I, MPI_Datatype);

/// The target arguments as C passes them: rank, displacement, count, datatype handle.
#[derive(Clone, Copy)]
struct Tgt<I>(c_int, MPI_Aint, I, MPI_Datatype);

/// Resolved arguments of one RMA communication call.
struct Call<'a> {
    win: &'a Window,
    /// None: MPI_PROC_NULL (nothing happens).
    target: Option<usize>,
    disp: u64,
    tcount: usize,
    ttype: TypeRef,
}

/// Check the target side and the epoch, then run `f` on the window (borrowed from the
/// handle table, not counted: this is the latency path).
fn with_call<T, I: Int>(
    win: MPI_Win,
    Tgt(target_rank, disp, tcount, tdatatype): Tgt<I>,
    request_based: bool,
    f: impl FnOnce(Call) -> Result<T>,
) -> Result<T> {
    let tcount = args::count_any(tcount)?;
    let ttype = handles::datatype(tdatatype)?;
    let disp = target_disp(disp)?;
    handles::with_win(win, |w| {
        let target = win_rank(w, target_rank)?;
        if let Some(t) = target {
            w.check_access(t, request_based)?;
        }
        f(Call {
            win: w,
            target,
            disp,
            tcount,
            ttype,
        })
    })
}

/// An origin-side buffer argument.
fn local<'a>(buf: *const c_void, count: impl Int, ty: &'a TypeRef) -> Result<Local<'a>> {
    let count = args::count_any(count)?;
    args::buffer(buf, count, ty)?;
    Ok(Local {
        addr: buf as usize,
        count,
        dtype: ty,
    })
}

impl Call<'_> {
    fn remote(&self, rank: usize) -> Remote<'_> {
        Remote {
            rank,
            disp: self.disp,
            count: self.tcount,
            dtype: &self.ttype,
        }
    }
}

/// The request handle of a request-based operation: already complete (operations
/// complete when issued).
///
/// # Safety
/// `request` is NULL or valid for writing.
unsafe fn done_request(request: *mut MPI_Request) -> Result<()> {
    write_out(request, handles::REQUEST_SEND_DONE)
}

#[allow(clippy::too_many_arguments)]
unsafe fn put_or_get<I: Int>(
    get: bool,
    origin: Buf<I>,
    target: Tgt<I>,
    win: MPI_Win,
    request_based: bool,
) -> Result<()> {
    let w = shim::world()?;
    let oty = handles::datatype(origin.2)?;
    let o = local(origin.0, origin.1, &oty)?;
    with_call(win, target, request_based, |call| {
        let Some(t) = call.target else { return Ok(()) };
        if get {
            call.win.get(w, o, call.remote(t))?;
        } else {
            call.win.put(w, o, call.remote(t))?;
        }
        // A request-based operation's request is complete when returned: its transfer
        // must have completed (the others complete at the epoch's synchronization).
        if request_based {
            call.win.settle(w, Some(t))?;
        }
        Ok(())
    })
}

/// MPI_Rput / MPI_Rget: large contiguous ones proceed at the target's helper while the
/// origin goes on (the request completes when the helper is done); others complete here.
#[allow(clippy::too_many_arguments)]
unsafe fn request_based<I: Int>(
    get: bool,
    origin: Buf<I>,
    target: Tgt<I>,
    win: MPI_Win,
    request: *mut MPI_Request,
) -> Result<()> {
    if request.is_null() {
        return mpi_err!(Arg, "NULL request pointer");
    }
    let w = shim::world()?;
    let oty = handles::datatype(origin.2)?;
    let o = local(origin.0, origin.1, &oty)?;
    let queued = with_call(win, target, true, |call| {
        let Some(t) = call.target else {
            return Ok(None);
        };
        Ok(call
            .win
            .start_async(w, get, o, call.remote(t))?
            .map(|seq| (t, seq)))
    })?;
    match queued {
        Some((rank, seq)) => write_out(
            request,
            handles::new_request(Entry::Rma {
                win: handles::win(win)?,
                target: rank,
                seq,
            }),
        ),
        None => {
            put_or_get(get, origin, target, win, true)?;
            done_request(request)
        }
    }
}

/// MPI_Put(_c) (`get` false) and MPI_Get(_c), with their own error boundary: the latency
/// path (`fast_copy`) comes before it.
///
/// # Safety
/// MPI's: the origin buffer holds `origin_count` elements of `origin_datatype`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) unsafe fn put_get<I: Int>(
    func: &'static str,
    get: bool,
    origin_addr: *const c_void,
    origin_count: I,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: I,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
) -> c_int {
    let tgt = Tgt(target_rank, target_disp, target_count, target_datatype);
    let origin = Buf(origin_addr, origin_count, origin_datatype);
    if let Some(rc) = fast_copy(func, get, origin, tgt, win) {
        return rc;
    }
    run_win(func, win, || put_or_get(get, origin, tgt, win, false))
}

/// MPI_Rput(_c) and MPI_Rget(_c).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn rput_rget<I: Int>(
    origin_addr: *const c_void,
    origin_count: I,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: I,
    target_datatype: MPI_Datatype,
    win: MPI_Win,
    request: *mut MPI_Request,
    get: bool,
) -> Result<()> {
    let tgt = Tgt(target_rank, target_disp, target_count, target_datatype);
    let origin = Buf(origin_addr, origin_count, origin_datatype);
    request_based(get, origin, tgt, win, request)
}

/// An accumulate-family operation: one-sided ops are predefined ones, MPI_REPLACE and
/// MPI_NO_OP (MPI_NO_OP only where results are fetched).
fn rma_op(h: MPI_Op, fetching: bool) -> Result<Op> {
    let o = op::predefined_op(h)?;
    if o == Op::NoOp && !fetching {
        return mpi_err!(
            Op,
            "MPI_NO_OP is only for MPI_Get_accumulate and MPI_Fetch_and_op"
        );
    }
    Ok(o)
}

#[allow(clippy::too_many_arguments)]
unsafe fn accumulate<I: Int>(
    origin: Option<Buf<I>>,
    result: Option<Buf<I>>,
    target: Tgt<I>,
    op: MPI_Op,
    win: MPI_Win,
    request_based: bool,
) -> Result<()> {
    let w = shim::world()?;
    let op = rma_op(op, result.is_some())?;
    let oty = match origin {
        Some(Buf(_, _, t)) if op != Op::NoOp => Some(handles::datatype(t)?),
        _ => None,
    };
    let rty = match result {
        Some(Buf(_, _, t)) => Some(handles::datatype(t)?),
        None => None,
    };
    let o = match (origin, &oty) {
        (Some(Buf(b, c, _)), Some(ty)) => Some(local(b, c, ty)?),
        _ => None,
    };
    let r = match (result, &rty) {
        (Some(Buf(b, c, _)), Some(ty)) => Some(local(b, c, ty)?),
        _ => None,
    };
    with_call(win, target, request_based, |call| {
        let Some(t) = call.target else { return Ok(()) };
        call.win.accumulate(w, op, o, r, call.remote(t))
    })
}

/// MPI_Accumulate(_c) (`request` None) and MPI_Raccumulate(_c).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn acc<I: Int>(
    origin_addr: *const c_void,
    origin_count: I,
    origin_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: I,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let tgt = Tgt(target_rank, target_disp, target_count, target_datatype);
    let origin = Buf(origin_addr, origin_count, origin_datatype);
    accumulate(Some(origin), None, tgt, op, win, request.is_some())?;
    request.map_or(Ok(()), |r| done_request(r))
}

/// MPI_Get_accumulate(_c) (`request` None) and MPI_Rget_accumulate(_c).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn get_acc<I: Int>(
    origin_addr: *const c_void,
    origin_count: I,
    origin_datatype: MPI_Datatype,
    result_addr: *mut c_void,
    result_count: I,
    result_datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    target_count: I,
    target_datatype: MPI_Datatype,
    op: MPI_Op,
    win: MPI_Win,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let tgt = Tgt(target_rank, target_disp, target_count, target_datatype);
    let origin = Buf(origin_addr, origin_count, origin_datatype);
    let result = Buf(result_addr as *const c_void, result_count, result_datatype);
    accumulate(Some(origin), Some(result), tgt, op, win, request.is_some())?;
    request.map_or(Ok(()), |r| done_request(r))
}

pub(crate) unsafe fn fetch_and_op(
    origin_addr: *const c_void,
    result_addr: *mut c_void,
    datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    op: MPI_Op,
    win: MPI_Win,
) -> Result<()> {
    predefined_type(datatype)?;
    accumulate(
        Some(Buf(origin_addr, 1 as c_int, datatype)),
        Some(Buf(result_addr, 1, datatype)),
        Tgt(target_rank, target_disp, 1, datatype),
        op,
        win,
        false,
    )
}

/// Fetch-and-op and compare-and-swap take one predefined element.
fn predefined_type(h: MPI_Datatype) -> Result<TypeRef> {
    let t = handles::datatype(h)?;
    if !t.predefined || t.basic.is_none() {
        return mpi_err!(Type, "a predefined datatype is required");
    }
    Ok(t)
}

pub(crate) unsafe fn compare_and_swap(
    origin_addr: *const c_void,
    compare_addr: *const c_void,
    result_addr: *mut c_void,
    datatype: MPI_Datatype,
    target_rank: c_int,
    target_disp: MPI_Aint,
    win: MPI_Win,
) -> Result<()> {
    {
        let w = shim::world()?;
        let ty = predefined_type(datatype)?;
        let (basic, _) = ty.basic.expect("checked");
        // MPI allows C integer, Fortran integer, logical, byte types.
        if !matches!(
            basic,
            crate::datatype::Basic::I8
                | crate::datatype::Basic::U8
                | crate::datatype::Basic::I16
                | crate::datatype::Basic::U16
                | crate::datatype::Basic::I32
                | crate::datatype::Basic::U32
                | crate::datatype::Basic::I64
                | crate::datatype::Basic::U64
                | crate::datatype::Basic::Bool
                | crate::datatype::Basic::Byte
        ) {
            return mpi_err!(
                Type,
                "MPI_Compare_and_swap needs an integer, logical or byte type"
            );
        }
        let n = ty.size;
        for p in [origin_addr, compare_addr, result_addr as *const c_void] {
            if p.is_null() {
                return mpi_err!(Buffer, "NULL buffer");
            }
        }
        with_call(
            win,
            Tgt(target_rank, target_disp, 1 as c_int, datatype),
            false,
            |call| {
                let Some(t) = call.target else { return Ok(()) };
                let origin = std::slice::from_raw_parts(origin_addr as *const u8, n);
                let compare = std::slice::from_raw_parts(compare_addr as *const u8, n);
                let mut result = [0u8; 32];
                call.win.compare_and_swap(
                    w,
                    basic,
                    origin,
                    compare,
                    &mut result[..n],
                    call.remote(t),
                )?;
                std::ptr::copy_nonoverlapping(result.as_ptr(), result_addr as *mut u8, n);
                Ok(())
            },
        )
    }
}

// ------------------------------------------------------------------ synchronization

/// Assertions a call accepts (anything else is MPI_ERR_ASSERT).
fn check_assert(assert: c_int, allowed: c_int) -> Result<()> {
    if assert & !allowed != 0 {
        return mpi_err!(Assert, "invalid assert {assert:#x}");
    }
    Ok(())
}

/// The assertion of a call that accepts MPI_MODE_NOCHECK only: whether it is given.
pub fn nocheck(assert: c_int) -> Result<bool> {
    check_assert(assert, MPI_MODE_NOCHECK)?;
    Ok(assert & MPI_MODE_NOCHECK != 0)
}

pub(crate) unsafe fn fence(assert: c_int, win: MPI_Win) -> Result<()> {
    let w = shim::world()?;
    check_assert(
        assert,
        MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED,
    )?;
    handles::win(win)?.fence(w, assert & MPI_MODE_NOSUCCEED != 0)
}

/// The window-communicator ranks of `group`'s members (MPI_ERR_GROUP if one is not in it).
fn group_ranks(w: &Window, group: MPI_Group) -> Result<Vec<usize>> {
    let g = handles::group(group)?;
    g.members
        .iter()
        .map(|&m| {
            w.comm.group.rank_of(m).ok_or_else(|| {
                Error::new(
                    ErrorClass::Group,
                    format!("process {m} of the group is not in the window"),
                )
            })
        })
        .collect()
}

pub(crate) unsafe fn post(group: MPI_Group, assert: c_int, win: MPI_Win) -> Result<()> {
    let world = shim::world()?;
    check_assert(assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)?;
    let w = handles::win(win)?;
    let ranks = group_ranks(&w, group)?;
    w.post(world, ranks)
}

pub(crate) unsafe fn start(group: MPI_Group, assert: c_int, win: MPI_Win) -> Result<()> {
    let world = shim::world()?;
    let nocheck = nocheck(assert)?;
    let w = handles::win(win)?;
    let ranks = group_ranks(&w, group)?;
    w.start(world, ranks, nocheck)
}

pub(crate) unsafe fn lock(
    lock_type: c_int,
    rank: c_int,
    assert: c_int,
    win: MPI_Win,
) -> Result<()> {
    let world = shim::world()?;
    let kind = match lock_type {
        MPI_LOCK_EXCLUSIVE => LockKind::Exclusive,
        MPI_LOCK_SHARED => LockKind::Shared,
        _ => return mpi_err!(LockType, "invalid lock type {lock_type}"),
    };
    let nocheck = nocheck(assert)?;
    let w = handles::win(win)?;
    let Some(t) = win_rank(&w, rank)? else {
        return Ok(());
    };
    w.lock(world, kind, t, nocheck)
}

pub(crate) unsafe fn unlock(rank: c_int, win: MPI_Win) -> Result<()> {
    let world = shim::world()?;
    let w = handles::win(win)?;
    let Some(t) = win_rank(&w, rank)? else {
        return Ok(());
    };
    w.unlock(world, t)
}

/// MPI_Win_flush and MPI_Win_flush_local (operations complete at the target when they
/// complete here).
pub(crate) unsafe fn flush(rank: c_int, win: MPI_Win) -> Result<()> {
    let world = shim::world()?;
    handles::with_win(win, |w| match win_rank(w, rank)? {
        Some(t) => w.flush(world, Some(t)),
        None => Ok(()),
    })
}
