//! Binding a reduction operation to a datatype (`Reducer`): MPI's rules for the predefined
//! operations (which types each is defined on, the accumulate-only MPI_REPLACE and
//! MPI_NO_OP refused), and a user function run on the type's own layout. The C surface
//! only finds the operation behind a handle and calls the application's function.

use super::plan::CombineFn;
use super::Reducer;
use crate::datatype::{Basic, Datatype};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::op::{self as ops, Op};
use std::sync::{Arc, OnceLock};

/// An application's reduction function (MPI_Op_create), as the binding calls it.
pub trait UserFunction: Send + Sync + 'static {
    /// Combines `k` elements at `a` into `k` at `b` (`b = a op b`).
    ///
    /// # Safety
    /// `a` and `b` hold `k` elements of the bound type in its own layout; `a` is not
    /// written (MPI's contract for user functions).
    unsafe fn call(&self, a: *mut u8, b: *mut u8, k: usize) -> Result<()>;
}

/// The type's name in messages (derived types have none).
fn named<'t>(ty: &'t Datatype, derived: &'t str) -> &'t str {
    if ty.name.is_empty() {
        derived
    } else {
        &ty.name
    }
}

/// Slots for the combining functions of the predefined operations, by operation and basic
/// type: made once and shared, so a small MPI_Allreduce allocates nothing for its op.
const OPS: usize = 16;
const BASICS: usize = 64;
static PREDEFINED: [[OnceLock<Arc<CombineFn>>; BASICS]; OPS] =
    [const { [const { OnceLock::new() }; BASICS] }; OPS];

fn predefined_combine(o: Op, basic: Basic) -> Arc<CombineFn> {
    match PREDEFINED
        .get(o as usize)
        .and_then(|row| row.get(basic as usize))
    {
        Some(slot) => slot.get_or_init(|| make_combine(o, basic)).clone(),
        None => make_combine(o, basic),
    }
}

fn make_combine(o: Op, basic: Basic) -> Arc<CombineFn> {
    Arc::new(move |input: &[u8], inout: &mut [u8]| {
        ops::apply_packed(o, basic, input, inout)
            .map_err(|_| Error::new(ErrorClass::Op, "operation not defined on type"))
    })
}

/// Predefined operation `o`'s shared combining function on basic type `basic`, None where
/// `o` is not defined on it or is accumulate-only (then `Reducer::predefined` says why). For
/// a small blocking reduction that borrows it rather than binding a `Reducer`.
pub fn predefined_fn(o: Op, basic: Basic) -> Option<&'static CombineFn> {
    if matches!(o, Op::Replace | Op::NoOp) || ops::check(o, basic).is_err() {
        return None;
    }
    let slot = PREDEFINED.get(o as usize)?.get(basic as usize)?;
    Some(&**slot.get_or_init(|| make_combine(o, basic)))
}

impl Reducer {
    /// Predefined operation `o` on `ty` for a reduction collective or MPI_Reduce_local:
    /// MPI_ERR_OP for MPI_REPLACE / MPI_NO_OP (one-sided only) and for a type `o` is not
    /// defined on (or not made of one basic type).
    pub fn predefined(o: Op, ty: &Datatype) -> Result<Reducer> {
        if matches!(o, Op::Replace | Op::NoOp) {
            return mpi_err!(
                Op,
                "MPI_REPLACE and MPI_NO_OP are only for one-sided accumulate operations"
            );
        }
        let Some((basic, _)) = ty.basic else {
            return mpi_err!(
                Op,
                "predefined operation {o:?} on datatype {} that is not made of one basic type",
                named(ty, "(derived)")
            );
        };
        ops::check(o, basic).map_err(|_| {
            let on = named(ty, "this datatype");
            Error::new(ErrorClass::Op, format!("{o:?} is not defined on {on}"))
        })?;
        Ok(Reducer {
            combine: predefined_combine(o, basic),
            commutative: true,
            elem: ty.size,
        })
    }

