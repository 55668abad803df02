//! The RMA helper thread: host-assisted one-sided operations (Tipparaju 2004 §4–§5;
//! DESIGN.md §rma). One thread per process serves every window this process exposes: an
//! origin writes a descriptor into its ring in the target's control block and rings the
//! target process's doorbell; the helper applies the operation to its own memory (window
//! memory the application brought, which other processes cannot load from or store to),
//! moving the origin's bytes with Cross Memory Attach, and publishes completion in the
//! ring. It is how accumulates and atomics reach `MPI_Win_create` and dynamic windows
//! (under the window's accumulate lock, so they are atomic with respect to each other),
//! and, with `RAILMPI_RMA_TRANSFER=helper`, how noncontiguous puts and gets travel (the
//! target scatters or gathers; the origin sends one contiguous stream).
//!
//! The thread sleeps on a futex in the process's inbox (shared memory every peer maps)
//! while there is nothing to do, so an idle target burns no CPU; it never needs the
//! application's thread, so a target that computes still serves.
//!
//! Descriptors come from other processes: each is decoded with a checked parser, and
//! every offset, length and run table is checked against the window before a byte moves.

use super::control::{Control, SLOT};
use crate::datatype::Basic;
use crate::fabric::mapped::MappedRegion;
use crate::op::{self as ops, Op};
use crate::sys::cma::{self, Direction, RemoteRange};
use crate::sys::futex;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// What a descriptor asks for.
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

/// One request, as laid out in a ring slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desc {
    pub kind: Kind,
    pub op: Op,
    pub basic: Basic,
    /// Byte offset in the window (an address, for a dynamic window).
    pub target: u64,
    /// Bytes at the target.
    pub len: u64,
    /// Origin address of the operand (Cas: the new value, inline).
    pub data: u64,
    /// Origin address for fetched bytes (0: none).
    pub result: u64,
    pub compare: u64,
    /// Origin address of the target run table ((offset, length) u64 pairs relative to
    /// `target`), 0 for one contiguous range.
    pub runs: u64,
    pub nruns: u32,
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
    // Padding entries never produced (kept so the table has room to grow).
    Basic::Byte,
    Basic::Byte,
];

/// How long an idle helper keeps looking before it sleeps.
const SPIN_BEFORE_SLEEP: Duration = Duration::from_micros(50);

/// Most run-table entries one request may carry.
pub const MAX_RUNS: u32 = 1 << 20;

impl Desc {
    pub fn encode(&self) -> [u8; SLOT] {
        let mut b = [0u8; SLOT];
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
        b[4..8].copy_from_slice(&self.nruns.to_le_bytes());
        for (i, v) in [
            self.target,
            self.len,
            self.data,
            self.result,
            self.compare,
            self.runs,
        ]
        .iter()
        .enumerate()
        {
            b[8 + 8 * i..16 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        b
    }

    /// Checked decode: None for an unknown kind, op or type.
    pub fn decode(b: &[u8; SLOT]) -> Option<Desc> {
        let kind = match b[0] {
            1 => Kind::Put,
            2 => Kind::Get,
            3 => Kind::Acc,
            4 => Kind::Cas,
            _ => return None,
        };
        let word = |i: usize| u64::from_le_bytes(b[8 + 8 * i..16 + 8 * i].try_into().unwrap());
        Some(Desc {
            kind,
            op: *OPS.get(b[1] as usize)?,
            basic: *BASICS.get(b[2] as usize)?,
            nruns: u32::from_le_bytes(b[4..8].try_into().unwrap()),
            target: word(0),
            len: word(1),
            data: word(2),
            result: word(3),
            compare: word(4),
            runs: word(5),
        })
    }
}

/// A window as this process exposes it to the helper.
pub struct Exposed {
    pub id: u64,
    /// Our control block (the rings are in it).
    pub ctrl: Control,
    /// Where our window memory is here, and how large (dynamic: regions in `ctrl`).
    pub base: usize,
    pub size: u64,
    pub dynamic: bool,
    /// The window's processes, by window rank (origins are named by their ring).
    pub pids: Vec<i32>,
    /// Requests served so far per origin (the helper's side of each ring).
    served: Mutex<Vec<u64>>,
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
        pids: Vec<i32>,
    ) -> Self {
        let n = pids.len();
        Exposed {
            id,
            ctrl,
            base,
            size,
            dynamic,
            pids,
            served: Mutex::new(vec![0; n]),
            rejected: Default::default(),
        }
    }
}

/// The process's inbox: the doorbell word origins bump, and whether the helper sleeps.
pub struct Inbox {
    mem: MappedRegion,
}

impl Inbox {
    fn word(&self, i: usize) -> &AtomicU32 {
        // SAFETY: the inbox mapping holds at least 8 bytes (created or checked so), is
        // page-aligned, and outlives `self`; every process touches the words atomically.
        unsafe { AtomicU32::from_ptr((self.mem.as_ptr() as *mut u32).add(i)) }
    }

