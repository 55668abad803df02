//! What the generated bindings over the standard ABI share: the special addresses,
//! arrays of handles, attribute values, and trampolines for the Fortran procedures the C
//! library calls without an extra-state argument (reduction operations, error handlers).

pub use crate::common::*;
use crate::generated::abi::*;
use crate::generated::{PMPI_Comm_fromint, PMPI_Comm_toint, PMPI_Type_toint};
use crate::types::*;
use std::os::raw::{c_int, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

macro_rules! fortran_handles {
    ($($t:ident $toint:ident),* $(,)?) => {$(
        impl FortranHandle for $t {
            fn to_fint(self) -> MPI_Fint {
                // SAFETY: MPI_X_toint takes any handle value and only converts it.
                unsafe { crate::generated::$toint(self) }
            }
        }
    )*};
}

fortran_handles! {
    MPI_Comm PMPI_Comm_toint, MPI_Datatype PMPI_Type_toint, MPI_Win PMPI_Win_toint,
}

extern "C" {
    fn PMPI_Comm_test_inter(comm: MPI_Comm, flag: *mut c_int) -> c_int;
    fn PMPI_Comm_size(comm: MPI_Comm, size: *mut c_int) -> c_int;
    fn PMPI_Comm_remote_size(comm: MPI_Comm, size: *mut c_int) -> c_int;
    fn PMPI_Topo_test(comm: MPI_Comm, status: *mut c_int) -> c_int;
    fn PMPI_Cartdim_get(comm: MPI_Comm, ndims: *mut c_int) -> c_int;
    fn PMPI_Comm_rank(comm: MPI_Comm, rank: *mut c_int) -> c_int;
    fn PMPI_Graph_neighbors_count(comm: MPI_Comm, rank: c_int, n: *mut c_int) -> c_int;
    fn PMPI_Dist_graph_neighbors_count(
        comm: MPI_Comm,
        indegree: *mut c_int,
        outdegree: *mut c_int,
        weighted: *mut c_int,
    ) -> c_int;
    fn PMPI_File_toint(file: MPI_File) -> c_int;
    fn PMPI_Win_toint(win: MPI_Win) -> c_int;
    fn PMPI_Session_toint(session: MPI_Session) -> c_int;
}

// ---------------------------------------------------------------------------------------
// COMMON blocks: MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ... are variables in these
// (include/abi/mpif.h); the library recognises their addresses. The program usually holds
// its own copy of each block (the executable's wins), so the addresses are looked up at
// run time.
// ---------------------------------------------------------------------------------------

const STATUS_SIZE: usize = MPI_F_STATUS_SIZE as usize;

/// `COMMON /RMPIABI1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE(MPI_STATUS_SIZE)`.
#[repr(C)]
pub struct Priv1 {
    pub bottom: MPI_Fint,
    pub in_place: MPI_Fint,
    pub status_ignore: [MPI_Fint; STATUS_SIZE],
}

/// `COMMON /RMPIABI2/ MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1), MPI_ERRCODES_IGNORE(1)`
/// (MPI_ERRCODES_IGNORE: only MPI_COMM_SPAWN takes it, which has no binding here).
#[repr(C)]
pub struct Priv2 {
    pub statuses_ignore: [MPI_Fint; STATUS_SIZE],
    pub errcodes_ignore: [MPI_Fint; 1],
}

/// `COMMON /RMPIABIC/ MPI_ARGVS_NULL(1,1), MPI_ARGV_NULL(1)` (CHARACTER*1).
#[repr(C)]
pub struct PrivC {
    pub argvs_null: [u8; 1],
    pub argv_null: [u8; 1],
}

#[no_mangle]
pub static mut rmpiabi1_: Priv1 = Priv1 {
    bottom: 0,
    in_place: 0,
    status_ignore: [0; STATUS_SIZE],
};
#[no_mangle]
pub static mut rmpiabi2_: Priv2 = Priv2 {
    statuses_ignore: [0; STATUS_SIZE],
    errcodes_ignore: [0; 1],
};
#[no_mangle]
pub static mut rmpiabic_: PrivC = PrivC {
    argvs_null: [0; 1],
    argv_null: [0; 1],
};
/// `COMMON /RMPIABI5/ MPI_UNWEIGHTED`.
#[no_mangle]
pub static mut rmpiabi5_: MPI_Fint = 0;
/// `COMMON /RMPIABI9/ MPI_WEIGHTS_EMPTY`.
#[no_mangle]
pub static mut rmpiabi9_: MPI_Fint = 0;

/// The addresses of the special Fortran variables in this process: mpif.h's COMMON
/// members, then mpi_f08's module variables (f08_support.rs).
struct Addrs {
    bottom: [usize; 2],
    in_place: [usize; 2],
    /// MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE of both: either stands for the other.
    status_ignore: [usize; 4],
    unweighted: [usize; 2],
    weights_empty: [usize; 2],
}

fn addrs() -> &'static Addrs {
    use crate::f08_support as f08;
    static ADDRS: OnceLock<Addrs> = OnceLock::new();
    ADDRS.get_or_init(|| {
        let p1 = bound_address(c"rmpiabi1_", &raw const rmpiabi1_ as usize);
        let p2 = bound_address(c"rmpiabi2_", &raw const rmpiabi2_ as usize);
        let f08 = |name: &std::ffi::CStr, own: usize| bound_address(name, own);
        Addrs {
            bottom: [
                p1 + std::mem::offset_of!(Priv1, bottom),
                f08(
                    c"rmpiabi_f08_bottom",
                    &raw const f08::rmpiabi_f08_bottom as usize,
                ),
            ],
            in_place: [
                p1 + std::mem::offset_of!(Priv1, in_place),
                f08(
                    c"rmpiabi_f08_in_place",
                    &raw const f08::rmpiabi_f08_in_place as usize,
                ),
            ],
            status_ignore: [
                p1 + std::mem::offset_of!(Priv1, status_ignore),
                p2 + std::mem::offset_of!(Priv2, statuses_ignore),
                f08(
                    c"rmpiabi_f08_status_ignore",
                    &raw const f08::rmpiabi_f08_status_ignore as usize,
                ),
                f08(
                    c"rmpiabi_f08_statuses_ignore",
                    &raw const f08::rmpiabi_f08_statuses_ignore as usize,
                ),
            ],
            unweighted: [
                bound_address(c"rmpiabi5_", &raw const rmpiabi5_ as usize),
                f08(
                    c"rmpiabi_f08_unweighted",
                    &raw const f08::rmpiabi_f08_unweighted as usize,
                ),
            ],
            weights_empty: [
                bound_address(c"rmpiabi9_", &raw const rmpiabi9_ as usize),
                f08(
                    c"rmpiabi_f08_weights_empty",
                    &raw const f08::rmpiabi_f08_weights_empty as usize,
                ),
            ],
        }
    })
}

