//! The `World`: everything MPI_Init builds, used by every later call until MPI_Finalize.

use super::config::{Bind, Config};
use super::pmi::Pmi;
use super::progress::{Progress, ProgressState, WaitPolicy};
use crate::channel::service::ServiceChannels;
use crate::channel::Channels;
use crate::coll::schedule::{CollId, Schedule};
use crate::coll::{self, CollTransport, Outgoing};
use crate::comm::{Communicator, Group};
use crate::error::{Error, ErrorClass, Result};
use crate::fabric::shm::ShmSettings;
use crate::fabric::{self, Bootstrap, FabricSettings, RailError, RdmaOp, RemoteKeys, Transfer};
use crate::mpi_err;
use crate::pt2pt::{
    MsgBuf, MsgId, Owner, Pattern, ProtocolSettings, Pt2pt, ReqId, SendStart, Status, Taken,
};
use crate::registration::{Registry, RegistryConfig, StatsSnapshot};
use crate::sys::cpu;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

pub struct World {
    pub rank: usize,
    pub size: usize,
    pub config: Config,
    pub pmi: Pmi,
    pub progress: Progress,
    pub rail_name: &'static str,
    pub rdma: bool,
    pub processor_name: String,
    pub comm_world: Arc<Communicator>,
    pub comm_self: Arc<Communicator>,
    /// Every process this one knows, by the number the layers below give it (the job's
    /// ranks, then processes of other jobs: `dynamic`).
    pub peers: super::dynamic::Peers,
    /// The intercommunicator to the job that spawned this one (MPI_Comm_get_parent).
    pub parent: OnceLock<Arc<Communicator>>,
    pub main_thread: std::thread::ThreadId,
    /// The program asked for MPI_THREAD_MULTIPLE (otherwise calls are serialised by it).
    pub thread_level_multiple: bool,
    /// More ranks than CPUs on this node: waiters yield rather than spin (a choice each
    /// rank makes alone).
    pub oversubscribed: bool,
    /// Some rank of the job is oversubscribed: collectives prefer algorithms with fewer
    /// messages (each may cost a context switch). Agreed by every rank in `MPI_Init` — ranks
    /// of hosts with other core counts or bindings judge `oversubscribed` differently, and
    /// ranks running different algorithms of one collective would wait for each other
    /// forever.
    fan_in: AtomicBool,
    /// The registration layer the protocols use (None for a single process).
    pub registry: Option<Registry>,
    /// The attached buffers of buffered sends.
    pub bsend: super::bsend::BufferedSends,
    /// The second queue of the channels, to other processes' RMA helpers.
    services: Option<Arc<ServiceChannels>>,
    /// Per world rank: what its first rail's caps say about keys, fixed after init — a
    /// copy, so that the RMA latency path need not take the progress lock to ask.
    key_slots: Vec<KeySlot>,
}

/// How transfers with one peer name their local memory (`RmaHost::local_keys`).
struct KeySlot {
    /// The domain slot of the rail that reaches the peer (`Keys` index).
    slot: usize,
    /// The longest write and read that need no local key (`RailCaps::max_inline`,
    /// `read_bounce`; usize::MAX where the rail takes no keys).
    write: usize,
    read: usize,
}

const STATE_NEW: u8 = 0;
const STATE_RUNNING: u8 = 1;
const STATE_FINALIZED: u8 = 2;

static STATE: AtomicU8 = AtomicU8::new(STATE_NEW);
static WORLD: OnceLock<World> = OnceLock::new();

/// The world, if MPI is initialised and not finalised.
#[inline]
pub fn world() -> Option<&'static World> {
    if STATE.load(Ordering::Acquire) == STATE_RUNNING {
        WORLD.get()
    } else {
        None
    }
}

/// `world()`, or the error of a call before MPI_Init or after MPI_Finalize.
#[inline]
pub fn current() -> Result<&'static World> {
    world().ok_or_else(|| {
        let when = if finalized() {
            "after MPI_Finalize"
        } else {
            "before MPI_Init"
        };
        Error::new(ErrorClass::Other, format!("called {when}"))
    })
}

pub fn initialized() -> bool {
    STATE.load(Ordering::Acquire) != STATE_NEW
}

pub fn finalized() -> bool {
    STATE.load(Ordering::Acquire) == STATE_FINALIZED
}

const CTX_WORLD: u32 = 0;
const CTX_SELF: u32 = 2;

impl World {
    /// MPI_Init: connect to the launcher, build the rail and the engine.
    /// `multithreaded`: the program asked for MPI_THREAD_MULTIPLE.
    pub fn init(multithreaded: bool) -> Result<&'static World> {
        if STATE
            .compare_exchange(
                STATE_NEW,
                STATE_RUNNING,
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_err()
        {
            return mpi_err!(Other, "MPI is already initialised (or finalised)");
        }
        match Self::build(multithreaded) {
            Ok(w) => {
                let _ = WORLD.set(w);
                let w = WORLD.get().expect("just set");
                w.agree_fan_in()?;
                if w.pmi.spawned() {
                    w.connect_parent()?;
                }
                Ok(w)
            }
            Err(e) => {
                STATE.store(STATE_FINALIZED, Ordering::Release);
                Err(e)
            }
        }
    }

