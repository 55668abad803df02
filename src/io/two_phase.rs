//! Collective buffering (two-phase I/O) for the `_all` calls. The processes swap the
//! extents of their accesses; when some access is noncontiguous or the accesses
//! interleave, the aggregate byte range is cut into one contiguous file domain per
//! aggregator (by default the first process of each host), and the domains are worked
//! through in rounds of at most `cb_buffer_size` bytes: in each round every process sends
//! each aggregator the pieces of its access that fall in the aggregator's window
//! (offsets, lengths and, for a write, the bytes), and the aggregator issues one large
//! `pwrite` (reading the window first when the pieces leave holes, under a write lock) or
//! one large `pread` whose bytes it sends back. Otherwise each process accesses its own
//! bytes independently.

use super::access;
use super::exchange::{from_bytes, to_bytes, Exchange};
use super::hints::CbMode;
use super::posix::{Fd, LockKind};
use crate::error::{Error, ErrorClass, Result};

/// `[lo, hi)` cut into `n` contiguous domains of (nearly) equal size, boundaries on
/// multiples of `align` when it is not 0; some domains may be empty.
pub fn file_domains(lo: u64, hi: u64, n: usize, align: u64) -> Vec<(u64, u64)> {
    let n = n.max(1) as u64;
    let len = hi.saturating_sub(lo);
    let per = len.div_ceil(n);
    let cut = |i: u64| {
        let b = (lo + i * per).min(hi);
        if align > 0 && i > 0 && b < hi {
            (b / align * align).max(lo)
        } else {
            b
        }
    };
    (0..n).map(|i| (cut(i), cut(i + 1))).collect()
}

/// The aggregators among processes whose hosts are `host_of` (one id per rank): the first
/// process of each host, then the next of each host in turn, up to `cb_nodes`.
pub fn aggregators(host_of: &[u64], cb_nodes: usize) -> Vec<usize> {
    let mut hosts: Vec<(u64, Vec<usize>)> = Vec::new();
    for (r, &h) in host_of.iter().enumerate() {
        match hosts.iter_mut().find(|e| e.0 == h) {
            Some(e) => e.1.push(r),
            None => hosts.push((h, vec![r])),
        }
    }
    let want = cb_nodes.clamp(1, host_of.len().max(1));
    let mut out = Vec::new();
    let mut level = 0;
    while out.len() < want {
        for (_, ranks) in &hosts {
            if let Some(&r) = ranks.get(level) {
                if out.len() < want {
                    out.push(r);
                }
            }
        }
        level += 1;
    }
    out.sort_unstable();
    out
}

/// Whether accesses with these per-process (lo, hi, pieces) extents need collective
/// buffering under `mode`: some is noncontiguous, or two overlap or interleave.
pub fn wanted(mode: CbMode, extents: &[(u64, u64, u64)]) -> bool {
    match mode {
        CbMode::Enable => true,
        CbMode::Disable => false,
        CbMode::Automatic => {
            let mut busy: Vec<(u64, u64)> = extents
                .iter()
                .filter(|e| e.0 < e.1)
                .map(|e| (e.0, e.1))
                .collect();
            if busy.len() < 2 {
                return false;
            }
            if extents.iter().any(|e| e.2 > 1) {
                return true;
            }
            busy.sort_unstable();
            busy.windows(2).any(|w| w[1].0 < w[0].1)
        }
    }
}

/// The plan all processes share for one collective call.
struct Plan {
    aggrs: Vec<usize>,
    domains: Vec<(u64, u64)>,
    rounds: u64,
    cb: u64,
    /// How many file ranges each process accesses (bounds its pieces in any window).
    ranges: Vec<u64>,
}

impl Plan {
    /// The most bytes each process may send an aggregator in a round (what `alltoallv`
    /// trusts another process with): the count and one (offset, len) per range it
    /// accesses; with `data` (a write, whose ranges do not overlap) at most a window's
    /// worth of pieces, each a byte or more, and the window's bytes.
    fn limits(&self, data: bool) -> Vec<u64> {
        self.ranges
            .iter()
            .map(|&n| {
                let (pieces, bytes) = if data {
                    (n.min(self.cb), self.cb)
                } else {
                    (n, 0)
                };
                pieces
                    .saturating_mul(16)
                    .saturating_add(8)
                    .saturating_add(bytes)
            })
            .collect()
    }

