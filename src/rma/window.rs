//! Windows: creation in the four flavors, what each rank knows of every target, and the
//! synchronization calls (fence, post/start/complete/wait, lock/unlock, flush).
//!
//! Creation is collective over a private duplicate of the communicator. Every rank makes a
//! control block (`control.rs`) in anonymous shared memory; ranks whose rail maps each
//! other's memory (one host) map each other's blocks, so locks and PSCW counters are CPU
//! atomics that need nothing from the target, and the others reach the block under its key
//! with rail atomics, which the owner's rail applies without the owner either. Memory the
//! library allocates (`MPI_Win_allocate`, `MPI_Win_allocate_shared`) is shared memory too,
//! mapped by the ranks of the host: a put or get into it is a plain copy, an accumulate a
//! CPU operation under the accumulate lock. Memory the application brings
//! (`MPI_Win_create`, attached regions of dynamic windows), and allocated memory on
//! another host, is registered and reached by rail reads and writes posted on the channel
//! under the key its record or region table publishes.

use super::control::{self, Control, Region, RemoteControl, TargetControl};
use super::epoch::{Epochs, LockKind};
use super::helper::{self, Desc, Exposed, Kind};
use super::host::{rail_err, RmaHost, RmaSettings};
use crate::channel::service::ServiceChannels;
use crate::coll;
use crate::comm::Communicator;
use crate::error::{Error, ErrorClass, Result};
use crate::fabric::mapped::MappedRegion;
use crate::fabric::service::ANSWER;
use crate::fabric::{RailError, RemoteKey, RemoteKeys, Transfer};
use crate::registration::{Access, Mode, RegPolicy, Registration, Registry};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    Create,
    Allocate,
    Shared,
    Dynamic,
}

impl Flavor {
    /// MPI_WIN_CREATE_FLAVOR's value: MPICH's MPI_WIN_FLAVOR_* (the binding asserts it).
    pub const fn code(self) -> i32 {
        match self {
            Flavor::Create => 1,
            Flavor::Allocate => 2,
            Flavor::Dynamic => 3,
            Flavor::Shared => 4,
        }
    }
}

/// MPI_WIN_MODEL's value: MPICH's MPI_WIN_UNIFIED (every window's memory is one copy).
pub const MODEL_UNIFIED: i32 = 2;

/// A window's predefined attribute (MPI-4.1 §12.2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribute {
    Base,
    Size,
    DispUnit,
    CreateFlavor,
    Model,
}

/// The values of a window's predefined attributes. MPI_Win_get_attr hands out the base
/// address itself and, for the others, a pointer to the value here: it lives as long as
/// the window.
#[derive(Debug)]
pub struct Attributes {
    base: usize,
    size: isize,
    disp_unit: i32,
    flavor: i32,
    model: i32,
}

impl Attributes {
    /// `base` is the address MPI_Win_create was given (reported as it is), or the memory
    /// the window allocated.
    pub fn new(flavor: Flavor, base: usize, size: usize, disp_unit: usize) -> Self {
        Attributes {
            base,
            size: size as isize,
            disp_unit: disp_unit as i32,
            flavor: flavor.code(),
            model: MODEL_UNIFIED,
        }
    }

    /// The attribute's value as MPI_Win_get_attr gives it (an address).
    pub fn value(&self, a: Attribute) -> usize {
        match a {
            Attribute::Base => self.base,
            Attribute::Size => &self.size as *const isize as usize,
            Attribute::DispUnit => &self.disp_unit as *const i32 as usize,
            Attribute::CreateFlavor => &self.flavor as *const i32 as usize,
            Attribute::Model => &self.model as *const i32 as usize,
        }
    }
}

/// How this process reaches a target's window memory.
#[derive(Clone, Copy, Debug)]
pub enum Reach {
    /// Mapped here: loads, stores and CPU atomics at `base`.
    Mapped { base: usize },
    /// In world rank `peer`'s address space at `base`, under its keys `rkey` (one per
    /// domain slot): posted rail reads and writes.
    Remote {
        peer: usize,
        base: u64,
        rkey: RemoteKeys,
    },
    /// A dynamic window of world rank `peer`: displacements are addresses there, which
    /// must fall in a region it attached (checked against its control block's table, which
    /// also holds the region's key).
    Dynamic { peer: usize },
}

/// What this rank knows of one target.
pub struct Target {
    pub size: u64,
    pub disp_unit: u64,
    pub reach: Reach,
    /// Every rank maps this memory (library-allocated windows), so accumulates may use
    /// CPU atomics on it. Elsewhere the owner's helper applies remote ones under the
    /// accumulate lock, so the owner must take that lock too, even on its own memory.
    pub native_atomics: bool,
    pub ctrl: TargetControl,
    /// The target's helper's name for this window (in requests to it).
    pub helper_window: u64,
}

/// One exchanged description of a rank's part of a window (fixed size on the wire).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Record {
    pid: i32,
    ctrl_fd: i32,
    data_fd: i32,
    base: u64,
    size: u64,
    disp_unit: u64,
    /// Shared flavor: where this rank's part begins in rank 0's segment.
    offset: u64,
    /// The keys peers reach this part with over the rails (`Create`, `Allocate`), one per
    /// domain slot: each peer takes the slot of the rail that reaches us.
    rkey: RemoteKeys,
    /// What this process's RMA helper calls the window.
    helper_window: u64,
    /// The control block, for peers that reach it under `ctrl_rkey` (another host).
    ctrl_base: u64,
    ctrl_rkey: RemoteKeys,
    /// The node of the process (`RmaHost::node`).
    node: u32,
}

const RECORD: usize = 64 + 2 * RemoteKeys::LEN;

