//! The RMA helper thread: host-assisted one-sided operations (Tipparaju 2004 §4–§5;
//! DESIGN.md §rma). One thread per process serves every window this process exposes: an
//! origin queues a request for it on the channels' service queue (its own queue, apart
//! from point-to-point: Tsai, Penoff, Wagner §IV; `channel::service`); the helper applies
//! the operation to its own memory (window memory the application brought, which other
//! processes cannot load from or store to), moving the origin's operands and results
//! through the service queue's keyed access under the keys of the origin's registrations
//! the request names, and marks the request served. It is how accumulates and atomics
//! reach `MPI_Win_create` and dynamic windows (under the window's accumulate lock, so they
//! are atomic with respect to each other), and, with `RAILMPI_RMA_TRANSFER=helper`, how
//! noncontiguous puts and gets travel (the target scatters or gathers; the origin sends
//! one contiguous stream).
//!
//! The thread sleeps on the service queue's doorbell while there is nothing to do, so an
//! idle target burns no CPU; it never needs the application's thread, so a target that
//! computes still serves.
//!
//! Requests come from other processes: each is decoded with a checked parser, its window
//! must be one this process exposes to the origin, and every offset, length and run table
//! is checked against the window before a byte moves here (the origin's side is checked by
//! its keys).

use super::control::Control;
use crate::channel::service::ServiceChannels;
use crate::datatype::Basic;
use crate::fabric::service::{ANSWER, REQUEST};
use crate::fabric::{RdmaOp, RemoteKey, RemoteKeys, Span, Transfer};
use crate::op::{self as ops, Op};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// What a request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Write the origin's `len` packed bytes at `data` into the target range.
    Put,
    /// Write the target range, packed, to the origin's `result`.
    Get,
    /// `target = op(origin data, target)`; with `result` the old values go there first
    /// (get-accumulate, fetch-and-op).
    Acc,
    /// Compare-and-swap of one value: `data` holds the new value and `compare` the
    /// expected one (inline, little-endian, up to 8 bytes); the old value goes to `result`.
    Cas,
}

/// One request, as laid out in a service queue slot. Origin addresses come with the key
/// of the origin's registration that covers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desc {
    pub kind: Kind,
    pub op: Op,
    pub basic: Basic,
    /// The target's window (its helper's id for it, from the window records).
    pub window: u64,
    /// Byte offset in the window (an address, for a dynamic window).
    pub target: u64,
    /// Bytes at the target.
    pub len: u64,
    /// Origin address of the operand (Cas: the new value, inline).
    pub data: u64,
    pub data_key: RemoteKey,
    /// Origin address for fetched bytes (0: none).
    pub result: u64,
    pub result_key: RemoteKey,
    pub compare: u64,
    /// Origin address of the target run table ((offset, length) u64 pairs relative to
    /// `target`), 0 for one contiguous range.
    pub runs: u64,
    pub runs_key: RemoteKey,
    pub nruns: u32,
    /// A fetching atomic of one value (`len` ≤ 8, one range, no run table): its operand is
    /// inline in `data` (Cas: and `compare`), and the old value comes back as the served
    /// request's answer (`Service::answers`) instead of into the origin's memory — no
    /// transfer either way, so the service thread never waits on the network for it.
    pub inline: bool,
}

const OPS: [Op; 14] = [
    Op::Max,
    Op::Min,
    Op::Sum,
    Op::Prod,
    Op::Land,
    Op::Band,
    Op::Lor,
    Op::Bor,
    Op::Lxor,
    Op::Bxor,
    Op::Maxloc,
    Op::Minloc,
    Op::Replace,
    Op::NoOp,
];

const BASICS: [Basic; 24] = [
    Basic::I8,
    Basic::U8,
    Basic::I16,
    Basic::U16,
    Basic::I32,
    Basic::U32,
    Basic::I64,
    Basic::U64,
    Basic::F32,
    Basic::F64,
    Basic::LongDouble,
    Basic::Bool,
    Basic::C32,
    Basic::C64,
    Basic::CLongDouble,
    Basic::Byte,
    Basic::FloatInt,
    Basic::DoubleInt,
    Basic::LongInt,
    Basic::TwoInt,
    Basic::ShortInt,
    Basic::LongDoubleInt,
    Basic::I128,
    // A padding entry never produced (kept so the table has room to grow).
    Basic::Byte,
];

