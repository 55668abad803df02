//! A rank's ties to its job: what ends it when the job is gone, and what it does when a
//! peer is.
//!
//! - The parent-death signal is armed in `MPI_Init` by the rank itself, so it holds behind
//!   a wrapper (`time`, a shell script) whose own signal the launcher armed: the wrapper
//!   dies with the launcher, and the rank with the wrapper.
//! - A thread watches the launcher's PMI connection: when the launcher (or a proxy) is
//!   gone, the connection closes and the rank ends within moments, with a message, instead
//!   of waiting forever for peers that are gone with it.
//! - The shm peers' processes are watched by pidfd while a call waits: one that ended
//!   before finalizing turns the wait into a fatal error instead of a spin.
//!
//! `leaving` (finalize, abort) stops both watches: after it the connection may close and
//! peers may go.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Set when this process finalizes or aborts: the job may then go away around it.
static LEAVING: AtomicBool = AtomicBool::new(false);

/// The shm peers being watched: (rank, pid, pidfd), and when they were last checked.
static PEERS: Mutex<Option<Peers>> = Mutex::new(None);

struct Peers {
    watched: Vec<(usize, i32, OwnedFd)>,
    checked: Instant,
}

/// How often a waiting call looks at its peers' processes.
const PEER_CHECK: Duration = Duration::from_millis(100);

/// Arms the parent-death signal behind a wrapper (a parent other than `launcher`, the
/// process at the other end of the PMI connection: a launcher's direct child is the
/// launcher's to end) and starts watching the launcher's connection `pmi_fd` (a launched
/// rank; not for a singleton).
pub fn arm(pmi_fd: RawFd, rank: u32, launcher: Option<i32>) {
    // No check of getppid() after arming: a launcher may itself be pid 1 (a container),
    // and a parent that died before this point closed the PMI connection, which the
    // watch below sees.
    // SAFETY: getppid and prctl take and return plain integers.
    unsafe {
        if launcher != Some(libc::getppid()) {
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            );
        }
    }
    let spawned = std::thread::Builder::new()
        .name("railmpi-launcher-watch".into())
        .spawn(move || watch_launcher(pmi_fd, rank));
    if let Err(e) = spawned {
        tracing::warn!("cannot watch the launcher's connection: {e}");
    }
}

/// This process finalizes or aborts: the launcher's connection may close and peers may
/// end from now on without that being an error.
pub fn leaving() {
    LEAVING.store(true, Ordering::SeqCst);
}

/// Whether this process has begun to finalize or abort.
pub fn is_leaving() -> bool {
    LEAVING.load(Ordering::SeqCst)
}

fn gone(rank: u32, why: &str) -> ! {
    use std::io::Write;
    let _ = std::io::stderr()
        .write_all(format!("railmpi: rank {rank}: the job is gone ({why}); exiting\n").as_bytes());
    // SAFETY: _exit ends the process at once; no memory is touched afterwards. Not exit():
    // the main thread may hold locks the C library's exit handlers would take.
    unsafe { libc::_exit(1) }
}

fn watch_launcher(fd: RawFd, rank: u32) {
    loop {
        let mut p = libc::pollfd {
            fd,
            // Only the hang-up: the data is the PMI client's to read.
            events: libc::POLLRDHUP,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the duration of the call.
        let n = unsafe { libc::poll(&mut p, 1, -1) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        if LEAVING.load(Ordering::SeqCst) {
            return;
        }
        if p.revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            // Finalize or abort may have begun while we woke: then all is well.
            std::thread::sleep(Duration::from_millis(50));
            if LEAVING.load(Ordering::SeqCst) {
                return;
            }
            gone(rank, "the launcher's PMI connection closed");
        }
    }
}

/// Watches the processes of the shm peers `(rank, pid)` (not this process).
pub fn watch_peers(peers: &[(usize, i32)]) {
    let watched = peers
        .iter()
        .filter_map(|&(rank, pid)| {
            // SAFETY: pidfd_open takes a pid and flags; it returns a new descriptor or -1.
            let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
            // SAFETY: a descriptor just returned to us, owned by nobody else.
            (fd >= 0).then(|| (rank, pid, unsafe { OwnedFd::from_raw_fd(fd as RawFd) }))
        })
        .collect();
    *PEERS.lock().unwrap_or_else(|e| e.into_inner()) = Some(Peers {
        watched,
        checked: Instant::now(),
    });
}

/// Called by a waiting call before it sleeps: a watched peer that ended while this process
/// has not begun to finalize is fatal (nothing it was needed for can complete).
pub fn check_peers() {
    if LEAVING.load(Ordering::Relaxed) {
        return;
    }
    let mut guard = PEERS.lock().unwrap_or_else(|e| e.into_inner());
    let Some(peers) = guard.as_mut() else { return };
    let now = Instant::now();
    if now < peers.checked + PEER_CHECK {
        return;
    }
    peers.checked = now;
    for (rank, pid, fd) in &peers.watched {
        let mut p = libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd; zero timeout. A pidfd is readable once its process ended.
        if unsafe { libc::poll(&mut p, 1, 0) } > 0 {
            let msg = format!(
                "rank {rank} (pid {pid}) ended without MPI_Finalize while this rank waits \
                 for communication"
            );
            drop(guard);
            crate::fabric::fatal_after_death(&msg);
        }
    }
}

/// Whether process `pid` has ended (gone, or a zombie nobody reaped yet).
fn ended(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => true,
    }
}

/// A peer's memory could not be opened: when its process has ended, the job is ending
/// (the peer aborted or died, which its launcher acts on). Leave without an error report
/// of our own (an abort with our code), which the launcher could take for the cause.
pub fn exit_if_ended(pid: i32) {
    if !LEAVING.load(Ordering::SeqCst) && ended(pid) {
        crate::fabric::fatal(&format!(
            "process {pid}, a rank of this job, ended while this rank was reaching its memory"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zombie_and_a_reaped_child_have_ended() {
        assert!(!ended(std::process::id() as i32));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id() as i32;
        // Not reaped yet: a zombie once it exits.
        let t = Instant::now();
        while !ended(pid) {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "child {pid} never ended"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        child.wait().unwrap();
        assert!(ended(pid));
    }
}
