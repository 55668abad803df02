//! The "external32" data representation (MPI-3.1 §13.5.2): big-endian IEEE values of fixed
//! sizes. On x86-64 and arm64 Linux most C and Fortran basic types already have their
//! external32 size, and converting a packed native stream is a byte swap of each value in
//! place (the same operation in both directions). Three are wider here than in external32:
//! `long` and `unsigned long` (8 bytes, 4 in external32), `wchar_t` (4, 2), so types built
//! from MPI_LONG, MPI_UNSIGNED_LONG, MPI_WCHAR or MPI_LONG_INT carry their external widths
//! (`Datatype::ext32`) and are converted value by value (a `long` that does not fit 4 bytes
//! is MPI_ERR_CONVERSION; values read back are sign- or zero-extended). `long double` is
//! swapped as 16 bytes, not converted to IEEE quad. MPI-IO's external32 files use the
//! native widths throughout (`swap_packed`).

use super::{Basic, Datatype};

/// How a basic value's external32 form differs from its native one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ext {
    /// The same width: byte-swapped.
    #[default]
    Native,
    /// A signed integer of 4 bytes (C `long`).
    Signed4,
    /// An unsigned integer of 4 bytes (C `unsigned long`).
    Unsigned4,
    /// An unsigned integer of 2 bytes (`wchar_t`).
    Unsigned2,
}

impl Ext {
    /// Bytes of one value of native size `native` in external32.
    pub fn width(self, native: usize) -> usize {
        match self {
            Ext::Native => native,
            Ext::Signed4 | Ext::Unsigned4 => 4,
            Ext::Unsigned2 => 2,
        }
    }
}

/// The external32 form of the predefined type named `name` where it is not the native
/// one: its (native size, how many, Ext) runs.
pub fn predefined_ext(name: &str) -> Option<Vec<(usize, usize, Ext)>> {
    match name {
        "MPI_LONG" => Some(vec![(8, 1, Ext::Signed4)]),
        "MPI_UNSIGNED_LONG" => Some(vec![(8, 1, Ext::Unsigned4)]),
        "MPI_WCHAR" => Some(vec![(4, 1, Ext::Unsigned2)]),
        "MPI_LONG_INT" => Some(vec![(8, 1, Ext::Signed4), (4, 1, Ext::Native)]),
        _ => None,
    }
}

/// Bytes of `count` elements of `t` in external32 (MPI_Pack_external_size); None on
/// overflow.
pub fn external_size(t: &Datatype, count: usize) -> Option<usize> {
    let per = match &t.ext32 {
        None => t.size,
        Some(runs) => runs.iter().map(|&(w, n, e)| e.width(w) * n).sum(),
    };
    per.checked_mul(count)
}

/// A value that does not fit its external32 width (MPI_ERR_CONVERSION).
#[derive(Debug, PartialEq, Eq)]
pub struct DoesNotFit;

/// Converts a packed native stream of whole elements of `t` to external32 into `out`
/// (`external_size` bytes for them).
pub fn to_external(t: &Datatype, native: &[u8], out: &mut [u8]) -> Result<(), DoesNotFit> {
    let Some(runs) = &t.ext32 else {
        out.copy_from_slice(native);
        swap_packed(t, out);
        return Ok(());
    };
    each_value(runs, native.len(), |i, w, o, x, e| {
        let (v, dst) = (&native[i..i + w], &mut out[o..o + x]);
        // Little-endian native value, narrowed (when x < w): the dropped bytes must be the
        // sign (or zero) extension of what is kept.
        let fill = match e {
            Ext::Signed4 if v[x - 1] & 0x80 != 0 => 0xff,
            _ => 0,
        };
        if v[x..].iter().any(|&b| b != fill) {
            return Err(DoesNotFit);
        }
        for k in 0..x {
            dst[k] = v[x - 1 - k];
        }
        Ok(())
    })
}

/// Converts external32 data of whole elements of `t` to a packed native stream in `out`
/// (`count * t.size` bytes).
pub fn from_external(t: &Datatype, ext: &[u8], out: &mut [u8]) {
    let Some(runs) = &t.ext32 else {
        out.copy_from_slice(ext);
        swap_packed(t, out);
        return;
    };
    let widened = each_value(runs, out.len(), |i, w, o, x, e| {
        let (v, dst) = (&ext[o..o + x], &mut out[i..i + w]);
        for k in 0..x {
            dst[k] = v[x - 1 - k];
        }
        let fill = match e {
            Ext::Signed4 if v[0] & 0x80 != 0 => 0xff,
            _ => 0,
        };
        dst[x..].fill(fill);
        Ok(())
    });
    debug_assert!(widened.is_ok());
}

