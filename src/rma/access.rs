//! Moving data to and from a target's window: put, get, the accumulate family and the
//! atomics. Every operation completes before it returns (a copy or a CPU atomic on memory
//! mapped here, or an RDMA read or write posted on the channel to the target under the
//! key its window record or region table published), so flush, unlock and fence only have
//! to order memory.
//!
//! Before a byte moves, the target range is checked against what the target exposes (its
//! window size, or for a dynamic window the regions it attached, read from its control
//! block): nothing ever lands outside a window (MPI_ERR_RMA_RANGE).
//!
//! Accumulates are element-wise atomic with respect to each other (MPI-3.1 §11.7.1): each
//! is applied under the target's accumulate lock, a CPU atomic in its control block —
//! by the origin itself on memory every rank maps (`RAILMPI_RMA_ATOMICS=native`), by the
//! target's helper thread elsewhere; both take the same lock. (Per-element
//! compare-and-swap loops were tried first: 15 ns an element made a 64 KiB accumulate
//! take 250 µs, and one lock covers compare-and-swap, fetch-and-op and accumulates of any
//! type alike, so they never mix on one value.)

use super::helper::{Desc, Kind};
use super::host::{rail_err, RmaHost};
use super::window::{Reach, Target, Window};
use crate::datatype::{Basic, Datatype};
use crate::error::{Error, ErrorClass, Result};
use crate::fabric::{RdmaOp, RemoteKey, RemoteKeys, Span, Transfer};
use crate::op::{self as ops, Op};

/// `count` elements of `dtype` at `addr` in this process (origin or result buffer).
#[derive(Clone, Copy)]
pub struct Local<'a> {
    pub addr: usize,
    pub count: usize,
    pub dtype: &'a Datatype,
}

/// `count` elements of `dtype` at displacement `disp` of a target's window.
#[derive(Clone, Copy)]
pub struct Remote<'a> {
    pub rank: usize,
    pub disp: u64,
    pub count: usize,
    pub dtype: &'a Datatype,
}

fn range_err(msg: String) -> Error {
    Error::new(ErrorClass::RmaRange, msg)
}

/// Where the target's bytes are: runs as (offset from `origin`, length), and how to reach
/// them. `origin` is an address here (mapped) or in world rank `peer` (under `rkey`).
struct Placed {
    origin: u64,
    runs: Vec<(u64, usize)>,
    mapped: bool,
    peer: usize,
    rkey: RemoteKeys,
    /// The span crosses from one attached region of a dynamic window into the next: no
    /// one key covers it, so the target's helper (which checks its regions itself) moves
    /// it.
    regions: bool,
}

impl Window {
    /// Resolve the target side: check the span against the window and list its runs.
    fn place(&self, host: &dyn RmaHost, t: &Target, r: &Remote) -> Result<Placed> {
        let (lo, hi) = span(r)?;
        let (origin, mapped, peer, mut rkey) = match t.reach {
            Reach::Mapped { base } => (base as u64, true, 0, RemoteKeys::NONE),
            Reach::Remote { peer, base, rkey } => (base, false, peer, rkey),
            // Our own dynamic window: its addresses are ours, reached by plain copies.
            Reach::Dynamic { peer } if r.rank == self.comm.rank => {
                (0, true, peer, RemoteKeys::NONE)
            }
            Reach::Dynamic { peer } => (0, false, peer, RemoteKeys::NONE),
        };
        let disp_bytes = match t.reach {
            Reach::Dynamic { .. } => r.disp as i128,
            _ => r.disp as i128 * t.disp_unit as i128,
        };
        let (lo, hi) = (disp_bytes + lo, disp_bytes + hi);
        let mut regions = false;
        if lo < hi {
            let ok = match t.reach {
                Reach::Dynamic { .. } => {
                    let attached = t.ctrl.regions(host).map_err(|e| rail_err(r.rank, e))?;
                    match attached.iter().find(|g| g.holds(lo, hi)) {
                        Some(g) => {
                            rkey = g.rkeys;
                            true
                        }
                        None => {
                            regions = super::control::covered(&attached, lo, hi);
                            regions
                        }
                    }
                }
                _ => lo >= 0 && hi <= t.size as i128,
            };
            if !ok {
                return Err(range_err(format!(
                    "bytes [{lo}, {hi}) of rank {}'s window are outside it ({})",
                    r.rank,
                    match t.reach {
                        Reach::Dynamic { .. } => "not in an attached region".to_string(),
                        _ => format!("{} bytes", t.size),
                    }
                )));
            }
        }
        let runs = r
            .dtype
            .runs(r.count)
            .map(|(off, len)| ((disp_bytes + off as i128) as u64, len))
            .collect();
        Ok(Placed {
            origin,
            runs,
            mapped,
            peer,
            rkey,
            regions,
        })
    }

