//! The MPI tool information interface (MPI-4.1 §15.3, `MPI_T`) without its C: what railmpi
//! lets tools see. Control variables are the `RAILMPI_*` settings (`cvars`), read-only: each
//! is read once at start-up, so a later write could not take effect. Performance variables
//! (`pvars`) are the counters the papers behind railmpi measure: registrations and pinned
//! bytes, ODP prefetches and faults (Li 2016), messages by protocol (eager, rendezvous, the
//! Woodall pipeline), what each rail carried and the striping weights it settled on (Liu
//! 2004), one-sided transfers posted. `categories` groups both. railmpi raises no events.
//!
//! Each MPI_T call's semantics are here, over core values: its checks (initialisation
//! first, then indices, names, handles' slots), what it answers and the rule a string
//! output follows (`stored`). The C surface (`abi::tool`) encodes handles and writes the
//! answers out.

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

/// A string output of `len` bytes into room for `cap` chars (MPI-4.1 §15.3.3): with no room
/// (`cap` 0, or no buffer) nothing is stored and the caller learns the length needed, NUL
/// included; else at most `cap - 1` chars are stored and a NUL. Some(chars stored), or None
/// when nothing is; the length reported is then `stored.unwrap_or(len) + 1`.
pub fn stored(len: usize, cap: usize) -> Option<usize> {
    (cap > 0).then(|| len.min(cap - 1))
}

/// MPI_T_enum_get_info and MPI_T_enum_get_item: no variable has an enumeration.
pub fn no_enumeration() -> Result<()> {
    check()?;
    Err(Error::new(
        ErrorClass::TInvalidHandle,
        "invalid enumeration handle: no variable has one",
    ))
}

/// MPI_T_event_get_info and MPI_T_event_handle_alloc: no event has an index.
pub fn event_index(i: i32) -> Result<()> {
    check()?;
    index(i, 0, "event type").map(|_| ())
}

/// MPI_T_event_get_index: no event has a name.
pub fn event_by_name(name: &str) -> Result<()> {
    by_name(std::iter::empty(), name).map(|_| ())
}

/// The calls on event registrations and instances: there are none to name.
pub fn no_event_handle() -> Result<()> {
    check()?;
    Err(Error::new(
        ErrorClass::TInvalidHandle,
        "invalid event registration or instance handle",
    ))
}

/// A source of timestamps (MPI_T_source_get_info).
pub struct Source {
    pub name: &'static str,
    pub desc: &'static str,
    pub ticks_per_second: i64,
    pub max_ticks: i64,
}

/// The one source: the monotonic clock, in nanoseconds (`timestamp`).
const CLOCK: Source = Source {
    name: "railmpi_clock",
    desc: "CLOCK_MONOTONIC, in nanoseconds",
    ticks_per_second: 1_000_000_000,
    max_ticks: i64::MAX,
};

/// MPI_T_source_get_info: source `i`.
pub fn source(i: i32) -> Result<&'static Source> {
    check()?;
    index(i, 1, "source")?;
    Ok(&CLOCK)
}

/// What MPI_T_category_get_info tells of a category.
pub struct CategoryInfo {
    pub name: &'static str,
    pub desc: &'static str,
    pub cvars: usize,
    pub pvars: usize,
    /// Categories within it: none.
    pub categories: usize,
}

/// MPI_T_category_get_info: category `i`.
pub fn category(i: i32) -> Result<CategoryInfo> {
    check()?;
    let i = index(i, categories::ALL.len(), "category")?;
    Ok(CategoryInfo {
        name: categories::ALL[i].name,
        desc: categories::ALL[i].desc,
        cvars: cvars::of_category(i).len(),
        pvars: pvars::of_category(i).len(),
        categories: 0,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_outputs_and_indices() {
        // No room: the length needed is reported; room: cut to cap - 1 chars and a NUL.
        assert_eq!(stored(5, 0), None);
        assert_eq!(stored(5, 3), Some(2));
        assert_eq!(stored(5, 6), Some(5));
        assert_eq!(stored(5, 100), Some(5));
        assert_eq!(index(0, 1, "x").unwrap(), 0);
        assert_eq!(
            index(1, 1, "x").unwrap_err().class,
            ErrorClass::TInvalidIndex
        );
        assert_eq!(
            index(-1, 1, "x").unwrap_err().class,
            ErrorClass::TInvalidIndex
        );
        let names = ["a", "b"].into_iter();
        assert_eq!(by_name(names, "b").unwrap(), 1);
        assert_eq!(
            event_by_name("e").unwrap_err().class,
            ErrorClass::TInvalidName
        );
    }
}
