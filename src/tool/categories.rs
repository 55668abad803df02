//! Categories of variables: the settings of the runtime and of the rails, and the counters
//! of registration, protocols, rails and one-sided transfers. Fixed for the life of the
//! process (MPI_T_category_changed's stamp never moves).

use crate::error::Result;

pub struct Category {
    pub name: &'static str,
    pub desc: &'static str,
}

pub const RUNTIME: usize = 0;
pub const RAILS: usize = 1;
pub const REGISTRATION: usize = 2;
pub const PROTOCOLS: usize = 3;
pub const MULTIRAIL: usize = 4;
pub const RMA: usize = 5;

pub const ALL: &[Category] = &[
    Category {
        name: "railmpi_runtime",
        desc: "settings of the runtime and the protocols (RAILMPI_*, read at start-up)",
    },
    Category {
        name: "railmpi_rails",
        desc: "settings of the rails: shm, tcp, verbs (RAILMPI_*, read at start-up)",
    },
    Category {
        name: "railmpi_registration",
        desc: "memory registration: pinned bytes, the registration cache, ODP prefetches \
               and faults (Li 2016)",
    },
    Category {
        name: "railmpi_protocols",
        desc: "point-to-point messages by protocol: eager, rendezvous, pipeline (Woodall \
               2006)",
    },
    Category {
        name: "railmpi_multirail",
        desc: "per rail, over peers reached by several subchannels: messages, stripes, \
               bytes and striping weights (Liu 2004)",
    },
    Category {
        name: "railmpi_rma",
        desc: "one-sided transfers posted on the rails",
    },
];

/// MPI_T_category_get_num: how many there are.
pub fn num() -> Result<usize> {
    super::check()?;
    Ok(ALL.len())
}

/// MPI_T_category_get_index: the index of the category called `name`.
pub fn index_of(name: &str) -> Result<usize> {
    super::check()?;
    super::by_name(ALL.iter().map(|c| c.name), name)
}

/// MPI_T_category_get_num_events: category `i` holds none (railmpi raises no events).
pub fn num_events(i: i32) -> Result<usize> {
    super::check()?;
    super::index(i, ALL.len(), "category")?;
    Ok(0)
}

/// MPI_T_category_changed: the update number, which never moves.
pub fn changed() -> Result<usize> {
    super::check()?;
    Ok(0)
}