    /// Map a peer's inbox.
    pub fn open(pid: i32, fd: i32) -> std::io::Result<Inbox> {
        Ok(Inbox {
            mem: MappedRegion::open(pid, fd, 8)?,
        })
    }

    /// Tell the helper there is work (after publishing it with a release store).
    pub fn ring(&self) {
        self.word(0).fetch_add(1, Ordering::SeqCst);
        if self.word(1).load(Ordering::SeqCst) != 0 {
            futex::wake_all(self.word(0));
        }
    }
}

pub struct Helper {
    inbox: Arc<Inbox>,
    windows: Mutex<Vec<Arc<Exposed>>>,
    /// The doorbell count up to which every request was served.
    served: AtomicU32,
}

/// Whether this process's helper has requests to serve: a thread of ours that waits in a
/// spin loop (a fence's barrier, say) should then give it the core rather than spin —
/// on a machine with as many ranks as cores the helper has no core of its own, and a
/// peer's accumulate would wait for the scheduler (half a millisecond per operation).
pub fn has_work() -> bool {
    match HELPER.get() {
        Some(Ok(h)) => h.inbox.word(0).load(Ordering::Relaxed) != h.served.load(Ordering::Relaxed),
        _ => false,
    }
}

static HELPER: OnceLock<std::io::Result<&'static Helper>> = OnceLock::new();

/// The process's helper, started on first use.
pub fn helper() -> std::io::Result<&'static Helper> {
    match HELPER.get_or_init(|| {
        let mem = MappedRegion::create("railmpi-rma-inbox", 8)?;
        let h: &'static Helper = Box::leak(Box::new(Helper {
            inbox: Arc::new(Inbox { mem }),
            windows: Mutex::new(Vec::new()),
            served: AtomicU32::new(0),
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

impl Helper {
    /// Our inbox's descriptor, for peers to map.
    pub fn inbox_fd(&self) -> i32 {
        self.inbox.mem.fd().expect("ours")
    }

    pub fn expose(&self, w: Arc<Exposed>) {
        self.windows.lock().push(w);
    }

    /// Stop serving window `id` (MPI_Win_free, after every origin is done with it).
    pub fn withdraw(&self, id: u64) {
        self.windows.lock().retain(|w| w.id != id);
    }

    fn run(&self) {
        let (seq, sleeping) = (self.inbox.word(0), self.inbox.word(1));
        loop {
            let seen = seq.load(Ordering::SeqCst);
            if self.serve_all() > 0 {
                continue;
            }
            // Everything rung for up to `seen` is served (see `has_work`).
            self.served.store(seen, Ordering::Release);
            // Requests often come back to back (a latency loop, a flush after many
            // operations): look again for a few microseconds before paying a futex wake.
            let idle = std::time::Instant::now();
            while idle.elapsed() < SPIN_BEFORE_SLEEP && seq.load(Ordering::Acquire) == seen {
                std::thread::yield_now();
            }
            if seq.load(Ordering::Acquire) != seen {
                continue;
            }
            sleeping.store(1, Ordering::SeqCst);
            // Re-check after announcing the sleep: a ring that raced with it is seen here
            // or changes `seq` before the wait.
            if self.serve_all() == 0 {
                futex::wait(seq, seen, Duration::from_millis(200));
            }
            sleeping.store(0, Ordering::SeqCst);
        }
    }

    /// Serve every posted request of every exposed window; returns how many.
    fn serve_all(&self) -> usize {
        let windows: Vec<Arc<Exposed>> = self.windows.lock().clone();
        let mut n = 0;
        for w in &windows {
            let mut served = w.served.lock();
            for origin in 0..w.pids.len() {
                let posted = w.ctrl.ring_posted(origin).load(Ordering::Acquire);
                while served[origin] < posted {
                    let seq = served[origin];
                    let mut raw = [0u8; SLOT];
                    // SAFETY: the slot of a posted, unfinished request: its writer is done
                    // with it (it published `posted` after writing) and waits for `done`.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            w.ctrl.ring_slot(origin, seq),
                            raw.as_mut_ptr(),
                            SLOT,
                        )
                    };
                    if let Err(why) = Desc::decode(&raw)
                        .ok_or_else(|| "unknown request".to_string())
                        .and_then(|d| serve(w, origin, &d))
                    {
                        w.rejected.fetch_add(1, Ordering::Relaxed);
                        tracing::error!(origin, "RMA helper rejected a request: {why}");
                    }
                    served[origin] = seq + 1;
                    w.ctrl.ring_done(origin).store(seq + 1, Ordering::Release);
                    n += 1;
                }
            }
        }
        n
    }
}

/// The target pieces of `d` as (address here, length), checked against the window.
fn pieces(w: &Exposed, pid: i32, d: &Desc) -> Result<Vec<(usize, usize)>, String> {
    let runs: Vec<(u64, u64)> = if d.runs == 0 {
        vec![(0, d.len)]
    } else {
        if d.nruns == 0 || d.nruns > MAX_RUNS {
            return Err(format!("{} run-table entries", d.nruns));
        }
        let mut raw = vec![0u8; d.nruns as usize * 16];
        cma::read(pid, &mut raw, d.runs).map_err(|e| format!("reading the run table: {e}"))?;
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
            regions
                .iter()
                .any(|g| start >= g.addr && end <= g.addr.saturating_add(g.len))
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

fn serve(w: &Exposed, origin: usize, d: &Desc) -> Result<(), String> {
    let pid = *w.pids.get(origin).ok_or("no such origin")?;
    let width = d.basic.size() as u64;
    if d.kind == Kind::Cas && (width > 8 || d.len != width) {
        return Err("compare-and-swap of more than one 8-byte value".into());
    }
    let local = pieces(w, pid, d)?;
    let stream = |addr: u64| {
        [RemoteRange {
            addr,
            len: d.len as usize,
        }]
    };
    let err = |e: std::io::Error| format!("moving data with rank {origin}: {e}");
    match d.kind {
        // SAFETY (all transfers): `local` lies inside our window (checked by `pieces`);
        // the remote ranges are the origin's, checked by the kernel.
        Kind::Put => unsafe {
            cma::transfer_vectored(Direction::Read, pid, &local, &stream(d.data)).map_err(err)
        },
        Kind::Get => unsafe {
            cma::transfer_vectored(Direction::Write, pid, &local, &stream(d.result)).map_err(err)
        },
        Kind::Acc | Kind::Cas => {
            ops::check(d.op, d.basic).map_err(|_| "operation not defined on the type")?;
            let n = d.len as usize;
            let mut cur = vec![0u8; n];
            let mut input = vec![0u8; n];
            if d.kind == Kind::Acc && d.op != Op::NoOp {
                cma::read(pid, &mut input, d.data).map_err(err)?;
            }
            with_acc_lock(&w.ctrl, || {
                gather(&local, &mut cur);
                if d.result != 0 {
                    cma::write(pid, &cur, d.result).map_err(err)?;
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
                Ok(())
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

    #[test]
    fn descriptors_round_trip_and_reject_garbage() {
        let d = Desc {
            kind: Kind::Acc,
            op: Op::Minloc,
            basic: Basic::DoubleInt,
            target: 1 << 40,
            len: 48,
            data: 0xdead_beef,
            result: 7,
            compare: u64::MAX,
            runs: 0x1000,
            nruns: 3,
        };
        assert_eq!(Desc::decode(&d.encode()), Some(d));
        let mut bad = d.encode();
        bad[0] = 9;
        assert_eq!(Desc::decode(&bad), None);
        let mut bad = d.encode();
        bad[1] = 200;
        assert_eq!(Desc::decode(&bad), None);
        let mut bad = d.encode();
        bad[2] = 99;
        assert_eq!(Desc::decode(&bad), None);
    }

    #[test]
    fn requests_outside_the_window_are_refused_before_any_byte_moves() {
        let n = 1;
        let mem = Arc::new(MappedRegion::create("t", super::super::control::size(n)).unwrap());
        let ctrl = Control::new(mem, n).unwrap();
        let mut window = vec![0u8; 64];
        let pid = std::process::id() as i32;
        let w = Exposed::new(1, ctrl, window.as_mut_ptr() as usize, 64, false, vec![pid]);
        let src = [0xabu8; 64];
        let put = |target, len| Desc {
            kind: Kind::Put,
            op: Op::Replace,
            basic: Basic::Byte,
            target,
            len,
            data: src.as_ptr() as u64,
            result: 0,
            compare: 0,
            runs: 0,
            nruns: 0,
        };
        assert!(serve(&w, 0, &put(60, 8)).is_err());
        assert!(serve(&w, 0, &put(u64::MAX - 2, 8)).is_err());
        assert!(serve(&w, 1, &put(0, 8)).is_err(), "unknown origin");
        // A run table whose entries leave the window, or do not add up.
        let table: Vec<u8> = [(0u64, 4u64), (100, 4)]
            .iter()
            .flat_map(|&(o, l)| o.to_le_bytes().into_iter().chain(l.to_le_bytes()))
            .collect();
        let mut d = put(0, 8);
        d.runs = table.as_ptr() as u64;
        d.nruns = 2;
        assert!(serve(&w, 0, &d).is_err());
        d.len = 9;
        assert!(serve(&w, 0, &d).is_err());
        assert!(window.iter().all(|&b| b == 0), "nothing was written");
        serve(&w, 0, &put(8, 16)).unwrap();
        assert!(window[8..24].iter().all(|&b| b == 0xab));
        assert!(window[..8].iter().chain(&window[24..]).all(|&b| b == 0));
    }
}