    fn build(multithreaded: bool) -> Result<World> {
        let mut config = Config::from_env().map_err(|m| Error::new(ErrorClass::Arg, m))?;
        let pmi =
            Pmi::from_env().map_err(|e| Error::new(ErrorClass::Other, format!("PMI: {e}")))?;
        let (rank, size) = (pmi.rank() as usize, pmi.size() as usize);
        super::logging::init(&config.log, rank);
        if let Some(fd) = pmi.raw_fd() {
            super::lifetime::arm(fd, rank as u32, pmi.launcher_pid());
        }
        let host = cpu::hostname();

        // Judged before binding: a bound rank sees one CPU, whatever the machine has.
        let oversubscribed = size > cpu::usable_cpus();
        bind_cpu(config.bind, rank, size, multithreaded);
        crate::fabric::doorbell::init_barriers();

        let fabric = fabric::open(
            &FabricSettings {
                host: host.clone(),
                shm: ShmSettings {
                    ncells: config.rails.shm_cells,
                    cell_size: config.rails.shm_cell_size,
                    cma: config.rails.shm_cma,
                    launcher: pmi.launcher_pid(),
                    fenced_wakeups: oversubscribed,
                },
                use_shm: config.rails.use_shm,
                tcp: config.rails.tcp.clone(),
                verbs: config.rails.verbs.clone(),
                secret: config.rails.secret,
            },
            &PmiBootstrap(&pmi),
        )
        .map_err(intern)?;
        if !config.auto_cleanup {
            // Peers may end while the job goes on (-disable-auto-cleanup): one that did is
            // no longer fatal to whoever waits (a wait for it lasts until the job's end).
            super::lifetime::watch_peers(&[]);
        }
        let doorbell = fabric.wait;
        if oversubscribed {
            // Waiters sleep in most waits: a fence per message is cheaper than a membarrier
            // per sleep (the shm rail marked its doorbell already, before peers could ring).
            doorbell.set_fenced();
        }
        let first_routes = fabric.first_routes();
        let services = ServiceChannels::new(fabric.services, &first_routes).map(Arc::new);
        // A rail served by a thread of ours (tcp) needs CPU time while we wait for it.
        let rail_thread = fabric.rails.iter().any(|r| r.caps().progress_thread);
        // Ranks of other "hosts" on this machine's cores (namespaces, containers): the
        // count of ranks per host does not show them.
        let crowded = fabric.machine_ranks > cpu::usable_cpus();
        let channels = Channels::multirail(
            fabric.rails,
            &fabric.subchannels,
            fabric.wait,
            config.multirail.clone(),
        );
        let caps = channels.caps().clone();
        // Per rank: the slot, and the longest write and read that need no local key
        // (usize::MAX: none does; a rail with local keys writes up to its inline size and
        // reads up to its bounce size without one).
        let key_slots: Vec<KeySlot> = (0..size)
            .map(|p| {
                let (write, read) = match channels.rail_caps(p) {
                    Some(c) if c.local_keys => (c.max_inline, c.read_bounce),
                    _ => (usize::MAX, usize::MAX),
                };
                KeySlot {
                    slot: channels.key_slot(p),
                    write,
                    read,
                }
            })
            .collect();
        let mut p2p = Pt2pt::new(
            rank,
            size,
            ProtocolSettings {
                eager_limit: config.eager_limit,
                rdma: caps.rdma(),
                split_threshold: config.rndv_split,
                rndv: config.rndv,
                pipeline: crate::pt2pt::PipelineSettings {
                    frag: config.pipeline_frag,
                    depth: config.pipeline_depth,
                    send_length: config.pipeline_send_length,
                },
            },
            caps.max_message,
        );
        p2p.min_rdma_run = caps.min_rdma_run;
        p2p.unexpected_limit = config.unexpected_limit;
        for peer in 0..size {
            if let Some(c) = channels.rail_caps(peer).filter(|c| c.eager_limit > 0) {
                p2p.set_peer_network(peer, c.eager_limit, c.max_message);
            }
            if channels
                .rail_caps(peer)
                .is_some_and(|c| !c.split_rendezvous)
            {
                p2p.set_peer_no_split(peer);
            }
            if channels.notifies(peer) {
                p2p.set_peer_notify(peer);
            }
        }
        // Rendezvous payloads are registered (pinned or ODP, cached) through the rail's
        // memory domain, which keys them for peers; a single process has no peer to reach.
        let registry = (size > 1).then(|| {
            Registry::with_domains(
                RegistryConfig {
                    cache_max: config.reg_cache_max,
                    invalidation: config.reg_invalidate,
                },
                channels.domains(),
            )
        });
        // A rail without on-demand paging pins what it registers (a verbs region holds the
        // pages it was made with), so a cached registration is valid only while the
        // invalidation watches it: register as pinned, which the cache guards (Li §VI's
        // fallback), and say so once.
        if !caps.odp && config.reg_policy != crate::registration::RegPolicy::Pin {
            tracing::info!(
                rail = caps.name,
                "no on-demand paging: registering pinned (RAILMPI_REG_MODE has no effect)"
            );
            config.reg_policy = crate::registration::RegPolicy::Pin;
        }
        p2p.reg_policy = config.reg_policy;
        // Yields are checked (`YieldProbe`) only where a rank may be alone in its scheduler
        // group: in one session with its peers, a yield that switches to nobody means no
        // rank of ours wants this core, and sleeping then only adds a wake-up (4 ranks on 2
        // cores, 16-byte alltoall: half the runs had one rank sleeping in every call,
        // 7.5-11 us against 3.0).
        let yield_check = oversubscribed && !cpu::in_parent_session();
        let policy = match config.spin {
            Some(s) => WaitPolicy {
                spins: s,
                yields: if oversubscribed { 2_000 } else { 1_000 },
                yield_check,
            },
            // More ranks than cores: spinning only burns the time slice the peer needs,
            // so yield at once — but yield for a good while before sleeping, since a
            // futex sleep and wake-up costs more than most collective steps take. Only
            // while yields switch to another task, though: ranks that each have a session
            // of their own (Hydra) are each alone in their autogroup, where a yield
            // returns at once; they sleep instead (`YieldProbe`).
            None if oversubscribed => WaitPolicy {
                spins: 0,
                yields: 2_000,
                yield_check,
            },
            // With a tcp rail and ranks of other "hosts" on this machine's cores beyond
            // their number, spin briefly, then yield: its progress thread needs a core when
            // it takes over the sockets. 2 namespaces x 2 ranks on 2 cores, 8-byte
            // allreduce: 25 us, against 2,300-3,500 us with the long spin. Where they fit,
            // the long spin: 2 x 1 ranks, MPI_Put + flush across them 21.5 -> 13.5 us.
            None if rail_thread && crowded => WaitPolicy {
                spins: 50,
                yields: 5_000,
                yield_check: false,
            },
            None => WaitPolicy {
                spins: 20_000,
                yields: 2_000,
                yield_check: false,
            },
        };
        tracing::info!(
            rank,
            size,
            rail = caps.name,
            rdma = caps.rdma(),
            "initialised"
        );
        let peers = super::dynamic::Peers::new(
            super::dynamic::job_id(
                pmi.kvsname(),
                config.rails.secret.as_ref().map(|s| &s[..]),
                pmi.is_singleton(),
            ),
            size,
        );
        Ok(World {
            rank,
            size,
            pmi,
            progress: Progress::new(
                ProgressState {
                    channels,
                    registry: registry.clone(),
                    count_faults: config.stats,
                    p2p,
                    colls: Default::default(),
                    rma_posted: 0,
                    rma_done: Vec::new(),
                    partitioned: Default::default(),
                },
                doorbell,
                policy,
                multithreaded,
            ),
            thread_level_multiple: multithreaded,
            rail_name: caps.name,
            rdma: caps.rdma(),
            processor_name: host,
            comm_world: Arc::new(Communicator::new(
                CTX_WORLD,
                rank,
                Arc::new(Group::new((0..size).collect())),
            )),
            comm_self: Arc::new(Communicator::new(
                CTX_SELF,
                0,
                Arc::new(Group::new(vec![rank])),
            )),
            peers,
            parent: OnceLock::new(),
            main_thread: std::thread::current().id(),
            oversubscribed,
            fan_in: AtomicBool::new(false),
            registry,
            bsend: Default::default(),
            services,
            key_slots,
            config,
        })
    }