/// How long an idle helper keeps looking before it sleeps.
const SPIN_BEFORE_SLEEP: Duration = Duration::from_micros(50);

/// Most run-table entries one request may carry.
pub const MAX_RUNS: u32 = 1 << 20;

/// The request's 64-bit words, after the 8-byte head (kind, op, type, run count).
const WORDS: usize = 12;
const _: () = assert!(8 + 8 * WORDS <= REQUEST);

impl Desc {
    pub fn encode(&self) -> [u8; REQUEST] {
        let mut b = [0u8; REQUEST];
        b[0] = match self.kind {
            Kind::Put => 1,
            Kind::Get => 2,
            Kind::Acc => 3,
            Kind::Cas => 4,
        };
        b[1] = OPS.iter().position(|&o| o == self.op).expect("every op") as u8;
        b[2] = BASICS
            .iter()
            .position(|&x| x == self.basic)
            .expect("every basic") as u8;
        b[3] = u8::from(self.inline);
        b[4..8].copy_from_slice(&self.nruns.to_le_bytes());
        let words: [u64; WORDS] = [
            self.window,
            self.target,
            self.len,
            self.data,
            self.data_key.0,
            self.result,
            self.result_key.0,
            self.compare,
            self.runs,
            self.runs_key.0,
            0,
            0,
        ];
        for (i, v) in words.iter().enumerate() {
            b[8 + 8 * i..16 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        b
    }

    /// Checked decode: None for a short request or an unknown kind, op or type.
    pub fn decode(b: &[u8]) -> Option<Desc> {
        let b: &[u8; REQUEST] = b.get(..REQUEST)?.try_into().ok()?;
        let kind = match b[0] {
            1 => Kind::Put,
            2 => Kind::Get,
            3 => Kind::Acc,
            4 => Kind::Cas,
            _ => return None,
        };
        let word = |i: usize| u64::from_le_bytes(b[8 + 8 * i..16 + 8 * i].try_into().unwrap());
        let inline = match b[3] {
            0 => false,
            1 => true,
            _ => return None,
        };
        Some(Desc {
            inline,
            kind,
            op: *OPS.get(b[1] as usize)?,
            basic: *BASICS.get(b[2] as usize)?,
            nruns: u32::from_le_bytes(b[4..8].try_into().unwrap()),
            window: word(0),
            target: word(1),
            len: word(2),
            data: word(3),
            data_key: RemoteKey(word(4)),
            result: word(5),
            result_key: RemoteKey(word(6)),
            compare: word(7),
            runs: word(8),
            runs_key: RemoteKey(word(9)),
        })
    }
}

/// A window as this process exposes it to the helper.
pub struct Exposed {
    pub id: u64,
    /// Our control block (its accumulate lock; a dynamic window's regions).
    pub ctrl: Control,
    /// Where our window memory is here, and how large (dynamic: regions in `ctrl`).
    pub base: usize,
    pub size: u64,
    pub dynamic: bool,
    /// The window's processes as world ranks: only they may ask.
    pub members: Vec<usize>,
    /// Requests rejected as malformed (logged).
    pub rejected: std::sync::atomic::AtomicU64,
}

impl Exposed {
    pub fn new(
        id: u64,
        ctrl: Control,
        base: usize,
        size: u64,
        dynamic: bool,
        members: Vec<usize>,
    ) -> Self {
        Exposed {
            id,
            ctrl,
            base,
            size,
            dynamic,
            members,
            rejected: Default::default(),
        }
    }
}

pub struct Helper {
    services: Arc<ServiceChannels>,
    windows: Mutex<Vec<Arc<Exposed>>>,
    /// Held by the thread serving: the helper, or a thread of ours waiting inside MPI
    /// (`serve_here`). The service queues are served by one thread at a time.
    serving: Mutex<()>,
}

/// Whether this process's helper has requests to serve: a thread of ours that waits in a
/// spin loop (a fence's barrier, say) should then serve them (`serve_here`) or give the
/// helper the core rather than spin — on a machine with as many ranks as cores the helper
/// has no core of its own, and a peer's accumulate would wait for the scheduler (half a
/// millisecond per operation).
pub fn has_work() -> bool {
    match HELPER.get() {
        Some(Ok(h)) => h.services.pending(),
        _ => false,
    }
}

/// Threads of ours inside a wait that serves peers' requests itself (`serve_here`, from
/// `Progress::wait` and the windows' waits). While there are any and the service queues
/// are busy, the helper naps rather than sleep on their completion events: each event
/// would wake a thread and the helper for a message a poller takes anyway (two context
/// switches per `MPI_Fetch_and_op` on each side).
static POLLERS: AtomicUsize = AtomicUsize::new(0);

/// The helper's nap while pollers take the traffic: at most this late is a request served
/// that arrives just as the last poller leaves.
const NAP: Duration = Duration::from_millis(1);

/// A thread polling inside MPI (see `POLLERS`), until dropped.
pub struct Polling(());

impl Drop for Polling {
    fn drop(&mut self) {
        POLLERS.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Count the calling thread as polling and serving (`POLLERS`) until the guard drops; a
/// thread about to sleep drops it first.
pub fn polling() -> Polling {
    POLLERS.fetch_add(1, Ordering::Relaxed);
    Polling(())
}

/// Serve waiting requests in the calling thread, unless another is serving: a thread of
/// ours that waits inside MPI serves peers itself rather than wake the helper — a futex
/// wake and a context switch per request, most of an `MPI_Fetch_and_op`'s latency where
/// the helper has no core of its own. Returns how many.
pub fn serve_here() -> usize {
    match HELPER.get() {
        Some(Ok(h)) => h.try_serve(),
        _ => 0,
    }
}

/// `serve_here` where `has_work` says requests wait: what a waiting thread calls each turn
/// (0: none served, so it may spin, yield or sleep as it would).
pub fn serve_waiting() -> usize {
    if has_work() {
        serve_here()
    } else {
        0
    }
}

static HELPER: OnceLock<std::io::Result<&'static Helper>> = OnceLock::new();

/// The process's helper, started on first use over the process's service queues.
pub fn helper(services: &Arc<ServiceChannels>) -> std::io::Result<&'static Helper> {
    match HELPER.get_or_init(|| {
        let h: &'static Helper = Box::leak(Box::new(Helper {
            services: services.clone(),
            windows: Mutex::new(Vec::new()),
            serving: Mutex::new(()),
        }));
        std::thread::Builder::new()
            .name("railmpi-rma".into())
            .spawn(move || h.run())?;
        Ok(h)
    }) {
        Ok(h) => Ok(h),
        Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
    }
}

