//! `userfaultfd(2)`: the kernel tells us when memory we watch is unmapped (`munmap`, `brk`
//! shrinking), dropped (`madvise(MADV_DONTNEED/REMOVE)`) or moved (`mremap`). The
//! registration cache uses these events to forget registrations of memory the application
//! gave back. The structs and ioctl numbers are those of `<linux/userfaultfd.h>` (libc
//! lacks them); their sizes are checked by the tests below.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

const UFFD_API: u64 = 0xAA;
/// `userfaultfd()` flag: only faults from user mode (what unprivileged users may get).
const UFFD_USER_MODE_ONLY: libc::c_int = 1;

pub const FEATURE_EVENT_REMAP: u64 = 1 << 2;
pub const FEATURE_EVENT_REMOVE: u64 = 1 << 3;
pub const FEATURE_EVENT_UNMAP: u64 = 1 << 6;

/// Registration modes of `UFFDIO_REGISTER`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchMode {
    /// Faults on missing pages are reported (and block until resolved).
    Missing = 1,
    /// Faults on write-protected pages are reported; as we never write-protect anything,
    /// this mode delivers the unmap/remove/remap events and no faults at all.
    WriteProtect = 2,
}

const EVENT_PAGEFAULT: u8 = 0x12;
const EVENT_REMAP: u8 = 0x14;
const EVENT_REMOVE: u8 = 0x15;
const EVENT_UNMAP: u8 = 0x16;

#[repr(C)]
#[derive(Default)]
struct UffdioApi {
    api: u64,
    features: u64,
    ioctls: u64,
}

#[repr(C)]
#[derive(Default, Clone, Copy)]
struct UffdioRange {
    start: u64,
    len: u64,
}

#[repr(C)]
#[derive(Default)]
struct UffdioRegister {
    range: UffdioRange,
    mode: u64,
    ioctls: u64,
}

/// `struct uffd_msg` (packed, 32 bytes): event byte, 7 reserved bytes, 24 bytes of
/// arguments whose meaning depends on the event.
#[repr(C, packed)]
#[derive(Clone, Copy)]
struct UffdMsg {
    event: u8,
    reserved1: u8,
    reserved2: u16,
    reserved3: u32,
    arg: [u64; 3],
}

const fn ioc(dir: u64, nr: u64, size: usize) -> u64 {
    (dir << 30) | ((size as u64) << 16) | (UFFD_API << 8) | nr
}
const IOC_WRITE: u64 = 1;
const IOC_READ: u64 = 2;
const UFFDIO_API: u64 = ioc(IOC_READ | IOC_WRITE, 0x3F, std::mem::size_of::<UffdioApi>());
const UFFDIO_REGISTER: u64 = ioc(
    IOC_READ | IOC_WRITE,
    0x00,
    std::mem::size_of::<UffdioRegister>(),
);
const UFFDIO_UNREGISTER: u64 = ioc(IOC_READ, 0x01, std::mem::size_of::<UffdioRange>());
const UFFDIO_WAKE: u64 = ioc(IOC_READ, 0x02, std::mem::size_of::<UffdioRange>());

/// What the kernel reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// `[start, end)` was unmapped (`munmap`, `brk`, `mremap` shrinking, `MAP_FIXED` over it).
    Unmap {
        start: usize,
        end: usize,
    },
    /// `[start, end)` lost its pages (`MADV_DONTNEED`, `MADV_REMOVE`); still mapped.
    Remove {
        start: usize,
        end: usize,
    },
    /// `len` bytes moved from `from` to `to` (`mremap`); the watch moves with them.
    Remap {
        from: usize,
        to: usize,
        len: usize,
    },
    /// A thread faulted on a watched page and waits until the page is resolved or woken.
    PageFault {
        addr: usize,
    },
    Other(u8),
}

/// An open, API-negotiated userfaultfd.
pub struct Uffd {
    fd: OwnedFd,
    features: u64,
}

