//! Cross Memory Attach: `process_vm_readv` / `process_vm_writev` between processes of one
//! node, the shm rail's RDMA read and write.

use std::io;

/// A range in another process's address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemoteRange {
    pub addr: u64,
    pub len: usize,
}

/// Allow any process of ours to attach (Yama `ptrace_scope=1` otherwise forbids CMA between
/// siblings). Harmless where Yama is absent.
pub fn allow_peers_to_attach() {
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_PTRACER, libc::PR_SET_PTRACER_ANY, 0, 0, 0) };
}

/// Read `local.len()` bytes from `remote` in process `pid` into `local`.
pub fn read(pid: i32, local: &mut [u8], remote_addr: u64) -> io::Result<()> {
    let mut done = 0usize;
    while done < local.len() {
        let liov = libc::iovec {
            iov_base: local[done..].as_mut_ptr() as *mut libc::c_void,
            iov_len: local.len() - done,
        };
        let riov = libc::iovec {
            iov_base: (remote_addr as usize + done) as *mut libc::c_void,
            iov_len: local.len() - done,
        };
        // SAFETY: liov describes memory we exclusively borrow; the kernel checks riov
        // against the target's mappings and fails with EFAULT rather than touching ours.
        let n = unsafe { libc::process_vm_readv(pid, &liov, 1, &riov, 1, 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 {
            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
        }
        done += n as usize;
    }
    Ok(())
}

/// Write `local` into `remote_addr` in process `pid`.
pub fn write(pid: i32, local: &[u8], remote_addr: u64) -> io::Result<()> {
    let mut done = 0usize;
    while done < local.len() {
        let liov = libc::iovec {
            iov_base: local[done..].as_ptr() as *mut libc::c_void,
            iov_len: local.len() - done,
        };
        let riov = libc::iovec {
            iov_base: (remote_addr as usize + done) as *mut libc::c_void,
            iov_len: local.len() - done,
        };
        // SAFETY: liov is only read by the kernel; riov is checked against the target.
        let n = unsafe { libc::process_vm_writev(pid, &liov, 1, &riov, 1, 0) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 {
            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
        }
        done += n as usize;
    }
    Ok(())
}