/// The helper, if it was started (`withdraw` at MPI_Win_free).
pub fn started() -> Option<&'static Helper> {
    HELPER.get().and_then(|h| h.as_ref().ok().copied())
}

impl Helper {
    pub fn expose(&self, w: Arc<Exposed>) {
        self.windows.lock().push(w);
    }

    /// Stop serving window `id` (MPI_Win_free, after every origin is done with it).
    pub fn withdraw(&self, id: u64) {
        self.windows.lock().retain(|w| w.id != id);
    }

    fn run(&self) {
        let bell = self.services.wait_handle();
        let serve = || {
            let _one = self.serving.lock();
            self.serve_all()
        };
        // The queues' activity when last looked at.
        let mut seen = self.services.activity();
        loop {
            // Where a poller is serving, it is not our turn (waiting for the lock would
            // make the poller wake us when it lets go).
            if self.try_serve() > 0 {
                continue;
            }
            // Traffic while a thread of ours polls: the poller takes it; we look again
            // after a nap (no events armed), and sleep on events once it is quiet.
            let now = self.services.activity();
            if now != seen && POLLERS.load(Ordering::Relaxed) > 0 {
                seen = now;
                std::thread::sleep(NAP);
                continue;
            }
            seen = now;
            // Requests often come back to back (a latency loop, a flush after many
            // operations): look again for a few microseconds before paying a futex wake.
            let idle = std::time::Instant::now();
            while idle.elapsed() < SPIN_BEFORE_SLEEP && !self.services.pending() {
                std::thread::yield_now();
            }
            if self.services.pending() {
                continue;
            }
            let ticket = bell.prepare();
            self.services.arm();
            // Re-check after announcing the sleep: a request that raced with it is served
            // here or rings the bell before the wait.
            if serve() == 0 {
                bell.sleep(ticket, Duration::from_millis(200));
            } else {
                bell.cancel(ticket);
            }
        }
    }

