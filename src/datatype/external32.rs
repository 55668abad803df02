//! The "external32" data representation (MPI-3.1 §13.5.2): big-endian IEEE values of fixed
//! sizes. On x86-64 and arm64 Linux every C and Fortran basic type railmpi knows already has
//! its external32 size, so converting a packed native stream is a byte swap of each value
//! in place (the same operation in both directions). Two limits, as in many MPIs: `long
//! double` is swapped as 16 bytes, not converted to IEEE quad, and `wchar_t` keeps 4 bytes.

use super::{Basic, Datatype};

/// The (swap width, how many) runs of one element of `t`, in type-map order.
fn swap_units(t: &Datatype) -> Vec<(usize, usize)> {
    match t.basic {
        // One basic type throughout: complex values swap each half on its own.
        Some((b, n)) if t.size > 0 && n > 0 => {
            let per = t.size / n;
            match b {
                Basic::C32 | Basic::C64 | Basic::CLongDouble => vec![(per / 2, 2 * n)],
                Basic::Byte => vec![(1, t.size)],
                _ => t.elements.clone(),
            }
        }
        _ => t.elements.clone(),
    }
}

/// Swaps a packed stream of elements of `t` between native and external32 order.
/// `packed.len()` is a whole number of elements (what MPI_Pack wrote).
pub fn swap_packed(t: &Datatype, packed: &mut [u8]) {
    if cfg!(target_endian = "big") || t.size == 0 {
        return;
    }
    let units = swap_units(t);
    for element in packed.chunks_mut(t.size) {
        let mut at = 0;
        for &(width, n) in &units {
            for _ in 0..n {
                let Some(v) = element.get_mut(at..at + width) else {
                    return;
                };
                v.reverse();
                at += width;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_swap_per_value() {
        let t = Datatype::predefined("MPI_INT", 4, Some(Basic::I32));
        let mut b = [1, 2, 3, 4, 5, 6, 7, 8];
        swap_packed(&t, &mut b);
        assert_eq!(b, [4, 3, 2, 1, 8, 7, 6, 5]);
        swap_packed(&t, &mut b);
        assert_eq!(b, [1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn complex_swaps_each_half() {
        let t = Datatype::predefined("MPI_C_FLOAT_COMPLEX", 8, Some(Basic::C32));
        let mut b = [1, 2, 3, 4, 5, 6, 7, 8];
        swap_packed(&t, &mut b);
        assert_eq!(b, [4, 3, 2, 1, 8, 7, 6, 5]);
    }

    #[test]
    fn bytes_stay() {
        let t = Datatype::predefined("MPI_BYTE", 1, Some(Basic::Byte));
        let mut b = [1, 2, 3];
        swap_packed(&t, &mut b);
        assert_eq!(b, [1, 2, 3]);
    }
}
