//! Group shims (MPI-3.1 §6.3): constructors, translation, comparison, free (the accessors
//! are table expressions). Groups hold world ranks (`crate::comm::Group`, whose methods
//! the table's lines name); their errors go to MPI_COMM_WORLD's handler, as for every
//! call without a communicator.

use super::args;
use super::consts::*;
use super::handles;
use super::shim::write_out;
use crate::comm::group::GroupComparison;
pub(crate) use crate::comm::Group;
use crate::error::Result;
use crate::mpi_err;
use std::os::raw::c_int;
use std::sync::Arc;

/// Store a new group handle through `newgroup`, of the session `from` derives from.
///
/// # Safety
/// `newgroup` is NULL or valid for writing.
unsafe fn give(newgroup: *mut MPI_Group, g: Group, from: MPI_Group) -> Result<()> {
    let session = handles::group_session(from);
    write_out(newgroup, handles::new_group_in(Arc::new(g), session))
}

/// MPI_Group_incl / _excl (`check_count`: their count is checked first, MPI_ERR_RANK) and
/// MPI_Group_range_incl / _excl: `f` of the group and the `n` ranks or triplets `p`.
///
/// # Safety
/// `p` holds `n` elements; `newgroup` is NULL or valid for writing.
pub(crate) unsafe fn subset<T>(
    group: MPI_Group,
    n: c_int,
    p: *const T,
    newgroup: *mut MPI_Group,
    check_count: bool,
    f: fn(&Group, &[T]) -> Result<Group>,
) -> Result<()> {
    let g = handles::group(group)?;
    if check_count {
        g.check_count(n as i64)?;
    }
    let what = if check_count { "ranks" } else { "ranges" };
    let items = args::slice(p, args::size(n)?, what)?;
    give(newgroup, f(&g, items)?, group)
}

/// MPI_Group_union / _intersection / _difference: `f` of the two groups.
///
/// # Safety
/// `newgroup` is NULL or valid for writing.
pub(crate) unsafe fn set_op(
    group1: MPI_Group,
    group2: MPI_Group,
    newgroup: *mut MPI_Group,
    f: fn(&Group, &Group) -> Group,
) -> Result<()> {
    let (a, b) = (handles::group(group1)?, handles::group(group2)?);
    give(newgroup, f(&a, &b), group1)
}

pub(crate) unsafe fn translate_ranks(
    group1: MPI_Group,
    n: c_int,
    ranks1: *const c_int,
    group2: MPI_Group,
    ranks2: *mut c_int,
) -> Result<()> {
    let (a, b) = (handles::group(group1)?, handles::group(group2)?);
    let ranks = args::slice(ranks1, args::size(n)?, "ranks1")?;
    if n > 0 && ranks2.is_null() {
        return mpi_err!(Arg, "NULL ranks2 array");
    }
    let t = a.translate_ranks_as(ranks, &b, MPI_PROC_NULL, MPI_UNDEFINED)?;
    // SAFETY: ranks2 has room for n elements (MPI's contract), not NULL when n > 0.
    std::ptr::copy_nonoverlapping(t.as_ptr(), ranks2, t.len());
    Ok(())
}

/// MPI_Group_compare's answer (a table line).
pub(crate) fn comparison(c: GroupComparison) -> c_int {
    match c {
        GroupComparison::Ident => MPI_IDENT,
        GroupComparison::Similar => MPI_SIMILAR,
        GroupComparison::Unequal => MPI_UNEQUAL,
    }
}

pub(crate) unsafe fn free(group: *mut MPI_Group) -> Result<()> {
    if group.is_null() {
        return mpi_err!(Arg, "NULL group pointer");
    }
    handles::free_group(*group)?;
    *group = MPI_GROUP_NULL;
    Ok(())
}
