//! Error handlers without their C: which handler an object's errors go to (the rules of
//! inheritance, over the binding's handler values), the application's handler functions
//! with their references, and what MPI_ERRORS_ARE_FATAL does.

use super::slab::Slab;
use parking_lot::RwLock;

/// The handler errors on an object go to, given its own (None: neither it nor the
/// communicator it came from had one set) and MPI_COMM_WORLD's own (asked only then).
///
/// An unset one stands for MPI_COMM_WORLD's handler of the moment (`fatal`,
/// MPI_ERRORS_ARE_FATAL, until one is set), as in MPICH, whose programs count on it:
/// MPICH's own tests dup a communicator, then set MPI_ERRORS_RETURN on MPI_COMM_WORLD only
/// and expect the dup's errors returned (errors/comm/*_nullarg, errors/attr/keyvalmis with
/// a window). (The standard has a new communicator take its parent's handler at creation;
/// the two agree until MPI_COMM_WORLD's changes.)
#[inline]
pub fn effective<H>(own: Option<H>, world: impl FnOnce() -> Option<H>, fatal: H) -> H {
    own.or_else(world).unwrap_or(fatal)
}

/// What MPI_Comm_get_errhandler and MPI_Win_get_errhandler return for an object's own
/// handler: for an unset one, `fatal` (what the standard says it inherited, and what MPICH
/// returns), even when MPI_COMM_WORLD's handler is what runs.
pub fn reported<H>(own: Option<H>, fatal: H) -> H {
    own.unwrap_or(fatal)
}

/// The application's handler functions (MPI_*_create_errhandler), by slot: the function's
/// address and its references. A handler's references are the creation, every
/// MPI_*_get_errhandler that returned it and every object it was set on; MPI_Errhandler_free
/// drops one. Setting never gives one back (the object's later handler or its freeing does
/// not), so a handler once set stays: a few bytes, against a handler vanishing from under a
/// communicator that still uses it.
pub struct Functions(RwLock<Slab<(usize, u32)>>);

impl Functions {
    pub const fn new() -> Self {
        Functions(RwLock::new(Slab::new(0)))
    }

    /// A new handler calling function `f`: its slot, with one reference.
    pub fn create(&self, f: usize) -> usize {
        self.0.write().insert((f, 1))
    }

    /// The function of the handler at `slot`.
    pub fn function(&self, slot: usize) -> Option<usize> {
        self.0.read().get(slot).map(|e| e.0)
    }

    /// One more reference to the handler at `slot` (a get returned it, or it was set).
    pub fn retain(&self, slot: usize) {
        if let Some(e) = self.0.write().get_mut(slot) {
            e.1 += 1;
        }
    }

    /// One reference fewer; the handler goes with its last. False: no handler at `slot`.
    pub fn release(&self, slot: usize) -> bool {
        let mut t = self.0.write();
        match t.get_mut(slot) {
            Some(e) if e.1 > 1 => e.1 -= 1,
            Some(_) => {
                t.remove(slot);
            }
            None => return false,
        }
        true
    }
}

impl Default for Functions {
    fn default() -> Self {
        Self::new()
    }
}

/// MPI_ERRORS_ARE_FATAL: say what went wrong (`what`: the error's string) and take the
/// whole job down.
pub fn fatal(func: &str, what: &str, msg: &str) -> ! {
    let w = super::world::world();
    let rank = w.map_or_else(|| "?".into(), |w| w.rank.to_string());
    super::logging::say(&format!(
        "railmpi: rank {rank}: fatal error in {func}: {what}: {msg}"
    ));
    match w {
        Some(w) => w.abort(None, 1, &format!("fatal error in {func}")),
        None => std::process::exit(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inheritance() {
        // Own first; unset: the world's (asked only then); neither: fatal.
        assert_eq!(effective(Some(3), || panic!("asked"), 1), 3);
        assert_eq!(effective(None, || Some(2), 1), 2);
        assert_eq!(effective(None, || None, 1), 1);
        assert_eq!(reported(None, 1), 1);
        assert_eq!(reported(Some(4), 1), 4);
    }

    #[test]
    fn references() {
        let fns = Functions::new();
        let s = fns.create(0x1234);
        fns.retain(s);
        assert!(fns.release(s));
        assert_eq!(fns.function(s), Some(0x1234));
        assert!(fns.release(s));
        assert_eq!(fns.function(s), None);
        assert!(!fns.release(s));
    }
}
