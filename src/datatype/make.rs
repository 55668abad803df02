//! The datatype constructors as one call each (`Ctor`): their arguments widened, as the C
//! surface reads them for a call and its large-count form alike, with the checks MPI asks
//! of them, the type they make and the record MPI_Type_get_contents reports of it.
//!
//! The C layer resolves the old types' handles between `check` and `build` (the order of
//! the checks, and so of the error classes, is MPICH's: counts, arrays, block lengths, then
//! the old type) and keeps the record under the new type's handle.

use super::contents::{Combiner, Contents};
use super::{Datatype, Distrib, Member, Order};
use crate::error::Result;
use crate::mpi_err;

/// A constructor call: counts (checked non-negative by the caller), block lengths and
/// displacements widened to i64, displacements in bytes for the `H` forms.
#[derive(Clone, Copy, Debug)]
pub enum Ctor<'a> {
    /// MPI_Type_contiguous: count.
    Contiguous(usize),
    /// MPI_Type_vector: count, block length, stride in old extents.
    Vector(usize, usize, i64),
    /// MPI_Type_create_hvector: count, block length, stride in bytes.
    Hvector(usize, usize, i64),
    /// MPI_Type_indexed: block lengths, displacements in old extents.
    Indexed(&'a [i64], &'a [i64]),
    /// MPI_Type_create_hindexed: block lengths, displacements in bytes.
    Hindexed(&'a [i64], &'a [i64]),
    /// MPI_Type_create_indexed_block: block length, displacements in old extents.
    IndexedBlock(usize, &'a [i64]),
    /// MPI_Type_create_hindexed_block: block length, displacements in bytes.
    HindexedBlock(usize, &'a [i64]),
    /// MPI_Type_create_struct: block lengths, displacements in bytes (the member types are
    /// `build`'s).
    Struct(&'a [i64], &'a [i64]),
    /// MPI_Type_create_resized: lower bound, extent.
    Resized(i64, i64),
}

impl Ctor<'_> {
    /// The checks that come before the old type's: a negative block length of an array
    /// is MPI_ERR_COUNT (the scalar counts were checked where they were read).
    pub fn check(&self) -> Result<()> {
        match self {
            Ctor::Indexed(bl, _) | Ctor::Hindexed(bl, _) | Ctor::Struct(bl, _) => {
                match bl.iter().find(|&&v| v < 0) {
                    Some(v) => mpi_err!(Count, "negative blocklength {v}"),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// The new type, from the old type (`members[0]`) or a struct's member types.
    pub fn build(&self, members: &[Member<'_>]) -> Result<Datatype> {
        let bytes = |d: &[i64]| d.iter().map(|&x| x as isize).collect::<Vec<_>>();
        if let Ctor::Struct(bl, d) = *self {
            return Ok(Datatype::structure(bl, &bytes(d), members)?);
        }
        let old = match members.first() {
            Some(Member::Type(t)) => *t,
            _ => return mpi_err!(Type, "a bound marker as old datatype"),
        };
        let t = match *self {
            Ctor::Contiguous(n) => Datatype::contiguous(n as i64, old),
            Ctor::Vector(n, bl, stride) => Datatype::vector(n as i64, bl as i64, stride, old),
            Ctor::Hvector(n, bl, stride) => {
                Datatype::hvector(n as i64, bl as i64, stride as isize, old)
            }
            Ctor::Indexed(bl, d) => Datatype::indexed(bl, d, old),
            Ctor::Hindexed(bl, d) => Datatype::hindexed(bl, &bytes(d), old),
            Ctor::IndexedBlock(bl, d) => Datatype::indexed_block(bl as i64, d, old),
            Ctor::HindexedBlock(bl, d) => Datatype::hindexed_block(bl as i64, &bytes(d), old),
            Ctor::Resized(lb, extent) => Datatype::resized(old, lb as isize, extent as isize),
            Ctor::Struct(..) => unreachable!("built above"),
        };
        Ok(t?)
    }

    /// The record of the call (`Contents::new`): its integer and address arguments in
    /// MPI's order for the combiner, as large counts for a `_c` form (`large`); `types`
    /// the old type's handle or the struct's member handles.
    pub fn contents<H>(&self, large: bool, types: Vec<H>) -> Contents<H> {
        let cat = |head: &[i64], tails: &[&[i64]]| -> Vec<i64> {
            let mut v = head.to_vec();
            for t in tails {
                v.extend_from_slice(t);
            }
            v
        };
        let (combiner, ints, addrs) = match *self {
            Ctor::Contiguous(n) => (Combiner::Contiguous, vec![n as i64], vec![]),
            Ctor::Vector(n, bl, s) => (Combiner::Vector, vec![n as i64, bl as i64, s], vec![]),
            Ctor::Hvector(n, bl, s) => (Combiner::Hvector, vec![n as i64, bl as i64], vec![s]),
            Ctor::Indexed(bl, d) => (Combiner::Indexed, cat(&[bl.len() as i64], &[bl, d]), vec![]),
            Ctor::Hindexed(bl, d) => (
                Combiner::Hindexed,
                cat(&[bl.len() as i64], &[bl]),
                d.to_vec(),
            ),
            Ctor::IndexedBlock(bl, d) => (
                Combiner::IndexedBlock,
                cat(&[d.len() as i64, bl as i64], &[d]),
                vec![],
            ),
            Ctor::HindexedBlock(bl, d) => (
                Combiner::HindexedBlock,
                vec![d.len() as i64, bl as i64],
                d.to_vec(),
            ),
            Ctor::Struct(bl, d) => (Combiner::Struct, cat(&[bl.len() as i64], &[bl]), d.to_vec()),
            Ctor::Resized(lb, extent) => (Combiner::Resized, vec![], vec![lb, extent]),
        };
        Contents::new(combiner, &ints, &addrs, large, types)
    }
}

/// MPI_Type_create_darray's arguments as the caller gave them (the global sizes widened,
/// the distributions, distribution arguments, process counts and order as C integers,
/// which the C layer decodes).
#[derive(Clone, Copy, Debug)]
pub struct Darray<'a> {
    pub size: i32,
    pub rank: i32,
    pub gsizes: &'a [i64],
    pub distribs: &'a [i32],
    pub dargs: &'a [i32],
    pub psizes: &'a [i32],
    pub order: i32,
}

impl Darray<'_> {
    /// The checks that come before the arrays are read: the rank in the process grid
    /// (MPI_ERR_RANK), then ndims positive (MPI_ERR_ARG); ndims as a length.
    pub fn check_rank(size: i32, rank: i32, ndims: i32) -> Result<usize> {
        if rank < 0 || rank >= size {
            return mpi_err!(Rank, "rank {rank} is not in 0..{size}");
        }
        if ndims <= 0 {
            return mpi_err!(Arg, "ndims must be positive, is {ndims}");
        }
        Ok(ndims as usize)
    }

    /// The distributions (`distrib` decodes one, None: MPI_ERR_ARG), checked with the rest
    /// of the arrays (`Datatype::check_darray`).
    pub fn check(&self, distrib: impl Fn(i32) -> Option<Distrib>) -> Result<Vec<Distrib>> {
        let dist = self
            .distribs
            .iter()
            .enumerate()
            .map(|(i, &x)| match distrib(x) {
                Some(d) => Ok(d),
                None => mpi_err!(Arg, "array_of_distribs[{i}] = {x} is invalid"),
            })
            .collect::<Result<Vec<_>>>()?;
        let (a, p) = (wide(self.dargs), wide(self.psizes));
        Datatype::check_darray(self.size as i64, self.gsizes, &dist, &a, &p)?;
        Ok(dist)
    }

    /// The new type (`check`'s distributions, the decoded order).
    pub fn build(&self, dist: &[Distrib], order: Order, old: &Datatype) -> Result<Datatype> {
        let (s, r, a, p) = (
            self.size as i64,
            self.rank as i64,
            wide(self.dargs),
            wide(self.psizes),
        );
        Datatype::darray(s, r, self.gsizes, dist, &a, &p, order, old)
    }

    /// The record of the call (`Contents::darray`).
    pub fn contents<H>(&self, large: bool, old: H) -> Contents<H> {
        let d = self;
        Contents::darray(
            d.size, d.rank, d.gsizes, d.distribs, d.dargs, d.psizes, d.order, large, old,
        )
    }
}

fn wide(v: &[i32]) -> Vec<i64> {
    v.iter().map(|&x| x as i64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::DFLT_DARG;
    use crate::error::ErrorClass;

    fn int() -> Datatype {
        Datatype::predefined("MPI_INT", 4, None)
    }

    #[test]
    fn darray_checks_in_mpich_order() {
        assert_eq!(
            Darray::check_rank(4, 4, 0).unwrap_err().class,
            ErrorClass::Rank
        );
        assert_eq!(
            Darray::check_rank(4, 0, 0).unwrap_err().class,
            ErrorClass::Arg
        );
        assert_eq!(Darray::check_rank(4, 3, 2).unwrap(), 2);
        let d = Darray {
            size: 4,
            rank: 1,
            gsizes: &[4, 6],
            distribs: &[0, 9],
            dargs: &[DFLT_DARG as i32; 2],
            psizes: &[2, 2],
            order: 0,
        };
        let code = |x| (x == 0).then_some(Distrib::Block);
        assert_eq!(d.check(code).unwrap_err().class, ErrorClass::Arg);
        let d = Darray {
            distribs: &[0, 0],
            ..d
        };
        let dist = d.check(code).unwrap();
        let t = d.build(&dist, Order::C, &int()).unwrap();
        assert_eq!(t.size, 2 * 3 * 4);
        let c = d.contents(false, 7u32);
        assert_eq!(c.ints[..5], [4, 1, 2, 4, 6]);
        let d = Darray {
            psizes: &[2, 1],
            ..d
        };
        assert_eq!(d.check(code).unwrap_err().class, ErrorClass::Arg);
    }

    #[test]
    fn negative_blocklength_is_a_count_error() {
        let e = Ctor::Indexed(&[1, -2], &[0, 4]).check().unwrap_err();
        assert_eq!(e.class, ErrorClass::Count);
        assert!(Ctor::Struct(&[1], &[0]).check().is_ok());
        // Scalars were checked when read: nothing left to check.
        assert!(Ctor::Vector(2, 3, -1).check().is_ok());
    }

    #[test]
    fn builds_as_the_type_engine() {
        let old = int();
        let m = [Member::Type(&old)];
        let t = Ctor::Vector(2, 3, 4).build(&m).unwrap();
        let u = Datatype::vector(2, 3, 4, &old).unwrap();
        assert_eq!((t.size, t.extent), (u.size, u.extent));
        let t = Ctor::Hindexed(&[1, 2], &[0, 16]).build(&m).unwrap();
        assert_eq!((t.size, t.extent), (12, 24));
        let e = Ctor::Contiguous(1).build(&[Member::Lb]).unwrap_err();
        assert_eq!(e.class, ErrorClass::Type);
    }

    #[test]
    fn records_the_arguments_in_mpi_order() {
        let c = Ctor::Indexed(&[1, 2], &[5, 6]).contents(false, vec![7u32]);
        assert_eq!(c.combiner, Combiner::Indexed);
        assert_eq!(c.ints, vec![2, 1, 2, 5, 6]);
        assert!(c.addrs.is_empty() && c.counts.is_empty());
        let c = Ctor::HindexedBlock(3, &[8, 16]).contents(false, vec![7u32]);
        assert_eq!((c.ints, c.addrs), (vec![2, 3], vec![8, 16]));
        // The large-count form keeps integers and addresses as large counts.
        let c = Ctor::Hvector(2, 3, 40).contents(true, vec![7u32]);
        assert_eq!(c.counts, vec![2, 3, 40]);
        assert!(c.ints.is_empty() && c.addrs.is_empty());
        let c = Ctor::Resized(-4, 12).contents(false, vec![7u32]);
        assert_eq!((c.combiner, c.addrs), (Combiner::Resized, vec![-4, 12]));
    }
}
