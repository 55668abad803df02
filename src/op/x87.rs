//! MPI_LONG_DOUBLE arithmetic: x86-64's `long double` is the x87 80-bit extended format
//! (stored in 16 bytes, the last 6 padding), which Rust has no type for, so the reduction
//! kernels run the x87 instructions themselves. Only the 10 value bytes are read and
//! written; padding bytes of the result are left as they were.

use super::{Op, OpTypeMismatch};
use std::cmp::Ordering;

/// Bytes of one value in memory (10 significant).
pub const SIZE: usize = 16;
const VALUE: usize = 10;

/// 1.0 and 0.0 in the 80-bit format (logical operations produce them).
const ONE: [u8; VALUE] = [0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0x3f];
const ZERO: [u8; VALUE] = [0; VALUE];

#[cfg(target_arch = "x86_64")]
mod fpu {
    use std::arch::asm;

    /// A binary operation on the 80-bit values at `a` and `b`, result stored at `b`: the
    /// two loads (their order decides which operand a non-commutative operation takes
    /// first), the popping arithmetic instruction, the store.
    macro_rules! binop {
        ($(#[$doc:meta])* $name:ident: $load1:literal, $load2:literal, $op:literal) => {
            $(#[$doc])*
            ///
            /// # Safety
            /// `a` readable and `b` readable and writable for 10 bytes each.
            pub unsafe fn $name(a: *const u8, b: *mut u8) {
                // SAFETY: the caller's pointers; the x87 stack is empty on entry (the Rust
                // ABI keeps it so) and both values are popped again, so it is empty on
                // exit; every x87 register is declared clobbered.
                unsafe {
                    asm!(
                        $load1,
                        $load2,
                        $op,
                        "fstp tbyte ptr [{b}]",
                        a = in(reg) a,
                        b = in(reg) b,
                        out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                        out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                        options(nostack),
                    );
                }
            }
        };
    }

    binop!(
        /// `*b = *a + *b`.
        add: "fld tbyte ptr [{b}]", "fld tbyte ptr [{a}]", "faddp st(1), st"
    );
    binop!(
        /// `*b = *a * *b`.
        mul: "fld tbyte ptr [{b}]", "fld tbyte ptr [{a}]", "fmulp st(1), st"
    );
    binop!(
        /// `*b = *a - *b`.
        sub: "fld tbyte ptr [{a}]", "fld tbyte ptr [{b}]", "fsubp st(1), st"
    );

    /// Compare `*a` with `*b`: (greater, less, unordered).
    ///
    /// # Safety
    /// `a` and `b` readable for 10 bytes each.
    pub unsafe fn compare(a: *const u8, b: *const u8) -> (bool, bool, bool) {
        let (gt, lt, un): (u8, u8, u8);
        // SAFETY: as in `binop!`; FUCOMIP sets ZF/PF/CF (unordered: all three) and the
        // following FSTP leaves EFLAGS alone.
        unsafe {
            asm!(
                "fld tbyte ptr [{b}]",
                "fld tbyte ptr [{a}]",
                "fucomip st, st(1)",
                "fstp st(0)",
                "seta {gt}",
                "setb {lt}",
                "setp {un}",
                a = in(reg) a,
                b = in(reg) b,
                gt = out(reg_byte) gt,
                lt = out(reg_byte) lt,
                un = out(reg_byte) un,
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                options(nostack),
            );
        }
        (gt != 0, lt != 0 && un == 0, un != 0)
    }
}

fn value(b: &[u8]) -> &[u8; VALUE] {
    b[..VALUE].try_into().expect("a 16-byte slot")
}

/// `a` against `b` (None: a NaN is involved).
fn compare(a: &[u8], b: &[u8]) -> Option<Ordering> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: both slices hold at least the 10 value bytes (`value` checked).
        let (gt, lt, un) = unsafe { fpu::compare(value(a).as_ptr(), value(b).as_ptr()) };
        if un {
            None
        } else if gt {
            Some(Ordering::Greater)
        } else if lt {
            Some(Ordering::Less)
        } else {
            Some(Ordering::Equal)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (a, b);
        None
    }
}

fn is_true(a: &[u8]) -> bool {
    compare(a, &ZERO) != Some(Ordering::Equal)
}

/// `inout[i] = op(input[i], inout[i])` over 16-byte long double slots.
pub fn apply(op: Op, input: &[u8], inout: &mut [u8]) -> Result<(), OpTypeMismatch> {
    if !cfg!(target_arch = "x86_64") {
        return Err(OpTypeMismatch);
    }
    for (a, b) in input.chunks_exact(SIZE).zip(inout.chunks_exact_mut(SIZE)) {
        combine(op, a, b)?;
    }
    Ok(())
}

fn combine(op: Op, a: &[u8], b: &mut [u8]) -> Result<(), OpTypeMismatch> {
    match op {
        Op::Sum | Op::Prod => {
            #[cfg(target_arch = "x86_64")]
            {
                let (x, y) = (value(a).as_ptr(), b[..VALUE].as_mut_ptr());
                // SAFETY: x readable and y writable for the 10 value bytes.
                unsafe {
                    if op == Op::Sum {
                        fpu::add(x, y)
                    } else {
                        fpu::mul(x, y)
                    }
                }
            }
        }
        Op::Max | Op::Min => {
            let want = if op == Op::Max {
                Ordering::Greater
            } else {
                Ordering::Less
            };
            if compare(a, b) == Some(want) {
                b[..VALUE].copy_from_slice(value(a));
            }
        }
        Op::Land | Op::Lor | Op::Lxor => {
            let (x, y) = (is_true(a), is_true(b));
            let r = match op {
                Op::Land => x && y,
                Op::Lor => x || y,
                _ => x != y,
            };
            b[..VALUE].copy_from_slice(if r { &ONE } else { &ZERO });
        }
        _ => return Err(OpTypeMismatch),
    }
    Ok(())
}

/// SUM / PROD on complex long double (two 16-byte slots: real, imaginary).
pub fn apply_complex(op: Op, input: &[u8], inout: &mut [u8]) -> Result<(), OpTypeMismatch> {
    if !cfg!(target_arch = "x86_64") {
        return Err(OpTypeMismatch);
    }
    for (a, b) in input
        .chunks_exact(2 * SIZE)
        .zip(inout.chunks_exact_mut(2 * SIZE))
    {
        match op {
            Op::Sum => {
                combine(Op::Sum, &a[..SIZE], &mut b[..SIZE])?;
                combine(Op::Sum, &a[SIZE..], &mut b[SIZE..])?;
            }
            Op::Prod => {
                // (ar + i·ai)(br + i·bi) = (ar·br − ai·bi) + i·(ar·bi + ai·br)
                let (ar, ai) = (&a[..SIZE], &a[SIZE..]);
                let (mut rr, mut ii) = ([0u8; SIZE], [0u8; SIZE]);
                let mut t = [0u8; SIZE];
                rr.copy_from_slice(&b[..SIZE]); // br
                combine(Op::Prod, ar, &mut rr)?; // ar·br
                t.copy_from_slice(&b[SIZE..]); // bi
                combine(Op::Prod, ai, &mut t)?; // ai·bi
                sub_into(&rr, &mut t); // t = ar·br − ai·bi
                ii.copy_from_slice(&b[SIZE..]); // bi
                combine(Op::Prod, ar, &mut ii)?; // ar·bi
                let mut u = [0u8; SIZE];
                u.copy_from_slice(&b[..SIZE]); // br
                combine(Op::Prod, ai, &mut u)?; // ai·br
                combine(Op::Sum, &u, &mut ii)?; // ar·bi + ai·br
                b[..VALUE].copy_from_slice(&t[..VALUE]);
                b[SIZE..SIZE + VALUE].copy_from_slice(&ii[..VALUE]);
            }
            _ => return Err(OpTypeMismatch),
        }
    }
    Ok(())
}

/// `b = a − b`.
fn sub_into(a: &[u8; SIZE], b: &mut [u8; SIZE]) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: both arrays hold the 10 value bytes.
    unsafe {
        fpu::sub(a.as_ptr(), b.as_mut_ptr())
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (a, b);
}

/// MAXLOC / MINLOC on (long double, int) pairs: the index at byte `ioff`, pairs `stride`
/// bytes apart (ties keep the lower index).
pub fn apply_loc(
    op: Op,
    ioff: usize,
    stride: usize,
    input: &[u8],
    inout: &mut [u8],
) -> Result<(), OpTypeMismatch> {
    if !cfg!(target_arch = "x86_64") {
        return Err(OpTypeMismatch);
    }
    for (x, y) in input
        .chunks_exact(stride)
        .zip(inout.chunks_exact_mut(stride))
    {
        let ai = i32::from_ne_bytes(x[ioff..ioff + 4].try_into().expect("4 bytes"));
        let bi = i32::from_ne_bytes(y[ioff..ioff + 4].try_into().expect("4 bytes"));
        let better = if op == Op::Maxloc {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        let take_a = match compare(x, y) {
            Some(o) if o == better => true,
            Some(Ordering::Equal) => ai < bi,
            _ => false,
        };
        if take_a {
            y[..VALUE].copy_from_slice(value(x));
            y[ioff..ioff + 4].copy_from_slice(&ai.to_ne_bytes());
        }
    }
    Ok(())
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// An 80-bit value from an integer (exact up to 2^63), built by hand.
    fn ld(v: i64) -> [u8; SIZE] {
        let mut out = [0xAAu8; SIZE]; // padding marked, to see it is left alone
        if v == 0 {
            out[..VALUE].fill(0);
            return out;
        }
        let m = v.unsigned_abs();
        let shift = m.leading_zeros();
        let mant = m << shift;
        let exp = 16383 + 63 - shift as u16;
        out[..8].copy_from_slice(&mant.to_le_bytes());
        let se = exp | if v < 0 { 0x8000 } else { 0 };
        out[8..10].copy_from_slice(&se.to_le_bytes());
        out
    }

    #[test]
    fn arithmetic_and_extrema_in_extended_precision() {
        let mut b = ld(3);
        apply(Op::Sum, &ld(4), &mut b).unwrap();
        assert_eq!(b, ld(7));
        apply(Op::Prod, &ld(-6), &mut b).unwrap();
        assert_eq!(b, ld(-42));
        // 2^63 + 1 needs 64 mantissa bits: f64 would round it, the x87 format does not.
        let big = ld(i64::MAX);
        let mut s = ld(1);
        apply(Op::Sum, &big, &mut s).unwrap();
        let mut back = ld(-1);
        apply(Op::Sum, &s, &mut back).unwrap();
        assert_eq!(back, big);
        apply(Op::Max, &ld(-50), &mut b).unwrap();
        assert_eq!(b, ld(-42));
        apply(Op::Min, &ld(-50), &mut b).unwrap();
        assert_eq!(b, ld(-50));
        apply(Op::Land, &ld(0), &mut b).unwrap();
        assert_eq!(b[..VALUE], ZERO);
        apply(Op::Lor, &ld(9), &mut b).unwrap();
        assert_eq!(b[..VALUE], ONE);
        assert_eq!(b[VALUE..], [0xAA; SIZE - VALUE], "padding untouched");
        assert!(apply(Op::Band, &ld(1), &mut b).is_err());
    }

    #[test]
    fn complex_product_and_locations() {
        // (1 + 2i)(3 + 4i) = −5 + 10i
        let a = [ld(1), ld(2)].concat();
        let mut b = [ld(3), ld(4)].concat();
        apply_complex(Op::Prod, &a, &mut b).unwrap();
        assert_eq!(b[..VALUE], ld(-5)[..VALUE]);
        assert_eq!(b[SIZE..SIZE + VALUE], ld(10)[..VALUE]);
        let pair = |v: i64, i: i32| {
            let mut p = ld(v).to_vec();
            p.extend_from_slice(&i.to_ne_bytes());
            p
        };
        let mut acc = pair(5, 3);
        apply_loc(Op::Maxloc, SIZE, SIZE + 4, &pair(5, 1), &mut acc).unwrap();
        assert_eq!(acc, pair(5, 1), "tie keeps the lower index");
        apply_loc(Op::Minloc, SIZE, SIZE + 4, &pair(-2, 9), &mut acc).unwrap();
        assert_eq!(acc, pair(-2, 9));
    }
}
