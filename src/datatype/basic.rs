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
    F32,
    F64,
    /// x86-64 `long double` (80-bit extended in 16 bytes).
    LongDouble,
    /// C `_Bool` / Fortran LOGICAL as bytes-wide truth values.
    Bool,
    /// Complex numbers of two f32 / two f64.
    C32,
    C64,
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
            Basic::LongDouble | Basic::C64 => 16,
            Basic::FloatInt | Basic::TwoInt => 8,
            Basic::ShortInt => 8,
            Basic::DoubleInt | Basic::LongInt => 16,
            Basic::LongDoubleInt => 32,
        }
    }
}