    /// Whether the calling thread is the one that started the runtime (MPI_Is_thread_main).
    pub fn is_main_thread(&self) -> bool {
        std::thread::current().id() == self.main_thread
    }

    /// Whether collectives take their fan-in forms (the same answer on every rank).
    #[inline]
    pub fn fan_in(&self) -> bool {
        self.fan_in.load(Ordering::Relaxed)
    }

    /// `fan_in` for a collective on `comm`: its members must all choose alike, and
    /// members of another job agreed on their own job's answer, not ours — so a
    /// communicator spanning jobs always takes the fan-in forms (fewer messages, which
    /// suits the tcp links between jobs too).
    #[inline]
    pub fn fan_in_for(&self, comm: &Communicator) -> bool {
        self.fan_in() || comm.spans_jobs(self.size)
    }

    /// Every rank learns whether any rank is oversubscribed (one allreduce, in the
    /// algorithm every rank takes before agreeing).
    fn agree_fan_in(&self) -> Result<()> {
        // Not yet agreed: every rank takes the plain algorithm for this one.
        let [any] = self.runtime_max(&self.comm_world, [self.oversubscribed as u32], false)?;
        self.fan_in.store(any != 0, Ordering::Relaxed);
        Ok(())
    }

    /// The members' largest of each of `mine`'s numbers (an intracommunicator), by the
    /// runtime's own allreduce; `fan_in` picks its algorithm, the same on every member.
    pub(super) fn runtime_max<const N: usize>(
        &self,
        comm: &Communicator,
        mine: [u32; N],
        fan_in: bool,
    ) -> Result<[u32; N]> {
        let word = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
        let mut acc: Vec<u8> = mine.iter().flat_map(|v| v.to_le_bytes()).collect();
        let max = move |a: &[u8], b: &mut [u8]| -> Result<()> {
            for (x, y) in a.chunks_exact(4).zip(b.chunks_exact_mut(4)) {
                let m = word(x).max(word(y));
                y.copy_from_slice(&m.to_le_bytes());
            }
            Ok(())
        };
        // The runtime's own: every rank takes this path, no schedule to match.
        let algo = coll::direct::allreduce_algorithm(comm.size(), acc.len(), true, fan_in, 0);
        coll::direct::allreduce(
            self,
            comm,
            coll::TAG_RUNTIME_ALLREDUCE,
            &mut acc,
            &max,
            true,
            algo,
        )?;
        Ok(std::array::from_fn(|i| word(&acc[4 * i..4 * i + 4])))
    }

    /// MPI_Finalize: synchronise so nobody leaves while peers may still reach its memory,
    /// drain our output, and tell the launcher.
    pub fn finalize(&self) -> Result<()> {
        super::lifetime::leaving();
        if let Some(s) = &self.services {
            s.leaving();
        }
        if self.config.auto_cleanup {
            coll::direct::barrier(
                self,
                &self.comm_world,
                coll::TAG_RUNTIME_BARRIER,
                self.fan_in(),
            )?;
        } else {
            // Ranks may have ended (-disable-auto-cleanup): the launcher's barrier counts
            // them out, a barrier over the network would wait for them forever.
            self.pmi
                .barrier()
                .map_err(|e| Error::new(ErrorClass::Other, format!("PMI: {e}")))?;
        }
        self.progress.wait(|e| (!e.p2p.has_output()).then_some(()));
        if self.config.stats {
            self.print_stats()?;
        }
        tracing::debug!(
            sleeps = self.progress.sleeps.load(Ordering::Relaxed),
            "finalize"
        );
        self.progress.locked(|e| e.channels.close());
        let _ = self.pmi.finalize();
        STATE.store(STATE_FINALIZED, Ordering::Release);
        Ok(())
    }

