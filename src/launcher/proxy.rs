//! Proxy mode (`mpiexec --proxy ADDR:PORT ID`): what mpiexec runs on each host of a
//! multi-host job. It reads the job secret from its standard input, connects back to the
//! root mpiexec and proves the secret, takes the `Setup` of its host, starts those ranks
//! (the same way a one-node job does), and then relays: their PMI lines up and the replies
//! down, their output up, their starts and exits up, stdin down to rank 0, signals down.
//! When the root's connection ends first, the ranks are killed (nothing outlives the job),
//! also when it fails silently: keepalive probes and `TCP_USER_TIMEOUT` (the Setup's
//! timeout, mpiexec's `RAILMPI_TCP_TIMEOUT`) find a root that no longer answers;
//! when the ranks are done, the job's shared-memory files on this host are removed.

use super::handshake::ROOT_ID;
use super::job::{self, Input, Start, HANDSHAKE_TIMEOUT};
use super::relay::{Frame, Setup, Spawned};
use super::signals;
use crate::fabric::tcp::auth::{self, Challenge, Hello, Role, Transcript};
use crate::fabric::tcp::{secret_from_hex, Secret};
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStdin};
use std::time::{Duration, Instant};

/// After the last rank exited, how long its descendants' output is still forwarded.
const OUTPUT_DRAIN: Duration = Duration::from_secs(1);

struct LocalRank {
    /// Its job (0: the one mpiexec started, then the spawned ones) and rank in it.
    job: u32,
    rank: u32,
    child: Child,
    done: bool,
    pmi: Option<UnixStream>,
    pmi_out: Vec<u8>,
    /// stdout, stderr (None once closed).
    pipes: [Option<std::fs::File>; 2],
    stdin: Option<ChildStdin>,
}

fn fail(msg: impl std::fmt::Display) -> i32 {
    eprintln!("mpiexec proxy on {}: {msg}", crate::sys::cpu::hostname());
    1
}

/// Entry point of proxy mode; returns the exit status.
pub fn run(root: SocketAddr, id: u32) -> i32 {
    let mut line = String::new();
    if io::stdin().read_line(&mut line).is_err() {
        return fail("cannot read the job secret from standard input");
    }
    let Some(secret) = secret_from_hex(line.trim()) else {
        return fail("no job secret on standard input");
    };
    if let Err(e) = signals::install() {
        return fail(format!("cannot install signal handlers: {e}"));
    }
    let mut stream = match connect(root, id, &secret) {
        Ok(s) => s,
        Err(e) => return fail(format!("cannot join the job at {root}: {e}")),
    };
    let (setup, rest) = match read_setup(&mut stream) {
        Ok(s) => s,
        Err(e) => return fail(format!("no setup from {root}: {e}")),
    };
    // From here on the job may be quiet for long: a root that stops answering (its host
    // unreachable) must still be noticed.
    crate::sys::net::set_timeouts(&stream, setup.timeout_ms.max(1));
    let mut proxy = Proxy::new(stream, &setup, secret);
    proxy.inbuf = rest;
    proxy.read_root();
    proxy.run()
}

/// The connector's side of the handshake (see `job::handshake`).
fn connect(root: SocketAddr, id: u32, secret: &Secret) -> io::Result<TcpStream> {
    let bad = |m: &str| io::Error::new(io::ErrorKind::InvalidData, m.to_string());
    let mut s = TcpStream::connect_timeout(&root, HANDSHAKE_TIMEOUT)?;
    s.set_read_timeout(Some(HANDSHAKE_TIMEOUT))?;
    s.set_write_timeout(Some(HANDSHAKE_TIMEOUT))?;
    let hello = Hello {
        version: auth::VERSION,
        rank: id,
        nonce: auth::random(),
    };
    s.write_all(&hello.encode())?;
    let mut b = [0u8; Challenge::BYTES];
    s.read_exact(&mut b)?;
    let c = Challenge::decode(&b).ok_or_else(|| bad("not a challenge"))?;
    let t = Transcript {
        connector: id,
        acceptor: ROOT_ID,
        connector_nonce: hello.nonce,
        acceptor_nonce: c.nonce,
    };
    // The root proves the secret too: a process that merely listens there gets nothing.
    if c.rank != ROOT_ID || !t.verify(secret, Role::Acceptor, &c.mac) {
        return Err(bad("the root did not prove the job secret"));
    }
    s.write_all(&t.prove(secret, Role::Connector))?;
    let _ = s.set_nodelay(true);
    Ok(s)
}

