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

type VmCall = unsafe extern "C" fn(
    libc::pid_t,
    *const libc::iovec,
    libc::c_ulong,
    *const libc::iovec,
    libc::c_ulong,
    libc::c_ulong,
) -> libc::ssize_t;

/// Move `len` bytes between `local` (ours) and `remote_addr` in `pid` with `call`,
/// continuing after partial transfers.
///
/// # Safety
/// `local` must be valid for `len` bytes in the direction `call` uses it.
unsafe fn transfer(
    call: VmCall,
    pid: i32,
    local: *mut u8,
    len: usize,
    remote_addr: u64,
) -> io::Result<()> {
    let mut done = 0usize;
    while done < len {
        let liov = libc::iovec {
            iov_base: local.add(done) as *mut libc::c_void,
            iov_len: len - done,
        };
        let riov = libc::iovec {
            iov_base: (remote_addr as usize + done) as *mut libc::c_void,
            iov_len: len - done,
        };
        // The kernel checks riov against the target's mappings and fails with EFAULT
        // rather than touching anything else; liov is ours (caller's contract).
        let n = call(pid, &liov, 1, &riov, 1, 0);
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

/// Read `local.len()` bytes from `remote_addr` in process `pid` into `local`.
pub fn read(pid: i32, local: &mut [u8], remote_addr: u64) -> io::Result<()> {
    // SAFETY: `local` is exclusively borrowed for its length; the kernel writes into it.
    unsafe {
        transfer(
            libc::process_vm_readv,
            pid,
            local.as_mut_ptr(),
            local.len(),
            remote_addr,
        )
    }
}

/// Write `local` into `remote_addr` in process `pid`.
pub fn write(pid: i32, local: &[u8], remote_addr: u64) -> io::Result<()> {
    // SAFETY: process_vm_writev only reads `local`, which is borrowed for its length.
    unsafe {
        transfer(
            libc::process_vm_writev,
            pid,
            local.as_ptr() as *mut u8,
            local.len(),
            remote_addr,
        )
    }
}
