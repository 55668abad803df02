//! What the generated Fortran bindings share (see `mod.rs`).
#![allow(non_upper_case_globals)]

use super::f08_support as f08;
pub use crate::abi::attr::from_fortran;
use crate::abi::consts::*;
use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------
// COMMON blocks. A Fortran program names MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ...
// as variables in these blocks (mpif.h), and the library recognises their addresses. Names,
// members, sizes: MPICH's (its mpif.h and libmpifort), so programs built against MPICH's
// Fortran library find them here. The program usually holds its own copy of each block (a
// Fortran COMMON is defined wherever it is used, and the executable's copy wins), so the
// addresses compared are looked up at run time (`addrs`).
// ---------------------------------------------------------------------------------------

/// `COMMON /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE(MPI_STATUS_SIZE)`.
#[repr(C)]
pub struct MpiPriv1 {
    pub bottom: MPI_Fint,
    pub in_place: MPI_Fint,
    pub status_ignore: [MPI_Fint; 5],
}

/// `COMMON /MPIPRIV2/ MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1), MPI_ERRCODES_IGNORE(1)`.
#[repr(C)]
pub struct MpiPriv2 {
    pub statuses_ignore: [MPI_Fint; 5],
    pub errcodes_ignore: [MPI_Fint; 1],
}

/// `COMMON /MPIPRIVC/ MPI_ARGVS_NULL(1,1), MPI_ARGV_NULL(1)` (CHARACTER*1).
#[repr(C)]
pub struct MpiPrivC {
    pub argvs_null: [u8; 1],
    pub argv_null: [u8; 1],
}

#[no_mangle]
pub static mut mpipriv1_: MpiPriv1 = MpiPriv1 {
    bottom: 0,
    in_place: 0,
    status_ignore: [0; 5],
};
#[no_mangle]
pub static mut mpipriv2_: MpiPriv2 = MpiPriv2 {
    statuses_ignore: [0; 5],
    errcodes_ignore: [0; 1],
};
#[no_mangle]
pub static mut mpiprivc_: MpiPrivC = MpiPrivC {
    argvs_null: [0; 1],
    argv_null: [0; 1],
};
/// `COMMON /MPIFCMB5/ MPI_UNWEIGHTED`.
#[no_mangle]
pub static mut mpifcmb5_: MPI_Fint = 0;
/// `COMMON /MPIFCMB9/ MPI_WEIGHTS_EMPTY`.
#[no_mangle]
pub static mut mpifcmb9_: MPI_Fint = 0;

/// The addresses of the special Fortran variables in this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FortranAddrs {
    pub bottom: usize,
    pub in_place: usize,
    pub status_ignore: usize,
    pub statuses_ignore: usize,
    pub errcodes_ignore: usize,
    pub unweighted: usize,
    pub weights_empty: usize,
    /// The same, `use mpi_f08`'s (f08_support.rs).
    pub f08: F08Addrs,
}

/// The addresses of mpi_f08's special variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct F08Addrs {
    pub bottom: usize,
    pub in_place: usize,
    pub status_ignore: usize,
    pub statuses_ignore: usize,
    pub errcodes_ignore: usize,
    pub unweighted: usize,
    pub weights_empty: usize,
}

static ADDRS: OnceLock<FortranAddrs> = OnceLock::new();

/// The address the dynamic linker binds `name` to (the program's copy of a COMMON block
/// if it has one, else ours: the global scope searches the executable first), or `own`.
fn bound_address(name: &std::ffi::CStr, own: usize) -> usize {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads the loader's
    // tables; the result is used as a number, never dereferenced here.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    if p.is_null() {
        own
    } else {
        p as usize
    }
}

