//! What the Fortran bindings over either C ABI share: the MPICH ABI's in `libmpi.so.12`
//! (`support.rs`) and the MPI-5 standard ABI's in `libmpifort_abi.so`
//! (`modules/fortran_abi`, which includes this file by path). Nothing here knows a handle's
//! C type or a constant's value beyond MPI_SUCCESS (0 in both): the callbacks take the
//! C handle as a `FortranHandle`, which each side converts to its Fortran INTEGER.
#![allow(dead_code, non_camel_case_types)]

use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_long, c_void};

/// MPI_Fint, MPI_Aint and MPI_SUCCESS: the same in both ABIs on LP64.
type MPI_Fint = c_int;
type MPI_Aint = c_long;
type MPI_Offset = i64;
const MPI_SUCCESS: c_int = 0;

/// The address the dynamic linker binds `name` to (the program's copy of a COMMON block
/// if it has one, else ours: the global scope searches the executable first), or `own`.
pub fn bound_address(name: &std::ffi::CStr, own: usize) -> usize {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only reads the loader's
    // tables; the result is used as a number, never dereferenced here.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    if p.is_null() {
        own
    } else {
        p as usize
    }
}

/// Indices out of MPI_Waitsome / MPI_Testsome are 1-based in Fortran: after a call that
/// filled them (`filled`: MPI_SUCCESS or MPI_ERR_IN_STATUS), unless the count is
/// `undefined` (MPI_UNDEFINED: no active request).
///
/// # Safety
/// After such a call, `outcount` and `indices[..outcount]` are valid.
pub unsafe fn indices_to_fortran(
    filled: bool,
    outcount: *mut c_int,
    indices: *mut c_int,
    undefined: c_int,
) {
    if filled && !outcount.is_null() {
        let n = *outcount;
        if n > 0 && n != undefined {
            for i in 0..n as usize {
                *indices.add(i) += 1;
            }
        }
    }
}

/// The kind of object an attribute hangs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrObj {
    Comm,
    Type,
    Win,
}

/// One ABI's predefined attribute keyvals (their values differ between the ABIs).
pub struct PredefinedKeyvals {
    pub all: [c_int; 12],
    pub win_base: c_int,
    pub win_size: c_int,
}

/// The Fortran value of attribute `keyval` whose C value is `v`: a predefined attribute's
/// C value points to it (MPI_WIN_SIZE's an MPI_Aint, the others' an int; MPI_WIN_BASE's is
/// the base itself); any other is the value Fortran stored as the C `void *`.
///
/// # Safety
/// For a predefined keyval, `v` points to the value as MPI defines it for C.
pub unsafe fn attr_value(
    k: &PredefinedKeyvals,
    obj: AttrObj,
    keyval: c_int,
    v: *mut c_void,
) -> MPI_Aint {
    if !k.all.contains(&keyval) || v.is_null() || (obj == AttrObj::Win && keyval == k.win_base) {
        v as MPI_Aint
    } else if obj == AttrObj::Win && keyval == k.win_size {
        *(v as *const MPI_Aint)
    } else {
        *(v as *const c_int) as MPI_Aint
    }
}

/// A C handle as a callback receives it, and its Fortran INTEGER (MPICH's handles are
/// INTEGERs already; the standard ABI's go through MPI_X_toint).
pub trait FortranHandle: Copy {
    fn to_fint(self) -> MPI_Fint;
}

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

/// Room for the longest string a C call writes (MPI_MAX_LIBRARY_VERSION_STRING, 8192 in
/// both ABIs, with its NUL) or for the Fortran buffer's length plus a NUL, whichever is more: calls that take
/// a length (MPI_Info_get's valuelen) are given at most the Fortran length.
pub const STR_OUT_MIN: usize = 8192 + 1;

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
pub unsafe extern "C" fn f_copy_trampoline<H: FortranHandle>(
    oldobj: H,
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
    let (mut obj, mut kv, mut fflag, mut ierr) = (oldobj.to_fint(), keyval, 0, MPI_SUCCESS);
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
pub unsafe extern "C" fn f_delete_trampoline<H: FortranHandle>(
    obj: H,
    keyval: c_int,
    attribute_val: *mut c_void,
    extra_state: *mut c_void,
) -> c_int {
    let st = &*(extra_state as *const FKeyval);
    let Some(delete) = st.delete else {
        return MPI_SUCCESS;
    };
    let (mut obj, mut kv, mut ierr) = (obj.to_fint(), keyval, MPI_SUCCESS);
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
pub unsafe extern "C" fn f_greq_query_trampoline<S>(
    extra_state: *mut c_void,
    status: *mut S,
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
// Procedures of Fortran's own.
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
