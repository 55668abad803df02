//! The tool information interface's C side (MPI-4.1 §15.3): handles, sessions and strings
//! over `crate::tool`. Every call returns its error as its code (no error handler runs:
//! `shim::run_tool`) and, but MPI_T_init_thread, needs the interface initialised.
//!
//! Handles are pointers in MPICH's ABI; railmpi's are table slots dressed as pointers
//! (`KIND_* | slot + 1`, never dereferenced), told apart by kind.

use super::consts::*;
use super::shim::write_out;
use crate::error::{Error, ErrorClass, Result};
use crate::tool::handles::{self as th, CvarHandle, PvarHandle};
use crate::tool::{self, categories, cvars, pvars};
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};

const KIND_CVAR: usize = 0x7c00_0000;
const KIND_PVAR: usize = 0x7d00_0000;
const KIND_SESSION: usize = 0x7e00_0000;
const SLOT_MASK: usize = 0x00ff_ffff;

fn encode<T>(kind: usize, slot: usize) -> *mut T {
    std::ptr::without_provenance_mut(kind | (slot + 1))
}

/// The slot a handle of `kind` names (None: not one of that kind).
fn decode<T>(kind: usize, h: *mut T) -> Option<usize> {
    let a = h as usize;
    (a & !SLOT_MASK == kind && a & SLOT_MASK != 0).then(|| (a & SLOT_MASK) - 1)
}

fn bad_handle(what: &str) -> Error {
    Error::new(ErrorClass::TInvalidHandle, format!("invalid {what} handle"))
}

fn cvar_handle(h: MPI_T_cvar_handle) -> Result<CvarHandle> {
    decode(KIND_CVAR, h)
        .and_then(th::cvar)
        .ok_or_else(|| bad_handle("control variable"))
}

fn session(s: MPI_T_pvar_session) -> Result<usize> {
    decode(KIND_SESSION, s)
        .filter(|&i| th::session_live(i))
        .ok_or_else(|| Error::new(ErrorClass::TInvalidSession, "invalid pvar session"))
}

/// A specific handle of session `s` (Ok(None): MPI_T_PVAR_ALL_HANDLES).
fn pvar_handle(s: MPI_T_pvar_session, h: MPI_T_pvar_handle) -> Result<Option<PvarHandle>> {
    let s = session(s)?;
    if h == MPI_T_PVAR_ALL_HANDLES.0 {
        return Ok(None);
    }
    decode(KIND_PVAR, h)
        .and_then(th::pvar)
        .filter(|p| p.session == s)
        .map(Some)
        .ok_or_else(|| bad_handle("performance variable"))
}

/// Write `v` where the caller asked (a NULL output is one it does not want).
///
/// # Safety
/// `p` is NULL or valid for writing.
unsafe fn opt<T>(p: *mut T, v: T) {
    if !p.is_null() {
        p.write(v);
    }
}

/// A string output (MPI-4.1 §15.3.3): with `*len` 0 or `out` NULL, `*len` becomes the
/// length needed (with the NUL); else at most `*len - 1` characters and a NUL are stored and
/// `*len` becomes what was stored. A NULL `len` asks for nothing.
///
/// # Safety
/// `len` is NULL or valid; `out` is NULL or has room for `*len` characters.
unsafe fn string_out(s: &str, out: *mut c_char, len: *mut c_int) {
    if len.is_null() {
        return;
    }
    let cap = usize::try_from(*len).unwrap_or(0);
    if out.is_null() || cap == 0 {
        *len = (s.len() + 1) as c_int;
        return;
    }
    let n = s.len().min(cap - 1);
    std::ptr::copy_nonoverlapping(s.as_ptr(), out.cast::<u8>(), n);
    *out.add(n) = 0;
    *len = (n + 1) as c_int;
}

/// A name argument.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
pub(crate) unsafe fn name_arg<'a>(name: *const c_char) -> Result<&'a str> {
    if name.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL name"));
    }
    CStr::from_ptr(name)
        .to_str()
        .map_err(|_| Error::new(ErrorClass::TInvalidName, "a name that is not UTF-8"))
}