    /// The window of aggregator `j` in round `k`.
    fn window(&self, j: usize, k: u64) -> (u64, u64) {
        let (lo, hi) = self.domains[j];
        ((lo + k * self.cb).min(hi), (lo + (k + 1) * self.cb).min(hi))
    }
}

/// The collective settings of a file.
pub struct Setup<'a> {
    pub fd: &'a Fd,
    pub aggrs: &'a [usize],
    pub cb_buffer: usize,
    pub align: u64,
    pub mode: CbMode,
    pub sieve: usize,
    pub atomic: bool,
    /// The descriptor can be read (else holes are left alone: covered runs written one
    /// by one).
    pub readable: bool,
}

/// Swaps extents and decides: None when each process is to access its own bytes.
fn plan(ex: &Exchange, s: &Setup, ranges: &[(u64, u64)]) -> Result<Option<Plan>> {
    let lo = ranges.iter().map(|r| r.0).min().unwrap_or(u64::MAX);
    let hi = ranges.iter().map(|r| r.0 + r.1).max().unwrap_or(0);
    let all = ex.allgather(&[lo, hi, ranges.len() as u64])?;
    let extents: Vec<(u64, u64, u64)> = all.chunks_exact(3).map(|c| (c[0], c[1], c[2])).collect();
    if !wanted(s.mode, &extents) {
        return Ok(None);
    }
    let glo = extents.iter().map(|e| e.0).min().unwrap_or(0);
    let ghi = extents.iter().map(|e| e.1).max().unwrap_or(0);
    let domains = file_domains(glo, ghi.max(glo), s.aggrs.len(), s.align);
    let cb = s.cb_buffer.max(1) as u64;
    let rounds = domains
        .iter()
        .map(|d| (d.1 - d.0).div_ceil(cb))
        .max()
        .unwrap_or(0);
    Ok(Some(Plan {
        aggrs: s.aggrs.to_vec(),
        domains,
        rounds,
        cb,
        ranges: extents.iter().map(|e| e.2).collect(),
    }))
}

/// A piece of one process's access: (file offset, length, stream position).
type Piece = (u64, u64, u64);

/// Whether ranges' starts and ends both never decrease (what a filetype without
/// overlapping runs gives): then a window's pieces are found by binary search.
fn sorted(ranges: &[(u64, u64)]) -> bool {
    ranges
        .windows(2)
        .all(|w| w[0].0 <= w[1].0 && w[0].0 + w[0].1 <= w[1].0 + w[1].1)
}

/// My pieces in window `[lo, hi)`; `sorted`: as `sorted(ranges)`.
fn pieces(ranges: &[(u64, u64)], spos: &[u64], lo: u64, hi: u64, sorted: bool) -> Vec<Piece> {
    let mut out = Vec::new();
    if lo >= hi {
        return out;
    }
    let first = if sorted {
        ranges.partition_point(|r| r.0 + r.1 <= lo)
    } else {
        0
    };
    for (i, &(o, l)) in ranges.iter().enumerate().skip(first) {
        if o >= hi && sorted {
            break;
        }
        let (a, b) = (o.max(lo), (o + l).min(hi));
        if a < b {
            out.push((a, b - a, spos[i] + (a - o)));
        }
    }
    out
}

fn stream_positions(ranges: &[(u64, u64)]) -> Vec<u64> {
    let mut acc = 0;
    ranges
        .iter()
        .map(|r| {
            let p = acc;
            acc += r.1;
            p
        })
        .collect()
}