/// A choice buffer: Fortran's MPI_BOTTOM and MPI_IN_PLACE become C's.
#[inline]
pub fn f_buf(p: *mut c_void) -> *mut c_void {
    let a = addrs();
    let u = p as usize;
    if a.bottom.contains(&u) {
        std::ptr::without_provenance_mut(MPI_BOTTOM)
    } else if a.in_place.contains(&u) {
        std::ptr::without_provenance_mut(MPI_IN_PLACE)
    } else {
        p
    }
}

/// A status or status array: Fortran's MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE (either is
/// accepted for the other, as with libmpi.so.12's bindings) becomes C's `ignore`.
#[inline]
fn ignoring(p: *mut MPI_Status, ignore: usize) -> *mut MPI_Status {
    if addrs().status_ignore.contains(&(p as usize)) {
        std::ptr::without_provenance_mut(ignore)
    } else {
        p
    }
}

#[inline]
pub fn f_status(p: *mut MPI_Status) -> *mut MPI_Status {
    ignoring(p, MPI_STATUS_IGNORE)
}

#[inline]
pub fn f_statuses(p: *mut MPI_Status) -> *mut MPI_Status {
    ignoring(p, MPI_STATUSES_IGNORE)
}

/// A weights array: Fortran's MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY become C's.
#[inline]
pub fn f_weights(p: *mut c_int) -> *mut c_int {
    let a = addrs();
    let u = p as usize;
    if a.unweighted.contains(&u) {
        std::ptr::without_provenance_mut(MPI_UNWEIGHTED)
    } else if a.weights_empty.contains(&u) {
        std::ptr::without_provenance_mut(MPI_WEIGHTS_EMPTY)
    } else {
        p
    }
}

