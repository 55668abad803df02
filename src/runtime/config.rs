//! Configuration: every tunable is a `RAILMPI_*` environment variable, parsed once here.
//! `SETTINGS` is the single list that README and `railmpi-info` document.

use crate::pt2pt::Rndv;

/// One documented setting.
pub struct Setting {
    pub name: &'static str,
    pub default: &'static str,
    pub help: &'static str,
}

pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "RAILMPI_EAGER_LIMIT",
        default: "16384",
        help: "largest message (bytes) sent eagerly; larger ones use rendezvous",
    },
    Setting {
        name: "RAILMPI_RNDV_SPLIT",
        default: "32768",
        help: "from this many bytes on, an RDMA rendezvous is split: the receiver reads the \
               first half while the sender writes the second, so both cores copy (0: never)",
    },
    Setting {
        name: "RAILMPI_RNDV_PROTOCOL",
        default: "auto",
        help: "how rendezvous payloads move: auto (RDMA read, split with an RDMA write of the \
               tail from RAILMPI_RNDV_SPLIT on), get (RDMA read), put (RDMA write), copy \
               (streamed through the shared-memory channel), pipeline (Woodall 2006 §4: \
               eager part, streamed start, then registered blocks RDMA-written), \
               pipeline-cached (the same with block registrations cached, §5.2); the \
               receiver's setting decides, except that the sender's picks the pipeline",
    },
    Setting {
        name: "RAILMPI_PIPELINE_FRAG",
        default: "1048576",
        help: "pipeline: bytes per RDMA block (each registered, written, deregistered or \
               cached on its own); caching pipeline blocks are aligned to it",
    },
    Setting {
        name: "RAILMPI_PIPELINE_DEPTH",
        default: "4",
        help: "pipeline: blocks a receiver keeps registered and READY at once per message",
    },
    Setting {
        name: "RAILMPI_PIPELINE_SEND_LENGTH",
        default: "131072",
        help: "pipeline: bytes after the eager part streamed through the channel while the \
               first blocks are registered (the ACK's RDMA offset)",
    },
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
        help: "rails the job may use: shm joins the ranks of one host, tcp reaches the \
               others (and every rank when shm is not listed: tcp alone runs everything \
               over sockets); verbs (alone, for now) runs every rank over RDMA adapters",
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
        name: "RAILMPI_SCHED",
        default: "weighted-rr",
        help: "multirail: which subchannel carries a message (and a transfer not striped) \
               to a peer with several: binding (the first), round-robin, weighted-rr (by \
               the striping weights), window-rr:W (W messages on one, then the next)",
    },
    Setting {
        name: "RAILMPI_STRIPING",
        default: "adaptive",
        help: "multirail: how a large RDMA transfer is split over a peer's subchannels: \
               even, weighted:w1,w2,... (one weight per subchannel), adaptive[:alpha] \
               (start even, then after each striped transfer move each weight by alpha \
               (default 0.5) towards the rate its stripe was delivered at: Liu 2004 eq. 4)",
    },
    Setting {
        name: "RAILMPI_STRIPING_THRESHOLD",
        default: "262144",
        help: "multirail: RDMA transfers of at least this many bytes are striped over a \
               peer's subchannels (stripes no smaller than the rails' minimum: 64 KiB on tcp)",
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
    Setting {
        name: "RAILMPI_SPIN",
        default: "auto",
        help: "polls a waiting call spins before yielding and then sleeping; auto: long when \
               every rank has a core, none when ranks outnumber cores (then a waiter yields \
               only while its yields let another task run, else it sleeps at once: a rank \
               alone in its scheduling group, as with a session per rank under Hydra and \
               kernel autogroups, gains nothing from sched_yield)",
    },
    Setting {
        name: "RAILMPI_BIND",
        default: "auto",
        help: "pin each rank to one core: auto (when ranks fit on the cores and the program \
               did not ask for MPI_THREAD_MULTIPLE), core (always), none",
    },
    Setting {
        name: "RAILMPI_REG_MODE",
        default: "odp-optimal",
        help: "registration of rendezvous payloads: pin, odp-native, odp-enhanced, \
               odp-optimal (ODP, prefetch of fresh registrations overlapped with the \
               handshake)",
    },
    Setting {
        name: "RAILMPI_REG_CACHE_MAX",
        default: "268435456",
        help: "bytes of registrations the registration cache keeps (LRU); 0: no cache",
    },
    Setting {
        name: "RAILMPI_REG_INVALIDATE",
        default: "uffd",
        help: "how cached registrations learn memory was freed: uffd (userfaultfd events), \
               hooks (libmpi interposes munmap/mremap/madvise/brk/sbrk, \
               plus no-trim for malloc's internal calls), no-trim (malloc never returns \
               memory)",
    },
    Setting {
        name: "RAILMPI_STATS",
        default: "0",
        help: "1: print registration statistics per rank and for the job at finalize, and \
               per peer with several subchannels what each carried and the striping weights",
    },
    Setting {
        name: "RAILMPI_RMA_ATOMICS",
        default: "native",
        help: "accumulates and atomics: native (CPU atomics on window memory the library \
               allocated, mapped by every rank of the node; the target's helper thread for \
               windows on user memory) or helper (always the target's helper thread)",
    },
    Setting {
        name: "RAILMPI_UNEXPECTED_LIMIT",
        default: "33554432",
        help: "bytes of unexpected eager messages a rank holds from one peer before that \
               peer sends by rendezvous (the data waits in the sender until a receive \
               matches it), until they are down to half; 0: no limit",
    },
    Setting {
        name: "RAILMPI_RMA_ASYNC_MIN",
        default: "65536",
        help: "MPI_Rput / MPI_Rget of at least this many contiguous bytes are carried out \
               by the target's helper thread while the origin goes on (0: never; smaller \
               ones complete inside the call)",
    },
    Setting {
        name: "RAILMPI_RMA_TRANSFER",
        default: "direct",
        help: "puts and gets: direct (copies and CMA with scatter/gather lists on both \
               sides) or helper (host-assisted: one packed stream, scattered or gathered \
               by the target's helper thread)",
    },
    Setting {
        name: "RAILMPI_LOG",
        default: "warn",
        help: "log filter (tracing EnvFilter syntax: error, warn, info, debug, trace)",
    },
];