/// The addresses that stand for MPI_BOTTOM, MPI_IN_PLACE, ... (looked up once).
pub fn addrs() -> &'static FortranAddrs {
    ADDRS.get_or_init(|| {
        let p1 = bound_address(c"mpipriv1_", &raw const mpipriv1_ as usize);
        let p2 = bound_address(c"mpipriv2_", &raw const mpipriv2_ as usize);
        FortranAddrs {
            bottom: p1 + std::mem::offset_of!(MpiPriv1, bottom),
            in_place: p1 + std::mem::offset_of!(MpiPriv1, in_place),
            status_ignore: p1 + std::mem::offset_of!(MpiPriv1, status_ignore),
            statuses_ignore: p2 + std::mem::offset_of!(MpiPriv2, statuses_ignore),
            errcodes_ignore: p2 + std::mem::offset_of!(MpiPriv2, errcodes_ignore),
            unweighted: bound_address(c"mpifcmb5_", &raw const mpifcmb5_ as usize),
            weights_empty: bound_address(c"mpifcmb9_", &raw const mpifcmb9_ as usize),
            f08: F08Addrs {
                bottom: bound_address(
                    c"railmpi_f08_bottom",
                    &raw const f08::railmpi_f08_bottom as usize,
                ),
                in_place: bound_address(
                    c"railmpi_f08_in_place",
                    &raw const f08::railmpi_f08_in_place as usize,
                ),
                status_ignore: bound_address(
                    c"railmpi_f08_status_ignore",
                    &raw const f08::railmpi_f08_status_ignore as usize,
                ),
                statuses_ignore: bound_address(
                    c"railmpi_f08_statuses_ignore",
                    &raw const f08::railmpi_f08_statuses_ignore as usize,
                ),
                errcodes_ignore: bound_address(
                    c"railmpi_f08_errcodes_ignore",
                    &raw const f08::railmpi_f08_errcodes_ignore as usize,
                ),
                unweighted: bound_address(
                    c"railmpi_f08_unweighted",
                    &raw const f08::railmpi_f08_unweighted as usize,
                ),
                weights_empty: bound_address(
                    c"railmpi_f08_weights_empty",
                    &raw const f08::railmpi_f08_weights_empty as usize,
                ),
            },
        }
    })
}

// ---------------------------------------------------------------------------------------
// Argument translation.
// ---------------------------------------------------------------------------------------

/// Stores the C return code in `ierror` (always present in mpif.h and `use mpi` calls).
///
/// # Safety
/// `ierror` is NULL or valid for writing.
#[inline]
pub unsafe fn set_ierror(ierror: *mut MPI_Fint, rc: c_int) {
    if !ierror.is_null() {
        *ierror = rc;
    }
}

/// A choice buffer: Fortran's MPI_BOTTOM and MPI_IN_PLACE become C's.
#[inline]
pub fn f_buf(p: *mut c_void) -> *mut c_void {
    let a = addrs();
    let u = p as usize;
    if u == a.bottom || u == a.f08.bottom {
        MPI_BOTTOM
    } else if u == a.in_place || u == a.f08.in_place {
        MPI_IN_PLACE
    } else {
        p
    }
}

/// Whether `p` is one of the status-ignoring variables (mpif.h's and mpi_f08's
/// MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE: either is accepted where the other belongs,
/// as MPICH does).
fn ignores_status(p: *mut MPI_Status) -> bool {
    let a = addrs();
    [
        a.status_ignore,
        a.statuses_ignore,
        a.f08.status_ignore,
        a.f08.statuses_ignore,
    ]
    .contains(&(p as usize))
}

/// A status argument: Fortran's MPI_STATUS_IGNORE becomes C's.
#[inline]
pub fn f_status(p: *mut MPI_Status) -> *mut MPI_Status {
    if ignores_status(p) {
        MPI_STATUS_IGNORE
    } else {
        p
    }
}

/// A status array: Fortran's MPI_STATUSES_IGNORE becomes C's.
#[inline]
pub fn f_statuses(p: *mut MPI_Status) -> *mut MPI_Status {
    if ignores_status(p) {
        MPI_STATUSES_IGNORE
    } else {
        p
    }
}

/// A weights array: Fortran's MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY become C's.
#[inline]
pub fn f_weights(p: *mut c_int) -> *mut c_int {
    let a = addrs();
    let u = p as usize;
    if u == a.unweighted || u == a.f08.unweighted {
        MPI_UNWEIGHTED.0
    } else if u == a.weights_empty || u == a.f08.weights_empty {
        MPI_WEIGHTS_EMPTY.0
    } else {
        p
    }
}

/// An error-code array: Fortran's MPI_ERRCODES_IGNORE becomes C's.
#[inline]
pub fn f_errcodes(p: *mut c_int) -> *mut c_int {
    let a = addrs();
    if p as usize == a.errcodes_ignore || p as usize == a.f08.errcodes_ignore {
        MPI_ERRCODES_IGNORE
    } else {
        p
    }
}

/// Indices out of MPI_Waitsome / MPI_Testsome are 1-based in Fortran.
///
/// # Safety
/// After a successful call, `outcount` and `indices[..outcount]` are valid.
pub unsafe fn f_indices_to_fortran(rc: c_int, outcount: *mut c_int, indices: *mut c_int) {
    if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && !outcount.is_null() {
        let n = *outcount;
        if n > 0 && n != MPI_UNDEFINED {
            for i in 0..n as usize {
                *indices.add(i) += 1;
            }
        }
    }
}

