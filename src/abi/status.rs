//! Statuses as C has them: reading one (MPI_Get_count, MPI_Get_elements,
//! MPI_Test_cancelled, MPI-4.1's MPI_Status_get_*), writing one (MPI_Status_set_*, what a
//! generalized request's query function calls), and the Fortran conversions. The entry
//! points are table lines (tools/c_api.txt) over these and the core's counting rules
//! (`Datatype::count_in`, `Datatype::status_bytes`).

use super::consts::*;
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

/// The bytes a status records (MPI_Get_count's).
pub(crate) unsafe fn bytes_in(status: *const MPI_Status) -> Result<u64> {
    Ok(super::args::status_bytes(status_in(status)?))
}

/// A status to write: not NULL, not MPI_STATUS_IGNORE.
pub(crate) unsafe fn status_out<'a>(status: *mut MPI_Status) -> Result<&'a mut MPI_Status> {
    if status.is_null() || status == MPI_STATUS_IGNORE {
        return mpi_err!(Arg, "NULL or MPI_STATUS_IGNORE status");
    }
    Ok(&mut *status)
}

/// Record `bytes` in a status (MPI_Status_set_elements: what MPI_Get_count and
/// MPI_Get_elements read back), in MPICH's layout: 32 bits in count_lo, 31 above the
/// cancelled bit.
pub fn set_bytes(st: &mut MPI_Status, bytes: u64) {
    st.count_lo = bytes as u32 as c_int;
    st.count_hi_and_cancelled = (((bytes >> 32) as c_int) << 1) | (st.count_hi_and_cancelled & 1);
}

/// MPI_Status_set_cancelled's bit.
pub fn set_cancelled(st: &mut MPI_Status, flag: c_int) {
    st.count_hi_and_cancelled = (st.count_hi_and_cancelled & !1) | (flag != 0) as c_int;
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
