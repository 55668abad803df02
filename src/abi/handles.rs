//! Handle tables: MPICH-style integer handles ↔ core objects.
//!
//! MPICH encodes a handle as `kind (2 bits) | object type (4 bits) | index (26 bits)`.
//! Predefined objects are "builtin" (kind 01); objects created at run time are "direct"
//! (kind 10) with our slab index, so they never collide with a predefined value.

use super::builtin_types;
use super::consts::*;
use crate::comm::topology::Topology;
use crate::comm::{Communicator, Group};
use crate::datatype::Datatype;
use crate::error::{Error, ErrorClass, Result};
use crate::info::Info;
use crate::mpi_err;
use crate::pt2pt::{Owner, ReqId, Status};
use crate::runtime::errhandler;
pub use crate::runtime::lent::{CommRef, KeptType, TypeRef};
use crate::runtime::requests::{self, Entry, Named};
use crate::runtime::table_cache::{self, Found, Table, Ways};
use parking_lot::{Mutex, RwLock};
use std::sync::{Arc, LazyLock};
use std::thread::LocalKey;

const DIRECT: u32 = 0x8000_0000;
const INDEX_MASK: u32 = 0x03ff_ffff;
const KIND_COMM: u32 = 0x0400_0000;
const KIND_DATATYPE: u32 = 0x0c00_0000;
const KIND_ERRHANDLER: u32 = 0x1400_0000;
const KIND_REQUEST: u32 = 0x2c00_0000;
const KIND_GROUP: u32 = 0x0800_0000;
const KIND_INFO: u32 = 0x1c00_0000;
const KIND_KEYVAL: u32 = 0x2400_0000;
const KIND_WIN: u32 = 0x2000_0000;
/// Direct datatype indices below this are MPICH's pair types (0x8c000000..=4).
const FIRST_DYNAMIC_TYPE: usize = 8;

use crate::runtime::slab::Slab;

fn direct_index(h: c_int, kind: u32) -> Option<usize> {
    let u = h as u32;
    (u & 0xfc00_0000 == DIRECT | kind).then_some((u & INDEX_MASK) as usize)
}

use std::os::raw::c_int;

// ------------------------------------------------------------------ communicators

pub struct CommEntry {
    pub comm: Arc<Communicator>,
    pub errhandler: MPI_Errhandler,
    pub name: String,
    /// Cached attributes (keyval, value), oldest first (see `abi::attr`).
    pub attrs: AttrList,
    /// The virtual topology, if any (see `abi::topo`).
    pub topo: Option<Arc<Topology>>,
    /// The session it derives from (MPI_SESSION_NULL: the World model), inherited by the
    /// communicators made from it: buffered sends use the session's buffer.
    pub session: MPI_Session,
}

/// Slot 0 is MPI_COMM_WORLD, slot 1 MPI_COMM_SELF; others are direct handles.
static COMMS: Table<Slab<CommEntry>> = Table::new(Slab::new(0));

thread_local! {
    /// The communicators this thread took from the table last (see `runtime::table_cache`).
    static COMM_CACHE: Ways<Communicator> = const { Ways::new() };
}

fn comm_index(h: MPI_Comm) -> Option<usize> {
    match h {
        MPI_COMM_WORLD => Some(0),
        MPI_COMM_SELF => Some(1),
        _ => direct_index(h, KIND_COMM).filter(|&i| i >= 2),
    }
}

/// The processes of other jobs (peer numbers from `first`) that the application's
/// communicators name, in either group.
pub fn peers_in_use(first: usize) -> std::collections::HashSet<usize> {
    let t = COMMS.read();
    t.iter()
        .flat_map(|e| e.comm.group.members.iter().chain(&e.comm.peers.members))
        .copied()
        .filter(|&p| p >= first)
        .collect()
}

impl CommEntry {
    fn new(comm: Arc<Communicator>, errhandler: MPI_Errhandler, session: MPI_Session) -> Self {
        CommEntry {
            comm,
            errhandler,
            name: String::new(),
            attrs: Vec::new(),
            topo: None,
            session,
        }
    }
}

pub fn init_comms(world: Arc<Communicator>, selfc: Arc<Communicator>) {
    let mut t = COMMS.write();
    for (comm, name) in [(world, "MPI_COMM_WORLD"), (selfc, "MPI_COMM_SELF")] {
        let mut e = CommEntry::new(comm, UNSET_ERRHANDLER, MPI_SESSION_NULL);
        e.name = name.into();
        t.insert(e);
    }
}

