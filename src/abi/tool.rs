//! The tool information interface's C side (MPI-4.1 §15.3) over `crate::tool`, which holds
//! each call's checks and answers: here handles are encoded, MPI constants given and the
//! answers written out. Every call returns its error as its code (no error handler runs:
//! `shim::run_tool`). Outputs the standard lets a caller leave NULL (the get_info calls')
//! are written only when given; the others are NULL or valid for writing, buffers as the
//! handle's count says.
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

pub(crate) const KIND_CVAR: usize = 0x7c00_0000;
pub(crate) const KIND_PVAR: usize = 0x7d00_0000;
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

/// The slot of control variable handle `h` (the interface initialised first).
pub(crate) fn cvar_slot(h: MPI_T_cvar_handle) -> Result<usize> {
    tool::check()?;
    decode(KIND_CVAR, h)
        .filter(|&slot| th::cvar(slot).is_some())
        .ok_or_else(|| bad_handle("control variable"))
}

pub(crate) fn cvar_handle(h: MPI_T_cvar_handle) -> Result<CvarHandle> {
    Ok(th::cvar(cvar_slot(h)?).expect("checked"))
}

pub(crate) fn session(s: MPI_T_pvar_session) -> Result<usize> {
    decode(KIND_SESSION, s)
        .filter(|&i| th::session_live(i))
        .ok_or_else(|| Error::new(ErrorClass::TInvalidSession, "invalid pvar session"))
}

/// A specific handle of session `s`, and its slot (Ok(None): MPI_T_PVAR_ALL_HANDLES; the
/// interface initialised first).
fn pvar_slot(s: MPI_T_pvar_session, h: MPI_T_pvar_handle) -> Result<Option<(usize, PvarHandle)>> {
    tool::check()?;
    let s = session(s)?;
    if h == MPI_T_PVAR_ALL_HANDLES.0 {
        return Ok(None);
    }
    let found = decode(KIND_PVAR, h).and_then(|slot| Some((slot, th::pvar(s, slot)?)));
    found
        .map(Some)
        .ok_or_else(|| bad_handle("performance variable"))
}

pub(crate) fn pvar_handle(
    s: MPI_T_pvar_session,
    h: MPI_T_pvar_handle,
) -> Result<Option<PvarHandle>> {
    Ok(pvar_slot(s, h)?.map(|(_, h)| h))
}

/// The slot of a specific handle of session `s` (MPI_T_PVAR_ALL_HANDLES is none).
pub(crate) fn pvar_handle_slot(s: MPI_T_pvar_session, h: MPI_T_pvar_handle) -> Result<usize> {
    let found = pvar_slot(s, h)?.map(|(slot, _)| slot);
    found.ok_or_else(|| bad_handle("performance variable"))
}

/// MPI_T_pvar_handle_alloc's session and variable (the interface initialised first).
pub(crate) fn pvar_target(s: MPI_T_pvar_session, pvar_index: c_int) -> Result<(usize, usize)> {
    tool::check()?;
    let s = session(s)?;
    Ok((s, pvars::index(pvar_index)?))
}

/// MPI_T_cvar_handle_alloc and MPI_T_pvar_handle_alloc (bound to no object: the object
/// handle is ignored): `var` is what the checks of the arguments before these outputs
/// found, `new` makes the handle of `kind` from it (slot, element count).
pub(crate) unsafe fn handle_alloc<V, T>(
    var: Result<V>,
    handle: *mut *mut T,
    count: *mut c_int,
    kind: usize,
    new: impl FnOnce(V) -> (usize, usize),
) -> Result<()> {
    let var = var?;
    if handle.is_null() || count.is_null() {
        return Err(null("handle or count"));
    }
    let (slot, n) = new(var);
    *handle = encode(kind, slot);
    *count = n as c_int;
    Ok(())
}