    /// `serve_all`, unless another thread is serving (then 0).
    fn try_serve(&self) -> usize {
        self.serving.try_lock().map_or(0, |_one| self.serve_all())
    }

    /// Serve every queued request; returns how many.
    fn serve_all(&self) -> usize {
        let services = &*self.services;
        services.serve(&mut |origin, raw| {
            let result: Result<Option<[u8; ANSWER]>, String> = Desc::decode(raw)
                .ok_or_else(|| "unknown request".to_string())
                .and_then(|d| {
                    let w = self
                        .windows
                        .lock()
                        .iter()
                        .find(|w| w.id == d.window)
                        .cloned()
                        .ok_or_else(|| format!("no window {} exposed here", d.window))?;
                    let r = serve(&w, services, origin, &d);
                    if r.is_err() {
                        w.rejected.fetch_add(1, Ordering::Relaxed);
                    }
                    r
                });
            // A refused inline request goes without an answer, which its origin reports.
            result
                .inspect_err(|why| tracing::error!(origin, "RMA helper rejected a request: {why}"))
                .ok()
                .flatten()
        })
    }
}

/// A span of the origin's memory.
fn at(addr: u64, len: usize) -> [Span; 1] {
    [Span {
        addr,
        len: len as u64,
    }]
}

/// Read `out.len()` bytes of the origin's memory at `addr` under `key`.
fn read_origin(
    svc: &ServiceChannels,
    origin: usize,
    out: &mut [u8],
    addr: u64,
    key: RemoteKey,
) -> Result<(), String> {
    let local = at(out.as_mut_ptr() as u64, out.len());
    // SAFETY: `local` is `out`, writable for the call.
    unsafe {
        svc.access(&Transfer::new(
            RdmaOp::Read,
            origin,
            &local,
            &at(addr, out.len()),
            &RemoteKeys::all(key),
            0,
        ))
    }
    .map_err(|e| format!("reading rank {origin}'s memory: {e}"))
}

/// The target pieces of `d` as (address here, length), checked against the window.
fn pieces(
    w: &Exposed,
    svc: &ServiceChannels,
    origin: usize,
    d: &Desc,
) -> Result<Vec<(usize, usize)>, String> {
    let runs: Vec<(u64, u64)> = if d.runs == 0 {
        vec![(0, d.len)]
    } else {
        if d.nruns == 0 || d.nruns > MAX_RUNS {
            return Err(format!("{} run-table entries", d.nruns));
        }
        let mut raw = vec![0u8; d.nruns as usize * 16];
        read_origin(svc, origin, &mut raw, d.runs, d.runs_key)?;
        raw.chunks_exact(16)
            .map(|c| {
                (
                    u64::from_le_bytes(c[..8].try_into().unwrap()),
                    u64::from_le_bytes(c[8..].try_into().unwrap()),
                )
            })
            .collect()
    };
    let mut total = 0u64;
    let regions = if w.dynamic {
        w.ctrl.regions()
    } else {
        Vec::new()
    };
    let mut out = Vec::with_capacity(runs.len());
    for (off, len) in runs {
        let start = d.target.checked_add(off).ok_or("offset overflows")?;
        let end = start.checked_add(len).ok_or("length overflows")?;
        let inside = if w.dynamic {
            super::control::covered(&regions, start as i128, end as i128)
        } else {
            end <= w.size
        };
        if !inside && len > 0 {
            return Err(format!("bytes [{start}, {end}) are outside the window"));
        }
        total = total.checked_add(len).ok_or("lengths overflow")?;
        let addr = if w.dynamic {
            start as usize
        } else {
            w.base + start as usize
        };
        out.push((addr, len as usize));
    }
    if total != d.len {
        return Err(format!("run table covers {total} bytes, not {}", d.len));
    }
    Ok(out)
}