// ---------------------------------------------------------------- setup

/// MPI_T_init_thread: any thread level is provided as asked (the interface takes its own
/// locks).
///
/// # Safety
/// `provided` is NULL or valid for writing.
pub unsafe fn init_thread(required: c_int, provided: *mut c_int) -> Result<()> {
    if provided.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL provided"));
    }
    tool::init();
    *provided = required.clamp(MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
    Ok(())
}

// ---------------------------------------------------------------- control variables

/// MPI_T_cvar_get_info: every output may be NULL (not wanted).
///
/// # Safety
/// Each output is NULL or valid; strings as `string_out` says.
#[allow(clippy::too_many_arguments)]
pub unsafe fn cvar_get_info(
    cvar_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    verbosity: *mut c_int,
    datatype: *mut MPI_Datatype,
    enumtype: *mut MPI_T_enum,
    desc: *mut c_char,
    desc_len: *mut c_int,
    bind: *mut c_int,
    scope: *mut c_int,
) -> Result<()> {
    tool::check()?;
    let c = &cvars::all()[tool::index(cvar_index, cvars::all().len(), "control variable")?];
    string_out(c.name, name, name_len);
    opt(verbosity, MPI_T_VERBOSITY_TUNER_BASIC);
    opt(
        datatype,
        if c.numeric {
            MPI_UNSIGNED_LONG_LONG
        } else {
            MPI_CHAR
        },
    );
    opt(enumtype, MPI_T_ENUM_NULL);
    string_out(c.desc, desc, desc_len);
    opt(bind, MPI_T_BIND_NO_OBJECT);
    // Read once at start-up: a constant for the life of the process.
    opt(scope, MPI_T_SCOPE_CONSTANT);
    Ok(())
}

/// MPI_T_cvar_handle_alloc (bound to no object: `obj_handle` is ignored).
///
/// # Safety
/// `handle` and `count` are NULL or valid for writing.
pub unsafe fn cvar_handle_alloc(
    cvar_index: c_int,
    _obj_handle: *mut c_void,
    handle: *mut MPI_T_cvar_handle,
    count: *mut c_int,
) -> Result<()> {
    tool::check()?;
    let var = tool::index(cvar_index, cvars::all().len(), "control variable")?;
    if handle.is_null() || count.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL handle or count"));
    }
    let n = match cvars::all()[var].numeric {
        true => 1,
        false => cvars::text_capacity(var),
    };
    let slot = th::new_cvar(CvarHandle { var, count: n });
    *handle = encode(KIND_CVAR, slot);
    *count = n as c_int;
    Ok(())
}

/// MPI_T_cvar_handle_free.
///
/// # Safety
/// `handle` is NULL or valid.
pub unsafe fn cvar_handle_free(handle: *mut MPI_T_cvar_handle) -> Result<()> {
    tool::check()?;
    if handle.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL handle"));
    }
    cvar_handle(*handle)?;
    let slot = decode(KIND_CVAR, *handle).expect("checked");
    th::free_cvar(slot);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    Ok(())
}

/// MPI_T_cvar_read: a number as one unsigned long long, a string NUL-terminated in at most
/// the handle's count of chars.
///
/// # Safety
/// `buf` has room for the handle's count of elements of the variable's type.
pub unsafe fn cvar_read(handle: MPI_T_cvar_handle, buf: *mut c_void) -> Result<()> {
    tool::check()?;
    let h = cvar_handle(handle)?;
    if buf.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL buffer"));
    }
    match cvars::read(h.var)? {
        cvars::Value::Number(n) => buf.cast::<u64>().write_unaligned(n),
        cvars::Value::Text(t) => {
            let n = t.len().min(h.count - 1);
            std::ptr::copy_nonoverlapping(t.as_ptr(), buf.cast::<u8>(), n);
            *buf.cast::<u8>().add(n) = 0;
        }
    }
    Ok(())
}