/// The setup frame, and the bytes of the frames that followed it in the same reads.
fn read_setup(s: &mut TcpStream) -> io::Result<(Setup, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match Frame::take(&mut buf) {
            Ok(Some(Frame::Setup(setup))) => return Ok((setup, buf)),
            Ok(Some(_)) => return Err(io::Error::other("a frame before the setup")),
            Ok(None) => {}
            Err(e) => return Err(io::Error::other(e)),
        }
        let n = s.read(&mut chunk)?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

struct Proxy {
    root: Option<TcpStream>,
    inbuf: Vec<u8>,
    outbuf: Vec<u8>,
    ranks: Vec<LocalRank>,
    stdin_buf: Vec<u8>,
    stdin_eof: bool,
    /// Why the proxy is killing its ranks (the root is gone, or a start failed).
    killing: Option<String>,
    /// The Setup's timeout (ms), for the words when the root stops answering.
    timeout_ms: u32,
    /// The job's secret, from which spawned jobs' are derived.
    secret: Secret,
    /// The root said every process of the job has ended (`Frame::End`): leave once the
    /// output is out. Until then more may come (a spawn).
    ended: bool,
}

/// How to start one process here.
struct Proc<'a> {
    job: u32,
    rank: u32,
    size: u32,
    local: (u32, u32),
    program: &'a str,
    args: &'a [String],
    env: &'a [(String, String)],
    secret: &'a str,
    cwd: Option<&'a str>,
}

#[derive(Clone, Copy)]
enum Source {
    Root,
    Pmi(usize),
    Pipe(usize, usize),
    Stdin(usize),
}

impl Proxy {
    fn new(stream: TcpStream, setup: &Setup, secret: Secret) -> Proxy {
        let _ = stream.set_nonblocking(true);
        let mut p = Proxy {
            root: Some(stream),
            inbuf: Vec::new(),
            outbuf: Vec::new(),
            ranks: Vec::new(),
            stdin_buf: Vec::new(),
            stdin_eof: false,
            killing: None,
            timeout_ms: setup.timeout_ms,
            secret,
            ended: false,
        };
        let n = setup.ranks.len() as u32;
        let hex = crate::fabric::tcp::secret_to_hex(&secret);
        for (local, &rank) in setup.ranks.iter().enumerate() {
            p.start(&Proc {
                job: 0,
                rank,
                size: setup.size,
                local: (local as u32, n),
                program: &setup.program,
                args: &setup.args,
                env: &setup.env,
                secret: &hex,
                cwd: None,
            });
        }
        p
    }

    /// The processes of spawned job `s.job` that this host runs.
    fn spawn(&mut self, s: Spawned) {
        if s.job == 0 || self.ranks.iter().any(|r| r.job == s.job) || self.killing.is_some() {
            return self.root_gone("it sent a spawn twice");
        }
        let hex = crate::fabric::tcp::secret_to_hex(&job::spawned_secret(&self.secret, s.job));
        let n = s.procs.len() as u32;
        for (local, q) in s.procs.iter().enumerate() {
            self.start(&Proc {
                job: s.job,
                rank: q.rank,
                size: s.size,
                local: (local as u32, n),
                program: &q.program,
                args: &q.args,
                env: &s.env,
                secret: &hex,
                cwd: (!q.wdir.is_empty()).then_some(q.wdir.as_str()),
            });
        }
    }

