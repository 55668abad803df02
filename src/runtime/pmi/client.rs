//! PMI client: the connection an MPI process opens to its launcher at `MPI_Init`.
//!
//! A launcher (Hydra's `mpiexec.hydra`, our `mpiexec`) starts each rank with an open
//! socket whose number is in `PMI_FD`, and `PMI_RANK` / `PMI_SIZE`, and speaks PMI-1 on it.
//! Slurm's `srun --mpi=pmi2` also sets `PMI_JOBID` and speaks PMI-2 (`wire2.rs`); the same
//! operations map onto its commands (put → kvs-put, barrier → kvs-fence, get → kvs-get, the
//! process mapping → info-getjobattr). Without `PMI_FD` the process is a singleton: rank 0
//! of 1, with a private key-value store.
//!
//! Every request holds the connection lock until its reply has arrived, so `Pmi` may be
//! shared between threads; requests from different threads are serialised.

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use parking_lot::Mutex;

use super::wire::{self, Command, LineBuffer, Reply, WireError};
use super::wire2::{self, Message};
use super::{KEY_MAX, KVSNAME_MAX, VALUE_MAX};

/// Why a PMI operation failed.
#[derive(Debug)]
pub enum PmiError {
    /// An environment variable (`PMI_FD`, `PMI_RANK`, `PMI_SIZE`) is missing or invalid.
    Env { var: &'static str, reason: String },
    /// Reading or writing the PMI socket failed.
    Io { op: &'static str, err: io::Error },
    /// The launcher closed the connection.
    Closed,
    /// The launcher sent a line we cannot parse.
    Wire(WireError),
    /// The launcher answered with a reply other than the expected one.
    UnexpectedReply { expected: &'static str, got: String },
    /// The launcher answered a request with a non-zero `rc`.
    Failed {
        cmd: &'static str,
        rc: i32,
        msg: String,
    },
    /// `get` of a key nobody has put (or put after the last barrier).
    NotFound { key: String },
    /// A key or value we refuse to send (too long, empty, spaces, backslashes, …).
    InvalidArgument(WireError),
    /// The connection was already finalized.
    Finalized,
    /// The launcher (or its PMI version, or none: a singleton) does not offer this.
    Unsupported(&'static str),
}

impl fmt::Display for PmiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PmiError::Env { var, reason } => write!(f, "PMI: environment variable {var}: {reason}"),
            PmiError::Io { op, err } => write!(f, "PMI: {op} on the PMI socket failed: {err}"),
            PmiError::Closed => write!(f, "PMI: the launcher closed the connection"),
            PmiError::Wire(e) => write!(f, "PMI: malformed reply from the launcher: {e}"),
            PmiError::UnexpectedReply { expected, got } => {
                write!(
                    f,
                    "PMI: expected cmd={expected} from the launcher, got {got:?}"
                )
            }
            PmiError::Failed { cmd, rc, msg } => {
                write!(f, "PMI: {cmd} failed with rc={rc} ({msg})")
            }
            PmiError::NotFound { key } => write!(f, "PMI: key {key:?} not found"),
            PmiError::InvalidArgument(e) => write!(f, "PMI: {e}"),
            PmiError::Finalized => write!(f, "PMI: already finalized"),
            PmiError::Unsupported(what) => {
                write!(f, "PMI: {what} is not offered without a PMI-1 launcher")
            }
        }
    }
}

impl std::error::Error for PmiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PmiError::Io { err, .. } => Some(err),
            PmiError::Wire(e) | PmiError::InvalidArgument(e) => Some(e),
            _ => None,
        }
    }
}

/// The connection to a launcher.
struct Conn {
    file: File,
    inbuf: LineBuffer,
    finalized: bool,
}

impl Conn {
    fn send(&mut self, cmd: &Command) -> Result<(), PmiError> {
        send_all(self.file.as_raw_fd(), cmd.encode().as_bytes())
    }

    /// Reads the next reply line.
    fn recv(&mut self) -> Result<Reply, PmiError> {
        loop {
            if let Some(line) = self.inbuf.next_line() {
                let line = line.map_err(PmiError::Wire)?;
                return Reply::parse(&line).map_err(PmiError::Wire);
            }
            read_some(&mut self.file, |b| self.inbuf.push(b))?;
        }
    }

    fn request(&mut self, cmd: &Command) -> Result<Reply, PmiError> {
        if self.finalized {
            return Err(PmiError::Finalized);
        }
        self.send(cmd)?;
        self.recv()
    }
}