    /// Both sides contiguous: the target range `[off, off + n)` (checked) and its reach,
    /// without listing runs (the latency path: no allocation).
    fn contiguous(&self, t: &Target, r: &Remote) -> Result<Option<(u64, usize)>> {
        if !r.dtype.is_contiguous() || matches!(t.reach, Reach::Dynamic { .. }) {
            return Ok(None);
        }
        let n = r.dtype.size * r.count;
        let off = r.disp as u128 * t.disp_unit as u128;
        if n > 0 && off + n as u128 > t.size as u128 {
            return Err(range_err(format!(
                "bytes [{off}, {}) of rank {}'s window are outside it ({} bytes)",
                off + n as u128,
                r.rank,
                t.size
            )));
        }
        Ok(Some((off as u64, n)))
    }

    /// The latency path of MPI_Put / MPI_Get: `n` contiguous bytes between `local` here and
    /// displacement `disp` of `target`'s memory in an open passive-target epoch — copied
    /// where that memory is mapped here, else posted on the rail (completed at the flush or
    /// unlock, as the general path's). None, having done nothing, whenever any of that does
    /// not hold: the general path then does (or refuses) the operation. On a rail, the
    /// general path's checks before the post are the ones here, without its resolving of
    /// the arguments twice (a quarter of a put and its flush, in instructions, on verbs).
    ///
    /// # Safety
    /// `local` is valid for `n` bytes (readable for a put, writable for a get), and for a
    /// posted transfer stays so until the epoch's synchronization (MPI's contract).
    #[inline]
    pub unsafe fn try_copy(
        &self,
        host: &dyn RmaHost,
        get: bool,
        local: usize,
        n: usize,
        target: usize,
        disp: u64,
    ) -> Option<Result<()>> {
        let t = self.targets_get(target)?;
        if !self.passive_open(target) || self.settings.helper_transfers {
            return None;
        }
        let off = disp.checked_mul(t.disp_unit)?;
        if off > t.size || n as u64 > t.size - off {
            return None;
        }
        let op = if get { RdmaOp::Read } else { RdmaOp::Write };
        match t.reach {
            Reach::Mapped { base } => {
                copy_mapped(op, base + off as usize, local, n);
                Some(Ok(()))
            }
            Reach::Remote { .. } if n > 0 => {
                // SAFETY: the caller's contract.
                Some(unsafe { copy_contiguous(self, host, op, t, target, off, local, n) })
            }
            _ => None,
        }
    }