/// Walks the values of whole elements of `runs` filling `native_len` native bytes, calling
/// `f(native offset, native width, external offset, external width, form)` for each.
fn each_value(
    runs: &[(usize, usize, Ext)],
    native_len: usize,
    mut f: impl FnMut(usize, usize, usize, usize, Ext) -> Result<(), DoesNotFit>,
) -> Result<(), DoesNotFit> {
    let (mut i, mut o) = (0, 0);
    while i < native_len {
        for &(w, n, e) in runs {
            let x = e.width(w);
            for _ in 0..n {
                f(i, w, o, x, e)?;
                i += w;
                o += x;
            }
        }
    }
    Ok(())
}

/// The data representation argument of MPI_Pack_external and its kin: only "external32"
/// exists (else MPI_ERR_ARG).
pub fn check_datarep(datarep: &[u8]) -> crate::error::Result<()> {
    if datarep == b"external32" {
        return Ok(());
    }
    crate::mpi_err!(
        Arg,
        "unknown data representation \"{}\" (only \"external32\")",
        String::from_utf8_lossy(datarep)
    )
}

/// Where `count` elements of `t` in external32 lie in a `size`-byte buffer from position
/// `pos` (MPI_Pack_external when `packing`, MPI_Unpack_external): their bytes as (pos,
/// len), checked (negative numbers are MPI_ERR_ARG, bytes past the buffer
/// MPI_ERR_TRUNCATE).
pub fn span(
    t: &Datatype,
    count: usize,
    pos: i64,
    size: i64,
    packing: bool,
) -> crate::error::Result<(usize, usize)> {
    if pos < 0 || size < 0 {
        return crate::mpi_err!(Arg, "negative position {pos} or buffer size {size}");
    }
    let len = size_of(t, count)?;
    let (pos, end) = (pos as usize, (pos as usize).checked_add(len));
    if len > 0 && end.is_none_or(|end| end > size as usize) {
        return if packing {
            crate::mpi_err!(
                Truncate,
                "{len} packed bytes do not fit at position {pos} of a {size}-byte buffer"
            )
        } else {
            crate::mpi_err!(
                Truncate,
                "unpacking {len} bytes at position {pos} runs past the {size}-byte input"
            )
        };
    }
    Ok((pos, len))
}

/// MPI_Pack_external (`packing`) or MPI_Unpack_external of `count` elements of `t`
/// between the typed buffer `typed` and the `size`-byte external32 buffer `ext` at `pos`
/// (`span`'s checks): the position after them, None when no byte moves. A NULL external
/// buffer, or a NULL typed one whose type starts at offset 0, is MPI_ERR_ARG.
///
/// # Safety
/// `typed` addresses `count` elements of `t`, `ext` `size` bytes (NULL is checked).
pub unsafe fn copy(
    t: &Datatype,
    count: usize,
    typed: *mut u8,
    ext: *mut u8,
    size: i64,
    pos: i64,
    packing: bool,
) -> crate::error::Result<Option<usize>> {
    let (pos, len) = span(t, count, pos, size, packing)?;
    if len == 0 {
        return Ok(None);
    }
    if ext.is_null() || (typed.is_null() && t.true_lb == 0) {
        return crate::mpi_err!(Arg, "NULL buffer");
    }
    // SAFETY: `ext` holds `size` bytes, pos..pos + len among them (checked by span);
    // `typed` holds `count` elements (the contract).
    let bytes = std::slice::from_raw_parts_mut(ext.add(pos), len);
    if packing {
        pack(t, count, typed, bytes)?;
    } else {
        unpack(t, count, bytes, typed)?;
    }
    Ok(Some(pos + len))
}

/// `external_size` as a result (MPI_ERR_COUNT on overflow).
pub fn size_of(t: &Datatype, count: usize) -> crate::error::Result<usize> {
    external_size(t, count).ok_or_else(too_large)
}

fn too_large() -> crate::error::Error {
    crate::error::Error::new(crate::error::ErrorClass::Count, "too large")
}

