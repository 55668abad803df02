//! Info objects (MPI-3.1 ch. 9): ordered (key, value) string pairs with MPI's length limits.
//! railmpi accepts hints everywhere and uses none yet. MPI_INFO_ENV is a predefined, empty,
//! read-only info object. Errors go to MPI_COMM_WORLD's handler.

use super::consts::*;
use super::handles::{self, InfoEntry};
use super::shim::{write_out, write_out_str};
use crate::error::{Error, ErrorClass, Result};
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

/// A key as MPI allows it: 1..=MPI_MAX_INFO_KEY characters (else MPI_ERR_INFO_KEY).
///
/// # Safety
/// `key` is NULL or a NUL-terminated string.
unsafe fn key<'a>(key: *const c_char) -> Result<&'a str> {
    if key.is_null() {
        return mpi_err!(InfoKey, "NULL key");
    }
    let k = CStr::from_ptr(key);
    let len = k.to_bytes().len();
    if len == 0 || len > KEY_MAX {
        return mpi_err!(
            InfoKey,
            "info key of {len} characters (1..={KEY_MAX} allowed)"
        );
    }
    k.to_str()
        .map_err(|_| Error::new(ErrorClass::InfoKey, "info key is not valid UTF-8"))
}

/// Read the pairs of `info` (MPI_INFO_ENV included).
pub fn read<T>(info: MPI_Info, f: impl FnOnce(&InfoEntry) -> T) -> Result<T> {
    if info == MPI_INFO_ENV {
        return Ok(f(&InfoEntry::new()));
    }
    handles::with_info(info, |e| f(e))
}

/// Change the pairs of a created info object (MPI_INFO_ENV is read-only).
fn write<T>(info: MPI_Info, f: impl FnOnce(&mut InfoEntry) -> T) -> Result<T> {
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
    read(info, |e| e.clone())
}

/// The value of `key` in `info`, if set (for calls that take hints).
pub fn get(info: MPI_Info, key: &str) -> Result<Option<String>> {
    if info == MPI_INFO_NULL {
        return Ok(None);
    }
    read(info, |e| {
        e.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    })
}

pub(crate) unsafe fn set(info: MPI_Info, key: *const c_char, value: *const c_char) -> Result<()> {
    let k = self::key(key)?.to_owned();
    if value.is_null() {
        return mpi_err!(InfoValue, "NULL value");
    }
    let v = CStr::from_ptr(value);
    if v.to_bytes().len() > MPI_MAX_INFO_VAL as usize {
        return mpi_err!(
            InfoValue,
            "info value of {} characters (at most {MPI_MAX_INFO_VAL})",
            v.to_bytes().len()
        );
    }
    let v = v.to_string_lossy().into_owned();
    write(info, |e| match e.iter_mut().find(|(x, _)| *x == k) {
        Some(pair) => pair.1 = v,
        None => e.push((k, v)),
    })
}

pub(crate) unsafe fn delete(info: MPI_Info, key: *const c_char) -> Result<()> {
    let k = self::key(key)?;
    let found = write(info, |e| match e.iter().position(|(x, _)| x == k) {
        Some(i) => {
            e.remove(i);
            true
        }
        None => false,
    })?;
    if !found {
        return mpi_err!(InfoNoKey, "info key \"{k}\" is not set");
    }
    Ok(())
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
    match get(info, k)? {
        Some(v) => {
            // `value` holds valuelen characters plus the terminating NUL.
            write_out_str(&v, value, valuelen as usize + 1, std::ptr::null_mut())?;
            write_out(flag, 1)
        }
        None => {
            read(info, |_| ())?;
            write_out(flag, 0)
        }
    }
}

pub(crate) unsafe fn get_valuelen(
    info: MPI_Info,
    key: *const c_char,
    valuelen: *mut c_int,
    flag: *mut c_int,
) -> Result<()> {
    let k = self::key(key)?;
    match get(info, k)? {
        Some(v) => {
            write_out(valuelen, v.len() as c_int)?;
            write_out(flag, 1)
        }
        None => {
            read(info, |_| ())?;
            write_out(flag, 0)
        }
    }
}

pub(crate) unsafe fn get_nthkey(info: MPI_Info, n: c_int, key: *mut c_char) -> Result<()> {
    let k = read(info, |e| {
        usize::try_from(n)
            .ok()
            .and_then(|i| e.get(i))
            .map(|(k, _)| k.clone())
            .ok_or(e.len())
    })?;
    match k {
        // At most MPI_MAX_INFO_KEY bytes with the NUL, as MPICH writes: a program may
        // pass a buffer of just MPI_MAX_INFO_KEY. (The standard ABI's keys may be
        // MPI_MAX_INFO_KEY long: its key buffers have room for the NUL, as MPICH 5's.)
        Ok(k) => write_out_str(&k, key, NTHKEY_MAX, std::ptr::null_mut()),
        Err(len) => mpi_err!(Arg, "no key number {n} (the info object has {len})"),
    }
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
    match get(info, k)? {
        Some(v) => {
            if cap > 0 {
                write_out_str(&v, value, cap as usize, std::ptr::null_mut())?;
            }
            *buflen = v.len() as c_int + 1;
            write_out(flag, 1)
        }
        None => {
            read(info, |_| ())?;
            write_out(flag, 0)
        }
    }
}

/// MPI_Get_hw_resource_info (MPI-4.1): the hardware resources railmpi can split by, as
/// `MPI_Comm_split_type`'s MPI_COMM_TYPE_HW_GUIDED takes them: the one it knows is the
/// node's shared memory ("mpi_shared_memory"). MPICH 5 returns an empty object.
///
/// # Safety
/// `hw_info` is NULL or valid.
pub unsafe fn get_hw_resource_info(hw_info: *mut MPI_Info) -> Result<()> {
    let pairs = vec![("mpi_hw_resource_type".into(), "mpi_shared_memory".into())];
    write_out(hw_info, handles::new_info(pairs))
}