    /// MPI_Compare_and_swap's latency path: one value of `n` bytes (1, 2, 4 or 8) at
    /// `origin`, compared with the one at `compare`, swapped into target memory mapped here
    /// in an open passive epoch, under the accumulate lock as `compare_and_swap` does it
    /// (word loads and stores, no slices: this call is a few tens of nanoseconds); the old
    /// value goes to `result`. None: another case, for `compare_and_swap`.
    ///
    /// # Safety
    /// `origin` and `compare` are readable and `result` writable for `n` bytes (MPI's
    /// contract; `result` may alias either).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn try_swap(
        &self,
        host: &dyn RmaHost,
        n: usize,
        origin: usize,
        compare: usize,
        result: usize,
        target: usize,
        disp: u64,
    ) -> Option<Result<()>> {
        let t = self.targets_get(target)?;
        let local = !self.settings.helper_atomics || target == self.comm.rank;
        if !local || !matches!(n, 1 | 2 | 4 | 8) || !self.passive_open(target) {
            return None;
        }
        let cur = mapped_at(t, disp, n)?;
        // SAFETY: each address holds n bytes (the caller's contract; `cur` inside the
        // window, checked); read as n-byte little-endian words, unaligned.
        let load = |a: usize| unsafe {
            match n {
                1 => u64::from(*(a as *const u8)),
                2 => u64::from((a as *const u16).read_unaligned()),
                4 => u64::from((a as *const u32).read_unaligned()),
                _ => (a as *const u64).read_unaligned(),
            }
        };
        // SAFETY: as `load`, writable.
        let store = |a: usize, v: u64| unsafe {
            match n {
                1 => *(a as *mut u8) = v as u8,
                2 => (a as *mut u16).write_unaligned(v as u16),
                4 => (a as *mut u32).write_unaligned(v as u32),
                _ => (a as *mut u64).write_unaligned(v),
            }
        };
        let (new, expected) = (load(origin), load(compare));
        Some(self.with_acc_lock(host, t, || {
            let old = load(cur);
            if old == expected {
                store(cur, new);
            }
            store(result, old);
            Ok(())
        }))
    }

    /// The accumulate family's latency path: `n` bytes of basic type `basic` at `local`
    /// combined by `op` into target memory mapped here, the old contents copied to `result`
    /// first where given (MPI_Get_accumulate, MPI_Fetch_and_op), in an open passive epoch,
    /// with native atomics (under the accumulate lock, as `accumulate` does it). None:
    /// another case, for `accumulate`, which checks and reports everything.
    ///
    /// # Safety
    /// `local` is readable and `result` writable for `n` bytes (MPI's contract).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn try_accumulate(
        &self,
        host: &dyn RmaHost,
        op: Op,
        basic: Basic,
        local: usize,
        result: Option<usize>,
        n: usize,
        target: usize,
        disp: u64,
    ) -> Option<Result<()>> {
        let t = self.targets_get(target)?;
        let native = t.native_atomics && !self.settings.helper_atomics;
        if n == 0 || !native || !self.passive_open(target) || ops::check(op, basic).is_err() {
            return None;
        }
        let cur = mapped_at(t, disp, n)? as *mut u8;
        // SAFETY: [off, off + n) is inside the mapped window (checked); the origin and
        // result buffers hold n bytes (the caller's contract); under the accumulate lock.
        Some(self.with_acc_lock(host, t, || unsafe {
            combine_at(cur, n, op, basic, Some(local), result)
        }))
    }

    /// A request-based put (`get` false) or get that the target's helper can carry out
    /// while the origin computes (Tipparaju 2004 Fig. 7): contiguous on both sides and at
    /// least `async_min` bytes. Queues it and returns its sequence number (see
    /// `helper_done`); None when it should be done at once instead.
    pub fn start_async(
        &self,
        host: &dyn RmaHost,
        get: bool,
        origin: Local,
        target: Remote,
    ) -> Result<Option<u64>> {
        same_size(&origin, &target)?;
        let n = origin.dtype.size * origin.count;
        let min = self.settings.async_min;
        if min == 0
            || n == 0
            || n < min
            || !origin.dtype.is_contiguous()
            || !target.dtype.is_contiguous()
            || target.rank == self.comm.rank
        {
            return Ok(None);
        }
        let t = self.target(target.rank)?;
        let p = self.place(host, t, &target)?;
        let (data, result) = if get {
            (0, origin.addr)
        } else {
            (origin.addr, 0)
        };
        let kind = if get { Kind::Get } else { Kind::Put };
        let d = transfer_desc(kind, &p, data as u64, result as u64);
        let seq = self.helper_post(host, target.rank, d)?;
        if get {
            self.prefetch_local(host, origin.addr, n);
        }
        Ok(Some(seq))
    }

    /// MPI_Put.
    pub fn put(&self, host: &dyn RmaHost, origin: Local, target: Remote) -> Result<()> {
        same_size(&origin, &target)?;
        let t = self.target(target.rank)?;
        if origin.dtype.size * origin.count == 0 {
            return Ok(()); // nothing moves (and no key or address need be valid)
        }
        if origin.dtype.is_contiguous() {
            if let Some((off, n)) = self.contiguous(t, &target)? {
                // SAFETY: the origin buffer holds n bytes (MPI's contract).
                return unsafe {
                    copy_contiguous(
                        self,
                        host,
                        RdmaOp::Write,
                        t,
                        target.rank,
                        off,
                        origin.addr,
                        n,
                    )
                };
            }
        }
        let p = self.place(host, t, &target)?;
        if (self.settings.helper_transfers && target.rank != self.comm.rank)
            || (p.regions && !p.mapped)
        {
            // Host-assisted: one packed stream; the target's helper scatters it.
            let mut data = Vec::new();
            // SAFETY: the origin buffer holds `count` elements (MPI's contract).
            unsafe {
                origin
                    .dtype
                    .pack(origin.count, origin.addr as *const u8, &mut data)
            };
            let d = transfer_desc(Kind::Put, &p, data.as_ptr() as u64, 0);
            return self.helper_call_with_table(host, target.rank, d, &p);
        }
        let local: Vec<(usize, usize)> = local_runs(&origin);
        if p.mapped {
            // SAFETY: the local runs are the application's origin buffer (MPI's contract);
            // the target runs lie inside the mapped window (checked by `place`).
            unsafe { copy_runs(&local, &p.runs, p.origin as usize) };
            Ok(())
        } else {
            // SAFETY: the local runs are the origin buffer, readable and unchanged until
            // the epoch's synchronization (MPI's contract).
            unsafe {
                self.post_transfer(
                    host,
                    target.rank,
                    &Transfer::new(
                        RdmaOp::Write,
                        p.peer,
                        &spans(&local),
                        &remote_spans(&p),
                        &p.rkey,
                        0,
                    ),
                )
            }
        }
    }

    /// MPI_Get.
    pub fn get(&self, host: &dyn RmaHost, origin: Local, target: Remote) -> Result<()> {
        same_size(&origin, &target)?;
        let t = self.target(target.rank)?;
        if origin.dtype.size * origin.count == 0 {
            return Ok(());
        }
        if origin.dtype.is_contiguous() {
            if let Some((off, n)) = self.contiguous(t, &target)? {
                // SAFETY: the origin buffer holds n writable bytes (MPI's contract).
                return unsafe {
                    copy_contiguous(
                        self,
                        host,
                        RdmaOp::Read,
                        t,
                        target.rank,
                        off,
                        origin.addr,
                        n,
                    )
                };
            }
        }
        let p = self.place(host, t, &target)?;
        if (self.settings.helper_transfers && target.rank != self.comm.rank)
            || (p.regions && !p.mapped)
        {
            // Host-assisted: the target's helper gathers into one stream here.
            let mut data = vec![0u8; target.dtype.size * target.count];
            let d = transfer_desc(Kind::Get, &p, 0, data.as_mut_ptr() as u64);
            self.helper_call_with_table(host, target.rank, d, &p)?;
            // SAFETY: the origin buffer holds `count` elements, writable (MPI's contract).
            unsafe {
                origin
                    .dtype
                    .unpack(origin.count, &data, origin.addr as *mut u8)
            };
            return Ok(());
        }
        let local: Vec<(usize, usize)> = local_runs(&origin);
        if p.mapped {
            let src: Vec<(usize, usize)> = p
                .runs
                .iter()
                .map(|&(o, l)| ((p.origin + o) as usize, l))
                .collect();
            // SAFETY: as in `put`, the other way round.
            unsafe { copy_runs(&src, &as_dst(&local), 0) };
            Ok(())
        } else {
            // SAFETY: the local runs are the origin buffer, writable and untouched until
            // the epoch's synchronization (MPI's contract).
            unsafe {
                self.post_transfer(
                    host,
                    target.rank,
                    &Transfer::new(
                        RdmaOp::Read,
                        p.peer,
                        &spans(&local),
                        &remote_spans(&p),
                        &p.rkey,
                        0,
                    ),
                )
            }
        }
    }

    /// The accumulate family: `target = op(origin, target)` element-wise, atomically per
    /// element; the old target values go to `result` if given (MPI_Get_accumulate,
    /// MPI_Fetch_and_op). `origin` None is MPI_NO_OP's "no origin buffer".
    pub fn accumulate(
        &self,
        host: &dyn RmaHost,
        op: Op,
        origin: Option<Local>,
        result: Option<Local>,
        target: Remote,
    ) -> Result<()> {
        // Nothing moves when the target describes no bytes: the operation and the types
        // need not suit each other then (MPI_SUM on MPI_BYTE, count 0). Which op handles
        // a call takes at all (MPI_NO_OP only where results are fetched) is the caller's.
        let nbytes = target.dtype.size * target.count;
        let basic = if nbytes == 0 {
            Basic::Byte
        } else {
            acc_basic(target.dtype)?
        };
        for side in origin.iter().chain(result.iter()) {
            if nbytes > 0 && side.dtype.size * side.count > 0 && acc_basic(side.dtype)? != basic {
                return Err(Error::new(
                    ErrorClass::Type,
                    "origin and target datatypes are built from different basic types",
                ));
            }
        }
        if nbytes > 0 {
            ops::check(op, basic).map_err(|_| {
                Error::new(
                    ErrorClass::Op,
                    format!("the operation is not defined on {basic:?}"),
                )
            })?;
        }
        if let Some(o) = origin.filter(|_| op != Op::NoOp) {
            if o.dtype.size * o.count != nbytes {
                return Err(size_err(o.dtype.size * o.count, nbytes));
            }
        }
        if let Some(r) = result {
            if r.dtype.size * r.count != nbytes {
                return Err(size_err(r.dtype.size * r.count, nbytes));
            }
        }
        let t = self.target(target.rank)?;
        if nbytes == 0 {
            return Ok(());
        }
        // The latency path: everything contiguous on mapped memory, applied in place under
        // the lock, no allocation.
        let contiguous = |l: &Option<Local>| l.is_none_or(|l| l.dtype.is_contiguous());
        let simple = contiguous(&origin.filter(|_| op != Op::NoOp)) && contiguous(&result);
        if simple && t.ctrl.mapped().is_some() && !self.settings.helper_atomics {
            if let Reach::Remote { peer, .. } = t.reach {
                // Rails that name local memory by keys (verbs) would need `cur` registered.
                let keyless = !host.local_keys(peer, RdmaOp::Read, usize::MAX);
                if keyless && !self.settings.helper_transfers {
                    if let Some((off, n)) = self.contiguous(t, &target)? {
                        let origin = origin.filter(|_| op != Op::NoOp);
                        let at = (target.rank, off, n);
                        return self.accumulate_by_rail(host, t, at, op, basic, origin, result);
                    }
                }
            }
        }
        if !self.settings.helper_atomics && t.native_atomics {
            let origin = origin.filter(|_| op != Op::NoOp);
            if simple {
                if let Some((off, n)) = self.contiguous(t, &target)? {
                    let Reach::Mapped { base } = t.reach else {
                        unreachable!("native atomics are on mapped memory")
                    };
                    let (cur, input) = ((base + off as usize) as *mut u8, origin.map(|o| o.addr));
                    // SAFETY: [off, off + n) is inside the mapped window (checked); the
                    // origin and result buffers hold n bytes each (MPI's contract, sizes
                    // checked above); under the accumulate lock.
                    return self.with_acc_lock(host, t, || unsafe {
                        combine_at(cur, n, op, basic, input, result.map(|r| r.addr))
                    });
                }
            }
        }
        let p = self.place(host, t, &target)?;
        // The origin's values, packed (as collectives reduce them).
        let mut input = Vec::new();
        if let Some(o) = origin.filter(|_| op != Op::NoOp) {
            // SAFETY: the origin buffer holds `count` elements (MPI's contract).
            unsafe { o.dtype.pack(o.count, o.addr as *const u8, &mut input) };
        } else {
            input = vec![0u8; nbytes];
        }
        let mut old = vec![0u8; if result.is_some() { nbytes } else { 0 }];
        let by_helper =
            (self.settings.helper_atomics && target.rank != self.comm.rank) || !p.mapped;
        if by_helper && nbytes <= 8 && p.runs.len() == 1 && self.helper_answers(target.rank) {
            // One value (MPI_Fetch_and_op's case): operand and old value ride in the
            // request and its served mark.
            let mut d = transfer_desc(Kind::Acc, &p, le_word(&input), 0);
            d.op = op;
            d.basic = basic;
            d.inline = true;
            let answer = self.helper_fetch(host, target.rank, d)?;
            let n = old.len();
            old.copy_from_slice(&answer[..n]);
        } else if by_helper {
            // The target's helper applies it under the window's accumulate lock.
            let mut d = transfer_desc(Kind::Acc, &p, input.as_ptr() as u64, 0);
            d.op = op;
            d.basic = basic;
            if result.is_some() {
                d.result = old.as_mut_ptr() as u64;
            }
            self.helper_call_with_table(host, target.rank, d, &p)?;
        } else {
            self.accumulate_here(host, t, &p, op, basic, &input, result.is_some(), &mut old)?;
        }
        if let Some(r) = result {
            // SAFETY: the result buffer holds `count` elements, writable (MPI's contract).
            unsafe { r.dtype.unpack(r.count, &old, r.addr as *mut u8) };
        }
        Ok(())
    }

    /// The accumulate on another process's memory on this host (MPI_Win_create's): read,
    /// combined and written back by this process's rail under the target's accumulate lock,
    /// which its block, mapped here, holds (the helper takes the same lock, so this is
    /// atomic with respect to the accumulates it applies). Waking the target's helper
    /// instead cost a thread switch per operation.
    #[allow(clippy::too_many_arguments)]
    fn accumulate_by_rail(
        &self,
        host: &dyn RmaHost,
        t: &Target,
        (rank, off, n): (usize, u64, usize),
        op: Op,
        basic: Basic,
        origin: Option<Local>,
        result: Option<Local>,
    ) -> Result<()> {
        let Reach::Remote { peer, base, rkey } = t.reach else {
            unreachable!("called for another process's memory")
        };
        let mut cur = vec![0u8; n];
        let remote = [Span {
            addr: base + off,
            len: n as u64,
        }];
        let move_cur = |op: RdmaOp, cur: &mut [u8]| {
            let local = [Span {
                addr: cur.as_mut_ptr() as u64,
                len: n as u64,
            }];
            // SAFETY: `cur` is ours, n bytes, alive across the blocking transfer; the
            // target range is inside the window (checked by `contiguous`).
            unsafe { host.transfer(&Transfer::new(op, peer, &local, &remote, &rkey, 0)) }
                .map_err(|e| rail_err(rank, e))
        };
        let (input, out) = (origin.map(|o| o.addr), result.map(|r| r.addr));
        self.with_acc_lock(host, t, || {
            move_cur(RdmaOp::Read, &mut cur)?;
            // SAFETY: `cur` holds n bytes; the origin and result buffers too (MPI's contract).
            unsafe { combine_at(cur.as_mut_ptr(), n, op, basic, input, out)? };
            match input {
                Some(_) => move_cur(RdmaOp::Write, &mut cur),
                None => Ok(()),
            }
        })
    }

    /// The accumulate on mapped memory, by this process, under the target's accumulate
    /// lock (the helper takes the same lock, so every accumulate is atomic with respect to
    /// every other, whoever applies it).
    #[allow(clippy::too_many_arguments)]
    fn accumulate_here(
        &self,
        host: &dyn RmaHost,
        t: &Target,
        p: &Placed,
        op: Op,
        basic: Basic,
        input: &[u8],
        fetch: bool,
        old: &mut [u8],
    ) -> Result<()> {
        self.with_acc_lock(host, t, || {
            let mut cur = vec![0u8; input.len()];
            read_mapped(p, &mut cur);
            if fetch {
                old.copy_from_slice(&cur);
            }
            if op != Op::NoOp {
                ops::apply_packed(op, basic, input, &mut cur)
                    .map_err(|_| Error::new(ErrorClass::Op, "operation not defined on the type"))?;
                write_mapped(p, &cur);
            }
            Ok(())
        })
    }

    /// `helper_call` with the target run table `d` points to kept alive for the call.
    fn helper_call_with_table(
        &self,
        host: &dyn RmaHost,
        rank: usize,
        mut d: Desc,
        p: &Placed,
    ) -> Result<()> {
        let table: Vec<u8> = if p.runs.len() > 1 {
            p.runs
                .iter()
                .flat_map(|&(o, l)| o.to_le_bytes().into_iter().chain((l as u64).to_le_bytes()))
                .collect()
        } else {
            Vec::new()
        };
        if !table.is_empty() {
            d.target = 0;
            d.runs = table.as_ptr() as u64;
            d.nruns = p.runs.len() as u32;
        }
        self.helper_call(host, rank, d)
    }

    /// MPI_Compare_and_swap: one element; `result` gets the old value, and the target takes
    /// `origin` if the old value equals `compare`.
    pub fn compare_and_swap(
        &self,
        host: &dyn RmaHost,
        basic: Basic,
        origin: &[u8],
        compare: &[u8],
        result: &mut [u8],
        target: Remote,
    ) -> Result<()> {
        let w = basic.size();
        let t = self.target(target.rank)?;
        if !self.settings.helper_atomics || target.rank == self.comm.rank {
            if let (Reach::Mapped { base }, Some((off, _))) =
                (t.reach, self.contiguous(t, &target)?)
            {
                return self.with_acc_lock(host, t, || {
                    // SAFETY: one value inside the mapped window (checked by `contiguous`);
                    // we hold the accumulate lock.
                    let cur = unsafe {
                        std::slice::from_raw_parts_mut((base + off as usize) as *mut u8, w)
                    };
                    result[..w].copy_from_slice(cur);
                    if *cur == compare[..w] {
                        cur.copy_from_slice(&origin[..w]);
                    }
                    Ok(())
                });
            }
        }
        let p = self.place(host, t, &target)?;
        if p.mapped && (!self.settings.helper_atomics || target.rank == self.comm.rank) {
            // Our own dynamic window: its memory is ours, applied here under the lock.
            return self.with_acc_lock(host, t, || {
                let mut cur = vec![0u8; w];
                read_mapped(&p, &mut cur);
                result[..w].copy_from_slice(&cur);
                if cur == compare[..w] {
                    write_mapped(&p, &origin[..w]);
                }
                Ok(())
            });
        }
        let inline = |v: &[u8]| le_word(&v[..w.min(8)]);
        let mut d = transfer_desc(Kind::Cas, &p, inline(origin), result.as_mut_ptr() as u64);
        d.basic = basic;
        d.compare = inline(compare);
        if p.runs.len() == 1 && self.helper_answers(target.rank) {
            // The old value rides back in the served mark.
            d.result = 0;
            d.inline = true;
            let answer = self.helper_fetch(host, target.rank, d)?;
            result[..w].copy_from_slice(&answer[..w]);
            return Ok(());
        }
        self.helper_call(host, target.rank, d)
    }

    fn with_acc_lock<T>(
        &self,
        host: &dyn RmaHost,
        t: &Target,
        f: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        // Applied here only on memory mapped here, whose block is mapped too.
        let ctrl = t
            .ctrl
            .mapped()
            .expect("the accumulate lock of a mapped window");
        let mut spins = 0u32;
        while !ctrl.try_acc_lock() {
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                host.idle();
            }
        }
        let r = f();
        ctrl.acc_unlock();
        r
    }
}

