//! What mpiexec and its proxies say to each other over one TCP connection per host.
//!
//! The proxy reads the job secret from its standard input (which the launcher, ssh or
//! other, carries; never a command line, which other users of the host can read), proves
//! it in a challenge-response (`fabric::tcp::auth`; the secret never crosses the
//! connection), and from then on every frame
//! is `[u32 length][u8 kind][u32 job][u32 rank][payload]`, little-endian, the length
//! counting everything after itself. The root sends the `Setup` of the host, then relays
//! PMI replies, stdin and signals, the processes of spawned jobs to start (`job` counts
//! the jobs: 0 is the one mpiexec started), and the job's end; the proxy relays its
//! processes' PMI lines, output, start and exit. Frames come from another process: decoded
//! with checked parsers, bounded.

/// Longest frame accepted (a PMI line is at most a few KiB; output is sent in chunks).
pub const MAX_FRAME: usize = 1 << 20;
const HEAD: usize = 4 + 1 + 4 + 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// root → proxy: what to start on this host.
    Setup(Setup),
    /// Either way: one PMI line of `rank` of `job` (to the root) or a reply to it (to
    /// the proxy).
    Pmi { job: u32, rank: u32, line: Vec<u8> },
    /// proxy → root: bytes `rank` wrote to stdout (`stream` 1) or stderr (2).
    Output {
        job: u32,
        rank: u32,
        stream: u8,
        bytes: Vec<u8>,
    },
    /// proxy → root: `rank` runs as `pid` on the proxy's host.
    Started { job: u32, rank: u32, pid: u32 },
    /// proxy → root: `rank` ended: exit `code`, or killed by `signal` (non-zero).
    Exited {
        job: u32,
        rank: u32,
        code: i32,
        signal: i32,
        core: bool,
    },
    /// root → proxy: bytes for rank 0's stdin; empty: end of file.
    Stdin(Vec<u8>),
    /// root → proxy: send `signal` to `rank`.
    Signal { job: u32, rank: u32, signal: i32 },
    /// root → proxy: start these processes of spawned job `job` (MPI_Comm_spawn).
    Spawn(Spawned),
    /// root → proxy: every process of every job has ended; leave once output is out.
    End,
}

