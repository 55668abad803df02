//! The C side of the standard ABI's Fortran support (MPI-5.0 §21.4.1): a Fortran binding
//! layered over `libmpi_abi.so.1` (`libmpifort_abi`, built by whoever knows the Fortran
//! compiler) tells the C library what its compiler's types are, once, with
//! `MPI_Abi_set_fortran_info` (sizes of INTEGER, REAL, DOUBLE PRECISION and LOGICAL, which
//! optional types exist) and `MPI_Abi_set_fortran_booleans` (LOGICAL's true and false); the
//! `_get_` calls read back what was set (MPI_INFO_NULL, or `is_set` 0, before: this library
//! holds no Fortran of its own). Only the first successful registration counts; later ones
//! are MPI_ERR_ABI.
//!
//! railmpi's Fortran types are fixed (gfortran's defaults on x86-64: INTEGER, REAL and
//! LOGICAL of 4 bytes, DOUBLE PRECISION of 8), and its logical reductions produce 1 and 0,
//! so a registration that says otherwise is refused (MPI_ERR_ABI, nothing set) rather than
//! accepted and then silently wrong.

#![allow(clippy::missing_safety_doc)]

use super::types::*;
use super::values as v;
use crate::abi::consts as m;
use crate::abi::{handles, shim};
use crate::error::Result;
use crate::mpi_err;
use parking_lot::Mutex;
use std::os::raw::{c_int, c_void};

/// The sizes railmpi's Fortran types have, by the standard's info key.
const SIZES: [(&str, usize); 4] = [
    ("mpi_integer_size", 4),
    ("mpi_real_size", 4),
    ("mpi_double_precision_size", 8),
    ("mpi_logical_size", 4),
];

/// What was registered: the info's (key, value) pairs, and LOGICAL's (size, true, false).
struct Registered {
    info: Option<Vec<(String, String)>>,
    booleans: Option<(usize, Vec<u8>, Vec<u8>)>,
}

static REGISTERED: Mutex<Registered> = Mutex::new(Registered {
    info: None,
    booleans: None,
});

/// The value of `key` in `pairs` as a size in bytes.
fn size_of_key(pairs: &[(String, String)], key: &str) -> Result<Option<usize>> {
    match pairs.iter().find(|(k, _)| k == key) {
        None => Ok(None),
        Some((_, val)) => match val.trim().parse::<usize>() {
            Ok(n) => Ok(Some(n)),
            Err(_) => mpi_err!(Info, "{key} is {val:?}, not a size in bytes"),
        },
    }
}

fn set_info(info: m::MPI_Info) -> Result<()> {
    let pairs = handles::with_info(info, |e| e.pairs().to_vec())?;
    let mut r = REGISTERED.lock();
    if r.info.is_some() {
        return mpi_err!(Abi, "MPI_Abi_set_fortran_info was called before");
    }
    for (key, ours) in SIZES {
        if let Some(n) = size_of_key(&pairs, key)? {
            if n != ours {
                return mpi_err!(
                    Abi,
                    "{key} {n}: railmpi's Fortran type has {ours} bytes (nothing was set)"
                );
            }
        }
    }
    r.info = Some(pairs);
    Ok(())
}

unsafe fn get_info(info: *mut m::MPI_Info) -> Result<()> {
    if info.is_null() {
        return mpi_err!(Arg, "NULL info argument");
    }
    let h = match &REGISTERED.lock().info {
        Some(pairs) => handles::new_info(pairs.clone()),
        None => m::MPI_INFO_NULL,
    };
    *info = h;
    Ok(())
}

/// The bytes of a LOGICAL of `size` bytes at `p` (NULL: MPI_ERR_ARG).
unsafe fn logical(p: *const c_void, size: usize, what: &str) -> Result<Vec<u8>> {
    if p.is_null() {
        return mpi_err!(Arg, "NULL {what} value");
    }
    // SAFETY: the caller's: `p` holds a LOGICAL of `size` bytes.
    Ok(std::slice::from_raw_parts(p.cast::<u8>(), size).to_vec())
}

/// LOGICAL `size` bytes long with value `v` as railmpi's reductions write it.
fn ours(size: usize, v: u8) -> Vec<u8> {
    let mut b = vec![0u8; size];
    b[0] = v;
    b
}

unsafe fn set_booleans(size: c_int, t: *const c_void, f: *const c_void) -> Result<()> {
    let mut r = REGISTERED.lock();
    if r.booleans.is_some() {
        return mpi_err!(Abi, "MPI_Abi_set_fortran_booleans was called before");
    }
    let n = match size {
        1 | 2 | 4 | 8 | 16 => size as usize,
        _ => return mpi_err!(Arg, "a LOGICAL of {size} bytes"),
    };
    let (t, f) = (logical(t, n, "true")?, logical(f, n, "false")?);
    if t != ours(n, 1) || f != ours(n, 0) {
        return mpi_err!(
            Abi,
            "LOGICAL true {t:?} and false {f:?}: railmpi's logical reductions write 1 and 0 \
             (nothing was set)"
        );
    }
    r.booleans = Some((n, t, f));
    Ok(())
}

unsafe fn get_booleans(
    size: c_int,
    t: *mut c_void,
    f: *mut c_void,
    is_set: *mut c_int,
) -> Result<()> {
    if is_set.is_null() {
        return mpi_err!(Arg, "NULL is_set argument");
    }
    match &REGISTERED.lock().booleans {
        Some((n, tv, fv)) if usize::try_from(size) == Ok(*n) => {
            if t.is_null() || f.is_null() {
                return mpi_err!(Arg, "NULL true or false argument");
            }
            // SAFETY: the caller's: `t` and `f` have room for a LOGICAL of `size` bytes.
            std::ptr::copy_nonoverlapping(tv.as_ptr(), t.cast::<u8>(), *n);
            std::ptr::copy_nonoverlapping(fv.as_ptr(), f.cast::<u8>(), *n);
            *is_set = 1;
        }
        _ => *is_set = 0,
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Abi_set_fortran_info(info: MPI_Info) -> c_int {
    let info = v::info_in(info);
    v::code_out(shim::run(
        "MPI_Abi_set_fortran_info",
        m::MPI_COMM_WORLD,
        || set_info(info),
    ))
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Abi_get_fortran_info(info: *mut MPI_Info) -> c_int {
    let mut h = m::MPI_INFO_NULL;
    let rc = shim::run("MPI_Abi_get_fortran_info", m::MPI_COMM_WORLD, || {
        get_info(if info.is_null() {
            std::ptr::null_mut()
        } else {
            &mut h
        })
    });
    if rc == m::MPI_SUCCESS {
        *info = v::info_out(h);
    }
    v::code_out(rc)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Abi_set_fortran_booleans(
    logical_size: c_int,
    logical_true: *mut c_void,
    logical_false: *mut c_void,
) -> c_int {
    v::code_out(shim::run(
        "MPI_Abi_set_fortran_booleans",
        m::MPI_COMM_WORLD,
        || set_booleans(logical_size, logical_true, logical_false),
    ))
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Abi_get_fortran_booleans(
    logical_size: c_int,
    logical_true: *mut c_void,
    logical_false: *mut c_void,
    is_set: *mut c_int,
) -> c_int {
    v::code_out(shim::run(
        "MPI_Abi_get_fortran_booleans",
        m::MPI_COMM_WORLD,
        || get_booleans(logical_size, logical_true, logical_false, is_set),
    ))
}