/// Pack `count` elements of `t` at `src` into `out` in external32 (`out` holds their
/// `external_size`); a value too wide for its external32 size is MPI_ERR_CONVERSION.
///
/// # Safety
/// `src` addresses `count` elements of `t`, readable.
pub unsafe fn pack(
    t: &Datatype,
    count: usize,
    src: *const u8,
    out: &mut [u8],
) -> crate::error::Result<()> {
    if t.ext32.is_none() {
        t.pack_into(count, 0, src, out);
        swap_packed(t, out);
        return Ok(());
    }
    let mut native = vec![0u8; count.checked_mul(t.size).ok_or_else(too_large)?];
    t.pack_into(count, 0, src, &mut native);
    if to_external(t, &native, out).is_err() {
        return crate::mpi_err!(
            Conversion,
            "a value does not fit its external32 size (a long of more than 32 bits)"
        );
    }
    Ok(())
}

/// Unpack `count` elements of `t` in external32 from `ext` (their `external_size` bytes,
/// converted in a copy) into `dst`.
///
/// # Safety
/// `dst` addresses `count` elements of `t`, writable.
pub unsafe fn unpack(
    t: &Datatype,
    count: usize,
    ext: &[u8],
    dst: *mut u8,
) -> crate::error::Result<()> {
    let mut native = vec![0u8; count.checked_mul(t.size).ok_or_else(too_large)?];
    from_external(t, ext, &mut native);
    t.unpack_from(count, 0, &native, dst);
    Ok(())
}

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
    fn copy_checks_buffers_and_moves_the_position() {
        let t = Datatype::predefined("MPI_INT", 4, Some(Basic::I32));
        let mut v = [1i32, 2];
        let mut ext = [0u8; 8];
        let typed = v.as_mut_ptr() as *mut u8;
        // SAFETY: v holds 2 ints, ext 8 bytes.
        unsafe {
            assert_eq!(
                copy(&t, 2, typed, ext.as_mut_ptr(), 8, 0, true).unwrap(),
                Some(8)
            );
            assert_eq!(ext, [0, 0, 0, 1, 0, 0, 0, 2]);
            assert_eq!(
                copy(&t, 0, typed, ext.as_mut_ptr(), 8, 8, true).unwrap(),
                None
            );
            let e = copy(&t, 1, typed, std::ptr::null_mut(), 8, 0, true).unwrap_err();
            assert_eq!(e.class, crate::error::ErrorClass::Arg);
            let e = copy(&t, 1, typed, ext.as_mut_ptr(), 8, 6, false).unwrap_err();
            assert_eq!(e.class, crate::error::ErrorClass::Truncate);
        }
    }

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

    fn long() -> Datatype {
        let mut t = Datatype::predefined("MPI_LONG", 8, Some(Basic::I64));
        t.ext32 = predefined_ext("MPI_LONG");
        t
    }

    #[test]
    fn longs_narrow_to_four_big_endian_bytes() {
        let t = long();
        assert_eq!(external_size(&t, 3), Some(12));
        let vals: [i64; 3] = [1, -2, 0x7fff_ffff];
        let native: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut ext = [0u8; 12];
        to_external(&t, &native, &mut ext).unwrap();
        assert_eq!(
            ext,
            [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0x7f, 0xff, 0xff, 0xff]
        );
        let mut back = [0u8; 24];
        from_external(&t, &ext, &mut back);
        assert_eq!(back.as_slice(), native.as_slice());
        let big = (1i64 << 40).to_le_bytes();
        assert_eq!(to_external(&t, &big, &mut [0u8; 4]), Err(DoesNotFit));
    }

    #[test]
    fn a_struct_of_long_and_int_mixes_widths() {
        use crate::datatype::Member;
        let int = Datatype::predefined("MPI_INT", 4, Some(Basic::I32));
        let t = Datatype::structure(
            &[1, 2],
            &[0, 8],
            &[Member::Type(&long()), Member::Type(&int)],
        )
        .unwrap();
        assert_eq!(external_size(&t, 2), Some(24));
        let mut native = Vec::new();
        for (l, a, b) in [(5i64, 6i32, 7i32), (-1, -2, 3)] {
            native.extend(l.to_le_bytes());
            native.extend(a.to_le_bytes());
            native.extend(b.to_le_bytes());
        }
        let mut ext = [0u8; 24];
        to_external(&t, &native, &mut ext).unwrap();
        assert_eq!(&ext[..12], [0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 7]);
        let mut back = vec![0u8; 32];
        from_external(&t, &ext, &mut back);
        assert_eq!(back, native);
    }

    #[test]
    fn bytes_stay() {
        let t = Datatype::predefined("MPI_BYTE", 1, Some(Basic::Byte));
        let mut b = [1, 2, 3];
        swap_packed(&t, &mut b);
        assert_eq!(b, [1, 2, 3]);
    }
}