/// Indices out of MPI_Waitsome / MPI_Testsome are 1-based in Fortran.
///
/// # Safety
/// After a successful call, `outcount` and `indices[..outcount]` are valid.
pub unsafe fn f_indices_to_fortran(rc: c_int, outcount: *mut c_int, indices: *mut c_int) {
    let filled = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
    indices_to_fortran(filled, outcount, indices, MPI_UNDEFINED);
}

// ---------------------------------------------------------------------------------------
// Arrays of handles: INTEGERs in Fortran, pointers in C, so copied both ways.
// ---------------------------------------------------------------------------------------

/// An array length from a Fortran INTEGER (a negative one reads nothing; the C call
/// reports it).
pub fn f_len(n: c_int) -> usize {
    n.max(0) as usize
}

/// The Fortran INTEGER of a handle a call wrote: `null` (the type's null handle) for a NULL
/// pointer, which no ABI handle is (MPICH 5.0.2's MPI_File_open leaves one after failing
/// on a missing file, and its MPI_File_toint crashes on it).
///
/// # Safety
/// Calls MPI.
pub unsafe fn f_handle_out<S>(
    h: *mut S,
    null: c_int,
    toint: unsafe extern "C" fn(*mut S) -> c_int,
) -> MPI_Fint {
    if h.is_null() {
        null
    } else {
        toint(h)
    }
}

/// The C handles of the Fortran array `p[..n]`.
///
/// # Safety
/// `p` is valid for `n` INTEGERs when `n > 0`.
pub unsafe fn f_handles_in<H>(
    p: *const MPI_Fint,
    n: usize,
    fromint: unsafe extern "C" fn(c_int) -> H,
) -> Vec<H> {
    if n == 0 || p.is_null() {
        return Vec::new();
    }
    std::slice::from_raw_parts(p, n)
        .iter()
        .map(|&i| fromint(i))
        .collect()
}

/// Writes C handles back into the Fortran array `p`.
///
/// # Safety
/// `p` is valid for `v.len()` INTEGERs.
pub unsafe fn f_handles_out<H: Copy>(
    v: &[H],
    p: *mut MPI_Fint,
    toint: unsafe extern "C" fn(H) -> c_int,
) {
    for (i, &h) in v.iter().enumerate() {
        *p.add(i) = toint(h);
    }
}

/// The length of MPI_Alltoallw's type arrays: the size of the (remote) group. An invalid
/// communicator gives 0; the call itself reports it.
///
/// # Safety
/// Calls MPI.
pub unsafe fn f_group_len(comm: MPI_Fint) -> usize {
    let c = PMPI_Comm_fromint(comm);
    let (mut inter, mut n) = (0, 0);
    if PMPI_Comm_test_inter(c, &mut inter) != MPI_SUCCESS {
        return 0;
    }
    let rc = match inter {
        0 => PMPI_Comm_size(c, &mut n),
        _ => PMPI_Comm_remote_size(c, &mut n),
    };
    if rc == MPI_SUCCESS {
        f_len(n)
    } else {
        0
    }
}

