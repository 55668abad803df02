//! Cross Memory Attach: `process_vm_readv` / `process_vm_writev` between processes of one
//! node, the shm rail's RDMA read and write.

use std::io::{self, IoSliceMut};

/// A range in another process's address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemoteRange {
    pub addr: u64,
    pub len: usize,
}

/// What a process does so that its shm peers may attach to it with CMA (which needs
/// ptrace access), given Yama's `ptrace_scope` (`None`: no Yama).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ptracer {
    /// Nothing to widen: no Yama, scope 0 (the classic same-user rule), or CMA not used.
    Unchanged,
    /// Scope 1 allows only descendants of a declared process: the launcher, whose
    /// descendants the peers are.
    Launcher(i32),
    /// Scope 1 and no launcher known: any process of this user.
    Any,
    /// Scope 2 or more: only a privileged tracer may attach; no declaration helps.
    Denied,
}

impl Ptracer {
    pub fn choose(yama_scope: Option<u32>, cma: bool, launcher: Option<i32>) -> Ptracer {
        match (cma, yama_scope) {
            (false, _) | (true, None | Some(0)) => Ptracer::Unchanged,
            (true, Some(1)) => launcher.map_or(Ptracer::Any, Ptracer::Launcher),
            (true, Some(_)) => Ptracer::Denied,
        }
    }
}

/// Yama's `ptrace_scope`, `None` where Yama is not in the kernel.
pub fn yama_scope() -> Option<u32> {
    std::fs::read_to_string("/proc/sys/kernel/yama/ptrace_scope")
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Declares the ptracer `p` asks for (says so at `info`); `revert` takes it back.
pub fn declare_ptracer(p: Ptracer) {
    let who = match p {
        Ptracer::Launcher(pid) => {
            tracing::info!(
                launcher = pid,
                "Yama ptrace_scope 1: letting the launcher's descendants (the job's ranks) \
                 attach for Cross Memory Attach (RAILMPI_SHM_CMA=0 avoids it)"
            );
            pid as libc::c_ulong
        }
        Ptracer::Any => {
            tracing::info!(
                "Yama ptrace_scope 1 and no launcher process known: letting any process of \
                 this user attach for Cross Memory Attach (RAILMPI_SHM_CMA=0 avoids it)"
            );
            libc::PR_SET_PTRACER_ANY
        }
        Ptracer::Unchanged | Ptracer::Denied => return,
    };
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_PTRACER, who, 0, 0, 0) };
}

/// Takes back what `declare_ptracer` allowed (CMA turned out unusable).
pub fn revoke_ptracer() {
    // SAFETY: prctl with integer arguments only; 0 clears the declaration.
    unsafe { libc::prctl(libc::PR_SET_PTRACER, 0, 0, 0, 0) };
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
    fn ptracer_widens_only_under_yama_scope_1_with_cma() {
        assert_eq!(Ptracer::choose(None, true, Some(7)), Ptracer::Unchanged);
        assert_eq!(Ptracer::choose(Some(0), true, Some(7)), Ptracer::Unchanged);
        assert_eq!(Ptracer::choose(Some(1), false, Some(7)), Ptracer::Unchanged);
        assert_eq!(
            Ptracer::choose(Some(1), true, Some(7)),
            Ptracer::Launcher(7)
        );
        assert_eq!(Ptracer::choose(Some(1), true, None), Ptracer::Any);
        assert_eq!(Ptracer::choose(Some(2), true, Some(7)), Ptracer::Denied);
        assert_eq!(Ptracer::choose(Some(3), true, None), Ptracer::Denied);
    }

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
