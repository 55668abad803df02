//! Cross Memory Attach: `process_vm_readv` / `process_vm_writev` between processes of one
//! node, the shm rail's RDMA read and write.

use std::io::{self, IoSliceMut};

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

/// Most iovecs one `process_vm_readv` takes on each side (the kernel's UIO_MAXIOV).
pub const IOV_MAX: usize = 1024;

/// Read the `remote` ranges of process `pid`, in order, into the `local` slices, in order:
/// at most `IOV_MAX` entries per side and call, continuing after partial transfers. Stops
/// when either list is used up.
pub fn readv(pid: i32, local: &mut [IoSliceMut<'_>], remote: &[RemoteRange]) -> io::Result<()> {
    let local: Vec<(usize, usize)> = local
        .iter_mut()
        .map(|s| (s.as_mut_ptr() as usize, s.len()))
        .collect();
    // SAFETY: every local range is a live, exclusively borrowed slice.
    unsafe { transfer_vectored(Direction::Read, pid, &local, remote) }
}

/// Which way a vectored transfer moves bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the remote ranges into the local ones (`process_vm_readv`).
    Read,
    /// From the local ranges into the remote ones (`process_vm_writev`).
    Write,
}

/// Move bytes between our `local` (address, length) ranges and the `remote` ranges of
/// process `pid`, both in order: at most `IOV_MAX` entries per side and call, continuing
/// after partial transfers. Stops when either list is used up.
///
/// # Safety
/// Each local range must be valid for its length: writable for `Read`, readable for
/// `Write`, and not touched by anyone else during the call.
pub unsafe fn transfer_vectored(
    dir: Direction,
    pid: i32,
    local: &[(usize, usize)],
    remote: &[RemoteRange],
) -> io::Result<()> {
    let mut liov: Vec<libc::iovec> = local
        .iter()
        .filter(|s| s.1 > 0)
        .map(|&(a, n)| libc::iovec {
            iov_base: a as *mut libc::c_void,
            iov_len: n,
        })
        .collect();
    let mut riov: Vec<libc::iovec> = remote
        .iter()
        .filter(|r| r.len > 0)
        .map(|r| libc::iovec {
            iov_base: r.addr as usize as *mut libc::c_void,
            iov_len: r.len,
        })
        .collect();
    let call: VmCall = match dir {
        Direction::Read => libc::process_vm_readv,
        Direction::Write => libc::process_vm_writev,
    };
    let (mut li, mut ri) = (0, 0);
    while li < liov.len() && ri < riov.len() {
        let ln = (liov.len() - li).min(IOV_MAX);
        let rn = (riov.len() - ri).min(IOV_MAX);
        // SAFETY: the local iovecs are the caller's valid ranges (or their untransferred
        // tails); the kernel checks the remote ones against the target's mappings and
        // fails with EFAULT rather than touching anything else.
        let n = call(
            pid,
            liov[li..].as_ptr(),
            ln as libc::c_ulong,
            riov[ri..].as_ptr(),
            rn as libc::c_ulong,
            0,
        );
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 {
            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
        }
        advance(&mut liov, &mut li, n as usize);
        advance(&mut riov, &mut ri, n as usize);
    }
    Ok(())
}

/// Move the cursor `(v, i)` past `n` transferred bytes.
fn advance(v: &mut [libc::iovec], i: &mut usize, mut n: usize) {
    while n > 0 && *i < v.len() {
        let e = &mut v[*i];
        if n < e.iov_len {
            e.iov_base = (e.iov_base as usize + n) as *mut libc::c_void;
            e.iov_len -= n;
            return;
        }
        n -= e.iov_len;
        *i += 1;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readv_gathers_more_runs_than_one_call_takes() {
        // Read from ourselves: 3000 remote runs of 8 bytes (stride 16) into 1500 local runs
        // of 16 bytes, so both sides pass IOV_MAX and entries split across calls.
        let src: Vec<u8> = (0..48_000u32).map(|i| (i * 13 + 1) as u8).collect();
        let remote: Vec<RemoteRange> = (0..3000)
            .map(|k| RemoteRange {
                addr: src.as_ptr() as u64 + 16 * k as u64,
                len: 8,
            })
            .collect();
        let mut dst = vec![0u8; 1500 * 32];
        let mut local: Vec<IoSliceMut> = dst
            .chunks_mut(32)
            .map(|c| IoSliceMut::new(&mut c[..16]))
            .collect();
        readv(std::process::id() as i32, &mut local, &remote).unwrap();
        for k in 0..3000 {
            let d = (k / 2) * 32 + (k % 2) * 8;
            assert_eq!(&dst[d..d + 8], &src[16 * k..16 * k + 8], "run {k}");
        }
        assert!(dst.chunks(32).all(|c| c[16..].iter().all(|&b| b == 0)));
    }
}