/// The length of MPI_Neighbor_alltoallw's type arrays: the out-degree (send side) or
/// in-degree of the communicator's topology.
///
/// # Safety
/// Calls MPI.
pub unsafe fn f_neighbor_len(comm: MPI_Fint, send: bool) -> usize {
    let c = PMPI_Comm_fromint(comm);
    let mut topo = 0;
    if PMPI_Topo_test(c, &mut topo) != MPI_SUCCESS {
        return 0;
    }
    let mut n = 0;
    if topo == MPI_CART {
        PMPI_Cartdim_get(c, &mut n);
        n *= 2;
    } else if topo == MPI_GRAPH {
        let mut rank = 0;
        PMPI_Comm_rank(c, &mut rank);
        PMPI_Graph_neighbors_count(c, rank, &mut n);
    } else if topo == MPI_DIST_GRAPH {
        let (mut indeg, mut outdeg, mut weighted) = (0, 0, 0);
        PMPI_Dist_graph_neighbors_count(c, &mut indeg, &mut outdeg, &mut weighted);
        n = if send { outdeg } else { indeg };
    }
    f_len(n)
}

// ---------------------------------------------------------------------------------------
// Attributes: Fortran's value is stored as the C `void *`; a predefined attribute's C value
// points to it (MPI_WIN_BASE's is the base itself).
// ---------------------------------------------------------------------------------------

const KEYVALS: PredefinedKeyvals = PredefinedKeyvals {
    all: [
        MPI_TAG_UB,
        MPI_HOST,
        MPI_IO,
        MPI_WTIME_IS_GLOBAL,
        MPI_UNIVERSE_SIZE,
        MPI_LASTUSEDCODE,
        MPI_APPNUM,
        MPI_WIN_BASE,
        MPI_WIN_SIZE,
        MPI_WIN_DISP_UNIT,
        MPI_WIN_CREATE_FLAVOR,
        MPI_WIN_MODEL,
    ],
    win_base: MPI_WIN_BASE,
    win_size: MPI_WIN_SIZE,
};

/// The Fortran value of attribute `keyval` whose C value is `v` (common.rs's rule).
///
/// # Safety
/// For a predefined keyval, `v` points to the value as MPI defines it for C.
pub unsafe fn f_attr_value(obj: AttrObj, keyval: c_int, v: *mut c_void) -> MPI_Aint {
    attr_value(&KEYVALS, obj, keyval, v)
}

// ---------------------------------------------------------------------------------------
// Trampolines for callbacks without extra state. The C library calls a user reduction or an
// error handler with C handles and nothing that says which Fortran procedure it stands
// for, so each distinct procedure gets a trampoline of its own from a fixed pool (the same
// procedure bound twice shares one; an operation or handler freed keeps its slot, as the
// procedure may still be called for it). 64 distinct procedures of each kind per process.
// ---------------------------------------------------------------------------------------

const POOL: usize = 64;

/// A pool of trampolines `tramps[i]`, slot `i` bound to the Fortran procedure whose
/// address `slots[i]` holds (0: free).
pub struct Pool<T: Copy + 'static> {
    slots: [AtomicUsize; POOL],
    tramps: &'static [T; POOL],
}

impl<T: Copy + 'static> Pool<T> {
    const fn new(tramps: &'static [T; POOL]) -> Self {
        Pool {
            slots: [const { AtomicUsize::new(0) }; POOL],
            tramps,
        }
    }

    /// The trampoline bound to procedure `f` (binding a free slot if needed); None for a
    /// NULL procedure or a full pool.
    pub fn bind<F: Copy>(&self, f: Option<F>) -> Option<T> {
        let addr = f.map(|f| {
            // SAFETY: F is a function pointer type (the Fortran procedure), read as its
            // address only.
            unsafe { std::mem::transmute_copy::<F, usize>(&f) }
        })?;
        for (i, s) in self.slots.iter().enumerate() {
            match s.compare_exchange(0, addr, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Some(self.tramps[i]),
                Err(a) if a == addr => return Some(self.tramps[i]),
                Err(_) => {}
            }
        }
        None
    }

    /// The Fortran procedure slot `i` is bound to.
    fn procedure(&self, i: usize) -> usize {
        self.slots[i].load(Ordering::Acquire)
    }
}

