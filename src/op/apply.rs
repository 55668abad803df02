//! The kernels of the predefined operations: which types each is defined on, and applying
//! one to packed or typed buffers (x87 extended precision in `x87.rs`).

use super::x87;
use super::{Op, OpTypeMismatch};
use crate::datatype::Basic;

/// Whether MPI defines `op` on `basic` (MPI-3.1 §5.9.2), as far as we implement it.
pub fn check(op: Op, basic: Basic) -> Result<(), OpTypeMismatch> {
    use Basic::*;
    let int = matches!(basic, I8 | U8 | I16 | U16 | I32 | U32 | I64 | U64 | I128);
    let float = matches!(basic, F32 | F64 | LongDouble);
    let complex = matches!(basic, C32 | C64 | CLongDouble);
    let pair = matches!(
        basic,
        FloatInt | DoubleInt | LongInt | TwoInt | ShortInt | LongDoubleInt
    );
    let ok = match op {
        Op::Replace | Op::NoOp => true,
        Op::Max | Op::Min => int || float,
        Op::Sum | Op::Prod => int || float || complex,
        // Floating point too, as MPICH allows (an extension of MPI-3.1 §5.9.2).
        Op::Land | Op::Lor | Op::Lxor => int || float || basic == Bool,
        Op::Band | Op::Bor | Op::Bxor => int || basic == Byte,
        Op::Maxloc | Op::Minloc => pair,
    };
    if ok {
        Ok(())
    } else {
        Err(OpTypeMismatch)
    }
}

/// `inout[i] = f(input[i], inout[i])` over the values of type `$t` in two byte slices, which
/// need not be aligned (a loop of unaligned loads and stores, which the compiler
/// vectorizes).
macro_rules! lanes {
    ($t:ty, $input:ident, $inout:ident, |$a:ident, $b:ident| $e:expr) => {{
        const W: usize = std::mem::size_of::<$t>();
        let n = $input.len().min($inout.len()) / W;
        let x = $input.as_ptr() as *const $t;
        let y = $inout.as_mut_ptr() as *mut $t;
        for i in 0..n {
            // SAFETY: i < n, and both slices hold at least n values of W bytes; unaligned
            // accesses are allowed by read/write_unaligned; `inout` is borrowed mutably, so
            // it does not overlap `input`.
            unsafe {
                let $a = x.add(i).read_unaligned();
                let $b = y.add(i).read_unaligned();
                let r: $t = $e;
                y.add(i).write_unaligned(r);
            }
        }
    }};
}

macro_rules! int_kernel {
    ($t:ty, $op:expr, $input:ident, $inout:ident) => {
        match $op {
            Op::Max => lanes!($t, $input, $inout, |a, b| a.max(b)),
            Op::Min => lanes!($t, $input, $inout, |a, b| a.min(b)),
            Op::Sum => lanes!($t, $input, $inout, |a, b| a.wrapping_add(b)),
            Op::Prod => lanes!($t, $input, $inout, |a, b| a.wrapping_mul(b)),
            Op::Land => lanes!($t, $input, $inout, |a, b| ((a != 0) && (b != 0)) as $t),
            Op::Lor => lanes!($t, $input, $inout, |a, b| ((a != 0) || (b != 0)) as $t),
            Op::Lxor => lanes!($t, $input, $inout, |a, b| ((a != 0) != (b != 0)) as $t),
            Op::Band => lanes!($t, $input, $inout, |a, b| a & b),
            Op::Bor => lanes!($t, $input, $inout, |a, b| a | b),
            Op::Bxor => lanes!($t, $input, $inout, |a, b| a ^ b),
            _ => return Err(OpTypeMismatch),
        }
    };
}

macro_rules! float_kernel {
    ($t:ty, $op:expr, $input:ident, $inout:ident) => {
        match $op {
            Op::Max => lanes!($t, $input, $inout, |a, b| if a > b { a } else { b }),
            Op::Min => lanes!($t, $input, $inout, |a, b| if a < b { a } else { b }),
            Op::Sum => lanes!($t, $input, $inout, |a, b| a + b),
            Op::Prod => lanes!($t, $input, $inout, |a, b| a * b),
            Op::Land => lanes!($t, $input, $inout, |a, b| ((a != 0.0 && b != 0.0) as u8)
                .into()),
            Op::Lor => lanes!($t, $input, $inout, |a, b| ((a != 0.0 || b != 0.0) as u8)
                .into()),
            Op::Lxor => lanes!($t, $input, $inout, |a, b| (((a != 0.0) != (b != 0.0))
                as u8)
                .into()),
            _ => return Err(OpTypeMismatch),
        }
    };
}

