//! A budget for warnings that a stranger can trigger (refused connections, failed accepts):
//! at most `burst` lines per `interval`, and the next line that passes says how many were
//! held back. Without it, a flood of bad connections turns into a flood of log lines (one
//! rank once wrote 137 MB in 20 s). Shared by the tcp rail and the launcher.

use std::time::{Duration, Instant};

pub struct RateLimit {
    burst: u32,
    interval: Duration,
    /// Start of the current window (None before the first line).
    since: Option<Instant>,
    used: u32,
    suppressed: u64,
}

impl RateLimit {
    pub const fn new(burst: u32, interval: Duration) -> RateLimit {
        RateLimit {
            burst,
            interval,
            since: None,
            used: 0,
            suppressed: 0,
        }
    }

    /// Whether a line may be written at `now`: `Some(n)` — write it, and say that `n` lines
    /// were suppressed before it (see [`suppressed_note`]); `None` — drop it (counted).
    pub fn allow(&mut self, now: Instant) -> Option<u64> {
        match self.since {
            Some(t) if now.saturating_duration_since(t) < self.interval => {}
            _ => {
                self.since = Some(now);
                self.used = 0;
            }
        }
        if self.used < self.burst {
            self.used += 1;
            Some(std::mem::take(&mut self.suppressed))
        } else {
            self.suppressed += 1;
            None
        }
    }

    /// Lines dropped since the last one that passed (for a closing note).
    pub fn suppressed(&self) -> u64 {
        self.suppressed
    }
}

/// The tail a line gets when others were suppressed before it ("" when none were).
pub fn suppressed_note(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(" ({n} similar line(s) suppressed before this one)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_silence_then_a_count() {
        let mut r = RateLimit::new(3, Duration::from_secs(10));
        let t0 = Instant::now();
        let passed: Vec<_> = (0..1000)
            .map(|i| r.allow(t0 + Duration::from_millis(i)))
            .collect();
        assert_eq!(passed.iter().filter(|p| p.is_some()).count(), 3);
        assert_eq!(passed[..3], [Some(0), Some(0), Some(0)]);
        // The next window lets a line through and it carries the count.
        assert_eq!(r.allow(t0 + Duration::from_secs(11)), Some(997));
        assert_eq!(r.allow(t0 + Duration::from_secs(11)), Some(0));
        assert_eq!(suppressed_note(0), "");
        assert!(suppressed_note(997).contains("997"));
    }
}
