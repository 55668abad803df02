//! Sans-I/O codec for the PMI-1 "simple" wire protocol.
//!
//! One message per line: `cmd=NAME key=value key=value\n`. Tokens are separated by spaces
//! (runs of spaces are tolerated, as MPICH's own parser does); a token name is
//! `[A-Za-z0-9_/-]+`, a value is one or more printable ASCII characters other than space
//! (`=` is allowed inside a value: `value=a=b` is the value `a=b`). There is no escaping:
//! Hydra 4.0.2 passes backslashes through verbatim, newer MPICH unescapes them, so values
//! with a backslash are rejected by [`check_value`] rather than sent ambiguously.
//!
//! Lines come from another process and are untrusted: [`Command::parse`] and
//! [`Reply::parse`] reject over-long lines (more than [`MAX_LINE`] bytes, newline
//! included), control or non-ASCII characters, tokens without `=value`, duplicated
//! keys, missing required keys and malformed numbers. Unknown extra keys are ignored
//! (Hydra adds `msg=success` to some replies; newer clients may add keys).
//!
//! Exact reply shapes of Hydra (MPICH 4.0.2), for reference:
//! ```text
//! cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0
//! cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024      (no rc)
//! cmd=appnum appnum=0
//! cmd=my_kvsname kvsname=kvs_3371_0_232896023_vm               (no rc)
//! cmd=universe_size size=-1                                    (-1: unknown)
//! cmd=put_result rc=0 msg=success
//! cmd=barrier_out
//! cmd=get_result rc=0 msg=success value=V
//! cmd=get_result rc=-1 msg=key_K_not_found value=unknown
//! cmd=finalize_ack
//! ```
//! and `cmd=abort exitcode=N` gets no reply.

use std::fmt;

/// Longest accepted line in bytes, the trailing newline included.
pub const MAX_LINE: usize = 4096;

/// Why a line was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// The line (or an unterminated partial line) is longer than [`MAX_LINE`].
    TooLong(usize),
    /// Nothing but spaces.
    Empty,
    /// A control character, a non-ASCII byte or an embedded newline at this byte offset.
    BadChar { offset: usize, byte: u8 },
    /// The line does not start with `cmd=`.
    NoCmd,
    /// Multi-line `mcmd=` commands (spawn) are not supported.
    Mcmd,
    /// A token is not `name=value` with a valid name and a non-empty value.
    BadToken(String),
    /// A key appears twice.
    DuplicateKey(String),
    /// A required key is absent.
    MissingKey { cmd: String, key: &'static str },
    /// A numeric key does not hold a number of the right range.
    BadNumber { key: &'static str, value: String },
    /// A well-formed line naming a command (or reply) this side does not know.
    UnknownCommand(String),
    /// A value given to an encoder is not representable on the wire.
    BadValue {
        what: &'static str,
        reason: &'static str,
    },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::TooLong(n) => write!(f, "line of {n}+ bytes exceeds {MAX_LINE}"),
            WireError::Empty => write!(f, "empty line"),
            WireError::BadChar { offset, byte } => {
                write!(f, "invalid byte 0x{byte:02x} at offset {offset}")
            }
            WireError::NoCmd => write!(f, "line does not start with cmd="),
            WireError::Mcmd => write!(f, "multi-line mcmd= commands (spawn) are not supported"),
            WireError::BadToken(t) => write!(f, "malformed token {:?}", truncate(t)),
            WireError::DuplicateKey(k) => write!(f, "duplicate key {k:?}"),
            WireError::MissingKey { cmd, key } => write!(f, "{cmd}: missing key {key:?}"),
            WireError::BadNumber { key, value } => {
                write!(f, "{key}: not a valid number: {:?}", truncate(value))
            }
            WireError::UnknownCommand(c) => write!(f, "unknown command {:?}", truncate(c)),
            WireError::BadValue { what, reason } => write!(f, "invalid {what}: {reason}"),
        }
    }
}

impl std::error::Error for WireError {}

fn truncate(s: &str) -> &str {
    // Only ASCII reaches here (checked by the tokenizer) except through BadValue users;
    // cut at a char boundary anyway.
    let mut end = s.len().min(80);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `true` for bytes allowed in a token name (MPICH's `IS_KEY`).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'/'
}

/// `true` for bytes the parser accepts inside a value: printable ASCII except space.
fn is_value_byte(b: u8) -> bool {
    b.is_ascii_graphic()
}

/// Checks that `s` can be sent as a value by our side: non-empty, at most `max` bytes,
/// printable ASCII without space or backslash. `what` names it in the error.
/// A value of an `mcmd=spawn` block, whose lines end only at newlines (Hydra splits them
/// there): printable ASCII, spaces allowed (an argument may hold them), at most `max`
/// bytes; empty allowed (an empty argument).
pub fn check_line_value(what: &'static str, s: &str, max: usize) -> Result<(), WireError> {
    if s.len() > max {
        return Err(WireError::BadValue {
            what,
            reason: "too long",
        });
    }
    if !s
        .bytes()
        .all(|b| b == b' ' || (is_value_byte(b) && b != b'\\'))
    {
        return Err(WireError::BadValue {
            what,
            reason: "only printable ASCII without backslashes is allowed",
        });
    }
    Ok(())
}

pub fn check_value(what: &'static str, s: &str, max: usize) -> Result<(), WireError> {
    if s.is_empty() {
        return Err(WireError::BadValue {
            what,
            reason: "empty",
        });
    }
    if s.len() > max {
        return Err(WireError::BadValue {
            what,
            reason: "too long",
        });
    }
    if !s.bytes().all(|b| is_value_byte(b) && b != b'\\') {
        return Err(WireError::BadValue {
            what,
            reason: "only printable ASCII without spaces or backslashes is allowed",
        });
    }
    Ok(())
}

/// A line split into its command name and `key=value` pairs.
struct Fields<'a> {
    name: &'a str,
    pairs: Vec<(&'a str, &'a str)>,
}

