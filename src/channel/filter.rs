//! The completion filter (Liu 2004, §5.3): a transfer the channel cut into parts (more
//! scatter/gather entries than a rail takes at once; stripes over several subchannels, with
//! the multirail scheduler) is reported complete once every part is, with the first error
//! any part had. A transfer posted whole keeps its own token and passes straight through.

use crate::fabric::{Completion, RailError, Span};
use rustc_hash::FxHashMap;

/// Tokens the channel gives to parts carry this bit; the layers above never use it.
const PART: u64 = 1 << 63;

struct Pending {
    left: usize,
    error: Option<RailError>,
}

#[derive(Default)]
pub struct Filter {
    /// Part token → the transfer's token.
    parts: FxHashMap<u64, u64>,
    transfers: FxHashMap<u64, Pending>,
    next: u64,
}

impl Filter {
    /// Whether `token` is free for the layers above (they count up from 1).
    pub fn is_user_token(token: u64) -> bool {
        token & PART == 0
    }

    /// Tokens for the `n` parts of transfer `token`.
    pub fn split(&mut self, token: u64, n: usize) -> Vec<u64> {
        self.transfers.insert(
            token,
            Pending {
                left: n,
                error: None,
            },
        );
        (0..n)
            .map(|_| {
                self.next = self.next.wrapping_add(1);
                let t = PART | (self.next & !PART);
                self.parts.insert(t, token);
                t
            })
            .collect()
    }

    /// A rail completion: the transfer's completion when this was its last part (or it was
    /// posted whole), else None.
    pub fn complete(&mut self, c: Completion) -> Option<Completion> {
        if Self::is_user_token(c.token) {
            return Some(c);
        }
        let token = self.parts.remove(&c.token)?;
        let p = self.transfers.get_mut(&token)?;
        p.left -= 1;
        if let Err(e) = c.result {
            p.error.get_or_insert(e);
        }
        if p.left > 0 {
            return None;
        }
        let p = self.transfers.remove(&token).expect("just seen");
        Some(Completion {
            token,
            result: match p.error {
                Some(e) => Err(e),
                None => Ok(0),
            },
        })
    }

    /// Transfers with parts outstanding.
    pub fn pending(&self) -> usize {
        self.transfers.len()
    }
}

/// The spans of bytes `[from, from + n)` of the transfer `spans` describe.
pub fn range(spans: &[Span], mut from: u64, mut n: u64) -> Vec<Span> {
    let mut out = Vec::new();
    for s in spans {
        if n == 0 {
            break;
        }
        if from >= s.len {
            from -= s.len;
            continue;
        }
        let take = (s.len - from).min(n);
        out.push(Span {
            addr: s.addr + from,
            len: take,
        });
        n -= take;
        from = 0;
    }
    out
}

/// Cut a transfer (`local` and `remote` spans describing the same bytes) into parts of at
/// most `max` entries on each side.
pub fn cut(local: &[Span], remote: &[Span], max: usize) -> Vec<(Vec<Span>, Vec<Span>)> {
    let max = max.max(1);
    let mut parts = Vec::new();
    let (mut li, mut ri) = (local.iter().copied(), remote.iter().copied());
    let (mut l, mut r) = (li.next(), ri.next());
    let (mut pl, mut pr) = (Vec::new(), Vec::new());
    while let (Some(a), Some(b)) = (l, r) {
        if a.len == 0 {
            l = li.next();
            continue;
        }
        if b.len == 0 {
            r = ri.next();
            continue;
        }
        let n = a.len.min(b.len);
        pl.push(Span {
            addr: a.addr,
            len: n,
        });
        pr.push(Span {
            addr: b.addr,
            len: n,
        });
        l = Some(Span {
            addr: a.addr + n,
            len: a.len - n,
        });
        r = Some(Span {
            addr: b.addr + n,
            len: b.len - n,
        });
        if pl.len() == max || pr.len() == max {
            parts.push((std::mem::take(&mut pl), std::mem::take(&mut pr)));
        }
    }
    if !pl.is_empty() {
        parts.push((pl, pr));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_in_any_order_report_once() {
        for order in [[0usize, 1, 2], [2, 1, 0], [1, 2, 0]] {
            let mut f = Filter::default();
            let parts = f.split(7, 3);
            let mut out = Vec::new();
            for &i in &order {
                let c = Completion {
                    token: parts[i],
                    result: Ok(0),
                };
                out.extend(f.complete(c));
            }
            assert_eq!(out.len(), 1, "{order:?}");
            assert_eq!(out[0].token, 7);
            assert!(out[0].result.is_ok());
            assert_eq!(f.pending(), 0);
        }
    }

    #[test]
    fn a_failed_part_fails_the_transfer_after_all_parts() {
        let mut f = Filter::default();
        let parts = f.split(9, 2);
        let bad = Completion {
            token: parts[1],
            result: Err(RailError::Unsupported("test")),
        };
        assert!(f.complete(bad).is_none(), "waits for the other part");
        let c = f
            .complete(Completion {
                token: parts[0],
                result: Ok(0),
            })
            .unwrap();
        assert_eq!(c.token, 9);
        assert!(matches!(c.result, Err(RailError::Unsupported(_))));
        // Whole transfers pass straight through; unknown parts are dropped.
        let whole = f.complete(Completion {
            token: 5,
            result: Ok(3),
        });
        assert!(matches!(
            whole,
            Some(Completion {
                token: 5,
                result: Ok(3)
            })
        ));
        assert!(f
            .complete(Completion {
                token: PART | 12345,
                result: Ok(0)
            })
            .is_none());
    }

    #[test]
    fn cut_keeps_bytes_aligned_and_entries_bounded() {
        let s = |addr, len| Span { addr, len };
        let local = [s(0, 10), s(100, 5), s(200, 20)];
        let remote = [s(1000, 7), s(2000, 28)];
        for max in [1, 2, 3, 100] {
            let parts = cut(&local, &remote, max);
            let mut flat_l = Vec::new();
            let mut flat_r = Vec::new();
            for (l, r) in &parts {
                assert!(l.len() <= max && r.len() <= max);
                let (nl, nr): (u64, u64) =
                    (l.iter().map(|x| x.len).sum(), r.iter().map(|x| x.len).sum());
                assert_eq!(nl, nr, "each part moves what it reads");
                flat_l.extend(l.iter().flat_map(|x| x.addr..x.addr + x.len));
                flat_r.extend(r.iter().flat_map(|x| x.addr..x.addr + x.len));
            }
            let want_l: Vec<u64> = local.iter().flat_map(|x| x.addr..x.addr + x.len).collect();
            let want_r: Vec<u64> = remote.iter().flat_map(|x| x.addr..x.addr + x.len).collect();
            assert_eq!(flat_l, want_l, "max {max}");
            assert_eq!(flat_r, want_r, "max {max}");
        }
    }
}