/// One read from the launcher's socket, handed to `push` (nothing when interrupted, or
/// when it had nothing yet: then after waiting until it has).
fn read_some(file: &mut File, push: impl FnOnce(&[u8])) -> Result<(), PmiError> {
    let mut chunk = [0u8; 4096];
    match file.read(&mut chunk) {
        Ok(0) => Err(PmiError::Closed),
        Ok(n) => {
            push(&chunk[..n]);
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => wait_readable(file),
        Err(err) => Err(PmiError::Io { op: "read", err }),
    }
}

/// Writes all of `data` to `fd`, with `MSG_NOSIGNAL` when it is a socket so a vanished
/// launcher gives `EPIPE` instead of killing the process with `SIGPIPE`.
fn send_all(fd: RawFd, mut data: &[u8]) -> Result<(), PmiError> {
    let mut use_send = true;
    while !data.is_empty() {
        // SAFETY: `data` is a valid readable slice for its whole length; `fd` is the PMI
        // descriptor owned by the caller's `File` (or, in `abort`, by the `Pmi` that is
        // alive for the duration of the call).
        let n = unsafe {
            if use_send {
                libc::send(fd, data.as_ptr().cast(), data.len(), libc::MSG_NOSIGNAL)
            } else {
                libc::write(fd, data.as_ptr().cast(), data.len())
            }
        };
        if n < 0 {
            let err = io::Error::last_os_error();
            match err.raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::ENOTSOCK) if use_send => use_send = false,
                Some(libc::EAGAIN) => wait_writable(fd)?,
                _ => return Err(PmiError::Io { op: "write", err }),
            }
        } else {
            data = &data[n as usize..];
        }
    }
    Ok(())
}

fn poll_one(fd: RawFd, events: libc::c_short) -> Result<(), PmiError> {
    let mut pfd = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    // SAFETY: `pfd` is one valid pollfd on our stack, and we pass a count of 1.
    let r = unsafe { libc::poll(&mut pfd, 1, -1) };
    if r < 0 {
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(PmiError::Io { op: "poll", err });
        }
    }
    Ok(())
}

fn wait_readable(f: &File) -> Result<(), PmiError> {
    poll_one(f.as_raw_fd(), libc::POLLIN)
}

fn wait_writable(fd: RawFd) -> Result<(), PmiError> {
    poll_one(fd, libc::POLLOUT)
}

/// A PMI-2 connection.
struct Conn2 {
    file: File,
    reader: wire2::Reader,
    finalized: bool,
}

impl Conn2 {
    fn send(&mut self, m: &Message) -> Result<(), PmiError> {
        send_all(self.file.as_raw_fd(), &m.encode())
    }

    fn recv(&mut self) -> Result<Message, PmiError> {
        loop {
            if let Some(m) = self.reader.next_message() {
                return m.map_err(|e| PmiError::UnexpectedReply {
                    expected: "a PMI-2 message",
                    got: e,
                });
            }
            read_some(&mut self.file, |b| self.reader.push(b))?;
        }
    }

    /// Sends `m` and returns the reply, which must be `expected` with `rc=0`.
    fn request(&mut self, m: &Message, expected: &'static str) -> Result<Message, PmiError> {
        if self.finalized {
            return Err(PmiError::Finalized);
        }
        self.send(m)?;
        let r = self.recv()?;
        if r.cmd != expected {
            return Err(PmiError::UnexpectedReply {
                expected,
                got: r.cmd,
            });
        }
        if r.rc() != 0 {
            return Err(PmiError::Failed {
                cmd: expected,
                rc: r.rc(),
                msg: r.get("errmsg").unwrap_or("").to_string(),
            });
        }
        Ok(r)
    }
}

/// PMI-2's spawn request (MPICH's `PMI2_Job_Spawn`, as Slurm's pmi2 plugin parses it:
/// `ncmds` first, the preput pairs, then per command `subcmd`, `maxprocs`, `argc`, the
/// arguments and the info pairs, indices from 0). Slurm does not undo `;;`, so a value
/// holding `;` cannot travel.
fn spawn_message(blocks: &[wire::SpawnBlock]) -> Result<Message, PmiError> {
    let mut m = Message::new("spawn").with("ncmds", &blocks.len().to_string());
    let preput = blocks.first().map_or(&[][..], |b| &b.preput[..]);
    m = m.with("preputcount", &preput.len().to_string());
    for (i, (k, v)) in preput.iter().enumerate() {
        m = m
            .with(&format!("ppkey{i}"), k)
            .with(&format!("ppval{i}"), v);
    }
    for b in blocks {
        m = m
            .with("subcmd", &b.execname)
            .with("maxprocs", &b.nprocs.to_string())
            .with("argc", &b.args.len().to_string());
        for (i, a) in b.args.iter().enumerate() {
            m = m.with(&format!("argv{i}"), a);
        }
        m = m.with("infokeycount", &b.info.len().to_string());
        for (i, (k, v)) in b.info.iter().enumerate() {
            m = m
                .with(&format!("infokey{i}"), k)
                .with(&format!("infoval{i}"), v);
        }
    }
    if m.attrs.iter().any(|(_, v)| v.contains(';')) {
        return Err(PmiError::InvalidArgument(wire::WireError::BadValue {
            what: "spawn argument",
            reason: "';' cannot travel over PMI-2",
        }));
    }
    Ok(m)
}

enum Backend {
    /// A PMI-2 launcher (Slurm) on the other end of `PMI_FD`.
    Wire2 { conn: Mutex<Conn2>, raw: RawFd },
    /// A real launcher on the other end of `PMI_FD`.
    Wire {
        conn: Mutex<Conn>,
        /// The same descriptor, for `abort` when the lock is held by a blocked request.
        raw: RawFd,
    },
    /// No launcher: puts are committed by `barrier`, like with a launcher.
    Singleton { kvs: Mutex<SingletonKvs> },
}

