//! The argument rules of the one-sided calls (MPI-4.1 §12) in core values: what makes a
//! window's creation arguments, a target (rank, displacement), an accumulate's op, an
//! atomic's datatype, an assertion or a group erroneous, and with which class; the window
//! hints; and the calls that take a target rank as the application gave it. The C surface
//! (`abi::rma`) resolves its handles between these checks, in the order the calls make
//! them, and passes MPI_PROC_NULL as None.

use super::{Flavor, Local, LockKind, Remote, RmaHost, Window};
use crate::datatype::{Basic, Datatype};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::op::Op;

/// Assertion bits (MPI-4.1 §12.5.5), MPICH's values: the C surface passes the application's
/// bits as they are (a const assertion there ties its constants to these).
pub const MODE_NOCHECK: i32 = 1024;
pub const MODE_NOSTORE: i32 = 2048;
pub const MODE_NOPUT: i32 = 4096;
pub const MODE_NOPRECEDE: i32 = 8192;
pub const MODE_NOSUCCEED: i32 = 16384;

/// Assertions a call accepts (anything else is MPI_ERR_ASSERT).
pub fn check_assert(assert: i32, allowed: i32) -> Result<()> {
    if assert & !allowed != 0 {
        return mpi_err!(Assert, "invalid assert {assert:#x}");
    }
    Ok(())
}

/// The assertion of a call that accepts MPI_MODE_NOCHECK only: whether it is given.
pub fn nocheck(assert: i32) -> Result<bool> {
    check_assert(assert, MODE_NOCHECK)?;
    Ok(assert & MODE_NOCHECK != 0)
}

/// MPI_Win_fence's assertion: whether MPI_MODE_NOSUCCEED is given.
pub fn fence_assert(assert: i32) -> Result<bool> {
    let allowed = MODE_NOSTORE | MODE_NOPUT | MODE_NOPRECEDE | MODE_NOSUCCEED;
    check_assert(assert, allowed)?;
    Ok(assert & MODE_NOSUCCEED != 0)
}

/// MPI_Win_post's assertion (none changes what it does).
pub fn post_assert(assert: i32) -> Result<()> {
    check_assert(assert, MODE_NOCHECK | MODE_NOSTORE | MODE_NOPUT)
}

/// The size of a window or of memory attached to one (MPI_ERR_SIZE if negative).
pub fn size(size: i64) -> Result<u64> {
    u64::try_from(size).map_err(|_| Error::new(ErrorClass::Size, format!("negative size {size}")))
}

/// A window's creation arguments after its communicator: (size, displacement unit).
/// `base` is the application's memory (MPI_Win_create), 0 for the other flavors.
pub fn creation(flavor: Flavor, base: usize, bytes: i64, disp_unit: i64) -> Result<(u64, usize)> {
    let bytes = size(bytes)?;
    // (The unit is an int to MPI_WIN_DISP_UNIT: a larger one of MPI_Win_create_c is
    // refused rather than misreported.)
    if disp_unit <= 0 || disp_unit > i32::MAX as i64 {
        return mpi_err!(Arg, "displacement unit {disp_unit} is not a positive int");
    }
    if flavor == Flavor::Create && base == 0 && bytes > 0 {
        return mpi_err!(Arg, "NULL base for a window of {bytes} bytes");
    }
    Ok((bytes, disp_unit as usize))
}

/// A target displacement (MPI_ERR_DISP if negative).
#[inline]
pub fn target_disp(d: i64) -> Result<u64> {
    if d < 0 {
        return mpi_err!(Disp, "negative target displacement {d}");
    }
    Ok(d as u64)
}

/// An accumulate-family operation: one-sided ops are predefined ones, MPI_REPLACE and
/// MPI_NO_OP (MPI_NO_OP only where results are fetched: `fetching`).
pub fn op(o: Op, fetching: bool) -> Result<Op> {
    if o == Op::NoOp && !fetching {
        return mpi_err!(
            Op,
            "MPI_NO_OP is only for MPI_Get_accumulate and MPI_Fetch_and_op"
        );
    }
    Ok(o)
}

/// MPI_Fetch_and_op and MPI_Compare_and_swap take one element of a predefined datatype.
pub fn atomic_type(t: &Datatype) -> Result<Basic> {
    match t.basic {
        Some((b, _)) if t.predefined => Ok(b),
        _ => mpi_err!(Type, "a predefined datatype is required"),
    }
}

/// MPI_Compare_and_swap's datatype: a C integer, Fortran integer, logical or byte type.
pub fn swap_type(t: &Datatype) -> Result<Basic> {
    use Basic::*;
    let b = atomic_type(t)?;
    if !matches!(b, I8 | U8 | I16 | U16 | I32 | U32 | I64 | U64 | Bool | Byte) {
        return mpi_err!(
            Type,
            "MPI_Compare_and_swap needs an integer, logical or byte type"
        );
    }
    Ok(b)
}