/// MPI_T_cvar_write: railmpi reads its settings once, at start-up.
pub fn cvar_write(handle: MPI_T_cvar_handle, _buf: *const c_void) -> Result<()> {
    tool::check()?;
    let h = cvar_handle(handle)?;
    Err(Error::new(
        ErrorClass::TCvarSetNever,
        format!("{} is read at start-up only", cvars::all()[h.var].name),
    ))
}

// ---------------------------------------------------------------- performance variables

fn class_code(c: pvars::Class) -> c_int {
    match c {
        pvars::Class::Level => MPI_T_PVAR_CLASS_LEVEL,
        pvars::Class::HighWatermark => MPI_T_PVAR_CLASS_HIGHWATERMARK,
        pvars::Class::Counter => MPI_T_PVAR_CLASS_COUNTER,
    }
}

/// MPI_T_pvar_get_info: every output may be NULL (not wanted).
///
/// # Safety
/// Each output is NULL or valid; strings as `string_out` says.
#[allow(clippy::too_many_arguments)]
pub unsafe fn pvar_get_info(
    pvar_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    verbosity: *mut c_int,
    var_class: *mut c_int,
    datatype: *mut MPI_Datatype,
    enumtype: *mut MPI_T_enum,
    desc: *mut c_char,
    desc_len: *mut c_int,
    bind: *mut c_int,
    readonly: *mut c_int,
    continuous: *mut c_int,
    atomic: *mut c_int,
) -> Result<()> {
    tool::check()?;
    let p = &pvars::ALL[tool::index(pvar_index, pvars::ALL.len(), "performance variable")?];
    string_out(p.name, name, name_len);
    opt(verbosity, MPI_T_VERBOSITY_USER_BASIC);
    opt(var_class, class_code(p.class));
    opt(
        datatype,
        if p.float() {
            MPI_DOUBLE
        } else {
            MPI_UNSIGNED_LONG_LONG
        },
    );
    opt(enumtype, MPI_T_ENUM_NULL);
    string_out(p.desc, desc, desc_len);
    opt(bind, MPI_T_BIND_NO_OBJECT);
    opt(readonly, 1);
    opt(continuous, 1);
    opt(atomic, 0);
    Ok(())
}

/// MPI_T_pvar_get_index: the variable of that name and class.
///
/// # Safety
/// `name` is a string; `pvar_index` is NULL or valid.
pub unsafe fn pvar_get_index(
    name: *const c_char,
    var_class: c_int,
    pvar_index: *mut c_int,
) -> Result<()> {
    tool::check()?;
    let name = name_arg(name)?;
    let names = pvars::ALL.iter().map(|p| {
        if class_code(p.class) == var_class {
            p.name
        } else {
            ""
        }
    });
    let i = tool::by_name(names, name)?;
    write_out(pvar_index, i as c_int)
}

/// MPI_T_pvar_session_create.
///
/// # Safety
/// `pe_session` is NULL or valid for writing.
pub unsafe fn pvar_session_create(pe_session: *mut MPI_T_pvar_session) -> Result<()> {
    tool::check()?;
    if pe_session.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL session"));
    }
    *pe_session = encode(KIND_SESSION, th::new_session());
    Ok(())
}

/// MPI_T_pvar_session_free: its handles go with it.
///
/// # Safety
/// `pe_session` is NULL or valid.
pub unsafe fn pvar_session_free(pe_session: *mut MPI_T_pvar_session) -> Result<()> {
    tool::check()?;
    if pe_session.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL session"));
    }
    th::free_session(session(*pe_session)?);
    *pe_session = MPI_T_PVAR_SESSION_NULL;
    Ok(())
}

/// MPI_T_pvar_handle_alloc (bound to no object: `obj_handle` is ignored).
///
/// # Safety
/// `handle` and `count` are NULL or valid for writing.
pub unsafe fn pvar_handle_alloc(
    pe_session: MPI_T_pvar_session,
    pvar_index: c_int,
    _obj_handle: *mut c_void,
    handle: *mut MPI_T_pvar_handle,
    count: *mut c_int,
) -> Result<()> {
    tool::check()?;
    let s = session(pe_session)?;
    let var = tool::index(pvar_index, pvars::ALL.len(), "performance variable")?;
    if handle.is_null() || count.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL handle or count"));
    }
    let n = pvars::count(var);
    let h = PvarHandle {
        session: s,
        var,
        count: n,
    };
    let slot = th::new_pvar(h);
    *handle = encode(KIND_PVAR, slot);
    *count = n as c_int;
    Ok(())
}

