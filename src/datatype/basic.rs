//! The basic (language) types data is made of, as reductions see them.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basic {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    /// A 16-byte integer (Fortran INTEGER*16, MPI_INTEGER16; gfortran's integer(16)).
    I128,
    F32,
    F64,
    /// x86-64 `long double` (80-bit extended in 16 bytes).
    LongDouble,
    /// C `_Bool` / Fortran LOGICAL as bytes-wide truth values.
    Bool,
    /// Complex numbers of two f32 / two f64 / two long doubles (32 bytes).
    C32,
    C64,
    CLongDouble,
    /// Raw bytes (MPI_BYTE, MPI_PACKED): no arithmetic.
    Byte,
    /// Pair types for MAXLOC/MINLOC: value then int index.
    FloatInt,
    DoubleInt,
    LongInt,
    TwoInt,
    ShortInt,
    LongDoubleInt,
}

impl Basic {
    /// Bytes one value occupies (pairs include their padding, as C lays them out).
    pub fn size(self) -> usize {
        match self {
            Basic::I8 | Basic::U8 | Basic::Bool | Basic::Byte => 1,
            Basic::I16 | Basic::U16 => 2,
            Basic::I32 | Basic::U32 | Basic::F32 => 4,
            Basic::I64 | Basic::U64 | Basic::F64 | Basic::C32 => 8,
            Basic::LongDouble | Basic::C64 | Basic::I128 => 16,
            Basic::FloatInt | Basic::TwoInt => 8,
            Basic::ShortInt => 8,
            Basic::DoubleInt | Basic::LongInt => 16,
            Basic::LongDoubleInt | Basic::CLongDouble => 32,
        }
    }
}

impl Basic {
    /// C alignment of a value on x86-64; a struct's extent is padded to its largest member
    /// alignment.
    pub fn align(self) -> usize {
        match self {
            Basic::I8 | Basic::U8 | Basic::Bool => 1,
            Basic::Byte => 1,
            Basic::I16 | Basic::U16 => 2,
            Basic::I32 | Basic::U32 | Basic::F32 | Basic::C32 => 4,
            Basic::FloatInt | Basic::TwoInt | Basic::ShortInt => 4,
            Basic::I64 | Basic::U64 | Basic::F64 | Basic::C64 => 8,
            Basic::DoubleInt | Basic::LongInt => 8,
            Basic::LongDouble | Basic::LongDoubleInt | Basic::CLongDouble | Basic::I128 => 16,
        }
    }

    /// Which predefined types share one representation in MPICH's type engine (all integers
    /// of one width are the same type there): a struct whose members all share it is laid
    /// out without padding.
    pub fn class(self) -> u64 {
        match self {
            Basic::I8 | Basic::U8 | Basic::Bool => 1,
            Basic::CLongDouble => 15,
            Basic::Byte => 1,
            Basic::I16 | Basic::U16 => 2,
            Basic::I32 | Basic::U32 => 4,
            Basic::I64 | Basic::U64 => 8,
            Basic::F32 => 10,
            Basic::F64 => 11,
            Basic::LongDouble => 12,
            Basic::C32 => 13,
            Basic::C64 => 14,
            Basic::TwoInt => 16,
            Basic::FloatInt => 17,
            Basic::DoubleInt => 18,
            Basic::LongInt => 19,
            Basic::ShortInt => 20,
            Basic::LongDoubleInt => 21,
            Basic::I128 => 22,
        }
    }

    /// The basic elements one value counts as for MPI_Get_elements, as (size, count) runs:
    /// the value-index pair types are two (value, then index).
    pub fn elements(self, size: usize) -> Vec<(usize, usize)> {
        // The second member is whatever the value leaves of the pair's size (an int, or a
        // second value for MPI_2REAL / MPI_2DOUBLE_PRECISION).
        let pair = |v: usize| {
            let w = size.saturating_sub(v);
            if w == v {
                vec![(v, 2)]
            } else {
                vec![(v, 1), (w, 1)]
            }
        };
        match self {
            Basic::FloatInt | Basic::TwoInt => pair(4),
            Basic::ShortInt => pair(2),
            Basic::DoubleInt | Basic::LongInt => pair(8),
            Basic::LongDoubleInt => pair(16),
            _ if size == 0 => vec![],
            _ => vec![(size, 1)],
        }
    }
}