/// The communicator behind `h`, or MPI_ERR_COMM. MPI_COMM_WORLD and MPI_COMM_SELF live
/// as long as the world, so they are lent without touching the table (the hot path).
#[inline]
pub fn comm(h: MPI_Comm) -> Result<CommRef> {
    if let Some(w) = crate::runtime::world() {
        match h {
            MPI_COMM_WORLD => return Ok(CommRef::Static(&w.comm_world)),
            MPI_COMM_SELF => return Ok(CommRef::Static(&w.comm_self)),
            _ => {}
        }
    }
    table_comm(h)
}

/// `comm` for handles in the table: lent by this thread's cache while the table is as it
/// was, else looked up (and cached). Out of line: `comm`'s predefined cases stay small.
#[inline(never)]
fn table_comm(h: MPI_Comm) -> Result<CommRef> {
    let load = |t: &Slab<CommEntry>| comm_index(h).and_then(|i| t.get(i).map(|e| e.comm.clone()));
    Ok(
        match cached(
            &COMM_CACHE,
            h,
            &COMMS,
            load,
            ErrorClass::Comm,
            "communicator",
        )? {
            Found::Lent(c) => CommRef::Cached(c),
            Found::Shared(c) => CommRef::Shared(c),
        },
    )
}

/// Handle `h` through this thread's cache of `table` (see `runtime::table_cache::lookup`); an
/// invalid one is an error of `class` naming the `kind` of handle.
fn cached<T, S>(
    cache: &'static LocalKey<Ways<T>>,
    h: i32,
    table: &Table<S>,
    load: impl FnOnce(&S) -> Option<Arc<T>>,
    class: ErrorClass,
    kind: &str,
) -> Result<Found<T>> {
    table_cache::lookup(table_cache::local(cache), h, table, load)
        .ok_or_else(|| invalid(class, kind, h))
}

/// MPI_ERR_`class`: `h` is no valid handle of its `kind`.
fn invalid(class: ErrorClass, kind: &str, h: c_int) -> Error {
    Error::new(class, format!("invalid {kind} {h:#x}"))
}

/// The communicator behind `h`, to keep (a request that outlives the call holds it).
pub fn comm_arc(h: MPI_Comm) -> Result<Arc<Communicator>> {
    let t = COMMS.read();
    let e = comm_index(h).and_then(|i| t.get(i));
    e.map(|e| e.comm.clone()).ok_or_else(|| bad_comm(h))
}

pub fn with_comm_entry<T>(h: MPI_Comm, f: impl FnOnce(&mut CommEntry) -> T) -> Result<T> {
    let mut t = COMMS.write();
    comm_index(h)
        .and_then(|i| t.get_mut(i))
        .map(f)
        .ok_or_else(|| bad_comm(h))
}

fn bad_comm(h: MPI_Comm) -> Error {
    invalid(ErrorClass::Comm, "communicator", h)
}

/// An object's own error handler while none is set (what it stands for:
/// `runtime::errhandler::effective`).
pub(crate) const UNSET_ERRHANDLER: MPI_Errhandler = MPI_ERRHANDLER_NULL;

/// An object's own handler, None while unset.
fn own_errhandler(h: MPI_Errhandler) -> Option<MPI_Errhandler> {
    (h != UNSET_ERRHANDLER).then_some(h)
}

/// What MPI_Comm_get_errhandler and MPI_Win_get_errhandler return for an object's own `h`.
pub fn reported_errhandler(h: MPI_Errhandler) -> MPI_Errhandler {
    errhandler::reported(own_errhandler(h), MPI_ERRORS_ARE_FATAL)
}

/// The handler that `h` (an object's own) stands for.
pub fn effective_errhandler(h: MPI_Errhandler) -> MPI_Errhandler {
    let world = || own_errhandler(COMMS.read().get(0)?.errhandler);
    errhandler::effective(own_errhandler(h), world, MPI_ERRORS_ARE_FATAL)
}

/// The error handler errors on `h` go to; MPI_COMM_WORLD's for an invalid handle.
pub fn comm_errhandler(h: MPI_Comm) -> MPI_Errhandler {
    effective_errhandler(inherited_errhandler(h))
}