/// One accumulate on `n` bytes at `cur`, under the accumulate lock: their old value copied
/// to `result` first (the fetching calls), then `input` combined into them by `op`
/// (none: MPI_NO_OP).
///
/// # Safety
/// `cur` is writable, `input` readable and `result` writable for `n` bytes.
unsafe fn combine_at(
    cur: *mut u8,
    n: usize,
    op: Op,
    basic: Basic,
    input: Option<usize>,
    result: Option<usize>,
) -> Result<()> {
    // One 8- or 4-byte integer summed (MPI_Fetch_and_op's common case): word loads and
    // stores, not the general combine (a third of the call's 40 ns).
    if let (Some(i), Op::Sum, Basic::I64 | Basic::U64 | Basic::I32 | Basic::U32) =
        (input, op, basic)
    {
        // SAFETY: the caller's contract: n bytes at each address.
        let done = unsafe {
            match n {
                8 => sum_word(cur, i, result, u64::wrapping_add),
                4 => sum_word(cur, i, result, u32::wrapping_add),
                _ => false,
            }
        };
        if done {
            return Ok(());
        }
    }
    if let Some(r) = result {
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy(cur, r as *mut u8, n) };
    }
    let Some(i) = input else {
        return Ok(());
    };
    // SAFETY: the caller's contract.
    let (input, cur) = unsafe {
        let input = std::slice::from_raw_parts(i as *const u8, n);
        (input, std::slice::from_raw_parts_mut(cur, n))
    };
    ops::apply_packed(op, basic, input, cur)
        .map_err(|_| Error::new(ErrorClass::Op, "operation not defined on the type"))
}

