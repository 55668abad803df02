//! What MPI_Type_get_envelope / MPI_Type_get_contents report of a derived type: how it was
//! made (its combiner) and the constructor's arguments, kept per handle (`Registry`), with
//! a reference count per handle, as MPICH keeps them: a derived type holds a reference on
//! the derived types it was built from, and get_contents hands out the same handles with
//! one more reference each, so the user may (and should) free them. A handle leaves the
//! registry (and the handle table, through the caller's `free`) when its count drops to
//! zero. `H` is the handle of the layer above; this layer knows only that handles compare.

use crate::error::Result;
use crate::mpi_err;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::fmt::LowerHex;
use std::hash::Hash;

/// The constructor a datatype was made with (MPI's combiners).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Combiner {
    Named,
    Dup,
    Contiguous,
    Vector,
    Hvector,
    Indexed,
    Hindexed,
    IndexedBlock,
    HindexedBlock,
    Struct,
    Subarray,
    Darray,
    F90Real,
    F90Complex,
    F90Integer,
    Resized,
}

impl Combiner {
    /// A type of MPI_Type_create_f90_* (predefined: MPI_Type_free refuses it).
    pub fn is_f90(self) -> bool {
        matches!(
            self,
            Combiner::F90Real | Combiner::F90Complex | Combiner::F90Integer
        )
    }
}

/// The arguments a derived type was made from (MPI_Type_get_contents). A type made by a
/// large-count constructor (`MPI_Type_vector_c` ...) keeps its integer and address
/// arguments as large counts instead (MPI-4.0 §5.1.13; ndims and order stay integers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contents<H> {
    pub combiner: Combiner,
    pub ints: Vec<i32>,
    pub addrs: Vec<i64>,
    pub counts: Vec<i64>,
    pub types: Vec<H>,
}

impl<H> Contents<H> {
    /// A constructor's record: its integer and address arguments as given, or all as large
    /// counts for its `_c` form (`large`).
    pub fn new(
        combiner: Combiner,
        ints: &[i64],
        addrs: &[i64],
        large: bool,
        types: Vec<H>,
    ) -> Self {
        let (ints, addrs, counts) = if large {
            (vec![], vec![], ints.iter().chain(addrs).copied().collect())
        } else {
            // An int form's integers came from ints: the narrowing is exact.
            (
                ints.iter().map(|&v| v as i32).collect(),
                addrs.to_vec(),
                vec![],
            )
        };
        Self {
            combiner,
            ints,
            addrs,
            counts,
            types,
        }
    }

    /// MPI_Type_create_subarray's record: ndims, sizes, subsizes, starts, order (`order` as
    /// the caller gave it); in the `_c` form the arrays are large counts, ndims and order
    /// stay integers.
    pub fn subarray(
        sizes: &[i64],
        subsizes: &[i64],
        starts: &[i64],
        order: i32,
        large: bool,
        old: H,
    ) -> Self {
        let arrays: Vec<i64> = sizes
            .iter()
            .chain(subsizes)
            .chain(starts)
            .copied()
            .collect();
        let ndims = sizes.len() as i32;
        if large {
            return Self {
                combiner: Combiner::Subarray,
                ints: vec![ndims, order],
                addrs: vec![],
                counts: arrays,
                types: vec![old],
            };
        }
        let ints: Vec<i64> = std::iter::once(ndims as i64)
            .chain(arrays)
            .chain([order as i64])
            .collect();
        Self::new(Combiner::Subarray, &ints, &[], false, vec![old])
    }

    /// MPI_Type_create_darray's record: size, rank, ndims, gsizes, distribs, dargs,
    /// psizes, order (the integers as the caller gave them); in the `_c` form the global
    /// sizes are large counts, the rest stays integers.
    #[allow(clippy::too_many_arguments)]
    pub fn darray(
        size: i32,
        rank: i32,
        gsizes: &[i64],
        distribs: &[i32],
        dargs: &[i32],
        psizes: &[i32],
        order: i32,
        large: bool,
        old: H,
    ) -> Self {
        let mut ints = vec![size, rank, gsizes.len() as i32];
        let counts = if large {
            gsizes.to_vec()
        } else {
            ints.extend(gsizes.iter().map(|&g| g as i32));
            vec![]
        };
        ints.extend(distribs.iter().chain(dargs).chain(psizes));
        ints.push(order);
        Self {
            combiner: Combiner::Darray,
            ints,
            addrs: vec![],
            counts,
            types: vec![old],
        }
    }

