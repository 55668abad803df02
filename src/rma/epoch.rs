//! Which access and exposure epochs a window has open at this rank (MPI-3.1 §11.5), as a
//! plain state machine: every RMA call asks it first, and a call the epochs do not allow
//! is MPI_ERR_RMA_SYNC before anything moves.

use crate::error::{Error, ErrorClass, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockKind {
    Shared,
    Exclusive,
}

/// How a target is being accessed right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Active target: fence or start/complete.
    Active,
    /// Passive target: lock or lock_all.
    Passive,
}

#[derive(Debug)]
pub struct Epochs {
    /// A fence opened an epoch (the last fence had no MPI_MODE_NOSUCCEED).
    fence: bool,
    /// RMA calls were made since that fence (a lock now would mix active and passive
    /// target on this window, which MPI forbids; without calls the fence's epoch is empty
    /// and a lock may follow, as MPICH allows).
    fence_used: bool,
    /// MPI_Win_start's group (comm ranks), until MPI_Win_complete.
    access: Option<Vec<usize>>,
    /// MPI_Win_post's group, until MPI_Win_wait / a successful MPI_Win_test.
    exposure: Option<Vec<usize>>,
    locks: Vec<Option<LockKind>>,
    lock_all: bool,
}

fn sync(msg: impl Into<String>) -> Error {
    Error::new(ErrorClass::RmaSync, msg)
}

impl Epochs {
    pub fn new(n: usize) -> Epochs {
        Epochs {
            fence: false,
            fence_used: false,
            access: None,
            exposure: None,
            locks: vec![None; n],
            lock_all: false,
        }
    }

    fn passive_open(&self) -> bool {
        self.lock_all || self.locks.iter().any(|l| l.is_some())
    }

    /// May this rank access `target` now? (Any RMA communication call.)
    pub fn access(&mut self, target: usize) -> Result<Access> {
        if self.lock_all || self.locks.get(target).copied().flatten().is_some() {
            return Ok(Access::Passive);
        }
        if self.access.as_ref().is_some_and(|g| g.contains(&target)) {
            return Ok(Access::Active);
        }
        if self.fence {
            self.fence_used = true;
            return Ok(Access::Active);
        }
        Err(sync(format!(
            "no access epoch is open for target {target} (fence, start, lock or lock_all first)"
        )))
    }

    /// Request-based operations (MPI_Rput, …) only within passive-target epochs.
    pub fn request_access(&mut self, target: usize) -> Result<()> {
        match self.access(target)? {
            Access::Passive => Ok(()),
            Access::Active => Err(sync(
                "request-based RMA operations need a passive-target epoch (lock or lock_all)",
            )),
        }
    }

    pub fn fence(&mut self, nosucceed: bool) -> Result<()> {
        if self.access.is_some() || self.exposure.is_some() || self.passive_open() {
            return Err(sync(
                "MPI_Win_fence inside a start/post or lock epoch of this window",
            ));
        }
        self.fence = !nosucceed;
        self.fence_used = false;
        Ok(())
    }

    fn no_active(&self, what: &str) -> Result<()> {
        if self.access.is_some() || self.exposure.is_some() || (self.fence && self.fence_used) {
            return Err(sync(format!(
                "{what} while an active-target epoch of this window is open"
            )));
        }
        Ok(())
    }

    pub fn lock(&mut self, target: usize, kind: LockKind) -> Result<()> {
        self.no_active("MPI_Win_lock")?;
        if self.lock_all {
            return Err(sync("MPI_Win_lock inside MPI_Win_lock_all"));
        }
        match self.locks.get_mut(target) {
            Some(Some(_)) => Err(sync(format!("target {target} is locked already"))),
            Some(slot) => {
                *slot = Some(kind);
                self.fence = false;
                Ok(())
            }
            None => Err(Error::new(ErrorClass::Rank, format!("no rank {target}"))),
        }
    }

    pub fn unlock(&mut self, target: usize) -> Result<LockKind> {
        match self.locks.get_mut(target) {
            Some(slot) => slot
                .take()
                .ok_or_else(|| sync(format!("MPI_Win_unlock of target {target}, not locked"))),
            None => Err(Error::new(ErrorClass::Rank, format!("no rank {target}"))),
        }
    }

    /// MPI_Win_flush / flush_local: the target must be locked (or all are).
    pub fn flush(&self, target: usize) -> Result<()> {
        if self.lock_all || self.locks.get(target).copied().flatten().is_some() {
            Ok(())
        } else {
            Err(sync(format!(
                "flush of target {target} outside a passive-target epoch"
            )))
        }
    }

    /// MPI_Win_flush_all / flush_local_all / MPI_Win_sync need some passive epoch.
    pub fn flush_all(&self) -> Result<()> {
        if self.passive_open() {
            Ok(())
        } else {
            Err(sync("flush outside a passive-target epoch"))
        }
    }