// MPI-1 calls with default-INTEGER addresses (MPI_ADDRESS, MPI_TYPE_EXTENT, MPI_TYPE_HVECTOR,
// MPI_TYPE_HINDEXED, MPI_TYPE_STRUCT, ...).

extern "C" {
    fn PMPI_Comm_call_errhandler(comm: MPI_Comm, errorcode: c_int) -> c_int;
}

/// An INTEGER array of `n` addresses as MPI_Aints (empty for a negative `n`: the C call
/// reports the count).
///
/// # Safety
/// `p` is valid for `n` INTEGERs when `n > 0`.
pub unsafe fn f_aint_array(p: *const c_int, n: c_int) -> Vec<MPI_Aint> {
    if p.is_null() || n <= 0 {
        return Vec::new();
    }
    std::slice::from_raw_parts(p, n as usize)
        .iter()
        .map(|&v| v as MPI_Aint)
        .collect()
}

/// Stores an address-sized result in a default INTEGER. One that does not fit is
/// MPI_ERR_ARG, raised on MPI_COMM_WORLD's error handler (as MPICH does).
///
/// # Safety
/// `dst` is valid for writing.
pub unsafe fn f_aint_out(rc: c_int, v: MPI_Aint, dst: *mut c_int) -> c_int {
    if rc != MPI_SUCCESS {
        return rc;
    }
    match c_int::try_from(v) {
        Ok(i) => {
            *dst = i;
            MPI_SUCCESS
        }
        Err(_) => {
            PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG);
            MPI_ERR_ARG
        }
    }
}

// ---------------------------------------------------------------------------------------
// CHARACTER arguments: (address, hidden length), blank-padded, no terminating NUL.
// ---------------------------------------------------------------------------------------

/// The bytes of a Fortran CHARACTER argument.
///
/// # Safety
/// `p` is NULL or valid for `len` bytes.
unsafe fn f_bytes<'a>(p: *const c_char, len: usize) -> &'a [u8] {
    if p.is_null() || len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p as *const u8, len)
    }
}

/// An input string: trailing blanks dropped (they are padding), cut at a NUL if any.
///
/// # Safety
/// `p` is NULL or valid for `len` bytes.
pub unsafe fn f_str_in(p: *const c_char, len: usize) -> CString {
    let s = f_bytes(p, len);
    let s = &s[..s.iter().position(|&b| b == 0).unwrap_or(s.len())];
    let end = s.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    CString::new(&s[..end]).expect("no NUL left")
}

/// An info key or value: leading and trailing blanks dropped (MPI's rule for MPI_INFO_*).
///
/// # Safety
/// `p` is NULL or valid for `len` bytes.
pub unsafe fn f_str_in_info(p: *const c_char, len: usize) -> CString {
    let s = f_str_in(p, len);
    let b = s.as_bytes();
    let start = b.iter().position(|&c| c != b' ').unwrap_or(b.len());
    CString::new(&b[start..]).expect("no NUL left")
}

/// A buffer for a C output string, copied into a Fortran CHARACTER after the call.
pub struct FStrOut {
    buf: Vec<u8>,
}

/// Room for the longest string a C call writes (MPI_MAX_LIBRARY_VERSION_STRING, with its
/// NUL) or for the Fortran buffer's length plus a NUL, whichever is more: calls that take
/// a length (MPI_Info_get's valuelen) are given at most the Fortran length.
const STR_OUT_MIN: usize = MPI_MAX_LIBRARY_VERSION_STRING as usize + 1;

impl FStrOut {
    pub fn new(flen: usize) -> Self {
        FStrOut {
            buf: vec![0; flen.saturating_add(1).max(STR_OUT_MIN)],
        }
    }

    pub fn as_mut_ptr(&mut self) -> *mut c_char {
        self.buf.as_mut_ptr() as *mut c_char
    }

    /// Copies the C string into the Fortran buffer, truncated or blank-padded to `flen`.
    ///
    /// # Safety
    /// `dst` is NULL or valid for writing `flen` bytes.
    pub unsafe fn copy_to(&self, dst: *mut c_char, flen: usize) {
        if dst.is_null() {
            return;
        }
        let n = self
            .buf
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.buf.len());
        let out = std::slice::from_raw_parts_mut(dst as *mut u8, flen);
        let k = n.min(flen);
        out[..k].copy_from_slice(&self.buf[..k]);
        out[k..].fill(b' ');
    }
}