    /// MPI_Type_dup's record: the old type alone.
    pub fn dup(old: H) -> Self {
        Self::new(Combiner::Dup, &[], &[], false, vec![old])
    }

    /// MPI_Type_create_f90_*'s record: the range of an integer kind, else precision and
    /// range (as the caller gave them).
    pub fn f90(combiner: Combiner, p: i32, r: i32) -> Self {
        let ints = if combiner == Combiner::F90Integer {
            vec![r]
        } else {
            vec![p, r]
        };
        Self {
            combiner,
            ints,
            addrs: vec![],
            counts: vec![],
            types: vec![],
        }
    }
}

/// MPI_Type_get_envelope's answer: how many integers, addresses, large counts and datatypes
/// the type's contents hold, and its combiner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    pub ints: usize,
    pub addrs: usize,
    pub counts: usize,
    pub types: usize,
    pub combiner: Combiner,
}

/// The room MPI_Type_get_contents was given in each array; `counts` is None for the int
/// form (which has no large counts).
#[derive(Clone, Copy, Debug)]
pub struct Room {
    pub ints: i64,
    pub addrs: i64,
    pub counts: Option<i64>,
    pub types: i64,
}

struct Entry<H> {
    /// References: the user's handle, types built on this one, handles get_contents gave.
    refs: usize,
    contents: Contents<H>,
}

/// The derived types' records and references, and the names given to predefined types.
pub struct Registry<H> {
    entries: Mutex<HashMap<H, Entry<H>>>,
    /// Names given to predefined types with MPI_Type_set_name.
    names: Mutex<HashMap<H, String>>,
    /// The types MPI_Type_create_f90_* returned, by (combiner, p, r) as the caller gave
    /// them. MPI-4.1 §19.1.9: the same (xxxx, p, r) returns the same handle, the type is
    /// predefined (never freed) and MPI_Type_get_envelope / get_contents give
    /// MPI_COMBINER_F90_xxxx and the arguments; so each combination is its own handle, even
    /// where two share a Fortran kind (r = 8 and r = 9 are both INTEGER*4), as in MPICH.
    f90: Mutex<HashMap<(Combiner, i32, i32), H>>,
}

impl<H: Copy + Eq + Hash + LowerHex> Default for Registry<H> {
    fn default() -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
            names: Mutex::new(HashMap::new()),
            f90: Mutex::new(HashMap::new()),
        }
    }
}

impl<H: Copy + Eq + Hash + LowerHex> Registry<H> {
    /// Record a new derived type made from `contents` under the handle `make` gives (its
    /// one reference is the user's); it takes a reference on each derived type it names.
    pub fn create(&self, contents: Contents<H>, make: impl FnOnce() -> H) -> H {
        let mut entries = self.entries.lock();
        for t in &contents.types {
            if let Some(e) = entries.get_mut(t) {
                e.refs += 1;
            }
        }
        let h = make();
        entries.insert(h, Entry { refs: 1, contents });
        h
    }

    /// Keep derived type `h` past its user's free until `release`; false (nothing held)
    /// for a type without a record.
    pub fn hold(&self, h: H) -> bool {
        self.entries
            .lock()
            .get_mut(&h)
            .map(|e| e.refs += 1)
            .is_some()
    }

    /// Drop one reference to `h`; at zero it leaves (`free` drops its handle), and so do
    /// the references it held on the types it was made from. A handle without a record
    /// (made elsewhere) is freed when it is `h` itself.
    pub fn release(&self, h: H, mut free: impl FnMut(H) -> Result<()>) -> Result<()> {
        let mut entries = self.entries.lock();
        let mut stack = vec![h];
        let mut first = true;
        while let Some(h) = stack.pop() {
            match entries.get_mut(&h) {
                Some(e) => {
                    e.refs -= 1;
                    if e.refs == 0 {
                        let e = entries.remove(&h).expect("present");
                        free(h)?;
                        stack.extend(e.contents.types.iter().copied());
                    }
                }
                None if first => free(h)?,
                None => {}
            }
            first = false;
        }
        Ok(())
    }