#[derive(Clone, Debug)]
pub struct Config {
    pub eager_limit: usize,
    pub rndv_split: usize,
    pub rndv: crate::pt2pt::Rndv,
    pub pipeline_frag: usize,
    pub pipeline_depth: usize,
    pub pipeline_send_length: usize,
    pub shm_cma: bool,
    /// `RAILMPI_RAILS` includes shm / tcp / verbs.
    pub rail_shm: bool,
    pub rail_tcp: bool,
    pub rail_verbs: bool,
    pub verbs: crate::fabric::verbs::VerbsSettings,
    pub tcp: crate::fabric::tcp::TcpSettings,
    /// Eager limit towards ranks the tcp rail reaches.
    /// Scheduling over several subchannels (RAILMPI_SCHED, _STRIPING, _STRIPING_THRESHOLD).
    pub multirail: crate::channel::sched::MultirailSettings,
    /// From the launcher (`RAILMPI_JOB_SECRET`), if it gave one.
    pub job_secret: Option<crate::fabric::tcp::Secret>,
    pub shm_cells: usize,
    pub shm_cell_size: usize,
    /// None: decide from the number of local ranks and cores.
    pub spin: Option<u32>,
    pub bind: Bind,
    pub log: String,
    pub reg_policy: crate::registration::RegPolicy,
    pub reg_cache_max: usize,
    pub reg_invalidate: crate::registration::Invalidation,
    pub stats: bool,
    /// `RAILMPI_RMA_ATOMICS=helper`.
    pub rma_helper_atomics: bool,
    /// `RAILMPI_RMA_TRANSFER=helper`.
    pub rma_helper_transfers: bool,
    pub rma_async_min: usize,
    /// Unexpected eager bytes held per peer before it is throttled (0: no limit).
    pub unexpected_limit: usize,
}