fn serve(
    w: &Exposed,
    svc: &ServiceChannels,
    origin: usize,
    d: &Desc,
) -> Result<Option<[u8; ANSWER]>, String> {
    if !w.members.contains(&origin) {
        return Err(format!("rank {origin} is not in window {}", w.id));
    }
    let width = d.basic.size() as u64;
    if d.kind == Kind::Cas && (width > 8 || d.len != width) {
        return Err("compare-and-swap of more than one 8-byte value".into());
    }
    if d.inline && (d.kind == Kind::Put || d.kind == Kind::Get || d.len > 8 || d.runs != 0) {
        return Err("an inline request that is not one fetched value".into());
    }
    let local = pieces(w, svc, origin, d)?;
    let spans: Vec<Span> = local
        .iter()
        .map(|&(a, l)| Span {
            addr: a as u64,
            len: l as u64,
        })
        .collect();
    let moved = |e| format!("moving data with rank {origin}: {e}");
    match d.kind {
        // SAFETY (both transfers): `spans` lie inside our window (checked by `pieces`);
        // the origin's side is checked against its key before a byte moves.
        Kind::Put => unsafe {
            svc.access(&Transfer::new(
                RdmaOp::Read,
                origin,
                &spans,
                &at(d.data, d.len as usize),
                &RemoteKeys::all(d.data_key),
                0,
            ))
        }
        .map(|()| None)
        .map_err(moved),
        Kind::Get => unsafe {
            svc.access(&Transfer::new(
                RdmaOp::Write,
                origin,
                &spans,
                &at(d.result, d.len as usize),
                &RemoteKeys::all(d.result_key),
                0,
            ))
        }
        .map(|()| None)
        .map_err(moved),
        Kind::Acc | Kind::Cas => {
            ops::check(d.op, d.basic).map_err(|_| "operation not defined on the type")?;
            let n = d.len as usize;
            let mut cur = vec![0u8; n];
            let mut input = vec![0u8; n];
            if d.kind == Kind::Acc && d.op != Op::NoOp {
                if d.inline {
                    input.copy_from_slice(&d.data.to_le_bytes()[..n]);
                } else {
                    read_origin(svc, origin, &mut input, d.data, d.data_key)?;
                }
            }
            with_acc_lock(&w.ctrl, || {
                gather(&local, &mut cur);
                let mut answer = None;
                if d.inline {
                    let mut a = [0u8; ANSWER];
                    a[..n].copy_from_slice(&cur);
                    answer = Some(a);
                } else if d.result != 0 {
                    let l = at(cur.as_ptr() as u64, n);
                    // SAFETY: `l` is `cur`, readable for the call.
                    unsafe {
                        svc.access(&Transfer::new(
                            RdmaOp::Write,
                            origin,
                            &l,
                            &at(d.result, n),
                            &RemoteKeys::all(d.result_key),
                            0,
                        ))
                    }
                    .map_err(moved)?;
                }
                let new = match d.kind {
                    Kind::Cas => {
                        let compare = &d.compare.to_le_bytes()[..n];
                        (cur[..] == *compare).then(|| d.data.to_le_bytes()[..n].to_vec())
                    }
                    _ if d.op == Op::NoOp => None,
                    _ => {
                        ops::apply_packed(d.op, d.basic, &input, &mut cur)
                            .map_err(|_| "operation not defined on the type")?;
                        Some(cur.clone())
                    }
                };
                if let Some(new) = new {
                    scatter(&new, &local);
                }
                Ok(answer)
            })
        }
    }
}

fn with_acc_lock<T>(ctrl: &Control, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let mut spins = 0u32;
    while !ctrl.try_acc_lock() {
        spins += 1;
        if spins > 64 {
            std::thread::yield_now();
        }
    }
    let r = f();
    ctrl.acc_unlock();
    r
}

fn gather(local: &[(usize, usize)], out: &mut [u8]) {
    let mut at = 0;
    for &(a, l) in local {
        // SAFETY: `(a, l)` lies inside our window (checked); `out` holds the sum of lengths.
        unsafe { std::ptr::copy_nonoverlapping(a as *const u8, out.as_mut_ptr().add(at), l) };
        at += l;
    }
}