    /// RAILMPI_STATS: this rank's registration counters, and at rank 0 the job's totals
    /// (collective over MPI_COMM_WORLD, at finalize).
    fn print_stats(&self) -> Result<()> {
        let mine = self
            .registry
            .as_ref()
            .map(|r| r.stats())
            .unwrap_or_default();
        // One write per line, so ranks' lines don't interleave.
        let mut line = format!("railmpi stats rank {}: {mine}\n", self.rank);
        // Multirail: what each subchannel carried and the weights striping settled on.
        for l in self.progress.locked(|e| e.channels.stats()) {
            line.push_str(&format!("railmpi stats rank {} multirail {l}\n", self.rank));
        }
        let (notices, splits) = self.progress.locked(|e| (e.p2p.notices, e.p2p.splits));
        if splits > 0 {
            line.push_str(&format!(
                "railmpi stats rank {} rendezvous: {splits} split (we read the head while the \
                 sender wrote the tail)\n",
                self.rank
            ));
        }
        if notices > 0 {
            line.push_str(&format!(
                "railmpi stats rank {} rendezvous: {notices} writes noticed by their \
                 immediate word (no PUT_DONE or PIPE_FIN sent)\n",
                self.rank
            ));
        }
        let (posted, peak) = crate::rma::transfer_stats();
        if posted > 0 {
            line.push_str(&format!(
                "railmpi stats rank {} rma: {posted} puts/gets posted on the rails, at most \
                 {peak} in flight at once\n",
                self.rank
            ));
        }
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        let bytes: Vec<u8> = mine
            .to_array()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let all = self.allgather_bytes(&self.comm_world, &bytes)?;
        if self.rank == 0 {
            let snaps: Vec<StatsSnapshot> = all
                .iter()
                .map(|b| {
                    let mut a = [0u64; 12];
                    for (v, c) in a.iter_mut().zip(b.chunks_exact(8)) {
                        *v = u64::from_le_bytes(c.try_into().expect("8 bytes"));
                    }
                    StatsSnapshot::from_array(a)
                })
                .collect();
            super::logging::say(&format!(
                "railmpi stats total ({} ranks): {}",
                snaps.len(),
                StatsSnapshot::sum(&snaps)
            ));
        }
        Ok(())
    }

    /// MPI_Abort(comm, code) as the application called it: says so on stderr in MPICH's
    /// words (`Abort(C) ...: application called MPI_Abort(COMM, C)`, which MPICH's test
    /// harness and other tools recognise as an abort, not as stray output; `name` is how
    /// the caller names `comm`), then aborts. An intercommunicator's processes are its
    /// remote group (those its ranks name, MPI-4.1 §7.6): under `-disable-auto-cleanup`
    /// they end and the caller returns to go on, as MPICH does; otherwise (or when the
    /// remote group holds processes of another job, which this launcher cannot name) the
    /// job's part of both groups ends, the caller with them, as for an intracommunicator.
    pub fn abort_called(&self, comm: Option<&Communicator>, code: i32, name: &str) {
        let rank = comm.map_or(0, |c| c.rank);
        super::logging::say(&format!(
            "Abort({code}) on rank {}: application called MPI_Abort({name}, {code}) - process {rank}",
            self.rank
        ));
        if let Some(c) = comm.filter(|c| c.is_inter() && !self.config.auto_cleanup) {
            let remote = &c.peers.members;
            if remote.iter().all(|&r| r < self.size) {
                if let Some(ranks) = Self::ranges(remote.iter().copied()) {
                    // SAFETY: fflush(NULL) flushes every C stdio stream; no pointer of ours.
                    unsafe { libc::fflush(std::ptr::null_mut()) };
                    self.pmi.abort(code, "", &ranks);
                    return;
                }
            }
        }
        self.abort(comm, code, "MPI_Abort")
    }

    /// MPI_Abort: tell the launcher, then leave with `code`. The job ends with it, unless
    /// the launcher runs with `-disable-auto-cleanup`: then it ends the ranks of `comm`
    /// (those of this job; None or a communicator holding them all: the whole job).
    pub fn abort(&self, comm: Option<&Communicator>, code: i32, msg: &str) -> ! {
        super::lifetime::leaving();
        let ranks = match comm {
            Some(c) if !self.config.auto_cleanup => self.abort_ranks(c),
            _ => Vec::new(),
        };
        // What the program wrote is out before the launcher hears of the abort.
        // SAFETY: fflush(NULL) flushes every C stdio stream; no pointer of ours is passed.
        unsafe { libc::fflush(std::ptr::null_mut()) };
        self.pmi.abort(code, msg, &ranks);
        std::process::exit(code)
    }

    /// The world ranks of this job in `comm` (both groups of an intercommunicator), as
    /// inclusive ranges; empty when that is all of them. Processes of other jobs are not
    /// this launcher's to end.
    fn abort_ranks(&self, comm: &Communicator) -> Vec<(u32, u32)> {
        let mut mine: Vec<usize> = comm.group.members.to_vec();
        if comm.is_inter() {
            mine.extend(comm.peers.members.iter().copied());
        }
        mine.retain(|&r| r < self.size);
        mine.sort_unstable();
        mine.dedup();
        if mine.len() == self.size {
            return Vec::new();
        }
        Self::ranges(mine.into_iter()).unwrap_or_default()
    }

    /// `ranks` (world ranks of this job) as sorted inclusive ranges; None when there are
    /// none or too many ranges for a PMI line.
    fn ranges(ranks: impl Iterator<Item = usize>) -> Option<Vec<(u32, u32)>> {
        let mut mine: Vec<u32> = ranks.map(|r| r as u32).collect();
        mine.sort_unstable();
        mine.dedup();
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for r in mine {
            match ranges.last_mut() {
                Some((_, b)) if *b + 1 == r => *b = r,
                _ => ranges.push((r, r)),
            }
        }
        // A PMI line is short: a list too long for it aborts the whole job instead.
        (!ranges.is_empty() && ranges.len() <= 200).then_some(ranges)
    }