impl Record {
    fn encode(&self) -> [u8; RECORD] {
        let mut b = [0u8; RECORD];
        b[0..4].copy_from_slice(&self.pid.to_le_bytes());
        b[4..8].copy_from_slice(&self.ctrl_fd.to_le_bytes());
        b[8..12].copy_from_slice(&self.data_fd.to_le_bytes());
        b[12..20].copy_from_slice(&self.base.to_le_bytes());
        b[20..28].copy_from_slice(&self.size.to_le_bytes());
        b[28..36].copy_from_slice(&self.disp_unit.to_le_bytes());
        b[36..44].copy_from_slice(&self.offset.to_le_bytes());
        b[44..48].copy_from_slice(&self.node.to_le_bytes());
        b[48..56].copy_from_slice(&self.helper_window.to_le_bytes());
        b[56..64].copy_from_slice(&self.ctrl_base.to_le_bytes());
        b[64..64 + RemoteKeys::LEN].copy_from_slice(&self.rkey.encode());
        b[64 + RemoteKeys::LEN..].copy_from_slice(&self.ctrl_rkey.encode());
        b
    }

    fn decode(b: &[u8]) -> Record {
        let i = |r: std::ops::Range<usize>| i32::from_le_bytes(b[r].try_into().unwrap());
        let u = |r: std::ops::Range<usize>| u64::from_le_bytes(b[r].try_into().unwrap());
        Record {
            pid: i(0..4),
            ctrl_fd: i(4..8),
            data_fd: i(8..12),
            base: u(12..20),
            size: u(20..28),
            disp_unit: u(28..36),
            offset: u(36..44),
            node: u32::from_le_bytes(b[44..48].try_into().unwrap()),
            helper_window: u(48..56),
            ctrl_base: u(56..64),
            rkey: RemoteKeys::decode(&b[64..64 + RemoteKeys::LEN]),
            ctrl_rkey: RemoteKeys::decode(&b[64 + RemoteKeys::LEN..RECORD]),
        }
    }
}

/// Puts and gets this process posted on the rails, and the most that were in flight at
/// once in one window (counted under RAILMPI_STATS only).
static TRANSFERS_POSTED: AtomicU64 = AtomicU64::new(0);
static TRANSFERS_PEAK: AtomicU64 = AtomicU64::new(0);

/// (posted, most in flight at once) of this process's rail puts and gets.
pub fn transfer_stats() -> (u64, u64) {
    (
        TRANSFERS_POSTED.load(Ordering::Relaxed),
        TRANSFERS_PEAK.load(Ordering::Relaxed),
    )
}

/// A put or get on the rails, waiting for its completion.
struct PostedTransfer {
    target: usize,
    token: u64,
    /// The origin buffer's registration, where the rail names local memory by its keys
    /// (boxed: a small put or get has none, and the list's entries move at each post and
    /// flush).
    _reg: Option<Box<Registration>>,
}

/// Passive-target state of this rank as an origin: which locks it holds.
struct Held {
    /// Per target: the lock word hold we took (None with MPI_MODE_NOCHECK).
    locks: Vec<Option<LockKind>>,
    lock_all_taken: bool,
}

pub struct Window {
    /// The window's private communicator (a duplicate of the one it was made on).
    pub comm: Arc<Communicator>,
    pub settings: RmaSettings,
    /// What our helper serves of this window (None for a process alone, which has no
    /// peer to serve).
    exposed: Option<Arc<Exposed>>,
    /// The process's service queues, which carry requests to targets' helpers.
    services: Option<Arc<ServiceChannels>>,
    /// Per target: the ticket of the last request we queued at its helper (read without
    /// a lock by every flush: `drain_helper`).
    posted: Vec<AtomicU64>,
    /// Held while a request is queued: tickets go into `posted` in queueing order.
    queueing: Mutex<()>,
    /// Registrations of our memory that queued requests name, kept until served.
    in_flight: Mutex<Vec<(usize, u64, Registration)>>,
    /// Puts and gets posted on the rails and not yet waited for: they complete at the next
    /// flush, unlock, fence or complete naming their target (MPI allows no earlier use of
    /// the origin buffer), so an epoch's operations are all in flight together.
    transfers: Mutex<Vec<PostedTransfer>>,
    /// How many `transfers` holds (written under its lock): a flush with nothing posted,
    /// the latency path of a put copied in place, returns without taking the lock.
    transfers_len: AtomicUsize,
    pub flavor: Flavor,
    /// What MPI_Win_get_attr reports of the window.
    pub attributes: Attributes,
    /// This rank's part: base address (0 for a dynamic window), bytes, displacement unit.
    pub base: usize,
    pub size: usize,
    pub disp_unit: usize,
    targets: Vec<Target>,
    /// Our control block (also `targets[rank].ctrl`).
    own: Control,
    /// Shared memory mapped for the window's data (kept alive with it).
    _data: Vec<Arc<MappedRegion>>,
    pub epochs: Mutex<Epochs>,
    /// Per target: a passive-target epoch (lock or lock_all) is open — what `epochs` says,
    /// mirrored so that the latency path checks it without taking the lock.
    passive: Vec<std::sync::atomic::AtomicBool>,
    held: Mutex<Held>,
    /// PSCW: posts and completes consumed so far, per rank.
    posts_seen: Mutex<Vec<u64>>,
    completes_seen: Mutex<Vec<u64>>,
    /// Dynamic windows: the regions attached here, each with the registration that keys it
    /// (dropped at its detach).
    attached: Mutex<Vec<(Region, Option<Registration>)>>,
    /// Our window memory registered under `RAILMPI_REG_MODE`
    /// (Li 2016 §VI), with the policy; odp-optimal prefetches it at the first
    /// synchronization that exposes it (fence, post) rather than at creation.
    regs: Mutex<Vec<Registration>>,
    policy: Option<RegPolicy>,
    exposed_once: std::sync::atomic::AtomicBool,
}

// SAFETY: the raw addresses in `Reach` point into mappings the window holds (`_data`,
// control blocks) or into other processes; access is coordinated by MPI's epochs.
unsafe impl Send for Window {}
unsafe impl Sync for Window {}

fn win_err(msg: impl Into<String>) -> Error {
    Error::new(ErrorClass::Win, msg)
}

fn os_err(what: &str, e: std::io::Error) -> Error {
    Error::new(ErrorClass::NoMem, format!("{what}: {e}"))
}