fn tokenize(line: &str) -> Result<Fields<'_>, WireError> {
    if line.len() > MAX_LINE {
        return Err(WireError::TooLong(line.len()));
    }
    let body = line.strip_suffix('\n').unwrap_or(line);
    if let Some(offset) = body.bytes().position(|b| !(b == b' ' || is_value_byte(b))) {
        return Err(WireError::BadChar {
            offset,
            byte: body.as_bytes()[offset],
        });
    }
    let mut tokens = body.split(' ').filter(|t| !t.is_empty());
    let first = tokens.next().ok_or(WireError::Empty)?;
    if first.starts_with("mcmd=") {
        return Err(WireError::Mcmd);
    }
    let name = first.strip_prefix("cmd=").ok_or(WireError::NoCmd)?;
    if name.is_empty() || !name.bytes().all(is_name_byte) {
        return Err(WireError::BadToken(first.to_string()));
    }
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for tok in tokens {
        let (k, v) = tok
            .split_once('=')
            .ok_or_else(|| WireError::BadToken(tok.to_string()))?;
        if k.is_empty() || v.is_empty() || !k.bytes().all(is_name_byte) {
            return Err(WireError::BadToken(tok.to_string()));
        }
        if k == "cmd" || pairs.iter().any(|(pk, _)| *pk == k) {
            return Err(WireError::DuplicateKey(k.to_string()));
        }
        pairs.push((k, v));
    }
    Ok(Fields { name, pairs })
}

impl<'a> Fields<'a> {
    fn opt(&self, key: &str) -> Option<&'a str> {
        self.pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn req(&self, key: &'static str) -> Result<&'a str, WireError> {
        self.opt(key).ok_or_else(|| WireError::MissingKey {
            cmd: self.name.to_string(),
            key,
        })
    }

    fn string(&self, key: &'static str) -> Result<String, WireError> {
        self.req(key).map(str::to_string)
    }

    fn num<T: std::str::FromStr>(&self, key: &'static str) -> Result<T, WireError> {
        let v = self.req(key)?;
        v.parse().map_err(|_| WireError::BadNumber {
            key,
            value: v.to_string(),
        })
    }

    /// An optional number: absent → `default`, present but malformed → error.
    fn num_or<T: std::str::FromStr>(&self, key: &'static str, default: T) -> Result<T, WireError> {
        match self.opt(key) {
            None => Ok(default),
            Some(_) => self.num(key),
        }
    }
}

/// `A-B,C,…`: inclusive ranges of ranks, each after the one before (so no rank twice and
/// the list stays as short as it was sent; nothing is expanded here).
fn parse_ranges(v: &str) -> Option<Vec<(u32, u32)>> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for part in v.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
            None => {
                let a = part.parse().ok()?;
                (a, a)
            }
        };
        if a > b || out.last().is_some_and(|&(_, prev)| a <= prev) {
            return None;
        }
        out.push((a, b));
    }
    Some(out)
}

/// A request from a PMI client (an MPI process) to the server (the launcher).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `cmd=init pmi_version=1 pmi_subversion=1`
    Init {
        pmi_version: u32,
        pmi_subversion: u32,
    },
    /// `cmd=get_maxes`
    GetMaxes,
    /// `cmd=get_appnum`
    GetAppnum,
    /// `cmd=get_my_kvsname`
    GetMyKvsname,
    /// `cmd=get_universe_size`
    GetUniverseSize,
    /// `cmd=put kvsname=X key=K value=V`
    Put {
        kvsname: String,
        key: String,
        value: String,
    },
    /// `cmd=barrier_in`
    BarrierIn,
    /// `cmd=get kvsname=X key=K`
    Get { kvsname: String, key: String },
    /// `cmd=finalize`
    Finalize,
    /// `cmd=abort exitcode=N [ranks=A-B,C,…]` — no reply. `ranks` (railmpi's, sent only
    /// to our mpiexec when it runs with `-disable-auto-cleanup`): the world ranks to end
    /// (the aborted communicator's; an intercommunicator's remote group, without the
    /// caller, which goes on), as sorted inclusive ranges; empty for the whole job.
    Abort {
        exitcode: i32,
        ranks: Vec<(u32, u32)>,
    },
    /// `cmd=publish_name service=S port=P`
    PublishName { service: String, port: String },
    /// `cmd=unpublish_name service=S`
    UnpublishName { service: String },
    /// `cmd=lookup_name service=S`
    LookupName { service: String },
    /// The multi-line `mcmd=spawn` blocks of MPI_Comm_spawn(_multiple), one per command,
    /// answered by one `spawn_result` (sent only: see [`SpawnBlock`]).
    Spawn(Vec<SpawnBlock>),
}

/// One command of a spawn, as MPICH's simple PMI sends it (MPICH 4.0.2,
/// `PMI_Spawn_multiple`): each block lists, a line each, `mcmd=spawn`, `nprocs`,
/// `execname`, `totspawns`, `spawnssofar` (from 1), `arg1`… (argv[0] is not sent),
/// `argcnt`, `preput_num`, `preput_key_0`/`preput_val_0`… (in every block), `info_num`,
/// `info_key_0`/`info_val_0`… (this command's), `endcmd`. Values are written verbatim:
/// the caller checks them with [`check_value`] (no spaces or newlines survive the wire).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnBlock {
    pub nprocs: u32,
    pub execname: String,
    pub args: Vec<String>,
    pub preput: Vec<(String, String)>,
    pub info: Vec<(String, String)>,
}