/// Add the integer at `input` to the one at `cur` (unaligned words of `T`), the old value
/// to `result`; true, so that the caller's match reads as "done".
///
/// # Safety
/// `size_of::<T>()` bytes at each address; `result` may alias `input` (read first).
unsafe fn sum_word<T: Copy>(
    cur: *mut u8,
    input: usize,
    result: Option<usize>,
    add: fn(T, T) -> T,
) -> bool {
    // SAFETY: the caller's contract.
    unsafe {
        let (c, x) = (cur as *mut T, (input as *const T).read_unaligned());
        let old = c.read_unaligned();
        c.write_unaligned(add(old, x));
        if let Some(r) = result {
            (r as *mut T).write_unaligned(old);
        }
    }
    true
}

/// Move `n` bytes between `local` here and `[off, off + n)` of `t`'s window (checked to be
/// inside it by the caller): one copy where the memory is mapped here, one rail transfer
/// posted by `w` (completing at its next synchronization) where it is another process's.
///
/// # Safety
/// `local` is valid for `n` bytes (readable for a put, writable for a get) until then; the
/// target range is inside the window.
#[allow(clippy::too_many_arguments)]
unsafe fn copy_contiguous(
    w: &Window,
    host: &dyn RmaHost,
    op: RdmaOp,
    t: &Target,
    rank: usize,
    off: u64,
    local: usize,
    n: usize,
) -> Result<()> {
    match t.reach {
        Reach::Mapped { base } => {
            copy_mapped(op, base + off as usize, local, n);
            Ok(())
        }
        Reach::Remote { peer, base, rkey } => {
            let l = [Span {
                addr: local as u64,
                len: n as u64,
            }];
            let r = [Span {
                addr: base + off,
                len: n as u64,
            }];
            let t = Transfer {
                defer: true,
                ..Transfer::new(op, peer, &l, &r, &rkey, 0)
            };
            // SAFETY: the caller's contract.
            unsafe { w.post_transfer(host, rank, &t) }
        }
        Reach::Dynamic { .. } => unreachable!("dynamic windows are never placed contiguously"),
    }
}