impl Window {
    /// Make a window (collective over `comm`). `base`/`size` describe the application's
    /// memory for `Create`; for `Allocate`/`Shared` the window allocates `size` bytes, and
    /// `base` is ignored; `Dynamic` has neither.
    pub fn new(
        host: &dyn RmaHost,
        comm: &Communicator,
        flavor: Flavor,
        base: usize,
        size: usize,
        disp_unit: usize,
    ) -> Result<Window> {
        let wcomm = host.dup_comm(comm)?;
        let (n, me) = (wcomm.size(), wcomm.rank);
        let pid = std::process::id() as i32;
        let helper = host
            .services()
            .map(helper::helper)
            .transpose()
            .map_err(|e| os_err("starting the RMA helper thread", e))?;
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let helper_window = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let own_mem = Arc::new(
            MappedRegion::create("railmpi-win-control", control::size(n))
                .map_err(|e| os_err("window control block", e))?,
        );
        let own = Control::new(own_mem.clone(), n).expect("sized for n");
        let mut data: Vec<Arc<MappedRegion>> = Vec::new();
        let size = if flavor == Flavor::Dynamic { 0 } else { size };
        let mut mine = Record {
            pid,
            ctrl_fd: own_mem.fd().expect("ours"),
            data_fd: -1,
            base: base as u64,
            size: size as u64,
            disp_unit: disp_unit as u64,
            offset: 0,
            rkey: RemoteKeys::NONE,
            helper_window,
            ctrl_base: own_mem.as_ptr() as u64,
            ctrl_rkey: RemoteKeys::NONE,
            node: host.node(),
        };
        // Which targets this process maps (their rail reaches them by loads and stores);
        // the others are reached under keys, which our record must then carry too.
        let maps: Vec<bool> = (0..n)
            .map(|r| r == me || host.maps(wcomm.world_rank(r)))
            .collect();
        if flavor == Flavor::Allocate {
            let m = Arc::new(
                MappedRegion::create("railmpi-win", size)
                    .map_err(|e| os_err("MPI_Win_allocate", e))?,
            );
            mine.data_fd = m.fd().expect("ours");
            mine.base = m.as_ptr() as u64;
            data.push(m);
        }
        // Our part is registered before the exchange: its key travels in the record.
        let mut regs = Vec::new();
        if let (Some((registry, p)), false) = (host.registration(), maps.iter().all(|&m| m)) {
            if let Some(r) = register(registry, p, own_mem.as_ptr() as usize, own_mem.len()) {
                mine.ctrl_rkey = r.keys().remotes();
                regs.push(r);
            }
        }
        if let (Some((registry, p)), true) = (
            host.registration(),
            size > 0 && matches!(flavor, Flavor::Create | Flavor::Allocate),
        ) {
            if let Some(r) = register(registry, p, mine.base as usize, size) {
                mine.rkey = r.keys().remotes();
                regs.push(r);
            }
        }
        let mut all = exchange(host, &wcomm, &mine)?;
        if flavor == Flavor::Shared && all.iter().any(|r| r.node != all[0].node) {
            // Every rank sees the same records, so all of them refuse alike.
            return Err(Error::new(
                ErrorClass::RmaShared,
                "MPI_Win_allocate_shared: the communicator spans several hosts, which \
                 cannot share memory (split it with MPI_COMM_TYPE_SHARED first)",
            ));
        }
        if flavor == Flavor::Shared {
            // One segment, the parts in rank order, back to back (contiguous, as MPI
            // requires unless `alloc_shared_noncontig` is given).
            let mut off = 0u64;
            for r in all.iter_mut() {
                r.offset = off;
                off += r.size;
            }
            let mut fd = [0u8; 4];
            let seg = if me == 0 {
                let m = Arc::new(
                    MappedRegion::create("railmpi-win-shared", off as usize)
                        .map_err(|e| os_err("MPI_Win_allocate_shared", e))?,
                );
                fd = m.fd().expect("ours").to_le_bytes();
                Some(m)
            } else {
                None
            };
            coll::direct::bcast(host, &wcomm, coll::TAG_RUNTIME_ALLGATHER, &mut fd, 0)?;
            let seg = match seg {
                Some(m) => m,
                None => Arc::new(
                    MappedRegion::open(all[0].pid, i32::from_le_bytes(fd), off as usize).map_err(
                        |e| {
                            crate::runtime::lifetime::exit_if_ended(all[0].pid);
                            os_err("mapping the shared window", e)
                        },
                    )?,
                ),
            };
            for r in all.iter_mut() {
                r.base = seg.as_ptr() as u64 + r.offset;
            }
            data.push(seg);
        }
        let mut targets = Vec::with_capacity(n);
        for (r, rec) in all.iter().enumerate() {
            // A shared window's ranks are all on this host (checked above).
            let mapped = maps[r] || flavor == Flavor::Shared;
            let ctrl = if r == me {
                TargetControl::Mapped(own.clone())
            } else if mapped {
                let m =
                    MappedRegion::open(rec.pid, rec.ctrl_fd, control::size(n)).map_err(|e| {
                        crate::runtime::lifetime::exit_if_ended(rec.pid);
                        os_err("mapping a window control block", e)
                    })?;
                TargetControl::Mapped(
                    Control::new(Arc::new(m), n)
                        .ok_or_else(|| win_err("a peer's window control block is too small"))?,
                )
            } else {
                TargetControl::Remote(RemoteControl::new(
                    wcomm.world_rank(r),
                    rec.ctrl_base,
                    rec.ctrl_rkey,
                    n,
                ))
            };
            let reach = match flavor {
                Flavor::Allocate if r == me => Reach::Mapped {
                    base: rec.base as usize,
                },
                Flavor::Allocate if !mapped => Reach::Remote {
                    peer: wcomm.world_rank(r),
                    base: rec.base,
                    rkey: rec.rkey,
                },
                Flavor::Allocate => {
                    let m = Arc::new(
                        MappedRegion::open(rec.pid, rec.data_fd, rec.size as usize).map_err(
                            |e| {
                                crate::runtime::lifetime::exit_if_ended(rec.pid);
                                os_err("mapping a peer's window", e)
                            },
                        )?,
                    );
                    let base = m.as_ptr() as usize;
                    data.push(m);
                    Reach::Mapped { base }
                }
                Flavor::Shared => Reach::Mapped {
                    base: rec.base as usize,
                },
                Flavor::Create if r == me => Reach::Mapped {
                    base: rec.base as usize,
                },
                Flavor::Create => Reach::Remote {
                    peer: wcomm.world_rank(r),
                    base: rec.base,
                    rkey: rec.rkey,
                },
                Flavor::Dynamic => Reach::Dynamic {
                    peer: wcomm.world_rank(r),
                },
            };
            targets.push(Target {
                size: rec.size,
                disp_unit: rec.disp_unit.max(1),
                native_atomics: mapped && matches!(flavor, Flavor::Allocate | Flavor::Shared),
                reach,
                ctrl,
                helper_window: rec.helper_window,
            });
        }
        let my_base = match targets[me].reach {
            Reach::Mapped { base } => base,
            _ => 0,
        };
        let exposed = helper.map(|h| {
            let e = Arc::new(Exposed::new(
                helper_window,
                own.clone(),
                my_base,
                size as u64,
                flavor == Flavor::Dynamic,
                (0..n).map(|r| wcomm.world_rank(r)).collect(),
            ));
            h.expose(e.clone());
            e
        });
        if n > 1 {
            // No peer may post a request to our helper before it knows the window: a
            // peer leaves the record exchange above as soon as it has every record, which
            // can be before we get here.
            coll::direct::barrier(host, &wcomm, coll::TAG_RUNTIME_BARRIER, false)?;
        }
        let policy = host.registration().map(|(_, p)| p);
        // A shared window's part is known only now (the segment is laid out above).
        if let (Some((registry, p)), Flavor::Shared, true) = (host.registration(), flavor, size > 0)
        {
            regs.extend(register(registry, p, my_base, size));
        }
        Ok(Window {
            regs: Mutex::new(regs),
            policy,
            exposed_once: Default::default(),
            comm: wcomm,
            settings: host.rma_settings(),
            exposed,
            services: host.services().cloned(),
            posted: (0..n).map(|_| AtomicU64::new(0)).collect(),
            queueing: Mutex::new(()),
            in_flight: Mutex::new(Vec::new()),
            transfers: Mutex::new(Vec::new()),
            transfers_len: AtomicUsize::new(0),
            flavor,
            attributes: Attributes::new(
                flavor,
                if flavor == Flavor::Create {
                    base
                } else {
                    my_base
                },
                size,
                disp_unit,
            ),
            base: my_base,
            size,
            disp_unit,
            targets,
            own,
            _data: data,
            epochs: Mutex::new(Epochs::new(n)),
            passive: (0..n).map(|_| Default::default()).collect(),
            held: Mutex::new(Held {
                locks: vec![None; n],
                lock_all_taken: false,
            }),
            posts_seen: Mutex::new(vec![0; n]),
            completes_seen: Mutex::new(vec![0; n]),
            attached: Mutex::new(Vec::new()),
        })
    }