impl Command {
    /// The wire name (`init`, `put`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Command::Init { .. } => "init",
            Command::GetMaxes => "get_maxes",
            Command::GetAppnum => "get_appnum",
            Command::GetMyKvsname => "get_my_kvsname",
            Command::GetUniverseSize => "get_universe_size",
            Command::Put { .. } => "put",
            Command::BarrierIn => "barrier_in",
            Command::Get { .. } => "get",
            Command::Finalize => "finalize",
            Command::Abort { .. } => "abort",
            Command::PublishName { .. } => "publish_name",
            Command::UnpublishName { .. } => "unpublish_name",
            Command::LookupName { .. } => "lookup_name",
            Command::Spawn(_) => "spawn",
        }
    }

    /// The line, newline included. String fields are written verbatim: callers sending
    /// untrusted strings validate them first with [`check_value`].
    pub fn encode(&self) -> String {
        let n = self.name();
        match self {
            Command::Init {
                pmi_version,
                pmi_subversion,
            } => format!("cmd={n} pmi_version={pmi_version} pmi_subversion={pmi_subversion}\n"),
            Command::Put {
                kvsname,
                key,
                value,
            } => format!("cmd={n} kvsname={kvsname} key={key} value={value}\n"),
            Command::Get { kvsname, key } => format!("cmd={n} kvsname={kvsname} key={key}\n"),
            Command::Abort { exitcode, ranks } if ranks.is_empty() => {
                format!("cmd={n} exitcode={exitcode}\n")
            }
            Command::Abort { exitcode, ranks } => {
                let list: Vec<String> = ranks
                    .iter()
                    .map(|&(a, b)| match a == b {
                        true => a.to_string(),
                        false => format!("{a}-{b}"),
                    })
                    .collect();
                format!("cmd={n} exitcode={exitcode} ranks={}\n", list.join(","))
            }
            Command::PublishName { service, port } => {
                format!("cmd={n} service={service} port={port}\n")
            }
            Command::UnpublishName { service } | Command::LookupName { service } => {
                format!("cmd={n} service={service}\n")
            }
            Command::Spawn(blocks) => {
                let mut out = String::new();
                for (i, b) in blocks.iter().enumerate() {
                    out.push_str(&format!(
                        "mcmd=spawn\nnprocs={}\nexecname={}\ntotspawns={}\nspawnssofar={}\n",
                        b.nprocs,
                        b.execname,
                        blocks.len(),
                        i + 1
                    ));
                    for (j, a) in b.args.iter().enumerate() {
                        out.push_str(&format!("arg{}={a}\n", j + 1));
                    }
                    out.push_str(&format!(
                        "argcnt={}\npreput_num={}\n",
                        b.args.len(),
                        b.preput.len()
                    ));
                    for (j, (k, v)) in b.preput.iter().enumerate() {
                        out.push_str(&format!("preput_key_{j}={k}\npreput_val_{j}={v}\n"));
                    }
                    out.push_str(&format!("info_num={}\n", b.info.len()));
                    for (j, (k, v)) in b.info.iter().enumerate() {
                        out.push_str(&format!("info_key_{j}={k}\ninfo_val_{j}={v}\n"));
                    }
                    out.push_str("endcmd\n");
                }
                out
            }
            Command::GetMaxes
            | Command::GetAppnum
            | Command::GetMyKvsname
            | Command::GetUniverseSize
            | Command::BarrierIn
            | Command::Finalize => format!("cmd={n}\n"),
        }
    }

    /// Parses one line (with or without its trailing newline).
    pub fn parse(line: &str) -> Result<Command, WireError> {
        let f = tokenize(line)?;
        Ok(match f.name {
            "init" => Command::Init {
                pmi_version: f.num("pmi_version")?,
                pmi_subversion: f.num("pmi_subversion")?,
            },
            "get_maxes" => Command::GetMaxes,
            "get_appnum" => Command::GetAppnum,
            "get_my_kvsname" => Command::GetMyKvsname,
            "get_universe_size" => Command::GetUniverseSize,
            "put" => Command::Put {
                kvsname: f.string("kvsname")?,
                key: f.string("key")?,
                value: f.string("value")?,
            },
            "barrier_in" => Command::BarrierIn,
            "get" => Command::Get {
                kvsname: f.string("kvsname")?,
                key: f.string("key")?,
            },
            "finalize" => Command::Finalize,
            "abort" => Command::Abort {
                exitcode: f.num("exitcode")?,
                ranks: match f.opt("ranks") {
                    None => Vec::new(),
                    Some(v) => parse_ranges(v).ok_or_else(|| WireError::BadNumber {
                        key: "ranks",
                        value: v.to_string(),
                    })?,
                },
            },
            "publish_name" => Command::PublishName {
                service: f.string("service")?,
                port: f.string("port")?,
            },
            "unpublish_name" => Command::UnpublishName {
                service: f.string("service")?,
            },
            "lookup_name" => Command::LookupName {
                service: f.string("service")?,
            },
            other => return Err(WireError::UnknownCommand(other.to_string())),
        })
    }
}

/// Most processes, commands, arguments and keys one spawn request may name (a rank's
/// request is checked like any line from another process).
pub const SPAWN_MAX_PROCS: u32 = 4096;
pub const SPAWN_MAX_COMMANDS: u32 = 64;
const SPAWN_MAX_ITEMS: usize = 1024;