    /// Starts one process and reports it (its start, or its failure as output and exit).
    fn start(&mut self, q: &Proc) {
        let (job, rank) = (q.job, q.rank);
        let started = job::start(&Start {
            program: q.program,
            args: q.args,
            env: q.env,
            rank,
            size: q.size,
            local_rank: q.local.0,
            local_size: q.local.1,
            secret: q.secret,
            stdin: if (job, rank) == (0, 0) {
                Input::Piped
            } else {
                Input::Null
            },
            capture: true,
            cwd: q.cwd,
        });
        match started {
            Ok((mut child, pmi)) => {
                let take = |o: Option<OwnedFd>| {
                    o.map(std::fs::File::from).inspect(|f| {
                        let _ = super::output::set_nonblocking(f.as_raw_fd());
                    })
                };
                let pipes = [
                    take(child.stdout.take().map(OwnedFd::from)),
                    take(child.stderr.take().map(OwnedFd::from)),
                ];
                let stdin = child.stdin.take();
                if let Some(s) = &stdin {
                    let _ = super::output::set_nonblocking(s.as_raw_fd());
                }
                self.send(&Frame::Started {
                    job,
                    rank,
                    pid: child.id(),
                });
                self.ranks.push(LocalRank {
                    job,
                    rank,
                    child,
                    done: false,
                    pmi: Some(pmi),
                    pmi_out: Vec::new(),
                    pipes,
                    stdin,
                });
            }
            Err(e) => {
                let msg = format!(
                    "mpiexec: cannot start rank {rank} ({}) on {}: {e}\n",
                    q.program,
                    crate::sys::cpu::hostname()
                );
                self.send(&Frame::Output {
                    job,
                    rank,
                    stream: 2,
                    bytes: msg.into_bytes(),
                });
                self.send(&Frame::Exited {
                    job,
                    rank,
                    code: job::start_failure_status(&e),
                    signal: 0,
                    core: false,
                });
            }
        }
    }

    fn send(&mut self, f: &Frame) {
        if self.root.is_some() {
            self.outbuf.extend_from_slice(&f.encode());
        }
    }

    fn flush(&mut self) {
        let Some(s) = self.root.as_mut() else { return };
        while !self.outbuf.is_empty() {
            match s.write(&self.outbuf) {
                Ok(n) => {
                    self.outbuf.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) => {
                    let why = self.io_error(&e);
                    self.root_gone(&why);
                    return;
                }
            }
        }
    }

    fn root_gone(&mut self, why: &str) {
        self.root = None;
        self.outbuf.clear();
        if self.killing.is_none() {
            self.killing = Some(format!("lost mpiexec ({why})"));
            self.signal_all(libc::SIGKILL);
        }
    }

    /// A failed read or write on the root's connection, in words.
    fn io_error(&self, e: &io::Error) -> String {
        job::link_error(e, self.timeout_ms)
    }

    fn signal_all(&self, sig: libc::c_int) {
        for r in &self.ranks {
            job::signal_rank(r.child.id(), sig, !r.done);
        }
    }

    fn run(mut self) -> i32 {
        let mut all_done_at: Option<Instant> = None;
        loop {
            for sig in signals::take() {
                // The launcher (ssh hanging up) or a user: the ranks go with us.
                let _ = sig;
                self.killing
                    .get_or_insert_with(|| "the proxy was signalled".to_string());
                self.signal_all(libc::SIGKILL);
            }
            self.reap();
            let now = Instant::now();
            if self.ranks.iter().all(|r| r.done) && (self.ended || self.root.is_none()) {
                let t = *all_done_at.get_or_insert(now);
                let open = self
                    .ranks
                    .iter()
                    .any(|r| r.pipes.iter().any(Option::is_some));
                if (!open || now >= t + OUTPUT_DRAIN) && self.outbuf.is_empty() {
                    break;
                }
                if self.root.is_none() {
                    break;
                }
            }
            self.poll_once();
            self.flush();
        }
        if self.killing.is_some() {
            // What the ranks' wrappers left behind when they went (their groups).
            self.signal_all(libc::SIGKILL);
        }
        match &self.killing {
            Some(why) if self.root.is_none() => fail(format!("{why}; ranks killed")),
            _ => 0,
        }
    }