    pub fn target(&self, rank: usize) -> Result<&Target> {
        self.targets
            .get(rank)
            .ok_or_else(|| Error::new(ErrorClass::Rank, format!("no rank {rank} in the window")))
    }

    pub fn ranks(&self) -> usize {
        self.targets.len()
    }

    /// MPI_Win_shared_query: (size, disp_unit, address here) of `rank`'s part, for windows
    /// whose memory this process maps.
    /// `rank` None (MPI_PROC_NULL): the lowest rank whose part is not empty.
    pub fn shared_query(&self, rank: Option<usize>) -> Result<(u64, u64, usize)> {
        let rank = match rank {
            Some(r) => r,
            None => match self.targets.iter().position(|t| t.size > 0) {
                Some(r) => r,
                None => return Ok((0, self.targets[0].disp_unit, 0)),
            },
        };
        let t = self.target(rank)?;
        match (self.flavor, t.reach) {
            (Flavor::Shared, Reach::Mapped { base }) => Ok((t.size, t.disp_unit, base)),
            // MPI-4.1 §12.2.3: on a window of another flavor (but dynamic) the query is
            // allowed; no part of one is mapped here for loads and stores: size 0, NULL.
            (Flavor::Create | Flavor::Allocate, _) => Ok((0, t.disp_unit, 0)),
            _ => Err(Error::new(
                ErrorClass::RmaFlavor,
                "MPI_Win_shared_query on a dynamic window",
            )),
        }
    }

    // ------------------------------------------------------------ dynamic windows

    /// MPI_Win_attach: `[addr, addr+len)` becomes reachable — registered, and published
    /// with its key in our control block; it must not overlap a region attached already.
    pub fn attach(&self, host: &dyn RmaHost, addr: u64, len: u64) -> Result<()> {
        if self.flavor != Flavor::Dynamic {
            return Err(Error::new(
                ErrorClass::RmaFlavor,
                "MPI_Win_attach needs a window from MPI_Win_create_dynamic",
            ));
        }
        let end = addr
            .checked_add(len)
            .ok_or_else(|| Error::new(ErrorClass::Arg, "region past the address space"))?;
        let mut regions = self.attached.lock();
        if regions
            .iter()
            .any(|(r, _)| addr < r.addr + r.len && r.addr < end)
        {
            return Err(Error::new(
                ErrorClass::RmaAttach,
                format!("region {addr:#x}+{len} overlaps an attached region"),
            ));
        }
        if regions.len() >= control::MAX_REGIONS {
            return Err(Error::new(
                ErrorClass::RmaAttach,
                format!("more than {} regions attached", control::MAX_REGIONS),
            ));
        }
        if len > 0 {
            let reg = host
                .registration()
                .and_then(|(registry, p)| register(registry, p, addr as usize, len as usize));
            let rkeys = reg
                .as_ref()
                .map_or(RemoteKeys::NONE, |r| r.keys().remotes());
            regions.push((Region { addr, len, rkeys }, reg));
        }
        self.publish_regions(&regions);
        Ok(())
    }

