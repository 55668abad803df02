//! POSIX shared-memory segments (`/dev/shm`), mapped `MAP_SHARED`.

use std::ffi::CString;
use std::io;

/// A mapped shared segment. Unmapped on drop; the name is unlinked only by `unlink`.
pub struct SharedSegment {
    ptr: *mut u8,
    len: usize,
    name: String,
}

// SAFETY: the mapping is plain shared memory; concurrent access is coordinated by the
// structures placed in it (atomics), not by this handle.
unsafe impl Send for SharedSegment {}
unsafe impl Sync for SharedSegment {}

impl SharedSegment {
    /// Create a new segment (`O_EXCL`, mode 0600) of `len` bytes, zero-filled.
    pub fn create(name: &str, len: usize) -> io::Result<Self> {
        let cname = shm_name(name)?;
        // SAFETY: cname is a valid NUL-terminated string.
        let fd = unsafe {
            libc::shm_open(
                cname.as_ptr(),
                libc::O_CREAT | libc::O_EXCL | libc::O_RDWR,
                0o600,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fd is the descriptor just opened.
        if unsafe { libc::ftruncate(fd, len as libc::off_t) } != 0 {
            let e = io::Error::last_os_error();
            // SAFETY: fd is valid; cname is valid.
            unsafe {
                libc::close(fd);
                libc::shm_unlink(cname.as_ptr());
            }
            return Err(e);
        }
        Self::map(fd, len, name)
    }

    /// Open an existing segment created by another process.
    pub fn open(name: &str) -> io::Result<Self> {
        let cname = shm_name(name)?;
        // SAFETY: cname is a valid NUL-terminated string.
        let fd = unsafe { libc::shm_open(cname.as_ptr(), libc::O_RDWR, 0) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: st is plain data filled by fstat; fd is valid.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if unsafe { libc::fstat(fd, &mut st) } != 0 {
            let e = io::Error::last_os_error();
            unsafe { libc::close(fd) };
            return Err(e);
        }
        Self::map(fd, st.st_size as usize, name)
    }

    fn map(fd: libc::c_int, len: usize, name: &str) -> io::Result<Self> {
        let ptr = super::memfd::map_shared(fd, len);
        // SAFETY: fd is valid; the mapping keeps the object alive after close.
        unsafe { libc::close(fd) };
        Ok(Self {
            ptr: ptr?,
            len,
            name: name.to_string(),
        })
    }

    /// Remove the name from /dev/shm; the mapping stays valid for those who hold it.
    pub fn unlink(&self) -> io::Result<()> {
        let cname = shm_name(&self.name)?;
        // SAFETY: cname is a valid NUL-terminated string.
        if unsafe { libc::shm_unlink(cname.as_ptr()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for SharedSegment {
    fn drop(&mut self) {
        // SAFETY: ptr/len describe the mapping made in `map`, unmapped exactly once.
        unsafe { libc::munmap(self.ptr as *mut libc::c_void, self.len) };
    }
}

fn shm_name(name: &str) -> io::Result<CString> {
    CString::new(format!("/{name}")).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
}
