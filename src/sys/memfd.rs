//! Anonymous shared memory (`memfd_create`) that other processes of the node map through
//! `/proc/<pid>/fd/<fd>`: window memory the library allocates, reachable by plain loads and
//! stores from every rank of the node. No name is ever created, so nothing is left behind
//! in `/dev/shm` whatever way the job ends; the memory goes when the last mapping does.
//! Opening another process's descriptor needs the same permission as Cross Memory Attach
//! (ptrace read access), which the shm rail checks at start-up.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// A shared mapping of a memfd (ours or a peer's). Unmapped on drop.
pub struct SharedMemory {
    ptr: *mut u8,
    len: usize,
    /// Our own descriptor (kept open while peers may still open it); None for a peer's.
    fd: Option<OwnedFd>,
}

// SAFETY: the mapping is plain shared memory; concurrent access is coordinated by what the
// users place in it (atomics, epochs), not by this handle.
unsafe impl Send for SharedMemory {}
unsafe impl Sync for SharedMemory {}

impl SharedMemory {
    /// New zero-filled memory of `len` bytes (rounded up to pages by the kernel), mapped.
    pub fn create(name: &str, len: usize) -> io::Result<Self> {
        let cname = CString::new(name).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY: cname is a valid NUL-terminated string; flags are constants.
        let fd = unsafe { libc::memfd_create(cname.as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fd is the descriptor just created and owned by nobody else.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let size = len.max(1) as libc::off_t;
        // SAFETY: ftruncate on our own descriptor.
        if unsafe { libc::ftruncate(fd.as_raw_fd(), size) } != 0 {
            return Err(io::Error::last_os_error());
        }
        let ptr = map_shared(fd.as_raw_fd(), len.max(1))?;
        Ok(Self {
            ptr,
            len,
            fd: Some(fd),
        })
    }

    /// Map the memfd `fd` of process `pid`, expecting `len` bytes.
    pub fn open(pid: i32, fd: i32, len: usize) -> io::Result<Self> {
        let path = CString::new(format!("/proc/{pid}/fd/{fd}")).expect("no NUL");
        // SAFETY: path is a valid NUL-terminated string.
        let raw = unsafe { libc::open(path.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
        if raw < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: raw is the descriptor just opened.
        let own = unsafe { OwnedFd::from_raw_fd(raw) };
        // The peer's object must be at least as large as it says: mapping past its end
        // would fault (SIGBUS) on access instead of failing here.
        // SAFETY: st is plain data filled by fstat on a valid descriptor.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if unsafe { libc::fstat(own.as_raw_fd(), &mut st) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // Only memory of our own user is taken (what /proc let us open could be another's).
        // SAFETY: geteuid has no preconditions.
        if st.st_uid != unsafe { libc::geteuid() } {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("shared memory of process {pid} belongs to another user"),
            ));
        }
        if (st.st_size as u64) < len.max(1) as u64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("shared memory of process {pid} is smaller than announced"),
            ));
        }
        let ptr = map_shared(own.as_raw_fd(), len.max(1))?;
        Ok(Self { ptr, len, fd: None })
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
    /// Our descriptor, for peers to open (None for a peer's memory).
    pub fn fd(&self) -> Option<i32> {
        self.fd.as_ref().map(|f| f.as_raw_fd())
    }
}

/// Map `len` bytes of `fd` shared, read-write, where the kernel likes.
pub fn map_shared(fd: i32, len: usize) -> io::Result<*mut u8> {
    // SAFETY: a fresh shared mapping of a valid descriptor; the kernel picks the address.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(p as *mut u8)
}

impl Drop for SharedMemory {
    fn drop(&mut self) {
        // SAFETY: ptr/len describe the mapping made in `map`, unmapped exactly once.
        unsafe { libc::munmap(self.ptr as *mut libc::c_void, self.len.max(1)) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_mapping_sees_the_same_bytes() {
        let a = SharedMemory::create("railmpi-test", 3 * 4096 + 5).unwrap();
        let pid = std::process::id() as i32;
        let b = SharedMemory::open(pid, a.fd().unwrap(), a.len()).unwrap();
        assert_ne!(a.as_ptr(), b.as_ptr());
        // SAFETY: both map the same len bytes.
        unsafe {
            a.as_ptr().add(a.len() - 1).write(0x5a);
            assert_eq!(b.as_ptr().add(b.len() - 1).read(), 0x5a);
        }
        // Announcing more than there is fails instead of mapping past the end.
        assert!(SharedMemory::open(pid, a.fd().unwrap(), 1 << 20).is_err());
    }
}
