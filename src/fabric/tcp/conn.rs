//! One connection's byte streams: the outbox (frames waiting for the socket, written with
//! one `writev` for as many as fit) and the reader (a header, then the payload into
//! whatever sink the header's kind calls for — a buffer, registered memory in place, or
//! nowhere for a refused frame).

use super::wire::{BadHeader, Header, HEADER};
use std::collections::VecDeque;
use std::io;
use std::os::fd::RawFd;

/// iovecs per `writev` / `readv`.
const IOV: usize = 64;

/// What follows a frame's header on the wire.
pub enum Body {
    Empty,
    Owned(Vec<u8>),
    /// Memory of this process that stays valid until the operation completes (the
    /// posting caller's contract, or a registration the peer's key vouched for):
    /// `(address, length)` runs.
    Spans(Vec<(usize, usize)>),
}

pub struct OutFrame {
    head: [u8; HEADER],
    body: Body,
    /// Bytes of head + body already written.
    sent: usize,
}

impl OutFrame {
    pub fn new(h: &Header, body: Body) -> OutFrame {
        OutFrame {
            head: h.encode(),
            body,
            sent: 0,
        }
    }

    /// Count the first `n` bytes as written (a partial write made before queueing).
    pub fn skip(&mut self, n: usize) {
        self.sent = n;
    }

    fn len(&self) -> usize {
        HEADER
            + match &self.body {
                Body::Empty => 0,
                Body::Owned(v) => v.len(),
                Body::Spans(s) => s.iter().map(|s| s.1).sum(),
            }
    }

    /// Append iovecs for the unsent bytes; false when `iov` is full before the end.
    fn unsent(&self, iov: &mut Vec<libc::iovec>) -> bool {
        let mut skip = self.sent;
        let mut push = |addr: usize, len: usize| -> bool {
            if skip >= len {
                skip -= len;
                return true;
            }
            if iov.len() == IOV {
                return false;
            }
            iov.push(libc::iovec {
                iov_base: (addr + skip) as *mut libc::c_void,
                iov_len: len - skip,
            });
            skip = 0;
            true
        };
        if !push(self.head.as_ptr() as usize, HEADER) {
            return false;
        }
        match &self.body {
            Body::Empty => true,
            Body::Owned(v) => push(v.as_ptr() as usize, v.len()),
            Body::Spans(s) => s.iter().all(|&(a, n)| push(a, n)),
        }
    }
}

/// Frames for one peer, in order.
#[derive(Default)]
pub struct Outbox {
    frames: VecDeque<OutFrame>,
    /// Bytes queued (for back-pressure).
    pub bytes: usize,
}

// SAFETY: the raw addresses in `Body::Spans` name memory that stays valid until the
// operation completes (see `Body`); nothing else in the outbox is tied to a thread.
unsafe impl Send for Outbox {}

impl Outbox {
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    pub fn push(&mut self, f: OutFrame) {
        self.bytes += f.len();
        self.frames.push_back(f);
    }

    /// Write what the socket takes now. Ok(true) once everything is out.
    pub fn flush(&mut self, fd: RawFd) -> io::Result<bool> {
        while !self.frames.is_empty() {
            let mut iov = Vec::with_capacity(IOV);
            for f in &self.frames {
                if !f.unsent(&mut iov) {
                    break;
                }
            }
            let mut n = writev(fd, &iov)?;
            if n == 0 {
                return Ok(false);
            }
            self.bytes -= n;
            while n > 0 {
                let f = self
                    .frames
                    .front_mut()
                    .expect("bytes written belong to a frame");
                let left = f.len() - f.sent;
                if n >= left {
                    n -= left;
                    self.frames.pop_front();
                } else {
                    f.sent += n;
                    n = 0;
                }
            }
        }
        Ok(true)
    }
}

/// A gathering write to a socket (`sendmsg`, as `writev`) that reports a full socket as
/// 0 bytes and retries interruptions. `MSG_NOSIGNAL`: a peer whose link went down gives
/// `EPIPE` (the rail's failover handles it), not a `SIGPIPE` that kills the process — the
/// application, not Rust's runtime, decides SIGPIPE's disposition in an MPI program.
pub fn writev(fd: RawFd, iov: &[libc::iovec]) -> io::Result<usize> {
    // SAFETY: msghdr is plain data; all-zero is a valid empty message.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = iov.as_ptr() as *mut libc::iovec;
    msg.msg_iovlen = iov.len().min(libc::c_int::MAX as usize) as _;
    loop {
        // SAFETY: `msg` names `iov`, every iovec memory that is valid to read (the frames'
        // heads and bodies, see `Body`); the kernel reports a bad address as EFAULT.
        let r = unsafe { libc::sendmsg(fd, &msg, libc::MSG_NOSIGNAL) };
        if r >= 0 {
            return Ok(r as usize);
        }
        let e = io::Error::last_os_error();
        match e.kind() {
            io::ErrorKind::Interrupted => continue,
            io::ErrorKind::WouldBlock => return Ok(0),
            _ => return Err(e),
        }
    }
}