// ---------------------------------------------------------------------------------------
// Attributes. Fortran attribute values are INTEGER(KIND=MPI_ADDRESS_KIND) (INTEGER for the
// MPI-1 calls): the value itself is stored as the C `void *`. Predefined attributes are
// pointers to the value in C; Fortran gets the value. Fortran's predefined keyvals are C's
// plus one (MPICH's values), mapped back by `f_keyval`.
// ---------------------------------------------------------------------------------------

/// The kind of object an attribute hangs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrObj {
    Comm,
    Type,
    Win,
}

const PREDEFINED_KEYVALS: [c_int; 12] = [
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
];

/// The C keyval for a Fortran one (predefined ones differ by one).
pub fn f_keyval(k: c_int) -> c_int {
    if PREDEFINED_KEYVALS.iter().any(|&c| c.wrapping_add(1) == k) {
        k - 1
    } else {
        k
    }
}

/// The Fortran value of attribute `keyval` (a C keyval) whose C value is `v`.
///
/// # Safety
/// For a predefined keyval, `v` points to the value as MPI defines it for C.
pub unsafe fn f_attr_value(obj: AttrObj, keyval: c_int, v: *mut c_void) -> MPI_Aint {
    let predefined = PREDEFINED_KEYVALS.contains(&keyval);
    if !predefined || v.is_null() {
        return v as MPI_Aint;
    }
    match (obj, keyval) {
        // The window's base address itself.
        (AttrObj::Win, MPI_WIN_BASE) => v as MPI_Aint,
        (AttrObj::Win, MPI_WIN_SIZE) => *(v as *const MPI_Aint),
        _ => *(v as *const c_int) as MPI_Aint,
    }
}

// ---------------------------------------------------------------------------------------
// Keyvals created from Fortran: the C library calls these trampolines, which call the
// Fortran copy and delete procedures with Fortran's conventions (every argument by
// reference, INTEGER(KIND=MPI_ADDRESS_KIND) values — INTEGER for MPI_KEYVAL_CREATE — a
// LOGICAL flag and an IERROR argument).
// ---------------------------------------------------------------------------------------

/// `SUBROUTINE COPY_FN(OLDOBJ, KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT,
/// FLAG, IERROR)`; the three values are MPI_ADDRESS_KIND or default INTEGERs.
pub type FCopyFn = Option<
    unsafe extern "C" fn(
        *mut MPI_Fint,
        *mut MPI_Fint,
        *mut c_void,
        *mut c_void,
        *mut c_void,
        *mut MPI_Fint,
        *mut MPI_Fint,
    ),
>;
/// `SUBROUTINE DELETE_FN(OBJ, KEYVAL, ATTRIBUTE_VAL, EXTRA_STATE, IERROR)`.
pub type FDeleteFn = Option<
    unsafe extern "C" fn(*mut MPI_Fint, *mut MPI_Fint, *mut c_void, *mut c_void, *mut MPI_Fint),
>;

/// What a Fortran keyval's C extra state points to. Kept for the life of the process:
/// attributes may outlive the keyval's MPI_*_free_keyval.
pub struct FKeyval {
    copy: FCopyFn,
    delete: FDeleteFn,
    extra: MPI_Aint,
    /// Values are INTEGER(KIND=MPI_ADDRESS_KIND) (MPI-2 calls), else default INTEGER.
    aint: bool,
}

impl FKeyval {
    pub fn new(copy: FCopyFn, delete: FDeleteFn, extra: MPI_Aint, aint: bool) -> *mut FKeyval {
        Box::into_raw(Box::new(FKeyval {
            copy,
            delete,
            extra,
            aint,
        }))
    }

    /// # Safety
    /// `p` came from `new` and the C library did not keep it.
    pub unsafe fn free(p: *mut FKeyval) {
        drop(Box::from_raw(p));
    }
}

/// The C copy callback of every keyval created from Fortran.
///
/// # Safety
/// `extra_state` is an `FKeyval` from `FKeyval::new`; `attribute_val_out` is a `void **`.
pub unsafe extern "C" fn f_copy_trampoline(
    oldobj: c_int,
    keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let st = &*(extra_state as *const FKeyval);
    let Some(copy) = st.copy else {
        *flag = 0;
        return MPI_SUCCESS;
    };
    let (mut obj, mut kv, mut fflag, mut ierr) = (oldobj, keyval, 0, MPI_SUCCESS);
    let out = if st.aint {
        let (mut extra, mut vin, mut vout) = (st.extra, attribute_val_in as MPI_Aint, 0);
        copy(
            &mut obj,
            &mut kv,
            &raw mut extra as *mut c_void,
            &raw mut vin as *mut c_void,
            &raw mut vout as *mut c_void,
            &mut fflag,
            &mut ierr,
        );
        vout
    } else {
        let (mut extra, mut vin, mut vout) = (
            st.extra as c_int,
            attribute_val_in as MPI_Aint as c_int,
            0 as c_int,
        );
        copy(
            &mut obj,
            &mut kv,
            &raw mut extra as *mut c_void,
            &raw mut vin as *mut c_void,
            &raw mut vout as *mut c_void,
            &mut fflag,
            &mut ierr,
        );
        vout as MPI_Aint
    };
    *flag = (fflag != 0) as c_int;
    if fflag != 0 {
        *(attribute_val_out as *mut *mut c_void) = out as *mut c_void;
    }
    ierr
}

