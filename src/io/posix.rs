//! The POSIX file under an MPI file (`sys::file` makes the calls), its failures mapped
//! from errno to MPI's I/O error classes.

use crate::error::{Error, ErrorClass, Result};
use crate::sys::file::{self, File};
pub use crate::sys::file::{LockKind, RangeLock};
use std::ffi::CString;
use std::os::raw::c_int;

/// The MPI error class of an `errno` from a file operation.
pub fn errno_class(errno: c_int) -> ErrorClass {
    match errno {
        libc::ENOENT => ErrorClass::NoSuchFile,
        libc::EACCES | libc::EPERM => ErrorClass::Access,
        libc::EEXIST => ErrorClass::FileExists,
        libc::ENOSPC | libc::EFBIG => ErrorClass::NoSpace,
        libc::EDQUOT => ErrorClass::Quota,
        libc::EROFS => ErrorClass::ReadOnly,
        libc::EISDIR | libc::ENOTDIR | libc::ENAMETOOLONG | libc::ELOOP | libc::EINVAL => {
            ErrorClass::BadFile
        }
        libc::ETXTBSY | libc::EBUSY => ErrorClass::FileInUse,
        _ => ErrorClass::Io,
    }
}

/// A failed file call as an MPI error: its class from errno, `what` and the system's words.
fn os_error(e: std::io::Error, what: &str) -> Error {
    Error::new(
        errno_class(e.raw_os_error().unwrap_or(libc::EIO)),
        format!("{what}: {e}"),
    )
}

fn c_path(path: &str) -> Result<CString> {
    CString::new(path).map_err(|_| Error::new(ErrorClass::BadFile, "file name holds a NUL"))
}

/// An open file, closed on drop; its calls' failures as MPI errors.
#[derive(Debug)]
pub struct Fd(File);

impl Fd {
    /// open(2) with `flags` (O_CREAT files get mode 0666 less the umask).
    pub fn open(path: &str, flags: c_int) -> Result<Fd> {
        let p = c_path(path)?;
        File::open(&p, flags)
            .map(Fd)
            .map_err(|e| os_error(e, &format!("cannot open {path}")))
    }

    /// Reads at `off` until `buf` is full or end of file; the bytes read.
    pub fn pread_full(&self, buf: &mut [u8], off: u64) -> Result<usize> {
        self.0
            .pread_full(buf, off)
            .map_err(|e| os_error(e, "read failed"))
    }

    /// Writes all of `buf` at `off`.
    pub fn pwrite_all(&self, buf: &[u8], off: u64) -> Result<()> {
        self.0
            .pwrite_all(buf, off)
            .map_err(|e| os_error(e, "write failed"))
    }

    /// Writes the buffers `parts`, back to back, at `off`.
    pub fn pwritev_all(&self, parts: &[&[u8]], off: u64) -> Result<()> {
        self.0
            .pwritev_all(parts, off)
            .map_err(|e| os_error(e, "write failed"))
    }

    /// Reads into the buffers `parts`, back to back, from `off`, stopping at end of file.
    pub fn preadv_full(&self, parts: &mut [&mut [u8]], off: u64) -> Result<()> {
        self.0
            .preadv_full(parts, off)
            .map_err(|e| os_error(e, "read failed"))
    }

    pub fn size(&self) -> Result<u64> {
        self.0.size().map_err(|e| os_error(e, "fstat failed"))
    }

    pub fn truncate(&self, size: u64) -> Result<()> {
        self.0
            .truncate(size)
            .map_err(|e| os_error(e, "ftruncate failed"))
    }

    /// Makes the file at least `size` bytes with its blocks allocated.
    pub fn preallocate(&self, size: u64) -> Result<()> {
        self.0
            .preallocate(size)
            .map_err(|e| os_error(e, "preallocate failed"))
    }

    pub fn sync(&self) -> Result<()> {
        self.0.sync().map_err(|e| os_error(e, "fsync failed"))
    }

    /// Locks bytes `[off, off + len)` (waiting for other processes' locks) until the
    /// guard drops. `len` 0 locks nothing.
    pub fn lock(&self, kind: LockKind, off: u64, len: u64) -> Result<Option<RangeLock<'_>>> {
        self.0
            .lock(kind, off, len)
            .map_err(|e| os_error(e, "byte-range lock failed"))
    }
}

/// unlink(2) with MPI's error classes.
pub fn delete(path: &str) -> Result<()> {
    let p = c_path(path)?;
    file::delete(&p).map_err(|e| os_error(e, &format!("cannot delete {path}")))
}
