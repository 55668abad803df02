//! The POSIX file under an MPI file: open, positioned reads and writes that finish what
//! they start (a short count only at end of file), byte-range `fcntl` locks, and errno
//! mapped to MPI's I/O error classes.

use crate::error::{Error, ErrorClass, Result};
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

fn last_error(what: &str) -> Error {
    let e = std::io::Error::last_os_error();
    Error::new(
        errno_class(e.raw_os_error().unwrap_or(libc::EIO)),
        format!("{what}: {e}"),
    )
}

fn c_path(path: &str) -> Result<CString> {
    CString::new(path).map_err(|_| Error::new(ErrorClass::BadFile, "file name holds a NUL"))
}

/// An open file descriptor, closed on drop.
#[derive(Debug)]
pub struct Fd(c_int);

impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: we own the descriptor; closing it once here.
        unsafe { libc::close(self.0) };
    }
}

/// Lock kinds for `Fd::lock`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LockKind {
    Read,
    Write,
}

/// A byte-range lock, released on drop.
pub struct RangeLock<'a> {
    fd: &'a Fd,
    off: u64,
    len: u64,
}

impl Drop for RangeLock<'_> {
    fn drop(&mut self) {
        let _ = self.fd.fcntl_lock(libc::F_UNLCK as i16, self.off, self.len);
    }
}

impl Fd {
    /// open(2) with `flags` (O_CREAT files get mode 0666 less the umask).
    pub fn open(path: &str, flags: c_int) -> Result<Fd> {
        let p = c_path(path)?;
        // SAFETY: `p` is a NUL-terminated path.
        let fd = unsafe { libc::open(p.as_ptr(), flags | libc::O_CLOEXEC, 0o666) };
        if fd < 0 {
            return Err(last_error(&format!("cannot open {path}")));
        }
        Ok(Fd(fd))
    }

    /// Reads at `off` until `buf` is full or end of file; the bytes read.
    pub fn pread_full(&self, buf: &mut [u8], off: u64) -> Result<usize> {
        let mut done = 0;
        while done < buf.len() {
            // SAFETY: the pointer and length describe the unfilled part of `buf`.
            let n = unsafe {
                libc::pread(
                    self.0,
                    buf[done..].as_mut_ptr().cast(),
                    buf.len() - done,
                    (off + done as u64) as libc::off_t,
                )
            };
            if n < 0 {
                if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Err(last_error("read failed"));
            }
            if n == 0 {
                break;
            }
            done += n as usize;
        }
        Ok(done)
    }

    /// Writes all of `buf` at `off`.
    pub fn pwrite_all(&self, buf: &[u8], off: u64) -> Result<()> {
        let mut done = 0;
        while done < buf.len() {
            // SAFETY: the pointer and length describe the unwritten part of `buf`.
            let n = unsafe {
                libc::pwrite(
                    self.0,
                    buf[done..].as_ptr().cast(),
                    buf.len() - done,
                    (off + done as u64) as libc::off_t,
                )
            };
            if n < 0 {
                if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Err(last_error("write failed"));
            }
            done += n as usize;
        }
        Ok(())
    }