    // ------------------------------------------------------------ point-to-point

    /// Blocking send (MPI_Send / MPI_Ssend); returns once the buffer may be reused.
    ///
    /// # Safety
    /// The memory `data` describes must be readable.
    pub unsafe fn send(&self, comm: &Communicator, dst: usize, tag: i32, data: MsgBuf, sync: bool) {
        let start = self.start_send(comm.ctx, comm, dst, tag, data, sync, Owner::NONE);
        if let SendStart::Pending(req) = start {
            self.wait(req);
        }
    }

    /// Nonblocking send; None when it completed at once (eager, straight into the rail).
    /// `owner` is kept with the request for the caller (see `Request::owner`).
    ///
    /// # Safety
    /// The memory `data` describes must stay readable and unchanged until the send
    /// completes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn isend(
        &self,
        comm: &Communicator,
        dst: usize,
        tag: i32,
        data: MsgBuf,
        sync: bool,
        owner: Owner,
    ) -> Option<ReqId> {
        match self.start_send(comm.ctx, comm, dst, tag, data, sync, owner) {
            SendStart::Pending(req) => Some(req),
            SendStart::Done => None,
        }
    }

    /// `isend` from contiguous memory `[ptr, ptr + len)`: the message-rate path, whose
    /// arguments reach the ring in registers (see `Pt2pt::send`).
    ///
    /// # Safety
    /// As for `isend`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub unsafe fn isend_contig(
        &self,
        comm: &Communicator,
        dst: usize,
        tag: i32,
        ptr: *const u8,
        len: usize,
        sync: bool,
        owner: Owner,
    ) -> Option<ReqId> {
        let peer = comm.world_rank(dst);
        let src = comm.rank as i32;
        let mut e = self.progress.lock();
        let (p2p, mut io, _) = e.split();
        match p2p.send(&mut io, peer, comm.ctx, src, tag, ptr, len, sync) {
            SendStart::Done => None,
            SendStart::Pending(req) => {
                p2p.set_owner(req, owner);
                Some(req)
            }
        }
    }

    /// `owner` tags a pending request (see `Request::owner`).
    ///
    /// # Safety
    /// As for `isend`.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn start_send(
        &self,
        ctx: u32,
        comm: &Communicator,
        dst: usize,
        tag: i32,
        data: MsgBuf,
        sync: bool,
        owner: Owner,
    ) -> SendStart {
        let peer = comm.world_rank(dst);
        let src = comm.rank as i32;
        self.progress.locked(|e| {
            let (p2p, mut io, _) = e.split();
            let started = p2p.send_buf(&mut io, peer, ctx, src, tag, data, sync);
            if let SendStart::Pending(req) = started {
                p2p.set_owner(req, owner);
            }
            started
        })
    }

    /// Blocking receive; `src`/`tag` None are wildcards.
    ///
    /// # Safety
    /// The memory `buf` describes must be writable.
    pub unsafe fn recv(
        &self,
        comm: &Communicator,
        src: Option<usize>,
        tag: Option<i32>,
        buf: MsgBuf,
    ) -> Status {
        let pat = pattern(comm, src, tag);
        self.recv_pattern(pat, buf)
    }

    /// # Safety
    /// The memory `buf` describes must be writable.
    unsafe fn recv_pattern(&self, pat: Pattern, mut buf: MsgBuf) -> Status {
        let req = self
            .progress
            .with(|e| match e.p2p.try_recv_now(&pat, &mut buf) {
                Some(st) => Err(st),
                None => Ok(e.p2p.recv_buf(pat, buf)),
            });
        match req {
            Err(st) => st,
            Ok(req) => self.wait(req),
        }
    }

    /// Nonblocking receive; `owner` is kept with the request (see `Request::owner`).
    ///
    /// # Safety
    /// The memory `buf` describes must stay writable until the receive completes.
    pub unsafe fn irecv(
        &self,
        comm: &Communicator,
        src: Option<usize>,
        tag: Option<i32>,
        buf: MsgBuf,
        owner: Owner,
    ) -> ReqId {
        let pat = pattern(comm, src, tag);
        self.progress.locked(|e| e.p2p.recv_owned(pat, buf, owner))
    }

    /// `irecv` into contiguous memory `[ptr, ptr + len)`: the message-rate path, whose
    /// arguments reach the engine's request slot in registers (see `Slab::insert_posted_recv`).
    ///
    /// # Safety
    /// As for `irecv`.
    #[inline(always)]
    pub unsafe fn irecv_contig(
        &self,
        comm: &Communicator,
        src: Option<usize>,
        tag: Option<i32>,
        ptr: *mut u8,
        len: usize,
        owner: Owner,
    ) -> ReqId {
        let src = src.map(|s| s as i32);
        let p2p = &mut self.progress.lock().p2p;
        p2p.recv_contig(comm.ctx, src, tag, ptr, len, owner)
    }

    /// The engine request now in `slot` (an ABI handle's index).
    pub fn slot_id(&self, slot: u32) -> Option<ReqId> {
        self.progress.locked(|e| e.p2p.slot_id(slot))
    }

    /// Wait for a request, free it; its status and owner (defaults for one already gone).
    pub fn wait_owned(&self, req: ReqId) -> (Status, Owner) {
        self.progress.wait(|e| match e.p2p.take_done(req) {
            Taken::Pending => None,
            Taken::Gone => Some(Default::default()),
            Taken::Done(st, owner) => Some((st, owner)),
        })
    }

    /// `wait_owned` for the request now in engine slot `slot` (a C handle's index): found
    /// and waited for under one lock per round, or None when the slot holds no request.
    ///
    /// The first look (a request that completed earlier, the common case) is inlined into
    /// the caller, so the status reaches it in registers: returned through memory, it was
    /// read back with wider loads than it was written with, a store-forwarding stall on
    /// every completion.
    #[inline(always)]
    pub fn wait_slot(&self, slot: u32) -> Option<(Status, Owner)> {
        if let Some(t) = slot_ready(&mut self.progress.lock(), slot) {
            return t;
        }
        self.progress.wait(|e| slot_ready(e, slot))
    }

    /// Test a request: its status and owner (and the request freed) if complete.
    pub fn test_owned(&self, req: ReqId) -> Option<(Status, Owner)> {
        self.progress.with(|e| e.p2p.take_done_owned(req))
    }

    /// Wait for a request, free it and return its status.
    pub fn wait(&self, req: ReqId) -> Status {
        self.wait_owned(req).0
    }

    /// Test a request: its status (and the request freed) if complete.
    pub fn test(&self, req: ReqId) -> Option<Status> {
        self.progress.with(|e| e.p2p.take_if_done(req))
    }

    pub fn iprobe(
        &self,
        comm: &Communicator,
        src: Option<usize>,
        tag: Option<i32>,
    ) -> Option<Status> {
        let pat = pattern(comm, src, tag);
        self.progress.with(|e| e.p2p.iprobe(&pat))
    }

    pub fn probe(&self, comm: &Communicator, src: Option<usize>, tag: Option<i32>) -> Status {
        let pat = pattern(comm, src, tag);
        self.progress.wait(|e| e.p2p.iprobe(&pat))
    }

    /// Matched probe: the first matching message, taken out of matching for `mrecv`.
    pub fn improbe(
        &self,
        comm: &Communicator,
        src: Option<usize>,
        tag: Option<i32>,
    ) -> Option<(MsgId, Status)> {
        let pat = pattern(comm, src, tag);
        self.progress.with(|e| e.p2p.improbe(&pat))
    }

    /// Blocking matched probe.
    pub fn mprobe(
        &self,
        comm: &Communicator,
        src: Option<usize>,
        tag: Option<i32>,
    ) -> (MsgId, Status) {
        let pat = pattern(comm, src, tag);
        self.progress.wait(|e| e.p2p.improbe(&pat))
    }

    /// Receive a message `improbe` took; None if it was received already.
    ///
    /// # Safety
    /// The memory `buf` describes must stay writable until the receive completes.
    pub unsafe fn mrecv(&self, msg: MsgId, buf: MsgBuf, owner: Owner) -> Option<ReqId> {
        self.progress.locked(|e| e.p2p.mrecv(msg, buf, owner))
    }

    pub fn cancel_recv(&self, req: ReqId) -> bool {
        self.progress.locked(|e| e.p2p.cancel_recv(req))
    }

    pub fn request_free(&self, req: ReqId) {
        self.progress.locked(|e| e.p2p.release(req))
    }

    pub fn completed_request(&self, status: Status) -> ReqId {
        self.progress.locked(|e| e.p2p.completed_request(status))
    }

    // ------------------------------------------------------------ collectives

    /// Start a collective schedule (nonblocking).
    pub fn start_collective(&self, s: Schedule) -> CollId {
        self.progress.locked(|e| {
            let (p2p, mut io, colls) = e.split();
            colls.start(s, p2p, &mut io)
        })
    }

    /// Wait for a collective started with `start_collective`.
    pub fn wait_collective(&self, id: CollId) -> Result<()> {
        self.progress.wait(|e| e.colls.take_if_done(id))
    }

    /// Its result if finished (and then forgotten).
    pub fn test_collective(&self, id: CollId) -> Option<Result<()>> {
        self.progress.with(|e| e.colls.take_if_done(id))
    }

    /// Nobody will ask for this collective's result (its request was freed): it runs to
    /// completion in the background and is then forgotten.
    pub fn detach_collective(&self, id: CollId) {
        self.progress.with(|e| e.colls.detach(id))
    }

    /// Run a collective schedule to completion (blocking collectives).
    pub fn run_collective(&self, s: Schedule) -> Result<()> {
        let id = self.start_collective(s);
        self.wait_collective(id)
    }

    // ------------------------------------------------------------ communicators

    pub fn comm_dup(&self, parent: &Communicator) -> Result<Arc<Communicator>> {
        let ctx = self.new_context(parent)?.keep();
        let (rank, group) = (parent.rank, parent.group.clone());
        Ok(Arc::new(match parent.remote_group() {
            Some(remote) => Communicator::new_inter(ctx, rank, group, remote.clone()),
            None => Communicator::new(ctx, rank, group),
        }))
    }

    /// MPI_Comm_split; None for MPI_UNDEFINED color (`color < 0`).
    pub fn comm_split(
        &self,
        parent: &Communicator,
        color: Option<i32>,
        key: i32,
    ) -> Result<Option<Arc<Communicator>>> {
        if parent.is_inter() {
            return self.intercomm_split(parent, color, key);
        }
        let n = parent.size();
        let mut all = vec![0u8; 8 * n];
        let c = color.unwrap_or(-1);
        all[8 * parent.rank..8 * parent.rank + 4].copy_from_slice(&c.to_le_bytes());
        all[8 * parent.rank + 4..8 * parent.rank + 8].copy_from_slice(&key.to_le_bytes());
        coll::direct::allgather(self, parent, coll::TAG_RUNTIME_ALLGATHER, &mut all)?;
        let ctx = self.new_context(parent)?;
        let Some(color) = color else { return Ok(None) };
        let entries: Vec<(i32, i32)> = all
            .chunks_exact(8)
            .map(|b| {
                (
                    i32::from_le_bytes(b[..4].try_into().unwrap()),
                    i32::from_le_bytes(b[4..].try_into().unwrap()),
                )
            })
            .collect();
        let order = crate::comm::split_order(&entries, color);
        let members: Vec<usize> = order.iter().map(|&r| parent.world_rank(r)).collect();
        let rank = order
            .iter()
            .position(|&r| r == parent.rank)
            .expect("own color");
        Ok(Some(Arc::new(Communicator::new(
            ctx.keep(),
            rank,
            Arc::new(Group::new(members)),
        ))))
    }
}

