//! Access modes (MPI-3.1 §13.2.1): the MPI_MODE_* bits, which combinations are legal,
//! and the open(2) flags they become. The values are MPICH's (mpi.h).

use crate::error::Result;
use crate::mpi_err;
use std::os::raw::c_int;

pub const CREATE: i32 = 1;
pub const RDONLY: i32 = 2;
pub const WRONLY: i32 = 4;
pub const RDWR: i32 = 8;
pub const DELETE_ON_CLOSE: i32 = 16;
pub const UNIQUE_OPEN: i32 = 32;
pub const EXCL: i32 = 64;
pub const APPEND: i32 = 128;
pub const SEQUENTIAL: i32 = 256;
const ALL: i32 = 511;

pub const SEEK_SET: i32 = 600;
pub const SEEK_CUR: i32 = 602;
pub const SEEK_END: i32 = 604;

/// Checks `amode`; the open(2) flags for it. Exactly one of RDONLY, RDWR, WRONLY;
/// RDONLY with CREATE or EXCL, RDWR with SEQUENTIAL, or an unknown bit: MPI_ERR_AMODE.
pub fn check(amode: i32) -> Result<c_int> {
    if amode & !ALL != 0 {
        return mpi_err!(Amode, "unknown bits in access mode {amode:#x}");
    }
    let access = [RDONLY, WRONLY, RDWR]
        .iter()
        .filter(|&&b| amode & b != 0)
        .count();
    if access != 1 {
        return mpi_err!(
            Amode,
            "access mode {amode:#x} needs exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY, MPI_MODE_RDWR"
        );
    }
    if amode & RDONLY != 0 && amode & (CREATE | EXCL) != 0 {
        return mpi_err!(
            Amode,
            "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL"
        );
    }
    if amode & RDWR != 0 && amode & SEQUENTIAL != 0 {
        return mpi_err!(Amode, "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL");
    }
    let mut flags = match amode & (RDONLY | WRONLY | RDWR) {
        RDONLY => libc::O_RDONLY,
        WRONLY => libc::O_WRONLY,
        _ => libc::O_RDWR,
    };
    if amode & CREATE != 0 {
        flags |= libc::O_CREAT;
    }
    if amode & EXCL != 0 {
        flags |= libc::O_EXCL;
    }
    Ok(flags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorClass;

    #[test]
    fn legal_and_illegal_modes() {
        assert_eq!(check(RDONLY).unwrap(), libc::O_RDONLY);
        assert_eq!(
            check(RDWR | CREATE | EXCL).unwrap(),
            libc::O_RDWR | libc::O_CREAT | libc::O_EXCL
        );
        assert_eq!(check(WRONLY | APPEND | SEQUENTIAL).unwrap(), libc::O_WRONLY);
        for bad in [
            0,
            RDONLY | RDWR,
            RDONLY | CREATE,
            RDONLY | EXCL,
            RDWR | SEQUENTIAL,
            1024 | RDWR,
        ] {
            assert_eq!(check(bad).unwrap_err().class, ErrorClass::Amode, "{bad:#x}");
        }
    }
}
