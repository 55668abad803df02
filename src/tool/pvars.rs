//! Performance variables: the counters railmpi keeps anyway (`RAILMPI_STATS` prints the same
//! ones), read when a tool asks. All are read-only and continuous (counting from MPI_Init,
//! never started, stopped or reset); before MPI_Init and after MPI_Finalize they read 0.
//! The multirail ones have one element per rail (`count`).

use super::categories::{MULTIRAIL, PROTOCOLS, REGISTRATION, RMA};
use super::handles::PvarHandle;
use crate::channel::RailTotals;
use crate::error::{Error, ErrorClass, Result};
use crate::pt2pt::ProtocolCounts;
use crate::registration::StatsSnapshot;
use crate::runtime::World;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A value of the moment.
    Level,
    /// The highest a level has been.
    HighWatermark,
    /// Events counted.
    Counter,
}

/// Where a variable's value comes from.
#[derive(Clone, Copy)]
enum Source {
    Registration(fn(&StatsSnapshot) -> u64),
    Protocol(fn(&ProtocolCounts) -> u64),
    Notices,
    Splits,
    Rail(fn(&RailTotals) -> u64),
    RailWeight,
    RmaPosted,
    RmaPeak,
}

pub struct Pvar {
    pub name: &'static str,
    pub desc: &'static str,
    pub class: Class,
    pub category: usize,
    source: Source,
}

impl Pvar {
    /// Doubles (the striping weights); the others are 64-bit unsigned integers.
    pub fn float(&self) -> bool {
        matches!(self.source, Source::RailWeight)
    }

    fn per_rail(&self) -> bool {
        matches!(self.source, Source::Rail(_) | Source::RailWeight)
    }
}

pub enum Values {
    U64(Vec<u64>),
    F64(Vec<f64>),
}

const fn v(
    name: &'static str,
    desc: &'static str,
    class: Class,
    category: usize,
    source: Source,
) -> Pvar {
    Pvar {
        name,
        desc,
        class,
        category,
        source,
    }
}

use Class::*;
use Source::*;

/// MPI_T_pvar_get_num: how many there are.
pub fn num() -> Result<usize> {
    super::check()?;
    Ok(ALL.len())
}