/// Pin this rank to a core of its own when that helps: spinning ranks that share a core
/// by the scheduler's whim run orders of magnitude slower than ranks on their own cores.
fn bind_cpu(bind: Bind, local_rank: usize, local_size: usize, multithreaded: bool) {
    let cpus = cpu::allowed_cpus();
    let fits = local_size <= cpus.len();
    let wanted = match bind {
        Bind::None => false,
        Bind::Core => true,
        Bind::Auto => fits && !multithreaded && local_size > 1,
    };
    if !wanted || cpus.is_empty() {
        return;
    }
    let core = cpus[local_rank % cpus.len()];
    match cpu::bind_to(core) {
        Ok(()) => tracing::debug!(core, "bound to core"),
        Err(e) => tracing::warn!("could not bind to core {core}: {e}"),
    }
}

/// The launcher's PMI as the rails' bootstrap.
struct PmiBootstrap<'a>(&'a Pmi);

impl Bootstrap for PmiBootstrap<'_> {
    fn rank(&self) -> usize {
        self.0.rank() as usize
    }
    fn size(&self) -> usize {
        self.0.size() as usize
    }
    fn put(&self, key: &str, value: &str) -> std::result::Result<(), String> {
        self.0.put(key, value).map_err(|e| format!("PMI: {e}"))
    }
    fn get(&self, key: &str) -> std::result::Result<String, String> {
        self.0.get(key).map_err(|e| format!("PMI: {e}"))
    }
    fn barrier(&self) -> std::result::Result<(), String> {
        self.0.barrier().map_err(|e| format!("PMI: {e}"))
    }
}

