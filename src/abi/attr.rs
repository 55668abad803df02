//! Attribute caching on communicators and windows (MPI-3.1 §6.7): keyvals, set/get/delete, the copy
//! callbacks MPI_Comm_dup runs, the delete callbacks MPI_Comm_free, MPI_Comm_delete_attr,
//! a replacing MPI_Comm_set_attr and MPI_Finalize (on MPI_COMM_SELF, then MPI_COMM_WORLD)
//! run; the predefined attributes (MPI_TAG_UB …); and the MPI-1 names of all this.
//!
//! The machinery (keyvals, values, the order callbacks run in) and the predefined
//! attributes' values are the core's (`comm::attributes`); here are the C callbacks
//! (`CKeyval`), keyval handles, the predefined keyvals and Fortran's view of values. Values live in the object's table
//! entry (`CommEntry::attrs`, `WinEntry::attrs`; datatypes: `type_attr`).

use super::args;
use super::callbacks::{self, App, Convention};
use super::consts::*;
use super::handles::{self, Attr, AttrList, KEYVAL_OBJ_COMM, KEYVAL_OBJ_WIN};
use super::shim::{self, write_out};
use crate::comm::attributes::KEYVALS;
use crate::comm::attributes::{self as core, Callbacks, Holder, JobFacts, Predefined, Value};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use std::cell::Cell;
use std::os::raw::{c_int, c_void};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

/// What a get returns: the box's address to C for a Fortran-set value.
fn seen(a: &Attr) -> usize {
    match &a.fortran {
        Some(b) if !FORTRAN.get() => &**b as *const i64 as usize,
        _ => a.value,
    }
}

thread_local! {
    /// Set while a Fortran binding's set or get runs (`from_fortran`).
    static FORTRAN: Cell<bool> = const { Cell::new(false) };
}

/// Runs a set or get of an attribute on behalf of a Fortran binding: a set marks the value
/// Fortran's, a get returns values themselves. (A set clears the mark before it runs a
/// delete callback, so MPI calls the callback makes are C's.)
pub fn from_fortran<T>(f: impl FnOnce() -> T) -> T {
    FORTRAN.set(true);
    let r = f();
    FORTRAN.set(false);
    r
}

/// What attributes are cached on, by handle: a communicator, a window or a datatype (its
/// `Holder::with_attrs` fails with MPI_ERR_COMM, _WIN or _TYPE if invalid). (Windows are
/// never duplicated, so their keyvals' copy callbacks never run; the callback types of all
/// are the same C signature, the handles being ints.)
pub(crate) trait AttrObject: Holder {
    /// The keyval object kind (`KEYVAL_OBJ_*`) and its name in messages.
    const KIND: u32;
    const NAME: &'static str;
}

#[derive(Clone, Copy)]
pub(crate) struct CommAttrs(pub MPI_Comm);

#[derive(Clone, Copy)]
pub(crate) struct WinAttrs(pub MPI_Win);

impl CommAttrs {
    /// The attributes of communicator `comm`, checked (MPI_ERR_COMM if it is not one).
    pub fn of(comm: MPI_Comm) -> Result<Self> {
        shim::world()?;
        handles::comm(comm)?;
        Ok(CommAttrs(comm))
    }
}

impl WinAttrs {
    /// The attributes of window `win`, checked (MPI_ERR_WIN if it is not one).
    pub fn of(win: MPI_Win) -> Result<Self> {
        handles::win(win)?;
        Ok(WinAttrs(win))
    }
}

impl AttrObject for CommAttrs {
    const KIND: u32 = KEYVAL_OBJ_COMM;
    const NAME: &'static str = "communicator";
}

impl Holder for CommAttrs {
    fn handle(self) -> i64 {
        self.0.into()
    }
    fn with_attrs<T>(self, f: impl FnOnce(&mut AttrList) -> T) -> Result<T> {
        handles::with_comm_entry(self.0, |e| f(&mut e.attrs))
    }
}

impl AttrObject for WinAttrs {
    const KIND: u32 = KEYVAL_OBJ_WIN;
    const NAME: &'static str = "window";
}

impl Holder for WinAttrs {
    fn handle(self) -> i64 {
        self.0.into()
    }
    fn with_attrs<T>(self, f: impl FnOnce(&mut AttrList) -> T) -> Result<T> {
        handles::with_win_entry(self.0, |e| f(&mut e.attrs))
    }
}

/// Builtin keyvals (kind bits `01`, object type keyval): the predefined attributes.
fn is_builtin(keyval: c_int) -> bool {
    (keyval as u32) & 0xfc00_0000 == 0x6400_0000
}