/// `n` bytes between `local` and `remote`, both mapped here (`op` as seen from `local`).
///
/// # Safety
/// Both ranges are valid for `n` bytes in the direction `op` moves them.
unsafe fn copy_mapped(op: RdmaOp, remote: usize, local: usize, n: usize) {
    let (src, dst) = match op {
        RdmaOp::Read => (remote, local),
        RdmaOp::Write => (local, remote),
    };
    crate::fabric::mapped::copy(src as *const u8, dst as *mut u8, n);
}

/// Read the placed (mapped) target bytes, in run order, into `out`.
fn read_mapped(p: &Placed, out: &mut [u8]) {
    let src: Vec<(usize, usize)> = p
        .runs
        .iter()
        .map(|&(o, l)| ((p.origin + o) as usize, l))
        .collect();
    // SAFETY: target runs inside the mapped window (checked by `place`); `out` is ours.
    unsafe { copy_runs(&src, &as_dst(&[(out.as_mut_ptr() as usize, out.len())]), 0) };
}

fn write_mapped(p: &Placed, data: &[u8]) {
    // SAFETY: target runs inside the mapped window (checked by `place`); `data` is ours.
    unsafe {
        copy_runs(
            &[(data.as_ptr() as usize, data.len())],
            &p.runs,
            p.origin as usize,
        )
    };
}

