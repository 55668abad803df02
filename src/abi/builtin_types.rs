//! The predefined datatypes: MPICH's handle, MPI's name, size and what they hold.

use super::consts::*;
use crate::datatype::{external32, Basic, Datatype, Segments};
use std::sync::OnceLock;

/// MPI_INTEGER16 (Fortran INTEGER*16), which MPICH lacks (its header makes it the null
/// datatype, as ours does): railmpi's own handle, in MPICH's encoding (size 16) at an index
/// MPICH leaves unused, which the standard ABI's MPI_INTEGER16 maps to (src/abi_std) and
/// MPI_Type_match_size / MPI_Type_create_f90_integer return.
pub(crate) const INTEGER16: MPI_Datatype = 0x4c00_10f0_u32 as MPI_Datatype;

/// (handle, name, size in bytes, basic type for reductions)
const BUILTINS: &[(MPI_Datatype, &str, usize, Basic)] = &[
    (MPI_CHAR, "MPI_CHAR", 1, Basic::I8),
    (MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, Basic::I8),
    (MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, Basic::U8),
    (MPI_BYTE, "MPI_BYTE", 1, Basic::Byte),
    (MPI_WCHAR, "MPI_WCHAR", 4, Basic::I32),
    (MPI_SHORT, "MPI_SHORT", 2, Basic::I16),
    (MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", 2, Basic::U16),
    (MPI_INT, "MPI_INT", 4, Basic::I32),
    (MPI_UNSIGNED, "MPI_UNSIGNED", 4, Basic::U32),
    (MPI_LONG, "MPI_LONG", 8, Basic::I64),
    (MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", 8, Basic::U64),
    (MPI_FLOAT, "MPI_FLOAT", 4, Basic::F32),
    (MPI_DOUBLE, "MPI_DOUBLE", 8, Basic::F64),
    (MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", 16, Basic::LongDouble),
    (MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", 8, Basic::I64),
    (
        MPI_UNSIGNED_LONG_LONG,
        "MPI_UNSIGNED_LONG_LONG",
        8,
        Basic::U64,
    ),
    (MPI_PACKED, "MPI_PACKED", 1, Basic::Byte),
    (MPI_2INT, "MPI_2INT", 8, Basic::TwoInt),
    (MPI_COMPLEX, "MPI_COMPLEX", 8, Basic::C32),
    (MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, Basic::C64),
    (MPI_LOGICAL, "MPI_LOGICAL", 4, Basic::I32),
    (MPI_REAL, "MPI_REAL", 4, Basic::F32),
    (MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, Basic::F64),
    (MPI_INTEGER, "MPI_INTEGER", 4, Basic::I32),
    (MPI_2INTEGER, "MPI_2INTEGER", 8, Basic::TwoInt),
    (MPI_2REAL, "MPI_2REAL", 8, Basic::FloatInt),
    (
        MPI_2DOUBLE_PRECISION,
        "MPI_2DOUBLE_PRECISION",
        16,
        Basic::DoubleInt,
    ),
    (MPI_CHARACTER, "MPI_CHARACTER", 1, Basic::Byte),
    (MPI_REAL4, "MPI_REAL4", 4, Basic::F32),
    (MPI_REAL8, "MPI_REAL8", 8, Basic::F64),
    (MPI_REAL16, "MPI_REAL16", 16, Basic::LongDouble),
    (MPI_COMPLEX8, "MPI_COMPLEX8", 8, Basic::C32),
    (MPI_COMPLEX16, "MPI_COMPLEX16", 16, Basic::C64),
    (MPI_COMPLEX32, "MPI_COMPLEX32", 32, Basic::CLongDouble),
    (MPI_INTEGER1, "MPI_INTEGER1", 1, Basic::I8),
    (MPI_INTEGER2, "MPI_INTEGER2", 2, Basic::I16),
    (MPI_INTEGER4, "MPI_INTEGER4", 4, Basic::I32),
    (MPI_INTEGER8, "MPI_INTEGER8", 8, Basic::I64),
    (INTEGER16, "MPI_INTEGER16", 16, Basic::I128),
    (MPI_INT8_T, "MPI_INT8_T", 1, Basic::I8),
    (MPI_INT16_T, "MPI_INT16_T", 2, Basic::I16),
    (MPI_INT32_T, "MPI_INT32_T", 4, Basic::I32),
    (MPI_INT64_T, "MPI_INT64_T", 8, Basic::I64),
    (MPI_UINT8_T, "MPI_UINT8_T", 1, Basic::U8),
    (MPI_UINT16_T, "MPI_UINT16_T", 2, Basic::U16),
    (MPI_UINT32_T, "MPI_UINT32_T", 4, Basic::U32),
    (MPI_UINT64_T, "MPI_UINT64_T", 8, Basic::U64),
    (MPI_C_BOOL, "MPI_C_BOOL", 1, Basic::Bool),
    // MPI_C_COMPLEX and MPI_C_FLOAT_COMPLEX are one handle; MPICH names it MPI_C_COMPLEX.
    (MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX", 8, Basic::C32),
    (MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16, Basic::C64),
    (
        MPI_C_LONG_DOUBLE_COMPLEX,
        "MPI_C_LONG_DOUBLE_COMPLEX",
        32,
        Basic::CLongDouble,
    ),
    (MPI_AINT, "MPI_AINT", 8, Basic::I64),
    (MPI_OFFSET, "MPI_OFFSET", 8, Basic::I64),
    (MPI_COUNT, "MPI_COUNT", 8, Basic::I64),
    (MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, Basic::Bool),
    (
        MPI_CXX_FLOAT_COMPLEX,
        "MPI_CXX_FLOAT_COMPLEX",
        8,
        Basic::C32,
    ),
    (
        MPI_CXX_DOUBLE_COMPLEX,
        "MPI_CXX_DOUBLE_COMPLEX",
        16,
        Basic::C64,
    ),
    (
        MPI_CXX_LONG_DOUBLE_COMPLEX,
        "MPI_CXX_LONG_DOUBLE_COMPLEX",
        32,
        Basic::CLongDouble,
    ),
];

/// Pair types MPICH keeps as "direct" handles 0x8c000000..=4: (handle, name, value size,
/// index offset, extent).
const PAIRS: &[(MPI_Datatype, &str, usize, isize, isize, Basic)] = &[
    (MPI_FLOAT_INT, "MPI_FLOAT_INT", 4, 4, 8, Basic::FloatInt),
    (MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 8, 8, 16, Basic::DoubleInt),
    (MPI_LONG_INT, "MPI_LONG_INT", 8, 8, 16, Basic::LongInt),
    (MPI_SHORT_INT, "MPI_SHORT_INT", 2, 4, 8, Basic::ShortInt),
    (
        MPI_LONG_DOUBLE_INT,
        "MPI_LONG_DOUBLE_INT",
        16,
        16,
        32,
        Basic::LongDoubleInt,
    ),
];

/// Builtin handles are `0x4c00_SSII`: look them up by the index byte `II`.
static TABLE: OnceLock<Vec<Option<(MPI_Datatype, Datatype)>>> = OnceLock::new();
static PAIR_TABLE: OnceLock<Vec<Datatype>> = OnceLock::new();

fn table() -> &'static [Option<(MPI_Datatype, Datatype)>] {
    TABLE.get_or_init(|| {
        let mut t: Vec<Option<(MPI_Datatype, Datatype)>> = vec![None; 256];
        for &(h, name, size, basic) in BUILTINS {
            let slot = &mut t[(h & 0xff) as usize];
            assert!(slot.is_none(), "builtin datatype index clash for {name}");
            let mut d = Datatype::predefined(name, size, Some(basic));
            d.ext32 = external32::predefined_ext(name);
            *slot = Some((h, d));
        }
        t
    })
}

fn pairs() -> &'static [Datatype] {
    PAIR_TABLE.get_or_init(|| {
        PAIRS
            .iter()
            .map(|&(_, name, vsize, ioff, extent, basic)| {
                let mut d = Datatype::predefined(name, vsize + 4, Some(basic));
                d.segments = Segments::from_runs(&[(0, vsize), (ioff, 4)]);
                d.extent = extent;
                d.true_extent = ioff + 4;
                d.ext32 = external32::predefined_ext(name);
                d
            })
            .collect()
    })
}

/// The predefined datatype with handle `h`, if it is one.
#[inline]
pub fn lookup(h: MPI_Datatype) -> Option<&'static Datatype> {
    if (h as u32) & 0xffff_0000 == 0x4c00_0000 {
        match &table()[(h & 0xff) as usize] {
            Some((hh, d)) if *hh == h => Some(d),
            _ => None,
        }
    } else if (h as u32) >= 0x8c00_0000 && (h as u32) <= 0x8c00_0004 {
        pairs().get((h as u32 - 0x8c00_0000) as usize)
    } else {
        None
    }
}

/// The handle of the predefined type named `name` (MPI_DATATYPE_NULL for no such type).
pub fn named(name: &str) -> MPI_Datatype {
    let builtin = BUILTINS.iter().map(|&(h, n, ..)| (h, n));
    let mut all = builtin.chain(PAIRS.iter().map(|&(h, n, ..)| (h, n)));
    all.find(|&(_, n)| n == name)
        .map_or(MPI_DATATYPE_NULL, |(h, _)| h)
}

/// MPI_LB / MPI_UB: deprecated markers that are valid handles but not usable for data.
pub fn is_bound_marker(h: MPI_Datatype) -> bool {
    h == MPI_LB || h == MPI_UB
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_handle_encoding() {
        for &(h, name, size, _) in BUILTINS {
            assert_eq!(((h >> 8) & 0xff) as usize, size % 256, "{name}");
            assert_eq!(lookup(h).unwrap().name, name);
        }
        assert_eq!(lookup(MPI_DOUBLE_INT).unwrap().size, 12);
        assert_eq!(lookup(MPI_DOUBLE_INT).unwrap().extent, 16);
        assert_eq!(lookup(MPI_SHORT_INT).unwrap().size, 6);
        assert!(lookup(MPI_DATATYPE_NULL).is_none());
        assert!(lookup(0x4c00_0199).is_none());
        assert_eq!(named("MPI_LONG_LONG_INT"), MPI_LONG_LONG);
        assert_eq!(named("MPI_2DOUBLE_PRECISION"), MPI_2DOUBLE_PRECISION);
        assert_eq!(named("MPI_LONG_DOUBLE_INT"), MPI_LONG_DOUBLE_INT);
        assert_eq!(named("MPI_NONE"), MPI_DATATYPE_NULL);
        assert_eq!(named("MPI_INTEGER16"), INTEGER16);
    }
}