/// The pieces (offset, len) one process sent to this aggregator for its window
/// `[lo, hi)`, and where the pieces' bytes start in the message; with `data` the bytes
/// follow (a write), else the message is the pieces alone (a read's ask). Checked: the
/// message comes from another process, and a piece outside the window (a file range
/// this aggregator does not own, or a span it would allocate) or bytes the message does
/// not hold are refused.
fn parse(msg: &[u8], (lo, hi): (u64, u64), data: bool) -> Result<(Vec<(u64, u64)>, usize)> {
    if msg.is_empty() {
        return Ok((Vec::new(), 0));
    }
    let bad = || {
        Error::new(
            ErrorClass::Intern,
            "malformed collective I/O message from another process",
        )
    };
    let n = msg
        .get(..8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
        .ok_or_else(bad)?;
    let head = n
        .checked_mul(16)
        .and_then(|b| b.checked_add(8))
        .filter(|&b| b <= msg.len() as u64)
        .ok_or_else(bad)? as usize;
    let ps: Vec<(u64, u64)> = from_bytes(&msg[8..head])
        .chunks_exact(2)
        .map(|c| (c[0], c[1]))
        .collect();
    let mut bytes = 0u64;
    for &(o, l) in &ps {
        if o < lo || o.checked_add(l).is_none_or(|end| end > hi) {
            return Err(bad());
        }
        bytes = bytes.checked_add(l).ok_or_else(bad)?;
    }
    let body = (msg.len() - head) as u64;
    if (data && bytes != body) || (!data && body != 0) {
        return Err(bad());
    }
    Ok((ps, head))
}

fn header(ps: &[Piece]) -> Vec<u8> {
    let mut v = vec![ps.len() as u64];
    for p in ps {
        v.push(p.0);
        v.push(p.1);
    }
    to_bytes(&v)
}

/// MPI_File_write_all and friends: `data` is this process's stream bytes, `ranges`
/// their file ranges in stream order.
pub fn write(ex: &Exchange, s: &Setup, ranges: &[(u64, u64)], data: &[u8]) -> Result<()> {
    let Some(p) = plan(ex, s, ranges)? else {
        return access::write(s.fd, ranges, data, s.sieve, s.atomic);
    };
    // Everyone returns once the aggregators wrote (a process reads its own writes back
    // at once) and learns whether they could.
    let r = write_rounds(ex, s, &p, ranges, data);
    ex.agree(r)
}

fn write_rounds(
    ex: &Exchange,
    s: &Setup,
    p: &Plan,
    ranges: &[(u64, u64)],
    data: &[u8],
) -> Result<()> {
    let spos = stream_positions(ranges);
    let in_order = sorted(ranges);
    let n = ex.size();
    let mut buf = Vec::new();
    let mut failed = Ok(());
    for k in 0..p.rounds {
        let mut send = vec![Vec::new(); n];
        for (j, &a) in p.aggrs.iter().enumerate() {
            let (lo, hi) = p.window(j, k);
            let ps = pieces(ranges, &spos, lo, hi, in_order);
            if ps.is_empty() {
                continue;
            }
            let mut msg = header(&ps);
            for &(_, l, sp) in &ps {
                msg.extend_from_slice(&data[sp as usize..(sp + l) as usize]);
            }
            send[a] = msg;
        }
        let got = ex.alltoallv(send, &p.limits(true))?;
        let Some(j) = p.aggrs.iter().position(|&a| a == ex.rank()) else {
            continue;
        };
        if failed.is_err() {
            continue;
        }
        // Every piece sent here: (offset, len, sender, byte position in its message).
        let mut all: Vec<(u64, u64, usize, usize)> = Vec::new();
        for (src, msg) in got.iter().enumerate() {
            let (ps, mut at) = match parse(msg, p.window(j, k), true) {
                Ok(parsed) => parsed,
                Err(e) => {
                    failed = Err(e);
                    break;
                }
            };
            for (o, l) in ps {
                all.push((o, l, src, at));
                at += l as usize;
            }
        }
        if all.is_empty() || failed.is_err() {
            continue;
        }
        failed = write_window(s, &mut buf, all, &got);
    }
    failed
}

/// An aggregator writes the pieces (offset, len, sender, position in its message) of one
/// window.
fn write_window(
    s: &Setup,
    buf: &mut Vec<u8>,
    mut all: Vec<(u64, u64, usize, usize)>,
    got: &[Vec<u8>],
) -> Result<()> {
    all.sort_by_key(|x| x.0);
    let lo = all[0].0;
    let mut hi = lo;
    let (mut holes, mut tiled) = (false, true);
    for x in &all {
        holes |= x.0 > hi;
        tiled &= x.0 == hi;
        hi = hi.max(x.0 + x.1);
    }
    let _lock = if holes || s.atomic {
        s.fd.lock(LockKind::Write, lo, hi - lo)?
    } else {
        None
    };
    // Pieces that tile the window and are not small go out straight from the messages
    // (one pwritev per IOV_MAX pieces): no copy into the collective buffer.
    if tiled && (hi - lo) / all.len() as u64 >= MIN_GATHER_PIECE {
        let iov: Vec<&[u8]> = all
            .iter()
            .map(|&(_, l, src, at)| &got[src][at..at + l as usize])
            .collect();
        return s.fd.pwritev_all(&iov, lo);
    }
    let span = (hi - lo) as usize;
    if buf.len() < span {
        buf.resize(span, 0);
    }
    let buf = &mut buf[..span];
    if holes && s.readable {
        // Past the end of the file the holes read as zeros.
        let n = s.fd.pread_full(buf, lo)?;
        buf[n..].fill(0);
    }
    for &(o, l, src, at) in &all {
        let d = (o - lo) as usize;
        buf[d..d + l as usize].copy_from_slice(&got[src][at..at + l as usize]);
    }
    if !holes || s.readable {
        return s.fd.pwrite_all(buf, lo);
    }
    for (o, l) in covered(&all) {
        let d = (o - lo) as usize;
        s.fd.pwrite_all(&buf[d..d + l as usize], o)?;
    }
    Ok(())
}

/// Pieces at least this large on average are written with pwritev from where they
/// arrived; smaller ones are gathered into one buffer first (a pwritev of thousands of
/// tiny pieces costs more than the copy).
const MIN_GATHER_PIECE: u64 = 4096;

/// The runs (offset, len) that sorted pieces cover, overlapping and adjacent ones merged.
fn covered(sorted: &[(u64, u64, usize, usize)]) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &(o, l, _, _) in sorted {
        match out.last_mut() {
            Some(r) if o <= r.0 + r.1 => r.1 = r.1.max(o + l - r.0),
            _ => out.push((o, l)),
        }
    }
    out
}

