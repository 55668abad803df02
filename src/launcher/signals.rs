//! SIGINT / SIGTERM / SIGHUP handling for mpiexec: the handler only records the signal in
//! an atomic bit set; the event loop picks it up (poll returns early with EINTR) and
//! forwards it to the ranks.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bit `n` set: signal `n` arrived and has not been taken yet.
static PENDING: AtomicU64 = AtomicU64::new(0);

/// The signals mpiexec catches and forwards.
pub const FORWARDED: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn on_signal(sig: libc::c_int) {
    // Only an atomic read-modify-write: async-signal-safe.
    if (0..64).contains(&sig) {
        PENDING.fetch_or(1 << sig, Ordering::SeqCst);
    }
}

/// Installs the handler for [`FORWARDED`] signals (without `SA_RESTART`, so a blocking
/// `poll` returns with `EINTR`).
pub fn install() -> io::Result<()> {
    for sig in FORWARDED {
        // SAFETY: `sa` is fully initialised (zeroed, then handler and empty mask set)
        // before `sigaction` reads it; the handler is async-signal-safe (one atomic op)
        // and lives for the whole program.
        let rc = unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut sa.sa_mask);
            sa.sa_flags = 0;
            libc::sigaction(sig, &sa, std::ptr::null_mut())
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Takes the signals received since the last call, lowest number first.
pub fn take() -> Vec<libc::c_int> {
    let bits = PENDING.swap(0, Ordering::SeqCst);
    (0..64).filter(|s| bits & (1 << s) != 0).collect()
}

/// A short name for a signal number (`SIGKILL`), or `signal N`.
pub fn name(sig: i32) -> String {
    let n = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("signal {sig}"),
    };
    n.to_string()
}