/// The address here of `n` bytes at displacement `disp` of target `t`'s window, if it is
/// mapped here and they lie inside it (None: not mapped, or outside, which the general
/// paths report).
fn mapped_at(t: &Target, disp: u64, n: usize) -> Option<usize> {
    let Reach::Mapped { base } = t.reach else {
        return None;
    };
    let off = disp.checked_mul(t.disp_unit)?;
    (off <= t.size && n as u64 <= t.size - off).then_some(base + off as usize)
}

/// A helper descriptor for the placed target side (one contiguous range; a run table is
/// attached by `helper_call_with_table`).
/// Up to 8 bytes as a little-endian word (the rest zero): an operand carried inline.
fn le_word(v: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..v.len()].copy_from_slice(v);
    u64::from_le_bytes(b)
}

fn transfer_desc(kind: Kind, p: &Placed, data: u64, result: u64) -> Desc {
    Desc {
        kind,
        op: Op::Replace,
        basic: Basic::Byte,
        target: p.runs.first().map_or(0, |r| r.0),
        len: p.runs.iter().map(|r| r.1 as u64).sum(),
        data,
        result,
        compare: 0,
        runs: 0,
        nruns: 0,
        // Filled in when the request is queued (`helper_post`).
        window: 0,
        data_key: RemoteKey::NONE,
        result_key: RemoteKey::NONE,
        runs_key: RemoteKey::NONE,
        inline: false,
    }
}