    fn poll_once(&mut self) {
        let mut fds = Vec::new();
        let mut srcs = Vec::new();
        let mut add = |fd: i32, events: i16, src: Source| {
            fds.push(libc::pollfd {
                fd,
                events,
                revents: 0,
            });
            srcs.push(src);
        };
        if let Some(s) = &self.root {
            let ev = libc::POLLIN
                | if self.outbuf.is_empty() {
                    0
                } else {
                    libc::POLLOUT
                };
            add(s.as_raw_fd(), ev, Source::Root);
        }
        for (i, r) in self.ranks.iter().enumerate() {
            if let Some(s) = &r.pmi {
                let ev = libc::POLLIN
                    | if r.pmi_out.is_empty() {
                        0
                    } else {
                        libc::POLLOUT
                    };
                add(s.as_raw_fd(), ev, Source::Pmi(i));
            }
            for (j, p) in r.pipes.iter().enumerate() {
                if let Some(f) = p {
                    add(f.as_raw_fd(), libc::POLLIN, Source::Pipe(i, j));
                }
            }
            if let (Some(s), false) = (&r.stdin, self.stdin_buf.is_empty() && !self.stdin_eof) {
                add(s.as_raw_fd(), libc::POLLOUT, Source::Stdin(i));
            }
        }
        // SAFETY: `fds` is a valid array of `fds.len()` pollfd entries for the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 100) };
        if n <= 0 {
            return;
        }
        for (pfd, src) in fds.iter().zip(&srcs) {
            if pfd.revents == 0 {
                continue;
            }
            match *src {
                Source::Root => {
                    if pfd.revents & libc::POLLOUT != 0 {
                        self.flush();
                    }
                    if pfd.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0 {
                        self.read_root();
                    }
                }
                Source::Pmi(i) => {
                    if pfd.revents & libc::POLLOUT != 0 {
                        self.flush_pmi(i);
                    }
                    if pfd.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0 {
                        self.read_pmi(i);
                    }
                }
                Source::Pipe(i, j) => self.read_pipe(i, j),
                Source::Stdin(i) => self.write_stdin(i),
            }
        }
    }

    fn read_root(&mut self) {
        let mut chunk = [0u8; 64 * 1024];
        loop {
            let Some(s) = self.root.as_mut() else { return };
            match s.read(&mut chunk) {
                Ok(0) => return self.root_gone("its connection closed"),
                Ok(n) => self.inbuf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => {
                    let why = self.io_error(&e);
                    return self.root_gone(&why);
                }
            }
        }
        loop {
            match Frame::take(&mut self.inbuf) {
                Ok(Some(f)) => self.on_frame(f),
                Ok(None) => break,
                Err(_) => return self.root_gone("it sent bytes that are no frame"),
            }
        }
    }

