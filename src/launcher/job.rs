//! One job on this node: starting the ranks, the event loop (PMI service, output
//! forwarding, reaping, signals, timeout) and the exit policy.
//!
//! Exit policy:
//! - every rank exits 0 after PMI finalize (or never used PMI) → 0;
//! - the first rank to fail decides the status: its exit status, 128+N when killed by
//!   signal N, the abort code when it sent `cmd=abort`; the others are then sent SIGTERM,
//!   and SIGKILL 500 ms later; statuses of ranks killed that way are ignored;
//! - a rank that exits 0 after using PMI but without finalize is not a failure by itself
//!   (as with Hydra; some programs, e.g. OSU's osu_latency_mt, never call MPI_Finalize),
//!   but the others then have `UNFINALIZED_GRACE` to finish: ranks still running after that
//!   are presumably waiting for the one that left, and the job fails with status 1;
//! - `--timeout` expiry → the same kill sequence and status 124;
//! - SIGINT/SIGTERM/SIGHUP to mpiexec are forwarded to every rank; ranks dying of it are
//!   failures like any other; a second signal kills every rank with SIGKILL at once
//!   (status 128 + that signal).

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::args::Options;
use super::output::{Sink, TaggedPipe};
use super::pmi_server::{Effect, PmiServer};
use super::signals;
use crate::runtime::pmi::wire::{self, LineBuffer};

/// How long the other ranks may run on after one exited without MPI_Finalize.
const UNFINALIZED_GRACE: Duration = Duration::from_secs(10);
/// Longest wait in one `poll` (the reaping and timeout granularity).
const POLL_INTERVAL: Duration = Duration::from_millis(100);
/// SIGTERM → SIGKILL delay when tearing a job down.
const KILL_GRACE: Duration = Duration::from_millis(500);
/// After the last rank has exited, how long to keep forwarding tagged output that a
/// rank's descendants may still be writing.
const OUTPUT_DRAIN: Duration = Duration::from_secs(1);
/// Exit status for `--timeout`.
pub const TIMEOUT_STATUS: i32 = 124;

/// The parent's side of one rank.
struct Rank {
    rank: u32,
    pid: u32,
    child: Child,
    /// Set once reaped.
    status: Option<ExitStatus>,
    /// Parent's end of the PMI socket; `None` after EOF or an error.
    pmi: Option<UnixStream>,
    inbuf: LineBuffer,
    outbuf: Vec<u8>,
    /// `--tag-output` pipes (stdout, stderr).
    pipes: Vec<TaggedPipe>,
}

impl Rank {
    fn alive(&self) -> bool {
        self.status.is_none()
    }

    fn signal(&self, sig: libc::c_int) {
        if self.alive() {
            // SAFETY: kill(2) has no memory-safety preconditions. The pid is our child
            // and not yet reaped (status is None), so it cannot have been reused.
            unsafe { libc::kill(self.pid as libc::pid_t, sig) };
        }
    }

    /// Writes queued replies until done or the socket is full.
    fn flush(&mut self) {
        let Some(sock) = self.pmi.as_mut() else {
            self.outbuf.clear();
            return;
        };
        while !self.outbuf.is_empty() {
            match sock.write(&self.outbuf) {
                Ok(n) => {
                    self.outbuf.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    // The rank closed its end (it is exiting); reaping judges it.
                    self.pmi = None;
                    self.outbuf.clear();
                    return;
                }
            }
        }
    }

    /// Reads what the PMI socket has; returns the complete lines (or the framing error
    /// that ends this connection).
    fn read_lines(&mut self) -> Vec<Result<String, wire::WireError>> {
        let mut lines = Vec::new();
        let mut chunk = [0u8; 8192];
        // At most 64 reads per call, so one chatty rank cannot starve the others.
        for _ in 0..64 {
            let Some(sock) = self.pmi.as_mut() else { break };
            match sock.read(&mut chunk) {
                Ok(0) => self.pmi = None,
                Ok(n) => self.inbuf.push(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => self.pmi = None,
            }
            // Take lines as they come so the buffer never holds more than one partial line.
            if !self.take_lines(&mut lines) {
                break;
            }
        }
        lines
    }

    /// Moves complete lines to `lines`; `false` after a framing error (connection closed).
    fn take_lines(&mut self, lines: &mut Vec<Result<String, wire::WireError>>) -> bool {
        while let Some(l) = self.inbuf.next_line() {
            let bad = l.is_err();
            lines.push(l);
            if bad {
                self.pmi = None;
                return false;
            }
        }
        true
    }
}

/// Why the job is ending early.
struct Failure {
    status: i32,
}

struct Job<'a> {
    opts: &'a Options,
    server: PmiServer,
    ranks: Vec<Rank>,
    failure: Option<Failure>,
    /// When SIGTERM went to all ranks (teardown started).
    kill_started: Option<Instant>,
    sent_sigkill: bool,
    /// A signal to mpiexec was forwarded to the ranks (a second one kills them).
    forwarded_signal: bool,
    deadline: Option<Instant>,
    /// A rank exited 0 without finalize: (who, when).
    unfinalized_exit: Option<(String, Instant)>,
}

