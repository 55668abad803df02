//! Attribute caching (MPI-4.1 §7.7): keyvals, and the values cached under them on
//! communicators, windows and datatypes; and the predefined attributes of communicators.
//!
//! Language-independent: a keyval's copy and delete functions are the binding's
//! (`Callbacks`), and objects and keyvals are named to them by the binding's handles. As in
//! MPICH, an object's list is walked newest first when it is copied or deleted as a whole,
//! and a callback that fails makes the call fail with the callback's error. Callbacks run
//! with no lock held, so they may call MPI themselves.

use crate::error::Result;
use parking_lot::{Mutex, RwLock};
use std::sync::Arc;

/// What a keyval does when the object holding a value is duplicated or loses the value.
pub trait Callbacks: Send + Sync {
    /// A copy of `value` (cached on object `obj` under `keyval`) for the object's
    /// duplicate; None: the duplicate does not get one.
    fn copy(&self, obj: i64, keyval: i32, value: usize) -> Result<Option<usize>>;
    /// `value` leaves object `obj` (deleted, replaced, or the object freed).
    fn delete(&self, obj: i64, keyval: i32, value: usize) -> Result<()>;
}

/// One cached attribute. A value set from Fortran (an INTEGER, stored as the C word) also
/// lives in a box of its own: C's get returns the box's address, as MPI-4.1 §19.3.7 and
/// MPICH have it (C sees a pointer to a Fortran value), while Fortran's get and every
/// callback see the value itself.
#[derive(Clone)]
pub struct Attr {
    /// The keyval, as the binding names it (its handle), and its slot in `KEYVALS`.
    pub key: i32,
    pub slot: usize,
    pub value: usize,
    pub fortran: Option<Box<i64>>,
}

/// An object's attributes, oldest first.
pub type AttrList = Vec<Attr>;

/// An object attributes are cached on.
pub trait Holder: Copy {
    /// Its handle, as the callbacks get it.
    fn handle(self) -> i64;
    /// Run `f` on its attributes (an error if the object is not valid).
    fn with_attrs<T>(self, f: impl FnOnce(&mut AttrList) -> T) -> Result<T>;
}

/// The attribute lists of objects that have no table entry to hold them (datatypes,
/// predefined ones included), by the binding's handle: few objects ever have attributes,
/// so a list goes as soon as it is empty.
pub struct SideLists(Mutex<Vec<(i64, AttrList)>>);

impl SideLists {
    pub const fn new() -> Self {
        SideLists(Mutex::new(Vec::new()))
    }

    /// Run `f` on the list of the object with handle `h` (empty if it has none).
    pub fn with<T>(&self, h: i64, f: impl FnOnce(&mut AttrList) -> T) -> T {
        let mut t = self.0.lock();
        let i = match t.iter().position(|e| e.0 == h) {
            Some(i) => i,
            None => {
                t.push((h, Vec::new()));
                t.len() - 1
            }
        };
        let r = f(&mut t[i].1);
        if t[i].1.is_empty() {
            t.swap_remove(i);
        }
        r
    }
}

impl Default for SideLists {
    fn default() -> Self {
        Self::new()
    }
}

struct Keyval {
    fns: Arc<dyn Callbacks>,
    /// Attributes set with it that still exist.
    uses: usize,
    /// Freed by the application: the entry goes when its last use does.
    freed: bool,
}

/// The keyvals of the process, by slot.
pub struct Keyvals(RwLock<Vec<Option<Keyval>>>);

pub static KEYVALS: Keyvals = Keyvals(RwLock::new(Vec::new()));

impl Keyvals {
    /// A new keyval with these callbacks: its slot.
    pub fn create(&self, fns: Arc<dyn Callbacks>) -> usize {
        let k = Keyval {
            fns,
            uses: 0,
            freed: false,
        };
        let mut t = self.0.write();
        match t.iter().position(Option::is_none) {
            Some(i) => {
                t[i] = Some(k);
                i
            }
            None => {
                t.push(Some(k));
                t.len() - 1
            }
        }
    }

    /// Whether the keyval at `slot` exists. A freed keyval lives on while attributes use it
    /// (MPI-4.1 §7.7.2): a copy of its handle still deletes those attributes, and freeing it
    /// again is harmless (MPICH counts references the same way).
    pub fn exists(&self, slot: usize) -> bool {
        matches!(self.0.read().get(slot), Some(Some(_)))
    }

