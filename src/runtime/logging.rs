//! `tracing` output on stderr, filtered by `RAILMPI_LOG`, each line tagged with the rank.

use std::sync::Once;

static INIT: Once = Once::new();

pub fn init(filter: &str, rank: usize) {
    INIT.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_new(filter)
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_target(false)
            .with_ansi(false)
            .without_time()
            .fmt_fields(tracing_subscriber::fmt::format::DefaultFields::new())
            .event_format(RankFormat(rank))
            .try_init();
    });
}

struct RankFormat(usize);

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for RankFormat
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut w: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        write!(w, "railmpi[{}] {}: ", self.0, event.metadata().level())?;
        ctx.field_format().format_fields(w.by_ref(), event)?;
        writeln!(w)
    }
}

/// Print `line` and a newline on stderr in one `write`: ranks share their launcher's
/// terminal or pipe, and `eprintln!` writes each formatted piece separately, so two ranks
/// failing at once interleaved mid-line.
pub fn say(line: &str) {
    use std::io::Write;
    let mut buf = String::with_capacity(line.len() + 1);
    buf.push_str(line);
    buf.push('\n');
    let _ = std::io::stderr().lock().write_all(buf.as_bytes());
}