macro_rules! complex_kernel {
    ($t:ty, $op:expr, $input:ident, $inout:ident) => {{
        const W: usize = std::mem::size_of::<$t>();
        for (x, y) in $input
            .chunks_exact(2 * W)
            .zip($inout.chunks_exact_mut(2 * W))
        {
            let ar = <$t>::from_ne_bytes(x[..W].try_into().unwrap());
            let ai = <$t>::from_ne_bytes(x[W..].try_into().unwrap());
            let br = <$t>::from_ne_bytes(y[..W].try_into().unwrap());
            let bi = <$t>::from_ne_bytes(y[W..].try_into().unwrap());
            let (r, i) = match $op {
                Op::Sum => (ar + br, ai + bi),
                Op::Prod => (ar * br - ai * bi, ar * bi + ai * br),
                _ => return Err(OpTypeMismatch),
            };
            y[..W].copy_from_slice(&r.to_ne_bytes());
            y[W..].copy_from_slice(&i.to_ne_bytes());
        }
    }};
}

/// MAXLOC/MINLOC on (value, int index) pairs; `$ioff` is the index's byte offset and
/// `$stride` the bytes from one pair to the next.
macro_rules! loc_kernel {
    ($t:ty, $ioff:expr, $stride:expr, $op:expr, $input:ident, $inout:ident) => {{
        const W: usize = std::mem::size_of::<$t>();
        let stride: usize = $stride;
        for (x, y) in $input
            .chunks_exact(stride)
            .zip($inout.chunks_exact_mut(stride))
        {
            let a = <$t>::from_ne_bytes(x[..W].try_into().unwrap());
            let b = <$t>::from_ne_bytes(y[..W].try_into().unwrap());
            let ai = i32::from_ne_bytes(x[$ioff..$ioff + 4].try_into().unwrap());
            let bi = i32::from_ne_bytes(y[$ioff..$ioff + 4].try_into().unwrap());
            let take_a = match $op {
                Op::Maxloc => a > b || (a == b && ai < bi),
                _ => a < b || (a == b && ai < bi),
            };
            if take_a {
                y[..W].copy_from_slice(&a.to_ne_bytes());
                y[$ioff..$ioff + 4].copy_from_slice(&ai.to_ne_bytes());
            }
        }
    }};
}

/// `inout[i] = op(input[i], inout[i])` for `n` values of `basic`, reading unaligned bytes.
pub fn apply(op: Op, basic: Basic, input: &[u8], inout: &mut [u8]) -> Result<(), OpTypeMismatch> {
    check(op, basic)?;
    if op == Op::NoOp {
        return Ok(());
    }
    if op == Op::Replace {
        inout.copy_from_slice(&input[..inout.len()]);
        return Ok(());
    }
    match basic {
        Basic::I8 => int_kernel!(i8, op, input, inout),
        // Bytes take the bitwise operations only (`check` refuses the others).
        Basic::U8 | Basic::Bool | Basic::Byte => int_kernel!(u8, op, input, inout),
        Basic::I16 => int_kernel!(i16, op, input, inout),
        Basic::U16 => int_kernel!(u16, op, input, inout),
        Basic::I32 => int_kernel!(i32, op, input, inout),
        Basic::U32 => int_kernel!(u32, op, input, inout),
        Basic::I64 => int_kernel!(i64, op, input, inout),
        Basic::U64 => int_kernel!(u64, op, input, inout),
        Basic::I128 => int_kernel!(i128, op, input, inout),
        Basic::F32 => float_kernel!(f32, op, input, inout),
        Basic::F64 => float_kernel!(f64, op, input, inout),
        Basic::C32 => complex_kernel!(f32, op, input, inout),
        Basic::C64 => complex_kernel!(f64, op, input, inout),
        Basic::FloatInt => loc_kernel!(f32, 4, basic.size(), op, input, inout),
        Basic::DoubleInt => loc_kernel!(f64, 8, basic.size(), op, input, inout),
        Basic::LongInt => loc_kernel!(i64, 8, basic.size(), op, input, inout),
        Basic::TwoInt => loc_kernel!(i32, 4, basic.size(), op, input, inout),
        Basic::ShortInt => loc_kernel!(i16, 4, basic.size(), op, input, inout),
        Basic::LongDouble => return x87::apply(op, input, inout),
        Basic::CLongDouble => return x87::apply_complex(op, input, inout),
        Basic::LongDoubleInt => return x87::apply_loc(op, x87::SIZE, basic.size(), input, inout),
    }
    Ok(())
}

/// Bytes of one packed value of `basic`: pair types lose the padding C gives them (a packed
/// MPI_DOUBLE_INT is the double and then the int, 12 bytes).
pub fn packed_size(basic: Basic) -> usize {
    match basic {
        Basic::DoubleInt | Basic::LongInt => 12,
        Basic::ShortInt => 6,
        Basic::LongDoubleInt => 20,
        b => b.size(),
    }
}