    /// The application frees the keyval at `slot`.
    pub fn free(&self, slot: usize) {
        let mut t = self.0.write();
        if let Some(Some(k)) = t.get_mut(slot) {
            k.freed = true;
            if k.uses == 0 {
                t[slot] = None;
            }
        }
    }

    fn fns(&self, slot: usize) -> Option<Arc<dyn Callbacks>> {
        match self.0.read().get(slot) {
            Some(Some(k)) => Some(k.fns.clone()),
            _ => None,
        }
    }

    fn add_use(&self, slot: usize) {
        if let Some(Some(k)) = self.0.write().get_mut(slot) {
            k.uses += 1;
        }
    }

    /// One attribute using the keyval is gone; a freed keyval goes with its last use.
    fn release_use(&self, slot: usize) {
        let mut t = self.0.write();
        if let Some(Some(k)) = t.get_mut(slot) {
            k.uses = k.uses.saturating_sub(1);
            if k.freed && k.uses == 0 {
                t[slot] = None;
            }
        }
    }
}

/// Run the delete callback of attribute `a` of `obj`.
fn call_delete<H: Holder>(obj: H, key: i32, slot: usize, value: usize) -> Result<()> {
    match KEYVALS.fns(slot) {
        Some(f) => f.delete(obj.handle(), key, value),
        None => Ok(()),
    }
}

/// Set `value` on `obj` under keyval `key` (at `slot`, which exists). Replacing a value
/// runs the delete callback on the old one first.
pub fn set<H: Holder>(obj: H, key: i32, slot: usize, value: usize, fortran: bool) -> Result<()> {
    let old = obj.with_attrs(|a| a.iter().find(|a| a.key == key).map(|a| a.value))?;
    let new = Attr {
        key,
        slot,
        value,
        fortran: fortran.then(|| Box::new(value as i64)),
    };
    match old {
        Some(old) => {
            call_delete(obj, key, slot, old)?;
            obj.with_attrs(|attrs| {
                if let Some(a) = attrs.iter_mut().find(|a| a.key == key) {
                    *a = new;
                }
            })
        }
        None => {
            KEYVALS.add_use(slot);
            obj.with_attrs(|a| a.push(new))
        }
    }
}

/// Delete the value of keyval `key` (at `slot`) from `obj`, if it has one.
pub fn delete<H: Holder>(obj: H, key: i32, slot: usize) -> Result<()> {
    let Some(value) = obj.with_attrs(|a| a.iter().find(|a| a.key == key).map(|a| a.value))? else {
        return Ok(());
    };
    call_delete(obj, key, slot, value)?;
    obj.with_attrs(|a| a.retain(|a| a.key != key))?;
    KEYVALS.release_use(slot);
    Ok(())
}

/// What `f` reads of `obj`'s attribute under keyval `key`, if set (in place: a Fortran
/// value's box is the one the list holds).
pub fn find<H: Holder, T>(obj: H, key: i32, f: impl FnOnce(&Attr) -> T) -> Result<Option<T>> {
    obj.with_attrs(|a| a.iter().find(|a| a.key == key).map(f))
}

/// Delete every attribute of `obj`, newest first (the object is freed). All callbacks run;
/// the first failure is returned.
pub fn delete_all<H: Holder>(obj: H) -> Result<()> {
    let attrs = obj.with_attrs(std::mem::take)?;
    let mut first = Ok(());
    for a in attrs.into_iter().rev() {
        let r = call_delete(obj, a.key, a.slot, a.value);
        if first.is_ok() {
            first = r;
        }
        KEYVALS.release_use(a.slot);
    }
    first
}