/// MPI_Compare_and_swap's origin, compare and result buffers: none may be NULL.
pub fn swap_buffers(addrs: [usize; 3]) -> Result<()> {
    if addrs.contains(&0) {
        return mpi_err!(Buffer, "NULL buffer");
    }
    Ok(())
}

impl<'a> Local<'a> {
    /// An origin or result buffer argument: NULL is an error when it must hold data of a
    /// type that starts at offset 0 (MPI_BOTTOM with absolute-address types stays legal).
    #[inline]
    pub fn new(addr: usize, count: usize, dtype: &'a Datatype) -> Result<Local<'a>> {
        if addr == 0 && count > 0 && dtype.size > 0 && dtype.true_lb == 0 {
            return mpi_err!(Buffer, "NULL buffer with count {count}");
        }
        Ok(Local { addr, count, dtype })
    }
}

impl<'a> Remote<'a> {
    #[inline]
    pub fn new(rank: usize, disp: u64, count: usize, dtype: &'a Datatype) -> Remote<'a> {
        Remote {
            rank,
            disp,
            count,
            dtype,
        }
    }
}

/// The window hints of MPI-4.1 §12.2.7 and their defaults.
const HINTS: [(&str, &str); 6] = [
    ("no_locks", "false"),
    ("accumulate_ordering", "rar,raw,war,waw"),
    ("accumulate_ops", "same_op_no_op"),
    ("same_size", "false"),
    ("same_disp_unit", "false"),
    ("alloc_shared_noncontig", "false"),
];

/// What MPI_Win_get_info reports of the hints `set`: every hint the standard defines, as
/// set or its default; other keys are no hints railmpi knows, so none it used.
pub fn hints_used(set: &[(String, String)]) -> Vec<(String, String)> {
    let given = |k: &str| set.iter().find(|(sk, _)| sk == k).map(|(_, v)| v.clone());
    HINTS
        .iter()
        .map(|&(k, default)| {
            (
                k.to_string(),
                given(k).unwrap_or_else(|| default.to_string()),
            )
        })
        .collect()
}

/// MPI_Win_set_info: `new` replaces or joins the hints `kept` (no hint changes behaviour;
/// they are kept for MPI_Win_get_info).
pub fn merge_hints(kept: &mut Vec<(String, String)>, new: Vec<(String, String)>) {
    for (k, v) in new {
        match kept.iter_mut().find(|(ek, _)| *ek == k) {
            Some(slot) => slot.1 = v,
            None => kept.push((k, v)),
        }
    }
}

impl Window {
    /// A target rank argument (None: MPI_PROC_NULL, then None) as a rank of the window's
    /// communicator (MPI_ERR_RANK if it has none such).
    #[inline]
    pub fn rank_arg(&self, r: Option<i32>) -> Result<Option<usize>> {
        r.map(|r| self.comm.peer_rank(r)).transpose()
    }

    /// The target of a communication call, checked and allowed by the epochs (None:
    /// MPI_PROC_NULL, nothing happens).
    #[inline]
    pub fn access_target(&self, r: Option<i32>, request_based: bool) -> Result<Option<usize>> {
        let t = self.rank_arg(r)?;
        if let Some(t) = t {
            self.check_access(t, request_based)?;
        }
        Ok(t)
    }

    /// The window-communicator ranks of a group's `members` (world ranks; MPI_ERR_GROUP if
    /// one is not in the window).
    pub fn group_ranks(&self, members: &[usize]) -> Result<Vec<usize>> {
        let rank = |&m: &usize| {
            self.comm.group.rank_of(m).ok_or_else(|| {
                Error::new(
                    ErrorClass::Group,
                    format!("process {m} of the group is not in the window"),
                )
            })
        };
        members.iter().map(rank).collect()
    }

    /// MPI_Put (`get` false) or MPI_Get after the checks; a request-based one's request is
    /// complete when returned, so its transfer must have completed (the others complete at
    /// the epoch's synchronization).
    pub fn transfer(
        &self,
        host: &dyn RmaHost,
        get: bool,
        origin: Local,
        target: Remote,
        request_based: bool,
    ) -> Result<()> {
        let rank = target.rank;
        match get {
            true => self.get(host, origin, target)?,
            false => self.put(host, origin, target)?,
        }
        if request_based {
            self.settle(host, Some(rank))?;
        }
        Ok(())
    }

    /// MPI_Win_shared_query for rank argument `r` (None: MPI_PROC_NULL, the lowest rank
    /// whose part is not empty): (size, disp_unit, address). A part of no bytes has no
    /// address (MPICH answers NULL; its rma/win_shared_noncontig_put asserts it).
    pub fn shared_query_arg(&self, r: Option<i32>) -> Result<(u64, u64, usize)> {
        let (size, unit, base) = self.shared_query(self.rank_arg(r)?)?;
        Ok((size, unit, if size == 0 { 0 } else { base }))
    }

