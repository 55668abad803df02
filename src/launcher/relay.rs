//! What mpiexec and its proxies say to each other over one TCP connection per host.
//!
//! The proxy reads the job secret from its standard input (which the launcher, ssh or
//! other, carries; never a command line, which other users of the host can read), proves
//! it in a challenge-response (`fabric::tcp::auth`; the secret never crosses the
//! connection), and from then on every frame
//! is `[u32 length][u8 kind][u32 rank][payload]`, little-endian, the length counting
//! everything after itself. The root sends the `Setup` of the host, then relays PMI
//! replies, stdin and signals; the proxy relays its ranks' PMI lines, output, start and
//! exit. Frames come from another process: decoded with checked parsers, bounded.

/// Longest frame accepted (a PMI line is at most a few KiB; output is sent in chunks).
pub const MAX_FRAME: usize = 1 << 20;
const HEAD: usize = 4 + 1 + 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// root → proxy: what to start on this host.
    Setup(Setup),
    /// Either way: one PMI line of `rank` (to the root) or a reply to it (to the proxy).
    Pmi { rank: u32, line: Vec<u8> },
    /// proxy → root: bytes `rank` wrote to stdout (`stream` 1) or stderr (2).
    Output {
        rank: u32,
        stream: u8,
        bytes: Vec<u8>,
    },
    /// proxy → root: `rank` runs as `pid` on the proxy's host.
    Started { rank: u32, pid: u32 },
    /// proxy → root: `rank` ended: exit `code`, or killed by `signal` (non-zero).
    Exited {
        rank: u32,
        code: i32,
        signal: i32,
        core: bool,
    },
    /// root → proxy: bytes for rank 0's stdin; empty: end of file.
    Stdin(Vec<u8>),
    /// root → proxy: send `signal` to `rank`.
    Signal { rank: u32, signal: i32 },
}

/// Everything a proxy needs to start its ranks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    pub kvsname: String,
    pub size: u32,
    pub ranks: Vec<u32>,
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// `RAILMPI_TCP_TIMEOUT` of mpiexec (ms): the proxy's connection to the root fails
    /// after this long without an answer (a proxy started by ssh has not mpiexec's
    /// environment).
    pub timeout_ms: u32,
}

const SETUP: u8 = 1;
const PMI: u8 = 2;
const OUTPUT: u8 = 3;
const STARTED: u8 = 4;
const EXITED: u8 = 5;
const STDIN: u8 = 6;
const SIGNAL: u8 = 7;

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// A checked reader over a frame's payload.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err("frame shorter than its fields".into());
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    fn i32(&mut self) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    fn str(&mut self) -> Result<String, String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| "a string is not UTF-8".into())
    }
    fn done(&self) -> Result<(), String> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err("trailing bytes in a frame".into())
        }
    }
}

impl Frame {
    pub fn encode(&self) -> Vec<u8> {
        let mut p = Vec::new();
        let (kind, rank) = match self {
            Frame::Setup(s) => {
                put_str(&mut p, &s.kvsname);
                p.extend_from_slice(&s.size.to_le_bytes());
                p.extend_from_slice(&(s.ranks.len() as u32).to_le_bytes());
                for r in &s.ranks {
                    p.extend_from_slice(&r.to_le_bytes());
                }
                put_str(&mut p, &s.program);
                p.extend_from_slice(&(s.args.len() as u32).to_le_bytes());
                for a in &s.args {
                    put_str(&mut p, a);
                }
                p.extend_from_slice(&(s.env.len() as u32).to_le_bytes());
                for (k, v) in &s.env {
                    put_str(&mut p, k);
                    put_str(&mut p, v);
                }
                p.extend_from_slice(&s.timeout_ms.to_le_bytes());
                (SETUP, 0)
            }
            Frame::Pmi { rank, line } => {
                p.extend_from_slice(line);
                (PMI, *rank)
            }
            Frame::Output {
                rank,
                stream,
                bytes,
            } => {
                p.push(*stream);
                p.extend_from_slice(bytes);
                (OUTPUT, *rank)
            }
            Frame::Started { rank, pid } => {
                p.extend_from_slice(&pid.to_le_bytes());
                (STARTED, *rank)
            }
            Frame::Exited {
                rank,
                code,
                signal,
                core,
            } => {
                p.extend_from_slice(&code.to_le_bytes());
                p.extend_from_slice(&signal.to_le_bytes());
                p.push(*core as u8);
                (EXITED, *rank)
            }
            Frame::Stdin(b) => {
                p.extend_from_slice(b);
                (STDIN, 0)
            }
            Frame::Signal { rank, signal } => {
                p.extend_from_slice(&signal.to_le_bytes());
                (SIGNAL, *rank)
            }
        };
        let mut out = Vec::with_capacity(HEAD + p.len());
        out.extend_from_slice(&((5 + p.len()) as u32).to_le_bytes());
        out.push(kind);
        out.extend_from_slice(&rank.to_le_bytes());
        out.extend_from_slice(&p);
        out
    }