/// Copy the attributes of `old` onto `new` (its duplicate) through their copy callbacks,
/// newest first. On a failing callback the attributes copied so far stay on `new` (the
/// caller frees it) and the error is returned.
pub fn copy_all<H: Holder>(old: H, new: H) -> Result<()> {
    let attrs = old.with_attrs(|a| a.clone())?;
    let mut copied = Vec::new();
    let mut result = Ok(());
    for a in attrs.iter().rev() {
        let Some(f) = KEYVALS.fns(a.slot) else {
            continue;
        };
        match f.copy(old.handle(), a.key, a.value) {
            Err(e) => {
                result = Err(e);
                break;
            }
            Ok(Some(value)) => {
                KEYVALS.add_use(a.slot);
                copied.push(Attr {
                    key: a.key,
                    slot: a.slot,
                    value,
                    fortran: a.fortran.as_ref().map(|_| Box::new(value as i64)),
                });
            }
            Ok(None) => {}
        }
    }
    copied.reverse();
    new.with_attrs(|a| *a = copied)?;
    result
}

/// The predefined attributes every communicator has (MPI-4.1 §9.1.2, §11.10.1, §9.5):
/// read-only (the application can neither set nor delete them), the job's facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predefined {
    TagUb,
    Host,
    Io,
    WtimeIsGlobal,
    UniverseSize,
    AppNum,
    LastUsedCode,
}

/// A predefined attribute's value: a number, or processes as MPI names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i32),
    /// No process (MPI_PROC_NULL).
    NoProcess,
    /// Any process (MPI_ANY_SOURCE).
    AnyProcess,
    /// No value: the attribute is not set (MPI_UNIVERSE_SIZE where the launcher gives none).
    Unset,
}

/// The facts of the running job that predefined attributes report.
pub struct JobFacts {
    /// The largest tag.
    pub tag_ub: i32,
    /// The processes expected in all (the launcher's MPI_UNIVERSE_SIZE; None: it gives
    /// none, as Hydra by default, and the attribute is not set).
    pub universe_size: Option<u32>,
    /// This process's application in an MPMD launch.
    pub appnum: i32,
    /// The largest error code in use (the application's added ones included).
    pub last_used_code: i32,
}

impl Predefined {
    pub fn value(self, job: &JobFacts) -> Value {
        match self {
            Predefined::TagUb => Value::Int(job.tag_ub),
            // No process is a host in MPI's sense (MPI_PROC_NULL).
            Predefined::Host => Value::NoProcess,
            // Every process can do I/O.
            Predefined::Io => Value::AnyProcess,
            // Each process's MPI_Wtime has its own origin.
            Predefined::WtimeIsGlobal => Value::Int(0),
            Predefined::UniverseSize => match job.universe_size {
                Some(u) => Value::Int(u.min(i32::MAX as u32) as i32),
                None => Value::Unset,
            },
            Predefined::AppNum => Value::Int(job.appnum),
            Predefined::LastUsedCode => Value::Int(job.last_used_code),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attr(key: i32) -> Attr {
        Attr {
            key,
            slot: 0,
            value: 7,
            fortran: None,
        }
    }

    #[test]
    fn predefined_values_are_the_jobs() {
        let job = JobFacts {
            tag_ub: 99,
            universe_size: Some(4),
            appnum: 1,
            last_used_code: 70,
        };
        assert_eq!(Predefined::TagUb.value(&job), Value::Int(99));
        assert_eq!(Predefined::UniverseSize.value(&job), Value::Int(4));
        assert_eq!(Predefined::AppNum.value(&job), Value::Int(1));
        assert_eq!(Predefined::LastUsedCode.value(&job), Value::Int(70));
        assert_eq!(Predefined::WtimeIsGlobal.value(&job), Value::Int(0));
        assert_eq!(Predefined::Host.value(&job), Value::NoProcess);
        assert_eq!(Predefined::Io.value(&job), Value::AnyProcess);
        let unknown = JobFacts {
            universe_size: None,
            ..job
        };
        assert_eq!(Predefined::UniverseSize.value(&unknown), Value::Unset);
    }

    #[test]
    fn side_lists_drop_empty_entries() {
        let side = SideLists::new();
        side.with(5, |a| a.push(attr(1)));
        side.with(6, |a| a.push(attr(2)));
        assert_eq!(side.with(5, |a| a.len()), 1);
        side.with(5, |a| a.clear());
        assert_eq!(side.0.lock().len(), 1);
        // Looking at an object without attributes leaves nothing behind.
        assert_eq!(side.with(9, |a| a.len()), 0);
        assert_eq!(side.0.lock().len(), 1);
    }
}
