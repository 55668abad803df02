//! Categories of variables: the settings of the runtime and of the rails, and the counters
//! of registration, protocols, rails and one-sided transfers. Fixed for the life of the
//! process (MPI_T_category_changed's stamp never moves).

use crate::error::{Error, ErrorClass, Result};

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

/// What MPI_T_category_get_cvars, _pvars, _categories and _events list of category `i`:
/// the first `len` of its members by `of` (MPI_T_ERR_INVALID if `len` is negative).
pub fn members(i: i32, len: i32, of: fn(usize) -> Vec<usize>) -> Result<Vec<usize>> {
    super::check()?;
    let i = super::index(i, ALL.len(), "category")?;
    let Ok(len) = usize::try_from(len) else {
        return Err(Error::new(
            ErrorClass::TInvalid,
            format!("negative length {len}"),
        ));
    };
    let mut m = of(i);
    m.truncate(len);
    Ok(m)
}

/// Categories hold no categories and no events.
pub fn none(_: usize) -> Vec<usize> {
    Vec::new()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_cut_to_len() {
        super::super::init();
        let three = |_| vec![4, 5, 6];
        assert_eq!(members(0, 2, three).unwrap(), [4, 5]);
        assert_eq!(members(0, 9, three).unwrap(), [4, 5, 6]);
        assert!(members(0, 0, three).unwrap().is_empty());
        assert_eq!(
            members(0, -1, three).unwrap_err().class,
            ErrorClass::TInvalid
        );
        let past = ALL.len() as i32;
        assert_eq!(
            members(past, 1, none).unwrap_err().class,
            ErrorClass::TInvalidIndex
        );
    }
}
