//! The tool interface's handles and performance-variable sessions (MPI-4.1 §15.3.6–15.3.7),
//! by slot: a control variable handle names a variable; a performance variable handle names
//! a variable within a session, and goes with it. All go with the last MPI_T_finalize.
//! (The binding turns slots into its handles.)

use parking_lot::Mutex;

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