/// The job's kvsname, derived from mpiexec's pid.
pub fn kvsname_for_pid(pid: u32) -> String {
    format!("railmpi_{pid}_0")
}

/// Runs the job described by `opts` to completion; returns mpiexec's exit status.
pub fn run(opts: &Options) -> i32 {
    let kvsname = kvsname_for_pid(std::process::id());
    if let Err(e) = signals::install() {
        eprintln!("mpiexec: cannot install signal handlers: {e}");
        return 1;
    }
    let mut job = Job {
        opts,
        server: PmiServer::new(&kvsname, opts.nprocs),
        ranks: Vec::with_capacity(opts.nprocs as usize),
        failure: None,
        kill_started: None,
        sent_sigkill: false,
        forwarded_signal: false,
        deadline: opts.timeout.map(|t| Instant::now() + t),
        unfinalized_exit: None,
    };
    // The secret tcp connections prove (fabric::tcp::auth): drawn here, known only to the
    // job's processes (an environment is readable by its user alone).
    let secret = crate::fabric::tcp::secret_to_hex(&crate::fabric::tcp::random());
    for rank in 0..opts.nprocs {
        match spawn_rank(opts, rank, &secret) {
            Ok(r) => job.ranks.push(r),
            Err(e) => {
                let status = match e.kind() {
                    io::ErrorKind::NotFound => 127,
                    io::ErrorKind::PermissionDenied => 126,
                    _ => 1,
                };
                job.fail(
                    status,
                    format!("cannot start rank {rank} ({}): {e}", opts.program),
                );
                break;
            }
        }
    }
    let status = job.event_loop();
    remove_shm_files(&kvsname);
    status
}

