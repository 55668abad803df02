//! The tool information interface's C side (MPI-4.1 §15.3) over `crate::tool`, which holds
//! each call's checks and answers: here handles are dressed as pointers, MPI constants
//! given and the answers written out (most calls are table lines over these helpers).
//! Every call returns its error as its code (no error handler runs: `shim::run_tool`).
//! Outputs the standard lets a caller leave NULL (the get_info calls') are written only
//! when given; the others are NULL or valid for writing, buffers as the handle's count
//! says.
//!
//! Handles are pointers in MPICH's ABI; railmpi's are the core's handle words
//! (`crate::tool::handles::handle`) dressed as pointers, never dereferenced.

use super::consts::*;
use crate::error::{Error, ErrorClass, Result};
use crate::tool::handles::{self as th, PvarHandle};
use crate::tool::{self, categories, cvars, pvars};
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};

/// A pointer-typed handle of the word `h` (`crate::tool::handles::handle`).
pub(crate) fn encode<T>(h: usize) -> *mut T {
    std::ptr::without_provenance_mut(h)
}

/// The word of a performance variable handle (None: MPI_T_PVAR_ALL_HANDLES).
pub(crate) fn specific(h: MPI_T_pvar_handle) -> Option<usize> {
    (h != MPI_T_PVAR_ALL_HANDLES.0).then_some(h.addr())
}

/// The handle `h` of session `s` (None: all of its handles).
pub(crate) fn pvar_handle(
    s: MPI_T_pvar_session,
    h: MPI_T_pvar_handle,
) -> Result<Option<PvarHandle>> {
    Ok(th::pvar_of(s.addr(), specific(h))?.map(|(_, h)| h))
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
    *handle = encode(th::handle(kind, slot));
    *count = n as c_int;
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
pub(crate) unsafe fn opt<T>(p: *mut T, v: T) {
    if !p.is_null() {
        p.write(v);
    }
}

/// The get_info calls' answers: strings (buffer, length, text) by
/// `string_out`'s rule and ints by `opt`'s.
///
/// # Safety
/// Each pointer is NULL or valid for writing (a buffer: for as many chars as its length
/// says).
pub(crate) unsafe fn describe<const S: usize, const N: usize>(
    texts: [(*mut c_char, *mut c_int, &str); S],
    ints: [(*mut c_int, c_int); N],
) {
    for (out, len, s) in texts {
        string_out(s, out, len);
    }
    for (p, v) in ints {
        opt(p, v);
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

/// MPI_T_cvar_get_info: the variable's facts (every control variable is a constant of the
/// job, read as a string or an unsigned long long).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn cvar_get_info(
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
    let c = cvars::info(cvar_index)?;
    opt(enumtype, MPI_T_ENUM_NULL);
    let t = if c.numeric {
        MPI_UNSIGNED_LONG_LONG
    } else {
        MPI_CHAR
    };
    describe(
        [(name, name_len, c.name), (desc, desc_len, c.desc)],
        [
            (verbosity, MPI_T_VERBOSITY_TUNER_BASIC),
            (datatype, t),
            (bind, MPI_T_BIND_NO_OBJECT),
            (scope, MPI_T_SCOPE_CONSTANT),
        ],
    );
    Ok(())
}

/// MPI_T_pvar_get_info: the variable's facts (read-only, continuous counters and levels).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn pvar_get_info(
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
    let p = pvars::info(pvar_index)?;
    opt(enumtype, MPI_T_ENUM_NULL);
    let t = if p.float() {
        MPI_DOUBLE
    } else {
        MPI_UNSIGNED_LONG_LONG
    };
    describe(
        [(name, name_len, p.name), (desc, desc_len, p.desc)],
        [
            (verbosity, MPI_T_VERBOSITY_USER_BASIC),
            (var_class, class_code(p.class)),
            (datatype, t),
            (bind, MPI_T_BIND_NO_OBJECT),
            (readonly, 1),
            (continuous, 1),
            (atomic, 0),
        ],
    );
    Ok(())
}

/// MPI_T_pvar_session_create.
pub(crate) unsafe fn pvar_session_create(pe_session: *mut MPI_T_pvar_session) -> Result<()> {
    tool::check()?;
    super::args::out_ptr(pe_session, "pe_session")?;
    *pe_session = encode(th::handle(th::KIND_SESSION, th::new_session()));
    Ok(())
}

/// MPI_T_source_get_info: railmpi's one source, its clock, and an empty info object.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn source_get_info(
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
    describe(
        [(name, name_len, s.name), (desc, desc_len, s.desc)],
        [(ordering, MPI_T_SOURCE_ORDERED)],
    );
    opt(ticks_per_second, s.ticks_per_second);
    opt(max_ticks, s.max_ticks);
    if !info.is_null() {
        *info = super::handles::new_info(Vec::new());
    }
    Ok(())
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

// ---------------------------------------------------------------- control variables

/// MPI_T_cvar_read: a number as one unsigned long long, a string NUL-terminated.
pub unsafe fn cvar_read(handle: MPI_T_cvar_handle, buf: *mut c_void) -> Result<()> {
    let h = th::cvar_of(handle.addr())?;
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

/// The performance variable classes and their codes.
const CLASSES: [(pvars::Class, c_int); 3] = [
    (pvars::Class::Level, MPI_T_PVAR_CLASS_LEVEL),
    (pvars::Class::HighWatermark, MPI_T_PVAR_CLASS_HIGHWATERMARK),
    (pvars::Class::Counter, MPI_T_PVAR_CLASS_COUNTER),
];

pub(crate) fn class_code(c: pvars::Class) -> c_int {
    CLASSES.iter().find(|k| k.0 == c).map_or(0, |k| k.1)
}

/// The class of code `c` (None: no class has it).
pub(crate) fn class_of(c: c_int) -> Option<pvars::Class> {
    CLASSES.iter().find(|k| k.1 == c).map(|k| k.0)
}

/// MPI_T_pvar_read: the handle's count of elements (unsigned long long, or double).
pub unsafe fn pvar_read(
    pe_session: MPI_T_pvar_session,
    handle: MPI_T_pvar_handle,
    buf: *mut c_void,
) -> Result<()> {
    let Some(h) = pvar_handle(pe_session, handle)? else {
        let e = "MPI_T_PVAR_ALL_HANDLES is no performance variable handle";
        return Err(Error::new(ErrorClass::TInvalidHandle, e));
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
