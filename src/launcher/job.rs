//! One job: starting the ranks (here, or through one proxy per host, `proxy.rs`), the
//! event loop (PMI service, output forwarding, reaping, signals, timeout) and the exit
//! policy, which is the same wherever the ranks run: a proxy reports its ranks' starts and
//! exits, relays their PMI lines to the one PMI server here and their output, and takes
//! signals for them.
//!
//! Exit policy:
//! - every rank exits 0 after PMI finalize (or never used PMI) → 0;
//! - the first rank to fail decides the status: its exit status, 128+N when killed by
//!   signal N, the abort code when it sent `cmd=abort`; the others are then sent SIGTERM,
//!   and SIGKILL 500 ms later; statuses of ranks killed that way are ignored;
//! - a rank that exits 0 after using PMI but without finalize is not a failure by itself
//!   (as with Hydra; some programs, e.g. OSU's osu_latency_mt, never call MPI_Finalize),
//!   but it ends the job at once (status 0, the others are killed): they cannot finish
//!   what needed it. Only while a process it forked keeps its PMI connection open (children
//!   forked after MPI_Init, as osu_latency_mp's) do the others get `UNFINALIZED_GRACE` to
//!   finish; ranks still running after that fail the job with status 1;
//! - `--timeout` expiry → the same kill sequence and status 124;
//! - SIGINT/SIGTERM/SIGHUP to mpiexec are forwarded to every rank; ranks dying of it are
//!   failures like any other; a second signal kills every rank with SIGKILL at once
//!   (status 128 + that signal).

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::args::Options;
use super::handshake::{Handshake, Progress};
use super::hosts;
use super::output::{self, Sink, TaggedPipe};
use super::pmi_server::{Effect, PmiServer};
use super::relay::{Frame, Setup, Spawned, SpawnedProc};
use super::signals;
use crate::ratelimit::{suppressed_note, RateLimit};
use crate::runtime::pmi::wire::{self, LineBuffer};

/// How long the other ranks may run on after one exited without MPI_Finalize while a
/// process it forked still holds its PMI connection.
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
/// How long a proxy may take to start and connect back.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a proxy may wait for the root while it connects and proves the secret.
pub(super) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an accepted connection may take to prove the job secret before it is dropped:
/// a proxy's handshake takes a round trip, so only a stranger's idle connection lasts.
const PENDING_DEADLINE: Duration = Duration::from_secs(5);
/// Handshakes pending at once, beyond one per proxy that has not connected yet: overall,
/// and from one address. A new connection past either cap evicts the oldest pending one
/// (of its address, or overall; one that sent no hello first) rather than being refused: a
/// stranger holding connections open cannot lock the proxies out, and at most this many
/// descriptors are theirs.
const PENDING_MAX: usize = 64;
const PENDING_PER_SOURCE: usize = 8;
/// Connections taken off the listen queue per wake-up (a flood cannot starve the job).
const ACCEPTS_PER_POLL: usize = 64;
/// How long the listener rests after an accept failure nothing here can clear.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// The parent's side of one rank.
struct Rank {
    /// Its rank in its job (`job`: 0 is the job mpiexec started, then the jobs its
    /// processes spawned, in order).
    rank: u32,
    job: usize,
    /// The lines of an `mcmd=spawn` block being read, and the blocks of a spawn read so
    /// far (MPI_Comm_spawn_multiple sends one per command).
    mcmd: Vec<String>,
    spawn_blocks: Vec<wire::SpawnBlock>,
    pid: u32,
    /// Our child (one-node jobs); None for a rank a proxy started.
    child: Option<Child>,
    /// The proxy (index into `Job::links`) that started it.
    proxy: Option<usize>,
    /// Set once reaped.
    status: Option<ExitStatus>,
    /// Parent's end of the PMI socket; `None` after EOF or an error.
    pmi: Option<UnixStream>,
    inbuf: LineBuffer,
    outbuf: Vec<u8>,
    /// `--tag-output` pipes (stdout, stderr).
    pipes: Vec<TaggedPipe>,
    /// It ends by an abort already reported (its own or a communicator's it belongs to,
    /// under `-disable-auto-cleanup`): its exit is no news.
    aborted: bool,
}

impl Rank {
    /// Rank `rank` of job `job`, which proxy `proxy` starts (and reports).
    fn remote(rank: u32, job: usize, proxy: usize) -> Rank {
        Rank {
            rank,
            job,
            mcmd: Vec::new(),
            spawn_blocks: Vec::new(),
            pid: 0,
            child: None,
            proxy: Some(proxy),
            status: None,
            pmi: None,
            inbuf: LineBuffer::new(),
            outbuf: Vec::new(),
            pipes: Vec::new(),
            aborted: false,
        }
    }

    fn alive(&self) -> bool {
        self.status.is_none()
    }