/// MPI_T_pvar_session_create.
pub(crate) unsafe fn session_create(pe_session: *mut MPI_T_pvar_session) -> Result<()> {
    tool::check()?;
    if pe_session.is_null() {
        return Err(null("session"));
    }
    *pe_session = encode(KIND_SESSION, th::new_session());
    Ok(())
}

/// MPI_T_cvar_handle_free, MPI_T_pvar_handle_free, MPI_T_pvar_session_free (whose handles
/// go with it): `slot` finds the slot of the handle at `p`, `free` frees it, and `p` gets
/// the null handle.
pub(crate) unsafe fn free<T>(
    p: *mut *mut T,
    slot: impl FnOnce(*mut T) -> Result<usize>,
    free: fn(usize),
) -> Result<()> {
    tool::check()?;
    if p.is_null() {
        return Err(null("handle"));
    }
    free(slot(*p)?);
    *p = std::ptr::null_mut();
    Ok(())
}

/// Write `v` where the caller asked (a NULL output is one it does not want).
unsafe fn opt<T>(p: *mut T, v: T) {
    if !p.is_null() {
        p.write(v);
    }
}

/// A string output by `tool::stored`'s rule (a NULL `len` asks for nothing).
unsafe fn string_out(s: &str, out: *mut c_char, len: *mut c_int) {
    if len.is_null() {
        return;
    }
    let cap = if out.is_null() {
        0
    } else {
        (*len).max(0) as usize
    };
    let n = tool::stored(s.len(), cap);
    if let Some(n) = n {
        std::ptr::copy_nonoverlapping(s.as_ptr(), out.cast::<u8>(), n);
        *out.add(n) = 0;
    }
    *len = (n.unwrap_or(s.len()) + 1) as c_int;
}

/// A name argument.
pub(crate) unsafe fn name_arg<'a>(name: *const c_char) -> Result<&'a str> {
    if name.is_null() {
        return Err(Error::new(ErrorClass::Arg, "NULL name"));
    }
    CStr::from_ptr(name)
        .to_str()
        .map_err(|_| Error::new(ErrorClass::TInvalidName, "a name that is not UTF-8"))
}

fn null(what: &str) -> Error {
    Error::new(ErrorClass::Arg, format!("NULL {what}"))
}

/// MPI_T_init_thread: any thread level is provided as asked (the interface takes its own
/// locks).
pub unsafe fn init_thread(required: c_int, provided: *mut c_int) -> Result<()> {
    if provided.is_null() {
        return Err(null("provided"));
    }
    tool::init();
    *provided = required.clamp(MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
    Ok(())
}

// ---------------------------------------------------------------- control variables

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
    let c = &cvars::all()[cvars::index(cvar_index)?];
    string_out(c.name, name, name_len);
    opt(verbosity, MPI_T_VERBOSITY_TUNER_BASIC);
    opt(
        datatype,
        [MPI_CHAR, MPI_UNSIGNED_LONG_LONG][c.numeric as usize],
    );
    opt(enumtype, MPI_T_ENUM_NULL);
    string_out(c.desc, desc, desc_len);
    opt(bind, MPI_T_BIND_NO_OBJECT);
    // Read once at start-up: a constant for the life of the process.
    opt(scope, MPI_T_SCOPE_CONSTANT);
    Ok(())
}