/// What a communicator made from `h` starts with: `h`'s own handler (unset if it has none).
pub fn inherited_errhandler(h: MPI_Comm) -> MPI_Errhandler {
    let t = COMMS.read();
    comm_index(h)
        .and_then(|i| t.get(i))
        .or_else(|| t.get(0))
        .map_or(UNSET_ERRHANDLER, |e| e.errhandler)
}

/// A new communicator handle of the World model or of `session`.
pub fn new_comm_in(
    comm: Arc<Communicator>,
    errhandler: MPI_Errhandler,
    session: MPI_Session,
) -> MPI_Comm {
    comm_handle(
        COMMS
            .write()
            .insert(CommEntry::new(comm, errhandler, session)),
    )
}

pub fn new_comm(comm: Arc<Communicator>, errhandler: MPI_Errhandler) -> MPI_Comm {
    new_comm_in(comm, errhandler, MPI_SESSION_NULL)
}

/// A communicator made from `parent` (dup, split, create, topology, intercommunicator):
/// its error handler and session inherited.
pub fn derived_comm(comm: Arc<Communicator>, parent: MPI_Comm) -> MPI_Comm {
    new_comm_in(comm, inherited_errhandler(parent), comm_session(parent))
}

/// The session `h` derives from (MPI_SESSION_NULL: none, or not a communicator).
pub fn comm_session(h: MPI_Comm) -> MPI_Session {
    let t = COMMS.read();
    comm_index(h)
        .and_then(|i| t.get(i))
        .map_or(MPI_SESSION_NULL, |e| e.session)
}

/// The handle of table slot `i` (the inverse of `comm_index`).
fn comm_handle(i: usize) -> MPI_Comm {
    match i {
        0 => MPI_COMM_WORLD,
        1 => MPI_COMM_SELF,
        _ => (DIRECT | KIND_COMM | i as u32) as MPI_Comm,
    }
}

/// The owner tag the engine keeps with a request started on communicator `h`: its slot in
/// the table, plus one (0: none). No C handle travels below the ABI.
pub fn comm_owner(h: MPI_Comm) -> Owner {
    Owner(comm_index(h).map_or(0, |i| i as u32 + 1))
}

/// The communicator handle behind an owner tag (MPI_COMM_WORLD for none): where an error
/// found at completion goes.
pub fn owner_comm(o: Owner) -> MPI_Comm {
    o.0.checked_sub(1)
        .map_or(MPI_COMM_WORLD, |i| comm_handle(i as usize))
}

pub fn free_comm(h: MPI_Comm) -> Result<()> {
    match h {
        MPI_COMM_WORLD | MPI_COMM_SELF => mpi_err!(Comm, "cannot free a predefined communicator"),
        _ => comm_index(h)
            .and_then(|i| COMMS.write().remove(i))
            .map(|_| ())
            .ok_or_else(|| bad_comm(h)),
    }
}

// ------------------------------------------------------------------ windows

pub struct WinEntry {
    pub win: Arc<crate::rma::Window>,
    pub errhandler: MPI_Errhandler,
    pub name: String,
    /// Attributes (keyval, value), oldest first (see `abi::rma`).
    pub attrs: AttrList,
    pub info: Vec<(String, String)>,
}

pub static WINS: RwLock<Slab<WinEntry>> = RwLock::new(Slab::new(0));

fn win_index(h: MPI_Win) -> Option<usize> {
    direct_index(h, KIND_WIN)
}

fn bad_win(h: MPI_Win) -> Error {
    invalid(ErrorClass::Win, "window", h)
}

/// The window behind `h`, or MPI_ERR_WIN.
pub fn win(h: MPI_Win) -> Result<Arc<crate::rma::Window>> {
    win_index(h)
        .and_then(|i| WINS.read().get(i).map(|e| e.win.clone()))
        .ok_or_else(|| bad_win(h))
}

/// The windows of the first `FAST_WINS` handle slots, for `with_win` to find without a
/// lock: a pointer to the `Window` its table entry holds (null when the slot is free).
/// Set after the entry is inserted, cleared before it is removed (`new_win`, `remove_win`).
const FAST_WINS: usize = 1024;
static FAST: [std::sync::atomic::AtomicPtr<crate::rma::Window>; FAST_WINS] =
    [const { std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()) }; FAST_WINS];