/// `apply` on packed data (what collectives move and reduce): `n` values of `basic` laid
/// out back to back, pair types without padding (see `packed_size`).
pub fn apply_packed(
    op: Op,
    basic: Basic,
    input: &[u8],
    inout: &mut [u8],
) -> Result<(), OpTypeMismatch> {
    check(op, basic)?;
    if matches!(op, Op::Maxloc | Op::Minloc) {
        let stride = packed_size(basic);
        match basic {
            Basic::DoubleInt => loc_kernel!(f64, 8, stride, op, input, inout),
            Basic::LongInt => loc_kernel!(i64, 8, stride, op, input, inout),
            Basic::ShortInt => loc_kernel!(i16, 2, stride, op, input, inout),
            Basic::LongDoubleInt => return x87::apply_loc(op, x87::SIZE, stride, input, inout),
            _ => return apply(op, basic, input, inout),
        }
        return Ok(());
    }
    apply(op, basic, input, inout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes<T: Copy>(v: &[T]) -> Vec<u8> {
        let n = std::mem::size_of_val(v);
        unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, n) }.to_vec()
    }

    #[test]
    fn sums_and_extrema() {
        let a = bytes(&[1i32, -5, 7]);
        let mut b = bytes(&[10i32, 2, -7]);
        apply(Op::Sum, Basic::I32, &a, &mut b).unwrap();
        assert_eq!(b, bytes(&[11i32, -3, 0]));
        apply(Op::Max, Basic::I32, &bytes(&[100i32, -100, 0]), &mut b).unwrap();
        assert_eq!(b, bytes(&[100i32, -3, 0]));
        let mut c = bytes(&[1.5f64, 2.0]);
        apply(Op::Prod, Basic::F64, &bytes(&[2.0f64, 0.25]), &mut c).unwrap();
        assert_eq!(c, bytes(&[3.0f64, 0.5]));
        // MPI_CHAR with MPI_SUM is accepted, as MPICH does (OSU relies on it).
        let mut ch = vec![250u8, 1];
        apply(Op::Sum, Basic::I8, &[10, 2], &mut ch).unwrap();
        assert_eq!(ch, vec![4, 3]);
    }

    #[test]
    fn maxloc_prefers_lower_index_on_ties() {
        let mk = |v: f64, i: i32| {
            let mut b = v.to_ne_bytes().to_vec();
            b.extend_from_slice(&i.to_ne_bytes());
            b.extend_from_slice(&[0; 4]);
            b
        };
        let mut acc = mk(3.0, 5);
        apply(Op::Maxloc, Basic::DoubleInt, &mk(3.0, 2), &mut acc).unwrap();
        assert_eq!(acc, mk(3.0, 2));
        apply(Op::Minloc, Basic::DoubleInt, &mk(1.0, 9), &mut acc).unwrap();
        assert_eq!(acc, mk(1.0, 9));
    }

    #[test]
    fn packed_pairs_have_no_padding() {
        let mk = |v: f64, i: i32| {
            let mut b = v.to_ne_bytes().to_vec();
            b.extend_from_slice(&i.to_ne_bytes());
            b
        };
        let mut acc = [mk(3.0, 5), mk(1.0, 1)].concat();
        let input = [mk(3.0, 2), mk(0.5, 7)].concat();
        apply_packed(Op::Maxloc, Basic::DoubleInt, &input, &mut acc).unwrap();
        assert_eq!(acc, [mk(3.0, 2), mk(1.0, 1)].concat());
        apply_packed(Op::Minloc, Basic::DoubleInt, &input, &mut acc).unwrap();
        assert_eq!(acc, [mk(3.0, 2), mk(0.5, 7)].concat());
        let si = |v: i16, i: i32| [v.to_ne_bytes().to_vec(), i.to_ne_bytes().to_vec()].concat();
        let mut a = [si(4, 0), si(-2, 3)].concat();
        apply_packed(
            Op::Maxloc,
            Basic::ShortInt,
            &[si(9, 1), si(-2, 1)].concat(),
            &mut a,
        )
        .unwrap();
        assert_eq!(a, [si(9, 1), si(-2, 1)].concat());
    }

    #[test]
    fn rejects_undefined_pairs() {
        assert!(check(Op::Band, Basic::F64).is_err());
        assert!(check(Op::Maxloc, Basic::I32).is_err());
        assert!(check(Op::Sum, Basic::Byte).is_err());
        assert!(check(Op::Bor, Basic::Byte).is_ok());
        assert!(check(Op::Max, Basic::C64).is_err());
        let mut x = 2.0f64.to_ne_bytes().to_vec();
        apply(Op::Lxor, Basic::F64, &0.0f64.to_ne_bytes(), &mut x).unwrap();
        assert_eq!(x, 1.0f64.to_ne_bytes());
    }
}
