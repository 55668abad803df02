//! Group shims (MPI-3.1 §6.3): accessors, constructors, translation, comparison, free.
//! Groups hold world ranks (`crate::comm::Group`); their errors go to MPI_COMM_WORLD's
//! handler, as for every call without a communicator.

use super::args;
use super::consts::*;
use super::handles;
use super::shim::{self, write_out};
use crate::comm::group::GroupComparison;
use crate::comm::Group;
use crate::error::Result;
use crate::mpi_err;
use std::os::raw::c_int;
use std::sync::Arc;

/// `n` elements of a C array (n checked non-negative: MPI_ERR_ARG).
///
/// # Safety
/// `p` is valid for `n` elements when n > 0.
unsafe fn slice<'a, T>(p: *const T, n: c_int, what: &str) -> Result<&'a [T]> {
    args::slice(p, args::size(n)?, what)
}

/// Store a new group handle through `newgroup`, of the session `from` derives from.
///
/// # Safety
/// `newgroup` is NULL or valid for writing.
unsafe fn give(newgroup: *mut MPI_Group, g: Group, from: MPI_Group) -> Result<()> {
    let session = handles::group_session(from);
    write_out(newgroup, handles::new_group_in(Arc::new(g), session))
}

pub(crate) unsafe fn comm_group(comm: MPI_Comm, group: *mut MPI_Group) -> Result<()> {
    shim::world()?;
    let c = handles::comm(comm)?;
    let session = handles::comm_session(comm);
    write_out(group, handles::new_group_in(c.group.clone(), session))
}

pub(crate) unsafe fn size(group: MPI_Group, size: *mut c_int) -> Result<()> {
    write_out(size, handles::group(group)?.size() as c_int)
}

pub(crate) unsafe fn rank(group: MPI_Group, rank: *mut c_int) -> Result<()> {
    let me = shim::world()?.rank;
    let r = handles::group(group)?
        .rank_of(me)
        .map_or(MPI_UNDEFINED, |r| r as c_int);
    write_out(rank, r)
}

pub(crate) unsafe fn incl(
    group: MPI_Group,
    n: c_int,
    ranks: *const c_int,
    newgroup: *mut MPI_Group,
) -> Result<()> {
    let g = handles::group(group)?;
    g.check_count(n as i64)?;
    give(newgroup, g.incl(slice(ranks, n, "ranks")?)?, group)
}

pub(crate) unsafe fn excl(
    group: MPI_Group,
    n: c_int,
    ranks: *const c_int,
    newgroup: *mut MPI_Group,
) -> Result<()> {
    let g = handles::group(group)?;
    g.check_count(n as i64)?;
    give(newgroup, g.excl(slice(ranks, n, "ranks")?)?, group)
}

pub(crate) unsafe fn range_incl(
    group: MPI_Group,
    n: c_int,
    ranges: *mut [c_int; 3],
    newgroup: *mut MPI_Group,
) -> Result<()> {
    let g = handles::group(group)?;
    give(newgroup, g.range_incl(slice(ranges, n, "ranges")?)?, group)
}

pub(crate) unsafe fn range_excl(
    group: MPI_Group,
    n: c_int,
    ranges: *mut [c_int; 3],
    newgroup: *mut MPI_Group,
) -> Result<()> {
    let g = handles::group(group)?;
    give(newgroup, g.range_excl(slice(ranges, n, "ranges")?)?, group)
}

pub(crate) unsafe fn union(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: *mut MPI_Group,
) -> Result<()> {
    let (a, b) = (handles::group(group1)?, handles::group(group2)?);
    give(newgroup, a.union(&b), group1)
}

pub(crate) unsafe fn intersection(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: *mut MPI_Group,
) -> Result<()> {
    let (a, b) = (handles::group(group1)?, handles::group(group2)?);
    give(newgroup, a.intersection(&b), group1)
}

pub(crate) unsafe fn difference(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: *mut MPI_Group,
) -> Result<()> {
    let (a, b) = (handles::group(group1)?, handles::group(group2)?);
    give(newgroup, a.difference(&b), group1)
}

pub(crate) unsafe fn translate_ranks(
    group1: MPI_Group,
    n: c_int,
    ranks1: *const c_int,
    group2: MPI_Group,
    ranks2: *mut c_int,
) -> Result<()> {
    let (a, b) = (handles::group(group1)?, handles::group(group2)?);
    let ranks: Vec<Option<c_int>> = slice(ranks1, n, "ranks1")?
        .iter()
        .map(|&r| (r != MPI_PROC_NULL).then_some(r))
        .collect();
    if n > 0 && ranks2.is_null() {
        return mpi_err!(Arg, "NULL ranks2 array");
    }
    for (i, t) in a.translate_ranks(&ranks, &b)?.into_iter().enumerate() {
        // SAFETY: ranks2 has room for n elements (MPI's contract).
        *ranks2.add(i) = match t {
            None => MPI_PROC_NULL,
            Some(None) => MPI_UNDEFINED,
            Some(Some(r)) => r as c_int,
        };
    }
    Ok(())
}

pub(crate) unsafe fn compare(
    group1: MPI_Group,
    group2: MPI_Group,
    result: *mut c_int,
) -> Result<()> {
    let (a, b) = (handles::group(group1)?, handles::group(group2)?);
    let r = match a.compare(&b) {
        GroupComparison::Ident => MPI_IDENT,
        GroupComparison::Similar => MPI_SIMILAR,
        GroupComparison::Unequal => MPI_UNEQUAL,
    };
    write_out(result, r)
}

pub(crate) unsafe fn free(group: *mut MPI_Group) -> Result<()> {
    if group.is_null() {
        return mpi_err!(Arg, "NULL group pointer");
    }
    handles::free_group(*group)?;
    *group = MPI_GROUP_NULL;
    Ok(())
}