/// MPI_T_pvar_handle_free.
///
/// # Safety
/// `handle` is NULL or valid.
pub unsafe fn pvar_handle_free(
    pe_session: MPI_T_pvar_session,
    handle: *mut MPI_T_pvar_handle,
) -> Result<()> {
    tool::check()?;
    if handle.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL handle"));
    }
    if pvar_handle(pe_session, *handle)?.is_none() {
        return Err(bad_handle("performance variable"));
    }
    let slot = decode(KIND_PVAR, *handle).expect("checked");
    th::free_pvar(slot);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    Ok(())
}

/// MPI_T_pvar_start and MPI_T_pvar_stop: every variable is continuous (for all handles at
/// once there is nothing to do).
pub fn pvar_start_stop(pe_session: MPI_T_pvar_session, handle: MPI_T_pvar_handle) -> Result<()> {
    tool::check()?;
    match pvar_handle(pe_session, handle)? {
        None => Ok(()),
        Some(_) => Err(Error::new(
            ErrorClass::TPvarNoStartstop,
            "railmpi's performance variables are continuous",
        )),
    }
}

/// MPI_T_pvar_read: the handle's count of elements (unsigned long long, or double).
///
/// # Safety
/// `buf` has room for the handle's count of elements of the variable's type.
pub unsafe fn pvar_read(
    pe_session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
    buf: *mut c_void,
) -> Result<()> {
    tool::check()?;
    let Some(h) = pvar_handle(pe_session, handle)? else {
        return Err(bad_handle("MPI_T_PVAR_ALL_HANDLES is no"));
    };
    if buf.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL buffer"));
    }
    // A variable grows no elements after its handle was made (rails are fixed at MPI_Init,
    // and read 0 before it): missing ones are 0, extra ones dropped.
    match pvars::read(h.var) {
        pvars::Values::U64(v) => {
            let out = buf.cast::<u64>();
            for i in 0..h.count {
                out.add(i).write_unaligned(v.get(i).copied().unwrap_or(0));
            }
        }
        pvars::Values::F64(v) => {
            let out = buf.cast::<f64>();
            for i in 0..h.count {
                out.add(i).write_unaligned(v.get(i).copied().unwrap_or(0.0));
            }
        }
    }
    Ok(())
}

/// MPI_T_pvar_write, MPI_T_pvar_reset and MPI_T_pvar_readreset: every variable is
/// read-only (a reset for all handles at once has nothing to do).
pub fn pvar_write(pe_session: MPI_T_pvar_session, handle: MPI_T_pvar_handle) -> Result<()> {
    tool::check()?;
    match pvar_handle(pe_session, handle)? {
        None => Ok(()),
        Some(_) => Err(Error::new(
            ErrorClass::TPvarNoWrite,
            "railmpi's performance variables are read-only",
        )),
    }
}

// ---------------------------------------------------------------- categories

/// MPI_T_category_get_info: every output may be NULL (not wanted).
///
/// # Safety
/// Each output is NULL or valid; strings as `string_out` says.
#[allow(clippy::too_many_arguments)]
pub unsafe fn category_get_info(
    cat_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    desc: *mut c_char,
    desc_len: *mut c_int,
    num_cvars: *mut c_int,
    num_pvars: *mut c_int,
    num_categories: *mut c_int,
) -> Result<()> {
    tool::check()?;
    let i = tool::index(cat_index, categories::ALL.len(), "category")?;
    let c = &categories::ALL[i];
    string_out(c.name, name, name_len);
    string_out(c.desc, desc, desc_len);
    opt(num_cvars, cvars::of_category(i).len() as c_int);
    opt(num_pvars, pvars::of_category(i).len() as c_int);
    opt(num_categories, 0);
    Ok(())
}