    /// MPI_Win_lock on rank argument `r` (MPI_PROC_NULL: nothing to lock).
    pub fn lock_arg(
        &self,
        host: &dyn RmaHost,
        kind: LockKind,
        r: Option<i32>,
        nocheck: bool,
    ) -> Result<()> {
        match self.rank_arg(r)? {
            Some(t) => self.lock(host, kind, t, nocheck),
            None => Ok(()),
        }
    }

    /// MPI_Win_unlock on rank argument `r`.
    pub fn unlock_arg(&self, host: &dyn RmaHost, r: Option<i32>) -> Result<()> {
        match self.rank_arg(r)? {
            Some(t) => self.unlock(host, t),
            None => Ok(()),
        }
    }

    /// MPI_Win_flush and MPI_Win_flush_local on rank argument `r` (operations complete at
    /// the target when they complete here).
    pub fn flush_arg(&self, host: &dyn RmaHost, r: Option<i32>) -> Result<()> {
        match self.rank_arg(r)? {
            Some(t) => self.flush(host, Some(t)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asserts() {
        assert!(!nocheck(0).unwrap());
        assert!(nocheck(MODE_NOCHECK).unwrap());
        let e = nocheck(MODE_NOPUT).unwrap_err();
        assert_eq!(e.class, ErrorClass::Assert);
        assert!(fence_assert(MODE_NOSUCCEED | MODE_NOPRECEDE).unwrap());
        assert!(!fence_assert(MODE_NOSTORE).unwrap());
        assert_eq!(
            fence_assert(MODE_NOCHECK).unwrap_err().class,
            ErrorClass::Assert
        );
        assert_eq!(
            fence_assert(0x7fff_ffff).unwrap_err().class,
            ErrorClass::Assert
        );
        post_assert(MODE_NOCHECK | MODE_NOSTORE | MODE_NOPUT).unwrap();
        assert_eq!(
            post_assert(MODE_NOSUCCEED).unwrap_err().class,
            ErrorClass::Assert
        );
    }

    #[test]
    fn creation_and_targets() {
        assert_eq!(creation(Flavor::Create, 0x1000, 64, 8).unwrap(), (64, 8));
        assert_eq!(creation(Flavor::Create, 0, 0, 1).unwrap(), (0, 1));
        assert_eq!(creation(Flavor::Allocate, 0, 64, 4).unwrap(), (64, 4));
        let class = |r: Result<(u64, usize)>| r.unwrap_err().class;
        // The size is checked before the unit, the unit before the base.
        assert_eq!(class(creation(Flavor::Create, 0, -1, 0)), ErrorClass::Size);
        assert_eq!(class(creation(Flavor::Create, 0, 8, 0)), ErrorClass::Arg);
        assert_eq!(
            class(creation(Flavor::Create, 1, 8, 1 << 31)),
            ErrorClass::Arg
        );
        assert_eq!(class(creation(Flavor::Create, 0, 8, 1)), ErrorClass::Arg);
        assert_eq!(target_disp(7).unwrap(), 7);
        assert_eq!(target_disp(-1).unwrap_err().class, ErrorClass::Disp);
        assert_eq!(size(-5).unwrap_err().class, ErrorClass::Size);
    }

    #[test]
    fn ops_and_types() {
        assert_eq!(op(Op::Sum, false).unwrap(), Op::Sum);
        assert_eq!(op(Op::NoOp, true).unwrap(), Op::NoOp);
        assert_eq!(op(Op::NoOp, false).unwrap_err().class, ErrorClass::Op);
        let int = Datatype::predefined("MPI_INT", 4, Some(Basic::I32));
        let dbl = Datatype::predefined("MPI_DOUBLE", 8, Some(Basic::F64));
        assert_eq!(swap_type(&int).unwrap(), Basic::I32);
        assert_eq!(atomic_type(&dbl).unwrap(), Basic::F64);
        assert_eq!(swap_type(&dbl).unwrap_err().class, ErrorClass::Type);
        let mut derived = int.clone();
        derived.predefined = false;
        assert_eq!(atomic_type(&derived).unwrap_err().class, ErrorClass::Type);
        assert_eq!(
            swap_buffers([1, 0, 2]).unwrap_err().class,
            ErrorClass::Buffer
        );
        assert_eq!(
            Local::new(0, 1, &int).err().unwrap().class,
            ErrorClass::Buffer
        );
        assert!(Local::new(0, 0, &int).is_ok());
    }

    #[test]
    fn hints() {
        let mut kept = vec![("no_locks".to_string(), "true".to_string())];
        merge_hints(
            &mut kept,
            vec![
                ("no_locks".into(), "false".into()),
                ("x".into(), "y".into()),
            ],
        );
        assert_eq!(kept.len(), 2);
        let used = hints_used(&kept);
        assert_eq!(used.len(), HINTS.len());
        assert_eq!(used[0], ("no_locks".to_string(), "false".to_string()));
        assert!(used.iter().all(|(k, _)| k != "x"));
        assert_eq!(used[2].1, "same_op_no_op");
    }
}