#[derive(Default)]
struct SingletonKvs {
    committed: HashMap<String, String>,
    pending: Vec<(String, String)>,
    finalized: bool,
}

/// A PMI-1 connection (or a singleton stand-in). `Send + Sync`.
pub struct Pmi {
    rank: u32,
    size: u32,
    kvsname: String,
    appnum: i32,
    universe_size: Option<u32>,
    keylen_max: usize,
    vallen_max: usize,
    backend: Backend,
}

fn env_var(var: &'static str) -> Result<Option<String>, PmiError> {
    match std::env::var(var) {
        Ok(v) => Ok(Some(v)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(PmiError::Env {
            var,
            reason: "not valid UTF-8".into(),
        }),
    }
}

fn env_num<T: std::str::FromStr>(var: &'static str, v: &str) -> Result<T, PmiError> {
    v.trim().parse().map_err(|_| PmiError::Env {
        var,
        reason: format!("{v:?} is not a valid number"),
    })
}

fn unexpected(expected: &'static str, r: Reply) -> PmiError {
    PmiError::UnexpectedReply {
        expected,
        got: r.encode().trim_end().to_string(),
    }
}

fn expect<T>(
    expected: &'static str,
    r: Reply,
    f: impl FnOnce(Reply) -> Result<T, Reply>,
) -> Result<T, PmiError> {
    f(r).map_err(|r| PmiError::UnexpectedReply {
        expected,
        got: r.encode().trim_end().to_string(),
    })
}

impl Pmi {
    /// Connects using `PMI_FD`, `PMI_RANK`, `PMI_SIZE` (init, maxes, appnum, kvsname,
    /// universe size). Without `PMI_FD`: a singleton (rank 0, size 1, kvsname
    /// `singleton_<pid>`). The descriptor is made close-on-exec; the environment is left
    /// untouched. With `PMI_FD` this succeeds at most once per process (the descriptor is
    /// adopted by the returned `Pmi`); call it once, at `MPI_Init`.
    pub fn from_env() -> Result<Pmi, PmiError> {
        let Some(fd_str) = env_var("PMI_FD")? else {
            if env_var("PMI_PORT")?.is_some() {
                return Err(PmiError::Env {
                    var: "PMI_PORT",
                    reason: "connecting to a PMI server by host:port is not supported \
                             (launch with mpiexec so that PMI_FD is set)"
                        .into(),
                });
            }
            return Ok(Pmi::singleton());
        };
        let fd: RawFd = env_num("PMI_FD", &fd_str)?;
        let rank: u32 = match env_var("PMI_RANK")? {
            Some(v) => env_num("PMI_RANK", &v)?,
            None => {
                return Err(PmiError::Env {
                    var: "PMI_RANK",
                    reason: "not set (PMI_FD is)".into(),
                })
            }
        };
        let size: u32 = match env_var("PMI_SIZE")? {
            Some(v) => env_num("PMI_SIZE", &v)?,
            None => {
                return Err(PmiError::Env {
                    var: "PMI_SIZE",
                    reason: "not set (PMI_FD is)".into(),
                })
            }
        };
        if size == 0 || rank >= size {
            return Err(PmiError::Env {
                var: "PMI_RANK",
                reason: format!("rank {rank} is not below size {size}"),
            });
        }
        if fd < 0 {
            return Err(PmiError::Env {
                var: "PMI_FD",
                reason: format!("{fd} is not a descriptor"),
            });
        }
        // The descriptor can be adopted once: after that `Pmi` is dropped its number may
        // name an unrelated file.
        static FD_TAKEN: AtomicBool = AtomicBool::new(false);
        if FD_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(PmiError::Env {
                var: "PMI_FD",
                reason: "already taken by an earlier Pmi::from_env in this process".into(),
            });
        }
        // SAFETY: fcntl on any integer is memory-safe; it only tells us whether `fd` is an
        // open descriptor and marks it close-on-exec (so children we fork/exec do not keep
        // the launcher's socket open).
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
        if flags < 0 {
            return Err(PmiError::Env {
                var: "PMI_FD",
                reason: format!("descriptor {fd} is not open"),
            });
        }
        // SAFETY: as above; `fd` was just checked to be open.
        unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) };
        // SAFETY: by the PMI convention the launcher hands this descriptor to the PMI
        // client alone, and it is open (checked above). `FD_TAKEN` guarantees we adopt it
        // at most once per process, so no second owner can close it.
        let owned = unsafe { OwnedFd::from_raw_fd(fd) };
        // PMI_JOBID: a PMI-2 server (Slurm's pmi2 plugin); the version is agreed in a
        // PMI-1 line, then the messages are PMI-2's.
        let pmi2_job = env_var("PMI_JOBID")?;
        let want = if pmi2_job.is_some() { 2 } else { 1 };
        let mut conn = Conn {
            file: File::from(owned),
            inbuf: LineBuffer::new(),
            finalized: false,
        };

        let r = conn.request(&Command::Init {
            pmi_version: want,
            pmi_subversion: if want == 2 { 0 } else { 1 },
        })?;
        let (ver, rc) = expect("response_to_init", r, |r| match r {
            Reply::Init {
                pmi_version, rc, ..
            } => Ok((pmi_version, rc)),
            r => Err(r),
        })?;
        if rc != 0 || ver != want {
            return Err(PmiError::Failed {
                cmd: "init",
                rc,
                msg: format!("server speaks PMI version {ver}, not {want}"),
            });
        }
        if let Some(jobid) = pmi2_job {
            return Pmi::init_pmi2(conn.file, fd, rank, size, &jobid);
        }
        let r = conn.request(&Command::GetMaxes)?;
        let (kvs_max, key_max, val_max) = expect("maxes", r, |r| match r {
            Reply::Maxes {
                kvsname_max,
                keylen_max,
                vallen_max,
            } => Ok((kvsname_max, keylen_max, vallen_max)),
            r => Err(r),
        })?;
        let r = conn.request(&Command::GetAppnum)?;
        let appnum = expect("appnum", r, |r| match r {
            Reply::Appnum { appnum } => Ok(appnum),
            r => Err(r),
        })?;
        let r = conn.request(&Command::GetMyKvsname)?;
        let kvsname = expect("my_kvsname", r, |r| match r {
            Reply::MyKvsname { kvsname } => Ok(kvsname),
            r => Err(r),
        })?;
        if kvsname.len() > (kvs_max as usize).min(KVSNAME_MAX) {
            return Err(PmiError::UnexpectedReply {
                expected: "my_kvsname",
                got: format!("a kvsname of {} bytes", kvsname.len()),
            });
        }
        let r = conn.request(&Command::GetUniverseSize)?;
        let universe = expect("universe_size", r, |r| match r {
            Reply::UniverseSize { size } => Ok(size),
            r => Err(r),
        })?;
        Ok(Pmi {
            rank,
            size,
            kvsname,
            appnum,
            universe_size: u32::try_from(universe).ok().filter(|&u| u > 0),
            keylen_max: (key_max as usize).min(KEY_MAX),
            vallen_max: (val_max as usize).min(VALUE_MAX),
            backend: Backend::Wire {
                conn: Mutex::new(conn),
                raw: fd,
            },
        })
    }

    /// PMI-2 (Slurm): `fullinit`, then the job id, which names the key-value space.
    fn init_pmi2(
        file: File,
        fd: RawFd,
        rank: u32,
        size: u32,
        jobid: &str,
    ) -> Result<Pmi, PmiError> {
        let mut conn = Conn2 {
            file,
            reader: wire2::Reader::default(),
            finalized: false,
        };
        let r = conn.request(
            &Message::new("fullinit")
                .with("pmijobid", jobid)
                .with("pmirank", &rank.to_string())
                .with("threaded", "FALSE"),
            "fullinit-response",
        )?;
        let num = |key: &'static str| -> Result<i64, PmiError> {
            r.get(key)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| PmiError::UnexpectedReply {
                    expected: "fullinit-response",
                    got: format!("no number {key} in it"),
                })
        };
        if num("rank")? != i64::from(rank) || num("size")? != i64::from(size) {
            return Err(PmiError::UnexpectedReply {
                expected: "fullinit-response",
                got: format!(
                    "rank {:?} of {:?}, while PMI_RANK/PMI_SIZE say {rank} of {size}",
                    r.get("rank"),
                    r.get("size")
                ),
            });
        }
        let appnum = num("appnum").unwrap_or(0).max(0) as i32;
        let kvsname = match conn.request(&Message::new("job-getid"), "job-getid-response") {
            Ok(m) => m.get("jobid").unwrap_or(jobid).to_string(),
            Err(_) => jobid.to_string(),
        };
        if kvsname.is_empty() || kvsname.len() > KVSNAME_MAX {
            return Err(PmiError::UnexpectedReply {
                expected: "job-getid-response",
                got: format!("a job id of {} bytes", kvsname.len()),
            });
        }
        Ok(Pmi {
            rank,
            size,
            kvsname,
            appnum,
            universe_size: Some(size),
            keylen_max: KEY_MAX,
            vallen_max: VALUE_MAX,
            backend: Backend::Wire2 {
                conn: Mutex::new(conn),
                raw: fd,
            },
        })
    }

    /// A process started without a launcher.
    pub fn singleton() -> Pmi {
        Pmi {
            rank: 0,
            size: 1,
            kvsname: format!("singleton_{}", std::process::id()),
            appnum: 0,
            universe_size: Some(1),
            keylen_max: KEY_MAX,
            vallen_max: VALUE_MAX,
            backend: Backend::Singleton {
                kvs: Mutex::new(SingletonKvs::default()),
            },
        }
    }

    pub fn rank(&self) -> u32 {
        self.rank
    }

    pub fn size(&self) -> u32 {
        self.size
    }

    pub fn kvsname(&self) -> &str {
        &self.kvsname
    }

    pub fn appnum(&self) -> i32 {
        self.appnum
    }

    /// The universe size the launcher reported, `None` when it does not know (Hydra).
    pub fn universe_size(&self) -> Option<u32> {
        self.universe_size
    }

    /// The launcher's connection (`PMI_FD`), `None` for a singleton.
    pub fn raw_fd(&self) -> Option<RawFd> {
        match &self.backend {
            Backend::Wire { raw, .. } | Backend::Wire2 { raw, .. } => Some(*raw),
            Backend::Singleton { .. } => None,
        }
    }

    /// The process at the other end of the launcher's connection (`SO_PEERCRED`), where
    /// it is a local socket: the launcher or proxy every rank of this host descends from.
    pub fn launcher_pid(&self) -> Option<i32> {
        let fd = self.raw_fd()?;
        // SAFETY: `cred` is plain data of the size passed; getsockopt fills at most that.
        let mut cred: libc::ucred = unsafe { std::mem::zeroed() };
        let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
        // SAFETY: as above; `fd` is our open PMI descriptor.
        let rc = unsafe {
            libc::getsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_PEERCRED,
                &mut cred as *mut libc::ucred as *mut libc::c_void,
                &mut len,
            )
        };
        (rc == 0 && cred.pid > 0).then_some(cred.pid)
    }

    pub fn is_singleton(&self) -> bool {
        matches!(self.backend, Backend::Singleton { .. })
    }

    fn check_key(&self, key: &str) -> Result<(), PmiError> {
        wire::check_value("key", key, self.keylen_max).map_err(PmiError::InvalidArgument)
    }

    /// Stores `key = value` in the job's key-value store. Visible to `get` (on every rank,
    /// this one included) after the next [`Pmi::barrier`]. Key: 1..=64 bytes, value:
    /// 1..=1024 bytes, printable ASCII without spaces or backslashes (encode binary data,
    /// e.g. in hex).
    pub fn put(&self, key: &str, value: &str) -> Result<(), PmiError> {
        self.check_key(key)?;
        wire::check_value("value", value, self.vallen_max).map_err(PmiError::InvalidArgument)?;
        match &self.backend {
            Backend::Singleton { kvs } => {
                let mut kvs = kvs.lock();
                if kvs.finalized {
                    return Err(PmiError::Finalized);
                }
                kvs.pending.push((key.to_string(), value.to_string()));
                Ok(())
            }
            Backend::Wire2 { conn, .. } => conn
                .lock()
                .request(
                    &Message::new("kvs-put")
                        .with("key", key)
                        .with("value", value),
                    "kvs-put-response",
                )
                .map(drop),
            Backend::Wire { conn, .. } => {
                let r = conn.lock().request(&Command::Put {
                    kvsname: self.kvsname.clone(),
                    key: key.to_string(),
                    value: value.to_string(),
                })?;
                let (rc, msg) = expect("put_result", r, |r| match r {
                    Reply::PutResult { rc, msg } => Ok((rc, msg)),
                    r => Err(r),
                })?;
                if rc != 0 {
                    return Err(PmiError::Failed {
                        cmd: "put",
                        rc,
                        msg: msg.unwrap_or_default(),
                    });
                }
                Ok(())
            }
        }
    }

    /// A request only a PMI-1 launcher serves (the name service, spawn).
    fn wire_only(&self, what: &'static str, cmd: &Command) -> Result<Reply, PmiError> {
        match &self.backend {
            Backend::Wire { conn, .. } => conn.lock().request(cmd),
            _ => Err(PmiError::Unsupported(what)),
        }
    }

    /// MPI_Publish_name through the launcher (Hydra keeps the names in mpiexec).
    pub fn publish_name(&self, service: &str, port: &str) -> Result<(), PmiError> {
        wire::check_value("service", service, self.vallen_max)
            .map_err(PmiError::InvalidArgument)?;
        wire::check_value("port", port, self.vallen_max).map_err(PmiError::InvalidArgument)?;
        let cmd = Command::PublishName {
            service: service.into(),
            port: port.into(),
        };
        match self.wire_only("publish_name", &cmd)? {
            Reply::PublishResult { rc: 0, .. } => Ok(()),
            Reply::PublishResult { rc, msg } => Err(PmiError::Failed {
                cmd: "publish_name",
                rc,
                msg: msg.unwrap_or_default(),
            }),
            r => Err(unexpected("publish_result", r)),
        }
    }

    pub fn unpublish_name(&self, service: &str) -> Result<(), PmiError> {
        wire::check_value("service", service, self.vallen_max)
            .map_err(PmiError::InvalidArgument)?;
        let cmd = Command::UnpublishName {
            service: service.into(),
        };
        match self.wire_only("unpublish_name", &cmd)? {
            Reply::UnpublishResult { rc: 0, .. } => Ok(()),
            Reply::UnpublishResult { .. } => Err(PmiError::NotFound {
                key: service.into(),
            }),
            r => Err(unexpected("unpublish_result", r)),
        }
    }

    /// The port published under `service`.
    pub fn lookup_name(&self, service: &str) -> Result<String, PmiError> {
        wire::check_value("service", service, self.vallen_max)
            .map_err(PmiError::InvalidArgument)?;
        let cmd = Command::LookupName {
            service: service.into(),
        };
        match self.wire_only("lookup_name", &cmd)? {
            Reply::LookupResult {
                rc: 0,
                port: Some(p),
                ..
            } => Ok(p),
            Reply::LookupResult { .. } => Err(PmiError::NotFound {
                key: service.into(),
            }),
            r => Err(unexpected("lookup_result", r)),
        }
    }

    /// Start the processes `blocks` describe as one new job; the launcher's error code
    /// per process (empty: all succeeded). Values must pass `wire::check_value`.
    pub fn spawn(&self, blocks: Vec<wire::SpawnBlock>) -> Result<Vec<i32>, PmiError> {
        for b in &blocks {
            for v in std::iter::once(&b.execname)
                .chain(&b.args)
                .chain(b.preput.iter().chain(&b.info).flat_map(|(k, v)| [k, v]))
            {
                wire::check_line_value("spawn argument", v, self.vallen_max)
                    .map_err(PmiError::InvalidArgument)?;
            }
        }
        if let Backend::Wire2 { conn, .. } = &self.backend {
            let m = spawn_message(&blocks)?;
            // Answered once the new processes run (Slurm starts a job step for them).
            conn.lock().request(&m, "spawn-response")?;
            return Ok(Vec::new());
        }
        match self.wire_only("spawn", &Command::Spawn(blocks))? {
            Reply::SpawnResult { rc: 0, errcodes } => Ok(errcodes.unwrap_or_default()),
            Reply::SpawnResult { rc, .. } => Err(PmiError::Failed {
                cmd: "spawn",
                rc,
                msg: String::new(),
            }),
            r => Err(unexpected("spawn_result", r)),
        }
    }

    /// Whether this process was started by another job's MPI_Comm_spawn (`PMI_SPAWNED`,
    /// as Hydra sets it).
    pub fn spawned(&self) -> bool {
        !matches!(self.backend, Backend::Singleton { .. })
            && std::env::var("PMI_SPAWNED").is_ok_and(|v| v.trim() == "1")
    }

    /// Waits until every rank has entered the barrier; commits earlier puts.
    pub fn barrier(&self) -> Result<(), PmiError> {
        match &self.backend {
            Backend::Singleton { kvs } => {
                let mut kvs = kvs.lock();
                if kvs.finalized {
                    return Err(PmiError::Finalized);
                }
                let pending = std::mem::take(&mut kvs.pending);
                kvs.committed.extend(pending);
                Ok(())
            }
            Backend::Wire2 { conn, .. } => conn
                .lock()
                .request(&Message::new("kvs-fence"), "kvs-fence-response")
                .map(drop),
            Backend::Wire { conn, .. } => {
                let r = conn.lock().request(&Command::BarrierIn)?;
                expect("barrier_out", r, |r| match r {
                    Reply::BarrierOut => Ok(()),
                    r => Err(r),
                })
            }
        }
    }

    /// The value stored under `key` (by any rank, before the last barrier).
    pub fn get(&self, key: &str) -> Result<String, PmiError> {
        self.check_key(key)?;
        match &self.backend {
            Backend::Singleton { kvs } => {
                let kvs = kvs.lock();
                if kvs.finalized {
                    return Err(PmiError::Finalized);
                }
                if key == "PMI_process_mapping" {
                    return Ok("(vector,(0,1,1))".to_string());
                }
                kvs.committed
                    .get(key)
                    .cloned()
                    .ok_or_else(|| PmiError::NotFound {
                        key: key.to_string(),
                    })
            }
            Backend::Wire2 { conn, .. } => {
                let mut c = conn.lock();
                // Job attributes (the process mapping) are not in the key-value space.
                let r = if key == "PMI_process_mapping" {
                    c.request(
                        &Message::new("info-getjobattr").with("key", key),
                        "info-getjobattr-response",
                    )?
                } else {
                    c.request(
                        &Message::new("kvs-get")
                            .with("jobid", &self.kvsname)
                            .with("srcid", "-1")
                            .with("key", key),
                        "kvs-get-response",
                    )?
                };
                match (r.get("found"), r.get("value")) {
                    (Some("TRUE"), Some(v)) => Ok(v.to_string()),
                    _ => Err(PmiError::NotFound {
                        key: key.to_string(),
                    }),
                }
            }
            Backend::Wire { conn, .. } => {
                let r = conn.lock().request(&Command::Get {
                    kvsname: self.kvsname.clone(),
                    key: key.to_string(),
                })?;
                let (rc, value) = expect("get_result", r, |r| match r {
                    Reply::GetResult { rc, value, .. } => Ok((rc, value)),
                    r => Err(r),
                })?;
                match value {
                    Some(v) if rc == 0 => Ok(v),
                    _ => Err(PmiError::NotFound {
                        key: key.to_string(),
                    }),
                }
            }
        }
    }

    /// Tells the launcher this rank is done with PMI (it may then exit with status 0
    /// without the job being considered failed). Later calls fail with `Finalized`;
    /// a second `finalize` is a no-op.
    pub fn finalize(&self) -> Result<(), PmiError> {
        match &self.backend {
            Backend::Singleton { kvs } => {
                kvs.lock().finalized = true;
                Ok(())
            }
            Backend::Wire2 { conn, .. } => {
                let mut c = conn.lock();
                if c.finalized {
                    return Ok(());
                }
                let r = c.request(&Message::new("finalize"), "finalize-response");
                c.finalized = true;
                r.map(drop)
            }
            Backend::Wire { conn, .. } => {
                let mut c = conn.lock();
                if c.finalized {
                    return Ok(());
                }
                let r = c.request(&Command::Finalize)?;
                c.finalized = true;
                expect("finalize_ack", r, |r| match r {
                    Reply::FinalizeAck => Ok(()),
                    r => Err(r),
                })
            }
        }
    }

    /// Asks the launcher to kill the whole job with exit status `code`. `msg` (what
    /// aborts, for PMI-2's abort message) is not printed: the caller has said what
    /// happened (as MPICH's PMI prints nothing either). Does not wait for an answer
    /// (there is none) and does not exit: the caller exits right after (or, when `ranks`
    /// leaves it out, goes on).
    /// `ranks`: only those world ranks (see `Command::Abort`; our mpiexec alone is sent
    /// them, and only under `-disable-auto-cleanup`); empty for all.
    pub fn abort(&self, code: i32, msg: &str, ranks: &[(u32, u32)]) {
        if let Backend::Wire2 { conn, raw } = &self.backend {
            // PMI-2's abort carries no exit code: the message says which it was.
            let m = Message::new("abort").with("isworld", "TRUE").with(
                "msg",
                &match msg {
                    "" => format!("rank {} aborted with exit code {code}", self.rank),
                    _ => format!("rank {} aborted with exit code {code} ({msg})", self.rank),
                }
                .replace(|c: char| !c.is_ascii_graphic() && c != ' ', "_"),
            );
            match conn.try_lock_for(Duration::from_millis(100)) {
                Some(c) => {
                    let _ = send_all(c.file.as_raw_fd(), &m.encode());
                }
                None => {
                    let _ = send_all(*raw, &m.encode());
                }
            }
        }
        if let Backend::Wire { conn, raw } = &self.backend {
            let line = Command::Abort {
                exitcode: code,
                ranks: ranks.to_vec(),
            }
            .encode();
            // Another thread may hold the lock while blocked in barrier/get; then write
            // directly (one small send on a stream socket: it cannot be split by the
            // blocked reader, and a concurrent writer is already waiting for its reply).
            match conn.try_lock_for(Duration::from_millis(100)) {
                Some(c) => {
                    let _ = send_all(c.file.as_raw_fd(), line.as_bytes());
                }
                None => {
                    let _ = send_all(*raw, line.as_bytes());
                }
            }
        }
    }
}