    fn signal(&self, sig: libc::c_int) {
        if self.child.is_some() {
            signal_rank(self.pid, sig, self.alive());
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
    /// What happened, printed once the ranks' output is forwarded (so it comes last);
    /// None when the failing rank said it (an abort).
    report: Option<String>,
}

/// A proxy: its launcher here, and its connection once it has proven the job secret.
struct Link {
    host: String,
    ranks: Vec<u32>,
    launcher: Child,
    launcher_done: bool,
    /// Connected and authenticated; None before and after.
    stream: Option<TcpStream>,
    connected_once: bool,
    inbuf: Vec<u8>,
    outbuf: Vec<u8>,
}

impl Link {
    fn send(&mut self, f: &Frame) {
        if self.stream.is_some() {
            self.outbuf.extend_from_slice(&f.encode());
        }
    }

    /// Writes what is queued until done or the socket is full; the error when the
    /// connection failed.
    fn flush(&mut self) -> io::Result<()> {
        let Some(s) = self.stream.as_mut() else {
            return Ok(());
        };
        while !self.outbuf.is_empty() {
            match s.write(&self.outbuf) {
                Ok(n) => {
                    self.outbuf.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// The part of a multi-host job only the root has.
struct Hosts {
    listener: TcpListener,
    secret: crate::fabric::tcp::Secret,
    links: Vec<Link>,
    connect_deadline: Instant,
    /// Forwarding our stdin to rank 0's proxy (until end of file).
    stdin_to: Option<usize>,
    /// `--tag-output` of remote ranks: the partial line of each (job, rank, stream).
    partial: std::collections::HashMap<(u32, u32, u8), Vec<u8>>,
    /// Accepted connections still in their handshake, oldest first.
    pending: Vec<Pending>,
    next_pending: u64,
    /// A descriptor held in reserve: out of descriptors, it is closed to accept (and
    /// close) the connection at the head of the queue, which would otherwise keep the
    /// listener readable and the loop spinning.
    spare: crate::sys::net::SpareFd,
    /// The listener is not polled until then (an accept failure with no remedy).
    listen_paused_until: Option<Instant>,
    /// Budget of the warnings strangers can trigger (refused connections).
    warnings: RateLimit,
    /// `RAILMPI_TCP_TIMEOUT` (ms): a proxy's connection that gets no answer for this long
    /// has failed (keepalive probes and `TCP_USER_TIMEOUT`, on both ends).
    timeout_ms: u32,
}

/// A connection accepted on the listener that has not proven the job secret yet.
struct Pending {
    id: u64,
    stream: TcpStream,
    peer: SocketAddr,
    since: Instant,
    hs: Handshake,
}

impl Pending {
    /// Moves the handshake on with what the socket has, without blocking: Ok(None) while
    /// bytes are due, Ok(Some(proxy id)) once the secret is proven, Err(why) to refuse.
    fn step(&mut self, secret: &crate::fabric::tcp::Secret) -> Result<Option<u32>, String> {
        // Each turn writes or reads at least one byte of a bounded exchange, or returns.
        loop {
            while !self.hs.output().is_empty() {
                match self.stream.write(self.hs.output()) {
                    Ok(0) => return Err("it takes no bytes".into()),
                    Ok(n) => self.hs.sent(n),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
                    Err(e) => return Err(format!("writing to it failed: {e}")),
                }
            }
            let mut b = [0u8; 64];
            let want = self.hs.wanted().min(b.len());
            if want == 0 {
                return Err("handshake already over".into());
            }
            match self.stream.read(&mut b[..want]) {
                Ok(0) => return Err("it closed the connection during the handshake".into()),
                Ok(n) => match self.hs.feed(&b[..n], secret) {
                    Progress::More => {}
                    Progress::Proven(id) => return Ok(Some(id)),
                    Progress::Refused(why) => return Err(why.into()),
                },
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
                Err(e) => return Err(format!("reading from it failed: {e}")),
            }
        }
    }
}

impl Hosts {
    /// Logs a refused connection (within the warning budget) and drops it.
    fn refuse(&mut self, peer: SocketAddr, why: &str) {
        if let Some(n) = self.warnings.allow(Instant::now()) {
            eprintln!(
                "mpiexec: refused a connection from {peer}: {why}{}",
                suppressed_note(n)
            );
        }
    }

    /// Logs an accept that failed (within the warning budget).
    fn refuse_accept(&mut self, e: &io::Error) {
        if let Some(n) = self.warnings.allow(Instant::now()) {
            eprintln!(
                "mpiexec: accepting a connection failed: {e}{}",
                suppressed_note(n)
            );
        }
    }

    /// Proxies that have not connected yet (each may have a handshake pending).
    fn awaited(&self) -> usize {
        self.links.iter().filter(|l| !l.connected_once).count()
    }

    /// Queues a freshly accepted connection for its handshake, evicting the oldest pending
    /// one of its address, or overall, when that cap is reached; returns its id.
    fn add_pending(&mut self, stream: TcpStream, peer: SocketAddr, now: Instant) -> Option<u64> {
        if let Err(e) = stream.set_nonblocking(true) {
            self.refuse(peer, &format!("cannot make it non-blocking: {e}"));
            return None;
        }
        let awaited = self.awaited();
        let same = self
            .pending
            .iter()
            .filter(|p| p.peer.ip() == peer.ip())
            .count();
        let evict = if same >= PENDING_PER_SOURCE + awaited {
            self.victim(|p| p.peer.ip() == peer.ip())
        } else if self.pending.len() >= PENDING_MAX + awaited {
            self.victim(|_| true)
        } else {
            None
        };
        if let Some(j) = evict {
            let old = self.pending.remove(j);
            let why = if old.peer.ip() == peer.ip() {
                "too many pending handshakes from its address (the oldest is dropped)"
            } else {
                "too many pending handshakes (the oldest is dropped)"
            };
            self.refuse(old.peer, why);
        }
        self.next_pending += 1;
        let id = self.next_pending;
        self.pending.push(Pending {
            id,
            stream,
            peer,
            since: now,
            hs: Handshake::new(crate::fabric::tcp::random()),
        });
        Some(id)
    }

    /// The pending handshake to drop for room among those `of` selects: the oldest that
    /// sent no hello yet (a proxy's hello comes with its connection), else the oldest.
    fn victim(&self, of: impl Fn(&Pending) -> bool) -> Option<usize> {
        let mut mine = self.pending.iter().enumerate().filter(|(_, p)| of(p));
        let oldest = mine.clone().next().map(|(j, _)| j);
        mine.find(|(_, p)| !p.hs.greeted())
            .map(|(j, _)| j)
            .or(oldest)
    }

    /// Drops the handshakes that ran past [`PENDING_DEADLINE`].
    fn expire_pending(&mut self, now: Instant) {
        while let Some(p) = self.pending.first() {
            if now < p.since + PENDING_DEADLINE {
                break;
            }
            let p = self.pending.remove(0);
            let why = format!(
                "no proof of the job secret within {} s",
                PENDING_DEADLINE.as_secs()
            );
            self.refuse(p.peer, &why);
        }
    }

    /// Out of descriptors: the oldest pending handshake (see [`Hosts::victim`]) makes room
    /// for the new connection (a proxy's takes milliseconds, so the oldest is a
    /// stranger's); with none pending, the spare descriptor lets the head of the queue be
    /// accepted and closed. Stuck when neither helps (the listener then rests for
    /// [`ACCEPT_PAUSE`]).
    fn shed(&mut self) -> Shed {
        if let Some(j) = self.victim(|_| true) {
            let old = self.pending.remove(j);
            self.refuse(old.peer, "out of file descriptors (the oldest is dropped)");
            return Shed::Room;
        }
        let Some(taken) = self.spare.accept_and_close(&self.listener) else {
            return Shed::Stuck;
        };
        match taken {
            Ok(peer) => {
                self.refuse(peer, "out of file descriptors");
                Shed::Room
            }
            // accept(2) wants a descriptor before it looks at the queue: EMFILE came
            // with nothing queued.
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Shed::Empty,
            Err(_) => Shed::Stuck,
        }
    }
}

/// What [`Hosts::shed`] achieved.
enum Shed {
    /// A descriptor is free again, or the connection at the head of the queue is gone.
    Room,
    /// Nothing is queued.
    Empty,
    /// Nothing helped.
    Stuck,
}

/// Why a connection between mpiexec and a proxy failed, in words: no answer within the
/// timeout (or the network saying the host cannot be reached) is the other end's host
/// being unreachable.
pub(super) fn link_error(e: &io::Error, timeout_ms: u32) -> String {
    match e.raw_os_error() {
        Some(libc::ETIMEDOUT | libc::EHOSTUNREACH | libc::ENETUNREACH) => format!(
            "unreachable: no answer for {} s",
            f64::from(timeout_ms) / 1000.0
        ),
        _ => format!("its connection failed: {e}"),
    }
}

/// `RAILMPI_TCP_TIMEOUT` from mpiexec's environment (ms; the library's default when
/// unset): also the timeout of the connections to the proxies.
fn tcp_timeout_ms() -> Result<u32, String> {
    let name = "RAILMPI_TCP_TIMEOUT";
    let v = crate::runtime::config::value(name);
    match v.trim().parse::<u64>() {
        Ok(ms) if ms > 0 => Ok(ms.min(u64::from(u32::MAX)) as u32),
        _ => Err(format!(
            "{name}={v:?} is not a valid value (milliseconds, at least 1)"
        )),
    }
}

struct Job<'a> {
    opts: &'a Options,
    /// The PMI server of each job: the one mpiexec started, then those it spawned.
    servers: Vec<PmiServer>,
    /// Per job: the index in `ranks` of its rank 0 (its ranks follow in order).
    bases: Vec<usize>,
    ranks: Vec<Rank>,
    failure: Option<Failure>,
    /// When SIGTERM went to all ranks (teardown started).
    kill_started: Option<Instant>,
    sent_sigkill: bool,
    /// A signal to mpiexec was forwarded to the ranks (a second one kills them).
    forwarded_signal: bool,
    deadline: Option<Instant>,
    /// A rank exited 0 without finalize while a process it forked keeps its PMI
    /// connection open: (who, when, index).
    unfinalized_exit: Option<(String, Instant, usize)>,
    /// A multi-host job's proxies.
    hosts: Option<Hosts>,
    /// The rank that called abort (its index in `ranks`; spared the SIGTERM).
    aborting: Option<usize>,
    /// The job's secret (spawned jobs' are derived from it: [`spawned_secret`]).
    secret: crate::fabric::tcp::Secret,
    /// `Frame::End` went to the proxies (every process has ended).
    end_sent: bool,
    /// Spawns on other hosts whose processes have not all started: the spawner is
    /// answered when they have (or one could not start).
    spawning: Vec<Spawning>,
}

/// A spawn waiting for its processes' starts (`Frame::Started`) from the proxies.
struct Spawning {
    job: usize,
    /// The spawning rank's index in `ranks`.
    spawner: usize,
    waiting: usize,
}

/// The secret of spawned job `job` (1, 2, …), derived from the job's: mpiexec and each
/// proxy derive it alike, so it never crosses the network.
pub(super) fn spawned_secret(
    secret: &crate::fabric::tcp::Secret,
    job: u32,
) -> crate::fabric::tcp::Secret {
    crate::fabric::tcp::auth::derive(secret, format!("spawned job {job}").as_bytes())
}

/// The job's kvsname, derived from mpiexec's pid.
pub fn kvsname_for_pid(pid: u32) -> String {
    format!("railmpi_{pid}_0")
}

/// Runs the job described by `opts` to completion; returns mpiexec's exit status.
pub fn run(opts: &Options) -> i32 {
    // The ranks learn of -disable-auto-cleanup from their environment (their finalize and
    // abort act on it); the user's -env comes after and wins.
    let with_env;
    let opts = if opts.auto_cleanup {
        opts
    } else {
        let mut env = vec![("RAILMPI_AUTO_CLEANUP".to_string(), "0".to_string())];
        env.extend(opts.env.iter().cloned());
        with_env = Options {
            env,
            ..opts.clone()
        };
        &with_env
    };
    let kvsname = kvsname_for_pid(std::process::id());
    // The secret tcp connections prove (fabric::tcp::auth): drawn here, known only to the
    // job's processes (an environment is readable by its user alone).
    let raw_secret = crate::fabric::tcp::random();
    let secret = crate::fabric::tcp::secret_to_hex(&raw_secret);
    if let Err(e) = signals::install() {
        eprintln!("mpiexec: cannot install signal handlers: {e}");
        return 1;
    }
    let mut server = PmiServer::new(&kvsname, opts.nprocs);
    // This node's cores: those this mpiexec may run on (affinity, cgroup quota).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    server.set_universe(opts.universe_size(cores));
    let mut job = Job {
        opts,
        servers: vec![server],
        bases: vec![0],
        ranks: Vec::with_capacity(opts.nprocs as usize),
        failure: None,
        kill_started: None,
        sent_sigkill: false,
        forwarded_signal: false,
        deadline: opts.timeout.map(|t| Instant::now() + t),
        unfinalized_exit: None,
        hosts: None,
        aborting: None,
        secret: raw_secret,
        end_sent: false,
        spawning: Vec::new(),
    };
    if let Some(hosts) = &opts.hosts {
        let timeout_ms = match tcp_timeout_ms() {
            Ok(ms) => ms,
            Err(e) => {
                eprintln!("mpiexec: {e}");
                return 1;
            }
        };
        let placement = hosts::place(hosts, Some(opts.nprocs), opts.ppn);
        if let Some(m) = hosts::process_mapping(&placement) {
            job.servers[0].set_process_mapping(&m);
        }
        match start_proxies(opts, &placement, raw_secret, &secret, timeout_ms) {
            Ok(h) => {
                for (k, (_, ranks)) in placement.iter().enumerate() {
                    for &rank in ranks {
                        job.ranks.push(Rank::remote(rank, 0, k));
                    }
                }
                job.ranks.sort_by_key(|r| r.rank);
                job.hosts = Some(h);
            }
            Err(e) => {
                eprintln!("mpiexec: {e}");
                return 1;
            }
        }
        let status = job.event_loop();
        job.end_proxies();
        return status;
    }
    for rank in 0..opts.nprocs {
        match spawn_rank(opts, rank, &secret) {
            Ok(r) => job.ranks.push(r),
            Err(e) => {
                let status = start_failure_status(&e);
                job.fail(
                    status,
                    format!("cannot start rank {rank} ({}): {e}", opts.program),
                );
                break;
            }
        }
    }
    job.event_loop()
}

/// What a rank's standard input is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Input {
    Inherit,
    Null,
    Piped,
}

/// How one rank is started (here, or by a proxy on its host).
pub(super) struct Start<'a> {
    pub program: &'a str,
    pub args: &'a [String],
    pub env: &'a [(String, String)],
    pub rank: u32,
    pub size: u32,
    /// Its place among the ranks of its host.
    pub local_rank: u32,
    pub local_size: u32,
    pub secret: &'a str,
    pub stdin: Input,
    /// Its stdout and stderr go to pipes (else they are inherited).
    pub capture: bool,
    /// Its working directory (else ours).
    pub cwd: Option<&'a str>,
}

/// Starts one rank with its end of a fresh PMI socketpair; returns the child and our end
/// (non-blocking).
pub(super) fn start(s: &Start) -> io::Result<(Child, UnixStream)> {
    // Both ends are close-on-exec: no rank inherits another rank's socket or ours.
    let (parent_end, child_end) = UnixStream::pair()?;
    parent_end.set_nonblocking(true)?;
    let child_fd = child_end.as_raw_fd();

    let mut cmd = Command::new(s.program);
    cmd.args(s.args);
    if let Some(d) = s.cwd {
        cmd.current_dir(d);
    }
    for (k, v) in s.env {
        cmd.env(k, v);
    }
    cmd.env("PMI_FD", child_fd.to_string())
        .env("PMI_RANK", s.rank.to_string())
        .env("PMI_SIZE", s.size.to_string())
        .env("MPI_LOCALRANKID", s.local_rank.to_string())
        .env("MPI_LOCALNRANKS", s.local_size.to_string())
        .env("RAILMPI_JOB_SECRET", s.secret);
    cmd.stdin(match s.stdin {
        Input::Inherit => Stdio::inherit(),
        Input::Null => Stdio::null(),
        Input::Piped => Stdio::piped(),
    });
    if s.capture {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    }
    // SAFETY (getpid): no preconditions.
    let parent_pid = unsafe { libc::getpid() };
    // Each rank leads a process group of its own, so that a signal reaches what a wrapper
    // (`time`, a shell script) started too, even after the wrapper itself is gone. A rank
    // reading our terminal stays in our group: a background group reading it would stop.
    // SAFETY: isatty on descriptor 0 has no memory-safety preconditions.
    let own_group = s.stdin != Input::Inherit || unsafe { libc::isatty(0) } == 0;
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
            if own_group && libc::setpgid(0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() != parent_pid {
                // No allocation here: report "no such process" (the parent).
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
    let child = cmd.spawn()?;
    drop(child_end);
    Ok((child, parent_end))
}

/// `sig` to the process group a rank leads (what a wrapper started included), or to the
/// rank alone where it has no group of its own (it reads our terminal). `alive`: not yet
/// reaped. A reaped rank's group is signalled only while it has members: the kernel does
/// not hand out a pid that still names a process group, so they are the rank's.
pub(super) fn signal_rank(pid: u32, sig: libc::c_int, alive: bool) {
    let pid = pid as libc::pid_t;
    // SAFETY: kill(2) has no memory-safety preconditions; see above for why the ids are
    // the rank's.
    unsafe {
        if libc::kill(-pid, sig) != 0 && alive {
            libc::kill(pid, sig);
        }
    }
}

/// The exit status of a process that failed to start: 127 not found, 126 not executable.
pub(super) fn start_failure_status(e: &io::Error) -> i32 {
    match e.kind() {
        io::ErrorKind::NotFound => 127,
        io::ErrorKind::PermissionDenied => 126,
        _ => 1,
    }
}

/// Starts one rank of a one-node job.
fn spawn_rank(opts: &Options, rank: u32, secret: &str) -> io::Result<Rank> {
    let (child, parent_end) = start(&Start {
        program: &opts.program,
        args: &opts.args,
        env: &opts.env,
        rank,
        size: opts.nprocs,
        local_rank: rank,
        local_size: opts.nprocs,
        secret,
        stdin: if rank == 0 {
            Input::Inherit
        } else {
            Input::Null
        },
        capture: opts.tag_output,
        cwd: None,
    })?;
    started_rank(rank, 0, child, parent_end)
}

/// Rank `rank` of job `job`, started here (its output pipes, when captured, taken).
fn started_rank(rank: u32, job: usize, mut child: Child, pmi: UnixStream) -> io::Result<Rank> {
    let mut pipes = Vec::new();
    if let Some(out) = child.stdout.take() {
        pipes.push(TaggedPipe::new(OwnedFd::from(out), rank, Sink::Stdout)?);
    }
    if let Some(err) = child.stderr.take() {
        pipes.push(TaggedPipe::new(OwnedFd::from(err), rank, Sink::Stderr)?);
    }
    Ok(Rank {
        rank,
        job,
        mcmd: Vec::new(),
        spawn_blocks: Vec::new(),
        pid: child.id(),
        child: Some(child),
        proxy: None,
        status: None,
        pmi: Some(pmi),
        inbuf: LineBuffer::new(),
        outbuf: Vec::new(),
        pipes,
        aborted: false,
    })
}

/// What one poll entry belongs to.
#[derive(Clone, Copy)]
enum Source {
    Pmi(usize),
    Pipe(usize, usize),
    Listener,
    /// A connection in its handshake (by id: handling one entry may remove others).
    Pending(u64),
    Link(usize),
    Stdin,
}

impl Job<'_> {
    /// Records the first failure (later ones are consequences), prints its line and
    /// starts tearing the job down.
    fn fail(&mut self, status: i32, what: String) {
        self.fail_with(status, Some(what))
    }

    /// [`Job::fail`]; `what` None for an abort, which the aborting rank reported itself
    /// (`application called MPI_Abort`, as under Hydra, which adds nothing either:
    /// MPICH's test harness takes any other line for a failure).
    fn fail_with(&mut self, status: i32, what: Option<String>) {
        if self.kill_started.is_some() {
            return;
        }
        let live = self.ranks.iter().filter(|r| r.alive()).count();
        let report = what.map(|what| match live {
            0 => format!("mpiexec: {what}"),
            _ => format!("mpiexec: {what}; terminating the job ({live} rank(s) left)"),
        });
        match &self.failure {
            // A rank failed before (-disable-auto-cleanup): that stays the job's status.
            Some(f) if f.status != 0 || status == 0 => report.iter().for_each(|r| eprintln!("{r}")),
            _ => self.failure = Some(Failure { status, report }),
        }
        self.start_kill();
    }

    /// Rank `i` failed: the job ends, unless it runs with `-disable-auto-cleanup`; then
    /// the others go on and the first failure (a non-zero one over a zero one) is the
    /// job's status.
    fn rank_failed(&mut self, i: usize, status: i32, what: String) {
        self.rank_failed_with(i, status, Some(what))
    }

    /// [`Job::rank_failed`]; `what` as for [`Job::fail_with`].
    fn rank_failed_with(&mut self, i: usize, status: i32, what: Option<String>) {
        if self.opts.auto_cleanup || self.kill_started.is_some() {
            return self.fail_with(status, what);
        }
        let live = self
            .ranks
            .iter()
            .enumerate()
            .filter(|&(j, r)| j != i && r.alive() && !r.aborted)
            .count();
        if let Some(what) = &what {
            eprintln!("mpiexec: {what}; {live} other rank(s) go on (-disable-auto-cleanup)");
        }
        if self
            .failure
            .as_ref()
            .is_none_or(|f| f.status == 0 && status != 0)
        {
            self.failure = Some(Failure {
                status,
                report: what.map(|what| format!("mpiexec: the first failure: {what}")),
            });
        }
    }

    /// `sig` to rank `i`: by kill(2) here, queued for its proxy elsewhere (the caller
    /// flushes the links).
    fn queue_signal(&mut self, i: usize, sig: libc::c_int) {
        let r = &self.ranks[i];
        r.signal(sig);
        if let (Some(k), Some(h), true) = (r.proxy, self.hosts.as_mut(), r.alive()) {
            h.links[k].send(&Frame::Signal {
                job: r.job as u32,
                rank: r.rank,
                signal: sig,
            });
        }
    }

    /// `sig` to rank `i` alone: by kill(2) here, through its proxy elsewhere.
    fn signal_one(&mut self, i: usize, sig: libc::c_int) {
        self.queue_signal(i, sig);
        if let (Some(k), Some(h)) = (self.ranks[i].proxy, self.hosts.as_mut()) {
            let _ = h.links[k].flush();
        }
    }

    fn start_kill(&mut self) {
        if self.kill_started.is_none() {
            self.kill_started = Some(Instant::now());
            self.signal_all(libc::SIGTERM);
        }
    }

    fn kill_hard(&mut self) {
        self.sent_sigkill = true;
        self.signal_all(libc::SIGKILL);
    }

    /// `sig` to every live rank: by kill(2) here, through its proxy elsewhere.
    fn signal_all(&mut self, sig: libc::c_int) {
        let spared = self.aborting.filter(|_| sig == libc::SIGTERM);
        for i in (0..self.ranks.len()).filter(|&i| Some(i) != spared) {
            self.queue_signal(i, sig);
        }
        if let Some(h) = self.hosts.as_mut() {
            // A failed connection is found (and reported) by its next read.
            h.links.iter_mut().for_each(|l| {
                let _ = l.flush();
            });
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
                    self.signal_all(sig);
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
            if let Some((who, t, i)) = self.unfinalized_exit.clone() {
                if self.kill_started.is_some() {
                } else if self.ranks[i].pmi.is_none() {
                    // What it forked has gone too.
                    self.unfinalized_exit = None;
                    self.rank_failed(i, 0, format!("{who} exited without MPI_Finalize"));
                } else if now >= t + UNFINALIZED_GRACE {
                    let msg = format!(
                        "{who} exited without MPI_Finalize {} s ago and the other ranks have \
                         not finished",
                        UNFINALIZED_GRACE.as_secs()
                    );
                    self.unfinalized_exit = None;
                    self.rank_failed(i, 1, msg);
                }
            }
            if let Some(t) = self.kill_started {
                if !self.sent_sigkill && now >= t + KILL_GRACE {
                    self.kill_hard();
                }
            }

            if let Some(h) = self.hosts.as_mut() {
                h.expire_pending(now);
            }
            if let Some(h) = &self.hosts {
                if self.kill_started.is_none() && now >= h.connect_deadline {
                    if let Some(l) = h.links.iter().find(|l| !l.connected_once) {
                        let msg = format!(
                            "the proxy on host {} did not connect back within {} s",
                            l.host,
                            CONNECT_TIMEOUT.as_secs()
                        );
                        self.fail(1, msg);
                        self.kill_started = Some(now - 4 * KILL_GRACE);
                    }
                }
            }

            // Done when every rank is reaped and its output forwarded (or given up on).
            if self.ranks.iter().all(|r| !r.alive()) {
                if !self.end_sent {
                    // The proxies stay while more may come (a spawn); now nothing will.
                    self.end_sent = true;
                    for k in 0..self.hosts.as_ref().map_or(0, |h| h.links.len()) {
                        if let Some(h) = self.hosts.as_mut() {
                            h.links[k].send(&Frame::End);
                        }
                        self.flush_link(k);
                    }
                }
                let t = *all_exited_at.get_or_insert(now);
                let pipes_open = self
                    .ranks
                    .iter()
                    .any(|r| r.pipes.iter().any(|p| p.fd().is_some()))
                    || self
                        .hosts
                        .as_ref()
                        .is_some_and(|h| h.links.iter().any(|l| l.stream.is_some()));
                if !pipes_open || now >= t + OUTPUT_DRAIN {
                    for r in &mut self.ranks {
                        r.pipes.iter_mut().for_each(TaggedPipe::close);
                    }
                    break;
                }
            }

            self.poll_once(now);
            self.reap();
            self.reap_launchers();
            self.give_up_on_proxies(now);
        }
        if self.kill_started.is_some() {
            // What the ranks' wrappers left behind when they went (their groups).
            self.ranks.iter().for_each(|r| r.signal(libc::SIGKILL));
        }
        if let Some(r) = self.failure.as_ref().and_then(|f| f.report.as_ref()) {
            eprintln!("{r}");
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
        if let Some(h) = &self.hosts {
            if h.listen_paused_until.is_none_or(|t| now >= t) {
                fds.push(libc::pollfd {
                    fd: h.listener.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                });
                srcs.push(Source::Listener);
            }
            for p in &h.pending {
                let mut events = libc::POLLIN;
                if !p.hs.output().is_empty() {
                    events |= libc::POLLOUT;
                }
                fds.push(libc::pollfd {
                    fd: p.stream.as_raw_fd(),
                    events,
                    revents: 0,
                });
                srcs.push(Source::Pending(p.id));
            }
            for (k, l) in h.links.iter().enumerate() {
                if let Some(s) = &l.stream {
                    let mut events = libc::POLLIN;
                    if !l.outbuf.is_empty() {
                        events |= libc::POLLOUT;
                    }
                    fds.push(libc::pollfd {
                        fd: s.as_raw_fd(),
                        events,
                        revents: 0,
                    });
                    srcs.push(Source::Link(k));
                }
            }
            if h.stdin_to.is_some_and(|k| h.links[k].stream.is_some()) {
                fds.push(libc::pollfd {
                    fd: 0,
                    events: libc::POLLIN,
                    revents: 0,
                });
                srcs.push(Source::Stdin);
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
                Source::Listener => self.accept_proxy(now),
                Source::Pending(id) => self.service_pending(id),
                Source::Link(k) => {
                    if pfd.revents & libc::POLLOUT != 0 {
                        self.flush_link(k);
                    }
                    if pfd.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0 {
                        self.read_link(k);
                    }
                }
                Source::Stdin => self.forward_stdin(),
            }
        }
    }

    /// Reads and handles the PMI lines rank `i` has sent.
    fn service_pmi(&mut self, i: usize) {
        let lines = if self.ranks[i].proxy.is_some() {
            // Relayed by its proxy into `inbuf` already.
            let mut lines = Vec::new();
            self.ranks[i].take_lines(&mut lines);
            lines
        } else {
            self.ranks[i].read_lines()
        };
        let rank = self.ranks[i].rank;
        let job = self.ranks[i].job;
        let mut effects = Vec::new();
        for line in lines {
            let result = match line {
                Err(e) => Err(format!("sent a malformed PMI line ({e})")),
                // The lines of a spawn request (`mcmd=spawn` … `endcmd`).
                Ok(l) if l.starts_with("mcmd=") || !self.ranks[i].mcmd.is_empty() => {
                    self.spawn_line(i, l.trim_end_matches('\n').to_string())
                }
                Ok(l) => match wire::Command::parse(&l) {
                    Ok(cmd) => self.servers[job].handle(rank, cmd, &mut effects),
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
                self.apply(job, effects);
                let who = self.who(i);
                self.fail(1, format!("{who} {what}"));
                return;
            }
        }
        self.apply(job, effects);
    }

    /// One line of a spawn request from rank `i`: collect its block; at `endcmd` parse it,
    /// and at the request's last block start the new job (answering `spawn_result`). A
    /// malformed request is the rank's protocol error.
    fn spawn_line(&mut self, i: usize, line: String) -> Result<(), String> {
        let r = &mut self.ranks[i];
        if r.mcmd.is_empty() && line != "mcmd=spawn" {
            return Err(format!(
                "sent an unsupported PMI command: {:?}",
                &line[..line.len().min(80)]
            ));
        }
        let done = line == "endcmd";
        r.mcmd.push(line);
        if r.mcmd.len() > 8 * 1024 {
            return Err("sent a spawn request of too many lines".into());
        }
        if !done {
            return Ok(());
        }
        let lines = std::mem::take(&mut r.mcmd);
        let (block, total, sofar) = wire::SpawnBlock::parse(&lines)
            .map_err(|e| format!("sent a malformed spawn request ({e})"))?;
        if sofar as usize != r.spawn_blocks.len() + 1 {
            return Err(format!("sent spawn block {sofar} out of order"));
        }
        r.spawn_blocks.push(block);
        if sofar < total {
            return Ok(());
        }
        let blocks = std::mem::take(&mut r.spawn_blocks);
        let rc = match self.spawn_job(i, &blocks) {
            Ok(true) => 0,
            Ok(false) => return Ok(()), // answered once the proxies started them
            Err(e) => {
                eprintln!("mpiexec: {} could not spawn: {e}", self.who(i));
                -1
            }
        };
        self.spawn_result(i, rc);
        Ok(())
    }

    /// Answers rank `i`'s spawn.
    fn spawn_result(&mut self, i: usize, rc: i32) {
        let job = self.ranks[i].job;
        let rank = self.ranks[i].rank;
        self.apply(
            job,
            vec![Effect::Reply(
                rank,
                wire::Reply::SpawnResult { rc, errcodes: None },
            )],
        );
    }

    /// A proxy reported rank `i` started (`failed`: it could not start). Answers the spawn
    /// it belongs to when that was the last start awaited; a failed start ends the spawned
    /// job's other processes and fails the spawn. Whether the exit is the spawn's news.
    fn spawn_progress(&mut self, i: usize, failed: bool) -> bool {
        let job = self.ranks[i].job;
        let Some(at) = self.spawning.iter().position(|s| s.job == job) else {
            return false;
        };
        if !failed {
            self.spawning[at].waiting -= 1;
            if self.spawning[at].waiting == 0 {
                let s = self.spawning.remove(at);
                self.spawn_result(s.spawner, 0);
            }
            return false;
        }
        let s = self.spawning.remove(at);
        let end = self.bases.get(job + 1).copied().unwrap_or(self.ranks.len());
        for v in self.bases[job]..end {
            if !self.ranks[v].aborted {
                self.ranks[v].aborted = true;
                self.signal_one(v, libc::SIGKILL);
            }
        }
        let who = self.who(s.spawner);
        eprintln!("mpiexec: {who} could not spawn: a process did not start");
        self.spawn_result(s.spawner, -1);
        true
    }

    /// MPI_Comm_spawn(_multiple) by rank `spawner`: a new job of the processes `blocks`
    /// name (one MPI_COMM_WORLD over all of them, MPI_APPNUM the command's number), with
    /// its own key-value space holding the blocks' preput keys (the parents' port) and its
    /// own secret; its processes are this mpiexec's ranks like any (their failure ends
    /// everything). On one host they start here (Ok(true): started); across hosts they are
    /// placed like the job's ranks over the hosts whose proxy still runs (info `host`:
    /// those named) and the proxies start them (Ok(false): answered when they report).
    fn spawn_job(&mut self, spawner: usize, blocks: &[wire::SpawnBlock]) -> Result<bool, String> {
        if self.kill_started.is_some() {
            return Err("the job is ending".into());
        }
        let total: u32 = blocks.iter().map(|b| b.nprocs).sum();
        if total > wire::SPAWN_MAX_PROCS {
            return Err(format!(
                "{total} processes is more than one spawn may start"
            ));
        }
        let here = crate::sys::cpu::hostname();
        let job = self.servers.len();
        let kvsname = format!("railmpi_{}_{job}", std::process::id());
        let mut server = self.servers[0].sibling(&kvsname, total);
        let secret = crate::fabric::tcp::secret_to_hex(&spawned_secret(&self.secret, job as u32));
        let mut env = self.opts.env.clone();
        env.push(("PMI_SPAWNED".into(), "1".into()));
        // The hosts that may take processes across hosts: the job's, with a proxy running.
        let live: Vec<hosts::Host> = match (&self.hosts, &self.opts.hosts) {
            (Some(h), Some(list)) => list
                .iter()
                .filter(|x| {
                    h.links
                        .iter()
                        .any(|l| l.host == x.name && l.stream.is_some())
                })
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        // Check every command before starting any.
        let mut plans = Vec::new();
        for (appnum, b) in blocks.iter().enumerate() {
            let mut program = b.execname.clone();
            let mut wdir = None;
            let mut on = None;
            for (k, v) in &b.info {
                match k.as_str() {
                    "wdir" => wdir = Some(v.clone()),
                    "path" if !program.contains('/') => {
                        let p = std::path::Path::new(v).join(&program);
                        if self.hosts.is_some() || p.exists() {
                            program = p.to_string_lossy().into_owned();
                        }
                    }
                    "host" | "hosts" => {
                        let names = v.split(',').map(str::trim).filter(|h| !h.is_empty());
                        if self.hosts.is_none() {
                            if let Some(h) = names
                                .clone()
                                .find(|h| !["localhost", here.as_str()].contains(h))
                            {
                                return Err(format!(
                                    "host {h} (info key {k}): this job runs on {here} alone"
                                ));
                            }
                            continue;
                        }
                        let mut chosen: Vec<hosts::Host> = Vec::new();
                        for h in names {
                            match live.iter().find(|x| x.name == h) {
                                Some(x) if !chosen.iter().any(|c| c.name == h) => {
                                    chosen.push(x.clone())
                                }
                                Some(_) => {}
                                None => {
                                    return Err(format!(
                                        "host {h} (info key {k}) is not a host of this job \
                                         with its proxy running"
                                    ))
                                }
                            }
                        }
                        on = (!chosen.is_empty()).then_some(chosen);
                    }
                    _ => {}
                }
            }
            for (k, v) in &b.preput {
                server.preput(k, v);
            }
            plans.push((appnum, b, program, wdir, on));
        }
        if self.hosts.is_some() {
            return self.spawn_on_proxies(spawner, job, server, env, plans, live);
        }
        let base = self.ranks.len();
        let mut rank = 0u32;
        for (appnum, b, program, wdir, _) in plans {
            for _ in 0..b.nprocs {
                server.set_appnum(rank, appnum as i32);
                let started = start(&Start {
                    program: &program,
                    args: &b.args,
                    env: &env,
                    rank,
                    size: total,
                    local_rank: rank,
                    local_size: total,
                    secret: &secret,
                    stdin: Input::Null,
                    capture: self.opts.tag_output,
                    cwd: wdir.as_deref(),
                });
                let r = started.and_then(|(child, pmi)| started_rank(rank, job, child, pmi));
                match r {
                    Ok(r) => self.ranks.push(r),
                    Err(e) => {
                        // The ones started are ended (and reaped): the spawn failed as a
                        // whole.
                        for r in self.ranks.drain(base..) {
                            r.signal(libc::SIGKILL);
                            if let Some(mut c) = r.child {
                                let _ = c.wait();
                            }
                        }
                        return Err(format!("cannot start {program}: {e}"));
                    }
                }
                rank += 1;
            }
        }
        self.servers.push(server);
        self.bases.push(base);
        Ok(true)
    }

    /// The placement and start of a spawn across hosts (see `spawn_job`).
    #[allow(clippy::type_complexity)]
    fn spawn_on_proxies(
        &mut self,
        spawner: usize,
        job: usize,
        mut server: PmiServer,
        env: Vec<(String, String)>,
        plans: Vec<(
            usize,
            &wire::SpawnBlock,
            String,
            Option<String>,
            Option<Vec<hosts::Host>>,
        )>,
        live: Vec<hosts::Host>,
    ) -> Result<bool, String> {
        if live.is_empty() {
            return Err("no host of the job has its proxy running any more".into());
        }
        let h = self.hosts.as_mut().expect("across hosts");
        let total = server.size();
        let mut per_link: Vec<Vec<SpawnedProc>> = vec![Vec::new(); h.links.len()];
        let mut owner = vec![0usize; total as usize];
        let mut next = 0u32;
        for (appnum, b, program, wdir, on) in plans {
            let hosts = on.unwrap_or_else(|| live.clone());
            for (name, ranks) in hosts::place(&hosts, Some(b.nprocs), self.opts.ppn) {
                let k = h
                    .links
                    .iter()
                    .position(|l| l.host == name)
                    .expect("a live host has a link");
                for r in ranks {
                    let rank = next + r;
                    server.set_appnum(rank, appnum as i32);
                    owner[rank as usize] = k;
                    per_link[k].push(SpawnedProc {
                        rank,
                        program: program.clone(),
                        args: b.args.clone(),
                        wdir: wdir.clone().unwrap_or_default(),
                    });
                }
            }
            next += b.nprocs;
        }
        let mut mapping: Vec<(String, Vec<u32>)> = Vec::new();
        for (k, procs) in per_link.iter().enumerate() {
            if !procs.is_empty() {
                let mut ranks: Vec<u32> = procs.iter().map(|q| q.rank).collect();
                ranks.sort_unstable();
                mapping.push((h.links[k].host.clone(), ranks));
            }
        }
        mapping.sort_by_key(|(_, r)| r[0]);
        if let Some(m) = hosts::process_mapping(&mapping) {
            server.set_process_mapping(&m);
        }
        let env = forwarded_env(&env);
        let kvsname = server.kvsname().to_string();
        for (k, procs) in per_link.into_iter().enumerate() {
            if !procs.is_empty() {
                h.links[k].send(&Frame::Spawn(Spawned {
                    job: job as u32,
                    kvsname: kvsname.clone(),
                    size: total,
                    env: env.clone(),
                    procs,
                }));
            }
        }
        let base = self.ranks.len();
        for (rank, &k) in owner.iter().enumerate() {
            self.ranks.push(Rank::remote(rank as u32, job, k));
        }
        self.servers.push(server);
        self.bases.push(base);
        self.spawning.push(Spawning {
            job,
            spawner,
            waiting: total as usize,
        });
        for k in 0..self.hosts.as_ref().map_or(0, |h| h.links.len()) {
            self.flush_link(k);
        }
        Ok(false)
    }

    /// What the PMI server of job `job` asked for.
    fn apply(&mut self, job: usize, effects: Vec<Effect>) {
        let mut touched = Vec::new();
        for e in effects {
            match e {
                Effect::Reply(to, reply) => {
                    let to = self.bases[job] + to as usize;
                    let r = &mut self.ranks[to];
                    if let (Some(k), Some(h)) = (r.proxy, self.hosts.as_mut()) {
                        if r.status.is_none() {
                            h.links[k].send(&Frame::Pmi {
                                job: r.job as u32,
                                rank: r.rank,
                                line: reply.encode().into_bytes(),
                            });
                        }
                    } else if r.pmi.is_some() {
                        r.outbuf.extend_from_slice(reply.encode().as_bytes());
                        touched.push(to);
                    }
                }
                Effect::Abort { rank, code, ranks } => {
                    // The aborting rank said so on its stderr: no line of ours (None).
                    let i = self.bases[job] + rank as usize;
                    if self.opts.auto_cleanup || ranks.is_empty() {
                        // It leaves by itself, flushing its output on the way: no SIGTERM
                        // (SIGKILL after the grace, like the others, if it lingers).
                        self.aborting = Some(i);
                        self.fail_with(code, None);
                        continue;
                    }
                    // -disable-auto-cleanup: the ranks named end, the others go on. The
                    // caller is among them unless it aborted another group than its own
                    // (an intercommunicator's remote group): then it goes on too.
                    let named = |r: u32| ranks.iter().any(|&(a, b)| (a..=b).contains(&r));
                    if named(rank) {
                        self.ranks[i].aborted = true;
                    }
                    let end = self.bases[job] + self.servers[job].size() as usize;
                    for v in (self.bases[job]..end).filter(|&v| v != i) {
                        let r = &self.ranks[v];
                        if named(r.rank) && r.alive() && !r.aborted {
                            self.ranks[v].aborted = true;
                            self.signal_one(v, libc::SIGKILL);
                        }
                    }
                    self.rank_failed_with(i, code, None);
                }
            }
        }
        touched.dedup();
        for i in touched {
            self.ranks[i].flush();
        }
        if let Some(h) = self.hosts.as_mut() {
            for k in 0..h.links.len() {
                if !h.links[k].outbuf.is_empty() {
                    self.flush_link(k);
                    return;
                }
            }
        }
    }

    /// `waitpid(WNOHANG)` on every live rank; judges each exit.
    fn reap(&mut self) {
        let mut exited = Vec::new();
        for i in 0..self.ranks.len() {
            if !self.ranks[i].alive() {
                continue;
            }
            let Some(child) = self.ranks[i].child.as_mut() else {
                continue; // a proxy reports it
            };
            match child.try_wait() {
                Ok(Some(s)) => exited.push((i, s)),
                Ok(None) => {}
                Err(e) => {
                    // ECHILD cannot happen for our own unreaped child; treat as lost.
                    eprintln!("mpiexec: waitpid for rank {i} failed: {e}");
                    exited.push((i, ExitStatus::from_raw(255 << 8)));
                }
            }
        }
        if exited.is_empty() {
            return;
        }
        // Lines sent before these exits (finalize, and an abort by any rank: a rank that
        // failed because another aborted must not be taken for the cause) come first.
        for i in 0..self.ranks.len() {
            if self.ranks[i].child.is_some() && self.ranks[i].pmi.is_some() {
                self.service_pmi(i);
            }
        }
        for (i, status) in exited {
            self.judge(i, status);
        }
    }

    /// "rank R (pid P)", with the host where a proxy started it.
    fn who(&self, i: usize) -> String {
        let r = &self.ranks[i];
        let of = match r.job {
            0 => String::new(),
            j => format!(" of spawned job {j}"),
        };
        match (r.proxy, &self.hosts) {
            (Some(k), Some(h)) => {
                format!("rank {}{of} (pid {} on {})", r.rank, r.pid, h.links[k].host)
            }
            _ => format!("rank {}{of} (pid {})", r.rank, r.pid),
        }
    }

    /// Rank `i` ended with `status`: the exit policy.
    fn judge(&mut self, i: usize, status: ExitStatus) {
        {
            self.ranks[i].status = Some(status);
            // Still open after the rank exited: a process it forked holds it.
            let pmi_held = self.ranks[i].pmi.take();
            if !self.opts.auto_cleanup {
                // The others' barriers go on without it.
                let (job, rank) = (self.ranks[i].job, self.ranks[i].rank);
                let mut effects = Vec::new();
                self.servers[job].rank_gone(rank, &mut effects);
                self.apply(job, effects);
            }
            if self.kill_started.is_some() || self.ranks[i].aborted {
                return; // killed by us, or after the failure: not the cause
            }
            let r = &self.ranks[i];
            let st = self.servers[r.job].rank_state(r.rank);
            let who = self.who(i);
            if let Some(sig) = status.signal() {
                let core = if status.core_dumped() {
                    ", core dumped"
                } else {
                    ""
                };
                self.rank_failed(
                    i,
                    128 + sig,
                    format!(
                        "{who} was killed by signal {sig} ({}{core})",
                        signals::name(sig)
                    ),
                );
            } else {
                let code = status.code().unwrap_or(255);
                if code != 0 {
                    self.rank_failed(i, code, format!("{who} exited with status {code}"));
                } else if st.initialized && !st.finalized {
                    match pmi_held {
                        // Nothing of it is left: the others cannot finish what needed it
                        // (as Hydra, the job ends at once; not a failure by itself).
                        None => {
                            self.rank_failed(i, 0, format!("{who} exited without MPI_Finalize"))
                        }
                        // Children it forked after MPI_Init (which never initialized
                        // themselves, as osu_latency_mp's) may still be working: they
                        // get the grace.
                        Some(sock) if self.unfinalized_exit.is_none() => {
                            self.ranks[i].pmi = Some(sock);
                            self.unfinalized_exit = Some((who, Instant::now(), i));
                        }
                        Some(_) => {}
                    }
                }
            }
        }
    }
}

/// Shell-quotes one word (for the remote shell ssh and rsh hand the command to).
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c))
    {
        return w.to_string();
    }
    format!("'{}'", w.replace('\'', "'\\''"))
}

/// Listens for the proxies and starts one per host through the launcher (directly on
/// this host). Each proxy gets the job secret on its standard input.
fn start_proxies(
    opts: &Options,
    placement: &[(String, Vec<u32>)],
    secret: crate::fabric::tcp::Secret,
    secret_hex: &str,
    timeout_ms: u32,
) -> Result<Hosts, String> {
    let names: Vec<String> = placement.iter().map(|(h, _)| h.clone()).collect();
    let ip = hosts::root_address(&names, opts.iface.as_deref())?;
    let listener = TcpListener::bind((ip, 0)).map_err(|e| format!("listening on {ip}: {e}"))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("listening on {ip}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("listening on {ip}: {e}"))?;
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find this program's path for the proxies: {e}"))?;
    let exe = exe.to_string_lossy().into_owned();
    let mut links = Vec::new();
    for (k, (host, ranks)) in placement.iter().enumerate() {
        let remote = [
            exe.clone(),
            "--proxy".to_string(),
            addr.to_string(),
            k.to_string(),
        ];
        let mut cmd = if hosts::is_local(host) {
            let mut c = Command::new(&remote[0]);
            c.args(&remote[1..]);
            c
        } else {
            let words: Vec<String> = remote.iter().map(|w| shell_word(w)).collect();
            let mut c = match opts.launcher.as_str() {
                "ssh" => {
                    let mut c = Command::new("ssh");
                    c.args(["-x", "-o", "BatchMode=yes"]);
                    c
                }
                "rsh" => Command::new("rsh"),
                other => {
                    let mut parts = other.split_whitespace();
                    let mut c = Command::new(parts.next().unwrap_or(other));
                    c.args(parts);
                    c
                }
            };
            c.arg(host).args(words);
            c
        };
        cmd.stdin(Stdio::piped());
        let mut launcher = cmd.spawn().map_err(|e| {
            format!(
                "cannot start the launcher {:?} for host {host}: {e}",
                opts.launcher
            )
        })?;
        if let Some(mut input) = launcher.stdin.take() {
            // A launcher that does not read its input gets EPIPE; its proxy then fails
            // to authenticate and that is reported.
            let _ = input.write_all(format!("{secret_hex}\n").as_bytes());
        }
        links.push(Link {
            host: host.clone(),
            ranks: ranks.clone(),
            launcher,
            launcher_done: false,
            stream: None,
            connected_once: false,
            inbuf: Vec::new(),
            outbuf: Vec::new(),
        });
    }
    let stdin_to = placement.iter().position(|(_, r)| r.contains(&0));
    Ok(Hosts {
        listener,
        secret,
        links,
        connect_deadline: Instant::now() + CONNECT_TIMEOUT,
        stdin_to,
        partial: Default::default(),
        pending: Vec::new(),
        next_pending: 0,
        spare: crate::sys::net::SpareFd::new(),
        listen_paused_until: None,
        // A few lines, then one every so often saying how many were held back.
        warnings: RateLimit::new(5, Duration::from_secs(10)),
        timeout_ms,
    })
}

impl Job<'_> {
    /// Takes new connections off the listen queue (a bounded number per call) and starts
    /// their handshakes, which go on in the event loop: nothing here blocks.
    fn accept_proxy(&mut self, now: Instant) {
        for _ in 0..ACCEPTS_PER_POLL {
            let Some(h) = self.hosts.as_mut() else { return };
            match h.listener.accept() {
                Ok((s, peer)) => {
                    // A proxy's hello is usually there already.
                    if let Some(id) = h.add_pending(s, peer, now) {
                        self.service_pending(id);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE)) => {
                    match h.shed() {
                        Shed::Room => {}
                        Shed::Empty => return,
                        Shed::Stuck => {
                            h.listen_paused_until = Some(now + ACCEPT_PAUSE);
                            h.refuse_accept(&e);
                            return;
                        }
                    }
                }
                // The peer gave up (or a firewall said no) before we took it: nothing to do.
                Err(e) if matches!(e.raw_os_error(), Some(libc::ECONNABORTED | libc::EPERM)) => {}
                Err(e) => {
                    // ENOBUFS, ENOMEM...: rest rather than spin on a readable listener.
                    h.listen_paused_until = Some(now + ACCEPT_PAUSE);
                    h.refuse_accept(&e);
                    return;
                }
            }
        }
    }

    /// Moves pending handshake `id` on; admits the proxy once it proved the secret.
    fn service_pending(&mut self, id: u64) {
        let Some(h) = self.hosts.as_mut() else { return };
        let Some(j) = h.pending.iter().position(|p| p.id == id) else {
            return; // dropped meanwhile
        };
        match h.pending[j].step(&h.secret) {
            Ok(None) => {}
            Ok(Some(proxy)) => {
                let p = h.pending.remove(j);
                self.admit(p.stream, p.peer, proxy);
            }
            Err(why) => {
                let p = h.pending.remove(j);
                h.refuse(p.peer, &why);
            }
        }
    }

    /// Proxy `id` proved the secret on `s`: it becomes its link, and gets its setup.
    fn admit(&mut self, s: TcpStream, peer: SocketAddr, id: u32) {
        let Some(h) = self.hosts.as_mut() else { return };
        let timeout_ms = h.timeout_ms;
        let Some(link) = h
            .links
            .get_mut(id as usize)
            .filter(|l| l.stream.is_none() && !l.connected_once)
        else {
            h.refuse(peer, &format!("no proxy {id} is expected"));
            return;
        };
        let _ = s.set_nodelay(true);
        // A proxy whose host becomes unreachable is noticed even while the job is quiet.
        crate::sys::net::set_timeouts(&s, timeout_ms);
        link.stream = Some(s);
        link.connected_once = true;
        let setup = Setup {
            kvsname: self.servers[0].kvsname().to_string(),
            size: self.opts.nprocs,
            ranks: link.ranks.clone(),
            program: self.opts.program.clone(),
            args: self.opts.args.clone(),
            env: forwarded_env(&self.opts.env),
            timeout_ms,
        };
        link.send(&Frame::Setup(setup));
        self.flush_link(id as usize);
    }

    fn flush_link(&mut self, k: usize) {
        let Some(h) = self.hosts.as_mut() else { return };
        if let Err(e) = h.links[k].flush() {
            let why = link_error(&e, h.timeout_ms);
            self.lose_link(k, &why);
        }
    }

    /// The connection to proxy `k` ended: its ranks that have not exited are lost.
    fn lose_link(&mut self, k: usize, why: &str) {
        let Some(h) = self.hosts.as_mut() else { return };
        let l = &mut h.links[k];
        l.stream = None;
        l.outbuf.clear();
        let host = l.host.clone();
        let lost: Vec<usize> = (0..self.ranks.len())
            .filter(|&i| self.ranks[i].proxy == Some(k) && self.ranks[i].alive())
            .collect();
        if lost.is_empty() {
            return;
        }
        for &i in &lost {
            self.ranks[i].status = Some(ExitStatus::from_raw(255 << 8));
        }
        self.fail(
            255,
            format!(
                "lost the proxy on host {host} ({why}) with {} rank(s) running",
                lost.len()
            ),
        );
    }

    fn read_link(&mut self, k: usize) {
        let Some(h) = self.hosts.as_mut() else { return };
        let l = &mut h.links[k];
        let mut chunk = [0u8; 64 * 1024];
        // Why the connection ended, once it did.
        let mut ended = None;
        for _ in 0..16 {
            let Some(s) = l.stream.as_mut() else { return };
            match s.read(&mut chunk) {
                Ok(0) => {
                    ended = Some("its connection closed".to_string());
                    break;
                }
                Ok(n) => l.inbuf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => {
                    ended = Some(link_error(&e, h.timeout_ms));
                    break;
                }
            }
        }
        loop {
            let Some(h) = self.hosts.as_mut() else { return };
            let l = &mut h.links[k];
            match Frame::take(&mut l.inbuf) {
                Ok(Some(f)) => {
                    if let Err(e) = self.on_frame(k, f) {
                        self.lose_link(k, &e);
                        return;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    self.lose_link(k, &format!("it sent {e}"));
                    return;
                }
            }
        }
        if let Some(why) = ended {
            self.lose_link(k, &why);
        }
    }

    /// One frame from proxy `k`; Err for one it had no business sending.
    fn on_frame(&mut self, k: usize, f: Frame) -> Result<(), String> {
        let rank_of = |me: &Self, job: u32, rank: u32| -> Result<usize, String> {
            let i = me.bases.get(job as usize).map(|b| b + rank as usize);
            let end = match me.bases.get(job as usize + 1) {
                Some(&e) => e,
                None => me.ranks.len(),
            };
            match i.filter(|&i| i < end).map(|i| (i, &me.ranks[i])) {
                Some((i, r)) if r.proxy == Some(k) => Ok(i),
                _ => Err(format!(
                    "it named rank {rank} of job {job}, which is not its own"
                )),
            }
        };
        match f {
            Frame::Pmi { job, rank, line } => {
                let i = rank_of(self, job, rank)?;
                if self.ranks[i].alive() {
                    self.ranks[i].inbuf.push(&line);
                    self.service_pmi(i);
                }
            }
            Frame::Output {
                job,
                rank,
                stream,
                bytes,
            } => {
                rank_of(self, job, rank)?;
                let sink = if stream == 1 {
                    Sink::Stdout
                } else {
                    Sink::Stderr
                };
                if self.opts.tag_output {
                    let h = self.hosts.as_mut().expect("multi-host");
                    let partial = h.partial.entry((job, rank, stream)).or_default();
                    partial.extend_from_slice(&bytes);
                    let mut out = Vec::new();
                    output::take_lines(format!("[{rank}] ").as_bytes(), partial, &mut out, false);
                    output::emit(sink, &out);
                } else {
                    output::emit(sink, &bytes);
                }
            }
            Frame::Started { job, rank, pid } => {
                let i = rank_of(self, job, rank)?;
                self.ranks[i].pid = pid;
                self.spawn_progress(i, false);
            }
            Frame::Exited {
                job,
                rank,
                code,
                signal,
                core,
            } => {
                let i = rank_of(self, job, rank)?;
                if self.opts.tag_output {
                    let h = self.hosts.as_mut().expect("multi-host");
                    for stream in [1u8, 2] {
                        if let Some(mut partial) = h.partial.remove(&(job, rank, stream)) {
                            let mut out = Vec::new();
                            let prefix = format!("[{rank}] ");
                            output::take_lines(prefix.as_bytes(), &mut partial, &mut out, true);
                            let sink = if stream == 1 {
                                Sink::Stdout
                            } else {
                                Sink::Stderr
                            };
                            output::emit(sink, &out);
                        }
                    }
                }
                if self.ranks[i].pid == 0 && self.spawn_progress(i, true) {
                    // A spawned process that never started: the spawn failed, not the job.
                    self.ranks[i].status = Some(ExitStatus::from_raw((code & 0xff) << 8));
                    return Ok(());
                }
                if self.ranks[i].alive() {
                    let raw = if signal != 0 {
                        (signal & 0x7f) | if core { 0x80 } else { 0 }
                    } else {
                        (code & 0xff) << 8
                    };
                    self.service_pmi(i);
                    self.judge(i, ExitStatus::from_raw(raw));
                }
            }
            other => return Err(format!("it sent a frame for proxies: {other:?}")),
        }
        Ok(())
    }

    /// Our stdin, to rank 0's proxy.
    fn forward_stdin(&mut self) {
        let Some(h) = self.hosts.as_mut() else { return };
        let Some(k) = h.stdin_to else { return };
        let mut chunk = vec![0u8; 64 * 1024];
        // SAFETY: reading into a buffer we own, of the length given.
        let n = unsafe { libc::read(0, chunk.as_mut_ptr() as *mut libc::c_void, chunk.len()) };
        if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            return;
        }
        chunk.truncate(n.max(0) as usize);
        if chunk.is_empty() {
            h.stdin_to = None; // end of file (or an error): tell the proxy
        }
        h.links[k].send(&Frame::Stdin(chunk));
        self.flush_link(k);
    }

    /// A launcher that ends before its proxy connected: the proxy could not start.
    fn reap_launchers(&mut self) {
        let Some(h) = self.hosts.as_mut() else { return };
        let mut failed = None;
        let mut never = Vec::new();
        for (k, l) in h
            .links
            .iter_mut()
            .enumerate()
            .filter(|(_, l)| !l.launcher_done)
        {
            if let Ok(Some(st)) = l.launcher.try_wait() {
                l.launcher_done = true;
                if !l.connected_once {
                    never.push(k);
                }
                if !l.connected_once && failed.is_none() {
                    let code = st.code().unwrap_or(255);
                    failed = Some((
                        if code == 0 { 1 } else { code },
                        format!(
                            "the launcher for host {} ended ({st}) before the proxy connected",
                            l.host
                        ),
                    ));
                }
            }
        }
        if let Some((code, msg)) = failed {
            self.fail(code, msg);
        }
        // No proxy will report those ranks: they never ran.
        for k in never {
            for r in self.ranks.iter_mut().filter(|r| r.proxy == Some(k)) {
                r.status.get_or_insert(ExitStatus::from_raw(255 << 8));
            }
        }
    }

    /// Tearing down, ranks whose proxy never answers are given up on (after the kill
    /// sequence had time to reach them): nothing waits forever.
    fn give_up_on_proxies(&mut self, now: Instant) {
        let Some(t) = self.kill_started else { return };
        if now < t + 4 * KILL_GRACE || self.hosts.is_none() {
            return;
        }
        for r in self.ranks.iter_mut().filter(|r| r.proxy.is_some()) {
            r.status.get_or_insert(ExitStatus::from_raw(255 << 8));
        }
    }

    /// The job is over: close the connections (a proxy still running then kills its
    /// ranks) and give the launchers a moment before ending them.
    fn end_proxies(&mut self) {
        let Some(h) = self.hosts.as_mut() else { return };
        for l in &mut h.links {
            l.stream = None;
        }
        h.pending.clear();
        let held = h.warnings.suppressed();
        if held > 0 {
            eprintln!("mpiexec: {held} more refused connection(s) were not logged");
        }
        let until = Instant::now() + KILL_GRACE;
        for l in &mut h.links {
            while !l.launcher_done {
                match l.launcher.try_wait() {
                    Ok(None) if Instant::now() < until => {
                        std::thread::sleep(Duration::from_millis(10))
                    }
                    Ok(None) => {
                        let _ = l.launcher.kill();
                        let _ = l.launcher.wait();
                        l.launcher_done = true;
                    }
                    _ => l.launcher_done = true,
                }
            }
        }
    }
}

/// What ranks on other hosts get in their environment: our `RAILMPI_*` settings (as ranks
/// on this host inherit them; Hydra forwards its whole environment likewise), then the
/// `-env`/`-genv` pairs, which win. The job secret travels apart.
fn forwarded_env(explicit: &[(String, String)]) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| k.starts_with("RAILMPI_") && k != "RAILMPI_JOB_SECRET")
        .collect();
    env.sort();
    env.extend(explicit.iter().cloned());
    env
}