/// The C delete callback of every keyval created from Fortran.
///
/// # Safety
/// `extra_state` is an `FKeyval` from `FKeyval::new`.
pub unsafe extern "C" fn f_delete_trampoline(
    obj: c_int,
    keyval: c_int,
    attribute_val: *mut c_void,
    extra_state: *mut c_void,
) -> c_int {
    let st = &*(extra_state as *const FKeyval);
    let Some(delete) = st.delete else {
        return MPI_SUCCESS;
    };
    let (mut obj, mut kv, mut ierr) = (obj, keyval, MPI_SUCCESS);
    if st.aint {
        let (mut val, mut extra) = (attribute_val as MPI_Aint, st.extra);
        delete(
            &mut obj,
            &mut kv,
            &raw mut val as *mut c_void,
            &raw mut extra as *mut c_void,
            &mut ierr,
        );
    } else {
        let (mut val, mut extra) = (attribute_val as MPI_Aint as c_int, st.extra as c_int);
        delete(
            &mut obj,
            &mut kv,
            &raw mut val as *mut c_void,
            &raw mut extra as *mut c_void,
            &mut ierr,
        );
    }
    ierr
}

// The predefined copy and delete procedures of mpif.h (EXTERNAL MPI_COMM_NULL_COPY_FN, ...),
// with Fortran's conventions. `aint` variants have MPI_ADDRESS_KIND values (MPI-2 names),
// the others default INTEGERs (MPI-1 names).

/// Writes `.TRUE.`/`.FALSE.` and MPI_SUCCESS.
///
/// # Safety
/// Both pointers are valid.
unsafe fn copy_result(flag: *mut MPI_Fint, ierror: *mut MPI_Fint, copied: bool) {
    *flag = copied as MPI_Fint;
    set_ierror(ierror, MPI_SUCCESS);
}

macro_rules! f_predefined_attr_fns {
    ($($null_copy:ident $dup:ident $null_delete:ident: $t:ty;)*) => {$(
        /// Predefined Fortran copy procedure: the attribute is not copied.
        ///
        /// # Safety
        /// Fortran's arguments, all valid.
        #[no_mangle]
        pub unsafe extern "C" fn $null_copy(
            _oldobj: *mut MPI_Fint,
            _keyval: *mut MPI_Fint,
            _extra_state: *mut $t,
            _attribute_val_in: *mut $t,
            _attribute_val_out: *mut $t,
            flag: *mut MPI_Fint,
            ierror: *mut MPI_Fint,
        ) {
            copy_result(flag, ierror, false);
        }

        /// Predefined Fortran copy procedure: the value is copied.
        ///
        /// # Safety
        /// Fortran's arguments, all valid.
        #[no_mangle]
        pub unsafe extern "C" fn $dup(
            _oldobj: *mut MPI_Fint,
            _keyval: *mut MPI_Fint,
            _extra_state: *mut $t,
            attribute_val_in: *mut $t,
            attribute_val_out: *mut $t,
            flag: *mut MPI_Fint,
            ierror: *mut MPI_Fint,
        ) {
            *attribute_val_out = *attribute_val_in;
            copy_result(flag, ierror, true);
        }

        /// Predefined Fortran delete procedure: nothing to do.
        ///
        /// # Safety
        /// Fortran's arguments, all valid.
        #[no_mangle]
        pub unsafe extern "C" fn $null_delete(
            _obj: *mut MPI_Fint,
            _keyval: *mut MPI_Fint,
            _attribute_val: *mut $t,
            _extra_state: *mut $t,
            ierror: *mut MPI_Fint,
        ) {
            set_ierror(ierror, MPI_SUCCESS);
        }
    )*};
}