fn intern(msg: String) -> Error {
    Error::new(ErrorClass::Other, msg)
}

/// Collectives run over the communicator's collective context.
impl CollTransport for World {
    fn send(&self, comm: &Communicator, dst: usize, tag: i32, data: &[u8]) -> Result<()> {
        // SAFETY: `data` is a live slice; we wait for the send before returning.
        if let SendStart::Pending(req) =
            unsafe { self.start_send_bytes(comm.coll_ctx(), comm, dst, tag, data) }
        {
            self.wait(req);
        }
        Ok(())
    }

    fn recv(&self, comm: &Communicator, src: usize, tag: i32, buf: &mut [u8]) -> Result<()> {
        let pat = Pattern {
            ctx: comm.coll_ctx(),
            src: Some(src as i32),
            tag: Some(tag),
        };
        // SAFETY: `buf` is a live mutable slice for the whole (blocking) receive.
        let st = unsafe { self.recv_pattern(pat, MsgBuf::contig(buf.as_mut_ptr(), buf.len())) };
        check_coll_size(&st, buf.len())
    }

    fn sendrecv(
        &self,
        comm: &Communicator,
        dst: usize,
        data: &[u8],
        src: usize,
        buf: &mut [u8],
        tag: i32,
    ) -> Result<()> {
        self.sendrecv_on(comm.coll_ctx(), comm, dst, data, src, buf, tag)
    }

    fn exchange(
        &self,
        comm: &Communicator,
        tag: i32,
        out: Outgoing,
        recv: &mut [u8],
    ) -> Result<()> {
        let (n, r) = (comm.size(), comm.rank);
        let b = recv.len() / n;
        let ctx = comm.coll_ctx();
        let base = recv.as_mut_ptr();
        // Receives first: a message already here is taken now, the others are posted,
        // so every send below finds its receive (eager or not) and lands in place.
        let mut got: Vec<ReqId> = Vec::with_capacity(n - 1);
        let mut result = Ok(());
        self.progress.with(|e| {
            for k in 1..n {
                let src = (r + n - k) % n;
                let pat = Pattern {
                    ctx,
                    src: Some(src as i32),
                    tag: Some(tag),
                };
                // SAFETY: block `src` of `recv` is in bounds, live and writable until the
                // waits below.
                let mut buf = MsgBuf::contig(unsafe { base.add(src * b) }, b);
                match unsafe { e.p2p.try_recv_now(&pat, &mut buf) } {
                    Some(st) if result.is_ok() => result = check_coll_size(&st, b),
                    Some(_) => {}
                    // SAFETY: as above.
                    None => got.push(unsafe { e.p2p.recv_buf(pat, buf) }),
                }
            }
        });
        let mut sent = Vec::with_capacity(n - 1);
        for k in 1..n {
            let dst = (r + k) % n;
            let data = out.block(dst);
            // SAFETY: `out` outlives the sends: we wait for them before returning.
            if let SendStart::Pending(req) =
                unsafe { self.start_send_bytes(ctx, comm, dst, tag, data) }
            {
                sent.push(req);
            }
        }
        for req in got {
            let st = self.wait(req);
            if result.is_ok() {
                result = check_coll_size(&st, b);
            }
        }
        for req in sent {
            self.wait(req);
        }
        result
    }
}

impl World {
    /// Start a collective's send of `data` to `dst` on context `ctx` of `comm`.
    ///
    /// # Safety
    /// `data` stays as it is until the send completes (the caller waits for it).
    unsafe fn start_send_bytes(
        &self,
        ctx: u32,
        comm: &Communicator,
        dst: usize,
        tag: i32,
        data: &[u8],
    ) -> SendStart {
        // SAFETY: the caller's contract.
        unsafe {
            self.start_send(
                ctx,
                comm,
                dst,
                tag,
                MsgBuf::contig(data.as_ptr(), data.len()),
                false,
                Owner::NONE,
            )
        }
    }

