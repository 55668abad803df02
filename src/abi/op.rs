//! Reduction operations: user operations (MPI_Op_create / MPI_Op_free /
//! MPI_Op_commutative) and binding an operation handle to a datatype as the `Reducer`
//! the collectives run.

use super::callbacks::{App, Convention};
use super::consts::*;
use super::shim::write_out;
use crate::coll::{Reducer, UserFunction};
use crate::datatype::Datatype;
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::op as ops;
use crate::runtime::slab::Slab;
use parking_lot::RwLock;
use std::os::raw::{c_int, c_void};

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

/// Created operations; handle = DIRECT | op kind | slot (MPICH's encoding).
static OPS: RwLock<Slab<UserOp>> = RwLock::new(Slab::new(0));

const OP_DIRECT: u32 = 0x9800_0000;
const OP_BUILTIN: u32 = 0x5800_0000;
const KIND_MASK: u32 = 0xfc00_0000;
const INDEX_MASK: u32 = 0x03ff_ffff;

fn user_op(op: MPI_Op) -> Option<UserOp> {
    let u = op as u32;
    if u & KIND_MASK != OP_DIRECT {
        return None;
    }
    OPS.read().get((u & INDEX_MASK) as usize).copied()
}

fn is_predefined(op: MPI_Op) -> bool {
    let u = op as u32;
    u & KIND_MASK == OP_BUILTIN && (1..=0xe).contains(&(u & INDEX_MASK))
}

/// The predefined operations in handle order (MPICH's builtin indices 1 to 0xe).
const PREDEFINED: [ops::Op; 14] = {
    use ops::Op::*;
    [
        Max, Min, Sum, Prod, Land, Band, Lor, Bor, Lxor, Bxor, Minloc, Maxloc, Replace, NoOp,
    ]
};

/// The predefined operation behind a handle (MPI_ERR_OP for anything else).
pub fn predefined_op(op: MPI_Op) -> Result<ops::Op> {
    if op == MPI_OP_NULL {
        return mpi_err!(Op, "MPI_OP_NULL is not an operation");
    }
    match is_predefined(op) {
        true => Ok(PREDEFINED[(op as u32 & INDEX_MASK) as usize - 1]),
        false => mpi_err!(Op, "invalid operation {op:#x}"),
    }
}

/// Bind `op` to the datatype (`handle`, `ty`) for a reduction collective or
/// MPI_Reduce_local (the rules: `Reducer::predefined`, MPI_ERR_OP for an invalid handle).
pub fn reducer(op: MPI_Op, handle: MPI_Datatype, ty: &Datatype) -> Result<Reducer> {
    match user_op(op) {
        Some(u) => Ok(Reducer::user(Bound(u.f, handle), u.commute, ty)),
        None => Reducer::predefined(predefined_op(op)?, ty),
    }
}

/// A user function with the datatype handle it is called with.
struct Bound(UserFn, MPI_Datatype);

impl UserFunction for Bound {
    unsafe fn call(&self, a: *mut u8, b: *mut u8, k: usize) -> Result<()> {
        self.0.call(a, b, k, self.1)
    }
}

/// MPI_Op_create and MPI_Op_create_c (`user_fn` from `UserFn::int` or `::large`).
pub(crate) unsafe fn create(
    user_fn: Option<UserFn>,
    commute: c_int,
    op: *mut MPI_Op,
) -> Result<()> {
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
    let i = OPS.write().insert(u);
    if i as u32 > INDEX_MASK {
        return mpi_err!(Other, "too many user operations");
    }
    write_out(op, (OP_DIRECT | i as u32) as MPI_Op)
}

pub(crate) unsafe fn free(op: *mut MPI_Op) -> Result<()> {
    if op.is_null() {
        return mpi_err!(Arg, "NULL op argument");
    }
    let h = *op;
    if is_predefined(h) {
        return mpi_err!(Op, "cannot free a predefined operation");
    }
    // Collectives in flight keep their own copy of the function: freeing is safe.
    let u = h as u32;
    if u & KIND_MASK != OP_DIRECT || OPS.write().remove((u & INDEX_MASK) as usize).is_none() {
        return mpi_err!(Op, "invalid operation {h:#x}");
    }
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