f_predefined_attr_fns! {
    mpi_null_copy_fn_ mpi_dup_fn_ mpi_null_delete_fn_: MPI_Fint;
    pmpi_null_copy_fn_ pmpi_dup_fn_ pmpi_null_delete_fn_: MPI_Fint;
    mpi_comm_null_copy_fn_ mpi_comm_dup_fn_ mpi_comm_null_delete_fn_: MPI_Aint;
    pmpi_comm_null_copy_fn_ pmpi_comm_dup_fn_ pmpi_comm_null_delete_fn_: MPI_Aint;
    mpi_type_null_copy_fn_ mpi_type_dup_fn_ mpi_type_null_delete_fn_: MPI_Aint;
    pmpi_type_null_copy_fn_ pmpi_type_dup_fn_ pmpi_type_null_delete_fn_: MPI_Aint;
    mpi_win_null_copy_fn_ mpi_win_dup_fn_ mpi_win_null_delete_fn_: MPI_Aint;
    pmpi_win_null_copy_fn_ pmpi_win_dup_fn_ pmpi_win_null_delete_fn_: MPI_Aint;
}

// ---------------------------------------------------------------------------------------
// Generalized requests (MPI_GREQUEST_START). The Fortran procedures are subroutines with
// EXTRA_STATE an INTEGER(KIND=MPI_ADDRESS_KIND) by reference, a LOGICAL COMPLETE and IERROR
// last, where C's are functions returning the code: C trampolines call them.
// ---------------------------------------------------------------------------------------

/// `SUBROUTINE GREQUEST_QUERY_FUNCTION(EXTRA_STATE, STATUS, IERROR)`.
pub type FGreqQueryFn = Option<unsafe extern "C" fn(*mut MPI_Aint, *mut MPI_Fint, *mut MPI_Fint)>;
/// `SUBROUTINE GREQUEST_FREE_FUNCTION(EXTRA_STATE, IERROR)`.
pub type FGreqFreeFn = Option<unsafe extern "C" fn(*mut MPI_Aint, *mut MPI_Fint)>;
/// `SUBROUTINE GREQUEST_CANCEL_FUNCTION(EXTRA_STATE, COMPLETE, IERROR)`.
pub type FGreqCancelFn = Option<unsafe extern "C" fn(*mut MPI_Aint, *mut MPI_Fint, *mut MPI_Fint)>;

/// What a generalized request started from Fortran has as its C extra state; freed by
/// `f_greq_free_trampoline` (the C library calls free_fn exactly once). `extra` is the
/// address of the caller's EXTRA_STATE variable, as MPICH passes it: the procedures see and
/// update the caller's variable, which must outlive the request.
pub struct FGrequest {
    query: FGreqQueryFn,
    free: FGreqFreeFn,
    cancel: FGreqCancelFn,
    extra: *mut MPI_Aint,
}

impl FGrequest {
    pub fn new(
        query: FGreqQueryFn,
        free: FGreqFreeFn,
        cancel: FGreqCancelFn,
        extra: *mut MPI_Aint,
    ) -> *mut FGrequest {
        Box::into_raw(Box::new(FGrequest {
            query,
            free,
            cancel,
            extra,
        }))
    }

    /// # Safety
    /// `p` came from `new` and the C library did not keep it.
    pub unsafe fn free(p: *mut FGrequest) {
        drop(Box::from_raw(p));
    }
}

/// query_fn of every generalized request started from Fortran: the status is passed as the
/// INTEGER(MPI_STATUS_SIZE) array it is laid out as.
///
/// # Safety
/// `extra_state` is an `FGrequest` from `FGrequest::new`; `status` is valid.
pub unsafe extern "C" fn f_greq_query_trampoline(
    extra_state: *mut c_void,
    status: *mut MPI_Status,
) -> c_int {
    let st = &*(extra_state as *const FGrequest);
    let mut ierr = MPI_SUCCESS;
    if let Some(f) = st.query {
        f(st.extra, status as *mut MPI_Fint, &mut ierr);
    }
    ierr
}

/// free_fn of every generalized request started from Fortran; releases the state.
///
/// # Safety
/// As for `f_greq_query_trampoline`; not used again afterwards.
pub unsafe extern "C" fn f_greq_free_trampoline(extra_state: *mut c_void) -> c_int {
    let p = extra_state as *mut FGrequest;
    let mut ierr = MPI_SUCCESS;
    if let Some(f) = (*p).free {
        f((*p).extra, &mut ierr);
    }
    FGrequest::free(p);
    ierr
}

/// cancel_fn of every generalized request started from Fortran (COMPLETE as a LOGICAL).
///
/// # Safety
/// As for `f_greq_query_trampoline`.
pub unsafe extern "C" fn f_greq_cancel_trampoline(
    extra_state: *mut c_void,
    complete: c_int,
) -> c_int {
    let st = &*(extra_state as *const FGrequest);
    let (mut done, mut ierr) = ((complete != 0) as MPI_Fint, MPI_SUCCESS);
    if let Some(f) = st.cancel {
        f(st.extra, &mut done, &mut ierr);
    }
    ierr
}