    /// Writes the buffers `parts`, back to back, at `off` (pwritev, IOV_MAX at a time).
    pub fn pwritev_all(&self, parts: &[&[u8]], mut off: u64) -> Result<()> {
        const IOV_MAX: usize = 1024;
        for chunk in parts.chunks(IOV_MAX) {
            let iov: Vec<libc::iovec> = chunk
                .iter()
                .map(|p| libc::iovec {
                    iov_base: p.as_ptr() as *mut libc::c_void,
                    iov_len: p.len(),
                })
                .collect();
            let total: usize = chunk.iter().map(|p| p.len()).sum();
            // SAFETY: every iovec describes a live slice of `parts`; pwritev only reads.
            let n = unsafe {
                libc::pwritev(self.0, iov.as_ptr(), iov.len() as i32, off as libc::off_t)
            };
            if n < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return Err(last_error("write failed"));
            }
            let mut done = n.max(0) as usize;
            // A short write (or EINTR): the rest piece by piece.
            let mut at = off + done as u64;
            for p in chunk {
                if done >= p.len() {
                    done -= p.len();
                    continue;
                }
                self.pwrite_all(&p[done..], at)?;
                at += (p.len() - done) as u64;
                done = 0;
            }
            off += total as u64;
        }
        Ok(())
    }

    /// Reads into the buffers `parts`, back to back, from `off` (preadv, IOV_MAX at a
    /// time), stopping at end of file (what is not read is left as it is).
    pub fn preadv_full(&self, parts: &mut [&mut [u8]], mut off: u64) -> Result<()> {
        const IOV_MAX: usize = 1024;
        for chunk in parts.chunks_mut(IOV_MAX) {
            let iov: Vec<libc::iovec> = chunk
                .iter_mut()
                .map(|p| libc::iovec {
                    iov_base: p.as_mut_ptr() as *mut libc::c_void,
                    iov_len: p.len(),
                })
                .collect();
            let total: usize = chunk.iter().map(|p| p.len()).sum();
            // SAFETY: every iovec describes a live, exclusively borrowed slice of `parts`.
            let n =
                unsafe { libc::preadv(self.0, iov.as_ptr(), iov.len() as i32, off as libc::off_t) };
            if n < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return Err(last_error("read failed"));
            }
            let mut done = n.max(0) as usize;
            if done < total {
                // Short (end of file, or EINTR): the rest piece by piece until EOF.
                let mut at = off + done as u64;
                for p in chunk.iter_mut() {
                    if done >= p.len() {
                        done -= p.len();
                        continue;
                    }
                    let want = p.len() - done;
                    let got = self.pread_full(&mut p[done..], at)?;
                    if got < want {
                        return Ok(());
                    }
                    at += want as u64;
                    done = 0;
                }
            }
            off += total as u64;
        }
        Ok(())
    }

    pub fn size(&self) -> Result<u64> {
        // SAFETY: an all-zero stat is valid; fstat fills it.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `st` is valid for writing.
        if unsafe { libc::fstat(self.0, &mut st) } < 0 {
            return Err(last_error("fstat failed"));
        }
        Ok(st.st_size as u64)
    }

    pub fn truncate(&self, size: u64) -> Result<()> {
        // SAFETY: plain syscall on our descriptor.
        if unsafe { libc::ftruncate(self.0, size as libc::off_t) } < 0 {
            return Err(last_error("ftruncate failed"));
        }
        Ok(())
    }

    /// Makes the file at least `size` bytes with its blocks allocated.
    pub fn preallocate(&self, size: u64) -> Result<()> {
        if size == 0 {
            return Ok(());
        }
        // SAFETY: plain syscall on our descriptor.
        let rc = unsafe { libc::posix_fallocate(self.0, 0, size as libc::off_t) };
        match rc {
            0 => Ok(()),
            // A file system without fallocate: extending the size is what MPI asks for.
            libc::EOPNOTSUPP | libc::EINVAL => {
                if self.size()? < size {
                    self.truncate(size)?;
                }
                Ok(())
            }
            e => Err(Error::new(
                errno_class(e),
                format!(
                    "preallocate failed: {}",
                    std::io::Error::from_raw_os_error(e)
                ),
            )),
        }
    }

    pub fn sync(&self) -> Result<()> {
        // SAFETY: plain syscall on our descriptor.
        if unsafe { libc::fsync(self.0) } < 0 {
            return Err(last_error("fsync failed"));
        }
        Ok(())
    }

    fn fcntl_lock(&self, kind: i16, off: u64, len: u64) -> Result<()> {
        // SAFETY: an all-zero flock is valid; we fill the fields fcntl reads.
        let mut fl: libc::flock = unsafe { std::mem::zeroed() };
        fl.l_type = kind;
        fl.l_whence = libc::SEEK_SET as i16;
        fl.l_start = off as libc::off_t;
        fl.l_len = len as libc::off_t;
        loop {
            // SAFETY: `fl` is a valid flock for F_SETLKW.
            if unsafe { libc::fcntl(self.0, libc::F_SETLKW, &fl) } == 0 {
                return Ok(());
            }
            if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return Err(last_error("byte-range lock failed"));
            }
        }
    }

    /// Locks bytes `[off, off + len)` (waiting for other processes' locks) until the
    /// guard drops. `len` 0 locks nothing.
    pub fn lock(&self, kind: LockKind, off: u64, len: u64) -> Result<Option<RangeLock<'_>>> {
        if len == 0 {
            return Ok(None);
        }
        let t = match kind {
            LockKind::Read => libc::F_RDLCK,
            LockKind::Write => libc::F_WRLCK,
        };
        self.fcntl_lock(t as i16, off, len)?;
        Ok(Some(RangeLock { fd: self, off, len }))
    }
}

/// unlink(2) with MPI's error classes.
pub fn delete(path: &str) -> Result<()> {
    let p = c_path(path)?;
    // SAFETY: `p` is a NUL-terminated path.
    if unsafe { libc::unlink(p.as_ptr()) } < 0 {
        return Err(last_error(&format!("cannot delete {path}")));
    }
    Ok(())
}
