//! Virtual-memory calls the registration layer uses: `mlock`/`munlock` (pin pages),
//! `madvise(MADV_POPULATE_*)` (fault pages in ahead of a transfer), `mincore` (which pages
//! are resident, and whether a range is mapped at all), the kernel's count of locked memory
//! (`VmLck`), and `mallopt` to keep the allocator from returning memory to the OS.
//! All take page-aligned ranges unless said otherwise.

use std::io;
use std::sync::atomic::{AtomicU8, Ordering};

/// `MADV_POPULATE_READ` / `MADV_POPULATE_WRITE` (Linux 5.14; not in every libc).
const MADV_POPULATE_READ: libc::c_int = 22;
const MADV_POPULATE_WRITE: libc::c_int = 23;

pub fn page_size() -> usize {
    // SAFETY: sysconf has no memory arguments.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as usize
    } else {
        4096
    }
}

fn check(rc: libc::c_int) -> io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Lock `[addr, addr+len)` in memory (and fault it in). ENOMEM: over `RLIMIT_MEMLOCK`
/// (without `CAP_IPC_LOCK`) or part of the range is not mapped; EPERM: limit is 0.
pub fn mlock(addr: usize, len: usize) -> io::Result<()> {
    // SAFETY: mlock changes page state only; it checks the range against our mappings.
    check(unsafe { libc::mlock(addr as *const libc::c_void, len) })
}

pub fn munlock(addr: usize, len: usize) -> io::Result<()> {
    // SAFETY: as mlock.
    check(unsafe { libc::munlock(addr as *const libc::c_void, len) })
}

/// Which way a transfer will touch memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// The memory is read (a send buffer): read faults suffice.
    Read,
    /// The memory is written (a receive buffer): fault pages in writable, so the copy does
    /// not take a second (copy-on-write) fault.
    Write,
}

/// How `populate` did it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Populated {
    /// `MADV_POPULATE_*`.
    Madvise,
    /// Older kernels: one touch per page.
    Touched,
}

/// Fault `[addr, addr+len)` in without changing its contents.
pub fn populate(addr: usize, len: usize, access: Access) -> io::Result<Populated> {
    let advice = match access {
        Access::Read => MADV_POPULATE_READ,
        Access::Write => MADV_POPULATE_WRITE,
    };
    // SAFETY: madvise with these advices only faults pages in; it checks the range.
    let rc = unsafe { libc::madvise(addr as *mut libc::c_void, len, advice) };
    if rc == 0 {
        return Ok(Populated::Madvise);
    }
    let e = io::Error::last_os_error();
    if e.raw_os_error() != Some(libc::EINVAL) {
        // ENOMEM: not mapped; EFAULT/EPERM: not accessible that way. Not a kernel age issue.
        return Err(e);
    }
    // EINVAL: advice unknown (kernel < 5.14). Touching an unmapped page would crash, so
    // check the mapping first.
    if !is_mapped(addr, len) {
        return Err(io::Error::from_raw_os_error(libc::ENOMEM));
    }
    // SAFETY: as above; WILLNEED only starts read-ahead.
    unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_WILLNEED) };
    let page = page_size();
    let mut p = addr;
    while p < addr + len {
        // SAFETY: the page is mapped (checked above) and, the caller registered it for this
        // access, readable/writable. An atomic add of 0 writes without changing the byte,
        // even if another thread writes it concurrently; a volatile read only reads.
        unsafe {
            match access {
                Access::Read => {
                    std::ptr::read_volatile(p as *const u8);
                }
                Access::Write => {
                    (*(p as *const AtomicU8)).fetch_add(0, Ordering::Relaxed);
                }
            }
        }
        p += page;
    }
    Ok(Populated::Touched)
}

/// Run `mincore` over `[addr, addr+len)` in chunks and hand each residency byte to `f`.
/// ENOMEM if part of the range is not mapped.
fn mincore_each(addr: usize, len: usize, mut f: impl FnMut(u8)) -> io::Result<()> {
    let page = page_size();
    let mut vec = [0u8; 4096];
    let mut p = addr;
    let end = addr + len;
    while p < end {
        let n = ((end - p).div_ceil(page)).min(vec.len());
        // SAFETY: vec holds n bytes, one per page of the n-page range queried.
        let rc = unsafe {
            libc::mincore(
                p as *mut libc::c_void,
                n * page,
                vec.as_mut_ptr() as *mut libc::c_uchar,
            )
        };
        check(rc)?;
        vec[..n].iter().for_each(|&b| f(b));
        p += n * page;
    }
    Ok(())
}

/// Whether every page of `[addr, addr+len)` is mapped.
pub fn is_mapped(addr: usize, len: usize) -> bool {
    mincore_each(addr, len, |_| {}).is_ok()
}

/// Pages of `[addr, addr+len)` not resident in memory (a transfer touching them faults).
pub fn count_nonresident(addr: usize, len: usize) -> io::Result<usize> {
    let mut n = 0;
    mincore_each(addr, len, |b| n += usize::from(b & 1 == 0))?;
    Ok(n)
}

/// The end of the mapping (VMA) that contains `addr`, from `/proc/self/maps`.
pub fn mapping_end(addr: usize) -> Option<usize> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines().find_map(|l| {
        let (s, e) = l.split_whitespace().next()?.split_once('-')?;
        let (s, e) = (
            usize::from_str_radix(s, 16).ok()?,
            usize::from_str_radix(e, 16).ok()?,
        );
        (s <= addr && addr < e).then_some(e)
    })
}

/// The kernel's count of this process's locked memory, in bytes (`VmLck`).
pub fn locked_bytes() -> io::Result<usize> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmLck:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map(|kb| kb * 1024)
        .ok_or_else(|| io::Error::other("no VmLck in /proc/self/status"))
}

/// Keep glibc's malloc from giving memory back: never trim the heap top, never serve an
/// allocation with its own `mmap` (which `free` would `munmap`). Woodall's "disable sbrk":
/// memory a registration covers then stays mapped at the same address for the process's
/// life. True if both settings were taken.
pub fn keep_allocator_memory() -> bool {
    // SAFETY: mallopt takes two integers.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, -1) == 1 && libc::mallopt(libc::M_MMAP_MAX, 0) == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residency_and_mapping() {
        let page = page_size();
        let len = 8 * page;
        // SAFETY: a fresh anonymous mapping, unmapped at the end.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        } as usize;
        assert_ne!(p as *mut libc::c_void, libc::MAP_FAILED);
        assert_eq!(count_nonresident(p, len).unwrap(), 8);
        // SAFETY: p is our mapping; write 7 into its second page.
        unsafe { *((p + page) as *mut u8) = 7 };
        assert_eq!(count_nonresident(p, len).unwrap(), 7);
        populate(p, 4 * page, Access::Write).unwrap();
        assert_eq!(count_nonresident(p, len).unwrap(), 4);
        // SAFETY: still our mapping.
        assert_eq!(
            unsafe { *((p + page) as *const u8) },
            7,
            "populate kept the data"
        );
        assert!(is_mapped(p, len));
        // SAFETY: unmapping the last page of our mapping.
        unsafe { libc::munmap((p + 7 * page) as *mut libc::c_void, page) };
        assert!(!is_mapped(p, len));
        assert!(populate(p, len, Access::Read).is_err());
        // SAFETY: the rest of our mapping.
        unsafe { libc::munmap(p as *mut libc::c_void, 7 * page) };
    }
}