impl SpawnBlock {
    /// One `mcmd=spawn` … `endcmd` block as the server reads it, a line each (newlines
    /// stripped); with its `totspawns` and `spawnssofar`.
    pub fn parse(lines: &[String]) -> Result<(SpawnBlock, u32, u32), WireError> {
        let bad = |t: &str| WireError::BadToken(t.chars().take(80).collect());
        let (first, rest) = lines.split_first().ok_or(WireError::Empty)?;
        if first != "mcmd=spawn" {
            return Err(bad(first));
        }
        let (last, body) = rest.split_last().ok_or(WireError::Empty)?;
        if last != "endcmd" {
            return Err(bad(last));
        }
        let mut pairs: Vec<(&str, &str)> = Vec::with_capacity(body.len());
        for l in body {
            let (k, v) = l.split_once('=').ok_or_else(|| bad(l))?;
            if k.is_empty() || !k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(bad(l));
            }
            if pairs.iter().any(|(seen, _)| *seen == k) {
                return Err(WireError::DuplicateKey(k.to_string()));
            }
            pairs.push((k, v));
        }
        if pairs.len() > 4 * SPAWN_MAX_ITEMS {
            return Err(WireError::TooLong(pairs.len()));
        }
        let get = |key: &'static str| -> Result<&str, WireError> {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| *v)
                .ok_or(WireError::MissingKey {
                    cmd: "spawn".into(),
                    key,
                })
        };
        let num = |key: &'static str, max: u32| -> Result<u32, WireError> {
            let v = get(key)?;
            v.parse::<u32>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or(WireError::BadNumber {
                    key,
                    value: v.to_string(),
                })
        };
        let items = SPAWN_MAX_ITEMS as u32;
        let nprocs = num("nprocs", SPAWN_MAX_PROCS)?;
        let totspawns = num("totspawns", SPAWN_MAX_COMMANDS)?;
        let spawnssofar = num("spawnssofar", totspawns)?;
        if nprocs == 0 || spawnssofar == 0 {
            return Err(WireError::BadNumber {
                key: "nprocs",
                value: "0".into(),
            });
        }
        let owned = |k: String| -> Result<String, WireError> {
            pairs
                .iter()
                .find(|(key, _)| *key == k)
                .map(|(_, v)| v.to_string())
                .ok_or(WireError::MissingKey {
                    cmd: "spawn".into(),
                    key: "argN, preput_key_N, preput_val_N, info_key_N or info_val_N",
                })
        };
        let args = (1..=num("argcnt", items)?)
            .map(|i| owned(format!("arg{i}")))
            .collect::<Result<Vec<_>, _>>()?;
        let kv = |prefix: &str, n: u32| -> Result<Vec<(String, String)>, WireError> {
            (0..n)
                .map(|i| {
                    Ok((
                        owned(format!("{prefix}_key_{i}"))?,
                        owned(format!("{prefix}_val_{i}"))?,
                    ))
                })
                .collect()
        };
        let preput = kv("preput", num("preput_num", items)?)?;
        let info = kv("info", num("info_num", items)?)?;
        let execname = get("execname")?.to_string();
        if execname.is_empty() {
            return Err(bad("execname="));
        }
        Ok((
            SpawnBlock {
                nprocs,
                execname,
                args,
                preput,
                info,
            },
            totspawns,
            spawnssofar,
        ))
    }
}

/// A reply from the server to a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0`
    Init {
        pmi_version: u32,
        pmi_subversion: u32,
        rc: i32,
    },
    /// `cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024 rc=0`
    Maxes {
        kvsname_max: u32,
        keylen_max: u32,
        vallen_max: u32,
    },
    /// `cmd=appnum appnum=0`
    Appnum { appnum: i32 },
    /// `cmd=my_kvsname kvsname=X rc=0`
    MyKvsname { kvsname: String },
    /// `cmd=universe_size size=N` (Hydra sends -1 when unknown)
    UniverseSize { size: i32 },
    /// `cmd=put_result rc=0 msg=success`
    PutResult { rc: i32, msg: Option<String> },
    /// `cmd=barrier_out`
    BarrierOut,
    /// `cmd=get_result rc=0 msg=success value=V`, or `rc=-1 msg=... value=unknown`.
    /// The parser requires `value` when `rc` is 0.
    GetResult {
        rc: i32,
        msg: Option<String>,
        value: Option<String>,
    },
    /// `cmd=finalize_ack`
    FinalizeAck,
    /// `cmd=publish_result info=ok rc=0 msg=success` (rc=1 msg=key_already_present)
    PublishResult { rc: i32, msg: Option<String> },
    /// `cmd=unpublish_result info=ok rc=0 msg=success` (rc=1 msg=service_not_found)
    UnpublishResult { rc: i32, msg: Option<String> },
    /// `cmd=lookup_result port=P info=ok rc=0 msg=success` (rc=1 msg=service_not_found);
    /// the parser requires `port` when `rc` is 0.
    LookupResult {
        rc: i32,
        msg: Option<String>,
        port: Option<String>,
    },
    /// `cmd=spawn_result rc=0` (Hydra sends nothing else; MPICH's client also reads an
    /// optional `errcodes=e0,e1,…`).
    SpawnResult { rc: i32, errcodes: Option<Vec<i32>> },
}