    /// The combiner of recorded type `h`.
    pub fn combiner(&self, h: H) -> Option<Combiner> {
        self.entries.lock().get(&h).map(|e| e.contents.combiner)
    }

    /// MPI_Type_get_envelope(_c) of `h` (a valid type; MPI_COMBINER_NAMED without a
    /// record). The int form (`large` false) refuses a type a large-count constructor made
    /// (its arguments are large counts, which only the `_c` form reports: MPICH's way).
    pub fn envelope(&self, h: H, large: bool) -> Result<Envelope> {
        let env = match self.entries.lock().get(&h) {
            Some(e) => {
                let c = &e.contents;
                Envelope {
                    ints: c.ints.len(),
                    addrs: c.addrs.len(),
                    counts: c.counts.len(),
                    types: c.types.len(),
                    combiner: c.combiner,
                }
            }
            None => Envelope {
                ints: 0,
                addrs: 0,
                counts: 0,
                types: 0,
                combiner: Combiner::Named,
            },
        };
        if !large && env.counts > 0 {
            return mpi_err!(
                Type,
                "datatype {h:#x} was made by a large-count constructor: use \
                 MPI_Type_get_envelope_c"
            );
        }
        Ok(env)
    }

    /// MPI_Type_get_contents(_c) of derived type `h` into arrays of `room`: `write` puts
    /// the record out; then each derived type it names gets a reference more (the
    /// caller's: they are handed out as the same handles, as MPICH does).
    pub fn contents(
        &self,
        h: H,
        room: Room,
        write: impl FnOnce(&Contents<H>) -> Result<()>,
    ) -> Result<()> {
        let mut entries = self.entries.lock();
        let Some(e) = entries.get(&h) else {
            return mpi_err!(Type, "datatype {h:#x} has no constructor record");
        };
        let c = &e.contents;
        if room.counts.is_none() && !c.counts.is_empty() {
            return mpi_err!(
                Type,
                "datatype {h:#x} was made by a large-count constructor: use \
                 MPI_Type_get_contents_c"
            );
        }
        let short = |max: i64, n: usize| max < n as i64;
        if short(room.ints, c.ints.len())
            || short(room.addrs, c.addrs.len())
            || short(room.counts.unwrap_or(0), c.counts.len())
            || short(room.types, c.types.len())
        {
            // MPICH's class for arrays that are too small.
            return mpi_err!(
                Other,
                "MPI_Type_get_contents needs {} integers, {} addresses, {} large counts, {} \
                 datatypes",
                c.ints.len(),
                c.addrs.len(),
                c.counts.len(),
                c.types.len()
            );
        }
        write(c)?;
        let types = c.types.clone();
        for t in &types {
            if let Some(e) = entries.get_mut(t) {
                e.refs += 1;
            }
        }
        Ok(())
    }

    /// The name MPI_Type_set_name gave predefined type `h`.
    pub fn name(&self, h: H) -> Option<String> {
        self.names.lock().get(&h).cloned()
    }

    /// Name predefined type `h`.
    pub fn set_name(&self, h: H, name: String) {
        self.names.lock().insert(h, name);
    }

    /// The handle of the MPI_Type_create_f90_* type of `(combiner, p, r)`: the one made
    /// before, else the one `make` makes now.
    pub fn f90(&self, key: (Combiner, i32, i32), make: impl FnOnce() -> H) -> H {
        *self.f90.lock().entry(key).or_insert_with(make)
    }

    /// Whether `h` is a type of MPI_Type_create_f90_* (predefined: never freed).
    pub fn is_f90(&self, h: H) -> bool {
        self.combiner(h).is_some_and(Combiner::is_f90)
    }
}

/// An object name as MPI keeps it: at most `max` bytes (MPI_MAX_OBJECT_NAME less the NUL),
/// cut at a character boundary.
pub fn object_name(mut name: String, max: usize) -> String {
    if name.len() > max {
        let mut cut = max;
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        name.truncate(cut);
    }
    name
}