/// The processes of a spawned job one host starts. Their secret is not sent: each side
/// derives it from the job's (`fabric::tcp::auth::derive`, labelled with `job`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spawned {
    pub job: u32,
    pub kvsname: String,
    pub size: u32,
    pub env: Vec<(String, String)>,
    pub procs: Vec<SpawnedProc>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpawnedProc {
    pub rank: u32,
    pub program: String,
    pub args: Vec<String>,
    /// Working directory ("": the proxy's).
    pub wdir: String,
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
const SPAWN: u8 = 8;
const END: u8 = 9;

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn put_strs(out: &mut Vec<u8>, v: &[String]) {
    out.extend_from_slice(&(v.len() as u32).to_le_bytes());
    v.iter().for_each(|a| put_str(out, a));
}

fn put_env(out: &mut Vec<u8>, env: &[(String, String)]) {
    out.extend_from_slice(&(env.len() as u32).to_le_bytes());
    for (k, v) in env {
        put_str(out, k);
        put_str(out, v);
    }
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
    /// A count of items of at least `min` bytes each, bounded by the bytes that remain
    /// before anything is sized.
    fn count(&mut self, min: usize) -> Result<usize, String> {
        let n = self.u32()? as usize;
        if n > self.0.len() / min {
            return Err("a count past the frame".into());
        }
        Ok(n)
    }
    fn strs(&mut self) -> Result<Vec<String>, String> {
        let n = self.count(4)?;
        (0..n).map(|_| self.str()).collect()
    }
    fn env(&mut self) -> Result<Vec<(String, String)>, String> {
        let n = self.count(8)?;
        (0..n).map(|_| Ok((self.str()?, self.str()?))).collect()
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
        let (kind, job, rank) = match self {
            Frame::Setup(s) => {
                put_str(&mut p, &s.kvsname);
                p.extend_from_slice(&s.size.to_le_bytes());
                p.extend_from_slice(&(s.ranks.len() as u32).to_le_bytes());
                for r in &s.ranks {
                    p.extend_from_slice(&r.to_le_bytes());
                }
                put_str(&mut p, &s.program);
                put_strs(&mut p, &s.args);
                put_env(&mut p, &s.env);
                p.extend_from_slice(&s.timeout_ms.to_le_bytes());
                (SETUP, 0, 0)
            }
            Frame::Pmi { job, rank, line } => {
                p.extend_from_slice(line);
                (PMI, *job, *rank)
            }
            Frame::Output {
                job,
                rank,
                stream,
                bytes,
            } => {
                p.push(*stream);
                p.extend_from_slice(bytes);
                (OUTPUT, *job, *rank)
            }
            Frame::Started { job, rank, pid } => {
                p.extend_from_slice(&pid.to_le_bytes());
                (STARTED, *job, *rank)
            }
            Frame::Exited {
                job,
                rank,
                code,
                signal,
                core,
            } => {
                p.extend_from_slice(&code.to_le_bytes());
                p.extend_from_slice(&signal.to_le_bytes());
                p.push(*core as u8);
                (EXITED, *job, *rank)
            }
            Frame::Stdin(b) => {
                p.extend_from_slice(b);
                (STDIN, 0, 0)
            }
            Frame::Signal { job, rank, signal } => {
                p.extend_from_slice(&signal.to_le_bytes());
                (SIGNAL, *job, *rank)
            }
            Frame::Spawn(s) => {
                put_str(&mut p, &s.kvsname);
                p.extend_from_slice(&s.size.to_le_bytes());
                put_env(&mut p, &s.env);
                p.extend_from_slice(&(s.procs.len() as u32).to_le_bytes());
                for q in &s.procs {
                    p.extend_from_slice(&q.rank.to_le_bytes());
                    put_str(&mut p, &q.program);
                    put_strs(&mut p, &q.args);
                    put_str(&mut p, &q.wdir);
                }
                (SPAWN, s.job, 0)
            }
            Frame::End => (END, 0, 0),
        };
        let mut out = Vec::with_capacity(HEAD + p.len());
        out.extend_from_slice(&((HEAD - 4 + p.len()) as u32).to_le_bytes());
        out.push(kind);
        out.extend_from_slice(&job.to_le_bytes());
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
        if !(HEAD - 4..=MAX_FRAME).contains(&len) {
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
        let job = u32::from_le_bytes(b[1..5].try_into().expect("4"));
        let rank = u32::from_le_bytes(b[5..9].try_into().expect("4"));
        let mut c = Cursor(&b[9..]);
        let f = match kind {
            SETUP => {
                let kvsname = c.str()?;
                let size = c.u32()?;
                let n = c.count(4)?;
                let ranks = (0..n).map(|_| c.u32()).collect::<Result<_, _>>()?;
                let program = c.str()?;
                let args = c.strs()?;
                let env = c.env()?;
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
                Frame::Pmi { job, rank, line }
            }
            OUTPUT => {
                let stream = c.take(1)?[0];
                if !(1..=2).contains(&stream) {
                    return Err(format!("output stream {stream}"));
                }
                let bytes = c.take(c.0.len())?.to_vec();
                Frame::Output {
                    job,
                    rank,
                    stream,
                    bytes,
                }
            }
            STARTED => Frame::Started {
                job,
                rank,
                pid: c.u32()?,
            },
            EXITED => Frame::Exited {
                job,
                rank,
                code: c.i32()?,
                signal: c.i32()?,
                core: c.take(1)?[0] != 0,
            },
            STDIN => Frame::Stdin(c.take(c.0.len())?.to_vec()),
            SIGNAL => Frame::Signal {
                job,
                rank,
                signal: c.i32()?,
            },
            SPAWN => {
                let kvsname = c.str()?;
                let size = c.u32()?;
                let env = c.env()?;
                // Each process takes at least 16 bytes.
                let n = c.count(16)?;
                let procs = (0..n)
                    .map(|_| {
                        Ok(SpawnedProc {
                            rank: c.u32()?,
                            program: c.str()?,
                            args: c.strs()?,
                            wdir: c.str()?,
                        })
                    })
                    .collect::<Result<_, String>>()?;
                Frame::Spawn(Spawned {
                    job,
                    kvsname,
                    size,
                    env,
                    procs,
                })
            }
            END => Frame::End,
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
                job: 0,
                rank: 3,
                line: b"cmd=barrier_in\n".to_vec(),
            },
            Frame::Output {
                job: 1,
                rank: 1,
                stream: 2,
                bytes: b"partial".to_vec(),
            },
            Frame::Started {
                job: 0,
                rank: 0,
                pid: 77,
            },
            Frame::Exited {
                job: 2,
                rank: 9,
                code: -1,
                signal: 9,
                core: true,
            },
            Frame::Stdin(vec![]),
            Frame::Signal {
                job: 0,
                rank: 2,
                signal: 15,
            },
            Frame::Spawn(Spawned {
                job: 1,
                kvsname: "railmpi_1_1".into(),
                size: 3,
                env: vec![("PMI_SPAWNED".into(), "1".into())],
                procs: vec![
                    SpawnedProc {
                        rank: 1,
                        program: "/bin/child".into(),
                        args: vec!["x".into()],
                        wdir: "".into(),
                    },
                    SpawnedProc {
                        rank: 2,
                        program: "/bin/other".into(),
                        args: vec![],
                        wdir: "/tmp".into(),
                    },
                ],
            }),
            Frame::End,
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