/// `SUBROUTINE USER_FUNCTION(INVEC, INOUTVEC, LEN, DATATYPE)`.
pub type FUserFn =
    Option<unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut MPI_Fint)>;
/// `SUBROUTINE HANDLER_FUNCTION(OBJ, ERROR_CODE)` (and gfortran's hidden nothing).
pub type FErrhandlerFn = Option<unsafe extern "C" fn(*mut MPI_Fint, *mut c_int)>;
type RawUserFn = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut MPI_Fint);
type RawErrhandlerFn = unsafe extern "C" fn(*mut MPI_Fint, *mut c_int);

/// The trampoline of slot `I` of OP_POOL.
///
/// # Safety
/// Called by MPI as an MPI_User_function: valid vectors, length and datatype.
unsafe extern "C" fn op_trampoline<const I: usize>(
    invec: *mut c_void,
    inoutvec: *mut c_void,
    len: *mut c_int,
    datatype: *mut MPI_Datatype,
) {
    // SAFETY: slot I was bound to a Fortran USER_FUNCTION before MPI got this trampoline.
    let f: RawUserFn = std::mem::transmute::<usize, RawUserFn>(OP_POOL.procedure(I));
    let mut t = PMPI_Type_toint(*datatype);
    f(invec, inoutvec, len, &mut t);
}

macro_rules! errhandler_trampolines {
    ($($name:ident $pool:ident: $h:ty, $toint:path;)*) => {$(
        /// The trampoline of one slot of its pool: the handle as Fortran's INTEGER.
        ///
        /// # Safety
        /// Called by MPI as an error handler: valid handle and code pointers.
        unsafe extern "C" fn $name<const I: usize>(h: *mut $h, code: *mut c_int) {
            // SAFETY: slot I was bound to a Fortran handler before MPI got this trampoline.
            let f: RawErrhandlerFn = std::mem::transmute::<usize, RawErrhandlerFn>($pool.procedure(I));
            let mut fh = $toint(*h);
            f(&mut fh, code);
        }
    )*};
}

errhandler_trampolines! {
    comm_errhandler_trampoline COMM_ERRHANDLER_POOL: MPI_Comm, PMPI_Comm_toint;
    win_errhandler_trampoline WIN_ERRHANDLER_POOL: MPI_Win, PMPI_Win_toint;
    file_errhandler_trampoline FILE_ERRHANDLER_POOL: MPI_File, PMPI_File_toint;
    session_errhandler_trampoline SESSION_ERRHANDLER_POOL: MPI_Session, PMPI_Session_toint;
}

/// `[f::<0>, f::<1>, ...]` wrapped in Some, for a pool of POOL trampolines.
macro_rules! tramps {
    ($f:ident) => {
        tramps!(@ $f; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
            28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54
            55 56 57 58 59 60 61 62 63)
    };
    (@ $f:ident; $($i:literal)*) => {
        [$(Some($f::<$i> as _)),*]
    };
}

pub static OP_POOL: Pool<MPI_User_function> = Pool::new(&OP_TRAMPS);
static OP_TRAMPS: [MPI_User_function; POOL] = tramps!(op_trampoline);
pub static COMM_ERRHANDLER_POOL: Pool<MPI_Comm_errhandler_function> =
    Pool::new(&COMM_ERRHANDLER_TRAMPS);
static COMM_ERRHANDLER_TRAMPS: [MPI_Comm_errhandler_function; POOL] =
    tramps!(comm_errhandler_trampoline);