/// MPI_File_read_all and friends: fills `data` (this process's stream bytes) from
/// `ranges`; the stream bytes read (fewer at end of file).
pub fn read(ex: &Exchange, s: &Setup, ranges: &[(u64, u64)], data: &mut [u8]) -> Result<usize> {
    let mut ranges = ranges.to_vec();
    let total = access::clip_to_eof(&mut ranges, s.fd.size()?) as usize;
    let Some(p) = plan(ex, s, &ranges)? else {
        return access::read(s.fd, &ranges, data, s.sieve, s.atomic);
    };
    let spos = stream_positions(&ranges);
    let in_order = sorted(&ranges);
    let n = ex.size();
    let mut buf = Vec::new();
    let mut failed = Ok(());
    for k in 0..p.rounds {
        let mut send = vec![Vec::new(); n];
        let mut mine: Vec<(usize, Vec<Piece>)> = Vec::new();
        for (j, &a) in p.aggrs.iter().enumerate() {
            let (lo, hi) = p.window(j, k);
            let ps = pieces(&ranges, &spos, lo, hi, in_order);
            if ps.is_empty() {
                continue;
            }
            send[a] = header(&ps);
            mine.push((a, ps));
        }
        let asks = ex.alltoallv(send, &p.limits(false))?;
        let mut replies = vec![Vec::new(); n];
        let me = p.aggrs.iter().position(|&a| a == ex.rank());
        if let (Some(j), true) = (me, failed.is_ok()) {
            match read_window(s, &mut buf, &asks, p.window(j, k)) {
                Ok(r) => replies = r,
                Err(e) => failed = Err(e),
            }
        }
        // What each aggregator may send back: exactly the bytes asked of it.
        let mut expect = vec![0u64; n];
        for (a, ps) in &mine {
            expect[*a] = ps.iter().map(|p| p.1).sum();
        }
        let back = ex.alltoallv(replies, &expect)?;
        for (a, ps) in mine {
            let need = expect[a];
            if back[a].len() as u64 != need {
                continue; // the aggregator failed: `agree` below reports it
            }
            let mut at = 0usize;
            for (_, l, sp) in ps {
                let l = l as usize;
                data[sp as usize..sp as usize + l].copy_from_slice(&back[a][at..at + l]);
                at += l;
            }
        }
    }
    ex.agree(failed)?;
    Ok(total)
}