    /// Send `data` to `dst` and receive exactly `buf.len()` bytes from `src` at once, on
    /// context `ctx` of `comm` (its collective one, or its point-to-point one for the
    /// runtime's exchanges on an application's tag).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn sendrecv_on(
        &self,
        ctx: u32,
        comm: &Communicator,
        dst: usize,
        data: &[u8],
        src: usize,
        buf: &mut [u8],
        tag: i32,
    ) -> Result<()> {
        let pat = Pattern {
            ctx,
            src: Some(src as i32),
            tag: Some(tag),
        };
        let (ptr, cap) = (buf.as_mut_ptr(), buf.len());
        // SAFETY: both slices outlive the requests: we wait for both before returning.
        let rreq = self
            .progress
            .locked(|e| unsafe { e.p2p.recv(pat, ptr, cap) });
        let sent = unsafe { self.start_send_bytes(ctx, comm, dst, tag, data) };
        let st = self.wait(rreq);
        if let SendStart::Pending(req) = sent {
            self.wait(req);
        }
        check_coll_size(&st, cap)
    }
}

/// `World::wait_slot`'s test: None while the request in `slot` is pending; then its status
/// and owner (None: no request there).
#[inline(always)]
pub fn slot_ready(e: &mut ProgressState, slot: u32) -> Option<Option<(Status, Owner)>> {
    match e.p2p.slot_id(slot).map(|req| e.p2p.take_done(req)) {
        None | Some(Taken::Gone) => Some(None),
        Some(Taken::Pending) => None,
        Some(Taken::Done(st, owner)) => Some(Some((st, owner))),
    }
}

/// What a receive or probe on `comm` asks for (None: wildcard).
fn pattern(comm: &Communicator, src: Option<usize>, tag: Option<i32>) -> Pattern {
    Pattern {
        ctx: comm.ctx,
        src: src.map(|s| s as i32),
        tag,
    }
}

fn check_coll_size(st: &Status, want: usize) -> Result<()> {
    if st.truncated() || st.count != want {
        return mpi_err!(
            Truncate,
            "collective message of unexpected size ({}, expected {want} bytes): \
             are the ranks calling the same collective with matching counts?",
            st.message_len()
        );
    }
    Ok(())
}

/// Windows synchronize over their own duplicate communicator and, while they wait on
/// another rank's atomics (a lock, a post), keep everything else moving.
impl crate::rma::RmaHost for World {
    fn dup_comm(&self, comm: &Communicator) -> Result<Arc<Communicator>> {
        // Every member sees the others' job the same way, so all refuse alike, before any
        // message.
        if comm.group.members.iter().any(|&m| m >= self.size) {
            return mpi_err!(
                UnsupportedOperation,
                "windows spanning processes of another job (joined by MPI_Comm_accept, \
                 MPI_Comm_connect or MPI_Comm_join) are not offered: the rail between the \
                 jobs keys no window memory"
            );
        }
        self.comm_dup(comm)
    }

    fn idle(&self) {
        self.progress.with(|_| ());
        // Peers' requests to our helper are served here rather than by waking it (as in
        // `Progress::wait`): two ranks waiting on each other's atomics answer each other.
        if crate::rma::helper_serve_waiting() == 0 {
            crate::sys::cpu::yield_now();
        }
    }

    unsafe fn post_transfer(&self, t: &Transfer<'_>) -> std::result::Result<u64, RailError> {
        // SAFETY: the caller's contract.
        self.progress.locked(|e| unsafe { e.post_rma(t) })
    }

    fn transfer_done(&self, token: u64, fresh: bool) -> std::result::Result<(), RailError> {
        let ready = |e: &mut ProgressState| e.take_rma(token);
        let done = if fresh {
            self.progress.poll_until(ready)
        } else {
            self.progress.wait(ready)
        };
        done.result.map(|_| ())
    }

    fn key_slot(&self, peer: usize) -> usize {
        self.key_slots.get(peer).map_or(0, |k| k.slot)
    }

    fn local_keys(&self, peer: usize, op: RdmaOp, len: usize) -> bool {
        self.key_slots.get(peer).is_some_and(|k| match op {
            RdmaOp::Write => len > k.write,
            RdmaOp::Read => len > k.read,
        })
    }

    fn atomic(
        &self,
        op: crate::fabric::AtomicOp,
        peer: usize,
        remote: u64,
        rkeys: &RemoteKeys,
    ) -> std::result::Result<u64, RailError> {
        let token = self
            .progress
            .locked(|e| e.post_rma_atomic(peer, op, remote, rkeys))?;
        self.progress.wait(|e| e.take_rma(token)).result
    }

    fn maps(&self, peer: usize) -> bool {
        peer == self.rank || self.progress.locked(|e| e.channels.maps(peer))
    }

    fn node(&self) -> u32 {
        super::comms::node_color(&self.processor_name) as u32
    }

    fn registration(
        &self,
    ) -> Option<(
        &crate::registration::Registry,
        crate::registration::RegPolicy,
    )> {
        self.registry.as_ref().map(|r| (r, self.config.reg_policy))
    }

    fn services(&self) -> Option<&Arc<ServiceChannels>> {
        self.services.as_ref()
    }

    fn rma_settings(&self) -> crate::rma::RmaSettings {
        crate::rma::RmaSettings {
            helper_atomics: self.config.rma_helper_atomics,
            helper_transfers: self.config.rma_helper_transfers,
            async_min: self.config.rma_async_min,
            stats: self.config.stats,
        }
    }
}