pub static WIN_ERRHANDLER_POOL: Pool<MPI_Win_errhandler_function> =
    Pool::new(&WIN_ERRHANDLER_TRAMPS);
static WIN_ERRHANDLER_TRAMPS: [MPI_Win_errhandler_function; POOL] =
    tramps!(win_errhandler_trampoline);
pub static FILE_ERRHANDLER_POOL: Pool<MPI_File_errhandler_function> =
    Pool::new(&FILE_ERRHANDLER_TRAMPS);
static FILE_ERRHANDLER_TRAMPS: [MPI_File_errhandler_function; POOL] =
    tramps!(file_errhandler_trampoline);
pub static SESSION_ERRHANDLER_POOL: Pool<MPI_Session_errhandler_function> =
    Pool::new(&SESSION_ERRHANDLER_TRAMPS);
static SESSION_ERRHANDLER_TRAMPS: [MPI_Session_errhandler_function; POOL] =
    tramps!(session_errhandler_trampoline);

// ---------------------------------------------------------------------------------------
// MPI_REGISTER_DATAREP: the C library calls the conversion procedures with the extra
// state, which points to an FDatarep holding the Fortran procedures and Fortran's extra
// state. A representation is never unregistered, so its state lives as long as the process.
// ---------------------------------------------------------------------------------------

/// `SUBROUTINE DATAREP_CONVERSION_FUNCTION(USERBUF, DATATYPE, COUNT, FILEBUF, POSITION,
/// EXTRA_STATE, IERROR)`.
pub type FConversionFn = Option<
    unsafe extern "C" fn(
        *mut c_void,
        *mut MPI_Fint,
        *mut MPI_Fint,
        *mut c_void,
        *mut MPI_Offset,
        *mut MPI_Aint,
        *mut MPI_Fint,
    ),
>;
/// `SUBROUTINE DATAREP_EXTENT_FUNCTION(DATATYPE, EXTENT, EXTRA_STATE, IERROR)`.
pub type FExtentFn =
    Option<unsafe extern "C" fn(*mut MPI_Fint, *mut MPI_Aint, *mut MPI_Aint, *mut MPI_Fint)>;

pub struct FDatarep {
    read: FConversionFn,
    write: FConversionFn,
    extent: FExtentFn,
    extra: MPI_Aint,
}

impl FDatarep {
    pub fn new(
        read: FConversionFn,
        write: FConversionFn,
        extent: FExtentFn,
        extra: MPI_Aint,
    ) -> *mut FDatarep {
        let null = |f: FConversionFn| f.filter(|&f| !is_conversion_fn_null(f as usize));
        Box::into_raw(Box::new(FDatarep {
            read: null(read),
            write: null(write),
            extent,
            extra,
        }))
    }

    /// # Safety
    /// `p` came from `new` and the C library did not keep it.
    pub unsafe fn free(p: *mut FDatarep) {
        drop(Box::from_raw(p));
    }

    /// The C read conversion: NULL for MPI_CONVERSION_FN_NULL.
    ///
    /// # Safety
    /// `p` came from `new`.
    pub unsafe fn read_trampoline(p: *mut FDatarep) -> MPI_Datarep_conversion_function {
        (*p).read.map(|_| f_datarep_trampoline::<false> as _)
    }

    /// The C write conversion: NULL for MPI_CONVERSION_FN_NULL.
    ///
    /// # Safety
    /// `p` came from `new`.
    pub unsafe fn write_trampoline(p: *mut FDatarep) -> MPI_Datarep_conversion_function {
        (*p).write.map(|_| f_datarep_trampoline::<true> as _)
    }
}