impl Reply {
    /// The wire name (`response_to_init`, `get_result`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Reply::Init { .. } => "response_to_init",
            Reply::Maxes { .. } => "maxes",
            Reply::Appnum { .. } => "appnum",
            Reply::MyKvsname { .. } => "my_kvsname",
            Reply::UniverseSize { .. } => "universe_size",
            Reply::PutResult { .. } => "put_result",
            Reply::BarrierOut => "barrier_out",
            Reply::GetResult { .. } => "get_result",
            Reply::FinalizeAck => "finalize_ack",
            Reply::PublishResult { .. } => "publish_result",
            Reply::UnpublishResult { .. } => "unpublish_result",
            Reply::LookupResult { .. } => "lookup_result",
            Reply::SpawnResult { .. } => "spawn_result",
        }
    }

    /// The line, newline included (string fields verbatim, see [`Command::encode`]).
    pub fn encode(&self) -> String {
        let n = self.name();
        let mut s = match self {
            Reply::Init {
                pmi_version,
                pmi_subversion,
                rc,
            } => {
                format!("cmd={n} pmi_version={pmi_version} pmi_subversion={pmi_subversion} rc={rc}")
            }
            Reply::Maxes {
                kvsname_max,
                keylen_max,
                vallen_max,
            } => format!(
                "cmd={n} kvsname_max={kvsname_max} keylen_max={keylen_max} \
                 vallen_max={vallen_max} rc=0"
            ),
            Reply::Appnum { appnum } => format!("cmd={n} appnum={appnum}"),
            Reply::MyKvsname { kvsname } => format!("cmd={n} kvsname={kvsname} rc=0"),
            Reply::UniverseSize { size } => format!("cmd={n} size={size}"),
            Reply::PutResult { rc, msg } => {
                let mut s = format!("cmd={n} rc={rc}");
                if let Some(m) = msg {
                    s.push_str(" msg=");
                    s.push_str(m);
                }
                s
            }
            Reply::GetResult { rc, msg, value } => {
                let mut s = format!("cmd={n} rc={rc}");
                if let Some(m) = msg {
                    s.push_str(" msg=");
                    s.push_str(m);
                }
                if let Some(v) = value {
                    s.push_str(" value=");
                    s.push_str(v);
                }
                s
            }
            Reply::BarrierOut | Reply::FinalizeAck => format!("cmd={n}"),
            Reply::PublishResult { rc, msg } | Reply::UnpublishResult { rc, msg } => {
                let mut s = format!("cmd={n} info=ok rc={rc}");
                if let Some(m) = msg {
                    s.push_str(" msg=");
                    s.push_str(m);
                }
                s
            }
            Reply::LookupResult { rc, msg, port } => {
                let mut s = format!("cmd={n}");
                if let Some(p) = port {
                    s.push_str(" port=");
                    s.push_str(p);
                }
                s.push_str(&format!(" rc={rc}"));
                if let Some(m) = msg {
                    s.push_str(" msg=");
                    s.push_str(m);
                }
                s
            }
            Reply::SpawnResult { rc, errcodes } => {
                let mut s = format!("cmd={n} rc={rc}");
                if let Some(e) = errcodes {
                    let e: Vec<String> = e.iter().map(|c| c.to_string()).collect();
                    s.push_str(" errcodes=");
                    s.push_str(&e.join(","));
                }
                s
            }
        };
        s.push('\n');
        s
    }

    /// Parses one line (with or without its trailing newline). `rc` is optional where
    /// Hydra omits it and defaults to 0.
    pub fn parse(line: &str) -> Result<Reply, WireError> {
        let f = tokenize(line)?;
        Ok(match f.name {
            "response_to_init" => Reply::Init {
                pmi_version: f.num("pmi_version")?,
                pmi_subversion: f.num("pmi_subversion")?,
                rc: f.num_or("rc", 0)?,
            },
            "maxes" => {
                // An rc, when present, must still be a number.
                let _: i32 = f.num_or("rc", 0)?;
                Reply::Maxes {
                    kvsname_max: f.num("kvsname_max")?,
                    keylen_max: f.num("keylen_max")?,
                    vallen_max: f.num("vallen_max")?,
                }
            }
            "appnum" => Reply::Appnum {
                appnum: f.num("appnum")?,
            },
            "my_kvsname" => {
                let _: i32 = f.num_or("rc", 0)?;
                Reply::MyKvsname {
                    kvsname: f.string("kvsname")?,
                }
            }
            "universe_size" => Reply::UniverseSize {
                size: f.num("size")?,
            },
            "put_result" => Reply::PutResult {
                rc: f.num("rc")?,
                msg: f.opt("msg").map(str::to_string),
            },
            "barrier_out" => Reply::BarrierOut,
            "get_result" => {
                let rc: i32 = f.num("rc")?;
                let value = if rc == 0 {
                    Some(f.string("value")?)
                } else {
                    f.opt("value").map(str::to_string)
                };
                Reply::GetResult {
                    rc,
                    msg: f.opt("msg").map(str::to_string),
                    value,
                }
            }
            "finalize_ack" => Reply::FinalizeAck,
            "publish_result" => Reply::PublishResult {
                rc: f.num("rc")?,
                msg: f.opt("msg").map(str::to_string),
            },
            "unpublish_result" => Reply::UnpublishResult {
                rc: f.num("rc")?,
                msg: f.opt("msg").map(str::to_string),
            },
            "lookup_result" => {
                let rc: i32 = f.num("rc")?;
                let port = if rc == 0 {
                    Some(f.string("port")?)
                } else {
                    f.opt("port").map(str::to_string)
                };
                Reply::LookupResult {
                    rc,
                    msg: f.opt("msg").map(str::to_string),
                    port,
                }
            }
            "spawn_result" => Reply::SpawnResult {
                rc: f.num("rc")?,
                errcodes: match f.opt("errcodes") {
                    None => None,
                    Some(list) => Some(
                        list.split(',')
                            .map(|c| c.parse())
                            .collect::<Result<Vec<i32>, _>>()
                            .map_err(|_| WireError::BadNumber {
                                key: "errcodes",
                                value: list.to_string(),
                            })?,
                    ),
                },
            },
            other => return Err(WireError::UnknownCommand(other.to_string())),
        })
    }
}

