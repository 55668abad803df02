//! Info objects' C calls (MPI-4.1 §10): keys and values read from C strings, values and
//! keys written into the caller's buffers. The object and its rules (order, lengths, a
//! missing key) are the core's, `crate::info`. railmpi accepts hints everywhere and uses
//! few. MPI_INFO_ENV is a predefined, empty, read-only info object. Errors go to
//! MPI_COMM_WORLD's handler.

use super::consts::*;
use super::handles;
use super::shim::{write_out, write_out_str};
use crate::error::Result;
use crate::info::{self as core, Info};
use crate::mpi_err;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

/// The longest key: MPI_MAX_INFO_KEY, which is 256 in the standard ABI (255 in MPICH's).
const KEY_MAX: usize = if cfg!(feature = "std-abi") {
    256
} else {
    MPI_MAX_INFO_KEY as usize
};

/// The most MPI_Info_get_nthkey writes, with the NUL.
const NTHKEY_MAX: usize = if cfg!(feature = "std-abi") {
    KEY_MAX + 1
} else {
    MPI_MAX_INFO_KEY as usize
};

/// A key as MPI allows it (MPI_ERR_INFO_KEY for NULL too).
///
/// # Safety
/// `key` is NULL or a NUL-terminated string.
pub(crate) unsafe fn key<'a>(key: *const c_char) -> Result<&'a str> {
    if key.is_null() {
        return mpi_err!(InfoKey, "NULL key");
    }
    core::check_key(CStr::from_ptr(key).to_bytes(), KEY_MAX)
}

/// Read the pairs of `info` (MPI_INFO_ENV included; MPI_ERR_ARG for MPI_INFO_NULL).
pub fn read<T>(info: MPI_Info, f: impl FnOnce(&Info) -> T) -> Result<T> {
    if info == MPI_INFO_ENV {
        return Ok(f(&Info::new()));
    }
    handles::with_info(info, |e| f(e))
}

/// Change the pairs of a created info object (MPI_INFO_ENV is read-only).
pub(crate) fn write<T>(info: MPI_Info, f: impl FnOnce(&mut Info) -> T) -> Result<T> {
    if info == MPI_INFO_ENV {
        return mpi_err!(Info, "MPI_INFO_ENV cannot be changed");
    }
    handles::with_info(info, f)
}

/// Check an info argument of another call: MPI_INFO_NULL or a valid info object.
pub fn check(info: MPI_Info) -> Result<()> {
    if info == MPI_INFO_NULL {
        return Ok(());
    }
    read(info, |_| ())
}

/// Every (key, value) of `info`, none for MPI_INFO_NULL (for calls that take hints).
pub fn pairs(info: MPI_Info) -> Result<Vec<(String, String)>> {
    if info == MPI_INFO_NULL {
        return Ok(Vec::new());
    }
    read(info, |e| e.pairs().to_vec())
}

/// The value of `key` in `info`, if set (for calls that take hints: none in MPI_INFO_NULL).
pub fn get(info: MPI_Info, key: &str) -> Result<Option<String>> {
    if info == MPI_INFO_NULL {
        return Ok(None);
    }
    find(info, key)
}

/// The value of `key` in the info object `info`, if set.
fn find(info: MPI_Info, key: &str) -> Result<Option<String>> {
    read(info, |e| e.get(key).map(str::to_owned))
}

pub(crate) unsafe fn set(info: MPI_Info, key: *const c_char, value: *const c_char) -> Result<()> {
    let k = self::key(key)?;
    if value.is_null() {
        return mpi_err!(InfoValue, "NULL value");
    }
    let v = core::check_value(CStr::from_ptr(value).to_bytes(), MPI_MAX_INFO_VAL as usize)?;
    write(info, |e| e.set(k, v))
}

pub(crate) unsafe fn get_into(
    info: MPI_Info,
    key: *const c_char,
    valuelen: c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> Result<()> {
    let k = self::key(key)?;
    if valuelen < 0 {
        return mpi_err!(Arg, "negative valuelen {valuelen}");
    }
    let v = find(info, k)?;
    if let Some(v) = &v {
        // `value` holds valuelen characters plus the terminating NUL.
        write_out_str(v, value, valuelen as usize + 1, std::ptr::null_mut())?;
    }
    write_out(flag, v.is_some() as c_int)
}

pub(crate) unsafe fn get_valuelen(
    info: MPI_Info,
    key: *const c_char,
    valuelen: *mut c_int,
    flag: *mut c_int,
) -> Result<()> {
    let k = self::key(key)?;
    let v = find(info, k)?;
    if let Some(v) = &v {
        write_out(valuelen, v.len() as c_int)?;
    }
    write_out(flag, v.is_some() as c_int)
}

pub(crate) unsafe fn get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> Result<()> {
    let k = read(info, |e| e.nth_key(n.into()).map(str::to_owned))??;
    // At most MPI_MAX_INFO_KEY bytes with the NUL, as MPICH writes: a program may pass a
    // buffer of just MPI_MAX_INFO_KEY. (The standard ABI's keys may be MPI_MAX_INFO_KEY
    // long: its key buffers have room for the NUL, as MPICH 5's.)
    write_out_str(&k, key, NTHKEY_MAX, std::ptr::null_mut())
}

pub(crate) unsafe fn free(info: *mut MPI_Info) -> Result<()> {
    if info.is_null() {
        return mpi_err!(Arg, "NULL info pointer");
    }
    if *info == MPI_INFO_ENV {
        return mpi_err!(Info, "MPI_INFO_ENV cannot be freed");
    }
    handles::free_info(*info)?;
    *info = MPI_INFO_NULL;
    Ok(())
}

/// MPI-4.0 §10.2: the value of `key` into a buffer of `*buflen` bytes; `*buflen` comes back
/// as the value's length plus one (the size that holds it whole), so a first call with 0
/// asks for the size.
pub(crate) unsafe fn get_string(
    info: MPI_Info,
    key: *const c_char,
    buflen: *mut c_int,
    value: *mut c_char,
    flag: *mut c_int,
) -> Result<()> {
    let k = self::key(key)?;
    if buflen.is_null() || flag.is_null() {
        return mpi_err!(Arg, "NULL buflen or flag");
    }
    // SAFETY: non-NULL (checked); MPI: the caller's int.
    let cap = *buflen;
    if cap < 0 {
        return mpi_err!(Arg, "negative buflen {cap}");
    }
    let v = find(info, k)?;
    if let Some(v) = &v {
        if cap > 0 {
            write_out_str(v, value, cap as usize, std::ptr::null_mut())?;
        }
        *buflen = v.len() as c_int + 1;
    }
    write_out(flag, v.is_some() as c_int)
}