/// What MPI_T_category_get_cvars, _pvars, _categories and _events list: the first `len`.
///
/// # Safety
/// `indices` has room for `len` ints.
unsafe fn list(
    cat_index: c_int,
    len: c_int,
    indices: *mut c_int,
    of: fn(usize) -> Vec<usize>,
) -> Result<()> {
    tool::check()?;
    let i = tool::index(cat_index, categories::ALL.len(), "category")?;
    let Ok(len) = usize::try_from(len) else {
        return Err(Error::new(
            ErrorClass::TInvalid,
            format!("negative length {len}"),
        ));
    };
    let members = of(i);
    if len > 0 && !members.is_empty() && indices.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL indices"));
    }
    for (k, m) in members.into_iter().take(len).enumerate() {
        *indices.add(k) = m as c_int;
    }
    Ok(())
}

/// MPI_T_category_get_cvars.
///
/// # Safety
/// As `list`.
pub unsafe fn category_get_cvars(cat_index: c_int, len: c_int, indices: *mut c_int) -> Result<()> {
    list(cat_index, len, indices, cvars::of_category)
}

/// MPI_T_category_get_pvars.
///
/// # Safety
/// As `list`.
pub unsafe fn category_get_pvars(cat_index: c_int, len: c_int, indices: *mut c_int) -> Result<()> {
    list(cat_index, len, indices, pvars::of_category)
}

/// MPI_T_category_get_categories and MPI_T_category_get_events: categories hold neither.
///
/// # Safety
/// As `list`.
pub unsafe fn category_get_none(cat_index: c_int, len: c_int, indices: *mut c_int) -> Result<()> {
    list(cat_index, len, indices, |_| Vec::new())
}

// ---------------------------------------------------------------- enumerations, events

/// MPI_T_enum_get_info and MPI_T_enum_get_item: no variable has an enumeration.
pub fn enum_get(enumtype: MPI_T_enum) -> Result<()> {
    tool::check()?;
    Err(bad_handle(&format!("enumeration {enumtype:p}: no")))
}

/// MPI_T_event_get_info and MPI_T_event_handle_alloc: no event has an index.
pub fn event_index(event_index: c_int) -> Result<()> {
    tool::check()?;
    tool::index(event_index, 0, "event type").map(|_| ())
}

/// MPI_T_event_get_index: no event has a name.
///
/// # Safety
/// `name` is a string.
pub unsafe fn event_get_index(name: *const c_char) -> Result<()> {
    tool::check()?;
    tool::by_name(std::iter::empty(), name_arg(name)?).map(|_| ())
}

/// The calls on event registrations and instances: there are none to name.
pub fn event_handle() -> Result<()> {
    tool::check()?;
    Err(bad_handle("event registration or instance"))
}

// ---------------------------------------------------------------- sources

/// MPI_T_source_get_info: every output may be NULL (not wanted); `info` gets a new, empty
/// info object.
///
/// # Safety
/// Each output is NULL or valid; strings as `string_out` says.
#[allow(clippy::too_many_arguments)]
pub unsafe fn source_get_info(
    source_index: c_int,
    name: *mut c_char,
    name_len: *mut c_int,
    desc: *mut c_char,
    desc_len: *mut c_int,
    ordering: *mut MPI_T_source_order,
    ticks_per_second: *mut MPI_Count,
    max_ticks: *mut MPI_Count,
    info: *mut MPI_Info,
) -> Result<()> {
    tool::check()?;
    tool::index(source_index, 1, "source")?;
    string_out("railmpi_clock", name, name_len);
    string_out("CLOCK_MONOTONIC, in nanoseconds", desc, desc_len);
    opt(ordering, MPI_T_SOURCE_ORDERED);
    opt(ticks_per_second, 1_000_000_000);
    opt(max_ticks, MPI_Count::MAX);
    if !info.is_null() {
        *info = super::handles::new_info(Vec::new());
    }
    Ok(())
}