/// MPI_T_cvar_read: a number as one unsigned long long, a string NUL-terminated.
pub unsafe fn cvar_read(handle: MPI_T_cvar_handle, buf: *mut c_void) -> Result<()> {
    let h = cvar_handle(handle)?;
    if buf.is_null() {
        return Err(null("buffer"));
    }
    match cvars::read_handle(h)? {
        cvars::Value::Number(n) => buf.cast::<u64>().write_unaligned(n),
        cvars::Value::Text(t) => {
            let b = h.text(&t);
            std::ptr::copy_nonoverlapping(b.as_ptr(), buf.cast::<u8>(), b.len());
            *buf.cast::<u8>().add(b.len()) = 0;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- performance variables

fn class_code(c: pvars::Class) -> c_int {
    match c {
        pvars::Class::Level => MPI_T_PVAR_CLASS_LEVEL,
        pvars::Class::HighWatermark => MPI_T_PVAR_CLASS_HIGHWATERMARK,
        pvars::Class::Counter => MPI_T_PVAR_CLASS_COUNTER,
    }
}

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
    let p = &pvars::ALL[pvars::index(pvar_index)?];
    string_out(p.name, name, name_len);
    opt(verbosity, MPI_T_VERBOSITY_USER_BASIC);
    opt(var_class, class_code(p.class));
    opt(
        datatype,
        [MPI_UNSIGNED_LONG_LONG, MPI_DOUBLE][p.float() as usize],
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
pub unsafe fn pvar_get_index(
    name: *const c_char,
    var_class: c_int,
    index: *mut c_int,
) -> Result<()> {
    tool::check()?;
    let name = name_arg(name)?;
    let class = [
        pvars::Class::Level,
        pvars::Class::HighWatermark,
        pvars::Class::Counter,
    ]
    .into_iter()
    .find(|&c| class_code(c) == var_class);
    write_out(index, pvars::index_of(name, class)? as c_int)
}

/// MPI_T_pvar_read: the handle's count of elements (unsigned long long, or double).
pub unsafe fn pvar_read(
    pe_session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
    buf: *mut c_void,
) -> Result<()> {
    let Some(h) = pvar_handle(pe_session, handle)? else {
        return Err(bad_handle("MPI_T_PVAR_ALL_HANDLES is no"));
    };
    if buf.is_null() {
        return Err(null("buffer"));
    }
    // (As bytes: the application's buffer need not be aligned.)
    let values = pvars::read_handle(h);
    let (p, n) = match &values {
        pvars::Values::U64(v) => (v.as_ptr().cast::<u8>(), v.len() * 8),
        pvars::Values::F64(v) => (v.as_ptr().cast::<u8>(), v.len() * 8),
    };
    // SAFETY: `values` outlives the copy; `buf` has room for the handle's count of 8-byte
    // elements (MPI's contract).
    std::ptr::copy_nonoverlapping(p, buf.cast::<u8>(), n);
    Ok(())
}

// ---------------------------------------------------------------- categories, sources

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
    let c = tool::category(cat_index)?;
    string_out(c.name, name, name_len);
    string_out(c.desc, desc, desc_len);
    opt(num_cvars, c.cvars as c_int);
    opt(num_pvars, c.pvars as c_int);
    opt(num_categories, c.categories as c_int);
    Ok(())
}

/// MPI_T_category_get_cvars, _pvars, _categories and _events: the first `len` members by
/// `of` into `indices`.
pub unsafe fn category_list(
    cat_index: c_int,
    len: c_int,
    indices: *mut c_int,
    of: fn(usize) -> Vec<usize>,
) -> Result<()> {
    let members = categories::members(cat_index, len, of)?;
    if !members.is_empty() && indices.is_null() {
        return Err(null("indices"));
    }
    for (k, m) in members.into_iter().enumerate() {
        *indices.add(k) = m as c_int;
    }
    Ok(())
}

/// MPI_T_event_get_index: no event has a name.
pub unsafe fn event_get_index(name: *const c_char) -> Result<()> {
    tool::check()?;
    tool::event_by_name(name_arg(name)?)
}

/// MPI_T_source_get_info: `info` gets a new, empty info object.
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
    let s = tool::source(source_index)?;
    string_out(s.name, name, name_len);
    string_out(s.desc, desc, desc_len);
    opt(ordering, MPI_T_SOURCE_ORDERED);
    opt(ticks_per_second, s.ticks_per_second);
    opt(max_ticks, s.max_ticks);
    if !info.is_null() {
        *info = super::handles::new_info(Vec::new());
    }
    Ok(())
}
