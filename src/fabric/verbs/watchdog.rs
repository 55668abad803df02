//! The watchdog over one link, as a sans-I/O state machine: the rail tells it of each
//! completion (`completed`) and, every `WATCH_EVERY` polls, what the link holds (`look`);
//! it answers whether to probe, report or give the link up. No clock is read here, so
//! every stall is tested with plain instants.
//!
//! A healthy adapter completes or fails every request within its retry budget. Soft-RoCE
//! (Linux 6.1) does neither when the packets it sent are not freed (it retries only below
//! a count of packets in the network device's hands: in a guest whose peer's link went
//! down, virtio-net reaps its transmit ring only when traffic arrives, which never comes),
//! nor with a retry count of 7, which it takes for "for ever". Such a link is reported after
//! `TELL_AFTER` and given up after the rail's `give_up_after` where other rails reach the
//! peer (a peer that does not poll for that long while we flood it — receiver-not-ready
//! retries, which never end — would lose this rail too, never its job: a rail that is the
//! peer's one way, or its last, only warns).

use std::time::{Duration, Instant};

/// Quiet this long with only unsignalled messages out: send a signalled one, whose
/// completion retires them (they have none of their own).
pub const PROBE_AFTER: Duration = Duration::from_secs(2);
/// Quiet this long: say so once.
pub const TELL_AFTER: Duration = Duration::from_secs(30);

/// What the link holds when the watchdog looks.
#[derive(Clone, Copy, Debug)]
pub struct Holding {
    /// Requests on a connection, or waiting for one being dialed (rdma_cm gives up on a
    /// peer that does not answer only after a minute or more).
    pub requests: bool,
    pub connected: bool,
    /// Every outstanding request is an unsignalled message.
    pub only_unsignaled: bool,
    /// How long the link may stay quiet before it is given up (None: never — no other
    /// rail reaches the peer, or the link is lost already).
    pub give_up_after: Option<Duration>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Fine,
    /// Send a signalled message (once per stall).
    Probe,
    /// Quiet for `quiet`: report it (`tell`, once per stall) and/or give the link up.
    Stalled {
        quiet: Duration,
        tell: bool,
        give_up: bool,
    },
}

/// One link's watch.
#[derive(Default)]
pub struct Watch {
    /// Requests completed on the link (wrapping): the sign of progress.
    completed: u32,
    /// Since when `completed` stood still with requests held (and its value then).
    quiet: Option<(u32, Instant)>,
    probed: bool,
    told: bool,
}

impl Watch {
    /// A request on the link completed.
    pub fn completed(&mut self) {
        self.completed = self.completed.wrapping_add(1);
    }

    /// Look at the link at `now`.
    pub fn look(&mut self, now: Instant, h: Holding) -> Verdict {
        if !h.requests {
            self.quiet = None;
            return Verdict::Fine;
        }
        let since = match self.quiet {
            Some((c, t)) if c == self.completed => t,
            _ => {
                // Progress since the last look (or the first look holding): the clock
                // starts again.
                self.quiet = Some((self.completed, now));
                self.probed = false;
                self.told = false;
                return Verdict::Fine;
            }
        };
        let quiet = now.duration_since(since);
        if h.connected && quiet >= PROBE_AFTER && !self.probed && h.only_unsignaled {
            self.probed = true;
            return Verdict::Probe;
        }
        let tell = quiet >= TELL_AFTER && !self.told;
        self.told |= tell;
        let give_up = h.give_up_after.is_some_and(|after| quiet >= after);
        if tell || give_up {
            Verdict::Stalled {
                quiet,
                tell,
                give_up,
            }
        } else {
            Verdict::Fine
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    fn holding(connected: bool, only_unsignaled: bool, give_up_after: Option<Duration>) -> Holding {
        Holding {
            requests: true,
            connected,
            only_unsignaled,
            give_up_after,
        }
    }

    #[test]
    fn an_idle_or_progressing_link_is_fine() {
        let mut w = Watch::default();
        let t0 = Instant::now();
        let idle = Holding {
            requests: false,
            ..holding(true, true, Some(S))
        };
        for i in 0..100 {
            assert_eq!(w.look(t0 + i * 10 * S, idle), Verdict::Fine);
        }
        // A completion between any two looks: never quiet, however long it runs.
        for i in 0..100 {
            w.completed();
            assert_eq!(
                w.look(t0 + i * 10 * S, holding(true, true, Some(S))),
                Verdict::Fine
            );
        }
    }

    #[test]
    fn a_quiet_link_is_probed_once_then_told_once_and_kept_when_it_is_the_last() {
        let mut w = Watch::default();
        let t0 = Instant::now();
        let h = holding(true, true, None);
        assert_eq!(w.look(t0, h), Verdict::Fine, "the clock starts");
        assert_eq!(w.look(t0 + S, h), Verdict::Fine);
        assert_eq!(w.look(t0 + PROBE_AFTER, h), Verdict::Probe);
        assert_eq!(w.look(t0 + PROBE_AFTER + S, h), Verdict::Fine, "one probe");
        let told = Verdict::Stalled {
            quiet: TELL_AFTER,
            tell: true,
            give_up: false,
        };
        assert_eq!(w.look(t0 + TELL_AFTER, h), told);
        assert_eq!(
            w.look(t0 + 10 * TELL_AFTER, h),
            Verdict::Fine,
            "told once; kept"
        );
        // Progress: a new stall is probed and told again.
        w.completed();
        let t1 = t0 + 11 * TELL_AFTER;
        assert_eq!(w.look(t1, h), Verdict::Fine);
        assert_eq!(w.look(t1 + PROBE_AFTER, h), Verdict::Probe);
        assert!(matches!(
            w.look(t1 + TELL_AFTER, h),
            Verdict::Stalled { tell: true, .. }
        ));
    }

    #[test]
    fn signalled_requests_and_dials_are_not_probed() {
        let t0 = Instant::now();
        for h in [holding(true, false, None), holding(false, false, None)] {
            let mut w = Watch::default();
            w.look(t0, h);
            assert_eq!(w.look(t0 + PROBE_AFTER, h), Verdict::Fine);
            assert!(matches!(
                w.look(t0 + TELL_AFTER, h),
                Verdict::Stalled { tell: true, .. }
            ));
        }
    }

    #[test]
    fn a_link_other_rails_back_up_is_given_up() {
        let mut w = Watch::default();
        let t0 = Instant::now();
        let h = holding(true, false, Some(2 * TELL_AFTER));
        w.look(t0, h);
        assert!(matches!(
            w.look(t0 + TELL_AFTER, h),
            Verdict::Stalled { give_up: false, .. }
        ));
        assert_eq!(
            w.look(t0 + 2 * TELL_AFTER, h),
            Verdict::Stalled {
                quiet: 2 * TELL_AFTER,
                tell: false,
                give_up: true
            }
        );
    }
}
