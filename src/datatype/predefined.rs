//! Choices among the predefined types, which this layer names by their MPI names (the
//! layer above has the handles): MPI_Type_match_size, MPI_Type_get_value_index and the
//! kinds of MPI_Type_create_f90_integer/real/complex.

use super::contents::Combiner;
use crate::error::Result;
use crate::mpi_err;

/// A type class of MPI_Type_match_size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    Real,
    Integer,
    Complex,
}

/// MPI_Type_match_size: the first predefined type of `class` whose size (`size_of` gives
/// a predefined type's by name) is `size`; MPICH's candidates, in its order (Fortran types
/// first).
pub fn match_size(
    class: TypeClass,
    size: i64,
    size_of: impl Fn(&str) -> Option<usize>,
) -> Option<&'static str> {
    const REAL: &[&str] = &[
        "MPI_REAL4",
        "MPI_REAL8",
        "MPI_REAL16",
        "MPI_REAL",
        "MPI_DOUBLE_PRECISION",
        "MPI_FLOAT",
        "MPI_DOUBLE",
        "MPI_LONG_DOUBLE",
    ];
    const INTEGER: &[&str] = &[
        "MPI_INTEGER1",
        "MPI_INTEGER2",
        "MPI_INTEGER4",
        "MPI_INTEGER8",
        "MPI_INTEGER16",
        "MPI_INTEGER",
        "MPI_CHAR",
        "MPI_SHORT",
        "MPI_INT",
        "MPI_LONG",
        "MPI_LONG_LONG_INT",
    ];
    const COMPLEX: &[&str] = &[
        "MPI_COMPLEX8",
        "MPI_COMPLEX16",
        "MPI_COMPLEX32",
        "MPI_COMPLEX",
        "MPI_DOUBLE_COMPLEX",
        "MPI_C_COMPLEX",
        "MPI_C_DOUBLE_COMPLEX",
        "MPI_C_LONG_DOUBLE_COMPLEX",
    ];
    let candidates = match class {
        TypeClass::Real => REAL,
        TypeClass::Integer => INTEGER,
        TypeClass::Complex => COMPLEX,
    };
    candidates
        .iter()
        .copied()
        .find(|&t| size >= 0 && size_of(t) == Some(size as usize))
}

/// MPI_Type_get_value_index (MPI-4.1): the predefined pair type of MPI_MINLOC/MAXLOC for a
/// value type and an index type (predefined, by name), None when there is none.
pub fn value_index(value: &str, index: &str) -> Option<&'static str> {
    const PAIRS: &[(&str, &str, &str)] = &[
        ("MPI_FLOAT", "MPI_INT", "MPI_FLOAT_INT"),
        ("MPI_DOUBLE", "MPI_INT", "MPI_DOUBLE_INT"),
        ("MPI_LONG", "MPI_INT", "MPI_LONG_INT"),
        ("MPI_INT", "MPI_INT", "MPI_2INT"),
        ("MPI_SHORT", "MPI_INT", "MPI_SHORT_INT"),
        ("MPI_LONG_DOUBLE", "MPI_INT", "MPI_LONG_DOUBLE_INT"),
        ("MPI_REAL", "MPI_REAL", "MPI_2REAL"),
        (
            "MPI_DOUBLE_PRECISION",
            "MPI_DOUBLE_PRECISION",
            "MPI_2DOUBLE_PRECISION",
        ),
        ("MPI_INTEGER", "MPI_INTEGER", "MPI_2INTEGER"),
    ];
    PAIRS
        .iter()
        .find(|&&(v, i, _)| v == value && i == index)
        .map(|&(_, _, p)| p)
}

/// Fortran kinds on x86-64 as (precision, range, type), smallest first: gfortran's
/// SELECTED_INT_KIND / SELECTED_REAL_KIND.
const F90_INTEGERS: [(i32, i32, &str); 5] = [
    (0, 2, "MPI_INTEGER1"),
    (0, 4, "MPI_INTEGER2"),
    (0, 9, "MPI_INTEGER4"),
    (0, 18, "MPI_INTEGER8"),
    (0, 38, "MPI_INTEGER16"),
];
const F90_REALS: [(i32, i32, &str); 3] = [
    (6, 37, "MPI_REAL4"),
    (15, 307, "MPI_REAL8"),
    (18, 4931, "MPI_REAL16"),
];
const F90_COMPLEXES: [(i32, i32, &str); 3] = [
    (6, 37, "MPI_COMPLEX8"),
    (15, 307, "MPI_COMPLEX16"),
    (18, 4931, "MPI_COMPLEX32"),
];

/// MPI_Type_create_f90_integer/real/complex (`combiner` says which): the predefined type
/// of the smallest Fortran kind that meets precision `p` and range `r`; None
/// (MPI_UNDEFINED) leaves a bound open, and an integer kind has a range only.
pub fn f90_kind(combiner: Combiner, p: Option<i32>, r: Option<i32>) -> Result<&'static str> {
    let show = |v: Option<i32>| v.map_or("MPI_UNDEFINED".to_string(), |v| v.to_string());
    let kinds: &[(i32, i32, &str)] = match combiner {
        Combiner::F90Integer if r.is_none() => {
            return mpi_err!(Arg, "no Fortran integer kind has range MPI_UNDEFINED");
        }
        Combiner::F90Integer => &F90_INTEGERS,
        Combiner::F90Real => &F90_REALS,
        Combiner::F90Complex => &F90_COMPLEXES,
        c => return mpi_err!(Intern, "{c:?} is no Fortran kind"),
    };
    if p.is_none() && r.is_none() {
        return mpi_err!(Arg, "both precision and range are MPI_UNDEFINED");
    }
    if p.is_some_and(|p| p < 0) || r.is_some_and(|r| r < 0) {
        return mpi_err!(Arg, "negative precision {} or range {}", show(p), show(r));
    }
    kinds
        .iter()
        .find(|&&(kp, kr, _)| p.is_none_or(|p| p <= kp) && r.is_none_or(|r| r <= kr))
        .map(|k| k.2)
        .ok_or_else(|| {
            crate::error::Error::new(
                crate::error::ErrorClass::Arg,
                format!(
                    "no Fortran kind has precision {} and range {}",
                    show(p),
                    show(r)
                ),
            )
        })
}
