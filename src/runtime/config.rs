//! Configuration: every tunable is a `RAILMPI_*` environment variable, parsed once at
//! start-up: the runtime's and the protocols' here, the rails' in `fabric::settings`.
//! `settings()` is the list that README and `railmpi-info` document.

pub use crate::fabric::settings::Setting;
use crate::fabric::settings::{Env, RailSettings};
use crate::pt2pt::Rndv;

/// Every documented setting: the runtime's, then the rails'.
pub fn settings() -> impl Iterator<Item = &'static Setting> {
    SETTINGS.iter().chain(crate::fabric::settings::SETTINGS)
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
               (default 0.5) towards the rate its stripe was delivered at: Liu 2004 eq. 4; \
               for messages, towards the rates the links delivered at while busy)",
    },
    Setting {
        name: "RAILMPI_STRIPING_THRESHOLD",
        default: "262144",
        help: "multirail: RDMA transfers of at least this many bytes are striped over a \
               peer's subchannels (stripes no smaller than the rails' minimum: 64 KiB on tcp)",
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
        name: "RAILMPI_CONNECT_TIMEOUT",
        default: "120",
        help: "seconds MPI_Comm_connect (and MPI_Comm_join) waits for the other side to \
               answer before it fails with MPI_ERR_PORT",
    },
    Setting {
        name: "RAILMPI_AUTO_CLEANUP",
        default: "1",
        help: "0 is set by `mpiexec -disable-auto-cleanup` (set it by hand only under a \
               launcher that likewise lets barriers go on without ended ranks): a peer \
               that ended is no longer fatal to a rank that waits, MPI_Finalize meets the \
               others through the launcher, and MPI_Abort ends only the communicator's \
               ranks",
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
    /// The rails' own settings (`fabric::settings`: RAILMPI_RAILS, _SHM_*, _TCP_*,
    /// _VERBS_*, _JOB_SECRET).
    pub rails: RailSettings,
    /// Scheduling over several subchannels (RAILMPI_SCHED, _STRIPING, _STRIPING_THRESHOLD).
    pub multirail: crate::channel::sched::MultirailSettings,
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
    /// How long MPI_Comm_connect waits for the acceptor (RAILMPI_CONNECT_TIMEOUT).
    pub connect_timeout: std::time::Duration,
    /// A failing rank ends the job (RAILMPI_AUTO_CLEANUP; mpiexec -disable-auto-cleanup).
    pub auto_cleanup: bool,
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
            rails: RailSettings::from_env()?,
            multirail: crate::channel::sched::MultirailSettings::parse(
                &value("RAILMPI_SCHED"),
                &value("RAILMPI_STRIPING"),
                parse("RAILMPI_STRIPING_THRESHOLD")?,
            )?,
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
            connect_timeout: std::time::Duration::from_secs(
                positive("RAILMPI_CONNECT_TIMEOUT")? as u64
            ),
            auto_cleanup: choice("RAILMPI_AUTO_CLEANUP", "0", "1")?,
        })
    }
}

const ENV: Env = Env(SETTINGS);

/// The value in force of any documented setting (the runtime's or the rails'): the
/// environment's, or the default.
pub fn value(name: &str) -> String {
    if SETTINGS.iter().any(|s| s.name == name) {
        ENV.value(name)
    } else {
        Env(crate::fabric::settings::SETTINGS).value(name)
    }
}

fn parse<T: std::str::FromStr>(name: &str) -> Result<T, String> {
    ENV.parse(name)
}

/// A count that must be at least 1.
fn positive(name: &str) -> Result<usize, String> {
    ENV.positive(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse() {
        let mut names: Vec<&str> = settings().map(|s| s.name).collect();
        for s in settings() {
            assert!(!s.help.is_empty() && s.name.starts_with("RAILMPI_"));
        }
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a setting is documented twice");
        let c = Config::from_env().unwrap();
        assert!(c.eager_limit > 0 && c.rails.shm_cells.is_power_of_two());
        assert!(c.rails.use_shm && c.rails.tcp.is_some() && c.rails.verbs.is_none());
    }
}
