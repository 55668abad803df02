//! The userfaultfd watcher: a thread that reads the kernel's unmap/remove/remap events for
//! the cached ranges and queues them; the registry applies the queue under its own lock
//! before every lookup.
//!
//! Why a queue rather than applying events in the thread: the thread that unmaps waits in
//! the kernel until its event is *read*. If reading needed the registry's lock, a thread
//! holding that lock whose `free()` trims the heap over a watched range would wait for the
//! monitor, which would wait for the lock. Here the monitor needs only the queue's lock and
//! never allocates or frees (the queue's capacity is fixed), so it always gets to `read`.
//! Reads happen under the queue's lock, so once `munmap` has returned, its event is in the
//! queue: the next lookup cannot miss it.

use crate::sys::userfaultfd::{Event, Uffd, WatchMode};
use crate::sys::vmem;
use parking_lot::Mutex;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Events the queue holds; past that it records an overflow (the registry then drops every
/// watched entry, which is always safe).
pub(crate) const QUEUE_CAPACITY: usize = 1024;

pub(crate) struct Queue {
    pub events: Vec<Event>,
    pub overflow: bool,
}

pub(crate) struct Monitor {
    pub uffd: Arc<Uffd>,
    pub mode: WatchMode,
    pub queue: Arc<Mutex<Queue>>,
    stop: OwnedFd,
    thread: Option<JoinHandle<()>>,
}

impl Monitor {
    /// Open a userfaultfd, find a watch mode the kernel accepts, start the thread.
    pub fn start() -> std::io::Result<Monitor> {
        let uffd = Arc::new(Uffd::open()?);
        let mode = probe_mode(&uffd)?;
        // SAFETY: eventfd takes integers and returns a new descriptor we then own.
        let efd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        if efd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: efd is fresh and ours.
        let stop = unsafe { OwnedFd::from_raw_fd(efd) };
        let queue = Arc::new(Mutex::new(Queue {
            events: Vec::with_capacity(QUEUE_CAPACITY),
            overflow: false,
        }));
        let (u, q, s) = (uffd.clone(), queue.clone(), stop.as_raw_fd());
        let thread = std::thread::Builder::new()
            .name("railmpi-uffd".into())
            .spawn(move || run(&u, &q, s))?;
        Ok(Monitor {
            uffd,
            mode,
            queue,
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Monitor {
    fn drop(&mut self) {
        let one: u64 = 1;
        // SAFETY: writes 8 bytes from `one` to our eventfd.
        unsafe { libc::write(self.stop.as_raw_fd(), &one as *const u64 as *const _, 8) };
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Write-protect mode delivers the events and, since we write-protect nothing, never a
/// fault: the application can never block on a watched page. Older kernels (or memory
/// that mode does not cover) get missing mode, where the monitor unblocks any fault.
fn probe_mode(uffd: &Uffd) -> std::io::Result<WatchMode> {
    let page = vmem::page_size();
    // SAFETY: a fresh private anonymous page, unmapped below.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            page,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    let mode = if uffd
        .register(p as usize, page, WatchMode::WriteProtect)
        .is_ok()
    {
        WatchMode::WriteProtect
    } else {
        WatchMode::Missing
    };
    let _ = uffd.unregister(p as usize, page);
    // SAFETY: our page from above, no longer watched (an unmap event would need a reader).
    unsafe { libc::munmap(p, page) };
    Ok(mode)
}

fn run(uffd: &Uffd, queue: &Mutex<Queue>, stop: i32) {
    let page = vmem::page_size();
    let mut batch = [Event::Other(0); 16];
    loop {
        let mut fds = [
            libc::pollfd {
                fd: uffd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: stop,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: fds is an array of two pollfd.
        let rc = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
        if rc < 0 || fds[1].revents != 0 {
            if rc < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        let mut q = queue.lock();
        loop {
            let n = match uffd.read_events(&mut batch) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            for &ev in &batch[..n] {
                if let Event::PageFault { addr } = ev {
                    // Missing mode only: a watched page lost its contents. Stop watching
                    // it (that wakes the faulting thread, whose fault then proceeds as
                    // usual) and have the registry drop what covered it.
                    let at = addr & !(page - 1);
                    let _ = uffd.unregister(at, page);
                }
                if q.events.len() < q.events.capacity() {
                    q.events.push(ev);
                } else {
                    q.overflow = true;
                }
            }
        }
    }
}