impl fmt::Debug for Pmi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pmi")
            .field("rank", &self.rank)
            .field("size", &self.size)
            .field("kvsname", &self.kvsname)
            .field("appnum", &self.appnum)
            .field("singleton", &self.is_singleton())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::net::UnixStream;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn pmi2_spawn_request_is_slurms_order() {
        let block = |exe: &str, n, args: &[&str], info: &[(&str, &str)]| wire::SpawnBlock {
            nprocs: n,
            execname: exe.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            preput: vec![(
                "PARENT_ROOT_PORT_NAME".into(),
                "railmpi-port:1.2.3.4:5:ab".into(),
            )],
            info: info
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let m = spawn_message(&[
            block("/bin/a", 2, &["x", "a b"], &[("wdir", "/tmp")]),
            block("/bin/b", 1, &[], &[]),
        ])
        .unwrap();
        let body = String::from_utf8(m.encode()[6..].to_vec()).unwrap();
        assert_eq!(
            body,
            "cmd=spawn;ncmds=2;preputcount=1;ppkey0=PARENT_ROOT_PORT_NAME;\
             ppval0=railmpi-port:1.2.3.4:5:ab;subcmd=/bin/a;maxprocs=2;argc=2;argv0=x;\
             argv1=a b;infokeycount=1;infokey0=wdir;infoval0=/tmp;subcmd=/bin/b;maxprocs=1;\
             argc=0;infokeycount=0;"
        );
        assert!(spawn_message(&[block("/bin/a", 1, &["x;y"], &[])]).is_err());
    }

    #[test]
    fn pmi_is_send_sync() {
        assert_send_sync::<Pmi>();
    }

    #[test]
    fn singleton_semantics() {
        let p = Pmi::singleton();
        assert!(p.is_singleton());
        assert_eq!((p.rank(), p.size(), p.appnum()), (0, 1, 0));
        assert!(p.kvsname().starts_with("singleton_"));
        p.put("bc-0", "abc").unwrap();
        assert!(matches!(p.get("bc-0"), Err(PmiError::NotFound { .. })));
        p.barrier().unwrap();
        assert_eq!(p.get("bc-0").unwrap(), "abc");
        assert_eq!(p.get("PMI_process_mapping").unwrap(), "(vector,(0,1,1))");
        assert!(matches!(
            p.put(&"k".repeat(65), "v"),
            Err(PmiError::InvalidArgument(_))
        ));
        assert!(p.put("k", &"v".repeat(1025)).is_err());
        assert!(p.put("k", &"v".repeat(1024)).is_ok());
        assert!(p.put("k", "a b").is_err());
        assert!(p.put("k", "").is_err());
        p.finalize().unwrap();
        assert!(matches!(p.barrier(), Err(PmiError::Finalized)));
        p.abort(1, "", &[]); // no launcher: nothing to send
    }

    /// A scripted server on a socketpair: answers each expected line with a canned reply.
    fn scripted(script: Vec<(&'static str, &'static str)>) -> (Conn, std::thread::JoinHandle<()>) {
        let (a, b) = UnixStream::pair().unwrap();
        let h = std::thread::spawn(move || {
            let mut r = BufReader::new(b.try_clone().unwrap());
            let mut w = b;
            for (want, reply) in script {
                let mut line = String::new();
                r.read_line(&mut line).unwrap();
                assert_eq!(line.trim_end(), want);
                w.write_all(reply.as_bytes()).unwrap();
            }
        });
        let conn = Conn {
            file: File::from(OwnedFd::from(a)),
            inbuf: LineBuffer::new(),
            finalized: false,
        };
        (conn, h)
    }

    fn wire_pmi(conn: Conn) -> Pmi {
        let raw = conn.file.as_raw_fd();
        Pmi {
            rank: 1,
            size: 2,
            kvsname: "kvs_1".into(),
            appnum: 0,
            universe_size: None,
            keylen_max: KEY_MAX,
            vallen_max: VALUE_MAX,
            backend: Backend::Wire {
                conn: Mutex::new(conn),
                raw,
            },
        }
    }

    #[test]
    fn wire_requests_and_replies() {
        let (conn, h) = scripted(vec![
            (
                "cmd=put kvsname=kvs_1 key=k1 value=v1",
                "cmd=put_result rc=0 msg=success\n",
            ),
            ("cmd=barrier_in", "cmd=barrier_out\n"),
            (
                "cmd=get kvsname=kvs_1 key=k0",
                // Split reply lines and extra keys are fine.
                "cmd=get_result rc=0 msg=success value=v0\n",
            ),
            (
                "cmd=get kvsname=kvs_1 key=nope",
                "cmd=get_result rc=-1 msg=key_nope_not_found value=unknown\n",
            ),
            (
                "cmd=put kvsname=kvs_1 key=k2 value=v2",
                "cmd=put_result rc=-1 msg=duplicate\n",
            ),
            ("cmd=barrier_in", "cmd=finalize_ack\n"),
            ("cmd=get kvsname=kvs_1 key=x", "garbage\n"),
            ("cmd=finalize", "cmd=finalize_ack\n"),
        ]);
        let p = wire_pmi(conn);
        p.put("k1", "v1").unwrap();
        p.barrier().unwrap();
        assert_eq!(p.get("k0").unwrap(), "v0");
        assert!(matches!(p.get("nope"), Err(PmiError::NotFound { .. })));
        assert!(matches!(
            p.put("k2", "v2"),
            Err(PmiError::Failed { rc: -1, .. })
        ));
        assert!(matches!(p.barrier(), Err(PmiError::UnexpectedReply { .. })));
        assert!(matches!(p.get("x"), Err(PmiError::Wire(WireError::NoCmd))));
        p.finalize().unwrap();
        p.finalize().unwrap();
        assert!(matches!(p.get("x"), Err(PmiError::Finalized)));
        h.join().unwrap();
    }

    /// Run under a real launcher, e.g.
    /// `mpiexec.hydra -n 2 target/release/deps/mpi-<hash> --ignored --exact
    ///  runtime::pmi::client::tests::under_launcher` (or with our mpiexec).
    /// Without a launcher it exercises the singleton.
    #[test]
    #[ignore]
    fn under_launcher() {
        let p = Pmi::from_env().expect("PMI connect");
        let (r, n) = (p.rank(), p.size());
        eprintln!("rank {r}/{n} kvsname {} appnum {}", p.kvsname(), p.appnum());
        p.put(&format!("bc-{r}"), &format!("addr={r}#port"))
            .unwrap();
        p.barrier().unwrap();
        for peer in 0..n {
            assert_eq!(
                p.get(&format!("bc-{peer}")).unwrap(),
                format!("addr={peer}#port")
            );
        }
        let map = p.get("PMI_process_mapping").unwrap();
        assert!(map.starts_with("(vector,"), "{map}");
        assert!(matches!(
            p.get("no-such-key"),
            Err(PmiError::NotFound { .. })
        ));
        assert!(p.put("k", &"v".repeat(VALUE_MAX + 1)).is_err());
        // Threads share one connection.
        std::thread::scope(|s| {
            for t in 0..4 {
                let p = &p;
                s.spawn(move || {
                    for i in 0..50 {
                        let peer = (r + t + i) % n;
                        assert_eq!(
                            p.get(&format!("bc-{peer}")).unwrap(),
                            format!("addr={peer}#port")
                        );
                    }
                });
            }
        });
        p.barrier().unwrap();
        p.finalize().unwrap();
        eprintln!("rank {r}: PMI ok ({map})");
    }

    #[test]
    fn closed_connection_is_an_error() {
        let (conn, h) = scripted(vec![]);
        h.join().unwrap();
        let p = wire_pmi(conn);
        assert!(matches!(
            p.barrier(),
            Err(PmiError::Closed) | Err(PmiError::Io { .. })
        ));
        // Writing to a closed socket gives an error, not SIGPIPE.
        for _ in 0..3 {
            let _ = p.put("k", "v");
        }
        p.abort(3, "", &[]);
    }
}