    /// User function `f` on `ty`: reductions hand it packed data, so it is called on that
    /// directly when the type is contiguous, else on temporaries in the type's own layout
    /// (what the function expects to index).
    pub fn user(f: impl UserFunction, commutative: bool, ty: &Datatype) -> Reducer {
        let size = ty.size.max(1);
        let contiguous = ty.is_contiguous();
        let layout = Arc::new(ty.clone());
        Reducer {
            combine: Arc::new(move |input: &[u8], inout: &mut [u8]| {
                let k = inout.len() / size;
                if k == 0 {
                    return Ok(());
                }
                if contiguous {
                    // SAFETY: `k` elements at invec and as many at inoutvec, both live
                    // slices of that size; the function does not write invec.
                    let (a, b) = (input.as_ptr() as *mut u8, inout.as_mut_ptr());
                    return unsafe { f.call(a, b, k) };
                }
                let mut a = Laid::new(&layout, k);
                let mut b = Laid::new(&layout, k);
                // SAFETY: `Laid` buffers span k elements of the type's layout; `input` and
                // `inout` hold k packed elements.
                unsafe {
                    layout.unpack(k, input, a.base());
                    layout.unpack(k, inout, b.base());
                    f.call(a.base(), b.base(), k)?;
                    let mut out = Vec::with_capacity(inout.len());
                    layout.pack(k, b.base(), &mut out);
                    inout.copy_from_slice(&out[..inout.len()]);
                }
                Ok(())
            }),
            commutative,
            elem: ty.size,
        }
    }
}

/// Memory for `k` elements of a non-contiguous type in its own layout, 16-byte aligned.
struct Laid {
    mem: Vec<u128>,
    shift: isize,
}

impl Laid {
    fn new(t: &Datatype, k: usize) -> Self {
        // Span of k elements: from the first element's true lower bound to the last
        // element's true upper bound (extents may be negative).
        let last = (k as isize - 1) * t.extent;
        let lo = t.true_lb.min(t.true_lb + last);
        let hi = (t.true_lb + t.true_extent).max(t.true_lb + t.true_extent + last);
        let bytes = (hi - lo).max(0) as usize;
        Laid {
            mem: vec![0u128; bytes.div_ceil(16).max(1)],
            shift: -lo,
        }
    }

    /// The address element 0 starts at (may lie outside `mem` when the lower bound is
    /// not 0; the type map only touches bytes inside).
    fn base(&mut self) -> *mut u8 {
        (self.mem.as_mut_ptr() as *mut u8).wrapping_offset(self.shift)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datatype::Basic;

    fn int() -> Datatype {
        Datatype::predefined("MPI_INT", 4, Some(Basic::I32))
    }

    fn ints(v: &[i32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_ne_bytes()).collect()
    }

    #[test]
    fn predefined_ops_check_their_types() {
        let r = Reducer::predefined(Op::Sum, &int()).unwrap();
        let mut b = ints(&[1, 2]);
        (r.combine)(&ints(&[10, 20]), &mut b).unwrap();
        assert_eq!(b, ints(&[11, 22]));
        assert!(r.commutative && r.elem == 4);
        for o in [Op::Replace, Op::NoOp] {
            let e = Reducer::predefined(o, &int()).err().unwrap();
            assert_eq!(e.class, ErrorClass::Op);
        }
        let f = Datatype::predefined("MPI_FLOAT", 4, Some(Basic::F32));
        let e = Reducer::predefined(Op::Band, &f).err().unwrap();
        assert_eq!(
            (e.class, e.to_string().contains("MPI_FLOAT")),
            (ErrorClass::Op, true)
        );
        let bytes = Datatype::predefined("MPI_BYTE", 1, None);
        assert!(Reducer::predefined(Op::Max, &bytes).is_err());
    }

    /// b = a + b on ints in the layout the function sees.
    struct AddInts;
    impl UserFunction for AddInts {
        unsafe fn call(&self, a: *mut u8, b: *mut u8, k: usize) -> Result<()> {
            for i in 0..k {
                let (a, b) = (a.cast::<i32>().add(2 * i), b.cast::<i32>().add(2 * i));
                b.write_unaligned(a.read_unaligned() + b.read_unaligned());
            }
            Ok(())
        }
    }

    #[test]
    fn user_functions_see_the_types_layout() {
        // One int every 8 bytes: packed data is laid out for the function and back.
        let ty = Datatype::resized(&int(), 0, 8).unwrap();
        let r = Reducer::user(AddInts, false, &ty);
        let mut b = ints(&[1, 2, 3]);
        (r.combine)(&ints(&[10, 20, 30]), &mut b).unwrap();
        assert_eq!(b, ints(&[11, 22, 33]));
        assert!(!r.commutative);
        (r.combine)(&[], &mut []).unwrap();
    }
}