// ---------------------------------------------------------------------------------------
// Procedures of Fortran's own for `use mpi` and mpif.h.
// ---------------------------------------------------------------------------------------

macro_rules! f_conversion_fn_null {
    ($($name:ident)*) => {$(
        /// MPI_CONVERSION_FN_NULL (mpif.h: EXTERNAL): never called, recognised by address.
        ///
        /// # Safety
        /// Fortran's arguments.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            _userbuf: *mut c_void,
            _datatype: *mut MPI_Fint,
            _count: *mut MPI_Fint,
            _filebuf: *mut c_void,
            _position: *mut MPI_Offset,
            _extra_state: *mut MPI_Aint,
            ierror: *mut MPI_Fint,
        ) {
            set_ierror(ierror, MPI_SUCCESS);
        }
    )*};
}

f_conversion_fn_null! { mpi_conversion_fn_null_ pmpi_conversion_fn_null_ }

/// A conversion procedure for MPI_REGISTER_DATAREP: MPI_CONVERSION_FN_NULL becomes NULL.
pub fn f_conversion_fn(f: *mut c_void) -> *mut c_void {
    let null = [
        mpi_conversion_fn_null_ as *const () as usize,
        pmpi_conversion_fn_null_ as *const () as usize,
        bound_address(c"mpi_conversion_fn_null_", 0),
        bound_address(c"pmpi_conversion_fn_null_", 0),
    ];
    if null.contains(&(f as usize)) {
        std::ptr::null_mut()
    } else {
        f
    }
}

/// `MPI_F_SYNC_REG(BUF)` (no IERROR): does nothing; that the compiler must assume this
/// external call reads and writes `buf` is its purpose (MPI-3.1 section 17.1.8).
#[no_mangle]
pub extern "C" fn mpi_f_sync_reg_(_buf: *mut c_void) {}