/// Starts one rank with its end of a fresh PMI socketpair.
fn spawn_rank(opts: &Options, rank: u32, secret: &str) -> io::Result<Rank> {
    // Both ends are close-on-exec: no rank inherits another rank's socket or ours.
    let (parent_end, child_end) = UnixStream::pair()?;
    parent_end.set_nonblocking(true)?;
    let child_fd = child_end.as_raw_fd();
    let n = opts.nprocs.to_string();
    let r = rank.to_string();

    let mut cmd = Command::new(&opts.program);
    cmd.args(&opts.args);
    for (k, v) in &opts.env {
        cmd.env(k, v);
    }
    cmd.env("PMI_FD", child_fd.to_string())
        .env("PMI_RANK", &r)
        .env("PMI_SIZE", &n)
        .env("MPI_LOCALRANKID", &r)
        .env("MPI_LOCALNRANKS", &n)
        .env("RAILMPI_JOB_SECRET", secret);
    cmd.stdin(if rank == 0 {
        Stdio::inherit()
    } else {
        Stdio::null()
    });
    if opts.tag_output {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    }
    // SAFETY (getpid): no preconditions.
    let parent_pid = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the forked child before exec and calls only
    // async-signal-safe functions (fcntl, prctl, getppid) on plain integers; it allocates
    // nothing and touches no locks.
    unsafe {
        cmd.pre_exec(move || {
            // Let the child keep its PMI socket across exec.
            let flags = libc::fcntl(child_fd, libc::F_GETFD);
            if flags < 0 || libc::fcntl(child_fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) < 0 {
                return Err(io::Error::last_os_error());
            }
            // If mpiexec dies (even by SIGKILL), the ranks die too.
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            );
            if libc::getppid() != parent_pid {
                // No allocation here: report "no such process" (the parent).
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn()?;
    drop(child_end);

    let mut pipes = Vec::new();
    if let Some(out) = child.stdout.take() {
        pipes.push(TaggedPipe::new(OwnedFd::from(out), rank, Sink::Stdout)?);
    }
    if let Some(err) = child.stderr.take() {
        pipes.push(TaggedPipe::new(OwnedFd::from(err), rank, Sink::Stderr)?);
    }
    Ok(Rank {
        rank,
        pid: child.id(),
        child,
        status: None,
        pmi: Some(parent_end),
        inbuf: LineBuffer::new(),
        outbuf: Vec::new(),
        pipes,
    })
}

/// What one poll entry belongs to.
#[derive(Clone, Copy)]
enum Source {
    Pmi(usize),
    Pipe(usize, usize),
}

impl Job<'_> {
    /// Records the first failure (later ones are consequences), prints its line and
    /// starts tearing the job down.
    fn fail(&mut self, status: i32, what: String) {
        if self.failure.is_some() {
            return;
        }
        let live = self.ranks.iter().filter(|r| r.alive()).count();
        if live > 0 {
            eprintln!("mpiexec: {what}; terminating the job ({live} rank(s) left)");
        } else {
            eprintln!("mpiexec: {what}");
        }
        self.failure = Some(Failure { status });
        self.start_kill();
    }

    fn start_kill(&mut self) {
        if self.kill_started.is_none() {
            self.kill_started = Some(Instant::now());
            for r in &self.ranks {
                r.signal(libc::SIGTERM);
            }
        }
    }

    fn kill_hard(&mut self) {
        self.sent_sigkill = true;
        for r in &self.ranks {
            r.signal(libc::SIGKILL);
        }
    }

    fn event_loop(&mut self) -> i32 {
        let mut all_exited_at: Option<Instant> = None;
        loop {
            // Signals to mpiexec: forward; while tearing down, escalate.
            for sig in signals::take() {
                if self.kill_started.is_some() {
                    self.kill_hard();
                } else if self.forwarded_signal {
                    // Second signal: the ranks did not stop; force them.
                    self.fail(
                        128 + sig,
                        format!("received {} again, killing all ranks", signals::name(sig)),
                    );
                    self.kill_hard();
                } else {
                    self.forwarded_signal = true;
                    let live = self.ranks.iter().filter(|r| r.alive()).count();
                    eprintln!(
                        "mpiexec: received {}, forwarding it to {live} rank(s)",
                        signals::name(sig)
                    );
                    for r in &self.ranks {
                        r.signal(sig);
                    }
                }
            }
            let now = Instant::now();
            if let Some(d) = self.deadline {
                if now >= d {
                    self.deadline = None;
                    let secs = self.opts.timeout.unwrap_or_default().as_secs_f64();
                    self.fail(TIMEOUT_STATUS, format!("job timed out after {secs} s"));
                }
            }
            if let Some((who, t)) = &self.unfinalized_exit {
                if self.failure.is_none() && now >= *t + UNFINALIZED_GRACE {
                    let msg = format!(
                        "{who} exited without MPI_Finalize {} s ago and the other ranks have \
                         not finished",
                        UNFINALIZED_GRACE.as_secs()
                    );
                    self.fail(1, msg);
                }
            }
            if let Some(t) = self.kill_started {
                if !self.sent_sigkill && now >= t + KILL_GRACE {
                    self.kill_hard();
                }
            }

            // Done when every rank is reaped and its output forwarded (or given up on).
            if self.ranks.iter().all(|r| !r.alive()) {
                let t = *all_exited_at.get_or_insert(now);
                let pipes_open = self
                    .ranks
                    .iter()
                    .any(|r| r.pipes.iter().any(|p| p.fd().is_some()));
                if !pipes_open || now >= t + OUTPUT_DRAIN {
                    for r in &mut self.ranks {
                        r.pipes.iter_mut().for_each(TaggedPipe::close);
                    }
                    break;
                }
            }

            self.poll_once(now);
            self.reap();
        }
        self.failure.as_ref().map_or(0, |f| f.status)
    }

    /// Waits up to [`POLL_INTERVAL`] (less before a deadline) and services what is ready.
    fn poll_once(&mut self, now: Instant) {
        let mut fds = Vec::new();
        let mut srcs = Vec::new();
        for (i, r) in self.ranks.iter().enumerate() {
            if let Some(s) = &r.pmi {
                let mut events = libc::POLLIN;
                if !r.outbuf.is_empty() {
                    events |= libc::POLLOUT;
                }
                fds.push(libc::pollfd {
                    fd: s.as_raw_fd(),
                    events,
                    revents: 0,
                });
                srcs.push(Source::Pmi(i));
            }
            for (j, p) in r.pipes.iter().enumerate() {
                if let Some(fd) = p.fd() {
                    fds.push(libc::pollfd {
                        fd,
                        events: libc::POLLIN,
                        revents: 0,
                    });
                    srcs.push(Source::Pipe(i, j));
                }
            }
        }
        let mut wait = POLL_INTERVAL;
        for t in [self.deadline, self.kill_started.map(|t| t + KILL_GRACE)]
            .into_iter()
            .flatten()
        {
            wait = wait.min(t.saturating_duration_since(now));
        }
        // SAFETY: `fds` is a valid, initialised array of `fds.len()` pollfd entries that
        // outlives the call.
        let n = unsafe {
            libc::poll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                wait.as_millis() as libc::c_int,
            )
        };
        if n <= 0 {
            return; // timeout, or EINTR from a signal: the loop checks everything anyway
        }
        for (pfd, src) in fds.iter().zip(&srcs) {
            if pfd.revents == 0 {
                continue;
            }
            match *src {
                Source::Pmi(i) => {
                    if pfd.revents & libc::POLLOUT != 0 {
                        self.ranks[i].flush();
                    }
                    if pfd.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0 {
                        self.service_pmi(i);
                    }
                }
                Source::Pipe(i, j) => {
                    self.ranks[i].pipes[j].on_readable();
                }
            }
        }
    }

    /// Reads and handles the PMI lines rank `i` has sent.
    fn service_pmi(&mut self, i: usize) {
        let lines = self.ranks[i].read_lines();
        let rank = self.ranks[i].rank;
        let pid = self.ranks[i].pid;
        let mut effects = Vec::new();
        for line in lines {
            let result = match line {
                Err(e) => Err(format!("sent a malformed PMI line ({e})")),
                Ok(l) => match wire::Command::parse(&l) {
                    Ok(cmd) => self.server.handle(rank, cmd, &mut effects),
                    Err(e) => {
                        let what = match e {
                            wire::WireError::UnknownCommand(_) | wire::WireError::Mcmd => {
                                "an unsupported PMI command"
                            }
                            _ => "a malformed PMI line",
                        };
                        Err(format!("sent {what} ({e}): {:?}", &l[..l.len().min(120)]))
                    }
                },
            };
            if let Err(what) = result {
                self.ranks[i].pmi = None;
                self.apply(effects);
                self.fail(1, format!("rank {rank} (pid {pid}) {what}"));
                return;
            }
        }
        self.apply(effects);
    }

    fn apply(&mut self, effects: Vec<Effect>) {
        let mut touched = Vec::new();
        for e in effects {
            match e {
                Effect::Reply(to, reply) => {
                    let r = &mut self.ranks[to as usize];
                    if r.pmi.is_some() {
                        r.outbuf.extend_from_slice(reply.encode().as_bytes());
                        touched.push(to as usize);
                    }
                }
                Effect::Abort { rank, code } => {
                    let pid = self.ranks[rank as usize].pid;
                    self.fail(
                        code,
                        format!("rank {rank} (pid {pid}) called abort (MPI_Abort) with exit code {code}"),
                    );
                }
            }
        }
        touched.dedup();
        for i in touched {
            self.ranks[i].flush();
        }
    }

    /// `waitpid(WNOHANG)` on every live rank; judges each exit.
    fn reap(&mut self) {
        for i in 0..self.ranks.len() {
            if !self.ranks[i].alive() {
                continue;
            }
            let status = match self.ranks[i].child.try_wait() {
                Ok(Some(s)) => s,
                Ok(None) => continue,
                Err(e) => {
                    // ECHILD cannot happen for our own unreaped child; treat as lost.
                    eprintln!("mpiexec: waitpid for rank {i} failed: {e}");
                    ExitStatus::from_raw(255 << 8)
                }
            };
            // Lines it sent just before exiting (finalize, abort) are still in the socket.
            if self.ranks[i].pmi.is_some() {
                self.service_pmi(i);
            }
            self.ranks[i].status = Some(status);
            self.ranks[i].pmi = None;
            if self.failure.is_some() {
                continue; // killed by us, or after the failure: not the cause
            }
            let r = &self.ranks[i];
            let st = self.server.rank_state(r.rank);
            let who = format!("rank {} (pid {})", r.rank, r.pid);
            if let Some(sig) = status.signal() {
                let core = if status.core_dumped() {
                    ", core dumped"
                } else {
                    ""
                };
                self.fail(
                    128 + sig,
                    format!(
                        "{who} was killed by signal {sig} ({}{core})",
                        signals::name(sig)
                    ),
                );
            } else {
                let code = status.code().unwrap_or(255);
                if code != 0 {
                    self.fail(code, format!("{who} exited with status {code}"));
                } else if st.initialized && !st.finalized && self.unfinalized_exit.is_none() {
                    self.unfinalized_exit = Some((who, Instant::now()));
                }
            }
        }
    }
}

/// Removes the job's shared-memory files (`/dev/shm/<shm_prefix(kvsname)>*`); returns
/// how many were removed.
pub fn remove_shm_files(kvsname: &str) -> usize {
    remove_prefixed("/dev/shm", &crate::runtime::pmi::shm_prefix(kvsname))
}

fn remove_prefixed(dir: &str, prefix: &str) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with(prefix) && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_only_the_jobs_files() {
        let dir = std::env::temp_dir().join(format!("railmpi-shmtest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let kvs = "railmpi_12_0";
        let prefix = crate::runtime::pmi::shm_prefix(kvs);
        for name in [
            format!("{prefix}ring0"),
            format!("{prefix}x"),
            "railmpi-railmpi_123_0-ring0".to_string(),
            "other".to_string(),
        ] {
            std::fs::write(dir.join(name), b"").unwrap();
        }
        assert_eq!(remove_prefixed(dir.to_str().unwrap(), &prefix), 2);
        let mut left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, vec!["other", "railmpi-railmpi_123_0-ring0"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