/// A two-valued setting: false for `no`, true for `yes`, else an error naming it.
fn choice(name: &str, no: &str, yes: &str) -> Result<bool, String> {
    match value(name).as_str() {
        v if v == no => Ok(false),
        v if v == yes => Ok(true),
        v => Err(format!("{name}={v:?} is not one of {no}, {yes}")),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bind {
    Auto,
    Core,
    None,
}

impl Config {
    /// Read every setting; an unparsable value is an error naming the variable.
    pub fn from_env() -> Result<Config, String> {
        Ok(Config {
            eager_limit: parse("RAILMPI_EAGER_LIMIT")?,
            rndv_split: parse("RAILMPI_RNDV_SPLIT")?,
            rndv: match value("RAILMPI_RNDV_PROTOCOL").as_str() {
                "auto" => Rndv::Auto,
                "copy" => Rndv::Copy,
                "get" => Rndv::Get,
                "put" => Rndv::Put,
                "pipeline" => Rndv::Pipeline,
                "pipeline-cached" => Rndv::PipelineCached,
                v => {
                    return Err(format!(
                        "RAILMPI_RNDV_PROTOCOL={v:?} is not one of auto, copy, get, put, \
                         pipeline, pipeline-cached"
                    ))
                }
            },
            pipeline_frag: positive("RAILMPI_PIPELINE_FRAG")?,
            pipeline_depth: positive("RAILMPI_PIPELINE_DEPTH")?,
            pipeline_send_length: parse("RAILMPI_PIPELINE_SEND_LENGTH")?,
            shm_cma: parse::<u32>("RAILMPI_SHM_CMA")? != 0,
            rail_shm: rails()?.0,
            rail_tcp: rails()?.1,
            rail_verbs: rails()?.2,
            verbs: crate::fabric::verbs::VerbsSettings {
                devices: crate::fabric::verbs::parse_devices(&value("RAILMPI_VERBS_DEVICES"))?,
                timeout: match parse::<u8>("RAILMPI_VERBS_TIMEOUT")? {
                    t @ 1..=31 => t,
                    _ => return Err("RAILMPI_VERBS_TIMEOUT must be 1..31".into()),
                },
                sq_depth: positive("RAILMPI_VERBS_SQ_DEPTH")?.min(1 << 16) as u32,
                srq_depth: positive("RAILMPI_VERBS_SRQ_DEPTH")?.min(1 << 16) as u32,
                ..Default::default()
            },
            tcp: crate::fabric::tcp::TcpSettings {
                connect: match value("RAILMPI_TCP_CONNECT").as_str() {
                    "lazy" => crate::fabric::tcp::Connect::Lazy,
                    "eager" => crate::fabric::tcp::Connect::Eager,
                    v => {
                        return Err(format!(
                            "RAILMPI_TCP_CONNECT={v:?} is not one of lazy, eager"
                        ))
                    }
                },
                ifaces: list("RAILMPI_TCP_IFACES"),
                conns_per_iface: positive("RAILMPI_TCP_CONNS_PER_IFACE")?,
                timeout_ms: positive("RAILMPI_TCP_TIMEOUT")?.min(u32::MAX as usize) as u32,
                failover_timeout_ms: positive("RAILMPI_TCP_FAILOVER_TIMEOUT")?
                    .min(u32::MAX as usize) as u32,
                eager_limit: parse("RAILMPI_TCP_EAGER_LIMIT")?,
            },
            multirail: crate::channel::sched::MultirailSettings::parse(
                &value("RAILMPI_SCHED"),
                &value("RAILMPI_STRIPING"),
                parse("RAILMPI_STRIPING_THRESHOLD")?,
            )?,
            job_secret: match value("RAILMPI_JOB_SECRET").as_str() {
                "" => None,
                v => Some(
                    crate::fabric::tcp::secret_from_hex(v)
                        .ok_or("RAILMPI_JOB_SECRET is not 64 hex digits")?,
                ),
            },
            shm_cells: parse("RAILMPI_SHM_CELLS")?,
            shm_cell_size: parse("RAILMPI_SHM_CELL_SIZE")?,
            spin: match value("RAILMPI_SPIN").as_str() {
                "auto" => None,
                _ => Some(parse("RAILMPI_SPIN")?),
            },
            bind: match value("RAILMPI_BIND").as_str() {
                "auto" => Bind::Auto,
                "core" => Bind::Core,
                "none" => Bind::None,
                v => return Err(format!("RAILMPI_BIND={v:?} is not one of auto, core, none")),
            },
            log: value("RAILMPI_LOG"),
            reg_policy: value("RAILMPI_REG_MODE")
                .parse()
                .map_err(|e| format!("RAILMPI_REG_MODE={e}"))?,
            reg_cache_max: parse("RAILMPI_REG_CACHE_MAX")?,
            reg_invalidate: value("RAILMPI_REG_INVALIDATE")
                .parse()
                .map_err(|e| format!("RAILMPI_REG_INVALIDATE={e}"))?,
            stats: parse::<u32>("RAILMPI_STATS")? != 0,
            rma_helper_atomics: choice("RAILMPI_RMA_ATOMICS", "native", "helper")?,
            rma_helper_transfers: choice("RAILMPI_RMA_TRANSFER", "direct", "helper")?,
            rma_async_min: parse("RAILMPI_RMA_ASYNC_MIN")?,
            unexpected_limit: parse("RAILMPI_UNEXPECTED_LIMIT")?,
        })
    }
}

fn default_of(name: &str) -> &'static str {
    SETTINGS
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.default)
        .expect("documented setting")
}

/// The value in force: the environment's, or the default.
pub fn value(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default_of(name).to_string())
}

fn parse<T: std::str::FromStr>(name: &str) -> Result<T, String> {
    let v = value(name);
    v.trim()
        .parse()
        .map_err(|_| format!("{name}={v:?} is not a valid value"))
}

/// A comma-separated list (empty items dropped).
fn list(name: &str) -> Vec<String> {
    value(name)
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// `RAILMPI_RAILS`: whether shm, tcp and verbs may be used.
fn rails() -> Result<(bool, bool, bool), String> {
    let (mut shm, mut tcp, mut verbs) = (false, false, false);
    for r in list("RAILMPI_RAILS") {
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
    if verbs && tcp {
        // Both would reach the other hosts: striping over both needs a remote key per
        // rail on the wire (a peer is given one today).
        return Err(
            "RAILMPI_RAILS: verbs and tcp cannot yet be combined (both reach other hosts); \
             use shm,verbs (shm on each host, verbs between hosts) or verbs alone"
                .into(),
        );
    }
    Ok((shm, tcp, verbs))
}

/// A count that must be at least 1.
fn positive(name: &str) -> Result<usize, String> {
    match parse::<usize>(name)? {
        0 => Err(format!("{name}=0: must be at least 1")),
        n => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse() {
        for s in SETTINGS {
            assert!(!s.help.is_empty() && s.name.starts_with("RAILMPI_"));
        }
        let c = Config::from_env().unwrap();
        assert!(c.eager_limit > 0 && c.shm_cells.is_power_of_two());
    }
}
