//! The rails' settings: the `RAILMPI_*` variables the providers read (shm, tcp, verbs, and
//! which rails a job may use), their documentation (one table, which README and
//! `railmpi-info` list with the runtime's), and their parsing into each provider's settings.

use super::tcp::{secret_from_hex, Connect, Secret, TcpSettings};
use super::verbs::{parse_devices, VerbsSettings};

/// One documented setting.
pub struct Setting {
    pub name: &'static str,
    pub default: &'static str,
    pub help: &'static str,
}

/// Reads the variables of one table of settings (an unset one has its default).
pub struct Env(pub &'static [Setting]);

impl Env {
    /// The value in force: the environment's, or the default.
    pub fn value(&self, name: &str) -> String {
        std::env::var(name).unwrap_or_else(|_| {
            self.0
                .iter()
                .find(|s| s.name == name)
                .map(|s| s.default)
                .expect("documented setting")
                .to_string()
        })
    }

    pub fn parse<T: std::str::FromStr>(&self, name: &str) -> Result<T, String> {
        let v = self.value(name);
        v.trim()
            .parse()
            .map_err(|_| format!("{name}={v:?} is not a valid value"))
    }

    /// A comma-separated list (empty items dropped).
    pub fn list(&self, name: &str) -> Vec<String> {
        self.value(name)
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// A count that must be at least 1.
    pub fn positive(&self, name: &str) -> Result<usize, String> {
        match self.parse::<usize>(name)? {
            0 => Err(format!("{name}=0: must be at least 1")),
            n => Ok(n),
        }
    }
}

pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "RAILMPI_SHM_CMA",
        default: "1",
        help: "1: rendezvous by Cross Memory Attach (single copy) when the start-up probe \
               succeeds; 0: always the two-copy path through shared memory",
    },
    Setting {
        name: "RAILMPI_SHM_CELLS",
        default: "64",
        help: "cells per ring (power of two); one ring per ordered pair of local ranks",
    },
    Setting {
        name: "RAILMPI_SHM_CELL_SIZE",
        default: "16448",
        help: "bytes per ring cell (multiple of 64); bounds the eager limit",
    },
    Setting {
        name: "RAILMPI_RAILS",
        default: "shm,tcp",
        help: "rails the job may use: shm joins the ranks of one host; tcp and verbs \
               reach the others (every rank when shm is not listed: tcp alone runs \
               everything over sockets, verbs alone over RDMA adapters); listed together, \
               verbs and tcp both reach each rank of another host (a subchannel per verbs \
               port and per tcp rail, striped and failing over like tcp rails)",
    },
    Setting {
        name: "RAILMPI_VERBS_DEVICES",
        default: "",
        help: "verbs ports to use (device:port, comma-separated, e.g. rxe0:1,mlx5_0:1); \
               empty: every active port (for now the first is used). The verbs rail is used \
               when RAILMPI_RAILS names it",
    },
    Setting {
        name: "RAILMPI_VERBS_TIMEOUT",
        default: "20",
        help: "verbs queue pairs' retry timeout exponent (4.096 us x 2^N per try; 20 is \
               about 4 s, long enough for emulated hosts)",
    },
    Setting {
        name: "RAILMPI_VERBS_RETRY",
        default: "6",
        help: "verbs queue pairs' retries before a path that does not answer fails (0..7; \
               Soft-RoCE takes 7 for 'retry for ever', so a silent link is never reported)",
    },
    Setting {
        name: "RAILMPI_VERBS_SQ_DEPTH",
        default: "128",
        help: "verbs: work requests outstanding per connection (more wait in order)",
    },
    Setting {
        name: "RAILMPI_VERBS_SRQ_DEPTH",
        default: "512",
        help: "verbs: receive buffers (16 KiB each) in the shared receive queue",
    },
    Setting {
        name: "RAILMPI_VERBS_MODULE",
        default: "",
        help: "path of the verbs module librailmpi_verbs.so (default: beside libmpi.so.12); \
               loaded only when the verbs rail is asked for and a device exists",
    },
    Setting {
        name: "RAILMPI_TCP_CONNECT",
        default: "lazy",
        help: "tcp connections: lazy (at the first message to a peer) or eager (to every \
               peer at start)",
    },
    Setting {
        name: "RAILMPI_TCP_IFACES",
        default: "",
        help: "interfaces for tcp rails: names or networks (CIDR), comma separated, one \
               rail (subchannel to every peer) per entry, on its first address; empty: one \
               rail on the first interface that is up, not loopback when there is another",
    },
    Setting {
        name: "RAILMPI_TCP_CONNS_PER_IFACE",
        default: "1",
        help: "tcp rails per interface: each is a connection to every peer and a \
               subchannel the multirail scheduler can choose or stripe over",
    },
    Setting {
        name: "RAILMPI_TCP_TIMEOUT",
        default: "120000",
        help: "milliseconds after which a peer's last tcp connection whose data stays \
               unacknowledged (or that answers no keepalive probe) has failed and the job \
               ends, naming the peer unreachable: shorter outages are ridden out (a minute \
               with room for TCP's retransmission backoff); also mpiexec's connections to \
               its proxies (a host that answers nothing ends the job)",
    },
    Setting {
        name: "RAILMPI_TCP_FAILOVER_TIMEOUT",
        default: "5000",
        help: "the same for a connection while other rails reach the peer too (at most \
               RAILMPI_TCP_TIMEOUT): the channel carries on over the others soon; the last \
               one left then gets RAILMPI_TCP_TIMEOUT",
    },
    Setting {
        name: "RAILMPI_TCP_EAGER_LIMIT",
        default: "131072",
        help: "largest message (bytes) sent eagerly to a rank reached over tcp (at most \
               the rail's 256 KiB message, never below RAILMPI_EAGER_LIMIT): between hosts \
               a rendezvous costs a network round trip, which a copy of 128 KiB does not",
    },
    Setting {
        name: "RAILMPI_JOB_SECRET",
        default: "",
        help: "set by mpiexec for its ranks (64 hex digits): the secret every tcp \
               connection proves; without it (other launchers) rank 0 draws one and hands \
               it out through the launcher's key-value space",
    },
];