/// `readv` into `iov`: Ok(None) when nothing is there now, Ok(Some(0)) at the end.
fn readv(fd: RawFd, iov: &[libc::iovec]) -> io::Result<Option<usize>> {
    loop {
        // SAFETY: every iovec names memory this process may write (the reader's own
        // buffers, or a sink the caller vouched for); a bad address fails with EFAULT.
        let r = unsafe { libc::readv(fd, iov.as_ptr(), iov.len() as libc::c_int) };
        if r >= 0 {
            return Ok(Some(r as usize));
        }
        let e = io::Error::last_os_error();
        match e.kind() {
            io::ErrorKind::Interrupted => continue,
            io::ErrorKind::WouldBlock => return Ok(None),
            _ => return Err(e),
        }
    }
}

/// Where a frame's payload goes.
pub enum Sink {
    /// Collect it (messages, handshake, small requests).
    Buffer(Vec<u8>),
    /// Straight into memory of this process: `(address, length)` runs that the caller
    /// checked (a key it verified, or the sink of its own read).
    Place(Vec<(usize, usize)>),
    /// Read and drop (a refused write).
    Discard,
}

/// A whole frame has arrived.
pub struct Frame {
    pub header: Header,
    /// The payload, for `Sink::Buffer`; empty otherwise.
    pub payload: Vec<u8>,
}

pub enum ReadError {
    Io(io::Error),
    Header(BadHeader),
    /// The peer closed the connection.
    Closed,
    /// The handler refused a frame (a protocol violation): the connection ends.
    Refused(String),
}

/// What the reader asks of its owner, frame by frame.
pub trait Handler {
    /// Where the payload of the frame with this header goes.
    fn sink(&mut self, header: &Header) -> Sink;
    /// A whole frame arrived; Err ends the connection.
    fn frame(&mut self, frame: Frame) -> Result<(), String>;
}

enum Stage {
    Header,
    Body {
        header: Header,
        sink: Sink,
        done: usize,
    },
}

/// Bytes read ahead of the frame being served: one `readv` takes a small frame whole,
/// with whatever follows it.
const STAGE: usize = 64 * 1024;
/// A payload with this much left to come is read straight to its sink (beside the
/// staging buffer, in the same `readv`), not copied through the staging buffer.
const DIRECT: usize = 16 * 1024;

pub struct Reader {
    /// Read-ahead: `buf[lo..hi]` is received and not yet served.
    buf: Vec<u8>,
    lo: usize,
    hi: usize,
    stage: Stage,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            buf: Vec::new(),
            lo: 0,
            hi: 0,
            stage: Stage::Header,
        }
    }
}

impl Reader {
    /// Read from `fd` until it has nothing more (or `budget` bytes went by), asking `h`
    /// where each payload goes and handing it each whole frame. Ok when the socket is
    /// drained for now (or the budget is spent): whether any byte came; nothing read is
    /// left unserved, as readiness only reports the socket.
    pub fn read(
        &mut self,
        fd: RawFd,
        mut budget: usize,
        h: &mut dyn Handler,
    ) -> Result<bool, ReadError> {
        let mut any = false;
        if self.buf.is_empty() {
            self.buf = vec![0; STAGE];
        }
        loop {
            self.serve(h)?;
            if budget == 0 {
                return Ok(any);
            }
            // What is left is part of a header (the body bytes are all served): move it
            // to the front.
            if self.lo > 0 {
                self.buf.copy_within(self.lo..self.hi, 0);
                self.hi -= self.lo;
                self.lo = 0;
            }
            // (Allocated only for a payload read in place: a poll that finds a small
            // frame or nothing allocates nothing.)
            let mut iov: Vec<libc::iovec> = Vec::new();
            let mut direct = 0;
            if let Stage::Body { header, sink, done } = &mut self.stage {
                let left = header.len as usize - *done;
                if left >= DIRECT {
                    iov.reserve(IOV + 1);
                    match sink {
                        Sink::Buffer(v) => iov.push(libc::iovec {
                            iov_base: v[*done..].as_mut_ptr() as *mut libc::c_void,
                            iov_len: left,
                        }),
                        Sink::Place(runs) => place_iov(runs, *done, &mut iov),
                        Sink::Discard => {}
                    }
                    direct = iov.iter().map(|v| v.iov_len).sum();
                }
            }
            let room = STAGE - self.hi;
            let stage = libc::iovec {
                iov_base: self.buf[self.hi..].as_mut_ptr() as *mut libc::c_void,
                iov_len: room,
            };
            let got = if iov.is_empty() {
                readv(fd, std::slice::from_ref(&stage))
            } else {
                iov.push(stage);
                readv(fd, &iov)
            };
            let n = match got.map_err(ReadError::Io)? {
                None => return Ok(any),
                Some(0) => return Err(ReadError::Closed),
                Some(n) => n,
            };
            any = true;
            budget = budget.saturating_sub(n);
            let to_sink = n.min(direct);
            if let Stage::Body { done, .. } = &mut self.stage {
                *done += to_sink;
            }
            self.hi += n - to_sink;
            if n < direct + room {
                // A short read: the socket is drained for now (it reports new bytes).
                self.serve(h)?;
                return Ok(true);
            }
        }
    }

