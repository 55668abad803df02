//! Which subchannel carries what (Liu, Vishnu, Panda 2004, §4.4–4.5): a policy for the
//! messages that are not striped (eager payloads, control), and the split of a large RDMA
//! transfer into stripes, one per subchannel, by weights that the adaptive policy learns
//! from each stripe's delivery time (eq. 4) without being told the rails' speeds — and,
//! for messages, which have no delivery time of their own, from the links' delivery
//! counts (`Scheduler::learn`).

/// How messages are spread over a peer's subchannels (§4.4).
#[derive(Clone, Debug, PartialEq)]
pub enum Policy {
    /// Always the first subchannel.
    Binding,
    /// One after the other.
    RoundRobin,
    /// In proportion to the striping weights (configured or learned).
    WeightedRr,
    /// `W` consecutive messages on one subchannel, then the next (fewer out-of-order
    /// arrivals than plain round robin).
    WindowRr(u32),
}

/// How a large transfer is split over the subchannels (§4.5).
#[derive(Clone, Debug, PartialEq)]
pub enum Striping {
    Even,
    /// Fixed weights, one per subchannel (normalized; missing ones count 1).
    Weighted(Vec<f64>),
    /// Start even, then after every striped transfer move the weights towards each
    /// stripe's measured rate by `alpha` (eq. 4).
    Adaptive {
        alpha: f64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct MultirailSettings {
    pub policy: Policy,
    pub striping: Striping,
    /// Transfers of at least this many bytes are striped (when a peer has several
    /// subchannels).
    pub threshold: usize,
}

impl Default for MultirailSettings {
    fn default() -> Self {
        MultirailSettings {
            policy: Policy::WeightedRr,
            striping: Striping::Adaptive { alpha: 0.5 },
            threshold: 256 * 1024,
        }
    }
}

impl MultirailSettings {
    /// From `RAILMPI_SCHED`, `RAILMPI_STRIPING` and `RAILMPI_STRIPING_THRESHOLD` values.
    pub fn parse(sched: &str, striping: &str, threshold: usize) -> Result<Self, String> {
        let policy = match sched {
            "binding" => Policy::Binding,
            "round-robin" => Policy::RoundRobin,
            "weighted-rr" => Policy::WeightedRr,
            s => match s.strip_prefix("window-rr:").map(str::parse::<u32>) {
                Some(Ok(w)) if w > 0 => Policy::WindowRr(w),
                _ => {
                    return Err(format!(
                        "RAILMPI_SCHED={s:?} is not one of binding, round-robin, weighted-rr, \
                         window-rr:W (W > 0)"
                    ))
                }
            },
        };
        let bad = || {
            format!(
                "RAILMPI_STRIPING={striping:?} is not one of even, weighted:w1,w2,... \
                 (positive numbers), adaptive[:alpha] (0 < alpha <= 1)"
            )
        };
        let striping = match striping.split_once(':') {
            None if striping == "even" => Striping::Even,
            None if striping == "adaptive" => Striping::Adaptive { alpha: 0.5 },
            Some(("adaptive", a)) => match a.parse::<f64>() {
                Ok(alpha) if alpha > 0.0 && alpha <= 1.0 => Striping::Adaptive { alpha },
                _ => return Err(bad()),
            },
            Some(("weighted", w)) => {
                let w: Vec<f64> = w
                    .split(',')
                    .map(|x| x.trim().parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad())?;
                if w.is_empty() || w.iter().any(|&x| !(x > 0.0 && x.is_finite())) {
                    return Err(bad());
                }
                Striping::Weighted(w)
            }
            _ => return Err(bad()),
        };
        Ok(MultirailSettings {
            policy,
            striping,
            threshold,
        })
    }
}

/// A weight under this share of the total takes no part in stripes, except in a probe.
const FLOOR: f64 = 0.03;
/// Every this many striped transfers, subchannels under the floor get a probe stripe.
const PROBE_EVERY: u64 = 8;

/// Messages, or bytes, between two looks at the links' delivery (`Scheduler::sample_due`).
const SAMPLE_EVERY: u32 = 32;
const SAMPLE_EVERY_BYTES: usize = 256 * 1024;
/// A link's rate counts once it was busy this long and delivered this much since the last
/// one counted: the kernel counts busy time in scheduler ticks (4 ms at HZ=250), so a
/// count spans several; and a link that carried only small messages (latency, not
/// bandwidth) says nothing about its rate.
const SAMPLE_BUSY_US: u64 = 20_000;
const SAMPLE_BYTES: u64 = 256 * 1024;

/// One peer's scheduling state.
#[derive(Clone, Debug)]
pub struct Scheduler {
    /// Round robin: the subchannel of the next message, and how many went on it.
    next: usize,
    in_window: u32,
    /// Weighted round robin (smooth, as nginx's): each pick adds the weights and takes
    /// the largest credit.
    credit: Vec<f64>,
    /// Striping weights, summing to 1 (0 for a failed subchannel).
    pub weights: Vec<f64>,
    striped: u64,
    /// Per subchannel: false once its link failed.
    alive: Vec<bool>,
    /// Messages and bytes since the links' delivery was last looked at.
    since_sample: u32,
    since_bytes: usize,
    /// Per subchannel: the link's delivery when its rate last counted (None: not yet seen).
    base: Vec<Option<crate::fabric::LinkProgress>>,
}

impl Scheduler {
    pub fn new(n: usize, striping: &Striping) -> Scheduler {
        let n = n.max(1);
        let mut weights = match striping {
            Striping::Weighted(w) => (0..n).map(|i| w.get(i).copied().unwrap_or(1.0)).collect(),
            _ => vec![1.0; n],
        };
        normalize(&mut weights);
        Scheduler {
            next: 0,
            in_window: 0,
            credit: vec![0.0; n],
            weights,
            striped: 0,
            alive: vec![true; n],
            since_sample: 0,
            since_bytes: 0,
            base: vec![None; n],
        }
    }

    /// Count one message of `bytes` sent; true every `SAMPLE_EVERY` messages or
    /// `SAMPLE_EVERY_BYTES`, when the caller looks at the links' delivery for `learn`.
    #[inline]
    pub fn sample_due(&mut self, bytes: usize) -> bool {
        self.since_sample += 1;
        self.since_bytes += bytes;
        if self.since_sample < SAMPLE_EVERY && self.since_bytes < SAMPLE_EVERY_BYTES {
            return false;
        }
        self.since_sample = 0;
        self.since_bytes = 0;
        true
    }

    /// Adaptive striping from the links themselves, for the traffic that is not striped
    /// (eager messages, whole transfers): `seen` holds each subchannel's delivery so far.
    /// A link busy for `SAMPLE_BUSY_US` since its rate last counted yields a rate (bytes
    /// per busy second: the idle gaps between messages do not dilute it), and once two do,
    /// the weights move towards them as after a striped transfer (eq. 4).
    pub fn learn(&mut self, alpha: f64, seen: &[(usize, crate::fabric::LinkProgress)]) {
        let mut done = Vec::new();
        for &(i, now) in seen {
            let Some(slot) = self.base.get_mut(i) else {
                continue;
            };
            match *slot {
                Some(b)
                    if now.busy_us >= b.busy_us + SAMPLE_BUSY_US
                        && now.bytes >= b.bytes + SAMPLE_BYTES =>
                {
                    let secs = (now.busy_us - b.busy_us) as f64 * 1e-6;
                    done.push((i, (now.bytes - b.bytes) as usize, secs));
                }
                // A new connection (counters back to zero) starts over.
                Some(b) if now.busy_us >= b.busy_us && now.bytes >= b.bytes => {}
                _ => *slot = Some(now),
            }
        }
        if done.len() >= 2 {
            for &(i, _, _) in &done {
                self.base[i] = seen.iter().find(|s| s.0 == i).map(|s| s.1);
            }
            self.adapt(alpha, &done);
        }
    }

    /// Subchannel `i`'s link failed: nothing more is scheduled on it. Returns how many
    /// subchannels are left.
    pub fn kill(&mut self, i: usize) -> usize {
        if let Some(a) = self.alive.get_mut(i) {
            *a = false;
            self.weights[i] = 0.0;
            normalize_alive(&mut self.weights, &self.alive);
        }
        self.live()
    }

    pub fn live(&self) -> usize {
        self.alive.iter().filter(|&&a| a).count()
    }

    pub fn is_alive(&self, i: usize) -> bool {
        self.alive.get(i).copied().unwrap_or(false)
    }

    /// The first subchannel still alive (atomics, and messages under binding).
    pub fn first_alive(&self) -> usize {
        self.alive.iter().position(|&a| a).unwrap_or(0)
    }

    /// The subchannel for the next message.
    pub fn pick(&mut self, policy: &Policy) -> usize {
        let n = self.weights.len();
        if n == 1 {
            return 0;
        }
        if self.live() < n {
            return self.pick_alive(policy);
        }
        match policy {
            Policy::Binding => 0,
            Policy::RoundRobin => {
                let i = self.next;
                self.next = (i + 1) % n;
                i
            }
            Policy::WindowRr(w) => {
                let i = self.next;
                self.in_window += 1;
                if self.in_window >= *w {
                    self.in_window = 0;
                    self.next = (i + 1) % n;
                }
                i
            }
            Policy::WeightedRr => {
                let mut best = 0;
                for i in 0..n {
                    self.credit[i] += self.weights[i];
                    if self.credit[i] > self.credit[best] {
                        best = i;
                    }
                }
                self.credit[best] -= 1.0;
                best
            }
        }
    }

    /// `pick` once a subchannel failed: the policy's choice, moved on to a live one.
    #[cold]
    fn pick_alive(&mut self, policy: &Policy) -> usize {
        let n = self.weights.len();
        if self.live() == 0 {
            return 0;
        }
        match policy {
            Policy::Binding => self.first_alive(),
            Policy::WeightedRr => {
                let mut best = self.first_alive();
                for i in (0..n).filter(|&i| self.alive[i]) {
                    self.credit[i] += self.weights[i];
                    if self.credit[i] > self.credit[best] {
                        best = i;
                    }
                }
                self.credit[best] -= 1.0;
                best
            }
            Policy::RoundRobin | Policy::WindowRr(_) => {
                let mut i = self.next % n;
                while !self.alive[i] {
                    i = (i + 1) % n;
                }
                self.next = (i + 1) % n;
                i
            }
        }
    }

    /// Stripes of a transfer of `total` bytes: `(subchannel, offset, length)`, in offset
    /// order, each at least `min` bytes (but the only one), cut at multiples of `align`.
    pub fn stripes(
        &mut self,
        total: usize,
        min: usize,
        align: usize,
    ) -> Vec<(usize, usize, usize)> {
        let n = self.weights.len();
        self.striped += 1;
        let probe = self.striped.is_multiple_of(PROBE_EVERY);
        // Who takes part, with what share.
        let mut share: Vec<(usize, f64)> = (0..n)
            .filter(|&i| self.alive[i])
            .filter_map(|i| {
                let w = self.weights[i];
                if w >= FLOOR {
                    Some((i, w))
                } else if probe {
                    Some((i, FLOOR))
                } else {
                    None
                }
            })
            .collect();
        if share.is_empty() {
            share.push((self.first_alive(), 1.0));
        }
        // Drop the smallest shares while a stripe would be under the minimum.
        let min = min.max(1);
        while share.len() > 1 {
            let sum: f64 = share.iter().map(|s| s.1).sum();
            let (k, smallest) = share
                .iter()
                .enumerate()
                .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
                .map(|(k, s)| (k, s.1))
                .expect("not empty");
            if (total as f64 * smallest / sum) as usize >= min {
                break;
            }
            share.remove(k);
        }
        if share.len() == 1 && self.live() > 1 && !probe {
            // Too small to split: the whole transfer goes to one subchannel, chosen in
            // proportion to the weights (many such transfers in flight share the rails).
            let i = self.pick(&Policy::WeightedRr);
            return vec![(i, 0, total)];
        }
        let sum: f64 = share.iter().map(|s| s.1).sum();
        let align = align.max(1);
        let mut out = Vec::with_capacity(share.len());
        let mut off = 0usize;
        let mut acc = 0.0;
        for (k, &(i, w)) in share.iter().enumerate() {
            acc += w;
            let end = if k + 1 == share.len() {
                total
            } else {
                let e = ((total as f64 * acc / sum) as usize / align) * align;
                e.clamp(off, total)
            };
            if end > off {
                out.push((i, off, end - off));
            }
            off = end;
        }
        out
    }

    /// Eq. (4) after a striped transfer: `done` holds, per subchannel that carried a
    /// stripe, its bytes and delivery time (seconds). Each weight moves by `alpha` towards
    /// the share its measured rate earns among the subchannels used; the others keep
    /// theirs. Equal times for shares in proportion leave the weights as they are.
    pub fn adapt(&mut self, alpha: f64, done: &[(usize, usize, f64)]) {
        if done.len() < 2 {
            return;
        }
        let total: usize = done.iter().map(|d| d.1).sum();
        if total == 0 {
            return;
        }
        // W_i: the share of the transfer the stripe carried, scaled to the weight the
        // used subchannels hold together.
        let held: f64 = done.iter().map(|d| self.weights[d.0]).sum();
        let rate: Vec<f64> = done
            .iter()
            .map(|&(_, bytes, t)| bytes as f64 / t.max(1e-9))
            .collect();
        let rates: f64 = rate.iter().sum();
        if !(rates > 0.0 && rates.is_finite()) {
            return;
        }
        for (k, &(i, _, _)) in done.iter().enumerate() {
            let target = held * rate[k] / rates;
            self.weights[i] = (1.0 - alpha) * self.weights[i] + alpha * target;
        }
        normalize_alive(&mut self.weights, &self.alive);
    }
}

/// Weights of failed subchannels at 0, the others summing to 1.
fn normalize_alive(w: &mut [f64], alive: &[bool]) {
    for (x, &a) in w.iter_mut().zip(alive) {
        if !a {
            *x = 0.0;
        }
    }
    let sum: f64 = w.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        w.iter_mut().for_each(|x| *x /= sum);
    } else {
        let n = alive.iter().filter(|&&a| a).count().max(1) as f64;
        for (x, &a) in w.iter_mut().zip(alive) {
            *x = if a { 1.0 / n } else { 0.0 };
        }
    }
}

fn normalize(w: &mut [f64]) {
    let sum: f64 = w.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        for x in w.iter_mut() {
            *x /= sum;
        }
    } else {
        let n = w.len() as f64;
        w.iter_mut().for_each(|x| *x = 1.0 / n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two rails of rates `r` (bytes/s): a stripe of `b` bytes on rail i takes b / r_i.
    fn run(s: &mut Scheduler, r: &[f64], alpha: f64, rounds: usize) {
        for _ in 0..rounds {
            let total = 8 << 20;
            let st = s.stripes(total, 64 << 10, 4096);
            let done: Vec<(usize, usize, f64)> = st
                .iter()
                .map(|&(i, _, b)| (i, b, b as f64 / r[i]))
                .collect();
            s.adapt(alpha, &done);
        }
    }

    #[test]
    fn links_that_deliver_4_to_1_while_busy_get_weights_4_to_1() {
        use crate::fabric::LinkProgress;
        let mut s = Scheduler::new(2, &Striping::Adaptive { alpha: 0.5 });
        let at = |bytes, busy_us| LinkProgress { bytes, busy_us };
        s.learn(0.5, &[(0, at(0, 0)), (1, at(0, 0))]);
        // Too little busy time, or too few bytes (small messages), on link 1 yet: nothing
        // moves.
        s.learn(0.5, &[(0, at(4_000_000, 100_000)), (1, at(1_000, 1_000))]);
        s.learn(0.5, &[(0, at(8_000_000, 200_000)), (1, at(2_000, 90_000))]);
        assert_eq!(s.weights, vec![0.5, 0.5]);
        let (mut t, mut b0, mut b1) = (200_000, 8_000_000, 2_000);
        for _ in 0..20 {
            // 40 MB/s against 10 MB/s while busy, whatever the idle time between.
            t += 100_000;
            b0 += 4_000_000;
            b1 += 1_000_000;
            s.learn(0.5, &[(0, at(b0, t)), (1, at(b1, t))]);
        }
        assert!((s.weights[0] - 0.8).abs() < 0.01, "{:?}", s.weights);
        // A reconnected link (counters from zero) starts over instead of counting backwards.
        s.learn(0.5, &[(0, at(1, 1)), (1, at(b1 + 1_000_000, t + 100_000))]);
        assert!((s.weights[0] - 0.8).abs() < 0.01, "{:?}", s.weights);
    }

    #[test]
    fn adaptive_converges_to_the_speed_ratio() {
        let mut s = Scheduler::new(2, &Striping::Adaptive { alpha: 0.5 });
        run(&mut s, &[400e6, 100e6], 0.5, 40);
        assert!((s.weights[0] - 0.8).abs() < 0.01, "{:?}", s.weights);
        // Three rails 2:1:1.
        let mut s = Scheduler::new(3, &Striping::Adaptive { alpha: 0.3 });
        run(&mut s, &[200e6, 100e6, 100e6], 0.3, 80);
        assert!((s.weights[0] - 0.5).abs() < 0.01, "{:?}", s.weights);
        assert!((s.weights[1] - 0.25).abs() < 0.01, "{:?}", s.weights);
    }

    #[test]
    fn alpha_one_jumps_alpha_small_creeps() {
        // alpha = 1: the weights are the measured rates' shares after one transfer.
        let mut s = Scheduler::new(2, &Striping::Even);
        s.adapt(1.0, &[(0, 1000, 1.0), (1, 1000, 4.0)]);
        assert!((s.weights[0] - 0.8).abs() < 1e-9, "{:?}", s.weights);
        // alpha -> 0: the weights barely move.
        let mut s = Scheduler::new(2, &Striping::Even);
        s.adapt(1e-6, &[(0, 1000, 1.0), (1, 1000, 4.0)]);
        assert!((s.weights[0] - 0.5).abs() < 1e-5, "{:?}", s.weights);
    }

    #[test]
    fn equal_times_leave_the_weights_alone() {
        let mut s = Scheduler::new(2, &Striping::Weighted(vec![3.0, 1.0]));
        // Stripes in proportion 3:1 that finish together: rates 3:1, the weights stay.
        s.adapt(0.5, &[(0, 3000, 1.0), (1, 1000, 1.0)]);
        assert!((s.weights[0] - 0.75).abs() < 1e-9, "{:?}", s.weights);
    }

    #[test]
    fn stripes_cover_the_transfer_in_order_and_respect_the_minimum() {
        let mut s = Scheduler::new(3, &Striping::Weighted(vec![2.0, 1.0, 1.0]));
        let st = s.stripes(1 << 20, 64 << 10, 4096);
        assert_eq!(st.len(), 3);
        assert_eq!(st[0], (0, 0, 512 << 10));
        let mut off = 0;
        for &(_, o, n) in &st {
            assert_eq!(o, off);
            assert_eq!(o % 4096, 0);
            off += n;
        }
        assert_eq!(off, 1 << 20);
        // Too small for two stripes of 64 KiB: whole transfers, spread by the weights.
        let whole: Vec<usize> = (0..8)
            .map(|_| {
                let st = s.stripes(100 << 10, 64 << 10, 4096);
                assert_eq!(st.len(), 1);
                assert_eq!((st[0].1, st[0].2), (0, 100 << 10));
                st[0].0
            })
            .collect();
        assert_eq!(whole.iter().filter(|&&i| i == 0).count(), 4, "{whole:?}");
    }

    #[test]
    fn a_rail_under_the_floor_is_probed_and_recovers() {
        let mut s = Scheduler::new(2, &Striping::Adaptive { alpha: 0.5 });
        // Rail 1 nearly stalls (a competing flow): its weight falls under the floor.
        run(&mut s, &[400e6, 1e6], 0.5, 30);
        assert!(s.weights[1] < FLOOR, "{:?}", s.weights);
        let plain = s.stripes(8 << 20, 64 << 10, 4096);
        assert!(plain.len() == 1 || s.striped.is_multiple_of(PROBE_EVERY));
        // The flow ends: equal rates again; probes let rail 1 climb back.
        run(&mut s, &[400e6, 400e6], 0.5, 200);
        assert!((s.weights[1] - 0.5).abs() < 0.05, "{:?}", s.weights);
    }

    #[test]
    fn a_failed_subchannel_is_never_chosen_again() {
        let mut s = Scheduler::new(3, &Striping::Adaptive { alpha: 0.5 });
        assert_eq!(s.kill(0), 2);
        for p in [
            Policy::Binding,
            Policy::RoundRobin,
            Policy::WeightedRr,
            Policy::WindowRr(2),
        ] {
            assert!((0..12).all(|_| s.pick(&p) != 0), "{p:?}");
        }
        assert_eq!(s.first_alive(), 1);
        let st = s.stripes(8 << 20, 64 << 10, 4096);
        assert!(st.iter().all(|x| x.0 != 0) && st.len() == 2, "{st:?}");
        s.adapt(0.5, &[(1, 1000, 1.0), (2, 1000, 2.0)]);
        assert_eq!(s.weights[0], 0.0);
        assert!((s.weights.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(s.kill(1), 1);
        assert!((0..5).all(|_| s.pick(&Policy::RoundRobin) == 2));
        assert_eq!(s.stripes(8 << 20, 64 << 10, 4096), vec![(2, 0, 8 << 20)]);
    }

    #[test]
    fn message_policies() {
        let mut s = Scheduler::new(2, &Striping::Weighted(vec![3.0, 1.0]));
        let rr: Vec<usize> = (0..4).map(|_| s.pick(&Policy::RoundRobin)).collect();
        assert_eq!(rr, [0, 1, 0, 1]);
        assert!((0..5).all(|_| s.pick(&Policy::Binding) == 0));
        let mut s = Scheduler::new(2, &Striping::Weighted(vec![3.0, 1.0]));
        let w: Vec<usize> = (0..6).map(|_| s.pick(&Policy::WindowRr(3))).collect();
        assert_eq!(w, [0, 0, 0, 1, 1, 1]);
        let mut s = Scheduler::new(2, &Striping::Weighted(vec![3.0, 1.0]));
        let picks: Vec<usize> = (0..8).map(|_| s.pick(&Policy::WeightedRr)).collect();
        assert_eq!(picks.iter().filter(|&&i| i == 0).count(), 6, "{picks:?}");
    }

    #[test]
    fn settings_parse() {
        let s = MultirailSettings::parse("window-rr:4", "weighted:4,1", 1 << 20).unwrap();
        assert_eq!(s.policy, Policy::WindowRr(4));
        assert_eq!(s.striping, Striping::Weighted(vec![4.0, 1.0]));
        let s = MultirailSettings::parse("binding", "adaptive:0.25", 0).unwrap();
        assert_eq!(s.striping, Striping::Adaptive { alpha: 0.25 });
        for (a, b) in [
            ("rr", "even"),
            ("window-rr:0", "even"),
            ("binding", "adaptive:0"),
            ("binding", "adaptive:2"),
            ("binding", "weighted:1,-1"),
            ("binding", "weighted:"),
            ("binding", "fast"),
        ] {
            assert!(MultirailSettings::parse(a, b, 0).is_err(), "{a} {b}");
        }
    }
}