/// `PMPI_F_SYNC_REG(BUF)`.
#[no_mangle]
pub extern "C" fn pmpi_f_sync_reg_(_buf: *mut c_void) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, size_of};

    #[test]
    fn common_blocks_have_mpichs_sizes() {
        // libmpifort.so.12 (MPICH 4.0): mpipriv1_ 28, mpipriv2_ 24, mpiprivc_ 2,
        // mpifcmb5_ 4, mpifcmb9_ 4 bytes.
        assert_eq!(size_of::<MpiPriv1>(), 28);
        assert_eq!(size_of::<MpiPriv2>(), 24);
        assert_eq!(size_of::<MpiPrivC>(), 2);
        assert_eq!(align_of::<MpiPriv1>(), 4);
        assert_eq!(std::mem::offset_of!(MpiPriv1, status_ignore), 8);
        assert_eq!(std::mem::offset_of!(MpiPriv2, errcodes_ignore), 20);
    }

    #[test]
    fn special_addresses_translate() {
        let a = *addrs();
        assert_eq!(f_buf(a.bottom as *mut c_void), MPI_BOTTOM);
        assert_eq!(f_buf(a.in_place as *mut c_void), MPI_IN_PLACE);
        assert_eq!(
            f_status(a.status_ignore as *mut MPI_Status),
            MPI_STATUS_IGNORE
        );
        assert_eq!(
            f_statuses(a.statuses_ignore as *mut MPI_Status),
            MPI_STATUSES_IGNORE
        );
        assert_eq!(f_weights(a.unweighted as *mut c_int), MPI_UNWEIGHTED.0);
        assert_eq!(
            f_weights(a.weights_empty as *mut c_int),
            MPI_WEIGHTS_EMPTY.0
        );
        assert_eq!(
            f_errcodes(a.errcodes_ignore as *mut c_int),
            MPI_ERRCODES_IGNORE
        );
        let mut x = 0i32;
        let p = &raw mut x;
        assert_eq!(f_buf(p as *mut c_void), p as *mut c_void);
        assert_eq!(f_status(p as *mut MPI_Status), p as *mut MPI_Status);
        assert_eq!(f_weights(p), p);
    }

    #[test]
    fn strings_in_and_out() {
        let (s, k) = (b"hello   ", b"  key  ");
        let mut out = FStrOut::new(6);
        let (mut dst, mut short) = ([b'x'; 6], [b'x'; 2]);
        // SAFETY: every pointer is to a live local of at least the length passed with it;
        // FStrOut holds at least 7 bytes.
        unsafe {
            let c = f_str_in(s.as_ptr() as *const c_char, s.len());
            assert_eq!(c.as_bytes(), b"hello");
            let c = f_str_in_info(k.as_ptr() as *const c_char, k.len());
            assert_eq!(c.as_bytes(), b"key");
            assert_eq!(f_str_in(std::ptr::null(), 0).as_bytes(), b"");
            let src = c"abc".to_bytes_with_nul();
            std::ptr::copy_nonoverlapping(src.as_ptr(), out.as_mut_ptr() as *mut u8, src.len());
            out.copy_to(dst.as_mut_ptr() as *mut c_char, dst.len());
            out.copy_to(short.as_mut_ptr() as *mut c_char, short.len());
        }
        assert_eq!(&dst, b"abc   ");
        assert_eq!(&short, b"ab");
    }

    #[test]
    fn indices_become_one_based() {
        let mut idx = [0, 3, 7];
        let (mut two, mut undefined) = (2, MPI_UNDEFINED);
        // SAFETY: `idx` holds 3 >= outcount elements.
        unsafe {
            f_indices_to_fortran(MPI_SUCCESS, &mut two, idx.as_mut_ptr());
            assert_eq!(idx, [1, 4, 7]);
            f_indices_to_fortran(MPI_SUCCESS, &mut undefined, idx.as_mut_ptr());
        }
        assert_eq!(idx, [1, 4, 7]);
    }

    #[test]
    fn mpi1_integer_addresses() {
        let disps = [1, -2, 3];
        let mut out = 0;
        // SAFETY: `disps` has 3 elements; `out` is a live local.
        unsafe {
            assert_eq!(f_aint_array(disps.as_ptr(), 3), vec![1, -2, 3]);
            assert!(f_aint_array(disps.as_ptr(), -1).is_empty());
            assert_eq!(f_aint_out(MPI_SUCCESS, -5, &mut out), MPI_SUCCESS);
            assert_eq!(out, -5);
            assert_eq!(f_aint_out(MPI_ERR_TYPE, 7, &mut out), MPI_ERR_TYPE);
        }
        assert_eq!(out, -5);
    }

    #[test]
    fn attribute_values() {
        assert_eq!(f_keyval(MPI_TAG_UB + 1), MPI_TAG_UB);
        assert_eq!(f_keyval(MPI_TAG_UB), MPI_TAG_UB);
        assert_eq!(f_keyval(12345), 12345);
        let mut ub: c_int = 1 << 30;
        let mut size: MPI_Aint = 1 << 40;
        // SAFETY: predefined keyvals get pointers to live locals of the types MPI gives.
        let (tag_ub, user, win_size) = unsafe {
            (
                f_attr_value(AttrObj::Comm, MPI_TAG_UB, &raw mut ub as *mut c_void),
                f_attr_value(AttrObj::Comm, 77, 0x1234usize as *mut c_void),
                f_attr_value(AttrObj::Win, MPI_WIN_SIZE, &raw mut size as *mut c_void),
            )
        };
        assert_eq!((tag_ub, user, win_size), (1 << 30, 0x1234, 1 << 40));
    }

    unsafe extern "C" fn fortran_copy(
        _oldobj: *mut MPI_Fint,
        _keyval: *mut MPI_Fint,
        extra: *mut c_void,
        vin: *mut c_void,
        vout: *mut c_void,
        flag: *mut MPI_Fint,
        ierror: *mut MPI_Fint,
    ) {
        *(vout as *mut MPI_Aint) = *(vin as *mut MPI_Aint) + *(extra as *mut MPI_Aint);
        *flag = 1;
        *ierror = 0;
    }

    #[test]
    fn copy_trampoline_calls_fortran_by_reference() {
        let st = FKeyval::new(Some(fortran_copy), None, 100, true);
        let mut out: *mut c_void = std::ptr::null_mut();
        let mut flag = 0;
        // SAFETY: `st` comes from FKeyval::new and is freed once, last; `out` and `flag`
        // are live locals of the types the C callbacks get.
        unsafe {
            let rc = f_copy_trampoline(
                MPI_COMM_WORLD,
                5,
                st as *mut c_void,
                7usize as *mut c_void,
                &raw mut out as *mut c_void,
                &mut flag,
            );
            assert_eq!((rc, flag, out as usize), (MPI_SUCCESS, 1, 107));
            let rc = f_delete_trampoline(MPI_COMM_WORLD, 5, out, st as *mut c_void);
            assert_eq!(rc, MPI_SUCCESS);
            FKeyval::free(st);
        }
    }
}