/// Run `f` on the window behind `h` without taking a reference or a lock (the latency
/// path of MPI_Put and friends: the table lock's two locked instructions were half of an
/// 8-byte put); MPI_ERR_WIN if invalid. `f` must not create or free windows.
#[inline]
pub fn with_win<T>(h: MPI_Win, f: impl FnOnce(&crate::rma::Window) -> Result<T>) -> Result<T> {
    let i = win_index(h).ok_or_else(|| bad_win(h))?;
    if let Some(slot) = FAST.get(i) {
        let p = slot.load(std::sync::atomic::Ordering::Acquire);
        if p.is_null() {
            return Err(bad_win(h));
        }
        // SAFETY: a non-null slot points to the Window that WINS[i] holds an Arc of; the
        // slot is cleared before that Arc is dropped (MPI_Win_free), and MPI forbids
        // freeing a window while another thread still uses it (MPI_Win_free is collective
        // and needs every RMA call on the window complete), so it outlives `f`.
        return f(unsafe { &*p });
    }
    let t = WINS.read();
    f(&t.get(i).ok_or_else(|| bad_win(h))?.win)
}

pub fn with_win_entry<T>(h: MPI_Win, f: impl FnOnce(&mut WinEntry) -> T) -> Result<T> {
    let i = win_index(h).ok_or_else(|| bad_win(h))?;
    let mut t = WINS.write();
    Ok(f(t.get_mut(i).ok_or_else(|| bad_win(h))?))
}

/// The error handler errors on window `h` go to; for an invalid handle, MPI_COMM_WORLD's
/// (errors on no valid object, as for communicators).
pub fn win_errhandler(h: MPI_Win) -> MPI_Errhandler {
    let own = win_index(h).and_then(|i| WINS.read().get(i).map(|e| e.errhandler));
    effective_errhandler(own.unwrap_or(UNSET_ERRHANDLER))
}

/// A handle for a new window with the hints it was made with.
pub fn new_win(win: Arc<crate::rma::Window>, info: Vec<(String, String)>) -> MPI_Win {
    let p = Arc::as_ptr(&win) as *mut crate::rma::Window;
    let (errhandler, name, attrs) = (UNSET_ERRHANDLER, String::new(), Vec::new());
    let e = WinEntry {
        win,
        errhandler,
        name,
        attrs,
        info,
    };
    let i = WINS.write().insert(e);
    if let Some(slot) = FAST.get(i) {
        slot.store(p, std::sync::atomic::Ordering::Release);
    }
    (DIRECT | KIND_WIN | i as u32) as MPI_Win
}

pub fn remove_win(h: MPI_Win) -> Result<WinEntry> {
    let i = win_index(h).ok_or_else(|| bad_win(h))?;
    let mut t = WINS.write();
    t.get(i).ok_or_else(|| bad_win(h))?;
    if let Some(slot) = FAST.get(i) {
        slot.store(std::ptr::null_mut(), std::sync::atomic::Ordering::Release);
    }
    t.remove(i).ok_or_else(|| bad_win(h))
}

// ------------------------------------------------------------------ groups

/// Groups and the session each derives from (MPI_SESSION_NULL: none).
static GROUPS: RwLock<Slab<(Arc<Group>, MPI_Session)>> = RwLock::new(Slab::new(0));
static EMPTY_GROUP: LazyLock<Arc<Group>> = LazyLock::new(|| Arc::new(Group::empty()));

/// The group behind `h` (MPI_GROUP_EMPTY included), or MPI_ERR_GROUP.
pub fn group(h: MPI_Group) -> Result<Arc<Group>> {
    if h == MPI_GROUP_EMPTY {
        return Ok(EMPTY_GROUP.clone());
    }
    direct_index(h, KIND_GROUP)
        .and_then(|i| GROUPS.read().get(i).map(|(g, _)| g.clone()))
        .ok_or_else(|| invalid(ErrorClass::Group, "group", h))
}

/// A handle for `g`; MPI_GROUP_EMPTY when it has no members (as MPICH returns).
pub fn new_group(g: Arc<Group>) -> MPI_Group {
    new_group_in(g, MPI_SESSION_NULL)
}

