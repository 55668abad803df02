//! op: MPI's predefined reduction operations, a leaf that the collectives (`coll`) and
//! one-sided accumulates (`rma`) both use: the operations themselves (here), their kernels
//! over basic types (`apply.rs`), and long double arithmetic in x87 extended precision
//! (`x87.rs`).

mod apply;
pub mod x87;

pub use apply::{apply, apply_packed, check, packed_size};

/// A predefined operation (MPI_MAX … MPI_MINLOC, and the accumulate-only MPI_REPLACE and
/// MPI_NO_OP).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Max,
    Min,
    Sum,
    Prod,
    Land,
    Band,
    Lor,
    Bor,
    Lxor,
    Bxor,
    Maxloc,
    Minloc,
    Replace,
    NoOp,
}

/// The op is not defined on the type (MPI_ERR_OP).
#[derive(Debug, PartialEq, Eq)]
pub struct OpTypeMismatch;