/// Whether `f` is MPI_CONVERSION_FN_NULL (ours, or the program's binding of the name).
fn is_conversion_fn_null(f: usize) -> bool {
    [
        mpi_conversion_fn_null_ as *const () as usize,
        pmpi_conversion_fn_null_ as *const () as usize,
        bound_address(c"mpi_conversion_fn_null_", 0),
        bound_address(c"pmpi_conversion_fn_null_", 0),
    ]
    .contains(&f)
}

/// Calls conversion procedure `f` with Fortran's conventions.
///
/// # Safety
/// MPI's arguments of a conversion function; `st` is an FDatarep.
unsafe fn convert(
    f: FConversionFn,
    st: &FDatarep,
    userbuf: *mut c_void,
    datatype: MPI_Datatype,
    count: c_int,
    filebuf: *mut c_void,
    position: MPI_Offset,
) -> c_int {
    let Some(f) = f else {
        return MPI_SUCCESS;
    };
    let (mut t, mut n, mut pos, mut extra, mut ierr) = (
        PMPI_Type_toint(datatype),
        count,
        position,
        st.extra,
        MPI_SUCCESS,
    );
    f(
        userbuf, &mut t, &mut n, filebuf, &mut pos, &mut extra, &mut ierr,
    );
    ierr
}

/// The read (`WRITE` false) or write conversion of every representation registered from
/// Fortran.
///
/// # Safety
/// Called by MPI as a conversion function with an FDatarep as extra state.
unsafe extern "C" fn f_datarep_trampoline<const WRITE: bool>(
    userbuf: *mut c_void,
    datatype: MPI_Datatype,
    count: c_int,
    filebuf: *mut c_void,
    position: MPI_Offset,
    extra_state: *mut c_void,
) -> c_int {
    let st = &*(extra_state as *const FDatarep);
    let f = if WRITE { st.write } else { st.read };
    convert(f, st, userbuf, datatype, count, filebuf, position)
}

/// # Safety
/// Called by MPI as a representation's extent function with an FDatarep as extra state.
pub unsafe extern "C" fn f_datarep_extent_trampoline(
    datatype: MPI_Datatype,
    extent: *mut MPI_Aint,
    extra_state: *mut c_void,
) -> c_int {
    let st = &*(extra_state as *const FDatarep);
    let Some(f) = st.extent else {
        return MPI_SUCCESS;
    };
    let (mut t, mut extra, mut ierr) = (PMPI_Type_toint(datatype), st.extra, MPI_SUCCESS);
    f(&mut t, extent, &mut extra, &mut ierr);
    ierr
}

// ---------------------------------------------------------------------------------------
// Procedures of Fortran's own.
// ---------------------------------------------------------------------------------------

/// A C descriptor's head (ISO_Fortran_binding.h: base address, then element length).
#[repr(C)]
pub struct CfiHead {
    base_addr: *mut c_void,
    elem_len: usize,
}

macro_rules! sizeof_f08ts {
    ($($name:ident)*) => {$(
        /// `MPI_SIZEOF(X, SIZE, IERROR)` (the `mpi` module's interface): the size of one
        /// element of X.
        ///
        /// # Safety
        /// `x` is the descriptor gfortran passes for an assumed-rank TYPE(*) argument.
        #[no_mangle]
        pub unsafe extern "C" fn $name(x: *const CfiHead, size: *mut MPI_Fint, ierror: *mut MPI_Fint) {
            *size = (*x).elem_len as MPI_Fint;
            set_ierror(ierror, MPI_SUCCESS);
        }
    )*};
}

sizeof_f08ts! { MPI_Sizeof_f08ts PMPI_Sizeof_f08ts }

/// `MPI_F_SYNC_REG(BUF)`: does nothing; that the compiler must assume this external call
/// reads and writes `buf` is its purpose.
#[no_mangle]
pub extern "C" fn mpi_f_sync_reg_(_buf: *mut c_void) {}

/// `PMPI_F_SYNC_REG(BUF)`.
#[no_mangle]
pub extern "C" fn pmpi_f_sync_reg_(_buf: *mut c_void) {}
