//! Reduction operations: user operations (MPI_Op_create / MPI_Op_free /
//! MPI_Op_commutative) and binding an operation handle to a datatype as the `Reducer`
//! the collectives run.

use super::callbacks::{App, Convention};
use super::consts::*;
use super::shim::write_out;
use crate::coll::Reducer;
use crate::datatype::Datatype;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::op as ops;
use parking_lot::RwLock;
use std::os::raw::{c_int, c_void};
use std::sync::Arc;

/// The C user function: `(invec, inoutvec, len, datatype)`, its length an int
/// (MPI_Op_create) or an MPI_Count (MPI_Op_create_c).
#[derive(Clone, Copy)]
pub enum UserFn {
    Int(unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut MPI_Datatype)),
    Large(unsafe extern "C" fn(*mut c_void, *mut c_void, *mut MPI_Count, *mut MPI_Datatype)),
}

impl UserFn {
    pub fn int(f: MPI_User_function) -> Option<UserFn> {
        f.map(UserFn::Int)
    }

    pub fn large(f: MPI_User_function_c) -> Option<UserFn> {
        f.map(UserFn::Large)
    }

    /// Calls the function on `k` elements.
    ///
    /// # Safety
    /// `a` and `b` hold `k` elements of the type `dt` in its layout (MPI's contract for
    /// user functions: `a` is not written).
    unsafe fn call(self, a: *mut u8, b: *mut u8, k: usize, dt: MPI_Datatype) -> Result<()> {
        let (a, b) = (a as *mut c_void, b as *mut c_void);
        match self {
            UserFn::Int(f) => {
                let len = c_int::try_from(k).map_err(|_| {
                    Error::new(
                        ErrorClass::Count,
                        "too many elements for a user op (MPI_Op_create_c's take more)",
                    )
                })?;
                App::user_op(f as usize, false, a, b, len as i64, dt)
            }
            UserFn::Large(f) => App::user_op(f as usize, true, a, b, k as i64, dt),
        }
        Ok(())
    }
}

#[derive(Clone, Copy)]
struct UserOp {
    f: UserFn,
    commute: bool,
}

/// Created operations; handle = DIRECT | op kind | index (MPICH's encoding).
struct OpTable {
    slots: Vec<Option<UserOp>>,
    free: Vec<usize>,
}

static OPS: RwLock<OpTable> = RwLock::new(OpTable {
    slots: Vec::new(),
    free: Vec::new(),
});

const OP_DIRECT: u32 = 0x9800_0000;
const OP_BUILTIN: u32 = 0x5800_0000;
const KIND_MASK: u32 = 0xfc00_0000;
const INDEX_MASK: u32 = 0x03ff_ffff;

fn user_op(op: MPI_Op) -> Option<UserOp> {
    let u = op as u32;
    if u & KIND_MASK != OP_DIRECT {
        return None;
    }
    OPS.read()
        .slots
        .get((u & INDEX_MASK) as usize)
        .copied()
        .flatten()
}

fn is_predefined(op: MPI_Op) -> bool {
    let u = op as u32;
    u & KIND_MASK == OP_BUILTIN && (1..=0xe).contains(&(u & INDEX_MASK))
}

/// The predefined operation behind a handle (MPI_ERR_OP for anything else).
pub fn predefined_op(op: MPI_Op) -> Result<ops::Op> {
    use ops::Op::*;
    Ok(match op {
        MPI_MAX => Max,
        MPI_MIN => Min,
        MPI_SUM => Sum,
        MPI_PROD => Prod,
        MPI_LAND => Land,
        MPI_BAND => Band,
        MPI_LOR => Lor,
        MPI_BOR => Bor,
        MPI_LXOR => Lxor,
        MPI_BXOR => Bxor,
        MPI_MINLOC => Minloc,
        MPI_MAXLOC => Maxloc,
        MPI_REPLACE => Replace,
        MPI_NO_OP => NoOp,
        MPI_OP_NULL => return mpi_err!(Op, "MPI_OP_NULL is not an operation"),
        _ => return mpi_err!(Op, "invalid operation {op:#x}"),
    })
}

