//! What the generated Fortran bindings share (see `mod.rs`).
#![allow(non_upper_case_globals)]

pub use super::common::*;
use super::f08_support as f08;
pub use crate::abi::attr::from_fortran;
use crate::abi::consts::*;
use std::os::raw::{c_int, c_void};
use std::sync::OnceLock;

// common.rs sizes its output strings for this.
const _: () = assert!(STR_OUT_MIN == MPI_MAX_LIBRARY_VERSION_STRING as usize + 1);

/// MPICH's C handles are the Fortran INTEGERs.
impl FortranHandle for c_int {
    fn to_fint(self) -> MPI_Fint {
        self
    }
}

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
    let filled = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
    indices_to_fortran(filled, outcount, indices, MPI_UNDEFINED);
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
// Attributes. Fortran attribute values are INTEGER(KIND=MPI_ADDRESS_KIND) (INTEGER for the
// MPI-1 calls): the value itself is stored as the C `void *`. Predefined attributes are
// pointers to the value in C; Fortran gets the value. Fortran's predefined keyvals are C's
// plus one (MPICH's values), mapped back by `f_keyval`.
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

/// The C keyval for a Fortran one (predefined ones differ by one).
pub fn f_keyval(k: c_int) -> c_int {
    if KEYVALS.all.iter().any(|&c| c.wrapping_add(1) == k) {
        k - 1
    } else {
        k
    }
}

/// The Fortran value of attribute `keyval` whose C value is `v` (common.rs's rule).
///
/// # Safety
/// For a predefined keyval, `v` points to the value as MPI defines it for C.
pub unsafe fn f_attr_value(obj: AttrObj, keyval: c_int, v: *mut c_void) -> MPI_Aint {
    attr_value(&KEYVALS, obj, keyval, v)
}

// ---------------------------------------------------------------------------------------
// Procedures of Fortran's own for `use mpi` and mpif.h.
// ---------------------------------------------------------------------------------------

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
    use std::os::raw::c_char;

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