    fn on_frame(&mut self, f: Frame) {
        let find = |ranks: &[LocalRank], job: u32, rank: u32| {
            ranks.iter().position(|r| (r.job, r.rank) == (job, rank))
        };
        match f {
            Frame::Pmi { job, rank, line } => {
                if let Some(i) = find(&self.ranks, job, rank) {
                    self.ranks[i].pmi_out.extend_from_slice(&line);
                    self.flush_pmi(i);
                }
            }
            Frame::Signal { job, rank, signal } => {
                if let Some(r) = find(&self.ranks, job, rank).map(|i| &self.ranks[i]) {
                    if (1..64).contains(&signal) {
                        job::signal_rank(r.child.id(), signal, !r.done);
                    }
                }
            }
            Frame::Stdin(b) => {
                if b.is_empty() {
                    self.stdin_eof = true;
                } else {
                    self.stdin_buf.extend_from_slice(&b);
                }
                if let Some(i) = find(&self.ranks, 0, 0) {
                    self.write_stdin(i);
                }
            }
            Frame::Spawn(s) => self.spawn(s),
            Frame::End => self.ended = true,
            // Frames only proxies send: the root is confused; end the job here.
            _ => self.root_gone("it sent a frame meant for it"),
        }
    }

    fn flush_pmi(&mut self, i: usize) {
        let r = &mut self.ranks[i];
        let Some(s) = r.pmi.as_mut() else {
            r.pmi_out.clear();
            return;
        };
        while !r.pmi_out.is_empty() {
            match s.write(&r.pmi_out) {
                Ok(n) => {
                    r.pmi_out.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    r.pmi = None;
                    r.pmi_out.clear();
                    return;
                }
            }
        }
    }

    /// The rank's PMI bytes, relayed as they come (the root splits them into lines).
    fn read_pmi(&mut self, i: usize) {
        let mut chunk = [0u8; 8192];
        for _ in 0..64 {
            let r = &mut self.ranks[i];
            let Some(s) = r.pmi.as_mut() else { return };
            match s.read(&mut chunk) {
                Ok(0) => {
                    r.pmi = None;
                    return;
                }
                Ok(n) => {
                    let (job, rank) = (r.job, r.rank);
                    self.send(&Frame::Pmi {
                        job,
                        rank,
                        line: chunk[..n].to_vec(),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    r.pmi = None;
                    return;
                }
            }
        }
    }

    fn read_pipe(&mut self, i: usize, j: usize) {
        let mut chunk = vec![0u8; 64 * 1024];
        for _ in 0..16 {
            let r = &mut self.ranks[i];
            let Some(f) = r.pipes[j].as_mut() else { return };
            match f.read(&mut chunk) {
                Ok(0) => {
                    r.pipes[j] = None;
                    return;
                }
                Ok(n) => {
                    let (job, rank) = (r.job, r.rank);
                    self.send(&Frame::Output {
                        job,
                        rank,
                        stream: j as u8 + 1,
                        bytes: chunk[..n].to_vec(),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    r.pipes[j] = None;
                    return;
                }
            }
        }
    }

    fn write_stdin(&mut self, i: usize) {
        let r = &mut self.ranks[i];
        let Some(s) = r.stdin.as_mut() else {
            self.stdin_buf.clear();
            return;
        };
        while !self.stdin_buf.is_empty() {
            match s.write(&self.stdin_buf) {
                Ok(n) => {
                    self.stdin_buf.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    // The rank closed its stdin: what it did not read is dropped.
                    r.stdin = None;
                    self.stdin_buf.clear();
                    return;
                }
            }
        }
        if self.stdin_eof {
            r.stdin = None; // closing it is the end of file
        }
    }

    /// Reports the ranks that exited (after relaying their last PMI lines).
    fn reap(&mut self) {
        for i in 0..self.ranks.len() {
            if self.ranks[i].done {
                continue;
            }
            let status = match self.ranks[i].child.try_wait() {
                Ok(Some(s)) => s,
                Ok(None) => continue,
                Err(_) => std::process::ExitStatus::from_raw(255 << 8),
            };
            self.read_pmi(i);
            let r = &mut self.ranks[i];
            r.done = true;
            r.pmi = None;
            r.stdin = None;
            let (job, rank) = (r.job, r.rank);
            self.send(&Frame::Exited {
                job,
                rank,
                code: status.code().unwrap_or(0),
                signal: status.signal().unwrap_or(0),
                core: status.core_dumped(),
            });
        }
    }
}
