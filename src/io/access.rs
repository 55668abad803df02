//! Independent access: the stream bytes of one call moved to or from their file byte
//! ranges (in stream order, which a view makes file order too). Ranges close together are
//! handled by data sieving — one read (and for a write one write back, under a write lock
//! so other processes' bytes in the holes survive) of the span that covers them — so a
//! strided access is a few large system calls, not one per piece. In atomic mode the
//! whole span of the call is locked for its duration.

use super::posix::{Fd, LockKind};
use crate::error::Result;

/// Ranges further apart than this are not sieved together (reading the hole would cost
/// more than a system call).
const MAX_SIEVE_GAP: u64 = 64 << 10;

/// Groups of consecutive ranges (index range) each covering at most `max_span` bytes of
/// file with small holes.
fn groups(ranges: &[(u64, u64)], max_span: u64) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=ranges.len() {
        let split = i == ranges.len() || {
            let (s, _) = ranges[start];
            let (po, pl) = ranges[i - 1];
            let (o, l) = ranges[i];
            o < po + pl || o - (po + pl) > MAX_SIEVE_GAP || o + l - s > max_span
        };
        if split {
            out.push(start..i);
            start = i;
        }
    }
    out
}

/// The file span `[lo, hi)` of ranges.
fn span(ranges: &[(u64, u64)]) -> (u64, u64) {
    let lo = ranges.iter().map(|r| r.0).min().unwrap_or(0);
    let hi = ranges.iter().map(|r| r.0 + r.1).max().unwrap_or(0);
    (lo, hi)
}

/// Writes `data` (the stream bytes) to `ranges` (their file ranges, in stream order).
pub fn write(
    fd: &Fd,
    ranges: &[(u64, u64)],
    data: &[u8],
    sieve: usize,
    atomic: bool,
) -> Result<()> {
    let _whole = if atomic {
        let (lo, hi) = span(ranges);
        fd.lock(LockKind::Write, lo, hi - lo)?
    } else {
        None
    };
    let mut pos = 0usize;
    let mut buf = Vec::new();
    for g in groups(ranges, sieve as u64) {
        let rs = &ranges[g];
        if rs.len() == 1 {
            let n = rs[0].1 as usize;
            fd.pwrite_all(&data[pos..pos + n], rs[0].0)?;
            pos += n;
            continue;
        }
        let (lo, hi) = span(rs);
        // Other processes may write into the holes meanwhile: hold the span.
        let _g = if atomic {
            None
        } else {
            fd.lock(LockKind::Write, lo, hi - lo)?
        };
        buf.clear();
        buf.resize((hi - lo) as usize, 0);
        fd.pread_full(&mut buf, lo)?;
        for &(o, l) in rs {
            let (at, n) = ((o - lo) as usize, l as usize);
            buf[at..at + n].copy_from_slice(&data[pos..pos + n]);
            pos += n;
        }
        fd.pwrite_all(&buf, lo)?;
    }
    Ok(())
}

/// Cuts `ranges` where the file ends (at `eof`): the stream bytes before it.
pub fn clip_to_eof(ranges: &mut Vec<(u64, u64)>, eof: u64) -> u64 {
    let mut total = 0;
    for i in 0..ranges.len() {
        let (o, l) = ranges[i];
        if o + l > eof {
            let keep = eof.saturating_sub(o);
            ranges.truncate(i);
            if keep > 0 {
                ranges.push((o, keep));
            }
            return total + keep;
        }
        total += l;
    }
    total
}

/// Reads `ranges` (in stream order) into `data` (the stream bytes), stopping at end of
/// file: the stream bytes read.
pub fn read(
    fd: &Fd,
    ranges: &[(u64, u64)],
    data: &mut [u8],
    sieve: usize,
    atomic: bool,
) -> Result<usize> {
    let mut ranges = ranges.to_vec();
    let _whole = if atomic {
        let (lo, hi) = span(&ranges);
        fd.lock(LockKind::Read, lo, hi - lo)?
    } else {
        None
    };
    let total = clip_to_eof(&mut ranges, fd.size()?) as usize;
    let mut pos = 0usize;
    let mut buf = Vec::new();
    for g in groups(&ranges, sieve as u64) {
        let rs = &ranges[g];
        if rs.len() == 1 {
            let n = rs[0].1 as usize;
            let got = fd.pread_full(&mut data[pos..pos + n], rs[0].0)?;
            if got < n {
                return Ok(pos + got); // the file shrank meanwhile
            }
            pos += n;
            continue;
        }
        let (lo, hi) = span(rs);
        buf.clear();
        buf.resize((hi - lo) as usize, 0);
        let got = fd.pread_full(&mut buf, lo)? as u64;
        for &(o, l) in rs {
            let (at, n) = ((o - lo) as usize, l as usize);
            if o + l > lo + got {
                return Ok(pos);
            }
            data[pos..pos + n].copy_from_slice(&buf[at..at + n]);
            pos += n;
        }
    }
    Ok(total.min(pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouping_respects_gap_and_span() {
        let r = [(0, 4), (8, 4), (16, 4), (1 << 20, 4), (1 << 20 | 8, 4)];
        assert_eq!(groups(&r, 1 << 20), vec![0..3, 3..5]);
        assert_eq!(groups(&r, 12), vec![0..2, 2..3, 3..5]);
        assert_eq!(groups(&[], 10), Vec::<std::ops::Range<usize>>::new());
    }

    #[test]
    fn clipping_at_eof() {
        let mut r = vec![(0, 4), (8, 4), (16, 4)];
        assert_eq!(clip_to_eof(&mut r, 10), 6);
        assert_eq!(r, vec![(0, 4), (8, 2)]);
        let mut r = vec![(0, 4), (8, 4)];
        assert_eq!(clip_to_eof(&mut r, 6), 4);
        assert_eq!(r, vec![(0, 4)]);
        let mut r = vec![(0, 4)];
        assert_eq!(clip_to_eof(&mut r, 100), 4);
    }
}