impl Uffd {
    /// Open one with the unmap/remove/remap events, non-blocking. Tries full mode first,
    /// then `UFFD_USER_MODE_ONLY` (allowed to unprivileged users when
    /// `vm.unprivileged_userfaultfd=0`).
    pub fn open() -> io::Result<Uffd> {
        let base = libc::O_CLOEXEC | libc::O_NONBLOCK;
        let mut fd = sys_userfaultfd(base);
        if matches!(&fd, Err(e) if e.raw_os_error() == Some(libc::EPERM)) {
            fd = sys_userfaultfd(base | UFFD_USER_MODE_ONLY);
        }
        let fd = fd?;
        let mut api = UffdioApi {
            api: UFFD_API,
            features: FEATURE_EVENT_UNMAP | FEATURE_EVENT_REMOVE | FEATURE_EVENT_REMAP,
            ioctls: 0,
        };
        // SAFETY: UFFDIO_API reads and writes one struct uffdio_api, which `api` is.
        let rc = unsafe { libc::ioctl(fd.as_raw_fd(), UFFDIO_API as _, &mut api) };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Uffd {
            fd,
            features: api.features,
        })
    }

    /// The features the kernel granted.
    pub fn features(&self) -> u64 {
        self.features
    }

    /// Watch `[addr, addr+len)` (page-aligned) in `mode`.
    pub fn register(&self, addr: usize, len: usize, mode: WatchMode) -> io::Result<()> {
        let mut reg = UffdioRegister {
            range: UffdioRange {
                start: addr as u64,
                len: len as u64,
            },
            mode: mode as u64,
            ioctls: 0,
        };
        // SAFETY: UFFDIO_REGISTER reads and writes one struct uffdio_register.
        let rc = unsafe { libc::ioctl(self.fd.as_raw_fd(), UFFDIO_REGISTER as _, &mut reg) };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Stop watching `[addr, addr+len)`; threads blocked on faults there are woken.
    pub fn unregister(&self, addr: usize, len: usize) -> io::Result<()> {
        self.range_ioctl(UFFDIO_UNREGISTER, addr, len)
    }

    /// Wake threads blocked on faults in `[addr, addr+len)` (they retry the fault).
    pub fn wake(&self, addr: usize, len: usize) -> io::Result<()> {
        self.range_ioctl(UFFDIO_WAKE, addr, len)
    }

    fn range_ioctl(&self, req: u64, addr: usize, len: usize) -> io::Result<()> {
        let r = UffdioRange {
            start: addr as u64,
            len: len as u64,
        };
        // SAFETY: these ioctls read one struct uffdio_range.
        let rc = unsafe { libc::ioctl(self.fd.as_raw_fd(), req as _, &r) };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Read the events queued now into `out` (cleared first), without blocking. Reading an
    /// unmap/remove/remap event is what lets the thread that caused it continue.
    pub fn read_events(&self, out: &mut [Event; 16]) -> io::Result<usize> {
        let mut msgs = [UffdMsg {
            event: 0,
            reserved1: 0,
            reserved2: 0,
            reserved3: 0,
            arg: [0; 3],
        }; 16];
        // SAFETY: the buffer is 16 whole uffd_msg records; the kernel writes whole records.
        let n = unsafe {
            libc::read(
                self.fd.as_raw_fd(),
                msgs.as_mut_ptr() as *mut libc::c_void,
                std::mem::size_of_val(&msgs),
            )
        };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::WouldBlock {
                return Ok(0);
            }
            return Err(e);
        }
        let count = n as usize / std::mem::size_of::<UffdMsg>();
        for (o, m) in out.iter_mut().zip(&msgs[..count]) {
            let arg = m.arg;
            *o = match m.event {
                EVENT_UNMAP => Event::Unmap {
                    start: arg[0] as usize,
                    end: arg[1] as usize,
                },
                EVENT_REMOVE => Event::Remove {
                    start: arg[0] as usize,
                    end: arg[1] as usize,
                },
                EVENT_REMAP => Event::Remap {
                    from: arg[0] as usize,
                    to: arg[1] as usize,
                    len: arg[2] as usize,
                },
                // pagefault: flags, address, thread id.
                EVENT_PAGEFAULT => Event::PageFault {
                    addr: arg[1] as usize,
                },
                e => Event::Other(e),
            };
        }
        Ok(count)
    }
}

impl AsRawFd for Uffd {
    fn as_raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

fn sys_userfaultfd(flags: libc::c_int) -> io::Result<OwnedFd> {
    // SAFETY: userfaultfd takes an integer flag word and returns a new descriptor.
    let fd = unsafe { libc::syscall(libc::SYS_userfaultfd, flags) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fd is a fresh descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_match_the_kernel_header() {
        assert_eq!(std::mem::size_of::<UffdioApi>(), 24);
        assert_eq!(std::mem::size_of::<UffdioRange>(), 16);
        assert_eq!(std::mem::size_of::<UffdioRegister>(), 32);
        assert_eq!(std::mem::size_of::<UffdMsg>(), 32);
        // The numbers <linux/userfaultfd.h> yields on x86-64 and arm64.
        assert_eq!(UFFDIO_API, 0xC018_AA3F);
        assert_eq!(UFFDIO_REGISTER, 0xC020_AA00);
        assert_eq!(UFFDIO_UNREGISTER, 0x8010_AA01);
        assert_eq!(UFFDIO_WAKE, 0x8010_AA02);
    }
}