/// Splits a byte stream into lines. Feed it what `read` returned with [`LineBuffer::push`],
/// then take complete lines with [`LineBuffer::next_line`].
#[derive(Debug, Default)]
pub struct LineBuffer {
    buf: Vec<u8>,
    /// Bytes of `buf` before this offset are already consumed.
    start: usize,
}

impl LineBuffer {
    pub fn new() -> LineBuffer {
        LineBuffer::default()
    }

    /// Appends received bytes.
    pub fn push(&mut self, data: &[u8]) {
        if self.start > 0 && self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        } else if self.start > MAX_LINE {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(data);
    }

    /// Bytes of an unfinished line held back.
    pub fn pending(&self) -> usize {
        self.buf.len() - self.start
    }

    /// The next complete line without its newline; `None` until one has arrived.
    /// `Some(Err(TooLong))` once the line being assembled exceeds [`MAX_LINE`] (the
    /// stream cannot be resynchronised after that: treat it as fatal);
    /// `Some(Err(BadChar))` for a line that is not ASCII (the line is consumed).
    pub fn next_line(&mut self) -> Option<Result<String, WireError>> {
        let rest = &self.buf[self.start..];
        match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                if i + 1 > MAX_LINE {
                    return Some(Err(WireError::TooLong(i + 1)));
                }
                let line = &rest[..i];
                self.start += i + 1;
                Some(match std::str::from_utf8(line) {
                    Ok(s) if s.is_ascii() => Ok(s.to_string()),
                    _ => {
                        let offset = line.iter().position(|b| !b.is_ascii()).unwrap_or(0);
                        Err(WireError::BadChar {
                            offset,
                            byte: line[offset],
                        })
                    }
                })
            }
            None if rest.len() >= MAX_LINE => Some(Err(WireError::TooLong(rest.len()))),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_commands() -> Vec<Command> {
        vec![
            Command::Init {
                pmi_version: 1,
                pmi_subversion: 1,
            },
            Command::GetMaxes,
            Command::GetAppnum,
            Command::GetMyKvsname,
            Command::GetUniverseSize,
            Command::Put {
                kvsname: "kvs_1_0".into(),
                key: "bc-3".into(),
                value: "a=b=c#$%".into(),
            },
            Command::BarrierIn,
            Command::Get {
                kvsname: "kvs_1_0".into(),
                key: "PMI_process_mapping".into(),
            },
            Command::Finalize,
            Command::Abort {
                exitcode: -3,
                ranks: Vec::new(),
            },
            Command::Abort {
                exitcode: 8,
                ranks: vec![(1, 1), (3, 7)],
            },
        ]
    }

    fn all_replies() -> Vec<Reply> {
        vec![
            Reply::Init {
                pmi_version: 1,
                pmi_subversion: 1,
                rc: 0,
            },
            Reply::Maxes {
                kvsname_max: 256,
                keylen_max: 64,
                vallen_max: 1024,
            },
            Reply::Appnum { appnum: 0 },
            Reply::MyKvsname {
                kvsname: "railmpi_9_0".into(),
            },
            Reply::UniverseSize { size: -1 },
            Reply::PutResult {
                rc: 0,
                msg: Some("success".into()),
            },
            Reply::PutResult { rc: 0, msg: None },
            Reply::BarrierOut,
            Reply::GetResult {
                rc: 0,
                msg: Some("success".into()),
                value: Some("(vector,(0,1,4))".into()),
            },
            Reply::GetResult {
                rc: -1,
                msg: Some("key_x_not_found".into()),
                value: Some("unknown".into()),
            },
            Reply::GetResult {
                rc: -1,
                msg: None,
                value: None,
            },
            Reply::FinalizeAck,
        ]
    }

    #[test]
    fn commands_round_trip() {
        for c in all_commands() {
            let line = c.encode();
            assert!(line.ends_with('\n') && line.starts_with("cmd="), "{line:?}");
            assert_eq!(Command::parse(&line).unwrap(), c, "{line:?}");
            assert_eq!(Command::parse(line.trim_end()).unwrap(), c);
        }
    }

    #[test]
    fn replies_round_trip() {
        for r in all_replies() {
            let line = r.encode();
            assert_eq!(Reply::parse(&line).unwrap(), r, "{line:?}");
        }
    }

    #[test]
    fn exact_encodings() {
        assert_eq!(
            Command::Init {
                pmi_version: 1,
                pmi_subversion: 1
            }
            .encode(),
            "cmd=init pmi_version=1 pmi_subversion=1\n"
        );
        assert_eq!(
            Command::Put {
                kvsname: "k".into(),
                key: "a".into(),
                value: "v".into()
            }
            .encode(),
            "cmd=put kvsname=k key=a value=v\n"
        );
        assert_eq!(
            Command::Abort {
                exitcode: 3,
                ranks: Vec::new()
            }
            .encode(),
            "cmd=abort exitcode=3\n"
        );
        assert_eq!(
            Reply::GetResult {
                rc: 0,
                msg: Some("success".into()),
                value: Some("v".into())
            }
            .encode(),
            "cmd=get_result rc=0 msg=success value=v\n"
        );
        assert_eq!(
            Reply::Maxes {
                kvsname_max: 256,
                keylen_max: 64,
                vallen_max: 1024
            }
            .encode(),
            "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024 rc=0\n"
        );
    }