/// The table slot of a live keyval of object kind `kind`, or MPI_ERR_KEYVAL.
fn slot(keyval: c_int, kind: u32, name: &str) -> Result<usize> {
    if keyval == MPI_KEYVAL_INVALID {
        return mpi_err!(Keyval, "MPI_KEYVAL_INVALID");
    }
    // A freed keyval lives on while attributes use it (MPI-3.1 §6.7.2), and its handle with
    // it: a copy of the handle still deletes those attributes, and freeing it again is
    // harmless (MPICH counts references the same way; its attr tests free one three times).
    handles::keyval_index(keyval, kind)
        .filter(|&i| KEYVALS.exists(i))
        .ok_or_else(|| {
            Error::new(
                ErrorClass::Keyval,
                format!("invalid {name} keyval {keyval:#x}"),
            )
        })
}

/// A callback's failure: the call that ran it returns the callback's code itself (its
/// class is the code's: one MPI defines, or one the application added), as MPICH does.
fn callback_error(rc: c_int, which: &str, keyval: c_int) -> Error {
    Error::new(
        super::errors::class_of(rc),
        format!("the attribute {which} callback of keyval {keyval:#x} returned {rc}"),
    )
    .with_code(rc)
}

/// A keyval's C callbacks: copy and delete functions of the MPICH ABI's (communicator)
/// type — the datatype and window ones have the same C signature, handles being ints — run
/// through the application's convention (`callbacks::App`).
struct CKeyval {
    copy: MPI_Comm_copy_attr_function,
    delete: MPI_Comm_delete_attr_function,
    extra_state: usize,
    kind: callbacks::Kind,
}

impl Callbacks for CKeyval {
    fn copy(&self, obj: i64, keyval: i32, value: usize) -> Result<Option<usize>> {
        let Some(f) = self.copy else {
            return Ok(None);
        };
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut flag: c_int = 0;
        // SAFETY: `f` was registered as the object's copy_attr_function (an int handle, the
        // keyval, three opaque words, an int flag); `out` and `flag` are live locals of the
        // types MPI passes (attribute_val_out is a `void **`).
        let rc = unsafe {
            App::attr_copy(
                f as usize,
                self.kind,
                obj as c_int,
                keyval,
                self.extra_state as *mut c_void,
                value as *mut c_void,
                &mut out as *mut *mut c_void as *mut c_void,
                &mut flag,
            )
        };
        if rc != MPI_SUCCESS {
            return Err(callback_error(rc, "copy", keyval));
        }
        Ok((flag != 0).then_some(out as usize))
    }

    fn delete(&self, obj: i64, keyval: i32, value: usize) -> Result<()> {
        let Some(f) = self.delete else {
            return Ok(());
        };
        // SAFETY: `f` was registered by the application as the object's delete_attr_function
        // (an int handle, the keyval, two opaque words); value and extra state are the words
        // it gave us.
        let rc = unsafe {
            App::attr_delete(
                f as usize,
                self.kind,
                obj as c_int,
                keyval,
                value as *mut c_void,
                self.extra_state as *mut c_void,
            )
        };
        if rc != MPI_SUCCESS {
            return Err(callback_error(rc, "delete", keyval));
        }
        Ok(())
    }
}

/// Delete every attribute of `comm`, newest first (MPI_Comm_free, MPI_Finalize). All
/// callbacks run; the first failure is returned.
pub fn delete_all(comm: MPI_Comm) -> Result<()> {
    core::delete_all(CommAttrs(comm))
}

/// Copy the attributes of `old` onto the new communicator `new` through their copy
/// callbacks (MPI_Comm_dup / MPI_Comm_idup). On a failing callback the attributes copied
/// so far stay on `new` (the caller frees it) and the error is returned.
pub fn copy_all(old: MPI_Comm, new: MPI_Comm) -> Result<()> {
    core::copy_all(CommAttrs(old), CommAttrs(new))
}

/// MPI_Finalize's first step: delete the attributes of MPI_COMM_SELF, then those of
/// MPI_COMM_WORLD (MPI-3.1 §8.7.1; MPICH does both, in this order).
pub fn finalize_builtin_comms() -> Result<()> {
    let r = delete_all(MPI_COMM_SELF);
    let w = delete_all(MPI_COMM_WORLD);
    r.and(w)
}

// ------------------------------------------------------------------ keyvals

/// A new keyval of object kind `kind` (`KEYVAL_OBJ_*`) with its C callbacks (the
/// datatype and window ones have the communicator ones' C signature).
pub(crate) fn new_keyval(
    copy: MPI_Comm_copy_attr_function,
    delete: MPI_Comm_delete_attr_function,
    extra_state: *mut c_void,
    kind: u32,
) -> Result<c_int> {
    shim::world()?;
    let kind_of = match kind {
        KEYVAL_OBJ_WIN => callbacks::Kind::Win,
        handles::KEYVAL_OBJ_TYPE => callbacks::Kind::Datatype,
        _ => callbacks::Kind::Comm,
    };
    let slot = KEYVALS.create(Arc::new(CKeyval {
        copy,
        delete,
        extra_state: extra_state as usize,
        kind: kind_of,
    }));
    Ok(handles::keyval_handle(slot, kind))
}