/// A new group handle deriving from `session`.
pub fn new_group_in(g: Arc<Group>, session: MPI_Session) -> MPI_Group {
    if g.size() == 0 {
        return MPI_GROUP_EMPTY;
    }
    let i = GROUPS.write().insert((g, session));
    (DIRECT | KIND_GROUP | i as u32) as MPI_Group
}

/// The session group `h` derives from (MPI_SESSION_NULL: none, or not a group).
pub fn group_session(h: MPI_Group) -> MPI_Session {
    direct_index(h, KIND_GROUP)
        .and_then(|i| GROUPS.read().get(i).map(|&(_, s)| s))
        .unwrap_or(MPI_SESSION_NULL)
}

/// Free a group handle (freeing MPI_GROUP_EMPTY is allowed, as in MPICH).
pub fn free_group(h: MPI_Group) -> Result<()> {
    if h == MPI_GROUP_EMPTY {
        return Ok(());
    }
    direct_index(h, KIND_GROUP)
        .and_then(|i| GROUPS.write().remove(i))
        .map(|_| ())
        .ok_or_else(|| invalid(ErrorClass::Group, "group", h))
}

// ------------------------------------------------------------------ info objects

static INFOS: RwLock<Slab<Info>> = RwLock::new(Slab::new(0));

/// A new info object holding `pairs` (each key once).
pub fn new_info(pairs: Vec<(String, String)>) -> MPI_Info {
    let i = INFOS.write().insert(Info::from_pairs(pairs));
    (DIRECT | KIND_INFO | i as u32) as MPI_Info
}

fn bad_info(h: MPI_Info) -> Error {
    if h == MPI_INFO_NULL {
        Error::new(ErrorClass::Arg, "MPI_INFO_NULL is not an info object")
    } else {
        invalid(ErrorClass::Info, "info object", h)
    }
}

/// Run `f` on the created info object `h` (MPI_ERR_ARG for MPI_INFO_NULL, as MPICH;
/// MPI_ERR_INFO for anything else that is not one).
pub fn with_info<T>(h: MPI_Info, f: impl FnOnce(&mut Info) -> T) -> Result<T> {
    let i = direct_index(h, KIND_INFO).ok_or_else(|| bad_info(h))?;
    let mut t = INFOS.write();
    t.get_mut(i).map(f).ok_or_else(|| bad_info(h))
}

pub fn free_info(h: MPI_Info) -> Result<()> {
    direct_index(h, KIND_INFO)
        .and_then(|i| INFOS.write().remove(i))
        .map(|_| ())
        .ok_or_else(|| bad_info(h))
}

// ------------------------------------------------------------------ attribute keyvals

/// Keyval handles carry MPICH's object kind in bits 22..26 (1: communicator, 3: datatype,
/// 8: window) above a 22-bit index, as MPICH's do.
const KEYVAL_OBJ_SHIFT: u32 = 22;
const KEYVAL_INDEX_MASK: u32 = 0x003f_ffff;
/// The object kind of communicator keyvals.
pub(crate) const KEYVAL_OBJ_COMM: u32 = 1;
pub(crate) const KEYVAL_OBJ_WIN: u32 = 2;
pub(crate) const KEYVAL_OBJ_TYPE: u32 = 3;

/// The handle of the keyval at `slot` of the core's table (`comm::attributes::KEYVALS`)
/// for objects of kind `obj`.
pub fn keyval_handle(slot: usize, obj: u32) -> c_int {
    (DIRECT | KIND_KEYVAL | (obj << KEYVAL_OBJ_SHIFT) | slot as u32) as c_int
}

/// The table index of a created keyval for objects of kind `obj`.
pub fn keyval_index(h: c_int, obj: u32) -> Option<usize> {
    let u = h as u32;
    (u & 0xffc0_0000 == DIRECT | KIND_KEYVAL | (obj << KEYVAL_OBJ_SHIFT))
        .then_some((u & KEYVAL_INDEX_MASK) as usize)
}

// ------------------------------------------------------------------ datatypes

static TYPES: Table<Slab<Arc<Datatype>>> = Table::new(Slab::new(FIRST_DYNAMIC_TYPE));

thread_local! {
    /// The derived datatypes this thread took from the table last.
    static TYPE_CACHE: Ways<Datatype> = const { Ways::new() };
}