fn scatter(data: &[u8], local: &[(usize, usize)]) {
    let mut at = 0;
    for &(a, l) in local {
        // SAFETY: as in `gather`, the other way.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr().add(at), a as *mut u8, l) };
        at += l;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::mapped::MappedRegion;
    use crate::fabric::memory::{Mode, PageRange};
    use crate::fabric::shm::test_pair;
    use crate::fabric::{Rail, Route};

    #[test]
    fn descriptors_round_trip_and_reject_garbage() {
        let d = Desc {
            kind: Kind::Acc,
            op: Op::Minloc,
            basic: Basic::DoubleInt,
            window: 9,
            target: 1 << 40,
            len: 48,
            data: 0xdead_beef,
            data_key: RemoteKey(11),
            result: 7,
            result_key: RemoteKey(12),
            compare: u64::MAX,
            runs: 0x1000,
            runs_key: RemoteKey(13),
            nruns: 3,
            inline: true,
        };
        assert_eq!(Desc::decode(&d.encode()), Some(d));
        assert_eq!(Desc::decode(&d.encode()[..REQUEST - 1]), None, "short");
        for (byte, value) in [(0, 9u8), (1, 200), (2, 99), (3, 2)] {
            let mut bad = d.encode();
            bad[byte] = value;
            assert_eq!(Desc::decode(&bad), None);
        }
    }

    /// Rank 1's side (the target, whose helper serves) of a real shm rail pair whose ends
    /// are both in this process: its service channels, and a window control block.
    fn target_side(target: &crate::fabric::shm::ShmRail) -> (ServiceChannels, Control) {
        let routes = [Route { rail: 0, peer: 0 }, Route { rail: 0, peer: 1 }];
        let svc = ServiceChannels::new(vec![Some(target.service())], &routes).unwrap();
        let mem = Arc::new(MappedRegion::create("t", super::super::control::size(2)).unwrap());
        (svc, Control::new(mem, 2).unwrap())
    }

    #[test]
    fn inline_atomics_answer_with_the_old_value_and_touch_no_origin_memory() {
        let (_origin, target) = test_pair();
        let (svc, ctrl) = target_side(&target);
        let mut window = [0u64; 4];
        window[1] = 40;
        let base = window.as_mut_ptr() as usize;
        let w = Exposed::new(1, ctrl, base, 32, false, vec![0, 1]);
        let d = |kind, op, target: u64, len: u64, data: u64, compare: u64| Desc {
            kind,
            op,
            basic: if len == 8 { Basic::I64 } else { Basic::I32 },
            window: 1,
            target,
            len,
            // Inline operands: no origin address, so any transfer would fail.
            data,
            data_key: RemoteKey::NONE,
            result: 0,
            result_key: RemoteKey::NONE,
            compare,
            runs: 0,
            runs_key: RemoteKey::NONE,
            nruns: 0,
            inline: true,
        };
        let word =
            |a: Option<[u8; ANSWER]>| u64::from_le_bytes(a.unwrap()[..8].try_into().unwrap());
        // Fetch-and-add: the old value back, the sum in place.
        let a = serve(&w, &svc, 0, &d(Kind::Acc, Op::Sum, 8, 8, 2, 0)).unwrap();
        assert_eq!((word(a), window[1]), (40, 42));
        // Compare-and-swap, failing then succeeding.
        let a = serve(&w, &svc, 0, &d(Kind::Cas, Op::Replace, 8, 8, 7, 41)).unwrap();
        assert_eq!((word(a), window[1]), (42, 42));
        let a = serve(&w, &svc, 0, &d(Kind::Cas, Op::Replace, 8, 8, 7, 42)).unwrap();
        assert_eq!((word(a), window[1]), (42, 7));
        // A 4-byte value answers 4 bytes, the rest zero; its neighbour stays.
        window[2] = u64::MAX;
        let a = serve(&w, &svc, 0, &d(Kind::Acc, Op::Replace, 16, 4, 5, 0)).unwrap();
        assert_eq!((word(a), window[2]), (0xffff_ffff, 0xffff_ffff_0000_0005));
        // Not one value: refused, nothing changed.
        assert!(serve(&w, &svc, 0, &d(Kind::Acc, Op::Sum, 0, 16, 1, 0)).is_err());
        assert!(serve(&w, &svc, 0, &d(Kind::Put, Op::Replace, 0, 8, 1, 0)).is_err());
        assert!(
            serve(&w, &svc, 0, &d(Kind::Acc, Op::Sum, 32, 8, 1, 0)).is_err(),
            "outside"
        );
        assert_eq!(window, [0, 7, 0xffff_ffff_0000_0005, 0]);
    }

    #[test]
    fn requests_outside_the_window_or_the_origins_keys_are_refused_before_any_byte_moves() {
        // Rank 0 (origin) and rank 1 (target) on a real shm rail, both ends here.
        let (origin, target) = test_pair();
        let (svc, ctrl) = target_side(&target);
        let mut window = vec![0u8; 64];
        let w = Exposed::new(1, ctrl, window.as_mut_ptr() as usize, 64, false, vec![0, 1]);
        // The origin's operand (first page) and run table (second page), registered with
        // the origin's domain.
        let page = crate::sys::vmem::page_size();
        let mut buf = vec![0u8; 3 * page];
        let base = (buf.as_mut_ptr() as usize).div_ceil(page) * page;
        let src = base as *mut u8;
        unsafe { std::ptr::write_bytes(src, 0xab, 64) };
        let key = origin
            .memory()
            .register(PageRange::new(base, base + 2 * page), Mode::Odp)
            .unwrap()
            .remote;
        let put = |target, len| Desc {
            kind: Kind::Put,
            op: Op::Replace,
            basic: Basic::Byte,
            window: 1,
            target,
            len,
            data: base as u64,
            data_key: key,
            result: 0,
            result_key: RemoteKey::NONE,
            compare: 0,
            runs: 0,
            runs_key: RemoteKey::NONE,
            nruns: 0,
            inline: false,
        };
        assert!(serve(&w, &svc, 0, &put(60, 8)).is_err());
        assert!(serve(&w, &svc, 0, &put(u64::MAX - 2, 8)).is_err());
        assert!(serve(&w, &svc, 2, &put(0, 8)).is_err(), "not a member");
        let mut forged = put(0, 8);
        forged.data_key = RemoteKey(key.0 ^ 2);
        assert!(serve(&w, &svc, 0, &forged).unwrap_err().contains("refused"));
        let mut past = put(0, 8);
        past.data = (base + 2 * page - 4) as u64;
        assert!(serve(&w, &svc, 0, &past).is_err(), "past the registration");
        // A run table whose entries leave the window, or do not add up.
        let table = (base + page) as *mut u64;
        unsafe { std::ptr::copy_nonoverlapping([0u64, 4, 100, 4].as_ptr(), table, 4) };
        let mut d = put(0, 8);
        (d.runs, d.runs_key, d.nruns) = (table as u64, key, 2);
        assert!(serve(&w, &svc, 0, &d).is_err());
        d.len = 9;
        assert!(serve(&w, &svc, 0, &d).is_err());
        assert!(window.iter().all(|&b| b == 0), "nothing was written");
        serve(&w, &svc, 0, &put(8, 16)).unwrap();
        assert!(window[8..24].iter().all(|&b| b == 0xab));
        assert!(window[..8].iter().chain(&window[24..]).all(|&b| b == 0));
    }

    #[test]
    fn requests_travel_on_the_service_queue_and_complete_in_order() {
        let (origin, target) = test_pair();
        let routes = [Route { rail: 0, peer: 0 }, Route { rail: 0, peer: 1 }];
        let out = ServiceChannels::new(vec![Some(origin.service())], &routes).unwrap();
        let inn = ServiceChannels::new(vec![Some(target.service())], &routes).unwrap();
        assert!(!inn.pending());
        let mut tickets = Vec::new();
        while let Some(t) = out.try_request(1, &[tickets.len() as u8; 40]) {
            tickets.push(t);
        }
        assert_eq!(
            tickets.len(),
            crate::fabric::shm::service::SLOTS,
            "full queue"
        );
        assert!(inn.pending() && !out.served(1, tickets[0]));
        let mut seen = Vec::new();
        assert_eq!(
            inn.serve(&mut |from, req| {
                assert_eq!(from, 0);
                assert_eq!(req.len(), REQUEST);
                assert!(req[40..].iter().all(|&b| b == 0), "the rest zeroed");
                seen.push(req[0]);
                None
            }),
            tickets.len()
        );
        assert_eq!(seen, (0..tickets.len() as u8).collect::<Vec<_>>());
        assert!(out.served(1, *tickets.last().unwrap()) && !inn.pending());
        assert!(out.try_request(1, &[1]).is_some(), "room again");
        assert!(out.try_request(7, &[1]).is_none(), "no such rank");
    }
}
