//! `--tag-output`: forwards a rank's stdout or stderr pipe line by line, each line
//! prefixed with `[rank] `. A partial line is held until its newline arrives (or the
//! pipe closes, or it grows past [`MAX_PARTIAL`]), so lines of different ranks never mix.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

/// A partial line longer than this is forwarded without waiting for its newline.
pub const MAX_PARTIAL: usize = 64 * 1024;

/// Where forwarded lines go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sink {
    Stdout,
    Stderr,
}

/// One pipe from a rank.
pub struct TaggedPipe {
    file: Option<File>,
    prefix: Vec<u8>,
    partial: Vec<u8>,
    sink: Sink,
}

impl TaggedPipe {
    /// Takes the read end of a pipe; makes it non-blocking.
    pub fn new(fd: OwnedFd, rank: u32, sink: Sink) -> io::Result<TaggedPipe> {
        set_nonblocking(fd.as_raw_fd())?;
        Ok(TaggedPipe {
            file: Some(File::from(fd)),
            prefix: format!("[{rank}] ").into_bytes(),
            partial: Vec::new(),
            sink,
        })
    }

    /// The descriptor to poll, `None` once the pipe is closed.
    pub fn fd(&self) -> Option<RawFd> {
        self.file.as_ref().map(|f| f.as_raw_fd())
    }

    /// Reads what is available and forwards complete lines. Returns `false` once the
    /// pipe has closed (the remaining partial line has then been forwarded).
    pub fn on_readable(&mut self) -> bool {
        let Some(file) = self.file.as_mut() else {
            return false;
        };
        let mut chunk = [0u8; 16 * 1024];
        let mut out = Vec::new();
        let open = loop {
            match file.read(&mut chunk) {
                Ok(0) => break false,
                Ok(n) => {
                    self.partial.extend_from_slice(&chunk[..n]);
                    take_lines(&self.prefix, &mut self.partial, &mut out, false);
                    if out.len() > MAX_PARTIAL {
                        emit(self.sink, &out);
                        out.clear();
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break true,
                Err(_) => break false,
            }
        };
        if !open {
            take_lines(&self.prefix, &mut self.partial, &mut out, true);
            self.file = None;
        }
        emit(self.sink, &out);
        open
    }

    /// Forwards what is left and closes the pipe (used when giving up on a pipe that a
    /// rank's descendant still holds open).
    pub fn close(&mut self) {
        if self.file.take().is_some() {
            let mut out = Vec::new();
            take_lines(&self.prefix, &mut self.partial, &mut out, true);
            emit(self.sink, &out);
        }
    }
}

/// Moves the complete lines of `partial` (all of it when `flush`, or when it exceeds
/// [`MAX_PARTIAL`]) to `out`, each prefixed and newline-terminated.
pub fn take_lines(prefix: &[u8], partial: &mut Vec<u8>, out: &mut Vec<u8>, flush: bool) {
    let mut start = 0;
    while let Some(i) = partial[start..].iter().position(|&b| b == b'\n') {
        out.extend_from_slice(prefix);
        out.extend_from_slice(&partial[start..start + i + 1]);
        start += i + 1;
    }
    partial.drain(..start);
    if !partial.is_empty() && (flush || partial.len() > MAX_PARTIAL) {
        out.extend_from_slice(prefix);
        out.append(partial);
        out.push(b'\n');
    }
}

pub fn emit(sink: Sink, data: &[u8]) {
    if data.is_empty() {
        return;
    }
    // A closed or broken stdout/stderr of mpiexec must not stop the job: ignore errors.
    let _ = match sink {
        Sink::Stdout => {
            let mut s = io::stdout().lock();
            s.write_all(data).and_then(|_| s.flush())
        }
        Sink::Stderr => io::stderr().lock().write_all(data),
    };
}

pub fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own; reads and sets only its status flags.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_prefixed_and_partials_held() {
        let mut partial = b"a\nbc\nde".to_vec();
        let mut out = Vec::new();
        take_lines(b"[3] ", &mut partial, &mut out, false);
        assert_eq!(out, b"[3] a\n[3] bc\n");
        assert_eq!(partial, b"de");
        partial.extend_from_slice(b"f\n");
        out.clear();
        take_lines(b"[3] ", &mut partial, &mut out, false);
        assert_eq!(out, b"[3] def\n");
        assert!(partial.is_empty());
        partial.extend_from_slice(b"tail");
        out.clear();
        take_lines(b"[3] ", &mut partial, &mut out, true);
        assert_eq!(out, b"[3] tail\n");
        let mut big = vec![b'x'; MAX_PARTIAL + 1];
        out.clear();
        take_lines(b"[0] ", &mut big, &mut out, false);
        assert!(big.is_empty());
        assert_eq!(out.len(), MAX_PARTIAL + 1 + 5);
    }
}