/// A datatype usable for communication: valid and committed (else MPI_ERR_TYPE).
#[inline]
pub fn datatype(h: MPI_Datatype) -> Result<TypeRef> {
    if let Some(d) = builtin_types::lookup(h) {
        return Ok(TypeRef::Builtin(d));
    }
    derived_datatype(h)
}

/// `datatype` for a point-to-point buffer of `count` elements: MPI_DATATYPE_NULL with
/// count 0 is an empty message (MPICH checks the type only when count > 0).
#[inline]
pub fn datatype_n(h: MPI_Datatype, count: usize) -> Result<TypeRef> {
    datatype(if count == 0 && h == MPI_DATATYPE_NULL {
        MPI_BYTE
    } else {
        h
    })
}

/// `datatype` for derived types (out of line: the predefined ones are the hot path).
#[inline(never)]
fn derived_datatype(h: MPI_Datatype) -> Result<TypeRef> {
    let d = any_datatype(h)?;
    if !d.committed {
        return mpi_err!(Type, "datatype is not committed");
    }
    Ok(d)
}

/// Any valid datatype, committed or not (for MPI_Type_* queries).
pub fn any_datatype(h: MPI_Datatype) -> Result<TypeRef> {
    if let Some(d) = builtin_types::lookup(h) {
        return Ok(TypeRef::Builtin(d));
    }
    let load = |t: &Slab<Arc<Datatype>>| {
        direct_index(h, KIND_DATATYPE)
            .filter(|&i| i >= FIRST_DYNAMIC_TYPE)
            .and_then(|i| t.get(i).cloned())
    };
    Ok(
        match cached(&TYPE_CACHE, h, &TYPES, load, ErrorClass::Type, "datatype")? {
            Found::Lent(d) => TypeRef::Cached(d),
            Found::Shared(d) => TypeRef::Derived(d),
        },
    )
}

pub fn new_datatype(d: Datatype) -> MPI_Datatype {
    let i = TYPES.write().insert(Arc::new(d));
    (DIRECT | KIND_DATATYPE | i as u32) as MPI_Datatype
}

/// Change a type of the table (the callers leave predefined types alone).
pub fn update_datatype(h: MPI_Datatype, f: impl FnOnce(&mut Datatype)) -> Result<()> {
    let i = direct_index(h, KIND_DATATYPE).filter(|&i| i >= FIRST_DYNAMIC_TYPE);
    let mut t = TYPES.write();
    let d = i.and_then(|i| t.get_mut(i));
    f(Arc::make_mut(d.ok_or_else(|| {
        invalid(ErrorClass::Type, "datatype", h)
    })?));
    Ok(())
}

/// Drop the table's type `h` (the callers refuse predefined ones first).
pub fn free_datatype(h: MPI_Datatype) -> Result<()> {
    direct_index(h, KIND_DATATYPE)
        .filter(|&i| i >= FIRST_DYNAMIC_TYPE)
        .and_then(|i| TYPES.write().remove(i))
        .map(|_| ())
        .ok_or_else(|| invalid(ErrorClass::Type, "datatype", h))
}

// ------------------------------------------------------------------ error handlers

/// Created error handlers (their functions and references).
static ERRHANDLERS: errhandler::Functions = errhandler::Functions::new();

pub fn new_errhandler(f: usize) -> MPI_Errhandler {
    (DIRECT | KIND_ERRHANDLER | ERRHANDLERS.create(f) as u32) as MPI_Errhandler
}

/// The user function behind a created error handler.
pub fn errhandler_fn(h: MPI_Errhandler) -> Option<usize> {
    direct_index(h, KIND_ERRHANDLER).and_then(|i| ERRHANDLERS.function(i))
}

fn predefined_errhandler(h: MPI_Errhandler) -> bool {
    matches!(
        h,
        MPI_ERRORS_ARE_FATAL | MPI_ERRORS_RETURN | MPI_ERRORS_ABORT
    )
}

pub fn valid_errhandler(h: MPI_Errhandler) -> bool {
    predefined_errhandler(h) || errhandler_fn(h).is_some()
}

/// One more reference to a created handler (a get returned it, or it was set on an object).
pub fn retain_errhandler(h: MPI_Errhandler) {
    if let Some(i) = direct_index(h, KIND_ERRHANDLER) {
        ERRHANDLERS.retain(i);
    }
}

