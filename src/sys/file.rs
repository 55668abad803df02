//! Files: open(2), positioned reads and writes that finish what they start (a short count
//! only at end of file), sizes, preallocation, fsync, byte-range `fcntl` locks, unlink(2).
//! What MPI-IO stands on; the MPI error classes are its business (`io::posix`).

use std::ffi::CStr;
use std::io;
use std::os::raw::c_int;

/// An open file descriptor, closed on drop.
#[derive(Debug)]
pub struct File(c_int);

/// A positioned transfer of `len` bytes repeated from where it stopped until done, end of
/// file (a 0 result) or an error; interruptions are retried. `step(done)` moves bytes
/// from `done` on and returns what the system call did. The bytes moved.
fn repeat(len: usize, mut step: impl FnMut(usize) -> isize) -> io::Result<usize> {
    let mut done = 0;
    while done < len {
        let n = step(done);
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return Err(e);
        }
        if n == 0 {
            break;
        }
        done += n as usize;
    }
    Ok(done)
}

/// File offset `off + done`.
fn pos(off: u64, done: usize) -> libc::off_t {
    (off + done as u64) as libc::off_t
}

impl Drop for File {
    fn drop(&mut self) {
        // SAFETY: we own the descriptor; closing it once here.
        unsafe { libc::close(self.0) };
    }
}

/// Lock kinds for `File::lock`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LockKind {
    Read,
    Write,
}

/// A byte-range lock, released on drop.
pub struct RangeLock<'a> {
    file: &'a File,
    off: u64,
    len: u64,
}

impl Drop for RangeLock<'_> {
    fn drop(&mut self) {
        let _ = self
            .file
            .fcntl_lock(libc::F_UNLCK as i16, self.off, self.len);
    }
}

impl File {
    /// open(2) with `flags` (O_CREAT files get mode 0666 less the umask).
    pub fn open(path: &CStr, flags: c_int) -> io::Result<File> {
        // SAFETY: `path` is a NUL-terminated path.
        let fd = unsafe { libc::open(path.as_ptr(), flags | libc::O_CLOEXEC, 0o666) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(File(fd))
    }

    /// Reads at `off` until `buf` is full or end of file; the bytes read.
    pub fn pread_full(&self, buf: &mut [u8], off: u64) -> io::Result<usize> {
        let len = buf.len();
        let at = buf.as_mut_ptr();
        repeat(len, |done| {
            // SAFETY: the pointer and length describe the unfilled part of `buf`.
            unsafe { libc::pread(self.0, at.add(done).cast(), len - done, pos(off, done)) }
        })
    }

    /// Writes all of `buf` at `off`.
    pub fn pwrite_all(&self, buf: &[u8], off: u64) -> io::Result<()> {
        let n = repeat(buf.len(), |done| {
            // SAFETY: the pointer and length describe the unwritten part of `buf`.
            unsafe {
                libc::pwrite(
                    self.0,
                    buf[done..].as_ptr().cast(),
                    buf.len() - done,
                    pos(off, done),
                )
            }
        })?;
        if n < buf.len() {
            return Err(io::ErrorKind::WriteZero.into());
        }
        Ok(())
    }

    /// Writes the buffers `parts`, back to back, at `off` (pwritev, IOV_MAX at a time).
    pub fn pwritev_all(&self, parts: &[&[u8]], mut off: u64) -> io::Result<()> {
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
            if n < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return Err(io::Error::last_os_error());
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
    pub fn preadv_full(&self, parts: &mut [&mut [u8]], mut off: u64) -> io::Result<()> {
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
            if n < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return Err(io::Error::last_os_error());
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

    pub fn size(&self) -> io::Result<u64> {
        // SAFETY: an all-zero stat is valid; fstat fills it.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `st` is valid for writing.
        if unsafe { libc::fstat(self.0, &mut st) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(st.st_size as u64)
    }

    pub fn truncate(&self, size: u64) -> io::Result<()> {
        // SAFETY: plain syscall on our descriptor.
        if unsafe { libc::ftruncate(self.0, size as libc::off_t) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Makes the file at least `size` bytes with its blocks allocated.
    pub fn preallocate(&self, size: u64) -> io::Result<()> {
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
            e => Err(io::Error::from_raw_os_error(e)),
        }
    }

    pub fn sync(&self) -> io::Result<()> {
        // SAFETY: plain syscall on our descriptor.
        if unsafe { libc::fsync(self.0) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn fcntl_lock(&self, kind: i16, off: u64, len: u64) -> io::Result<()> {
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
            if io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return Err(io::Error::last_os_error());
            }
        }
    }

    /// Locks bytes `[off, off + len)` (waiting for other processes' locks) until the
    /// guard drops. `len` 0 locks nothing.
    pub fn lock(&self, kind: LockKind, off: u64, len: u64) -> io::Result<Option<RangeLock<'_>>> {
        if len == 0 {
            return Ok(None);
        }
        let t = match kind {
            LockKind::Read => libc::F_RDLCK,
            LockKind::Write => libc::F_WRLCK,
        };
        self.fcntl_lock(t as i16, off, len)?;
        Ok(Some(RangeLock {
            file: self,
            off,
            len,
        }))
    }
}

/// unlink(2).
pub fn delete(path: &CStr) -> io::Result<()> {
    // SAFETY: `path` is a NUL-terminated path.
    if unsafe { libc::unlink(path.as_ptr()) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positioned_io_round_trips_and_stops_at_end_of_file() {
        let path = std::env::temp_dir().join(format!("railmpi-sys-file-{}", std::process::id()));
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        let f = File::open(&c, libc::O_CREAT | libc::O_RDWR | libc::O_TRUNC).unwrap();
        f.pwrite_all(b"hello", 0).unwrap();
        f.pwritev_all(&[b" ", b"world", b"!"], 5).unwrap();
        assert_eq!(f.size().unwrap(), 12);
        let mut buf = [0u8; 20];
        assert_eq!(
            f.pread_full(&mut buf, 6).unwrap(),
            6,
            "short count at end of file"
        );
        assert_eq!(&buf[..6], b"world!");
        let (mut a, mut b) = ([0u8; 5], [7u8; 10]);
        f.preadv_full(&mut [&mut a[..], &mut b[..]], 0).unwrap();
        assert_eq!(
            (&a, &b[..7], &b[7..]),
            (b"hello", &b" world!"[..], &[7u8; 3][..])
        );
        {
            let held = f.lock(LockKind::Write, 0, 12).unwrap();
            assert!(held.is_some());
            assert!(
                f.lock(LockKind::Read, 0, 0).unwrap().is_none(),
                "an empty range"
            );
        }
        f.preallocate(4096).unwrap();
        assert!(f.size().unwrap() >= 4096);
        f.truncate(3).unwrap();
        f.sync().unwrap();
        assert_eq!(f.size().unwrap(), 3);
        drop(f);
        delete(&c).unwrap();
        assert_eq!(delete(&c).unwrap_err().raw_os_error(), Some(libc::ENOENT));
    }
}