    /// odp-optimal: fault our window memory in at the first synchronization that exposes
    /// it to others (Li 2016 §VI), overlapped with the peers' side of that call.
    fn prefetch_exposed(&self, host: &dyn RmaHost) {
        if self.policy != Some(RegPolicy::OdpOptimal)
            || self.exposed_once.swap(true, Ordering::Relaxed)
        {
            return;
        }
        if let Some((registry, _)) = host.registration() {
            let regs = self.regs.lock();
            let attached = self.attached.lock();
            let all = regs
                .iter()
                .chain(attached.iter().filter_map(|(_, r)| r.as_ref()));
            for r in all.filter(|r| r.is_fresh()) {
                let _ = registry.prefetch(r.addr(), r.len(), Access::Write);
            }
        }
    }

    /// odp-optimal: a get's local buffer, faulted in while the target's helper works —
    /// if it is fresh memory: a buffer the cache knows is in place already (prefetching
    /// resident pages walks them all, which a 4 MiB Rget's overlap could not hide).
    pub(crate) fn prefetch_local(&self, host: &dyn RmaHost, addr: usize, len: usize) {
        if self.policy != Some(RegPolicy::OdpOptimal) {
            return;
        }
        if let Some((registry, p)) = host.registration() {
            if let Ok(r) = registry.register(addr, len, p.mode()) {
                if r.is_fresh() {
                    let _ = registry.prefetch(addr, len, Access::Write);
                }
            }
        }
    }

    /// MPI_Win_detach of the region attached at `addr`.
    pub fn detach(&self, addr: u64) -> Result<()> {
        if self.flavor != Flavor::Dynamic {
            return Err(Error::new(
                ErrorClass::RmaFlavor,
                "MPI_Win_detach needs a window from MPI_Win_create_dynamic",
            ));
        }
        let mut regions = self.attached.lock();
        let Some(i) = regions.iter().position(|(r, _)| r.addr == addr) else {
            return Err(Error::new(
                ErrorClass::RmaAttach,
                format!("no region attached at {addr:#x}"),
            ));
        };
        let (_, reg) = regions.remove(i);
        self.publish_regions(&regions);
        // Its registration goes with it, unpublished first: no peer finds the key now.
        drop(reg);
        Ok(())
    }

    /// Publish the attached regions with their keys in our control block.
    fn publish_regions(&self, regions: &[(Region, Option<Registration>)]) {
        let table: Vec<Region> = regions.iter().map(|(r, _)| *r).collect();
        self.own.set_regions(&table);
    }

    // ------------------------------------------------------------ synchronization

    /// MPI_Win_fence (collective). Once our posted operations completed, a barrier makes
    /// them (and our local stores) visible to all.
    pub fn fence(&self, host: &dyn RmaHost, nosucceed: bool) -> Result<()> {
        self.epochs.lock().fence(nosucceed)?;
        self.drain_all(host)?;
        self.prefetch_exposed(host);
        std::sync::atomic::fence(Ordering::SeqCst);
        coll::direct::barrier(host, &self.comm, coll::TAG_RUNTIME_BARRIER, false)
    }

    /// Wait until `ready` holds, letting the host progress (locks and PSCW signals come
    /// from other processes' atomics, not from messages).
    fn wait_for(&self, host: &dyn RmaHost, mut ready: impl FnMut() -> bool) {
        let _ = self.try_wait_for(host, || Ok(ready()));
    }