pub const ALL: &[Pvar] = &[
    v(
        "railmpi_pinned_bytes",
        "bytes the registration layer holds pinned now",
        Level,
        REGISTRATION,
        Registration(|s| s.pinned_bytes),
    ),
    v(
        "railmpi_pinned_peak",
        "the most bytes the registration layer held pinned",
        HighWatermark,
        REGISTRATION,
        Registration(|s| s.pinned_peak),
    ),
    v(
        "railmpi_registrations",
        "memory registrations asked for (cache hits included)",
        Counter,
        REGISTRATION,
        Registration(|s| s.registrations),
    ),
    v(
        "railmpi_deregistrations",
        "registrations released",
        Counter,
        REGISTRATION,
        Registration(|s| s.deregistrations),
    ),
    v(
        "railmpi_reg_cache_hits",
        "registrations served by a cached covering one",
        Counter,
        REGISTRATION,
        Registration(|s| s.cache_hits),
    ),
    v(
        "railmpi_reg_cache_misses",
        "registrations the cache did not hold",
        Counter,
        REGISTRATION,
        Registration(|s| s.cache_misses),
    ),
    v(
        "railmpi_reg_cache_evictions",
        "cached registrations dropped for room",
        Counter,
        REGISTRATION,
        Registration(|s| s.evictions),
    ),
    v(
        "railmpi_reg_cache_invalidations",
        "cached registrations dropped because their memory was unmapped or moved",
        Counter,
        REGISTRATION,
        Registration(|s| s.invalidations),
    ),
    v(
        "railmpi_odp_prefetches",
        "ODP prefetch calls (overlapped with the rendezvous)",
        Counter,
        REGISTRATION,
        Registration(|s| s.prefetch_calls),
    ),
    v(
        "railmpi_odp_prefetch_pages",
        "pages ODP prefetches asked for",
        Counter,
        REGISTRATION,
        Registration(|s| s.prefetch_pages),
    ),
    v(
        "railmpi_memlock_fallbacks",
        "pin-down registrations left unpinned by RLIMIT_MEMLOCK",
        Counter,
        REGISTRATION,
        Registration(|s| s.memlock_fallbacks),
    ),
    v(
        "railmpi_page_faults",
        "pages not resident when an RDMA transfer touched them (counted with RAILMPI_STATS=1)",
        Counter,
        REGISTRATION,
        Registration(|s| s.page_faults),
    ),
    v(
        "railmpi_eager_sends",
        "messages sent eagerly",
        Counter,
        PROTOCOLS,
        Protocol(|c| c.eager),
    ),
    v(
        "railmpi_rndv_sends",
        "messages sent by rendezvous (RGET, RPUT or streamed)",
        Counter,
        PROTOCOLS,
        Protocol(|c| c.rendezvous),
    ),
    v(
        "railmpi_pipeline_sends",
        "messages sent by the registration pipeline",
        Counter,
        PROTOCOLS,
        Protocol(|c| c.pipeline),
    ),
    v(
        "railmpi_rndv_rdma_recvs",
        "rendezvous received by RDMA (read, or split read/write)",
        Counter,
        PROTOCOLS,
        Protocol(|c| c.rdma_received),
    ),
    v(
        "railmpi_rndv_streamed_recvs",
        "rendezvous received streamed through the channel",
        Counter,
        PROTOCOLS,
        Protocol(|c| c.streamed_received),
    ),
    v(
        "railmpi_rndv_splits",
        "rendezvous split between our read and the sender's write",
        Counter,
        PROTOCOLS,
        Splits,
    ),
    v(
        "railmpi_write_notices",
        "RDMA writes noticed by their immediate word (no PUT_DONE or PIPE_FIN sent)",
        Counter,
        PROTOCOLS,
        Notices,
    ),
    v(
        "railmpi_rail_messages",
        "per rail: messages its subchannels carried",
        Counter,
        MULTIRAIL,
        Rail(|t| t.messages),
    ),
    v(
        "railmpi_rail_stripes",
        "per rail: stripes of striped transfers it carried",
        Counter,
        MULTIRAIL,
        Rail(|t| t.stripes),
    ),
    v(
        "railmpi_rail_bytes",
        "per rail: bytes of striped transfers it carried",
        Counter,
        MULTIRAIL,
        Rail(|t| t.bytes),
    ),
    v(
        "railmpi_rail_weight",
        "per rail: the adaptive striping weight (mean over peers)",
        Level,
        MULTIRAIL,
        RailWeight,
    ),
    v(
        "railmpi_rma_posted",
        "one-sided puts and gets posted on the rails",
        Counter,
        RMA,
        RmaPosted,
    ),
    v(
        "railmpi_rma_peak_in_flight",
        "the most one-sided transfers in flight at once",
        HighWatermark,
        RMA,
        RmaPeak,
    ),
];

fn world() -> Option<&'static World> {
    crate::runtime::world()
}

/// The index of performance variable `i` (MPI_T_pvar_get_info, MPI_T_pvar_handle_alloc).
pub fn index(i: i32) -> Result<usize> {
    super::check()?;
    super::index(i, ALL.len(), "performance variable")
}

/// MPI_T_pvar_get_info: performance variable `i`.
pub fn info(i: i32) -> Result<&'static Pvar> {
    Ok(&ALL[index(i)?])
}

/// MPI_T_pvar_handle_alloc's session slot (of handle word `s`) and variable `i` (the
/// interface initialised first).
pub fn target(s: usize, i: i32) -> Result<(usize, usize)> {
    super::check()?;
    let s = super::handles::session_slot(s)?;
    Ok((s, index(i)?))
}

/// MPI_T_pvar_handle_alloc: a new handle of variable `var` in session `session`, its slot
/// and element count.
pub fn new_handle((session, var): (usize, usize)) -> (usize, usize) {
    let count = count(var);
    let h = PvarHandle {
        session,
        var,
        count,
    };
    (super::handles::new_pvar(h), count)
}

/// MPI_T_pvar_get_index: the variable called `name` of class `class` (None: a class code
/// the binding does not know, which no variable has).
pub fn index_of(name: &str, class: Option<Class>) -> Result<usize> {
    let names = ALL
        .iter()
        .map(|p| if Some(p.class) == class { p.name } else { "" });
    super::by_name(names, name)
}

