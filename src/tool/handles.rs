//! The tool interface's handles and performance-variable sessions (MPI-4.1 §15.3.6–15.3.7),
//! by slot: a control variable handle names a variable; a performance variable handle names
//! a variable within a session, and goes with it. All go with the last MPI_T_finalize.
//! The handles the binding hands out are words (`handle`): the kind in the high bits, the
//! slot plus one below; it dresses them as its pointer types (never dereferenced).

use crate::error::{Error, ErrorClass, Result};
use parking_lot::Mutex;

/// The kinds of handle words: a control variable handle, a performance variable handle,
/// a session.
pub const KIND_CVAR: usize = 0x7c00_0000;
pub const KIND_PVAR: usize = 0x7d00_0000;
pub const KIND_SESSION: usize = 0x7e00_0000;
const SLOT_MASK: usize = 0x00ff_ffff;

/// The handle word of `slot` of `kind` (never 0: no handle is the null pointer).
pub fn handle(kind: usize, slot: usize) -> usize {
    kind | (slot + 1)
}

/// The slot the handle word `h` names (None: not one of that kind).
fn slot_of(kind: usize, h: usize) -> Option<usize> {
    (h & !SLOT_MASK == kind && h & SLOT_MASK != 0).then(|| (h & SLOT_MASK) - 1)
}

fn bad_handle(what: &str) -> Error {
    Error::new(ErrorClass::TInvalidHandle, format!("invalid {what} handle"))
}

/// The slot of control variable handle `h` (the interface initialised first).
pub fn cvar_slot(h: usize) -> Result<usize> {
    super::check()?;
    slot_of(KIND_CVAR, h)
        .filter(|&slot| cvar(slot).is_some())
        .ok_or_else(|| bad_handle("control variable"))
}

/// The control variable handle `h` (as `cvar_slot`).
pub fn cvar_of(h: usize) -> Result<CvarHandle> {
    Ok(cvar(cvar_slot(h)?).expect("checked"))
}

/// The slot of live session `s` (MPI_T_ERR_INVALID_SESSION).
pub fn session_slot(s: usize) -> Result<usize> {
    slot_of(KIND_SESSION, s)
        .filter(|&i| session_live(i))
        .ok_or_else(|| Error::new(ErrorClass::TInvalidSession, "invalid pvar session"))
}

/// A performance variable handle of session `s` and its slot: `h` None is
/// MPI_T_PVAR_ALL_HANDLES (Ok(None)); the interface initialised first.
pub fn pvar_of(s: usize, h: Option<usize>) -> Result<Option<(usize, PvarHandle)>> {
    super::check()?;
    let s = session_slot(s)?;
    let Some(h) = h else {
        return Ok(None);
    };
    let found = slot_of(KIND_PVAR, h).and_then(|slot| Some((slot, pvar(s, slot)?)));
    found
        .map(Some)
        .ok_or_else(|| bad_handle("performance variable"))
}

/// The slot of a specific performance variable handle of session `s` (as `pvar_of`; all
/// handles are none).
pub fn pvar_slot(s: usize, h: Option<usize>) -> Result<usize> {
    let found = pvar_of(s, h)?.map(|(slot, _)| slot);
    found.ok_or_else(|| bad_handle("performance variable"))
}

/// A control variable handle: the variable and its element count.
#[derive(Clone, Copy)]
pub struct CvarHandle {
    pub var: usize,
    pub count: usize,
}

/// A performance variable handle: its session's slot, the variable, its element count.
#[derive(Clone, Copy)]
pub struct PvarHandle {
    pub session: usize,
    pub var: usize,
    pub count: usize,
}

/// Live handles and sessions, by slot (None / false: free).
struct Tables {
    cvars: Vec<Option<CvarHandle>>,
    pvars: Vec<Option<PvarHandle>>,
    sessions: Vec<bool>,
}

static TABLES: Mutex<Tables> = Mutex::new(Tables {
    cvars: Vec::new(),
    pvars: Vec::new(),
    sessions: Vec::new(),
});

fn insert<T>(v: &mut Vec<Option<T>>, x: T) -> usize {
    match v.iter().position(Option::is_none) {
        Some(i) => {
            v[i] = Some(x);
            i
        }
        None => {
            v.push(Some(x));
            v.len() - 1
        }
    }
}

/// A new control variable handle: its slot.
pub fn new_cvar(h: CvarHandle) -> usize {
    insert(&mut TABLES.lock().cvars, h)
}

pub fn cvar(slot: usize) -> Option<CvarHandle> {
    TABLES.lock().cvars.get(slot).copied().flatten()
}

pub fn free_cvar(slot: usize) {
    if let Some(h) = TABLES.lock().cvars.get_mut(slot) {
        *h = None;
    }
}

/// A new performance variable session: its slot.
pub fn new_session() -> usize {
    let mut t = TABLES.lock();
    let slot = match t.sessions.iter().position(|&live| !live) {
        Some(i) => i,
        None => {
            t.sessions.push(false);
            t.sessions.len() - 1
        }
    };
    t.sessions[slot] = true;
    slot
}

pub fn session_live(slot: usize) -> bool {
    TABLES.lock().sessions.get(slot) == Some(&true)
}

/// Free session `slot` and its handles.
pub fn free_session(slot: usize) {
    let mut t = TABLES.lock();
    if let Some(live) = t.sessions.get_mut(slot) {
        *live = false;
    }
    for h in t.pvars.iter_mut() {
        if h.is_some_and(|h| h.session == slot) {
            *h = None;
        }
    }
}

/// A new performance variable handle: its slot.
pub fn new_pvar(h: PvarHandle) -> usize {
    insert(&mut TABLES.lock().pvars, h)
}

/// The performance variable handle at `slot` if it is one of session `session`'s.
pub fn pvar(session: usize, slot: usize) -> Option<PvarHandle> {
    let h = TABLES.lock().pvars.get(slot).copied().flatten();
    h.filter(|h| h.session == session)
}

pub fn free_pvar(slot: usize) {
    if let Some(h) = TABLES.lock().pvars.get_mut(slot) {
        *h = None;
    }
}

/// The last MPI_T_finalize: every handle and session goes.
pub fn clear() {
    let mut t = TABLES.lock();
    t.cvars.clear();
    t.pvars.clear();
    t.sessions.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_words() {
        let h = handle(KIND_PVAR, 5);
        assert_eq!(slot_of(KIND_PVAR, h), Some(5));
        assert_eq!(slot_of(KIND_CVAR, h), None);
        assert_eq!(slot_of(KIND_PVAR, KIND_PVAR), None);
        assert_eq!(slot_of(KIND_SESSION, 0), None);
        assert_eq!(
            session_slot(h).unwrap_err().class,
            ErrorClass::TInvalidSession
        );
    }
}