pub fn free_errhandler(h: MPI_Errhandler) -> Result<()> {
    if predefined_errhandler(h) {
        return Ok(()); // predefined: freeing is a no-op on the handle's object
    }
    match direct_index(h, KIND_ERRHANDLER) {
        Some(i) if ERRHANDLERS.release(i) => Ok(()),
        _ => mpi_err!(Arg, "invalid error handler {h:#x}"),
    }
}

// ------------------------------------------------------------------ requests

/// A request with a table entry (`runtime::requests`): the entry's index as a direct
/// handle.
pub fn new_request(e: Entry) -> MPI_Request {
    (DIRECT | KIND_REQUEST | requests::insert(e) as u32) as MPI_Request
}

/// The request of a nonblocking collective on `comm`.
pub fn coll_request(id: crate::coll::schedule::CollId, comm: MPI_Comm) -> MPI_Request {
    let owner = comm_owner(comm);
    new_request(Entry::Coll { id, owner })
}

/// A plain engine request is named by its engine slot, with the handle-kind bits MPICH
/// leaves unused for requests (`11`), so it needs no table entry at all.
const ENGINE_REQUEST: u32 = 0xc000_0000 | KIND_REQUEST;
/// Engine slots from here on name no engine request: the two handles below.
const FIRST_RESERVED_SLOT: u32 = INDEX_MASK - 1;

/// Handles of requests that completed when they were started, so they need no table
/// entry: an eager send that went straight into the rail, and operations on MPI_PROC_NULL.
/// The last two slots of the engine range: no MPICH handle value (0x6c000001 is one of
/// MPICH's builtin requests, so a program may well pass it, and must get MPI_ERR_REQUEST).
pub(crate) const REQUEST_SEND_DONE: MPI_Request = (ENGINE_REQUEST | INDEX_MASK) as MPI_Request;
pub(crate) const REQUEST_PROC_NULL_DONE: MPI_Request =
    (ENGINE_REQUEST | FIRST_RESERVED_SLOT) as MPI_Request;

pub fn engine_handle(id: ReqId) -> Option<MPI_Request> {
    let slot = (id & 0xffff_ffff) as u32;
    (slot < FIRST_RESERVED_SLOT).then_some((ENGINE_REQUEST | slot) as MPI_Request)
}

pub fn engine_slot(h: MPI_Request) -> Option<u32> {
    let u = h as u32;
    (u & 0xfc00_0000 == ENGINE_REQUEST && u & INDEX_MASK < FIRST_RESERVED_SLOT)
        .then_some(u & INDEX_MASK)
}

pub fn request_index(h: MPI_Request) -> Option<usize> {
    direct_index(h, KIND_REQUEST)
}

/// How the core reads request handles.
impl requests::Handle for MPI_Request {
    const NULL: Self = MPI_REQUEST_NULL;

    #[inline(always)]
    fn named(self) -> Named {
        // Plain engine requests first: the message-rate path.
        if let Some(slot) = engine_slot(self) {
            return Named::Slot(slot);
        }
        match self {
            REQUEST_SEND_DONE => Named::SendDone,
            MPI_REQUEST_NULL => Named::Null,
            REQUEST_PROC_NULL_DONE => Named::ProcNullDone,
            _ => request_index(self).map_or(Named::Invalid, Named::Entry),
        }
    }

    fn empty_status(proc_null: bool) -> Status {
        let source = if proc_null {
            MPI_PROC_NULL
        } else {
            MPI_ANY_SOURCE
        };
        Status::received(source, MPI_ANY_TAG, 0, 0)
    }
}

// ------------------------------------------------------------------ files

/// An open MPI file and what the C surface keeps with it.
pub struct FileEntry {
    pub file: Arc<crate::io::File>,
    pub errhandler: MPI_Errhandler,
    /// The view's etype and filetype as the application gave them (MPI_File_get_view
    /// returns them; held so MPI_Type_free of the handles does not affect the view).
    pub etype: (MPI_Datatype, KeptType),
    pub filetype: (MPI_Datatype, KeptType),
    /// The private communicator's handle (errors of its collectives have somewhere to go).
    pub comm: MPI_Comm,
}

pub static FILES: RwLock<Slab<FileEntry>> = RwLock::new(Slab::new(0));