const ENV: Env = Env(SETTINGS);

/// What the rails' settings say, read once at start-up.
#[derive(Clone, Debug)]
pub struct RailSettings {
    /// Whether the shm rail may join the ranks of one host.
    pub use_shm: bool,
    /// The tcp rails' settings, when they may be used.
    pub tcp: Option<TcpSettings>,
    /// The verbs rails' settings, when they may be used.
    pub verbs: Option<VerbsSettings>,
    /// The shm rail: Cross Memory Attach, cells per ring, bytes per cell.
    pub shm_cma: bool,
    pub shm_cells: usize,
    pub shm_cell_size: usize,
    /// The job's secret, when the launcher gave one.
    pub secret: Option<Secret>,
}

impl RailSettings {
    /// Read every rail setting; an unparsable value is an error naming the variable.
    pub fn from_env() -> Result<RailSettings, String> {
        let (shm, tcp, verbs) = rails()?;
        Ok(RailSettings {
            use_shm: shm,
            tcp: if tcp {
                Some(TcpSettings::from_env()?)
            } else {
                None
            },
            verbs: if verbs {
                Some(VerbsSettings::from_env()?)
            } else {
                None
            },
            shm_cma: ENV.parse::<u32>("RAILMPI_SHM_CMA")? != 0,
            shm_cells: ENV.parse("RAILMPI_SHM_CELLS")?,
            shm_cell_size: ENV.parse("RAILMPI_SHM_CELL_SIZE")?,
            secret: match ENV.value("RAILMPI_JOB_SECRET").as_str() {
                "" => None,
                v => Some(secret_from_hex(v).ok_or("RAILMPI_JOB_SECRET is not 64 hex digits")?),
            },
        })
    }
}

impl TcpSettings {
    /// `RAILMPI_TCP_*`.
    pub fn from_env() -> Result<TcpSettings, String> {
        Ok(TcpSettings {
            connect: match ENV.value("RAILMPI_TCP_CONNECT").as_str() {
                "lazy" => Connect::Lazy,
                "eager" => Connect::Eager,
                v => {
                    return Err(format!(
                        "RAILMPI_TCP_CONNECT={v:?} is not one of lazy, eager"
                    ))
                }
            },
            ifaces: ENV.list("RAILMPI_TCP_IFACES"),
            conns_per_iface: ENV.positive("RAILMPI_TCP_CONNS_PER_IFACE")?,
            timeout_ms: ENV.positive("RAILMPI_TCP_TIMEOUT")?.min(u32::MAX as usize) as u32,
            failover_timeout_ms: ENV
                .positive("RAILMPI_TCP_FAILOVER_TIMEOUT")?
                .min(u32::MAX as usize) as u32,
            eager_limit: ENV.parse("RAILMPI_TCP_EAGER_LIMIT")?,
        })
    }
}

impl VerbsSettings {
    /// `RAILMPI_VERBS_*` (the module's path is read where it is loaded).
    pub fn from_env() -> Result<VerbsSettings, String> {
        Ok(VerbsSettings {
            devices: parse_devices(&ENV.value("RAILMPI_VERBS_DEVICES"))?,
            timeout: match ENV.parse::<u8>("RAILMPI_VERBS_TIMEOUT")? {
                t @ 1..=31 => t,
                _ => return Err("RAILMPI_VERBS_TIMEOUT must be 1..31".into()),
            },
            retry_count: match ENV.parse::<u8>("RAILMPI_VERBS_RETRY")? {
                r @ 0..=7 => r,
                _ => return Err("RAILMPI_VERBS_RETRY must be 0..7".into()),
            },
            sq_depth: ENV.positive("RAILMPI_VERBS_SQ_DEPTH")?.min(1 << 16) as u32,
            srq_depth: ENV.positive("RAILMPI_VERBS_SRQ_DEPTH")?.min(1 << 16) as u32,
        })
    }
}

/// `RAILMPI_RAILS`: whether shm, tcp and verbs may be used.
fn rails() -> Result<(bool, bool, bool), String> {
    let (mut shm, mut tcp, mut verbs) = (false, false, false);
    for r in ENV.list("RAILMPI_RAILS") {
        match r.as_str() {
            "shm" => shm = true,
            "tcp" => tcp = true,
            "verbs" => verbs = true,
            _ => {
                return Err(format!(
                    "RAILMPI_RAILS: unknown rail {r:?} (shm, tcp, verbs)"
                ))
            }
        }
    }
    if !shm && !tcp && !verbs {
        return Err("RAILMPI_RAILS names no rail".into());
    }
    Ok((shm, tcp, verbs))
}
