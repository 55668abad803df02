//! A per-thread cache of objects taken from a handle table (the binding's communicators and
//! datatypes).
//!
//! Looking a handle up in its table takes the table's read lock and an `Arc` reference:
//! four atomic operations, about half the cost of a one-byte message on a duplicated
//! communicator. A hit here lends the cached `Arc` for the length of the MPI call instead
//! (`Lent`), touching nothing shared but the table's epoch, which every change to the
//! table advances: an entry serves only under the epoch it was cached at, so a freed or
//! replaced object is never lent. An entry is replaced only while nothing lends it.

use parking_lot::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::cell::{Cell, UnsafeCell};
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::LocalKey;

/// A handle table and its epoch, which every write advances.
pub struct Table<T> {
    slots: RwLock<T>,
    epoch: AtomicU64,
}

impl<T> Table<T> {
    pub const fn new(slots: T) -> Self {
        Table {
            slots: RwLock::new(slots),
            epoch: AtomicU64::new(0),
        }
    }

    pub fn read(&self) -> RwLockReadGuard<'_, T> {
        self.slots.read()
    }

    /// Write access: every cached look-up is invalidated.
    pub fn write(&self) -> RwLockWriteGuard<'_, T> {
        let t = self.slots.write();
        self.epoch.fetch_add(1, Ordering::AcqRel);
        t
    }
}

/// Entries per thread and table.
pub(crate) const WAYS: usize = 4;

/// One cached object: its handle, the table's epoch then, and how many `Lent` lend it.
pub struct Way<T> {
    handle: Cell<i32>,
    epoch: Cell<u64>,
    lent: Cell<u32>,
    obj: UnsafeCell<Option<Arc<T>>>,
}

impl<T> Way<T> {
    const fn empty() -> Self {
        Way {
            handle: Cell::new(0),
            epoch: Cell::new(0),
            lent: Cell::new(0),
            obj: UnsafeCell::new(None),
        }
    }
}

/// A thread's cache for one table (kept in a `thread_local!`).
pub struct Ways<T>([Way<T>; WAYS]);

impl<T> Ways<T> {
    pub const fn new() -> Self {
        Ways([const { Way::empty() }; WAYS])
    }
}

impl<T> Default for Ways<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// This thread's cache in `key`.
pub fn local<T>(key: &'static LocalKey<Ways<T>>) -> &'static Ways<T> {
    // SAFETY: a thread's locals live until the thread exits; the reference is used only
    // by `lookup` and the `Lent` it makes, which is not `Send` (it holds a reference to a
    // `Cell`) and is dropped within the MPI call that made it, on this thread.
    key.with(|w| unsafe { &*(w as *const Ways<T>) })
}

/// An object lent by this thread's cache; its entry stays as it is until this is dropped.
pub struct Lent<T: 'static>(&'static Way<T>);

impl<T> Deref for Lent<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        // SAFETY: a lent entry holds an object (checked when lent) and is not replaced
        // while lent (`lookup` takes only entries with `lent == 0`); read on this thread.
        unsafe { (*self.0.obj.get()).as_deref().unwrap_unchecked() }
    }
}

impl<T> Clone for Lent<T> {
    fn clone(&self) -> Self {
        self.0.lent.set(self.0.lent.get() + 1);
        Lent(self.0)
    }
}

impl<T> Drop for Lent<T> {
    #[inline]
    fn drop(&mut self) {
        self.0.lent.set(self.0.lent.get() - 1);
    }
}

impl<T> Lent<T> {
    /// The object itself, to keep beyond the call (or send to another thread).
    pub fn to_shared(&self) -> Arc<T> {
        // SAFETY: as for `deref`.
        unsafe { (*self.0.obj.get()).clone().unwrap_unchecked() }
    }
}

/// What a look-up found: lent from the cache, or taken from the table.
pub enum Found<T: 'static> {
    Lent(Lent<T>),
    Shared(Arc<T>),
}

/// Handle `h`: lent from `ways` when cached under `table`'s current epoch, else `load`ed
/// from `table` (None: no such object) and cached for the next call.
#[inline]
pub fn lookup<T, S>(
    ways: &'static Ways<T>,
    h: i32,
    table: &Table<S>,
    load: impl FnOnce(&S) -> Option<Arc<T>>,
) -> Option<Found<T>> {
    // Read before the table: a change after this makes the entry stale.
    let now = table.epoch.load(Ordering::Acquire);
    let hit = ways.0.iter().find(|w| {
        // SAFETY: read on this thread only.
        w.handle.get() == h && w.epoch.get() == now && unsafe { (*w.obj.get()).is_some() }
    });
    if let Some(w) = hit {
        w.lent.set(w.lent.get() + 1);
        return Some(Found::Lent(Lent(w)));
    }
    let obj = load(&table.read())?;
    // An entry nothing lends: a stale or empty one first, else the first.
    let free = |w: &&Way<T>| w.lent.get() == 0;
    if let Some(w) = ways
        .0
        .iter()
        .filter(free)
        .find(|w| w.epoch.get() != now)
        .or_else(|| ways.0.iter().find(free))
    {
        // SAFETY: nothing lends it (checked), so no reference into it is alive; this
        // thread is the only one that reaches it.
        unsafe { *w.obj.get() = Some(obj.clone()) };
        w.handle.set(h);
        w.epoch.set(now);
    }
    Some(Found::Shared(obj))
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static CACHE: Ways<String> = const { Ways::new() };
    }

    type Objects = Vec<Option<Arc<String>>>;

    fn get(table: &Table<Objects>, h: i32) -> Option<Found<String>> {
        lookup(local(&CACHE), h, table, |t| {
            t.get(h as usize).cloned().flatten()
        })
    }

    fn text(f: &Found<String>) -> &str {
        match f {
            Found::Lent(l) => l,
            Found::Shared(s) => s,
        }
    }

    #[test]
    fn hits_lend_until_the_epoch_moves_and_lent_entries_stay() {
        let table = Table::new((0..8).map(|i| Some(Arc::new(format!("obj{i}")))).collect());
        // First look-up loads, the second is lent from the cache.
        assert!(matches!(get(&table, 1), Some(Found::Shared(_))));
        let lent = get(&table, 1).unwrap();
        assert!(matches!(lent, Found::Lent(_)));
        assert_eq!(text(&lent), "obj1");
        // The table changes: nothing is lent under the old epoch, a freed handle is gone.
        table.write()[1] = None;
        assert!(get(&table, 1).is_none());
        // A new object under the same handle is the new one.
        table.write()[1] = Some(Arc::new("new1".into()));
        assert_eq!(text(&get(&table, 1).unwrap()), "new1");
        // The entry lent before still reads what it lent (it is not replaced while lent),
        // though more handles than ways were looked up meanwhile.
        for h in 2..8 {
            get(&table, h);
        }
        assert_eq!(text(&lent), "obj1");
        drop(lent);
        for h in 2..8 {
            get(&table, h);
            assert!(matches!(get(&table, h), Some(Found::Lent(_))));
        }
    }
}