/// Bind `op` to the datatype (`handle`, `ty`) for a reduction collective or
/// MPI_Reduce_local: MPI_ERR_OP for an invalid handle, MPI_REPLACE / MPI_NO_OP (one-sided
/// only) and a predefined operation on a type it is not defined for.
pub fn reducer(op: MPI_Op, handle: MPI_Datatype, ty: &Datatype) -> Result<Reducer> {
    if let Some(u) = user_op(op) {
        return Ok(user_reducer(u, handle, ty));
    }
    let o = predefined_op(op)?;
    if matches!(o, ops::Op::Replace | ops::Op::NoOp) {
        return mpi_err!(
            Op,
            "MPI_REPLACE and MPI_NO_OP are only for one-sided accumulate operations"
        );
    }
    let Some((basic, _)) = ty.basic else {
        return mpi_err!(
            Op,
            "predefined operation {o:?} on datatype {} that is not made of one basic type",
            if ty.name.is_empty() {
                "(derived)"
            } else {
                &ty.name
            }
        );
    };
    ops::check(o, basic).map_err(|_| {
        Error::new(
            ErrorClass::Op,
            format!(
                "{o:?} is not defined on {}",
                if ty.name.is_empty() {
                    "this datatype"
                } else {
                    &ty.name
                }
            ),
        )
    })?;
    Ok(Reducer {
        combine: Arc::new(move |input: &[u8], inout: &mut [u8]| {
            ops::apply_packed(o, basic, input, inout)
                .map_err(|_| Error::new(ErrorClass::Op, "operation not defined on type"))
        }),
        commutative: true,
        elem: ty.size,
    })
}

/// A user function on packed data: called directly when the type is contiguous, else on
/// temporaries in the type's own layout (what the function expects to index).
fn user_reducer(u: UserOp, handle: MPI_Datatype, ty: &Datatype) -> Reducer {
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
                // SAFETY: the function reads `k` elements at invec and updates as many
                // at inoutvec, both live slices of that size (MPI's contract for user
                // functions: invec is not written).
                let (a, b) = (input.as_ptr() as *mut u8, inout.as_mut_ptr());
                return unsafe { u.f.call(a, b, k, handle) };
            }
            let mut a = Laid::new(&layout, k);
            let mut b = Laid::new(&layout, k);
            // SAFETY: `Laid` buffers span k elements of the type's layout.
            unsafe {
                layout.unpack(k, input, a.base());
                layout.unpack(k, inout, b.base());
                u.f.call(a.base(), b.base(), k, handle)?;
                let mut out = Vec::with_capacity(inout.len());
                layout.pack(k, b.base(), &mut out);
                inout.copy_from_slice(&out[..inout.len()]);
            }
            Ok(())
        }),
        commutative: u.commute,
        elem: ty.size,
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

/// MPI_Op_create and MPI_Op_create_c (`user_fn` from `UserFn::int` or `::large`).
pub(crate) unsafe fn create(
    user_fn: Option<UserFn>,
    commute: c_int,
    op: *mut MPI_Op,
) -> Result<()> {
    {
        let Some(f) = user_fn else {
            return mpi_err!(Arg, "NULL user function");
        };
        if op.is_null() {
            return mpi_err!(Arg, "NULL op argument");
        }
        let u = UserOp {
            f,
            commute: commute != 0,
        };
        let mut t = OPS.write();
        let i = match t.free.pop() {
            Some(i) => {
                t.slots[i] = Some(u);
                i
            }
            None => {
                t.slots.push(Some(u));
                t.slots.len() - 1
            }
        };
        if i as u32 > INDEX_MASK {
            return mpi_err!(Other, "too many user operations");
        }
        write_out(op, (OP_DIRECT | i as u32) as MPI_Op)
    }
}

pub(crate) unsafe fn free(op: *mut MPI_Op) -> Result<()> {
    if op.is_null() {
        return mpi_err!(Arg, "NULL op argument");
    }
    let h = *op;
    if is_predefined(h) {
        return mpi_err!(Op, "cannot free a predefined operation");
    }
    let u = h as u32;
    let mut t = OPS.write();
    let i = (u & INDEX_MASK) as usize;
    if u & KIND_MASK != OP_DIRECT || t.slots.get(i).is_none_or(|s| s.is_none()) {
        return mpi_err!(Op, "invalid operation {h:#x}");
    }
    // Collectives in flight keep their own copy of the function: freeing is safe.
    t.slots[i] = None;
    t.free.push(i);
    drop(t);
    *op = MPI_OP_NULL;
    Ok(())
}

pub(crate) unsafe fn commutative(op: MPI_Op, commute: *mut c_int) -> Result<()> {
    let c = if is_predefined(op) {
        true
    } else if let Some(u) = user_op(op) {
        u.commute
    } else {
        return mpi_err!(Op, "invalid operation {op:#x}");
    };
    write_out(commute, c as c_int)
}