/// # Safety
/// `keyval` is NULL or valid.
pub(crate) unsafe fn free_keyval_of<O: AttrObject>(keyval: *mut c_int) -> Result<()> {
    shim::world()?;
    if keyval.is_null() {
        return mpi_err!(Arg, "NULL keyval pointer");
    }
    let k = *keyval;
    if is_builtin(k) {
        return mpi_err!(Keyval, "cannot free a predefined keyval");
    }
    KEYVALS.free(slot(k, O::KIND, O::NAME)?);
    *keyval = MPI_KEYVAL_INVALID;
    Ok(())
}

/// MPI_Comm_create_keyval, MPI_Keyval_create.
///
/// # Safety
/// `keyval` is NULL or valid.
pub(crate) unsafe fn create_keyval(
    copy: MPI_Comm_copy_attr_function,
    delete: MPI_Comm_delete_attr_function,
    keyval: *mut c_int,
    extra_state: *mut c_void,
) -> Result<()> {
    shim::world()?;
    args::out_ptr(keyval, "keyval")?;
    write_out(
        keyval,
        new_keyval(copy, delete, extra_state, KEYVAL_OBJ_COMM)?,
    )
}

// ------------------------------------------------------------------ set / get / delete

pub(crate) fn set_attr_of<O: AttrObject>(obj: O, keyval: c_int, value: *mut c_void) -> Result<()> {
    if is_builtin(keyval) {
        return mpi_err!(Keyval, "predefined attribute {keyval:#x} cannot be set");
    }
    let at = slot(keyval, O::KIND, O::NAME)?;
    // Taken now: the delete callback may call MPI itself, as C.
    let fortran = FORTRAN.replace(false);
    core::set(obj, keyval, at, value as usize, fortran)
}

pub(crate) fn delete_attr_of<O: AttrObject>(obj: O, keyval: c_int) -> Result<()> {
    if is_builtin(keyval) {
        return mpi_err!(Keyval, "predefined attribute {keyval:#x} cannot be deleted");
    }
    let at = slot(keyval, O::KIND, O::NAME)?;
    core::delete(obj, keyval, at)
}

/// A user attribute of `obj`: Some(value) if set (for C, the address of a value Fortran
/// set).
pub(crate) fn user_attr_of<O: AttrObject>(obj: O, keyval: c_int) -> Result<Option<usize>> {
    if is_builtin(keyval) {
        // A predefined keyval of another object kind (e.g. MPI_WIN_BASE on a comm).
        return mpi_err!(Keyval, "keyval {keyval:#x} is not a {} keyval", O::NAME);
    }
    slot(keyval, O::KIND, O::NAME)?;
    core::find(obj, keyval, seen)
}

/// The predefined attributes by keyval, and the ints their values are read into (C gets a
/// pointer to one).
const PREDEFINED: [(c_int, Predefined); 7] = [
    (MPI_TAG_UB, Predefined::TagUb),
    (MPI_HOST, Predefined::Host),
    (MPI_IO, Predefined::Io),
    (MPI_WTIME_IS_GLOBAL, Predefined::WtimeIsGlobal),
    (MPI_UNIVERSE_SIZE, Predefined::UniverseSize),
    (MPI_APPNUM, Predefined::AppNum),
    (MPI_LASTUSEDCODE, Predefined::LastUsedCode),
];
static VALUES: [AtomicI32; 7] = [const { AtomicI32::new(0) }; 7];

/// # Safety
/// `attribute_val` is really a `void **`; it and `flag` are valid for writing.
pub(crate) unsafe fn get_attr(
    comm: MPI_Comm,
    keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    let w = shim::world()?;
    CommAttrs::of(comm)?;
    let value = match PREDEFINED.iter().position(|p| p.0 == keyval) {
        Some(i) => {
            let job = JobFacts {
                tag_ub: args::TAG_UB,
                universe_size: w.pmi.universe_size(),
                appnum: w.pmi.appnum(),
                last_used_code: super::errors::ADDED.last_used(),
            };
            let v = match PREDEFINED[i].1.value(&job) {
                Value::Int(v) => Some(v),
                Value::NoProcess => Some(MPI_PROC_NULL),
                Value::AnyProcess => Some(MPI_ANY_SOURCE),
                Value::Unset => None,
            };
            v.map(|v| {
                VALUES[i].store(v, Ordering::Relaxed);
                VALUES[i].as_ptr() as usize
            })
        }
        None => user_attr_of(CommAttrs(comm), keyval)?,
    };
    answer(value, attribute_val, flag)
}

/// A get's answer: `value` (if set) into `attribute_val` (really a `void **`), and `flag`.
///
/// # Safety
/// Both are NULL or valid for writing.
pub(crate) unsafe fn answer(
    value: Option<usize>,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    if let Some(v) = value {
        write_out(attribute_val as *mut *mut c_void, v as *mut c_void)?;
    }
    write_out(flag, value.is_some() as c_int)
}