    /// `wait_for` on a condition that may fail (a rail atomic on another host's block).
    fn try_wait_for(
        &self,
        host: &dyn RmaHost,
        mut ready: impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        let mut spins = 0u32;
        let mut _polling = None;
        while !ready()? {
            // `host.idle` serves our helper's requests.
            _polling.get_or_insert_with(helper::polling);
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                host.idle();
            }
        }
        Ok(())
    }

    /// A failed rail operation on `target`'s control block, as an MPI error.
    fn ctrl_err(&self, target: usize) -> impl Fn(RailError) -> Error + '_ {
        move |e| {
            Error::new(
                ErrorClass::Other,
                format!(
                    "rank {target}'s window control block (world rank {}): {e}",
                    self.comm.world_rank(target)
                ),
            )
        }
    }

    pub fn lock(
        &self,
        host: &dyn RmaHost,
        kind: LockKind,
        target: usize,
        nocheck: bool,
    ) -> Result<()> {
        let ctrl = &self.target(target)?.ctrl;
        self.epochs.lock().lock(target, kind)?;
        self.passive[target].store(true, Ordering::Relaxed);
        if !nocheck {
            let exclusive = kind == LockKind::Exclusive;
            self.try_wait_for(host, || {
                ctrl.try_lock(host, exclusive)
                    .map_err(self.ctrl_err(target))
            })?;
            self.held.lock().locks[target] = Some(kind);
        }
        Ok(())
    }

    pub fn unlock(&self, host: &dyn RmaHost, target: usize) -> Result<()> {
        self.target(target)?;
        self.epochs.lock().unlock(target)?;
        let settled = self.drain(host, target);
        self.passive[target].store(false, Ordering::Relaxed);
        std::sync::atomic::fence(Ordering::SeqCst);
        if let Some(kind) = self.held.lock().locks[target].take() {
            self.targets[target]
                .ctrl
                .unlock(host, kind == LockKind::Exclusive)
                .map_err(self.ctrl_err(target))?;
        }
        settled
    }

    pub fn lock_all(&self, host: &dyn RmaHost, nocheck: bool) -> Result<()> {
        self.epochs.lock().lock_all()?;
        for p in &self.passive {
            p.store(true, Ordering::Relaxed);
        }
        if !nocheck {
            for (r, t) in self.targets.iter().enumerate() {
                self.try_wait_for(host, || {
                    t.ctrl.try_lock(host, false).map_err(self.ctrl_err(r))
                })?;
            }
            self.held.lock().lock_all_taken = true;
        }
        Ok(())
    }

    pub fn unlock_all(&self, host: &dyn RmaHost) -> Result<()> {
        self.epochs.lock().unlock_all()?;
        let settled = self.drain_all(host);
        for p in &self.passive {
            p.store(false, Ordering::Relaxed);
        }
        std::sync::atomic::fence(Ordering::SeqCst);
        let mut held = self.held.lock();
        if std::mem::take(&mut held.lock_all_taken) {
            for (r, t) in self.targets.iter().enumerate() {
                t.ctrl.unlock(host, false).map_err(self.ctrl_err(r))?;
            }
        }
        settled
    }

    /// MPI_Win_flush / flush_local (a target) or their `_all` forms (None): the puts and
    /// gets posted on the rails and the requests queued at a helper are waited for here
    /// (copies into mapped memory completed when issued).
    pub fn flush(&self, host: &dyn RmaHost, target: Option<usize>) -> Result<()> {
        match target {
            Some(t) => {
                if !self
                    .passive
                    .get(t)
                    .is_some_and(|p| p.load(Ordering::Relaxed))
                {
                    self.target(t)?;
                    self.epochs.lock().flush(t)?;
                }
                self.drain(host, t)
            }
            None => {
                self.epochs.lock().flush_all()?;
                self.drain_all(host)
            }
        }
    }

    /// Target `rank`, if there is one (no error: the latency path's lookup).
    #[inline]
    pub(super) fn targets_get(&self, rank: usize) -> Option<&Target> {
        self.targets.get(rank)
    }

    /// Whether a passive-target epoch (lock or lock_all) is open on `target`.
    #[inline]
    pub(super) fn passive_open(&self, target: usize) -> bool {
        self.passive
            .get(target)
            .is_some_and(|p| p.load(Ordering::Relaxed))
    }

    /// May this rank access `target` now (an RMA communication call; `request_based`:
    /// MPI_Rput and friends, which need a passive-target epoch)? MPI_ERR_RMA_SYNC if not.
    #[inline]
    pub fn check_access(&self, target: usize, request_based: bool) -> Result<()> {
        if self
            .passive
            .get(target)
            .is_some_and(|p| p.load(Ordering::Relaxed))
        {
            return Ok(());
        }
        let mut ep = self.epochs.lock();
        if request_based {
            ep.request_access(target)
        } else {
            ep.access(target).map(|_| ())
        }
    }

    /// MPI_Win_sync: public and private copies are one here (unified model).
    pub fn sync(&self) -> Result<()> {
        self.epochs.lock().flush_all()?;
        std::sync::atomic::fence(Ordering::SeqCst);
        Ok(())
    }

    /// MPI_Win_post: expose our window to `group` (comm ranks).
    pub fn post(&self, host: &dyn RmaHost, group: Vec<usize>) -> Result<()> {
        for &o in &group {
            self.target(o)?;
        }
        self.epochs.lock().post(group.clone())?;
        self.prefetch_exposed(host);
        std::sync::atomic::fence(Ordering::SeqCst);
        let me = self.comm.rank;
        for o in group {
            self.targets[o]
                .ctrl
                .signal_post(host, me)
                .map_err(self.ctrl_err(o))?;
        }
        Ok(())
    }

    /// MPI_Win_start: access `group`'s windows once each has posted (unless NOCHECK).
    pub fn start(&self, host: &dyn RmaHost, group: Vec<usize>, nocheck: bool) -> Result<()> {
        for &t in &group {
            self.target(t)?;
        }
        self.epochs.lock().start(group.clone())?;
        if !nocheck {
            let mut seen = self.posts_seen.lock();
            for t in group {
                let want = seen[t].wrapping_add(1);
                self.wait_for(host, || {
                    self.own.posts(t).load(Ordering::Acquire).wrapping_sub(want) as i64 >= 0
                });
                seen[t] = want;
            }
        }
        Ok(())
    }

    /// MPI_Win_complete: tell every target of the access epoch we are done.
    pub fn complete(&self, host: &dyn RmaHost) -> Result<()> {
        let group = self.epochs.lock().complete()?;
        let mut settled = Ok(());
        for &t in &group {
            let r = self.drain(host, t);
            if settled.is_ok() {
                settled = r;
            }
        }
        std::sync::atomic::fence(Ordering::SeqCst);
        let me = self.comm.rank;
        for t in group {
            self.targets[t]
                .ctrl
                .signal_complete(host, me)
                .map_err(self.ctrl_err(t))?;
        }
        settled
    }

    /// MPI_Win_wait (`block`) or MPI_Win_test: has every origin of the exposure completed?
    pub fn wait(&self, host: &dyn RmaHost, block: bool) -> Result<bool> {
        let group = self.epochs.lock().exposure()?.to_vec();
        let mut seen = self.completes_seen.lock();
        let done = |o: usize| {
            self.own
                .completes(o)
                .load(Ordering::Acquire)
                .wrapping_sub(seen[o].wrapping_add(1)) as i64
                >= 0
        };
        if block {
            for &o in &group {
                self.wait_for(host, || done(o));
            }
        } else if !group.iter().all(|&o| done(o)) {
            return Ok(false);
        }
        for &o in &group {
            seen[o] = seen[o].wrapping_add(1);
        }
        self.epochs.lock().end_exposure();
        std::sync::atomic::fence(Ordering::SeqCst);
        Ok(true)
    }

    /// MPI_Win_free (collective): no epoch may be open; everyone is done with everyone's
    /// memory when the barrier returns.
    pub fn free(&self, host: &dyn RmaHost) -> Result<()> {
        self.epochs.lock().free()?;
        coll::direct::barrier(host, &self.comm, coll::TAG_RUNTIME_BARRIER, false)?;
        if let (Some(h), Some(e)) = (helper::started(), &self.exposed) {
            h.withdraw(e.id);
        }
        Ok(())
    }

    /// Have `target`'s helper run `d` and wait until it has (the bytes `d` names in our
    /// memory must stay put until then, which waiting here guarantees).
    pub(crate) fn helper_call(&self, host: &dyn RmaHost, target: usize, d: Desc) -> Result<()> {
        let ticket = self.helper_post(host, target, d)?;
        self.wait_for(host, || self.helper_done(target, ticket));
        self.release_served();
        Ok(())
    }

    /// Whether `target`'s helper answers an inline request (`Desc::inline`) with the old
    /// value.
    pub(crate) fn helper_answers(&self, target: usize) -> bool {
        self.services
            .as_ref()
            .is_some_and(|s| s.answers(self.comm.world_rank(target)))
    }

    /// `helper_call` for an inline request (`helper_answers`): the value it fetched.
    pub(crate) fn helper_fetch(
        &self,
        host: &dyn RmaHost,
        target: usize,
        d: Desc,
    ) -> Result<[u8; ANSWER]> {
        debug_assert!(d.inline);
        let ticket = self.helper_post(host, target, d)?;
        self.wait_for(host, || self.helper_done(target, ticket));
        self.release_served();
        self.services
            .as_ref()
            .and_then(|s| s.answer(self.comm.world_rank(target), ticket))
            .ok_or_else(|| {
                Error::new(
                    ErrorClass::RmaRange,
                    format!("rank {target}'s RMA helper refused the operation (its log says why)"),
                )
            })
    }

    /// Queue `d` at `target`'s helper on the service queue; returns its ticket
    /// (`helper_done`). The memory `d` names here is registered for the helper to reach
    /// (its keys go in the request) and must stay put until the request is served.
    pub(crate) fn helper_post(
        &self,
        host: &dyn RmaHost,
        target: usize,
        mut d: Desc,
    ) -> Result<u64> {
        let t = self.target(target)?;
        let services = self
            .services
            .as_ref()
            .ok_or_else(|| win_err("no service queue reaches the target's helper"))?;
        let peer = self.comm.world_rank(target);
        d.window = t.helper_window;
        let mut regs = Vec::new();
        let mut key = |addr: u64, len: u64| -> Result<RemoteKey> {
            if addr == 0 || len == 0 {
                return Ok(RemoteKey::NONE);
            }
            let (registry, _) = host
                .registration()
                .ok_or_else(|| win_err("no registration layer to key RMA operands with"))?;
            let r = registry
                .register(addr as usize, len as usize, Mode::Odp)
                .map_err(|e| {
                    Error::new(
                        ErrorClass::NoMem,
                        format!("registering an RMA operand: {e}"),
                    )
                })?;
            let k = r.remote_key(host.key_slot(peer));
            regs.push(r);
            Ok(k)
        };
        if d.kind != Kind::Cas && !d.inline {
            d.data_key = key(d.data, d.len)?;
        }
        d.result_key = key(d.result, d.len)?;
        d.runs_key = key(d.runs, u64::from(d.nruns) * 16)?;
        let raw = d.encode();
        let ticket = {
            let _queueing = self.queueing.lock();
            let mut ticket = None;
            self.wait_for(host, || {
                ticket = services.try_request(peer, &raw);
                ticket.is_some()
            });
            let ticket = ticket.expect("queued");
            self.posted[target].store(ticket, Ordering::Release);
            ticket
        };
        self.in_flight
            .lock()
            .extend(regs.into_iter().map(|r| (target, ticket, r)));
        Ok(ticket)
    }

    /// Whether request `ticket` queued at `target`'s helper is done.
    pub fn helper_done(&self, target: usize, ticket: u64) -> bool {
        ticket == 0
            || self.services.as_ref().is_some_and(|s| {
                target < self.targets.len() && s.served(self.comm.world_rank(target), ticket)
            })
    }

    /// Drop the registrations of requests that were served.
    fn release_served(&self) {
        let mut f = self.in_flight.lock();
        if !f.is_empty() {
            f.retain(|&(t, ticket, _)| !self.helper_done(t, ticket));
        }
    }

    /// Wait for our transfers to `target` and every request queued at its helper
    /// (operations complete at flush, unlock, fence and complete).
    fn drain(&self, host: &dyn RmaHost, target: usize) -> Result<()> {
        let settled = self.settle(host, Some(target));
        self.drain_helper(host, target);
        settled
    }

    fn drain_all(&self, host: &dyn RmaHost) -> Result<()> {
        let settled = self.settle(host, None);
        for t in 0..self.targets.len() {
            self.drain_helper(host, t);
        }
        settled
    }

    /// Wait for the requests queued at `target`'s helper.
    fn drain_helper(&self, host: &dyn RmaHost, target: usize) {
        let upto = self.posted[target].load(Ordering::Acquire);
        if upto == 0 {
            // Nothing ever queued there (the latency path of flush and unlock).
            return;
        }
        self.wait_for(host, || self.helper_done(target, upto));
        self.release_served();
    }

    /// Post transfer `t` with window rank `target` (world rank `t.peer`); it completes at
    /// `settle`. The origin buffer is registered first where the rail names local memory
    /// by keys (cached: the next operation on the same buffer finds it).
    ///
    /// # Safety
    /// The local spans stay valid until `settle` returned for `target`.
    pub(super) unsafe fn post_transfer(
        &self,
        host: &dyn RmaHost,
        target: usize,
        t: &Transfer<'_>,
    ) -> Result<()> {
        let len = t.local.iter().map(|s| s.len as usize).sum();
        let reg = if host.local_keys(t.peer, t.op, len) {
            match (host.registration(), t.local) {
                (Some((registry, _)), [first, ..]) => {
                    let lo = t.local.iter().map(|s| s.addr).min().unwrap_or(first.addr);
                    let hi = t.local.iter().map(|s| s.addr + s.len).max().unwrap_or(lo);
                    registry
                        .register(lo as usize, (hi - lo) as usize, Mode::Odp)
                        .ok()
                        .map(Box::new)
                }
                _ => None,
            }
        } else {
            None
        };
        let lkeys = reg.as_ref().map(|g| *g.keys());
        // Completed at `settle`, which polls first: `defer` (not copied where the caller
        // made it so and there are no keys to add).
        let posted;
        let t = if lkeys.is_some() || !t.defer {
            posted = Transfer {
                lkeys: lkeys.as_ref(),
                defer: true,
                ..*t
            };
            &posted
        } else {
            t
        };
        // SAFETY: the caller's contract.
        let token = unsafe { host.post_transfer(t) }.map_err(|e| rail_err(target, e))?;
        let mut all = self.transfers.lock();
        all.push(PostedTransfer {
            target,
            token,
            _reg: reg,
        });
        self.transfers_len.store(all.len(), Ordering::Release);
        if self.settings.stats {
            TRANSFERS_POSTED.fetch_add(1, Ordering::Relaxed);
            TRANSFERS_PEAK.fetch_max(all.len() as u64, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Wait for the transfers posted to `target` (None: to every target); the first error
    /// among them is the result.
    pub fn settle(&self, host: &dyn RmaHost, target: Option<usize>) -> Result<()> {
        // Posts this thread made are seen (its own stores); so are other threads' that
        // happened before the flush (MPI orders nothing else).
        if self.transfers_len.load(Ordering::Acquire) == 0 {
            return Ok(());
        }
        let mut mine: Vec<PostedTransfer> = {
            let mut all = self.transfers.lock();
            match all.as_slice() {
                [] => return Ok(()),
                // One transfer, to this target (a put or get and its flush): taken alone,
                // the list keeps its room.
                [p] if target.is_none_or(|t| p.target == t) => {
                    let p = all.pop().expect("one there");
                    self.transfers_len.store(0, Ordering::Release);
                    drop(all);
                    return host
                        .transfer_done(p.token, true)
                        .map_err(|e| rail_err(p.target, e));
                }
                _ => {}
            }
            match target {
                Some(t) if !all.iter().all(|p| p.target == t) => {
                    let (m, rest) = std::mem::take(&mut *all)
                        .into_iter()
                        .partition(|p| p.target == t);
                    *all = rest;
                    self.transfers_len.store(all.len(), Ordering::Release);
                    m
                }
                _ => {
                    self.transfers_len.store(0, Ordering::Release);
                    std::mem::take(&mut *all)
                }
            }
        };
        let mut first = Ok(());
        for (i, p) in mine.drain(..).enumerate() {
            // The first wait polls; those after it mostly find their completion taken.
            if let Err(e) = host.transfer_done(p.token, i == 0) {
                if first.is_ok() {
                    first = Err(rail_err(p.target, e));
                }
            }
        }
        // The emptied list goes back (when nothing was posted meanwhile): the next epoch's
        // posts then allocate nothing — a put and its flush are the latency path.
        let mut all = self.transfers.lock();
        if all.is_empty() && all.capacity() < mine.capacity() {
            *all = mine;
        }
        first
    }

    pub fn check_free(&self) -> Result<()> {
        self.epochs.lock().free()
    }
}

/// Register window memory under `policy` (odp-enhanced prefetches at once); a failure
/// leaves it unregistered (nothing on this rail needs it) and is logged.
fn register(
    registry: &Registry,
    policy: RegPolicy,
    addr: usize,
    len: usize,
) -> Option<Registration> {
    // Peers reach the memory only through its key: where the policy's mode cannot have
    // it (pin-down past the locked-memory limit), an ODP registration keys it unpinned.
    let reg = registry
        .register(addr, len, policy.mode())
        .or_else(|_| registry.register(addr, len, Mode::Odp));
    match reg {
        Ok(r) => {
            if policy == RegPolicy::OdpEnhanced && r.is_fresh() {
                let _ = registry.prefetch(addr, len, Access::Write);
            }
            Some(r)
        }
        Err(e) => {
            tracing::warn!("window memory not registered (peers cannot reach it): {e}");
            None
        }
    }
}

/// Allgather every rank's record over the window's communicator.
fn exchange(host: &dyn RmaHost, comm: &Communicator, mine: &Record) -> Result<Vec<Record>> {
    let n = comm.size();
    let mut all = vec![0u8; RECORD * n];
    all[RECORD * comm.rank..RECORD * (comm.rank + 1)].copy_from_slice(&mine.encode());
    coll::direct::allgather(host, comm, coll::TAG_RUNTIME_ALLGATHER, &mut all)?;
    Ok(all.chunks_exact(RECORD).map(Record::decode).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_attributes() {
        let a = Attributes::new(Flavor::Shared, 0x1000, 640, 8);
        assert_eq!(a.value(Attribute::Base), 0x1000);
        // SAFETY: each address is one of `a`'s fields, of the type read.
        unsafe {
            assert_eq!(*(a.value(Attribute::Size) as *const isize), 640);
            assert_eq!(*(a.value(Attribute::DispUnit) as *const i32), 8);
            assert_eq!(*(a.value(Attribute::CreateFlavor) as *const i32), 4);
            assert_eq!(*(a.value(Attribute::Model) as *const i32), MODEL_UNIFIED);
        }
    }

    #[test]
    fn records_round_trip() {
        let r = Record {
            pid: 77,
            ctrl_fd: 5,
            data_fd: -1,
            base: 1 << 44,
            size: 12345,
            disp_unit: 8,
            offset: 640,
            rkey: RemoteKeys([
                RemoteKey(0xfeed_0000_0001),
                RemoteKey(2),
                RemoteKey(3),
                RemoteKey(4),
                RemoteKey(5),
                RemoteKey(6),
            ]),
            helper_window: 1 << 40 | 3,
            ctrl_base: 1 << 45,
            ctrl_rkey: RemoteKeys([
                RemoteKey(0xbeef),
                RemoteKey(0),
                RemoteKey(u64::MAX),
                RemoteKey(0),
                RemoteKey(1),
                RemoteKey(0),
            ]),
            node: 0x7fff_0001,
        };
        assert_eq!(Record::decode(&r.encode()), r);
    }
}