/// MPI_T_pvar_start and MPI_T_pvar_stop on handle `h` (None: all the session's): every
/// variable is continuous, so for all handles at once there is nothing to do.
pub fn start_stop(h: Option<PvarHandle>) -> Result<()> {
    match h {
        None => Ok(()),
        Some(_) => Err(Error::new(
            ErrorClass::TPvarNoStartstop,
            "railmpi's performance variables are continuous",
        )),
    }
}

/// MPI_T_pvar_write, MPI_T_pvar_reset and MPI_T_pvar_readreset: every variable is
/// read-only (a reset for all handles at once has nothing to do).
pub fn write(h: Option<PvarHandle>) -> Result<()> {
    match h {
        None => Ok(()),
        Some(_) => Err(Error::new(
            ErrorClass::TPvarNoWrite,
            "railmpi's performance variables are read-only",
        )),
    }
}

/// MPI_T_pvar_read: exactly the handle's count of elements. A variable grows no elements
/// after its handle was made (rails are fixed at MPI_Init, and read 0 before it): missing
/// ones are 0, extra ones dropped.
pub fn read_handle(h: PvarHandle) -> Values {
    match read(h.var) {
        Values::U64(mut v) => {
            v.resize(h.count, 0);
            Values::U64(v)
        }
        Values::F64(mut v) => {
            v.resize(h.count, 0.0);
            Values::F64(v)
        }
    }
}

/// Elements of variable `i`: one, or one per rail.
pub fn count(i: usize) -> usize {
    match (ALL[i].per_rail(), world()) {
        (true, Some(w)) => w.progress.locked(|e| e.channels.rail_names().len()).max(1),
        _ => 1,
    }
}

/// The value of variable `i`, `count(i)` elements (or fewer: the caller pads).
pub fn read(i: usize) -> Values {
    let Some(w) = world() else {
        return match ALL[i].float() {
            true => Values::F64(vec![0.0]),
            false => Values::U64(vec![0]),
        };
    };
    let one = |x: u64| Values::U64(vec![x]);
    match ALL[i].source {
        Registration(f) => one(w.registry.as_ref().map_or(0, |r| f(&r.stats()))),
        Protocol(f) => one(w.progress.locked(|e| f(&e.p2p.counts))),
        Notices => one(w.progress.locked(|e| e.p2p.notices)),
        Splits => one(w.progress.locked(|e| e.p2p.splits)),
        Rail(f) => Values::U64(
            w.progress
                .locked(|e| e.channels.rail_totals())
                .iter()
                .map(f)
                .collect(),
        ),
        RailWeight => Values::F64(
            w.progress
                .locked(|e| e.channels.rail_totals())
                .iter()
                .map(|t| t.weight)
                .collect(),
        ),
        RmaPosted => one(crate::rma::transfer_stats().0),
        RmaPeak => one(crate::rma::transfer_stats().1),
    }
}

/// The performance variables of category `c`, by index.
pub fn of_category(c: usize) -> Vec<usize> {
    let all = ALL.iter().enumerate();
    all.filter(|(_, v)| v.category == c)
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_rules() {
        let h = PvarHandle {
            session: 0,
            var: 0,
            count: 3,
        };
        // For all handles at once there is nothing to do; a specific one refuses.
        assert!(start_stop(None).is_ok() && write(None).is_ok());
        let class = |r: Result<()>| r.unwrap_err().class;
        assert_eq!(class(start_stop(Some(h))), ErrorClass::TPvarNoStartstop);
        assert_eq!(class(write(Some(h))), ErrorClass::TPvarNoWrite);
        // Before MPI_Init a variable reads one 0: padded to the handle's count.
        match read_handle(h) {
            Values::U64(v) => assert_eq!(v, [0, 0, 0]),
            Values::F64(v) => assert_eq!(v, [0.0, 0.0, 0.0]),
        }
        let p = &ALL[0];
        assert_eq!(index_of(p.name, Some(p.class)).unwrap(), 0);
        let other = [Class::Level, Class::Counter]
            .into_iter()
            .find(|&c| c != p.class);
        assert_eq!(
            index_of(p.name, other).unwrap_err().class,
            ErrorClass::TInvalidName
        );
        assert_eq!(
            index_of(p.name, None).unwrap_err().class,
            ErrorClass::TInvalidName
        );
    }
}