/// An aggregator reads the span the asks (each process's pieces) cover in one call; the
/// replies, each process's bytes in the order it asked.
fn read_window(
    s: &Setup,
    buf: &mut Vec<u8>,
    asks: &[Vec<u8>],
    window: (u64, u64),
) -> Result<Vec<Vec<u8>>> {
    let parsed = asks
        .iter()
        .map(|m| parse(m, window, false).map(|(ps, _)| ps))
        .collect::<Result<Vec<_>>>()?;
    let mut replies = vec![Vec::new(); asks.len()];
    let lo = parsed.iter().flatten().map(|x| x.0).min();
    let hi = parsed.iter().flatten().map(|x| x.0 + x.1).max();
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Ok(replies);
    };
    let _lock = if s.atomic {
        s.fd.lock(LockKind::Read, lo, hi - lo)?
    } else {
        None
    };
    // Pieces that tile the span and are not small are read straight into the replies
    // (preadv); otherwise the span is read once and the pieces copied out.
    let mut order: Vec<(u64, u64, usize, usize)> = Vec::new();
    for (src, ps) in parsed.iter().enumerate() {
        let mut at = 0usize;
        for &(o, l) in ps {
            order.push((o, l, src, at));
            at += l as usize;
        }
        replies[src] = vec![0u8; at];
    }
    order.sort_by_key(|x| x.0);
    let mut end = lo;
    let tiled = order.iter().all(|x| {
        let ok = x.0 == end;
        end = x.0 + x.1;
        ok
    });
    if tiled && (hi - lo) / order.len() as u64 >= MIN_GATHER_PIECE {
        let mut parts: Vec<&mut [u8]> = Vec::with_capacity(order.len());
        let mut rest: Vec<&mut [u8]> = replies.iter_mut().map(|r| r.as_mut_slice()).collect();
        // Each source's pieces are asked in file order (its ranges are), so they come
        // off the front of its reply in turn.
        let mut taken = vec![0usize; rest.len()];
        let mut sorted_ok = true;
        for &(_, l, src, at) in &order {
            if taken[src] != at {
                sorted_ok = false;
                break;
            }
            let r = std::mem::take(&mut rest[src]);
            let (head, tail) = r.split_at_mut(l as usize);
            parts.push(head);
            rest[src] = tail;
            taken[src] += l as usize;
        }
        if sorted_ok {
            s.fd.preadv_full(&mut parts, lo)?;
            return Ok(replies);
        }
    }
    let span = (hi - lo) as usize;
    if buf.len() < span {
        buf.resize(span, 0);
    }
    let buf = &mut buf[..span];
    let n = s.fd.pread_full(buf, lo)?;
    buf[n..].fill(0);
    for &(o, l, src, at) in &order {
        let d = (o - lo) as usize;
        replies[src][at..at + l as usize].copy_from_slice(&buf[d..d + l as usize]);
    }
    Ok(replies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_message_is_checked_before_use() {
        let ps = [(100u64, 10u64, 0u64), (120, 5, 10)];
        let mut msg = header(&ps);
        msg.extend_from_slice(&[7u8; 15]);
        assert_eq!(
            parse(&msg, (100, 200), true).unwrap(),
            (vec![(100, 10), (120, 5)], 8 + 32)
        );
        let refused = |m: &[u8], w: (u64, u64), data: bool| {
            parse(m, w, data).unwrap_err().class == ErrorClass::Intern
        };
        // Outside the window, bytes missing or extra, an ask carrying bytes.
        assert!(refused(&msg, (105, 200), true));
        assert!(refused(&msg, (100, 124), true));
        assert!(refused(&msg[..msg.len() - 1], (100, 200), true));
        assert!(refused(&msg, (100, 200), false));
        // A truncated count, a count past the message, an offset + length that wraps.
        assert!(refused(&msg[..5], (0, u64::MAX), true));
        let mut huge = msg.clone();
        huge[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(refused(&huge, (0, u64::MAX), true));
        let wrap = header(&[(u64::MAX - 1, 4, 0)]);
        assert!(refused(&wrap, (0, u64::MAX), false));
        assert_eq!(parse(&[], (0, 1), true).unwrap(), (vec![], 0));
    }

    #[test]
    fn domains_cover_the_range() {
        assert_eq!(
            file_domains(0, 100, 4, 0),
            vec![(0, 25), (25, 50), (50, 75), (75, 100)]
        );
        assert_eq!(
            file_domains(10, 13, 4, 0),
            vec![(10, 11), (11, 12), (12, 13), (13, 13)]
        );
        // Aligned to 16: boundaries 0|25→16|50→48|75→64.
        assert_eq!(
            file_domains(0, 100, 4, 16),
            vec![(0, 16), (16, 48), (48, 64), (64, 100)]
        );
        assert_eq!(file_domains(5, 5, 2, 0), vec![(5, 5), (5, 5)]);
    }

    #[test]
    fn aggregators_one_per_host_first() {
        assert_eq!(aggregators(&[7, 7, 9, 9], 2), vec![0, 2]);
        assert_eq!(aggregators(&[7, 7, 9, 9], 3), vec![0, 1, 2]);
        assert_eq!(aggregators(&[7, 7, 7, 7], 1), vec![0]);
        assert_eq!(aggregators(&[1, 2], 10), vec![0, 1]);
    }

    #[test]
    fn when_to_buffer() {
        let contig = [(0, 10, 1), (10, 20, 1)];
        assert!(!wanted(CbMode::Automatic, &contig));
        assert!(wanted(CbMode::Enable, &contig));
        assert!(wanted(CbMode::Automatic, &[(0, 10, 3), (10, 20, 1)]));
        assert!(wanted(CbMode::Automatic, &[(0, 15, 1), (10, 20, 1)]));
        assert!(!wanted(CbMode::Automatic, &[(0, 15, 3), (u64::MAX, 0, 0)]));
        assert!(!wanted(CbMode::Disable, &[(0, 10, 3), (10, 20, 1)]));
    }

    #[test]
    fn covered_runs_merge() {
        let p = [(0, 4, 0, 0), (2, 4, 1, 0), (6, 2, 0, 0), (10, 1, 2, 0)];
        assert_eq!(covered(&p), vec![(0, 8), (10, 1)]);
    }

    #[test]
    fn pieces_clip_to_window() {
        let r = [(0, 10), (20, 10), (40, 10)];
        let sp = stream_positions(&r);
        assert!(sorted(&r));
        assert_eq!(pieces(&r, &sp, 5, 25, true), vec![(5, 5, 5), (20, 5, 10)]);
        assert_eq!(pieces(&r, &sp, 30, 40, true), vec![]);
        assert_eq!(pieces(&r, &sp, 45, 100, true), vec![(45, 5, 25)]);
        // Overlapping runs (a filetype may have them): every range is looked at.
        let r = [(0, 30), (10, 5), (40, 10)];
        let sp = stream_positions(&r);
        assert!(!sorted(&r));
        assert_eq!(
            pieces(&r, &sp, 12, 20, false),
            vec![(12, 8, 12), (12, 3, 32)]
        );
    }
}