    /// Serve every whole header and every payload byte the staging buffer holds.
    fn serve(&mut self, h: &mut dyn Handler) -> Result<(), ReadError> {
        loop {
            match &mut self.stage {
                Stage::Header => {
                    if self.hi - self.lo < HEADER {
                        return Ok(());
                    }
                    let head: &[u8; HEADER] = self.buf[self.lo..self.lo + HEADER]
                        .try_into()
                        .expect("HEADER bytes");
                    let header = Header::decode(head).map_err(ReadError::Header)?;
                    self.lo += HEADER;
                    let mut sink = h.sink(&header);
                    if let Sink::Buffer(v) = &mut sink {
                        v.clear();
                        v.resize(header.len as usize, 0);
                    }
                    self.stage = Stage::Body {
                        header,
                        sink,
                        done: 0,
                    };
                }
                Stage::Body { header, sink, done } => {
                    let len = header.len as usize;
                    let take = (len - *done).min(self.hi - self.lo);
                    if take > 0 {
                        let bytes = &self.buf[self.lo..self.lo + take];
                        match sink {
                            Sink::Buffer(v) => v[*done..*done + take].copy_from_slice(bytes),
                            Sink::Place(runs) => place(runs, *done, bytes)?,
                            Sink::Discard => {}
                        }
                        self.lo += take;
                        *done += take;
                    }
                    if *done < len {
                        return Ok(());
                    }
                    let Stage::Body { header, sink, .. } =
                        std::mem::replace(&mut self.stage, Stage::Header)
                    else {
                        unreachable!("in the body stage")
                    };
                    let payload = match sink {
                        Sink::Buffer(v) => v,
                        _ => Vec::new(),
                    };
                    h.frame(Frame { header, payload })
                        .map_err(ReadError::Refused)?;
                }
            }
        }
    }
}

/// iovecs for the runs of a `Sink::Place` from byte `from` on (at most `IOV`).
fn place_iov(runs: &[(usize, usize)], from: usize, iov: &mut Vec<libc::iovec>) {
    let mut skip = from;
    for &(a, n) in runs {
        if skip >= n {
            skip -= n;
            continue;
        }
        if iov.len() == IOV {
            break;
        }
        iov.push(libc::iovec {
            iov_base: (a + skip) as *mut libc::c_void,
            iov_len: n - skip,
        });
        skip = 0;
    }
}

/// Copy read-ahead `bytes` into the runs of a `Sink::Place` from byte `from` on. Through
/// the kernel (`process_vm_writev` on ourselves), like the `readv` that places the rest:
/// memory unmapped since its key was checked fails with EFAULT instead of a fault here.
fn place(runs: &[(usize, usize)], from: usize, bytes: &[u8]) -> Result<(), ReadError> {
    let mut skip = from;
    let mut rest = bytes;
    for &(a, n) in runs {
        if rest.is_empty() {
            break;
        }
        if skip >= n {
            skip -= n;
            continue;
        }
        let k = (n - skip).min(rest.len());
        crate::sys::cma::write(std::process::id() as i32, &rest[..k], (a + skip) as u64)
            .map_err(ReadError::Io)?;
        rest = &rest[k..];
        skip = 0;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write to a socket whose peer is gone is an error, not a SIGPIPE: checked in a
    /// child process with SIGPIPE's default disposition (a C program's, unlike a Rust
    /// test binary's), which a SIGPIPE would kill.
    #[test]
    fn a_write_to_a_closed_peer_is_epipe_not_sigpipe() {
        let mut fds = [0; 2];
        // SAFETY: a valid array for the two descriptors.
        assert_eq!(
            unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, fds.as_mut_ptr()) },
            0
        );
        // SAFETY: closing our own descriptor.
        unsafe { libc::close(fds[1]) };
        let bytes = [7u8; 64];
        let iov = [libc::iovec {
            iov_base: bytes.as_ptr() as *mut libc::c_void,
            iov_len: bytes.len(),
        }];
        // SAFETY: the child only resets a signal, writes and exits (no allocation, no lock).
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            // SAFETY: async-signal-safe calls only, then _exit.
            unsafe {
                libc::signal(libc::SIGPIPE, libc::SIG_DFL);
                let code = match writev(fds[0], &iov) {
                    Err(e) if e.raw_os_error() == Some(libc::EPIPE) => 0,
                    _ => 1,
                };
                libc::_exit(code);
            }
        }
        let mut status = 0;
        // SAFETY: waiting for our own child.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "child status {status:#x} (killed by signal {})",
            libc::WTERMSIG(status)
        );
        // SAFETY: closing our own descriptor.
        unsafe { libc::close(fds[0]) };
    }
}