    /// Takes one frame off the front of `buf` if it is complete: Ok(None) when more bytes
    /// are needed, Err for bytes that are no frame (the connection is then dropped).
    pub fn take(buf: &mut Vec<u8>) -> Result<Option<Frame>, String> {
        if buf.len() < 4 {
            return Ok(None);
        }
        let len = u32::from_le_bytes(buf[0..4].try_into().expect("4")) as usize;
        if !(5..=MAX_FRAME).contains(&len) {
            return Err(format!("frame length {len} out of bounds"));
        }
        if buf.len() < 4 + len {
            return Ok(None);
        }
        let frame = Frame::decode(&buf[4..4 + len]);
        buf.drain(..4 + len);
        frame.map(Some)
    }

    fn decode(b: &[u8]) -> Result<Frame, String> {
        let kind = b[0];
        let rank = u32::from_le_bytes(b[1..5].try_into().expect("4"));
        let mut c = Cursor(&b[5..]);
        let f = match kind {
            SETUP => {
                let kvsname = c.str()?;
                let size = c.u32()?;
                let n = c.u32()? as usize;
                // Counts are bounded by the bytes that remain before anything is sized.
                if n > c.0.len() / 4 {
                    return Err("rank count past the frame".into());
                }
                let ranks = (0..n).map(|_| c.u32()).collect::<Result<_, _>>()?;
                let program = c.str()?;
                let n = c.u32()? as usize;
                if n > c.0.len() / 4 {
                    return Err("argument count past the frame".into());
                }
                let args = (0..n).map(|_| c.str()).collect::<Result<_, _>>()?;
                let n = c.u32()? as usize;
                if n > c.0.len() / 8 {
                    return Err("environment count past the frame".into());
                }
                let env = (0..n)
                    .map(|_| Ok((c.str()?, c.str()?)))
                    .collect::<Result<_, String>>()?;
                let timeout_ms = c.u32()?;
                Frame::Setup(Setup {
                    kvsname,
                    size,
                    ranks,
                    program,
                    args,
                    env,
                    timeout_ms,
                })
            }
            PMI => {
                let line = c.take(c.0.len())?.to_vec();
                Frame::Pmi { rank, line }
            }
            OUTPUT => {
                let stream = c.take(1)?[0];
                if !(1..=2).contains(&stream) {
                    return Err(format!("output stream {stream}"));
                }
                let bytes = c.take(c.0.len())?.to_vec();
                Frame::Output {
                    rank,
                    stream,
                    bytes,
                }
            }
            STARTED => Frame::Started {
                rank,
                pid: c.u32()?,
            },
            EXITED => Frame::Exited {
                rank,
                code: c.i32()?,
                signal: c.i32()?,
                core: c.take(1)?[0] != 0,
            },
            STDIN => Frame::Stdin(c.take(c.0.len())?.to_vec()),
            SIGNAL => Frame::Signal {
                rank,
                signal: c.i32()?,
            },
            k => return Err(format!("unknown frame kind {k}")),
        };
        c.done()?;
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Frame> {
        vec![
            Frame::Setup(Setup {
                kvsname: "railmpi_1_0".into(),
                size: 4,
                ranks: vec![2, 3],
                program: "/bin/prog".into(),
                args: vec!["-x".into(), "".into(), "a b".into()],
                env: vec![("A".into(), "1".into())],
                timeout_ms: 3000,
            }),
            Frame::Pmi {
                rank: 3,
                line: b"cmd=barrier_in\n".to_vec(),
            },
            Frame::Output {
                rank: 1,
                stream: 2,
                bytes: b"partial".to_vec(),
            },
            Frame::Started { rank: 0, pid: 77 },
            Frame::Exited {
                rank: 9,
                code: -1,
                signal: 9,
                core: true,
            },
            Frame::Stdin(vec![]),
            Frame::Signal {
                rank: 2,
                signal: 15,
            },
        ]
    }

    #[test]
    fn frames_round_trip_in_pieces() {
        let mut wire = Vec::new();
        for f in samples() {
            wire.extend_from_slice(&f.encode());
        }
        let mut buf = Vec::new();
        let mut got = Vec::new();
        for chunk in wire.chunks(3) {
            buf.extend_from_slice(chunk);
            while let Some(f) = Frame::take(&mut buf).unwrap() {
                got.push(f);
            }
        }
        assert_eq!(got, samples());
        assert!(buf.is_empty());
    }

    /// Random and mutated frames: an error or a frame, never a panic or a huge allocation.
    #[test]
    fn fuzzed_frames_never_panic() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let valid: Vec<Vec<u8>> = samples().iter().map(Frame::encode).collect();
        for i in 0..20_000 {
            let mut b = if i % 2 == 0 {
                valid[(rnd() as usize) % valid.len()].clone()
            } else {
                (0..rnd() % 64).map(|_| rnd() as u8).collect()
            };
            for _ in 0..(rnd() % 4) {
                if !b.is_empty() {
                    let at = (rnd() as usize) % b.len();
                    b[at] = rnd() as u8;
                }
            }
            let _ = Frame::take(&mut b);
        }
        let mut huge = ((MAX_FRAME + 1) as u32).to_le_bytes().to_vec();
        huge.push(PMI);
        assert!(Frame::take(&mut huge).is_err());
    }
}