/// The span `[lo, hi)` of bytes the target side covers, relative to its displacement.
fn span(r: &Remote) -> Result<(i128, i128)> {
    if r.count == 0 || r.dtype.size == 0 {
        return Ok((0, 0));
    }
    let t = r.dtype;
    let last = (r.count as i128 - 1) * t.extent as i128;
    let lo = t.true_lb as i128 + last.min(0);
    let hi = t.true_ub() as i128 + last.max(0);
    Ok((lo, hi))
}

fn size_err(have: usize, want: usize) -> Error {
    Error::new(
        ErrorClass::Arg,
        format!("origin describes {have} bytes but the target {want}"),
    )
}

fn same_size(o: &Local, t: &Remote) -> Result<()> {
    let (a, b) = (o.dtype.size * o.count, t.dtype.size * t.count);
    if a != b {
        return Err(size_err(a, b));
    }
    Ok(())
}

/// The basic type an accumulate's datatype is made of.
fn acc_basic(t: &Datatype) -> Result<Basic> {
    match t.basic {
        Some((b, _)) => Ok(b),
        None if t.size == 0 => Ok(Basic::Byte),
        None => Err(Error::new(
            ErrorClass::Type,
            "accumulate datatypes must be made of one predefined type",
        )),
    }
}

fn local_runs(l: &Local) -> Vec<(usize, usize)> {
    l.dtype
        .runs(l.count)
        .map(|(off, len)| ((l.addr as isize + off) as usize, len))
        .collect()
}

/// Absolute local runs as `copy_runs` destinations (offsets from 0).
fn as_dst(runs: &[(usize, usize)]) -> Vec<(u64, usize)> {
    runs.iter().map(|&(a, l)| (a as u64, l)).collect()
}

/// Local runs as rail spans.
fn spans(runs: &[(usize, usize)]) -> Vec<Span> {
    runs.iter()
        .map(|&(a, l)| Span {
            addr: a as u64,
            len: l as u64,
        })
        .collect()
}

/// The placed target runs as spans in the target.
fn remote_spans(p: &Placed) -> Vec<Span> {
    p.runs
        .iter()
        .map(|&(o, len)| Span {
            addr: p.origin + o,
            len: len as u64,
        })
        .collect()
}

/// Copy the bytes of the `src` runs (absolute addresses) into the `dst` runs (offsets from
/// `dst_base`), both in order, until either ends.
///
/// # Safety
/// Every run must be valid for its length (readable / writable).
unsafe fn copy_runs(src: &[(usize, usize)], dst: &[(u64, usize)], dst_base: usize) {
    let (mut si, mut so, mut di, mut dof) = (0, 0, 0, 0);
    while si < src.len() && di < dst.len() {
        let (sa, sl) = src[si];
        let (da, dl) = dst[di];
        let n = (sl - so).min(dl - dof);
        crate::fabric::mapped::copy(
            (sa + so) as *const u8,
            (dst_base + da as usize + dof) as *mut u8,
            n,
        );
        so += n;
        dof += n;
        if so == sl {
            si += 1;
            so = 0;
        }
        if dof == dl {
            di += 1;
            dof = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_sums_match_the_general_combine_and_fetch_the_old_value() {
        for (basic, n) in [
            (Basic::I64, 8),
            (Basic::U32, 4),
            (Basic::I32, 4),
            (Basic::I16, 2),
        ] {
            let (a, b) = (0x7fff_ffff_ffff_fff0_u64, 0x25_u64);
            let mut word = a.to_le_bytes();
            let add = b.to_le_bytes();
            let mut old = [0u8; 8];
            // SAFETY: every pointer has 8 bytes behind it; n <= 8.
            unsafe {
                combine_at(
                    word.as_mut_ptr(),
                    n,
                    Op::Sum,
                    basic,
                    Some(add.as_ptr() as usize),
                    Some(old.as_mut_ptr() as usize),
                )
            }
            .unwrap();
            let mut want = a.to_le_bytes();
            ops::apply_packed(Op::Sum, basic, &add[..n], &mut want[..n]).unwrap();
            assert_eq!(word, want, "{basic:?}");
            assert_eq!(old[..n], a.to_le_bytes()[..n], "{basic:?}");
            assert!(
                old[n..].iter().all(|&x| x == 0),
                "{basic:?}: wrote past the value"
            );
        }
    }
}
