//! Statuses: what a receive reported (MPI_Get_count, MPI_Get_elements,
//! MPI_Test_cancelled, MPI-4.1's MPI_Status_get_*), what a generalized request's query
//! function sets (MPI_Status_set_*), and the Fortran conversions. The entry points are
//! generated (tools/c_api.txt).

use super::args::{self, CountOut};
use super::consts::*;
use super::handles;
use super::shim::write_out;
use crate::error::Result;
use crate::mpi_err;
use std::os::raw::c_int;

/// A status to read: not NULL, not MPI_STATUS_IGNORE.
pub(crate) unsafe fn status_in<'a>(status: *const MPI_Status) -> Result<&'a MPI_Status> {
    if status.is_null() || std::ptr::eq(status, MPI_STATUS_IGNORE) {
        return mpi_err!(Arg, "NULL or MPI_STATUS_IGNORE status");
    }
    Ok(&*status)
}

/// A status to write: not NULL, not MPI_STATUS_IGNORE.
unsafe fn status_out<'a>(status: *mut MPI_Status) -> Result<&'a mut MPI_Status> {
    if status.is_null() || status == MPI_STATUS_IGNORE {
        return mpi_err!(Arg, "NULL or MPI_STATUS_IGNORE status");
    }
    Ok(&mut *status)
}

/// MPI_Get_count: whole elements of `datatype` received, MPI_UNDEFINED when the bytes are
/// not a whole number of them (or the number does not fit the caller's integer).
///
/// # Safety
/// `status` and `count` are NULL or valid.
pub unsafe fn get_count(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: impl CountOut,
) -> Result<()> {
    let st = status_in(status)?;
    let ty = handles::any_datatype(datatype)?;
    let bytes = args::status_bytes(st);
    let n = match ty.size as u64 {
        0 => (bytes == 0).then_some(0),
        size => bytes.is_multiple_of(size).then_some(bytes / size),
    };
    count.put(n)
}

/// MPI_Get_elements, MPI_Get_elements_x: basic elements received.
///
/// # Safety
/// As `get_count`.
pub unsafe fn get_elements(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
    count: impl CountOut,
) -> Result<()> {
    count.put(super::datatype::status_elements(status, datatype)?)
}

/// MPI_Status_set_elements(_x, _c): record `count` elements of `datatype` (as their
/// bytes, which is what MPI_Get_count and MPI_Get_elements read back).
///
/// # Safety
/// `status` is NULL or valid.
pub unsafe fn set_elements(
    status: *mut MPI_Status,
    datatype: MPI_Datatype,
    count: impl Into<i64>,
) -> Result<()> {
    let count: i64 = count.into();
    let st = status_out(status)?;
    let ty = handles::any_datatype(datatype)?;
    if count < 0 {
        return mpi_err!(Count, "negative count {count}");
    }
    let Some(bytes) = (count as u64).checked_mul(ty.size as u64) else {
        return mpi_err!(Count, "count {count} too large");
    };
    // 63 bits: 32 in count_lo, 31 above the cancelled bit (MPICH's layout).
    if bytes >> 63 != 0 {
        return mpi_err!(Count, "count {count} too large");
    }
    st.count_lo = bytes as u32 as c_int;
    st.count_hi_and_cancelled = (((bytes >> 32) as c_int) << 1) | (st.count_hi_and_cancelled & 1);
    Ok(())
}

/// MPI_Status_set_cancelled.
///
/// # Safety
/// `status` is NULL or valid.
pub unsafe fn set_cancelled(status: *mut MPI_Status, flag: c_int) -> Result<()> {
    let st = status_out(status)?;
    st.count_hi_and_cancelled = (st.count_hi_and_cancelled & !1) | (flag != 0) as c_int;
    Ok(())
}

/// A field of a status (MPI-4.1 §3.2.5's accessors).
#[derive(Clone, Copy)]
pub enum Field {
    Source,
    Tag,
    Error,
}

fn field(st: &mut MPI_Status, f: Field) -> &mut c_int {
    match f {
        Field::Source => &mut st.MPI_SOURCE,
        Field::Tag => &mut st.MPI_TAG,
        Field::Error => &mut st.MPI_ERROR,
    }
}

/// MPI_Status_get_source/tag/error.
///
/// # Safety
/// `status` and `out` are NULL or valid.
pub unsafe fn get(status: *const MPI_Status, out: *mut c_int, f: Field) -> Result<()> {
    let mut st = *status_in(status)?;
    write_out(out, *field(&mut st, f))
}

/// MPI_Status_set_source/tag/error.
///
/// # Safety
/// `status` is NULL or valid.
pub unsafe fn set(status: *mut MPI_Status, value: c_int, f: Field) -> Result<()> {
    *field(status_out(status)?, f) = value;
    Ok(())
}

/// The five integers of a status, in MPICH's order (the Fortran status has the same).
const STATUS_INTS: usize = MPI_F_STATUS_SIZE as usize;

/// MPI_Status_c2f.
///
/// # Safety
/// MPI's: `f_status` has room for MPI_STATUS_SIZE integers.
pub unsafe fn c2f(c_status: *const MPI_Status, f_status: *mut MPI_Fint) -> Result<()> {
    let st = status_in(c_status)?;
    if f_status.is_null() {
        return mpi_err!(Arg, "NULL Fortran status");
    }
    // SAFETY: MPI_Status is five C ints (asserted in consts.rs), MPI_Fint is int.
    std::ptr::copy(
        st as *const MPI_Status as *const MPI_Fint,
        f_status,
        STATUS_INTS,
    );
    Ok(())
}

/// MPI_Status_f2c.
///
/// # Safety
/// MPI's: `f_status` holds MPI_STATUS_SIZE integers.
pub unsafe fn f2c(f_status: *const MPI_Fint, c_status: *mut MPI_Status) -> Result<()> {
    if f_status.is_null() || std::ptr::eq(f_status, MPI_F_STATUS_IGNORE.0) {
        return mpi_err!(Arg, "NULL or MPI_F_STATUS_IGNORE Fortran status");
    }
    let st = status_out(c_status)?;
    // SAFETY: as in MPI_Status_c2f.
    std::ptr::copy(
        f_status,
        st as *mut MPI_Status as *mut MPI_Fint,
        STATUS_INTS,
    );
    Ok(())
}
