//! The MPI tool information interface (MPI-4.1 §15.3, `MPI_T`) without its C: what railmpi
//! lets tools see. Control variables are the `RAILMPI_*` settings (`cvars`), read-only: each
//! is read once at start-up, so a later write could not take effect. Performance variables
//! (`pvars`) are the counters the papers behind railmpi measure: registrations and pinned
//! bytes, ODP prefetches and faults (Li 2016), messages by protocol (eager, rendezvous, the
//! Woodall pipeline), what each rail carried and the striping weights it settled on (Liu
//! 2004), one-sided transfers posted. `categories` groups both. railmpi raises no events.
//!
//! The C surface (handles, sessions, strings) is `abi::tool`.

pub mod categories;
pub mod cvars;
pub mod handles;
pub mod pvars;

use crate::error::{Error, ErrorClass, Result};
use std::sync::atomic::{AtomicUsize, Ordering};

/// MPI_T_init_thread calls not yet matched by MPI_T_finalize.
static USERS: AtomicUsize = AtomicUsize::new(0);

/// MPI_T_init_thread: the interface may be initialised any number of times, before
/// MPI_Init and after MPI_Finalize too.
pub fn init() {
    USERS.fetch_add(1, Ordering::AcqRel);
}

/// MPI_T_finalize (MPI_T_ERR_NOT_INITIALIZED without a matching init): the last one frees
/// every handle and session.
pub fn finalize() -> Result<()> {
    let users = USERS
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
        .map_err(|_| not_initialized())?;
    if users == 1 {
        handles::clear();
    }
    Ok(())
}

/// MPI_T_ERR_NOT_INITIALIZED unless the interface is initialised.
pub fn check() -> Result<()> {
    match USERS.load(Ordering::Acquire) {
        0 => Err(not_initialized()),
        _ => Ok(()),
    }
}

fn not_initialized() -> Error {
    Error::new(ErrorClass::TNotInitialized, "MPI_T is not initialized")
}

/// MPI_T_event_get_num: railmpi raises no events.
pub fn num_events() -> Result<usize> {
    check()?;
    Ok(0)
}

/// MPI_T_source_get_num: one source of timestamps, the monotonic clock.
pub fn num_sources() -> Result<usize> {
    check()?;
    Ok(1)
}

/// MPI_T_source_get_timestamp: source `i`'s time now, in nanoseconds.
pub fn timestamp(i: i32) -> Result<i64> {
    check()?;
    index(i, 1, "source")?;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    Ok(ts.tv_sec * 1_000_000_000 + ts.tv_nsec)
}

/// MPI_T_ERR_INVALID_INDEX for an index past `n` (or negative).
pub fn index(i: i32, n: usize, what: &str) -> Result<usize> {
    match usize::try_from(i) {
        Ok(i) if i < n => Ok(i),
        _ => Err(Error::new(
            ErrorClass::TInvalidIndex,
            format!("no {what} of index {i} (there are {n})"),
        )),
    }
}

/// The index of the entry called `name` (MPI_T_ERR_INVALID_NAME if none is).
pub fn by_name<'a>(mut names: impl Iterator<Item = &'a str>, name: &str) -> Result<usize> {
    names.position(|n| n == name).ok_or_else(|| {
        Error::new(
            ErrorClass::TInvalidName,
            format!("no variable or category {name:?}"),
        )
    })
}