    pub fn lock_all(&mut self) -> Result<()> {
        self.no_active("MPI_Win_lock_all")?;
        if self.passive_open() {
            return Err(sync("MPI_Win_lock_all with locks held"));
        }
        self.lock_all = true;
        self.fence = false;
        Ok(())
    }

    pub fn unlock_all(&mut self) -> Result<()> {
        if !self.lock_all {
            return Err(sync("MPI_Win_unlock_all without MPI_Win_lock_all"));
        }
        self.lock_all = false;
        Ok(())
    }

    pub fn start(&mut self, group: Vec<usize>) -> Result<()> {
        if self.access.is_some() {
            return Err(sync("MPI_Win_start inside an access epoch"));
        }
        if self.passive_open() || (self.fence && self.fence_used) {
            return Err(sync("MPI_Win_start inside a fence or lock epoch"));
        }
        self.fence = false;
        self.access = Some(group);
        Ok(())
    }

    /// The access group MPI_Win_complete ends.
    pub fn complete(&mut self) -> Result<Vec<usize>> {
        self.access
            .take()
            .ok_or_else(|| sync("MPI_Win_complete without MPI_Win_start"))
    }

    pub fn post(&mut self, group: Vec<usize>) -> Result<()> {
        if self.exposure.is_some() {
            return Err(sync("MPI_Win_post inside an exposure epoch"));
        }
        if self.fence && self.fence_used {
            return Err(sync("MPI_Win_post inside a fence epoch"));
        }
        self.fence = false;
        self.exposure = Some(group);
        Ok(())
    }

    /// The exposure group MPI_Win_wait / MPI_Win_test waits for.
    pub fn exposure(&self) -> Result<&[usize]> {
        self.exposure
            .as_deref()
            .ok_or_else(|| sync("MPI_Win_wait / MPI_Win_test without MPI_Win_post"))
    }

    pub fn end_exposure(&mut self) {
        self.exposure = None;
    }

    /// MPI_Win_free: no epoch may be open (a fence's is fine: fence closes it collectively).
    pub fn free(&self) -> Result<()> {
        if self.access.is_some() || self.exposure.is_some() || self.passive_open() {
            return Err(sync(
                "MPI_Win_free with an epoch open (unlock, complete or wait first)",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_sync<T: std::fmt::Debug>(r: Result<T>) -> bool {
        matches!(r, Err(e) if e.class == ErrorClass::RmaSync)
    }

    #[test]
    fn calls_outside_epochs_are_sync_errors() {
        let mut e = Epochs::new(3);
        assert!(is_sync(e.access(1)));
        assert!(is_sync(e.unlock(1)));
        assert!(is_sync(e.flush(0)));
        assert!(is_sync(e.flush_all()));
        assert!(is_sync(e.unlock_all()));
        assert!(is_sync(e.complete()));
        assert!(is_sync(e.exposure()));
        e.fence(false).unwrap();
        assert_eq!(e.access(2).unwrap(), Access::Active);
        assert!(is_sync(e.request_access(2)), "Rput needs a passive epoch");
        assert!(is_sync(e.lock(1, LockKind::Shared)), "RMA since the fence");
        e.fence(true).unwrap();
        assert!(is_sync(e.access(2)), "NOSUCCEED closed it");
        e.free().unwrap();
    }

    #[test]
    fn locks_nest_per_target_only() {
        let mut e = Epochs::new(3);
        e.fence(false).unwrap();
        e.lock(1, LockKind::Exclusive).unwrap(); // an empty fence epoch may turn passive
        assert!(is_sync(e.lock(1, LockKind::Shared)));
        e.lock(2, LockKind::Shared).unwrap();
        assert_eq!(e.access(1).unwrap(), Access::Passive);
        e.request_access(2).unwrap();
        assert!(is_sync(e.access(0)));
        assert!(is_sync(e.lock_all()));
        assert!(is_sync(e.fence(false)));
        assert!(is_sync(e.free()));
        assert_eq!(e.unlock(1).unwrap(), LockKind::Exclusive);
        e.unlock(2).unwrap();
        e.lock_all().unwrap();
        assert!(is_sync(e.lock(0, LockKind::Shared)));
        e.flush(0).unwrap();
        e.unlock_all().unwrap();
        assert!(matches!(e.lock(7, LockKind::Shared), Err(e) if e.class == ErrorClass::Rank));
    }

    #[test]
    fn pscw_epochs() {
        let mut e = Epochs::new(4);
        e.post(vec![0, 1]).unwrap();
        assert!(is_sync(e.post(vec![2])));
        e.start(vec![2, 3]).unwrap();
        assert!(is_sync(e.start(vec![2])));
        assert_eq!(e.access(3).unwrap(), Access::Active);
        assert!(
            is_sync(e.access(0)),
            "0 is exposed to us, not in our access group"
        );
        assert!(is_sync(e.free()));
        assert_eq!(e.complete().unwrap(), vec![2, 3]);
        assert_eq!(e.exposure().unwrap(), &[0, 1]);
        e.end_exposure();
        e.free().unwrap();
    }
}