/// The error handler of MPI_FILE_NULL: new files start with it, and errors of
/// MPI_File_open / MPI_File_delete go to it (MPI-3.1 §13.7: initially MPI_ERRORS_RETURN).
pub static FILE_NULL_ERRHANDLER: Mutex<MPI_Errhandler> = Mutex::new(MPI_ERRORS_RETURN);

/// MPI_File values are pointers in MPICH's ABI; ours encode a table slot (the program
/// never looks behind them): `FILE_TAG` in the high half and MPI_File_c2f's integer,
/// `slot + 1`, in the low one. An error handler written in Fortran, called with a pointer
/// to the C handle, reads its first INTEGER and so sees the Fortran handle.
const FILE_TAG: usize = 0x5f11 << 32;

pub fn file_handle(slot: usize) -> MPI_File {
    std::ptr::without_provenance_mut(FILE_TAG | (slot as u32 as usize + 1))
}

/// The table slot behind a file handle.
pub fn file_slot(h: MPI_File) -> Option<usize> {
    let v = h as usize;
    (v >> 32 == FILE_TAG >> 32 && v as u32 != 0).then(|| (v as u32 - 1) as usize)
}

fn bad_file(h: MPI_File) -> Error {
    Error::new(
        ErrorClass::File,
        format!("invalid file handle {:#x}", h as usize),
    )
}

pub fn new_file(e: FileEntry) -> MPI_File {
    file_handle(FILES.write().insert(e))
}

/// The open file behind `h`, or MPI_ERR_FILE.
pub fn file(h: MPI_File) -> Result<Arc<crate::io::File>> {
    with_file_entry(h, |e| e.file.clone())
}

pub fn with_file_entry<T>(h: MPI_File, f: impl FnOnce(&mut FileEntry) -> T) -> Result<T> {
    let i = file_slot(h).ok_or_else(|| bad_file(h))?;
    let mut t = FILES.write();
    Ok(f(t.get_mut(i).ok_or_else(|| bad_file(h))?))
}

pub fn remove_file(h: MPI_File) -> Result<FileEntry> {
    let i = file_slot(h).ok_or_else(|| bad_file(h))?;
    FILES.write().remove(i).ok_or_else(|| bad_file(h))
}

/// The error handler of file `h`; MPI_FILE_NULL's for MPI_FILE_NULL and invalid handles.
pub fn file_errhandler(h: MPI_File) -> MPI_Errhandler {
    file_slot(h)
        .and_then(|i| FILES.read().get(i).map(|e| e.errhandler))
        .unwrap_or_else(|| *FILE_NULL_ERRHANDLER.lock())
}

// ------------------------------------------------------------------ attributes

pub use crate::comm::attributes::{Attr, AttrList};

// ------------------------------------------------------------------ sessions

pub struct SessionEntry {
    pub errhandler: MPI_Errhandler,
    /// The thread support the session was given (MPI_Session_get_info's thread_level).
    pub thread_level: &'static str,
}

/// Open sessions; handle = MPI_SESSION_NULL | (index + 1).
pub static SESSIONS: RwLock<Vec<Option<SessionEntry>>> = RwLock::new(Vec::new());

/// MPI_ERR_SESSION unless `h` is an open session.
pub fn check_session(h: MPI_Session) -> Result<()> {
    with_session(h, |_| ())
}

pub fn session_index(h: MPI_Session) -> Option<usize> {
    let u = h as u32;
    let base = MPI_SESSION_NULL as u32;
    (u & 0xfc00_0000 == base && u != base).then(|| (u - base - 1) as usize)
}

/// A session handle's entry (MPI_ERR_SESSION for anything else).
pub fn with_session<T>(h: MPI_Session, f: impl FnOnce(&mut SessionEntry) -> T) -> Result<T> {
    let mut t = SESSIONS.write();
    match session_index(h)
        .and_then(|i| t.get_mut(i))
        .and_then(|e| e.as_mut())
    {
        Some(e) => Ok(f(e)),
        None => mpi_err!(Session, "invalid session {h:#x}"),
    }
}

/// The error handler of session `h` (MPI_COMM_SELF's where `h` is not a session: its
/// errors have no session to go to).
pub fn session_errhandler(h: MPI_Session) -> Option<MPI_Errhandler> {
    let t = SESSIONS.read();
    session_index(h)
        .and_then(|i| t.get(i))
        .and_then(|e| e.as_ref())
        .map(|e| e.errhandler)
}