    /// Lines captured from Hydra (MPICH 4.0.2) parse.
    #[test]
    fn hydra_replies_parse() {
        let cases = [
            "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n",
            "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n",
            "cmd=appnum appnum=0\n",
            "cmd=my_kvsname kvsname=kvs_5371_0_232896023_vm\n",
            "cmd=universe_size size=-1\n",
            "cmd=put_result rc=0 msg=success\n",
            "cmd=barrier_out\n",
            "cmd=get_result rc=0 msg=success value=(vector,(0,1,1))\n",
            "cmd=get_result rc=-1 msg=key_missing_not_found value=unknown\n",
            "cmd=finalize_ack\n",
        ];
        for c in cases {
            Reply::parse(c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        }
        assert_eq!(
            Reply::parse("cmd=get_result rc=0 msg=success value=a=b=c").unwrap(),
            Reply::GetResult {
                rc: 0,
                msg: Some("success".into()),
                value: Some("a=b=c".into())
            }
        );
        assert_eq!(
            Reply::parse("cmd=my_kvsname kvsname=kvs_1").unwrap(),
            Reply::MyKvsname {
                kvsname: "kvs_1".into()
            }
        );
    }

    #[test]
    fn tolerated_variations() {
        // Runs of spaces, trailing spaces, unknown extra keys, keys in any order.
        assert_eq!(
            Command::parse("cmd=put  key=k   kvsname=x value=v  extra=1  \n").unwrap(),
            Command::Put {
                kvsname: "x".into(),
                key: "k".into(),
                value: "v".into()
            }
        );
        assert_eq!(
            Command::parse("cmd=abort exitcode=4 message=hello").unwrap(),
            Command::Abort {
                exitcode: 4,
                ranks: Vec::new()
            }
        );
        assert_eq!(
            Command::parse("cmd=abort exitcode=8 ranks=1,3-5").unwrap(),
            Command::Abort {
                exitcode: 8,
                ranks: vec![(1, 1), (3, 5)]
            }
        );
        for bad in [
            "",
            "1,1",
            "3,1",
            "2-1",
            "1-",
            "x",
            "1,,2",
            "-1",
            "1-99999999999",
        ] {
            let line = format!("cmd=abort exitcode=8 ranks={bad}");
            assert!(Command::parse(&line).is_err(), "{line}");
        }
    }

    #[test]
    fn malformed_lines_are_rejected() {
        use WireError::*;
        let long = format!("cmd=put kvsname=k key=a value={}\n", "v".repeat(MAX_LINE));
        type Check = fn(&WireError) -> bool;
        let cases: Vec<(&str, Check)> = vec![
            ("", |e| *e == Empty),
            ("   \n", |e| *e == Empty),
            ("init pmi_version=1", |e| *e == NoCmd),
            ("CMD=init", |e| *e == NoCmd),
            ("mcmd=spawn\n", |e| *e == Mcmd),
            ("cmd=", |e| matches!(e, BadToken(_))),
            ("cmd=in!t", |e| matches!(e, BadToken(_))),
            ("cmd=init pmi_version", |e| matches!(e, BadToken(_))),
            ("cmd=init pmi_version=", |e| matches!(e, BadToken(_))),
            ("cmd=init =1", |e| matches!(e, BadToken(_))),
            ("cmd=init pmi.version=1", |e| matches!(e, BadToken(_))),
            ("cmd=init pmi_version=1", |e| {
                matches!(
                    e,
                    MissingKey {
                        key: "pmi_subversion",
                        ..
                    }
                )
            }),
            ("cmd=init pmi_version=x pmi_subversion=1", |e| {
                matches!(
                    e,
                    BadNumber {
                        key: "pmi_version",
                        ..
                    }
                )
            }),
            ("cmd=init pmi_version=-1 pmi_subversion=1", |e| {
                matches!(e, BadNumber { .. })
            }),
            ("cmd=abort exitcode=99999999999", |e| {
                matches!(e, BadNumber { .. })
            }),
            ("cmd=abort", |e| matches!(e, MissingKey { .. })),
            ("cmd=put kvsname=k key=a", |e| {
                matches!(e, MissingKey { key: "value", .. })
            }),
            ("cmd=get kvsname=k key=a key=b", |e| {
                matches!(e, DuplicateKey(_))
            }),
            ("cmd=get cmd=put", |e| matches!(e, DuplicateKey(_))),
            ("cmd=get kvsname=k\tkey=a", |e| matches!(e, BadChar { .. })),
            ("cmd=get kvsname=k key=a\nb", |e| {
                matches!(e, BadChar { .. })
            }),
            ("cmd=get kvsname=k key=a\r\n", |e| {
                matches!(e, BadChar { .. })
            }),
            ("cmd=get kvsname=k key=\u{e9}", |e| {
                matches!(e, BadChar { .. })
            }),
            ("cmd=get kvsname=k key=a\0", |e| matches!(e, BadChar { .. })),
            ("cmd=spawn nprocs=2", |e| matches!(e, UnknownCommand(_))),
            (&long, |e| matches!(e, TooLong(_))),
        ];
        for (line, ok) in cases {
            let err = Command::parse(line).expect_err(line);
            assert!(ok(&err), "{line:?} gave {err:?}");
            assert!(!err.to_string().is_empty());
        }
        // Replies: value required on success, rc required on results, numbers checked.
        assert!(matches!(
            Reply::parse("cmd=get_result rc=0 msg=success"),
            Err(MissingKey { key: "value", .. })
        ));
        assert!(matches!(
            Reply::parse("cmd=put_result msg=success"),
            Err(MissingKey { key: "rc", .. })
        ));
        assert!(matches!(
            Reply::parse("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024 rc=zero"),
            Err(BadNumber { key: "rc", .. })
        ));
        assert!(matches!(
            Reply::parse("cmd=maxes kvsname_max=256 keylen_max=64"),
            Err(MissingKey { .. })
        ));
        assert!(matches!(
            Reply::parse("cmd=barrier_in"),
            Err(UnknownCommand(_))
        ));
    }

    #[test]
    fn line_of_exactly_max_is_accepted() {
        let head = "cmd=put kvsname=k key=a value=";
        let v = "v".repeat(MAX_LINE - head.len() - 1);
        let line = format!("{head}{v}\n");
        assert_eq!(line.len(), MAX_LINE);
        assert!(Command::parse(&line).is_ok());
        let mut lb = LineBuffer::new();
        lb.push(line.as_bytes());
        assert!(lb.next_line().unwrap().is_ok());
        let mut lb = LineBuffer::new();
        lb.push(format!("{head}{v}v\n").as_bytes());
        assert!(matches!(lb.next_line(), Some(Err(WireError::TooLong(_)))));
    }

    #[test]
    fn check_value_rules() {
        assert!(check_value("value", "abc=d#(x)", 64).is_ok());
        assert!(check_value("value", "", 64).is_err());
        assert!(check_value("value", "a b", 64).is_err());
        assert!(check_value("value", "a\\b", 64).is_err());
        assert!(check_value("value", "a\nb", 64).is_err());
        assert!(check_value("value", "\u{e9}", 64).is_err());
        assert!(check_value("key", &"k".repeat(64), 64).is_ok());
        assert!(check_value("key", &"k".repeat(65), 64).is_err());
    }

    #[test]
    fn line_buffer_splits_and_joins() {
        let mut lb = LineBuffer::new();
        assert!(lb.next_line().is_none());
        lb.push(b"cmd=barr");
        assert!(lb.next_line().is_none());
        assert_eq!(lb.pending(), 8);
        lb.push(b"ier_in\ncmd=finalize\ncmd=get");
        assert_eq!(lb.next_line().unwrap().unwrap(), "cmd=barrier_in");
        assert_eq!(lb.next_line().unwrap().unwrap(), "cmd=finalize");
        assert!(lb.next_line().is_none());
        lb.push(b"_maxes\n");
        assert_eq!(lb.next_line().unwrap().unwrap(), "cmd=get_maxes");
        assert!(lb.next_line().is_none());
        assert_eq!(lb.pending(), 0);
        // Non-ASCII line is reported and consumed; the next line still comes through.
        lb.push(b"cmd=\xff\ncmd=finalize\n");
        assert!(matches!(
            lb.next_line(),
            Some(Err(WireError::BadChar { .. }))
        ));
        assert_eq!(lb.next_line().unwrap().unwrap(), "cmd=finalize");
        // An endless partial line is caught before it grows past MAX_LINE.
        let mut lb = LineBuffer::new();
        for _ in 0..5 {
            lb.push(&[b'x'; 1000]);
        }
        assert!(matches!(lb.next_line(), Some(Err(WireError::TooLong(_)))));
    }

    #[test]
    fn line_buffer_compacts() {
        let mut lb = LineBuffer::new();
        for i in 0..10_000 {
            lb.push(format!("cmd=get kvsname=k key=k{i}\ncmd=ba").as_bytes());
            assert!(lb.next_line().unwrap().is_ok());
            lb.push(b"rrier_in\n");
            assert_eq!(lb.next_line().unwrap().unwrap(), "cmd=barrier_in");
        }
        assert!(lb.buf.capacity() < 4 * MAX_LINE);
    }

    #[test]
    fn spawn_blocks_round_trip_and_bad_ones_are_refused() {
        let b = SpawnBlock {
            nprocs: 3,
            execname: "/bin/prog".into(),
            args: vec!["child".into(), "a b".into()],
            preput: vec![("PARENT_ROOT_PORT_NAME".into(), "p:1".into())],
            info: vec![("wdir".into(), "/tmp".into())],
        };
        let c = b.clone();
        let text = Command::Spawn(vec![b.clone(), c]).encode();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let end = lines.iter().position(|l| l == "endcmd").unwrap();
        let (got, tot, sofar) = SpawnBlock::parse(&lines[..=end]).unwrap();
        assert_eq!((got, tot, sofar), (b, 2, 1));
        let (_, _, sofar) = SpawnBlock::parse(&lines[end + 1..]).unwrap();
        assert_eq!(sofar, 2);
        // Missing argument, count past the limit, duplicate key, no endcmd.
        let mut l = lines[..=end].to_vec();
        l.retain(|x| !x.starts_with("arg2="));
        assert!(SpawnBlock::parse(&l).is_err());
        let mut l = lines[..=end].to_vec();
        l[1] = "nprocs=100000".into();
        assert!(SpawnBlock::parse(&l).is_err());
        let mut l = lines[..=end].to_vec();
        l.insert(2, "nprocs=1".into());
        assert!(SpawnBlock::parse(&l).is_err());
        assert!(SpawnBlock::parse(&lines[..end]).is_err());
    }
}
